#include "shape/control_flow.h"

#include <algorithm>

#include "shape/infer.h"

namespace oinfer::shape {

namespace {

// The type two occurrences of one value share (the branches of an If, a loop
// value before and after an iteration): what agrees is kept.
ValueInfo mergeTypes(InferContext& ctx, const ValueInfo& a, const ValueInfo& b) {
  ValueInfo m = a;
  if (m.dtype == DataType::kUndefined) m.dtype = b.dtype;
  if (!a.hasShape || !b.hasShape || a.shape.size() != b.shape.size()) {
    m.hasShape = false;
    m.shape.clear();
    return m;
  }
  for (size_t k = 0; k < a.shape.size(); ++k)
    if (a.shape[k] != b.shape[k]) m.shape[k] = ctx.freshDim();
  return m;
}

bool symbolIn(const std::string& sym, const std::vector<ValueInfo>& types) {
  for (const auto& t : types)
    for (const Dim& d : t.shape)
      if (!d.isStatic() && d.symbol == sym) return true;
  return false;
}

// Types the outputs of `body` given its formal inputs' types.
std::vector<ValueInfo> inferBody(InferContext& ctx, const ir::Graph& body, const std::vector<ValueInfo>& formal) {
  const ir::Graph* g = &body;
  ir::Graph sortedCopy;
  if (!body.sorted()) {
    sortedCopy = body;
    sortedCopy.topologicalSort();
    g = &sortedCopy;
  }
  InferState st;
  seedState(*g, st);
  std::vector<ValueInfo> known = formal;  // types whose symbols are meaningful outside
  if (ctx.scope_) {
    for (const auto& name : g->outerScopeInputs) {
      auto t = ctx.scope_->types.find(name);
      if (t != ctx.scope_->types.end()) {
        st.types[name] = t->second;
        known.push_back(t->second);
      }
      auto v = ctx.scope_->values.find(name);
      if (v != ctx.scope_->values.end()) st.values[name] = v->second;
      auto s = ctx.scope_->symValues.find(name);
      if (s != ctx.scope_->symValues.end()) st.symValues[name] = s->second;
    }
  }
  for (size_t i = 0; i < formal.size() && i < g->inputs.size(); ++i) {
    if (formal[i].dtype == DataType::kUndefined && formal[i].kind == ValueKind::kTensor) continue;
    ValueInfo v = formal[i];
    v.name = g->inputs[i].name;
    st.types[v.name] = v;
    st.values.erase(v.name);
  }
  if (ctx.hooks_) {
    SymbolGenerator local;
    inferNodes(*g, st, *ctx.hooks_, local, /*fold=*/true);
  }
  std::vector<ValueInfo> outs;
  for (const auto& o : g->outputs) {
    auto it = st.types.find(o.name);
    ValueInfo v = it != st.types.end() && it->second.dtype != DataType::kUndefined ? it->second : o;
    if (v.dtype == DataType::kUndefined) v.dtype = o.dtype;
    // Symbols made inside the body mean nothing outside it.
    for (Dim& d : v.shape)
      if (!d.isStatic() && !symbolIn(d.symbol, known)) d = ctx.freshDim();
    outs.push_back(v);
  }
  return outs;
}

const ir::Graph& graphAttr(InferContext& ctx, const char* name) {
  const ir::Graph* g = ctx.node().attrGraph(name);
  if (!g) ctx.fail(ErrorCode::kInvalidModel, std::string("attribute '") + name + "' (a graph) is required");
  return *g;
}

ValueInfo tensorType(DataType dt, Shape shape) {
  ValueInfo v;
  v.dtype = dt;
  v.hasShape = true;
  v.shape = std::move(shape);
  return v;
}

}  // namespace

void inferIf(InferContext& ctx) {
  const ir::Graph& thenG = graphAttr(ctx, "then_branch");
  const ir::Graph& elseG = graphAttr(ctx, "else_branch");
  for (const ir::Graph* g : {&thenG, &elseG})
    if (g->outputs.size() != ctx.numOutputs())
      ctx.fail(ErrorCode::kInvalidModel, "branch '" + g->name + "' has " + std::to_string(g->outputs.size()) +
                                             " outputs, the node has " + std::to_string(ctx.numOutputs()));
  const Tensor* cond = ctx.inputValue(0);
  if (cond && cond->numel() == 1 && cond->dtype() == DataType::kBool) {
    auto outs = inferBody(ctx, *cond->data<bool>() ? thenG : elseG, {});
    for (size_t i = 0; i < outs.size(); ++i) ctx.setOutputInfo(i, outs[i]);
    return;
  }
  auto t = inferBody(ctx, thenG, {});
  auto e = inferBody(ctx, elseG, {});
  for (size_t i = 0; i < t.size(); ++i) ctx.setOutputInfo(i, mergeTypes(ctx, t[i], e[i]));
}

void inferLoop(InferContext& ctx) {
  const ir::Graph& body = graphAttr(ctx, "body");
  const size_t nCarried = ctx.numInputs() >= 2 ? ctx.numInputs() - 2 : 0;
  if (body.inputs.size() != nCarried + 2)
    ctx.fail(ErrorCode::kInvalidModel, "body takes " + std::to_string(body.inputs.size()) + " inputs, expected " +
                                           std::to_string(nCarried + 2) + " (iteration number, condition, " +
                                           std::to_string(nCarried) + " loop-carried values)");
  if (body.outputs.size() < nCarried + 1)
    ctx.fail(ErrorCode::kInvalidModel, "body has " + std::to_string(body.outputs.size()) + " outputs, expected at least " +
                                           std::to_string(nCarried + 1));
  const size_t nScan = body.outputs.size() - 1 - nCarried;
  if (ctx.numOutputs() > nCarried + nScan)
    ctx.fail(ErrorCode::kInvalidModel, "the node has " + std::to_string(ctx.numOutputs()) + " outputs, the body gives " +
                                           std::to_string(nCarried + nScan));
  std::vector<ValueInfo> formal{tensorType(DataType::kInt64, {}), tensorType(DataType::kBool, {})};
  for (size_t j = 0; j < nCarried; ++j) formal.push_back(ctx.input(2 + j));
  auto outs = inferBody(ctx, body, formal);
  for (size_t j = 0; j < nCarried && j < ctx.numOutputs(); ++j) ctx.setOutputInfo(j, mergeTypes(ctx, ctx.input(2 + j), outs[1 + j]));
  Dim trip = ctx.freshDim();
  const bool condAbsent = ctx.node().inputs.size() < 2 || ctx.node().inputs[1].empty();
  if (const Tensor* m = ctx.inputValue(0); m && condAbsent && m->numel() == 1) trip = Dim(m->toInt64Vector()[0]);
  for (size_t k = 0; k < nScan && nCarried + k < ctx.numOutputs(); ++k) {
    ValueInfo elem = outs[1 + nCarried + k];
    ValueInfo v;
    v.dtype = elem.dtype;
    v.hasShape = elem.hasShape;
    if (elem.hasShape) {
      v.shape.push_back(trip);
      v.shape.insert(v.shape.end(), elem.shape.begin(), elem.shape.end());
    }
    ctx.setOutputInfo(nCarried + k, v);
  }
}

void inferScan(InferContext& ctx) {
  const ir::Graph& body = graphAttr(ctx, "body");
  const bool v8 = ctx.opset() < 9;
  const size_t first = v8 ? 1 : 0;  // opset 8: input 0 is sequence_lens
  const int64_t nScanIn = ctx.node().attrInt("num_scan_inputs", -1);
  const size_t total = ctx.numInputs() - first;
  if (nScanIn < 1 || static_cast<size_t>(nScanIn) > total)
    ctx.fail(ErrorCode::kInvalidModel, "num_scan_inputs must be in [1, " + std::to_string(total) + "]");
  const size_t nState = total - static_cast<size_t>(nScanIn);
  if (body.inputs.size() != total)
    ctx.fail(ErrorCode::kInvalidModel, "body takes " + std::to_string(body.inputs.size()) + " inputs, the node gives " +
                                           std::to_string(total));
  if (body.outputs.size() < nState)
    ctx.fail(ErrorCode::kInvalidModel, "body has fewer outputs than the " + std::to_string(nState) + " state values");
  const size_t nScanOut = body.outputs.size() - nState;
  auto inAxes = ctx.node().attrInts("scan_input_axes", std::vector<int64_t>(nScanIn, 0));
  auto outAxes = ctx.node().attrInts("scan_output_axes", std::vector<int64_t>(nScanOut, 0));
  const size_t lead = v8 ? 1 : 0;  // opset 8: dims before the scanned one (batch)

  std::vector<ValueInfo> formal;
  Dim seqLen = ctx.freshDim();
  Dim batch = ctx.freshDim();
  for (size_t j = 0; j < nState; ++j) {
    ValueInfo v = ctx.input(first + j);
    if (v8 && v.hasShape && !v.shape.empty()) {
      batch = v.shape[0];
      v.shape.erase(v.shape.begin());
    }
    formal.push_back(v);
  }
  for (size_t m = 0; m < static_cast<size_t>(nScanIn); ++m) {
    ValueInfo v = ctx.input(first + nState + m);
    if (v.hasShape) {
      const int64_t rank = static_cast<int64_t>(v.shape.size());
      int64_t axis = v8 ? 1 : normalizeAxis(ctx, m < inAxes.size() ? inAxes[m] : 0, rank);
      if (axis >= rank) ctx.fail("scan input " + std::to_string(m) + " has rank " + std::to_string(rank));
      if (m == 0) seqLen = v.shape[axis];
      if (v8) batch = v.shape[0];
      v.shape.erase(v.shape.begin() + axis);
      if (v8) v.shape.erase(v.shape.begin());
    }
    formal.push_back(v);
  }
  auto outs = inferBody(ctx, body, formal);
  for (size_t j = 0; j < nState && j < ctx.numOutputs(); ++j) {
    ValueInfo v = mergeTypes(ctx, formal[j], outs[j]);
    if (v8 && v.hasShape) v.shape.insert(v.shape.begin(), batch);
    ctx.setOutputInfo(j, v);
  }
  for (size_t k = 0; k < nScanOut && nState + k < ctx.numOutputs(); ++k) {
    ValueInfo v = outs[nState + k];
    if (v.hasShape) {
      const int64_t rank = static_cast<int64_t>(v.shape.size()) + 1;
      int64_t axis = v8 ? 0 : normalizeAxis(ctx, k < outAxes.size() ? outAxes[k] : 0, rank);
      v.shape.insert(v.shape.begin() + axis, seqLen);
      if (v8) v.shape.insert(v.shape.begin(), batch);
    }
    (void)lead;
    ctx.setOutputInfo(nState + k, v);
  }
}

// ---- sequences and optionals ------------------------------------------------------

namespace {

ValueInfo sequenceOf(DataType dt, const ValueInfo* elem) {
  ValueInfo v;
  v.kind = ValueKind::kSequence;
  v.dtype = dt;
  if (elem && elem->hasShape) {
    v.hasShape = true;
    v.shape = elem->shape;
  }
  return v;
}

}  // namespace

void inferSequenceEmpty(InferContext& ctx) {
  const int64_t dt = ctx.node().attrInt("dtype", static_cast<int64_t>(DataType::kFloat));
  if (!isValidDataType(static_cast<int32_t>(dt))) ctx.fail("attribute 'dtype' is not a data type: " + std::to_string(dt));
  ValueInfo v = sequenceOf(static_cast<DataType>(dt), nullptr);
  ctx.setOutputInfo(0, v);
}

void inferSequenceConstruct(InferContext& ctx) {
  if (ctx.numInputs() == 0) ctx.fail("needs at least one input");
  ValueInfo elem = ctx.input(0);
  for (size_t i = 1; i < ctx.numInputs(); ++i) {
    if (ctx.inputType(i) != elem.dtype)
      ctx.fail("input " + std::to_string(i) + " ('" + ctx.node().inputs[i] + "') is " + dataTypeName(ctx.inputType(i)) +
               ", input 0 is " + dataTypeName(elem.dtype) + "; a sequence holds one data type");
    elem = mergeTypes(ctx, elem, ctx.input(i));
  }
  ctx.setOutputInfo(0, sequenceOf(elem.dtype, &elem));
}

void inferSequenceInsert(InferContext& ctx) {
  const ValueInfo& seq = ctx.input(0);
  const ValueInfo& t = ctx.input(1);
  if (seq.dtype != DataType::kUndefined && t.dtype != seq.dtype)
    ctx.fail(std::string("the tensor is ") + dataTypeName(t.dtype) + ", the sequence holds " + dataTypeName(seq.dtype));
  ValueInfo elem = t;
  if (seq.hasShape) elem = mergeTypes(ctx, seq, t);
  else elem.hasShape = false;
  ctx.setOutputInfo(0, sequenceOf(t.dtype, &elem));
}

void inferSequenceAt(InferContext& ctx) {
  const ValueInfo& seq = ctx.input(0);
  ValueInfo v;
  v.dtype = seq.dtype;
  v.hasShape = seq.hasShape;
  v.shape = seq.shape;
  ctx.setOutputInfo(0, v);
}

void inferSequenceErase(InferContext& ctx) { ctx.setOutputInfo(0, ctx.input(0)); }

void inferSequenceLength(InferContext& ctx) { ctx.setOutput(0, DataType::kInt64, {}); }

void inferSplitToSequence(InferContext& ctx) {
  const ValueInfo& in = ctx.input(0);
  ValueInfo elem;
  elem.dtype = in.dtype;
  if (in.hasShape) {
    const int64_t rank = static_cast<int64_t>(in.shape.size());
    const int64_t axis = normalizeAxis(ctx, ctx.node().attrInt("axis", 0), rank);
    elem.hasShape = true;
    elem.shape = in.shape;
    if (!ctx.hasInput(1)) {
      if (ctx.node().attrInt("keepdims", 1)) elem.shape[axis] = Dim(1);
      else elem.shape.erase(elem.shape.begin() + axis);
    } else {
      elem.shape[axis] = ctx.freshDim();
    }
  }
  ctx.setOutputInfo(0, sequenceOf(in.dtype, &elem));
}

void inferConcatFromSequence(InferContext& ctx) {
  const ValueInfo& seq = ctx.input(0);
  if (!ctx.node().hasAttr("axis")) ctx.fail(ErrorCode::kInvalidModel, "attribute 'axis' is required");
  ValueInfo v;
  v.dtype = seq.dtype;
  if (seq.hasShape) {
    const bool newAxis = ctx.node().attrInt("new_axis", 0) != 0;
    const int64_t rank = static_cast<int64_t>(seq.shape.size()) + (newAxis ? 1 : 0);
    const int64_t axis = normalizeAxis(ctx, ctx.node().attrInt("axis", 0), rank);
    v.hasShape = true;
    v.shape = seq.shape;
    if (newAxis) v.shape.insert(v.shape.begin() + axis, ctx.freshDim());
    else v.shape[axis] = ctx.freshDim();
  }
  ctx.setOutputInfo(0, v);
}

void inferSequenceMap(InferContext& ctx) {
  const ir::Graph& body = graphAttr(ctx, "body");
  if (body.outputs.size() != ctx.numOutputs())
    ctx.fail(ErrorCode::kInvalidModel, "body has " + std::to_string(body.outputs.size()) + " outputs, the node has " +
                                           std::to_string(ctx.numOutputs()));
  std::vector<ValueInfo> formal;
  for (size_t i = 0; i < ctx.numInputs(); ++i) {
    ValueInfo v = ctx.input(i);
    if (v.kind == ValueKind::kSequence) v.kind = ValueKind::kTensor;  // the body sees one element
    formal.push_back(v);
  }
  auto outs = inferBody(ctx, body, formal);
  for (size_t i = 0; i < outs.size(); ++i) {
    ValueInfo elem = outs[i];
    elem.hasShape = false;  // elements may differ
    ctx.setOutputInfo(i, sequenceOf(outs[i].dtype, &elem));
  }
}

void inferOptional(InferContext& ctx) {
  ValueInfo v;
  if (ctx.hasInput(0)) {
    v = ctx.input(0);
  } else {
    const Attribute* type = ctx.node().attr("type");
    if (!type) ctx.fail(ErrorCode::kInvalidModel, "attribute 'type' is required when the input is absent");
    v = type->typeProto;
  }
  if (v.kind != ValueKind::kSequence) v.kind = ValueKind::kOptional;
  ctx.setOutputInfo(0, v);
}

void inferOptionalHasElement(InferContext& ctx) { ctx.setOutput(0, DataType::kBool, {}); }

void inferOptionalGetElement(InferContext& ctx) {
  ValueInfo v = ctx.input(0);
  if (v.kind == ValueKind::kOptional) v.kind = ValueKind::kTensor;
  ctx.setOutputInfo(0, v);
}

}  // namespace oinfer::shape
