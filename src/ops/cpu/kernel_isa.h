// The instruction set a chosen CPU kernel runs on, as every op family's
// selection function reports it (Kernel::algorithm: "<algorithm> <isa>").
// Later variants (NEON, int8 VNNI / AMX, bf16) add their names here.
#pragma once

#include "ops/cpu/cpu_features.h"

namespace oinfer::cpu {

enum class KernelIsa {
  kPortable,  // plain C++ (compiler-vectorised) or Eigen
  kAvx2,      // AVX2 + FMA, 256-bit
  kAvx512,    // AVX-512 F/BW/DQ/VL, 512-bit
  kAvx512Vnni,  // kAvx512 + AVX512-VNNI (vpdpbusd): the int8 kernels
};

inline const char* isaName(KernelIsa isa) {
  switch (isa) {
    case KernelIsa::kAvx2: return "avx2";
    case KernelIsa::kAvx512: return "avx512";
    case KernelIsa::kAvx512Vnni: return "avx512vnni";
    case KernelIsa::kPortable: break;
  }
  return "portable";
}

// The ISA of the project's hand-vectorised x86 kernels (GEMM micro-kernel,
// conv tiles, pools) on a CPU with features f: the widest it has.
inline KernelIsa vectorIsa(const CpuFeatures& f) {
  if (f.avx512()) return KernelIsa::kAvx512;
  if (f.avx2Fma()) return KernelIsa::kAvx2;
  return KernelIsa::kPortable;
}

}  // namespace oinfer::cpu
