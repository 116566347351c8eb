// Shape functions of the normalization family: BatchNormalization,
// InstanceNormalization, LayerNormalization, GroupNormalization,
// RMSNormalization, MeanVarianceNormalization.
#pragma once

#include "shape/infer_context.h"

namespace oinfer::shape {

void inferBatchNorm(InferContext& ctx);
void inferInstanceNorm(InferContext& ctx);
void inferLayerNorm(InferContext& ctx);  // also RMSNormalization
void inferGroupNorm(InferContext& ctx);
// MeanVarianceNormalization: the output is the input's type and shape.
void inferSameAsInput(InferContext& ctx);

}  // namespace oinfer::shape
