// The conformance gate: every case the manifest lists must still pass, in the
// modes it lists. Prints the counts over the whole suite.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <thread>

#include "conformance/runner.h"

namespace fs = std::filesystem;
using namespace oinfer::conformance;

TEST(Conformance, ManifestCasesStillPass) {
  const std::string data = findTestData();
  if (data.empty()) GTEST_SKIP() << "ONNX backend test data (onnx==1.22.0) not found; run scripts/setup.sh";
  const auto manifest = readManifest(OINFER_CONFORMANCE_MANIFEST);
  ASSERT_FALSE(manifest.empty());
  std::vector<std::pair<std::string, ManifestEntry>> entries(manifest.begin(), manifest.end());
  std::vector<std::string> regressions;
  std::mutex mu;
  std::atomic<size_t> next{0};
  std::atomic<int> staticPass{0}, dynamicPass{0}, staticListed{0}, dynamicListed{0};
  auto worker = [&] {
    for (size_t i; (i = next.fetch_add(1)) < entries.size();) {
      const auto& [key, e] = entries[i];
      const std::string dir = (fs::path(data) / key).string();
      RunOptions opt;
      if (e.rtol >= 0) opt.rtol = e.rtol;
      if (e.atol >= 0) opt.atol = e.atol;
      auto check = [&](bool dynamic, std::atomic<int>& listed, std::atomic<int>& passed) {
        ++listed;
        opt.dynamic = dynamic;
        CaseResult r = fs::exists(dir) ? runCase(dir, opt) : CaseResult{key, {}, Status::kError, "case folder missing"};
        if (r.status == Status::kPass) {
          ++passed;
        } else {
          std::lock_guard<std::mutex> lock(mu);
          regressions.push_back(key + (dynamic ? " [dynamic]: " : " [static]: ") + r.message);
        }
      };
      if (e.isStatic) check(false, staticListed, staticPass);
      if (e.isDynamic) check(true, dynamicListed, dynamicPass);
    }
  };
  std::thread t1(worker), t2(worker);
  t1.join();
  t2.join();
  std::printf("conformance manifest: %d/%d static cases pass, %d/%d dynamic cases pass\n", staticPass.load(),
              staticListed.load(), dynamicPass.load(), dynamicListed.load());
  std::sort(regressions.begin(), regressions.end());
  for (const auto& r : regressions) ADD_FAILURE() << "regression: " << r;
}
