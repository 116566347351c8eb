// AVX-512 row kernel of the 2-d depthwise convolution: one output row with
// all kernel taps accumulated in registers (16 outputs per zmm), so each
// output is stored once instead of once per tap. Stride 2 de-interleaves two
// loads with one permute. Taps that cross the left/right border (padding) are
// masked off in the loads, so the borders and a short tail stay vectorised.
// Built with its own target attribute; callers check the CPU. Also the
// whole-plane kernel (depthwisePlanes512), for convs where a band of rows
// fits its buffer (depthwisePlanesFit), and the 3x3 stride-1 kernel straight
// from the input rows (depthwise3x3Rows512). The small-plane kernel is in
// conv_depthwise_small.cpp, the blocked one in conv_depthwise_blocked.cpp;
// which one a Conv runs: conv_select.cpp.
#include <immintrin.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>

#include "ops/cpu/conv_common.h"
#include "ops/cpu/conv_fast.h"
#include "ops/cpu/gemm/act512.h"
#include "ops/cpu/gemm/gemm_internal.h"

namespace oinfer::conv {

namespace {

// NC chunks of 16 outputs at once, two accumulators each (even / odd kernel
// rows): 2*NC independent FMA chains, so the 4-cycle FMA latency is hidden
// (one accumulator per chunk made a 3x3 kernel latency-bound).
template <int S, int NC>
__attribute__((target("avx512f"))) inline void chunks(const float* const* xrows, const float* w, int KH, int KW,
                                                      int64_t padW, int64_t W, int64_t OW, float bias, float* y,
                                                      int64_t ow0) {
  const __m512i even = _mm512_set_epi32(30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0);
  __m512 acc[NC][2];
  __mmask16 om[NC];
#pragma GCC unroll 4
  for (int c = 0; c < NC; ++c) {
    const int64_t n = std::clamp<int64_t>(OW - (ow0 + 16 * c), 0, 16);
    om[c] = __mmask16((1u << n) - 1);
    acc[c][0] = _mm512_set1_ps(bias);
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
                                                  int64_t padW, int64_t W, int64_t OW, float bias, float* y) {
  int64_t ow = 0;
  for (; ow + 64 <= OW; ow += 64) chunks<S, 4>(xrows, w, KH, KW, padW, W, OW, bias, y, ow);
  const int64_t left = (OW - ow + 15) / 16;
  if (left == 1) chunks<S, 1>(xrows, w, KH, KW, padW, W, OW, bias, y, ow);
  else if (left == 2) chunks<S, 2>(xrows, w, KH, KW, padW, W, OW, bias, y, ow);
  else if (left == 3) chunks<S, 3>(xrows, w, KH, KW, padW, W, OW, bias, y, ow);
  else if (left == 4) chunks<S, 4>(xrows, w, KH, KW, padW, W, OW, bias, y, ow);  // 49..63 left
}

// The whole-plane kernel's layout (see depthwisePlanes512): the sub-plane
// width Wg, the extra sub-plane rows the taps reach (shiftRows), the output
// rows per band (rows; < 1 when not even one fits the buffer).
struct PlaneLayout {
  int64_t Wg, shiftRows, rows;
};
constexpr int64_t kPlaneBuf = 8192;  // floats on the stack
constexpr int kMaxPlaneTaps = 64;

PlaneLayout planeLayout(const ConvGeom& g) {
  const int64_t s = g.s[2];
  const int64_t spanW = windowSpan(g, 2);  // columns one output row reads
  PlaneLayout l;
  l.Wg = (spanW + s - 1) / s;
  l.shiftRows = (g.k[1] - 1) * g.dil[1] / s + 1;
  // Per band of `rows` output rows: s*s sub-planes of rows + shiftRows rows, the output grid rows * Wg, slack.
  l.rows = std::min((kPlaneBuf - 64) / ((s * s) * l.Wg + l.Wg) - l.shiftRows, g.grid[1]);
  return l;
}

// Stride 1, no dilation, 3x3 (every stride-1 3x3 depthwise layer of
// MobileNetV2 and EfficientNet, alone or as FusedConvDepthwise's second
// half): straight from the input rows, no padded copy. Per output row,
// chunks of 16 outputs; each tap is one masked load per chunk (lanes whose
// input column falls in the padding, or whose output lies past the row, are
// neither read nor kept: the masks depend only on the chunk and the tap
// column, so they are made once per call) against the tap's weight vector,
// held in registers for the plane. A kernel row whose input row lies in the
// padding is skipped. The sums go straight into y's row: the plane kernel
// below spends most of its time on the padded copy and on copying its
// output grid into y. 5x5 stays on the plane kernel (25 weight vectors do
// not stay in registers beside the accumulators). Measurements:
// tools/bench/TUNING.md, ## Conv, Depthwise.
constexpr int kMaxRowChunks = 64;  // output rows of up to 1024

bool directS1Fits(const ConvGeom& g) {
  if (g.k[0] != 1 || g.grid[0] != 1 || g.s[1] != 1 || g.s[2] != 1 || g.dil[1] != 1 || g.dil[2] != 1) return false;
  if (g.k[1] != 3 || g.k[2] != 3) return false;
  return (g.grid[2] + 15) / 16 <= kMaxRowChunks;
}

template <int KH, int KW, int NC>
__attribute__((target("avx512f"))) inline void directChunks(const float* xp, int64_t H, int64_t W, int64_t ih0,
                                                            int64_t padL, int c0, const __m512* wv,
                                                            const __mmask16* masks, const __mmask16* omask,
                                                            __m512 vb, bool clamp, __m512 vlo, __m512 vhi,
                                                            float* yrow) {
  __m512 acc[NC][2];
#pragma GCC unroll 4
  for (int c = 0; c < NC; ++c) {
    acc[c][0] = vb;
    acc[c][1] = _mm512_setzero_ps();
  }
#pragma GCC unroll 5
  for (int kh = 0; kh < KH; ++kh) {
    const int64_t ih = ih0 + kh;
    if (ih < 0 || ih >= H) continue;
    const float* row = xp + ih * W - padL + 16 * c0;
#pragma GCC unroll 5
    for (int kw = 0; kw < KW; ++kw)
#pragma GCC unroll 4
      for (int c = 0; c < NC; ++c)
        acc[c][kh & 1] = _mm512_fmadd_ps(wv[kh * KW + kw],
                                         _mm512_maskz_loadu_ps(masks[(c0 + c) * KW + kw], row + 16 * c + kw),
                                         acc[c][kh & 1]);
  }
#pragma GCC unroll 4
  for (int c = 0; c < NC; ++c) {
    __m512 r = _mm512_add_ps(acc[c][0], acc[c][1]);
    if (clamp) r = _mm512_min_ps(_mm512_max_ps(r, vlo), vhi);
    _mm512_mask_storeu_ps(yrow + 16 * (c0 + c), omask[c0 + c], r);
  }
}

template <int KH, int KW>
__attribute__((target("avx512f"))) void directS1(const ConvGeom& g, const float* x, const float* w, const float* b,
                                                 const float* z, float* y, int64_t ldy, int64_t p0, int64_t p1,
                                                 bool clamp, float lo, float hi, const GemmEpilogue& post) {
  const int64_t H = g.img[1], W = g.img[2], OH = g.grid[1], OW = g.grid[2];
  const int64_t padT = g.padBegin[1], padL = g.padBegin[2];
  const int chunks = int((OW + 15) / 16);
  __mmask16 masks[kMaxRowChunks * KW], omask[kMaxRowChunks];
  for (int c = 0; c < chunks; ++c) {
    omask[c] = gemm::firstLanes(OW - 16 * c);
    for (int kw = 0; kw < KW; ++kw) {
      // Lane e reads input column 16c + e - padL + kw.
      masks[c * KW + kw] = __mmask16(omask[c] & gemm::lanesWithin(16 * c - padL + kw, 0, W));
    }
  }
  const __m512 vlo = _mm512_set1_ps(lo), vhi = _mm512_set1_ps(hi);
  const bool doPost = z || post.act != GemmActivation::kNone;
  __m512 wv[KH * KW];
  for (int64_t plane = p0; plane < p1; ++plane) {
    const int64_t m = plane % g.M, c = m / g.Mg, n = plane / g.M;
    const float* xp = x + (n * g.C + c) * g.imgSize;
#pragma GCC unroll 25
    for (int t = 0; t < KH * KW; ++t) wv[t] = _mm512_set1_ps(w[m * g.K + t]);
    const __m512 vb = _mm512_set1_ps(b ? b[m] : 0.f);
    float* yp = y + plane * ldy;
    for (int64_t oh = 0; oh < OH; ++oh) {
      const int64_t ih0 = oh - padT;
      float* yrow = yp + oh * OW;
      int c0 = 0;
      for (; c0 + 4 <= chunks; c0 += 4)
        directChunks<KH, KW, 4>(xp, H, W, ih0, padL, c0, wv, masks, omask, vb, clamp, vlo, vhi, yrow);
      switch (chunks - c0) {
        case 1: directChunks<KH, KW, 1>(xp, H, W, ih0, padL, c0, wv, masks, omask, vb, clamp, vlo, vhi, yrow); break;
        case 2: directChunks<KH, KW, 2>(xp, H, W, ih0, padL, c0, wv, masks, omask, vb, clamp, vlo, vhi, yrow); break;
        case 3: directChunks<KH, KW, 3>(xp, H, W, ih0, padL, c0, wv, masks, omask, vb, clamp, vlo, vhi, yrow); break;
        default: break;
      }
      if (doPost) {
        GemmEpilogue ep = post;
        if (z) {
          ep.residual = z + plane * ldy + oh * OW;
          ep.ldr = OW;
        }
        applyGemmEpilogue(ep, yrow, OW, 1, OW);
      }
    }
  }
}

}  // namespace

// Masked 16-lane loads (lanes outside the row are neither read nor kept:
// small planes paid more in memset/memcpy calls than in copying); stride 2
// de-interleaves each 32 columns straight into the two phases (through a
// row buffer the depthwise plane kernel spent a fifth of its stride-2
// layers' time storing and reloading).
__attribute__((target("avx512f"))) void padRow512(const float* row, int64_t W, int64_t padL, int64_t len,
                                                  float* dst) {
  const float* src = row - padL;  // padded column j is src[j] where it lies inside the row
  for (int64_t j = 0; j < len; j += 16)
    _mm512_mask_storeu_ps(dst + j, gemm::firstLanes(len - j),
                          _mm512_maskz_loadu_ps(gemm::lanesWithin(j, padL, padL + W), src + j));
}

__attribute__((target("avx512f"))) void padRowPhases512(const float* row, int64_t W, int64_t padL, int64_t n,
                                                        float* even, float* odd) {
  const __m512i evenIdx = _mm512_set_epi32(30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0);
  const __m512i oddIdx = _mm512_set_epi32(31, 29, 27, 25, 23, 21, 19, 17, 15, 13, 11, 9, 7, 5, 3, 1);
  const float* src = row - padL;
  for (int64_t j = 0; j < n; j += 16) {
    const __m512 va = _mm512_maskz_loadu_ps(gemm::lanesWithin(2 * j, padL, padL + W), src + 2 * j);
    const __m512 vc = _mm512_maskz_loadu_ps(gemm::lanesWithin(2 * j + 16, padL, padL + W), src + 2 * j + 16);
    const __mmask16 km = gemm::firstLanes(n - j);
    _mm512_mask_storeu_ps(even + j, km, _mm512_permutex2var_ps(va, evenIdx, vc));
    _mm512_mask_storeu_ps(odd + j, km, _mm512_permutex2var_ps(va, oddIdx, vc));
  }
}

bool depthwise3x3RowsFit(const ConvGeom& g) { return directS1Fits(g); }

__attribute__((target("avx512f"))) void depthwise3x3Rows512(const ConvGeom& g, const float* x, const float* w,
                                                            const float* b, const float* z, float* y, int64_t ldy,
                                                            int64_t p0, int64_t p1, bool clamp, float lo, float hi,
                                                            const GemmEpilogue& post) {
  if (!directS1Fits(g)) throw Error(ErrorCode::kInternal, "depthwise3x3Rows512: not a 3x3 stride-1 conv it takes");
  directS1<3, 3>(g, x, w, b, z, y, ldy, p0, p1, clamp, lo, hi, post);
}

bool depthwisePlanesFit(const ConvGeom& g) {
  if (g.k[0] != 1 || g.grid[0] != 1 || g.s[1] != g.s[2] || (g.s[2] != 1 && g.s[2] != 2)) return false;
  if (g.k[1] * g.k[2] > kMaxPlaneTaps) return false;
  const PlaneLayout l = planeLayout(g);
  return l.rows >= 1;
}

// Whole planes at a time (on small planes the row kernel's per-row cost
// dominated). The plane is copied zero-padded into a stack buffer, split into
// polyphase sub-planes for stride 2 (row and column parity), so that on the
// output grid of the sub-plane width Wg, output j = oh * Wg + ow under tap
// (kh, kw) reads sub-plane ((kh*dh) % s, (kw*dw) % s) at j + ((kh*dh) / s) *
// Wg + (kw*dw) / s: every tap is one contiguous 16-wide load per 16 outputs,
// across row ends (the Wg - OW garbage columns per row are dropped on the
// copy into y). Bands of output rows keep the buffer within kBuf floats.
// Bias and a clamp (Relu / Clip) are applied in registers; `post` (residual,
// other activations) on the rows copied into y. Callers check
// depthwisePlanesFit.
__attribute__((target("avx512f"))) void depthwisePlanes512(const ConvGeom& g, const float* x, const float* w,
                                                           const float* b, const float* z, float* y, int64_t ldy,
                                                           int64_t p0, int64_t p1, bool clamp, float lo, float hi,
                                                           const GemmEpilogue& post) {
  if (directS1Fits(g)) {  // depthwise3x3Rows512's: the choice is the caller's
    throw Error(ErrorCode::kInternal, "depthwisePlanes512: 3x3 stride 1 runs on depthwise3x3Rows512");
  }
  const int64_t H = g.img[1], W = g.img[2], OH = g.grid[1], OW = g.grid[2];
  const int KH = int(g.k[1]), KW = int(g.k[2]), s = int(g.s[2]), dh = int(g.dil[1]), dw = int(g.dil[2]);
  const int64_t padT = g.padBegin[1], padL = g.padBegin[2];
  alignas(64) float buf[kPlaneBuf];
  const PlaneLayout layout = planeLayout(g);
  const int64_t Wg = layout.Wg, maxShiftRows = layout.shiftRows, nb = layout.rows;
  const __m512 vlo = _mm512_set1_ps(lo), vhi = _mm512_set1_ps(hi);
  const bool doPost = z || post.act != GemmActivation::kNone;
  // Every band uses the full band's sub-plane size, so the tap offsets
  // (sub-plane of the tap's phase, plus its row and column shift) are fixed.
  const int64_t subRowsMax = nb + maxShiftRows, subSize = subRowsMax * Wg;
  const int taps = KH * KW;
  int64_t offs[kMaxPlaneTaps];
  float wt[kMaxPlaneTaps];
  for (int kh = 0, t = 0; kh < KH; ++kh)
    for (int kw = 0; kw < KW; ++kw, ++t) {
      const int64_t th = int64_t(kh) * dh, tw = int64_t(kw) * dw;
      offs[t] = ((th % s) * s + tw % s) * subSize + th / s * Wg + tw / s;
    }
  for (int64_t plane = p0; plane < p1; ++plane) {
    const int64_t m = plane % g.M, c = m / g.Mg, n = plane / g.M;
    const float* xp = x + (n * g.C + c) * g.imgSize;
    for (int t = 0; t < taps; ++t) wt[t] = w[m * g.K + t];
    const __m512 vb = _mm512_set1_ps(b ? b[m] : 0.f);
    const float* zp = z ? z + plane * ldy : nullptr;
    float* yp = y + plane * ldy;
    for (int64_t oh0 = 0; oh0 < OH; oh0 += nb) {
      const int64_t rows = std::min(nb, OH - oh0);
      const int64_t subRows = rows + maxShiftRows;
      float* sub = buf;
      float* grid = buf + s * s * subSize + 16;
      // Fill: sub-plane (pr, pc) row i, column j = padded input (oh0*s + i*s + pr, j*s + pc).
      // Input rows in order (i outer, the row phase inner): phase-major order
      // read every other row twice over, which the hardware prefetchers do
      // not follow, and the stride-2 layers waited on memory.
      for (int64_t i = 0; i < subRows; ++i)
        for (int pr = 0; pr < s; ++pr) {
          const int64_t ih = oh0 * s + i * s + pr - padT;
          float* d0 = sub + (pr * s) * subSize + i * Wg;  // column phase 0
          if (ih < 0 || ih >= H) {
            for (int pc = 0; pc < s; ++pc) std::fill(d0 + pc * subSize, d0 + pc * subSize + Wg, 0.f);
            continue;
          }
          if (s == 1) padRow512(xp + ih * W, W, padL, Wg, d0);
          else padRowPhases512(xp + ih * W, W, padL, Wg, d0, d0 + subSize);
        }
      std::fill(buf + s * s * subSize, buf + s * s * subSize + 16, 0.f);
      // The grid: rows * Wg outputs, 64 then 16 at a time; reads stay inside
      // the sub-plane buffers (the last vector reads up to 15 past a sub-plane's
      // used rows: the next sub-plane, or the zeroed slack).
      const int64_t total = rows * Wg;
      int64_t j0 = 0;
      for (; j0 + 64 <= total; j0 += 64) {
        __m512 a0 = vb, a1 = vb, a2 = vb, a3 = vb;
        for (int t = 0; t < taps; ++t) {
          const __m512 wv = _mm512_set1_ps(wt[t]);
          const float* p = sub + offs[t] + j0;
          a0 = _mm512_fmadd_ps(wv, _mm512_loadu_ps(p), a0);
          a1 = _mm512_fmadd_ps(wv, _mm512_loadu_ps(p + 16), a1);
          a2 = _mm512_fmadd_ps(wv, _mm512_loadu_ps(p + 32), a2);
          a3 = _mm512_fmadd_ps(wv, _mm512_loadu_ps(p + 48), a3);
        }
        if (clamp) {
          a0 = _mm512_min_ps(_mm512_max_ps(a0, vlo), vhi);
          a1 = _mm512_min_ps(_mm512_max_ps(a1, vlo), vhi);
          a2 = _mm512_min_ps(_mm512_max_ps(a2, vlo), vhi);
          a3 = _mm512_min_ps(_mm512_max_ps(a3, vlo), vhi);
        }
        _mm512_storeu_ps(grid + j0, a0);
        _mm512_storeu_ps(grid + j0 + 16, a1);
        _mm512_storeu_ps(grid + j0 + 32, a2);
        _mm512_storeu_ps(grid + j0 + 48, a3);
      }
      for (; j0 < total; j0 += 16) {
        __m512 a0 = vb, a1 = _mm512_setzero_ps();
        int t = 0;
        for (; t + 1 < taps; t += 2) {
          const float* p = sub + j0;
          a0 = _mm512_fmadd_ps(_mm512_set1_ps(wt[t]), _mm512_loadu_ps(p + offs[t]), a0);
          a1 = _mm512_fmadd_ps(_mm512_set1_ps(wt[t + 1]), _mm512_loadu_ps(p + offs[t + 1]), a1);
        }
        if (t < taps) a0 = _mm512_fmadd_ps(_mm512_set1_ps(wt[t]), _mm512_loadu_ps(sub + j0 + offs[t]), a0);
        __m512 r = _mm512_add_ps(a0, a1);
        if (clamp) r = _mm512_min_ps(_mm512_max_ps(r, vlo), vhi);
        _mm512_storeu_ps(grid + j0, r);
      }
      float* yb = yp + oh0 * OW;
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t j = 0; j < OW; j += 16) {
          const __mmask16 mk = gemm::firstLanes(OW - j);
          _mm512_mask_storeu_ps(yb + r * OW + j, mk, _mm512_maskz_loadu_ps(mk, grid + r * Wg + j));
        }
      if (doPost) {
        GemmEpilogue ep = post;
        if (zp) {
          ep.residual = zp + oh0 * OW;
          ep.ldr = OW;
        }
        applyGemmEpilogue(ep, yb, OW, 1, rows * OW);
      }
    }
  }
}

bool depthwiseRow512(const float* const* xrows, const float* w, int KH, int KW, int stride, int64_t padW, int64_t W,
                     int64_t OW, float bias, float* y) {
  if (stride == 1) rowKernel<1>(xrows, w, KH, KW, padW, W, OW, bias, y);
  else if (stride == 2) rowKernel<2>(xrows, w, KH, KW, padW, W, OW, bias, y);
  else return false;
  return true;
}

}  // namespace oinfer::conv
