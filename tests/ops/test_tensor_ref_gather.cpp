// Reference tests for the tensor family's index-driven ops (Gather,
// GatherElements, GatherND, Scatter, ScatterElements, ScatterND, OneHot,
// NonZero, EyeLike). Expected values were produced by the Python quoted above
// each test (onnx 1.22 reference evaluator or onnxruntime, numpy inputs).
#include <cmath>

#include "op_tester.h"

using namespace oinfer;
using oinfer::testing::OpTester;

// onnxruntime on one Gather node, opset 1, attrs {}, inputs x=np.array([[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0,
// 7.0], [8.0, 9.0, 10.0, 11.0]], dtype=np.float32), i=np.array([2, 0], dtype=np.int64)
TEST(TensorRef, Gather_v1_axis0) {
  OpTester t("Gather", 1);
  t.input("x", Tensor::fromVector<float>({3,4}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f, 9.0f, 10.0f, 11.0f})).constantInput("i", Tensor::fromVector<int64_t>({2}, {2, 0})).expect("o0", Tensor::fromVector<float>({2,4}, {8.0f, 9.0f, 10.0f, 11.0f, 0.0f, 1.0f, 2.0f, 3.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Gather node, opset 11, attrs {'axis': 1}, inputs x=np.array([[0.0,
// 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]], dtype=np.float32), i=np.array([[-1, 0], [1,
// 1]], dtype=np.int64)
TEST(TensorRef, Gather_v11_neg_idx) {
  OpTester t("Gather", 11);
  t.attr("axis", int64_t(1)).input("x", Tensor::fromVector<float>({3,4}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f, 9.0f, 10.0f, 11.0f})).input("i", Tensor::fromVector<int64_t>({2,2}, {-1, 0, 1, 1})).expect("o0", Tensor::fromVector<float>({3,2,2}, {3.0f, 0.0f, 1.0f, 1.0f, 7.0f, 4.0f, 5.0f, 5.0f, 11.0f, 8.0f, 9.0f, 9.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Gather node, opset 13, attrs {'axis': -1}, inputs x=np.array([[[0.0,
// 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]], [[12.0, 13.0, 14.0, 15.0], [16.0, 17.0, 18.0,
// 19.0], [20.0, 21.0, 22.0, 23.0]]], dtype=np.float32), i=np.array(2, dtype=np.int32)
TEST(TensorRef, Gather_v13_scalar_idx) {
  OpTester t("Gather", 13);
  t.attr("axis", int64_t(-1)).input("x", Tensor::fromVector<float>({2,3,4}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f, 9.0f, 10.0f, 11.0f, 12.0f, 13.0f, 14.0f, 15.0f, 16.0f, 17.0f, 18.0f, 19.0f, 20.0f, 21.0f, 22.0f, 23.0f})).input("i", Tensor::fromVector<int32_t>({}, {2})).expect("o0", Tensor::fromVector<float>({2,3}, {2.0f, 6.0f, 10.0f, 14.0f, 18.0f, 22.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Gather node, opset 13, attrs {}, inputs x=np.array(['a', 'b', 'c'],
// dtype=object), i=np.array([2, 2, 0], dtype=np.int64)
TEST(TensorRef, Gather_v13_string) {
  OpTester t("Gather", 13);
  t.input("x", Tensor::fromVector<std::string>({3}, {"a", "b", "c"})).input("i", Tensor::fromVector<int64_t>({3}, {2, 2, 0})).expect("o0", Tensor::fromVector<std::string>({3}, {"c", "c", "a"}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one GatherElements node, opset 11, attrs {'axis': 1}, inputs
// x=np.array([[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0]], dtype=np.float32), i=np.array([[0, 0], [1, -1]],
// dtype=np.int64)
TEST(TensorRef, GatherElements_v11) {
  OpTester t("GatherElements", 11);
  t.attr("axis", int64_t(1)).input("x", Tensor::fromVector<float>({2,4}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f})).input("i", Tensor::fromVector<int64_t>({2,2}, {0, 0, 1, -1})).expect("o0", Tensor::fromVector<float>({2,2}, {0.0f, 0.0f, 5.0f, 7.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one GatherElements node, opset 13, attrs {}, inputs x=np.array([[0.0,
// 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]], dtype=np.float32), i=np.array([[1, 2, 0, 2]],
// dtype=np.int32)
TEST(TensorRef, GatherElements_v13_axis0) {
  OpTester t("GatherElements", 13);
  t.input("x", Tensor::fromVector<float>({3,4}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f, 9.0f, 10.0f, 11.0f})).input("i", Tensor::fromVector<int32_t>({1,4}, {1, 2, 0, 2})).expect("o0", Tensor::fromVector<float>({1,4}, {4.0f, 9.0f, 2.0f, 11.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one GatherND node, opset 11, attrs {}, inputs x=np.array([[0.0, 1.0],
// [2.0, 3.0]], dtype=np.float32), i=np.array([[0, 0], [1, 1]], dtype=np.int64)
TEST(TensorRef, GatherND_v11) {
  OpTester t("GatherND", 11);
  t.input("x", Tensor::fromVector<float>({2,2}, {0.0f, 1.0f, 2.0f, 3.0f})).input("i", Tensor::fromVector<int64_t>({2,2}, {0, 0, 1, 1})).expect("o0", Tensor::fromVector<float>({2}, {0.0f, 3.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one GatherND node, opset 12, attrs {}, inputs x=np.array([[[0.0, 1.0],
// [2.0, 3.0]], [[4.0, 5.0], [6.0, 7.0]]], dtype=np.float32), i=np.array([[1], [0]], dtype=np.int64)
TEST(TensorRef, GatherND_v12_slices) {
  OpTester t("GatherND", 12);
  t.input("x", Tensor::fromVector<float>({2,2,2}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f})).input("i", Tensor::fromVector<int64_t>({2,1}, {1, 0})).expect("o0", Tensor::fromVector<float>({2,2,2}, {4.0f, 5.0f, 6.0f, 7.0f, 0.0f, 1.0f, 2.0f, 3.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one GatherND node, opset 13, attrs {'batch_dims': 1}, inputs
// x=np.array([[[0.0, 1.0], [2.0, 3.0]], [[4.0, 5.0], [6.0, 7.0]]], dtype=np.float32), i=np.array([[1], [0]],
// dtype=np.int64)
TEST(TensorRef, GatherND_v13_batch_dims) {
  OpTester t("GatherND", 13);
  t.attr("batch_dims", int64_t(1)).input("x", Tensor::fromVector<float>({2,2,2}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f})).input("i", Tensor::fromVector<int64_t>({2,1}, {1, 0})).expect("o0", Tensor::fromVector<float>({2,2}, {2.0f, 3.0f, 4.0f, 5.0f}));
  t.run();
}

// onnxruntime on one Scatter node, opset 9, attrs {'axis': 1}, inputs x=np.array([[0.0, 0.0, 0.0], [0.0, 0.0,
// 0.0]], dtype=np.float32), i=np.array([[1, 0], [2, 1]], dtype=np.int64), u=np.array([[1.5, 2.0], [3.0, 4.0]],
// dtype=np.float32)
TEST(TensorRef, Scatter_v9) {
  OpTester t("Scatter", 9);
  t.attr("axis", int64_t(1)).input("x", Tensor::fromVector<float>({2,3}, {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f})).input("i", Tensor::fromVector<int64_t>({2,2}, {1, 0, 2, 1})).input("u", Tensor::fromVector<float>({2,2}, {1.5f, 2.0f, 3.0f, 4.0f})).expect("o0", Tensor::fromVector<float>({2,3}, {2.0f, 1.5f, 0.0f, 0.0f, 4.0f, 3.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one ScatterElements node, opset 11, attrs {}, inputs x=np.array([[0.0,
// 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], dtype=np.float32), i=np.array([[1, 0, 2], [0, 2, 1]],
// dtype=np.int64), u=np.array([[1.0, 1.100000023841858, 1.2000000476837158], [2.0, 2.0999999046325684,
// 2.200000047683716]], dtype=np.float32)
TEST(TensorRef, ScatterElements_v11) {
  OpTester t("ScatterElements", 11);
  t.input("x", Tensor::fromVector<float>({3,3}, {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f})).input("i", Tensor::fromVector<int64_t>({2,3}, {1, 0, 2, 0, 2, 1})).input("u", Tensor::fromVector<float>({2,3}, {1.0f, 1.100000023841858f, 1.2000000476837158f, 2.0f, 2.0999999046325684f, 2.200000047683716f})).expect("o0", Tensor::fromVector<float>({3,3}, {2.0f, 1.100000023841858f, 0.0f, 1.0f, 0.0f, 2.200000047683716f, 0.0f, 2.0999999046325684f, 1.2000000476837158f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one ScatterElements node, opset 16, attrs {'axis': 1, 'reduction':
// 'add'}, inputs x=np.array([[0.0, 1.0, 2.0, 3.0, 4.0]], dtype=np.float32), i=np.array([[1, 1]],
// dtype=np.int64), u=np.array([[1.5, 2.0]], dtype=np.float32)
TEST(TensorRef, ScatterElements_v16_add) {
  OpTester t("ScatterElements", 16);
  t.attr("axis", int64_t(1)).attr("reduction", "add").input("x", Tensor::fromVector<float>({1,5}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f})).input("i", Tensor::fromVector<int64_t>({1,2}, {1, 1})).input("u", Tensor::fromVector<float>({1,2}, {1.5f, 2.0f})).expect("o0", Tensor::fromVector<float>({1,5}, {0.0f, 4.5f, 2.0f, 3.0f, 4.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one ScatterElements node, opset 18, attrs {'axis': 1, 'reduction':
// 'max'}, inputs x=np.array([[0.0, 1.0, 2.0, 3.0, 4.0]], dtype=np.float32), i=np.array([[1, -1]],
// dtype=np.int64), u=np.array([[7.5, 2.0]], dtype=np.float32)
TEST(TensorRef, ScatterElements_v18_max) {
  OpTester t("ScatterElements", 18);
  t.attr("axis", int64_t(1)).attr("reduction", "max").input("x", Tensor::fromVector<float>({1,5}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f})).input("i", Tensor::fromVector<int64_t>({1,2}, {1, -1})).input("u", Tensor::fromVector<float>({1,2}, {7.5f, 2.0f})).expect("o0", Tensor::fromVector<float>({1,5}, {0.0f, 7.5f, 2.0f, 3.0f, 4.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one ScatterND node, opset 11, attrs {}, inputs x=np.array([0.0, 1.0, 2.0,
// 3.0, 4.0, 5.0, 6.0, 7.0], dtype=np.float32), i=np.array([[4], [3], [1], [7]], dtype=np.int64),
// u=np.array([9.0, 10.0, 11.0, 12.0], dtype=np.float32)
TEST(TensorRef, ScatterND_v11) {
  OpTester t("ScatterND", 11);
  t.input("x", Tensor::fromVector<float>({8}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f})).input("i", Tensor::fromVector<int64_t>({4,1}, {4, 3, 1, 7})).input("u", Tensor::fromVector<float>({4}, {9.0f, 10.0f, 11.0f, 12.0f})).expect("o0", Tensor::fromVector<float>({8}, {0.0f, 11.0f, 2.0f, 10.0f, 9.0f, 5.0f, 6.0f, 12.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one ScatterND node, opset 16, attrs {'reduction': 'mul'}, inputs
// x=np.array([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], dtype=np.float32), i=np.array([[1], [1]], dtype=np.int64),
// u=np.array([[2.0, 2.0, 2.0], [3.0, 3.0, 3.0]], dtype=np.float32)
TEST(TensorRef, ScatterND_v16_mul) {
  OpTester t("ScatterND", 16);
  t.attr("reduction", "mul").input("x", Tensor::fromVector<float>({2,3}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f})).input("i", Tensor::fromVector<int64_t>({2,1}, {1, 1})).input("u", Tensor::fromVector<float>({2,3}, {2.0f, 2.0f, 2.0f, 3.0f, 3.0f, 3.0f})).expect("o0", Tensor::fromVector<float>({2,3}, {0.0f, 1.0f, 2.0f, 18.0f, 24.0f, 30.0f}));
  t.run();
}

// onnxruntime on one ScatterND node, opset 18, attrs {'reduction': 'min'}, inputs x=np.array([[5, 6], [7, 8]],
// dtype=np.int64), i=np.array([[0, 1], [1, 0]], dtype=np.int64), u=np.array([1, 9], dtype=np.int64)
TEST(TensorRef, ScatterND_v18_min_int64) {
  OpTester t("ScatterND", 18);
  t.attr("reduction", "min").input("x", Tensor::fromVector<int64_t>({2,2}, {5, 6, 7, 8})).input("i", Tensor::fromVector<int64_t>({2,2}, {0, 1, 1, 0})).input("u", Tensor::fromVector<int64_t>({2}, {1, 9})).expect("o0", Tensor::fromVector<int64_t>({2,2}, {5, 1, 7, 8}));
  t.run();
}

// onnxruntime on one OneHot node, opset 9, attrs {}, inputs i=np.array([0, 2, 1], dtype=np.int64), d=np.array(3,
// dtype=np.int64), v=np.array([0.0, 1.0], dtype=np.float32)
TEST(TensorRef, OneHot_v9) {
  OpTester t("OneHot", 9);
  t.input("i", Tensor::fromVector<int64_t>({3}, {0, 2, 1})).constantInput("d", Tensor::fromVector<int64_t>({}, {3})).input("v", Tensor::fromVector<float>({2}, {0.0f, 1.0f})).expect("o0", Tensor::fromVector<float>({3,3}, {1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 1.0f, 0.0f}));
  t.run();
}

// onnxruntime on one OneHot node, opset 11, attrs {'axis': 0}, inputs i=np.array([[1, -1], [5, 0]],
// dtype=np.int64), d=np.array(4, dtype=np.int64), v=np.array([2.0, 7.0], dtype=np.float32)
TEST(TensorRef, OneHot_v11_axis0_neg_out_of_range) {
  OpTester t("OneHot", 11);
  t.attr("axis", int64_t(0)).input("i", Tensor::fromVector<int64_t>({2,2}, {1, -1, 5, 0})).constantInput("d", Tensor::fromVector<int64_t>({}, {4})).input("v", Tensor::fromVector<float>({2}, {2.0f, 7.0f})).expect("o0", Tensor::fromVector<float>({4,2,2}, {2.0f, 2.0f, 2.0f, 7.0f, 7.0f, 2.0f, 2.0f, 2.0f, 2.0f, 2.0f, 2.0f, 2.0f, 2.0f, 7.0f, 2.0f, 2.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one OneHot node, opset 11, attrs {'axis': 1}, inputs i=np.array([[1, -1],
// [3, 0]], dtype=np.int32), d=np.array(4.0, dtype=np.float32), v=np.array([2, 7], dtype=np.int64)
TEST(TensorRef, OneHot_v11_float_depth_int64_values) {
  OpTester t("OneHot", 11);
  t.attr("axis", int64_t(1)).input("i", Tensor::fromVector<int32_t>({2,2}, {1, -1, 3, 0})).constantInput("d", Tensor::fromVector<float>({}, {4.0f})).input("v", Tensor::fromVector<int64_t>({2}, {2, 7})).expect("o0", Tensor::fromVector<int64_t>({2,4,2}, {2, 2, 7, 2, 2, 2, 2, 7, 2, 7, 2, 2, 2, 2, 7, 2}));
  t.run();
}

// onnxruntime on one NonZero node, opset 9, attrs {}, inputs x=np.array([[1.0, 0.0], [1.0, 1.0]],
// dtype=np.float32)
TEST(TensorRef, NonZero_v9) {
  OpTester t("NonZero", 9);
  t.input("x", Tensor::fromVector<float>({2,2}, {1.0f, 0.0f, 1.0f, 1.0f})).expect("o0", Tensor::fromVector<int64_t>({2,3}, {0, 1, 1, 0, 0, 1}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one NonZero node, opset 13, attrs {}, inputs x=np.array([True, False,
// True], dtype=np.bool)
TEST(TensorRef, NonZero_v13_bool) {
  OpTester t("NonZero", 13);
  t.input("x", Tensor::fromVector<bool>({3}, {true, false, true})).expect("o0", Tensor::fromVector<int64_t>({1,2}, {0, 2}));
  t.run();
}

// onnxruntime on one EyeLike node, opset 9, attrs {}, inputs x=np.array([[0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0,
// 0.0], [0.0, 0.0, 0.0, 0.0]], dtype=np.float32)
TEST(TensorRef, EyeLike_v9) {
  OpTester t("EyeLike", 9);
  t.input("x", Tensor::fromVector<float>({3,4}, {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f})).expect("o0", Tensor::fromVector<float>({3,4}, {1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one EyeLike node, opset 22, attrs {'k': -1, 'dtype': 7}, inputs
// x=np.array([[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], dtype=np.float32)
TEST(TensorRef, EyeLike_v22_k_dtype) {
  OpTester t("EyeLike", 22);
  t.attr("k", int64_t(-1)).attr("dtype", int64_t(7)).input("x", Tensor::fromVector<float>({3,3}, {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f})).expect("o0", Tensor::fromVector<int64_t>({3,3}, {0, 0, 0, 1, 0, 0, 0, 1, 0}));
  t.run();
}
