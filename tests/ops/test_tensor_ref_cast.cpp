// Reference tests for the tensor family's value-making ops (Cast, CastLike,
// Constant, ConstantOfShape, Range). Expected values were produced by the
// Python quoted above each test (onnx 1.22 reference evaluator or
// onnxruntime, numpy inputs).
#include <cmath>

#include "op_tester.h"

using namespace oinfer;
using oinfer::testing::OpTester;

// onnx.reference.ReferenceEvaluator on one Cast node, opset 13, attrs {'to': 6}, inputs
// x=np.array([1.7000000476837158, -1.7000000476837158, 300.5, -129.0, 2.5, 0.0], dtype=np.float32)
TEST(TensorRef, Cast_v13_float_to_int32) {
  OpTester t("Cast", 13);
  t.attr("to", int64_t(6)).input("x", Tensor::fromVector<float>({6}, {1.7000000476837158f, -1.7000000476837158f, 300.5f, -129.0f, 2.5f, 0.0f})).expect("o0", Tensor::fromVector<int32_t>({6}, {1, -1, 300, -129, 2, 0}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Cast node, opset 13, attrs {'to': 3}, inputs
// x=np.array([1.7000000476837158, -1.7000000476837158, 300.5, -129.0, 2.5, 0.0], dtype=np.float32)
TEST(TensorRef, Cast_v13_float_to_int8) {
  OpTester t("Cast", 13);
  t.attr("to", int64_t(3)).input("x", Tensor::fromVector<float>({6}, {1.7000000476837158f, -1.7000000476837158f, 300.5f, -129.0f, 2.5f, 0.0f})).expect("o0", Tensor::fromVector<int8_t>({6}, {1, -1, 44, 127, 2, 0}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Cast node, opset 13, attrs {'to': 2}, inputs
// x=np.array([1.7000000476837158, -1.7000000476837158, 300.5, -129.0, 2.5, 0.0], dtype=np.float32)
TEST(TensorRef, Cast_v13_float_to_uint8) {
  OpTester t("Cast", 13);
  t.attr("to", int64_t(2)).input("x", Tensor::fromVector<float>({6}, {1.7000000476837158f, -1.7000000476837158f, 300.5f, -129.0f, 2.5f, 0.0f})).expect("o0", Tensor::fromVector<uint8_t>({6}, {1, 255, 44, 127, 2, 0}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Cast node, opset 13, attrs {'to': 7}, inputs
// x=np.array([1.7000000476837158, -1.7000000476837158, 300.5, -129.0, 2.5, 0.0], dtype=np.float32)
TEST(TensorRef, Cast_v13_float_to_int64) {
  OpTester t("Cast", 13);
  t.attr("to", int64_t(7)).input("x", Tensor::fromVector<float>({6}, {1.7000000476837158f, -1.7000000476837158f, 300.5f, -129.0f, 2.5f, 0.0f})).expect("o0", Tensor::fromVector<int64_t>({6}, {1, -1, 300, -129, 2, 0}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Cast node, opset 13, attrs {'to': 9}, inputs
// x=np.array([1.7000000476837158, -1.7000000476837158, 300.5, -129.0, 2.5, 0.0], dtype=np.float32)
TEST(TensorRef, Cast_v13_float_to_bool) {
  OpTester t("Cast", 13);
  t.attr("to", int64_t(9)).input("x", Tensor::fromVector<float>({6}, {1.7000000476837158f, -1.7000000476837158f, 300.5f, -129.0f, 2.5f, 0.0f})).expect("o0", Tensor::fromVector<bool>({6}, {true, true, true, true, true, false}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Cast node, opset 13, attrs {'to': 11}, inputs
// x=np.array([1.7000000476837158, -1.7000000476837158, 300.5, -129.0, 2.5, 0.0], dtype=np.float32)
TEST(TensorRef, Cast_v13_float_to_double) {
  OpTester t("Cast", 13);
  t.attr("to", int64_t(11)).input("x", Tensor::fromVector<float>({6}, {1.7000000476837158f, -1.7000000476837158f, 300.5f, -129.0f, 2.5f, 0.0f})).expect("o0", Tensor::fromVector<double>({6}, {1.7000000476837158, -1.7000000476837158, 300.5, -129.0, 2.5, 0.0}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Cast node, opset 13, attrs {'to': 10}, inputs
// x=np.array([1.7000000476837158, -1.7000000476837158, 300.5, -129.0, 2.5, 0.0], dtype=np.float32)
TEST(TensorRef, Cast_v13_float_to_f16) {
  OpTester t("Cast", 13);
  t.attr("to", int64_t(10)).input("x", Tensor::fromVector<float>({6}, {1.7000000476837158f, -1.7000000476837158f, 300.5f, -129.0f, 2.5f, 0.0f})).expect("o0", Tensor::fromVector<Float16>({6}, {Float16(1.7001953125f), Float16(-1.7001953125f), Float16(300.5f), Float16(-129.0f), Float16(2.5f), Float16(0.0f)}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Cast node, opset 19, attrs {'to': 1}, inputs
// x=np.array([1.7001953125, -1.7001953125, 300.5, -129.0, 2.5, 0.0], dtype=np.float16)
TEST(TensorRef, Cast_v19_f16_to_float) {
  OpTester t("Cast", 19);
  t.attr("to", int64_t(1)).input("x", Tensor::fromVector<Float16>({6}, {Float16(1.7001953125f), Float16(-1.7001953125f), Float16(300.5f), Float16(-129.0f), Float16(2.5f), Float16(0.0f)})).expect("o0", Tensor::fromVector<float>({6}, {1.7001953125f, -1.7001953125f, 300.5f, -129.0f, 2.5f, 0.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Cast node, opset 21, attrs {'to': 1}, inputs x=np.array([3, -7,
// 1099511627776], dtype=np.int64)
TEST(TensorRef, Cast_v21_int64_to_float) {
  OpTester t("Cast", 21);
  t.attr("to", int64_t(1)).input("x", Tensor::fromVector<int64_t>({3}, {3, -7, 1099511627776})).expect("o0", Tensor::fromVector<float>({3}, {3.0f, -7.0f, 1099511627776.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Cast node, opset 13, attrs {'to': 7}, inputs x=np.array([3, -7],
// dtype=np.int32)
TEST(TensorRef, Cast_v13_int32_to_int64) {
  OpTester t("Cast", 13);
  t.attr("to", int64_t(7)).input("x", Tensor::fromVector<int32_t>({2}, {3, -7})).expect("o0", Tensor::fromVector<int64_t>({2}, {3, -7}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Cast node, opset 13, attrs {'to': 1}, inputs x=np.array([True,
// False], dtype=np.bool)
TEST(TensorRef, Cast_v13_bool_to_float) {
  OpTester t("Cast", 13);
  t.attr("to", int64_t(1)).input("x", Tensor::fromVector<bool>({2}, {true, false})).expect("o0", Tensor::fromVector<float>({2}, {1.0f, 0.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Cast node, opset 13, attrs {'to': 3}, inputs x=np.array([0, 200,
// 127], dtype=np.uint8)
TEST(TensorRef, Cast_v13_uint8_to_int8) {
  OpTester t("Cast", 13);
  t.attr("to", int64_t(3)).input("x", Tensor::fromVector<uint8_t>({3}, {0, 200, 127})).expect("o0", Tensor::fromVector<int8_t>({3}, {0, -56, 127}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Cast node, opset 13, attrs {'to': 9}, inputs x=np.array([0, 5, -1],
// dtype=np.int64)
TEST(TensorRef, Cast_v13_int64_to_bool) {
  OpTester t("Cast", 13);
  t.attr("to", int64_t(9)).input("x", Tensor::fromVector<int64_t>({3}, {0, 5, -1})).expect("o0", Tensor::fromVector<bool>({3}, {false, true, true}));
  t.run();
}

// onnxruntime on one Cast node, opset 9, attrs {'to': 8}, inputs x=np.array([1.5, 0.10000000149011612,
// 1.0000000200408773e+20, -3.0, nan, inf], dtype=np.float32)
TEST(TensorRef, Cast_v9_float_to_string) {
  OpTester t("Cast", 9);
  t.attr("to", int64_t(8)).input("x", Tensor::fromVector<float>({6}, {1.5f, 0.10000000149011612f, 1.0000000200408773e+20f, -3.0f, std::nanf(""), INFINITY})).expect("o0", Tensor::fromVector<std::string>({6}, {"1.5", "0.1", "1e+20", "-3", "NaN", "INF"}));
  t.run();
}

// onnxruntime on one Cast node, opset 9, attrs {'to': 8}, inputs x=np.array([1, -2, 300], dtype=np.int64)
TEST(TensorRef, Cast_v9_int_to_string) {
  OpTester t("Cast", 9);
  t.attr("to", int64_t(8)).input("x", Tensor::fromVector<int64_t>({3}, {1, -2, 300})).expect("o0", Tensor::fromVector<std::string>({3}, {"1", "-2", "300"}));
  t.run();
}

// onnxruntime on one Cast node, opset 9, attrs {'to': 1}, inputs x=np.array(['1.5', '-2', '1e3', 'inf', '-INF'],
// dtype=object)
TEST(TensorRef, Cast_v9_string_to_float) {
  OpTester t("Cast", 9);
  t.attr("to", int64_t(1)).input("x", Tensor::fromVector<std::string>({5}, {"1.5", "-2", "1e3", "inf", "-INF"})).expect("o0", Tensor::fromVector<float>({5}, {1.5f, -2.0f, 1000.0f, INFINITY, -INFINITY}));
  t.run();
}

// onnxruntime on one Cast node, opset 9, attrs {'to': 7}, inputs x=np.array(['1', '-2', '30'], dtype=object)
TEST(TensorRef, Cast_v9_string_to_int64) {
  OpTester t("Cast", 9);
  t.attr("to", int64_t(7)).input("x", Tensor::fromVector<std::string>({3}, {"1", "-2", "30"})).expect("o0", Tensor::fromVector<int64_t>({3}, {1, -2, 30}));
  t.run();
}

// onnxruntime on one Cast node, opset 6, attrs {'to': 1}, inputs x=np.array([0.1, 2.5], dtype=np.float64)
TEST(TensorRef, Cast_v6_double_to_float) {
  OpTester t("Cast", 6);
  t.attr("to", int64_t(1)).input("x", Tensor::fromVector<double>({2}, {0.1, 2.5})).expect("o0", Tensor::fromVector<float>({2}, {0.10000000149011612f, 2.5f}));
  t.run();
}

// Cast-1 to='INT32' (type named by string): np.array([1.9,-2.2],np.float32).astype(np.int32)
TEST(TensorRef, Cast_v1_string_to_attr) {
  OpTester t("Cast", 1);
  t.attr("to", "INT32").input("x", Tensor::fromVector<float>({2}, {1.899999976158142f, -2.200000047683716f})).expect("o0", Tensor::fromVector<int32_t>({2}, {1, -2}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one CastLike node, opset 15, attrs {}, inputs
// x=np.array([1.7000000476837158, -1.7000000476837158, 300.5, -129.0, 2.5, 0.0], dtype=np.float32),
// t=np.array([1], dtype=np.int64)
TEST(TensorRef, CastLike_v15) {
  OpTester t("CastLike", 15);
  t.input("x", Tensor::fromVector<float>({6}, {1.7000000476837158f, -1.7000000476837158f, 300.5f, -129.0f, 2.5f, 0.0f})).input("t", Tensor::fromVector<int64_t>({1}, {1})).expect("o0", Tensor::fromVector<int64_t>({6}, {1, -1, 300, -129, 2, 0}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one CastLike node, opset 19, attrs {}, inputs x=np.array([1, 2049],
// dtype=np.int64), t=np.array([1.0], dtype=np.float16)
TEST(TensorRef, CastLike_v19_to_f16) {
  OpTester t("CastLike", 19);
  t.input("x", Tensor::fromVector<int64_t>({2}, {1, 2049})).input("t", Tensor::fromVector<Float16>({1}, {Float16(1.0f)})).expect("o0", Tensor::fromVector<Float16>({2}, {Float16(1.0f), Float16(2048.0f)}));
  t.run();
}

// onnxruntime on one Constant node, opset 9, attrs {'value': array([[1., 2.],        [3., 4.]], dtype=float32)},
// inputs
TEST(TensorRef, Constant_v9_tensor) {
  OpTester t("Constant", 9);
  t.attr("value", Tensor::fromVector<float>({2,2}, {1.0f, 2.0f, 3.0f, 4.0f})).expect("o0", Tensor::fromVector<float>({2,2}, {1.0f, 2.0f, 3.0f, 4.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Constant node, opset 12, attrs {'value_float': 2.5}, inputs
TEST(TensorRef, Constant_v12_value_float) {
  OpTester t("Constant", 12);
  t.attr("value_float", 2.5f).expect("o0", Tensor::fromVector<float>({}, {2.5f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Constant node, opset 12, attrs {'value_ints': [1, -2, 3]}, inputs
TEST(TensorRef, Constant_v12_value_ints) {
  OpTester t("Constant", 12);
  t.attr("value_ints", std::vector<int64_t>{1, -2, 3}).expect("o0", Tensor::fromVector<int64_t>({3}, {1, -2, 3}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Constant node, opset 13, attrs {'value_int': 7}, inputs
TEST(TensorRef, Constant_v13_value_int) {
  OpTester t("Constant", 13);
  t.attr("value_int", int64_t(7)).expect("o0", Tensor::fromVector<int64_t>({}, {7}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Constant node, opset 19, attrs {'value_floats': [0.5, 1.5]}, inputs
TEST(TensorRef, Constant_v19_value_floats) {
  OpTester t("Constant", 19);
  t.attr("value_floats", std::vector<float>{0.5f, 1.5f}).expect("o0", Tensor::fromVector<float>({2}, {0.5f, 1.5f}));
  t.run();
}

// Constant-1 value=np.array([4,5],np.int64)
TEST(TensorRef, Constant_v1_int64_tensor) {
  OpTester t("Constant", 1);
  t.attr("value", Tensor::fromVector<int64_t>({2}, {4, 5})).expect("o0", Tensor::fromVector<int64_t>({2}, {4, 5}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one ConstantOfShape node, opset 9, attrs {}, inputs s=np.array([2, 3],
// dtype=np.int64)
TEST(TensorRef, ConstantOfShape_v9_default) {
  OpTester t("ConstantOfShape", 9);
  t.constantInput("s", Tensor::fromVector<int64_t>({2}, {2, 3})).expect("o0", Tensor::fromVector<float>({2,3}, {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one ConstantOfShape node, opset 9, attrs {'value': array([7])}, inputs
// s=np.array([3], dtype=np.int64)
TEST(TensorRef, ConstantOfShape_v9_int64_value) {
  OpTester t("ConstantOfShape", 9);
  t.attr("value", Tensor::fromVector<int64_t>({1}, {7})).input("s", Tensor::fromVector<int64_t>({1}, {3})).expect("o0", Tensor::fromVector<int64_t>({3}, {7, 7, 7}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one ConstantOfShape node, opset 20, attrs {'value': array([1.5],
// dtype=float32)}, inputs s=np.array([], dtype=np.int64)
TEST(TensorRef, ConstantOfShape_v20_scalar) {
  OpTester t("ConstantOfShape", 20);
  t.attr("value", Tensor::fromVector<float>({1}, {1.5f})).constantInput("s", Tensor::fromVector<int64_t>({0}, {})).expect("o0", Tensor::fromVector<float>({}, {1.5f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one ConstantOfShape node, opset 21, attrs {'value': array([ True])},
// inputs s=np.array([2, 0], dtype=np.int64)
TEST(TensorRef, ConstantOfShape_v21_bool_zero_dim) {
  OpTester t("ConstantOfShape", 21);
  t.attr("value", Tensor::fromVector<bool>({1}, {true})).constantInput("s", Tensor::fromVector<int64_t>({2}, {2, 0})).expect("o0", Tensor::fromVector<bool>({2,0}, {}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Range node, opset 11, attrs {}, inputs a=np.array(3, dtype=np.int64),
// b=np.array(9, dtype=np.int64), c=np.array(3, dtype=np.int64)
TEST(TensorRef, Range_v11_int) {
  OpTester t("Range", 11);
  t.constantInput("a", Tensor::fromVector<int64_t>({}, {3})).constantInput("b", Tensor::fromVector<int64_t>({}, {9})).constantInput("c", Tensor::fromVector<int64_t>({}, {3})).expect("o0", Tensor::fromVector<int64_t>({2}, {3, 6}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Range node, opset 11, attrs {}, inputs a=np.array(10,
// dtype=np.int32), b=np.array(4, dtype=np.int32), c=np.array(-2, dtype=np.int32)
TEST(TensorRef, Range_v11_neg_delta) {
  OpTester t("Range", 11);
  t.constantInput("a", Tensor::fromVector<int32_t>({}, {10})).constantInput("b", Tensor::fromVector<int32_t>({}, {4})).constantInput("c", Tensor::fromVector<int32_t>({}, {-2})).expect("o0", Tensor::fromVector<int32_t>({3}, {10, 8, 6}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Range node, opset 11, attrs {}, inputs a=np.array(1.0,
// dtype=np.float32), b=np.array(2.200000047683716, dtype=np.float32), c=np.array(0.25, dtype=np.float32)
TEST(TensorRef, Range_v11_float) {
  OpTester t("Range", 11);
  t.input("a", Tensor::fromVector<float>({}, {1.0f})).input("b", Tensor::fromVector<float>({}, {2.200000047683716f})).input("c", Tensor::fromVector<float>({}, {0.25f})).expect("o0", Tensor::fromVector<float>({5}, {1.0f, 1.25f, 1.5f, 1.75f, 2.0f}));
  t.run();
}

// onnx.reference.ReferenceEvaluator on one Range node, opset 11, attrs {}, inputs a=np.array(5, dtype=np.int64),
// b=np.array(1, dtype=np.int64), c=np.array(1, dtype=np.int64)
TEST(TensorRef, Range_v11_empty) {
  OpTester t("Range", 11);
  t.input("a", Tensor::fromVector<int64_t>({}, {5})).input("b", Tensor::fromVector<int64_t>({}, {1})).input("c", Tensor::fromVector<int64_t>({}, {1})).expect("o0", Tensor::fromVector<int64_t>({0}, {}));
  t.run();
}

// Range-27 on doubles: np.arange(0, -1, -0.3)
TEST(TensorRef, Range_v27_double) {
  OpTester t("Range", 27);
  t.input("a", Tensor::fromVector<double>({}, {0.0})).input("b", Tensor::fromVector<double>({}, {-1.0})).input("c", Tensor::fromVector<double>({}, {-0.3})).expect("o0", Tensor::fromVector<double>({4}, {0.0, -0.3, -0.6, -0.8999999999999999}));
  t.run();
}

// Range-27 in float16 / bfloat16: onnx.reference.ReferenceEvaluator on one Range node, opset 27, inputs
// as np.array(v, np.float16) / np.array(v, ml_dtypes.bfloat16). stash_type 1 (the default) computes
// start + i * delta in float and rounds each element once; 11 in double.
//   f16 (1, 5, 2) -> [1, 3]; f16 (2048, 2056, 1) -> [2048, 2048, 2050, 2052, 2052, 2052, 2054, 2056]
//   f16 (0.1, 1, 0.3), stash_type=11 -> [0.0999755859375, 0.39990234375, 0.7001953125]
//   bf16 (256, 262, 1.5) -> [256, 258, 260, 260]; bf16 (-1, 0.5, 0.375), stash_type=11 -> [-1, -0.625, -0.25, 0.125]
namespace {

template <class H>
Tensor halfTensor(std::vector<int64_t> shape, const std::vector<float>& v) {
  std::vector<H> h;
  for (float f : v) h.push_back(H(f));
  return Tensor::fromVector<H>(std::move(shape), h);
}

template <class H>
void rangeHalf(float a, float b, float c, int64_t stash, const std::vector<float>& expected) {
  OpTester t("Range", 27);
  if (stash) t.attr("stash_type", stash);
  t.input("a", halfTensor<H>({}, {a})).input("b", halfTensor<H>({}, {b})).input("c", halfTensor<H>({}, {c}))
      .expect("o0", halfTensor<H>({static_cast<int64_t>(expected.size())}, expected), 0, 0);
  t.run();
}

}  // namespace

TEST(TensorRef, Range_v27_float16) {
  rangeHalf<Float16>(1, 5, 2, 0, {1, 3});
  rangeHalf<Float16>(2048, 2056, 1, 0, {2048, 2048, 2050, 2052, 2052, 2052, 2054, 2056});
  rangeHalf<Float16>(0.1f, 1, 0.3f, 11, {0.0999755859375f, 0.39990234375f, 0.7001953125f});
}

TEST(TensorRef, Range_v27_bfloat16) {
  rangeHalf<BFloat16>(1, 5, 2, 0, {1, 3});
  rangeHalf<BFloat16>(256, 262, 1.5f, 0, {256, 258, 260, 260});
  rangeHalf<BFloat16>(-1, 0.5f, 0.375f, 11, {-1, -0.625f, -0.25f, 0.125f});
}

TEST(TensorRef, Range_v27_bad_stash_type) {
  OpTester t("Range", 27);
  t.attr("stash_type", int64_t{10})
      .input("a", halfTensor<Float16>({}, {1})).input("b", halfTensor<Float16>({}, {5}))
      .input("c", halfTensor<Float16>({}, {2}))
      .output("o0");
  t.expectError("stash_type must be 1 (float) or 11 (double), got 10");
}
