// The register-blocked micro-kernels. Each SIMD kernel carries its own target
// attribute, so this file builds without -march flags and the choice happens
// at run time (isa()).
//
// AVX-512: 12 x 32 tile = 24 zmm accumulators, 2 zmm for the B row, A values
// broadcast from memory: 24 FMAs per 2 loads + 12 broadcasts per k step.
// AVX2: 6 x 16 = 12 ymm accumulators. Edge tiles: the row count is a template
// parameter (no wasted FMAs on short M), columns are masked on the store.
// GCC 12 flags the masked loads' pass-through operand as uninitialised (a false
// positive: maskz loads do not read it).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>

#include <algorithm>

#include "ops/cpu/gemm/act512.h"
#include "ops/cpu/cpu_features.h"
#include "ops/cpu/gemm/gemm_internal.h"

namespace oinfer::gemm {
namespace {

#if defined(__x86_64__) || defined(__i386__)
#define OINFER_GEMM_X86 1
#endif

#ifdef OINFER_GEMM_X86
constexpr int kMr512 = 12, kNr512 = 32;

// kShift: B row k is read at b + shifts[k] (the shifted-input convolution,
// see ShiftedKernel) instead of from a packed panel.
template <int R, bool kShift, bool kPf>
__attribute__((target("avx512f"))) void k512(int64_t kc, const float* a, const float* b, const int64_t* shifts,
                                              float* c, int64_t ldc, int cols, const TileArgs& t) {
  __m512 c0[R], c1[R];
#pragma GCC unroll 12
  for (int r = 0; r < R; ++r) c0[r] = c1[r] = _mm512_setzero_ps();
  const char* pfA = reinterpret_cast<const char*>(t.pfA ? t.pfA : a);
  const char* pfB = reinterpret_cast<const char*>(t.pfB ? t.pfB : b);
  // The residual's lines, one row's two a step from the first: the
  // epilogue's R rows of it are R streams a plane apart, which the hardware
  // prefetcher does not follow, and inside a model it comes from L3.
  // (Prefetching C too, or all of it at the tile's start, was slower.)
  const int64_t resRows = t.res ? std::min<int64_t>(kc, R) : 0;
  for (int64_t k = 0; k < kc; ++k) {
    if (k < resRows) {
      _mm_prefetch(reinterpret_cast<const char*>(t.res + k * t.ldr), _MM_HINT_T0);
      _mm_prefetch(reinterpret_cast<const char*>(t.res + k * t.ldr + 16), _MM_HINT_T0);
    }
    if constexpr (kPf) {
      // A: 48 bytes a step (repeats within a line are cheap); B: two lines a step.
      // Shifted: pfB is the next panel's row 0, row k at pfB + shifts[k].
      const char* pb = kShift ? pfB + shifts[k] * 4 : pfB + k * kNr512 * 4;
      _mm_prefetch(pfA + k * kMr512 * 4, _MM_HINT_T1);
      _mm_prefetch(pb, _MM_HINT_T1);
      _mm_prefetch(pb + 64, _MM_HINT_T1);
    }
    const float* bk = kShift ? b + shifts[k] : b;
    const __m512 b0 = _mm512_loadu_ps(bk), b1 = _mm512_loadu_ps(bk + 16);
#pragma GCC unroll 12
    for (int r = 0; r < R; ++r) {
      const __m512 av = _mm512_set1_ps(a[r]);
      c0[r] = _mm512_fmadd_ps(av, b0, c0[r]);
      c1[r] = _mm512_fmadd_ps(av, b1, c1[r]);
    }
    a += kMr512;
    if (!kShift) b += kNr512;
  }
  const __mmask16 m0 = firstLanes(cols);
  const __mmask16 m1 = firstLanes(cols - 16);
  const __m512 va = _mm512_set1_ps(t.alpha), vb = _mm512_set1_ps(t.beta);
  __m512 cb0 = _mm512_setzero_ps(), cb1 = _mm512_setzero_ps();
  if (t.colBias) {
    cb0 = _mm512_maskz_loadu_ps(m0, t.colBias);
    cb1 = _mm512_maskz_loadu_ps(m1, t.colBias + 16);
  }
  const __m512 lo = _mm512_set1_ps(t.lo), hi = _mm512_set1_ps(t.hi);
  const __m512 ap0 = _mm512_set1_ps(t.p0), ap1 = _mm512_set1_ps(t.p1);
#pragma GCC unroll 12
  for (int r = 0; r < R; ++r) {
    float* cr = c + r * ldc;
    __m512 v0 = _mm512_mul_ps(c0[r], va), v1 = _mm512_mul_ps(c1[r], va);
    if (t.loadC) {
      v0 = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(m0, cr), vb, v0);
      v1 = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(m1, cr + 16), vb, v1);
    }
    if (t.rowBias) {
      const __m512 rb = _mm512_set1_ps(t.rowBias[r]);
      v0 = _mm512_add_ps(v0, rb);
      v1 = _mm512_add_ps(v1, rb);
    }
    if (t.colBias) {
      v0 = _mm512_add_ps(v0, cb0);
      v1 = _mm512_add_ps(v1, cb1);
    }
    if (t.res) {
      v0 = _mm512_add_ps(v0, _mm512_maskz_loadu_ps(m0, t.res + r * t.ldr));
      v1 = _mm512_add_ps(v1, _mm512_maskz_loadu_ps(m1, t.res + r * t.ldr + 16));
    }
    if (t.clamp) {
      v0 = _mm512_min_ps(_mm512_max_ps(v0, lo), hi);
      v1 = _mm512_min_ps(_mm512_max_ps(v1, lo), hi);
    }
    if (t.act != GemmActivation::kNone) {
      v0 = actDyn512(t.act, v0, ap0, ap1);
      v1 = actDyn512(t.act, v1, ap0, ap1);
    }
    _mm512_mask_storeu_ps(cr, m0, v0);
    _mm512_mask_storeu_ps(cr + 16, m1, v1);
  }
}

template <bool kShift, int... Rs>
void dispatch512(int rows, int64_t kc, const float* a, const float* b, const int64_t* shifts, float* c, int64_t ldc,
                 int cols, const TileArgs& t, std::integer_sequence<int, Rs...>) {
  using Fn = void (*)(int64_t, const float*, const float*, const int64_t*, float*, int64_t, int, const TileArgs&);
  static constexpr Fn table[] = {&k512<Rs + 1, kShift, false>...};
  static constexpr Fn tablePf[] = {&k512<Rs + 1, kShift, true>...};
  (t.pfA || t.pfB ? tablePf : table)[rows - 1](kc, a, b, shifts, c, ldc, cols, t);
}

// Four vectors per step: the transcendental activations are long dependency
// chains (exp, reciprocal), so one vector at a time left the loop waiting on
// latency (SiLU was 15% of EfficientNet-B0 on one vector per step).
template <GemmActivation A>
__attribute__((target("avx512f"))) void actRows512(const GemmEpilogue& ep, float* c, int64_t ldc, int64_t rows,
                                                   int64_t cols) {
  const __m512 p0 = _mm512_set1_ps(ep.p0), p1 = _mm512_set1_ps(ep.p1);
  for (int64_t r = 0; r < rows; ++r) {
    float* cr = c + r * ldc;
    int64_t j = 0;
    for (; j + 64 <= cols; j += 64) {
      const __m512 y0 = act512<A>(_mm512_loadu_ps(cr + j), p0, p1);
      const __m512 y1 = act512<A>(_mm512_loadu_ps(cr + j + 16), p0, p1);
      const __m512 y2 = act512<A>(_mm512_loadu_ps(cr + j + 32), p0, p1);
      const __m512 y3 = act512<A>(_mm512_loadu_ps(cr + j + 48), p0, p1);
      _mm512_storeu_ps(cr + j, y0);
      _mm512_storeu_ps(cr + j + 16, y1);
      _mm512_storeu_ps(cr + j + 32, y2);
      _mm512_storeu_ps(cr + j + 48, y3);
    }
    for (; j < cols; j += 16) {
      const __mmask16 m = firstLanes(cols - j);
      _mm512_mask_storeu_ps(cr + j, m, act512<A>(_mm512_maskz_loadu_ps(m, cr + j), p0, p1));
    }
  }
}

}  // namespace

// The vectorised activations; false when `act` has none here (Gelu).
bool activateRows512(const GemmEpilogue& ep, float* c, int64_t ldc, int64_t rows, int64_t cols) {
  switch (ep.act) {
    case GemmActivation::kRelu: actRows512<GemmActivation::kRelu>(ep, c, ldc, rows, cols); return true;
    case GemmActivation::kClip: actRows512<GemmActivation::kClip>(ep, c, ldc, rows, cols); return true;
    case GemmActivation::kLeakyRelu: actRows512<GemmActivation::kLeakyRelu>(ep, c, ldc, rows, cols); return true;
    case GemmActivation::kSigmoid: actRows512<GemmActivation::kSigmoid>(ep, c, ldc, rows, cols); return true;
    case GemmActivation::kHardSigmoid: actRows512<GemmActivation::kHardSigmoid>(ep, c, ldc, rows, cols); return true;
    case GemmActivation::kTanh: actRows512<GemmActivation::kTanh>(ep, c, ldc, rows, cols); return true;
    case GemmActivation::kSiLU: actRows512<GemmActivation::kSiLU>(ep, c, ldc, rows, cols); return true;
    case GemmActivation::kHardSwish: actRows512<GemmActivation::kHardSwish>(ep, c, ldc, rows, cols); return true;
    case GemmActivation::kNone: return true;
    case GemmActivation::kGelu: return false;
  }
  return false;
}

namespace {

void kernel512(int64_t kc, const float* a, const float* b, float* c, int64_t ldc, int rows, int cols,
               const TileArgs& t) {
  dispatch512<false>(rows, kc, a, b, nullptr, c, ldc, cols, t, std::make_integer_sequence<int, kMr512>{});
}
void shifted512(int64_t kc, const float* a, const float* b, const int64_t* shifts, float* c, int64_t ldc, int rows,
                int cols, const TileArgs& t) {
  dispatch512<true>(rows, kc, a, b, shifts, c, ldc, cols, t, std::make_integer_sequence<int, kMr512>{});
}

constexpr int kMr256 = 6, kNr256 = 16;

template <int R, bool kShift>
__attribute__((target("avx2,fma"))) void k256(int64_t kc, const float* a, const float* b, const int64_t* shifts,
                                               float* c, int64_t ldc, int cols, const TileArgs& t) {
  __m256 c0[R], c1[R];
#pragma GCC unroll 6
  for (int r = 0; r < R; ++r) c0[r] = c1[r] = _mm256_setzero_ps();
  for (int64_t k = 0; k < kc; ++k) {
    const float* bk = kShift ? b + shifts[k] : b;
    const __m256 b0 = _mm256_loadu_ps(bk), b1 = _mm256_loadu_ps(bk + 8);
#pragma GCC unroll 6
    for (int r = 0; r < R; ++r) {
      const __m256 av = _mm256_broadcast_ss(a + r);
      c0[r] = _mm256_fmadd_ps(av, b0, c0[r]);
      c1[r] = _mm256_fmadd_ps(av, b1, c1[r]);
    }
    a += kMr256;
    if (!kShift) b += kNr256;
  }
  alignas(32) float tile[kNr256];
  for (int r = 0; r < R; ++r) {
    _mm256_store_ps(tile, c0[r]);
    _mm256_store_ps(tile + 8, c1[r]);
    float* cr = c + r * ldc;
    for (int j = 0; j < cols; ++j) {
      float v = t.alpha * tile[j];
      if (t.loadC) v += t.beta * cr[j];
      if (t.rowBias) v += t.rowBias[r];
      if (t.colBias) v += t.colBias[j];
      if (t.res) v += t.res[r * t.ldr + j];
      if (t.clamp) v = std::min(std::max(v, t.lo), t.hi);
      cr[j] = v;
    }
  }
}

template <bool kShift, int... Rs>
void dispatch256(int rows, int64_t kc, const float* a, const float* b, const int64_t* shifts, float* c, int64_t ldc,
                 int cols, const TileArgs& t, std::integer_sequence<int, Rs...>) {
  using Fn = void (*)(int64_t, const float*, const float*, const int64_t*, float*, int64_t, int, const TileArgs&);
  static constexpr Fn table[] = {&k256<Rs + 1, kShift>...};
  table[rows - 1](kc, a, b, shifts, c, ldc, cols, t);
}

void kernel256(int64_t kc, const float* a, const float* b, float* c, int64_t ldc, int rows, int cols,
               const TileArgs& t) {
  dispatch256<false>(rows, kc, a, b, nullptr, c, ldc, cols, t, std::make_integer_sequence<int, kMr256>{});
}
void shifted256(int64_t kc, const float* a, const float* b, const int64_t* shifts, float* c, int64_t ldc, int rows,
                int cols, const TileArgs& t) {
  dispatch256<true>(rows, kc, a, b, shifts, c, ldc, cols, t, std::make_integer_sequence<int, kMr256>{});
}
#endif

constexpr int kMrG = 4, kNrG = 8;

template <bool kShift>
void genericTile(int64_t kc, const float* a, const float* b, const int64_t* shifts, float* c, int64_t ldc, int rows,
                 int cols, const TileArgs& t) {
  float acc[kMrG][kNrG] = {};
  for (int64_t k = 0; k < kc; ++k) {
    const float* bk = kShift ? b + shifts[k] : b;
    for (int r = 0; r < kMrG; ++r)
      for (int j = 0; j < kNrG; ++j) acc[r][j] += a[r] * bk[j];
    a += kMrG;
    if (!kShift) b += kNrG;
  }
  for (int r = 0; r < rows; ++r) {
    float* cr = c + r * ldc;
    for (int j = 0; j < cols; ++j) {
      float v = t.alpha * acc[r][j];
      if (t.loadC) v += t.beta * cr[j];
      if (t.rowBias) v += t.rowBias[r];
      if (t.colBias) v += t.colBias[j];
      if (t.res) v += t.res[r * t.ldr + j];
      if (t.clamp) v = std::min(std::max(v, t.lo), t.hi);
      cr[j] = v;
    }
  }
}

void kernelGeneric(int64_t kc, const float* a, const float* b, float* c, int64_t ldc, int rows, int cols,
                   const TileArgs& t) {
  genericTile<false>(kc, a, b, nullptr, c, ldc, rows, cols, t);
}
void shiftedGeneric(int64_t kc, const float* a, const float* b, const int64_t* shifts, float* c, int64_t ldc,
                    int rows, int cols, const TileArgs& t) {
  genericTile<true>(kc, a, b, shifts, c, ldc, rows, cols, t);
}

}  // namespace

#ifndef OINFER_GEMM_X86
bool activateRows512(const GemmEpilogue&, float*, int64_t, int64_t, int64_t) { return false; }
#endif

#ifdef OINFER_GEMM_X86
bool cpuHasAvx512() { return cpu::cpuFeatures().avx512(); }
bool cpuHasAvx2() { return cpu::cpuFeatures().avx2Fma(); }
Isa isaAvx512() { return {"avx512", kMr512, kNr512, &kernel512, &shifted512, true}; }
Isa isaAvx2() { return {"avx2", kMr256, kNr256, &kernel256, &shifted256, false}; }
#else
bool cpuHasAvx512() { return false; }
bool cpuHasAvx2() { return false; }
Isa isaAvx512() { return isaGeneric(); }
Isa isaAvx2() { return isaGeneric(); }
#endif
Isa isaGeneric() { return {"generic", kMrG, kNrG, &kernelGeneric, &shiftedGeneric, false}; }

}  // namespace oinfer::gemm
