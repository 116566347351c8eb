// The float32 Conv path on the packed GEMM (src/ops/cpu/gemm): weights packed
// once per plan, im2col gathered straight into the GEMM's packed B layout,
// bias / residual / activation fused into the GEMM epilogue, and a direct
// depthwise kernel with the same epilogue.
#pragma once

#include <vector>

#include "ops/cpu/conv_common.h"
#include "ops/cpu/gemm/sgemm.h"

namespace oinfer::conv {

enum class Strategy { kPointwise, kDepthwise, kIm2col, kWinograd, kChannelVec };

Strategy chooseStrategy(const ConvGeom& g);

// The activation part of a fused Conv (bias and residual are per call).
struct Activation {
  GemmActivation act = GemmActivation::kNone;
  float p0 = 0.f, p1 = 0.f;
};

// An activation split the way the tile epilogues apply it: Relu / Clip as
// a clamp to [lo, hi], any other left in `rest` (applied after the clamp).
struct ClampSplit {
  bool clamp = false;
  float lo = 0.f, hi = 0.f;
  GemmActivation rest = GemmActivation::kNone;
};
ClampSplit splitClamp(const Activation& act);

// One PackedA per group: W[g] as the Mg x Cg*K left operand.
std::vector<PackedA> packConvWeights(const ConvGeom& g, const float* w);

// y = act(conv(x, w) + b + z). `packed` may be empty (packs per call); b and
// z may be null; z has y's shape.
void convFloat(ThreadPool& pool, const ConvGeom& g, Strategy st, const float* x, const float* w,
               const std::vector<PackedA>& packed, const float* b, const float* z, float* y, const Activation& act);

// Winograd F(2x2, 3x3) (conv_winograd.cpp): for 2-d 3x3 stride-1 convs with
// enough channels and output tiles; chosen at plan time for constant
// weights, which packWinogradWeights transforms and packs (16 PackedB).
bool winogradSuits(const ConvGeom& g);
std::vector<PackedB> packWinogradWeights(const ConvGeom& g, const float* w);
void convWinograd(ThreadPool& pool, const ConvGeom& g, const float* x, const std::vector<PackedB>& U, const float* b,
                  const float* z, float* y, const Activation& act);

// The shifted-input GEMM (conv_shifted.cpp) for 2-d convs with one stride
// both ways, not 1x1: B read straight from zero-padded polyphase
// copies of the input, no im2col.
// Needs the packed weights (packConvWeights).
bool shiftedSuits(const ConvGeom& g);
void convShifted(ThreadPool& pool, const ConvGeom& g, const std::vector<PackedA>& packed, const float* x,
                 const float* b, const float* z, float* y, const Activation& act);

// Pointwise (1x1, stride 1, unpadded) convs with few output channels per
// group (<= 64): the micro-kernel reads B straight from the input's channel planes
// (conv_shifted.cpp), since packing the input would cost as much as the GEMM.
bool pointwiseDirectSuits(const ConvGeom& g);
void convPointwiseDirect(ThreadPool& pool, const ConvGeom& g, const std::vector<PackedA>& packed, const float* x,
                         const float* b, const float* z, float* y, const Activation& act);

// Output channels in the vector lanes (conv_cvec.cpp, AVX-512): for 2-d
// convs with a horizontal stride of 1 or 2 and enough output channels per
// group; tiles of up to 12 output pixels of a row times 32 channels, the
// input read in place (or from a zero-padded copy). Weights packed by
// packCvecWeights (per group: ceil(Mg / 32) panels of Cg*K x 32).
bool cvecSuits(const ConvGeom& g);
// Whether a plan with constant weights takes it over the GEMM strategies
// (cvecSuits, and the shapes where it measured faster).
bool cvecPreferred(const ConvGeom& g);
std::vector<PackedB> packCvecWeights(const ConvGeom& g, const float* w);
void convCvec(ThreadPool& pool, const ConvGeom& g, const std::vector<PackedB>& packed, const float* x,
              const float* b, const float* z, float* y, const Activation& act);

// Parses a FusedConv's activation / activation_params attributes.
Activation parseActivation(const Node& node);

}  // namespace oinfer::conv
