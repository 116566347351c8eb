// CumSum, CumProd and TopK: ops that walk one axis of an outer x n x inner
// view. The rest of the family lives in scan_select.cpp (Unique, Compress,
// CenterCropPad, LpNormalization) and einsum.cpp.
#include <algorithm>
#include <numeric>

#include "ops/cpu/dispatch.h"
#include "ops/registry.h"
#include "shape/scan_ops.h"

namespace oinfer {

void register_scan_select(Registry& r);
void register_einsum(Registry& r);

namespace {

template <class T>
using AccT = std::conditional_t<std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>, float, T>;

void splitAxis(const std::vector<int64_t>& shape, int64_t axis, int64_t& outer, int64_t& n, int64_t& inner) {
  outer = n = inner = 1;
  for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d)
    (d < axis ? outer : d == axis ? n : inner) *= shape[d];
}

template <bool kProd>
std::unique_ptr<Kernel> makeCumulative(const KernelInit& init) {
  const bool exclusive = init.node.attrInt("exclusive", 0) != 0;
  const bool reverse = init.node.attrInt("reverse", 0) != 0;
  return makeKernel([exclusive, reverse](KernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    const auto av = ctx.input(1).toInt64Vector();
    if (av.size() != 1 || ctx.input(1).rank() > 1)
      ctx.fail("axis input 1 ('" + ctx.node().inputs[1] + "') must be a scalar, got shape " +
               shapeToString(ctx.input(1).shape()));
    const int64_t rank = static_cast<int64_t>(x.rank());
    const int64_t axis = av[0] < 0 ? av[0] + rank : av[0];
    if (axis < 0 || axis >= std::max<int64_t>(rank, 1))
      ctx.fail("axis " + std::to_string(av[0]) + " is out of range for rank " + std::to_string(rank));
    int64_t outer, n, inner;
    splitAxis(x.shape(), axis, outer, n, inner);
    dispatchType<float, double, int32_t, int64_t, uint32_t, uint64_t, Float16, BFloat16>(x.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      using A = AccT<T>;
      const T* px = x.data<T>();
      T* py = ctx.output(0).data<T>();
      ctx.pool().parallelFor(outer * inner, [&](int64_t b, int64_t e) {
        for (int64_t t = b; t < e; ++t) {
          const int64_t base = (t / inner) * n * inner + t % inner;
          A acc = kProd ? A(1) : A(0);
          for (int64_t s = 0; s < n; ++s) {
            const int64_t j = base + (reverse ? n - 1 - s : s) * inner;
            const A v = static_cast<A>(px[j]);
            if (exclusive) {
              py[j] = static_cast<T>(acc);
              acc = kProd ? A(acc * v) : A(acc + v);
            } else {
              acc = kProd ? A(acc * v) : A(acc + v);
              py[j] = static_cast<T>(acc);
            }
          }
        }
      }, std::max<int64_t>(1, 16384 / std::max<int64_t>(n, 1)));
    }, ctx.node());
  });
}

std::unique_ptr<Kernel> makeTopK(const KernelInit& init) {
  const int64_t axisAttr = init.node.attrInt("axis", -1);
  const bool largest = init.node.attrInt("largest", 1) != 0;
  const int64_t opset = init.opset;
  const int64_t kAttr = init.node.attrInt("k", -1);
  return makeKernel([=](KernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    const int64_t rank = static_cast<int64_t>(x.rank());
    const int64_t axis = axisAttr < 0 ? axisAttr + rank : axisAttr;
    if (axis < 0 || axis >= rank)
      ctx.fail("axis " + std::to_string(axisAttr) + " is out of range for rank " + std::to_string(rank));
    int64_t k = kAttr;
    if (opset >= 10) {
      const auto kv = ctx.input(1).toInt64Vector();
      if (kv.size() != 1)
        ctx.fail("k input 1 ('" + ctx.node().inputs[1] + "') must hold one value, got shape " +
                 shapeToString(ctx.input(1).shape()));
      k = kv[0];
    }
    int64_t outer, n, inner;
    splitAxis(x.shape(), axis, outer, n, inner);
    if (k < 0 || k > n)
      ctx.fail("k " + std::to_string(k) + " is out of range for axis dim " + std::to_string(n) + " of input 0 ('" +
               ctx.node().inputs[0] + "') shape " + shapeToString(x.shape()));
    // k may be known only now, so the outputs may not be planned yet.
    std::vector<int64_t> oshape = x.shape();
    oshape[axis] = k;
    Tensor& vals = ctx.allocateOutput(0, oshape, x.dtype());
    int64_t* pi = ctx.hasOutput(1) ? ctx.allocateOutput(1, oshape, DataType::kInt64).data<int64_t>() : nullptr;
    if (k == 0) return;
    dispatchType<float, double, Float16, BFloat16, int8_t, uint8_t, int16_t, uint16_t, int32_t, int64_t, uint32_t,
                 uint64_t>(x.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      using A = AccT<T>;
      const T* px = x.data<T>();
      T* pv = vals.data<T>();
      ctx.pool().parallelFor(outer * inner, [&](int64_t b, int64_t e) {
        std::vector<int64_t> order(n);
        std::vector<A> v(n);
        for (int64_t t = b; t < e; ++t) {
          const int64_t o = t / inner, i = t % inner;
          const T* src = px + o * n * inner + i;
          for (int64_t j = 0; j < n; ++j) v[j] = static_cast<A>(src[j * inner]);
          std::iota(order.begin(), order.end(), int64_t{0});
          // Ties keep the lower index first, as onnxruntime does.
          auto cmp = [&](int64_t a, int64_t c) {
            if (v[a] != v[c]) return largest ? v[a] > v[c] : v[a] < v[c];
            return a < c;
          };
          std::partial_sort(order.begin(), order.begin() + k, order.end(), cmp);
          const int64_t ob = o * k * inner + i;
          for (int64_t j = 0; j < k; ++j) {
            pv[ob + j * inner] = src[order[j] * inner];
            if (pi) pi[ob + j * inner] = order[j];
          }
        }
      }, std::max<int64_t>(1, 4096 / std::max<int64_t>(n, 1)));
    }, ctx.node());
  });
}

}  // namespace

void register_scan_ops(Registry& r) {
  const std::vector<DataType> cumTypes = {DataType::kFloat,  DataType::kDouble,  DataType::kInt32,
                                          DataType::kInt64,  DataType::kUInt32,  DataType::kUInt64,
                                          DataType::kFloat16, DataType::kBFloat16};
  addVersions(r, "CumSum", {11, 14}, shape::propagateUnary, makeCumulative<false>, cumTypes);
  addVersions(r, "CumProd", {26}, shape::propagateUnary, makeCumulative<true>, cumTypes);
  const std::vector<DataType> topkTypes = {DataType::kFloat, DataType::kDouble, DataType::kFloat16,
                                           DataType::kBFloat16, DataType::kInt8, DataType::kUInt8,
                                           DataType::kInt16, DataType::kUInt16, DataType::kInt32,
                                           DataType::kInt64, DataType::kUInt32, DataType::kUInt64};
  addVersions(r, "TopK", {1, 10, 11, 24}, shape::inferTopK, makeTopK, topkTypes);
  register_scan_select(r);
  register_einsum(r);
}

}  // namespace oinfer
