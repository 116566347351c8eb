#include "shape/deform_conv.h"

#include <string>

#include "shape/conv.h"

namespace oinfer::shape {

namespace {

std::string idx(const InferContext& ctx, size_t i) {
  const auto& ins = ctx.node().inputs;
  return "input " + std::to_string(i) + " ('" + (i < ins.size() ? ins[i] : std::string()) + "')";
}

}  // namespace

void inferDeformConv(InferContext& ctx) {
  const DataType dt = ctx.inputType(0);
  for (size_t i = 1; i < ctx.numInputs(); ++i)
    if (ctx.hasInput(i) && ctx.inputType(i) != dt)
      ctx.fail(idx(ctx, i) + " has type " + dataTypeName(ctx.inputType(i)) + " but input 0 has " +
               dataTypeName(dt));
  if (!ctx.hasShape(0)) {
    ctx.setOutputUnknownShape(0, dt);
    return;
  }
  const Shape& x = ctx.inputShape(0);
  if (x.size() < 3) ctx.fail(idx(ctx, 0) + " must have rank >= 3, got shape " + shapeToString(x));
  const size_t nd = x.size() - 2;
  const WindowAttrs a = parseWindowAttrs(ctx.node(), nd, false);
  const int64_t group = ctx.node().attrInt("group", 1);
  const int64_t offsetGroup = ctx.node().attrInt("offset_group", 1);
  if (group < 1 || offsetGroup < 1)
    ctx.fail("group (" + std::to_string(group) + ") and offset_group (" + std::to_string(offsetGroup) +
             ") must be >= 1");

  Dim m = ctx.freshDim();
  std::vector<int64_t> kernel = a.kernel;
  if (kernel.empty()) kernel.assign(nd, -1);
  if (ctx.hasShape(1)) {
    const Shape& w = ctx.inputShape(1);
    if (w.size() != x.size())
      ctx.fail("W " + idx(ctx, 1) + " shape " + shapeToString(w) + " must have the rank of input 0 shape " +
               shapeToString(x));
    m = w[0];
    if (x[1].isStatic() && w[1].isStatic() && x[1].value != w[1].value * group)
      ctx.fail("W " + idx(ctx, 1) + " shape " + shapeToString(w) + " has " + std::to_string(w[1].value) +
               " input channels per group but input 0 shape " + shapeToString(x) + " has " +
               std::to_string(x[1].value) + " channels in " + std::to_string(group) + " groups");
    if (w[0].isStatic() && w[0].value % group != 0)
      ctx.fail("W " + idx(ctx, 1) + " shape " + shapeToString(w) + ": " + std::to_string(w[0].value) +
               " output channels do not split into " + std::to_string(group) + " groups");
    for (size_t d = 0; d < nd; ++d) {
      if (!w[2 + d].isStatic()) continue;
      if (kernel[d] >= 0 && kernel[d] != w[2 + d].value)
        ctx.fail("kernel_shape does not match W " + idx(ctx, 1) + " shape " + shapeToString(w));
      kernel[d] = w[2 + d].value;
    }
  }
  if (x[1].isStatic() && x[1].value % offsetGroup != 0)
    ctx.fail(idx(ctx, 0) + " shape " + shapeToString(x) + ": channels do not split into offset_group " +
             std::to_string(offsetGroup));

  Shape spatial;
  Shape inSpatial(x.begin() + 2, x.end());
  spatial = windowOutputDims(ctx, a, inSpatial, kernel);
  if (ctx.hasShape(2)) {
    const Shape& off = ctx.inputShape(2);
    if (off.size() != x.size())
      ctx.fail("offset " + idx(ctx, 2) + " shape " + shapeToString(off) + " must have the rank of input 0 shape " +
               shapeToString(x));
    bool kKnown = true;
    int64_t K = 1;
    for (int64_t k : kernel) kKnown &= k >= 0, K *= k;
    if (kKnown && off[1].isStatic() && off[1].value != offsetGroup * K * static_cast<int64_t>(nd))
      ctx.fail("offset " + idx(ctx, 2) + " shape " + shapeToString(off) + " must have offset_group * kernel size * " +
               std::to_string(nd) + " = " + std::to_string(offsetGroup * K * static_cast<int64_t>(nd)) +
               " channels");
    for (size_t d = 0; d < nd; ++d) {
      const Dim& o = off[2 + d];
      if (spatial[d].isStatic() && o.isStatic() && spatial[d].value != o.value)
        ctx.fail("offset " + idx(ctx, 2) + " shape " + shapeToString(off) + " does not match the output size " +
                 shapeToString(spatial) + " of input 0 shape " + shapeToString(x));
      if (!spatial[d].isStatic() && o.isStatic()) spatial[d] = o;
    }
  }
  Shape out = {x[0], m};
  out.insert(out.end(), spatial.begin(), spatial.end());
  ctx.setOutput(0, dt, out);
}

}  // namespace oinfer::shape
