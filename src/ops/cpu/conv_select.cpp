// The Conv family's algorithm choice (see conv_select.h). Order of the
// checks, for float32 in NCHW:
//  1. depthwise (one input channel per group): the small-plane kernel, else
//     the 3x3 row kernel or the polyphase plane kernel where a band fits
//     their buffers, else the row kernel, else the portable loop (the blocked
//     layout: the blocked depthwise kernel);
//  2. with constant weights of a static shape: Winograd for 3x3 stride 1
//     with enough channels and tiles, the pixel-vector kernel for image
//     stems, the channel-vector kernel where it measured faster (in the
//     blocked layout wherever it fills its lanes);
//  3. the GEMMs: 1x1 stride 1 over the input (in place with few outputs),
//     the shifted-input GEMM for 2-d convs with one stride, else im2col.
// Thresholds: the constants below; measurements in tools/bench/TUNING.md.
#include "ops/cpu/conv_select.h"

#include "ops/cpu/conv_fast.h"
#include "ops/cpu/conv_maxpool.h"
#include "ops/cpu/gemm/gemm_internal.h"

namespace oinfer::conv {

namespace {

using cpu::KernelIsa;

// --- Winograd -------------------------------------------------------------
// Fewer output channels: the transforms cost more than the 2.25x / 4x fewer multiplies save.
constexpr int64_t kWinogradMinOutputs = 64;
// F(4x4): fewer input channels and the input transform dominates.
constexpr int64_t kWinogradF4MinInputs = 16;
// F(4x4): fewer 4x4 output tiles leave its 36 GEMMs too few rows.
constexpr int64_t kWinogradF4MinTiles = 16;
// F(4x4) from this many 4x4 tiles on, whatever the weights' size (enough tiles amortise their reads).
constexpr int64_t kWinogradF4ManyTiles = 49;
// F(4x4) over fewer tiles only while its transformed weights (36 C M floats) stay in L2.
constexpr int64_t kWinogradF4MaxWeightBytes = int64_t{4} << 20;
// F(2x2): from this many input channels on it beats the shifted-input GEMM.
constexpr int64_t kWinogradF2MinInputs = 128;
// F(2x2): outputs of 12x12 and up (36 tiles of 2x2); fewer leave its 16 GEMMs short.
constexpr int64_t kWinogradF2MinTiles = 36;

// --- Channel-vector kernel (output channels in the lanes) ------------------
// The kernel's panel: 32 output channels, two zmm.
constexpr int64_t kCvecLanes = 32;
// Fewer output channels per group cannot fill its lanes.
constexpr int64_t kCvecMinOutputs = 24;
// At most a quarter of the panels' lanes may be padding (as a fraction).
constexpr int64_t kCvecMaxPadNum = 1, kCvecMaxPadDen = 4;
// 1x1 with a long K: the tile's transposing epilogue is amortised whatever the plane.
constexpr int64_t kCvecLongK = 256;
// 1x1 on 7x7 planes (49 pixels fill the GEMM's 16-pixel vectors to 77%): a shorter K is enough.
constexpr int64_t kCvecSmallPlane = 49, kCvecSmallPlaneMinK = 96;
// 1x1 on planes up to 14x14 with many outputs: ahead of the GEMM there too.
constexpr int64_t kCvecMidPlane = 196, kCvecMidPlaneMinOutputs = 384;
// 1x1 over a few pixels (squeeze-and-excitation) is a matrix-vector product: the GEMM's tiles run empty.
constexpr int64_t kCvecGemvPixels = 4;
// Stride 1, not 1x1: taken where output rows fill under 9/10 of the shifted GEMM's 32-wide panels.
constexpr int64_t kShiftedPanel = 32, kCvecFillNum = 9, kCvecFillDen = 10;

// --- Pixel-vector kernel (image stems) --------------------------------------
// One block of 8 output channels at least (its tile).
constexpr int64_t kPixvecMinOutputs = 8;
// Output rows of a whole 16-pixel vector at least; narrower ones waste its lanes.
constexpr int64_t kPixvecMinRow = 16;

// --- GEMM variants -----------------------------------------------------------
// 1x1 read in place (unpacked) up to this many outputs per group: packing the input would cost as much as the GEMM.
constexpr int64_t kPointwiseDirectMaxOutputs = 64;
// ... over at least two micro-kernel panels of pixels.
constexpr int64_t kPointwiseDirectMinPanels = 2;

// --- Depthwise -----------------------------------------------------------------
// The row kernel takes kernels of up to 16 rows (its row-pointer array).
constexpr int64_t kDwRowsMaxKernelRows = 16;

bool avx512(const cpu::CpuFeatures& f) { return f.avx512(); }

bool isDepthwise(const ConvGeom& g) { return g.Cg == 1 && g.G > 1; }

bool isPointwise(const ConvGeom& g) {
  bool unit = g.K == 1 && g.noPadding;
  for (size_t s = 0; s < kMaxSpatial; ++s) unit = unit && g.s[s] == 1;
  return unit;
}

bool winograd3x3(const ConvGeom& g) {
  return g.G == 1 && g.k[0] == 1 && g.grid[0] == 1 && g.k[1] == 3 && g.k[2] == 3 && g.s[1] == 1 && g.s[2] == 1 &&
         g.dil[1] == 1 && g.dil[2] == 1;
}

int64_t tilesOf(const ConvGeom& g, int64_t m) { return ((g.grid[1] + m - 1) / m) * ((g.grid[2] + m - 1) / m); }

int gemmNr(const cpu::CpuFeatures& f) {
  switch (cpu::vectorIsa(f)) {
    case KernelIsa::kAvx512:
    case KernelIsa::kAvx512Vnni: return gemm::isaAvx512().nr;
    case KernelIsa::kAvx2: return gemm::isaAvx2().nr;
    case KernelIsa::kPortable: break;
  }
  return gemm::isaGeneric().nr;
}

// The depthwise kernel for NCHW float32.
ConvChoice depthwiseChoice(const ConvGeom& g, GemmActivation act, bool residual, const cpu::CpuFeatures& f) {
  const bool v = avx512(f);
  // The small-plane kernel applies its epilogue in registers: no residual, no Gelu.
  if (v && !residual && act != GemmActivation::kGelu && depthwiseBlocksFit(g))
    return {ConvAlgorithm::kDepthwiseSmallPlanes, KernelIsa::kAvx512};
  if (v && depthwisePlanesFit(g))
    return {depthwise3x3RowsFit(g) ? ConvAlgorithm::kDepthwise3x3Rows : ConvAlgorithm::kDepthwisePlanes,
            KernelIsa::kAvx512};
  if (v && g.k[0] == 1 && g.grid[0] == 1 && g.k[1] <= kDwRowsMaxKernelRows && g.dil[1] == 1 && g.dil[2] == 1 &&
      (g.s[2] == 1 || g.s[2] == 2))
    return {ConvAlgorithm::kDepthwiseRows, KernelIsa::kAvx512};
  return {ConvAlgorithm::kDepthwiseLoop, KernelIsa::kPortable};
}

// The GEMM strategies (no plan-time weight transform).
ConvChoice gemmChoice(const ConvGeom& g, const cpu::CpuFeatures& f) {
  const KernelIsa isa = cpu::vectorIsa(f);
  if (isPointwise(g))
    return {choose::pointwiseDirectSuits(g, f) ? ConvAlgorithm::kGemm1x1InPlace : ConvAlgorithm::kGemm1x1, isa};
  if (choose::shiftedSuits(g)) return {ConvAlgorithm::kShiftedGemm, isa};
  return {ConvAlgorithm::kIm2colGemm, isa};
}

// What a plan with constant float32 weights runs a non-depthwise g on, in
// NCHW or (blocked) wherever the channel-vector kernel may replace the
// GEMMs, before asking whether the blocked layout fits it. Gelu has no
// in-tile form.
ConvChoice plannedChoice(const ConvGeom& g, GemmActivation act, bool blocked, const cpu::CpuFeatures& f) {
  const bool pointwise = isPointwise(g), inTile = act != GemmActivation::kGelu;
  if (!pointwise && choose::winogradSuits(g, f)) {
    const bool f4 = choose::winogradOutputTile(g, f) == 4;
    // The AVX-512 path, or portable transforms around the packed GEMM.
    return {f4 ? ConvAlgorithm::kWinogradF4 : ConvAlgorithm::kWinogradF2, cpu::vectorIsa(f)};
  }
  if (!pointwise && inTile && choose::pixvecPreferred(g, f)) return {ConvAlgorithm::kPixelVec, KernelIsa::kAvx512};
  // Asked for the blocked layout: the kernel must still fill its vectors.
  const bool fits = blocked ? choose::cvecSuits(g, f) || choose::cvecBlockedSuits(g, false, true, f)
                            : choose::cvecPreferred(g, f);
  if (fits && inTile) return {ConvAlgorithm::kChannelVec, KernelIsa::kAvx512};
  return gemmChoice(g, f);
}

}  // namespace

const char* algorithmName(ConvAlgorithm a) {
  switch (a) {
    case ConvAlgorithm::kNone: return "none";
    case ConvAlgorithm::kGemm1x1InPlace: return "gemm-1x1-inplace";
    case ConvAlgorithm::kGemm1x1: return "gemm-1x1";
    case ConvAlgorithm::kIm2colGemm: return "im2col-gemm";
    case ConvAlgorithm::kShiftedGemm: return "shifted-gemm";
    case ConvAlgorithm::kWinogradF2: return "winograd-f2x2";
    case ConvAlgorithm::kWinogradF4: return "winograd-f4x4";
    case ConvAlgorithm::kChannelVec: return "channel-vector";
    case ConvAlgorithm::kPixelVec: return "pixel-vector";
    case ConvAlgorithm::kDepthwiseSmallPlanes: return "depthwise-small-planes";
    case ConvAlgorithm::kDepthwise3x3Rows: return "depthwise-3x3-rows";
    case ConvAlgorithm::kDepthwisePlanes: return "depthwise-planes";
    case ConvAlgorithm::kDepthwiseRows: return "depthwise-rows";
    case ConvAlgorithm::kDepthwiseLoop: return "depthwise-loop";
    case ConvAlgorithm::kDepthwiseBlocked: return "depthwise-blocked";
    case ConvAlgorithm::kReferenceGemm1x1: return "reference-1x1";
    case ConvAlgorithm::kReferenceIm2col: return "reference-im2col";
    case ConvAlgorithm::kReferenceDepthwise: return "reference-depthwise";
    case ConvAlgorithm::kConvMaxPool: return "conv-maxpool";
    case ConvAlgorithm::kExpandDepthwise: return "expand-depthwise";
  }
  return "?";
}

std::string ConvChoice::name() const {
  if (algo == ConvAlgorithm::kConvMaxPool) return std::string("conv-maxpool ") + cpu::isaName(isa);
  if (algo == ConvAlgorithm::kExpandDepthwise)
    return std::string("expand-depthwise/") + algorithmName(second) + " " + cpu::isaName(isa);
  std::string s = std::string(algorithmName(algo)) + " " + cpu::isaName(isa);
  if (fallback && second != ConvAlgorithm::kNone)
    s += std::string(" + ") + algorithmName(second) + " " + cpu::isaName(secondIsa);
  return s;
}

ConvChoice chooseConv(const ConvQuery& q, const cpu::CpuFeatures& f) {
  const ConvGeom& g = q.g;
  const bool blocked = q.inBlocked || q.outBlocked;
  if (!q.float32) {
    if (blocked) return {};
    if (isDepthwise(g)) return {ConvAlgorithm::kReferenceDepthwise, KernelIsa::kPortable};
    if (isPointwise(g)) return {ConvAlgorithm::kReferenceGemm1x1, KernelIsa::kPortable};
    return {ConvAlgorithm::kReferenceIm2col, KernelIsa::kPortable};
  }
  if (isDepthwise(g)) {
    if (!blocked) return depthwiseChoice(g, q.act, q.residual, f);
    // Blocked: X and Y (and Z) together, weights repacked at plan time.
    if (q.inBlocked && q.outBlocked && q.constWeights && choose::depthwiseBlockedSuits(g, q.act, f))
      return {ConvAlgorithm::kDepthwiseBlocked, KernelIsa::kAvx512};
    return {};
  }
  if (!q.constWeights) return blocked ? ConvChoice{} : gemmChoice(g, f);
  const ConvChoice c = plannedChoice(g, q.act, blocked, f);
  if (!blocked) return c;
  const bool win = c.algo == ConvAlgorithm::kWinogradF2 || c.algo == ConvAlgorithm::kWinogradF4;
  if (win && choose::winogradBlockedSuits(g, q.inBlocked, q.outBlocked, f)) return c;
  if (c.algo == ConvAlgorithm::kChannelVec && choose::cvecBlockedSuits(g, q.inBlocked, q.outBlocked, f)) return c;
  return {};
}

ConvBlocked convBlockedLayouts(const ConvGeom& g, GemmActivation act, const cpu::CpuFeatures& f) {
  ConvBlocked b;
  if (g.G != 1) {
    if (isDepthwise(g) && choose::depthwiseBlockedSuits(g, act, f)) b.in = b.out = true;
    return b;
  }
  const ConvChoice c = plannedChoice(g, act, true, f);
  if (c.algo == ConvAlgorithm::kWinogradF2 || c.algo == ConvAlgorithm::kWinogradF4) {
    b.planned = true;
    b.in = choose::winogradBlockedSuits(g, true, false, f);
    b.out = choose::winogradBlockedSuits(g, false, true, f);
  } else if (c.algo == ConvAlgorithm::kChannelVec) {
    b.planned = true;
    b.in = choose::cvecBlockedSuits(g, true, false, f);
    b.out = choose::cvecBlockedSuits(g, false, true, f);
  }
  return b;
}

ConvChoice chooseConvMaxPool(const ConvGeom& cg, const pool::PoolGeom& pg, GemmActivation act, bool constWeights,
                             const cpu::CpuFeatures& f) {
  // The fused kernel packs the weights for the pixel-vector conv: constant ones only.
  if (constWeights && act != GemmActivation::kGelu && choose::pixvecPreferred(cg, f) && convMaxPoolFits(cg, pg))
    return {ConvAlgorithm::kConvMaxPool, KernelIsa::kAvx512};
  ConvQuery q;
  q.g = cg;
  q.act = act;
  ConvChoice c = chooseConv(q, f);  // into a buffer, weights packed per call
  c.fallback = true;
  return c;
}

ConvChoice chooseExpandDepthwise(const ConvGeom& ga, const ConvGeom& gb, GemmActivation expandAct,
                                 GemmActivation dwAct, const cpu::CpuFeatures& f) {
  if (avx512(f) && expandAct != GemmActivation::kGelu && expandDepthwiseFits(ga, gb)) {
    ConvChoice c{ConvAlgorithm::kExpandDepthwise, KernelIsa::kAvx512};
    c.second = depthwise3x3RowsFit(gb) ? ConvAlgorithm::kDepthwise3x3Rows : ConvAlgorithm::kDepthwisePlanes;
    c.secondIsa = KernelIsa::kAvx512;
    return c;
  }
  ConvQuery qa;
  qa.g = ga;
  qa.act = expandAct;
  ConvQuery qb;
  qb.g = gb;
  qb.act = dwAct;
  ConvChoice c = chooseConv(qa, f);
  const ConvChoice d = chooseConv(qb, f);
  c.second = d.algo;
  c.secondIsa = d.isa;
  c.fallback = true;
  return c;
}

namespace choose {

bool winogradSuits(const ConvGeom& g, const cpu::CpuFeatures& f) {
  // The AVX-512 path's transforms address planes with int32 offsets.
  if (!winograd3x3(g) || g.M < kWinogradMinOutputs || (avx512(f) && !winogradOffsetsFit(g))) return false;
  if (winogradOutputTile(g, f) == 4) return true;
  return g.C >= kWinogradF2MinInputs && tilesOf(g, 2) >= kWinogradF2MinTiles;
}

int winogradOutputTile(const ConvGeom& g, const cpu::CpuFeatures& f) {
  // F(4x4) runs its GEMMs on the channel-vector kernel: AVX-512 only.
  if (!avx512(f) || g.C < kWinogradF4MinInputs || tilesOf(g, 4) < kWinogradF4MinTiles) return 2;
  if (tilesOf(g, 4) >= kWinogradF4ManyTiles || 36 * g.C * g.M * int64_t(sizeof(float)) <= kWinogradF4MaxWeightBytes)
    return 4;
  return 2;
}

bool winogradBlockedSuits(const ConvGeom& g, bool in, bool out, const cpu::CpuFeatures& f) {
  if (!avx512(f)) return false;  // the blocked transforms are the AVX-512 path's
  if (in && g.C % 16 != 0) return false;
  if (out && g.M % 16 != 0) return false;
  return in || out;
}

bool shiftedSuits(const ConvGeom& g) {
  // 2-d, one stride both ways, not 1x1 (every GEMM ISA has the shifted micro-kernel).
  return g.k[0] == 1 && g.grid[0] == 1 && g.s[1] == g.s[2] && g.K > 1;
}

bool pointwiseDirectSuits(const ConvGeom& g, const cpu::CpuFeatures& f) {
  return g.Mg <= kPointwiseDirectMaxOutputs && g.gridSize >= kPointwiseDirectMinPanels * gemmNr(f);
}

bool cvecSuits(const ConvGeom& g, const cpu::CpuFeatures& f) {
  // 2-d, a horizontal stride the kernel has a variant for (1 or 2), lanes filled.
  if (!avx512(f)) return false;
  if (g.k[0] != 1 || g.grid[0] != 1 || g.img[0] != 1) return false;
  if (g.s[2] > 2 || g.Mg < kCvecMinOutputs) return false;
  const int64_t panels = (g.Mg + kCvecLanes - 1) / kCvecLanes;
  return panels * kCvecLanes * (kCvecMaxPadDen - kCvecMaxPadNum) <= g.Mg * kCvecMaxPadDen;
}

bool cvecPreferred(const ConvGeom& g, const cpu::CpuFeatures& f) {
  if (!cvecSuits(g, f)) return false;
  // Strided convs, any kernel: the GEMMs gather the strided input first.
  if (g.s[1] > 1 || g.s[2] > 1) return true;
  if (g.K == 1)
    return g.Cg >= kCvecLongK || (g.gridSize <= kCvecSmallPlane && g.Cg >= kCvecSmallPlaneMinK) ||
           (g.gridSize <= kCvecMidPlane && g.Mg >= kCvecMidPlaneMinOutputs) || g.gridSize <= kCvecGemvPixels;
  const int64_t OW = g.grid[2], panelCols = (OW + kShiftedPanel - 1) / kShiftedPanel * kShiftedPanel;
  return OW * kCvecFillDen < panelCols * kCvecFillNum;
}

bool cvecBlockedSuits(const ConvGeom& g, bool in, bool out, const cpu::CpuFeatures& f) {
  if (!avx512(f)) return false;
  if (g.k[0] != 1 || g.grid[0] != 1 || g.img[0] != 1 || g.G != 1) return false;
  // Stride 1 or 2 both ways (a blocked input is read in place or from a
  // blocked padded copy, never phase-split); 16 | channels of a blocked side.
  if (!((g.s[1] == 1 && g.s[2] == 1) || (g.s[1] == 2 && g.s[2] == 2))) return false;
  if (in && g.Cg % 16 != 0) return false;
  if (out && g.Mg % 16 != 0) return false;
  return in || out;
}

bool pixvecPreferred(const ConvGeom& g, const cpu::CpuFeatures& f) {
  return avx512(f) && pixvecFits(g) && g.Mg >= kPixvecMinOutputs && g.grid[2] >= kPixvecMinRow;
}

bool depthwiseBlockedSuits(const ConvGeom& g, GemmActivation act, const cpu::CpuFeatures& f) {
  // Gelu has no in-register form.
  return avx512(f) && act != GemmActivation::kGelu && depthwiseBlockedFits(g);
}

}  // namespace choose

}  // namespace oinfer::conv
