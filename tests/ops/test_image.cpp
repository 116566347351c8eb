// image family, part 1: GridSample and AffineGrid (Col2Im, RoiAlign and
// NonMaxSuppression are in test_image_roi.cpp). Expected values come from
// onnx.reference (onnxruntime for GridSample-16, whose bilinear/bicubic mode
// names the reference does not know); each test names its inputs in numpy terms.
#include <gtest/gtest.h>

#include "op_tester.h"

namespace oinfer::testing {
namespace {

TEST(Image, GridSample16BilinearZerosAlign0) {
  // X = arange(16).reshape(1,1,4,4) float32
  // grid = [[[[-1.2,-1],[-0.3,0.4],[0.9,1.3]],[[0.1,-0.7],[1,1],[-0.55,0.25]]]]
  // expected: onnxruntime on GridSample-16
  OpTester t("GridSample", 16);
  t.attr("mode", "bilinear").attr("padding_mode", "zeros").attr("align_corners", int64_t{0})
      .input("X", Tensor::fromVector<float>({1, 1, 4, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}))
      .input("grid", Tensor::fromVector<float>({1, 2, 3, 2}, {-1.20000005, -1, -0.300000012, 0.400000006, 0.899999976, 1.29999995, 0.100000001, -0.699999988, 1, 1, -0.550000012, 0.25}))
      .expect("Y", Tensor::fromVector<float>({1, 1, 2, 3}, {0, 10.1000004, 0, 2.10000014, 3.75, 8.39999962}));
  t.run();
}

TEST(Image, GridSample16NearestBorderAlign1) {
  // X = arange(16).reshape(1,1,4,4) float32
  // grid = [[[[-1.2,-1],[-0.3,0.4],[0.9,1.3]],[[0.1,-0.7],[1,1],[-0.55,0.25]]]]
  // expected: onnxruntime on GridSample-16
  OpTester t("GridSample", 16);
  t.attr("mode", "nearest").attr("padding_mode", "border").attr("align_corners", int64_t{1})
      .input("X", Tensor::fromVector<float>({1, 1, 4, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}))
      .input("grid", Tensor::fromVector<float>({1, 2, 3, 2}, {-1.20000005, -1, -0.300000012, 0.400000006, 0.899999976, 1.29999995, 0.100000001, -0.699999988, 1, 1, -0.550000012, 0.25}))
      .expect("Y", Tensor::fromVector<float>({1, 1, 2, 3}, {0, 9, 15, 2, 15, 9}));
  t.run();
}

TEST(Image, GridSample16BicubicReflectionAlign0) {
  // X = arange(16).reshape(1,1,4,4) float32
  // grid = [[[[-1.2,-1],[-0.3,0.4],[0.9,1.3]],[[0.1,-0.7],[1,1],[-0.55,0.25]]]]
  // expected: onnxruntime on GridSample-16
  OpTester t("GridSample", 16);
  t.attr("mode", "bicubic").attr("padding_mode", "reflection").attr("align_corners", int64_t{0})
      .input("X", Tensor::fromVector<float>({1, 1, 4, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}))
      .input("grid", Tensor::fromVector<float>({1, 2, 3, 2}, {-1.20000005, -1, -0.300000012, 0.400000006, 0.899999976, 1.29999995, 0.100000001, -0.699999988, 1, 1, -0.550000012, 0.25}))
      .expect("Y", Tensor::fromVector<float>({1, 1, 2, 3}, {-0.817499876, 10.4142523, 14.8565054, 1.95900238, 15.9375, 8.31599617}));
  t.run();
}

TEST(Image, GridSample20LinearReflectionAlign1) {
  // X = arange(16).reshape(1,1,4,4) float32
  // grid = [[[[-1.2,-1],[-0.3,0.4],[0.9,1.3]],[[0.1,-0.7],[1,1],[-0.55,0.25]]]]
  // expected: onnx.reference.ReferenceEvaluator on GridSample-20
  OpTester t("GridSample", 20);
  t.attr("mode", "linear").attr("padding_mode", "reflection").attr("align_corners", int64_t{1})
      .input("X", Tensor::fromVector<float>({1, 1, 4, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}))
      .input("grid", Tensor::fromVector<float>({1, 2, 3, 2}, {-1.20000005, -1, -0.300000012, 0.400000006, 0.899999976, 1.29999995, 0.100000001, -0.699999988, 1, 1, -0.550000012, 0.25}))
      .expect("Y", Tensor::fromVector<float>({1, 1, 2, 3}, {0.300000072, 9.44999886, 13.0500002, 3.45000029, 15, 8.17500019}));
  t.run();
}

TEST(Image, GridSample20CubicZerosAlign1) {
  // X = arange(16).reshape(1,1,4,4) float32
  // grid = [[[[-1.2,-1],[-0.3,0.4],[0.9,1.3]],[[0.1,-0.7],[1,1],[-0.55,0.25]]]]
  // expected: onnx.reference.ReferenceEvaluator on GridSample-20
  OpTester t("GridSample", 20);
  t.attr("mode", "cubic").attr("padding_mode", "zeros").attr("align_corners", int64_t{1})
      .input("X", Tensor::fromVector<float>({1, 1, 4, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}))
      .input("grid", Tensor::fromVector<float>({1, 2, 3, 2}, {-1.20000005, -1, -0.300000012, 0.400000006, 0.899999976, 1.29999995, 0.100000001, -0.699999988, 1, 1, -0.550000012, 0.25}))
      .expect("Y", Tensor::fromVector<float>({1, 1, 2, 3}, {-0.110249758, 9.7305994, 9.39946079, 3.22197127, 15, 8.3113451}));
  t.run();
}

TEST(Image, GridSample22NearestReflectionAlign0) {
  // X = arange(16).reshape(1,1,4,4) float32
  // grid = [[[[-1.2,-1],[-0.3,0.4],[0.9,1.3]],[[0.1,-0.7],[1,1],[-0.55,0.25]]]]
  // expected: onnx.reference.ReferenceEvaluator on GridSample-22
  OpTester t("GridSample", 22);
  t.attr("mode", "nearest").attr("padding_mode", "reflection").attr("align_corners", int64_t{0})
      .input("X", Tensor::fromVector<float>({1, 1, 4, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}))
      .input("grid", Tensor::fromVector<float>({1, 2, 3, 2}, {-1.20000005, -1, -0.300000012, 0.400000006, 0.899999976, 1.29999995, 0.100000001, -0.699999988, 1, 1, -0.550000012, 0.25}))
      .expect("Y", Tensor::fromVector<float>({1, 1, 2, 3}, {0, 9, 15, 2, 15, 8}));
  t.run();
}

TEST(Image, GridSample22CubicBorderAlign0) {
  // X = arange(16).reshape(1,1,4,4) float32
  // grid = [[[[-1.2,-1],[-0.3,0.4],[0.9,1.3]],[[0.1,-0.7],[1,1],[-0.55,0.25]]]]
  // expected: onnx.reference.ReferenceEvaluator on GridSample-22
  OpTester t("GridSample", 22);
  t.attr("mode", "cubic").attr("padding_mode", "border").attr("align_corners", int64_t{0})
      .input("X", Tensor::fromVector<float>({1, 1, 4, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}))
      .input("grid", Tensor::fromVector<float>({1, 2, 3, 2}, {-1.20000005, -1, -0.300000012, 0.400000006, 0.899999976, 1.29999995, 0.100000001, -0.699999988, 1, 1, -0.550000012, 0.25}))
      .expect("Y", Tensor::fromVector<float>({1, 1, 2, 3}, {-0.375, 10.4142523, 15.1102524, 1.95900238, 15.46875, 8.31599712}));
  t.run();
}

TEST(Image, GridSample3dLinear) {
  // X = arange(24).reshape(1,1,2,3,4); grid = [[[[[-0.5,0.2,-1],[0.7,-0.9,0.4]]]]]
  // expected: onnx.reference.ReferenceEvaluator on GridSample-20
  OpTester t("GridSample", 20);
  t.attr("mode", "linear").attr("align_corners", int64_t{0})
      .input("X", Tensor::fromVector<float>({1, 1, 2, 3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23}))
      .input("grid", Tensor::fromVector<float>({1, 1, 1, 2, 3}, {-0.5, 0.200000003, -1, 0.699999988, -0.899999976, 0.400000006}))
      .expect("Y", Tensor::fromVector<float>({1, 1, 1, 1, 2}, {2.85000014, 8.90500164}));
  t.run();
}

TEST(Image, AffineGrid2d) {
  // theta = [[[1,0.2,0.1],[-0.3,0.9,0]]], size = [1,1,2,3]
  // expected: onnx.reference.ReferenceEvaluator on AffineGrid-20
  OpTester t("AffineGrid", 20);
  t.attr("align_corners", int64_t{0})
      .input("theta", Tensor::fromVector<float>({1, 2, 3}, {1, 0.200000003, 0.100000001, -0.300000012, 0.899999976, 0}))
      .input("size", Tensor::fromVector<int64_t>({4}, {1, 1, 2, 3}), true)
      .expect("grid", Tensor::fromVector<float>({1, 2, 3, 2}, {-0.666666687, -0.249999985, -1.11022302e-16, -0.449999988, 0.666666687, -0.649999976, -0.466666669, 0.649999976, 0.200000003, 0.449999988, 0.866666675, 0.249999985}));
  t.run();
}

TEST(Image, AffineGrid3dAlign) {
  // theta = [[[1,0,0.1,0.2],[0,0.8,0,-0.1],[0.3,0,1,0]]], size = [1,1,2,2,3], align_corners=1
  // expected: onnx.reference.ReferenceEvaluator on AffineGrid-20
  OpTester t("AffineGrid", 20);
  t.attr("align_corners", int64_t{1})
      .input("theta", Tensor::fromVector<float>({1, 3, 4}, {1, 0, 0.100000001, 0.200000003, 0, 0.800000012, 0, -0.100000001, 0.300000012, 0, 1, 0}))
      .input("size", Tensor::fromVector<int64_t>({5}, {1, 1, 2, 2, 3}), true)
      .expect("grid", Tensor::fromVector<float>({1, 2, 2, 3, 3}, {-0.899999976, -0.900000036, -1.29999995, 0.100000001, -0.900000036, -1, 1.10000002, -0.900000036, -0.699999988, -0.899999976, 0.699999988, -1.29999995, 0.100000001, 0.699999988, -1, 1.10000002, 0.699999988, -0.699999988, -0.699999988, -0.900000036, 0.699999988, 0.300000012, -0.900000036, 1, 1.29999995, -0.900000036, 1.29999995, -0.699999988, 0.699999988, 0.699999988, 0.300000012, 0.699999988, 1, 1.29999995, 0.699999988, 1.29999995}));
  t.run();
}

TEST(Image, GridSampleRejectsGridOfWrongRank) {
  OpTester t("GridSample", 20);
  t.input("X", Tensor(DataType::kFloat, {1, 1, 2, 2}))
      .input("grid", Tensor(DataType::kFloat, {1, 2, 2}))
      .output("Y");
  t.expectError("must have the same rank >= 3");
}

}  // namespace
}  // namespace oinfer::testing
