// Shape functions of the loss family: NegativeLogLikelihoodLoss and
// SoftmaxCrossEntropyLoss.
#pragma once

#include "shape/infer_context.h"

namespace oinfer::shape {

// Both ops: input 0 is [N, C, d1..dk], input 1 (target) [N, d1..dk], optional
// input 2 (weight) [C]. Output 0 is the target's shape for reduction "none",
// else a scalar; SoftmaxCrossEntropyLoss's optional output 1 (log_prob) has
// input 0's shape.
void inferLoss(InferContext& ctx);

}  // namespace oinfer::shape
