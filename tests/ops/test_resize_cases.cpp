// Resize / Upsample against onnxruntime (the project's numeric reference),
// or onnx.reference.ReferenceEvaluator where onnxruntime lacks the case
// (5-d cubic). Generated with, per test:
//   node = onnx.helper.make_node(op, inputs, ["Y"], **attrs); one-node model at `opset`
//   y = onnxruntime.InferenceSession(model).run(None, feeds)[0]
// where the inputs are small np.arange / np.random.default_rng(42) arrays
// pasted below as literals. scales / sizes / roi are constants.
//
// Where onnxruntime and the ONNX reference disagree, the expected values are
// the reference's: with scales, align_corners / pytorch_half_pixel /
// tf_crop_and_resize use length_resized = scale * input (fractional, as the
// spec's scale = length_resized / length_original and the ONNX backend test
// data have it), where onnxruntime 1.32 uses the integer output length. Those
// tests say ReferenceEvaluator instead of onnxruntime (see
// src/ops/cpu/resize.cpp, sourceCoord).
#include <gtest/gtest.h>

#include "op_tester.h"

namespace oinfer::testing {
namespace {

TEST(Resize, NearestHalfPixelRoundPreferFloor) {
  // onnxruntime('Resize', 19, inputs below, {'mode': 'nearest', 'coordinate_transformation_mode': 'half_pixel', 'nearest_mode': 'round_prefer_floor'})
  OpTester t("Resize", 19);
  t.attr("mode", "nearest").attr("coordinate_transformation_mode", "half_pixel").attr("nearest_mode", "round_prefer_floor")
      .input("X", Tensor::fromVector<float>({1, 1, 3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 1.70000005, 0.600000024}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 5, 2}, {0, 2, 0, 2, 4, 6, 8, 10, 8, 10}));
  t.run();
}

TEST(Resize, NearestHalfPixelRoundPreferCeil) {
  // onnxruntime('Resize', 19, inputs below, {'mode': 'nearest', 'coordinate_transformation_mode': 'half_pixel', 'nearest_mode': 'round_prefer_ceil'})
  OpTester t("Resize", 19);
  t.attr("mode", "nearest").attr("coordinate_transformation_mode", "half_pixel").attr("nearest_mode", "round_prefer_ceil")
      .input("X", Tensor::fromVector<float>({1, 1, 3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 1.70000005, 0.600000024}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 5, 2}, {0, 2, 0, 2, 4, 6, 8, 10, 8, 10}));
  t.run();
}

TEST(Resize, NearestHalfPixelFloor) {
  // onnxruntime('Resize', 19, inputs below, {'mode': 'nearest', 'coordinate_transformation_mode': 'half_pixel', 'nearest_mode': 'floor'})
  OpTester t("Resize", 19);
  t.attr("mode", "nearest").attr("coordinate_transformation_mode", "half_pixel").attr("nearest_mode", "floor")
      .input("X", Tensor::fromVector<float>({1, 1, 3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 1.70000005, 0.600000024}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 5, 2}, {0, 2, 0, 2, 0, 2, 4, 6, 8, 10}));
  t.run();
}

TEST(Resize, NearestHalfPixelCeil) {
  // onnxruntime('Resize', 19, inputs below, {'mode': 'nearest', 'coordinate_transformation_mode': 'half_pixel', 'nearest_mode': 'ceil'})
  OpTester t("Resize", 19);
  t.attr("mode", "nearest").attr("coordinate_transformation_mode", "half_pixel").attr("nearest_mode", "ceil")
      .input("X", Tensor::fromVector<float>({1, 1, 3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 1.70000005, 0.600000024}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 5, 2}, {1, 2, 5, 6, 5, 6, 9, 10, 9, 10}));
  t.run();
}

TEST(Resize, NearestHalfPixelSymmetricRoundPreferFloor) {
  // onnxruntime('Resize', 19, inputs below, {'mode': 'nearest', 'coordinate_transformation_mode': 'half_pixel_symmetric', 'nearest_mode': 'round_prefer_floor'})
  OpTester t("Resize", 19);
  t.attr("mode", "nearest").attr("coordinate_transformation_mode", "half_pixel_symmetric").attr("nearest_mode", "round_prefer_floor")
      .input("X", Tensor::fromVector<float>({1, 1, 3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 1.70000005, 0.600000024}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 5, 2}, {1, 2, 1, 2, 5, 6, 9, 10, 9, 10}));
  t.run();
}

TEST(Resize, NearestHalfPixelSymmetricRoundPreferCeil) {
  // onnxruntime('Resize', 19, inputs below, {'mode': 'nearest', 'coordinate_transformation_mode': 'half_pixel_symmetric', 'nearest_mode': 'round_prefer_ceil'})
  OpTester t("Resize", 19);
  t.attr("mode", "nearest").attr("coordinate_transformation_mode", "half_pixel_symmetric").attr("nearest_mode", "round_prefer_ceil")
      .input("X", Tensor::fromVector<float>({1, 1, 3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 1.70000005, 0.600000024}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 5, 2}, {1, 2, 1, 2, 5, 6, 9, 10, 9, 10}));
  t.run();
}

TEST(Resize, NearestHalfPixelSymmetricFloor) {
  // onnxruntime('Resize', 19, inputs below, {'mode': 'nearest', 'coordinate_transformation_mode': 'half_pixel_symmetric', 'nearest_mode': 'floor'})
  OpTester t("Resize", 19);
  t.attr("mode", "nearest").attr("coordinate_transformation_mode", "half_pixel_symmetric").attr("nearest_mode", "floor")
      .input("X", Tensor::fromVector<float>({1, 1, 3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 1.70000005, 0.600000024}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 5, 2}, {0, 2, 0, 2, 4, 6, 4, 6, 8, 10}));
  t.run();
}

TEST(Resize, NearestHalfPixelSymmetricCeil) {
  // onnxruntime('Resize', 19, inputs below, {'mode': 'nearest', 'coordinate_transformation_mode': 'half_pixel_symmetric', 'nearest_mode': 'ceil'})
  OpTester t("Resize", 19);
  t.attr("mode", "nearest").attr("coordinate_transformation_mode", "half_pixel_symmetric").attr("nearest_mode", "ceil")
      .input("X", Tensor::fromVector<float>({1, 1, 3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 1.70000005, 0.600000024}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 5, 2}, {1, 3, 5, 7, 5, 7, 9, 11, 9, 11}));
  t.run();
}

TEST(Resize, NearestPytorchHalfPixelRoundPreferFloor) {
  // onnxruntime('Resize', 19, inputs below, {'mode': 'nearest', 'coordinate_transformation_mode': 'pytorch_half_pixel', 'nearest_mode': 'round_prefer_floor'})
  OpTester t("Resize", 19);
  t.attr("mode", "nearest").attr("coordinate_transformation_mode", "pytorch_half_pixel").attr("nearest_mode", "round_prefer_floor")
      .input("X", Tensor::fromVector<float>({1, 1, 3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 1.70000005, 0.600000024}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 5, 2}, {0, 2, 0, 2, 4, 6, 8, 10, 8, 10}));
  t.run();
}

TEST(Resize, NearestPytorchHalfPixelRoundPreferCeil) {
  // onnxruntime('Resize', 19, inputs below, {'mode': 'nearest', 'coordinate_transformation_mode': 'pytorch_half_pixel', 'nearest_mode': 'round_prefer_ceil'})
  OpTester t("Resize", 19);
  t.attr("mode", "nearest").attr("coordinate_transformation_mode", "pytorch_half_pixel").attr("nearest_mode", "round_prefer_ceil")
      .input("X", Tensor::fromVector<float>({1, 1, 3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 1.70000005, 0.600000024}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 5, 2}, {0, 2, 0, 2, 4, 6, 8, 10, 8, 10}));
  t.run();
}

TEST(Resize, NearestPytorchHalfPixelFloor) {
  // onnxruntime('Resize', 19, inputs below, {'mode': 'nearest', 'coordinate_transformation_mode': 'pytorch_half_pixel', 'nearest_mode': 'floor'})
  OpTester t("Resize", 19);
  t.attr("mode", "nearest").attr("coordinate_transformation_mode", "pytorch_half_pixel").attr("nearest_mode", "floor")
      .input("X", Tensor::fromVector<float>({1, 1, 3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 1.70000005, 0.600000024}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 5, 2}, {0, 2, 0, 2, 0, 2, 4, 6, 8, 10}));
  t.run();
}

TEST(Resize, NearestPytorchHalfPixelCeil) {
  // onnxruntime('Resize', 19, inputs below, {'mode': 'nearest', 'coordinate_transformation_mode': 'pytorch_half_pixel', 'nearest_mode': 'ceil'})
  OpTester t("Resize", 19);
  t.attr("mode", "nearest").attr("coordinate_transformation_mode", "pytorch_half_pixel").attr("nearest_mode", "ceil")
      .input("X", Tensor::fromVector<float>({1, 1, 3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 1.70000005, 0.600000024}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 5, 2}, {1, 2, 5, 6, 5, 6, 9, 10, 9, 10}));
  t.run();
}

TEST(Resize, NearestAlignCornersRoundPreferFloor) {
  // ReferenceEvaluator('Resize', 19, inputs below, {'mode': 'nearest', 'coordinate_transformation_mode': 'align_corners', 'nearest_mode': 'round_prefer_floor'})
  // (onnxruntime 1.32 differs here: it uses the integer output length as length_resized; see the top of this file)
  OpTester t("Resize", 19);
  t.attr("mode", "nearest").attr("coordinate_transformation_mode", "align_corners").attr("nearest_mode", "round_prefer_floor")
      .input("X", Tensor::fromVector<float>({1, 1, 3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 1.70000005, 0.600000024}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 5, 2}, {0, 2, 0, 2, 4, 6, 4, 6, 8, 10}));
  t.run();
}

TEST(Resize, NearestAlignCornersRoundPreferCeil) {
  // ReferenceEvaluator('Resize', 19, inputs below, {'mode': 'nearest', 'coordinate_transformation_mode': 'align_corners', 'nearest_mode': 'round_prefer_ceil'})
  // (onnxruntime 1.32 differs here: it uses the integer output length as length_resized; see the top of this file)
  OpTester t("Resize", 19);
  t.attr("mode", "nearest").attr("coordinate_transformation_mode", "align_corners").attr("nearest_mode", "round_prefer_ceil")
      .input("X", Tensor::fromVector<float>({1, 1, 3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 1.70000005, 0.600000024}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 5, 2}, {0, 2, 0, 2, 4, 6, 4, 6, 8, 10}));
  t.run();
}

TEST(Resize, NearestAlignCornersFloor) {
  // ReferenceEvaluator('Resize', 19, inputs below, {'mode': 'nearest', 'coordinate_transformation_mode': 'align_corners', 'nearest_mode': 'floor'})
  // (onnxruntime 1.32 differs here: it uses the integer output length as length_resized; see the top of this file)
  OpTester t("Resize", 19);
  t.attr("mode", "nearest").attr("coordinate_transformation_mode", "align_corners").attr("nearest_mode", "floor")
      .input("X", Tensor::fromVector<float>({1, 1, 3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 1.70000005, 0.600000024}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 5, 2}, {0, 2, 0, 2, 0, 2, 4, 6, 4, 6}));
  t.run();
}

TEST(Resize, NearestAlignCornersCeil) {
  // onnxruntime('Resize', 19, inputs below, {'mode': 'nearest', 'coordinate_transformation_mode': 'align_corners', 'nearest_mode': 'ceil'})
  OpTester t("Resize", 19);
  t.attr("mode", "nearest").attr("coordinate_transformation_mode", "align_corners").attr("nearest_mode", "ceil")
      .input("X", Tensor::fromVector<float>({1, 1, 3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 1.70000005, 0.600000024}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 5, 2}, {0, 3, 4, 7, 4, 7, 8, 11, 8, 11}));
  t.run();
}

TEST(Resize, NearestAsymmetricRoundPreferFloor) {
  // onnxruntime('Resize', 19, inputs below, {'mode': 'nearest', 'coordinate_transformation_mode': 'asymmetric', 'nearest_mode': 'round_prefer_floor'})
  OpTester t("Resize", 19);
  t.attr("mode", "nearest").attr("coordinate_transformation_mode", "asymmetric").attr("nearest_mode", "round_prefer_floor")
      .input("X", Tensor::fromVector<float>({1, 1, 3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 1.70000005, 0.600000024}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 5, 2}, {0, 2, 4, 6, 4, 6, 8, 10, 8, 10}));
  t.run();
}

TEST(Resize, NearestAsymmetricRoundPreferCeil) {
  // onnxruntime('Resize', 19, inputs below, {'mode': 'nearest', 'coordinate_transformation_mode': 'asymmetric', 'nearest_mode': 'round_prefer_ceil'})
  OpTester t("Resize", 19);
  t.attr("mode", "nearest").attr("coordinate_transformation_mode", "asymmetric").attr("nearest_mode", "round_prefer_ceil")
      .input("X", Tensor::fromVector<float>({1, 1, 3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 1.70000005, 0.600000024}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 5, 2}, {0, 2, 4, 6, 4, 6, 8, 10, 8, 10}));
  t.run();
}

TEST(Resize, NearestAsymmetricFloor) {
  // onnxruntime('Resize', 19, inputs below, {'mode': 'nearest', 'coordinate_transformation_mode': 'asymmetric', 'nearest_mode': 'floor'})
  OpTester t("Resize", 19);
  t.attr("mode", "nearest").attr("coordinate_transformation_mode", "asymmetric").attr("nearest_mode", "floor")
      .input("X", Tensor::fromVector<float>({1, 1, 3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 1.70000005, 0.600000024}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 5, 2}, {0, 1, 0, 1, 4, 5, 4, 5, 8, 9}));
  t.run();
}

TEST(Resize, NearestAsymmetricCeil) {
  // onnxruntime('Resize', 19, inputs below, {'mode': 'nearest', 'coordinate_transformation_mode': 'asymmetric', 'nearest_mode': 'ceil'})
  OpTester t("Resize", 19);
  t.attr("mode", "nearest").attr("coordinate_transformation_mode", "asymmetric").attr("nearest_mode", "ceil")
      .input("X", Tensor::fromVector<float>({1, 1, 3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 1.70000005, 0.600000024}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 5, 2}, {0, 2, 4, 6, 8, 10, 8, 10, 8, 10}));
  t.run();
}

TEST(Resize, LinearHalfPixel) {
  // onnxruntime('Resize', 19, inputs below, {'mode': 'linear', 'coordinate_transformation_mode': 'half_pixel'})
  OpTester t("Resize", 19);
  t.attr("mode", "linear").attr("coordinate_transformation_mode", "half_pixel")
      .input("X", Tensor::fromVector<float>({1, 1, 3, 4}, {0.304717094, -1.03998411, 0.750451207, 0.940564692, -1.95103514, -1.30217946, 0.1278404, -0.316242605, -0.016801158, -0.853043914, 0.879397988, 0.777791917}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 2.5, 0.75}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 7, 3}, {0.0806001872, -0.14476645, 0.908879101, -0.111749135, -0.189006791, 0.793768287, -0.881146193, -0.365967989, 0.333325207, -1.65054321, -0.542929173, -0.127117932, -1.33687747, -0.40706557, 0.0688577294, -0.662190139, -0.16692692, 0.483639807, -0.156174973, 0.0131770372, 0.794726253}));
  t.run();
}

TEST(Resize, CubicHalfPixel) {
  // onnxruntime('Resize', 19, inputs below, {'mode': 'cubic', 'coordinate_transformation_mode': 'half_pixel'})
  OpTester t("Resize", 19);
  t.attr("mode", "cubic").attr("coordinate_transformation_mode", "half_pixel")
      .input("X", Tensor::fromVector<float>({1, 1, 3, 4}, {0.304717094, -1.03998411, 0.750451207, 0.940564692, -1.95103514, -1.30217946, 0.1278404, -0.316242605, -0.016801158, -0.853043914, 0.879397988, 0.777791917}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 2.5, 0.75}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 7, 3}, {0.297106147, -0.267040849, 1.07358205, -0.0919359177, -0.307627469, 0.841167927, -1.06190848, -0.426900744, 0.259891182, -1.82597971, -0.494692802, -0.195369378, -1.62048185, -0.386627078, -0.0639124811, -0.738385141, -0.184652701, 0.47408542, -0.0626575202, -0.0296328291, 0.886246979}));
  t.run();
}

TEST(Resize, CubicExcludeOutsideA05HalfPixel) {
  // onnxruntime('Resize', 19, inputs below, {'mode': 'cubic', 'coordinate_transformation_mode': 'half_pixel', 'exclude_outside': 1, 'cubic_coeff_a': -0.5})
  OpTester t("Resize", 19);
  t.attr("mode", "cubic").attr("coordinate_transformation_mode", "half_pixel").attr("exclude_outside", int64_t{1}).attr("cubic_coeff_a", -0.5f)
      .input("X", Tensor::fromVector<float>({1, 1, 3, 4}, {0.304717094, -1.03998411, 0.750451207, 0.940564692, -1.95103514, -1.30217946, 0.1278404, -0.316242605, -0.016801158, -0.853043914, 0.879397988, 0.777791917}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 2.5, 0.75}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 7, 3}, {0.332706869, -0.21313794, 1.05625939, -5.33463899e-05, -0.259904623, 0.860836029, -0.924450934, -0.400190681, 0.316928923, -1.82580125, -0.519491613, -0.21168527, -1.54263544, -0.402246952, -0.0377172381, -0.613784373, -0.157732666, 0.519066215, -0.054670468, -0.0117036253, 0.854103029}));
  t.run();
}

TEST(Resize, LinearHalfPixelSymmetric) {
  // onnxruntime('Resize', 19, inputs below, {'mode': 'linear', 'coordinate_transformation_mode': 'half_pixel_symmetric'})
  OpTester t("Resize", 19);
  t.attr("mode", "linear").attr("coordinate_transformation_mode", "half_pixel_symmetric")
      .input("X", Tensor::fromVector<float>({1, 1, 3, 4}, {0.304717094, -1.03998411, 0.750451207, 0.940564692, -1.95103514, -1.30217946, 0.1278404, -0.316242605, -0.016801158, -0.853043914, 0.879397988, 0.777791917}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 2.5, 0.75}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 7, 3}, {0.0806002021, -0.14476645, 0.908879101, -0.304098338, -0.233247072, 0.678657591, -1.07349539, -0.410208285, 0.218214363, -1.84289253, -0.587169528, -0.242228732, -1.1682055, -0.347030878, 0.172553241, -0.493518591, -0.106892318, 0.587335229, -0.156174958, 0.0131770372, 0.794726253}));
  t.run();
}

TEST(Resize, CubicHalfPixelSymmetric) {
  // onnxruntime('Resize', 19, inputs below, {'mode': 'cubic', 'coordinate_transformation_mode': 'half_pixel_symmetric'})
  OpTester t("Resize", 19);
  t.attr("mode", "cubic").attr("coordinate_transformation_mode", "half_pixel_symmetric")
      .input("X", Tensor::fromVector<float>({1, 1, 3, 4}, {0.304717094, -1.03998411, 0.750451207, 0.940564692, -1.95103514, -1.30217946, 0.1278404, -0.316242605, -0.016801158, -0.853043914, 0.879397988, 0.777791917}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 2.5, 0.75}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 7, 3}, {0.269128621, -0.269834638, 1.05688059, -0.306091815, -0.333456725, 0.712881088, -1.30625784, -0.45497179, 0.113657288, -1.88273907, -0.484706491, -0.227681726, -1.42903674, -0.339423567, 0.0531887822, -0.516004324, -0.135906532, 0.609499276, -0.00217329618, -0.0145101259, 0.923264682}));
  t.run();
}

TEST(Resize, CubicExcludeOutsideA05HalfPixelSymmetric) {
  // onnxruntime('Resize', 19, inputs below, {'mode': 'cubic', 'coordinate_transformation_mode': 'half_pixel_symmetric', 'exclude_outside': 1, 'cubic_coeff_a': -0.5})
  OpTester t("Resize", 19);
  t.attr("mode", "cubic").attr("coordinate_transformation_mode", "half_pixel_symmetric").attr("exclude_outside", int64_t{1}).attr("cubic_coeff_a", -0.5f)
      .input("X", Tensor::fromVector<float>({1, 1, 3, 4}, {0.304717094, -1.03998411, 0.750451207, 0.940564692, -1.95103514, -1.30217946, 0.1278404, -0.316242605, -0.016801158, -0.853043914, 0.879397988, 0.777791917}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 2.5, 0.75}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 7, 3}, {0.284948707, -0.219698459, 1.02822685, -0.183656707, -0.287740916, 0.752808094, -1.19463718, -0.439717233, 0.158100039, -1.89285088, -0.518860877, -0.250066429, -1.3191241, -0.341295958, 0.0964720845, -0.413065344, -0.106366917, 0.639238, 0.00206886232, 0.00395086035, 0.888185561}));
  t.run();
}

TEST(Resize, LinearPytorchHalfPixel) {
  // onnxruntime('Resize', 19, inputs below, {'mode': 'linear', 'coordinate_transformation_mode': 'pytorch_half_pixel'})
  OpTester t("Resize", 19);
  t.attr("mode", "linear").attr("coordinate_transformation_mode", "pytorch_half_pixel")
      .input("X", Tensor::fromVector<float>({1, 1, 3, 4}, {0.304717094, -1.03998411, 0.750451207, 0.940564692, -1.95103514, -1.30217946, 0.1278404, -0.316242605, -0.016801158, -0.853043914, 0.879397988, 0.777791917}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 2.5, 0.75}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 7, 3}, {0.0806001872, -0.14476645, 0.908879101, -0.111749135, -0.189006791, 0.793768287, -0.881146193, -0.365967989, 0.333325207, -1.65054321, -0.542929173, -0.127117932, -1.33687747, -0.40706557, 0.0688577294, -0.662190139, -0.16692692, 0.483639807, -0.156174973, 0.0131770372, 0.794726253}));
  t.run();
}

TEST(Resize, CubicPytorchHalfPixel) {
  // onnxruntime('Resize', 19, inputs below, {'mode': 'cubic', 'coordinate_transformation_mode': 'pytorch_half_pixel'})
  OpTester t("Resize", 19);
  t.attr("mode", "cubic").attr("coordinate_transformation_mode", "pytorch_half_pixel")
      .input("X", Tensor::fromVector<float>({1, 1, 3, 4}, {0.304717094, -1.03998411, 0.750451207, 0.940564692, -1.95103514, -1.30217946, 0.1278404, -0.316242605, -0.016801158, -0.853043914, 0.879397988, 0.777791917}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 2.5, 0.75}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 7, 3}, {0.297106147, -0.267040849, 1.07358205, -0.0919359177, -0.307627469, 0.841167927, -1.06190848, -0.426900744, 0.259891182, -1.82597971, -0.494692802, -0.195369378, -1.62048185, -0.386627078, -0.0639124811, -0.738385141, -0.184652701, 0.47408542, -0.0626575202, -0.0296328291, 0.886246979}));
  t.run();
}

TEST(Resize, CubicExcludeOutsideA05PytorchHalfPixel) {
  // onnxruntime('Resize', 19, inputs below, {'mode': 'cubic', 'coordinate_transformation_mode': 'pytorch_half_pixel', 'exclude_outside': 1, 'cubic_coeff_a': -0.5})
  OpTester t("Resize", 19);
  t.attr("mode", "cubic").attr("coordinate_transformation_mode", "pytorch_half_pixel").attr("exclude_outside", int64_t{1}).attr("cubic_coeff_a", -0.5f)
      .input("X", Tensor::fromVector<float>({1, 1, 3, 4}, {0.304717094, -1.03998411, 0.750451207, 0.940564692, -1.95103514, -1.30217946, 0.1278404, -0.316242605, -0.016801158, -0.853043914, 0.879397988, 0.777791917}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 2.5, 0.75}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 7, 3}, {0.332706869, -0.21313794, 1.05625939, -5.33463899e-05, -0.259904623, 0.860836029, -0.924450934, -0.400190681, 0.316928923, -1.82580125, -0.519491613, -0.21168527, -1.54263544, -0.402246952, -0.0377172381, -0.613784373, -0.157732666, 0.519066215, -0.054670468, -0.0117036253, 0.854103029}));
  t.run();
}

TEST(Resize, LinearAlignCorners) {
  // ReferenceEvaluator('Resize', 19, inputs below, {'mode': 'linear', 'coordinate_transformation_mode': 'align_corners'})
  // (onnxruntime 1.32 differs here: it uses the integer output length as length_resized; see the top of this file)
  OpTester t("Resize", 19);
  t.attr("mode", "linear").attr("coordinate_transformation_mode", "align_corners")
      .input("X", Tensor::fromVector<float>({1, 1, 3, 4}, {0.304717094, -1.03998411, 0.750451207, 0.940564692, -1.95103514, -1.30217946, 0.1278404, -0.316242605, -0.016801158, -0.853043914, 0.879397988, 0.777791917}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 2.5, 0.75}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 7, 3}, {0.304717094, -0.14476645, 0.940564692, -0.389360517, -0.280890465, 0.553854764, -1.08343816, -0.417014509, 0.16714482, -1.77751577, -0.553138494, -0.219565123, -1.50467348, -0.448628008, -0.0637731031, -0.90952456, -0.263906002, 0.272852898, -0.314375609, -0.0791839734, 0.609478891}));
  t.run();
}

TEST(Resize, CubicAlignCorners) {
  // ReferenceEvaluator('Resize', 19, inputs below, {'mode': 'cubic', 'coordinate_transformation_mode': 'align_corners'})
  // (onnxruntime 1.32 differs here: it uses the integer output length as length_resized; see the top of this file)
  OpTester t("Resize", 19);
  t.attr("mode", "cubic").attr("coordinate_transformation_mode", "align_corners")
      .input("X", Tensor::fromVector<float>({1, 1, 3, 4}, {0.304717094, -1.03998411, 0.750451207, 0.940564692, -1.95103514, -1.30217946, 0.1278404, -0.316242605, -0.016801158, -0.853043914, 0.879397988, 0.777791917}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 2.5, 0.75}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 7, 3}, {0.304717094, -0.288655341, 0.940564692, -0.438239962, -0.366052449, 0.525816381, -1.32553589, -0.458844393, 0.0304705184, -1.90648139, -0.493659616, -0.292223901, -1.78191149, -0.416033685, -0.218628824, -1.0943346, -0.268515557, 0.169962853, -0.3046785, -0.114975631, 0.615250051}));
  t.run();
}

TEST(Resize, CubicExcludeOutsideA05AlignCorners) {
  // ReferenceEvaluator('Resize', 19, inputs below, {'mode': 'cubic', 'coordinate_transformation_mode': 'align_corners', 'exclude_outside': 1, 'cubic_coeff_a': -0.5})
  // (onnxruntime 1.32 differs here: it uses the integer output length as length_resized; see the top of this file)
  OpTester t("Resize", 19);
  t.attr("mode", "cubic").attr("coordinate_transformation_mode", "align_corners").attr("exclude_outside", int64_t{1}).attr("cubic_coeff_a", -0.5f)
      .input("X", Tensor::fromVector<float>({1, 1, 3, 4}, {0.304717094, -1.03998411, 0.750451207, 0.940564692, -1.95103514, -1.30217946, 0.1278404, -0.316242605, -0.016801158, -0.853043914, 0.879397988, 0.777791917}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 2.5, 0.75}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 7, 3}, {0.304717094, -0.240692362, 0.940564692, -0.314670533, -0.324629426, 0.594969332, -1.21665847, -0.445548117, 0.0917804018, -1.90264106, -0.520985484, -0.289814353, -1.71631646, -0.440550566, -0.182205111, -0.957466483, -0.253629178, 0.246761948, -0.237641603, -0.0855001584, 0.653062046}));
  t.run();
}

TEST(Resize, LinearAsymmetric) {
  // onnxruntime('Resize', 19, inputs below, {'mode': 'linear', 'coordinate_transformation_mode': 'asymmetric'})
  OpTester t("Resize", 19);
  t.attr("mode", "linear").attr("coordinate_transformation_mode", "asymmetric")
      .input("X", Tensor::fromVector<float>({1, 1, 3, 4}, {0.304717094, -1.03998411, 0.750451207, 0.940564692, -1.95103514, -1.30217946, 0.1278404, -0.316242605, -0.016801158, -0.853043914, 0.879397988, 0.777791917}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 2.5, 0.75}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 7, 3}, {0.304717094, -0.443172276, 0.87719357, -0.597583771, -0.596105874, 0.459030151, -1.49988472, -0.749039352, 0.0408667177, -1.56418824, -0.715517521, 0.0277601928, -0.79049468, -0.495540351, 0.419710398, -0.016801158, -0.27556324, 0.811660588, -0.016801158, -0.27556324, 0.811660588}));
  t.run();
}

TEST(Resize, CubicAsymmetric) {
  // onnxruntime('Resize', 19, inputs below, {'mode': 'cubic', 'coordinate_transformation_mode': 'asymmetric'})
  OpTester t("Resize", 19);
  t.attr("mode", "cubic").attr("coordinate_transformation_mode", "asymmetric")
      .input("X", Tensor::fromVector<float>({1, 1, 3, 4}, {0.304717094, -1.03998411, 0.750451207, 0.940564692, -1.95103514, -1.30217946, 0.1278404, -0.316242605, -0.016801158, -0.853043914, 0.879397988, 0.777791917}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 2.5, 0.75}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 7, 3}, {0.304717094, -0.636301756, 0.98018229, -0.709779561, -0.708384335, 0.490020335, -1.73970914, -0.768880963, -0.00370027125, -1.82716227, -0.703224182, -0.0238708723, -0.92969811, -0.543276906, 0.439296931, -0.016801158, -0.394916654, 0.90602529, 0.192096666, -0.356003553, 1.01435149}));
  t.run();
}

TEST(Resize, CubicExcludeOutsideA05Asymmetric) {
  // onnxruntime('Resize', 19, inputs below, {'mode': 'cubic', 'coordinate_transformation_mode': 'asymmetric', 'exclude_outside': 1, 'cubic_coeff_a': -0.5})
  OpTester t("Resize", 19);
  t.attr("mode", "cubic").attr("coordinate_transformation_mode", "asymmetric").attr("exclude_outside", int64_t{1}).attr("cubic_coeff_a", -0.5f)
      .input("X", Tensor::fromVector<float>({1, 1, 3, 4}, {0.304717094, -1.03998411, 0.750451207, 0.940564692, -1.95103514, -1.30217946, 0.1278404, -0.316242605, -0.016801158, -0.853043914, 0.879397988, 0.777791917}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 2.5, 0.75}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 7, 3}, {0.304717094, -0.616132855, 0.949858427, -0.573087215, -0.704148591, 0.520818949, -1.69987845, -0.807455063, -0.0271026753, -1.773296, -0.75762409, -0.0463518053, -0.796230555, -0.552694082, 0.462313503, -0.016801158, -0.397908032, 0.865560293, 0.206378996, -0.349902332, 0.982096851}));
  t.run();
}

TEST(Resize, NearestTfHalfPixelForNearestOpset11) {
  // tfhp('Resize', 11, inputs below, {'mode': 'nearest', 'coordinate_transformation_mode': 'tf_half_pixel_for_nearest'})
  OpTester t("Resize", 11);
  t.attr("mode", "nearest").attr("coordinate_transformation_mode", "tf_half_pixel_for_nearest")
      .input("X", Tensor::fromVector<float>({1, 1, 3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}), false)
      .input("roi", Tensor::fromVector<float>({0}, {}), true)
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 1.70000005, 0.600000024}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 5, 2}, {1, 2, 5, 6, 5, 6, 9, 10, 9, 10}));
  t.run();
}

TEST(Resize, NearestOpset13Sizes) {
  // onnxruntime('Resize', 13, inputs below, {'mode': 'nearest', 'nearest_mode': 'round_prefer_ceil', 'coordinate_transformation_mode': 'asymmetric'})
  OpTester t("Resize", 13);
  t.attr("mode", "nearest").attr("nearest_mode", "round_prefer_ceil").attr("coordinate_transformation_mode", "asymmetric")
      .input("X", Tensor::fromVector<float>({1, 1, 3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}), false)
      .absentInput()
      .absentInput()
      .input("sizes", Tensor::fromVector<int64_t>({4}, {1, 1, 5, 3}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 5, 3}, {0, 1, 3, 4, 5, 7, 4, 5, 7, 8, 9, 11, 8, 9, 11}));
  t.run();
}

TEST(Resize, TfCropAndResizeLinearExtrapolation) {
  // onnxruntime('Resize', 13, inputs below, {'mode': 'linear', 'coordinate_transformation_mode': 'tf_crop_and_resize', 'extrapolation_value': -7.0})
  OpTester t("Resize", 13);
  t.attr("mode", "linear").attr("coordinate_transformation_mode", "tf_crop_and_resize").attr("extrapolation_value", -7.0f)
      .input("X", Tensor::fromVector<float>({1, 1, 4, 4}, {0.066030696, 1.12724125, 0.467509329, -0.859292448, 0.368750781, -0.95888263, 0.878450274, -0.0499259122, -0.18486236, -0.680929542, 1.22254133, -0.154529482, -0.428327829, -0.352133542, 0.532309175, 0.365444064}), false)
      .input("roi", Tensor::fromVector<float>({8}, {0, 0, -0.200000003, 0.300000012, 1, 1, 0.899999976, 1.29999995}), true)
      .absentInput()
      .input("sizes", Tensor::fromVector<int64_t>({4}, {1, 1, 3, 5}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 3, 5}, {-7, -7, -7, -7, -7, -0.816379428, 0.251430839, 0.515330613, -7, -7, -0.44122386, 0.322825789, 0.527408123, -7, -7}));
  t.run();
}

TEST(Resize, TfCropAndResizeCubicAxes) {
  // onnxruntime('Resize', 18, inputs below, {'mode': 'cubic', 'coordinate_transformation_mode': 'tf_crop_and_resize', 'axes': [2, 3], 'extrapolation_value': 2.5})
  OpTester t("Resize", 18);
  t.attr("mode", "cubic").attr("coordinate_transformation_mode", "tf_crop_and_resize").attr("axes", std::vector<int64_t>{2, 3}).attr("extrapolation_value", 2.5f)
      .input("X", Tensor::fromVector<float>({1, 1, 4, 4}, {0.066030696, 1.12724125, 0.467509329, -0.859292448, 0.368750781, -0.95888263, 0.878450274, -0.0499259122, -0.18486236, -0.680929542, 1.22254133, -0.154529482, -0.428327829, -0.352133542, 0.532309175, 0.365444064}), false)
      .input("roi", Tensor::fromVector<float>({4}, {0.100000001, -0.300000012, 0.800000012, 0.899999976}), true)
      .input("scales", Tensor::fromVector<float>({2}, {1.5, 1.25}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 6, 5}, {2.5, 0.176647842, 0.500879467, 0.683147371, -0.293689996, 2.5, 0.350970864, -0.457572669, 0.601288855, 0.0828899741, 2.5, 0.329829305, -1.10020781, 0.657251656, 0.360397875, 2.5, 0.104445547, -1.04650629, 0.890113771, 0.36183691, 2.5, -0.172798112, -0.764588296, 1.01057291, 0.317556947, 2.5, -0.339117318, -0.600281894, 0.812564313, 0.374233425}));
  t.run();
}

TEST(Resize, AntialiasLinearHalfPixel) {
  // onnxruntime('Resize', 18, inputs below, {'mode': 'linear', 'antialias': 1})
  OpTester t("Resize", 18);
  t.attr("mode", "linear").attr("antialias", int64_t{1})
      .input("X", Tensor::fromVector<float>({1, 1, 6, 8}, {0.412732601, 0.430821002, 2.14164758, -0.406415015, -0.512242734, -0.813772738, 0.615979433, 1.12897229, -0.113947459, -0.840156496, -0.824481189, 0.650592804, 0.743254185, 0.54315424, -0.665509701, 0.232161328, 0.116685808, 0.218688592, 0.871428788, 0.223595545, 0.678913534, 0.0675790682, 0.289119393, 0.63128823, -1.45715582, -0.319671214, -0.470372647, -0.638877869, -0.275142252, 1.49494135, -0.865831137, 0.968278348, -1.68286979, -0.334885031, 0.16275306, 0.586222351, 0.711226583, 0.793347239, -0.34872508, -0.462351799, 0.8579759, -0.191304326, -1.27568626, -1.13328719, -0.91945231, 0.497160733, 0.142425731, 0.690485358}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 0.5, 0.349999994}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 3, 2}, {0.233294368, 0.134445593, -0.301015228, 0.239989251, -0.401212037, -0.133640647}));
  t.run();
}

TEST(Resize, AntialiasCubicExcludeOutsideAlignCorners) {
  // ReferenceEvaluator('Resize', 18, inputs below, {'mode': 'cubic', 'antialias': 1, 'exclude_outside': 1, 'coordinate_transformation_mode': 'align_corners'})
  // (onnxruntime 1.32 differs here: it uses the integer output length as length_resized; see the top of this file)
  OpTester t("Resize", 18);
  t.attr("mode", "cubic").attr("antialias", int64_t{1}).attr("exclude_outside", int64_t{1}).attr("coordinate_transformation_mode", "align_corners")
      .input("X", Tensor::fromVector<float>({1, 1, 6, 8}, {0.412732601, 0.430821002, 2.14164758, -0.406415015, -0.512242734, -0.813772738, 0.615979433, 1.12897229, -0.113947459, -0.840156496, -0.824481189, 0.650592804, 0.743254185, 0.54315424, -0.665509701, 0.232161328, 0.116685808, 0.218688592, 0.871428788, 0.223595545, 0.678913534, 0.0675790682, 0.289119393, 0.63128823, -1.45715582, -0.319671214, -0.470372647, -0.638877869, -0.275142252, 1.49494135, -0.865831137, 0.968278348, -1.68286979, -0.334885031, 0.16275306, 0.586222351, 0.711226583, 0.793347239, -0.34872508, -0.462351799, 0.8579759, -0.191304326, -1.27568626, -1.13328719, -0.91945231, 0.497160733, 0.142425731, 0.690485358}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 0.699999988, 0.300000012}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 4, 2}, {0.514137685, -0.0212271381, -0.121369161, 0.354554147, -0.860700428, 0.330723315, -0.320330173, 0.0551467165}));
  t.run();
}

TEST(Resize, AntialiasCubicSizes) {
  // onnxruntime('Resize', 18, inputs below, {'mode': 'cubic', 'antialias': 1})
  OpTester t("Resize", 18);
  t.attr("mode", "cubic").attr("antialias", int64_t{1})
      .input("X", Tensor::fromVector<float>({1, 1, 6, 8}, {0.412732601, 0.430821002, 2.14164758, -0.406415015, -0.512242734, -0.813772738, 0.615979433, 1.12897229, -0.113947459, -0.840156496, -0.824481189, 0.650592804, 0.743254185, 0.54315424, -0.665509701, 0.232161328, 0.116685808, 0.218688592, 0.871428788, 0.223595545, 0.678913534, 0.0675790682, 0.289119393, 0.63128823, -1.45715582, -0.319671214, -0.470372647, -0.638877869, -0.275142252, 1.49494135, -0.865831137, 0.968278348, -1.68286979, -0.334885031, 0.16275306, 0.586222351, 0.711226583, 0.793347239, -0.34872508, -0.462351799, 0.8579759, -0.191304326, -1.27568626, -1.13328719, -0.91945231, 0.497160733, 0.142425731, 0.690485358}), false)
      .absentInput()
      .absentInput()
      .input("sizes", Tensor::fromVector<int64_t>({4}, {1, 1, 3, 3}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 3, 3}, {0.290099442, 0.157649755, 0.219613969, -0.449568212, 0.378537118, 0.291786671, -0.503553689, -0.195926666, 0.227869004}));
  t.run();
}

TEST(Resize, AxesNegativeLinear) {
  // onnxruntime('Resize', 18, inputs below, {'mode': 'linear', 'axes': [-1, -2]})
  OpTester t("Resize", 18);
  t.attr("mode", "linear").attr("axes", std::vector<int64_t>{-1, -2})
      .input("X", Tensor::fromVector<float>({1, 1, 6, 8}, {0.412732601, 0.430821002, 2.14164758, -0.406415015, -0.512242734, -0.813772738, 0.615979433, 1.12897229, -0.113947459, -0.840156496, -0.824481189, 0.650592804, 0.743254185, 0.54315424, -0.665509701, 0.232161328, 0.116685808, 0.218688592, 0.871428788, 0.223595545, 0.678913534, 0.0675790682, 0.289119393, 0.63128823, -1.45715582, -0.319671214, -0.470372647, -0.638877869, -0.275142252, 1.49494135, -0.865831137, 0.968278348, -1.68286979, -0.334885031, 0.16275306, 0.586222351, 0.711226583, 0.793347239, -0.34872508, -0.462351799, 0.8579759, -0.191304326, -1.27568626, -1.13328719, -0.91945231, 0.497160733, 0.142425731, 0.690485358}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({2}, {0.5, 1.5}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 9, 4}, {0.421776801, 0.867616296, -0.663007736, 0.872475863, -0.027637586, 0.390336037, -0.00990176201, 0.327900827, -0.369595468, 0.0187985096, 0.598211229, -0.103861198, 0.0602306165, 0.441769391, 0.418239295, 0.347390741, -0.360363126, -0.00355654955, 0.491572917, 0.255713701, -0.908490837, -0.399773002, 0.633630753, -0.0249034595, -0.988800168, 0.219635695, 0.728555679, -0.329411507, -0.33777079, -0.414999515, 0.270570576, 0.00545854867, 0.333335787, -1.20448673, -0.211145803, 0.416455537}));
  t.run();
}

TEST(Resize, KeepAspectNotLargerLinear) {
  // onnxruntime('Resize', 18, inputs below, {'mode': 'linear', 'axes': [2, 3], 'keep_aspect_ratio_policy': 'not_larger'})
  OpTester t("Resize", 18);
  t.attr("mode", "linear").attr("axes", std::vector<int64_t>{2, 3}).attr("keep_aspect_ratio_policy", "not_larger")
      .input("X", Tensor::fromVector<float>({1, 1, 6, 8}, {0.412732601, 0.430821002, 2.14164758, -0.406415015, -0.512242734, -0.813772738, 0.615979433, 1.12897229, -0.113947459, -0.840156496, -0.824481189, 0.650592804, 0.743254185, 0.54315424, -0.665509701, 0.232161328, 0.116685808, 0.218688592, 0.871428788, 0.223595545, 0.678913534, 0.0675790682, 0.289119393, 0.63128823, -1.45715582, -0.319671214, -0.470372647, -0.638877869, -0.275142252, 1.49494135, -0.865831137, 0.968278348, -1.68286979, -0.334885031, 0.16275306, 0.586222351, 0.711226583, 0.793347239, -0.34872508, -0.462351799, 0.8579759, -0.191304326, -1.27568626, -1.13328719, -0.91945231, 0.497160733, 0.142425731, 0.690485358}), false)
      .absentInput()
      .absentInput()
      .input("sizes", Tensor::fromVector<int64_t>({2}, {5, 5}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 4, 5}, {0.193168312, 1.13158083, -0.112453163, -0.342871994, 0.671409905, 0.0993770063, 0.64293462, 0.475821406, 0.122988537, 0.472059786, -1.19719231, -0.171156615, 0.095857203, 0.969002128, -0.00510931015, 0.54319185, -1.16724825, -1.02636981, 0.461687267, 0.526067376}));
  t.run();
}

TEST(Resize, KeepAspectNotSmallerCubic) {
  // onnxruntime('Resize', 18, inputs below, {'mode': 'cubic', 'keep_aspect_ratio_policy': 'not_smaller'})
  OpTester t("Resize", 18);
  t.attr("mode", "cubic").attr("keep_aspect_ratio_policy", "not_smaller")
      .input("X", Tensor::fromVector<float>({1, 1, 6, 8}, {0.412732601, 0.430821002, 2.14164758, -0.406415015, -0.512242734, -0.813772738, 0.615979433, 1.12897229, -0.113947459, -0.840156496, -0.824481189, 0.650592804, 0.743254185, 0.54315424, -0.665509701, 0.232161328, 0.116685808, 0.218688592, 0.871428788, 0.223595545, 0.678913534, 0.0675790682, 0.289119393, 0.63128823, -1.45715582, -0.319671214, -0.470372647, -0.638877869, -0.275142252, 1.49494135, -0.865831137, 0.968278348, -1.68286979, -0.334885031, 0.16275306, 0.586222351, 0.711226583, 0.793347239, -0.34872508, -0.462351799, 0.8579759, -0.191304326, -1.27568626, -1.13328719, -0.91945231, 0.497160733, 0.142425731, 0.690485358}), false)
      .absentInput()
      .absentInput()
      .input("sizes", Tensor::fromVector<int64_t>({4}, {1, 1, 5, 5}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 6, 8}, {0.412732601, 0.430821002, 2.14164758, -0.406415015, -0.512242734, -0.813772738, 0.615979433, 1.12897229, -0.113947459, -0.840156496, -0.824481189, 0.650592804, 0.743254185, 0.54315424, -0.665509701, 0.232161328, 0.116685808, 0.218688592, 0.871428788, 0.223595545, 0.678913534, 0.0675790682, 0.289119393, 0.63128823, -1.45715582, -0.319671214, -0.470372647, -0.638877869, -0.275142252, 1.49494135, -0.865831137, 0.968278348, -1.68286979, -0.334885031, 0.16275306, 0.586222351, 0.711226583, 0.793347239, -0.34872508, -0.462351799, 0.8579759, -0.191304326, -1.27568626, -1.13328719, -0.91945231, 0.497160733, 0.142425731, 0.690485358}));
  t.run();
}

TEST(Resize, Linear3dAllAxes) {
  // onnxruntime('Resize', 13, inputs below, {'mode': 'linear'})
  OpTester t("Resize", 13);
  t.attr("mode", "linear")
      .input("X", Tensor::fromVector<float>({2, 3, 5}, {-0.42725265, 0.158539698, 0.625590384, -0.309346527, 0.456775248, -0.661925912, -0.363053858, -0.381737888, -1.19583964, 0.486972481, -0.469402343, 0.0124941189, 0.480746657, 0.446531177, 0.665385127, -0.0984854847, -0.423298299, -0.0797182098, -1.68733442, -1.44711244, -1.32269967, -0.997246802, 0.399774224, -0.905479074, -0.378162563, 1.29922831, -0.356263965, 0.737515569, -0.933617651, -0.205437556}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({3}, {1.5, 0.670000017, 2}), true)
      .expect("Y", Tensor::fromVector<float>({3, 2, 10}, {-0.485045314, -0.356262118, -0.0986956507, 0.116944939, 0.290659696, 0.151222304, -0.301367223, -0.279693514, 0.216243416, 0.464211881, -0.519688308, -0.411165446, -0.194119632, -0.000329844654, 0.170203969, 0.195991606, 0.0770330429, 0.167861551, 0.46847707, 0.618784785, -0.442508191, -0.398700684, -0.311085641, -0.148473263, 0.089136526, -0.0968502015, -0.706433475, -0.848375261, -0.522675693, -0.35982585, 0.0473540723, -0.0406446643, -0.216642067, -0.115384303, 0.263128728, 0.225699633, -0.227671549, -0.29473877, 0.0244979113, 0.184116215, -0.399971038, -0.441139251, -0.523475647, -0.413891435, -0.112386644, -0.344922692, -1.11149955, -1.4170568, -1.26159477, -1.18386364, 0.614396453, 0.329876125, -0.239164501, -0.230438739, 0.356053472, 0.255407661, -0.53237617, -0.75733906, -0.419481218, -0.250552297}));
  t.run();
}

TEST(Resize, Cubic5dAlignCorners) {
  // ReferenceEvaluator('Resize', 13, inputs below, {'mode': 'cubic', 'coordinate_transformation_mode': 'align_corners'})
  OpTester t("Resize", 13);
  t.attr("mode", "cubic").attr("coordinate_transformation_mode", "align_corners")
      .input("X", Tensor::fromVector<float>({1, 2, 2, 3, 3}, {-0.950022042, -0.339033067, 0.84030813, -1.72732043, 0.434423655, 0.237735599, -0.594149947, -1.4460578, 0.0721295103, -0.529492736, 0.232676208, 0.021852145, 1.60177886, -0.239355624, -1.02349746, 0.179275632, 0.219996691, 1.3591876, 0.83511126, 0.356871068, 1.46330285, -1.18876302, -0.639751554, -0.926575959, -0.389809817, -1.3766861, 0.635150969, -0.222222701, -1.47080624, -1.0155791, 0.313513845, 0.83812654, 1.99673092, 2.91386247, 0.414409429, -0.989538133}), false)
      .absentInput()
      .absentInput()
      .input("sizes", Tensor::fromVector<int64_t>({5}, {1, 2, 3, 4, 2}), true)
      .expect("Y", Tensor::fromVector<float>({1, 2, 3, 4, 2}, {-0.950022042, 0.84030813, -1.60852301, 0.445834816, -1.45694792, 0.118647784, -0.594149947, 0.0721295103, -0.739757419, 0.431080133, -0.259821951, -0.256656975, -0.0330930762, -0.135447711, -0.207437158, 0.715658545, -0.529492736, 0.021852145, 1.08887899, -0.959148765, 1.39076173, -0.389543205, 0.179275632, 1.3591876, 0.83511126, 1.46330285, -0.640390158, -0.347732306, -1.16211557, -0.700463533, -0.389809817, 0.635150969, 0.306444287, 0.223861873, -0.392230928, 0.516243398, 0.014776051, 0.345423549, 1.26202631, -0.177193582, -0.222222701, -1.0155791, -0.144071683, 1.3802191, 1.19166768, 1.39131057, 2.91386247, -0.989538133}));
  t.run();
}

TEST(Resize, Nearest5dPytorch) {
  // ReferenceEvaluator('Resize', 13, inputs below, {'mode': 'nearest', 'coordinate_transformation_mode': 'pytorch_half_pixel', 'nearest_mode': 'ceil'})
  // (onnxruntime 1.32 differs here: it uses the integer output length as length_resized; see the top of this file)
  OpTester t("Resize", 13);
  t.attr("mode", "nearest").attr("coordinate_transformation_mode", "pytorch_half_pixel").attr("nearest_mode", "ceil")
      .input("X", Tensor::fromVector<float>({1, 2, 2, 3, 3}, {-0.950022042, -0.339033067, 0.84030813, -1.72732043, 0.434423655, 0.237735599, -0.594149947, -1.4460578, 0.0721295103, -0.529492736, 0.232676208, 0.021852145, 1.60177886, -0.239355624, -1.02349746, 0.179275632, 0.219996691, 1.3591876, 0.83511126, 0.356871068, 1.46330285, -1.18876302, -0.639751554, -0.926575959, -0.389809817, -1.3766861, 0.635150969, -0.222222701, -1.47080624, -1.0155791, 0.313513845, 0.83812654, 1.99673092, 2.91386247, 0.414409429, -0.989538133}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({5}, {1, 1, 2, 1.5, 0.5}), true)
      .expect("Y", Tensor::fromVector<float>({1, 2, 4, 4, 1}, {-0.339033067, 0.434423655, -1.4460578, -1.4460578, 0.232676208, -0.239355624, 0.219996691, 0.219996691, 0.232676208, -0.239355624, 0.219996691, 0.219996691, 0.232676208, -0.239355624, 0.219996691, 0.219996691, 0.356871068, -0.639751554, -1.3766861, -1.3766861, -1.47080624, 0.83812654, 0.414409429, 0.414409429, -1.47080624, 0.83812654, 0.414409429, 0.414409429, -1.47080624, 0.83812654, 0.414409429, 0.414409429}));
  t.run();
}

TEST(Resize, Opset10NearestDownsampleCeils) {
  // onnxruntime('Resize', 10, inputs below, {'mode': 'nearest'})
  OpTester t("Resize", 10);
  t.attr("mode", "nearest")
      .input("X", Tensor::fromVector<float>({1, 1, 2, 5}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}), false)
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 2, 0.600000024}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 4, 3}, {0, 2, 4, 0, 2, 4, 5, 7, 9, 5, 7, 9}));
  t.run();
}

TEST(Resize, Opset10Linear) {
  // onnxruntime('Resize', 10, inputs below, {'mode': 'linear'})
  OpTester t("Resize", 10);
  t.attr("mode", "linear")
      .input("X", Tensor::fromVector<float>({1, 1, 2, 5}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}), false)
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 1.5, 0.600000024}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 3, 3}, {0, 1.66666663, 3.33333325, 3.33333349, 5, 6.66666651, 5, 6.66666698, 8.33333302}));
  t.run();
}

TEST(Resize, Upsample9Nearest) {
  // onnxruntime('Upsample', 9, inputs below, {'mode': 'nearest'})
  OpTester t("Upsample", 9);
  t.attr("mode", "nearest")
      .input("X", Tensor::fromVector<float>({1, 1, 2, 5}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}), false)
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 2.5, 1.5}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 5, 7}, {0, 0, 1, 2, 2, 3, 4, 0, 0, 1, 2, 2, 3, 4, 0, 0, 1, 2, 2, 3, 4, 5, 5, 6, 7, 7, 8, 9, 5, 5, 6, 7, 7, 8, 9}));
  t.run();
}

TEST(Resize, Upsample9Linear) {
  // onnxruntime('Upsample', 9, inputs below, {'mode': 'linear'})
  OpTester t("Upsample", 9);
  t.attr("mode", "linear")
      .input("X", Tensor::fromVector<float>({1, 1, 2, 5}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}), false)
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 2.5, 1.5}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 5, 7}, {0, 0.666666687, 1.33333337, 2, 2.66666675, 3.33333325, 4, 2, 2.66666675, 3.33333349, 4, 4.66666698, 5.33333349, 6.00000048, 4, 4.66666698, 5.33333349, 6, 6.66666698, 7.33333349, 8, 5, 5.66666651, 6.33333302, 7, 7.66666698, 8.33333302, 9, 5, 5.66666651, 6.33333302, 7, 7.66666698, 8.33333302, 9}));
  t.run();
}

TEST(Resize, Upsample7LinearAttr) {
  // onnxruntime('Upsample', 7, inputs below, {'mode': 'linear', 'scales': [1.0, 1.0, 2.0, 1.5]})
  OpTester t("Upsample", 7);
  t.attr("mode", "linear").attr("scales", std::vector<float>{1.0f, 1.0f, 2.0f, 1.5f})
      .input("X", Tensor::fromVector<float>({1, 1, 2, 5}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}), false)
      .expect("Y", Tensor::fromVector<float>({1, 1, 4, 7}, {0, 0.666666687, 1.33333337, 2, 2.66666675, 3.33333325, 4, 2.5, 3.16666651, 3.83333325, 4.5, 5.16666698, 5.83333302, 6.5, 5, 5.66666651, 6.33333302, 7, 7.66666698, 8.33333302, 9, 5, 5.66666651, 6.33333302, 7, 7.66666698, 8.33333302, 9}));
  t.run();
}

TEST(Resize, Upsample7NearestAttr) {
  // onnxruntime('Upsample', 7, inputs below, {'mode': 'nearest', 'scales': [1.0, 1.0, 3.0, 2.0]})
  OpTester t("Upsample", 7);
  t.attr("mode", "nearest").attr("scales", std::vector<float>{1.0f, 1.0f, 3.0f, 2.0f})
      .input("X", Tensor::fromVector<float>({1, 1, 2, 5}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}), false)
      .expect("Y", Tensor::fromVector<float>({1, 1, 6, 10}, {0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9}));
  t.run();
}

TEST(Resize, Upsample10NearestSameAs9) {
  // onnxruntime('Upsample', 10, inputs below, {'mode': 'nearest'})
  OpTester t("Upsample", 10);
  t.attr("mode", "nearest")
      .input("X", Tensor::fromVector<float>({1, 1, 2, 5}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}), false)
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 2, 3}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 4, 15}, {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 7, 7, 7, 8, 8, 8, 9, 9, 9, 5, 5, 5, 6, 6, 6, 7, 7, 7, 8, 8, 8, 9, 9, 9}));
  t.run();
}

TEST(Resize, NearestUInt8) {
  // onnxruntime('Resize', 13, inputs below, {'mode': 'nearest'})
  OpTester t("Resize", 13);
  t.attr("mode", "nearest")
      .input("X", Tensor::fromVector<uint8_t>({1, 1, 3, 4}, {138, 121, 206, 68, 244, 84, 139, 133, 217, 112, 72, 5}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 2, 1.5}), true)
      .expect("Y", Tensor::fromVector<uint8_t>({1, 1, 6, 6}, {138, 138, 121, 206, 206, 68, 138, 138, 121, 206, 206, 68, 244, 244, 84, 139, 139, 133, 244, 244, 84, 139, 139, 133, 217, 217, 112, 72, 72, 5, 217, 217, 112, 72, 72, 5}));
  t.run();
}

TEST(Resize, LinearUInt8) {
  // onnxruntime('Resize', 13, inputs below, {'mode': 'linear'})
  OpTester t("Resize", 13);
  t.attr("mode", "linear")
      .input("X", Tensor::fromVector<uint8_t>({1, 1, 3, 4}, {138, 121, 206, 68, 244, 84, 139, 133, 217, 112, 72, 5}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 2, 1.5}), true)
      .expect("Y", Tensor::fromVector<uint8_t>({1, 1, 6, 6}, {138, 129, 135, 191, 137, 68, 164, 138, 124, 176, 136, 84, 217, 155, 103, 145, 136, 116, 237, 164, 96, 117, 111, 101, 223, 164, 102, 91, 62, 37, 217, 164, 105, 78, 38, 5}));
  t.run();
}

TEST(Resize, NearestInt64) {
  // ReferenceEvaluator('Resize', 13, inputs below, {'mode': 'nearest', 'coordinate_transformation_mode': 'asymmetric'})
  OpTester t("Resize", 13);
  t.attr("mode", "nearest").attr("coordinate_transformation_mode", "asymmetric")
      .input("X", Tensor::fromVector<int64_t>({2, 3}, {-273, 652, -981, 792, 85, -720}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({2}, {1.5, 2}), true)
      .expect("Y", Tensor::fromVector<int64_t>({3, 6}, {-273, -273, 652, 652, -981, -981, 792, 792, 85, 85, -720, -720, 792, 792, 85, 85, -720, -720}));
  t.run();
}

TEST(Resize, NearestInt32) {
  // onnxruntime('Resize', 13, inputs below, {'mode': 'nearest'})
  OpTester t("Resize", 13);
  t.attr("mode", "nearest")
      .input("X", Tensor::fromVector<int32_t>({2, 3}, {-396, 108, -369, -783, 331, 344}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({2}, {2, 0.699999988}), true)
      .expect("Y", Tensor::fromVector<int32_t>({4, 2}, {-396, -369, -396, -369, -783, 344, -783, 344}));
  t.run();
}

TEST(Resize, NearestInt8) {
  // onnxruntime('Resize', 13, inputs below, {'mode': 'nearest'})
  OpTester t("Resize", 13);
  t.attr("mode", "nearest")
      .input("X", Tensor::fromVector<int8_t>({2, 3}, {-98, -57, -66, 40, 58, 58}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({2}, {2, 2}), true)
      .expect("Y", Tensor::fromVector<int8_t>({4, 6}, {-98, -98, -57, -57, -66, -66, -98, -98, -57, -57, -66, -66, 40, 40, 58, 58, 58, 58, 40, 40, 58, 58, 58, 58}));
  t.run();
}

TEST(Resize, CubicDouble) {
  // ReferenceEvaluator('Resize', 13, inputs below, {'mode': 'cubic'})
  OpTester t("Resize", 13);
  t.attr("mode", "cubic")
      .input("X", Tensor::fromVector<double>({1, 1, 3, 3}, {0.13027452147288585, 0.98273951102305757, -0.49929559853915206, -1.1849437664170246, -0.96511676223237186, -0.72522606453575322, 2.1284697324351645, -0.82138667922438613, 0.83848920373634495}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 1.60000002, 1.60000002}), true)
      .expect("Y", Tensor::fromVector<double>({1, 1, 4, 4}, {0.16778175433759129, 0.7765944582744394, 1.1195344712410851, 0.047581115001883147, -0.78023158507641521, -0.2738691777186677, 0.12583087776111926, -0.43011707506452451, -1.0778785303443816, -1.0897106989090717, -1.0177822089003612, -0.76651745012264116, 1.2843163237343411, 0.1027549272912269, -0.98000514247484083, -0.12278855456823615}));
  t.run();
}

TEST(Resize, SrcnnBicubicX3PytorchHalfPixel) {
  // onnxruntime('Resize', 13, inputs below, {'mode': 'cubic', 'coordinate_transformation_mode': 'pytorch_half_pixel', 'cubic_coeff_a': -0.75, 'nearest_mode': 'floor'})
  OpTester t("Resize", 13);
  t.attr("mode", "cubic").attr("coordinate_transformation_mode", "pytorch_half_pixel").attr("cubic_coeff_a", -0.75f).attr("nearest_mode", "floor")
      .input("X", Tensor::fromVector<float>({1, 1, 5, 5}, {0.31713888, 0.952899396, 0.290917844, 0.515057147, 0.255965084, 0.936043561, 0.164607823, 0.0449106209, 0.435097069, 0.992375553, 0.89167726, 0.748607993, 0.890792489, 0.893446624, 0.518858373, 0.315929055, 0.772012413, 0.661661267, 0.373657733, 0.0944666713, 0.746789634, 0.26246053, 0.936813176, 0.240970582, 0.122757934}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 3, 3}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 15, 15}, {0.16035898, 0.24837178, 0.537865937, 0.871366262, 1.04048777, 0.889702797, 0.566774607, 0.318252116, 0.322191179, 0.457930595, 0.523941815, 0.436674058, 0.295691043, 0.174141765, 0.135274947, 0.246498913, 0.31713888, 0.554062545, 0.826305985, 0.952899396, 0.802685499, 0.509735107, 0.290917844, 0.302320719, 0.43650645, 0.515057147, 0.4583956, 0.349983126, 0.255965084, 0.22717686, 0.49690631, 0.514444411, 0.592236996, 0.678798556, 0.672289312, 0.514038205, 0.301379472, 0.166478083, 0.201313615, 0.33700344, 0.464421034, 0.513167143, 0.515015841, 0.514104784, 0.51962471, 0.790382743, 0.746132612, 0.638508976, 0.508760333, 0.347884536, 0.181881726, 0.0645033792, 0.028370358, 0.090370439, 0.226787508, 0.409341812, 0.578798771, 0.707193971, 0.813155472, 0.858023047, 1.02175903, 0.936043561, 0.699833989, 0.420766741, 0.164607823, 0.0195330922, -0.00361813232, 0.0449106209, 0.12348789, 0.243690968, 0.435097069, 0.653890967, 0.838612854, 0.992375553, 1.05429459, 1.10763645, 1.02282953, 0.780487359, 0.495741546, 0.259571314, 0.169601172, 0.208898842, 0.296602011, 0.376630723, 0.467308283, 0.599384904, 0.742999256, 0.855555475, 0.948705912, 0.987518609, 1.05796027, 1.00400019, 0.844562888, 0.658144951, 0.518362045, 0.492294967, 0.553719997, 0.636288404, 0.704287648, 0.761864126, 0.80246371, 0.806298912, 0.77985543, 0.755994976, 0.750831127, 0.907574236, 0.89167726, 0.838738203, 0.777849793, 0.748607993, 0.777325451, 0.837787807, 0.890792489, 0.928236902, 0.9421314, 0.893446624, 0.775815845, 0.636931121, 0.518858373, 0.477237016, 0.662933469, 0.681557238, 0.731648684, 0.791051149, 0.849173486, 0.889036477, 0.903641105, 0.89735961, 0.89371103, 0.875962079, 0.788108766, 0.632086992, 0.468881637, 0.331068844, 0.280286342, 0.401638716, 0.446845204, 0.580680728, 0.737118661, 0.853705764, 0.875927448, 0.824590087, 0.750216126, 0.705393255, 0.668223619, 0.577502012, 0.439034581, 0.308303207, 0.198621869, 0.156523928, 0.265253246, 0.315929055, 0.465641797, 0.640691698, 0.772012413, 0.803948224, 0.753739893, 0.661661267, 0.57424289, 0.489216447, 0.373657733, 0.253763914, 0.166359514, 0.0944666713, 0.0634453595, 0.362420946, 0.387598574, 0.452901155, 0.530791759, 0.614198506, 0.698500693, 0.751071215, 0.722824454, 0.605745196, 0.445634335, 0.274131596, 0.155674607, 0.0998929366, 0.056218572, 0.032005962, 0.596382558, 0.579161525, 0.507409453, 0.427046031, 0.424174786, 0.569484651, 0.763586283, 0.837461054, 0.70874542, 0.478726715, 0.253864646, 0.137519777, 0.109351955, 0.0902737156, 0.0720968693, 0.800604343, 0.746789634, 0.556852043, 0.340006232, 0.26246053, 0.45960024, 0.774926007, 0.936813176, 0.799247146, 0.510630965, 0.240970582, 0.126439661, 0.121314436, 0.122757934, 0.109623097, 0.860087216, 0.794662476, 0.566986084, 0.306596458, 0.205843419, 0.421338975, 0.777279377, 0.967384875, 0.824247003, 0.513009965, 0.226227388, 0.112292424, 0.11630933, 0.125901312, 0.114753872}));
  t.run();
}

}  // namespace
}  // namespace oinfer::testing
