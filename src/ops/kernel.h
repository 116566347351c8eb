// The narrow contract between the runtime and a kernel.
//
// A kernel is made once per plan and execution context by its factory from a
// KernelInit (the node, its attributes, input/output types with shapes
// resolved for that plan, and the values of constant inputs), so attributes
// are parsed once; weights are packed once per Session (packedWeight). run() then only computes, writing into outputs the runtime has already
// placed.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "oinfer/error.h"
#include "graph/ir.h"
#include "oinfer/tensor.h"
#include "oinfer/value.h"
#include "oinfer/thread_pool.h"

namespace oinfer {

// Stops a run between nodes (Session::terminate, RunOptions::terminate, a
// deadline). The runtime checks it before every step it runs; Loop, Scan and
// SequenceMap also before every iteration, and hand it to their subgraphs. A
// kernel in the middle of its work is not interrupted.
struct RunControl {
  const std::atomic<bool>* flag = nullptr;        // RunOptions::terminate (the caller's)
  const std::atomic<uint64_t>* epoch = nullptr;   // the session's; Session::terminate bumps it
  uint64_t startEpoch = 0;                        // its value when the run began
  bool hasDeadline = false;
  std::chrono::steady_clock::time_point deadline;
  double timeoutSeconds = 0;                      // for the message

  // Throws Error(kCancelled) naming `next` (the node about to run) when the
  // run must stop; cheap otherwise (two relaxed loads, a clock read with a deadline).
  void check(const Node& next) const {
    if ((flag && flag->load(std::memory_order_relaxed)) ||
        (epoch && epoch->load(std::memory_order_relaxed) != startEpoch) ||
        (hasDeadline && std::chrono::steady_clock::now() >= deadline))
      stop(next);
  }
  [[noreturn]] void stop(const Node& next) const;
};

// Runs a subgraph (a branch of If, the body of Loop / Scan / SequenceMap).
// Made by the runtime on a kernel's request, once per kernel; the runtime
// caches the subgraph's plans per input-shape signature, so a Loop whose
// carried values keep their shapes plans its body once.
class SubgraphRunner {
 public:
  virtual ~SubgraphRunner() = default;
  // `formal`: the body's inputs in order; `implicit`: the values of the
  // owning node's implicitInputs(), in that order (the runner picks the ones
  // its body reads). Returns the body's outputs in order; they never alias the
  // runner's internal buffers.
  // `control` (may be null): the run's RunControl, checked before each of
  // the body's nodes.
  virtual std::vector<Value> run(const std::vector<const Value*>& formal, const std::vector<const Value*>& implicit,
                                 const RunControl* control = nullptr) = 0;
};
using SubgraphFactory = std::function<std::unique_ptr<SubgraphRunner>(const ir::Graph& body)>;

// The outer-scope values a node's subgraphs read (every graph attribute's
// outerScopeInputs, first occurrence order). The runtime passes them to the
// kernel as extra inputs after the node's own, in this order.
std::vector<std::string> implicitInputs(const Node& node);

// Packed forms of weights (graph initializers) made once per Session and
// shared by all its plans and execution contexts (KernelInit::packedWeight).
class WeightCache {
 public:
  std::shared_ptr<const void> find(const std::string& key) const {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = map_.find(key);
    return it == map_.end() ? nullptr : it->second;
  }
  void insert(const std::string& key, std::shared_ptr<const void> value) {
    std::lock_guard<std::mutex> lock(mu_);
    map_.emplace(key, std::move(value));
  }

 private:
  mutable std::mutex mu_;
  std::map<std::string, std::shared_ptr<const void>> map_;
};

// The blocked layout NCHW16c: channel c of pixel p (p = h * W + w) of image n
// at ((n * C / 16 + c / 16) * H * W + p) * 16 + c % 16, for 4-d float32
// tensors whose C is a multiple of 16 (same size as NCHW). A tile that
// computes 16 channels of a run of pixels stores it as one aligned line per
// pixel, where NCHW scatters it over 16 planes (whose rows straddle cache
// lines when the plane is not a multiple of 16 floats). The runtime places
// an intermediate tensor so (runtime::assignBlockedLayouts) only when its
// producer can write it and every reader can read it, as each op's
// OpDef::blocked says; KernelInit::blockedIn / blockedOut then tell the
// kernel. Shapes and ValueInfo stay NCHW: only the kernels see the layout.
struct BlockedSupport {
  uint32_t read = 0;   // inputs (bit i) that may be blocked whatever output 0 is
  uint32_t write = 0;  // outputs that may be blocked
  uint32_t tied = 0;   // inputs blocked exactly when output 0 is (a fused residual, a pool's input)
};

// Scratch memory a kernel asks for when it is made (KernelInit::
// requestScratch): `bytes` for the step, or `bytes` for each pool thread.
// The runtime lays out every step's requests in its execution context's
// scratch block (the steps of a context run one after another, so the block
// is the largest step's need, not the sum), reports the block in
// MemoryStats::scratchBytes and frees it with the context. Contents are not
// kept from one run to the next.
struct ScratchRequest {
  size_t bytes = 0;
  bool perThread = false;
};

// A request's memory at run time (KernelContext::scratch): thread t's part
// at base + t * stride for t < parts (stride 0 and one part for a request
// of the whole step); each part holds `bytes` and is 64-byte aligned.
struct ScratchSpan {
  uint8_t* base = nullptr;
  size_t stride = 0;
  size_t bytes = 0;
  int parts = 1;
  template <class T = void>
  T* part(int thread) const {
    return reinterpret_cast<T*>(base + static_cast<size_t>(thread) * stride);
  }
  // The calling thread's part (ThreadPool::currentThread). Inside a
  // parallelFor body of the kernel's pool the index is below the pool's
  // size, one per thread. Outside one it is the thread's index in whatever
  // pool it works for (a Session run from another pool's worker): no other
  // thread runs the step then, and an index past the parts takes part 0.
  template <class T = void>
  T* mine() const {
    const int t = ThreadPool::currentThread();
    return part<T>(t < parts ? t : 0);
  }
};

// Lays out `requests` for a pool of `threads` threads: each span's offset
// from the block start (in `spans[i].base`, as an offset) and the block's
// size. bindScratch then turns offsets into addresses.
size_t layoutScratch(const std::vector<ScratchRequest>& requests, int threads, std::vector<ScratchSpan>& spans);
void bindScratch(std::vector<ScratchSpan>& spans, uint8_t* block);

// What a kernel's blocked form can be handed: a float32 4-d value of static
// shape (the planner also asks for 16k channels).
inline bool blockedCandidate(const ValueInfo* v) {
  return v && v->dtype == DataType::kFloat && v->hasShape && v->shape.size() == 4 && isStatic(v->shape);
}

struct KernelInit {
  const Node& node;
  int64_t opset;
  std::vector<const ValueInfo*> inputs;    // nullptr for an absent optional input
  std::vector<const Tensor*> constInputs;  // value when the input is constant, else nullptr
  std::vector<const ValueInfo*> outputs;   // nullptr for an unused optional output
  // Set by the runtime: makes runners for subgraph attributes. Absent during
  // constant folding (control-flow kernels then decline to be made).
  const SubgraphFactory* subgraphs = nullptr;
  // Set by the runtime: the pool the kernel will run on (threads() sizes
  // per-thread scratch requests). Null during constant folding.
  ThreadPool* pool = nullptr;

  // Set by the runtime: the Session's packed-weight cache, and per input the
  // initializer it reads ("" when it is none). Null / empty elsewhere
  // (constant folding, OpTester): packedWeight then packs for this kernel alone.
  WeightCache* weights = nullptr;
  std::vector<std::string> weightNames{};
  // Entry i set by packedWeight(i, ..., true): see there.
  mutable std::vector<char> packedOnly{};
  // Set by the runtime: inputs / outputs in the blocked layout (see
  // BlockedSupport); empty or 0 = NCHW.
  std::vector<uint8_t> blockedIn{}, blockedOut{};
  bool inBlocked(size_t i) const { return i < blockedIn.size() && blockedIn[i]; }
  bool outBlocked(size_t i) const { return i < blockedOut.size() && blockedOut[i]; }

  bool hasInput(size_t i) const { return i < inputs.size() && inputs[i] != nullptr; }
  const Tensor* constInput(size_t i) const { return i < constInputs.size() ? constInputs[i] : nullptr; }

  // Asks for scratch memory valid during each run (ScratchRequest); returns
  // the index KernelContext::scratch takes. A per-thread request gets one
  // part for each thread of the pool the kernel runs on (threads()). This is
  // the only scratch a planned kernel keeps: no per-thread static buffers
  // (the ThreadLocal.* tests reject them under src/), and a kernel whose
  // sizes are known only at run time keeps a member buffer or allocates for
  // the call (ops/cpu/workspace.h).
  size_t requestScratch(size_t bytes, bool perThread = false) const {
    scratch.push_back({bytes, perThread});
    return scratch.size() - 1;
  }
  mutable std::vector<ScratchRequest> scratch{};
  int threads() const { return pool ? pool->size() : 1; }

  // The packed form `layout` of constant input i: make() (returning a T) runs
  // on the Session's first request for (initializer, layout); later plans and
  // contexts share the result. With onlyPacked the kernel promises never to
  // read input i's data again, at plan or run time (its dtype and shape it
  // may): when every reader of a weight promises so, the runtime frees the
  // weight's original data once planned (graph().initializers keeps its name,
  // dtype and shape), and a re-plan finds the packed form here. The layout
  // must not depend on other inputs' shapes.
  template <class T, class Make>
  std::shared_ptr<const T> packedWeight(size_t i, const std::string& layout, Make&& make, bool onlyPacked) const {
    const bool named = weights && i < weightNames.size() && !weightNames[i].empty();
    if (!named) return std::make_shared<const T>(make());
    const std::string key = weightNames[i] + '\n' + layout;
    std::shared_ptr<const T> out = std::static_pointer_cast<const T>(weights->find(key));
    if (!out) {
      out = std::make_shared<const T>(make());
      weights->insert(key, out);
    }
    if (onlyPacked) {
      if (packedOnly.size() <= i) packedOnly.resize(i + 1, 0);
      packedOnly[i] = 1;
    }
    return out;
  }
  [[noreturn]] void fail(const std::string& msg) const;
};

class KernelContext {
 public:
  size_t numInputs() const { return inputs_.size(); }
  bool hasInput(size_t i) const { return i < inputs_.size() && inputs_[i] != nullptr; }
  // Input i; an Error naming the node when absent.
  const Tensor& input(size_t i) const;
  size_t numOutputs() const { return outputs_.size(); }
  bool hasOutput(size_t i) const { return i < outputs_.size() && outputs_[i] != nullptr; }
  // Output i, already shaped and placed by the runtime.
  Tensor& output(size_t i);
  // For outputs whose shape depends on input values the shape function could
  // not see (NonZero, Unique...): allocates output i with this shape. When the
  // output was already planned, checks the shape matches and returns it.
  Tensor& allocateOutput(size_t i, const std::vector<int64_t>& shape, DataType dtype = DataType::kUndefined);
  // Non-tensor values (sequences, optionals): every input/output as a Value.
  // inputValue(i) of a tensor input is that tensor; an absent input is an
  // empty optional. Writing outputValue(i) sets a sequence or optional output.
  const Value& inputValue(size_t i) const;
  Value& outputValue(size_t i);
  ThreadPool& pool() const { return *pool_; }
  const Node& node() const { return *node_; }
  // The run's cancellation state (null outside a Session run: constant
  // folding, OpTester). Kernels that iterate over subgraphs check it per
  // iteration (checkCancelled) and pass it to SubgraphRunner::run.
  const RunControl* control() const { return control_; }
  void checkCancelled() const {
    if (control_) control_->check(*node_);
  }
  // The memory of the kernel's scratch request `id` (KernelInit::requestScratch).
  const ScratchSpan& scratch(size_t id) const;
  [[noreturn]] void fail(const std::string& msg) const;

  // ---- set by the runtime ----------------------------------------------
  const Node* node_ = nullptr;
  ThreadPool* pool_ = nullptr;
  std::vector<const Tensor*> inputs_;
  std::vector<Tensor*> outputs_;
  std::vector<DataType> outputTypes_;  // planned dtype, used by allocateOutput
  // CUDA kernels only (src/ops/cuda/cuda_kernel.h): the run's cudaStream_t and
  // its cuda::CudaContext*; null for CPU kernels.
  void* stream_ = nullptr;
  void* deviceCtx_ = nullptr;
  // Parallel to inputs_/outputs_ when the runtime runs values (may be empty
  // for tensor-only callers such as constant folding and OpTester).
  std::vector<const Value*> inputValues_;
  std::vector<Value*> outputValues_;
  std::vector<ScratchSpan> scratch_;  // per request of the step's kernel
  const RunControl* control_ = nullptr;  // set before each run of the step
};

// Scratch for a kernel run outside an execution context (constant folding,
// OpTester): a block of its own for the kernel's requests, bound to `ctx`.
class OwnedScratch {
 public:
  OwnedScratch(const KernelInit& init, KernelContext& ctx);
  OwnedScratch(const OwnedScratch&) = delete;
  OwnedScratch& operator=(const OwnedScratch&) = delete;
  size_t bytes() const { return bytes_; }

 private:
  std::shared_ptr<void> block_;
  size_t bytes_ = 0;
};

class Kernel {
 public:
  virtual ~Kernel() = default;
  virtual void run(KernelContext& ctx) = 0;
  // The algorithm and instruction set the kernel chose when it was made, as
  // "name isa" ("winograd-f4x4 avx512"); empty when the op has one form.
  // --print-plan and Session::plan show it per step.
  virtual std::string algorithm() const { return {}; }
};

using KernelFactory = std::function<std::unique_ptr<Kernel>(const KernelInit&)>;
// Which of a node's inputs / outputs its CPU kernel can take in the blocked
// layout, given the plan's types and constants (KernelInit without blockedIn /
// blockedOut); asked at plan time.
using BlockedFn = std::function<BlockedSupport(const KernelInit&)>;

// A kernel from a callable `void(KernelContext&)`, for kernels whose prepared
// state fits in the lambda's captures.
template <class F>
std::unique_ptr<Kernel> makeKernel(F&& f) {
  struct LambdaKernel final : Kernel {
    explicit LambdaKernel(F&& fn) : fn_(std::forward<F>(fn)) {}
    void run(KernelContext& ctx) override { fn_(ctx); }
    std::decay_t<F> fn_;
  };
  return std::make_unique<LambdaKernel>(std::forward<F>(f));
}

}  // namespace oinfer
