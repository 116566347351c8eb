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
    for (int64_t o = 0; o < g.out[s]; ++o) {
      TapRange& r = g.ranges[s][o];
      const int64_t start = o * g.s[s] - g.padBegin[s];
      r.lo = 0;
      while (r.lo < g.k[s] && start + r.lo * g.dil[s] < 0) ++r.lo;
      r.hi = r.lo;
      while (r.hi < g.k[s] && start + r.hi * g.dil[s] < g.img[s]) ++r.hi;
      r.start = start;
      r.padded = 0;
      for (int64_t t = 0; t < g.k[s]; ++t) {
        const int64_t c = start + t * g.dil[s];
        if (c >= -g.padBegin[s] && c < g.img[s] + g.padEnd[s]) ++r.padded;
      }
    }
  }
  return g;
}

}  // namespace oinfer::pool
