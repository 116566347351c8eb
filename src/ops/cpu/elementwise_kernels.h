// Building blocks shared by the elementwise and activation families: type
// lists, the float compute type of the 16-bit floats, unary map and
// broadcasting binary/ternary loops, and registration helpers. An op is then
// a small functor plus one line of registration.
#pragma once

#include <array>
#include <initializer_list>
#include <type_traits>
#include <vector>

#include "ops/cpu/broadcast.h"
#include "ops/cpu/dispatch.h"
#include "ops/kernel.h"
#include "ops/registry.h"
#include "shape/elementwise.h"

namespace oinfer::cpu {

template <class... Ts> struct TypeList {};

using FloatTypes = TypeList<float, double, Float16, BFloat16>;
using SignedIntTypes = TypeList<int8_t, int16_t, int32_t, int64_t>;
using AllIntTypes = TypeList<int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t>;
using UnsignedIntTypes = TypeList<uint8_t, uint16_t, uint32_t, uint64_t>;
using NumericTypes = TypeList<float, double, Float16, BFloat16, int8_t, int16_t, int32_t, int64_t,
                              uint8_t, uint16_t, uint32_t, uint64_t>;
using SignedNumericTypes = TypeList<float, double, Float16, BFloat16, int8_t, int16_t, int32_t, int64_t>;
using BoolTypes = TypeList<bool>;

template <class... Ts>
std::vector<DataType> typesOf(TypeList<Ts...>) {
  return {dataTypeOf<Ts>...};
}

template <class... Ts, class F>
void dispatchList(TypeList<Ts...>, DataType dt, F&& f, const Node& node) {
  dispatchType<Ts...>(dt, std::forward<F>(f), node);
}

// 16-bit floats are computed in float.
template <class T>
using Compute = std::conditional_t<std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>, float, T>;

// Elements per parallel chunk: cheap ops need large chunks to beat the
// synchronisation cost; transcendental ones amortise it sooner.
inline constexpr int64_t kGrainCheap = 1 << 15;
inline constexpr int64_t kGrainHeavy = 1 << 12;

template <class F>
void parallelRange(ThreadPool& pool, int64_t n, int64_t grain, const F& body) {
  if (n <= 0) return;
  if (n < 2 * grain || pool.size() <= 1)
    body(int64_t{0}, n);
  else
    pool.parallelFor(n, body, grain);
}

// y[i] = op(x[i]) over contiguous data.
template <class In, class Out, class Op>
void mapUnary(ThreadPool& pool, const In* x, Out* y, int64_t n, const Op& op, int64_t grain) {
  parallelRange(pool, n, grain, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) y[i] = static_cast<Out>(op(static_cast<Compute<In>>(x[i])));
  });
}

// Runs row(outOffset, inOffsets, count) over the broadcast, in parallel.
template <size_t N, class Row>
void parallelRows(ThreadPool& pool, const Broadcaster<N>& bc, int64_t grain, const Row& row) {
  parallelRange(pool, bc.numel(), grain, [&](int64_t b, int64_t e) { bc.forEachRow(b, e, row); });
}

// o = op(a, b) with broadcasting. The inner loop is specialised on which side
// is broadcast along the row so each variant is a plain vectorisable loop.
template <class A, class B, class O, class Op>
void runBinary(ThreadPool& pool, const Broadcaster<2>& bc, const A* a, const B* b, O* o, const Op& op,
               int64_t grain = kGrainCheap) {
  using CA = Compute<A>;
  using CB = Compute<B>;
  const bool sa = bc.innerStride(0) != 0, sb = bc.innerStride(1) != 0;
  parallelRows(pool, bc, grain, [&](int64_t out, const int64_t* off, int64_t n) {
    const A* pa = a + off[0];
    const B* pb = b + off[1];
    O* po = o + out;
    if (sa && sb) {
      for (int64_t i = 0; i < n; ++i) po[i] = static_cast<O>(op(static_cast<CA>(pa[i]), static_cast<CB>(pb[i])));
    } else if (sa) {
      const CB vb = static_cast<CB>(*pb);
      for (int64_t i = 0; i < n; ++i) po[i] = static_cast<O>(op(static_cast<CA>(pa[i]), vb));
    } else if (sb) {
      const CA va = static_cast<CA>(*pa);
      for (int64_t i = 0; i < n; ++i) po[i] = static_cast<O>(op(va, static_cast<CB>(pb[i])));
    } else {
      const O v = static_cast<O>(op(static_cast<CA>(*pa), static_cast<CB>(*pb)));
      for (int64_t i = 0; i < n; ++i) po[i] = v;
    }
  });
}

// A broadcast plan built once per kernel when the planned shapes are static,
// else per run (then on the stack, so concurrent runs never share state).
template <size_t N>
class PlanCache {
 public:
  using Shapes = std::array<const std::vector<int64_t>*, N>;
  void prepare(const Shapes& in, const std::vector<int64_t>& out) { ready_ = pre_.init(in, out); }
  const Broadcaster<N>& get(const Shapes& in, const std::vector<int64_t>& out, Broadcaster<N>& local,
                            const KernelContext& ctx) const {
    if (ready_ && pre_.matches(in, out)) return pre_;
    if (!local.init(in, out)) {
      std::string msg = "cannot broadcast inputs";
      for (auto* s : in) msg += " " + shapeToString(*s);
      ctx.fail(msg + " to output " + shapeToString(out));
    }
    return local;
  }

 private:
  Broadcaster<N> pre_;
  bool ready_ = false;
};

// The static shape of a planned value, or false.
inline bool staticShapeOf(const ValueInfo* v, std::vector<int64_t>& out) {
  if (!v || !v->hasShape || !isStatic(v->shape)) return false;
  out = toStatic(v->shape);
  return true;
}

// Input 1's shape as broadcast sees it: the legacy (opset < 7) `broadcast` /
// `axis` form is rewritten into numpy form; `storage` holds a rewritten shape.
inline const std::vector<int64_t>& effectiveShapeB(const KernelContext& ctx, int64_t opset, const Tensor& a,
                                                   const Tensor& b, std::vector<int64_t>& storage) {
  if (opset >= 7) return b.shape();
  storage = shape::legacyExpand(b.shape(), a.rank(),
                                shape::legacyBroadcastAxis(ctx.node(), opset, a.rank(), b.rank()));
  return storage;
}

// A functor from the node's attributes when it has any.
template <class Op>
Op makeOp(const KernelInit& init) {
  if constexpr (std::is_constructible_v<Op, const KernelInit&>) return Op(init);
  else return Op{};
}

// Two same-typed inputs broadcast into one output of type T (or bool when
// BoolOut, for comparisons).
template <class Op, class Types, bool BoolOut = false>
class BinaryKernel final : public Kernel {
 public:
  explicit BinaryKernel(const KernelInit& init, int64_t grain = kGrainCheap)
      : op_(makeOp<Op>(init)), opset_(init.opset), grain_(grain) {
    std::vector<int64_t> a, b, o;
    if (init.opset >= 7 && staticShapeOf(init.inputs[0], a) && staticShapeOf(init.inputs[1], b) &&
        staticShapeOf(init.outputs[0], o))
      cache_.prepare({&a, &b}, o);
  }
  void run(KernelContext& ctx) override {
    const Tensor& a = ctx.input(0);
    const Tensor& b = ctx.input(1);
    Tensor& o = ctx.output(0);
    if (a.dtype() != b.dtype())
      ctx.fail(std::string("input types differ: ") + dataTypeName(a.dtype()) + " vs " + dataTypeName(b.dtype()));
    std::vector<int64_t> legacy;
    Broadcaster<2> local;
    const Broadcaster<2>& bc =
        cache_.get({&a.shape(), &effectiveShapeB(ctx, opset_, a, b, legacy)}, o.shape(), local, ctx);
    dispatchList(Types{}, a.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      using O = std::conditional_t<BoolOut, bool, T>;
      runBinary(ctx.pool(), bc, a.data<T>(), b.data<T>(), o.data<O>(), op_, grain_);
    }, ctx.node());
  }

 private:
  Op op_;
  int64_t opset_;
  int64_t grain_;
  PlanCache<2> cache_;
};

template <class Op, class Types, bool BoolOut = false>
KernelFactory binaryFactory() {
  return [](const KernelInit& init) -> std::unique_ptr<Kernel> {
    return std::make_unique<BinaryKernel<Op, Types, BoolOut>>(init);
  };
}

// A unary op whose functor Op (built from the KernelInit when it has
// attributes) maps Compute<T> to a value stored back as Out (T itself unless
// OutFixed is given, e.g. bool for IsNaN).
template <class Op, class OutFixed = void, class... Ts>
KernelFactory unaryFactory(TypeList<Ts...>, int64_t grain = kGrainCheap) {
  return [grain](const KernelInit& init) {
    Op op = makeOp<Op>(init);
    return makeKernel([op, grain](KernelContext& ctx) {
      const Tensor& x = ctx.input(0);
      Tensor& y = ctx.output(0);
      dispatchType<Ts...>(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        using Out = std::conditional_t<std::is_void_v<OutFixed>, T, OutFixed>;
        mapUnary(ctx.pool(), x.data<T>(), y.data<Out>(), x.numel(), op, grain);
      }, ctx.node());
    });
  };
}

// Family parts living in separate files.
void registerElementwiseUnary(Registry& r);
void registerElementwiseLogic(Registry& r);

}  // namespace oinfer::cpu
