// Tensor family kernels driven by index tensors: Gather, GatherElements,
// GatherND, Scatter, ScatterElements, ScatterND, OneHot, NonZero.
#include <algorithm>
#include <cmath>

#include "ops/cpu/tensor_common.h"
#include "shape/index_check.h"
#include "shape/tensor.h"

namespace oinfer::tensor_ops {

namespace {

// Every shape and index check goes through shape::IndexChecker, before
// anything is read or written: the kernels below address data only through
// the normalised positions it returns.
shape::IndexChecker checker(const KernelContext& ctx) {
  return shape::IndexChecker(ctx.node(), ErrorCode::kInvalidArgument);
}

int64_t normAxis(const KernelContext& ctx, int64_t axis, int64_t r) {
  const int64_t a = axis < 0 ? axis + r : axis;
  if (a < 0 || a >= r) ctx.fail("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(r));
  return a;
}

// Gather keeps its index scratch between runs so a warm run allocates nothing.
class GatherKernel final : public Kernel {
 public:
  explicit GatherKernel(int64_t axis) : axisAttr_(axis) {}
  void run(KernelContext& ctx) override {
    const Tensor& data = ctx.input(0);
    const Tensor& indices = ctx.input(1);
    const int64_t r = static_cast<int64_t>(data.rank());
    const int64_t axis = normAxis(ctx, axisAttr_, r);
    const int64_t d = data.dim(axis);
    const int64_t outer = product(data.shape(), 0, axis), inner = product(data.shape(), axis + 1, r);
    const int64_t N = indices.numel();
    checker(ctx).normalize(indices, 1, 0, data.shape(), axis, pos_);
    Tensor& out = ctx.output(0);
    if (out.numel() != outer * N * inner)
      ctx.fail("output shape " + shapeToString(out.shape()) + " does not match data " + shapeToString(data.shape()) +
               " gathered by indices " + shapeToString(indices.shape()));
    const int64_t* pos = pos_.data();
    dispatchBytes(
        data.dtype(),
        [&](auto tag) {
          using T = typename decltype(tag)::type;
          const T* s = static_cast<const T*>(data.data());
          T* o = static_cast<T*>(out.data());
          ctx.pool().parallelFor(outer * N, [&](int64_t b, int64_t e) {
            for (int64_t j = b; j < e; ++j) {
              const int64_t oi = j / N, n = j % N;
              copyElems(s + (oi * d + pos[n]) * inner, o + j * inner, inner);
            }
          }, std::max<int64_t>(1, 4096 / std::max<int64_t>(inner, 1)));
        },
        ctx.node());
  }

 private:
  int64_t axisAttr_;
  std::vector<int64_t> pos_;
};

std::unique_ptr<Kernel> gatherKernel(const KernelInit& init) {
  return std::make_unique<GatherKernel>(init.node.attrInt("axis", 0));
}

// Calls f(dataOffset, indexValue) for every element of `indices` (same rank
// as data), where dataOffset is the element's position in data with the
// `axis` coordinate zeroed.
template <class F>
void forEachAlongAxis(const std::vector<int64_t>& ishape, const std::vector<int64_t>& dstrides, int64_t axis, F&& f) {
  const int64_t r = static_cast<int64_t>(ishape.size());
  int64_t n = 1;
  for (int64_t dd : ishape) n *= dd;
  std::vector<int64_t> c(r, 0);
  for (int64_t i = 0; i < n; ++i) {
    int64_t off = 0;
    for (int64_t k = 0; k < r; ++k)
      if (k != axis) off += c[k] * dstrides[k];
    f(i, off);
    for (int64_t k = r - 1; k >= 0; --k) {
      if (++c[k] < ishape[k]) break;
      c[k] = 0;
    }
  }
}

std::unique_ptr<Kernel> gatherElementsKernel(const KernelInit& init) {
  const int64_t axisAttr = init.node.attrInt("axis", 0);
  return makeKernel([axisAttr](KernelContext& ctx) {
    const Tensor& data = ctx.input(0);
    const Tensor& it = ctx.input(1);
    const int64_t r = static_cast<int64_t>(data.rank());
    const auto chk = checker(ctx);
    const int64_t axis = normAxis(ctx, axisAttr, r);
    chk.elementsShape(0, data.shape(), 1, it.shape(), axis);
    std::vector<int64_t> idx;
    chk.normalize(it, 1, 0, data.shape(), axis, idx);
    const auto ds = rowMajorStrides(data.shape());
    Tensor& out = ctx.output(0);
    if (out.shape() != it.shape())
      ctx.fail("output shape " + shapeToString(out.shape()) + " differs from indices shape " + shapeToString(it.shape()));
    dispatchBytes(
        data.dtype(),
        [&](auto tag) {
          using T = typename decltype(tag)::type;
          const T* s = static_cast<const T*>(data.data());
          T* o = static_cast<T*>(out.data());
          forEachAlongAxis(it.shape(), ds, axis, [&](int64_t i, int64_t off) {
            o[i] = s[off + idx[i] * ds[axis]];
          });
        },
        ctx.node());
  });
}

std::unique_ptr<Kernel> gatherNDKernel(const KernelInit& init) {
  const int64_t b = init.opset >= 12 ? init.node.attrInt("batch_dims", 0) : 0;
  return makeKernel([b](KernelContext& ctx) {
    const Tensor& data = ctx.input(0);
    const Tensor& it = ctx.input(1);
    const int64_t r = static_cast<int64_t>(data.rank()), q = static_cast<int64_t>(it.rank());
    const auto chk = checker(ctx);
    chk.gatherNDShape(0, data.shape(), 1, it.shape(), b);
    std::vector<int64_t> idx;
    chk.normalizeTuples(it, 1, 0, data.shape(), b, idx);
    const int64_t last = it.dim(q - 1);
    const int64_t batches = product(data.shape(), 0, b);
    const int64_t rowsPerBatch = product(it.shape(), b, q - 1);
    const int64_t slice = product(data.shape(), b + last, r);
    const int64_t batchStride = product(data.shape(), b, r);
    const auto ds = rowMajorStrides(data.shape());
    Tensor& out = ctx.output(0);
    if (out.numel() != batches * rowsPerBatch * slice)
      ctx.fail("output shape " + shapeToString(out.shape()) + " does not match data " + shapeToString(data.shape()) +
               " gathered by indices " + shapeToString(it.shape()));
    dispatchBytes(
        data.dtype(),
        [&](auto tag) {
          using T = typename decltype(tag)::type;
          const T* s = static_cast<const T*>(data.data());
          T* o = static_cast<T*>(out.data());
          for (int64_t bi = 0; bi < batches; ++bi)
            for (int64_t row = 0; row < rowsPerBatch; ++row) {
              const int64_t ir = bi * rowsPerBatch + row;
              int64_t off = bi * batchStride;
              for (int64_t j = 0; j < last; ++j)
                off += idx[ir * last + j] * ds[b + j];
              copyElems(s + off, o + ir * slice, slice);
            }
        },
        ctx.node());
  });
}

enum class Reduction { kNone, kAdd, kMul, kMax, kMin };

Reduction parseReduction(const KernelInit& init) {
  const std::string s = init.opset >= 16 ? init.node.attrString("reduction", "none") : "none";
  if (s == "none") return Reduction::kNone;
  if (s == "add") return Reduction::kAdd;
  if (s == "mul") return Reduction::kMul;
  if (s == "max" && init.opset >= 18) return Reduction::kMax;
  if (s == "min" && init.opset >= 18) return Reduction::kMin;
  init.fail("unsupported reduction '" + s + "'");
}

// Calls f(TypeTag<T>, combine) where combine(dst, src) applies the reduction.
template <class F>
void withReduction(DataType dt, Reduction red, const Node& node, F&& f) {
  if (red == Reduction::kNone) {
    dispatchBytes(dt, [&](auto tag) {
      using T = typename decltype(tag)::type;
      f(tag, [](T& d, const T& s) { d = s; });
    }, node);
    return;
  }
  dispatchType<float, double, int32_t, int64_t, int8_t, int16_t, uint8_t, uint16_t, uint32_t, uint64_t>(
      dt,
      [&](auto tag) {
        using T = typename decltype(tag)::type;
        switch (red) {
          case Reduction::kAdd: f(tag, [](T& d, const T& s) { d = d + s; }); break;
          case Reduction::kMul: f(tag, [](T& d, const T& s) { d = d * s; }); break;
          case Reduction::kMax: f(tag, [](T& d, const T& s) { d = std::max(d, s); }); break;
          default: f(tag, [](T& d, const T& s) { d = std::min(d, s); }); break;
        }
      },
      node);
}

std::unique_ptr<Kernel> scatterElementsKernel(const KernelInit& init) {
  const int64_t axisAttr = init.node.attrInt("axis", 0);
  const Reduction red = parseReduction(init);
  return makeKernel([=](KernelContext& ctx) {
    const Tensor& data = ctx.input(0);
    const Tensor& it = ctx.input(1);
    const Tensor& upd = ctx.input(2);
    const int64_t r = static_cast<int64_t>(data.rank());
    const auto chk = checker(ctx);
    chk.sameShape(1, it.shape(), 2, upd.shape());
    const int64_t axis = normAxis(ctx, axisAttr, r);
    chk.elementsShape(0, data.shape(), 1, it.shape(), axis);
    std::vector<int64_t> idx;  // every index checked before the first write
    chk.normalize(it, 1, 0, data.shape(), axis, idx);
    const auto ds = rowMajorStrides(data.shape());
    Tensor& out = ctx.output(0);
    out.copyFrom(data);
    withReduction(data.dtype(), red, ctx.node(), [&](auto tag, auto combine) {
      using T = typename decltype(tag)::type;
      const T* u = static_cast<const T*>(upd.data());
      T* o = static_cast<T*>(out.data());
      forEachAlongAxis(it.shape(), ds, axis, [&](int64_t i, int64_t off) {
        combine(o[off + idx[i] * ds[axis]], u[i]);
      });
    });
  });
}

std::unique_ptr<Kernel> scatterNDKernel(const KernelInit& init) {
  const Reduction red = parseReduction(init);
  return makeKernel([=](KernelContext& ctx) {
    const Tensor& data = ctx.input(0);
    const Tensor& it = ctx.input(1);
    const Tensor& upd = ctx.input(2);
    const int64_t r = static_cast<int64_t>(data.rank()), q = static_cast<int64_t>(it.rank());
    const auto chk = checker(ctx);
    chk.scatterNDShape(0, data.shape(), 1, it.shape(), 2, upd.shape());
    std::vector<int64_t> idx;  // every index tuple checked before the first write
    chk.normalizeTuples(it, 1, 0, data.shape(), 0, idx);
    const int64_t last = it.dim(q - 1);
    const int64_t rows = product(it.shape(), 0, q - 1), slice = product(data.shape(), last, r);
    const auto ds = rowMajorStrides(data.shape());
    Tensor& out = ctx.output(0);
    out.copyFrom(data);
    withReduction(data.dtype(), red, ctx.node(), [&](auto tag, auto combine) {
      using T = typename decltype(tag)::type;
      const T* u = static_cast<const T*>(upd.data());
      T* o = static_cast<T*>(out.data());
      for (int64_t row = 0; row < rows; ++row) {
        int64_t off = 0;
        for (int64_t j = 0; j < last; ++j) off += idx[row * last + j] * ds[j];
        for (int64_t e = 0; e < slice; ++e) combine(o[off + e], u[row * slice + e]);
      }
    });
  });
}

std::unique_ptr<Kernel> oneHotKernel(const KernelInit& init) {
  const int64_t axisAttr = init.node.attrInt("axis", -1);
  return makeKernel([axisAttr](KernelContext& ctx) {
    const Tensor& it = ctx.input(0);
    const auto idx = readInts(it);
    const auto dv = readInts(ctx.input(1));
    if (dv.size() != 1 || dv[0] < 1) ctx.fail("depth must be one positive value");
    const int64_t depth = dv[0];
    const Tensor& values = ctx.input(2);
    if (values.numel() != 2) ctx.fail("values must hold [off_value, on_value]");
    const int64_t r = static_cast<int64_t>(it.rank());
    const int64_t axis = axisAttr < 0 ? axisAttr + r + 1 : axisAttr;
    if (axis < 0 || axis > r) ctx.fail("axis " + std::to_string(axisAttr) + " is out of range");
    std::vector<int64_t> shape = it.shape();
    shape.insert(shape.begin() + axis, depth);
    Tensor& out = ctx.allocateOutput(0, shape, values.dtype());
    const int64_t outer = product(it.shape(), 0, axis), inner = product(it.shape(), axis, r);
    dispatchBytes(
        values.dtype(),
        [&](auto tag) {
          using T = typename decltype(tag)::type;
          const T* v = static_cast<const T*>(values.data());
          T* o = static_cast<T*>(out.data());
          std::fill_n(o, out.numel(), v[0]);
          for (int64_t a = 0; a < outer; ++a)
            for (int64_t i = 0; i < inner; ++i) {
              int64_t k = idx[a * inner + i];
              if (k < 0) k += depth;
              if (k >= 0 && k < depth) o[(a * depth + k) * inner + i] = v[1];
            }
        },
        ctx.node());
  });
}

std::unique_ptr<Kernel> nonZeroKernel(const KernelInit&) {
  return makeKernel([](KernelContext& ctx) {
    const Tensor& in = ctx.input(0);
    std::vector<int64_t> hits;
    dispatchType<float, double, Float16, BFloat16, int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t,
                 uint64_t, bool>(
        in.dtype(),
        [&](auto tag) {
          using T = typename decltype(tag)::type;
          const T* p = in.data<T>();
          for (int64_t i = 0; i < in.numel(); ++i) {
            bool nz;
            if constexpr (std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>) nz = static_cast<float>(p[i]) != 0.f;
            else nz = p[i] != T(0);
            if (nz) hits.push_back(i);
          }
        },
        ctx.node());
    const int64_t r = static_cast<int64_t>(in.rank()), n = static_cast<int64_t>(hits.size());
    Tensor& out = ctx.allocateOutput(0, {r, n}, DataType::kInt64);
    const auto st = rowMajorStrides(in.shape());
    int64_t* o = out.data<int64_t>();
    for (int64_t j = 0; j < n; ++j)
      for (int64_t k = 0; k < r; ++k) o[k * n + j] = (hits[j] / st[k]) % in.dim(k);
  });
}

}  // namespace

void register_tensor_gather(Registry& r) {
  const auto all = allTypes();
  addVersions(r, "Gather", {1, 11, 13}, shape::inferGather, gatherKernel, all);
  addVersions(r, "GatherElements", {11, 13}, shape::inferGatherElements, gatherElementsKernel, all);
  addVersions(r, "GatherND", {11, 12, 13}, shape::inferGatherND, gatherNDKernel, all);
  addVersions(r, "Scatter", {9, 11}, shape::inferScatter, scatterElementsKernel, all);
  addVersions(r, "ScatterElements", {11, 13, 16, 18}, shape::inferScatter, scatterElementsKernel, all);
  addVersions(r, "ScatterND", {11, 13, 16, 18}, shape::inferScatterND, scatterNDKernel, all);
  addVersions(r, "OneHot", {9, 11}, shape::inferOneHot, oneHotKernel, all);
  addVersions(r, "NonZero", {9, 13}, shape::inferNonZero, nonZeroKernel, numericTypes());
}

}  // namespace oinfer::tensor_ops
