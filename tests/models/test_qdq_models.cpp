// Quantized (QDQ) models from onnxruntime.quantization against onnxruntime's
// outputs with its optimizations disabled (the reference semantics: DQ ->
// float op -> Q). Made by scripts/gen_test_models.py (resnet_qdq,
// mobilenetv2_qdq). At level 2 fuseQdq turns every Conv and the Gemm into
// integer ops; at 0 and 1 the float path runs.
//
// Tolerance: one step of the output's quantization scale. The reference
// sums in float and oinfer in int32 (level 2) or in float in another order
// (levels 0, 1), so a value next to a .5 boundary may round one step the
// other way in a layer; on these models every output matched exactly when
// this test was written (2026-12-02), at every level.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "model_test_util.h"
#include "oinfer/graph.h"
#include "oinfer/session.h"
#include "ir_util.h"

namespace oinfer::modeltest {
namespace {

constexpr double kMaxSteps = 1.0001;  // one step; the slack is float division, not a step

// The scale of the DequantizeLinear writing graph output `name` (the model's last step).
float outputStep(const ir::Graph& g, const std::string& name) {
  for (const auto& n : g.nodes)
    if (n.opType == "DequantizeLinear" && n.outputs[0] == name) return g.initializers.at(n.inputs[1]).data<float>()[0];
  return 0.f;
}

size_t countOp(const ir::Graph& g, const std::string& op) {
  size_t c = 0;
  for (const auto& n : g.nodes) c += n.opType == op;
  return c;
}

void checkQdqModel(const std::string& name, size_t convs, size_t gemms) {
  const std::vector<DataSet> sets = loadNumberedDataSets(name);
  ASSERT_FALSE(sets.empty());
  const ir::Graph original = loadIr(modelPath(name));
  const float step = outputStep(original, original.outputs[0].name);
  ASSERT_GT(step, 0.f) << "the output is not dequantized";
  for (int level : {0, 1, 2}) {
    SCOPED_TRACE(name + " optimizationLevel " + std::to_string(level));
    SessionOptions opts;
    opts.optimizationLevel = level;
    Session session(Graph::loadFromONNX(modelPath(name)), opts);
    const ir::Graph& g = irOf(session.graph());
    if (level == 2) {
      EXPECT_EQ(countOp(g, "QLinearConv"), convs + gemms);
      EXPECT_EQ(countOp(g, "Conv") + countOp(g, "FusedConv") + countOp(g, "Gemm"), 0u);
      for (const auto& n : g.nodes)
        if (n.opType == "DequantizeLinear") {
          auto it = g.initializers.find(n.inputs[0]);
          EXPECT_FALSE(it != g.initializers.end() && it->second.numel() > 64) << n.name << " dequantizes weights";
        }
    }
    for (size_t k = 0; k < sets.size(); ++k) {
      std::vector<Tensor> out = session.run(feeds(g, sets[k].inputs));
      ASSERT_EQ(out.size(), 1u);
      const Tensor& ref = sets[k].outputs[0];
      ASSERT_EQ(out[0].shape(), ref.shape());
      double worst = 0;
      for (int64_t i = 0; i < ref.numel(); ++i) {
        const double d = std::fabs(double(out[0].data<float>()[i]) - ref.data<float>()[i]) / step;
        worst = std::max(worst, d);
      }
      EXPECT_LE(worst, kMaxSteps) << "data set " << k;
    }
  }
}

// Conv (+ folded BatchNorm, Relu in the Q), MaxPool, residual Adds, Gemm.
TEST(QdqModelTest, ResNetQdq) { checkQdqModel("resnet_qdq", 8, 1); }

// Depthwise convs, Relu6 in the Q's range, dynamic batch (N = 1, 2).
TEST(QdqModelTest, MobileNetV2Qdq) { checkQdqModel("mobilenetv2_qdq", 11, 1); }

}  // namespace
}  // namespace oinfer::modeltest
