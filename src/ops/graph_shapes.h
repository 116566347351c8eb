// Graph-level questions that need the registry: which ops a graph uses that
// it lacks, and typing every value of a graph.
#pragma once

#include <string>
#include <vector>

#include "graph/ir.h"
#include "ops/registry.h"

namespace oinfer {

// The ops `r` lacks for the graph's opsets (subgraphs included), one line
// each with an example node; empty when everything is supported.
std::vector<std::string> unsupportedOps(const ir::Graph& g, const Registry& r);

// Every op of the graph (subgraphs included) with its node count and whether
// `r` has it for the graph's opset of its domain; sorted by domain, op type.
std::vector<OpUse> opsUsed(const ir::Graph& g, const Registry& r);

// Types every value of `g` (sorting it first when needed), propagating
// symbolic dims and the values of small integer shape tensors; declared
// output dims keep their names where inference found only fresh symbols.
// An unsupported op is a kUnsupportedOp Error listing every missing op.
void inferShapes(ir::Graph& g, const Registry& r);

}  // namespace oinfer
