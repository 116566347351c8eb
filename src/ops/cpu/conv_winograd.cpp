// Float32 3x3 stride-1 Conv by Winograd F(m x m, 3x3), m = 2 or 4 (Lavin &
// Gray, "Fast Algorithms for Convolutional Neural Networks", 2015):
//   Y (m x m tile) = A^T [ (G g G^T) (.) (B^T d B) ] A
// with d the T x T input window of a tile (T = m + 2) and g a 3x3 filter.
// Over all channels the element-wise products become T^2 independent
// GEMMs, one per position xi of the transformed tile:
//   O_xi (tiles x M) = V_xi (tiles x C) * U_xi (C x M)
// so T^2 * C * M multiply-adds per m x m outputs instead of 9 m^2 * C * M:
// 2.25x fewer for F(2x2) (16 per 4 outputs), 4x fewer for F(4x4) (36 per
// 16). U = G g G^T is computed (in double) and packed once per plan, one
// operand per xi; per call, a chunk of tiles at a time (V and O about 4 MiB):
//   1. input transform into V;
//   2. the T^2 GEMMs;
//   3. output transform plus bias, the residual and a Relu / Clip, into Y;
// then any other activation over Y. Two paths:
//  - AVX-512 (the channel-vector kernel's ISA): V_xi and O_xi blocked by 16
//    channels the way NCHW16c blocks a plane, with tiles for pixels, so each
//    GEMM is that kernel's blocked 1x1 conv over a plane of tiles
//    (cvecGemmBlocked: threads over (xi, panel of 32 outputs)) and the
//    transforms work on 16 channels of one tile per vector (threads over
//    (block, tile)). A blocked X is read and a blocked Y written with plain
//    loads and stores (the layout the plan keeps ResNet's bottlenecks in); an
//    NCHW X is gathered, an NCHW Y scattered, 16 channel planes at a time.
//    (Transforms vectorised over 12 tiles into the packed GEMM's A layout,
//    a gather per window value and a scatter per output, took two thirds
//    of F(4x4)'s time: tools/bench/TUNING.md.)
//  - elsewhere: scalar transforms, V in the packed GEMM's A layout, the
//    packed GEMM (threads over xi).
// F(2x2)'s constants are 0, +-1 and +-1/2, so its result differs from
// direct convolution by rounding only (~1e-6 relative); F(4x4)'s (points 0,
// +-1, +-2: B^T's 4 and 5, G's 1/6 and 1/24, A^T's 8) lose more, up to
// ~2e-5 of the output's range over 256 channels (numpy, float32), as other
// engines' F(4x4) do. Which m a conv gets: conv_select.cpp.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#if defined(__x86_64__) || defined(__i386__)
// GCC 12 flags the pass-through operand of min / max (_mm512_undefined_ps)
// as uninitialised inside the output transform's clamp: a false positive.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>
#endif

#include "ops/cpu/conv_fast.h"
#include "ops/cpu/gemm/act512.h"
#include "ops/cpu/gemm/gemm_internal.h"

namespace oinfer::conv {

namespace {

// Tiles per chunk: V and O together about 4 MiB; a multiple of the packed
// GEMM's row tile unless the whole output fits.
int64_t tileChunk(int64_t tiles, int T2, int64_t C, int64_t M) {
  constexpr int64_t kBudgetFloats = int64_t{1} << 20;
  const int64_t mr = gemm::isa().mr;
  int64_t tb = kBudgetFloats / (T2 * (C + M));
  if (tb >= tiles) return tiles;
  return std::max<int64_t>(mr, tb / mr * mr);
}

// The 1-d transforms on T values (floats, or vectors of 16 lanes: one
// template for both, GCC's vector arithmetic). bt: r = B^T d; at: o = A^T x.
template <int m, class V>
[[gnu::always_inline]] inline void bt(const V (&d)[m + 2], V (&r)[m + 2]) {
  if constexpr (m == 2) {
    r[0] = d[0] - d[2];
    r[1] = d[1] + d[2];
    r[2] = d[2] - d[1];
    r[3] = d[1] - d[3];
  } else {
    // B^T = [[4,0,-5,0,1,0], [0,-4,-4,1,1,0], [0,4,-4,-1,1,0],
    //        [0,-2,-1,2,1,0], [0,2,-1,-2,1,0], [0,4,0,-5,0,1]]
    const V s12 = d[1] + d[2], d12 = d[1] - d[2], s34 = d[3] + d[4], d43 = d[4] - d[3];
    const V d31 = d[3] - d[1], d42 = d[4] - d[2];
    r[0] = 4.f * d[0] - 5.f * d[2] + d[4];
    r[1] = s34 - 4.f * s12;
    r[2] = d43 + 4.f * d12;
    r[3] = d42 + 2.f * d31;
    r[4] = d42 - 2.f * d31;
    r[5] = 4.f * d[1] - 5.f * d[3] + d[5];
  }
}

template <int m, class V>
[[gnu::always_inline]] inline void at(const V (&x)[m + 2], V (&o)[m]) {
  if constexpr (m == 2) {
    // A^T = [[1,1,1,0], [0,1,-1,-1]]
    o[0] = x[0] + x[1] + x[2];
    o[1] = x[1] - x[2] - x[3];
  } else {
    // A^T = [[1,1,1,1,1,0], [0,1,-1,2,-2,0], [0,1,1,4,4,0], [0,1,-1,8,-8,1]]
    const V s12 = x[1] + x[2], d12 = x[1] - x[2], s34 = x[3] + x[4], d34 = x[3] - x[4];
    o[0] = x[0] + s12 + s34;
    o[1] = d12 + 2.f * d34;
    o[2] = s12 + 4.f * s34;
    o[3] = d12 + 8.f * d34 + x[5];
  }
}

// B^T d B for one T x T window d (row-major), written to v[xi * stride].
template <int m>
void inputTile(const float (&d)[m + 2][m + 2], float* v, int64_t stride) {
  constexpr int T = m + 2;
  float t[T][T];  // B^T d: combine rows, a column at a time
  for (int j = 0; j < T; ++j) {
    float col[T], r[T];
    for (int i = 0; i < T; ++i) col[i] = d[i][j];
    bt<m>(col, r);
    for (int i = 0; i < T; ++i) t[i][j] = r[i];
  }
  for (int i = 0; i < T; ++i) {  // (B^T d) B: combine columns
    float r[T];
    bt<m>(t[i], r);
    for (int j = 0; j < T; ++j) v[(i * T + j) * stride] = r[j];
  }
}

// Input transform of channels [c0, c1), tiles [t0, t0 + tb), written for
// each xi straight into the GEMM's packed-A layout (tb x C, panels of mr
// tiles; see gemm::packedAView) at V + xi * xiStride. NCHW input.
template <int m>
void inputTransform(const ConvGeom& g, const float* x, int64_t c0, int64_t c1, int64_t t0, int64_t tb,
                    int64_t xiStride, float* V) {
  constexpr int T = m + 2;
  const int64_t H = g.img[1], W = g.img[2], TW = (g.grid[2] + m - 1) / m, C = g.C;
  const int64_t padT = g.padBegin[1], padL = g.padBegin[2];
  const int64_t mr = gemm::isa().mr, kc = gemm::kKc, mPad = (tb + mr - 1) / mr * mr;
  for (int64_t c = c0; c < c1; ++c) {
    const float* plane = x + c * g.imgSize;
    const int64_t k0 = c / kc * kc, kl = std::min(kc, C - k0);
    float* vc = V + k0 * mPad + (c - k0) * mr;
    for (int64_t t = t0; t < t0 + tb; ++t) {
      const int64_t iy = m * (t / TW) - padT, ix = m * (t % TW) - padL;
      float d[T][T];
      for (int i = 0; i < T; ++i)
        for (int j = 0; j < T; ++j) {
          const int64_t yy = iy + i, xx = ix + j;
          d[i][j] = yy >= 0 && yy < H && xx >= 0 && xx < W ? plane[yy * W + xx] : 0.f;  // zero outside
        }
      const int64_t r = t - t0;
      inputTile<m>(d, vc + r / mr * mr * kl + r % mr, xiStride);
    }
  }
}

// Output transform of tiles [ta, tb) (chunk-relative; chunk starts at t0):
// A^T O A plus the bias and the residual z, clamped if asked, into Y
// (M x OH x OW, NCHW). O is [xi][t][m].
template <int m>
void outputTransform(const ConvGeom& g, const float* O, int64_t oStride, int64_t t0, int64_t ta, int64_t tbEnd,
                     const float* bias, const float* z, bool clamp, float lo, float hi, float* y) {
  constexpr int T = m + 2;
  const int64_t M = g.M, OH = g.grid[1], OW = g.grid[2], TW = (OW + m - 1) / m, P = g.gridSize;
  for (int64_t t = ta; t < tbEnd; ++t) {
    const int64_t oy = m * ((t0 + t) / TW), ox = m * ((t0 + t) % TW);
    const float* o = O + t * M;
    for (int64_t ch = 0; ch < M; ++ch) {
      float s[m][T];  // A^T X: rows, a column at a time
      for (int j = 0; j < T; ++j) {
        float col[T], r[m];
        for (int i = 0; i < T; ++i) col[i] = o[(i * T + j) * oStride + ch];
        at<m>(col, r);
        for (int i = 0; i < m; ++i) s[i][j] = r[i];
      }
      const float bv = bias ? bias[ch] : 0.f;
      for (int i = 0; i < m && oy + i < OH; ++i) {
        float r[m];
        at<m>(s[i], r);
        for (int j = 0; j < m && ox + j < OW; ++j) {
          const int64_t idx = ch * P + (oy + i) * OW + ox + j;
          float v = r[j] + bv;
          if (z) v += z[idx];
          if (clamp) v = v < lo ? lo : v > hi ? hi : v;
          y[idx] = v;
        }
      }
    }
  }
}

#if defined(__x86_64__) || defined(__i386__)
// The AVX-512 path: V, O and the transforms with 16 channels per vector.
// V_xi is tiles x C and O_xi tiles x M, both blocked by 16 channels the way
// NCHW16c blocks a plane (tile r's channels 16b..16b+15 at (b * tiles + r)
// * 16), so each GEMM is the channel-vector kernel's blocked 1x1 conv over
// a "plane" of tiles (cvecGemmBlocked) and every transform reads and writes
// whole vectors: a blocked X is read with plain loads and a blocked Y
// written with plain stores. An NCHW X is gathered (16 channel planes per
// window value), an NCHW Y scattered. (The earlier transforms vectorised
// over 12 tiles for the packed-A GEMM: a masked gather per window value and
// a scatter per output, two thirds of F(4x4)'s time at 64 ch @56.)

// Input transform of items [a0, a1) of channel blocks x tiles (item a:
// block cb = a / tb, tile r = a % tb of the chunk starting at t0) into V.
// By blocks, then tiles in order: each V_xi and each input row is written /
// read as a stream.
template <int m>
__attribute__((target("avx512f"))) void inputTransformB(const ConvGeom& g, const float* x, bool blocked, int64_t a0,
                                                        int64_t a1, int64_t t0, int64_t tb, int64_t xiStride,
                                                        float* V) {
  constexpr int T = m + 2;
  const int64_t H = g.img[1], W = g.img[2], TW = (g.grid[2] + m - 1) / m, C = g.C;
  const int64_t padT = g.padBegin[1], padL = g.padBegin[2], HW = g.imgSize;
  const __m512i planes = _mm512_mullo_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                                            _mm512_set1_epi32(int32_t(HW)));
  for (int64_t a = a0; a < a1; ++a) {
    const int64_t cb = a / tb, r = a % tb, t = t0 + r;
    const int64_t iy = m * (t / TW) - padT, ix = m * (t % TW) - padL;
    const __mmask16 lanes = gemm::firstLanes(C - cb * 16);
    const float* base = blocked ? x + cb * HW * 16 : x + cb * 16 * HW;
    auto load = [&](int64_t yy, int64_t xx) {
      if (yy < 0 || yy >= H || xx < 0 || xx >= W) return _mm512_setzero_ps();
      if (blocked) return _mm512_loadu_ps(base + (yy * W + xx) * 16);
      return _mm512_mask_i32gather_ps(_mm512_setzero_ps(), lanes, planes, base + yy * W + xx, 4);
    };
    if (blocked)  // the next tile's new columns (a blocked pixel is a line)
      for (int i = 0; i < T; ++i)
        for (int j = T; j < T + m; ++j)
          if (iy + i >= 0 && iy + i < H && ix + j < W) _mm_prefetch(reinterpret_cast<const char*>(base + ((iy + i) * W + ix + j) * 16), _MM_HINT_T0);
    __m512 tt[T][T];  // B^T d: combine rows, a column at a time
    for (int j = 0; j < T; ++j) {
      __m512 col[T], rr[T];
      for (int i = 0; i < T; ++i) col[i] = load(iy + i, ix + j);
      bt<m>(col, rr);
      for (int i = 0; i < T; ++i) tt[i][j] = rr[i];
    }
    float* dst = V + (cb * tb + r) * 16;
    for (int i = 0; i < T; ++i) {  // (B^T d) B: combine columns
      __m512 rr[T];
      bt<m>(tt[i], rr);
      for (int j = 0; j < T; ++j) _mm512_store_ps(dst + (i * T + j) * xiStride, rr[j]);
    }
  }
}

// Output transform of items [a0, a1) of channel blocks x tiles (item a:
// block mb = a / tb, tile r = a % tb): A^T O A plus the bias and the
// residual z (Y's layout), clamped if asked, into Y.
template <int m>
__attribute__((target("avx512f"))) void outputTransformB(const ConvGeom& g, const float* O, int64_t xiStride,
                                                         int64_t a0, int64_t a1, int64_t t0, int64_t tb,
                                                         const float* bias, const float* z, bool clamp, float lo,
                                                         float hi, bool blocked, float* y) {
  constexpr int T = m + 2;
  const int64_t M = g.M, OH = g.grid[1], OW = g.grid[2], TW = (OW + m - 1) / m, P = g.gridSize;
  const __m512i planes = _mm512_mullo_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                                            _mm512_set1_epi32(int32_t(P)));
  const __m512 vlo = _mm512_set1_ps(lo), vhi = _mm512_set1_ps(hi);
  for (int64_t a = a0; a < a1; ++a) {
    const int64_t mb = a / tb, r = a % tb, t = t0 + r;
    const int64_t oy = m * (t / TW), ox = m * (t % TW);
    const int rows = int(std::min<int64_t>(m, OH - oy)), cols = int(std::min<int64_t>(m, OW - ox));
    const __mmask16 lm = gemm::firstLanes(M - mb * 16);
    const float* o = O + (mb * tb + r) * 16;
    __m512 s[m][T];  // A^T X: rows, a column at a time
    for (int j = 0; j < T; ++j) {
      __m512 col[T], rr[m];
      for (int i = 0; i < T; ++i) col[i] = _mm512_load_ps(o + (i * T + j) * xiStride);
      at<m>(col, rr);
      for (int i = 0; i < m; ++i) s[i][j] = rr[i];
    }
    const __m512 bv = bias ? _mm512_maskz_loadu_ps(lm, bias + mb * 16) : _mm512_setzero_ps();
    for (int i = 0; i < rows; ++i) {
      __m512 rr[m];
      at<m>(s[i], rr);
      const int64_t pix = (oy + i) * OW + ox;
      for (int j = 0; j < cols; ++j) {
        __m512 v = _mm512_add_ps(rr[j], bv);
        if (blocked) {
          const int64_t idx = (mb * P + pix + j) * 16;
          if (z) v = _mm512_add_ps(v, _mm512_loadu_ps(z + idx));
          if (clamp) v = _mm512_min_ps(_mm512_max_ps(v, vlo), vhi);
          _mm512_storeu_ps(y + idx, v);
        } else {
          const int64_t idx = mb * 16 * P + pix + j;
          if (z) v = _mm512_add_ps(v, _mm512_mask_i32gather_ps(_mm512_setzero_ps(), lm, planes, z + idx, 4));
          if (clamp) v = _mm512_min_ps(_mm512_max_ps(v, vlo), vhi);
          _mm512_mask_i32scatter_ps(y + idx, lm, planes, v, 4);
        }
      }
    }
  }
}
#endif

// The AVX-512 path (gemm::avx512Kernels: cvecGemmBlocked's ISA) or the
// portable one; the weights are packed for the one that runs. The AVX-512
// transforms gather and scatter 16 channel planes with int32 offsets, so
// they take planes of fewer than 2^31 / 16 pixels (winogradOffsetsFit: the
// choice refuses larger ones there; the portable path cannot read weights
// packed for it).
bool vectorPath() { return gemm::avx512Kernels(); }
bool offsetsFit(const ConvGeom& g) {
  return g.imgSize * 16 < (int64_t{1} << 31) && g.gridSize * 16 < (int64_t{1} << 31);
}

// U = G w G^T for every (output, input) channel pair, computed in double
// and rounded once; put(xi, mo, c, value) stores position xi's value.
template <int m, class Put>
void transformWeights(const ConvGeom& g, const float* w, Put put) {
  constexpr int T = m + 2;
  // G (T x 3): F(2x2) [[1,0,0],[1/2,1/2,1/2],[1/2,-1/2,1/2],[0,0,1]];
  // F(4x4) [[1/4,0,0],[-1/6,-1/6,-1/6],[-1/6,1/6,-1/6],[1/24,1/12,1/6],
  // [1/24,-1/12,1/6],[0,0,1]].
  static constexpr double G2[4][3] = {{1, 0, 0}, {0.5, 0.5, 0.5}, {0.5, -0.5, 0.5}, {0, 0, 1}};
  static constexpr double G4[6][3] = {{1. / 4, 0, 0},           {-1. / 6, -1. / 6, -1. / 6}, {-1. / 6, 1. / 6, -1. / 6},
                                      {1. / 24, 1. / 12, 1. / 6}, {1. / 24, -1. / 12, 1. / 6}, {0, 0, 1}};
  const double(*Gm)[3] = m == 2 ? G2 : G4;
  for (int64_t mo = 0; mo < g.M; ++mo)
    for (int64_t c = 0; c < g.C; ++c) {
      const float* k = w + (mo * g.C + c) * 9;
      double gk[T][3];  // G k
      for (int i = 0; i < T; ++i)
        for (int j = 0; j < 3; ++j) gk[i][j] = Gm[i][0] * k[j] + Gm[i][1] * k[3 + j] + Gm[i][2] * k[6 + j];
      for (int i = 0; i < T; ++i)
        for (int j = 0; j < T; ++j)
          put(i * T + j, mo, c, float(gk[i][0] * Gm[j][0] + gk[i][1] * Gm[j][1] + gk[i][2] * Gm[j][2]));
    }
}

template <int m>
std::vector<PackedB> packWeights(const ConvGeom& g, const float* w) {
  constexpr int T = m + 2, T2 = T * T;
  const int64_t C = g.C, M = g.M;
  std::vector<PackedB> out(T2);
  if (vectorPath()) {
    // Straight into the channel-vector kernel's panels (packCvecWeights'
    // layout for a 1x1 conv over Cp = C rounded up to 16 inputs: per xi,
    // panels of 32 outputs, Cp x 32 each, zero past C and M), with no
    // intermediate U (SqueezeNet's plan spent a fifth of its time there).
    const int64_t Cp = (C + 15) / 16 * 16, panels = (M + 31) / 32;
    float* d[T2];
    for (int xi = 0; xi < T2; ++xi) {
      out[xi].K = Cp;
      out[xi].N = M;
      out[xi].nr = 32;
      out[xi].kc = int(std::min<int64_t>(Cp, INT32_MAX));
      out[xi].data = allocFloats(size_t(panels * Cp * 32));
      d[xi] = out[xi].data.get();
      std::fill(d[xi], d[xi] + panels * Cp * 32, 0.f);
    }
    transformWeights<m>(g, w, [&](int xi, int64_t mo, int64_t c, float v) {
      d[xi][(mo >> 5) * Cp * 32 + c * 32 + (mo & 31)] = v;
    });
  } else {
    std::unique_ptr<float[]> u(new float[T2 * C * M]);
    transformWeights<m>(g, w, [&](int xi, int64_t mo, int64_t c, float v) { u[(xi * C + c) * M + mo] = v; });
    for (int xi = 0; xi < T2; ++xi) out[xi] = packB(false, C, M, u.get() + xi * C * M, M);
  }
  return out;
}

// A chunk's transformed input V and GEMM output O (and the vector path's
// taps), in the workspace's shared part (all threads write them); sized by
// the path `vec` takes (base null: only counts into `bytes`).
struct WinogradBufs {
  float* V;
  float* O;
  int64_t* taps;
};
template <int m>
WinogradBufs winogradBufs(const ConvGeom& g, bool vec, void* base, size_t* bytes = nullptr) {
  constexpr int T = m + 2, T2 = T * T;
  const int64_t C = g.C, M = g.M;
  const int64_t tiles = ((g.grid[1] + m - 1) / m) * ((g.grid[2] + m - 1) / m);
  Carve c(base);
  WinogradBufs w{};
  if (vec) {
    const int64_t MB = (M + 15) / 16, Cp = (C + 15) / 16 * 16;
    const int64_t TB = tileChunk(tiles, T2, Cp, MB * 16);
    w.V = c.take<float>(size_t(T2 * Cp * TB));
    w.O = c.take<float>(size_t(T2 * MB * 16 * TB));
    w.taps = c.take<int64_t>(size_t(Cp + kCvecTapsPad));
  } else {
    const int64_t TB = tileChunk(tiles, T2, C, M), mr = gemm::isa().mr;
    w.V = c.take<float>(size_t(T2 * C * ((TB + mr - 1) / mr * mr)));
    w.O = c.take<float>(size_t(T2 * TB * M));
  }
  if (bytes) *bytes = c.bytes();
  return w;
}

// The portable path: V in the GEMM's packed-A layout, the packed GEMM.
template <int m>
void runPortable(ThreadPool& pool, const ConvGeom& g, const float* xn, const std::vector<PackedB>& U, const float* b,
                 const float* zn, float* yn, const ClampSplit& cs, const WinogradBufs& bufs) {
  constexpr int T = m + 2, T2 = T * T;
  const int64_t C = g.C, M = g.M;
  const int64_t tiles = ((g.grid[1] + m - 1) / m) * ((g.grid[2] + m - 1) / m);
  const int64_t TB = tileChunk(tiles, T2, C, M), mr = gemm::isa().mr;
  const int64_t xiStride = C * ((TB + mr - 1) / mr * mr);  // one packed V_xi
  float* V = bufs.V;
  float* O = bufs.O;
  for (int64_t t0 = 0; t0 < tiles; t0 += TB) {
    const int64_t tb = std::min(TB, tiles - t0);
    pool.parallelFor(C, [&](int64_t c0, int64_t c1) { inputTransform<m>(g, xn, c0, c1, t0, tb, xiStride, V); },
                     std::max<int64_t>(1, 2048 / tb));
    pool.parallelFor(T2, [&](int64_t x0, int64_t x1) {
      for (int64_t xi = x0; xi < x1; ++xi)
        gemm::gemmPackedAB(gemm::packedAView(tb, C, V + xi * xiStride), U[xi], 1.f, 0.f, O + xi * TB * M, M,
                           GemmEpilogue{}, nullptr);
    });
    pool.parallelFor(tb, [&](int64_t ta, int64_t te) {
      outputTransform<m>(g, O, TB * M, t0, ta, te, b, zn, cs.clamp, cs.lo, cs.hi, yn);
    }, std::max<int64_t>(1, 1024 / (M * m * m / 4)));
  }
}

#if defined(__x86_64__) || defined(__i386__)
template <int m>
void runVector(ThreadPool& pool, const ConvGeom& g, const float* xn, const std::vector<PackedB>& U, const float* b,
               const float* zn, float* yn, const ClampSplit& cs, bool inBlocked, bool outBlocked,
               const WinogradBufs& bufs) {
  constexpr int T = m + 2, T2 = T * T;
  const int64_t C = g.C, M = g.M, CB = (C + 15) / 16, MB = (M + 15) / 16, Cp = CB * 16;
  const int64_t panels = (M + 31) / 32;
  const int64_t tiles = ((g.grid[1] + m - 1) / m) * ((g.grid[2] + m - 1) / m);
  const int64_t TB = tileChunk(tiles, T2, Cp, MB * 16);
  float* V = bufs.V;
  float* O = bufs.O;
  int64_t* taps = bufs.taps;
  for (int64_t t0 = 0; t0 < tiles; t0 += TB) {
    const int64_t tb = std::min(TB, tiles - t0);
    const int64_t vStride = Cp * tb, oStride = MB * 16 * tb;  // one V_xi, one O_xi
    for (int64_t k = 0; k < Cp; ++k) taps[k] = (k >> 4) * tb * 16 + (k & 15);
    std::fill(taps + Cp, taps + Cp + kCvecTapsPad, 0);
    pool.parallelFor(tb * CB, [&](int64_t a0, int64_t a1) {
      inputTransformB<m>(g, xn, inBlocked, a0, a1, t0, tb, vStride, V);
    }, std::max<int64_t>(1, 64 / T2));
    pool.parallelFor(T2 * panels, [&](int64_t u0, int64_t u1) {
      for (int64_t u = u0; u < u1; ++u) {
        const int64_t xi = u / panels, pi = u % panels, n = u + 1;
        const float* next = n < T2 * panels ? U[n / panels].data.get() + (n % panels) * Cp * 32 : nullptr;
        cvecGemmBlocked(V + xi * vStride, tb, Cp, taps, U[xi].data.get(), M, O + xi * oStride, pi, pi + 1, next);
      }
    });
    pool.parallelFor(tb * MB, [&](int64_t a0, int64_t a1) {
      outputTransformB<m>(g, O, oStride, a0, a1, t0, tb, b, zn, cs.clamp, cs.lo, cs.hi, outBlocked, yn);
    }, std::max<int64_t>(1, 64 / T2));
  }
}
#endif

template <int m>
void run(ThreadPool& pool, const ConvGeom& g, const float* x, const std::vector<PackedB>& U, const float* b,
         const float* z, float* y, const Activation& act, bool inBlocked, bool outBlocked, const Workspace& ws) {
  const int64_t C = g.C, M = g.M, P = g.gridSize;
  // Relu / Clip in the output transform, after the residual; any other
  // activation in a pass over Y after.
  const ClampSplit cs = splitClamp(act);
  const bool vec = vectorPath();
  if (vec && !offsetsFit(g))
    throw Error(ErrorCode::kInternal, "convWinograd: planes too large for the AVX-512 path's int32 offsets");
  if ((inBlocked || outBlocked) && !vec)
    throw Error(ErrorCode::kInternal, "convWinograd: the blocked layout needs the AVX-512 path");
  ScratchNeed need;
  winogradBufs<m>(g, vec, nullptr, &need.shared);
  const CallWorkspace call(ws, need, pool.size());
  const WinogradBufs bufs = winogradBufs<m>(g, vec, call.get().shared.part(0));
  for (int64_t n = 0; n < g.N; ++n) {
    const float* xn = x + n * C * g.imgSize;
    float* yn = y + n * M * P;
    const float* zn = z ? z + n * M * P : nullptr;
#if defined(__x86_64__) || defined(__i386__)
    if (vec) runVector<m>(pool, g, xn, U, b, zn, yn, cs, inBlocked, outBlocked, bufs);
    else
#endif
      runPortable<m>(pool, g, xn, U, b, zn, yn, cs, bufs);
    if (cs.rest != GemmActivation::kNone) {
      // Element-wise: Y's layout does not matter.
      GemmEpilogue ep;
      ep.act = cs.rest;
      ep.p0 = act.p0;
      ep.p1 = act.p1;
      pool.parallelFor(M, [&](int64_t m0, int64_t m1) {
        applyGemmEpilogue(ep, yn + m0 * P, P, m1 - m0, P, m0, 0);
      }, std::max<int64_t>(1, 4096 / P));
    }
  }
}

}  // namespace

bool winogradOffsetsFit(const ConvGeom& g) { return offsetsFit(g); }

std::vector<PackedB> packWinogradWeights(const ConvGeom& g, const float* w, int tile) {
  return tile == 4 ? packWeights<4>(g, w) : packWeights<2>(g, w);
}

ScratchNeed winogradScratch(const ConvGeom& g, int tile) {
  ScratchNeed need;
  if (tile == 4) winogradBufs<4>(g, vectorPath(), nullptr, &need.shared);
  else winogradBufs<2>(g, vectorPath(), nullptr, &need.shared);
  return need;
}

void convWinograd(ThreadPool& pool, const ConvGeom& g, const float* x, const std::vector<PackedB>& U, const float* b,
                  const float* z, float* y, const Activation& act, bool inBlocked, bool outBlocked,
                  const Workspace& ws) {
  // The packed weights say which transform they were made for.
  if (U.size() == 36) run<4>(pool, g, x, U, b, z, y, act, inBlocked, outBlocked, ws);
  else if (U.size() == 16) run<2>(pool, g, x, U, b, z, y, act, inBlocked, outBlocked, ws);
  else throw Error(ErrorCode::kInternal, "convWinograd: weights packed for neither F(2x2, 3x3) nor F(4x4, 3x3)");
}

}  // namespace oinfer::conv
