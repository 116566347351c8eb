// Pool geometry shared by the CPU and CUDA pool kernels: one pooling call in
// a canonical 3-d form, from the shared window arithmetic (shape/conv.h).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "graph/ir.h"
#include "shape/conv.h"
#include "shape/pool.h"

namespace oinfer::pool {

// The kernel taps [lo, hi) of one output coordinate that land inside the
// input, the coordinate of tap 0 (start), and how many taps land inside the
// explicitly padded input (count_include_pad's divisor).
struct TapRange {
  int64_t lo = 0, hi = 1, start = 0, padded = 1;
};

// One pooling call in canonical 3-d form (leading spatial dims of size 1).
struct PoolGeom {
  size_t nd = 0;
  int64_t planes = 0;  // N * C
  std::array<int64_t, 3> img{1, 1, 1}, out{1, 1, 1}, k{1, 1, 1}, s{1, 1, 1}, dil{1, 1, 1}, padBegin{0, 0, 0},
      padEnd{0, 0, 0};
  int64_t imgSize = 1, outSize = 1;
  std::array<std::vector<TapRange>, 3> ranges;
};

// The geometry of a pool over an input of shape xs; with `tapTables` false
// the per-coordinate TapRange tables are left empty (a device kernel that
// computes its taps itself). An input of other than 1 to 3 spatial dims is
// an Error naming the node.
PoolGeom poolGeom(const Node& node, const shape::WindowAttrs& a, const std::vector<int64_t>& xs,
                  bool tapTables = true);

}  // namespace oinfer::pool
