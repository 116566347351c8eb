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
#include <algorithm>

#include "passes/pass_util.h"
#include "passes/passes.h"

namespace oinfer::passes {

namespace {

using namespace util;

bool floatValue(const ir::Graph& g, const std::string& name) { return dtypeOf(g, name) == DataType::kFloat; }

// The last entry of a Reshape's target when it is a constant, or a Concat
// whose last input is one (-1 included); 0 when unknown.
int64_t reshapeTargetLast(const ir::Graph& g, const GraphIndex& idx, const Node& reshape) {
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
std::string headSplitSource(const ir::Graph& g, const GraphIndex& idx, const std::string& x,
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
int absorbHeadTransposes(ir::Graph& g) {
  if (!anyOp(g, {"FusedAttention"}, kInternalDomain)) return 0;
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

// Static dims of a value's inferred shape: true when its rank is `rank`;
// dims not static read as -1.
bool staticDims(const ir::Graph& g, const std::string& v, size_t rank, std::vector<int64_t>& dims) {
  const auto s = shapeOf(g, v);
  if (!s || s->size() != rank) return false;
  dims.clear();
  for (const Dim& d : *s) dims.push_back(d.isStatic() ? d.value : -1);
  return true;
}

// torch's nn.MultiheadAttention (sequence first) splits heads as
//   x = Reshape(Transpose(Reshape(x3 [S, B, H*D], [S, B*H, D]), [1, 0, 2]), [B, H, S, D])
// with the reshape targets computed from shapes at run time. With every step
// read only here and S, H, D static, x[b][h][s][d] = x3[s][b][h*D + d]
// whatever B is (each Reshape keeps the element order, and the counts force
// the middle dims): x3, H and D; else "".
std::string seqFirstHeadSource(const ir::Graph& g, const GraphIndex& idx, const std::string& x, int64_t& heads,
                               int64_t& dim, std::vector<int>& nodes) {
  const int r2 = idx.producerOf(x, "Reshape");
  std::vector<int64_t> s4, s3t, s3r, s3;
  if (r2 < 0 || !idx.internal(x) || !staticDims(g, x, 4, s4) || s4[1] <= 0 || s4[2] <= 0 || s4[3] <= 0) return "";
  const int64_t H = s4[1], S = s4[2], D = s4[3];
  const std::string& tv = g.nodes[r2].inputs[0];
  const int t = idx.producerOf(tv, "Transpose");
  if (t < 0 || !idx.internal(tv) || g.nodes[t].attrInts("perm") != std::vector<int64_t>{1, 0, 2}) return "";
  if (!staticDims(g, tv, 3, s3t) || s3t[1] != S || s3t[2] != D) return "";
  const std::string& rv = g.nodes[t].inputs[0];
  const int r1 = idx.producerOf(rv, "Reshape");
  if (r1 < 0 || !idx.internal(rv) || !staticDims(g, rv, 3, s3r) || s3r[0] != S || s3r[2] != D) return "";
  const std::string& x3 = g.nodes[r1].inputs[0];
  if (!staticDims(g, x3, 3, s3) || s3[0] != S || s3[2] != H * D) return "";
  if ((heads != 0 && heads != H) || (dim != 0 && dim != D)) return "";
  heads = H;
  dim = D;
  nodes.insert(nodes.end(), {r2, t, r1});
  return x3;
}

// The scalar int64 constant index of a Gather on axis 0, or -1.
int64_t gatherIndex0(const ir::Graph& g, const GraphIndex& idx, const Node& n) {
  if (!isOp(n, "Gather") || n.inputs.size() != 2 || n.attrInt("axis", 0) != 0) return -1;
  const Tensor* i = constant(g, idx, n.inputs[1]);
  if (!i || i->dtype() != DataType::kInt64 || i->numel() != 1 || i->rank() != 0) return -1;
  return i->data<int64_t>()[0];
}

// Whether a Squeeze / Unsqueeze takes exactly these axes.
bool hasAxes(const ir::Graph& g, const GraphIndex& idx, const Node& n, std::vector<int64_t> want) {
  std::vector<int64_t> axes;
  return constAxes(g, idx, n, axes) && axes == want;
}

// The fused QKV projection the export splits into Q, K and V:
//   sq = Squeeze(Transpose(Unsqueeze(Reshape(qkv [S, B, 3W], [S, B, 3, W]), [0]), [3, 1, 2, 0, 4]), [3])
//   x_i = Gather(sq, i, axis 0)
// so x_i[s][b][c] = qkv[s][b][i*W + c]. For x3q, x3k, x3v the Gathers 0, 1, 2
// of one such chain (read by nothing else): qkv, and the chain's nodes.
std::string fusedQkvSource(const ir::Graph& g, const GraphIndex& idx, const std::string (&x3)[3], std::vector<int>& nodes) {
  std::string sq;
  std::vector<int> gathers;
  for (int i = 0; i < 3; ++i) {
    const int ga = idx.producer(x3[i]);
    if (ga < 0 || !idx.internal(x3[i]) || gatherIndex0(g, idx, g.nodes[ga]) != i) return "";
    if (i == 0) sq = g.nodes[ga].inputs[0];
    if (g.nodes[ga].inputs[0] != sq) return "";
    gathers.push_back(ga);
  }
  const int sqz = idx.producerOf(sq, "Squeeze");
  if (sqz < 0 || idx.readers(sq) != 3 || idx.isGraphOutput(sq) || !hasAxes(g, idx, g.nodes[sqz], {3}))
    return "";
  const std::string& t1v = g.nodes[sqz].inputs[0];
  const int t1 = idx.producerOf(t1v, "Transpose");
  if (t1 < 0 || !idx.internal(t1v) || g.nodes[t1].attrInts("perm") != std::vector<int64_t>{3, 1, 2, 0, 4}) return "";
  const std::string& uv = g.nodes[t1].inputs[0];
  const int u = idx.producerOf(uv, "Unsqueeze");
  if (u < 0 || !idx.internal(uv) || !hasAxes(g, idx, g.nodes[u], {0})) return "";
  const std::string& rv = g.nodes[u].inputs[0];
  const int r = idx.producerOf(rv, "Reshape");
  std::vector<int64_t> s4, s3;
  if (r < 0 || !idx.internal(rv) || !staticDims(g, rv, 4, s4) || s4[0] <= 0 || s4[2] != 3 || s4[3] <= 0) return "";
  const std::string& qkv = g.nodes[r].inputs[0];
  if (!staticDims(g, qkv, 3, s3) || s3[0] != s4[0] || s3[2] != 3 * s4[3]) return "";
  nodes.insert(nodes.end(), gathers.begin(), gathers.end());
  nodes.insert(nodes.end(), {sqz, t1, u, r});
  return qkv;
}

// FusedAttention on torch nn.MultiheadAttention's sequence-first head splits
// (seqFirstHeadSource for Q and V; K through one more Transpose to K^T),
// whose output goes back through Transpose [2, 0, 1, 3] to [S, B, H, D]:
// reads the [S, B, H*D] projections directly and writes [S, B, H, D]
// (seq_first), and where the three come from one fused QKV projection
// (fusedQkvSource), reads that at column offsets 0, W, 2W. ViT-B/16: eight
// copies per layer (the QKV split Transpose and Gathers, the head split and
// merge Transposes, K's transpose) are gone.
int absorbSeqFirstHeads(ir::Graph& g) {
  if (!anyOp(g, {"FusedAttention"}, kInternalDomain)) return 0;
  GraphIndex idx(g);
  std::vector<bool> drop(g.nodes.size(), false);
  int n = 0;
  for (Node& f : g.nodes) {
    if (f.opType != "FusedAttention" || f.domain != kInternalDomain || f.attrInt("num_heads", 0) != 0 ||
        f.inputs.size() != 3)
      continue;
    int64_t heads = 0, dim = 0;
    std::vector<int> nodes;
    std::string x3[3];
    x3[0] = seqFirstHeadSource(g, idx, f.inputs[0], heads, dim, nodes);
    if (x3[0].empty()) continue;
    const int kt = idx.producerOf(f.inputs[1], "Transpose");
    if (kt < 0 || !idx.internal(f.inputs[1]) || g.nodes[kt].attrInts("perm") != std::vector<int64_t>{0, 1, 3, 2})
      continue;
    nodes.push_back(kt);
    x3[1] = seqFirstHeadSource(g, idx, g.nodes[kt].inputs[0], heads, dim, nodes);
    if (x3[1].empty()) continue;
    x3[2] = seqFirstHeadSource(g, idx, f.inputs[2], heads, dim, nodes);
    if (x3[2].empty()) continue;
    const int t = onlyReader(g, idx, f.outputs[0]);
    if (t < 0 || !isOp(g.nodes[t], "Transpose") || g.nodes[t].attrInts("perm") != std::vector<int64_t>{2, 0, 1, 3})
      continue;
    nodes.push_back(t);
    std::vector<int64_t> offsets = {0, 0, 0};
    std::vector<int> qkvNodes;
    const std::string qkv = fusedQkvSource(g, idx, x3, qkvNodes);
    if (!qkv.empty()) {
      const int64_t w = heads * dim;
      offsets = {0, w, 2 * w};
      for (std::string& x : x3) x = qkv;
      nodes.insert(nodes.end(), qkvNodes.begin(), qkvNodes.end());
    }
    for (int k : nodes) drop[k] = true;
    f.inputs = {x3[0], x3[1], x3[2]};
    f.outputs[0] = g.nodes[t].outputs[0];
    f.attributes.push_back(intAttr("num_heads", heads));
    f.attributes.push_back(intAttr("seq_first", 1));
    f.attributes.push_back(intAttr("head_size", dim));
    f.attributes.push_back(intsAttr("offsets", offsets));
    ++n;
  }
  if (n) removeNodes(g, drop);
  return n;
}

}  // namespace

int fuseQkvProjections(ir::Graph& g, const PassContext&) {
  // Runs after fuseMatMul: FusedAttention (num_heads, [B, S, H*D] operands)
  // whose Q, K and V are three FusedMatMul of one input by constant [K, N]
  // weights (optional constant bias, no activation, no residual), each read
  // only by the attention, becomes one FusedMatMul by the weights side by
  // side ([K, 3N]) read at column offsets 0, N, 2N. BERT-base: three
  // 128x768x768 GEMMs a layer become one 128x2304x768 (TUNING.md).
  if (!anyOp(g, {"FusedAttention"}, kInternalDomain)) return 0;
  GraphIndex idx(g);
  std::vector<bool> drop(g.nodes.size(), false);
  int n = 0;
  for (Node& f : g.nodes) {
    if (f.opType != "FusedAttention" || f.domain != kInternalDomain || f.attrInt("num_heads", 0) <= 0 ||
        f.attrInt("seq_first", 0) != 0 || !f.attrInts("offsets", {}).empty() || f.inputs.size() < 3)
      continue;
    const int64_t heads = f.attrInt("num_heads", 0);
    int p[3];
    const Tensor* w[3];
    const Tensor* b[3];
    bool ok = f.inputs[0] != f.inputs[1] && f.inputs[1] != f.inputs[2] && f.inputs[0] != f.inputs[2];
    for (int i = 0; ok && i < 3; ++i) {
      p[i] = idx.producer(f.inputs[i]);
      ok = p[i] >= 0 && !drop[p[i]] && idx.internal(f.inputs[i]);
      if (!ok) break;
      const Node& m = g.nodes[p[i]];
      ok = m.opType == "FusedMatMul" && m.domain == kInternalDomain && m.inputs.size() >= 2 && m.inputs.size() <= 3 &&
           m.attrString("activation", "").empty() && m.attrInt("transB", 0) == 0 &&
           m.inputs[0] == g.nodes[p[0]].inputs[0];
      if (!ok) break;
      w[i] = constant(g, idx, m.inputs[1]);
      b[i] = m.inputs.size() > 2 && !m.inputs[2].empty() ? constant(g, idx, m.inputs[2]) : nullptr;
      ok = w[i] && w[i]->dtype() == DataType::kFloat && w[i]->rank() == 2 && w[i]->dim(1) % heads == 0 &&
           (m.inputs.size() < 3 || m.inputs[2].empty() || (b[i] && b[i]->dtype() == DataType::kFloat &&
                                                          b[i]->numel() == w[i]->dim(1)));
    }
    if (!ok || w[0]->dim(0) != w[1]->dim(0) || w[0]->dim(0) != w[2]->dim(0) || w[0]->dim(1) != w[1]->dim(1) ||
        w[0]->dim(1) != w[2]->dim(1))
      continue;
    const int64_t K = w[0]->dim(0), N = w[0]->dim(1);
    Tensor W(DataType::kFloat, {K, 3 * N}), B(DataType::kFloat, {3 * N});
    for (int i = 0; i < 3; ++i) {
      for (int64_t k = 0; k < K; ++k)
        std::copy(w[i]->data<float>() + k * N, w[i]->data<float>() + (k + 1) * N, W.data<float>() + k * 3 * N + i * N);
      for (int64_t j = 0; j < N; ++j) B.data<float>()[i * N + j] = b[i] ? b[i]->data<float>()[j] : 0.f;
    }
    // The three weights (and biases) go now, not with the nodes at the end:
    // BERT-base's twelve concatenations would otherwise sit beside their
    // sources, 85 MB on the session's peak memory.
    for (int i = 0; i < 3; ++i)
      for (size_t in = 1; in < g.nodes[p[i]].inputs.size(); ++in) {
        const std::string& name = g.nodes[p[i]].inputs[in];
        const bool input = std::any_of(g.inputs.begin(), g.inputs.end(), [&](const ValueInfo& v) { return v.name == name; });
        if (!name.empty() && idx.readers(name) == 1 && !idx.isGraphOutput(name) && !input) g.initializers.erase(name);
      }
    Node& q = g.nodes[p[0]];
    std::string base = (q.name.empty() ? q.outputs[0] : q.name) + "_qkv";
    for (int k = 1; g.initializers.count(base + ".W") || g.findValue(base); ++k) base += "_" + std::to_string(k);
    g.initializers[base + ".W"] = std::move(W);
    g.initializers[base + ".B"] = std::move(B);
    q.inputs = {q.inputs[0], base + ".W", base + ".B"};
    q.outputs = {base};
    q.name = base;
    drop[p[1]] = drop[p[2]] = true;
    f.inputs[0] = f.inputs[1] = f.inputs[2] = base;
    f.attributes.push_back(intAttr("head_size", N / heads));
    f.attributes.push_back(intsAttr("offsets", {0, N, 2 * N}));
    ++n;
  }
  if (n) removeNodes(g, drop);
  return n;
}

int fuseAttention(ir::Graph& g, const PassContext&) {
  if (!anyOp(g, {"MatMul"})) return 0;
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
    absorbSeqFirstHeads(g);
  }
  return fused;
}

}  // namespace oinfer::passes
