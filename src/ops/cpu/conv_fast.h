// The float32 Conv path on the packed GEMM (src/ops/cpu/gemm): weights packed
// once per plan, im2col gathered straight into the GEMM's packed B layout,
// bias / residual / activation fused into the GEMM epilogue, and a direct
// depthwise kernel with the same epilogue.
#pragma once

#include <vector>

#include "ops/cpu/conv_common.h"
#include "ops/cpu/gemm/sgemm.h"

namespace oinfer::conv {

enum class Strategy { kPointwise, kDepthwise, kIm2col };

Strategy chooseStrategy(const ConvGeom& g);

// The activation part of a fused Conv (bias and residual are per call).
struct Activation {
  GemmActivation act = GemmActivation::kNone;
  float p0 = 0.f, p1 = 0.f;
};

// One PackedA per group: W[g] as the Mg x Cg*K left operand.
std::vector<PackedA> packConvWeights(const ConvGeom& g, const float* w);

// y = act(conv(x, w) + b + z). `packed` may be empty (packs per call); b and
// z may be null; z has y's shape.
void convFloat(ThreadPool& pool, const ConvGeom& g, Strategy st, const float* x, const float* w,
               const std::vector<PackedA>& packed, const float* b, const float* z, float* y, const Activation& act);

// Parses a FusedConv's activation / activation_params attributes.
Activation parseActivation(const Node& node);

// Sizes the im2col row scratch on every thread of `pool` at plan time (see
// reserveThreadScratch in gemm/sgemm.h).
void reserveConvThreadScratch(ThreadPool* pool);

}  // namespace oinfer::conv
