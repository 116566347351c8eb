#include "shape/reduce.h"

#include <string>

namespace oinfer::shape {

int64_t reduceAxesInputSince(const std::string& opType) { return opType == "ReduceSum" ? 13 : 18; }

std::optional<std::vector<bool>> reducedAxes(const Node& node, int64_t opset, int64_t rank,
                                             bool axesInputPresent, const Tensor* axesValue) {
  std::vector<int64_t> axes;
  if (opset >= reduceAxesInputSince(node.opType)) {
    if (axesInputPresent) {
      if (!axesValue) return std::nullopt;
      axes = axesValue->toInt64Vector();
    }
  } else {
    axes = node.attrInts("axes", {});
  }
  std::vector<bool> reduced(rank, false);
  if (axes.empty()) {
    // Opset 13/18 added noop_with_empty_axes: no axes can mean "none" instead of "all".
    if (node.attrInt("noop_with_empty_axes", 0) == 0) reduced.assign(rank, true);
    return reduced;
  }
  for (int64_t a : axes) {
    const int64_t n = a < 0 ? a + rank : a;
    if (n < 0 || n >= rank)
      throw Error(ErrorCode::kInvalidModel, node.describe() + ": axis " + std::to_string(a) +
                                                " is out of range for rank " + std::to_string(rank));
    if (reduced[n])
      throw Error(ErrorCode::kInvalidModel, node.describe() + ": axis " + std::to_string(a) + " is repeated");
    reduced[n] = true;
  }
  return reduced;
}

void inferReduce(InferContext& ctx) {
  const DataType dt = ctx.inputType(0);
  const bool keepdims = ctx.node().attrInt("keepdims", 1) != 0;
  if (!ctx.hasShape(0)) {
    ctx.setOutputUnknownShape(0, dt);
    return;
  }
  const Shape& in = ctx.inputShape(0);
  const bool axesInput = ctx.opset() >= reduceAxesInputSince(ctx.node().opType) && ctx.hasInput(1);
  const auto reduced = reducedAxes(ctx.node(), ctx.opset(), static_cast<int64_t>(in.size()), axesInput,
                                   axesInput ? ctx.inputValue(1) : nullptr);
  if (!reduced) {
    // Axes known only at run time: keepdims keeps the rank, and each dim is
    // either itself or 1.
    if (!keepdims) {
      ctx.setOutputUnknownShape(0, dt);
      return;
    }
    Shape out;
    for (const Dim& d : in) out.push_back(d.isStatic() && d.value == 1 ? d : ctx.freshDim());
    ctx.setOutput(0, dt, out);
    return;
  }
  Shape out;
  for (size_t d = 0; d < in.size(); ++d) {
    if (!(*reduced)[d])
      out.push_back(in[d]);
    else if (keepdims)
      out.push_back(Dim(1));
  }
  ctx.setOutput(0, dt, out);
}

void inferArgReduce(InferContext& ctx) {
  const bool keepdims = ctx.node().attrInt("keepdims", 1) != 0;
  if (!ctx.hasShape(0)) {
    ctx.setOutputUnknownShape(0, DataType::kInt64);
    return;
  }
  const Shape& in = ctx.inputShape(0);
  const int64_t axis = normalizeAxis(ctx, ctx.node().attrInt("axis", 0), static_cast<int64_t>(in.size()));
  Shape out;
  for (size_t d = 0; d < in.size(); ++d) {
    if (static_cast<int64_t>(d) != axis)
      out.push_back(in[d]);
    else if (keepdims)
      out.push_back(Dim(1));
  }
  ctx.setOutput(0, DataType::kInt64, out);
}

void inferSoftmax(InferContext& ctx) {
  if (ctx.hasShape(0)) {
    // Opset 13 changed the default axis from 1 (2-d coercion) to -1.
    const int64_t rank = static_cast<int64_t>(ctx.inputShape(0).size());
    normalizeAxis(ctx, ctx.node().attrInt("axis", ctx.opset() >= 13 ? -1 : 1), rank, ctx.opset() < 13);
  }
  propagateUnary(ctx);
}

}  // namespace oinfer::shape
