#include "api/builtin_registry.h"

#include "ops/cpu/register_all.h"

#ifdef OINFER_HAVE_CUDA
#include "ops/cuda/cuda_backend.h"
#endif

namespace oinfer {

const Registry& builtinRegistry() {
  static const Registry* r = [] {
    auto* reg = new Registry();
    registerCpuOps(*reg);
#ifdef OINFER_HAVE_CUDA
    cuda::register_cuda(*reg);  // after the CPU entries it attaches to
#endif
    return reg;
  }();
  return *r;
}

}  // namespace oinfer
