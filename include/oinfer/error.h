// oinfer::Error: the one exception type the public API throws.
#pragma once

#include <stdexcept>
#include <string>

namespace oinfer {

enum class ErrorCode {
  kInvalidModel,     // malformed or inconsistent model file / graph
  kUnsupportedOp,    // op, opset or dtype missing from the registry
  kInvalidArgument,  // bad input from the caller (names, dtypes, shapes, options)
  kShapeMismatch,    // shape inference or a kernel found incompatible shapes
  kTypeMismatch,     // dtype inconsistency inside the graph
  kIO,               // a file could not be read or written
  kNotImplemented,   // a feature exists in the spec but not here yet
  kDevice,           // device (CUDA) unavailable or failed
  kInternal,         // a bug in oinfer
  kCancelled,        // a run stopped by Session::terminate, RunOptions::terminate or a deadline
  kResourceExhausted,  // over SessionOptions::memoryLimitBytes (checked before allocating)
};

const char* errorCodeName(ErrorCode code);

class Error : public std::runtime_error {
 public:
  Error(ErrorCode code, const std::string& message)
      : std::runtime_error(message), code_(code) {}
  ErrorCode code() const noexcept { return code_; }

 private:
  ErrorCode code_;
};

}  // namespace oinfer
