// Conv and ConvTranspose op tests.
//
// Reference values come from onnxruntime (onnx.reference where onnxruntime
// has no kernel) on one-node models, produced by this Python:
//
//   import numpy as np, onnx, onnxruntime as ort
//   from onnx import helper as h, TensorProto as TP
//   def pat(shape, seed=0, dtype=np.float32):  # same as pat<T> below
//       n = int(np.prod(shape))
//       return np.array([((i * 7 + seed) % 13 - 6) / 4 for i in range(n)], dtype=dtype).reshape(shape)
//   from onnx.reference import ReferenceEvaluator
//   def run(op, opset, outputs=1, engine='ort', **kw):  # ndarray kwargs are inputs, the rest attributes
//       ins = {k: v for k, v in kw.items() if isinstance(v, np.ndarray)}
//       attrs = {k: v for k, v in kw.items() if k not in ins}
//       names = ['Y', 'I'][:outputs]
//       ty = lambda a: onnx.helper.np_dtype_to_tensor_dtype(a.dtype)
//       node = h.make_node(op, list(ins), names, **attrs)
//       g = h.make_graph([node], 'g', [h.make_tensor_value_info(k, ty(v), v.shape) for k, v in ins.items()],
//                        [h.make_tensor_value_info(n, TP.INT64 if n == 'I' else ty(next(iter(ins.values()))), None)
//                         for n in names])
//       m = h.make_model(g, opset_imports=[h.make_opsetid('', opset)])
//       if engine == 'reference': return ReferenceEvaluator(m).run(None, ins)
//       return ort.InferenceSession(m.SerializeToString()).run(None, ins)
//
// Larger shapes are checked against the naive loops at the bottom of this
// file (straightforward definitions of the ops, not the kernels).
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "op_tester.h"
#include "ops/registry.h"
#include "ir_util.h"

namespace oinfer::testing {
namespace {

template <class T>
Tensor pat(std::vector<int64_t> shape, int seed) {
  Tensor t(dataTypeOf<T>, std::move(shape));
  for (int64_t i = 0; i < t.numel(); ++i) t.data<T>()[i] = static_cast<T>(((i * 7 + seed) % 13 - 6) / 4.0);
  return t;
}

}  // namespace
// run('Conv', 22, X=pat([1, 1, 5, 5], 0), W=pat([1, 1, 3, 3], 3), pads=[1, 1, 1, 1])
TEST(ConvOp, Basic2DPads) {
  OpTester t("Conv", 22);
  t.input("X", pat<float>({1, 1, 5, 5}, 0));
  t.constantInput("W", pat<float>({1, 1, 3, 3}, 3));
  t.attr("pads", std::vector<int64_t>{1, 1, 1, 1});
  t.expect("Y", Tensor::fromVector<float>({1, 1, 5, 5}, {-0.5625, -2.4375, -0.25, -2.125, -1, -2.1875, 2.375, -4, 7.5, -2.6875, 5.4375, -3.5, 3.125, -2.4375, 0.8125, -1.5625, -0.4375, -0.3125, -3.4375, 0.25, -2.5, 5.1875, -3.0625, 5.75, -2}));
  t.run();
}

// run('Conv', 22, X=pat([1, 1, 5, 5], 0), W=pat([1, 1, 3, 3], 3), kernel_shape=[3, 3])
TEST(ConvOp, NoPadsKernelShapeAttr) {
  OpTester t("Conv", 22);
  t.input("X", pat<float>({1, 1, 5, 5}, 0));
  t.constantInput("W", pat<float>({1, 1, 3, 3}, 3));
  t.attr("kernel_shape", std::vector<int64_t>{3, 3});
  t.expect("Y", Tensor::fromVector<float>({1, 1, 3, 3}, {2.375, -4, 7.5, -3.5, 3.125, -2.4375, -0.4375, -0.3125, -3.4375}));
  t.run();
}

// run('Conv', 22, X=pat([1, 2, 5, 6], 1), W=pat([3, 2, 3, 3], 4), B=pat([3], 5), strides=[2, 2], pads=[1, 0, 1, 1])
TEST(ConvOp, Strides2Bias) {
  OpTester t("Conv", 22);
  t.input("X", pat<float>({1, 2, 5, 6}, 1));
  t.constantInput("W", pat<float>({3, 2, 3, 3}, 4));
  t.constantInput("B", pat<float>({3}, 5));
  t.attr("strides", std::vector<int64_t>{2, 2});
  t.attr("pads", std::vector<int64_t>{1, 0, 1, 1});
  t.expect("Y", Tensor::fromVector<float>({1, 3, 3, 3}, {-6.5625, -5.9375, -2.125, 3.4375, 4.75, 0.5625, -4.75, -1.1875, -2, -1.25, -2, -4.75, 4.5, 7.8125, 4.1875, -5.3125, -9.625, -5.5625, 4.0625, 4.375, 4, -4.1875, -7, 0.5, 5.5, 4.6875, 3.0625}));
  t.run();
}

// run('Conv', 22, X=pat([1, 1, 7, 5], 0), W=pat([1, 1, 3, 3], 2), strides=[2, 1], pads=[1, 0, 1, 0])
TEST(ConvOp, AsymmetricStridesPads) {
  OpTester t("Conv", 22);
  t.input("X", pat<float>({1, 1, 7, 5}, 0));
  t.input("W", pat<float>({1, 1, 3, 3}, 2));
  t.attr("strides", std::vector<int64_t>{2, 1});
  t.attr("pads", std::vector<int64_t>{1, 0, 1, 0});
  t.expect("Y", Tensor::fromVector<float>({1, 1, 4, 3}, {-4.5, 3.1875, -3.75, -2, -0.125, 0.125, 2.9375, -2.5, 3.4375, -3.625, 5, -3.4375}));
  t.run();
}

// run('Conv', 22, X=pat([1, 2, 5, 6], 2), W=pat([2, 2, 3, 3], 1), auto_pad='SAME_UPPER', strides=[2, 2])
TEST(ConvOp, AutoPadSameUpper) {
  OpTester t("Conv", 22);
  t.input("X", pat<float>({1, 2, 5, 6}, 2));
  t.constantInput("W", pat<float>({2, 2, 3, 3}, 1));
  t.attr("auto_pad", "SAME_UPPER");
  t.attr("strides", std::vector<int64_t>{2, 2});
  t.expect("Y", Tensor::fromVector<float>({1, 2, 3, 3}, {-3.4375, -7.5, -2.4375, 5.375, 4.125, 4.3125, -7.5625, -4.625, -2.75, 5.25, 4.6875, 0.9375, -10.375, -3.9375, 0.75, 4.1875, 0.875, 0.5}));
  t.run();
}

// run('Conv', 22, X=pat([1, 2, 5, 6], 2), W=pat([2, 2, 3, 3], 1), auto_pad='SAME_LOWER', strides=[2, 2])
TEST(ConvOp, AutoPadSameLower) {
  OpTester t("Conv", 22);
  t.input("X", pat<float>({1, 2, 5, 6}, 2));
  t.constantInput("W", pat<float>({2, 2, 3, 3}, 1));
  t.attr("auto_pad", "SAME_LOWER");
  t.attr("strides", std::vector<int64_t>{2, 2});
  t.expect("Y", Tensor::fromVector<float>({1, 2, 3, 3}, {3.1875, 5.5, 5.5, -2.3125, -4.1875, -4.625, 3.375, 4.0625, 2.125, -6.5, -6.8125, -0.0625, 4.1875, 3, -0.3125, -2.375, -2.75, -0.375}));
  t.run();
}

// run('Conv', 22, X=pat([1, 1, 4, 5], 3), W=pat([1, 1, 2, 2], 1), auto_pad='SAME_UPPER')
TEST(ConvOp, AutoPadSameUpperEvenKernel) {
  OpTester t("Conv", 22);
  t.input("X", pat<float>({1, 1, 4, 5}, 3));
  t.constantInput("W", pat<float>({1, 1, 2, 2}, 1));
  t.attr("auto_pad", "SAME_UPPER");
  t.expect("Y", Tensor::fromVector<float>({1, 1, 4, 5}, {-0.0625, -2.625, 2.9375, -2.875, 1.5625, -3.125, 0.8125, 0.6875, 0.5625, 0.5625, 0.3125, 0.1875, 0.0625, -0.0625, -1.25, 1.25, -1.6875, 1.0625, -1.875, 0}));
  t.run();
}

// run('Conv', 22, X=pat([1, 1, 4, 5], 3), W=pat([1, 1, 2, 2], 1), auto_pad='SAME_LOWER')
TEST(ConvOp, AutoPadSameLowerEvenKernel) {
  OpTester t("Conv", 22);
  t.input("X", pat<float>({1, 1, 4, 5}, 3));
  t.constantInput("W", pat<float>({1, 1, 2, 2}, 1));
  t.attr("auto_pad", "SAME_LOWER");
  t.expect("Y", Tensor::fromVector<float>({1, 1, 4, 5}, {-0.5625, 1.5, -1.375, 1.4375, -1.4375, 0.75, -0.0625, -2.625, 2.9375, -2.875, 1.125, -3.125, 0.8125, 0.6875, 0.5625, -0.125, 0.3125, 0.1875, 0.0625, -0.0625}));
  t.run();
}

// run('Conv', 22, X=pat([1, 1, 6, 7], 1), W=pat([1, 1, 3, 2], 5), auto_pad='VALID', strides=[2, 2])  (onnx.reference differs here; onnxruntime is right per the spec)
TEST(ConvOp, AutoPadValid) {
  OpTester t("Conv", 22);
  t.input("X", pat<float>({1, 1, 6, 7}, 1));
  t.constantInput("W", pat<float>({1, 1, 3, 2}, 5));
  t.attr("auto_pad", "VALID");
  t.attr("strides", std::vector<int64_t>{2, 2});
  t.expect("Y", Tensor::fromVector<float>({1, 1, 2, 3}, {2.8125, 2.5, 2.1875, -5.0625, -0.5, -0.8125}));
  t.run();
}

// run('Conv', 22, X=pat([1, 1, 7, 7], 0), W=pat([1, 1, 3, 3], 1), dilations=[2, 2], pads=[1, 2, 1, 2])
TEST(ConvOp, Dilations) {
  OpTester t("Conv", 22);
  t.input("X", pat<float>({1, 1, 7, 7}, 0));
  t.constantInput("W", pat<float>({1, 1, 3, 3}, 1));
  t.attr("dilations", std::vector<int64_t>{2, 2});
  t.attr("pads", std::vector<int64_t>{1, 2, 1, 2});
  t.expect("Y", Tensor::fromVector<float>({1, 1, 5, 7}, {-0.0625, 1.3125, 1.25, 1.4375, -1.625, -2.8125, 2.5625, -0.5, 0, 2.375, -1.3125, 2.3125, 0.4375, 0.4375, 0.5625, 0.25, -0.6875, -1.125, -1.5625, 2.875, -3.625, 0, -0.3125, -1.3125, 2.3125, -1.375, 0.4375, 0.4375, 0.5625, -0.6875, -1.1875, 0.75, 1.0625, -2.8125, -0.0625}));
  t.run();
}

// run('Conv', 22, X=pat([1, 4, 4, 4], 3), W=pat([6, 2, 3, 3], 2), B=pat([6], 1), group=2, pads=[1, 1, 1, 1])
TEST(ConvOp, Group2) {
  OpTester t("Conv", 22);
  t.input("X", pat<float>({1, 4, 4, 4}, 3));
  t.constantInput("W", pat<float>({6, 2, 3, 3}, 2));
  t.constantInput("B", pat<float>({6}, 1));
  t.attr("group", int64_t{2});
  t.attr("pads", std::vector<int64_t>{1, 1, 1, 1});
  t.expect("Y", Tensor::fromVector<float>({1, 6, 4, 4}, {-3.0625, 3.1875, -2.125, -2.4375, 0.75, -6.1875, -2.1875, -2.5, -3.375, 4.125, -4.0625, -0.0625, -1.1875, 0.5, -1.3125, -1.5, 1.5, -1.75, 2.8125, -4.75, 0.0625, -1.5, 2.6875, 1.9375, 1.3125, -1.8125, 0.75, 0.8125, -2.1875, 3.0625, -3.5, 2.8125, 2, -5.875, -1.1875, -2.1875, 0.1875, 1.5625, 0.25, -2.5625, -2.125, -0.4375, -3.375, 1.6875, -4, 1.5625, -5.6875, 1.4375, -2.25, 2.625, -3.9375, 3, -2, 5.1875, -1.625, -0.75, -0.5625, 0.6875, 2, 1.5625, -1.4375, 1.1875, 0.5625, -2, -3.6875, 2.5, -4.75, 2, -0.3125, -2, -0.5, -0.4375, 3.25, -0.875, 1.4375, -1.6875, 0.5, -4.4375, 1.5625, -0.4375, 0.5625, 2.375, 0.9375, 1, 2.1875, 3.8125, -1.8125, 3.9375, -1.0625, 1.625, 0.0625, -2.5, 3.25, -1.125, 0.125, 4.375}));
  t.run();
}

// run('Conv', 22, X=pat([2, 3, 5, 5], 0), W=pat([3, 1, 3, 3], 4), B=pat([3], 2), group=3, pads=[1, 1, 1, 1], strides=[2, 2])
TEST(ConvOp, DepthwiseStridePads) {
  OpTester t("Conv", 22);
  t.input("X", pat<float>({2, 3, 5, 5}, 0));
  t.constantInput("W", pat<float>({3, 1, 3, 3}, 4));
  t.constantInput("B", pat<float>({3}, 2));
  t.attr("group", int64_t{3});
  t.attr("pads", std::vector<int64_t>{1, 1, 1, 1});
  t.attr("strides", std::vector<int64_t>{2, 2});
  t.expect("Y", Tensor::fromVector<float>({2, 3, 3, 3}, {-2.6875, -3.0625, -1.9375, -0.3125, 7, -0.3125, -1.9375, -3.0625, -2.6875, -2.625, -3.75, -1.75, -1.125, -1.25, 1.5, 3.5, 5.9375, 3.6875, -1.25, 2.8125, 2.1875, 0.4375, 2.1875, 0, -2.75, -3.8125, -3.25, -1.4375, 5.25, -2.125, -2.6875, -4.375, -3.625, -1.75, 0, 1.75, 0.1875, 0.8125, 2.875, 5.75, 3.6875, 1.75, 0.375, -2.875, -1.6875, -0.9375, -0.4375, -1.375, -3.75, -4.1875, -1.875, -1.0625, 0.6875, 2.6875}));
  t.run();
}

// run('Conv', 22, X=pat([1, 2, 4, 5], 5), W=pat([4, 1, 3, 2], 1), group=2, pads=[0, 1, 1, 0])
TEST(ConvOp, DepthwiseMultiplier) {
  OpTester t("Conv", 22);
  t.input("X", pat<float>({1, 2, 4, 5}, 5));
  t.constantInput("W", pat<float>({4, 1, 3, 2}, 1));
  t.attr("group", int64_t{2});
  t.attr("pads", std::vector<int64_t>{0, 1, 1, 0});
  t.expect("Y", Tensor::fromVector<float>({1, 4, 3, 5}, {-0.0625, 1.4375, -1.5, -0.375, 2.375, 0.125, -1.0625, 1.6875, -1.25, 1.5, 0.5, -2.625, 2.9375, -2.875, 2.6875, -3.6875, 3.8125, -4.25, -0.125, -2.5, -0.0625, 2.5, 0.125, 2.625, 0.25, 1.25, -3.375, 2.5625, -2.875, 3.0625, -0.1875, 0.8125, -1.8125, 0.4375, 1.0625, -1.25, 0.6875, -1.9375, 0.3125, 1.75, 0.4375, 0.25, 0.0625, -0.125, -0.3125, 0.1875, 0.625, -1.4375, 1.375, 0.125, -0.6875, 0.875, -1.1875, 1.625, 1.1875, 0.0625, -0.3125, -0.125, 0.0625, 0.25}));
  t.run();
}

// run('Conv', 22, X=pat([1, 2, 6, 6], 1), W=pat([2, 1, 3, 3], 3), group=2, dilations=[2, 1], pads=[2, 1, 2, 1])
TEST(ConvOp, DepthwiseDilated) {
  OpTester t("Conv", 22);
  t.input("X", pat<float>({1, 2, 6, 6}, 1));
  t.constantInput("W", pat<float>({2, 1, 3, 3}, 3));
  t.attr("group", int64_t{2});
  t.attr("dilations", std::vector<int64_t>{2, 1});
  t.attr("pads", std::vector<int64_t>{2, 1, 2, 1});
  t.expect("Y", Tensor::fromVector<float>({1, 2, 6, 6}, {0.375, -1.1875, 1, -0.875, 1.3125, -0.0625, 0.375, -0.25, 1.9375, 0.0625, -2.625, 0.375, -1.125, 2.625, -2.9375, 2.875, -2.6875, 1.5625, -0.75, 3.375, -2.1875, 3.625, -0.3125, -1.875, 1.625, -5.5, 3.3125, -4.9375, 3.875, -2.75, 2.9375, -3.8125, 5, -3.25, 5.5625, -1.8125, 0.375, 1, -4.5, 3, -4.125, 2.375, -2.75, 3.75, -3.375, 4.125, -3, 2.9375, -0.3125, 0.625, 4.25, -5.9375, 5.8125, -4.125, 3.5, -6.0625, 5.6875, -6.125, 5.625, -4.125, 2.4375, -1.6875, -1.375, 4.625, -4, 2.9375, -2.625, 4.25, -4.375, 4.0625, -4.5625, 2.375}));
  t.run();
}

// run('Conv', 22, X=pat([2, 3, 2, 3], 0), W=pat([4, 3, 1, 1], 1), B=pat([4], 2))
TEST(ConvOp, Pointwise1x1Bias) {
  OpTester t("Conv", 22);
  t.input("X", pat<float>({2, 3, 2, 3}, 0));
  t.constantInput("W", pat<float>({4, 3, 1, 1}, 1));
  t.constantInput("B", pat<float>({4}, 2));
  t.expect("Y", Tensor::fromVector<float>({2, 4, 2, 3}, {0.5, 0.6875, 0.0625, 0.25, -0.375, -0.1875, 0.1875, -1.3125, 0.4375, -1.0625, 0.6875, -0.8125, -0.9375, 0.75, -0.8125, 0.875, -0.6875, 1, -1.25, 3.625, -1.25, 3.625, -1.25, 3.625, -0.1875, -0.8125, -2.25, -1.25, -2.6875, -1.6875, -0.8125, 0.9375, 1.875, 1.1875, 2.125, 1.4375, 1, -0.5625, -2.9375, -0.4375, -2.8125, -0.3125, 3.625, -1.25, 3.625, -1.25, 3.625, -1.25}));
  t.run();
}

// run('Conv', 22, X=pat([1, 4, 3, 3], 2), W=pat([2, 2, 1, 1], 1), group=2)
TEST(ConvOp, Pointwise1x1Grouped) {
  OpTester t("Conv", 22);
  t.input("X", pat<float>({1, 4, 3, 3}, 2));
  t.constantInput("W", pat<float>({2, 2, 1, 1}, 1));
  t.attr("group", int64_t{2});
  t.expect("Y", Tensor::fromVector<float>({1, 2, 3, 3}, {0.5, -0.8125, 0.3125, -1, 0.125, -1.1875, -0.0625, -1.375, -0.25, -0.6875, -0.3125, -0.75, -0.375, 2.4375, -0.4375, 2.375, -0.5, -0.125}));
  t.run();
}

// run('Conv', 22, X=pat([1, 2, 5, 5], 1), W=pat([2, 2, 1, 1], 3), strides=[2, 2])
TEST(ConvOp, Pointwise1x1Stride2) {
  OpTester t("Conv", 22);
  t.input("X", pat<float>({1, 2, 5, 5}, 1));
  t.constantInput("W", pat<float>({2, 2, 1, 1}, 3));
  t.attr("strides", std::vector<int64_t>{2, 2});
  t.expect("Y", Tensor::fromVector<float>({1, 2, 3, 3}, {1.1875, 1.25, 1.3125, 1.5, -1.6875, -1.625, -1.4375, -1.375, 1.125, 0.9375, 1.125, 1.3125, 1.875, -2, -1.8125, -1.25, -1.0625, 0.75}));
  t.run();
}

// run('Conv', 22, X=pat([2, 2, 9], 0), W=pat([3, 2, 3], 1), B=pat([3], 4), strides=[2], pads=[1, 2], dilations=[2])
TEST(ConvOp, Conv1D) {
  OpTester t("Conv", 22);
  t.input("X", pat<float>({2, 2, 9}, 0));
  t.constantInput("W", pat<float>({3, 2, 3}, 1));
  t.constantInput("B", pat<float>({3}, 4));
  t.attr("strides", std::vector<int64_t>{2});
  t.attr("pads", std::vector<int64_t>{1, 2});
  t.attr("dilations", std::vector<int64_t>{2});
  t.expect("Y", Tensor::fromVector<float>({2, 3, 4}, {-0.6875, -1.25, -1.4375, -1.125, 1.4375, 0.8125, 0.9375, 2.5, -0.5, -0.375, -0.75, -1.1875, -0.4375, -0.5, -0.6875, -0.375, 1.9375, 0.3125, 0.4375, 0.25, 0.25, 1.125, 0.75, 0.0625}));
  t.run();
}

// run('Conv', 22, X=pat([1, 2, 4, 4, 3], 0), W=pat([2, 2, 3, 2, 2], 1), pads=[1, 0, 1, 1, 1, 0], strides=[2, 1, 2])
TEST(ConvOp, Conv3D) {
  OpTester t("Conv", 22);
  t.input("X", pat<float>({1, 2, 4, 4, 3}, 0));
  t.constantInput("W", pat<float>({2, 2, 3, 2, 2}, 1));
  t.attr("pads", std::vector<int64_t>{1, 0, 1, 1, 1, 0});
  t.attr("strides", std::vector<int64_t>{2, 1, 2});
  t.expect("Y", Tensor::fromVector<float>({1, 2, 2, 4, 2}, {0.1875, 0.9375, -3.1875, -4.5625, 3.1875, 2.125, 0.1875, 0.8125, 1.4375, 5.3125, -5.5625, -2.75, 3.6875, 1.375, 0.8125, -0.375, -3.875, -1.4375, -0.6875, -0.3125, 1.6875, 0.8125, 0.0625, 0.1875, -3.6875, 1.25, -3.6875, 0.6875, 2, 0.125, 1.3125, -0.75}));
  t.run();
}

// run('Conv', 22, X=pat([1, 2, 3, 4, 4], 2), W=pat([2, 1, 2, 3, 3], 1), group=2, auto_pad='SAME_UPPER')
TEST(ConvOp, Conv3DGroupSame) {
  OpTester t("Conv", 22);
  t.input("X", pat<float>({1, 2, 3, 4, 4}, 2));
  t.input("W", pat<float>({2, 1, 2, 3, 3}, 1));
  t.attr("group", int64_t{2});
  t.attr("auto_pad", "SAME_UPPER");
  t.expect("Y", Tensor::fromVector<float>({1, 2, 3, 4, 4}, {0.1875, 0.9375, -2.3125, 3, -1.6875, 0.5, 1.5, 1.1875, -1.625, 6.125, -5.0625, -1.125, 0.8125, -1.1875, 2.3125, -3, 2.8125, -1.5, -1.5, 2.8125, -3.875, -2.1875, 6.125, -1.5625, 2.6875, -2.25, -1.25, 2.625, -0.125, 2, -1.8125, 2.1875, 2.3125, -3.125, 1.125, -0.375, -1.9375, 1.125, -0.9375, -0.75, 1.6875, -0.625, 3, -0.75, -0.0625, 0.3125, 0.625, -0.375, -3.4375, 4.875, -3.9375, 2.75, -2.5, -0.875, -2.9375, -1.0625, 3.75, -2.625, 4.25, 1.1875, -1.1875, -2.125, 3.9375, -2.4375, 2.6875, -3.6875, 0.5, -1.25, -1.0625, 1.875, -2.625, 0.625, 1.125, 5, -6, 5.3125, -2.6875, 0.625, -0.625, -0.25, -3.0625, 2.4375, -1.375, 1.625, 2.875, -0.875, 5.6875, -4.375, 3.5, -5.5, 2.6875, -2.5, -0.5625, 0.1875, -1.0625, 0}));
  t.run();
}

// run('Conv', 1, X=pat([1, 1, 4, 4], 0), W=pat([2, 1, 2, 2], 1), strides=[2, 2])
TEST(ConvOp, Opset1) {
  OpTester t("Conv", 1);
  t.input("X", pat<float>({1, 1, 4, 4}, 0));
  t.constantInput("W", pat<float>({2, 1, 2, 2}, 1));
  t.attr("strides", std::vector<int64_t>{2, 2});
  t.expect("Y", Tensor::fromVector<float>({1, 2, 2, 2}, {3.5625, 3.3125, 0.125, -0.125, 2.8125, 3.0625, -0.25, 0}));
  t.run();
}

// run('Conv', 11, X=pat([1, 2, 4, 4], 3), W=pat([1, 2, 3, 3], 2), auto_pad='SAME_UPPER')
TEST(ConvOp, Opset11) {
  OpTester t("Conv", 11);
  t.input("X", pat<float>({1, 2, 4, 4}, 3));
  t.constantInput("W", pat<float>({1, 2, 3, 3}, 2));
  t.attr("auto_pad", "SAME_UPPER");
  t.expect("Y", Tensor::fromVector<float>({1, 1, 4, 4}, {-1.8125, 4.4375, -0.875, -1.1875, 2, -4.9375, -0.9375, -1.25, -2.125, 5.375, -2.8125, 1.1875, 0.0625, 1.75, -0.0625, -0.25}));
  t.run();
}

// run('Conv', 22, X=pat([1, 2, 4, 4], 0), W=pat([2, 1, 2, 2], 1), B=pat([2], 3), group=2, strides=[1, 2], engine='reference')
TEST(ConvOp, DoubleGroup) {
  OpTester t("Conv", 22);
  t.input("X", pat<double>({1, 2, 4, 4}, 0));
  t.constantInput("W", pat<double>({2, 1, 2, 2}, 1));
  t.constantInput("B", pat<double>({2}, 3));
  t.attr("group", int64_t{2});
  t.attr("strides", std::vector<int64_t>{1, 2});
  t.expect("Y", Tensor::fromVector<double>({1, 2, 3, 2}, {2.8125, 2.5625, 2.3125, 2.0625, -0.625, -0.875, -1.5, -1.25, -1, 0.875, 1.125, 3.8125}));
  t.run();
}

// run('ConvTranspose', 22, X=pat([1, 1, 3, 3], 0), W=pat([1, 2, 3, 3], 1))
TEST(ConvTransposeOp, Basic2D) {
  OpTester t("ConvTranspose", 22);
  t.input("X", pat<float>({1, 1, 3, 3}, 0));
  t.constantInput("W", pat<float>({1, 2, 3, 3}, 1));
  t.expect("Y", Tensor::fromVector<float>({1, 2, 5, 5}, {1.875, -1.0625, 3.1875, -0.875, 1.25, -1.75, 2.8125, -4.5625, 2.5625, -2, 2.0625, -4.75, 5, -4.4375, 1.5625, -0.8125, 2.4375, -3.625, 2.5625, -0.6875, 0.375, -1.4375, 1.6875, -0.875, 0.125, -2.25, 0.375, 0.375, -0.375, 1.875, 0.375, 0.4375, -1, 3.1875, -1.75, 0.5, -0.75, 4.625, -4.0625, 2.0625, -0.6875, 2.5625, -3.625, 2.4375, -0.8125, 0.75, -1.5625, 1.8125, -1.125, 0.375}));
  t.run();
}

// run('ConvTranspose', 22, X=pat([1, 2, 3, 3], 2), W=pat([2, 3, 3, 3], 1), B=pat([3], 4), strides=[2, 2], pads=[1, 0, 0, 1])
TEST(ConvTransposeOp, StridesPadsBias) {
  OpTester t("ConvTranspose", 22);
  t.input("X", pat<float>({1, 2, 3, 3}, 2));
  t.constantInput("W", pat<float>({2, 3, 3, 3}, 1));
  t.constantInput("B", pat<float>({3}, 4));
  t.attr("strides", std::vector<int64_t>{2, 2});
  t.attr("pads", std::vector<int64_t>{1, 0, 0, 1});
  t.expect("Y", Tensor::fromVector<float>({1, 3, 6, 6}, {-0.125, -1.25, -0.375, -0.8125, 0.5, -1.1875, -2.875, -1.375, -3.0625, 1.125, -2.9375, -1.25, -0.125, -0.75, 0.625, -1.125, -0.125, -0.6875, -0.4375, 1.25, -2.6875, -1.125, -2.5625, 1.375, -0.125, -1.0625, 0, -0.625, 0.875, -1, -1.3125, -0.625, -1.0625, 1.125, 0, -0.375, 2.875, 1.75, 2.125, 0.4375, 2.75, 1.5625, 2.625, 0.875, -2.1875, 3.125, 3.125, 0.5, 0.875, 0.25, 2.375, 1.375, 1.375, 0.0625, 0.25, 2.75, 3.1875, 0.125, -2.0625, 2.375, 2.125, 1.1875, 1, -0.125, 1.625, 1, 0.9375, 1.625, -0.0625, 1.625, 0.75, 1.625, -2.25, -1.75, 2.1875, 0.875, -2.3125, -1.375, 1.625, 1.5, 0.3125, -1.375, 0.25, 1.4375, 0.25, 1.25, -2.375, -1, 2.0625, 1.625, -1.5, -1.4375, 0.125, 1.375, 0.0625, -1.5, -1.3125, -0.625, 2, 2, -2.5, -0.25, -0.0625, 0.625, -2.3125, -1.125, -1.75, 0.375}));
  t.run();
}

// run('ConvTranspose', 22, X=pat([1, 1, 3, 3], 0), W=pat([1, 2, 3, 3], 3), strides=[3, 2], output_padding=[1, 1])
TEST(ConvTransposeOp, OutputPadding) {
  OpTester t("ConvTranspose", 22);
  t.input("X", pat<float>({1, 1, 3, 3}, 0));
  t.constantInput("W", pat<float>({1, 2, 3, 3}, 3));
  t.attr("strides", std::vector<int64_t>{3, 2});
  t.attr("output_padding", std::vector<int64_t>{1, 1});
  t.expect("Y", Tensor::fromVector<float>({1, 2, 10, 8}, {1.125, -1.5, 0.5625, 0.25, 0.8125, -1.25, 0.625, 0, -1.875, 0.375, -1.9375, -0.0625, -1.1875, 0.3125, -1.875, 0, 0, 2.25, -0.375, -0.375, 0.0625, 1.875, -0.3125, 0, -0.375, 0.5, 0.5, -1, -0.0625, 0.75, -0.375, 0, 0.625, -0.125, -0.5, 0.25, -0.5625, -0.1875, 1.125, 0, 0, -0.75, 0.125, 1.5, -0.25, -1.125, 0.1875, 0, 0.5625, -0.75, -0.375, 1, -0.125, -0.5, 0.25, 0, -0.9375, 0.1875, 0.125, -0.25, 0.875, 0.125, -0.75, 0, 0, 1.125, -0.1875, -1.5, 0.25, 0.75, -0.125, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1.875, -0.75, 1.1875, 0.125, 1.3125, -0.625, 1.25, 0, -1.125, 1.125, -1.3125, -0.1875, -0.6875, 0.9375, -1.25, 0, 0.75, -1.875, 0.25, 0.3125, 0.5625, -1.5625, 0.3125, 0, -0.625, 0.25, 0.75, -0.5, 0.0625, 0.375, -0.75, 0, 0.375, -0.375, -0.25, 0.75, -0.4375, -0.5625, 0.75, 0, -0.25, 0.625, 0.375, -1.25, -0.125, 0.9375, -0.1875, 0, 0.9375, -0.375, -0.5, 0.5, -0.375, -0.25, 0.5, 0, -0.5625, 0.5625, 0, -0.75, 0.625, 0.375, -0.5, 0, 0.375, -0.9375, -0.3125, 1.25, 0, -0.625, 0.125, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
  t.run();
}

// run('ConvTranspose', 22, X=pat([1, 1, 3, 3], 0), W=pat([1, 2, 3, 3], 3), strides=[3, 2], output_shape=[10, 8])
TEST(ConvTransposeOp, OutputShapeLarger) {
  OpTester t("ConvTranspose", 22);
  t.input("X", pat<float>({1, 1, 3, 3}, 0));
  t.constantInput("W", pat<float>({1, 2, 3, 3}, 3));
  t.attr("strides", std::vector<int64_t>{3, 2});
  t.attr("output_shape", std::vector<int64_t>{10, 8});
  t.expect("Y", Tensor::fromVector<float>({1, 2, 10, 8}, {1.125, -1.5, 0.5625, 0.25, 0.8125, -1.25, 0.625, 0, -1.875, 0.375, -1.9375, -0.0625, -1.1875, 0.3125, -1.875, 0, 0, 2.25, -0.375, -0.375, 0.0625, 1.875, -0.3125, 0, -0.375, 0.5, 0.5, -1, -0.0625, 0.75, -0.375, 0, 0.625, -0.125, -0.5, 0.25, -0.5625, -0.1875, 1.125, 0, 0, -0.75, 0.125, 1.5, -0.25, -1.125, 0.1875, 0, 0.5625, -0.75, -0.375, 1, -0.125, -0.5, 0.25, 0, -0.9375, 0.1875, 0.125, -0.25, 0.875, 0.125, -0.75, 0, 0, 1.125, -0.1875, -1.5, 0.25, 0.75, -0.125, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1.875, -0.75, 1.1875, 0.125, 1.3125, -0.625, 1.25, 0, -1.125, 1.125, -1.3125, -0.1875, -0.6875, 0.9375, -1.25, 0, 0.75, -1.875, 0.25, 0.3125, 0.5625, -1.5625, 0.3125, 0, -0.625, 0.25, 0.75, -0.5, 0.0625, 0.375, -0.75, 0, 0.375, -0.375, -0.25, 0.75, -0.4375, -0.5625, 0.75, 0, -0.25, 0.625, 0.375, -1.25, -0.125, 0.9375, -0.1875, 0, 0.9375, -0.375, -0.5, 0.5, -0.375, -0.25, 0.5, 0, -0.5625, 0.5625, 0, -0.75, 0.625, 0.375, -0.5, 0, 0.375, -0.9375, -0.3125, 1.25, 0, -0.625, 0.125, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
  t.run();
}

// run('ConvTranspose', 22, X=pat([1, 1, 3, 4], 1), W=pat([1, 1, 3, 3], 2), strides=[2, 2], output_shape=[6, 7])
TEST(ConvTransposeOp, OutputShapeCrops) {
  OpTester t("ConvTranspose", 22);
  t.input("X", pat<float>({1, 1, 3, 4}, 1));
  t.constantInput("W", pat<float>({1, 1, 3, 3}, 2));
  t.attr("strides", std::vector<int64_t>{2, 2});
  t.attr("output_shape", std::vector<int64_t>{6, 7});
  t.expect("Y", Tensor::fromVector<float>({1, 1, 6, 7}, {0.625, -1.0625, -0.25, -0.375, 0.5, -0.5, -0.375, -2.4375, -0.5625, 1.5, 0, -1.875, -1.0625, 2.0625, 0.375, 0.0625, -0.5, 0.75, 0.25, 0.625, -0.625, -1.3125, -1.5625, 2.625, -1, -0.75, 1.1875, 0.75, 0.125, 1.1875, -0.75, 1.875, 0, -1.5, 0.75, -0.375, -0.375, 2.25, 0, 0, 0.375, -2.25}));
  t.run();
}

// run('ConvTranspose', 22, X=pat([1, 1, 3, 3], 1), W=pat([1, 2, 3, 3], 2), strides=[2, 2], auto_pad='SAME_UPPER')
TEST(ConvTransposeOp, AutoPadSameUpper) {
  OpTester t("ConvTranspose", 22);
  t.input("X", pat<float>({1, 1, 3, 3}, 1));
  t.constantInput("W", pat<float>({1, 2, 3, 3}, 2));
  t.attr("strides", std::vector<int64_t>{2, 2});
  t.attr("auto_pad", "SAME_UPPER");
  t.expect("Y", Tensor::fromVector<float>({1, 2, 6, 6}, {1.25, -0.9375, 0.4375, 0.375, 0.625, -0.75, -1.25, 0.625, -1.0625, -0.25, -0.375, 0.5, -0.4375, -1.3125, 0.0625, 0.1875, -0.1875, -0.75, 0.75, -0.375, 0.1875, 0.375, 0.0625, -0.5, 0.3125, 0.75, -0.6875, -0.1875, -0.9375, 1.3125, -0.5, 0.25, 0.625, -0.625, 1.3125, 0.125, 1.875, -0.3125, 0.8125, 0.125, 0.875, -0.25, -0.625, 1.25, -0.6875, -0.5, -0.125, 1, -0.1875, -1.0625, 0.4375, 0.3125, -0.0625, -0.75, 0.375, -0.75, 0.1875, 0.75, -0.0625, -1, 0.1875, 0.625, -1.0625, -0.4375, -1.5625, 0.9375, -0.25, 0.5, 0.25, -1.25, 0.8125, 0.25}));
  t.run();
}

// run('ConvTranspose', 22, X=pat([1, 1, 3, 3], 1), W=pat([1, 2, 3, 3], 2), strides=[2, 2], auto_pad='SAME_LOWER')
TEST(ConvTransposeOp, AutoPadSameLower) {
  OpTester t("ConvTranspose", 22);
  t.input("X", pat<float>({1, 1, 3, 3}, 1));
  t.constantInput("W", pat<float>({1, 2, 3, 3}, 2));
  t.attr("strides", std::vector<int64_t>{2, 2});
  t.attr("auto_pad", "SAME_LOWER");
  t.expect("Y", Tensor::fromVector<float>({1, 2, 6, 6}, {0.625, -1.0625, -0.25, -0.375, 0.5, -1.25, -1.3125, 0.0625, 0.1875, -0.1875, -0.75, -0.75, -0.375, 0.1875, 0.375, 0.0625, -0.5, 1.25, 0.75, -0.6875, -0.1875, -0.9375, 1.3125, 0.1875, 0.25, 0.625, -0.625, 1.3125, 0.125, -0.3125, -0.75, -0.3125, 1.875, 0.0625, -0.375, 0, 1.25, -0.6875, -0.5, -0.125, 1, -0.75, -1.0625, 0.4375, 0.3125, -0.0625, -0.75, -0.75, -0.75, 0.1875, 0.75, -0.0625, -1, 0.75, 0.625, -1.0625, -0.4375, -1.5625, 0.9375, -0.1875, 0.5, 0.25, -1.25, 0.8125, 0.25, -0.1875, -0.5, -0.6875, 1.25, -0.4375, -0.25, 0.125}));
  t.run();
}

// run('ConvTranspose', 22, X=pat([1, 1, 3, 3], 0), W=pat([1, 1, 2, 2], 1), dilations=[2, 2])
TEST(ConvTransposeOp, Dilations) {
  OpTester t("ConvTranspose", 22);
  t.input("X", pat<float>({1, 1, 3, 3}, 0));
  t.constantInput("W", pat<float>({1, 1, 2, 2}, 1));
  t.attr("dilations", std::vector<int64_t>{2, 2});
  t.expect("Y", Tensor::fromVector<float>({1, 1, 5, 5}, {1.875, -0.3125, 0.8125, 0.125, -0.625, -0.625, 1.25, -0.6875, -0.5, 0.375, 2.4375, -1.5, 0.375, 0.6875, -1.1875, -0.5, 1, -0.375, -0.75, 0.5625, 0.75, -1, -0.0625, 0.75, -0.375}));
  t.run();
}

// run('ConvTranspose', 22, X=pat([1, 4, 3, 3], 2), W=pat([4, 2, 2, 2], 1), B=pat([4], 3), group=2, strides=[2, 1])
TEST(ConvTransposeOp, Group2) {
  OpTester t("ConvTranspose", 22);
  t.input("X", pat<float>({1, 4, 3, 3}, 2));
  t.constantInput("W", pat<float>({4, 2, 2, 2}, 1));
  t.constantInput("B", pat<float>({4}, 3));
  t.attr("group", int64_t{2});
  t.attr("strides", std::vector<int64_t>{2, 1});
  t.expect("Y", Tensor::fromVector<float>({1, 4, 6, 4}, {0.875, -4.5, 1.25, -3, 0.25, 0, 0.1875, 0.5625, -2.125, 1.375, -4.25, 1, -1.75, -0.25, -0.875, -0.9375, -0.25, -4.125, 1.625, -1.5, -0.5, -1.3125, -1.125, 0, 1.375, 1.375, 1.6875, 1.8125, 0.75, 1, 1.4375, 1.3125, 0.375, 1.5, 1, 1.3125, 0.75, 1.5, 1.125, 1.8125, 1, 0.8125, 1.125, 1.625, 0.75, 1.1875, 1.625, 1.5, -0.6875, -0.3125, -0.875, -1.375, -0.1875, -0.0625, -0.5, -0.75, 0.25, -3.625, 1.5, -0.75, 0.125, -3.8125, 1.4375, -0.75, -3.6875, 1.1875, 0.625, -0.125, -3.625, 1.375, 0.125, -0.75, 2.0625, 1.9375, 1.625, 1.625, 2.5625, 2.1875, 2, 2.25, 1.75, -2.25, 3.125, 1, 1.625, -2.4375, 3.0625, 1, -1.8125, 3.3125, 1.375, 0.375, -1.75, 3.5, 0.875, -0.25}));
  t.run();
}

// run('ConvTranspose', 22, X=pat([2, 2, 2, 3], 2), W=pat([2, 2, 3, 2], 1), strides=[1, 2], pads=[1, 1, 0, 0])
TEST(ConvTransposeOp, NonConstWeights) {
  OpTester t("ConvTranspose", 22);
  t.input("X", pat<float>({2, 2, 2, 3}, 2));
  t.input("W", pat<float>({2, 2, 3, 2}, 1));
  t.attr("strides", std::vector<int64_t>{1, 2});
  t.attr("pads", std::vector<int64_t>{1, 1, 0, 0});
  t.expect("Y", Tensor::fromVector<float>({2, 2, 3, 5}, {1.875, 0.6875, -1.5, -1.125, 1.625, 1.4375, 1.1875, -1, -1.3125, 1.4375, 2.125, 0.5625, -0.6875, -1.875, 2.1875, 0.5625, 2.1875, 0, -1.6875, 1.0625, 3.375, 2.6875, -1.9375, -1.875, 3.3125, -1.5, 0.375, 0.75, -1.875, -1.875, -1.25, -0.75, 1.875, 0.6875, -1.5, -1, -1.1875, 1.4375, 1.1875, -1, -0.75, -1.875, 2.125, 0.5625, -0.6875, -0.5, -2.0625, 0.5625, 2.1875, 0, -1.875, -2.5, 3.375, 2.6875, -1.9375, 1.125, -2.25, -1.5, 0.375, 0.75}));
  t.run();
}

// run('ConvTranspose', 22, X=pat([1, 2, 4], 0), W=pat([2, 3, 3], 1), B=pat([3], 2), strides=[2], pads=[1, 0], output_padding=[1])
TEST(ConvTransposeOp, ConvTranspose1D) {
  OpTester t("ConvTranspose", 22);
  t.input("X", pat<float>({1, 2, 4}, 0));
  t.constantInput("W", pat<float>({2, 3, 3}, 1));
  t.constantInput("B", pat<float>({3}, 2));
  t.attr("strides", std::vector<int64_t>{2});
  t.attr("pads", std::vector<int64_t>{1, 0});
  t.attr("output_padding", std::vector<int64_t>{1});
  t.expect("Y", Tensor::fromVector<float>({1, 3, 9}, {-1.75, 2.8125, -0.875, -1.9375, -1.625, 2.25, -0.75, -3, -1, 3.125, -0.875, -0.375, 0.25, 2.625, -0.25, -0.875, 1.75, 0.75, -3.375, -0.5, 0.125, 0, -2.875, -1.125, 0.625, -1.625, -0.75}));
  t.run();
}

// run('ConvTranspose', 22, X=pat([1, 1, 2, 3, 2], 0), W=pat([1, 2, 2, 2, 3], 1), strides=[2, 1, 2], pads=[0, 1, 1, 0, 0, 1])
TEST(ConvTransposeOp, ConvTranspose3D) {
  OpTester t("ConvTranspose", 22);
  t.input("X", pat<float>({1, 1, 2, 3, 2}, 0));
  t.constantInput("W", pat<float>({1, 2, 2, 2, 3}, 1));
  t.attr("strides", std::vector<int64_t>{2, 1, 2});
  t.attr("pads", std::vector<int64_t>{0, 1, 1, 0, 0, 1});
  t.expect("Y", Tensor::fromVector<float>({1, 2, 4, 3, 3}, {0.5, -0.6875, 0.0625, 0.4375, -0.8125, 0, 0.75, -0.4375, -0.5625, -1.5625, 2.6875, 0.625, -1.25, 2.5, 0.9375, 0, 2.625, 0, 0.3125, -1.0625, -0.125, 0.25, -1.1875, -0.1875, 0.1875, 0.875, -1.125, -0.625, 2.125, 1.5625, -0.3125, 1.9375, 1.875, 0, 2.625, 0, 0.4375, 0.375, -0.4375, 0.3125, 0.125, -0.5625, -0.75, 0, 0.5625, -1.625, -1.125, 0.125, -1.375, -0.625, 0.375, -1.5, -0.1875, 1.125, 0.0625, -0.375, -0.8125, -0.0625, -0.625, -0.9375, -0.1875, -1.3125, 1.125, -0.875, 0.375, 0.875, -0.625, 0.875, 1.125, -0.375, -0.375, 2.25}));
  t.run();
}

// run('ConvTranspose', 1, X=pat([1, 1, 2, 2], 0), W=pat([1, 1, 2, 2], 2), strides=[2, 2])
TEST(ConvTransposeOp, Opset1) {
  OpTester t("ConvTranspose", 1);
  t.input("X", pat<float>({1, 1, 2, 2}, 0));
  t.constantInput("W", pat<float>({1, 1, 2, 2}, 2));
  t.attr("strides", std::vector<int64_t>{2, 2});
  t.expect("Y", Tensor::fromVector<float>({1, 1, 4, 4}, {1.5, -1.125, -0.25, 0.1875, 1.125, -1.5, -0.1875, 0.25, 1.25, -0.9375, -0.5, 0.375, 0.9375, -1.25, -0.375, 0.5}));
  t.run();
}

// run('ConvTranspose', 11, X=pat([1, 1, 3, 2], 3), W=pat([1, 2, 2, 2], 1), output_shape=[5, 4], strides=[2, 2])
TEST(ConvTransposeOp, Opset11) {
  OpTester t("ConvTranspose", 11);
  t.input("X", pat<float>({1, 1, 3, 2}, 3));
  t.constantInput("W", pat<float>({1, 2, 2, 2}, 1));
  t.attr("output_shape", std::vector<int64_t>{5, 4});
  t.attr("strides", std::vector<int64_t>{2, 2});
  t.expect("Y", Tensor::fromVector<float>({1, 2, 5, 4}, {0.75, -0.5625, -1, 0.75, 0.625, -0.25, -1.5625, 0.625, 0.5, -0.375, -1.25, 0.9375, 0.3125, -0.125, -1.875, 0.75, 0.25, -0.1875, -1.5, 1.125, 0.375, -0.9375, -0.5, 1.25, 0.375, -0.5, -0.9375, 1.25, 0.25, -0.625, -0.625, 1.5625, 0.1875, -0.25, -1.125, 1.5, 0.125, -0.3125, -0.75, 1.875}));
  t.run();
}

namespace {

// ---- naive references -------------------------------------------------------

// Deterministic values in [-1, 1) from a 32-bit LCG.
Tensor rnd(std::vector<int64_t> shape, uint32_t seed) {
  Tensor t(DataType::kFloat, std::move(shape));
  uint32_t s = seed * 2654435761u + 1;
  for (int64_t i = 0; i < t.numel(); ++i) {
    s = s * 1664525u + 1013904223u;
    t.data<float>()[i] = static_cast<float>((s >> 8) & 0xffff) / 32768.f - 1.f;
  }
  return t;
}

struct Params2d {
  int64_t group = 1;
  int64_t s[2] = {1, 1}, d[2] = {1, 1}, pads[4] = {0, 0, 0, 0}, outPad[2] = {0, 0};
};

// Conv by its definition, accumulated in double.
Tensor naiveConv2d(const Tensor& x, const Tensor& w, const Tensor* b, const Params2d& p) {
  const int64_t N = x.dim(0), C = x.dim(1), H = x.dim(2), W = x.dim(3);
  const int64_t M = w.dim(0), Cg = w.dim(1), KH = w.dim(2), KW = w.dim(3), Mg = M / p.group;
  const int64_t OH = (H + p.pads[0] + p.pads[2] - p.d[0] * (KH - 1) - 1) / p.s[0] + 1;
  const int64_t OW = (W + p.pads[1] + p.pads[3] - p.d[1] * (KW - 1) - 1) / p.s[1] + 1;
  Tensor y(DataType::kFloat, {N, M, OH, OW});
  const float* xd = x.data<float>();
  const float* wd = w.data<float>();
  for (int64_t n = 0; n < N; ++n)
    for (int64_t m = 0; m < M; ++m)
      for (int64_t oh = 0; oh < OH; ++oh)
        for (int64_t ow = 0; ow < OW; ++ow) {
          double acc = b ? b->data<float>()[m] : 0.0;
          const int64_t g = m / Mg;
          for (int64_t c = 0; c < Cg; ++c)
            for (int64_t kh = 0; kh < KH; ++kh)
              for (int64_t kw = 0; kw < KW; ++kw) {
                const int64_t ih = oh * p.s[0] - p.pads[0] + kh * p.d[0];
                const int64_t iw = ow * p.s[1] - p.pads[1] + kw * p.d[1];
                if (ih < 0 || ih >= H || iw < 0 || iw >= W) continue;
                acc += double(xd[((n * C + g * Cg + c) * H + ih) * W + iw]) *
                       wd[((m * Cg + c) * KH + kh) * KW + kw];
              }
          y.data<float>()[((n * M + m) * OH + oh) * OW + ow] = static_cast<float>(acc);
        }
  return y;
}

// ConvTranspose by its definition: every input pixel scatters x * w.
Tensor naiveConvTranspose2d(const Tensor& x, const Tensor& w, const Tensor* b, const Params2d& p) {
  const int64_t N = x.dim(0), C = x.dim(1), H = x.dim(2), W = x.dim(3);
  const int64_t Mg = w.dim(1), KH = w.dim(2), KW = w.dim(3), Cg = C / p.group, M = Mg * p.group;
  const int64_t OH = p.s[0] * (H - 1) + p.outPad[0] + p.d[0] * (KH - 1) + 1 - p.pads[0] - p.pads[2];
  const int64_t OW = p.s[1] * (W - 1) + p.outPad[1] + p.d[1] * (KW - 1) + 1 - p.pads[1] - p.pads[3];
  std::vector<double> acc(N * M * OH * OW, 0.0);
  for (int64_t n = 0; n < N; ++n)
    for (int64_t c = 0; c < C; ++c)
      for (int64_t ih = 0; ih < H; ++ih)
        for (int64_t iw = 0; iw < W; ++iw)
          for (int64_t mg = 0; mg < Mg; ++mg)
            for (int64_t kh = 0; kh < KH; ++kh)
              for (int64_t kw = 0; kw < KW; ++kw) {
                const int64_t oh = ih * p.s[0] - p.pads[0] + kh * p.d[0];
                const int64_t ow = iw * p.s[1] - p.pads[1] + kw * p.d[1];
                if (oh < 0 || oh >= OH || ow < 0 || ow >= OW) continue;
                const int64_t m = (c / Cg) * Mg + mg;
                acc[((n * M + m) * OH + oh) * OW + ow] += double(x.data<float>()[((n * C + c) * H + ih) * W + iw]) *
                                                          w.data<float>()[((c * Mg + mg) * KH + kh) * KW + kw];
              }
  Tensor y(DataType::kFloat, {N, M, OH, OW});
  for (int64_t i = 0; i < y.numel(); ++i)
    y.data<float>()[i] = static_cast<float>(acc[i] + (b ? b->data<float>()[(i / (OH * OW)) % M] : 0.0));
  return y;
}

void setConvAttrs(OpTester& t, const Params2d& p) {
  t.attr("group", p.group);
  t.attr("strides", std::vector<int64_t>{p.s[0], p.s[1]});
  t.attr("dilations", std::vector<int64_t>{p.d[0], p.d[1]});
  t.attr("pads", std::vector<int64_t>{p.pads[0], p.pads[1], p.pads[2], p.pads[3]});
}

// The kernels sum in float, the references in double, over up to a few
// hundred products of magnitude ~1: an absolute 1e-5 covers the rounding.
constexpr double kRtol = 1e-4, kAtol = 1e-5;

void checkConv(const std::vector<int64_t>& xs, const std::vector<int64_t>& ws, bool bias, const Params2d& p,
               bool constW = true) {
  Tensor x = rnd(xs, 1), w = rnd(ws, 2), b = rnd({ws[0]}, 3);
  OpTester t("Conv", 22);
  t.input("X", x).input("W", w, constW);
  if (bias) t.input("B", b, constW);
  setConvAttrs(t, p);
  t.expect("Y", naiveConv2d(x, w, bias ? &b : nullptr, p), kRtol, kAtol);
  t.run();
}

}  // namespace

TEST(ConvOp, NaiveGroup2Stride2Dilation2) {
  Params2d p;
  p.group = 2;
  p.s[0] = p.s[1] = 2;
  p.d[0] = p.d[1] = 2;
  p.pads[0] = 1, p.pads[1] = 2, p.pads[2] = 2, p.pads[3] = 1;
  checkConv({1, 8, 17, 17}, {6, 4, 3, 3}, true, p);
  checkConv({1, 8, 17, 17}, {6, 4, 3, 3}, false, p, /*constW=*/false);
}

TEST(ConvOp, NaiveIm2colManyTiles) {
  // 40x33 output positions: several column tiles per image, batch 2.
  Params2d p;
  p.pads[0] = p.pads[1] = p.pads[2] = p.pads[3] = 1;
  checkConv({2, 3, 40, 33}, {5, 3, 3, 3}, true, p);
  checkConv({2, 3, 40, 33}, {5, 3, 3, 3}, true, p, /*constW=*/false);
}

TEST(ConvOp, NaiveDepthwise) {
  Params2d p;
  p.group = 16;
  p.pads[0] = p.pads[1] = p.pads[2] = p.pads[3] = 1;
  checkConv({1, 16, 20, 21}, {16, 1, 3, 3}, true, p);
  p.s[0] = 2, p.d[1] = 2, p.pads[3] = 2;
  checkConv({2, 16, 20, 21}, {32, 1, 3, 3}, false, p);
  Params2d big;  // 5x5 window wider than the 4-wide input: every column is a border column
  big.group = 4;
  big.pads[0] = big.pads[1] = big.pads[2] = big.pads[3] = 2;
  checkConv({1, 4, 6, 4}, {4, 1, 5, 5}, true, big);
}

TEST(ConvOp, NaivePointwiseLargePlane) {
  checkConv({1, 16, 30, 30}, {8, 16, 1, 1}, true, Params2d{});
  Params2d g;
  g.group = 4;
  checkConv({3, 16, 9, 11}, {8, 4, 1, 1}, false, g);
}

TEST(ConvTransposeOp, NaiveGroupStridePadsOutputPadding) {
  Params2d p;
  p.group = 3;
  p.s[0] = 2, p.s[1] = 3;
  p.d[0] = 2;
  p.pads[0] = 1, p.pads[1] = 0, p.pads[2] = 2, p.pads[3] = 1;
  p.outPad[0] = 1, p.outPad[1] = 2;
  for (bool constW : {true, false}) {
    Tensor x = rnd({2, 6, 9, 8}, 4), w = rnd({6, 4, 3, 3}, 5), b = rnd({12}, 6);
    OpTester t("ConvTranspose", 22);
    t.input("X", x).input("W", w, constW).input("B", b, constW);
    setConvAttrs(t, p);
    t.attr("output_padding", std::vector<int64_t>{p.outPad[0], p.outPad[1]});
    t.expect("Y", naiveConvTranspose2d(x, w, &b, p), kRtol, kAtol);
    t.run();
  }
}

TEST(ConvTransposeOp, NaiveManyOutputChannels) {
  // 40 output channels over 2 threads: output-channel tiles, many input columns.
  Params2d p;
  p.s[0] = p.s[1] = 2;
  Tensor x = rnd({1, 5, 20, 20}, 7), w = rnd({5, 40, 4, 4}, 8);
  OpTester t("ConvTranspose", 22);
  t.input("X", x).constantInput("W", w);
  setConvAttrs(t, p);
  t.expect("Y", naiveConvTranspose2d(x, w, nullptr, p), kRtol, kAtol);
  t.run();
}

// ---- errors -------------------------------------------------------------------

TEST(ConvOp, ErrorChannelMismatch) {
  OpTester t("Conv", 22);
  t.input("X", pat<float>({1, 3, 5, 5}, 0)).constantInput("W", pat<float>({2, 2, 3, 3}, 1)).output("Y");
  t.expectError("input 0 ('X') [1,3,5,5] has 3 channels but input 1 ('W') [2,2,3,3] with group 1 expects 2");
}

TEST(ConvOp, ErrorGroupChannelMismatch) {
  OpTester t("Conv", 22);
  t.input("X", pat<float>({1, 4, 5, 5}, 0)).input("W", pat<float>({4, 4, 3, 3}, 1)).attr("group", 2).output("Y");
  t.expectError("node 'Conv_under_test' (Conv): input 0 ('X') [1,4,5,5] has 4 channels but input 1 ('W') [4,4,3,3] "
                "with group 2 expects 8");
}

TEST(ConvOp, ErrorBadKernelShape) {
  OpTester t("Conv", 22);
  t.input("X", pat<float>({1, 1, 5, 5}, 0)).constantInput("W", pat<float>({1, 1, 3, 3}, 1));
  t.attr("kernel_shape", std::vector<int64_t>{2, 2}).output("Y");
  t.expectError("attribute 'kernel_shape' [2,2] disagrees with input 1 ('W') [1,1,3,3]");
}

TEST(ConvOp, ErrorKernelShapeLength) {
  OpTester t("Conv", 22);
  t.input("X", pat<float>({1, 1, 5, 5}, 0)).constantInput("W", pat<float>({1, 1, 3, 3}, 1));
  t.attr("kernel_shape", std::vector<int64_t>{3}).output("Y");
  t.expectError("attribute 'kernel_shape' [3] has 1 values, expected 2");
}

TEST(ConvOp, ErrorRankMismatch) {
  OpTester t("Conv", 22);
  t.input("X", pat<float>({1, 1, 5, 5}, 0)).constantInput("W", pat<float>({1, 1, 3}, 1)).output("Y");
  t.expectError("input 1 ('W') has shape [1,1,3] of rank 3, expected rank 4 like input 0 ('X') [1,1,5,5]");
}

TEST(ConvOp, ErrorKernelLargerThanInput) {
  OpTester t("Conv", 22);
  t.input("X", pat<float>({1, 1, 2, 5}, 0)).constantInput("W", pat<float>({1, 1, 3, 3}, 1)).output("Y");
  t.expectError("spatial dim 0: input size 2 with padding is smaller than the kernel extent 3");
}

TEST(ConvOp, ErrorBiasShape) {
  OpTester t("Conv", 22);
  t.input("X", pat<float>({1, 1, 5, 5}, 0)).constantInput("W", pat<float>({2, 1, 3, 3}, 1));
  t.constantInput("B", pat<float>({3}, 1)).output("Y");
  t.expectError("input 2 ('B') has shape [3], expected [M] with M = 2");
}

TEST(ConvTransposeOp, ErrorChannelMismatch) {
  OpTester t("ConvTranspose", 22);
  t.input("X", pat<float>({1, 3, 4, 4}, 0)).constantInput("W", pat<float>({2, 1, 3, 3}, 1)).output("Y");
  t.expectError("input 0 ('X') [1,3,4,4] has 3 channels but input 1 ('W') [2,1,3,3] expects 2");
}

// ---- shape inference with symbolic dims ------------------------------------------

namespace {

Shape inferShape(const std::string& op, int64_t opset, Node node, const std::vector<ValueInfo>& ins,
                 size_t output = 0) {
  node.opType = op;
  node.name = op + "_sym";
  for (size_t i = 0; i < ins.size(); ++i) node.inputs.push_back(ins[i].name);
  node.outputs = {"Y", "I"};
  const OpDef* def = builtinRegistry().find("", op, opset);
  EXPECT_NE(def, nullptr);
  shape::SymbolGenerator symbols;
  shape::InferContext ctx(node, opset, symbols);
  for (const ValueInfo& v : ins) {
    ctx.inputs_.push_back(&v);
    ctx.values_.push_back(nullptr);
    ctx.symValues_.push_back(nullptr);
  }
  ctx.outputs_.resize(2);
  ctx.outputSet_.assign(2, false);
  ctx.outputValues_.resize(2);
  ctx.outputSymValues_.resize(2);
  def->shape(ctx);
  EXPECT_TRUE(ctx.outputSet_[output]);
  return ctx.outputs_[output].shape;
}

ValueInfo vinfo(const std::string& name, Shape s) {
  ValueInfo v;
  v.name = name;
  v.dtype = DataType::kFloat;
  v.hasShape = true;
  v.shape = std::move(s);
  return v;
}

Node withInts(std::vector<std::pair<std::string, std::vector<int64_t>>> attrs) {
  Node n;
  for (auto& [k, v] : attrs) {
    Attribute a;
    a.name = k;
    a.type = AttrType::kInts;
    a.ints = v;
    n.attributes.push_back(a);
  }
  return n;
}

}  // namespace

TEST(ConvShape, SymbolicBatchAndSpatial) {
  const Dim N = Dim::sym("batch"), H = Dim::sym("h");
  // Same-size 3x3 conv keeps both spatial symbols, and N and M.
  Shape s = inferShape("Conv", 22, withInts({{"pads", {1, 1, 1, 1}}}),
                       {vinfo("X", {N, 3, H, 32}), vinfo("W", {8, 3, 3, 3})});
  EXPECT_EQ(shapeToString(s), "[batch,8,h,32]");
  // Stride 2 on a symbol: a fresh symbol, the static dim exact.
  s = inferShape("Conv", 22, withInts({{"strides", {2, 2}}}), {vinfo("X", {N, 3, H, 32}), vinfo("W", {8, 3, 3, 3})});
  ASSERT_EQ(s.size(), 4u);
  EXPECT_EQ(s[0], N);
  EXPECT_EQ(s[1], Dim(8));
  EXPECT_FALSE(s[2].isStatic());
  EXPECT_NE(s[2], H);
  EXPECT_EQ(s[3], Dim(15));
  // Unknown output channels stay W's symbol.
  s = inferShape("Conv", 22, Node{}, {vinfo("X", {N, 3, 7}), vinfo("W", {Dim::sym("m"), 3, 1})});
  EXPECT_EQ(shapeToString(s), "[batch,m,7]");
}

TEST(ConvShape, TransposeSymbolic) {
  const Dim N = Dim::sym("n");
  Shape s = inferShape("ConvTranspose", 22, withInts({{"strides", {2, 2}}}),
                       {vinfo("X", {N, 4, Dim::sym("h"), 5}), vinfo("W", {4, 3, 3, 3})});
  ASSERT_EQ(s.size(), 4u);
  EXPECT_EQ(s[0], N);
  EXPECT_EQ(s[1], Dim(3));
  EXPECT_FALSE(s[2].isStatic());
  EXPECT_EQ(s[3], Dim(11));
  s = inferShape("ConvTranspose", 22, withInts({{"output_shape", {9, 10}}, {"strides", {2, 2}}}),
                 {vinfo("X", {N, 4, Dim::sym("h"), 5}), vinfo("W", {4, 3, 3, 3})});
  EXPECT_EQ(shapeToString(s), "[n,3,9,10]");
}

}  // namespace oinfer::testing
