// Shape functions of the conv family (Conv, ConvTranspose), and the sliding
// window arithmetic they share with the pool family (src/shape/pool.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "graph/ir.h"
#include "shape/infer_context.h"

namespace oinfer::shape {

enum class AutoPad { kNotSet, kSameUpper, kSameLower, kValid };

// The window attributes of one conv/pool node for `nd` spatial dims:
// kernel_shape, strides, dilations, pads (begins then ends), auto_pad,
// ceil_mode. Defaults follow the ONNX spec; `kernel` stays empty when the
// attribute is absent (Conv takes it from W).
struct WindowAttrs {
  std::vector<int64_t> kernel;
  std::vector<int64_t> strides;
  std::vector<int64_t> dilations;
  std::vector<int64_t> pads;  // 2 * nd
  AutoPad autoPad = AutoPad::kNotSet;
  bool ceilMode = false;
};

// Parses and validates the window attributes; an Error naming the node when a
// list has the wrong length or a value is out of range. `prefix` names a
// fused node's second window (FusedConvMaxPool's pool_kernel_shape, ...).
WindowAttrs parseWindowAttrs(const Node& node, size_t nd, bool requireKernel, const std::string& prefix = "");

// One spatial dim of a forward window op (Conv, pools): the output size for
// input size `in` and kernel `k`, with the pads actually applied (resolved
// from auto_pad). An Error naming the node when the output would be empty.
struct WindowDim {
  int64_t out, padBegin, padEnd;
};
WindowDim windowDim(const Node& node, const WindowAttrs& a, size_t d, int64_t in, int64_t k);

// One spatial dim of ConvTranspose. `outputShape` < 0 when the attribute is
// absent; otherwise it fixes the output size and the pads follow from it.
WindowDim transposeDim(const Node& node, const WindowAttrs& a, size_t d, int64_t in, int64_t k,
                       int64_t outputPadding, int64_t outputShape);

// Output dims of a forward window op over input dims (which may be symbolic):
// exact when static, the input's own symbol when the window maps a size to
// itself (stride 1 with pads adding up to the kernel extent - 1, or SAME with
// stride 1), otherwise a fresh symbol. `kernel` entries < 0 are unknown.
Shape windowOutputDims(InferContext& ctx, const WindowAttrs& a, const Shape& spatialIn,
                       const std::vector<int64_t>& kernel);

void inferConv(InferContext& ctx);
void inferConvTranspose(InferContext& ctx);
void inferFusedConvDepthwise(InferContext& ctx);  // ai.oinfer (fuse_conv_depthwise pass)
void inferFusedConvMaxPool(InferContext& ctx);    // ai.oinfer (fuse_conv_maxpool pass)

}  // namespace oinfer::shape
