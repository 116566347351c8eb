// oinfer-run --compare: every intermediate value of a run against a reference
// (ONNX Runtime through Python, or oinfer itself without graph passes), and
// the first node in execution order whose output diverges.
#pragma once

#include <string>
#include <vector>

#include "cli_json.h"
#include "cli_options.h"
#include "oinfer/graph.h"
#include "oinfer/session.h"

namespace oinfer::cli {

// The values --compare checks: every node output of `file` (sorted), in
// execution order. The Session must keep them (SessionOptions::keepValues).
std::vector<std::string> compareValueNames(const Graph& file);

// Runs `session` on `feeds` fetching every value, computes the reference and
// reports (text, or into `out` for --json). `file` is the model as loaded,
// sorted. Returns 0 when every compared value matches, 1 on a divergence;
// throws std::runtime_error with one line on errors (a reference that fails).
//
// The reference: OINFER_COMPARE_REFERENCE=onnxruntime|oinfer forces one;
// unset, ONNX Runtime when ${OINFER_PYTHON:-python3} imports onnxruntime,
// onnx and numpy, else oinfer at optimization level 0. Test-only:
// OINFER_COMPARE_PERTURB=NAME[,NAME] adds 1 to the first element of those
// reference values, so a divergence at a known node can be tested.
int compareRun(const Options& o, Session& session, const Graph& file, const TensorMap& feeds, Json& out);

}  // namespace oinfer::cli
