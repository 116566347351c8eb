// The interpreter loop (host and device plans alike) and the steps whose
// shapes are only known at run time.
#include <chrono>
#include <new>

#include "runtime/executor.h"
#include "runtime/memory_limit.h"
#include "shape/infer.h"

namespace oinfer::runtime {

namespace {

ValueInfo typeOfValue(const std::string& name, const Value& v, const ValueInfo* declared) {
  ValueInfo vi;
  if (v.isTensor()) {
    vi = shape::valueInfoOf(name, v.tensor);
    if (declared && declared->kind == ValueKind::kOptional) vi.kind = ValueKind::kOptional;
    return vi;
  }
  vi.name = name;
  vi.kind = v.kind;
  if (declared) vi.dtype = declared->dtype;
  if (v.isSequence() && !v.sequence.empty()) vi.dtype = v.sequence.front().dtype();
  return vi;
}

}  // namespace

void Executor::runDynamicStep(const Plan& plan, ExecContext& ctx, const Step& step) {
  // Shapes depend on values only known now: re-run the shape function with every input known.
  shape::InferState local;
  local.runTime = true;
  const Node& node = *step.node;
  for (size_t i = 0; i < node.inputs.size(); ++i) {
    if (step.in[i] < 0) continue;
    const Value& v = ctx.values[step.in[i]];
    const std::string& name = node.inputs[i];
    local.types[name] = typeOfValue(name, v, &plan.slots[step.in[i]].type);
    local.types[name].kind = plan.slots[step.in[i]].type.kind;
    if (v.isTensor() && v.tensor.defined()) shape::setKnownValue(name, v.tensor, local);
  }
  shape::SymbolGenerator symbols;
  shape::inferNode(node, local, hooks_, symbols, nullptr, /*fold=*/false);
  for (size_t o = 0; o < step.out.size(); ++o) {
    int id = step.out[o];
    if (id < 0 || step.view) continue;
    const ValueInfo& vi = local.types[node.outputs[o]];
    Value& out = ctx.values[id];
    out.sequence.clear();
    if (vi.kind == ValueKind::kTensor && vi.hasShape && isStatic(vi.shape) && vi.dtype != DataType::kUndefined) {
      out.kind = ValueKind::kTensor;
      std::vector<int64_t> shape = toStatic(vi.shape);
      // Checked before allocating: a shape computed from this run's values
      // (Expand, Tile, ConstantOfShape, Range ... of input data).
      out.tensor = Tensor();  // the last run's buffer is freed first
      const size_t bytes = tensorBytes(vi.dtype, shape);
      const size_t held = plan.fixedBytes + ctx.scratchBytes;
      if (bytes > memoryLimit_ || held > memoryLimit_ - bytes || ctx.dynamicBytes > memoryLimit_ - held - bytes)
        throwOverLimit(node, node.outputs[o], vi.dtype, shape, bytes,
                       " at run time, with " + std::to_string(held + ctx.dynamicBytes) + " bytes already held",
                       memoryLimit_);
      ctx.dynamicBytes += bytes;
      out.tensor = Tensor(vi.dtype, std::move(shape));
    } else {
      out.kind = vi.kind == ValueKind::kSequence ? ValueKind::kSequence : ValueKind::kTensor;
      out.tensor = Tensor();
    }
  }
  if (step.view) {
    const ValueInfo& vi = local.types[node.outputs[0]];
    // Every input is known now, so a shape function leaves no dim open; one
    // that does is reported against the node, not as an internal error.
    if (!vi.hasShape || !isStatic(vi.shape))
      throw Error(ErrorCode::kShapeMismatch, node.describe() + ": output '" + node.outputs[0] + "' has shape " +
                                                 (vi.hasShape ? shapeToString(vi.shape) : std::string("unknown")) +
                                                 " with every input known; it cannot be computed");
    ctx.values[step.out[0]].tensor.assignView(ctx.values[step.in[step.def->viewOfInput]].tensor, toStatic(vi.shape));
  }
}

// String tensors hold their characters outside the tensor's own buffer, so
// their size is known only once the kernel made them: counted after the step
// (a StringConcat chain doubling a string stops at the limit, one step past it).
void Executor::countStrings(const Plan& plan, ExecContext& ctx, const Step& step) {
  for (size_t o = 0; o < step.out.size(); ++o) {
    if (step.out[o] < 0) continue;
    const Tensor& t = ctx.values[step.out[o]].tensor;
    if (t.dtype() != DataType::kString || !t.data()) continue;
    size_t chars = 0;
    for (int64_t k = 0; k < t.numel(); ++k) chars += t.data<std::string>()[k].size();
    const size_t held = plan.fixedBytes + ctx.scratchBytes + ctx.dynamicBytes;
    if (chars > memoryLimit_ || held > memoryLimit_ - chars)
      throw Error(ErrorCode::kResourceExhausted,
                  step.node->describe() + ": output '" + step.node->outputs[o] + "' holds " + std::to_string(chars) +
                      " bytes of string data, with " + std::to_string(held) +
                      " bytes already held; the memory limit is " + std::to_string(memoryLimit_) +
                      " bytes (SessionOptions::memoryLimitBytes)");
    ctx.dynamicBytes += chars;
  }
}

// One loop for every plan. On a plan with device steps, device work (steps,
// copies) is queued on the context's stream and waited for only before a
// host step and at the end, and a captured graph replaces the loop when the
// backend can replay one. Profiling times host steps here (every step of a
// host plan, views included); the backend times device steps and copies with
// its own events (finishRun).
void Executor::execute(Plan& plan, ExecContext& ctx) {
  DeviceBackend* device = plan.onDevice ? device_.backend : nullptr;
  ctx.dynamicBytes = 0;
  for (size_t id = 0; id < plan.slots.size(); ++id) {
    const Slot& s = plan.slots[id];
    if (s.kind != SlotKind::kOwned || ctx.provided[id] || s.device != Device::kCPU) continue;
    Value& v = ctx.values[id];
    if (s.staticShape) {
      v.kind = ValueKind::kTensor;
      v.tensor = Tensor(s.type.dtype, s.shape);
    }
  }
  if (device && device->runGraph(plan, ctx)) {
    std::fill(ctx.provided.begin(), ctx.provided.end(), 0);
    return;
  }
  bool pending = false;  // device work queued and not waited for
  const RunControl* control = ctx.control;
  try {
    for (size_t si = 0; si < plan.steps.size(); ++si) {
      const Step& step = plan.steps[si];
      if (control && step.node) control->check(*step.node);
      const bool onHost = !step.copy && step.device == Device::kCPU;
      if (onHost && !step.view && pending) {
        device->sync(ctx);
        pending = false;
      }
      const bool timed = profiling_ && onHost && (!device || !step.view);
      auto t0 = timed ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
      try {
        if (step.copy) {
          device->copy(plan, ctx, si);
          pending = true;
        } else if (step.dynamic) {
          runDynamicStep(plan, ctx, step);
        } else if (step.view) {
          ctx.values[step.out[0]].tensor.assignView(ctx.values[step.in[step.def->viewOfInput]].tensor,
                                                    plan.slots[step.out[0]].shape);
        }
        if (!step.view && !step.copy) {
          if (step.device != Device::kCPU) {
            device->runStep(plan, ctx, si);
            pending = true;
          } else {
            ctx.kctx[si].control_ = control;
            ctx.kernels[si]->run(ctx.kctx[si]);
            if (step.stringOut) countStrings(plan, ctx, step);
          }
        }
      } catch (const Error& e) {
        if (!step.node) throw;
        shape::rethrowNamingNode(*step.node, e);
      } catch (const std::bad_alloc&) {
        if (!step.node) throw;
        throw Error(ErrorCode::kResourceExhausted,
                    step.node->describe() + ": out of memory (an allocation of the kernel failed; "
                                            "SessionOptions::memoryLimitBytes bounds the run's planned tensors)");
      }
      if (timed) ctx.times[si] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    }
  } catch (...) {
    // The context goes back to its plan's pool: leave it as a finished run
    // would (no caller buffers marked, no device work in flight).
    std::fill(ctx.provided.begin(), ctx.provided.end(), 0);
    if (pending) {
      try {
        device->sync(ctx);
      } catch (...) {
      }
    }
    throw;
  }
  if (device) device->finishRun(plan, ctx);  // waits; device steps' times from their events
  std::fill(ctx.provided.begin(), ctx.provided.end(), 0);
  if (profiling_) {
    std::lock_guard<std::mutex> lock(profMu_);
    for (size_t si = 0; si < plan.steps.size(); ++si) {
      if (!plan.steps[si].node) continue;  // a copy the placement inserted
      NodeProfile& p = prof_[plan.steps[si].nodeIndex];
      p.totalMs += ctx.times[si];
      p.calls += 1;
    }
  }
}

}  // namespace oinfer::runtime
