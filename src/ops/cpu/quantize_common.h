// Pieces shared by the quantize family's kernels (quantize.cpp,
// quantize_int.cpp): reading any numeric tensor as doubles, and integer
// zero points.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ops/registry.h"

namespace oinfer::quant {

// Every element as a double (float8/float4/int4... decoded); an Error naming
// the node for types that are not numeric.
std::vector<double> toDoubles(const Tensor& t, const Node& node);
// Every element as an int32 (integer types only).
std::vector<int32_t> toInt32(const Tensor& t, const Node& node);

std::string inputDesc(const Node& node, size_t i);

void register_quantize_int(Registry& r);

}  // namespace oinfer::quant
