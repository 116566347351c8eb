#include "shape/strings.h"

#include <string>

namespace oinfer::shape {

namespace {
std::string inName(const InferContext& ctx, size_t i) {
  return "input " + std::to_string(i) + " ('" + ctx.node().inputs[i] + "')";
}
}  // namespace

void inferStringNormalizer(InferContext& ctx) {
  if (ctx.inputType(0) != DataType::kString) ctx.fail(inName(ctx, 0) + " must be a string tensor");
  if (!ctx.hasShape(0)) return ctx.setOutputUnknownShape(0, DataType::kString);
  Shape s = ctx.inputShape(0);
  if (s.size() != 1 && !(s.size() == 2 && (!s[0].isStatic() || s[0].value == 1)))
    ctx.fail(inName(ctx, 0) + " must be [C] or [1, C], got " + shapeToString(s));
  if (!ctx.node().attrStrings("stopwords").empty()) s.back() = ctx.freshDim();
  ctx.setOutput(0, DataType::kString, s);
}

void inferStringSplit(InferContext& ctx) {
  if (ctx.inputType(0) != DataType::kString) ctx.fail(inName(ctx, 0) + " must be a string tensor");
  if (!ctx.hasShape(0)) {
    ctx.setOutputUnknownShape(0, DataType::kString);
    if (ctx.numOutputs() > 1) ctx.setOutputUnknownShape(1, DataType::kInt64);
    return;
  }
  Shape s = ctx.inputShape(0);
  Shape y = s;
  y.push_back(ctx.freshDim());
  ctx.setOutput(0, DataType::kString, y);
  if (ctx.numOutputs() > 1) ctx.setOutput(1, DataType::kInt64, s);
}

void inferStringConcat(InferContext& ctx) {
  for (size_t i = 0; i < 2; ++i)
    if (ctx.inputType(i) != DataType::kString) ctx.fail(inName(ctx, i) + " must be a string tensor");
  if (!ctx.hasShape(0) || !ctx.hasShape(1)) return ctx.setOutputUnknownShape(0, DataType::kString);
  const Shape &a = ctx.inputShape(0), &b = ctx.inputShape(1);
  Shape out;
  try {
    out = broadcast(ctx, a, b);
  } catch (const Error&) {
    ctx.fail(inName(ctx, 0) + " of shape " + shapeToString(a) + " and " + inName(ctx, 1) + " of shape " +
             shapeToString(b) + " cannot be broadcast");
  }
  ctx.setOutput(0, DataType::kString, out);
}

void inferRegexFullMatch(InferContext& ctx) {
  if (ctx.inputType(0) != DataType::kString) ctx.fail(inName(ctx, 0) + " must be a string tensor");
  if (!ctx.hasShape(0)) return ctx.setOutputUnknownShape(0, DataType::kBool);
  ctx.setOutput(0, DataType::kBool, ctx.inputShape(0));
}

void inferBitCast(InferContext& ctx) {
  const DataType from = ctx.inputType(0);
  const int64_t toI = ctx.node().attrInt("to", 0);
  if (!isValidDataType(static_cast<int32_t>(toI))) ctx.fail("attribute 'to' is not a valid data type");
  const DataType to = static_cast<DataType>(toI);
  if (from == DataType::kString || to == DataType::kString || dataTypeSize(from) == 0 || dataTypeSize(to) == 0)
    ctx.fail(std::string("cannot bitcast ") + dataTypeName(from) + " to " + dataTypeName(to));
  // onnx 1.22 (BitCast-26) requires equal bit-widths, so the shape is kept.
  if (dataTypeSize(from) != dataTypeSize(to))
    ctx.fail(std::string("BitCast needs equal bit-widths, got ") + dataTypeName(from) + " (input 0 '" +
             ctx.node().inputs[0] + "') and " + dataTypeName(to));
  if (!ctx.hasShape(0)) return ctx.setOutputUnknownShape(0, to);
  ctx.setOutput(0, to, ctx.inputShape(0));
}

void inferMaxUnpool(InferContext& ctx) {
  const DataType dt = ctx.inputType(0);
  if (ctx.hasInput(2) && ctx.input(2).hasShape) {
    if (const std::vector<Dim>* v = ctx.inputSymbolicValue(2)) return ctx.setOutput(0, dt, Shape(v->begin(), v->end()));
    const Shape& os = ctx.inputShape(2);
    if (!os.empty() && os[0].isStatic()) {
      Shape out;
      for (int64_t i = 0; i < os[0].value; ++i) out.push_back(ctx.freshDim());
      return ctx.setOutput(0, dt, out);
    }
    return ctx.setOutputUnknownShape(0, dt);
  }
  if (!ctx.hasShape(0)) return ctx.setOutputUnknownShape(0, dt);
  const Shape& x = ctx.inputShape(0);
  const auto k = ctx.node().attrInts("kernel_shape");
  if (x.size() < 3 || k.size() != x.size() - 2)
    ctx.fail("kernel_shape has " + std::to_string(k.size()) + " dims for " + inName(ctx, 0) + " of shape " +
             shapeToString(x));
  const size_t n = k.size();
  auto pads = ctx.node().attrInts("pads", std::vector<int64_t>(2 * n, 0));
  auto strides = ctx.node().attrInts("strides", std::vector<int64_t>(n, 1));
  if (pads.size() != 2 * n || strides.size() != n) ctx.fail("pads/strides do not match kernel_shape");
  Shape out{x[0], x[1]};
  for (size_t i = 0; i < n; ++i) {
    const Dim& d = x[i + 2];
    out.push_back(d.isStatic() ? Dim((d.value - 1) * strides[i] + k[i] - pads[i] - pads[i + n]) : ctx.freshDim());
  }
  ctx.setOutput(0, dt, out);
}

void inferDet(InferContext& ctx) {
  const DataType dt = ctx.inputType(0);
  if (!ctx.hasShape(0)) return ctx.setOutputUnknownShape(0, dt);
  const Shape& x = ctx.inputShape(0);
  if (x.size() < 2) ctx.fail(inName(ctx, 0) + " must have rank >= 2, got " + shapeToString(x));
  const Dim &a = x[x.size() - 2], &b = x[x.size() - 1];
  if (a.isStatic() && b.isStatic() && a.value != b.value)
    ctx.fail(inName(ctx, 0) + " must end in square matrices, got " + shapeToString(x));
  ctx.setOutput(0, dt, Shape(x.begin(), x.end() - 2));
}

}  // namespace oinfer::shape
