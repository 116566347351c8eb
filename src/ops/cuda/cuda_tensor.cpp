// CUDA kernels of the tensor family: Concat, Split, Slice, Transpose, Expand,
// Gather, Pad. All are byte movers over one strided-copy launcher (or the pad
// and gather launchers). Shape parameters (Slice starts, Pad pads, ...) are
// host inputs; output shapes are the planned ones, which the runtime resolved
// with those values, and each kernel checks they agree.
#include <algorithm>
#include <cstring>

#include "ops/common/slice.h"
#include "ops/cuda/cuda_ops.h"

namespace oinfer::cuda {
namespace {

int64_t normAxis(const KernelContext& ctx, int64_t a, int64_t rank) {
  if (a < -rank || a >= rank)
    ctx.fail("axis " + std::to_string(a) + " is out of range for rank " + std::to_string(rank));
  return a < 0 ? a + rank : a;
}

void expectShape(const KernelContext& ctx, const Tensor& y, const std::vector<int64_t>& shape) {
  if (y.shape() != shape)
    ctx.fail("computed output shape " + shapeToString(shape) + " differs from the planned " + shapeToString(y.shape()));
}

// ---- Concat / Split ------------------------------------------------------------

class ConcatKernel final : public CudaKernel {
 public:
  ConcatKernel(const KernelInit& init) : axis_(init.node.attrInt("axis", 0)) {
    for (size_t i = 0; i < init.inputs.size(); ++i) own(init, i);
  }
  void run(KernelContext& ctx) override {
    Run r = runOf(ctx);
    Tensor& y = ctx.output(0);
    const int64_t rank = static_cast<int64_t>(y.rank());
    const int64_t a = normAxis(ctx, axis_, rank);
    const int es = moverSize(y.dtype());
    const auto ys = contiguousStrides(y.shape());
    int64_t pos = 0;
    for (size_t i = 0; i < ctx.numInputs() || i < places_.size(); ++i) {
      if (!present(ctx, i)) continue;
      const auto& xs = shapeOf(ctx, i);
      if (static_cast<int64_t>(xs.size()) != rank) ctx.fail("input " + std::to_string(i) + " has another rank");
      int64_t n = 1;
      for (int64_t d : xs) n *= d;
      if (n > 0) {
        const CopyGeom g = makeCopy(ctx, xs, contiguousStrides(xs), ys, 0, pos * ys[a]);
        checkLaunch(launchStridedCopy(es, in(ctx, i), y.data(), g, r.stream), "launchStridedCopy", ctx);
      }
      pos += xs[a];
    }
    if (pos != y.dim(a)) ctx.fail("inputs add up to " + std::to_string(pos) + " along the axis; planned " +
                                  std::to_string(y.dim(a)));
  }

 private:
  int64_t axis_;
};

std::unique_ptr<Kernel> makeConcat(const KernelInit& init) {
  if (init.inputs.empty() || moverSize(plannedType(init, 0)) == 0) return nullptr;
  return std::make_unique<ConcatKernel>(init);
}

// Split's sizes (attribute, input 1 or num_outputs) already shaped the planned
// outputs, so the kernel reads the sizes off them.
class SplitKernel final : public CudaKernel {
 public:
  SplitKernel(const KernelInit& init) : axis_(init.node.attrInt("axis", 0)) {
    if (init.inputs.size() > 1) markHost(1);
  }
  void run(KernelContext& ctx) override {
    Run r = runOf(ctx);
    const Tensor& x = ctx.input(0);
    const int64_t rank = static_cast<int64_t>(x.rank());
    const int64_t a = normAxis(ctx, axis_, rank);
    const int es = moverSize(x.dtype());
    const auto xs = contiguousStrides(x.shape());
    int64_t pos = 0;
    for (size_t i = 0; i < ctx.numOutputs(); ++i) {
      if (!ctx.hasOutput(i)) ctx.fail("the CUDA Split needs every output planned");
      Tensor& y = ctx.output(i);
      if (y.numel() > 0) {
        const CopyGeom g = makeCopy(ctx, y.shape(), xs, contiguousStrides(y.shape()), pos * xs[a], 0);
        checkLaunch(launchStridedCopy(es, x.data(), y.data(), g, r.stream), "launchStridedCopy", ctx);
      }
      pos += y.dim(a);
    }
    if (pos != x.dim(a)) ctx.fail("outputs add up to " + std::to_string(pos) + " along the axis; the input has " +
                                  std::to_string(x.dim(a)));
  }

 private:
  int64_t axis_;
};

std::unique_ptr<Kernel> makeSplit(const KernelInit& init) {
  if (moverSize(plannedType(init, 0)) == 0) return nullptr;
  for (size_t i = 0; i < init.outputs.size(); ++i)
    if (!init.outputs[i]) return nullptr;
  return std::make_unique<SplitKernel>(init);
}

// ---- Slice ------------------------------------------------------------------------

class SliceKernel final : public CudaKernel {
 public:
  SliceKernel(const KernelInit& init) : params_(tensor_ops::SliceParams::fromInit(init)) {
    if (params_.fromAttrs) return;
    for (size_t i = 1; i < init.inputs.size() && i < 5; ++i) {
      markHost(i);
      if (init.hasInput(i) && !init.constInput(i)) captureSafe_ = false;
    }
  }
  void run(KernelContext& ctx) override {
    Run r = runOf(ctx);
    const Tensor& x = ctx.input(0);
    Tensor& y = ctx.output(0);
    const tensor_ops::SliceWindow w = tensor_ops::resolveSlice(ctx, params_, x.shape(), contiguousStrides(x.shape()));
    expectShape(ctx, y, w.shape);
    if (y.numel() == 0) return;
    const CopyGeom g = makeCopy(ctx, w.shape, w.strides, contiguousStrides(w.shape), w.offset, 0);
    checkLaunch(launchStridedCopy(moverSize(x.dtype()), x.data(), y.data(), g, r.stream), "launchStridedCopy", ctx);
  }

 private:
  tensor_ops::SliceParams params_;
};

std::unique_ptr<Kernel> makeSlice(const KernelInit& init) {
  if (moverSize(plannedType(init, 0)) == 0) return nullptr;
  return std::make_unique<SliceKernel>(init);
}

// ---- Transpose / Expand --------------------------------------------------------------

class TransposeKernel final : public CudaKernel {
 public:
  TransposeKernel(const KernelInit& init) : perm_(init.node.attrInts("perm")) {}
  void run(KernelContext& ctx) override {
    Run r = runOf(ctx);
    const Tensor& x = ctx.input(0);
    Tensor& y = ctx.output(0);
    const size_t rank = x.rank();
    std::vector<int64_t> perm = perm_;
    if (perm.empty())
      for (size_t d = rank; d-- > 0;) perm.push_back(static_cast<int64_t>(d));
    if (perm.size() != rank) ctx.fail("perm has " + std::to_string(perm.size()) + " entries for rank " + std::to_string(rank));
    const auto is = contiguousStrides(x.shape());
    std::vector<int64_t> shape(rank), ss(rank);
    for (size_t d = 0; d < rank; ++d) {
      const int64_t p = normAxis(ctx, perm[d], static_cast<int64_t>(rank));
      shape[d] = x.dim(p);
      ss[d] = is[p];
    }
    expectShape(ctx, y, shape);
    if (y.numel() == 0) return;
    const CopyGeom g = makeCopy(ctx, shape, ss, contiguousStrides(shape), 0, 0);
    checkLaunch(launchStridedCopy(moverSize(x.dtype()), x.data(), y.data(), g, r.stream), "launchStridedCopy", ctx);
  }

 private:
  std::vector<int64_t> perm_;
};

// The target shape (input 1) already shaped the planned output.
class ExpandKernel final : public CudaKernel {
 public:
  explicit ExpandKernel(const KernelInit& init) {
    own(init, 0);
    markHost(1);
  }
  void run(KernelContext& ctx) override {
    Run r = runOf(ctx);
    Tensor& y = ctx.output(0);
    const auto& xs = shapeOf(ctx, 0);
    const size_t rank = y.rank();
    if (xs.size() > rank) ctx.fail("input rank exceeds the planned output rank");
    const auto is = contiguousStrides(xs);
    std::vector<int64_t> ss(rank, 0);
    for (size_t d = 0; d < xs.size(); ++d) {
      const size_t o = rank - xs.size() + d;
      if (xs[d] != 1 && xs[d] != y.dim(o)) ctx.fail("input dim " + std::to_string(d) + " does not broadcast");
      ss[o] = xs[d] == 1 ? 0 : is[d];
    }
    if (y.numel() == 0) return;
    const CopyGeom g = makeCopy(ctx, y.shape(), ss, contiguousStrides(y.shape()), 0, 0);
    checkLaunch(launchStridedCopy(moverSize(y.dtype()), in(ctx, 0), y.data(), g, r.stream), "launchStridedCopy", ctx);
  }
};

// ---- Gather ----------------------------------------------------------------------------

// Indices are range-checked on the host before the launch, never on the
// device (a bad index found there could only be reported through a
// synchronizing read-back): constant indices (their range computed once,
// checked per run against the data's axis, which may be dynamic); a Gather
// whose indices are computed at run time runs on the CPU, whose kernel
// checks every value (shape/index_check.h).
class GatherKernel final : public CudaKernel {
 public:
  GatherKernel(const KernelInit& init, const Tensor& indices) : axis_(init.node.attrInt("axis", 0)) {
    own(init, 0);
    own(init, 1);
    for (int64_t v : indices.toInt64Vector()) {
      lo_ = std::min(lo_, v);
      hi_ = std::max(hi_, v);
    }
  }
  void run(KernelContext& ctx) override {
    Run r = runOf(ctx);
    Tensor& y = ctx.output(0);
    const auto& xs = shapeOf(ctx, 0);
    const auto& is = shapeOf(ctx, 1);
    const int64_t rank = static_cast<int64_t>(xs.size());
    const int64_t a = normAxis(ctx, axis_, rank);
    int64_t outer = 1, inner = 1, nIdx = 1;
    for (int64_t d = 0; d < a; ++d) outer *= xs[d];
    for (int64_t d = a + 1; d < rank; ++d) inner *= xs[d];
    for (int64_t d : is) nIdx *= d;
    if (nIdx > 0 && (lo_ < -xs[a] || hi_ >= xs[a]))
      ctx.fail("index " + std::to_string(lo_ < -xs[a] ? lo_ : hi_) + " in input 1 ('" + ctx.node().inputs[1] +
               "') is out of range [" + std::to_string(-xs[a]) + ", " + std::to_string(xs[a] - 1) +
               "] for dim " + std::to_string(a) + " of input 0 ('" + ctx.node().inputs[0] + "')");
    if (y.numel() != outer * nIdx * inner) ctx.fail("planned output size differs from the gathered size");
    checkLaunch(launchGather(moverSize(y.dtype()), in(ctx, 0), in(ctx, 1), dtypeOf(ctx, 1) == DataType::kInt64,
                             y.data(), outer, xs[a], nIdx, inner, r.stream),
                "launchGather", ctx);
  }

 private:
  int64_t axis_;
  int64_t lo_ = 0, hi_ = 0;  // the range of the constant indices
};

std::unique_ptr<Kernel> makeGather(const KernelInit& init) {
  const DataType it = plannedType(init, 1);
  if (moverSize(plannedType(init, 0)) == 0 || (it != DataType::kInt64 && it != DataType::kInt32)) return nullptr;
  const Tensor* indices = init.constInput(1);
  if (!indices) return nullptr;  // run-time indices: the CPU kernel checks them
  return std::make_unique<GatherKernel>(init, *indices);
}

// ---- Pad ----------------------------------------------------------------------------------

uint64_t floatBits(DataType dt, float v) {
  uint64_t bits = 0;
  auto put = [&](auto x) { std::memcpy(&bits, &x, sizeof(x)); };
  switch (dt) {
    case DataType::kFloat: put(v); break;
    case DataType::kDouble: put(static_cast<double>(v)); break;
    case DataType::kFloat16: put(Float16(v).bits); break;
    case DataType::kInt32: put(static_cast<int32_t>(v)); break;
    case DataType::kInt64: put(static_cast<int64_t>(v)); break;
    case DataType::kInt8: put(static_cast<int8_t>(v)); break;
    case DataType::kUInt8: put(static_cast<uint8_t>(v)); break;
    case DataType::kBool: put(static_cast<uint8_t>(v != 0)); break;
    default: break;
  }
  return bits;
}

class PadKernel final : public CudaKernel {
 public:
  PadKernel(const KernelInit& init, int mode) : opset_(init.opset), mode_(mode) {
    if (opset_ < 11) {
      pads_ = init.node.attrInts(opset_ < 2 ? "paddings" : "pads");
      value_ = init.node.attrFloat("value", 0.f);
      return;
    }
    for (size_t i = 1; i < init.inputs.size() && i < 4; ++i) {
      markHost(i);
      if (init.hasInput(i) && !init.constInput(i)) captureSafe_ = false;
    }
  }
  void run(KernelContext& ctx) override {
    Run r = runOf(ctx);
    const Tensor& x = ctx.input(0);
    Tensor& y = ctx.output(0);
    const int64_t rank = static_cast<int64_t>(x.rank());
    if (rank > kMaxRank) ctx.fail("rank " + std::to_string(rank) + " exceeds the CUDA kernels' limit");
    std::vector<int64_t> pads = opset_ < 11 ? pads_ : ctx.input(1).toInt64Vector();
    std::vector<int64_t> axes;
    if (opset_ >= 18 && ctx.hasInput(3))
      for (int64_t a : ctx.input(3).toInt64Vector()) axes.push_back(normAxis(ctx, a, rank));
    else
      for (int64_t k = 0; k < rank; ++k) axes.push_back(k);
    const size_t n = axes.size();
    if (pads.size() != 2 * n)
      ctx.fail("pads has " + std::to_string(pads.size()) + " values; expected " + std::to_string(2 * n));
    PadGeom g;
    g.rank = static_cast<int>(rank);
    g.mode = mode_;
    std::vector<int64_t> shape = x.shape();
    for (size_t j = 0; j < n; ++j) {
      g.padBegin[axes[j]] = pads[j];
      shape[axes[j]] += pads[j] + pads[j + n];
    }
    expectShape(ctx, y, shape);
    for (int64_t d = 0; d < rank; ++d) {
      g.odims[d] = shape[d];
      g.idims[d] = x.dim(d);
      if (mode_ != 0 && x.dim(d) == 0 && shape[d] > 0) ctx.fail("cannot pad an empty axis in this mode");
    }
    g.n = y.numel();
    if (g.n == 0) return;
    if (opset_ < 11) {
      g.value = floatBits(x.dtype(), value_);
    } else if (ctx.hasInput(2) && ctx.input(2).numel() > 0) {
      std::memcpy(&g.value, ctx.input(2).data(), dataTypeSize(x.dtype()));
    }
    if (rank == 0) g.rank = 0;
    checkLaunch(launchPad(moverSize(x.dtype()), x.data(), y.data(), g, r.stream), "launchPad", ctx);
  }

 private:
  int64_t opset_;
  int mode_;
  std::vector<int64_t> pads_;
  float value_ = 0;
};

std::unique_ptr<Kernel> makePad(const KernelInit& init) {
  if (moverSize(plannedType(init, 0)) == 0) return nullptr;
  const std::string m = init.node.attrString("mode", "constant");
  int mode;
  if (m == "constant") mode = 0;
  else if (m == "reflect") mode = 1;
  else if (m == "edge") mode = 2;
  else if (m == "wrap" && init.opset >= 19) mode = 3;
  else return nullptr;
  return std::make_unique<PadKernel>(init, mode);
}

}  // namespace

std::unique_ptr<Kernel> makeResize(const KernelInit& init);  // cuda_resize.cpp

std::vector<CudaOp> tensorOps() {
  return {
      {"Concat", makeConcat},
      {"Split", makeSplit},
      {"Slice", makeSlice},
      {"Transpose", [](const KernelInit& init) -> std::unique_ptr<Kernel> {
         if (moverSize(plannedType(init, 0)) == 0) return nullptr;
         return std::make_unique<TransposeKernel>(init);
       }},
      {"Expand", [](const KernelInit& init) -> std::unique_ptr<Kernel> {
         if (moverSize(plannedType(init, 0)) == 0) return nullptr;
         return std::make_unique<ExpandKernel>(init);
       }},
      {"Gather", makeGather},
      {"Pad", makePad},
      {"Resize", makeResize},
      {"Upsample", makeResize},
  };
}

}  // namespace oinfer::cuda
