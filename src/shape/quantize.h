// Shape functions of the quantize family: QuantizeLinear, DequantizeLinear,
// DynamicQuantizeLinear, QLinearMatMul, MatMulInteger, ConvInteger,
// QLinearConv.
#pragma once

#include "shape/infer_context.h"

namespace oinfer::shape {

void inferQuantizeLinear(InferContext& ctx);
void inferDequantizeLinear(InferContext& ctx);
void inferDynamicQuantizeLinear(InferContext& ctx);
void inferQLinearMatMul(InferContext& ctx);
void inferMatMulInteger(InferContext& ctx);
void inferConvInteger(InferContext& ctx);
void inferQLinearConv(InferContext& ctx);

// QuantizeLinear's output type: the zero point's type when given, else
// output_dtype (opset 21+), else uint8. Throws when both disagree.
DataType quantizeOutputType(const Node& node, int64_t opset, const DataType* zeroPointType);

}  // namespace oinfer::shape
