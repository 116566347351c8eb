// The device backends this build has (CUDA when built with it).
#pragma once

#include <string>

#include "oinfer/session.h"
#include "runtime/device_backend.h"

namespace oinfer {

// The backend of `device`, or nullptr for the CPU and for a device this
// build has no backend for.
runtime::DeviceBackend* deviceBackend(Device device);

// Empty when `device` (index `index`) can run sessions; else one line saying
// why ("this build of oinfer has no CUDA backend", "no CUDA device", ...).
std::string deviceUnavailable(Device device, int index);

}  // namespace oinfer
