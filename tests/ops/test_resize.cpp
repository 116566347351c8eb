// Resize / Upsample: runtime-valued scales, the shape function with symbolic
// dims, and error paths. Value coverage of every mode lives in
// test_resize_cases.cpp (against onnxruntime, or onnx.reference where the two
// differ) and test_resize_onnx.cpp (the ONNX backend node tests).
#include <gtest/gtest.h>

#include "op_tester.h"
#include "ops/registry.h"
#include "shape/resize.h"
#include "ir_util.h"

namespace oinfer::testing {
namespace {

Tensor x34() {
  return Tensor::fromVector<float>({1, 1, 3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
}

// Scales fed at run time (not constant): the shape function leaves the
// resized dims symbolic and the kernel sizes the output itself.
TEST(Resize, ScalesKnownOnlyAtRunTime) {
  // x = np.arange(12, dtype=np.float32).reshape(1, 1, 3, 4)
  // onnxruntime Resize-13(x, None, [1, 1, 2, 0.5]), mode="linear"
  OpTester t("Resize", 13);
  t.attr("mode", "linear")
      .input("X", x34())
      .absentInput()
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 2, 0.5f}))
      .expect("Y", Tensor::fromVector<float>({1, 1, 6, 2}, {0.5, 2.5, 1.5, 3.5, 3.5, 5.5, 5.5, 7.5, 7.5, 9.5,
                                                           8.5, 10.5}));
  t.run();
}

// Empty scales with sizes given: the empty tensor counts as absent.
TEST(Resize, EmptyScalesWithSizes) {
  // onnxruntime Resize-13(x, roi=[], scales=[], sizes=[1, 1, 6, 2]), mode="linear"
  OpTester t("Resize", 13);
  t.attr("mode", "linear")
      .input("X", x34())
      .input("roi", Tensor(DataType::kFloat, {0}), true)
      .input("scales", Tensor(DataType::kFloat, {0}), true)
      .input("sizes", Tensor::fromVector<int64_t>({4}, {1, 1, 6, 2}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 6, 2}, {0.5, 2.5, 1.5, 3.5, 3.5, 5.5, 5.5, 7.5, 7.5, 9.5,
                                                           8.5, 10.5}));
  t.run();
}

struct ShapeRun {
  Node node;
  std::vector<ValueInfo> infos;
  std::vector<Tensor> values;
  std::vector<std::vector<Dim>> symValues;
};

// Runs the shape function alone on X with `xShape`, constant scales / sizes.
ValueInfo inferOnly(int64_t opset, const Shape& xShape, const Tensor* scales, const std::vector<Dim>* sizes,
                    const std::vector<int64_t>& axes = {}) {
  Node node;
  node.name = "r";
  node.opType = "Resize";
  node.inputs = {"X", "", scales ? "scales" : "", sizes ? "sizes" : ""};
  node.outputs = {"Y"};
  if (!axes.empty()) {
    Attribute a;
    a.name = "axes";
    a.type = AttrType::kInts;
    a.ints = axes;
    node.attributes.push_back(a);
  }
  shape::SymbolGenerator symbols;
  shape::InferContext ctx(node, opset, symbols);
  ValueInfo x{"X", ValueKind::kTensor, DataType::kFloat, true, xShape};
  ValueInfo s{"scales", ValueKind::kTensor, DataType::kFloat, true, {scales ? Dim(scales->numel()) : Dim(0)}};
  ValueInfo z{"sizes", ValueKind::kTensor, DataType::kInt64, true,
              {Dim(sizes ? static_cast<int64_t>(sizes->size()) : 0)}};
  ctx.inputs_ = {&x, nullptr, scales ? &s : nullptr, sizes ? &z : nullptr};
  ctx.values_ = {nullptr, nullptr, scales, nullptr};
  ctx.symValues_ = {nullptr, nullptr, nullptr, sizes};
  ctx.outputs_.resize(1);
  ctx.outputSet_.assign(1, false);
  ctx.outputValues_.resize(1);
  ctx.outputSymValues_.resize(1);
  builtinRegistry().find("", "Resize", opset)->shape(ctx);
  return ctx.outputs_[0];
}

TEST(ResizeShape, SymbolicDimsKeptWhereScaleIsOne) {
  Tensor scales = Tensor::fromVector<float>({4}, {1, 1, 2.5f, 0.6f});
  ValueInfo y = inferOnly(13, {Dim::sym("N"), Dim(3), Dim::sym("H"), Dim(5)}, &scales, nullptr);
  ASSERT_TRUE(y.hasShape);
  ASSERT_EQ(y.shape.size(), 4u);
  EXPECT_EQ(y.shape[0], Dim::sym("N"));
  EXPECT_EQ(y.shape[1], Dim(3));
  EXPECT_FALSE(y.shape[2].isStatic());  // 2.5 * H: a fresh symbol
  EXPECT_NE(y.shape[2], Dim::sym("H"));
  EXPECT_EQ(y.shape[3], Dim(3));  // floor(5 * 0.6)
}

TEST(ResizeShape, SymbolicSizesPassThrough) {
  std::vector<Dim> sizes = {Dim::sym("outH"), Dim(7)};
  ValueInfo y = inferOnly(18, {Dim::sym("N"), Dim(3), Dim(4), Dim(5)}, nullptr, &sizes, {2, 3});
  ASSERT_EQ(y.shape.size(), 4u);
  EXPECT_EQ(shapeToString(y.shape), "[N,3,outH,7]");
}

TEST(ResizeShape, UnknownScalesGiveFreshDimsOfSameRank) {
  Node node;
  node.name = "r";
  node.opType = "Resize";
  node.inputs = {"X", "", "scales"};
  node.outputs = {"Y"};
  shape::SymbolGenerator symbols;
  shape::InferContext ctx(node, 13, symbols);
  ValueInfo x{"X", ValueKind::kTensor, DataType::kFloat, true, {Dim(1), Dim(3), Dim(8), Dim(8)}};
  ValueInfo s{"scales", ValueKind::kTensor, DataType::kFloat, true, {Dim(4)}};
  ctx.inputs_ = {&x, nullptr, &s};
  ctx.values_ = {nullptr, nullptr, nullptr};
  ctx.symValues_ = {nullptr, nullptr, nullptr};
  ctx.outputs_.resize(1);
  ctx.outputSet_.assign(1, false);
  ctx.outputValues_.resize(1);
  ctx.outputSymValues_.resize(1);
  shape::inferResize(ctx);
  ASSERT_EQ(ctx.outputs_[0].shape.size(), 4u);
  for (const Dim& d : ctx.outputs_[0].shape) EXPECT_FALSE(d.isStatic());
}

TEST(ResizeShape, ScalesRoundDown) {
  Tensor scales = Tensor::fromVector<float>({4}, {1, 1, 0.8f, 1.3f});
  ValueInfo y = inferOnly(19, {Dim(1), Dim(1), Dim(4), Dim(5)}, &scales, nullptr);
  EXPECT_EQ(shapeToString(y.shape), "[1,1,3,6]");  // floor(3.2), floor(6.5)
}

// ---- errors ------------------------------------------------------------------

TEST(ResizeErrors, BothScalesAndSizes) {
  OpTester t("Resize", 13);
  t.input("X", x34())
      .absentInput()
      .constantInput("scales", Tensor::fromVector<float>({4}, {1, 1, 2, 2}))
      .constantInput("sizes", Tensor::fromVector<int64_t>({4}, {1, 1, 6, 8}))
      .output("Y");
  t.expectError("node 'Resize_under_test' (Resize): both 'scales' (input 2 ('scales')) and 'sizes' "
                "(input 3 ('sizes')) are given");
}

TEST(ResizeErrors, NeitherScalesNorSizes) {
  OpTester t("Resize", 13);
  t.input("X", x34()).output("Y");
  t.expectError("neither 'scales' nor 'sizes' is given");
}

TEST(ResizeErrors, ScalesLengthDiffersFromRank) {
  OpTester t("Resize", 13);
  t.input("X", x34()).absentInput().constantInput("scales", Tensor::fromVector<float>({3}, {1, 2, 2})).output("Y");
  t.expectError("node 'Resize_under_test' (Resize): input 2 ('scales') has 3 values but input 0 ('X') has rank 4 "
                "(expected 4)");
}

TEST(ResizeErrors, SizesLengthDiffersFromAxes) {
  OpTester t("Resize", 18);
  t.attr("axes", std::vector<int64_t>{2, 3})
      .input("X", x34())
      .absentInput()
      .absentInput()
      .constantInput("sizes", Tensor::fromVector<int64_t>({4}, {1, 1, 6, 8}))
      .output("Y");
  t.expectError("input 3 ('sizes') has 4 values but attribute 'axes' has 2 entries (expected 2)");
}

TEST(ResizeErrors, NonPositiveScale) {
  OpTester t("Resize", 13);
  t.input("X", x34()).absentInput().constantInput("scales", Tensor::fromVector<float>({4}, {1, 1, 0, 2})).output("Y");
  t.expectError("input 2 ('scales') value 2 is 0.000000; scales must be positive");
}

TEST(ResizeErrors, NonPositiveScaleAtRunTime) {
  OpTester t("Resize", 13);
  t.input("X", x34()).absentInput().input("scales", Tensor::fromVector<float>({4}, {1, 1, -2, 2})).output("Y");
  t.expectError("input 2 ('scales') value 2 is -2.000000; scales must be positive");
}

TEST(ResizeErrors, UnknownMode) {
  OpTester t("Resize", 13);
  t.attr("mode", "bicubic").input("X", x34()).absentInput().constantInput(
      "scales", Tensor::fromVector<float>({4}, {1, 1, 2, 2})).output("Y");
  t.expectError("attribute 'mode' has unsupported value 'bicubic'");
}

TEST(ResizeErrors, UnknownCoordinateMode) {
  OpTester t("Resize", 19);
  t.attr("coordinate_transformation_mode", "tf_half_pixel")
      .input("X", x34())
      .absentInput()
      .constantInput("scales", Tensor::fromVector<float>({4}, {1, 1, 2, 2}))
      .output("Y");
  t.expectError("attribute 'coordinate_transformation_mode' has unsupported value 'tf_half_pixel'");
}

TEST(ResizeErrors, Upsample7ScalesAttributeLength) {
  OpTester t("Upsample", 7);
  t.attr("scales", std::vector<float>{1, 2}).input("X", x34()).output("Y");
  t.expectError("attribute 'scales' has 2 values but input 0 ('X') has rank 4 (expected 4)");
}

TEST(ResizeErrors, RoiLength) {
  OpTester t("Resize", 13);
  t.attr("mode", "linear")
      .attr("coordinate_transformation_mode", "tf_crop_and_resize")
      .input("X", x34())
      .constantInput("roi", Tensor::fromVector<float>({4}, {0, 0, 1, 1}))
      .constantInput("scales", Tensor::fromVector<float>({4}, {1, 1, 2, 2}))
      .output("Y");
  t.expectError("input 1 ('roi') has 4 values but expected 8");
}

// length_resized with scales vs sizes. With scales the spec's length_resized
// is scale * input (scale = length_resized / length_original), fractional when
// scale * input is not an integer; onnx.reference and the ONNX backend data
// use it in align_corners, pytorch_half_pixel and tf_crop_and_resize, and so
// does a keep_aspect_ratio_policy resize, which is a scale resize. With plain
// sizes it is the integer size. onnxruntime 1.32 always uses the integer
// output length; its values are quoted where they differ.
TEST(Resize, TfCropAndResizeFractionalScales) {
  // X = arange(24).reshape(1,1,4,6), roi = [0,0,0.2,0.1,1,1,0.9,0.8], scales = [1,1,0.7,0.55]: 4*0.7 = 2.8, 6*0.55 = 3.3
  // expected: ReferenceEvaluator('Resize', 19, {'mode': 'linear', 'coordinate_transformation_mode': 'tf_crop_and_resize', 'extrapolation_value': -1})
  // (onnxruntime 1.32 divides by the integer output length - 1 instead and gives 4.10000038, 5.8499999, 7.5999999, 16.6999989, 18.4499989, 20.1999989)
  OpTester t("Resize", 19);
  t.attr("mode", "linear").attr("coordinate_transformation_mode", "tf_crop_and_resize").attr("extrapolation_value", -1.0f)
      .input("X", Tensor::fromVector<float>({1, 1, 4, 6}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23}))
      .input("roi", Tensor::fromVector<float>({8}, {0, 0, 0.200000003, 0.100000001, 1, 1, 0.899999976, 0.800000012}), true)
      .input("scales", Tensor::fromVector<float>({4}, {1, 1, 0.699999988, 0.550000012}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 2, 3}, {4.10000038, 5.62173939, 7.14347839, 11.1000004, 12.6217394, 14.1434784}));
  t.run();
}

TEST(Resize, AlignCornersSizesNotLargerUsesScale) {
  // X = arange(24).reshape(1,1,4,6), sizes = [3,5] on axes [2,3], keep_aspect_ratio_policy = not_larger: scale = min(3/4, 5/6) = 0.75,
  // output [3,5] (round(4.5)), length_resized 3 and 4.5
  // expected: ReferenceEvaluator('Resize', 19, {'mode': 'linear', 'coordinate_transformation_mode': 'align_corners'})
  // (onnxruntime 1.32 gives 0, 1.25, 2.5, 3.75, 5, 9, 10.25, 11.5, 12.75, 14, 18, 19.25, 20.5, 21.75, 23)
  OpTester t("Resize", 19);
  t.attr("mode", "linear").attr("coordinate_transformation_mode", "align_corners").attr("axes", std::vector<int64_t>{2, 3}).attr("keep_aspect_ratio_policy", "not_larger")
      .input("X", Tensor::fromVector<float>({1, 1, 4, 6}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23}))
      .absentInput()
      .absentInput()
      .input("sizes", Tensor::fromVector<int64_t>({2}, {3, 5}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 3, 5}, {0, 1.42857146, 2.85714293, 4.28571415, 5, 9, 10.4285717, 11.8571424, 13.2857141, 14, 18, 19.4285717, 20.8571434, 22.2857151, 23}));
  t.run();
}

TEST(Resize, AlignCornersSizesUsesIntegerLength) {
  // X = arange(24).reshape(1,1,4,6), sizes = [1,1,3,4]: length_resized is the integer size; onnxruntime agrees
  // expected: ReferenceEvaluator('Resize', 19, {'mode': 'linear', 'coordinate_transformation_mode': 'align_corners'})
  OpTester t("Resize", 19);
  t.attr("mode", "linear").attr("coordinate_transformation_mode", "align_corners")
      .input("X", Tensor::fromVector<float>({1, 1, 4, 6}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23}))
      .absentInput()
      .absentInput()
      .input("sizes", Tensor::fromVector<int64_t>({4}, {1, 1, 3, 4}), true)
      .expect("Y", Tensor::fromVector<float>({1, 1, 3, 4}, {0, 1.66666663, 3.33333325, 5, 9, 10.666667, 12.333333, 14, 18, 19.666666, 21.333334, 23}));
  t.run();
}


}  // namespace
}  // namespace oinfer::testing
