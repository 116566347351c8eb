// Unary math and activations, and the bias/activation and per-channel affine
// epilogues (Conv, ConvTranspose, BatchNormalization). Half precision
// computes in float.
#include <cuda_fp16.h>

#include <cstdint>

#include "ops/cuda/cuda_common.cuh"

namespace oinfer::cuda {

// ---- unary -----------------------------------------------------------------------

template <int OP, class C>
__device__ __forceinline__ C unaryOp(C x, UnParams p) {
  const C a = static_cast<C>(p.a), b = static_cast<C>(p.b);
  if constexpr (OP == (int)Un::kIdentity) return x;
  else if constexpr (OP == (int)Un::kRelu) return x > C(0) ? x : C(0);
  else if constexpr (OP == (int)Un::kLeakyRelu) return x >= C(0) ? x : a * x;
  else if constexpr (OP == (int)Un::kElu) return x >= C(0) ? x : a * (exp(x) - C(1));
  else if constexpr (OP == (int)Un::kSelu) return x > C(0) ? b * x : b * (a * exp(x) - a);
  else if constexpr (OP == (int)Un::kCelu) return (x > C(0) ? x : C(0)) + min(C(0), a * (exp(x / a) - C(1)));
  else if constexpr (OP == (int)Un::kSigmoid) return C(1) / (C(1) + exp(-x));
  else if constexpr (OP == (int)Un::kHardSigmoid) return max(C(0), min(C(1), a * x + b));
  else if constexpr (OP == (int)Un::kHardSwish) return x * max(C(0), min(C(1), x / C(6) + C(0.5)));
  else if constexpr (OP == (int)Un::kTanh) return tanh(x);
  else if constexpr (OP == (int)Un::kSoftplus) return x > C(20) ? x : log1p(exp(x));
  else if constexpr (OP == (int)Un::kSoftsign) return x / (C(1) + fabs(x));
  else if constexpr (OP == (int)Un::kGelu) return C(0.5) * x * (C(1) + erf(x * C(0.70710678118654752440)));
  else if constexpr (OP == (int)Un::kGeluTanh)
    return C(0.5) * x * (C(1) + tanh(C(0.79788456080286535588) * (x + C(0.044715) * x * x * x)));
  else if constexpr (OP == (int)Un::kMish) return x * tanh(x > C(20) ? x : log1p(exp(x)));
  else if constexpr (OP == (int)Un::kThresholdedRelu) return x > a ? x : C(0);
  else if constexpr (OP == (int)Un::kClip) return x < a ? a : (x > b ? b : x);
  else if constexpr (OP == (int)Un::kSqrt) return sqrt(x);
  else if constexpr (OP == (int)Un::kExp) return exp(x);
  else if constexpr (OP == (int)Un::kLog) return log(x);
  else if constexpr (OP == (int)Un::kAbs) return fabs(x);
  else if constexpr (OP == (int)Un::kNeg) return -x;
  else if constexpr (OP == (int)Un::kReciprocal) return C(1) / x;
  else if constexpr (OP == (int)Un::kErf) return erf(x);
  else if constexpr (OP == (int)Un::kSin) return sin(x);
  else if constexpr (OP == (int)Un::kCos) return cos(x);
  else if constexpr (OP == (int)Un::kTan) return tan(x);
  else if constexpr (OP == (int)Un::kAtan) return atan(x);
  else if constexpr (OP == (int)Un::kFloor) return floor(x);
  else if constexpr (OP == (int)Un::kCeil) return ceil(x);
  else if constexpr (OP == (int)Un::kRound) return rint(x);  // halves to even, as ONNX Round
  else if constexpr (OP == (int)Un::kSign) return x > C(0) ? C(1) : (x < C(0) ? C(-1) : C(0));
  else return x;
}

template <int OP, class T>
__global__ void unaryKernel(const T* x, T* y, int64_t n, UnParams p) {
  using C = typename Calc<T>::type;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
    y[i] = static_cast<T>(unaryOp<OP, C>(static_cast<C>(x[i]), p));
}

__global__ void notKernel(const bool* x, bool* y, int64_t n) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
    y[i] = !x[i];
}

template <int OP>
cudaError_t unaryT(Dt t, const void* x, void* y, int64_t n, UnParams p, cudaStream_t s) {
  switch (t) {
#define OINFER_UN(D, T)                                                                                         \
  case Dt::D:                                                                                                   \
    unaryKernel<OP, T><<<gridFor(n), kBlock, 0, s>>>(static_cast<const T*>(x), static_cast<T*>(y), n, p); \
    break;
    OINFER_UN(kF32, float) OINFER_UN(kF16, __half)
#undef OINFER_UN
    default: return cudaErrorInvalidValue;
  }
  return cudaGetLastError();
}

cudaError_t launchUnary(Un op, Dt t, const void* x, void* y, int64_t n, UnParams p, cudaStream_t s) {
  if (n == 0) return cudaSuccess;
  if (op == Un::kNot) {
    if (t != Dt::kBool) return cudaErrorInvalidValue;
    notKernel<<<gridFor(n), kBlock, 0, s>>>(static_cast<const bool*>(x), static_cast<bool*>(y), n);
    return cudaGetLastError();
  }
  switch (op) {
#define OINFER_UNOP(X) \
  case Un::X: return unaryT<(int)Un::X>(t, x, y, n, p, s);
    OINFER_UNOP(kIdentity) OINFER_UNOP(kRelu) OINFER_UNOP(kLeakyRelu) OINFER_UNOP(kElu) OINFER_UNOP(kSelu)
    OINFER_UNOP(kCelu) OINFER_UNOP(kSigmoid) OINFER_UNOP(kHardSigmoid) OINFER_UNOP(kHardSwish) OINFER_UNOP(kTanh)
    OINFER_UNOP(kSoftplus) OINFER_UNOP(kSoftsign) OINFER_UNOP(kGelu) OINFER_UNOP(kGeluTanh) OINFER_UNOP(kMish)
    OINFER_UNOP(kThresholdedRelu) OINFER_UNOP(kClip) OINFER_UNOP(kSqrt) OINFER_UNOP(kExp) OINFER_UNOP(kLog)
    OINFER_UNOP(kAbs) OINFER_UNOP(kNeg) OINFER_UNOP(kReciprocal) OINFER_UNOP(kErf) OINFER_UNOP(kSin)
    OINFER_UNOP(kCos) OINFER_UNOP(kTan) OINFER_UNOP(kAtan) OINFER_UNOP(kFloor) OINFER_UNOP(kCeil)
    OINFER_UNOP(kRound) OINFER_UNOP(kSign)
#undef OINFER_UNOP
    default: return cudaErrorInvalidValue;
  }
}

// ---- epilogues ------------------------------------------------------------------------

template <int OP, class T>
__global__ void biasActKernel(T* y, const T* bias, int64_t n, int64_t biasLen, int64_t inner, UnParams p) {
  using C = typename Calc<T>::type;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
    C v = static_cast<C>(y[i]);
    if (bias) v += static_cast<C>(bias[(i / inner) % biasLen]);
    y[i] = static_cast<T>(unaryOp<OP, C>(v, p));
  }
}

template <class T>
cudaError_t biasActT(T* y, const T* bias, int64_t n, int64_t biasLen, int64_t inner, Un act, UnParams p,
                     cudaStream_t s) {
  const unsigned grid = gridFor(n);
  switch (act) {
    case Un::kIdentity: biasActKernel<(int)Un::kIdentity, T><<<grid, kBlock, 0, s>>>(y, bias, n, biasLen, inner, p); break;
    case Un::kRelu: biasActKernel<(int)Un::kRelu, T><<<grid, kBlock, 0, s>>>(y, bias, n, biasLen, inner, p); break;
    case Un::kLeakyRelu: biasActKernel<(int)Un::kLeakyRelu, T><<<grid, kBlock, 0, s>>>(y, bias, n, biasLen, inner, p); break;
    case Un::kSigmoid: biasActKernel<(int)Un::kSigmoid, T><<<grid, kBlock, 0, s>>>(y, bias, n, biasLen, inner, p); break;
    case Un::kTanh: biasActKernel<(int)Un::kTanh, T><<<grid, kBlock, 0, s>>>(y, bias, n, biasLen, inner, p); break;
    case Un::kClip: biasActKernel<(int)Un::kClip, T><<<grid, kBlock, 0, s>>>(y, bias, n, biasLen, inner, p); break;
    case Un::kGelu: biasActKernel<(int)Un::kGelu, T><<<grid, kBlock, 0, s>>>(y, bias, n, biasLen, inner, p); break;
    case Un::kHardSwish: biasActKernel<(int)Un::kHardSwish, T><<<grid, kBlock, 0, s>>>(y, bias, n, biasLen, inner, p); break;
    default: return cudaErrorInvalidValue;
  }
  return cudaGetLastError();
}

cudaError_t launchBiasAct(Dt t, void* y, const void* bias, int64_t n, int64_t biasLen, int64_t inner, Un act,
                          UnParams p, cudaStream_t s) {
  if (n == 0) return cudaSuccess;
  if (biasLen < 1) biasLen = 1;
  if (inner < 1) inner = 1;
  switch (t) {
    case Dt::kF32: return biasActT(static_cast<float*>(y), static_cast<const float*>(bias), n, biasLen, inner, act, p, s);
    case Dt::kF16: return biasActT(static_cast<__half*>(y), static_cast<const __half*>(bias), n, biasLen, inner, act, p, s);
    default: return cudaErrorInvalidValue;
  }
}

template <class T>
__global__ void channelAffineKernel(const T* x, const float* a, const float* b, T* y, int64_t n, int64_t C,
                                    int64_t inner) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
    const int64_t c = (i / inner) % C;
    y[i] = static_cast<T>(static_cast<float>(x[i]) * a[c] + b[c]);
  }
}

cudaError_t launchChannelAffine(Dt t, const void* x, const float* a, const float* b, void* y, int64_t n, int64_t C,
                                int64_t inner, cudaStream_t s) {
  if (n == 0) return cudaSuccess;
  if (inner < 1) inner = 1;
  switch (t) {
    case Dt::kF32:
      channelAffineKernel<<<gridFor(n), kBlock, 0, s>>>(static_cast<const float*>(x), a, b, static_cast<float*>(y), n,
                                                         C, inner);
      break;
    case Dt::kF16:
      channelAffineKernel<<<gridFor(n), kBlock, 0, s>>>(static_cast<const __half*>(x), a, b, static_cast<__half*>(y),
                                                         n, C, inner);
      break;
    default: return cudaErrorInvalidValue;
  }
  return cudaGetLastError();
}

}  // namespace oinfer::cuda
