// Conversions for the element types oinfer keeps unpacked, one per byte:
// float8 (e4m3fn, e4m3fnuz, e5m2, e5m2fnuz, e8m0), float4e2m1 (raw codes)
// and int4/uint4/int2/uint2 (signed ones sign-extended to int8, unsigned as
// their value). Rounding and overflow follow the ONNX reference (ml_dtypes):
// round to nearest even; Cast's `saturate` clamps finite overflow and
// infinities to the largest finite value, otherwise overflow becomes Inf
// (e5m2) or NaN (types without Inf).
#pragma once

#include <cstdint>
#include <string>

#include "oinfer/tensor.h"

namespace oinfer::lowbit {

enum class RoundMode { kUp, kDown, kNearest };  // float8e8m0 only

// float8*, float4e2m1, int4/uint4/int2/uint2.
bool isLowBit(DataType t);
bool isLowBitFloat(DataType t);  // float8*, float4e2m1
bool isLowBitInt(DataType t);    // int4/uint4/int2/uint2
// Parses Cast's round_mode attribute ("up", "down", "nearest"); throws otherwise.
RoundMode parseRoundMode(const std::string& s);

// Decodes one stored byte of a low-bit type.
float toFloat(DataType t, uint8_t code);
// Encodes a float as Cast does: floats round to nearest even (saturate as
// above); int4/uint4/int2/uint2 truncate toward zero and wrap (ml_dtypes).
uint8_t fromFloat(DataType t, float v, bool saturate = true, RoundMode rm = RoundMode::kUp);
// An integer into a low-bit int type, wrapping (what an integer Cast does).
uint8_t fromIntWrap(DataType t, int64_t v);
// An integer clamped to a low-bit int type's range (quantization).
uint8_t fromIntSaturate(DataType t, int64_t v);
// The range of a low-bit int type.
void intRange(DataType t, int64_t& lo, int64_t& hi);

}  // namespace oinfer::lowbit
