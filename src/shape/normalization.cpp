#include "shape/normalization.h"

#include <string>

namespace oinfer::shape {

namespace {

std::string describeInput(const InferContext& ctx, size_t i) {
  return "input " + std::to_string(i) + " ('" + ctx.node().inputs[i] + "')";
}

// Checks that each of `inputs` is a 1-d tensor of `expected` elements when
// both are known.
void expectVector(InferContext& ctx, std::initializer_list<size_t> inputs, const Dim& expected,
                  const std::string& what) {
  for (size_t i : inputs) {
    if (!ctx.hasShape(i)) continue;
    const Shape& s = ctx.inputShape(i);
    const bool ok = s.size() == 1 && (!s[0].isStatic() || !expected.isStatic() || s[0].value == expected.value);
    if (!ok)
      ctx.fail(describeInput(ctx, i) + " has shape " + shapeToString(s) + ", expected [" + expected.toString() +
               "] (" + what + ") for input 0 of shape " + shapeToString(ctx.inputShape(0)));
  }
}

Dim channels(InferContext& ctx) {
  const Shape& x = ctx.inputShape(0);
  if (x.size() < 2) ctx.fail("input 0 ('" + ctx.node().inputs[0] + "') must have rank >= 2 (N, C, ...), got " + shapeToString(x));
  return x[1];
}

}  // namespace

void inferSameAsInput(InferContext& ctx) { propagateUnary(ctx); }

void inferBatchNorm(InferContext& ctx) {
  propagateUnary(ctx);
  if (!ctx.hasShape(0)) return;
  const Dim c = channels(ctx);
  // Before opset 9, spatial=0 gave per-activation statistics of shape [C, D1, ...].
  const bool spatial = ctx.opset() >= 9 || ctx.node().attrInt("spatial", 1) != 0;
  if (spatial) expectVector(ctx, {1, 2, 3, 4}, c, "one value per channel");
  const DataType statType = ctx.hasInput(3) ? ctx.inputType(3) : ctx.inputType(0);
  for (size_t o = 1; o < ctx.numOutputs(); ++o) ctx.setOutput(o, statType, {c});
}

void inferInstanceNorm(InferContext& ctx) {
  propagateUnary(ctx);
  if (!ctx.hasShape(0)) return;
  expectVector(ctx, {1, 2}, channels(ctx), "one value per channel");
}

void inferLayerNorm(InferContext& ctx) {
  propagateUnary(ctx);
  // LayerNormalization's Mean and InvStdDev: the input's leading dims, then 1s.
  const DataType stash = static_cast<DataType>(ctx.node().attrInt("stash_type", 1));
  if (!ctx.hasShape(0)) {
    for (size_t o = 1; o < ctx.numOutputs(); ++o) ctx.setOutputUnknownShape(o, stash);
    return;
  }
  const Shape& x = ctx.inputShape(0);
  const int64_t rank = static_cast<int64_t>(x.size());
  const int64_t axis = normalizeAxis(ctx, ctx.node().attrInt("axis", -1), rank);
  const Shape tail(x.begin() + axis, x.end());
  for (size_t i = 1; i < 3; ++i) {
    if (!ctx.hasShape(i)) continue;
    // Scale and bias broadcast one way onto x.shape[axis:].
    const Shape& s = ctx.inputShape(i);
    bool ok = s.size() <= tail.size();
    for (size_t k = 0; ok && k < s.size(); ++k) {
      const Dim& sd = s[s.size() - 1 - k];
      const Dim& td = tail[tail.size() - 1 - k];
      ok = !sd.isStatic() || sd.value == 1 || !td.isStatic() || sd.value == td.value;
    }
    if (!ok)
      ctx.fail(describeInput(ctx, i) + " of shape " + shapeToString(s) +
               " cannot be broadcast to the normalized shape " + shapeToString(tail) + " of input 0 " +
               shapeToString(x));
  }
  Shape stats(x.begin(), x.begin() + axis);
  stats.resize(x.size(), Dim(1));
  for (size_t o = 1; o < ctx.numOutputs(); ++o) ctx.setOutput(o, stash, stats);
}

void inferGroupNorm(InferContext& ctx) {
  propagateUnary(ctx);
  if (!ctx.hasShape(0)) return;
  const Dim c = channels(ctx);
  const int64_t groups = ctx.node().attrInt("num_groups", 0);
  if (groups <= 0) ctx.fail(ErrorCode::kInvalidModel, "num_groups must be positive, got " + std::to_string(groups));
  if (c.isStatic() && c.value % groups != 0)
    ctx.fail("the channel count " + std::to_string(c.value) + " of input 0 " + shapeToString(ctx.inputShape(0)) +
             " is not divisible by num_groups " + std::to_string(groups));
  // Opset 21 changed scale and bias from one value per group to one per channel.
  if (ctx.opset() >= 21)
    expectVector(ctx, {1, 2}, c, "one value per channel");
  else
    expectVector(ctx, {1, 2}, Dim(groups), "one value per group");
}

}  // namespace oinfer::shape
