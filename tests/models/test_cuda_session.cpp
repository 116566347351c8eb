// Sessions with device = CUDA. Without a usable device (or without the backend
// in this build) the error path is checked and the GPU tests skip with one
// line; on a GPU machine the model tests run on the device against the stored
// onnxruntime outputs (rtol 1e-3, atol 1e-4), and graphs on/off, concurrency
// and the placement are checked.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "model_test_util.h"
#include "ops/cpu/thread_pool.h"
#include "runtime/cuda_exec.h"
#include "runtime/device_placement.h"
#include "runtime/executor.h"

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
  static const std::string why = runtime::cudaexec::unavailable(0);
  return why;
}

#define SKIP_WITHOUT_DEVICE() \
  if (!noDevice().empty()) GTEST_SKIP() << "no CUDA device: " << noDevice()

constexpr double kGpuRtol = 1e-3, kGpuAtol = 1e-4;

void compareModel(const std::string& model, SessionOptions opts) {
  Session s(Graph::loadFromONNX(modelPath(model)), opts);
  auto sets = loadNumberedDataSets(model);
  ASSERT_FALSE(sets.empty()) << model;
  for (int rep = 0; rep < 3; ++rep)  // eager, capture, replay
    for (const auto& ds : sets) {
      SCOPED_TRACE(model + " run " + std::to_string(rep) + " " + ds.dir);
      std::vector<Tensor> out = s.run(feeds(s.graph(), ds.inputs));
      ASSERT_EQ(out.size(), ds.outputs.size());
      for (size_t j = 0; j < out.size(); ++j)
        EXPECT_TRUE(allClose(out[j], ds.outputs[j], "output " + std::to_string(j), kGpuRtol, kGpuAtol));
    }
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
  for (const Dim& d : s.graph().inputs[0].shape) shape.push_back(d.isStatic() ? d.value : 1);
  PlanInfo p = s.plan({{s.graph().inputs[0].name, shape}});
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
  Graph g = Graph::loadFromONNX(modelPath("srcnn_fixed"));
  g.topologicalSort();
  g.inferShapes();
  ThreadPool pool(1);
  runtime::Executor ex(g, &pool, false);
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

TEST(CudaSession, ModelsMatchOnnxruntime) {
  SKIP_WITHOUT_DEVICE();
  for (const char* m : {"srcnn_fixed", "srcnn_fixed_opset11", "resnet_bn", "mobilenetv2", "transformer_encoder",
                        "srcnn_dynamic", "sym_two_inputs"})
    compareModel(m, cudaOptions());
}

TEST(CudaSession, GraphsOnAndOffAgree) {
  SKIP_WITHOUT_DEVICE();
  for (const char* m : {"resnet_bn", "transformer_encoder"}) {
    auto sets = loadNumberedDataSets(m);
    Session on(Graph::loadFromONNX(modelPath(m)), cudaOptions(true));
    Session off(Graph::loadFromONNX(modelPath(m)), cudaOptions(false));
    for (int rep = 0; rep < 3; ++rep) {
      auto a = on.run(feeds(on.graph(), sets[0].inputs));
      auto b = off.run(feeds(off.graph(), sets[0].inputs));
      ASSERT_EQ(a.size(), b.size());
      for (size_t j = 0; j < a.size(); ++j) EXPECT_TRUE(allClose(a[j], b[j], std::string(m), 1e-6, 1e-7));
    }
  }
}

TEST(CudaSession, PlanShowsDevicesAndFewCopies) {
  SKIP_WITHOUT_DEVICE();
  Session s(Graph::loadFromONNX(modelPath("resnet_bn")), cudaOptions());
  std::map<std::string, std::vector<int64_t>> shapes;
  for (const auto& in : s.graph().inputs) {
    std::vector<int64_t> d;
    for (const Dim& x : in.shape) d.push_back(x.isStatic() ? x.value : 1);
    shapes[in.name] = d;
  }
  PlanInfo p = s.plan(shapes);
  size_t dev = 0, copies = 0;
  for (const auto& st : p.steps) {
    dev += st.device == Device::kCUDA && !st.isCopy;
    copies += st.isCopy;
  }
  EXPECT_GT(dev, p.steps.size() / 2);
  EXPECT_LE(copies, 2 * s.graph().inputs.size() + 2 * s.graph().outputs.size());
  EXPECT_GT(p.memory.deviceArenaBytes, 0u);
}

TEST(CudaSession, ConcurrentRunsAreSafe) {
  SKIP_WITHOUT_DEVICE();
  Session s(Graph::loadFromONNX(modelPath("resnet_bn")), cudaOptions());
  auto sets = loadNumberedDataSets("resnet_bn");
  std::atomic<int> bad{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int r = 0; r < 6; ++r) {
        const auto& ds = sets[(t + r) % sets.size()];
        auto out = s.run(feeds(s.graph(), ds.inputs));
        for (size_t j = 0; j < out.size(); ++j)
          if (!allClose(out[j], ds.outputs[j], "out", kGpuRtol, kGpuAtol)) ++bad;
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(bad.load(), 0);
}

TEST(CudaSession, RunIntoAndProfiling) {
  SKIP_WITHOUT_DEVICE();
  SessionOptions o = cudaOptions();
  o.profiling = true;
  Session s(Graph::loadFromONNX(modelPath("resnet_bn")), o);
  auto sets = loadNumberedDataSets("resnet_bn");
  std::vector<Tensor> out;
  for (int r = 0; r < 2; ++r) s.runInto(feeds(s.graph(), sets[0].inputs), out);
  for (size_t j = 0; j < out.size(); ++j)
    EXPECT_TRUE(allClose(out[j], sets[0].outputs[j], "runInto", kGpuRtol, kGpuAtol));
  auto prof = s.profile();
  ASSERT_FALSE(prof.empty());
  double total = 0;
  for (const auto& p : prof) total += p.totalMs;
  EXPECT_GT(total, 0.0);
}
