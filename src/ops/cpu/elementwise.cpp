// Arithmetic with broadcasting: Add, Sub, Mul, Div, Pow, Mod, and the
// variadic Max, Min, Sum, Mean. Unary math lives in elementwise_unary.cpp,
// comparison/logic/bitwise/Where in elementwise_logic.cpp.
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "ops/cpu/elementwise_kernels.h"
#include "shape/elementwise.h"

namespace oinfer {
namespace cpu {
namespace {

// Integers wrap on overflow (two's complement, like onnxruntime in
// practice): the arithmetic runs in an unsigned type at least as wide as
// unsigned int, since signed overflow, and uint16 * uint16 promoted to int,
// are undefined behaviour.
template <class T>
using WrapType = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
template <class T> constexpr bool kWraps = std::is_integral_v<T> && !std::is_same_v<T, bool>;

struct AddOp {
  template <class T> auto operator()(T a, T b) const {
    if constexpr (kWraps<T>) return static_cast<T>(static_cast<WrapType<T>>(a) + static_cast<WrapType<T>>(b));
    else return a + b;
  }
};
struct SubOp {
  template <class T> auto operator()(T a, T b) const {
    if constexpr (kWraps<T>) return static_cast<T>(static_cast<WrapType<T>>(a) - static_cast<WrapType<T>>(b));
    else return a - b;
  }
};
struct MulOp {
  template <class T> auto operator()(T a, T b) const {
    if constexpr (kWraps<T>) return static_cast<T>(static_cast<WrapType<T>>(a) * static_cast<WrapType<T>>(b));
    else return a * b;
  }
};
// Integer division truncates like C. Division by zero gives 0 and the one
// overflowing case (MIN / -1) wraps, instead of trapping the process.
struct DivOp {
  template <class T> T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T>) {
      if (b == 0) return 0;
      if constexpr (std::is_signed_v<T>)
        if (b == -1) return static_cast<T>(std::make_unsigned_t<T>(0) - static_cast<std::make_unsigned_t<T>>(a));
    }
    return a / b;
  }
};
// NaN wins, as in numpy.maximum / onnxruntime.
struct MaxOp {
  template <class T> T operator()(T a, T b) const { return (a != a || a > b) ? a : b; }
};
struct MinOp {
  template <class T> T operator()(T a, T b) const { return (a != a || a < b) ? a : b; }
};

// fmod=1: the sign of the dividend (C fmod); fmod=0: the sign of the divisor
// (Python / numpy.mod). Floats always take fmod: the spec requires fmod=1 for
// them, and onnx.reference uses fmod when a model leaves it 0.
struct ModOp {
  bool fmod = false;
  explicit ModOp(const KernelInit& init) : fmod(init.node.attrInt("fmod", 0) != 0) {}
  template <class T> T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T>) {
      if (b == 0) return 0;
      if constexpr (std::is_signed_v<T>)
        if (b == -1) return 0;
      T r = static_cast<T>(a % b);
      if constexpr (std::is_signed_v<T>)
        if (!fmod && r != 0 && ((r < 0) != (b < 0))) r = static_cast<T>(r + b);
      return r;
    } else {
      return std::fmod(a, b);
    }
  }
};

struct FloatPow {
  template <class T> T operator()(T a, T b) const { return std::pow(a, b); }
};
// Integer base: exact repeated squaring for integer exponents (wrapping on
// overflow; negative exponents truncate 1/x^n), double pow otherwise.
struct IntPow {
  template <class T> T operator()(T base, int64_t e) const {
    if (e < 0) return base == 1 ? 1 : base == -1 ? ((e & 1) ? -1 : 1) : 0;
    using U = std::make_unsigned_t<T>;
    U r = 1, x = static_cast<U>(base);
    for (; e; e >>= 1, x *= x)
      if (e & 1) r *= x;
    return static_cast<T>(r);
  }
  // A float exponent can give NaN or a value beyond T, whose cast is
  // undefined: NaN gives 0, the rest saturates to T's range.
  template <class T> T operator()(T base, double e) const {
    const double r = std::pow(static_cast<double>(base), e);
    if (r != r) return 0;
    if (r >= static_cast<double>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
    if (r <= static_cast<double>(std::numeric_limits<T>::lowest())) return std::numeric_limits<T>::lowest();
    return static_cast<T>(r);
  }
};

template <class To>
std::vector<To> convertTo(const Tensor& t, const Node& node) {
  std::vector<To> out(static_cast<size_t>(t.numel()));
  dispatchList(NumericTypes{}, t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* p = t.data<T>();
    for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<To>(static_cast<Compute<T>>(p[i]));
  }, node);
  return out;
}

bool isFloatType(DataType t) {
  return t == DataType::kFloat || t == DataType::kDouble || t == DataType::kFloat16 || t == DataType::kBFloat16;
}

// Opset 12 lets the exponent's type differ from the base's; the exponent
// (usually a scalar) is converted once to the type the base computes in.
class PowKernel final : public Kernel {
 public:
  explicit PowKernel(const KernelInit& init) : opset_(init.opset) {}
  void run(KernelContext& ctx) override {
    const Tensor& a = ctx.input(0);
    const Tensor& b = ctx.input(1);
    Tensor& o = ctx.output(0);
    std::vector<int64_t> legacy;
    Broadcaster<2> bc;
    if (!bc.init({&a.shape(), &effectiveShapeB(ctx, opset_, a, b, legacy)}, o.shape()))
      ctx.fail("cannot broadcast " + shapeToString(a.shape()) + " and " + shapeToString(b.shape()));
    auto withExponent = [&](auto expTag, auto op, auto baseTag) {
      using T = typename decltype(baseTag)::type;
      using E = typename decltype(expTag)::type;
      if (b.dtype() == dataTypeOf<E>) {
        runBinary(ctx.pool(), bc, a.data<T>(), b.data<E>(), o.data<T>(), op, kGrainHeavy);
      } else {
        std::vector<E> e = convertTo<E>(b, ctx.node());
        runBinary(ctx.pool(), bc, a.data<T>(), e.data(), o.data<T>(), op, kGrainHeavy);
      }
    };
    dispatchType<float, double, Float16, BFloat16, int32_t, int64_t>(a.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (std::is_integral_v<T>) {
        if (isFloatType(b.dtype())) withExponent(TypeTag<double>{}, IntPow{}, tag);
        else withExponent(TypeTag<int64_t>{}, IntPow{}, tag);
      } else {
        withExponent(TypeTag<Compute<T>>{}, FloatPow{}, tag);
      }
    }, ctx.node());
  }

 private:
  int64_t opset_;
};

// Folds any number of inputs: o = in0 op in1, then o = o op in_i. Mean
// divides at the end.
template <class Op, class Types, bool Mean = false>
class VariadicKernel final : public Kernel {
 public:
  explicit VariadicKernel(const KernelInit&) {}
  void run(KernelContext& ctx) override {
    Tensor& o = ctx.output(0);
    const size_t n = ctx.numInputs();
    const Tensor& first = ctx.input(0);
    dispatchList(Types{}, first.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      for (size_t i = 1; i < n; ++i)
        if (ctx.input(i).dtype() != first.dtype()) ctx.fail("input " + std::to_string(i) + " has another type");
      T* out = o.data<T>();
      if (n == 1) {
        std::memcpy(out, first.data<T>(), first.nbytes());
        return;
      }
      Broadcaster<2> bc;
      for (size_t i = 1; i < n; ++i) {
        const Tensor& in = ctx.input(i);
        const Tensor& acc = i == 1 ? first : o;
        if (!bc.init({&acc.shape(), &in.shape()}, o.shape()))
          ctx.fail("cannot broadcast input " + std::to_string(i) + " " + shapeToString(in.shape()) +
                   " to " + shapeToString(o.shape()));
        runBinary(ctx.pool(), bc, acc.data<T>(), in.data<T>(), out, Op{});
      }
      if constexpr (Mean) {
        const Compute<T> inv = static_cast<Compute<T>>(n);
        mapUnary(ctx.pool(), out, out, o.numel(), [inv](Compute<T> v) { return v / inv; }, kGrainCheap);
      }
    }, ctx.node());
  }
};

template <class K>
KernelFactory factoryOf() {
  return [](const KernelInit& init) -> std::unique_ptr<Kernel> { return std::make_unique<K>(init); };
}

// Mul by a per-channel scale (squeeze-and-excitation's x * s, s [N or 1,
// C, 1, 1] or [C, 1, 1]) on the blocked layout NCHW16c: x and the product
// blocked together (a depthwise conv writes x and a channel-vector conv reads
// the product, so the block stays blocked), s as it is; each pixel's 16
// channels times one vector of s.
bool channelScaleShapes(const ValueInfo* x, const ValueInfo* s, const ValueInfo* y) {
  if (!blockedCandidate(x) || !s || !y || s->dtype != DataType::kFloat || !s->hasShape || !isStatic(s->shape) ||
      !y->hasShape || y->shape.size() != 4 || toStatic(y->shape) != toStatic(x->shape))
    return false;
  const std::vector<int64_t> xs = toStatic(x->shape), ss = toStatic(s->shape);
  if (ss.size() == 3) return ss[0] == xs[1] && ss[1] == 1 && ss[2] == 1;
  return ss.size() == 4 && (ss[0] == 1 || ss[0] == xs[0]) && ss[1] == xs[1] && ss[2] == 1 && ss[3] == 1;
}

BlockedSupport mulBlocked(const KernelInit& init) {
  BlockedSupport sup;
  if (init.inputs.size() != 2 || init.outputs.empty()) return sup;
  for (size_t big = 0; big < 2; ++big)
    if (channelScaleShapes(init.inputs[big], init.inputs[1 - big], init.outputs[0])) {
      sup.write = 1u;
      sup.tied = 1u << big;
      return sup;
    }
  return sup;
}

KernelFactory mulFactory() {
  const KernelFactory plain = binaryFactory<MulOp, NumericTypes>();
  return [plain](const KernelInit& init) -> std::unique_ptr<Kernel> {
    if (!init.outBlocked(0)) return plain(init);
    const size_t big = init.inBlocked(1) ? 1 : 0;
    if (!init.inBlocked(big) || !channelScaleShapes(init.inputs[big], init.inputs[1 - big], init.outputs[0]))
      init.fail("planned in the blocked layout, but it is not a per-channel scale of a 4-d tensor");
    const std::vector<int64_t> xs = toStatic(init.inputs[big]->shape);
    const bool perImage = init.inputs[1 - big]->shape.size() == 4 && xs[0] > 1 &&
                          init.inputs[1 - big]->shape[0].value == xs[0];
    return makeKernel([big, xs, perImage](KernelContext& ctx) {
      const Tensor& x = ctx.input(big);
      const Tensor& sc = ctx.input(1 - big);
      if (x.shape() != xs) ctx.fail("input " + std::to_string(big) + " has shape " + shapeToString(x.shape()) +
                                    ", planned as " + shapeToString(xs));
      const int64_t N = xs[0], C = xs[1], P = xs[2] * xs[3], CB = C / 16;
      const float* xp = x.data<float>();
      const float* sp = sc.data<float>();
      float* yp = ctx.output(0).data<float>();
      ctx.pool().parallelFor(N * CB, [&](int64_t b0, int64_t b1) {
        for (int64_t b = b0; b < b1; ++b) {
          const float* s16 = sp + (perImage ? b / CB * C : 0) + b % CB * 16;
          const float* xb = xp + b * P * 16;
          float* yb = yp + b * P * 16;
          for (int64_t p = 0; p < P; ++p)
            for (int c = 0; c < 16; ++c) yb[p * 16 + c] = xb[p * 16 + c] * s16[c];
        }
      }, std::max<int64_t>(1, 4096 / std::max<int64_t>(1, P)));
    });
  };
}

}  // namespace
}  // namespace cpu

void register_elementwise(Registry& r) {
  using namespace cpu;
  const auto numeric = typesOf(NumericTypes{});
  const std::initializer_list<int> arith = {1, 6, 7, 13, 14};
  addVersions(r, "Add", arith, shape::inferArithmetic, binaryFactory<AddOp, NumericTypes>(), numeric);
  addVersions(r, "Sub", arith, shape::inferArithmetic, binaryFactory<SubOp, NumericTypes>(), numeric);
  addVersions(r, "Mul", arith, shape::inferArithmetic, mulFactory(), numeric, -1, mulBlocked);
  addVersions(r, "Div", arith, shape::inferArithmetic, binaryFactory<DivOp, NumericTypes>(), numeric);
  addVersions(r, "Pow", {1, 7, 12, 13, 15}, shape::inferBinaryMixed, factoryOf<PowKernel>(),
              {DataType::kFloat, DataType::kDouble, DataType::kFloat16, DataType::kBFloat16, DataType::kInt32,
               DataType::kInt64});
  addVersions(r, "Mod", {10, 13}, shape::inferBinary, binaryFactory<ModOp, NumericTypes>(), numeric);
  addVersions(r, "Max", {1, 6, 8, 12, 13}, shape::inferVariadic, factoryOf<VariadicKernel<MaxOp, NumericTypes>>(),
              numeric);
  addVersions(r, "Min", {1, 6, 8, 12, 13}, shape::inferVariadic, factoryOf<VariadicKernel<MinOp, NumericTypes>>(),
              numeric);
  addVersions(r, "Sum", {1, 6, 8, 13}, shape::inferVariadic, factoryOf<VariadicKernel<AddOp, NumericTypes>>(),
              numeric);
  addVersions(r, "Mean", {1, 6, 8, 13}, shape::inferVariadic,
              factoryOf<VariadicKernel<AddOp, FloatTypes, true>>(), typesOf(FloatTypes{}));
  registerElementwiseUnary(r);
  registerElementwiseLogic(r);
}

}  // namespace oinfer
