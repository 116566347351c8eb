// FusedConvMaxPool's computation (conv_maxpool.cpp): an image stem Conv and
// the 2x2 / 3x3 stride-2 MaxPool over its output, a band of rows at a time.
#pragma once

#include <vector>

#include "ops/cpu/conv_fast.h"
#include "ops/cpu/pool_common.h"

namespace oinfer::conv {

// What the fused kernel can hold (conv_select.cpp chooses it): the stride-2
// pool kernel's windows (maxPoolS2PlanesFit), shapes that agree, and a band
// of at least one pool row fitting the per-thread buffer.
bool convMaxPoolFits(const ConvGeom& cg, const pool::PoolGeom& pg);

// The bands of pool output rows, made once per shape: band i pools conv
// rows [r0[i], r1[i]) into pool rows [p0[i], p1[i]) (geom[i]: the pool's
// geometry over just those rows).
struct ConvMaxPoolBands {
  std::vector<int64_t> r0, r1, p0, p1;
  std::vector<pool::PoolGeom> geom;
};
ConvMaxPoolBands convMaxPoolBands(const ConvGeom& cg, const pool::PoolGeom& pg);

// Its workspace (conv_fast.h): the phase copy shared, a band per thread.
ScratchNeed convMaxPoolScratch(const ConvGeom& cg);

// y = MaxPool(act(Conv(x, W) + b)) where chooseConvMaxPool takes it; `packed` from
// packPixvecWeights(cg, W).
void convMaxPool(ThreadPool& pool, const ConvGeom& cg, const pool::PoolGeom& pg, const ConvMaxPoolBands& bands,
                 const std::vector<PackedB>& packed, const float* x, const float* b, const Activation& act, float* y,
                 const Workspace& ws = {});

}  // namespace oinfer::conv
