// Shape functions of the image family: GridSample, AffineGrid, Col2Im,
// RoiAlign, NonMaxSuppression.
#pragma once

#include "shape/infer_context.h"

namespace oinfer::shape {

void inferGridSample(InferContext& ctx);
void inferAffineGrid(InferContext& ctx);
void inferCol2Im(InferContext& ctx);
void inferRoiAlign(InferContext& ctx);
void inferNonMaxSuppression(InferContext& ctx);

}  // namespace oinfer::shape
