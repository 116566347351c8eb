// Single-precision GEMM for the CPU kernels (row-major throughout).
//
//   C (M x N) = alpha * op(A) (M x K) * op(B) (K x N) + beta * C
//
// then an optional epilogue applied while each output tile is still in cache:
//   C = act(C + bias + residual)
// where bias is per row (a Conv's output channel, since Y = W * col) or per
// column (a Gemm/MatMul's N), residual is an M x N matrix (ResNet's skip
// connection), and act one of the activations below.
//
// Method (GotoBLAS-style): B is packed into K-blocks of NR-wide column panels
// and A into K-blocks of MR-tall row panels; a register-blocked micro-kernel
// computes an MR x NR tile per panel pair. The ISA (AVX-512 12x32, AVX2 6x16,
// portable 4x8) is chosen at run time with __builtin_cpu_supports, and the
// SIMD kernels carry their own target attributes, so a portable build still
// uses AVX-512 where the CPU has it. Constant operands (Conv weights,
// Gemm/MatMul weights) are packed once at plan time (packA / packB) and then
// only streamed. Work is split over the pool as one rectangular block of C
// per thread (the split that wastes the fewest padded tiles).
//
// Scratch: every call takes a Workspace (ops/cpu/workspace.h) for the
// operands it packs: per thread, the blocks of A and B it packs (at most
// kMc x kKc and kKc x kNc, gemm_internal.h); shared, op(A) packed whole
// when the driver splits the columns over the threads. gemmScratch gives
// the sizes for a shape, so a kernel with static shapes requests them at
// plan time; without one (or too small: shapes known only at run time, a
// direct caller such as a test) the call allocates its own.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "oinfer/thread_pool.h"
#include "ops/cpu/workspace.h"

namespace oinfer {

enum class GemmActivation { kNone, kRelu, kClip, kLeakyRelu, kSigmoid, kHardSigmoid, kTanh, kSiLU, kGelu, kHardSwish };

enum class GemmBias { kNone, kPerRow, kPerCol };

struct GemmEpilogue {
  GemmBias biasKind = GemmBias::kNone;
  const float* bias = nullptr;      // M values (kPerRow) or N values (kPerCol)
  const float* residual = nullptr;  // M x N, added before the activation
  int64_t ldr = 0;                  // residual row stride
  GemmActivation act = GemmActivation::kNone;
  // kClip: [p0, p1] = [min, max]; kLeakyRelu: p0 = alpha;
  // kHardSigmoid: p0 = alpha, p1 = beta (max(0, min(1, alpha*x + beta)));
  // kGelu: p0 != 0 selects the tanh approximation.
  float p0 = 0.f, p1 = 0.f;
};

// A matrix packed for the micro-kernel of the ISA chosen at run time.
// Opaque to callers; cheap to move.
struct PackedB {
  int64_t K = 0, N = 0;
  int nr = 0, kc = 0;
  std::shared_ptr<float[]> data;
  bool empty() const { return !data; }
};
struct PackedA {
  int64_t M = 0, K = 0;
  int mr = 0, kc = 0;
  std::shared_ptr<float[]> data;
  bool empty() const { return !data; }
};

// The workspace a call with this shape needs on a pool of `threads`
// (the pool's size; 1 for a call without a pool), with A and / or B packed
// ahead (PackedA / PackedB) or not.
ScratchNeed gemmScratch(int64_t M, int64_t N, int64_t K, bool aPacked, bool bPacked, int threads);

// C = alpha * op(A) * op(B) + beta * C. beta == 0 never reads C (it may hold
// garbage). pool may be nullptr (single-threaded: then on the calling
// thread's part of ws, so a parallelFor body may call it).
void sgemm(bool transA, bool transB, int64_t M, int64_t N, int64_t K, float alpha, const float* A, int64_t lda,
           const float* B, int64_t ldb, float beta, float* C, int64_t ldc, ThreadPool* pool,
           const Workspace& ws = {});

// Packs op(B) (K x N; B is N x K when transB) once.
PackedB packB(bool transB, int64_t K, int64_t N, const float* B, int64_t ldb);
// Packs op(A) (M x K; A is K x M when transA) once.
PackedA packA(bool transA, int64_t M, int64_t K, const float* A, int64_t lda);

// C = alpha * op(A) * B + beta * C, then the epilogue.
void sgemmPacked(bool transA, int64_t M, const float* A, int64_t lda, const PackedB& B, float alpha, float beta,
                 float* C, int64_t ldc, const GemmEpilogue& ep, ThreadPool* pool, const Workspace& ws = {});
// C = alpha * A * op(B) + beta * C, then the epilogue.
void sgemmPackedA(const PackedA& A, bool transB, int64_t N, const float* B, int64_t ldb, float alpha, float beta,
                  float* C, int64_t ldc, const GemmEpilogue& ep, ThreadPool* pool, const Workspace& ws = {});

// The epilogue alone over an M x N block of C (for callers that produce C
// another way, e.g. the direct depthwise convolution). C points at the
// block; bias and residual are indexed from (rowOffset, colOffset).
void applyGemmEpilogue(const GemmEpilogue& ep, float* C, int64_t ldc, int64_t M, int64_t N, int64_t rowOffset = 0,
                       int64_t colOffset = 0);

// Name of the micro-kernel in use ("avx512", "avx2", "generic"), for logs
// and benchmarks.
const char* sgemmIsa();

}  // namespace oinfer
