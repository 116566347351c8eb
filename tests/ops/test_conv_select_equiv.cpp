// THROWAWAY: the old Conv decision path (chooseStrategy, plannedStrategy,
// ConvKernel's constructor, convFloat's and depthwise's internal branches,
// FusedConvMaxPool / FusedConvDepthwise, convBlocked) against chooseConv over
// a broad grid of geometries. Run under OINFER_CPU_CAP=native / avx2 /
// generic; deleted with the old path.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <string>

#include "ops/cpu/conv_fast.h"
#include "ops/cpu/conv_maxpool.h"
#include "ops/cpu/conv_select.h"
#include "ops/cpu/gemm/gemm_internal.h"

namespace oinfer::testing {
namespace {

using conv::ConvAlgorithm;
using conv::ConvGeom;
using conv::Strategy;
using A = ConvAlgorithm;

Strategy oldPlanned(const ConvGeom& g, GemmActivation act, bool cvec) {
  const Strategy st = conv::chooseStrategy(g);
  const bool inTile = act != GemmActivation::kGelu;
  if (st == Strategy::kIm2col && conv::winogradSuits(g)) return Strategy::kWinograd;
  if (st == Strategy::kIm2col && conv::pixvecPreferred(g) && inTile) return Strategy::kPixelVec;
  const bool fits = cvec ? conv::cvecSuits(g) || conv::cvecBlockedSuits(g, false, true) : conv::cvecPreferred(g);
  if ((st == Strategy::kIm2col || st == Strategy::kPointwise) && fits && inTile) return Strategy::kChannelVec;
  return st;
}

// convFloat's and depthwise()'s leaf for a strategy.
A oldLeaf(const ConvGeom& g, Strategy st, GemmActivation act, bool z) {
  const bool avx512 = gemm::avx512Kernels();
  switch (st) {
    case Strategy::kWinograd: return conv::winogradOutputTile(g) == 4 ? A::kWinogradF4 : A::kWinogradF2;
    case Strategy::kPixelVec: return A::kPixelVec;
    case Strategy::kChannelVec: return A::kChannelVec;
    case Strategy::kDepthwise: {
      if (avx512 && !z && act != GemmActivation::kGelu && conv::depthwiseBlocksFit(g)) return A::kDepthwiseSmallPlanes;
      if (avx512 && conv::depthwisePlanesFit(g))
        return conv::depthwise3x3RowsFit(g) ? A::kDepthwise3x3Rows : A::kDepthwisePlanes;
      const bool fast = avx512 && g.k[0] == 1 && g.grid[0] == 1 && g.k[1] <= 16 && g.dil[1] == 1 && g.dil[2] == 1 &&
                        (g.s[2] == 1 || g.s[2] == 2);
      return fast ? A::kDepthwiseRows : A::kDepthwiseLoop;
    }
    case Strategy::kIm2col: return conv::shiftedSuits(g) ? A::kShiftedGemm : A::kIm2colGemm;
    case Strategy::kPointwise: return conv::pointwiseDirectSuits(g) ? A::kGemm1x1InPlace : A::kGemm1x1;
  }
  return A::kNone;
}

A oldConv(const ConvGeom& g, bool f32, GemmActivation act, bool z, bool constW, bool inB, bool outB) {
  Strategy st = conv::chooseStrategy(g);
  if (!f32) {
    if (inB || outB) return A::kNone;
    return st == Strategy::kDepthwise ? A::kReferenceDepthwise
           : st == Strategy::kPointwise ? A::kReferenceGemm1x1
                                        : A::kReferenceIm2col;
  }
  if (constW) st = oldPlanned(g, act, inB || outB);
  if (inB || outB) {
    if (st == Strategy::kDepthwise && inB && outB && constW && conv::depthwiseBlockedSuits(g, act))
      return A::kDepthwiseBlocked;
    if (!(st == Strategy::kChannelVec && conv::cvecBlockedSuits(g, inB, outB)) &&
        !(st == Strategy::kWinograd && conv::winogradBlockedSuits(g, inB, outB)))
      return A::kNone;
  }
  return oldLeaf(g, st, act, z);
}

conv::ConvBlocked oldBlocked(const ConvGeom& g, GemmActivation act) {
  conv::ConvBlocked b;
  if (g.G != 1) {
    if (conv::chooseStrategy(g) == Strategy::kDepthwise && conv::depthwiseBlockedSuits(g, act)) b.in = b.out = true;
    return b;
  }
  const Strategy st = oldPlanned(g, act, true);
  b.planned = st == Strategy::kWinograd || st == Strategy::kChannelVec;
  if (st == Strategy::kWinograd) {
    b.in = conv::winogradBlockedSuits(g, true, false);
    b.out = conv::winogradBlockedSuits(g, false, true);
  } else if (st == Strategy::kChannelVec) {
    b.in = conv::cvecBlockedSuits(g, true, false);
    b.out = conv::cvecBlockedSuits(g, false, true);
  }
  return b;
}

ConvGeom geom(int64_t C, int64_t M, int64_t G, int64_t H, int64_t W, int64_t k, int64_t s, int64_t d, int64_t pad) {
  ConvGeom g;
  g.N = 1;
  g.C = C;
  g.M = M;
  g.G = G;
  g.Cg = C / G;
  g.Mg = M / G;
  g.img = {1, H, W};
  g.grid = {1, (H + 2 * pad - d * (k - 1) - 1) / s + 1, (W + 2 * pad - d * (k - 1) - 1) / s + 1};
  g.k = {1, k, k};
  g.s = {1, s, s};
  g.dil = {1, d, d};
  g.padBegin = {0, pad, pad};
  g.K = k * k;
  g.imgSize = H * W;
  g.gridSize = g.grid[1] * g.grid[2];
  g.noPadding = pad == 0;
  return g;
}

std::string desc(const ConvGeom& g) {
  char b[256];
  std::snprintf(b, sizeof b, "C%lld M%lld G%lld %lldx%lld k%lld s%lld d%lld p%lld", (long long)g.C, (long long)g.M,
                (long long)g.G, (long long)g.img[1], (long long)g.img[2], (long long)g.k[1], (long long)g.s[1],
                (long long)g.dil[1], (long long)g.padBegin[1]);
  return b;
}

TEST(ConvSelectEquiv, OldVsNew) {
  const cpu::CpuFeatures& f = cpu::cpuFeatures();
  const std::vector<int64_t> chans = {1, 3, 4, 8, 16, 24, 32, 40, 48, 64, 96, 128, 160, 192, 256, 384, 512, 576, 1024, 2048};
  const std::vector<std::pair<int64_t, int64_t>> planes = {{1, 1},   {2, 2},   {4, 4},   {7, 7},     {8, 8},
                                                           {12, 12}, {13, 13}, {14, 14}, {16, 16},   {17, 17},
                                                           {20, 20}, {28, 28}, {55, 55}, {56, 56},   {64, 64},
                                                           {112, 112}, {224, 224}, {7, 300}, {30, 1030}, {3, 2100}};
  const GemmActivation acts[] = {GemmActivation::kNone, GemmActivation::kRelu, GemmActivation::kGelu,
                                 GemmActivation::kSiLU};
  int64_t compared = 0, mismatches = 0, geoms = 0;
  std::map<std::string, int64_t> seen;
  auto check = [&](const char* what, const ConvGeom& g, A o, A n, const std::string& extra) {
    ++compared;
    if (o != n) {
      if (++mismatches <= 30)
        ADD_FAILURE() << what << " " << desc(g) << " " << extra << ": old " << conv::algorithmName(o) << ", new "
                      << conv::algorithmName(n);
    }
  };
  for (int64_t C : chans)
    for (int64_t M : chans)
      for (auto [H, W] : planes)
        for (int64_t k : {1, 3, 5, 7})
          for (int64_t s : {1, 2, 3})
            for (int64_t d : {1, 2})
              for (int64_t pad : {int64_t{0}, (k - 1) / 2 * d})
                for (int gk = 0; gk < 3; ++gk) {
                  int64_t G = 1, CC = C, MM = M;
                  if (gk == 1) {  // depthwise, multiplier M / C in {1, 2}
                    if (M != C && M != 2 * C) continue;
                    G = C;
                  } else if (gk == 2) {
                    if (C % 2 || M % 2) continue;
                    G = 2;
                  }
                  if (G == 1 && C > 1 && M == 1) continue;
                  if (k > 1 && pad == 0 && d == 2 && k == 7) continue;
                  ConvGeom g = geom(CC, MM, G, H, W, k, s, d, pad);
                  if (g.grid[1] < 1 || g.grid[2] < 1) continue;
                  ++geoms;
                  for (GemmActivation act : acts)
                    for (int z = 0; z < 2; ++z)
                      for (int cw = 0; cw < 2; ++cw)
                        for (int lay = 0; lay < 4; ++lay) {
                          const bool inB = lay & 1, outB = lay & 2;
                          conv::ConvQuery q;
                          q.g = g;
                          q.act = act;
                          q.residual = z;
                          q.constWeights = cw;
                          q.inBlocked = inB;
                          q.outBlocked = outB;
                          const conv::ConvChoice c = conv::chooseConv(q, f);
                          ++seen[c.name()];
                          check("conv", g, oldConv(g, true, act, z, cw, inB, outB), c.algo,
                                "act" + std::to_string(int(act)) + " z" + std::to_string(z) + " cw" +
                                    std::to_string(cw) + " lay" + std::to_string(lay));
                          if (c.isa == cpu::KernelIsa::kAvx512 && !gemm::avx512Kernels()) {
                            ++mismatches;
                            ADD_FAILURE() << "avx512 chosen without it: " << desc(g);
                          }
                        }
                  for (int z = 0; z < 2; ++z) {
                    conv::ConvQuery q;
                    q.g = g;
                    q.float32 = false;
                    q.residual = z;
                    check("f64", g, oldConv(g, false, GemmActivation::kNone, z, true, false, false),
                          conv::chooseConv(q, f).algo, "");
                  }
                  for (GemmActivation act : acts) {
                    const conv::ConvBlocked o = oldBlocked(g, act), n = conv::convBlockedLayouts(g, act, f);
                    check("blocked-in", g, o.in ? A::kChannelVec : A::kNone, n.in ? A::kChannelVec : A::kNone, "");
                    check("blocked-out", g, o.out ? A::kChannelVec : A::kNone, n.out ? A::kChannelVec : A::kNone, "");
                    check("blocked-planned", g, o.planned ? A::kChannelVec : A::kNone,
                          n.planned ? A::kChannelVec : A::kNone, "");
                  }
                  // FusedConvMaxPool over the conv's output (2x2 / 3x3 stride 2, 3x3 stride 1).
                  if (G == 1 && d == 1 && C <= 8) {
                    for (int pk = 0; pk < 4; ++pk) {
                      shape::WindowAttrs pa;
                      const int64_t kk = pk == 0 ? 2 : 3, ps = pk == 3 ? 1 : 2, pp = pk == 2 ? 1 : 0;
                      pa.kernel = {kk, kk};
                      pa.strides = {ps, ps};
                      pa.dilations = {1, 1};
                      pa.pads = {pp, pp, pp, pp};
                      if (g.grid[1] + 2 * pp < kk || g.grid[2] + 2 * pp < kk) continue;
                      const pool::PoolGeom pg = pool::poolGeom(Node{}, pa, {1, M, g.grid[1], g.grid[2]});
                      for (GemmActivation act : acts)
                        for (int cw = 0; cw < 2; ++cw) {
                          conv::Activation a;
                          a.act = act;
                          const bool fusedOld = cw && conv::convMaxPoolSuits(g, pg, a);
                          const A o = fusedOld ? A::kConvMaxPool : oldLeaf(g, conv::chooseStrategy(g), act, false);
                          check("convmaxpool", g, o, conv::chooseConvMaxPool(g, pg, act, cw, f).algo,
                                "pool" + std::to_string(pk));
                        }
                    }
                  }
                  // FusedConvDepthwise: a 1x1 expand C -> E=M then this depthwise.
                  if (gk == 1 && M == C) {
                    ConvGeom ga = geom(16, M, 1, H, W, 1, 1, 1, 0);
                    for (GemmActivation a1 : acts)
                      for (GemmActivation a2 : acts) {
                        conv::Activation act1;
                        act1.act = a1;
                        const conv::ConvChoice n = conv::chooseExpandDepthwise(ga, g, a1, a2, f);
                        if (conv::expandDepthwiseSuits(ga, g, act1)) {
                          check("expanddw", g, A::kExpandDepthwise, n.algo, "");
                          check("expanddw-second", g,
                                conv::depthwise3x3RowsFit(g) ? A::kDepthwise3x3Rows : A::kDepthwisePlanes, n.second,
                                "");
                        } else {
                          check("expanddw-a", g, oldLeaf(ga, conv::chooseStrategy(ga), a1, false), n.algo, "");
                          check("expanddw-b", g, oldLeaf(g, conv::chooseStrategy(g), a2, false), n.second, "");
                        }
                      }
                  }
                }
  std::printf("ConvSelectEquiv: cap %s, %lld geometries, %lld decisions compared, %lld mismatches\n",
              gemm::isa().name, (long long)geoms, (long long)compared, (long long)mismatches);
  for (const auto& [n, k] : seen) std::printf("  %-32s %lld\n", n.c_str(), (long long)k);
  EXPECT_EQ(mismatches, 0);
}

}  // namespace
}  // namespace oinfer::testing
