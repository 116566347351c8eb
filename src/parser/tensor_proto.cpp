// TensorProto / SparseTensorProto -> Tensor.
//
// Sizes are validated against what the message (or external file) actually
// holds before anything is allocated, so a proto claiming a huge shape fails
// with a message instead of a huge allocation. Sub-byte types (4-bit, 2-bit)
// are stored packed in ONNX and unpacked here, one element per byte: int4/int2
// sign-extended to int8, uint4/uint2 and float4e2m1 as their raw code.
// Little-endian host assumed (raw_data is little-endian by spec).
#include <cstdint>
#include <cstring>
#include <limits>

#include "parser/onnx_parser.h"

namespace oinfer::parser {
namespace {

bool isPacked4(DataType t) {
  return t == DataType::kUInt4 || t == DataType::kInt4 || t == DataType::kFloat4E2M1;
}
bool isPacked2(DataType t) { return t == DataType::kUInt2 || t == DataType::kInt2; }

// Bytes the serialized (packed) form of n elements occupies.
uint64_t storedBytes(DataType t, uint64_t n) {
  if (isPacked4(t)) return n / 2 + (n & 1);
  if (isPacked2(t)) return n / 4 + ((n & 3) ? 1 : 0);
  return n * dataTypeSize(t);  // n is bounded by the caller, no overflow
}

void unpackBits(const uint8_t* src, uint8_t* dst, int64_t n, DataType t) {
  if (isPacked4(t)) {
    for (int64_t i = 0; i < n; ++i) {
      uint8_t v = (i & 1) ? (src[i >> 1] >> 4) : (src[i >> 1] & 0xF);
      dst[i] = t == DataType::kInt4 ? static_cast<uint8_t>(static_cast<int8_t>((v ^ 8) - 8)) : v;
    }
  } else {
    for (int64_t i = 0; i < n; ++i) {
      uint8_t v = (src[i >> 2] >> (2 * (i & 3))) & 3;
      dst[i] = t == DataType::kInt2 ? static_cast<uint8_t>(static_cast<int8_t>((v ^ 2) - 2)) : v;
    }
  }
}

enum class Field { kFloat, kInt32, kString, kInt64, kDouble, kUInt64 };

Field fieldFor(DataType t) {
  switch (t) {
    case DataType::kFloat: case DataType::kComplex64: return Field::kFloat;
    case DataType::kString: return Field::kString;
    case DataType::kInt64: return Field::kInt64;
    case DataType::kDouble: case DataType::kComplex128: return Field::kDouble;
    case DataType::kUInt32: case DataType::kUInt64: return Field::kUInt64;
    default: return Field::kInt32;  // every other type is stored as int32 bits
  }
}

const char* fieldName(Field f) {
  switch (f) {
    case Field::kFloat: return "float_data";
    case Field::kInt32: return "int32_data";
    case Field::kString: return "string_data";
    case Field::kInt64: return "int64_data";
    case Field::kDouble: return "double_data";
    case Field::kUInt64: return "uint64_data";
  }
  return "?";
}

int64_t fieldCount(const onnx::TensorProto& tp, Field f) {
  switch (f) {
    case Field::kFloat: return tp.float_data_size();
    case Field::kInt32: return tp.int32_data_size();
    case Field::kString: return tp.string_data_size();
    case Field::kInt64: return tp.int64_data_size();
    case Field::kDouble: return tp.double_data_size();
    case Field::kUInt64: return tp.uint64_data_size();
  }
  return 0;
}

// Values the typed field must hold for n elements.
uint64_t expectedCount(DataType t, uint64_t n) {
  if (t == DataType::kComplex64 || t == DataType::kComplex128) return 2 * n;
  if (isPacked4(t) || isPacked2(t)) return storedBytes(t, n);
  return n;
}

std::string describeShape(const std::vector<int64_t>& dims, DataType t) {
  return "shape " + shapeToString(dims) + " of " + dataTypeName(t);
}

template <class Dst, class Src>
void castCopy(const Src& src, Tensor& t) {
  Dst* d = t.data<Dst>();
  for (int64_t i = 0; i < t.numel(); ++i) d[i] = static_cast<Dst>(src.Get(static_cast<int>(i)));
}

void fromInt32Field(const onnx::TensorProto& tp, Tensor& t) {
  const auto& src = tp.int32_data();
  const int64_t n = t.numel();
  switch (t.dtype()) {
    case DataType::kInt32: if (n) std::memcpy(t.data(), src.data(), n * 4); break;
    case DataType::kInt16: castCopy<int16_t>(src, t); break;
    case DataType::kUInt16: case DataType::kFloat16: case DataType::kBFloat16:
      castCopy<uint16_t>(src, t);
      break;
    case DataType::kInt8: castCopy<int8_t>(src, t); break;
    case DataType::kBool: {
      bool* d = t.data<bool>();
      for (int64_t i = 0; i < n; ++i) d[i] = src.Get(static_cast<int>(i)) != 0;
      break;
    }
    default:
      if (isPacked4(t.dtype()) || isPacked2(t.dtype())) {
        std::vector<uint8_t> bytes(static_cast<size_t>(src.size()));
        for (int i = 0; i < src.size(); ++i) bytes[i] = static_cast<uint8_t>(src.Get(i));
        unpackBits(bytes.data(), t.data<uint8_t>(), n, t.dtype());
      } else {  // uint8 and the 8-bit float formats: the low byte holds the bits
        castCopy<uint8_t>(src, t);
      }
  }
}

void fromTypedField(onnx::TensorProto& tp, Tensor& t) {
  const int64_t n = t.numel();
  switch (fieldFor(t.dtype())) {
    case Field::kFloat:
      if (n) std::memcpy(t.data(), tp.float_data().data(), tp.float_data_size() * sizeof(float));
      break;
    case Field::kDouble:
      if (n) std::memcpy(t.data(), tp.double_data().data(), tp.double_data_size() * sizeof(double));
      break;
    case Field::kInt64:
      if (n) std::memcpy(t.data(), tp.int64_data().data(), n * sizeof(int64_t));
      break;
    case Field::kUInt64:
      if (t.dtype() == DataType::kUInt64) {
        if (n) std::memcpy(t.data(), tp.uint64_data().data(), n * sizeof(uint64_t));
      } else {
        castCopy<uint32_t>(tp.uint64_data(), t);
      }
      break;
    case Field::kString: {
      auto* d = t.data<std::string>();
      for (int64_t i = 0; i < n; ++i) d[i] = std::move(*tp.mutable_string_data(static_cast<int>(i)));
      break;
    }
    case Field::kInt32: fromInt32Field(tp, t); break;
  }
}

// Below this size copying is cheaper than keeping a protobuf string alive.
constexpr uint64_t kAdoptMinBytes = 4096;

Tensor fromBytes(const uint8_t* p, DataType dtype, std::vector<int64_t> dims) {
  Tensor t(dtype, std::move(dims));
  const int64_t n = t.numel();
  if (isPacked4(dtype) || isPacked2(dtype)) {
    unpackBits(p, t.data<uint8_t>(), n, dtype);
  } else if (dtype == DataType::kBool) {
    // Any nonzero byte is true; a bool holding another bit pattern is UB.
    bool* d = t.data<bool>();
    for (int64_t i = 0; i < n; ++i) d[i] = p[i] != 0;
  } else if (n) {
    std::memcpy(t.data(), p, t.nbytes());
  }
  return t;
}

Tensor fromRawData(onnx::TensorProto& tp, DataType dtype, std::vector<int64_t> dims) {
  std::string& raw = *tp.mutable_raw_data();
  const bool plain = !isPacked4(dtype) && !isPacked2(dtype) && dtype != DataType::kBool;
  if (plain && raw.size() >= kAdoptMinBytes && reinterpret_cast<uintptr_t>(raw.data()) % 16 == 0) {
    // Take the parsed buffer over instead of copying it: the file's bytes are
    // then copied exactly once (by protobuf). Alignment is 16 (malloc's), not 64.
    std::shared_ptr<std::string> holder(tp.release_raw_data());
    void* p = holder->data();
    return Tensor::share(dtype, std::move(dims), std::shared_ptr<void>(holder, p), p);
  }
  return fromBytes(reinterpret_cast<const uint8_t*>(raw.data()), dtype, std::move(dims));
}

}  // namespace

Tensor convertTensor(onnx::TensorProto& tp, LoadContext& ctx, const std::string& what) {
  if (!tp.has_data_type() || !isValidDataType(tp.data_type()))
    fail(ctx, what + ": unsupported or missing data_type " + std::to_string(tp.data_type()));
  const DataType dtype = static_cast<DataType>(tp.data_type());
  if (tp.has_segment()) fail(ctx, what + ": segmented tensors are not supported");

  std::vector<int64_t> dims(tp.dims().begin(), tp.dims().end());
  // Overflow-checked count with a cap far above anything loadable, so the
  // byte-size products below cannot overflow either.
  constexpr uint64_t kMaxElements = uint64_t(1) << 56;
  uint64_t n = 1;
  for (int64_t d : dims) {
    if (d < 0) fail(ctx, what + ": negative dimension " + std::to_string(d) + " in dims " + shapeToString(dims));
    if (d != 0 && n > kMaxElements / static_cast<uint64_t>(d))
      fail(ctx, what + ": element count of dims " + shapeToString(dims) + " overflows");
    n *= static_cast<uint64_t>(d);
  }
  const uint64_t needBytes = dtype == DataType::kString ? 0 : storedBytes(dtype, n);

  if (tp.has_data_location() && tp.data_location() == onnx::TensorProto::EXTERNAL) {
    if (dtype == DataType::kString) fail(ctx, what + ": string tensors cannot use external data");
    if (isPacked4(dtype) || isPacked2(dtype) || dtype == DataType::kBool) {
      std::vector<uint8_t> packed;
      readExternalData(tp, ctx, what, nullptr, needBytes);  // validates before allocating
      packed.resize(needBytes);
      readExternalData(tp, ctx, what, packed.data(), needBytes);
      return fromBytes(packed.data(), dtype, std::move(dims));
    }
    Tensor mapped = mapExternalData(tp, ctx, what, dtype, dims, needBytes);
    if (mapped.data()) return mapped;
    readExternalData(tp, ctx, what, nullptr, needBytes);
    Tensor t(dtype, std::move(dims));
    readExternalData(tp, ctx, what, t.data(), needBytes);
    return t;
  }

  if (tp.has_raw_data()) {
    if (dtype == DataType::kString) fail(ctx, what + ": string tensors must use string_data, not raw_data");
    if (tp.raw_data().size() != needBytes)
      fail(ctx, what + ": raw_data has " + std::to_string(tp.raw_data().size()) + " bytes, " +
                    describeShape(dims, dtype) + " needs " + std::to_string(needBytes));
    return fromRawData(tp, dtype, std::move(dims));
  }

  const Field field = fieldFor(dtype);
  for (Field other : {Field::kFloat, Field::kInt32, Field::kString, Field::kInt64, Field::kDouble, Field::kUInt64}) {
    if (other != field && fieldCount(tp, other) > 0)
      fail(ctx, what + ": " + fieldName(other) + " is set but a " + dataTypeName(dtype) + " tensor uses " +
                    fieldName(field));
  }
  const uint64_t want = expectedCount(dtype, n);
  const uint64_t have = static_cast<uint64_t>(fieldCount(tp, field));
  if (have != want)
    fail(ctx, what + ": " + fieldName(field) + " has " + std::to_string(have) + " values, " +
                  describeShape(dims, dtype) + " needs " + std::to_string(want));
  Tensor t(dtype, std::move(dims));
  fromTypedField(tp, t);
  return t;
}

Tensor convertSparseTensor(onnx::SparseTensorProto& sp, LoadContext& ctx, const std::string& what) {
  Tensor values = convertTensor(*sp.mutable_values(), ctx, what + " values");
  std::vector<int64_t> dims(sp.dims().begin(), sp.dims().end());
  // A sparse tensor is tiny on disk but may claim a huge dense shape; refuse
  // to densify beyond 2 GiB rather than attempt the allocation.
  constexpr uint64_t kMaxDenseBytes = uint64_t(1) << 31;
  uint64_t dense = 1;
  for (int64_t d : dims) {
    if (d < 0) fail(ctx, what + ": negative dimension " + std::to_string(d) + " in dims " + shapeToString(dims));
    if (d != 0 && dense > kMaxDenseBytes / static_cast<uint64_t>(d))
      fail(ctx, what + ": dense shape " + shapeToString(dims) + " is too large");
    dense *= static_cast<uint64_t>(d);
  }
  if (dense * dataTypeSize(values.dtype()) > kMaxDenseBytes)
    fail(ctx, what + ": dense shape " + shapeToString(dims) + " is too large");
  if (values.rank() != 1) fail(ctx, what + ": values must be 1-D, got shape " + shapeToString(values.shape()));
  const int64_t nnz = values.dim(0);
  Tensor indices = convertTensor(*sp.mutable_indices(), ctx, what + " indices");
  if (indices.dtype() != DataType::kInt64)
    fail(ctx, what + ": indices must be int64, got " + dataTypeName(indices.dtype()));
  const int64_t rank = static_cast<int64_t>(dims.size());
  const bool linear = indices.rank() == 1;
  if (!(linear && indices.dim(0) == nnz) && !(indices.rank() == 2 && indices.dim(0) == nnz && indices.dim(1) == rank))
    fail(ctx, what + ": indices shape " + shapeToString(indices.shape()) + " does not match " +
                  std::to_string(nnz) + " values of a rank-" + std::to_string(rank) + " tensor");

  Tensor out(values.dtype(), dims);
  const int64_t* idx = indices.data<int64_t>();
  const size_t esize = dataTypeSize(values.dtype());
  for (int64_t k = 0; k < nnz; ++k) {
    int64_t pos = 0;
    if (linear) {
      pos = idx[k];
      if (pos < 0 || pos >= out.numel())
        fail(ctx, what + ": index " + std::to_string(pos) + " is out of range for shape " + shapeToString(dims));
    } else {
      for (int64_t j = 0; j < rank; ++j) {
        int64_t v = idx[k * rank + j];
        if (v < 0 || v >= dims[j])
          fail(ctx, what + ": index " + std::to_string(v) + " is out of range for dim " + std::to_string(j) +
                        " of shape " + shapeToString(dims));
        pos = pos * dims[j] + v;
      }
    }
    if (values.dtype() == DataType::kString)
      out.data<std::string>()[pos] = values.data<std::string>()[k];
    else
      std::memcpy(static_cast<uint8_t*>(out.data()) + pos * esize,
                  static_cast<const uint8_t*>(values.data()) + k * esize, esize);
  }
  return out;
}

}  // namespace oinfer::parser
