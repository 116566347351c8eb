#include "ops/cpu/quantize_simd.h"

#include <cmath>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

// GCC 12's intrinsics headers trip this on their own _mm512_undefined_*().
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

namespace oinfer::cpu {

namespace {

// The scalar forms every vector loop's tail uses; max / min keep the
// accumulated value when x is NaN, as maxps / minps with x first do.
inline float maxKeep(float x, float acc) { return x > acc ? x : acc; }
inline float minKeep(float x, float acc) { return x < acc ? x : acc; }
inline uint8_t quantOne(float x, float scale, float zp) {
  float v = __builtin_nearbyintf(x / scale) + zp;
  v = v > 0.f ? v : 0.f;  // NaN -> 0, as maxps(v, 0)
  v = v < 255.f ? v : 255.f;
  return static_cast<uint8_t>(v);
}

void minMaxPortable(const float* x, int64_t n, float& mn, float& mx) {
  for (int64_t i = 0; i < n; ++i) {
    mx = maxKeep(x[i], mx);
    mn = minKeep(x[i], mn);
  }
}
void quantPortable(const float* x, int64_t n, float scale, float zp, uint8_t* y) {
  for (int64_t i = 0; i < n; ++i) y[i] = quantOne(x[i], scale, zp);
}

#if defined(__x86_64__)
#define OINFER_AVX512 __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl")))

OINFER_AVX512 void minMax512(const float* x, int64_t n, float& mn, float& mx) {
  __m512 vmx = _mm512_set1_ps(mx), vmn = _mm512_set1_ps(mn);
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m512 v = _mm512_loadu_ps(x + i);
    vmx = _mm512_max_ps(v, vmx);
    vmn = _mm512_min_ps(v, vmn);
  }
  alignas(64) float a[16], b[16];
  _mm512_store_ps(a, vmx);
  _mm512_store_ps(b, vmn);
  for (int l = 0; l < 16; ++l) {
    mx = maxKeep(a[l], mx);
    mn = minKeep(b[l], mn);
  }
  minMaxPortable(x + i, n - i, mn, mx);
}

OINFER_AVX512 void quant512(const float* x, int64_t n, float scale, float zp, uint8_t* y) {
  const __m512 s = _mm512_set1_ps(scale), z = _mm512_set1_ps(zp), lo = _mm512_setzero_ps(),
               hi = _mm512_set1_ps(255.f);
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    __m512 v = _mm512_div_ps(_mm512_loadu_ps(x + i), s);
    v = _mm512_add_ps(_mm512_roundscale_ps(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC), z);
    v = _mm512_min_ps(_mm512_max_ps(v, lo), hi);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(y + i), _mm512_cvtepi32_epi8(_mm512_cvtps_epi32(v)));
  }
  quantPortable(x + i, n - i, scale, zp, y + i);
}

__attribute__((target("avx2"))) void minMax256(const float* x, int64_t n, float& mn, float& mx) {
  __m256 vmx = _mm256_set1_ps(mx), vmn = _mm256_set1_ps(mn);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 v = _mm256_loadu_ps(x + i);
    vmx = _mm256_max_ps(v, vmx);
    vmn = _mm256_min_ps(v, vmn);
  }
  alignas(32) float a[8], b[8];
  _mm256_store_ps(a, vmx);
  _mm256_store_ps(b, vmn);
  for (int l = 0; l < 8; ++l) {
    mx = maxKeep(a[l], mx);
    mn = minKeep(b[l], mn);
  }
  minMaxPortable(x + i, n - i, mn, mx);
}

__attribute__((target("avx2"))) void quant256(const float* x, int64_t n, float scale, float zp, uint8_t* y) {
  const __m256 s = _mm256_set1_ps(scale), z = _mm256_set1_ps(zp), lo = _mm256_setzero_ps(), hi = _mm256_set1_ps(255.f);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m256 v = _mm256_div_ps(_mm256_loadu_ps(x + i), s);
    v = _mm256_add_ps(_mm256_round_ps(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC), z);
    v = _mm256_min_ps(_mm256_max_ps(v, lo), hi);
    const __m256i q = _mm256_cvtps_epi32(v);  // 0..255
    const __m128i w = _mm_packs_epi32(_mm256_castsi256_si128(q), _mm256_extracti128_si256(q, 1));
    _mm_storel_epi64(reinterpret_cast<__m128i*>(y + i), _mm_packus_epi16(w, w));
  }
  quantPortable(x + i, n - i, scale, zp, y + i);
}
#endif

}  // namespace

void minMaxF32(KernelIsa isa, const float* x, int64_t n, float& mn, float& mx) {
#if defined(__x86_64__)
  if (isa == KernelIsa::kAvx512 || isa == KernelIsa::kAvx512Vnni) return minMax512(x, n, mn, mx);
  if (isa == KernelIsa::kAvx2) return minMax256(x, n, mn, mx);
#endif
  minMaxPortable(x, n, mn, mx);
}

void quantizeU8(KernelIsa isa, const float* x, int64_t n, float scale, float zp, uint8_t* y) {
#if defined(__x86_64__)
  if (isa == KernelIsa::kAvx512 || isa == KernelIsa::kAvx512Vnni) return quant512(x, n, scale, zp, y);
  if (isa == KernelIsa::kAvx2) return quant256(x, n, scale, zp, y);
#endif
  quantPortable(x, n, scale, zp, y);
}

}  // namespace oinfer::cpu
