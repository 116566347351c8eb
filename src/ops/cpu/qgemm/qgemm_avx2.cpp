// The AVX2 qgemm variant: A widened to int16 (u8 values, so 0..255), B as
// int16 pairs (k, k + 1) per column, vpmaddwd then vpaddd. Every pair sum
// of products fits int32 exactly, unlike vpmaddubsw's saturating int16
// sums of u8 * s8 pairs (2 * 255 * -128 = -65280), so the result is the
// portable one bit for bit. Tile: 6 rows x 16 columns (12 accumulators).
#include "ops/cpu/qgemm/qgemm_internal.h"

#if defined(__x86_64__)
#include <immintrin.h>

#include <cstring>

namespace oinfer::cpu::qgemm {

namespace {

template <int MR>
__attribute__((target("avx2"))) void tile(const int16_t* a, int64_t lda, const int16_t* b, int64_t pairs,
                                          int32_t* out) {
  __m256i acc[MR][2];
#pragma GCC unroll 8
  for (int r = 0; r < MR; ++r) acc[r][0] = acc[r][1] = _mm256_setzero_si256();
  for (int64_t j = 0; j < pairs; ++j) {
    const __m256i b0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + j * 32));
    const __m256i b1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + j * 32 + 16));
#pragma GCC unroll 8
    for (int r = 0; r < MR; ++r) {
      int32_t pair;
      std::memcpy(&pair, a + r * lda + 2 * j, 4);
      const __m256i av = _mm256_set1_epi32(pair);
      acc[r][0] = _mm256_add_epi32(acc[r][0], _mm256_madd_epi16(av, b0));
      acc[r][1] = _mm256_add_epi32(acc[r][1], _mm256_madd_epi16(av, b1));
    }
  }
#pragma GCC unroll 8
  for (int r = 0; r < MR; ++r) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + r * kAvx2Nr), acc[r][0]);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + r * kAvx2Nr + 8), acc[r][1]);
  }
}

using TileFn = void (*)(const int16_t*, int64_t, const int16_t*, int64_t, int32_t*);
constexpr TileFn kTiles[kAvx2Mr + 1] = {nullptr, tile<1>, tile<2>, tile<3>, tile<4>, tile<5>, tile<6>};

// Eight finished values of row m, columns n..n+7: finish + store.
__attribute__((target("avx2"))) void store8(const BlockArgs& args, __m256i dot, int64_t m, int64_t n) {
  const QEpilogue& ep = *args.ep;
  __m256i v = _mm256_add_epi32(dot, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(args.cols + n)));
  if (args.rows) {
    const __m256i zb = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(args.b->zb.data() + n));
    v = _mm256_sub_epi32(v, _mm256_mullo_epi32(zb, _mm256_set1_epi32(args.rows[m])));
  }
  const int64_t at = m * ep.ldc + n;
  if (ep.kind == QOut::kInt32) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(static_cast<int32_t*>(ep.out) + at), v);
    return;
  }
  __m256 f = _mm256_mul_ps(_mm256_cvtepi32_ps(v), _mm256_loadu_ps(ep.scale + n));
  if (ep.kind == QOut::kFloat) {
    _mm256_storeu_ps(static_cast<float*>(ep.out) + at, f);
    return;
  }
  const bool u8 = ep.kind == QOut::kUInt8;
  const float lo = static_cast<float>((u8 ? 0 : -128) - ep.zp), hi = static_cast<float>((u8 ? 255 : 127) - ep.zp);
  f = _mm256_max_ps(f, _mm256_set1_ps(lo));  // NaN -> lo, as requantize()
  f = _mm256_min_ps(f, _mm256_set1_ps(hi));
  f = _mm256_round_ps(f, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  const __m256i q = _mm256_add_epi32(_mm256_cvtps_epi32(f), _mm256_set1_epi32(ep.zp));
  // In range already: pack to 16 then 8 bits without saturating effects.
  const __m128i w = _mm_packs_epi32(_mm256_castsi256_si128(q), _mm256_extracti128_si256(q, 1));
  const __m128i bytes = u8 ? _mm_packus_epi16(w, w) : _mm_packs_epi16(w, w);
  _mm_storel_epi64(reinterpret_cast<__m128i*>(static_cast<uint8_t*>(ep.out) + at), bytes);
}

}  // namespace

__attribute__((target("avx2"))) void blockAvx2(const BlockArgs& args, int64_t m0, int64_t m1, int64_t p0,
                                               int64_t p1) {
  const PackedQB& B = *args.b;
  const int64_t pairs = B.Kp / 2;
  const auto* a = reinterpret_cast<const int16_t*>(args.a);
  const auto* bd = reinterpret_cast<const int16_t*>(B.data.get());
  alignas(32) int32_t t[kAvx2Mr * kAvx2Nr];
  for (int64_t p = p0; p < p1; ++p) {
    const int16_t* panel = bd + p * pairs * kAvx2Nr * 2;
    const int64_t n0 = p * kAvx2Nr;
    const int nr = static_cast<int>(std::min<int64_t>(kAvx2Nr, B.N - n0));
    for (int64_t m = m0; m < m1; m += kAvx2Mr) {
      const int mr = static_cast<int>(std::min<int64_t>(kAvx2Mr, m1 - m));
      kTiles[mr](a + m * args.lda, args.lda, panel, pairs, t);
      if (nr == kAvx2Nr) {
        for (int r = 0; r < mr; ++r) {
          store8(args, _mm256_load_si256(reinterpret_cast<const __m256i*>(t + r * kAvx2Nr)), m + r, n0);
          store8(args, _mm256_load_si256(reinterpret_cast<const __m256i*>(t + r * kAvx2Nr + 8)), m + r, n0 + 8);
        }
      } else {
        storeTileScalar(t, kAvx2Nr, mr, nr, args, m, n0);
      }
    }
  }
}

}  // namespace oinfer::cpu::qgemm

#endif  // __x86_64__
