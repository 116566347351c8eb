// Graph passes keep outputs equal: each model here runs with the pass off
// (optimizationLevel 0) and on (1) and the outputs are compared.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "passes/passes.h"
#include "oinfer/oinfer.h"
#include "graph_builders.h"
#include "ir_util.h"
#include "passes/pipeline.h"

using namespace oinfer;

namespace {

using test::mk;
using test::rndT;

// x[1,3,6,6] -> Conv(4 filters 3x3, pad 1, bias?) -> BatchNormalization -> Relu -> y
// When `conv_out_is_read_twice`, the Conv output also feeds an Add, so folding must not happen.
ir::Graph convBnGraph(bool withBias, bool convOutputReadTwice) {
  std::mt19937 rng(3);
  ir::Graph g;
  g.opsetImports[""] = 13;
  g.inputs.push_back(ValueInfo{"x", ValueKind::kTensor, DataType::kFloat, true, {1, 3, 6, 6}});
  g.initializers["W"] = rndT({4, 3, 3, 3}, rng);
  if (withBias) g.initializers["B"] = rndT({4}, rng);
  g.initializers["scale"] = rndT({4}, rng, 0.5f, 2.f);
  g.initializers["bias"] = rndT({4}, rng);
  g.initializers["mean"] = rndT({4}, rng);
  g.initializers["var"] = rndT({4}, rng, 0.1f, 3.f);
  Node conv = mk("Conv", "conv", {"x", "W"}, {"c"});
  if (withBias) conv.inputs.push_back("B");
  Attribute pads;
  pads.name = "pads";
  pads.type = AttrType::kInts;
  pads.ints = {1, 1, 1, 1};
  conv.attributes.push_back(pads);
  g.nodes.push_back(conv);
  Node bn = mk("BatchNormalization", "bn", {"c", "scale", "bias", "mean", "var"}, {"n"});
  Attribute eps;
  eps.name = "epsilon";
  eps.type = AttrType::kFloat;
  eps.f = 1e-3f;
  bn.attributes.push_back(eps);
  g.nodes.push_back(bn);
  g.nodes.push_back(mk("Relu", "relu", {"n"}, {"y"}));
  g.outputs.push_back(ValueInfo{"y", ValueKind::kTensor, DataType::kFloat, false, {}});
  if (convOutputReadTwice) {
    g.nodes.push_back(mk("Add", "add", {"c", "y"}, {"z"}));
    g.outputs.push_back(ValueInfo{"z", ValueKind::kTensor, DataType::kFloat, false, {}});
  }
  return g;
}

void expectSameOutputs(const ir::Graph& g, size_t expectedNodesOptimized) {
  std::mt19937 rng(11);
  Tensor x = rndT({1, 3, 6, 6}, rng);
  SessionOptions off, on;
  off.optimizationLevel = 0;
  on.optimizationLevel = 2;
  Session plain(wrap(g), off), optimized(wrap(g), on);
  EXPECT_EQ(irOf(optimized.graph()).nodes.size(), expectedNodesOptimized);
  auto a = plain.run({{"x", x}});
  auto b = optimized.run({{"x", x}});
  ASSERT_EQ(a.size(), b.size());
  for (size_t k = 0; k < a.size(); ++k) {
    ASSERT_EQ(a[k].shape(), b[k].shape());
    for (int64_t i = 0; i < a[k].numel(); ++i) {
      float e = a[k].data<float>()[i], v = b[k].data<float>()[i];
      ASSERT_LE(std::fabs(v - e), 1e-5f + 1e-4f * std::fabs(e)) << "output " << k << " element " << i;
    }
  }
}

}  // namespace

// 1 node: the folded Conv and the Relu also fuse into one FusedConv.
TEST(Passes, ConvBatchNormFoldsWithBias) { expectSameOutputs(convBnGraph(true, false), 1); }

TEST(Passes, ConvBatchNormFoldsWithoutBias) { expectSameOutputs(convBnGraph(false, false), 1); }

TEST(Passes, ConvOutputReadElsewhereIsNotFolded) { expectSameOutputs(convBnGraph(true, true), 4); }

TEST(Passes, FoldingDropsTheUnfoldedParameters) {
  ir::Graph g = convBnGraph(true, false);
  EXPECT_EQ(passes::foldConvBatchNorm(g, passContext()), 1);
  EXPECT_EQ(g.initializers.size(), 2u);  // the folded W and B only
  EXPECT_FALSE(g.initializers.count("scale"));
  EXPECT_EQ(g.nodes[0].outputs[0], "n");
}

TEST(Passes, LevelZeroLeavesTheGraphAlone) {
  ir::Graph g = convBnGraph(true, false);
  passes::PipelineOptions level0;
  level0.level = 0;
  passes::optimize(g, builtinRegistry(), level0);
  EXPECT_EQ(g.nodes.size(), 3u);
}

// ---- orderForMemory (issue 22: a memory-aware execution order) -------------

namespace {

// x [1, 2^18] (1 MiB) read by four branches m_k = x * k, a_k = Relu(m_k),
// s_k = ReduceSum(a_k), listed breadth-first (every a_k before any s_k) or
// depth-first; y = s_1 + ... + s_4. Breadth-first keeps the 1 MiB a_k live
// together (5 MiB when the last m_k and a_k are made); depth-first one
// branch at a time (2 MiB: m_k and a_k).
ir::Graph branchesGraph(bool breadthFirst) {
  ir::Graph g;
  g.opsetImports[""] = 18;
  const int64_t n = int64_t{1} << 18;
  g.inputs.push_back(ValueInfo{"x", ValueKind::kTensor, DataType::kFloat, true, {1, n}});
  std::vector<Node> first, second;
  for (int k = 1; k <= 4; ++k) {
    const std::string K = std::to_string(k);
    g.initializers["k" + K] = Tensor::fromVector<float>({}, {float(k)});
    first.push_back(mk("Mul", "mul" + K, {"x", "k" + K}, {"m" + K}));
    first.push_back(mk("Relu", "relu" + K, {"m" + K}, {"a" + K}));
    second.push_back(mk("ReduceSum", "sum" + K, {"a" + K}, {"s" + K}));
  }
  if (breadthFirst) {
    for (auto& nd : first) g.nodes.push_back(nd);
    for (auto& nd : second) g.nodes.push_back(nd);
  } else {
    for (int k = 0; k < 4; ++k) {
      g.nodes.push_back(first[2 * k]);
      g.nodes.push_back(first[2 * k + 1]);
      g.nodes.push_back(second[k]);
    }
  }
  g.nodes.push_back(mk("Sum", "total", {"s1", "s2", "s3", "s4"}, {"y"}));
  g.outputs.push_back(ValueInfo{"y", ValueKind::kTensor, DataType::kFloat, false, {}});
  return g;
}

std::vector<std::string> nodeOrder(const ir::Graph& g) {
  std::vector<std::string> names;
  for (const auto& nd : g.nodes) names.push_back(nd.name);
  return names;
}

}  // namespace

// The pass turns the breadth-first listing into the depth-first one: the
// same plan (and arena) as the graph listed depth-first, under half of
// the breadth-first plan at level 1 (no reordering), and the same output.
TEST(OrderForMemory, BranchesRunOneAfterAnother) {
  std::mt19937 rng(5);
  Tensor x = rndT({1, int64_t{1} << 18}, rng);
  SessionOptions l1, l2;
  l1.optimizationLevel = 1;
  l2.optimizationLevel = 2;
  Session asListed(wrap(branchesGraph(true)), l1), reordered(wrap(branchesGraph(true)), l2),
      depthFirst(wrap(branchesGraph(false)), l2);
  const auto ya = asListed.run({{"x", x}}), yr = reordered.run({{"x", x}}), yd = depthFirst.run({{"x", x}});
  EXPECT_EQ(ya[0].toVector<float>(), yr[0].toVector<float>());
  EXPECT_EQ(yr[0].toVector<float>(), yd[0].toVector<float>());
  const size_t wide = asListed.memoryStats().arenaBytes, ordered = reordered.memoryStats().arenaBytes;
  EXPECT_EQ(ordered, depthFirst.memoryStats().arenaBytes);
  EXPECT_GE(wide, size_t{4} << 20) << "four 1 MiB branches live together when listed breadth-first";
  EXPECT_LE(ordered * 2, wide) << "arena " << ordered << " reordered vs " << wide << " as listed";
  // Each branch runs whole before the next.
  EXPECT_EQ(nodeOrder(irOf(reordered.graph())), nodeOrder(irOf(depthFirst.graph())));
}

// Already the best order (depth-first; a chain): nothing moves.
TEST(OrderForMemory, LeavesAGoodOrderAlone) {
  ir::Graph g = branchesGraph(false);
  const auto before = nodeOrder(g);
  const auto ctx = passContext();
  EXPECT_EQ(passes::orderForMemory(g, ctx), 0);
  EXPECT_EQ(nodeOrder(g), before);
  ir::Graph chain;
  chain.opsetImports[""] = 18;
  chain.inputs.push_back(ValueInfo{"x", ValueKind::kTensor, DataType::kFloat, true, {4, 4}});
  std::string prev = "x";
  for (int i = 0; i < 6; ++i) {
    chain.nodes.push_back(mk(i % 2 ? "Relu" : "Neg", "n" + std::to_string(i), {prev}, {"v" + std::to_string(i)}));
    prev = "v" + std::to_string(i);
  }
  chain.outputs.push_back(ValueInfo{prev, ValueKind::kTensor, DataType::kFloat, false, {}});
  EXPECT_EQ(passes::orderForMemory(chain, ctx), 0);
}

// A graph output is never counted as freed, a value read twice is freed
// by its last reader, and the order stays topological: random DAGs run
// reordered to the same outputs as at level 0.
TEST(OrderForMemory, RandomDagsKeepTheirOutputs) {
  std::mt19937 rng(17);
  for (int trial = 0; trial < 30; ++trial) {
    ir::Graph g;
    g.opsetImports[""] = 18;
    g.inputs.push_back(ValueInfo{"x", ValueKind::kTensor, DataType::kFloat, true, {1, 64}});
    std::vector<std::string> values = {"x"};
    const int nodes = 4 + static_cast<int>(rng() % 12);
    for (int i = 0; i < nodes; ++i) {
      const std::string a = values[rng() % values.size()], b = values[rng() % values.size()];
      const std::string out = "v" + std::to_string(i);
      const int kind = static_cast<int>(rng() % 3);
      if (kind == 0) g.nodes.push_back(mk("Add", out, {a, b}, {out}));
      else if (kind == 1) g.nodes.push_back(mk("Relu", out, {a}, {out}));
      else g.nodes.push_back(mk("Concat", out, {a, b}, {out}));
      if (kind == 2) {
        Attribute axis;
        axis.name = "axis";
        axis.type = AttrType::kInt;
        axis.i = 0;
        g.nodes.back().attributes.push_back(axis);
        // Concat on axis 0 grows the rows; Add then needs equal shapes, so
        // Concat outputs are only read by Relu / Concat below.
      }
      values.push_back(out);
    }
    // Keep it valid: Add only of [1,64] values. Rebuild Adds whose inputs
    // are not both [1,64] as Relu of the first.
    std::map<std::string, int64_t> rows{{"x", 1}};
    for (auto& nd : g.nodes) {
      if (nd.opType == "Add" && rows[nd.inputs[0]] != rows[nd.inputs[1]]) {
        nd.opType = "Relu";
        nd.inputs.resize(1);
      }
      int64_t r = rows[nd.inputs[0]];
      if (nd.opType == "Concat") r += rows[nd.inputs[1]];
      rows[nd.outputs[0]] = r;
    }
    g.outputs.push_back(ValueInfo{values.back(), ValueKind::kTensor, DataType::kFloat, false, {}});
    g.outputs.push_back(ValueInfo{values[1 + rng() % nodes], ValueKind::kTensor, DataType::kFloat, false, {}});
    if (g.outputs[0].name == g.outputs[1].name) g.outputs.pop_back();
    Tensor x = rndT({1, 64}, rng);
    SessionOptions off, on;
    off.optimizationLevel = 0;
    on.optimizationLevel = 2;
    Session plain(wrap(g), off), optimized(wrap(g), on);
    auto a = plain.run({{"x", x}}), b = optimized.run({{"x", x}});
    ASSERT_EQ(a.size(), b.size());
    for (size_t k = 0; k < a.size(); ++k)
      EXPECT_EQ(a[k].toVector<float>(), b[k].toVector<float>()) << "trial " << trial << " output " << k;
  }
}
