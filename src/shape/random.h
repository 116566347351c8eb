// Shape functions of the random family: RandomUniform, RandomNormal,
// RandomUniformLike, RandomNormalLike, Bernoulli, Multinomial. Their kernels
// are marked non-deterministic in the registry, so the driver never
// constant-folds them; only types and shapes are inferred here.
#pragma once

#include "shape/infer_context.h"

namespace oinfer::shape {

// RandomUniform / RandomNormal: the `shape` attribute (required) of `dtype`
// (default float; float16, bfloat16, float, double).
void inferRandom(InferContext& ctx);
// RandomUniformLike / RandomNormalLike: input 0's shape, of `dtype` when given
// else input 0's type (which must then be a floating type).
void inferRandomLike(InferContext& ctx);
// Bernoulli: input 0's shape (probabilities, a floating type), of `dtype` when
// given else input 0's type.
void inferBernoulli(InferContext& ctx);
// Multinomial: [batch, class] -> [batch, sample_size] of `dtype` (int32
// default, or int64).
void inferMultinomial(InferContext& ctx);

}  // namespace oinfer::shape
