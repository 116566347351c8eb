// Executor: the plan cache, profiling, and the glue; planning is in
// plan_builder.cpp / arena_layout.cpp / blocked_layout.cpp, contexts in
// exec_context.cpp, the loop in run_loop.cpp, subgraphs in subgraph.cpp.
#include "runtime/executor.h"

#include <algorithm>
#include <cstdlib>

#include "ops/evaluate.h"

namespace oinfer::runtime {

Executor::Executor(const Registry& registry, const ir::Graph& graph, ThreadPool* pool, bool profiling,
                   std::vector<std::string> extraInputs, DeviceConfig device)
    : registry_(registry),
      graph_(graph),
      pool_(pool),
      profiling_(profiling),
      device_(device),
      hooks_(makeInferHooks(registry, graph)) {
  // OINFER_PLAN_CACHE_SIZE: the default cache size (the tests run whole
  // suites with 0, every run on a shape-generic plan).
  if (const char* env = std::getenv("OINFER_PLAN_CACHE_SIZE"); env && *env) {
    char* end = nullptr;
    const long n = std::strtol(env, &end, 10);
    if (end && *end == '\0' && n >= 0) planCap_ = size_t(n);
  }
  for (const auto& in : graph_.inputs) inputNames_.push_back(in.name);
  for (auto& e : extraInputs) inputNames_.push_back(std::move(e));
  prof_.resize(graph_.nodes.size());
  for (size_t i = 0; i < graph_.nodes.size(); ++i) {
    prof_[i].opType = graph_.nodes[i].opType;
    prof_[i].nodeName = graph_.nodes[i].name;
  }
}

Executor::~Executor() = default;

void Executor::setPlanCacheSize(size_t n) {
  std::lock_guard<std::mutex> lock(planMu_);
  planCap_ = n;
}

namespace {

uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h;
}

uint64_t signatureHash(const std::vector<Executor::InputType>& types, const std::vector<std::string>& fetch) {
  uint64_t h = types.size();
  for (const auto& t : types) {
    h = mix(h, uint64_t(t.kind) * 131 + uint64_t(t.dtype));
    if (t.shape) {
      h = mix(h, t.shape->size());
      for (int64_t d : *t.shape) h = mix(h, uint64_t(d));
    }
  }
  for (const auto& f : fetch) h = mix(h, std::hash<std::string>{}(f));
  return h;
}

}  // namespace

void Executor::agePlanCounts() {
  // Every 16 misses per cached plan: old popularity fades, so a workload that
  // moves to new shapes gets them specialized.
  if (++missesSinceAging_ < 16 * std::max<size_t>(planCap_, 1)) return;
  missesSinceAging_ = 0;
  for (auto& p : plans_) p->uses /= 2;
  for (auto it = missCounts_.begin(); it != missCounts_.end();) {
    it->second /= 2;
    it = it->second == 0 ? missCounts_.erase(it) : std::next(it);
  }
}

std::shared_ptr<Plan> Executor::genericPlan(const std::vector<InputType>& types, const std::vector<std::string>& fetch) {
  for (const auto& t : types)
    if (t.kind != ValueKind::kTensor) return nullptr;
  for (auto& p : generic_) {
    if (p->fetch != fetch) continue;
    bool same = true;
    for (size_t k = 0; k < types.size() && same; ++k) same = p->keyTypes[k] == types[k].dtype;
    if (same) return p;
  }
  auto plan = makePlan(types, fetch, /*generic=*/true);
  if (generic_.size() >= 4) generic_.erase(generic_.begin());
  generic_.push_back(plan);
  return plan;
}

std::shared_ptr<Plan> Executor::findPlan(const std::function<InputType(size_t)>& typeOf,
                                         const std::vector<std::string>& fetch) {
  std::lock_guard<std::mutex> lock(planMu_);
  for (auto& p : plans_)
    if (matches(*p, typeOf, fetch)) {
      ++p->uses;
      return p;
    }
  std::vector<InputType> types(inputNames_.size());
  for (size_t k = 0; k < types.size(); ++k) types[k] = typeOf(k);
  if (plans_.size() < planCap_) {
    auto plan = makePlan(types, fetch);
    plan->uses = 1;
    lastStats_ = plan->stats;
    plans_.push_back(plan);
    return plan;
  }
  // Full: admit this signature only if it is asked for more than the least
  // used plan (so a cycle through more shapes than the cache holds does not
  // evict a plan per run); else its generic plan.
  const uint64_t key = signatureHash(types, fetch);
  const uint32_t count = ++missCounts_[key];
  agePlanCounts();
  auto victim = std::min_element(plans_.begin(), plans_.end(),
                                 [](const auto& a, const auto& b) { return a->uses < b->uses; });
  const bool admit = victim != plans_.end() && count > (*victim)->uses;
  if (!admit) {
    if (auto g = genericPlan(types, fetch)) {
      ++g->uses;
      return g;
    }
    if (victim == plans_.end()) return makePlan(types, fetch);  // no cache, no generic form: plan for this run
  }
  auto plan = makePlan(types, fetch);
  plan->uses = count;
  missCounts_.erase(key);
  lastStats_ = plan->stats;
  *victim = plan;
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
