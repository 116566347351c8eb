// Activations: one functor per op (attributes parsed once, defaults from the
// ONNX spec) mapped by the shared unary loop; PRelu reuses the broadcasting
// binary kernel and Clip reads its bounds per run.
#include <cmath>
#include <limits>

#include "ops/cpu/elementwise_kernels.h"
#include "ops/cpu/elementwise_math.h"
#include "shape/activation.h"

namespace oinfer {
namespace cpu {
namespace {

template <class T> constexpr bool kIsFloat = std::is_same_v<T, float>;

struct ReluOp {
  template <class T> T operator()(T x) const { return x < T(0) ? T(0) : x; }  // NaN passes through
};
struct LeakyReluOp {
  float alpha;
  explicit LeakyReluOp(const KernelInit& i) : alpha(i.node.attrFloat("alpha", 0.01f)) {}
  template <class T> T operator()(T x) const { return x < T(0) ? static_cast<T>(alpha) * x : x; }
};
struct PReluOp {
  template <class T> T operator()(T x, T slope) const { return x < T(0) ? slope * x : x; }
};
struct EluOp {
  float alpha;
  explicit EluOp(const KernelInit& i) : alpha(i.node.attrFloat("alpha", 1.0f)) {}
  template <class T> T operator()(T x) const { return x < T(0) ? static_cast<T>(alpha) * std::expm1(x) : x; }
};
struct SeluOp {
  float alpha, gamma;
  explicit SeluOp(const KernelInit& i)
      : alpha(i.node.attrFloat("alpha", 1.67326319217681884765625f)),
        gamma(i.node.attrFloat("gamma", 1.05070102214813232421875f)) {}
  template <class T> T operator()(T x) const {
    const T g = static_cast<T>(gamma);
    return x <= T(0) ? g * static_cast<T>(alpha) * std::expm1(x) : g * x;
  }
};
struct CeluOp {
  float alpha;
  explicit CeluOp(const KernelInit& i) : alpha(i.node.attrFloat("alpha", 1.0f)) {
    if (alpha == 0.f) i.fail("alpha must not be 0");
  }
  template <class T> T operator()(T x) const {
    const T a = static_cast<T>(alpha);
    return x < T(0) ? a * std::expm1(x / a) : x;
  }
};
struct ThresholdedReluOp {
  float alpha;
  explicit ThresholdedReluOp(const KernelInit& i) : alpha(i.node.attrFloat("alpha", 1.0f)) {}
  template <class T> T operator()(T x) const { return x > static_cast<T>(alpha) ? x : T(0); }
};
struct SigmoidOp {
  template <class T> T operator()(T x) const {
    if constexpr (kIsFloat<T>) return fastSigmoid(x);
    else return T(1) / (T(1) + std::exp(-x));
  }
};
// x * sigmoid(alpha * x) (Swish-beta; alpha = 1 is SiLU).
struct SwishOp {
  float alpha;
  explicit SwishOp(const KernelInit& i) : alpha(i.node.attrFloat("alpha", 1.0f)) {}
  template <class T> T operator()(T x) const {
    const T z = static_cast<T>(alpha) * x;
    if constexpr (kIsFloat<T>) return x * fastSigmoid(z);
    else return x / (T(1) + std::exp(-z));
  }
};
struct HardSigmoidOp {
  float alpha, beta;
  explicit HardSigmoidOp(const KernelInit& i)
      : alpha(i.node.attrFloat("alpha", 0.2f)), beta(i.node.attrFloat("beta", 0.5f)) {}
  template <class T> T operator()(T x) const {
    return std::min(T(1), std::max(T(0), static_cast<T>(alpha) * x + static_cast<T>(beta)));
  }
};
struct HardSwishOp {
  template <class T> T operator()(T x) const {
    return x * std::min(T(1), std::max(T(0), x / T(6) + T(0.5)));
  }
};
struct TanhOp {
  template <class T> T operator()(T x) const {
    if constexpr (kIsFloat<T>) return fastTanh(x);
    else return std::tanh(x);
  }
};
// log(1 + e^x) without overflow for large x.
template <class T> T softplus(T x) {
  return x > T(0) ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
}
struct SoftplusOp {
  template <class T> T operator()(T x) const { return softplus(x); }
};
struct SoftsignOp {
  template <class T> T operator()(T x) const { return x / (T(1) + std::fabs(x)); }
};
struct MishOp {
  template <class T> T operator()(T x) const { return x * std::tanh(softplus(x)); }
};
struct GeluOp {
  bool tanhApprox = false;
  explicit GeluOp(const KernelInit& i) {
    const std::string a = i.node.attrString("approximate", "none");
    if (a != "none" && a != "tanh") i.fail("approximate must be 'none' or 'tanh', got '" + a + "'");
    tanhApprox = a == "tanh";
  }
  template <class T> T operator()(T x) const {
    if (tanhApprox) {
      const T inner = T(0.7978845608028654) * (x + T(0.044715) * x * x * x);
      if constexpr (kIsFloat<T>) return T(0.5) * x * (T(1) + fastTanh(inner));
      else return T(0.5) * x * (T(1) + std::tanh(inner));
    }
    const T z = x * T(0.7071067811865476);
    if constexpr (kIsFloat<T>) return T(0.5) * x * (T(1) + fastErf(z));
    else return T(0.5) * x * (T(1) + std::erf(z));
  }
};
struct ShrinkOp {
  float lambd, bias;
  explicit ShrinkOp(const KernelInit& i)
      : lambd(i.node.attrFloat("lambd", 0.5f)), bias(i.node.attrFloat("bias", 0.0f)) {}
  template <class T> T operator()(T x) const {
    // Compared in double so integer inputs see the exact float thresholds.
    const double v = static_cast<double>(x);
    if (v < -lambd) return static_cast<T>(v + bias);
    if (v > lambd) return static_cast<T>(v - bias);
    return T(0);
  }
};

// Opset < 11 takes min/max as attributes; 11+ as optional scalar inputs,
// absent meaning unbounded. min > max yields max everywhere, as the spec says.
class ClipKernel final : public Kernel {
 public:
  explicit ClipKernel(const KernelInit& init) : attrForm_(init.opset < 11) {
    lo_ = init.node.attrFloat("min", std::numeric_limits<float>::lowest());
    hi_ = init.node.attrFloat("max", std::numeric_limits<float>::max());
  }
  void run(KernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    Tensor& y = ctx.output(0);
    dispatchList(ClipTypes{}, x.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      using C = Compute<T>;
      C lo = std::numeric_limits<C>::lowest(), hi = std::numeric_limits<C>::max();
      if (attrForm_) {
        lo = static_cast<C>(lo_);
        hi = static_cast<C>(hi_);
      } else {
        bound(ctx, 1, x.dtype(), lo);
        bound(ctx, 2, x.dtype(), hi);
      }
      mapUnary(ctx.pool(), x.data<T>(), y.data<T>(), x.numel(), [lo, hi](C v) {
        v = v < lo ? lo : v;
        return v > hi ? hi : v;
      }, kGrainCheap);
    }, ctx.node());
  }

 private:
  using ClipTypes = NumericTypes;
  template <class C>
  static void bound(const KernelContext& ctx, size_t i, DataType dtype, C& out) {
    if (!ctx.hasInput(i)) return;
    const Tensor& b = ctx.input(i);
    if (b.dtype() != dtype) ctx.fail("input " + std::to_string(i) + " must have the type of input 0");
    if (b.numel() != 1) ctx.fail("input " + std::to_string(i) + " must be a scalar, got shape " + shapeToString(b.shape()));
    dispatchList(ClipTypes{}, dtype, [&](auto tag) {
      using T = typename decltype(tag)::type;
      out = static_cast<C>(static_cast<Compute<T>>(b.data<T>()[0]));
    }, ctx.node());
  }
  bool attrForm_;
  float lo_, hi_;
};

using PReluTypes = TypeList<float, double, Float16, BFloat16, int32_t, int64_t>;

// Before opset 7, PRelu broadcast a 1-d slope of length C over the channel
// axis (1), which is how PyTorch exported per-channel PReLU; from 7 on the
// slope broadcasts unidirectionally from the right. The legacy form is run by
// viewing the slope as [C,1,...,1].
bool isLegacyChannelSlope(int64_t opset, const std::vector<int64_t>& x, const std::vector<int64_t>& slope) {
  return opset < 7 && slope.size() == 1 && x.size() >= 3 && slope[0] == x[1] && slope[0] != 1;
}

std::vector<int64_t> channelSlopeShape(size_t xRank, int64_t c) {
  std::vector<int64_t> s(xRank - 1, 1);
  s[0] = c;
  return s;
}

std::unique_ptr<Kernel> makePRelu(const KernelInit& init) {
  static const KernelFactory plain = binaryFactory<PReluOp, PReluTypes>();
  if (init.opset >= 7) return plain(init);
  // Plan-time shapes may be symbolic: decide per run, with one kernel per layout.
  KernelInit viewInit = init;
  ValueInfo slopeInfo = init.hasInput(1) ? *init.inputs[1] : ValueInfo{};
  slopeInfo.hasShape = false;  // no static broadcast plan for the legacy layout
  if (init.hasInput(1)) viewInit.inputs[1] = &slopeInfo;
  viewInit.constInputs[1] = nullptr;
  std::shared_ptr<Kernel> direct = plain(init), channel = plain(viewInit);
  return makeKernel([direct, channel](KernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    const Tensor& slope = ctx.input(1);
    if (!isLegacyChannelSlope(6, x.shape(), slope.shape())) return direct->run(ctx);
    Tensor view = slope.reshaped(channelSlopeShape(x.rank(), slope.dim(0)));
    KernelContext c = ctx;
    c.inputs_[1] = &view;
    channel->run(c);
  });
}

}  // namespace
}  // namespace cpu

void register_activation(Registry& r) {
  using namespace cpu;
  const auto fl = typesOf(FloatTypes{});
  const auto unary = shape::propagateUnary;
  addVersions(r, "Relu", {1, 6, 13, 14}, unary, unaryFactory<ReluOp>(SignedNumericTypes{}),
              typesOf(SignedNumericTypes{}));
  addVersions(r, "LeakyRelu", {1, 6, 16}, unary, unaryFactory<LeakyReluOp>(FloatTypes{}), fl);
  addVersions(r, "PRelu", {1, 6, 7, 9, 16}, shape::inferPRelu, makePRelu, typesOf(PReluTypes{}));
  addVersions(r, "Elu", {1, 6, 22}, unary, unaryFactory<EluOp>(FloatTypes{}, kGrainHeavy), fl);
  addVersions(r, "Selu", {1, 6, 22}, unary, unaryFactory<SeluOp>(FloatTypes{}, kGrainHeavy), fl);
  addVersions(r, "Celu", {12}, unary, unaryFactory<CeluOp>(FloatTypes{}, kGrainHeavy), fl);
  addVersions(r, "ThresholdedRelu", {10, 22}, unary, unaryFactory<ThresholdedReluOp>(FloatTypes{}), fl);
  addVersions(r, "Sigmoid", {1, 6, 13}, unary, unaryFactory<SigmoidOp>(FloatTypes{}, kGrainHeavy), fl);
  addVersions(r, "Swish", {24}, unary, unaryFactory<SwishOp>(FloatTypes{}, kGrainHeavy), fl);
  addVersions(r, "HardSigmoid", {1, 6, 22}, unary, unaryFactory<HardSigmoidOp>(FloatTypes{}), fl);
  addVersions(r, "HardSwish", {14, 22}, unary, unaryFactory<HardSwishOp>(FloatTypes{}), fl);
  addVersions(r, "Tanh", {1, 6, 13}, unary, unaryFactory<TanhOp>(FloatTypes{}, kGrainHeavy), fl);
  addVersions(r, "Softplus", {1, 22}, unary, unaryFactory<SoftplusOp>(FloatTypes{}, kGrainHeavy), fl);
  addVersions(r, "Softsign", {1, 22}, unary, unaryFactory<SoftsignOp>(FloatTypes{}), fl);
  addVersions(r, "Mish", {18, 22}, unary, unaryFactory<MishOp>(FloatTypes{}, kGrainHeavy), fl);
  addVersions(r, "Gelu", {20}, unary, unaryFactory<GeluOp>(FloatTypes{}, kGrainHeavy), fl);
  addVersions(r, "Shrink", {9}, unary, unaryFactory<ShrinkOp>(NumericTypes{}), typesOf(NumericTypes{}));
  addVersions(r, "Clip", {1, 6, 11, 12, 13}, unary,
              [](const KernelInit& init) -> std::unique_ptr<Kernel> { return std::make_unique<ClipKernel>(init); },
              typesOf(NumericTypes{}));
}

}  // namespace oinfer
