// The bridge between the public oinfer::Graph (a value type over the IR) and
// the IR itself, for the layers that implement the API (the parser builds an
// ir::Graph, a Session takes one) and for the tests.
#pragma once

#include <memory>
#include <utility>

#include "graph/ir.h"
#include "oinfer/graph.h"

namespace oinfer::detail {

struct GraphAccess {
  // The IR a Graph holds; a moved-from Graph gets a fresh empty one.
  static ir::Graph& ir(Graph& g) {
    if (!g.ir_) g.ir_ = std::make_unique<ir::Graph>();
    return *g.ir_;
  }
  static const ir::Graph& ir(const Graph& g) {
    static const ir::Graph empty;
    return g.ir_ ? *g.ir_ : empty;
  }
  static Graph wrap(ir::Graph g) {
    Graph out;
    *out.ir_ = std::move(g);
    return out;
  }
  static ir::Graph take(Graph&& g) {
    ir::Graph out = std::move(ir(g));
    g.ir_.reset();
    return out;
  }
};

}  // namespace oinfer::detail
