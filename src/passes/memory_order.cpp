// Memory-aware execution order (issue 22): among the nodes ready to run,
// prefer the one that frees the most activation bytes net of what it
// allocates, so a graph whose file lists its branches breadth-first (every
// branch's large intermediate produced before any is consumed) runs them one
// after another instead, with one branch's buffers live at a time.
//
// Sizes come from the inferred types: a static dim counts as itself, a
// symbolic one as 1 (a guess that scales every buffer with that dim alike).
// The new order is kept only when its peak of live activation bytes, swept
// over the same sizes, is strictly below the current order's, so the pass
// never makes a graph's lower bound worse by its own measure, and a graph
// whose order is already as good (a chain, most exported networks) is left
// exactly as it is.
#include <algorithm>
#include <queue>
#include <string_view>
#include <unordered_map>

#include "passes/passes.h"

namespace oinfer::passes {
namespace {

// Activation bytes of a value: 0 for an unknown type (it cannot be weighed;
// it still orders by the ties).
size_t valueBytes(const ir::Graph& g, const std::string& name) {
  const ValueInfo* vi = g.findValue(name);
  if (!vi || !vi->hasShape || vi->dtype == DataType::kUndefined || vi->dtype == DataType::kString) return 0;
  size_t n = 1;
  for (const Dim& d : vi->shape) {
    const size_t v = d.isStatic() ? static_cast<size_t>(d.value) : 1;
    if (v != 0 && n > (size_t{1} << 50) / v) return size_t{1} << 50;  // saturate, never wrap
    n *= v;
  }
  return n * dataTypeSize(vi->dtype);
}

// Names a node reads: inputs and its subgraphs' outer-scope names.
void reads(const Node& node, std::vector<std::string_view>& out) {
  out.clear();
  for (const auto& in : node.inputs)
    if (!in.empty()) out.push_back(in);
  for (const auto& a : node.attributes) {
    if (a.g)
      for (const auto& n : a.g->outerScopeInputs) out.push_back(n);
    for (const auto& sg : a.graphs)
      if (sg)
        for (const auto& n : sg->outerScopeInputs) out.push_back(n);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
}

struct Dataflow {
  std::vector<std::vector<int>> in;    // per node: the produced values it reads (ids)
  std::vector<std::vector<int>> out;   // per node: the values it produces (ids)
  std::vector<size_t> bytes;           // per value
  std::vector<int> producer;           // per value
  std::vector<int> readers;            // per value: distinct reading nodes
  std::vector<std::vector<int>> readBy;  // per value: those nodes
  std::vector<char> pinned;            // per value: a graph output (never freed)
};

Dataflow dataflow(const ir::Graph& g) {
  Dataflow d;
  const size_t n = g.nodes.size();
  std::unordered_map<std::string_view, int> id;
  for (size_t i = 0; i < n; ++i)
    for (const auto& o : g.nodes[i].outputs)
      if (!o.empty() && id.emplace(o, static_cast<int>(d.bytes.size())).second) {
        d.bytes.push_back(valueBytes(g, o));
        d.producer.push_back(static_cast<int>(i));
      }
  d.readers.assign(d.bytes.size(), 0);
  d.readBy.resize(d.bytes.size());
  d.pinned.assign(d.bytes.size(), 0);
  for (const auto& o : g.outputs) {
    auto it = id.find(o.name);
    if (it != id.end()) d.pinned[it->second] = 1;
  }
  d.in.resize(n);
  d.out.resize(n);
  std::vector<std::string_view> r;
  for (size_t i = 0; i < n; ++i) {
    reads(g.nodes[i], r);
    for (std::string_view name : r) {
      auto it = id.find(name);
      if (it == id.end()) continue;  // graph input, initializer, outer scope
      d.in[i].push_back(it->second);
      ++d.readers[it->second];
      d.readBy[it->second].push_back(static_cast<int>(i));
    }
    for (const auto& o : g.nodes[i].outputs)
      if (!o.empty()) d.out[i].push_back(id.at(o));
  }
  return d;
}

// Peak live bytes when the nodes run in `order`: a value is live from its
// producer to its last reader (to the end when pinned or never read it
// dies right after its producer).
size_t peakBytes(const Dataflow& d, const std::vector<int>& order) {
  std::vector<int> left = d.readers;
  size_t live = 0, peak = 0;
  for (int i : order) {
    for (int v : d.out[i]) live += d.bytes[v];
    peak = std::max(peak, live);
    for (int v : d.in[i])
      if (--left[v] == 0 && !d.pinned[v]) live -= d.bytes[v];
    for (int v : d.out[i])
      if (d.readers[v] == 0 && !d.pinned[v]) live -= d.bytes[v];
  }
  return peak;
}

}  // namespace

int orderForMemory(ir::Graph& g, const PassContext& ctx) {
  const size_t n = g.nodes.size();
  if (n < 3 || !ctx.ensureShapes(g)) return 0;
  const Dataflow d = dataflow(g);

  std::vector<int> indegree(n, 0);
  std::vector<std::vector<int>> consumers(n);
  for (size_t i = 0; i < n; ++i)
    for (int v : d.in[i]) {
      consumers[d.producer[v]].push_back(static_cast<int>(i));
      ++indegree[i];
    }
  std::vector<int> left = d.readers;
  // Net bytes a node frees if it runs now (inputs it is the last reader of,
  // minus its outputs; an unread output is freed at once).
  auto score = [&](int i) {
    long long s = 0;
    for (int v : d.in[i])
      if (left[v] == 1 && !d.pinned[v]) s += static_cast<long long>(d.bytes[v]);
    for (int v : d.out[i])
      if (d.readers[v] > 0 || d.pinned[v]) s -= static_cast<long long>(d.bytes[v]);
    return s;
  };
  // Highest score first, then the earliest in the current order. Scores go
  // stale when another node reads a shared input; a popped entry whose score
  // changed is pushed again with the new one.
  using Entry = std::pair<long long, int>;  // (score, -index)
  std::priority_queue<Entry> ready;
  for (size_t i = 0; i < n; ++i)
    if (indegree[i] == 0) ready.push({score(static_cast<int>(i)), -static_cast<int>(i)});
  std::vector<int> order;
  order.reserve(n);
  std::vector<char> done(n, 0);
  while (!ready.empty()) {
    auto [s, negIndex] = ready.top();
    ready.pop();
    const int i = -negIndex;
    if (done[i]) continue;
    const long long now = score(i);
    if (now != s) {
      ready.push({now, negIndex});
      continue;
    }
    done[i] = 1;
    order.push_back(i);
    for (int v : d.in[i])
      if (--left[v] == 1 && !d.pinned[v])  // its last reader, if ready, now frees it
        for (int r : d.readBy[v])
          if (!done[r] && indegree[r] == 0) ready.push({score(r), -r});
    for (int c : consumers[i])
      if (--indegree[c] == 0) ready.push({score(c), -c});
  }
  if (order.size() != n) return 0;  // not a DAG over these edges: leave it to the sort's error

  std::vector<int> current(n);
  for (size_t i = 0; i < n; ++i) current[i] = static_cast<int>(i);
  if (peakBytes(d, order) >= peakBytes(d, current)) return 0;
  int moved = 0;
  for (size_t k = 0; k < n; ++k) moved += order[k] != static_cast<int>(k);
  std::vector<Node> nodes;
  nodes.reserve(n);
  for (int i : order) nodes.push_back(std::move(g.nodes[i]));
  g.nodes = std::move(nodes);
  return moved;
}

}  // namespace oinfer::passes
