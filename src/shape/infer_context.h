// The context a shape function sees: one node, the types of its inputs and,
// where known, their values. Shape functions live in src/shape/<family>.cpp.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "oinfer/error.h"
#include "graph/ir.h"
#include "oinfer/tensor.h"

namespace oinfer::shape {

// Hands out fresh symbols ("unk__0", "unk__1", ...) for dims that cannot be
// expressed by an existing one.
class SymbolGenerator {
 public:
  Dim fresh() { return Dim::sym("unk__" + std::to_string(next_++)); }

 private:
  int64_t next_ = 0;
};

struct InferHooks;
struct InferState;

class InferContext {
 public:
  InferContext(const Node& node, int64_t opset, SymbolGenerator& symbols)
      : node_(node), opset_(opset), symbols_(symbols) {}

  const Node& node() const { return node_; }
  int64_t opset() const { return opset_; }

  // ---- inputs ----------------------------------------------------------
  size_t numInputs() const { return inputs_.size(); }
  bool hasInput(size_t i) const { return i < inputs_.size() && inputs_[i] != nullptr; }
  // Type of input i; an Error naming the node when the input is absent.
  const ValueInfo& input(size_t i) const;
  DataType inputType(size_t i) const { return input(i).dtype; }
  bool hasShape(size_t i) const { return hasInput(i) && inputs_[i]->hasShape; }
  // Shape of input i; an Error when absent or of unknown rank.
  const Shape& inputShape(size_t i) const;
  // The concrete value of input i when known (initializer, Constant, or
  // propagated), else nullptr.
  const Tensor* inputValue(size_t i) const {
    return i < values_.size() ? values_[i] : nullptr;
  }
  // The value of a 0-d/1-d integer input as dims (some possibly symbolic),
  // e.g. the output of Shape on a [batch,3] tensor; nullptr when unknown.
  // Also available whenever inputValue() is (converted).
  const std::vector<Dim>* inputSymbolicValue(size_t i) const {
    return i < symValues_.size() ? symValues_[i] : nullptr;
  }

  // ---- outputs ---------------------------------------------------------
  size_t numOutputs() const { return outputs_.size(); }
  void setOutput(size_t i, DataType dtype, Shape shape);
  void setOutputUnknownShape(size_t i, DataType dtype);  // rank unknown
  void setOutputInfo(size_t i, const ValueInfo& info);   // kind, dtype, shape (name kept)
  void setOutputValue(size_t i, Tensor value);           // concrete data propagation
  void setOutputSymbolicValue(size_t i, std::vector<Dim> dims);

  Dim freshDim() { return symbols_.fresh(); }
  // Throws Error(kShapeMismatch) "node 'x' (Op): msg".
  [[noreturn]] void fail(const std::string& msg) const;
  [[noreturn]] void fail(ErrorCode code, const std::string& msg) const;

  // ---- filled and read by the driver -----------------------------------
  std::vector<const ValueInfo*> inputs_;
  std::vector<const Tensor*> values_;
  std::vector<const std::vector<Dim>*> symValues_;
  std::vector<ValueInfo> outputs_;
  std::vector<bool> outputSet_;
  std::vector<std::optional<Tensor>> outputValues_;
  std::vector<std::optional<std::vector<Dim>>> outputSymValues_;
  // For shape functions of ops with subgraphs (If, Loop, Scan, SequenceMap):
  // the driver's hooks and the enclosing graph's state (outer-scope types).
  const InferHooks* hooks_ = nullptr;
  const InferState* scope_ = nullptr;
  // True when the runtime re-infers a dynamic step during a run.
  bool atRunTime_ = false;

 private:
  const Node& node_;
  int64_t opset_;
  SymbolGenerator& symbols_;
};

using ShapeFn = std::function<void(InferContext&)>;

// ---- helpers shared by the family shape functions ------------------------

// Numpy-style multidirectional broadcast of two shapes; an Error naming the
// node and both shapes when static dims disagree.
Shape broadcast(InferContext& ctx, const Shape& a, const Shape& b);
// Normalises a possibly negative axis into [0, rank) (or [0, rank] when
// `allowEnd`); an Error naming the node otherwise.
int64_t normalizeAxis(const InferContext& ctx, int64_t axis, int64_t rank, bool allowEnd = false);
// Output 0 gets input 0's type and shape (unary elementwise ops).
void propagateUnary(InferContext& ctx);
// Product of dims: static when all are static, else a fresh symbol.
Dim dimProduct(InferContext& ctx, const std::vector<Dim>& dims);

}  // namespace oinfer::shape
