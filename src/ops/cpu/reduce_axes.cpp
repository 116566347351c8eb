#include "ops/cpu/reduce_axes.h"

namespace oinfer::cpu {

ReduceLayout makeReduceLayout(const std::vector<int64_t>& shape, const std::vector<bool>& reduced) {
  // Merged runs, outermost first.
  std::vector<int64_t> dims;
  std::vector<bool> kinds;
  bool empty = false;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 0) empty = true;
    if (shape[d] == 1) continue;
    if (!dims.empty() && kinds.back() == reduced[d]) {
      dims.back() *= shape[d];
    } else {
      dims.push_back(shape[d]);
      kinds.push_back(reduced[d]);
    }
  }
  ReduceLayout L;
  int64_t reducedRuns = 0;
  for (bool k : kinds) reducedRuns += k;
  for (size_t i = 0; i < dims.size(); ++i) (kinds[i] ? L.reduce : L.outputs) *= dims[i];
  if (reducedRuns <= 1 || empty) {
    // A zero-size tensor has nothing to read, so only the counts matter.
    size_t i = 0;
    for (; i < dims.size() && !kinds[i]; ++i) L.outer *= dims[i];
    if (i < dims.size()) ++i;
    for (; i < dims.size(); ++i) L.inner *= dims[i];
    if (empty) {
      L.outer = L.outputs;
      L.inner = 1;
    }
    return L;
  }
  L.simple = false;
  std::vector<int64_t> strides(dims.size());
  int64_t s = 1;
  for (size_t i = dims.size(); i-- > 0;) {
    strides[i] = s;
    s *= dims[i];
  }
  // Odometer over the dims of one kind, listing the offsets it visits.
  auto offsets = [&](bool kind, int64_t count) {
    std::vector<int64_t> offs(count);
    std::vector<int64_t> idx(dims.size(), 0);
    int64_t off = 0;
    for (int64_t n = 0; n < count; ++n) {
      offs[n] = off;
      for (size_t d = dims.size(); d-- > 0;) {
        if (kinds[d] != kind) continue;
        off += strides[d];
        if (++idx[d] < dims[d]) break;
        off -= strides[d] * dims[d];
        idx[d] = 0;
      }
    }
    return offs;
  };
  L.baseOffsets = offsets(false, L.outputs);
  L.reducedOffsets = offsets(true, L.reduce);
  return L;
}

std::vector<int64_t> broadcastOffsets(const std::vector<int64_t>& src, const std::vector<int64_t>& target,
                                      int64_t unit) {
  const size_t r = target.size();
  std::vector<int64_t> strides(r, 0);
  int64_t s = unit;
  for (size_t k = 0; k < src.size() && k < r; ++k) {
    const int64_t d = src[src.size() - 1 - k];
    strides[r - 1 - k] = d == 1 ? 0 : s;
    s *= d;
  }
  int64_t count = 1;
  for (int64_t d : target) count *= d;
  std::vector<int64_t> offs(count);
  std::vector<int64_t> idx(r, 0);
  int64_t off = 0;
  for (int64_t i = 0; i < count; ++i) {
    offs[i] = off;
    for (size_t d = r; d-- > 0;) {
      off += strides[d];
      if (++idx[d] < target[d]) break;
      off -= strides[d] * target[d];
      idx[d] = 0;
    }
  }
  return offs;
}

}  // namespace oinfer::cpu
