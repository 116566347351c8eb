// Removes data movement that cancels out:
//   Identity (and inference Dropout without a mask output)  -> its input
//   Transpose(Transpose(x, p1), p2)  -> Transpose(x, p1∘p2), or x when that is the identity
//   Reshape(Reshape(x, s1), s2)      -> Reshape(x, s2) when s2 is a constant without 0s
//   Transpose(x) moving only size-1 axes of a static shape -> Reshape(x, its output shape)
// Readers are rewired to the surviving value; a value that is a graph output
// keeps its name (the node producing it is rewritten instead of removed).
#include <numeric>

#include "passes/pass_util.h"
#include "passes/passes.h"

namespace oinfer::passes {

namespace {

using namespace util;

// Every reader of `from` reads `to` instead.
void rename(ir::Graph& g, const std::string& from, const std::string& to) {
  for (Node& n : g.nodes)
    for (auto& in : n.inputs)
      if (in == from) in = to;
}

std::vector<int64_t> permOf(const Node& t, int64_t rank) {
  std::vector<int64_t> p = t.attrInts("perm");
  if (p.empty()) {
    // Default: reverse the dims.
    p.resize(static_cast<size_t>(std::max<int64_t>(rank, 0)));
    std::iota(p.rbegin(), p.rend(), 0);
  }
  return p;
}

// A Transpose of a statically shaped input whose axes of size > 1 keep
// their order (only size-1 axes move).
bool movesOnlyUnitAxes(const ir::Graph& g, const Node& t) {
  const auto s = shapeOf(g, t.inputs[0]);
  if (!s || s->empty()) return false;
  for (const Dim& d : *s)
    if (!d.isStatic()) return false;
  const std::vector<int64_t> p = permOf(t, int64_t(s->size()));
  if (p.size() != s->size()) return false;
  std::vector<bool> seen(p.size(), false);
  int64_t last = -1;
  for (int64_t a : p) {
    if (a < 0 || a >= int64_t(p.size()) || seen[size_t(a)]) return false;
    seen[size_t(a)] = true;
    if ((*s)[size_t(a)].value == 1) continue;
    if (a < last) return false;
    last = a;
  }
  return true;
}

}  // namespace

int eliminateRedundantNodes(ir::Graph& g, const PassContext&) {
  if (!anyOp(g, {"Identity", "Dropout", "Transpose", "Reshape"})) return 0;
  int removed = 0;
  std::vector<bool> drop(g.nodes.size(), false);
  GraphIndex idx(g);
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    Node& n = g.nodes[i];
    if (n.outputs.empty() || n.inputs.empty() || n.inputs[0].empty()) continue;
    const std::string& out = n.outputs[0];
    const bool dropoutPassThrough =
        isOp(n, "Dropout") && (n.outputs.size() < 2 || n.outputs[1].empty()) &&
        (n.inputs.size() < 3 || n.inputs[2].empty()) && n.attrInt("is_test", 1) != 0;
    if ((isOp(n, "Identity") || dropoutPassThrough) && !idx.isGraphOutput(out) && !idx.readBySubgraph(out)) {
      rename(g, out, n.inputs[0]);
      drop[i] = true;
      ++removed;
      continue;
    }
    if (isOp(n, "Transpose") && movesOnlyUnitAxes(g, n)) {
      // Only axes of size 1 move: the data order is unchanged, so a Reshape
      // (a view, no copy) to the output shape does the same. Exporters write
      // these for batch-1 [S, 1, D] <-> [1, S, D] swaps (ViT: two per layer).
      const auto s = shapeOf(g, n.inputs[0]);
      const std::vector<int64_t> p = permOf(n, int64_t(s->size()));
      std::vector<int64_t> dims;
      for (int64_t a : p) dims.push_back((*s)[size_t(a)].value);
      std::string target = (n.name.empty() ? out : n.name) + "_shape";
      for (int k = 1; g.initializers.count(target) || g.findValue(target); ++k)
        target = (n.name.empty() ? out : n.name) + "_shape_" + std::to_string(k);
      g.initializers[target] = Tensor::fromVector<int64_t>({int64_t(dims.size())}, dims);
      n.opType = "Reshape";
      n.attributes.clear();
      n.inputs = {n.inputs[0], target};
      ++removed;
      continue;
    }
    if (isOp(n, "Transpose")) {
      const int inner = idx.producerOf(n.inputs[0], "Transpose");
      // (isOp again: an earlier step may have made the inner one a Reshape.)
      if (inner < 0 || drop[inner] || !idx.internal(n.inputs[0]) || !isOp(g.nodes[inner], "Transpose")) continue;
      const Node& t1 = g.nodes[inner];
      const int64_t rank = rankOf(g, t1.inputs[0]);
      const std::vector<int64_t> p1 = permOf(t1, rank), p2 = permOf(n, rank);
      if (p1.empty() || p1.size() != p2.size()) continue;
      // y[i] = t[p2[i]] and t[j] = x[p1[j]], so y[i] = x[p1[p2[i]]].
      std::vector<int64_t> p(p2.size());
      bool identity = true;
      for (size_t k = 0; k < p.size(); ++k) {
        if (p2[k] < 0 || p2[k] >= static_cast<int64_t>(p1.size())) { identity = false; p.clear(); break; }
        p[k] = p1[p2[k]];
        identity &= p[k] == static_cast<int64_t>(k);
      }
      if (p.empty()) continue;
      const std::string x = t1.inputs[0];
      drop[inner] = true;
      ++removed;
      if (identity && !idx.isGraphOutput(out) && !idx.readBySubgraph(out)) {
        rename(g, out, x);
        drop[i] = true;
        ++removed;
        continue;
      }
      n.inputs[0] = x;
      n.attributes.clear();
      n.attributes.push_back(util::intsAttr("perm", p));
      continue;
    }
    if (isOp(n, "Reshape") && n.inputs.size() >= 2) {
      const int inner = idx.producerOf(n.inputs[0], "Reshape");
      if (inner < 0 || drop[inner] || !idx.internal(n.inputs[0])) continue;
      const Tensor* target = constant(g, idx, n.inputs[1]);
      if (!target || target->dtype() != DataType::kInt64) continue;
      bool zero = false;
      for (int64_t k = 0; k < target->numel(); ++k) zero |= target->data<int64_t>()[k] == 0;
      if (zero) continue;  // 0 copies a dim of the intermediate shape
      n.inputs[0] = g.nodes[inner].inputs[0];
      drop[inner] = true;
      ++removed;
    }
  }
  if (removed) removeNodes(g, drop);
  return removed;
}

}  // namespace oinfer::passes
