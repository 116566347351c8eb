// Attaches the CUDA factories to the registry entries the CPU families made:
// every since_version of each op gets the same factory (the factories branch
// on the opset and decline forms they do not handle). Called after
// registerCpuOps, so every entry exists.
#include "ops/cuda/cuda_ops.h"
#include "ops/registry.h"

namespace oinfer::cuda {

void register_cuda(Registry& r) {
  for (auto* family : {&elementwiseOps, &tensorOps, &reduceOps, &dnnOps})
    for (CudaOp& op : (*family)()) r.attachKernel(Device::kCUDA, op.domain, op.op, std::move(op.factory));
}

}  // namespace oinfer::cuda
