// The AVX-512 depthwise kernel for small planes (depthwiseBlocks512): 16
// channels in the vector lanes through register transposes. Split from
// conv_depthwise.cpp (the row and plane kernels); conv_depthwise_blocked.cpp
// has the NCHW16c form. Which one a Conv runs: conv_select.cpp.
#include <immintrin.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>

#include "ops/cpu/conv_common.h"
#include "ops/cpu/conv_fast.h"
#include "ops/cpu/gemm/act512.h"
#include "ops/cpu/gemm/gemm_internal.h"

namespace oinfer::conv {

// Small planes (rows of at most 16, MobileNet's and EfficientNet's 14x14 and
// 7x7 stages), 16 channels at a time in the vector lanes: each input row of
// 16 planes is one register transpose into a zero-padded pixel-major block
// (pixel, 16 channels), every output pixel is KH*KW aligned loads and FMAs
// against the taps' 16-channel weight vectors (any stride or dilation, no
// shuffles), and each output row is transposed back into the 16 planes. The
// plane-at-a-time kernel spent more on a 7x7 plane's band set-up and copies
// than on its multiply-adds (tools/bench/TUNING.md).
namespace {

constexpr int kMaxPlaneTaps = 64;  // taps the weight vectors hold (as the plane kernel's)

constexpr int64_t kBlockPixels = 400;  // padded pixels of a block (20x20: a 5x5 window over 16x16)

struct SmallPlaneLayout {
  int64_t Hp, Wp;  // the padded extent the windows read
};

SmallPlaneLayout smallPlaneLayout(const ConvGeom& g) {
  return {windowSpan(g, 1), windowSpan(g, 2)};
}


// One block's output rows (see depthwiseBlocks512): each output pixel is the
// taps' aligned loads from the pixel-major block against the taps' weight
// vectors, then each row is transposed back into the 16 planes.
struct BlockRows {
  const float* in;
  const float* wt;
  int64_t Wp, OH, OW, sh, sw, dh, dw;
  __m512 bias;
  bool clamp;
  __m512 vlo, vhi;
  GemmActivation act;
  __m512 vp0, vp1;
  float* out;  // one output row, pixel-major (16 x 16)
  float* yb;   // the block's first plane
  int64_t gridSize;
  __mmask16 outMask;
};

__attribute__((target("avx512f"))) inline void finishRow(const BlockRows& r, int64_t oh) {
  const __m512 zero = _mm512_setzero_ps();
  __m512 v[16];
  for (int64_t ow = 0; ow < 16; ++ow) v[ow] = ow < r.OW ? _mm512_load_ps(r.out + ow * 16) : zero;
  gemm::transpose16(v);
  for (int c = 0; c < 16; ++c) _mm512_mask_storeu_ps(r.yb + c * r.gridSize + oh * r.OW, r.outMask, v[c]);
}

__attribute__((target("avx512f"))) inline __m512 finishPixel(const BlockRows& r, __m512 a) {
  if (r.clamp) a = _mm512_min_ps(_mm512_max_ps(a, r.vlo), r.vhi);
  if (r.act != GemmActivation::kNone) a = gemm::actDyn512(r.act, a, r.vp0, r.vp1);
  return a;
}

// A fixed window (3x3, 5x5): the taps unrolled with their weight vectors
// held in registers. The run-time tap loop loaded each weight vector beside
// each input vector and branched per tap: load-bound at twice the
// multiply-adds' time.
template <int KH, int KW>
__attribute__((target("avx512f"))) void blockRows(const BlockRows& r) {
  constexpr int T = KH * KW;
  __m512 wv[T];
#pragma GCC unroll 25
  for (int t = 0; t < T; ++t) wv[t] = _mm512_load_ps(r.wt + t * 16);
  const int64_t rowStep = r.dh * r.Wp * 16, colStep = r.dw * 16, pixStep = r.sw * 16;
  for (int64_t oh = 0; oh < r.OH; ++oh) {
    const float* rowBase = r.in + oh * r.sh * r.Wp * 16;
    for (int64_t ow = 0; ow < r.OW; ++ow) {
      const float* base = rowBase + ow * pixStep;
      __m512 a0 = r.bias, a1 = _mm512_setzero_ps();
#pragma GCC unroll 5
      for (int kh = 0; kh < KH; ++kh)
#pragma GCC unroll 5
        for (int kw = 0; kw < KW; ++kw) {
          const int t = kh * KW + kw;
          const __m512 xv = _mm512_load_ps(base + kh * rowStep + kw * colStep);
          if (t & 1) a1 = _mm512_fmadd_ps(wv[t], xv, a1);
          else a0 = _mm512_fmadd_ps(wv[t], xv, a0);
        }
      _mm512_store_ps(r.out + ow * 16, finishPixel(r, _mm512_add_ps(a0, a1)));
    }
    finishRow(r, oh);
  }
}

__attribute__((target("avx512f"))) void blockRowsAny(const BlockRows& r, int64_t KH, int64_t KW) {
  for (int64_t oh = 0; oh < r.OH; ++oh) {
    for (int64_t ow = 0; ow < r.OW; ++ow) {
      __m512 a0 = r.bias, a1 = _mm512_setzero_ps();
      const float* base = r.in + (oh * r.sh * r.Wp + ow * r.sw) * 16;
      int64_t t = 0;
      for (int64_t kh = 0; kh < KH; ++kh)
        for (int64_t kw = 0; kw < KW; ++kw, ++t) {
          const __m512 xv = _mm512_load_ps(base + (kh * r.dh * r.Wp + kw * r.dw) * 16);
          if (t & 1) a1 = _mm512_fmadd_ps(_mm512_load_ps(r.wt + t * 16), xv, a1);
          else a0 = _mm512_fmadd_ps(_mm512_load_ps(r.wt + t * 16), xv, a0);
        }
      _mm512_store_ps(r.out + ow * 16, finishPixel(r, _mm512_add_ps(a0, a1)));
    }
    finishRow(r, oh);
  }
}

}  // namespace

bool depthwiseBlocksFit(const ConvGeom& g) {
  if (g.k[0] != 1 || g.grid[0] != 1 || g.Mg != 1 || g.Cg != 1 || g.M % 16 != 0) return false;
  if (g.img[2] > 16 || g.grid[2] > 16 || g.k[1] * g.k[2] > kMaxPlaneTaps) return false;
  const SmallPlaneLayout l = smallPlaneLayout(g);
  return l.Hp * l.Wp <= kBlockPixels && l.Wp <= 32;
}

__attribute__((target("avx512f"))) void depthwiseBlocks512(const ConvGeom& g, const float* x, const float* w,
                                                           const float* b, float* y, int64_t blk0, int64_t blk1,
                                                           bool clamp, float lo, float hi, GemmActivation act,
                                                           float p0, float p1) {
  const int64_t H = g.img[1], W = g.img[2], OH = g.grid[1], OW = g.grid[2];
  const int64_t KH = g.k[1], KW = g.k[2], sh = g.s[1], sw = g.s[2], dh = g.dil[1], dw = g.dil[2];
  const int64_t padT = g.padBegin[1], padL = g.padBegin[2], K = g.K;
  const SmallPlaneLayout l = smallPlaneLayout(g);
  const int64_t Hp = l.Hp, Wp = l.Wp;
  alignas(64) float in[kBlockPixels * 16];
  alignas(64) float out[16 * 16 * 16];
  alignas(64) float wt[kMaxPlaneTaps * 16];
  const __m512 zero = _mm512_setzero_ps(), vlo = _mm512_set1_ps(lo), vhi = _mm512_set1_ps(hi);
  const __m512 vp0 = _mm512_set1_ps(p0), vp1 = _mm512_set1_ps(p1);
  const __mmask16 rowMask = __mmask16((1u << W) - 1), outMask = __mmask16((1u << OW) - 1);
  // Padded pixels no input row lands on stay zero: zero the block once.
  for (int64_t i = 0; i < Hp * Wp; ++i) _mm512_store_ps(in + i * 16, zero);
  const int64_t blocksPerImage = g.M / 16;
  for (int64_t blk = blk0; blk < blk1; ++blk) {
    const int64_t n = blk / blocksPerImage, m0 = blk % blocksPerImage * 16;
    const float* xb = x + (n * g.C + m0) * g.imgSize;
    float* yb = y + (n * g.M + m0) * g.gridSize;
    for (int64_t t = 0; t < K; ++t)
      for (int c = 0; c < 16; ++c) wt[t * 16 + c] = w[(m0 + c) * K + t];
    // Input rows into the block, pixel-major.
    for (int64_t ih = 0; ih < H; ++ih) {
      const int64_t r = ih + padT;
      if (r < 0 || r >= Hp) continue;
      __m512 v[16];
      for (int c = 0; c < 16; ++c) v[c] = _mm512_maskz_loadu_ps(rowMask, xb + c * g.imgSize + ih * W);
      gemm::transpose16(v);
      for (int64_t iw = 0; iw < W; ++iw) {
        const int64_t col = iw + padL;
        if (col >= 0 && col < Wp) _mm512_store_ps(in + (r * Wp + col) * 16, v[iw]);
      }
    }
    const __m512 bias = b ? _mm512_loadu_ps(b + m0) : zero;
    const BlockRows r{in, wt, Wp, OH, OW, sh, sw, dh, dw, bias, clamp, vlo, vhi, act, vp0, vp1, out, yb,
                      g.gridSize, outMask};
    if (KH == 3 && KW == 3) blockRows<3, 3>(r);
    else if (KH == 5 && KW == 5) blockRows<5, 5>(r);
    else blockRowsAny(r, KH, KW);
  }
}

}  // namespace oinfer::conv
