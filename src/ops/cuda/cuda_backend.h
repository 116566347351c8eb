// The CUDA backend: kernels (src/ops/cuda) and the runtime side that plans
// and runs device steps, behind runtime::DeviceBackend.
#pragma once

#include "runtime/device_backend.h"

namespace oinfer {
class Registry;
}

namespace oinfer::cuda {

// The process's CUDA backend (its device state is per plan and per context).
runtime::DeviceBackend& backend();

// Attaches the CUDA kernels to the registry's entries (register_cuda.cpp).
void register_cuda(Registry& r);

}  // namespace oinfer::cuda
