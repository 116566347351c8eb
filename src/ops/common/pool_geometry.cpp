#include "ops/common/pool_geometry.h"

namespace oinfer::pool {

PoolGeom poolGeom(const Node& node, const shape::WindowAttrs& a, const std::vector<int64_t>& xs, bool tapTables) {
  const size_t nd = xs.size() - 2;
  if (xs.size() < 3 || nd > 3)
    throw Error(ErrorCode::kNotImplemented,
                node.describe() + ": input shape " + shapeToString(xs) + " must have 1 to 3 spatial dims");
  PoolGeom g;
  g.nd = nd;
  g.planes = xs[0] * xs[1];
  for (size_t d = 0; d < nd; ++d) {
    const size_t s = 3 - nd + d;
    const shape::WindowDim wd = shape::windowDim(node, a, d, xs[d + 2], a.kernel[d]);
    g.img[s] = xs[d + 2];
    g.out[s] = wd.out;
    g.k[s] = a.kernel[d];
    g.s[s] = a.strides[d];
    g.dil[s] = a.dilations[d];
    g.padBegin[s] = wd.padBegin;
    g.padEnd[s] = wd.padEnd;
  }
  for (size_t s = 0; s < 3; ++s) {
    g.imgSize *= g.img[s];
    g.outSize *= g.out[s];
    if (!tapTables) continue;
    g.ranges[s].resize(g.out[s]);
    // Each bound in closed form (a loop over the taps took hours for a
    // kernel_shape of 2^40, which SAME padding makes legal).
    const int64_t k = g.k[s], dil = g.dil[s];
    auto ceilDiv = [](int64_t a, int64_t b) { return a >= 0 ? a / b + (a % b != 0) : -((-a) / b); };
    auto clamp = [](int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : (v > hi ? hi : v); };
    for (int64_t o = 0; o < g.out[s]; ++o) {
      TapRange& r = g.ranges[s][o];
      const int64_t start = o * g.s[s] - g.padBegin[s];
      // Taps t in [0, k) at start + t * dil: inside [0, img) from lo to hi,
      // inside the explicitly padded [-padBegin, img + padEnd) `padded` of them.
      r.lo = clamp(ceilDiv(-start, dil), 0, k);
      r.hi = clamp(ceilDiv(g.img[s] - start, dil), r.lo, k);
      r.start = start;
      const int64_t pLo = clamp(ceilDiv(-g.padBegin[s] - start, dil), 0, k);
      const int64_t pHi = clamp(ceilDiv(g.img[s] + g.padEnd[s] - start, dil), 0, k);
      r.padded = pHi > pLo ? pHi - pLo : 0;
    }
  }
  return g;
}

}  // namespace oinfer::pool
