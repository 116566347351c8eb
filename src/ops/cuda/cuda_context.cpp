// The device layer: availability, error checks, device memory, the per-device
// context of handles and workspace, and the CudaKernel base.
#include <map>
#include <mutex>

#include "ops/cuda/cuda_kernel.h"
#include "ops/cuda/cuda_ops.h"

namespace oinfer::cuda {

bool cudaDeviceAvailable(std::string* why) {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    cudaGetLastError();  // clear the sticky-free error so later calls start clean
    if (why) *why = cudaGetErrorString(e);
    return false;
  }
  if (count == 0) {
    if (why) *why = "no CUDA device found";
    return false;
  }
  return true;
}

void throwDevice(const std::string& what, const std::string& detail, const Node* node) {
  std::string msg = node ? node->describe() + ": " : std::string("cuda: ");
  msg += what + " failed: " + detail;
  throw Error(ErrorCode::kDevice, msg);
}

void check(cudaError_t e, const char* what, const Node* node) {
  if (e != cudaSuccess) throwDevice(what, std::string(cudaGetErrorName(e)) + " (" + cudaGetErrorString(e) + ")", node);
}
void check(cublasStatus_t e, const char* what, const Node* node) {
  if (e != CUBLAS_STATUS_SUCCESS)
    throwDevice(what, std::string(cublasGetStatusName(e)) + " (" + cublasGetStatusString(e) + ")", node);
}
void check(cudnnStatus_t e, const char* what, const Node* node) {
  if (e != CUDNN_STATUS_SUCCESS) throwDevice(what, cudnnGetErrorString(e), node);
}

// ---- DeviceBuffer -------------------------------------------------------------

DeviceBuffer::DeviceBuffer(size_t bytes, const Node* node) : n_(bytes) {
  if (bytes > 0) check(cudaMalloc(&p_, bytes), "cudaMalloc", node);
}
DeviceBuffer::~DeviceBuffer() {
  if (p_) cudaFree(p_);
}
DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& o) noexcept {
  if (this != &o) {
    if (p_) cudaFree(p_);
    p_ = o.p_;
    n_ = o.n_;
    o.p_ = nullptr;
    o.n_ = 0;
  }
  return *this;
}
DeviceBuffer DeviceBuffer::upload(const void* host, size_t bytes, const Node* node) {
  DeviceBuffer b(bytes, node);
  if (bytes > 0) check(cudaMemcpy(b.p_, host, bytes, cudaMemcpyHostToDevice), "cudaMemcpy (upload)", node);
  return b;
}

// ---- CudaContext -----------------------------------------------------------------

CudaContext::CudaContext(int device) : device_(device) {
  check(cudaSetDevice(device), "cudaSetDevice");
  check(cublasCreate(&cublas_), "cublasCreate");
  check(cublasLtCreate(&lt_), "cublasLtCreate");
  check(cudnnCreate(&cudnn_), "cudnnCreate");
  check(cublasSetMathMode(cublas_, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
  cublasWs_ = DeviceBuffer(size_t(32) << 20);
}

CudaContext::~CudaContext() {
  if (cudnn_) cudnnDestroy(cudnn_);
  if (lt_) cublasLtDestroy(lt_);
  if (cublas_) cublasDestroy(cublas_);
}

void CudaContext::bind(cudaStream_t s, const Node* node) {
  if (boundOnce_ && s == bound_) return;
  check(cublasSetStream(cublas_, s), "cublasSetStream", node);
  // cublasSetStream resets cuBLAS to its default workspace pool.
  check(cublasSetWorkspace(cublas_, cublasWs_.get(), cublasWs_.bytes()), "cublasSetWorkspace", node);
  check(cudnnSetStream(cudnn_, s), "cudnnSetStream", node);
  bound_ = s;
  boundOnce_ = true;
}

void* CudaContext::workspace(size_t bytes, const Node* node) {
  if (bytes == 0) return ws_.get();
  if (ws_.bytes() < bytes) {
    // Work queued on the old buffer must finish before it is freed.
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize (workspace growth)", node);
    ws_ = DeviceBuffer();
    ws_ = DeviceBuffer((bytes + 0xFFFFF) & ~size_t(0xFFFFF), node);
  }
  return ws_.get();
}

CudaContext& factoryContext() {
  static std::mutex mu;
  static std::map<int, std::unique_ptr<CudaContext>> contexts;
  int dev = 0;
  check(cudaGetDevice(&dev), "cudaGetDevice");
  std::lock_guard<std::mutex> lock(mu);
  auto& c = contexts[dev];
  if (!c) c = std::make_unique<CudaContext>(dev);
  return *c;
}

// ---- CudaKernel ----------------------------------------------------------------------

bool CudaKernel::own(const KernelInit& init, size_t i) {
  const Tensor* t = init.constInput(i);
  if (!t) return false;
  if (places_.size() <= i) places_.resize(i + 1, InputPlace::kDevice);
  if (ownedBuf_.size() <= i) ownedBuf_.resize(i + 1);
  if (ownedHost_.size() <= i) ownedHost_.resize(i + 1);
  ownedBuf_[i] = DeviceBuffer::upload(*t, &init.node);
  ownedHost_[i] = *t;
  places_[i] = InputPlace::kOwned;
  return true;
}

void CudaKernel::markHost(size_t i) {
  if (places_.size() <= i) places_.resize(i + 1, InputPlace::kDevice);
  places_[i] = InputPlace::kHost;
}

const void* CudaKernel::in(const KernelContext& ctx, size_t i) const {
  if (inputPlace(i) == InputPlace::kOwned) return ownedBuf_[i].get();
  return ctx.input(i).data();
}
const std::vector<int64_t>& CudaKernel::shapeOf(const KernelContext& ctx, size_t i) const {
  if (inputPlace(i) == InputPlace::kOwned) return ownedHost_[i].shape();
  return ctx.input(i).shape();
}
DataType CudaKernel::dtypeOf(const KernelContext& ctx, size_t i) const {
  if (inputPlace(i) == InputPlace::kOwned) return ownedHost_[i].dtype();
  return ctx.input(i).dtype();
}
bool CudaKernel::present(const KernelContext& ctx, size_t i) const {
  return inputPlace(i) == InputPlace::kOwned || ctx.hasInput(i);
}

Run runOf(KernelContext& kctx) {
  if (!kctx.deviceCtx_)
    throw Error(ErrorCode::kInternal,
                kctx.node().describe() + ": CUDA kernel run without a device context (KernelContext::deviceCtx_)");
  auto* c = static_cast<CudaContext*>(kctx.deviceCtx_);
  auto stream = static_cast<cudaStream_t>(kctx.stream_);
  c->bind(stream, &kctx.node());
  return Run{stream, *c};
}

std::vector<int64_t> hostInts(const KernelInit& init, const KernelContext* ctx, size_t i) {
  if (const Tensor* t = init.constInput(i)) return t->toInt64Vector();
  if (ctx && ctx->hasInput(i)) return ctx->input(i).toInt64Vector();
  return {};
}

Dt dtOf(DataType t) {
  switch (t) {
    case DataType::kFloat: return Dt::kF32;
    case DataType::kFloat16: return Dt::kF16;
    case DataType::kDouble: return Dt::kF64;
    case DataType::kInt32: return Dt::kI32;
    case DataType::kInt64: return Dt::kI64;
    case DataType::kInt8: return Dt::kI8;
    case DataType::kUInt8: return Dt::kU8;
    case DataType::kBool: return Dt::kBool;
    default: return Dt::kNone;
  }
}

int dtSize(Dt t) {
  switch (t) {
    case Dt::kF32: case Dt::kI32: return 4;
    case Dt::kF16: return 2;
    case Dt::kF64: case Dt::kI64: return 8;
    case Dt::kI8: case Dt::kU8: case Dt::kBool: return 1;
    default: return 0;
  }
}

// ---- geometry ------------------------------------------------------------------------

std::vector<int64_t> contiguousStrides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> st(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;) st[d - 1] = st[d] * shape[d];
  return st;
}

BcastGeom makeBcast(const KernelContext& ctx, const std::vector<int64_t>& out,
                    const std::vector<const std::vector<int64_t>*>& ins) {
  BcastGeom g;
  g.n = 1;
  for (int64_t d : out) g.n *= d;
  g.flat = true;
  for (const auto* s : ins)
    if (*s != out) g.flat = false;
  if (g.flat) return g;
  // Merge adjacent output dims where every input is either contiguous across
  // both or broadcast across both: keeps rank low for typical bias adds.
  const size_t r = out.size();
  std::vector<std::vector<int64_t>> st(ins.size(), std::vector<int64_t>(r, 0));
  for (size_t k = 0; k < ins.size(); ++k) {
    const auto& s = *ins[k];
    if (s.size() > r) ctx.fail("input " + std::to_string(k) + " has higher rank than the output");
    const size_t off = r - s.size();
    int64_t stride = 1;
    for (size_t d = s.size(); d-- > 0;) {
      st[k][off + d] = s[d] == 1 ? 0 : stride;
      stride *= s[d];
    }
  }
  std::vector<int64_t> dims;
  std::vector<std::vector<int64_t>> mst(ins.size());
  for (size_t d = 0; d < r; ++d) {
    if (out[d] == 1) continue;
    bool merge = !dims.empty();
    for (size_t k = 0; k < ins.size() && merge; ++k) {
      const int64_t prev = mst[k].back();
      const int64_t cur = st[k][d];
      merge = (prev == 0 && cur == 0) || (cur != 0 && prev == cur * out[d]);
    }
    if (merge) {
      dims.back() *= out[d];
      for (size_t k = 0; k < ins.size(); ++k) mst[k].back() = st[k][d];
    } else {
      dims.push_back(out[d]);
      for (size_t k = 0; k < ins.size(); ++k) mst[k].push_back(st[k][d]);
    }
  }
  if (dims.size() > static_cast<size_t>(kMaxRank))
    ctx.fail("broadcast needs " + std::to_string(dims.size()) + " dims; the CUDA kernels handle at most " +
             std::to_string(kMaxRank));
  g.rank = static_cast<int>(dims.size());
  for (size_t d = 0; d < dims.size(); ++d) {
    g.dims[d] = dims[d];
    for (size_t k = 0; k < ins.size(); ++k) g.st[k][d] = mst[k][d];
  }
  return g;
}

CopyGeom makeCopy(const KernelContext& ctx, std::vector<int64_t> dims, std::vector<int64_t> ss,
                  std::vector<int64_t> ds, int64_t srcOff, int64_t dstOff) {
  CopyGeom g;
  g.srcOff = srcOff;
  g.dstOff = dstOff;
  g.n = 1;
  for (int64_t d : dims) g.n *= d;
  std::vector<int64_t> md, ms, mds;
  for (size_t d = 0; d < dims.size(); ++d) {
    if (dims[d] == 1) continue;
    if (!md.empty() && ms.back() == ss[d] * dims[d] && mds.back() == ds[d] * dims[d]) {
      md.back() *= dims[d];
      ms.back() = ss[d];
      mds.back() = ds[d];
    } else {
      md.push_back(dims[d]);
      ms.push_back(ss[d]);
      mds.push_back(ds[d]);
    }
  }
  if (md.size() > static_cast<size_t>(kMaxRank))
    ctx.fail("a copy over " + std::to_string(md.size()) + " dims; the CUDA kernels handle at most " +
             std::to_string(kMaxRank));
  g.rank = static_cast<int>(md.size());
  for (size_t d = 0; d < md.size(); ++d) {
    g.dims[d] = md[d];
    g.ss[d] = ms[d];
    g.ds[d] = mds[d];
  }
  return g;
}

}  // namespace oinfer::cuda
