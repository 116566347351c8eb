#pragma once

#define OINFER_VERSION_MAJOR 0
#define OINFER_VERSION_MINOR 2
#define OINFER_VERSION_PATCH 0
#define OINFER_VERSION_STRING "0.2.0"

namespace oinfer {
inline const char* version() { return OINFER_VERSION_STRING; }
}  // namespace oinfer
