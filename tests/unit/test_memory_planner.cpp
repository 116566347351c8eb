#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <random>

#include <cmath>

#include "passes/pass_util.h"
#include "oinfer/oinfer.h"
#include "runtime/memory_planner.h"
#include "ir_util.h"

using oinfer::BufferRequest;
using oinfer::planMemory;

namespace {

// No two buffers whose lifetimes intersect may overlap in memory.
void expectNoOverlap(const std::vector<BufferRequest>& reqs, const oinfer::MemoryPlan& plan, size_t align) {
  auto aligned = [&](size_t b) { return (b + align - 1) / align * align; };
  for (size_t a = 0; a < reqs.size(); ++a) {
    EXPECT_LE(plan.offsets[a] + aligned(reqs[a].bytes), plan.arenaBytes);
    EXPECT_EQ(plan.offsets[a] % align, 0u);
    for (size_t b = a + 1; b < reqs.size(); ++b) {
      // A request with last < first is never live (conflicts with nothing).
      bool liveTogether = reqs[a].first <= reqs[b].last && reqs[b].first <= reqs[a].last &&
                          reqs[a].first <= reqs[a].last && reqs[b].first <= reqs[b].last;
      if (!liveTogether || reqs[a].bytes == 0 || reqs[b].bytes == 0) continue;
      bool disjoint = plan.offsets[a] + reqs[a].bytes <= plan.offsets[b] ||
                      plan.offsets[b] + reqs[b].bytes <= plan.offsets[a];
      EXPECT_TRUE(disjoint) << "buffers " << a << " and " << b << " overlap";
    }
  }
}

}  // namespace

TEST(MemoryPlanner, Empty) {
  auto plan = planMemory({});
  EXPECT_EQ(plan.arenaBytes, 0u);
  EXPECT_EQ(plan.lowerBound, 0u);
}

TEST(MemoryPlanner, DisjointLifetimesShareMemory) {
  std::vector<BufferRequest> reqs = {{256, 0, 1}, {256, 2, 3}};
  auto plan = planMemory(reqs);
  EXPECT_EQ(plan.offsets[0], plan.offsets[1]);
  EXPECT_EQ(plan.arenaBytes, 256u);
  EXPECT_EQ(plan.lowerBound, 256u);
}

TEST(MemoryPlanner, OverlappingLifetimesDoNot) {
  std::vector<BufferRequest> reqs = {{100, 0, 2}, {100, 1, 3}};
  auto plan = planMemory(reqs, 64);
  expectNoOverlap(reqs, plan, 64);
  EXPECT_EQ(plan.arenaBytes, 256u);
  EXPECT_EQ(plan.lowerBound, 256u);
}

TEST(MemoryPlanner, ChainsReachTheLowerBound) {
  // A chain: buffer i is produced by step i and read by step i + 1.
  std::mt19937 rng(42);
  for (int trial = 0; trial < 500; ++trial) {
    int n = 1 + static_cast<int>(rng() % 30);
    std::vector<BufferRequest> reqs;
    for (int i = 0; i < n; ++i) reqs.push_back({static_cast<size_t>(1 + rng() % 10000), i, i + 1});
    auto plan = planMemory(reqs, 64);
    expectNoOverlap(reqs, plan, 64);
    EXPECT_EQ(plan.arenaBytes, plan.lowerBound) << "trial " << trial;
  }
}

TEST(MemoryPlanner, RandomDagsAreSafeAndAboveTheLowerBound) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    int steps = 2 + static_cast<int>(rng() % 40);
    std::vector<BufferRequest> reqs;
    for (int s = 0; s < steps; ++s) {
      int outs = 1 + static_cast<int>(rng() % 3);
      for (int o = 0; o < outs; ++o) {
        int last = s + static_cast<int>(rng() % (steps - s));
        reqs.push_back({static_cast<size_t>(rng() % 5000), s, last});
      }
    }
    auto plan = planMemory(reqs, 64);
    expectNoOverlap(reqs, plan, 64);
    EXPECT_GE(plan.arenaBytes, plan.lowerBound);
    size_t total = 0;
    for (auto& r : reqs) total += (r.bytes + 63) / 64 * 64;
    EXPECT_LE(plan.arenaBytes, total);
  }
}

// Placement C (the sweep with a free list), forced by a zero conflict-work
// budget: on random DAGs with zero sizes, never-live requests, gaps between
// steps and requests in any order, it never overlaps live buffers and stays
// between the lower bound and the sum of the sizes.
TEST(MemoryPlanner, SweepPlacementIsSafe) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 400; ++trial) {
    const int steps = 1 + static_cast<int>(rng() % 50);
    const int count = static_cast<int>(rng() % 150);
    std::vector<BufferRequest> reqs;
    for (int k = 0; k < count; ++k) {
      const int first = static_cast<int>(rng() % steps) * 2;
      const int span = rng() % 10 == 0 ? -1 : static_cast<int>(rng() % (rng() % 3 == 0 ? 2 * steps : 3));
      const size_t bytes = rng() % 8 == 0 ? 0 : rng() % 5000;
      reqs.push_back({bytes, first, first + span});
    }
    auto plan = planMemory(reqs, 64, 0);
    expectNoOverlap(reqs, plan, 64);
    EXPECT_GE(plan.arenaBytes, plan.lowerBound) << "trial " << trial;
    size_t total = 0;
    for (auto& r : reqs) total += (r.bytes + 63) / 64 * 64;
    EXPECT_LE(plan.arenaBytes, total) << "trial " << trial;
  }
}

// A freed block is reused, adjacent freed blocks merge, and a free block at
// the top of the arena grows instead of a new block being appended.
TEST(MemoryPlanner, SweepPlacementReusesAndMergesFreedBlocks) {
  // 0 and 1 die before 2 is produced: 2 (their size together) takes both.
  std::vector<BufferRequest> reqs = {{128, 0, 1}, {128, 0, 1}, {256, 2, 3}};
  auto plan = planMemory(reqs, 64, 0);
  EXPECT_EQ(plan.arenaBytes, 256u);
  EXPECT_EQ(plan.offsets[2], 0u);
  // 0 stays, 1 (on top of it) dies; 2 is larger than 1's block: the top grows.
  reqs = {{128, 0, 5}, {64, 0, 1}, {192, 2, 3}};
  plan = planMemory(reqs, 64, 0);
  expectNoOverlap(reqs, plan, 64);
  EXPECT_EQ(plan.offsets[2], 128u);
  EXPECT_EQ(plan.arenaBytes, 320u);
}

// Many buffers live together (one value fanned out to N readers, all read
// by one last node): past the conflict budget the sweep is used, and it
// reaches the lower bound (every buffer is live at the last step).
TEST(MemoryPlanner, FanOutPastTheBudgetReachesTheLowerBound) {
  const int n = 3000;  // ~4.5 million conflict visits
  std::vector<BufferRequest> reqs = {{4096, 0, n}};
  for (int i = 1; i <= n; ++i) reqs.push_back({static_cast<size_t>(64 * (1 + i % 7)), i, n + 1});
  auto plan = planMemory(reqs, 64, size_t{1} << 20);
  EXPECT_EQ(plan.arenaBytes, plan.lowerBound);
  // Under the budget the same requests get A or B, which also reach it.
  EXPECT_EQ(planMemory(reqs, 64).arenaBytes, plan.lowerBound);
}

namespace {

// The planner as it was before its conflict indexes (issue 23): every
// request compared with every placed one. The indexed planner must place
// every buffer exactly where this one does.
oinfer::MemoryPlan referencePlan(const std::vector<BufferRequest>& reqs, size_t alignment) {
  const size_t n = reqs.size();
  oinfer::MemoryPlan plan;
  plan.offsets.assign(n, 0);
  if (n == 0) return plan;
  auto aligned = [&](size_t b) { return (b + alignment - 1) / alignment * alignment; };
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
  auto conflicts = [&](size_t a, size_t b) { return reqs[a].first <= reqs[b].last && reqs[b].first <= reqs[a].last; };
  auto place = [&](const std::vector<size_t>& order, bool edgesFirst, std::vector<size_t>& offsets) {
    size_t arena = 0;
    std::vector<size_t> placed;
    std::vector<std::pair<size_t, size_t>> busy;
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
          if (b >= offset + size) break;
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

}  // namespace

// Requests in any order (not sorted by first step), with gaps between steps,
// long and short lifetimes, zero sizes and equal sizes: the same offsets,
// arena and lower bound as the all-pairs planner.
TEST(MemoryPlanner, IndexedPlacementMatchesTheAllPairsOne) {
  std::mt19937 rng(23);
  for (int trial = 0; trial < 400; ++trial) {
    const int steps = 1 + static_cast<int>(rng() % 60);
    const int count = static_cast<int>(rng() % 120);
    std::vector<BufferRequest> reqs;
    for (int k = 0; k < count; ++k) {
      const int first = static_cast<int>(rng() % steps) * 3;
      const int span = rng() % 4 == 0 ? static_cast<int>(rng() % (3 * steps)) : static_cast<int>(rng() % 4);
      const size_t bytes = rng() % 8 == 0 ? 0 : (rng() % 2 ? 64 * (1 + rng() % 4) : rng() % 5000);
      reqs.push_back({bytes, first, first + span});
    }
    for (size_t align : {size_t{64}, size_t{256}}) {
      const auto got = planMemory(reqs, align), want = referencePlan(reqs, align);
      ASSERT_EQ(got.offsets, want.offsets) << "trial " << trial;
      EXPECT_EQ(got.arenaBytes, want.arenaBytes);
      EXPECT_EQ(got.lowerBound, want.lowerBound);
    }
  }
}

namespace {

using namespace oinfer;

Node makeNode(const std::string& op, std::vector<std::string> in, std::vector<std::string> out, int64_t axis = -100) {
  Node n;
  n.opType = op;
  n.name = op + "_" + out[0];
  n.inputs = std::move(in);
  n.outputs = std::move(out);
  if (axis != -100) n.attributes.push_back(passes::util::intAttr("axis", axis));
  return n;
}

// out = Concat(Concat(Relu(x), Sigmoid(x)), Relu(x) + Relu(x)), along axis 1
// (or -3): the inner Concat's inputs are planned inside its output (a is
// read again after it, by the Add), the outer one's output is a result (not
// in the arena) so nothing is aliased into it, and the inner output, which
// holds aliases, is not aliased itself. Batch 1 and 2 (channels of a batch
// of 2 are not one piece: copied as before), and Concat(a, a) (one slot
// twice: copied).
ir::Graph concatGraph(int64_t axis, bool twice) {
  ir::Graph g;
  g.opsetImports[""] = 17;
  g.inputs.push_back(ValueInfo{"x", ValueKind::kTensor, DataType::kFloat, true, {Dim::sym("n"), 4, 6, 6}});
  g.nodes.push_back(makeNode("Relu", {"x"}, {"a"}));
  g.nodes.push_back(makeNode("Sigmoid", {"x"}, {"b"}));
  g.nodes.push_back(makeNode("Concat", {"a", twice ? "a" : "b"}, {"y"}, axis));
  g.nodes.push_back(makeNode("Add", {"a", "a"}, {"z"}));
  g.nodes.push_back(makeNode("Concat", {"y", "z"}, {"out"}, axis));
  g.outputs.push_back(ValueInfo{"out", ValueKind::kTensor, DataType::kUndefined, false, {}});
  return g;
}

TEST(ConcatInPlace, InputsProducedInsideTheOutput) {
  for (int64_t axis : {1, -3})
    for (bool twice : {false, true})
      for (int64_t n : {1, 2, 1}) {
        SCOPED_TRACE("axis " + std::to_string(axis) + (twice ? " Concat(a, a)" : "") + " batch " + std::to_string(n));
        Session s(wrap(concatGraph(axis, twice)));
        Tensor x(DataType::kFloat, {n, 4, 6, 6});
        for (int64_t i = 0; i < x.numel(); ++i) x.data<float>()[i] = std::sin(0.37f * float(i));
        const Tensor out = s.run({{"x", x}})[0];
        ASSERT_EQ(out.shape(), (std::vector<int64_t>{n, 12, 6, 6}));
        const int64_t plane = 36, img = 4 * plane;
        for (int64_t b = 0; b < n; ++b)
          for (int64_t i = 0; i < img; ++i) {
            const float v = x.data<float>()[b * img + i], relu = std::max(v, 0.f);
            const float* o = out.data<float>() + b * 3 * img;
            ASSERT_EQ(o[i], relu) << b << " " << i;
            ASSERT_NEAR(o[img + i], twice ? relu : 1.f / (1.f + std::exp(-v)), 1e-6f) << b << " " << i;
            ASSERT_EQ(o[2 * img + i], relu + relu) << b << " " << i;
          }
        // Batch 1, a and b inside y: the arena holds y (1152 bytes) and z
        // (576) at most; copying a and b into y needs them live beside it.
        const size_t arena = s.memoryStats().arenaBytes;
        if (n == 1 && !twice) EXPECT_EQ(arena, 1152u + 576u);
        if (n == 2 || twice) EXPECT_GT(arena, (n == 2 ? 2u : 1u) * (1152u + 576u));
      }
}

}  // namespace
