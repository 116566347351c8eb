// Session: input checks, plan cache, and the interpreter loop.
#include "oinfer/session.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <new>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "api/custom_ops.h"
#include "api/devices.h"
#include "graph/graph_access.h"
#include "graph/names.h"
#include "ops/cpu/register_all.h"
#include "ops/graph_shapes.h"
#include "passes/pipeline.h"
#include "runtime/executor.h"
#include "runtime/memory_limit.h"
#include "runtime/plan.h"

namespace oinfer {

using runtime::ExecContext;
using runtime::Executor;
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

// " (did you mean 'x'?)" for the closest of `names` (graph/names.h), else "".
std::string closeMatchHint(const std::string& name, const std::set<std::string>& names) {
  const std::string pick = closestName(name, names);
  return pick.empty() ? "" : " (did you mean '" + pick + "'?)";
}

}  // namespace

struct Session::Impl {
  // The ops this session binds to (the built-in ones, the global and its own
  // custom ops); first, so it outlives everything that refers to it.
  std::shared_ptr<const Registry> registry;
  Graph publicGraph;  // what graph() returns; owns the IR below
  ir::Graph* irGraph = nullptr;  // the graph as the executor runs it (after the passes)
  SessionOptions options;
  std::shared_ptr<ThreadPool> pool;
  std::unique_ptr<runtime::Executor> exec;
  std::vector<std::string> outputNames;
  // The graph inputs' names, for checking a run's feeds by lookup (a scan per
  // feed was quadratic on a model of 100k inputs).
  std::unordered_set<std::string> inputNameSet;
  // Per graph input and dim: the index of its symbol in a run's symbol table, or -1.
  std::vector<std::vector<int>> symbolIds;
  std::vector<std::string> symbolNames;
  // The values of the file before the passes (graph inputs, node outputs) and
  // its weights: to tell a name the passes fused away from one the model never had.
  std::set<std::string> fileValues;
  std::set<std::string> fileWeights;

  // Output buffers run() handed out, kept so that a later run() writes into
  // one the caller has since let go of (held only here: use_count 1) rather
  // than into a new one: a new buffer per run pays page faults and clearing
  // (glibc maps each large aligned block afresh; TUNING.md, Runtime);
  // onnxruntime's arena reuses its blocks likewise. At most two per
  // output the runs return (the caller's `outs = s.run(in)` still holds the
  // last run's while the next one runs); a buffer in use is never reused.
  struct OutputBuffer {
    std::shared_ptr<void> holder;
    size_t bytes = 0;
  };
  std::mutex outputMu;
  std::vector<OutputBuffer> outputBuffers;

  // Session::terminate bumps it; a run that saw another value at its start stops.
  std::atomic<uint64_t> terminateEpoch{0};
  // The RunControl of a run starting now (ExecContext::control); a run with
  // neither a deadline nor a flag still stops on terminate().
  RunControl controlFor(const RunOptions& ro) const;

  void checkInputs(const TensorMap& inputs) const;
  // runValues' checks: the same names, kinds against the declared ones
  // (a tensor, a sequence of the declared element type, or anything for an
  // optional), then the tensors' dtypes, ranks and dims as checkInputs does.
  void checkValues(const ValueMap& inputs) const;
  // Symbol bindings of one run's inputs (a dim named by two inputs must agree).
  struct SymbolTable {
    static constexpr size_t kInline = 64;
    int64_t inlineVals[kInline];
    int inlineSetBy[kInline];
    std::vector<int64_t> heapVals;
    std::vector<int> heapSetBy;
    int64_t* val = inlineVals;
    int* setBy = inlineSetBy;
    explicit SymbolTable(size_t n) {
      if (n > kInline) {
        heapVals.resize(n);
        heapSetBy.resize(n);
        val = heapVals.data();
        setBy = heapSetBy.data();
      }
      for (size_t s = 0; s < n; ++s) setBy[s] = -1;
    }
  };
  // Input k given as tensor t: dtype, rank, static dims and symbols against the declaration.
  void checkTensorInput(size_t k, const Tensor& t, SymbolTable& syms) const;
  // Why `name` is not a value of the file: "not a value of the model (did you mean 'y'?)".
  std::string notAValue(const std::string& name) const;
  // After a failed plan: throws the reason when a fetched name is not in the
  // graph as optimized (fused away, or never in the model); else returns.
  void explainFetch(const std::vector<std::string>& names) const;
  std::shared_ptr<Plan> planFor(const TensorMap& inputs, const std::vector<std::string>& fetch);
  // Gives each of run()'s outputs of `plan` whose shape is known now a free
  // kept buffer of about its size (or a new kept one, under the cap or in
  // place of a free one of another size); the rest the executor allocates.
  void provideKeptOutputs(const Plan& plan, ExecContext& ctx);
};

void Session::Impl::provideKeptOutputs(const Plan& plan, ExecContext& ctx) {
  std::lock_guard<std::mutex> lock(outputMu);
  const size_t cap = 2 * plan.results.size();
  for (size_t j = 0; j < plan.results.size(); ++j) {
    const Slot& s = plan.slots[plan.results[j]];
    if (s.kind != SlotKind::kOwned || !s.staticShape || s.device != Device::kCPU ||
        s.type.dtype == DataType::kString || dataTypeSize(s.type.dtype) == 0)
      continue;
    const size_t bytes = size_t(numElements(s.shape)) * dataTypeSize(s.type.dtype);
    if (bytes < 4096) continue;  // small blocks come back from malloc's free lists as it is
    OutputBuffer* pick = nullptr;
    OutputBuffer* spare = nullptr;  // a free one of another size
    for (OutputBuffer& b : outputBuffers) {
      if (b.holder.use_count() != 1) continue;
      if (b.bytes >= bytes && b.bytes <= 2 * bytes) {
        pick = &b;
        break;
      }
      spare = &b;
    }
    if (!pick) {
      // Under the cap a new one is kept; at it, one a shape change left
      // unused is replaced; else the executor allocates this output.
      if (outputBuffers.size() >= cap && !spare) continue;
      // Not zeroed: the kernels write every element of their outputs.
      void* p = ::operator new[](bytes, std::align_val_t(64));
      OutputBuffer fresh{std::shared_ptr<void>(p, [](void* q) { ::operator delete[](q, std::align_val_t(64)); }), bytes};
      if (outputBuffers.size() >= cap) {
        *spare = std::move(fresh);
        pick = spare;
      } else {
        outputBuffers.push_back(std::move(fresh));
        pick = &outputBuffers.back();
      }
    }
    exec->provideOutput(plan, ctx, j, Tensor::share(s.type.dtype, s.shape, pick->holder, pick->holder.get()));
  }
}

std::string Session::Impl::notAValue(const std::string& name) const {
  if (fileWeights.count(name)) return "a weight (initializer), not a computed value";
  return "not a value of the model" + closeMatchHint(name, fileValues);
}

void Session::Impl::explainFetch(const std::vector<std::string>& names) const {
  std::set<std::string> now;
  for (const auto& in : irGraph->inputs) now.insert(in.name);
  for (const auto& [n, t] : irGraph->initializers) now.insert(n);
  for (const Node& n : irGraph->nodes) now.insert(n.outputs.begin(), n.outputs.end());
  for (const auto& name : names) {
    if (now.count(name)) continue;
    if (fileValues.count(name))
      throw Error(ErrorCode::kInvalidArgument,
                  "unknown output '" + name + "': the graph passes fused it away (optimizationLevel " +
                      std::to_string(options.optimizationLevel) +
                      "); name it in SessionOptions::keepValues to keep it, or use optimizationLevel 0");
    throw Error(ErrorCode::kInvalidArgument, "unknown output '" + name + "': " + notAValue(name));
  }
}

// ---- input checks -----------------------------------------------------------
// Allocation-free on success: a run with valid inputs must not touch the heap.

void Session::Impl::checkInputs(const TensorMap& inputs) const {
  for (const auto& [name, t] : inputs) {
    if (!inputNameSet.count(name)) {
      std::string names;
      for (const auto& in : irGraph->inputs) names += (names.empty() ? "'" : ", '") + in.name + "'";
      throw Error(ErrorCode::kInvalidArgument,
                  "unknown input '" + name + "'; the model's inputs are " + (names.empty() ? "(none)" : names));
    }
  }
  SymbolTable syms(symbolNames.size());
  for (size_t k = 0; k < irGraph->inputs.size(); ++k) {
    const ValueInfo& in = irGraph->inputs[k];
    auto it = inputs.find(in.name);
    if (it == inputs.end()) throw Error(ErrorCode::kInvalidArgument, "missing input '" + in.name + "'");
    if (in.kind != ValueKind::kTensor)
      throw Error(ErrorCode::kNotImplemented, "input '" + in.name + "' is not a tensor; Session::runValues takes sequence and optional inputs");
    checkTensorInput(k, it->second, syms);
  }
}

void Session::Impl::checkTensorInput(size_t k, const Tensor& t, SymbolTable& syms) const {
  const ValueInfo& in = irGraph->inputs[k];
  if (!t.defined()) throw Error(ErrorCode::kInvalidArgument, "input '" + in.name + "' is an empty Tensor");
  if (in.dtype != DataType::kUndefined && t.dtype() != in.dtype)
    throw Error(ErrorCode::kInvalidArgument, "input '" + in.name + "': data type " + dataTypeName(t.dtype()) +
                                                 ", model expects " + dataTypeName(in.dtype));
  if (t.numel() > 0 && t.data() == nullptr)
    throw Error(ErrorCode::kInvalidArgument, "input '" + in.name + "' has no data");
  if (!in.hasShape) return;
  if (t.rank() != in.shape.size())
    throw Error(ErrorCode::kInvalidArgument, "input '" + in.name + "': rank " + std::to_string(t.rank()) +
                                                 " (shape " + shapeToString(t.shape()) + "), model expects rank " +
                                                 std::to_string(in.shape.size()) + " (" + shapeToString(in.shape) + ")");
  for (size_t d = 0; d < in.shape.size(); ++d) {
    const Dim& dim = in.shape[d];
    const int64_t v = t.dim(d);
    if (dim.isStatic()) {
      if (v != dim.value)
        throw Error(ErrorCode::kInvalidArgument, "input '" + in.name + "': dimension " + std::to_string(d) + " is " +
                                                     std::to_string(v) + ", model expects " + std::to_string(dim.value));
      continue;
    }
    const int sid = symbolIds[k][d];
    if (sid < 0) continue;
    if (syms.setBy[sid] < 0) {
      syms.setBy[sid] = static_cast<int>(k);
      syms.val[sid] = v;
    } else if (syms.val[sid] != v) {
      throw Error(ErrorCode::kInvalidArgument,
                  "input '" + in.name + "': dimension " + std::to_string(d) + " ('" + dim.symbol + "') is " +
                      std::to_string(v) + ", but input '" + irGraph->inputs[syms.setBy[sid]].name + "' set '" +
                      dim.symbol + "' to " + std::to_string(syms.val[sid]));
    }
  }
}

void Session::Impl::checkValues(const ValueMap& inputs) const {
  for (const auto& [name, v] : inputs) {
    if (!inputNameSet.count(name)) {
      std::string names;
      for (const auto& in : irGraph->inputs) names += (names.empty() ? "'" : ", '") + in.name + "'";
      throw Error(ErrorCode::kInvalidArgument,
                  "unknown input '" + name + "'; the model's inputs are " + (names.empty() ? "(none)" : names));
    }
  }
  auto kindName = [](ValueKind k) {
    switch (k) {
      case ValueKind::kTensor: return "a tensor";
      case ValueKind::kSequence: return "a sequence";
      case ValueKind::kOptional: return "an optional";
      case ValueKind::kMap: return "a map";
    }
    return "a value";
  };
  SymbolTable syms(symbolNames.size());
  for (size_t k = 0; k < irGraph->inputs.size(); ++k) {
    const ValueInfo& in = irGraph->inputs[k];
    auto it = inputs.find(in.name);
    if (it == inputs.end()) throw Error(ErrorCode::kInvalidArgument, "missing input '" + in.name + "'");
    const Value& v = it->second;
    if (in.kind == ValueKind::kMap)
      throw Error(ErrorCode::kNotImplemented, "input '" + in.name + "' is a map; map inputs are not supported");
    if (in.kind == ValueKind::kOptional) {
      // An optional holding a tensor or a sequence is given as what it holds.
      if (v.isTensor() && (!v.tensor.defined() || (v.tensor.numel() > 0 && v.tensor.data() == nullptr)))
        throw Error(ErrorCode::kInvalidArgument, "input '" + in.name + "' is an empty Tensor");
      continue;
    }
    if (v.kind != in.kind)
      throw Error(ErrorCode::kInvalidArgument, "input '" + in.name + "' is " + v.describe() + ", model expects " +
                                                   kindName(in.kind));
    if (v.isTensor()) {
      checkTensorInput(k, v.tensor, syms);
      continue;
    }
    for (size_t i = 0; i < v.sequence.size(); ++i) {
      const Tensor& t = v.sequence[i];
      if (!t.defined() || (t.numel() > 0 && t.data() == nullptr))
        throw Error(ErrorCode::kInvalidArgument, "input '" + in.name + "': sequence element " + std::to_string(i) +
                                                     " is an empty Tensor");
      const DataType want = in.dtype != DataType::kUndefined ? in.dtype : v.sequence.front().dtype();
      if (t.dtype() != want)
        throw Error(ErrorCode::kInvalidArgument, "input '" + in.name + "': sequence element " + std::to_string(i) +
                                                     " has data type " + dataTypeName(t.dtype()) + ", " +
                                                     (in.dtype != DataType::kUndefined ? "model expects " : "element 0 has ") +
                                                     dataTypeName(want));
    }
  }
}

std::shared_ptr<Plan> Session::Impl::planFor(const TensorMap& inputs, const std::vector<std::string>& fetch) {
  return exec->findPlanFast(
      [&](size_t k) {
        const Tensor& t = inputs.find(irGraph->inputs[k].name)->second;
        return Executor::InputType{ValueKind::kTensor, t.dtype(), &t.shape()};
      },
      fetch);
}

// ---- public API ------------------------------------------------------------------

Session::Session(Graph graph, SessionOptions options) : impl_(std::make_unique<Impl>()) {
  configureLogging(options.logLevel);
  if (options.device == Device::kCUDA) {
    const std::string why = deviceUnavailable(options.device, options.deviceIndex);
    if (!why.empty()) throw Error(ErrorCode::kDevice, "device cuda: " + why);
  }
  if (options.threads < 0) throw Error(ErrorCode::kInvalidArgument, "SessionOptions.threads must be >= 0");
  if (options.planCacheSize < -1)
    throw Error(ErrorCode::kInvalidArgument, "SessionOptions.planCacheSize is " + std::to_string(options.planCacheSize) +
                                                 "; it must be >= 0 (or -1: the default)");
  if (!(options.runTimeoutSeconds >= 0))
    throw Error(ErrorCode::kInvalidArgument, "SessionOptions.runTimeoutSeconds must be >= 0 (0: no deadline)");
  if (options.optimizationLevel < 0 || options.optimizationLevel > 2)
    throw Error(ErrorCode::kInvalidArgument, "SessionOptions.optimizationLevel is " +
                                                 std::to_string(options.optimizationLevel) +
                                                 "; the levels are 0 (no graph passes), 1 (constant and BatchNormalization "
                                                 "folding) and 2 (all of them)");
  impl_->registry = sessionRegistry(options);
  const Registry& registry = *impl_->registry;
  impl_->options = options;
  impl_->publicGraph = std::move(graph);
  ir::Graph& g = detail::GraphAccess::ir(impl_->publicGraph);
  impl_->irGraph = &g;
  passes::PipelineOptions pipeline;
  pipeline.level = options.optimizationLevel;
  pipeline.device = options.device;
  pipeline.fp16 = options.fp16;
  // The blocked layout is kept only where the kernels that take it run (the
  // CPU layer says); the passes plan around it.
  pipeline.blockedLayout = options.device == Device::kCPU && options.blockedLayout && cpuTakesBlockedLayout();
  for (const auto& in : g.inputs) impl_->fileValues.insert(in.name);
  for (const Node& n : g.nodes)
    for (const auto& o : n.outputs)
      if (!o.empty()) impl_->fileValues.insert(o);
  for (const auto& [n, t] : g.initializers)
    if (!impl_->fileValues.count(n)) impl_->fileWeights.insert(n);
  // keepValues: graph outputs while the passes run (every pass leaves graph
  // outputs as the file computes them), then taken off again.
  std::set<std::string> kept;
  for (const auto& name : options.keepValues) {
    if (!impl_->fileValues.count(name))
      throw Error(ErrorCode::kInvalidArgument,
                  "SessionOptions::keepValues: '" + name + "' is " + impl_->notAValue(name));
    bool output = false;
    for (const auto& o : g.outputs) output |= o.name == name;
    if (!output) kept.insert(name);
  }
  if (!kept.empty()) {
    // Typed, so that fp16 casts a float32 one back like an output.
    if (!g.shapesInferred()) {
      try {
        inferShapes(g, registry);
      } catch (const Error&) {
        // reported below, after the passes
      }
    }
    for (const auto& name : kept) {
      const ValueInfo* vi = g.findValue(name);
      ValueInfo v = vi ? *vi : ValueInfo{};
      v.name = name;
      g.outputs.push_back(std::move(v));
    }
  }
  passes::optimize(g, registry, pipeline);
  if (!kept.empty())
    g.outputs.erase(std::remove_if(g.outputs.begin(), g.outputs.end(),
                                   [&](const ValueInfo& v) { return kept.count(v.name) > 0; }),
                    g.outputs.end());
  if (!g.shapesInferred()) inferShapes(g, registry);
  impl_->pool = options.threadPool ? options.threadPool : std::make_shared<ThreadPool>(options.threads);
  runtime::DeviceConfig dev;
  dev.device = options.device;
  dev.index = options.deviceIndex;
  dev.cudaGraphs = options.cudaGraphs;
  dev.deviceIO = options.device == Device::kCUDA && options.deviceIO;
  dev.blockedLayout = options.device == Device::kCPU && options.optimizationLevel >= 2 && options.blockedLayout;
  dev.backend = deviceBackend(options.device);
  if (dev.backend) dev.uploads = dev.backend->makeUploadCache();
  impl_->exec =
      std::make_unique<Executor>(registry, g, impl_->pool.get(), options.profiling, std::vector<std::string>{}, dev);
  impl_->exec->trustDeclaredShapes();  // checkInputs holds every run to the declared dims
  if (options.planCacheSize >= 0) impl_->exec->setPlanCacheSize(size_t(options.planCacheSize));
  impl_->exec->allowWeightRelease(&g);
  impl_->exec->setMemoryLimit(runtime::resolveMemoryLimit(options.memoryLimitBytes));
  for (const auto& o : g.outputs) impl_->outputNames.push_back(o.name);
  std::unordered_map<std::string, int> symbolIndex;
  for (const auto& in : g.inputs) {
    impl_->inputNameSet.insert(in.name);
    std::vector<int> ids;
    for (const Dim& d : in.shape) {
      if (d.isStatic() || d.symbol.empty()) {
        ids.push_back(-1);
        continue;
      }
      auto [it, fresh] = symbolIndex.emplace(d.symbol, static_cast<int>(impl_->symbolNames.size()));
      ids.push_back(it->second);
      if (fresh) impl_->symbolNames.push_back(d.symbol);
    }
    impl_->symbolIds.push_back(std::move(ids));
  }
}

RunControl Session::Impl::controlFor(const RunOptions& ro) const {
  RunControl c;
  c.flag = ro.terminate;
  c.epoch = &terminateEpoch;
  c.startEpoch = terminateEpoch.load(std::memory_order_relaxed);
  const double t = ro.timeoutSeconds > 0 ? ro.timeoutSeconds : options.runTimeoutSeconds;
  if (t > 0) {
    c.hasDeadline = true;
    c.timeoutSeconds = t;
    // Far deadlines (beyond ~290 years in nanoseconds) saturate instead of wrapping.
    const double ns = std::min(t * 1e9, 9.0e18);
    c.deadline = std::chrono::steady_clock::now() + std::chrono::nanoseconds(int64_t(ns));
  }
  return c;
}

void Session::terminate() { impl_->terminateEpoch.fetch_add(1, std::memory_order_relaxed); }

Session::~Session() = default;

const Graph& Session::graph() const { return impl_->publicGraph; }
const SessionOptions& Session::options() const { return impl_->options; }

std::vector<Tensor> Session::run(const TensorMap& inputs) { return run(inputs, impl_->outputNames); }

namespace {

// Returns a context to its plan's pool on every path.
struct ContextLease {
  Executor& exec;
  Plan& plan;
  ExecContext* ctx;
  ContextLease(Executor& e, Plan& p) : exec(e), plan(p), ctx(e.acquire(p)) {}
  ~ContextLease() {
    ctx->control = nullptr;  // the run's RunControl lives on its stack
    exec.release(plan, ctx);
  }
  ContextLease(const ContextLease&) = delete;
  ContextLease& operator=(const ContextLease&) = delete;
};

}  // namespace

std::vector<Tensor> Session::run(const TensorMap& inputs, const std::vector<std::string>& outputNames) {
  return run(inputs, outputNames, RunOptions{});
}

void Session::runInto(const TensorMap& inputs, std::vector<Tensor>& outputs) { runInto(inputs, outputs, RunOptions{}); }

std::vector<Tensor> Session::run(const TensorMap& inputs, const std::vector<std::string>& outputNames,
                                 const RunOptions& runOptions) {
  const RunControl control = impl_->controlFor(runOptions);
  impl_->pool->wake();  // workers wake while the inputs are checked and the plan found
  impl_->checkInputs(inputs);
  std::shared_ptr<Plan> plan;
  try {
    plan = impl_->planFor(inputs, outputNames);
  } catch (const Error&) {
    impl_->explainFetch(outputNames);
    throw;
  }
  Executor& exec = *impl_->exec;
  ContextLease lease(exec, *plan);
  ExecContext& ctx = *lease.ctx;
  for (size_t k = 0; k < impl_->irGraph->inputs.size(); ++k)
    exec.setInput(*plan, ctx, k, inputs.find(impl_->irGraph->inputs[k].name)->second);
  impl_->provideKeptOutputs(*plan, ctx);
  ctx.control = &control;
  exec.execute(*plan, ctx);
  std::vector<Tensor> out;
  out.reserve(plan->results.size());
  for (size_t j = 0; j < plan->results.size(); ++j) {
    const int id = plan->results[j];
    // A name asked for twice: the same tensor again (the first took the buffer).
    const auto first = std::find(plan->results.begin(), plan->results.begin() + j, id);
    if (first != plan->results.begin() + j) {
      out.push_back(out[size_t(first - plan->results.begin())]);
      continue;
    }
    const Slot& s = plan->slots[id];
    Tensor& t = ctx.values[id].tensor;
    if (s.device == Device::kCUDA) {  // deviceIO: a new device buffer for the caller
      out.push_back(impl_->exec->device().backend->deviceTensor(t.dtype(), t.shape(), impl_->options.deviceIndex));
      impl_->exec->device().backend->copyOut(ctx, t, out.back());
      continue;
    }
    // Only per-run buffers may be handed out as they are; anything else could be
    // overwritten by a later run or alias the caller's inputs or the weights.
    if (s.kind == SlotKind::kOwned) {
      out.push_back(std::move(t));
      t = Tensor();
    } else {
      out.push_back(t.clone());
    }
  }
  return out;
}

std::vector<Value> Session::runValues(const ValueMap& inputs, const std::vector<std::string>& outputNames) {
  const RunControl control = impl_->controlFor(RunOptions{});
  impl_->pool->wake();
  impl_->checkValues(inputs);
  const std::vector<std::string>& names = outputNames.empty() ? impl_->outputNames : outputNames;
  const auto& graphInputs = impl_->irGraph->inputs;
  auto typeOf = [&](size_t k) {
    const Value& v = inputs.find(graphInputs[k].name)->second;
    Executor::InputType t;
    t.kind = v.kind;
    if (v.isTensor()) {
      t.dtype = v.tensor.dtype();
      t.shape = &v.tensor.shape();
    } else if (v.isSequence()) {
      t.dtype = v.sequence.empty() ? graphInputs[k].dtype : v.sequence.front().dtype();
    }
    return t;
  };
  std::shared_ptr<Plan> plan;
  try {
    plan = impl_->exec->findPlanFast(typeOf, names);
  } catch (const Error&) {
    impl_->explainFetch(names);
    throw;
  }
  Executor& exec = *impl_->exec;
  if (exec.device().deviceIO)
    throw Error(ErrorCode::kInvalidArgument, "Session::runValues: not with SessionOptions::deviceIO (use run)");
  ContextLease lease(exec, *plan);
  ExecContext& ctx = *lease.ctx;
  for (size_t k = 0; k < graphInputs.size(); ++k) exec.setInput(*plan, ctx, k, inputs.find(graphInputs[k].name)->second);
  ctx.control = &control;
  exec.execute(*plan, ctx);
  std::vector<Value> out;
  out.reserve(plan->results.size());
  for (size_t j = 0; j < plan->results.size(); ++j) {
    const int id = plan->results[j];
    const auto first = std::find(plan->results.begin(), plan->results.begin() + j, id);
    if (first != plan->results.begin() + j) {
      out.push_back(out[size_t(first - plan->results.begin())]);
      continue;
    }
    Value& v = ctx.values[id];
    if (plan->slots[id].kind == SlotKind::kOwned) {
      out.push_back(std::move(v));
      v = Value();
    } else {
      // Not a per-run buffer (an input, a weight, a view of one): a copy of its own.
      Value copy = v;
      if (copy.isTensor()) copy.tensor = v.tensor.clone();
      for (Tensor& t : copy.sequence) t = t.clone();
      out.push_back(std::move(copy));
    }
  }
  // The inputs are the caller's (possibly views of its memory): not kept past
  // the run, and an output that still points into one (a sequence op passing
  // an input tensor through) gets a copy of its own.
  for (size_t k = 0; k < graphInputs.size(); ++k) ctx.values[plan->inputSlots[k]] = Value();
  std::vector<std::pair<const char*, const char*>> ranges;
  auto addRange = [&](const Tensor& t) {
    if (t.defined() && t.data() && t.nbytes())
      ranges.emplace_back(static_cast<const char*>(t.data()), static_cast<const char*>(t.data()) + t.nbytes());
  };
  for (const auto& [name, v] : inputs) {
    addRange(v.tensor);
    for (const Tensor& t : v.sequence) addRange(t);
  }
  auto own = [&](Tensor& t) {
    if (!t.defined() || !t.data()) return;
    const char* p = static_cast<const char*>(t.data());
    for (const auto& [lo, hi] : ranges)
      if (p >= lo && p < hi) {
        t = t.clone();
        return;
      }
  };
  for (Value& v : out) {
    own(v.tensor);
    for (Tensor& t : v.sequence) own(t);
  }
  return out;
}

void Session::runInto(const TensorMap& inputs, std::vector<Tensor>& outputs, const RunOptions& runOptions) {
  const RunControl control = impl_->controlFor(runOptions);
  impl_->pool->wake();
  impl_->checkInputs(inputs);
  const std::vector<std::string>& names = impl_->outputNames;
  auto plan = impl_->planFor(inputs, names);
  Executor& exec = *impl_->exec;
  ContextLease lease(exec, *plan);
  ExecContext& ctx = *lease.ctx;
  if (outputs.size() != names.size()) outputs.resize(names.size());
  for (size_t k = 0; k < impl_->irGraph->inputs.size(); ++k)
    exec.setInput(*plan, ctx, k, inputs.find(impl_->irGraph->inputs[k].name)->second);
  for (size_t j = 0; j < names.size(); ++j)
    if (outputs[j].defined()) exec.provideOutput(*plan, ctx, j, outputs[j]);
  ctx.control = &control;
  exec.execute(*plan, ctx);
  for (size_t j = 0; j < names.size(); ++j) {
    const int id = plan->results[j];
    Tensor& t = ctx.values[id].tensor;
    if (t.sharesStorageWith(outputs[j]) && t.data() == outputs[j].data()) continue;  // computed in place
    if (plan->slots[id].device == Device::kCUDA) {  // deviceIO: into the caller's device buffer
      if (!outputs[j].defined() || outputs[j].dtype() != t.dtype() || outputs[j].shape() != t.shape())
        outputs[j] = impl_->exec->device().backend->deviceTensor(t.dtype(), t.shape(), impl_->options.deviceIndex);
      impl_->exec->device().backend->copyOut(ctx, t, outputs[j]);
      continue;
    }
    if (outputs[j].defined() && outputs[j].dtype() == t.dtype() && outputs[j].shape() == t.shape() &&
        outputs[j].dtype() != DataType::kString) {
      outputs[j].copyFrom(t);
    } else if (plan->slots[id].kind == SlotKind::kOwned) {
      outputs[j] = std::move(t);
      t = Tensor();
    } else {
      outputs[j] = t.clone();
    }
  }
}

PlanInfo Session::plan(const std::map<std::string, std::vector<int64_t>>& inputShapes) {
  // Reuse the input checks by describing the shapes as (unallocated) tensors.
  TensorMap probe;
  for (const auto& [name, shape] : inputShapes) {
    DataType dt = DataType::kFloat;
    for (const auto& in : impl_->irGraph->inputs)
      if (in.name == name && in.dtype != DataType::kUndefined) dt = in.dtype;
    static char dummy[64];
    probe[name] = Tensor::wrap(dt, shape, dummy);
  }
  impl_->checkInputs(probe);
  auto p = impl_->planFor(probe, impl_->outputNames);
  std::vector<std::string> algorithms(p->steps.size());
  {
    ContextLease ready(*impl_->exec, *p);  // kernels and arena now, not on the first run
    for (size_t si = 0; si < p->steps.size(); ++si)
      if (si < ready.ctx->kernels.size() && ready.ctx->kernels[si]) algorithms[si] = ready.ctx->kernels[si]->algorithm();
  }
  PlanInfo info;
  info.memory = p->stats;
  for (size_t si = 0; si < p->steps.size(); ++si) {
    const Step& s = p->steps[si];
    PlanStep ps;
    ps.algorithm = algorithms[si];
    ps.device = s.device;
    ps.isCopy = s.copy;
    if (s.copy) {
      const bool up = p->slots[s.out[0]].device == Device::kCUDA;
      ps.opType = up ? "CopyToDevice" : "CopyToHost";
      ps.nodeName = p->slots[s.out[0]].name;
    } else {
      ps.nodeName = s.node->name;
      ps.opType = s.node->opType;
    }
    ps.isView = s.view;
    for (int id : s.out) {
      if (id < 0) continue;
      const Slot& slot = p->slots[id];
      ps.outputs.push_back(slot.name);
      ps.outputShapes.push_back(slot.staticShape ? shapeToString(slot.shape) : "dynamic");
      ps.outputLayouts.push_back(slot.blocked ? "NCHW16c" : "");
    }
    info.steps.push_back(std::move(ps));
  }
  return info;
}

MemoryStats Session::memoryStats() const { return impl_->exec->lastStats(); }

std::vector<NodeProfile> Session::profile() const { return impl_->exec->profile(); }

void Session::resetProfile() { impl_->exec->resetProfile(); }

}  // namespace oinfer
