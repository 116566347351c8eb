// Shape functions of the decoding family: ops that carry recurrent or cached
// state between autoregressive decode steps.
#pragma once

#include "shape/infer_context.h"

namespace oinfer::shape {

// LinearAttention (27): query [B,T,Hq*dk], key [B,T,Hkv*dk], value
// [B,T,Hkv*dv] -> output [B,T,Hq*dv] (query's type) and present_state
// [B,Hkv,dk,dv] (past_state's type, or query's when past_state is absent).
// decay is required exactly by the gated rules, beta by the delta rules.
void inferLinearAttention(InferContext& ctx);
// CausalConvWithState (27): input [B,C,L], weight [C,1,K] -> output [B,C,L]
// and present_state [B,C,K-1].
void inferCausalConvWithState(InferContext& ctx);
// TensorScatter (24): present_cache has past_cache's type and shape; update
// must match it except along `axis`, where it may be shorter.
void inferTensorScatter(InferContext& ctx);

}  // namespace oinfer::shape
