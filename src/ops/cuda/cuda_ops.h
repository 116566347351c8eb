// Host-side helpers shared by the CUDA kernel classes: launch checks,
// broadcast and copy geometry, and the per-family factory tables that
// register_cuda assembles.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "ops/cuda/cuda_kernel.h"

namespace oinfer::cuda {

// Throws a kDevice Error naming the node and the launcher when `e` failed.
inline void checkLaunch(cudaError_t e, const char* what, const KernelContext& ctx) { check(e, what, &ctx.node()); }

// Row-major element strides of `shape`.
std::vector<int64_t> contiguousStrides(const std::vector<int64_t>& shape);

// numpy broadcasting of up to three inputs onto `out`; collapses nothing,
// so rank must be <= kMaxRank (an Error naming the node otherwise).
BcastGeom makeBcast(const KernelContext& ctx, const std::vector<int64_t>& out,
                    const std::vector<const std::vector<int64_t>*>& ins);

// Merges adjacent dims that are contiguous in both source and destination,
// then fills a CopyGeom; rank after merging must be <= kMaxRank.
CopyGeom makeCopy(const KernelContext& ctx, std::vector<int64_t> dims, std::vector<int64_t> ss,
                  std::vector<int64_t> ds, int64_t srcOff, int64_t dstOff);

// The dtype of input i as planned, or kUndefined when absent.
inline DataType plannedType(const KernelInit& init, size_t i) {
  return init.hasInput(i) ? init.inputs[i]->dtype : DataType::kUndefined;
}
// Element size for the type-agnostic movers: 1, 2, 4, 8, or 0 (unsupported).
inline int moverSize(DataType t) {
  if (t == DataType::kString || t == DataType::kUndefined) return 0;
  const size_t s = dataTypeSize(t);
  return (s == 1 || s == 2 || s == 4 || s == 8) ? static_cast<int>(s) : 0;
}
inline bool isFloatLike(DataType t) { return t == DataType::kFloat || t == DataType::kFloat16; }

// One op's CUDA factory, for every since_version that register_cuda finds.
struct CudaOp {
  std::string op;
  KernelFactory factory;
  std::string domain;  // "" = ai.onnx; "ai.oinfer" for the graph passes' fused ops
};
std::vector<CudaOp> elementwiseOps();
std::vector<CudaOp> tensorOps();
std::vector<CudaOp> reduceOps();
std::vector<CudaOp> dnnOps();

}  // namespace oinfer::cuda
