// Stopping runs: RunOptions deadlines and terminate flags,
// SessionOptions::runTimeoutSeconds and Session::terminate(), on Loops and
// Scans that would run for a very long time. Each stop is an
// Error(kCancelled) naming the node the run stopped before, and the session
// runs normally afterwards.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <limits>
#include <thread>

#include "loader_test_util.h"
#include "oinfer/session.h"

namespace {

using namespace loader_test;
using onnx::AttributeProto;
using onnx::TensorProto;

constexpr int64_t kForever = std::numeric_limits<int64_t>::max();

// y = x + M: a Loop of M iterations (M a graph input, no condition) adding 1.
onnx::ModelProto countingLoop() {
  onnx::ModelProto m = modelWithOpset(17);
  auto* g = m.mutable_graph();
  vi(g->mutable_input(), "M", TensorProto::INT64, {});
  vi(g->mutable_input(), "x", TensorProto::FLOAT, {1});
  vi(g->mutable_output(), "y", TensorProto::FLOAT, {1});
  initF(g, "one", {1}, {1.f});
  auto* loop = node(g, "Loop", {"M", "", "x"}, {"y"}, "count");
  auto* body = attr(loop, "body", AttributeProto::GRAPH)->mutable_g();
  body->set_name("body");
  vi(body->mutable_input(), "i", TensorProto::INT64, {});
  vi(body->mutable_input(), "c", TensorProto::BOOL, {});
  vi(body->mutable_input(), "a", TensorProto::FLOAT, {1});
  vi(body->mutable_output(), "c_out", TensorProto::BOOL, {});
  vi(body->mutable_output(), "a_out", TensorProto::FLOAT, {1});
  node(body, "Identity", {"c"}, {"c_out"}, "keep");
  node(body, "Add", {"a", "one"}, {"a_out"}, "step");
  return m;
}

oinfer::TensorMap feeds(int64_t trips) {
  return {{"M", oinfer::Tensor::scalar<int64_t>(trips)}, {"x", oinfer::Tensor::fromVector<float>({1}, {0.f})}};
}

// The Error a run ends with (kCancelled expected), or "" after ADD_FAILURE.
template <class F>
std::string cancelledMessage(F&& run) {
  try {
    run();
  } catch (const oinfer::Error& e) {
    EXPECT_EQ(e.code(), oinfer::ErrorCode::kCancelled) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "the run was not stopped";
  return "";
}

void expectStillRuns(oinfer::Session& s) {
  auto out = s.run(feeds(3));
  EXPECT_EQ(out[0].toVector<float>(), (std::vector<float>{3.f}));
}

TEST(Cancel, DeadlineStopsAnEndlessLoopBetweenIterations) {
  oinfer::Session s(loadModel(countingLoop()));
  oinfer::RunOptions ro;
  ro.timeoutSeconds = 0.05;
  const std::string msg = cancelledMessage([&] { s.run(feeds(kForever), {"y"}, ro); });
  EXPECT_HAS(msg, "run cancelled: the run's deadline (0.05 s) passed; stopped before node '");
  // Stopped inside the Loop: before an iteration (the Loop) or a body node.
  EXPECT_TRUE(msg.find("'count' (Loop)") != std::string::npos || msg.find("'step' (Add)") != std::string::npos ||
              msg.find("'keep' (Identity)") != std::string::npos)
      << msg;
  expectStillRuns(s);
}

TEST(Cancel, SessionTimeoutAppliesToEveryRunAndRunOptionsOverrideIt) {
  oinfer::SessionOptions so;
  so.runTimeoutSeconds = 0.05;
  oinfer::Session s(loadModel(countingLoop()), so);
  std::string msg = cancelledMessage([&] { s.run(feeds(kForever)); });
  EXPECT_HAS(msg, "the run's deadline (0.05 s) passed");
  std::vector<oinfer::Tensor> outs;
  oinfer::RunOptions ro;
  ro.timeoutSeconds = 0.07;
  msg = cancelledMessage([&] { s.runInto(feeds(kForever), outs, ro); });
  EXPECT_HAS(msg, "the run's deadline (0.07 s) passed");
  expectStillRuns(s);
}

TEST(Cancel, TerminateFlagSetFromAnotherThread) {
  oinfer::Session s(loadModel(countingLoop()));
  std::atomic<bool> stop{false};
  oinfer::RunOptions ro;
  ro.terminate = &stop;
  std::thread setter([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    stop.store(true);
  });
  const std::string msg = cancelledMessage([&] { s.run(feeds(kForever), {"y"}, ro); });
  setter.join();
  EXPECT_HAS(msg, "run cancelled: RunOptions::terminate was set; stopped before node '");
  // The flag is the caller's: still set, it stops the next run that uses it
  // before its first node, and runs without it are unaffected.
  EXPECT_TRUE(stop.load());
  const std::string again = cancelledMessage([&] { s.run(feeds(3), {"y"}, ro); });
  EXPECT_HAS(again, "stopped before node 'count' (Loop)");
  expectStillRuns(s);
}

TEST(Cancel, SessionTerminateStopsRunsInProgressOnly) {
  oinfer::Session s(loadModel(countingLoop()));
  // Called before a run starts: that run is not affected.
  s.terminate();
  expectStillRuns(s);
  // Two endless runs at once, stopped by one terminate() from a third thread
  // (repeated until both have ended, so a run that had not yet started when
  // the first call came is stopped by a later one).
  std::atomic<int> ended{0};
  std::string msgs[2];
  std::thread runs[2];
  for (int k = 0; k < 2; ++k)
    runs[k] = std::thread([&, k] {
      msgs[k] = cancelledMessage([&] { s.run(feeds(kForever)); });
      ended.fetch_add(1);
    });
  while (ended.load() < 2) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    s.terminate();
  }
  for (auto& t : runs) t.join();
  for (const auto& m : msgs) EXPECT_HAS(m, "run cancelled: Session::terminate() was called; stopped before node '");
  expectStillRuns(s);
}

// A Scan over 2^22 steps of x: the deadline stops it between iterations.
TEST(Cancel, DeadlineStopsALongScan) {
  onnx::ModelProto m = modelWithOpset(16);
  auto* g = m.mutable_graph();
  vi(g->mutable_input(), "x", TensorProto::FLOAT, {D("n")});
  vi(g->mutable_output(), "sum", TensorProto::FLOAT, {});
  initF(g, "zero", {}, {0.f});
  auto* scan = node(g, "Scan", {"zero", "x"}, {"sum"}, "scan");
  attr(scan, "num_scan_inputs", AttributeProto::INT)->set_i(1);
  auto* body = attr(scan, "body", AttributeProto::GRAPH)->mutable_g();
  body->set_name("body");
  vi(body->mutable_input(), "s", TensorProto::FLOAT, {});
  vi(body->mutable_input(), "e", TensorProto::FLOAT, {});
  vi(body->mutable_output(), "s_out", TensorProto::FLOAT, {});
  node(body, "Add", {"s", "e"}, {"s_out"}, "acc");
  oinfer::Session s(loadModel(m));
  oinfer::RunOptions ro;
  ro.timeoutSeconds = 0.05;
  oinfer::Tensor x(oinfer::DataType::kFloat, {int64_t(1) << 22});
  const std::string msg = cancelledMessage([&] { s.run({{"x", x}}, {"sum"}, ro); });
  EXPECT_HAS(msg, "the run's deadline (0.05 s) passed");
  EXPECT_TRUE(msg.find("'scan' (Scan)") != std::string::npos || msg.find("'acc' (Add)") != std::string::npos) << msg;
  // Short scans still finish, with the right sum.
  auto out = s.run({{"x", oinfer::Tensor::fromVector<float>({3}, {1.f, 2.f, 3.f})}});
  EXPECT_EQ(out[0].toVector<float>(), (std::vector<float>{6.f}));
}

TEST(Cancel, ErrorCodeHasAName) {
  EXPECT_STREQ(oinfer::errorCodeName(oinfer::ErrorCode::kCancelled), "Cancelled");
}

}  // namespace
