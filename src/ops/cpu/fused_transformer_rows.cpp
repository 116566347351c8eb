#include <Eigen/Core>
#include <unsupported/Eigen/SpecialFunctions>
#include <algorithm>
#include <cmath>
#include <limits>

#include "ops/cpu/fused_transformer_rows.h"
#include "ops/cpu/gemm/act512.h"
#include "ops/cpu/gemm/gemm_internal.h"

namespace oinfer::cpu {

namespace {
using ConstRow = Eigen::Map<const Eigen::ArrayXf>;
using Row = Eigen::Map<Eigen::ArrayXf>;
}  // namespace

namespace {

// The softmax's second half on a row already holding x * scale + mask:
// Eigen's packet math, with its NaN / -inf semantics (a row masked entirely
// with -inf gives NaN everywhere, as the unfused graph does).
void softmaxInPlace(float* y, int64_t n) {
  Row out(y, n);
  const float mx = out.maxCoeff();
  out = (out - mx).exp();
  out *= 1.f / out.sum();
}

#if defined(__x86_64__) || defined(__i386__)
// AVX-512: y = x * scale + mask with its max in one pass, then exp and sum,
// then the scaling, on 16-lane vectors (masked tail). Eigen's whole-row
// passes took 1.8 ns an element on BERT's 128-wide score rows, a third of
// the attention. False (y holding x * scale + mask) when the row has a NaN
// or an infinite max: exp512 clamps its argument, so those go to Eigen.
__attribute__((target("avx512f"))) bool softmaxRow512(const float* x, const float* mask, float scale, float* y,
                                                      int64_t n) {
  const __m512 vs = _mm512_set1_ps(scale);
  __m512 vmax = _mm512_set1_ps(-std::numeric_limits<float>::infinity());
  __mmask16 nan = 0;
  for (int64_t j = 0; j < n; j += 16) {
    const __mmask16 m = gemm::firstLanes(n - j);
    __m512 v = _mm512_mul_ps(_mm512_maskz_loadu_ps(m, x + j), vs);
    if (mask) v = _mm512_add_ps(v, _mm512_maskz_loadu_ps(m, mask + j));
    _mm512_mask_storeu_ps(y + j, m, v);
    nan |= _mm512_mask_cmp_ps_mask(m, v, v, _CMP_UNORD_Q);
    vmax = _mm512_mask_max_ps(vmax, m, vmax, v);
  }
  const float mx = _mm512_reduce_max_ps(vmax);
  if (nan || !std::isfinite(mx)) return false;
  const __m512 vm = _mm512_set1_ps(mx);
  __m512 vsum = _mm512_setzero_ps();
  for (int64_t j = 0; j < n; j += 16) {
    const __mmask16 m = gemm::firstLanes(n - j);
    const __m512 e = gemm::exp512(_mm512_sub_ps(_mm512_maskz_loadu_ps(m, y + j), vm));
    _mm512_mask_storeu_ps(y + j, m, e);
    vsum = _mm512_mask_add_ps(vsum, m, vsum, e);
  }
  const __m512 inv = _mm512_set1_ps(1.f / _mm512_reduce_add_ps(vsum));
  for (int64_t j = 0; j < n; j += 16) {
    const __mmask16 m = gemm::firstLanes(n - j);
    _mm512_mask_storeu_ps(y + j, m, _mm512_mul_ps(_mm512_maskz_loadu_ps(m, y + j), inv));
  }
  return true;
}

// Four rows at a time, each pass interleaving them: a row's passes are
// chains (its max, its exp sum, their reductions) that left one row at a
// time waiting on latency (a fifth of ViT's attention at 197-wide rows).
// Row r at x + r * ld, mask + r * ldMask (ldMask 0: one mask row for all),
// y + r * ld. Rows with a NaN or an infinite max: false in ok[r], y holding
// x * scale + mask for the caller's fallback.
__attribute__((target("avx512f"))) void softmaxRows4x512(const float* x, const float* mask, int64_t ldMask,
                                                         float scale, float* y, int64_t ld, int64_t n, bool (&ok)[4]) {
  constexpr int R = 4;
  const __m512 vs = _mm512_set1_ps(scale);
  __m512 vmax[R];
  __mmask16 nan[R] = {};
  for (int r = 0; r < R; ++r) vmax[r] = _mm512_set1_ps(-std::numeric_limits<float>::infinity());
  for (int64_t j = 0; j < n; j += 16) {
    const __mmask16 m = gemm::firstLanes(n - j);
    for (int r = 0; r < R; ++r) {
      __m512 v = _mm512_mul_ps(_mm512_maskz_loadu_ps(m, x + r * ld + j), vs);
      if (mask) v = _mm512_add_ps(v, _mm512_maskz_loadu_ps(m, mask + r * ldMask + j));
      _mm512_mask_storeu_ps(y + r * ld + j, m, v);
      nan[r] |= _mm512_mask_cmp_ps_mask(m, v, v, _CMP_UNORD_Q);
      vmax[r] = _mm512_mask_max_ps(vmax[r], m, vmax[r], v);
    }
  }
  __m512 vm[R], vsum[R];
  for (int r = 0; r < R; ++r) {
    const float mx = _mm512_reduce_max_ps(vmax[r]);
    ok[r] = !nan[r] && std::isfinite(mx);
    vm[r] = _mm512_set1_ps(ok[r] ? mx : 0.f);
    vsum[r] = _mm512_setzero_ps();
  }
  for (int64_t j = 0; j < n; j += 16) {
    const __mmask16 m = gemm::firstLanes(n - j);
    for (int r = 0; r < R; ++r) {
      if (!ok[r]) continue;
      const __m512 e = gemm::exp512(_mm512_sub_ps(_mm512_maskz_loadu_ps(m, y + r * ld + j), vm[r]));
      _mm512_mask_storeu_ps(y + r * ld + j, m, e);
      vsum[r] = _mm512_mask_add_ps(vsum[r], m, vsum[r], e);
    }
  }
  __m512 inv[R];
  for (int r = 0; r < R; ++r) inv[r] = _mm512_set1_ps(ok[r] ? 1.f / _mm512_reduce_add_ps(vsum[r]) : 1.f);
  for (int64_t j = 0; j < n; j += 16) {
    const __mmask16 m = gemm::firstLanes(n - j);
    for (int r = 0; r < R; ++r)
      if (ok[r]) _mm512_mask_storeu_ps(y + r * ld + j, m, _mm512_mul_ps(_mm512_maskz_loadu_ps(m, y + r * ld + j), inv[r]));
  }
}
#endif

}  // namespace

void scaledMaskedSoftmaxRows(const float* x, const float* mask, int64_t ldMask, float scale, float* y, int64_t rows,
                             int64_t n) {
  int64_t r = 0;
#if defined(__x86_64__) || defined(__i386__)
  static const bool avx512 = gemm::cpuHasAvx512();
  if (avx512)
    for (; r + 4 <= rows; r += 4) {
      bool ok[4];
      softmaxRows4x512(x + r * n, mask ? mask + r * ldMask : nullptr, ldMask, scale, y + r * n, n, n, ok);
      for (int k = 0; k < 4; ++k)
        if (!ok[k]) softmaxInPlace(y + (r + k) * n, n);
    }
#endif
  for (; r < rows; ++r) scaledMaskedSoftmaxRow(x + r * n, mask ? mask + r * ldMask : nullptr, scale, y + r * n, n);
}

void softmaxRow(const float* x, float* y, int64_t n) { scaledMaskedSoftmaxRow(x, nullptr, 1.f, y, n); }

void scaledMaskedSoftmaxRow(const float* x, const float* mask, float scale, float* y, int64_t n) {
  if (n <= 0) return;
#if defined(__x86_64__) || defined(__i386__)
  static const bool avx512 = gemm::cpuHasAvx512();
  if (avx512) {
    if (!softmaxRow512(x, mask, scale, y, n)) softmaxInPlace(y, n);
    return;
  }
#endif
  Row out(y, n);
  if (mask)
    out = ConstRow(x, n) * scale + ConstRow(mask, n);
  else
    out = ConstRow(x, n) * scale;
  softmaxInPlace(y, n);
}

void layerNormRow(const float* x, const float* gamma, const float* beta, float eps, float* y, int64_t n) {
  if (n <= 0) return;
  ConstRow in(x, n);
  // Two passes (mean, then centred squares) keep the variance accurate when
  // |mean| >> std, as with un-normalised residual streams.
  const float mean = in.sum() / static_cast<float>(n);
  const float var = (in - mean).square().sum() / static_cast<float>(n);
  const float inv = 1.f / std::sqrt(var + eps);
  Row out(y, n);
  if (beta)
    out = (in - mean) * inv * ConstRow(gamma, n) + ConstRow(beta, n);
  else
    out = (in - mean) * inv * ConstRow(gamma, n);
}

void geluSpan(const float* x, float* y, int64_t n) {
  if (n <= 0) return;
  ConstRow in(x, n);
  Row out(y, n);
  out = 0.5f * in * (1.f + (in * 0.70710678118654752f).erf());
}

}  // namespace oinfer::cpu
