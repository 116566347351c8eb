#include "shape/linalg.h"

#include <string>

namespace oinfer::shape {

namespace {

std::string describeInput(const InferContext& ctx, size_t i) {
  return "input " + std::to_string(i) + " ('" + ctx.node().inputs[i] + "')";
}

}  // namespace

void inferGemm(InferContext& ctx) {
  const DataType dt = ctx.inputType(0);
  if (!ctx.hasShape(0) || !ctx.hasShape(1)) {
    ctx.setOutput(0, dt, {ctx.freshDim(), ctx.freshDim()});
    return;
  }
  const Shape& a = ctx.inputShape(0);
  const Shape& b = ctx.inputShape(1);
  for (size_t i = 0; i < 2; ++i) {
    const Shape& s = i == 0 ? a : b;
    if (s.size() != 2)
      ctx.fail(describeInput(ctx, i) + " must be 2-d, got shape " + shapeToString(s));
  }
  const bool transA = ctx.node().attrInt("transA", 0) != 0;
  const bool transB = ctx.node().attrInt("transB", 0) != 0;
  const Dim m = a[transA ? 1 : 0], ka = a[transA ? 0 : 1];
  const Dim kb = b[transB ? 1 : 0], n = b[transB ? 0 : 1];
  if (ka.isStatic() && kb.isStatic() && ka.value != kb.value)
    ctx.fail("inner dimensions differ: " + describeInput(ctx, 0) + " has shape " + shapeToString(a) +
             (transA ? " (transposed)" : "") + ", " + describeInput(ctx, 1) + " has shape " +
             shapeToString(b) + (transB ? " (transposed)" : ""));
  if (ctx.hasShape(2)) {
    // C broadcasts one way only, onto [M, N].
    const Shape& c = ctx.inputShape(2);
    const Shape target{m, n};
    bool ok = c.size() <= 2;
    for (size_t k = 0; ok && k < c.size(); ++k) {
      const Dim& cd = c[c.size() - 1 - k];
      const Dim& td = target[1 - k];
      if (cd.isStatic() && cd.value != 1 && td.isStatic() && cd.value != td.value) ok = false;
    }
    if (!ok)
      ctx.fail(describeInput(ctx, 2) + " of shape " + shapeToString(c) +
               " cannot be broadcast to the output shape " + shapeToString(target));
  }
  ctx.setOutput(0, dt, {m, n});
}

Shape matmulShape(InferContext& ctx, const Shape& a, const Shape& b) {
  if (a.empty() || b.empty())
    ctx.fail("MatMul operands must have rank >= 1, got " + describeInput(ctx, 0) + " " +
             shapeToString(a) + " and " + describeInput(ctx, 1) + " " + shapeToString(b));
  const Dim& ka = a.back();
  const Dim& kb = b.size() == 1 ? b[0] : b[b.size() - 2];
  if (ka.isStatic() && kb.isStatic() && ka.value != kb.value)
    ctx.fail("inner dimensions differ: " + describeInput(ctx, 0) + " has shape " + shapeToString(a) +
             ", " + describeInput(ctx, 1) + " has shape " + shapeToString(b) + " (" +
             std::to_string(ka.value) + " vs " + std::to_string(kb.value) + ")");
  const Shape batchA(a.begin(), a.end() - std::min<size_t>(a.size(), 2));
  const Shape batchB(b.begin(), b.end() - std::min<size_t>(b.size(), 2));
  Shape out = broadcast(ctx, batchA, batchB);
  if (a.size() >= 2) out.push_back(a[a.size() - 2]);
  if (b.size() >= 2) out.push_back(b.back());
  return out;
}

void inferMatMul(InferContext& ctx) {
  const DataType dt = ctx.inputType(0);
  if (!ctx.hasShape(0) || !ctx.hasShape(1)) {
    ctx.setOutputUnknownShape(0, dt);
    return;
  }
  ctx.setOutput(0, dt, matmulShape(ctx, ctx.inputShape(0), ctx.inputShape(1)));
}

}  // namespace oinfer::shape
