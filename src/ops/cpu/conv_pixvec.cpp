// Float32 2-d Conv over few input channels with output pixels in the vector
// lanes (AVX-512): the image stems (3 input channels; 3x3 or 7x7, stride 2).
//
// With C = 3 the GEMM's K (C * taps: 27 for a 3x3) is too short to amortise
// anything per tile: the channel-vector kernel's transposing epilogue (two
// 16x16 register transposes and 32 partial-row stores per tile of pixels) cost
// about as much as its 27 steps of multiply-adds, and the shifted-input
// GEMM's packing as much again. Here a tile is 8 output channels times up to
// 48 consecutive output pixels of one row (3 x 8 = 24 accumulators): per tap
// (input channel, kh, kw) it loads the 48 input values the pixels read under
// that tap (3 aligned-or-not 16-lane loads) and broadcasts the 8 channels'
// weights, 24 multiply-adds; the finished vectors are stored straight into
// the output rows of Y (the last one masked). The input is first copied
// zero-padded and split into its s column phases (stride s), so that under
// tap kw the 16 pixels ow..ow+15 read one contiguous run of phase kw % s at
// column ow + kw / s. Weights are packed per plan as [block of 8 channels]
// [tap][8].
#include <algorithm>
#include <cstring>

#include "ops/cpu/conv_fast.h"
#include "ops/cpu/gemm/act512.h"
#include "ops/cpu/gemm/gemm_internal.h"

namespace oinfer::conv {

namespace {

constexpr int kChans = 8;             // output channels per tile
constexpr int kVecs = 3;              // 16-pixel vectors per tile
constexpr int64_t kMaxSteps = kPixvecMaxSteps;
constexpr int64_t kMaxChannels = 4;
// The widest rows (phase columns, Wq) a plan gives the kernel. It sized a
// stack row buffer the phase copy no longer uses; kept so the strategy a
// plan picks is unchanged (wider rows take the GEMM paths, as before).
constexpr int64_t kMaxRowCols = 2048;

// The phase copy's layout: for input channel c, padded row r and column
// phase q, row (c * Hp + r) * s + q of Wq floats; column j holds padded
// column j * s + q. Wq covers every whole vector a tile loads.
struct PhaseLayout {
  int64_t Hp, Wq;
};

PhaseLayout phaseLayout(const ConvGeom& g) {
  const int64_t s = g.s[2];
  const int64_t vecCols = (g.grid[2] + 15) / 16 * 16;  // loads run to a whole vector past the row
  return {windowSpan(g, 1), vecCols + (g.k[2] - 1) / s + 1};
}

#if defined(__x86_64__) || defined(__i386__)
struct TileArgs {
  const float* in;       // the phase copy at this output row's first padded row
  const int64_t* taps;   // per step: offset of its phase row (+ column shift) from `in`
  int64_t steps;
  const float* w;        // the channel block's packed weights, steps x 8
  const float* bias;     // the block's first channel, or null
  const float* z;        // residual at (block's first channel, this row, p0), or null
  float* y;              // output at (block's first channel, this row, p0)
  int64_t ldy;           // plane stride of y and z
  int chans;             // live channels in the block
  __mmask16 last;        // live lanes of the last vector
  ClampSplit cs;
  float p0, p1;
};

template <int NV>
__attribute__((target("avx512f"), noinline)) void pixTile(const TileArgs& a, int64_t col) {
  __m512 acc[kChans][NV];
#pragma GCC unroll 8
  for (int m = 0; m < kChans; ++m) {
    const __m512 b = _mm512_set1_ps(a.bias && m < a.chans ? a.bias[m] : 0.f);
#pragma GCC unroll 3
    for (int v = 0; v < NV; ++v) acc[m][v] = b;
  }
  const float* w = a.w;
  for (int64_t k = 0; k < a.steps; ++k, w += kChans) {
    const float* src = a.in + a.taps[k] + col;
    __m512 xv[NV];
#pragma GCC unroll 3
    for (int v = 0; v < NV; ++v) xv[v] = _mm512_loadu_ps(src + 16 * v);
#pragma GCC unroll 8
    for (int m = 0; m < kChans; ++m) {
      const __m512 wv = _mm512_set1_ps(w[m]);
#pragma GCC unroll 3
      for (int v = 0; v < NV; ++v) acc[m][v] = _mm512_fmadd_ps(wv, xv[v], acc[m][v]);
    }
  }
  const __m512 lo = _mm512_set1_ps(a.cs.lo), hi = _mm512_set1_ps(a.cs.hi);
  const __m512 q0 = _mm512_set1_ps(a.p0), q1 = _mm512_set1_ps(a.p1);
  for (int m = 0; m < a.chans; ++m) {
    float* yr = a.y + m * a.ldy;
    const float* zr = a.z ? a.z + m * a.ldy : nullptr;
#pragma GCC unroll 3
    for (int v = 0; v < NV; ++v) {
      const __mmask16 mk = v + 1 == NV ? a.last : __mmask16(0xFFFF);
      __m512 r = acc[m][v];
      if (zr) r = _mm512_add_ps(r, _mm512_maskz_loadu_ps(mk, zr + 16 * v));
      if (a.cs.clamp) r = _mm512_min_ps(_mm512_max_ps(r, lo), hi);
      if (a.cs.rest != GemmActivation::kNone) r = gemm::actDyn512(a.cs.rest, r, q0, q1);
      _mm512_mask_storeu_ps(yr + 16 * v, mk, r);
    }
  }
}
#endif

}  // namespace

bool pixvecFits(const ConvGeom& g) {
  if (g.k[0] != 1 || g.grid[0] != 1 || g.img[0] != 1 || g.G != 1) return false;
  if (g.s[1] != g.s[2] || (g.s[2] != 1 && g.s[2] != 2) || g.dil[1] != 1 || g.dil[2] != 1) return false;
  if (g.Cg > kMaxChannels || g.Cg * g.K > kMaxSteps) return false;
  return phaseLayout(g).Wq <= kMaxRowCols;
}

std::vector<PackedB> packPixvecWeights(const ConvGeom& g, const float* w) {
  const int64_t CK = g.Cg * g.K, blocks = (g.M + kChans - 1) / kChans;
  PackedB p;
  p.K = CK;
  p.N = g.M;
  p.nr = kChans;
  p.kc = int(CK);
  p.data = allocFloats(size_t(blocks * CK * kChans));
  for (int64_t mb = 0; mb < blocks; ++mb)
    for (int64_t k = 0; k < CK; ++k)
      for (int j = 0; j < kChans; ++j) {
        const int64_t m = mb * kChans + j;
        p.data[size_t((mb * CK + k) * kChans + j)] = m < g.M ? w[m * CK + k] : 0.f;
      }
  std::vector<PackedB> out;
  out.push_back(std::move(p));
  return out;
}

int64_t pixvecBlocks(const ConvGeom& g) { return (g.M + kChans - 1) / kChans; }

ScratchNeed pixvecScratch(const ConvGeom& g) {
#if defined(__x86_64__) || defined(__i386__)
  // The phase copy of one image, which all threads fill.
  const PhaseLayout L = phaseLayout(g);
  Carve c;
  c.take<float>(size_t(g.C * L.Hp * g.s[2] * L.Wq));
  return {c.bytes(), 0};
#else
  (void)g;
  return {};
#endif
}

const float* pixvecPhases(ThreadPool& pool, const ConvGeom& g, const float* xn, float* phases) {
#if defined(__x86_64__) || defined(__i386__)
  const int64_t s = g.s[2], H = g.img[1], W = g.img[2], padT = g.padBegin[1], padL = g.padBegin[2];
  const PhaseLayout L = phaseLayout(g);
  const int64_t Hp = L.Hp, Wq = L.Wq, C = g.C;
  // Padded row r of channel c, split by column phase.
  pool.parallelFor(C * Hp, [&](int64_t r0, int64_t r1) {
    for (int64_t cr = r0; cr < r1; ++cr) {
      const int64_t c = cr / Hp, r = cr % Hp, ih = r - padT;
      float* dst = phases + cr * s * Wq;
      if (ih < 0 || ih >= H) {
        std::memset(dst, 0, size_t(s * Wq) * sizeof(float));
        continue;
      }
      if (s == 1) padRow512(xn + c * g.imgSize + ih * W, W, padL, Wq, dst);
      else padRowPhases512(xn + c * g.imgSize + ih * W, W, padL, Wq, dst, dst + Wq);
    }
  }, std::max<int64_t>(1, 4096 / (s * Wq)));
  return phases;
#else
  (void)pool, (void)g, (void)phases;
  return xn;
#endif
}

void pixvecPrepare(const ConvGeom& g, const Activation& act, PixvecPrep& prep) {
  prep.cs = splitClamp(act);
  if (prep.cs.rest == GemmActivation::kGelu) throw Error(ErrorCode::kInternal, "convPixvec: Gelu is not applied in tiles");
  prep.p0 = act.p0;
  prep.p1 = act.p1;
  const int64_t s = g.s[2], KH = g.k[1], KW = g.k[2];
  const PhaseLayout L = phaseLayout(g);
  for (int64_t c = 0, k = 0; c < g.C; ++c)
    for (int64_t kh = 0; kh < KH; ++kh)
      for (int64_t kw = 0; kw < KW; ++kw, ++k) prep.taps[k] = ((c * L.Hp + kh) * s + kw % s) * L.Wq + kw / s;
}

void pixvecRows(const ConvGeom& g, const std::vector<PackedB>& packed, const PixvecPrep& prep, const float* phases,
                int64_t oh0, int64_t oh1, int64_t mb, const float* b, const float* z, float* out, int64_t ldOut) {
#if defined(__x86_64__) || defined(__i386__)
  const int64_t s = g.s[2], OW = g.grid[2], CK = g.C * g.K;
  const int64_t rowStep = s * s * phaseLayout(g).Wq;  // one output row down: s padded rows of s phases
  const int64_t vecs = (OW + 15) / 16;
  const __mmask16 lastMask = gemm::firstLanes(OW - (vecs - 1) * 16);
  const int64_t m0 = mb * kChans;
  TileArgs a;
  a.taps = prep.taps;
  a.steps = CK;
  a.ldy = ldOut;
  a.cs = prep.cs;
  a.p0 = prep.p0;
  a.p1 = prep.p1;
  a.w = packed[0].data.get() + mb * CK * kChans;
  a.bias = b ? b + m0 : nullptr;
  a.chans = int(std::min<int64_t>(kChans, g.M - m0));
  for (int64_t oh = oh0; oh < oh1; ++oh) {
    a.in = phases + oh * rowStep;
    const int64_t base = (oh - oh0) * OW;
    for (int64_t v0 = 0; v0 < vecs; v0 += kVecs) {
      const int64_t nv = std::min<int64_t>(kVecs, vecs - v0);
      a.y = out + base + v0 * 16;
      a.z = z ? z + base + v0 * 16 : nullptr;
      a.last = v0 + nv == vecs ? lastMask : __mmask16(0xFFFF);
      if (nv == 3) pixTile<3>(a, v0 * 16);
      else if (nv == 2) pixTile<2>(a, v0 * 16);
      else pixTile<1>(a, v0 * 16);
    }
  }
#else
  (void)g, (void)packed, (void)prep, (void)phases, (void)oh0, (void)oh1, (void)mb, (void)b, (void)z, (void)out,
      (void)ldOut;
#endif
}

void convPixvec(ThreadPool& pool, const ConvGeom& g, const std::vector<PackedB>& packed, const float* x,
                const float* b, const float* z, float* y, const Activation& act, const Workspace& ws) {
  PixvecPrep prep;
  pixvecPrepare(g, act, prep);
  const int64_t blocks = pixvecBlocks(g);
  const CallWorkspace call(ws, pixvecScratch(g), pool.size());
  for (int64_t n = 0; n < g.N; ++n) {
    const float* phases = pixvecPhases(pool, g, x + n * g.C * g.imgSize, call.get().shared.part<float>(0));
    // Units: one output row, every channel block (its input rows stay in L1).
    pool.parallelFor(g.grid[1], [&](int64_t o0, int64_t o1) {
      for (int64_t oh = o0; oh < o1; ++oh)
        for (int64_t mb = 0; mb < blocks; ++mb) {
          const int64_t off = (n * g.M + mb * kChans) * g.gridSize + oh * g.grid[2];
          pixvecRows(g, packed, prep, phases, oh, oh + 1, mb, b, z ? z + off : nullptr, y + off, g.gridSize);
        }
    }, 1);
  }
}

}  // namespace oinfer::conv
