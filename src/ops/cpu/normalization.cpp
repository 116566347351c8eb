// BatchNormalization (inference, and training_mode statistics from opset
// 14), and MeanVarianceNormalization. The row-wise normalisations (Instance,
// Layer, Group, RMS) live in normalization_rows.cpp.
#include <cmath>
#include <optional>

#include "ops/cpu/dispatch.h"
#include "ops/cpu/normalization_common.h"
#include "ops/cpu/reduce_axes.h"
#include "ops/registry.h"
#include "shape/normalization.h"

namespace oinfer {

void register_normalization_rows(Registry& r);  // normalization_rows.cpp

namespace {

using cpu::AccOf;

// ---- BatchNormalization --------------------------------------------------

// y = x * a + b per channel (or per channel and position when spatial=0),
// where a = scale / sqrt(var + eps), b = bias - mean * a.
struct BnCoefficients {
  std::vector<double> a, b;
};

BnCoefficients bnCoefficients(const std::vector<double>& scale, const std::vector<double>& bias,
                              const std::vector<double>& mean, const std::vector<double>& var, double eps) {
  BnCoefficients c;
  c.a.resize(scale.size());
  c.b.resize(scale.size());
  for (size_t i = 0; i < scale.size(); ++i) {
    c.a[i] = scale[i] / std::sqrt(var[i] + eps);
    c.b[i] = bias[i] - mean[i] * c.a[i];
  }
  return c;
}

template <class T>
void applyBn(const Tensor& x, Tensor& y, const BnCoefficients& c, ThreadPool& pool) {
  using A = AccOf<T>;
  const int64_t n = x.dim(0), ch = x.dim(1), spatial = x.numel() / std::max<int64_t>(n * ch, 1);
  const int64_t perChannel = static_cast<int64_t>(c.a.size()) / std::max<int64_t>(ch, 1);  // 1 or spatial
  const T* px = x.data<T>();
  T* py = y.data<T>();
  pool.parallelFor(n * ch, [&](int64_t b0, int64_t b1) {
    for (int64_t t = b0; t < b1; ++t) {
      const int64_t k = t % ch;
      const T* src = px + t * spatial;
      T* dst = py + t * spatial;
      if (perChannel == 1) {
        const A a = static_cast<A>(c.a[k]), b = static_cast<A>(c.b[k]);
        for (int64_t s = 0; s < spatial; ++s) dst[s] = T(static_cast<A>(src[s]) * a + b);
      } else {
        for (int64_t s = 0; s < spatial; ++s)
          dst[s] = T(static_cast<A>(src[s]) * static_cast<A>(c.a[k * spatial + s]) + static_cast<A>(c.b[k * spatial + s]));
      }
    }
  }, std::max<int64_t>(1, cpu::kReduceGrain / std::max<int64_t>(spatial, 1)));
}

// Batch mean and (population) variance per channel over N and the spatial dims.
void channelStats(const Tensor& x, std::vector<double>& mean, std::vector<double>& var) {
  const int64_t n = x.dim(0), ch = x.dim(1), spatial = x.numel() / std::max<int64_t>(n * ch, 1);
  const std::vector<double> v = cpu::toDoubles(x);
  mean.assign(ch, 0);
  var.assign(ch, 0);
  const double count = static_cast<double>(n * spatial);
  for (int64_t t = 0; t < n * ch; ++t)
    for (int64_t s = 0; s < spatial; ++s) mean[t % ch] += v[t * spatial + s];
  for (double& m : mean) m /= count;
  for (int64_t t = 0; t < n * ch; ++t)
    for (int64_t s = 0; s < spatial; ++s) {
      const double d = v[t * spatial + s] - mean[t % ch];
      var[t % ch] += d * d;
    }
  for (double& s : var) s /= count;
}

std::unique_ptr<Kernel> makeBatchNorm(const KernelInit& init) {
  const double eps = init.node.attrFloat("epsilon", 1e-5f);
  const double momentum = init.node.attrFloat("momentum", 0.9f);
  const bool training = init.opset >= 14 && init.node.attrInt("training_mode", 0) != 0;
  if (init.opset < 14)
    for (size_t o = 1; o < init.outputs.size(); ++o)
      if (init.outputs[o])
        init.fail("training outputs (mean, var, saved_mean, saved_var) are not supported; only Y (inference)");
  // Constant parameters fold into a and b once.
  std::optional<BnCoefficients> folded;
  if (!training && init.constInput(1) && init.constInput(2) && init.constInput(3) && init.constInput(4))
    folded = bnCoefficients(cpu::toDoubles(*init.constInput(1)), cpu::toDoubles(*init.constInput(2)),
                            cpu::toDoubles(*init.constInput(3)), cpu::toDoubles(*init.constInput(4)), eps);
  return makeKernel([=](KernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    if (x.rank() < 2) ctx.fail("input 0 must have rank >= 2 (N, C, ...), got " + shapeToString(x.shape()));
    const int64_t ch = x.dim(1), spatial = x.numel() / std::max<int64_t>(x.dim(0) * ch, 1);
    for (size_t i = 1; i < 5; ++i) {
      const int64_t len = ctx.input(i).numel();
      if (len != ch && !(len == ch * spatial && !training))
        ctx.fail("input " + std::to_string(i) + " ('" + ctx.node().inputs[i] + "') has shape " +
                 shapeToString(ctx.input(i).shape()) + ", expected [" + std::to_string(ch) +
                 "] for input 0 of shape " + shapeToString(x.shape()));
    }
    BnCoefficients c;  // unused when the coefficients were folded at plan time (no copy: a warm run allocates nothing)
    const BnCoefficients* cp = &c;
    if (folded) {
      cp = &*folded;
    } else if (!training) {
      c = bnCoefficients(cpu::toDoubles(ctx.input(1)), cpu::toDoubles(ctx.input(2)), cpu::toDoubles(ctx.input(3)),
                         cpu::toDoubles(ctx.input(4)), eps);
    } else {
      std::vector<double> mean, var;
      channelStats(x, mean, var);
      c = bnCoefficients(cpu::toDoubles(ctx.input(1)), cpu::toDoubles(ctx.input(2)), mean, var, eps);
      // running = input * momentum + batch * (1 - momentum)
      const std::vector<double> inMean = cpu::toDoubles(ctx.input(3)), inVar = cpu::toDoubles(ctx.input(4));
      for (int64_t k = 0; k < ch; ++k) {
        mean[k] = inMean[k] * momentum + mean[k] * (1 - momentum);
        var[k] = inVar[k] * momentum + var[k] * (1 - momentum);
      }
      if (ctx.hasOutput(1)) cpu::fromDoubles(mean, ctx.output(1), ctx);
      if (ctx.hasOutput(2)) cpu::fromDoubles(var, ctx.output(2), ctx);
    }
    dispatchType<float, double, Float16>(x.dtype(), [&](auto tag) {
      applyBn<typename decltype(tag)::type>(x, ctx.output(0), *cp, ctx.pool());
    }, ctx.node());
  });
}

// ---- MeanVarianceNormalization -------------------------------------------

// y = (x - mean) / (sqrt(var) + 1e-9) over `axes` (default N, H, W).
std::unique_ptr<Kernel> makeMvn(const KernelInit& init) {
  const std::vector<int64_t> axes = init.node.attrInts("axes", {0, 2, 3});
  return makeKernel([axes](KernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    const int64_t rank = static_cast<int64_t>(x.rank());
    std::vector<bool> reduced(rank, false);
    for (int64_t a : axes) {
      const int64_t n = a < 0 ? a + rank : a;
      if (n < 0 || n >= rank) ctx.fail("axis " + std::to_string(a) + " is out of range for input 0 of shape " + shapeToString(x.shape()));
      reduced[n] = true;
    }
    const cpu::ReduceLayout L = cpu::makeReduceLayout(x.shape(), reduced);
    if (x.numel() == 0) return;
    dispatchType<float, double, Float16>(x.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      using A = AccOf<T>;
      const T* px = x.data<T>();
      T* py = ctx.output(0).data<T>();
      ctx.pool().parallelFor(L.outputs, [&](int64_t b, int64_t e) {
        for (int64_t o = b; o < e; ++o) {
          double sum = 0, sq = 0;
          for (int64_t r = 0; r < L.reduce; ++r) sum += static_cast<A>(px[cpu::reducedOffset(L, o, r)]);
          const double mean = sum / static_cast<double>(L.reduce);
          for (int64_t r = 0; r < L.reduce; ++r) {
            const double d = static_cast<A>(px[cpu::reducedOffset(L, o, r)]) - mean;
            sq += d * d;
          }
          const double inv = 1.0 / (std::sqrt(sq / static_cast<double>(L.reduce)) + 1e-9);
          for (int64_t r = 0; r < L.reduce; ++r) {
            const int64_t off = cpu::reducedOffset(L, o, r);
            py[off] = T(static_cast<A>((static_cast<A>(px[off]) - mean) * inv));
          }
        }
      }, std::max<int64_t>(1, cpu::kReduceGrain / std::max<int64_t>(L.reduce, 1)));
    }, ctx.node());
  });
}

}  // namespace

void register_normalization(Registry& r) {
  const std::vector<DataType> types = {DataType::kFloat, DataType::kDouble, DataType::kFloat16};
  for (int v : {1, 6, 7, 9, 14, 15})
    r.add(OpDef{"", "BatchNormalization", v, shape::inferBatchNorm, makeBatchNorm, {}, types});
  for (int v : {9, 13})
    r.add(OpDef{"", "MeanVarianceNormalization", v, shape::inferSameAsInput, makeMvn, {}, types});
  register_normalization_rows(r);
}

}  // namespace oinfer
