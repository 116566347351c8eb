// The arena layout of a plan: Concat pieces planned in place, lifetimes over
// the step order, and one arena per device placed by the memory planner.
#include <algorithm>

#include "graph/checked_math.h"
#include "runtime/executor.h"
#include "runtime/memory_planner.h"

namespace oinfer::runtime {

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
      // Checked like Tensor's own allocation: a byte count that wrapped
      // would plan a buffer smaller than the tensor its kernel writes.
      int64_t bytes = 0;
      if (!checkedMul(numElements(s.shape), static_cast<int64_t>(dataTypeSize(s.type.dtype)), &bytes) ||
          bytes > (int64_t{1} << 40))
        throw Error(ErrorCode::kInvalidArgument,
                    "value '" + s.name + "' of shape " + shapeToString(s.shape) + " is too large to allocate");
      s.bytes = static_cast<size_t>(bytes);
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



}  // namespace oinfer::runtime
