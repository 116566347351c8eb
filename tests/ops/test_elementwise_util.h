// Literals shared by the elementwise and activation op tests.
#pragma once

#include <limits>
#include <vector>

#include "oinfer/tensor.h"

namespace oinfer::testing {

inline constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
inline constexpr float kInf = std::numeric_limits<float>::infinity();

// A float16 tensor from float literals.
inline Tensor half(std::vector<int64_t> shape, const std::vector<float>& v) {
  std::vector<Float16> h;
  for (float f : v) h.push_back(Float16(f));
  return Tensor::fromVector<Float16>(std::move(shape), h);
}

}  // namespace oinfer::testing
