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

}  // namespace
}  // namespace oinfer
