// Custom ops: ops oinfer does not have, added from outside the library.
//
// A custom op is a CustomOp: (domain, op type, a range of the domain's
// opset) with a shape function and a kernel factory. Ops are grouped in a
// CustomOpSet, which is registered
//   - for one session: SessionOptions::customOps (sets made in the program)
//     and SessionOptions::customOpLibraries (shared libraries, "plugins",
//     loaded with dlopen); or
//   - for the process: registerGlobalCustomOps(set) / loadCustomOpLibrary.
//
// Which definition a node binds to (domain, op type, the model's opset for
// the domain): the session's own sets and libraries first, then the built-in
// ops, then the global custom ops. A custom op never replaces a built-in op
// silently: a (domain, op type) the built-in registry has is refused (an
// Error naming the op and where it came from) unless the CustomOp says
// overrideBuiltin; then it wins within its opset range (outside it the
// built-in op still serves). Two definitions of one (domain, op type) with
// overlapping opset ranges at the same level (one session's sets and
// libraries; the global sets) are an Error naming both; a session's
// definition hides a global one of the same (domain, op type).
//
// Ownership. CustomOpSet is a value: a Session (and the global registry)
// keeps its own copy, which shares the shape functions and kernel factories
// (std::function copies: what they capture is shared, so it must stay valid
// and be safe to use from several threads). Shape functions run while a
// Session is made and planned, and during runs (below), possibly on several
// threads at once for concurrent runs.
//
// Plan time and run time. The shape function runs while the session plans
// (for every set of input shapes), with each input's dtype, its shape (dims
// are numbers or named symbols) and, where the planner knows it (weights,
// Constants, small values computed from them), its value. An output whose
// shape depends on an input value the planner does not know gets fresh
// symbolic dims (freshDim); the step is then re-planned at run time, where
// the shape function runs again with every input's value known
// (CustomShapeContext::atRunTime()), before the kernel runs. A kernel may
// also size an output itself (CustomKernelContext::allocateOutput) when even
// the values do not tell the shape before computing (NonZero-like ops).
//
// Kernels. The factory makes a kernel from a CustomKernelInit (attributes,
// input and output types with the plan's shapes, constant inputs such as
// weights): parse attributes and pack weights there. oinfer makes one kernel
// per node for each plan (set of input shapes) and each concurrent run, so
// run() of one kernel object is never called from two threads at once, but
// two kernels of the same node may run at the same time (Session::run from
// several threads): state they share (statics, captures of the factory, what
// CustomKernelInit::shared returns) must be read-only or locked. Work made
// once per node and session (packed weights) goes through
// CustomKernelInit::shared.
//
// Devices and precision. Custom ops run on the CPU (a CUDA session copies
// their inputs to the host and back). SessionOptions::fp16 rewrites the
// graph's float32 tensors to float16, custom ops' inputs too: an op that
// takes only float32 should check in its shape function (an Error naming
// the node then says so).
//
// Errors. Anything a shape function, factory or kernel throws reaches the
// caller as an oinfer::Error whose message starts with the node and op:
// "node 'dcn1' (custom::deform_conv2d): ...". fail() throws such an Error.
//
// Plugins. A shared library exports the C-linkage entry point
// oinfer_register_custom_ops, which OINFER_CUSTOM_OPS_PLUGIN(fn) defines:
//
//   static void registerOps(oinfer::CustomOpSet& set) { set.add(...); }
//   OINFER_CUSTOM_OPS_PLUGIN(registerOps)
//
// oinfer checks the plugin's OINFER_CUSTOM_OPS_ABI_VERSION against its own
// before the plugin touches the set (a mismatch is an Error naming the
// library and both versions). Everything a plugin calls through this header
// is inline or a virtual call into oinfer, so a plugin links no oinfer
// library (the example's CMakeLists links it with -Wl,--no-undefined
// against nothing of oinfer); a plugin that calls other oinfer functions
// (the Tensor(dtype, shape) constructor, shapeToString...) takes them from
// the process that loads it. The interface is C++: a plugin must be built
// with a compiler and standard library ABI compatible with oinfer's (on
// Linux: GCC or Clang with libstdc++'s C++11 ABI). A library is loaded once
// per process (by its canonical path) and stays loaded until exit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "oinfer/error.h"
#include "oinfer/tensor.h"
#include "oinfer/thread_pool.h"

// The version of the plugin interface: bumped whenever a class or function
// of this header changes in a way a built plugin would notice.
#define OINFER_CUSTOM_OPS_ABI_VERSION 1

namespace oinfer {

// ---- what shape functions and kernels see of their node ----------------------

// The node being typed or prepared. Attribute getters: the form without a
// default requires the attribute (its absence is an Error naming the node and
// attribute); a present attribute of another type is an Error too.
class CustomNode {
 public:
  virtual const std::string& name() const = 0;    // the node's name
  virtual const std::string& opType() const = 0;
  virtual const std::string& domain() const = 0;  // "" for the ONNX domain
  virtual int64_t opset() const = 0;              // the model's opset for domain()
  virtual size_t numInputs() const = 0;
  virtual bool hasInput(size_t i) const = 0;      // false for an absent optional input
  virtual size_t numOutputs() const = 0;
  virtual bool hasOutput(size_t i) const = 0;     // false for an unused optional output

  virtual bool hasAttribute(const std::string& name) const = 0;
  virtual int64_t attrInt(const std::string& name) const = 0;
  virtual int64_t attrInt(const std::string& name, int64_t def) const = 0;
  virtual float attrFloat(const std::string& name) const = 0;
  virtual float attrFloat(const std::string& name, float def) const = 0;
  virtual std::string attrString(const std::string& name) const = 0;
  virtual std::string attrString(const std::string& name, const std::string& def) const = 0;
  virtual std::vector<int64_t> attrInts(const std::string& name) const = 0;
  virtual std::vector<int64_t> attrInts(const std::string& name, const std::vector<int64_t>& def) const = 0;
  virtual std::vector<float> attrFloats(const std::string& name) const = 0;
  virtual std::vector<float> attrFloats(const std::string& name, const std::vector<float>& def) const = 0;
  // A tensor attribute, or nullptr when absent (valid while the call lasts).
  virtual const Tensor* attrTensor(const std::string& name) const = 0;

  // Throws oinfer::Error "node 'NAME' (DOMAIN::OP): msg".
  [[noreturn]] virtual void fail(const std::string& msg) const = 0;

 protected:
  ~CustomNode() = default;
};

// ---- shape function ------------------------------------------------------------

class CustomShapeContext : public CustomNode {
 public:
  virtual DataType inputType(size_t i) const = 0;  // Error when input i is absent
  virtual bool inputHasShape(size_t i) const = 0;  // false: rank unknown
  // Dims are numbers or named symbols (Dim::symbol); an Error when the rank
  // is unknown.
  virtual const Shape& inputShape(size_t i) const = 0;
  // Input i's value when known now (weights, Constants, small values the
  // planner computed; at run time every input), else nullptr. Valid while
  // the call lasts.
  virtual const Tensor* inputValue(size_t i) const = 0;
  // True while the runtime re-plans this step during a run (a dim the
  // function left symbolic at plan time): every inputValue is known.
  virtual bool atRunTime() const = 0;

  // Sets output i's dtype and shape. Unset outputs are an Error after the call.
  virtual void setOutput(size_t i, DataType dtype, const Shape& shape) = 0;
  // A new symbol for a dim known only at run time ("unk__N").
  virtual Dim freshDim() = 0;

 protected:
  ~CustomShapeContext() = default;
};

using CustomShapeFn = std::function<void(CustomShapeContext&)>;

// ---- kernel ----------------------------------------------------------------------

class CustomKernelInit : public CustomNode {
 public:
  virtual DataType inputType(size_t i) const = 0;
  // The plan's shape of input i / output i: static dims for the input
  // shapes planned for, symbols where a dim is known only at run time.
  virtual const Shape& inputShape(size_t i) const = 0;
  virtual DataType outputType(size_t i) const = 0;
  virtual const Shape& outputShape(size_t i) const = 0;
  // The value of input i when it is a constant (a weight), else nullptr;
  // valid while the kernel lives.
  virtual const Tensor* constantInput(size_t i) const = 0;
  // Threads of the pool the kernel runs on.
  virtual int threads() const = 0;
  // Asks for scratch memory valid during each run (contents not kept from
  // one run to the next), `bytes` for the step or, perThread, for each pool
  // thread; returns the id CustomKernelContext::scratch takes. The runtime
  // lays out every step's requests in one block per run context.
  virtual size_t requestScratch(size_t bytes, bool perThread = false) const = 0;
  // Made once per node and Session, shared by all of the node's kernels
  // (every plan and concurrent run): returns the object stored under `key`
  // for this node, calling make() only the first time. For packed weights.
  virtual std::shared_ptr<const void> sharedObject(const std::string& key,
                                                   const std::function<std::shared_ptr<const void>()>& make) const = 0;
  template <class T, class Make>
  std::shared_ptr<const T> shared(const std::string& key, Make&& make) const {
    return std::static_pointer_cast<const T>(
        sharedObject(key, [&]() -> std::shared_ptr<const void> { return std::make_shared<const T>(make()); }));
  }

 protected:
  ~CustomKernelInit() = default;
};

class CustomKernelContext {
 public:
  virtual const std::string& nodeName() const = 0;
  virtual size_t numInputs() const = 0;
  virtual bool hasInput(size_t i) const = 0;
  // Input i, a view of the runtime's memory (valid during run()); an Error
  // naming the node when absent.
  virtual const Tensor& input(size_t i) const = 0;
  virtual size_t numOutputs() const = 0;
  virtual bool hasOutput(size_t i) const = 0;
  // Output i as the runtime placed it from the shape function's shape. An
  // Error when its shape was not known before the kernel ran: see
  // allocateOutput.
  virtual Tensor& output(size_t i) = 0;
  // Output i with this shape (and the shape function's dtype): the placed
  // tensor when the runtime already placed one (the shapes must agree, else
  // an Error naming the node), else a new one.
  virtual Tensor& allocateOutput(size_t i, const std::vector<int64_t>& shape) = 0;
  // Runs fn(begin, end) over [0, n) on the session's thread pool, in chunks
  // of at least `grain`; returns when all are done (rethrowing the first
  // exception). fn must not call parallelFor again.
  virtual void parallelFor(int64_t n, RangeFn fn, int64_t grain = 1) = 0;
  virtual int threads() const = 0;
  // Inside a parallelFor body: the calling thread's index in [0, threads()).
  virtual int threadIndex() const = 0;
  // The memory of scratch request `id` (CustomKernelInit::requestScratch):
  // for a per-thread request, the calling thread's part.
  virtual void* scratch(size_t id) const = 0;
  [[noreturn]] virtual void fail(const std::string& msg) const = 0;

 protected:
  ~CustomKernelContext() = default;
};

class CustomKernel {
 public:
  virtual ~CustomKernel() = default;
  virtual void run(CustomKernelContext& ctx) = 0;
  // Shown by Session::plan / oinfer-run --print-plan; empty by default.
  virtual std::string algorithm() const { return {}; }
};

using CustomKernelFactory = std::function<std::unique_ptr<CustomKernel>(const CustomKernelInit&)>;

// A kernel from a callable void(CustomKernelContext&) (state in its captures).
template <class F>
std::unique_ptr<CustomKernel> makeCustomKernel(F&& f) {
  struct Lambda final : CustomKernel {
    explicit Lambda(F&& fn) : fn_(std::forward<F>(fn)) {}
    void run(CustomKernelContext& ctx) override { fn_(ctx); }
    std::decay_t<F> fn_;
  };
  return std::make_unique<Lambda>(std::forward<F>(f));
}

// ---- definitions and sets --------------------------------------------------------

struct CustomOp {
  std::string domain;  // e.g. "custom"; "" or "ai.onnx": the ONNX domain
  std::string opType;
  // The opsets of `domain` this definition serves, both included.
  int sinceVersion = 1;
  int lastVersion = std::numeric_limits<int>::max();
  CustomShapeFn shape;
  CustomKernelFactory kernel;
  // Allows replacing a built-in op of the same (domain, op type) in this
  // opset range; without it such a definition is an Error.
  bool overrideBuiltin = false;
  // false: never evaluated while planning (constant folding), for ops whose
  // result is not a function of their inputs.
  bool deterministic = true;
};

// A group of custom op definitions. add() checks each definition and refuses
// a second definition of a (domain, op type) whose opset range overlaps one
// already in the set (an Error naming the op). A copy shares the shape
// functions and kernel factories.
class CustomOpSet {
 public:
  CustomOpSet() = default;
  explicit CustomOpSet(std::string origin) : origin_(std::move(origin)) {}

  CustomOpSet& add(CustomOp op) {
    if (op.domain == "ai.onnx") op.domain.clear();
    const std::string what = "custom op " + qualifiedName(op.domain, op.opType) + describeOrigin();
    if (op.opType.empty()) throw Error(ErrorCode::kInvalidArgument, "custom op with no op type" + describeOrigin());
    if (!op.shape) throw Error(ErrorCode::kInvalidArgument, what + " has no shape function");
    if (!op.kernel) throw Error(ErrorCode::kInvalidArgument, what + " has no kernel factory");
    if (op.sinceVersion < 1 || op.lastVersion < op.sinceVersion)
      throw Error(ErrorCode::kInvalidArgument, what + ": opset range " + std::to_string(op.sinceVersion) + ".." +
                                                   std::to_string(op.lastVersion) + " is empty or starts below 1");
    for (const CustomOp& o : ops_)
      if (o.domain == op.domain && o.opType == op.opType && o.sinceVersion <= op.lastVersion &&
          op.sinceVersion <= o.lastVersion)
        throw Error(ErrorCode::kInvalidArgument, what + " is registered twice for opsets " + rangeText(o) + " and " +
                                                     rangeText(op));
    ops_.push_back(std::move(op));
    return *this;
  }
  const std::vector<CustomOp>& ops() const { return ops_; }
  bool empty() const { return ops_.empty(); }
  // Where the set comes from, for messages: a library's path, or "".
  const std::string& origin() const { return origin_; }

  // "custom::deform_conv2d", "ai.onnx::Relu".
  static std::string qualifiedName(const std::string& domain, const std::string& opType) {
    return (domain.empty() ? std::string("ai.onnx") : domain) + "::" + opType;
  }

 private:
  std::string describeOrigin() const { return origin_.empty() ? "" : " (from '" + origin_ + "')"; }
  static std::string rangeText(const CustomOp& o) {
    return std::to_string(o.sinceVersion) + ".." +
           (o.lastVersion == std::numeric_limits<int>::max() ? std::string() : std::to_string(o.lastVersion));
  }
  std::string origin_;
  std::vector<CustomOp> ops_;
};

// ---- the process-wide registry --------------------------------------------------

// Registers `set` for every Session (and Graph::inferShapes) made from now
// on; sessions already made keep what they had. Checked whole before
// anything is added: a conflict with a built-in op (without overrideBuiltin)
// or with a global custom op already registered is an Error, and nothing of
// the set is then registered. Thread-safe.
void registerGlobalCustomOps(const CustomOpSet& set);
// Forgets every global custom op (tests; a host reloading its ops). Sessions
// already made keep theirs. Thread-safe.
void clearGlobalCustomOps();

// Loads a plugin (once per process; a second call returns the same set) and
// returns the ops it registered. Errors name the library: a missing file
// (kIO), a file dlopen refuses (kIO, with dlerror's reason), no
// oinfer_register_custom_ops symbol, another ABI version, or a registration
// that failed (kInvalidArgument). Thread-safe.
CustomOpSet loadCustomOpLibrary(const std::string& path);

}  // namespace oinfer

// ---- the plugin entry point ------------------------------------------------------

extern "C" {
// What oinfer hands the entry point. The first two fields keep their place
// in every ABI version, so any pair of versions can tell each other apart.
struct oinfer_custom_ops_call {
  uint32_t host_abi;    // set by oinfer: its OINFER_CUSTOM_OPS_ABI_VERSION
  uint32_t plugin_abi;  // set by the plugin: the version it was built with
  void* ops;            // an oinfer::CustomOpSet*; used only when the versions are equal
  char error[1024];     // the plugin's message when it returns nonzero
};
}
// The symbol oinfer looks up: int oinfer_register_custom_ops(oinfer_custom_ops_call*),
// returning 0 on success.
#define OINFER_CUSTOM_OPS_ENTRY_POINT "oinfer_register_custom_ops"

// Defines the entry point over `fn`, a function void(oinfer::CustomOpSet&):
// reports the plugin's ABI version, leaves the set alone on a mismatch, and
// turns an exception from fn into the error message.
#define OINFER_CUSTOM_OPS_PLUGIN(fn)                                                                \
  extern "C" __attribute__((visibility("default"))) int oinfer_register_custom_ops(                 \
      oinfer_custom_ops_call* call) {                                                               \
    call->plugin_abi = OINFER_CUSTOM_OPS_ABI_VERSION;                                               \
    if (call->host_abi != OINFER_CUSTOM_OPS_ABI_VERSION) return 1;                                  \
    try {                                                                                           \
      fn(*static_cast<::oinfer::CustomOpSet*>(call->ops));                                          \
      return 0;                                                                                     \
    } catch (const std::exception& e) {                                                             \
      std::strncpy(call->error, e.what(), sizeof call->error - 1);                                  \
    } catch (...) {                                                                                 \
      std::strncpy(call->error, "unknown exception", sizeof call->error - 1);                       \
    }                                                                                               \
    call->error[sizeof call->error - 1] = '\0';                                                     \
    return 2;                                                                                       \
  }
