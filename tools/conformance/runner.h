// Runs ONNX backend test cases (model.onnx + test_data_set_*/{input,output}_K.pb)
// through oinfer, each in a forked child so a crash or hang in one case is
// recorded as that case's failure and cannot take the whole run down.
//
// Counting rule (docs/conformance.md): a case is in the denominator when its
// model uses only the default ONNX domain and all of its graph inputs and
// outputs are tensors. A case passes when every data set matches: same dtype
// and shape, NaNs in the same places, |actual - expected| <= atol + rtol *
// |expected| (rtol 1e-3, atol 1e-7 unless the manifest gives the case its own,
// with a reason). A case the manifest marks `stat` (its outputs depend on a
// random op, so the expected values cannot be reproduced) passes instead when
// every output has the expected dtype and shape and the values pass the
// statistical check of the random op behind them (see RunOptions::statistical
// and the check* functions below).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "oinfer/tensor.h"

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
  // Check RNG-dependent values statistically instead of comparing them:
  //  - every output of a random node (RandomUniform(Like), RandomNormal(Like),
  //    Bernoulli, Multinomial, Dropout with a true training_mode) is fetched
  //    and checked by its op's rule (checkUniform, checkNormal, checkBernoulli,
  //    checkMultinomial, checkDropout) against its inputs and attributes;
  //  - graph outputs keep the dtype and shape check; those computed from
  //    random values by other ops (the _expanded cases) must lie within the
  //    range [min, max] of the expected values; outputs that depend on no
  //    random node are still compared with rtol/atol.
  bool statistical = false;
};

// The statistical rules; each returns "" when the values pass, else why not.
// Counts are checked with a normal-approximation bound at z = kStatZ (about a
// 1-in-100,000 chance of failing a correct kernel) plus 0.5 for continuity:
// |observed - expected| <= kStatZ * sd + 0.5.
inline constexpr double kStatZ = 4.5;
// Bernoulli: values in {0, 1}; 0 where p = 0 and 1 where p = 1; the number of
// ones within the bound of sum(p) (sd = sqrt(sum p(1-p))).
std::string checkBernoulli(const Tensor& p, const Tensor& y);
// Dropout training: y[i] is 0 or x[i] / (1 - ratio) (rtol 1e-3); mask, when
// given, true exactly where y kept x; the number kept within the bound of
// n (1 - ratio) (sd = sqrt(n ratio (1 - ratio))), counting only elements
// whose fate is visible (all with a mask, else those with x != 0).
std::string checkDropout(const Tensor& x, double ratio, const Tensor& y, const Tensor* mask);
// RandomUniform(Like): every value in [low, high) (== low when low == high).
std::string checkUniform(const Tensor& y, double low, double high);
// RandomNormal(Like): finite values whose mean is within kStatZ * scale /
// sqrt(n) of `mean`.
std::string checkNormal(const Tensor& y, double mean, double scale);
// Multinomial: integer class indices in [0, classes).
std::string checkMultinomial(const Tensor& y, int64_t classes);

// The case folders under `suiteDir`, sorted.
std::vector<std::string> listCases(const std::string& suiteDir);
// Runs one case folder in a child process.
CaseResult runCase(const std::string& caseDir, const RunOptions& options);

// Manifest: one case per line, `name modes [rtol=X] [atol=Y] [stat] [# reason]`,
// where modes is `static`, `dynamic` or `static,dynamic` and `stat` selects
// RunOptions::statistical (the reason says which random op). A case that does
// not pass is listed as `name fails # reason` (known failure; not gated).
struct ManifestEntry {
  bool isStatic = false, isDynamic = false;
  bool statistical = false;
  bool knownFailure = false;  // `fails`: listed with the reason it does not pass
  double rtol = -1, atol = -1;  // < 0: default
  std::string reason;
};
std::map<std::string, ManifestEntry> readManifest(const std::string& path);

// The pinned suite's folder (onnx==1.22.0's backend test data), from the
// ONNX_TEST_DATA environment variable or the path found at configure time;
// empty when neither exists.
std::string findTestData();

}  // namespace oinfer::conformance
