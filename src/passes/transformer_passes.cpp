// The transformer pass groups. The fusions need ranks, static shapes and
// dtypes, so shape inference runs first, once for the whole group; a graph
// it cannot type yet is left as it is (the session's own inference then
// reports the problem). Fused nodes take the place of the last node of their
// chain; the pipeline sorts again after the group anyway, because a
// LayerNorm's residual output may now be produced after one of its readers.
#include "passes/pass_util.h"
#include "passes/passes.h"

namespace oinfer::passes {

int transformerGroup(ir::Graph& g, const PassContext& ctx) {
  if (!ctx.ensureShapes(g)) return 0;
  int n = eliminateRedundantNodes(g, ctx);
  n += fuseGelu(g, ctx);
  n += fuseLayerNorm(g, ctx);
  n += fuseAttention(g, ctx);
  n += fuseMatMul(g, ctx);
  n += fuseQkvProjections(g, ctx);
  if (n) util::removeDeadNodes(g);  // shape chains that fed the removed Reshapes
  return n;
}

int transformerGroupDevice(ir::Graph& g, const PassContext& ctx) {
  if (!ctx.ensureShapes(g)) return 0;
  int n = eliminateRedundantNodes(g, ctx);
  n += fuseGelu(g, ctx);
  n += fuseLayerNorm(g, ctx);
  n += fuseMatMul(g, ctx);
  return n;
}

}  // namespace oinfer::passes
