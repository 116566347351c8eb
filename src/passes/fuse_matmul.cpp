// MatMul by a constant 2-d float weight (and Gemm A * op(B) + C with constant
// B and C, as torch exports nn.Linear on 2-d inputs) becomes ai.oinfer
// FusedMatMul, whose kernel packs the weight once per plan, and absorbs what
// follows it:
//
//   Add(y, bias[N])                         -> bias (either operand order)
//   then Relu / ai.oinfer Gelu              -> activation
//   or else Add(y, r) with r of y's shape   -> residual (added in the GEMM epilogue)
//
// Each absorbed intermediate must have the fused chain as its only reader.
#include "passes/pass_util.h"
#include "passes/passes.h"

namespace oinfer::passes {

namespace {

using namespace util;

}  // namespace

int fuseMatMul(ir::Graph& g, const PassContext&) {
  if (!anyOp(g, {"MatMul", "Gemm"})) return 0;
  GraphIndex idx(g);
  std::vector<bool> drop(g.nodes.size(), false);
  int fused = 0;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& mm = g.nodes[i];
    const bool gemm = isOp(mm, "Gemm");
    if (!(isOp(mm, "MatMul") && mm.inputs.size() == 2) && !gemm) continue;
    const Tensor* w = constant(g, idx, mm.inputs[1]);
    if (!w || w->dtype() != DataType::kFloat || w->rank() != 2) continue;
    const bool transB = gemm && mm.attrInt("transB", 0) != 0;
    const int64_t N = w->dim(transB ? 0 : 1);
    Node f = internalNode("FusedMatMul", mm.name);
    f.inputs = {mm.inputs[0], mm.inputs[1]};
    if (gemm) {
      // Gemm maps when it is a plain A * op(B) + C with C a [N] / [1, N] constant.
      if (mm.attrInt("transA", 0) != 0 || mm.attrFloat("alpha", 1.f) != 1.f || rankOf(g, mm.inputs[0]) != 2) continue;
      if (mm.inputs.size() > 2 && !mm.inputs[2].empty()) {
        const Tensor* c = constant(g, idx, mm.inputs[2]);
        if (!c || c->dtype() != DataType::kFloat || c->numel() != N || c->rank() > 2 || mm.attrFloat("beta", 1.f) != 1.f)
          continue;
        if (c->rank() != 1) {
          // A [1, N] bias becomes a [N] initializer of the same values.
          std::string name = mm.inputs[2] + "_vector";
          if (!g.initializers.count(name)) g.initializers[name] = Tensor(DataType::kFloat, {N});
          std::copy(c->data<float>(), c->data<float>() + N, g.initializers[name].data<float>());
          f.inputs.push_back(name);
        } else {
          f.inputs.push_back(mm.inputs[2]);
        }
      }
      if (transB) f.attributes.push_back(intAttr("transB", 1));
    }
    std::string y = mm.outputs[0];
    int last = static_cast<int>(i);
    std::vector<int> absorbed;
    // Bias.
    int r = onlyReader(g, idx, y);
    if (f.inputs.size() == 2 && r >= 0 && isOp(g.nodes[r], "Add") && !drop[r]) {
      const std::string& b = other(g.nodes[r], y);
      const Tensor* bt = constant(g, idx, b);
      if (bt && bt->dtype() == DataType::kFloat && bt->numel() == N && bt->rank() == 1) {
        f.inputs.push_back(b);
        absorbed.push_back(r);
        y = g.nodes[r].outputs[0];
        last = r;
      }
    }
    // Activation, else residual.
    r = onlyReader(g, idx, y);
    if (r >= 0 && !drop[r]) {
      const Node& n = g.nodes[r];
      const bool gelu = n.opType == "Gelu" && n.domain == kInternalDomain;
      if (gelu || isOp(n, "Relu")) {
        f.attributes.push_back(stringAttr("activation", gelu ? "Gelu" : "Relu"));
        absorbed.push_back(r);
        y = n.outputs[0];
        last = r;
      } else if (isOp(n, "Add") && n.inputs[0] != n.inputs[1] && sameShape(g, y, other(n, y)) &&
                 sameShape(g, y, n.outputs[0])) {
        if (f.inputs.size() == 2) f.inputs.push_back("");
        f.inputs.push_back(other(n, y));
        absorbed.push_back(r);
        y = n.outputs[0];
        last = r;
      }
    }
    f.outputs = {y};
    drop[i] = true;
    for (int k : absorbed) drop[k] = true;
    drop[last] = false;
    g.nodes[last] = f;
    ++fused;
  }
  if (fused) {
    useInternalDomain(g);
    removeNodes(g, drop);
  }
  return fused;
}

}  // namespace oinfer::passes
