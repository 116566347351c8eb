// NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss against onnx.reference.
// The Python, with run(op, inputs, attrs, opset, outs) evaluating a one-node
// model with onnx.reference.ReferenceEvaluator:
//   f = np.float32
//   x = np.array([0.5,-1,2,1.5,0,-0.5,3,-2,1,0.25,-1.5,2.5], f).reshape(2,3,2)
//   t = np.array([[0,2],[1,1]], np.int64); w = np.array([0.2,0.5,1.5], f)
//   run("NegativeLogLikelihoodLoss", [x,t,w], dict(reduction="none"), 13)
//   run("NegativeLogLikelihoodLoss", [x,t,w], dict(reduction="mean"), 13)
//   run("NegativeLogLikelihoodLoss", [x,t], dict(reduction="mean", ignore_index=0), 22)
//   run("NegativeLogLikelihoodLoss", [x,t,w], dict(reduction="sum", ignore_index=2), 12)
//   x2 = np.array([0.5,-1,2,1.5,0,-0.5], f).reshape(2,3); t2 = np.array([2,0], np.int32)
//   run("NegativeLogLikelihoodLoss", [x2,t2], {}, 13)
//   run("SoftmaxCrossEntropyLoss", [x,t], dict(reduction="none"), 13, outs=2)
//   run("SoftmaxCrossEntropyLoss", [x,t,w], dict(reduction="mean"), 12, outs=2)
//   tn = np.array([[0,-1],[-1,2]], np.int64)
//   run("SoftmaxCrossEntropyLoss", [x,tn], dict(reduction="sum", ignore_index=-1), 13)
//   run("SoftmaxCrossEntropyLoss", [x.astype(np.float64),tn], dict(ignore_index=-1), 13)
//   run("SoftmaxCrossEntropyLoss", [x2.astype(np.float16),t2], {}, 13)
#include <gtest/gtest.h>

#include "op_tester.h"

namespace oinfer::testing {
namespace {

Tensor f32(std::vector<int64_t> shape, std::vector<float> v) { return Tensor::fromVector<float>(shape, v); }
Tensor x3() { return f32({2, 3, 2}, {0.5f, -1, 2, 1.5f, 0, -0.5f, 3, -2, 1, 0.25f, -1.5f, 2.5f}); }
Tensor t3() { return Tensor::fromVector<int64_t>({2, 2}, {0, 2, 1, 1}); }
Tensor tNeg() { return Tensor::fromVector<int64_t>({2, 2}, {0, -1, -1, 2}); }
Tensor w3() { return f32({3}, {0.2f, 0.5f, 1.5f}); }
Tensor x2() { return f32({2, 3}, {0.5f, -1, 2, 1.5f, 0, -0.5f}); }
Tensor scalar(float v) { return Tensor::scalar<float>(v); }
Tensor logProb() {
  return f32({2, 3, 2}, {-1.8063557f, -2.696734f, -0.30635568f, -0.19673413f, -2.3063557f, -2.1967342f, -0.13666524f,
                         -4.6102061f, -2.1366653f, -2.3602061f, -4.6366653f, -0.11020619f});
}

TEST(LossNll, NoneWithWeight) {
  for (int64_t opset : {12, 13, 22}) {
    SCOPED_TRACE("opset " + std::to_string(opset));
    OpTester t("NegativeLogLikelihoodLoss", opset);
    t.attr("reduction", "none").input("x", x3()).input("t", t3()).input("w", w3());
    t.expect("loss", f32({2, 2}, {-0.1f, 0.75f, -0.5f, -0.125f}));
    t.run();
  }
}

TEST(LossNll, MeanWithWeight) {
  OpTester t("NegativeLogLikelihoodLoss", 13);
  t.input("x", x3()).input("t", t3()).input("w", w3()).expect("loss", scalar(0.00925925f));
  t.run();
}

TEST(LossNll, MeanIgnoreIndexNoWeight) {
  OpTester t("NegativeLogLikelihoodLoss", 22);
  t.attr("reduction", "mean").attr("ignore_index", int64_t(0)).input("x", x3()).input("t", t3());
  t.expect("loss", scalar(-0.25f));
  t.run();
}

TEST(LossNll, SumWeightIgnoreIndex) {
  OpTester t("NegativeLogLikelihoodLoss", 12);
  t.attr("reduction", "sum").attr("ignore_index", int64_t(2)).input("x", x3()).input("t", t3()).input("w", w3());
  t.expect("loss", scalar(-0.725f));
  t.run();
}

TEST(LossNll, TwoDimInt32Target) {
  OpTester t("NegativeLogLikelihoodLoss", 13);
  t.input("x", x2()).input("t", Tensor::fromVector<int32_t>({2}, {2, 0})).expect("loss", scalar(-1.75f));
  t.run();
}

TEST(LossSce, NoneWithLogProb) {
  OpTester t("SoftmaxCrossEntropyLoss", 13);
  t.attr("reduction", "none").input("x", x3()).input("t", t3());
  t.expect("loss", f32({2, 2}, {1.8063557f, 2.1967342f, 2.1366653f, 2.3602061f})).expect("log_prob", logProb());
  t.run();
}

TEST(LossSce, MeanWeightWithLogProb) {
  OpTester t("SoftmaxCrossEntropyLoss", 12);
  t.input("x", x3()).input("t", t3()).input("w", w3());
  t.expect("loss", scalar(2.1869659f)).expect("log_prob", logProb());
  t.run();
}

TEST(LossSce, SumNegativeIgnoreIndex) {
  OpTester t("SoftmaxCrossEntropyLoss", 13);
  t.attr("reduction", "sum").attr("ignore_index", int64_t(-1)).input("x", x3()).input("t", tNeg());
  t.expect("loss", scalar(1.9165620f));
  t.run();
}

TEST(LossSce, DoubleMeanNegativeIgnoreIndex) {
  OpTester t("SoftmaxCrossEntropyLoss", 13);
  std::vector<double> xd;
  for (float v : x3().toVector<float>()) xd.push_back(v);
  t.attr("ignore_index", int64_t(-1)).input("x", Tensor::fromVector<double>({2, 3, 2}, xd)).input("t", tNeg());
  t.expect("loss", Tensor::scalar<double>(0.9582809338891551), 1e-10, 1e-12);
  t.run();
}

TEST(LossSce, Float16) {
  std::vector<Float16> xh;
  for (float v : x2().toVector<float>()) xh.push_back(Float16(v));
  OpTester t("SoftmaxCrossEntropyLoss", 13);
  t.input("x", Tensor::fromVector<Float16>({2, 3}, xh)).input("t", Tensor::fromVector<int32_t>({2}, {2, 0}));
  t.expect("loss", Tensor::scalar<Float16>(Float16(0.273681640625f)), 1e-3, 1e-3);
  t.run();
}

TEST(LossErrors, TargetShapeMismatch) {
  OpTester t("NegativeLogLikelihoodLoss", 13);
  t.input("x", x3()).input("t", Tensor::fromVector<int64_t>({2, 3}, {0, 0, 0, 0, 0, 0}));
  t.expectError("input 1 ('t') has shape [2,3], expected [N, d1..dk] for input 0 ('x') of shape [2,3,2]");
}

TEST(LossErrors, WeightShapeMismatch) {
  OpTester t("SoftmaxCrossEntropyLoss", 13);
  t.input("x", x3()).input("t", t3()).input("w", f32({2}, {1, 2}));
  t.expectError("input 2 ('w') has shape [2], expected [C] = [3]");
}

TEST(LossErrors, TargetOutOfRange) {
  OpTester t("NegativeLogLikelihoodLoss", 13);
  t.input("x", x3()).input("t", Tensor::fromVector<int64_t>({2, 2}, {0, 3, 1, 1})).output("loss");
  t.expectError("target value 3 at position 1 is out of range [0, 3)");
}

TEST(LossErrors, BadReduction) {
  OpTester t("NegativeLogLikelihoodLoss", 13);
  t.attr("reduction", "avg").input("x", x3()).input("t", t3());
  t.expectError("reduction must be 'none', 'sum' or 'mean', got 'avg'");
}

}  // namespace
}  // namespace oinfer::testing
