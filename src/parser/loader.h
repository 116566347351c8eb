// The parser's entry points: an ONNX file or buffer -> ir::Graph. The only
// parser header the layers above include (no protobuf types).
#pragma once

#include <cstddef>
#include <string>

#include "graph/ir.h"

namespace oinfer::parser {

// Parses a .onnx file; external data resolved relative to its folder.
ir::Graph loadModelFile(const std::string& path);
// Parses a serialized ModelProto; external data refused unless baseDir is set.
ir::Graph loadModelBuffer(const void* data, size_t size, const std::string& baseDir);

}  // namespace oinfer::parser
