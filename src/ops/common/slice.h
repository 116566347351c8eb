// Slice's parameters and window, shared by the CPU and CUDA Slice kernels.
#pragma once

#include <cstdint>
#include <vector>

#include "ops/kernel.h"

namespace oinfer::tensor_ops {

// Slice's parameters: attributes before opset 10, inputs 1-4 from then on.
// Shared by the CPU and CUDA Slice kernels.
struct SliceParams {
  bool fromAttrs = false;
  bool hasAxes = false;
  std::vector<int64_t> starts, ends, axes;
  static SliceParams fromInit(const KernelInit& init);
};
// The strided window Slice reads: output shape, element offset of its first
// element and per-axis input strides (in elements), for an input of
// `inShape` laid out with `inStrides`. Follows ONNX's clamping rules; errors
// name the node.
struct SliceWindow {
  std::vector<int64_t> shape, strides;
  int64_t offset = 0;
};
SliceWindow resolveSlice(const KernelContext& ctx, const SliceParams& p, const std::vector<int64_t>& inShape,
                         const std::vector<int64_t>& inStrides);

}  // namespace oinfer::tensor_ops
