// Graph: the owned in-memory form of an ONNX model, and the steps that
// prepare it (load, topological sort, shape inference).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "oinfer/tensor.h"

namespace oinfer {

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

// Type of a value flowing through a graph. Tensors are the common case;
// sequences and optionals exist for the ops that produce or consume them.
enum class ValueKind : int32_t { kTensor = 0, kSequence = 1, kOptional = 2, kMap = 3 };

struct ValueInfo {
  std::string name;
  ValueKind kind = ValueKind::kTensor;
  DataType dtype = DataType::kUndefined;  // element type (of the tensors inside, for sequences)
  bool hasShape = false;                  // false: rank unknown
  Shape shape;
};

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
  // Parse a .onnx file. External data is resolved relative to the file's folder.
  static Graph loadFromONNX(const std::string& path);
  // Parse a serialized ModelProto. External data is refused unless baseDir is set.
  static Graph loadFromBuffer(const void* data, size_t size, const std::string& baseDir = {});

  // Orders `nodes` so every node follows the producers of its inputs (Kahn's
  // algorithm, ties broken by original position). A cycle is an Error that
  // lists the nodes on it.
  void topologicalSort();

  // Types every tensor (`valueInfo`), propagating symbolic dims and the values
  // of small integer shape tensors. Sorts first if needed. Errors name the
  // node, the input and both shapes.
  void inferShapes();

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
  bool sorted = false;
  bool shapesInferred = false;

  // Type of a value by name: graph inputs/outputs, valueInfo, or initializer.
  // nullptr when unknown.
  const ValueInfo* findValue(const std::string& name) const;
  // Bytes held by initializers.
  size_t weightBytes() const;
  // The ops the registry lacks (for the model's opsets), one per line, empty
  // when everything is supported.
  std::vector<std::string> unsupportedOps() const;
};

}  // namespace oinfer
