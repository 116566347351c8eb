// Branch-free float approximations that GCC vectorises inside the plain map
// loops (std::exp/tanh are library calls it cannot). Accuracy is within a
// few ulp of the libm results over the float range, well inside the ONNX
// backend tolerances.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

namespace oinfer::cpu {

// e^x: range reduction x = n ln2 + r with ln2 split in two parts (Cody-Waite),
// a degree-6 polynomial for e^r (the Cephes expf coefficients), 2^n built in
// the exponent bits. Inputs are clamped so 2^n stays a normal float: results
// saturate at about 2.4e38 and 1.2e-38 instead of inf and 0.
inline float fastExp(float x) {
  x = std::min(std::max(x, -87.33654f), 88.37626f);
  const float n = std::floor(x * 1.44269504088896341f + 0.5f);
  float r = x - n * 0.693359375f;
  r = r + n * 2.12194440e-4f;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  const float y = p * r * r + r + 1.0f;
  // A NaN x passes the clamp and gives a NaN y; its n must not reach the
  // int cast (undefined for NaN), so it becomes 0 (a select, still vectorised).
  const float nn = n == n ? n : 0.f;
  return y * std::bit_cast<float>((static_cast<int32_t>(nn) + 127) << 23);
}

// tanh through e^-2|x|; near 0 the odd Taylor series avoids the cancellation
// in 1 - e^-2|x|.
inline float fastTanh(float x) {
  const float ax = std::fabs(x);
  const float e = fastExp(-2.f * ax);
  const float big = (1.f - e) / (1.f + e);
  const float x2 = ax * ax;
  const float small = ax * (1.f + x2 * (-1.f / 3.f + x2 * (2.f / 15.f + x2 * (-17.f / 315.f))));
  return std::copysign(ax < 0.1f ? small : big, x);
}

// erf: x * P(x^2) below 1; 1 - e^-x^2 * Q(x - 2.5) on [1, 4] (erf is 1 in
// float beyond 3.92). Least-squares fits on Chebyshev nodes against double
// erf; max error about 2e-7 relative below 1 and 1e-7 absolute above.
inline float fastErf(float x) {
  const float ax = std::min(std::fabs(x), 4.f);
  const float t = ax * ax;
  float p = -5.696513107977808e-4f;
  p = p * t + 4.934471566230059e-3f;
  p = p * t - 2.6726949959993362e-2f;
  p = p * t + 0.11280787736177444f;
  p = p * t - 0.37612414360046387f;
  p = p * t + 1.1283791065216064f;
  const float u = ax - 2.5f;
  float q = 1.6718327060516458e-6f;
  q = q * u - 6.3862098613753915e-6f;
  q = q * u + 1.4353506230690982e-5f;
  q = q * u - 5.358525231713429e-5f;
  q = q * u + 2.1297235798556358e-4f;
  q = q * u - 7.389984093606472e-4f;
  q = q * u + 2.465982222929597e-3f;
  q = q * u - 7.999344728887081e-3f;
  q = q * u + 2.4938203394412994e-2f;
  q = q * u - 7.43476003408432e-2f;
  q = q * u + 0.21080635488033295f;
  const float big = 1.f - fastExp(-t) * q;
  return std::copysign(ax < 1.f ? ax * p : big, x);
}

inline float fastSigmoid(float x) { return 1.f / (1.f + fastExp(-x)); }

}  // namespace oinfer::cpu
