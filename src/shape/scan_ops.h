// Shape functions of the scan_ops family: CumSum, CumProd, TopK, Unique,
// Compress, LpNormalization, CenterCropPad, Einsum.
#pragma once

#include "shape/infer_context.h"

namespace oinfer::shape {

void inferTopK(InferContext& ctx);
void inferUnique(InferContext& ctx);
void inferCompress(InferContext& ctx);
void inferCenterCropPad(InferContext& ctx);
void inferEinsum(InferContext& ctx);

// Einsum equation, parsed: one label list per operand and the output, with
// the ellipsis expanded to labels >= kEllipsisBase (one per broadcast dim).
struct EinsumSpec {
  static constexpr int kEllipsisBase = 1000;
  std::vector<std::vector<int>> inputs;
  std::vector<int> output;
};
// Parses `equation` for operands of the given ranks; throws Error naming the
// node on malformed equations.
EinsumSpec parseEinsum(const Node& node, const std::string& equation, const std::vector<int64_t>& ranks);

}  // namespace oinfer::shape
