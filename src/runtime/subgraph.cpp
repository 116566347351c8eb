// Subgraph runners: an If branch or a Loop / Scan / SequenceMap body runs in
// an executor of its own, made through KernelInit::subgraphs.
#include <algorithm>

#include "runtime/executor.h"

namespace oinfer::runtime {

namespace {

class SubgraphExecutor final : public SubgraphRunner {
 public:
  SubgraphExecutor(const Registry& registry, const ir::Graph& parent, const Node& owner, const ir::Graph& body,
                   ThreadPool* pool, size_t memoryLimit)
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
    exec_->setMemoryLimit(memoryLimit);
    for (const auto& o : body_->outputs) fetch_.push_back(o.name);
    owner_ = owner.describe();
  }

  std::vector<Value> run(const std::vector<const Value*>& formal, const std::vector<const Value*>& implicit,
                         const RunControl* control) override {
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
      ctx->control = control;
      exec_->execute(*plan, *ctx);
      ctx->control = nullptr;
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
      ctx->control = nullptr;
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
                                    ThreadPool* pool, size_t memoryLimit) {
  return [&registry, &parent, &owner, pool, memoryLimit](const ir::Graph& body) -> std::unique_ptr<SubgraphRunner> {
    return std::make_unique<SubgraphExecutor>(registry, parent, owner, body, pool, memoryLimit);
  };
}

}  // namespace oinfer::runtime
