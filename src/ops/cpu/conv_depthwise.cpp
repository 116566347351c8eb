// AVX-512 row kernel of the 2-d depthwise convolution: one output row with
// all kernel taps accumulated in registers (16 outputs per zmm), so each
// output is stored once instead of once per tap. Stride 2 de-interleaves two
// loads with one permute. Columns whose taps cross the left/right border run
// the scalar loop. Built with its own target attribute; callers check the CPU.
#include <immintrin.h>

#include <algorithm>
#include <cstdint>

#include "ops/cpu/gemm/gemm_internal.h"

namespace oinfer::conv {

namespace {

inline float scalarAt(const float* const* xrows, const float* w, int KH, int KW, int s, int64_t padW, int64_t W,
                      float bias, int64_t ow) {
  float acc = bias;
  for (int kh = 0; kh < KH; ++kh) {
    if (!xrows[kh]) continue;
    for (int kw = 0; kw < KW; ++kw) {
      const int64_t iw = ow * s - padW + kw;
      if (iw >= 0 && iw < W) acc += w[kh * KW + kw] * xrows[kh][iw];
    }
  }
  return acc;
}

template <int S>
__attribute__((target("avx512f"))) void rowKernel(const float* const* xrows, const float* w, int KH, int KW,
                                                  int64_t padW, int64_t W, int64_t OW, float bias, float* y) {
  const int64_t owLo = std::min<int64_t>(OW, (padW + S - 1) / S);
  int64_t owHi = W - KW + padW < 0 ? 0 : (W - KW + padW) / S + 1;
  owHi = std::clamp<int64_t>(owHi, owLo, OW);
  for (int64_t ow = 0; ow < owLo; ++ow) y[ow] = scalarAt(xrows, w, KH, KW, S, padW, W, bias, ow);
  const __m512i even = _mm512_set_epi32(30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0);
  int64_t ow = owLo;
  for (; ow + 16 <= owHi; ow += 16) {
    __m512 acc = _mm512_set1_ps(bias);
    for (int kh = 0; kh < KH; ++kh) {
      const float* xr = xrows[kh];
      if (!xr) continue;
      const float* base = xr + ow * S - padW;
      const float* wk = w + kh * KW;
      for (int kw = 0; kw < KW; ++kw) {
        __m512 xv;
        if constexpr (S == 1) {
          xv = _mm512_loadu_ps(base + kw);
        } else {
          // Lanes 0..31 from base + kw; the last lane may lie one past the
          // row end (never used), so the upper load is masked to 15 lanes.
          const __m512 lo = _mm512_loadu_ps(base + kw);
          const __m512 hi = _mm512_maskz_loadu_ps(__mmask16(0x7FFF), base + kw + 16);
          xv = _mm512_permutex2var_ps(lo, even, hi);
        }
        acc = _mm512_fmadd_ps(_mm512_set1_ps(wk[kw]), xv, acc);
      }
    }
    _mm512_storeu_ps(y + ow, acc);
  }
  for (; ow < OW; ++ow) y[ow] = scalarAt(xrows, w, KH, KW, S, padW, W, bias, ow);
}

}  // namespace

bool depthwiseRow512(const float* const* xrows, const float* w, int KH, int KW, int stride, int64_t padW, int64_t W,
                     int64_t OW, float bias, float* y) {
  if (stride == 1) rowKernel<1>(xrows, w, KH, KW, padW, W, OW, bias, y);
  else if (stride == 2) rowKernel<2>(xrows, w, KH, KW, padW, W, OW, bias, y);
  else return false;
  return true;
}

}  // namespace oinfer::conv
