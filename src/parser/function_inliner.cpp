// Model-local functions (ModelProto.functions) are inlined at load time, on
// the protobuf graph before conversion, so the rest of oinfer never sees a
// function call.
//
// A call node matches a function by (domain, name, overload). It is replaced
// by a copy of the body where
//  - formal inputs/outputs are renamed to the call's actual names (a missing
//    or empty actual input becomes "", an absent optional input),
//  - every other name (also inside the body's subgraphs) becomes
//    "<call node name>/<name>", made unique against all names in the model,
//  - attributes with ref_attr_name take the call's attribute of that name, else
//    the function's default (attribute_proto), else are dropped (spec rule),
//  - body nodes that are themselves calls are expanded recursively, up to
//    kMaxDepth levels (which also stops recursive functions).
// The functions' opset imports are merged into the model's; a version that
// conflicts with the model's import of the same domain is an error.
#include <google/protobuf/unknown_field_set.h>

#include <functional>
#include <map>
#include <tuple>
#include <unordered_map>

#include "parser/onnx_parser.h"

namespace oinfer::parser {
namespace {

constexpr int kMaxDepth = 32;
// The expanded graph is counted before anything is inlined (a few nested
// calls can describe 2^30 nodes; expanding 2^20 takes a minute), and a model
// over this many nodes after inlining is refused at once.
constexpr int64_t kMaxInlinedNodes = int64_t(1) << 20;

using Key = std::tuple<std::string, std::string, std::string>;  // domain, name, overload

// `overload` (NodeProto 8, FunctionProto 13) and FunctionProto.attribute_proto
// (11) are newer than some onnx.proto builds; read them by reflection when the
// field is known, else from the unknown fields.
std::string overloadOf(const google::protobuf::Message& m, int number) {
  const auto* f = m.GetDescriptor()->FindFieldByName("overload");
  if (f) return m.GetReflection()->GetString(m, f);
  return unknownStringField(m, number);
}

std::vector<onnx::AttributeProto> attributeDefaults(const onnx::FunctionProto& fn, LoadContext& ctx) {
  std::vector<onnx::AttributeProto> out;
  const auto* f = fn.GetDescriptor()->FindFieldByName("attribute_proto");
  const auto* refl = fn.GetReflection();
  if (f) {
    for (int i = 0; i < refl->FieldSize(fn, f); ++i)
      out.push_back(static_cast<const onnx::AttributeProto&>(refl->GetRepeatedMessage(fn, f, i)));
    return out;
  }
  const auto& unknown = refl->GetUnknownFields(fn);
  for (int i = 0; i < unknown.field_count(); ++i) {
    const auto& u = unknown.field(i);
    if (u.number() != 11 || u.type() != google::protobuf::UnknownField::TYPE_LENGTH_DELIMITED) continue;
    onnx::AttributeProto a;
    const std::string& bytes = u.length_delimited();
    if (!parseMessage(a, bytes.data(), bytes.size()))
      fail(ctx, "function '" + fn.name() + "': malformed attribute default");
    out.push_back(std::move(a));
  }
  return out;
}

void collectNames(const onnx::GraphProto& g, std::unordered_set<std::string>& names) {
  for (const auto& v : g.input()) names.insert(v.name());
  for (const auto& v : g.output()) names.insert(v.name());
  for (const auto& t : g.initializer()) names.insert(t.name());
  for (const auto& n : g.node()) {
    names.insert(n.input().begin(), n.input().end());
    names.insert(n.output().begin(), n.output().end());
    names.insert(n.name());
    for (const auto& a : n.attribute()) {
      if (a.has_g()) collectNames(a.g(), names);
      for (const auto& sg : a.graphs()) collectNames(sg, names);
    }
  }
}

struct Function {
  const onnx::FunctionProto* proto = nullptr;
  std::map<std::string, onnx::AttributeProto> defaults;
  bool opsetsMerged = false;
  int64_t expanded = -1;  // nodes of the body once expanded (Inliner::expandedNodes)
  bool counting = false;
};

class Inliner {
 public:
  Inliner(onnx::ModelProto& model, std::map<std::string, int64_t>& opsets, LoadContext& ctx)
      : opsets_(opsets), ctx_(ctx) {
    for (const auto& fn : model.functions()) {
      if (fn.name().empty()) fail(ctx, "model-local function without a name");
      Key key{normalizeDomain(fn.domain()), fn.name(), overloadOf(fn, 13)};
      Function f;
      f.proto = &fn;
      for (auto& a : attributeDefaults(fn, ctx)) f.defaults[a.name()] = std::move(a);
      if (!functions_.emplace(key, std::move(f)).second)
        fail(ctx, "model-local function '" + fn.name() + "' of domain '" + fn.domain() + "' is defined twice");
    }
    collectNames(model.graph(), used_);
  }

  // Refuses a model whose graph would have more than kMaxInlinedNodes nodes
  // once every call is expanded, before any is.
  void checkExpandedSize(const onnx::GraphProto& g) {
    const int64_t n = expandedNodes(g);
    if (n > kMaxInlinedNodes)
      fail(ctx_, "inlining model-local functions would produce " +
                     (n == kSaturated ? "more than " + std::to_string(kSaturated - 1) : std::to_string(n)) +
                     " nodes, more than the limit of " + std::to_string(kMaxInlinedNodes));
  }

  void inlineGraph(onnx::GraphProto& g, int depth) {
    google::protobuf::RepeatedPtrField<onnx::NodeProto> out;
    for (int i = 0; i < g.node_size(); ++i) {
      onnx::NodeProto& n = *g.mutable_node(i);
      if (n.name().empty() && find(n)) n.set_name(unique(n.op_type() + "_" + std::to_string(i)));
      emit(std::move(n), depth, out);
    }
    g.mutable_node()->Swap(&out);
  }

 private:
  static constexpr int64_t kSaturated = kMaxInlinedNodes * 4 + 1;
  static int64_t addSat(int64_t a, int64_t b) { return a + b >= kSaturated ? kSaturated : a + b; }

  // Nodes `g` holds once expanded (subgraphs included), saturating at
  // kSaturated. A function calling itself (directly or not) counts 0 along
  // the cycle: expand() reports it by its depth.
  int64_t expandedNodes(const onnx::GraphProto& g) {
    int64_t n = 0;
    for (const auto& node : g.node()) n = addSat(n, expandedNodes(node));
    return n;
  }
  int64_t expandedNodes(const onnx::NodeProto& node) {
    if (Function* fn = find(node)) {
      if (fn->expanded >= 0) return fn->expanded;
      if (fn->counting) return 0;
      fn->counting = true;
      int64_t n = 0;
      for (const auto& b : fn->proto->node()) n = addSat(n, expandedNodes(b));
      fn->counting = false;
      return fn->expanded = n;
    }
    int64_t n = 1;
    for (const auto& a : node.attribute()) {
      if (a.has_g()) n = addSat(n, expandedNodes(a.g()));
      for (const auto& sg : a.graphs()) n = addSat(n, expandedNodes(sg));
    }
    return n;
  }

  Function* find(const onnx::NodeProto& n) {
    if (functions_.empty()) return nullptr;
    auto it = functions_.find(Key{normalizeDomain(n.domain()), n.op_type(), overloadOf(n, 8)});
    return it == functions_.end() ? nullptr : &it->second;
  }

  std::string unique(const std::string& base) {
    std::string name = base;
    for (int k = 1; used_.count(name); ++k) name = base + "_" + std::to_string(k);
    used_.insert(name);
    return name;
  }

  void emit(onnx::NodeProto&& n, int depth, google::protobuf::RepeatedPtrField<onnx::NodeProto>& out) {
    if (Function* fn = find(n)) {
      expand(n, *fn, depth, out);
      return;
    }
    for (auto& a : *n.mutable_attribute()) {
      if (a.has_g()) inlineGraph(*a.mutable_g(), depth);
      for (auto& sg : *a.mutable_graphs()) inlineGraph(sg, depth);
    }
    if (++emitted_ > kMaxInlinedNodes) fail(ctx_, "inlining model-local functions produces too many nodes");
    *out.Add() = std::move(n);
  }

  void mergeOpsets(Function& fn) {
    if (fn.opsetsMerged) return;
    fn.opsetsMerged = true;
    for (const auto& op : fn.proto->opset_import()) {
      const std::string d = normalizeDomain(op.domain());
      auto [it, fresh] = opsets_.emplace(d, op.version());
      if (!fresh && it->second != op.version())
        fail(ctx_, "function '" + fn.proto->name() + "' imports opset " + std::to_string(op.version()) +
                       " of domain '" + d + "' but the model imports opset " + std::to_string(it->second));
    }
  }

  void expand(const onnx::NodeProto& call, Function& fn, int depth,
              google::protobuf::RepeatedPtrField<onnx::NodeProto>& out) {
    const onnx::FunctionProto& fp = *fn.proto;
    const std::string callDesc = "node '" + call.name() + "' (" + call.op_type() + ")";
    if (depth >= kMaxDepth)
      fail(ctx_, callDesc + ": model-local functions nest more than " + std::to_string(kMaxDepth) +
                     " deep (recursive function '" + fp.name() + "'?)");
    if (call.input_size() > fp.input_size() || call.output_size() > fp.output_size())
      fail(ctx_, callDesc + " passes " + std::to_string(call.input_size()) + " inputs and " +
                     std::to_string(call.output_size()) + " outputs to function '" + fp.name() + "', which has " +
                     std::to_string(fp.input_size()) + " and " + std::to_string(fp.output_size()));
    mergeOpsets(fn);

    std::unordered_map<std::string, std::string> rename;
    for (int i = 0; i < fp.input_size(); ++i) rename[fp.input(i)] = i < call.input_size() ? call.input(i) : "";
    for (int i = 0; i < call.output_size(); ++i)
      if (!call.output(i).empty()) rename[fp.output(i)] = call.output(i);
    const std::string prefix = call.name() + "/";
    auto mapName = [&](const std::string& s) -> std::string {
      if (s.empty()) return s;
      auto it = rename.find(s);
      if (it != rename.end()) return it->second;
      return rename.emplace(s, unique(prefix + s)).first->second;
    };
    std::unordered_map<std::string, const onnx::AttributeProto*> actual;
    for (const auto& a : call.attribute()) actual[a.name()] = &a;

    for (int k = 0; k < fp.node_size(); ++k) {
      // Counted here too: a body of calls alone can still blow up exponentially.
      if (++emitted_ > kMaxInlinedNodes) fail(ctx_, "inlining model-local functions produces too many nodes");
      onnx::NodeProto body = fp.node(k);
      rewriteNode(body, mapName, actual, fn, callDesc);
      body.set_name(unique(prefix + (fp.node(k).name().empty() ? fp.node(k).op_type() + "_" + std::to_string(k)
                                                                 : fp.node(k).name())));
      emit(std::move(body), depth + 1, out);
    }
  }

  using NameMap = std::function<std::string(const std::string&)>;

  void rewriteNode(onnx::NodeProto& n, const NameMap& mapName,
                   const std::unordered_map<std::string, const onnx::AttributeProto*>& actual, const Function& fn,
                   const std::string& callDesc) {
    for (auto& s : *n.mutable_input()) s = mapName(s);
    for (auto& s : *n.mutable_output()) s = mapName(s);
    google::protobuf::RepeatedPtrField<onnx::AttributeProto> attrs;
    for (auto& a : *n.mutable_attribute()) {
      if (!a.ref_attr_name().empty()) {
        const onnx::AttributeProto* src = nullptr;
        auto it = actual.find(a.ref_attr_name());
        if (it != actual.end()) {
          src = it->second;
        } else {
          auto d = fn.defaults.find(a.ref_attr_name());
          if (d != fn.defaults.end()) src = &d->second;
        }
        if (!src) continue;  // not given and no default: the attribute is absent
        if (a.has_type() && src->has_type() && a.type() != src->type())
          fail(ctx_, callDesc + ": attribute '" + a.ref_attr_name() + "' passed to function '" + fn.proto->name() +
                         "' has type " + attrTypeName(static_cast<AttrType>(src->type())) + ", the body expects " +
                         attrTypeName(static_cast<AttrType>(a.type())));
        onnx::AttributeProto sub = *src;
        sub.set_name(a.name());
        *attrs.Add() = std::move(sub);
        continue;
      }
      if (a.has_g()) rewriteGraph(*a.mutable_g(), mapName, actual, fn, callDesc);
      for (auto& sg : *a.mutable_graphs()) rewriteGraph(sg, mapName, actual, fn, callDesc);
      *attrs.Add() = std::move(a);
    }
    n.mutable_attribute()->Swap(&attrs);
  }

  // Subgraph-local names are internal to the function too, so one mapping
  // renames every name in the body, whatever its depth.
  void rewriteGraph(onnx::GraphProto& g, const NameMap& mapName,
                    const std::unordered_map<std::string, const onnx::AttributeProto*>& actual, const Function& fn,
                    const std::string& callDesc) {
    for (auto& v : *g.mutable_input()) v.set_name(mapName(v.name()));
    for (auto& v : *g.mutable_output()) v.set_name(mapName(v.name()));
    for (auto& v : *g.mutable_value_info()) v.set_name(mapName(v.name()));
    for (auto& t : *g.mutable_initializer()) t.set_name(mapName(t.name()));
    for (auto& n : *g.mutable_node()) {
      rewriteNode(n, mapName, actual, fn, callDesc);
      if (!n.name().empty()) n.set_name(mapName(n.name()));
    }
  }

  std::map<Key, Function> functions_;
  std::unordered_set<std::string> used_;
  std::map<std::string, int64_t>& opsets_;
  LoadContext& ctx_;
  int64_t emitted_ = 0;
};

}  // namespace

void inlineFunctions(onnx::ModelProto& model, std::map<std::string, int64_t>& opsets, LoadContext& ctx) {
  if (model.functions_size() == 0) return;
  Inliner inliner(model, opsets, ctx);
  inliner.checkExpandedSize(model.graph());
  inliner.inlineGraph(*model.mutable_graph(), 0);
  model.clear_functions();
}

}  // namespace oinfer::parser
