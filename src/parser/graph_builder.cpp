// GraphProto -> Graph: initializers, inputs/outputs/value_info, nodes and
// attributes, plus the structural checks that need the whole graph (unique
// producers, every input produced somewhere, outputs produced).
//
// Subgraphs (If/Loop/Scan bodies) are built recursively inside a Scope chain:
// a name a subgraph reads but does not declare is looked up in the enclosing
// graphs and recorded in the subgraph's outerScopeInputs (and in those of the
// graphs in between, which read it implicitly through their nodes).
#include <algorithm>
#include <unordered_map>

#include <onnx/defs/schema.h>

#include "parser/onnx_parser.h"

namespace oinfer::parser {

bool Scope::resolve(const std::string& n) {
  if (names.count(n)) return true;
  if (!parent || !parent->resolve(n)) return false;
  if (outerSeen.insert(n).second) graph->outerScopeInputs.push_back(n);
  return true;
}

namespace {

std::string quoted(const std::string& s) { return "'" + s + "'"; }

// Explicit names are kept (the first holder of a duplicated name keeps it);
// unnamed nodes become "<OpType>_<index>", suffixed until unique.
std::vector<std::string> assignNodeNames(const onnx::GraphProto& gp) {
  std::unordered_set<std::string> reserved, used;
  for (const auto& np : gp.node())
    if (!np.name().empty()) reserved.insert(np.name());
  std::vector<std::string> names;
  names.reserve(static_cast<size_t>(gp.node_size()));
  for (int i = 0; i < gp.node_size(); ++i) {
    const auto& np = gp.node(i);
    std::string name = np.name();
    if (name.empty() || used.count(name)) {
      const std::string base = name.empty() ? np.op_type() + "_" + std::to_string(i) : name;
      name = base;
      for (int k = 1; used.count(name) || (name != np.name() && reserved.count(name)); ++k)
        name = base + "_" + std::to_string(k);
    }
    used.insert(name);
    names.push_back(std::move(name));
  }
  return names;
}

std::string nodeDesc(const std::string& name, const std::string& opType) {
  return "node '" + name + "' (" + opType + ")";
}

}  // namespace

// Node::inputTypeGroups from the op's ONNX schema (the newest version not
// above the model's opset for its domain that the ONNX library knows): each
// input bound to a type parameter ("T") gets that parameter's group number.
// Only grouping is taken from the schema, not the allowed types: the
// library's schemas can be older than the model's opset, and later versions
// widened types but kept which inputs share one.
void annotateTypeGroups(Node& n, const LoadContext& ctx) {
  const auto opset = ctx.opsets.find(n.domain);
  if (opset == ctx.opsets.end() || n.inputs.empty()) return;
  const onnx::OpSchema* schema =
      onnx::OpSchemaRegistry::Schema(n.opType, static_cast<int>(std::min<int64_t>(opset->second, 1 << 20)), n.domain);
  if (!schema || schema->inputs().empty()) return;
  const auto& formals = schema->inputs();
  std::vector<std::string> params;  // group number -> type parameter name
  std::vector<int8_t> groups(n.inputs.size(), -1);
  bool grouped = false;
  for (size_t i = 0; i < n.inputs.size(); ++i) {
    const onnx::OpSchema::FormalParameter* f = i < formals.size() ? &formals[i] : nullptr;
    if (!f && formals.back().GetOption() == onnx::OpSchema::Variadic) f = &formals.back();
    if (!f) break;
    if (f->GetOption() == onnx::OpSchema::Variadic && !f->GetIsHomogeneous()) continue;
    const std::string& t = f->GetTypeStr();
    bool isParam = false;
    for (const auto& c : schema->typeConstraintParams()) isParam = isParam || c.type_param_str == t;
    if (!isParam) continue;
    auto it = std::find(params.begin(), params.end(), t);
    if (it == params.end()) {
      if (params.size() >= 127) break;
      it = params.insert(params.end(), t);
    }
    groups[i] = static_cast<int8_t>(it - params.begin());
    grouped = true;
  }
  if (grouped) n.inputTypeGroups = std::move(groups);
}

void buildGraph(onnx::GraphProto& gp, ir::Graph& g, LoadContext& ctx, Scope* parent, const std::string& where) {
  Scope scope;
  scope.parent = parent;
  scope.depth = parent ? parent->depth + 1 : 0;
  scope.graph = &g;
  if (scope.depth > ctx.maxGraphNesting)
    fail(ctx, "subgraphs are nested " + std::to_string(scope.depth) +
                  " deep (If / Loop / Scan bodies inside each other); the limit is " +
                  std::to_string(ctx.maxGraphNesting));
  ctx.nodes += gp.node_size();
  if (ctx.nodes > ctx.maxNodes)
    fail(ctx, "the model has more than " + std::to_string(ctx.maxNodes) + " nodes (" + std::to_string(ctx.nodes) +
                  " counted so far, subgraphs included); the limit is " + std::to_string(ctx.maxNodes));
  if (g.name.empty()) g.name = gp.name();

  // ---- initializers (dense and sparse) ----
  for (int k = 0; k < gp.initializer_size(); ++k) {
    onnx::TensorProto& tp = *gp.mutable_initializer(k);
    const std::string name = tp.name();
    if (name.empty()) fail(ctx, where + "initializer #" + std::to_string(k) + " has no name");
    if (g.initializers.count(name)) fail(ctx, where + "duplicate initializer " + quoted(name));
    g.initializers.emplace(name, convertTensor(tp, ctx, where + "initializer " + quoted(name)));
    tp.Clear();  // drop the typed copy now, so peak memory holds each weight once
  }
  for (int k = 0; k < gp.sparse_initializer_size(); ++k) {
    onnx::SparseTensorProto& sp = *gp.mutable_sparse_initializer(k);
    const std::string name = sp.values().name();
    if (name.empty()) fail(ctx, where + "sparse initializer #" + std::to_string(k) + " has no name");
    if (g.initializers.count(name)) fail(ctx, where + "duplicate initializer " + quoted(name));
    g.initializers.emplace(name, convertSparseTensor(sp, ctx, where + "sparse initializer " + quoted(name)));
    sp.Clear();
  }
  for (const auto& [name, t] : g.initializers) scope.names.insert(name);

  // ---- graph inputs: those that are initializers are weights, not inputs ----
  std::unordered_set<std::string> inputNames;
  for (const auto& vp : gp.input()) {
    if (vp.name().empty()) fail(ctx, where + "graph input without a name");
    if (!inputNames.insert(vp.name()).second) fail(ctx, where + "duplicate graph input " + quoted(vp.name()));
    scope.names.insert(vp.name());
    if (g.initializers.count(vp.name())) continue;
    g.inputs.push_back(convertValueInfo(vp, ctx, where + "graph input " + quoted(vp.name())));
  }
  for (const auto& vp : gp.output()) {
    if (vp.name().empty()) fail(ctx, where + "graph output without a name");
    g.outputs.push_back(convertValueInfo(vp, ctx, where + "graph output " + quoted(vp.name())));
  }
  for (const auto& vp : gp.value_info()) {
    if (vp.name().empty()) fail(ctx, where + "value_info entry without a name");
    if (!g.valueInfo.count(vp.name()))
      g.valueInfo.emplace(vp.name(), convertValueInfo(vp, ctx, where + "value_info " + quoted(vp.name())));
  }

  // ---- producers: one per tensor, never a graph input or initializer ----
  const std::vector<std::string> nodeNames = assignNodeNames(gp);
  std::unordered_map<std::string, int> producer;
  for (int i = 0; i < gp.node_size(); ++i) {
    const auto& np = gp.node(i);
    const std::string desc = nodeDesc(nodeNames[i], np.op_type());
    for (const auto& out : np.output()) {
      if (out.empty()) continue;
      if (inputNames.count(out))
        fail(ctx, where + "tensor " + quoted(out) + " is produced by " + desc + " but is also a graph input");
      if (g.initializers.count(out))
        fail(ctx, where + "tensor " + quoted(out) + " is produced by " + desc + " but is also an initializer");
      auto [it, fresh] = producer.emplace(out, i);
      if (!fresh) {
        const std::string other = nodeDesc(nodeNames[it->second], gp.node(it->second).op_type());
        fail(ctx, where + "tensor " + quoted(out) + " is produced by two nodes: " + other + " and " + desc);
      }
      scope.names.insert(out);
    }
  }

  // ---- nodes ----
  g.nodes.reserve(static_cast<size_t>(gp.node_size()));
  for (int i = 0; i < gp.node_size(); ++i) {
    onnx::NodeProto& np = *gp.mutable_node(i);
    Node n;
    n.name = nodeNames[i];
    n.opType = np.op_type();
    n.domain = normalizeDomain(np.domain());
    if (n.opType.empty()) fail(ctx, where + "node " + quoted(n.name) + " (#" + std::to_string(i) + ") has no op_type");
    const std::string desc = where + n.describe();
    n.inputs.assign(np.input().begin(), np.input().end());
    n.outputs.assign(np.output().begin(), np.output().end());
    for (size_t k = 0; k < n.inputs.size(); ++k) {
      const std::string& in = n.inputs[k];
      if (!in.empty() && !scope.resolve(in))
        fail(ctx, desc + ": input " + std::to_string(k) + " " + quoted(in) +
                      " is not produced by any node and is not a graph input or initializer" +
                      (parent ? " or an outer-scope value" : ""));
    }
    std::unordered_set<std::string> attrNames;
    n.attributes.reserve(static_cast<size_t>(np.attribute_size()));
    for (auto& ap : *np.mutable_attribute()) {
      if (!attrNames.insert(ap.name()).second) fail(ctx, desc + ": duplicate attribute " + quoted(ap.name()));
      n.attributes.push_back(convertAttribute(ap, ctx, scope, desc + ": "));
    }
    if (n.opType == "Constant" && n.domain.empty()) normalizeConstant(n, ctx, where);
    annotateTypeGroups(n, ctx);
    np.Clear();
    g.nodes.push_back(std::move(n));
  }

  for (const auto& out : g.outputs)
    if (!scope.resolve(out.name))
      fail(ctx, where + "graph output " + quoted(out.name) +
                    " is not produced by any node and is not a graph input or initializer");
}

}  // namespace oinfer::parser
