#include "shape/decoding.h"

#include <string>

namespace oinfer::shape {

namespace {

std::string describeInput(const InferContext& ctx, size_t i) {
  return "input " + std::to_string(i) + " ('" + ctx.node().inputs[i] + "')";
}

void requireType(InferContext& ctx, size_t i, DataType expected, size_t like) {
  if (ctx.hasInput(i) && ctx.inputType(i) != expected)
    ctx.fail(ErrorCode::kTypeMismatch, describeInput(ctx, i) + " has type " + dataTypeName(ctx.inputType(i)) +
                                           ", expected " + dataTypeName(expected) + " like input " +
                                           std::to_string(like));
}

// Input i's shape, or `rank` fresh dims when its shape is unknown; an Error
// when the rank is known and differs.
Shape shapeOrFresh(InferContext& ctx, size_t i, size_t rank, const char* layout) {
  if (!ctx.hasShape(i)) {
    Shape s;
    for (size_t d = 0; d < rank; ++d) s.push_back(ctx.freshDim());
    return s;
  }
  const Shape& s = ctx.inputShape(i);
  if (s.size() != rank)
    ctx.fail(describeInput(ctx, i) + " must be " + std::to_string(rank) + "-d " + layout + ", got " +
             shapeToString(s));
  return s;
}

// The better known of two dims that must be equal: an Error naming both
// inputs and their shapes when both are static and differ.
Dim unify(InferContext& ctx, const Dim& a, const Dim& b, size_t ia, size_t ib, const std::string& what) {
  if (a.isStatic() && b.isStatic() && a.value != b.value)
    ctx.fail(what + " of " + describeInput(ctx, ia) + " with shape " + shapeToString(ctx.inputShape(ia)) +
             " does not match " + describeInput(ctx, ib) + " with shape " + shapeToString(ctx.inputShape(ib)));
  return a.isStatic() ? a : b;
}

// hidden / heads when hidden is static (an Error when not divisible), else
// unknown (value -1).
int64_t perHead(InferContext& ctx, const Dim& hidden, int64_t heads, size_t input) {
  if (!hidden.isStatic()) return -1;
  if (hidden.value % heads != 0)
    ctx.fail(describeInput(ctx, input) + " last dim " + std::to_string(hidden.value) +
             " is not divisible by the head count " + std::to_string(heads));
  return hidden.value / heads;
}

}  // namespace

void inferLinearAttention(InferContext& ctx) {
  const Node& n = ctx.node();
  const DataType dtype = ctx.inputType(0);
  for (size_t i : {size_t(1), size_t(2), size_t(4), size_t(5)}) requireType(ctx, i, dtype, 0);
  const DataType stateType = ctx.hasInput(3) ? ctx.inputType(3) : dtype;

  const int64_t hq = n.attrInt("q_num_heads", 0), hkv = n.attrInt("kv_num_heads", 0);
  if (!n.hasAttr("q_num_heads") || !n.hasAttr("kv_num_heads"))
    ctx.fail("the q_num_heads and kv_num_heads attributes are required");
  if (hq <= 0 || hkv <= 0 || hq % hkv != 0)
    ctx.fail("q_num_heads (" + std::to_string(hq) + ") must be a positive multiple of kv_num_heads (" +
             std::to_string(hkv) + ")");
  const std::string rule = n.attrString("update_rule", "gated_delta");
  if (rule != "linear" && rule != "gated" && rule != "delta" && rule != "gated_delta")
    ctx.fail("update_rule must be 'linear', 'gated', 'delta' or 'gated_delta', got '" + rule + "'");
  const bool gated = rule == "gated" || rule == "gated_delta", delta = rule == "delta" || rule == "gated_delta";
  if (gated != ctx.hasInput(4))
    ctx.fail("update_rule '" + rule + "' " + (gated ? "requires" : "forbids") + " the decay input (input 4)");
  if (delta != ctx.hasInput(5))
    ctx.fail("update_rule '" + rule + "' " + (delta ? "requires" : "forbids") + " the beta input (input 5)");

  const Shape q = shapeOrFresh(ctx, 0, 3, "[B, T, q_num_heads*d_k]");
  const Shape k = shapeOrFresh(ctx, 1, 3, "[B, T, kv_num_heads*d_k]");
  const Shape v = shapeOrFresh(ctx, 2, 3, "[B, T, kv_num_heads*d_v]");
  Dim b = q[0], t = q[1];
  if (ctx.hasShape(0) && ctx.hasShape(1)) {
    b = unify(ctx, b, k[0], 0, 1, "batch size");
    t = unify(ctx, t, k[1], 0, 1, "sequence length");
  }
  if (ctx.hasShape(0) && ctx.hasShape(2)) {
    b = unify(ctx, b, v[0], 0, 2, "batch size");
    t = unify(ctx, t, v[1], 0, 2, "sequence length");
  }
  int64_t dk = perHead(ctx, q[2], hq, 0);
  const int64_t dkKey = perHead(ctx, k[2], hkv, 1);
  if (dk >= 0 && dkKey >= 0 && dk != dkKey)
    ctx.fail("head size " + std::to_string(dkKey) + " of key " + describeInput(ctx, 1) + " with shape " +
             shapeToString(k) + " does not match head size " + std::to_string(dk) + " of query " +
             describeInput(ctx, 0) + " with shape " + shapeToString(q));
  if (dk < 0) dk = dkKey;
  int64_t dv = perHead(ctx, v[2], hkv, 2);

  Dim dkDim = dk >= 0 ? Dim(dk) : ctx.freshDim(), dvDim = dv >= 0 ? Dim(dv) : ctx.freshDim();
  if (ctx.hasShape(3)) {
    const Shape& p = ctx.inputShape(3);
    if (p.size() != 4)
      ctx.fail(describeInput(ctx, 3) + " must be 4-d [B, kv_num_heads, d_k, d_v], got " + shapeToString(p));
    const Shape want = {b, hkv, dkDim, dvDim};
    for (size_t d = 0; d < 4; ++d)
      if (p[d].isStatic() && want[d].isStatic() && p[d].value != want[d].value)
        ctx.fail(describeInput(ctx, 3) + " has shape " + shapeToString(p) + ", expected " + shapeToString(want) +
                 " from query " + shapeToString(q) + ", key " + shapeToString(k) + " and value " + shapeToString(v));
    if (!b.isStatic() && p[0].isStatic()) b = p[0];
    if (!dkDim.isStatic()) dkDim = p[2];
    if (!dvDim.isStatic()) dvDim = p[3];
  }
  if (ctx.hasShape(4)) {
    const Shape& g = ctx.inputShape(4);
    const Dim last = g.size() == 3 ? g[2] : Dim(-1);
    if (g.size() != 3 || (last.isStatic() && last.value != hkv && dkDim.isStatic() && last.value != hkv * dkDim.value))
      ctx.fail(describeInput(ctx, 4) + " has shape " + shapeToString(g) + ", expected [B, T, " + std::to_string(hkv) +
               "] or [B, T, " + std::to_string(hkv) + "*d_k] with query " + shapeToString(q));
  }
  if (ctx.hasShape(5)) {
    const Shape& be = ctx.inputShape(5);
    if (be.size() != 3 || (be[2].isStatic() && be[2].value != hkv && be[2].value != 1))
      ctx.fail(describeInput(ctx, 5) + " has shape " + shapeToString(be) + ", expected [B, T, " + std::to_string(hkv) +
               "] or [B, T, 1]");
  }

  Dim outLast = dvDim.isStatic() ? Dim(dvDim.value * hq) : (hq == hkv ? v[2] : ctx.freshDim());
  ctx.setOutput(0, dtype, {b, t, outLast});
  if (ctx.numOutputs() > 1) ctx.setOutput(1, stateType, {b, hkv, dkDim, dvDim});
}

void inferCausalConvWithState(InferContext& ctx) {
  const DataType dtype = ctx.inputType(0);
  for (size_t i : {size_t(1), size_t(2), size_t(3)}) requireType(ctx, i, dtype, 0);
  const std::string act = ctx.node().attrString("activation", "none");
  if (act != "none" && act != "silu" && act != "swish")
    ctx.fail("activation must be 'none', 'silu' or 'swish', got '" + act + "'");

  const Shape x = shapeOrFresh(ctx, 0, 3, "[batch_size, channels, length]");
  const Shape w = shapeOrFresh(ctx, 1, 3, "[channels, 1, k]");
  Dim b = x[0], c = x[1];
  if (ctx.hasShape(0) && ctx.hasShape(1)) c = unify(ctx, c, w[0], 0, 1, "channel count");
  if (w[1].isStatic() && w[1].value != 1)
    ctx.fail(describeInput(ctx, 1) + " must be [channels, 1, k], got " + shapeToString(w));
  Dim carry = w[2].isStatic() ? Dim(w[2].value - 1) : ctx.freshDim();
  if (w[2].isStatic() && w[2].value < 1)
    ctx.fail(describeInput(ctx, 1) + " must have a kernel size of at least 1, got " + shapeToString(w));
  if (ctx.hasShape(2)) {
    const Shape& bias = ctx.inputShape(2);
    if (bias.size() != 1 || (bias[0].isStatic() && c.isStatic() && bias[0].value != c.value))
      ctx.fail(describeInput(ctx, 2) + " has shape " + shapeToString(bias) + ", expected [" + c.toString() +
               "] for weight " + shapeToString(w));
  }
  if (ctx.hasShape(3)) {
    const Shape& p = ctx.inputShape(3);
    const Shape want = {b, c, carry};
    bool ok = p.size() == 3;
    for (size_t d = 0; ok && d < 3; ++d) ok = !p[d].isStatic() || !want[d].isStatic() || p[d].value == want[d].value;
    if (!ok)
      ctx.fail(describeInput(ctx, 3) + " has shape " + shapeToString(p) + ", expected " + shapeToString(want) +
               " from input " + shapeToString(x) + " and weight " + shapeToString(w));
    if (!b.isStatic() && p[0].isStatic()) b = p[0];
    if (!carry.isStatic()) carry = p[2];
  }
  Shape y = x;
  y[0] = b;
  y[1] = c;
  ctx.setOutput(0, dtype, y);
  if (ctx.numOutputs() > 1) ctx.setOutput(1, dtype, {b, c, carry});
}

void inferTensorScatter(InferContext& ctx) {
  const DataType dtype = ctx.inputType(0);
  requireType(ctx, 1, dtype, 0);
  if (ctx.hasInput(2) && ctx.inputType(2) != DataType::kInt64)
    ctx.fail(ErrorCode::kTypeMismatch, describeInput(ctx, 2) + " must be int64, got " +
                                           dataTypeName(ctx.inputType(2)));
  const std::string mode = ctx.node().attrString("mode", "linear");
  if (mode != "linear" && mode != "circular") ctx.fail("mode must be 'linear' or 'circular', got '" + mode + "'");
  if (!ctx.hasShape(0)) {
    if (ctx.hasShape(1)) {
      Shape s = ctx.inputShape(1);
      const int64_t axis = normalizeAxis(ctx, ctx.node().attrInt("axis", -2), static_cast<int64_t>(s.size()));
      s[axis] = ctx.freshDim();
      ctx.setOutput(0, dtype, s);
    } else {
      ctx.setOutputUnknownShape(0, dtype);
    }
    return;
  }
  const Shape& past = ctx.inputShape(0);
  const int64_t rank = static_cast<int64_t>(past.size());
  const int64_t axis = normalizeAxis(ctx, ctx.node().attrInt("axis", -2), rank);
  if (axis == 0) ctx.fail("axis must not be 0 (the batch dimension)");
  if (ctx.hasShape(1)) {
    const Shape& upd = ctx.inputShape(1);
    bool ok = static_cast<int64_t>(upd.size()) == rank;
    for (int64_t d = 0; ok && d < rank; ++d) {
      if (!past[d].isStatic() || !upd[d].isStatic()) continue;
      ok = d == axis ? upd[d].value <= past[d].value : upd[d].value == past[d].value;
    }
    if (!ok)
      ctx.fail("update (input 1 '" + ctx.node().inputs[1] + "') of shape " + shapeToString(upd) +
               " does not match past_cache (input 0 '" + ctx.node().inputs[0] + "') of shape " + shapeToString(past) +
               " outside axis " + std::to_string(axis) + ", or is longer along it");
  }
  if (ctx.hasShape(2)) {
    const Shape& wi = ctx.inputShape(2);
    if (wi.size() != 1 || (wi[0].isStatic() && past[0].isStatic() && wi[0].value != past[0].value))
      ctx.fail(describeInput(ctx, 2) + " has shape " + shapeToString(wi) + ", expected [" + past[0].toString() +
               "] for past_cache of shape " + shapeToString(past));
  }
  ctx.setOutput(0, dtype, past);
}

}  // namespace oinfer::shape
