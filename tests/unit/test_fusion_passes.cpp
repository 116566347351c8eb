// fuseConvActivation: each pattern on a small graph, run with the passes off
// (optimizationLevel 0) and on (1); the outputs must agree and the graph must
// have the expected number of nodes. Negative cases check that a chain whose
// intermediate is read elsewhere, or a broadcasting Add, is left alone.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "passes/pass_util.h"
#include "passes/passes.h"
#include "ops/cpu/gemm/sgemm.h"
#include "oinfer/oinfer.h"
#include "graph_builders.h"
#include "ir_util.h"

using namespace oinfer;

namespace {

using test::mk;
using test::rndT;

void addInts(Node& n, const std::string& name, std::vector<int64_t> v) {
  n.attributes.push_back(passes::util::intsAttr(name, std::move(v)));
}

void addFloat(Node& n, const std::string& name, float v) {
  Attribute a;
  a.name = name;
  a.type = AttrType::kFloat;
  a.f = v;
  n.attributes.push_back(a);
}

// x[1,4,6,6] -> Conv(6, 3x3, pad 1, bias) -> c
ir::Graph convGraph(int opset = 13) {
  std::mt19937 rng(5);
  ir::Graph g;
  g.opsetImports[""] = opset;
  g.inputs.push_back(ValueInfo{"x", ValueKind::kTensor, DataType::kFloat, true, {1, 4, 6, 6}});
  g.initializers["W"] = rndT({6, 4, 3, 3}, rng);
  g.initializers["B"] = rndT({6}, rng);
  Node c = mk("Conv", "conv", {"x", "W", "B"}, {"c"});
  addInts(c, "pads", {1, 1, 1, 1});
  g.nodes.push_back(c);
  return g;
}

void output(ir::Graph& g, const std::string& name) {
  g.outputs.push_back(ValueInfo{name, ValueKind::kTensor, DataType::kFloat, false, {}});
}

size_t countOp(const ir::Graph& g, const std::string& op) {
  size_t n = 0;
  for (const auto& node : g.nodes) n += node.opType == op;
  return n;
}

void expectSame(const ir::Graph& g, size_t nodesOptimized, size_t fused) {
  std::mt19937 rng(17);
  Tensor x = rndT({1, 4, 6, 6}, rng);
  SessionOptions off, on;
  off.optimizationLevel = 0;
  on.optimizationLevel = 2;
  Session plain(wrap(g), off), optimized(wrap(g), on);
  EXPECT_EQ(irOf(optimized.graph()).nodes.size(), nodesOptimized);
  EXPECT_EQ(countOp(irOf(optimized.graph()), "FusedConv"), fused);
  auto a = plain.run({{"x", x}});
  auto b = optimized.run({{"x", x}});
  ASSERT_EQ(a.size(), b.size());
  for (size_t k = 0; k < a.size(); ++k) {
    ASSERT_EQ(a[k].shape(), b[k].shape());
    for (int64_t i = 0; i < a[k].numel(); ++i) {
      const float e = a[k].data<float>()[i], v = b[k].data<float>()[i];
      ASSERT_LE(std::fabs(v - e), 1e-5f + 1e-4f * std::fabs(e)) << "output " << k << " element " << i;
    }
  }
}

}  // namespace

TEST(FusionPasses, ConvUnaryActivations) {
  for (const char* op : {"Relu", "Sigmoid", "Tanh", "HardSwish", "LeakyRelu", "HardSigmoid"}) {
    ir::Graph g = convGraph(14);
    Node a = mk(op, "act", {"c"}, {"y"});
    if (std::string(op) == "LeakyRelu") addFloat(a, "alpha", 0.3f);
    if (std::string(op) == "HardSigmoid") addFloat(a, "alpha", 0.3f);
    g.nodes.push_back(a);
    output(g, "y");
    SCOPED_TRACE(op);
    expectSame(g, 1, 1);
  }
}

TEST(FusionPasses, ConvClipOpset13Inputs) {
  ir::Graph g = convGraph(13);
  g.initializers["lo"] = Tensor::fromVector<float>({}, {0.f});
  g.initializers["hi"] = Tensor::fromVector<float>({}, {0.5f});
  g.nodes.push_back(mk("Clip", "clip", {"c", "lo", "hi"}, {"y"}));
  output(g, "y");
  expectSame(g, 1, 1);
}

// Exporters (torch) write Clip's bounds as Constant nodes.
TEST(FusionPasses, ConvClipConstantNodeBounds) {
  ir::Graph g = convGraph(13);
  for (auto [name, v] : {std::pair<const char*, float>{"lo", 0.f}, {"hi", 0.6f}}) {
    Node c = mk("Constant", std::string(name) + "_c", {}, {name});
    Attribute a;
    a.name = "value";
    a.type = AttrType::kTensor;
    a.t = Tensor::fromVector<float>({}, {v});
    c.attributes.push_back(a);
    g.nodes.insert(g.nodes.begin(), c);
  }
  g.nodes.push_back(mk("Clip", "clip", {"c", "lo", "hi"}, {"y"}));
  output(g, "y");
  SessionOptions on;
  Session s(wrap(g), on);
  EXPECT_EQ(countOp(irOf(s.graph()), "FusedConv"), 1u);
  EXPECT_EQ(countOp(irOf(s.graph()), "Clip"), 0u);
}

TEST(FusionPasses, ConvClipOpset6Attributes) {
  ir::Graph g = convGraph(6);
  Node c = mk("Clip", "clip", {"c"}, {"y"});
  addFloat(c, "min", -0.2f);
  addFloat(c, "max", 0.3f);
  g.nodes.push_back(c);
  output(g, "y");
  expectSame(g, 1, 1);
}

TEST(FusionPasses, ConvClipWithRuntimeBoundIsLeftAlone) {
  ir::Graph g = convGraph(13);
  g.inputs.push_back(ValueInfo{"hi", ValueKind::kTensor, DataType::kFloat, true, {}});
  g.nodes.push_back(mk("Clip", "clip", {"c", "", "hi"}, {"y"}));
  output(g, "y");
  SessionOptions on;
  Session s(wrap(g), on);
  EXPECT_EQ(countOp(irOf(s.graph()), "FusedConv"), 0u);
}

TEST(FusionPasses, ConvSiLU) {
  ir::Graph g = convGraph();
  g.nodes.push_back(mk("Sigmoid", "sig", {"c"}, {"s"}));
  g.nodes.push_back(mk("Mul", "mul", {"s", "c"}, {"y"}));
  output(g, "y");
  expectSame(g, 1, 1);
}

// ResNet's block end: Conv -> Add(skip) -> Relu, where the skip is produced
// after the Conv in the sorted order (a second Conv), so the fused node must
// take the Relu's place.
TEST(FusionPasses, ConvAddResidualRelu) {
  ir::Graph g = convGraph();
  std::mt19937 rng(9);
  g.initializers["W2"] = rndT({6, 4, 1, 1}, rng);
  g.nodes.push_back(mk("Conv", "down", {"x", "W2"}, {"d"}));
  g.nodes.push_back(mk("Add", "add", {"c", "d"}, {"s"}));
  g.nodes.push_back(mk("Relu", "relu", {"s"}, {"y"}));
  output(g, "y");
  g.topologicalSort();
  // The downsample Conv (no activation, not followed by anything fusable
  // since its reader Add is taken) stays a Conv.
  expectSame(g, 2, 1);
}

TEST(FusionPasses, ConvAddWithoutActivation) {
  ir::Graph g = convGraph();
  g.inputs.push_back(ValueInfo{"r", ValueKind::kTensor, DataType::kFloat, true, {1, 6, 6, 6}});
  g.nodes.push_back(mk("Add", "add", {"r", "c"}, {"y"}));
  output(g, "y");
  std::mt19937 rng(21);
  Tensor x = rndT({1, 4, 6, 6}, rng), r = rndT({1, 6, 6, 6}, rng);
  SessionOptions off, on;
  off.optimizationLevel = 0;
  Session plain(wrap(g), off), optimized(wrap(g), on);
  EXPECT_EQ(countOp(irOf(optimized.graph()), "FusedConv"), 1u);
  auto a = plain.run({{"x", x}, {"r", r}});
  auto b = optimized.run({{"x", x}, {"r", r}});
  for (int64_t i = 0; i < a[0].numel(); ++i) ASSERT_NEAR(a[0].data<float>()[i], b[0].data<float>()[i], 1e-5f);
}

// A per-channel constant Add is folded into the bias, then the Relu fuses.
TEST(FusionPasses, ConvBiasAddRelu) {
  ir::Graph g = convGraph();
  g.initializers["bias"] = Tensor::fromVector<float>({6, 1, 1}, {1, -2, 3, -4, 5, -6});
  g.nodes.push_back(mk("Add", "add", {"bias", "c"}, {"s"}));
  g.nodes.push_back(mk("Relu", "relu", {"s"}, {"y"}));
  output(g, "y");
  expectSame(g, 1, 1);
}

// An Add that broadcasts over more than the channel axis is neither a bias
// nor a residual, so the chain stops at the Conv.
TEST(FusionPasses, BroadcastingAddIsNotAResidual) {
  ir::Graph g = convGraph();
  g.initializers["bias"] = Tensor::fromVector<float>({1, 6}, {1, 2, 3, 4, 5, 6});
  g.nodes.push_back(mk("Add", "add", {"c", "bias"}, {"s"}));
  g.nodes.push_back(mk("Relu", "relu", {"s"}, {"y"}));
  output(g, "y");
  expectSame(g, 3, 0);  // Conv, Add, Relu: the Relu no longer follows the Conv
}

TEST(FusionPasses, IntermediateReadElsewhereIsNotFused) {
  ir::Graph g = convGraph();
  g.nodes.push_back(mk("Relu", "relu", {"c"}, {"y"}));
  output(g, "y");
  output(g, "c");  // the Conv output is also a graph output
  expectSame(g, 2, 0);
}

TEST(FusionPasses, PassReturnsCountAndImportsDomain) {
  ir::Graph g = convGraph();
  g.nodes.push_back(mk("Relu", "relu", {"c"}, {"y"}));
  output(g, "y");
  g.topologicalSort();
  EXPECT_EQ(passes::fuseConvActivation(g, passContext()), 1);
  EXPECT_EQ(g.opset("ai.oinfer"), 1);
  ASSERT_EQ(g.nodes.size(), 1u);
  EXPECT_EQ(g.nodes[0].attrString("activation", ""), "Relu");
  EXPECT_EQ(g.nodes[0].outputs[0], "y");
}

// Runs g on x with the passes off and on (twice: a fused kernel's buffers
// reused), checks the outputs agree; returns the optimized graph's count of
// `fusedOp` nodes.
size_t runOnAndOff(const ir::Graph& g, const Tensor& x, const char* fusedOp, bool blockedLayout = true) {
  SessionOptions off, on;
  off.optimizationLevel = 0;
  on.blockedLayout = blockedLayout;
  Session plain(wrap(g), off), optimized(wrap(g), on);
  auto a = plain.run({{"x", x}});
  auto r = optimized.run({{"x", x}});
  auto again = optimized.run({{"x", x}});
  EXPECT_EQ(a[0].shape(), r[0].shape());
  if (a[0].shape() != r[0].shape()) return 0;
  for (int64_t i = 0; i < a[0].numel(); ++i) {
    const float e = a[0].data<float>()[i], v = r[0].data<float>()[i];
    EXPECT_LE(std::fabs(v - e), 1e-5f + 1e-4f * std::fabs(e)) << "element " << i;
    EXPECT_EQ(v, again[0].data<float>()[i]) << "element " << i;
    if (std::fabs(v - e) > 1e-5f + 1e-4f * std::fabs(e) || v != again[0].data<float>()[i]) break;
  }
  return countOp(irOf(optimized.graph()), fusedOp);
}

// ---- fuseConvDepthwise ------------------------------------------------------

namespace {

struct BlockSpec {
  int64_t n = 1, c = 8, e = 24, h = 30, w = 28, k = 3, s = 1, dil = 1;
  std::string act1 = "Clip", act2 = "Clip";  // "", Relu, Clip, SiLU, HardSwish
  bool bias = true;
};

// Appends `act` after value `in` (output `out`); SiLU as Sigmoid * x.
void addActivation(ir::Graph& g, const std::string& act, const std::string& in, const std::string& out) {
  if (act.empty()) {
    g.nodes.push_back(mk("Identity", out + "_id", {in}, {out}));  // (after the depthwise only)
  } else if (act == "Clip") {
    g.nodes.push_back(mk("Clip", out + "_clip", {in, "zero", "six"}, {out}));
  } else if (act == "SiLU") {
    g.nodes.push_back(mk("Sigmoid", out + "_sig", {in}, {out + "_s"}));
    g.nodes.push_back(mk("Mul", out + "_mul", {in, out + "_s"}, {out}));
  } else {
    g.nodes.push_back(mk(act, out + "_act", {in}, {out}));
  }
}

// x -> Conv 1x1 (c -> e) -> act1 -> depthwise Conv k x k (stride s, pad k/2) -> act2 -> y
ir::Graph expandBlock(const BlockSpec& b) {
  std::mt19937 rng(31);
  ir::Graph g;
  g.opsetImports[""] = 14;
  g.inputs.push_back(ValueInfo{"x", ValueKind::kTensor, DataType::kFloat, true, {b.n, b.c, b.h, b.w}});
  g.initializers["We"] = rndT({b.e, b.c, 1, 1}, rng);
  g.initializers["Wd"] = rndT({b.e, 1, b.k, b.k}, rng);
  g.initializers["zero"] = Tensor::fromVector<float>({}, {0.f});
  g.initializers["six"] = Tensor::fromVector<float>({}, {6.f});
  std::vector<std::string> ein{"x", "We"}, din{"e", "Wd"};
  if (b.bias) {
    g.initializers["Be"] = rndT({b.e}, rng);
    g.initializers["Bd"] = rndT({b.e}, rng);
    ein.push_back("Be");
    din.push_back("Bd");
  }
  g.nodes.push_back(mk("Conv", "expand", ein, {b.act1.empty() ? "e" : "e0"}));
  if (!b.act1.empty()) addActivation(g, b.act1, "e0", "e");
  Node d = mk("Conv", "dw", din, {"d0"});
  d.attributes.push_back(passes::util::intAttr("group", b.e));
  const int64_t p = b.k / 2 * b.dil;
  addInts(d, "pads", {p, p, p, p});
  addInts(d, "strides", {b.s, b.s});
  addInts(d, "dilations", {b.dil, b.dil});
  g.nodes.push_back(d);
  addActivation(g, b.act2, "d0", "y");
  output(g, "y");
  return g;
}

// Runs the block with the passes off and on; returns the optimized graph's
// FusedConvDepthwise count after checking the outputs agree. With the
// blocked layout on (the default), a pair whose expanded tensor the layout
// takes is left apart on AVX-512; the fusion tests run with it off.
size_t runBlock(const BlockSpec& b, bool blockedLayout = false) {
  std::mt19937 rng(3);
  return runOnAndOff(expandBlock(b), rndT({b.n, b.c, b.h, b.w}, rng), "FusedConvDepthwise", blockedLayout);
}

}  // namespace

TEST(FusionPasses, ExpandDepthwiseShapesAndActivations) {
  struct Case {
    int64_t n, c, e, h, w, k, s;
    const char *act1, *act2;
    bool bias;
  };
  const Case cases[] = {
      {1, 16, 96, 56, 56, 3, 2, "Clip", "Clip", true},  // MobileNetV2's second block, scaled down
      {1, 8, 24, 30, 28, 3, 1, "Clip", "Clip", true},   // not square; output rows in several bands
      {1, 8, 20, 29, 44, 3, 1, "SiLU", "SiLU", true},   // 3x3 stride 1, second activation not a clamp
      {2, 8, 20, 29, 33, 3, 2, "Relu", "", true},       // batch 2, channels not a multiple of 8, odd sides
      {1, 12, 40, 28, 28, 5, 2, "SiLU", "SiLU", true},  // EfficientNet's 5x5 stride 2
      {1, 12, 40, 31, 28, 5, 1, "HardSwish", "Relu", false},
      {1, 3, 9, 112, 112, 3, 1, "", "Clip", true},      // wide rows: a band of few rows
  };
  for (const Case& c : cases) {
    BlockSpec b;
    b.n = c.n, b.c = c.c, b.e = c.e, b.h = c.h, b.w = c.w, b.k = c.k, b.s = c.s;
    b.act1 = c.act1, b.act2 = c.act2, b.bias = c.bias;
    SCOPED_TRACE(std::to_string(c.c) + "->" + std::to_string(c.e) + " @" + std::to_string(c.h) + "x" +
                 std::to_string(c.w) + " k" + std::to_string(c.k) + " s" + std::to_string(c.s) + " " + c.act1 + "/" +
                 c.act2);
    EXPECT_EQ(runBlock(b), 1u);
  }
}

// A dilated depthwise is fused too but runs the two Convs in turn through
// the kernel's buffer (the band kernel takes no dilation).
TEST(FusionPasses, ExpandDepthwiseDilatedRunsApart) {
  BlockSpec b;
  b.dil = 2;
  EXPECT_EQ(runBlock(b), 1u);
}

TEST(FusionPasses, ExpandDepthwiseLeftAlone) {
  {
    // The blocked layout takes a 16k-channel expanded tensor (AVX-512): the
    // expand writes it blocked and the blocked depthwise reads it, faster
    // than the fused kernel; 20 channels it does not take, so they fuse.
    BlockSpec b;
    b.c = 16;
    b.e = 96;
    const bool avx512 = std::string(sgemmIsa()) == "avx512";
    EXPECT_EQ(runBlock(b, true), avx512 ? 0u : 1u);
    b.e = 20;
    EXPECT_EQ(runBlock(b, true), 1u);
  }
  {
    BlockSpec b;  // planes under 28 x 28: the separate kernels are faster there
    b.h = b.w = 14;
    EXPECT_EQ(runBlock(b), 0u);
  }
  {
    ir::Graph g = expandBlock(BlockSpec{});
    output(g, "e");  // the expanded tensor is also a graph output
    SessionOptions on;
    Session s(wrap(g), on);
    EXPECT_EQ(countOp(irOf(s.graph()), "FusedConvDepthwise"), 0u);
  }
  {
    BlockSpec b;  // Gelu after the expand has no in-register form in the fused kernel
    ir::Graph g = expandBlock(b);
    for (Node& n : g.nodes)
      if (n.name == "e_clip") n = mk("Gelu", "e_gelu", {"e0"}, {"e"});
    g.opsetImports[""] = 20;
    SessionOptions on;
    Session s(wrap(g), on);
    EXPECT_EQ(countOp(irOf(s.graph()), "FusedConvDepthwise"), 0u);
    EXPECT_EQ(countOp(irOf(s.graph()), "FusedConv"), 2u);
  }
}

TEST(FusionPasses, FusedConvDepthwiseShapeErrors) {
  ir::Graph g;
  g.opsetImports[""] = 14;
  g.opsetImports["ai.oinfer"] = 1;
  std::mt19937 rng(2);
  g.inputs.push_back(ValueInfo{"x", ValueKind::kTensor, DataType::kFloat, true, {1, 4, 28, 28}});
  g.initializers["W"] = rndT({8, 3, 1, 1}, rng);  // 3 input channels, x has 4
  g.initializers["Wd"] = rndT({8, 1, 3, 3}, rng);
  Node f = mk("FusedConvDepthwise", "fcd", {"x", "W", "", "Wd", ""}, {"y"});
  f.domain = "ai.oinfer";
  g.nodes.push_back(f);
  output(g, "y");
  try {
    Session s(wrap(g), SessionOptions{});
    FAIL() << "expected an error";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("fcd"), std::string::npos) << msg;
    EXPECT_NE(msg.find("input 1 ('W') has shape [8,3,1,1], expected [E,4,1,1]"), std::string::npos) << msg;
  }
  g.initializers["W"] = rndT({8, 4, 1, 1}, rng);
  g.initializers["Wd"] = rndT({6, 1, 3, 3}, rng);  // 6 depthwise channels, 8 expanded
  try {
    Session s(wrap(g), SessionOptions{});
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("input 3 ('Wd') has shape [6,1,3,3], expected [8,1,kh,kw]"),
              std::string::npos)
        << e.what();
  }
  // With X's channels symbolic, inference cannot see the mismatch: the kernel
  // reports it when the run's X arrives.
  g.initializers["Wd"] = rndT({8, 1, 3, 3}, rng);
  g.inputs[0].shape = {1, Dim::sym("c"), 28, 28};
  Session s(wrap(g), SessionOptions{});
  try {
    s.run({{"x", rndT({1, 3, 28, 28}, rng)}});
    FAIL() << "expected an error";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("fcd"), std::string::npos) << msg;
    EXPECT_NE(msg.find("input 1 ('W') has shape [8,4,1,1], expected [E,3,1,1]"), std::string::npos) << msg;
  }
  // A bias given at run time is checked against the expanded channels too.
  g.inputs[0].shape = {1, 4, 28, 28};
  g.inputs.push_back(ValueInfo{"B", ValueKind::kTensor, DataType::kFloat, true, {Dim::sym("b")}});
  g.nodes[0].inputs[2] = "B";
  Session sb(wrap(g), SessionOptions{});
  try {
    sb.run({{"x", rndT({1, 4, 28, 28}, rng)}, {"B", rndT({5}, rng)}});
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("input 2 ('B') has shape [5], expected [8]"), std::string::npos) << e.what();
  }
}

// ---- fuseConvMaxPool --------------------------------------------------------

namespace {

struct StemSpec {
  int64_t n = 1, c = 3, m = 16, h = 45, w = 47, k = 3, s = 2, pad = 1;
  std::string act = "Relu";  // "", Relu, Clip, SiLU
  int64_t poolK = 3, poolS = 2, poolPad = 0;
  bool ceil = false, bias = true;
};

// x -> Conv k x k (c -> m, stride s, pad) -> act -> MaxPool -> y
ir::Graph stemBlock(const StemSpec& b) {
  std::mt19937 rng(41);
  ir::Graph g;
  g.opsetImports[""] = 14;
  g.inputs.push_back(ValueInfo{"x", ValueKind::kTensor, DataType::kFloat, true, {b.n, b.c, b.h, b.w}});
  g.initializers["W"] = rndT({b.m, b.c, b.k, b.k}, rng);
  g.initializers["zero"] = Tensor::fromVector<float>({}, {0.f});
  g.initializers["six"] = Tensor::fromVector<float>({}, {6.f});
  std::vector<std::string> in{"x", "W"};
  if (b.bias) {
    g.initializers["B"] = rndT({b.m}, rng);
    in.push_back("B");
  }
  Node c = mk("Conv", "stem", in, {b.act.empty() ? "s" : "s0"});
  addInts(c, "pads", {b.pad, b.pad, b.pad, b.pad});
  addInts(c, "strides", {b.s, b.s});
  g.nodes.push_back(c);
  if (!b.act.empty()) addActivation(g, b.act, "s0", "s");
  Node p = mk("MaxPool", "pool", {"s"}, {"y"});
  addInts(p, "kernel_shape", {b.poolK, b.poolK});
  addInts(p, "strides", {b.poolS, b.poolS});
  addInts(p, "pads", {b.poolPad, b.poolPad, b.poolPad, b.poolPad});
  if (b.ceil) p.attributes.push_back(passes::util::intAttr("ceil_mode", 1));
  g.nodes.push_back(p);
  output(g, "y");
  return g;
}

// Runs the stem with the passes off and on (twice: the kernel's buffers
// reused); returns the optimized graph's FusedConvMaxPool count.
size_t runStem(const StemSpec& b) {
  std::mt19937 rng(5);
  return runOnAndOff(stemBlock(b), rndT({b.n, b.c, b.h, b.w}, rng), "FusedConvMaxPool");
}

}  // namespace

TEST(FusionPasses, ConvMaxPoolShapes) {
  struct Case {
    int64_t n, c, m, h, w, k, s, pad, poolK, poolPad;
    bool ceil;
    const char* act;
  };
  const Case cases[] = {
      {1, 3, 64, 75, 75, 3, 2, 0, 3, 0, true, "Relu"},   // SqueezeNet's stem (scaled down), ceil_mode
      {1, 3, 64, 64, 66, 7, 2, 3, 3, 1, false, "Relu"},  // ResNet's stem (scaled down), padded pool
      {2, 3, 20, 41, 39, 3, 2, 1, 3, 1, false, "Clip"},  // batch 2, a last block of 4 channels, odd sides
      {1, 1, 8, 40, 36, 5, 1, 2, 2, 0, false, "SiLU"},   // stride 1, 2x2 pool
      {1, 4, 12, 33, 70, 3, 2, 1, 3, 0, true, ""},       // no activation; ceil_mode windows past the end
      {1, 3, 16, 300, 300, 3, 2, 1, 3, 1, false, "Relu"},  // several bands of pool rows
  };
  for (const Case& c : cases) {
    StemSpec b;
    b.n = c.n, b.c = c.c, b.m = c.m, b.h = c.h, b.w = c.w, b.k = c.k, b.s = c.s, b.pad = c.pad;
    b.poolK = c.poolK, b.poolPad = c.poolPad, b.ceil = c.ceil, b.act = c.act;
    SCOPED_TRACE(std::to_string(c.c) + "->" + std::to_string(c.m) + " @" + std::to_string(c.h) + "x" +
                 std::to_string(c.w) + " k" + std::to_string(c.k) + " s" + std::to_string(c.s) + " pool " +
                 std::to_string(c.poolK) + " " + c.act);
    EXPECT_EQ(runStem(b), 1u);
  }
  StemSpec nb;
  nb.bias = false;
  EXPECT_EQ(runStem(nb), 1u);
}

TEST(FusionPasses, ConvMaxPoolLeftAlone) {
  {
    StemSpec b;  // 5 input channels: not an image stem
    b.c = 5;
    EXPECT_EQ(runStem(b), 0u);
  }
  {
    StemSpec b;  // a stride-1 pool
    b.poolS = 1;
    EXPECT_EQ(runStem(b), 0u);
  }
  {
    ir::Graph g = stemBlock(StemSpec{});
    output(g, "s");  // the conv output is also a graph output
    Session s(wrap(g), SessionOptions{});
    EXPECT_EQ(countOp(irOf(s.graph()), "FusedConvMaxPool"), 0u);
  }
  {
    ir::Graph g = stemBlock(StemSpec{});  // the pool's Indices are asked for
    for (Node& n : g.nodes)
      if (n.opType == "MaxPool") n.outputs.push_back("idx");
    output(g, "idx");
    Session s(wrap(g), SessionOptions{});
    EXPECT_EQ(countOp(irOf(s.graph()), "FusedConvMaxPool"), 0u);
  }
}

// Weights given at run time: the fused node runs the Conv and the pool apart.
TEST(FusionPasses, FusedConvMaxPoolRuntimeWeightsAndErrors) {
  std::mt19937 rng(6);
  ir::Graph g;
  g.opsetImports[""] = 14;
  g.opsetImports["ai.oinfer"] = 1;
  g.inputs.push_back(ValueInfo{"x", ValueKind::kTensor, DataType::kFloat, true, {1, 3, 30, 34}});
  g.inputs.push_back(ValueInfo{"W", ValueKind::kTensor, DataType::kFloat, true, {16, Dim::sym("c"), 3, 3}});
  Node f = mk("FusedConvMaxPool", "fcm", {"x", "W"}, {"y"});
  f.domain = "ai.oinfer";
  addInts(f, "pads", {1, 1, 1, 1});
  addInts(f, "pool_kernel_shape", {3, 3});
  addInts(f, "pool_strides", {2, 2});
  f.attributes.push_back(passes::util::stringAttr("activation", "Relu"));
  g.nodes.push_back(f);
  output(g, "y");
  // The reference: Conv, Relu, MaxPool as ONNX ops.
  ir::Graph ref;
  ref.opsetImports[""] = 14;
  ref.inputs = g.inputs;
  Node c = mk("Conv", "c", {"x", "W"}, {"c0"});
  addInts(c, "pads", {1, 1, 1, 1});
  ref.nodes.push_back(c);
  ref.nodes.push_back(mk("Relu", "r", {"c0"}, {"c1"}));
  Node p = mk("MaxPool", "p", {"c1"}, {"y"});
  addInts(p, "kernel_shape", {3, 3});
  addInts(p, "strides", {2, 2});
  ref.nodes.push_back(p);
  output(ref, "y");
  Tensor x = rndT({1, 3, 30, 34}, rng), w = rndT({16, 3, 3, 3}, rng);
  SessionOptions off;
  off.optimizationLevel = 0;
  Session sf(wrap(g), off), sr(wrap(ref), off);
  auto a = sr.run({{"x", x}, {"W", w}});
  auto r = sf.run({{"x", x}, {"W", w}});
  ASSERT_EQ(a[0].shape(), r[0].shape());
  EXPECT_EQ(r[0].shape(), (std::vector<int64_t>{1, 16, 14, 16}));
  for (int64_t i = 0; i < a[0].numel(); ++i)
    ASSERT_NEAR(r[0].data<float>()[i], a[0].data<float>()[i], 1e-4f) << "element " << i;
  // Errors name the node and the attribute or input.
  try {
    sf.run({{"x", x}, {"W", rndT({16, 4, 3, 3}, rng)}});
    FAIL() << "expected an error";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("fcm"), std::string::npos) << msg;
    EXPECT_NE(msg.find("has 3 channels but input 1 ('W') [16,4,3,3] with group 1 expects 4"), std::string::npos) << msg;
  }
  for (Attribute& a2 : g.nodes[0].attributes)
    if (a2.name == "pool_kernel_shape") a2.name = "pool_kernel";
  try {
    Session s(wrap(g), off);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("attribute 'pool_kernel_shape' is required"), std::string::npos) << e.what();
  }
}

// A FusedConvMaxPool the fused kernel does not take (5 input channels, a
// stride-1 pool) runs the Conv and the pool apart, constant weights included.
TEST(FusionPasses, FusedConvMaxPoolApart) {
  std::mt19937 rng(8);
  auto build = [&](bool fused) {
    ir::Graph g;
    g.opsetImports[""] = 14;
    if (fused) g.opsetImports["ai.oinfer"] = 1;
    g.inputs.push_back(ValueInfo{"x", ValueKind::kTensor, DataType::kFloat, true, {2, 5, 17, 19}});
    std::mt19937 wr(9);
    g.initializers["W"] = rndT({12, 5, 3, 3}, wr);
    g.initializers["B"] = rndT({12}, wr);
    if (fused) {
      Node f = mk("FusedConvMaxPool", "fcm", {"x", "W", "B"}, {"y"});
      f.domain = "ai.oinfer";
      addInts(f, "strides", {2, 2});
      addInts(f, "pads", {1, 1, 1, 1});
      addInts(f, "pool_kernel_shape", {2, 2});
      addInts(f, "pool_strides", {1, 1});
      f.attributes.push_back(passes::util::stringAttr("activation", "Relu"));
      g.nodes.push_back(f);
    } else {
      Node c = mk("Conv", "c", {"x", "W", "B"}, {"c0"});
      addInts(c, "strides", {2, 2});
      addInts(c, "pads", {1, 1, 1, 1});
      g.nodes.push_back(c);
      g.nodes.push_back(mk("Relu", "r", {"c0"}, {"c1"}));
      Node p = mk("MaxPool", "p", {"c1"}, {"y"});
      addInts(p, "kernel_shape", {2, 2});
      addInts(p, "strides", {1, 1});
      g.nodes.push_back(p);
    }
    output(g, "y");
    return g;
  };
  Tensor x = rndT({2, 5, 17, 19}, rng);
  SessionOptions off;
  off.optimizationLevel = 0;
  Session sf(wrap(build(true)), off), sr(wrap(build(false)), off);
  auto a = sr.run({{"x", x}});
  auto r = sf.run({{"x", x}});
  auto again = sf.run({{"x", x}});
  ASSERT_EQ(a[0].shape(), r[0].shape());
  EXPECT_EQ(r[0].shape(), (std::vector<int64_t>{2, 12, 8, 9}));
  for (int64_t i = 0; i < a[0].numel(); ++i) {
    ASSERT_NEAR(r[0].data<float>()[i], a[0].data<float>()[i], 1e-4f) << "element " << i;
    ASSERT_EQ(r[0].data<float>()[i], again[0].data<float>()[i]) << "element " << i;
  }
}
