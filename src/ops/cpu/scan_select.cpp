// Unique, Compress, CenterCropPad and LpNormalization (scan_ops family).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "ops/cpu/dispatch.h"
#include "ops/registry.h"
#include "shape/scan_ops.h"

namespace oinfer {

namespace {

#define OINFER_ALL_COPY_TYPES                                                                            \
  float, double, Float16, BFloat16, int8_t, uint8_t, int16_t, uint16_t, int32_t, int64_t, uint32_t, \
      uint64_t, bool, std::string

const std::vector<DataType> kAllTypes = {
    DataType::kFloat, DataType::kDouble, DataType::kFloat16, DataType::kBFloat16, DataType::kInt8,
    DataType::kUInt8, DataType::kInt16,  DataType::kUInt16,  DataType::kInt32,    DataType::kInt64,
    DataType::kUInt32, DataType::kUInt64, DataType::kBool,   DataType::kString};

template <class T>
using KeyOf = std::conditional_t<std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>, float, T>;

std::unique_ptr<Kernel> makeUnique(const KernelInit& init) {
  const bool sorted = init.node.attrInt("sorted", 1) != 0;
  const bool hasAxis = init.node.hasAttr("axis");
  const int64_t axisAttr = init.node.attrInt("axis", 0);
  return makeKernel([=](KernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    const int64_t rank = static_cast<int64_t>(x.rank());
    int64_t outer = 1, n = x.numel(), inner = 1, axis = 0;
    if (hasAxis) {
      axis = axisAttr < 0 ? axisAttr + rank : axisAttr;
      if (axis < 0 || axis >= rank)
        ctx.fail("axis " + std::to_string(axisAttr) + " is out of range for rank " + std::to_string(rank));
      n = x.dim(axis);
      for (int64_t d = 0; d < rank; ++d)
        if (d != axis) (d < axis ? outer : inner) *= x.dim(d);
    }
    dispatchType<OINFER_ALL_COPY_TYPES>(x.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      using K = KeyOf<T>;
      const T* px = x.data<T>();
      // Slice s is x[o, s, i] for all (o, i), in the order numpy's
      // moveaxis(axis, 0).reshape(n, -1) gives; slices compare lexicographically.
      const int64_t m = outer * inner;
      std::vector<K> keys(static_cast<size_t>(n * m));
      for (int64_t s = 0; s < n; ++s)
        for (int64_t o = 0; o < outer; ++o)
          for (int64_t i = 0; i < inner; ++i) keys[s * m + o * inner + i] = static_cast<K>(px[(o * n + s) * inner + i]);
      auto less = [&](int64_t a, int64_t b) {
        return std::lexicographical_compare(keys.begin() + a * m, keys.begin() + (a + 1) * m, keys.begin() + b * m,
                                            keys.begin() + (b + 1) * m);
      };
      auto equal = [&](int64_t a, int64_t b) {
        return std::equal(keys.begin() + a * m, keys.begin() + (a + 1) * m, keys.begin() + b * m);
      };
      std::vector<int64_t> order(n);
      std::iota(order.begin(), order.end(), int64_t{0});
      std::stable_sort(order.begin(), order.end(), less);
      // Groups in sorted order; each group's first member is its first occurrence.
      std::vector<int64_t> first, count, groupOf(n);
      for (int64_t j = 0; j < n; ++j) {
        if (j == 0 || !equal(order[j - 1], order[j])) {
          first.push_back(order[j]);
          count.push_back(0);
        }
        ++count.back();
        groupOf[order[j]] = static_cast<int64_t>(first.size()) - 1;
      }
      const int64_t u = static_cast<int64_t>(first.size());
      std::vector<int64_t> rankOf(u);  // output position of each group
      std::vector<int64_t> groups(u);
      std::iota(groups.begin(), groups.end(), int64_t{0});
      if (!sorted) std::sort(groups.begin(), groups.end(), [&](int64_t a, int64_t b) { return first[a] < first[b]; });
      for (int64_t p = 0; p < u; ++p) rankOf[groups[p]] = p;
      std::vector<int64_t> yshape = {u};
      if (hasAxis) {
        yshape = x.shape();
        yshape[axis] = u;
      }
      T* py = ctx.allocateOutput(0, yshape).template data<T>();
      for (int64_t p = 0; p < u; ++p) {
        const int64_t s = first[groups[p]];
        for (int64_t o = 0; o < outer; ++o)
          for (int64_t i = 0; i < inner; ++i) py[(o * u + p) * inner + i] = px[(o * n + s) * inner + i];
      }
      if (ctx.hasOutput(1)) {
        int64_t* p1 = ctx.allocateOutput(1, {u}, DataType::kInt64).data<int64_t>();
        for (int64_t p = 0; p < u; ++p) p1[p] = first[groups[p]];
      }
      if (ctx.hasOutput(2)) {
        int64_t* p2 = ctx.allocateOutput(2, {n}, DataType::kInt64).data<int64_t>();
        for (int64_t s = 0; s < n; ++s) p2[s] = rankOf[groupOf[s]];
      }
      if (ctx.hasOutput(3)) {
        int64_t* p3 = ctx.allocateOutput(3, {u}, DataType::kInt64).data<int64_t>();
        for (int64_t p = 0; p < u; ++p) p3[p] = count[groups[p]];
      }
    }, ctx.node());
  });
}

// Copies `count` elements; strings by assignment, everything else by bytes.
void copyElems(const Tensor& src, int64_t si, Tensor& dst, int64_t di, int64_t count) {
  if (count <= 0) return;
  if (src.dtype() == DataType::kString) {
    std::copy_n(src.data<std::string>() + si, count, dst.data<std::string>() + di);
    return;
  }
  const size_t es = dataTypeSize(src.dtype());
  std::memcpy(static_cast<char*>(dst.data()) + di * es, static_cast<const char*>(src.data()) + si * es, count * es);
}

std::unique_ptr<Kernel> makeCompress(const KernelInit& init) {
  const bool hasAxis = init.node.hasAttr("axis");
  const int64_t axisAttr = init.node.attrInt("axis", 0);
  return makeKernel([=](KernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    const Tensor& c = ctx.input(1);
    if (c.rank() != 1)
      ctx.fail("condition input 1 ('" + ctx.node().inputs[1] + "') must be 1-d, got shape " + shapeToString(c.shape()));
    const int64_t rank = static_cast<int64_t>(x.rank());
    int64_t outer = 1, n = x.numel(), inner = 1, axis = 0;
    if (hasAxis) {
      axis = axisAttr < 0 ? axisAttr + rank : axisAttr;
      if (axis < 0 || axis >= rank)
        ctx.fail("axis " + std::to_string(axisAttr) + " is out of range for rank " + std::to_string(rank));
      n = x.dim(axis);
      for (int64_t d = 0; d < rank; ++d)
        if (d != axis) (d < axis ? outer : inner) *= x.dim(d);
    }
    if (c.numel() > n)
      ctx.fail("condition input 1 ('" + ctx.node().inputs[1] + "') has " + std::to_string(c.numel()) +
               " values, more than the " + std::to_string(n) + " along the axis of input 0 shape " +
               shapeToString(x.shape()));
    const bool* pc = c.data<bool>();
    std::vector<int64_t> keep;
    for (int64_t s = 0; s < c.numel(); ++s)
      if (pc[s]) keep.push_back(s);
    const int64_t k = static_cast<int64_t>(keep.size());
    std::vector<int64_t> yshape = {k};
    if (hasAxis) {
      yshape = x.shape();
      yshape[axis] = k;
    }
    Tensor& y = ctx.allocateOutput(0, yshape, x.dtype());
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t j = 0; j < k; ++j) copyElems(x, (o * n + keep[j]) * inner, y, (o * k + j) * inner, inner);
  });
}

std::unique_ptr<Kernel> makeCenterCropPad(const KernelInit& init) {
  const std::vector<int64_t> axesAttr = init.node.attrInts("axes", {});
  return makeKernel([=](KernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    const auto target = ctx.input(1).toInt64Vector();
    const int64_t rank = static_cast<int64_t>(x.rank());
    std::vector<int64_t> axes = axesAttr;
    if (axes.empty())
      for (int64_t a = 0; a < rank; ++a) axes.push_back(a);
    if (target.size() != axes.size())
      ctx.fail("shape input 1 ('" + ctx.node().inputs[1] + "') has " + std::to_string(target.size()) +
               " values for " + std::to_string(axes.size()) + " axes");
    std::vector<int64_t> out = x.shape(), srcOff(rank, 0), dstOff(rank, 0), len = x.shape();
    for (size_t j = 0; j < axes.size(); ++j) {
      const int64_t a = axes[j] < 0 ? axes[j] + rank : axes[j];
      if (a < 0 || a >= rank) ctx.fail("axis " + std::to_string(axes[j]) + " is out of range for rank " + std::to_string(rank));
      const int64_t in = x.dim(a), want = target[j];
      if (want < 0) ctx.fail("shape input 1 holds a negative size " + std::to_string(want));
      out[a] = want;
      len[a] = std::min(in, want);
      if (want < in) srcOff[a] = (in - want) / 2;
      else dstOff[a] = (want - in) / 2;
    }
    Tensor& y = ctx.allocateOutput(0, out, x.dtype());
    const int64_t total = y.numel();
    // Zero the pad region first, then copy the kept box row by row.
    if (y.dtype() == DataType::kString) {
      std::fill_n(y.data<std::string>(), total, std::string());
    } else {
      std::memset(y.data(), 0, y.nbytes());
    }
    if (rank == 0) {
      copyElems(x, 0, y, 0, 1);
      return;
    }
    int64_t rows = 1;
    for (int64_t d = 0; d + 1 < rank; ++d) rows *= len[d];
    std::vector<int64_t> idx(rank, 0);
    for (int64_t r = 0; r < rows && len[rank - 1] > 0; ++r) {
      int64_t rem = r, si = 0, di = 0;
      for (int64_t d = rank - 2; d >= 0; --d) {
        idx[d] = rem % len[d];
        rem /= len[d];
      }
      for (int64_t d = 0; d < rank; ++d) {
        const int64_t i = d + 1 < rank ? idx[d] : 0;
        si = si * x.dim(d) + i + srcOff[d];
        di = di * out[d] + i + dstOff[d];
      }
      copyElems(x, si, y, di, len[rank - 1]);
    }
  });
}

std::unique_ptr<Kernel> makeLpNormalization(const KernelInit& init) {
  const int64_t axisAttr = init.node.attrInt("axis", -1);
  const int64_t p = init.node.attrInt("p", 2);
  if (p != 1 && p != 2) init.fail("p must be 1 or 2, got " + std::to_string(p));
  return makeKernel([=](KernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    const int64_t rank = static_cast<int64_t>(x.rank());
    const int64_t axis = axisAttr < 0 ? axisAttr + rank : axisAttr;
    if (axis < 0 || axis >= rank)
      ctx.fail("axis " + std::to_string(axisAttr) + " is out of range for rank " + std::to_string(rank));
    int64_t outer = 1, n = x.dim(axis), inner = 1;
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis) (d < axis ? outer : inner) *= x.dim(d);
    dispatchType<float, double, Float16>(x.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      using A = std::conditional_t<std::is_same_v<T, double>, double, float>;
      const T* px = x.data<T>();
      T* py = ctx.output(0).data<T>();
      ctx.pool().parallelFor(outer * inner, [&](int64_t b, int64_t e) {
        for (int64_t t = b; t < e; ++t) {
          const int64_t base = (t / inner) * n * inner + t % inner;
          A acc = 0;
          for (int64_t j = 0; j < n; ++j) {
            const A v = static_cast<A>(px[base + j * inner]);
            acc += p == 1 ? std::abs(v) : v * v;
          }
          const A norm = p == 1 ? acc : std::sqrt(acc);
          for (int64_t j = 0; j < n; ++j)
            py[base + j * inner] = static_cast<T>(norm == A(0) ? A(0) : static_cast<A>(px[base + j * inner]) / norm);
        }
      }, std::max<int64_t>(1, 16384 / std::max<int64_t>(n, 1)));
    }, ctx.node());
  });
}

}  // namespace

void register_scan_select(Registry& r) {
  addVersions(r, "Unique", {11}, shape::inferUnique, makeUnique, kAllTypes);
  addVersions(r, "Compress", {9, 11}, shape::inferCompress, makeCompress, kAllTypes);
  addVersions(r, "CenterCropPad", {18}, shape::inferCenterCropPad, makeCenterCropPad, kAllTypes);
  addVersions(r, "LpNormalization", {1, 22}, shape::propagateUnary, makeLpNormalization,
              {DataType::kFloat, DataType::kDouble, DataType::kFloat16});
}

}  // namespace oinfer
