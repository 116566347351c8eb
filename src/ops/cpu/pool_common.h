// Pieces shared by the pool kernels (pool.cpp, pool_global.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "ops/common/pool_geometry.h"
#include "ops/registry.h"

namespace oinfer::pool {

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
