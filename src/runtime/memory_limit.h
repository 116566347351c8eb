// SessionOptions::memoryLimitBytes: resolving the automatic limit, and the
// checks that refuse an allocation over it before it is made (plan time:
// static arena and output tensors; context: kernel scratch; run time: the
// outputs of steps whose shapes are known only then).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "graph/ir.h"
#include "runtime/plan.h"

namespace oinfer::runtime {

// The limit for SessionOptions::memoryLimitBytes = `requested`: 0 is the
// automatic one (3/4 of physical memory, and of RLIMIT_AS / RLIMIT_DATA when
// set), SIZE_MAX none, any other value itself.
size_t resolveMemoryLimit(size_t requested);

// Bytes of a tensor of `dtype` and `shape` (string elements count as
// std::string objects); SIZE_MAX when the count overflows.
size_t tensorBytes(DataType dtype, const std::vector<int64_t>& shape);

// Throws Error(kResourceExhausted): "<node>: output '<name>' (<dtype> <shape>)
// needs N bytes<what>; the memory limit is L bytes (SessionOptions::memoryLimitBytes)".
[[noreturn]] void throwOverLimit(const Node& node, const std::string& output, DataType dtype,
                                 const std::vector<int64_t>& shape, size_t bytes, const std::string& what,
                                 size_t limit);

// Plan time, before the arena is laid out: every static arena or owned
// tensor on the host must fit in `limit` by itself.
void checkPlanTensors(const Plan& plan, size_t limit);
// Plan time, after the layout: arena + static outputs (Plan::fixedBytes, set
// here) must fit; the message names the node with the largest tensor.
void checkPlanTotal(Plan& plan, size_t limit);

}  // namespace oinfer::runtime
