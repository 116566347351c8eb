#include "shape/loss.h"

#include <string>

namespace oinfer::shape {

namespace {

std::string describeInput(const InferContext& ctx, size_t i) {
  return "input " + std::to_string(i) + " ('" + ctx.node().inputs[i] + "')";
}

bool compatible(const Dim& a, const Dim& b) { return !a.isStatic() || !b.isStatic() || a.value == b.value; }

}  // namespace

void inferLoss(InferContext& ctx) {
  const DataType dtype = ctx.inputType(0);
  const std::string reduction = ctx.node().attrString("reduction", "mean");
  if (reduction != "none" && reduction != "sum" && reduction != "mean")
    ctx.fail("reduction must be 'none', 'sum' or 'mean', got '" + reduction + "'");
  if (ctx.hasShape(0)) {
    const Shape& x = ctx.inputShape(0);
    if (x.size() < 2) ctx.fail(describeInput(ctx, 0) + " must have rank >= 2 (N, C, ...), got " + shapeToString(x));
    if (ctx.hasShape(1)) {
      const Shape& t = ctx.inputShape(1);
      bool ok = t.size() + 1 == x.size() && compatible(t[0], x[0]);
      for (size_t i = 1; ok && i < t.size(); ++i) ok = compatible(t[i], x[i + 1]);
      if (!ok)
        ctx.fail(describeInput(ctx, 1) + " has shape " + shapeToString(t) + ", expected [N, d1..dk] for " +
                 describeInput(ctx, 0) + " of shape " + shapeToString(x));
    }
    if (ctx.hasShape(2)) {
      const Shape& w = ctx.inputShape(2);
      if (w.size() != 1 || !compatible(w[0], x[1]))
        ctx.fail(describeInput(ctx, 2) + " has shape " + shapeToString(w) + ", expected [C] = [" + x[1].toString() +
                 "] for " + describeInput(ctx, 0) + " of shape " + shapeToString(x));
    }
  }
  if (reduction != "none") {
    ctx.setOutput(0, dtype, {});
  } else if (ctx.hasShape(1)) {
    ctx.setOutput(0, dtype, ctx.inputShape(1));
  } else if (ctx.hasShape(0)) {
    Shape s = ctx.inputShape(0);
    s.erase(s.begin() + 1);
    ctx.setOutput(0, dtype, s);
  } else {
    ctx.setOutputUnknownShape(0, dtype);
  }
  if (ctx.numOutputs() > 1) {
    if (ctx.hasShape(0)) ctx.setOutput(1, dtype, ctx.inputShape(0));
    else ctx.setOutputUnknownShape(1, dtype);
  }
}

}  // namespace oinfer::shape
