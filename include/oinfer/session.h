// Session: runs a prepared Graph.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "oinfer/custom_op.h"
#include "oinfer/graph.h"
#include "oinfer/tensor.h"
#include "oinfer/thread_pool.h"
#include "oinfer/value.h"

namespace oinfer {

enum class Device { kCPU = 0, kCUDA = 1 };

struct SessionOptions {
  int threads = 0;                 // intra-op threads; 0 = hardware concurrency
  // A pool supplied by the host application (shared between sessions); when
  // set, `threads` is ignored. Workers poll for new work for the pool's
  // spinMicros after their last chunk, then sleep (see thread_pool.h).
  std::shared_ptr<ThreadPool> threadPool;
  std::string logLevel = "warn";   // trace|debug|info|warn|error|off (OINFER_LOG_LEVEL overrides)
  // Graph passes: 0 none (the graph as the file has it); 1 basic (constant
  // folding, BatchNormalization folded into the Conv before it: the same ops,
  // fewer of them); 2 all (1, then the fusions and the blocked layout). Other
  // values: an Error. Debugging a fused kernel: compare 1 with 2.
  int optimizationLevel = 2;
  // Intermediate values run(inputs, names) will fetch: the graph passes treat
  // each like a graph output (never fused away or removed; fusions through it
  // are skipped), so it is computed as the file computes it. Names that are
  // not values of the model (node outputs or graph inputs) are an
  // Error(kInvalidArgument) from the constructor. Without this, fetching a
  // value a pass fused away is an Error that says so.
  std::vector<std::string> keepValues;
  bool profiling = false;          // collect per-node timings
  // Memory limit of one run, in bytes: the activation arena, the outputs the
  // run hands back, the kernels' scratch and the tensors allocated at run
  // time for shapes known only then (each If / Loop / Scan body's run is
  // checked against it on its own). Weights are not counted (they are
  // loaded already). A plan, context or run-time allocation that would pass
  // it throws Error(kResourceExhausted) naming the node, its output and the
  // byte count, before allocating; the characters of string outputs are
  // counted after their step. Constant folding (graph passes, plan-time
  // shape evaluation) materializes at most 16 MiB per node (256 MiB in all);
  // larger values are computed at run time, under this limit.
  //   0 (default): automatic, 3/4 of physical memory (sysconf), and at most
  //                3/4 of RLIMIT_AS / RLIMIT_DATA when those are set;
  //   SIZE_MAX:    no limit;
  //   other:       that many bytes.
  size_t memoryLimitBytes = 0;
  // CPU, optimizationLevel >= 1: intermediate 4-d float32 tensors with a
  // multiple of 16 channels are kept in the blocked layout NCHW16c between
  // kernels that take it (the channel-vector Conv, Winograd, the depthwise
  // Conv, Mul by a per-channel scale, MaxPool, the global average / max
  // pools, in-place Concat); inputs and outputs stay NCHW. Where it takes a
  // MobileNet block's expanded tensor, the expand and depthwise Convs are
  // not fused. false: NCHW everywhere (results equal within float rounding).
  bool blockedLayout = true;
  Device device = Device::kCPU;
  // ---- device = kCUDA (ignored on the CPU) ----
  // Without the backend in this build, or without a usable device, the
  // Session constructor throws Error(kDevice) with one line saying why.
  // Nodes with a CUDA kernel run on the device, the others on the CPU; the
  // planner inserts the host<->device copies (PlanStep::device shows where).
  int deviceIndex = 0;     // which CUDA device
  bool cudaGraphs = true;  // replay a captured CUDA Graph for static-shape plans whose kernels allow it
  // Opt-in half precision (any device): the graph is rewritten to float16
  // (weights converted once, a Cast after each float32 input and before each
  // float32 output, so callers still use float32); ops without a float16
  // device kernel run on the CPU in float16, and the fusion passes (float32
  // fused ops) are skipped. Graphs with subgraphs stay float32. Expect ~1e-2 error.
  bool fp16 = false;
  // Caller-owned device memory, no copies: inputs given to run/runInto are
  // Tensor::wrap views of device pointers (cudaMalloc'd on deviceIndex), and
  // outputs are device tensors too (runInto writes into the caller's device
  // buffers, which must be defined with the output's dtype and shape; run()
  // returns tensors owning device memory, freed with the last copy).
  bool deviceIO = false;
  // A deadline for every run, in seconds from the start of run()/runInto()
  // (0: none); RunOptions::timeoutSeconds overrides it per run. See RunOptions.
  double runTimeoutSeconds = 0;
  // How many plans specialized to their input shapes the session keeps
  // (each: the shapes' memory plan, kernels and arena, made on the first run
  // with those shapes). With the cache full, a new shape replaces the least
  // used plan only once it has been asked for more often than that plan;
  // until then it runs on one shape-generic plan (shapes resolved per run,
  // outputs allocated per run: slower than a specialized plan, far faster
  // than planning per run), so cycling through more shapes than the cache
  // holds degrades gracefully. 0: every run uses the generic plan. -1: 16,
  // or the environment's OINFER_PLAN_CACHE_SIZE when set.
  int planCacheSize = -1;
  // ---- custom ops (oinfer/custom_op.h) ----
  // Op sets for this session only, and shared libraries (plugins) whose
  // oinfer_register_custom_ops entry point adds theirs; both are looked up
  // before the built-in and the global ops. A library is loaded once per
  // process and stays loaded; one named twice counts once. A name that conflicts with a built-in op
  // (without CustomOp::overrideBuiltin) or with another of this session's
  // definitions, a missing library, a missing entry point, another ABI
  // version or a failing registration: an Error from the constructor naming
  // the op or library.
  std::vector<CustomOpSet> customOps;
  std::vector<std::string> customOpLibraries;
};

// Per-run controls (Session::run / runInto overloads). A run that must stop
// throws Error(kCancelled) naming the node it stopped before; the session
// stays usable. Checks happen between nodes and before every iteration of
// Loop / Scan / SequenceMap (subgraphs included): a single long kernel (a
// large MatMul) finishes first, and a run on CUDA that replays a captured
// CUDA Graph is checked only before it starts.
struct RunOptions {
  // Stop once the run has taken this long (seconds, from the start of the
  // call, planning included); 0: SessionOptions::runTimeoutSeconds.
  double timeoutSeconds = 0;
  // Set to true from any thread to stop the run at the next check. The flag
  // is the caller's (read, never written or reset here) and must outlive the
  // run; one flag may serve several runs.
  const std::atomic<bool>* terminate = nullptr;
};

struct MemoryStats {
  size_t arenaBytes = 0;       // planned activation arena of the last plan
  size_t lowerBoundBytes = 0;  // max over steps of simultaneously live activation bytes
  size_t weightBytes = 0;      // bytes held by initializers
  size_t deviceArenaBytes = 0;  // planned device activation arena (CUDA sessions)
  // The kernels' scratch of one execution context (each concurrent run has
  // its own): the largest step's, known once the plan's kernels are made
  // (Session::plan or the first run).
  size_t scratchBytes = 0;
};

struct NodeProfile {
  std::string opType;
  std::string nodeName;
  double totalMs = 0;
  int64_t calls = 0;
};

struct PlanStep {
  std::string nodeName;
  std::string opType;
  std::vector<std::string> outputs;
  std::vector<std::string> outputShapes;  // "[1,3,224,224]" or "dynamic"
  std::vector<std::string> outputLayouts;  // "NCHW16c" where SessionOptions::blockedLayout placed it, else ""
  bool isView = false;
  // The algorithm and instruction set the step's kernel chose
  // ("winograd-f4x4 avx512"); empty for ops with one form, views and copies.
  std::string algorithm;
  Device device = Device::kCPU;  // where the step runs (copies run on the device)
  bool isCopy = false;           // a host<->device copy the planner inserted (opType "CopyToDevice"/"CopyToHost")
};

struct PlanInfo {
  std::vector<PlanStep> steps;
  MemoryStats memory;
};

using TensorMap = std::map<std::string, Tensor>;
using ValueMap = std::map<std::string, Value>;

class Session {
 public:
  explicit Session(Graph graph, SessionOptions options = {});
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Runs the graph; returns every graph output, in graph order. Thread-safe.
  // Outputs get buffers of their own: a later run never writes into one the
  // caller still holds, but reuses (up to two per output) those it released.
  std::vector<Tensor> run(const TensorMap& inputs);
  // Returns the named values (graph outputs or intermediates), in that order.
  std::vector<Tensor> run(const TensorMap& inputs, const std::vector<std::string>& outputNames);
  // Like run(inputs, outputNames), with sequences and optionals: for models
  // whose inputs or fetched values are not all tensors (an optional input is
  // given as what it holds, or Value::none()). An empty outputNames returns
  // every graph output. Values are checked like run()'s tensors (a sequence
  // input's elements must have the declared element type); the returned
  // values are the caller's. Thread-safe.
  std::vector<Value> runValues(const ValueMap& inputs, const std::vector<std::string>& outputNames = {});
  // Runs the graph writing every graph output into `outputs` (resized to the
  // number of outputs). An entry that is already a tensor of the output's
  // dtype and shape is written in place; others are replaced. With the same
  // input shapes as an earlier run and outputs reused, a run of a graph whose
  // shapes are all known at plan time makes no heap allocation. Thread-safe.
  void runInto(const TensorMap& inputs, std::vector<Tensor>& outputs);
  // The same, with a deadline or a terminate flag (RunOptions).
  std::vector<Tensor> run(const TensorMap& inputs, const std::vector<std::string>& outputNames,
                          const RunOptions& runOptions);
  void runInto(const TensorMap& inputs, std::vector<Tensor>& outputs, const RunOptions& runOptions);
  // Stops every run of this session in progress when called (from any
  // thread; each throws Error(kCancelled) at its next check). Runs started
  // after it returns are not affected.
  void terminate();

  // The graph as the session runs it (after the graph passes). A weight
  // whose every reader keeps a packed copy (MatMul / Gemm / FusedMatMul
  // weights) is released once packed (by plan() or the first run): its
  // initializer keeps name, dtype and shape, and data() is null.
  const Graph& graph() const;
  const SessionOptions& options() const;
  // Plans (or reuses the cached plan) for these input shapes and describes
  // it. A new plan is also made ready to run: its kernels are built (weights
  // packed into the layouts they read) and its arena allocated, so the first
  // run with these shapes costs what every later one does. Without a call
  // here, the first run does this.
  PlanInfo plan(const std::map<std::string, std::vector<int64_t>>& inputShapes);
  // Memory figures of the most recently made plan.
  MemoryStats memoryStats() const;
  // Per-node timings accumulated since construction or resetProfile(),
  // when options.profiling is set. Slowest first.
  std::vector<NodeProfile> profile() const;
  void resetProfile();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace oinfer
