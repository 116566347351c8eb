// Resize's coordinate arithmetic, shared by the CPU and CUDA kernels (both
// build their index / weight tables on the host with it).
#pragma once

#include <cmath>
#include <cstdint>

#include "shape/resize.h"

namespace oinfer::shape {

// In float, as ONNX Runtime computes it: a coordinate that is an exact
// integer in float but not in double picks another pixel in nearest mode.
// `lenResized` is the spec's length_resized: scale * length_original when the
// node gives scales (fractional, e.g. 4 * 0.6 = 2.4), the integer output
// length when it gives sizes. The spec defines scale = length_resized /
// length_original, and onnx.reference and the backend node tests use the
// fractional length for align_corners / pytorch_half_pixel /
// tf_crop_and_resize; ONNX Runtime 1.32 uses the integer output length there,
// which gives other values whenever scale * length_original is not an integer.
inline double resizeSourceCoord(const ResizeParams& p, int64_t xi, double scaleD, int64_t inLen, int64_t outLen,
                   double lenResized, double roiStartD, double roiEndD) {
  const float x = static_cast<float>(xi);
  const float scale = static_cast<float>(scaleD);
  const float in = static_cast<float>(inLen), out = static_cast<float>(lenResized);
  const float roiStart = static_cast<float>(roiStartD), roiEnd = static_cast<float>(roiEndD);
  switch (p.coord) {
    case ResizeCoord::kAlignCorners:
      return out == 1 ? 0.f : x * (in - 1) / (out - 1);
    case ResizeCoord::kAsymmetric:
      return x / scale;
    case ResizeCoord::kTfCropAndResize:
      return out != 1 ? roiStart * (in - 1) + (x * (roiEnd - roiStart) * (in - 1)) / (out - 1)
                        : 0.5f * (roiStart + roiEnd) * (in - 1);
    case ResizeCoord::kPytorchHalfPixel:
      return out != 1 ? (x + 0.5f) / scale - 0.5f : 0.f;
    case ResizeCoord::kHalfPixelSymmetric:
      // offset + (x + 0.5) / scale - 0.5 with offset = in/2 * (1 - output_width_int / (scale * in)),
      // regrouped so the centre of an odd output maps exactly onto in/2 - 0.5.
      return in / 2 - 0.5f + (x + 0.5f - static_cast<float>(outLen) / 2) / scale;
    case ResizeCoord::kTfHalfPixelForNearest:
      return (x + 0.5f) / scale;
    case ResizeCoord::kHalfPixel:
    default:
      return (x + 0.5f) / scale - 0.5f;
  }
}

inline int64_t resizeNearestIndex(NearestMode m, double xo, double scale) {
  const double fl = std::floor(xo);
  const auto f = static_cast<int64_t>(fl);
  if (xo == fl) return f;
  const double r = xo - fl;
  switch (m) {
    case NearestMode::kRoundPreferFloor: return r <= 0.5 ? f : f + 1;
    case NearestMode::kRoundPreferCeil: return r < 0.5 ? f : f + 1;
    case NearestMode::kFloor: return f;
    case NearestMode::kCeil: return f + 1;
    case NearestMode::kLegacy:
    default: return scale < 1 ? f + 1 : f;
  }
}

}  // namespace oinfer::shape
