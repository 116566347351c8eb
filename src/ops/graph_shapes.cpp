#include "ops/graph_shapes.h"

#include <functional>
#include <map>
#include <set>

#include "ops/evaluate.h"
#include "shape/infer.h"

namespace oinfer {

std::vector<std::string> unsupportedOps(const ir::Graph& g, const Registry& r) {
  std::set<std::string> missing;
  // Subgraphs (If branches, Loop bodies...) use the model's opsets.
  std::function<void(const std::vector<Node>&)> visit = [&](const std::vector<Node>& ns) {
    for (const Node& n : ns) {
      for (const auto& a : n.attributes) {
        if (a.g) visit(a.g->nodes);
        for (const auto& g : a.graphs)
          if (g) visit(g->nodes);
      }
      if (findOpDef(r, g, n)) continue;
      const std::string dom = n.domain.empty() ? "ai.onnx" : n.domain;
      std::string line = dom + "::" + n.opType + " (opset " + std::to_string(g.opset(n.domain)) + ")";
      if (r.hasOp(n.domain, n.opType)) line += " [no version for this opset]";
      missing.insert(line + ", e.g. node '" + n.name + "'");
    }
  };
  visit(g.nodes);
  // One line per op: keep the first node named for each op.
  std::vector<std::string> out;
  std::string lastOp;
  for (const auto& m : missing) {
    std::string op = m.substr(0, m.find(", e.g."));
    if (op == lastOp) continue;
    lastOp = op;
    out.push_back(m);
  }
  return out;
}

std::vector<OpUse> opsUsed(const ir::Graph& g, const Registry& r) {
  std::map<std::pair<std::string, std::string>, OpUse> ops;
  std::function<void(const std::vector<Node>&)> visit = [&](const std::vector<Node>& ns) {
    for (const Node& n : ns) {
      for (const auto& a : n.attributes) {
        if (a.g) visit(a.g->nodes);
        for (const auto& sg : a.graphs)
          if (sg) visit(sg->nodes);
      }
      OpUse& u = ops[{n.domain, n.opType}];
      if (u.nodes++ == 0) {
        u.domain = n.domain;
        u.opType = n.opType;
        u.opset = g.opset(n.domain);
        u.supported = findOpDef(r, g, n) != nullptr;
      }
    }
  };
  visit(g.nodes);
  std::vector<OpUse> out;
  out.reserve(ops.size());
  for (auto& [key, u] : ops) out.push_back(std::move(u));
  return out;
}

void inferShapes(ir::Graph& g, const Registry& r) {
  g.ensureSorted();
  auto missing = unsupportedOps(g, r);
  if (!missing.empty()) {
    std::string msg = "the model uses " + std::to_string(missing.size()) + " unsupported op" +
                      (missing.size() > 1 ? "s" : "") + ":";
    for (const auto& m : missing) msg += "\n  " + m;
    throw Error(ErrorCode::kUnsupportedOp, msg);
  }
  shape::InferState st;
  shape::seedState(g, st);
  shape::SymbolGenerator symbols;
  shape::inferNodes(g, st, makeInferHooks(r, g), symbols);
  for (const Node& n : g.nodes)
    for (const auto& o : n.outputs)
      if (!o.empty()) g.valueInfo[o] = st.types[o];
  for (auto& out : g.outputs) {
    auto it = st.types.find(out.name);
    if (it == st.types.end()) continue;
    std::string keep = out.name;
    ValueInfo merged = it->second;
    // A declared output shape names its dims; keep those names where inference found only fresh symbols.
    if (out.hasShape && merged.hasShape && out.shape.size() == merged.shape.size())
      for (size_t k = 0; k < merged.shape.size(); ++k)
        if (!merged.shape[k].isStatic() && merged.shape[k].symbol.rfind("unk__", 0) == 0) merged.shape[k] = out.shape[k];
    out = merged;
    out.name = keep;
  }
  g.markShapesInferred();
}

}  // namespace oinfer
