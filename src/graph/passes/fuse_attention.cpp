// Scaled dot-product attention as exporters unroll it:
//
//   s = MatMul(Q, Kt)  [Div(s, c) | Mul(s, c)]  [Add(s, mask)]
//   p = Softmax(s, axis=-1);  y = MatMul(p, V)
//
// (torch's scaled_dot_product_attention export instead scales Q and Kt by
// sqrt(c) each: Mul(Q, c1), Mul(Kt, c2) are absorbed as scale c1*c2) becomes
// ai.oinfer FusedAttention(Q, Kt, V, mask) with attribute scale: one kernel
// per (batch, head) whose score matrix never leaves a per-thread buffer.
// Needs ranks and (possibly symbolic) dims from shape inference. When Q, K, V
// are head splits of [B, S, H*D] projections (Reshape + Transpose) and the
// output is merged back the same way, the kernel reads that layout directly.
#include "graph/passes/pass_util.h"
#include "graph/passes/passes.h"

namespace oinfer::passes {

namespace {

using namespace util;

bool floatValue(const Graph& g, const std::string& name) { return dtypeOf(g, name) == DataType::kFloat; }

// The last entry of a Reshape's target when it is a constant, or a Concat
// whose last input is one (-1 included); 0 when unknown.
int64_t reshapeTargetLast(const Graph& g, const GraphIndex& idx, const Node& reshape) {
  if (reshape.inputs.size() < 2) return -1;
  std::string t = reshape.inputs[1];
  const int c = idx.producerOf(t, "Concat");
  if (c >= 0) t = g.nodes[c].inputs.back();
  const Tensor* v = constant(g, idx, t);
  if (!v || v->dtype() != DataType::kInt64 || v->numel() < 1) return 0;
  return v->data<int64_t>()[v->numel() - 1];
}

// For x = Transpose(Reshape(x3, [b, s, H, D]), perm) with both steps read only
// here and x3 of shape [b, s, H*D]: x3 and H, else "" .
std::string headSplitSource(const Graph& g, const GraphIndex& idx, const std::string& x,
                            const std::vector<int64_t>& perm, int64_t& heads, std::vector<int>& nodes) {
  const int t = idx.producerOf(x, "Transpose");
  if (t < 0 || !idx.internal(x) || g.nodes[t].attrInts("perm") != perm) return "";
  const std::string& r4 = g.nodes[t].inputs[0];
  const int r = idx.producerOf(r4, "Reshape");
  if (r < 0 || !idx.internal(r4)) return "";
  const std::string& x3 = g.nodes[r].inputs[0];
  const auto s4 = shapeOf(g, r4);
  const auto s3 = shapeOf(g, x3);
  if (!s4 || !s3 || s4->size() != 4 || s3->size() != 3 || (*s4)[0] != (*s3)[0] || (*s4)[1] != (*s3)[1]) return "";
  const Dim &h = (*s4)[2], &d = (*s4)[3], &hd = (*s3)[2];
  if (!h.isStatic() || !d.isStatic() || !hd.isStatic() || h.value * d.value != hd.value) return "";
  if (heads != 0 && heads != h.value) return "";
  heads = h.value;
  nodes.push_back(t);
  nodes.push_back(r);
  return x3;
}

// FusedAttention on split heads whose Q, K, V come from [B, S, H*D]
// projections through Reshape + Transpose, and whose output goes back through
// Transpose + Reshape to [B, S, H*E], reads and writes the projections'
// layout directly (num_heads), dropping all eight copies.
int absorbHeadTransposes(Graph& g) {
  GraphIndex idx(g);
  std::vector<bool> drop(g.nodes.size(), false);
  int n = 0;
  for (Node& f : g.nodes) {
    if (f.opType != "FusedAttention" || f.domain != kInternalDomain || f.attrInt("num_heads", 0) != 0) continue;
    int64_t heads = 0;
    std::vector<int> nodes;
    const std::string q = headSplitSource(g, idx, f.inputs[0], {0, 2, 1, 3}, heads, nodes);
    const std::string k = q.empty() ? "" : headSplitSource(g, idx, f.inputs[1], {0, 2, 3, 1}, heads, nodes);
    const std::string v = k.empty() ? "" : headSplitSource(g, idx, f.inputs[2], {0, 2, 1, 3}, heads, nodes);
    if (v.empty()) continue;
    const int t = onlyReader(g, idx, f.outputs[0]);
    if (t < 0 || !isOp(g.nodes[t], "Transpose") || g.nodes[t].attrInts("perm") != std::vector<int64_t>{0, 2, 1, 3})
      continue;
    const int r = onlyReader(g, idx, g.nodes[t].outputs[0]);
    if (r < 0 || !isOp(g.nodes[r], "Reshape") || g.nodes[r].inputs[0] != g.nodes[t].outputs[0]) continue;
    const auto in4 = shapeOf(g, f.outputs[0]);
    const auto out3 = shapeOf(g, g.nodes[r].outputs[0]);
    if (!in4 || !out3 || in4->size() != 4 || out3->size() != 3 || (*out3)[1] != (*in4)[2] || !(*in4)[3].isStatic())
      continue;
    // The merged width: inferred, or the last entry of the target (exports
    // build it as Concat(batch, seq, constant width)).
    // -1 there takes the rest, H*E, when the first dim is the batch: equal, or
    // both symbolic (export shape chains rename the batch symbol).
    const int64_t width = heads * (*in4)[3].value;
    const int64_t last = (*out3)[2] == Dim(width) ? width : reshapeTargetLast(g, idx, g.nodes[r]);
    const bool batchFirst = (*out3)[0] == (*in4)[0] || (!(*out3)[0].isStatic() && !(*in4)[0].isStatic());
    if (!(last == width || (last == -1 && batchFirst))) continue;
    nodes.push_back(t);
    nodes.push_back(r);
    for (int k2 : nodes) drop[k2] = true;
    f.inputs[0] = q;
    f.inputs[1] = k;
    f.inputs[2] = v;
    f.outputs[0] = g.nodes[r].outputs[0];
    f.attributes.push_back(intAttr("num_heads", heads));
    ++n;
  }
  if (n) removeNodes(g, drop);
  return n;
}

}  // namespace

int fuseAttention(Graph& g) {
  GraphIndex idx(g);
  std::vector<bool> drop(g.nodes.size(), false);
  int fused = 0;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& qk = g.nodes[i];
    if (!isOp(qk, "MatMul") || drop[i] || qk.inputs.size() != 2) continue;
    std::string q = qk.inputs[0], kt = qk.inputs[1];
    if (constant(g, idx, q) || constant(g, idx, kt) || !floatValue(g, q)) continue;
    const auto qs = shapeOf(g, q);
    const auto ks = shapeOf(g, kt);
    if (!qs || !ks || qs->size() < 3 || qs->size() != ks->size()) continue;
    const size_t rank = qs->size();
    const Dim T = (*ks)[rank - 1];
    float scale = 1.f, c = 0;
    std::vector<int> chain;
    std::string s = qk.outputs[0];
    int r = onlyReader(g, idx, s);
    if (r >= 0 && (isOp(g.nodes[r], "Div") || isOp(g.nodes[r], "Mul")) && g.nodes[r].inputs[0] == s &&
        scalarConst(g, idx, g.nodes[r].inputs[1], c) && c != 0.f) {
      scale = isOp(g.nodes[r], "Div") ? 1.f / c : c;
      chain.push_back(r);
      s = g.nodes[r].outputs[0];
      r = onlyReader(g, idx, s);
    }
    std::string mask;
    if (r >= 0 && isOp(g.nodes[r], "Add")) {
      const std::string m = other(g.nodes[r], s);
      // The kernel takes masks that broadcast per batch dim and per query row
      // but are full along the keys.
      const auto ms = shapeOf(g, m);
      const auto ss = shapeOf(g, s);
      if (!ms || !ss || ms->size() > rank || ms->empty() || ms->back() != T || !floatValue(g, m)) continue;
      // Each mask dim must be 1 or the scores' dim; a symbolic one is left to
      // the kernel's run-time check (exports compute the mask through
      // Expand/Where chains whose dims inference can only name freshly).
      bool fits = true;
      for (size_t d = 0; d < ms->size(); ++d) {
        const Dim& md = (*ms)[ms->size() - 1 - d];
        fits &= md == Dim(1) || md == (*ss)[rank - 1 - d] || !md.isStatic();
      }
      if (!fits) continue;
      mask = m;
      chain.push_back(r);
      s = g.nodes[r].outputs[0];
      r = onlyReader(g, idx, s);
    }
    if (r < 0 || !isOp(g.nodes[r], "Softmax")) continue;
    const int64_t axis = g.nodes[r].attrInt("axis", g.opset() < 13 ? 1 : -1);
    if (!(axis == -1 || axis == static_cast<int64_t>(rank) - 1)) continue;
    chain.push_back(r);
    const std::string p = g.nodes[r].outputs[0];
    r = onlyReader(g, idx, p);
    if (r < 0 || !isOp(g.nodes[r], "MatMul") || g.nodes[r].inputs[0] != p) continue;
    const std::string v = g.nodes[r].inputs[1];
    const auto vs = shapeOf(g, v);
    if (!vs || vs->size() != rank || (*vs)[rank - 2] != T || constant(g, idx, v)) continue;
    bool batchOk = true;
    for (size_t d = 0; d + 2 < rank; ++d) batchOk &= (*qs)[d] == (*ks)[d] && (*qs)[d] == (*vs)[d];
    if (!batchOk) continue;
    const int last = r;
    // Scales folded into Q and Kt by the export of scaled_dot_product_attention.
    for (std::string* operand : {&q, &kt}) {
      const int m = idx.producerOf(*operand, "Mul");
      if (m < 0 || drop[m] || !idx.internal(*operand)) continue;
      const Node& mn = g.nodes[m];
      if (scalarConst(g, idx, mn.inputs[1], c)) {
        scale *= c;
        *operand = mn.inputs[0];
        drop[m] = true;
      } else if (scalarConst(g, idx, mn.inputs[0], c)) {
        scale *= c;
        *operand = mn.inputs[1];
        drop[m] = true;
      }
    }
    Node f = internalNode("FusedAttention", g.nodes[last].name);
    f.inputs = {q, kt, v};
    if (!mask.empty()) f.inputs.push_back(mask);
    f.outputs = {g.nodes[last].outputs[0]};
    f.attributes.push_back(floatAttr("scale", scale));
    drop[i] = true;
    for (int k : chain) drop[k] = true;
    g.nodes[last] = f;
    ++fused;
  }
  if (fused) {
    useInternalDomain(g);
    removeNodes(g, drop);
    absorbHeadTransposes(g);
  }
  return fused;
}

}  // namespace oinfer::passes
