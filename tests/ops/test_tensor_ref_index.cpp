// Reference tests for the tensor family's window ops (Slice, Expand, Tile,
// Pad, Trilu, DepthToSpace, SpaceToDepth). Expected values were produced by
// the Python quoted above each test (onnx 1.22 reference evaluator or
// onnxruntime, numpy inputs).
#include <cmath>

#include "op_tester.h"

using namespace oinfer;
using oinfer::testing::OpTester;

// Slice-1 starts=[1,0] ends=[3,2] axes=[0,1]: numpy x[1:3, 0:2], x=np.arange(12).reshape(3,4)
TEST(TensorRef, Slice_v1_attrs) {
  OpTester t("Slice", 1);
  t.attr("starts", std::vector<int64_t>{1, 0}).attr("ends", std::vector<int64_t>{3, 2}).attr("axes", std::vector<int64_t>{0, 1}).input("x", Tensor::fromVector<float>({3,4}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f, 9.0f, 10.0f, 11.0f})).expect("o0", Tensor::fromVector<float>({2,2}, {4.0f, 5.0f, 8.0f, 9.0f}));
  t.run();
}

// Slice-1 starts=[-2] ends=[1000]: numpy x[-2:], x=np.arange(12).reshape(3,4)
TEST(TensorRef, Slice_v1_no_axes) {
  OpTester t("Slice", 1);
  t.attr("starts", std::vector<int64_t>{-2}).attr("ends", std::vector<int64_t>{1000}).input("x", Tensor::fromVector<float>({3,4}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f, 9.0f, 10.0f, 11.0f})).expect("o0", Tensor::fromVector<float>({2,4}, {4.0f, 5.0f, 6.0f, 7.0f, 8.0f, 9.0f, 10.0f, 11.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Slice node, opset 10, attrs {}, inputs x=np.array([[0.0, 1.0, 2.0,
// 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]], dtype=np.float32), s=np.array([0, 1], dtype=np.int64),
// e=np.array([3, 4], dtype=np.int64), a=np.array([0, 1], dtype=np.int64), st=np.array([2, 2], dtype=np.int64)
TEST(TensorRef, Slice_v10_steps) {
  OpTester t("Slice", 10);
  t.input("x", Tensor::fromVector<float>({3,4}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f, 9.0f, 10.0f, 11.0f})).constantInput("s", Tensor::fromVector<int64_t>({2}, {0, 1})).constantInput("e", Tensor::fromVector<int64_t>({2}, {3, 4})).constantInput("a", Tensor::fromVector<int64_t>({2}, {0, 1})).constantInput("st", Tensor::fromVector<int64_t>({2}, {2, 2})).expect("o0", Tensor::fromVector<float>({2,2}, {1.0f, 3.0f, 9.0f, 11.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Slice node, opset 11, attrs {}, inputs x=np.array([[0.0, 1.0, 2.0,
// 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]], dtype=np.float32), s=np.array([-1], dtype=np.int64),
// e=np.array([-1000], dtype=np.int64), a=np.array([1], dtype=np.int64), st=np.array([-1], dtype=np.int64)
TEST(TensorRef, Slice_v11_neg_step) {
  OpTester t("Slice", 11);
  t.input("x", Tensor::fromVector<float>({3,4}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f, 9.0f, 10.0f, 11.0f})).constantInput("s", Tensor::fromVector<int64_t>({1}, {-1})).constantInput("e", Tensor::fromVector<int64_t>({1}, {-1000})).constantInput("a", Tensor::fromVector<int64_t>({1}, {1})).constantInput("st", Tensor::fromVector<int64_t>({1}, {-1})).expect("o0", Tensor::fromVector<float>({3,4}, {3.0f, 2.0f, 1.0f, 0.0f, 7.0f, 6.0f, 5.0f, 4.0f, 11.0f, 10.0f, 9.0f, 8.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Slice node, opset 13, attrs {}, inputs x=np.array([[0.0, 1.0, 2.0,
// 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]], dtype=np.float32), s=np.array([1], dtype=np.int64),
// e=np.array([9223372036854775807], dtype=np.int64), a=np.array([-1], dtype=np.int64)
TEST(TensorRef, Slice_v13_huge) {
  OpTester t("Slice", 13);
  t.input("x", Tensor::fromVector<float>({3,4}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f, 9.0f, 10.0f, 11.0f})).constantInput("s", Tensor::fromVector<int64_t>({1}, {1})).constantInput("e", Tensor::fromVector<int64_t>({1}, {9223372036854775807})).constantInput("a", Tensor::fromVector<int64_t>({1}, {-1})).expect("o0", Tensor::fromVector<float>({3,3}, {1.0f, 2.0f, 3.0f, 5.0f, 6.0f, 7.0f, 9.0f, 10.0f, 11.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Slice node, opset 13, attrs {}, inputs x=np.array([0.0, 1.0, 2.0,
// 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0], dtype=np.float32), s=np.array([8], dtype=np.int64), e=np.array([1],
// dtype=np.int64), a=np.array([0], dtype=np.int64), st=np.array([-3], dtype=np.int64)
TEST(TensorRef, Slice_v13_neg_step3) {
  OpTester t("Slice", 13);
  t.input("x", Tensor::fromVector<float>({10}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f, 9.0f})).constantInput("s", Tensor::fromVector<int64_t>({1}, {8})).constantInput("e", Tensor::fromVector<int64_t>({1}, {1})).constantInput("a", Tensor::fromVector<int64_t>({1}, {0})).constantInput("st", Tensor::fromVector<int64_t>({1}, {-3})).expect("o0", Tensor::fromVector<float>({3}, {8.0f, 5.0f, 2.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Slice node, opset 13, attrs {}, inputs x=np.array([[0.0, 1.0, 2.0,
// 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]], dtype=np.float32), s=np.array([3], dtype=np.int64),
// e=np.array([1], dtype=np.int64), a=np.array([1], dtype=np.int64)
TEST(TensorRef, Slice_v13_empty) {
  OpTester t("Slice", 13);
  t.input("x", Tensor::fromVector<float>({3,4}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f, 9.0f, 10.0f, 11.0f})).constantInput("s", Tensor::fromVector<int64_t>({1}, {3})).constantInput("e", Tensor::fromVector<int64_t>({1}, {1})).constantInput("a", Tensor::fromVector<int64_t>({1}, {1})).expect("o0", Tensor::fromVector<float>({3,0}, {}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Slice node, opset 13, attrs {}, inputs x=np.array([[[0, 1, 2, 3], [4,
// 5, 6, 7], [8, 9, 10, 11]], [[12, 13, 14, 15], [16, 17, 18, 19], [20, 21, 22, 23]]], dtype=np.int64),
// s=np.array([1, -3], dtype=np.int32), e=np.array([2, -1], dtype=np.int32), a=np.array([0, 2], dtype=np.int32)
TEST(TensorRef, Slice_v13_runtime_inputs_int32) {
  OpTester t("Slice", 13);
  t.input("x", Tensor::fromVector<int64_t>({2,3,4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23})).input("s", Tensor::fromVector<int32_t>({2}, {1, -3})).input("e", Tensor::fromVector<int32_t>({2}, {2, -1})).input("a", Tensor::fromVector<int32_t>({2}, {0, 2})).expect("o0", Tensor::fromVector<int64_t>({1,3,2}, {13, 14, 17, 18, 21, 22}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Expand node, opset 8, attrs {}, inputs x=np.array([[0.0], [1.0],
// [2.0]], dtype=np.float32), s=np.array([2, 1, 4], dtype=np.int64)
TEST(TensorRef, Expand_v8) {
  OpTester t("Expand", 8);
  t.input("x", Tensor::fromVector<float>({3,1}, {0.0f, 1.0f, 2.0f})).constantInput("s", Tensor::fromVector<int64_t>({3}, {2, 1, 4})).expect("o0", Tensor::fromVector<float>({2,3,4}, {0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 1.0f, 1.0f, 1.0f, 2.0f, 2.0f, 2.0f, 2.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 1.0f, 1.0f, 1.0f, 2.0f, 2.0f, 2.0f, 2.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Expand node, opset 13, attrs {}, inputs x=np.array([[0.0, 1.0, 2.0]],
// dtype=np.float32), s=np.array([3], dtype=np.int64)
TEST(TensorRef, Expand_v13_keep) {
  OpTester t("Expand", 13);
  t.input("x", Tensor::fromVector<float>({1,3}, {0.0f, 1.0f, 2.0f})).constantInput("s", Tensor::fromVector<int64_t>({1}, {3})).expect("o0", Tensor::fromVector<float>({1,3}, {0.0f, 1.0f, 2.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Expand node, opset 13, attrs {}, inputs x=np.array([[0.0], [1.0]],
// dtype=np.float32), s=np.array([1, 1], dtype=np.int64)
TEST(TensorRef, Expand_v13_ones_runtime) {
  OpTester t("Expand", 13);
  t.input("x", Tensor::fromVector<float>({2,1}, {0.0f, 1.0f})).input("s", Tensor::fromVector<int64_t>({2}, {1, 1})).expect("o0", Tensor::fromVector<float>({2,1}, {0.0f, 1.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Tile node, opset 6, attrs {}, inputs x=np.array([[0.0, 1.0], [2.0,
// 3.0]], dtype=np.float32), r=np.array([1, 2], dtype=np.int64)
TEST(TensorRef, Tile_v6) {
  OpTester t("Tile", 6);
  t.input("x", Tensor::fromVector<float>({2,2}, {0.0f, 1.0f, 2.0f, 3.0f})).constantInput("r", Tensor::fromVector<int64_t>({2}, {1, 2})).expect("o0", Tensor::fromVector<float>({2,4}, {0.0f, 1.0f, 0.0f, 1.0f, 2.0f, 3.0f, 2.0f, 3.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Tile node, opset 13, attrs {}, inputs x=np.array([[True, False]],
// dtype=np.bool), r=np.array([2, 2], dtype=np.int64)
TEST(TensorRef, Tile_v13_3d_bool) {
  OpTester t("Tile", 13);
  t.input("x", Tensor::fromVector<bool>({1,2}, {true, false})).input("r", Tensor::fromVector<int64_t>({2}, {2, 2})).expect("o0", Tensor::fromVector<bool>({2,4}, {true, false, true, false, true, false, true, false}));
  t.run();
}

// Tile-1 tiles=3 axis=1: np.tile(x, (1, 3)), x=np.arange(4).reshape(2,2)
TEST(TensorRef, Tile_v1_axis) {
  OpTester t("Tile", 1);
  t.input("x", Tensor::fromVector<float>({2,2}, {0.0f, 1.0f, 2.0f, 3.0f})).constantInput("t", Tensor::fromVector<int64_t>({}, {3})).constantInput("a", Tensor::fromVector<int64_t>({}, {1})).expect("o0", Tensor::fromVector<float>({2,6}, {0.0f, 1.0f, 0.0f, 1.0f, 0.0f, 1.0f, 2.0f, 3.0f, 2.0f, 3.0f, 2.0f, 3.0f}));
  t.run();
}

// onnxruntime on one Pad node, opset 2, attrs {'pads': [0, 1, 1, 0], 'value': 1.5}, inputs x=np.array([[1.0,
// 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=np.float32)
TEST(TensorRef, Pad_v2_attr) {
  OpTester t("Pad", 2);
  t.attr("pads", std::vector<int64_t>{0, 1, 1, 0}).attr("value", 1.5f).input("x", Tensor::fromVector<float>({2,3}, {1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f})).expect("o0", Tensor::fromVector<float>({3,4}, {1.5f, 1.0f, 2.0f, 3.0f, 1.5f, 4.0f, 5.0f, 6.0f, 1.5f, 1.5f, 1.5f, 1.5f}));
  t.run();
}

// Pad-1 paddings=[1,0,0,1] mode=edge: np.pad(x, ((1,0),(0,1)), mode='edge'), x=np.arange(1,7).reshape(2,3)
TEST(TensorRef, Pad_v1_paddings) {
  OpTester t("Pad", 1);
  t.attr("paddings", std::vector<int64_t>{1, 0, 0, 1}).attr("mode", "edge").input("x", Tensor::fromVector<float>({2,3}, {1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f})).expect("o0", Tensor::fromVector<float>({3,4}, {1.0f, 2.0f, 3.0f, 3.0f, 1.0f, 2.0f, 3.0f, 3.0f, 4.0f, 5.0f, 6.0f, 6.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Pad node, opset 11, attrs {}, inputs x=np.array([[1.0, 2.0, 3.0],
// [4.0, 5.0, 6.0]], dtype=np.float32), p=np.array([1, 2, 0, 1], dtype=np.int64), v=np.array(-1.0,
// dtype=np.float32)
TEST(TensorRef, Pad_v11_constant) {
  OpTester t("Pad", 11);
  t.input("x", Tensor::fromVector<float>({2,3}, {1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f})).constantInput("p", Tensor::fromVector<int64_t>({4}, {1, 2, 0, 1})).constantInput("v", Tensor::fromVector<float>({}, {-1.0f})).expect("o0", Tensor::fromVector<float>({3,6}, {-1.0f, -1.0f, -1.0f, -1.0f, -1.0f, -1.0f, -1.0f, -1.0f, 1.0f, 2.0f, 3.0f, -1.0f, -1.0f, -1.0f, 4.0f, 5.0f, 6.0f, -1.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Pad node, opset 13, attrs {'mode': 'reflect'}, inputs
// x=np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=np.float32), p=np.array([1, 2, 1, 2], dtype=np.int64)
TEST(TensorRef, Pad_v13_reflect) {
  OpTester t("Pad", 13);
  t.attr("mode", "reflect").input("x", Tensor::fromVector<float>({2,3}, {1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f})).constantInput("p", Tensor::fromVector<int64_t>({4}, {1, 2, 1, 2})).expect("o0", Tensor::fromVector<float>({4,7}, {6.0f, 5.0f, 4.0f, 5.0f, 6.0f, 5.0f, 4.0f, 3.0f, 2.0f, 1.0f, 2.0f, 3.0f, 2.0f, 1.0f, 6.0f, 5.0f, 4.0f, 5.0f, 6.0f, 5.0f, 4.0f, 3.0f, 2.0f, 1.0f, 2.0f, 3.0f, 2.0f, 1.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Pad node, opset 13, attrs {'mode': 'edge'}, inputs x=np.array([[1, 2,
// 3], [4, 5, 6]], dtype=np.int32), p=np.array([0, 2, 1, 1], dtype=np.int64)
TEST(TensorRef, Pad_v13_edge_int32) {
  OpTester t("Pad", 13);
  t.attr("mode", "edge").input("x", Tensor::fromVector<int32_t>({2,3}, {1, 2, 3, 4, 5, 6})).input("p", Tensor::fromVector<int64_t>({4}, {0, 2, 1, 1})).expect("o0", Tensor::fromVector<int32_t>({3,6}, {1, 1, 1, 2, 3, 3, 4, 4, 4, 5, 6, 6, 4, 4, 4, 5, 6, 6}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Pad node, opset 18, attrs {}, inputs x=np.array([[1.0, 2.0, 3.0],
// [4.0, 5.0, 6.0]], dtype=np.float32), p=np.array([1, 2], dtype=np.int64), v=np.array(9.0, dtype=np.float32),
// a=np.array([-1], dtype=np.int64)
TEST(TensorRef, Pad_v18_axes) {
  OpTester t("Pad", 18);
  t.input("x", Tensor::fromVector<float>({2,3}, {1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f})).constantInput("p", Tensor::fromVector<int64_t>({2}, {1, 2})).constantInput("v", Tensor::fromVector<float>({}, {9.0f})).constantInput("a", Tensor::fromVector<int64_t>({1}, {-1})).expect("o0", Tensor::fromVector<float>({2,6}, {9.0f, 1.0f, 2.0f, 3.0f, 9.0f, 9.0f, 9.0f, 4.0f, 5.0f, 6.0f, 9.0f, 9.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Pad node, opset 19, attrs {'mode': 'wrap'}, inputs x=np.array([[1.0,
// 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=np.float32), p=np.array([1, 4, 0, 2], dtype=np.int64)
TEST(TensorRef, Pad_v19_wrap) {
  OpTester t("Pad", 19);
  t.attr("mode", "wrap").input("x", Tensor::fromVector<float>({2,3}, {1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f})).constantInput("p", Tensor::fromVector<int64_t>({4}, {1, 4, 0, 2})).expect("o0", Tensor::fromVector<float>({3,9}, {6.0f, 4.0f, 5.0f, 6.0f, 4.0f, 5.0f, 6.0f, 4.0f, 5.0f, 3.0f, 1.0f, 2.0f, 3.0f, 1.0f, 2.0f, 3.0f, 1.0f, 2.0f, 6.0f, 4.0f, 5.0f, 6.0f, 4.0f, 5.0f, 6.0f, 4.0f, 5.0f}));
  t.run();
}

// onnxruntime on one Pad node, opset 11, attrs {}, inputs x=np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]],
// dtype=np.float32), p=np.array([0, -1, 0, 1], dtype=np.int64)
TEST(TensorRef, Pad_v11_negative_crop) {
  OpTester t("Pad", 11);
  t.input("x", Tensor::fromVector<float>({2,3}, {1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f})).constantInput("p", Tensor::fromVector<int64_t>({4}, {0, -1, 0, 1})).expect("o0", Tensor::fromVector<float>({2,3}, {2.0f, 3.0f, 0.0f, 5.0f, 6.0f, 0.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Pad node, opset 21, attrs {}, inputs x=np.array([[1, 2, 3], [4, 5,
// 6]], dtype=np.int64), p=np.array([1, 0, 0, 0], dtype=np.int64)
TEST(TensorRef, Pad_v21_no_value) {
  OpTester t("Pad", 21);
  t.input("x", Tensor::fromVector<int64_t>({2,3}, {1, 2, 3, 4, 5, 6})).constantInput("p", Tensor::fromVector<int64_t>({4}, {1, 0, 0, 0})).expect("o0", Tensor::fromVector<int64_t>({3,3}, {0, 0, 0, 1, 2, 3, 4, 5, 6}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Trilu node, opset 14, attrs {}, inputs x=np.array([[0.0, 1.0, 2.0,
// 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]], dtype=np.float32)
TEST(TensorRef, Trilu_upper) {
  OpTester t("Trilu", 14);
  t.input("x", Tensor::fromVector<float>({3,4}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f, 9.0f, 10.0f, 11.0f})).expect("o0", Tensor::fromVector<float>({3,4}, {0.0f, 1.0f, 2.0f, 3.0f, 0.0f, 5.0f, 6.0f, 7.0f, 0.0f, 0.0f, 10.0f, 11.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Trilu node, opset 14, attrs {'upper': 0}, inputs x=np.array([[[0.0,
// 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]], [[9.0, 10.0, 11.0], [12.0, 13.0, 14.0], [15.0, 16.0, 17.0]]],
// dtype=np.float32), k=np.array(-1, dtype=np.int64)
TEST(TensorRef, Trilu_lower_k) {
  OpTester t("Trilu", 14);
  t.attr("upper", int64_t(0)).input("x", Tensor::fromVector<float>({2,3,3}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f, 9.0f, 10.0f, 11.0f, 12.0f, 13.0f, 14.0f, 15.0f, 16.0f, 17.0f})).constantInput("k", Tensor::fromVector<int64_t>({}, {-1})).expect("o0", Tensor::fromVector<float>({2,3,3}, {0.0f, 0.0f, 0.0f, 3.0f, 0.0f, 0.0f, 6.0f, 7.0f, 0.0f, 0.0f, 0.0f, 0.0f, 12.0f, 0.0f, 0.0f, 15.0f, 16.0f, 0.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Trilu node, opset 14, attrs {}, inputs x=np.array([[0, 1, 2], [3, 4,
// 5], [6, 7, 8]], dtype=np.int64), k=np.array(1, dtype=np.int64)
TEST(TensorRef, Trilu_upper_k_int64) {
  OpTester t("Trilu", 14);
  t.input("x", Tensor::fromVector<int64_t>({3,3}, {0, 1, 2, 3, 4, 5, 6, 7, 8})).input("k", Tensor::fromVector<int64_t>({}, {1})).expect("o0", Tensor::fromVector<int64_t>({3,3}, {0, 1, 2, 0, 0, 5, 0, 0, 0}));
  t.run();
}

// onnxruntime on one DepthToSpace node, opset 1, attrs {'blocksize': 2}, inputs x=np.array([[[[0.0, 1.0, 2.0],
// [3.0, 4.0, 5.0]], [[6.0, 7.0, 8.0], [9.0, 10.0, 11.0]], [[12.0, 13.0, 14.0], [15.0, 16.0, 17.0]], [[18.0,
// 19.0, 20.0], [21.0, 22.0, 23.0]], [[24.0, 25.0, 26.0], [27.0, 28.0, 29.0]], [[30.0, 31.0, 32.0], [33.0, 34.0,
// 35.0]], [[36.0, 37.0, 38.0], [39.0, 40.0, 41.0]], [[42.0, 43.0, 44.0], [45.0, 46.0, 47.0]]]],
// dtype=np.float32)
TEST(TensorRef, DepthToSpace_v1) {
  OpTester t("DepthToSpace", 1);
  t.attr("blocksize", int64_t(2)).input("x", Tensor::fromVector<float>({1,8,2,3}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f, 9.0f, 10.0f, 11.0f, 12.0f, 13.0f, 14.0f, 15.0f, 16.0f, 17.0f, 18.0f, 19.0f, 20.0f, 21.0f, 22.0f, 23.0f, 24.0f, 25.0f, 26.0f, 27.0f, 28.0f, 29.0f, 30.0f, 31.0f, 32.0f, 33.0f, 34.0f, 35.0f, 36.0f, 37.0f, 38.0f, 39.0f, 40.0f, 41.0f, 42.0f, 43.0f, 44.0f, 45.0f, 46.0f, 47.0f})).expect("o0", Tensor::fromVector<float>({1,2,4,6}, {0.0f, 12.0f, 1.0f, 13.0f, 2.0f, 14.0f, 24.0f, 36.0f, 25.0f, 37.0f, 26.0f, 38.0f, 3.0f, 15.0f, 4.0f, 16.0f, 5.0f, 17.0f, 27.0f, 39.0f, 28.0f, 40.0f, 29.0f, 41.0f, 6.0f, 18.0f, 7.0f, 19.0f, 8.0f, 20.0f, 30.0f, 42.0f, 31.0f, 43.0f, 32.0f, 44.0f, 9.0f, 21.0f, 10.0f, 22.0f, 11.0f, 23.0f, 33.0f, 45.0f, 34.0f, 46.0f, 35.0f, 47.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one DepthToSpace node, opset 11, attrs {'blocksize': 2, 'mode': 'CRD'},
// inputs x=np.array([[[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], [[6.0, 7.0, 8.0], [9.0, 10.0, 11.0]], [[12.0, 13.0,
// 14.0], [15.0, 16.0, 17.0]], [[18.0, 19.0, 20.0], [21.0, 22.0, 23.0]], [[24.0, 25.0, 26.0], [27.0, 28.0,
// 29.0]], [[30.0, 31.0, 32.0], [33.0, 34.0, 35.0]], [[36.0, 37.0, 38.0], [39.0, 40.0, 41.0]], [[42.0, 43.0,
// 44.0], [45.0, 46.0, 47.0]]]], dtype=np.float32)
TEST(TensorRef, DepthToSpace_v11_crd) {
  OpTester t("DepthToSpace", 11);
  t.attr("blocksize", int64_t(2)).attr("mode", "CRD").input("x", Tensor::fromVector<float>({1,8,2,3}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f, 9.0f, 10.0f, 11.0f, 12.0f, 13.0f, 14.0f, 15.0f, 16.0f, 17.0f, 18.0f, 19.0f, 20.0f, 21.0f, 22.0f, 23.0f, 24.0f, 25.0f, 26.0f, 27.0f, 28.0f, 29.0f, 30.0f, 31.0f, 32.0f, 33.0f, 34.0f, 35.0f, 36.0f, 37.0f, 38.0f, 39.0f, 40.0f, 41.0f, 42.0f, 43.0f, 44.0f, 45.0f, 46.0f, 47.0f})).expect("o0", Tensor::fromVector<float>({1,2,4,6}, {0.0f, 6.0f, 1.0f, 7.0f, 2.0f, 8.0f, 12.0f, 18.0f, 13.0f, 19.0f, 14.0f, 20.0f, 3.0f, 9.0f, 4.0f, 10.0f, 5.0f, 11.0f, 15.0f, 21.0f, 16.0f, 22.0f, 17.0f, 23.0f, 24.0f, 30.0f, 25.0f, 31.0f, 26.0f, 32.0f, 36.0f, 42.0f, 37.0f, 43.0f, 38.0f, 44.0f, 27.0f, 33.0f, 28.0f, 34.0f, 29.0f, 35.0f, 39.0f, 45.0f, 40.0f, 46.0f, 41.0f, 47.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one DepthToSpace node, opset 13, attrs {'blocksize': 2, 'mode': 'DCR'},
// inputs x=np.array([[[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], [[6.0, 7.0, 8.0], [9.0, 10.0, 11.0]], [[12.0, 13.0,
// 14.0], [15.0, 16.0, 17.0]], [[18.0, 19.0, 20.0], [21.0, 22.0, 23.0]], [[24.0, 25.0, 26.0], [27.0, 28.0,
// 29.0]], [[30.0, 31.0, 32.0], [33.0, 34.0, 35.0]], [[36.0, 37.0, 38.0], [39.0, 40.0, 41.0]], [[42.0, 43.0,
// 44.0], [45.0, 46.0, 47.0]]]], dtype=np.float32)
TEST(TensorRef, DepthToSpace_v13_dcr) {
  OpTester t("DepthToSpace", 13);
  t.attr("blocksize", int64_t(2)).attr("mode", "DCR").input("x", Tensor::fromVector<float>({1,8,2,3}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f, 9.0f, 10.0f, 11.0f, 12.0f, 13.0f, 14.0f, 15.0f, 16.0f, 17.0f, 18.0f, 19.0f, 20.0f, 21.0f, 22.0f, 23.0f, 24.0f, 25.0f, 26.0f, 27.0f, 28.0f, 29.0f, 30.0f, 31.0f, 32.0f, 33.0f, 34.0f, 35.0f, 36.0f, 37.0f, 38.0f, 39.0f, 40.0f, 41.0f, 42.0f, 43.0f, 44.0f, 45.0f, 46.0f, 47.0f})).expect("o0", Tensor::fromVector<float>({1,2,4,6}, {0.0f, 12.0f, 1.0f, 13.0f, 2.0f, 14.0f, 24.0f, 36.0f, 25.0f, 37.0f, 26.0f, 38.0f, 3.0f, 15.0f, 4.0f, 16.0f, 5.0f, 17.0f, 27.0f, 39.0f, 28.0f, 40.0f, 29.0f, 41.0f, 6.0f, 18.0f, 7.0f, 19.0f, 8.0f, 20.0f, 30.0f, 42.0f, 31.0f, 43.0f, 32.0f, 44.0f, 9.0f, 21.0f, 10.0f, 22.0f, 11.0f, 23.0f, 33.0f, 45.0f, 34.0f, 46.0f, 35.0f, 47.0f}));
  t.run();
}

// onnxruntime on one SpaceToDepth node, opset 1, attrs {'blocksize': 2}, inputs x=np.array([[[[0.0, 1.0, 2.0,
// 3.0, 4.0, 5.0], [6.0, 7.0, 8.0, 9.0, 10.0, 11.0], [12.0, 13.0, 14.0, 15.0, 16.0, 17.0], [18.0, 19.0, 20.0,
// 21.0, 22.0, 23.0]], [[24.0, 25.0, 26.0, 27.0, 28.0, 29.0], [30.0, 31.0, 32.0, 33.0, 34.0, 35.0], [36.0, 37.0,
// 38.0, 39.0, 40.0, 41.0], [42.0, 43.0, 44.0, 45.0, 46.0, 47.0]]]], dtype=np.float32)
TEST(TensorRef, SpaceToDepth_v1) {
  OpTester t("SpaceToDepth", 1);
  t.attr("blocksize", int64_t(2)).input("x", Tensor::fromVector<float>({1,2,4,6}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f, 9.0f, 10.0f, 11.0f, 12.0f, 13.0f, 14.0f, 15.0f, 16.0f, 17.0f, 18.0f, 19.0f, 20.0f, 21.0f, 22.0f, 23.0f, 24.0f, 25.0f, 26.0f, 27.0f, 28.0f, 29.0f, 30.0f, 31.0f, 32.0f, 33.0f, 34.0f, 35.0f, 36.0f, 37.0f, 38.0f, 39.0f, 40.0f, 41.0f, 42.0f, 43.0f, 44.0f, 45.0f, 46.0f, 47.0f})).expect("o0", Tensor::fromVector<float>({1,8,2,3}, {0.0f, 2.0f, 4.0f, 12.0f, 14.0f, 16.0f, 24.0f, 26.0f, 28.0f, 36.0f, 38.0f, 40.0f, 1.0f, 3.0f, 5.0f, 13.0f, 15.0f, 17.0f, 25.0f, 27.0f, 29.0f, 37.0f, 39.0f, 41.0f, 6.0f, 8.0f, 10.0f, 18.0f, 20.0f, 22.0f, 30.0f, 32.0f, 34.0f, 42.0f, 44.0f, 46.0f, 7.0f, 9.0f, 11.0f, 19.0f, 21.0f, 23.0f, 31.0f, 33.0f, 35.0f, 43.0f, 45.0f, 47.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one SpaceToDepth node, opset 13, attrs {'blocksize': 2}, inputs
// x=np.array([[[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0]]], [[[8.0, 9.0, 10.0, 11.0], [12.0, 13.0, 14.0,
// 15.0]]]], dtype=np.float32)
TEST(TensorRef, SpaceToDepth_v13) {
  OpTester t("SpaceToDepth", 13);
  t.attr("blocksize", int64_t(2)).input("x", Tensor::fromVector<float>({2,1,2,4}, {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f, 9.0f, 10.0f, 11.0f, 12.0f, 13.0f, 14.0f, 15.0f})).expect("o0", Tensor::fromVector<float>({2,4,1,2}, {0.0f, 2.0f, 1.0f, 3.0f, 4.0f, 6.0f, 5.0f, 7.0f, 8.0f, 10.0f, 9.0f, 11.0f, 12.0f, 14.0f, 13.0f, 15.0f}));
  t.run();
}
