// Executor: runs one sorted Graph: the model's main graph (for a Session) or a
// subgraph (a branch of If, the body of Loop / Scan), with the same planner
// and interpreter loop.
//
// Inputs are the graph's inputs in order, then `extraInputs` (a subgraph's
// outer-scope values). A run is:
//   plan = findPlan(...)             cached per input kinds / dtypes / shapes and fetch list
//   ctx  = acquire(plan)             an execution context (arena + kernels + values)
//   setInput(...) for every input;   optionally provideOutput(...) for results
//   execute(plan, ctx)
//   read ctx.values[plan.results[j]]; release(plan, ctx)
// With a static-shape plan, a run that reuses its context and is given its
// output buffers performs no heap allocation (kernels keep their scratch in
// their own state).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "graph/ir.h"
#include "oinfer/session.h"
#include "oinfer/value.h"
#include "ops/registry.h"
#include "runtime/device_backend.h"
#include "runtime/plan.h"
#include "shape/infer.h"

namespace oinfer::runtime {

// Where a Session's plans run (subgraph executors stay on the host).
struct DeviceConfig {
  Device device = Device::kCPU;
  int index = 0;
  bool cudaGraphs = true;
  bool deviceIO = false;  // graph inputs and results are caller device buffers
  // Host plans: intermediate tensors in the blocked layout where their
  // producer and readers take it (assignBlockedLayouts; optimizationLevel 2).
  bool blockedLayout = false;
  // Device copies of weights the runtime uploads (those no kernel owns), shared
  // by every plan of the session, so each is uploaded once (makeUploadCache).
  std::shared_ptr<void> uploads;
  // The device's backend (device != kCPU); null for host plans.
  DeviceBackend* backend = nullptr;
};

// Lays out the arenas of a placed plan: each device's kArena slots through
// planMemory (one host arena, one device arena); fills plan.stats.
void planArenas(Plan& plan, size_t weightBytes);

// Marks Slot::blocked on the arena tensors of a host plan that can live in
// the blocked layout NCHW16c (ops/kernel.h): float32, 4-d, static, channels a
// multiple of 16, not a result, not viewed; produced by a step whose op can
// write it there (OpDef::blocked) and read only by steps that can read it.
// Values an op ties together (a fused residual and its conv's output, a
// MaxPool's input and output, a Concat planned in place and its pieces) are
// blocked together or not at all. Run after planArenas (Concat pieces).
void assignBlockedLayouts(Plan& plan);

class Executor {
 public:
  Executor(const Registry& registry, const ir::Graph& graph, ThreadPool* pool, bool profiling,
           std::vector<std::string> extraInputs = {}, DeviceConfig device = {});
  ~Executor();

  const ir::Graph& graph() const { return graph_; }
  // Lets the executor free weights whose every reader keeps only a packed
  // form (KernelInit::packedWeight): once a context's kernels are made, their
  // data is dropped from `g` (the graph this executor runs, owned by the
  // caller) and from the plans, leaving name, dtype and shape. A Session calls
  // this; subgraph executors never do.
  void allowWeightRelease(ir::Graph* g);
  size_t numInputs() const { return inputNames_.size(); }
  const std::string& inputName(size_t i) const { return inputNames_[i]; }

  // How many shape-specialized plans the cache keeps (see findPlan); 0: every
  // run uses a shape-generic plan. Set before the first run.
  void setPlanCacheSize(size_t n);
  // The inputs' declared static dims hold for every run (a Session checks
  // them): a shape-generic plan may use them. Subgraph executors never set it.
  void trustDeclaredShapes() { trustDeclared_ = true; }

  // Describes input k for plan lookup: its kind, element dtype and (tensors) shape.
  struct InputType {
    ValueKind kind = ValueKind::kTensor;
    DataType dtype = DataType::kUndefined;
    const std::vector<int64_t>* shape = nullptr;  // tensors only
  };
  // The plan for these input types and fetched names (cached; thread-safe).
  // `typeOf(k)` describes input k. Allocates only when a new plan is made.
  // The cache keeps up to setPlanCacheSize plans specialized to their input
  // shapes. With the cache full, a new signature is admitted (replacing the
  // least used plan) only when it has been asked for more often than that
  // plan; otherwise it runs on the shape-generic plan of its input kinds,
  // dtypes and fetch list (made once), so cycling through more shapes than
  // the cache holds costs dynamic-shape runs, not a new plan per run.
  std::shared_ptr<Plan> findPlan(const std::function<InputType(size_t)>& typeOf,
                                 const std::vector<std::string>& fetch);
  // Same, without std::function (no allocation on a cache hit).
  template <class F>
  std::shared_ptr<Plan> findPlanFast(F&& typeOf, const std::vector<std::string>& fetch) {
    {
      std::lock_guard<std::mutex> lock(planMu_);
      for (auto& p : plans_)
        if (matches(*p, typeOf, fetch)) {
          ++p->uses;
          return p;
        }
    }
    return findPlan(std::function<InputType(size_t)>(typeOf), fetch);
  }

  ExecContext* acquire(Plan& plan);
  void release(Plan& plan, ExecContext* ctx);
  void setInput(const Plan& plan, ExecContext& ctx, size_t k, const Tensor& t) const;
  void setInput(const Plan& plan, ExecContext& ctx, size_t k, const Value& v) const;
  // Lets result j be computed straight into `t` (same dtype and shape as planned)
  // when the result is a per-run buffer; returns false when it is not.
  bool provideOutput(const Plan& plan, ExecContext& ctx, size_t j, const Tensor& t) const;
  void execute(Plan& plan, ExecContext& ctx);

  const DeviceConfig& device() const { return device_; }
  // SessionOptions::memoryLimitBytes, resolved (memory_limit.h); SIZE_MAX: none.
  // Subgraph executors made by this one's kernels inherit it.
  void setMemoryLimit(size_t bytes) { memoryLimit_ = bytes; }
  size_t memoryLimit() const { return memoryLimit_; }
  MemoryStats lastStats() const;
  std::vector<NodeProfile> profile() const;
  void resetProfile();

 private:
  template <class F>
  static bool matches(const Plan& p, F& typeOf, const std::vector<std::string>& fetch) {
    if (p.fetch != fetch) return false;
    for (size_t k = 0; k < p.keyKinds.size(); ++k) {
      InputType t = typeOf(k);
      if (t.kind != p.keyKinds[k] || t.dtype != p.keyTypes[k]) return false;
      if (t.kind == ValueKind::kTensor && (!t.shape || *t.shape != p.keyShapes[k])) return false;
    }
    return true;
  }
  // generic: a shape-generic plan (Plan::generic) for these kinds and dtypes.
  std::shared_ptr<Plan> makePlan(const std::vector<InputType>& types, const std::vector<std::string>& fetch,
                                 bool generic = false);
  // Under planMu_: the generic plan for `types` and `fetch` (made on first
  // use), or null when an input is not a tensor.
  std::shared_ptr<Plan> genericPlan(const std::vector<InputType>& types, const std::vector<std::string>& fetch);
  // Under planMu_: halves every use count when enough misses have passed.
  void agePlanCounts();
  std::unique_ptr<ExecContext> makeContext(Plan& plan);
  // Under planMu_: drops the data of weight slot `id`, every reader of which
  // keeps only a packed copy (see allowWeightRelease).
  void releaseWeight(Plan& plan, ExecContext& ctx, int id);
  void runDynamicStep(const Plan& plan, ExecContext& ctx, const Step& step);
  void countStrings(const Plan& plan, ExecContext& ctx, const Step& step);

  const Registry& registry_;
  const ir::Graph& graph_;
  ThreadPool* pool_;
  bool profiling_;
  DeviceConfig device_;
  size_t memoryLimit_ = static_cast<size_t>(-1);
  std::vector<std::string> inputNames_;
  shape::InferHooks hooks_;  // made once: plan making and every dynamic step use them

  mutable std::mutex planMu_;  // also held while a context's kernels are made (they read weight slots)
  std::vector<std::shared_ptr<Plan>> plans_;  // shape-specialized; at most planCap_
  size_t planCap_ = 16;
  bool trustDeclared_ = false;
  std::vector<std::shared_ptr<Plan>> generic_;  // shape-generic plans, per kinds / dtypes / fetch (few)
  // Misses per signature not in the cache (a hash of kinds, dtypes, shapes,
  // fetch): the admission count compared with the least used plan's.
  std::unordered_map<uint64_t, uint32_t> missCounts_;
  uint64_t missesSinceAging_ = 0;
  WeightCache weights_;                       // packed weights, shared by every plan and context
  ir::Graph* releasable_ = nullptr;               // allowWeightRelease
  std::map<std::string, int> weightReaders_;  // initializer -> node input slots reading it (-1: never release)
  MemoryStats lastStats_;

  mutable std::mutex profMu_;
  std::vector<NodeProfile> prof_;  // by node index
};

// Makes runners for the subgraphs of `owner` (a node of a graph whose opsets
// `parent` gives), sharing `pool`.
// `memoryLimit`: the subgraph executors' (Executor::setMemoryLimit).
SubgraphFactory makeSubgraphFactory(const Registry& registry, const ir::Graph& parent, const Node& owner,
                                    ThreadPool* pool, size_t memoryLimit);

}  // namespace oinfer::runtime
