#include "cli_tensor.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>

#include "oinfer/tensor_io.h"

namespace oinfer::cli {

bool isFloating(DataType t) {
  return t == DataType::kFloat || t == DataType::kDouble || t == DataType::kFloat16 || t == DataType::kBFloat16;
}

bool isNumeric(DataType t) {
  switch (t) {
    case DataType::kFloat: case DataType::kDouble: case DataType::kFloat16: case DataType::kBFloat16:
    case DataType::kInt8: case DataType::kInt16: case DataType::kInt32: case DataType::kInt64:
    case DataType::kUInt8: case DataType::kUInt16: case DataType::kUInt32: case DataType::kUInt64:
    case DataType::kBool:
      return true;
    default:
      return false;
  }
}

namespace {
template <class T>
void convert(const Tensor& t, std::vector<double>& out) {
  const T* p = t.data<T>();
  for (int64_t i = 0; i < t.numel(); ++i) out[i] = static_cast<double>(static_cast<T>(p[i]));
}
}  // namespace

std::vector<double> toDoubles(const Tensor& t) {
  std::vector<double> out(static_cast<size_t>(t.numel()));
  switch (t.dtype()) {
    case DataType::kFloat: convert<float>(t, out); break;
    case DataType::kDouble: convert<double>(t, out); break;
    case DataType::kFloat16:
      for (int64_t i = 0; i < t.numel(); ++i) out[i] = halfToFloat(t.data<uint16_t>()[i]);
      break;
    case DataType::kBFloat16:
      for (int64_t i = 0; i < t.numel(); ++i) out[i] = static_cast<float>(t.data<BFloat16>()[i]);
      break;
    case DataType::kInt8: convert<int8_t>(t, out); break;
    case DataType::kInt16: convert<int16_t>(t, out); break;
    case DataType::kInt32: convert<int32_t>(t, out); break;
    case DataType::kInt64: convert<int64_t>(t, out); break;
    case DataType::kUInt8: convert<uint8_t>(t, out); break;
    case DataType::kUInt16: convert<uint16_t>(t, out); break;
    case DataType::kUInt32: convert<uint32_t>(t, out); break;
    case DataType::kUInt64: convert<uint64_t>(t, out); break;
    case DataType::kBool:
      for (int64_t i = 0; i < t.numel(); ++i) out[i] = t.data<uint8_t>()[i] ? 1.0 : 0.0;
      break;
    default:
      throw Error(ErrorCode::kNotImplemented,
                  std::string("cannot read the elements of a ") + dataTypeName(t.dtype()) + " tensor as numbers");
  }
  return out;
}

Stats computeStats(const Tensor& t) {
  Stats s;
  s.count = t.numel();
  if (!isNumeric(t.dtype())) return s;
  std::vector<double> v = toDoubles(t);
  double sum = 0;
  int64_t n = 0;
  for (double x : v) {
    if (std::isnan(x)) {
      ++s.nanCount;
      continue;
    }
    if (n == 0) s.min = s.max = x;
    s.min = std::min(s.min, x);
    s.max = std::max(s.max, x);
    sum += x;
    ++n;
  }
  if (n > 0) {
    s.valid = true;
    s.mean = sum / static_cast<double>(n);
  }
  return s;
}

namespace {
// splitmix64: tiny, and the same sequence on every platform (std distributions are not).
uint64_t nextRandom(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

template <class T, class F>
void fill(Tensor& t, F make) {
  T* p = t.data<T>();
  for (int64_t i = 0; i < t.numel(); ++i) p[i] = make();
}
}  // namespace

Tensor randomTensor(DataType dtype, const std::vector<int64_t>& shape, const std::string& name) {
  if (dtype == DataType::kString || dtype == DataType::kComplex64 || dtype == DataType::kComplex128 ||
      dtype == DataType::kUndefined)
    throw Error(ErrorCode::kNotImplemented, std::string("cannot make random values of type ") + dataTypeName(dtype) +
                                                " for input '" + name + "'; give it with --input");
  uint64_t state = 0x5eed;  // the fixed seed, mixed with the input's name (FNV-1a)
  for (unsigned char c : name) state = (state ^ c) * 0x100000001b3ull;
  Tensor t(dtype, shape);
  auto uniform = [&] { return static_cast<double>(nextRandom(state) >> 11) * 0x1.0p-53 * 2.0 - 1.0; };
  auto small = [&] { return static_cast<int>(nextRandom(state) >> 62); };  // 0..3
  switch (dtype) {
    case DataType::kFloat: fill<float>(t, [&] { return static_cast<float>(uniform()); }); break;
    case DataType::kDouble: fill<double>(t, uniform); break;
    case DataType::kFloat16: fill<Float16>(t, [&] { return Float16(static_cast<float>(uniform())); }); break;
    case DataType::kBFloat16: fill<BFloat16>(t, [&] { return BFloat16(static_cast<float>(uniform())); }); break;
    case DataType::kInt8: fill<int8_t>(t, small); break;
    case DataType::kInt16: fill<int16_t>(t, small); break;
    case DataType::kInt32: fill<int32_t>(t, small); break;
    case DataType::kInt64: fill<int64_t>(t, small); break;
    case DataType::kUInt8: fill<uint8_t>(t, small); break;
    case DataType::kUInt16: fill<uint16_t>(t, small); break;
    case DataType::kUInt32: fill<uint32_t>(t, small); break;
    case DataType::kUInt64: fill<uint64_t>(t, small); break;
    case DataType::kBool: fill<uint8_t>(t, [&] { return static_cast<uint8_t>(nextRandom(state) >> 63); }); break;
    default: {
      // Remaining 1-byte float8 / int4 kinds: small byte patterns.
      auto* p = static_cast<uint8_t*>(t.data());
      for (size_t i = 0; i < t.nbytes(); ++i) p[i] = static_cast<uint8_t>(small());
    }
  }
  return t;
}

std::vector<std::pair<int64_t, double>> topK(const Tensor& t, int k) {
  std::vector<std::pair<int64_t, double>> all;
  if (!isNumeric(t.dtype())) return all;
  std::vector<double> v = toDoubles(t);
  for (size_t i = 0; i < v.size(); ++i)
    if (!std::isnan(v[i])) all.emplace_back(static_cast<int64_t>(i), v[i]);
  size_t n = std::min(all.size(), static_cast<size_t>(std::max(k, 0)));
  auto better = [](const auto& a, const auto& b) { return a.second > b.second || (a.second == b.second && a.first < b.first); };
  std::partial_sort(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(n), all.end(), better);
  all.resize(n);
  return all;
}

Comparison compareTensors(const Tensor& actual, const Tensor& expected, double rtol, double atol) {
  Comparison c;
  if (actual.dtype() != expected.dtype()) {
    c.match = false;
    c.message = std::string("dtype ") + dataTypeName(actual.dtype()) + ", expected " + dataTypeName(expected.dtype());
    return c;
  }
  if (actual.shape() != expected.shape()) {
    c.match = false;
    c.message = "shape " + shapeToString(actual.shape()) + ", expected " + shapeToString(expected.shape());
    return c;
  }
  const int64_t n = actual.numel();
  auto record = [&](int64_t i) {
    if (c.mismatches++ == 0) c.firstMismatch = i;
  };
  if (actual.dtype() == DataType::kString) {
    for (int64_t i = 0; i < n; ++i)
      if (actual.data<std::string>()[i] != expected.data<std::string>()[i]) record(i);
  } else if (!isNumeric(actual.dtype())) {
    // Bitwise for the kinds the CLI cannot read as numbers.
    size_t es = dataTypeSize(actual.dtype());
    for (int64_t i = 0; i < n; ++i)
      if (std::memcmp(static_cast<const char*>(actual.data()) + i * es,
                      static_cast<const char*>(expected.data()) + i * es, es) != 0)
        record(i);
  } else {
    std::vector<double> a = toDoubles(actual), e = toDoubles(expected);
    const bool exact = !isFloating(actual.dtype());
    const size_t es = dataTypeSize(actual.dtype());
    for (int64_t i = 0; i < n; ++i) {
      double x = a[i], y = e[i];
      bool ok;
      if (std::isnan(y) || std::isnan(x)) {
        ok = std::isnan(x) && std::isnan(y);
      } else if (std::isinf(y) || std::isinf(x)) {
        ok = x == y;
      } else if (exact) {
        // Integers compare bit for bit (int64 does not fit a double exactly).
        ok = std::memcmp(static_cast<const char*>(actual.data()) + i * es,
                         static_cast<const char*>(expected.data()) + i * es, es) == 0;
      } else {
        ok = std::fabs(x - y) <= atol + rtol * std::fabs(y);
      }
      if (!std::isnan(x) && !std::isnan(y) && std::isfinite(x - y)) {
        double abs = std::fabs(x - y);
        c.maxAbsError = std::max(c.maxAbsError, abs);
        if (y != 0) c.maxRelError = std::max(c.maxRelError, abs / std::fabs(y));
      } else if (!ok) {
        c.maxAbsError = c.maxRelError = std::numeric_limits<double>::infinity();
      }
      if (!ok) record(i);
    }
    if (c.mismatches > 0) {
      int64_t i = c.firstMismatch;
      char buf[160];
      std::snprintf(buf, sizeof buf, "; first at flat index %lld: got %.9g, expected %.9g",
                    static_cast<long long>(i), a[i], e[i]);
      c.message = std::to_string(c.mismatches) + " of " + std::to_string(n) + " elements outside tolerance" + buf;
    }
  }
  if (c.mismatches > 0) {
    c.match = false;
    if (c.message.empty())
      c.message = std::to_string(c.mismatches) + " of " + std::to_string(n) +
                  " elements differ; first at flat index " + std::to_string(c.firstMismatch);
  }
  return c;
}

Tensor loadTensorFile(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw Error(ErrorCode::kIO, path + ": no such file");
  if (std::filesystem::is_directory(path, ec)) throw Error(ErrorCode::kIO, path + ": is a directory");
  std::string ext = std::filesystem::path(path).extension().string();
  for (auto& ch : ext) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (ext == ".npy") return loadNpy(path);
  if (ext == ".pb") return loadTensorProto(path);
  throw Error(ErrorCode::kInvalidArgument, path + ": unknown file type '" + ext + "' (expected .npy or .pb)");
}

std::string sanitizeFileName(const std::string& name) {
  std::string out;
  for (unsigned char c : name) {
    bool keep = std::isalnum(c) || c == '.' || c == '_' || c == '-';
    out += keep ? static_cast<char>(c) : '_';
  }
  if (out.empty()) out = "output";
  if (out[0] == '.') out[0] = '_';
  if (out.size() > 200) out.resize(200);
  return out;
}

std::string describeShape(bool hasShape, const Shape& s) { return hasShape ? shapeToString(s) : "?"; }

}  // namespace oinfer::cli
