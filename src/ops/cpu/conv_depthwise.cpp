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

template <int S>
__attribute__((target("avx512f"))) void rowKernel(const float* const* xrows, const float* w, int KH, int KW,
                                                  int64_t padW, int64_t W, int64_t OW, float bias, bool accumulate,
                                                  float* y) {
  const __m512i even = _mm512_set_epi32(30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0);
  for (int64_t ow = 0; ow < OW; ow += 16) {
    const int64_t n = std::min<int64_t>(16, OW - ow);
    const __mmask16 om = __mmask16((1u << n) - 1);
    __m512 acc = accumulate ? _mm512_maskz_loadu_ps(om, y + ow) : _mm512_set1_ps(bias);
    for (int kw = 0; kw < KW; ++kw) {
      // Elements e of the 16*S-wide input window at iw0 + e that lie inside
      // the row (and under a live output lane); masked-off lanes are not read,
      // so the loads never touch memory outside the row.
      const int64_t iw0 = ow * S - padW + kw;
      const int64_t eLo = std::clamp<int64_t>(-iw0, 0, 16 * S);
      const int64_t eHi = std::clamp<int64_t>(std::min<int64_t>(W - iw0, (n - 1) * S + 1), eLo, 16 * S);
      if (eLo >= eHi) continue;
      const uint64_t win = (eHi >= 64 ? ~0ull : (1ull << eHi) - 1) & ~((1ull << eLo) - 1);
      for (int kh = 0; kh < KH; ++kh) {
        const float* xr = xrows[kh];
        if (!xr) continue;
        const float* base = xr + iw0;
        __m512 xv;
        if constexpr (S == 1) {
          xv = _mm512_maskz_loadu_ps(__mmask16(win), base);
        } else {
          const __m512 lo = _mm512_maskz_loadu_ps(__mmask16(win), base);
          const __m512 hi = _mm512_maskz_loadu_ps(__mmask16(win >> 16), base + 16);
          xv = _mm512_permutex2var_ps(lo, even, hi);
        }
        acc = _mm512_fmadd_ps(_mm512_set1_ps(w[kh * KW + kw]), xv, acc);
      }
    }
    _mm512_mask_storeu_ps(y + ow, om, acc);
  }
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
