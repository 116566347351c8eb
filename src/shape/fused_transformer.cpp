#include "shape/fused_transformer.h"

namespace oinfer::shape {

namespace {

std::string describe(const InferContext& ctx, size_t i) {
  return "input " + std::to_string(i) + " ('" + ctx.node().inputs[i] + "')";
}

bool compatible(const Dim& a, const Dim& b) { return !a.isStatic() || !b.isStatic() || a.value == b.value; }

}  // namespace

void inferFusedMatMul(InferContext& ctx) {
  const DataType t = ctx.inputType(0);
  if (!ctx.hasShape(0) || !ctx.hasShape(1)) {
    ctx.setOutputUnknownShape(0, t);
    return;
  }
  const Shape& a = ctx.inputShape(0);
  const Shape& b = ctx.inputShape(1);
  if (b.size() != 2) ctx.fail(describe(ctx, 1) + " must be 2-d, got " + shapeToString(b));
  const bool transB = ctx.node().attrInt("transB", 0) != 0;
  const Dim& k = b[transB ? 1 : 0];
  const Dim& n = b[transB ? 0 : 1];
  if (a.empty() || !compatible(a.back(), k))
    ctx.fail("inner dimensions differ: " + describe(ctx, 0) + " has shape " + shapeToString(a) + ", " +
             describe(ctx, 1) + " has shape " + shapeToString(b));
  if (ctx.hasShape(2)) {
    const Shape& bias = ctx.inputShape(2);
    if (bias.size() != 1 || !compatible(bias[0], n))
      ctx.fail(describe(ctx, 2) + " has shape " + shapeToString(bias) + ", expected [" + n.toString() + "]");
  }
  Shape out(a.begin(), a.end() - 1);
  out.push_back(n);
  ctx.setOutput(0, t, out);
}

void inferFusedLayerNorm(InferContext& ctx) {
  propagateUnary(ctx);
  if (ctx.numOutputs() > 1) ctx.setOutputInfo(1, ctx.input(0));
  if (!ctx.hasShape(0)) return;
  const Shape& x = ctx.inputShape(0);
  if (x.empty()) ctx.fail(describe(ctx, 0) + " must have rank >= 1");
  for (size_t i = 1; i < 3; ++i) {
    if (!ctx.hasShape(i)) continue;
    const Shape& s = ctx.inputShape(i);
    if (s.size() != 1 || !compatible(s[0], x.back()))
      ctx.fail(describe(ctx, i) + " has shape " + shapeToString(s) + ", expected [" + x.back().toString() +
               "] for input 0 of shape " + shapeToString(x));
  }
  if (ctx.hasShape(3)) {
    const Shape& s = ctx.inputShape(3);
    bool ok = s.size() == x.size();
    for (size_t k = 0; ok && k < s.size(); ++k) ok = compatible(s[k], x[k]);
    if (!ok) ctx.fail(describe(ctx, 3) + " has shape " + shapeToString(s) + ", expected input 0's " + shapeToString(x));
  }
}

void inferFusedAttention(InferContext& ctx) {
  const DataType t = ctx.inputType(0);
  if (!ctx.hasShape(0) || !ctx.hasShape(1) || !ctx.hasShape(2)) {
    ctx.setOutputUnknownShape(0, t);
    return;
  }
  const Shape& q = ctx.inputShape(0);
  const Shape& k = ctx.inputShape(1);
  const Shape& v = ctx.inputShape(2);
  if (ctx.node().attrInt("seq_first", 0) != 0) {
    // Q [S, B, Wq], K [T, B, Wk], V [T, B, Wv] holding num_heads heads of
    // head_size at column offsets -> [S, B, H, head_size].
    const int64_t H = ctx.node().attrInt("num_heads", 0), D = ctx.node().attrInt("head_size", 0);
    if (H <= 0 || D <= 0 || q.size() != 3 || k.size() != 3 || v.size() != 3 || !compatible(q[1], k[1]) ||
        !compatible(q[1], v[1]) || !compatible(k[0], v[0]))
      ctx.fail("seq_first: Q " + shapeToString(q) + ", K " + shapeToString(k) + " and V " + shapeToString(v) +
               " are not [S, B, W], [T, B, W], [T, B, W], or num_heads / head_size are not positive");
    ctx.setOutput(0, t, Shape{q[0], q[1], Dim(H), Dim(D)});
    return;
  }
  if (ctx.node().attrInt("num_heads", 0) > 0 && !ctx.node().attrInts("offsets", {}).empty()) {
    // Q [B, S, Wq], K [B, T, Wk], V [B, T, Wv] holding the heads at column
    // offsets -> [B, S, H * head_size].
    const int64_t H = ctx.node().attrInt("num_heads", 0), D = ctx.node().attrInt("head_size", 0);
    if (D <= 0 || q.size() != 3 || k.size() != 3 || v.size() != 3 || !compatible(q[0], k[0]) ||
        !compatible(q[0], v[0]) || !compatible(k[1], v[1]))
      ctx.fail("offsets: Q " + shapeToString(q) + ", K " + shapeToString(k) + " and V " + shapeToString(v) +
               " are not [B, S, W], [B, T, W], [B, T, W], or head_size is not positive");
    ctx.setOutput(0, t, Shape{q[0], q[1], Dim(H * D)});
    return;
  }
  if (ctx.node().attrInt("num_heads", 0) > 0) {
    // Q [B, S, H*D], K [B, T, H*D], V [B, T, H*E] -> [B, S, H*E].
    if (q.size() != 3 || k.size() != 3 || v.size() != 3 || !compatible(q[0], k[0]) || !compatible(q[0], v[0]) ||
        !compatible(q[2], k[2]) || !compatible(k[1], v[1]))
      ctx.fail("Q " + shapeToString(q) + ", K " + shapeToString(k) + " and V " + shapeToString(v) +
               " are not [B, S, H*D], [B, T, H*D], [B, T, H*E]");
    ctx.setOutput(0, t, Shape{q[0], q[1], v[2]});
    return;
  }
  if (q.size() < 2 || k.size() != q.size() || v.size() != q.size())
    ctx.fail("inputs 0..2 must share a rank >= 2, got " + shapeToString(q) + ", " + shapeToString(k) + ", " +
             shapeToString(v));
  const size_t r = q.size();
  bool ok = compatible(q[r - 1], k[r - 2]) && compatible(k[r - 1], v[r - 2]);
  for (size_t d = 0; ok && d + 2 < r; ++d) ok = compatible(q[d], k[d]) && compatible(q[d], v[d]);
  if (!ok)
    ctx.fail("Q " + shapeToString(q) + ", K^T " + shapeToString(k) + " and V " + shapeToString(v) +
             " do not chain as Q*K^T*V");
  Shape out(q.begin(), q.end() - 1);
  out.push_back(v.back());
  ctx.setOutput(0, t, out);
}

}  // namespace oinfer::shape
