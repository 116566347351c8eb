// The vectorised loops of DynamicQuantizeLinear: a float32 range and the
// uint8 quantization y = saturate(rint(x / scale) + zp). One body per ISA
// (AVX-512, AVX2, portable), chosen with vectorIsa(cpuFeatures()); each
// gives the portable result bit for bit (NaN inputs are ignored by the
// range and quantize to 0).
#pragma once

#include <cstdint>

#include "ops/cpu/kernel_isa.h"

namespace oinfer::cpu {

// mn = min(mn, x...), mx = max(mx, x...), NaNs skipped.
void minMaxF32(KernelIsa isa, const float* x, int64_t n, float& mn, float& mx);
// y[i] = clamp(nearbyint(x[i] / scale) + zp, 0, 255) (NaN -> 0).
void quantizeU8(KernelIsa isa, const float* x, int64_t n, float scale, float zp, uint8_t* y);

}  // namespace oinfer::cpu
