// Tensor family kernels that make or convert values: Cast, CastLike,
// Constant, ConstantOfShape, Range, EyeLike.
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "graph/checked_math.h"
#include "ops/cpu/lowbit.h"
#include "ops/cpu/tensor_common.h"
#include "shape/tensor.h"

namespace oinfer::tensor_ops {

namespace {

template <class T>
constexpr bool kIsHalf = std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>;

// Float to integer as x86 cvtt* does (what ONNX Runtime produces): NaN and
// out-of-range values give the minimum of the 32/64-bit conversion, narrower
// types then wrap.
template <class To>
To floatToInt(double v) {
  if constexpr (sizeof(To) < 4 || std::is_same_v<To, int32_t>) {
    int32_t i = (v > -2147483649.0 && v < 2147483648.0) ? static_cast<int32_t>(v) : std::numeric_limits<int32_t>::min();
    return static_cast<To>(i);
  } else if constexpr (std::is_same_v<To, uint64_t>) {
    if (v >= 9223372036854775808.0 && v < 18446744073709551616.0) return static_cast<uint64_t>(v);
    const int64_t i = (v > -9223372036854775809.0 && v < 9223372036854775808.0) ? static_cast<int64_t>(v)
                                                                              : std::numeric_limits<int64_t>::min();
    return static_cast<To>(i);
  } else {
    const int64_t i = (v > -9223372036854775809.0 && v < 9223372036854775808.0) ? static_cast<int64_t>(v)
                                                                              : std::numeric_limits<int64_t>::min();
    return static_cast<To>(i);
  }
}

template <class To, class From>
To convertOne(const From& v) {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else if constexpr (std::is_same_v<To, std::string>) {
    if constexpr (std::is_same_v<From, bool>) {
      return v ? "1" : "0";
    } else if constexpr (std::is_floating_point_v<From> || kIsHalf<From>) {
      using F = std::conditional_t<std::is_same_v<From, double>, double, float>;
      const F x = static_cast<F>(v);
      if (std::isnan(x)) return "NaN";
      if (std::isinf(x)) return x > 0 ? "INF" : "-INF";
      char buf[64];
      auto res = std::to_chars(buf, buf + sizeof(buf), x);
      return std::string(buf, res.ptr);
    } else {
      return std::to_string(v);
    }
  } else if constexpr (std::is_same_v<From, std::string>) {
    const char* s = v.c_str();
    char* end = nullptr;
    if constexpr (std::is_integral_v<To> && !std::is_same_v<To, bool>) {
      if constexpr (std::is_signed_v<To>) {
        long long i = std::strtoll(s, &end, 10);
        if (end != s && *end == '\0') return static_cast<To>(i);
      } else {
        unsigned long long i = std::strtoull(s, &end, 10);
        if (end != s && *end == '\0') return static_cast<To>(i);
      }
    }
    const double d = std::strtod(s, &end);
    if (end == s) throw Error(ErrorCode::kInvalidArgument, "Cast: cannot parse '" + v + "' as a number");
    return convertOne<To, double>(d);
  } else if constexpr (kIsHalf<From>) {
    return convertOne<To, float>(static_cast<float>(v));
  } else if constexpr (kIsHalf<To>) {
    return To(static_cast<float>(v));
  } else if constexpr (std::is_same_v<To, bool>) {
    return v != From(0);
  } else if constexpr (std::is_integral_v<To> && std::is_floating_point_v<From>) {
    return floatToInt<To>(static_cast<double>(v));
  } else {
    return static_cast<To>(v);
  }
}

template <class F>
void dispatchCastType(DataType dt, F&& f, const Node& node) {
  dispatchType<float, double, Float16, BFloat16, int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t,
               uint64_t, bool, std::string>(dt, std::forward<F>(f), node);
}

struct CastOptions {
  bool saturate = true;
  lowbit::RoundMode roundMode = lowbit::RoundMode::kUp;
};

// Low-bit types (unpacked bytes) go through float, or through int64 when
// both sides are integers so that integer casts wrap exactly.
void castLowBit(const Tensor& in, Tensor& out, const CastOptions& opt, KernelContext& ctx) {
  const DataType it = in.dtype(), ot = out.dtype();
  const int64_t n = in.numel();
  if (lowbit::isLowBit(it)) {
    const uint8_t* s = in.data<uint8_t>();
    if (lowbit::isLowBit(ot)) {
      uint8_t* d = out.data<uint8_t>();
      for (int64_t i = 0; i < n; ++i) {
        if (lowbit::isLowBitInt(it) && lowbit::isLowBitInt(ot))
          d[i] = lowbit::fromIntWrap(ot, static_cast<int64_t>(lowbit::toFloat(it, s[i])));
        else
          d[i] = lowbit::fromFloat(ot, lowbit::toFloat(it, s[i]), opt.saturate, opt.roundMode);
      }
      return;
    }
    dispatchCastType(ot, [&](auto ttag) {
      using To = typename decltype(ttag)::type;
      To* d = out.data<To>();
      for (int64_t i = 0; i < n; ++i) d[i] = convertOne<To, float>(lowbit::toFloat(it, s[i]));
    }, ctx.node());
    return;
  }
  dispatchCastType(it, [&](auto ftag) {
    using From = typename decltype(ftag)::type;
    const From* s = in.data<From>();
    uint8_t* d = out.data<uint8_t>();
    constexpr bool kIntFrom = std::is_integral_v<From>;
    ctx.pool().parallelFor(n, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) {
        if constexpr (kIntFrom) {
          if (lowbit::isLowBitInt(ot)) {
            d[i] = lowbit::fromIntWrap(ot, static_cast<int64_t>(s[i]));
            continue;
          }
        }
        d[i] = lowbit::fromFloat(ot, convertOne<float, From>(s[i]), opt.saturate, opt.roundMode);
      }
    }, 4096);
  }, ctx.node());
}

void castTensor(const Tensor& in, Tensor& out, KernelContext& ctx, const CastOptions& opt = {}) {
  if (in.dtype() == out.dtype()) {
    out.copyFrom(in);
    return;
  }
  if (lowbit::isLowBit(in.dtype()) || lowbit::isLowBit(out.dtype())) {
    castLowBit(in, out, opt, ctx);
    return;
  }
  dispatchCastType(in.dtype(), [&](auto ftag) {
    using From = typename decltype(ftag)::type;
    dispatchCastType(out.dtype(), [&](auto ttag) {
      using To = typename decltype(ttag)::type;
      const From* s = in.data<From>();
      To* d = out.data<To>();
      ctx.pool().parallelFor(in.numel(), [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i) d[i] = convertOne<To, From>(s[i]);
      }, 4096);
    }, ctx.node());
  }, ctx.node());
}

std::unique_ptr<Kernel> castKernel(const KernelInit& init) {
  CastOptions opt;
  if (init.opset >= 19) opt.saturate = init.node.attrInt("saturate", 1) != 0;
  if (init.opset >= 24) {
    try {
      opt.roundMode = lowbit::parseRoundMode(init.node.attrString("round_mode", "up"));
    } catch (const Error& e) {
      init.fail(e.what());
    }
  }
  return makeKernel([opt](KernelContext& ctx) { castTensor(ctx.input(0), ctx.output(0), ctx, opt); });
}

std::unique_ptr<Kernel> constantKernel(const KernelInit& init) {
  Tensor v = shape::tensor_detail::constantValue(init.node);
  return makeKernel([v](KernelContext& ctx) { ctx.allocateOutput(0, v.shape(), v.dtype()).copyFrom(v); });
}

std::unique_ptr<Kernel> constantOfShapeKernel(const KernelInit& init) {
  Tensor v = Tensor::scalar<float>(0.f);
  if (const Tensor* t = init.node.attrTensor("value")) {
    if (t->numel() != 1) init.fail("attribute 'value' must hold exactly one element");
    v = *t;
  }
  return makeKernel([v](KernelContext& ctx) {
    const std::vector<int64_t> shape = ctx.input(0).toInt64Vector();
    for (int64_t d : shape)
      if (d < 0) ctx.fail("shape " + shapeToString(shape) + " has a negative dim");
    Tensor& out = ctx.allocateOutput(0, shape, v.dtype());
    dispatchBytes(v.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      std::fill_n(static_cast<T*>(out.data()), out.numel(), static_cast<const T*>(v.data())[0]);
    }, ctx.node());
  });
}

// Opset 27 added float16/bfloat16 with stash_type (1 = float, 11 = double):
// start and delta are widened, the sequence computed as start + i * delta in
// the stash type and each element rounded once, as onnx.reference does; a
// running sum in half precision would stall (x + 1 == x for large x).
template <class S, class H>
void rangeHalf(KernelContext& ctx, const Tensor& s, const Tensor& l, const Tensor& d) {
  const S a = static_cast<S>(static_cast<float>(s.data<H>()[0]));
  const S b = static_cast<S>(static_cast<float>(l.data<H>()[0]));
  const S c = static_cast<S>(static_cast<float>(d.data<H>()[0]));
  if (c == S(0)) ctx.fail("delta must not be 0");
  // The count in double, as numpy's arange and the shape function take it.
  const std::optional<int64_t> count =
      rangeCount(static_cast<double>(a), static_cast<double>(b), static_cast<double>(c));
  if (!count)
    ctx.fail("start, limit, delta (" + std::to_string(static_cast<double>(a)) + ", " +
             std::to_string(static_cast<double>(b)) + ", " + std::to_string(static_cast<double>(c)) +
             ") give a length that is not finite or does not fit in int64");
  const int64_t n = *count;
  Tensor& out = ctx.allocateOutput(0, {n}, s.dtype());
  H* o = out.data<H>();
  for (int64_t i = 0; i < n; ++i) o[i] = H(static_cast<float>(a + static_cast<S>(i) * c));
}

std::unique_ptr<Kernel> rangeKernel(const KernelInit& init) {
  const int64_t stash = init.node.attrInt("stash_type", 1);
  if (stash != 1 && stash != 11)
    init.fail("stash_type must be 1 (float) or 11 (double), got " + std::to_string(stash));
  return makeKernel([stash](KernelContext& ctx) {
    const Tensor &s = ctx.input(0), &l = ctx.input(1), &d = ctx.input(2);
    if (s.numel() != 1 || l.numel() != 1 || d.numel() != 1) ctx.fail("start, limit and delta must be scalars");
    if (s.dtype() == DataType::kFloat16 || s.dtype() == DataType::kBFloat16) {
      if (l.dtype() != s.dtype() || d.dtype() != s.dtype())
        ctx.fail("start, limit and delta must have the same type, got " + std::string(dataTypeName(s.dtype())) +
                 ", " + dataTypeName(l.dtype()) + ", " + dataTypeName(d.dtype()));
      if (s.dtype() == DataType::kFloat16)
        stash == 11 ? rangeHalf<double, Float16>(ctx, s, l, d) : rangeHalf<float, Float16>(ctx, s, l, d);
      else
        stash == 11 ? rangeHalf<double, BFloat16>(ctx, s, l, d) : rangeHalf<float, BFloat16>(ctx, s, l, d);
      return;
    }
    dispatchType<float, double, int16_t, int32_t, int64_t>(s.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T a = s.data<T>()[0], b = l.data<T>()[0], c = d.data<T>()[0];
      if (c == T(0)) ctx.fail("delta must not be 0");
      std::optional<int64_t> count;
      if constexpr (std::is_integral_v<T>) {
        count = rangeCount(static_cast<int64_t>(a), static_cast<int64_t>(b), static_cast<int64_t>(c));
      } else {
        count = rangeCount(static_cast<double>(a), static_cast<double>(b), static_cast<double>(c));
      }
      if (!count)
        ctx.fail("start, limit, delta (" + std::to_string(a) + ", " + std::to_string(b) + ", " + std::to_string(c) +
                 ") give a length that is not finite or does not fit in int64");
      const int64_t n = *count;
      Tensor& out = ctx.allocateOutput(0, {n}, s.dtype());
      T* o = out.data<T>();
      for (int64_t i = 0; i < n; ++i) o[i] = static_cast<T>(a + static_cast<T>(i) * c);
    }, ctx.node());
  });
}

std::unique_ptr<Kernel> eyeLikeKernel(const KernelInit& init) {
  const int64_t k = init.node.attrInt("k", 0);
  return makeKernel([k](KernelContext& ctx) {
    const Tensor& in = ctx.input(0);
    if (in.rank() != 2) ctx.fail("input must be 2-d, got " + shapeToString(in.shape()));
    Tensor& out = ctx.output(0);
    const int64_t R = in.dim(0), C = in.dim(1);
    dispatchType<float, double, Float16, BFloat16, int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t,
                 uint64_t, bool>(out.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      T* o = out.data<T>();
      for (int64_t i = 0; i < R; ++i)
        for (int64_t j = 0; j < C; ++j) {
          if constexpr (kIsHalf<T>) o[i * C + j] = T(j - i == k ? 1.f : 0.f);
          else o[i * C + j] = static_cast<T>(j - i == k ? 1 : 0);
        }
    }, ctx.node());
  });
}

std::vector<DataType> castTypes() {
  auto t = numericTypes();
  t.push_back(DataType::kString);
  for (DataType d : {DataType::kFloat8E4M3FN, DataType::kFloat8E4M3FNUZ, DataType::kFloat8E5M2, DataType::kFloat8E5M2FNUZ,
                     DataType::kFloat8E8M0, DataType::kFloat4E2M1, DataType::kInt4, DataType::kUInt4, DataType::kInt2,
                     DataType::kUInt2})
    t.push_back(d);
  return t;
}

}  // namespace

void register_tensor_cast(Registry& r) {
  addVersions(r, "Cast", {1, 6, 9, 13, 19, 21, 23, 24, 25}, shape::inferCast, castKernel, castTypes());
  addVersions(r, "CastLike", {15, 19, 21, 23, 24, 25}, shape::inferCastLike, castKernel, castTypes());
  addVersions(r, "Constant", {1, 9, 11, 12, 13, 19, 21, 23, 24, 25}, shape::inferConstant, constantKernel, allTypes());
  addVersions(r, "ConstantOfShape", {9, 20, 21, 23, 24, 25}, shape::inferConstantOfShape, constantOfShapeKernel,
              allTypes());
  addVersions(r, "Range", {11, 27}, shape::inferRange, rangeKernel,
              {DataType::kFloat, DataType::kDouble, DataType::kInt16, DataType::kInt32, DataType::kInt64,
               DataType::kFloat16, DataType::kBFloat16});
  addVersions(r, "EyeLike", {9, 22}, shape::inferEyeLike, eyeLikeKernel, numericTypes());
}

}  // namespace oinfer::tensor_ops
