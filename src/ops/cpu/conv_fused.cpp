// The CPU-only fused conv pairs the passes make (float32; no CUDA kernel):
// FusedConvDepthwise (a 1x1 expand and the depthwise Conv over it) and
// FusedConvMaxPool (an image stem and its max-pool). Each runs its fused
// kernel where chooseConvDepthwise / chooseConvMaxPool take it, else the
// two ops in turn through a buffer it keeps.
#include <memory>
#include <optional>

#include "ops/cpu/conv_common.h"
#include "ops/cpu/conv_fast.h"
#include "ops/cpu/conv_kernels.h"
#include "ops/cpu/conv_maxpool.h"
#include "ops/cpu/conv_select.h"
#include "ops/cpu/gemm/sgemm.h"

namespace oinfer::conv {
namespace {

using shape::WindowAttrs;

// ai.oinfer FusedConvDepthwise (fuse_conv_depthwise pass): a 1x1 Conv (W, B,
// activation) and the depthwise Conv over its output (W_dw, B_dw,
// dw_activation; the node's window attributes), float32. Where the fused
// kernel applies (AVX-512, conv_expand_dw.cpp) the expanded tensor never
// exists whole; elsewhere both Convs run in turn through an expanded
// buffer the kernel keeps (grown on a new shape, then reused).
class FusedConvDepthwiseKernel final : public Kernel {
 public:
  explicit FusedConvDepthwiseKernel(const KernelInit& init) {
    const Node& node = init.node;
    act1_ = conv::parseActivation(node);
    act2_ = conv::parseActivation(node, "dw_");
    for (size_t i = 1; i < 5; ++i)
      if (init.hasInput(i))
        if (const Tensor* t = init.constInput(i)) consts_[i] = *t;
    attrs_ = shape::parseWindowAttrs(node, 2, false);
    // The choice for the planned shapes (for algorithm(); run() checks the
    // shapes and makes it again for others), and scratch for the path it
    // takes: the fused kernel's bands, or the two Convs in turn.
    const ValueInfo* xi = init.inputs.empty() ? nullptr : init.inputs[0];
    if (xi && xi->hasShape && isStatic(xi->shape) && xi->shape.size() == 4 && consts_[1].defined() &&
        consts_[1].rank() == 4 && consts_[3].defined()) {
      try {
        plan(node, toStatic(xi->shape), consts_[1].dim(0), consts_[3].shape());
      } catch (const Error&) {
        xShape_.clear();  // run() reports it
      }
      if (!xShape_.empty()) {
        ScratchNeed need = conv::expandDepthwiseScratch();
        need.cover(conv::convFloatScratch(ga_, choice_.algo, init.threads()));
        need.cover(conv::convFloatScratch(gb_, choice_.second, init.threads()));
        scratch_ = requestWorkspace(init, need);
      }
    }
  }

  std::string algorithm() const override { return xShape_.empty() ? std::string("chosen per call") : choice_.name(); }

  void run(KernelContext& ctx) override {
    const Node& node = ctx.node();
    const Tensor& x = ctx.input(0);
    auto in = [&](size_t i) { return constOrInput(consts_[i], ctx, i); };
    const Tensor* w1 = in(1);
    const Tensor* b1 = in(2);
    const Tensor* w2 = in(3);
    const Tensor* b2 = in(4);
    if (!w1 || !w2) ctx.fail("inputs 1 (W) and 3 (W_dw) are required");
    for (const Tensor* t : {&x, w1, b1, w2, b2})
      if (t && t->dtype() != DataType::kFloat)
        ctx.fail("runs on float32 only, got " + std::string(dataTypeName(t->dtype())));
    if (x.rank() != 4) fail(node, ErrorCode::kShapeMismatch, inputDesc(node, 0) + " has shape " + shapeToString(x.shape()) + ", expected rank 4");
    const int64_t N = x.dim(0), C = x.dim(1), H = x.dim(2), W = x.dim(3);
    if (w1->rank() != 4 || w1->dim(1) != C || w1->dim(2) != 1 || w1->dim(3) != 1)
      fail(node, ErrorCode::kShapeMismatch, inputDesc(node, 1) + " has shape " + shapeToString(w1->shape()) +
                                                ", expected [E," + std::to_string(C) + ",1,1]");
    const int64_t E = w1->dim(0);
    for (size_t i : {size_t{2}, size_t{4}})
      if (const Tensor* bias = in(i); bias && bias->numel() != E)
        fail(node, ErrorCode::kShapeMismatch, inputDesc(node, i) + " has shape " + shapeToString(bias->shape()) +
                                                  ", expected [" + std::to_string(E) + "]");
    if (x.shape() != xShape_ || w2->shape() != w2Shape_ || E != ga_.M) plan(node, x.shape(), E, w2->shape());
    const ConvGeom& ga = ga_;
    const ConvGeom& gb = gb_;
    Tensor& y = ctx.output(0);
    if (y.numel() == 0) return;
    const float* b1p = b1 ? b1->data<float>() : nullptr;
    const float* b2p = b2 ? b2->data<float>() : nullptr;
    // Sized for the planned shapes; the algorithms check it.
    const Workspace ws = scratch_ ? workspace(ctx, *scratch_) : Workspace{};
    if (choice_.algo == ConvAlgorithm::kExpandDepthwise) {
      conv::convExpandDepthwise(ctx.pool(), ga, gb, x.data<float>(), w1->data<float>(), b1p, act1_,
                                w2->data<float>(), b2p, act2_, y.data<float>(),
                                choice_.second == ConvAlgorithm::kDepthwise3x3Rows, ws);
      return;
    }
    // The two Convs in turn. A constant W is packed for the GEMM the first
    // time this path runs (where the fused kernel applies it never does).
    const size_t need = size_t(N * E * H * W);
    if (expanded_.size() < need) expanded_.resize(need);
    if (w1 == &consts_[1] && packed1_.empty()) packed1_ = conv::packConvWeights(ga, w1->data<float>());
    conv::convFloat(ctx.pool(), ga, choice_.algo, x.data<float>(), w1->data<float>(),
                    w1 == &consts_[1] ? packed1_ : noPacked_, b1p, nullptr, expanded_.data(), act1_, ws);
    conv::convFloat(ctx.pool(), gb, choice_.second, expanded_.data(), w2->data<float>(), noPacked_, b2p, nullptr,
                    y.data<float>(), act2_, ws);
  }

 private:
  // The expand's geometry (x [N, C, H, W] to E channels); the depthwise's
  // from the node's window attributes (convGeom checks W_dw against them
  // and the group); the choice. Kept while the shapes stay (the next run
  // with them allocates nothing).
  void plan(const Node& node, const std::vector<int64_t>& xs, int64_t E, const std::vector<int64_t>& w2s) {
    const int64_t N = xs[0], C = xs[1], H = xs[2], W = xs[3];
    ConvGeom ga;
    ga.N = N;
    ga.C = ga.Cg = C;
    ga.M = ga.Mg = E;
    ga.img = ga.grid = {1, H, W};
    ga.imgSize = ga.gridSize = H * W;
    gb_ = convGeom(node, attrs_, E, {N, E, H, W}, w2s);
    ga_ = ga;
    choice_ = conv::chooseExpandDepthwise(ga_, gb_, act1_.act, act2_.act);
    xShape_ = xs;
    w2Shape_ = w2s;
  }

  std::optional<WorkspaceIds> scratch_;  // for the planned shapes
  conv::Activation act1_, act2_;
  Tensor consts_[5];
  WindowAttrs attrs_;
  std::vector<float> expanded_;
  std::vector<PackedA> packed1_, noPacked_;
  std::vector<int64_t> xShape_, w2Shape_;
  ConvGeom ga_, gb_;
  conv::ConvChoice choice_;  // chooseExpandDepthwise's for ga_, gb_
};

// ai.oinfer FusedConvMaxPool (the fuse_conv_maxpool pass): an image stem
// Conv (X, W, optional B; the Conv's attributes and activation) and the
// MaxPool over its output (pool_* window attributes), float32. Where the
// fused kernel applies (AVX-512: the pixel-vector conv and the stride-2
// pool, conv_maxpool.cpp) the Conv's output never exists whole; elsewhere
// the Conv runs into a buffer the kernel keeps and the MaxPool reads it.
class FusedConvMaxPoolKernel final : public Kernel {
 public:
  explicit FusedConvMaxPoolKernel(const KernelInit& init) {
    const Node& node = init.node;
    act_ = conv::parseActivation(node);
    group_ = node.attrInt("group", 1);
    attrs_ = shape::parseWindowAttrs(node, 2, false);
    poolAttrs_ = shape::parseWindowAttrs(node, 2, true, "pool_");
    for (size_t i = 1; i < 3; ++i)
      if (init.hasInput(i))
        if (const Tensor* t = init.constInput(i)) consts_[i] = *t;
    // The choice for the planned shapes, for algorithm() (run() makes it
    // again with the geometries it keeps), and scratch for the path it
    // takes (fused, or the Conv apart).
    auto known = [&](size_t i) {
      return init.hasInput(i) && init.inputs[i]->hasShape && isStatic(init.inputs[i]->shape);
    };
    if (known(0) && known(1) && init.inputs[0]->shape.size() == 4) {
      try {
        const ConvGeom cg =
            convGeom(node, attrs_, group_, toStatic(init.inputs[0]->shape), toStatic(init.inputs[1]->shape));
        const pool::PoolGeom pg = pool::poolGeom(node, poolAttrs_, {cg.N, cg.M, cg.grid[1], cg.grid[2]});
        const conv::ConvChoice c = conv::chooseConvMaxPool(cg, pg, act_.act, consts_[1].defined());
        planned_ = c.fallback ? c.name() + " + maxpool" : c.name();
        scratch_ = requestWorkspace(init, c.fallback ? conv::convFloatScratch(cg, c.algo, init.threads())
                                                     : conv::convMaxPoolScratch(cg));
      } catch (const Error&) {
        planned_.clear();  // run() reports it
      }
    }
  }

  std::string algorithm() const override { return planned_.empty() ? std::string("chosen per call") : planned_; }

  void run(KernelContext& ctx) override {
    const Node& node = ctx.node();
    const Tensor& x = ctx.input(0);
    const Tensor* w = constOrInput(consts_[1], ctx, 1);
    const Tensor* b = constOrInput(consts_[2], ctx, 2);
    if (!w) ctx.fail("input 1 (W) is required");
    for (const Tensor* t : {&x, w, b})
      if (t && t->dtype() != DataType::kFloat)
        ctx.fail("runs on float32 only, got " + std::string(dataTypeName(t->dtype())));
    if (x.rank() != 4)
      fail(node, ErrorCode::kShapeMismatch, inputDesc(node, 0) + " has shape " + shapeToString(x.shape()) + ", expected rank 4");
    // Geometries (and the fused path's bands and packed weights) are kept
    // while the shapes stay, so the next run with them allocates nothing.
    // The fused path packs W: a constant one only.
    if (x.shape() != xShape_ || w->shape() != wShape_) {
      cg_ = convGeom(node, attrs_, group_, x.shape(), w->shape());
      pg_ = pool::poolGeom(node, poolAttrs_, {cg_.N, cg_.M, cg_.grid[1], cg_.grid[2]});
      choice_ = conv::chooseConvMaxPool(cg_, pg_, act_.act, w == &consts_[1]);
      fused_ = choice_.algo == ConvAlgorithm::kConvMaxPool;
      packed_.clear();
      packedApart_.clear();
      if (fused_) {
        bands_ = conv::convMaxPoolBands(cg_, pg_);
        packed_ = conv::packPixvecWeights(cg_, w->data<float>());
      } else if (w == &consts_[1] && !isDepthwiseAlgorithm(choice_.algo)) {
        // Apart, a constant W is packed once too (convFloat would pack it
        // on every run).
        packedApart_ = conv::packConvWeights(cg_, w->data<float>());
      }
      xShape_ = x.shape();
      wShape_ = w->shape();
    }
    if (b && b->numel() != cg_.M)
      ctx.fail(inputDesc(node, 2) + " has shape " + shapeToString(b->shape()) + ", expected [" + std::to_string(cg_.M) + "]");
    Tensor& y = ctx.output(0);
    if (y.numel() == 0) return;
    const float* bp = b ? b->data<float>() : nullptr;
    const Workspace ws = scratch_ ? workspace(ctx, *scratch_) : Workspace{};  // the algorithms check its size
    if (fused_) {
      conv::convMaxPool(ctx.pool(), cg_, pg_, bands_, packed_, x.data<float>(), bp, act_, y.data<float>(), ws);
      return;
    }
    // Apart: the Conv into the kept buffer, then the MaxPool.
    const size_t need = size_t(cg_.N * cg_.M * cg_.gridSize);
    if (convOut_.size() < need) convOut_.resize(need);
    conv::convFloat(ctx.pool(), cg_, choice_.algo, x.data<float>(), w->data<float>(),
                    w == &consts_[1] ? packedApart_ : noPacked_, bp, nullptr, convOut_.data(), act_, ws);
    pool::maxPoolFloat(ctx.pool(), pg_, convOut_.data(), y.data<float>());
  }

 private:
  std::optional<WorkspaceIds> scratch_;  // for the planned shapes
  conv::Activation act_;
  int64_t group_ = 1;
  WindowAttrs attrs_, poolAttrs_;
  Tensor consts_[3];
  std::vector<int64_t> xShape_, wShape_;
  ConvGeom cg_;
  pool::PoolGeom pg_;
  conv::ConvChoice choice_;  // chooseConvMaxPool's for cg_, pg_
  std::string planned_;      // its name for the planned shapes
  bool fused_ = false;
  conv::ConvMaxPoolBands bands_;
  std::vector<PackedB> packed_;
  std::vector<PackedA> packedApart_, noPacked_;  // the Conv apart: W packed when constant
  std::vector<float> convOut_;
};

}  // namespace

void register_conv_fused(Registry& r) {
  // The CPU-only fused pairs (float32 kernels, no CUDA one).
  r.add(OpDef{"ai.oinfer", "FusedConvDepthwise", 1, shape::inferFusedConvDepthwise,
              [](const KernelInit& init) -> std::unique_ptr<Kernel> {
                return std::make_unique<FusedConvDepthwiseKernel>(init);
              },
              {}, {DataType::kFloat}});
  r.add(OpDef{"ai.oinfer", "FusedConvMaxPool", 1, shape::inferFusedConvMaxPool,
              [](const KernelInit& init) -> std::unique_ptr<Kernel> {
                return std::make_unique<FusedConvMaxPoolKernel>(init);
              },
              {}, {DataType::kFloat}});
}

}  // namespace oinfer::conv
