// The one place the GEMM family (MatMul, Gemm, FusedMatMul, and the
// per-head products of FusedAttention) chooses its algorithm and ISA, for
// Kernel::algorithm ("gemm-packed-b avx512").
//
// float32 runs on the packed sgemm (gemm/sgemm.h): a constant 2-d B (a
// weight) is packed once per plan and shared (kPackedB); any other B is
// packed per call, a block at a time (kPacking). The micro-kernel is the
// widest the CPU has (AVX-512 12x32, AVX2 6x16, portable 4x8: gemm::isa,
// capped by OINFER_CPU_CAP). Other types run the reference loops. No
// measured thresholds yet (tools/bench/TUNING.md, ## GEMM).
#pragma once

#include <string>

#include "ops/cpu/kernel_isa.h"

namespace oinfer::cpu {

enum class GemmAlgorithm {
  kPackedB,    // float32, B packed once per plan
  kPacking,    // float32, B packed per call
  kReference,  // other types: plain row loops / Eigen
};

struct GemmChoice {
  GemmAlgorithm algo = GemmAlgorithm::kReference;
  KernelIsa isa = KernelIsa::kPortable;
  std::string name() const {
    const char* a = algo == GemmAlgorithm::kPackedB ? "gemm-packed-b" : algo == GemmAlgorithm::kPacking ? "gemm"
                                                                                                        : "reference";
    return std::string(a) + " " + isaName(isa);
  }
};

// float32: the sgemm on the CPU's micro-kernel, packed B where constB (a
// constant 2-d B the kernel packed at plan time); else the reference loops.
inline GemmChoice chooseGemm(bool float32, bool constB, const CpuFeatures& f = cpuFeatures()) {
  if (!float32) return {GemmAlgorithm::kReference, KernelIsa::kPortable};
  return {constB ? GemmAlgorithm::kPackedB : GemmAlgorithm::kPacking, vectorIsa(f)};
}

}  // namespace oinfer::cpu
