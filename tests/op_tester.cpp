#include "op_tester.h"

#include <cmath>
#include <sstream>

#include "ops/registry.h"
#include "ir_util.h"

namespace oinfer::testing {

OpTester::OpTester(std::string opType, int64_t opset, std::string domain) : opset_(opset) {
  node_.opType = std::move(opType);
  node_.domain = std::move(domain);
  node_.name = node_.opType + "_under_test";
}

namespace {
// Setting an attribute again replaces it (tests derive a malformed node from a good one).
Attribute& addAttr(Node& n, const std::string& name, AttrType t) {
  for (auto it = n.attributes.begin(); it != n.attributes.end(); ++it)
    if (it->name == name) {
      n.attributes.erase(it);
      break;
    }
  n.attributes.push_back(Attribute{});
  n.attributes.back().name = name;
  n.attributes.back().type = t;
  return n.attributes.back();
}
}  // namespace

OpTester& OpTester::attr(const std::string& name, int64_t v) { addAttr(node_, name, AttrType::kInt).i = v; return *this; }
OpTester& OpTester::attr(const std::string& name, float v) { addAttr(node_, name, AttrType::kFloat).f = v; return *this; }
OpTester& OpTester::attr(const std::string& name, const std::string& v) { addAttr(node_, name, AttrType::kString).s = v; return *this; }
OpTester& OpTester::attr(const std::string& name, const std::vector<int64_t>& v) { addAttr(node_, name, AttrType::kInts).ints = v; return *this; }
OpTester& OpTester::attr(const std::string& name, const std::vector<float>& v) { addAttr(node_, name, AttrType::kFloats).floats = v; return *this; }
OpTester& OpTester::attr(const std::string& name, const std::vector<std::string>& v) { addAttr(node_, name, AttrType::kStrings).strings = v; return *this; }
OpTester& OpTester::attr(const std::string& name, const Tensor& v) { addAttr(node_, name, AttrType::kTensor).t = v; return *this; }

OpTester& OpTester::input(const std::string& name, const Tensor& value, bool constant) {
  node_.inputs.push_back(name);
  inputs_.push_back(value);
  constant_.push_back(constant);
  return *this;
}
OpTester& OpTester::absentInput() {
  node_.inputs.push_back("");
  inputs_.emplace_back();
  constant_.push_back(false);
  return *this;
}
OpTester& OpTester::expect(const std::string& name, const Tensor& e, double rtol, double atol) {
  node_.outputs.push_back(name);
  expected_.push_back(Expected{true, e, rtol, atol});
  return *this;
}
OpTester& OpTester::output(const std::string& name) {
  node_.outputs.push_back(name);
  expected_.push_back(Expected{});
  return *this;
}
OpTester& OpTester::absentOutput() {
  node_.outputs.push_back("");
  expected_.push_back(Expected{});
  return *this;
}

std::vector<Tensor> OpTester::runOnce(bool symbolic) {
  const OpDef* def = builtinRegistry().find(node_.domain, node_.opType, opset_);
  if (!def)
    throw Error(ErrorCode::kUnsupportedOp, "no registered op " + node_.opType + " for opset " + std::to_string(opset_));
  shape::SymbolGenerator symbols;
  shape::InferContext ictx(node_, opset_, symbols);
  std::vector<ValueInfo> infos(inputs_.size());
  std::vector<std::vector<Dim>> symVals(inputs_.size());
  for (size_t i = 0; i < inputs_.size(); ++i) {
    if (!inputs_[i].defined()) {
      ictx.inputs_.push_back(nullptr);
      ictx.values_.push_back(nullptr);
      ictx.symValues_.push_back(nullptr);
      continue;
    }
    infos[i].name = node_.inputs[i];
    infos[i].dtype = inputs_[i].dtype();
    infos[i].hasShape = true;
    for (size_t d = 0; d < inputs_[i].rank(); ++d)
      infos[i].shape.push_back(symbolic && !constant_[i] ? Dim::sym("s" + std::to_string(i) + "_" + std::to_string(d))
                                                         : Dim(inputs_[i].dim(d)));
    ictx.inputs_.push_back(&infos[i]);
    ictx.values_.push_back(constant_[i] ? &inputs_[i] : nullptr);
    const bool intLike = inputs_[i].dtype() == DataType::kInt64 || inputs_[i].dtype() == DataType::kInt32;
    if (constant_[i] && intLike && inputs_[i].rank() <= 1) {
      for (int64_t v : inputs_[i].toInt64Vector()) symVals[i].push_back(Dim(v));
      ictx.symValues_.push_back(&symVals[i]);
    } else {
      ictx.symValues_.push_back(nullptr);
    }
  }
  for (const auto& o : node_.outputs) {
    ValueInfo v;
    v.name = o;
    ictx.outputs_.push_back(v);
  }
  ictx.outputSet_.assign(node_.outputs.size(), false);
  ictx.outputValues_.resize(node_.outputs.size());
  ictx.outputSymValues_.resize(node_.outputs.size());
  def->shape(ictx);
  if (symbolic) {
    for (size_t i = 0; i < node_.outputs.size(); ++i)
      if (!node_.outputs[i].empty())
        EXPECT_TRUE(ictx.outputSet_[i]) << "symbolic shape inference left output " << i << " untyped";
    return {};
  }

  KernelInit init{node_, opset_, {}, {}, {}};
  for (size_t i = 0; i < inputs_.size(); ++i) {
    init.inputs.push_back(ictx.inputs_[i]);
    init.constInputs.push_back(ictx.values_[i]);
  }
  for (size_t i = 0; i < ictx.outputs_.size(); ++i)
    init.outputs.push_back(node_.outputs[i].empty() ? nullptr : &ictx.outputs_[i]);
  if (!def->cpu) throw Error(ErrorCode::kUnsupportedOp, node_.opType + " has no CPU kernel");
  static ThreadPool pool(2);
  init.pool = &pool;  // the pool it runs on: per-thread scratch is sized for it
  auto kernel = def->cpu(init);

  std::vector<Tensor> outs(node_.outputs.size());
  KernelContext kctx;
  kctx.node_ = &node_;
  kctx.pool_ = &pool;
  for (auto& t : inputs_) kctx.inputs_.push_back(t.defined() ? &t : nullptr);
  for (size_t i = 0; i < outs.size(); ++i) {
    const ValueInfo& vi = ictx.outputs_[i];
    kctx.outputTypes_.push_back(vi.dtype);
    if (node_.outputs[i].empty()) {
      kctx.outputs_.push_back(nullptr);
      continue;
    }
    if (def->viewOfInput < 0 && ictx.outputSet_[i] && vi.hasShape && isStatic(vi.shape))
      outs[i] = Tensor(vi.dtype, toStatic(vi.shape));
    kctx.outputs_.push_back(&outs[i]);
  }
  if (def->viewOfInput >= 0) {
    // The runtime never calls a view op's kernel: it reinterprets the input.
    const ValueInfo& vi = ictx.outputs_[0];
    if (!vi.hasShape || !isStatic(vi.shape)) throw Error(ErrorCode::kInternal, "view op output shape unresolved");
    outs[0] = inputs_[def->viewOfInput].reshaped(toStatic(vi.shape)).clone();
  } else {
    OwnedScratch scratch(init, kctx);
    kernel->run(kctx);
  }
  // Shape/dtype agreement between shape function and kernel.
  for (size_t i = 0; i < outs.size(); ++i) {
    if (node_.outputs[i].empty() || !ictx.outputSet_[i]) continue;
    const ValueInfo& vi = ictx.outputs_[i];
    EXPECT_EQ(outs[i].dtype(), vi.dtype) << "output " << i << " dtype differs from the shape function's";
    if (vi.hasShape && isStatic(vi.shape))
      EXPECT_EQ(shapeToString(outs[i].shape()), shapeToString(vi.shape))
          << "output " << i << " shape differs from the shape function's";
    if (ictx.outputValues_[i]) {
      EXPECT_EQ(compareTensors(*ictx.outputValues_[i], outs[i], 0, 0), "")
          << "propagated value of output " << i << " differs from the kernel's";
    }
  }
  return outs;
}

std::vector<Tensor> OpTester::run() {
  std::vector<Tensor> outs = runOnce(false);
  for (size_t i = 0; i < expected_.size(); ++i) {
    if (!expected_[i].check) continue;
    EXPECT_EQ(compareTensors(outs[i], expected_[i].value, expected_[i].rtol, expected_[i].atol), "")
        << node_.opType << " output " << i << " ('" << node_.outputs[i] << "')";
  }
  runOnce(true);
  return outs;
}

void OpTester::expectError(const std::string& substring) {
  try {
    runOnce(false);
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(substring), std::string::npos)
        << "message was: " << e.what();
    return;
  }
  ADD_FAILURE() << "expected an oinfer::Error containing '" << substring << "'";
}

namespace {
template <class T>
double asDouble(const Tensor& t, int64_t i) {
  if constexpr (std::is_same_v<T, std::string>) return 0;
  else return static_cast<double>(static_cast<float>(t.data<T>()[i]));
}
double valueAt(const Tensor& t, int64_t i) {
  switch (t.dtype()) {
    case DataType::kFloat: return t.data<float>()[i];
    case DataType::kDouble: return t.data<double>()[i];
    case DataType::kFloat16: return static_cast<float>(t.data<Float16>()[i]);
    case DataType::kBFloat16: return static_cast<float>(t.data<BFloat16>()[i]);
    case DataType::kInt64: return static_cast<double>(t.data<int64_t>()[i]);
    case DataType::kInt32: return t.data<int32_t>()[i];
    case DataType::kInt16: return t.data<int16_t>()[i];
    case DataType::kInt8: return t.data<int8_t>()[i];
    case DataType::kUInt8: return t.data<uint8_t>()[i];
    case DataType::kUInt16: return t.data<uint16_t>()[i];
    case DataType::kUInt32: return t.data<uint32_t>()[i];
    case DataType::kUInt64: return static_cast<double>(t.data<uint64_t>()[i]);
    case DataType::kBool: return t.data<bool>()[i] ? 1 : 0;
    default: return std::nan("");
  }
}
bool isFloating(DataType d) {
  return d == DataType::kFloat || d == DataType::kDouble || d == DataType::kFloat16 || d == DataType::kBFloat16;
}
}  // namespace

std::string compareTensors(const Tensor& a, const Tensor& e, double rtol, double atol) {
  std::ostringstream os;
  if (a.dtype() != e.dtype()) {
    os << "dtype " << dataTypeName(a.dtype()) << " != expected " << dataTypeName(e.dtype());
    return os.str();
  }
  if (a.shape() != e.shape()) {
    os << "shape " << shapeToString(a.shape()) << " != expected " << shapeToString(e.shape());
    return os.str();
  }
  if (a.dtype() == DataType::kString) {
    for (int64_t i = 0; i < a.numel(); ++i)
      if (a.data<std::string>()[i] != e.data<std::string>()[i]) {
        os << "element " << i << ": '" << a.data<std::string>()[i] << "' != '" << e.data<std::string>()[i] << "'";
        return os.str();
      }
    return "";
  }
  const bool fp = isFloating(a.dtype());
  for (int64_t i = 0; i < a.numel(); ++i) {
    double x = valueAt(a, i), y = valueAt(e, i);
    bool ok;
    if (!fp) {
      ok = x == y;
      if (a.dtype() == DataType::kInt64 || a.dtype() == DataType::kUInt64)
        ok = std::memcmp(static_cast<const char*>(a.data()) + 8 * i, static_cast<const char*>(e.data()) + 8 * i, 8) == 0;
    } else if (std::isnan(y)) {
      ok = std::isnan(x);
    } else if (std::isinf(y)) {
      ok = x == y;
    } else {
      ok = std::fabs(x - y) <= atol + rtol * std::fabs(y);
    }
    if (!ok) {
      os << "element " << i << " of " << a.numel() << ": got " << x << ", expected " << y;
      return os.str();
    }
  }
  return "";
}

}  // namespace oinfer::testing
