// Data movement kernels: strided copy (Transpose, Slice, Concat, Split,
// Expand), Pad, Gather and table-driven Resize. Movement is type-agnostic:
// instantiated per element size, copying bits.
#include <cuda_fp16.h>

#include <cstdint>

#include "ops/cuda/cuda_common.cuh"

namespace oinfer::cuda {

template <int N> struct Bits;
template <> struct Bits<1> { using type = uint8_t; };
template <> struct Bits<2> { using type = uint16_t; };
template <> struct Bits<4> { using type = uint32_t; };
template <> struct Bits<8> { using type = uint64_t; };

// ---- strided copy -------------------------------------------------------------

template <class T>
__global__ void stridedCopyKernel(const T* src, T* dst, CopyGeom g) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < g.n; i += (int64_t)gridDim.x * blockDim.x) {
    int64_t r = i, so = g.srcOff, dO = g.dstOff;
    for (int d = g.rank - 1; d >= 0; --d) {
      const int64_t c = r % g.dims[d];
      r /= g.dims[d];
      so += c * g.ss[d];
      dO += c * g.ds[d];
    }
    dst[dO] = src[so];
  }
}

cudaError_t launchStridedCopy(int elemSize, const void* src, void* dst, const CopyGeom& g, cudaStream_t s) {
  if (g.n == 0) return cudaSuccess;
  switch (elemSize) {
#define OINFER_COPY(N)                                                                         \
  case N: {                                                                                    \
    using T = Bits<N>::type;                                                                   \
    stridedCopyKernel<T><<<gridFor(g.n), kBlock, 0, s>>>(static_cast<const T*>(src), static_cast<T*>(dst), g); \
    break;                                                                                     \
  }
    OINFER_COPY(1) OINFER_COPY(2) OINFER_COPY(4) OINFER_COPY(8)
#undef OINFER_COPY
    default: return cudaErrorInvalidValue;
  }
  return cudaGetLastError();
}

// ---- Pad --------------------------------------------------------------------------

__device__ __forceinline__ int64_t padSource(int64_t c, int64_t n, int mode) {
  if (c >= 0 && c < n) return c;
  switch (mode) {
    case 1:  // reflect (mirror without repeating the edge)
      if (n == 1) return 0;
      while (c < 0 || c >= n) c = c < 0 ? -c : 2 * (n - 1) - c;
      return c;
    case 2: return c < 0 ? 0 : n - 1;  // edge
    case 3: return ((c % n) + n) % n;  // wrap
    default: return -1;                // constant
  }
}

template <class T>
__global__ void padKernel(const T* x, T* y, PadGeom g) {
  const T value = static_cast<T>(g.value);
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < g.n; i += (int64_t)gridDim.x * blockDim.x) {
    int64_t r = i, off = 0, stride = 1;
    bool inside = true;
    for (int d = g.rank - 1; d >= 0; --d) {
      const int64_t c = r % g.odims[d];
      r /= g.odims[d];
      const int64_t src = g.idims[d] == 0 ? -1 : padSource(c - g.padBegin[d], g.idims[d], g.mode);
      if (src < 0) inside = false;
      off += src * stride;
      stride *= g.idims[d];
    }
    y[i] = inside ? x[off] : value;
  }
}

cudaError_t launchPad(int elemSize, const void* x, void* y, const PadGeom& g, cudaStream_t s) {
  if (g.n == 0) return cudaSuccess;
  switch (elemSize) {
#define OINFER_PAD(N)                                                                                         \
  case N: {                                                                                                   \
    using T = Bits<N>::type;                                                                                  \
    padKernel<T><<<gridFor(g.n), kBlock, 0, s>>>(static_cast<const T*>(x), static_cast<T*>(y), g);           \
    break;                                                                                                    \
  }
    OINFER_PAD(1) OINFER_PAD(2) OINFER_PAD(4) OINFER_PAD(8)
#undef OINFER_PAD
    default: return cudaErrorInvalidValue;
  }
  return cudaGetLastError();
}

// ---- Gather ------------------------------------------------------------------------

template <class T, class I>
__global__ void gatherKernel(const T* x, const I* idx, T* y, int64_t n, int64_t axisDim, int64_t nIdx,
                             int64_t inner) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
    const int64_t in = i % inner;
    const int64_t j = (i / inner) % nIdx;
    const int64_t o = i / (inner * nIdx);
    int64_t k = static_cast<int64_t>(idx[j]);
    if (k < 0) k += axisDim;
    y[i] = (k >= 0 && k < axisDim) ? x[(o * axisDim + k) * inner + in] : T(0);
  }
}

template <class T>
cudaError_t gatherT(const void* x, const void* idx, bool idx64, void* y, int64_t n, int64_t axisDim, int64_t nIdx,
                    int64_t inner, cudaStream_t s) {
  if (idx64)
    gatherKernel<T, int64_t><<<gridFor(n), kBlock, 0, s>>>(static_cast<const T*>(x), static_cast<const int64_t*>(idx),
                                                            static_cast<T*>(y), n, axisDim, nIdx, inner);
  else
    gatherKernel<T, int32_t><<<gridFor(n), kBlock, 0, s>>>(static_cast<const T*>(x), static_cast<const int32_t*>(idx),
                                                            static_cast<T*>(y), n, axisDim, nIdx, inner);
  return cudaGetLastError();
}

cudaError_t launchGather(int elemSize, const void* x, const void* idx, bool idx64, void* y, int64_t outer,
                         int64_t axisDim, int64_t nIdx, int64_t inner, cudaStream_t s) {
  const int64_t n = outer * nIdx * inner;
  if (n == 0) return cudaSuccess;
  switch (elemSize) {
    case 1: return gatherT<uint8_t>(x, idx, idx64, y, n, axisDim, nIdx, inner, s);
    case 2: return gatherT<uint16_t>(x, idx, idx64, y, n, axisDim, nIdx, inner, s);
    case 4: return gatherT<uint32_t>(x, idx, idx64, y, n, axisDim, nIdx, inner, s);
    case 8: return gatherT<uint64_t>(x, idx, idx64, y, n, axisDim, nIdx, inner, s);
    default: return cudaErrorInvalidValue;
  }
}

// ---- Resize --------------------------------------------------------------------------

template <class T>
__global__ void resizeKernel(const T* x, T* y, const int64_t* idx, const float* w, ResizeGeom g) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < g.n; i += (int64_t)gridDim.x * blockDim.x) {
    // Per axis: the table row of this output coordinate.
    int64_t row[kMaxRank];
    int64_t r = i;
    for (int d = g.rank - 1; d >= 0; --d) {
      const int64_t c = r % g.odims[d];
      r /= g.odims[d];
      row[d] = g.tab[d] + c * g.taps[d];
    }
    // Every combination of taps over the axes (2^k corners for k linear axes).
    int total = 1;
    for (int d = 0; d < g.rank; ++d) total *= g.taps[d];
    float acc = 0.f;
    for (int corner = 0; corner < total; ++corner) {
      int rem = corner;
      int64_t off = 0;
      float wt = 1.f;
      for (int d = g.rank - 1; d >= 0; --d) {
        const int k = rem % g.taps[d];
        rem /= g.taps[d];
        off += idx[row[d] + k];  // the table holds index * input stride
        wt *= w[row[d] + k];
      }
      if (wt != 0.f) acc += wt * static_cast<float>(x[off]);
    }
    y[i] = static_cast<T>(acc);
  }
}

cudaError_t launchResize(Dt t, const void* x, void* y, const int64_t* idx, const float* w, const ResizeGeom& g,
                         cudaStream_t s) {
  if (g.n == 0) return cudaSuccess;
  switch (t) {
    case Dt::kF32:
      resizeKernel<<<gridFor(g.n), kBlock, 0, s>>>(static_cast<const float*>(x), static_cast<float*>(y), idx, w, g);
      break;
    case Dt::kF16:
      resizeKernel<<<gridFor(g.n), kBlock, 0, s>>>(static_cast<const __half*>(x), static_cast<__half*>(y), idx, w, g);
      break;
    default: return cudaErrorInvalidValue;
  }
  return cudaGetLastError();
}

}  // namespace oinfer::cuda
