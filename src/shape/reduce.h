// Shape functions of the reduce family: Reduce*, ArgMax/ArgMin, Softmax,
// LogSoftmax, Hardmax.
#pragma once

#include <optional>

#include "shape/infer_context.h"

namespace oinfer::shape {

// The opset from which a Reduce op takes `axes` as input 1 instead of an
// attribute (13 for ReduceSum, 18 for the others).
int64_t reduceAxesInputSince(const std::string& opType);

// Which axes of a rank-`rank` input a Reduce node folds, from its attribute or
// the given value of its axes input. nullopt: the axes input's value is not
// known. No axes with noop_with_empty_axes=0 already comes back as "all".
std::optional<std::vector<bool>> reducedAxes(const Node& node, int64_t opset, int64_t rank,
                                             bool axesInputPresent, const Tensor* axesValue);

void inferReduce(InferContext& ctx);
void inferArgReduce(InferContext& ctx);  // ArgMax, ArgMin
void inferSoftmax(InferContext& ctx);    // Softmax, LogSoftmax, Hardmax

}  // namespace oinfer::shape
