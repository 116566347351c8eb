// The registry every Session and Graph uses: the CPU layer's ops, with the
// CUDA backend's kernels attached when this build has it. Made on first use
// (thread-safe) and never changed after.
#pragma once

#include "ops/registry.h"

namespace oinfer {

const Registry& builtinRegistry();

}  // namespace oinfer
