// The blocked layout NCHW16c (SessionOptions::blockedLayout,
// runtime::assignBlockedLayouts): a SqueezeNet-like block on odd planes run
// with the layout on and off (and with no passes at all) must agree; the plan
// must keep exactly the tensors the rules allow blocked (produced and read by
// kernels that take the layout, channels a multiple of 16, not results), on
// odd and aligned planes alike; a kernel given the layout where it cannot
// take it refuses with the reason.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>
#include <set>

#include "passes/pass_util.h"
#include "ops/cpu/gemm/sgemm.h"
#include "ops/kernel.h"
#include "ops/registry.h"
#include "oinfer/oinfer.h"
#include "graph_builders.h"
#include "ir_util.h"

using namespace oinfer;

namespace {

using test::mk;
using test::rndT;

// Conv (W_name [M, C / group, k, k], bias, pad k / 2, stride, group)
// [+ residual] + Relu.
void conv(ir::Graph& g, std::mt19937& rng, const std::string& name, const std::string& in, int64_t c, int64_t m,
          int64_t k, const std::string& out, const std::string& residual = "", int64_t stride = 1,
          int64_t group = 1) {
  // Weights scaled by 1 / sqrt(fan-in), so activations stay near 1 through
  // the chain and the tolerance means the same at every depth.
  Tensor w = rndT({m, c / group, k, k}, rng);
  const float scale = 1.f / std::sqrt(float(c / group * k * k));
  for (int64_t i = 0; i < w.numel(); ++i) w.data<float>()[i] *= scale;
  g.initializers[name + ".W"] = w;
  g.initializers[name + ".B"] = rndT({m}, rng);
  Node n = mk("Conv", name, {in, name + ".W", name + ".B"}, {name + ".c"});
  n.attributes.push_back(passes::util::intsAttr("pads", {k / 2, k / 2, k / 2, k / 2}));
  if (stride != 1) n.attributes.push_back(passes::util::intsAttr("strides", {stride, stride}));
  if (group != 1) n.attributes.push_back(passes::util::intAttr("group", group));
  g.nodes.push_back(n);
  std::string pre = name + ".c";
  if (!residual.empty()) {
    g.nodes.push_back(mk("Add", name + ".add", {pre, residual}, {name + ".a"}));
    pre = name + ".a";
  }
  g.nodes.push_back(mk("Relu", name + ".relu", {pre}, {out}));
}

// x [1, 16, H, H] -> conv0 3x3 16->32 -> s0 -> MaxPool 3x3/2 (ceil) -> p
// -> squeeze 1x1 32->16 -> q -> expand1x1 16->32 -> e1, expand3x3 16->32 -> e3
// -> Concat -> cat [64] -> 1x1 64->64 + cat -> r -> 3x3 64->48 -> y (output);
// q -> GlobalAveragePool -> gap, GlobalMaxPool -> gmp (outputs)
ir::Graph fireGraph(int64_t H, int64_t N = 1) {
  std::mt19937 rng(7);
  ir::Graph g;
  g.opsetImports[""] = 13;
  g.inputs.push_back(ValueInfo{"x", ValueKind::kTensor, DataType::kFloat, true, {N, 16, H, H}});
  conv(g, rng, "conv0", "x", 16, 32, 3, "s0");
  Node p = mk("MaxPool", "pool", {"s0"}, {"p"});
  p.attributes.push_back(passes::util::intsAttr("kernel_shape", {3, 3}));
  p.attributes.push_back(passes::util::intsAttr("strides", {2, 2}));
  p.attributes.push_back(passes::util::intAttr("ceil_mode", 1));
  g.nodes.push_back(p);
  conv(g, rng, "squeeze", "p", 32, 16, 1, "q");
  conv(g, rng, "expand1x1", "q", 16, 32, 1, "e1");
  conv(g, rng, "expand3x3", "q", 16, 32, 3, "e3");
  Node cat = mk("Concat", "cat", {"e1", "e3"}, {"cat"});
  cat.attributes.push_back(passes::util::intAttr("axis", 1));
  g.nodes.push_back(cat);
  conv(g, rng, "res", "cat", 64, 64, 1, "r", "cat");
  conv(g, rng, "head", "r", 64, 48, 3, "y");
  g.nodes.push_back(mk("GlobalAveragePool", "gap", {"q"}, {"gap"}));
  g.nodes.push_back(mk("GlobalMaxPool", "gmp", {"q"}, {"gmp"}));
  g.outputs.push_back(ValueInfo{"y", ValueKind::kTensor, DataType::kFloat, false, {}});
  g.outputs.push_back(ValueInfo{"gap", ValueKind::kTensor, DataType::kFloat, false, {}});
  g.outputs.push_back(ValueInfo{"gmp", ValueKind::kTensor, DataType::kFloat, false, {}});
  return g;
}

std::set<std::string> blockedTensors(const PlanInfo& plan) {
  std::set<std::string> out;
  for (const PlanStep& s : plan.steps)
    for (size_t j = 0; j < s.outputs.size() && j < s.outputLayouts.size(); ++j)
      if (s.outputLayouts[j] == "NCHW16c") out.insert(s.outputs[j]);
  return out;
}

void expectClose(const std::vector<Tensor>& a, const std::vector<Tensor>& b, const std::string& what) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t k = 0; k < a.size(); ++k) {
    ASSERT_EQ(a[k].shape(), b[k].shape()) << what << " output " << k;
    for (int64_t i = 0; i < a[k].numel(); ++i) {
      const float e = a[k].data<float>()[i], v = b[k].data<float>()[i];
      ASSERT_LE(std::fabs(v - e), 1e-4f + 1e-4f * std::fabs(e)) << what << " output " << k << " element " << i;
    }
  }
}

bool avx512() { return std::string(sgemmIsa()) == "avx512"; }

// A graph with one input x [xs] and one output y: the plan blocks exactly
// `want` (on AVX-512; nothing elsewhere) and the run agrees with no passes.
void expectBlockedRun(ir::Graph g, const std::vector<int64_t>& xs, const std::set<std::string>& want, uint32_t seed,
                      const std::string& what) {
  g.opsetImports[""] = 13;
  g.inputs.insert(g.inputs.begin(),
                  ValueInfo{"x", ValueKind::kTensor, DataType::kFloat, true, std::vector<Dim>(xs.begin(), xs.end())});
  g.outputs.push_back(ValueInfo{"y", ValueKind::kTensor, DataType::kFloat, false, {}});
  SessionOptions none, on;
  none.optimizationLevel = 0;
  Session plain(wrap(g), none), s(wrap(g), on);
  EXPECT_EQ(blockedTensors(s.plan({{"x", xs}})), avx512() ? want : std::set<std::string>{}) << what;
  std::mt19937 rng(seed);
  const Tensor x = rndT(xs, rng);
  expectClose(plain.run({{"x", x}}), s.run({{"x", x}}), what);
}

}  // namespace

TEST(BlockedLayout, FireBlockOnOddPlanes) {
  const int64_t H = 15;  // 225 pixels, the pooled plane 7x7: neither a multiple of 16
  const ir::Graph g = fireGraph(H);
  std::mt19937 rng(3);
  const Tensor x = rndT({1, 16, H, H}, rng);
  SessionOptions none, off, on;
  none.optimizationLevel = 0;
  off.blockedLayout = false;
  Session plain(wrap(g), none), nchw(wrap(g), off), blocked(wrap(g), on);
  const auto want = plain.run({{"x", x}});
  const auto a = nchw.run({{"x", x}});
  const auto b = blocked.run({{"x", x}});
  const auto again = blocked.run({{"x", x}});  // the same plan and buffers once more
  expectClose(want, a, "layout off");
  expectClose(want, b, "layout on");
  for (size_t k = 0; k < b.size(); ++k)
    for (int64_t i = 0; i < b[k].numel(); ++i) ASSERT_EQ(b[k].data<float>()[i], again[k].data<float>()[i]);

  const std::map<std::string, std::vector<int64_t>> shapes{{"x", {1, 16, H, H}}};
  EXPECT_TRUE(blockedTensors(nchw.plan(shapes)).empty());
  EXPECT_TRUE(blockedTensors(plain.plan(shapes)).empty()) << "optimizationLevel 0 keeps NCHW";
  if (!avx512()) {
    EXPECT_TRUE(blockedTensors(blocked.plan(shapes)).empty()) << "the channel-vector kernel needs AVX-512";
    return;
  }
  // s0 (a MaxPool's input, tied to its output) and p; q (read by the
  // expands and the global pools); e1 and e3 (pieces of an in-place
  // Concat, tied to it), cat (also the residual of res, tied to r) and r
  // (read by the 3x3 head). Not y, gap and gmp: results.
  EXPECT_EQ(blockedTensors(blocked.plan(shapes)), (std::set<std::string>{"s0", "p", "q", "e1", "e3", "cat", "r"}));
}

TEST(BlockedLayout, AlignedPlanesToo) {
  // 16x16 planes (pooled 8x8): whole cache lines per channel; the layout
  // still keeps a tile's input pixels in whole lines.
  const ir::Graph g = fireGraph(16);
  SessionOptions on;
  Session s(wrap(g), on);
  if (avx512())
    EXPECT_EQ(blockedTensors(s.plan({{"x", {1, 16, 16, 16}}})),
              (std::set<std::string>{"s0", "p", "q", "e1", "e3", "cat", "r"}));
  std::mt19937 rng(4);
  const Tensor x = rndT({1, 16, 16, 16}, rng);
  SessionOptions none;
  none.optimizationLevel = 0;
  Session plain(wrap(g), none);
  expectClose(plain.run({{"x", x}}), s.run({{"x", x}}), "aligned planes");
}

TEST(BlockedLayout, BatchOfTwo) {
  // Two images: the Concat is no longer planned in place (its pieces are not
  // contiguous), so its pieces stay NCHW; the pool's input and output and
  // the squeeze's output do not.
  const ir::Graph g = fireGraph(13, 2);
  std::mt19937 rng(5);
  const Tensor x = rndT({2, 16, 13, 13}, rng);
  SessionOptions none, on;
  none.optimizationLevel = 0;
  Session plain(wrap(g), none), blocked(wrap(g), on);
  expectClose(plain.run({{"x", x}}), blocked.run({{"x", x}}), "batch 2");
  if (avx512()) EXPECT_EQ(blockedTensors(blocked.plan({{"x", {2, 16, 13, 13}}})), (std::set<std::string>{"s0", "p", "q"}));
}

TEST(BlockedLayout, StridedConvsReadIt) {
  // ResNet's stage boundary: x -> 3x3 16->32 -> a -> 3x3 stride 2 32->32 ->
  // b, a -> 1x1 stride 2 32->32 (the downsample) -> d; b -> 1x1 32->32 + d
  // -> r -> GlobalAveragePool -> y. Every intermediate is blocked: the
  // strided convs read a at every other pixel, the pool reads r.
  std::mt19937 rng(9);
  ir::Graph g;
  conv(g, rng, "c1", "x", 16, 32, 3, "a");
  conv(g, rng, "c2", "a", 32, 32, 3, "b", "", 2);
  conv(g, rng, "ds", "a", 32, 32, 1, "d", "", 2);
  conv(g, rng, "c3", "b", 32, 32, 1, "r", "d");
  g.nodes.push_back(mk("GlobalAveragePool", "gap", {"r"}, {"y"}));
  expectBlockedRun(g, {1, 16, 14, 14}, {"a", "b", "d", "r"}, 10, "strided");
}

TEST(BlockedLayout, WinogradReadsAndWritesIt) {
  // A ResNet bottleneck: x -> 1x1 16->64 -> a -> 3x3 64->64 (Winograd
  // F(4x4) on AVX-512: input gathered by plain loads, output stored whole)
  // -> b -> 1x1 64->64 + a -> r; then 3x3 256->256 over the 14x14 plane
  // pooled from r's expansion (F(2x2): 9 MiB of F(4x4) weights) -> y.
  std::mt19937 rng(12);
  ir::Graph g;
  conv(g, rng, "c1", "x", 16, 64, 1, "a");
  conv(g, rng, "c2", "a", 64, 64, 3, "b");
  conv(g, rng, "c3", "b", 64, 64, 1, "r", "a");
  conv(g, rng, "c4", "r", 64, 256, 1, "e");
  Node p = mk("MaxPool", "pool", {"e"}, {"p"});
  p.attributes.push_back(passes::util::intsAttr("kernel_shape", {2, 2}));
  p.attributes.push_back(passes::util::intsAttr("strides", {2, 2}));
  g.nodes.push_back(p);
  conv(g, rng, "c5", "p", 256, 256, 3, "y");
  expectBlockedRun(g, {1, 16, 28, 28}, {"a", "b", "r", "e", "p"}, 13, "winograd");
}

TEST(BlockedLayout, DepthwiseAndChannelScaleTakeIt) {
  // An inverted-residual block with squeeze-and-excitation (EfficientNet's):
  // x -> 1x1 16->32 -> e -> depthwise 5x5 stride 2 -> d -> GlobalAveragePool
  // -> 1x1 32->8 -> 1x1 8->32 -> Sigmoid -> s; d * s -> m -> 1x1 32->32 -> r
  // -> depthwise 3x3 + r (a fused residual) -> q -> 1x1 32->16 -> y. The
  // depthwise convs and the per-channel Mul keep e, d, m, r and q blocked;
  // the scale s stays NCHW.
  std::mt19937 rng(14);
  ir::Graph g;
  conv(g, rng, "c1", "x", 16, 32, 1, "e");
  conv(g, rng, "dw1", "e", 32, 32, 5, "d", "", 2, 32);
  g.nodes.push_back(mk("GlobalAveragePool", "gap", {"d"}, {"gp"}));
  conv(g, rng, "fc1", "gp", 32, 8, 1, "f1");
  conv(g, rng, "fc2", "f1", 8, 32, 1, "f2");
  g.nodes.push_back(mk("Sigmoid", "sig", {"f2"}, {"s"}));
  g.nodes.push_back(mk("Mul", "scale", {"d", "s"}, {"m"}));
  conv(g, rng, "c3", "m", 32, 32, 1, "r");
  conv(g, rng, "dw2", "r", 32, 32, 3, "q", "r", 1, 32);
  conv(g, rng, "c4", "q", 32, 16, 1, "y");
  expectBlockedRun(g, {1, 16, 15, 15}, {"e", "d", "m", "r", "q"}, 15, "depthwise");
}

TEST(BlockedLayout, FewOutputsKeepTheirInputNchw) {
  // x -> 3x3 16->32 -> a -> 5x5 32->3 -> y: the second conv's 3 outputs
  // would fill 3 of the channel-vector kernel's 32 lanes, so it does not
  // take the blocked layout and a stays NCHW (SRCNN's last layer ran 1.7x
  // slower forced onto that kernel).
  std::mt19937 rng(8);
  ir::Graph g;
  conv(g, rng, "c1", "x", 16, 32, 3, "a");
  conv(g, rng, "c2", "a", 32, 3, 5, "y");
  expectBlockedRun(g, {1, 16, 13, 13}, {}, 11, "few outputs");
}

// A kernel told its tensors are blocked where it cannot take them refuses
// at plan time, naming the node (the runtime never does this: it asks
// OpDef::blocked first).
TEST(BlockedLayout, KernelRefusesLayoutItCannotTake) {
  Node n = mk("Conv", "grouped", {"x", "W"}, {"y"});
  n.attributes.push_back(passes::util::intAttr("group", 2));
  ValueInfo xi{"x", ValueKind::kTensor, DataType::kFloat, true, {1, 32, 9, 9}};
  ValueInfo wi{"W", ValueKind::kTensor, DataType::kFloat, true, {32, 16, 1, 1}};
  ValueInfo yi{"y", ValueKind::kTensor, DataType::kFloat, true, {1, 32, 9, 9}};
  std::mt19937 rng(6);
  const Tensor w = rndT({32, 16, 1, 1}, rng);
  const OpDef* def = builtinRegistry().find("", "Conv", 13);
  ASSERT_NE(def, nullptr);
  ASSERT_TRUE(def->blocked);
  KernelInit init{n, 13, {&xi, &wi}, {nullptr, &w}, {&yi}};
  const BlockedSupport sup = def->blocked(init);
  EXPECT_EQ(sup.read, 0u) << "a grouped conv reads NCHW only";
  EXPECT_EQ(sup.write, 0u);
  init.blockedIn = {1, 0};
  try {
    def->cpu(init);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("grouped"), std::string::npos) << msg;
    EXPECT_NE(msg.find("planned in the blocked layout, but neither the channel-vector kernel, Winograd nor the "
                       "blocked depthwise kernel applies"),
              std::string::npos)
        << msg;
  }
}

// Mul takes the layout only as a per-channel scale of a 4-d tensor; told
// otherwise, it refuses at plan time with the reason.
TEST(BlockedLayout, MulTakesItOnlyAsAChannelScale) {
  ValueInfo xi{"x", ValueKind::kTensor, DataType::kFloat, true, {1, 32, 9, 9}};
  ValueInfo si{"s", ValueKind::kTensor, DataType::kFloat, true, {1, 32, 1, 1}};
  ValueInfo full{"t", ValueKind::kTensor, DataType::kFloat, true, {1, 32, 9, 9}};
  ValueInfo yi{"y", ValueKind::kTensor, DataType::kFloat, true, {1, 32, 9, 9}};
  const OpDef* def = builtinRegistry().find("", "Mul", 14);
  ASSERT_NE(def, nullptr);
  ASSERT_TRUE(def->blocked);
  {
    Node n = mk("Mul", "scale", {"s", "x"}, {"y"});
    KernelInit init{n, 14, {&si, &xi}, {nullptr, nullptr}, {&yi}};
    const BlockedSupport sup = def->blocked(init);
    EXPECT_EQ(sup.write, 1u);
    EXPECT_EQ(sup.tied, 2u) << "the scaled tensor is input 1";
  }
  Node n = mk("Mul", "product", {"x", "t"}, {"y"});
  KernelInit init{n, 14, {&xi, &full}, {nullptr, nullptr}, {&yi}};
  const BlockedSupport sup = def->blocked(init);
  EXPECT_EQ(sup.write, 0u) << "an element-wise product of two planes";
  init.blockedIn = {1, 0};
  init.blockedOut = {1};
  try {
    def->cpu(init);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("product"), std::string::npos) << msg;
    EXPECT_NE(msg.find("not a per-channel scale of a 4-d tensor"), std::string::npos) << msg;
  }
}

// MaxPool with an Indices output takes NCHW only; its input stays NCHW.
TEST(BlockedLayout, MaxPoolWithIndicesStaysNchw) {
  Node n = mk("MaxPool", "pool", {"x"}, {"y", "i"});
  n.attributes.push_back(passes::util::intsAttr("kernel_shape", {3, 3}));
  ValueInfo xi{"x", ValueKind::kTensor, DataType::kFloat, true, {1, 32, 9, 9}};
  ValueInfo yi{"y", ValueKind::kTensor, DataType::kFloat, true, {1, 32, 7, 7}};
  ValueInfo ii{"i", ValueKind::kTensor, DataType::kInt64, true, {1, 32, 7, 7}};
  const OpDef* def = builtinRegistry().find("", "MaxPool", 13);
  ASSERT_NE(def, nullptr);
  ASSERT_TRUE(def->blocked);
  KernelInit withIdx{n, 13, {&xi}, {nullptr}, {&yi, &ii}};
  EXPECT_EQ(def->blocked(withIdx).write, 0u);
  KernelInit plain{n, 13, {&xi}, {nullptr}, {&yi, nullptr}};
  const BlockedSupport sup = def->blocked(plain);
  EXPECT_EQ(sup.write, 1u);
  EXPECT_EQ(sup.tied, 1u);
}
