// Unary math of the elementwise family: one functor per op over Compute<T>.
#include <cmath>

#include "ops/cpu/elementwise_kernels.h"
#include "ops/cpu/elementwise_math.h"
#include "shape/elementwise.h"

namespace oinfer::cpu {
namespace {

#define OINFER_UNARY_FN(Name, expr)                           \
  struct Name {                                               \
    template <class T> T operator()(T x) const { return expr; } \
  };
OINFER_UNARY_FN(SqrtOp, std::sqrt(x))
OINFER_UNARY_FN(ExpOp, std::exp(x))
OINFER_UNARY_FN(LogOp, std::log(x))
OINFER_UNARY_FN(FloorOp, std::floor(x))
OINFER_UNARY_FN(CeilOp, std::ceil(x))
// Half to even under the default rounding mode.
OINFER_UNARY_FN(RoundOp, std::nearbyint(x))
OINFER_UNARY_FN(SinOp, std::sin(x))
OINFER_UNARY_FN(CosOp, std::cos(x))
OINFER_UNARY_FN(TanOp, std::tan(x))
OINFER_UNARY_FN(AsinOp, std::asin(x))
OINFER_UNARY_FN(AcosOp, std::acos(x))
OINFER_UNARY_FN(AtanOp, std::atan(x))
OINFER_UNARY_FN(SinhOp, std::sinh(x))
OINFER_UNARY_FN(CoshOp, std::cosh(x))
OINFER_UNARY_FN(AsinhOp, std::asinh(x))
OINFER_UNARY_FN(AcoshOp, std::acosh(x))
OINFER_UNARY_FN(AtanhOp, std::atanh(x))
OINFER_UNARY_FN(ReciprocalOp, T(1) / x)
#undef OINFER_UNARY_FN

struct ErfOp {
  template <class T> T operator()(T x) const {
    if constexpr (std::is_same_v<T, float>) return fastErf(x);
    else return std::erf(x);
  }
};
struct AbsOp {
  template <class T> T operator()(T x) const {
    if constexpr (std::is_unsigned_v<T>) return x;
    else return x < 0 ? static_cast<T>(-x) : x;
  }
};
struct NegOp {
  template <class T> T operator()(T x) const { return static_cast<T>(-x); }
};
// NaN stays NaN (numpy.sign, onnxruntime).
struct SignOp {
  template <class T> T operator()(T x) const {
    if constexpr (std::is_floating_point_v<T>) {
      if (x != x) return x;
    }
    return static_cast<T>((T(0) < x) - (x < T(0)));
  }
};
struct IsNaNOp {
  template <class T> bool operator()(T x) const { return x != x; }
};
struct IsInfOp {
  bool neg = true, pos = true;
  explicit IsInfOp(const KernelInit& init)
      : neg(init.node.attrInt("detect_negative", 1) != 0), pos(init.node.attrInt("detect_positive", 1) != 0) {}
  template <class T> bool operator()(T x) const {
    return std::isinf(x) && ((x > 0 && pos) || (x < 0 && neg));
  }
};

}  // namespace

void registerElementwiseUnary(Registry& r) {
  const auto fl = typesOf(FloatTypes{});
  const auto unary = shape::propagateUnary;
  struct Entry {
    const char* op;
    std::initializer_list<int> versions;
    KernelFactory k;
  };
  const Entry heavy[] = {
      {"Sqrt", {1, 6, 13}, unaryFactory<SqrtOp>(FloatTypes{})},
      {"Exp", {1, 6, 13}, unaryFactory<ExpOp>(FloatTypes{}, kGrainHeavy)},
      {"Log", {1, 6, 13}, unaryFactory<LogOp>(FloatTypes{}, kGrainHeavy)},
      {"Reciprocal", {1, 6, 13}, unaryFactory<ReciprocalOp>(FloatTypes{})},
      {"Floor", {1, 6, 13}, unaryFactory<FloorOp>(FloatTypes{})},
      {"Ceil", {1, 6, 13}, unaryFactory<CeilOp>(FloatTypes{})},
      {"Round", {11, 22}, unaryFactory<RoundOp>(FloatTypes{})},
      {"Sin", {7, 22}, unaryFactory<SinOp>(FloatTypes{}, kGrainHeavy)},
      {"Cos", {7, 22}, unaryFactory<CosOp>(FloatTypes{}, kGrainHeavy)},
      {"Tan", {7, 22}, unaryFactory<TanOp>(FloatTypes{}, kGrainHeavy)},
      {"Asin", {7, 22}, unaryFactory<AsinOp>(FloatTypes{}, kGrainHeavy)},
      {"Acos", {7, 22}, unaryFactory<AcosOp>(FloatTypes{}, kGrainHeavy)},
      {"Atan", {7, 22}, unaryFactory<AtanOp>(FloatTypes{}, kGrainHeavy)},
      {"Sinh", {9, 22}, unaryFactory<SinhOp>(FloatTypes{}, kGrainHeavy)},
      {"Cosh", {9, 22}, unaryFactory<CoshOp>(FloatTypes{}, kGrainHeavy)},
      {"Asinh", {9, 22}, unaryFactory<AsinhOp>(FloatTypes{}, kGrainHeavy)},
      {"Acosh", {9, 22}, unaryFactory<AcoshOp>(FloatTypes{}, kGrainHeavy)},
      {"Atanh", {9, 22}, unaryFactory<AtanhOp>(FloatTypes{}, kGrainHeavy)},
      {"Erf", {9, 13}, unaryFactory<ErfOp>(FloatTypes{}, kGrainHeavy)},
  };
  for (const auto& e : heavy) addVersions(r, e.op, e.versions, unary, e.k, fl);

  addVersions(r, "Abs", {1, 6, 13}, unary, unaryFactory<AbsOp>(NumericTypes{}), typesOf(NumericTypes{}));
  addVersions(r, "Neg", {1, 6, 13}, unary, unaryFactory<NegOp>(SignedNumericTypes{}),
              typesOf(SignedNumericTypes{}));
  addVersions(r, "Sign", {9, 13}, unary, unaryFactory<SignOp>(NumericTypes{}), typesOf(NumericTypes{}));
  addVersions(r, "IsNaN", {9, 13, 20}, shape::inferUnaryToBool, unaryFactory<IsNaNOp, bool>(FloatTypes{}), fl);
  addVersions(r, "IsInf", {10, 20}, shape::inferUnaryToBool, unaryFactory<IsInfOp, bool>(FloatTypes{}), fl);
}

}  // namespace oinfer::cpu
