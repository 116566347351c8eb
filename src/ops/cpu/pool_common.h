// Pieces shared by the pool kernels (pool.cpp, pool_global.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "ops/registry.h"
#include "shape/conv.h"
#include "shape/pool.h"

namespace oinfer::pool {

// The kernel taps [lo, hi) of one output coordinate that land inside the
// input, the coordinate of tap 0 (start), and how many taps land inside the
// explicitly padded input (count_include_pad's divisor).
struct TapRange {
  int64_t lo = 0, hi = 1, start = 0, padded = 1;
};

// One pooling call in canonical 3-d form (leading spatial dims of size 1).
struct PoolGeom {
  size_t nd = 0;
  int64_t planes = 0;  // N * C
  std::array<int64_t, 3> img{1, 1, 1}, out{1, 1, 1}, k{1, 1, 1}, s{1, 1, 1}, dil{1, 1, 1}, padBegin{0, 0, 0},
      padEnd{0, 0, 0};
  int64_t imgSize = 1, outSize = 1;
  std::array<std::vector<TapRange>, 3> ranges;
};

PoolGeom poolGeom(const Node& node, const shape::WindowAttrs& a, const std::vector<int64_t>& xs);

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
