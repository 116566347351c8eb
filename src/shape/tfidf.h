// Shape function of TfIdfVectorizer.
#pragma once

#include "shape/infer_context.h"

namespace oinfer::shape {

// [C] -> [output_size], [B, C] -> [B, output_size] (float32), where
// output_size = max(ngram_indexes) + 1.
void inferTfIdfVectorizer(InferContext& ctx);

}  // namespace oinfer::shape
