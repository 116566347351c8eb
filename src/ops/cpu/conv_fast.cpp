// Float32 Conv on the packed GEMM: the GEMM strategies and the NCHW
// depthwise kernels that convFloat runs (which one: conv_select.cpp).
//  - 1x1 stride 1 unpadded: the NCHW input of a group is the Cg x P right
//    operand as it is, packed block by block by the GEMM; with few output
//    channels per group not packed at all: the micro-kernel reads it in
//    place (convPointwiseDirect).
//  - im2col: the Cg*K x P column matrix is gathered straight into the GEMM's
//    packed panel layout, a chunk of columns at a time (about 2 MiB, so it
//    stays in cache), by all threads at once; then one GEMM over the chunk
//    with both operands packed (a GEMM packing B itself would gather the
//    same columns once per thread that splits M).
//  - shifted (2-d, the same stride both ways, not 1x1; conv_shifted.cpp):
//    the GEMM reads B straight from zero-padded polyphase copies of the
//    input, each B row being one shifted by a kernel tap: no im2col at all.
//  - depthwise (Cg == 1, conv_depthwise*.cpp): small planes 16 channels at
//    a time through register transposes; 3x3 stride 1 straight from the
//    input rows; larger ones whole planes on a zero-padded polyphase copy,
//    every tap one contiguous load per 16 outputs; planes too wide for its
//    buffer a row kernel (bounds per tap precomputed), the epilogue on the
//    rows in cache; without AVX-512 a portable loop.
// Winograd (conv_winograd.cpp), the channel-vector (conv_cvec.cpp) and
// pixel-vector (conv_pixvec.cpp) kernels run from the Conv kernel directly.
// Bias, the residual input and the activation go through the GEMM epilogue.
// Limits: no NHWC layout.
#include "ops/cpu/conv_fast.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "ops/cpu/gemm/gemm_internal.h"

namespace oinfer::conv {

namespace {

// The im2col matrix (Cg*K x P) restricted to columns [n0, n0 + nl), written
// straight into the packB layout (see gemm::packedBView) at dst: panels
// [panel0, panel1) of nr columns each. Per panel the columns fall into a few
// runs along output rows (precomputed); per im2col row each run is one
// bounded copy from an input row, zero outside the image.
void im2colPanels(const ConvGeom& g, const float* x, int64_t n0, int64_t nl, int64_t panel0, int64_t panel1,
                  float* dst) {
  const int nr = gemm::isa().nr;
  const int64_t CK = g.Cg * g.K, kc = gemm::kKc, nPad = (nl + nr - 1) / nr * nr;
  const int64_t OW = g.grid[2], OH = g.grid[1], W = g.img[2], s2 = g.s[2];
  struct Run {
    int lane, len;
    int64_t od, oh, ow;
  };
  Run runs[64];
  for (int64_t j = panel0; j < panel1; ++j) {
    const int64_t col0 = n0 + j * nr;
    const int cols = int(std::min<int64_t>(nr, nl - j * nr));
    int nRuns = 0;
    for (int lane = 0; lane < cols;) {
      const int64_t p = col0 + lane;
      const int64_t ow = p % OW, oh = (p / OW) % OH, od = p / (OW * OH);
      const int len = int(std::min<int64_t>(cols - lane, OW - ow));
      runs[nRuns++] = {lane, len, od, oh, ow};
      lane += len;
    }
    int64_t k = 0;
    float* d = nullptr;
    int64_t kl = 0;
    for (int64_t c = 0; c < g.Cg; ++c) {
      const float* plane = x + c * g.imgSize;
      for (int64_t kd = 0; kd < g.k[0]; ++kd)
        for (int64_t kh = 0; kh < g.k[1]; ++kh)
          for (int64_t kw = 0; kw < g.k[2]; ++kw, ++k) {
            if (k % kc == 0) {  // a new K block: its panels start at k * nPad
              kl = std::min<int64_t>(kc, CK - k);
              d = dst + k * nPad + j * nr * kl;
            }
            for (int r = 0; r < nRuns; ++r) {
              const Run& rn = runs[r];
              float* o = d + rn.lane;
              const int64_t id = tapCoord(g, 0, rn.od, kd), ih = tapCoord(g, 1, rn.oh, kh);
              if (id < 0 || id >= g.img[0] || ih < 0 || ih >= g.img[1]) {
                std::memset(o, 0, rn.len * sizeof(float));
                continue;
              }
              const float* src = plane + (id * g.img[1] + ih) * W;
              const int64_t iw0 = tapCoord(g, 2, rn.ow, kw);
              // Valid i: 0 <= iw0 + i * s2 < W.
              int64_t lo = iw0 < 0 ? (-iw0 + s2 - 1) / s2 : 0;
              int64_t hi = iw0 >= W ? 0 : (W - 1 - iw0) / s2 + 1;
              lo = std::min<int64_t>(lo, rn.len);
              hi = std::clamp<int64_t>(hi, lo, rn.len);
              for (int64_t i = 0; i < lo; ++i) o[i] = 0.f;
              if (s2 == 1) std::memcpy(o + lo, src + iw0 + lo, (hi - lo) * sizeof(float));
              else
                for (int64_t i = lo; i < hi; ++i) o[i] = src[iw0 + i * s2];
              for (int64_t i = hi; i < rn.len; ++i) o[i] = 0.f;
            }
            for (int lane = cols; lane < nr; ++lane) d[lane] = 0.f;
            d += nr;
          }
    }
  }
}

// Columns per packed chunk: the whole output when its im2col fits the budget
// (about L2), else a multiple of nr sized to it, at least 4 panels.
int64_t columnChunk(int64_t CK, int64_t P, int nr) {
  constexpr int64_t kBudgetFloats = int64_t{1} << 19;  // 2 MiB
  const int64_t pPad = (P + nr - 1) / nr * nr;
  if (CK * pPad <= kBudgetFloats) return P;
  const int64_t c = std::max<int64_t>(4, kBudgetFloats / (CK * nr)) * nr;
  return std::min(c, P);
}

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

void depthwise(ThreadPool& pool, const ConvGeom& g, ConvAlgorithm algo, const float* x, const float* w,
               const float* b, const float* z, float* y, const Activation& act) {
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
  // Small planes, 16 channels at a time (no residual; any activation but Gelu).
  if (algo == ConvAlgorithm::kDepthwiseSmallPlanes) {
    if (z || act.act == GemmActivation::kGelu)
      throw Error(ErrorCode::kInternal, "depthwise: the small-plane kernel takes no residual and no Gelu");
    const ClampSplit cs = splitClamp(act);
    const int64_t blocks = g.N * g.M / 16;
    pool.parallelFor(blocks, [&](int64_t b0, int64_t b1) {
      depthwiseBlocks512(g, x, w, b, y, b0, b1, cs.clamp, cs.lo, cs.hi, cs.rest, act.p0, act.p1);
    });
    return;
  }
  // Whole planes (2-d, same stride 1 or 2 both ways, any dilation; 3x3
  // stride 1 straight from the input rows) when a band of rows fits the
  // kernel's stack buffer; else rows.
  if (algo == ConvAlgorithm::kDepthwisePlanes || algo == ConvAlgorithm::kDepthwise3x3Rows) {
    const ClampSplit cs = splitClamp(act);
    const bool clamp = !z && cs.clamp;  // with a residual the clamp comes after it, in `post`
    GemmEpilogue post = ep;
    if (clamp) post.act = GemmActivation::kNone;
    const auto planes = algo == ConvAlgorithm::kDepthwise3x3Rows ? &depthwise3x3Rows512 : &depthwisePlanes512;
    pool.parallelFor(g.N * g.M, [&](int64_t p0, int64_t p1) {
      planes(g, x, w, b, z, y, g.gridSize, p0, p1, clamp, cs.lo, cs.hi, post);
    }, std::max<int64_t>(1, 8192 / std::max<int64_t>(1, g.gridSize * g.K)));
    return;
  }
  // The register-accumulating AVX-512 row kernel (2-d, no dilation, stride
  // 1 or 2), else the portable loop.
  if (algo != ConvAlgorithm::kDepthwiseRows && algo != ConvAlgorithm::kDepthwiseLoop)
    throw Error(ErrorCode::kInternal, std::string("depthwise: not a depthwise algorithm: ") + algorithmName(algo));
  const bool fast = algo == ConvAlgorithm::kDepthwiseRows;
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
        depthwiseRow512(xrows, wp, int(g.k[1]), int(g.k[2]), int(s2), g.padBegin[2], W, OW, b ? b[m] : 0.f,
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

}  // namespace

ClampSplit splitClamp(const Activation& act) {
  GemmEpilogue ep;
  ep.act = act.act;
  ep.p0 = act.p0;
  ep.p1 = act.p1;
  ClampSplit s;
  s.clamp = gemm::clampActivation(ep, s.lo, s.hi);
  s.rest = s.clamp ? GemmActivation::kNone : act.act;
  return s;
}

namespace {

bool isDepthwiseNchw(ConvAlgorithm a) {
  return a == ConvAlgorithm::kDepthwiseSmallPlanes || a == ConvAlgorithm::kDepthwise3x3Rows ||
         a == ConvAlgorithm::kDepthwisePlanes || a == ConvAlgorithm::kDepthwiseRows ||
         a == ConvAlgorithm::kDepthwiseLoop;
}

}  // namespace

std::vector<PackedA> packConvWeights(const ConvGeom& g, const float* w) {
  std::vector<PackedA> out;
  const int64_t CK = g.Cg * g.K;
  out.reserve(g.G);
  for (int64_t grp = 0; grp < g.G; ++grp) out.push_back(packA(false, g.Mg, CK, w + grp * g.Mg * CK, CK));
  return out;
}

// im2col's buffer for one chunk of packed columns (columnChunk), in the
// workspace's shared part (all threads gather into it).
int64_t im2colFloats(const ConvGeom& g) {
  const int nr = gemm::isa().nr;
  const int64_t CK = g.Cg * g.K, chunk = columnChunk(CK, g.gridSize, nr);
  return CK * ((chunk + nr - 1) / nr * nr);
}

ScratchNeed convFloatScratch(const ConvGeom& g, ConvAlgorithm algo, int threads) {
  switch (algo) {
    case ConvAlgorithm::kShiftedGemm: return shiftedScratch(g);
    case ConvAlgorithm::kGemm1x1InPlace: return pointwiseDirectScratch(g);
    case ConvAlgorithm::kGemm1x1: return gemmScratch(g.Mg, g.gridSize, g.Cg * g.K, true, false, threads);
    case ConvAlgorithm::kIm2colGemm: {
      Carve c;
      c.take<float>(size_t(im2colFloats(g)));
      return {c.bytes(), 0};
    }
    default: return {};  // the NCHW depthwise kernels keep their rows on the stack
  }
}

void convFloat(ThreadPool& pool, const ConvGeom& g, ConvAlgorithm algo, const float* x, const float* w,
               const std::vector<PackedA>& packed, const float* b, const float* z, float* y, const Activation& act,
               const Workspace& ws) {
  if (isDepthwiseNchw(algo)) {
    depthwise(pool, g, algo, x, w, b, z, y, act);
    return;
  }
  if (algo != ConvAlgorithm::kShiftedGemm && algo != ConvAlgorithm::kGemm1x1InPlace &&
      algo != ConvAlgorithm::kGemm1x1 && algo != ConvAlgorithm::kIm2colGemm)
    throw Error(ErrorCode::kInternal, std::string("convFloat: not a GEMM or depthwise algorithm: ") +
                                          algorithmName(algo));
  if (algo == ConvAlgorithm::kShiftedGemm) {
    if (packed.size() == size_t(g.G)) {
      convShifted(pool, g, packed, x, b, z, y, act, ws);
    } else {
      const std::vector<PackedA> local = packConvWeights(g, w);
      convShifted(pool, g, local, x, b, z, y, act, ws);
    }
    return;
  }
  std::vector<PackedA> local;
  const std::vector<PackedA>* pw = &packed;
  if (packed.size() != size_t(g.G)) {
    local = packConvWeights(g, w);
    pw = &local;
  }
  if (algo == ConvAlgorithm::kGemm1x1InPlace) {
    convPointwiseDirect(pool, g, *pw, x, b, z, y, act, ws);
    return;
  }
  const int64_t P = g.gridSize;
  // The pointwise GEMM packs x's blocks per thread; im2col gathers into the shared part.
  const CallWorkspace call(ws, convFloatScratch(g, algo, pool.size()), pool.size());
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
      if (algo == ConvAlgorithm::kGemm1x1) {
        // B is x itself (Cg x P); the GEMM packs it block by block.
        sgemmPackedA((*pw)[grp], false, P, xg, P, 1.f, 0.f, y + yoff, P, ep, &pool, call.get());
        continue;
      }
      // im2col: each chunk of columns is gathered once, by all threads, into
      // the packed layout, then one GEMM over it (a GEMM packing its own B
      // would gather it once per thread that shares those columns).
      const int nr = gemm::isa().nr;
      const int64_t CK = g.Cg * g.K, chunk = columnChunk(CK, P, nr);
      float* cols = call.get().shared.part<float>(0);
      for (int64_t n0 = 0; n0 < P; n0 += chunk) {
        const int64_t nl = std::min(chunk, P - n0), panels = (nl + nr - 1) / nr;
        pool.parallelFor(panels, [&](int64_t p0, int64_t p1) { im2colPanels(g, xg, n0, nl, p0, p1, cols); },
                         std::max<int64_t>(1, 16384 / (CK * nr)));
        GemmEpilogue epc = ep;
        if (z) epc.residual = ep.residual + n0;
        gemm::gemmPackedAB((*pw)[grp], gemm::packedBView(CK, nl, cols), 1.f, 0.f, y + yoff + n0, P, epc, &pool);
      }
    }
}

Activation parseActivation(const Node& node, const std::string& prefix) {
  Activation a;
  const std::string name = node.attrString(prefix + "activation", "");
  std::vector<float> params = node.attrFloats(prefix + "activation_params", {});
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
