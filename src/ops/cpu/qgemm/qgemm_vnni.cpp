// The AVX512-VNNI qgemm variant: vpdpbusd adds four u8 * s8 products per
// int32 lane without saturating. A's rows are read in place (4 bytes
// broadcast per k group) when they are uint8 with K a multiple of 4, else
// from the driver's converted copy; B is packed in 4-k groups of 32
// columns (two zmm per group). Tile: 8 rows x 32 columns (16 accumulators).
#include "ops/cpu/qgemm/qgemm_internal.h"

#if defined(__x86_64__)
#include <immintrin.h>

#include <cstring>

// GCC 12's intrinsics headers trip this on their own _mm512_undefined_*().
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#define OINFER_VNNI __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx512vnni")))

namespace oinfer::cpu::qgemm {

namespace {

template <int MR>
OINFER_VNNI void tile(const uint8_t* a, int64_t lda, const int8_t* b, int64_t groups, int32_t* out) {
  __m512i acc[MR][2];
#pragma GCC unroll 8
  for (int r = 0; r < MR; ++r) acc[r][0] = acc[r][1] = _mm512_setzero_si512();
  for (int64_t g = 0; g < groups; ++g) {
    const __m512i b0 = _mm512_loadu_si512(b + g * 128);
    const __m512i b1 = _mm512_loadu_si512(b + g * 128 + 64);
#pragma GCC unroll 8
    for (int r = 0; r < MR; ++r) {
      int32_t quad;
      std::memcpy(&quad, a + r * lda + 4 * g, 4);
      const __m512i av = _mm512_set1_epi32(quad);
      acc[r][0] = _mm512_dpbusd_epi32(acc[r][0], av, b0);
      acc[r][1] = _mm512_dpbusd_epi32(acc[r][1], av, b1);
    }
  }
#pragma GCC unroll 8
  for (int r = 0; r < MR; ++r) {
    _mm512_storeu_si512(out + r * kVnniNr, acc[r][0]);
    _mm512_storeu_si512(out + r * kVnniNr + 16, acc[r][1]);
  }
}

using TileFn = void (*)(const uint8_t*, int64_t, const int8_t*, int64_t, int32_t*);
constexpr TileFn kTiles[kVnniMr + 1] = {nullptr, tile<1>, tile<2>, tile<3>, tile<4>, tile<5>, tile<6>, tile<7>, tile<8>};

// Up to 16 finished values of row m from column n (mask: the valid ones).
OINFER_VNNI void store16(const BlockArgs& args, __m512i dot, int64_t m, int64_t n, __mmask16 k) {
  const QEpilogue& ep = *args.ep;
  __m512i v = _mm512_add_epi32(dot, _mm512_maskz_loadu_epi32(k, args.cols + n));
  if (args.rows) {
    const __m512i zb = _mm512_maskz_loadu_epi32(k, args.b->zb.data() + n);
    v = _mm512_sub_epi32(v, _mm512_mullo_epi32(zb, _mm512_set1_epi32(args.rows[m])));
  }
  const int64_t at = m * ep.ldc + n;
  if (ep.kind == QOut::kInt32) {
    _mm512_mask_storeu_epi32(static_cast<int32_t*>(ep.out) + at, k, v);
    return;
  }
  __m512 f = _mm512_mul_ps(_mm512_cvtepi32_ps(v), _mm512_maskz_loadu_ps(k, ep.scale + n));
  if (ep.kind == QOut::kFloat) {
    _mm512_mask_storeu_ps(static_cast<float*>(ep.out) + at, k, f);
    return;
  }
  const bool u8 = ep.kind == QOut::kUInt8;
  const float lo = static_cast<float>((u8 ? 0 : -128) - ep.zp), hi = static_cast<float>((u8 ? 255 : 127) - ep.zp);
  f = _mm512_max_ps(f, _mm512_set1_ps(lo));  // NaN -> lo, as requantize()
  f = _mm512_min_ps(f, _mm512_set1_ps(hi));
  f = _mm512_roundscale_ps(f, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  const __m512i q = _mm512_add_epi32(_mm512_cvtps_epi32(f), _mm512_set1_epi32(ep.zp));
  _mm512_mask_cvtepi32_storeu_epi8(static_cast<uint8_t*>(ep.out) + at, k, q);  // in range: truncation is exact
}

}  // namespace

OINFER_VNNI void blockVnni(const BlockArgs& args, int64_t m0, int64_t m1, int64_t p0, int64_t p1) {
  const PackedQB& B = *args.b;
  const int64_t groups = B.Kp / 4;
  const int8_t* bd = B.data.get();
  alignas(64) int32_t t[kVnniMr * kVnniNr];
  for (int64_t p = p0; p < p1; ++p) {
    const int8_t* panel = bd + p * groups * kVnniNr * 4;
    const int64_t n0 = p * kVnniNr;
    const int nr = static_cast<int>(std::min<int64_t>(kVnniNr, B.N - n0));
    const __mmask16 k0 = static_cast<__mmask16>(nr >= 16 ? 0xFFFF : (1u << nr) - 1);
    const __mmask16 k1 = static_cast<__mmask16>(nr >= 32 ? 0xFFFF : nr <= 16 ? 0 : (1u << (nr - 16)) - 1);
    for (int64_t m = m0; m < m1; m += kVnniMr) {
      const int mr = static_cast<int>(std::min<int64_t>(kVnniMr, m1 - m));
      kTiles[mr](args.a + m * args.lda, args.lda, panel, groups, t);
      for (int r = 0; r < mr; ++r) {
        store16(args, _mm512_load_si512(t + r * kVnniNr), m + r, n0, k0);
        if (k1) store16(args, _mm512_load_si512(t + r * kVnniNr + 16), m + r, n0 + 16, k1);
      }
    }
  }
}

}  // namespace oinfer::cpu::qgemm

#endif  // __x86_64__
