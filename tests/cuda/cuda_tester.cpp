#include "cuda/cuda_tester.h"

#include <cstring>

#include "ops/cuda/cuda_kernel.h"
#include "ops/registry.h"
#include "ir_util.h"

namespace oinfer::testing {

namespace {
constexpr size_t kGuard = 256;
constexpr unsigned char kGuardByte = 0xA5;

cuda::CudaContext& testContext() {
  static cuda::CudaContext* ctx = new cuda::CudaContext(0);  // lives for the process
  return *ctx;
}

struct Prepared {
  std::vector<ValueInfo> in, out;
  std::unique_ptr<KernelInit> init;
};
}  // namespace

bool cudaUsable(std::string* why) {
  static std::string reason;
  static const bool ok = cuda::cudaDeviceAvailable(&reason);
  if (!ok && why) *why = reason;
  return ok;
}

namespace {
// The KernelInit the runtime would give the CUDA factory, with the output
// types and shapes the CPU run produced (which OpTester checked against the
// shape function).
void prepare(const Node& node, int64_t opset, const std::vector<Tensor>& inputs, const std::vector<bool>& constant,
             const std::vector<Tensor>& outputs, Prepared& p) {
  p.in.resize(inputs.size());
  p.out.resize(outputs.size());
  p.init = std::make_unique<KernelInit>(KernelInit{node, opset, {}, {}, {}});
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!inputs[i].defined()) {
      p.init->inputs.push_back(nullptr);
      p.init->constInputs.push_back(nullptr);
      continue;
    }
    p.in[i].name = node.inputs[i];
    p.in[i].dtype = inputs[i].dtype();
    p.in[i].hasShape = true;
    p.in[i].shape = toShape(inputs[i].shape());
    p.init->inputs.push_back(&p.in[i]);
    p.init->constInputs.push_back(constant[i] ? &inputs[i] : nullptr);
  }
  for (size_t o = 0; o < outputs.size(); ++o) {
    if (node.outputs[o].empty() || !outputs[o].defined()) {
      p.init->outputs.push_back(nullptr);
      continue;
    }
    p.out[o].name = node.outputs[o];
    p.out[o].dtype = outputs[o].dtype();
    p.out[o].hasShape = true;
    p.out[o].shape = toShape(outputs[o].shape());
    p.init->outputs.push_back(&p.out[o]);
  }
}
}  // namespace

void CudaTester::expectDecline() {
  std::vector<Tensor> expected = cpu_.run();
  const Node& node = cpu_.node();
  const OpDef* def = builtinRegistry().find(node.domain, node.opType, opset_);
  ASSERT_NE(def, nullptr);
  ASSERT_TRUE(static_cast<bool>(def->cuda)) << node.opType << " has no CUDA factory";
  Prepared p;
  prepare(node, opset_, inputs_, constant_, expected, p);
  EXPECT_EQ(def->cuda(*p.init), nullptr) << "the CUDA factory accepted a node it should leave to the CPU";
}

void CudaTester::run() {
  std::string why;
  if (!cudaUsable(&why)) GTEST_SKIP() << "no CUDA device: " << why;
  std::vector<Tensor> expected = cpu_.run();
  if (::testing::Test::HasFatalFailure()) return;
  const Node& node = cpu_.node();
  const OpDef* def = builtinRegistry().find(node.domain, node.opType, opset_);
  ASSERT_NE(def, nullptr);
  ASSERT_TRUE(static_cast<bool>(def->cuda)) << node.opType << "-" << opset_ << " has no CUDA factory";
  Prepared p;
  prepare(node, opset_, inputs_, constant_, expected, p);
  std::unique_ptr<Kernel> kernel = def->cuda(*p.init);
  ASSERT_NE(kernel, nullptr) << "the CUDA factory declined " << node.opType << "-" << opset_;
  auto* ck = dynamic_cast<cuda::CudaKernel*>(kernel.get());
  ASSERT_NE(ck, nullptr) << "a CUDA factory returned a kernel that is not a cuda::CudaKernel";

  cuda::CudaContext& ctx = testContext();
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaStreamCreate(&stream), cudaSuccess);

  // Inputs where the kernel wants them.
  std::vector<cuda::DeviceBuffer> inBufs(inputs_.size());
  std::vector<Tensor> bound(inputs_.size());
  for (size_t i = 0; i < inputs_.size(); ++i) {
    if (!inputs_[i].defined()) continue;
    if (ck->inputPlace(i) == cuda::InputPlace::kDevice) {
      inBufs[i] = cuda::DeviceBuffer::upload(inputs_[i]);
      bound[i] = Tensor::wrap(inputs_[i].dtype(), inputs_[i].shape(), inBufs[i].get());
    } else {
      bound[i] = inputs_[i];
    }
  }
  // Outputs between guard bytes, pre-filled with 0xFF.
  std::vector<cuda::DeviceBuffer> outBufs(expected.size());
  std::vector<Tensor> outs(expected.size());
  for (size_t o = 0; o < expected.size(); ++o) {
    if (node.outputs[o].empty() || !expected[o].defined()) continue;
    const size_t n = expected[o].nbytes();
    outBufs[o] = cuda::DeviceBuffer(n + 2 * kGuard);
    char* base = outBufs[o].as<char>();
    ASSERT_EQ(cudaMemset(base, kGuardByte, n + 2 * kGuard), cudaSuccess);
    ASSERT_EQ(cudaMemset(base + kGuard, 0xFF, n), cudaSuccess);
    outs[o] = Tensor::wrap(expected[o].dtype(), expected[o].shape(), base + kGuard);
  }

  KernelContext kc;
  kc.node_ = &node;
  static ThreadPool pool(1);
  kc.pool_ = &pool;
  for (auto& t : bound) kc.inputs_.push_back(t.defined() ? &t : nullptr);
  for (size_t o = 0; o < outs.size(); ++o) {
    kc.outputs_.push_back(outs[o].defined() ? &outs[o] : nullptr);
    kc.outputTypes_.push_back(expected[o].defined() ? expected[o].dtype() : DataType::kUndefined);
  }
  kc.stream_ = stream;
  kc.deviceCtx_ = &ctx;
  // Twice: the second run takes the cached per-shape plans.
  for (int pass = 0; pass < 2; ++pass) {
    kernel->run(kc);
    ctx.reserveWorkspace(ck->workspaceBytes());
  }
  ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  cudaStreamDestroy(stream);

  for (size_t o = 0; o < outs.size(); ++o) {
    if (!outs[o].defined()) continue;
    const size_t n = expected[o].nbytes();
    std::vector<unsigned char> host(n + 2 * kGuard);
    ASSERT_EQ(cudaMemcpy(host.data(), outBufs[o].get(), host.size(), cudaMemcpyDeviceToHost), cudaSuccess);
    for (size_t b = 0; b < kGuard; ++b) {
      ASSERT_EQ(host[b], kGuardByte) << "output " << o << ": write before the buffer (byte " << b << " of the guard)";
      ASSERT_EQ(host[kGuard + n + b], kGuardByte) << "output " << o << ": write past the end (guard byte " << b << ")";
    }
    Tensor actual(expected[o].dtype(), expected[o].shape());
    if (n) std::memcpy(actual.data(), host.data() + kGuard, n);
    if (actual.dtype() == DataType::kBool)
      for (size_t b = 0; b < n; ++b)
        ASSERT_LE(host[kGuard + b], 1) << "output " << o << ": element " << b << " unwritten or not a bool";
    EXPECT_EQ(compareTensors(actual, expected[o], rtol_, atol_), "")
        << node.opType << "-" << opset_ << " output " << o << " " << shapeToString(expected[o].shape());
  }
}

}  // namespace oinfer::testing
