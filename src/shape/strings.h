// Shape functions of the strings family (StringNormalizer, StringSplit,
// StringConcat, RegexFullMatch) and the small ops that share the family:
// BitCast, ReverseSequence, MaxUnpool, Det.
#pragma once

#include "shape/infer_context.h"

namespace oinfer::shape {

// [C] or [1, C] string; the last dim is data-dependent when stopwords are set.
void inferStringNormalizer(InferContext& ctx);
// Y: X.shape + [max substrings] (data-dependent), Z: int64 X.shape.
void inferStringSplit(InferContext& ctx);
// Broadcast of both string inputs.
void inferStringConcat(InferContext& ctx);
// bool of X's shape.
void inferRegexFullMatch(InferContext& ctx);
// Same shape; input and `to` must have equal bit-widths (BitCast-26).
void inferBitCast(InferContext& ctx);
// MaxUnpool: [N, C, (in-1)*stride + k - pads] or the output_shape input.
void inferMaxUnpool(InferContext& ctx);
// Det: [*, M, M] -> [*].
void inferDet(InferContext& ctx);

}  // namespace oinfer::shape
