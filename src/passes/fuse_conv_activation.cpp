// Conv fusion: folds the elementwise tail of a float32 Conv into one
// ai.oinfer FusedConv node, so the output is written once instead of being
// re-read by each following op:
//   Conv -> [Add(per-channel constant)] -> [Add(residual of Y's exact shape)] -> [activation]
// where the activation is Relu, Clip (constant bounds), LeakyRelu, Sigmoid,
// HardSigmoid, HardSwish, Tanh, Gelu, or SiLU written as x * Sigmoid(x).
// ResNet's block end (Conv, Add skip, Relu) becomes one node; a Conv + BN +
// Relu becomes one node after BN folding. A per-channel constant Add (a bias
// exported apart from the Conv) is summed into the Conv's bias.
//
// Each absorbed intermediate must have the chain as its only reader and not
// be a graph output. The fused node takes the place of the chain's last node
// in the sorted order, so the residual's producer (which may come after the
// Conv, e.g. a downsample branch) still runs before it. The residual is only
// fused when inferred shapes show it equals the Conv output's shape (no
// broadcasting inside the kernel), so the pass runs shape inference first
// when the graph has not been through it.
#include <cmath>
#include <set>
#include <unordered_map>

#include "passes/pass_util.h"
#include "passes/passes.h"

namespace oinfer::passes {

namespace {

bool sameKnownShape(const ValueInfo* a, const ValueInfo* b) {
  if (!a || !b || !a->hasShape || !b->hasShape || a->shape.size() != b->shape.size()) return false;
  for (size_t i = 0; i < a->shape.size(); ++i) {
    const Dim& x = a->shape[i];
    const Dim& y = b->shape[i];
    if (x.isStatic() != y.isStatic()) return false;
    if (x.isStatic() ? x.value != y.value : (x.symbol.empty() || x.symbol != y.symbol)) return false;
  }
  return true;
}

// A float scalar input known at load time: an initializer or the output of a
// Constant node (how exporters write Clip's bounds).
const Tensor* scalarInit(const ir::Graph& g, const Node& n, size_t i) {
  if (i >= n.inputs.size() || n.inputs[i].empty()) return nullptr;
  const Tensor* t = nullptr;
  auto it = g.initializers.find(n.inputs[i]);
  if (it != g.initializers.end()) {
    t = &it->second;
  } else {
    for (const Node& c : g.nodes)
      if (c.opType == "Constant" && c.domain.empty() && c.outputs.size() == 1 && c.outputs[0] == n.inputs[i]) {
        const Attribute* v = c.attr("value");
        if (v && v->type == AttrType::kTensor) t = &v->t;
        break;
      }
  }
  return t && t->dtype() == DataType::kFloat && t->numel() == 1 ? t : nullptr;
}

}  // namespace

int fuseConvActivation(ir::Graph& g, const PassContext& ctx) {
  if (!util::anyOp(g, {"Conv"}) || !ctx.ensureShapes(g)) return 0;
  std::unordered_map<std::string, std::vector<size_t>> readers;
  for (size_t i = 0; i < g.nodes.size(); ++i)
    for (const auto& in : g.nodes[i].inputs)
      if (!in.empty()) readers[in].push_back(i);
  for (const Node& n : g.nodes)
    for (const auto& a : n.attributes) {
      std::vector<const ir::Graph*> subs;
      if (a.g) subs.push_back(a.g.get());
      for (const auto& s : a.graphs) subs.push_back(s.get());
      for (const ir::Graph* s : subs)
        for (const auto& name : s->outerScopeInputs) readers[name].push_back(SIZE_MAX);
    }
  std::set<std::string> graphOutputs;
  for (const auto& o : g.outputs) graphOutputs.insert(o.name);
  // The one node reading `v`, or SIZE_MAX.
  auto soleReader = [&](const std::string& v) -> size_t {
    auto it = readers.find(v);
    if (graphOutputs.count(v) || it == readers.end() || it->second.size() != 1) return SIZE_MAX;
    return it->second[0];
  };

  std::vector<bool> drop(g.nodes.size(), false);
  std::vector<std::pair<size_t, Node>> placed;  // (position, fused node)
  for (size_t ci = 0; ci < g.nodes.size(); ++ci) {
    const Node& conv = g.nodes[ci];
    if (conv.opType != "Conv" || !conv.domain.empty() || conv.outputs.size() != 1 || drop[ci]) continue;
    const ValueInfo* yi = g.findValue(conv.outputs[0]);
    if (!yi || yi->dtype != DataType::kFloat) continue;
    std::vector<size_t> chain;
    std::string cur = conv.outputs[0], residual, act, newBias;
    std::vector<float> params;
    size_t r = soleReader(cur);
    // Add of a per-channel constant ([M,1,...] / [1,M,1,...]): folded into the bias.
    if (r != SIZE_MAX && !drop[r] && yi->hasShape && yi->shape.size() >= 3 && yi->shape[1].isStatic()) {
      const Node& add = g.nodes[r];
      const int64_t M = yi->shape[1].value;
      if (add.opType == "Add" && add.domain.empty() && add.inputs.size() == 2 && add.outputs.size() == 1) {
        const std::string& other = add.inputs[0] == cur ? add.inputs[1] : add.inputs[0];
        auto it = g.initializers.find(other);
        const Tensor* t = it == g.initializers.end() ? nullptr : &it->second;
        bool perChannel = t && t->dtype() == DataType::kFloat && t->numel() == M && t->rank() <= yi->shape.size() &&
                          other != cur;
        // Its dims, right-aligned to Y's: 1 everywhere except M on the channel axis.
        for (size_t k = 0; perChannel && k < t->rank(); ++k) {
          const size_t axis = yi->shape.size() - t->rank() + k;
          perChannel = t->dim(k) == (axis == 1 ? M : 1) || (M == 1 && t->dim(k) == 1);
        }
        const bool hasBias = conv.inputs.size() > 2 && !conv.inputs[2].empty();
        auto bi = hasBias ? g.initializers.find(conv.inputs[2]) : g.initializers.end();
        const bool biasOk = !hasBias || (bi != g.initializers.end() && bi->second.dtype() == DataType::kFloat &&
                                         bi->second.numel() == M);
        if (perChannel && biasOk && sameKnownShape(g.findValue(add.outputs[0]), yi)) {
          Tensor nb(DataType::kFloat, {M});
          for (int64_t m = 0; m < M; ++m)
            nb.data<float>()[m] = t->data<float>()[m] + (hasBias ? bi->second.data<float>()[m] : 0.f);
          newBias = conv.name + "_fused_bias";
          for (int i = 1; g.initializers.count(newBias) || g.findValue(newBias); ++i)
            newBias = conv.name + "_fused_bias_" + std::to_string(i);
          g.initializers[newBias] = nb;
          chain.push_back(r);
          cur = add.outputs[0];
          r = soleReader(cur);
        }
      }
    }
    if (r != SIZE_MAX && !drop[r]) {
      const Node& add = g.nodes[r];
      if (add.opType == "Add" && add.domain.empty() && add.inputs.size() == 2 && add.outputs.size() == 1 &&
          add.inputs[0] != add.inputs[1]) {
        const std::string& other = add.inputs[0] == cur ? add.inputs[1] : add.inputs[0];
        if (sameKnownShape(g.findValue(other), yi) && sameKnownShape(g.findValue(add.outputs[0]), yi)) {
          residual = other;
          chain.push_back(r);
          cur = add.outputs[0];
        }
      }
    }
    r = soleReader(cur);
    auto it = readers.find(cur);
    if (r != SIZE_MAX && !drop[r] && g.nodes[r].domain.empty() && g.nodes[r].outputs.size() == 1) {
      const Node& a = g.nodes[r];
      const std::string& op = a.opType;
      bool ok = true;
      if (op == "Relu" || op == "Sigmoid" || op == "Tanh" || op == "HardSwish") {
        act = op;
      } else if (op == "LeakyRelu") {
        act = op;
        params = {a.attrFloat("alpha", 0.01f)};
      } else if (op == "HardSigmoid") {
        act = op;
        params = {a.attrFloat("alpha", 0.2f), a.attrFloat("beta", 0.5f)};
      } else if (op == "Gelu") {
        act = op;
        params = {a.attrString("approximate", "none") == "tanh" ? 1.f : 0.f};
      } else if (op == "Clip") {
        float lo = -INFINITY, hi = INFINITY;
        if (g.opset("") < 11) {
          lo = a.attrFloat("min", lo);
          hi = a.attrFloat("max", hi);
        } else {
          const bool hasMin = a.inputs.size() > 1 && !a.inputs[1].empty();
          const bool hasMax = a.inputs.size() > 2 && !a.inputs[2].empty();
          const Tensor* tmin = scalarInit(g, a, 1);
          const Tensor* tmax = scalarInit(g, a, 2);
          if ((hasMin && !tmin) || (hasMax && !tmax)) ok = false;
          if (tmin) lo = tmin->data<float>()[0];
          if (tmax) hi = tmax->data<float>()[0];
        }
        if (ok) {
          act = op;
          params = {lo, hi};
        }
      }
      if (!act.empty()) {
        chain.push_back(r);
        cur = a.outputs[0];
      }
    } else if (it != readers.end() && it->second.size() == 2 && !graphOutputs.count(cur)) {
      // SiLU: y = x * Sigmoid(x), the Sigmoid read only by the Mul.
      size_t s = it->second[0], m = it->second[1];
      if (s != SIZE_MAX && m != SIZE_MAX && g.nodes[s].opType != "Sigmoid") std::swap(s, m);
      if (s != SIZE_MAX && m != SIZE_MAX && !drop[s] && !drop[m] && g.nodes[s].opType == "Sigmoid" &&
          g.nodes[s].domain.empty() && g.nodes[m].opType == "Mul" && g.nodes[m].domain.empty() &&
          g.nodes[m].outputs.size() == 1 && soleReader(g.nodes[s].outputs[0]) == m) {
        const Node& mul = g.nodes[m];
        const std::string& sig = g.nodes[s].outputs[0];
        if ((mul.inputs[0] == cur && mul.inputs[1] == sig) || (mul.inputs[1] == cur && mul.inputs[0] == sig)) {
          act = "SiLU";
          chain.push_back(s);
          chain.push_back(m);
          cur = mul.outputs[0];
        }
      }
    }
    if (chain.empty()) continue;
    Node f = conv;
    f.domain = "ai.oinfer";
    f.opType = "FusedConv";
    f.outputs = {cur};
    if (!newBias.empty()) {
      while (f.inputs.size() < 3) f.inputs.emplace_back();
      f.inputs[2] = newBias;
    }
    if (!residual.empty()) {
      while (f.inputs.size() < 3) f.inputs.emplace_back();
      f.inputs.push_back(residual);
    }
    if (!act.empty()) {
      Attribute a;
      a.name = "activation";
      a.type = AttrType::kString;
      a.s = act;
      f.attributes.push_back(a);
      Attribute p;
      p.name = "activation_params";
      p.type = AttrType::kFloats;
      p.floats = params;
      f.attributes.push_back(p);
    }
    size_t last = 0;
    for (size_t c : chain) {
      drop[c] = true;
      last = std::max(last, c);
    }
    drop[ci] = true;
    placed.emplace_back(last, std::move(f));
  }
  if (placed.empty()) return 0;
  std::unordered_map<size_t, Node*> at;
  for (auto& [pos, n] : placed) at[pos] = &n;
  std::vector<Node> out;
  out.reserve(g.nodes.size());
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    auto p = at.find(i);
    if (p != at.end()) out.push_back(std::move(*p->second));
    else if (!drop[i]) out.push_back(std::move(g.nodes[i]));
  }
  g.nodes = std::move(out);
  g.opsetImports.emplace("ai.oinfer", 1);
  return int(placed.size());
}

}  // namespace oinfer::passes
