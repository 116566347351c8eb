// The execution plan: for one set of concrete input shapes (and one set of
// fetched names), every value's storage and every step's kernel binding.
//
// Storage kinds:
//   kInput     a caller tensor, used in place (never copied)
//   kWeight    an initializer, shared with the Graph
//   kConstant  a value folded at plan time (Constant, Shape chains ...)
//   kArena     an activation at a planned offset in the run's arena
//   kOwned     allocated per run (or given by the caller): values handed back
//              to the caller (graph outputs, fetched intermediates, which are
//              therefore never overwritten), outputs of steps whose shapes are
//              only known at run time (data-dependent), and non-tensor values
//              (sequences, optionals)
//   kView      a reinterpretation of another slot's buffer (Reshape-likes)
//
// An arena slot may also live inside another one (aliasOf): each input of a
// Concat whose pieces are contiguous in its output is produced straight into
// its place there, and the Concat finds nothing left to copy.
//
// Kernels are made per ExecContext (arena + kernels), and a Session keeps a
// pool of contexts per plan: concurrent runs each take their own, so kernels
// may keep scratch state without locking.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "oinfer/session.h"
#include "ops/registry.h"

namespace oinfer::runtime {

enum class SlotKind { kInput, kWeight, kConstant, kArena, kOwned, kView };

struct Slot {
  std::string name;
  SlotKind kind = SlotKind::kArena;
  ValueInfo type;
  bool staticShape = false;
  std::vector<int64_t> shape;  // when staticShape
  Tensor value;                // kWeight / kConstant
  int viewBase = -1;           // kView: the slot whose buffer it reinterprets
  size_t offset = 0;           // kArena
  int aliasOf = -1;            // kArena: the slot whose buffer holds this one, at aliasOffset bytes
  size_t aliasOffset = 0;
  bool aliasParent = false;    // kArena: some slot lives inside this one
  size_t bytes = 0;
  Device device = Device::kCPU;  // where the buffer lives (kArena: which arena)
  bool blocked = false;          // kArena: in the blocked layout NCHW16c (ops/kernel.h, BlockedSupport)
};

struct Step {
  const Node* node = nullptr;
  size_t nodeIndex = 0;  // position in the sorted graph (profiling key)
  const OpDef* def = nullptr;
  int64_t opset = 0;
  std::vector<int> in, out;  // slot ids, -1 for absent; `in` ends with the node's implicit (outer-scope) inputs
  bool view = false;
  bool dynamic = false;  // output shapes resolved at run time
  bool stringOut = false;  // some output is a string tensor: its characters are counted after the step
  Device device = Device::kCPU;
  // A host<->device copy the device placement inserted (node == nullptr):
  // in[0] copied into out[0] on the device's stream.
  bool copy = false;
};

struct ExecContext {
  std::shared_ptr<void> arena;
  uint8_t* arenaData = nullptr;
  std::vector<std::unique_ptr<Kernel>> kernels;  // per step (null for views)
  std::vector<Value> values;                     // per slot
  std::vector<KernelContext> kctx;               // per step, bound to `values` once
  std::vector<uint8_t> provided;                 // per slot: the caller gave this run's buffer
  std::vector<double> times;                     // per step, when profiling
  std::shared_ptr<void> device;                  // CUDA plans: stream, handles, device arena (the device backend)
  std::shared_ptr<void> scratch;                 // the kernels' scratch (ScratchRequest), shared by the steps
  size_t scratchBytes = 0;
  // Bytes this run allocated for steps whose shapes were known only at run
  // time (runDynamicStep), counted against the memory limit.
  size_t dynamicBytes = 0;
  // This run's cancellation state (set by the caller of execute; may be null).
  const RunControl* control = nullptr;
};

struct Plan {
  std::vector<Slot> slots;
  std::unordered_map<std::string, int> slotOf;
  std::vector<Step> steps;
  std::vector<int> results;  // requested values, in request order
  std::vector<int> inputSlots;  // per executor input
  MemoryStats stats;
  // The activation arena plus the static per-run outputs: what a run holds
  // before scratch and run-time allocations (memory_limit.h).
  size_t fixedBytes = 0;

  // The cache key: input kinds, dtypes, shapes and the fetch list.
  std::vector<ValueKind> keyKinds;
  std::vector<DataType> keyTypes;
  std::vector<std::vector<int64_t>> keyShapes;
  std::vector<std::string> fetch;
  // A shape-generic plan (Executor::findPlan): made from the inputs' declared
  // shapes (symbolic dims, or no shape), it runs any input shapes of its
  // kinds and dtypes; steps whose shapes it cannot know are dynamic.
  bool generic = false;
  // Lookups that found or made this plan, halved now and then (the cache's
  // frequency count; under Executor::planMu_).
  uint32_t uses = 0;

  // CUDA plans: kernels shared by every context (they keep no per-run state,
  // and own the weights they uploaded once), per step, null for host steps;
  // and the plan-wide device state (uploaded constants).
  bool onDevice = false;
  std::vector<std::unique_ptr<Kernel>> deviceKernels;
  std::shared_ptr<void> deviceState;

  std::mutex poolMu;
  std::vector<std::unique_ptr<ExecContext>> freeContexts;
};

}  // namespace oinfer::runtime
