#include "shape/random.h"

namespace oinfer::shape {

namespace {

bool isFloatType(DataType t) {
  return t == DataType::kFloat || t == DataType::kDouble || t == DataType::kFloat16 || t == DataType::kBFloat16;
}

// The `dtype` attribute, checked to be a floating type; `fallback` when absent.
DataType floatDtype(const InferContext& ctx, DataType fallback, const char* whenAbsent) {
  const Node& n = ctx.node();
  if (!n.hasAttr("dtype")) {
    if (!isFloatType(fallback))
      ctx.fail(ErrorCode::kInvalidModel, std::string(whenAbsent) + " " + dataTypeName(fallback) +
                                                " is not a floating type; set the dtype attribute");
    return fallback;
  }
  const int64_t v = n.attrInt("dtype", 1);
  const DataType t = isValidDataType(static_cast<int32_t>(v)) ? static_cast<DataType>(v) : DataType::kUndefined;
  if (!isFloatType(t))
    ctx.fail(ErrorCode::kInvalidModel,
             "dtype " + std::to_string(v) + " is not one of float16, bfloat16, float, double");
  return t;
}

}  // namespace

void inferRandom(InferContext& ctx) {
  const Node& n = ctx.node();
  if (!n.hasAttr("shape")) ctx.fail(ErrorCode::kInvalidModel, "attribute 'shape' is required");
  const DataType t = n.hasAttr("dtype") ? floatDtype(ctx, DataType::kFloat, "") : DataType::kFloat;
  Shape s;
  for (int64_t d : n.attrInts("shape")) {
    if (d < 0) ctx.fail(ErrorCode::kInvalidModel, "attribute 'shape' " + shapeToString(n.attrInts("shape")) +
                                                         " has a negative dim");
    s.push_back(d);
  }
  ctx.setOutput(0, t, s);
}

void inferRandomLike(InferContext& ctx) {
  const ValueInfo& in = ctx.input(0);
  const DataType t = floatDtype(ctx, in.dtype, "without a dtype attribute the output takes input 0's type, and");
  if (in.hasShape) ctx.setOutput(0, t, in.shape);
  else ctx.setOutputUnknownShape(0, t);
}

void inferBernoulli(InferContext& ctx) {
  const ValueInfo& in = ctx.input(0);
  if (!isFloatType(in.dtype))
    ctx.fail(ErrorCode::kInvalidModel, "input 0 ('" + ctx.node().inputs[0] + "') holds probabilities and must be "
                                          "a floating type, got " + dataTypeName(in.dtype));
  DataType t = in.dtype;
  if (ctx.node().hasAttr("dtype")) {
    const int64_t v = ctx.node().attrInt("dtype", 1);
    t = isValidDataType(static_cast<int32_t>(v)) ? static_cast<DataType>(v) : DataType::kUndefined;
    switch (t) {
      case DataType::kFloat: case DataType::kDouble: case DataType::kFloat16: case DataType::kBFloat16:
      case DataType::kUInt8: case DataType::kUInt16: case DataType::kUInt32: case DataType::kUInt64:
      case DataType::kInt8: case DataType::kInt16: case DataType::kInt32: case DataType::kInt64:
      case DataType::kBool: break;
      default: ctx.fail(ErrorCode::kInvalidModel, "dtype " + std::to_string(v) + " is not a numeric or bool type");
    }
  }
  if (in.hasShape) ctx.setOutput(0, t, in.shape);
  else ctx.setOutputUnknownShape(0, t);
}

void inferMultinomial(InferContext& ctx) {
  const ValueInfo& in = ctx.input(0);
  if (!isFloatType(in.dtype))
    ctx.fail(ErrorCode::kInvalidModel, "input 0 ('" + ctx.node().inputs[0] + "') must be a floating type, got " +
                                              dataTypeName(in.dtype));
  const int64_t dt = ctx.node().attrInt("dtype", 6);
  if (dt != 6 && dt != 7) ctx.fail(ErrorCode::kInvalidModel, "dtype " + std::to_string(dt) + " must be int32 (6) or int64 (7)");
  const int64_t samples = ctx.node().attrInt("sample_size", 1);
  if (samples < 1) ctx.fail(ErrorCode::kInvalidModel, "sample_size " + std::to_string(samples) + " must be >= 1");
  const DataType t = static_cast<DataType>(dt);
  if (!in.hasShape) {
    ctx.setOutput(0, t, {ctx.freshDim(), samples});
    return;
  }
  if (in.shape.size() != 2)
    ctx.fail("input 0 ('" + ctx.node().inputs[0] + "') must be [batch_size, class_size], got " +
             shapeToString(in.shape));
  ctx.setOutput(0, t, {in.shape[0], samples});
}

}  // namespace oinfer::shape
