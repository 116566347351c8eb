// Scratch memory for one call of a CPU compute routine (the GEMM driver, a
// Conv algorithm): a part for the whole call (`shared`, written by all
// threads together: a packed input, an im2col chunk) and one part per pool
// thread (`perThread`, indexed by ThreadPool::currentThread through
// ScratchSpan::mine). Each routine has a function giving its ScratchNeed
// for a shape, so a kernel factory requests it when the plan's shapes are
// static (requestWorkspace) and warm runs allocate nothing. A routine given
// none or too small a one (a shape known only at run time, a direct caller
// such as a test) allocates its own for that call (CallWorkspace).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>

#include "graph/memory.h"
#include "ops/kernel.h"

namespace oinfer {

struct ScratchNeed {
  size_t shared = 0;     // bytes for the call
  size_t perThread = 0;  // bytes for each thread
  // Both parts large enough for either need (routines called one after another).
  ScratchNeed& cover(const ScratchNeed& o) {
    shared = std::max(shared, o.shared);
    perThread = std::max(perThread, o.perThread);
    return *this;
  }
};

struct Workspace {
  ScratchSpan shared, perThread;
};

// A kernel's requests for a workspace (KernelInit::requestScratch) and the
// workspace at run time.
struct WorkspaceIds {
  size_t shared = 0, perThread = 0;
};
inline WorkspaceIds requestWorkspace(const KernelInit& init, const ScratchNeed& need) {
  WorkspaceIds ids;
  ids.shared = init.requestScratch(need.shared);
  ids.perThread = init.requestScratch(need.perThread, true);
  return ids;
}
inline Workspace workspace(const KernelContext& ctx, const WorkspaceIds& ids) {
  return Workspace{ctx.scratch(ids.shared), ctx.scratch(ids.perThread)};
}

// Cuts a part into 64-byte aligned pieces in order; over a null base it only
// counts (bytes()), so one function both sizes a routine's pieces and
// places them.
class Carve {
 public:
  explicit Carve(void* base = nullptr) : base_(static_cast<uint8_t*>(base)) {}
  template <class T>
  T* take(size_t count) {
    const size_t at = bytes_;
    bytes_ += (count * sizeof(T) + 63) / 64 * 64;
    return base_ ? reinterpret_cast<T*>(base_ + at) : nullptr;
  }
  size_t bytes() const { return bytes_; }

 private:
  uint8_t* base_;
  size_t bytes_ = 0;
};

// `given` where it holds `need` for a pool of `threads`, else memory of the
// call's own for the parts that do not fit (freed when this goes).
class CallWorkspace {
 public:
  CallWorkspace(const Workspace& given, const ScratchNeed& need, int threads) : ws_(given) {
    threads = std::max(threads, 1);
    const bool sharedFits = need.shared == 0 || (given.shared.base && given.shared.bytes >= need.shared);
    const bool threadFits = need.perThread == 0 || (given.perThread.base && given.perThread.bytes >= need.perThread &&
                                                    given.perThread.parts >= threads);
    if (sharedFits && threadFits) return;
    const size_t sharedBytes = sharedFits ? 0 : align(need.shared);
    const size_t part = threadFits ? 0 : align(need.perThread);
    uint8_t* p = static_cast<uint8_t*>(allocLarge(sharedBytes + part * size_t(threads)));
    if (!p) throw std::bad_alloc();
    own_.reset(p);
    if (!sharedFits) ws_.shared = ScratchSpan{p, 0, need.shared, 1};
    if (!threadFits) ws_.perThread = ScratchSpan{p + sharedBytes, part, need.perThread, threads};
  }
  CallWorkspace(const CallWorkspace&) = delete;
  CallWorkspace& operator=(const CallWorkspace&) = delete;
  const Workspace& get() const { return ws_; }

 private:
  static size_t align(size_t n) { return (n + 63) / 64 * 64; }
  struct Free {
    void operator()(uint8_t* p) const { std::free(p); }
  };
  Workspace ws_;
  std::unique_ptr<uint8_t, Free> own_;
};

}  // namespace oinfer
