// Executor: planning (types for concrete input shapes, steps, storage,
// liveness-based arena placement) and the interpreter loop.
#include "runtime/executor.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <new>

#include "graph/memory.h"
#include "ops/evaluate.h"
#include "runtime/memory_planner.h"
#include "shape/infer.h"

namespace oinfer::runtime {

namespace {

constexpr size_t kMaxCachedPlans = 16;

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

Executor::Executor(const Registry& registry, const ir::Graph& graph, ThreadPool* pool, bool profiling,
                   std::vector<std::string> extraInputs, DeviceConfig device)
    : registry_(registry),
      graph_(graph),
      pool_(pool),
      profiling_(profiling),
      device_(device),
      hooks_(makeInferHooks(registry, graph)) {
  for (const auto& in : graph_.inputs) inputNames_.push_back(in.name);
  for (auto& e : extraInputs) inputNames_.push_back(std::move(e));
  prof_.resize(graph_.nodes.size());
  for (size_t i = 0; i < graph_.nodes.size(); ++i) {
    prof_[i].opType = graph_.nodes[i].opType;
    prof_[i].nodeName = graph_.nodes[i].name;
  }
}

Executor::~Executor() = default;

std::shared_ptr<Plan> Executor::findPlan(const std::function<InputType(size_t)>& typeOf,
                                         const std::vector<std::string>& fetch) {
  std::lock_guard<std::mutex> lock(planMu_);
  for (auto& p : plans_)
    if (matches(*p, typeOf, fetch)) return p;
  std::vector<InputType> types(inputNames_.size());
  for (size_t k = 0; k < types.size(); ++k) types[k] = typeOf(k);
  auto plan = makePlan(types, fetch);
  lastStats_ = plan->stats;
  if (plans_.size() >= kMaxCachedPlans) plans_.erase(plans_.begin());
  plans_.push_back(plan);
  return plan;
}

std::shared_ptr<Plan> Executor::makePlan(const std::vector<InputType>& types, const std::vector<std::string>& fetch) {
  auto plan = std::make_shared<Plan>();
  plan->fetch = fetch;
  for (const auto& t : types) {
    plan->keyKinds.push_back(t.kind);
    plan->keyTypes.push_back(t.dtype);
    plan->keyShapes.push_back(t.kind == ValueKind::kTensor && t.shape ? *t.shape : std::vector<int64_t>{});
  }

  // 1. Types and values for these concrete inputs.
  shape::InferState st;
  shape::seedState(graph_, st);
  for (size_t k = 0; k < inputNames_.size(); ++k) {
    const std::string& name = inputNames_[k];
    const ValueInfo* declared = graph_.findValue(name);
    ValueInfo v;
    v.name = name;
    v.kind = types[k].kind;
    v.dtype = types[k].dtype;
    if (declared && declared->kind == ValueKind::kOptional && v.kind != ValueKind::kSequence)
      v.kind = ValueKind::kOptional;
    if (types[k].kind == ValueKind::kTensor && types[k].shape) {
      v.hasShape = true;
      v.shape = toShape(*types[k].shape);
    }
    st.types[name] = v;
  }
  shape::SymbolGenerator symbols;
  shape::inferNodes(graph_, st, hooks_, symbols, /*fold=*/true);

  auto addSlot = [&](const std::string& name) -> int {
    auto it = plan->slotOf.find(name);
    if (it != plan->slotOf.end()) return it->second;
    Slot s;
    s.name = name;
    auto t = st.types.find(name);
    if (t != st.types.end()) s.type = t->second;
    s.staticShape = s.type.kind == ValueKind::kTensor && s.type.hasShape && isStatic(s.type.shape);
    if (s.staticShape) s.shape = toStatic(s.type.shape);
    plan->slots.push_back(std::move(s));
    plan->slotOf[name] = static_cast<int>(plan->slots.size() - 1);
    return static_cast<int>(plan->slots.size() - 1);
  };

  for (size_t k = 0; k < inputNames_.size(); ++k) {
    int id = addSlot(inputNames_[k]);
    plan->slots[id].kind = SlotKind::kInput;
    plan->inputSlots.push_back(id);
  }
  for (const auto& [name, t] : graph_.initializers) {
    if (plan->slotOf.count(name)) continue;  // an input with a default: the input wins
    Slot& s = plan->slots[addSlot(name)];
    s.kind = SlotKind::kWeight;
    s.value = t;
  }

  // 2. Steps: every node not folded away.
  for (size_t ni = 0; ni < graph_.nodes.size(); ++ni) {
    const Node& node = graph_.nodes[ni];
    bool allFolded = true;
    for (const auto& o : node.outputs)
      if (!o.empty() && !st.values.count(o)) allFolded = false;
    if (allFolded) {
      for (const auto& o : node.outputs) {
        if (o.empty()) continue;
        Slot& s = plan->slots[addSlot(o)];
        s.kind = SlotKind::kConstant;
        s.value = st.values[o];
      }
      continue;
    }
    Step step;
    step.node = &node;
    step.nodeIndex = ni;
    step.def = findOpDef(registry_, graph_, node);
    step.opset = graph_.opset(node.domain);
    if (!step.def) throw Error(ErrorCode::kUnsupportedOp, node.describe() + ": op is not supported");
    auto bindInput = [&](const std::string& i) {
      if (i.empty()) {
        step.in.push_back(-1);
        return;
      }
      auto it = plan->slotOf.find(i);
      if (it == plan->slotOf.end())
        throw Error(ErrorCode::kInvalidModel, node.describe() + ": input '" + i + "' is not produced by any node");
      step.in.push_back(it->second);
    };
    for (const auto& i : node.inputs) bindInput(i);
    for (const auto& i : implicitInputs(node)) bindInput(i);
    step.view = step.def->viewOfInput >= 0;
    for (const auto& o : node.outputs) {
      if (o.empty()) {
        step.out.push_back(-1);
        continue;
      }
      int id = addSlot(o);
      Slot& s = plan->slots[id];
      if (!s.staticShape) step.dynamic = true;
      step.out.push_back(id);
    }
    for (int id : step.out) {
      if (id < 0) continue;
      Slot& s = plan->slots[id];
      if (step.view) {
        s.kind = SlotKind::kView;
        s.viewBase = step.in[step.def->viewOfInput];
      } else {
        s.kind = step.dynamic || !s.staticShape ? SlotKind::kOwned : SlotKind::kArena;
      }
    }
    plan->steps.push_back(std::move(step));
  }

  // 3. Requested values.
  for (const auto& f : fetch) {
    auto it = plan->slotOf.find(f);
    if (it == plan->slotOf.end()) throw Error(ErrorCode::kInvalidArgument, "unknown output '" + f + "'");
    plan->results.push_back(it->second);
    Slot& s = plan->slots[it->second];
    if (s.kind == SlotKind::kArena) s.kind = SlotKind::kOwned;
  }

  // Device placement: steps, copies, and the device kernels (made once per plan).
  if (device_.device == Device::kCUDA) device_.backend->preparePlan(*plan, graph_, device_);

  planArenas(*plan, graph_.weightBytes());
  if (device_.blockedLayout && !plan->onDevice) assignBlockedLayouts(*plan);
  spdlog::debug("plan: {} steps, arena {} bytes (lower bound {}), device arena {} bytes", plan->steps.size(),
                plan->stats.arenaBytes, plan->stats.lowerBoundBytes, plan->stats.deviceArenaBytes);
  return plan;
}

namespace {

// Concat in place: when every input of a Concat is one contiguous piece of
// its output (the dims before the axis are all 1, as with NCHW channel
// concats at batch 1), each input is planned inside the output buffer at its
// piece's offset (Slot::aliasOf), so its producer writes it there and the
// Concat has nothing left to copy (its kernel skips pieces already in
// place). Only plain CPU arena tensors of static shape qualify: inputs
// produced by a step of this plan, used once by the Concat, not results, not
// themselves holding aliases, and at 64-byte aligned offsets.
void aliasConcatInputs(Plan& plan) {
  for (const Step& step : plan.steps) {
    if (!step.node || step.copy || step.device != Device::kCPU || step.out.size() != 1 || step.out[0] < 0) continue;
    const Node& node = *step.node;
    if (!step.def || !step.def->concatInPlace) continue;
    Slot& out = plan.slots[step.out[0]];
    if (out.kind != SlotKind::kArena || !out.staticShape || out.device != Device::kCPU || out.aliasOf >= 0 ||
        out.type.dtype == DataType::kString)
      continue;
    const int64_t rank = static_cast<int64_t>(out.shape.size());
    int64_t axis = node.attrInt("axis", 1);
    if (axis < 0) axis += rank;
    if (axis < 0 || axis >= rank) continue;
    bool contiguous = true;
    for (int64_t d = 0; d < axis; ++d) contiguous = contiguous && out.shape[d] == 1;
    if (!contiguous) continue;
    const size_t elem = dataTypeSize(out.type.dtype);
    size_t inner = elem;
    for (int64_t d = axis + 1; d < rank; ++d) inner *= static_cast<size_t>(out.shape[d]);
    std::vector<std::pair<int, size_t>> pieces;  // (slot, byte offset)
    size_t offset = 0;
    bool ok = true;
    for (int id : step.in) {
      if (id < 0) {
        ok = false;
        break;
      }
      const Slot& in = plan.slots[id];
      const bool eligible = in.kind == SlotKind::kArena && in.staticShape && in.device == Device::kCPU &&
                            in.aliasOf < 0 && !in.aliasParent && in.type.dtype == out.type.dtype &&
                            in.shape.size() == out.shape.size() && offset % 64 == 0 &&
                            std::count(step.in.begin(), step.in.end(), id) == 1 &&
                            std::find(plan.results.begin(), plan.results.end(), id) == plan.results.end();
      if (eligible) pieces.push_back({id, offset});
      offset += in.staticShape && in.shape.size() == out.shape.size() ? static_cast<size_t>(in.shape[axis]) * inner : 0;
    }
    if (!ok || offset != static_cast<size_t>(numElements(out.shape)) * elem) continue;
    for (const auto& [id, off] : pieces) {
      plan.slots[id].aliasOf = step.out[0];
      plan.slots[id].aliasOffset = off;
      out.aliasParent = true;
    }
  }
}

}  // namespace

namespace {

// The plan-time part of a step's KernelInit: input / output types, constant
// inputs and the weights they name, and which are blocked.
void fillInit(const Plan& plan, const Step& step, KernelInit& init) {
  for (int id : step.in) {
    if (id < 0) {
      init.inputs.push_back(nullptr);
      init.constInputs.push_back(nullptr);
      init.weightNames.emplace_back();
      init.blockedIn.push_back(0);
      continue;
    }
    const Slot& s = plan.slots[id];
    init.inputs.push_back(&s.type);
    init.constInputs.push_back(s.kind == SlotKind::kWeight || s.kind == SlotKind::kConstant ? &s.value : nullptr);
    init.weightNames.push_back(s.kind == SlotKind::kWeight ? s.name : std::string());
    init.blockedIn.push_back(s.blocked ? 1 : 0);
  }
  for (int id : step.out) {
    init.outputs.push_back(id < 0 ? nullptr : &plan.slots[id].type);
    init.blockedOut.push_back(id >= 0 && plan.slots[id].blocked ? 1 : 0);
  }
}

int findRoot(std::vector<int>& parent, int i) {
  while (parent[i] != i) i = parent[i] = parent[parent[i]];
  return i;
}

}  // namespace

void assignBlockedLayouts(Plan& plan) {
  const size_t n = plan.slots.size();
  std::vector<char> ok(n, 0);
  for (size_t id = 0; id < n; ++id) {
    const Slot& s = plan.slots[id];
    ok[id] = s.kind == SlotKind::kArena && s.device == Device::kCPU && s.staticShape &&
             s.type.dtype == DataType::kFloat && s.shape.size() == 4 && s.shape[1] > 0 && s.shape[1] % 16 == 0 &&
             numElements(s.shape) > 0;
    // Any plane. On planes that are not a whole number of cache lines
    // (55x55, 27x27, 13x13, 7x7) NCHW starts nearly every channel's plane
    // inside a line, so row loads and stores straddle two; on every plane a
    // channel-vector tile reads its input pixels as whole lines (in NCHW a
    // 14-pixel run of each channel uses parts of two). ResNet-50 with its
    // 56x56 to 14x14 stages blocked too, side by side in separate processes
    // (paired medians): 0.945-0.998 against NCHW everywhere, 0.97-1.02
    // against odd planes only (level within this machine's noise; layers 1
    // and 2 faster, layer 3 slower). It needs the stages' outputs blocked,
    // so the stride-2 downsamples and the final pool read the layout.
  }
  for (const Slot& s : plan.slots)
    if (s.kind == SlotKind::kView && s.viewBase >= 0) ok[s.viewBase] = 0;  // a view reads it as NCHW
  for (int id : plan.results) ok[id] = 0;
  std::vector<int> parent(n);
  for (size_t i = 0; i < n; ++i) parent[i] = static_cast<int>(i);
  std::vector<char> produced(n, 0);
  for (const Step& step : plan.steps) {
    if (step.view) continue;  // its output is not an arena slot; its input was marked above
    BlockedSupport sup;
    if (step.node && !step.copy && step.device == Device::kCPU) {
      const Node& node = *step.node;
      const bool inPlaceConcat =
          step.def && step.def->concatInPlace && step.out.size() == 1 &&
          step.out[0] >= 0 && !step.in.empty() &&
          std::all_of(step.in.begin(), step.in.end(), [&](int id) { return id >= 0 && plan.slots[id].aliasOf == step.out[0]; });
      if (inPlaceConcat) {
        // Every piece already lies in its place: no copy reads them, and a
        // piece of 16k channels is the same bytes in either layout.
        sup.write = 1u;
        sup.tied = step.in.size() >= 32 ? 0u : (1u << step.in.size()) - 1;
      } else if (step.def && step.def->blocked) {
        KernelInit init{*step.node, step.opset, {}, {}, {}};
        fillInit(plan, step, init);  // nothing is blocked yet
        sup = step.def->blocked(init);
      }
    }
    for (size_t j = 0; j < step.out.size(); ++j) {
      const int id = step.out[j];
      if (id < 0) continue;
      produced[id] = 1;
      if (j >= 32 || !(sup.write >> j & 1u)) ok[id] = 0;
    }
    for (size_t i = 0; i < step.in.size(); ++i) {
      const int id = step.in[i];
      if (id < 0) continue;
      const bool tied = i < 32 && (sup.tied >> i & 1u) && !step.out.empty() && step.out[0] >= 0;
      if (tied) parent[findRoot(parent, id)] = findRoot(parent, step.out[0]);
      else if (i >= 32 || !(sup.read >> i & 1u)) ok[id] = 0;
    }
  }
  // A set of tied values is blocked only if each of them can be.
  std::vector<char> groupOk(n, 1);
  for (size_t id = 0; id < n; ++id)
    if (!ok[id] || !produced[id]) groupOk[findRoot(parent, static_cast<int>(id))] = 0;
  size_t count = 0;
  for (size_t id = 0; id < n; ++id) {
    plan.slots[id].blocked = ok[id] && produced[id] && groupOk[findRoot(parent, static_cast<int>(id))];
    count += plan.slots[id].blocked;
  }
  spdlog::debug("plan: {} tensors in the blocked layout", count);
}

void planArenas(Plan& plan, size_t weightBytes) {
  aliasConcatInputs(plan);
  // 4. Lifetimes of arena buffers. Reads through a view count as reads of its root.
  const int numSteps = static_cast<int>(plan.steps.size());
  auto root = [&](int id) {
    while (plan.slots[id].kind == SlotKind::kView) id = plan.slots[id].viewBase;
    return id;
  };
  std::vector<int> first(plan.slots.size(), -1), last(plan.slots.size(), -1);
  for (int si = 0; si < numSteps; ++si) {
    const Step& step = plan.steps[si];
    for (int id : step.out)
      if (id >= 0 && first[id] < 0) first[id] = last[id] = si;
    for (int id : step.in)
      if (id >= 0) {
        int r = root(id);
        last[r] = std::max(last[r], si);
      }
  }
  for (int id : plan.results) {
    int r = root(id);
    last[r] = numSteps;  // results are copied out after the last step
  }
  // A buffer holding aliases lives from the first of them to the last use of any.
  for (size_t id = 0; id < plan.slots.size(); ++id) {
    const int p = plan.slots[id].aliasOf;
    if (p < 0 || first[id] < 0) continue;
    first[p] = first[p] < 0 ? first[id] : std::min(first[p], first[id]);
    last[p] = std::max({last[p], last[id], first[id]});
  }
  // One arena per device, each placed by the same planner.
  for (Device dev : {Device::kCPU, Device::kCUDA}) {
    std::vector<BufferRequest> reqs;
    std::vector<int> reqSlot;
    for (size_t id = 0; id < plan.slots.size(); ++id) {
      Slot& s = plan.slots[id];
      if (s.kind != SlotKind::kArena || s.device != dev) continue;
      s.bytes = static_cast<size_t>(numElements(s.shape)) * dataTypeSize(s.type.dtype);
      if (s.aliasOf >= 0) continue;  // placed inside its Concat's output below
      reqs.push_back({s.bytes, first[id], std::max(first[id], last[id])});
      reqSlot.push_back(static_cast<int>(id));
    }
    if (dev == Device::kCUDA && reqs.empty()) break;
    MemoryPlan mp = planMemory(reqs, dev == Device::kCUDA ? 256 : 64);
    for (size_t k = 0; k < reqs.size(); ++k) plan.slots[reqSlot[k]].offset = mp.offsets[k];
    for (Slot& s : plan.slots)
      if (s.kind == SlotKind::kArena && s.device == dev && s.aliasOf >= 0)
        s.offset = plan.slots[s.aliasOf].offset + s.aliasOffset;
    if (dev == Device::kCPU) {
      plan.stats.arenaBytes = mp.arenaBytes;
      plan.stats.lowerBoundBytes = mp.lowerBound;
    } else {
      plan.stats.deviceArenaBytes = mp.arenaBytes;
    }
  }
  plan.stats.weightBytes = weightBytes;
}


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
        if (s.device == Device::kCPU)
          v.tensor = Tensor::share(s.type.dtype, s.shape, ctx->arena, ctx->arenaData + s.offset);
        break;
      default: break;
    }
  }
  ctx->kernels.resize(plan.steps.size());
  ctx->kctx.resize(plan.steps.size());
  std::vector<int> packedReads;  // per slot: node inputs whose kernel keeps only the packed form
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
    SubgraphFactory subgraphs = makeSubgraphFactory(registry_, graph_, *step.node, pool_);
    KernelInit init{*step.node, step.opset, {}, {}, {}};
    init.pool = pool_;
    init.subgraphs = &subgraphs;
    init.weights = &weights_;
    fillInit(plan, step, init);
    if (!step.def->cpu) throw Error(ErrorCode::kUnsupportedOp, step.node->describe() + ": no CPU kernel");
    ctx->kernels[si] = step.def->cpu(init);
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

void Executor::runDynamicStep(const Plan& plan, ExecContext& ctx, const Step& step) {
  // Shapes depend on values only known now: re-run the shape function with every input known.
  shape::InferState local;
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
      out.tensor = Tensor(vi.dtype, toStatic(vi.shape));
    } else {
      out.kind = vi.kind == ValueKind::kSequence ? ValueKind::kSequence : ValueKind::kTensor;
      out.tensor = Tensor();
    }
  }
  if (step.view) {
    const ValueInfo& vi = local.types[node.outputs[0]];
    ctx.values[step.out[0]].tensor.assignView(ctx.values[step.in[step.def->viewOfInput]].tensor, toStatic(vi.shape));
  }
}

void Executor::execute(Plan& plan, ExecContext& ctx) {
  if (plan.onDevice) {
    executeOnDevice(plan, ctx);
    return;
  }
  for (size_t id = 0; id < plan.slots.size(); ++id) {
    const Slot& s = plan.slots[id];
    if (s.kind != SlotKind::kOwned || ctx.provided[id]) continue;
    Value& v = ctx.values[id];
    if (s.staticShape) {
      v.kind = ValueKind::kTensor;
      v.tensor = Tensor(s.type.dtype, s.shape);
    }
  }
  for (size_t si = 0; si < plan.steps.size(); ++si) {
    const Step& step = plan.steps[si];
    auto t0 = profiling_ ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
    if (step.dynamic) {
      runDynamicStep(plan, ctx, step);
    } else if (step.view) {
      ctx.values[step.out[0]].tensor.assignView(ctx.values[step.in[step.def->viewOfInput]].tensor,
                                                plan.slots[step.out[0]].shape);
    }
    if (!step.view) ctx.kernels[si]->run(ctx.kctx[si]);
    if (profiling_)
      ctx.times[si] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  }
  std::fill(ctx.provided.begin(), ctx.provided.end(), 0);
  if (profiling_) {
    std::lock_guard<std::mutex> lock(profMu_);
    for (size_t si = 0; si < plan.steps.size(); ++si) {
      NodeProfile& p = prof_[plan.steps[si].nodeIndex];
      p.totalMs += ctx.times[si];
      p.calls += 1;
    }
  }
}

// The interpreter loop of a plan with device steps: device work is queued on the
// context's stream and waited for only before a host step or the end; a
// captured CUDA Graph replaces the loop when the plan allows it.
void Executor::executeOnDevice(Plan& plan, ExecContext& ctx) {
  for (size_t id = 0; id < plan.slots.size(); ++id) {
    const Slot& s = plan.slots[id];
    if (s.kind != SlotKind::kOwned || ctx.provided[id] || s.device != Device::kCPU) continue;
    Value& v = ctx.values[id];
    if (s.staticShape) {
      v.kind = ValueKind::kTensor;
      v.tensor = Tensor(s.type.dtype, s.shape);
    }
  }
  if (device_.backend->runGraph(plan, ctx)) {
    std::fill(ctx.provided.begin(), ctx.provided.end(), 0);
    return;
  }
  bool pending = false;  // device work queued and not waited for
  for (size_t si = 0; si < plan.steps.size(); ++si) {
    const Step& step = plan.steps[si];
    const bool host = !step.copy && step.device == Device::kCPU && !step.view;
    if (host && pending) {
      device_.backend->sync(ctx);
      pending = false;
    }
    auto t0 = profiling_ ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
    if (step.copy) {
      device_.backend->copy(plan, ctx, si);
      pending = true;
    } else if (step.dynamic) {
      runDynamicStep(plan, ctx, step);
    } else if (step.view) {
      ctx.values[step.out[0]].tensor.assignView(ctx.values[step.in[step.def->viewOfInput]].tensor,
                                                plan.slots[step.out[0]].shape);
    }
    if (!step.view && !step.copy) {
      if (step.device == Device::kCUDA) {
        device_.backend->runStep(plan, ctx, si);
        pending = true;
      } else {
        ctx.kernels[si]->run(ctx.kctx[si]);
      }
    }
    if (profiling_ && host)
      ctx.times[si] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  }
  device_.backend->finishRun(plan, ctx);  // waits; device steps' times from their events
  std::fill(ctx.provided.begin(), ctx.provided.end(), 0);
  if (profiling_) {
    std::lock_guard<std::mutex> lock(profMu_);
    for (size_t si = 0; si < plan.steps.size(); ++si) {
      if (!plan.steps[si].node) continue;
      NodeProfile& p = prof_[plan.steps[si].nodeIndex];
      p.totalMs += ctx.times[si];
      p.calls += 1;
    }
  }
}

MemoryStats Executor::lastStats() const {
  std::lock_guard<std::mutex> lock(planMu_);
  MemoryStats s = lastStats_;
  s.weightBytes = graph_.weightBytes();
  return s;
}

std::vector<NodeProfile> Executor::profile() const {
  std::lock_guard<std::mutex> lock(profMu_);
  std::vector<NodeProfile> out;
  for (const auto& p : prof_)
    if (p.calls > 0) out.push_back(p);
  std::sort(out.begin(), out.end(), [](const NodeProfile& a, const NodeProfile& b) { return a.totalMs > b.totalMs; });
  return out;
}

void Executor::resetProfile() {
  std::lock_guard<std::mutex> lock(profMu_);
  for (auto& p : prof_) {
    p.totalMs = 0;
    p.calls = 0;
  }
}

// ---- subgraphs ---------------------------------------------------------------

namespace {

class SubgraphExecutor final : public SubgraphRunner {
 public:
  SubgraphExecutor(const Registry& registry, const ir::Graph& parent, const Node& owner, const ir::Graph& body,
                   ThreadPool* pool)
      : body_(std::make_unique<ir::Graph>(body)) {
    // A subgraph imports its model's opsets.
    for (const auto& [d, v] : parent.opsetImports) body_->opsetImports.emplace(d, v);
    body_->ensureSorted();
    const auto implicit = implicitInputs(owner);
    for (const auto& name : body_->outerScopeInputs) {
      auto it = std::find(implicit.begin(), implicit.end(), name);
      implicitIndex_.push_back(static_cast<int>(it - implicit.begin()));
    }
    exec_ = std::make_unique<Executor>(registry, *body_, pool, false, body_->outerScopeInputs);
    for (const auto& o : body_->outputs) fetch_.push_back(o.name);
    owner_ = owner.describe();
  }

  std::vector<Value> run(const std::vector<const Value*>& formal, const std::vector<const Value*>& implicit) override {
    const size_t nFormal = body_->inputs.size();
    if (formal.size() != nFormal)
      throw Error(ErrorCode::kInvalidModel, owner_ + ": subgraph '" + body_->name + "' takes " +
                                                std::to_string(nFormal) + " inputs, " + std::to_string(formal.size()) +
                                                " given");
    auto valueOf = [&](size_t k) -> const Value* {
      if (k < nFormal) return formal[k];
      int idx = implicitIndex_[k - nFormal];
      return idx < static_cast<int>(implicit.size()) ? implicit[idx] : nullptr;
    };
    for (size_t k = 0; k < exec_->numInputs(); ++k)
      if (!valueOf(k))
        throw Error(ErrorCode::kInvalidModel, owner_ + ": subgraph value '" + exec_->inputName(k) + "' is not available");
    auto typeOf = [&](size_t k) {
      const Value* v = valueOf(k);
      Executor::InputType t;
      t.kind = v->kind;
      if (v->isTensor()) {
        t.dtype = v->tensor.dtype();
        t.shape = &v->tensor.shape();
      } else if (v->isSequence() && !v->sequence.empty()) {
        t.dtype = v->sequence.front().dtype();
      }
      return t;
    };
    auto plan = exec_->findPlanFast(typeOf, fetch_);
    ExecContext* ctx = exec_->acquire(*plan);
    std::vector<Value> out;
    try {
      for (size_t k = 0; k < exec_->numInputs(); ++k) exec_->setInput(*plan, *ctx, k, *valueOf(k));
      exec_->execute(*plan, *ctx);
      out.reserve(plan->results.size());
      for (int id : plan->results) {
        Value& v = ctx->values[id];
        if (plan->slots[id].kind == SlotKind::kOwned) {
          out.push_back(std::move(v));
          v = Value();
        } else {
          Value copy = v;
          if (copy.isTensor()) copy.tensor = v.tensor.clone();
          out.push_back(std::move(copy));
        }
      }
      // Inputs may be large and are the caller's: do not keep them alive.
      for (size_t k = 0; k < exec_->numInputs(); ++k) ctx->values[plan->inputSlots[k]] = Value();
    } catch (...) {
      exec_->release(*plan, ctx);
      throw;
    }
    exec_->release(*plan, ctx);
    return out;
  }

 private:
  std::unique_ptr<ir::Graph> body_;
  std::unique_ptr<Executor> exec_;
  std::vector<int> implicitIndex_;
  std::vector<std::string> fetch_;
  std::string owner_;
};

}  // namespace

SubgraphFactory makeSubgraphFactory(const Registry& registry, const ir::Graph& parent, const Node& owner,
                                    ThreadPool* pool) {
  return [&registry, &parent, &owner, pool](const ir::Graph& body) -> std::unique_ptr<SubgraphRunner> {
    return std::make_unique<SubgraphExecutor>(registry, parent, owner, body, pool);
  };
}

}  // namespace oinfer::runtime
