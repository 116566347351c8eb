// Sequence*, SplitToSequence, ConcatFromSequence, Optional* (placeholder; the family's kernels land here)
#include "ops/registry.h"

namespace oinfer {

void register_sequence(Registry&) {}

}  // namespace oinfer
