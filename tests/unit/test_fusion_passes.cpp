// fuseConvActivation: each pattern on a small graph, run with the passes off
// (optimizationLevel 0) and on (1); the outputs must agree and the graph must
// have the expected number of nodes. Negative cases check that a chain whose
// intermediate is read elsewhere, or a broadcasting Add, is left alone.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "graph/passes/passes.h"
#include "oinfer/oinfer.h"

using namespace oinfer;

namespace {

Tensor rndT(std::vector<int64_t> shape, std::mt19937& rng) {
  Tensor t(DataType::kFloat, std::move(shape));
  std::uniform_real_distribution<float> d(-1.f, 1.f);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = d(rng);
  return t;
}

Node mk(const std::string& op, const std::string& name, std::vector<std::string> in, std::vector<std::string> out) {
  Node n;
  n.opType = op;
  n.name = name;
  n.inputs = std::move(in);
  n.outputs = std::move(out);
  return n;
}

void addInts(Node& n, const std::string& name, std::vector<int64_t> v) {
  Attribute a;
  a.name = name;
  a.type = AttrType::kInts;
  a.ints = std::move(v);
  n.attributes.push_back(a);
}

void addFloat(Node& n, const std::string& name, float v) {
  Attribute a;
  a.name = name;
  a.type = AttrType::kFloat;
  a.f = v;
  n.attributes.push_back(a);
}

// x[1,4,6,6] -> Conv(6, 3x3, pad 1, bias) -> c
Graph convGraph(int opset = 13) {
  std::mt19937 rng(5);
  Graph g;
  g.opsetImports[""] = opset;
  g.inputs.push_back(ValueInfo{"x", ValueKind::kTensor, DataType::kFloat, true, {1, 4, 6, 6}});
  g.initializers["W"] = rndT({6, 4, 3, 3}, rng);
  g.initializers["B"] = rndT({6}, rng);
  Node c = mk("Conv", "conv", {"x", "W", "B"}, {"c"});
  addInts(c, "pads", {1, 1, 1, 1});
  g.nodes.push_back(c);
  return g;
}

void output(Graph& g, const std::string& name) {
  g.outputs.push_back(ValueInfo{name, ValueKind::kTensor, DataType::kFloat, false, {}});
}

size_t countOp(const Graph& g, const std::string& op) {
  size_t n = 0;
  for (const auto& node : g.nodes) n += node.opType == op;
  return n;
}

void expectSame(const Graph& g, size_t nodesOptimized, size_t fused) {
  std::mt19937 rng(17);
  Tensor x = rndT({1, 4, 6, 6}, rng);
  SessionOptions off, on;
  off.optimizationLevel = 0;
  on.optimizationLevel = 1;
  Session plain(g, off), optimized(g, on);
  EXPECT_EQ(optimized.graph().nodes.size(), nodesOptimized);
  EXPECT_EQ(countOp(optimized.graph(), "FusedConv"), fused);
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
    Graph g = convGraph(14);
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
  Graph g = convGraph(13);
  g.initializers["lo"] = Tensor::fromVector<float>({}, {0.f});
  g.initializers["hi"] = Tensor::fromVector<float>({}, {0.5f});
  g.nodes.push_back(mk("Clip", "clip", {"c", "lo", "hi"}, {"y"}));
  output(g, "y");
  expectSame(g, 1, 1);
}

// Exporters (torch) write Clip's bounds as Constant nodes.
TEST(FusionPasses, ConvClipConstantNodeBounds) {
  Graph g = convGraph(13);
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
  Session s(g, on);
  EXPECT_EQ(countOp(s.graph(), "FusedConv"), 1u);
  EXPECT_EQ(countOp(s.graph(), "Clip"), 0u);
}

TEST(FusionPasses, ConvClipOpset6Attributes) {
  Graph g = convGraph(6);
  Node c = mk("Clip", "clip", {"c"}, {"y"});
  addFloat(c, "min", -0.2f);
  addFloat(c, "max", 0.3f);
  g.nodes.push_back(c);
  output(g, "y");
  expectSame(g, 1, 1);
}

TEST(FusionPasses, ConvClipWithRuntimeBoundIsLeftAlone) {
  Graph g = convGraph(13);
  g.inputs.push_back(ValueInfo{"hi", ValueKind::kTensor, DataType::kFloat, true, {}});
  g.nodes.push_back(mk("Clip", "clip", {"c", "", "hi"}, {"y"}));
  output(g, "y");
  SessionOptions on;
  Session s(g, on);
  EXPECT_EQ(countOp(s.graph(), "FusedConv"), 0u);
}

TEST(FusionPasses, ConvSiLU) {
  Graph g = convGraph();
  g.nodes.push_back(mk("Sigmoid", "sig", {"c"}, {"s"}));
  g.nodes.push_back(mk("Mul", "mul", {"s", "c"}, {"y"}));
  output(g, "y");
  expectSame(g, 1, 1);
}

// ResNet's block end: Conv -> Add(skip) -> Relu, where the skip is produced
// after the Conv in the sorted order (a second Conv), so the fused node must
// take the Relu's place.
TEST(FusionPasses, ConvAddResidualRelu) {
  Graph g = convGraph();
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
  Graph g = convGraph();
  g.inputs.push_back(ValueInfo{"r", ValueKind::kTensor, DataType::kFloat, true, {1, 6, 6, 6}});
  g.nodes.push_back(mk("Add", "add", {"r", "c"}, {"y"}));
  output(g, "y");
  std::mt19937 rng(21);
  Tensor x = rndT({1, 4, 6, 6}, rng), r = rndT({1, 6, 6, 6}, rng);
  SessionOptions off, on;
  off.optimizationLevel = 0;
  Session plain(g, off), optimized(g, on);
  EXPECT_EQ(countOp(optimized.graph(), "FusedConv"), 1u);
  auto a = plain.run({{"x", x}, {"r", r}});
  auto b = optimized.run({{"x", x}, {"r", r}});
  for (int64_t i = 0; i < a[0].numel(); ++i) ASSERT_NEAR(a[0].data<float>()[i], b[0].data<float>()[i], 1e-5f);
}

// A per-channel constant Add is folded into the bias, then the Relu fuses.
TEST(FusionPasses, ConvBiasAddRelu) {
  Graph g = convGraph();
  g.initializers["bias"] = Tensor::fromVector<float>({6, 1, 1}, {1, -2, 3, -4, 5, -6});
  g.nodes.push_back(mk("Add", "add", {"bias", "c"}, {"s"}));
  g.nodes.push_back(mk("Relu", "relu", {"s"}, {"y"}));
  output(g, "y");
  expectSame(g, 1, 1);
}

// An Add that broadcasts over more than the channel axis is neither a bias
// nor a residual, so the chain stops at the Conv.
TEST(FusionPasses, BroadcastingAddIsNotAResidual) {
  Graph g = convGraph();
  g.initializers["bias"] = Tensor::fromVector<float>({1, 6}, {1, 2, 3, 4, 5, 6});
  g.nodes.push_back(mk("Add", "add", {"c", "bias"}, {"s"}));
  g.nodes.push_back(mk("Relu", "relu", {"s"}, {"y"}));
  output(g, "y");
  expectSame(g, 3, 0);  // Conv, Add, Relu: the Relu no longer follows the Conv
}

TEST(FusionPasses, IntermediateReadElsewhereIsNotFused) {
  Graph g = convGraph();
  g.nodes.push_back(mk("Relu", "relu", {"c"}, {"y"}));
  output(g, "y");
  output(g, "c");  // the Conv output is also a graph output
  expectSame(g, 2, 0);
}

TEST(FusionPasses, PassReturnsCountAndImportsDomain) {
  Graph g = convGraph();
  g.nodes.push_back(mk("Relu", "relu", {"c"}, {"y"}));
  output(g, "y");
  g.topologicalSort();
  EXPECT_EQ(passes::fuseConvActivation(g), 1);
  EXPECT_EQ(g.opset("ai.oinfer"), 1);
  ASSERT_EQ(g.nodes.size(), 1u);
  EXPECT_EQ(g.nodes[0].attrString("activation", ""), "Relu");
  EXPECT_EQ(g.nodes[0].outputs[0], "y");
}
