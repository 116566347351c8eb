// The activation memory planner: a pure function from buffer lifetimes to
// arena offsets.
//
// Input: one request per buffer, with its size and the inclusive range of
// execution steps [first, last] during which it must stay intact (produced at
// `first`, last read at `last`). Two buffers conflict when their ranges
// intersect; conflicting buffers must not overlap in memory.
//
// Method: sizes are rounded up to `alignment`, then two greedy placements
// are made and the smaller arena is kept:
//  A. Greedy by size: largest first (ties: earlier first step), each at the
//     lowest offset where it fits between the already placed buffers it
//     conflicts with.
//  B. Time order, edges first: in order of production, each at offset 0 if
//     free, else ending exactly at the lower bound if free, else first fit.
//
// Lower bound: the largest total of aligned sizes live at any one step. No
// placement can use less. B reaches it on chains (each buffer conflicting only
// with its neighbours: it alternates bottom and top, and neighbours fit since
// s_i + s_i+1 <= bound), where A alone can fall short; on DAGs A usually comes
// close. Neither is optimal in general (the problem is NP-hard), and buffers
// are never split or moved over time.
#pragma once

#include <cstddef>
#include <vector>

namespace oinfer {

struct BufferRequest {
  size_t bytes = 0;
  int first = 0;  // step that produces the buffer
  int last = 0;   // last step that reads it (>= first)
};

struct MemoryPlan {
  std::vector<size_t> offsets;  // one per request
  size_t arenaBytes = 0;
  size_t lowerBound = 0;
};

// Past `maxConflictWork` conflict visits (the sum over requests of the
// requests live during each one's lifetime; quadratic when many buffers are
// live together), A and B are skipped for C: a sweep in order of production
// with a free list (smallest free block that fits, else the arena grows),
// O(n log n) whatever the overlap.
constexpr size_t kDefaultMaxConflictWork = size_t{1} << 24;

MemoryPlan planMemory(const std::vector<BufferRequest>& requests, size_t alignment = 64,
                      size_t maxConflictWork = kDefaultMaxConflictWork);

}  // namespace oinfer
