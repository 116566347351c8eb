// CUDA Gemm and MatMul through cublasGemmStridedBatchedEx.
//
// Row-major Y[M,N] = op(A) op(B) is computed as the column-major product
// Y^T = op(B)^T op(A)^T, so cuBLAS sees (N, M, K) with B first and no copies.
// MatMul folds A's batch dims into M when B has no batch (x @ W, the common
// case), runs one strided-batched call when the batch dims match or one side
// has none (stride 0), and loops over the output batch otherwise. Gemm's C
// is first broadcast into Y and then accumulated with beta. fp32 computes in
// exact fp32 unless the context allows TF32; fp16 accumulates in fp32.
#include <map>
#include <mutex>

#include "ops/cuda/cuda_ops.h"

namespace oinfer::cuda {
namespace {

cudaDataType_t blasType(DataType t) {
  switch (t) {
    case DataType::kFloat16: return CUDA_R_16F;
    case DataType::kDouble: return CUDA_R_64F;
    default: return CUDA_R_32F;
  }
}

// One (possibly batched) row-major product; strides in elements.
struct Gemm {
  int64_t M = 0, N = 0, K = 0, batch = 1;
  bool transA = false, transB = false;
  int64_t strideA = 0, strideB = 0, strideY = 0;
  double alpha = 1, beta = 0;
};

void runGemm(const KernelContext& ctx, Run& r, DataType t, const Gemm& g, const void* A, const void* B, void* Y) {
  if (g.M == 0 || g.N == 0 || g.batch == 0) return;
  const int lda = static_cast<int>(g.transA ? g.M : g.K);
  const int ldb = static_cast<int>(g.transB ? g.K : g.N);
  const cudaDataType_t dt = blasType(t);
  cublasComputeType_t ct = CUBLAS_COMPUTE_32F;
  if (t == DataType::kDouble) ct = CUBLAS_COMPUTE_64F;
  else if (t == DataType::kFloat && r.ctx.allowTF32) ct = CUBLAS_COMPUTE_32F_FAST_TF32;
  const float af = static_cast<float>(g.alpha), bf = static_cast<float>(g.beta);
  const void* alpha = t == DataType::kDouble ? static_cast<const void*>(&g.alpha) : &af;
  const void* beta = t == DataType::kDouble ? static_cast<const void*>(&g.beta) : &bf;
  if (g.M > INT32_MAX || g.N > INT32_MAX || g.K > INT32_MAX || g.batch > INT32_MAX)
    ctx.fail("matrix dims exceed cuBLAS's 32-bit limits");
  check(cublasGemmStridedBatchedEx(r.ctx.cublas(), g.transB ? CUBLAS_OP_T : CUBLAS_OP_N,
                                   g.transA ? CUBLAS_OP_T : CUBLAS_OP_N, static_cast<int>(g.N), static_cast<int>(g.M),
                                   static_cast<int>(g.K), alpha, B, dt, ldb, g.strideB, A, dt, lda, g.strideA, beta, Y,
                                   dt, static_cast<int>(g.N), g.strideY, static_cast<int>(g.batch), ct,
                                   CUBLAS_GEMM_DEFAULT),
        "cublasGemmStridedBatchedEx", &ctx.node());
}

bool gemmType(DataType t) { return t == DataType::kFloat || t == DataType::kFloat16 || t == DataType::kDouble; }

// ---- Gemm ---------------------------------------------------------------------------

class GemmKernel final : public CudaKernel {
 public:
  GemmKernel(const KernelInit& init)
      : alpha_(init.node.attrFloat("alpha", 1.f)), beta_(init.node.attrFloat("beta", 1.f)),
        transA_(init.node.attrInt("transA", 0) != 0), transB_(init.node.attrInt("transB", 0) != 0) {
    for (size_t i = 0; i < 3 && i < init.inputs.size(); ++i) own(init, i);
  }
  void run(KernelContext& ctx) override {
    Run r = runOf(ctx);
    Tensor& y = ctx.output(0);
    const auto& as = shapeOf(ctx, 0);
    const auto& bs = shapeOf(ctx, 1);
    if (as.size() != 2 || bs.size() != 2) ctx.fail("A and B must be 2-d, got " + shapeToString(as) + " and " + shapeToString(bs));
    Gemm g;
    g.transA = transA_;
    g.transB = transB_;
    g.M = transA_ ? as[1] : as[0];
    g.K = transA_ ? as[0] : as[1];
    g.N = transB_ ? bs[0] : bs[1];
    if ((transB_ ? bs[1] : bs[0]) != g.K)
      ctx.fail("A " + shapeToString(as) + " and B " + shapeToString(bs) + " do not multiply");
    if (y.shape() != std::vector<int64_t>{g.M, g.N}) ctx.fail("planned output shape differs from [M, N]");
    g.alpha = alpha_;
    if (present(ctx, 2) && beta_ != 0.f) {
      const auto& cs = shapeOf(ctx, 2);
      const BcastGeom bg = makeBcast(ctx, y.shape(), {&cs});
      CopyGeom cg;
      cg.rank = bg.rank;
      cg.n = bg.n;
      for (int d = 0; d < bg.rank; ++d) {
        cg.dims[d] = bg.dims[d];
        cg.ss[d] = bg.flat ? 0 : bg.st[0][d];
      }
      if (bg.flat) {  // C has Y's shape: one contiguous run
        cg.rank = 1;
        cg.dims[0] = bg.n;
        cg.ss[0] = 1;
      }
      int64_t stride = 1;
      for (int d = cg.rank - 1; d >= 0; --d) {
        cg.ds[d] = stride;
        stride *= cg.dims[d];
      }
      checkLaunch(launchStridedCopy(static_cast<int>(dataTypeSize(y.dtype())), in(ctx, 2), y.data(), cg, r.stream),
                  "launchStridedCopy", ctx);
      g.beta = beta_;
    }
    runGemm(ctx, r, y.dtype(), g, in(ctx, 0), in(ctx, 1), y.data());
  }

 private:
  float alpha_, beta_;
  bool transA_, transB_;
};

std::unique_ptr<Kernel> makeGemm(const KernelInit& init) {
  const DataType t = plannedType(init, 0);
  if (!gemmType(t) || plannedType(init, 1) != t) return nullptr;
  if (init.hasInput(2) && plannedType(init, 2) != t) return nullptr;
  return std::make_unique<GemmKernel>(init);
}

// ---- MatMul -------------------------------------------------------------------------------

class MatMulKernel final : public CudaKernel {
 public:
  explicit MatMulKernel(const KernelInit& init) {
    own(init, 0);
    own(init, 1);
  }
  void run(KernelContext& ctx) override {
    Run r = runOf(ctx);
    Tensor& y = ctx.output(0);
    std::vector<int64_t> as = shapeOf(ctx, 0), bs = shapeOf(ctx, 1);
    if (as.empty() || bs.empty()) ctx.fail("MatMul inputs must have rank >= 1");
    // numpy: a 1-d A is a row vector, a 1-d B a column vector (dims dropped from Y).
    if (as.size() == 1) as.insert(as.begin(), 1);
    if (bs.size() == 1) bs.push_back(1);
    const int64_t M = as[as.size() - 2], K = as.back(), N = bs.back();
    if (bs[bs.size() - 2] != K)
      ctx.fail("A " + shapeToString(shapeOf(ctx, 0)) + " and B " + shapeToString(shapeOf(ctx, 1)) + " do not multiply");
    const size_t rb = std::max(as.size(), bs.size()) - 2;
    std::vector<int64_t> ab(rb, 1), bb(rb, 1), ob(rb, 1);
    for (size_t i = 0; i < as.size() - 2; ++i) ab[rb - (as.size() - 2) + i] = as[i];
    for (size_t i = 0; i < bs.size() - 2; ++i) bb[rb - (bs.size() - 2) + i] = bs[i];
    int64_t aBatch = 1, bBatch = 1, oBatch = 1;
    for (size_t i = 0; i < rb; ++i) {
      if (ab[i] != bb[i] && ab[i] != 1 && bb[i] != 1)
        ctx.fail("batch dims of A " + shapeToString(shapeOf(ctx, 0)) + " and B " + shapeToString(shapeOf(ctx, 1)) +
                 " do not broadcast");
      ob[i] = std::max(ab[i], bb[i]);
      if (ab[i] == 0 || bb[i] == 0) ob[i] = 0;
      aBatch *= ab[i];
      bBatch *= bb[i];
      oBatch *= ob[i];
    }
    if (y.numel() != oBatch * M * N) ctx.fail("planned output size differs from the product's");
    const void* A = in(ctx, 0);
    const void* B = in(ctx, 1);
    const DataType t = y.dtype();
    Gemm g;
    g.K = K;
    g.N = N;
    if (bBatch == 1) {  // fold A's batch into M
      g.M = aBatch * M;
      runGemm(ctx, r, t, g, A, B, y.data());
      return;
    }
    g.M = M;
    g.strideY = M * N;
    if (aBatch == oBatch && bBatch == oBatch && ab == bb) {
      g.batch = oBatch;
      g.strideA = M * K;
      g.strideB = K * N;
      runGemm(ctx, r, t, g, A, B, y.data());
      return;
    }
    if (aBatch == 1 && bb == ob) {
      g.batch = oBatch;
      g.strideA = 0;
      g.strideB = K * N;
      runGemm(ctx, r, t, g, A, B, y.data());
      return;
    }
    // General broadcasting: one call per output batch index.
    const size_t es = dataTypeSize(t);
    std::vector<int64_t> idx(rb, 0);
    for (int64_t o = 0; o < oBatch; ++o) {
      int64_t rem = o, ai = 0, bi = 0, am = 1, bm = 1;
      for (size_t d = rb; d-- > 0;) {
        const int64_t c = rem % ob[d];
        rem /= ob[d];
        ai += (ab[d] == 1 ? 0 : c) * am;
        bi += (bb[d] == 1 ? 0 : c) * bm;
        am *= ab[d];
        bm *= bb[d];
      }
      runGemm(ctx, r, t, g, static_cast<const char*>(A) + ai * M * K * es, static_cast<const char*>(B) + bi * K * N * es,
              static_cast<char*>(y.data()) + o * M * N * es);
    }
  }
};

std::unique_ptr<Kernel> makeMatMul(const KernelInit& init) {
  const DataType t = plannedType(init, 0);
  if (!gemmType(t) || plannedType(init, 1) != t) return nullptr;
  return std::make_unique<MatMulKernel>(init);
}

// ---- ai.oinfer fused ops of the transformer passes -------------------------------------

// FusedMatMul(A, B, bias?, residual?): act(A @ B + bias) + residual, the GEMM in
// cuBLAS and the rest in one epilogue launch (plus one for the residual).
class FusedMatMulKernel final : public CudaKernel {
 public:
  FusedMatMulKernel(const KernelInit& init, Un act)
      : act_(act), transB_(init.node.attrInt("transB", 0) != 0) {
    own(init, 1);
    if (init.hasInput(2)) own(init, 2);
  }
  void run(KernelContext& ctx) override {
    Run r = runOf(ctx);
    const Tensor& a = ctx.input(0);
    const auto& bs = shapeOf(ctx, 1);
    Tensor& y = ctx.output(0);
    if (bs.size() != 2 || a.rank() == 0 || a.shape().back() != bs[transB_ ? 1 : 0])
      ctx.fail("inner dimensions differ: input 0 has shape " + shapeToString(a.shape()) + ", input 1 " +
               shapeToString(bs));
    Gemm g;
    g.K = bs[transB_ ? 1 : 0];
    g.N = bs[transB_ ? 0 : 1];
    g.M = g.K == 0 ? 0 : a.numel() / g.K;
    g.transB = transB_;
    if (y.numel() != g.M * g.N) ctx.fail("planned output size differs from the product's");
    if (g.M == 0 || g.N == 0) return;
    runGemm(ctx, r, DataType::kFloat, g, a.data(), in(ctx, 1), y.data());
    const bool bias = present(ctx, 2);
    if (bias && [&] { int64_t n = 1; for (int64_t d : shapeOf(ctx, 2)) n *= d; return n; }() != g.N)
      ctx.fail("input 2 (bias) must have " + std::to_string(g.N) + " elements");
    if (bias || act_ != Un::kIdentity)
      checkLaunch(launchBiasAct(Dt::kF32, y.data(), bias ? in(ctx, 2) : nullptr, y.numel(), g.N, 1, act_, UnParams{},
                                r.stream),
                  "launchBiasAct", ctx);
    if (ctx.hasInput(3)) {
      const Tensor& res = ctx.input(3);
      if (res.shape() != y.shape()) ctx.fail("input 3 (residual) must have the output's shape");
      BcastGeom bg;
      bg.flat = true;
      bg.n = y.numel();
      checkLaunch(launchBinary(Bin::kAdd, Dt::kF32, y.data(), res.data(), y.data(), bg, r.stream), "launchBinary",
                  ctx);
    }
  }

 private:
  Un act_;
  bool transB_;
};

std::unique_ptr<Kernel> makeFusedMatMul(const KernelInit& init) {
  if (plannedType(init, 0) != DataType::kFloat || plannedType(init, 1) != DataType::kFloat) return nullptr;
  const std::string act = init.node.attrString("activation", "");
  Un a = Un::kIdentity;
  if (act == "Relu") a = Un::kRelu;
  else if (act == "Gelu") a = Un::kGelu;
  else if (!act.empty()) return nullptr;
  // The CPU kernel's order of an activation and a residual is not pinned down; the passes never emit both.
  if (a != Un::kIdentity && init.hasInput(3)) return nullptr;
  return std::make_unique<FusedMatMulKernel>(init, a);
}

// LayerNorm(X, scale, bias?, skip?) over the last axis; with skip it
// normalizes X + skip and may also output that sum (output 1).
class FusedLayerNormKernel final : public CudaKernel {
 public:
  explicit FusedLayerNormKernel(const KernelInit& init) : eps_(init.node.attrFloat("epsilon", 1e-5f)) {
    own(init, 1);
    if (init.hasInput(2)) own(init, 2);
  }
  void run(KernelContext& ctx) override {
    Run r = runOf(ctx);
    const Tensor& x = ctx.input(0);
    Tensor& y = ctx.output(0);
    if (x.rank() == 0) ctx.fail("input 0 must have rank >= 1");
    const int64_t n = x.shape().back(), rows = n == 0 ? 0 : x.numel() / n;
    const auto count = [&](size_t i) {
      int64_t c = 1;
      for (int64_t d : shapeOf(ctx, i)) c *= d;
      if (c != n) ctx.fail("input " + std::to_string(i) + " must have " + std::to_string(n) + " elements");
      return c;
    };
    count(1);
    const bool bias = present(ctx, 2);
    if (bias) count(2);
    const void* src = x.data();
    if (ctx.hasInput(3)) {
      const Tensor& skip = ctx.input(3);
      if (skip.shape() != x.shape()) ctx.fail("input 3 (skip) must have input 0's shape");
      // The sum goes to output 1 when wanted, else through y (the row kernel
      // reads each element before writing it).
      void* sum = ctx.hasOutput(1) ? ctx.output(1).data() : y.data();
      BcastGeom bg;
      bg.flat = true;
      bg.n = x.numel();
      checkLaunch(launchBinary(Bin::kAdd, Dt::kF32, x.data(), skip.data(), sum, bg, r.stream), "launchBinary", ctx);
      src = sum;
    }
    checkLaunch(launchLayerNorm(Dt::kF32, src, in(ctx, 1), bias ? in(ctx, 2) : nullptr, y.data(), nullptr, nullptr,
                                rows, n, n, n, eps_, false, r.stream),
                "launchLayerNorm", ctx);
  }

 private:
  float eps_;
};

std::unique_ptr<Kernel> makeFusedLayerNorm(const KernelInit& init) {
  if (plannedType(init, 0) != DataType::kFloat) return nullptr;
  return std::make_unique<FusedLayerNormKernel>(init);
}

class FusedGeluKernel final : public CudaKernel {
 public:
  void run(KernelContext& ctx) override {
    Run r = runOf(ctx);
    const Tensor& x = ctx.input(0);
    checkLaunch(launchUnary(Un::kGelu, Dt::kF32, x.data(), ctx.output(0).data(), x.numel(), UnParams{}, r.stream),
                "launchUnary", ctx);
  }
};

}  // namespace

std::vector<CudaOp> convOps();  // cuda_conv.cpp

std::vector<CudaOp> dnnOps() {
  std::vector<CudaOp> ops = convOps();
  ops.push_back({"Gemm", makeGemm});
  ops.push_back({"MatMul", makeMatMul});
  ops.push_back({"FusedMatMul", makeFusedMatMul, "ai.oinfer"});
  ops.push_back({"LayerNorm", makeFusedLayerNorm, "ai.oinfer"});
  ops.push_back({"Gelu", [](const KernelInit& init) -> std::unique_ptr<Kernel> {
                   if (plannedType(init, 0) != DataType::kFloat) return nullptr;
                   return std::make_unique<FusedGeluKernel>();
                 }, "ai.oinfer"});
  return ops;
}

}  // namespace oinfer::cuda
