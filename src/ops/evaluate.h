// Running one node on known inputs outside a Session: constant folding during
// shape inference, and the runtime's fallback for data-dependent shapes.
#pragma once

#include <vector>

#include "oinfer/graph.h"
#include "ops/registry.h"
#include "shape/infer.h"

namespace oinfer {

// Binds a node to its registry entry for the graph's opsets (nullptr if none).
const OpDef* findOpDef(const Graph& g, const Node& node);

// Evaluates `node` with every input known. Returns false when the op has no
// CPU kernel or is not deterministic.
bool evaluateNode(const Node& node, int64_t opset, const std::vector<const Tensor*>& inputs,
                  const std::vector<ValueInfo>& outputTypes, std::vector<Tensor>& outputs);

// Shape-inference hooks backed by the global registry, for graph `g`.
shape::InferHooks makeInferHooks(const Graph& g);

}  // namespace oinfer
