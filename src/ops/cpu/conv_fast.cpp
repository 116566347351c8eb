// Float32 Conv on the packed GEMM. Strategy per shape (chosen once per plan
// when the input shape is static):
//  - pointwise (1x1, stride 1, no padding): the NCHW input of a group is the
//    Cg x P right operand as it is, packed block by block by the GEMM.
//  - im2col: the Cg*K x P column matrix is never materialised; the GEMM asks
//    for one K-block x N-block at a time and Im2colPacker gathers it straight
//    into the packed panel layout, so the working set stays in L1/L2.
//  - depthwise (Cg == 1): a direct loop per output row, an axpy per kernel tap
//    over the output columns whose tap lies inside the input (bounds
//    precomputed), then the epilogue on the row while it is in cache.
//  - small M (Mg <= 4 output channels per group, AVX-512, 2-d, stride 1/2):
//    per output row, one register-blocked row pass per input channel
//    (directSmallM), since a GEMM would use a fraction of its micro-kernel
//    rows while re-packing the whole im2col.
// Bias, the residual input and the activation go through the GEMM epilogue.
// Limits: no Winograd (3x3 convs run im2col + GEMM), no NHWC layout; the
// direct kernels need AVX-512 (elsewhere the portable depthwise loop and the
// GEMM run).
#include "ops/cpu/conv_fast.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "ops/cpu/gemm/gemm_internal.h"

namespace oinfer::conv {

bool depthwiseRow512(const float* const* xrows, const float* w, int KH, int KW, int stride, int64_t padW, int64_t W,
                     int64_t OW, float bias, bool accumulate, float* y);  // conv_depthwise.cpp

namespace {

// Row k of the im2col matrix (channel k / K, tap k % K) over columns
// [n0, n0 + nl) into out.
void im2colRow(const ConvGeom& g, const float* x, int64_t k, int64_t n0, int64_t nl, float* out) {
  const int64_t c = k / g.K, tap = k % g.K;
  const int64_t kw = tap % g.k[2], kh = (tap / g.k[2]) % g.k[1], kd = tap / (g.k[2] * g.k[1]);
  const float* plane = x + c * g.imgSize;
  const int64_t OW = g.grid[2], W = g.img[2], s2 = g.s[2];
  int64_t p = n0;
  const int64_t end = n0 + nl;
  float* o = out;
  while (p < end) {
    const int64_t gw = p % OW, gh = (p / OW) % g.grid[1], gd = p / (OW * g.grid[1]);
    const int64_t run = std::min(end - p, OW - gw);
    const int64_t id = tapCoord(g, 0, gd, kd), ih = tapCoord(g, 1, gh, kh);
    if (id < 0 || id >= g.img[0] || ih < 0 || ih >= g.img[1]) {
      std::fill(o, o + run, 0.f);
    } else {
      const float* src = plane + (id * g.img[1] + ih) * W;
      const int64_t iw0 = tapCoord(g, 2, gw, kw);
      int64_t jlo = iw0 < 0 ? (-iw0 + s2 - 1) / s2 : 0;
      int64_t jhi = iw0 >= W ? 0 : (W - 1 - iw0) / s2 + 1;
      jlo = std::min(jlo, run);
      jhi = std::clamp(jhi, jlo, run);
      std::fill(o, o + jlo, 0.f);
      if (s2 == 1) std::memcpy(o + jlo, src + iw0 + jlo, (jhi - jlo) * sizeof(float));
      else
        for (int64_t j = jlo; j < jhi; ++j) o[j] = src[iw0 + j * s2];
      std::fill(o + jhi, o + run, 0.f);
    }
    o += run;
    p += run;
  }
}

thread_local std::vector<float> tlsRow;

}  // namespace

void reserveConvThreadScratch(ThreadPool* pool) {
  auto reserve = [](int64_t, int64_t) {
    if (tlsRow.size() < size_t(gemm::kNc)) tlsRow.resize(gemm::kNc);
  };
  if (pool) pool->runOnEachThread(reserve);
  else reserve(0, 1);
}

namespace {

class Im2colPacker final : public gemm::BPacker {
 public:
  Im2colPacker(const ConvGeom& g, const float* x) : g_(g), x_(x) {}
  void pack(int64_t k0, int64_t kl, int64_t n0, int64_t nl, int nr, float* dst) const override {
    if (tlsRow.size() < size_t(nl)) tlsRow.resize(nl);
    float* row = tlsRow.data();
    for (int64_t kk = 0; kk < kl; ++kk) {
      im2colRow(g_, x_, k0 + kk, n0, nl, row);
      for (int64_t j = 0; j < nl; j += nr) {
        const int64_t cols = std::min<int64_t>(nr, nl - j);
        float* d = dst + j * kl + kk * nr;
        std::memcpy(d, row + j, cols * sizeof(float));
        for (int64_t c = cols; c < nr; ++c) d[c] = 0.f;
      }
    }
  }

 private:
  const ConvGeom& g_;
  const float* x_;
};

class StridedPacker final : public gemm::BPacker {  // pointwise: B is x itself
 public:
  StridedPacker(const float* x, int64_t ld) : x_(x), ld_(ld) {}
  void pack(int64_t k0, int64_t kl, int64_t n0, int64_t nl, int nr, float* dst) const override {
    for (int64_t kk = 0; kk < kl; ++kk) {
      const float* s = x_ + (k0 + kk) * ld_ + n0;
      for (int64_t j = 0; j < nl; j += nr) {
        const int64_t cols = std::min<int64_t>(nr, nl - j);
        float* d = dst + j * kl + kk * nr;
        std::memcpy(d, s + j, cols * sizeof(float));
        for (int64_t c = cols; c < nr; ++c) d[c] = 0.f;
      }
    }
  }

 private:
  const float* x_;
  int64_t ld_;
};

// Residual add and activation over output rows [r0, r1) (OW wide, contiguous
// in y and z), batched over several rows: per-row calls cost more than the
// vector work on short rows.
constexpr int64_t kFinishRows = 32;
void finishRows(const GemmEpilogue& ep, const float* z, float* y, int64_t r0, int64_t r1, int64_t OW) {
  const int64_t len = (r1 - r0) * OW;
  float* yp = y + r0 * OW;
  if (z) {
    const float* zp = z + r0 * OW;
    for (int64_t i = 0; i < len; ++i) yp[i] += zp[i];
  }
  if (ep.act != GemmActivation::kNone) applyGemmEpilogue(ep, yp, len, 1, len);
}

void depthwise(ThreadPool& pool, const ConvGeom& g, const float* x, const float* w, const float* b, const float* z,
               float* y, const Activation& act) {
  const int64_t rowsPerPlane = g.grid[0] * g.grid[1];
  const int64_t W = g.img[2], OW = g.grid[2], s2 = g.s[2];
  std::array<std::pair<int64_t, int64_t>, 16> colsSmall;
  std::vector<std::pair<int64_t, int64_t>> colsBig;
  std::pair<int64_t, int64_t>* cols = colsSmall.data();
  if (g.k[2] > 16) {
    colsBig.resize(g.k[2]);
    cols = colsBig.data();
  }
  for (int64_t kw = 0; kw < g.k[2]; ++kw) {
    const int64_t iw0 = tapCoord(g, 2, 0, kw);
    int64_t lo = iw0 < 0 ? (-iw0 + s2 - 1) / s2 : 0;
    int64_t hi = iw0 >= W ? 0 : (W - 1 - iw0) / s2 + 1;
    lo = std::min(lo, OW);
    cols[kw] = {lo, std::clamp(hi, lo, OW)};
  }
  GemmEpilogue ep;
  ep.act = act.act;
  ep.p0 = act.p0;
  ep.p1 = act.p1;
  // The register-accumulating AVX-512 row kernel: 2-d, no dilation, stride 1 or 2.
  const bool fast = std::string(gemm::isa().name) == "avx512" && g.k[0] == 1 && g.grid[0] == 1 && g.k[1] <= 16 &&
                    g.dil[1] == 1 && g.dil[2] == 1 && (s2 == 1 || s2 == 2);
  const int64_t grain = std::max<int64_t>(1, 4096 / std::max<int64_t>(1, OW * g.K));
  pool.parallelFor(g.N * g.M * rowsPerPlane, [&](int64_t begin, int64_t end) {
    int64_t pend = begin;
    for (int64_t r = begin; r < end; ++r) {
      const int64_t plane = r / rowsPerPlane, od = (r / g.grid[1]) % g.grid[0], oh = r % g.grid[1];
      const int64_t n = plane / g.M, m = plane % g.M, c = m / g.Mg;
      const float* xp = x + (n * g.C + c) * g.imgSize;
      const float* wp = w + m * g.K;
      const int64_t off0 = plane * g.gridSize + (od * g.grid[1] + oh) * OW;
      float* yrow = y + off0;
      if (fast) {
        const float* xrows[16];
        for (int64_t kh = 0; kh < g.k[1]; ++kh) {
          const int64_t ih = tapCoord(g, 1, oh, kh);
          xrows[kh] = ih < 0 || ih >= g.img[1] ? nullptr : xp + ih * W;
        }
        depthwiseRow512(xrows, wp, int(g.k[1]), int(g.k[2]), int(s2), g.padBegin[2], W, OW, b ? b[m] : 0.f, false,
                        yrow);
      } else {
        std::fill(yrow, yrow + OW, b ? b[m] : 0.f);
        for (int64_t kd = 0; kd < g.k[0]; ++kd) {
          const int64_t id = tapCoord(g, 0, od, kd);
          if (id < 0 || id >= g.img[0]) continue;
          for (int64_t kh = 0; kh < g.k[1]; ++kh) {
            const int64_t ih = tapCoord(g, 1, oh, kh);
            if (ih < 0 || ih >= g.img[1]) continue;
            const float* xr = xp + (id * g.img[1] + ih) * W;
            const float* wk = wp + (kd * g.k[1] + kh) * g.k[2];
            for (int64_t kw = 0; kw < g.k[2]; ++kw) {
              const float wv = wk[kw];
              const int64_t off = tapCoord(g, 2, 0, kw);
              const auto [lo, hi] = cols[kw];
              if (s2 == 1) {
                const float* xs = xr + off;
                for (int64_t ow = lo; ow < hi; ++ow) yrow[ow] += wv * xs[ow];
              } else if (s2 == 2) {
                const float* xs = xr + off;
                for (int64_t ow = lo; ow < hi; ++ow) yrow[ow] += wv * xs[2 * ow];
              } else {
                for (int64_t ow = lo; ow < hi; ++ow) yrow[ow] += wv * xr[ow * s2 + off];
              }
            }
          }
        }
      }
      if (r + 1 - pend >= kFinishRows || r + 1 == end) {
        finishRows(ep, z, y, pend, r + 1, OW);
        pend = r + 1;
      }
    }
  }, grain);
}

// Few output channels per group (SRCNN's 3-channel reconstruction layer): a
// GEMM with M < MR wastes most of each micro-kernel and re-packs a huge
// im2col B for a handful of rows, so each output row instead accumulates
// one register-blocked row pass per input channel (the depthwise row kernel
// with accumulate). 2-d, no dilation, stride 1 or 2, AVX-512.
bool smallMDirect(const ConvGeom& g) {
  return std::string(gemm::isa().name) == "avx512" && g.Mg <= 4 && g.K > 1 && g.k[0] == 1 && g.grid[0] == 1 &&
         g.k[1] <= 16 && g.dil[1] == 1 && g.dil[2] == 1 && (g.s[2] == 1 || g.s[2] == 2);
}

void directSmallM(ThreadPool& pool, const ConvGeom& g, const float* x, const float* w, const float* b, const float* z,
                  float* y, const Activation& act) {
  const int64_t OH = g.grid[1], OW = g.grid[2], W = g.img[2];
  GemmEpilogue ep;
  ep.act = act.act;
  ep.p0 = act.p0;
  ep.p1 = act.p1;
  pool.parallelFor(g.N * g.M * OH, [&](int64_t begin, int64_t end) {
    int64_t pend = begin;
    for (int64_t r = begin; r < end; ++r) {
      const int64_t plane = r / OH, oh = r % OH, n = plane / g.M, m = plane % g.M, grp = m / g.Mg;
      float* yrow = y + plane * g.gridSize + oh * OW;
      const float* xrows[16];
      for (int64_t c = 0; c < g.Cg; ++c) {
        const float* xp = x + (n * g.C + grp * g.Cg + c) * g.imgSize;
        for (int64_t kh = 0; kh < g.k[1]; ++kh) {
          const int64_t ih = tapCoord(g, 1, oh, kh);
          xrows[kh] = ih < 0 || ih >= g.img[1] ? nullptr : xp + ih * W;
        }
        depthwiseRow512(xrows, w + (m * g.Cg + c) * g.K, int(g.k[1]), int(g.k[2]), int(g.s[2]), g.padBegin[2], W, OW,
                        b ? b[m] : 0.f, c > 0, yrow);
      }
      if (r + 1 - pend >= kFinishRows || r + 1 == end) {
        finishRows(ep, z, y, pend, r + 1, OW);
        pend = r + 1;
      }
    }
  }, std::max<int64_t>(1, 8192 / std::max<int64_t>(1, OW * g.Cg * g.K)));
}

}  // namespace

Strategy chooseStrategy(const ConvGeom& g) {
  bool unit = g.K == 1 && g.noPadding;
  for (size_t s = 0; s < kMaxSpatial; ++s) unit = unit && g.s[s] == 1;
  if (g.Cg == 1 && g.G > 1) return Strategy::kDepthwise;
  if (unit) return Strategy::kPointwise;
  return Strategy::kIm2col;
}

std::vector<PackedA> packConvWeights(const ConvGeom& g, const float* w) {
  std::vector<PackedA> out;
  const int64_t CK = g.Cg * g.K;
  out.reserve(g.G);
  for (int64_t grp = 0; grp < g.G; ++grp) out.push_back(packA(false, g.Mg, CK, w + grp * g.Mg * CK, CK));
  return out;
}

void convFloat(ThreadPool& pool, const ConvGeom& g, Strategy st, const float* x, const float* w,
               const std::vector<PackedA>& packed, const float* b, const float* z, float* y, const Activation& act) {
  if (st == Strategy::kDepthwise) {
    depthwise(pool, g, x, w, b, z, y, act);
    return;
  }
  if (smallMDirect(g)) {
    directSmallM(pool, g, x, w, b, z, y, act);
    return;
  }
  std::vector<PackedA> local;
  const std::vector<PackedA>* pw = &packed;
  if (packed.size() != size_t(g.G)) {
    local = packConvWeights(g, w);
    pw = &local;
  }
  const int64_t P = g.gridSize;
  for (int64_t n = 0; n < g.N; ++n)
    for (int64_t grp = 0; grp < g.G; ++grp) {
      const float* xg = x + (n * g.C + grp * g.Cg) * g.imgSize;
      const int64_t yoff = (n * g.M + grp * g.Mg) * P;
      GemmEpilogue ep;
      if (b) {
        ep.biasKind = GemmBias::kPerRow;
        ep.bias = b + grp * g.Mg;
      }
      if (z) {
        ep.residual = z + yoff;
        ep.ldr = P;
      }
      ep.act = act.act;
      ep.p0 = act.p0;
      ep.p1 = act.p1;
      if (st == Strategy::kPointwise) {
        StridedPacker bp(xg, P);
        gemm::gemmPackedA((*pw)[grp], P, bp, 1.f, 0.f, y + yoff, P, ep, &pool);
      } else {
        Im2colPacker bp(g, xg);
        gemm::gemmPackedA((*pw)[grp], P, bp, 1.f, 0.f, y + yoff, P, ep, &pool);
      }
    }
}

Activation parseActivation(const Node& node) {
  Activation a;
  const std::string name = node.attrString("activation", "");
  std::vector<float> params = node.attrFloats("activation_params", {});
  auto param = [&](size_t i, float def) { return i < params.size() ? params[i] : def; };
  if (name.empty() || name == "Identity") a.act = GemmActivation::kNone;
  else if (name == "Relu") a.act = GemmActivation::kRelu;
  else if (name == "Clip") {
    a.act = GemmActivation::kClip;
    a.p0 = param(0, -INFINITY);
    a.p1 = param(1, INFINITY);
  } else if (name == "LeakyRelu") {
    a.act = GemmActivation::kLeakyRelu;
    a.p0 = param(0, 0.01f);
  } else if (name == "Sigmoid") a.act = GemmActivation::kSigmoid;
  else if (name == "HardSigmoid") {
    a.act = GemmActivation::kHardSigmoid;
    a.p0 = param(0, 0.2f);
    a.p1 = param(1, 0.5f);
  } else if (name == "HardSwish") a.act = GemmActivation::kHardSwish;
  else if (name == "Tanh") a.act = GemmActivation::kTanh;
  else if (name == "SiLU") a.act = GemmActivation::kSiLU;
  else if (name == "Gelu") {
    a.act = GemmActivation::kGelu;
    a.p0 = param(0, 0.f);
  } else
    throw Error(ErrorCode::kInvalidModel, node.describe() + ": unsupported activation '" + name + "'");
  return a;
}

}  // namespace oinfer::conv
