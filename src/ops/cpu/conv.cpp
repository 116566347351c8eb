// Conv (opsets 1, 11, 22) on the CPU, float32 and float64, and the internal
// FusedConv (domain ai.oinfer, made by the fuse_conv_activation pass): Conv
// plus an optional residual input Z and an activation, in one pass over Y.
//
// float32 (and float16/bfloat16 through it) runs on the packed GEMM with
// weights packed once per plan (conv_fast.cpp, which documents those
// strategies); float64 keeps the Eigen path described below.
//
// Every rank (1-d, 2-d, 3-d) runs through one canonical 3-d geometry
// (conv_common.h): missing leading spatial dims get size 1, kernel 1,
// stride 1, no padding. Per group g and image n the convolution is the GEMM
//   Y[n, g] (Mg x P) = W[g] (Mg x Cg*K) * col (Cg*K x P)
// where P is the output plane size, K the kernel size and col the im2col
// matrix of the input. W's ONNX layout [M, Cg, k...] already is the row-major
// Mg x Cg*K left operand for each group, so the "packing" of a constant W is
// holding it (zero-copy) and validating its shape once in the factory.
//
// float64 strategies, chosen per shape (in the factory when the input shape
// is static, else per call):
//  - pointwise: 1x1 kernel, stride 1, no padding. The NCHW input of a group
//    already is the Cg x P right operand, so the GEMM reads it directly; no
//    im2col, no scratch.
//  - depthwise: one input channel per group (Cg == 1, G > 1). A GEMM with a
//    K-deep inner dimension wastes its packing, so a direct loop runs per
//    output row and kernel tap an axpy over the output columns whose tap
//    lies inside the input (ranges precomputed per kernel column), which
//    vectorises for stride 1.
//  - im2col: everything else. The output plane is cut into column tiles;
//    each task gathers the Cg*K x tile slice of col into a per-task scratch
//    buffer (bounded to ~512 KB so it stays in cache) and runs an Eigen GEMM
//    straight into the strided Y block; bias is added right after, while
//    the block is still in cache.
// Work is split over (batch x group x column tile) so that two threads also
// help a batch-1, group-1 call. Limits: at most 3 spatial dims; no Winograd
// or NHWC path; im2col costs K times the input in memory traffic for large
// kernels.
#include <Eigen/Core>
#include <memory>
#include <optional>

#include "ops/cpu/compute_in_float.h"
#include "ops/cpu/conv_common.h"
#include "ops/cpu/conv_fast.h"
#include "ops/cpu/conv_kernels.h"
#include "ops/cpu/conv_maxpool.h"
#include "ops/cpu/conv_select.h"
#include "ops/cpu/dispatch.h"
#include "ops/cpu/gemm/sgemm.h"

namespace oinfer {

namespace conv {

[[noreturn]] void fail(const Node& node, ErrorCode code, const std::string& msg) {
  throw Error(code, node.describe() + ": " + msg);
}

std::string inputDesc(const Node& node, size_t i) {
  return "input " + std::to_string(i) + " ('" + node.inputs[i] + "')";
}

// Input i: the constant the plan kept (`kept`, when defined), else the
// run's tensor, else null (an absent optional input).
const Tensor* constOrInput(const Tensor& kept, const KernelContext& ctx, size_t i) {
  if (kept.defined()) return &kept;
  return ctx.hasInput(i) ? &ctx.input(i) : nullptr;
}

ConvGeom convGeom(const Node& node, const shape::WindowAttrs& a, int64_t group, const std::vector<int64_t>& xs,
                  const std::vector<int64_t>& ws, size_t weightInput) {
  if (xs.size() < 3) fail(node, ErrorCode::kShapeMismatch, inputDesc(node, 0) + " has shape " + shapeToString(xs) + ", expected rank >= 3");
  if (ws.size() != xs.size())
    fail(node, ErrorCode::kShapeMismatch, inputDesc(node, weightInput) + " has shape " + shapeToString(ws) + ", rank differs from " +
                                              inputDesc(node, 0) + " " + shapeToString(xs));
  const size_t nd = xs.size() - 2;
  if (nd > conv::kMaxSpatial)
    fail(node, ErrorCode::kNotImplemented, "only 1 to 3 spatial dims are supported, got " + std::to_string(nd));
  ConvGeom g;
  g.N = xs[0];
  g.C = xs[1];
  g.M = ws[0];
  g.G = group;
  if (group <= 0 || g.C != ws[1] * group || g.M % group != 0)
    fail(node, ErrorCode::kShapeMismatch, inputDesc(node, 0) + " " + shapeToString(xs) + " and " + inputDesc(node, weightInput) + " " +
                                              shapeToString(ws) + " do not agree with group " + std::to_string(group));
  g.Cg = g.C / group;
  g.Mg = g.M / group;
  for (size_t d = 0; d < nd; ++d) {
    const size_t s = conv::slot(nd, d);
    const int64_t k = ws[d + 2];
    if (!a.kernel.empty() && a.kernel[d] != k)
      fail(node, ErrorCode::kShapeMismatch, "attribute 'kernel_shape' " + shapeToString(a.kernel) + " disagrees with " +
                                                inputDesc(node, weightInput) + " " + shapeToString(ws));
    const shape::WindowDim wd = shape::windowDim(node, a, d, xs[d + 2], k);
    g.img[s] = xs[d + 2];
    g.grid[s] = wd.out;
    g.k[s] = k;
    g.s[s] = a.strides[d];
    g.dil[s] = a.dilations[d];
    g.padBegin[s] = wd.padBegin;
    if (wd.padBegin != 0 || wd.padEnd != 0) g.noPadding = false;
  }
  for (size_t s = 0; s < conv::kMaxSpatial; ++s) {
    g.K *= g.k[s];
    g.imgSize *= g.img[s];
    g.gridSize *= g.grid[s];
  }
  return g;
}

// The NCHW and blocked depthwise kernels (no GEMM-packed weights).
bool isDepthwiseAlgorithm(ConvAlgorithm a) {
  return a == ConvAlgorithm::kDepthwiseSmallPlanes || a == ConvAlgorithm::kDepthwise3x3Rows ||
         a == ConvAlgorithm::kDepthwisePlanes || a == ConvAlgorithm::kDepthwiseRows ||
         a == ConvAlgorithm::kDepthwiseLoop || a == ConvAlgorithm::kDepthwiseBlocked;
}

}  // namespace conv

namespace {

using conv::ConvGeom;
using shape::WindowAttrs;

template <class T>
using MatR = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Stride = Eigen::OuterStride<>;

using conv::ConvAlgorithm;
using conv::constOrInput;
using conv::convGeom;
using conv::fail;
using conv::inputDesc;
using conv::isDepthwiseAlgorithm;

template <class T>
void depthwise(ThreadPool& pool, const ConvGeom& g, const T* x, const T* w, const T* b, T* y) {
  const int64_t rowsPerPlane = g.grid[0] * g.grid[1];
  const int64_t W = g.img[2], OW = g.grid[2], s2 = g.s[2];
  // Per kernel column kw: the output columns [lo, hi) whose tap lands inside
  // the input row, so the inner loop is a bounds-free (vectorisable) axpy.
  std::vector<std::pair<int64_t, int64_t>> cols(g.k[2]);
  for (int64_t kw = 0; kw < g.k[2]; ++kw) {
    const int64_t iw0 = conv::tapCoord(g, 2, 0, kw);
    int64_t lo = iw0 < 0 ? (-iw0 + s2 - 1) / s2 : 0;
    int64_t hi = iw0 >= W ? 0 : (W - 1 - iw0) / s2 + 1;
    lo = std::min(lo, OW);
    cols[kw] = {lo, std::clamp(hi, lo, OW)};
  }
  const int64_t grain = std::max<int64_t>(1, 4096 / std::max<int64_t>(1, OW * g.K));
  pool.parallelFor(g.N * g.M * rowsPerPlane, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      const int64_t plane = r / rowsPerPlane, od = (r / g.grid[1]) % g.grid[0], oh = r % g.grid[1];
      const int64_t n = plane / g.M, m = plane % g.M, c = m / g.Mg;
      const T* xp = x + (n * g.C + c) * g.imgSize;
      const T* wp = w + m * g.K;
      T* yrow = y + plane * g.gridSize + (od * g.grid[1] + oh) * OW;
      std::fill(yrow, yrow + OW, b ? b[m] : T(0));
      for (int64_t kd = 0; kd < g.k[0]; ++kd) {
        const int64_t id = conv::tapCoord(g, 0, od, kd);
        if (id < 0 || id >= g.img[0]) continue;
        for (int64_t kh = 0; kh < g.k[1]; ++kh) {
          const int64_t ih = conv::tapCoord(g, 1, oh, kh);
          if (ih < 0 || ih >= g.img[1]) continue;
          const T* xr = xp + (id * g.img[1] + ih) * W;
          const T* wk = wp + (kd * g.k[1] + kh) * g.k[2];
          for (int64_t kw = 0; kw < g.k[2]; ++kw) {
            const T wv = wk[kw];
            const int64_t off = conv::tapCoord(g, 2, 0, kw);
            const auto [lo, hi] = cols[kw];
            if (s2 == 1) {
              for (int64_t ow = lo; ow < hi; ++ow) yrow[ow] += wv * xr[ow + off];
            } else {
              for (int64_t ow = lo; ow < hi; ++ow) yrow[ow] += wv * xr[ow * s2 + off];
            }
          }
        }
      }
    }
  }, grain);
}

// pointwise: the reference 1x1 (kReferenceGemm1x1), else im2col tiles.
template <class T>
void gemmConv(ThreadPool& pool, const ConvGeom& g, bool pointwise, const T* x, const T* w, const T* b, T* y) {
  const int64_t P = g.gridSize, CK = g.Cg * g.K;
  const int64_t want = pool.size() > 1 ? 4 * pool.size() : 1;
  const int64_t maxTile = !pointwise ? (int64_t{1} << 17) / CK : P;
  const int64_t L = conv::chooseTile(P, g.N * g.G, want, 64, maxTile);
  const int64_t tiles = (P + L - 1) / L;
  pool.parallelFor(g.N * g.G * tiles, [&](int64_t begin, int64_t end) {
    std::unique_ptr<T[]> scratch(!pointwise ? new T[CK * L] : nullptr);
    for (int64_t t = begin; t < end; ++t) {
      const int64_t n = t / (g.G * tiles), grp = (t / tiles) % g.G, p0 = (t % tiles) * L;
      const int64_t len = std::min(L, P - p0);
      const T* xg = x + (n * g.C + grp * g.Cg) * g.imgSize;
      T* yg = y + (n * g.M + grp * g.Mg) * P + p0;
      Eigen::Map<const MatR<T>> wm(w + grp * g.Mg * CK, g.Mg, CK);
      Eigen::Map<MatR<T>, 0, Stride> ym(yg, g.Mg, len, Stride(P));
      if (pointwise) {
        ym.noalias() = wm * Eigen::Map<const MatR<T>, 0, Stride>(xg + p0, g.Cg, len, Stride(P));
      } else {
        conv::im2col(g, g.Cg, xg, scratch.get(), p0, len);
        ym.noalias() = wm * Eigen::Map<const MatR<T>>(scratch.get(), CK, len);
      }
      if (b)
        for (int64_t m = 0; m < g.Mg; ++m) ym.row(m).array() += b[grp * g.Mg + m];
    }
  });
}

// The workspace the float32 algorithm `algo` takes for g (conv_fast.h).
ScratchNeed scratchFor(const ConvGeom& g, ConvAlgorithm algo, bool inBlocked, int threads) {
  switch (algo) {
    case ConvAlgorithm::kWinogradF2: return conv::winogradScratch(g, 2);
    case ConvAlgorithm::kWinogradF4: return conv::winogradScratch(g, 4);
    case ConvAlgorithm::kPixelVec: return conv::pixvecScratch(g);
    case ConvAlgorithm::kChannelVec: return conv::cvecScratch(g, inBlocked, threads);
    default: return conv::convFloatScratch(g, algo, threads);
  }
}

// Which of X, Y (and FusedConv's residual Z, tied to Y) can be blocked
// (ops/kernel.h): float32, 2-d, constant 4-d weights, a static input shape,
// and what conv::convBlockedLayouts says (the blocked depthwise kernel;
// Winograd or the channel-vector kernel for one group; the stems'
// pixel-vector kernel stays NCHW).
BlockedSupport convBlocked(const KernelInit& init) {
  BlockedSupport s;
  const Node& node = init.node;
  const ValueInfo* xi = init.inputs.empty() ? nullptr : init.inputs[0];
  const Tensor* w = init.constInput(1);
  if (!blockedCandidate(xi) || !w || w->dtype() != DataType::kFloat || w->rank() != 4) return s;
  if (init.hasInput(2) && init.inputs[2]->dtype != DataType::kFloat) return s;
  const bool fused = node.opType == "FusedConv";
  const GemmActivation act = fused ? conv::parseActivation(node).act : GemmActivation::kNone;
  const int64_t group = node.attrInt("group", 1);
  if (group < 1 || xi->shape[1].value != w->dim(1) * group || w->dim(0) % group != 0) return s;
  const ConvGeom g = convGeom(node, shape::parseWindowAttrs(node, 2, false), group, toStatic(xi->shape), w->shape());
  const conv::ConvBlocked b = conv::convBlockedLayouts(g, act);
  if (group != 1) {
    // The depthwise kernel's blocked form: X and Y (and Z) blocked together.
    if (b.in && b.out) {
      s.write = 1u;
      s.tied = 1u | (fused && init.hasInput(3) ? 1u << 3 : 0u);
    }
    return s;
  }
  if (!b.planned) return s;
  if (b.in) s.read |= 1u;
  if (b.out) s.write |= 1u;
  if (fused && init.hasInput(3)) s.tied |= 1u << 3;
  return s;
}

class ConvKernel final : public Kernel {
 public:
  explicit ConvKernel(const KernelInit& init) {
    const Node& node_ = init.node;
    group_ = node_.attrInt("group", 1);
    fused_ = node_.opType == "FusedConv";
    inBlocked_ = init.inBlocked(0);
    outBlocked_ = init.outBlocked(0);
    if (fused_) act_ = conv::parseActivation(node_);
    if (const Tensor* w = init.constInput(1)) w_ = *w;
    if (init.hasInput(2))
      if (const Tensor* b = init.constInput(2)) b_ = *b;
    const ValueInfo* xi = init.inputs.empty() ? nullptr : init.inputs[0];
    if (xi && xi->hasShape && xi->shape.size() >= 3) {
      attrs_ = shape::parseWindowAttrs(node_, xi->shape.size() - 2, false);
      std::vector<int64_t> ws;
      if (w_.defined()) ws = w_.shape();
      else if (init.inputs[1] && init.inputs[1]->hasShape && isStatic(init.inputs[1]->shape))
        ws = toStatic(init.inputs[1]->shape);
      if (isStatic(xi->shape) && !ws.empty()) {
        xShape_ = toStatic(xi->shape);
        wShape_ = ws;
        geom_ = convGeom(node_, *attrs_, group_, xShape_, wShape_);
      }
    }
    // Weights depend on W's shape and the group only, so a constant float W
    // is packed here even when the input shape is dynamic.
    const bool constW = w_.defined() && w_.dtype() == DataType::kFloat && w_.rank() >= 3 && group_ > 0 &&
                        w_.dim(0) % group_ == 0;
    // The choice for the planned shapes; Winograd and the tile kernels need
    // them (and constant weights, which they transform); another input shape
    // is chosen for per call, among the GEMMs and depthwise kernels.
    if (geom_) {
      conv::ConvQuery q;
      q.g = *geom_;
      // float64 runs the reference path; float32 (float16 / bfloat16 widened to it) the rest.
      q.float32 = (w_.defined() ? w_.dtype() : xi->dtype) != DataType::kDouble;
      q.act = act_.act;
      q.residual = fused_ && init.hasInput(3);
      q.constWeights = constW && w_.shape() == wShape_;
      q.inBlocked = inBlocked_;
      q.outBlocked = outBlocked_;
      choice_ = conv::chooseConv(q);
      plannedFloat_ = q.float32;
    }
    const ConvAlgorithm algo = geom_ ? choice_.algo : ConvAlgorithm::kNone;
    if (constW) {
      ConvGeom wg;
      wg.G = group_;
      wg.Mg = w_.dim(0) / group_;
      wg.Cg = w_.dim(1);
      wg.K = w_.numel() / std::max<int64_t>(1, w_.dim(0) * w_.dim(1));
      if (algo == ConvAlgorithm::kWinogradF2 || algo == ConvAlgorithm::kWinogradF4) {
        packedB_ = conv::packWinogradWeights(*geom_, w_.data<float>(), algo == ConvAlgorithm::kWinogradF4 ? 4 : 2);
      } else if (algo == ConvAlgorithm::kPixelVec) {
        packedB_ = conv::packPixvecWeights(*geom_, w_.data<float>());
      } else if (algo == ConvAlgorithm::kChannelVec) {
        packedB_ = conv::packCvecWeights(*geom_, w_.data<float>());
      } else if (!isDepthwiseAlgorithm(algo)) {
        packed_ = conv::packConvWeights(wg, w_.data<float>());
      }
    }
    if (inBlocked_ || outBlocked_) {
      if (algo == ConvAlgorithm::kDepthwiseBlocked) dwBlocked_ = conv::packDepthwiseBlocked(*geom_, w_.data<float>());
      else if (algo == ConvAlgorithm::kNone)
        init.fail("planned in the blocked layout, but neither the channel-vector kernel, Winograd nor the blocked "
                  "depthwise kernel applies");
    }
    // The planned shape's scratch; a float32 run with another shape gets
    // its own from the algorithm (conv_fast.h).
    if (geom_ && xi->dtype == DataType::kFloat)
      scratch_ = requestWorkspace(init, scratchFor(*geom_, choice_.algo, inBlocked_, init.threads()));
  }

  // chooseConv's for the planned shapes ("winograd-f4x4 avx512").
  std::string algorithm() const override { return geom_ ? choice_.name() : std::string("chosen per call"); }

  void run(KernelContext& ctx) override {
    const Node& node_ = ctx.node();
    const Tensor& x = ctx.input(0);
    const Tensor& w = w_.defined() ? w_ : ctx.input(1);
    const Tensor* b = constOrInput(b_, ctx, 2);
    ConvGeom g;
    ConvAlgorithm algo;
    if (geom_ && x.shape() == xShape_ && w.shape() == wShape_ && (x.dtype() == DataType::kFloat) == plannedFloat_) {
      g = *geom_;
      algo = choice_.algo;
    } else if (inBlocked_ || outBlocked_) {
      ctx.fail("input 0 has shape " + shapeToString(x.shape()) + ", planned as " + shapeToString(xShape_));
    } else {
      const WindowAttrs a = attrs_ && attrs_->strides.size() + 2 == x.rank()
                                ? *attrs_
                                : shape::parseWindowAttrs(node_, x.rank() >= 2 ? x.rank() - 2 : 0, false);
      g = convGeom(node_, a, group_, x.shape(), w.shape());
      conv::ConvQuery q;
      q.g = g;
      q.float32 = x.dtype() == DataType::kFloat;
      q.act = act_.act;
      q.residual = fused_ && ctx.hasInput(3);
      algo = conv::chooseConv(q).algo;
    }
    if (w.dtype() != x.dtype() || (b && b->dtype() != x.dtype()))
      ctx.fail("inputs must share one data type, got " + std::string(dataTypeName(x.dtype())) + ", " +
               dataTypeName(w.dtype()) + (b ? std::string(", ") + dataTypeName(b->dtype()) : ""));
    if (b && b->numel() != g.M)
      ctx.fail(inputDesc(node_, 2) + " has shape " + shapeToString(b->shape()) + ", expected [" + std::to_string(g.M) + "]");
    const Tensor* z = fused_ && ctx.hasInput(3) ? &ctx.input(3) : nullptr;
    Tensor& y = ctx.output(0);
    if (z && (z->shape() != y.shape() || z->dtype() != y.dtype()))
      ctx.fail("input 3 ('" + node_.inputs[3] + "') has shape " + shapeToString(z->shape()) +
               ", expected the output's " + shapeToString(y.shape()));
    if (y.numel() == 0) return;
    if (x.dtype() == DataType::kFloat) {
      // The requested workspace holds the planned shape's needs (the
      // algorithms check, and allocate for another shape).
      const Workspace ws = scratch_ ? workspace(ctx, *scratch_) : Workspace{};
      if (algo == ConvAlgorithm::kWinogradF2 || algo == ConvAlgorithm::kWinogradF4) {
        conv::convWinograd(ctx.pool(), g, x.data<float>(), packedB_, b ? b->data<float>() : nullptr,
                           z ? z->data<float>() : nullptr, y.data<float>(), act_, inBlocked_, outBlocked_, ws);
        return;
      }
      if (algo == ConvAlgorithm::kPixelVec) {
        conv::convPixvec(ctx.pool(), g, packedB_, x.data<float>(), b ? b->data<float>() : nullptr,
                         z ? z->data<float>() : nullptr, y.data<float>(), act_, ws);
        return;
      }
      if (algo == ConvAlgorithm::kChannelVec) {
        conv::convCvec(ctx.pool(), g, packedB_, x.data<float>(), b ? b->data<float>() : nullptr,
                       z ? z->data<float>() : nullptr, y.data<float>(), act_, inBlocked_, outBlocked_, ws);
        return;
      }
      if (algo == ConvAlgorithm::kDepthwiseBlocked) {
        conv::depthwiseBlocked(ctx.pool(), g, x.data<float>(), dwBlocked_.get(), b ? b->data<float>() : nullptr,
                               z ? z->data<float>() : nullptr, y.data<float>(), act_);
        return;
      }
      const bool usePacked = w_.defined() && !isDepthwiseAlgorithm(algo);
      conv::convFloat(ctx.pool(), g, algo, x.data<float>(), w.data<float>(), usePacked ? packed_ : noPacked_,
                      b ? b->data<float>() : nullptr, z ? z->data<float>() : nullptr, y.data<float>(), act_, ws);
      return;
    }
    if (fused_) ctx.fail("FusedConv runs on float32 only, got " + std::string(dataTypeName(x.dtype())));
    dispatchType<float, double>(x.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* bp = b ? b->data<T>() : nullptr;
      if (algo == ConvAlgorithm::kReferenceDepthwise)
        depthwise<T>(ctx.pool(), g, x.data<T>(), w.data<T>(), bp, y.data<T>());
      else
        gemmConv<T>(ctx.pool(), g, algo == ConvAlgorithm::kReferenceGemm1x1, x.data<T>(), w.data<T>(), bp,
                    y.data<T>());
    }, node_);
  }

 private:
  int64_t group_ = 1;
  Tensor w_, b_;
  std::optional<WindowAttrs> attrs_;
  std::vector<int64_t> xShape_, wShape_;
  std::optional<ConvGeom> geom_;
  conv::ConvChoice choice_;    // for geom_
  bool plannedFloat_ = true;   // choice_ made for float32 X
  bool fused_ = false;
  bool inBlocked_ = false, outBlocked_ = false;  // X / Y (and Z) in NCHW16c: the plan's static shapes, cvec
  conv::Activation act_;
  std::vector<PackedA> packed_, noPacked_;
  // Winograd: U = G w G^T per tile position; channel-vector: the weights in
  // 32-channel panels (packCvecWeights); pixel-vector: packPixvecWeights.
  std::vector<PackedB> packedB_;
  std::shared_ptr<float[]> dwBlocked_;  // depthwise on the blocked layout: packDepthwiseBlocked
  std::optional<WorkspaceIds> scratch_;  // requested for geom_ and choice_
};

}  // namespace

void register_conv(Registry& r) {
  for (int v : {1, 11, 22}) {
    OpDef d;
    d.opType = "Conv";
    d.sinceVersion = v;
    d.shape = shape::inferConv;
    d.cpu = cpu::computeInFloat(
        [](const KernelInit& init) -> std::unique_ptr<Kernel> { return std::make_unique<ConvKernel>(init); });
    d.types = {DataType::kFloat, DataType::kDouble, DataType::kFloat16, DataType::kBFloat16};
    d.blocked = convBlocked;
    r.add(std::move(d));
  }
  // FusedConv: Conv's inputs plus an optional residual Z (Y's shape), and
  // attributes activation (Relu, Clip, LeakyRelu, Sigmoid, HardSigmoid,
  // HardSwish, Tanh, SiLU, Gelu; empty: none) and activation_params.
  OpDef f;
  f.domain = "ai.oinfer";
  f.opType = "FusedConv";
  f.sinceVersion = 1;
  f.shape = shape::inferConv;
  f.cpu = cpu::computeInFloat(
      [](const KernelInit& init) -> std::unique_ptr<Kernel> { return std::make_unique<ConvKernel>(init); });
  f.types = {DataType::kFloat, DataType::kFloat16, DataType::kBFloat16};
  f.blocked = convBlocked;
  r.add(std::move(f));
  conv::register_conv_fused(r);
  conv::register_conv_transpose(r);
}

}  // namespace oinfer
