// The CUDA side of the Executor (runtime/cuda_exec.cpp; stubs that throw
// kDevice in a build without the backend). Only Executor calls these, and
// only for plans placed on the device (Plan::onDevice).
//
// Per plan: the placement (runtime/device_placement.h) with a query that asks
// each op's CUDA factory (made once per plan: kernels serve every context and
// own the weights they upload), uploads of the other constants the device
// reads, and whether the plan may be replayed as a CUDA Graph (static shapes,
// every device kernel captureSafe, copies only at the boundaries).
// Per execution context: a CUDA stream, a CudaContext (cuBLAS/cuDNN handles,
// workspace), the device arena, profiling events, the captured graph.
#pragma once

#include <string>

#include "runtime/executor.h"
#include "runtime/plan.h"

namespace oinfer::runtime::cudaexec {

// Empty when the device can be used; else one line saying why (no backend in
// this build, no device, or the device index out of range).
std::string unavailable(int deviceIndex);

// The per-session cache of runtime-uploaded weights (DeviceConfig::uploads).
std::shared_ptr<void> makeUploadCache();
void preparePlan(Plan& plan, const Graph& graph, const DeviceConfig& cfg);
void initContext(const Plan& plan, ExecContext& ctx, const DeviceConfig& cfg, bool profiling);

// Runs the whole plan as a CUDA Graph when possible (the context's first run is
// eager; the second captures); returns false when the caller must run the loop.
bool runGraph(Plan& plan, ExecContext& ctx);
void copy(const Plan& plan, ExecContext& ctx, size_t step);
void runStep(const Plan& plan, ExecContext& ctx, size_t step);
void sync(ExecContext& ctx);
// Waits for the stream; fills ctx.times of device steps and copies from their events.
void finishRun(const Plan& plan, ExecContext& ctx);

// Device-to-device / host copies for caller-owned device buffers (deviceIO).
void copyOut(ExecContext& ctx, const Tensor& src, Tensor& dst);
// A new device tensor of this dtype and shape (freed with its last copy).
Tensor deviceTensor(DataType dtype, const std::vector<int64_t>& shape, int deviceIndex);
// Synchronous copies between a host tensor and a device tensor of the same size (tests, tools).
void upload(const Tensor& host, Tensor& device);
void download(const Tensor& device, Tensor& host);

}  // namespace oinfer::runtime::cudaexec
