#include "runtime/memory_planner.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>
#include <queue>
#include <set>

namespace oinfer {

namespace {

// Placement C: a sweep over time with a free list, as an allocator would do
// it. Requests in order of production; before each, the buffers whose last
// step has passed are freed (adjacent free blocks merged); the request takes
// the smallest free block that holds it (lowest offset among equals), else
// the arena grows (from the free block at its top, if any). O(n log n)
// whatever the number of buffers live together.
size_t placeBySweep(const std::vector<BufferRequest>& reqs, const std::vector<size_t>& byFirst,
                    const std::vector<size_t>& size, std::vector<size_t>& offsets) {
  std::map<size_t, size_t> freeByOffset;             // offset -> bytes
  std::set<std::pair<size_t, size_t>> freeBySize;    // (bytes, offset)
  using Expiry = std::pair<int, size_t>;             // (last step, request)
  std::priority_queue<Expiry, std::vector<Expiry>, std::greater<Expiry>> live;
  size_t arena = 0;
  auto addFree = [&](size_t off, size_t bytes) {
    auto next = freeByOffset.lower_bound(off);
    if (next != freeByOffset.end() && next->first == off + bytes) {
      bytes += next->second;
      freeBySize.erase({next->second, next->first});
      next = freeByOffset.erase(next);
    }
    if (next != freeByOffset.begin()) {
      auto prev = std::prev(next);
      if (prev->first + prev->second == off) {
        off = prev->first;
        bytes += prev->second;
        freeBySize.erase({prev->second, prev->first});
        freeByOffset.erase(prev);
      }
    }
    freeByOffset[off] = bytes;
    freeBySize.insert({bytes, off});
  };
  for (size_t i : byFirst) {
    const BufferRequest& r = reqs[i];
    const size_t sz = size[i];
    if (r.last < r.first || sz == 0) {  // never live, or empty: conflicts with nothing
      offsets[i] = 0;
      arena = std::max(arena, sz);  // still inside the arena, as A and B keep it
      continue;
    }
    while (!live.empty() && live.top().first < r.first) {
      const size_t j = live.top().second;
      live.pop();
      addFree(offsets[j], size[j]);
    }
    auto fit = freeBySize.lower_bound({sz, 0});
    if (fit != freeBySize.end()) {
      const auto [bytes, off] = *fit;
      freeBySize.erase(fit);
      freeByOffset.erase(off);
      if (bytes > sz) addFree(off + sz, bytes - sz);
      offsets[i] = off;
    } else if (!freeByOffset.empty() && std::prev(freeByOffset.end())->first + std::prev(freeByOffset.end())->second ==
                                            arena) {
      auto top = std::prev(freeByOffset.end());
      offsets[i] = top->first;
      freeBySize.erase({top->second, top->first});
      freeByOffset.erase(top);
      arena = offsets[i] + sz;
    } else {
      offsets[i] = arena;
      arena += sz;
    }
    live.push({r.last, i});
  }
  return arena;
}

}  // namespace

MemoryPlan planMemory(const std::vector<BufferRequest>& reqs, size_t alignment, size_t maxConflictWork) {
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
  //
  // The buffers a request conflicts with are found through two indexes over
  // all requests, not by a scan of the placed ones, so the work per request is
  // the number of requests live during its lifetime: those live at its first
  // step (a stabbing query on a segment tree over the distinct first steps),
  // and those produced after it but before its last step (a range of the
  // requests ordered by first step).
  std::vector<size_t> size(n);
  for (size_t i = 0; i < n; ++i) size[i] = aligned(reqs[i].bytes);
  std::vector<size_t> byFirst(n);
  std::iota(byFirst.begin(), byFirst.end(), 0);
  std::stable_sort(byFirst.begin(), byFirst.end(), [&](size_t a, size_t b) { return reqs[a].first < reqs[b].first; });
  std::vector<int> firsts;  // distinct first steps, ascending
  firsts.reserve(n);
  for (size_t i : byFirst)
    if (firsts.empty() || firsts.back() != reqs[i].first) firsts.push_back(reqs[i].first);
  const size_t m = firsts.size();
  size_t leaves = 1;
  while (leaves < m) leaves *= 2;
  // cover[node]: the requests whose [first, last] contains every first step
  // under `node` and not every one under its parent (the canonical cover).
  std::vector<std::vector<uint32_t>> cover(2 * leaves);
  for (size_t i = 0; i < n; ++i) {
    if (reqs[i].last < reqs[i].first) continue;  // never live: conflicts with nothing
    size_t lo = std::lower_bound(firsts.begin(), firsts.end(), reqs[i].first) - firsts.begin() + leaves;
    size_t hi = std::upper_bound(firsts.begin(), firsts.end(), reqs[i].last) - firsts.begin() + leaves;  // exclusive
    for (; lo < hi; lo /= 2, hi /= 2) {
      if (lo & 1) cover[lo++].push_back(static_cast<uint32_t>(i));
      if (hi & 1) cover[--hi].push_back(static_cast<uint32_t>(i));
    }
  }
  // Calls visit(j) for every request j != i whose lifetime meets i's.
  auto forEachConflict = [&](size_t i, auto&& visit) {
    const BufferRequest& r = reqs[i];
    if (r.last < r.first) return;
    const size_t leaf = std::lower_bound(firsts.begin(), firsts.end(), r.first) - firsts.begin();
    for (size_t node = leaf + leaves; node >= 1; node /= 2)
      for (uint32_t j : cover[node])
        if (j != i) visit(j);
    auto from = std::upper_bound(byFirst.begin(), byFirst.end(), r.first,
                                 [&](int f, size_t j) { return f < reqs[j].first; });
    for (auto it = from; it != byFirst.end() && reqs[*it].first <= r.last; ++it)
      if (reqs[*it].last >= reqs[*it].first) visit(*it);
  };

  // The conflict visits A and B would make: the sum over requests of the
  // requests live during each one's lifetime. Quadratic when many buffers
  // are live at once (one value fanned out to N nodes that one Concat reads);
  // past the budget the sweep placement C below is used instead.
  size_t work = 0;
  for (size_t i = 0; i < n && work <= maxConflictWork; ++i) {
    const BufferRequest& r = reqs[i];
    if (r.last < r.first) continue;
    const size_t leaf = std::lower_bound(firsts.begin(), firsts.end(), r.first) - firsts.begin();
    for (size_t node = leaf + leaves; node >= 1; node /= 2) work += cover[node].size();
    auto from = std::upper_bound(byFirst.begin(), byFirst.end(), r.first,
                                 [&](int f, size_t j) { return f < reqs[j].first; });
    auto to = std::upper_bound(from, byFirst.end(), r.last, [&](int f, size_t j) { return f < reqs[j].first; });
    work += static_cast<size_t>(to - from);
  }
  if (work > maxConflictWork) {
    plan.arenaBytes = placeBySweep(reqs, byFirst, size, plan.offsets);
    return plan;
  }

  auto place = [&](const std::vector<size_t>& order, bool edgesFirst, std::vector<size_t>& offsets) {
    size_t arena = 0;
    std::vector<char> placed(n, 0);
    std::vector<std::pair<size_t, size_t>> busy;  // [offset, end) of conflicting placed buffers
    for (size_t idx : order) {
      const size_t sz = size[idx];
      busy.clear();
      forEachConflict(idx, [&](size_t p) {
        if (placed[p] && size[p] > 0) busy.emplace_back(offsets[p], offsets[p] + size[p]);
      });
      std::sort(busy.begin(), busy.end());
      auto freeAt = [&](size_t off) {
        for (const auto& [b, e] : busy)
          if (b < off + sz && off < e) return false;
        return true;
      };
      size_t offset = 0;
      if (edgesFirst && sz > 0 && !freeAt(0) && sz <= plan.lowerBound && freeAt(plan.lowerBound - sz)) {
        offset = plan.lowerBound - sz;
      } else {
        for (const auto& [b, e] : busy) {
          if (b >= offset + sz) break;  // fits in the gap before this block
          offset = std::max(offset, e);
        }
      }
      offsets[idx] = offset;
      arena = std::max(arena, offset + sz);
      placed[idx] = 1;
    }
    return arena;
  };

  std::vector<size_t> bySize(n);
  std::iota(bySize.begin(), bySize.end(), 0);
  std::stable_sort(bySize.begin(), bySize.end(), [&](size_t a, size_t b) {
    if (size[a] != size[b]) return size[a] > size[b];
    return reqs[a].first < reqs[b].first;
  });
  const std::vector<size_t>& byTime = byFirst;
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
