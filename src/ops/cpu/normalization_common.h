// Helpers shared by the normalization kernels: parameter tensors (any float
// type, per ONNX's T / T1 / T2 / U split) read as doubles, statistics written
// back in the output's type.
#pragma once

#include <vector>

#include "ops/kernel.h"

namespace oinfer::cpu {

inline std::vector<double> toDoubles(const Tensor& t) {
  std::vector<double> v(t.numel());
  for (int64_t i = 0; i < t.numel(); ++i) {
    switch (t.dtype()) {
      case DataType::kFloat: v[i] = t.data<float>()[i]; break;
      case DataType::kDouble: v[i] = t.data<double>()[i]; break;
      case DataType::kFloat16: v[i] = static_cast<float>(t.data<Float16>()[i]); break;
      case DataType::kBFloat16: v[i] = static_cast<float>(t.data<BFloat16>()[i]); break;
      default:
        throw Error(ErrorCode::kUnsupportedOp, std::string("normalization parameter of type ") +
                                                   dataTypeName(t.dtype()) + " is not supported");
    }
  }
  return v;
}

inline void fromDoubles(const std::vector<double>& v, Tensor& out, const KernelContext& ctx) {
  if (static_cast<int64_t>(v.size()) != out.numel())
    ctx.fail("statistics output of shape " + shapeToString(out.shape()) + " does not hold " + std::to_string(v.size()) + " values");
  for (size_t i = 0; i < v.size(); ++i) {
    switch (out.dtype()) {
      case DataType::kFloat: out.data<float>()[i] = static_cast<float>(v[i]); break;
      case DataType::kDouble: out.data<double>()[i] = v[i]; break;
      case DataType::kFloat16: out.data<Float16>()[i] = Float16(static_cast<float>(v[i])); break;
      case DataType::kBFloat16: out.data<BFloat16>()[i] = BFloat16(static_cast<float>(v[i])); break;
      default: ctx.fail(std::string("statistics output of type ") + dataTypeName(out.dtype()) + " is not supported");
    }
  }
}

}  // namespace oinfer::cpu
