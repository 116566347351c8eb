// The plan-time part of a step's KernelInit, shared by the blocked-layout
// assignment (which asks kernels what they can take) and context making.
#pragma once

#include "ops/kernel.h"
#include "runtime/plan.h"

namespace oinfer::runtime {

// The plan-time part of a step's KernelInit: input / output types, constant
// inputs and the weights they name, and which are blocked.
void fillInit(const Plan& plan, const Step& step, KernelInit& init);

}  // namespace oinfer::runtime
