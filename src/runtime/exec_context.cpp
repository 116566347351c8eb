// Execution contexts: an arena, one kernel per step and the values, made
// once per context and reused by every run that takes it; and the release of
// weights whose every reader keeps only a packed copy.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <new>

#include "graph/memory.h"
#include "runtime/executor.h"
#include "runtime/kernel_init.h"
#include "runtime/memory_limit.h"

namespace oinfer::runtime {

void Executor::allowWeightRelease(ir::Graph* g) {
  std::lock_guard<std::mutex> lock(planMu_);
  releasable_ = g;
  weightReaders_.clear();
  for (const auto& [name, t] : graph_.initializers) weightReaders_[name] = 0;
  auto count = [&](const std::string& name, bool blocks) {
    auto it = weightReaders_.find(name);
    if (it == weightReaders_.end() || it->second < 0) return;
    it->second = blocks ? -1 : it->second + 1;
  };
  for (const Node& n : graph_.nodes) {
    for (const auto& in : n.inputs)
      if (!in.empty()) count(in, false);
    for (const auto& in : implicitInputs(n)) count(in, true);  // read by a subgraph
  }
  for (const auto& o : graph_.outputs) count(o.name, true);
  for (const auto& in : graph_.inputs) count(in.name, true);  // an input's default
}

void Executor::releaseWeight(Plan& plan, ExecContext& ctx, int id) {
  Slot& s = plan.slots[id];
  if (std::find(plan.results.begin(), plan.results.end(), id) != plan.results.end()) return;
  auto gi = releasable_->initializers.find(s.name);
  if (gi == releasable_->initializers.end() || gi->second.data() == nullptr) return;
  const Tensor meta = Tensor::wrap(s.value.dtype(), s.value.shape(), nullptr);
  gi->second = meta;
  for (auto& p : plans_) {  // every cached plan's slot of that name, and this context's value
    auto so = p->slotOf.find(s.name);
    if (so != p->slotOf.end() && p->slots[so->second].kind == SlotKind::kWeight) p->slots[so->second].value = meta;
  }
  s.value = meta;
  ctx.values[id].tensor = meta;
  spdlog::debug("released weight '{}' ({} bytes): its readers keep it packed", s.name, meta.nbytes());
}

std::unique_ptr<ExecContext> Executor::makeContext(Plan& plan) {
  std::lock_guard<std::mutex> lock(planMu_);
  auto ctx = std::make_unique<ExecContext>();
  const size_t bytes = std::max<size_t>(plan.stats.arenaBytes, 64);
  void* p = allocLarge(bytes);  // huge pages for large arenas
  if (!p) throw std::bad_alloc();
  ctx->arena = std::shared_ptr<void>(p, [](void* q) { std::free(q); });
  ctx->arenaData = static_cast<uint8_t*>(p);
  ctx->values.resize(plan.slots.size());
  ctx->provided.assign(plan.slots.size(), 0);
  for (size_t id = 0; id < plan.slots.size(); ++id) {
    const Slot& s = plan.slots[id];
    Value& v = ctx->values[id];
    switch (s.kind) {
      case SlotKind::kWeight:
      case SlotKind::kConstant: v.tensor = s.value; break;
      case SlotKind::kArena:
        if (s.type.dtype == DataType::kString)  // the planner keeps string tensors out of arenas
          throw Error(ErrorCode::kInternal, "string tensor '" + s.name + "' was planned in raw arena memory");
        if (s.device == Device::kCPU)
          v.tensor = Tensor::share(s.type.dtype, s.shape, ctx->arena, ctx->arenaData + s.offset);
        break;
      default: break;
    }
  }
  ctx->kernels.resize(plan.steps.size());
  ctx->kctx.resize(plan.steps.size());
  std::vector<int> packedReads;  // per slot: node inputs whose kernel keeps only the packed form
  size_t scratchBytes = 0;       // the largest step's scratch (KernelInit::requestScratch)
  size_t scratchStep = 0;        // the step asking for it
  if (profiling_) ctx->times.assign(plan.steps.size(), 0.0);
  for (size_t si = 0; si < plan.steps.size(); ++si) {
    const Step& step = plan.steps[si];
    KernelContext& kc = ctx->kctx[si];
    kc.node_ = step.node;
    kc.pool_ = pool_;
    for (int id : step.in) {
      kc.inputs_.push_back(id < 0 ? nullptr : &ctx->values[id].tensor);
      kc.inputValues_.push_back(id < 0 ? nullptr : &ctx->values[id]);
    }
    for (int id : step.out) {
      kc.outputs_.push_back(id < 0 ? nullptr : &ctx->values[id].tensor);
      kc.outputValues_.push_back(id < 0 ? nullptr : &ctx->values[id]);
      kc.outputTypes_.push_back(id < 0 ? DataType::kUndefined : plan.slots[id].type.dtype);
    }
    if (step.view || step.copy || step.device == Device::kCUDA) continue;
    SubgraphFactory subgraphs = makeSubgraphFactory(registry_, graph_, *step.node, pool_, memoryLimit_);
    KernelInit init{*step.node, step.opset, {}, {}, {}};
    init.pool = pool_;
    init.subgraphs = &subgraphs;
    init.weights = &weights_;
    fillInit(plan, step, init);
    if (!step.def->cpu) throw Error(ErrorCode::kUnsupportedOp, step.node->describe() + ": no CPU kernel");
    ctx->kernels[si] = step.def->cpu(init);
    const size_t stepScratch = layoutScratch(init.scratch, pool_->size(), kc.scratch_);
    if (stepScratch > scratchBytes) scratchBytes = stepScratch, scratchStep = si;
    // A weight is freed as soon as its last reader has packed it, so the
    // peak holds one weight twice, not all of them.
    if (releasable_)
      for (size_t i = 0; i < init.packedOnly.size() && i < step.in.size(); ++i) {
        const int id = step.in[i];
        if (!init.packedOnly[i] || id < 0 || plan.slots[id].kind != SlotKind::kWeight) continue;
        if (packedReads.empty()) packedReads.assign(plan.slots.size(), 0);
        auto readers = weightReaders_.find(plan.slots[id].name);
        if (readers != weightReaders_.end() && ++packedReads[id] == readers->second) releaseWeight(plan, *ctx, id);
      }
  }
  // One scratch block for every step's requests: steps run one at a time.
  if (scratchBytes && (scratchBytes > memoryLimit_ || plan.fixedBytes > memoryLimit_ - scratchBytes))
    throw Error(ErrorCode::kResourceExhausted,
                plan.steps[scratchStep].node->describe() + ": kernel scratch of " + std::to_string(scratchBytes) +
                    " bytes on top of " + std::to_string(plan.fixedBytes) +
                    " bytes of activations and outputs passes the memory limit of " + std::to_string(memoryLimit_) +
                    " bytes (SessionOptions::memoryLimitBytes)");
  if (scratchBytes) {
    void* block = allocLarge(scratchBytes);  // huge pages for large blocks
    if (!block) throw std::bad_alloc();
    ctx->scratch = std::shared_ptr<void>(block, [](void* q) { std::free(q); });
  }
  for (KernelContext& kc : ctx->kctx) bindScratch(kc.scratch_, static_cast<uint8_t*>(ctx->scratch.get()));
  ctx->scratchBytes = scratchBytes;
  plan.stats.scratchBytes = std::max(plan.stats.scratchBytes, scratchBytes);
  lastStats_.scratchBytes = plan.stats.scratchBytes;
  // Device arena, stream, handles; binds device slots and the device steps' contexts.
  if (plan.onDevice) device_.backend->initContext(plan, *ctx, device_, profiling_);
  return ctx;
}

ExecContext* Executor::acquire(Plan& plan) {
  {
    std::lock_guard<std::mutex> lock(plan.poolMu);
    if (!plan.freeContexts.empty()) {
      ExecContext* ctx = plan.freeContexts.back().release();
      plan.freeContexts.pop_back();
      return ctx;
    }
  }
  return makeContext(plan).release();
}

void Executor::release(Plan& plan, ExecContext* ctx) {
  std::unique_ptr<ExecContext> owned(ctx);
  std::lock_guard<std::mutex> lock(plan.poolMu);
  plan.freeContexts.push_back(std::move(owned));
}

void Executor::setInput(const Plan& plan, ExecContext& ctx, size_t k, const Tensor& t) const {
  Value& v = ctx.values[plan.inputSlots[k]];
  v.kind = ValueKind::kTensor;
  v.tensor = t;
}

void Executor::setInput(const Plan& plan, ExecContext& ctx, size_t k, const Value& in) const {
  ctx.values[plan.inputSlots[k]] = in;
}

bool Executor::provideOutput(const Plan& plan, ExecContext& ctx, size_t j, const Tensor& t) const {
  const int id = plan.results[j];
  const Slot& s = plan.slots[id];
  if (s.kind != SlotKind::kOwned || !s.staticShape || t.dtype() != s.type.dtype || t.shape() != s.shape) return false;
  ctx.values[id].tensor = t;
  ctx.provided[id] = 1;
  return true;
}

}  // namespace oinfer::runtime
