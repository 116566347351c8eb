#include "ops/evaluate.h"

#include <functional>
#include <set>

namespace oinfer {

const OpDef* findOpDef(const Graph& g, const Node& node) {
  return Registry::global().find(node.domain, node.opType, g.opset(node.domain));
}

namespace {
ThreadPool& foldPool() {
  static ThreadPool pool(1);
  return pool;
}
}  // namespace

bool evaluateNode(const Node& node, int64_t opset, const std::vector<const Tensor*>& inputs,
                  const std::vector<ValueInfo>& outputTypes, std::vector<Tensor>& outputs) {
  const OpDef* def = Registry::global().find(node.domain, node.opType, opset);
  if (!def || !def->cpu || !def->deterministic) return false;
  std::vector<ValueInfo> inInfos(inputs.size());
  KernelInit init{node, opset, {}, {}, {}};
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!inputs[i]) {
      init.inputs.push_back(nullptr);
      init.constInputs.push_back(nullptr);
      continue;
    }
    inInfos[i].name = node.inputs[i];
    inInfos[i].dtype = inputs[i]->dtype();
    inInfos[i].hasShape = true;
    inInfos[i].shape = toShape(inputs[i]->shape());
    init.inputs.push_back(&inInfos[i]);
    init.constInputs.push_back(inputs[i]);
  }
  for (size_t i = 0; i < outputTypes.size(); ++i)
    init.outputs.push_back(node.outputs[i].empty() ? nullptr : &outputTypes[i]);

  outputs.assign(node.outputs.size(), Tensor());
  if (def->viewOfInput >= 0) {
    const ValueInfo& o = outputTypes[0];
    if (!o.hasShape || !isStatic(o.shape) || !inputs[def->viewOfInput]) return false;
    outputs[0] = inputs[def->viewOfInput]->reshaped(toStatic(o.shape));
    return true;
  }
  for (const auto& o : outputTypes)
    if (o.kind != ValueKind::kTensor) return false;
  auto kernel = def->cpu(init);
  KernelContext ctx;
  ctx.node_ = &node;
  ctx.pool_ = &foldPool();
  ctx.inputs_ = inputs;
  for (size_t i = 0; i < outputs.size(); ++i) {
    ctx.outputTypes_.push_back(outputTypes[i].dtype);
    if (node.outputs[i].empty()) {
      ctx.outputs_.push_back(nullptr);
      continue;
    }
    const ValueInfo& o = outputTypes[i];
    if (o.hasShape && isStatic(o.shape) && o.dtype != DataType::kUndefined)
      outputs[i] = Tensor(o.dtype, toStatic(o.shape));
    ctx.outputs_.push_back(&outputs[i]);
  }
  kernel->run(ctx);
  for (size_t i = 0; i < outputs.size(); ++i)
    if (!node.outputs[i].empty() && !outputs[i].defined()) return false;
  return true;
}

shape::InferHooks makeInferHooks(const Graph& g) {
  shape::InferHooks h;
  h.opset = [&g](const Node& n) { return g.opset(n.domain); };
  h.shapeFn = [&g](const Node& n) -> const shape::ShapeFn* {
    const OpDef* def = findOpDef(g, n);
    return def ? &def->shape : nullptr;
  };
  h.evaluate = [&g](const Node& n, const std::vector<const Tensor*>& ins, const std::vector<ValueInfo>& outTypes,
                    std::vector<Tensor>& outs) { return evaluateNode(n, g.opset(n.domain), ins, outTypes, outs); };
  return h;
}

std::vector<std::string> Graph::unsupportedOps() const {
  std::set<std::string> missing;
  // Subgraphs (If branches, Loop bodies...) use the model's opsets.
  std::function<void(const std::vector<Node>&)> visit = [&](const std::vector<Node>& ns) {
    for (const Node& n : ns) {
      for (const auto& a : n.attributes) {
        if (a.g) visit(a.g->nodes);
        for (const auto& g : a.graphs)
          if (g) visit(g->nodes);
      }
      if (findOpDef(*this, n)) continue;
      const std::string dom = n.domain.empty() ? "ai.onnx" : n.domain;
      std::string line = dom + "::" + n.opType + " (opset " + std::to_string(opset(n.domain)) + ")";
      if (Registry::global().hasOp(n.domain, n.opType)) line += " [no version for this opset]";
      missing.insert(line + ", e.g. node '" + n.name + "'");
    }
  };
  visit(nodes);
  // One line per op: keep the first node named for each op.
  std::vector<std::string> out;
  std::string lastOp;
  for (const auto& m : missing) {
    std::string op = m.substr(0, m.find(", e.g."));
    if (op == lastOp) continue;
    lastOp = op;
    out.push_back(m);
  }
  return out;
}

void Graph::inferShapes() {
  if (!sorted) topologicalSort();
  auto missing = unsupportedOps();
  if (!missing.empty()) {
    std::string msg = "the model uses " + std::to_string(missing.size()) + " unsupported op" +
                      (missing.size() > 1 ? "s" : "") + ":";
    for (const auto& m : missing) msg += "\n  " + m;
    throw Error(ErrorCode::kUnsupportedOp, msg);
  }
  shape::InferState st;
  shape::seedState(*this, st);
  shape::SymbolGenerator symbols;
  shape::inferNodes(*this, st, makeInferHooks(*this), symbols);
  for (const Node& n : nodes)
    for (const auto& o : n.outputs)
      if (!o.empty()) valueInfo[o] = st.types[o];
  for (auto& out : outputs) {
    auto it = st.types.find(out.name);
    if (it == st.types.end()) continue;
    std::string keep = out.name;
    ValueInfo merged = it->second;
    // A declared output shape names its dims; keep those names where inference found only fresh symbols.
    if (out.hasShape && merged.hasShape && out.shape.size() == merged.shape.size())
      for (size_t k = 0; k < merged.shape.size(); ++k)
        if (!merged.shape[k].isStatic() && merged.shape[k].symbol.rfind("unk__", 0) == 0) merged.shape[k] = out.shape[k];
    out = merged;
    out.name = keep;
  }
  shapesInferred = true;
}

}  // namespace oinfer
