// Attaches the CUDA factories to the registry entries the CPU families made:
// every since_version of each op gets the same factory (the factories branch
// on the opset and decline forms they do not handle). Called last from
// registerAll, so every entry exists.
#include <map>

#include "ops/cuda/cuda_ops.h"
#include "ops/registry.h"

namespace oinfer::cuda {

void register_cuda(Registry& r) {
  std::vector<CudaOp> ops;
  for (auto* family : {&elementwiseOps, &tensorOps, &reduceOps, &dnnOps})
    for (CudaOp& op : (*family)()) ops.push_back(std::move(op));
  std::map<std::pair<std::string, std::string>, KernelFactory> byName;
  for (CudaOp& op : ops) byName[{op.domain, op.op}] = std::move(op.factory);
  for (const OpDef* def : r.all()) {
    auto it = byName.find({def->domain, def->opType});
    if (it == byName.end()) continue;
    // The registry hands out const views; its entries themselves are mutable
    // objects it owns, and registration is single-threaded.
    const_cast<OpDef*>(def)->cuda = it->second;
  }
}

}  // namespace oinfer::cuda
