// Issue 23: huge graphs load, plan and run in time near-linear in their node
// count, and nesting beyond the documented limit is refused with a message
// that names the limit.
//
// The scaling tests are timings, which the unit tests otherwise never assert:
// they measure N and 10 N nodes in the same process, take the best of a few
// repetitions and allow 12x for the tenfold size (a quadratic step shows as
// about 100x), plus a generous absolute bound for the large size. They run
// as their own ctest (label "scaling"; tests/CMakeLists.txt).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

#include "hostile_graphs.h"
#include "oinfer/error.h"
#include "oinfer/graph.h"
#include "oinfer/session.h"

namespace oinfer {
namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// Load, Session (passes, shape inference), first run (plan and execution).
struct Timing {
  double load = 0, session = 0, run = 0;
  double total() const { return load + session + run; }
};

Timing timeModel(const std::string& bytes, const TensorMap& feeds) {
  Timing t;
  auto t0 = Clock::now();
  Graph g = Graph::loadFromBuffer(bytes.data(), bytes.size());
  t.load = secondsSince(t0);
  t0 = Clock::now();
  SessionOptions o;
  o.threads = 1;
  Session s(std::move(g), o);
  t.session = secondsSince(t0);
  t0 = Clock::now();
  auto outs = s.run(feeds);
  t.run = secondsSince(t0);
  EXPECT_EQ(outs.size(), 1u);
  return t;
}

Timing bestOf(int reps, const std::string& bytes, const TensorMap& feeds) {
  Timing best;
  for (int r = 0; r < reps; ++r) {
    Timing t = timeModel(bytes, feeds);
    if (r == 0 || t.total() < best.total()) best = t;
  }
  return best;
}

void report(const char* what, int n, const Timing& t) {
  std::printf("[ scaling  ] %s n=%d: load %.3f s, session %.3f s, first run %.3f s\n", what, n, t.load, t.session,
              t.run);
}

Tensor row(float v) {
  Tensor t(DataType::kFloat, {1, 4});
  for (int i = 0; i < 4; ++i) t.data<float>()[i] = v - float(i);
  return t;
}

TEST(GraphScaling, ChainOf200kNodesIsNearLinear) {
  const TensorMap feeds{{"x", row(1.f)}};
  const std::string small = test::chainModel(20000), large = test::chainModel(200000);
  const Timing ts = bestOf(3, small, feeds);
  const Timing tl = bestOf(2, large, feeds);
  report("chain", 20000, ts);
  report("chain", 200000, tl);
  EXPECT_LT(tl.total(), 20.0);
  EXPECT_LE(tl.total(), 12.0 * ts.total());
}

TEST(GraphScaling, SumOf100kInputsIsNearLinear) {
  auto feedsFor = [](int n) {
    TensorMap f;
    for (int i = 0; i < n; ++i) f.emplace("x" + std::to_string(i), row(float(i % 7)));
    return f;
  };
  const TensorMap fs = feedsFor(10000), fl = feedsFor(100000);
  const Timing ts = bestOf(3, test::wideSumModel(10000), fs);
  const Timing tl = bestOf(2, test::wideSumModel(100000), fl);
  report("sum", 10000, ts);
  report("sum", 100000, tl);
  EXPECT_LT(tl.total(), 20.0);
  EXPECT_LE(tl.total(), 12.0 * ts.total());
}

TEST(GraphScaling, FanOutIntoConcatIsNearLinear) {
  const TensorMap feeds{{"x", row(1.f)}};
  const Timing ts = bestOf(3, test::fanOutModel(5000), feeds);
  const Timing tl = bestOf(2, test::fanOutModel(50000), feeds);
  report("fan-out", 5000, ts);
  report("fan-out", 50000, tl);
  EXPECT_LT(tl.total(), 20.0);
  EXPECT_LE(tl.total(), 12.0 * ts.total());
}

}  // namespace
}  // namespace oinfer
