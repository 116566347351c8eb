// Topological sort (Kahn's algorithm).
//
// Edges run from the producer of a value to each node that reads it (inputs
// and, for nodes with subgraphs, the outer-scope names those subgraphs read).
// Values with no producer are graph inputs, initializers or outer-scope values
// of an enclosing graph. Ready nodes are taken in their original order (a min-
// heap on the original index), so the result is deterministic and leaves an
// already sorted graph unchanged. Nodes left with nonzero in-degree form or hang
// off a cycle; the error lists them.
#include <algorithm>
#include <queue>
#include <string_view>
#include <unordered_map>

#include "graph/ir.h"

namespace oinfer::ir {

namespace {
// Names a node reads: its inputs plus those its subgraphs take from outside
// (pointers into the node: no string is copied).
void collectReads(const Node& node, std::vector<const std::string*>& out) {
  for (const auto& in : node.inputs)
    if (!in.empty()) out.push_back(&in);
  for (const auto& a : node.attributes) {
    if (a.g)
      for (const auto& n : a.g->outerScopeInputs) out.push_back(&n);
    for (const auto& g : a.graphs)
      if (g)
        for (const auto& n : g->outerScopeInputs) out.push_back(&n);
  }
}
}  // namespace

void Graph::topologicalSort() {
  // Allocation-light (it runs after every pass that changed the graph): the
  // producer map is sized once and keyed by views of the nodes' own names,
  // and the edges sit in one flat array (compressed rows by producer).
  const size_t n = nodes.size();
  size_t outputs = 0;
  for (const Node& node : nodes) outputs += node.outputs.size();
  std::unordered_map<std::string_view, size_t> producer;
  producer.reserve(outputs);
  for (size_t i = 0; i < n; ++i)
    for (const auto& out : nodes[i].outputs)
      if (!out.empty()) producer.emplace(std::string_view(out), i);

  std::vector<size_t> indegree(n, 0);
  std::vector<std::pair<size_t, size_t>> edges;  // (producer, consumer), each pair once
  edges.reserve(n + n / 2);
  std::vector<const std::string*> reads;
  std::vector<size_t> preds;
  for (size_t i = 0; i < n; ++i) {
    reads.clear();
    collectReads(nodes[i], reads);
    preds.clear();
    for (const std::string* r : reads) {
      auto it = producer.find(std::string_view(*r));
      if (it != producer.end()) preds.push_back(it->second);
    }
    std::sort(preds.begin(), preds.end());
    preds.erase(std::unique(preds.begin(), preds.end()), preds.end());
    for (size_t p : preds) {
      edges.emplace_back(p, i);
      ++indegree[i];
    }
  }
  std::vector<size_t> firstEdge(n + 1, 0);
  for (const auto& e : edges) ++firstEdge[e.first + 1];
  for (size_t i = 0; i < n; ++i) firstEdge[i + 1] += firstEdge[i];
  std::vector<size_t> consumers(edges.size());
  {
    std::vector<size_t> fill(firstEdge.begin(), firstEdge.end() - 1);
    for (const auto& e : edges) consumers[fill[e.first]++] = e.second;  // consumers in node order
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
    for (size_t k = firstEdge[i]; k < firstEdge[i + 1]; ++k)
      if (--indegree[consumers[k]] == 0) ready.push(consumers[k]);
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
