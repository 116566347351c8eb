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
