// Overflow-checked int64 arithmetic for element counts and dims that come
// from untrusted places (attributes, tensor values, model shapes). Each
// helper returns false (and leaves *out unspecified) when the exact result
// does not fit in int64; callers turn that into an error naming the node and
// the values involved.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

namespace oinfer {

[[nodiscard]] inline bool checkedMul(int64_t a, int64_t b, int64_t* out) { return !__builtin_mul_overflow(a, b, out); }
[[nodiscard]] inline bool checkedAdd(int64_t a, int64_t b, int64_t* out) { return !__builtin_add_overflow(a, b, out); }
[[nodiscard]] inline bool checkedSub(int64_t a, int64_t b, int64_t* out) { return !__builtin_sub_overflow(a, b, out); }

// a * b, or nullopt on overflow.
inline std::optional<int64_t> mulOrNull(int64_t a, int64_t b) {
  int64_t r;
  if (!checkedMul(a, b, &r)) return std::nullopt;
  return r;
}
inline std::optional<int64_t> addOrNull(int64_t a, int64_t b) {
  int64_t r;
  if (!checkedAdd(a, b, &r)) return std::nullopt;
  return r;
}

// The product of dims[begin, end); nullopt when a dim is negative or the
// product overflows.
inline std::optional<int64_t> checkedProduct(const std::vector<int64_t>& dims, size_t begin = 0,
                                             size_t end = static_cast<size_t>(-1)) {
  if (end > dims.size()) end = dims.size();
  int64_t n = 1;
  for (size_t k = begin; k < end; ++k) {
    if (dims[k] < 0 || !checkedMul(n, dims[k], &n)) return std::nullopt;
  }
  return n;
}

// A double in int64 range, truncated towards zero; nullopt for NaN, infinities and out-of-range values
// (where a plain static_cast is undefined behaviour).
inline std::optional<int64_t> doubleToInt64(double v) {
  // 2^63 is exactly representable; every double below it fits after truncation.
  constexpr double kTwo63 = 9223372036854775808.0;
  if (!(v >= -kTwo63 && v < kTwo63)) return std::nullopt;  // also rejects NaN
  return static_cast<int64_t>(v);
}

// The element count of Range(start, limit, delta) (delta != 0):
// max(ceil((limit - start) / delta), 0), computed exactly for integers
// (limit - start may not fit in int64) and refused (nullopt) when it does not
// fit in int64 or, for floats, is not finite.
inline std::optional<int64_t> rangeCount(int64_t start, int64_t limit, int64_t delta) {
  const __int128 span = static_cast<__int128>(limit) - start;
  if (delta == 0) return std::nullopt;
  if ((span > 0) != (delta > 0) || span == 0) return 0;
  const __int128 d = delta > 0 ? static_cast<__int128>(delta) : -static_cast<__int128>(delta);
  const __int128 s = span > 0 ? span : -span;
  const __int128 n = (s + d - 1) / d;
  if (n > static_cast<__int128>(INT64_MAX)) return std::nullopt;
  return static_cast<int64_t>(n);
}
inline std::optional<int64_t> rangeCount(double start, double limit, double delta) {
  if (delta == 0) return std::nullopt;
  const double n = std::ceil((limit - start) / delta);
  if (std::isnan(n)) return std::nullopt;
  if (n <= 0) return 0;
  return doubleToInt64(n);
}

}  // namespace oinfer
