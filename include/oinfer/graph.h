// Graph: a loaded ONNX model, for inspection and for handing to a Session.
//
// A value type: copies are independent (the weights' bytes are shared, they
// are never written), moves are cheap. The mutable representation the engine
// works on is internal; this class only exposes what a user reads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "oinfer/tensor.h"

namespace oinfer {

namespace ir {
class Graph;
}
namespace detail {
struct GraphAccess;
}
struct SessionOptions;

// Type of a value flowing through a graph. Tensors are the common case;
// sequences, maps and optionals exist for the ops that produce or consume them.
enum class ValueKind : int32_t { kTensor = 0, kSequence = 1, kOptional = 2, kMap = 3 };

struct ValueInfo {
  std::string name;
  ValueKind kind = ValueKind::kTensor;
  DataType dtype = DataType::kUndefined;  // element type (of the tensors inside, for sequences)
  bool hasShape = false;                  // false: rank unknown
  Shape shape;
};

// One node, as inspection shows it.
struct NodeInfo {
  std::string name;
  std::string opType;
  std::string domain;  // "" is the default ONNX domain
  std::vector<std::string> inputs;   // "" marks an absent optional input
  std::vector<std::string> outputs;  // "" marks an unused optional output
  std::vector<std::string> attributeNames;
  bool hasSubgraphs = false;  // If / Loop / Scan bodies
};

// One op a graph uses: a (domain, op type) pair, with the opset the model
// imports for that domain.
struct OpUse {
  std::string domain;  // "" is the default ONNX domain
  std::string opType;
  int64_t opset = 0;
  size_t nodes = 0;        // nodes of that op, If / Loop / Scan bodies included
  bool supported = false;  // this build has the op for that opset
};

// How a model's external data (weights in files beside the .onnx) is read.
struct LoadOptions {
  // Memory-map each external-data file once, read-only to other processes
  // (a private copy-on-write mapping), and let every tensor stored at a
  // 64-byte-aligned offset view the mapping instead of being copied into the
  // heap: the pages are shared with the page cache and faulted in lazily, so
  // weights the kernels repack are never resident twice. Tensors at other
  // offsets, packed 4/2-bit and bool tensors are read as before. Off: every
  // tensor is read into the heap (a file truncated while mapped would fault
  // on access, as with any mapping).
  bool mapExternalData = true;
  // Follow symbolic links in an external-data location that point outside
  // the model's folder (the Hugging Face cache links
  // snapshots/<rev>/<file> to ../../blobs/<sha>). The location itself must
  // still name a path inside the folder. Off by default: such a link is
  // refused with a message naming this option.
  bool allowExternalDataSymlinks = false;
};

class Graph {
 public:
  Graph();  // an empty graph
  ~Graph();
  Graph(const Graph& other);
  Graph& operator=(const Graph& other);
  Graph(Graph&& other) noexcept;
  Graph& operator=(Graph&& other) noexcept;

  // Parse a .onnx file. External data is resolved relative to the file's folder.
  static Graph loadFromONNX(const std::string& path, const LoadOptions& options = {});
  // Parse a serialized ModelProto. External data is refused unless baseDir is set.
  static Graph loadFromBuffer(const void* data, size_t size, const std::string& baseDir = {},
                              const LoadOptions& options = {});

  // Orders the nodes so every node follows the producers of its inputs
  // (Kahn's algorithm, ties broken by file order). A cycle is an Error that
  // lists the nodes on it.
  void topologicalSort();
  // Types every value, propagating symbolic dims and the values of small
  // integer shape tensors; sorts first if needed. Errors name the node, the
  // input and both shapes; an op the engine lacks is a kUnsupportedOp Error
  // listing every missing op.
  void inferShapes();
  bool sorted() const;
  bool shapesInferred() const;

  // ---- model -----------------------------------------------------------
  int64_t irVersion() const;
  const std::string& producerName() const;
  const std::string& producerVersion() const;
  const std::string& domain() const;
  const std::string& name() const;
  const std::string& docString() const;
  const std::map<std::string, int64_t>& opsetImports() const;  // domain ("" = default) -> version
  // Opset of `domain` for this model (0 when not imported).
  int64_t opset(const std::string& domain = "") const;

  // ---- graph -----------------------------------------------------------
  const std::vector<ValueInfo>& inputs() const;   // graph inputs, initializers excluded
  const std::vector<ValueInfo>& outputs() const;  // graph outputs
  size_t numNodes() const;
  NodeInfo node(size_t index) const;  // index < numNodes(), in the current order
  std::vector<NodeInfo> nodes() const;
  std::vector<std::string> initializerNames() const;
  // An initializer's value, or nullptr. Inside a Session a weight whose every
  // reader keeps a packed copy keeps its name, dtype and shape but no data.
  const Tensor* initializer(const std::string& name) const;
  // Declared or inferred type of a value (input, output, intermediate or
  // initializer), or nullptr when unknown.
  const ValueInfo* findValue(const std::string& name) const;
  // Of the values a run computes or is fed (graph inputs and node outputs,
  // not weights), the name closest to `name` by edit distance, within a
  // third of its length (two edits at least); "" when none is that close.
  // For "did you mean" hints (Session's own errors use the same rule).
  std::string closestValueName(const std::string& name) const;
  // Bytes held by initializers.
  size_t weightBytes() const;
  // The ops the engine lacks (for the model's opsets), one per line with an
  // example node; empty when everything is supported.
  std::vector<std::string> unsupportedOps() const;
  // Every op the graph uses (subgraphs included), sorted by domain, then op
  // type: what a runtime needs to run the model. `supported` counts the
  // built-in and the global custom ops (oinfer/custom_op.h); with options,
  // also the custom ops and libraries a Session with them would have (the
  // libraries are loaded).
  std::vector<OpUse> opsUsed() const;
  std::vector<OpUse> opsUsed(const SessionOptions& options) const;

 private:
  friend struct detail::GraphAccess;
  std::unique_ptr<ir::Graph> ir_;
};

}  // namespace oinfer
