// Shape functions of the internal ops (domain "ai.oinfer") that the
// transformer graph passes emit: FusedMatMul, LayerNorm (with an optional
// residual input), Gelu and FusedAttention.
#pragma once

#include "shape/infer_context.h"

namespace oinfer::shape {

// FusedMatMul(A, B[K,N] (B[N,K] with transB), bias[N]?, residual?): A.shape[:-1] + [N].
void inferFusedMatMul(InferContext& ctx);
// LayerNorm(X, scale, bias?, skip?): Y like X; optional output 1 = X + skip.
void inferFusedLayerNorm(InferContext& ctx);
// FusedAttention(Q[..,S,D], Kt[..,D,T], V[..,T,E], mask?): [.., S, E]; with
// num_heads: Q[B,S,H*D], K[B,T,H*D], V[B,T,H*E] -> [B,S,H*E].
void inferFusedAttention(InferContext& ctx);

}  // namespace oinfer::shape
