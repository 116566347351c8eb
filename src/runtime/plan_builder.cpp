// Executor::makePlan: types for one set of concrete input types, one step
// per node that is not folded away, each value's storage kind, and the
// requested results; then the device placement and the arena layout.
#include <spdlog/spdlog.h>

#include <algorithm>

#include "ops/evaluate.h"
#include "runtime/executor.h"
#include "runtime/memory_limit.h"
#include "shape/infer.h"

namespace oinfer::runtime {

namespace {

// The registry's type list is the kernel's contract: a node whose typed
// input (OpDef::typedInput) has a dtype the CPU kernel does not take is
// refused here, before a kernel could read its memory as another type.
void checkInputType(const OpDef& def, const Node& node, const Plan& plan, const std::vector<int>& in) {
  if (def.types.empty() || def.typedInput < 0 || def.typedInput >= static_cast<int>(in.size())) return;
  const int id = in[def.typedInput];
  if (id < 0) return;
  const Slot& s = plan.slots[id];
  if (s.type.kind != ValueKind::kTensor || s.type.dtype == DataType::kUndefined) return;
  if (std::find(def.types.begin(), def.types.end(), s.type.dtype) != def.types.end()) return;
  std::string list;
  for (DataType t : def.types) list += (list.empty() ? "" : ", ") + std::string(dataTypeName(t));
  throw Error(ErrorCode::kTypeMismatch, node.describe() + ": input " + std::to_string(def.typedInput) + " '" +
                                            node.inputs[def.typedInput] + "' is " + dataTypeName(s.type.dtype) +
                                            "; the kernel takes " + list);
}

// Inputs the op's schema binds to one type parameter (Node::inputTypeGroups:
// Gemm's A, B and C; Concat's inputs) must share one dtype: a kernel reads
// them all as the first one's type.
void checkTypeGroups(const Node& node, const Plan& plan, const std::vector<int>& in) {
  const std::vector<int8_t>& groups = node.inputTypeGroups;
  if (groups.empty()) return;
  std::vector<int> first;  // group -> the first input seen in it
  const size_t n = std::min({groups.size(), node.inputs.size(), in.size()});
  for (size_t i = 0; i < n; ++i) {
    const int g = groups[i];
    if (g < 0 || in[i] < 0) continue;
    const ValueInfo& t = plan.slots[in[i]].type;
    if (t.kind != ValueKind::kTensor || t.dtype == DataType::kUndefined) continue;
    if (first.size() <= static_cast<size_t>(g)) first.resize(static_cast<size_t>(g) + 1, -1);
    int& f = first[static_cast<size_t>(g)];
    if (f < 0) {
      f = static_cast<int>(i);
      continue;
    }
    const DataType want = plan.slots[in[static_cast<size_t>(f)]].type.dtype;
    if (t.dtype != want)
      throw Error(ErrorCode::kTypeMismatch,
                  node.describe() + ": input " + std::to_string(i) + " '" + node.inputs[i] + "' is " +
                      dataTypeName(t.dtype) + " but input " + std::to_string(f) + " '" +
                      node.inputs[static_cast<size_t>(f)] + "' is " + dataTypeName(want) +
                      "; the op's schema gives them one type");
  }
}

}  // namespace

std::shared_ptr<Plan> Executor::makePlan(const std::vector<InputType>& types, const std::vector<std::string>& fetch,
                                         bool generic) {
  auto plan = std::make_shared<Plan>();
  plan->fetch = fetch;
  plan->generic = generic;
  {
    size_t values = inputNames_.size() + graph_.initializers.size();
    for (const Node& n : graph_.nodes) values += n.outputs.size();
    plan->slotOf.reserve(values);
    plan->slots.reserve(values);
  }
  for (const auto& t : types) {
    plan->keyKinds.push_back(t.kind);
    plan->keyTypes.push_back(t.dtype);
    plan->keyShapes.push_back(t.kind == ValueKind::kTensor && t.shape && !generic ? *t.shape
                                                                                   : std::vector<int64_t>{});
  }

  // 1. Types and values for these concrete inputs.
  shape::InferState st;
  shape::seedState(graph_, st);
  for (size_t k = 0; k < inputNames_.size(); ++k) {
    const std::string& name = inputNames_[k];
    // The graph inputs come first in inputNames_, in order: looked up by
    // position, not by findValue's scan of the inputs (quadratic on a model
    // of 100k inputs).
    const ValueInfo* declared = nullptr;
    if (auto vi = graph_.valueInfo.find(name); vi != graph_.valueInfo.end())
      declared = &vi->second;
    else if (k < graph_.inputs.size() && graph_.inputs[k].name == name)
      declared = &graph_.inputs[k];
    else
      declared = graph_.findValue(name);
    ValueInfo v;
    v.name = name;
    v.kind = types[k].kind;
    v.dtype = types[k].dtype;
    if (declared && declared->kind == ValueKind::kOptional && v.kind != ValueKind::kSequence)
      v.kind = ValueKind::kOptional;
    if (generic) {
      // Any shape the input may take: its declared one (symbolic dims stay
      // symbolic) where the caller checks inputs against it, else none.
      if (trustDeclared_ && declared && declared->hasShape) {
        v.hasShape = true;
        v.shape = declared->shape;
        // An unnamed dim is its own unknown, equal to no other.
        for (size_t d = 0; d < v.shape.size(); ++d)
          if (!v.shape[d].isStatic() && v.shape[d].symbol.empty())
            v.shape[d].symbol = "generic_in" + std::to_string(k) + "_d" + std::to_string(d);
      }
    } else if (types[k].kind == ValueKind::kTensor && types[k].shape) {
      v.hasShape = true;
      v.shape = toShape(*types[k].shape);
    }
    st.types[name] = v;
  }
  shape::SymbolGenerator symbols;
  shape::inferNodes(graph_, st, hooks_, symbols, /*fold=*/true);

  auto addSlot = [&](const std::string& name) -> int {
    auto it = plan->slotOf.find(name);
    if (it != plan->slotOf.end()) return it->second;
    Slot s;
    s.name = name;
    auto t = st.types.find(name);
    if (t != st.types.end()) s.type = t->second;
    s.staticShape = s.type.kind == ValueKind::kTensor && s.type.hasShape && isStatic(s.type.shape);
    if (s.staticShape) s.shape = toStatic(s.type.shape);
    plan->slots.push_back(std::move(s));
    plan->slotOf[name] = static_cast<int>(plan->slots.size() - 1);
    return static_cast<int>(plan->slots.size() - 1);
  };

  for (size_t k = 0; k < inputNames_.size(); ++k) {
    int id = addSlot(inputNames_[k]);
    plan->slots[id].kind = SlotKind::kInput;
    plan->inputSlots.push_back(id);
  }
  for (const auto& [name, t] : graph_.initializers) {
    if (plan->slotOf.count(name)) continue;  // an input with a default: the input wins
    Slot& s = plan->slots[addSlot(name)];
    s.kind = SlotKind::kWeight;
    s.value = t;
  }

  // 2. Steps: every node not folded away.
  for (size_t ni = 0; ni < graph_.nodes.size(); ++ni) {
    const Node& node = graph_.nodes[ni];
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
    step.def = findOpDef(registry_, graph_, node);
    step.opset = graph_.opset(node.domain);
    if (!step.def) throw Error(ErrorCode::kUnsupportedOp, node.describe() + ": op is not supported");
    auto bindInput = [&](const std::string& i) {
      if (i.empty()) {
        step.in.push_back(-1);
        return;
      }
      auto it = plan->slotOf.find(i);
      if (it == plan->slotOf.end())
        throw Error(ErrorCode::kInvalidModel, node.describe() + ": input '" + i + "' is not produced by any node");
      step.in.push_back(it->second);
    };
    for (const auto& i : node.inputs) bindInput(i);
    for (const auto& i : implicitInputs(node)) bindInput(i);
    checkInputType(*step.def, node, *plan, step.in);
    checkTypeGroups(node, *plan, step.in);
    // A view only of a tensor: a sequence or an optional (Identity's) is a
    // value, which the kernel copies.
    step.view = step.def->viewOfInput >= 0 && step.def->viewOfInput < int(step.in.size()) &&
                step.in[step.def->viewOfInput] >= 0 &&
                plan->slots[step.in[step.def->viewOfInput]].type.kind == ValueKind::kTensor;
    for (const auto& o : node.outputs) {
      if (step.view && !o.empty()) {
        auto t = st.types.find(o);
        if (t != st.types.end() && t->second.kind != ValueKind::kTensor) step.view = false;
      }
    }
    // A tensor input whose shape is known only at run time makes the step
    // dynamic even when its outputs have static shapes: those can come from
    // the file's declarations (value_info, graph outputs), which the data may
    // contradict, and the kernel would read its input at the planned shape.
    for (int id : step.in)
      if (id >= 0 && plan->slots[id].type.kind == ValueKind::kTensor && !plan->slots[id].staticShape &&
          plan->slots[id].kind != SlotKind::kWeight && plan->slots[id].kind != SlotKind::kConstant)
        step.dynamic = true;
    for (const auto& o : node.outputs) {
      if (o.empty()) {
        step.out.push_back(-1);
        continue;
      }
      int id = addSlot(o);
      Slot& s = plan->slots[id];
      if (!s.staticShape) step.dynamic = true;
      if (s.type.dtype == DataType::kString) step.stringOut = true;
      step.out.push_back(id);
    }
    for (int id : step.out) {
      if (id < 0) continue;
      Slot& s = plan->slots[id];
      if (step.view) {
        s.kind = SlotKind::kView;
        s.viewBase = step.in[step.def->viewOfInput];
      } else {
        // String elements are std::string objects: they need constructing and
        // destroying, so they never live in the raw (malloc'd, reused) arena.
        s.kind = step.dynamic || !s.staticShape || s.type.dtype == DataType::kString ? SlotKind::kOwned
                                                                                      : SlotKind::kArena;
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

  // Device placement: steps, copies, and the device kernels (made once per plan).
  if (device_.device == Device::kCUDA) device_.backend->preparePlan(*plan, graph_, device_);

  checkPlanTensors(*plan, memoryLimit_);  // before the layout sums their sizes
  planArenas(*plan, graph_.weightBytes());
  checkPlanTotal(*plan, memoryLimit_);
  if (device_.blockedLayout && !plan->onDevice) assignBlockedLayouts(*plan);
  spdlog::debug("plan: {} steps, arena {} bytes (lower bound {}), device arena {} bytes", plan->steps.size(),
                plan->stats.arenaBytes, plan->stats.lowerBoundBytes, plan->stats.deviceArenaBytes);
  return plan;
}


}  // namespace oinfer::runtime
