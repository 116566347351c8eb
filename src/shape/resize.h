// Resize / Upsample: attribute parsing and output-geometry rules shared by the
// shape function and the CPU kernel, so both agree on the output shape.
#pragma once

#include <cstdint>
#include <vector>

#include "graph/ir.h"
#include "shape/infer_context.h"

namespace oinfer::shape {

enum class ResizeMode { kNearest, kLinear, kCubic };
enum class ResizeCoord {
  kHalfPixel,
  kHalfPixelSymmetric,
  kPytorchHalfPixel,
  kAlignCorners,
  kAsymmetric,
  kTfHalfPixelForNearest,
  kTfCropAndResize,
};
// kLegacy is the pre-opset-11 rule (Upsample, Resize-10) that ONNX Runtime
// implements: ceil when downsampling an axis, floor otherwise.
enum class NearestMode { kRoundPreferFloor, kRoundPreferCeil, kFloor, kCeil, kLegacy };
enum class AspectPolicy { kStretch, kNotLarger, kNotSmaller };

struct ResizeParams {
  ResizeMode mode = ResizeMode::kNearest;
  ResizeCoord coord = ResizeCoord::kHalfPixel;
  NearestMode nearest = NearestMode::kRoundPreferFloor;
  double cubicA = -0.75;
  bool excludeOutside = false;
  float extrapolation = 0.f;
  bool antialias = false;
  std::vector<int64_t> axes;  // as written (may be negative); empty = all axes
  AspectPolicy policy = AspectPolicy::kStretch;
  // Input slots; -1 when the form has no such input.
  int roiInput = -1, scalesInput = -1, sizesInput = -1;
  bool scalesFromAttr = false;  // Upsample-1/7: scales are attributes
  std::vector<float> attrScales;
};

// Parses a Resize (any opset) or Upsample node. Throws Error(kInvalidModel)
// naming the node and attribute on an unknown attribute value.
ResizeParams parseResizeParams(const Node& node, int64_t opset);

// Normalised resize axes for a rank-`rank` input (every axis when unset).
std::vector<int64_t> resizeAxes(const Node& node, const ResizeParams& p, int64_t rank);

// The output dims and per-axis scale factors (1 on untouched axes) for static
// input dims and the scales or sizes values, exactly one of them non-null.
// Errors (wrong length, non-positive scale, negative size) name the node, the
// input and both lengths.
struct ResizeGeometry {
  std::vector<int64_t> outDims;
  std::vector<double> scales;
};
ResizeGeometry resolveResizeGeometry(const Node& node, const ResizeParams& p,
                                     const std::vector<int64_t>& inDims,
                                     const std::vector<int64_t>& axes,
                                     const std::vector<float>* scales,
                                     const std::vector<int64_t>* sizes);

void inferResize(InferContext& ctx);  // Resize and Upsample, every version

}  // namespace oinfer::shape
