// The memory limit (SessionOptions::memoryLimitBytes): see memory_limit.h.
#include "runtime/memory_limit.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <limits>

#include "graph/checked_math.h"

namespace oinfer::runtime {

namespace {

constexpr size_t kNoLimit = std::numeric_limits<size_t>::max();

size_t threeQuarters(size_t v) { return v / 4 * 3; }

// The producer of each slot: step index, or -1 (inputs, weights, constants).
std::vector<int> producers(const Plan& plan) {
  std::vector<int> by(plan.slots.size(), -1);
  for (size_t si = 0; si < plan.steps.size(); ++si)
    for (int id : plan.steps[si].out)
      if (id >= 0 && by[id] < 0) by[id] = static_cast<int>(si);
  return by;
}

// A static host tensor the run allocates (arena or per-run buffer).
bool counted(const Slot& s) {
  return (s.kind == SlotKind::kArena || s.kind == SlotKind::kOwned) && s.staticShape && s.device == Device::kCPU &&
         s.type.kind == ValueKind::kTensor && s.type.dtype != DataType::kUndefined;
}

}  // namespace

size_t resolveMemoryLimit(size_t requested) {
  if (requested != 0) return requested;
  size_t limit = kNoLimit;
  const long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && pageSize > 0) {
    uint64_t phys = 0;
    if (!__builtin_mul_overflow(static_cast<uint64_t>(pages), static_cast<uint64_t>(pageSize), &phys))
      limit = threeQuarters(static_cast<size_t>(phys));
  }
  for (int res : {RLIMIT_AS, RLIMIT_DATA}) {
    struct rlimit rl {};
    if (getrlimit(res, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
      limit = std::min(limit, threeQuarters(static_cast<size_t>(rl.rlim_cur)));
  }
  return limit == 0 ? 1 : limit;
}

size_t tensorBytes(DataType dtype, const std::vector<int64_t>& shape) {
  const auto n = checkedProduct(shape);
  int64_t bytes = 0;
  if (!n || !checkedMul(*n, static_cast<int64_t>(dataTypeSize(dtype)), &bytes)) return kNoLimit;
  return static_cast<size_t>(bytes);
}

void throwOverLimit(const Node& node, const std::string& output, DataType dtype, const std::vector<int64_t>& shape,
                    size_t bytes, const std::string& what, size_t limit) {
  const std::string count = bytes == kNoLimit ? "more than 2^63" : std::to_string(bytes);
  throw Error(ErrorCode::kResourceExhausted,
              node.describe() + ": output '" + output + "' (" + dataTypeName(dtype) + " " + shapeToString(shape) +
                  ") needs " + count + " bytes" + what + "; the memory limit is " + std::to_string(limit) +
                  " bytes (SessionOptions::memoryLimitBytes)");
}

void checkPlanTensors(const Plan& plan, size_t limit) {
  if (limit == kNoLimit) return;
  std::vector<int> by;
  for (size_t id = 0; id < plan.slots.size(); ++id) {
    const Slot& s = plan.slots[id];
    if (!counted(s)) continue;
    const size_t bytes = tensorBytes(s.type.dtype, s.shape);
    if (bytes <= limit) continue;
    if (by.empty()) by = producers(plan);
    if (by[id] < 0 || !plan.steps[by[id]].node) continue;  // not allocated by this plan
    throwOverLimit(*plan.steps[by[id]].node, s.name, s.type.dtype, s.shape, bytes, "", limit);
  }
}

void checkPlanTotal(Plan& plan, size_t limit) {
  size_t owned = 0;
  int largest = -1;
  size_t largestBytes = 0;
  const std::vector<int> by = producers(plan);
  for (size_t id = 0; id < plan.slots.size(); ++id) {
    const Slot& s = plan.slots[id];
    if (!counted(s) || by[id] < 0 || !plan.steps[by[id]].node) continue;
    const size_t bytes = tensorBytes(s.type.dtype, s.shape);  // each fits in the limit (checkPlanTensors)
    if (s.kind == SlotKind::kOwned) owned = bytes > kNoLimit - owned ? kNoLimit : owned + bytes;
    if (bytes >= largestBytes) largestBytes = bytes, largest = static_cast<int>(id);
  }
  const size_t arena = plan.stats.arenaBytes;
  plan.fixedBytes = owned > kNoLimit - arena ? kNoLimit : owned + arena;
  if (limit == kNoLimit || plan.fixedBytes <= limit || largest < 0) return;
  const Slot& s = plan.slots[largest];
  throwOverLimit(*plan.steps[by[largest]].node, s.name, s.type.dtype, s.shape, largestBytes,
                 ", the largest of a plan that needs " + std::to_string(plan.fixedBytes) + " (activation arena " +
                     std::to_string(arena) + ", outputs " + std::to_string(owned) + ")",
                 limit);
}

}  // namespace oinfer::runtime
