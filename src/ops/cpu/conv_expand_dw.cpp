// Float32 1x1 expand Conv followed by a depthwise Conv, in one pass
// (MobileNetV2's and EfficientNet's inverted-residual blocks: the ai.oinfer
// FusedConvDepthwise of the fuse_conv_depthwise pass).
//
// Run apart, the expand writes the block's widest tensor (96 x 112 x 112 in
// MobileNetV2's second block: 4.8 MB, past L2) and the depthwise reads it
// back from L3 or memory: both were bound by that traffic, not by their
// arithmetic. Here the expanded rows only ever exist in a per-thread buffer.
// A unit is (image, band of output rows, group of kGroup expanded channels):
//   1. the expand computes, for the group's channels, every input row the
//      band's windows read (the band's rows of X are one contiguous run of
//      pixels per input channel): tiles of kGroup channels x 48 pixels, 24
//      accumulators, one broadcast weight per channel and step; bias and the
//      first activation in registers, into the buffer (kGroup planes of
//      those rows);
//   2. the depthwise plane kernel (depthwisePlanes512) runs the band as a
//      conv of its own over the buffer's rows (its top padding only where
//      the band starts above the image; columns padded as usual) and writes
//      the band's output rows into Y; bias and a clamp in registers, any
//      other second activation on the rows while they are in cache.
// Units run band-major, so the threads take consecutive bands and a band's
// input rows are read from cache by every channel group. Adjacent bands
// recompute the (KH - stride) input rows their windows share.
// Where its time goes is in tools/bench/TUNING.md (the stores into Y are
// bound by memory).
#include <algorithm>

#include "ops/cpu/conv_fast.h"
#include "ops/cpu/gemm/act512.h"
#include "ops/cpu/gemm/gemm_internal.h"

namespace oinfer::conv {

namespace {

constexpr int kGroup = 8;                    // expanded channels per unit
constexpr int kPix = 48;                     // pixels per expand tile: three vectors
constexpr int64_t kBufFloats = 16 * 1024;    // per-thread band buffer budget (64 KiB)

#if defined(__x86_64__) || defined(__i386__)
// Expanded channels [c0, c0 + cn) (cn <= kGroup) over P contiguous pixels:
// e[c * ldE + p] = act(b[c] + sum_ci w[c * Cin + ci] * x[ci * ldX + p]).
__attribute__((target("avx512f"))) void expandRows512(const float* x, int64_t ldX, int64_t Cin, int64_t P,
                                                      const float* w, const float* b, int cn, const ClampSplit& cs,
                                                      const Activation& act, float* e, int64_t ldE) {
  const __m512 lo = _mm512_set1_ps(cs.lo), hi = _mm512_set1_ps(cs.hi);
  const __m512 p0 = _mm512_set1_ps(act.p0), p1 = _mm512_set1_ps(act.p1);
  for (int64_t p = 0; p < P; p += kPix) {
    const int64_t n = std::min<int64_t>(kPix, P - p);
    const __mmask16 m[3] = {gemm::firstLanes(n), gemm::firstLanes(n - 16), gemm::firstLanes(n - 32)};
    __m512 acc[kGroup][3];
#pragma GCC unroll 8
    for (int c = 0; c < kGroup; ++c) {
      const __m512 bv = _mm512_set1_ps(c < cn && b ? b[c] : 0.f);
      acc[c][0] = acc[c][1] = acc[c][2] = bv;
    }
    const float* xp = x + p;
    for (int64_t ci = 0; ci < Cin; ++ci, xp += ldX) {
      const __m512 x0 = _mm512_maskz_loadu_ps(m[0], xp);
      const __m512 x1 = _mm512_maskz_loadu_ps(m[1], xp + 16);
      const __m512 x2 = _mm512_maskz_loadu_ps(m[2], xp + 32);
#pragma GCC unroll 8
      for (int c = 0; c < kGroup; ++c) {
        // Channels past cn read channel 0's weight; their rows are not stored.
        const __m512 wv = _mm512_set1_ps(w[(c < cn ? c : 0) * Cin + ci]);
        acc[c][0] = _mm512_fmadd_ps(wv, x0, acc[c][0]);
        acc[c][1] = _mm512_fmadd_ps(wv, x1, acc[c][1]);
        acc[c][2] = _mm512_fmadd_ps(wv, x2, acc[c][2]);
      }
    }
    // (Unrolled with constant indices, so the accumulators stay in registers.)
#pragma GCC unroll 8
    for (int c = 0; c < kGroup; ++c) {
      if (c >= cn) break;
#pragma GCC unroll 3
      for (int j = 0; j < 3; ++j) {
        __m512 v = acc[c][j];
        if (cs.clamp) v = _mm512_min_ps(_mm512_max_ps(v, lo), hi);
        if (cs.rest != GemmActivation::kNone) v = gemm::actDyn512(cs.rest, v, p0, p1);
        _mm512_mask_storeu_ps(e + c * ldE + p + 16 * j, m[j], v);  // an empty mask stores nothing
      }
    }
  }
}
#endif

}  // namespace

bool expandDepthwiseFits(const ConvGeom& ga, const ConvGeom& gb) {
  if (ga.k[0] != 1 || ga.K != 1 || ga.G != 1 || gb.k[0] != 1 || gb.grid[0] != 1 || gb.img[0] != 1) return false;
  if (gb.G != gb.C || gb.M != gb.C || gb.C != ga.M) return false;
  if (gb.s[1] != gb.s[2] || (gb.s[2] != 1 && gb.s[2] != 2) || gb.dil[1] != 1 || gb.dil[2] != 1) return false;
  // One band of a single output row must fit the buffer, and the plane
  // kernel must take the rows.
  return gb.k[1] * gb.img[2] * kGroup <= kBufFloats && depthwisePlanesFit(gb);
}

ScratchNeed expandDepthwiseScratch() {
  ScratchNeed need;
  need.perThread = size_t(kBufFloats) * sizeof(float);  // the thread's band of expanded rows
  return need;
}

void convExpandDepthwise(ThreadPool& pool, const ConvGeom& ga, const ConvGeom& gb, const float* x, const float* w1,
                         const float* b1, const Activation& act1, const float* w2, const float* b2,
                         const Activation& act2, float* y, bool rows3x3, const Workspace& ws) {
#if defined(__x86_64__) || defined(__i386__)
  const CallWorkspace call(ws, expandDepthwiseScratch(), pool.size());
  const ScratchSpan& rows = call.get().perThread;
  const int64_t H = gb.img[1], W = gb.img[2], OH = gb.grid[1], OW = gb.grid[2];
  const int64_t KH = gb.k[1], KW = gb.k[2], s = gb.s[1], padT = gb.padBegin[1];
  const int64_t Cin = ga.C, Ce = ga.M, HW = H * W;
  // Output rows per band: as many as the buffer holds (input rows (B-1)*s+KH
  // per channel), at least one.
  const int64_t maxIn = kBufFloats / (kGroup * W);
  const int64_t B = std::clamp<int64_t>((maxIn - KH) / s + 1, 1, OH);
  const int64_t bands = (OH + B - 1) / B, groups = (Ce + kGroup - 1) / kGroup;
  const ClampSplit cs1 = splitClamp(act1);
  const ClampSplit cs2 = splitClamp(act2);
  GemmEpilogue post2;  // the second activation when it is not a clamp
  post2.act = cs2.rest;
  post2.p0 = act2.p0;
  post2.p1 = act2.p1;
  pool.parallelFor(ga.N * bands * groups, [&](int64_t u0, int64_t u1) {
    float* buf = rows.mine<float>();  // kGroup * P <= kBufFloats; masked stores stay inside
    for (int64_t u = u0; u < u1; ++u) {
      const int64_t grp = u % groups, band = (u / groups) % bands, n = u / (groups * bands);
      const int64_t oh0 = band * B, oh1 = std::min(OH, oh0 + B);
      const int64_t ihLo = std::max<int64_t>(0, oh0 * s - padT);
      const int64_t ihHi = std::min<int64_t>(H, (oh1 - 1) * s - padT + KH);
      const int64_t c0 = grp * kGroup;
      const int cn = int(std::min<int64_t>(kGroup, Ce - c0));
      const int64_t rows = std::max<int64_t>(0, ihHi - ihLo), P = rows * W;
      if (P > 0)
        expandRows512(x + n * Cin * HW + ihLo * W, HW, Cin, P, w1 + c0 * Cin, b1 ? b1 + c0 : nullptr, cn, cs1,
                      act1, buf, P);
      // The band as a depthwise conv of its own over the buffer's rows: the
      // first output row's window starts padT' rows above the buffer (only
      // the top band has such rows: there they are the image's padding).
      ConvGeom gd = gb;
      gd.N = 1;
      gd.C = gd.M = gd.G = cn;
      gd.img[1] = rows;
      gd.grid[1] = oh1 - oh0;
      gd.padBegin[1] = ihLo - (oh0 * s - padT);
      gd.imgSize = P;
      gd.gridSize = (oh1 - oh0) * OW;
      gd.noPadding = false;
      (rows3x3 ? depthwise3x3Rows512 : depthwisePlanes512)(gd, buf, w2 + c0 * KH * KW, b2 ? b2 + c0 : nullptr,
                                                           nullptr, y + (n * Ce + c0) * OH * OW + oh0 * OW, OH * OW,
                                                           0, cn, cs2.clamp, cs2.lo, cs2.hi, post2);
    }
  }, 1);
#else
  (void)pool, (void)ga, (void)gb, (void)x, (void)w1, (void)b1, (void)act1, (void)w2, (void)b2, (void)act2, (void)y,
      (void)rows3x3, (void)ws;
#endif
}

}  // namespace oinfer::conv
