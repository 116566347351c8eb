// Resource behaviour over many runs: one Session run 100,000 times (the
// digits model, alternating two batch sizes, outputs dropped or kept in
// turn) keeps its resident memory flat — no per-run leak in plans, contexts,
// kept output buffers or the thread pool.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <string>

#include "oinfer/graph.h"
#include "oinfer/session.h"
#include "oinfer/tensor_io.h"

namespace {

// Under ASan or TSan the allocator keeps freed blocks in quarantine and
// shadow memory grows with them, so the resident size measures the
// sanitizer, not the library. (GCC defines __SANITIZE_*; clang answers
// __has_feature.)
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

// Resident set size in bytes (/proc/self/statm), or 0 when unavailable.
size_t residentBytes() {
  FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return 0;
  unsigned long size = 0, resident = 0;
  const int n = std::fscanf(f, "%lu %lu", &size, &resident);
  std::fclose(f);
  return n == 2 ? size_t(resident) * size_t(::sysconf(_SC_PAGESIZE)) : 0;
}

TEST(Resources, RssStaysFlatOver100kRuns) {
  if (kSanitized) GTEST_SKIP() << "sanitizer build: its allocator's quarantine, not the library, sets the RSS";
  if (residentBytes() == 0) GTEST_SKIP() << "no /proc/self/statm on this system";
  oinfer::SessionOptions so;
  so.threads = 1;
  oinfer::Session s(oinfer::Graph::loadFromONNX(std::string(OINFER_MODELS_DIR) + "/digits.onnx"), so);
  const oinfer::Tensor seven = oinfer::loadNpy(std::string(OINFER_MODELS_DIR) + "/digits_samples/digit_7.npy");
  oinfer::Tensor batch3(oinfer::DataType::kFloat, {3, 64});
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 64; ++c) batch3.data<float>()[r * 64 + c] = seven.data<float>()[c];
  std::vector<oinfer::Tensor> kept;
  auto runs = [&](int n) {
    for (int i = 0; i < n; ++i) {
      const bool big = i % 2;
      auto out = s.run({{"pixels", big ? batch3 : seven}});
      ASSERT_EQ(out[0].dim(0), big ? 3 : 1);
      if (i % 3 == 0) kept = std::move(out);  // sometimes the caller holds the last outputs
    }
  };
  runs(10000);  // warm: plans, contexts, kept buffers, allocator pools
  const size_t before = residentBytes();
  runs(90000);
  const size_t after = residentBytes();
  // The last result is still right.
  auto out = s.run({{"pixels", seven}});
  int best = 0;
  for (int k = 1; k < 10; ++k)
    if (out[0].data<float>()[k] > out[0].data<float>()[best]) best = k;
  EXPECT_EQ(best, 7);
  // 90,000 runs may move the RSS by allocator noise, not by a per-run leak
  // (8 bytes a run would already be 720 KB).
  EXPECT_LT(after, before + 512 * 1024) << "RSS " << before << " -> " << after << " bytes over 90,000 runs";
}

}  // namespace
