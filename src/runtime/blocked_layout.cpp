// assignBlockedLayouts (executor.h): which arena tensors of a host plan live
// in NCHW16c.
#include <spdlog/spdlog.h>

#include <algorithm>

#include "runtime/executor.h"
#include "runtime/kernel_init.h"

namespace oinfer::runtime {

namespace {

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
    // 14-pixel run of each channel uses parts of two). Aligned planes are
    // blocked too (tools/bench/TUNING.md, Runtime): that needs the stages'
    // outputs blocked, so the stride-2 downsamples and the final pool read
    // the layout.
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
      const bool inPlaceConcat =
          step.def && step.def->concatInPlace && step.out.size() == 1 && step.out[0] >= 0 && !step.in.empty() &&
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


}  // namespace oinfer::runtime
