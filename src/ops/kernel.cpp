#include "ops/kernel.h"

#include <algorithm>
#include <cstdio>
#include <new>

#include "graph/memory.h"

namespace oinfer {

void RunControl::stop(const Node& next) const {
  std::string why;
  if (flag && flag->load(std::memory_order_relaxed))
    why = "RunOptions::terminate was set";
  else if (epoch && epoch->load(std::memory_order_relaxed) != startEpoch)
    why = "Session::terminate() was called";
  else {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g", timeoutSeconds);
    why = std::string("the run's deadline (") + buf + " s) passed";
  }
  throw Error(ErrorCode::kCancelled, "run cancelled: " + why + "; stopped before " + next.describe());
}

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
  // A shape computed from input values (negative, overflowing or too large
  // an element count) is refused by Tensor; say which node and output.
  try {
    t = Tensor(dtype, shape);
  } catch (const Error& e) {
    fail("output " + std::to_string(i) + ": " + e.what());
  }
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

namespace {
constexpr size_t kScratchAlign = 64;
size_t alignUp(size_t n) { return (n + kScratchAlign - 1) / kScratchAlign * kScratchAlign; }
}  // namespace

size_t layoutScratch(const std::vector<ScratchRequest>& requests, int threads, std::vector<ScratchSpan>& spans) {
  spans.assign(requests.size(), ScratchSpan{});
  size_t offset = 0;
  for (size_t i = 0; i < requests.size(); ++i) {
    const size_t part = alignUp(requests[i].bytes);
    const size_t parts = requests[i].perThread ? static_cast<size_t>(std::max(threads, 1)) : 1;
    spans[i].base = reinterpret_cast<uint8_t*>(offset);  // an offset until bindScratch
    spans[i].stride = requests[i].perThread ? part : 0;
    spans[i].bytes = requests[i].bytes;
    spans[i].parts = static_cast<int>(parts);
    offset += part * parts;
  }
  return offset;
}

void bindScratch(std::vector<ScratchSpan>& spans, uint8_t* block) {
  for (ScratchSpan& s : spans) s.base = block + reinterpret_cast<size_t>(s.base);
}

OwnedScratch::OwnedScratch(const KernelInit& init, KernelContext& ctx) {
  const int threads = ctx.pool_ ? ctx.pool_->size() : 1;
  bytes_ = layoutScratch(init.scratch, threads, ctx.scratch_);
  if (bytes_ == 0) {
    bindScratch(ctx.scratch_, nullptr);
    return;
  }
  void* p = allocLarge(bytes_);
  if (!p) throw std::bad_alloc();
  block_ = std::shared_ptr<void>(p, [](void* q) { std::free(q); });
  bindScratch(ctx.scratch_, static_cast<uint8_t*>(p));
}

const ScratchSpan& KernelContext::scratch(size_t id) const {
  if (id >= scratch_.size())
    fail("scratch request " + std::to_string(id) + " was not made when the kernel was prepared (" +
         std::to_string(scratch_.size()) + " made)");
  return scratch_[id];
}

void KernelContext::fail(const std::string& msg) const {
  throw Error(ErrorCode::kInvalidArgument, (node_ ? node_->describe() : std::string("kernel")) + ": " + msg);
}

}  // namespace oinfer
