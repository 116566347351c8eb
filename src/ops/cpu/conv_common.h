// Pieces shared by the Conv and ConvTranspose kernels: the geometry of one
// call in a canonical 3-d form, and the im2col gather / col2im scatter-add
// over a tile of column positions.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

#include "ops/registry.h"
#include "shape/conv.h"

namespace oinfer::conv {

// 1-d and 2-d problems are lifted to 3-d by prepending spatial dims of size 1
// (kernel 1, stride 1, no padding), so one set of loops serves every rank.
inline constexpr size_t kMaxSpatial = 3;

struct ConvGeom {
  int64_t N = 0, C = 0, M = 0, G = 1, Cg = 0, Mg = 0;
  // "image": the padded-and-windowed side (Conv input, ConvTranspose output).
  // "grid": the column positions of the GEMM (Conv output, ConvTranspose input).
  std::array<int64_t, kMaxSpatial> img{1, 1, 1}, grid{1, 1, 1}, k{1, 1, 1}, s{1, 1, 1}, dil{1, 1, 1},
      padBegin{0, 0, 0};
  int64_t K = 1, imgSize = 1, gridSize = 1;
  bool noPadding = true;  // every window lies fully inside the image
};

// Image coordinate of grid position g under kernel tap k along dim d.
inline int64_t tapCoord(const ConvGeom& g, size_t d, int64_t pos, int64_t tap) {
  return pos * g.s[d] - g.padBegin[d] + tap * g.dil[d];
}

// How many (padded) image positions the windows of all grid positions span
// along dim d: the extent of a zero-padded copy of what they read.
inline int64_t windowSpan(const ConvGeom& g, size_t d) {
  return (g.grid[d] - 1) * g.s[d] + (g.k[d] - 1) * g.dil[d] + 1;
}

// For each column row r = (channel c < channels, kernel tap) and each grid
// position p in [p0, p0 + len): kScatter == false copies the image value at
// the tap's coordinate into col[r * len + p - p0] (0 outside the image:
// padding); kScatter == true adds the col value into the image instead
// (dropping taps outside it).
template <bool kScatter, class T>
void transferTile(const ConvGeom& g, int64_t channels, T* img, T* col, int64_t p0, int64_t len) {
  struct Segment {
    int64_t off, gd, gh, gw, run;
  };
  std::vector<Segment> segs;
  {
    int64_t p = p0, end = p0 + len;
    while (p < end) {
      const int64_t gw = p % g.grid[2];
      const int64_t gh = (p / g.grid[2]) % g.grid[1];
      const int64_t gd = p / (g.grid[2] * g.grid[1]);
      const int64_t run = std::min(end - p, g.grid[2] - gw);
      segs.push_back({p - p0, gd, gh, gw, run});
      p += run;
    }
  }
  const int64_t s2 = g.s[2], W = g.img[2];
  int64_t row = 0;
  for (int64_t c = 0; c < channels; ++c) {
    T* plane = img + c * g.imgSize;
    for (int64_t kd = 0; kd < g.k[0]; ++kd)
      for (int64_t kh = 0; kh < g.k[1]; ++kh)
        for (int64_t kw = 0; kw < g.k[2]; ++kw, ++row) {
          T* colRow = col + row * len;
          for (const Segment& sg : segs) {
            T* cp = colRow + sg.off;
            const int64_t id = tapCoord(g, 0, sg.gd, kd), ih = tapCoord(g, 1, sg.gh, kh);
            if (id < 0 || id >= g.img[0] || ih < 0 || ih >= g.img[1]) {
              if constexpr (!kScatter) std::fill(cp, cp + sg.run, T(0));
              continue;
            }
            T* src = plane + (id * g.img[1] + ih) * W;
            const int64_t iw0 = tapCoord(g, 2, sg.gw, kw);
            // Valid j: 0 <= iw0 + j * s2 < W.
            int64_t jlo = iw0 < 0 ? (-iw0 + s2 - 1) / s2 : 0;
            int64_t jhi = iw0 >= W ? 0 : (W - 1 - iw0) / s2 + 1;
            jlo = std::min(jlo, sg.run);
            jhi = std::clamp(jhi, jlo, sg.run);
            if constexpr (kScatter) {
              for (int64_t j = jlo; j < jhi; ++j) src[iw0 + j * s2] += cp[j];
            } else {
              std::fill(cp, cp + jlo, T(0));
              if (s2 == 1) std::memcpy(cp + jlo, src + iw0 + jlo, (jhi - jlo) * sizeof(T));
              else
                for (int64_t j = jlo; j < jhi; ++j) cp[j] = src[iw0 + j * s2];
              std::fill(cp + jhi, cp + sg.run, T(0));
            }
          }
        }
  }
}

template <class T>
void im2col(const ConvGeom& g, int64_t channels, const T* img, T* col, int64_t p0, int64_t len) {
  transferTile<false>(g, channels, const_cast<T*>(img), col, p0, len);
}
template <class T>
void col2imAdd(const ConvGeom& g, int64_t channels, const T* col, T* img, int64_t p0, int64_t len) {
  transferTile<true>(g, channels, img, const_cast<T*>(col), p0, len);
}

// Canonical dims: the trailing `nd` of kMaxSpatial slots hold the real ones.
inline size_t slot(size_t nd, size_t d) { return kMaxSpatial - nd + d; }

// Splits `total` items into tiles of at least `minTile` so that `outer`
// independent jobs times the tile count reach about `want` tasks; also
// caps a tile at `maxTile`.
inline int64_t chooseTile(int64_t total, int64_t outer, int64_t want, int64_t minTile, int64_t maxTile) {
  int64_t tile = std::max<int64_t>(1, std::min(total, std::max(minTile, maxTile)));
  while (outer * ((total + tile - 1) / tile) < want && tile > minTile) tile = std::max(minTile, tile / 2);
  return tile;
}

void register_conv_transpose(Registry& r);

}  // namespace oinfer::conv
