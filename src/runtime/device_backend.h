// The interface between the runtime and a device backend (CUDA today:
// src/ops/cuda/cuda_backend.cpp). The runtime plans and runs every plan with
// one loop; for a plan placed on a device (Plan::onDevice) it asks the
// backend to prepare the plan and each execution context, to run the device
// steps and copies, and to wait for the device before a host step. The
// runtime never includes a device's headers, so a build (or a process)
// without the backend runs everything on the host.
//
// Per plan: the placement (runtime/device_placement.h) with a query that asks
// each op's device factory (made once per plan: device kernels serve every
// context and own the weights they upload), uploads of the other constants
// the device reads, and whether the plan may be replayed as a captured graph
// (static shapes, every device kernel capture-safe, copies only at the
// boundaries). Per execution context: a stream, library handles and
// workspace, the device arena, profiling events, the captured graph.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "graph/ir.h"
#include "oinfer/tensor.h"

namespace oinfer::runtime {

struct Plan;
struct ExecContext;
struct DeviceConfig;

class DeviceBackend {
 public:
  virtual ~DeviceBackend() = default;

  // Empty when the device can be used; else one line saying why (no device,
  // no driver, the device index out of range).
  virtual std::string unavailable(int deviceIndex) = 0;

  // The per-session cache of runtime-uploaded weights (DeviceConfig::uploads).
  virtual std::shared_ptr<void> makeUploadCache() = 0;
  // Places the plan's steps, makes its device kernels, uploads constants.
  virtual void preparePlan(Plan& plan, const ir::Graph& graph, const DeviceConfig& cfg) = 0;
  // A context's stream, handles, device arena; binds its device slots.
  virtual void initContext(const Plan& plan, ExecContext& ctx, const DeviceConfig& cfg, bool profiling) = 0;

  // Runs the whole plan as a captured graph when possible (the context's
  // first run is eager; the second captures); false: the caller runs the loop.
  virtual bool runGraph(Plan& plan, ExecContext& ctx) = 0;
  virtual void copy(const Plan& plan, ExecContext& ctx, size_t step) = 0;
  virtual void runStep(const Plan& plan, ExecContext& ctx, size_t step) = 0;
  // Waits for the context's queued device work.
  virtual void sync(ExecContext& ctx) = 0;
  // Waits; fills ctx.times of device steps and copies from their events.
  virtual void finishRun(const Plan& plan, ExecContext& ctx) = 0;

  // Device-to-device / host copies for caller-owned device buffers (deviceIO).
  virtual void copyOut(ExecContext& ctx, const Tensor& src, Tensor& dst) = 0;
  // A new device tensor of this dtype and shape (freed with its last copy).
  virtual Tensor deviceTensor(DataType dtype, const std::vector<int64_t>& shape, int deviceIndex) = 0;
  // Synchronous copies between a host tensor and a device tensor of the same size (tests, tools).
  virtual void upload(const Tensor& host, Tensor& device) = 0;
  virtual void download(const Tensor& device, Tensor& host) = 0;
};

}  // namespace oinfer::runtime
