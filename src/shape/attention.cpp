#include "shape/attention.h"

#include <string>

namespace oinfer::shape {

namespace {

std::string describeInput(const InferContext& ctx, size_t i) {
  return "input " + std::to_string(i) + " ('" + ctx.node().inputs[i] + "')";
}

Dim add(InferContext& ctx, const Dim& a, const Dim& b) {
  if (a.isStatic() && b.isStatic()) return a.value + b.value;
  if (a.isStatic() && a.value == 0) return b;
  if (b.isStatic() && b.value == 0) return a;
  return ctx.freshDim();
}

// hidden / heads * factor, when hidden is static; else a fresh symbol (or
// hidden itself when the two factors cancel).
Dim scaleHidden(InferContext& ctx, const Dim& hidden, int64_t heads, int64_t factor, size_t input) {
  if (heads == factor) return hidden;
  if (!hidden.isStatic()) return ctx.freshDim();
  if (heads <= 0 || hidden.value % heads != 0)
    ctx.fail(describeInput(ctx, input) + " hidden size " + hidden.toString() + " is not divisible by the head count " +
             std::to_string(heads));
  return hidden.value / heads * factor;
}

}  // namespace

void inferAttention(InferContext& ctx) {
  const DataType dtype = ctx.inputType(0);
  for (size_t i : {size_t(1), size_t(2)})
    if (ctx.hasInput(i) && ctx.inputType(i) != dtype)
      ctx.fail(describeInput(ctx, i) + " has type " + dataTypeName(ctx.inputType(i)) + ", expected " +
               dataTypeName(dtype) + " like input 0");
  if (ctx.hasInput(4) != ctx.hasInput(5)) ctx.fail("past_key and past_value must be given together");
  if (!ctx.hasShape(0) || !ctx.hasShape(1) || !ctx.hasShape(2)) {
    for (size_t o = 0; o < 4; ++o) ctx.setOutputUnknownShape(o, dtype);
    return;
  }
  const Shape& q = ctx.inputShape(0);
  const Shape& k = ctx.inputShape(1);
  const Shape& v = ctx.inputShape(2);
  const size_t rank = q.size();
  if ((rank != 3 && rank != 4) || k.size() != rank || v.size() != rank)
    ctx.fail("Q, K and V must all be 3-d or all 4-d, got " + shapeToString(q) + ", " + shapeToString(k) + ", " +
             shapeToString(v));
  Dim b = q[0], qHeads, qSeq = q[rank - 2], kvHeads, kvSeq = k[rank - 2], headK, headV;
  if (rank == 4) {
    qHeads = q[1];
    kvHeads = k[1];
    headK = k[3];
    headV = v[3];
  } else {
    const int64_t qn = ctx.node().attrInt("q_num_heads", 0), kvn = ctx.node().attrInt("kv_num_heads", 0);
    if (qn <= 0 || kvn <= 0) ctx.fail("3-d Q, K and V need positive q_num_heads and kv_num_heads attributes");
    qHeads = qn;
    kvHeads = kvn;
    headK = scaleHidden(ctx, k[2], kvn, 1, 1);
    headV = scaleHidden(ctx, v[2], kvn, 1, 2);
    scaleHidden(ctx, q[2], qn, 1, 0);
  }
  Dim total = kvSeq;
  if (ctx.hasShape(4)) {
    const Shape& pk = ctx.inputShape(4);
    if (pk.size() != 4)
      ctx.fail(describeInput(ctx, 4) + " must be 4-d [B, kv_heads, past_seq, head_size], got " + shapeToString(pk));
    total = add(ctx, pk[2], kvSeq);
  }
  Shape y;
  if (rank == 4) y = {b, qHeads, qSeq, headV};
  else y = {b, qSeq, scaleHidden(ctx, v[2], kvHeads.value, qHeads.value, 2)};
  ctx.setOutput(0, dtype, y);
  ctx.setOutput(1, dtype, {b, kvHeads, total, headK});
  ctx.setOutput(2, dtype, {b, kvHeads, total, headV});
  ctx.setOutput(3, dtype, {b, qHeads, qSeq, total});
}

void inferRotaryEmbedding(InferContext& ctx) {
  if (ctx.hasShape(0)) {
    const size_t rank = ctx.inputShape(0).size();
    if (rank != 3 && rank != 4)
      ctx.fail(describeInput(ctx, 0) + " must be 3-d or 4-d, got " + shapeToString(ctx.inputShape(0)));
    if (rank == 3 && ctx.node().attrInt("num_heads", 0) <= 0)
      ctx.fail("a 3-d input 0 needs a positive num_heads attribute");
  }
  propagateUnary(ctx);
}

}  // namespace oinfer::shape
