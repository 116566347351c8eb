// Integer GEMM for the quantized ops (QLinearMatMul, MatMulInteger,
// QLinearConv, ConvInteger):
//
//   C[m, n] = sum_k (A[m, k] - za) * (B[k, n] - zb[n])      (int32)
//
// with A uint8 or int8 (activations, row-major, streamed), B int8 or uint8
// (weights, packed once by packQB), za a scalar, zb per tensor or per
// column, and one epilogue applied per output tile: the int32 result
// (+ int32 bias), or float(acc + bias) * scale[n] requantized to uint8 /
// int8 (clamp to the type's range around the zero point, round half to
// even, add the zero point), or float(acc) * scale[n] as float32.
//
// Method: every operand is moved into the u8 x s8 domain first (an int8 A
// gets +128 and za +128; a uint8 B gets -128 and zb -128), which leaves
// every product (a - za)(b - zb) unchanged. The kernels then compute the
// raw dot products sum a*b, and the epilogue adds the zero-point terms
//   - zb[n] * rowsum(A)[m] - za * colsum(B)[n] + K * za * zb[n]
// (colsum precomputed at pack time, rowsum per call only when some zb is
// not 0), all in wrapping int32 arithmetic, so each ISA's result equals
// the portable one bit for bit.
//
// Variants (one choice, chooseQGemm; "qgemm <isa>" in Kernel::algorithm):
//   portable     plain C++ over a row-major K x N int8 copy of B.
//   avx2         A widened to int16 pairs, B packed as int16 pairs of 16
//                columns, vpmaddwd: exact (vpmaddubsw's int16 saturation
//                of u8*s8 pair sums is avoided altogether). 6 x 16 tile.
//   avx512vnni   vpdpbusd on groups of 4 k, A broadcast as 4 bytes from its
//                rows, B packed in 4-k groups of 32 columns. 8 x 32 tile.
// Work is split over the pool in blocks of rows x column panels; the whole
// K is one block (no K blocking: a B panel of K x 32 bytes stays in L2 for
// the model sizes this serves).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "oinfer/thread_pool.h"
#include "ops/cpu/kernel_isa.h"

namespace oinfer::cpu::qgemm {

// The ISA chosen for the CPU's features (capped by OINFER_CPU_CAP).
KernelIsa chooseQGemm(const CpuFeatures& f = cpuFeatures());
inline std::string algorithmName(KernelIsa isa) { return std::string("qgemm ") + isaName(isa); }

// B packed for one ISA's kernel, with its zero points and column sums.
struct PackedQB {
  KernelIsa isa = KernelIsa::kPortable;
  int64_t K = 0, N = 0;
  int64_t Kp = 0;   // K rounded up to the kernel's k group (1, 2 or 4)
  int nr = 0;       // panel width (columns)
  std::shared_ptr<int8_t[]> data;  // portable: Kp x N s8; avx2: int16 pairs; vnni: 4-k groups
  std::vector<int32_t> colSum;    // sum_k B'[k, n] (B' in the s8 domain)
  std::vector<int32_t> zb;        // per column, in the s8 domain
  bool zbZero = true;             // every zb is 0: no row sums needed
  bool empty() const { return !data; }
};

// Packs B (K x N with row stride ldb; or N x K when transB, as a Conv's
// weights [M][C*kh*kw]) of int8 (bSigned) or uint8 for `isa`. zb: nullptr
// (0), one value or N values, as the type's own values (an int8 or uint8
// zero point widened).
PackedQB packQB(KernelIsa isa, const void* B, bool bSigned, bool transB, int64_t K, int64_t N, int64_t ldb,
                const int32_t* zb, int64_t zbCount);

enum class QOut { kInt32, kUInt8, kInt8, kFloat };

struct QEpilogue {
  QOut kind = QOut::kInt32;
  void* out = nullptr;   // row-major M x N with row stride ldc (elements)
  int64_t ldc = 0;
  const int32_t* bias = nullptr;  // N values added to the int32 sums (or null)
  const float* scale = nullptr;   // N values (kUInt8, kInt8, kFloat)
  int32_t zp = 0;                 // output zero point (kUInt8, kInt8)
};

// Run-time buffers of a caller that calls repeatedly (a kernel's member):
// kept so a warm call allocates nothing.
struct QGemmScratch {
  std::vector<uint8_t> a;     // A in the kernel's form
  std::vector<int32_t> rows;  // per row: -zb-independent row sums
  std::vector<int32_t> cols;  // per column: bias + K*za*zb - za*colsum
};

// C = (A - za) * (B - zb), then `ep`. A: M x K, row stride lda, int8 when
// aSigned else uint8. pool may be null.
void gemm(int64_t M, const void* A, bool aSigned, int64_t lda, int32_t za, const PackedQB& B, const QEpilogue& ep,
           ThreadPool* pool, QGemmScratch* scratch = nullptr);

// The requantization of one value, as every kernel's epilogue does it.
inline uint8_t requantU8(int32_t acc, float scale, int32_t zp);
inline int8_t requantS8(int32_t acc, float scale, int32_t zp);

// float(acc) * scale clamped to [lo - zp, hi - zp], rounded half to even,
// plus zp (NaN gives lo).
template <int kLo, int kHi>
inline int32_t requantize(int32_t acc, float scale, int32_t zp) {
  float v = static_cast<float>(acc) * scale;
  const float lo = static_cast<float>(kLo - zp), hi = static_cast<float>(kHi - zp);
  v = v > lo ? v : lo;
  v = v < hi ? v : hi;
  return static_cast<int32_t>(__builtin_nearbyintf(v)) + zp;
}
inline uint8_t requantU8(int32_t acc, float scale, int32_t zp) {
  return static_cast<uint8_t>(requantize<0, 255>(acc, scale, zp));
}
inline int8_t requantS8(int32_t acc, float scale, int32_t zp) {
  return static_cast<int8_t>(requantize<-128, 127>(acc, scale, zp));
}

}  // namespace oinfer::cpu::qgemm
