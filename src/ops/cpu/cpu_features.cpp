#include "ops/cpu/cpu_features.h"

#include <cstdlib>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#if defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>
#endif
#elif defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#endif

namespace oinfer::cpu {

namespace {

#if defined(__x86_64__) || defined(__i386__)
bool bit(unsigned v, int b) { return (v >> b) & 1u; }

unsigned long long xgetbv0() {
  unsigned lo = 0, hi = 0;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return (static_cast<unsigned long long>(hi) << 32) | lo;
}

// Asks Linux for permission to use AMX tile data (needed since 5.16 before
// the first tile instruction; refused on older kernels, which then fault).
bool requestAmxPermission() {
#if defined(__linux__) && defined(SYS_arch_prctl)
  constexpr int kArchReqXcompPerm = 0x1023;
  constexpr int kXfeatureXtiledata = 18;
  return syscall(SYS_arch_prctl, kArchReqXcompPerm, kXfeatureXtiledata) == 0;
#else
  return false;
#endif
}
#endif

}  // namespace

CpuFeatures detectCpuFeatures() {
  CpuFeatures f;
#if defined(__x86_64__) || defined(__i386__)
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid(0, &a, &b, &c, &d)) return f;
  const unsigned maxLeaf = a;
  __cpuid(1, a, b, c, d);
  f.sse41 = bit(c, 19);
  const bool osxsave = bit(c, 27);
  const unsigned long long xcr0 = osxsave ? xgetbv0() : 0;
  const bool avxState = (xcr0 & 0x6) == 0x6;            // SSE + AVX registers
  const bool zmmState = avxState && (xcr0 & 0xE0) == 0xE0;  // opmask, ZMM0-15 upper, ZMM16-31
  const bool tileState = (xcr0 & 0x60000) == 0x60000;    // XTILECFG + XTILEDATA
  f.avx = bit(c, 28) && avxState;
  f.fma = bit(c, 12) && avxState;
  f.f16c = bit(c, 29) && avxState;
  if (maxLeaf >= 7) {
    __cpuid_count(7, 0, a, b, c, d);
    f.avx2 = bit(b, 5) && avxState;
    f.avx512f = bit(b, 16) && zmmState;
    f.avx512dq = bit(b, 17) && zmmState;
    f.avx512bw = bit(b, 30) && zmmState;
    f.avx512vl = bit(b, 31) && zmmState;
    f.avx512vnni = bit(c, 11) && zmmState;
    f.avx512fp16 = bit(d, 23) && zmmState;
    const bool amxTile = bit(d, 24) && tileState;
    const bool amxBf16 = bit(d, 22);
    const bool amxInt8 = bit(d, 25);
    const unsigned subleaves = a;
    if (subleaves >= 1) {
      __cpuid_count(7, 1, a, b, c, d);
      f.avxvnni = bit(a, 4) && avxState;
      f.avx512bf16 = bit(a, 5) && zmmState;
    }
    if (amxTile && requestAmxPermission()) {
      f.amxTile = true;
      f.amxInt8 = amxInt8;
      f.amxBf16 = amxBf16;
    }
  }
#elif defined(__aarch64__)
  f.neon = true;  // ARMv8-A: Advanced SIMD is mandatory
#if defined(__linux__)
  const unsigned long hw = getauxval(AT_HWCAP);
  const unsigned long hw2 = getauxval(AT_HWCAP2);
  f.neonDot = (hw >> 20) & 1ul;                          // HWCAP_ASIMDDP
  f.neonFp16 = ((hw >> 9) & 1ul) && ((hw >> 10) & 1ul);  // HWCAP_FPHP, HWCAP_ASIMDHP
  f.neonI8mm = (hw2 >> 13) & 1ul;                        // HWCAP2_I8MM
#endif
#endif
  return f;
}

CpuFeatures capCpuFeatures(CpuFeatures f, const std::string& cap) {
  if (cap.empty() || cap == "native") return f;
  const bool generic = cap == "generic";
  const bool avx2 = cap == "avx2";
  const bool avx512 = cap == "avx512";
  const bool vnni = cap == "vnni";
  const bool neon = cap == "neon";
  if (!generic && !avx2 && !avx512 && !vnni && !neon) return f;
  if (generic) {
    CpuFeatures none;
    none.sse41 = f.sse41;  // baseline x86-64-v2; no kernel is chosen on it alone
    return none;
  }
  if (neon) {
    f.neonDot = f.neonI8mm = f.neonFp16 = false;
    return f;
  }
  // Every x86 cap keeps AVX2 and below, and drops the extensions past its level.
  f.avxvnni = f.avx512bf16 = f.avx512fp16 = false;
  f.amxTile = f.amxInt8 = f.amxBf16 = false;
  if (avx2) f.avx512f = f.avx512bw = f.avx512dq = f.avx512vl = f.avx512vnni = false;
  if (avx512) f.avx512vnni = false;
  return f;
}

const CpuFeatures& cpuFeatures() {
  static const CpuFeatures f = [] {
    const char* cap = std::getenv("OINFER_CPU_CAP");
    if (!cap || !*cap) cap = std::getenv("OINFER_GEMM_ISA");  // the older name of the same cap
    return capCpuFeatures(detectCpuFeatures(), cap ? cap : "");
  }();
  return f;
}

std::string cpuFeatureString(const CpuFeatures& f) {
  std::string s;
  auto add = [&](bool on, const char* name) {
    if (!on) return;
    if (!s.empty()) s += ' ';
    s += name;
  };
  add(f.sse41, "sse4.1");
  add(f.avx, "avx");
  add(f.avx2, "avx2");
  add(f.fma, "fma");
  add(f.f16c, "f16c");
  add(f.avx512f, "avx512f");
  add(f.avx512bw, "avx512bw");
  add(f.avx512dq, "avx512dq");
  add(f.avx512vl, "avx512vl");
  add(f.avx512vnni, "avx512vnni");
  add(f.avxvnni, "avxvnni");
  add(f.avx512bf16, "avx512bf16");
  add(f.avx512fp16, "avx512fp16");
  add(f.amxTile, "amx-tile");
  add(f.amxInt8, "amx-int8");
  add(f.amxBf16, "amx-bf16");
  add(f.neon, "neon");
  add(f.neonDot, "dotprod");
  add(f.neonI8mm, "i8mm");
  add(f.neonFp16, "fp16");
  return s.empty() ? "none" : s;
}

}  // namespace oinfer::cpu
