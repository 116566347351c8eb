#include "ops/kernel.h"

#include <algorithm>

namespace oinfer {

void KernelInit::fail(const std::string& msg) const {
  throw Error(ErrorCode::kInvalidModel, node.describe() + ": " + msg);
}

const Tensor& KernelContext::input(size_t i) const {
  if (!hasInput(i)) fail("required input " + std::to_string(i) + " is missing");
  return *inputs_[i];
}

Tensor& KernelContext::output(size_t i) {
  if (!hasOutput(i)) fail("output " + std::to_string(i) + " is not available");
  Tensor& t = *outputs_[i];
  if (!t.defined())
    fail("output " + std::to_string(i) + " has no planned shape; the kernel must call allocateOutput");
  return t;
}

Tensor& KernelContext::allocateOutput(size_t i, const std::vector<int64_t>& shape, DataType dtype) {
  if (!hasOutput(i)) fail("output " + std::to_string(i) + " is not available");
  Tensor& t = *outputs_[i];
  if (dtype == DataType::kUndefined) dtype = i < outputTypes_.size() ? outputTypes_[i] : DataType::kUndefined;
  if (t.defined()) {
    if (t.shape() != shape || (dtype != DataType::kUndefined && t.dtype() != dtype))
      fail("output " + std::to_string(i) + " computed shape " + shapeToString(shape) +
           " differs from the planned shape " + shapeToString(t.shape()));
    return t;
  }
  if (dtype == DataType::kUndefined) fail("output " + std::to_string(i) + " has no data type");
  t = Tensor(dtype, shape);
  return t;
}

const Value& KernelContext::inputValue(size_t i) const {
  static const Value kNone = Value::none();
  if (i < inputValues_.size() && inputValues_[i]) return *inputValues_[i];
  if (!hasInput(i)) return kNone;
  fail("input " + std::to_string(i) + " is not available as a value");
}

Value& KernelContext::outputValue(size_t i) {
  if (i < outputValues_.size() && outputValues_[i]) return *outputValues_[i];
  fail("output " + std::to_string(i) + " is not available as a value");
}

std::vector<std::string> implicitInputs(const Node& node) {
  std::vector<std::string> out;
  auto add = [&](const ir::Graph* g) {
    if (!g) return;
    for (const auto& n : g->outerScopeInputs)
      if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
  };
  for (const auto& a : node.attributes) {
    add(a.g.get());
    for (const auto& g : a.graphs) add(g.get());
  }
  return out;
}

void KernelContext::fail(const std::string& msg) const {
  throw Error(ErrorCode::kInvalidArgument, (node_ ? node_->describe() : std::string("kernel")) + ": " + msg);
}

}  // namespace oinfer
