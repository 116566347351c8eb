// Shape functions of the tensor family (shape-handling ops, Constant, Cast...).
//
// These drive shape-tensor data propagation: Shape emits its input's dims as
// a symbolic value, Gather/Slice/Concat/Unsqueeze/Squeeze/Identity/Cast/
// Reshape carry such 0-d/1-d integer values along, and the value consumers
// (Reshape, Expand, ConstantOfShape, Tile, Slice, Range, Pad, OneHot) read
// them to produce exact, possibly symbolic, output shapes.
#pragma once

#include <optional>
#include <vector>

#include "shape/infer_context.h"

namespace oinfer::shape {

void inferReshape(InferContext& ctx);
void inferFlatten(InferContext& ctx);
void inferTranspose(InferContext& ctx);
void inferSqueeze(InferContext& ctx);
void inferUnsqueeze(InferContext& ctx);
void inferConcat(InferContext& ctx);
void inferSplit(InferContext& ctx);
void inferShape(InferContext& ctx);
void inferSize(InferContext& ctx);
void inferConstant(InferContext& ctx);
void inferCast(InferContext& ctx);
void inferCastLike(InferContext& ctx);
void inferIdentity(InferContext& ctx);
void inferDropout(InferContext& ctx);

void inferSlice(InferContext& ctx);
void inferGather(InferContext& ctx);
void inferGatherElements(InferContext& ctx);
void inferGatherND(InferContext& ctx);
void inferScatter(InferContext& ctx);  // Scatter, ScatterElements
void inferScatterND(InferContext& ctx);
void inferExpand(InferContext& ctx);
void inferTile(InferContext& ctx);
void inferPad(InferContext& ctx);
void inferRange(InferContext& ctx);
void inferConstantOfShape(InferContext& ctx);
void inferOneHot(InferContext& ctx);
void inferTrilu(InferContext& ctx);
void inferDepthToSpace(InferContext& ctx);
void inferSpaceToDepth(InferContext& ctx);
void inferEyeLike(InferContext& ctx);
void inferNonZero(InferContext& ctx);

namespace tensor_detail {
// Every element of integer input i when all are known (a constant, or a
// symbolic value whose dims are all static).
std::optional<std::vector<int64_t>> intValues(const InferContext& ctx, size_t i);
// The 0-d/1-d integer value of input i as dims (symbolic allowed).
std::optional<std::vector<Dim>> symValues(const InferContext& ctx, size_t i);
// Publishes an integer output value: always as symbolic dims, and also as a
// concrete tensor (dtype int64 or int32; 0-d when `scalar`) when all static.
void setIntValue(InferContext& ctx, size_t out, const std::vector<Dim>& dims, DataType dtype, bool scalar);
bool isIndexType(DataType t);
// Passes input `in`'s integer value on to output `out` (as dtype `dt`).
void propagateValue(InferContext& ctx, size_t in, size_t out, bool scalar, DataType dt);
// Cast's `to`: an int (opset 6+) or a name such as "FLOAT" (opset 1).
DataType castTarget(const Node& node);
// The tensor a Constant node holds, from whichever value_* attribute it has.
Tensor constantValue(const Node& node);
// A dim taken from a symbolic value: an empty symbol marks a literal integer
// (possibly negative, e.g. -1 in a Reshape target), a named one an unknown.
inline bool isLiteral(const Dim& d) { return d.symbol.empty(); }
// "input 1 ('shape')"
std::string inputName(const InferContext& ctx, size_t i);
}  // namespace tensor_detail

}  // namespace oinfer::shape
