#include "shape/image.h"

#include <string>

namespace oinfer::shape {

namespace {

std::string idx(const InferContext& ctx, size_t i) {
  const auto& ins = ctx.node().inputs;
  return "input " + std::to_string(i) + " ('" + (i < ins.size() ? ins[i] : std::string()) + "')";
}

}  // namespace

void inferGridSample(InferContext& ctx) {
  const DataType dt = ctx.inputType(0);
  if (!ctx.hasShape(0) || !ctx.hasShape(1)) {
    ctx.setOutputUnknownShape(0, dt);
    return;
  }
  const Shape& x = ctx.inputShape(0);
  const Shape& g = ctx.inputShape(1);
  if (x.size() < 3 || g.size() != x.size())
    ctx.fail(idx(ctx, 0) + " shape " + shapeToString(x) + " and grid " + idx(ctx, 1) + " shape " +
             shapeToString(g) + " must have the same rank >= 3");
  if (ctx.opset() < 20 && x.size() != 4)
    ctx.fail(idx(ctx, 0) + " shape " + shapeToString(x) + " must be 4-d before opset 20");
  const int64_t sp = static_cast<int64_t>(x.size()) - 2;
  if (g.back().isStatic() && g.back().value != sp)
    ctx.fail("grid " + idx(ctx, 1) + " shape " + shapeToString(g) + " must end in " + std::to_string(sp) +
             " for input 0 shape " + shapeToString(x));
  Shape out = {x[0].isStatic() || !g[0].isStatic() ? x[0] : g[0], x[1]};
  for (size_t d = 1; d + 1 < g.size(); ++d) out.push_back(g[d]);
  ctx.setOutput(0, dt, out);
}

void inferAffineGrid(InferContext& ctx) {
  const DataType dt = ctx.inputType(0);
  const auto* size = ctx.inputSymbolicValue(1);
  if (!size) {
    if (ctx.hasShape(1) && ctx.inputShape(1).size() == 1 && ctx.inputShape(1)[0].isStatic()) {
      const int64_t n = ctx.inputShape(1)[0].value;
      if (n != 4 && n != 5) ctx.fail("size " + idx(ctx, 1) + " must hold 4 or 5 values");
      Shape out;
      for (int64_t d = 0; d < n - 1; ++d) out.push_back(ctx.freshDim());
      out.push_back(Dim(n - 2));
      ctx.setOutput(0, dt, out);
      return;
    }
    ctx.setOutputUnknownShape(0, dt);
    return;
  }
  if (size->size() != 4 && size->size() != 5)
    ctx.fail("size " + idx(ctx, 1) + " must hold 4 or 5 values, got " + std::to_string(size->size()));
  Shape out = {(*size)[0]};
  for (size_t d = 2; d < size->size(); ++d) out.push_back((*size)[d]);
  out.push_back(Dim(static_cast<int64_t>(size->size()) - 2));
  ctx.setOutput(0, dt, out);
}

void inferCol2Im(InferContext& ctx) {
  const DataType dt = ctx.inputType(0);
  const auto* image = ctx.inputSymbolicValue(1);
  const Tensor* block = ctx.inputValue(2);
  Dim n = ctx.freshDim(), c = ctx.freshDim();
  if (ctx.hasShape(0)) {
    const Shape& x = ctx.inputShape(0);
    if (x.size() != 3) ctx.fail(idx(ctx, 0) + " must be 3-d, got shape " + shapeToString(x));
    n = x[0];
    if (block && x[1].isStatic()) {
      int64_t k = 1;
      for (int64_t v : block->toInt64Vector()) k *= v;
      if (k <= 0 || x[1].value % k != 0)
        ctx.fail(idx(ctx, 0) + " shape " + shapeToString(x) + ": dim 1 is not a multiple of the block size " +
                 std::to_string(k));
      c = Dim(x[1].value / k);
    }
  }
  if (!image) {
    if (ctx.hasShape(1) && ctx.inputShape(1).size() == 1 && ctx.inputShape(1)[0].isStatic()) {
      Shape out = {n, c};
      for (int64_t d = 0; d < ctx.inputShape(1)[0].value; ++d) out.push_back(ctx.freshDim());
      ctx.setOutput(0, dt, out);
    } else {
      ctx.setOutputUnknownShape(0, dt);
    }
    return;
  }
  Shape out = {n, c};
  out.insert(out.end(), image->begin(), image->end());
  ctx.setOutput(0, dt, out);
}

void inferRoiAlign(InferContext& ctx) {
  const DataType dt = ctx.inputType(0);
  Dim r = ctx.freshDim(), c = ctx.freshDim();
  if (ctx.hasShape(1)) {
    const Shape& rois = ctx.inputShape(1);
    if (rois.size() != 2 || (rois[1].isStatic() && rois[1].value != 4))
      ctx.fail("rois " + idx(ctx, 1) + " must be [num_rois,4], got shape " + shapeToString(rois));
    r = rois[0];
  } else if (ctx.hasShape(2) && ctx.inputShape(2).size() == 1) {
    r = ctx.inputShape(2)[0];
  }
  if (ctx.hasShape(0)) {
    const Shape& x = ctx.inputShape(0);
    if (x.size() != 4) ctx.fail(idx(ctx, 0) + " must be 4-d, got shape " + shapeToString(x));
    c = x[1];
  }
  ctx.setOutput(0, dt,
                {r, c, Dim(ctx.node().attrInt("output_height", 1)), Dim(ctx.node().attrInt("output_width", 1))});
}

void inferNonMaxSuppression(InferContext& ctx) {
  if (ctx.hasShape(0) && ctx.hasShape(1)) {
    const Shape& b = ctx.inputShape(0);
    const Shape& s = ctx.inputShape(1);
    if (b.size() != 3 || s.size() != 3)
      ctx.fail("boxes " + idx(ctx, 0) + " shape " + shapeToString(b) + " and scores " + idx(ctx, 1) + " shape " +
               shapeToString(s) + " must be 3-d");
    if ((b[2].isStatic() && b[2].value != 4) || (b[1].isStatic() && s[2].isStatic() && b[1] != s[2]))
      ctx.fail("boxes " + idx(ctx, 0) + " shape " + shapeToString(b) + " does not fit scores " + idx(ctx, 1) +
               " shape " + shapeToString(s));
  }
  ctx.setOutput(0, DataType::kInt64, {ctx.freshDim(), Dim(3)});
}

}  // namespace oinfer::shape
