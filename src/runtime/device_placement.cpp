#include "runtime/device_placement.h"

#include "runtime/plan.h"

#include <map>
#include <utility>

namespace oinfer::runtime {

namespace {

bool isSmallInt(const PlacementSlot& s) {
  return (s.dtype == DataType::kInt64 || s.dtype == DataType::kInt32) && s.numel >= 0 && s.numel <= kSmallInts;
}

}  // namespace

Placement placeDevices(const std::vector<PlacementSlot>& slots, const std::vector<PlacementStep>& steps,
                       const std::vector<int>& results, const DeviceKernelQuery& deviceKernel, bool inputsOnDevice,
                       bool resultsOnDevice) {
  Placement p;
  p.stepDevice.assign(steps.size(), Device::kCPU);
  p.slotHome.assign(slots.size(), Device::kCPU);
  p.inputCopy.resize(steps.size());
  for (size_t id = 0; id < slots.size(); ++id)
    if (slots[id].kind == PlacementSlot::kInput && inputsOnDevice) p.slotHome[id] = Device::kCUDA;

  std::map<std::pair<int, Device>, int> made;  // (slot, to) -> copy index
  auto need = [&](int id, Device to, int before) -> int {
    if (id < 0 || p.slotHome[id] == to) return -1;
    auto key = std::make_pair(id, to);
    auto it = made.find(key);
    if (it != made.end()) return it->second;
    PlacementCopy c;
    c.src = id;
    c.to = to;
    c.beforeStep = before;
    c.constant = slots[id].kind == PlacementSlot::kConstant && to == Device::kCUDA;
    p.copies.push_back(c);
    made.emplace(key, static_cast<int>(p.copies.size() - 1));
    return static_cast<int>(p.copies.size() - 1);
  };

  for (size_t si = 0; si < steps.size(); ++si) {
    const PlacementStep& st = steps[si];
    const int before = static_cast<int>(si);
    std::vector<int>& ic = p.inputCopy[si];
    ic.assign(st.in.size(), -1);
    Device dev = Device::kCPU;
    std::optional<std::vector<Place>> places;
    bool metadataOnly = false;

    if (st.dynamic) {
      // Shapes are re-inferred on the host from input values: everything on the host.
      for (size_t i = 0; i < st.in.size(); ++i) ic[i] = need(st.in[i], Device::kCPU, before);
    } else if (st.view) {
      const int base = st.in[st.viewOfInput];
      dev = base >= 0 ? p.slotHome[base] : Device::kCPU;
    } else if (st.readsShapeOnly) {
      metadataOnly = true;
    } else {
      bool shapeMath = !st.out.empty();
      for (int o : st.out)
        if (o >= 0 && !isSmallInt(slots[o])) shapeMath = false;
      for (int i : st.in)
        if (i >= 0 && slots[i].kind != PlacementSlot::kConstant && p.slotHome[i] != Device::kCPU) shapeMath = false;
      // Device buffers are planned: values of run-time-only size stay on the host.
      bool sized = true;
      for (int o : st.out)
        if (o >= 0 && slots[o].numel < 0) sized = false;
      for (int i : st.in)
        if (i >= 0 && slots[i].numel < 0) sized = false;
      if (!shapeMath && sized) places = deviceKernel(si);
      if (places) dev = Device::kCUDA;
    }

    if (!st.dynamic && !st.view) {
      for (size_t i = 0; i < st.in.size(); ++i) {
        const int id = st.in[i];
        if (id < 0) continue;
        if (dev == Device::kCUDA) {
          Place pl = i < places->size() ? (*places)[i] : Place::kDevice;
          if (pl == Place::kOwned && slots[id].kind != PlacementSlot::kConstant) pl = Place::kDevice;
          if (pl == Place::kOwned) continue;
          ic[i] = need(id, pl == Place::kDevice ? Device::kCUDA : Device::kCPU, before);
        } else if (!(metadataOnly && i == 0)) {
          ic[i] = need(id, Device::kCPU, before);
        }
      }
    }
    p.stepDevice[si] = dev;
    if (dev == Device::kCUDA && !st.view) ++p.numDeviceSteps;
    for (int o : st.out)
      if (o >= 0) p.slotHome[o] = dev;
  }

  const Device want = resultsOnDevice ? Device::kCUDA : Device::kCPU;
  for (int r : results) p.resultCopy.push_back(need(r, want, static_cast<int>(steps.size())));
  // A result copy of a constant is a per-run copy (the caller may write to it).
  for (int c : p.resultCopy)
    if (c >= 0) p.copies[c].constant = false;
  return p;
}

// ---- applying a placement to a Plan --------------------------------------------

Placement placePlan(Plan& plan, const DeviceKernelQuery& deviceKernel, bool inputsOnDevice, bool resultsOnDevice) {
  std::vector<PlacementSlot> ps(plan.slots.size());
  for (size_t id = 0; id < plan.slots.size(); ++id) {
    const Slot& s = plan.slots[id];
    PlacementSlot& p = ps[id];
    p.kind = s.kind == SlotKind::kInput                                ? PlacementSlot::kInput
             : s.kind == SlotKind::kWeight || s.kind == SlotKind::kConstant ? PlacementSlot::kConstant
                                                                         : PlacementSlot::kValue;
    p.dtype = s.type.dtype;
    p.numel = s.type.kind == ValueKind::kTensor && s.staticShape ? numElements(s.shape) : -1;
    if (s.kind == SlotKind::kWeight || s.kind == SlotKind::kConstant) p.numel = s.value.numel();
    p.viewBase = s.kind == SlotKind::kView ? s.viewBase : -1;
  }
  std::vector<PlacementStep> pst(plan.steps.size());
  for (size_t si = 0; si < plan.steps.size(); ++si) {
    const Step& st = plan.steps[si];
    PlacementStep& p = pst[si];
    p.opType = st.node ? st.node->opType : std::string();
    p.readsShapeOnly = st.def && st.def->readsShapeOnly;
    p.in = st.in;
    p.out = st.out;
    p.view = st.view;
    p.viewOfInput = st.view ? st.def->viewOfInput : -1;
    // Subgraph owners (If, Loop, Scan) and non-tensor values run on the host.
    p.dynamic = st.dynamic;
  }
  Placement pl = placeDevices(ps, pst, plan.results, deviceKernel, inputsOnDevice, resultsOnDevice);

  for (size_t id = 0; id < plan.slots.size(); ++id) {
    Slot& s = plan.slots[id];
    s.device = pl.slotHome[id];
    if (s.device == Device::kCUDA && s.kind == SlotKind::kOwned) s.kind = SlotKind::kArena;
  }
  // One slot per copy.
  std::vector<int> dst(pl.copies.size());
  for (size_t c = 0; c < pl.copies.size(); ++c) {
    const PlacementCopy& cp = pl.copies[c];
    Slot s = plan.slots[cp.src];
    s.name += cp.to == Device::kCUDA ? "@cuda" : "@host";
    s.device = cp.to;
    s.viewBase = -1;
    s.offset = 0;
    if (cp.constant) {
      s.kind = SlotKind::kConstant;
      if (!s.value.defined()) s.value = plan.slots[cp.src].value;
    } else {
      s.kind = cp.to == Device::kCPU && cp.beforeStep == static_cast<int>(plan.steps.size()) ? SlotKind::kOwned
                                                                                             : SlotKind::kArena;
      s.value = Tensor();
    }
    plan.slots.push_back(std::move(s));
    dst[c] = static_cast<int>(plan.slots.size() - 1);
    plan.slotOf[plan.slots.back().name] = dst[c];
  }
  // A host copy of a result read earlier by a host step is also the result: a per-run buffer.
  for (size_t j = 0; j < pl.resultCopy.size(); ++j)
    if (pl.resultCopy[j] >= 0 && pl.copies[pl.resultCopy[j]].to == Device::kCPU)
      plan.slots[dst[pl.resultCopy[j]]].kind = SlotKind::kOwned;

  const int numSteps = static_cast<int>(plan.steps.size());
  std::vector<Step> steps;
  steps.reserve(plan.steps.size() + pl.copies.size());
  size_t next = 0;
  auto emitCopies = [&](int before) {
    for (; next < pl.copies.size() && pl.copies[next].beforeStep <= before; ++next) {
      if (pl.copies[next].constant) continue;
      Step c;
      c.copy = true;
      c.device = Device::kCUDA;
      c.in = {pl.copies[next].src};
      c.out = {dst[next]};
      steps.push_back(std::move(c));
    }
  };
  for (int si = 0; si < numSteps; ++si) {
    emitCopies(si);
    Step st = std::move(plan.steps[si]);
    st.device = pl.stepDevice[si];
    for (size_t i = 0; i < st.in.size(); ++i)
      if (pl.inputCopy[si][i] >= 0) st.in[i] = dst[pl.inputCopy[si][i]];
    steps.push_back(std::move(st));
  }
  emitCopies(numSteps);
  plan.steps = std::move(steps);
  for (size_t j = 0; j < plan.results.size(); ++j)
    if (pl.resultCopy[j] >= 0) plan.results[j] = dst[pl.resultCopy[j]];
  plan.onDevice = true;
  return pl;
}

}  // namespace oinfer::runtime
