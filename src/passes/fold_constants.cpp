// Constant folding: a node whose outputs shape inference could compute
// (from initializers, Constant nodes and static shapes: the Shape -> Gather
// -> Cast -> Sqrt chains exporters emit for a reshape target or an
// attention scale) becomes initializers, so the fusions after it see plain
// constants (fuse_attention.cpp absorbs a scale Mul only when its factor is
// one). The session's plan folds the same nodes anyway; here it happens
// before the passes. Small results only (kMaxFoldedElements in all per
// node): a large one would be a second copy of a weight. Nodes left with no
// reader (the Shape a folded chain started from) go too, so a value they
// read counts one reader fewer for the fusions' single-reader checks.
// Declared with the passes (graph/passes/passes.h) but defined here, as
// Graph::inferShapes is (evaluate.cpp): it runs kernels to fold, and src/graph
// depends on nothing above it.
#include <set>

#include "passes/pass_util.h"
#include "passes/passes.h"
#include "ops/evaluate.h"
#include "ops/graph_shapes.h"

namespace oinfer::passes {

namespace {
constexpr int64_t kMaxFoldedElements = 4096;
}  // namespace

int foldConstants(ir::Graph& g, const PassContext& ctx) {
  g.ensureSorted();
  if (!unsupportedOps(g, ctx.registry).empty()) return 0;
  shape::InferState st;
  shape::seedState(g, st);
  shape::SymbolGenerator symbols;
  try {
    shape::inferNodes(g, st, makeInferHooks(ctx.registry, g), symbols, /*fold=*/true);
  } catch (const Error&) {
    return 0;  // the session's own inference reports it
  }
  std::set<std::string> graphOutputs;
  for (const auto& o : g.outputs) graphOutputs.insert(o.name);
  std::vector<bool> drop(g.nodes.size(), false);
  int folded = 0;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& n = g.nodes[i];
    if ((n.opType == "Constant" && n.domain.empty()) || n.outputs.empty()) continue;
    bool subgraph = false;
    for (const auto& a : n.attributes) subgraph |= a.g != nullptr || !a.graphs.empty();
    if (subgraph) continue;
    bool known = true;
    int64_t elements = 0;
    for (const auto& o : n.outputs) {
      if (o.empty()) continue;
      auto it = st.values.find(o);
      if (it == st.values.end() || graphOutputs.count(o) || !it->second.defined()) {
        known = false;
        break;
      }
      elements += it->second.numel();
    }
    if (!known || elements > kMaxFoldedElements) continue;
    for (const auto& o : n.outputs)
      if (!o.empty()) g.initializers[o] = st.values[o];
    drop[i] = true;
    ++folded;
  }
  if (!folded) return 0;
  util::removeNodes(g, drop);
  util::removeDeadNodes(g);
  return folded;
}

}  // namespace oinfer::passes
