// The shape inference driver.
//
// Walks a sorted graph once, node by node. For each node it gathers the types
// of the inputs, their values where known (initializers, Constants, folded
// shape computations) and their symbolic values (1-d integer tensors whose
// elements are dims, such as Shape's output on a [batch,seq] tensor), calls the
// op's shape function, and records the outputs' types. When every input of a
// deterministic node has a known value and the inputs are small, the node is
// evaluated on the spot (constant folding through the op's own CPU kernel), so
// Shape -> Gather -> Concat -> Reshape chains give Reshape a concrete or
// symbolic target before any input exists. Declared value_info refines
// inferred dims that are only fresh symbols.
//
// The driver knows nothing about the registry: the caller supplies a lookup
// for shape functions and an evaluator for folding (dependencies point
// runtime -> ops -> shape -> graph).
//
// Limits: one pass, no fixed-point iteration; values are only propagated for
// tensors of at most kMaxFoldElements elements per input (outputs: kMaxFoldOutputBytes); subgraph bodies are
// typed by their own ops (If/Loop/Scan shape functions call back in).
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "graph/ir.h"
#include "shape/infer_context.h"

namespace oinfer::shape {

struct InferState {
  std::map<std::string, ValueInfo> types;
  std::map<std::string, Tensor> values;  // known values (constants, folded)
  std::map<std::string, std::vector<Dim>> symValues;
  size_t foldedBytes = 0;  // bytes of the outputs folded so far (kMaxFoldTotalBytes)
  // Set by the runtime when it re-infers a dynamic step during a run (every
  // input's value known); shape functions see it as InferContext::atRunTime.
  bool runTime = false;
};

struct InferHooks {
  // Shape function of a node (nullptr when the registry lacks the op).
  std::function<const ShapeFn*(const Node&)> shapeFn;
  // Evaluates a node on known inputs; returns false when it cannot (no
  // kernel, non-deterministic op). Outputs come back in node output order.
  std::function<bool(const Node&, const std::vector<const Tensor*>& inputs,
                     const std::vector<ValueInfo>& outputTypes, std::vector<Tensor>& outputs)>
      evaluate;
  // Opset of a node's domain.
  std::function<int64_t(const Node&)> opset;
};

constexpr int64_t kMaxFoldElements = 1 << 16;
// Folding never materializes a value larger than this per node, nor more than
// kMaxFoldTotalBytes in one inference pass: small inputs can describe a huge
// output (ConstantOfShape, Expand, Tile, Range), which is then left to the
// run, under SessionOptions::memoryLimitBytes.
constexpr size_t kMaxFoldOutputBytes = size_t{16} << 20;
constexpr size_t kMaxFoldTotalBytes = size_t{256} << 20;

// Rethrows an Error raised while `node` was inferred, folded or run
// (Tensor::toInt64Vector on a float shape input, a kernel's own check) with
// "<node>: " in front when its message names no node, so every error says
// where it arose.
[[noreturn]] void rethrowNamingNode(const Node& node, const Error& e);

// Type of a concrete tensor.
ValueInfo valueInfoOf(const std::string& name, const Tensor& t);
// Records a known value (and, for small integer tensors, its dims-as-value).
void setKnownValue(const std::string& name, const Tensor& t, InferState& state);

// Seeds `state` with the graph's initializers and declared inputs.
void seedState(const ir::Graph& g, InferState& state);
// Infers every node of the sorted graph `g` into `state`.
void inferNodes(const ir::Graph& g, InferState& state, const InferHooks& hooks, SymbolGenerator& symbols,
                bool fold = true);
// Infers one node into `state`; returns false when an input's type is unknown.
bool inferNode(const Node& node, InferState& state, const InferHooks& hooks, SymbolGenerator& symbols,
               const ir::Graph* declared, bool fold);

}  // namespace oinfer::shape
