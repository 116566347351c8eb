// ConvTranspose (opsets 1, 11, 22) on the CPU, float32 and float64.
//
// The adjoint of Conv's im2col GEMM: per image n and group g,
//   col (Mg*K x Pin) = W[g]^T (Mg*K x Cg) * X[n, g] (Cg x Pin)
// and col2im scatter-adds each column row into the output plane at the
// tap's coordinate (in * stride - pad_begin + tap * dilation), dropping taps
// that fall into the padding. W^T is packed per group once in the factory
// when W is constant (per call otherwise), so the GEMM reads a row-major
// operand. Tasks are (image x group x output-channel tile): a tile owns its
// output planes, so scatter-adds never race; within a task the input columns
// are processed in tiles so the col scratch stays near 512 KB. Output planes
// start as the bias (or 0) and accumulate.
//
// output_shape overrides pads: total_padding = natural size - output_shape,
// split as the spec says (SAME_UPPER puts the odd one at the end, NOTSET and
// SAME_LOWER at the beginning); an output_shape past the natural size leaves
// zero (bias) outputs at the end, like onnxruntime.
#include <Eigen/Core>
#include <memory>
#include <optional>

#include "ops/cpu/compute_in_float.h"
#include "ops/cpu/conv_common.h"
#include "ops/cpu/dispatch.h"

namespace oinfer::conv {
namespace {

using shape::WindowAttrs;

template <class T>
using MatR = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Stride = Eigen::OuterStride<>;

[[noreturn]] void fail(const Node& node, ErrorCode code, const std::string& msg) {
  throw Error(code, node.describe() + ": " + msg);
}

std::string inputDesc(const Node& node, size_t i) {
  return "input " + std::to_string(i) + " ('" + node.inputs[i] + "')";
}

struct TransposeAttrs {
  WindowAttrs window;
  int64_t group = 1;
  std::vector<int64_t> outputPadding, outputShape;
};

TransposeAttrs parseAttrs(const Node& node, size_t nd) {
  TransposeAttrs t;
  t.window = shape::parseWindowAttrs(node, nd, false);
  t.group = node.attrInt("group", 1);
  t.outputPadding = node.attrInts("output_padding", {});
  if (t.outputPadding.empty()) t.outputPadding.assign(nd, 0);
  t.outputShape = node.attrInts("output_shape", {});
  if (t.outputShape.size() == nd + 2) t.outputShape.erase(t.outputShape.begin(), t.outputShape.begin() + 2);
  if (t.outputPadding.size() != nd || (!t.outputShape.empty() && t.outputShape.size() != nd))
    fail(node, ErrorCode::kInvalidModel, "attributes 'output_padding' / 'output_shape' need one value per spatial dim (" +
                                             std::to_string(nd) + ")");
  return t;
}

ConvGeom transposeGeom(const Node& node, const TransposeAttrs& t, const std::vector<int64_t>& xs,
                       const std::vector<int64_t>& ws) {
  if (xs.size() < 3 || ws.size() != xs.size())
    fail(node, ErrorCode::kShapeMismatch, inputDesc(node, 0) + " " + shapeToString(xs) + " and " + inputDesc(node, 1) +
                                              " " + shapeToString(ws) + " need the same rank >= 3");
  const size_t nd = xs.size() - 2;
  if (nd > kMaxSpatial)
    fail(node, ErrorCode::kNotImplemented, "only 1 to 3 spatial dims are supported, got " + std::to_string(nd));
  ConvGeom g;
  g.N = xs[0];
  g.C = xs[1];
  g.G = t.group;
  if (g.G <= 0 || ws[0] != g.C || g.C % g.G != 0)
    fail(node, ErrorCode::kShapeMismatch, inputDesc(node, 0) + " " + shapeToString(xs) + " and " + inputDesc(node, 1) + " " +
                                              shapeToString(ws) + " do not agree with group " + std::to_string(g.G));
  g.Cg = g.C / g.G;
  g.Mg = ws[1];
  g.M = g.Mg * g.G;
  for (size_t d = 0; d < nd; ++d) {
    const size_t s = slot(nd, d);
    const int64_t k = ws[d + 2];
    if (k <= 0)  // shape inference refuses it first; the tiling below divides by the kernel size
      fail(node, ErrorCode::kShapeMismatch, inputDesc(node, 1) + " has shape " + shapeToString(ws) +
                                                ": kernel dims must be positive");
    if (!t.window.kernel.empty() && t.window.kernel[d] != k)
      fail(node, ErrorCode::kShapeMismatch, "attribute 'kernel_shape' " + shapeToString(t.window.kernel) +
                                                " disagrees with " + inputDesc(node, 1) + " " + shapeToString(ws));
    const shape::WindowDim wd = shape::transposeDim(node, t.window, d, xs[d + 2], k, t.outputPadding[d],
                                                    t.outputShape.empty() ? -1 : t.outputShape[d]);
    g.grid[s] = xs[d + 2];
    g.img[s] = wd.out;
    g.k[s] = k;
    g.s[s] = t.window.strides[d];
    g.dil[s] = t.window.dilations[d];
    g.padBegin[s] = wd.padBegin;
  }
  for (size_t s = 0; s < kMaxSpatial; ++s) {
    g.K *= g.k[s];
    g.imgSize *= g.img[s];
    g.gridSize *= g.grid[s];
  }
  return g;
}

// W [C, Mg, k...] -> per group the row-major (Mg*K) x Cg matrix W[g]^T.
Tensor packTransposed(const Node& node, const Tensor& w, int64_t group) {
  const int64_t C = w.dim(0), Cg = C / group, R = w.numel() / C;
  Tensor out(w.dtype(), {group, R, Cg});
  dispatchType<float, double>(w.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (int64_t g = 0; g < group; ++g) {
      Eigen::Map<const MatR<T>> src(w.data<T>() + g * Cg * R, Cg, R);
      Eigen::Map<MatR<T>> dst(out.data<T>() + g * R * Cg, R, Cg);
      dst = src.transpose();
    }
  }, node);
  return out;
}

template <class T>
void runTranspose(ThreadPool& pool, const ConvGeom& g, const T* x, const T* wt, const T* b, T* y) {
  const int64_t Pin = g.gridSize;
  const int64_t want = pool.size() > 1 ? 4 * pool.size() : 1;
  const int64_t mt = chooseTile(g.Mg, g.N * g.G, want, 1, g.Mg);
  const int64_t mTiles = (g.Mg + mt - 1) / mt;
  pool.parallelFor(g.N * g.G * mTiles, [&](int64_t begin, int64_t end) {
    const int64_t maxRows = mt * g.K;
    const int64_t L = std::min(Pin, std::max<int64_t>(64, (int64_t{1} << 17) / maxRows));
    std::unique_ptr<T[]> col(new T[maxRows * L]);
    for (int64_t t = begin; t < end; ++t) {
      const int64_t n = t / (g.G * mTiles), grp = (t / mTiles) % g.G, m0 = (t % mTiles) * mt;
      const int64_t ms = std::min(mt, g.Mg - m0), rows = ms * g.K;
      T* yp = y + (n * g.M + grp * g.Mg + m0) * g.imgSize;
      for (int64_t m = 0; m < ms; ++m)
        std::fill(yp + m * g.imgSize, yp + (m + 1) * g.imgSize, b ? b[grp * g.Mg + m0 + m] : T(0));
      const T* xg = x + (n * g.C + grp * g.Cg) * Pin;
      Eigen::Map<const MatR<T>> wm(wt + (grp * g.Mg + m0) * g.K * g.Cg, rows, g.Cg);
      for (int64_t p0 = 0; p0 < Pin; p0 += L) {
        const int64_t len = std::min(L, Pin - p0);
        Eigen::Map<MatR<T>> cm(col.get(), rows, len);
        cm.noalias() = wm * Eigen::Map<const MatR<T>, 0, Stride>(xg + p0, g.Cg, len, Stride(Pin));
        col2imAdd(g, ms, col.get(), yp, p0, len);
      }
    }
  });
}

class ConvTransposeKernel final : public Kernel {
 public:
  explicit ConvTransposeKernel(const KernelInit& init) {
    const ValueInfo* xi = init.inputs.empty() ? nullptr : init.inputs[0];
    if (xi && xi->hasShape && xi->shape.size() >= 3) attrs_ = parseAttrs(init.node, xi->shape.size() - 2);
    if (const Tensor* w = init.constInput(1)) {
      const int64_t group = init.node.attrInt("group", 1);
      if (w->rank() < 3 || group <= 0 || w->dim(0) % group != 0)
        fail(init.node, ErrorCode::kShapeMismatch, inputDesc(init.node, 1) + " has shape " + shapeToString(w->shape()) +
                                                       ", incompatible with group " + std::to_string(group));
      wShape_ = w->shape();
      packed_ = packTransposed(init.node, *w, group);
    }
  }

  void run(KernelContext& ctx) override {
    const Node& node = ctx.node();
    const Tensor& x = ctx.input(0);
    const std::vector<int64_t>& ws = packed_.defined() ? wShape_ : ctx.input(1).shape();
    const TransposeAttrs a = attrs_ && attrs_->outputPadding.size() + 2 == x.rank()
                                 ? *attrs_
                                 : parseAttrs(node, x.rank() >= 2 ? x.rank() - 2 : 0);
    const ConvGeom g = transposeGeom(node, a, x.shape(), ws);
    const Tensor wt = packed_.defined() ? packed_ : packTransposed(node, ctx.input(1), a.group);
    const Tensor* b = ctx.hasInput(2) ? &ctx.input(2) : nullptr;
    if (wt.dtype() != x.dtype() || (b && b->dtype() != x.dtype()))
      ctx.fail("inputs X, W and B must share one data type");
    if (b && b->numel() != g.M)
      ctx.fail(inputDesc(node, 2) + " has shape " + shapeToString(b->shape()) + ", expected [" + std::to_string(g.M) + "]");
    Tensor& y = ctx.output(0);
    if (y.numel() == 0) return;
    dispatchType<float, double>(x.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      runTranspose<T>(ctx.pool(), g, x.data<T>(), wt.data<T>(), b ? b->data<T>() : nullptr, y.data<T>());
    }, node);
  }

 private:
  std::optional<TransposeAttrs> attrs_;
  std::vector<int64_t> wShape_;
  Tensor packed_;
};

}  // namespace

void register_conv_transpose(Registry& r) {
  for (int v : {1, 11, 22}) {
    OpDef d;
    d.opType = "ConvTranspose";
    d.sinceVersion = v;
    d.shape = shape::inferConvTranspose;
    d.cpu = cpu::computeInFloat([](const KernelInit& init) -> std::unique_ptr<Kernel> {
      return std::make_unique<ConvTransposeKernel>(init);
    });
    d.types = {DataType::kFloat, DataType::kDouble, DataType::kFloat16, DataType::kBFloat16};
    r.add(std::move(d));
  }
}

}  // namespace oinfer::conv
