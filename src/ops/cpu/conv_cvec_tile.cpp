// The channel-vector conv's tile kernel (conv_cvec_tile.h): one
// instantiation per tile width R, input pixel stride S, vectors V and output
// layout, dispatched through a table; accumulators in registers, a register
// transpose into NCHW planes or plain stores into NCHW16c lines.
// GCC 12 flags the pass-through operand of min / max (_mm512_undefined_ps)
// (and the unpack / shuffle operands of transpose16) as uninitialised: a
// false positive.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include "ops/cpu/conv_cvec_tile.h"

#include <algorithm>
#include <utility>

#include "ops/cpu/gemm/act512.h"
#include "ops/cpu/gemm/gemm_internal.h"

namespace oinfer::conv::cvec {

#if defined(__x86_64__) || defined(__i386__)
namespace {

// R pixels, input pixels S floats apart (S = stride in NCHW; 16 x stride in
// the blocked layout: 16 or 32), V vectors of 16 channels (2; 1 for a last panel of
// <= 16 channels in the blocked layout), OB: Y in the blocked layout
// (channel block b of pixel p at y + b * blk + p * 16: one aligned store
// per pixel and vector, no transpose).
template <int R, int S, int V, bool OB>
__attribute__((target("avx512f,prfchw"))) void cvecTile(int64_t CK, const float* in, const int64_t* taps, const float* w,
                                                  const TileOut& o) {
  __m512 c0[R], c1[R];
  if (o.firstBlock) {
#pragma GCC unroll 14
    for (int r = 0; r < R; ++r) c0[r] = c1[r] = _mm512_setzero_ps();
  } else {
#pragma GCC unroll 14
    for (int r = 0; r < R; ++r) {
      c0[r] = _mm512_load_ps(o.part + r * kLanes);
      if (V == 2) c1[r] = _mm512_load_ps(o.part + r * kLanes + 16);
    }
  }
  const char* const pf = o.pf;
  const int64_t pfStride = o.pfStride;
  // The lines the epilogue writes (and the residual it reads), one per step
  // from the first: a tile writes R pixels into each of 32 planes, 32 write
  // streams too many for the hardware prefetcher, so without this every
  // store that missed L2 waited for its line. (Blocked: the V x R lines of
  // the tile's pixels.)
  const int64_t outLines = o.lastBlock ? std::min<int64_t>(CK, OB ? V * R : 2 * o.chans) : 0;
  const char* const yb = reinterpret_cast<const char*>(o.y);
  const char* const rb = reinterpret_cast<const char*>(o.res);
  const int64_t ldyBytes = (OB ? o.blk : o.ldy) * int64_t(sizeof(float));
  for (int64_t k = 0; k < CK; ++k) {
    if (k < outLines) {
      const int64_t off = OB ? (k / R) * ldyBytes + (k % R) * 64
                             : (k >> 1) * ldyBytes + (k & 1) * (R - 1) * int64_t(sizeof(float));
      __builtin_prefetch(yb + off, 1, 3);
      if (rb) _mm_prefetch(rb + off, _MM_HINT_T0);
    }
    if (pf) _mm_prefetch(pf + k * pfStride, _MM_HINT_T1);
    const char* q = reinterpret_cast<const char*>(in + taps[k + kInputAhead]);
    _mm_prefetch(q, _MM_HINT_T0);
    // Blocked 1x1: each pixel is its own line, read by 16 steps in a row;
    // one more pixel's line a step covers the tile's R lines of each block
    // (the first and last only, as in NCHW, left the blocked form slower).
    _mm_prefetch(q + (S >= 16 && o.rotatePf ? k % R : R - 1) * S * sizeof(float), _MM_HINT_T0);
    const float* a = in + taps[k];
    const __m512 w0 = _mm512_loadu_ps(w), w1 = V == 2 ? _mm512_loadu_ps(w + 16) : w0;
#pragma GCC unroll 14
    for (int r = 0; r < R; ++r) {
      const __m512 av = _mm512_set1_ps(a[r * S]);
      c0[r] = _mm512_fmadd_ps(av, w0, c0[r]);
      if (V == 2) c1[r] = _mm512_fmadd_ps(av, w1, c1[r]);
    }
    w += kLanes;
  }
  if (!o.lastBlock) {
#pragma GCC unroll 14
    for (int r = 0; r < R; ++r) {
      _mm512_store_ps(o.part + r * kLanes, c0[r]);
      if (V == 2) _mm512_store_ps(o.part + r * kLanes + 16, c1[r]);
    }
    return;
  }
  const __m512 lo = _mm512_set1_ps(o.lo), hi = _mm512_set1_ps(o.hi);
  const __m512 p0 = _mm512_set1_ps(o.p0), p1 = _mm512_set1_ps(o.p1);
  if constexpr (OB) {
    // Blocked: pixel r's 16 channels of block v are one line (aligned in
    // the arena; unaligned loads and stores cost the same there).
    for (int v = 0; v < V; ++v) {
      const __m512 bv = o.bias ? _mm512_loadu_ps(o.bias + v * 16) : _mm512_setzero_ps();
      float* yv = o.y + v * o.blk;
      const float* rv = o.res ? o.res + v * o.blk : nullptr;
#pragma GCC unroll 14
      for (int r = 0; r < R; ++r) {
        __m512 x = _mm512_add_ps(V == 2 && v ? c1[r] : c0[r], bv);
        if (rv) x = _mm512_add_ps(x, _mm512_loadu_ps(rv + r * 16));
        if (o.clamp) x = _mm512_min_ps(_mm512_max_ps(x, lo), hi);
        if (o.act != GemmActivation::kNone) x = gemm::actDyn512(o.act, x, p0, p1);
        _mm512_storeu_ps(yv + r * 16, x);
      }
    }
    return;
  }
  // Transpose in registers, 16 channels at a time: channel j's R pixels
  // become lanes 0..R-1 of one vector (through the stack and gathers, the
  // epilogue took a sixth of a 3x3 conv over 16 channels).
  const __mmask16 m = __mmask16((1u << R) - 1);
  for (int half = 0; half < V; ++half) {
    const int j0 = half * 16, jn = std::min(o.chans - j0, 16);
    if (jn <= 0) break;
    __m512 v[16];
#pragma GCC unroll 16
    for (int r = 0; r < 16; ++r) v[r] = r < R ? (half ? c1[r < R ? r : 0] : c0[r < R ? r : 0]) : _mm512_setzero_ps();
    gemm::transpose16(v);
    for (int j = 0; j < jn; ++j) {
      __m512 x = v[j];
      float* yj = o.y + (j0 + j) * o.ldy;
      if (o.bias) x = _mm512_add_ps(x, _mm512_set1_ps(o.bias[j0 + j]));
      if (o.res) x = _mm512_add_ps(x, _mm512_maskz_loadu_ps(m, o.res + (j0 + j) * o.ldy));
      if (o.clamp) x = _mm512_min_ps(_mm512_max_ps(x, lo), hi);
      if (o.act != GemmActivation::kNone) x = gemm::actDyn512(o.act, x, p0, p1);
      _mm512_mask_storeu_ps(yj, m, x);
    }
  }
}

template <int S, int V, bool OB, int... Rs>
void cvecDispatch(int R, int64_t CK, const float* in, const int64_t* taps, const float* w, const TileOut& o,
                  std::integer_sequence<int, Rs...>) {
  using Fn = void (*)(int64_t, const float*, const int64_t*, const float*, const TileOut&);
  static constexpr Fn table[] = {&cvecTile<Rs + 1, S, V, OB>...};
  table[R - 1](CK, in, taps, w, o);
}

// One input pixel stride S (floats) and output layout: V = 1 for a last
// panel of <= 16 channels written blocked.
template <int S>
void runTileS(bool outBlocked, int R, int64_t CK, const float* in, const int64_t* taps, const float* w,
              const TileOut& o) {
  using Seq = std::make_integer_sequence<int, kMaxPix>;
  if (!outBlocked) cvecDispatch<S, 2, false>(R, CK, in, taps, w, o, Seq{});
  else if (o.chans <= 16) cvecDispatch<S, 1, true>(R, CK, in, taps, w, o, Seq{});
  else cvecDispatch<S, 2, true>(R, CK, in, taps, w, o, Seq{});
}

}  // namespace

void runTile(int S, bool outBlocked, int R, int64_t CK, const float* in, const int64_t* taps, const float* w,
             const TileOut& o) {
  using Seq = std::make_integer_sequence<int, kMaxPix>;
  if (S == 1) runTileS<1>(outBlocked, R, CK, in, taps, w, o);
  else if (S == 2) cvecDispatch<2, 2, false>(R, CK, in, taps, w, o, Seq{});  // NCHW out only (phased input otherwise)
  else if (S == 16) runTileS<16>(outBlocked, R, CK, in, taps, w, o);
  else runTileS<32>(outBlocked, R, CK, in, taps, w, o);
}
#else
void runTile(int, bool, int, int64_t, const float*, const int64_t*, const float*, const TileOut&) {}
#endif


}  // namespace oinfer::conv::cvec
