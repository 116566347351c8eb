// Topological sort (Kahn's algorithm).
//
// Edges run from the producer of a value to each node that reads it (inputs
// and, for nodes with subgraphs, the outer-scope names those subgraphs read).
// Values with no producer are graph inputs, initializers or outer-scope values
// of an enclosing graph. Ready nodes are taken in their original order (a min-
// heap on the original index), so the result is deterministic and leaves an
// already sorted graph unchanged. Nodes left with nonzero in-degree form or hang
// off a cycle; the error lists them.
#include <queue>
#include <set>
#include <unordered_map>

#include "graph/ir.h"

namespace oinfer::ir {

namespace {
// Names a node reads: its inputs plus those its subgraphs take from outside.
void collectReads(const Node& node, std::vector<std::string>& out) {
  for (const auto& in : node.inputs)
    if (!in.empty()) out.push_back(in);
  for (const auto& a : node.attributes) {
    if (a.g)
      for (const auto& n : a.g->outerScopeInputs) out.push_back(n);
    for (const auto& g : a.graphs)
      if (g)
        for (const auto& n : g->outerScopeInputs) out.push_back(n);
  }
}
}  // namespace

void Graph::topologicalSort() {
  const size_t n = nodes.size();
  std::unordered_map<std::string, size_t> producer;
  for (size_t i = 0; i < n; ++i)
    for (const auto& out : nodes[i].outputs)
      if (!out.empty()) producer.emplace(out, i);

  std::vector<std::vector<size_t>> consumers(n);
  std::vector<size_t> indegree(n, 0);
  std::vector<std::string> reads;
  for (size_t i = 0; i < n; ++i) {
    reads.clear();
    collectReads(nodes[i], reads);
    std::set<size_t> preds;
    for (const auto& r : reads) {
      auto it = producer.find(r);
      if (it != producer.end()) preds.insert(it->second);
    }
    for (size_t p : preds) {
      consumers[p].push_back(i);
      ++indegree[i];
    }
  }

  std::priority_queue<size_t, std::vector<size_t>, std::greater<>> ready;
  for (size_t i = 0; i < n; ++i)
    if (indegree[i] == 0) ready.push(i);
  std::vector<size_t> order;
  order.reserve(n);
  while (!ready.empty()) {
    size_t i = ready.top();
    ready.pop();
    order.push_back(i);
    for (size_t c : consumers[i])
      if (--indegree[c] == 0) ready.push(c);
  }

  if (order.size() != n) {
    std::string names;
    for (size_t i = 0; i < n; ++i)
      if (indegree[i] != 0) names += (names.empty() ? "'" : ", '") + nodes[i].name + "'";
    throw Error(ErrorCode::kInvalidModel, "graph has a cycle among nodes " + names);
  }
  std::vector<Node> sortedNodes;
  sortedNodes.reserve(n);
  for (size_t i : order) sortedNodes.push_back(std::move(nodes[i]));
  nodes = std::move(sortedNodes);
  sorted_ = true;
}

}  // namespace oinfer::ir
