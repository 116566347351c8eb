// Shape function of DeformConv.
#pragma once

#include "shape/infer_context.h"

namespace oinfer::shape {

// Y = [N, W.dims[0], spatial out] with the Conv window arithmetic (no
// auto_pad); the offset input carries the same spatial dims, which stand in
// when X's are unknown.
void inferDeformConv(InferContext& ctx);

}  // namespace oinfer::shape
