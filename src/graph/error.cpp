#include "oinfer/error.h"

namespace oinfer {

const char* errorCodeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::kInvalidModel: return "InvalidModel";
    case ErrorCode::kUnsupportedOp: return "UnsupportedOp";
    case ErrorCode::kInvalidArgument: return "InvalidArgument";
    case ErrorCode::kShapeMismatch: return "ShapeMismatch";
    case ErrorCode::kTypeMismatch: return "TypeMismatch";
    case ErrorCode::kIO: return "IO";
    case ErrorCode::kNotImplemented: return "NotImplemented";
    case ErrorCode::kDevice: return "Device";
    case ErrorCode::kInternal: return "Internal";
    case ErrorCode::kCancelled: return "Cancelled";
    case ErrorCode::kResourceExhausted: return "ResourceExhausted";
  }
  return "Unknown";
}

}  // namespace oinfer
