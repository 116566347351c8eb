// DeformConv (19, 22) on the CPU, any number of spatial dims.
//
// Method: deformable im2col + GEMM. For each batch item the sampling points
// (kernel tap position + learned offset) are turned once into a table of
// multilinear corner taps, 2^nd per (offset group, kernel tap, output
// position), each a flat index into one input plane and a weight with the
// mask already folded in; corners outside the input get weight 0 (the spec's
// zero padding, as GridSample with padding_mode=zeros and align_corners=1
// samples in the reference). All channels of an offset group share the table,
// so building each group's column matrix [Cg*K, P] is a gather, and
// Y_g = W_g [Mg, Cg*K] x col runs as one Eigen GEMM per (batch, group).
// float16 / bfloat16 go through computeInFloat.
#include <Eigen/Core>
#include <cmath>
#include <vector>

#include "ops/cpu/compute_in_float.h"
#include "ops/cpu/dispatch.h"
#include "ops/registry.h"
#include "shape/conv.h"
#include "shape/deform_conv.h"

namespace oinfer {

namespace {

template <class T>
using MatR = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

std::string inName(const KernelContext& ctx, size_t i) {
  return "input " + std::to_string(i) + " ('" + ctx.node().inputs[i] + "')";
}

struct Geometry {
  int64_t N = 0, C = 0, M = 0, group = 1, offsetGroup = 1, Cg = 0, Mg = 0, K = 1, P = 1, plane = 1;
  size_t nd = 0;
  std::vector<int64_t> in, out, k, s, dil, padBegin;
};

class DeformConvKernel final : public Kernel {
 public:
  explicit DeformConvKernel(const KernelInit& init)
      : group_(init.node.attrInt("group", 1)), offsetGroup_(init.node.attrInt("offset_group", 1)) {
    if (group_ < 1) init.fail("attribute 'group' must be >= 1, got " + std::to_string(group_));
    if (offsetGroup_ < 1) init.fail("attribute 'offset_group' must be >= 1, got " + std::to_string(offsetGroup_));
  }

  void run(KernelContext& ctx) override {
    const Geometry g = geometry(ctx);
    if (ctx.output(0).numel() == 0) return;
    dispatchType<float, double>(ctx.input(0).dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      compute<T>(ctx, g);
    }, ctx.node());
  }

 private:
  Geometry geometry(KernelContext& ctx) const {
    const Tensor& X = ctx.input(0);
    const Tensor& W = ctx.input(1);
    const Tensor& off = ctx.input(2);
    if (X.rank() < 3) ctx.fail(inName(ctx, 0) + " must have rank >= 3, got shape " + shapeToString(X.shape()));
    Geometry g;
    g.nd = X.rank() - 2;
    const shape::WindowAttrs a = shape::parseWindowAttrs(ctx.node(), g.nd, false);
    if (W.rank() != X.rank())
      ctx.fail("W " + inName(ctx, 1) + " shape " + shapeToString(W.shape()) + " must have the rank of input 0 shape " +
               shapeToString(X.shape()));
    g.N = X.dim(0), g.C = X.dim(1), g.M = W.dim(0), g.group = group_, g.offsetGroup = offsetGroup_;
    if (W.dim(1) * group_ != g.C || g.M % group_ != 0)
      ctx.fail("W " + inName(ctx, 1) + " shape " + shapeToString(W.shape()) + " does not fit input 0 shape " +
               shapeToString(X.shape()) + " with group " + std::to_string(group_));
    if (g.C % offsetGroup_ != 0)
      ctx.fail(inName(ctx, 0) + " shape " + shapeToString(X.shape()) + ": channels do not split into offset_group " +
               std::to_string(offsetGroup_));
    g.Cg = g.C / group_, g.Mg = g.M / group_;
    for (size_t d = 0; d < g.nd; ++d) {
      const int64_t k = W.dim(2 + d);
      if (!a.kernel.empty() && a.kernel[d] != k)
        ctx.fail("kernel_shape does not match W " + inName(ctx, 1) + " shape " + shapeToString(W.shape()));
      const shape::WindowDim wd = shape::windowDim(ctx.node(), a, d, X.dim(2 + d), k);
      g.in.push_back(X.dim(2 + d));
      g.out.push_back(wd.out);
      g.k.push_back(k);
      g.s.push_back(a.strides[d]);
      g.dil.push_back(a.dilations[d]);
      g.padBegin.push_back(wd.padBegin);
      g.K *= k, g.P *= wd.out, g.plane *= X.dim(2 + d);
    }
    std::vector<int64_t> offShape = {g.N, g.offsetGroup * g.K * static_cast<int64_t>(g.nd)};
    offShape.insert(offShape.end(), g.out.begin(), g.out.end());
    if (off.shape() != offShape)
      ctx.fail("offset " + inName(ctx, 2) + " has shape " + shapeToString(off.shape()) + ", expected " +
               shapeToString(offShape) + " for input 0 shape " + shapeToString(X.shape()) + " and W shape " +
               shapeToString(W.shape()));
    if (ctx.hasInput(3) && ctx.input(3).numel() != g.M)
      ctx.fail("B " + inName(ctx, 3) + " has shape " + shapeToString(ctx.input(3).shape()) + ", expected [" +
               std::to_string(g.M) + "]");
    if (ctx.hasInput(4)) {
      std::vector<int64_t> maskShape = offShape;
      maskShape[1] = g.offsetGroup * g.K;
      if (ctx.input(4).shape() != maskShape)
        ctx.fail("mask " + inName(ctx, 4) + " has shape " + shapeToString(ctx.input(4).shape()) + ", expected " +
                 shapeToString(maskShape));
    }
    return g;
  }

  template <class T>
  void compute(KernelContext& ctx, const Geometry& g) const {
    const T* x = ctx.input(0).data<T>();
    const T* w = ctx.input(1).data<T>();
    const T* off = ctx.input(2).data<T>();
    const T* bias = ctx.hasInput(3) ? ctx.input(3).data<T>() : nullptr;
    const T* mask = ctx.hasInput(4) ? ctx.input(4).data<T>() : nullptr;
    T* y = ctx.output(0).data<T>();
    const size_t nd = g.nd;
    const int64_t corners = int64_t{1} << nd;
    const int64_t taps = g.offsetGroup * g.K;  // sampling grids per batch item
    const int64_t CK = g.Cg * g.K;
    const int64_t cPerOg = g.C / g.offsetGroup;
    std::vector<int64_t> tapIdx(static_cast<size_t>(taps * g.P * corners));
    std::vector<T> tapW(tapIdx.size());
    MatR<T> col(CK, g.P);

    for (int64_t n = 0; n < g.N; ++n) {
      // Corner table: entry ((og*K + kk) * P + p) * corners + c.
      ctx.pool().parallelFor(taps, [&](int64_t b, int64_t e) {
        std::vector<int64_t> kpos(nd), opos(nd), lo(nd);
        std::vector<T> frac(nd);
        for (int64_t t = b; t < e; ++t) {
          const int64_t kk = t % g.K;
          for (int64_t d = static_cast<int64_t>(nd) - 1, r = kk; d >= 0; --d) kpos[d] = r % g.k[d], r /= g.k[d];
          const T* offT = off + (n * taps + t) * static_cast<int64_t>(nd) * g.P;
          const T* maskT = mask ? mask + (n * taps + t) * g.P : nullptr;
          for (int64_t p = 0; p < g.P; ++p) {
            for (int64_t d = static_cast<int64_t>(nd) - 1, r = p; d >= 0; --d) opos[d] = r % g.out[d], r /= g.out[d];
            for (size_t d = 0; d < nd; ++d) {
              const T c = static_cast<T>(opos[d] * g.s[d] - g.padBegin[d] + kpos[d] * g.dil[d]) +
                          offT[static_cast<int64_t>(d) * g.P + p];
              // A non-finite or far-away point samples nothing (all corners outside).
              const T fl = std::floor(c);
              const bool near = std::isfinite(fl) && fl > T(-2) && fl < static_cast<T>(g.in[d]);
              lo[d] = near ? static_cast<int64_t>(fl) : -2;
              frac[d] = near ? c - fl : T(0);
            }
            const T m = maskT ? maskT[p] : T(1);
            int64_t* ci = &tapIdx[static_cast<size_t>((t * g.P + p) * corners)];
            T* cw = &tapW[static_cast<size_t>((t * g.P + p) * corners)];
            for (int64_t c = 0; c < corners; ++c) {
              T wt = m;
              int64_t flat = 0;
              bool inside = true;
              for (size_t d = 0; d < nd && inside; ++d) {
                const bool hi = (c >> (nd - 1 - d)) & 1;
                const int64_t i = lo[d] + hi;
                inside = i >= 0 && i < g.in[d];
                flat = flat * g.in[d] + i;
                wt *= hi ? frac[d] : T(1) - frac[d];
              }
              ci[c] = inside ? flat : 0;
              cw[c] = inside ? wt : T(0);
            }
          }
        }
      }, 1);

      for (int64_t grp = 0; grp < g.group; ++grp) {
        ctx.pool().parallelFor(CK, [&](int64_t b, int64_t e) {
          for (int64_t row = b; row < e; ++row) {
            const int64_t c = grp * g.Cg + row / g.K, kk = row % g.K;
            const int64_t t = (c / cPerOg) * g.K + kk;
            const T* plane = x + (n * g.C + c) * g.plane;
            const int64_t* ci = &tapIdx[static_cast<size_t>(t * g.P * corners)];
            const T* cw = &tapW[static_cast<size_t>(t * g.P * corners)];
            T* dst = col.data() + row * g.P;
            for (int64_t p = 0; p < g.P; ++p, ci += corners, cw += corners) {
              T v = 0;
              for (int64_t q = 0; q < corners; ++q) v += cw[q] * plane[ci[q]];
              dst[p] = v;
            }
          }
        }, std::max<int64_t>(1, 4096 / std::max<int64_t>(g.P, 1)));
        Eigen::Map<const MatR<T>> wm(w + grp * g.Mg * CK, g.Mg, CK);
        Eigen::Map<MatR<T>> ym(y + (n * g.M + grp * g.Mg) * g.P, g.Mg, g.P);
        ym.noalias() = wm * col;
        if (bias)
          for (int64_t m = 0; m < g.Mg; ++m) ym.row(m).array() += bias[grp * g.Mg + m];
      }
    }
  }

  int64_t group_, offsetGroup_;
};

}  // namespace

void register_deform_conv(Registry& r) {
  addVersions(r, "DeformConv", {19, 22}, shape::inferDeformConv,
              cpu::computeInFloat([](const KernelInit& init) -> std::unique_ptr<Kernel> {
                return std::make_unique<DeformConvKernel>(init);
              }),
              {DataType::kFloat, DataType::kDouble, DataType::kFloat16, DataType::kBFloat16});
}

}  // namespace oinfer
