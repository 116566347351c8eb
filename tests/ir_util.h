// Test access to the IR behind the public Graph, and the built-in registry,
// for the tests that build, edit or inspect graphs node by node.
#pragma once

#include <string>
#include <utility>

#include "api/builtin_registry.h"
#include "graph/graph_access.h"
#include "ops/graph_shapes.h"
#include "passes/passes.h"

namespace oinfer {

inline ir::Graph& irOf(Graph& g) { return detail::GraphAccess::ir(g); }
inline const ir::Graph& irOf(const Graph& g) { return detail::GraphAccess::ir(g); }
inline Graph wrap(ir::Graph g) { return detail::GraphAccess::wrap(std::move(g)); }
inline ir::Graph loadIr(const std::string& path) { return detail::GraphAccess::take(Graph::loadFromONNX(path)); }
inline ir::Graph loadIr(Graph g) { return detail::GraphAccess::take(std::move(g)); }

// Shape inference and passes with the built-in registry.
inline void inferShapes(ir::Graph& g) { inferShapes(g, builtinRegistry()); }
inline passes::PassContext passContext(bool blockedLayout = false) { return {builtinRegistry(), blockedLayout}; }

}  // namespace oinfer
