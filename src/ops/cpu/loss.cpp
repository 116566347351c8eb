// NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss. Both read input 0 as
// [N, C, D] (D = prod(d1..dk)) and gather, per (n, d), the element of class
// target[n, d]; SoftmaxCrossEntropyLoss first takes log-softmax over C. A
// target equal to ignore_index contributes neither loss nor weight, so "mean"
// divides by the summed weights of the counted elements (by their count
// without weights), which is what both ONNX definitions reduce to.
#include <cmath>

#include "ops/cpu/dispatch.h"
#include "ops/cpu/reduce_axes.h"
#include "ops/registry.h"
#include "shape/loss.h"

namespace oinfer {

namespace {

enum class Reduction { kNone, kSum, kMean };

struct LossPlan {
  bool softmax = false;  // SoftmaxCrossEntropyLoss
  Reduction reduction = Reduction::kMean;
  bool hasIgnore = false;
  int64_t ignoreIndex = 0;
};

template <class T, class I>
void runLoss(KernelContext& ctx, const LossPlan& p) {
  using A = cpu::AccOf<T>;
  const Tensor& x = ctx.input(0);
  const Tensor& target = ctx.input(1);
  const T* weight = ctx.hasInput(2) ? ctx.input(2).data<T>() : nullptr;
  const int64_t N = x.dim(0), C = x.dim(1), D = N * C > 0 ? x.numel() / (N * C) : 0;
  if (target.numel() != N * D)
    ctx.fail("input 1 ('" + ctx.node().inputs[1] + "') has shape " + shapeToString(toShape(target.shape())) +
             ", expected [N, d1..dk] for input 0 of shape " + shapeToString(toShape(x.shape())));
  const T* xp = x.data<T>();
  const I* tp = target.data<I>();

  // Log-probabilities in double so the gathered values and the log_prob
  // output both come from one rounding.
  std::vector<double> logp;
  if (p.softmax) {
    logp.resize(static_cast<size_t>(x.numel()));
    ctx.pool().parallelFor(N * D, [&](int64_t b, int64_t e) {
      for (int64_t k = b; k < e; ++k) {
        const int64_t n = k / D, d = k % D;
        const T* src = xp + n * C * D + d;
        double mx = -INFINITY, sum = 0;
        for (int64_t c = 0; c < C; ++c) mx = std::max(mx, static_cast<double>(static_cast<A>(src[c * D])));
        for (int64_t c = 0; c < C; ++c) sum += std::exp(static_cast<double>(static_cast<A>(src[c * D])) - mx);
        const double lse = mx + std::log(sum);
        for (int64_t c = 0; c < C; ++c)
          logp[(n * C + c) * D + d] = static_cast<double>(static_cast<A>(src[c * D])) - lse;
      }
    }, std::max<int64_t>(1, cpu::kReduceGrain / std::max<int64_t>(C, 1)));
    if (ctx.hasOutput(1)) {
      T* lp = ctx.output(1).data<T>();
      for (size_t i = 0; i < logp.size(); ++i) lp[i] = T(static_cast<A>(logp[i]));
    }
  }

  T* out = ctx.output(0).data<T>();
  double total = 0, weightSum = 0;
  for (int64_t n = 0; n < N; ++n) {
    for (int64_t d = 0; d < D; ++d) {
      const int64_t t = static_cast<int64_t>(tp[n * D + d]);
      double loss = 0, w = 0;
      if (!(p.hasIgnore && t == p.ignoreIndex)) {
        if (t < 0 || t >= C)
          ctx.fail("target value " + std::to_string(t) + " at position " + std::to_string(n * D + d) +
                   " is out of range [0, " + std::to_string(C) + ")");
        w = weight ? static_cast<double>(static_cast<A>(weight[t])) : 1.0;
        const int64_t at = (n * C + t) * D + d;
        loss = -w * (p.softmax ? logp[at] : static_cast<double>(static_cast<A>(xp[at])));
      }
      if (p.reduction == Reduction::kNone) out[n * D + d] = T(static_cast<A>(loss));
      total += loss;
      weightSum += w;
    }
  }
  if (p.reduction == Reduction::kSum) out[0] = T(static_cast<A>(total));
  // 0/0 (everything ignored) gives NaN, as the reference does.
  if (p.reduction == Reduction::kMean) out[0] = T(static_cast<A>(total / weightSum));
}

template <bool kSoftmax>
std::unique_ptr<Kernel> makeLoss(const KernelInit& init) {
  LossPlan p;
  p.softmax = kSoftmax;
  const std::string r = init.node.attrString("reduction", "mean");
  if (r == "none") p.reduction = Reduction::kNone;
  else if (r == "sum") p.reduction = Reduction::kSum;
  else if (r == "mean") p.reduction = Reduction::kMean;
  else init.fail("reduction must be 'none', 'sum' or 'mean', got '" + r + "'");
  p.hasIgnore = init.node.hasAttr("ignore_index");
  if (p.hasIgnore) p.ignoreIndex = init.node.attrInt("ignore_index", 0);
  return makeKernel([p](KernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    if (x.rank() < 2)
      ctx.fail("input 0 ('" + ctx.node().inputs[0] + "') must have rank >= 2 (N, C, ...), got " +
               shapeToString(toShape(x.shape())));
    dispatchType<float, double, Float16>(x.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      dispatchType<int64_t, int32_t>(ctx.input(1).dtype(), [&](auto itag) {
        runLoss<T, typename decltype(itag)::type>(ctx, p);
      }, ctx.node());
    }, ctx.node());
  });
}

}  // namespace

void register_loss(Registry& r) {
  const std::vector<DataType> types = {DataType::kFloat, DataType::kDouble, DataType::kFloat16};
  addVersions(r, "NegativeLogLikelihoodLoss", {12, 13, 22}, shape::inferLoss, makeLoss<false>, types);
  addVersions(r, "SoftmaxCrossEntropyLoss", {12, 13}, shape::inferLoss, makeLoss<true>, types);
}

}  // namespace oinfer
