// Tensor family kernels: the view ops (Reshape, Flatten, Squeeze, Unsqueeze,
// Identity: the runtime reinterprets their input and never calls these
// kernels except for constant folding), Dropout, Transpose, Concat, Split,
// Shape, Size; plus the shared strided copy and register_tensor.
#include <algorithm>

#include "graph/checked_math.h"
#include "ops/cpu/random_stream.h"
#include "ops/cpu/tensor_common.h"
#include "shape/tensor.h"

namespace oinfer {
namespace tensor_ops {

std::vector<int64_t> rowMajorStrides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (size_t k = shape.size(); k-- > 1;) s[k - 1] = s[k] * shape[k];
  return s;
}

int64_t product(const std::vector<int64_t>& dims, size_t begin, size_t end) {
  int64_t p = 1;
  for (size_t k = begin; k < end && k < dims.size(); ++k) p *= dims[k];
  return p;
}

template <class T>
void stridedCopy(const T* src, DimsRef ss, T* dst, DimsRef ds, DimsRef shape, ThreadPool& pool) {
  for (size_t k = 0; k < shape.size(); ++k)
    if (shape[k] == 0) return;
  // Coalesce: drop unit dims, merge neighbours that are contiguous in both.
  constexpr size_t kInline = 16;
  int64_t shInline[kInline], aInline[kInline], bInline[kInline];
  std::vector<int64_t> shHeap, aHeap, bHeap;
  int64_t *sh = shInline, *a = aInline, *b = bInline;
  if (shape.size() > kInline) {
    shHeap.resize(shape.size());
    aHeap.resize(shape.size());
    bHeap.resize(shape.size());
    sh = shHeap.data(), a = aHeap.data(), b = bHeap.data();
  }
  size_t nd = 0;
  for (size_t k = 0; k < shape.size(); ++k) {
    if (shape[k] == 1) continue;
    if (nd > 0 && a[nd - 1] == ss[k] * shape[k] && b[nd - 1] == ds[k] * shape[k]) {
      sh[nd - 1] *= shape[k];
      a[nd - 1] = ss[k];
      b[nd - 1] = ds[k];
    } else {
      sh[nd] = shape[k];
      a[nd] = ss[k];
      b[nd] = ds[k];
      ++nd;
    }
  }
  if (nd == 0) {
    dst[0] = src[0];
    return;
  }
  const int64_t inner = sh[nd - 1], sa = a[nd - 1], sb = b[nd - 1];
  int64_t rows = 1;
  for (size_t k = 0; k + 1 < nd; ++k) rows *= sh[k];
  if (nd == 1 && sa == 1 && sb == 1) {
    // One contiguous run (a copy, or a Transpose that only moves axes of
    // size 1, e.g. ViT's batch-1 [S, 1, D] <-> [1, S, D]): split it over the
    // threads rather than copying it on one.
    pool.parallelFor(inner, [&](int64_t i0, int64_t i1) { copyElems(src + i0, dst + i0, i1 - i0); },
                     std::max<int64_t>(1, 16384 / int64_t(sizeof(T))));
    return;
  }
  if (nd >= 2 && sb == 1 && a[nd - 2] == 1 && sa != 1) {
    // A 2-d transpose in the last two dims (dst rows contiguous, read down
    // a contiguous src column): 16 x 16 blocks, so each src line fetched
    // serves 16 dst rows (row by row, every element was a line apart).
    constexpr int64_t kB = 16;
    const int64_t R = sh[nd - 2], ldd = b[nd - 2], outer = rows / R, rowBlocks = (R + kB - 1) / kB;
    pool.parallelFor(outer * rowBlocks, [&](int64_t u0, int64_t u1) {
      for (int64_t u = u0; u < u1; ++u) {
        int64_t o = u / rowBlocks, so = 0, dof = 0;
        for (size_t k = nd - 2; k-- > 0;) {
          so += (o % sh[k]) * a[k];
          dof += (o % sh[k]) * b[k];
          o /= sh[k];
        }
        const int64_t i0 = (u % rowBlocks) * kB, i1 = std::min(R, i0 + kB);
        for (int64_t j0 = 0; j0 < inner; j0 += kB) {
          const int64_t j1 = std::min(inner, j0 + kB);
          for (int64_t i = i0; i < i1; ++i) {
            T* d = dst + dof + i * ldd;
            const T* sc = src + so + i;
            for (int64_t j = j0; j < j1; ++j) d[j] = sc[j * sa];
          }
        }
      }
    }, std::max<int64_t>(1, 4096 / std::max<int64_t>(kB * inner, 1)));
    return;
  }
  pool.parallelFor(
      rows,
      [&](int64_t begin, int64_t end) {
        int64_t idxInline[kInline] = {};
        std::vector<int64_t> idxHeap;
        int64_t* idx = idxInline;
        if (nd > kInline) {
          idxHeap.assign(nd, 0);
          idx = idxHeap.data();
        }
        int64_t rem = begin, so = 0, dof = 0;
        for (size_t k = nd - 1; k-- > 0;) {
          idx[k] = rem % sh[k];
          rem /= sh[k];
          so += idx[k] * a[k];
          dof += idx[k] * b[k];
        }
        for (int64_t row = begin; row < end; ++row) {
          const T* s = src + so;
          T* d = dst + dof;
          if (sa == 1 && sb == 1) {
            copyElems(s, d, inner);
          } else {
            for (int64_t i = 0; i < inner; ++i) d[i * sb] = s[i * sa];
          }
          for (size_t k = nd - 1; k-- > 0;) {
            so += a[k];
            dof += b[k];
            if (++idx[k] < sh[k]) break;
            so -= a[k] * sh[k];
            dof -= b[k] * sh[k];
            idx[k] = 0;
          }
        }
      },
      std::max<int64_t>(1, 16384 / std::max<int64_t>(inner, 1)));
}

void stridedCopy(const Tensor& src, int64_t srcOffset, DimsRef srcStrides, Tensor& dst, int64_t dstOffset,
                 DimsRef dstStrides, DimsRef shape, ThreadPool& pool, const Node& node) {
  dispatchBytes(
      src.dtype(),
      [&](auto tag) {
        using T = typename decltype(tag)::type;
        stridedCopy<T>(static_cast<const T*>(src.data()) + srcOffset, srcStrides,
                       static_cast<T*>(dst.data()) + dstOffset, dstStrides, shape, pool);
      },
      node);
}

std::vector<DataType> numericTypes() {
  return {DataType::kFloat,  DataType::kDouble, DataType::kFloat16, DataType::kBFloat16, DataType::kInt8,
          DataType::kInt16,  DataType::kInt32,  DataType::kInt64,   DataType::kUInt8,    DataType::kUInt16,
          DataType::kUInt32, DataType::kUInt64, DataType::kBool};
}

std::vector<DataType> allTypes() {
  auto t = numericTypes();
  t.push_back(DataType::kString);
  t.push_back(DataType::kComplex64);
  t.push_back(DataType::kComplex128);
  return t;
}

std::vector<int64_t> readInts(const Tensor& t) {
  std::vector<int64_t> out(static_cast<size_t>(t.numel()));
  // Floats outside int64 (a plain cast is undefined there) are refused.
  auto conv = [](double v) {
    const std::optional<int64_t> i = doubleToInt64(v);
    if (!i) throw Error(ErrorCode::kInvalidArgument, "value " + std::to_string(v) + " does not fit in int64");
    return *i;
  };
  switch (t.dtype()) {
    case DataType::kFloat:
      for (int64_t i = 0; i < t.numel(); ++i) out[i] = conv(t.data<float>()[i]);
      return out;
    case DataType::kDouble:
      for (int64_t i = 0; i < t.numel(); ++i) out[i] = conv(t.data<double>()[i]);
      return out;
    case DataType::kFloat16:
      for (int64_t i = 0; i < t.numel(); ++i) out[i] = conv(static_cast<float>(t.data<Float16>()[i]));
      return out;
    default:
      return t.toInt64Vector();
  }
}

namespace {

// Reshape-like ops: the output holds the input's elements in order.
std::unique_ptr<Kernel> copyKernel(const KernelInit&) {
  return makeKernel([](KernelContext& ctx) {
    const Tensor& in = ctx.input(0);
    Tensor& out = ctx.output(0);
    if (out.numel() != in.numel())
      ctx.fail("output shape " + shapeToString(out.shape()) + " does not hold the " + std::to_string(in.numel()) +
               " elements of input 0 with shape " + shapeToString(in.shape()));
    out.copyFrom(in);
  });
}

// Identity: a tensor is copied as copyKernel copies it; a sequence or an
// optional (empty, or what it holds) becomes an output value of its own
// (deep copies: the input may be a view of the caller's memory).
std::unique_ptr<Kernel> identityKernel(const KernelInit&) {
  return makeKernel([](KernelContext& ctx) {
    const Value& in = ctx.inputValue(0);
    Value& out = ctx.outputValue(0);
    if (in.isTensor() && out.isTensor() && out.tensor.defined()) {
      if (out.tensor.numel() != in.tensor.numel())
        ctx.fail("output shape " + shapeToString(out.tensor.shape()) + " does not hold the " +
                 std::to_string(in.tensor.numel()) + " elements of input 0 with shape " +
                 shapeToString(in.tensor.shape()));
      out.tensor.copyFrom(in.tensor);
      return;
    }
    Value v = in;
    if (v.isTensor() && v.tensor.defined()) v.tensor = in.tensor.clone();
    for (Tensor& t : v.sequence) t = t.clone();
    out = std::move(v);
  });
}

// The one value of a 0-d/1-element floating tensor (Dropout's ratio).
double scalarAsDouble(const Tensor& t, KernelContext& ctx, const char* what) {
  if (t.numel() != 1) ctx.fail(std::string(what) + " must hold one value, got shape " + shapeToString(t.shape()));
  double v = 0;
  dispatchType<float, double, Float16, BFloat16>(
      t.dtype(), [&](auto tag) { v = static_cast<double>(t.data<typename decltype(tag)::type>()[0]); }, ctx.node());
  return v;
}

// Training mode (opset 12+, input 2 true): mask ~ Bernoulli(1 - ratio),
// output = x * mask / (1 - ratio). A draw u in [0, 1) keeps the element when
// u >= ratio, so ratio 0 keeps everything and the output is exactly x.
void dropoutTraining(KernelContext& ctx, RandomStream& stream) {
  const double ratio = ctx.hasInput(1) ? scalarAsDouble(ctx.input(1), ctx, "input 1 (ratio)") : 0.5;
  if (!(ratio >= 0.0 && ratio < 1.0))
    ctx.fail("input 1 (ratio '" + ctx.node().inputs[1] + "') is " + std::to_string(ratio) +
             "; training mode needs a ratio in [0, 1)");
  const Tensor& x = ctx.input(0);
  Tensor& y = ctx.output(0);
  bool* mask = nullptr;
  if (ctx.hasOutput(1)) {
    if (ctx.output(1).dtype() != DataType::kBool) ctx.fail("output 1 (mask) must be bool in training mode");
    mask = ctx.output(1).data<bool>();
  }
  const int64_t n = x.numel();
  const double scale = 1.0 / (1.0 - ratio);
  dispatchType<float, double, Float16, BFloat16>(
      x.dtype(),
      [&](auto tag) {
        using T = typename decltype(tag)::type;
        using C = std::conditional_t<std::is_same_v<T, double>, double, float>;
        const T* in = x.data<T>();
        T* out = y.data<T>();
        const C s = static_cast<C>(scale);
        ctx.pool().parallelFor(
            n,
            [&](int64_t b, int64_t e) {
              for (int64_t i = b; i < e; ++i) {
                const bool keep = stream.uniform(static_cast<uint64_t>(i)) >= ratio;
                out[i] = keep ? T(static_cast<C>(in[i]) * s) : T(C(0));
                if (mask) mask[i] = keep;
              }
            },
            4096);
      },
      ctx.node());
  stream.advance(static_cast<uint64_t>(n));
}

std::unique_ptr<Kernel> dropoutKernel(const KernelInit& init) {
  const bool trainingInput = init.opset >= 12;
  return makeKernel([trainingInput, stream = RandomStream(init.node)](KernelContext& ctx) mutable {
    if (trainingInput && ctx.numInputs() > 2 && ctx.hasInput(2)) {
      const Tensor& tm = ctx.input(2);
      if (tm.numel() != 1) ctx.fail("input 2 (training_mode) must hold one value, got shape " + shapeToString(tm.shape()));
      if (tm.toInt64Vector()[0] != 0) {
        dropoutTraining(ctx, stream);
        return;
      }
    }
    const Tensor& in = ctx.input(0);
    ctx.output(0).copyFrom(in);
    if (ctx.hasOutput(1)) {
      Tensor& mask = ctx.output(1);
      if (mask.dtype() == DataType::kBool) {
        std::fill_n(mask.data<bool>(), mask.numel(), true);
      } else {
        dispatchType<float, double, Float16>(
            mask.dtype(),
            [&](auto tag) {
              using T = typename decltype(tag)::type;
              std::fill_n(mask.data<T>(), mask.numel(), T(1.0f));
            },
            ctx.node());
      }
    }
  });
}

// Keeps its stride scratch between runs so a warm run allocates nothing.
class TransposeKernel final : public Kernel {
 public:
  explicit TransposeKernel(std::vector<int64_t> perm) : perm_(std::move(perm)) {}
  void run(KernelContext& ctx) override {
    const Tensor& in = ctx.input(0);
    const size_t r = in.rank();
    p_ = perm_;
    if (p_.empty()) {
      p_.resize(r);
      for (size_t k = 0; k < r; ++k) p_[k] = static_cast<int64_t>(r - 1 - k);
    }
    if (p_.size() != r) ctx.fail("perm " + shapeToString(p_) + " does not match input rank " + std::to_string(r));
    is_.resize(r);
    shape_.resize(r);
    ss_.resize(r);
    os_.resize(r);
    for (size_t k = r; k-- > 0;) is_[k] = k + 1 < r ? is_[k + 1] * in.dim(k + 1) : 1;
    for (size_t k = 0; k < r; ++k) {
      const int64_t a = p_[k];
      if (a < 0 || a >= static_cast<int64_t>(r)) ctx.fail("perm " + shapeToString(p_) + " is invalid");
      shape_[k] = in.dim(a);
      ss_[k] = is_[a];
    }
    for (size_t k = r; k-- > 0;) os_[k] = k + 1 < r ? os_[k + 1] * shape_[k + 1] : 1;
    stridedCopy(in, 0, ss_, ctx.output(0), 0, os_, shape_, ctx.pool(), ctx.node());
  }

 private:
  std::vector<int64_t> perm_, p_, is_, shape_, ss_, os_;
};

std::unique_ptr<Kernel> transposeKernel(const KernelInit& init) {
  return std::make_unique<TransposeKernel>(init.node.attrInts("perm"));
}

std::unique_ptr<Kernel> concatKernel(const KernelInit& init) {
  const int64_t axisAttr = init.node.attrInt("axis", 1);
  return makeKernel([axisAttr](KernelContext& ctx) {
    const Tensor& first = ctx.input(0);
    const int64_t r = static_cast<int64_t>(first.rank());
    const int64_t axis = axisAttr < 0 ? axisAttr + r : axisAttr;
    if (axis < 0 || axis >= r) ctx.fail("axis " + std::to_string(axisAttr) + " is out of range for rank " + std::to_string(r));
    Tensor& out = ctx.output(0);
    const int64_t outer = product(first.shape(), 0, axis), inner = product(first.shape(), axis + 1, r);
    const int64_t total = out.dim(axis);
    int64_t offset = 0;
    for (size_t i = 0; i < ctx.numInputs(); ++i) {
      const Tensor& in = ctx.input(i);
      for (int64_t k = 0; k < r; ++k)
        if (k != axis && in.dim(k) != first.dim(k))
          ctx.fail("input " + std::to_string(i) + " ('" + ctx.node().inputs[i] + "') has shape " +
                   shapeToString(in.shape()) + " but input 0 has shape " + shapeToString(first.shape()));
      const int64_t block = in.dim(axis) * inner;
      if (offset + in.dim(axis) > total) ctx.fail("inputs overflow the output along the concat axis");
      // Planned in place (the plan put this input inside the output): nothing to copy.
      const bool inPlace = outer == 1 && in.dtype() == out.dtype() && block > 0 &&
                           static_cast<const uint8_t*>(in.data()) ==
                               static_cast<const uint8_t*>(out.data()) + offset * inner * dataTypeSize(out.dtype());
      if (inPlace) {
        offset += in.dim(axis);
        continue;
      }
      stridedCopy(in, 0, {block, 1}, out, offset * inner, {total * inner, 1}, {outer, block}, ctx.pool(), ctx.node());
      offset += in.dim(axis);
    }
  });
}

std::unique_ptr<Kernel> splitKernel(const KernelInit& init) {
  const int64_t axisAttr = init.node.attrInt("axis", 0);
  const bool splitInput = init.opset >= 13 || init.opset < 2;
  const std::vector<int64_t> splitAttr = init.node.attrInts("split");
  const int64_t numOutputs = init.opset >= 18 ? init.node.attrInt("num_outputs", 0) : 0;
  return makeKernel([=](KernelContext& ctx) {
    const Tensor& in = ctx.input(0);
    const int64_t r = static_cast<int64_t>(in.rank());
    const int64_t axis = axisAttr < 0 ? axisAttr + r : axisAttr;
    if (axis < 0 || axis >= r) ctx.fail("axis " + std::to_string(axisAttr) + " is out of range for rank " + std::to_string(r));
    const int64_t outer = product(in.shape(), 0, axis), inner = product(in.shape(), axis + 1, r);
    const int64_t total = in.dim(axis);
    std::vector<int64_t> sizes;
    if (splitInput && ctx.hasInput(1)) sizes = ctx.input(1).toInt64Vector();
    else if (!splitInput && !splitAttr.empty()) sizes = splitAttr;
    else {
      const int64_t parts = numOutputs > 0 ? numOutputs : static_cast<int64_t>(ctx.numOutputs());
      const int64_t chunk = (total + parts - 1) / parts;
      for (int64_t i = 0; i < parts; ++i) sizes.push_back(std::max<int64_t>(0, std::min(chunk, total - chunk * i)));
    }
    // Every size non-negative and the sum (checked) equal to the axis: a
    // negative size could balance an oversized one ([12, -2] on 10) and the
    // copy of the oversized part would read past the input.
    int64_t sum = 0;
    bool ok = sizes.size() == ctx.numOutputs();
    for (int64_t s : sizes) ok = ok && s >= 0 && checkedAdd(sum, s, &sum);
    if (!ok || sum != total)
      ctx.fail("split sizes " + shapeToString(sizes) + " do not partition axis " + std::to_string(axis) +
               " of input 0 ('" + ctx.node().inputs[0] + "') with shape " + shapeToString(in.shape()) + " into " +
               std::to_string(ctx.numOutputs()) + " non-negative parts");
    int64_t offset = 0;
    for (size_t i = 0; i < ctx.numOutputs(); ++i) {
      if (ctx.hasOutput(i)) {
        std::vector<int64_t> os = in.shape();
        os[axis] = sizes[i];
        Tensor& out = ctx.allocateOutput(i, os, in.dtype());
        const int64_t block = sizes[i] * inner;
        stridedCopy(in, offset * inner, {total * inner, 1}, out, 0, {block, 1}, {outer, block}, ctx.pool(), ctx.node());
      }
      offset += sizes[i];
    }
  });
}

std::unique_ptr<Kernel> shapeKernel(const KernelInit& init) {
  const bool ranged = init.opset >= 15;
  const int64_t startAttr = init.node.attrInt("start", 0);
  const bool hasEnd = init.node.hasAttr("end");
  const int64_t endAttr = init.node.attrInt("end", 0);
  return makeKernel([=](KernelContext& ctx) {
    const auto& s = ctx.input(0).shape();
    const int64_t r = static_cast<int64_t>(s.size());
    auto clampAxis = [r](int64_t a) { return std::clamp<int64_t>(a < 0 ? a + r : a, 0, r); };
    int64_t start = ranged ? clampAxis(startAttr) : 0;
    int64_t end = ranged && hasEnd ? clampAxis(endAttr) : r;
    end = std::max(start, end);
    Tensor& out = ctx.allocateOutput(0, {end - start}, DataType::kInt64);
    for (int64_t k = start; k < end; ++k) out.data<int64_t>()[k - start] = s[k];
  });
}

std::unique_ptr<Kernel> sizeKernel(const KernelInit&) {
  return makeKernel([](KernelContext& ctx) {
    ctx.allocateOutput(0, {}, DataType::kInt64).data<int64_t>()[0] = ctx.input(0).numel();
  });
}

}  // namespace
}  // namespace tensor_ops

void register_tensor(Registry& r) {
  using namespace tensor_ops;
  const auto all = allTypes();
  addVersions(r, "Reshape", {1, 5, 13, 14, 19, 21, 23, 24, 25}, shape::inferReshape, copyKernel, all, 0);
  addVersions(r, "Flatten", {1, 9, 11, 13, 21, 23, 24, 25}, shape::inferFlatten, copyKernel, all, 0);
  addVersions(r, "Squeeze", {1, 11, 13, 21, 23, 24, 25}, shape::inferSqueeze, copyKernel, all, 0);
  addVersions(r, "Unsqueeze", {1, 11, 13, 21, 23, 24, 25}, shape::inferUnsqueeze, copyKernel, all, 0);
  addVersions(r, "Identity", {1, 13, 14, 16, 19, 21, 23, 24, 25}, shape::inferIdentity, identityKernel, all, 0);
  addVersions(r, "Dropout", {1, 6, 7, 10}, shape::inferDropout, dropoutKernel, numericTypes());
  // From opset 12 training_mode is an input and makes the op random: never
  // constant-folded, even when every input is constant.
  for (int v : {12, 13, 22})
    r.add(OpDef{"", "Dropout", v, shape::inferDropout, dropoutKernel, {}, numericTypes(), -1, false});
  addVersions(r, "Transpose", {1, 13, 21, 23, 24, 25}, shape::inferTranspose, transposeKernel, all);
  addVersions(r, "Concat", {1, 4, 11, 13}, shape::inferConcat, concatKernel, all);
  addVersions(r, "Split", {1, 2, 11, 13, 18}, shape::inferSplit, splitKernel, all);
  addVersions(r, "Shape", {1, 13, 15, 19, 21, 23, 24, 25}, shape::inferShape, shapeKernel, all);
  addVersions(r, "Size", {1, 13, 19, 21, 23, 24, 25}, shape::inferSize, sizeKernel, all);
  r.updateOp("", "Concat", [](OpDef& d) { d.concatInPlace = true; });  // concatKernel skips pieces in place
  for (const char* op : {"Shape", "Size"}) r.updateOp("", op, [](OpDef& d) { d.readsShapeOnly = true; });
  register_tensor_slice(r);
  register_tensor_gather(r);
  register_tensor_cast(r);
}

}  // namespace oinfer
