// The CPU layer's entry point: every op family's registry entries (shape
// function, CPU kernel, types, capabilities).
#pragma once

#include "ops/registry.h"

namespace oinfer {

void registerCpuOps(Registry& r);

// Whether the kernels that read and write the blocked layout NCHW16c
// (ops/kernel.h, BlockedSupport) run on this CPU: their forms are AVX-512,
// so the passes and the planner keep the layout only where they do.
bool cpuTakesBlockedLayout();

}  // namespace oinfer
