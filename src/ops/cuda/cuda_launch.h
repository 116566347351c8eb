// The launch layer: plain host functions that enqueue our own CUDA kernels on
// a stream. Shared by the .cu files (nvcc) and the kernel classes (.cpp, g++),
// so it holds only PODs: no oinfer types, no CUDA headers beyond the runtime
// API. Geometry travels by value in small fixed-rank structs (kMaxRank dims),
// element counts and offsets are int64. Every launcher returns the launch's
// cudaError_t (cudaGetLastError) for the caller to check with the node.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace oinfer::cuda {

constexpr int kMaxRank = 8;

// Element types the launch layer knows.
enum class Dt : int { kNone = 0, kF32, kF16, kF64, kI32, kI64, kI8, kU8, kBool };
int dtSize(Dt t);

// ---- elementwise ----------------------------------------------------------
// Output index space `dims` (rank <= kMaxRank); st[k][d] is input k's element
// stride along output dim d (0 where it broadcasts).
struct BcastGeom {
  int rank = 0;
  int64_t n = 0;
  bool flat = false;  // every input has the output's shape: index i everywhere
  int64_t dims[kMaxRank] = {};
  int64_t st[3][kMaxRank] = {};
};

enum class Bin : int {
  kAdd, kSub, kMul, kDiv, kPow, kMax, kMin, kMod, kFmod, kPRelu,  // arithmetic: y has the inputs' type
  kEq, kLt, kGt, kLe, kGe,                                        // comparisons: y is bool
  kAnd, kOr, kXor,                                                // bool x bool -> bool
};
// a, b of type t (bool for kAnd/kOr/kXor). Types: F32 F16 I32 I64 (arith., compare).
cudaError_t launchBinary(Bin op, Dt t, const void* a, const void* b, void* y, const BcastGeom& g, cudaStream_t s);
// y = cond ? x : z, any element size (1, 2, 4, 8 bytes).
cudaError_t launchWhere(int elemSize, const void* cond, const void* x, const void* z, void* y, const BcastGeom& g,
                        cudaStream_t s);

enum class Un : int {
  kIdentity, kRelu, kLeakyRelu, kElu, kSelu, kCelu, kSigmoid, kHardSigmoid, kHardSwish, kTanh, kSoftplus, kSoftsign,
  kGelu, kGeluTanh, kMish, kThresholdedRelu, kClip, kSqrt, kExp, kLog, kAbs, kNeg, kReciprocal, kErf, kSin, kCos,
  kTan, kAtan, kFloor, kCeil, kRound, kSign, kNot,
};
struct UnParams {
  float a = 0, b = 0;  // alpha/beta, min/max, ...
};
// Types: F32 F16 (kNot: bool).
cudaError_t launchUnary(Un op, Dt t, const void* x, void* y, int64_t n, UnParams p, cudaStream_t s);
// Between any two of F32 F16 F64 I32 I64 I8 U8 Bool.
cudaError_t launchCast(Dt from, Dt to, const void* x, void* y, int64_t n, cudaStream_t s);
// In place: y[i] = act(y[i] + bias[(i / inner) % biasLen]) (bias may be null).
cudaError_t launchBiasAct(Dt t, void* y, const void* bias, int64_t n, int64_t biasLen, int64_t inner, Un act,
                          UnParams p, cudaStream_t s);
// y[i] = x[i] * a[c] + b[c], c = (i / inner) % C; a, b float.
cudaError_t launchChannelAffine(Dt t, const void* x, const float* a, const float* b, void* y, int64_t n, int64_t C,
                                int64_t inner, cudaStream_t s);

// ---- data movement (type-agnostic: element size 1, 2, 4 or 8) ---------------
// For every index of `dims`: dst[dstOff + sum idx*ds] = src[srcOff + sum idx*ss].
struct CopyGeom {
  int rank = 0;
  int64_t n = 0;
  int64_t dims[kMaxRank] = {};
  int64_t ss[kMaxRank] = {};
  int64_t ds[kMaxRank] = {};
  int64_t srcOff = 0, dstOff = 0;
};
cudaError_t launchStridedCopy(int elemSize, const void* src, void* dst, const CopyGeom& g, cudaStream_t s);

// Pad modes: 0 constant, 1 reflect, 2 edge, 3 wrap. Negative pads crop.
struct PadGeom {
  int rank = 0;
  int mode = 0;
  int64_t n = 0;
  int64_t odims[kMaxRank] = {};
  int64_t idims[kMaxRank] = {};
  int64_t padBegin[kMaxRank] = {};
  uint64_t value = 0;  // the constant's bytes (low elemSize bytes)
};
cudaError_t launchPad(int elemSize, const void* x, void* y, const PadGeom& g, cudaStream_t s);

// y[o, j, i] = x[o, idx[j] (negative: + axisDim), i]; an index out of range
// writes zeros (the CPU kernel reports it; see GatherKernel).
cudaError_t launchGather(int elemSize, const void* x, const void* idx, bool idx64, void* y, int64_t outer,
                         int64_t axisDim, int64_t nIdx, int64_t inner, cudaStream_t s);

// Resize by per-axis tables (built on the host): for output coordinate o on
// axis d, taps[d] source offsets idx[tab[d] + o*taps[d] + k] (index times the
// input's stride on that axis) with weights w[...].
struct ResizeGeom {
  int rank = 0;
  int64_t n = 0;
  int64_t idims[kMaxRank] = {};
  int64_t odims[kMaxRank] = {};
  int taps[kMaxRank] = {};
  int64_t tab[kMaxRank] = {};
};
// Types: F32 F16.
cudaError_t launchResize(Dt t, const void* x, void* y, const int64_t* idx, const float* w, const ResizeGeom& g,
                         cudaStream_t s);

// ---- reductions, normalization, pooling -------------------------------------
enum class Red : int { kSum, kMean, kMax, kMin, kProd, kSumSquare, kL1, kL2, kLogSum, kLogSumExp };
// Output element o (decomposed over odims with input strides ost) reduces the
// input elements over rdims with strides rst.
struct RedGeom {
  int orank = 0, rrank = 0;
  int64_t nOut = 0, nRed = 0;
  int64_t odims[kMaxRank] = {};
  int64_t ost[kMaxRank] = {};
  int64_t rdims[kMaxRank] = {};
  int64_t rst[kMaxRank] = {};
};
// Types: F32 F16 (all ops), I32 I64 (kSum kMax kMin kProd).
cudaError_t launchReduce(Red op, Dt t, const void* x, void* y, const RedGeom& g, cudaStream_t s);
// Softmax / LogSoftmax along the middle dim of [outer, n, inner].
cudaError_t launchSoftmax(Dt t, bool log, const void* x, void* y, int64_t outer, int64_t n, int64_t inner,
                          cudaStream_t s);
// LayerNormalization over rows of n; scale/bias have scaleN/biasN elements
// (n, or 1 to broadcast; bias may be null); mean/invStd (float, may be null).
cudaError_t launchLayerNorm(Dt t, const void* x, const void* scale, const void* bias, void* y, float* mean,
                            float* invStd, int64_t rows, int64_t n, int64_t scaleN, int64_t biasN, float eps,
                            bool rms, cudaStream_t s);
// Max/Average pool in canonical 3-d form (leading spatial dims of size 1).
struct PoolLaunch {
  int64_t planes = 0;
  int64_t img[3] = {1, 1, 1}, out[3] = {1, 1, 1}, k[3] = {1, 1, 1}, s[3] = {1, 1, 1}, dil[3] = {1, 1, 1},
          padBegin[3] = {}, padEnd[3] = {};
  bool max = true, countPad = false;
};
// Types: F32 F16.
cudaError_t launchPool(Dt t, const void* x, void* y, const PoolLaunch& g, cudaStream_t s);

}  // namespace oinfer::cuda
