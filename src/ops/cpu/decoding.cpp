// LinearAttention, CausalConvWithState, TensorScatter (placeholder; the family's kernels land here)
#include "ops/registry.h"

namespace oinfer {

void register_decoding(Registry&) {}

}  // namespace oinfer
