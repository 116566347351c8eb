#include "shape/infer.h"

#include <spdlog/spdlog.h>

namespace oinfer::shape {

namespace {

bool isIntegral(DataType t) { return t == DataType::kInt64 || t == DataType::kInt32; }

// Dims-as-value of a small integer tensor, for ops that read shape values.
void recordSymbolic(const std::string& name, const Tensor& t, InferState& st) {
  if (!isIntegral(t.dtype()) || t.rank() > 1 || t.numel() > 64) return;
  std::vector<Dim> dims;
  for (int64_t v : t.toInt64Vector()) dims.push_back(Dim(v));
  st.symValues[name] = std::move(dims);
}

// Prefers an inferred static dim, then a declared (static or named) one.
Dim mergeDim(const Dim& inferred, const Dim* declared) {
  if (inferred.isStatic() || !declared) return inferred;
  if (declared->isStatic()) return *declared;
  if (!declared->symbol.empty() && declared->symbol.rfind("unk__", 0) != 0) return *declared;
  return inferred;
}

// Ops whose output extents depend on data or on which branch / how many
// iterations ran: a static dim the file declares for them is what one traced
// run gave (an If's empty branch, NonZero's count on the export input), not
// a fact, so it never replaces a dim inference leaves open.
bool declaredExtentsUntrusted(const Node& node) {
  static const char* const kOps[] = {"If", "Loop", "Scan", "NonZero", "Unique", "NonMaxSuppression", "Compress",
                                     "TopK", "StringSplit", "SequenceAt", "ConcatFromSequence", "SplitToSequence"};
  for (const char* op : kOps)
    if (node.opType == op) return true;
  for (const auto& a : node.attributes)
    if (a.type == AttrType::kGraph || a.type == AttrType::kGraphs) return true;  // any op with a subgraph
  return false;
}

void mergeDeclared(const Node& node, size_t idx, ValueInfo& out, const ValueInfo* decl) {
  if (!decl || decl->kind != out.kind) return;
  if (declaredExtentsUntrusted(node)) {
    // Only the dtype.
    if (out.dtype == DataType::kUndefined) out.dtype = decl->dtype;
    return;
  }
  if (out.dtype == DataType::kUndefined) out.dtype = decl->dtype;
  if (!decl->hasShape) return;
  if (!out.hasShape) {
    out.hasShape = true;
    out.shape = decl->shape;
    return;
  }
  if (decl->shape.size() != out.shape.size()) {
    spdlog::warn("{}: output '{}' is declared with rank {} but infers to {}; using the inferred shape",
                 node.describe(), out.name, decl->shape.size(), shapeToString(out.shape));
    return;
  }
  for (size_t k = 0; k < out.shape.size(); ++k) {
    const Dim& d = decl->shape[k];
    if (out.shape[k].isStatic() && d.isStatic() && out.shape[k].value != d.value) {
      spdlog::warn("{}: output '{}' is declared as {} but infers to {}; using the inferred shape",
                   node.describe(), out.name, shapeToString(decl->shape), shapeToString(out.shape));
      return;
    }
  }
  for (size_t k = 0; k < out.shape.size(); ++k) out.shape[k] = mergeDim(out.shape[k], &decl->shape[k]);
}

// Whether outputs of these types may be folded (kMaxFoldOutputBytes per node,
// kMaxFoldTotalBytes in all); `bytes` gets their size. An output whose shape
// is not static yet (data-dependent: NonZero, Unique) is bounded by its small
// inputs.
bool foldedSizeFits(const std::vector<ValueInfo>& outputs, const InferState& st, size_t& bytes) {
  bytes = 0;
  for (const ValueInfo& o : outputs) {
    if (o.kind != ValueKind::kTensor || !o.hasShape || !isStatic(o.shape)) continue;
    int64_t n = 1;
    for (const Dim& d : o.shape)
      if (d.value < 0 || __builtin_mul_overflow(n, d.value, &n)) return false;
    const size_t elem = o.dtype == DataType::kUndefined ? 8 : dataTypeSize(o.dtype);
    if (static_cast<uint64_t>(n) > kMaxFoldOutputBytes / (elem ? elem : 1)) return false;
    bytes += static_cast<size_t>(n) * elem;
  }
  return bytes <= kMaxFoldOutputBytes && st.foldedBytes + bytes <= kMaxFoldTotalBytes;
}

}  // namespace

void rethrowNamingNode(const Node& node, const Error& e) {
  const std::string what = e.what();
  if (what.find("node '") != std::string::npos) throw e;
  throw Error(e.code(), node.describe() + ": " + what);
}

ValueInfo valueInfoOf(const std::string& name, const Tensor& t) {
  ValueInfo v;
  v.name = name;
  v.dtype = t.dtype();
  v.hasShape = true;
  v.shape = toShape(t.shape());
  return v;
}

void setKnownValue(const std::string& name, const Tensor& t, InferState& st) {
  st.values[name] = t;
  recordSymbolic(name, t, st);
}

void seedState(const ir::Graph& g, InferState& st) {
  for (const auto& [name, t] : g.initializers) {
    st.types[name] = valueInfoOf(name, t);
    // A weight a Session released (only its packed form is kept) has a type
    // but no value: nothing folds over it.
    if (t.numel() == 0 || t.data() != nullptr) setKnownValue(name, t, st);
  }
  for (const auto& in : g.inputs)
    if (!st.types.count(in.name)) st.types[in.name] = in;
}

bool inferNode(const Node& node, InferState& st, const InferHooks& hooks, SymbolGenerator& symbols,
               const ir::Graph* declared, bool fold) {
  const ShapeFn* fn = hooks.shapeFn(node);
  if (!fn)
    throw Error(ErrorCode::kUnsupportedOp, node.describe() + ": op '" +
                                               (node.domain.empty() ? "" : node.domain + "::") + node.opType +
                                               "' is not supported for opset " + std::to_string(hooks.opset(node)));
  InferContext ctx(node, hooks.opset(node), symbols);
  ctx.hooks_ = &hooks;
  ctx.scope_ = &st;
  ctx.atRunTime_ = st.runTime;
  std::vector<std::vector<Dim>> convertedSym(node.inputs.size());
  bool allValues = true;
  int64_t valueElements = 0;
  for (size_t i = 0; i < node.inputs.size(); ++i) {
    const std::string& in = node.inputs[i];
    if (in.empty()) {
      ctx.inputs_.push_back(nullptr);
      ctx.values_.push_back(nullptr);
      ctx.symValues_.push_back(nullptr);
      continue;
    }
    auto t = st.types.find(in);
    if (t == st.types.end() || t->second.dtype == DataType::kUndefined) return false;
    ctx.inputs_.push_back(&t->second);
    auto v = st.values.find(in);
    if (v != st.values.end()) {
      ctx.values_.push_back(&v->second);
      valueElements += v->second.numel();
      // A string's characters count too: a StringConcat chain doubling a
      // constant must stop folding, as a numeric one does.
      if (v->second.dtype() == DataType::kString)
        for (int64_t k = 0; k < v->second.numel() && valueElements <= kMaxFoldElements; ++k)
          valueElements += static_cast<int64_t>(v->second.data<std::string>()[k].size());
    } else {
      ctx.values_.push_back(nullptr);
      allValues = false;
    }
    auto s = st.symValues.find(in);
    ctx.symValues_.push_back(s != st.symValues.end() ? &s->second : nullptr);
  }
  for (const auto& o : node.outputs) {
    ValueInfo v;
    v.name = o;
    ctx.outputs_.push_back(std::move(v));
  }
  ctx.outputSet_.assign(node.outputs.size(), false);
  ctx.outputValues_.resize(node.outputs.size());
  ctx.outputSymValues_.resize(node.outputs.size());

  try {
    (*fn)(ctx);
  } catch (const Error& e) {
    rethrowNamingNode(node, e);
  }

  for (size_t i = 0; i < node.outputs.size(); ++i) {
    if (node.outputs[i].empty()) continue;
    if (!ctx.outputSet_[i])
      throw Error(ErrorCode::kInternal, node.describe() + ": shape function left output " + std::to_string(i) +
                                            " ('" + node.outputs[i] + "') untyped");
    if (declared) mergeDeclared(node, i, ctx.outputs_[i], declared->findValue(node.outputs[i]));
  }

  // Fold when every input is known and small (or the node has no inputs, like Constant).
  std::vector<Tensor> folded;
  bool didFold = false;
  size_t outBytes = 0;
  if (fold && allValues && valueElements <= kMaxFoldElements && foldedSizeFits(ctx.outputs_, st, outBytes)) {
    std::vector<const Tensor*> ins(ctx.values_.begin(), ctx.values_.end());
    try {
      didFold = hooks.evaluate(node, ins, ctx.outputs_, folded);
    } catch (const Error& e) {
      rethrowNamingNode(node, e);
    }
    if (didFold) st.foldedBytes += outBytes;
  }
  for (size_t i = 0; i < node.outputs.size(); ++i) {
    const std::string& name = node.outputs[i];
    if (name.empty()) continue;
    if (didFold && i < folded.size() && folded[i].defined()) {
      st.types[name] = valueInfoOf(name, folded[i]);
      st.types[name].kind = ctx.outputs_[i].kind;
      setKnownValue(name, folded[i], st);
      continue;
    }
    st.types[name] = ctx.outputs_[i];
    if (ctx.outputValues_[i]) {
      setKnownValue(name, *ctx.outputValues_[i], st);
    } else if (ctx.outputSymValues_[i]) {
      st.symValues[name] = *ctx.outputSymValues_[i];
    }
  }
  return true;
}

void inferNodes(const ir::Graph& g, InferState& st, const InferHooks& hooks, SymbolGenerator& symbols, bool fold) {
  for (const Node& node : g.nodes) {
    if (!inferNode(node, st, hooks, symbols, &g, fold)) {
      // An input of unknown type: the outputs stay unknown (declared types, if any, stand).
      for (const auto& o : node.outputs) {
        if (o.empty()) continue;
        const ValueInfo* decl = g.findValue(o);
        ValueInfo v = decl ? *decl : ValueInfo{};
        v.name = o;
        st.types[o] = v;
      }
    }
  }
}

}  // namespace oinfer::shape
