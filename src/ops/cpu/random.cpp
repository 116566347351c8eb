// Random family kernels: RandomUniform, RandomNormal, RandomUniformLike,
// RandomNormalLike, Bernoulli, Multinomial. Each kernel instance owns a
// RandomStream (ops/cpu/random_stream.h): a `seed` attribute makes the
// instance's sequence reproducible across Sessions; without one every
// instance draws differently. All are registered non-deterministic, so shape
// inference never constant-folds them.
#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <type_traits>
#include <vector>

#include "ops/cpu/dispatch.h"
#include "ops/cpu/random_stream.h"
#include "ops/registry.h"
#include "shape/random.h"

namespace oinfer {
namespace {

constexpr int64_t kGrain = 4096;

template <class T>
T fromDouble(double v) {
  if constexpr (std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>) return T(static_cast<float>(v));
  else return static_cast<T>(v);
}

// The largest T strictly below `high`: where rounding a draw from [low, high)
// to T lands on `high`, the value is pulled back to this one.
template <class T>
T largestBelow(double high) {
  if constexpr (std::is_same_v<T, double>) {
    return std::nextafter(high, -std::numeric_limits<double>::infinity());
  } else if constexpr (std::is_same_v<T, float>) {
    const float h = static_cast<float>(high);
    return static_cast<double>(h) < high ? h : std::nextafter(h, -std::numeric_limits<float>::infinity());
  } else {
    T h(static_cast<float>(high));
    if (static_cast<double>(static_cast<float>(h)) < high) return h;
    const uint16_t sign = h.bits & 0x8000u, mag = h.bits & 0x7fffu;
    if (mag == 0) h.bits = 0x8001u;  // below +-0: the smallest negative subnormal
    else h.bits = sign ? static_cast<uint16_t>(h.bits + 1) : static_cast<uint16_t>(h.bits - 1);
    return h;
  }
}

struct UniformParams {
  double low = 0, high = 1;
};
struct NormalParams {
  double mean = 0, scale = 1;
};

UniformParams uniformParams(const KernelInit& init) {
  UniformParams p{init.node.attrFloat("low", 0.0f), init.node.attrFloat("high", 1.0f)};
  if (!(p.low <= p.high))
    init.fail("attribute low (" + std::to_string(p.low) + ") must not exceed high (" + std::to_string(p.high) + ")");
  return p;
}

NormalParams normalParams(const KernelInit& init) {
  return {init.node.attrFloat("mean", 0.0f), init.node.attrFloat("scale", 1.0f)};
}

// Fills `out` with draws [0, n) of `stream` mapped by `draw(i) -> double`,
// converted to the output's floating type.
template <class Draw>
void fillFloat(KernelContext& ctx, Tensor& out, Draw&& draw, double clampBelow) {
  const int64_t n = out.numel();
  dispatchType<float, double, Float16, BFloat16>(
      out.dtype(),
      [&](auto tag) {
        using T = typename decltype(tag)::type;
        T* y = out.data<T>();
        const T top = largestBelow<T>(clampBelow);
        const bool clamp = std::isfinite(clampBelow);
        ctx.pool().parallelFor(
            n,
            [&](int64_t b, int64_t e) {
              for (int64_t i = b; i < e; ++i) {
                T v = fromDouble<T>(draw(static_cast<uint64_t>(i)));
                if (clamp && static_cast<double>(v) >= clampBelow) v = top;
                y[i] = v;
              }
            },
            kGrain);
      },
      ctx.node());
}

std::unique_ptr<Kernel> uniformKernel(const KernelInit& init) {
  const UniformParams p = uniformParams(init);
  return makeKernel([p, stream = RandomStream(init.node)](KernelContext& ctx) mutable {
    Tensor& out = ctx.output(0);
    const double width = p.high - p.low;
    // low == high leaves a single value, which the clamp must not move.
    const double clampBelow = width > 0 ? p.high : std::numeric_limits<double>::infinity();
    fillFloat(ctx, out, [&](uint64_t i) { return p.low + stream.uniform(i) * width; }, clampBelow);
    stream.advance(static_cast<uint64_t>(out.numel()));
  });
}

std::unique_ptr<Kernel> normalKernel(const KernelInit& init) {
  const NormalParams p = normalParams(init);
  return makeKernel([p, stream = RandomStream(init.node)](KernelContext& ctx) mutable {
    Tensor& out = ctx.output(0);
    fillFloat(ctx, out, [&](uint64_t i) { return p.mean + p.scale * stream.normal(i); },
              std::numeric_limits<double>::infinity());
    stream.advance(2 * static_cast<uint64_t>(out.numel()));
  });
}

// Probabilities of a floating tensor as doubles, each checked to lie in [0, 1].
std::vector<double> probabilities(KernelContext& ctx, const Tensor& x) {
  std::vector<double> p(static_cast<size_t>(x.numel()));
  dispatchType<float, double, Float16, BFloat16>(
      x.dtype(),
      [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T* in = x.data<T>();
        for (size_t i = 0; i < p.size(); ++i) p[i] = static_cast<double>(in[i]);
      },
      ctx.node());
  for (size_t i = 0; i < p.size(); ++i)
    if (!(p[i] >= 0.0 && p[i] <= 1.0)) {
      std::ostringstream os;
      os << "input 0 ('" << ctx.node().inputs[0] << "') element " << i << " is " << p[i]
         << "; a probability must be in [0, 1]";
      ctx.fail(os.str());
    }
  return p;
}

// Bernoulli: 1 with probability p (a draw u in [0, 1) gives 1 when u < p).
std::unique_ptr<Kernel> bernoulliKernel(const KernelInit& init) {
  return makeKernel([stream = RandomStream(init.node)](KernelContext& ctx) mutable {
    const std::vector<double> p = probabilities(ctx, ctx.input(0));
    Tensor& out = ctx.output(0);
    const int64_t n = out.numel();
    dispatchType<float, double, Float16, BFloat16, int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t,
                 uint64_t, bool>(
        out.dtype(),
        [&](auto tag) {
          using T = typename decltype(tag)::type;
          T* y = out.data<T>();
          const T one = fromDouble<T>(1.0), zero = fromDouble<T>(0.0);
          ctx.pool().parallelFor(
              n,
              [&](int64_t b, int64_t e) {
                for (int64_t i = b; i < e; ++i) y[i] = stream.uniform(static_cast<uint64_t>(i)) < p[i] ? one : zero;
              },
              kGrain);
        },
        ctx.node());
    stream.advance(static_cast<uint64_t>(n));
  });
}

// Multinomial: input [batch, class] holds unnormalised log-probabilities; each
// of the sample_size draws of row b is the first class whose running sum of
// exp(x - max) exceeds u * total.
std::unique_ptr<Kernel> multinomialKernel(const KernelInit& init) {
  const int64_t samples = init.node.attrInt("sample_size", 1);
  return makeKernel([samples, stream = RandomStream(init.node)](KernelContext& ctx) mutable {
    const Tensor& x = ctx.input(0);
    if (x.rank() != 2)
      ctx.fail("input 0 ('" + ctx.node().inputs[0] + "') must be [batch_size, class_size], got " +
               shapeToString(x.shape()));
    const int64_t batch = x.shape()[0], classes = x.shape()[1];
    if (classes == 0 && batch > 0) ctx.fail("input 0 ('" + ctx.node().inputs[0] + "') has no classes");
    std::vector<double> logits(static_cast<size_t>(x.numel()));
    dispatchType<float, double, Float16, BFloat16>(
        x.dtype(),
        [&](auto tag) {
          const auto* in = x.data<typename decltype(tag)::type>();
          for (size_t i = 0; i < logits.size(); ++i) logits[i] = static_cast<double>(in[i]);
        },
        ctx.node());
    Tensor& out = ctx.output(0);
    std::vector<int64_t> picks(static_cast<size_t>(batch * samples));
    std::vector<double> cumulative(static_cast<size_t>(classes));
    for (int64_t b = 0; b < batch; ++b) {
      const double* row = logits.data() + b * classes;
      double m = -std::numeric_limits<double>::infinity();
      for (int64_t c = 0; c < classes; ++c) m = std::isnan(row[c]) || std::isnan(m) ? NAN : std::max(m, row[c]);
      if (!std::isfinite(m))
        ctx.fail("row " + std::to_string(b) + " of input 0 ('" + ctx.node().inputs[0] +
                 "') has no finite maximum log-probability (NaN, +inf or all -inf)");
      double total = 0;
      for (int64_t c = 0; c < classes; ++c) cumulative[c] = total += std::exp(row[c] - m);
      for (int64_t s = 0; s < samples; ++s) {
        const double target = stream.uniform(static_cast<uint64_t>(b * samples + s)) * total;
        int64_t k = std::upper_bound(cumulative.begin(), cumulative.end(), target) - cumulative.begin();
        picks[b * samples + s] = std::min(k, classes - 1);
      }
    }
    dispatchType<int32_t, int64_t>(
        out.dtype(),
        [&](auto tag) {
          using T = typename decltype(tag)::type;
          T* y = out.data<T>();
          for (size_t i = 0; i < picks.size(); ++i) y[i] = static_cast<T>(picks[i]);
        },
        ctx.node());
    stream.advance(static_cast<uint64_t>(batch * samples));
  });
}

void addRandom(Registry& r, const std::string& op, std::initializer_list<int> versions, shape::ShapeFn fn,
               KernelFactory cpu, std::vector<DataType> types) {
  for (int v : versions) r.add(OpDef{"", op, v, fn, cpu, {}, types, -1, /*deterministic=*/false});
}

}  // namespace

void register_random(Registry& r) {
  const std::vector<DataType> floats = {DataType::kFloat, DataType::kDouble, DataType::kFloat16, DataType::kBFloat16};
  addRandom(r, "RandomUniform", {1, 22}, shape::inferRandom, uniformKernel, floats);
  addRandom(r, "RandomNormal", {1, 22}, shape::inferRandom, normalKernel, floats);
  addRandom(r, "RandomUniformLike", {1, 22}, shape::inferRandomLike, uniformKernel, floats);
  addRandom(r, "RandomNormalLike", {1, 22}, shape::inferRandomLike, normalKernel, floats);
  std::vector<DataType> bernoulli = floats;
  for (DataType t : {DataType::kInt8, DataType::kInt16, DataType::kInt32, DataType::kInt64, DataType::kUInt8,
                     DataType::kUInt16, DataType::kUInt32, DataType::kUInt64, DataType::kBool})
    bernoulli.push_back(t);
  addRandom(r, "Bernoulli", {15, 22}, shape::inferBernoulli, bernoulliKernel, bernoulli);
  addRandom(r, "Multinomial", {7, 22}, shape::inferMultinomial, multinomialKernel, {DataType::kInt32, DataType::kInt64});
}

}  // namespace oinfer
