// Layer normalisation over the last axis, as exporters write it when the
// opset lacks LayerNormalization (torch before opset 17):
//
//   m = ReduceMean(x, axes=[-1]);  d = Sub(x, m)
//   v = ReduceMean(Pow(d, 2), axes=[-1]);  s = Sqrt(Add(v, eps))
//   y = Add(Mul(Div(d, s), gamma), beta)
//
// and the native LayerNormalization(axis=-1) without statistics outputs,
// both become ai.oinfer LayerNorm(x, gamma, beta). Then a residual sum
// feeding it, LayerNorm(Add(a, b)) with a and b of the same shape,
// becomes LayerNorm(a, gamma, beta, skip=b), the sum kept as output 1 when
// something else reads it (pre-norm blocks).
#include "passes/pass_util.h"
#include "passes/passes.h"

namespace oinfer::passes {

namespace {

using namespace util;

// Whether this ReduceMean averages exactly the last axis of its input, keeping dims.
bool lastAxisMean(const ir::Graph& g, const GraphIndex& idx, const Node& n) {
  if (!isOp(n, "ReduceMean") || n.attrInt("keepdims", 1) != 1) return false;
  std::vector<int64_t> axes;
  if (!constAxes(g, idx, n, axes) || axes.size() != 1) return false;
  if (axes[0] == -1) return true;
  const int64_t rank = rankOf(g, n.inputs[0]);
  return rank > 0 && axes[0] == rank - 1;
}

// A float 1-d constant of `n` values (n < 0: any length).
bool vectorConst(const ir::Graph& g, const GraphIndex& idx, const std::string& name, int64_t n) {
  const Tensor* t = constant(g, idx, name);
  return t && t->dtype() == DataType::kFloat && t->rank() == 1 && (n < 0 || t->dim(0) == n);
}

int fusePattern(ir::Graph& g) {
  if (!anyOp(g, {"Sub"})) return 0;
  GraphIndex idx(g);
  std::vector<bool> drop(g.nodes.size(), false);
  int fused = 0;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& sub = g.nodes[i];
    if (!isOp(sub, "Sub") || sub.inputs.size() != 2) continue;
    const std::string x = sub.inputs[0], d = sub.outputs[0];
    const int mi = idx.producer(sub.inputs[1]);
    if (mi < 0 || !lastAxisMean(g, idx, g.nodes[mi]) || g.nodes[mi].inputs[0] != x || !idx.internal(sub.inputs[1]))
      continue;
    // d is read by the squaring node and by the Div.
    if (idx.readers(d) != 2 || idx.isGraphOutput(d)) continue;
    int sq = -1, div = -1;
    for (size_t j = i + 1; j < g.nodes.size(); ++j) {
      const Node& n = g.nodes[j];
      float e = 0;
      if (isOp(n, "Pow") && n.inputs[0] == d && scalarConst(g, idx, n.inputs[1], e) && e == 2.f)
        sq = static_cast<int>(j);
      else if (isOp(n, "Div") && n.inputs[0] == d)
        div = static_cast<int>(j);
    }
    if (sq < 0 || div < 0) continue;
    const std::string& sqOut = g.nodes[sq].outputs[0];
    if (!idx.internal(sqOut)) continue;
    // Walk sq -> ReduceMean -> Add(eps) -> Sqrt -> div.
    auto single = [&](const std::string& v, const char* op) -> int {
      if (!idx.internal(v)) return -1;
      for (size_t j = 0; j < g.nodes.size(); ++j)
        if (isOp(g.nodes[j], op) && std::count(g.nodes[j].inputs.begin(), g.nodes[j].inputs.end(), v)) return int(j);
      return -1;
    };
    const int var = single(sqOut, "ReduceMean");
    if (var < 0 || !lastAxisMean(g, idx, g.nodes[var])) continue;
    const int addEps = single(g.nodes[var].outputs[0], "Add");
    float eps = 0;
    if (addEps < 0 || !scalarConst(g, idx, other(g.nodes[addEps], g.nodes[var].outputs[0]), eps)) continue;
    const int sqrtN = single(g.nodes[addEps].outputs[0], "Sqrt");
    if (sqrtN < 0 || g.nodes[div].inputs[1] != g.nodes[sqrtN].outputs[0] || !idx.internal(g.nodes[sqrtN].outputs[0]))
      continue;
    // Then Mul(gamma) and Add(beta), both per-channel constants.
    const std::string divOut = g.nodes[div].outputs[0];
    const int mul = single(divOut, "Mul");
    if (mul < 0) continue;
    const std::string gamma = other(g.nodes[mul], divOut);
    if (!vectorConst(g, idx, gamma, -1)) continue;
    const int64_t ch = constant(g, idx, gamma)->dim(0);
    std::string beta;
    int last = mul;
    const int add = single(g.nodes[mul].outputs[0], "Add");
    if (add >= 0 && vectorConst(g, idx, other(g.nodes[add], g.nodes[mul].outputs[0]), ch)) {
      beta = other(g.nodes[add], g.nodes[mul].outputs[0]);
      last = add;
    }
    Node ln = internalNode("LayerNorm", g.nodes[last].name);
    ln.inputs = {x, gamma, beta};
    if (beta.empty()) ln.inputs.pop_back();
    ln.outputs = {g.nodes[last].outputs[0]};
    ln.attributes.push_back(floatAttr("epsilon", eps));
    for (int k : {mi, static_cast<int>(i), sq, var, addEps, sqrtN, div, mul}) drop[k] = true;
    drop[last] = false;
    if (last != mul) drop[mul] = true;
    g.nodes[last] = ln;
    ++fused;
  }
  if (fused) {
    useInternalDomain(g);
    removeNodes(g, drop);
  }
  return fused;
}

int convertNative(ir::Graph& g) {
  if (!anyOp(g, {"LayerNormalization"})) return 0;
  GraphIndex idx(g);
  int n = 0;
  for (Node& node : g.nodes) {
    if (!isOp(node, "LayerNormalization") || node.inputs.size() < 2) continue;
    bool stats = false;
    for (size_t k = 1; k < node.outputs.size(); ++k) stats |= !node.outputs[k].empty();
    const int64_t rank = rankOf(g, node.inputs[0]);
    const int64_t axis = node.attrInt("axis", -1);
    if (stats || !(axis == -1 || (rank > 0 && axis == rank - 1))) continue;
    if (node.attrInt("stash_type", 1) != 1 || !vectorConst(g, idx, node.inputs[1], -1)) continue;
    if (dtypeOf(g, node.inputs[0]) != DataType::kFloat) continue;
    Node ln = internalNode("LayerNorm", node.name);
    ln.inputs = {node.inputs[0], node.inputs[1]};
    if (node.inputs.size() > 2 && !node.inputs[2].empty()) ln.inputs.push_back(node.inputs[2]);
    ln.outputs = {node.outputs[0]};
    ln.attributes.push_back(floatAttr("epsilon", node.attrFloat("epsilon", 1e-5f)));
    node = ln;
    ++n;
  }
  if (n) useInternalDomain(g);
  return n;
}

int fuseSkip(ir::Graph& g) {
  if (!anyOp(g, {"LayerNorm"}, kInternalDomain)) return 0;
  GraphIndex idx(g);
  std::vector<bool> drop(g.nodes.size(), false);
  int n = 0;
  for (Node& ln : g.nodes) {
    if (ln.opType != "LayerNorm" || ln.domain != kInternalDomain || ln.inputs.size() > 3) continue;
    const int ai = idx.producerOf(ln.inputs[0], "Add");
    if (ai < 0 || drop[ai]) continue;
    const Node& add = g.nodes[ai];
    if (!sameShape(g, add.inputs[0], add.inputs[1]) || !sameShape(g, add.inputs[0], add.outputs[0])) continue;
    if (dtypeOf(g, add.inputs[0]) != DataType::kFloat) continue;
    const std::string sum = add.outputs[0];
    ln.inputs.resize(4);  // an absent beta stays ""
    ln.inputs[0] = add.inputs[0];
    ln.inputs[3] = add.inputs[1];
    if (!idx.internal(sum)) ln.outputs.push_back(sum);
    drop[ai] = true;
    ++n;
  }
  if (n) removeNodes(g, drop);
  return n;
}

}  // namespace

int fuseLayerNorm(ir::Graph& g, const PassContext&) {
  const int a = fusePattern(g);
  const int b = convertNative(g);
  return a + b + fuseSkip(g);
}

}  // namespace oinfer::passes
