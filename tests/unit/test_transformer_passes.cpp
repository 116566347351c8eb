// Transformer passes keep outputs equal: each graph runs with the passes off
// (optimizationLevel 0) and on (1), the outputs are compared, and the
// optimized graph is checked for the fused node it should now hold.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "../op_tester.h"
#include "passes/passes.h"
#include "ops/cpu/fused_transformer_rows.h"
#include "ops/kernel.h"
#include "ops/registry.h"
#include "oinfer/oinfer.h"
#include "ir_util.h"
#include "passes/pipeline.h"

using namespace oinfer;
using oinfer::testing::OpTester;

namespace {

Tensor randomTensor(std::vector<int64_t> shape, std::mt19937& rng, float lo = -1.f, float hi = 1.f) {
  Tensor t(DataType::kFloat, std::move(shape));
  std::uniform_real_distribution<float> d(lo, hi);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = d(rng);
  return t;
}

Tensor scalar(float v) { return Tensor::fromVector<float>({}, {v}); }

// A small graph builder: inputs, initializers and nodes by name.
struct Builder {
  ir::Graph g;
  std::mt19937 rng{7};
  std::map<std::string, Tensor> feeds;
  explicit Builder(int64_t opset) { g.opsetImports[""] = opset; }
  void input(const std::string& name, std::vector<int64_t> shape, float lo = -1.f, float hi = 1.f) {
    g.inputs.push_back(ValueInfo{name, ValueKind::kTensor, DataType::kFloat, true, toShape(shape)});
    feeds[name] = randomTensor(shape, rng, lo, hi);
  }
  void init(const std::string& name, Tensor t) { g.initializers[name] = std::move(t); }
  void weight(const std::string& name, std::vector<int64_t> shape) { init(name, randomTensor(shape, rng)); }
  Node& node(const std::string& op, std::vector<std::string> in, std::vector<std::string> out) {
    Node n;
    n.opType = op;
    n.name = op + "_" + std::to_string(g.nodes.size());
    n.inputs = std::move(in);
    n.outputs = std::move(out);
    g.nodes.push_back(n);
    return g.nodes.back();
  }
  void output(const std::string& name) {
    g.outputs.push_back(ValueInfo{name, ValueKind::kTensor, DataType::kFloat, false, {}});
  }
};

void ints(Node& n, const std::string& name, std::vector<int64_t> v) {
  Attribute a;
  a.name = name;
  a.type = AttrType::kInts;
  a.ints = std::move(v);
  n.attributes.push_back(a);
}
void intAttr(Node& n, const std::string& name, int64_t v) {
  Attribute a;
  a.name = name;
  a.type = AttrType::kInt;
  a.i = v;
  n.attributes.push_back(a);
}
void floatAttr(Node& n, const std::string& name, float v) {
  Attribute a;
  a.name = name;
  a.type = AttrType::kFloat;
  a.f = v;
  n.attributes.push_back(a);
}

int count(const ir::Graph& g, const std::string& op) {
  int n = 0;
  for (const Node& node : g.nodes) n += node.opType == op;
  return n;
}

// Runs with the passes off and on; returns the optimized graph for inspection.
ir::Graph expectSameOutputs(const Builder& b, float rtol = 1e-4f, float atol = 1e-5f) {
  SessionOptions off, on;
  off.optimizationLevel = 0;
  on.optimizationLevel = 2;
  Session plain(wrap(b.g), off), optimized(wrap(b.g), on);
  TensorMap feeds(b.feeds.begin(), b.feeds.end());
  auto x = plain.run(feeds);
  auto y = optimized.run(feeds);
  EXPECT_EQ(x.size(), y.size());
  for (size_t k = 0; k < x.size() && k < y.size(); ++k) {
    EXPECT_EQ(x[k].shape(), y[k].shape());
    if (x[k].shape() != y[k].shape()) continue;
    for (int64_t i = 0; i < x[k].numel(); ++i) {
      const float e = x[k].data<float>()[i], v = y[k].data<float>()[i];
      if (std::fabs(v - e) > atol + rtol * std::fabs(e)) {
        ADD_FAILURE() << "output " << k << " element " << i << ": " << v << " vs " << e;
        break;
      }
    }
  }
  return irOf(optimized.graph());
}

// The LayerNorm pattern torch exports before opset 17, fed by a residual Add.
void layerNormPattern(Builder& b, const std::string& x, const std::string& y, bool axesAsInput) {
  auto mean = [&](const std::string& in, const std::string& out) {
    if (axesAsInput) {
      b.node("ReduceMean", {in, "axes"}, {out});
    } else {
      ints(b.node("ReduceMean", {in}, {out}), "axes", {-1});
    }
  };
  mean(x, x + "_m");
  b.node("Sub", {x, x + "_m"}, {x + "_d"});
  b.node("Pow", {x + "_d", "two"}, {x + "_p"});
  mean(x + "_p", x + "_v");
  b.node("Add", {x + "_v", "eps"}, {x + "_ve"});
  b.node("Sqrt", {x + "_ve"}, {x + "_s"});
  b.node("Div", {x + "_d", x + "_s"}, {x + "_n"});
  b.node("Mul", {x + "_n", "gamma"}, {x + "_g"});
  b.node("Add", {x + "_g", "beta"}, {y});
}

void layerNormParams(Builder& b, int64_t d, bool axesAsInput) {
  b.init("two", scalar(2.f));
  b.init("eps", scalar(1e-5f));
  b.init("gamma", randomTensor({d}, b.rng, 0.5f, 1.5f));
  b.weight("beta", {d});
  if (axesAsInput) b.init("axes", Tensor::fromVector<int64_t>({1}, {-1}));
}

}  // namespace

TEST(TransformerPasses, LayerNormPatternWithResidualBecomesOneNode) {
  Builder b(13);
  b.input("a", {2, 5, 16});
  b.input("r", {2, 5, 16}, -3.f, 5.f);
  layerNormParams(b, 16, false);
  b.node("Add", {"a", "r"}, {"x"});
  layerNormPattern(b, "x", "y", false);
  b.output("y");
  ir::Graph g = expectSameOutputs(b);
  ASSERT_EQ(g.nodes.size(), 1u);
  EXPECT_EQ(g.nodes[0].opType, "LayerNorm");
  EXPECT_EQ(g.nodes[0].domain, "ai.oinfer");
  EXPECT_EQ(g.nodes[0].inputs.size(), 4u);  // x, gamma, beta, skip
}

TEST(TransformerPasses, LayerNormPatternOpset18AxesInput) {
  Builder b(18);
  b.input("x", {3, 8});
  layerNormParams(b, 8, true);
  layerNormPattern(b, "x", "y", true);
  b.output("y");
  ir::Graph g = expectSameOutputs(b);
  EXPECT_EQ(count(g, "LayerNorm"), 1);
  EXPECT_EQ(count(g, "ReduceMean"), 0);
}

TEST(TransformerPasses, PreNormResidualSumStaysAnOutput) {
  // x = a + r feeds the native LayerNormalization and is read again later.
  Builder b(17);
  b.input("a", {1, 4, 12});
  b.input("r", {1, 4, 12});
  b.init("gamma", randomTensor({12}, b.rng, 0.5f, 1.5f));
  b.weight("beta", {12});
  b.node("Add", {"a", "r"}, {"x"});
  floatAttr(b.node("LayerNormalization", {"x", "gamma", "beta"}, {"n"}), "epsilon", 1e-6f);
  b.node("Mul", {"n", "x"}, {"y"});
  b.output("y");
  b.output("x");
  ir::Graph g = expectSameOutputs(b);
  EXPECT_EQ(count(g, "Add"), 0);
  ASSERT_EQ(count(g, "LayerNorm"), 1);
  for (const Node& n : g.nodes) {
    if (n.opType == "LayerNorm") {
      EXPECT_EQ(n.outputs.size(), 2u);
    }
  }
}

TEST(TransformerPasses, LayerNormWithStatisticsOutputsIsLeftAlone) {
  Builder b(17);
  b.input("x", {2, 6});
  b.init("gamma", randomTensor({6}, b.rng));
  b.node("LayerNormalization", {"x", "gamma"}, {"y", "mean"});
  b.output("y");
  b.output("mean");
  ir::Graph g = expectSameOutputs(b);
  EXPECT_EQ(count(g, "LayerNormalization"), 1);
}

TEST(TransformerPasses, GeluTorchFormFusesIntoMatMul) {
  // MatMul -> Add(bias, .) -> Div(sqrt 2) / Erf / Add 1 / Mul x / Mul 0.5
  Builder b(14);
  b.input("x", {2, 3, 8});
  b.weight("W", {8, 24});
  b.weight("B", {24});
  b.init("sqrt2", scalar(1.41421356f));
  b.init("one", scalar(1.f));
  b.init("half", scalar(0.5f));
  b.node("MatMul", {"x", "W"}, {"m"});
  b.node("Add", {"B", "m"}, {"h"});
  b.node("Div", {"h", "sqrt2"}, {"d"});
  b.node("Erf", {"d"}, {"e"});
  b.node("Add", {"e", "one"}, {"a"});
  b.node("Mul", {"h", "a"}, {"hm"});
  b.node("Mul", {"hm", "half"}, {"y"});
  b.output("y");
  ir::Graph g = expectSameOutputs(b);
  ASSERT_EQ(g.nodes.size(), 1u);
  EXPECT_EQ(g.nodes[0].opType, "FusedMatMul");
  EXPECT_EQ(g.nodes[0].attrString("activation", ""), "Gelu");
}

TEST(TransformerPasses, GeluHalfFirstFormStandalone) {
  // x * 0.5 * (1 + erf(x * 0.7071)) on a graph input: a lone Gelu.
  Builder b(13);
  b.input("x", {4, 33}, -5.f, 5.f);
  b.init("rsqrt2", scalar(0.70710678f));
  b.init("one", scalar(1.f));
  b.init("half", scalar(0.5f));
  b.node("Mul", {"x", "half"}, {"xh"});
  b.node("Mul", {"rsqrt2", "x"}, {"d"});
  b.node("Erf", {"d"}, {"e"});
  b.node("Add", {"one", "e"}, {"a"});
  b.node("Mul", {"xh", "a"}, {"y"});
  b.output("y");
  ir::Graph g = expectSameOutputs(b);
  ASSERT_EQ(g.nodes.size(), 1u);
  EXPECT_EQ(g.nodes[0].opType, "Gelu");
}

TEST(TransformerPasses, MatMulBiasReluAndResidual) {
  Builder b(13);
  b.input("x", {1, 5, 16});
  b.weight("W1", {16, 16});
  b.weight("B1", {16});
  b.weight("W2", {16, 16});
  b.weight("B2", {16});
  b.node("MatMul", {"x", "W1"}, {"m1"});
  b.node("Add", {"m1", "B1"}, {"h1"});
  b.node("Relu", {"h1"}, {"r1"});
  b.node("MatMul", {"r1", "W2"}, {"m2"});
  b.node("Add", {"m2", "B2"}, {"h2"});
  b.node("Add", {"x", "h2"}, {"y"});
  b.output("y");
  ir::Graph g = expectSameOutputs(b);
  ASSERT_EQ(g.nodes.size(), 2u);
  EXPECT_EQ(g.nodes[0].attrString("activation", ""), "Relu");
  EXPECT_EQ(g.nodes[1].inputs.size(), 4u);  // x, W, bias, residual
}

TEST(TransformerPasses, MatMulWhoseOutputIsReadTwiceKeepsItsBiasAdd) {
  Builder b(13);
  b.input("x", {3, 8});
  b.weight("W", {8, 4});
  b.weight("B", {4});
  b.node("MatMul", {"x", "W"}, {"m"});
  b.node("Add", {"m", "B"}, {"y"});
  b.output("y");
  b.output("m");
  ir::Graph g = expectSameOutputs(b);
  EXPECT_EQ(count(g, "Add"), 1);
  EXPECT_EQ(count(g, "FusedMatMul"), 1);
}

TEST(TransformerPasses, TransposePairsAndIdentityDisappear) {
  Builder b(13);
  b.input("x", {2, 3, 4, 5});
  b.init("s1", Tensor::fromVector<int64_t>({2}, {6, 20}));
  b.init("s2", Tensor::fromVector<int64_t>({3}, {-1, 4, 5}));
  ints(b.node("Transpose", {"x"}, {"t1"}), "perm", {0, 2, 1, 3});
  ints(b.node("Transpose", {"t1"}, {"t2"}), "perm", {0, 2, 1, 3});  // identity overall
  b.node("Identity", {"t2"}, {"i"});
  ints(b.node("Transpose", {"i"}, {"t3"}), "perm", {0, 2, 1, 3});
  ints(b.node("Transpose", {"t3"}, {"t4"}), "perm", {0, 1, 3, 2});  // one Transpose (0,2,3,1)
  b.node("Reshape", {"t4", "s1"}, {"r1"});
  b.node("Reshape", {"r1", "s2"}, {"y"});
  b.output("y");
  ir::Graph g = expectSameOutputs(b, 0.f, 0.f);
  EXPECT_EQ(count(g, "Transpose"), 1);
  EXPECT_EQ(count(g, "Identity"), 0);
  EXPECT_EQ(count(g, "Reshape"), 1);
  for (const Node& n : g.nodes) {
    if (n.opType == "Transpose") {
      EXPECT_EQ(n.attrInts("perm"), (std::vector<int64_t>{0, 2, 3, 1}));
    }
  }
}

// Batch-1 [S, 1, D] <-> [1, S, D] swaps (ViT's export writes two per layer)
// only move axes of size 1: each becomes a Reshape, a view. One that moves
// a larger axis stays a Transpose, as does a chain whose second step is one
// the first rewrite touched (the pair rule must not compose them).
TEST(TransformerPasses, TransposeOfUnitAxesBecomesReshape) {
  Builder b(13);
  b.input("x", {5, 1, 8});
  ints(b.node("Transpose", {"x"}, {"t1"}), "perm", {1, 0, 2});  // [1, 5, 8]: a view
  ints(b.node("Transpose", {"t1"}, {"t2"}), "perm", {0, 2, 1});  // [1, 8, 5]: real
  ints(b.node("Transpose", {"t2"}, {"t3"}), "perm", {2, 0, 1});  // [5, 1, 8]: real
  b.node("Relu", {"t3"}, {"y"});
  b.output("y");
  ir::Graph g = expectSameOutputs(b, 0.f, 0.f);
  EXPECT_EQ(count(g, "Reshape"), 1);
  for (const Node& n : g.nodes)
    if (n.opType == "Reshape") EXPECT_EQ(n.inputs[0], "x");
}

TEST(TransformerPasses, TransposeOfAGraphOutputIsKept) {
  Builder b(13);
  b.input("x", {2, 3});
  b.node("Transpose", {"x"}, {"t"});
  b.node("Transpose", {"t"}, {"y"});
  b.output("y");
  b.output("t");
  ir::Graph g = expectSameOutputs(b, 0.f, 0.f);
  EXPECT_EQ(count(g, "Transpose"), 2);
}

namespace {

// Q[1,2,5,4] Kt[1,2,4,6] V[1,2,6,3]; scores scaled, masked, softmaxed.
Builder attentionGraph(bool divScale, bool mask, bool scaleOperands) {
  Builder b(13);
  b.input("q", {1, 2, 5, 4}, -2.f, 2.f);
  b.input("kt", {1, 2, 4, 6}, -2.f, 2.f);
  b.input("v", {1, 2, 6, 3});
  std::string q = "q", kt = "kt";
  if (scaleOperands) {
    b.init("s", scalar(0.7071f));
    b.node("Mul", {"q", "s"}, {"qs"});
    b.node("Mul", {"s", "kt"}, {"ks"});
    q = "qs";
    kt = "ks";
  }
  b.node("MatMul", {q, kt}, {"sc"});
  std::string s = "sc";
  if (divScale) {
    b.init("c", scalar(2.f));
    b.node("Div", {s, "c"}, {"sd"});
    s = "sd";
  }
  if (mask) {
    Tensor m(DataType::kFloat, {1, 1, 1, 6});
    for (int i = 0; i < 6; ++i) m.data<float>()[i] = i == 4 ? -1e4f : 0.f;
    b.g.inputs.push_back(ValueInfo{"mask", ValueKind::kTensor, DataType::kFloat, true, {1, 1, 1, 6}});
    b.feeds["mask"] = m;
    b.node("Add", {"mask", s}, {"sm"});
    s = "sm";
  }
  intAttr(b.node("Softmax", {s}, {"p"}), "axis", 3);
  b.node("MatMul", {"p", "v"}, {"y"});
  b.output("y");
  return b;
}

}  // namespace

TEST(TransformerPasses, AttentionWithDivAndMask) {
  ir::Graph g = expectSameOutputs(attentionGraph(true, true, false));
  ASSERT_EQ(g.nodes.size(), 1u);
  EXPECT_EQ(g.nodes[0].opType, "FusedAttention");
  EXPECT_FLOAT_EQ(g.nodes[0].attrFloat("scale", 0.f), 0.5f);
}

TEST(TransformerPasses, AttentionWithScaledOperands) {
  ir::Graph g = expectSameOutputs(attentionGraph(false, false, true));
  ASSERT_EQ(g.nodes.size(), 1u);
  EXPECT_NEAR(g.nodes[0].attrFloat("scale", 0.f), 0.7071f * 0.7071f, 1e-6f);
}

// torch's scaled_dot_product_attention export computes the operands' scale
// from Q's shape at run time: sqrt(1 / sqrt(float(shape(q)[-1]))). Constant
// folding turns the chain into an initializer first, so both Muls are
// absorbed; with a symbolic head size it stays (and so do the Muls).
Builder shapeScaledAttention(bool symbolicHead) {
  Builder b(13);
  b.input("q", {1, 2, 5, 4}, -2.f, 2.f);
  b.input("kt", {1, 2, 4, 6}, -2.f, 2.f);
  b.input("v", {1, 2, 6, 3});
  if (symbolicHead) b.g.inputs[0].shape[3] = Dim::sym("d");
  b.init("last", Tensor::fromVector<int64_t>({}, {-1}));
  b.init("one", scalar(1.f));
  b.node("Shape", {"q"}, {"qshape"});
  intAttr(b.node("Gather", {"qshape", "last"}, {"d"}), "axis", 0);
  intAttr(b.node("Cast", {"d"}, {"df"}), "to", int64_t(DataType::kFloat));
  b.node("Sqrt", {"df"}, {"sd"});
  b.node("Div", {"one", "sd"}, {"inv"});
  b.node("Sqrt", {"inv"}, {"s"});
  b.node("Mul", {"q", "s"}, {"qs"});
  b.node("Mul", {"kt", "s"}, {"ks"});
  b.node("MatMul", {"qs", "ks"}, {"sc"});
  intAttr(b.node("Softmax", {"sc"}, {"p"}), "axis", 3);
  b.node("MatMul", {"p", "v"}, {"y"});
  b.output("y");
  return b;
}

TEST(TransformerPasses, AttentionScaleComputedFromShapesIsFolded) {
  ir::Graph g = expectSameOutputs(shapeScaledAttention(false));
  ASSERT_EQ(g.nodes.size(), 1u) << "the shape chain folded, both Muls absorbed";
  EXPECT_EQ(g.nodes[0].opType, "FusedAttention");
  EXPECT_NEAR(g.nodes[0].attrFloat("scale", 0.f), 0.5f, 1e-6f);
}

TEST(TransformerPasses, FoldConstantsLeavesWhatDependsOnSymbolicDims) {
  Builder b = shapeScaledAttention(true);
  EXPECT_EQ(passes::foldConstants(b.g, passContext()), 0);
  EXPECT_EQ(count(b.g, "Shape"), 1);
  EXPECT_EQ(count(b.g, "Mul"), 2);
  Builder s = shapeScaledAttention(false);
  EXPECT_EQ(passes::foldConstants(s.g, passContext()), 6) << "Shape, Gather, Cast, Sqrt, Div, Sqrt";
  EXPECT_EQ(count(s.g, "Shape"), 0);
  ASSERT_TRUE(s.g.initializers.count("s"));
  EXPECT_NEAR(s.g.initializers.at("s").data<float>()[0], 0.70710678f, 1e-6f);
}

TEST(TransformerPasses, LevelZeroKeepsEveryNode) {
  Builder b = attentionGraph(true, true, false);
  passes::PipelineOptions level0;
  level0.level = 0;
  passes::optimize(b.g, builtinRegistry(), level0);
  EXPECT_EQ(b.g.nodes.size(), 5u);
}

// ---- the internal ops through OpTester ---------------------------------

TEST(FusedTransformerOps, LayerNormWithSkipAndSumOutput) {
  // numpy: s = x + k; y = (s - s.mean(-1, keepdims=True)) / np.sqrt(s.var(-1, keepdims=True) + 1e-5) * g + b
  OpTester t("LayerNorm", 1, "ai.oinfer");
  t.attr("epsilon", 1e-5f)
      .input("x", Tensor::fromVector<float>({2, 3}, {1, 2, 3, -1, 0, 4}))
      .constantInput("g", Tensor::fromVector<float>({3}, {1, 2, 0.5f}))
      .constantInput("b", Tensor::fromVector<float>({3}, {0, 1, -1}))
      .input("k", Tensor::fromVector<float>({2, 3}, {0, 0, 3, 1, 1, 1}))
      .expect("y", Tensor::fromVector<float>({2, 3}, {-0.9258191f, 0.0741809f, -0.3056357f, -0.9258191f, 0.0741809f,
                                                       -0.3056357f}))
      .expect("sum", Tensor::fromVector<float>({2, 3}, {1, 2, 6, 0, 1, 5}));
  t.run();
}

// The softmax row kernel (the AVX-512 pass where the CPU has it): every tail
// length, BERT's and ViT's row widths, scale and mask (with -inf entries),
// in place and not, against double precision; rows masked entirely, with a
// NaN or with +inf give NaN everywhere (the unfused graph's result).
TEST(FusedTransformerOps, SoftmaxRowsAgainstDouble) {
  std::mt19937 rng(3);
  std::normal_distribution<float> nd(0.f, 4.f);
  for (int64_t n : {1, 2, 15, 16, 17, 31, 33, 64, 128, 197}) {
    std::vector<float> x(n), mask(n), y(n);
    for (auto& v : x) v = nd(rng);
    for (int64_t j = 0; j < n; ++j) mask[j] = j % 5 == 3 && n > 1 ? -INFINITY : nd(rng) * 0.1f;
    for (bool masked : {false, true})
      for (bool inPlace : {false, true}) {
        std::vector<double> want(n);
        double mx = -INFINITY, sum = 0;
        for (int64_t j = 0; j < n; ++j) {
          want[j] = double(x[j]) * 0.125 + (masked ? double(mask[j]) : 0.0);
          mx = std::max(mx, want[j]);
        }
        for (auto& w : want) sum += (w = std::exp(w - mx));
        std::vector<float> in = x;
        float* out = inPlace ? in.data() : y.data();
        cpu::scaledMaskedSoftmaxRow(in.data(), masked ? mask.data() : nullptr, 0.125f, out, n);
        for (int64_t j = 0; j < n; ++j)
          ASSERT_NEAR(out[j], want[j] / sum, 1e-6 + 1e-5 * want[j] / sum) << "n " << n << " j " << j;
      }
    std::vector<float> plain = x;
    cpu::softmaxRow(plain.data(), plain.data(), n);
    double s = 0;
    for (float v : plain) s += v;
    EXPECT_NEAR(s, 1.0, 1e-5) << n;
  }
  for (float bad : {NAN, INFINITY}) {
    std::vector<float> x(40, 0.5f);
    x[21] = bad;
    cpu::softmaxRow(x.data(), x.data(), 40);
    for (float v : x) EXPECT_TRUE(std::isnan(v)) << bad;
  }
  std::vector<float> x(20, 1.f), mask(20, -INFINITY), y(20);
  cpu::scaledMaskedSoftmaxRow(x.data(), mask.data(), 1.f, y.data(), 20);
  for (float v : y) EXPECT_TRUE(std::isnan(v)) << "a row masked entirely";
}

// The multi-row form (four rows interleaved, then single rows): every row
// equal to the one-row form, with one mask row for all or a row each, and a
// NaN row and an entirely masked row inside a group of four.
TEST(FusedTransformerOps, SoftmaxManyRowsMatchOneRow) {
  std::mt19937 rng(5);
  std::normal_distribution<float> nd(0.f, 4.f);
  for (int64_t n : {7, 16, 128, 197})
    for (int64_t rows : {1, 4, 6, 9})
      for (int64_t ldMask : {int64_t{0}, n}) {
        std::vector<float> x(rows * n), mask((ldMask ? rows : 1) * n);
        for (auto& v : x) v = nd(rng);
        for (size_t j = 0; j < mask.size(); ++j) mask[j] = j % 7 == 2 ? -INFINITY : nd(rng) * 0.1f;
        if (rows >= 4) x[1 * n + n / 2] = NAN;                                       // row 1: NaN
        if (rows >= 4 && ldMask) std::fill(mask.begin() + 2 * n, mask.begin() + 3 * n, -INFINITY);  // row 2: all masked
        std::vector<float> want(rows * n), got = x;
        for (int64_t r = 0; r < rows; ++r)
          cpu::scaledMaskedSoftmaxRow(x.data() + r * n, mask.data() + r * ldMask, 0.3f, want.data() + r * n, n);
        cpu::scaledMaskedSoftmaxRows(got.data(), mask.data(), ldMask, 0.3f, got.data(), rows, n);
        for (int64_t i = 0; i < rows * n; ++i) {
          if (std::isnan(want[i])) {
            ASSERT_TRUE(std::isnan(got[i])) << "n " << n << " rows " << rows << " i " << i;
          } else {
            ASSERT_NEAR(got[i], want[i], 1e-7f) << "n " << n << " rows " << rows << " i " << i;
          }
        }
      }
}

TEST(FusedTransformerOps, FusedMatMulGelu) {
  // numpy: h = x @ W + b; np.vectorize(lambda v: 0.5 * v * (1 + math.erf(v / np.sqrt(2))))(h)
  OpTester t("FusedMatMul", 1, "ai.oinfer");
  t.attr("activation", "Gelu")
      .input("x", Tensor::fromVector<float>({2, 2}, {1, -2, 0.5f, 3}))
      .constantInput("W", Tensor::fromVector<float>({2, 3}, {1, 0, -1, 2, 1, 0.5f}))
      .constantInput("b", Tensor::fromVector<float>({3}, {0.5f, -1, 0}))
      .expect("y", Tensor::fromVector<float>({2, 3}, {-1.5524163e-02f, -4.0496942e-03f, -4.5500264e-02f, 7.f, 1.9544997f,
                                                       8.4134477e-01f}));
  t.run();
}

TEST(FusedTransformerOps, FusedMatMulRejectsMismatchedInner) {
  OpTester t("FusedMatMul", 1, "ai.oinfer");
  t.input("x", Tensor::fromVector<float>({2, 3}, {1, 2, 3, 4, 5, 6}))
      .constantInput("W", Tensor::fromVector<float>({2, 2}, {1, 0, 0, 1}))
      .output("y");
  t.expectError("inner dimensions differ");
}

TEST(FusedTransformerOps, AttentionRejectsBadMask) {
  OpTester t("FusedAttention", 1, "ai.oinfer");
  t.input("q", Tensor(DataType::kFloat, {1, 2, 4}))
      .input("kt", Tensor(DataType::kFloat, {1, 4, 3}))
      .input("v", Tensor(DataType::kFloat, {1, 3, 2}))
      .input("m", Tensor(DataType::kFloat, {1, 2, 2}))
      .output("y");
  t.expectError("cannot be broadcast");
}

namespace {

// BERT's attention over values q3, k3, v3 [B, S, H*D] (initializers split /
// merge, c and mask in place): head split (Reshape + Transpose), K^T, scores
// / c + mask, Softmax, * V, head merge -> graph output y.
void bertHeads(Builder& b) {
  for (const char* n : {"q", "k", "v"}) {
    const std::string s(n);
    b.node("Reshape", {s + "3", "split"}, {s + "4"});
    ints(b.node("Transpose", {s + "4"}, {s + "h"}), "perm", {0, 2, 1, 3});
  }
  ints(b.node("Transpose", {"kh"}, {"kt"}), "perm", {0, 1, 3, 2});
  b.node("MatMul", {"qh", "kt"}, {"sc"});
  b.node("Div", {"sc", "c"}, {"sd"});
  b.node("Add", {"sd", "mask"}, {"sm"});
  intAttr(b.node("Softmax", {"sm"}, {"p"}), "axis", -1);
  b.node("MatMul", {"p", "vh"}, {"ctx"});
  ints(b.node("Transpose", {"ctx"}, {"ct"}), "perm", {0, 2, 1, 3});
  b.node("Reshape", {"ct", "merge"}, {"y"});
  b.output("y");
}

}  // namespace

TEST(TransformerPasses, AttentionReadsProjectionLayoutDirectly) {
  // BERT's head split: [1,5,8] -> Reshape [1,5,2,4] -> Transpose; K also
  // transposed for Q*K^T (two Transposes that the first pass merges); the
  // context goes back through Transpose + Reshape to [1,5,8].
  Builder b(13);
  for (const char* n : {"q3", "k3", "v3"}) b.input(n, {1, 5, 8}, -2.f, 2.f);
  b.init("split", Tensor::fromVector<int64_t>({4}, {1, 5, 2, 4}));
  b.init("merge", Tensor::fromVector<int64_t>({3}, {1, 5, 8}));
  b.init("c", scalar(2.f));
  Tensor m(DataType::kFloat, {1, 1, 1, 5});
  for (int i = 0; i < 5; ++i) m.data<float>()[i] = i == 1 ? -1e4f : 0.f;
  b.init("mask", m);
  bertHeads(b);
  ir::Graph g = expectSameOutputs(b);
  ASSERT_EQ(g.nodes.size(), 1u);
  EXPECT_EQ(g.nodes[0].opType, "FusedAttention");
  EXPECT_EQ(g.nodes[0].attrInt("num_heads", 0), 2);
  EXPECT_EQ(g.nodes[0].inputs[0], "q3");
}

namespace {

// torch nn.MultiheadAttention's sequence-first export (ViT): x [S=5, N, 8]
// (N symbolic; fed 2) -> one QKV projection [5, N, 24] -> Reshape [5, N, 3, 8]
// -> Unsqueeze 0 -> Transpose [3,1,2,0,4] -> Squeeze 3 -> Gather 0/1/2 (or,
// fusedQkv false, three projections), each -> Reshape [5, N*2, 4] ->
// Transpose [1,0,2] -> Reshape [N, 2, 5, 4]; K -> Transpose [0,1,3,2];
// scaled scores, Softmax, * V -> Transpose [2,0,1,3] -> Reshape [5, N, 8].
// The head-split targets hold 0 / -1 (their outputs' middle dims are only
// known as fresh symbols), the [N, 2, 5, 4] one is built from Shape(x) at run
// time, as the export builds all of them.
Builder seqFirstAttention(bool fusedQkv) {
  Builder b(13);
  b.input("x", {5, 2, 8}, -2.f, 2.f);
  b.g.inputs[0].shape[1] = Dim::sym("N");
  b.init("axis0", Tensor::fromVector<int64_t>({1}, {0}));
  b.init("axis3", Tensor::fromVector<int64_t>({1}, {3}));
  b.init("split3", Tensor::fromVector<int64_t>({4}, {0, 0, 3, 8}));
  b.init("heads", Tensor::fromVector<int64_t>({3}, {5, -1, 4}));
  b.init("one", Tensor::fromVector<int64_t>({}, {1}));
  b.init("hsd", Tensor::fromVector<int64_t>({3}, {2, 5, 4}));
  b.node("Shape", {"x"}, {"xs"});
  intAttr(b.node("Gather", {"xs", "one"}, {"n"}), "axis", 0);
  b.node("Unsqueeze", {"n", "axis0"}, {"n1"});
  intAttr(b.node("Concat", {"n1", "hsd"}, {"batch"}), "axis", 0);
  b.init("merge", Tensor::fromVector<int64_t>({3}, {5, -1, 8}));
  b.init("c", scalar(2.f));
  std::string src[3];
  if (fusedQkv) {
    b.weight("Wqkv", {8, 24});
    b.node("MatMul", {"x", "Wqkv"}, {"qkv"});
    b.node("Reshape", {"qkv", "split3"}, {"r"});
    b.node("Unsqueeze", {"r", "axis0"}, {"u"});
    ints(b.node("Transpose", {"u"}, {"t1"}), "perm", {3, 1, 2, 0, 4});
    b.node("Squeeze", {"t1", "axis3"}, {"sq"});
    for (int i = 0; i < 3; ++i) {
      const std::string idx = "i" + std::to_string(i);
      b.init(idx, Tensor::fromVector<int64_t>({}, {i}));
      src[i] = "x3_" + std::to_string(i);
      intAttr(b.node("Gather", {"sq", idx}, {src[i]}), "axis", 0);
    }
  } else {
    for (int i = 0; i < 3; ++i) {
      const std::string w = "W" + std::to_string(i);
      b.weight(w, {8, 8});
      src[i] = "x3_" + std::to_string(i);
      b.node("MatMul", {"x", w}, {src[i]});
    }
  }
  const char* names[3] = {"q", "k", "v"};
  for (int i = 0; i < 3; ++i) {
    const std::string n = names[i];
    b.node("Reshape", {src[i], "heads"}, {n + "1"});
    ints(b.node("Transpose", {n + "1"}, {n + "2"}), "perm", {1, 0, 2});
    b.node("Reshape", {n + "2", "batch"}, {n + "3"});
  }
  ints(b.node("Transpose", {"k3"}, {"kt"}), "perm", {0, 1, 3, 2});
  b.node("MatMul", {"q3", "kt"}, {"sc"});
  b.node("Div", {"sc", "c"}, {"sd"});
  intAttr(b.node("Softmax", {"sd"}, {"p"}), "axis", -1);
  b.node("MatMul", {"p", "v3"}, {"ctx"});
  ints(b.node("Transpose", {"ctx"}, {"ct"}), "perm", {2, 0, 1, 3});
  b.node("Reshape", {"ct", "merge"}, {"y"});
  b.output("y");
  return b;
}

}  // namespace

TEST(TransformerPasses, AttentionReadsSequenceFirstFusedQkvDirectly) {
  ir::Graph g = expectSameOutputs(seqFirstAttention(true));
  EXPECT_EQ(count(g, "Transpose"), 0) << "QKV split, head split / merge and K's transpose all absorbed";
  EXPECT_EQ(count(g, "Gather"), 0) << "the QKV split's, and the batch size's for the removed Reshape's target";
  EXPECT_EQ(count(g, "Shape"), 0);
  ASSERT_EQ(count(g, "FusedAttention"), 1);
  for (const Node& n : g.nodes)
    if (n.opType == "FusedAttention") {
      EXPECT_EQ(n.attrInt("seq_first", 0), 1);
      EXPECT_EQ(n.attrInt("num_heads", 0), 2);
      EXPECT_EQ(n.attrInt("head_size", 0), 4);
      EXPECT_EQ(n.attrInts("offsets"), (std::vector<int64_t>{0, 8, 16}));
      EXPECT_EQ(n.inputs[0], n.inputs[1]);
      EXPECT_EQ(n.inputs[0], n.inputs[2]);
    }
}

TEST(TransformerPasses, AttentionReadsSequenceFirstProjectionsDirectly) {
  ir::Graph g = expectSameOutputs(seqFirstAttention(false));
  EXPECT_EQ(count(g, "Transpose"), 0);
  ASSERT_EQ(count(g, "FusedAttention"), 1);
  for (const Node& n : g.nodes)
    if (n.opType == "FusedAttention") {
      EXPECT_EQ(n.attrInts("offsets"), (std::vector<int64_t>{0, 0, 0}));
      EXPECT_NE(n.inputs[0], n.inputs[1]);
    }
}

TEST(TransformerPasses, QkvProjectionsBecomeOneGemm) {
  // BERT's self-attention: Q, K, V each MatMul(x, W) + b of one input, head
  // split, attention with a mask, head merge. After the passes: one
  // FusedMatMul by the three weights side by side and FusedAttention reading
  // it at column offsets 0, 8, 16.
  Builder b(13);
  b.input("x", {2, 5, 8}, -2.f, 2.f);
  b.init("split", Tensor::fromVector<int64_t>({4}, {2, 5, 2, 4}));
  b.init("merge", Tensor::fromVector<int64_t>({3}, {2, 5, 8}));
  b.init("c", scalar(2.f));
  Tensor m(DataType::kFloat, {2, 1, 1, 5});
  for (int i = 0; i < 10; ++i) m.data<float>()[i] = i == 3 || i == 6 ? -1e4f : 0.f;
  b.init("mask", m);
  for (const char* n : {"q", "k", "v"}) {
    const std::string s(n);
    b.weight("W" + s, {8, 8});
    if (s != "k") b.weight("b" + s, {8});  // K without a bias: zeros in the fused one
    b.node("MatMul", {"x", "W" + s}, {s + "m"});
    if (s != "k") b.node("Add", {s + "m", "b" + s}, {s + "3"});
    else b.node("Identity", {s + "m"}, {s + "3"});
  }
  bertHeads(b);
  ir::Graph g = expectSameOutputs(b);
  ASSERT_EQ(g.nodes.size(), 2u);
  EXPECT_EQ(g.nodes[0].opType, "FusedMatMul");
  EXPECT_EQ(g.initializers.at(g.nodes[0].inputs[1]).shape(), (std::vector<int64_t>{8, 24}));
  EXPECT_EQ(g.nodes[1].opType, "FusedAttention");
  EXPECT_EQ(g.nodes[1].attrInts("offsets"), (std::vector<int64_t>{0, 8, 16}));
  EXPECT_EQ(g.nodes[1].attrInt("head_size", 0), 4);
}

// Heads read at column offsets (BERT's fused QKV, [B, S, W]; ViT's sequence
// first, [S, B, W]): an offset that puts a head past its row's end is refused,
// naming the offsets.
TEST(FusedTransformerOps, AttentionAtOffsetsRejectsNarrowInputs) {
  for (bool seqFirst : {false, true}) {
    SCOPED_TRACE(seqFirst ? "seq_first" : "[B, S, W]");
    OpTester t("FusedAttention", 1, "ai.oinfer");
    t.input("q", Tensor(DataType::kFloat, {1, 5, 24}))
        .input("k", Tensor(DataType::kFloat, {1, 5, 24}))
        .input("v", Tensor(DataType::kFloat, {1, 5, 20}))
        .output("y");
    t.attr("num_heads", int64_t{2});
    t.attr("head_size", int64_t{4});
    if (seqFirst) t.attr("seq_first", int64_t{1});
    t.attr("offsets", std::vector<int64_t>{0, 8, 16});  // V's heads would end at column 24 of 20
    t.expectError("at column offsets 0, 8, 16");
  }
}

// seq_first / offsets without a head size (or with a bad offset list): the
// shape function refuses the node, and so does the kernel where the shapes
// are not known to shape inference.
TEST(FusedTransformerOps, AttentionAtOffsetsNeedsAHeadSize) {
  for (bool seqFirst : {false, true}) {
    SCOPED_TRACE(seqFirst ? "seq_first" : "[B, S, W]");
    OpTester t("FusedAttention", 1, "ai.oinfer");
    t.input("q", Tensor(DataType::kFloat, {1, 5, 24}))
        .input("k", Tensor(DataType::kFloat, {1, 5, 24}))
        .input("v", Tensor(DataType::kFloat, {1, 5, 24}))
        .output("y");
    t.attr("num_heads", int64_t{2});
    if (seqFirst) t.attr("seq_first", int64_t{1});
    t.attr("offsets", std::vector<int64_t>{0, 8, 16});
    t.expectError(seqFirst ? "num_heads / head_size are not positive" : "head_size is not positive");
  }
  Node n;
  n.opType = "FusedAttention";
  n.domain = "ai.oinfer";
  n.name = "att";
  n.inputs = {"q", "k", "v"};
  n.outputs = {"y"};
  intAttr(n, "num_heads", 2);
  intAttr(n, "seq_first", 1);
  ints(n, "offsets", {0, 8});  // two offsets, no head size
  const OpDef* def = builtinRegistry().find("ai.oinfer", "FusedAttention", 1);
  ASSERT_NE(def, nullptr);
  ValueInfo unknown{"q", ValueKind::kTensor, DataType::kFloat, false, {}};
  KernelInit init{n, 1, {&unknown, &unknown, &unknown}, {nullptr, nullptr, nullptr}, {&unknown}};
  try {
    def->cpu(init);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("need num_heads > 0, head_size > 0 and three offsets >= 0"),
              std::string::npos)
        << e.what();
  }
}

TEST(TransformerPasses, GemmTransBWithRowBiasAndRelu) {
  // torch's nn.Linear on 2-d input: Gemm(x, W[N,K], b[1,N], transB=1) -> Relu.
  Builder b(13);
  b.input("x", {3, 8});
  b.weight("W", {5, 8});
  b.weight("B", {1, 5});
  intAttr(b.node("Gemm", {"x", "W", "B"}, {"h"}), "transB", 1);
  b.node("Relu", {"h"}, {"y"});
  b.output("y");
  ir::Graph g = expectSameOutputs(b);
  ASSERT_EQ(g.nodes.size(), 1u);
  EXPECT_EQ(g.nodes[0].opType, "FusedMatMul");
  EXPECT_EQ(g.nodes[0].attrInt("transB", 0), 1);
  EXPECT_EQ(g.nodes[0].attrString("activation", ""), "Relu");
}

TEST(TransformerPasses, GemmWithAlphaIsLeftAlone) {
  Builder b(13);
  b.input("x", {3, 8});
  b.weight("W", {8, 5});
  floatAttr(b.node("Gemm", {"x", "W"}, {"y"}), "alpha", 0.5f);
  b.output("y");
  ir::Graph g = expectSameOutputs(b);
  EXPECT_EQ(count(g, "Gemm"), 1);
}

// ---- weights kept only in packed form ------------------------------------

// x @ w for row-major x [rows, K] and w [K, N] (the reference).
std::vector<float> matmulRef(const Tensor& x, const Tensor& w) {
  const int64_t rows = x.dim(0), K = x.dim(1), N = w.dim(1);
  std::vector<float> y(rows * N, 0.f);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t k = 0; k < K; ++k)
      for (int64_t n = 0; n < N; ++n) y[r * N + n] += x.data<float>()[r * K + k] * w.data<float>()[k * N + n];
  return y;
}

// A weight whose every reader keeps a packed copy (MatMul, Gemm, FusedMatMul)
// is freed once the first context is made: the graph keeps its name, dtype
// and shape, runs at new shapes (a new plan) still find the packed copy. A
// weight another node also reads keeps its data. With and without passes.
TEST(WeightRelease, PackedOnlyWeightsAreFreedOthersKept) {
  for (int level : {0, 1, 2}) {
    SCOPED_TRACE("optimizationLevel " + std::to_string(level));
    Builder b(17);
    b.g.inputs.push_back(ValueInfo{"x", ValueKind::kTensor, DataType::kFloat, true, {Dim::sym("rows"), Dim(8)}});
    b.weight("w_packed", {8, 6});
    b.weight("w_shared", {6, 6});
    b.weight("w_gemm", {5, 6});  // Gemm transB: [N, K]
    b.node("MatMul", {"x", "w_packed"}, {"h"});
    b.node("MatMul", {"h", "w_shared"}, {"y"});
    b.node("Mul", {"w_shared", "w_shared"}, {"sq"});  // a second, non-packing reader
    intAttr(b.node("Gemm", {"h", "w_gemm"}, {"g"}), "transB", 1);
    b.output("y");
    b.output("sq");
    b.output("g");
    const Tensor wp = b.g.initializers["w_packed"].clone(), ws = b.g.initializers["w_shared"].clone();
    const Tensor wg = b.g.initializers["w_gemm"].clone();
    SessionOptions opts;
    opts.optimizationLevel = level;
    Session session(wrap(b.g), opts);
    std::mt19937 rng(3);
    for (int64_t rows : {3, 7, 3}) {
      const Tensor x = randomTensor({rows, 8}, rng);
      const std::vector<Tensor> out = session.run({{"x", x}});
      Tensor h = Tensor::fromVector<float>({rows, 6}, matmulRef(x, wp));
      const std::vector<float> y = matmulRef(h, ws);
      Tensor wgT(DataType::kFloat, {6, 5});
      for (int64_t n = 0; n < 5; ++n)
        for (int64_t k = 0; k < 6; ++k) wgT.data<float>()[k * 5 + n] = wg.data<float>()[n * 6 + k];
      const std::vector<float> g = matmulRef(h, wgT);
      ASSERT_EQ(out[0].numel(), rows * 6);
      for (int64_t i = 0; i < rows * 6; ++i) EXPECT_NEAR(out[0].data<float>()[i], y[i], 1e-4) << "y " << i;
      for (int64_t i = 0; i < rows * 5; ++i) EXPECT_NEAR(out[2].data<float>()[i], g[i], 1e-4) << "g " << i;
      for (int64_t i = 0; i < 36; ++i)
        EXPECT_FLOAT_EQ(out[1].data<float>()[i], ws.data<float>()[i] * ws.data<float>()[i]);
      const auto& inits = irOf(session.graph()).initializers;
      for (const char* name : {"w_packed", "w_gemm"}) {
        const Tensor& t = inits.at(name);
        EXPECT_EQ(t.data(), nullptr) << name << ": only its packed copy should be left";
        EXPECT_EQ(t.dtype(), DataType::kFloat) << name;
        EXPECT_EQ(t.rank(), 2u) << name;
      }
      EXPECT_NE(inits.at("w_shared").data(), nullptr) << "w_shared is also read by Mul";
    }
  }
}
