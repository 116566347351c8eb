#include "ops/evaluate.h"

#include <functional>
#include <set>

namespace oinfer {

const OpDef* findOpDef(const Registry& r, const ir::Graph& g, const Node& node) {
  return r.find(node.domain, node.opType, g.opset(node.domain));
}

namespace {
ThreadPool& foldPool() {
  static ThreadPool pool(1);
  return pool;
}
}  // namespace

bool evaluateNode(const Registry& r, const Node& node, int64_t opset, const std::vector<const Tensor*>& inputs,
                  const std::vector<ValueInfo>& outputTypes, std::vector<Tensor>& outputs) {
  const OpDef* def = r.find(node.domain, node.opType, opset);
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
  OwnedScratch scratch(init, ctx);
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

shape::InferHooks makeInferHooks(const Registry& r, const ir::Graph& g) {
  shape::InferHooks h;
  h.opset = [&g](const Node& n) { return g.opset(n.domain); };
  h.shapeFn = [&r, &g](const Node& n) -> const shape::ShapeFn* {
    const OpDef* def = findOpDef(r, g, n);
    return def ? &def->shape : nullptr;
  };
  h.evaluate = [&r, &g](const Node& n, const std::vector<const Tensor*>& ins, const std::vector<ValueInfo>& outTypes,
                        std::vector<Tensor>& outs) { return evaluateNode(r, n, g.opset(n.domain), ins, outTypes, outs); };
  return h;
}

}  // namespace oinfer
