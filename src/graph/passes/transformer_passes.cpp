// The transformer pass pipeline. The fusions need ranks, static shapes and
// dtypes, so shape inference runs first; a graph it cannot type yet is left
// as it is (the session's own inference then reports the problem). Fused
// nodes take the place of the last node of their chain, so the order stays
// topological; the sort runs again anyway because a LayerNorm's residual
// output may now be produced after one of its readers.
#include "graph/passes/pass_util.h"
#include "graph/passes/passes.h"

namespace oinfer::passes {

void optimizeTransformer(Graph& g) {
  if (!util::ensureShapes(g)) return;
  int n = eliminateRedundantNodes(g);
  n += fuseGelu(g);
  n += fuseLayerNorm(g);
  n += fuseAttention(g);
  n += fuseMatMul(g);
  n += fuseQkvProjections(g);
  if (!n) return;
  util::removeDeadNodes(g);  // shape chains that fed the removed Reshapes
  g.sorted = false;
  g.topologicalSort();
  g.shapesInferred = false;
}

}  // namespace oinfer::passes
