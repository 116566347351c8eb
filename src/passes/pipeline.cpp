#include "passes/pipeline.h"

#include <spdlog/spdlog.h>

#include "ops/graph_shapes.h"

namespace oinfer::passes {

bool PassContext::ensureShapes(ir::Graph& g) const {
  if (g.shapesInferred()) return true;
  try {
    inferShapes(g, registry);
  } catch (const Error&) {
    return false;
  }
  return true;
}

std::vector<Pass> buildPipeline(const PipelineOptions& o) {
  std::vector<Pass> p;
  // Level 1: the folds (fewer nodes of the same ops); level 2: the fusions too.
  const bool basic = o.level >= 1, all = o.level >= 2;
  if (o.fp16) {
    if (basic) p.push_back({"foldConvBatchNorm", foldConvBatchNorm});  // on float32 weights: neutral
    p.push_back({"convertToFloat16", convertToFloat16});
    return p;
  }
  if (!basic) return p;
  if (o.device == Device::kCUDA) {
    p.push_back({"foldConvBatchNorm", foldConvBatchNorm});
    if (!all) return p;
    p.push_back({"fuseConvActivation", fuseConvActivation});
    p.push_back({"transformerGroupDevice", transformerGroupDevice});
    return p;
  }
  // Before the folds: folding DQ(W) would make float32 weights of int8 ones.
  if (all) p.push_back({"fuseQdq", fuseQdq});
  p.push_back({"foldConstants", foldConstants});
  p.push_back({"foldConvBatchNorm", foldConvBatchNorm});
  if (!all) return p;
  p.push_back({"fuseConvActivation", fuseConvActivation});
  p.push_back({"fuseConvMaxPool", fuseConvMaxPool});
  p.push_back({"fuseConvDepthwise", fuseConvDepthwise});
  p.push_back({"transformerGroup", transformerGroup});
  p.push_back({"orderForMemory", orderForMemory});  // last: on the graph as it will run
  return p;
}

std::vector<std::string> runPipeline(ir::Graph& g, const std::vector<Pass>& pipeline, const PassContext& ctx) {
  std::vector<std::string> changed;
  g.ensureSorted();
  for (const Pass& pass : pipeline) {
    const int n = pass.run(g, ctx);
    if (n <= 0) continue;
    changed.push_back(std::string(pass.name) + ": " + std::to_string(n));
    g.invalidateOrder();
    g.topologicalSort();
  }
  return changed;
}

void optimize(ir::Graph& g, const Registry& registry, const PipelineOptions& options) {
  PassContext ctx{registry, options.blockedLayout};
  for (const auto& line : runPipeline(g, buildPipeline(options), ctx)) spdlog::debug("pass {}", line);
}

}  // namespace oinfer::passes
