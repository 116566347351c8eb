// Running one node on known inputs outside a Session: constant folding during
// shape inference, and the runtime's fallback for data-dependent shapes.
#pragma once

#include <vector>

#include "graph/ir.h"
#include "ops/registry.h"
#include "shape/infer.h"

namespace oinfer {

// Binds a node to its entry in `r` for the graph's opsets (nullptr if none).
const OpDef* findOpDef(const Registry& r, const ir::Graph& g, const Node& node);

// Evaluates `node` with every input known. Returns false when the op has no
// CPU kernel or is not deterministic.
bool evaluateNode(const Registry& r, const Node& node, int64_t opset, const std::vector<const Tensor*>& inputs,
                  const std::vector<ValueInfo>& outputTypes, std::vector<Tensor>& outputs);

// Shape-inference hooks backed by `r`, for graph `g` (both outlive the hooks).
shape::InferHooks makeInferHooks(const Registry& r, const ir::Graph& g);

}  // namespace oinfer
