// Custom ops (include/oinfer/custom_op.h) inside the engine: each CustomOp
// becomes an OpDef whose shape function and CPU kernel factory adapt the
// narrow public contexts (CustomShapeContext, CustomKernelInit,
// CustomKernelContext) onto the internal ones (shape::InferContext,
// KernelInit, KernelContext), and the registries that hold them sit over the
// built-in one (Registry's base): the global custom ops over the built-in
// registry, a session's own sets and libraries over that.
#pragma once

#include <memory>

#include "oinfer/custom_op.h"
#include "oinfer/session.h"
#include "ops/registry.h"

namespace oinfer {

// The built-in ops with the global custom ops registered so far (a snapshot:
// later registrations make a new one). What Graph's functions and a Session
// without ops of its own use.
std::shared_ptr<const Registry> globalRegistry();

// The registry a Session with these options uses: globalRegistry() when the
// options name no custom ops, else one over it with the options' sets and
// libraries (loaded here). Errors name the op and where it comes from.
std::shared_ptr<const Registry> sessionRegistry(const SessionOptions& options);

}  // namespace oinfer
