#include "ops/cpu/lowbit.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "oinfer/error.h"

namespace oinfer::lowbit {

namespace {

// A minifloat layout. Codes without Inf use `nan` (OR-ed with the sign bit
// unless `unsignedZero`); fnuz types have no -0 and one NaN, 0x80.
struct Format {
  int mbits;
  int bias;
  float maxv;        // largest finite magnitude
  bool hasInf;       // e5m2 only
  bool hasNan;       // false for float4e2m1
  bool unsignedZero; // fnuz: 0x80 is NaN, -0 encodes as 0
  uint8_t nan;       // NaN code without the sign
  int signShift;     // 7 for 8-bit types, 3 for float4
};

const Format& format(DataType t) {
  static const Format e4m3fn{3, 7, 448.f, false, true, false, 0x7F, 7};
  static const Format e4m3fnuz{3, 8, 240.f, false, true, true, 0x80, 7};
  static const Format e5m2{2, 15, 57344.f, true, true, false, 0x7E, 7};
  static const Format e5m2fnuz{2, 16, 57344.f, false, true, true, 0x80, 7};
  static const Format e2m1{1, 1, 6.f, false, false, false, 0, 3};
  switch (t) {
    case DataType::kFloat8E4M3FN: return e4m3fn;
    case DataType::kFloat8E4M3FNUZ: return e4m3fnuz;
    case DataType::kFloat8E5M2: return e5m2;
    case DataType::kFloat8E5M2FNUZ: return e5m2fnuz;
    default: return e2m1;
  }
}

uint8_t nanCode(const Format& f, bool neg) {
  if (f.unsignedZero) return 0x80;
  return static_cast<uint8_t>(f.nan | (neg ? 1u << f.signShift : 0u));
}

uint8_t encodeMinifloat(const Format& f, float v, bool saturate) {
  const bool neg = std::signbit(v);
  const uint8_t sign = neg ? static_cast<uint8_t>(1u << f.signShift) : 0;
  if (std::isnan(v)) {
    // float4e2m1 has no NaN; ml_dtypes yields the zero of the opposite sign.
    if (!f.hasNan) return neg ? 0 : sign | static_cast<uint8_t>(1u << f.signShift);
    return nanCode(f, neg);
  }
  float a = std::fabs(v);
  if (std::isinf(a)) {
    if (saturate || !f.hasNan) return sign | encodeMinifloat(f, f.maxv, true);
    return f.hasInf ? static_cast<uint8_t>(sign | 0x7C) : nanCode(f, neg);
  }
  const int emin = 1 - f.bias;
  int e;
  std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
  e -= 1;             // a = 1.x * 2^e
  if (e < emin) e = emin;
  const float step = std::ldexp(1.f, e - f.mbits);
  float q = std::nearbyint(a / step) * step;  // ties to even under the default rounding mode
  if (q > f.maxv) {
    if (saturate || !f.hasNan) q = f.maxv;
    else return f.hasInf ? static_cast<uint8_t>(sign | 0x7C) : nanCode(f, neg);
  }
  if (q == 0.f) return f.unsignedZero ? 0 : sign;
  int qe;
  std::frexp(q, &qe);
  qe -= 1;
  uint8_t code;
  if (qe < emin) {
    code = static_cast<uint8_t>(std::lround(q / std::ldexp(1.f, emin - f.mbits)));
  } else {
    const int mant = static_cast<int>(std::lround(q / std::ldexp(1.f, qe - f.mbits))) - (1 << f.mbits);
    code = static_cast<uint8_t>(((qe + f.bias) << f.mbits) | mant);
  }
  return sign | code;
}

float decodeMinifloat(const Format& f, uint8_t code) {
  const int ebits = f.signShift - f.mbits;
  const bool neg = (code >> f.signShift) & 1;
  const int exp = (code >> f.mbits) & ((1 << ebits) - 1);
  const int mant = code & ((1 << f.mbits) - 1);
  if (f.unsignedZero) {
    if (code == 0x80) return std::numeric_limits<float>::quiet_NaN();
  } else if (f.hasInf) {
    if (exp == (1 << ebits) - 1)
      return mant == 0 ? (neg ? -INFINITY : INFINITY) : std::numeric_limits<float>::quiet_NaN();
  } else if (f.hasNan && (code & 0x7F) == 0x7F) {
    return std::numeric_limits<float>::quiet_NaN();
  }
  const float mag = exp == 0 ? std::ldexp(static_cast<float>(mant), 1 - f.bias - f.mbits)
                             : std::ldexp(1.f + static_cast<float>(mant) / (1 << f.mbits), exp - f.bias);
  return neg ? -mag : mag;
}

uint8_t encodeE8M0(float v, bool saturate, RoundMode rm) {
  uint32_t bits;
  std::memcpy(&bits, &v, 4);
  uint32_t exponent = (bits >> 23) & 0xFF;
  if (exponent == 0xFF) return 0xFF;
  bool up = false;
  if (rm == RoundMode::kNearest) {
    const bool g = bits & 0x400000, r = bits & 0x200000, s = bits & 0x1FFFFF, lsb = exponent > 0;
    up = g && (r || s || lsb);
  } else if (rm == RoundMode::kUp) {
    up = (bits & 0x7FFFFF) != 0;
  }
  if (up && saturate && exponent == 0xFE) up = false;
  return static_cast<uint8_t>(exponent + (up ? 1 : 0));
}

}  // namespace

bool isLowBitFloat(DataType t) {
  switch (t) {
    case DataType::kFloat8E4M3FN: case DataType::kFloat8E4M3FNUZ: case DataType::kFloat8E5M2:
    case DataType::kFloat8E5M2FNUZ: case DataType::kFloat8E8M0: case DataType::kFloat4E2M1: return true;
    default: return false;
  }
}

bool isLowBitInt(DataType t) {
  return t == DataType::kInt4 || t == DataType::kUInt4 || t == DataType::kInt2 || t == DataType::kUInt2;
}

bool isLowBit(DataType t) { return isLowBitFloat(t) || isLowBitInt(t); }

RoundMode parseRoundMode(const std::string& s) {
  if (s == "up") return RoundMode::kUp;
  if (s == "down") return RoundMode::kDown;
  if (s == "nearest") return RoundMode::kNearest;
  throw Error(ErrorCode::kInvalidModel, "round_mode must be 'up', 'down' or 'nearest', got '" + s + "'");
}

void intRange(DataType t, int64_t& lo, int64_t& hi) {
  switch (t) {
    case DataType::kInt4: lo = -8; hi = 7; return;
    case DataType::kUInt4: lo = 0; hi = 15; return;
    case DataType::kInt2: lo = -2; hi = 1; return;
    default: lo = 0; hi = 3; return;
  }
}

uint8_t fromIntWrap(DataType t, int64_t v) {
  const int bits = (t == DataType::kInt4 || t == DataType::kUInt4) ? 4 : 2;
  const int64_t m = v & ((int64_t(1) << bits) - 1);
  if (t == DataType::kInt4 || t == DataType::kInt2) {
    const int64_t half = int64_t(1) << (bits - 1);
    return static_cast<uint8_t>(static_cast<int8_t>((m ^ half) - half));
  }
  return static_cast<uint8_t>(m);
}

uint8_t fromIntSaturate(DataType t, int64_t v) {
  int64_t lo, hi;
  intRange(t, lo, hi);
  return static_cast<uint8_t>(static_cast<int8_t>(v < lo ? lo : (v > hi ? hi : v)));
}

float toFloat(DataType t, uint8_t code) {
  switch (t) {
    case DataType::kInt4: case DataType::kInt2: return static_cast<float>(static_cast<int8_t>(code));
    case DataType::kUInt4: case DataType::kUInt2: return static_cast<float>(code);
    case DataType::kFloat8E8M0:
      return code == 0xFF ? std::numeric_limits<float>::quiet_NaN() : std::ldexp(1.f, static_cast<int>(code) - 127);
    default: return decodeMinifloat(format(t), code);
  }
}

uint8_t fromFloat(DataType t, float v, bool saturate, RoundMode rm) {
  if (isLowBitInt(t)) {
    if (!std::isfinite(v)) return 0;
    const double d = std::trunc(static_cast<double>(v));
    return fromIntWrap(t, d > 1e18 || d < -1e18 ? 0 : static_cast<int64_t>(d));
  }
  if (t == DataType::kFloat8E8M0) return encodeE8M0(v, saturate, rm);
  return encodeMinifloat(format(t), v, saturate);
}

}  // namespace oinfer::lowbit
