// Helpers shared by the transformer passes: who produces and who reads each
// value, constant lookups (initializers and Constant nodes), and removal of
// the nodes a pass has fused away.
#pragma once

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <initializer_list>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "graph/ir.h"
#include "passes/passes.h"

namespace oinfer::passes::util {

inline constexpr const char* kInternalDomain = "ai.oinfer";

class GraphIndex {
 public:
  // Hash maps, not ordered ones: every pass builds an index, and on a graph
  // of 100k nodes the ordered maps' string compares were most of the time.
  explicit GraphIndex(const ir::Graph& g) : g_(g) {
    producer_.reserve(g.nodes.size());
    readers_.reserve(g.nodes.size());
    for (size_t i = 0; i < g.nodes.size(); ++i) {
      for (const auto& o : g.nodes[i].outputs)
        if (!o.empty()) producer_[o] = static_cast<int>(i);
      for (const auto& in : g.nodes[i].inputs)
        if (!in.empty()) {
          ++readers_[in];
          lastReader_[in] = static_cast<int>(i);
        }
      for (const auto& a : g.nodes[i].attributes) {
        // Names a subgraph reads from this scope count as extra readers.
        if (a.g)
          for (const auto& n : a.g->outerScopeInputs) readers_[n] += 2, subgraphReads_.insert(n);
        for (const auto& sg : a.graphs)
          if (sg)
            for (const auto& n : sg->outerScopeInputs) readers_[n] += 2, subgraphReads_.insert(n);
      }
    }
    for (const auto& o : g.outputs) outputs_.insert(o.name);
  }

  // Index of the node producing `name`, or -1 (graph input, initializer).
  int producer(const std::string& name) const {
    auto it = producer_.find(name);
    return it == producer_.end() ? -1 : it->second;
  }
  // The producer when it is `op` in the default domain, else -1.
  int producerOf(const std::string& name, const char* op) const {
    const int p = producer(name);
    return p >= 0 && g_.nodes[p].opType == op && g_.nodes[p].domain.empty() ? p : -1;
  }
  int readers(const std::string& name) const {
    auto it = readers_.find(name);
    return it == readers_.end() ? 0 : it->second;
  }
  bool isGraphOutput(const std::string& name) const { return outputs_.count(name) > 0; }
  // Renaming such a value would leave the subgraph reading a stale name.
  bool readBySubgraph(const std::string& name) const { return subgraphReads_.count(name) > 0; }
  // True when a fused-away intermediate can disappear: one reader, not an output.
  bool internal(const std::string& name) const { return readers(name) == 1 && !isGraphOutput(name); }
  // The index of the last node that reads `name` as an input, or -1.
  int lastReader(const std::string& name) const {
    auto it = lastReader_.find(name);
    return it == lastReader_.end() ? -1 : it->second;
  }

 private:
  const ir::Graph& g_;
  std::unordered_map<std::string, int> producer_;
  std::unordered_map<std::string, int> readers_;
  std::unordered_map<std::string, int> lastReader_;
  std::unordered_set<std::string> outputs_;
  std::unordered_set<std::string> subgraphReads_;
};

inline bool isOp(const Node& n, const char* op) { return n.opType == op && n.domain.empty(); }

// Whether any node is one of `ops` in the default domain (or, with `domain`,
// in that one). A pass first asks this of the op its pattern starts from, so
// that a graph without one costs a scan of op names, not a GraphIndex.
inline bool anyOp(const ir::Graph& g, std::initializer_list<const char*> ops, const std::string& domain = "") {
  for (const Node& n : g.nodes)
    if (n.domain == domain)
      for (const char* op : ops)
        if (n.opType == op) return true;
  return false;
}

// The single reader of `v` (one reader, not a graph output), optionally only
// when it is `op` in the default domain; else -1.
inline int onlyReader(const ir::Graph& g, const GraphIndex& idx, const std::string& v, const char* op = nullptr) {
  if (!idx.internal(v)) return -1;
  // The index knows the one reader; a node list changed since it was built
  // falls back to the scan.
  const int r = idx.lastReader(v);
  if (r >= 0 && size_t(r) < g.nodes.size() &&
      std::count(g.nodes[r].inputs.begin(), g.nodes[r].inputs.end(), v))
    return !op || isOp(g.nodes[r], op) ? r : -1;
  for (size_t j = 0; j < g.nodes.size(); ++j)
    if ((!op || isOp(g.nodes[j], op)) && std::count(g.nodes[j].inputs.begin(), g.nodes[j].inputs.end(), v))
      return int(j);
  return -1;
}

// The value of a constant (initializer or Constant node output), or nullptr.
inline const Tensor* constant(const ir::Graph& g, const GraphIndex& idx, const std::string& name) {
  auto it = g.initializers.find(name);
  if (it != g.initializers.end()) return &it->second;
  const int p = idx.producerOf(name, "Constant");
  if (p < 0) return nullptr;
  return g.nodes[p].attrTensor("value");
}

// The axes of a ReduceMean / Squeeze / Unsqueeze: the constant input 1
// (opset 13 and up; false when it is not a constant int64) or else the
// attribute.
inline bool constAxes(const ir::Graph& g, const GraphIndex& idx, const Node& n, std::vector<int64_t>& axes) {
  if (n.inputs.size() > 1 && !n.inputs[1].empty()) {
    const Tensor* t = constant(g, idx, n.inputs[1]);
    if (!t || t->dtype() != DataType::kInt64) return false;
    axes.assign(t->data<int64_t>(), t->data<int64_t>() + t->numel());
    return true;
  }
  axes = n.attrInts("axes");
  return true;
}

// A float32 constant with exactly one element.
inline bool scalarConst(const ir::Graph& g, const GraphIndex& idx, const std::string& name, float& v) {
  const Tensor* t = constant(g, idx, name);
  if (!t || t->dtype() != DataType::kFloat || t->numel() != 1) return false;
  v = t->data<float>()[0];
  return true;
}

inline bool near(float a, float b, float rel = 1e-4f) { return std::fabs(a - b) <= rel * std::fabs(b); }

// The inferred shape of a value (dims may be symbolic), initializers
// included; nullopt when unknown.
inline std::optional<Shape> shapeOf(const ir::Graph& g, const std::string& name) {
  if (auto it = g.initializers.find(name); it != g.initializers.end()) return toShape(it->second.shape());
  const ValueInfo* vi = g.findValue(name);
  if (!vi || !vi->hasShape) return std::nullopt;
  return vi->shape;
}
inline DataType dtypeOf(const ir::Graph& g, const std::string& name) {
  if (auto it = g.initializers.find(name); it != g.initializers.end()) return it->second.dtype();
  const ValueInfo* vi = g.findValue(name);
  return vi ? vi->dtype : DataType::kUndefined;
}
// Whether two values provably have the same shape: equal ranks and every dim
// equal, a symbolic dim only to the same symbol.
inline bool sameShape(const ir::Graph& g, const std::string& a, const std::string& b) {
  const auto sa = shapeOf(g, a);
  const auto sb = shapeOf(g, b);
  return sa && sb && *sa == *sb;
}
// Rank of a value, or -1 when unknown.
inline int64_t rankOf(const ir::Graph& g, const std::string& name) {
  const auto s = shapeOf(g, name);
  return s ? static_cast<int64_t>(s->size()) : -1;
}

// The other input of a binary node, given one of them (index 0 or 1).
inline const std::string& other(const Node& n, const std::string& one) {
  return n.inputs[0] == one ? n.inputs[1] : n.inputs[0];
}

// Adds the names node n reads to `read`: its inputs and what its subgraphs
// read from the outer scope.
inline void addReads(const Node& n, std::set<std::string>& read) {
  read.insert(n.inputs.begin(), n.inputs.end());
  for (const auto& a : n.attributes) {
    if (a.g) read.insert(a.g->outerScopeInputs.begin(), a.g->outerScopeInputs.end());
    for (const auto& sg : a.graphs)
      if (sg) read.insert(sg->outerScopeInputs.begin(), sg->outerScopeInputs.end());
  }
}

// Drops the marked nodes and any initializer nothing reads any more (the
// pipeline re-infers types after a pass that changed the graph).
inline void removeNodes(ir::Graph& g, const std::vector<bool>& drop) {
  std::vector<Node> kept;
  kept.reserve(g.nodes.size());
  for (size_t i = 0; i < g.nodes.size(); ++i)
    if (!drop[i]) kept.push_back(std::move(g.nodes[i]));
  g.nodes = std::move(kept);
  std::set<std::string> used;
  for (const Node& n : g.nodes) addReads(n, used);
  for (const auto& o : g.outputs) used.insert(o.name);
  for (auto it = g.initializers.begin(); it != g.initializers.end();)
    it = used.count(it->first) ? std::next(it) : g.initializers.erase(it);
}

// Drops every node none of whose outputs is read (by a node, a subgraph or
// as a graph output), in one backward sweep over the sorted nodes, so whole
// dead chains go (the Shape -> Gather -> Concat that built a reshape target
// a fusion removed). Returns the number of nodes dropped.
inline int removeDeadNodes(ir::Graph& g) {
  g.ensureSorted();
  std::set<std::string> read;
  for (const auto& o : g.outputs) read.insert(o.name);
  std::vector<bool> drop(g.nodes.size(), false);
  int dropped = 0;
  for (size_t i = g.nodes.size(); i-- > 0;) {
    const Node& n = g.nodes[i];
    bool live = false;
    for (const auto& o : n.outputs) live |= !o.empty() && read.count(o) > 0;
    if (!live) {
      drop[i] = true;
      ++dropped;
      continue;
    }
    addReads(n, read);
  }
  if (dropped) removeNodes(g, drop);
  return dropped;
}

inline Attribute intAttr(const std::string& name, int64_t v) {
  Attribute a;
  a.name = name;
  a.type = AttrType::kInt;
  a.i = v;
  return a;
}
inline Attribute intsAttr(const std::string& name, std::vector<int64_t> v) {
  Attribute a;
  a.name = name;
  a.type = AttrType::kInts;
  a.ints = std::move(v);
  return a;
}
inline Attribute floatAttr(const std::string& name, float v) {
  Attribute a;
  a.name = name;
  a.type = AttrType::kFloat;
  a.f = v;
  return a;
}
inline Attribute stringAttr(const std::string& name, const std::string& v) {
  Attribute a;
  a.name = name;
  a.type = AttrType::kString;
  a.s = v;
  return a;
}

inline Node internalNode(const std::string& op, const std::string& name) {
  Node n;
  n.opType = op;
  n.domain = kInternalDomain;
  n.name = name;
  return n;
}

inline void useInternalDomain(ir::Graph& g) {
  if (!g.opsetImports.count(kInternalDomain)) g.opsetImports[kInternalDomain] = 1;
}

// The shared shape of the Conv pair fusions (fuse_conv_depthwise.cpp,
// fuse_conv_maxpool.cpp): for every node `head(node)` accepts whose one
// output V is float32 and 4-d with static spatial dims, and is read by one
// node only (of op `readerOp` in the default domain, when given), as its
// first input and nowhere else, `pair(head, reader, V's shape)` may return
// the fused node, which takes the reader's slot (after every producer of
// its inputs); the head's is dropped. Returns the number of fused pairs.
template <class Head, class Pair>
int fusePairs(ir::Graph& g, const PassContext& ctx, Head head, Pair pair, const char* readerOp = nullptr) {
  bool anyHead = false;
  for (const Node& n : g.nodes) anyHead = anyHead || head(n);
  if (!anyHead || !ctx.ensureShapes(g)) return 0;
  const GraphIndex idx(g);
  std::vector<bool> drop(g.nodes.size(), false);
  int fused = 0;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    if (drop[i] || g.nodes[i].outputs.size() != 1 || !head(g.nodes[i])) continue;
    const std::string& v = g.nodes[i].outputs[0];
    const ValueInfo* vi = g.findValue(v);
    if (!vi || vi->dtype != DataType::kFloat || !vi->hasShape || vi->shape.size() != 4) continue;
    if (!vi->shape[2].isStatic() || !vi->shape[3].isStatic()) continue;
    const int r = onlyReader(g, idx, v, readerOp);
    if (r < 0 || drop[r] || g.nodes[r].inputs.empty() || g.nodes[r].inputs[0] != v) continue;
    if (std::count(g.nodes[r].inputs.begin(), g.nodes[r].inputs.end(), v) != 1) continue;
    std::optional<Node> f = pair(g.nodes[i], g.nodes[r], vi->shape);
    if (!f) continue;
    g.nodes[r] = std::move(*f);
    drop[i] = true;
    ++fused;
  }
  if (!fused) return 0;
  removeNodes(g, drop);
  useInternalDomain(g);
  return fused;
}

}  // namespace oinfer::passes::util
