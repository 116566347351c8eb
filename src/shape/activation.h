// Shape functions of the activation family (most ops use propagateUnary).
#pragma once

#include "shape/infer_context.h"

namespace oinfer::shape {

// PRelu: X's type and shape; slope must broadcast unidirectionally to X.
void inferPRelu(InferContext& ctx);

}  // namespace oinfer::shape
