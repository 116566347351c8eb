#pragma once

#define OINFER_VERSION_MAJOR 0
#define OINFER_VERSION_MINOR 1
#define OINFER_VERSION_PATCH 0
#define OINFER_VERSION_STRING "0.1.0"

namespace oinfer {
inline const char* version() { return OINFER_VERSION_STRING; }
}  // namespace oinfer
