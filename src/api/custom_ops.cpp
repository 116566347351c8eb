// The custom-op adapter (api/custom_ops.h), the global custom-op registry and
// plugin loading.
#include "api/custom_ops.h"

#include <dlfcn.h>

#include <filesystem>
#include <map>
#include <mutex>
#include <new>
#include <set>

#include "api/builtin_registry.h"
#include "shape/infer_context.h"

namespace oinfer {

namespace {

// "node 'dcn1' (custom::deform_conv2d)": how every custom-op message starts.
std::string nodeLabel(const Node& n) { return "node '" + n.name + "' (" + CustomOpSet::qualifiedName(n.domain, n.opType) + ")"; }

bool startsWith(const std::string& s, const std::string& prefix) { return s.compare(0, prefix.size(), prefix) == 0; }

// A message about the node, starting with its label once: messages of the
// engine's own checks start with Node::describe(), which lacks the domain.
std::string labelled(const Node& node, const std::string& label, const std::string& msg) {
  if (startsWith(msg, label)) return msg;
  const std::string plain = node.describe();
  if (startsWith(msg, plain)) return label + msg.substr(plain.size());
  return label + ": " + msg;
}

// Rethrows the exception in flight as an oinfer::Error naming the node.
[[noreturn]] void rethrowForNode(const Node& node, const std::string& label, const char* stage) {
  try {
    throw;
  } catch (const Error& e) {
    throw Error(e.code(), labelled(node, label, e.what()));
  } catch (const std::bad_alloc&) {
    throw Error(ErrorCode::kInternal, label + ": out of memory in the " + stage);
  } catch (const std::exception& e) {
    throw Error(ErrorCode::kInvalidArgument, label + ": the " + stage + " threw: " + e.what());
  } catch (...) {
    throw Error(ErrorCode::kInvalidArgument, label + ": the " + stage + " threw an unknown exception");
  }
}

// CustomNode over an ir::Node, for the shape and prepare contexts.
template <class Base>
class NodeView : public Base {
 public:
  NodeView(const Node& node, int64_t opset, ErrorCode failCode)
      : node_(node), opset_(opset), label_(nodeLabel(node)), failCode_(failCode) {}

  const std::string& name() const override { return node_.name; }
  const std::string& opType() const override { return node_.opType; }
  const std::string& domain() const override { return node_.domain; }
  int64_t opset() const override { return opset_; }
  size_t numInputs() const override { return node_.inputs.size(); }
  bool hasInput(size_t i) const override { return i < node_.inputs.size() && !node_.inputs[i].empty(); }
  size_t numOutputs() const override { return node_.outputs.size(); }
  bool hasOutput(size_t i) const override { return i < node_.outputs.size() && !node_.outputs[i].empty(); }

  bool hasAttribute(const std::string& n) const override { return node_.hasAttr(n); }
  int64_t attrInt(const std::string& n) const override { return node_.attrInt(required(n), 0); }
  int64_t attrInt(const std::string& n, int64_t def) const override { return node_.attrInt(n, def); }
  float attrFloat(const std::string& n) const override { return node_.attrFloat(required(n), 0.f); }
  float attrFloat(const std::string& n, float def) const override { return node_.attrFloat(n, def); }
  std::string attrString(const std::string& n) const override { return node_.attrString(required(n), ""); }
  std::string attrString(const std::string& n, const std::string& def) const override {
    return node_.attrString(n, def);
  }
  std::vector<int64_t> attrInts(const std::string& n) const override { return node_.attrInts(required(n)); }
  std::vector<int64_t> attrInts(const std::string& n, const std::vector<int64_t>& def) const override {
    return node_.attrInts(n, def);
  }
  std::vector<float> attrFloats(const std::string& n) const override { return node_.attrFloats(required(n)); }
  std::vector<float> attrFloats(const std::string& n, const std::vector<float>& def) const override {
    return node_.attrFloats(n, def);
  }
  const Tensor* attrTensor(const std::string& n) const override { return node_.attrTensor(n); }

  [[noreturn]] void fail(const std::string& msg) const override { throw Error(failCode_, label_ + ": " + msg); }

 protected:
  const std::string& required(const std::string& n) const {
    if (!node_.hasAttr(n)) fail("attribute '" + n + "' is required");
    return n;
  }
  void checkInput(size_t i) const {
    if (!hasInput(i))
      fail("input " + std::to_string(i) + (i < node_.inputs.size() ? " is absent" : " does not exist (the node has " +
                                                                                        std::to_string(node_.inputs.size()) + ")"));
  }
  const Node& node_;
  int64_t opset_;
  std::string label_;
  ErrorCode failCode_;
};

class ShapeContext final : public NodeView<CustomShapeContext> {
 public:
  explicit ShapeContext(shape::InferContext& ctx)
      : NodeView(ctx.node(), ctx.opset(), ErrorCode::kShapeMismatch), ctx_(ctx) {}

  DataType inputType(size_t i) const override { return info(i).dtype; }
  bool inputHasShape(size_t i) const override { return info(i).hasShape; }
  const Shape& inputShape(size_t i) const override {
    const ValueInfo& v = info(i);
    if (!v.hasShape) fail("input " + std::to_string(i) + " ('" + node_.inputs[i] + "') has unknown rank");
    return v.shape;
  }
  const Tensor* inputValue(size_t i) const override { return hasInput(i) ? ctx_.inputValue(i) : nullptr; }
  bool atRunTime() const override { return ctx_.atRunTime_; }
  void setOutput(size_t i, DataType dtype, const Shape& shape) override {
    if (i >= node_.outputs.size())
      fail("setOutput(" + std::to_string(i) + "): the node has " + std::to_string(node_.outputs.size()) + " outputs");
    if (dtype == DataType::kUndefined) fail("setOutput(" + std::to_string(i) + "): no data type");
    ctx_.setOutput(i, dtype, shape);
  }
  Dim freshDim() override { return ctx_.freshDim(); }

  // After the function: every output the graph uses was set.
  void checkOutputsSet() const {
    for (size_t i = 0; i < node_.outputs.size(); ++i)
      if (hasOutput(i) && !ctx_.outputSet_[i])
        fail("the shape function set no type for output " + std::to_string(i) + " ('" + node_.outputs[i] + "')");
  }

 private:
  const ValueInfo& info(size_t i) const {
    checkInput(i);
    return ctx_.input(i);
  }
  shape::InferContext& ctx_;
};

class InitContext final : public NodeView<CustomKernelInit> {
 public:
  explicit InitContext(const KernelInit& init) : NodeView(init.node, init.opset, ErrorCode::kInvalidModel), init_(init) {}

  DataType inputType(size_t i) const override { return in(i).dtype; }
  const Shape& inputShape(size_t i) const override {
    const ValueInfo& v = in(i);
    if (!v.hasShape) fail("input " + std::to_string(i) + " has unknown rank");
    return v.shape;
  }
  DataType outputType(size_t i) const override { return out(i).dtype; }
  const Shape& outputShape(size_t i) const override {
    const ValueInfo& v = out(i);
    if (!v.hasShape) fail("output " + std::to_string(i) + " has unknown rank");
    return v.shape;
  }
  const Tensor* constantInput(size_t i) const override { return init_.constInput(i); }
  int threads() const override { return init_.threads(); }
  size_t requestScratch(size_t bytes, bool perThread) const override { return init_.requestScratch(bytes, perThread); }
  std::shared_ptr<const void> sharedObject(const std::string& key,
                                           const std::function<std::shared_ptr<const void>()>& make) const override {
    if (!init_.weights) return make();  // constant folding: no session to share with
    const std::string k = "custom-op\n" + node_.name + "\n" + key;
    if (auto found = init_.weights->find(k)) return found;
    init_.weights->insert(k, make());  // a concurrent maker's object may win: both are equal
    return init_.weights->find(k);
  }

 private:
  const ValueInfo& in(size_t i) const {
    if (i >= init_.inputs.size() || !init_.inputs[i]) checkInput(i), fail("input " + std::to_string(i) + " is absent");
    return *init_.inputs[i];
  }
  const ValueInfo& out(size_t i) const {
    if (i >= init_.outputs.size() || !init_.outputs[i]) fail("output " + std::to_string(i) + " is not used");
    return *init_.outputs[i];
  }
  const KernelInit& init_;
};

// The run-time context: made on the stack for each run (allocates nothing).
class RunContext final : public CustomKernelContext {
 public:
  RunContext(KernelContext& ctx, const std::string& label) : ctx_(ctx), label_(label) {}

  const std::string& nodeName() const override { return ctx_.node().name; }
  size_t numInputs() const override { return ctx_.numInputs(); }
  bool hasInput(size_t i) const override { return ctx_.hasInput(i); }
  const Tensor& input(size_t i) const override {
    if (!ctx_.hasInput(i)) fail("input " + std::to_string(i) + " is absent");
    return *ctx_.inputs_[i];
  }
  size_t numOutputs() const override { return ctx_.numOutputs(); }
  bool hasOutput(size_t i) const override { return ctx_.hasOutput(i); }
  Tensor& output(size_t i) override {
    if (!ctx_.hasOutput(i)) fail("output " + std::to_string(i) + " is not used");
    Tensor& t = *ctx_.outputs_[i];
    if (!t.defined())
      fail("output " + std::to_string(i) +
           " has no shape before the kernel runs (the shape function could not tell it): use allocateOutput");
    return t;
  }
  Tensor& allocateOutput(size_t i, const std::vector<int64_t>& shape) override {
    if (!ctx_.hasOutput(i)) fail("output " + std::to_string(i) + " is not used");
    return ctx_.allocateOutput(i, shape);
  }
  void parallelFor(int64_t n, RangeFn fn, int64_t grain) override {
    if (n <= 0) return;
    if (!ctx_.pool_) return fn(0, n);
    ctx_.pool_->parallelFor(n, fn, grain);
  }
  int threads() const override { return ctx_.pool_ ? ctx_.pool_->size() : 1; }
  int threadIndex() const override {
    const int t = ThreadPool::currentThread();
    return t < threads() ? t : 0;
  }
  void* scratch(size_t id) const override {
    if (id >= ctx_.scratch_.size()) fail("scratch request " + std::to_string(id) + " was never made");
    return ctx_.scratch_[id].mine();
  }
  [[noreturn]] void fail(const std::string& msg) const override {
    throw Error(ErrorCode::kInvalidArgument, label_ + ": " + msg);
  }

 private:
  KernelContext& ctx_;
  const std::string& label_;
};

class KernelAdapter final : public Kernel {
 public:
  KernelAdapter(std::unique_ptr<CustomKernel> k, const Node& node) : kernel_(std::move(k)), label_(nodeLabel(node)) {}
  void run(KernelContext& ctx) override {
    RunContext rc(ctx, label_);
    try {
      kernel_->run(rc);
    } catch (...) {
      rethrowForNode(ctx.node(), label_, "kernel");
    }
  }
  std::string algorithm() const override { return kernel_->algorithm(); }

 private:
  std::unique_ptr<CustomKernel> kernel_;
  std::string label_;
};

OpDef toOpDef(const CustomOp& op) {
  OpDef d;
  d.domain = op.domain;
  d.opType = op.opType;
  d.sinceVersion = op.sinceVersion;
  d.lastVersion = op.lastVersion == std::numeric_limits<int>::max() ? 0 : op.lastVersion;
  d.deterministic = op.deterministic;
  d.typedInput = -1;  // the shape function checks its own input types
  CustomShapeFn shapeFn = op.shape;
  d.shape = [shapeFn](shape::InferContext& ctx) {
    ShapeContext sc(ctx);
    try {
      shapeFn(sc);
    } catch (...) {
      rethrowForNode(ctx.node(), nodeLabel(ctx.node()), "shape function");
    }
    sc.checkOutputsSet();
  };
  CustomKernelFactory factory = op.kernel;
  d.cpu = [factory](const KernelInit& init) -> std::unique_ptr<Kernel> {
    InitContext ic(init);
    std::unique_ptr<CustomKernel> k;
    try {
      k = factory(ic);
    } catch (...) {
      rethrowForNode(init.node, nodeLabel(init.node), "kernel factory");
    }
    if (!k) ic.fail("the kernel factory returned no kernel");
    return std::make_unique<KernelAdapter>(std::move(k), init.node);
  };
  return d;
}

// One definition and where it came from, for conflict messages.
struct Sourced {
  const CustomOp* op;
  std::string origin;
};

std::string rangeText(const CustomOp& o) {
  return std::to_string(o.sinceVersion) + ".." +
         (o.lastVersion == std::numeric_limits<int>::max() ? std::string() : std::to_string(o.lastVersion));
}

// Checks `ops` against the built-in ops and each other; throws on the first conflict.
void checkConflicts(const std::vector<Sourced>& ops) {
  const Registry& builtin = builtinRegistry();
  for (size_t i = 0; i < ops.size(); ++i) {
    const CustomOp& a = *ops[i].op;
    const std::string name = CustomOpSet::qualifiedName(a.domain, a.opType);
    if (!a.overrideBuiltin && builtin.hasOp(a.domain, a.opType))
      throw Error(ErrorCode::kInvalidArgument, "custom op " + name + " (from " + ops[i].origin +
                                                   ") has the name of a built-in op; set CustomOp::overrideBuiltin "
                                                   "to replace the built-in one");
    for (size_t j = 0; j < i; ++j) {
      const CustomOp& b = *ops[j].op;
      if (b.domain == a.domain && b.opType == a.opType && b.sinceVersion <= a.lastVersion &&
          a.sinceVersion <= b.lastVersion)
        throw Error(ErrorCode::kInvalidArgument, "custom op " + name + " is registered twice: opsets " + rangeText(b) +
                                                     " (from " + ops[j].origin + ") and " + rangeText(a) + " (from " +
                                                     ops[i].origin + ")");
    }
  }
}

std::shared_ptr<const Registry> registryOver(std::shared_ptr<const Registry> base, const std::vector<Sourced>& ops) {
  auto r = std::make_shared<Registry>(std::move(base));
  for (const Sourced& s : ops) r->add(toOpDef(*s.op));
  return r;
}

std::shared_ptr<const Registry> builtinShared() {
  static const std::shared_ptr<const Registry> r(&builtinRegistry(), [](const Registry*) {});
  return r;
}

std::string originOf(const CustomOpSet& set, const std::string& fallback) {
  return set.origin().empty() ? fallback : "'" + set.origin() + "'";
}

struct GlobalOps {
  std::mutex mu;
  std::vector<std::pair<CustomOpSet, std::string>> sets;  // with their origins
  std::shared_ptr<const Registry> registry;               // null: the built-in one
};

GlobalOps& globalOps() {
  static GlobalOps* g = new GlobalOps();  // never destroyed: sessions may outlive static destruction
  return *g;
}

}  // namespace

std::shared_ptr<const Registry> globalRegistry() {
  GlobalOps& g = globalOps();
  std::lock_guard<std::mutex> lock(g.mu);
  return g.registry ? g.registry : builtinShared();
}

void registerGlobalCustomOps(const CustomOpSet& set) {
  GlobalOps& g = globalOps();
  std::lock_guard<std::mutex> lock(g.mu);
  std::vector<std::pair<CustomOpSet, std::string>> sets = g.sets;
  sets.emplace_back(set, originOf(set, "registerGlobalCustomOps call " + std::to_string(g.sets.size() + 1)));
  std::vector<Sourced> ops;
  for (const auto& [s, origin] : sets)
    for (const CustomOp& op : s.ops()) ops.push_back({&op, origin});
  checkConflicts(ops);
  g.registry = registryOver(builtinShared(), ops);
  g.sets = std::move(sets);
}

void clearGlobalCustomOps() {
  GlobalOps& g = globalOps();
  std::lock_guard<std::mutex> lock(g.mu);
  g.sets.clear();
  g.registry.reset();
}

std::shared_ptr<const Registry> sessionRegistry(const SessionOptions& options) {
  std::shared_ptr<const Registry> global = globalRegistry();
  if (options.customOps.empty() && options.customOpLibraries.empty()) return global;
  std::vector<std::pair<CustomOpSet, std::string>> sets;
  for (size_t k = 0; k < options.customOps.size(); ++k)
    sets.emplace_back(options.customOps[k],
                      originOf(options.customOps[k], "SessionOptions::customOps[" + std::to_string(k) + "]"));
  std::set<std::string> seen;  // one library named twice (or by two paths) counts once
  for (const std::string& path : options.customOpLibraries) {
    std::error_code ec;
    const std::string key = std::filesystem::weakly_canonical(path, ec).string();
    if (!seen.insert(ec ? path : key).second) continue;
    sets.emplace_back(loadCustomOpLibrary(path), "'" + path + "'");
  }
  std::vector<Sourced> ops;
  for (const auto& [s, origin] : sets)
    for (const CustomOp& op : s.ops()) ops.push_back({&op, origin});
  checkConflicts(ops);
  return registryOver(std::move(global), ops);
}

CustomOpSet loadCustomOpLibrary(const std::string& path) {
  namespace fs = std::filesystem;
  const std::string what = "custom op library '" + path + "'";
  if (path.empty()) throw Error(ErrorCode::kInvalidArgument, "custom op library: empty path");
  std::error_code ec;
  if (!fs::exists(path, ec)) throw Error(ErrorCode::kIO, what + ": no such file");
  if (fs::is_directory(path, ec)) throw Error(ErrorCode::kIO, what + ": is a directory");
  const std::string canonical = fs::canonical(path, ec).string();
  if (ec) throw Error(ErrorCode::kIO, what + ": " + ec.message());

  static std::mutex mu;
  static auto* loaded = new std::map<std::string, CustomOpSet>();  // by canonical path; never unloaded
  std::lock_guard<std::mutex> lock(mu);
  if (auto it = loaded->find(canonical); it != loaded->end()) return it->second;

  dlerror();
  void* handle = dlopen(canonical.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* why = dlerror();
    throw Error(ErrorCode::kIO, what + " cannot be loaded: " + (why ? why : "dlopen failed"));
  }
  using Entry = int (*)(oinfer_custom_ops_call*);
  auto entry = reinterpret_cast<Entry>(dlsym(handle, OINFER_CUSTOM_OPS_ENTRY_POINT));
  if (!entry) {
    dlclose(handle);
    throw Error(ErrorCode::kInvalidArgument, what + " does not export " OINFER_CUSTOM_OPS_ENTRY_POINT
                                                    " (define it with OINFER_CUSTOM_OPS_PLUGIN)");
  }
  // From here the library stays loaded even on failure: the set may hold
  // functions of its code until it is destroyed.
  CustomOpSet set(path);
  oinfer_custom_ops_call call{};
  call.host_abi = OINFER_CUSTOM_OPS_ABI_VERSION;
  call.ops = &set;
  const int rc = entry(&call);
  if (call.plugin_abi != OINFER_CUSTOM_OPS_ABI_VERSION)
    throw Error(ErrorCode::kInvalidArgument,
                what + " was built for custom-op ABI version " + std::to_string(call.plugin_abi) +
                    ", this oinfer has version " + std::to_string(OINFER_CUSTOM_OPS_ABI_VERSION) +
                    ": rebuild it against this oinfer's headers");
  if (rc != 0) {
    call.error[sizeof call.error - 1] = '\0';
    throw Error(ErrorCode::kInvalidArgument, what + ": registration failed: " +
                                                 (call.error[0] ? std::string(call.error) : "code " + std::to_string(rc)));
  }
  if (set.empty()) throw Error(ErrorCode::kInvalidArgument, what + " registered no ops");
  loaded->emplace(canonical, set);
  return set;
}

}  // namespace oinfer
