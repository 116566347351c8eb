#include "shape/pool.h"

#include "shape/conv.h"

namespace oinfer::shape {

namespace {

void checkRank(InferContext& ctx, const Shape& x) {
  if (x.size() < 3)
    ctx.fail("input 0 ('" + ctx.node().inputs[0] + "') has shape " + shapeToString(x) +
             ", expected rank >= 3 (N, C, spatial...)");
}

}  // namespace

void inferPool(InferContext& ctx) {
  const Shape& x = ctx.inputShape(0);
  checkRank(ctx, x);
  const size_t nd = x.size() - 2;
  const WindowAttrs a = parseWindowAttrs(ctx.node(), nd, true);
  Shape out{x[0], x[1]};
  for (const Dim& d : windowOutputDims(ctx, a, Shape(x.begin() + 2, x.end()), a.kernel)) out.push_back(d);
  ctx.setOutput(0, ctx.inputType(0), out);
  // MaxPool's optional Indices.
  if (ctx.numOutputs() > 1) ctx.setOutput(1, DataType::kInt64, out);
}

void inferGlobalPool(InferContext& ctx) {
  const Shape& x = ctx.inputShape(0);
  checkRank(ctx, x);
  Shape out{x[0], x[1]};
  out.resize(x.size(), Dim(1));
  ctx.setOutput(0, ctx.inputType(0), out);
}

}  // namespace oinfer::shape
