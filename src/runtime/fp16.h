// Opt-in half precision (SessionOptions::fp16): rewrites a float32 graph to
// compute in float16, with casts at the boundaries so callers still feed and
// read float32.
#pragma once

#include "oinfer/graph.h"

namespace oinfer::runtime {

// Float32 initializers, Constant / ConstantOfShape values and Cast(to=float)
// become float16; a Cast to float16 follows each float32 graph input and a
// Cast back to float32 precedes each float32 graph output. Inputs the ONNX
// spec keeps in float32 (Resize/Upsample scales and roi, quantization scales)
// are left as they are. Returns false (graph untouched) for graphs with
// subgraphs (If/Loop/Scan bodies keep their own float32 types).
bool convertToFloat16(Graph& g);

}  // namespace oinfer::runtime
