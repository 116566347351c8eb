// Shape functions of the pool family: MaxPool, AveragePool, LpPool, their
// Global forms, and LRN. The window arithmetic is shared with Conv
// (src/shape/conv.h).
#pragma once

#include "shape/infer_context.h"

namespace oinfer::shape {

void inferPool(InferContext& ctx);        // MaxPool (with Indices), AveragePool, LpPool
void inferGlobalPool(InferContext& ctx);  // GlobalAveragePool, GlobalMaxPool, GlobalLpPool

}  // namespace oinfer::shape
