// What the running CPU can execute, detected once at run time: the one place
// every kernel-selection function asks (nothing assumes the build host).
//
// x86-64: cpuid for the instruction sets, xgetbv for the register state the
// OS saves (AVX, AVX-512 and AMX state must all be enabled by the kernel, or
// the instructions fault), and on Linux arch_prctl(ARCH_REQ_XCOMP_PERM) for
// permission to use AMX tile data. aarch64 Linux: getauxval(AT_HWCAP /
// AT_HWCAP2).
//
// OINFER_CPU_CAP caps what is reported, for tests and comparisons: "generic"
// (no SIMD variant), "avx2", "avx512" (F/BW/DQ/VL, no VNNI / BF16 / FP16 /
// AMX), "vnni" (avx512 + VNNI), "neon" (no dot product / i8mm / fp16
// arithmetic); unset or "native": everything detected. The older
// OINFER_GEMM_ISA=avx2|generic is read as the same cap.
#pragma once

#include <string>

namespace oinfer::cpu {

struct CpuFeatures {
  // x86-64
  bool sse41 = false, avx = false, avx2 = false, fma = false, f16c = false;
  bool avx512f = false, avx512bw = false, avx512dq = false, avx512vl = false;
  bool avx512vnni = false;  // vpdpbusd on zmm
  bool avxvnni = false;     // vpdpbusd on ymm (VEX; Alder Lake and later)
  bool avx512bf16 = false;  // vdpbf16ps
  bool avx512fp16 = false;  // half-precision arithmetic (Sapphire Rapids)
  bool amxTile = false, amxInt8 = false, amxBf16 = false;  // with OS permission granted
  // aarch64
  bool neon = false;     // asimd (ARMv8-A baseline)
  bool neonDot = false;  // asimddp: sdot / udot
  bool neonI8mm = false; // smmla / usmmla
  bool neonFp16 = false; // fphp + asimdhp: half-precision arithmetic

  // AVX-512 F + BW + DQ + VL: what the project's AVX-512 kernels require.
  bool avx512() const { return avx512f && avx512bw && avx512dq && avx512vl; }
  // AVX2 + FMA (+ F16C): the 256-bit kernels.
  bool avx2Fma() const { return avx2 && fma; }
};

// The features of the running CPU, capped by OINFER_CPU_CAP; detected on the
// first call (thread-safe).
const CpuFeatures& cpuFeatures();

// Detects without the cap (for messages and tests of the cap itself).
CpuFeatures detectCpuFeatures();
// Applies a cap name (see above) to `f`; an unknown name leaves it unchanged.
CpuFeatures capCpuFeatures(CpuFeatures f, const std::string& cap);

// "avx2 fma f16c avx512f avx512bw ... avx512vnni": the flags that are set,
// for logs, --version and benchmark records.
std::string cpuFeatureString(const CpuFeatures& f);

}  // namespace oinfer::cpu
