// CUDA kernels of the reduce and normalization families: Reduce*, Softmax,
// LogSoftmax, LayerNormalization, BatchNormalization (inference), the window
// pools and the global pools. Opset forms follow src/ops/cpu/reduce.cpp,
// softmax.cpp, normalization*.cpp and pool*.cpp.
#include <cmath>
#include <cstring>

#include "ops/common/pool_geometry.h"
#include "ops/cuda/cuda_ops.h"
#include "shape/conv.h"

namespace oinfer::cuda {
namespace {

int64_t normAxis(const KernelContext& ctx, int64_t a, int64_t rank) {
  if (a < -rank || a >= rank)
    ctx.fail("axis " + std::to_string(a) + " is out of range for rank " + std::to_string(rank));
  return a < 0 ? a + rank : a;
}

// Output o over the kept dims, reduced elements over the marked dims (unit
// dims dropped on both sides).
RedGeom redGeom(const KernelContext& ctx, const std::vector<int64_t>& shape, const std::vector<bool>& reduced) {
  RedGeom g;
  g.nOut = 1;
  g.nRed = 1;
  const auto st = contiguousStrides(shape);
  for (size_t d = 0; d < shape.size(); ++d) {
    if (reduced[d]) g.nRed *= shape[d];
    else g.nOut *= shape[d];
    if (shape[d] == 1) continue;
    if (reduced[d]) {
      g.rdims[g.rrank] = shape[d];
      g.rst[g.rrank++] = st[d];
    } else {
      g.odims[g.orank] = shape[d];
      g.ost[g.orank++] = st[d];
    }
  }
  return g;
}

class ReduceKernel final : public CudaKernel {
 public:
  ReduceKernel(const KernelInit& init, Red op, bool axesInput)
      : op_(op), axesInput_(axesInput), keepdims_(init.node.attrInt("keepdims", 1) != 0),
        noop_(init.node.attrInt("noop_with_empty_axes", 0) != 0) {
    if (axesInput_) {
      if (init.inputs.size() > 1) {
        markHost(1);
        if (init.hasInput(1) && !init.constInput(1)) captureSafe_ = false;
      }
    } else {
      axes_ = init.node.attrInts("axes");
    }
  }
  void run(KernelContext& ctx) override {
    Run r = runOf(ctx);
    const Tensor& x = ctx.input(0);
    Tensor& y = ctx.output(0);
    const int64_t rank = static_cast<int64_t>(x.rank());
    std::vector<int64_t> axes = axes_;
    if (axesInput_ && ctx.hasInput(1)) axes = ctx.input(1).toInt64Vector();
    if (axes.empty() && noop_) {
      if (y.nbytes() != x.nbytes()) ctx.fail("noop reduction changes the size");
      checkLaunch(cudaMemcpyAsync(y.data(), x.data(), x.nbytes(), cudaMemcpyDeviceToDevice, r.stream),
                  "cudaMemcpyAsync", ctx);
      return;
    }
    std::vector<bool> reduced(static_cast<size_t>(rank), axes.empty());
    for (int64_t a : axes) reduced[normAxis(ctx, a, rank)] = true;
    const RedGeom g = redGeom(ctx, x.shape(), reduced);
    if (g.nOut != y.numel()) ctx.fail("planned output has " + std::to_string(y.numel()) + " elements; the reduction gives " +
                                      std::to_string(g.nOut));
    checkLaunch(launchReduce(op_, dtOf(x.dtype()), x.data(), y.data(), g, r.stream), "launchReduce", ctx);
  }

 private:
  Red op_;
  bool axesInput_, keepdims_, noop_;
  std::vector<int64_t> axes_;
};

// `axesInputFrom`: the opset from which axes is input 1 (13 for ReduceSum, 18 for the rest).
KernelFactory reduce(Red op, int axesInputFrom) {
  return [op, axesInputFrom](const KernelInit& init) -> std::unique_ptr<Kernel> {
    const DataType t = plannedType(init, 0);
    const bool intOk = op == Red::kSum || op == Red::kMax || op == Red::kMin || op == Red::kProd;
    const bool ok = t == DataType::kFloat || t == DataType::kFloat16 ||
                    (intOk && (t == DataType::kInt32 || t == DataType::kInt64));
    if (!ok) return nullptr;
    return std::make_unique<ReduceKernel>(init, op, init.opset >= axesInputFrom);
  };
}

// ---- Softmax -----------------------------------------------------------------------

class SoftmaxKernel final : public CudaKernel {
 public:
  SoftmaxKernel(const KernelInit& init, bool log)
      : log_(log), coerce2d_(init.opset < 13), axis_(init.node.attrInt("axis", init.opset < 13 ? 1 : -1)) {}
  void run(KernelContext& ctx) override {
    Run r = runOf(ctx);
    const Tensor& x = ctx.input(0);
    Tensor& y = ctx.output(0);
    const int64_t rank = static_cast<int64_t>(x.rank());
    const int64_t axis = axis_ < 0 ? axis_ + rank : axis_;
    if (axis < 0 || axis > rank || (!coerce2d_ && axis == rank))
      ctx.fail("axis " + std::to_string(axis_) + " is out of range for rank " + std::to_string(rank));
    int64_t outer = 1, n = 1, inner = 1;
    for (int64_t d = 0; d < rank; ++d) (d < axis ? outer : d == axis || coerce2d_ ? n : inner) *= x.dim(d);
    checkLaunch(launchSoftmax(dtOf(x.dtype()), log_, x.data(), y.data(), outer, n, inner, r.stream), "launchSoftmax",
                ctx);
  }

 private:
  bool log_, coerce2d_;
  int64_t axis_;
};

KernelFactory softmax(bool log) {
  return [log](const KernelInit& init) -> std::unique_ptr<Kernel> {
    if (!isFloatLike(plannedType(init, 0))) return nullptr;
    return std::make_unique<SoftmaxKernel>(init, log);
  };
}

// ---- LayerNormalization --------------------------------------------------------------

class LayerNormKernel final : public CudaKernel {
 public:
  LayerNormKernel(const KernelInit& init)
      : axis_(init.node.attrInt("axis", -1)), eps_(init.node.attrFloat("epsilon", 1e-5f)) {
    own(init, 1);
    own(init, 2);
  }
  void run(KernelContext& ctx) override {
    Run r = runOf(ctx);
    const Tensor& x = ctx.input(0);
    Tensor& y = ctx.output(0);
    const int64_t rank = static_cast<int64_t>(x.rank());
    const int64_t axis = normAxis(ctx, axis_, rank);
    int64_t rows = 1, n = 1;
    for (int64_t d = 0; d < rank; ++d) (d < axis ? rows : n) *= x.dim(d);
    const auto count = [&](size_t i) {
      int64_t c = 1;
      for (int64_t d : shapeOf(ctx, i)) c *= d;
      if (c != n && c != 1)
        ctx.fail("input " + std::to_string(i) + " has " + std::to_string(c) + " elements; the normalized size is " +
                 std::to_string(n));
      return c;
    };
    const int64_t scaleN = count(1);
    const bool hasBias = present(ctx, 2);
    const int64_t biasN = hasBias ? count(2) : 1;
    float* mean = ctx.hasOutput(1) ? static_cast<float*>(ctx.output(1).data()) : nullptr;
    float* inv = ctx.hasOutput(2) ? static_cast<float*>(ctx.output(2).data()) : nullptr;
    checkLaunch(launchLayerNorm(dtOf(x.dtype()), x.data(), in(ctx, 1), hasBias ? in(ctx, 2) : nullptr, y.data(), mean,
                                inv, rows, n, scaleN, biasN, eps_, false, r.stream),
                "launchLayerNorm", ctx);
  }

 private:
  int64_t axis_;
  float eps_;
};

std::unique_ptr<Kernel> makeLayerNorm(const KernelInit& init) {
  const DataType t = plannedType(init, 0);
  if (!isFloatLike(t) || plannedType(init, 1) != t || (init.hasInput(2) && plannedType(init, 2) != t)) return nullptr;
  if (init.node.attrInt("stash_type", 1) != 1) return nullptr;
  for (size_t i = 1; i < 3 && i < init.outputs.size(); ++i)
    if (init.outputs[i] && init.outputs[i]->dtype != DataType::kFloat) return nullptr;
  return std::make_unique<LayerNormKernel>(init);
}

// ---- BatchNormalization (inference) -----------------------------------------------------

std::vector<double> asDoubles(const Tensor& t) {
  std::vector<double> v(static_cast<size_t>(t.numel()));
  for (size_t i = 0; i < v.size(); ++i) {
    switch (t.dtype()) {
      case DataType::kFloat: v[i] = t.data<float>()[i]; break;
      case DataType::kDouble: v[i] = t.data<double>()[i]; break;
      case DataType::kFloat16: v[i] = static_cast<float>(t.data<Float16>()[i]); break;
      default: v[i] = 0; break;
    }
  }
  return v;
}

// y = x * a[c] + b[c] with a = scale / sqrt(var + eps), b = B - mean * a,
// folded once from the constant statistics.
class BatchNormKernel final : public CudaKernel {
 public:
  BatchNormKernel(const KernelInit& init) {
    const float eps = init.node.attrFloat("epsilon", 1e-5f);
    const auto s = asDoubles(*init.constInput(1)), b = asDoubles(*init.constInput(2)),
               m = asDoubles(*init.constInput(3)), v = asDoubles(*init.constInput(4));
    C_ = static_cast<int64_t>(s.size());
    std::vector<float> a(s.size()), c(s.size());
    for (size_t i = 0; i < s.size(); ++i) {
      const double ai = s[i] / std::sqrt(v[i] + static_cast<double>(eps));
      a[i] = static_cast<float>(ai);
      c[i] = static_cast<float>(b[i] - m[i] * ai);
    }
    a_ = DeviceBuffer::upload(a.data(), a.size() * sizeof(float), &init.node);
    b_ = DeviceBuffer::upload(c.data(), c.size() * sizeof(float), &init.node);
    places_.assign(5, InputPlace::kOwned);
    places_[0] = InputPlace::kDevice;
    ownedBuf_.resize(5);
    ownedHost_.resize(5);
    for (size_t i = 1; i < 5; ++i) ownedHost_[i] = *init.constInput(i);
  }
  void run(KernelContext& ctx) override {
    Run r = runOf(ctx);
    const Tensor& x = ctx.input(0);
    Tensor& y = ctx.output(0);
    if (x.rank() < 2 || x.dim(1) != C_)
      ctx.fail("input 0 shape " + shapeToString(x.shape()) + " does not have " + std::to_string(C_) + " channels");
    int64_t inner = 1;
    for (size_t d = 2; d < x.rank(); ++d) inner *= x.dim(d);
    checkLaunch(launchChannelAffine(dtOf(x.dtype()), x.data(), a_.as<float>(), b_.as<float>(), y.data(), x.numel(),
                                    C_, inner, r.stream),
                "launchChannelAffine", ctx);
  }

 private:
  int64_t C_ = 0;
  DeviceBuffer a_, b_;
};

std::unique_ptr<Kernel> makeBatchNorm(const KernelInit& init) {
  if (!isFloatLike(plannedType(init, 0))) return nullptr;
  if (init.node.attrInt("training_mode", 0) != 0) return nullptr;
  if (init.opset < 9 && init.node.attrInt("spatial", 1) == 0) return nullptr;
  for (size_t i = 1; i < init.outputs.size(); ++i)
    if (init.outputs[i]) return nullptr;
  for (size_t i = 1; i < 5; ++i)
    if (!init.constInput(i)) return nullptr;
  const int64_t c = init.constInput(1)->numel();
  for (size_t i = 2; i < 5; ++i)
    if (init.constInput(i)->numel() != c) return nullptr;
  return std::make_unique<BatchNormKernel>(init);
}

// ---- pools ---------------------------------------------------------------------------------

class PoolKernel final : public CudaKernel {
 public:
  PoolKernel(const KernelInit& init, bool max)
      : max_(max), countPad_(init.node.attrInt("count_include_pad", 0) != 0) {}
  void run(KernelContext& ctx) override {
    Run r = runOf(ctx);
    const Tensor& x = ctx.input(0);
    Tensor& y = ctx.output(0);
    const shape::WindowAttrs a = shape::parseWindowAttrs(ctx.node(), x.rank() - 2, true);
    const pool::PoolGeom pg = pool::poolGeom(ctx.node(), a, x.shape(), /*tapTables=*/false);
    PoolLaunch g;
    g.planes = pg.planes;
    for (int s = 0; s < 3; ++s) {
      g.img[s] = pg.img[s];
      g.out[s] = pg.out[s];
      g.k[s] = pg.k[s];
      g.s[s] = pg.s[s];
      g.dil[s] = pg.dil[s];
      g.padBegin[s] = pg.padBegin[s];
      g.padEnd[s] = pg.padEnd[s];
    }
    g.max = max_;
    g.countPad = countPad_;
    if (g.planes * pg.outSize != y.numel()) ctx.fail("planned output size differs from the pooled size");
    checkLaunch(launchPool(dtOf(x.dtype()), x.data(), y.data(), g, r.stream), "launchPool", ctx);
  }

 private:
  bool max_, countPad_;
};

KernelFactory windowPool(bool max) {
  return [max](const KernelInit& init) -> std::unique_ptr<Kernel> {
    if (!isFloatLike(plannedType(init, 0))) return nullptr;
    if (max && init.outputs.size() > 1 && init.outputs[1]) return nullptr;  // Indices stay on CPU
    const ValueInfo* xi = init.inputs.empty() ? nullptr : init.inputs[0];
    if (!xi || !xi->hasShape || xi->shape.size() < 3 || xi->shape.size() > 5) return nullptr;
    return std::make_unique<PoolKernel>(init, max);
  };
}

class GlobalPoolKernel final : public CudaKernel {
 public:
  explicit GlobalPoolKernel(bool max) : max_(max) {}
  void run(KernelContext& ctx) override {
    Run r = runOf(ctx);
    const Tensor& x = ctx.input(0);
    Tensor& y = ctx.output(0);
    if (x.rank() < 2) ctx.fail("input must have rank >= 2");
    std::vector<bool> reduced(x.rank(), true);
    reduced[0] = reduced[1] = false;
    const RedGeom g = redGeom(ctx, x.shape(), reduced);
    checkLaunch(launchReduce(max_ ? Red::kMax : Red::kMean, dtOf(x.dtype()), x.data(), y.data(), g, r.stream),
                "launchReduce", ctx);
  }

 private:
  bool max_;
};

KernelFactory globalPool(bool max) {
  return [max](const KernelInit& init) -> std::unique_ptr<Kernel> {
    if (!isFloatLike(plannedType(init, 0))) return nullptr;
    return std::make_unique<GlobalPoolKernel>(max);
  };
}

}  // namespace

std::vector<CudaOp> reduceOps() {
  return {
      {"ReduceSum", reduce(Red::kSum, 13)},
      {"ReduceMean", reduce(Red::kMean, 18)},
      {"ReduceMax", reduce(Red::kMax, 18)},
      {"ReduceMin", reduce(Red::kMin, 18)},
      {"ReduceProd", reduce(Red::kProd, 18)},
      {"ReduceSumSquare", reduce(Red::kSumSquare, 18)},
      {"ReduceL1", reduce(Red::kL1, 18)},
      {"ReduceL2", reduce(Red::kL2, 18)},
      {"ReduceLogSum", reduce(Red::kLogSum, 18)},
      {"ReduceLogSumExp", reduce(Red::kLogSumExp, 18)},
      {"Softmax", softmax(false)},
      {"LogSoftmax", softmax(true)},
      {"LayerNormalization", makeLayerNorm},
      {"BatchNormalization", makeBatchNorm},
      {"MaxPool", windowPool(true)},
      {"AveragePool", windowPool(false)},
      {"GlobalAveragePool", globalPool(false)},
      {"GlobalMaxPool", globalPool(true)},
  };
}

}  // namespace oinfer::cuda
