// oinfer-run's debugging aids: --list-ops, --dot, and the close-match hint of
// --fetch errors.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "oinfer/graph.h"
#include "oinfer/session.h"

namespace oinfer::cli {

// " (did you mean 'x'?)" for the closest of `names` within a third of the
// name's length (2 edits at least), else "".
std::string closeMatchHint(const std::string& name, const std::vector<std::string>& names);

// One (domain, op type) of a graph as loaded, with the opset the model
// imports for the domain and whether this build has a kernel for it.
struct OpUse {
  std::string domain;  // "ai.onnx" for the default domain
  std::string opType;
  int64_t opset = 0;
  int64_t nodes = 0;  // nodes of the main graph; 0: used only inside If / Loop / Scan bodies
  bool supported = true;
};
// Sorted by domain, then op type. Ops only inside subgraphs are listed when
// unsupported (Graph::unsupportedOps looks into subgraphs; nodes() does not).
std::vector<OpUse> opsUsed(const Graph& g);

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
