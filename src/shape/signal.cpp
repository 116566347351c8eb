#include "shape/signal.h"

#include <string>

namespace oinfer::shape {

namespace {

// A scalar (or 1-element) integer input as a Dim: its value when known, else
// a fresh symbol.
Dim scalarDim(InferContext& ctx, size_t i) {
  if (const auto* sv = ctx.inputSymbolicValue(i); sv && sv->size() == 1) return (*sv)[0];
  if (const Tensor* v = ctx.inputValue(i); v && v->numel() == 1) return Dim(v->toInt64Vector()[0]);
  return ctx.freshDim();
}

std::optional<int64_t> scalarValue(InferContext& ctx, size_t i) {
  if (const Tensor* v = ctx.inputValue(i); v && v->numel() == 1) return v->toInt64Vector()[0];
  if (const auto* sv = ctx.inputSymbolicValue(i); sv && sv->size() == 1 && (*sv)[0].isStatic())
    return (*sv)[0].value;
  return std::nullopt;
}

DataType outputDatatype(InferContext& ctx, int64_t def) {
  const int64_t dt = ctx.node().attrInt("output_datatype", def);
  if (!isValidDataType(static_cast<int32_t>(dt)))
    ctx.fail("output_datatype " + std::to_string(dt) + " is not a valid data type");
  return static_cast<DataType>(dt);
}

Dim onesidedDim(InferContext& ctx, const Dim& n) {
  if (n.isStatic()) return Dim(n.value / 2 + 1);
  return ctx.freshDim();
}

}  // namespace

void inferWindow(InferContext& ctx) {
  ctx.setOutput(0, outputDatatype(ctx, 1), Shape{scalarDim(ctx, 0)});
}

void inferDft(InferContext& ctx) {
  const DataType dt = ctx.inputType(0);
  if (!ctx.hasShape(0)) {
    ctx.setOutputUnknownShape(0, dt);
    return;
  }
  const Shape& in = ctx.inputShape(0);
  const int64_t r = static_cast<int64_t>(in.size());
  if (r < 2) ctx.fail("input 0 ('" + ctx.node().inputs[0] + "') has shape " + shapeToString(in) +
                      ", expected rank >= 2 ([..., signal_dim, 1 or 2])");
  const Dim& last = in.back();
  if (last.isStatic() && last.value != 1 && last.value != 2)
    ctx.fail("input 0 ('" + ctx.node().inputs[0] + "') has shape " + shapeToString(in) +
             ", its last dimension must be 1 (real) or 2 (complex)");
  std::optional<int64_t> axis;
  if (ctx.opset() < 20) {
    axis = ctx.node().attrInt("axis", 1);
  } else if (ctx.hasInput(2)) {
    axis = scalarValue(ctx, 2);
  } else {
    axis = -2;
  }
  const bool onesided = ctx.node().attrInt("onesided", 0) != 0;
  const bool inverse = ctx.node().attrInt("inverse", 0) != 0;
  Shape out = in;
  // The inverse of a one-sided spectrum is real ([...,1]); everything else is complex ([...,2]).
  out.back() = Dim(inverse && onesided ? 1 : 2);
  if (!axis) {
    for (int64_t d = 0; d + 1 < r; ++d) out[d] = ctx.freshDim();
    ctx.setOutput(0, dt, out);
    return;
  }
  int64_t a = *axis;
  if (a < -r || a == -1 || a > r - 2)
    ctx.fail("axis " + std::to_string(a) + " is out of range for input 0 ('" + ctx.node().inputs[0] +
             "') of shape " + shapeToString(in));
  if (a < 0) a += r;
  Dim n = in[a];
  if (ctx.hasInput(1)) {
    n = scalarDim(ctx, 1);
  } else if (inverse && onesided) {
    // An inverse of a one-sided spectrum defaults to the even full length.
    n = n.isStatic() ? Dim(2 * (n.value - 1)) : ctx.freshDim();
  }
  if (n.isStatic() && n.value < 1) ctx.fail("dft_length " + std::to_string(n.value) + " must be positive");
  if (inverse && onesided) {
    // Hermitian input, real output of dft_length points.
    out[a] = n;
  } else {
    out[a] = onesided ? onesidedDim(ctx, n) : n;
  }
  ctx.setOutput(0, dt, out);
}

void inferStft(InferContext& ctx) {
  const DataType dt = ctx.inputType(0);
  if (!ctx.hasShape(0)) {
    ctx.setOutput(0, dt, Shape{ctx.freshDim(), ctx.freshDim(), ctx.freshDim(), Dim(2)});
    return;
  }
  const Shape& in = ctx.inputShape(0);
  if (in.size() != 3)
    ctx.fail("input 0 ('" + ctx.node().inputs[0] + "') has shape " + shapeToString(in) +
             ", expected [batch, signal_length, 1 or 2]");
  // The frame length comes from input 3, else from the window's length.
  std::optional<int64_t> frameLength;
  if (ctx.hasInput(3)) {
    frameLength = scalarValue(ctx, 3);
  } else if (ctx.hasInput(2) && ctx.hasShape(2) && ctx.inputShape(2).size() == 1 &&
             ctx.inputShape(2)[0].isStatic()) {
    frameLength = ctx.inputShape(2)[0].value;
  } else if (!ctx.hasInput(2) && in[1].isStatic()) {
    frameLength = in[1].value;  // neither: one frame over the whole signal
  }
  const std::optional<int64_t> step = scalarValue(ctx, 1);
  if (step && *step < 1) ctx.fail("frame_step " + std::to_string(*step) + " must be positive");
  Dim frames = ctx.freshDim(), bins = ctx.freshDim();
  if (frameLength) {
    if (*frameLength < 1) ctx.fail("frame_length " + std::to_string(*frameLength) + " must be positive");
    if (in[1].isStatic() && in[1].value < *frameLength)
      ctx.fail("frame_length " + std::to_string(*frameLength) + " exceeds the signal length of input 0 ('" +
               ctx.node().inputs[0] + "') of shape " + shapeToString(in));
    if (step && in[1].isStatic()) frames = Dim(1 + (in[1].value - *frameLength) / *step);
    bins = ctx.node().attrInt("onesided", 1) != 0 ? Dim(*frameLength / 2 + 1) : Dim(*frameLength);
  }
  ctx.setOutput(0, dt, Shape{in[0], frames, bins, Dim(2)});
}

void inferMelWeightMatrix(InferContext& ctx) {
  Dim rows = ctx.freshDim();
  if (auto n = scalarValue(ctx, 1)) rows = Dim(*n / 2 + 1);
  ctx.setOutput(0, outputDatatype(ctx, 1), Shape{rows, scalarDim(ctx, 0)});
}

}  // namespace oinfer::shape
