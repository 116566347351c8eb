// AVX-512 helpers shared by the GEMM micro-kernels, the GEMM's packing and
// the Conv kernels that write their own tiles (conv_cvec.cpp): activations
// on one vector and a 16x16 register transpose. Each function carries its
// own target attribute, so including this builds without -march flags;
// callers check gemm::cpuHasAvx512() before running them.
#pragma once

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

#include "ops/cpu/gemm/sgemm.h"

namespace oinfer::gemm {

// The first n lanes of a 16-lane vector (n clamped to [0, 16]): a row's
// tail for masked loads and stores.
inline __mmask16 firstLanes(int64_t n) {
  return n >= 16 ? __mmask16(0xFFFF) : n <= 0 ? __mmask16(0) : __mmask16((1u << n) - 1);
}

// The lanes e of a 16-lane vector whose column first + e lies in [lo, hi):
// a row's columns inside the image (or inside its padded copy) for masked
// loads that must not read past either end.
inline __mmask16 lanesWithin(int64_t first, int64_t lo, int64_t hi) {
  return __mmask16(firstLanes(hi - first) & ~firstLanes(lo - first));
}

// exp(x) = 2^n * e^r, n = round(x / ln 2), |r| <= ln2 / 2, e^r by a degree-6
// polynomial (relative error ~2e-7 over the float range); 2^n by scalef.
__attribute__((target("avx512f"))) inline __m512 exp512(__m512 x) {
  x = _mm512_min_ps(_mm512_max_ps(x, _mm512_set1_ps(-87.3f)), _mm512_set1_ps(88.7f));
  const __m512 n = _mm512_roundscale_ps(_mm512_mul_ps(x, _mm512_set1_ps(1.44269504088896341f)), 0);
  __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(0.693359375f), x);
  r = _mm512_fnmadd_ps(n, _mm512_set1_ps(-2.12194440e-4f), r);
  __m512 p = _mm512_set1_ps(1.f / 720);
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.f / 120));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.f / 24));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.f / 6));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(0.5f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.f));
  return _mm512_scalef_ps(p, n);
}

// 1 / (1 + e^-x) with rcp14 and one Newton step (~1e-7 relative) instead of
// a division, whose 16-cycle zmm throughput dominated SiLU layers. e^-x =
// 2^t, t = -x log2(e) clamped to [-126, 126] (beyond, the sigmoid is 0 or 1
// in float); t = n + f, |f| <= 1/2, 2^f by a degree-5 fit (relative error
// 3.5e-7 in float; rounding t costs |t| * 6e-8 relative more, where the
// sigmoid is within 1e-6 of 0 or 1) and 2^n by scalef. Three fewer
// operations than exp512's two-step reduction and degree-6 polynomial:
// SiLU is about half of an EfficientNet expand tile's work.
__attribute__((target("avx512f"))) inline __m512 sigmoid512(__m512 x) {
  const __m512 one = _mm512_set1_ps(1.f);
  __m512 t = _mm512_mul_ps(x, _mm512_set1_ps(-1.44269504088896341f));
  t = _mm512_min_ps(_mm512_max_ps(t, _mm512_set1_ps(-126.f)), _mm512_set1_ps(126.f));
  const __m512 n = _mm512_roundscale_ps(t, 0);
  const __m512 f = _mm512_sub_ps(t, n);
  __m512 p = _mm512_set1_ps(1.2915669940e-3f);
  p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(9.6685308963e-3f));
  p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(5.5516887456e-2f));
  p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(2.4022264779e-1f));
  p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(6.9314646721e-1f));
  p = _mm512_fmadd_ps(p, f, one);
  const __m512 d = _mm512_add_ps(one, _mm512_scalef_ps(p, n));
  const __m512 r = _mm512_rcp14_ps(d);
  return _mm512_mul_ps(r, _mm512_fnmadd_ps(d, r, _mm512_set1_ps(2.f)));
}

template <GemmActivation A>
__attribute__((target("avx512f"))) inline __m512 act512(__m512 x, __m512 p0, __m512 p1) {
  const __m512 zero = _mm512_setzero_ps(), one = _mm512_set1_ps(1.f);
  if constexpr (A == GemmActivation::kRelu) return _mm512_max_ps(x, zero);
  if constexpr (A == GemmActivation::kClip) return _mm512_min_ps(_mm512_max_ps(x, p0), p1);
  if constexpr (A == GemmActivation::kLeakyRelu) return _mm512_mask_mul_ps(x, _mm512_cmp_ps_mask(x, zero, _CMP_LT_OQ), x, p0);
  if constexpr (A == GemmActivation::kSigmoid) return sigmoid512(x);
  if constexpr (A == GemmActivation::kHardSigmoid) return _mm512_min_ps(one, _mm512_max_ps(zero, _mm512_fmadd_ps(x, p0, p1)));
  if constexpr (A == GemmActivation::kTanh) {  // tanh(x) = 2 sigmoid(2x) - 1
    return _mm512_fmsub_ps(sigmoid512(_mm512_add_ps(x, x)), _mm512_set1_ps(2.f), one);
  }
  if constexpr (A == GemmActivation::kSiLU) return _mm512_mul_ps(x, sigmoid512(x));
  if constexpr (A == GemmActivation::kHardSwish) {
    const __m512 h = _mm512_fmadd_ps(x, _mm512_set1_ps(1.f / 6), _mm512_set1_ps(0.5f));
    return _mm512_mul_ps(x, _mm512_min_ps(one, _mm512_max_ps(zero, h)));
  }
  return x;
}

// A tile's activation other than a clamp, applied in registers (TileArgs::act).
__attribute__((target("avx512f"))) inline __m512 actDyn512(GemmActivation a, __m512 x, __m512 p0, __m512 p1) {
  switch (a) {
    case GemmActivation::kLeakyRelu: return act512<GemmActivation::kLeakyRelu>(x, p0, p1);
    case GemmActivation::kSigmoid: return act512<GemmActivation::kSigmoid>(x, p0, p1);
    case GemmActivation::kHardSigmoid: return act512<GemmActivation::kHardSigmoid>(x, p0, p1);
    case GemmActivation::kTanh: return act512<GemmActivation::kTanh>(x, p0, p1);
    case GemmActivation::kSiLU: return act512<GemmActivation::kSiLU>(x, p0, p1);
    case GemmActivation::kHardSwish: return act512<GemmActivation::kHardSwish>(x, p0, p1);
    default: return x;
  }
}

// In place: v[i] lane j <- v[j] lane i (4 shuffle stages, 64 shuffles).
__attribute__((target("avx512f"))) inline void transpose16(__m512 v[16]) {
  __m512 t[16], u[16];
  for (int i = 0; i < 8; ++i) {
    t[2 * i] = _mm512_unpacklo_ps(v[2 * i], v[2 * i + 1]);
    t[2 * i + 1] = _mm512_unpackhi_ps(v[2 * i], v[2 * i + 1]);
  }
  for (int i = 0; i < 4; ++i) {
    u[4 * i + 0] = _mm512_shuffle_ps(t[4 * i], t[4 * i + 2], 0x44);
    u[4 * i + 1] = _mm512_shuffle_ps(t[4 * i], t[4 * i + 2], 0xEE);
    u[4 * i + 2] = _mm512_shuffle_ps(t[4 * i + 1], t[4 * i + 3], 0x44);
    u[4 * i + 3] = _mm512_shuffle_ps(t[4 * i + 1], t[4 * i + 3], 0xEE);
  }
  for (int i = 0; i < 4; ++i) {
    t[i] = _mm512_shuffle_f32x4(u[i], u[4 + i], 0x88);
    t[4 + i] = _mm512_shuffle_f32x4(u[i], u[4 + i], 0xDD);
    t[8 + i] = _mm512_shuffle_f32x4(u[8 + i], u[12 + i], 0x88);
    t[12 + i] = _mm512_shuffle_f32x4(u[8 + i], u[12 + i], 0xDD);
  }
  for (int i = 0; i < 4; ++i) {
    v[i] = _mm512_shuffle_f32x4(t[i], t[8 + i], 0x88);
    v[8 + i] = _mm512_shuffle_f32x4(t[i], t[8 + i], 0xDD);
    v[4 + i] = _mm512_shuffle_f32x4(t[4 + i], t[12 + i], 0x88);
    v[12 + i] = _mm512_shuffle_f32x4(t[4 + i], t[12 + i], 0xDD);
  }
}

}  // namespace oinfer::gemm

#endif
