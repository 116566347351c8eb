// Internals shared by the GEMM driver, its micro-kernels and the Conv
// kernels that drive the micro-kernels or the driver over operands they lay
// out themselves (im2col into packed panels, Winograd's packed A, shifted
// B rows).
#pragma once

#include <cstdint>
#include <string>

#include "ops/cpu/gemm/sgemm.h"

namespace oinfer::gemm {

// What one micro-kernel call writes into its tile of C:
//   C = alpha * acc + (loadC ? beta * C : 0) [+ rowBias[r]] [+ colBias[c]] [+ res] then clamp to [lo, hi]
// (the bias / residual / clamp members are null/false except on the last K block).
struct TileArgs {
  float alpha = 1.f, beta = 0.f;
  bool loadC = false;
  const float* rowBias = nullptr;
  const float* colBias = nullptr;
  const float* res = nullptr;
  int64_t ldr = 0;
  bool clamp = false;
  float lo = 0.f, hi = 0.f;
  // An activation other than the clamp, applied in registers after it; only
  // micro-kernels whose Isa::fusesActivations is set read it (not Gelu).
  GemmActivation act = GemmActivation::kNone;
  float p0 = 0.f, p1 = 0.f;
  // Operand panels the next calls will read, prefetched into L2 while this
  // tile computes (null: none): pfA kc x MR floats, pfB kc x NR floats (for
  // the shifted kernel, NR floats at pfB + shifts[k] for each k).
  const float* pfA = nullptr;
  const float* pfB = nullptr;
};

// a: kc x MR (k-major), b: kc x NR (k-major), both zero-padded; writes rows x
// cols of C.
using MicroKernel = void (*)(int64_t kc, const float* a, const float* b, float* c, int64_t ldc, int rows, int cols,
                             const TileArgs& t);

// The same tile with B row k read at b + shifts[k] (nr floats, unpacked):
// the shifted-input convolution reads its B straight from a zero-padded
// input image, row k being the image shifted by kernel tap k.
using ShiftedKernel = void (*)(int64_t kc, const float* a, const float* b, const int64_t* shifts, float* c,
                               int64_t ldc, int rows, int cols, const TileArgs& t);

struct Isa {
  const char* name;
  int mr, nr;
  MicroKernel kernel;
  ShiftedKernel shifted;
  bool fusesActivations;  // applies TileArgs::act itself
};

// Whether `isa`'s micro-kernels apply activation `a` in registers (TileArgs::act).
inline bool fusedActivation(const Isa& isa, GemmActivation a) {
  return isa.fusesActivations && a != GemmActivation::kNone && a != GemmActivation::kRelu &&
         a != GemmActivation::kClip && a != GemmActivation::kGelu;
}

const Isa& isa();  // chosen once from the running CPU

// Whether that choice is the AVX-512 micro-kernel: the ISA the Conv kernels
// with their own AVX-512 tiles (channel-vector, pixel-vector, Winograd's
// blocked path, the blocked layout's kernels) are chosen on, so that
// OINFER_GEMM_ISA=avx2 / generic turns them off too.
inline bool avx512Kernels() {
  static const bool v = std::string(isa().name) == "avx512";
  return v;
}

Isa isaAvx512();
Isa isaAvx2();
Isa isaGeneric();
bool cpuHasAvx512();
bool cpuHasAvx2();

inline constexpr int kKc = 256;   // K block: an NR-wide B micro-panel of kc rows stays in L1
inline constexpr int kMc = 240;   // M block: MC x KC of packed A stays in L2
inline constexpr int kNc = 1536;  // N block

// C = alpha * A * B + beta * C with the epilogue, both operands packed (B
// may be a view on caller-owned memory in the packB layout: see packedBView).
void gemmPackedAB(const PackedA& A, const PackedB& B, float alpha, float beta, float* C, int64_t ldc,
                  const GemmEpilogue& ep, ThreadPool* pool);

// A PackedB over `data` (not owned; no allocation) holding a K x N operand in
// the layout packB produces for this ISA: for each K block k0 (kKc rows),
// roundUp(N, nr) / nr panels of kl x nr starting at data + k0 * roundUp(N, nr).
PackedB packedBView(int64_t K, int64_t N, float* data);
// The same for an M x K left operand in the packA layout: for each K block
// k0, roundUp(M, mr) / mr panels of kl x mr starting at data + k0 * roundUp(M, mr).
PackedA packedAView(int64_t M, int64_t K, float* data);

// Nonlinear activations the micro-kernel cannot apply (all but Relu/Clip) on
// a rows x cols block.
void activateBlock(const GemmEpilogue& ep, float* c, int64_t ldc, int64_t rows, int64_t cols);
// AVX-512 activations (callers check cpuHasAvx512); false when the
// activation has no vector form.
bool activateRows512(const GemmEpilogue& ep, float* c, int64_t ldc, int64_t rows, int64_t cols);
// True when the micro-kernel's clamp covers the activation.
bool clampActivation(const GemmEpilogue& ep, float& lo, float& hi);

}  // namespace oinfer::gemm
