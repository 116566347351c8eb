// AVX-512 row kernel of the 2-d depthwise convolution: one output row with
// all kernel taps accumulated in registers (16 outputs per zmm), so each
// output is stored once instead of once per tap. Stride 2 de-interleaves two
// loads with one permute. Taps that cross the left/right border (padding) are
// masked off in the loads, so the borders and a short tail stay vectorised.
// With `accumulate` the row is added to y instead of starting from the bias
// (the direct small-M convolution sums one call per input channel).
// Built with its own target attribute; callers check the CPU.
#include <immintrin.h>

#include <algorithm>
#include <cstdint>

#include "ops/cpu/gemm/gemm_internal.h"

namespace oinfer::conv {

namespace {

// NC chunks of 16 outputs at once, two accumulators each (even / odd kernel
// rows): 2*NC independent FMA chains, so the 4-cycle FMA latency is hidden
// (one accumulator per chunk made a 3x3 kernel latency-bound).
template <int S, int NC>
__attribute__((target("avx512f"))) inline void chunks(const float* const* xrows, const float* w, int KH, int KW,
                                                      int64_t padW, int64_t W, int64_t OW, float bias,
                                                      bool accumulate, float* y, int64_t ow0) {
  const __m512i even = _mm512_set_epi32(30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0);
  __m512 acc[NC][2];
  __mmask16 om[NC];
#pragma GCC unroll 4
  for (int c = 0; c < NC; ++c) {
    const int64_t n = std::clamp<int64_t>(OW - (ow0 + 16 * c), 0, 16);
    om[c] = __mmask16((1u << n) - 1);
    acc[c][0] = accumulate ? _mm512_maskz_loadu_ps(om[c], y + ow0 + 16 * c) : _mm512_set1_ps(bias);
    acc[c][1] = _mm512_setzero_ps();
  }
  for (int kw = 0; kw < KW; ++kw) {
    // Elements e of each chunk's 16*S-wide input window at iw0 + e that lie
    // inside the row and under a live output lane; masked-off lanes are not
    // read, so the loads never touch memory outside the row.
    uint64_t win[NC];
#pragma GCC unroll 4
    for (int c = 0; c < NC; ++c) {
      const int64_t ow = ow0 + 16 * c;
      const int64_t n = std::clamp<int64_t>(OW - ow, 0, 16);
      const int64_t iw0 = ow * S - padW + kw;
      const int64_t eLo = std::clamp<int64_t>(-iw0, 0, 16 * S);
      const int64_t eHi = n == 0 ? eLo : std::clamp<int64_t>(std::min<int64_t>(W - iw0, (n - 1) * S + 1), eLo, 16 * S);
      win[c] = (eHi >= 64 ? ~0ull : (1ull << eHi) - 1) & ~((1ull << eLo) - 1);
    }
    for (int kh = 0; kh < KH; ++kh) {
      const float* xr = xrows[kh];
      if (!xr) continue;
      const __m512 wv = _mm512_set1_ps(w[kh * KW + kw]);
#pragma GCC unroll 4
      for (int c = 0; c < NC; ++c) {
        const float* base = xr + (ow0 + 16 * c) * S - padW + kw;
        __m512 xv;
        if constexpr (S == 1) {
          xv = _mm512_maskz_loadu_ps(__mmask16(win[c]), base);
        } else {
          const __m512 lo = _mm512_maskz_loadu_ps(__mmask16(win[c]), base);
          const __m512 hi = _mm512_maskz_loadu_ps(__mmask16(win[c] >> 16), base + 16);
          xv = _mm512_permutex2var_ps(lo, even, hi);
        }
        acc[c][kh & 1] = _mm512_fmadd_ps(wv, xv, acc[c][kh & 1]);
      }
    }
  }
#pragma GCC unroll 4
  for (int c = 0; c < NC; ++c)
    _mm512_mask_storeu_ps(y + ow0 + 16 * c, om[c], _mm512_add_ps(acc[c][0], acc[c][1]));
}

template <int S>
__attribute__((target("avx512f"))) void rowKernel(const float* const* xrows, const float* w, int KH, int KW,
                                                  int64_t padW, int64_t W, int64_t OW, float bias, bool accumulate,
                                                  float* y) {
  int64_t ow = 0;
  for (; ow + 64 <= OW; ow += 64) chunks<S, 4>(xrows, w, KH, KW, padW, W, OW, bias, accumulate, y, ow);
  const int64_t left = (OW - ow + 15) / 16;
  if (left == 1) chunks<S, 1>(xrows, w, KH, KW, padW, W, OW, bias, accumulate, y, ow);
  else if (left == 2) chunks<S, 2>(xrows, w, KH, KW, padW, W, OW, bias, accumulate, y, ow);
  else if (left == 3) chunks<S, 3>(xrows, w, KH, KW, padW, W, OW, bias, accumulate, y, ow);
  else if (left == 4) chunks<S, 4>(xrows, w, KH, KW, padW, W, OW, bias, accumulate, y, ow);  // 49..63 left
}

}  // namespace

bool depthwiseRow512(const float* const* xrows, const float* w, int KH, int KW, int stride, int64_t padW, int64_t W,
                     int64_t OW, float bias, bool accumulate, float* y) {
  if (stride == 1) rowKernel<1>(xrows, w, KH, KW, padW, W, OW, bias, accumulate, y);
  else if (stride == 2) rowKernel<2>(xrows, w, KH, KW, padW, W, OW, bias, accumulate, y);
  else return false;
  return true;
}

}  // namespace oinfer::conv
