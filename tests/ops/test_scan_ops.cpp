// scan_ops family: CumSum, CumProd, TopK, Unique, Compress, LpNormalization,
// CenterCropPad, Einsum. Expected values come from onnx.reference (each test
// names its inputs in numpy terms); the Python driver wraps one node in a
// model and runs ReferenceEvaluator on it.
#include <gtest/gtest.h>

#include "op_tester.h"

namespace oinfer::testing {
namespace {

TEST(ScanOps, CumSumAxis0) {
  // x = [[1,2,3],[4,5,6]] float32, axis = 0
  // expected: onnx.reference.ReferenceEvaluator on CumSum-14
  OpTester t("CumSum", 14);
  t
      .input("x", Tensor::fromVector<float>({2, 3}, {1, 2, 3, 4, 5, 6}))
      .input("axis", Tensor::fromVector<int64_t>({}, {0}))
      .expect("y", Tensor::fromVector<float>({2, 3}, {1, 2, 3, 5, 7, 9}));
  t.run();
}

TEST(ScanOps, CumSumExclusiveReverse) {
  // same x, axis = 1 int32, exclusive=1 reverse=1
  // expected: onnx.reference.ReferenceEvaluator on CumSum-11
  OpTester t("CumSum", 11);
  t.attr("exclusive", int64_t{1}).attr("reverse", int64_t{1})
      .input("x", Tensor::fromVector<float>({2, 3}, {1, 2, 3, 4, 5, 6}))
      .input("axis", Tensor::fromVector<int32_t>({}, {1}))
      .expect("y", Tensor::fromVector<float>({2, 3}, {5, 3, 0, 11, 6, 0}));
  t.run();
}

TEST(ScanOps, CumSumInt64Reverse) {
  // x = [1,2,3,4] int64, axis = -1, reverse=1
  // expected: onnx.reference.ReferenceEvaluator on CumSum-14
  OpTester t("CumSum", 14);
  t.attr("reverse", int64_t{1})
      .input("x", Tensor::fromVector<int64_t>({4}, {1, 2, 3, 4}))
      .input("axis", Tensor::fromVector<int64_t>({}, {-1}))
      .expect("y", Tensor::fromVector<int64_t>({4}, {10, 9, 7, 4}));
  t.run();
}

TEST(ScanOps, CumProdExclusive) {
  // same x, axis = 1, exclusive=1
  // expected: onnx.reference.ReferenceEvaluator on CumProd-26
  OpTester t("CumProd", 26);
  t.attr("exclusive", int64_t{1})
      .input("x", Tensor::fromVector<float>({2, 3}, {1, 2, 3, 4, 5, 6}))
      .input("axis", Tensor::fromVector<int64_t>({}, {1}))
      .expect("y", Tensor::fromVector<float>({2, 3}, {1, 1, 2, 1, 4, 20}));
  t.run();
}

TEST(ScanOps, TopKLargestTies) {
  // x = [[3,1,3,2],[0,5,5,4]] float32, k = [3]: ties keep the lower index first
  // expected: onnx.reference.ReferenceEvaluator on TopK-11
  OpTester t("TopK", 11);
  t
      .input("x", Tensor::fromVector<float>({2, 4}, {3, 1, 3, 2, 0, 5, 5, 4}))
      .input("k", Tensor::fromVector<int64_t>({1}, {3}))
      .expect("v", Tensor::fromVector<float>({2, 3}, {3, 3, 2, 5, 5, 4}))
      .expect("i", Tensor::fromVector<int64_t>({2, 3}, {0, 2, 3, 1, 2, 3}));
  t.run();
}

TEST(ScanOps, TopKSmallestAxis0) {
  // same x, k = [1], largest=0, axis=0
  // expected: onnx.reference.ReferenceEvaluator on TopK-11
  OpTester t("TopK", 11);
  t.attr("largest", int64_t{0}).attr("axis", int64_t{0})
      .input("x", Tensor::fromVector<float>({2, 4}, {3, 1, 3, 2, 0, 5, 5, 4}))
      .input("k", Tensor::fromVector<int64_t>({1}, {1}))
      .expect("v", Tensor::fromVector<float>({1, 4}, {0, 1, 3, 2}))
      .expect("i", Tensor::fromVector<int64_t>({1, 4}, {1, 0, 0, 0}));
  t.run();
}

TEST(ScanOps, TopKOpset1Attr) {
  // same x, attribute k=2
  // expected: onnx.reference.ReferenceEvaluator on TopK-1
  OpTester t("TopK", 1);
  t.attr("k", int64_t{2})
      .input("x", Tensor::fromVector<float>({2, 4}, {3, 1, 3, 2, 0, 5, 5, 4}))
      .expect("v", Tensor::fromVector<float>({2, 2}, {3, 3, 5, 5}))
      .expect("i", Tensor::fromVector<int64_t>({2, 2}, {0, 2, 1, 2}));
  t.run();
}

TEST(ScanOps, TopKInt64) {
  // x = [4,9,1,9] int64, k = [2]
  // expected: onnx.reference.ReferenceEvaluator on TopK-10
  OpTester t("TopK", 10);
  t
      .input("x", Tensor::fromVector<int64_t>({4}, {4, 9, 1, 9}))
      .input("k", Tensor::fromVector<int64_t>({1}, {2}))
      .expect("v", Tensor::fromVector<int64_t>({2}, {9, 9}))
      .expect("i", Tensor::fromVector<int64_t>({2}, {1, 3}));
  t.run();
}

TEST(ScanOps, UniqueSorted) {
  // x = [2,1,1,3,4,3] float32
  // expected: onnx.reference.ReferenceEvaluator on Unique-11
  OpTester t("Unique", 11);
  t
      .input("x", Tensor::fromVector<float>({6}, {2, 1, 1, 3, 4, 3}))
      .expect("y", Tensor::fromVector<float>({4}, {1, 2, 3, 4}))
      .expect("indices", Tensor::fromVector<int64_t>({4}, {1, 0, 3, 4}))
      .expect("inverse", Tensor::fromVector<int64_t>({6}, {1, 0, 0, 2, 3, 2}))
      .expect("counts", Tensor::fromVector<int64_t>({4}, {2, 1, 2, 1}));
  t.run();
}

TEST(ScanOps, UniqueUnsorted) {
  // same x, sorted=0
  // expected: onnx.reference.ReferenceEvaluator on Unique-11
  OpTester t("Unique", 11);
  t.attr("sorted", int64_t{0})
      .input("x", Tensor::fromVector<float>({6}, {2, 1, 1, 3, 4, 3}))
      .expect("y", Tensor::fromVector<float>({4}, {2, 1, 3, 4}))
      .expect("indices", Tensor::fromVector<int64_t>({4}, {0, 1, 3, 4}))
      .expect("inverse", Tensor::fromVector<int64_t>({6}, {0, 1, 1, 2, 3, 2}))
      .expect("counts", Tensor::fromVector<int64_t>({4}, {1, 2, 2, 1}));
  t.run();
}

TEST(ScanOps, UniqueAxis0) {
  // x = [[1,0,0],[1,0,0],[2,3,4]] int64, axis=0
  // expected: onnx.reference.ReferenceEvaluator on Unique-11
  OpTester t("Unique", 11);
  t.attr("axis", int64_t{0})
      .input("x", Tensor::fromVector<int64_t>({3, 3}, {1, 0, 0, 1, 0, 0, 2, 3, 4}))
      .expect("y", Tensor::fromVector<int64_t>({2, 3}, {1, 0, 0, 2, 3, 4}))
      .expect("indices", Tensor::fromVector<int64_t>({2}, {0, 2}))
      .expect("inverse", Tensor::fromVector<int64_t>({3}, {0, 0, 1}))
      .expect("counts", Tensor::fromVector<int64_t>({2}, {2, 1}));
  t.run();
}

TEST(ScanOps, UniqueAxis1) {
  // x = [[[1,1],[0,1],[2,1],[0,1]]]*2 float32, axis=1
  // expected: onnx.reference.ReferenceEvaluator on Unique-11
  OpTester t("Unique", 11);
  t.attr("axis", int64_t{1}).attr("sorted", int64_t{1})
      .input("x", Tensor::fromVector<float>({2, 4, 2}, {1, 1, 0, 1, 2, 1, 0, 1, 1, 1, 0, 1, 2, 1, 0, 1}))
      .expect("y", Tensor::fromVector<float>({2, 3, 2}, {0, 1, 1, 1, 2, 1, 0, 1, 1, 1, 2, 1}))
      .expect("indices", Tensor::fromVector<int64_t>({3}, {1, 0, 2}))
      .expect("inverse", Tensor::fromVector<int64_t>({4}, {1, 0, 2, 0}))
      .expect("counts", Tensor::fromVector<int64_t>({3}, {2, 1, 1}));
  t.run();
}

TEST(ScanOps, CompressAxis0) {
  // x = arange(6).reshape(3,2), condition [0,1,1], axis=0
  // expected: onnx.reference.ReferenceEvaluator on Compress-11
  OpTester t("Compress", 11);
  t.attr("axis", int64_t{0})
      .input("x", Tensor::fromVector<float>({3, 2}, {0, 1, 2, 3, 4, 5}))
      .input("c", Tensor::fromVector<bool>({3}, {false, true, true}))
      .expect("y", Tensor::fromVector<float>({2, 2}, {2, 3, 4, 5}));
  t.run();
}

TEST(ScanOps, CompressNoAxisShort) {
  // same x, condition [0,1,0,0,1], no axis (flattened)
  // expected: onnx.reference.ReferenceEvaluator on Compress-9
  OpTester t("Compress", 9);
  t
      .input("x", Tensor::fromVector<float>({3, 2}, {0, 1, 2, 3, 4, 5}))
      .input("c", Tensor::fromVector<bool>({5}, {false, true, false, false, true}))
      .expect("y", Tensor::fromVector<float>({2}, {1, 4}));
  t.run();
}

TEST(ScanOps, CompressNegAxis) {
  // same x, condition [1,0], axis=-1
  // expected: onnx.reference.ReferenceEvaluator on Compress-11
  OpTester t("Compress", 11);
  t.attr("axis", int64_t{-1})
      .input("x", Tensor::fromVector<float>({3, 2}, {0, 1, 2, 3, 4, 5}))
      .input("c", Tensor::fromVector<bool>({2}, {true, false}))
      .expect("y", Tensor::fromVector<float>({3, 1}, {0, 2, 4}));
  t.run();
}

TEST(ScanOps, LpNormalizationL2) {
  // x = [[3,4,0],[0,0,0],[1,-2,2]], default axis=-1, p=2
  // expected: onnx.reference.ReferenceEvaluator on LpNormalization-22
  OpTester t("LpNormalization", 22);
  t
      .input("x", Tensor::fromVector<float>({3, 3}, {3, 4, 0, 0, 0, 0, 1, -2, 2}))
      .expect("y", Tensor::fromVector<float>({3, 3}, {0.600000024, 0.800000012, 0, 0, 0, 0, 0.333333343, -0.666666687, 0.666666687}));
  t.run();
}

TEST(ScanOps, LpNormalizationL1Axis0) {
  // x = abs of the above, p=1 axis=0
  // expected: onnx.reference.ReferenceEvaluator on LpNormalization-1
  OpTester t("LpNormalization", 1);
  t.attr("p", int64_t{1}).attr("axis", int64_t{0})
      .input("x", Tensor::fromVector<float>({3, 3}, {3, 4, 0, 0, 0, 0, 1, 2, 2}))
      .expect("y", Tensor::fromVector<float>({3, 3}, {0.75, 0.666666687, 0, 0, 0, 0, 0.25, 0.333333343, 1}));
  t.run();
}

TEST(ScanOps, CenterCropPadMixed) {
  // x = arange(20).reshape(4,5), shape [2,8]: crop rows, pad cols
  // expected: onnx.reference.ReferenceEvaluator on CenterCropPad-18
  OpTester t("CenterCropPad", 18);
  t
      .input("x", Tensor::fromVector<float>({4, 5}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19}))
      .input("shape", Tensor::fromVector<int64_t>({2}, {2, 8}), true)
      .expect("y", Tensor::fromVector<float>({2, 8}, {0, 5, 6, 7, 8, 9, 0, 0, 0, 10, 11, 12, 13, 14, 0, 0}));
  t.run();
}

TEST(ScanOps, CenterCropPadAxes) {
  // same x, shape [3], axes=[-1]
  // expected: onnx.reference.ReferenceEvaluator on CenterCropPad-18
  OpTester t("CenterCropPad", 18);
  t.attr("axes", std::vector<int64_t>{-1})
      .input("x", Tensor::fromVector<float>({4, 5}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19}))
      .input("shape", Tensor::fromVector<int64_t>({1}, {3}), true)
      .expect("y", Tensor::fromVector<float>({4, 3}, {1, 2, 3, 6, 7, 8, 11, 12, 13, 16, 17, 18}));
  t.run();
}

TEST(ScanOps, EinsumMatmul) {
  // a = arange(6).reshape(2,3), b = arange(12).reshape(3,4) - 5
  // expected: onnx.reference.ReferenceEvaluator on Einsum-12
  OpTester t("Einsum", 12);
  t.attr("equation", "ij,jk->ik")
      .input("a", Tensor::fromVector<float>({2, 3}, {0, 1, 2, 3, 4, 5}))
      .input("b", Tensor::fromVector<float>({3, 4}, {-5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6}))
      .expect("y", Tensor::fromVector<float>({2, 4}, {5, 8, 11, 14, -4, 8, 20, 32}));
  t.run();
}

TEST(ScanOps, EinsumImplicitTranspose) {
  // a as above, implicit output 'ij'
  // expected: onnx.reference.ReferenceEvaluator on Einsum-12
  OpTester t("Einsum", 12);
  t.attr("equation", "ji")
      .input("a", Tensor::fromVector<float>({2, 3}, {0, 1, 2, 3, 4, 5}))
      .expect("y", Tensor::fromVector<float>({3, 2}, {0, 3, 1, 4, 2, 5}));
  t.run();
}

TEST(ScanOps, EinsumTrace) {
  // a = arange(9).reshape(3,3): trace
  // expected: onnx.reference.ReferenceEvaluator on Einsum-12
  OpTester t("Einsum", 12);
  t.attr("equation", "ii")
      .input("a", Tensor::fromVector<float>({3, 3}, {0, 1, 2, 3, 4, 5, 6, 7, 8}))
      .expect("y", Tensor::fromVector<float>({}, {12}));
  t.run();
}

TEST(ScanOps, EinsumDiagonal) {
  // same a: diagonal
  // expected: onnx.reference.ReferenceEvaluator on Einsum-12
  OpTester t("Einsum", 12);
  t.attr("equation", "ii->i")
      .input("a", Tensor::fromVector<float>({3, 3}, {0, 1, 2, 3, 4, 5, 6, 7, 8}))
      .expect("y", Tensor::fromVector<float>({3}, {0, 4, 8}));
  t.run();
}

TEST(ScanOps, EinsumEllipsisBatch) {
  // a = arange(24).reshape(2,3,4)/10, b = arange(8).reshape(4,2)-3
  // expected: onnx.reference.ReferenceEvaluator on Einsum-12
  OpTester t("Einsum", 12);
  t.attr("equation", "...ij,jk")
      .input("a", Tensor::fromVector<float>({2, 3, 4}, {0, 0.100000001, 0.200000003, 0.300000012, 0.400000006, 0.5, 0.600000024, 0.699999988, 0.800000012, 0.899999976, 1, 1.10000002, 1.20000005, 1.29999995, 1.39999998, 1.5, 1.60000002, 1.70000005, 1.79999995, 1.89999998, 2, 2.0999999, 2.20000005, 2.29999995}))
      .input("b", Tensor::fromVector<float>({4, 2}, {-3, -2, -1, 0, 1, 2, 3, 4}))
      .expect("y", Tensor::fromVector<float>({2, 3, 2}, {1, 1.60000002, 0.99999994, 3.20000005, 0.999999881, 4.80000019, 1, 6.39999962, 1.00000012, 8, 0.999999285, 9.60000038}));
  t.run();
}

TEST(ScanOps, EinsumSumAll) {
  // a = arange(6).reshape(2,3): full reduction
  // expected: onnx.reference.ReferenceEvaluator on Einsum-12
  OpTester t("Einsum", 12);
  t.attr("equation", "ij->")
      .input("a", Tensor::fromVector<float>({2, 3}, {0, 1, 2, 3, 4, 5}))
      .expect("y", Tensor::fromVector<float>({}, {15}));
  t.run();
}

TEST(ScanOps, EinsumOuterInt64) {
  // a = [1,2], b = [3,4,5] int64
  // expected: onnx.reference.ReferenceEvaluator on Einsum-12
  OpTester t("Einsum", 12);
  t.attr("equation", "i,j->ij")
      .input("a", Tensor::fromVector<int64_t>({2}, {1, 2}))
      .input("b", Tensor::fromVector<int64_t>({3}, {3, 4, 5}))
      .expect("y", Tensor::fromVector<int64_t>({2, 3}, {3, 4, 5, 6, 8, 10}));
  t.run();
}

TEST(ScanOps, EinsumBatchedMatmulPermutedOutput) {
  // a = (arange(24).reshape(2,3,4) - 7) / 5, b = (arange(16).reshape(2,4,2) % 5) - 1
  // expected: onnx.reference.ReferenceEvaluator on Einsum-12
  OpTester t("Einsum", 12);
  t.attr("equation", "bij,bjk->bki")
      .input("a", Tensor::fromVector<float>({2, 3, 4}, {-1.39999998, -1.20000005, -1, -0.800000012, -0.600000024, -0.400000006, -0.200000003, 0, 0.200000003, 0.400000006, 0.600000024, 0.800000012, 1, 1.20000005, 1.39999998, 1.60000002, 1.79999995, 2, 2.20000005, 2.4000001, 2.5999999, 2.79999995, 3, 3.20000005}))
      .input("b", Tensor::fromVector<float>({2, 4, 2}, {-1, 0, 1, 2, 3, -1, 0, 1, 2, 3, -1, 0, 1, 2, 3, -1}))
      .expect("y", Tensor::fromVector<float>({2, 2, 3}, {-2.80000019, -0.399999976, 2, -2.20000005, -0.600000024, 1, 7, 11, 15, 4.20000029, 7.39999914, 10.5999994}));
  t.run();
}

TEST(ScanOps, EinsumContractTwoLabelsDouble) {
  // a as above in float64, b = arange(24).reshape(4,3,2) / 7 float64
  // expected: onnx.reference.ReferenceEvaluator on Einsum-12
  OpTester t("Einsum", 12);
  t.attr("equation", "ijk,kjl->li")
      .input("a", Tensor::fromVector<double>({2, 3, 4}, {-1.39999998, -1.20000005, -1, -0.800000012, -0.600000024, -0.400000006, -0.200000003, 0, 0.200000003, 0.400000006, 0.600000024, 0.800000012, 1, 1.20000005, 1.39999998, 1.60000002, 1.79999995, 2, 2.20000005, 2.4000001, 2.5999999, 2.79999995, 3, 3.20000005}))
      .input("b", Tensor::fromVector<double>({4, 3, 2}, {0, 0.142857143, 0.285714286, 0.428571429, 0.571428571, 0.714285714, 0.857142857, 1, 1.14285714, 1.28571429, 1.42857143, 1.57142857, 1.71428571, 1.85714286, 2, 2.14285714, 2.28571429, 2.42857143, 2.57142857, 2.71428571, 2.85714286, 3, 3.14285714, 3.28571429}))
      .expect("y", Tensor::fromVector<double>({2, 2}, {-1.25714285, 44.0000004, -1.77142856, 47.6000004}));
  t.run();
}

TEST(ScanOps, EinsumSumOutSingleOperandLabel) {
  // a = a[0], b = b[0] from above: i is summed out of A alone (no GEMM form)
  // expected: onnx.reference.ReferenceEvaluator on Einsum-12
  OpTester t("Einsum", 12);
  t.attr("equation", "ij,jk->k")
      .input("a", Tensor::fromVector<float>({3, 4}, {-1.39999998, -1.20000005, -1, -0.800000012, -0.600000024, -0.400000006, -0.200000003, 0, 0.200000003, 0.400000006, 0.600000024, 0.800000012}))
      .input("b", Tensor::fromVector<float>({4, 2}, {-1, 0, 1, 2, 3, -1, 0, 1}))
      .expect("y", Tensor::fromVector<float>({2}, {-1.20000017, -1.80000007}));
  t.run();
}

TEST(ScanOps, TopK24SmallestInt32Axis0) {
  // x = [[5,-1,7,-1],[2,2,0,9],[3,8,8,1]] int32, k = [2], largest=0, axis=-2
  // expected: onnx.reference.ReferenceEvaluator on TopK-24
  OpTester t("TopK", 24);
  t.attr("largest", int64_t{0}).attr("axis", int64_t{-2})
      .input("x", Tensor::fromVector<int32_t>({3, 4}, {5, -1, 7, -1, 2, 2, 0, 9, 3, 8, 8, 1}))
      .input("k", Tensor::fromVector<int64_t>({1}, {2}))
      .expect("v", Tensor::fromVector<int32_t>({2, 4}, {2, -1, 0, -1, 3, 2, 7, 1}))
      .expect("i", Tensor::fromVector<int64_t>({2, 4}, {1, 0, 1, 0, 2, 1, 0, 2}));
  t.run();
}

TEST(ScanOps, TopKRejectsKBeyondAxis) {
  OpTester t("TopK", 11);
  t.input("x", Tensor::fromVector<float>({3}, {1, 2, 3}))
      .input("k", Tensor::fromVector<int64_t>({1}, {4}))
      .output("v")
      .output("i");
  t.expectError("k 4 is out of range for axis dim 3");
}

TEST(ScanOps, CumSumRejectsBadAxis) {
  OpTester t("CumSum", 14);
  t.input("x", Tensor::fromVector<float>({2}, {1, 2})).input("axis", Tensor::scalar<int64_t>(2)).output("y");
  t.expectError("axis 2 is out of range for rank 1");
}

TEST(ScanOps, EinsumRejectsMismatchedTerm) {
  OpTester t("Einsum", 12);
  t.attr("equation", "ij,jk->ik")
      .input("a", Tensor::fromVector<float>({2, 3}, {0, 1, 2, 3, 4, 5}))
      .input("b", Tensor::fromVector<float>({3}, {1, 2, 3}))
      .output("y");
  t.expectError("does not match input 1 of rank 1");
}

TEST(ScanOps, CompressRejectsLongCondition) {
  OpTester t("Compress", 11);
  t.attr("axis", int64_t{0})
      .input("x", Tensor::fromVector<float>({2}, {1, 2}))
      .input("c", Tensor::fromVector<bool>({3}, {true, false, true}))
      .output("y");
  t.expectError("more than the 2 along the axis");
}

}  // namespace
}  // namespace oinfer::testing
