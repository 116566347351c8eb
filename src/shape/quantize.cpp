#include "shape/quantize.h"

#include "shape/conv.h"
#include "shape/linalg.h"

namespace oinfer::shape {

namespace {

void sameShape(InferContext& ctx, size_t out, DataType dtype) {
  const ValueInfo& in = ctx.input(0);
  if (in.hasShape) ctx.setOutput(out, dtype, in.shape);
  else ctx.setOutputUnknownShape(out, dtype);
}

std::string inputDesc(const InferContext& ctx, size_t i) {
  return "input " + std::to_string(i) + " ('" + ctx.node().inputs[i] + "')";
}

// Conv output dims for a quantized conv whose data is input `xi`, weights `wi`.
void convLike(InferContext& ctx, size_t xi, size_t wi, DataType dtype) {
  if (!ctx.hasShape(xi) || !ctx.hasShape(wi)) {
    ctx.setOutputUnknownShape(0, dtype);
    return;
  }
  const Shape& x = ctx.inputShape(xi);
  const Shape& w = ctx.inputShape(wi);
  if (x.size() < 3 || w.size() != x.size())
    ctx.fail(inputDesc(ctx, xi) + " has shape " + shapeToString(x) + " and " + inputDesc(ctx, wi) + " has shape " +
             shapeToString(w) + "; expected equal ranks >= 3");
  const size_t nd = x.size() - 2;
  const WindowAttrs a = parseWindowAttrs(ctx.node(), nd, false);
  std::vector<int64_t> kernel(nd, -1);
  for (size_t d = 0; d < nd; ++d) {
    kernel[d] = w[d + 2].isStatic() ? w[d + 2].value : -1;
    if (!a.kernel.empty()) {
      if (kernel[d] >= 0 && a.kernel[d] != kernel[d])
        ctx.fail("attribute 'kernel_shape' " + shapeToString(a.kernel) + " disagrees with " + inputDesc(ctx, wi) + " " +
                 shapeToString(w));
      kernel[d] = a.kernel[d];
    }
  }
  const int64_t group = ctx.node().attrInt("group", 1);
  if (x[1].isStatic() && w[1].isStatic() && x[1].value != w[1].value * group)
    ctx.fail(inputDesc(ctx, xi) + " " + shapeToString(x) + " has " + std::to_string(x[1].value) + " channels but " +
             inputDesc(ctx, wi) + " " + shapeToString(w) + " expects " + std::to_string(w[1].value * group) +
             " (group " + std::to_string(group) + ")");
  Shape out{x[0], w[0]};
  Shape spatial(x.begin() + 2, x.end());
  for (const Dim& d : windowOutputDims(ctx, a, spatial, kernel)) out.push_back(d);
  ctx.setOutput(0, dtype, out);
}

}  // namespace

DataType quantizeOutputType(const Node& node, int64_t opset, const DataType* zeroPointType) {
  const int64_t od = opset >= 21 ? node.attrInt("output_dtype", 0) : 0;
  if (zeroPointType) {
    if (od != 0 && od != static_cast<int64_t>(*zeroPointType))
      throw Error(ErrorCode::kInvalidModel, node.describe() + ": attribute 'output_dtype' (" +
                                                dataTypeName(static_cast<DataType>(od)) +
                                                ") differs from the zero point's type " + dataTypeName(*zeroPointType));
    return *zeroPointType;
  }
  if (od == 0) return DataType::kUInt8;
  if (!isValidDataType(static_cast<int32_t>(od)))
    throw Error(ErrorCode::kInvalidModel, node.describe() + ": invalid output_dtype " + std::to_string(od));
  return static_cast<DataType>(od);
}

void inferQuantizeLinear(InferContext& ctx) {
  DataType zp{};
  if (ctx.hasInput(2)) zp = ctx.inputType(2);
  sameShape(ctx, 0, quantizeOutputType(ctx.node(), ctx.opset(), ctx.hasInput(2) ? &zp : nullptr));
}

void inferDequantizeLinear(InferContext& ctx) {
  DataType t = ctx.opset() >= 19 ? ctx.inputType(1) : DataType::kFloat;
  if (ctx.opset() >= 23) {
    const int64_t od = ctx.node().attrInt("output_dtype", 0);
    if (od != 0) {
      if (!isValidDataType(static_cast<int32_t>(od))) ctx.fail("invalid output_dtype " + std::to_string(od));
      t = static_cast<DataType>(od);
    }
  }
  sameShape(ctx, 0, t);
}

void inferDynamicQuantizeLinear(InferContext& ctx) {
  sameShape(ctx, 0, DataType::kUInt8);
  ctx.setOutput(1, DataType::kFloat, {});
  ctx.setOutput(2, DataType::kUInt8, {});
}

void inferQLinearMatMul(InferContext& ctx) {
  const DataType t = ctx.inputType(7);
  if (!ctx.hasShape(0) || !ctx.hasShape(3)) return ctx.setOutputUnknownShape(0, t);
  ctx.setOutput(0, t, matmulShape(ctx, ctx.inputShape(0), ctx.inputShape(3)));
}

void inferMatMulInteger(InferContext& ctx) {
  if (!ctx.hasShape(0) || !ctx.hasShape(1)) return ctx.setOutputUnknownShape(0, DataType::kInt32);
  ctx.setOutput(0, DataType::kInt32, matmulShape(ctx, ctx.inputShape(0), ctx.inputShape(1)));
}

void inferConvInteger(InferContext& ctx) { convLike(ctx, 0, 1, DataType::kInt32); }

void inferQLinearConv(InferContext& ctx) { convLike(ctx, 0, 3, ctx.inputType(7)); }

}  // namespace oinfer::shape
