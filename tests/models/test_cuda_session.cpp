// Sessions with device = CUDA, the parts that need no GPU: the no-device error
// (in every build), CPU sessions untouched, and the real planner's output
// placed with a fake "has a device kernel" predicate. The GPU tests are in
// tests/cuda/test_cuda_runtime.cpp (oinfer_cuda_tests, CUDA builds).
#include <gtest/gtest.h>

#include "model_test_util.h"
#include "oinfer/thread_pool.h"
#include "api/devices.h"
#include "runtime/device_placement.h"
#include "runtime/executor.h"
#include "ir_util.h"

using namespace oinfer;
using namespace oinfer::modeltest;

namespace {

SessionOptions cudaOptions(bool graphs = true) {
  SessionOptions o;
  o.device = Device::kCUDA;
  o.cudaGraphs = graphs;
  return o;
}

// Empty when a CUDA session can be made here; otherwise the reason.
std::string noDevice() {
  static const std::string why = deviceUnavailable(Device::kCUDA, 0);
  return why;
}

}  // namespace

TEST(CudaSession, NoDeviceIsAClearOneLineError) {
  if (noDevice().empty()) GTEST_SKIP() << "a CUDA device is present: the error path cannot be reached";
  try {
    Session s(Graph::loadFromONNX(modelPath("srcnn_fixed")), cudaOptions());
    FAIL() << "a CUDA session was made without a device";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kDevice);
    const std::string msg = e.what();
    EXPECT_EQ(msg.rfind("device cuda: ", 0), 0u) << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
    EXPECT_NE(msg, "device cuda: ") << "the reason is missing";
    EXPECT_EQ(msg, "device cuda: " + noDevice());
  }
}

TEST(CudaSession, CpuSessionsStayOnTheHost) {
  Session s(Graph::loadFromONNX(modelPath("srcnn_fixed")));
  std::vector<int64_t> shape;
  for (const Dim& d : irOf(s.graph()).inputs[0].shape) shape.push_back(d.isStatic() ? d.value : 1);
  PlanInfo p = s.plan({{irOf(s.graph()).inputs[0].name, shape}});
  ASSERT_FALSE(p.steps.empty());
  for (const auto& st : p.steps) {
    EXPECT_EQ(st.device, Device::kCPU) << st.nodeName;
    EXPECT_FALSE(st.isCopy);
  }
  EXPECT_EQ(p.memory.deviceArenaBytes, 0u);
}

// The real planner's output, placed with a fake predicate (Conv and Relu have a
// device kernel owning its weights): device steps, copies at the boundaries,
// and a device arena laid out by the same memory planner. No GPU needed.
TEST(CudaSession, PlanPlacedWithFakeKernelsGetsCopiesAndADeviceArena) {
  ir::Graph g = loadIr(modelPath("srcnn_fixed"));
  g.topologicalSort();
  inferShapes(g);
  ThreadPool pool(1);
  runtime::Executor ex(builtinRegistry(), g, &pool, false);
  std::vector<int64_t> shape;
  for (const Dim& d : g.inputs[0].shape) shape.push_back(d.isStatic() ? d.value : 1);
  auto plan = ex.findPlan(
      [&](size_t) { return runtime::Executor::InputType{ValueKind::kTensor, g.inputs[0].dtype, &shape}; },
      {g.outputs[0].name});
  const size_t hostSteps = plan->steps.size();
  size_t convs = 0;
  for (const auto& st : plan->steps) convs += st.node->opType == "Conv";
  ASSERT_GT(convs, 0u);
  auto query = [&](size_t si) -> std::optional<std::vector<runtime::Place>> {
    const std::string& op = plan->steps[si].node->opType;
    if (op != "Conv" && op != "Relu") return std::nullopt;
    std::vector<runtime::Place> p(plan->steps[si].in.size(), runtime::Place::kOwned);
    p[0] = runtime::Place::kDevice;
    return p;
  };
  runtime::Placement pl = runtime::placePlan(*plan, query);
  runtime::planArenas(*plan, g.weightBytes());
  size_t copies = 0, device = 0;
  for (const auto& st : plan->steps) {
    copies += st.copy;
    device += !st.copy && st.device == Device::kCUDA;
    if (st.copy) {
      EXPECT_EQ(st.in.size(), 1u);
      EXPECT_NE(plan->slots[st.in[0]].device, plan->slots[st.out[0]].device);
    }
  }
  EXPECT_EQ(plan->steps.size(), hostSteps + copies);
  EXPECT_EQ(copies, pl.copies.size());
  EXPECT_GE(device, convs);
  EXPECT_GE(copies, 2u);  // at least the input up and the result down
  EXPECT_GT(plan->stats.deviceArenaBytes, 0u);
  EXPECT_EQ(plan->slots[plan->results[0]].device, Device::kCPU);
  EXPECT_EQ(plan->slots[plan->results[0]].kind, runtime::SlotKind::kOwned);
  // Every device buffer lies inside the device arena.
  size_t onDevice = 0;
  for (const auto& x : plan->slots) {
    if (x.kind != runtime::SlotKind::kArena || x.device != Device::kCUDA) continue;
    ++onDevice;
    EXPECT_GT(x.bytes, 0u) << x.name;
    EXPECT_LE(x.offset + x.bytes, plan->stats.deviceArenaBytes) << x.name;
  }
  EXPECT_GT(onDevice, 0u);
}


// fp16 is a graph rewrite, so it is checked on the CPU too: float32 in and
// out, results within half-precision tolerance of the float32 session.
TEST(CudaSession, Fp16MatchesFp32WithinHalfTolerance) {
  for (const char* m : {"srcnn_fixed", "resnet_bn", "transformer_encoder"}) {
    SCOPED_TRACE(m);
    SessionOptions o;
    o.fp16 = true;
    Session half(Graph::loadFromONNX(modelPath(m)), o);
    Session full(Graph::loadFromONNX(modelPath(m)));
    bool sawHalf = false;
    for (const auto& [name, t] : irOf(half.graph()).initializers) sawHalf |= t.dtype() == DataType::kFloat16;
    EXPECT_TRUE(sawHalf) << "no float16 weights after the rewrite";
    auto sets = loadNumberedDataSets(m);
    auto a = half.run(feeds(irOf(half.graph()), sets[0].inputs));
    auto b = full.run(feeds(irOf(full.graph()), sets[0].inputs));
    ASSERT_EQ(a.size(), b.size());
    for (size_t j = 0; j < a.size(); ++j) {
      EXPECT_EQ(a[j].dtype(), DataType::kFloat);
      EXPECT_TRUE(allClose(a[j], b[j], "fp16 vs fp32", 1e-2, 1e-2));
    }
  }
}
