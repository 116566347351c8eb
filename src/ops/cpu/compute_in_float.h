// Half-precision support for float kernels: float16 / bfloat16 inputs are
// widened to float, the float kernel runs, and half outputs are rounded once
// on the way out. Accumulation is therefore float32 (as onnxruntime's CPU
// kernels do for these types). Costs a conversion pass and a float copy of
// each half tensor per run; the point is coverage, not half-precision speed.
#pragma once

#include "ops/kernel.h"

namespace oinfer::cpu {

// Wraps `inner` (a factory for float kernels). Nodes without half inputs get
// `inner`'s kernel unchanged.
KernelFactory computeInFloat(KernelFactory inner);

}  // namespace oinfer::cpu
