// The CUDA backend's device layer, and its contract with the runtime.
//
// ---- Contract for the runtime (planner / executor) ------------------------
// 1. Registration. OpDef::cuda is set (register_cuda, called last from
//    registerAll) for every since_version of the ops listed in
//    docs/operators.md under CUDA, and of the transformer passes' ai.oinfer
//    FusedMatMul, LayerNorm and Gelu (float). A CUDA factory may return nullptr: it
//    declines that node (unsupported dtype, attribute, opset form, or a
//    value-dependent input that is neither constant nor host-readable), and the
//    node then runs on the CPU kernel. Every kernel a CUDA factory returns is a
//    `cuda::CudaKernel` (dynamic_cast works; there is no other kind).
// 2. Factories run on the host thread that builds the plan, with the device
//    that the plan will run on current (cudaSetDevice). They parse attributes,
//    and upload constant inputs they consume (weights) into device memory
//    they own. cuDNN descriptors and algorithms (heuristics, v7 API) are made
//    at the first run with a new input shape, cached per shape under a lock.
// 3. Placement of inputs: `CudaKernel::inputPlace(i)`:
//      kDevice  the runtime passes a tensor whose data is device memory;
//      kHost    the runtime passes a HOST tensor (shape parameters: Slice
//               starts, Pad pads, Resize scales, Expand shape, Reduce axes,
//               Split sizes; these come from host shape subgraphs);
//      kOwned   the kernel uploaded this constant itself in its factory and
//               never reads ctx.input(i): the runtime may bind the host
//               constant, or anything of that shape, and needn't copy it.
//    Outputs are always device tensors (Tensor::wrap over arena memory) with
//    the planned shape; the kernel writes every element.
// 4. KernelContext: `stream_` is the run's cudaStream_t, `deviceCtx_` a
//    `cuda::CudaContext*` for the device, owned by the runtime, used by one run
//    at a time (it holds the cuBLAS/cuDNN handles, bound to the stream by the
//    kernels, and the scratch workspace). Concurrent runs need one CudaContext
//    each (e.g. one per arena/executor slot); kernels themselves hold no
//    per-run state, so one plan's kernels may serve concurrent runs.
// 5. Workspace and CUDA Graph capture: kernels finish their lazy per-shape
//    setup (cuDNN descriptors and algorithm, Resize tables) in the first run
//    with a new shape, which may allocate and copy synchronously; so run a
//    plan once eagerly, then CudaContext::reserveWorkspace(max over kernels
//    of workspaceBytes()), then capture. From then on run() never allocates
//    or synchronizes. A kernel whose captureSafe() is false (it reads host
//    inputs at run time: values can change between replays) must not be
//    captured; plans holding one run eagerly.
// 6. Fusion: Conv and ConvTranspose accept an optional string attribute
//    "activation" (Relu, LeakyRelu, Sigmoid, Tanh, Clip, HardSwish, Gelu) with
//    floats "activation_params", applied in their bias epilogue; a graph pass
//    may set it on nodes it places on CUDA (the CPU kernels ignore it).
// 7. Errors: every CUDA/cuBLAS/cuDNN failure throws oinfer::Error with
//    ErrorCode::kDevice, the library's error string and the node.
// 8. No device: cudaDeviceAvailable(&why) is false (why: one line); no factory
//    may be called then (factories upload constants).
// 9. Views: Reshape, Flatten, Squeeze, Unsqueeze, Identity stay views of a
//    device buffer (OpDef::viewOfInput); they need no CUDA kernel.
#pragma once

#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <cudnn.h>

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "ops/kernel.h"
#include "ops/cuda/cuda_launch.h"

namespace oinfer {
class Registry;
}

namespace oinfer::cuda {

// True when a CUDA device can be used; otherwise false and `why` (if given)
// holds one line, e.g. "CUDA driver version is insufficient for CUDA runtime
// version". Never throws.
bool cudaDeviceAvailable(std::string* why = nullptr);

[[noreturn]] void throwDevice(const std::string& what, const std::string& detail, const Node* node);
void check(cudaError_t e, const char* what, const Node* node = nullptr);
void check(cublasStatus_t e, const char* what, const Node* node = nullptr);
void check(cudnnStatus_t e, const char* what, const Node* node = nullptr);
#define OINFER_CUDA_CHECK(expr, node) ::oinfer::cuda::check((expr), #expr, (node))

// Owned device memory (cudaMalloc / cudaFree), move-only.
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t bytes, const Node* node = nullptr);
  ~DeviceBuffer();
  DeviceBuffer(DeviceBuffer&& o) noexcept : p_(o.p_), n_(o.n_) { o.p_ = nullptr, o.n_ = 0; }
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  void* get() const { return p_; }
  template <class T> T* as() const { return static_cast<T*>(p_); }
  size_t bytes() const { return n_; }
  // A synchronous copy of host bytes into a new buffer.
  static DeviceBuffer upload(const void* host, size_t bytes, const Node* node = nullptr);
  static DeviceBuffer upload(const Tensor& host, const Node* node = nullptr) {
    return upload(host.data(), host.nbytes(), node);
  }

 private:
  void* p_ = nullptr;
  size_t n_ = 0;
};

// Handles and scratch for one device, used by one run at a time.
class CudaContext {
 public:
  explicit CudaContext(int device = 0);
  ~CudaContext();
  CudaContext(const CudaContext&) = delete;
  CudaContext& operator=(const CudaContext&) = delete;

  int device() const { return device_; }
  cublasHandle_t cublas() const { return cublas_; }
  cublasLtHandle_t cublasLt() const { return lt_; }
  cudnnHandle_t cudnn() const { return cudnn_; }
  // Points the cuBLAS and cuDNN handles at `s` (cheap when already there).
  void bind(cudaStream_t s, const Node* node = nullptr);
  // Scratch of at least `bytes`; grows (cudaMalloc, synchronizing) only when
  // too small, which must not happen during capture: see reserveWorkspace.
  void* workspace(size_t bytes, const Node* node = nullptr);
  void reserveWorkspace(size_t bytes) { workspace(bytes); }
  size_t workspaceBytes() const { return ws_.bytes(); }

  // TF32 tensor-core math for fp32 Conv/Gemm/MatMul (faster, ~1e-3 relative
  // error). Off by default: results then match the CPU kernels closely.
  bool allowTF32 = false;

 private:
  int device_ = 0;
  cublasHandle_t cublas_ = nullptr;
  cublasLtHandle_t lt_ = nullptr;
  cudnnHandle_t cudnn_ = nullptr;
  cudaStream_t bound_ = nullptr;
  bool boundOnce_ = false;
  DeviceBuffer ws_;
  DeviceBuffer cublasWs_;  // cuBLAS's own, so it never allocates during capture
};

// A process-wide context per device for factories (algorithm search); not for
// runs. Created on first use.
CudaContext& factoryContext();

enum class InputPlace { kDevice, kHost, kOwned };

// Base of every CUDA kernel: declares where each input lives and owns the
// constants the factory uploaded.
class CudaKernel : public Kernel {
 public:
  InputPlace inputPlace(size_t i) const { return i < places_.size() ? places_[i] : InputPlace::kDevice; }
  virtual size_t workspaceBytes() const { return 0; }
  virtual bool captureSafe() const { return captureSafe_; }

 protected:
  // Uploads constant input i (if it is one) and marks it kOwned.
  bool own(const KernelInit& init, size_t i);
  void markHost(size_t i);
  // Device pointer and shape of input i (owned or passed by the runtime).
  const void* in(const KernelContext& ctx, size_t i) const;
  const std::vector<int64_t>& shapeOf(const KernelContext& ctx, size_t i) const;
  DataType dtypeOf(const KernelContext& ctx, size_t i) const;
  bool present(const KernelContext& ctx, size_t i) const;

  std::vector<InputPlace> places_;
  std::vector<DeviceBuffer> ownedBuf_;
  std::vector<Tensor> ownedHost_;  // the host constant (shape, dtype; values for host-side use)
  bool captureSafe_ = true;
};

// The stream and context of a run, checked to be set; binds the handles.
struct Run {
  cudaStream_t stream;
  CudaContext& ctx;
};
Run runOf(KernelContext& kctx);

// Values of a host-side integer input: the constant if known, else the host
// tensor passed at run time (nullptr from `ctx` at factory time).
std::vector<int64_t> hostInts(const KernelInit& init, const KernelContext* ctx, size_t i);

// Element dtype code for the launch layer; kNone when not supported there.
Dt dtOf(DataType t);

void register_cuda(Registry& r);

}  // namespace oinfer::cuda
