// The qgemm driver: packing, operand preparation, the split over the pool,
// and the portable variant (the reference the others are tested against).
#include "ops/cpu/qgemm/qgemm.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <vector>

#include "ops/cpu/qgemm/qgemm_internal.h"

namespace oinfer::cpu::qgemm {

KernelIsa chooseQGemm(const CpuFeatures& f) {
#if defined(__x86_64__)
  if (f.avx512() && f.avx512vnni) return KernelIsa::kAvx512Vnni;
  if (f.avx2Fma()) return KernelIsa::kAvx2;
#endif
  (void)f;
  return KernelIsa::kPortable;
}

namespace {

int64_t roundUp(int64_t v, int64_t m) { return (v + m - 1) / m * m; }

// The int16 (portable) or int8 lane of every ISA's packed form.
template <class T>
std::shared_ptr<int8_t[]> zeroed(size_t count) {
  std::shared_ptr<int8_t[]> p(new int8_t[count * sizeof(T)]);
  std::memset(p.get(), 0, count * sizeof(T));
  return p;
}

}  // namespace

PackedQB packQB(KernelIsa isa, const void* B, bool bSigned, bool transB, int64_t K, int64_t N, int64_t ldb,
                const int32_t* zb, int64_t zbCount) {
  PackedQB p;
  p.isa = isa;
  p.K = K;
  p.N = N;
  const int shift = bSigned ? 0 : 128;  // u8 -> s8 domain
  auto at = [&](int64_t k, int64_t n) -> int32_t {
    const int64_t i = transB ? n * ldb + k : k * ldb + n;
    return bSigned ? static_cast<int32_t>(static_cast<const int8_t*>(B)[i])
                   : static_cast<int32_t>(static_cast<const uint8_t*>(B)[i]) - shift;
  };
  p.zb.assign(static_cast<size_t>(N), 0);
  for (int64_t n = 0; n < N; ++n) {
    // An absent zero point is 0 in B's own type.
    p.zb[n] = (zb ? zb[zbCount == 1 ? 0 : n] : 0) - shift;
    if (p.zb[n] != 0) p.zbZero = false;
  }
  p.colSum.assign(static_cast<size_t>(N), 0);
  for (int64_t k = 0; k < K; ++k)
    for (int64_t n = 0; n < N; ++n) p.colSum[n] += at(k, n);

#if !defined(__x86_64__)
  isa = KernelIsa::kPortable;
#endif
  switch (isa) {
    case KernelIsa::kAvx2: {
      p.nr = kAvx2Nr;
      p.Kp = roundUp(K, 2);
      const int64_t panels = roundUp(N, p.nr) / p.nr, pairs = p.Kp / 2;
      p.data = zeroed<int16_t>(static_cast<size_t>(panels * pairs * p.nr * 2));
      auto* d = reinterpret_cast<int16_t*>(p.data.get());
      for (int64_t n = 0; n < N; ++n)
        for (int64_t k = 0; k < K; ++k)
          d[((n / p.nr * pairs + k / 2) * p.nr + n % p.nr) * 2 + k % 2] = static_cast<int16_t>(at(k, n));
      break;
    }
    case KernelIsa::kAvx512Vnni: {
      p.nr = kVnniNr;
      p.Kp = roundUp(K, 4);
      const int64_t panels = roundUp(N, p.nr) / p.nr, groups = p.Kp / 4;
      p.data = zeroed<int8_t>(static_cast<size_t>(panels * groups * p.nr * 4));
      int8_t* d = p.data.get();
      for (int64_t n = 0; n < N; ++n)
        for (int64_t k = 0; k < K; ++k)
          d[((n / p.nr * groups + k / 4) * p.nr + n % p.nr) * 4 + k % 4] = static_cast<int8_t>(at(k, n));
      break;
    }
    default: {
      // Portable: B - zb as int16, K x N row-major, rows padded to 16 columns.
      p.isa = KernelIsa::kPortable;
      p.nr = 16;
      p.Kp = K;
      const int64_t Np = roundUp(N, 16);
      p.data = zeroed<int16_t>(static_cast<size_t>(K * Np));
      auto* d = reinterpret_cast<int16_t*>(p.data.get());
      for (int64_t k = 0; k < K; ++k)
        for (int64_t n = 0; n < N; ++n) d[k * Np + n] = static_cast<int16_t>(at(k, n) - p.zb[n]);
      break;
    }
  }
  return p;
}

namespace {

// The portable variant: the definition, sum (a - za)(b - zb) + bias, 16
// columns of a row of C at a time (B's rows are padded to a multiple of 16,
// so the compiler keeps the 16 sums in one or two vector registers). Each
// product is within +-255 * 255, so int32 sums of up to kKChunk of them
// cannot overflow; the chunks add up in wrapping uint32 as the other
// variants' sums do.
constexpr int64_t kKChunk = 32768;

void blockPortable(const uint8_t* A, bool aSigned, int64_t lda, int32_t za, const PackedQB& B, const QEpilogue& ep,
                   int64_t m0, int64_t m1, int64_t n0, int64_t n1) {
  const auto* d = reinterpret_cast<const int16_t*>(B.data.get());
  const int64_t K = B.K, Np = (B.N + 15) / 16 * 16;
  std::vector<int32_t> av(static_cast<size_t>(K));
  for (int64_t m = m0; m < m1; ++m) {
    const uint8_t* arow = A + m * lda;
    for (int64_t k = 0; k < K; ++k)
      av[k] = (aSigned ? static_cast<int32_t>(static_cast<int8_t>(arow[k])) + 128 : arow[k]) - za;
    for (int64_t j = n0; j < n1; j += 16) {
      uint32_t acc[16];
      for (int c = 0; c < 16; ++c) acc[c] = 0;
      for (int64_t k0 = 0; k0 < K; k0 += kKChunk) {
        int32_t part[16] = {};
        const int64_t k1 = std::min(K, k0 + kKChunk);
        for (int64_t k = k0; k < k1; ++k) {
          const int32_t a = av[k];
          const int16_t* row = d + k * Np + j;
          for (int c = 0; c < 16; ++c) part[c] += a * row[c];
        }
        for (int c = 0; c < 16; ++c) acc[c] += static_cast<uint32_t>(part[c]);
      }
      const int64_t cw = std::min<int64_t>(16, n1 - j);
      for (int64_t c = 0; c < cw; ++c) {
        const int64_t n = j + c;
        const uint32_t v = acc[c] + (ep.bias ? static_cast<uint32_t>(ep.bias[n]) : 0u);
        storeOne(ep, m, n, static_cast<int32_t>(v));
      }
    }
  }
}

// Splits rows x panels into tasks: row blocks of up to kRowBlock rows (a
// multiple of the tile height) and enough panel groups for every thread.
constexpr int64_t kRowBlock = 96;

}  // namespace

void gemm(int64_t M, const void* Av, bool aSigned, int64_t lda, int32_t za, const PackedQB& B, const QEpilogue& ep,
           ThreadPool* pool, QGemmScratch* scratch) {
  const int64_t K = B.K, N = B.N;
  if (M <= 0 || N <= 0) return;
  const auto* A = static_cast<const uint8_t*>(Av);
  const int32_t zaU = aSigned ? za + 128 : za;  // A's zero point in the u8 domain
  const int threads = pool ? pool->size() : 1;
  auto parallel = [&](int64_t n, const std::function<void(int64_t, int64_t)>& fn) {
    if (pool && n > 1) pool->parallelFor(n, fn, 1);
    else fn(0, n);
  };

  const int64_t nr = B.nr, panels = (N + nr - 1) / nr;
  const int64_t mr = B.isa == KernelIsa::kAvx2 ? kAvx2Mr : B.isa == KernelIsa::kAvx512Vnni ? kVnniMr : 1;
  const int64_t rowBlock = std::max<int64_t>(mr, kRowBlock / mr * mr);
  const int64_t mBlocks = (M + rowBlock - 1) / rowBlock;
  const int64_t want = 4 * static_cast<int64_t>(threads);
  const int64_t nGroups = threads == 1 ? 1 : std::clamp<int64_t>((want + mBlocks - 1) / mBlocks, 1, panels);
  const int64_t perGroup = (panels + nGroups - 1) / nGroups;
  const int64_t tasks = mBlocks * nGroups;

  if (B.isa == KernelIsa::kPortable || K == 0) {
    parallel(tasks, [&](int64_t t0, int64_t t1) {
      for (int64_t t = t0; t < t1; ++t) {
        const int64_t mb = t / nGroups, g = t % nGroups;
        const int64_t n0 = std::min(N, g * perGroup * nr), n1 = std::min(N, (g + 1) * perGroup * nr);
        if (n0 < n1) blockPortable(A, aSigned, lda, zaU, B, ep, mb * rowBlock, std::min(M, (mb + 1) * rowBlock), n0, n1);
      }
    });
    return;
  }

  QGemmScratch own;
  QGemmScratch& s = scratch ? *scratch : own;
  BlockArgs args;
  args.b = &B;
  args.ep = &ep;
  // Per column: bias + K * za * zb - za * colsum (wrapping).
  s.cols.resize(static_cast<size_t>(N));
  for (int64_t n = 0; n < N; ++n) {
    uint32_t v = ep.bias ? static_cast<uint32_t>(ep.bias[n]) : 0u;
    v += static_cast<uint32_t>(K) * static_cast<uint32_t>(zaU) * static_cast<uint32_t>(B.zb[n]);
    v -= static_cast<uint32_t>(zaU) * static_cast<uint32_t>(B.colSum[n]);
    s.cols[n] = static_cast<int32_t>(v);
  }
  args.cols = s.cols.data();
  const bool needRows = !B.zbZero;
  if (needRows) s.rows.resize(static_cast<size_t>(M));
  args.rows = needRows ? s.rows.data() : nullptr;

  // A in the kernel's form: avx2 int16 pairs; vnni uint8 padded to 4 (used
  // in place when it already is: uint8 with K a multiple of 4).
  const int64_t Kp = B.Kp;
  const bool avx2 = B.isa == KernelIsa::kAvx2;
  const bool inPlace = !avx2 && !aSigned && K == Kp;
  if (!inPlace) s.a.resize(static_cast<size_t>(M * Kp * (avx2 ? 2 : 1)));
  args.a = inPlace ? A : s.a.data();
  args.lda = inPlace ? lda : Kp;
  if (!inPlace || needRows) {
    parallel((M + 63) / 64, [&](int64_t b0, int64_t b1) {
      for (int64_t m = b0 * 64; m < std::min(M, b1 * 64); ++m) {
        const uint8_t* src = A + m * lda;
        int32_t sum = 0;
        if (avx2) {
          auto* dst = reinterpret_cast<int16_t*>(s.a.data()) + m * Kp;
          for (int64_t k = 0; k < K; ++k) {
            const uint8_t v = aSigned ? static_cast<uint8_t>(src[k] ^ 0x80) : src[k];
            dst[k] = v;
            sum += v;
          }
          for (int64_t k = K; k < Kp; ++k) dst[k] = 0;
        } else if (!inPlace) {
          uint8_t* dst = s.a.data() + m * Kp;
          const uint8_t x = aSigned ? 0x80 : 0;
          for (int64_t k = 0; k < K; ++k) {
            dst[k] = static_cast<uint8_t>(src[k] ^ x);
            sum += dst[k];
          }
          for (int64_t k = K; k < Kp; ++k) dst[k] = 0;
        } else {
          for (int64_t k = 0; k < K; ++k) sum += src[k];
        }
        if (needRows) s.rows[m] = sum;
      }
    });
  }

  parallel(tasks, [&](int64_t t0, int64_t t1) {
    for (int64_t t = t0; t < t1; ++t) {
      const int64_t mb = t / nGroups, g = t % nGroups;
      const int64_t p0 = std::min(panels, g * perGroup), p1 = std::min(panels, (g + 1) * perGroup);
      if (p0 >= p1) continue;
      const int64_t m0 = mb * rowBlock, m1 = std::min(M, m0 + rowBlock);
#if defined(__x86_64__)
      if (avx2) blockAvx2(args, m0, m1, p0, p1);
      else blockVnni(args, m0, m1, p0, p1);
#else
      (void)m1;  // packQB makes only portable forms here
#endif
    }
  });
}

}  // namespace oinfer::cpu::qgemm
