// One test per class of bug the fuzz targets (tests/fuzz) found, each
// checking the values or the exact message the fixed engine gives; the
// inputs that found them are in tests/fuzz/regressions/.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "ir_util.h"
#include "model_test_util.h"

namespace oinfer {
namespace {

using modeltest::opNode;

// A static step fed by a value whose shape is known only at run time: the
// file declares the graph output [3,2,1] (right for axes = [2] only), and
// the planner took the declaration for the Sqrt's shape, so with axes = [0]
// the Sqrt read its [1,2,2] input as [3,2,1] (past its end: heap overflow
// under ASan), or a copying kernel failed with "Tensor::copyFrom: mismatched
// tensors", naming no node. Such a step is now dynamic: its shapes follow
// the data, as ONNX defines them.
ir::Graph reduceThenSqrt(DataType outDtype) {
  ir::Graph g;
  g.opsetImports[""] = 18;
  g.inputs.push_back(ValueInfo{"data", ValueKind::kTensor, DataType::kFloat, true, {3, 2, 2}});
  g.inputs.push_back(ValueInfo{"axes", ValueKind::kTensor, DataType::kInt64, true, {1}});
  g.nodes.push_back(opNode("ReduceSum", {"data", "axes"}, {"s"}));
  g.nodes.push_back(opNode("Sqrt", {"s"}, {"r"}));
  g.nodes.push_back(opNode("CastLike", {"r", "data"}, {"y"}));
  g.outputs.push_back(ValueInfo{"y", ValueKind::kTensor, outDtype, true, {3, 2, 1}});
  return g;
}

TEST(FuzzFindings, DeclaredOutputShapeDoesNotOverrideTheData) {
  for (int level : {0, 1}) {
    SessionOptions opt;
    opt.optimizationLevel = level;
    Session session(wrap(reduceThenSqrt(DataType::kFloat)), opt);
    Tensor data(DataType::kFloat, {3, 2, 2});
    for (int64_t i = 0; i < data.numel(); ++i) data.data<float>()[i] = float(i);
    // axes = [0]: sums over the first dim, [1,2,2].
    std::vector<Tensor> out = session.run({{"data", data}, {"axes", Tensor::fromVector<int64_t>({1}, {0})}});
    ASSERT_EQ(out.size(), 1u);
    ASSERT_EQ(out[0].shape(), (std::vector<int64_t>{1, 2, 2})) << "level " << level;
    for (int64_t k = 0; k < 4; ++k)
      EXPECT_FLOAT_EQ(out[0].data<float>()[k], std::sqrt(float(k + (k + 4) + (k + 8)))) << "level " << level;
    // axes = [2]: the declared [3,2,1].
    out = session.run({{"data", data}, {"axes", Tensor::fromVector<int64_t>({1}, {2})}});
    ASSERT_EQ(out[0].shape(), (std::vector<int64_t>{3, 2, 1})) << "level " << level;
    for (int64_t k = 0; k < 6; ++k)
      EXPECT_FLOAT_EQ(out[0].data<float>()[k], std::sqrt(float(2 * k + 2 * k + 1))) << "level " << level;
    // runInto with the caller's buffers of the declared shape: replaced, not overrun.
    std::vector<Tensor> into = {Tensor(DataType::kFloat, {3, 2, 1})};
    session.runInto({{"data", data}, {"axes", Tensor::fromVector<int64_t>({1}, {0})}}, into);
    EXPECT_EQ(into[0].shape(), (std::vector<int64_t>{1, 2, 2})) << "level " << level;
  }
}

// A weight given as a graph input with an empty spatial dim: ConvTranspose's
// tiling divided by the kernel size (SIGFPE). Conv and ConvTranspose now
// refuse an empty kernel in shape inference, naming the weight.
TEST(FuzzFindings, EmptyConvKernelIsAnError) {
  for (const char* op : {"ConvTranspose", "Conv"}) {
    const int64_t wd1 = std::string(op) == "Conv" ? 1 : 2;  // Conv's W is [M, C, k..], ConvTranspose's [C, M, k..]
    ir::Graph g;
    g.opsetImports[""] = 17;
    g.inputs.push_back(ValueInfo{"X", ValueKind::kTensor, DataType::kFloat, true, {1, 1, 3, 3}});
    g.inputs.push_back(ValueInfo{"W", ValueKind::kTensor, DataType::kFloat, true, {1, wd1, Dim::sym("M"), 3}});
    g.nodes.push_back(opNode(op, {"X", "W"}, {"Y"}));
    g.outputs.push_back(ValueInfo{"Y", ValueKind::kTensor, DataType::kFloat, false, {}});
    Session session(wrap(std::move(g)));
    const TensorMap in = {{"X", Tensor(DataType::kFloat, {1, 1, 3, 3})}, {"W", Tensor(DataType::kFloat, {1, wd1, 0, 3})}};
    try {
      session.run(in);
      ADD_FAILURE() << op << ": no error";
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()), std::string("node 'Y' (") + op +
                                           "): input 1 ('W') has shape [1," + std::to_string(wd1) +
                                           ",0,3]: kernel dims must be positive");
    }
  }
}

// AveragePool with SAME_UPPER padding and kernel_shape [2^40, 2] on a 32x32
// input: legal (the padding absorbs the kernel), but the tap tables were
// filled by walking every tap, for hours. They are closed-form now: each
// output averages the input rows its window covers, here all 32 (and 2
// columns, the SAME padding's last column alone).
TEST(FuzzFindings, HugePoolKernelWithSamePaddingIsQuick) {
  ir::Graph g;
  g.opsetImports[""] = 19;
  g.inputs.push_back(ValueInfo{"x", ValueKind::kTensor, DataType::kFloat, true, {1, 1, 32, 32}});
  Node n = opNode("AveragePool", {"x"}, {"y"});
  ir::Attribute pad;
  pad.name = "auto_pad";
  pad.type = ir::AttrType::kString;
  pad.s = "SAME_UPPER";
  ir::Attribute ks;
  ks.name = "kernel_shape";
  ks.type = ir::AttrType::kInts;
  ks.ints = {int64_t{1} << 40, 2};
  n.attributes = {pad, ks};
  g.nodes.push_back(n);
  g.outputs.push_back(ValueInfo{"y", ValueKind::kTensor, DataType::kFloat, false, {}});
  Session session(wrap(std::move(g)));
  Tensor x(DataType::kFloat, {1, 1, 32, 32});
  for (int64_t i = 0; i < x.numel(); ++i) x.data<float>()[i] = float(i % 32);  // column index
  const std::vector<Tensor> out = session.run({{"x", x}});
  ASSERT_EQ(out[0].shape(), (std::vector<int64_t>{1, 1, 32, 32}));
  // Columns: window [ow, ow + 2) clipped to 32, averaged over the covered cells (count_include_pad 0).
  for (int64_t oh : {0, 17, 31})
    for (int64_t ow : {0, 5, 30, 31})
      EXPECT_FLOAT_EQ(out[0].data<float>()[oh * 32 + ow], ow == 31 ? 31.f : float(ow) + 0.5f) << oh << "," << ow;
}

// The same kernel with a dilation that makes its extent overflow int64: an
// Error naming the node, not undefined arithmetic.
TEST(FuzzFindings, PoolKernelExtentOverflowIsAnError) {
  ir::Graph g;
  g.opsetImports[""] = 19;
  g.inputs.push_back(ValueInfo{"x", ValueKind::kTensor, DataType::kFloat, true, {1, 1, 4, 4}});
  Node n = opNode("MaxPool", {"x"}, {"y"});
  ir::Attribute ks;
  ks.name = "kernel_shape";
  ks.type = ir::AttrType::kInts;
  ks.ints = {int64_t{1} << 40, 1};
  ir::Attribute dil;
  dil.name = "dilations";
  dil.type = ir::AttrType::kInts;
  dil.ints = {int64_t{1} << 40, 1};
  n.attributes = {ks, dil};
  g.nodes.push_back(n);
  g.outputs.push_back(ValueInfo{"y", ValueKind::kTensor, DataType::kFloat, false, {}});
  try {
    Session session(wrap(std::move(g)));
    session.run({{"x", Tensor(DataType::kFloat, {1, 1, 4, 4})}});
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "node 'y' (MaxPool): spatial dim 0: kernel 1099511627776 with dilation 1099511627776 spans more than "
              "int64 can count");
  }
}

}  // namespace
}  // namespace oinfer
