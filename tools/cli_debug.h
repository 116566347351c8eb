// oinfer-run's debugging aids: --list-ops, --dot, the --fetch name check and
// the --bench progress line.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "cli_options.h"
#include "oinfer/graph.h"
#include "oinfer/session.h"

namespace oinfer::cli {

// --list-ops: prints Graph::opsUsed of the file as loaded, counting the
// custom ops of `so` (--custom-ops) as supported (text or --json);
// returns the exit status.
int listOps(const Options& o, const Graph& g, const SessionOptions& so);

// --fetch names must be values of the file (a graph input or a node output);
// throws std::runtime_error naming the first that is not, with the closest name.
void checkFetchNames(const Options& o, const Graph& g);

// A progress line on stderr: rewritten in place on a terminal (and cleared at
// the end), else one line per update, at most every half second, and the last.
class Progress {
 public:
  explicit Progress(bool on);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  void update(const std::string& text, bool last);

 private:
  bool on_, tty_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point lastShown_{};
};

// A DOT string literal's contents: quotes and backslashes escaped, line
// breaks as \n, other control characters as spaces.
std::string dotEscape(const std::string& s);

// The graph as planned in Graphviz form: one box per plan step (op type, node
// name; fused ai.oinfer nodes filled orange, with the ops of `file` they
// replaced), graph inputs and outputs as ellipses, edges labelled with the
// tensor name and planned shape (and NCHW16c where kept blocked).
std::string graphToDot(const Graph& file, const Graph& planned, const PlanInfo& plan,
                       const std::map<std::string, std::vector<int64_t>>& inputShapes);

// Writes `text` to `path`; when `path` ends in .svg, renders it there with
// Graphviz `dot` instead, or, without `dot` on PATH, writes the text to the
// path with a .dot extension. Returns the file written and sets `format`
// ("svg" or "dot"). Throws std::runtime_error on failure.
std::string writeDot(const std::string& path, const std::string& text, std::string& format);

}  // namespace oinfer::cli
