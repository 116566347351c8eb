// Calling a templated body for a runtime DataType.
//
//   dispatchType<float, double, int64_t>(t.dtype(), [&](auto tag) {
//     using T = typename decltype(tag)::type;
//     ...
//   }, ctx.node());
#pragma once

#include <string>
#include <type_traits>

#include "oinfer/error.h"
#include "graph/ir.h"
#include "oinfer/tensor.h"

namespace oinfer {

template <class T> struct TypeTag { using type = T; };

template <class... Ts, class F>
void dispatchType(DataType dt, F&& f, const Node& node) {
  bool done = ((dt == dataTypeOf<Ts> ? (f(TypeTag<Ts>{}), true) : false) || ...);
  if (!done)
    throw Error(ErrorCode::kUnsupportedOp,
                node.describe() + ": data type " + dataTypeName(dt) + " is not supported");
}

}  // namespace oinfer
