// Exact Gelu as exporters spell it, y = x * 0.5 * (1 + erf(x / sqrt(2))):
//
//   e = Erf(Div(x, 1.41421) | Mul(x, 0.70711));  a = Add(e, 1)
//   y = Mul(Mul(x, a), 0.5)        (torch.nn.functional.gelu)
//   y = Mul(Mul(x, 0.5), a)        (hand-written x * 0.5 * (1 + erf(...)))
//
// becomes ai.oinfer Gelu(x), which the MatMul pass can then absorb.
#include "passes/pass_util.h"
#include "passes/passes.h"

namespace oinfer::passes {

namespace {

using namespace util;

}  // namespace

int fuseGelu(ir::Graph& g, const PassContext&) {
  if (!anyOp(g, {"Erf"})) return 0;
  GraphIndex idx(g);
  std::vector<bool> drop(g.nodes.size(), false);
  int fused = 0;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& erf = g.nodes[i];
    if (!isOp(erf, "Erf") || drop[i]) continue;
    const int pre = idx.producer(erf.inputs[0]);
    if (pre < 0 || !idx.internal(erf.inputs[0])) continue;
    const Node& scale = g.nodes[pre];
    float c = 0;
    const bool isDiv = isOp(scale, "Div") && scalarConst(g, idx, scale.inputs[1], c) && near(c, 1.41421356f);
    const bool isMul = isOp(scale, "Mul") && scale.inputs.size() == 2 &&
                       ((scalarConst(g, idx, scale.inputs[1], c) && near(c, 0.70710678f)) ||
                        (scalarConst(g, idx, scale.inputs[0], c) && near(c, 0.70710678f)));
    if (!isDiv && !isMul) continue;
    const std::string x = isMul && scalarConst(g, idx, scale.inputs[0], c) ? scale.inputs[1] : scale.inputs[0];
    if (dtypeOf(g, x) != DataType::kFloat) continue;  // the internal Gelu is float32
    const int add = onlyReader(g, idx, erf.outputs[0], "Add");
    if (add < 0 || !scalarConst(g, idx, other(g.nodes[add], erf.outputs[0]), c) || c != 1.f) continue;
    const std::string a = g.nodes[add].outputs[0];
    const int m1 = onlyReader(g, idx, a, "Mul");
    if (m1 < 0) continue;
    const std::string m1Other = other(g.nodes[m1], a);
    int last = -1, half = -1;
    if (m1Other == x) {
      // Mul(Mul(x, a), 0.5)
      const int m2 = onlyReader(g, idx, g.nodes[m1].outputs[0], "Mul");
      if (m2 >= 0 && scalarConst(g, idx, other(g.nodes[m2], g.nodes[m1].outputs[0]), c) && c == 0.5f) last = m2;
    } else {
      // Mul(Mul(x, 0.5), a)
      const int h = idx.producerOf(m1Other, "Mul");
      if (h >= 0 && idx.internal(m1Other) && std::count(g.nodes[h].inputs.begin(), g.nodes[h].inputs.end(), x) &&
          scalarConst(g, idx, other(g.nodes[h], x), c) && c == 0.5f) {
        last = m1;
        half = h;
      }
    }
    if (last < 0) continue;
    Node gelu = internalNode("Gelu", g.nodes[last].name);
    gelu.inputs = {x};
    gelu.outputs = {g.nodes[last].outputs[0]};
    for (int k : {pre, static_cast<int>(i), add, m1, half})
      if (k >= 0) drop[k] = true;
    drop[last] = false;
    g.nodes[last] = gelu;
    ++fused;
  }
  if (fused) {
    useInternalDomain(g);
    removeNodes(g, drop);
  }
  return fused;
}

}  // namespace oinfer::passes
