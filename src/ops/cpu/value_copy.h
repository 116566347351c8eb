// Element copies between tensors of any dtype (strings copied as strings), for
// the ops that move whole tensors or slices around: control flow and
// sequences.
#pragma once

#include <cstring>
#include <string>

#include "oinfer/tensor.h"
#include "ops/kernel.h"
#include "ops/registry.h"

namespace oinfer::cpu {

// Copies n elements from src (from element srcOff) to dst (from dstOff).
inline void copyElements(const Tensor& src, int64_t srcOff, Tensor& dst, int64_t dstOff, int64_t n) {
  if (n <= 0) return;
  if (src.dtype() == DataType::kString) {
    const auto* s = src.data<std::string>() + srcOff;
    auto* d = dst.data<std::string>() + dstOff;
    for (int64_t i = 0; i < n; ++i) d[i] = s[i];
    return;
  }
  const size_t es = dataTypeSize(src.dtype());
  std::memcpy(static_cast<uint8_t*>(dst.data()) + dstOff * es, static_cast<const uint8_t*>(src.data()) + srcOff * es,
              static_cast<size_t>(n) * es);
}

// Slice `index` of `src` along `axis`, the axis removed.
Tensor sliceAlong(const Tensor& src, int64_t axis, int64_t index);
// Stacks equally shaped `parts` along a new axis `axis` of the result.
Tensor stackAlong(const std::vector<Tensor>& parts, int64_t axis, DataType dtype, const std::vector<int64_t>& elemShape);

// Registers an op whose kernel handles values of every dtype (control flow,
// sequences, optionals) under each since_version; `foldable` false keeps
// shape inference from evaluating it.
void addValueOp(Registry& r, const std::string& op, std::initializer_list<int> versions, shape::ShapeFn fn,
                KernelFactory factory, bool foldable);

// Sets output i of a kernel to `v`: a tensor is moved into an unplanned output
// or copied into a planned one (the shapes must agree); a sequence or an empty
// optional becomes the output value.
void setOutputValue(KernelContext& ctx, size_t i, Value v);

}  // namespace oinfer::cpu
