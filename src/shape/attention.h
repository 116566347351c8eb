// Shape functions of the attention family: Attention, RotaryEmbedding.
#pragma once

#include "shape/infer_context.h"

namespace oinfer::shape {

// Attention (23, 24): Q/K/V 4-d [B, heads, seq, head_size] or 3-d
// [B, seq, heads*head_size] (then q_num_heads/kv_num_heads are required).
// Y follows Q's rank; present_key/value are 4-d [B, kv_heads, past+kv_seq, .];
// qk_matmul_output is [B, q_heads, q_seq, past+kv_seq].
void inferAttention(InferContext& ctx);
// RotaryEmbedding: the output is the input's type and shape.
void inferRotaryEmbedding(InferContext& ctx);

}  // namespace oinfer::shape
