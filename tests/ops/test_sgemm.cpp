// sgemm / packed GEMM against a naive double-accumulating loop: every
// transpose combination, odd sizes around the tile edges, alpha/beta, and
// each epilogue (bias per row / column, residual, every activation), on
// every micro-kernel the CPU supports.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "ops/cpu/gemm/gemm_internal.h"
#include "ops/cpu/gemm/sgemm.h"

namespace oinfer {
namespace {

std::vector<float> randomVec(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-1.f, 1.f);
  std::vector<float> v(n);
  for (auto& x : v) x = d(rng);
  return v;
}

float act(const GemmEpilogue& ep, float x) {
  switch (ep.act) {
    case GemmActivation::kNone: return x;
    case GemmActivation::kRelu: return x > 0 ? x : 0;
    case GemmActivation::kClip: return std::min(std::max(x, ep.p0), ep.p1);
    case GemmActivation::kLeakyRelu: return x >= 0 ? x : ep.p0 * x;
    case GemmActivation::kSigmoid: return 1 / (1 + std::exp(-x));
    case GemmActivation::kHardSigmoid: return std::max(0.f, std::min(1.f, ep.p0 * x + ep.p1));
    case GemmActivation::kTanh: return std::tanh(x);
    case GemmActivation::kSiLU: return x / (1 + std::exp(-x));
    case GemmActivation::kHardSwish: return x * std::max(0.f, std::min(1.f, x / 6 + 0.5f));
    case GemmActivation::kGelu: return 0.5f * x * (1 + std::erf(x / std::sqrt(2.f)));
  }
  return x;
}

// C = act(alpha * op(A) op(B) + beta * C + bias + residual)
std::vector<float> naive(bool ta, bool tb, int64_t M, int64_t N, int64_t K, float alpha, const float* A, int64_t lda,
                         const float* B, int64_t ldb, float beta, std::vector<float> C, int64_t ldc,
                         const GemmEpilogue& ep = {}) {
  for (int64_t m = 0; m < M; ++m)
    for (int64_t n = 0; n < N; ++n) {
      double s = 0;
      for (int64_t k = 0; k < K; ++k) s += double(ta ? A[k * lda + m] : A[m * lda + k]) * (tb ? B[n * ldb + k] : B[k * ldb + n]);
      float v = float(alpha * s) + (beta == 0 ? 0.f : beta * C[m * ldc + n]);
      if (ep.biasKind == GemmBias::kPerRow) v += ep.bias[m];
      if (ep.biasKind == GemmBias::kPerCol) v += ep.bias[n];
      if (ep.residual) v += ep.residual[m * ep.ldr + n];
      C[m * ldc + n] = act(ep, v);
    }
  return C;
}

void expectNear(const std::vector<float>& want, const std::vector<float>& got, int64_t K, const std::string& what) {
  ASSERT_EQ(want.size(), got.size());
  const float tol = 1e-5f * float(K + 4);
  for (size_t i = 0; i < want.size(); ++i)
    ASSERT_NEAR(want[i], got[i], tol + 1e-4f * std::abs(want[i])) << what << " at " << i;
}

TEST(Sgemm, AllTransposesOddSizes) {
  ThreadPool pool(2);
  const int64_t sizes[][3] = {{1, 1, 1}, {1, 1000, 37}, {13, 33, 7}, {12, 32, 256}, {25, 65, 300},
                              {37, 17, 513}, {250, 70, 20}, {3, 1600, 9}, {100, 100, 100},
                              // columns in units claimed by the threads, A packed once (tilesN >= 8)
                              {50, 700, 300}, {197, 770, 65}};
  for (auto [M, N, K] : sizes)
    for (int ta = 0; ta < 2; ++ta)
      for (int tb = 0; tb < 2; ++tb) {
        const int64_t lda = (ta ? M : K) + 3, ldb = (tb ? K : N) + 1, ldc = N + 5;
        auto A = randomVec((ta ? K : M) * lda, 1), B = randomVec((tb ? N : K) * ldb, 2), C0 = randomVec(M * ldc, 3);
        for (auto [alpha, beta] : {std::pair{1.f, 0.f}, {0.5f, 1.f}, {-2.f, 0.25f}}) {
          std::vector<float> C = C0;
          if (beta == 0) std::fill(C.begin(), C.end(), NAN);  // beta == 0 must not read C
          auto want = naive(ta, tb, M, N, K, alpha, A.data(), lda, B.data(), ldb, beta, C0, ldc);
          sgemm(ta, tb, M, N, K, alpha, A.data(), lda, B.data(), ldb, beta, C.data(), ldc, &pool);
          for (int64_t m = 0; m < M; ++m)  // padding columns untouched only matter for beta != 0
            for (int64_t n = N; n < ldc; ++n) C[m * ldc + n] = want[m * ldc + n];
          expectNear(want, C, K,
                     "M=" + std::to_string(M) + " N=" + std::to_string(N) + " K=" + std::to_string(K) +
                         " ta=" + std::to_string(ta) + " tb=" + std::to_string(tb) + " beta=" + std::to_string(beta));
        }
      }
}

// Buffers of 2 MiB and more (packed weights, arenas, scratch) start on a
// 2 MiB boundary so transparent huge pages can back them; smaller ones on
// 64 bytes. A packed operand that size still multiplies correctly.
TEST(Sgemm, LargeBuffersAreHugePageAligned) {
  for (size_t bytes : {size_t{1}, size_t{100}, kHugePage - 1, kHugePage, 3 * kHugePage + 5}) {
    void* p = allocLarge(bytes);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % (bytes >= kHugePage ? kHugePage : 64), 0u) << bytes;
    std::free(p);
  }
  // A call's own workspace (given none) comes from the same allocator.
  ScratchNeed need;
  need.shared = kHugePage;
  const CallWorkspace own(Workspace{}, need, 1);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(own.get().shared.base) % kHugePage, 0u);
  EXPECT_GE(own.get().shared.bytes, kHugePage);
  const int64_t K = 1024, N = 640, M = 3;
  std::vector<float> a(M * K), b(K * N), c(M * N), ref(M * N, 0.f);
  for (int64_t i = 0; i < K * N; ++i) b[i] = float(i % 7) - 3.f;
  for (int64_t i = 0; i < M * K; ++i) a[i] = float(i % 5) - 2.f;
  const PackedB pb = packB(false, K, N, b.data(), N);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(pb.data.get()) % kHugePage, 0u);
  sgemmPacked(false, M, a.data(), K, pb, 1.f, 0.f, c.data(), N, GemmEpilogue{}, nullptr);
  for (int64_t m = 0; m < M; ++m)
    for (int64_t k = 0; k < K; ++k)
      for (int64_t n = 0; n < N; ++n) ref[m * N + n] += a[m * K + k] * b[k * N + n];
  for (int64_t i = 0; i < M * N; ++i) ASSERT_EQ(c[i], ref[i]) << i;
}

TEST(Sgemm, ZeroKScalesC) {
  std::vector<float> C = {1, 2, 3, 4};
  sgemm(false, false, 2, 2, 0, 1.f, nullptr, 1, nullptr, 2, 0.5f, C.data(), 2, nullptr);
  EXPECT_EQ(C, (std::vector<float>{0.5f, 1, 1.5f, 2}));
}

TEST(Sgemm, PackedBEpilogues) {
  ThreadPool pool(2);
  const GemmActivation acts[] = {GemmActivation::kNone,        GemmActivation::kRelu,    GemmActivation::kClip,
                                 GemmActivation::kLeakyRelu,   GemmActivation::kSigmoid, GemmActivation::kHardSigmoid,
                                 GemmActivation::kTanh,        GemmActivation::kSiLU,    GemmActivation::kGelu,
                                 GemmActivation::kHardSwish};
  for (auto [M, N, K] :
       {std::tuple<int64_t, int64_t, int64_t>{1, 1000, 300}, {29, 45, 31}, {64, 200, 600}, {37, 800, 300}})
    for (int ta = 0; ta < 2; ++ta)
      for (int tb = 0; tb < 2; ++tb)
        for (GemmActivation a : acts) {
          const int64_t lda = ta ? M : K, ldb = tb ? K : N, ldc = N;
          auto A = randomVec(M * K, 4), B = randomVec(N * K, 5), bias = randomVec(N, 6), res = randomVec(M * N, 7);
          GemmEpilogue ep;
          ep.biasKind = GemmBias::kPerCol;
          ep.bias = bias.data();
          ep.residual = a == GemmActivation::kRelu ? res.data() : nullptr;
          ep.ldr = N;
          ep.act = a;
          ep.p0 = a == GemmActivation::kClip ? -0.5f : a == GemmActivation::kGelu ? 0.f : 0.2f;
          ep.p1 = a == GemmActivation::kClip ? 0.7f : 0.5f;
          PackedB pb = packB(tb, K, N, B.data(), ldb);
          std::vector<float> C(M * N, NAN);
          sgemmPacked(ta, M, A.data(), lda, pb, 1.f, 0.f, C.data(), ldc, ep, &pool);
          auto want = naive(ta, tb, M, N, K, 1.f, A.data(), lda, B.data(), ldb, 0.f, std::vector<float>(M * N), ldc, ep);
          expectNear(want, C, K, "packedB act=" + std::to_string(int(a)) + " M=" + std::to_string(M));
        }
}

TEST(Sgemm, PackedARowBiasResidual) {
  ThreadPool pool(2);
  // {300, 3130, 64}: short K blocks run their tiles across the column
  // panels (two M blocks, a partial last panel, the residual in the epilogue).
  for (auto [M, N, K] : {std::tuple<int64_t, int64_t, int64_t>{64, 49, 576}, {13, 3000, 27}, {256, 196, 1152},
                         {300, 3130, 64}})
    for (int tb = 0; tb < 2; ++tb) {
      const int64_t ldb = tb ? K : N;
      auto A = randomVec(M * K, 8), B = randomVec(N * K, 9), bias = randomVec(M, 10), res = randomVec(M * N, 11);
      GemmEpilogue ep;
      ep.biasKind = GemmBias::kPerRow;
      ep.bias = bias.data();
      ep.residual = res.data();
      ep.ldr = N;
      ep.act = GemmActivation::kRelu;
      PackedA pa = packA(false, M, K, A.data(), K);
      std::vector<float> C(M * N, NAN);
      sgemmPackedA(pa, tb, N, B.data(), ldb, 1.f, 0.f, C.data(), N, ep, &pool);
      auto want = naive(false, tb, M, N, K, 1.f, A.data(), K, B.data(), ldb, 0.f, std::vector<float>(M * N), N, ep);
      expectNear(want, C, K, "packedA M=" + std::to_string(M));
      // Same through the standalone epilogue on a plain product.
      std::vector<float> D(M * N);
      sgemm(false, tb, M, N, K, 1.f, A.data(), K, B.data(), ldb, 0.f, D.data(), N, nullptr);
      applyGemmEpilogue(ep, D.data(), N, M, N);
      expectNear(want, D, K, "epilogue M=" + std::to_string(M));
    }
}

// Every micro-kernel the CPU runs, not only the one isa() picked.
TEST(Sgemm, EveryMicroKernel) {
  std::vector<gemm::Isa> isas = {gemm::isaGeneric()};
  if (gemm::cpuHasAvx2()) isas.push_back(gemm::isaAvx2());
  if (gemm::cpuHasAvx512()) isas.push_back(gemm::isaAvx512());
  for (const auto& I : isas)
    for (int rows = 1; rows <= I.mr; ++rows)
      for (int cols : {1, I.nr / 2 + 1, I.nr}) {
        const int64_t kc = 19, ldc = I.nr + 3;
        auto a = randomVec(kc * I.mr, 12), b = randomVec(kc * I.nr, 13), res = randomVec(I.mr * ldc, 14);
        auto c = randomVec(I.mr * ldc, 15), bias = randomVec(I.mr, 16);
        gemm::TileArgs t;
        t.alpha = 0.5f;
        t.beta = 2.f;
        t.loadC = true;
        t.rowBias = bias.data();
        t.res = res.data();
        t.ldr = ldc;
        t.clamp = true;
        t.lo = -0.3f;
        t.hi = 0.4f;
        std::vector<float> got = c;
        I.kernel(kc, a.data(), b.data(), got.data(), ldc, rows, cols, t);
        for (int r = 0; r < I.mr; ++r)
          for (int j = 0; j < ldc; ++j) {
            float want = c[r * ldc + j];
            if (r < rows && j < cols) {
              double s = 0;
              for (int64_t k = 0; k < kc; ++k) s += double(a[k * I.mr + r]) * b[k * I.nr + j];
              want = float(0.5 * s) + 2.f * c[r * ldc + j] + bias[r] + res[r * ldc + j];
              want = std::min(std::max(want, -0.3f), 0.4f);
            }
            ASSERT_NEAR(want, got[r * ldc + j], 1e-5f) << I.name << " rows=" << rows << " cols=" << cols;
          }
      }
}

}  // namespace
}  // namespace oinfer
