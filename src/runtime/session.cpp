// Session: input checks, plan cache, and the interpreter loop.
#include "oinfer/session.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <new>

#include "graph/passes/passes.h"
#include "ops/evaluate.h"
#include "runtime/memory_planner.h"
#include "runtime/plan.h"
#include "shape/infer.h"

namespace oinfer {

using runtime::ExecContext;
using runtime::Plan;
using runtime::Slot;
using runtime::SlotKind;
using runtime::Step;

namespace {

void configureLogging(const std::string& level) {
  const char* env = std::getenv("OINFER_LOG_LEVEL");
  std::string l = env && *env ? env : level;
  spdlog::set_level(spdlog::level::from_str(l));
}

}  // namespace

struct Session::Impl {
  Graph graph;
  SessionOptions options;
  std::unique_ptr<ThreadPool> pool;

  std::mutex planMu;
  std::unordered_map<std::string, std::shared_ptr<Plan>> plans;
  MemoryStats lastStats;

  mutable std::mutex profMu;
  std::vector<NodeProfile> prof;  // by node index

  void checkInputs(const TensorMap& inputs) const;
  std::string signature(const TensorMap& inputs, const std::vector<std::string>& fetch) const;
  std::shared_ptr<Plan> getPlan(const std::map<std::string, std::vector<int64_t>>& shapes,
                                const std::vector<std::string>& fetch, const std::string& sig);
  std::shared_ptr<Plan> makePlan(const std::map<std::string, std::vector<int64_t>>& shapes,
                                 const std::vector<std::string>& fetch);
  std::unique_ptr<ExecContext> makeContext(const Plan& plan);
  std::vector<Tensor> execute(Plan& plan, ExecContext& ctx, const TensorMap& inputs);
};

// ---- input checks -----------------------------------------------------------

void Session::Impl::checkInputs(const TensorMap& inputs) const {
  for (const auto& [name, t] : inputs) {
    bool known = false;
    for (const auto& in : graph.inputs) known |= in.name == name;
    if (!known) {
      std::string names;
      for (const auto& in : graph.inputs) names += (names.empty() ? "'" : ", '") + in.name + "'";
      throw Error(ErrorCode::kInvalidArgument,
                  "unknown input '" + name + "'; the model's inputs are " + (names.empty() ? "(none)" : names));
    }
  }
  std::map<std::string, std::pair<int64_t, std::string>> symbols;  // symbol -> (value, input that set it)
  for (const auto& in : graph.inputs) {
    auto it = inputs.find(in.name);
    if (it == inputs.end()) throw Error(ErrorCode::kInvalidArgument, "missing input '" + in.name + "'");
    const Tensor& t = it->second;
    if (!t.defined()) throw Error(ErrorCode::kInvalidArgument, "input '" + in.name + "' is an empty Tensor");
    if (in.kind != ValueKind::kTensor)
      throw Error(ErrorCode::kNotImplemented, "input '" + in.name + "' is not a tensor; only tensor inputs are supported");
    if (in.dtype != DataType::kUndefined && t.dtype() != in.dtype)
      throw Error(ErrorCode::kInvalidArgument, "input '" + in.name + "': data type " + dataTypeName(t.dtype()) +
                                                   ", model expects " + dataTypeName(in.dtype));
    if (t.numel() > 0 && t.data() == nullptr)
      throw Error(ErrorCode::kInvalidArgument, "input '" + in.name + "' has no data");
    if (!in.hasShape) continue;
    if (t.rank() != in.shape.size())
      throw Error(ErrorCode::kInvalidArgument, "input '" + in.name + "': rank " + std::to_string(t.rank()) +
                                                   " (shape " + shapeToString(t.shape()) + "), model expects rank " +
                                                   std::to_string(in.shape.size()) + " (" + shapeToString(in.shape) + ")");
    for (size_t k = 0; k < in.shape.size(); ++k) {
      const Dim& d = in.shape[k];
      const int64_t v = t.dim(k);
      if (d.isStatic()) {
        if (v != d.value)
          throw Error(ErrorCode::kInvalidArgument, "input '" + in.name + "': dimension " + std::to_string(k) + " is " +
                                                       std::to_string(v) + ", model expects " + std::to_string(d.value));
      } else if (!d.symbol.empty()) {
        auto [s, inserted] = symbols.emplace(d.symbol, std::make_pair(v, in.name));
        if (!inserted && s->second.first != v)
          throw Error(ErrorCode::kInvalidArgument,
                      "input '" + in.name + "': dimension " + std::to_string(k) + " ('" + d.symbol + "') is " +
                          std::to_string(v) + ", but input '" + s->second.second + "' set '" + d.symbol + "' to " +
                          std::to_string(s->second.first));
      }
    }
  }
}

std::string Session::Impl::signature(const TensorMap& inputs, const std::vector<std::string>& fetch) const {
  std::string sig;
  for (const auto& in : graph.inputs) {
    for (int64_t d : inputs.at(in.name).shape()) sig += std::to_string(d) + ",";
    sig += ";";
  }
  sig += "|";
  for (const auto& f : fetch) sig += f + ";";
  return sig;
}

// ---- planning -------------------------------------------------------------

std::shared_ptr<Plan> Session::Impl::getPlan(const std::map<std::string, std::vector<int64_t>>& shapes,
                                             const std::vector<std::string>& fetch, const std::string& sig) {
  std::lock_guard<std::mutex> lock(planMu);
  auto it = plans.find(sig);
  if (it != plans.end()) return it->second;
  auto plan = makePlan(shapes, fetch);
  lastStats = plan->stats;
  plans.emplace(sig, plan);
  return plan;
}

std::shared_ptr<Plan> Session::Impl::makePlan(const std::map<std::string, std::vector<int64_t>>& shapes,
                                              const std::vector<std::string>& fetch) {
  auto plan = std::make_shared<Plan>();
  // 1. Types and values for these concrete input shapes.
  shape::InferState st;
  shape::seedState(graph, st);
  for (const auto& in : graph.inputs) {
    ValueInfo v = in;
    v.hasShape = true;
    v.shape = toShape(shapes.at(in.name));
    st.types[in.name] = v;
  }
  shape::SymbolGenerator symbols;
  shape::inferNodes(graph, st, makeInferHooks(graph), symbols, /*fold=*/true);

  auto addSlot = [&](const std::string& name) -> int {
    auto it = plan->slotOf.find(name);
    if (it != plan->slotOf.end()) return it->second;
    Slot s;
    s.name = name;
    auto t = st.types.find(name);
    if (t != st.types.end()) s.type = t->second;
    s.staticShape = s.type.hasShape && isStatic(s.type.shape);
    if (s.staticShape) s.shape = toStatic(s.type.shape);
    plan->slots.push_back(std::move(s));
    plan->slotOf[name] = static_cast<int>(plan->slots.size() - 1);
    return static_cast<int>(plan->slots.size() - 1);
  };

  for (const auto& in : graph.inputs) plan->slots[addSlot(in.name)].kind = SlotKind::kInput;
  for (const auto& [name, t] : graph.initializers) {
    Slot& s = plan->slots[addSlot(name)];
    s.kind = SlotKind::kWeight;
    s.value = t;
  }

  // 2. Steps: every node not folded away.
  for (size_t ni = 0; ni < graph.nodes.size(); ++ni) {
    const Node& node = graph.nodes[ni];
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
    step.def = findOpDef(graph, node);
    step.opset = graph.opset(node.domain);
    for (const auto& i : node.inputs) {
      if (i.empty()) {
        step.in.push_back(-1);
        continue;
      }
      auto it = plan->slotOf.find(i);
      if (it == plan->slotOf.end())
        throw Error(ErrorCode::kInvalidModel, node.describe() + ": input '" + i + "' is not produced by any node");
      step.in.push_back(it->second);
    }
    step.view = step.def->viewOfInput >= 0;
    for (const auto& o : node.outputs) {
      if (o.empty()) {
        step.out.push_back(-1);
        continue;
      }
      int id = addSlot(o);
      Slot& s = plan->slots[id];
      if (s.type.kind != ValueKind::kTensor)
        throw Error(ErrorCode::kNotImplemented, node.describe() + ": output '" + o + "' is not a tensor");
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
        s.kind = step.dynamic ? SlotKind::kOwned : SlotKind::kArena;
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

  // 4. Lifetimes of arena buffers. Reads through a view count as reads of its root.
  const int numSteps = static_cast<int>(plan->steps.size());
  auto root = [&](int id) {
    while (plan->slots[id].kind == SlotKind::kView) id = plan->slots[id].viewBase;
    return id;
  };
  std::vector<int> first(plan->slots.size(), -1), last(plan->slots.size(), -1);
  for (int si = 0; si < numSteps; ++si) {
    const Step& step = plan->steps[si];
    for (int id : step.out)
      if (id >= 0 && first[id] < 0) first[id] = last[id] = si;
    for (int id : step.in)
      if (id >= 0) {
        int r = root(id);
        last[r] = std::max(last[r], si);
      }
  }
  for (int id : plan->results) {
    int r = root(id);
    last[r] = numSteps;  // results are copied out after the last step
  }
  std::vector<BufferRequest> reqs;
  std::vector<int> reqSlot;
  for (size_t id = 0; id < plan->slots.size(); ++id) {
    Slot& s = plan->slots[id];
    if (s.kind != SlotKind::kArena) continue;
    s.bytes = static_cast<size_t>(numElements(s.shape)) * dataTypeSize(s.type.dtype);
    reqs.push_back({s.bytes, first[id], std::max(first[id], last[id])});
    reqSlot.push_back(static_cast<int>(id));
  }
  MemoryPlan mp = planMemory(reqs);
  for (size_t k = 0; k < reqs.size(); ++k) plan->slots[reqSlot[k]].offset = mp.offsets[k];
  plan->stats.arenaBytes = mp.arenaBytes;
  plan->stats.lowerBoundBytes = mp.lowerBound;
  plan->stats.weightBytes = graph.weightBytes();
  spdlog::debug("plan: {} steps, arena {} bytes (lower bound {})", plan->steps.size(), mp.arenaBytes, mp.lowerBound);
  return plan;
}

std::unique_ptr<ExecContext> Session::Impl::makeContext(const Plan& plan) {
  auto ctx = std::make_unique<ExecContext>();
  const size_t bytes = std::max<size_t>(plan.stats.arenaBytes, 64);
  void* p = ::operator new[](bytes, std::align_val_t(64));
  ctx->arena = std::shared_ptr<void>(p, [](void* q) { ::operator delete[](q, std::align_val_t(64)); });
  ctx->arenaData = static_cast<uint8_t*>(p);
  ctx->kernels.resize(plan.steps.size());
  for (size_t si = 0; si < plan.steps.size(); ++si) {
    const Step& step = plan.steps[si];
    if (step.view) continue;
    KernelInit init{*step.node, step.opset, {}, {}, {}};
    for (int id : step.in) {
      if (id < 0) {
        init.inputs.push_back(nullptr);
        init.constInputs.push_back(nullptr);
        continue;
      }
      const Slot& s = plan.slots[id];
      init.inputs.push_back(&s.type);
      init.constInputs.push_back(s.kind == SlotKind::kWeight || s.kind == SlotKind::kConstant ? &s.value : nullptr);
    }
    for (int id : step.out) init.outputs.push_back(id < 0 ? nullptr : &plan.slots[id].type);
    if (!step.def->cpu)
      throw Error(ErrorCode::kUnsupportedOp, step.node->describe() + ": no CPU kernel");
    ctx->kernels[si] = step.def->cpu(init);
  }
  return ctx;
}

// ---- execution ---------------------------------------------------------------

std::vector<Tensor> Session::Impl::execute(Plan& plan, ExecContext& ctx, const TensorMap& inputs) {
  std::vector<Tensor> values(plan.slots.size());
  for (size_t id = 0; id < plan.slots.size(); ++id) {
    const Slot& s = plan.slots[id];
    switch (s.kind) {
      case SlotKind::kInput: values[id] = inputs.at(s.name); break;
      case SlotKind::kWeight:
      case SlotKind::kConstant: values[id] = s.value; break;
      case SlotKind::kArena:
        values[id] = Tensor::share(s.type.dtype, s.shape, ctx.arena, ctx.arenaData + s.offset);
        break;
      case SlotKind::kOwned:
        if (s.staticShape) values[id] = Tensor(s.type.dtype, s.shape);
        break;
      case SlotKind::kView: break;
    }
  }

  KernelContext kctx;
  kctx.pool_ = pool.get();
  const bool profiling = options.profiling;
  std::vector<double> times(profiling ? plan.steps.size() : 0);
  for (size_t si = 0; si < plan.steps.size(); ++si) {
    const Step& step = plan.steps[si];
    auto t0 = std::chrono::steady_clock::now();
    if (step.dynamic) {
      // Shapes depend on values only known now: re-run the shape function with every input known.
      shape::InferState local;
      for (size_t i = 0; i < step.in.size(); ++i) {
        if (step.in[i] < 0) continue;
        const Tensor& t = values[step.in[i]];
        const std::string& name = step.node->inputs[i];
        local.types[name] = shape::valueInfoOf(name, t);
        local.types[name].kind = plan.slots[step.in[i]].type.kind;
        shape::setKnownValue(name, t, local);
      }
      shape::SymbolGenerator symbols;
      shape::inferNode(*step.node, local, makeInferHooks(graph), symbols, nullptr, /*fold=*/false);
      for (size_t o = 0; o < step.out.size(); ++o) {
        int id = step.out[o];
        if (id < 0 || step.view) continue;
        const ValueInfo& vi = local.types[step.node->outputs[o]];
        values[id] = vi.hasShape && isStatic(vi.shape) ? Tensor(vi.dtype, toStatic(vi.shape)) : Tensor();
      }
      if (step.view) {
        const ValueInfo& vi = local.types[step.node->outputs[0]];
        values[step.out[0]] = values[step.in[step.def->viewOfInput]].reshaped(toStatic(vi.shape));
      }
    } else if (step.view) {
      values[step.out[0]] = values[step.in[step.def->viewOfInput]].reshaped(plan.slots[step.out[0]].shape);
    }
    if (!step.view) {
      kctx.node_ = step.node;
      kctx.inputs_.clear();
      kctx.outputs_.clear();
      kctx.outputTypes_.clear();
      for (int id : step.in) kctx.inputs_.push_back(id < 0 ? nullptr : &values[id]);
      for (int id : step.out) {
        kctx.outputs_.push_back(id < 0 ? nullptr : &values[id]);
        kctx.outputTypes_.push_back(id < 0 ? DataType::kUndefined : plan.slots[id].type.dtype);
      }
      ctx.kernels[si]->run(kctx);
    }
    if (profiling)
      times[si] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  }

  if (profiling) {
    std::lock_guard<std::mutex> lock(profMu);
    for (size_t si = 0; si < plan.steps.size(); ++si) {
      NodeProfile& p = prof[plan.steps[si].nodeIndex];
      p.totalMs += times[si];
      p.calls += 1;
    }
  }

  std::vector<Tensor> out;
  out.reserve(plan.results.size());
  for (int id : plan.results) {
    const Slot& s = plan.slots[id];
    // Only per-run buffers may be handed out as they are; anything else could be
    // overwritten by a later run or alias the caller's inputs or the weights.
    out.push_back(s.kind == SlotKind::kOwned ? values[id] : values[id].clone());
  }
  return out;
}

// ---- public API ------------------------------------------------------------------

Session::Session(Graph graph, SessionOptions options) : impl_(std::make_unique<Impl>()) {
  configureLogging(options.logLevel);
  if (options.device == Device::kCUDA)
    throw Error(ErrorCode::kDevice, "device cuda: this build of oinfer has no CUDA backend");
  if (options.threads < 0) throw Error(ErrorCode::kInvalidArgument, "SessionOptions.threads must be >= 0");
  impl_->options = options;
  impl_->graph = std::move(graph);
  if (!impl_->graph.sorted) impl_->graph.topologicalSort();
  passes::optimize(impl_->graph, options.optimizationLevel);
  if (!impl_->graph.shapesInferred) impl_->graph.inferShapes();
  impl_->pool = std::make_unique<ThreadPool>(options.threads);
  impl_->prof.resize(impl_->graph.nodes.size());
  for (size_t i = 0; i < impl_->graph.nodes.size(); ++i) {
    impl_->prof[i].opType = impl_->graph.nodes[i].opType;
    impl_->prof[i].nodeName = impl_->graph.nodes[i].name;
  }
}

Session::~Session() = default;

const Graph& Session::graph() const { return impl_->graph; }
const SessionOptions& Session::options() const { return impl_->options; }

std::vector<Tensor> Session::run(const TensorMap& inputs) {
  std::vector<std::string> names;
  for (const auto& o : impl_->graph.outputs) names.push_back(o.name);
  return run(inputs, names);
}

std::vector<Tensor> Session::run(const TensorMap& inputs, const std::vector<std::string>& outputNames) {
  impl_->checkInputs(inputs);
  std::map<std::string, std::vector<int64_t>> shapes;
  for (const auto& in : impl_->graph.inputs) shapes[in.name] = inputs.at(in.name).shape();
  auto plan = impl_->getPlan(shapes, outputNames, impl_->signature(inputs, outputNames));

  std::unique_ptr<ExecContext> ctx;
  {
    std::lock_guard<std::mutex> lock(plan->poolMu);
    if (!plan->freeContexts.empty()) {
      ctx = std::move(plan->freeContexts.back());
      plan->freeContexts.pop_back();
    }
  }
  if (!ctx) ctx = impl_->makeContext(*plan);
  std::vector<Tensor> out;
  try {
    out = impl_->execute(*plan, *ctx, inputs);
  } catch (...) {
    std::lock_guard<std::mutex> lock(plan->poolMu);
    plan->freeContexts.push_back(std::move(ctx));
    throw;
  }
  std::lock_guard<std::mutex> lock(plan->poolMu);
  plan->freeContexts.push_back(std::move(ctx));
  return out;
}

PlanInfo Session::plan(const std::map<std::string, std::vector<int64_t>>& inputShapes) {
  // Reuse the input checks by describing the shapes as (unallocated) tensors.
  TensorMap probe;
  for (const auto& [name, shape] : inputShapes) {
    DataType dt = DataType::kFloat;
    for (const auto& in : impl_->graph.inputs)
      if (in.name == name && in.dtype != DataType::kUndefined) dt = in.dtype;
    static char dummy[64];
    probe[name] = Tensor::wrap(dt, shape, dummy);
  }
  impl_->checkInputs(probe);
  std::vector<std::string> names;
  for (const auto& o : impl_->graph.outputs) names.push_back(o.name);
  auto p = impl_->getPlan(inputShapes, names, impl_->signature(probe, names));
  PlanInfo info;
  info.memory = p->stats;
  for (const Step& s : p->steps) {
    PlanStep ps;
    ps.nodeName = s.node->name;
    ps.opType = s.node->opType;
    ps.isView = s.view;
    for (int id : s.out) {
      if (id < 0) continue;
      const Slot& slot = p->slots[id];
      ps.outputs.push_back(slot.name);
      ps.outputShapes.push_back(slot.staticShape ? shapeToString(slot.shape) : "dynamic");
    }
    info.steps.push_back(std::move(ps));
  }
  return info;
}

MemoryStats Session::memoryStats() const {
  std::lock_guard<std::mutex> lock(impl_->planMu);
  MemoryStats s = impl_->lastStats;
  s.weightBytes = impl_->graph.weightBytes();
  return s;
}

std::vector<NodeProfile> Session::profile() const {
  std::lock_guard<std::mutex> lock(impl_->profMu);
  std::vector<NodeProfile> out;
  for (const auto& p : impl_->prof)
    if (p.calls > 0) out.push_back(p);
  std::sort(out.begin(), out.end(), [](const NodeProfile& a, const NodeProfile& b) { return a.totalMs > b.totalMs; });
  return out;
}

void Session::resetProfile() {
  std::lock_guard<std::mutex> lock(impl_->profMu);
  for (auto& p : impl_->prof) {
    p.totalMs = 0;
    p.calls = 0;
  }
}

}  // namespace oinfer
