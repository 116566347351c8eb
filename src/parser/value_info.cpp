// TypeProto -> ValueInfo.
#include "parser/onnx_parser.h"

namespace oinfer::parser {
namespace {

DataType elemType(int32_t v, LoadContext& ctx, const std::string& what) {
  if (v == 0) return DataType::kUndefined;
  if (!isValidDataType(v)) fail(ctx, what + ": unknown element type " + std::to_string(v));
  return static_cast<DataType>(v);
}

void convertShape(const onnx::TensorShapeProto& sp, ValueInfo& out, LoadContext& ctx) {
  out.hasShape = true;
  out.shape.clear();
  out.shape.reserve(static_cast<size_t>(sp.dim_size()));
  for (const auto& d : sp.dim()) {
    if (d.has_dim_value() && d.dim_value() >= 0)
      out.shape.emplace_back(d.dim_value());
    else if (d.has_dim_param() && !d.dim_param().empty())
      out.shape.push_back(Dim::sym(d.dim_param()));
    else  // unknown (or an invalid negative value): still a distinct dim
      out.shape.push_back(Dim::sym(ctx.freshSymbol()));
  }
}

}  // namespace

void convertType(const onnx::TypeProto& tp, ValueInfo& out, LoadContext& ctx, const std::string& what) {
  switch (tp.value_case()) {
    case onnx::TypeProto::kTensorType:
      out.kind = ValueKind::kTensor;
      out.dtype = elemType(tp.tensor_type().elem_type(), ctx, what);
      if (tp.tensor_type().has_shape()) convertShape(tp.tensor_type().shape(), out, ctx);
      break;
    case onnx::TypeProto::kSparseTensorType:
      // No sparse values at run time: a sparse input is treated as dense.
      out.kind = ValueKind::kTensor;
      out.dtype = elemType(tp.sparse_tensor_type().elem_type(), ctx, what);
      if (tp.sparse_tensor_type().has_shape()) convertShape(tp.sparse_tensor_type().shape(), out, ctx);
      break;
    case onnx::TypeProto::kSequenceType: {
      // A sequence keeps the element tensor's dtype and shape (of each item).
      ValueInfo inner;
      if (tp.sequence_type().has_elem_type()) convertType(tp.sequence_type().elem_type(), inner, ctx, what);
      out.kind = ValueKind::kSequence;
      out.dtype = inner.dtype;
      out.hasShape = inner.hasShape;
      out.shape = std::move(inner.shape);
      break;
    }
    case onnx::TypeProto::kOptionalType: {
      ValueInfo inner;
      if (tp.optional_type().has_elem_type()) convertType(tp.optional_type().elem_type(), inner, ctx, what);
      out.kind = ValueKind::kOptional;
      out.dtype = inner.dtype;
      out.hasShape = inner.hasShape;
      out.shape = std::move(inner.shape);
      break;
    }
    case onnx::TypeProto::kMapType: {
      ValueInfo inner;
      if (tp.map_type().has_value_type()) convertType(tp.map_type().value_type(), inner, ctx, what);
      out.kind = ValueKind::kMap;
      out.dtype = inner.dtype;
      break;
    }
    default:
      out.kind = ValueKind::kTensor;
      out.dtype = DataType::kUndefined;
      break;
  }
}

ValueInfo convertValueInfo(const onnx::ValueInfoProto& vp, LoadContext& ctx, const std::string& what) {
  ValueInfo vi;
  vi.name = vp.name();
  if (vp.has_type()) convertType(vp.type(), vi, ctx, what);
  return vi;
}

}  // namespace oinfer::parser
