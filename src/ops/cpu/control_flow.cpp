// If, Loop, Scan (placeholder; the family's kernels land here)
#include "ops/registry.h"

namespace oinfer {

void register_control_flow(Registry&) {}

}  // namespace oinfer
