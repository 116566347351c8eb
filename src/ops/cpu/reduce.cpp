// Reduce* and ArgMax/ArgMin. The ten Reduce ops are one kernel template over
// a reduction policy (see reduce_axes.h); they differ only in init, step and
// finish.
#include <cmath>
#include <limits>
#include <optional>

#include "ops/cpu/dispatch.h"
#include "ops/cpu/reduce_axes.h"
#include "ops/registry.h"
#include "shape/reduce.h"

namespace oinfer {

void register_softmax(Registry& r);  // softmax.cpp

namespace {

using cpu::AccOf;

template <class A>
constexpr bool kFloating = std::is_floating_point_v<A>;

template <class A>
A lowest() {
  if constexpr (kFloating<A>) return -std::numeric_limits<A>::infinity();
  else return std::numeric_limits<A>::lowest();
}
template <class A>
A highest() {
  if constexpr (kFloating<A>) return std::numeric_limits<A>::infinity();
  else return std::numeric_limits<A>::max();
}
template <class A>
A absValue(A x) {
  if constexpr (std::is_unsigned_v<A>) return x;
  else return x < 0 ? -x : x;
}
// Integer results of sqrt/log truncate, as numpy's astype does.
template <class A>
A viaDouble(double v) {
  return static_cast<A>(v);
}

template <class A> struct SumOp {
  using State = A;
  static State init() { return A(0); }
  static void step(State& s, A x) { s += x; }
  static A finish(const State& s, int64_t) { return s; }
};
template <class A> struct MeanOp : SumOp<A> {
  static A finish(const A& s, int64_t n) {
    if constexpr (kFloating<A>) return s / static_cast<A>(n);  // 0/0: NaN, as numpy
    else return n == 0 ? A(0) : static_cast<A>(s / static_cast<A>(n));
  }
};
template <class A> struct SumSquareOp : SumOp<A> {
  static void step(A& s, A x) { s += x * x; }
};
template <class A> struct L1Op : SumOp<A> {
  static void step(A& s, A x) { s += absValue(x); }
};
template <class A> struct L2Op : SumSquareOp<A> {
  static A finish(const A& s, int64_t) { return viaDouble<A>(std::sqrt(static_cast<double>(s))); }
};
template <class A> struct LogSumOp : SumOp<A> {
  static A finish(const A& s, int64_t) {
    if constexpr (kFloating<A>) return std::log(s);
    else return viaDouble<A>(std::log(static_cast<double>(s)));
  }
};
template <class A> struct ProdOp {
  using State = A;
  static State init() { return A(1); }
  static void step(State& s, A x) { s *= x; }
  static A finish(const State& s, int64_t) { return s; }
};
// NaN wins, as in numpy's maximum/minimum.
template <class A> struct MaxOp {
  using State = A;
  static State init() { return lowest<A>(); }
  static void step(State& s, A x) { if (x > s || x != x) s = x; }
  static A finish(const State& s, int64_t) { return s; }
};
template <class A> struct MinOp {
  using State = A;
  static State init() { return highest<A>(); }
  static void step(State& s, A x) { if (x < s || x != x) s = x; }
  static A finish(const State& s, int64_t) { return s; }
};
// One pass: the running sum is rescaled whenever the maximum grows, so no
// exp() overflows.
template <class A> struct LogSumExpOp {
  struct State { A max, sum; };
  static State init() { return {lowest<A>(), A(0)}; }
  static void step(State& s, A x) {
    const double xd = static_cast<double>(x), md = static_cast<double>(s.max);
    if (xd > md) {
      s.sum = static_cast<A>(static_cast<double>(s.sum) * std::exp(md - xd) + 1);
      s.max = x;
    } else if (xd == md) {
      s.sum += A(1);
    } else {
      s.sum = static_cast<A>(static_cast<double>(s.sum) + std::exp(xd - md));
    }
  }
  static A finish(const State& s, int64_t) {
    return viaDouble<A>(static_cast<double>(s.max) + std::log(static_cast<double>(s.sum)));
  }
};

// ReduceMax/Min also take int8/uint8 (opset 12) and bool (opset 20, where max
// is any() and min is all()); the arithmetic reductions do not.
template <template <class> class Op> inline constexpr bool kOrderOnly = false;
template <> inline constexpr bool kOrderOnly<MaxOp> = true;
template <> inline constexpr bool kOrderOnly<MinOp> = true;

template <template <class> class Op>
std::unique_ptr<Kernel> makeReduce(const KernelInit& init) {
  const int64_t opset = init.opset;
  const bool axesInput = opset >= shape::reduceAxesInputSince(init.node.opType) && init.hasInput(1);
  const Tensor* constAxes = axesInput ? init.constInput(1) : nullptr;
  std::optional<Tensor> axesKept;
  if (constAxes) axesKept = constAxes->clone();
  const bool keepdims = init.node.attrInt("keepdims", 1) != 0;
  return makeKernel([opset, axesInput, axesKept, keepdims](KernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    const Tensor* axes = axesKept ? &*axesKept : (axesInput ? &ctx.input(1) : nullptr);
    const auto reduced = shape::reducedAxes(ctx.node(), opset, static_cast<int64_t>(x.rank()), axesInput, axes);
    const cpu::ReduceLayout layout = cpu::makeReduceLayout(x.shape(), *reduced);
    // The shape is planned unless the axes input only got its value now.
    std::vector<int64_t> outShape;
    for (size_t d = 0; d < x.rank(); ++d) {
      if (!(*reduced)[d]) outShape.push_back(x.dim(d));
      else if (keepdims) outShape.push_back(1);
    }
    Tensor& y = ctx.allocateOutput(0, outShape);
    if constexpr (kOrderOnly<Op>) {
      if (x.dtype() == DataType::kBool) {
        // Bools are reduced as their 0/1 bytes; an empty min yields 255, so
        // every result is folded back to 0/1.
        auto* out = static_cast<uint8_t*>(y.data());
        cpu::reduceAxes<Op>(static_cast<const uint8_t*>(x.data()), out, layout, ctx.pool());
        for (int64_t i = 0; i < y.numel(); ++i) out[i] = out[i] != 0;
        return;
      }
      if (x.dtype() == DataType::kInt8 || x.dtype() == DataType::kUInt8) {
        dispatchType<int8_t, uint8_t>(x.dtype(), [&](auto tag) {
          using T = typename decltype(tag)::type;
          cpu::reduceAxes<Op>(x.data<T>(), y.data<T>(), layout, ctx.pool());
        }, ctx.node());
        return;
      }
    }
    dispatchType<float, double, int32_t, int64_t, uint32_t, uint64_t, Float16>(x.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      cpu::reduceAxes<Op>(x.data<T>(), y.data<T>(), layout, ctx.pool());
    }, ctx.node());
  });
}

// ---- ArgMax / ArgMin -----------------------------------------------------

template <bool kMax>
std::unique_ptr<Kernel> makeArgReduce(const KernelInit& init) {
  const int64_t axisAttr = init.node.attrInt("axis", 0);
  const bool last = init.node.attrInt("select_last_index", 0) != 0;
  return makeKernel([axisAttr, last](KernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    const int64_t rank = static_cast<int64_t>(x.rank());
    const int64_t axis = axisAttr < 0 ? axisAttr + rank : axisAttr;
    if (axis < 0 || axis >= rank) ctx.fail("axis " + std::to_string(axisAttr) + " is out of range for rank " + std::to_string(rank));
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < axis; ++d) outer *= x.dim(d);
    for (int64_t d = axis + 1; d < rank; ++d) inner *= x.dim(d);
    const int64_t n = x.dim(axis);
    if (n == 0 && outer * inner > 0) ctx.fail("cannot take the arg-extremum over an empty axis of shape " + shapeToString(x.shape()));
    int64_t* y = ctx.output(0).data<int64_t>();
    dispatchType<float, double, int32_t, int64_t, uint32_t, uint64_t, Float16>(x.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      using A = AccOf<T>;
      const T* px = x.data<T>();
      ctx.pool().parallelFor(outer * inner, [&](int64_t b, int64_t e) {
        for (int64_t t = b; t < e; ++t) {
          const int64_t o = t / inner, i = t % inner;
          const T* p = px + o * n * inner + i;
          A best = static_cast<A>(p[0]);
          int64_t at = 0;
          for (int64_t r = 1; r < n; ++r) {
            const A v = static_cast<A>(p[r * inner]);
            const bool better = kMax ? (last ? v >= best : v > best) : (last ? v <= best : v < best);
            if (better) { best = v; at = r; }
          }
          y[t] = at;
        }
      }, std::max<int64_t>(1, cpu::kReduceGrain / std::max<int64_t>(n, 1)));
    }, ctx.node());
  });
}

const std::vector<DataType> kReduceTypes = {DataType::kFloat, DataType::kDouble, DataType::kInt32,
                                            DataType::kInt64, DataType::kUInt32, DataType::kUInt64,
                                            DataType::kFloat16};

void add(Registry& r, const char* op, std::initializer_list<int> versions, shape::ShapeFn fn, KernelFactory k) {
  addVersions(r, op, versions, std::move(fn), std::move(k), kReduceTypes);
}

}  // namespace

void register_reduce(Registry& r) {
  add(r, "ReduceSum", {1, 11, 13}, shape::inferReduce, makeReduce<SumOp>);
  add(r, "ReduceMean", {1, 11, 13, 18}, shape::inferReduce, makeReduce<MeanOp>);
  std::vector<DataType> ordered = kReduceTypes;
  ordered.insert(ordered.end(), {DataType::kInt8, DataType::kUInt8, DataType::kBool});
  addVersions(r, "ReduceMax", {1, 11, 12, 13, 18, 20}, shape::inferReduce, makeReduce<MaxOp>, ordered);
  addVersions(r, "ReduceMin", {1, 11, 12, 13, 18, 20}, shape::inferReduce, makeReduce<MinOp>, ordered);
  add(r, "ReduceProd", {1, 11, 13, 18}, shape::inferReduce, makeReduce<ProdOp>);
  add(r, "ReduceL1", {1, 11, 13, 18}, shape::inferReduce, makeReduce<L1Op>);
  add(r, "ReduceL2", {1, 11, 13, 18}, shape::inferReduce, makeReduce<L2Op>);
  add(r, "ReduceLogSum", {1, 11, 13, 18}, shape::inferReduce, makeReduce<LogSumOp>);
  add(r, "ReduceLogSumExp", {1, 11, 13, 18}, shape::inferReduce, makeReduce<LogSumExpOp>);
  add(r, "ReduceSumSquare", {1, 11, 13, 18}, shape::inferReduce, makeReduce<SumSquareOp>);
  add(r, "ArgMax", {1, 11, 12, 13}, shape::inferArgReduce, makeArgReduce<true>);
  add(r, "ArgMin", {1, 11, 12, 13}, shape::inferArgReduce, makeArgReduce<false>);
  register_softmax(r);
}

}  // namespace oinfer
