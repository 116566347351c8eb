// Sessions on the GPU (oinfer_cuda_tests; every test skips with one line
// without a device): the model tests on the device against the stored
// onnxruntime outputs (rtol 1e-3, atol 1e-4), CUDA Graph on/off agreement,
// concurrent runs, runInto, profiling, and the placement Session::plan shows.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <thread>

#include "api/devices.h"

namespace {
// oinfer_cuda_tests is not given the data folder: it sits beside this file.
const std::string& dataDir() {
  static const std::string d = (std::filesystem::path(__FILE__).parent_path().parent_path() / "data").string();
  return d;
}
}  // namespace
#define OINFER_TEST_DATA_DIR dataDir()
#include "models/model_test_util.h"
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

const std::string& noDevice() {
  static const std::string why = deviceUnavailable(Device::kCUDA, 0);
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
      std::vector<Tensor> out = s.run(feeds(irOf(s.graph()), ds.inputs));
      ASSERT_EQ(out.size(), ds.outputs.size());
      for (size_t j = 0; j < out.size(); ++j)
        EXPECT_TRUE(allClose(out[j], ds.outputs[j], "output " + std::to_string(j), kGpuRtol, kGpuAtol));
    }
}

}  // namespace

TEST(CudaRuntime, ModelsMatchOnnxruntime) {
  SKIP_WITHOUT_DEVICE();
  for (const char* m : {"srcnn_fixed", "srcnn_fixed_opset11", "resnet_bn", "mobilenetv2", "transformer_encoder",
                        "srcnn_dynamic", "sym_two_inputs"})
    compareModel(m, cudaOptions());
}

TEST(CudaRuntime, GraphsOnAndOffAgree) {
  SKIP_WITHOUT_DEVICE();
  for (const char* m : {"resnet_bn", "transformer_encoder"}) {
    auto sets = loadNumberedDataSets(m);
    Session on(Graph::loadFromONNX(modelPath(m)), cudaOptions(true));
    Session off(Graph::loadFromONNX(modelPath(m)), cudaOptions(false));
    for (int rep = 0; rep < 3; ++rep) {
      auto a = on.run(feeds(irOf(on.graph()), sets[0].inputs));
      auto b = off.run(feeds(irOf(off.graph()), sets[0].inputs));
      ASSERT_EQ(a.size(), b.size());
      for (size_t j = 0; j < a.size(); ++j) EXPECT_TRUE(allClose(a[j], b[j], std::string(m), 1e-6, 1e-7));
    }
  }
}

TEST(CudaRuntime, PlanShowsDevicesAndFewCopies) {
  SKIP_WITHOUT_DEVICE();
  Session s(Graph::loadFromONNX(modelPath("resnet_bn")), cudaOptions());
  std::map<std::string, std::vector<int64_t>> shapes;
  for (const auto& in : irOf(s.graph()).inputs) {
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
  EXPECT_LE(copies, 2 * irOf(s.graph()).inputs.size() + 2 * irOf(s.graph()).outputs.size());
  EXPECT_GT(p.memory.deviceArenaBytes, 0u);
}

TEST(CudaRuntime, ConcurrentRunsAreSafe) {
  SKIP_WITHOUT_DEVICE();
  Session s(Graph::loadFromONNX(modelPath("resnet_bn")), cudaOptions());
  auto sets = loadNumberedDataSets("resnet_bn");
  std::atomic<int> bad{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int r = 0; r < 6; ++r) {
        const auto& ds = sets[(t + r) % sets.size()];
        auto out = s.run(feeds(irOf(s.graph()), ds.inputs));
        for (size_t j = 0; j < out.size(); ++j)
          if (!allClose(out[j], ds.outputs[j], "out", kGpuRtol, kGpuAtol)) ++bad;
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(bad.load(), 0);
}

TEST(CudaRuntime, RunIntoAndProfiling) {
  SKIP_WITHOUT_DEVICE();
  SessionOptions o = cudaOptions();
  o.profiling = true;
  Session s(Graph::loadFromONNX(modelPath("resnet_bn")), o);
  auto sets = loadNumberedDataSets("resnet_bn");
  std::vector<Tensor> out;
  for (int r = 0; r < 2; ++r) s.runInto(feeds(irOf(s.graph()), sets[0].inputs), out);
  for (size_t j = 0; j < out.size(); ++j)
    EXPECT_TRUE(allClose(out[j], sets[0].outputs[j], "runInto", kGpuRtol, kGpuAtol));
  auto prof = s.profile();
  ASSERT_FALSE(prof.empty());
  double total = 0;
  for (const auto& p : prof) total += p.totalMs;
  EXPECT_GT(total, 0.0);
}

TEST(CudaRuntime, Fp16MatchesFp32WithinHalfTolerance) {
  SKIP_WITHOUT_DEVICE();
  for (const char* m : {"resnet_bn", "mobilenetv2", "transformer_encoder"}) {
    SCOPED_TRACE(m);
    SessionOptions o = cudaOptions();
    o.fp16 = true;
    Session half(Graph::loadFromONNX(modelPath(m)), o);
    Session full(Graph::loadFromONNX(modelPath(m)), cudaOptions());
    auto sets = loadNumberedDataSets(m);
    for (int rep = 0; rep < 3; ++rep) {
      auto a = half.run(feeds(irOf(half.graph()), sets[0].inputs));
      auto b = full.run(feeds(irOf(full.graph()), sets[0].inputs));
      ASSERT_EQ(a.size(), b.size());
      for (size_t j = 0; j < a.size(); ++j) {
        EXPECT_EQ(a[j].dtype(), DataType::kFloat);
        EXPECT_TRUE(allClose(a[j], b[j], "fp16 vs fp32", 1e-2, 1e-2));
      }
    }
  }
}

TEST(CudaRuntime, CallerDeviceBuffersNoCopy) {
  SKIP_WITHOUT_DEVICE();
  SessionOptions o = cudaOptions();
  o.deviceIO = true;
  Session dev(Graph::loadFromONNX(modelPath("resnet_bn")), o);
  Session host(Graph::loadFromONNX(modelPath("resnet_bn")), cudaOptions());
  auto sets = loadNumberedDataSets("resnet_bn");
  const auto& in = sets[0].inputs[0];
  Tensor d = deviceBackend(Device::kCUDA)->deviceTensor(in.dtype(), in.shape(), 0);
  deviceBackend(Device::kCUDA)->upload(in, d);
  TensorMap feedsDev{{irOf(dev.graph()).inputs[0].name, d}};
  std::vector<Tensor> outDev;
  for (int rep = 0; rep < 2; ++rep) dev.runInto(feedsDev, outDev);
  auto ref = host.run(feeds(irOf(host.graph()), sets[0].inputs));
  ASSERT_EQ(outDev.size(), ref.size());
  for (size_t j = 0; j < ref.size(); ++j) {
    Tensor back(ref[j].dtype(), ref[j].shape());
    deviceBackend(Device::kCUDA)->download(outDev[j], back);
    EXPECT_TRUE(allClose(back, ref[j], "deviceIO", 1e-6, 1e-7));
  }
}
