#include "runtime/kernel_init.h"

namespace oinfer::runtime {

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

}  // namespace oinfer::runtime
