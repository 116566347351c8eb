// Shape functions of the tensor family's value ops: Constant, Cast,
// CastLike, Identity, Dropout (and the attribute helpers their kernels share).
#include <map>

#include "shape/tensor.h"

namespace oinfer::shape {

namespace tensor_detail {

DataType castTarget(const Node& node) {
  const Attribute* a = node.attr("to");
  if (!a) throw Error(ErrorCode::kInvalidModel, node.describe() + ": attribute 'to' is required");
  if (a->type == AttrType::kString) {  // Cast-1 names the type
    static const std::map<std::string, DataType> names = {
        {"FLOAT", DataType::kFloat},   {"UINT8", DataType::kUInt8},     {"INT8", DataType::kInt8},
        {"UINT16", DataType::kUInt16}, {"INT16", DataType::kInt16},     {"INT32", DataType::kInt32},
        {"INT64", DataType::kInt64},   {"STRING", DataType::kString},   {"BOOL", DataType::kBool},
        {"FLOAT16", DataType::kFloat16}, {"DOUBLE", DataType::kDouble}, {"UINT32", DataType::kUInt32},
        {"UINT64", DataType::kUInt64}, {"BFLOAT16", DataType::kBFloat16}};
    auto it = names.find(a->s);
    if (it == names.end())
      throw Error(ErrorCode::kInvalidModel, node.describe() + ": unknown type name '" + a->s + "' in 'to'");
    return it->second;
  }
  const int64_t v = node.attrInt("to", 0);
  if (!isValidDataType(static_cast<int32_t>(v)))
    throw Error(ErrorCode::kInvalidModel, node.describe() + ": invalid data type " + std::to_string(v) + " in 'to'");
  return static_cast<DataType>(v);
}

Tensor constantValue(const Node& node) {
  for (const Attribute& a : node.attributes) {
    if (a.name == "value") return a.t;
    if (a.name == "value_float") return Tensor::scalar<float>(a.f);
    if (a.name == "value_int") return Tensor::scalar<int64_t>(a.i);
    if (a.name == "value_string") return Tensor::scalar<std::string>(a.s);
    if (a.name == "value_floats")
      return Tensor::fromVector<float>({static_cast<int64_t>(a.floats.size())}, a.floats);
    if (a.name == "value_ints")
      return Tensor::fromVector<int64_t>({static_cast<int64_t>(a.ints.size())}, a.ints);
    if (a.name == "value_strings")
      return Tensor::fromVector<std::string>({static_cast<int64_t>(a.strings.size())}, a.strings);
    if (a.name == "sparse_value")
      throw Error(ErrorCode::kNotImplemented, node.describe() + ": sparse_value constants are not supported");
  }
  throw Error(ErrorCode::kInvalidModel, node.describe() + ": Constant has no value attribute");
}

}  // namespace tensor_detail

using namespace tensor_detail;

void inferConstant(InferContext& ctx) {
  Tensor v = constantValue(ctx.node());
  ctx.setOutput(0, v.dtype(), toShape(v.shape()));
  if (isIndexType(v.dtype()) && v.rank() <= 1) {
    std::vector<Dim> dims;
    for (int64_t x : v.toInt64Vector()) {
      Dim d;
      d.value = x;
      dims.push_back(d);
    }
    ctx.setOutputSymbolicValue(0, dims);
  }
  ctx.setOutputValue(0, v);
}

namespace {
void castTo(InferContext& ctx, DataType to) {
  switch (to) {
    case DataType::kComplex64: case DataType::kComplex128: case DataType::kUndefined:
      ctx.fail(ErrorCode::kNotImplemented, std::string("Cast to ") + dataTypeName(to) + " is not supported");
    default: break;
  }
  const ValueInfo& in = ctx.input(0);
  if (in.hasShape) ctx.setOutput(0, to, in.shape);
  else ctx.setOutputUnknownShape(0, to);
  if (isIndexType(to) && isIndexType(in.dtype) && in.hasShape && in.shape.size() <= 1)
    propagateValue(ctx, 0, 0, in.shape.empty(), to);
}
}  // namespace

void inferCast(InferContext& ctx) { castTo(ctx, castTarget(ctx.node())); }

void inferCastLike(InferContext& ctx) { castTo(ctx, ctx.input(1).dtype); }

void inferIdentity(InferContext& ctx) {
  const ValueInfo& in = ctx.input(0);
  if (in.kind != ValueKind::kTensor) {
    ctx.setOutputInfo(0, in);
    return;
  }
  propagateUnary(ctx);
  if (in.hasShape && in.shape.size() <= 1) propagateValue(ctx, 0, 0, in.shape.empty(), in.dtype);
}

void inferDropout(InferContext& ctx) {
  // Training mode (opset 12+ input 2) changes values, not types or shapes.
  const ValueInfo& in = ctx.input(0);
  propagateUnary(ctx);
  const DataType maskType = ctx.opset() >= 10 ? DataType::kBool : in.dtype;
  if (in.hasShape) ctx.setOutput(1, maskType, in.shape);
  else ctx.setOutputUnknownShape(1, maskType);
}

}  // namespace oinfer::shape
