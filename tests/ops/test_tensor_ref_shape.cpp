// Reference tests for the tensor family's reshaping ops (Reshape, Flatten,
// Transpose, Squeeze, Unsqueeze, Identity, Concat, Split, Shape, Size,
// Dropout). Expected values were produced by the Python quoted above each
// test (onnx 1.22 reference evaluator or onnxruntime, numpy inputs).
#include <cmath>

#include "op_tester.h"

using namespace oinfer;
using oinfer::testing::OpTester;

// onnx.reference.ReferenceEvaluator on one Reshape node, opset 5, attrs {}, inputs x=np.array([[0.0, 1.0, 2.0],
// [3.0, 4.0, 5.0]], dtype=np.float32), shape=np.array([3, -1], dtype=np.int64)
TEST(TensorRef, Reshape_v5_infer) {
  OpTester t("Reshape", 5);
  t.input("x", Tensor::fromVector<float>({2,3}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f})).constantInput("shape", Tensor::fromVector<int64_t>({2}, {3, -1})).expect("o0", Tensor::fromVector<float>({3,2}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Reshape node, opset 13, attrs {}, inputs x=np.array([[[0.0, 1.0, 2.0,
// 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]], [[12.0, 13.0, 14.0, 15.0], [16.0, 17.0, 18.0, 19.0],
// [20.0, 21.0, 22.0, 23.0]]], dtype=np.float32), shape=np.array([0, -1], dtype=np.int64)
TEST(TensorRef, Reshape_v13_zero_copies) {
  OpTester t("Reshape", 13);
  t.input("x", Tensor::fromVector<float>({2,3,4}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f, 9.0f, 10.0f, 11.0f, 12.0f, 13.0f, 14.0f, 15.0f, 16.0f, 17.0f, 18.0f, 19.0f, 20.0f, 21.0f, 22.0f, 23.0f})).constantInput("shape", Tensor::fromVector<int64_t>({2}, {0, -1})).expect("o0", Tensor::fromVector<float>({2,12}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f, 9.0f, 10.0f, 11.0f, 12.0f, 13.0f, 14.0f, 15.0f, 16.0f, 17.0f, 18.0f, 19.0f, 20.0f, 21.0f, 22.0f, 23.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Reshape node, opset 14, attrs {'allowzero': 1}, inputs x=np.array([],
// dtype=np.float32), shape=np.array([3, 0], dtype=np.int64)
TEST(TensorRef, Reshape_v14_allowzero) {
  OpTester t("Reshape", 14);
  t.attr("allowzero", int64_t(1)).input("x", Tensor::fromVector<float>({0,3}, {})).constantInput("shape", Tensor::fromVector<int64_t>({2}, {3, 0})).expect("o0", Tensor::fromVector<float>({3,0}, {}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Reshape node, opset 21, attrs {}, inputs x=np.array([7],
// dtype=np.int64), shape=np.array([], dtype=np.int64)
TEST(TensorRef, Reshape_v21_int64_scalar) {
  OpTester t("Reshape", 21);
  t.input("x", Tensor::fromVector<int64_t>({1}, {7})).constantInput("shape", Tensor::fromVector<int64_t>({0}, {})).expect("o0", Tensor::fromVector<int64_t>({}, {7}));
  t.run();
}

// Reshape-1 (shape attribute) = numpy x.reshape(6), x=np.arange(6).reshape(2,3)
TEST(TensorRef, Reshape_v1_attr) {
  OpTester t("Reshape", 1);
  t.attr("shape", std::vector<int64_t>{6}).input("x", Tensor::fromVector<float>({2,3}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f})).expect("o0", Tensor::fromVector<float>({6}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Reshape node, opset 19, attrs {}, inputs x=np.array(['a', 'b', 'c',
// 'd'], dtype=object), shape=np.array([2, 2], dtype=np.int64)
TEST(TensorRef, Reshape_v25_string) {
  OpTester t("Reshape", 19);
  t.input("x", Tensor::fromVector<std::string>({4}, {"a", "b", "c", "d"})).constantInput("shape", Tensor::fromVector<int64_t>({2}, {2, 2})).expect("o0", Tensor::fromVector<std::string>({2,2}, {"a", "b", "c", "d"}));
  t.run();
}

// onnxruntime on one Flatten node, opset 1, attrs {}, inputs x=np.array([[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0,
// 7.0], [8.0, 9.0, 10.0, 11.0]], [[12.0, 13.0, 14.0, 15.0], [16.0, 17.0, 18.0, 19.0], [20.0, 21.0, 22.0,
// 23.0]]], dtype=np.float32)
TEST(TensorRef, Flatten_v1_default) {
  OpTester t("Flatten", 1);
  t.input("x", Tensor::fromVector<float>({2,3,4}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f, 9.0f, 10.0f, 11.0f, 12.0f, 13.0f, 14.0f, 15.0f, 16.0f, 17.0f, 18.0f, 19.0f, 20.0f, 21.0f, 22.0f, 23.0f})).expect("o0", Tensor::fromVector<float>({2,12}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f, 9.0f, 10.0f, 11.0f, 12.0f, 13.0f, 14.0f, 15.0f, 16.0f, 17.0f, 18.0f, 19.0f, 20.0f, 21.0f, 22.0f, 23.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Flatten node, opset 11, attrs {'axis': -1}, inputs x=np.array([[[0.0,
// 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]], [[12.0, 13.0, 14.0, 15.0], [16.0, 17.0, 18.0,
// 19.0], [20.0, 21.0, 22.0, 23.0]]], dtype=np.float32)
TEST(TensorRef, Flatten_v11_neg_axis) {
  OpTester t("Flatten", 11);
  t.attr("axis", int64_t(-1)).input("x", Tensor::fromVector<float>({2,3,4}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f, 9.0f, 10.0f, 11.0f, 12.0f, 13.0f, 14.0f, 15.0f, 16.0f, 17.0f, 18.0f, 19.0f, 20.0f, 21.0f, 22.0f, 23.0f})).expect("o0", Tensor::fromVector<float>({6,4}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f, 9.0f, 10.0f, 11.0f, 12.0f, 13.0f, 14.0f, 15.0f, 16.0f, 17.0f, 18.0f, 19.0f, 20.0f, 21.0f, 22.0f, 23.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Flatten node, opset 13, attrs {'axis': 0}, inputs x=np.array([[0, 1,
// 2], [3, 4, 5]], dtype=np.int32)
TEST(TensorRef, Flatten_v13_axis0) {
  OpTester t("Flatten", 13);
  t.attr("axis", int64_t(0)).input("x", Tensor::fromVector<int32_t>({2,3}, {0, 1, 2, 3, 4, 5})).expect("o0", Tensor::fromVector<int32_t>({1,6}, {0, 1, 2, 3, 4, 5}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Flatten node, opset 21, attrs {'axis': 3}, inputs x=np.array([[[0, 1,
// 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]], [[12, 13, 14, 15], [16, 17, 18, 19], [20, 21, 22, 23]]], dtype=np.uint8)
TEST(TensorRef, Flatten_v21_axis3) {
  OpTester t("Flatten", 21);
  t.attr("axis", int64_t(3)).input("x", Tensor::fromVector<uint8_t>({2,3,4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23})).expect("o0", Tensor::fromVector<uint8_t>({24,1}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23}));
  t.run();
}

// onnxruntime on one Transpose node, opset 1, attrs {}, inputs x=np.array([[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0,
// 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]], [[12.0, 13.0, 14.0, 15.0], [16.0, 17.0, 18.0, 19.0], [20.0, 21.0, 22.0,
// 23.0]]], dtype=np.float32)
TEST(TensorRef, Transpose_v1_default) {
  OpTester t("Transpose", 1);
  t.input("x", Tensor::fromVector<float>({2,3,4}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f, 9.0f, 10.0f, 11.0f, 12.0f, 13.0f, 14.0f, 15.0f, 16.0f, 17.0f, 18.0f, 19.0f, 20.0f, 21.0f, 22.0f, 23.0f})).expect("o0", Tensor::fromVector<float>({4,3,2}, {0.0f, 12.0f, 4.0f, 16.0f, 8.0f, 20.0f, 1.0f, 13.0f, 5.0f, 17.0f, 9.0f, 21.0f, 2.0f, 14.0f, 6.0f, 18.0f, 10.0f, 22.0f, 3.0f, 15.0f, 7.0f, 19.0f, 11.0f, 23.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Transpose node, opset 13, attrs {'perm': [1, 0, 2]}, inputs
// x=np.array([[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]], [[12, 13, 14, 15], [16, 17, 18, 19], [20, 21, 22,
// 23]]], dtype=np.int64)
TEST(TensorRef, Transpose_v13_perm) {
  OpTester t("Transpose", 13);
  t.attr("perm", std::vector<int64_t>{1, 0, 2}).input("x", Tensor::fromVector<int64_t>({2,3,4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23})).expect("o0", Tensor::fromVector<int64_t>({3,2,4}, {0, 1, 2, 3, 12, 13, 14, 15, 4, 5, 6, 7, 16, 17, 18, 19, 8, 9, 10, 11, 20, 21, 22, 23}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Transpose node, opset 21, attrs {'perm': [1, 0]}, inputs
// x=np.array([[True, False, True], [False, False, True]], dtype=np.bool)
TEST(TensorRef, Transpose_v21_bool) {
  OpTester t("Transpose", 21);
  t.attr("perm", std::vector<int64_t>{1, 0}).input("x", Tensor::fromVector<bool>({2,3}, {true, false, true, false, false, true})).expect("o0", Tensor::fromVector<bool>({3,2}, {true, false, false, false, true, true}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Transpose node, opset 13, attrs {'perm': [2, 0, 1]}, inputs
// x=np.array([[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]], [[12.0, 13.0, 14.0, 15.0],
// [16.0, 17.0, 18.0, 19.0], [20.0, 21.0, 22.0, 23.0]]], dtype=np.float16)
TEST(TensorRef, Transpose_v13_f16) {
  OpTester t("Transpose", 13);
  t.attr("perm", std::vector<int64_t>{2, 0, 1}).input("x", Tensor::fromVector<Float16>({2,3,4}, {Float16(0.0f), Float16(1.0f), Float16(2.0f), Float16(3.0f), Float16(4.0f), Float16(5.0f), Float16(6.0f), Float16(7.0f), Float16(8.0f), Float16(9.0f), Float16(10.0f), Float16(11.0f), Float16(12.0f), Float16(13.0f), Float16(14.0f), Float16(15.0f), Float16(16.0f), Float16(17.0f), Float16(18.0f), Float16(19.0f), Float16(20.0f), Float16(21.0f), Float16(22.0f), Float16(23.0f)})).expect("o0", Tensor::fromVector<Float16>({4,2,3}, {Float16(0.0f), Float16(4.0f), Float16(8.0f), Float16(12.0f), Float16(16.0f), Float16(20.0f), Float16(1.0f), Float16(5.0f), Float16(9.0f), Float16(13.0f), Float16(17.0f), Float16(21.0f), Float16(2.0f), Float16(6.0f), Float16(10.0f), Float16(14.0f), Float16(18.0f), Float16(22.0f), Float16(3.0f), Float16(7.0f), Float16(11.0f), Float16(15.0f), Float16(19.0f), Float16(23.0f)}));
  t.run();
}

// onnxruntime on one Squeeze node, opset 1, attrs {'axes': [0]}, inputs x=np.array([[[0.0], [1.0], [2.0]]],
// dtype=np.float32)
TEST(TensorRef, Squeeze_v1_axes_attr) {
  OpTester t("Squeeze", 1);
  t.attr("axes", std::vector<int64_t>{0}).input("x", Tensor::fromVector<float>({1,3,1}, {0.0f, 1.0f, 2.0f})).expect("o0", Tensor::fromVector<float>({3,1}, {0.0f, 1.0f, 2.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Squeeze node, opset 11, attrs {}, inputs x=np.array([[[0.0], [1.0],
// [2.0]]], dtype=np.float32)
TEST(TensorRef, Squeeze_v11_all) {
  OpTester t("Squeeze", 11);
  t.input("x", Tensor::fromVector<float>({1,3,1}, {0.0f, 1.0f, 2.0f})).expect("o0", Tensor::fromVector<float>({3}, {0.0f, 1.0f, 2.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Squeeze node, opset 13, attrs {}, inputs x=np.array([[[0.0], [1.0],
// [2.0]]], dtype=np.float32), axes=np.array([-1], dtype=np.int64)
TEST(TensorRef, Squeeze_v13_axes_input) {
  OpTester t("Squeeze", 13);
  t.input("x", Tensor::fromVector<float>({1,3,1}, {0.0f, 1.0f, 2.0f})).constantInput("axes", Tensor::fromVector<int64_t>({1}, {-1})).expect("o0", Tensor::fromVector<float>({1,3}, {0.0f, 1.0f, 2.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Squeeze node, opset 21, attrs {}, inputs x=np.array([[[0], [1],
// [2]]], dtype=np.int64)
TEST(TensorRef, Squeeze_v21_no_axes) {
  OpTester t("Squeeze", 21);
  t.input("x", Tensor::fromVector<int64_t>({1,3,1}, {0, 1, 2})).expect("o0", Tensor::fromVector<int64_t>({3}, {0, 1, 2}));
  t.run();
}

// onnxruntime on one Unsqueeze node, opset 1, attrs {'axes': [0, 3]}, inputs x=np.array([[0.0, 1.0, 2.0], [3.0,
// 4.0, 5.0]], dtype=np.float32)
TEST(TensorRef, Unsqueeze_v1_axes_attr) {
  OpTester t("Unsqueeze", 1);
  t.attr("axes", std::vector<int64_t>{0, 3}).input("x", Tensor::fromVector<float>({2,3}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f})).expect("o0", Tensor::fromVector<float>({1,2,3,1}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Unsqueeze node, opset 11, attrs {'axes': [-1]}, inputs
// x=np.array([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], dtype=np.float32)
TEST(TensorRef, Unsqueeze_v11_neg) {
  OpTester t("Unsqueeze", 11);
  t.attr("axes", std::vector<int64_t>{-1}).input("x", Tensor::fromVector<float>({2,3}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f})).expect("o0", Tensor::fromVector<float>({2,3,1}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Unsqueeze node, opset 13, attrs {}, inputs x=np.array([[0.0, 1.0,
// 2.0], [3.0, 4.0, 5.0]], dtype=np.float32), axes=np.array([1, -1], dtype=np.int64)
TEST(TensorRef, Unsqueeze_v13_input) {
  OpTester t("Unsqueeze", 13);
  t.input("x", Tensor::fromVector<float>({2,3}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f})).constantInput("axes", Tensor::fromVector<int64_t>({2}, {1, -1})).expect("o0", Tensor::fromVector<float>({2,1,3,1}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Unsqueeze node, opset 13, attrs {}, inputs x=np.array(5,
// dtype=np.int64), axes=np.array([0], dtype=np.int64)
TEST(TensorRef, Unsqueeze_v13_scalar) {
  OpTester t("Unsqueeze", 13);
  t.input("x", Tensor::fromVector<int64_t>({}, {5})).constantInput("axes", Tensor::fromVector<int64_t>({1}, {0})).expect("o0", Tensor::fromVector<int64_t>({1}, {5}));
  t.run();
}

// onnxruntime on one Identity node, opset 1, attrs {}, inputs x=np.array([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]],
// dtype=np.float32)
TEST(TensorRef, Identity_v1) {
  OpTester t("Identity", 1);
  t.input("x", Tensor::fromVector<float>({2,3}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f})).expect("o0", Tensor::fromVector<float>({2,3}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Identity node, opset 16, attrs {}, inputs x=np.array(['p', 'q'],
// dtype=object)
TEST(TensorRef, Identity_v16_string) {
  OpTester t("Identity", 16);
  t.input("x", Tensor::fromVector<std::string>({2}, {"p", "q"})).expect("o0", Tensor::fromVector<std::string>({2}, {"p", "q"}));
  t.run();
}

// onnxruntime on one Concat node, opset 4, attrs {'axis': 0}, inputs a=np.array([[0.0, 1.0, 2.0], [3.0, 4.0,
// 5.0]], dtype=np.float32), b=np.array([[0.0, 1.0, 2.0]], dtype=np.float32)
TEST(TensorRef, Concat_v4_axis0) {
  OpTester t("Concat", 4);
  t.attr("axis", int64_t(0)).input("a", Tensor::fromVector<float>({2,3}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f})).input("b", Tensor::fromVector<float>({1,3}, {0.0f, 1.0f, 2.0f})).expect("o0", Tensor::fromVector<float>({3,3}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 0.0f, 1.0f, 2.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Concat node, opset 11, attrs {'axis': -1}, inputs a=np.array([[0.0,
// 1.0, 2.0], [3.0, 4.0, 5.0]], dtype=np.float32), b=np.array([[0.0], [1.0]], dtype=np.float32),
// c=np.array([[0.0, 1.0], [2.0, 3.0]], dtype=np.float32)
TEST(TensorRef, Concat_v11_neg_axis) {
  OpTester t("Concat", 11);
  t.attr("axis", int64_t(-1)).input("a", Tensor::fromVector<float>({2,3}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f})).input("b", Tensor::fromVector<float>({2,1}, {0.0f, 1.0f})).input("c", Tensor::fromVector<float>({2,2}, {0.0f, 1.0f, 2.0f, 3.0f})).expect("o0", Tensor::fromVector<float>({2,6}, {0.0f, 1.0f, 2.0f, 0.0f, 0.0f, 1.0f, 3.0f, 4.0f, 5.0f, 1.0f, 2.0f, 3.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Concat node, opset 13, attrs {'axis': 0}, inputs a=np.array([1, 2],
// dtype=np.int64), b=np.array([3], dtype=np.int64)
TEST(TensorRef, Concat_v13_int64_1d) {
  OpTester t("Concat", 13);
  t.attr("axis", int64_t(0)).input("a", Tensor::fromVector<int64_t>({2}, {1, 2})).input("b", Tensor::fromVector<int64_t>({1}, {3})).expect("o0", Tensor::fromVector<int64_t>({3}, {1, 2, 3}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Concat node, opset 13, attrs {'axis': 1}, inputs a=np.array([['a'],
// ['b']], dtype=object), b=np.array([['c'], ['d']], dtype=object)
TEST(TensorRef, Concat_v13_string) {
  OpTester t("Concat", 13);
  t.attr("axis", int64_t(1)).input("a", Tensor::fromVector<std::string>({2,1}, {"a", "b"})).input("b", Tensor::fromVector<std::string>({2,1}, {"c", "d"})).expect("o0", Tensor::fromVector<std::string>({2,2}, {"a", "c", "b", "d"}));
  t.run();
}

// Concat-1 default axis 1: np.concatenate([x, x], 1), x=np.arange(6).reshape(2,3)
TEST(TensorRef, Concat_v1_default_axis) {
  OpTester t("Concat", 1);
  t.input("a", Tensor::fromVector<float>({2,3}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f})).input("b", Tensor::fromVector<float>({2,3}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f})).expect("o0", Tensor::fromVector<float>({2,6}, {0.0f, 1.0f, 2.0f, 0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 3.0f, 4.0f, 5.0f}));
  t.run();
}

// onnxruntime on one Split node, opset 2, attrs {'axis': 1, 'split': [2, 4]}, inputs x=np.array([[0.0, 1.0, 2.0,
// 3.0, 4.0, 5.0], [6.0, 7.0, 8.0, 9.0, 10.0, 11.0]], dtype=np.float32)
TEST(TensorRef, Split_v2_attr) {
  OpTester t("Split", 2);
  t.attr("axis", int64_t(1)).attr("split", std::vector<int64_t>{2, 4}).input("x", Tensor::fromVector<float>({2,6}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f, 9.0f, 10.0f, 11.0f})).expect("o0", Tensor::fromVector<float>({2,2}, {0.0f, 1.0f, 6.0f, 7.0f})).expect("o1", Tensor::fromVector<float>({2,4}, {2.0f, 3.0f, 4.0f, 5.0f, 8.0f, 9.0f, 10.0f, 11.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Split node, opset 11, attrs {'axis': -1}, inputs x=np.array([[0.0,
// 1.0, 2.0, 3.0, 4.0, 5.0], [6.0, 7.0, 8.0, 9.0, 10.0, 11.0]], dtype=np.float32)
TEST(TensorRef, Split_v11_equal) {
  OpTester t("Split", 11);
  t.attr("axis", int64_t(-1)).input("x", Tensor::fromVector<float>({2,6}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f, 9.0f, 10.0f, 11.0f})).expect("o0", Tensor::fromVector<float>({2,2}, {0.0f, 1.0f, 6.0f, 7.0f})).expect("o1", Tensor::fromVector<float>({2,2}, {2.0f, 3.0f, 8.0f, 9.0f})).expect("o2", Tensor::fromVector<float>({2,2}, {4.0f, 5.0f, 10.0f, 11.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Split node, opset 13, attrs {'axis': 1}, inputs x=np.array([[0.0,
// 1.0, 2.0, 3.0, 4.0, 5.0], [6.0, 7.0, 8.0, 9.0, 10.0, 11.0]], dtype=np.float32), split=np.array([1, 5],
// dtype=np.int64)
TEST(TensorRef, Split_v13_input) {
  OpTester t("Split", 13);
  t.attr("axis", int64_t(1)).input("x", Tensor::fromVector<float>({2,6}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f, 9.0f, 10.0f, 11.0f})).constantInput("split", Tensor::fromVector<int64_t>({2}, {1, 5})).expect("o0", Tensor::fromVector<float>({2,1}, {0.0f, 6.0f})).expect("o1", Tensor::fromVector<float>({2,5}, {1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 7.0f, 8.0f, 9.0f, 10.0f, 11.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Split node, opset 18, attrs {'axis': 1, 'num_outputs': 4}, inputs
// x=np.array([[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0]], dtype=np.float32)
TEST(TensorRef, Split_v18_num_outputs_uneven) {
  OpTester t("Split", 18);
  t.attr("axis", int64_t(1)).attr("num_outputs", int64_t(4)).input("x", Tensor::fromVector<float>({1,7}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f})).expect("o0", Tensor::fromVector<float>({1,2}, {0.0f, 1.0f})).expect("o1", Tensor::fromVector<float>({1,2}, {2.0f, 3.0f})).expect("o2", Tensor::fromVector<float>({1,2}, {4.0f, 5.0f})).expect("o3", Tensor::fromVector<float>({1,1}, {6.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Split node, opset 18, attrs {'num_outputs': 2}, inputs
// x=np.array([[0, 3], [1, 4], [2, 5]], dtype=np.int32)
TEST(TensorRef, Split_v18_axis0_int32) {
  OpTester t("Split", 18);
  t.attr("num_outputs", int64_t(2)).input("x", Tensor::fromVector<int32_t>({3,2}, {0, 3, 1, 4, 2, 5})).expect("o0", Tensor::fromVector<int32_t>({2,2}, {0, 3, 1, 4})).expect("o1", Tensor::fromVector<int32_t>({1,2}, {2, 5}));
  t.run();
}

// onnxruntime on one Shape node, opset 1, attrs {}, inputs x=np.array([[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0,
// 7.0], [8.0, 9.0, 10.0, 11.0]], [[12.0, 13.0, 14.0, 15.0], [16.0, 17.0, 18.0, 19.0], [20.0, 21.0, 22.0,
// 23.0]]], dtype=np.float32)
TEST(TensorRef, Shape_v1) {
  OpTester t("Shape", 1);
  t.input("x", Tensor::fromVector<float>({2,3,4}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f, 9.0f, 10.0f, 11.0f, 12.0f, 13.0f, 14.0f, 15.0f, 16.0f, 17.0f, 18.0f, 19.0f, 20.0f, 21.0f, 22.0f, 23.0f})).expect("o0", Tensor::fromVector<int64_t>({3}, {2, 3, 4}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Shape node, opset 15, attrs {'start': 1}, inputs x=np.array([[[0.0,
// 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]], [[12.0, 13.0, 14.0, 15.0], [16.0, 17.0, 18.0,
// 19.0], [20.0, 21.0, 22.0, 23.0]]], dtype=np.float32)
TEST(TensorRef, Shape_v15_start) {
  OpTester t("Shape", 15);
  t.attr("start", int64_t(1)).input("x", Tensor::fromVector<float>({2,3,4}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f, 9.0f, 10.0f, 11.0f, 12.0f, 13.0f, 14.0f, 15.0f, 16.0f, 17.0f, 18.0f, 19.0f, 20.0f, 21.0f, 22.0f, 23.0f})).expect("o0", Tensor::fromVector<int64_t>({2}, {3, 4}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Shape node, opset 15, attrs {'start': -2, 'end': -1}, inputs
// x=np.array([[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]], [[12.0, 13.0, 14.0, 15.0],
// [16.0, 17.0, 18.0, 19.0], [20.0, 21.0, 22.0, 23.0]]], dtype=np.float32)
TEST(TensorRef, Shape_v15_start_end_neg) {
  OpTester t("Shape", 15);
  t.attr("start", int64_t(-2)).attr("end", int64_t(-1)).input("x", Tensor::fromVector<float>({2,3,4}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f, 9.0f, 10.0f, 11.0f, 12.0f, 13.0f, 14.0f, 15.0f, 16.0f, 17.0f, 18.0f, 19.0f, 20.0f, 21.0f, 22.0f, 23.0f})).expect("o0", Tensor::fromVector<int64_t>({1}, {3}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Shape node, opset 19, attrs {'start': -10, 'end': 10}, inputs
// x=np.array([[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]], [[12.0, 13.0, 14.0, 15.0],
// [16.0, 17.0, 18.0, 19.0], [20.0, 21.0, 22.0, 23.0]]], dtype=np.float32)
TEST(TensorRef, Shape_v19_clamped) {
  OpTester t("Shape", 19);
  t.attr("start", int64_t(-10)).attr("end", int64_t(10)).input("x", Tensor::fromVector<float>({2,3,4}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f, 9.0f, 10.0f, 11.0f, 12.0f, 13.0f, 14.0f, 15.0f, 16.0f, 17.0f, 18.0f, 19.0f, 20.0f, 21.0f, 22.0f, 23.0f})).expect("o0", Tensor::fromVector<int64_t>({3}, {2, 3, 4}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Shape node, opset 15, attrs {'start': 2, 'end': 1}, inputs
// x=np.array([[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]], [[12.0, 13.0, 14.0, 15.0],
// [16.0, 17.0, 18.0, 19.0], [20.0, 21.0, 22.0, 23.0]]], dtype=np.float32)
TEST(TensorRef, Shape_v15_empty) {
  OpTester t("Shape", 15);
  t.attr("start", int64_t(2)).attr("end", int64_t(1)).input("x", Tensor::fromVector<float>({2,3,4}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f, 9.0f, 10.0f, 11.0f, 12.0f, 13.0f, 14.0f, 15.0f, 16.0f, 17.0f, 18.0f, 19.0f, 20.0f, 21.0f, 22.0f, 23.0f})).expect("o0", Tensor::fromVector<int64_t>({0}, {}));
  t.run();
}

// onnxruntime on one Size node, opset 1, attrs {}, inputs x=np.array([[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0,
// 7.0], [8.0, 9.0, 10.0, 11.0]], [[12.0, 13.0, 14.0, 15.0], [16.0, 17.0, 18.0, 19.0], [20.0, 21.0, 22.0,
// 23.0]]], dtype=np.float32)
TEST(TensorRef, Size_v1) {
  OpTester t("Size", 1);
  t.input("x", Tensor::fromVector<float>({2,3,4}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f, 9.0f, 10.0f, 11.0f, 12.0f, 13.0f, 14.0f, 15.0f, 16.0f, 17.0f, 18.0f, 19.0f, 20.0f, 21.0f, 22.0f, 23.0f})).expect("o0", Tensor::fromVector<int64_t>({}, {24}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Size node, opset 13, attrs {}, inputs x=np.array(3, dtype=np.int64)
TEST(TensorRef, Size_v13_scalar) {
  OpTester t("Size", 13);
  t.input("x", Tensor::fromVector<int64_t>({}, {3})).expect("o0", Tensor::fromVector<int64_t>({}, {1}));
  t.run();
}

// Dropout-7 in inference: output = x, mask = ones of x dtype (onnxruntime)
TEST(TensorRef, Dropout_v7_mask) {
  OpTester t("Dropout", 7);
  t.attr("ratio", 0.3f).input("x", Tensor::fromVector<float>({2,3}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f})).expect("o0", Tensor::fromVector<float>({2,3}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f})).expect("o1", Tensor::fromVector<float>({2,3}, {1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Dropout node, opset 10, attrs {'ratio': 0.5}, inputs
// x=np.array([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], dtype=np.float32)
TEST(TensorRef, Dropout_v10) {
  OpTester t("Dropout", 10);
  t.attr("ratio", 0.5f).input("x", Tensor::fromVector<float>({2,3}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f})).expect("o0", Tensor::fromVector<float>({2,3}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f})).expect("o1", Tensor::fromVector<bool>({2,3}, {true, true, true, true, true, true}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Dropout node, opset 13, attrs {}, inputs x=np.array([[0.0, 1.0, 2.0],
// [3.0, 4.0, 5.0]], dtype=np.float32), r=np.array(0.5, dtype=np.float32), tm=np.array(False, dtype=np.bool)
TEST(TensorRef, Dropout_v13_inputs) {
  OpTester t("Dropout", 13);
  t.input("x", Tensor::fromVector<float>({2,3}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f})).constantInput("r", Tensor::fromVector<float>({}, {0.5f})).constantInput("tm", Tensor::fromVector<bool>({}, {false})).expect("o0", Tensor::fromVector<float>({2,3}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f})).expect("o1", Tensor::fromVector<bool>({2,3}, {true, true, true, true, true, true}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Dropout node, opset 22, attrs {'seed': 3}, inputs x=np.array([[0.0,
// 1.0, 2.0], [3.0, 4.0, 5.0]], dtype=np.float16)
TEST(TensorRef, Dropout_v22_no_mask) {
  OpTester t("Dropout", 22);
  t.attr("seed", int64_t(3)).input("x", Tensor::fromVector<Float16>({2,3}, {Float16(0.0f), Float16(1.0f), Float16(2.0f), Float16(3.0f), Float16(4.0f), Float16(5.0f)})).expect("o0", Tensor::fromVector<Float16>({2,3}, {Float16(0.0f), Float16(1.0f), Float16(2.0f), Float16(3.0f), Float16(4.0f), Float16(5.0f)}));
  t.run();
}

// Dropout-1 is_test: output = x
TEST(TensorRef, Dropout_v1) {
  OpTester t("Dropout", 1);
  t.attr("is_test", int64_t(1)).input("x", Tensor::fromVector<float>({2,3}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f})).expect("o0", Tensor::fromVector<float>({2,3}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f}));
  t.run();
}
