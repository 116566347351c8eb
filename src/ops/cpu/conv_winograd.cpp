// Float32 3x3 stride-1 Conv by Winograd F(2x2, 3x3) (Lavin & Gray, "Fast
// Algorithms for Convolutional Neural Networks", 2015):
//   Y (2x2 tile) = A^T [ (G g G^T) (.) (B^T d B) ] A
// with d the 4x4 input window of a tile and g a 3x3 filter. Over all
// channels the element-wise products become 16 independent GEMMs, one per
// position xi of the 4x4 transformed tile:
//   O_xi (tiles x M) = V_xi (tiles x C) * U_xi (C x M)
// so 16 * C * M multiply-adds per 2x2 outputs instead of 36 * C * M (2.25x
// fewer). U = G g G^T is computed and packed once per plan (one PackedB per
// xi); per call, a chunk of tiles at a time (sized to stay in cache):
//   1. input transform, threads over channels, into V (per xi, tiles x C in
//      the GEMM's packed-A layout, so the GEMMs pack nothing);
//   2. the 16 GEMMs, threads over xi (each GEMM on one thread: no barrier
//      inside a GEMM, and tiles x M is small);
//   3. output transform plus bias, threads over tiles, into Y;
// then the residual and the activation over Y, threads over channels (a
// Relu / Clip with no residual is applied in the output transform instead).
// The transforms' constants are 0, +-1 and +-1/2, so the result differs from
// direct convolution by rounding only (~1e-6 relative here).
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#include "ops/cpu/conv_fast.h"
#include "ops/cpu/gemm/act512.h"
#include "ops/cpu/gemm/gemm_internal.h"
#include "ops/cpu/scratch.h"

namespace oinfer::conv {

namespace {

constexpr int kTiles = 16;  // positions in a 4x4 transformed tile

// Caller-thread scratch (workers write into it).
thread_local cpu::AlignedScratch<float> tlsV, tlsO;

// Tiles per chunk: V and O together about 4 MiB; a multiple of the GEMM's
// row tile unless the whole output fits.
int64_t tileChunk(int64_t tiles, int64_t C, int64_t M) {
  constexpr int64_t kBudgetFloats = int64_t{1} << 20;
  const int64_t mr = gemm::isa().mr;
  int64_t tb = kBudgetFloats / (kTiles * (C + M));
  if (tb >= tiles) return tiles;
  return std::max<int64_t>(mr, tb / mr * mr);
}

// B^T d B for one 4x4 window d (row-major), written to v[xi * stride].
inline void inputTile(const float (&d)[4][4], float* v, int64_t stride) {
  float t[4][4];  // B^T d: combine rows
  for (int j = 0; j < 4; ++j) {
    t[0][j] = d[0][j] - d[2][j];
    t[1][j] = d[1][j] + d[2][j];
    t[2][j] = d[2][j] - d[1][j];
    t[3][j] = d[1][j] - d[3][j];
  }
  for (int i = 0; i < 4; ++i) {  // (B^T d) B: combine columns
    v[(i * 4 + 0) * stride] = t[i][0] - t[i][2];
    v[(i * 4 + 1) * stride] = t[i][1] + t[i][2];
    v[(i * 4 + 2) * stride] = t[i][2] - t[i][1];
    v[(i * 4 + 3) * stride] = t[i][1] - t[i][3];
  }
}

// Input transform of channels [c0, c1), tiles [t0, t0 + tb), written for
// each xi straight into the GEMM's packed-A layout (tb x C, panels of mr
// tiles; see gemm::packedAView) at V + xi * xiStride.
void inputTransform(const ConvGeom& g, const float* x, int64_t c0, int64_t c1, int64_t t0, int64_t tb,
                    int64_t xiStride, float* V) {
  const int64_t H = g.img[1], W = g.img[2], TW = (g.grid[2] + 1) / 2, C = g.C;
  const int64_t padT = g.padBegin[1], padL = g.padBegin[2];
  const int64_t mr = gemm::isa().mr, kc = gemm::kKc, mPad = (tb + mr - 1) / mr * mr;
  for (int64_t c = c0; c < c1; ++c) {
    const float* plane = x + c * g.imgSize;
    const int64_t k0 = c / kc * kc, kl = std::min(kc, C - k0);
    float* vc = V + k0 * mPad + (c - k0) * mr;
    for (int64_t t = t0; t < t0 + tb; ++t) {
      const int64_t ty = t / TW, tx = t % TW;
      const int64_t iy = 2 * ty - padT, ix = 2 * tx - padL;
      float d[4][4];
      if (iy >= 0 && iy + 4 <= H && ix >= 0 && ix + 4 <= W) {
        for (int i = 0; i < 4; ++i) {
          const float* r = plane + (iy + i) * W + ix;
          for (int j = 0; j < 4; ++j) d[i][j] = r[j];
        }
      } else {  // a border tile: zero outside the image
        for (int i = 0; i < 4; ++i)
          for (int j = 0; j < 4; ++j) {
            const int64_t yy = iy + i, xx = ix + j;
            d[i][j] = yy >= 0 && yy < H && xx >= 0 && xx < W ? plane[yy * W + xx] : 0.f;
          }
      }
      const int64_t r = t - t0;
      inputTile(d, vc + r / mr * mr * kl + r % mr, xiStride);
    }
  }
}

#if defined(__x86_64__) || defined(__i386__)
// The same with AVX-512, 12 tiles (one packed-A panel row of the GEMM's
// AVX-512 micro-kernel) per step: each of the 16 window values is one
// masked gather over the 12 tiles (lanes outside the image read 0: the
// padding, so border tiles need no second path), the transform runs on
// vectors and each V_xi row is one masked store. The scalar transform was
// 6% of ResNet-50's time. Needs the AVX-512 ISA's mr == 12.
__attribute__((target("avx512f"))) void inputTransform512(const ConvGeom& g, const float* x, int64_t c0, int64_t c1,
                                                          int64_t t0, int64_t tb, int64_t xiStride, float* V) {
  const int64_t H = g.img[1], W = g.img[2], TW = (g.grid[2] + 1) / 2, C = g.C;
  const int64_t padT = g.padBegin[1], padL = g.padBegin[2];
  constexpr int64_t mr = 12;
  const int64_t kc = gemm::kKc, mPad = (tb + mr - 1) / mr * mr;
  for (int64_t r0 = 0; r0 < tb; r0 += mr) {
    const int n = int(std::min<int64_t>(mr, tb - r0));
    alignas(64) int32_t off[16] = {};
    __mmask16 valid[4][4] = {};
    for (int l = 0; l < n; ++l) {
      const int64_t t = t0 + r0 + l, iy = 2 * (t / TW) - padT, ix = 2 * (t % TW) - padL;
      off[l] = int32_t(iy * W + ix);
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
          if (iy + i >= 0 && iy + i < H && ix + j >= 0 && ix + j < W) valid[i][j] |= __mmask16(1u << l);
    }
    const __m512i voff = _mm512_load_si512(off);
    const __mmask16 store = __mmask16((1u << n) - 1);
    for (int64_t c = c0; c < c1; ++c) {
      const float* plane = x + c * g.imgSize;
      __m512 d[4][4];
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
          d[i][j] = _mm512_mask_i32gather_ps(_mm512_setzero_ps(), valid[i][j],
                                             _mm512_add_epi32(voff, _mm512_set1_epi32(int32_t(i * W + j))), plane, 4);
      __m512 t[4][4];  // B^T d: combine rows
      for (int j = 0; j < 4; ++j) {
        t[0][j] = _mm512_sub_ps(d[0][j], d[2][j]);
        t[1][j] = _mm512_add_ps(d[1][j], d[2][j]);
        t[2][j] = _mm512_sub_ps(d[2][j], d[1][j]);
        t[3][j] = _mm512_sub_ps(d[1][j], d[3][j]);
      }
      const int64_t k0 = c / kc * kc, kl = std::min(kc, C - k0);
      float* dst = V + k0 * mPad + (c - k0) * mr + r0 / mr * mr * kl;
      for (int i = 0; i < 4; ++i) {  // (B^T d) B: combine columns
        _mm512_mask_storeu_ps(dst + (i * 4 + 0) * xiStride, store, _mm512_sub_ps(t[i][0], t[i][2]));
        _mm512_mask_storeu_ps(dst + (i * 4 + 1) * xiStride, store, _mm512_add_ps(t[i][1], t[i][2]));
        _mm512_mask_storeu_ps(dst + (i * 4 + 2) * xiStride, store, _mm512_sub_ps(t[i][2], t[i][1]));
        _mm512_mask_storeu_ps(dst + (i * 4 + 3) * xiStride, store, _mm512_sub_ps(t[i][1], t[i][3]));
      }
    }
  }
}
#endif

// Output transform of tiles [ta, tb) (chunk-relative; chunk starts at t0):
// A^T O A plus the bias, into Y (M x OH x OW). O is [xi][t][m].
void outputTransform(const ConvGeom& g, const float* O, int64_t oStride, int64_t t0, int64_t ta, int64_t tbEnd,
                     const float* bias, bool clamp, float lo, float hi, float* y) {
  const int64_t M = g.M, OH = g.grid[1], OW = g.grid[2], TW = (OW + 1) / 2, P = g.gridSize;
  constexpr int64_t kLanes = 16;
  for (int64_t t = ta; t < tbEnd; ++t) {
    const int64_t ty = (t0 + t) / TW, tx = (t0 + t) % TW;
    const int64_t oy = 2 * ty, ox = 2 * tx;
    const bool fullY = oy + 1 < OH, fullX = ox + 1 < OW;
    float* y00 = y + oy * OW + ox;
    for (int64_t m0 = 0; m0 < M; m0 += kLanes) {
      const int64_t lanes = std::min(kLanes, M - m0);
      float r[4][kLanes];  // outputs (0,0), (0,1), (1,0), (1,1)
      float s[2][4][kLanes];
      // A^T X: rows; A = [[1,0],[1,1],[1,-1],[0,-1]].
      for (int j = 0; j < 4; ++j) {
        const float* x0 = O + (0 * 4 + j) * oStride + t * M + m0;
        const float* x1 = O + (1 * 4 + j) * oStride + t * M + m0;
        const float* x2 = O + (2 * 4 + j) * oStride + t * M + m0;
        const float* x3 = O + (3 * 4 + j) * oStride + t * M + m0;
        for (int64_t l = 0; l < lanes; ++l) {
          s[0][j][l] = x0[l] + x1[l] + x2[l];
          s[1][j][l] = x1[l] - x2[l] - x3[l];
        }
      }
      for (int i = 0; i < 2; ++i)
        for (int64_t l = 0; l < lanes; ++l) {
          const float bv = bias ? bias[m0 + l] : 0.f;
          r[i * 2 + 0][l] = s[i][0][l] + s[i][1][l] + s[i][2][l] + bv;
          r[i * 2 + 1][l] = s[i][1][l] - s[i][2][l] - s[i][3][l] + bv;
        }
      if (clamp)
        for (int q = 0; q < 4; ++q)
          for (int64_t l = 0; l < lanes; ++l) r[q][l] = r[q][l] < lo ? lo : r[q][l] > hi ? hi : r[q][l];
      for (int64_t l = 0; l < lanes; ++l) {
        float* yp = y00 + (m0 + l) * P;
        yp[0] = r[0][l];
        if (fullX) yp[1] = r[1][l];
        if (fullY) {
          yp[OW] = r[2][l];
          if (fullX) yp[OW + 1] = r[3][l];
        }
      }
    }
  }
}

}  // namespace

bool winogradSuits(const ConvGeom& g) {
  // 2-d 3x3, stride 1, no dilation, one group; enough channels for the
  // transforms (per channel) to be small next to the GEMMs, and enough 2x2
  // tiles (outputs of 12x12 and up). Against the shifted-input GEMM (2
  // threads, one run): 128 ch @28 0.97-1.09 vs 1.32-1.47 ms, 256 ch @14
  // 1.08-1.24 vs 1.14-1.43; even at 64 ch @56 (so not worth the 16/9 larger
  // weights there), and 1.7x slower at 16 ch (SqueezeNet's expand3x3).
  if (g.G != 1 || g.k[0] != 1 || g.grid[0] != 1 || g.k[1] != 3 || g.k[2] != 3) return false;
  if (g.s[1] != 1 || g.s[2] != 1 || g.dil[1] != 1 || g.dil[2] != 1) return false;
  if (g.C < 128 || g.M < 64) return false;
  const int64_t tiles = ((g.grid[1] + 1) / 2) * ((g.grid[2] + 1) / 2);
  return tiles >= 36;
}

std::vector<PackedB> packWinogradWeights(const ConvGeom& g, const float* w) {
  const int64_t C = g.C, M = g.M;
  std::unique_ptr<float[]> u(new float[kTiles * C * M]);
  // G = [[1,0,0],[1/2,1/2,1/2],[1/2,-1/2,1/2],[0,0,1]]; U = G w G^T.
  for (int64_t m = 0; m < M; ++m)
    for (int64_t c = 0; c < C; ++c) {
      const float* k = w + (m * C + c) * 9;
      float t[4][3];  // G k
      for (int j = 0; j < 3; ++j) {
        t[0][j] = k[j];
        t[1][j] = 0.5f * (k[j] + k[3 + j] + k[6 + j]);
        t[2][j] = 0.5f * (k[j] - k[3 + j] + k[6 + j]);
        t[3][j] = k[6 + j];
      }
      for (int i = 0; i < 4; ++i) {
        const float ui[4] = {t[i][0], 0.5f * (t[i][0] + t[i][1] + t[i][2]), 0.5f * (t[i][0] - t[i][1] + t[i][2]),
                             t[i][2]};
        for (int j = 0; j < 4; ++j) u[((i * 4 + j) * C + c) * M + m] = ui[j];
      }
    }
  std::vector<PackedB> out;
  out.reserve(kTiles);
  for (int xi = 0; xi < kTiles; ++xi) out.push_back(packB(false, C, M, u.get() + xi * C * M, M));
  return out;
}

namespace {

#if defined(__x86_64__) || defined(__i386__)
// The output transform on 16 channels per vector: the 16 O_xi rows of a tile
// are contiguous in m, so A^T O A and the bias are vector adds, and each of
// the tile's four outputs is one scatter over the 16 channel planes.
__attribute__((target("avx512f"))) void outputTransform512(const ConvGeom& g, const float* O, int64_t oStride,
                                                           int64_t t0, int64_t ta, int64_t tbEnd, const float* bias,
                                                           bool clamp, float lo, float hi, float* y) {
  const int64_t M = g.M, OH = g.grid[1], OW = g.grid[2], TW = (OW + 1) / 2, P = g.gridSize;
  const __m512i planes = _mm512_mullo_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                                            _mm512_set1_epi32(int32_t(P)));
  const __m512i right = _mm512_add_epi32(planes, _mm512_set1_epi32(1));
  const __m512i down = _mm512_add_epi32(planes, _mm512_set1_epi32(int32_t(OW)));
  const __m512i downRight = _mm512_add_epi32(planes, _mm512_set1_epi32(int32_t(OW + 1)));
  const __m512 vlo = _mm512_set1_ps(lo), vhi = _mm512_set1_ps(hi);
  for (int64_t t = ta; t < tbEnd; ++t) {
    const int64_t oy = 2 * ((t0 + t) / TW), ox = 2 * ((t0 + t) % TW);
    const bool fullY = oy + 1 < OH, fullX = ox + 1 < OW;
    for (int64_t m0 = 0; m0 < M; m0 += 16) {
      const __mmask16 lm = gemm::firstLanes(M - m0);
      const float* o = O + t * M + m0;
      __m512 s0[4], s1[4];
      for (int j = 0; j < 4; ++j) {  // A^T X: rows
        const __m512 x0 = _mm512_maskz_loadu_ps(lm, o + (0 * 4 + j) * oStride);
        const __m512 x1 = _mm512_maskz_loadu_ps(lm, o + (1 * 4 + j) * oStride);
        const __m512 x2 = _mm512_maskz_loadu_ps(lm, o + (2 * 4 + j) * oStride);
        const __m512 x3 = _mm512_maskz_loadu_ps(lm, o + (3 * 4 + j) * oStride);
        s0[j] = _mm512_add_ps(_mm512_add_ps(x0, x1), x2);
        s1[j] = _mm512_sub_ps(_mm512_sub_ps(x1, x2), x3);
      }
      const __m512 bv = bias ? _mm512_maskz_loadu_ps(lm, bias + m0) : _mm512_setzero_ps();
      __m512 r00 = _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(s0[0], s0[1]), s0[2]), bv);
      __m512 r01 = _mm512_add_ps(_mm512_sub_ps(_mm512_sub_ps(s0[1], s0[2]), s0[3]), bv);
      __m512 r10 = _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(s1[0], s1[1]), s1[2]), bv);
      __m512 r11 = _mm512_add_ps(_mm512_sub_ps(_mm512_sub_ps(s1[1], s1[2]), s1[3]), bv);
      if (clamp) {
        r00 = _mm512_min_ps(_mm512_max_ps(r00, vlo), vhi);
        r01 = _mm512_min_ps(_mm512_max_ps(r01, vlo), vhi);
        r10 = _mm512_min_ps(_mm512_max_ps(r10, vlo), vhi);
        r11 = _mm512_min_ps(_mm512_max_ps(r11, vlo), vhi);
      }
      float* y00 = y + m0 * P + oy * OW + ox;
      _mm512_mask_i32scatter_ps(y00, lm, planes, r00, 4);
      if (fullX) _mm512_mask_i32scatter_ps(y00, lm, right, r01, 4);
      if (fullY) {
        _mm512_mask_i32scatter_ps(y00, lm, down, r10, 4);
        if (fullX) _mm512_mask_i32scatter_ps(y00, lm, downRight, r11, 4);
      }
    }
  }
}
#endif

}  // namespace

void convWinograd(ThreadPool& pool, const ConvGeom& g, const float* x, const std::vector<PackedB>& U, const float* b,
                  const float* z, float* y, const Activation& act) {
  const int64_t C = g.C, M = g.M, P = g.gridSize;
  const int64_t tiles = ((g.grid[1] + 1) / 2) * ((g.grid[2] + 1) / 2);
  const int64_t TB = tileChunk(tiles, C, M), mr = gemm::isa().mr;
  const int64_t xiStride = C * ((TB + mr - 1) / mr * mr);  // one packed V_xi
  float* V = tlsV.get(size_t(kTiles * xiStride));
  float* O = tlsO.get(size_t(kTiles * TB * M));
  // Relu / Clip with no residual: clamped in the output transform (no pass over Y after).
  const ClampSplit cs = splitClamp(act);
  const bool clampInTransform = !z && cs.clamp;
  const float lo = cs.lo, hi = cs.hi;
  for (int64_t n = 0; n < g.N; ++n) {
    const float* xn = x + n * C * g.imgSize;
    float* yn = y + n * M * P;
    for (int64_t t0 = 0; t0 < tiles; t0 += TB) {
      const int64_t tb = std::min(TB, tiles - t0);
      pool.parallelFor(C, [&](int64_t c0, int64_t c1) {
#if defined(__x86_64__) || defined(__i386__)
        if (mr == 12 && gemm::cpuHasAvx512() && g.imgSize < (int64_t{1} << 30)) {  // int32 gather offsets
          inputTransform512(g, xn, c0, c1, t0, tb, xiStride, V);
          return;
        }
#endif
        inputTransform(g, xn, c0, c1, t0, tb, xiStride, V);
      }, std::max<int64_t>(1, 2048 / tb));
      pool.parallelFor(kTiles, [&](int64_t x0, int64_t x1) {
        for (int64_t xi = x0; xi < x1; ++xi)
          gemm::gemmPackedAB(gemm::packedAView(tb, C, V + xi * xiStride), U[xi], 1.f, 0.f, O + xi * TB * M, M,
                             GemmEpilogue{}, nullptr);
      });
      pool.parallelFor(tb, [&](int64_t ta, int64_t te) {
#if defined(__x86_64__) || defined(__i386__)
        if (gemm::cpuHasAvx512() && M * P < (int64_t{1} << 31)) {
          outputTransform512(g, O, TB * M, t0, ta, te, b, clampInTransform, lo, hi, yn);
          return;
        }
#endif
        outputTransform(g, O, TB * M, t0, ta, te, b, clampInTransform, lo, hi, yn);
      }, std::max<int64_t>(1, 1024 / M));
    }
    if (z || (act.act != GemmActivation::kNone && !clampInTransform)) {
      GemmEpilogue ep;
      ep.act = act.act;
      ep.p0 = act.p0;
      ep.p1 = act.p1;
      if (z) {
        ep.residual = z + n * M * P;
        ep.ldr = P;
      }
      pool.parallelFor(M, [&](int64_t m0, int64_t m1) {
        applyGemmEpilogue(ep, yn + m0 * P, P, m1 - m0, P, m0, 0);
      }, std::max<int64_t>(1, 4096 / P));
    }
  }
}

}  // namespace oinfer::conv
