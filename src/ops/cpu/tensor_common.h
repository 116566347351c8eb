// Helpers shared by the tensor family's kernels: type dispatch by element
// size (these ops only move bytes), and one strided n-d copy that Transpose,
// Slice, Expand, Tile, Concat, Split and DepthToSpace are all expressed in.
#pragma once

#include <cstring>
#include <string>
#include <type_traits>
#include <initializer_list>
#include <vector>

#include "ops/common/slice.h"
#include "ops/cpu/dispatch.h"
#include "ops/registry.h"

namespace oinfer::tensor_ops {

struct Bytes16 {
  uint64_t lo, hi;
};

// Calls f(TypeTag<T>) with an unsigned integer type of the element's size, or
// std::string for string tensors.
template <class F>
void dispatchBytes(DataType dt, F&& f, const Node& node) {
  if (dt == DataType::kString) return f(TypeTag<std::string>{});
  switch (dataTypeSize(dt)) {
    case 1: return f(TypeTag<uint8_t>{});
    case 2: return f(TypeTag<uint16_t>{});
    case 4: return f(TypeTag<uint32_t>{});
    case 8: return f(TypeTag<uint64_t>{});
    case 16: return f(TypeTag<Bytes16>{});
    default:
      throw Error(ErrorCode::kUnsupportedOp, node.describe() + ": data type " + dataTypeName(dt) + " is not supported");
  }
}

template <class T>
inline void copyElems(const T* src, T* dst, int64_t n) {
  if constexpr (std::is_trivially_copyable_v<T>) {
    if (n > 0) std::memcpy(dst, src, static_cast<size_t>(n) * sizeof(T));
  } else {
    for (int64_t i = 0; i < n; ++i) dst[i] = src[i];
  }
}

std::vector<int64_t> rowMajorStrides(const std::vector<int64_t>& shape);
int64_t product(const std::vector<int64_t>& dims, size_t begin, size_t end);

// A read-only view of dims or strides: a vector, or a braced list at a call
// site (its backing array lives until the call returns). Copies of moved
// data then need no heap.
struct DimsRef {
  const int64_t* p;
  size_t n;
  DimsRef(const std::vector<int64_t>& v) : p(v.data()), n(v.size()) {}  // NOLINT(implicit)
  DimsRef(std::initializer_list<int64_t> l) : p(l.begin()), n(l.size()) {}  // NOLINT(implicit)
  size_t size() const { return n; }
  int64_t operator[](size_t i) const { return p[i]; }
};

// dst[sum idx*dstStrides] = src[sum idx*srcStrides] over every index of
// `shape` (strides in elements; src strides may be 0 or negative). Allocates
// nothing for ranks up to 16.
template <class T>
void stridedCopy(const T* src, DimsRef srcStrides, T* dst, DimsRef dstStrides, DimsRef shape, ThreadPool& pool);

// Type-erased form over whole tensors; offsets in elements.
void stridedCopy(const Tensor& src, int64_t srcOffset, DimsRef srcStrides, Tensor& dst, int64_t dstOffset,
                 DimsRef dstStrides, DimsRef shape, ThreadPool& pool, const Node& node);

// Every dtype a byte-moving op handles.
std::vector<DataType> allTypes();
// Numeric types plus bool (no string).
std::vector<DataType> numericTypes();

// Integer-valued inputs read at run time (int32/int64, or any numeric type
// for OneHot depth / indices).
std::vector<int64_t> readInts(const Tensor& t);


void register_tensor_slice(Registry& r);
void register_tensor_gather(Registry& r);
void register_tensor_cast(Registry& r);

}  // namespace oinfer::tensor_ops
