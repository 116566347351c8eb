// The ONNX backend node tests for Resize/Upsample (onnx 1.22.0,
// onnx/backend/test/data/node/test_resize_* and test_upsample_nearest),
// converted to OpTester literals: inputs, attributes and expected outputs are
// copied from each test's model.onnx and test_data_set_0, e.g.
//   m = onnx.load(d + "/model.onnx"); node = m.graph.node[0]
//   ins = [numpy_helper.to_array(onnx.load_tensor(f)) for f in sorted(glob(d + "/test_data_set_0/input_*.pb"))]
//   exp = numpy_helper.to_array(onnx.load_tensor(d + "/test_data_set_0/output_0.pb"))
// scales / sizes / roi are given as constants (as they are initializers in
// real models), so the shape function resolves the output shape statically.
#include <gtest/gtest.h>

#include "op_tester.h"

namespace oinfer::testing {
namespace {

TEST(ResizeOnnxNodeTests, ResizeDownsampleScalesCubic) {
  OpTester t("Resize", 19);
  t.attr("mode", "cubic")
      .input("X", Tensor::fromVector<float>({1, 1, 4, 4}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 0.800000012, 0.800000012}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 3, 3}, {1.47119141, 2.78125, 4.08251953, 6.71142578, 8.02148438, 9.32275391, 11.9165039, 13.2265625, 14.527832}));
  t.run();
}

TEST(ResizeOnnxNodeTests, ResizeDownsampleScalesCubicAN0p5ExcludeOutside) {
  OpTester t("Resize", 19);
  t.attr("cubic_coeff_a", -0.5f).attr("exclude_outside", int64_t{1}).attr("mode", "cubic")
      .input("X", Tensor::fromVector<float>({1, 1, 4, 4}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 0.800000012, 0.800000012}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 3, 3}, {1.36812675, 2.6695013, 4.01333666, 6.57362509, 7.875, 9.21883488, 11.948966, 13.2503414, 14.5941763}));
  t.run();
}

TEST(ResizeOnnxNodeTests, ResizeDownsampleScalesCubicAlignCorners) {
  // Expected = the test data. length_resized is fractional here (scale * input,
  // e.g. 4 * 0.8 = 3.2); onnxruntime 1.32 uses the integer output length instead
  // and gives other values (see src/ops/cpu/resize.cpp, sourceCoord).
  OpTester t("Resize", 19);
  t.attr("coordinate_transformation_mode", "align_corners").attr("mode", "cubic")
      .input("X", Tensor::fromVector<float>({1, 1, 4, 4}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 0.800000012, 0.800000012}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 3, 3}, {1, 2.39519167, 3.7903831, 6.5807662, 7.97595787, 9.37114906, 12.1615324, 13.5567236, 14.9519157}));
  t.run();
}

TEST(ResizeOnnxNodeTests, ResizeDownsampleScalesCubicAntialias) {
  OpTester t("Resize", 19);
  t.attr("antialias", int64_t{1}).attr("mode", "cubic")
      .input("X", Tensor::fromVector<float>({1, 1, 4, 4}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 0.600000024, 0.600000024}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 2, 2}, {2.51807213, 4.28588629, 9.58932877, 11.3571424}));
  t.run();
}

TEST(ResizeOnnxNodeTests, ResizeDownsampleScalesLinear) {
  OpTester t("Resize", 19);
  t.attr("mode", "linear")
      .input("X", Tensor::fromVector<float>({1, 1, 2, 4}, {1, 2, 3, 4, 5, 6, 7, 8}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 0.600000024, 0.600000024}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 1, 2}, {2.66666651, 4.33333302}));
  t.run();
}

TEST(ResizeOnnxNodeTests, ResizeDownsampleScalesLinearAlignCorners) {
  // Expected = the test data. length_resized is fractional here (scale * input,
  // e.g. 4 * 0.8 = 3.2); onnxruntime 1.32 uses the integer output length instead
  // and gives other values (see src/ops/cpu/resize.cpp, sourceCoord).
  OpTester t("Resize", 19);
  t.attr("coordinate_transformation_mode", "align_corners").attr("mode", "linear")
      .input("X", Tensor::fromVector<float>({1, 1, 2, 4}, {1, 2, 3, 4, 5, 6, 7, 8}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 0.600000024, 0.600000024}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 1, 2}, {1, 3.14285707}));
  t.run();
}

TEST(ResizeOnnxNodeTests, ResizeDownsampleScalesLinearAntialias) {
  OpTester t("Resize", 19);
  t.attr("antialias", int64_t{1}).attr("mode", "linear")
      .input("X", Tensor::fromVector<float>({1, 1, 4, 4}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 0.600000024, 0.600000024}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 2, 2}, {2.875, 4.5, 9.375, 11}));
  t.run();
}

TEST(ResizeOnnxNodeTests, ResizeDownsampleScalesLinearHalfPixelSymmetric) {
  OpTester t("Resize", 19);
  t.attr("coordinate_transformation_mode", "half_pixel_symmetric").attr("mode", "linear")
      .input("X", Tensor::fromVector<float>({1, 1, 1, 4}, {1, 2, 3, 4}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 1, 0.600000024}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 1, 2}, {1.66666675, 3.33333325}));
  t.run();
}

TEST(ResizeOnnxNodeTests, ResizeDownsampleScalesNearest) {
  OpTester t("Resize", 19);
  t.attr("mode", "nearest")
      .input("X", Tensor::fromVector<float>({1, 1, 2, 4}, {1, 2, 3, 4, 5, 6, 7, 8}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 0.600000024, 0.600000024}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 1, 2}, {1, 3}));
  t.run();
}

TEST(ResizeOnnxNodeTests, ResizeDownsampleSizesCubic) {
  OpTester t("Resize", 19);
  t.attr("mode", "cubic")
      .input("X", Tensor::fromVector<float>({1, 1, 4, 4}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}), false)
      .absentInput()
      .absentInput()
      .input("sizes", Tensor::fromVector<int64_t>({4}, {1, 1, 3, 3}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 3, 3}, {1.63078701, 3.00462961, 4.37847233, 7.12615728, 8.5, 9.87384224, 12.6215277, 13.9953699, 15.3692131}));
  t.run();
}

TEST(ResizeOnnxNodeTests, ResizeDownsampleSizesCubicAntialias) {
  OpTester t("Resize", 19);
  t.attr("antialias", int64_t{1}).attr("mode", "cubic")
      .input("X", Tensor::fromVector<float>({1, 1, 4, 4}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}), false)
      .absentInput()
      .absentInput()
      .input("sizes", Tensor::fromVector<int64_t>({4}, {1, 1, 3, 3}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 3, 3}, {1.77500916, 3.12000728, 4.4650054, 7.15500164, 8.5, 9.84499836, 12.5349941, 13.8799925, 15.2249908}));
  t.run();
}

TEST(ResizeOnnxNodeTests, ResizeDownsampleSizesLinearAntialias) {
  OpTester t("Resize", 19);
  t.attr("antialias", int64_t{1}).attr("mode", "linear")
      .input("X", Tensor::fromVector<float>({1, 1, 4, 4}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}), false)
      .absentInput()
      .absentInput()
      .input("sizes", Tensor::fromVector<int64_t>({4}, {1, 1, 3, 3}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 3, 3}, {2.36363626, 3.590909, 4.81818199, 7.27272749, 8.5, 9.72727299, 12.181818, 13.409091, 14.636364}));
  t.run();
}

TEST(ResizeOnnxNodeTests, ResizeDownsampleSizesLinearPytorchHalfPixel) {
  OpTester t("Resize", 19);
  t.attr("coordinate_transformation_mode", "pytorch_half_pixel").attr("mode", "linear")
      .input("X", Tensor::fromVector<float>({1, 1, 4, 4}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}), false)
      .absentInput()
      .absentInput()
      .input("sizes", Tensor::fromVector<int64_t>({4}, {1, 1, 3, 1}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 3, 1}, {1.66666663, 7, 12.333333}));
  t.run();
}

TEST(ResizeOnnxNodeTests, ResizeDownsampleSizesNearest) {
  OpTester t("Resize", 19);
  t.attr("mode", "nearest")
      .input("X", Tensor::fromVector<float>({1, 1, 2, 4}, {1, 2, 3, 4, 5, 6, 7, 8}), false)
      .absentInput()
      .absentInput()
      .input("sizes", Tensor::fromVector<int64_t>({4}, {1, 1, 1, 3}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 1, 3}, {1, 2, 4}));
  t.run();
}

TEST(ResizeOnnxNodeTests, ResizeDownsampleSizesNearestNotLarger) {
  OpTester t("Resize", 19);
  t.attr("axes", std::vector<int64_t>{2, 3}).attr("keep_aspect_ratio_policy", "not_larger").attr("mode", "nearest")
      .input("X", Tensor::fromVector<float>({1, 1, 2, 4}, {1, 2, 3, 4, 5, 6, 7, 8}), false)
      .absentInput()
      .absentInput()
      .input("sizes", Tensor::fromVector<int64_t>({2}, {1, 3}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 1, 2}, {1, 3}));
  t.run();
}

TEST(ResizeOnnxNodeTests, ResizeDownsampleSizesNearestNotSmaller) {
  OpTester t("Resize", 19);
  t.attr("axes", std::vector<int64_t>{2, 3}).attr("keep_aspect_ratio_policy", "not_smaller").attr("mode", "nearest")
      .input("X", Tensor::fromVector<float>({1, 1, 2, 4}, {1, 2, 3, 4, 5, 6, 7, 8}), false)
      .absentInput()
      .absentInput()
      .input("sizes", Tensor::fromVector<int64_t>({2}, {1, 3}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 2, 3}, {1, 2, 4, 5, 6, 8}));
  t.run();
}

TEST(ResizeOnnxNodeTests, ResizeTfCropAndResize) {
  OpTester t("Resize", 19);
  t.attr("coordinate_transformation_mode", "tf_crop_and_resize").attr("mode", "linear")
      .input("X", Tensor::fromVector<float>({1, 1, 4, 4}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}), false)
      .input("roi", Tensor::fromVector<float>({8}, {0, 0, 0.400000006, 0.600000024, 1, 1, 0.600000024, 0.800000012}), true)
      .absentInput()
      .input("sizes", Tensor::fromVector<int64_t>({4}, {1, 1, 3, 3}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 3, 3}, {7.60000038, 7.9000001, 8.19999981, 8.80000019, 9.10000038, 9.40000057, 10, 10.3000002, 10.6000004}));
  t.run();
}

TEST(ResizeOnnxNodeTests, ResizeTfCropAndResizeAxes23) {
  OpTester t("Resize", 19);
  t.attr("axes", std::vector<int64_t>{2, 3}).attr("coordinate_transformation_mode", "tf_crop_and_resize").attr("mode", "linear")
      .input("X", Tensor::fromVector<float>({1, 1, 4, 4}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}), false)
      .input("roi", Tensor::fromVector<float>({4}, {0.400000006, 0.600000024, 0.600000024, 0.800000012}), true)
      .absentInput()
      .input("sizes", Tensor::fromVector<int64_t>({2}, {3, 3}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 3, 3}, {7.60000038, 7.9000001, 8.19999981, 8.80000019, 9.10000038, 9.40000057, 10, 10.3000002, 10.6000004}));
  t.run();
}

TEST(ResizeOnnxNodeTests, ResizeTfCropAndResizeAxes32) {
  OpTester t("Resize", 19);
  t.attr("axes", std::vector<int64_t>{3, 2}).attr("coordinate_transformation_mode", "tf_crop_and_resize").attr("mode", "linear")
      .input("X", Tensor::fromVector<float>({1, 1, 4, 4}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}), false)
      .input("roi", Tensor::fromVector<float>({4}, {0.600000024, 0.400000006, 0.800000012, 0.600000024}), true)
      .absentInput()
      .input("sizes", Tensor::fromVector<int64_t>({2}, {3, 3}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 3, 3}, {7.60000038, 7.9000001, 8.19999981, 8.80000019, 9.10000038, 9.40000057, 10, 10.3000002, 10.6000004}));
  t.run();
}

TEST(ResizeOnnxNodeTests, ResizeTfCropAndResizeExtrapolationValue) {
  OpTester t("Resize", 19);
  t.attr("coordinate_transformation_mode", "tf_crop_and_resize").attr("extrapolation_value", 10.0f).attr("mode", "linear")
      .input("X", Tensor::fromVector<float>({1, 1, 4, 4}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}), false)
      .input("roi", Tensor::fromVector<float>({8}, {0, 0, 0.400000006, 0.600000024, 1, 1, 1.20000005, 1.70000005}), true)
      .absentInput()
      .input("sizes", Tensor::fromVector<int64_t>({4}, {1, 1, 3, 3}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 3, 3}, {7.60000038, 10, 10, 12.4000006, 10, 10, 10, 10, 10}));
  t.run();
}

TEST(ResizeOnnxNodeTests, ResizeUpsampleScalesCubic) {
  OpTester t("Resize", 19);
  t.attr("mode", "cubic")
      .input("X", Tensor::fromVector<float>({1, 1, 4, 4}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 2, 2}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 8, 8}, {0.47265625, 0.76953125, 1.24609375, 1.875, 2.28125, 2.91015625, 3.38671875, 3.68359375, 1.66015625, 1.95703125, 2.43359375, 3.0625, 3.46875, 4.09765625, 4.57421875, 4.87109375, 3.56640625, 3.86328125, 4.33984375, 4.96875, 5.375, 6.00390625, 6.48046875, 6.77734375, 6.08203125, 6.37890625, 6.85546875, 7.484375, 7.890625, 8.51953125, 8.99609375, 9.29296875, 7.70703125, 8.00390625, 8.48046875, 9.109375, 9.515625, 10.1445312, 10.6210938, 10.9179688, 10.2226562, 10.5195312, 10.9960938, 11.625, 12.03125, 12.6601562, 13.1367188, 13.4335938, 12.1289062, 12.4257812, 12.9023438, 13.53125, 13.9375, 14.5664062, 15.0429688, 15.3398438, 13.3164062, 13.6132812, 14.0898438, 14.71875, 15.125, 15.7539062, 16.2304688, 16.5273438}));
  t.run();
}

TEST(ResizeOnnxNodeTests, ResizeUpsampleScalesCubicAN0p5ExcludeOutside) {
  OpTester t("Resize", 19);
  t.attr("cubic_coeff_a", -0.5f).attr("exclude_outside", int64_t{1}).attr("mode", "cubic")
      .input("X", Tensor::fromVector<float>({1, 1, 4, 4}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 2, 2}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 8, 8}, {0.558823526, 0.814942062, 1.35698247, 1.89705884, 2.39705873, 2.93713522, 3.47917557, 3.7352941, 1.58329761, 1.83941603, 2.38145661, 2.92153287, 3.42153287, 3.96160913, 4.50364971, 4.75976801, 3.75145936, 4.0075779, 4.54961824, 5.0896945, 5.5896945, 6.12977076, 6.67181158, 6.92792988, 5.91176462, 6.1678834, 6.70992374, 7.25, 7.75, 8.29007626, 8.83211708, 9.0882349, 7.91176462, 8.16788292, 8.70992374, 9.25, 9.75, 10.2900763, 10.8321171, 11.0882349, 10.0720701, 10.3281889, 10.8702288, 11.410305, 11.910305, 12.4503813, 12.9924221, 13.2485409, 12.2402315, 12.4963503, 13.0383911, 13.5784674, 14.0784674, 14.6185436, 15.1605835, 15.4167023, 13.2647057, 13.5208244, 14.0628653, 14.6029415, 15.1029415, 15.6430178, 16.1850586, 16.4411774}));
  t.run();
}

TEST(ResizeOnnxNodeTests, ResizeUpsampleScalesCubicAlignCorners) {
  OpTester t("Resize", 19);
  t.attr("coordinate_transformation_mode", "align_corners").attr("mode", "cubic")
      .input("X", Tensor::fromVector<float>({1, 1, 4, 4}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 2, 2}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 8, 8}, {1, 1.34110785, 1.80029154, 2.32944608, 2.67055392, 3.19970846, 3.65889215, 4, 2.36443138, 2.70553946, 3.16472292, 3.69387746, 4.03498554, 4.56413984, 5.02332354, 5.36443138, 4.20116615, 4.542274, 5.00145769, 5.53061247, 5.87172031, 6.40087461, 6.86005831, 7.20116615, 6.31778431, 6.65889215, 7.11807585, 7.64723015, 7.98833799, 8.51749229, 8.97667599, 9.31778431, 7.68221569, 8.02332401, 8.48250771, 9.01166153, 9.35276985, 9.88192463, 10.3411083, 10.6822157, 9.79883385, 10.1399412, 10.5991249, 11.1282797, 11.469388, 11.9985418, 12.4577255, 12.7988338, 11.6355686, 11.976676, 12.4358597, 12.9650145, 13.3061228, 13.8352766, 14.2944603, 14.6355686, 13, 13.3411083, 13.800292, 14.3294458, 14.6705542, 15.199708, 15.6588917, 16}));
  t.run();
}

TEST(ResizeOnnxNodeTests, ResizeUpsampleScalesCubicAsymmetric) {
  OpTester t("Resize", 19);
  t.attr("coordinate_transformation_mode", "asymmetric").attr("mode", "cubic")
      .input("X", Tensor::fromVector<float>({1, 1, 4, 4}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 2, 2}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 8, 8}, {1, 1.40625, 2, 2.5, 3, 3.59375, 4, 4.09375, 2.625, 3.03125, 3.625, 4.125, 4.625, 5.21875, 5.625, 5.71875, 5, 5.40625, 6, 6.5, 7, 7.59375, 8, 8.09375, 7, 7.40625, 8, 8.5, 9, 9.59375, 10, 10.09375, 9, 9.40625, 10, 10.5, 11, 11.59375, 12, 12.09375, 11.375, 11.78125, 12.375, 12.875, 13.375, 13.96875, 14.375, 14.46875, 13, 13.40625, 14, 14.5, 15, 15.59375, 16, 16.09375, 13.375, 13.78125, 14.375, 14.875, 15.375, 15.96875, 16.375, 16.46875}));
  t.run();
}

TEST(ResizeOnnxNodeTests, ResizeUpsampleScalesLinear) {
  OpTester t("Resize", 19);
  t.attr("mode", "linear")
      .input("X", Tensor::fromVector<float>({1, 1, 2, 2}, {1, 2, 3, 4}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 2, 2}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 4, 4}, {1, 1.25, 1.75, 2, 1.5, 1.75, 2.25, 2.5, 2.5, 2.75, 3.25, 3.5, 3, 3.25, 3.75, 4}));
  t.run();
}

TEST(ResizeOnnxNodeTests, ResizeUpsampleScalesLinearAlignCorners) {
  OpTester t("Resize", 19);
  t.attr("coordinate_transformation_mode", "align_corners").attr("mode", "linear")
      .input("X", Tensor::fromVector<float>({1, 1, 2, 2}, {1, 2, 3, 4}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 2, 2}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 4, 4}, {1, 1.33333337, 1.66666663, 2, 1.66666663, 2, 2.33333325, 2.66666675, 2.33333325, 2.66666675, 3, 3.33333325, 3, 3.33333325, 3.66666675, 4}));
  t.run();
}

TEST(ResizeOnnxNodeTests, ResizeUpsampleScalesLinearHalfPixelSymmetric) {
  OpTester t("Resize", 19);
  t.attr("coordinate_transformation_mode", "half_pixel_symmetric").attr("mode", "linear")
      .input("X", Tensor::fromVector<float>({1, 1, 2, 2}, {1, 2, 3, 4}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 2.29999995, 2.94000006}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 4, 5}, {1, 1.15986395, 1.5, 1.84013605, 2, 1.56521738, 1.72508132, 2.06521749, 2.40535355, 2.56521749, 2.43478251, 2.59464645, 2.93478251, 3.27491856, 3.43478251, 3, 3.15986395, 3.5, 3.84013605, 4}));
  t.run();
}

TEST(ResizeOnnxNodeTests, ResizeUpsampleScalesNearest) {
  OpTester t("Resize", 19);
  t.attr("mode", "nearest")
      .input("X", Tensor::fromVector<float>({1, 1, 2, 2}, {1, 2, 3, 4}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 2, 3}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 4, 6}, {1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 3, 3, 3, 4, 4, 4}));
  t.run();
}

TEST(ResizeOnnxNodeTests, ResizeUpsampleScalesNearestAxes23) {
  OpTester t("Resize", 19);
  t.attr("axes", std::vector<int64_t>{2, 3}).attr("mode", "nearest")
      .input("X", Tensor::fromVector<float>({1, 1, 2, 2}, {1, 2, 3, 4}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({2}, {2, 3}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 4, 6}, {1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 3, 3, 3, 4, 4, 4}));
  t.run();
}

TEST(ResizeOnnxNodeTests, ResizeUpsampleScalesNearestAxes32) {
  OpTester t("Resize", 19);
  t.attr("axes", std::vector<int64_t>{3, 2}).attr("mode", "nearest")
      .input("X", Tensor::fromVector<float>({1, 1, 2, 2}, {1, 2, 3, 4}), false)
      .absentInput()
      .input("scales", Tensor::fromVector<float>({2}, {3, 2}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 4, 6}, {1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 3, 3, 3, 4, 4, 4}));
  t.run();
}

TEST(ResizeOnnxNodeTests, ResizeUpsampleSizesCubic) {
  OpTester t("Resize", 19);
  t.attr("mode", "cubic")
      .input("X", Tensor::fromVector<float>({1, 1, 4, 4}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}), false)
      .absentInput()
      .absentInput()
      .input("sizes", Tensor::fromVector<int64_t>({4}, {1, 1, 9, 10}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 9, 10}, {0.455079228, 0.640579224, 0.971579194, 1.42257917, 1.9073292, 2.22332931, 2.7080791, 3.15907931, 3.49007916, 3.67557931, 1.39437962, 1.57987964, 1.91087961, 2.36187959, 2.84662962, 3.1626296, 3.64737964, 4.09837961, 4.42937946, 4.61487961, 2.95130682, 3.13680696, 3.46780682, 3.91880703, 4.40355682, 4.71955681, 5.20430708, 5.65530682, 5.98630714, 6.17180681, 5.20525074, 5.39075089, 5.72175074, 6.17275047, 6.65750074, 6.97350073, 7.45825052, 7.90925074, 8.24025059, 8.42575073, 6.88975, 7.07525015, 7.40625, 7.85725021, 8.34200001, 8.65799999, 9.14274979, 9.59375, 9.92475033, 10.1102505, 8.57424927, 8.75974941, 9.09074974, 9.541749, 10.0264997, 10.3424997, 10.8272495, 11.2782497, 11.6092491, 11.7947493, 10.8281927, 11.0136929, 11.3446932, 11.7956934, 12.2804432, 12.5964432, 13.081193, 13.5321932, 13.8631935, 14.0486927, 12.3851204, 12.5706205, 12.9016199, 13.3526201, 13.8373699, 14.1533699, 14.6381207, 15.0891199, 15.4201202, 15.6056204, 13.3244209, 13.5099211, 13.8409204, 14.2919207, 14.7766705, 15.0926704, 15.5774212, 16.0284214, 16.3594208, 16.54492}));
  t.run();
}

TEST(ResizeOnnxNodeTests, ResizeUpsampleSizesNearest) {
  OpTester t("Resize", 19);
  t.attr("mode", "nearest")
      .input("X", Tensor::fromVector<float>({1, 1, 2, 2}, {1, 2, 3, 4}), false)
      .absentInput()
      .absentInput()
      .input("sizes", Tensor::fromVector<int64_t>({4}, {1, 1, 7, 8}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 7, 8}, {1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 3, 3, 3, 3, 4, 4, 4, 4, 3, 3, 3, 3, 4, 4, 4, 4}));
  t.run();
}

TEST(ResizeOnnxNodeTests, ResizeUpsampleSizesNearestAxes23) {
  OpTester t("Resize", 19);
  t.attr("axes", std::vector<int64_t>{2, 3}).attr("mode", "nearest")
      .input("X", Tensor::fromVector<float>({1, 1, 2, 2}, {1, 2, 3, 4}), false)
      .absentInput()
      .absentInput()
      .input("sizes", Tensor::fromVector<int64_t>({2}, {7, 8}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 7, 8}, {1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 3, 3, 3, 3, 4, 4, 4, 4, 3, 3, 3, 3, 4, 4, 4, 4}));
  t.run();
}

TEST(ResizeOnnxNodeTests, ResizeUpsampleSizesNearestAxes32) {
  OpTester t("Resize", 19);
  t.attr("axes", std::vector<int64_t>{3, 2}).attr("mode", "nearest")
      .input("X", Tensor::fromVector<float>({1, 1, 2, 2}, {1, 2, 3, 4}), false)
      .absentInput()
      .absentInput()
      .input("sizes", Tensor::fromVector<int64_t>({2}, {8, 7}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 7, 8}, {1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 3, 3, 3, 3, 4, 4, 4, 4, 3, 3, 3, 3, 4, 4, 4, 4}));
  t.run();
}

TEST(ResizeOnnxNodeTests, ResizeUpsampleSizesNearestCeilHalfPixel) {
  OpTester t("Resize", 19);
  t.attr("coordinate_transformation_mode", "half_pixel").attr("mode", "nearest").attr("nearest_mode", "ceil")
      .input("X", Tensor::fromVector<float>({1, 1, 4, 4}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}), false)
      .absentInput()
      .absentInput()
      .input("sizes", Tensor::fromVector<int64_t>({4}, {1, 1, 8, 8}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 8, 8}, {1, 2, 2, 3, 3, 4, 4, 4, 5, 6, 6, 7, 7, 8, 8, 8, 5, 6, 6, 7, 7, 8, 8, 8, 9, 10, 10, 11, 11, 12, 12, 12, 9, 10, 10, 11, 11, 12, 12, 12, 13, 14, 14, 15, 15, 16, 16, 16, 13, 14, 14, 15, 15, 16, 16, 16, 13, 14, 14, 15, 15, 16, 16, 16}));
  t.run();
}

TEST(ResizeOnnxNodeTests, ResizeUpsampleSizesNearestFloorAlignCorners) {
  OpTester t("Resize", 19);
  t.attr("coordinate_transformation_mode", "align_corners").attr("mode", "nearest").attr("nearest_mode", "floor")
      .input("X", Tensor::fromVector<float>({1, 1, 4, 4}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}), false)
      .absentInput()
      .absentInput()
      .input("sizes", Tensor::fromVector<int64_t>({4}, {1, 1, 8, 8}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 8, 8}, {1, 1, 1, 2, 2, 3, 3, 4, 1, 1, 1, 2, 2, 3, 3, 4, 1, 1, 1, 2, 2, 3, 3, 4, 5, 5, 5, 6, 6, 7, 7, 8, 5, 5, 5, 6, 6, 7, 7, 8, 9, 9, 9, 10, 10, 11, 11, 12, 9, 9, 9, 10, 10, 11, 11, 12, 13, 13, 13, 14, 14, 15, 15, 16}));
  t.run();
}

TEST(ResizeOnnxNodeTests, ResizeUpsampleSizesNearestNotLarger) {
  OpTester t("Resize", 19);
  t.attr("axes", std::vector<int64_t>{2, 3}).attr("keep_aspect_ratio_policy", "not_larger").attr("mode", "nearest")
      .input("X", Tensor::fromVector<float>({1, 1, 2, 2}, {1, 2, 3, 4}), false)
      .absentInput()
      .absentInput()
      .input("sizes", Tensor::fromVector<int64_t>({2}, {7, 8}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 7, 7}, {1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 3, 3, 3, 3, 4, 4, 4, 3, 3, 3, 3, 4, 4, 4}));
  t.run();
}

TEST(ResizeOnnxNodeTests, ResizeUpsampleSizesNearestNotSmaller) {
  OpTester t("Resize", 19);
  t.attr("axes", std::vector<int64_t>{2, 3}).attr("keep_aspect_ratio_policy", "not_smaller").attr("mode", "nearest")
      .input("X", Tensor::fromVector<float>({1, 1, 2, 2}, {1, 2, 3, 4}), false)
      .absentInput()
      .absentInput()
      .input("sizes", Tensor::fromVector<int64_t>({2}, {7, 8}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 8, 8}, {1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 3, 3, 3, 3, 4, 4, 4, 4, 3, 3, 3, 3, 4, 4, 4, 4, 3, 3, 3, 3, 4, 4, 4, 4}));
  t.run();
}

TEST(ResizeOnnxNodeTests, ResizeUpsampleSizesNearestRoundPreferCeilAsymmetric) {
  OpTester t("Resize", 19);
  t.attr("coordinate_transformation_mode", "asymmetric").attr("mode", "nearest").attr("nearest_mode", "round_prefer_ceil")
      .input("X", Tensor::fromVector<float>({1, 1, 4, 4}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}), false)
      .absentInput()
      .absentInput()
      .input("sizes", Tensor::fromVector<int64_t>({4}, {1, 1, 8, 8}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 8, 8}, {1, 2, 2, 3, 3, 4, 4, 4, 5, 6, 6, 7, 7, 8, 8, 8, 5, 6, 6, 7, 7, 8, 8, 8, 9, 10, 10, 11, 11, 12, 12, 12, 9, 10, 10, 11, 11, 12, 12, 12, 13, 14, 14, 15, 15, 16, 16, 16, 13, 14, 14, 15, 15, 16, 16, 16, 13, 14, 14, 15, 15, 16, 16, 16}));
  t.run();
}

TEST(ResizeOnnxNodeTests, UpsampleNearest) {
  OpTester t("Upsample", 9);
  t.attr("mode", "nearest")
      .input("X", Tensor::fromVector<float>({1, 1, 2, 2}, {1, 2, 3, 4}), false)
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 2, 3}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 4, 6}, {1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 3, 3, 3, 4, 4, 4}));
  t.run();
}
}  // namespace
}  // namespace oinfer::testing
