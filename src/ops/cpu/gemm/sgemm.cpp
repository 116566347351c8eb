// The GEMM driver: blocking, packing, thread split and the epilogue. See
// sgemm.h for the method; the micro-kernels are in microkernels.cpp.
#include "ops/cpu/gemm/sgemm.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>

#include "ops/cpu/gemm/act512.h"
#include "ops/cpu/gemm/gemm_internal.h"

namespace oinfer {
namespace gemm {

const Isa& isa() {
  // cpuFeatures() is capped by OINFER_CPU_CAP (or the older OINFER_GEMM_ISA):
  // tests and comparisons force a lower kernel that way.
  static const Isa chosen = [] {
    if (cpuHasAvx512()) return isaAvx512();
    if (cpuHasAvx2()) return isaAvx2();
    return isaGeneric();
  }();
  return chosen;
}

namespace {

int64_t roundUp(int64_t x, int64_t m) { return (x + m - 1) / m * m; }

// How the driver splits a call over `threads` (the pool's size): `threads`
// blocks of C in a tm x tn grid, or (columns) op(A) packed whole once and
// the columns claimed in units.
struct Split {
  int threads = 1, tm = 1;
  bool columns = false;
};

Split chooseSplit(const Isa& I, int64_t M, int64_t N, int64_t K, bool aPacked, bool bPacked, int threads) {
  const int64_t tilesM = (M + I.mr - 1) / I.mr, tilesN = (N + I.nr - 1) / I.nr;
  // Below ~1 MFLOP a second thread costs more in wake-up than it saves.
  if (M * N * K < (int64_t{1} << 19)) threads = 1;
  threads = int(std::min<int64_t>(std::max(threads, 1), tilesM * tilesN));
  // One block of C per thread: the grid tm x tn with the smallest largest block.
  int bestTm = 1;
  int64_t bestCost = INT64_MAX;
  for (int tm = 1; tm <= threads; ++tm) {
    if (threads % tm) continue;
    const int tn = threads / tm;
    const int64_t cost = ((tilesM + tm - 1) / tm) * ((tilesN + tn - 1) / tn) * 64 +
                         (aPacked ? 0 : tn) + (bPacked ? 0 : tm);  // ties: less repeated packing
    if (cost < bestCost) {
      bestCost = cost;
      bestTm = tm;
    }
  }
  Split s;
  s.threads = threads;
  s.tm = bestTm;
  s.columns = threads > 1 && bestTm == 1 && !aPacked && tilesN >= 4 * threads;
  return s;
}

// A thread's packing buffers in its part of the workspace (`base`; null:
// only counts the bytes into `bytes`): op(A)'s block unless A comes packed,
// op(B)'s unless B does.
struct PackBufs {
  float* a = nullptr;
  float* b = nullptr;
};
PackBufs packBufs(const Isa& I, void* base, int64_t M, int64_t N, int64_t K, bool packsA, bool packsB,
                  size_t* bytes = nullptr) {
  const int64_t kc = std::min<int64_t>(K, kKc);
  Carve c(base);
  PackBufs p;
  if (packsA) p.a = c.take<float>(size_t(roundUp(std::min<int64_t>(M, kMc), I.mr) * kc));
  if (packsB) p.b = c.take<float>(size_t(roundUp(std::min<int64_t>(N, kNc), I.nr) * kc));
  if (bytes) *bytes = c.bytes();
  return p;
}

#if defined(__x86_64__) || defined(__i386__)
// Row-major A into 12-row panels, 16 k at a time: 12 row loads, a register
// transpose, 16 stores of 12 (each thread packs the activations once per K
// block, so a scalar gather shows in transformer profiles).
__attribute__((target("avx512f"))) void packA12x16(const float* A, int64_t lda, int64_t m0, int64_t ml, int64_t k0,
                                                   int64_t kl, float* dst) {
  for (int64_t i = 0; i < ml; i += 12) {
    const int rows = int(std::min<int64_t>(12, ml - i));
    float* d = dst + i * kl;
    for (int64_t k = 0; k < kl; k += 16) {
      const int n = int(std::min<int64_t>(16, kl - k));
      const __mmask16 lm = __mmask16((1u << n) - 1);
      __m512 v[16];
      for (int r = 0; r < 16; ++r)
        v[r] = r < rows ? _mm512_maskz_loadu_ps(lm, A + (m0 + i + r) * lda + k0 + k) : _mm512_setzero_ps();
      transpose16(v);
      for (int j = 0; j < n; ++j) _mm512_mask_storeu_ps(d + (k + j) * 12, __mmask16(0x0FFF), v[j]);
    }
  }
}

// B given as N x K rows (transB) into 32-column panels, 16 columns by 16 k
// at a time through the register transpose (attention's Q K^T packs K this
// way on every run).
__attribute__((target("avx512f"))) void packBT32x16(const float* B, int64_t ldb, int64_t k0, int64_t kl, int64_t n0,
                                                    int64_t nl, float* dst) {
  for (int64_t j = 0; j < nl; j += 32) {
    float* d = dst + j * kl;
    for (int64_t k = 0; k < kl; k += 16) {
      const int n = int(std::min<int64_t>(16, kl - k));
      const __mmask16 lm = __mmask16((1u << n) - 1);
      for (int half = 0; half < 2; ++half) {
        const int64_t c0 = j + half * 16;
        __m512 v[16];
        for (int r = 0; r < 16; ++r)
          v[r] = c0 + r < nl ? _mm512_maskz_loadu_ps(lm, B + (n0 + c0 + r) * ldb + k0 + k) : _mm512_setzero_ps();
        transpose16(v);
        for (int t = 0; t < n; ++t) _mm512_storeu_ps(d + (k + t) * 32 + half * 16, v[t]);
      }
    }
  }
}
#endif

// op(A)[m0:m0+ml, k0:k0+kl] as ceil(ml/mr) panels of kl x mr.
void packAPanels(bool transA, const float* A, int64_t lda, int64_t m0, int64_t ml, int64_t k0, int64_t kl, int mr,
                 float* dst) {
#if defined(__x86_64__) || defined(__i386__)
  static const bool avx512 = cpuHasAvx512();
  if (!transA && mr == 12 && avx512) {
    packA12x16(A, lda, m0, ml, k0, kl, dst);
    return;
  }
#endif
  for (int64_t i = 0; i < ml; i += mr) {
    const int rows = int(std::min<int64_t>(mr, ml - i));
    float* d = dst + i * kl;
    if (transA) {  // A is K x M: a panel row is contiguous
      for (int64_t k = 0; k < kl; ++k) {
        const float* s = A + (k0 + k) * lda + m0 + i;
        float* dk = d + k * mr;
        for (int r = 0; r < rows; ++r) dk[r] = s[r];
        for (int r = rows; r < mr; ++r) dk[r] = 0.f;
      }
    } else {
      for (int r = 0; r < rows; ++r) {
        const float* s = A + (m0 + i + r) * lda + k0;
        for (int64_t k = 0; k < kl; ++k) d[k * mr + r] = s[k];
      }
      for (int r = rows; r < mr; ++r)
        for (int64_t k = 0; k < kl; ++k) d[k * mr + r] = 0.f;
    }
  }
}

// Rows [m0, m0 + ml) of op(A) (m0 a multiple of mr) into their panels of
// a whole packed A (mPad rows: kKc blocks at k0 * mPad, panels of kl x mr).
void packARows(bool transA, const float* A, int64_t lda, int64_t m0, int64_t ml, int64_t K, int mr, int64_t mPad,
               float* dst) {
  for (int64_t k0 = 0; k0 < K; k0 += kKc) {
    const int64_t kl = std::min<int64_t>(kKc, K - k0);
    packAPanels(transA, A, lda, m0, ml, k0, kl, mr, dst + k0 * mPad + m0 * kl);
  }
}

void packBPanels(bool transB, const float* B, int64_t ldb, int64_t k0, int64_t kl, int64_t n0, int64_t nl, int nr,
                 float* dst) {
  if (!transB) {
    for (int64_t k = 0; k < kl; ++k) {
      const float* s = B + (k0 + k) * ldb + n0;
      for (int64_t j = 0; j < nl; j += nr) {
        const int cols = int(std::min<int64_t>(nr, nl - j));
        float* d = dst + j * kl + k * nr;
        std::memcpy(d, s + j, cols * sizeof(float));
        for (int c = cols; c < nr; ++c) d[c] = 0.f;
      }
    }
    return;
  }
#if defined(__x86_64__) || defined(__i386__)
  static const bool avx512 = cpuHasAvx512();
  if (nr == 32 && avx512) {
    packBT32x16(B, ldb, k0, kl, n0, nl, dst);
    return;
  }
#endif
  for (int64_t j = 0; j < nl; j += nr) {
    const int cols = int(std::min<int64_t>(nr, nl - j));
    float* d = dst + j * kl;
    for (int c = 0; c < cols; ++c) {
      const float* s = B + (n0 + j + c) * ldb + k0;
      for (int64_t k = 0; k < kl; ++k) d[k * nr + c] = s[k];
    }
    for (int c = cols; c < nr; ++c)
      for (int64_t k = 0; k < kl; ++k) d[k * nr + c] = 0.f;
  }
}

struct ASource {
  const PackedA* packed = nullptr;
  bool trans = false;
  const float* p = nullptr;
  int64_t ld = 0;
};
struct BSource {
  const PackedB* packed = nullptr;
  bool trans = false;
  const float* p = nullptr;
  int64_t ld = 0;
};

float actScalar(const GemmEpilogue& ep, float x) {
  switch (ep.act) {
    case GemmActivation::kNone: return x;
    case GemmActivation::kRelu: return std::max(x, 0.f);
    case GemmActivation::kClip: return std::min(std::max(x, ep.p0), ep.p1);
    case GemmActivation::kLeakyRelu: return x >= 0.f ? x : ep.p0 * x;
    case GemmActivation::kSigmoid: return 1.f / (1.f + std::exp(-x));
    case GemmActivation::kHardSigmoid: return std::min(1.f, std::max(0.f, ep.p0 * x + ep.p1));
    case GemmActivation::kTanh: return std::tanh(x);
    case GemmActivation::kSiLU: return x / (1.f + std::exp(-x));
    case GemmActivation::kHardSwish: return x * std::min(1.f, std::max(0.f, x / 6.f + 0.5f));
    case GemmActivation::kGelu:
      if (ep.p0 != 0.f) return 0.5f * x * (1.f + std::tanh(0.7978845608028654f * (x + 0.044715f * x * x * x)));
      return 0.5f * x * (1.f + std::erf(x * 0.7071067811865476f));
  }
  return x;
}

// K blocks up to this long run their tiles across the column panels (see
// runBlock): there a tile is mostly its epilogue (tools/bench/TUNING.md).
constexpr int64_t kAcrossPanelsMaxK = 64;

// Runs the block [m0, m1) x [n0, n1) of C on the calling thread.
// `bufs`: the thread's packing buffers (packBufs).
void runBlock(const Isa& I, int64_t M, int64_t N, int64_t K, const ASource& a, const BSource& b, float alpha,
              float beta, float* C, int64_t ldc, const GemmEpilogue& ep, int64_t m0, int64_t m1, int64_t n0,
              int64_t n1, const PackBufs& bufs) {
  const int mr = I.mr, nr = I.nr;
  const int64_t kc = a.packed ? a.packed->kc : b.packed ? b.packed->kc : kKc;
  float lo = 0.f, hi = 0.f;
  const bool clamp = clampActivation(ep, lo, hi);
  const bool inKernel = fusedActivation(I, ep.act);
  const bool post = ep.act != GemmActivation::kNone && !clamp && !inKernel;
  const int64_t mPad = roundUp(M, mr), nPad = roundUp(N, nr);
  for (int64_t nb = n0; nb < n1; nb += kNc) {
    const int64_t nl = std::min<int64_t>(kNc, n1 - nb);
    for (int64_t k0 = 0; k0 < K; k0 += kc) {
      const int64_t kl = std::min<int64_t>(kc, K - k0);
      const bool first = k0 == 0, last = k0 + kl >= K;
      const float* bp;
      if (b.packed) {
        bp = b.packed->data.get() + k0 * nPad + nb * kl;
      } else {
        float* buf = bufs.b;
        packBPanels(b.trans, b.p, b.ld, k0, kl, nb, nl, nr, buf);
        bp = buf;
      }
      for (int64_t mb = m0; mb < m1; mb += kMc) {
        const int64_t ml = std::min<int64_t>(kMc, m1 - mb);
        const float* ap;
        if (a.packed) {
          ap = a.packed->data.get() + k0 * mPad + mb * kl;
        } else {
          float* buf = bufs.a;
          packAPanels(a.trans, a.p, a.ld, mb, ml, k0, kl, mr, buf);
          ap = buf;
        }
        // Tiles go down each column panel (its B micro-panel stays in L1),
        // except with a short K block: there a tile is mostly its epilogue,
        // and going down a panel wrote C (and read the residual) in up to
        // 240 rows a plane apart, too many streams for the hardware
        // prefetcher; across the panels instead, each 12-row tile writes 12
        // sequential streams while B (kc <= 64 rows) comes from L2.
        const bool acrossPanels = kl <= kAcrossPanelsMaxK;
        const int64_t nj = (nl + nr - 1) / nr, ni = (ml + mr - 1) / mr;
        for (int64_t q = 0; q < nj * ni; ++q) {
          const int64_t j = (acrossPanels ? q % nj : q / ni) * nr, i = (acrossPanels ? q / nj : q % ni) * mr;
          const int cols = int(std::min<int64_t>(nr, nl - j));
          const int64_t col = nb + j;
          const int rows = int(std::min<int64_t>(mr, ml - i));
          const int64_t row = mb + i;
          TileArgs t;
          t.alpha = alpha;
          t.beta = first ? beta : 1.f;
          t.loadC = !first || beta != 0.f;
          if (last) {
            if (ep.biasKind == GemmBias::kPerRow) t.rowBias = ep.bias + row;
            if (ep.biasKind == GemmBias::kPerCol) t.colBias = ep.bias + col;
            if (ep.residual) {
              t.res = ep.residual + row * ep.ldr + col;
              t.ldr = ep.ldr;
            }
            t.clamp = clamp;
            t.lo = lo;
            t.hi = hi;
            if (inKernel) {
              t.act = ep.act;
              t.p0 = ep.p0;
              t.p1 = ep.p1;
            }
          }
          // The first tile of a B panel prefetches the next panel; the
          // first column of tiles, the next A panel. Constant weights come
          // from L3 or memory on their first use in a run, and the hardware
          // prefetchers do not run ahead across panels.
          if (i == 0 && j + nr < nl) t.pfB = bp + (j + nr) * kl;
          if (j == 0 && i + mr < ml) t.pfA = ap + (i + mr) * kl;
          float* c = C + row * ldc + col;
          I.kernel(kl, ap + i * kl, bp + j * kl, c, ldc, rows, cols, t);
          if (last && post) activateBlock(ep, c, ldc, rows, cols);
        }
      }
    }
  }
}

ScratchNeed scratchFor(const Isa& I, int64_t M, int64_t N, int64_t K, bool aPacked, bool bPacked, const Split& s) {
  ScratchNeed need;
  if (M <= 0 || N <= 0 || K <= 0) return need;
  packBufs(I, nullptr, M, N, K, !aPacked && !s.columns, !bPacked, &need.perThread);
  if (s.columns) need.shared = size_t(roundUp(M, I.mr) * K) * sizeof(float);
  return need;
}

void driver(int64_t M, int64_t N, int64_t K, const ASource& a, const BSource& b, float alpha, float beta, float* C,
            int64_t ldc, const GemmEpilogue& ep, ThreadPool* pool, const Workspace& ws) {
  if (M <= 0 || N <= 0) return;
  const Isa& I = isa();
  if (K <= 0) {  // no product: C = beta * C, then the epilogue
    for (int64_t m = 0; m < M; ++m)
      for (int64_t n = 0; n < N; ++n) C[m * ldc + n] = beta == 0.f ? 0.f : beta * C[m * ldc + n];
    applyGemmEpilogue(ep, C, ldc, M, N);
    return;
  }
  const int64_t tilesM = (M + I.mr - 1) / I.mr, tilesN = (N + I.nr - 1) / I.nr;
  const Split split = chooseSplit(I, M, N, K, a.packed != nullptr, b.packed != nullptr, pool ? pool->size() : 1);
  const int threads = split.threads, tm = split.tm, tn = threads / tm;
  const CallWorkspace call(ws, scratchFor(I, M, N, K, a.packed != nullptr, b.packed != nullptr, split),
                                threads);
  const Workspace& w = call.get();
  if (split.columns) {
    // Columns split: A (the activations) packed once, by all threads, then
    // the columns in 4 units per thread claimed as the threads come free.
    // One static block per thread packed A on each and left the first one
    // done waiting for the other at region ends.
    const int64_t mPad = roundUp(M, I.mr), mPanels = mPad / I.mr;
    float* abuf = w.shared.part<float>(0);
    pool->parallelFor(mPanels, [&](int64_t p0, int64_t p1) {
      packARows(a.trans, a.p, a.ld, p0 * I.mr, std::min(M, p1 * I.mr) - p0 * I.mr, K, I.mr, mPad, abuf);
    });
    const PackedA pa = packedAView(M, K, abuf);
    ASource ap;
    ap.packed = &pa;
    const int64_t units = std::min<int64_t>(tilesN, 4 * int64_t(threads));
    pool->parallelFor(units, [&](int64_t u0, int64_t u1) {
      const PackBufs bufs = packBufs(I, w.perThread.mine(), M, N, K, false, b.packed == nullptr);
      for (int64_t u = u0; u < u1; ++u) {
        const int64_t n0 = std::min(N, u * tilesN / units * I.nr), n1 = std::min(N, (u + 1) * tilesN / units * I.nr);
        if (n0 < n1) runBlock(I, M, N, K, ap, b, alpha, beta, C, ldc, ep, 0, M, n0, n1, bufs);
      }
    }, 1);
    return;
  }
  auto block = [&](int64_t t) {
    const int64_t bi = t / tn, bj = t % tn;
    const int64_t pm = (tilesM + tm - 1) / tm, pn = (tilesN + tn - 1) / tn;
    const int64_t m0 = std::min(M, bi * pm * I.mr), m1 = std::min(M, (bi + 1) * pm * I.mr);
    const int64_t n0 = std::min(N, bj * pn * I.nr), n1 = std::min(N, (bj + 1) * pn * I.nr);
    if (m0 < m1 && n0 < n1)
      runBlock(I, M, N, K, a, b, alpha, beta, C, ldc, ep, m0, m1, n0, n1,
               packBufs(I, w.perThread.mine(), M, N, K, a.packed == nullptr, b.packed == nullptr));
  };
  if (threads <= 1) {
    block(0);
    return;
  }
  pool->parallelFor(threads, [&](int64_t t0, int64_t t1) {
    for (int64_t t = t0; t < t1; ++t) block(t);
  });
}

}  // namespace

bool clampActivation(const GemmEpilogue& ep, float& lo, float& hi) {
  if (ep.act == GemmActivation::kRelu) {
    lo = 0.f;
    hi = INFINITY;
    return true;
  }
  if (ep.act == GemmActivation::kClip) {
    lo = ep.p0;
    hi = ep.p1;
    return true;
  }
  return false;
}

void activateBlock(const GemmEpilogue& ep, float* c, int64_t ldc, int64_t rows, int64_t cols) {
  const bool vec = avx512Kernels();
  if (vec && activateRows512(ep, c, ldc, rows, cols)) return;
  for (int64_t r = 0; r < rows; ++r) {
    float* cr = c + r * ldc;
    for (int64_t j = 0; j < cols; ++j) cr[j] = actScalar(ep, cr[j]);
  }
}

void gemmPackedAB(const PackedA& A, const PackedB& B, float alpha, float beta, float* C, int64_t ldc,
                  const GemmEpilogue& ep, ThreadPool* pool) {
  ASource as;
  as.packed = &A;
  BSource bs;
  bs.packed = &B;
  driver(A.M, B.N, A.K, as, bs, alpha, beta, C, ldc, ep, pool, Workspace{});  // both packed: no scratch
}

PackedB packedBView(int64_t K, int64_t N, float* data) {
  PackedB p;
  p.K = K;
  p.N = N;
  p.nr = isa().nr;
  p.kc = kKc;
  p.data = std::shared_ptr<float[]>(std::shared_ptr<float[]>(), data);  // aliasing: no control block
  return p;
}

PackedA packedAView(int64_t M, int64_t K, float* data) {
  PackedA p;
  p.M = M;
  p.K = K;
  p.mr = isa().mr;
  p.kc = kKc;
  p.data = std::shared_ptr<float[]>(std::shared_ptr<float[]>(), data);
  return p;
}

}  // namespace gemm

using namespace gemm;

ScratchNeed gemmScratch(int64_t M, int64_t N, int64_t K, bool aPacked, bool bPacked, int threads) {
  const Isa& I = isa();
  if (M <= 0 || N <= 0 || K <= 0) return {};
  return scratchFor(I, M, N, K, aPacked, bPacked, chooseSplit(I, M, N, K, aPacked, bPacked, threads));
}

void sgemm(bool transA, bool transB, int64_t M, int64_t N, int64_t K, float alpha, const float* A, int64_t lda,
           const float* B, int64_t ldb, float beta, float* C, int64_t ldc, ThreadPool* pool, const Workspace& ws) {
  ASource as{nullptr, transA, A, lda};
  BSource bs{nullptr, transB, B, ldb};
  driver(M, N, K, as, bs, alpha, beta, C, ldc, GemmEpilogue{}, pool, ws);
}

PackedB packB(bool transB, int64_t K, int64_t N, const float* B, int64_t ldb) {
  const Isa& I = isa();
  PackedB p;
  p.K = K;
  p.N = N;
  p.nr = I.nr;
  p.kc = kKc;
  const int64_t nPad = roundUp(std::max<int64_t>(N, 1), I.nr);
  p.data = allocFloats(size_t(std::max<int64_t>(K, 1) * nPad));
  for (int64_t k0 = 0; k0 < K; k0 += kKc) {
    const int64_t kl = std::min<int64_t>(kKc, K - k0);
    packBPanels(transB, B, ldb, k0, kl, 0, N, I.nr, p.data.get() + k0 * nPad);
  }
  return p;
}

PackedA packA(bool transA, int64_t M, int64_t K, const float* A, int64_t lda) {
  const Isa& I = isa();
  PackedA p;
  p.M = M;
  p.K = K;
  p.mr = I.mr;
  p.kc = kKc;
  const int64_t mPad = roundUp(std::max<int64_t>(M, 1), I.mr);
  p.data = allocFloats(size_t(std::max<int64_t>(K, 1) * mPad));
  packARows(transA, A, lda, 0, M, K, I.mr, mPad, p.data.get());
  return p;
}

void sgemmPacked(bool transA, int64_t M, const float* A, int64_t lda, const PackedB& B, float alpha, float beta,
                 float* C, int64_t ldc, const GemmEpilogue& ep, ThreadPool* pool, const Workspace& ws) {
  ASource as{nullptr, transA, A, lda};
  BSource bs;
  bs.packed = &B;
  driver(M, B.N, B.K, as, bs, alpha, beta, C, ldc, ep, pool, ws);
}

void sgemmPackedA(const PackedA& A, bool transB, int64_t N, const float* B, int64_t ldb, float alpha, float beta,
                  float* C, int64_t ldc, const GemmEpilogue& ep, ThreadPool* pool, const Workspace& ws) {
  ASource as;
  as.packed = &A;
  BSource bs{nullptr, transB, B, ldb};
  driver(A.M, N, A.K, as, bs, alpha, beta, C, ldc, ep, pool, ws);
}

void applyGemmEpilogue(const GemmEpilogue& ep, float* C, int64_t ldc, int64_t M, int64_t N, int64_t rowOffset,
                       int64_t colOffset) {
  if (ep.biasKind == GemmBias::kNone && !ep.residual) {
    if (ep.act != GemmActivation::kNone) activateBlock(ep, C, ldc, M, N);
    return;
  }
  for (int64_t m = 0; m < M; ++m) {
    float* c = C + m * ldc;
    const float rb = ep.biasKind == GemmBias::kPerRow ? ep.bias[rowOffset + m] : 0.f;
    const float* cb = ep.biasKind == GemmBias::kPerCol ? ep.bias + colOffset : nullptr;
    const float* res = ep.residual ? ep.residual + (rowOffset + m) * ep.ldr + colOffset : nullptr;
    for (int64_t n = 0; n < N; ++n) {
      float v = c[n] + rb;
      if (cb) v += cb[n];
      if (res) v += res[n];
      c[n] = v;
    }
    if (ep.act != GemmActivation::kNone) activateBlock(ep, c, ldc, 1, N);
  }
}

const char* sgemmIsa() { return isa().name; }

}  // namespace oinfer
