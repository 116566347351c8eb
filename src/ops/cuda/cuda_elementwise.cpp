// CUDA kernels of the elementwise family: broadcast binary arithmetic,
// comparisons and logic, Where, unary math, activations, Clip and Cast.
// Attribute defaults and opset forms follow the CPU kernels
// (src/ops/cpu/elementwise*.cpp, activation.cpp).
#include <cmath>
#include <limits>
#include <optional>

#include "ops/cuda/cuda_ops.h"

namespace oinfer::cuda {
namespace {

bool arithType(DataType t) {
  return t == DataType::kFloat || t == DataType::kFloat16 || t == DataType::kInt32 || t == DataType::kInt64;
}

class BinaryKernel final : public CudaKernel {
 public:
  BinaryKernel(const KernelInit& init, Bin op) : op_(op) {
    own(init, 0);
    own(init, 1);
  }
  void run(KernelContext& ctx) override {
    Run r = runOf(ctx);
    Tensor& y = ctx.output(0);
    const BcastGeom g = makeBcast(ctx, y.shape(), {&shapeOf(ctx, 0), &shapeOf(ctx, 1)});
    checkLaunch(launchBinary(op_, dtOf(dtypeOf(ctx, 0)), in(ctx, 0), in(ctx, 1), y.data(), g, r.stream),
                "launchBinary", ctx);
  }

 private:
  Bin op_;
};

KernelFactory binary(Bin op) {
  return [op](const KernelInit& init) -> std::unique_ptr<Kernel> {
    if (init.inputs.size() != 2 || !init.hasInput(0) || !init.hasInput(1)) return nullptr;
    const DataType t = plannedType(init, 0);
    if (plannedType(init, 1) != t) return nullptr;
    Bin o = op;
    if (op >= Bin::kAnd) {
      if (t != DataType::kBool) return nullptr;
    } else if (!arithType(t)) {
      return nullptr;
    }
    if (op == Bin::kMod && init.node.attrInt("fmod", 0) != 0) o = Bin::kFmod;
    return std::make_unique<BinaryKernel>(init, o);
  };
}

// Sum / Max / Min with exactly two inputs are binary ops; other arities stay on CPU.
KernelFactory variadic(Bin op) {
  KernelFactory b = binary(op);
  return [b](const KernelInit& init) -> std::unique_ptr<Kernel> {
    if (init.inputs.size() != 2) return nullptr;
    return b(init);
  };
}

class WhereKernel final : public CudaKernel {
 public:
  explicit WhereKernel(const KernelInit& init) {
    for (size_t i = 0; i < 3; ++i) own(init, i);
  }
  void run(KernelContext& ctx) override {
    Run r = runOf(ctx);
    Tensor& y = ctx.output(0);
    const BcastGeom g = makeBcast(ctx, y.shape(), {&shapeOf(ctx, 0), &shapeOf(ctx, 1), &shapeOf(ctx, 2)});
    checkLaunch(launchWhere(moverSize(y.dtype()), in(ctx, 0), in(ctx, 1), in(ctx, 2), y.data(), g, r.stream),
                "launchWhere", ctx);
  }
};

std::unique_ptr<Kernel> makeWhere(const KernelInit& init) {
  if (init.inputs.size() != 3 || plannedType(init, 0) != DataType::kBool) return nullptr;
  if (moverSize(plannedType(init, 1)) == 0 || plannedType(init, 1) != plannedType(init, 2)) return nullptr;
  return std::make_unique<WhereKernel>(init);
}

class UnaryKernel final : public CudaKernel {
 public:
  UnaryKernel(Un op, UnParams p) : op_(op), p_(p) {}
  void run(KernelContext& ctx) override {
    Run r = runOf(ctx);
    const Tensor& x = ctx.input(0);
    Tensor& y = ctx.output(0);
    checkLaunch(launchUnary(op_, dtOf(x.dtype()), x.data(), y.data(), x.numel(), p_, r.stream), "launchUnary", ctx);
  }

 private:
  Un op_;
  UnParams p_;
};

bool unaryType(DataType t) { return t == DataType::kFloat || t == DataType::kFloat16; }

// `params` reads the attributes (defaults from the ONNX spec).
KernelFactory unary(Un op, std::function<UnParams(const Node&)> params = nullptr) {
  return [op, params](const KernelInit& init) -> std::unique_ptr<Kernel> {
    const DataType t = plannedType(init, 0);
    if (op == Un::kNot ? t != DataType::kBool : !unaryType(t)) return nullptr;
    return std::make_unique<UnaryKernel>(op, params ? params(init.node) : UnParams{});
  };
}

std::unique_ptr<Kernel> makeGelu(const KernelInit& init) {
  if (!unaryType(plannedType(init, 0))) return nullptr;
  const std::string a = init.node.attrString("approximate", "none");
  if (a != "none" && a != "tanh") return nullptr;
  return std::make_unique<UnaryKernel>(a == "tanh" ? Un::kGeluTanh : Un::kGelu, UnParams{});
}

// Clip: attributes before opset 11, optional inputs 1 (min) and 2 (max) after.
class ClipKernel final : public CudaKernel {
 public:
  ClipKernel(const KernelInit& init) {
    const float lo = std::numeric_limits<float>::lowest(), hi = std::numeric_limits<float>::max();
    if (init.opset < 11) {
      min_ = init.node.attrFloat("min", lo);
      max_ = init.node.attrFloat("max", hi);
      return;
    }
    min_ = lo;
    max_ = hi;
    for (size_t i = 1; i < 3 && i < init.inputs.size(); ++i) {
      if (!init.hasInput(i)) continue;
      if (const Tensor* t = init.constInput(i)) {
        (i == 1 ? min_ : max_) = scalarOf(*t);
      } else {
        markHost(i);
        dynamic_[i] = true;
        captureSafe_ = false;
      }
    }
  }
  void run(KernelContext& ctx) override {
    Run r = runOf(ctx);
    UnParams p{min_, max_};
    if (dynamic_[1] && ctx.hasInput(1)) p.a = scalarOf(ctx.input(1));
    if (dynamic_[2] && ctx.hasInput(2)) p.b = scalarOf(ctx.input(2));
    const Tensor& x = ctx.input(0);
    Tensor& y = ctx.output(0);
    checkLaunch(launchUnary(Un::kClip, dtOf(x.dtype()), x.data(), y.data(), x.numel(), p, r.stream), "launchUnary",
                ctx);
  }

 private:
  static float scalarOf(const Tensor& t) {
    if (t.numel() != 1) return std::numeric_limits<float>::quiet_NaN();
    switch (t.dtype()) {
      case DataType::kFloat: return t.data<float>()[0];
      case DataType::kDouble: return static_cast<float>(t.data<double>()[0]);
      case DataType::kFloat16: return static_cast<float>(t.data<Float16>()[0]);
      default: return std::numeric_limits<float>::quiet_NaN();
    }
  }
  float min_ = 0, max_ = 0;
  bool dynamic_[3] = {false, false, false};
};

std::unique_ptr<Kernel> makeClip(const KernelInit& init) {
  if (!unaryType(plannedType(init, 0))) return nullptr;
  return std::make_unique<ClipKernel>(init);
}

class CastKernel final : public CudaKernel {
 public:
  void run(KernelContext& ctx) override {
    Run r = runOf(ctx);
    const Tensor& x = ctx.input(0);
    Tensor& y = ctx.output(0);
    checkLaunch(launchCast(dtOf(x.dtype()), dtOf(y.dtype()), x.data(), y.data(), x.numel(), r.stream), "launchCast",
                ctx);
  }
};

std::unique_ptr<Kernel> makeCast(const KernelInit& init) {
  const DataType from = plannedType(init, 0);
  const auto to = static_cast<DataType>(init.node.attrInt("to", 0));
  if (dtOf(from) == Dt::kNone || dtOf(to) == Dt::kNone) return nullptr;
  return std::make_unique<CastKernel>();
}

UnParams alpha(const Node& n, float def) { return UnParams{n.attrFloat("alpha", def), 0}; }

}  // namespace

std::vector<CudaOp> elementwiseOps() {
  std::vector<CudaOp> ops = {
      {"Add", binary(Bin::kAdd)},
      {"Sub", binary(Bin::kSub)},
      {"Mul", binary(Bin::kMul)},
      {"Div", binary(Bin::kDiv)},
      {"Pow", binary(Bin::kPow)},
      {"Mod", binary(Bin::kMod)},
      {"PRelu", binary(Bin::kPRelu)},
      {"Max", variadic(Bin::kMax)},
      {"Min", variadic(Bin::kMin)},
      {"Sum", variadic(Bin::kAdd)},
      {"Equal", binary(Bin::kEq)},
      {"Less", binary(Bin::kLt)},
      {"Greater", binary(Bin::kGt)},
      {"LessOrEqual", binary(Bin::kLe)},
      {"GreaterOrEqual", binary(Bin::kGe)},
      {"And", binary(Bin::kAnd)},
      {"Or", binary(Bin::kOr)},
      {"Xor", binary(Bin::kXor)},
      {"Where", makeWhere},
      {"Not", unary(Un::kNot)},
      {"Relu", unary(Un::kRelu)},
      {"LeakyRelu", unary(Un::kLeakyRelu, [](const Node& n) { return alpha(n, 0.01f); })},
      {"Elu", unary(Un::kElu, [](const Node& n) { return alpha(n, 1.f); })},
      {"Selu", unary(Un::kSelu, [](const Node& n) {
         return UnParams{n.attrFloat("alpha", 1.67326319217681884765625f), n.attrFloat("gamma", 1.05070102214813232421875f)};
       })},
      {"Celu", unary(Un::kCelu, [](const Node& n) { return alpha(n, 1.f); })},
      {"Sigmoid", unary(Un::kSigmoid)},
      {"HardSigmoid", unary(Un::kHardSigmoid, [](const Node& n) {
         return UnParams{n.attrFloat("alpha", 0.2f), n.attrFloat("beta", 0.5f)};
       })},
      {"HardSwish", unary(Un::kHardSwish)},
      {"Tanh", unary(Un::kTanh)},
      {"Softplus", unary(Un::kSoftplus)},
      {"Softsign", unary(Un::kSoftsign)},
      {"Gelu", makeGelu},
      {"Mish", unary(Un::kMish)},
      {"ThresholdedRelu", unary(Un::kThresholdedRelu, [](const Node& n) { return alpha(n, 1.f); })},
      {"Clip", makeClip},
      {"Sqrt", unary(Un::kSqrt)},
      {"Exp", unary(Un::kExp)},
      {"Log", unary(Un::kLog)},
      {"Abs", unary(Un::kAbs)},
      {"Neg", unary(Un::kNeg)},
      {"Reciprocal", unary(Un::kReciprocal)},
      {"Erf", unary(Un::kErf)},
      {"Sin", unary(Un::kSin)},
      {"Cos", unary(Un::kCos)},
      {"Tan", unary(Un::kTan)},
      {"Atan", unary(Un::kAtan)},
      {"Floor", unary(Un::kFloor)},
      {"Ceil", unary(Un::kCeil)},
      {"Round", unary(Un::kRound)},
      {"Sign", unary(Un::kSign)},
      {"Cast", makeCast},
  };
  return ops;
}

}  // namespace oinfer::cuda
