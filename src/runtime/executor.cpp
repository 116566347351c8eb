// Executor: the plan cache, profiling, and the glue; planning is in
// plan_builder.cpp / arena_layout.cpp / blocked_layout.cpp, contexts in
// exec_context.cpp, the loop in run_loop.cpp, subgraphs in subgraph.cpp.
#include "runtime/executor.h"

#include <algorithm>

#include "ops/evaluate.h"

namespace oinfer::runtime {

namespace {

constexpr size_t kMaxCachedPlans = 16;

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

}  // namespace oinfer::runtime
