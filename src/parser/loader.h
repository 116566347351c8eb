// The parser's entry points: an ONNX file or buffer -> ir::Graph. The only
// parser header the layers above include (no protobuf types).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "graph/ir.h"
#include "oinfer/graph.h"

namespace oinfer::parser {

// The size limits of a model the loader accepts, each refused with an Error
// that names the limit and the model's value:
//  - subgraph nesting: If / Loop / Scan bodies (and attribute graphs) inside
//    each other at most kMaxGraphNesting deep (the main graph is depth 0).
//    Loading, shape inference, planning and execution recurse once per
//    level; the protobuf parser allows a few levels more, so that a model
//    just past the limit is refused by this check, not as a corrupt file;
//  - nodes: at most kMaxModelNodes in all graphs of the model together
//    (functions inlined). Every later stage is near-linear in this count
//    (tools/bench/TUNING.md, Planning time).
inline constexpr int kMaxGraphNesting = 64;
inline constexpr int64_t kMaxModelNodes = 10'000'000;
struct LoadLimits {
  int maxGraphNesting = kMaxGraphNesting;
  int64_t maxNodes = kMaxModelNodes;
};

// Parses a .onnx file; external data resolved relative to its folder.
ir::Graph loadModelFile(const std::string& path, const LoadOptions& options = {});
// Parses a serialized ModelProto; external data refused unless baseDir is set.
// `limits` lower the default limits (for the tests); it cannot raise them.
ir::Graph loadModelBuffer(const void* data, size_t size, const std::string& baseDir, const LoadLimits& limits = {},
                          const LoadOptions& options = {});

}  // namespace oinfer::parser
