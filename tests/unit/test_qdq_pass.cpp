// fuseQdq: each QDQ pattern on a small graph, run with the pass off
// (optimizationLevel 1: DQ -> float op -> Q, the reference semantics) and on
// (2). The outputs must agree within one quantization step of the output,
// the graph must hold the integer op (and no float copy of the weights), and
// the cases the pass must leave alone keep their float op.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "passes/pass_util.h"
#include "oinfer/oinfer.h"
#include "graph_builders.h"
#include "ir_util.h"

using namespace oinfer;

namespace {

using test::mk;
using test::rndT;

template <class T>
Tensor scalarT(DataType dt, T v) {
  Tensor t(dt, {});
  *static_cast<T*>(t.data()) = v;
  return t;
}

Tensor zeroPoint(DataType dt, int v) {
  return dt == DataType::kInt8 ? scalarT<int8_t>(dt, static_cast<int8_t>(v)) : scalarT<uint8_t>(dt, static_cast<uint8_t>(v));
}

// Random quantized weights of `dt` (int8 in [-100, 100], uint8 in [20, 230]).
Tensor randomInts(DataType dt, std::vector<int64_t> shape, std::mt19937& rng) {
  Tensor t(dt, std::move(shape));
  std::uniform_int_distribution<int> d(dt == DataType::kInt8 ? -100 : 20, dt == DataType::kInt8 ? 100 : 230);
  for (int64_t i = 0; i < t.numel(); ++i) {
    if (dt == DataType::kInt8) t.data<int8_t>()[i] = static_cast<int8_t>(d(rng));
    else t.data<uint8_t>()[i] = static_cast<uint8_t>(d(rng));
  }
  return t;
}

// Builds QDQ graphs: a float input x quantized (Q) and dequantized (DQ), the
// op under test on DQ outputs, then Q and DQ to a float output "y".
struct QdqGraph {
  ir::Graph g;
  std::mt19937 rng{11};
  int count = 0;

  explicit QdqGraph(int opset = 13) { g.opsetImports[""] = opset; }

  std::string name(const std::string& stem) { return stem + "_" + std::to_string(++count); }

  void input(const std::string& n, std::vector<int64_t> shape) {
    g.inputs.push_back(ValueInfo{n, ValueKind::kTensor, DataType::kFloat, true, toShape(shape)});
  }
  void output(const std::string& n, DataType dt = DataType::kFloat) {
    g.outputs.push_back(ValueInfo{n, ValueKind::kTensor, dt, false, {}});
  }
  // Q then DQ of float value v; returns the DQ output. *q receives the Q output.
  std::string qdq(const std::string& v, float scale, DataType dt, int zp, std::string* q = nullptr) {
    const std::string s = name("s"), z = name("z"), qo = name("q"), dq = name("dq");
    g.initializers[s] = Tensor::scalar<float>(scale);
    g.initializers[z] = zeroPoint(dt, zp);
    g.nodes.push_back(mk("QuantizeLinear", name("Q"), {v, s, z}, {qo}));
    g.nodes.push_back(mk("DequantizeLinear", name("DQ"), {qo, s, z}, {dq}));
    if (q) *q = qo;
    return dq;
  }
  // Quantize only (the output stays quantized).
  std::string quant(const std::string& v, float scale, DataType dt, int zp, const std::string& out) {
    const std::string s = name("s"), z = name("z");
    g.initializers[s] = Tensor::scalar<float>(scale);
    g.initializers[z] = zeroPoint(dt, zp);
    g.nodes.push_back(mk("QuantizeLinear", name("Q"), {v, s, z}, {out}));
    return out;
  }
  // DQ of constant weights W (dt, shape), per channel along `axis` when
  // channels > 0 (scales around `scale`), else per tensor.
  std::string weights(DataType dt, std::vector<int64_t> shape, float scale, int64_t axis, bool perChannel,
                      std::vector<float>* scales = nullptr) {
    const std::string w = name("W"), s = name("ws"), z = name("wz"), o = name("dqw");
    g.initializers[w] = randomInts(dt, shape, rng);
    const int zp = dt == DataType::kInt8 ? 0 : 128;
    if (perChannel) {
      const int64_t c = shape[size_t(axis < 0 ? axis + int64_t(shape.size()) : axis)];
      std::vector<float> sv(static_cast<size_t>(c));
      std::vector<int8_t> z8(static_cast<size_t>(c), 0);
      std::vector<uint8_t> zu(static_cast<size_t>(c), 128);
      for (int64_t i = 0; i < c; ++i) sv[size_t(i)] = scale * (0.5f + 0.1f * float(i % 7));
      g.initializers[s] = Tensor::fromVector<float>({c}, sv);
      g.initializers[z] = dt == DataType::kInt8 ? Tensor::fromVector<int8_t>({c}, z8) : Tensor::fromVector<uint8_t>({c}, zu);
      if (scales) *scales = sv;
    } else {
      g.initializers[s] = Tensor::scalar<float>(scale);
      g.initializers[z] = zeroPoint(dt, zp);
      if (scales) *scales = {scale};
    }
    Node n = mk("DequantizeLinear", name("DQw"), {w, s, z}, {o});
    if (perChannel) n.attributes.push_back(passes::util::intAttr("axis", axis));
    g.nodes.push_back(n);
    return o;
  }
  // DQ of an int32 bias at scale xs * ws[c] (as onnxruntime's quantizer writes it).
  std::string bias(int64_t m, float xs, const std::vector<float>& ws) {
    const std::string b = name("B"), s = name("bs"), o = name("dqb");
    std::vector<int32_t> v(static_cast<size_t>(m));
    std::vector<float> sv(static_cast<size_t>(m));
    std::uniform_int_distribution<int> d(-3000, 3000);
    for (int64_t i = 0; i < m; ++i) {
      v[size_t(i)] = d(rng);
      sv[size_t(i)] = xs * ws[ws.size() == 1 ? 0 : size_t(i)];
    }
    g.initializers[b] = Tensor::fromVector<int32_t>({m}, v);
    g.initializers[s] = ws.size() == 1 ? Tensor::scalar<float>(sv[0]) : Tensor::fromVector<float>({m}, sv);
    Node n = mk("DequantizeLinear", name("DQb"), {b, s}, {o});
    if (ws.size() != 1) n.attributes.push_back(passes::util::intAttr("axis", 0));
    g.nodes.push_back(n);
    return o;
  }
};

size_t countOp(const ir::Graph& g, const std::string& op) {
  size_t n = 0;
  for (const auto& node : g.nodes) n += node.opType == op;
  return n;
}

std::map<std::string, Tensor> feeds(const ir::Graph& g, uint32_t seed) {
  std::mt19937 rng(seed);
  std::map<std::string, Tensor> f;
  for (const auto& in : g.inputs) {
    std::vector<int64_t> shape;
    for (const auto& d : in.shape) shape.push_back(d.value);
    f[in.name] = rndT(shape, rng, -2.f, 2.f);
  }
  return f;
}

// Runs g at optimization levels 1 and 2 and checks every output agrees
// within one step: `step` for float outputs (the last DQ's scale), 1 for
// quantized ones. Returns the optimized graph.
ir::Graph expectWithinOneStep(const ir::Graph& g, float step) {
  SessionOptions off, on;
  off.optimizationLevel = 1;
  on.optimizationLevel = 2;
  Session plain(wrap(g), off), optimized(wrap(g), on);
  for (uint32_t seed : {1u, 2u, 3u}) {
    const auto f = feeds(g, seed);
    auto a = plain.run(f);
    auto b = optimized.run(f);
    EXPECT_EQ(a.size(), b.size());
    for (size_t k = 0; k < a.size() && k < b.size(); ++k) {
      EXPECT_EQ(a[k].shape(), b[k].shape());
      EXPECT_EQ(a[k].dtype(), b[k].dtype());
      if (a[k].shape() != b[k].shape() || a[k].dtype() != b[k].dtype()) continue;
      int64_t differ = 0;
      for (int64_t i = 0; i < a[k].numel(); ++i) {
        double e, v, tol;
        switch (a[k].dtype()) {
          case DataType::kFloat:
            e = a[k].data<float>()[i], v = b[k].data<float>()[i], tol = step * 1.0001;
            break;
          case DataType::kInt8:
            e = a[k].data<int8_t>()[i], v = b[k].data<int8_t>()[i], tol = 1;
            break;
          default:
            e = a[k].data<uint8_t>()[i], v = b[k].data<uint8_t>()[i], tol = 1;
            break;
        }
        differ += e != v;
        if (std::fabs(v - e) > tol) {
          ADD_FAILURE() << "output " << k << " element " << i << " seed " << seed << ": " << v << " vs " << e;
          break;
        }
      }
      // Off-by-one only where the float sum lands next to a .5 boundary: rare.
      EXPECT_LE(differ, a[k].numel() / 10 + 1) << "output " << k;
    }
  }
  return irOf(optimized.graph());
}

// No float32 initializer as large as the weights: they stayed int8.
void expectNoFloatWeights(const ir::Graph& g, int64_t weightElements) {
  for (const auto& [n, t] : g.initializers)
    EXPECT_FALSE(t.dtype() == DataType::kFloat && t.numel() >= weightElements) << n;
  for (const auto& node : g.nodes)
    if (node.opType == "DequantizeLinear")
      EXPECT_EQ(g.initializers.count(node.inputs[0]), 0u) << node.name << " dequantizes a constant";
}

// x -> Q/DQ -> Conv(DQ(W), DQ(B)) -> Q/DQ -> y
QdqGraph convGraph(DataType act, DataType wt, bool perChannel, int biasKind, int actZp = -1) {
  QdqGraph q;
  q.input("x", {1, 8, 7, 7});
  const int zp = actZp >= 0 ? actZp : (act == DataType::kInt8 ? -5 : 120);
  const float xs = 0.02f;
  const std::string x = q.qdq("x", xs, act, act == DataType::kInt8 ? zp : zp);
  std::vector<float> ws;
  const std::string w = q.weights(wt, {6, 8, 3, 3}, 0.004f, 0, perChannel, &ws);
  std::vector<std::string> in = {x, w};
  if (biasKind == 1) in.push_back(q.bias(6, xs, ws));
  if (biasKind == 2) {
    q.g.initializers["Bf"] = rndT({6}, q.rng, -0.5f, 0.5f);
    in.push_back("Bf");
  }
  Node c = mk("Conv", "conv", in, {"c"});
  c.attributes.push_back(passes::util::intsAttr("pads", {1, 1, 1, 1}));
  q.g.nodes.push_back(c);
  return q;
}

}  // namespace

TEST(QdqPass, ConvActivationAndWeightTypes) {
  for (DataType act : {DataType::kUInt8, DataType::kInt8})
    for (DataType wt : {DataType::kInt8, DataType::kUInt8})
      for (bool perChannel : {false, true}) {
        SCOPED_TRACE(std::string(dataTypeName(act)) + " x " + dataTypeName(wt) + (perChannel ? " per channel" : " per tensor"));
        QdqGraph q = convGraph(act, wt, perChannel, 1);
        const std::string y = q.qdq("c", 0.05f, act, act == DataType::kInt8 ? 3 : 130);
        q.g.nodes.back().outputs[0] = "y";
        q.output("y");
        const ir::Graph o = expectWithinOneStep(q.g, 0.05f);
        EXPECT_EQ(countOp(o, "QLinearConv"), 1u);
        EXPECT_EQ(countOp(o, "Conv"), 0u);
        expectNoFloatWeights(o, 6 * 8 * 9);
      }
}

TEST(QdqPass, ConvBiasForms) {
  // 0: none, 1: int32 DQ at x_scale * w_scale, 2: float constant (quantized by the pass).
  for (int biasKind : {0, 1, 2}) {
    SCOPED_TRACE("bias kind " + std::to_string(biasKind));
    QdqGraph q = convGraph(DataType::kUInt8, DataType::kInt8, true, biasKind);
    q.qdq("c", 0.05f, DataType::kUInt8, 128);
    q.g.nodes.back().outputs[0] = "y";
    q.output("y");
    const ir::Graph o = expectWithinOneStep(q.g, 0.05f);
    EXPECT_EQ(countOp(o, "QLinearConv"), 1u);
    bool biasInput = false;
    for (const auto& n : o.nodes)
      if (n.opType == "QLinearConv") biasInput = n.inputs.size() == 9;
    EXPECT_EQ(biasInput, biasKind != 0);
  }
}

// A bias DQ whose scale is not x_scale * w_scale is requantized to it.
TEST(QdqPass, ConvBiasOtherScale) {
  QdqGraph q = convGraph(DataType::kUInt8, DataType::kInt8, false, 1);
  for (auto& [n, t] : q.g.initializers)
    if (n.rfind("bs", 0) == 0) t.data<float>()[0] *= 1.7f;
  q.qdq("c", 0.05f, DataType::kUInt8, 128);
  q.g.nodes.back().outputs[0] = "y";
  q.output("y");
  const ir::Graph o = expectWithinOneStep(q.g, 0.05f);
  EXPECT_EQ(countOp(o, "QLinearConv"), 1u);
}

// The quantized output itself as the graph output: int8 values within one.
TEST(QdqPass, ConvQuantizedGraphOutput) {
  QdqGraph q = convGraph(DataType::kInt8, DataType::kInt8, true, 1);
  q.quant("c", 0.05f, DataType::kInt8, 0, "y");
  q.output("y", DataType::kInt8);
  const ir::Graph o = expectWithinOneStep(q.g, 1.f);
  EXPECT_EQ(countOp(o, "QLinearConv"), 1u);
  EXPECT_EQ(countOp(o, "QuantizeLinear"), 1u);  // the input's
}

// Relu is the Q's saturation when the zero point is the type's minimum.
TEST(QdqPass, ConvReluFoldedWhenExact) {
  for (DataType act : {DataType::kUInt8, DataType::kInt8}) {
    QdqGraph q = convGraph(act, DataType::kInt8, true, 1);
    q.g.nodes.push_back(mk("Relu", "relu", {"c"}, {"r"}));
    q.qdq("r", 0.03f, act, act == DataType::kInt8 ? -128 : 0);
    q.g.nodes.back().outputs[0] = "y";
    q.output("y");
    const ir::Graph o = expectWithinOneStep(q.g, 0.03f);
    EXPECT_EQ(countOp(o, "QLinearConv"), 1u);
    EXPECT_EQ(countOp(o, "Relu"), 0u);
  }
}

// With the zero point inside the range, Relu cuts values the Q keeps: the
// group stays in float.
TEST(QdqPass, ConvReluNotFoldedWhenInexact) {
  QdqGraph q = convGraph(DataType::kUInt8, DataType::kInt8, true, 1);
  q.g.nodes.push_back(mk("Relu", "relu", {"c"}, {"r"}));
  q.qdq("r", 0.03f, DataType::kUInt8, 100);
  q.g.nodes.back().outputs[0] = "y";
  q.output("y");
  const ir::Graph o = expectWithinOneStep(q.g, 0.03f);
  EXPECT_EQ(countOp(o, "QLinearConv"), 0u);
}

// Relu6 as Clip(0, 6) with scale 6/255, zero point 0: both bounds saturate.
TEST(QdqPass, ConvClipRelu6Folded) {
  QdqGraph q = convGraph(DataType::kUInt8, DataType::kInt8, true, 1);
  q.g.initializers["lo"] = Tensor::scalar<float>(0.f);
  q.g.initializers["hi"] = Tensor::scalar<float>(6.f);
  q.g.nodes.push_back(mk("Clip", "clip", {"c", "lo", "hi"}, {"r"}));
  q.qdq("r", 6.f / 255.f, DataType::kUInt8, 0);
  q.g.nodes.back().outputs[0] = "y";
  q.output("y");
  const ir::Graph o = expectWithinOneStep(q.g, 6.f / 255.f);
  EXPECT_EQ(countOp(o, "QLinearConv"), 1u);
  EXPECT_EQ(countOp(o, "Clip"), 0u);
}

// Clip(0, 1) with a range up to 6: the upper bound matters, stays in float.
TEST(QdqPass, ConvClipNarrowNotFolded) {
  QdqGraph q = convGraph(DataType::kUInt8, DataType::kInt8, true, 1);
  q.g.initializers["lo"] = Tensor::scalar<float>(0.f);
  q.g.initializers["hi"] = Tensor::scalar<float>(1.f);
  q.g.nodes.push_back(mk("Clip", "clip", {"c", "lo", "hi"}, {"r"}));
  q.qdq("r", 6.f / 255.f, DataType::kUInt8, 0);
  q.g.nodes.back().outputs[0] = "y";
  q.output("y");
  const ir::Graph o = expectWithinOneStep(q.g, 6.f / 255.f);
  EXPECT_EQ(countOp(o, "QLinearConv"), 0u);
  EXPECT_EQ(countOp(o, "Clip") + countOp(o, "FusedConv"), 1u);
}

TEST(QdqPass, MatMulPerColumn) {
  for (bool perChannel : {false, true}) {
    QdqGraph q;
    q.input("x", {2, 5, 16});
    const std::string x = q.qdq("x", 0.02f, DataType::kUInt8, 128);
    const std::string w = q.weights(DataType::kInt8, {16, 12}, 0.01f, 1, perChannel);
    q.g.nodes.push_back(mk("MatMul", "mm", {x, w}, {"m"}));
    q.qdq("m", 0.04f, DataType::kUInt8, 120);
    q.g.nodes.back().outputs[0] = "y";
    q.output("y");
    const ir::Graph o = expectWithinOneStep(q.g, 0.04f);
    EXPECT_EQ(countOp(o, "QLinearMatMul"), 1u);
    EXPECT_EQ(countOp(o, "MatMul"), 0u);
    expectNoFloatWeights(o, 16 * 12);
  }
}

// Gemm: with a bias (or transB) through QLinearConv 1x1 between Reshapes,
// without bias and transB = 0 as QLinearMatMul.
TEST(QdqPass, GemmForms) {
  for (int form : {0, 1, 2}) {  // 0: transB + bias, 1: bias, 2: neither
    SCOPED_TRACE("form " + std::to_string(form));
    QdqGraph q;
    q.input("x", {3, 20});
    const float xs = 0.02f;
    const std::string x = q.qdq("x", xs, DataType::kUInt8, 128);
    const bool transB = form == 0;
    std::vector<float> ws;
    const std::string w = q.weights(DataType::kInt8, transB ? std::vector<int64_t>{10, 20} : std::vector<int64_t>{20, 10},
                                    0.01f, transB ? 0 : 1, true, &ws);
    std::vector<std::string> in = {x, w};
    if (form != 2) in.push_back(q.bias(10, xs, ws));
    Node n = mk("Gemm", "gemm", in, {"m"});
    if (transB) n.attributes.push_back(passes::util::intAttr("transB", 1));
    q.g.nodes.push_back(n);
    q.qdq("m", 0.04f, DataType::kUInt8, 120);
    q.g.nodes.back().outputs[0] = "y";
    q.output("y");
    const ir::Graph o = expectWithinOneStep(q.g, 0.04f);
    EXPECT_EQ(countOp(o, "Gemm"), 0u);
    EXPECT_EQ(countOp(o, form == 2 ? "QLinearMatMul" : "QLinearConv"), 1u);
    expectNoFloatWeights(o, 200);
  }
}

// Gemm with transA is left in float.
TEST(QdqPass, GemmTransANotRewritten) {
  QdqGraph q;
  q.input("x", {20, 3});
  const std::string x = q.qdq("x", 0.02f, DataType::kUInt8, 128);
  const std::string w = q.weights(DataType::kInt8, {20, 10}, 0.01f, 1, false);
  Node n = mk("Gemm", "gemm", {x, w}, {"m"});
  n.attributes.push_back(passes::util::intAttr("transA", 1));
  q.g.nodes.push_back(n);
  q.qdq("m", 0.04f, DataType::kUInt8, 120);
  q.g.nodes.back().outputs[0] = "y";
  q.output("y");
  const ir::Graph o = expectWithinOneStep(q.g, 0.04f);
  EXPECT_EQ(countOp(o, "QLinearMatMul") + countOp(o, "QLinearConv"), 0u);
}

// DQ -> MaxPool / Reshape / Transpose -> Q of the same parameters: the op on
// the quantized data; then a conv on its output, so the chain is integer.
TEST(QdqPass, DataMovementPassThrough) {
  for (const char* op : {"MaxPool", "Transpose", "Reshape", "Flatten", "Slice", "Unsqueeze", "Squeeze"}) {
    SCOPED_TRACE(op);
    QdqGraph q;
    q.input("x", {1, 4, 6, 6});
    const std::string x = q.qdq("x", 0.02f, DataType::kUInt8, 128);
    Node n = mk(op, "move", {x}, {"m"});
    if (std::string(op) == "MaxPool") n.attributes.push_back(passes::util::intsAttr("kernel_shape", {2, 2}));
    if (std::string(op) == "Transpose") n.attributes.push_back(passes::util::intsAttr("perm", {0, 2, 3, 1}));
    if (std::string(op) == "Reshape") {
      q.g.initializers["shape"] = Tensor::fromVector<int64_t>({2}, {4, -1});
      n.inputs.push_back("shape");
    }
    if (std::string(op) == "Slice") {
      q.g.initializers["starts"] = Tensor::fromVector<int64_t>({2}, {1, 2});
      q.g.initializers["ends"] = Tensor::fromVector<int64_t>({2}, {3, 5});
      q.g.initializers["axes"] = Tensor::fromVector<int64_t>({2}, {1, 3});
      n.inputs.insert(n.inputs.end(), {"starts", "ends", "axes"});
    }
    if (std::string(op) == "Unsqueeze" || std::string(op) == "Squeeze") {
      q.g.initializers["axes"] = Tensor::fromVector<int64_t>({1}, {0});
      n.inputs.push_back("axes");
    }
    q.g.nodes.push_back(n);
    q.qdq("m", 0.02f, DataType::kUInt8, 128);
    q.g.nodes.back().outputs[0] = "y";
    q.output("y");
    const ir::Graph o = expectWithinOneStep(q.g, 0.02f);
    EXPECT_EQ(countOp(o, op), 1u);
    EXPECT_EQ(countOp(o, "DequantizeLinear"), 1u);  // the output's only
    for (const auto& node : o.nodes)
      if (node.opType == op) EXPECT_EQ(node.inputs[0].rfind("q_", 0), 0u) << "reads " << node.inputs[0];
  }
}

TEST(QdqPass, ConcatEqualScalesOnly) {
  for (bool equal : {true, false}) {
    QdqGraph q;
    q.input("a", {1, 3, 4, 4});
    q.input("b", {1, 5, 4, 4});
    const std::string a = q.qdq("a", 0.02f, DataType::kInt8, 1);
    const std::string b = q.qdq("b", equal ? 0.02f : 0.03f, DataType::kInt8, 1);
    Node n = mk("Concat", "cat", {a, b}, {"m"});
    n.attributes.push_back(passes::util::intAttr("axis", 1));
    q.g.nodes.push_back(n);
    q.qdq("m", 0.02f, DataType::kInt8, 1);
    q.g.nodes.back().outputs[0] = "y";
    q.output("y");
    const ir::Graph o = expectWithinOneStep(q.g, 0.02f);
    EXPECT_EQ(countOp(o, "DequantizeLinear"), equal ? 1u : 3u);
  }
}

// A DQ whose output another node reads too: the conv is rewritten, the DQ
// stays for the other reader.
TEST(QdqPass, SharedDequantizeKept) {
  QdqGraph q = convGraph(DataType::kUInt8, DataType::kInt8, true, 1);
  const std::string xdq = q.g.nodes[1].outputs[0];
  q.qdq("c", 0.05f, DataType::kUInt8, 128);
  q.g.nodes.back().outputs[0] = "y";
  q.g.nodes.push_back(mk("Sigmoid", "other", {xdq}, {"z"}));
  q.output("y");
  q.output("z");
  const ir::Graph o = expectWithinOneStep(q.g, 0.05f);
  EXPECT_EQ(countOp(o, "QLinearConv"), 1u);
  EXPECT_EQ(countOp(o, "Sigmoid"), 1u);
  EXPECT_EQ(countOp(o, "DequantizeLinear"), 2u);  // x's (for the Sigmoid) and y's
}

// The conv's float output read by another node too: the float conv is needed anyway.
TEST(QdqPass, ConvOutputReadElsewhereNotRewritten) {
  QdqGraph q = convGraph(DataType::kUInt8, DataType::kInt8, true, 1);
  q.qdq("c", 0.05f, DataType::kUInt8, 128);
  q.g.nodes.back().outputs[0] = "y";
  q.output("y");
  q.output("c");
  const ir::Graph o = expectWithinOneStep(q.g, 0.05f);
  EXPECT_EQ(countOp(o, "QLinearConv"), 0u);
}

// Weights that are a graph input, or a scale that is: left in float.
TEST(QdqPass, NonConstantWeightsOrScalesNotRewritten) {
  for (const char* what : {"weights", "scale"}) {
    SCOPED_TRACE(what);
    QdqGraph q = convGraph(DataType::kUInt8, DataType::kInt8, false, 0);
    if (std::string(what) == "weights") {
      // The weights come from a Q of a float input: not a constant.
      q.input("wf", {6, 8, 3, 3});
      ASSERT_EQ(q.g.nodes[2].opType, "DequantizeLinear");
      q.quant("wf", 0.004f, DataType::kInt8, 0, "wq");
      q.g.nodes[2].inputs[0] = "wq";
      q.qdq("c", 0.05f, DataType::kUInt8, 128);
    } else {
      // The output's scale is a graph input.
      q.input("ys", {});
      q.qdq("c", 0.05f, DataType::kUInt8, 128);
      q.g.nodes[q.g.nodes.size() - 2].inputs[1] = "ys";
    }
    q.g.nodes.back().outputs[0] = "y";
    q.output("y");
    SessionOptions on;
    Session s(wrap(q.g), on);
    EXPECT_EQ(countOp(irOf(s.graph()), "QLinearConv"), 0u);
    EXPECT_EQ(countOp(irOf(s.graph()), "Conv") + countOp(irOf(s.graph()), "FusedConv"), 1u);
  }
}

// int16 activations (opset 21 Q/DQ take them): not this pass's types.
TEST(QdqPass, Int16ActivationsNotRewritten) {
  QdqGraph q(21);
  q.input("x", {1, 8, 7, 7});
  q.g.initializers["xs"] = Tensor::scalar<float>(0.001f);
  q.g.initializers["xz"] = scalarT<int16_t>(DataType::kInt16, 0);
  q.g.nodes.push_back(mk("QuantizeLinear", "qx", {"x", "xs", "xz"}, {"xq"}));
  q.g.nodes.push_back(mk("DequantizeLinear", "dqx", {"xq", "xs", "xz"}, {"xd"}));
  const std::string w = q.weights(DataType::kInt8, {6, 8, 3, 3}, 0.004f, 0, true);
  q.g.nodes.push_back(mk("Conv", "conv", {"xd", w}, {"c"}));
  q.qdq("c", 0.05f, DataType::kUInt8, 128);
  q.g.nodes.back().outputs[0] = "y";
  q.output("y");
  const ir::Graph o = expectWithinOneStep(q.g, 0.05f);
  EXPECT_EQ(countOp(o, "QLinearConv"), 0u);
}

// Blocked weight quantization (opset 21 block_size): not handled, left alone.
TEST(QdqPass, BlockedWeightsNotRewritten) {
  QdqGraph q(21);
  q.input("x", {2, 16});
  const std::string x = q.qdq("x", 0.02f, DataType::kUInt8, 128);
  q.g.initializers["W"] = randomInts(DataType::kInt8, {16, 4}, q.rng);
  q.g.initializers["Ws"] = Tensor::fromVector<float>({2, 4}, std::vector<float>(8, 0.01f));
  Node dq = mk("DequantizeLinear", "dqw", {"W", "Ws"}, {"Wd"});
  dq.attributes.push_back(passes::util::intAttr("axis", 0));
  dq.attributes.push_back(passes::util::intAttr("block_size", 8));
  q.g.nodes.push_back(dq);
  q.g.nodes.push_back(mk("MatMul", "mm", {x, "Wd"}, {"m"}));
  q.qdq("m", 0.04f, DataType::kUInt8, 120);
  q.g.nodes.back().outputs[0] = "y";
  q.output("y");
  const ir::Graph o = expectWithinOneStep(q.g, 0.04f);
  EXPECT_EQ(countOp(o, "QLinearMatMul"), 0u);
}

// Memory: the rewritten session holds the weights as int8 (no float32 copy
// from folding DQ(W)); the same graph without the pass folds them to float.
TEST(QdqPass, WeightsStayInt8) {
  QdqGraph q;
  q.input("x", {1, 64, 8, 8});
  const std::string x = q.qdq("x", 0.02f, DataType::kUInt8, 128);
  std::vector<float> ws;
  const std::string w = q.weights(DataType::kInt8, {64, 64, 3, 3}, 0.004f, 0, true, &ws);
  Node c = mk("Conv", "conv", {x, w, q.bias(64, 0.02f, ws)}, {"c"});
  c.attributes.push_back(passes::util::intsAttr("pads", {1, 1, 1, 1}));
  q.g.nodes.push_back(c);
  q.qdq("c", 0.05f, DataType::kUInt8, 128);
  q.g.nodes.back().outputs[0] = "y";
  q.output("y");
  const int64_t weightBytes = 64 * 64 * 9;  // int8
  SessionOptions on;
  Session s(wrap(q.g), on);
  const ir::Graph& o = irOf(s.graph());
  EXPECT_EQ(countOp(o, "QLinearConv"), 1u);
  expectNoFloatWeights(o, 64 * 64 * 9);
  const PlanInfo plan = s.plan({{"x", {1, 64, 8, 8}}});
  // int8 weights, int32 bias, per-channel scales and zero points, the scalars.
  EXPECT_GE(plan.memory.weightBytes, size_t(weightBytes));
  EXPECT_LT(plan.memory.weightBytes, size_t(weightBytes) + 64 * 16);
  // Without the pass the DQ of W stays for the plan to fold into float32.
  SessionOptions off;
  off.optimizationLevel = 1;
  Session f(wrap(q.g), off);
  size_t dqOfWeights = 0;
  for (const auto& n : irOf(f.graph()).nodes)
    dqOfWeights += n.opType == "DequantizeLinear" && irOf(f.graph()).initializers.count(n.inputs[0]) &&
                   irOf(f.graph()).initializers.at(n.inputs[0]).numel() == weightBytes;
  EXPECT_EQ(dqOfWeights, 1u);
}
