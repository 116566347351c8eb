// Internal to src/parser: the ONNX protobuf -> oinfer conversion helpers.
// This is the only header in the tree that pulls in the ONNX protobuf types.
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_set>

#include "graph/ir.h"
#include "parser/loader.h"

namespace oinfer::parser {

// State shared by every step of one load: where the bytes came from (for
// messages), where external data may be read from, and counters that must be
// unique across the whole model (fresh dim symbols).
struct LoadContext {
  std::string source;   // file path, or a short label for buffers
  std::string baseDir;  // folder external data is resolved against; empty: refused
  int64_t nextSymbol = 0;
  int64_t irVersion = 0;
  bool ownMapping = false;  // the bytes are our private read-only file mapping (parseMessage may drop its pages)
  std::map<std::string, int64_t> opsets;  // the model's opset imports (domain "" = ai.onnx), for schema lookups
  int maxGraphNesting = kMaxGraphNesting;  // loader.h
  int64_t maxNodes = kMaxModelNodes;
  int64_t nodes = 0;  // nodes of the graphs built so far
  LoadOptions options;  // external data: mapping, symlinks (oinfer/graph.h)
  // External-data files mapped so far, by (device, inode): one mapping per
  // file, shared by the tensors that view it (a holder that unmaps).
  std::map<std::pair<uint64_t, uint64_t>, std::shared_ptr<void>> externalMappings;

  std::string freshSymbol() { return "unk__input_" + std::to_string(nextSymbol++); }
};

// Throws Error(code, "<source>: <msg>").
[[noreturn]] void fail(const LoadContext& ctx, const std::string& msg,
                       ErrorCode code = ErrorCode::kInvalidModel);

// Parses `size` bytes into `msg` with a recursion limit and a total-bytes limit
// so hostile input fails cleanly; false when the bytes are not a valid message.
// With dropPages (only for a private read-only file mapping) the pages the
// parser is done with are handed back as it goes (MADV_DONTNEED), so the
// file's bytes and the parsed copy of them are never both resident.
bool parseMessage(google::protobuf::Message& msg, const void* data, size_t size, bool dropPages = false);

// How deep subgraphs nest in a serialized ModelProto (0: none), read from the
// wire format without recursion (an explicit stack), so it also measures
// models nested too deep for the protobuf parser; -1 when the bytes do not
// follow the wire format along the path it reads (Model.graph, Model.functions,
// Graph.node, Function.node, Node.attribute, Attribute.g / graphs).
int subgraphNesting(const void* data, size_t size);

// A read-only view of a whole file (memory-mapped; empty files are allowed).
class MappedFile {
 public:
  explicit MappedFile(const std::string& path);  // throws kIO
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  const void* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  void* data_ = nullptr;
  size_t size_ = 0;
};

// TensorProto -> Tensor. `tp` is taken by mutable reference so a large
// raw_data buffer can be adopted by the Tensor instead of copied. `what`
// names the tensor in messages ("initializer 'W'").
Tensor convertTensor(onnx::TensorProto& tp, LoadContext& ctx, const std::string& what);
// SparseTensorProto -> dense Tensor (zeros / empty strings where unset).
Tensor convertSparseTensor(onnx::SparseTensorProto& sp, LoadContext& ctx, const std::string& what);
// Reads a tensor's bytes from its external file into `dst` (byteCount bytes;
// packed 4/2-bit data is read into `dst` packed, the caller unpacks). With
// dst == nullptr, only validates (location, file, offset and length).
void readExternalData(const onnx::TensorProto& tp, LoadContext& ctx, const std::string& what,
                      void* dst, uint64_t byteCount);
// The tensor as a view of its external file's mapping (ctx.options.
// mapExternalData, an offset aligned to 64 bytes, byteCount > 0); an empty
// Tensor (no data) when it cannot be mapped and must be read instead.
Tensor mapExternalData(const onnx::TensorProto& tp, LoadContext& ctx, const std::string& what, DataType dtype,
                       std::vector<int64_t> dims, uint64_t byteCount);

// TypeProto / ValueInfoProto -> ValueInfo. Dims without value or param get
// fresh "unk__input_N" symbols.
void convertType(const onnx::TypeProto& tp, ValueInfo& out, LoadContext& ctx, const std::string& what);
ValueInfo convertValueInfo(const onnx::ValueInfoProto& vp, LoadContext& ctx, const std::string& what);

// Expands every call of a model-local function (in the main graph and in all
// subgraphs) into the function's body; merges the functions' opset imports
// into `opsets`.
void inlineFunctions(onnx::ModelProto& model, std::map<std::string, int64_t>& opsets, LoadContext& ctx);

// The names a graph declares (inputs, initializers, node outputs), chained to
// the enclosing graph's scope for subgraphs.
struct Scope {
  Scope* parent = nullptr;
  int depth = 0;  // subgraph nesting: 0 for the main graph
  ir::Graph* graph = nullptr;  // receives outerScopeInputs
  std::unordered_set<std::string> names;
  std::unordered_set<std::string> outerSeen;

  // Whether `name` is visible here; a name found in an enclosing scope is
  // recorded in outerScopeInputs of this graph and of every graph in between.
  bool resolve(const std::string& name);
};

// GraphProto -> Graph (main graph: parentScope == nullptr). `where` prefixes
// messages ("" for the main graph, "node 'if' (If) attribute 'then_branch': ").
void buildGraph(onnx::GraphProto& gp, ir::Graph& g, LoadContext& ctx, Scope* parentScope,
                const std::string& where);

// AttributeProto -> Attribute; subgraphs are built inside `scope`. `where`
// prefixes messages and already names the node.
Attribute convertAttribute(onnx::AttributeProto& ap, LoadContext& ctx, Scope& scope, const std::string& where);

// Rewrites a Constant node's value_* / sparse_value attribute into the single
// TENSOR attribute "value".
void normalizeConstant(Node& node, LoadContext& ctx, const std::string& where);

// Reads a field that this (older) build of onnx.proto lacks from the unknown
// fields: the last length-delimited value of `field`, or "".
std::string unknownStringField(const google::protobuf::Message& msg, int field);

// "" and "ai.onnx" both name the default domain.
inline std::string normalizeDomain(const std::string& d) { return d == "ai.onnx" ? std::string() : d; }

}  // namespace oinfer::parser
