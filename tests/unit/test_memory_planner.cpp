#include <gtest/gtest.h>

#include <random>

#include "runtime/memory_planner.h"

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
      bool liveTogether = reqs[a].first <= reqs[b].last && reqs[b].first <= reqs[a].last;
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
