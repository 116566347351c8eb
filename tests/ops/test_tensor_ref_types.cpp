// Reference tests for the tensor family's byte-moving ops on strings and
// other element sizes. Expected values were produced by the Python quoted
// above each test (onnx 1.22 reference evaluator, numpy inputs).
#include <cmath>

#include "op_tester.h"

using namespace oinfer;
using oinfer::testing::OpTester;

// onnx.reference.ReferenceEvaluator on one Slice node, opset 13, attrs {}, inputs x=np.array([['a', 'b', 'c'],
// ['d', 'e', 'f']], dtype=object), s=np.array([-1], dtype=np.int64), e=np.array([-10], dtype=np.int64),
// a=np.array([1], dtype=np.int64), st=np.array([-2], dtype=np.int64)
TEST(TensorRef, Slice_v13_string_neg_step) {
  OpTester t("Slice", 13);
  t.input("x", Tensor::fromVector<std::string>({2,3}, {"a", "b", "c", "d", "e", "f"})).constantInput("s", Tensor::fromVector<int64_t>({1}, {-1})).constantInput("e", Tensor::fromVector<int64_t>({1}, {-10})).constantInput("a", Tensor::fromVector<int64_t>({1}, {1})).constantInput("st", Tensor::fromVector<int64_t>({1}, {-2})).expect("o0", Tensor::fromVector<std::string>({2,2}, {"c", "a", "f", "d"}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Tile node, opset 13, attrs {}, inputs x=np.array([['a', 'b', 'c'],
// ['d', 'e', 'f']], dtype=object), r=np.array([2, 1], dtype=np.int64)
TEST(TensorRef, Tile_v13_string) {
  OpTester t("Tile", 13);
  t.input("x", Tensor::fromVector<std::string>({2,3}, {"a", "b", "c", "d", "e", "f"})).constantInput("r", Tensor::fromVector<int64_t>({2}, {2, 1})).expect("o0", Tensor::fromVector<std::string>({4,3}, {"a", "b", "c", "d", "e", "f", "a", "b", "c", "d", "e", "f"}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Expand node, opset 13, attrs {}, inputs x=np.array([['x'], ['y']],
// dtype=object), s=np.array([2, 3], dtype=np.int64)
TEST(TensorRef, Expand_v13_string) {
  OpTester t("Expand", 13);
  t.input("x", Tensor::fromVector<std::string>({2,1}, {"x", "y"})).constantInput("s", Tensor::fromVector<int64_t>({2}, {2, 3})).expect("o0", Tensor::fromVector<std::string>({2,3}, {"x", "x", "x", "y", "y", "y"}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Transpose node, opset 13, attrs {}, inputs x=np.array([['a', 'b',
// 'c'], ['d', 'e', 'f']], dtype=object)
TEST(TensorRef, Transpose_v13_string) {
  OpTester t("Transpose", 13);
  t.input("x", Tensor::fromVector<std::string>({2,3}, {"a", "b", "c", "d", "e", "f"})).expect("o0", Tensor::fromVector<std::string>({3,2}, {"a", "d", "b", "e", "c", "f"}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Gather node, opset 13, attrs {'axis': 1}, inputs x=np.array([[[0.0,
// 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]], [[12.0, 13.0, 14.0, 15.0], [16.0, 17.0, 18.0,
// 19.0], [20.0, 21.0, 22.0, 23.0]]], dtype=np.float64), i=np.array([[2], [0]], dtype=np.int32)
TEST(TensorRef, Gather_v13_axis1_3d_int32_idx) {
  OpTester t("Gather", 13);
  t.attr("axis", int64_t(1)).input("x", Tensor::fromVector<double>({2,3,4}, {0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0})).input("i", Tensor::fromVector<int32_t>({2,1}, {2, 0})).expect("o0", Tensor::fromVector<double>({2,2,1,4}, {8.0, 9.0, 10.0, 11.0, 0.0, 1.0, 2.0, 3.0, 20.0, 21.0, 22.0, 23.0, 12.0, 13.0, 14.0, 15.0}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Pad node, opset 13, attrs {'mode': 'reflect'}, inputs
// x=np.array([[[0, 1, 2], [3, 4, 5], [6, 7, 8]], [[9, 10, 11], [12, 13, 14], [15, 16, 17]]], dtype=np.uint16),
// p=np.array([0, 1, 2, 1, 1, 0], dtype=np.int64)
TEST(TensorRef, Pad_v13_reflect_uint16_3d) {
  OpTester t("Pad", 13);
  t.attr("mode", "reflect").input("x", Tensor::fromVector<uint16_t>({2,3,3}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17})).constantInput("p", Tensor::fromVector<int64_t>({6}, {0, 1, 2, 1, 1, 0})).expect("o0", Tensor::fromVector<uint16_t>({3,5,5}, {5, 4, 3, 4, 5, 2, 1, 0, 1, 2, 5, 4, 3, 4, 5, 8, 7, 6, 7, 8, 5, 4, 3, 4, 5, 14, 13, 12, 13, 14, 11, 10, 9, 10, 11, 14, 13, 12, 13, 14, 17, 16, 15, 16, 17, 14, 13, 12, 13, 14, 5, 4, 3, 4, 5, 2, 1, 0, 1, 2, 5, 4, 3, 4, 5, 8, 7, 6, 7, 8, 5, 4, 3, 4, 5}));
  t.run();
}
