// Shape functions of the tensor family: reshaping ops, Concat/Split, Shape,
// Size. Constant, Cast, Identity and Dropout are in tensor_cast.cpp, the
// indexing ops in tensor_index.cpp.
#include "shape/tensor.h"

#include <algorithm>
#include <map>
#include <set>

#include "graph/checked_math.h"

namespace oinfer::shape {

namespace tensor_detail {

std::optional<std::vector<Dim>> symValues(const InferContext& ctx, size_t i) {
  if (!ctx.hasInput(i)) return std::nullopt;
  if (const auto* s = ctx.inputSymbolicValue(i)) return *s;
  if (const Tensor* t = ctx.inputValue(i)) {
    if (t->rank() > 1 || !isIndexType(t->dtype())) return std::nullopt;
    std::vector<Dim> out;
    for (int64_t v : t->toInt64Vector()) {
      Dim d;
      d.value = v;
      out.push_back(d);
    }
    return out;
  }
  return std::nullopt;
}

std::optional<std::vector<int64_t>> intValues(const InferContext& ctx, size_t i) {
  if (!ctx.hasInput(i)) return std::nullopt;
  if (const Tensor* t = ctx.inputValue(i)) {
    if (t->dtype() == DataType::kFloat || t->dtype() == DataType::kDouble) return std::nullopt;
    return t->toInt64Vector();
  }
  auto s = symValues(ctx, i);
  if (!s) return std::nullopt;
  std::vector<int64_t> out;
  for (const Dim& d : *s) {
    if (!isLiteral(d)) return std::nullopt;
    out.push_back(d.value);
  }
  return out;
}

void setIntValue(InferContext& ctx, size_t out, const std::vector<Dim>& dims, DataType dtype, bool scalar) {
  ctx.setOutputSymbolicValue(out, dims);
  if (!std::all_of(dims.begin(), dims.end(), [](const Dim& d) { return isLiteral(d); })) return;
  if (scalar && dims.size() != 1) return;
  std::vector<int64_t> shape;
  if (!scalar) shape.push_back(static_cast<int64_t>(dims.size()));
  Tensor t(dtype == DataType::kInt32 ? DataType::kInt32 : DataType::kInt64, shape);
  for (size_t k = 0; k < dims.size(); ++k) {
    if (t.dtype() == DataType::kInt32)
      t.data<int32_t>()[k] = static_cast<int32_t>(dims[k].value);
    else
      t.data<int64_t>()[k] = dims[k].value;
  }
  ctx.setOutputValue(out, std::move(t));
}

bool isIndexType(DataType t) { return t == DataType::kInt64 || t == DataType::kInt32; }

std::string inputName(const InferContext& ctx, size_t i) {
  const auto& ins = ctx.node().inputs;
  return "input " + std::to_string(i) + " ('" + (i < ins.size() ? ins[i] : std::string()) + "')";
}

void propagateValue(InferContext& ctx, size_t in, size_t out, bool scalar, DataType dt) {
  if (!isIndexType(dt)) return;
  if (auto v = symValues(ctx, in)) {
    if (scalar && v->size() != 1) return;
    setIntValue(ctx, out, *v, dt, scalar);
  }
}

}  // namespace tensor_detail

using namespace tensor_detail;

namespace {

// A product of dims as coefficient * symbols, to resolve Reshape's -1 against
// symbolic input dims ([batch,768] -> [-1,12,64] gives batch).
struct SymProduct {
  int64_t coef = 1;
  bool overflow = false;  // the static part does not fit in int64
  std::multiset<std::string> syms;
  void mul(const Dim& d) {
    if (d.isStatic()) overflow = overflow || !checkedMul(coef, d.value, &coef);
    else syms.insert(d.symbol);
  }
};

std::string targetToString(const std::vector<Dim>& t) {
  std::string s = "[";
  for (size_t k = 0; k < t.size(); ++k) s += (k ? "," : "") + (isLiteral(t[k]) ? std::to_string(t[k].value) : t[k].symbol);
  return s + "]";
}

std::vector<int64_t> readAxes(InferContext& ctx, size_t input, bool& known) {
  known = true;
  if (ctx.opset() < 13) return ctx.node().attrInts("axes");
  if (!ctx.hasInput(input)) return {};
  if (auto v = intValues(ctx, input)) return *v;
  known = false;
  return {};
}

}  // namespace

void inferReshape(InferContext& ctx) {
  const ValueInfo& in = ctx.input(0);
  const bool allowzero = ctx.opset() >= 14 && ctx.node().attrInt("allowzero", 0) != 0;
  std::optional<std::vector<Dim>> target;
  if (ctx.opset() < 5) {
    target.emplace();
    for (int64_t v : ctx.node().attrInts("shape")) {
      Dim d;
      d.value = v;
      target->push_back(d);
    }
  } else {
    if (ctx.numInputs() < 2 || !ctx.hasInput(1)) ctx.fail(ErrorCode::kInvalidModel, "input 1 (shape) is required");
    if (ctx.input(1).dtype != DataType::kInt64 && ctx.input(1).dtype != DataType::kUndefined)
      ctx.fail(ErrorCode::kTypeMismatch, inputName(ctx, 1) + " is " + dataTypeName(ctx.input(1).dtype) +
                                             "; the shape must be int64");
    target = symValues(ctx, 1);
  }
  if (!target) {
    // Unknown target of known length: the rank is still known.
    if (ctx.opset() >= 5 && ctx.hasShape(1) && ctx.inputShape(1).size() == 1 && ctx.inputShape(1)[0].isStatic())
      ctx.setOutput(0, in.dtype, Shape(static_cast<size_t>(ctx.inputShape(1)[0].value), Dim()));
    else
      ctx.setOutputUnknownShape(0, in.dtype);
    return;
  }
  Shape out(target->size());
  int inferAt = -1;
  for (size_t k = 0; k < target->size(); ++k) {
    const Dim& t = (*target)[k];
    if (!isLiteral(t)) {
      out[k] = t;
    } else if (t.value == 0 && !allowzero) {
      if (!in.hasShape) {
        out[k] = Dim();
      } else {
        if (k >= in.shape.size())
          ctx.fail("target shape " + targetToString(*target) + " copies dim " + std::to_string(k) +
                   " (0) but input 0 ('" + ctx.node().inputs[0] + "') has shape " + shapeToString(in.shape));
        out[k] = in.shape[k];
      }
    } else if (t.value == -1) {
      if (inferAt >= 0) ctx.fail("target shape " + targetToString(*target) + " has more than one -1");
      inferAt = static_cast<int>(k);
    } else if (t.value < 0) {
      ctx.fail("target shape " + targetToString(*target) + " has invalid dim " + std::to_string(t.value));
    } else {
      out[k] = Dim(t.value);
    }
  }
  if (allowzero && inferAt >= 0)
    for (const Dim& d : out)
      if (d.isStatic() && d.value == 0) ctx.fail("target shape " + targetToString(*target) + " has both 0 and -1 with allowzero=1");
  if (in.hasShape) {
    SymProduct pin, pout;
    bool unknownOut = false;
    for (const Dim& d : in.shape) pin.mul(d);
    for (size_t k = 0; k < out.size(); ++k) {
      if (static_cast<int>(k) == inferAt) continue;
      if (!out[k].isStatic() && out[k].symbol.empty()) unknownOut = true;
      pout.mul(out[k]);
    }
    if (pin.overflow || pout.overflow)
      ctx.fail("input 0 ('" + ctx.node().inputs[0] + "'): reshaping " + shapeToString(in.shape) + " to " +
               targetToString(*target) + ": the element count overflows int64");
    auto mismatch = [&](const std::string& to) {
      ctx.fail("input 0 ('" + ctx.node().inputs[0] + "'): cannot reshape " + shapeToString(in.shape) + " (" +
               std::to_string(pin.coef) + " elements) to " + to);
    };
    if (inferAt >= 0) {
      Dim resolved;
      if (!unknownOut && pout.coef != 0) {
        bool subset = true;
        std::multiset<std::string> rest = pin.syms;
        for (const auto& s : pout.syms) {
          auto it = rest.find(s);
          if (it == rest.end()) { subset = false; break; }
          rest.erase(it);
        }
        if (subset && pin.coef % pout.coef != 0 && pin.syms.empty())
          mismatch(targetToString(*target));
        if (subset && pin.coef % pout.coef == 0) {
          const int64_t c = pin.coef / pout.coef;
          if (rest.empty()) resolved = Dim(c);
          else if (rest.size() == 1 && c == 1) resolved = Dim::sym(*rest.begin());
        }
      }
      // Every dim known but the -1, and they multiply to 0: any value fits
      // no elements, so the -1 is ambiguous (onnxruntime refuses it too).
      if (resolved.isStatic() == false && resolved.symbol.empty() && !unknownOut && pout.coef == 0 &&
          pout.syms.empty() && isStatic(in.shape))
        ctx.fail("input 0 ('" + ctx.node().inputs[0] + "'): cannot reshape " + shapeToString(in.shape) + " to " +
                 targetToString(*target) + ": the other dims multiply to 0, so the -1 is ambiguous");
      out[inferAt] = resolved;
    } else if (!unknownOut && pin.syms == pout.syms && pin.coef != pout.coef) {
      mismatch(shapeToString(out) + " (" + std::to_string(pout.coef) + " elements)");
    }
  } else if (inferAt >= 0) {
    out[inferAt] = Dim();
  }
  ctx.setOutput(0, in.dtype, out);
  if (out.size() <= 1 && in.hasShape && in.shape.size() <= 1) propagateValue(ctx, 0, 0, out.empty(), in.dtype);
}

void inferFlatten(InferContext& ctx) {
  const ValueInfo& in = ctx.input(0);
  if (!in.hasShape) {
    ctx.setOutput(0, in.dtype, {Dim(), Dim()});
    return;
  }
  const int64_t r = static_cast<int64_t>(in.shape.size());
  // Flatten's axis lies in [-r, r]; a negative one counts from the back.
  int64_t axis = ctx.node().attrInt("axis", 1);
  if (axis < 0) axis += r;
  if (axis < 0 || axis > r)
    ctx.fail(ErrorCode::kInvalidModel, "axis " + std::to_string(ctx.node().attrInt("axis", 1)) +
                                           " is out of range for input 0 ('" + ctx.node().inputs[0] + "') with shape " +
                                           shapeToString(in.shape));
  std::vector<Dim> lo(in.shape.begin(), in.shape.begin() + axis), hi(in.shape.begin() + axis, in.shape.end());
  ctx.setOutput(0, in.dtype, {dimProduct(ctx, lo), dimProduct(ctx, hi)});
}

void inferTranspose(InferContext& ctx) {
  const ValueInfo& in = ctx.input(0);
  std::vector<int64_t> perm = ctx.node().attrInts("perm");
  if (!in.hasShape) {
    if (perm.empty()) ctx.setOutputUnknownShape(0, in.dtype);
    else ctx.setOutput(0, in.dtype, Shape(perm.size(), Dim()));
    return;
  }
  const size_t r = in.shape.size();
  if (perm.empty())
    for (size_t k = 0; k < r; ++k) perm.push_back(static_cast<int64_t>(r - 1 - k));
  std::vector<bool> seen(r, false);
  bool ok = perm.size() == r;
  for (int64_t p : perm) {
    if (!ok) break;
    if (p < 0 || p >= static_cast<int64_t>(r) || seen[p]) ok = false;
    else seen[p] = true;
  }
  if (!ok)
    ctx.fail(ErrorCode::kInvalidModel, "perm " + shapeToString(perm) + " is not a permutation of the " +
                                           std::to_string(r) + " axes of input 0 ('" + ctx.node().inputs[0] +
                                           "') with shape " + shapeToString(in.shape));
  Shape out;
  for (int64_t p : perm) out.push_back(in.shape[p]);
  ctx.setOutput(0, in.dtype, out);
}

void inferSqueeze(InferContext& ctx) {
  const ValueInfo& in = ctx.input(0);
  bool known;
  std::vector<int64_t> axes = readAxes(ctx, 1, known);
  if (!in.hasShape || !known) {
    ctx.setOutputUnknownShape(0, in.dtype);
    return;
  }
  const int64_t r = static_cast<int64_t>(in.shape.size());
  std::vector<bool> drop(r, false);
  if (axes.empty()) {
    for (int64_t k = 0; k < r; ++k) {
      // A symbolic dim may or may not be 1: the rank is unknowable.
      if (!in.shape[k].isStatic()) {
        ctx.setOutputUnknownShape(0, in.dtype);
        return;
      }
      drop[k] = in.shape[k].value == 1;
    }
  }
  for (int64_t a : axes) {
    int64_t k = normalizeAxis(ctx, a, r);
    if (in.shape[k].isStatic() && in.shape[k].value != 1)
      ctx.fail("cannot squeeze axis " + std::to_string(a) + " of input 0 ('" + ctx.node().inputs[0] +
               "') with shape " + shapeToString(in.shape) + ": its size is not 1");
    drop[k] = true;
  }
  Shape out;
  for (int64_t k = 0; k < r; ++k)
    if (!drop[k]) out.push_back(in.shape[k]);
  ctx.setOutput(0, in.dtype, out);
  if (r == 1 && out.empty()) propagateValue(ctx, 0, 0, true, in.dtype);
}

void inferUnsqueeze(InferContext& ctx) {
  const ValueInfo& in = ctx.input(0);
  bool known;
  std::vector<int64_t> axes = readAxes(ctx, 1, known);
  if (!known) {
    if (in.hasShape && ctx.hasShape(1) && ctx.inputShape(1).size() == 1 && ctx.inputShape(1)[0].isStatic())
      ctx.setOutput(0, in.dtype, Shape(in.shape.size() + ctx.inputShape(1)[0].value, Dim()));
    else
      ctx.setOutputUnknownShape(0, in.dtype);
    return;
  }
  if (axes.empty()) ctx.fail(ErrorCode::kInvalidModel, "axes is required and must not be empty");
  if (!in.hasShape) {
    ctx.setOutputUnknownShape(0, in.dtype);
    return;
  }
  const int64_t outRank = static_cast<int64_t>(in.shape.size() + axes.size());
  std::vector<bool> inserted(outRank, false);
  for (int64_t a : axes) {
    int64_t k = normalizeAxis(ctx, a, outRank);
    if (inserted[k]) ctx.fail(ErrorCode::kInvalidModel, "axis " + std::to_string(a) + " appears twice in axes");
    inserted[k] = true;
  }
  Shape out;
  size_t j = 0;
  for (int64_t k = 0; k < outRank; ++k) out.push_back(inserted[k] ? Dim(1) : in.shape[j++]);
  ctx.setOutput(0, in.dtype, out);
  if (in.shape.empty() && outRank == 1) propagateValue(ctx, 0, 0, false, in.dtype);
}

void inferConcat(InferContext& ctx) {
  const size_t n = ctx.numInputs();
  if (n == 0) ctx.fail(ErrorCode::kInvalidModel, "Concat needs at least one input");
  const DataType dt = ctx.input(0).dtype;
  const Attribute* axisAttr = ctx.node().attr("axis");
  if (!axisAttr && ctx.opset() >= 4) ctx.fail(ErrorCode::kInvalidModel, "attribute 'axis' is required");
  const int64_t axisRaw = ctx.node().attrInt("axis", 1);
  int first = -1;
  for (size_t i = 0; i < n; ++i) {
    if (ctx.input(i).dtype != dt)
      ctx.fail(ErrorCode::kTypeMismatch, inputName(ctx, i) + " has type " + dataTypeName(ctx.input(i).dtype) +
                                             " but input 0 has " + dataTypeName(dt));
    if (ctx.hasShape(i) && first < 0) first = static_cast<int>(i);
  }
  if (first < 0) {
    ctx.setOutputUnknownShape(0, dt);
    return;
  }
  const Shape& s0 = ctx.inputShape(first);
  const int64_t r = static_cast<int64_t>(s0.size());
  if (r == 0) ctx.fail(inputName(ctx, first) + " is a scalar; Concat needs rank >= 1");
  const int64_t axis = normalizeAxis(ctx, axisRaw, r);
  Shape out = s0;
  bool allKnown = true, axisStatic = true;
  int64_t axisSum = 0;
  for (size_t i = 0; i < n; ++i) {
    if (!ctx.hasShape(i)) {
      allKnown = false;
      continue;
    }
    const Shape& s = ctx.inputShape(i);
    if (static_cast<int64_t>(s.size()) != r)
      ctx.fail(inputName(ctx, i) + " has shape " + shapeToString(s) + " but " + inputName(ctx, first) +
               " has shape " + shapeToString(s0) + ": ranks differ");
    for (int64_t k = 0; k < r; ++k) {
      if (k == axis) {
        if (!s[k].isStatic()) axisStatic = false;
        else if (!checkedAdd(axisSum, s[k].value, &axisSum))
          ctx.fail(ErrorCode::kShapeMismatch, "the inputs' dims along axis " + std::to_string(axis) +
                                                  " add up past int64 (at " + inputName(ctx, i) + " with shape " +
                                                  shapeToString(s) + ")");
        continue;
      }
      if (s[k].isStatic() && out[k].isStatic() && s[k].value != out[k].value)
        ctx.fail(inputName(ctx, i) + " has shape " + shapeToString(s) + " but " + inputName(ctx, first) +
                 " has shape " + shapeToString(s0) + ": dimension " + std::to_string(k) +
                 " differs and is not the concat axis " + std::to_string(axis));
      if (s[k].isStatic()) out[k] = s[k];
    }
  }
  if (allKnown && axisStatic) out[axis] = Dim(axisSum);
  else if (n == 1) out[axis] = s0[axis];
  else out[axis] = Dim();
  ctx.setOutput(0, dt, out);
  if (r == 1 && isIndexType(dt)) {
    std::vector<Dim> vals;
    for (size_t i = 0; i < n; ++i) {
      auto v = symValues(ctx, i);
      if (!v) return;
      vals.insert(vals.end(), v->begin(), v->end());
    }
    setIntValue(ctx, 0, vals, dt, false);
  }
}

void inferSplit(InferContext& ctx) {
  const ValueInfo& in = ctx.input(0);
  const size_t n = ctx.numOutputs();
  if (!in.hasShape) {
    for (size_t i = 0; i < n; ++i) ctx.setOutputUnknownShape(i, in.dtype);
    return;
  }
  const int64_t r = static_cast<int64_t>(in.shape.size());
  const int64_t axis = normalizeAxis(ctx, ctx.node().attrInt("axis", 0), r);
  const Dim d = in.shape[axis];
  std::optional<std::vector<int64_t>> sizes;
  bool unknown = false, wholeDim = false;
  if (ctx.opset() >= 13 || (ctx.opset() < 2 && ctx.hasInput(1))) {
    if (ctx.hasInput(1)) {
      sizes = intValues(ctx, 1);
      unknown = !sizes;
    }
  } else if (ctx.node().hasAttr("split")) {
    sizes = ctx.node().attrInts("split");
  }
  if (!sizes && !unknown) {
    int64_t parts = static_cast<int64_t>(n);
    const bool numOutputs = ctx.opset() >= 18 && ctx.node().hasAttr("num_outputs");
    if (numOutputs) {
      parts = ctx.node().attrInt("num_outputs", 0);
      if (parts != static_cast<int64_t>(n))
        ctx.fail(ErrorCode::kInvalidModel, "num_outputs is " + std::to_string(parts) + " but the node has " +
                                               std::to_string(n) + " outputs");
    } else if (ctx.opset() >= 18 && !ctx.hasInput(1)) {
      ctx.fail(ErrorCode::kInvalidModel, "either input 'split' or attribute 'num_outputs' is required");
    }
    if (d.isStatic()) {
      if (!numOutputs && d.value % parts != 0)
        ctx.fail("input 0 ('" + ctx.node().inputs[0] + "') with shape " + shapeToString(in.shape) +
                 " cannot be split evenly into " + std::to_string(parts) + " parts along axis " + std::to_string(axis));
      const int64_t chunk = (d.value + parts - 1) / parts;
      sizes.emplace();
      for (int64_t i = 0; i < parts; ++i) sizes->push_back(std::max<int64_t>(0, std::min(chunk, d.value - chunk * i)));
    } else if (parts != 1) {
      unknown = true;
    } else {
      sizes = std::vector<int64_t>{-1};  // one part: the whole (symbolic) dim
      wholeDim = true;
    }
  }
  if (sizes) {
    if (sizes->size() != n)
      ctx.fail(ErrorCode::kInvalidModel, "split has " + std::to_string(sizes->size()) + " entries but the node has " +
                                             std::to_string(n) + " outputs");
    // Given sizes must be non-negative (only the one-part case above uses -1,
    // for "the whole symbolic dim") and sum, without overflow, to the dim.
    int64_t sum = 0;
    if (!wholeDim)
      for (int64_t s : *sizes)
        if (s < 0 || !checkedAdd(sum, s, &sum))
          ctx.fail("split sizes " + shapeToString(*sizes) + " for axis " + std::to_string(axis) + " of input 0 ('" +
                   ctx.node().inputs[0] + "') with shape " + shapeToString(in.shape) +
                   (s < 0 ? " hold a negative size " + std::to_string(s) : std::string(" overflow int64")));
    if (d.isStatic() && sum != d.value)
      ctx.fail("split sizes " + shapeToString(*sizes) + " sum to " + std::to_string(sum) + " but axis " +
               std::to_string(axis) + " of input 0 ('" + ctx.node().inputs[0] + "') with shape " +
               shapeToString(in.shape) + " has size " + std::to_string(d.value));
  }
  int64_t offset = 0;
  auto vals = (r == 1 && isIndexType(in.dtype)) ? symValues(ctx, 0) : std::nullopt;
  for (size_t i = 0; i < n; ++i) {
    Shape out = in.shape;
    if (unknown) out[axis] = Dim();
    else out[axis] = (*sizes)[i] < 0 ? d : Dim((*sizes)[i]);
    ctx.setOutput(i, in.dtype, out);
    if (vals && sizes && (*sizes)[i] >= 0 && offset + (*sizes)[i] <= static_cast<int64_t>(vals->size()))
      setIntValue(ctx, i, std::vector<Dim>(vals->begin() + offset, vals->begin() + offset + (*sizes)[i]), in.dtype, false);
    if (sizes) offset += (*sizes)[i];
  }
}

void inferShape(InferContext& ctx) {
  const ValueInfo& in = ctx.input(0);
  if (!in.hasShape) {
    ctx.setOutput(0, DataType::kInt64, {Dim()});
    return;
  }
  const int64_t r = static_cast<int64_t>(in.shape.size());
  int64_t start = 0, end = r;
  if (ctx.opset() >= 15) {
    start = ctx.node().attrInt("start", 0);
    end = ctx.node().attrInt("end", r);
  }
  auto clampAxis = [r](int64_t a) { return std::clamp<int64_t>(a < 0 ? a + r : a, 0, r); };
  start = clampAxis(start);
  end = std::max(start, clampAxis(end));
  std::vector<Dim> dims(in.shape.begin() + start, in.shape.begin() + end);
  ctx.setOutput(0, DataType::kInt64, {Dim(end - start)});
  setIntValue(ctx, 0, dims, DataType::kInt64, false);
}

void inferSize(InferContext& ctx) {
  const ValueInfo& in = ctx.input(0);
  ctx.setOutput(0, DataType::kInt64, {});
  if (in.hasShape) setIntValue(ctx, 0, {dimProduct(ctx, in.shape)}, DataType::kInt64, true);
}

}  // namespace oinfer::shape
