// After the first run with given shapes, Session::runInto allocates nothing on
// the heap (issue 4): counted by interposing the malloc family, while a flag
// is set, on every thread (pool workers included).
#include <gtest/gtest.h>

#include <execinfo.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <new>
#include <set>
#include <string>
#include <thread>

#include "passes/pass_util.h"
#include "model_test_util.h"
#include "ops/cpu/gemm/sgemm.h"
#include "ir_util.h"

// The malloc family is interposed (glibc's __libc_* do the work), so every
// heap allocation counts: operator new, aligned_alloc in kernels' scratch,
// and allocations inside the standard library alike.
// AddressSanitizer and ThreadSanitizer own the malloc family themselves; in
// those builds nothing is interposed and the counting tests are skipped.
// (GCC defines __SANITIZE_*; clang answers __has_feature.)
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define OINFER_COUNT_ALLOCS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define OINFER_COUNT_ALLOCS 0
#else
#define OINFER_COUNT_ALLOCS 1
#endif
#else
#define OINFER_COUNT_ALLOCS 1
#endif

extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void* __libc_memalign(std::size_t, std::size_t);
void __libc_free(void*);
}

namespace {
std::atomic<bool> gCounting{false};
std::atomic<long> gAllocations{0};
std::atomic<long> gLargeAllocations{0};  // of kLarge bytes or more
constexpr std::size_t kLarge = 32 << 10;
// OINFER_TRACE_ALLOCS=1 prints the stack of every counted allocation (to find
// the culprit when the count is not zero).
const bool gTrace = std::getenv("OINFER_TRACE_ALLOCS") != nullptr;
thread_local bool tInHook = false;
// An aligned allocation of exactly gWatchBytes (a Session's scratch block,
// allocLarge) is remembered, and whether it was freed.
std::atomic<std::size_t> gWatchBytes{0};
std::atomic<void*> gWatched{nullptr};
std::atomic<bool> gWatchedFreed{false};

void countOne(std::size_t bytes) {
  if (!gCounting.load(std::memory_order_relaxed) || tInHook) return;
  gAllocations.fetch_add(1, std::memory_order_relaxed);
  if (bytes >= kLarge) gLargeAllocations.fetch_add(1, std::memory_order_relaxed);
  if (gTrace) {
    tInHook = true;
    void* frames[24];
    int k = backtrace(frames, 24);
    backtrace_symbols_fd(frames, k, STDERR_FILENO);
    (void)!write(STDERR_FILENO, "----\n", 5);
    tInHook = false;
  }
}
}  // namespace

#if OINFER_COUNT_ALLOCS
extern "C" {
void* malloc(std::size_t n) {
  countOne(n);
  return __libc_malloc(n);
}
void* calloc(std::size_t a, std::size_t b) {
  countOne(a * b);
  return __libc_calloc(a, b);
}
void* realloc(void* p, std::size_t n) {
  countOne(n);
  return __libc_realloc(p, n);
}
void free(void* p) {
  if (p && p == gWatched.load(std::memory_order_relaxed)) gWatchedFreed = true;
  __libc_free(p);
}
void* aligned_alloc(std::size_t align, std::size_t n) {
  countOne(n);
  return __libc_memalign(align, n);
}
void* memalign(std::size_t align, std::size_t n) {
  countOne(n);
  return __libc_memalign(align, n);
}
int posix_memalign(void** out, std::size_t align, std::size_t n) {
  countOne(n);
  void* p = __libc_memalign(align, n);
  if (!p) return ENOMEM;
  if (n != 0 && n == gWatchBytes.load(std::memory_order_relaxed) && !gWatched.load()) {
    gWatched = p;
    gWatchedFreed = false;
  }
  *out = p;
  return 0;
}
}
#endif  // OINFER_COUNT_ALLOCS

namespace oinfer::modeltest {
namespace {

using passes::util::intAttr;
using passes::util::intsAttr;

long allocationsOfOneRun(Session& session, const TensorMap& in, std::vector<Tensor>& outs) {
  gAllocations = 0;
  gCounting = true;
  session.runInto(in, outs);
  gCounting = false;
  return gAllocations.load();
}

void checkNoAllocation(const std::string& name, int threads, int level) {
  if (!OINFER_COUNT_ALLOCS) GTEST_SKIP() << "sanitizer build: it owns malloc, so allocations cannot be counted";
  SCOPED_TRACE(name + ", " + std::to_string(threads) + " thread(s), optimizationLevel " + std::to_string(level));
  const auto sets = loadNumberedDataSets(name);
  ASSERT_FALSE(sets.empty());
  SessionOptions opts;
  opts.threads = threads;
  opts.optimizationLevel = level;
  Session session(Graph::loadFromONNX(modelPath(name)), opts);
  const TensorMap in = feeds(irOf(session.graph()), sets[0].inputs);
  std::vector<Tensor> outs;
  session.runInto(in, outs);  // plans, makes the context, allocates the outputs
  session.runInto(in, outs);
  EXPECT_EQ(allocationsOfOneRun(session, in, outs), 0) << "heap allocations in a warm Session::runInto";
  ASSERT_EQ(outs.size(), sets[0].outputs.size());
  for (size_t j = 0; j < outs.size(); ++j) EXPECT_TRUE(allClose(outs[j], sets[0].outputs[j], "output " + std::to_string(j)));
}

// Runs g on 1 and 2 threads: the passes make one `fusedOp` node, and the
// third runInto allocates nothing.
void checkFusedNoAllocation(const ir::Graph& g, const TensorMap& in, const char* fusedOp, bool blockedLayout = true,
                            size_t wantFused = 1) {
  for (int threads : {1, 2}) {
    SCOPED_TRACE(std::to_string(threads) + " thread(s)");
    SessionOptions opts;
    opts.threads = threads;
    opts.blockedLayout = blockedLayout;
    Session session(wrap(g), opts);
    size_t fused = 0;
    for (const Node& n : irOf(session.graph()).nodes) fused += n.opType == fusedOp;
    EXPECT_EQ(fused, wantFused);
    std::vector<Tensor> outs;
    session.runInto(in, outs);
    session.runInto(in, outs);
    EXPECT_EQ(allocationsOfOneRun(session, in, outs), 0) << "heap allocations in a warm Session::runInto";
  }
}

TEST(ZeroAllocation, CountingHookSeesAllocations) {
  if (!OINFER_COUNT_ALLOCS) GTEST_SKIP() << "sanitizer build: it owns malloc, so allocations cannot be counted";
  Tensor t;
  gAllocations = 0;
  gCounting = true;
  t = Tensor(DataType::kFloat, {16});
  gCounting = false;
  EXPECT_GT(gAllocations.load(), 0) << "the counting hook must see an ordinary allocation";
}

TEST(ZeroAllocation, WarmRunIntoResNet) {
  for (int threads : {1, 2})
    for (int level : {0, 1}) checkNoAllocation("resnet_bn", threads, level);
}

TEST(ZeroAllocation, WarmRunIntoMobileNetV2) {
  for (int threads : {1, 2}) checkNoAllocation("mobilenetv2", threads, 1);
}

TEST(ZeroAllocation, WarmRunIntoSrcnn) {
  for (const char* name : {"srcnn_fixed", "srcnn_fixed_opset11"}) checkNoAllocation(name, 2, 1);
}

TEST(ZeroAllocation, WarmRunIntoTransformerEncoder) {
  for (int threads : {1, 2})
    for (int level : {0, 1}) checkNoAllocation("transformer_encoder", threads, level);
}

// Tree ensembles score row blocks in planned per-thread scratch.
TEST(ZeroAllocation, WarmRunIntoTreeEnsembles) {
  for (const char* name : {"ml_rf_classifier", "ml_gb_regressor", "ml_xgb_classifier", "ml_lgbm_regressor"})
    for (int threads : {1, 2}) checkNoAllocation(name, threads, 1);
}

// MobileNetV2's second block head at full size (1x1 16->96 + Clip, then a
// 3x3 stride-2 depthwise + Clip on 112 x 112 planes): with the blocked
// layout off, one FusedConvDepthwise after the passes, whose per-thread bands
// are planned scratch; with it on (AVX-512), the two convs apart with the
// expanded tensor blocked.
TEST(ZeroAllocation, WarmRunIntoExpandDepthwise) {
  if (!OINFER_COUNT_ALLOCS) GTEST_SKIP() << "sanitizer build: it owns malloc, so allocations cannot be counted";
  ir::Graph g;
  g.opsetImports[""] = 13;
  g.inputs.push_back(ValueInfo{"x", ValueKind::kTensor, DataType::kFloat, true, {1, 16, 112, 112}});
  g.initializers["We"] = patterned({96, 16, 1, 1}, 0.05f);
  g.initializers["Wd"] = patterned({96, 1, 3, 3}, 0.1f);
  g.initializers["lo"] = Tensor::fromVector<float>({}, {0.f});
  g.initializers["hi"] = Tensor::fromVector<float>({}, {6.f});
  g.nodes.push_back(opNode("Conv", {"x", "We"}, {"e0"}));
  g.nodes.push_back(opNode("Clip", {"e0", "lo", "hi"}, {"e"}));
  Node dw = opNode("Conv", {"e", "Wd"}, {"d0"});
  dw.attributes = {intAttr("group", 96), intsAttr("strides", {2, 2}), intsAttr("pads", {1, 1, 1, 1})};
  g.nodes.push_back(dw);
  g.nodes.push_back(opNode("Clip", {"d0", "lo", "hi"}, {"y"}));
  g.outputs.push_back(ValueInfo{"y", ValueKind::kTensor, DataType::kFloat, false, {}});
  checkFusedNoAllocation(g, {{"x", patterned({1, 16, 112, 112}, 0.1f)}}, "FusedConvDepthwise", false);
  const bool avx512 = std::string(sgemmIsa()) == "avx512";
  checkFusedNoAllocation(g, {{"x", patterned({1, 16, 112, 112}, 0.1f)}}, "FusedConvDepthwise", true, avx512 ? 0 : 1);
}

// The blocked kernels of this layout (AVX-512): a 1x1 16->64, a 3x3 64->64
// on Winograd F(4x4) (its V / O in the step's planned scratch, its GEMMs on
// the workers), a blocked depthwise 3x3 (its padded band on the stack), a
// squeeze-and-excitation scale (a blocked Mul), a 1x1 64->16: after the first
// run, none allocates (five of the six convs take an activation and become
// FusedConv; the plan's strategies depend on the ISA, the count does not).
TEST(ZeroAllocation, WarmRunIntoBlockedWinogradAndDepthwise) {
  if (!OINFER_COUNT_ALLOCS) GTEST_SKIP() << "sanitizer build: it owns malloc, so allocations cannot be counted";
  ir::Graph g;
  g.opsetImports[""] = 13;
  g.inputs.push_back(ValueInfo{"x", ValueKind::kTensor, DataType::kFloat, true, {1, 16, 28, 28}});
  g.initializers["W1"] = patterned({64, 16, 1, 1}, 0.05f);
  g.initializers["W2"] = patterned({64, 64, 3, 3}, 0.02f);
  g.initializers["Wd"] = patterned({64, 1, 3, 3}, 0.1f);
  g.initializers["Wf1"] = patterned({16, 64, 1, 1}, 0.05f);
  g.initializers["Wf2"] = patterned({64, 16, 1, 1}, 0.05f);
  g.initializers["W3"] = patterned({16, 64, 1, 1}, 0.05f);
  g.nodes.push_back(opNode("Conv", {"x", "W1"}, {"a0"}));
  g.nodes.push_back(opNode("Relu", {"a0"}, {"a"}));
  Node c2 = opNode("Conv", {"a", "W2"}, {"b0"});
  c2.attributes = {intsAttr("pads", {1, 1, 1, 1})};
  g.nodes.push_back(c2);
  g.nodes.push_back(opNode("Relu", {"b0"}, {"b"}));
  Node dw = opNode("Conv", {"b", "Wd"}, {"d0"});
  dw.attributes = {intAttr("group", 64), intsAttr("pads", {1, 1, 1, 1})};
  g.nodes.push_back(dw);
  g.nodes.push_back(opNode("Relu", {"d0"}, {"d"}));
  g.nodes.push_back(opNode("GlobalAveragePool", {"d"}, {"gp"}));
  g.nodes.push_back(opNode("Conv", {"gp", "Wf1"}, {"f0"}));
  g.nodes.push_back(opNode("Relu", {"f0"}, {"f1"}));
  g.nodes.push_back(opNode("Conv", {"f1", "Wf2"}, {"f2"}));
  g.nodes.push_back(opNode("Sigmoid", {"f2"}, {"s"}));
  g.nodes.push_back(opNode("Mul", {"d", "s"}, {"m"}));
  g.nodes.push_back(opNode("Conv", {"m", "W3"}, {"y"}));
  g.outputs.push_back(ValueInfo{"y", ValueKind::kTensor, DataType::kFloat, false, {}});
  checkFusedNoAllocation(g, {{"x", patterned({1, 16, 28, 28}, 0.1f)}}, "FusedConv", true, 5);
}

// A SqueezeNet stem at full size (3x3 stride-2 Conv 3->64 + Relu, then a
// 3x3 stride-2 MaxPool): one FusedConvMaxPool after the passes, whose
// per-thread bands and input phase copy are planned scratch (without
// AVX-512, the Conv apart on weights packed once).
TEST(ZeroAllocation, WarmRunIntoStemMaxPool) {
  if (!OINFER_COUNT_ALLOCS) GTEST_SKIP() << "sanitizer build: it owns malloc, so allocations cannot be counted";
  ir::Graph g;
  g.opsetImports[""] = 13;
  g.inputs.push_back(ValueInfo{"x", ValueKind::kTensor, DataType::kFloat, true, {1, 3, 224, 224}});
  g.initializers["W"] = patterned({64, 3, 3, 3}, 0.05f);
  g.initializers["B"] = patterned({64}, 0.1f);
  Node c = opNode("Conv", {"x", "W", "B"}, {"s0"});
  c.attributes = {intsAttr("strides", {2, 2})};
  g.nodes.push_back(c);
  g.nodes.push_back(opNode("Relu", {"s0"}, {"s"}));
  Node p = opNode("MaxPool", {"s"}, {"y"});
  p.attributes = {intsAttr("kernel_shape", {3, 3}), intsAttr("strides", {2, 2}), intAttr("ceil_mode", 1)};
  g.nodes.push_back(p);
  g.outputs.push_back(ValueInfo{"y", ValueKind::kTensor, DataType::kFloat, false, {}});
  checkFusedNoAllocation(g, {{"x", patterned({1, 3, 224, 224}, 0.1f)}}, "FusedConvMaxPool");
}

// runInto reuses the caller's buffers; run() never hands out one the caller
// still holds.
TEST(ZeroAllocation, RunIntoWritesIntoTheCallersBuffers) {
  const auto sets = loadNumberedDataSets("resnet_bn");
  Session session(Graph::loadFromONNX(modelPath("resnet_bn")));
  const TensorMap in = feeds(irOf(session.graph()), sets[0].inputs);
  std::vector<Tensor> outs;
  session.runInto(in, outs);
  const void* before = outs[0].data();
  session.runInto(in, outs);
  EXPECT_EQ(outs[0].data(), before);
  auto fresh = session.run(in);
  EXPECT_NE(fresh[0].data(), before);
  EXPECT_TRUE(allClose(outs[0], fresh[0], "runInto vs run"));
}

// x (batch x 16 x 32 x 32, 64 KB an image) -> Relu -> y.
ir::Graph reluGraph(Dim batch) {
  ir::Graph g;
  g.opsetImports[""] = 13;
  g.inputs.push_back(ValueInfo{"x", ValueKind::kTensor, DataType::kFloat, true, {batch, 16, 32, 32}});
  g.nodes.push_back(opNode("Relu", {"x"}, {"y"}));
  g.outputs.push_back(ValueInfo{"y", ValueKind::kTensor, DataType::kFloat, false, {}});
  return g;
}

// run() keeps the output buffers it hands out and writes a later run's
// outputs into one the caller has released, never into one still held: the
// usual `outs = session.run(in)` loop alternates between two buffers, and
// results the caller keeps are not overwritten by later runs.
TEST(ZeroAllocation, RunReusesOutputsTheCallerReleased) {
  const ir::Graph g = reluGraph(1);
  Session session(wrap(g));
  const Tensor x1 = patterned({1, 16, 32, 32}, 0.1f), x2 = patterned({1, 16, 32, 32}, -0.2f);
  auto relu = [](const Tensor& x) {
    Tensor y(DataType::kFloat, x.shape());
    for (int64_t i = 0; i < x.numel(); ++i) y.data<float>()[i] = std::max(0.f, x.data<float>()[i]);
    return y;
  };
  const Tensor y1 = relu(x1), y2 = relu(x2);
  const TensorMap in1 = {{"x", x1}}, in2 = {{"x", x2}};

  std::vector<Tensor> a = session.run(in1);
  std::vector<Tensor> b = session.run(in2);  // a is held: b gets another buffer
  ASSERT_EQ(a.size(), 1u);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_NE(a[0].data(), b[0].data());
  EXPECT_TRUE(allClose(a[0], y1, "first run, after the second"));
  EXPECT_TRUE(allClose(b[0], y2, "second run"));

  const void* released = a[0].data();
  a.clear();
  std::vector<Tensor> c = session.run(in1);  // a's buffer is free again
  EXPECT_EQ(c[0].data(), released);
  EXPECT_TRUE(allClose(c[0], y1, "third run, into the released buffer"));
  EXPECT_TRUE(allClose(b[0], y2, "second run, after the third"));

  // The usual loop: the last run's outputs are still held while the next
  // runs, so it alternates between the two kept buffers.
  b.clear();
  c.clear();
  std::set<const void*> seen;
  std::vector<Tensor> outs;
  long large = 0;
  for (int i = 0; i < 6; ++i) {
    gLargeAllocations = 0;
    gCounting = true;
    outs = session.run(i % 2 ? in2 : in1);
    gCounting = false;
    if (i >= 2) large += gLargeAllocations.load();
    seen.insert(outs[0].data());
    EXPECT_TRUE(allClose(outs[0], i % 2 ? y2 : y1, "loop run " + std::to_string(i)));
  }
  EXPECT_EQ(seen.size(), 2u);
  if (OINFER_COUNT_ALLOCS) EXPECT_EQ(large, 0) << "a warm run() allocated its 64 KB output afresh";
}

// A batch dim that changes between runs: a kept buffer serves any output of
// about its size, and one left unused by a shape change is replaced.
TEST(ZeroAllocation, RunKeptOutputsFollowShapeChanges) {
  const ir::Graph g = reluGraph(Dim::sym("N"));
  Session session(wrap(g));
  auto input = [](int64_t n) { return patterned({n, 16, 32, 32}, n % 2 ? 0.1f : -0.3f); };
  auto check = [](const Tensor& x, const Tensor& y, const std::string& what) {
    ASSERT_EQ(y.shape(), x.shape()) << what;
    for (int64_t k = 0; k < x.numel(); ++k)
      ASSERT_EQ(y.data<float>()[k], std::max(0.f, x.data<float>()[k])) << what << ", element " << k;
  };
  const Tensor x1 = input(1), x2 = input(2), x4 = input(4), x8 = input(8);
  check(x1, session.run({{"x", x1}})[0], "N=1");  // kept: 64 KB, released at once
  std::vector<Tensor> r4 = session.run({{"x", x4}});  // 256 KB: a second kept buffer
  check(x4, r4[0], "N=4");
  const void* big = r4[0].data();
  r4.clear();
  std::vector<Tensor> r2 = session.run({{"x", x2}});  // 128 KB fits the released 256 KB one
  EXPECT_EQ(r2[0].data(), big);
  check(x2, r2[0], "N=2");
  std::vector<Tensor> r8 = session.run({{"x", x8}});  // r2 is held: the 64 KB one is replaced
  EXPECT_NE(r8[0].data(), r2[0].data());
  check(x8, r8[0], "N=8");
  check(x2, r2[0], "N=2, after N=8");
  const void* biggest = r8[0].data();
  r8.clear();
  std::vector<Tensor> again = session.run({{"x", x8}});
  EXPECT_EQ(again[0].data(), biggest);
  check(x8, again[0], "N=8 again");
}

// Several threads calling run() on one session at once: each gets buffers
// no other call is writing, and its results stay intact while it holds them.
TEST(ZeroAllocation, RunKeptOutputsUnderConcurrentRuns) {
  const ir::Graph g = reluGraph(1);
  SessionOptions opts;
  opts.threads = 2;
  Session session(wrap(g), opts);
  constexpr int kThreads = 4, kIterations = 50;
  std::vector<std::string> failures(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      const Tensor x = patterned({1, 16, 32, 32}, 0.1f * float(t + 1));
      const TensorMap in = {{"x", x}};
      std::vector<Tensor> previous;
      for (int i = 0; i < kIterations && failures[t].empty(); ++i) {
        std::vector<Tensor> outs = session.run(in);
        // This call's result and the one before it (still held) are both intact.
        for (const std::vector<Tensor>* o : {&outs, &previous}) {
          if (o->empty()) continue;
          const float* y = (*o)[0].data<float>();
          for (int64_t k = 0; k < x.numel(); ++k)
            if (y[k] != std::max(0.f, x.data<float>()[k])) {
              failures[t] = "thread " + std::to_string(t) + ", run " + std::to_string(i) + ": element " +
                            std::to_string(k) + " is " + std::to_string(y[k]);
              break;
            }
        }
        previous = std::move(outs);
      }
    });
  for (auto& th : threads) th.join();
  for (const std::string& f : failures) EXPECT_TRUE(f.empty()) << f;
}

// The kernels' scratch is one block of the execution context, of the size
// the memory figures report: made by the first run, kept by later runs, and
// freed with the Session. (A MatMul by a constant [768, 768] on 130 rows:
// its GEMM packs A whole, 132 x 768 floats on 2 threads whatever the
// micro-kernel's rows, a size no other buffer of this plan has.)
TEST(ZeroAllocation, ScratchBlockIsFreedWithTheSession) {
  if (!OINFER_COUNT_ALLOCS) GTEST_SKIP() << "sanitizer build: it owns malloc, so allocations cannot be watched";
  const int threads = 2;
  ir::Graph g;
  g.opsetImports[""] = 13;
  g.inputs.push_back(ValueInfo{"a", ValueKind::kTensor, DataType::kFloat, true, {130, 768}});
  g.initializers["B"] = patterned({768, 768}, 0.01f);
  g.nodes.push_back(opNode("MatMul", {"a", "B"}, {"y"}));
  g.outputs.push_back(ValueInfo{"y", ValueKind::kTensor, DataType::kFloat, false, {}});
  const ScratchNeed need = gemmScratch(130, 768, 768, false, true, threads);  // FusedMatMul's
  const size_t bytes = (need.shared + 63) / 64 * 64 + (need.perThread + 63) / 64 * 64 * threads;
  ASSERT_GT(bytes, 0u);
  gWatched = nullptr;
  gWatchedFreed = false;
  gWatchBytes = bytes;
  SessionOptions opts;
  opts.threads = threads;
  auto session = std::make_unique<Session>(wrap(g), opts);
  const TensorMap in = {{"a", patterned({130, 768}, 0.1f)}};
  std::vector<Tensor> outs;
  session->runInto(in, outs);
  session->runInto(in, outs);
  gWatchBytes = 0;
  EXPECT_EQ(session->memoryStats().scratchBytes, bytes);
  ASSERT_NE(gWatched.load(), nullptr) << "no block of the reported scratch size was allocated";
  EXPECT_FALSE(gWatchedFreed.load()) << "the scratch block was freed while the Session lives";
  session.reset();
  EXPECT_TRUE(gWatchedFreed.load()) << "the scratch block outlived the Session";
  gWatched = nullptr;
}

}  // namespace
}  // namespace oinfer::modeltest
