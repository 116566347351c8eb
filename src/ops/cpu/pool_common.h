// Pieces shared by the pool kernels (pool.cpp, pool_global.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ops/common/pool_geometry.h"
#include "ops/cpu/kernel_isa.h"
#include "ops/registry.h"

namespace oinfer::pool {

// The pool family's algorithms (pool.cpp's choosePool picks one).
enum class PoolAlgorithm {
  kMaxS2Planes,  // MaxPool 2x2 / 3x3 stride 2: whole planes, AVX-512
  kMaxRows,      // MaxPool, separable rows (2-d, no dilation): AVX-512 or portable
  kMaxBlocked,   // MaxPool on NCHW16c: AVX-512 or portable
  kMaxWindows,   // MaxPool, any window, type or Indices output: the window loops
  kSumWindows,   // AveragePool / LpPool: the window loops
};
struct PoolChoice {
  PoolAlgorithm algo = PoolAlgorithm::kMaxWindows;
  cpu::KernelIsa isa = cpu::KernelIsa::kPortable;
  std::string name() const;  // "maxpool-s2-planes avx512"
};
PoolChoice choosePool(const PoolGeom& g, bool max, bool float32, bool indices, bool blocked,
                      const cpu::CpuFeatures& f = cpu::cpuFeatures());

// MaxPool with a 2x2 or 3x3 window at stride 2, no dilation, on AVX-512
// (what maxPoolS2PlanesFit says): planes [p0, p1) of x, ldx floats apart,
// into y, ldy apart. FusedConvMaxPool runs it on bands of rows.
bool maxPoolS2PlanesFit(const PoolGeom& g);
void maxPoolS2Planes(const PoolGeom& g, const float* x, int64_t ldx, float* y, int64_t ldy, int64_t p0, int64_t p1);
// Any float32 MaxPool without indices, by whichever kernel fits.
void maxPoolFloat(ThreadPool& pool, const PoolGeom& g, const float* x, float* y);

// The p of LpPool / GlobalLpPool (a float attribute in version 1, an int later).
float lpNorm(const Node& node, int64_t opset);

void registerWindowPools(Registry& r);  // pool.cpp
void registerGlobalPools(Registry& r);  // pool_global.cpp: Global*Pool, LRN

}  // namespace oinfer::pool
