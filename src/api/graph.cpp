// The public Graph: a value type over an ir::Graph.
#include "oinfer/graph.h"

#include "api/custom_ops.h"
#include "oinfer/session.h"
#include "graph/graph_access.h"
#include "graph/names.h"
#include "ops/graph_shapes.h"
#include "parser/loader.h"

namespace oinfer {

using detail::GraphAccess;

Graph::Graph() : ir_(std::make_unique<ir::Graph>()) {}
Graph::~Graph() = default;
Graph::Graph(const Graph& other) : ir_(std::make_unique<ir::Graph>(GraphAccess::ir(other))) {}
Graph& Graph::operator=(const Graph& other) {
  if (this != &other) ir_ = std::make_unique<ir::Graph>(GraphAccess::ir(other));
  return *this;
}
Graph::Graph(Graph&& other) noexcept = default;
Graph& Graph::operator=(Graph&& other) noexcept = default;

Graph Graph::loadFromONNX(const std::string& path, const LoadOptions& options) {
  return GraphAccess::wrap(parser::loadModelFile(path, options));
}

Graph Graph::loadFromBuffer(const void* data, size_t size, const std::string& baseDir, const LoadOptions& options) {
  return GraphAccess::wrap(parser::loadModelBuffer(data, size, baseDir, {}, options));
}

void Graph::topologicalSort() { GraphAccess::ir(*this).topologicalSort(); }
void Graph::inferShapes() { oinfer::inferShapes(GraphAccess::ir(*this), *globalRegistry()); }
bool Graph::sorted() const { return GraphAccess::ir(*this).sorted(); }
bool Graph::shapesInferred() const { return GraphAccess::ir(*this).shapesInferred(); }

int64_t Graph::irVersion() const { return GraphAccess::ir(*this).irVersion; }
const std::string& Graph::producerName() const { return GraphAccess::ir(*this).producerName; }
const std::string& Graph::producerVersion() const { return GraphAccess::ir(*this).producerVersion; }
const std::string& Graph::domain() const { return GraphAccess::ir(*this).domain; }
const std::string& Graph::name() const { return GraphAccess::ir(*this).name; }
const std::string& Graph::docString() const { return GraphAccess::ir(*this).docString; }
const std::map<std::string, int64_t>& Graph::opsetImports() const { return GraphAccess::ir(*this).opsetImports; }
int64_t Graph::opset(const std::string& d) const { return GraphAccess::ir(*this).opset(d); }

const std::vector<ValueInfo>& Graph::inputs() const { return GraphAccess::ir(*this).inputs; }
const std::vector<ValueInfo>& Graph::outputs() const { return GraphAccess::ir(*this).outputs; }
size_t Graph::numNodes() const { return GraphAccess::ir(*this).nodes.size(); }

NodeInfo Graph::node(size_t index) const {
  const auto& nodes = GraphAccess::ir(*this).nodes;
  if (index >= nodes.size())
    throw Error(ErrorCode::kInvalidArgument, "Graph::node: index " + std::to_string(index) + " out of range (" +
                                                 std::to_string(nodes.size()) + " nodes)");
  const Node& n = nodes[index];
  NodeInfo info{n.name, n.opType, n.domain, n.inputs, n.outputs, {}, false};
  for (const auto& a : n.attributes) {
    info.attributeNames.push_back(a.name);
    info.hasSubgraphs |= a.g != nullptr || !a.graphs.empty();
  }
  return info;
}

std::vector<NodeInfo> Graph::nodes() const {
  std::vector<NodeInfo> out;
  out.reserve(numNodes());
  for (size_t i = 0; i < numNodes(); ++i) out.push_back(node(i));
  return out;
}

std::vector<std::string> Graph::initializerNames() const {
  std::vector<std::string> out;
  for (const auto& [name, t] : GraphAccess::ir(*this).initializers) out.push_back(name);
  return out;
}

const Tensor* Graph::initializer(const std::string& name) const {
  const auto& inits = GraphAccess::ir(*this).initializers;
  auto it = inits.find(name);
  return it == inits.end() ? nullptr : &it->second;
}

const ValueInfo* Graph::findValue(const std::string& name) const { return GraphAccess::ir(*this).findValue(name); }
std::string Graph::closestValueName(const std::string& name) const {
  const ir::Graph& g = GraphAccess::ir(*this);
  std::vector<std::string> values;
  for (const auto& in : g.inputs) values.push_back(in.name);
  for (const Node& n : g.nodes)
    for (const auto& o : n.outputs)
      if (!o.empty()) values.push_back(o);
  return closestName(name, values);
}
size_t Graph::weightBytes() const { return GraphAccess::ir(*this).weightBytes(); }
std::vector<std::string> Graph::unsupportedOps() const {
  return oinfer::unsupportedOps(GraphAccess::ir(*this), *globalRegistry());
}
std::vector<OpUse> Graph::opsUsed() const { return oinfer::opsUsed(GraphAccess::ir(*this), *globalRegistry()); }
std::vector<OpUse> Graph::opsUsed(const SessionOptions& options) const {
  return oinfer::opsUsed(GraphAccess::ir(*this), *sessionRegistry(options));
}

}  // namespace oinfer
