// What the Conv family's kernel files share (conv.cpp: Conv / FusedConv;
// conv_fused.cpp: FusedConvDepthwise / FusedConvMaxPool): node-level error
// helpers and the geometry of a node's shapes. Internal to the cpu layer.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ops/cpu/conv_common.h"
#include "ops/cpu/conv_select.h"
#include "ops/kernel.h"
#include "ops/registry.h"
#include "shape/conv.h"

namespace oinfer::conv {

[[noreturn]] void fail(const Node& node, ErrorCode code, const std::string& msg);
// "input i ('name')".
std::string inputDesc(const Node& node, size_t i);
// Input i: the constant the plan kept (`kept`, when defined), else the
// run's tensor, else null (an absent optional input).
const Tensor* constOrInput(const Tensor& kept, const KernelContext& ctx, size_t i);
// The canonical 3-d geometry of a Conv node over input shape xs and weight
// shape ws (the node's input `weightInput`: 1 for Conv, 3 for QLinearConv);
// an Error naming the node and the input when they disagree.
ConvGeom convGeom(const Node& node, const shape::WindowAttrs& a, int64_t group, const std::vector<int64_t>& xs,
                  const std::vector<int64_t>& ws, size_t weightInput = 1);
// The NCHW and blocked depthwise kernels (no GEMM-packed weights).
bool isDepthwiseAlgorithm(ConvAlgorithm a);

// FusedConvDepthwise and FusedConvMaxPool (conv_fused.cpp).
void register_conv_fused(Registry& r);

}  // namespace oinfer::conv
