// The intermediate representation: the owned, mutable form of a model that
// the parser builds, the passes rewrite, shape inference types and the
// runtime plans. Internal (not installed): users see the public
// oinfer::Graph (include/oinfer/graph.h), a value type over one of these.
//
// Nodes, attributes and value types are plain data that every layer above
// reads and the passes edit in place. The two derived states, "sorted" and
// "shapes inferred", are kept by the graph itself: topologicalSort() sets the
// first, markShapesInferred() the second, and a pass that changes the graph
// says so through invalidateOrder() / invalidateShapes() (the pass pipeline
// does this for every pass that reports a change), so nothing toggles them by
// hand.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "oinfer/graph.h"
#include "oinfer/tensor.h"

namespace oinfer::ir {

class Graph;

// Values equal ONNX AttributeProto.AttributeType.
enum class AttrType : int32_t {
  kUndefined = 0,
  kFloat = 1,
  kInt = 2,
  kString = 3,
  kTensor = 4,
  kGraph = 5,
  kFloats = 6,
  kInts = 7,
  kStrings = 8,
  kTensors = 9,
  kGraphs = 10,
  kSparseTensor = 11,
  kSparseTensors = 12,
  kTypeProto = 13,
  kTypeProtos = 14,
};
const char* attrTypeName(AttrType t);

struct Attribute {
  std::string name;
  AttrType type = AttrType::kUndefined;
  float f = 0.f;
  int64_t i = 0;
  std::string s;
  Tensor t;
  std::shared_ptr<Graph> g;
  std::vector<float> floats;
  std::vector<int64_t> ints;
  std::vector<std::string> strings;
  std::vector<Tensor> tensors;
  std::vector<std::shared_ptr<Graph>> graphs;
  ValueInfo typeProto;  // kTypeProto (name unused)
  std::vector<ValueInfo> typeProtos;  // kTypeProtos (names unused)
};

struct Node {
  std::string name;    // unique; unnamed nodes become "OpType_i"
  std::string opType;
  std::string domain;  // "" is the default ONNX domain (also for "ai.onnx")
  std::vector<std::string> inputs;   // "" marks an absent optional input
  std::vector<std::string> outputs;  // "" marks an unused optional output
  std::vector<Attribute> attributes;
  // Per input, the ONNX schema's type parameter it is bound to, as a group
  // number (inputs of one group share one dtype: Gemm's A, B and C are all
  // "T"); -1 for an input of a fixed or unconstrained type. Set by the
  // parser from the op's schema; empty when unknown (a node a pass made, an
  // op the schemas lack). The planner refuses a node whose inputs break a
  // group, so no kernel reads one input's memory as another's type.
  std::vector<int8_t> inputTypeGroups;

  const Attribute* attr(const std::string& name) const;
  bool hasAttr(const std::string& name) const { return attr(name) != nullptr; }
  // Typed getters with defaults; a present attribute of the wrong type is an
  // Error naming the node and attribute.
  int64_t attrInt(const std::string& name, int64_t def) const;
  float attrFloat(const std::string& name, float def) const;
  std::string attrString(const std::string& name, const std::string& def) const;
  std::vector<int64_t> attrInts(const std::string& name, std::vector<int64_t> def = {}) const;
  std::vector<float> attrFloats(const std::string& name, std::vector<float> def = {}) const;
  std::vector<std::string> attrStrings(const std::string& name, std::vector<std::string> def = {}) const;
  const Tensor* attrTensor(const std::string& name) const;  // nullptr if absent
  const Graph* attrGraph(const std::string& name) const;    // nullptr if absent
  // "node 'conv1' (Conv)": the prefix every node error message starts with.
  std::string describe() const;
};

class Graph {
 public:
  // Orders `nodes` so every node follows the producers of its inputs (Kahn's
  // algorithm, ties broken by original position). A cycle is an Error that
  // lists the nodes on it.
  void topologicalSort();
  bool sorted() const { return sorted_; }
  bool shapesInferred() const { return shapesInferred_; }
  // Set by shape inference once `valueInfo` types every value.
  void markShapesInferred() { shapesInferred_ = true; }
  // A change to the nodes' order or wiring (nodes added, removed or rewired):
  // both derived states are stale.
  void invalidateOrder() { sorted_ = shapesInferred_ = false; }
  // A change that keeps the order but may change types (attributes, weights).
  void invalidateShapes() { shapesInferred_ = false; }
  // Sorts when the order is stale; a no-op on a sorted graph.
  void ensureSorted() {
    if (!sorted_) topologicalSort();
  }

  // ---- model -----------------------------------------------------------
  int64_t irVersion = 0;
  std::string producerName, producerVersion, domain, name, docString;
  std::map<std::string, int64_t> opsetImports;  // domain ("" = default) -> version
  // Opset of `domain` for this model (0 when not imported).
  int64_t opset(const std::string& domain = "") const;

  // ---- graph -----------------------------------------------------------
  std::vector<ValueInfo> inputs;               // graph inputs, initializers excluded
  std::vector<ValueInfo> outputs;              // graph outputs
  std::map<std::string, Tensor> initializers;  // weights and constants
  std::vector<Node> nodes;
  // Declared or inferred type of every value (inputs, outputs, intermediates).
  std::map<std::string, ValueInfo> valueInfo;
  // Names this graph reads from an enclosing graph (subgraphs of If/Loop/Scan).
  std::vector<std::string> outerScopeInputs;

  // Type of a value by name: graph inputs/outputs, valueInfo, or initializer.
  // nullptr when unknown.
  const ValueInfo* findValue(const std::string& name) const;
  // Bytes held by initializers.
  size_t weightBytes() const;

 private:
  bool sorted_ = false;
  bool shapesInferred_ = false;
};

}  // namespace oinfer::ir

namespace oinfer {
// The IR's node-level names, used unqualified across the library; the graph
// itself is always spelled ir::Graph, apart from the public oinfer::Graph.
using ir::Attribute;
using ir::AttrType;
using ir::attrTypeName;
using ir::Node;
}  // namespace oinfer
