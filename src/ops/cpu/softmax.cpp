// Softmax, LogSoftmax and Hardmax. Before opset 13 the input is read as a
// 2-d [prod(shape[:axis]), prod(shape[axis:])] matrix and each row is
// normalised; from 13 on only the one axis is, so the tensor reads as
// outer x n x inner with the axis strided by `inner`.
#include <cmath>

#include "ops/cpu/dispatch.h"
#include "ops/cpu/fused_transformer_rows.h"
#include "ops/cpu/reduce_axes.h"
#include "ops/registry.h"
#include "shape/reduce.h"

namespace oinfer {

namespace {

enum class Mode { kSoftmax, kLogSoftmax, kHardmax };

// Compute type: double stays double, float16 and float work in float.
template <class T>
using ComputeOf = std::conditional_t<std::is_same_v<T, double>, double, float>;

// One (outer, inner-column block) slice: x and y point at element [o, 0, i0];
// `width` columns, each normalised over its n elements strided by `inner`.
template <Mode kMode, class T, class C = ComputeOf<T>>
void normalizeSlice(const T* x, T* y, int64_t n, int64_t inner, int64_t width, C* acc, C* mx, int64_t* arg) {
  auto at = [&](int64_t r, int64_t i) { return static_cast<C>(static_cast<cpu::AccOf<T>>(x[r * inner + i])); };
  for (int64_t i = 0; i < width; ++i) {
    mx[i] = at(0, i);
    arg[i] = 0;
  }
  for (int64_t r = 1; r < n; ++r)
    for (int64_t i = 0; i < width; ++i)
      if (at(r, i) > mx[i]) { mx[i] = at(r, i); arg[i] = r; }
  if constexpr (kMode == Mode::kHardmax) {
    for (int64_t r = 0; r < n; ++r)
      for (int64_t i = 0; i < width; ++i) y[r * inner + i] = T(static_cast<C>(arg[i] == r ? 1 : 0));
    return;
  }
  std::fill(acc, acc + width, C(0));
  for (int64_t r = 0; r < n; ++r)
    for (int64_t i = 0; i < width; ++i) acc[i] += std::exp(at(r, i) - mx[i]);
  // Softmax multiplies by 1/sum; LogSoftmax subtracts max + log(sum).
  for (int64_t i = 0; i < width; ++i) acc[i] = kMode == Mode::kSoftmax ? C(1) / acc[i] : std::log(acc[i]) + mx[i];
  for (int64_t r = 0; r < n; ++r)
    for (int64_t i = 0; i < width; ++i)
      y[r * inner + i] = T(kMode == Mode::kSoftmax ? std::exp(at(r, i) - mx[i]) * acc[i] : at(r, i) - acc[i]);
}

template <Mode kMode>
std::unique_ptr<Kernel> makeSoftmax(const KernelInit& init) {
  const bool coerce2d = init.opset < 13;
  const int64_t axisAttr = init.node.attrInt("axis", coerce2d ? 1 : -1);
  return makeKernel([coerce2d, axisAttr](KernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    const int64_t rank = static_cast<int64_t>(x.rank());
    const int64_t axis = axisAttr < 0 ? axisAttr + rank : axisAttr;
    if (axis < 0 || axis > rank || (!coerce2d && axis == rank))
      ctx.fail("axis " + std::to_string(axisAttr) + " is out of range for rank " + std::to_string(rank));
    int64_t outer = 1, n = 1, inner = 1;
    for (int64_t d = 0; d < rank; ++d) (d < axis ? outer : d == axis || coerce2d ? n : inner) *= x.dim(d);
    if (x.numel() == 0) return;
    if constexpr (kMode == Mode::kSoftmax) {
      // The common case (float, normalised axis innermost) runs one
      // vectorised row at a time.
      if (inner == 1 && x.dtype() == DataType::kFloat) {
        const float* px = x.data<float>();
        float* py = ctx.output(0).data<float>();
        ctx.pool().parallelFor(outer, [&](int64_t r0, int64_t r1) {
          for (int64_t r = r0; r < r1; ++r) cpu::softmaxRow(px + r * n, py + r * n, n);
        }, std::max<int64_t>(1, cpu::kReduceGrain / std::max<int64_t>(n, 1)));
        return;
      }
    }
    constexpr int64_t kBlock = 64;
    const int64_t blocks = (inner + kBlock - 1) / kBlock;
    dispatchType<float, double, Float16>(x.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* px = x.data<T>();
      T* py = ctx.output(0).data<T>();
      ctx.pool().parallelFor(outer * blocks, [&](int64_t b, int64_t e) {
        ComputeOf<T> acc[kBlock], mx[kBlock];
        int64_t arg[kBlock];
        for (int64_t t = b; t < e; ++t) {
          const int64_t o = t / blocks, i0 = (t % blocks) * kBlock, w = std::min(kBlock, inner - i0);
          const int64_t off = o * n * inner + i0;
          normalizeSlice<kMode>(px + off, py + off, n, inner, w, acc, mx, arg);
        }
      }, std::max<int64_t>(1, cpu::kReduceGrain / (n * std::min(kBlock, inner))));
    }, ctx.node());
  });
}

}  // namespace

void register_softmax(Registry& r) {
  const std::vector<DataType> types = {DataType::kFloat, DataType::kDouble, DataType::kFloat16};
  for (int v : {1, 11, 13}) {
    r.add(OpDef{"", "Softmax", v, shape::inferSoftmax, makeSoftmax<Mode::kSoftmax>, {}, types});
    r.add(OpDef{"", "LogSoftmax", v, shape::inferSoftmax, makeSoftmax<Mode::kLogSoftmax>, {}, types});
    r.add(OpDef{"", "Hardmax", v, shape::inferSoftmax, makeSoftmax<Mode::kHardmax>, {}, types});
  }
}

}  // namespace oinfer
