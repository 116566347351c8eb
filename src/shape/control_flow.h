// Shape functions of the ops that own subgraphs: If, Loop, Scan, and of the
// sequence and optional ops (SequenceMap runs a body too).
//
// Bodies are typed by running the driver over them, seeded with the formal
// inputs' types and the enclosing graph's types for outer-scope names, so a
// branch's output shapes are as precise as the main graph's.
#pragma once

#include "shape/infer_context.h"

namespace oinfer::shape {

void inferIf(InferContext& ctx);
void inferLoop(InferContext& ctx);
void inferScan(InferContext& ctx);

void inferSequenceEmpty(InferContext& ctx);
void inferSequenceConstruct(InferContext& ctx);
void inferSequenceInsert(InferContext& ctx);
void inferSequenceAt(InferContext& ctx);
void inferSequenceErase(InferContext& ctx);
void inferSequenceLength(InferContext& ctx);
void inferSplitToSequence(InferContext& ctx);
void inferConcatFromSequence(InferContext& ctx);
void inferSequenceMap(InferContext& ctx);
void inferOptional(InferContext& ctx);
void inferOptionalHasElement(InferContext& ctx);
void inferOptionalGetElement(InferContext& ctx);

}  // namespace oinfer::shape
