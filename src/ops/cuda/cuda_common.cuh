// Shared by the .cu files only: launch geometry and small device helpers.
#pragma once

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "ops/cuda/cuda_launch.h"

namespace oinfer::cuda {

constexpr int kBlock = 256;

// The arithmetic type of a storage type: half computes in float.
template <class T> struct Calc { using type = T; };
template <> struct Calc<__half> { using type = float; };

// Grid for a grid-stride loop over n items: enough blocks to fill the chip
// several times over, capped so huge tensors loop instead of launching more.
inline unsigned gridFor(int64_t n, int block = kBlock) {
  int64_t g = (n + block - 1) / block;
  if (g < 1) g = 1;
  if (g > 65535) g = 65535;
  return static_cast<unsigned>(g);
}

__device__ __forceinline__ float warpSum(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}
__device__ __forceinline__ float warpMax(float v) {
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}

}  // namespace oinfer::cuda
