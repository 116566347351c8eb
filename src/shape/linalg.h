// Shape functions of the linalg family: Gemm, MatMul.
#pragma once

#include "shape/infer_context.h"

namespace oinfer::shape {

void inferGemm(InferContext& ctx);
void inferMatMul(InferContext& ctx);

// Numpy matmul output shape of `a` x `b` (1-d operands promoted and their
// unit dims dropped again); an Error naming both inputs and shapes when the
// contracted dims differ.
Shape matmulShape(InferContext& ctx, const Shape& a, const Shape& b);

}  // namespace oinfer::shape
