// DeformConv (placeholder; the family's kernels land here)
#include "ops/registry.h"

namespace oinfer {

void register_deform_conv(Registry&) {}

}  // namespace oinfer
