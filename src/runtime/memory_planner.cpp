#include "runtime/memory_planner.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace oinfer {

MemoryPlan planMemory(const std::vector<BufferRequest>& reqs, size_t alignment) {
  const size_t n = reqs.size();
  MemoryPlan plan;
  plan.offsets.assign(n, 0);
  if (n == 0) return plan;
  auto aligned = [&](size_t b) { return (b + alignment - 1) / alignment * alignment; };

  // Lower bound: sweep over steps with +size at first, -size after last.
  std::map<int, long long> delta;
  for (const auto& r : reqs) {
    delta[r.first] += static_cast<long long>(aligned(r.bytes));
    delta[r.last + 1] -= static_cast<long long>(aligned(r.bytes));
  }
  long long live = 0;
  for (const auto& [step, d] : delta) {
    live += d;
    plan.lowerBound = std::max(plan.lowerBound, static_cast<size_t>(live));
  }

  // Two placements; the smaller arena wins.
  //  A. Greedy by size: largest first, each at the lowest offset that fits
  //     between the conflicting buffers already placed.
  //  B. Time order, edges first: buffers in order of production, each at
  //     offset 0 if free, else ending exactly at the lower bound if free, else
  //     at the lowest offset that fits. On a chain this alternates bottom/top
  //     and reaches the lower bound (neighbours i, i+1 satisfy
  //     s_i + s_i+1 <= bound), where A can fall short.
  auto conflicts = [&](size_t a, size_t b) { return reqs[a].first <= reqs[b].last && reqs[b].first <= reqs[a].last; };
  auto place = [&](const std::vector<size_t>& order, bool edgesFirst, std::vector<size_t>& offsets) {
    size_t arena = 0;
    std::vector<size_t> placed;
    std::vector<std::pair<size_t, size_t>> busy;  // [offset, end) of conflicting placed buffers
    for (size_t idx : order) {
      const size_t size = aligned(reqs[idx].bytes);
      busy.clear();
      for (size_t p : placed)
        if (conflicts(p, idx) && aligned(reqs[p].bytes) > 0)
          busy.emplace_back(offsets[p], offsets[p] + aligned(reqs[p].bytes));
      std::sort(busy.begin(), busy.end());
      auto freeAt = [&](size_t off) {
        for (const auto& [b, e] : busy)
          if (b < off + size && off < e) return false;
        return true;
      };
      size_t offset = 0;
      if (edgesFirst && size > 0 && !freeAt(0) && size <= plan.lowerBound && freeAt(plan.lowerBound - size)) {
        offset = plan.lowerBound - size;
      } else {
        for (const auto& [b, e] : busy) {
          if (b >= offset + size) break;  // fits in the gap before this block
          offset = std::max(offset, e);
        }
      }
      offsets[idx] = offset;
      arena = std::max(arena, offset + size);
      placed.push_back(idx);
    }
    return arena;
  };

  std::vector<size_t> bySize(n), byTime(n);
  std::iota(bySize.begin(), bySize.end(), 0);
  std::iota(byTime.begin(), byTime.end(), 0);
  std::stable_sort(bySize.begin(), bySize.end(), [&](size_t a, size_t b) {
    if (aligned(reqs[a].bytes) != aligned(reqs[b].bytes)) return aligned(reqs[a].bytes) > aligned(reqs[b].bytes);
    return reqs[a].first < reqs[b].first;
  });
  std::stable_sort(byTime.begin(), byTime.end(), [&](size_t a, size_t b) { return reqs[a].first < reqs[b].first; });
  std::vector<size_t> offsetsB(n, 0);
  plan.arenaBytes = place(bySize, false, plan.offsets);
  size_t arenaB = place(byTime, true, offsetsB);
  if (arenaB < plan.arenaBytes) {
    plan.arenaBytes = arenaB;
    plan.offsets = std::move(offsetsB);
  }
  return plan;
}

}  // namespace oinfer
