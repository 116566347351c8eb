// AVX-512 row kernel of the 2-d depthwise convolution: one output row with
// all kernel taps accumulated in registers (16 outputs per zmm), so each
// output is stored once instead of once per tap. Stride 2 de-interleaves two
// loads with one permute. Taps that cross the left/right border (padding) are
// masked off in the loads, so the borders and a short tail stay vectorised.
// Built with its own target attribute; callers check the CPU. Also the
// whole-plane kernel (depthwisePlanes512), which the depthwise Conv uses
// wherever a band of its rows fits the kernel's buffer (depthwisePlanesFit;
// 3x3 stride 1 is done there straight from the input rows, directS1), and
// the small-plane kernel (depthwiseBlocks512), 16 channels in the lanes.
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
// padding is skipped. The sums go straight into y's row. The plane kernel
// below spent about 40% of its time on the padded copy and 30% on copying
// its output grid into y. 1 thread, plane kernel -> this: 32 @112
// 0.26-0.34 -> 0.16-0.20 ms, 144 @56 0.31-0.32 -> 0.20-0.27, fused
// 32->192 @28 0.21-0.26 -> 0.14-0.20; side by side in models, MobileNetV2
// 0.950-0.967, EfficientNet-B0 0.990. 5x5 stays on the plane kernel: alone
// no better (0.97-1.0), fused 1.2-1.4x slower (25 weight vectors do not
// stay in registers beside the accumulators).
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

bool depthwisePlanesFit(const ConvGeom& g) {
  if (g.k[0] != 1 || g.grid[0] != 1 || g.s[1] != g.s[2] || (g.s[2] != 1 && g.s[2] != 2)) return false;
  if (g.k[1] * g.k[2] > kMaxPlaneTaps) return false;
  const PlaneLayout l = planeLayout(g);
  return l.rows >= 1;
}

// Whole planes at a time (small planes made the row kernel's per-row cost
// dominate: MobileNetV2's 7x7x960 layer took 0.23 ms against onnxruntime's
// 0.04). The plane is copied zero-padded into a stack buffer, split into
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
  if (directS1Fits(g)) {
    directS1<3, 3>(g, x, w, b, z, y, ldy, p0, p1, clamp, lo, hi, post);
    return;
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

// Small planes (rows of at most 16, MobileNet's and EfficientNet's 14x14 and
// 7x7 stages), 16 channels at a time in the vector lanes: each input row of
// 16 planes is one register transpose into a zero-padded pixel-major block
// (pixel, 16 channels), every output pixel is KH*KW aligned loads and FMAs
// against the taps' 16-channel weight vectors (any stride or dilation, no
// shuffles), and each output row is transposed back into the 16 planes. The
// plane-at-a-time kernel spent ~500 cycles a 7x7 plane in its band set-up
// and copies for 9x49 multiply-adds (4x onnxruntime's time per node).
namespace {

constexpr int64_t kBlockPixels = 400;  // padded pixels of a block (20x20: a 5x5 window over 16x16)

struct SmallPlaneLayout {
  int64_t Hp, Wp;  // the padded extent the windows read
};

SmallPlaneLayout smallPlaneLayout(const ConvGeom& g) {
  return {windowSpan(g, 1), windowSpan(g, 2)};
}


// One block's output rows (see depthwiseBlocks512): each output pixel is the
// taps' aligned loads from the pixel-major block against the taps' weight
// vectors, then each row is transposed back into the 16 planes.
struct BlockRows {
  const float* in;
  const float* wt;
  int64_t Wp, OH, OW, sh, sw, dh, dw;
  __m512 bias;
  bool clamp;
  __m512 vlo, vhi;
  GemmActivation act;
  __m512 vp0, vp1;
  float* out;  // one output row, pixel-major (16 x 16)
  float* yb;   // the block's first plane
  int64_t gridSize;
  __mmask16 outMask;
};

__attribute__((target("avx512f"))) inline void finishRow(const BlockRows& r, int64_t oh) {
  const __m512 zero = _mm512_setzero_ps();
  __m512 v[16];
  for (int64_t ow = 0; ow < 16; ++ow) v[ow] = ow < r.OW ? _mm512_load_ps(r.out + ow * 16) : zero;
  gemm::transpose16(v);
  for (int c = 0; c < 16; ++c) _mm512_mask_storeu_ps(r.yb + c * r.gridSize + oh * r.OW, r.outMask, v[c]);
}

__attribute__((target("avx512f"))) inline __m512 finishPixel(const BlockRows& r, __m512 a) {
  if (r.clamp) a = _mm512_min_ps(_mm512_max_ps(a, r.vlo), r.vhi);
  if (r.act != GemmActivation::kNone) a = gemm::actDyn512(r.act, a, r.vp0, r.vp1);
  return a;
}

// A fixed window (3x3, 5x5): the taps unrolled with their weight vectors
// held in registers. The run-time tap loop loaded each weight vector beside
// each input vector and branched per tap: load-bound at twice the
// multiply-adds' time.
template <int KH, int KW>
__attribute__((target("avx512f"))) void blockRows(const BlockRows& r) {
  constexpr int T = KH * KW;
  __m512 wv[T];
#pragma GCC unroll 25
  for (int t = 0; t < T; ++t) wv[t] = _mm512_load_ps(r.wt + t * 16);
  const int64_t rowStep = r.dh * r.Wp * 16, colStep = r.dw * 16, pixStep = r.sw * 16;
  for (int64_t oh = 0; oh < r.OH; ++oh) {
    const float* rowBase = r.in + oh * r.sh * r.Wp * 16;
    for (int64_t ow = 0; ow < r.OW; ++ow) {
      const float* base = rowBase + ow * pixStep;
      __m512 a0 = r.bias, a1 = _mm512_setzero_ps();
#pragma GCC unroll 5
      for (int kh = 0; kh < KH; ++kh)
#pragma GCC unroll 5
        for (int kw = 0; kw < KW; ++kw) {
          const int t = kh * KW + kw;
          const __m512 xv = _mm512_load_ps(base + kh * rowStep + kw * colStep);
          if (t & 1) a1 = _mm512_fmadd_ps(wv[t], xv, a1);
          else a0 = _mm512_fmadd_ps(wv[t], xv, a0);
        }
      _mm512_store_ps(r.out + ow * 16, finishPixel(r, _mm512_add_ps(a0, a1)));
    }
    finishRow(r, oh);
  }
}

__attribute__((target("avx512f"))) void blockRowsAny(const BlockRows& r, int64_t KH, int64_t KW) {
  for (int64_t oh = 0; oh < r.OH; ++oh) {
    for (int64_t ow = 0; ow < r.OW; ++ow) {
      __m512 a0 = r.bias, a1 = _mm512_setzero_ps();
      const float* base = r.in + (oh * r.sh * r.Wp + ow * r.sw) * 16;
      int64_t t = 0;
      for (int64_t kh = 0; kh < KH; ++kh)
        for (int64_t kw = 0; kw < KW; ++kw, ++t) {
          const __m512 xv = _mm512_load_ps(base + (kh * r.dh * r.Wp + kw * r.dw) * 16);
          if (t & 1) a1 = _mm512_fmadd_ps(_mm512_load_ps(r.wt + t * 16), xv, a1);
          else a0 = _mm512_fmadd_ps(_mm512_load_ps(r.wt + t * 16), xv, a0);
        }
      _mm512_store_ps(r.out + ow * 16, finishPixel(r, _mm512_add_ps(a0, a1)));
    }
    finishRow(r, oh);
  }
}

}  // namespace

bool depthwiseBlocksFit(const ConvGeom& g) {
  if (g.k[0] != 1 || g.grid[0] != 1 || g.Mg != 1 || g.Cg != 1 || g.M % 16 != 0) return false;
  if (g.img[2] > 16 || g.grid[2] > 16 || g.k[1] * g.k[2] > kMaxPlaneTaps) return false;
  const SmallPlaneLayout l = smallPlaneLayout(g);
  return l.Hp * l.Wp <= kBlockPixels && l.Wp <= 32;
}

__attribute__((target("avx512f"))) void depthwiseBlocks512(const ConvGeom& g, const float* x, const float* w,
                                                           const float* b, float* y, int64_t blk0, int64_t blk1,
                                                           bool clamp, float lo, float hi, GemmActivation act,
                                                           float p0, float p1) {
  const int64_t H = g.img[1], W = g.img[2], OH = g.grid[1], OW = g.grid[2];
  const int64_t KH = g.k[1], KW = g.k[2], sh = g.s[1], sw = g.s[2], dh = g.dil[1], dw = g.dil[2];
  const int64_t padT = g.padBegin[1], padL = g.padBegin[2], K = g.K;
  const SmallPlaneLayout l = smallPlaneLayout(g);
  const int64_t Hp = l.Hp, Wp = l.Wp;
  alignas(64) float in[kBlockPixels * 16];
  alignas(64) float out[16 * 16 * 16];
  alignas(64) float wt[kMaxPlaneTaps * 16];
  const __m512 zero = _mm512_setzero_ps(), vlo = _mm512_set1_ps(lo), vhi = _mm512_set1_ps(hi);
  const __m512 vp0 = _mm512_set1_ps(p0), vp1 = _mm512_set1_ps(p1);
  const __mmask16 rowMask = __mmask16((1u << W) - 1), outMask = __mmask16((1u << OW) - 1);
  // Padded pixels no input row lands on stay zero: zero the block once.
  for (int64_t i = 0; i < Hp * Wp; ++i) _mm512_store_ps(in + i * 16, zero);
  const int64_t blocksPerImage = g.M / 16;
  for (int64_t blk = blk0; blk < blk1; ++blk) {
    const int64_t n = blk / blocksPerImage, m0 = blk % blocksPerImage * 16;
    const float* xb = x + (n * g.C + m0) * g.imgSize;
    float* yb = y + (n * g.M + m0) * g.gridSize;
    for (int64_t t = 0; t < K; ++t)
      for (int c = 0; c < 16; ++c) wt[t * 16 + c] = w[(m0 + c) * K + t];
    // Input rows into the block, pixel-major.
    for (int64_t ih = 0; ih < H; ++ih) {
      const int64_t r = ih + padT;
      if (r < 0 || r >= Hp) continue;
      __m512 v[16];
      for (int c = 0; c < 16; ++c) v[c] = _mm512_maskz_loadu_ps(rowMask, xb + c * g.imgSize + ih * W);
      gemm::transpose16(v);
      for (int64_t iw = 0; iw < W; ++iw) {
        const int64_t col = iw + padL;
        if (col >= 0 && col < Wp) _mm512_store_ps(in + (r * Wp + col) * 16, v[iw]);
      }
    }
    const __m512 bias = b ? _mm512_loadu_ps(b + m0) : zero;
    const BlockRows r{in, wt, Wp, OH, OW, sh, sw, dh, dw, bias, clamp, vlo, vhi, act, vp0, vp1, out, yb,
                      g.gridSize, outMask};
    if (KH == 3 && KW == 3) blockRows<3, 3>(r);
    else if (KH == 5 && KW == 5) blockRows<5, 5>(r);
    else blockRowsAny(r, KH, KW);
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

namespace oinfer::conv {

// The depthwise Conv on the blocked layout NCHW16c (X, Y and a residual Z):
// the 16 channels of a pixel are one vector, so every tap is one load and
// one multiply-add against the tap's 16-channel weight vector, with no
// transposes. A unit is (image, band of output rows, channel block): the
// band's input rows are copied into a zero-padded buffer on the stack (so
// no tap needs a bounds check), then eight output pixels of a row at a time
// (eight independent multiply-add chains; the weights in registers for 3x3
// and 5x5), the bias, residual and activation in registers before the
// store. Units run bands outer, so a thread takes a run of rows: the pixels
// the channel-vector convs around it wrote on that thread.
namespace {

constexpr int kDwPix = 8;                  // output pixels of a row at a time
constexpr int64_t kDwBufFloats = 16384;    // the padded band (64 KiB)

struct DwBlockedBand {
  const float* buf;  // the padded band: rows of Wp pixels x 16
  const float* wt;   // the block's taps (K x 16)
  int64_t Wp, OW, sh, sw, dh, dw, KH, KW;
  __m512 bias, vlo, vhi, vp0, vp1;
  bool clamp;
  GemmActivation act;
};

// Output pixels [ow, ow + n) of the band's output row r (n <= kDwPix) into
// y (and z, the residual) at those pixels.
template <int FKH, int FKW>
__attribute__((target("avx512f"))) inline void dwGroup(const DwBlockedBand& b, const __m512* wv, int64_t r,
                                                       int64_t ow, int n, const float* z, float* y) {
  const int64_t KH = FKH ? FKH : b.KH, KW = FKW ? FKW : b.KW;
  __m512 a[kDwPix];
#pragma GCC unroll 8
  for (int j = 0; j < kDwPix; ++j) a[j] = b.bias;
  const float* base = b.buf + (r * b.sh * b.Wp + ow * b.sw) * 16;
  for (int64_t kh = 0; kh < KH; ++kh)
    for (int64_t kw = 0; kw < KW; ++kw) {
      const __m512 w = FKH ? wv[kh * KW + kw] : _mm512_load_ps(b.wt + (kh * KW + kw) * 16);
      const float* p = base + (kh * b.dh * b.Wp + kw * b.dw) * 16;
#pragma GCC unroll 8
      for (int j = 0; j < kDwPix; ++j)
        if (j < n) a[j] = _mm512_fmadd_ps(w, _mm512_load_ps(p + j * b.sw * 16), a[j]);
    }
#pragma GCC unroll 8
  for (int j = 0; j < kDwPix; ++j) {
    if (j >= n) break;
    __m512 v = a[j];
    if (z) v = _mm512_add_ps(v, _mm512_loadu_ps(z + (ow + j) * 16));
    if (b.clamp) v = _mm512_min_ps(_mm512_max_ps(v, b.vlo), b.vhi);
    if (b.act != GemmActivation::kNone) v = gemm::actDyn512(b.act, v, b.vp0, b.vp1);
    _mm512_storeu_ps(y + (ow + j) * 16, v);
  }
}

// Output rows [0, rows) of a band (row r at y + r * OW * 16).
template <int FKH, int FKW>
__attribute__((target("avx512f"))) void dwBand(const DwBlockedBand& b, int64_t rows, const float* z, float* y) {
  __m512 wv[FKH * FKW > 0 ? FKH * FKW : 1];
  if constexpr (FKH > 0)
    for (int t = 0; t < FKH * FKW; ++t) wv[t] = _mm512_load_ps(b.wt + t * 16);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t ow = 0; ow < b.OW; ow += kDwPix)
      dwGroup<FKH, FKW>(b, wv, r, ow, int(std::min<int64_t>(kDwPix, b.OW - ow)), z ? z + r * b.OW * 16 : nullptr,
                        y + r * b.OW * 16);
}

// Output rows per band: the most whose padded input rows fit the buffer.
int64_t dwBandRows(const ConvGeom& g) {
  const int64_t Wp = windowSpan(g, 2), per = Wp * 16;
  const int64_t fit = kDwBufFloats / per;  // input rows that fit
  const int64_t rows = (fit - ((g.k[1] - 1) * g.dil[1] + 1)) / g.s[1] + 1;
  return std::clamp<int64_t>(rows, 0, g.grid[1]);
}

__attribute__((target("avx512f"))) void dwBlockedUnits(const ConvGeom& g, const float* x, const float* wt,
                                                       const float* bias, const float* z, float* y,
                                                       const ClampSplit& cs, const Activation& act, int64_t band,
                                                       int64_t u0, int64_t u1) {
  const int64_t CB = g.M / 16, H = g.img[1], W = g.img[2], OH = g.grid[1], OW = g.grid[2], K = g.K;
  const int64_t bands = (OH + band - 1) / band, Wp = windowSpan(g, 2), padT = g.padBegin[1], padL = g.padBegin[2];
  alignas(64) float buf[kDwBufFloats];
  DwBlockedBand b;
  b.buf = buf;
  b.Wp = Wp;
  b.OW = OW;
  b.sh = g.s[1];
  b.sw = g.s[2];
  b.dh = g.dil[1];
  b.dw = g.dil[2];
  b.KH = g.k[1];
  b.KW = g.k[2];
  b.vlo = _mm512_set1_ps(cs.lo);
  b.vhi = _mm512_set1_ps(cs.hi);
  b.vp0 = _mm512_set1_ps(act.p0);
  b.vp1 = _mm512_set1_ps(act.p1);
  b.clamp = cs.clamp;
  b.act = cs.rest;
  const __m512 zero = _mm512_setzero_ps();
  for (int64_t u = u0; u < u1; ++u) {
    const int64_t n = u / (bands * CB), bi = u / CB % bands, cb = u % CB;
    const int64_t oh0 = bi * band, rows = std::min(band, OH - oh0);
    const int64_t inRows = (rows - 1) * b.sh + (b.KH - 1) * b.dh + 1;
    const float* xb = x + (n * CB + cb) * H * W * 16;
    // The band's input rows, zero-padded: buffer column j is input column j - padL.
    for (int64_t i = 0; i < inRows; ++i) {
      const int64_t ih = oh0 * b.sh - padT + i;
      float* d = buf + i * Wp * 16;
      if (ih < 0 || ih >= H) {
        for (int64_t j = 0; j < Wp; ++j) _mm512_store_ps(d + j * 16, zero);
        continue;
      }
      const float* src = xb + ih * W * 16;
      for (int64_t j = 0; j < Wp; ++j) {
        const int64_t iw = j - padL;
        _mm512_store_ps(d + j * 16, iw >= 0 && iw < W ? _mm512_loadu_ps(src + iw * 16) : zero);
      }
    }
    b.wt = wt + cb * K * 16;
    b.bias = bias ? _mm512_loadu_ps(bias + cb * 16) : zero;
    const int64_t yo = ((n * CB + cb) * OH + oh0) * OW * 16;
    const float* zb = z ? z + yo : nullptr;
    if (b.KH == 3 && b.KW == 3) dwBand<3, 3>(b, rows, zb, y + yo);
    else if (b.KH == 5 && b.KW == 5) dwBand<5, 5>(b, rows, zb, y + yo);
    else dwBand<0, 0>(b, rows, zb, y + yo);
  }
}

}  // namespace

bool depthwiseBlockedSuits(const ConvGeom& g, GemmActivation act) {
  if (!gemm::avx512Kernels()) return false;  // the blocked layout's ISA
  if (g.k[0] != 1 || g.grid[0] != 1 || g.img[0] != 1) return false;
  if (g.Cg != 1 || g.Mg != 1 || g.M % 16 != 0) return false;
  return act != GemmActivation::kGelu && dwBandRows(g) >= 1;
}

std::shared_ptr<float[]> packDepthwiseBlocked(const ConvGeom& g, const float* w) {
  const int64_t K = g.K;
  std::shared_ptr<float[]> p = allocFloats(size_t(g.M * K));
  for (int64_t cb = 0; cb < g.M / 16; ++cb)
    for (int64_t t = 0; t < K; ++t)
      for (int c = 0; c < 16; ++c) p[(cb * K + t) * 16 + c] = w[(cb * 16 + c) * K + t];
  return p;
}

void depthwiseBlocked(ThreadPool& pool, const ConvGeom& g, const float* x, const float* wt, const float* b,
                      const float* z, float* y, const Activation& act) {
  const ClampSplit cs = splitClamp(act);
  if (cs.rest == GemmActivation::kGelu || !depthwiseBlockedSuits(g, act.act))
    throw Error(ErrorCode::kInternal, "depthwiseBlocked: the shape or activation does not suit the kernel");
  // Bands: as tall as the buffer allows, but at least ~8 units per thread.
  const int64_t CB = g.M / 16, OH = g.grid[1];
  const int64_t want = std::max<int64_t>(1, 8 * pool.size() / std::max<int64_t>(1, g.N * CB));
  const int64_t band = std::max<int64_t>(1, std::min(dwBandRows(g), (OH + want - 1) / want));
  const int64_t bands = (OH + band - 1) / band;
  pool.parallelFor(g.N * bands * CB, [&](int64_t u0, int64_t u1) {
    dwBlockedUnits(g, x, wt, b, z, y, cs, act, band, u0, u1);
  });
}

}  // namespace oinfer::conv
