// The AVX-512 depthwise kernel on the blocked layout NCHW16c
// (depthwiseBlocked). Split from conv_depthwise.cpp; which depthwise kernel
// a Conv runs: conv_select.cpp.
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

// The depthwise Conv on the blocked layout NCHW16c (X, Y and a residual Z):
// the 16 channels of a pixel are one vector, so every tap is one load and
// one multiply-add against the tap's 16-channel weight vector, with no
// transposes. A unit is (image, band of output rows, channel block): the
// band's input rows are copied into a zero-padded buffer on the stack (so
// no tap needs a bounds check), then eight output pixels of a row at a time
// (eight independent multiply-add chains; the weights in registers for 3x3
// and 5x5), the bias, residual and activation in registers before the
// store. Units run bands outer, so a thread takes a run of rows: the pixels
// the channel-vector convs around it wrote on that thread.
namespace {

constexpr int kDwPix = 8;                  // output pixels of a row at a time
constexpr int64_t kDwBufFloats = 16384;    // the padded band (64 KiB)

struct DwBlockedBand {
  const float* buf;  // the padded band: rows of Wp pixels x 16
  const float* wt;   // the block's taps (K x 16)
  int64_t Wp, OW, sh, sw, dh, dw, KH, KW;
  __m512 bias, vlo, vhi, vp0, vp1;
  bool clamp;
  GemmActivation act;
};

// Output pixels [ow, ow + n) of the band's output row r (n <= kDwPix) into
// y (and z, the residual) at those pixels.
template <int FKH, int FKW>
__attribute__((target("avx512f"))) inline void dwGroup(const DwBlockedBand& b, const __m512* wv, int64_t r,
                                                       int64_t ow, int n, const float* z, float* y) {
  const int64_t KH = FKH ? FKH : b.KH, KW = FKW ? FKW : b.KW;
  __m512 a[kDwPix];
#pragma GCC unroll 8
  for (int j = 0; j < kDwPix; ++j) a[j] = b.bias;
  const float* base = b.buf + (r * b.sh * b.Wp + ow * b.sw) * 16;
  for (int64_t kh = 0; kh < KH; ++kh)
    for (int64_t kw = 0; kw < KW; ++kw) {
      const __m512 w = FKH ? wv[kh * KW + kw] : _mm512_load_ps(b.wt + (kh * KW + kw) * 16);
      const float* p = base + (kh * b.dh * b.Wp + kw * b.dw) * 16;
#pragma GCC unroll 8
      for (int j = 0; j < kDwPix; ++j)
        if (j < n) a[j] = _mm512_fmadd_ps(w, _mm512_load_ps(p + j * b.sw * 16), a[j]);
    }
#pragma GCC unroll 8
  for (int j = 0; j < kDwPix; ++j) {
    if (j >= n) break;
    __m512 v = a[j];
    if (z) v = _mm512_add_ps(v, _mm512_loadu_ps(z + (ow + j) * 16));
    if (b.clamp) v = _mm512_min_ps(_mm512_max_ps(v, b.vlo), b.vhi);
    if (b.act != GemmActivation::kNone) v = gemm::actDyn512(b.act, v, b.vp0, b.vp1);
    _mm512_storeu_ps(y + (ow + j) * 16, v);
  }
}

// Output rows [0, rows) of a band (row r at y + r * OW * 16).
template <int FKH, int FKW>
__attribute__((target("avx512f"))) void dwBand(const DwBlockedBand& b, int64_t rows, const float* z, float* y) {
  __m512 wv[FKH * FKW > 0 ? FKH * FKW : 1];
  if constexpr (FKH > 0)
    for (int t = 0; t < FKH * FKW; ++t) wv[t] = _mm512_load_ps(b.wt + t * 16);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t ow = 0; ow < b.OW; ow += kDwPix)
      dwGroup<FKH, FKW>(b, wv, r, ow, int(std::min<int64_t>(kDwPix, b.OW - ow)), z ? z + r * b.OW * 16 : nullptr,
                        y + r * b.OW * 16);
}

// Output rows per band: the most whose padded input rows fit the buffer.
int64_t dwBandRows(const ConvGeom& g) {
  const int64_t Wp = windowSpan(g, 2), per = Wp * 16;
  const int64_t fit = kDwBufFloats / per;  // input rows that fit
  const int64_t rows = (fit - ((g.k[1] - 1) * g.dil[1] + 1)) / g.s[1] + 1;
  return std::clamp<int64_t>(rows, 0, g.grid[1]);
}

__attribute__((target("avx512f"))) void dwBlockedUnits(const ConvGeom& g, const float* x, const float* wt,
                                                       const float* bias, const float* z, float* y,
                                                       const ClampSplit& cs, const Activation& act, int64_t band,
                                                       int64_t u0, int64_t u1) {
  const int64_t CB = g.M / 16, H = g.img[1], W = g.img[2], OH = g.grid[1], OW = g.grid[2], K = g.K;
  const int64_t bands = (OH + band - 1) / band, Wp = windowSpan(g, 2), padT = g.padBegin[1], padL = g.padBegin[2];
  alignas(64) float buf[kDwBufFloats];
  DwBlockedBand b;
  b.buf = buf;
  b.Wp = Wp;
  b.OW = OW;
  b.sh = g.s[1];
  b.sw = g.s[2];
  b.dh = g.dil[1];
  b.dw = g.dil[2];
  b.KH = g.k[1];
  b.KW = g.k[2];
  b.vlo = _mm512_set1_ps(cs.lo);
  b.vhi = _mm512_set1_ps(cs.hi);
  b.vp0 = _mm512_set1_ps(act.p0);
  b.vp1 = _mm512_set1_ps(act.p1);
  b.clamp = cs.clamp;
  b.act = cs.rest;
  const __m512 zero = _mm512_setzero_ps();
  for (int64_t u = u0; u < u1; ++u) {
    const int64_t n = u / (bands * CB), bi = u / CB % bands, cb = u % CB;
    const int64_t oh0 = bi * band, rows = std::min(band, OH - oh0);
    const int64_t inRows = (rows - 1) * b.sh + (b.KH - 1) * b.dh + 1;
    const float* xb = x + (n * CB + cb) * H * W * 16;
    // The band's input rows, zero-padded: buffer column j is input column j - padL.
    for (int64_t i = 0; i < inRows; ++i) {
      const int64_t ih = oh0 * b.sh - padT + i;
      float* d = buf + i * Wp * 16;
      if (ih < 0 || ih >= H) {
        for (int64_t j = 0; j < Wp; ++j) _mm512_store_ps(d + j * 16, zero);
        continue;
      }
      const float* src = xb + ih * W * 16;
      for (int64_t j = 0; j < Wp; ++j) {
        const int64_t iw = j - padL;
        _mm512_store_ps(d + j * 16, iw >= 0 && iw < W ? _mm512_loadu_ps(src + iw * 16) : zero);
      }
    }
    b.wt = wt + cb * K * 16;
    b.bias = bias ? _mm512_loadu_ps(bias + cb * 16) : zero;
    const int64_t yo = ((n * CB + cb) * OH + oh0) * OW * 16;
    const float* zb = z ? z + yo : nullptr;
    if (b.KH == 3 && b.KW == 3) dwBand<3, 3>(b, rows, zb, y + yo);
    else if (b.KH == 5 && b.KW == 5) dwBand<5, 5>(b, rows, zb, y + yo);
    else dwBand<0, 0>(b, rows, zb, y + yo);
  }
}

}  // namespace

bool depthwiseBlockedFits(const ConvGeom& g) {
  if (g.k[0] != 1 || g.grid[0] != 1 || g.img[0] != 1) return false;
  if (g.Cg != 1 || g.Mg != 1 || g.M % 16 != 0) return false;
  return dwBandRows(g) >= 1;
}

std::shared_ptr<float[]> packDepthwiseBlocked(const ConvGeom& g, const float* w) {
  const int64_t K = g.K;
  std::shared_ptr<float[]> p = allocFloats(size_t(g.M * K));
  for (int64_t cb = 0; cb < g.M / 16; ++cb)
    for (int64_t t = 0; t < K; ++t)
      for (int c = 0; c < 16; ++c) p[(cb * K + t) * 16 + c] = w[(cb * 16 + c) * K + t];
  return p;
}

void depthwiseBlocked(ThreadPool& pool, const ConvGeom& g, const float* x, const float* wt, const float* b,
                      const float* z, float* y, const Activation& act) {
  const ClampSplit cs = splitClamp(act);
  if (cs.rest == GemmActivation::kGelu || !depthwiseBlockedFits(g))
    throw Error(ErrorCode::kInternal, "depthwiseBlocked: the shape or activation does not suit the kernel");
  // Bands: as tall as the buffer allows, but at least ~8 units per thread.
  const int64_t CB = g.M / 16, OH = g.grid[1];
  const int64_t want = std::max<int64_t>(1, 8 * pool.size() / std::max<int64_t>(1, g.N * CB));
  const int64_t band = std::max<int64_t>(1, std::min(dwBandRows(g), (OH + want - 1) / want));
  const int64_t bands = (OH + band - 1) / band;
  pool.parallelFor(g.N * bands * CB, [&](int64_t u0, int64_t u1) {
    dwBlockedUnits(g, x, wt, b, z, y, cs, act, band, u0, u1);
  });
}

}  // namespace oinfer::conv
