// Runs ONNX backend test cases (model.onnx + test_data_set_*/{input,output}_K.pb)
// through oinfer, each in a forked child so a crash or hang in one case is
// recorded as that case's failure and cannot take the whole run down.
//
// Counting rule (docs/conformance.md): a case is in the denominator when its
// model uses only the default ONNX domain and all of its graph inputs and
// outputs are tensors. A case passes when every data set matches: same dtype
// and shape, NaNs in the same places, |actual - expected| <= atol + rtol *
// |expected| (rtol 1e-3, atol 1e-7 unless the manifest gives the case its own,
// with a reason).
#pragma once

#include <map>
#include <string>
#include <vector>

namespace oinfer::conformance {

enum class Status { kPass, kFail, kUnsupported, kError, kExcluded };
const char* statusName(Status s);

struct CaseResult {
  std::string name;
  std::vector<std::string> ops;  // op types the model uses
  Status status = Status::kError;
  std::string message;  // first line of the failure
};

struct RunOptions {
  bool dynamic = false;  // make every graph input dim symbolic before running
  double rtol = 1e-3;
  double atol = 1e-7;
  int timeoutSeconds = 30;
};

// The case folders under `suiteDir`, sorted.
std::vector<std::string> listCases(const std::string& suiteDir);
// Runs one case folder in a child process.
CaseResult runCase(const std::string& caseDir, const RunOptions& options);

// Manifest: one case per line, `name modes [rtol=X] [atol=Y] [# reason]`,
// where modes is `static`, `dynamic` or `static,dynamic`.
struct ManifestEntry {
  bool isStatic = false, isDynamic = false;
  double rtol = -1, atol = -1;  // < 0: default
  std::string reason;
};
std::map<std::string, ManifestEntry> readManifest(const std::string& path);

// The pinned suite's folder (onnx==1.22.0's backend test data), from the
// ONNX_TEST_DATA environment variable or the path found at configure time;
// empty when neither exists.
std::string findTestData();

}  // namespace oinfer::conformance
