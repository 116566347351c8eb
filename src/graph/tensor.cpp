#include "oinfer/tensor.h"
#include "oinfer/value.h"

#include <bit>
#include <cmath>
#include <limits>
#include <new>

namespace oinfer {

size_t dataTypeSize(DataType t) {
  switch (t) {
    case DataType::kFloat: case DataType::kInt32: case DataType::kUInt32: return 4;
    case DataType::kDouble: case DataType::kInt64: case DataType::kUInt64:
    case DataType::kComplex64: return 8;
    case DataType::kComplex128: return 16;
    case DataType::kFloat16: case DataType::kBFloat16: case DataType::kInt16:
    case DataType::kUInt16: return 2;
    case DataType::kUInt8: case DataType::kInt8: case DataType::kBool:
    case DataType::kFloat8E4M3FN: case DataType::kFloat8E4M3FNUZ: case DataType::kFloat8E5M2:
    case DataType::kFloat8E5M2FNUZ: case DataType::kUInt4: case DataType::kInt4:
    case DataType::kFloat4E2M1: case DataType::kFloat8E8M0: case DataType::kUInt2:
    case DataType::kInt2: return 1;
    case DataType::kString: return sizeof(std::string);
    case DataType::kUndefined: return 0;
  }
  return 0;
}

const char* dataTypeName(DataType t) {
  switch (t) {
    case DataType::kFloat: return "float32";
    case DataType::kUInt8: return "uint8";
    case DataType::kInt8: return "int8";
    case DataType::kUInt16: return "uint16";
    case DataType::kInt16: return "int16";
    case DataType::kInt32: return "int32";
    case DataType::kInt64: return "int64";
    case DataType::kString: return "string";
    case DataType::kBool: return "bool";
    case DataType::kFloat16: return "float16";
    case DataType::kDouble: return "float64";
    case DataType::kUInt32: return "uint32";
    case DataType::kUInt64: return "uint64";
    case DataType::kComplex64: return "complex64";
    case DataType::kComplex128: return "complex128";
    case DataType::kBFloat16: return "bfloat16";
    case DataType::kFloat8E4M3FN: return "float8e4m3fn";
    case DataType::kFloat8E4M3FNUZ: return "float8e4m3fnuz";
    case DataType::kFloat8E5M2: return "float8e5m2";
    case DataType::kFloat8E5M2FNUZ: return "float8e5m2fnuz";
    case DataType::kUInt4: return "uint4";
    case DataType::kInt4: return "int4";
    case DataType::kFloat4E2M1: return "float4e2m1";
    case DataType::kFloat8E8M0: return "float8e8m0";
    case DataType::kUInt2: return "uint2";
    case DataType::kInt2: return "int2";
    case DataType::kUndefined: return "undefined";
  }
  return "undefined";
}

bool isValidDataType(int32_t v) { return v >= 1 && v <= 26; }

float halfToFloat(uint16_t h) {
  uint32_t sign = (h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1f;
  uint32_t mant = h & 0x3ff;
  uint32_t bits;
  if (exp == 0) {
    if (mant == 0) {
      bits = sign;
    } else {  // subnormal: normalise
      int e = -1;
      do { ++e; mant <<= 1; } while ((mant & 0x400) == 0);
      bits = sign | (static_cast<uint32_t>(127 - 15 - e) << 23) | ((mant & 0x3ff) << 13);
    }
  } else if (exp == 0x1f) {
    bits = sign | 0x7f800000u | (mant << 13);
  } else {
    bits = sign | ((exp + 127 - 15) << 23) | (mant << 13);
  }
  return std::bit_cast<float>(bits);
}

uint16_t floatToHalf(float f) {
  uint32_t x = std::bit_cast<uint32_t>(f);
  uint32_t sign = (x >> 16) & 0x8000u;
  uint32_t absx = x & 0x7fffffffu;
  if (absx >= 0x7f800000u) return static_cast<uint16_t>(sign | 0x7c00u | (absx > 0x7f800000u ? 0x200u : 0));
  if (absx >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // overflow -> inf
  if (absx < 0x38800000u) {  // subnormal or zero in half
    // round to nearest even at the subnormal scale
    float a = std::bit_cast<float>(absx);
    float scaled = a * 16777216.0f;  // 2^24: half subnormal ulp = 2^-24
    uint32_t m = static_cast<uint32_t>(std::nearbyint(scaled));
    return static_cast<uint16_t>(sign | m);
  }
  uint32_t exp = (absx >> 23) - 127 + 15;
  uint32_t mant = absx & 0x7fffffu;
  uint32_t h = (exp << 10) | (mant >> 13);
  uint32_t rest = mant & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;  // round to nearest even
  return static_cast<uint16_t>(sign | h);
}

Float16::Float16(float f) : bits(floatToHalf(f)) {}
Float16::operator float() const { return halfToFloat(bits); }

BFloat16::BFloat16(float f) {
  uint32_t x = std::bit_cast<uint32_t>(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) {
    bits = static_cast<uint16_t>((x >> 16) | 0x40u);  // quiet NaN
  } else {
    uint32_t rounding = 0x7fffu + ((x >> 16) & 1u);
    bits = static_cast<uint16_t>((x + rounding) >> 16);
  }
}
BFloat16::operator float() const { return std::bit_cast<float>(static_cast<uint32_t>(bits) << 16); }

std::string Dim::toString() const { return isStatic() ? std::to_string(value) : (symbol.empty() ? "?" : symbol); }

std::string shapeToString(const Shape& s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? "," : "") + s[i].toString();
  return out + "]";
}
std::string shapeToString(const std::vector<int64_t>& s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? "," : "") + std::to_string(s[i]);
  return out + "]";
}
bool isStatic(const Shape& s) {
  for (const auto& d : s)
    if (!d.isStatic()) return false;
  return true;
}
std::vector<int64_t> toStatic(const Shape& s) {
  std::vector<int64_t> out;
  out.reserve(s.size());
  for (const auto& d : s) {
    if (!d.isStatic())
      throw Error(ErrorCode::kInternal, "shape " + shapeToString(s) + " is not static");
    out.push_back(d.value);
  }
  return out;
}
Shape toShape(const std::vector<int64_t>& s) { return Shape(s.begin(), s.end()); }

int64_t numElements(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0) throw Error(ErrorCode::kInvalidArgument, "negative dimension in shape " + shapeToString(shape));
    if (d != 0 && n > std::numeric_limits<int64_t>::max() / d)
      throw Error(ErrorCode::kInvalidArgument, "element count of shape " + shapeToString(shape) + " overflows");
    n *= d;
  }
  return n;
}

namespace {
std::shared_ptr<void> allocateStorage(DataType dtype, int64_t n) {
  if (dtype == DataType::kString) {
    auto* p = new std::string[static_cast<size_t>(n > 0 ? n : 1)];
    return std::shared_ptr<void>(p, [](void* q) { delete[] static_cast<std::string*>(q); });
  }
  size_t bytes = static_cast<size_t>(n) * dataTypeSize(dtype);
  // 64-byte aligned, zeroed; at least 1 byte so data() is never null.
  void* p = ::operator new[](bytes ? bytes : 1, std::align_val_t(64));
  std::memset(p, 0, bytes ? bytes : 1);
  return std::shared_ptr<void>(p, [](void* q) { ::operator delete[](q, std::align_val_t(64)); });
}
}  // namespace

Tensor::Tensor(DataType dtype, std::vector<int64_t> shape)
    : dtype_(dtype), shape_(std::move(shape)) {
  if (dataTypeSize(dtype) == 0)
    throw Error(ErrorCode::kInvalidArgument, "Tensor: undefined data type");
  numel_ = numElements(shape_);
  if (static_cast<uint64_t>(numel_) > (uint64_t(1) << 40) / dataTypeSize(dtype))
    throw Error(ErrorCode::kInvalidArgument, "Tensor: shape " + shapeToString(shape_) + " is too large to allocate");
  storage_ = allocateStorage(dtype, numel_);
  data_ = storage_.get();
}

Tensor Tensor::wrap(DataType dtype, std::vector<int64_t> shape, void* data) {
  Tensor t;
  t.dtype_ = dtype;
  t.shape_ = std::move(shape);
  t.numel_ = numElements(t.shape_);
  t.data_ = data;
  return t;
}

Tensor Tensor::share(DataType dtype, std::vector<int64_t> shape, std::shared_ptr<void> holder, void* data) {
  Tensor t = wrap(dtype, std::move(shape), data);
  t.storage_ = std::move(holder);
  return t;
}

Tensor Tensor::reshaped(std::vector<int64_t> shape) const {
  Tensor t = *this;
  int64_t n = numElements(shape);
  if (n != numel_)
    throw Error(ErrorCode::kShapeMismatch, "cannot reshape " + shapeToString(shape_) + " to " + shapeToString(shape));
  t.shape_ = std::move(shape);
  return t;
}

void Tensor::assignView(const Tensor& base, const std::vector<int64_t>& shape) {
  int64_t n = numElements(shape);
  if (n != base.numel_)
    throw Error(ErrorCode::kShapeMismatch,
                "cannot reshape " + shapeToString(base.shape_) + " to " + shapeToString(shape));
  dtype_ = base.dtype_;
  shape_.assign(shape.begin(), shape.end());
  numel_ = n;
  storage_ = base.storage_;
  data_ = base.data_;
}

Tensor Tensor::clone() const {
  if (!defined()) return Tensor();
  Tensor t(dtype_, shape_);
  t.copyFrom(*this);
  return t;
}

void Tensor::copyFrom(const Tensor& src) {
  if (src.dtype_ != dtype_ || src.numel_ != numel_)
    throw Error(ErrorCode::kInternal, "Tensor::copyFrom: mismatched tensors " + shapeToString(src.shape_) +
                                          " -> " + shapeToString(shape_));
  if (data_ == src.data_) return;
  if (dtype_ == DataType::kString) {
    const auto* s = src.data<std::string>();
    auto* d = data<std::string>();
    for (int64_t i = 0; i < numel_; ++i) d[i] = s[i];
  } else if (numel_ > 0) {
    std::memmove(data_, src.data_, nbytes());
  }
}

std::vector<int64_t> Tensor::toInt64Vector() const {
  std::vector<int64_t> out(static_cast<size_t>(numel_));
  auto fill = [&](auto* p) {
    for (int64_t i = 0; i < numel_; ++i) out[i] = static_cast<int64_t>(p[i]);
  };
  switch (dtype_) {
    case DataType::kInt64: fill(data<int64_t>()); break;
    case DataType::kInt32: fill(data<int32_t>()); break;
    case DataType::kInt16: fill(data<int16_t>()); break;
    case DataType::kInt8: fill(data<int8_t>()); break;
    case DataType::kUInt8: fill(data<uint8_t>()); break;
    case DataType::kUInt16: fill(data<uint16_t>()); break;
    case DataType::kUInt32: fill(data<uint32_t>()); break;
    case DataType::kUInt64: fill(data<uint64_t>()); break;
    case DataType::kBool: fill(data<bool>()); break;
    default:
      throw Error(ErrorCode::kTypeMismatch, std::string("expected an integer tensor, got ") + dataTypeName(dtype_));
  }
  return out;
}

}  // namespace oinfer

namespace oinfer {

std::string Value::describe() const {
  switch (kind) {
    case ValueKind::kTensor:
      return tensor.defined() ? std::string("tensor ") + dataTypeName(tensor.dtype()) + " " + shapeToString(tensor.shape())
                              : "undefined tensor";
    case ValueKind::kSequence: return "sequence of " + std::to_string(sequence.size()) + " tensors";
    case ValueKind::kOptional: return "empty optional";
    default: return "map";
  }
}

}  // namespace oinfer
