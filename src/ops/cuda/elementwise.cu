// Broadcast binary ops (arithmetic, comparisons, logic), Where and Cast.
// One grid-stride template per shape of work; the op is a template parameter
// so each instantiation is a tight loop. Half precision computes in float.
#include <cuda_fp16.h>

#include <cstdint>

#include "ops/cuda/cuda_common.cuh"

namespace oinfer::cuda {

// ---- binary ------------------------------------------------------------------


template <int OP, class C>
__device__ __forceinline__ C binArith(C a, C b) {
  if constexpr (OP == (int)Bin::kAdd) return a + b;
  else if constexpr (OP == (int)Bin::kSub) return a - b;
  else if constexpr (OP == (int)Bin::kMul) return a * b;
  else if constexpr (OP == (int)Bin::kDiv) return a / b;
  else if constexpr (OP == (int)Bin::kPow) return static_cast<C>(pow(static_cast<double>(a), static_cast<double>(b)));
  else if constexpr (OP == (int)Bin::kMax) return (a != a || b != b) ? (a != a ? a : b) : (a < b ? b : a);
  else if constexpr (OP == (int)Bin::kMin) return (a != a || b != b) ? (a != a ? a : b) : (b < a ? b : a);
  else if constexpr (OP == (int)Bin::kFmod) {
    if constexpr (std::is_floating_point<C>::value) return fmod(a, b);
    else return b == 0 ? C(0) : a % b;
  } else if constexpr (OP == (int)Bin::kMod) {
    // Python semantics: the result takes the divisor's sign.
    if constexpr (std::is_floating_point<C>::value) {
      C r = fmod(a, b);
      return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
    } else {
      if (b == 0) return C(0);
      C r = a % b;
      return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
    }
  } else /* kPRelu */ return a < C(0) ? a * b : a;
}

template <int OP, class C>
__device__ __forceinline__ bool binCompare(C a, C b) {
  if constexpr (OP == (int)Bin::kEq) return a == b;
  else if constexpr (OP == (int)Bin::kLt) return a < b;
  else if constexpr (OP == (int)Bin::kGt) return a > b;
  else if constexpr (OP == (int)Bin::kLe) return a <= b;
  else return a >= b;
}

__device__ __forceinline__ void offsets(const BcastGeom& g, int64_t i, int64_t& oa, int64_t& ob, int64_t& oc) {
  if (g.flat) {
    oa = ob = oc = i;
    return;
  }
  oa = ob = oc = 0;
  for (int d = g.rank - 1; d >= 0; --d) {
    const int64_t c = i % g.dims[d];
    i /= g.dims[d];
    oa += c * g.st[0][d];
    ob += c * g.st[1][d];
    oc += c * g.st[2][d];
  }
}

template <int OP, class T, class Y>
__global__ void binaryKernel(const T* a, const T* b, Y* y, BcastGeom g) {
  using C = typename Calc<T>::type;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < g.n; i += (int64_t)gridDim.x * blockDim.x) {
    int64_t oa, ob, oc;
    offsets(g, i, oa, ob, oc);
    const C va = static_cast<C>(a[oa]), vb = static_cast<C>(b[ob]);
    if constexpr (OP >= (int)Bin::kAnd) {
      const bool p = a[oa] != 0, q = b[ob] != 0;
      y[i] = OP == (int)Bin::kAnd ? (p && q) : OP == (int)Bin::kOr ? (p || q) : (p != q);
    } else if constexpr (OP >= (int)Bin::kEq) {
      y[i] = binCompare<OP, C>(va, vb);
    } else {
      y[i] = static_cast<T>(binArith<OP, C>(va, vb));
    }
  }
}

template <int OP, class T>
cudaError_t binaryT(const void* a, const void* b, void* y, const BcastGeom& g, cudaStream_t s) {
  if (g.n == 0) return cudaSuccess;
  if constexpr (OP >= (int)Bin::kEq)
    binaryKernel<OP, T, bool><<<gridFor(g.n), kBlock, 0, s>>>(static_cast<const T*>(a), static_cast<const T*>(b),
                                                                static_cast<bool*>(y), g);
  else
    binaryKernel<OP, T, T><<<gridFor(g.n), kBlock, 0, s>>>(static_cast<const T*>(a), static_cast<const T*>(b),
                                                             static_cast<T*>(y), g);
  return cudaGetLastError();
}

template <int OP>
cudaError_t binaryOp(Dt t, const void* a, const void* b, void* y, const BcastGeom& g, cudaStream_t s) {
  if constexpr (OP >= (int)Bin::kAnd) {
    if (t != Dt::kBool) return cudaErrorInvalidValue;
    return binaryT<OP, bool>(a, b, y, g, s);
  } else {
    switch (t) {
      case Dt::kF32: return binaryT<OP, float>(a, b, y, g, s);
      case Dt::kF16: return binaryT<OP, __half>(a, b, y, g, s);
      case Dt::kI32: return binaryT<OP, int32_t>(a, b, y, g, s);
      case Dt::kI64: return binaryT<OP, int64_t>(a, b, y, g, s);
      default: return cudaErrorInvalidValue;
    }
  }
}

cudaError_t launchBinary(Bin op, Dt t, const void* a, const void* b, void* y, const BcastGeom& g, cudaStream_t s) {
  switch (op) {
#define OINFER_BIN(X) \
  case Bin::X: return binaryOp<(int)Bin::X>(t, a, b, y, g, s);
    OINFER_BIN(kAdd) OINFER_BIN(kSub) OINFER_BIN(kMul) OINFER_BIN(kDiv) OINFER_BIN(kPow) OINFER_BIN(kMax)
    OINFER_BIN(kMin) OINFER_BIN(kMod) OINFER_BIN(kFmod) OINFER_BIN(kPRelu) OINFER_BIN(kEq) OINFER_BIN(kLt)
    OINFER_BIN(kGt) OINFER_BIN(kLe) OINFER_BIN(kGe) OINFER_BIN(kAnd) OINFER_BIN(kOr) OINFER_BIN(kXor)
#undef OINFER_BIN
  }
  return cudaErrorInvalidValue;
}

// ---- Where ---------------------------------------------------------------------

template <class T>
__global__ void whereKernel(const bool* c, const T* x, const T* z, T* y, BcastGeom g) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < g.n; i += (int64_t)gridDim.x * blockDim.x) {
    int64_t oc, ox, oz;
    offsets(g, i, oc, ox, oz);
    y[i] = c[oc] ? x[ox] : z[oz];
  }
}

cudaError_t launchWhere(int elemSize, const void* cond, const void* x, const void* z, void* y, const BcastGeom& g,
                        cudaStream_t s) {
  if (g.n == 0) return cudaSuccess;
  const bool* c = static_cast<const bool*>(cond);
  switch (elemSize) {
#define OINFER_WHERE(N, T)                                                                                  \
  case N:                                                                                                   \
    whereKernel<T><<<gridFor(g.n), kBlock, 0, s>>>(c, static_cast<const T*>(x), static_cast<const T*>(z), \
                                                   static_cast<T*>(y), g);                                  \
    break;
    OINFER_WHERE(1, uint8_t) OINFER_WHERE(2, uint16_t) OINFER_WHERE(4, uint32_t) OINFER_WHERE(8, uint64_t)
#undef OINFER_WHERE
    default: return cudaErrorInvalidValue;
  }
  return cudaGetLastError();
}

// ---- Cast --------------------------------------------------------------------------

template <class To, class From>
__device__ __forceinline__ To castOne(From v) {
  if constexpr (std::is_same<To, bool>::value) {
    if constexpr (std::is_same<From, __half>::value) return __half2float(v) != 0.f;
    else return v != From(0);
  } else if constexpr (std::is_same<To, __half>::value) {
    if constexpr (std::is_same<From, __half>::value) return v;
    else return __float2half(static_cast<float>(v));
  } else if constexpr (std::is_same<From, __half>::value) {
    return static_cast<To>(__half2float(v));
  } else {
    return static_cast<To>(v);
  }
}

template <class To, class From>
__global__ void castKernel(const From* x, To* y, int64_t n) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
    y[i] = castOne<To, From>(x[i]);
}

template <class From>
cudaError_t castFrom(Dt to, const void* x, void* y, int64_t n, cudaStream_t s) {
  const From* px = static_cast<const From*>(x);
  switch (to) {
#define OINFER_CAST(D, T)                                                                  \
  case Dt::D: castKernel<T, From><<<gridFor(n), kBlock, 0, s>>>(px, static_cast<T*>(y), n); \
    break;
    OINFER_CAST(kF32, float) OINFER_CAST(kF16, __half) OINFER_CAST(kF64, double) OINFER_CAST(kI32, int32_t)
    OINFER_CAST(kI64, int64_t) OINFER_CAST(kI8, int8_t) OINFER_CAST(kU8, uint8_t) OINFER_CAST(kBool, bool)
#undef OINFER_CAST
    default: return cudaErrorInvalidValue;
  }
  return cudaGetLastError();
}

cudaError_t launchCast(Dt from, Dt to, const void* x, void* y, int64_t n, cudaStream_t s) {
  if (n == 0) return cudaSuccess;
  switch (from) {
    case Dt::kF32: return castFrom<float>(to, x, y, n, s);
    case Dt::kF16: return castFrom<__half>(to, x, y, n, s);
    case Dt::kF64: return castFrom<double>(to, x, y, n, s);
    case Dt::kI32: return castFrom<int32_t>(to, x, y, n, s);
    case Dt::kI64: return castFrom<int64_t>(to, x, y, n, s);
    case Dt::kI8: return castFrom<int8_t>(to, x, y, n, s);
    case Dt::kU8: return castFrom<uint8_t>(to, x, y, n, s);
    case Dt::kBool: return castFrom<bool>(to, x, y, n, s);
    default: return cudaErrorInvalidValue;
  }
}

}  // namespace oinfer::cuda
