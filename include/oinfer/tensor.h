// Data types, (symbolic) shapes and the Tensor value type of the public API.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "oinfer/error.h"

namespace oinfer {

// Values equal ONNX TensorProto.DataType.
enum class DataType : int32_t {
  kUndefined = 0,
  kFloat = 1,
  kUInt8 = 2,
  kInt8 = 3,
  kUInt16 = 4,
  kInt16 = 5,
  kInt32 = 6,
  kInt64 = 7,
  kString = 8,
  kBool = 9,
  kFloat16 = 10,
  kDouble = 11,
  kUInt32 = 12,
  kUInt64 = 13,
  kComplex64 = 14,
  kComplex128 = 15,
  kBFloat16 = 16,
  kFloat8E4M3FN = 17,
  kFloat8E4M3FNUZ = 18,
  kFloat8E5M2 = 19,
  kFloat8E5M2FNUZ = 20,
  kUInt4 = 21,
  kInt4 = 22,
  kFloat4E2M1 = 23,
  kFloat8E8M0 = 24,
  kUInt2 = 25,
  kInt2 = 26,
};

// Bytes per element in memory (sizeof(std::string) for kString; 1 for the
// 4-bit and 2-bit types, which oinfer keeps unpacked, one element per byte).
size_t dataTypeSize(DataType t);
// "float32", "int64", ... ; "undefined" for unknown values.
const char* dataTypeName(DataType t);
bool isValidDataType(int32_t value);

// IEEE half and bfloat16 storage types with float conversions.
struct Float16 {
  uint16_t bits = 0;
  Float16() = default;
  explicit Float16(float f);
  operator float() const;
};
struct BFloat16 {
  uint16_t bits = 0;
  BFloat16() = default;
  explicit BFloat16(float f);
  operator float() const;
};
float halfToFloat(uint16_t h);
uint16_t floatToHalf(float f);

template <class T> struct DataTypeOf;
#define OINFER_DTYPE_OF(T, V) \
  template <> struct DataTypeOf<T> { static constexpr DataType value = DataType::V; };
OINFER_DTYPE_OF(float, kFloat)
OINFER_DTYPE_OF(double, kDouble)
OINFER_DTYPE_OF(uint8_t, kUInt8)
OINFER_DTYPE_OF(int8_t, kInt8)
OINFER_DTYPE_OF(uint16_t, kUInt16)
OINFER_DTYPE_OF(int16_t, kInt16)
OINFER_DTYPE_OF(int32_t, kInt32)
OINFER_DTYPE_OF(int64_t, kInt64)
OINFER_DTYPE_OF(uint32_t, kUInt32)
OINFER_DTYPE_OF(uint64_t, kUInt64)
OINFER_DTYPE_OF(bool, kBool)
OINFER_DTYPE_OF(std::string, kString)
OINFER_DTYPE_OF(Float16, kFloat16)
OINFER_DTYPE_OF(BFloat16, kBFloat16)
#undef OINFER_DTYPE_OF
template <class T> inline constexpr DataType dataTypeOf = DataTypeOf<T>::value;

// One dimension of a model-level shape: a known size, or a named symbol
// ("batch"). Every unknown dim gets a symbol (fresh ones are "unk__N").
struct Dim {
  int64_t value = -1;  // >= 0 when static
  std::string symbol;  // set when symbolic

  Dim() = default;
  Dim(int64_t v) : value(v) {}  // NOLINT(implicit)
  static Dim sym(std::string name) {
    Dim d;
    d.symbol = std::move(name);
    return d;
  }
  bool isStatic() const { return value >= 0; }
  bool operator==(const Dim& o) const {
    return isStatic() ? o.value == value : (!o.isStatic() && o.symbol == symbol);
  }
  bool operator!=(const Dim& o) const { return !(*this == o); }
  std::string toString() const;
};
using Shape = std::vector<Dim>;

std::string shapeToString(const Shape& s);                 // "[batch,3,224,224]"
std::string shapeToString(const std::vector<int64_t>& s);  // "[1,3,224,224]"
bool isStatic(const Shape& s);
std::vector<int64_t> toStatic(const Shape& s);  // throws if any dim is symbolic
Shape toShape(const std::vector<int64_t>& s);
int64_t numElements(const std::vector<int64_t>& shape);  // throws on overflow/negative

// A dense, row-major n-d array. Storage is shared between copies of a Tensor
// (copying is cheap); clone() makes a deep copy. A Tensor either owns its
// storage (through a shared holder) or views memory owned by someone else.
class Tensor {
 public:
  Tensor() = default;
  // Owned, zero-initialised (empty strings for kString).
  Tensor(DataType dtype, std::vector<int64_t> shape);

  // Non-owning view of caller memory; the caller keeps it alive.
  static Tensor wrap(DataType dtype, std::vector<int64_t> shape, void* data);
  // View that keeps `holder` alive.
  static Tensor share(DataType dtype, std::vector<int64_t> shape,
                      std::shared_ptr<void> holder, void* data);
  template <class T>
  static Tensor fromVector(std::vector<int64_t> shape, const std::vector<T>& values) {
    Tensor t(dataTypeOf<T>, std::move(shape));
    if (static_cast<size_t>(t.numel()) != values.size())
      throw Error(ErrorCode::kInvalidArgument, "Tensor::fromVector: " +
                  std::to_string(values.size()) + " values for shape " + shapeToString(t.shape()));
    T* p = t.data<T>();
    for (size_t i = 0; i < values.size(); ++i) p[i] = values[i];
    return t;
  }
  template <class T>
  static Tensor scalar(T v) { return fromVector<T>({}, std::vector<T>{v}); }

  bool defined() const { return dtype_ != DataType::kUndefined; }
  DataType dtype() const { return dtype_; }
  const std::vector<int64_t>& shape() const { return shape_; }
  size_t rank() const { return shape_.size(); }
  int64_t dim(size_t i) const { return shape_.at(i); }
  int64_t numel() const { return numel_; }
  size_t nbytes() const { return static_cast<size_t>(numel_) * dataTypeSize(dtype_); }

  void* data() { return data_; }
  const void* data() const { return data_; }
  template <class T> T* data() { return static_cast<T*>(data_); }
  template <class T> const T* data() const { return static_cast<const T*>(data_); }

  // A view with another shape over the same storage (same element count).
  Tensor reshaped(std::vector<int64_t> shape) const;
  // Makes this tensor that view in place, reusing this object's shape buffer
  // (the runtime's per-run views then allocate nothing).
  void assignView(const Tensor& base, const std::vector<int64_t>& shape);
  Tensor clone() const;
  // Copies the elements of `src` (same dtype and element count) into this.
  void copyFrom(const Tensor& src);
  template <class T> std::vector<T> toVector() const {
    const T* p = data<T>();
    return std::vector<T>(p, p + numel_);
  }
  // Integer tensor (int8..uint64) values as int64.
  std::vector<int64_t> toInt64Vector() const;
  // Whether this tensor shares storage with `o`.
  bool sharesStorageWith(const Tensor& o) const { return storage_ && storage_ == o.storage_; }

 private:
  DataType dtype_ = DataType::kUndefined;
  std::vector<int64_t> shape_;
  int64_t numel_ = 0;
  std::shared_ptr<void> storage_;
  void* data_ = nullptr;
};

}  // namespace oinfer
