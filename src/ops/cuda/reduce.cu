// Reductions, Softmax/LogSoftmax, LayerNormalization and pooling. Reductions
// take one thread per output when the reduced extent is small and one warp
// per output otherwise; normalizations take one warp (softmax) or one block
// (layer norm) per row. Accumulation is float for float/half, int64 for
// integers.
#include <cuda_fp16.h>

#include <cfloat>
#include <climits>
#include <cstdint>

#include "ops/cuda/cuda_common.cuh"

namespace oinfer::cuda {

template <class T> struct Acc { using type = float; };
template <> struct Acc<double> { using type = double; };
template <> struct Acc<int32_t> { using type = int64_t; };
template <> struct Acc<int64_t> { using type = int64_t; };

template <class A> __device__ __forceinline__ A lowest() {
  if constexpr (std::is_floating_point<A>::value) return -INFINITY;
  else return LLONG_MIN;
}
template <class A> __device__ __forceinline__ A highest() {
  if constexpr (std::is_floating_point<A>::value) return INFINITY;
  else return LLONG_MAX;
}

template <int OP, class A> __device__ __forceinline__ A redInit() {
  if constexpr (OP == (int)Red::kMax || OP == (int)Red::kLogSumExp) return lowest<A>();
  else if constexpr (OP == (int)Red::kMin) return highest<A>();
  else if constexpr (OP == (int)Red::kProd) return A(1);
  else return A(0);
}

template <int OP, class A> __device__ __forceinline__ A redStep(A acc, A v) {
  if constexpr (OP == (int)Red::kMax) return v > acc ? v : acc;
  else if constexpr (OP == (int)Red::kMin) return v < acc ? v : acc;
  else if constexpr (OP == (int)Red::kProd) return acc * v;
  else if constexpr (OP == (int)Red::kSumSquare || OP == (int)Red::kL2) return acc + v * v;
  else if constexpr (OP == (int)Red::kL1) {
    if constexpr (std::is_floating_point<A>::value) return acc + fabs(v);
    else return acc + (v < 0 ? -v : v);
  } else return acc + v;
}

// How partial results from two lanes combine.
template <int OP, class A> __device__ __forceinline__ A redCombine(A a, A b) {
  if constexpr (OP == (int)Red::kMax || OP == (int)Red::kLogSumExp) return b > a ? b : a;
  else if constexpr (OP == (int)Red::kMin) return b < a ? b : a;
  else if constexpr (OP == (int)Red::kProd) return a * b;
  else return a + b;
}

template <class A> __device__ __forceinline__ A shfl(A v, int o) { return __shfl_xor_sync(0xffffffffu, v, o); }

template <int OP, class A> __device__ __forceinline__ A warpReduce(A v) {
  for (int o = 16; o > 0; o >>= 1) v = redCombine<OP, A>(v, shfl(v, o));
  return v;
}

__device__ __forceinline__ int64_t redOffset(const RedGeom& g, int64_t j) {
  int64_t off = 0;
  for (int d = g.rrank - 1; d >= 0; --d) {
    off += (j % g.rdims[d]) * g.rst[d];
    j /= g.rdims[d];
  }
  return off;
}
__device__ __forceinline__ int64_t outOffset(const RedGeom& g, int64_t o) {
  int64_t off = 0;
  for (int d = g.orank - 1; d >= 0; --d) {
    off += (o % g.odims[d]) * g.ost[d];
    o /= g.odims[d];
  }
  return off;
}

template <int OP, class A> __device__ __forceinline__ A redFinish(A acc, int64_t nRed) {
  if constexpr (OP == (int)Red::kMean) return acc / static_cast<A>(nRed);
  else if constexpr (OP == (int)Red::kL2) return sqrt(acc);
  else if constexpr (OP == (int)Red::kLogSum) return log(acc);
  else return acc;
}

// lanes = 1: a thread per output; lanes = 32: a warp per output.
template <int OP, class T, int LANES>
__global__ void reduceKernel(const T* x, T* y, RedGeom g) {
  using A = typename Acc<T>::type;
  const int64_t tid = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  const int lane = LANES == 1 ? 0 : threadIdx.x % 32;
  const int64_t stride = (int64_t)gridDim.x * blockDim.x / LANES;
  for (int64_t o = tid / LANES; o < g.nOut; o += stride) {
    const int64_t base = outOffset(g, o);
    A result;
    if constexpr (OP == (int)Red::kLogSumExp) {
      A m = lowest<A>();
      for (int64_t j = lane; j < g.nRed; j += LANES) {
        const A v = static_cast<A>(x[base + redOffset(g, j)]);
        m = v > m ? v : m;
      }
      if constexpr (LANES > 1) m = warpReduce<(int)Red::kMax, A>(m);
      A s = 0;
      if (m != lowest<A>())
        for (int64_t j = lane; j < g.nRed; j += LANES) s += exp(static_cast<A>(x[base + redOffset(g, j)]) - m);
      if constexpr (LANES > 1) s = warpReduce<(int)Red::kSum, A>(s);
      result = m == lowest<A>() ? m : m + log(s);
    } else {
      A acc = redInit<OP, A>();
      for (int64_t j = lane; j < g.nRed; j += LANES) acc = redStep<OP, A>(acc, static_cast<A>(x[base + redOffset(g, j)]));
      if constexpr (LANES > 1) acc = warpReduce<OP, A>(acc);
      result = redFinish<OP, A>(acc, g.nRed);
    }
    if (lane == 0) y[o] = static_cast<T>(result);
  }
}

template <int OP, class T>
cudaError_t reduceT(const void* x, void* y, const RedGeom& g, cudaStream_t s) {
  const T* px = static_cast<const T*>(x);
  T* py = static_cast<T*>(y);
  if (g.nRed <= 16)
    reduceKernel<OP, T, 1><<<gridFor(g.nOut), kBlock, 0, s>>>(px, py, g);
  else
    reduceKernel<OP, T, 32><<<gridFor(g.nOut * 32), kBlock, 0, s>>>(px, py, g);
  return cudaGetLastError();
}

template <int OP>
cudaError_t reduceOp(Dt t, const void* x, void* y, const RedGeom& g, cudaStream_t s) {
  constexpr bool intOk = OP == (int)Red::kSum || OP == (int)Red::kMax || OP == (int)Red::kMin || OP == (int)Red::kProd;
  switch (t) {
    case Dt::kF32: return reduceT<OP, float>(x, y, g, s);
    case Dt::kF16: return reduceT<OP, __half>(x, y, g, s);
    case Dt::kI32: if constexpr (intOk) return reduceT<OP, int32_t>(x, y, g, s); else return cudaErrorInvalidValue;
    case Dt::kI64: if constexpr (intOk) return reduceT<OP, int64_t>(x, y, g, s); else return cudaErrorInvalidValue;
    default: return cudaErrorInvalidValue;
  }
}

cudaError_t launchReduce(Red op, Dt t, const void* x, void* y, const RedGeom& g, cudaStream_t s) {
  if (g.nOut == 0) return cudaSuccess;
  switch (op) {
#define OINFER_RED(X) \
  case Red::X: return reduceOp<(int)Red::X>(t, x, y, g, s);
    OINFER_RED(kSum) OINFER_RED(kMean) OINFER_RED(kMax) OINFER_RED(kMin) OINFER_RED(kProd) OINFER_RED(kSumSquare)
    OINFER_RED(kL1) OINFER_RED(kL2) OINFER_RED(kLogSum) OINFER_RED(kLogSumExp)
#undef OINFER_RED
  }
  return cudaErrorInvalidValue;
}

// ---- Softmax ------------------------------------------------------------------------

template <class T, bool LOG>
__global__ void softmaxKernel(const T* x, T* y, int64_t outer, int64_t n, int64_t inner) {
  const int64_t rows = outer * inner;
  const int lane = threadIdx.x % 32;
  const int64_t warps = (int64_t)gridDim.x * blockDim.x / 32;
  for (int64_t r = (blockIdx.x * (int64_t)blockDim.x + threadIdx.x) / 32; r < rows; r += warps) {
    const int64_t base = (r / inner) * n * inner + r % inner;
    float m = -INFINITY;
    for (int64_t j = lane; j < n; j += 32) m = fmaxf(m, static_cast<float>(x[base + j * inner]));
    m = warpMax(m);
    float sum = 0.f;
    for (int64_t j = lane; j < n; j += 32) sum += expf(static_cast<float>(x[base + j * inner]) - m);
    sum = warpSum(sum);
    if constexpr (LOG) {
      const float ls = logf(sum);
      for (int64_t j = lane; j < n; j += 32)
        y[base + j * inner] = static_cast<T>(static_cast<float>(x[base + j * inner]) - m - ls);
    } else {
      const float inv = 1.f / sum;
      for (int64_t j = lane; j < n; j += 32)
        y[base + j * inner] = static_cast<T>(expf(static_cast<float>(x[base + j * inner]) - m) * inv);
    }
  }
}

cudaError_t launchSoftmax(Dt t, bool log, const void* x, void* y, int64_t outer, int64_t n, int64_t inner,
                          cudaStream_t s) {
  const int64_t rows = outer * inner;
  if (rows == 0 || n == 0) return cudaSuccess;
  const unsigned grid = gridFor(rows * 32);
  switch (t) {
    case Dt::kF32:
      if (log) softmaxKernel<float, true><<<grid, kBlock, 0, s>>>(static_cast<const float*>(x), static_cast<float*>(y), outer, n, inner);
      else softmaxKernel<float, false><<<grid, kBlock, 0, s>>>(static_cast<const float*>(x), static_cast<float*>(y), outer, n, inner);
      break;
    case Dt::kF16:
      if (log) softmaxKernel<__half, true><<<grid, kBlock, 0, s>>>(static_cast<const __half*>(x), static_cast<__half*>(y), outer, n, inner);
      else softmaxKernel<__half, false><<<grid, kBlock, 0, s>>>(static_cast<const __half*>(x), static_cast<__half*>(y), outer, n, inner);
      break;
    default: return cudaErrorInvalidValue;
  }
  return cudaGetLastError();
}

// ---- LayerNormalization ----------------------------------------------------------------

__device__ float blockSum(float v, float* shared) {
  v = warpSum(v);
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (lane == 0) shared[warp] = v;
  __syncthreads();
  const int nw = blockDim.x / 32;
  v = lane < nw ? shared[lane] : 0.f;
  if (warp == 0) v = warpSum(v);
  if (threadIdx.x == 0) shared[0] = v;
  __syncthreads();
  v = shared[0];
  __syncthreads();
  return v;
}

template <class T>
__global__ void layerNormKernel(const T* x, const T* scale, const T* bias, T* y, float* mean, float* invStd,
                                int64_t rows, int64_t n, int64_t scaleN, int64_t biasN, float eps, bool rms) {
  __shared__ float shared[32];
  for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    const T* xr = x + r * n;
    T* yr = y + r * n;
    float mu = 0.f;
    if (!rms) {
      float s = 0.f;
      for (int64_t j = threadIdx.x; j < n; j += blockDim.x) s += static_cast<float>(xr[j]);
      mu = blockSum(s, shared) / static_cast<float>(n);
    }
    float q = 0.f;
    for (int64_t j = threadIdx.x; j < n; j += blockDim.x) {
      const float d = static_cast<float>(xr[j]) - mu;
      q += d * d;
    }
    const float var = blockSum(q, shared) / static_cast<float>(n);
    const float inv = 1.f / sqrtf(var + eps);
    for (int64_t j = threadIdx.x; j < n; j += blockDim.x) {
      float v = (static_cast<float>(xr[j]) - mu) * inv * static_cast<float>(scale[scaleN == 1 ? 0 : j]);
      if (bias) v += static_cast<float>(bias[biasN == 1 ? 0 : j]);
      yr[j] = static_cast<T>(v);
    }
    if (threadIdx.x == 0) {
      if (mean) mean[r] = mu;
      if (invStd) invStd[r] = inv;
    }
  }
}

cudaError_t launchLayerNorm(Dt t, const void* x, const void* scale, const void* bias, void* y, float* mean,
                            float* invStd, int64_t rows, int64_t n, int64_t scaleN, int64_t biasN, float eps,
                            bool rms, cudaStream_t s) {
  if (rows == 0) return cudaSuccess;
  const unsigned grid = static_cast<unsigned>(rows < 65535 ? rows : 65535);
  const int block = n >= 1024 ? 512 : (n >= 256 ? 256 : 128);
  switch (t) {
    case Dt::kF32:
      layerNormKernel<<<grid, block, 0, s>>>(static_cast<const float*>(x), static_cast<const float*>(scale),
                                             static_cast<const float*>(bias), static_cast<float*>(y), mean, invStd,
                                             rows, n, scaleN, biasN, eps, rms);
      break;
    case Dt::kF16:
      layerNormKernel<<<grid, block, 0, s>>>(static_cast<const __half*>(x), static_cast<const __half*>(scale),
                                             static_cast<const __half*>(bias), static_cast<__half*>(y), mean, invStd,
                                             rows, n, scaleN, biasN, eps, rms);
      break;
    default: return cudaErrorInvalidValue;
  }
  return cudaGetLastError();
}

// ---- pooling ------------------------------------------------------------------------------

// The taps [lo, hi) of output coordinate o along one dim that land inside the
// image, and how many land inside the padded image (count_include_pad); the
// same rule as the CPU kernel's poolGeom.
__device__ __forceinline__ void tapRange(const PoolLaunch& g, int d, int64_t o, int64_t& start, int64_t& lo,
                                         int64_t& hi, int64_t& padded) {
  start = o * g.s[d] - g.padBegin[d];
  lo = 0;
  while (lo < g.k[d] && start + lo * g.dil[d] < 0) ++lo;
  hi = lo;
  while (hi < g.k[d] && start + hi * g.dil[d] < g.img[d]) ++hi;
  padded = 0;
  for (int64_t t = 0; t < g.k[d]; ++t) {
    const int64_t c = start + t * g.dil[d];
    if (c >= -g.padBegin[d] && c < g.img[d] + g.padEnd[d]) ++padded;
  }
}

template <class T>
__global__ void poolKernel(const T* x, T* y, PoolLaunch g) {
  const int64_t outSize = g.out[0] * g.out[1] * g.out[2];
  const int64_t imgSize = g.img[0] * g.img[1] * g.img[2];
  const int64_t n = g.planes * outSize;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
    const int64_t plane = i / outSize;
    int64_t r = i % outSize;
    const int64_t ow = r % g.out[2];
    r /= g.out[2];
    const int64_t oh = r % g.out[1];
    const int64_t od = r / g.out[1];
    int64_t s0, l0, h0, p0, s1, l1, h1, p1, s2, l2, h2, p2;
    tapRange(g, 0, od, s0, l0, h0, p0);
    tapRange(g, 1, oh, s1, l1, h1, p1);
    tapRange(g, 2, ow, s2, l2, h2, p2);
    const T* xp = x + plane * imgSize;
    float acc = g.max ? -INFINITY : 0.f;
    for (int64_t a = l0; a < h0; ++a)
      for (int64_t b = l1; b < h1; ++b) {
        const T* row = xp + ((s0 + a * g.dil[0]) * g.img[1] + (s1 + b * g.dil[1])) * g.img[2];
        for (int64_t c = l2; c < h2; ++c) {
          const float v = static_cast<float>(row[s2 + c * g.dil[2]]);
          acc = g.max ? fmaxf(acc, v) : acc + v;
        }
      }
    if (!g.max) {
      const int64_t cnt = g.countPad ? p0 * p1 * p2 : (h0 - l0) * (h1 - l1) * (h2 - l2);
      acc = cnt > 0 ? acc / static_cast<float>(cnt) : 0.f;
    }
    y[i] = static_cast<T>(acc);
  }
}

cudaError_t launchPool(Dt t, const void* x, void* y, const PoolLaunch& g, cudaStream_t s) {
  const int64_t n = g.planes * g.out[0] * g.out[1] * g.out[2];
  if (n == 0) return cudaSuccess;
  switch (t) {
    case Dt::kF32: poolKernel<<<gridFor(n), kBlock, 0, s>>>(static_cast<const float*>(x), static_cast<float*>(y), g); break;
    case Dt::kF16: poolKernel<<<gridFor(n), kBlock, 0, s>>>(static_cast<const __half*>(x), static_cast<__half*>(y), g); break;
    default: return cudaErrorInvalidValue;
  }
  return cudaGetLastError();
}

}  // namespace oinfer::cuda
