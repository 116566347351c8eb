// The CUDA backend of the runtime (runtime/device_backend.h): per plan the
// device placement, device kernels and constant uploads; per execution
// context a stream, cuBLAS / cuDNN handles, the device arena, profiling
// events and the captured CUDA Graph.
#include "ops/cuda/cuda_backend.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>

#include "ops/cuda/cuda_kernel.h"
#include "runtime/device_placement.h"
#include "runtime/executor.h"
#include "runtime/plan.h"

namespace oinfer::cuda::exec {

using namespace runtime;

namespace {

// Plan-wide: uploaded constants, and whether the plan may run as a CUDA Graph.
struct PlanState {
  int device = 0;
  std::vector<std::shared_ptr<DeviceBuffer>> constBuf;  // per slot (device kConstant)
  bool graphOk = false;
  size_t firstKernel = 0, lastKernel = 0;  // the captured range [first, last]
  size_t workspace = 0;
};

// Per context.
struct RunState {
  int device = 0;
  cudaStream_t stream = nullptr;
  std::unique_ptr<cuda::CudaContext> cc;
  DeviceBuffer arena;
  bool profiling = false;
  std::vector<cudaEvent_t> ev0, ev1;  // per step, when profiling
  int runs = 0;
  bool graphFailed = false;
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  ~RunState() {
    if (stream) cudaStreamSynchronize(stream);
    if (exec) cudaGraphExecDestroy(exec);
    if (graph) cudaGraphDestroy(graph);
    for (auto e : ev0) cudaEventDestroy(e);
    for (auto e : ev1) cudaEventDestroy(e);
    cc.reset();
    if (stream) cudaStreamDestroy(stream);
  }
};

// Keyed by the host tensor's data pointer and size: weights share the
// Graph's storage across plans, so a second plan finds the first's upload.
struct UploadCache {
  std::mutex mu;
  std::map<std::pair<const void*, size_t>, std::shared_ptr<DeviceBuffer>> bufs;
  std::vector<Tensor> hold;  // keeps the keys' host storage alive (no address reuse)
};

PlanState& planState(const Plan& p) { return *static_cast<PlanState*>(p.deviceState.get()); }
RunState& runState(ExecContext& c) { return *static_cast<RunState*>(c.device.get()); }

const CudaKernel* cudaKernel(const Plan& plan, size_t si) {
  return static_cast<const CudaKernel*>(plan.deviceKernels[si].get());
}

}  // namespace

std::string unavailable(int deviceIndex) {
  std::string why;
  if (!cuda::cudaDeviceAvailable(&why)) return why;
  int count = 0;
  cudaGetDeviceCount(&count);
  if (deviceIndex < 0 || deviceIndex >= count)
    return "device index " + std::to_string(deviceIndex) + " out of range (" + std::to_string(count) + " devices)";
  return {};
}

std::shared_ptr<void> makeUploadCache() { return std::make_shared<UploadCache>(); }

void preparePlan(Plan& plan, const ir::Graph& graph, const DeviceConfig& cfg) {
  cuda::check(cudaSetDevice(cfg.index), "cudaSetDevice");
  auto state = std::make_shared<PlanState>();
  state->device = cfg.index;

  // The factories run here, once per plan; a factory that declines (nullptr)
  // or throws leaves its node on the host.
  std::vector<std::unique_ptr<Kernel>> made(plan.steps.size());
  auto query = [&](size_t si) -> std::optional<std::vector<Place>> {
    const Step& step = plan.steps[si];
    if (!step.def || !step.def->cuda || step.view) return std::nullopt;
    KernelInit init{*step.node, step.opset, {}, {}, {}};
    for (int id : step.in) {
      if (id < 0) {
        init.inputs.push_back(nullptr);
        init.constInputs.push_back(nullptr);
        continue;
      }
      const Slot& s = plan.slots[id];
      if (s.type.kind != ValueKind::kTensor) return std::nullopt;
      init.inputs.push_back(&s.type);
      init.constInputs.push_back(s.kind == SlotKind::kWeight || s.kind == SlotKind::kConstant ? &s.value : nullptr);
    }
    for (int id : step.out) {
      if (id >= 0 && plan.slots[id].type.kind != ValueKind::kTensor) return std::nullopt;
      init.outputs.push_back(id < 0 ? nullptr : &plan.slots[id].type);
    }
    std::unique_ptr<Kernel> k;
    try {
      k = step.def->cuda(init);
    } catch (const Error& e) {
      spdlog::warn("{}: CUDA kernel declined with an error, running on the CPU: {}", step.node->describe(), e.what());
      return std::nullopt;
    }
    auto* ck = dynamic_cast<CudaKernel*>(k.get());
    if (!ck) return std::nullopt;
    std::vector<Place> places(step.in.size());
    for (size_t i = 0; i < places.size(); ++i) {
      const auto p = ck->inputPlace(i);
      places[i] = p == cuda::InputPlace::kHost ? Place::kHost : p == cuda::InputPlace::kOwned ? Place::kOwned
                                                                                                : Place::kDevice;
    }
    made[si] = std::move(k);
    return places;
  };
  Placement pl = placePlan(plan, query, cfg.deviceIO, cfg.deviceIO);

  // Kernels by new step index: non-copy steps keep their order.
  plan.deviceKernels.resize(plan.steps.size());
  size_t orig = 0;
  for (size_t si = 0; si < plan.steps.size(); ++si) {
    if (plan.steps[si].copy) continue;
    if (plan.steps[si].device == Device::kCUDA && !plan.steps[si].view) {
      plan.deviceKernels[si] = std::move(made[orig]);
      if (!plan.deviceKernels[si])
        throw Error(ErrorCode::kInternal, plan.steps[si].node->describe() + ": placed on CUDA without a kernel");
    }
    ++orig;
  }

  // Constants the device reads that no kernel owns: uploaded once.
  state->constBuf.resize(plan.slots.size());
  for (size_t id = 0; id < plan.slots.size(); ++id) {
    const Slot& s = plan.slots[id];
    if (s.device != Device::kCUDA || s.kind != SlotKind::kConstant) continue;
    auto* cache = static_cast<UploadCache*>(cfg.uploads.get());
    if (!cache) {
      state->constBuf[id] = std::make_shared<DeviceBuffer>(DeviceBuffer::upload(s.value));
      continue;
    }
    std::lock_guard<std::mutex> lock(cache->mu);
    auto& buf = cache->bufs[{s.value.data(), s.value.nbytes()}];
    if (!buf) {
      buf = std::make_shared<DeviceBuffer>(DeviceBuffer::upload(s.value));
      cache->hold.push_back(s.value);
    }
    state->constBuf[id] = buf;
  }

  // CUDA Graph: static, every kernel captureSafe, copies only before the first
  // kernel (inputs up) or after the last (results down), no host kernels.
  bool ok = cfg.cudaGraphs && !cfg.deviceIO;
  size_t first = plan.steps.size(), last = 0;
  for (size_t si = 0; si < plan.steps.size(); ++si) {
    const Step& st = plan.steps[si];
    if (st.dynamic || (!st.copy && !st.view && st.device != Device::kCUDA)) ok = false;
    if (st.device == Device::kCUDA && !st.view && !st.copy) {
      first = std::min(first, si);
      last = std::max(last, si);
      if (!cudaKernel(plan, si)->captureSafe()) ok = false;
      state->workspace = std::max(state->workspace, cudaKernel(plan, si)->workspaceBytes());
    }
  }
  if (first == plan.steps.size()) ok = false;
  for (size_t si = 0; ok && si < plan.steps.size(); ++si) {
    const Step& st = plan.steps[si];
    if (!st.copy) continue;
    const bool inputUp = plan.slots[st.in[0]].kind == SlotKind::kInput && si < first;
    const bool resultDown = plan.slots[st.out[0]].kind == SlotKind::kOwned && si > last;
    if (!inputUp && !resultDown) ok = false;
  }
  state->graphOk = ok;
  state->firstKernel = first;
  state->lastKernel = last;
  plan.deviceState = state;
  spdlog::debug("cuda plan: {} device steps, {} copies, graph {}", pl.numDeviceSteps,
                pl.copies.size(), ok ? "yes" : "no");
}

void initContext(const Plan& plan, ExecContext& ctx, const DeviceConfig& cfg, bool profiling) {
  PlanState& ps = planState(plan);
  cuda::check(cudaSetDevice(ps.device), "cudaSetDevice");
  auto rs = std::make_shared<RunState>();
  rs->device = ps.device;
  cuda::check(cudaStreamCreateWithFlags(&rs->stream, cudaStreamNonBlocking), "cudaStreamCreate");
  rs->cc = std::make_unique<cuda::CudaContext>(ps.device);
  rs->arena = DeviceBuffer(std::max<size_t>(plan.stats.deviceArenaBytes, 256));
  rs->profiling = profiling;
  if (profiling) {
    rs->ev0.resize(plan.steps.size());
    rs->ev1.resize(plan.steps.size());
    for (size_t si = 0; si < plan.steps.size(); ++si) {
      cuda::check(cudaEventCreate(&rs->ev0[si]), "cudaEventCreate");
      cuda::check(cudaEventCreate(&rs->ev1[si]), "cudaEventCreate");
    }
  }
  ctx.device = rs;
  // Tensors over the device arena keep the context's device state alive.
  std::shared_ptr<void> holder(rs, rs->arena.get());
  auto* base = static_cast<uint8_t*>(rs->arena.get());
  for (size_t id = 0; id < plan.slots.size(); ++id) {
    const Slot& s = plan.slots[id];
    if (s.device != Device::kCUDA) continue;
    if (s.kind == SlotKind::kArena) {
      ctx.values[id].kind = ValueKind::kTensor;
      ctx.values[id].tensor = Tensor::share(s.type.dtype, s.shape, holder, base + s.offset);
    } else if (s.kind == SlotKind::kConstant) {
      const auto& buf = ps.constBuf[id];
      ctx.values[id].tensor = Tensor::share(s.value.dtype(), s.value.shape(), std::shared_ptr<void>(buf, buf->get()),
                                            buf->get());
    }
  }
  for (size_t si = 0; si < plan.steps.size(); ++si) {
    if (plan.steps[si].device != Device::kCUDA) continue;
    ctx.kctx[si].stream_ = rs->stream;
    ctx.kctx[si].deviceCtx_ = rs->cc.get();
  }
  if (ps.workspace) rs->cc->reserveWorkspace(ps.workspace);
}

void copy(const Plan& plan, ExecContext& ctx, size_t si) {
  RunState& rs = runState(ctx);
  const Step& st = plan.steps[si];
  const Tensor& src = ctx.values[st.in[0]].tensor;
  Tensor& dst = ctx.values[st.out[0]].tensor;
  if (rs.profiling) cudaEventRecord(rs.ev0[si], rs.stream);
  if (src.nbytes())
    cuda::check(cudaMemcpyAsync(dst.data(), src.data(), src.nbytes(), cudaMemcpyDefault, rs.stream),
                "cudaMemcpyAsync (host<->device copy)");
  if (rs.profiling) cudaEventRecord(rs.ev1[si], rs.stream);
}

void runStep(const Plan& plan, ExecContext& ctx, size_t si) {
  RunState& rs = runState(ctx);
  if (rs.profiling) cudaEventRecord(rs.ev0[si], rs.stream);
  plan.deviceKernels[si]->run(ctx.kctx[si]);
  if (rs.profiling) cudaEventRecord(rs.ev1[si], rs.stream);
}

void sync(ExecContext& ctx) { cuda::check(cudaStreamSynchronize(runState(ctx).stream), "cudaStreamSynchronize"); }

void finishRun(const Plan& plan, ExecContext& ctx) {
  RunState& rs = runState(ctx);
  sync(ctx);
  if (!rs.profiling) return;
  for (size_t si = 0; si < plan.steps.size(); ++si) {
    const Step& st = plan.steps[si];
    if (!st.copy && (st.device != Device::kCUDA || st.view)) continue;
    float ms = 0;
    if (cudaEventElapsedTime(&ms, rs.ev0[si], rs.ev1[si]) == cudaSuccess) ctx.times[si] = ms;
    else cudaGetLastError();
  }
}

bool runGraph(Plan& plan, ExecContext& ctx) {
  PlanState& ps = planState(plan);
  RunState& rs = runState(ctx);
  cuda::check(cudaSetDevice(rs.device), "cudaSetDevice");
  if (!ps.graphOk || rs.profiling || rs.graphFailed) return false;
  if (++rs.runs == 1) return false;  // eager: kernels finish their per-shape setup
  auto views = [&](size_t from, size_t to) {
    for (size_t si = from; si <= to && si < plan.steps.size(); ++si) {
      const Step& st = plan.steps[si];
      if (st.view)
        ctx.values[st.out[0]].tensor.assignView(ctx.values[st.in[st.def->viewOfInput]].tensor,
                                                plan.slots[st.out[0]].shape);
    }
  };
  if (!rs.exec) {
    size_t ws = 0;
    for (size_t si = ps.firstKernel; si <= ps.lastKernel; ++si)
      if (plan.deviceKernels[si]) ws = std::max(ws, cudaKernel(plan, si)->workspaceBytes());
    rs.cc->reserveWorkspace(std::max(ws, rs.cc->workspaceBytes()));
    rs.cc->bind(rs.stream);
    sync(ctx);
    cuda::check(cudaStreamBeginCapture(rs.stream, cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture");
    try {
      for (size_t si = ps.firstKernel; si <= ps.lastKernel; ++si) {
        const Step& st = plan.steps[si];
        if (st.view) views(si, si);
        else if (plan.deviceKernels[si]) plan.deviceKernels[si]->run(ctx.kctx[si]);
      }
    } catch (const Error& e) {
      cudaGraph_t g = nullptr;
      cudaStreamEndCapture(rs.stream, &g);
      if (g) cudaGraphDestroy(g);
      cudaGetLastError();
      rs.graphFailed = true;
      spdlog::warn("cuda: graph capture failed, running eagerly: {}", e.what());
      return false;
    }
    cudaGraph_t g = nullptr;
    const cudaError_t e = cudaStreamEndCapture(rs.stream, &g);
    if (e != cudaSuccess || !g || cudaGraphInstantiate(&rs.exec, g, 0) != cudaSuccess) {
      if (g) cudaGraphDestroy(g);
      cudaGetLastError();
      rs.exec = nullptr;
      rs.graphFailed = true;
      spdlog::warn("cuda: graph capture failed ({}), running eagerly", cudaGetErrorString(e));
      return false;
    }
    rs.graph = g;
  }
  for (size_t si = 0; si < ps.firstKernel; ++si)
    if (plan.steps[si].copy) copy(plan, ctx, si);
    else views(si, si);
  cuda::check(cudaGraphLaunch(rs.exec, rs.stream), "cudaGraphLaunch");
  for (size_t si = ps.lastKernel + 1; si < plan.steps.size(); ++si)
    if (plan.steps[si].copy) copy(plan, ctx, si);
    else views(si, si);
  sync(ctx);
  return true;
}

void copyOut(ExecContext& ctx, const Tensor& src, Tensor& dst) {
  RunState& rs = runState(ctx);
  cuda::check(cudaMemcpyAsync(dst.data(), src.data(), src.nbytes(), cudaMemcpyDefault, rs.stream),
              "cudaMemcpyAsync (result)");
  sync(ctx);
}

Tensor deviceTensor(DataType dtype, const std::vector<int64_t>& shape, int deviceIndex) {
  cuda::check(cudaSetDevice(deviceIndex), "cudaSetDevice");
  auto buf = std::make_shared<DeviceBuffer>(std::max<size_t>(numElements(shape) * dataTypeSize(dtype), 1));
  return Tensor::share(dtype, shape, std::shared_ptr<void>(buf, buf->get()), buf->get());
}

void upload(const Tensor& host, Tensor& device) {
  cuda::check(cudaMemcpy(device.data(), host.data(), host.nbytes(), cudaMemcpyHostToDevice), "cudaMemcpy (upload)");
}
void download(const Tensor& device, Tensor& host) {
  cuda::check(cudaMemcpy(host.data(), device.data(), host.nbytes(), cudaMemcpyDeviceToHost), "cudaMemcpy (download)");
}

}  // namespace oinfer::cuda::exec

namespace oinfer::cuda {

namespace {

using runtime::DeviceConfig;
using runtime::ExecContext;
using runtime::Plan;

class CudaBackend final : public runtime::DeviceBackend {
 public:
  std::string unavailable(int deviceIndex) override { return exec::unavailable(deviceIndex); }
  std::shared_ptr<void> makeUploadCache() override { return exec::makeUploadCache(); }
  void preparePlan(Plan& plan, const ir::Graph& graph, const DeviceConfig& cfg) override {
    exec::preparePlan(plan, graph, cfg);
  }
  void initContext(const Plan& plan, ExecContext& ctx, const DeviceConfig& cfg, bool profiling) override {
    exec::initContext(plan, ctx, cfg, profiling);
  }
  bool runGraph(Plan& plan, ExecContext& ctx) override { return exec::runGraph(plan, ctx); }
  void copy(const Plan& plan, ExecContext& ctx, size_t step) override { exec::copy(plan, ctx, step); }
  void runStep(const Plan& plan, ExecContext& ctx, size_t step) override { exec::runStep(plan, ctx, step); }
  void sync(ExecContext& ctx) override { exec::sync(ctx); }
  void finishRun(const Plan& plan, ExecContext& ctx) override { exec::finishRun(plan, ctx); }
  void copyOut(ExecContext& ctx, const Tensor& src, Tensor& dst) override { exec::copyOut(ctx, src, dst); }
  Tensor deviceTensor(DataType dtype, const std::vector<int64_t>& shape, int deviceIndex) override {
    return exec::deviceTensor(dtype, shape, deviceIndex);
  }
  void upload(const Tensor& host, Tensor& device) override { exec::upload(host, device); }
  void download(const Tensor& device, Tensor& host) override { exec::download(device, host); }
};

}  // namespace

runtime::DeviceBackend& backend() {
  static CudaBackend b;
  return b;
}

}  // namespace oinfer::cuda
