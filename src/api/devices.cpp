#include "api/devices.h"

#ifdef OINFER_HAVE_CUDA
#include "ops/cuda/cuda_backend.h"
#endif

namespace oinfer {

runtime::DeviceBackend* deviceBackend(Device device) {
#ifdef OINFER_HAVE_CUDA
  if (device == Device::kCUDA) return &cuda::backend();
#endif
  return nullptr;
}

std::string deviceUnavailable(Device device, int index) {
  if (device == Device::kCPU) return {};
  runtime::DeviceBackend* b = deviceBackend(device);
  if (!b) return "this build of oinfer has no CUDA backend";
  return b->unavailable(index);
}

}  // namespace oinfer
