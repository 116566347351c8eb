// The plan cache (SessionOptions::planCacheSize): shape-specialized plans up
// to the cache size, a shape-generic plan for signatures not admitted, and
// admission by use count. Every run's result is checked against the
// computation done by hand, whichever plan ran it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <thread>
#include <vector>

#include "loader_test_util.h"
#include "oinfer/session.h"

namespace {

using namespace loader_test;
using onnx::AttributeProto;
using onnx::TensorProto;

// x [n, 4] -> MatMul W [4, 3] -> Add b -> Relu -> Reshape to [n*3] -> y,
// plus Shape(x) -> s (a value that depends on the input's shape).
onnx::ModelProto model() {
  onnx::ModelProto m = modelWithOpset(17);
  auto* g = m.mutable_graph();
  vi(g->mutable_input(), "x", TensorProto::FLOAT, {D("n"), 4});
  vi(g->mutable_output(), "y", TensorProto::FLOAT, {D::unknown()});
  vi(g->mutable_output(), "s", TensorProto::INT64, {2});
  initF(g, "W", {4, 3}, {1, 0, -1, 2, 1, 0, 0, -1, 1, 1, 1, 1});
  initF(g, "b", {3}, {0.5f, -0.5f, 0.f});
  auto* flat = g->add_initializer();
  flat->set_name("flat");
  flat->set_data_type(TensorProto::INT64);
  flat->add_dims(1);
  flat->add_int64_data(-1);
  node(g, "MatMul", {"x", "W"}, {"xw"}, "mm");
  node(g, "Add", {"xw", "b"}, {"xwb"}, "add");
  node(g, "Relu", {"xwb"}, {"r"}, "relu");
  node(g, "Reshape", {"r", "flat"}, {"y"}, "flatten");
  node(g, "Shape", {"x"}, {"s"}, "shape");
  return m;
}

oinfer::Tensor input(int64_t n) {
  std::vector<float> v(size_t(n) * 4);
  for (size_t i = 0; i < v.size(); ++i) v[i] = float(int(i % 7) - 3) * 0.25f;
  return oinfer::Tensor::fromVector<float>({n, 4}, v);
}

std::vector<float> expected(int64_t n) {
  const float W[4][3] = {{1, 0, -1}, {2, 1, 0}, {0, -1, 1}, {1, 1, 1}};
  const float b[3] = {0.5f, -0.5f, 0.f};
  const auto x = input(n).toVector<float>();
  std::vector<float> y;
  for (int64_t r = 0; r < n; ++r)
    for (int c = 0; c < 3; ++c) {
      float acc = b[c];
      for (int k = 0; k < 4; ++k) acc += x[size_t(r * 4 + k)] * W[k][c];
      y.push_back(std::max(acc, 0.f));
    }
  return y;
}

void checkRun(oinfer::Session& s, int64_t n) {
  auto out = s.run({{"x", input(n)}});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].shape(), (std::vector<int64_t>{n * 3})) << "n=" << n;
  EXPECT_EQ(out[0].toVector<float>(), expected(n)) << "n=" << n;
  EXPECT_EQ(out[1].toVector<int64_t>(), (std::vector<int64_t>{n, 4})) << "n=" << n;
}

// "[6]" for a plan specialized to n=2, "dynamic" for the generic plan.
std::string outputShapeOfPlan(oinfer::Session& s, int64_t n) {
  auto info = s.plan({{"x", {n, 4}}});
  for (const auto& step : info.steps)
    for (size_t o = 0; o < step.outputs.size(); ++o)
      if (step.outputs[o] == "y") return step.outputShapes[o];
  return "<no y>";
}

TEST(PlanCache, CyclingThroughMoreShapesThanTheCacheHolds) {
  oinfer::SessionOptions so;
  so.planCacheSize = 2;
  oinfer::Session s(loadModel(model()), so);
  // Three cycles over five shapes: the first two are specialized, the rest
  // run on the generic plan, and every result is right.
  for (int cycle = 0; cycle < 3; ++cycle)
    for (int64_t n = 1; n <= 5; ++n) checkRun(s, n);
  EXPECT_EQ(outputShapeOfPlan(s, 1), "[3]");
  EXPECT_EQ(outputShapeOfPlan(s, 2), "[6]");
  EXPECT_EQ(outputShapeOfPlan(s, 4), "dynamic");
  // A shape asked for far more often than a cached one is admitted, and the
  // least used plan makes room for it.
  for (int i = 0; i < 12; ++i) checkRun(s, 7);
  EXPECT_EQ(outputShapeOfPlan(s, 7), "[21]");
  for (int64_t n = 1; n <= 7; ++n) checkRun(s, n);
}

TEST(PlanCache, SizeZeroRunsEverythingOnTheGenericPlan) {
  oinfer::SessionOptions so;
  so.planCacheSize = 0;
  oinfer::Session s(loadModel(model()), so);
  for (int64_t n : {3, 1, 3, 8, 0, 2}) checkRun(s, n);
  EXPECT_EQ(outputShapeOfPlan(s, 3), "dynamic");
}

TEST(PlanCache, ConcurrentRunsAcrossShapesOnASmallCache) {
  oinfer::SessionOptions so;
  so.planCacheSize = 1;
  so.threads = 1;
  oinfer::Session s(loadModel(model()), so);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&s, t] {
      for (int i = 0; i < 20; ++i) checkRun(s, 1 + (t + i) % 5);
    });
  for (auto& th : threads) th.join();
}

TEST(PlanCache, NegativeSizeIsAnError) {
  oinfer::SessionOptions so;
  so.planCacheSize = -2;
  try {
    oinfer::Session s(loadModel(model()), so);
    ADD_FAILURE() << "no error";
  } catch (const oinfer::Error& e) {
    EXPECT_EQ(e.code(), oinfer::ErrorCode::kInvalidArgument);
    EXPECT_STREQ(e.what(), "SessionOptions.planCacheSize is -2; it must be >= 0 (or -1: the default)");
  }
}

}  // namespace
