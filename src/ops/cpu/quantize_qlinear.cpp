// MatMulInteger, QLinearMatMul, ConvInteger and QLinearConv on the integer
// GEMM (qgemm/qgemm.h), with the weights packed once per Session.
//
// MatMul: each batch of A against B's packed slice (B broadcast as numpy
// does); the epilogue writes int32 or requantizes in place.
// Conv: the image is transposed to NHWC once, so a pixel's channels are a
// GEMM row: a 1x1 stride-1 unpadded conv multiplies it directly
// ("qgemm-1x1"), any other builds an NHWC im2col whose rows are the
// pixels' windows, taps outer and channels inner, padding filled with x's
// zero point so it adds nothing ("qgemm-im2col"); the product (pixels x
// channels) is transposed back to NCHW. A depthwise conv (one input and
// one output channel per group, 1-d or 2-d) runs its own direct kernel
// ("depthwise-int8"): per plane, a padded int16 copy of x - zx, then per
// output row the taps' (x - zx) * (w - zw) accumulated over whole vectors,
// then the same requantization; the one C++ body is compiled for each ISA
// (portable, AVX2, AVX-512).
//
// Requantization is qgemm's (float32: float(acc + bias) * (a_scale * b_scale
// / y_scale), clamped, rounded half to even), as onnxruntime does it. The
// forms qgemm does not take (per-row A zero points, non-float32 scales,
// weights that are not constants) run the reference (quantize_int.cpp).
#include <algorithm>
#include <cstring>

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

#include "ops/cpu/dispatch.h"
#include "ops/cpu/qgemm/qgemm.h"
#include "ops/cpu/quantize_common.h"
#include "ops/cpu/reduce_axes.h"

namespace oinfer::quant {

namespace {

using cpu::KernelIsa;
namespace qg = cpu::qgemm;

bool int8Type(DataType t) { return t == DataType::kUInt8 || t == DataType::kInt8; }

// A zero point's values as the cache key's tail ("" when absent).
std::string zpKey(const Tensor* z) {
  if (!z) return "";
  std::string k = " zp";
  for (int32_t v : toInt32(*z, Node())) k += ' ' + std::to_string(v);
  return k;
}

// float32 multipliers a_scale * b_scale[n] / y_scale (n < count).
void multipliersF(const KernelContext& ctx, size_t ai, size_t bi, size_t yi, int64_t count, std::vector<float>& m) {
  const float a = ctx.input(ai).data<float>()[0], y = ctx.input(yi).data<float>()[0];
  const Tensor& b = ctx.input(bi);
  m.resize(static_cast<size_t>(count));
  for (int64_t c = 0; c < count; ++c) m[c] = a * b.data<float>()[b.numel() == 1 ? 0 : c] / y;
}

// The QLinear scales and output zero point qgemm takes: float32 scalars
// and a per-tensor or per-`count` b scale.
bool floatScales(const KernelContext& ctx, size_t ai, size_t bi, size_t yi, size_t yzi, int64_t count) {
  const Tensor &a = ctx.input(ai), &b = ctx.input(bi), &y = ctx.input(yi);
  return a.dtype() == DataType::kFloat && b.dtype() == DataType::kFloat && y.dtype() == DataType::kFloat &&
         a.numel() == 1 && y.numel() == 1 && (b.numel() == 1 || b.numel() == count) && ctx.hasInput(yzi) &&
         ctx.input(yzi).numel() == 1;
}

qg::QOut outKind(bool qlinear, DataType out) {
  if (!qlinear) return qg::QOut::kInt32;
  return out == DataType::kUInt8 ? qg::QOut::kUInt8 : qg::QOut::kInt8;
}

// dst[c * ds + r] = src[r * ss + c] for r < rows, c < cols: blocks of 16 x
// 16 bytes through SSE2 unpacks (baseline x86-64), the edges element-wise;
// row blocks split over the pool.
#if defined(__x86_64__)
void transpose16(const uint8_t* src, int64_t ss, uint8_t* dst, int64_t ds) {
  __m128i r[16], t[16], u[16];
  for (int i = 0; i < 16; ++i) r[i] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i * ss));
  for (int k = 0; k < 8; ++k) {
    t[k] = _mm_unpacklo_epi8(r[2 * k], r[2 * k + 1]);      // rows 2k, 2k+1; columns 0..7
    t[k + 8] = _mm_unpackhi_epi8(r[2 * k], r[2 * k + 1]);  // columns 8..15
  }
  for (int h = 0; h < 2; ++h)
    for (int k = 0; k < 4; ++k) {  // u[8h + k]: rows 4k..4k+3, columns 8h..8h+3; u[8h + 4 + k]: 8h+4..8h+7
      u[8 * h + k] = _mm_unpacklo_epi16(t[8 * h + 2 * k], t[8 * h + 2 * k + 1]);
      u[8 * h + 4 + k] = _mm_unpackhi_epi16(t[8 * h + 2 * k], t[8 * h + 2 * k + 1]);
    }
  for (int b = 0; b < 16; b += 4) {  // columns b..b+3
    const __m128i v0 = _mm_unpacklo_epi32(u[b], u[b + 1]), v1 = _mm_unpackhi_epi32(u[b], u[b + 1]);
    const __m128i w0 = _mm_unpacklo_epi32(u[b + 2], u[b + 3]), w1 = _mm_unpackhi_epi32(u[b + 2], u[b + 3]);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + (b + 0) * ds), _mm_unpacklo_epi64(v0, w0));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + (b + 1) * ds), _mm_unpackhi_epi64(v0, w0));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + (b + 2) * ds), _mm_unpacklo_epi64(v1, w1));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + (b + 3) * ds), _mm_unpackhi_epi64(v1, w1));
  }
}
#endif

void transposeBytes(const uint8_t* src, int64_t rows, int64_t cols, int64_t ss, uint8_t* dst, int64_t ds,
                    ThreadPool& pool) {
  pool.parallelFor((rows + 15) / 16, [&](int64_t b, int64_t e) {
    for (int64_t r0 = b * 16; r0 < std::min(rows, e * 16); r0 += 16) {
      const int64_t r1 = std::min(rows, r0 + 16);
      int64_t c0 = 0;
#if defined(__x86_64__)
      if (r1 - r0 == 16)
        for (; c0 + 16 <= cols; c0 += 16) transpose16(src + r0 * ss + c0, ss, dst + c0 * ds + r0, ds);
#endif
      for (int64_t c = c0; c < cols; ++c)
        for (int64_t r = r0; r < r1; ++r) dst[c * ds + r] = src[r * ss + c];
    }
  }, 1);
}

// ---- matmul -------------------------------------------------------------

class QMatMulKernel final : public Kernel {
 public:
  QMatMulKernel(const KernelInit& init, bool qlinear)
      : q_(qlinear), bi_(qlinear ? 3 : 1), bzi_(qlinear ? 5 : 3), isa_(qg::chooseQGemm()) {
    const Tensor* b = init.constInput(bi_);
    const Tensor* z = init.hasInput(bzi_) ? init.constInput(bzi_) : nullptr;
    if (!b || b->rank() == 0 || !int8Type(b->dtype()) || (init.hasInput(bzi_) && !z)) return;
    const int64_t K = b->rank() == 1 ? b->dim(0) : b->dim(b->rank() - 2), N = b->rank() == 1 ? 1 : b->shape().back();
    if (z && (z->dtype() != b->dtype() || (z->numel() != 1 && z->numel() != N))) return;
    packs_ = init.packedWeight<std::vector<qg::PackedQB>>(
        bi_, qg::algorithmName(isa_) + zpKey(z), [&] { return packAll(*b, z, K, N); }, false);
  }

  std::string algorithm() const override { return qg::algorithmName(isa_); }

  void run(KernelContext& ctx) override {
    const Tensor &a = ctx.input(0), &b = ctx.input(bi_);
    const MatDims d = matDims(ctx, a, b, 0, bi_);
    const bool aZpOk = !ctx.hasInput(2) || (ctx.input(2).numel() == 1 && ctx.input(2).dtype() == a.dtype());
    const bool bZpOk = !ctx.hasInput(bzi_) || (ctx.input(bzi_).dtype() == b.dtype() &&
                                                (ctx.input(bzi_).numel() == 1 || ctx.input(bzi_).numel() == d.N));
    if (!aZpOk || !bZpOk || (q_ && !floatScales(ctx, 1, 4, 6, 7, d.N))) return referenceMatMul(ctx, q_);

    const std::vector<qg::PackedQB>* packs = packs_.get();
    if (!packs) {
      const Tensor* z = ctx.hasInput(bzi_) ? &ctx.input(bzi_) : nullptr;
      runPacks_ = packAll(b, z, d.K, d.N);
      packs = &runPacks_;
    }
    qg::QEpilogue ep;
    Tensor& out = ctx.output(0);
    ep.kind = outKind(q_, out.dtype());
    ep.ldc = d.N;
    if (q_) {
      multipliersF(ctx, 1, 4, 6, d.N, scales_);
      ep.scale = scales_.data();
      ep.zp = toInt32(ctx.input(7), ctx.node())[0];
    }
    const int32_t za = ctx.hasInput(2) ? toInt32(ctx.input(2), ctx.node())[0] : 0;
    const size_t esize = ep.kind == qg::QOut::kInt32 ? 4 : 1;
    const std::vector<int64_t> offA = cpu::broadcastOffsets(d.batchA, d.batch, d.M * d.K);
    const std::vector<int64_t> offB = cpu::broadcastOffsets(d.batchB, d.batch, d.K * d.N);
    const auto* av = a.data<uint8_t>();
    auto* ov = static_cast<uint8_t*>(out.data());
    for (size_t bt = 0; bt < offA.size(); ++bt) {
      ep.out = ov + bt * d.M * d.N * esize;
      const size_t slice = d.K * d.N == 0 ? 0 : static_cast<size_t>(offB[bt] / (d.K * d.N));
      qg::gemm(d.M, av + offA[bt], a.dtype() == DataType::kInt8, d.K, za, (*packs)[slice], ep, &ctx.pool(),
               &scratch_);
    }
  }

 private:
  // Every K x N slice of B packed.
  std::vector<qg::PackedQB> packAll(const Tensor& b, const Tensor* z, int64_t K, int64_t N) const {
    std::vector<int32_t> zb;
    if (z) zb = toInt32(*z, Node());
    const int64_t slices = K * N == 0 ? 1 : b.numel() / (K * N);
    std::vector<qg::PackedQB> out;
    for (int64_t s = 0; s < slices; ++s)
      out.push_back(qg::packQB(isa_, b.data<uint8_t>() + s * K * N, b.dtype() == DataType::kInt8, false, K, N, N,
                               z ? zb.data() : nullptr, static_cast<int64_t>(zb.size())));
    return out;
  }

  bool q_;
  size_t bi_, bzi_;
  KernelIsa isa_;
  std::shared_ptr<const std::vector<qg::PackedQB>> packs_;
  std::vector<qg::PackedQB> runPacks_;
  std::vector<float> scales_;
  qg::QGemmScratch scratch_;
};

// ---- conv ---------------------------------------------------------------

enum class QConvAlgo { kReference, kPointwise, kIm2col, kDepthwise };

struct QConvWeights {
  std::vector<qg::PackedQB> groups;  // im2col / 1x1: per group, rows (tap, channel)
  std::vector<int32_t> dw;           // depthwise: per channel, its taps minus its zero point
};

// One depthwise plane's geometry (canonical 2-d: H x W -> OH x OW), and
// the padded int16 copy of the plane the kernel reads: PH x PW values of
// x - zx (0 outside the image: the padding holds zx), PW wide enough that
// every output row is computed over OWp = OW rounded up to 16 (the extra
// columns are dropped), so the inner loops run whole vectors.
struct DwGeom {
  int64_t H, W, OH, OW, kh, kw, sy, sx, dy, dx, py, px;
  int64_t OWp() const { return (OW + 15) / 16 * 16; }
  int64_t PH() const { return (OH - 1) * sy + (kh - 1) * dy + 1; }
  int64_t PW() const { return (OWp() - 1) * sx + (kw - 1) * dx + 1; }
  // A padded row is stored as sx phases (column c at phase c % sx, index
  // c / sx), so a tap's columns i * sx + o are contiguous for any stride.
  int64_t phaseW() const { return (PW() + sx - 1) / sx; }
  int64_t rowW() const { return phaseW() * sx; }
  // The padded copy's bytes, rounded up to 64 so the int32 sums after it
  // are aligned (PH * rowW int16 values can be an odd count).
  size_t padBytes() const { return (static_cast<size_t>(PH() * rowW()) * sizeof(int16_t) + 63) / 64 * 64; }
  // Scratch of one plane: the padded copy, the sums and the stored row.
  size_t scratchBytes() const { return padBytes() + static_cast<size_t>(OWp()) * (2 * sizeof(int32_t)); }
};

// One plane: acc[ox] = bias + sum (x - zx) * w', stored as OT (int32, or
// requantized).
template <class XT, class OT>
__attribute__((always_inline)) inline void dwPlane(const DwGeom& g, const XT* x, const int32_t* w, int32_t zx,
                                                   int32_t bias, float scale, int32_t zp, OT* y, uint8_t* scratch) {
  const int64_t PH = g.PH(), PW = g.PW(), OWp = g.OWp(), RW = g.rowW(), PS = g.phaseW();
  auto* pad = reinterpret_cast<int16_t*>(scratch);
  auto* acc = reinterpret_cast<int32_t*>(scratch + g.padBytes());
  auto* row = reinterpret_cast<OT*>(acc + OWp);
  for (int64_t r = 0; r < PH; ++r) {
    int16_t* dst = pad + r * RW;
    const int64_t iy = r - g.py;
    for (int64_t c = 0; c < RW; ++c) dst[c] = 0;
    if (iy < 0 || iy >= g.H) continue;
    const int64_t c0 = std::max<int64_t>(0, g.px), c1 = std::min(PW, g.px + g.W);  // columns inside the image
    const XT* src = x + iy * g.W - g.px;
    if (g.sx == 1) {
      for (int64_t c = c0; c < c1; ++c) dst[c] = static_cast<int16_t>(static_cast<int32_t>(src[c]) - zx);
    } else {
      for (int64_t ph = 0; ph < g.sx; ++ph) {  // columns j * sx + ph in [c0, c1)
        const int64_t j0 = c0 > ph ? (c0 - ph + g.sx - 1) / g.sx : 0, j1 = c1 > ph ? (c1 - ph + g.sx - 1) / g.sx : 0;
        int16_t* d = dst + ph * PS;
        for (int64_t j = j0; j < j1; ++j) d[j] = static_cast<int16_t>(static_cast<int32_t>(src[j * g.sx + ph]) - zx);
      }
    }
  }
  // Column i * sx + o of a padded row.
  auto tap = [&](const int16_t* prow, int64_t o) { return prow + (o % g.sx) * PS + o / g.sx; };
  for (int64_t oy = 0; oy < g.OH; ++oy) {
    for (int64_t i = 0; i < OWp; ++i) acc[i] = bias;
    for (int64_t ky = 0; ky < g.kh; ++ky) {
      const int16_t* prow = pad + (oy * g.sy + ky * g.dy) * RW;
      if (g.kw == 3) {  // the common width: one pass over the row's sums per ky, not three
        const int32_t w0 = w[ky * 3], w1 = w[ky * 3 + 1], w2 = w[ky * 3 + 2];
        const int16_t *b0 = tap(prow, 0), *b1 = tap(prow, g.dx), *b2 = tap(prow, 2 * g.dx);
        for (int64_t i = 0; i < OWp; ++i) acc[i] += b0[i] * w0 + b1[i] * w1 + b2[i] * w2;
        continue;
      }
      for (int64_t kx = 0; kx < g.kw; ++kx) {
        const int32_t wv = w[ky * g.kw + kx];
        const int16_t* base = tap(prow, kx * g.dx);
        for (int64_t i = 0; i < OWp; ++i) acc[i] += base[i] * wv;
      }
    }
    for (int64_t i = 0; i < OWp; ++i) {
      if constexpr (std::is_same_v<OT, int32_t>) row[i] = acc[i];
      else if constexpr (std::is_same_v<OT, uint8_t>) row[i] = static_cast<uint8_t>(qg::requantize<0, 255>(acc[i], scale, zp));
      else row[i] = static_cast<int8_t>(qg::requantize<-128, 127>(acc[i], scale, zp));
    }
    std::memcpy(y + oy * g.OW, row, static_cast<size_t>(g.OW) * sizeof(OT));
  }
}

template <class XT, class OT>
void dwPortable(const DwGeom& g, const XT* x, const int32_t* w, int32_t zx, int32_t b, float s, int32_t zp, OT* y,
                uint8_t* scratch) {
  dwPlane(g, x, w, zx, b, s, zp, y, scratch);
}
#if defined(__x86_64__)
template <class XT, class OT>
__attribute__((target("avx2"))) void dwAvx2(const DwGeom& g, const XT* x, const int32_t* w, int32_t zx, int32_t b,
                                            float s, int32_t zp, OT* y, uint8_t* scratch) {
  dwPlane(g, x, w, zx, b, s, zp, y, scratch);
}
template <class XT, class OT>
__attribute__((target("avx512f,avx512bw,avx512dq,avx512vl"))) void dwAvx512(const DwGeom& g, const XT* x,
                                                                           const int32_t* w, int32_t zx, int32_t b,
                                                                           float s, int32_t zp, OT* y,
                                                                           uint8_t* scratch) {
  dwPlane(g, x, w, zx, b, s, zp, y, scratch);
}
#endif

template <class XT, class OT>
void dwRun(KernelIsa isa, const DwGeom& g, const XT* x, const int32_t* w, int32_t zx, int32_t b, float s, int32_t zp,
           OT* y, uint8_t* scratch) {
#if defined(__x86_64__)
  if (isa == KernelIsa::kAvx512) return dwAvx512(g, x, w, zx, b, s, zp, y, scratch);
  if (isa == KernelIsa::kAvx2) return dwAvx2(g, x, w, zx, b, s, zp, y, scratch);
#endif
  dwPortable(g, x, w, zx, b, s, zp, y, scratch);
}

class QConvKernel final : public Kernel {
 public:
  QConvKernel(const KernelInit& init, bool qlinear)
      : q_(qlinear), wi_(qlinear ? 3 : 1), wzi_(qlinear ? 5 : 3), gemmIsa_(qg::chooseQGemm()),
        dwIsa_(cpu::vectorIsa(cpu::cpuFeatures())) {
    const Tensor* w = init.constInput(wi_);
    const Tensor* z = init.hasInput(wzi_) ? init.constInput(wzi_) : nullptr;
    if (!w || w->rank() < 3 || w->rank() > 5 || !int8Type(w->dtype()) || (init.hasInput(wzi_) && !z)) return;
    const int64_t M = w->dim(0), Cg = w->dim(1);
    if (z && (z->dtype() != w->dtype() || (z->numel() != 1 && z->numel() != M))) return;
    const size_t nd = w->rank() - 2;
    try {
      attrs_ = shape::parseWindowAttrs(init.node, nd, false);
    } catch (const Error&) {
      return;  // the reference reports it at run time
    }
    group_ = init.node.attrInt("group", 1);
    if (group_ <= 0 || M % group_ != 0 || M == 0) return;
    const int64_t Mg = M / group_;
    bool unit = true;
    for (size_t d = 0; d < nd; ++d) {
      if (w->dim(2 + d) != 1 || attrs_.strides[d] != 1) unit = false;
      if (attrs_.pads[d] != 0 || attrs_.pads[d + nd] != 0) unit = false;
    }
    algo_ = Cg == 1 && Mg == 1 && nd <= 2 ? QConvAlgo::kDepthwise : unit ? QConvAlgo::kPointwise : QConvAlgo::kIm2col;
    const std::string layout = (algo_ == QConvAlgo::kDepthwise ? "qconv-dw" : qg::algorithmName(gemmIsa_) + " conv") +
                               std::string(" g") + std::to_string(group_) + zpKey(z);
    weights_ = init.packedWeight<QConvWeights>(wi_, layout, [&] { return pack(*w, z, Mg); }, false);
  }

  std::string algorithm() const override {
    switch (algo_) {
      case QConvAlgo::kDepthwise: return std::string("depthwise-int8 ") + cpu::isaName(dwIsa_);
      case QConvAlgo::kPointwise: return std::string("qgemm-1x1 ") + cpu::isaName(gemmIsa_);
      case QConvAlgo::kIm2col: return std::string("qgemm-im2col ") + cpu::isaName(gemmIsa_);
      case QConvAlgo::kReference: break;
    }
    return "reference portable";
  }

  void run(KernelContext& ctx) override {
    if (algo_ == QConvAlgo::kReference) return referenceConv(ctx, q_);
    const Tensor &x = ctx.input(0), &w = ctx.input(wi_);
    const bool xZpOk = !ctx.hasInput(2) || (ctx.input(2).numel() == 1 && ctx.input(2).dtype() == x.dtype());
    if (!xZpOk || x.rank() != w.rank() || (q_ && !floatScales(ctx, 1, 4, 6, 7, w.dim(0))) ||
        (q_ && ctx.hasInput(8) && ctx.input(8).numel() != w.dim(0)))
      return referenceConv(ctx, q_);
    const conv::ConvGeom g = convGeom(ctx, attrs_, group_, x, w, wi_);
    qg::QEpilogue ep;
    Tensor& out = ctx.output(0);
    ep.kind = outKind(q_, out.dtype());
    if (q_) {
      multipliersF(ctx, 1, 4, 6, g.M, scales_);
      ep.scale = scales_.data();
      ep.zp = toInt32(ctx.input(7), ctx.node())[0];
    }
    const int32_t* bias = q_ && ctx.hasInput(8) ? ctx.input(8).data<int32_t>() : nullptr;
    const int32_t zx = ctx.hasInput(2) ? toInt32(ctx.input(2), ctx.node())[0] : 0;
    if (algo_ == QConvAlgo::kDepthwise) return runDepthwise(ctx, g, x, zx, bias, ep, out);
    runGemm(ctx, g, x, zx, bias, ep, out);
  }

 private:
  QConvWeights pack(const Tensor& w, const Tensor* z, int64_t Mg) const {
    QConvWeights p;
    const int64_t M = w.dim(0), Cg = w.dim(1), taps = w.numel() / std::max<int64_t>(M * Cg, 1), Kg = Cg * taps;
    const std::vector<int32_t> wv = toInt32(w, Node());
    std::vector<int32_t> zw(static_cast<size_t>(M), 0);
    if (z) {
      const std::vector<int32_t> zv = toInt32(*z, Node());
      for (int64_t m = 0; m < M; ++m) zw[m] = zv[zv.size() == 1 ? 0 : m];
    }
    if (algo_ == QConvAlgo::kDepthwise) {
      p.dw.resize(static_cast<size_t>(M * taps));
      for (int64_t m = 0; m < M; ++m)
        for (int64_t t = 0; t < taps; ++t) p.dw[m * taps + t] = wv[m * taps + t] - zw[m];
      return p;
    }
    // Rows of B^T (one per output channel) reordered to (tap, channel).
    const bool s8 = w.dtype() == DataType::kInt8;
    std::vector<uint8_t> bt(static_cast<size_t>(Mg * Kg));
    for (int64_t gi = 0; gi < group_; ++gi) {
      for (int64_t m = 0; m < Mg; ++m)
        for (int64_t c = 0; c < Cg; ++c)
          for (int64_t t = 0; t < taps; ++t)
            bt[m * Kg + t * Cg + c] = static_cast<uint8_t>(wv[((gi * Mg + m) * Cg + c) * taps + t]);
      p.groups.push_back(qg::packQB(gemmIsa_, bt.data(), s8, true, Kg, Mg, Kg, zw.data() + gi * Mg, Mg));
    }
    return p;
  }

  void runDepthwise(KernelContext& ctx, const conv::ConvGeom& g, const Tensor& x, int32_t zx, const int32_t* bias,
                    const qg::QEpilogue& ep, Tensor& out) {
    const DwGeom d{g.img[1], g.img[2], g.grid[1], g.grid[2], g.k[1], g.k[2], g.s[1], g.s[2],
                   g.dil[1], g.dil[2], g.padBegin[1], g.padBegin[2]};
    const int64_t taps = g.K, C = g.C;
    const int32_t* w = weights_->dw.data();
    ctx.pool().parallelFor(g.N * C, [&](int64_t b, int64_t e) {
      std::vector<uint8_t> scratch(d.scratchBytes());  // one plane's, reused over this range
      for (int64_t t = b; t < e; ++t) {
        const int64_t c = t % C;
        const int32_t bc = bias ? bias[c] : 0;
        const float sc = ep.scale ? ep.scale[c] : 0.f;
        uint8_t* sp = scratch.data();
        dispatchType<uint8_t, int8_t>(x.dtype(), [&](auto tag) {
          using XT = typename decltype(tag)::type;
          const XT* xp = x.data<XT>() + t * g.imgSize;
          switch (ep.kind) {
            case qg::QOut::kUInt8:
              dwRun(dwIsa_, d, xp, w + c * taps, zx, bc, sc, ep.zp, out.data<uint8_t>() + t * g.gridSize, sp);
              break;
            case qg::QOut::kInt8:
              dwRun(dwIsa_, d, xp, w + c * taps, zx, bc, sc, ep.zp, out.data<int8_t>() + t * g.gridSize, sp);
              break;
            default:
              dwRun(dwIsa_, d, xp, w + c * taps, zx, bc, sc, ep.zp, out.data<int32_t>() + t * g.gridSize, sp);
              break;
          }
        }, ctx.node());
      }
    }, 1);
  }

  void runGemm(KernelContext& ctx, const conv::ConvGeom& g, const Tensor& x, int32_t zx, const int32_t* bias,
               qg::QEpilogue ep, Tensor& out) {
    const int64_t C = g.C, M = g.M, Cg = g.Cg, Mg = g.Mg, img = g.imgSize, grid = g.gridSize;
    const int64_t Kg = Cg * g.K;
    const bool aSigned = x.dtype() == DataType::kInt8;
    const size_t esize = ep.kind == qg::QOut::kInt32 ? 4 : 1;
    ThreadPool& pool = ctx.pool();
    xh_.resize(static_cast<size_t>(img * C));
    yh_.resize(static_cast<size_t>(grid * M) * esize);
    if (algo_ == QConvAlgo::kIm2col) col_.resize(static_cast<size_t>(grid * Kg));
    const uint8_t zxByte = static_cast<uint8_t>(zx);
    for (int64_t n = 0; n < g.N; ++n) {
      const uint8_t* xs = x.data<uint8_t>() + n * C * img;
      transposeBytes(xs, C, img, img, xh_.data(), C, pool);  // NCHW -> NHWC
      for (int64_t gi = 0; gi < g.G; ++gi) {
        const uint8_t* A = xh_.data() + gi * Cg;
        int64_t lda = C;
        if (algo_ == QConvAlgo::kIm2col) {
          pool.parallelFor(grid, [&](int64_t b, int64_t e) {
            for (int64_t p = b; p < e; ++p) im2colRow(g, p, gi, zxByte, col_.data() + p * Kg);
          }, 64);
          A = col_.data();
          lda = Kg;
        }
        ep.out = yh_.data() + gi * Mg * esize;
        ep.ldc = M;
        ep.bias = bias ? bias + gi * Mg : nullptr;
        if (ep.scale) ep.scale = scales_.data() + gi * Mg;
        qg::gemm(grid, A, aSigned, lda, zx, weights_->groups[gi], ep, &pool, &scratch_);
      }
      // pixels x channels -> NCHW.
      uint8_t* ys = static_cast<uint8_t*>(out.data()) + n * M * grid * esize;
      if (esize == 1) {
        transposeBytes(yh_.data(), grid, M, M, ys, grid, pool);
      } else {
        auto* y32 = reinterpret_cast<int32_t*>(ys);
        const auto* h32 = reinterpret_cast<const int32_t*>(yh_.data());
        pool.parallelFor((M + 7) / 8, [&](int64_t b, int64_t e) {
          for (int64_t m0 = b * 8; m0 < std::min(M, e * 8); m0 += 8)
            for (int64_t p = 0; p < grid; ++p)
              for (int64_t m = m0; m < std::min(M, m0 + 8); ++m) y32[m * grid + p] = h32[p * M + m];
        }, 1);
      }
    }
  }

  // The window of output pixel p of group gi: taps outer, channels inner.
  // With one group and no dilation along x, a window row inside the image
  // is one run of k * C bytes of the NHWC image.
  void im2colRow(const conv::ConvGeom& g, int64_t p, int64_t gi, uint8_t zx, uint8_t* dst) const {
    const int64_t Cg = g.Cg, C = g.C;
    const int64_t ox = p % g.grid[2], oy = p / g.grid[2] % g.grid[1], oz = p / (g.grid[2] * g.grid[1]);
    const int64_t ix0 = ox * g.s[2] - g.padBegin[2];
    const bool wholeRows = Cg == C && g.dil[2] == 1 && ix0 >= 0 && ix0 + g.k[2] <= g.img[2];
    for (int64_t tz = 0; tz < g.k[0]; ++tz) {
      const int64_t iz = oz * g.s[0] - g.padBegin[0] + tz * g.dil[0];
      for (int64_t ty = 0; ty < g.k[1]; ++ty) {
        const int64_t iy = oy * g.s[1] - g.padBegin[1] + ty * g.dil[1];
        const bool rowIn = iz >= 0 && iz < g.img[0] && iy >= 0 && iy < g.img[1];
        const uint8_t* rowSrc = xh_.data() + (iz * g.img[1] + iy) * g.img[2] * C + gi * Cg;
        if (rowIn && wholeRows) {
          copyBytes(dst, rowSrc + ix0 * C, g.k[2] * C);
          dst += g.k[2] * C;
          continue;
        }
        for (int64_t tx = 0; tx < g.k[2]; ++tx, dst += Cg) {
          const int64_t ix = ix0 + tx * g.dil[2];
          if (!rowIn || ix < 0 || ix >= g.img[2]) std::memset(dst, zx, static_cast<size_t>(Cg));
          else copyBytes(dst, rowSrc + ix * C, Cg);
        }
      }
    }
  }

  // memcpy in 64-byte pieces of constant size (inlined as vector moves:
  // the runs here are short, a call per run cost 11% of a 3x3 conv).
  static void copyBytes(uint8_t* dst, const uint8_t* src, int64_t n) {
    int64_t i = 0;
    for (; i + 64 <= n; i += 64) std::memcpy(dst + i, src + i, 64);
    for (; i + 16 <= n; i += 16) std::memcpy(dst + i, src + i, 16);
    if (i < n) std::memcpy(dst + i, src + i, static_cast<size_t>(n - i));
  }

  bool q_;
  size_t wi_, wzi_;
  KernelIsa gemmIsa_, dwIsa_;
  QConvAlgo algo_ = QConvAlgo::kReference;
  shape::WindowAttrs attrs_;
  int64_t group_ = 1;
  std::shared_ptr<const QConvWeights> weights_;
  std::vector<float> scales_;
  std::vector<uint8_t> xh_, col_, yh_;
  qg::QGemmScratch scratch_;
};

}  // namespace

std::unique_ptr<Kernel> makeQMatMulKernel(const KernelInit& init, bool qlinear) {
  return std::make_unique<QMatMulKernel>(init, qlinear);
}

std::unique_ptr<Kernel> makeQConvKernel(const KernelInit& init, bool qlinear) {
  return std::make_unique<QConvKernel>(init, qlinear);
}

}  // namespace oinfer::quant
