// Tests of the elementwise family: unary math, comparison, logic, Where.
//
// Expected values come from onnxruntime (onnx.reference where marked) on a
// one-node model; a test's comment `ref(ARGS)` stands for
// `emit("Suite, Name", ARGS)` of the helper in test_elementwise.cpp, with
//   X = [-2.5,-0.5,0,0.3,1.5,4]; U = [-0.9,-0.5,0,0.25,0.7,0.99];
//   P = [0.01,0.5,1,2.5,10,100]
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "op_tester.h"
#include "test_elementwise_util.h"

using namespace oinfer;
using oinfer::testing::OpTester;

using oinfer::testing::half;
using oinfer::testing::kInf;
using oinfer::testing::kNaN;

// ref(op='Sqrt', ins=[A([0.01, 0.5, 1, 2.5, 10, 100], shape=(2,-1))], opset=13)
TEST(ElementwiseUnary, SqrtOpset13) {
  OpTester t("Sqrt", 13);
  t.input("A", Tensor::fromVector<float>({2,3}, {0.009999999776482582, 0.5, 1.0, 2.5, 10.0, 100.0}));
  t.expect("Y", Tensor::fromVector<float>({2,3}, {0.10000000149011612, 0.7071067690849304, 1.0, 1.5811388492584229, 3.1622776985168457, 10.0}));
  t.run();
}

// ref(op='Exp', ins=[A([-2.5, -0.5, 0, 0.3, 1.5, 4], shape=(2,-1))], opset=13)
TEST(ElementwiseUnary, ExpOpset13) {
  OpTester t("Exp", 13);
  t.input("A", Tensor::fromVector<float>({2,3}, {-2.5, -0.5, 0.0, 0.30000001192092896, 1.5, 4.0}));
  t.expect("Y", Tensor::fromVector<float>({2,3}, {0.08208499848842621, 0.6065306663513184, 1.0, 1.3498587608337402, 4.481688976287842, 54.598148345947266}));
  t.run();
}

// ref(op='Exp', ins=[A([-2.5, -0.5, 0, 0.3, 1.5, 4], shape=(2,-1))], opset=6)
TEST(ElementwiseUnary, ExpOpset6) {
  OpTester t("Exp", 6);
  t.input("A", Tensor::fromVector<float>({2,3}, {-2.5, -0.5, 0.0, 0.30000001192092896, 1.5, 4.0}));
  t.expect("Y", Tensor::fromVector<float>({2,3}, {0.08208499848842621, 0.6065306663513184, 1.0, 1.3498587608337402, 4.481688976287842, 54.598148345947266}));
  t.run();
}

// ref(op='Log', ins=[A([0.01, 0.5, 1, 2.5, 10, 100], shape=(2,-1))], opset=13)
TEST(ElementwiseUnary, LogOpset13) {
  OpTester t("Log", 13);
  t.input("A", Tensor::fromVector<float>({2,3}, {0.009999999776482582, 0.5, 1.0, 2.5, 10.0, 100.0}));
  t.expect("Y", Tensor::fromVector<float>({2,3}, {-4.605170249938965, -0.6931471824645996, 0.0, 0.9162907600402832, 2.3025851249694824, 4.605170249938965}));
  t.run();
}

// ref(op='Reciprocal', ins=[A([-2.5, -0.5, 0.3, 1.5, 4])], opset=13)
TEST(ElementwiseUnary, ReciprocalOpset13) {
  OpTester t("Reciprocal", 13);
  t.input("A", Tensor::fromVector<float>({5}, {-2.5, -0.5, 0.30000001192092896, 1.5, 4.0}));
  t.expect("Y", Tensor::fromVector<float>({5}, {-0.4000000059604645, -2.0, 3.3333332538604736, 0.6666666865348816, 0.25}));
  t.run();
}

// ref(op='Floor', ins=[A([-2.5, -0.5, 0, 0.3, 1.5, 4], shape=(2,-1))], opset=13)
TEST(ElementwiseUnary, FloorOpset13) {
  OpTester t("Floor", 13);
  t.input("A", Tensor::fromVector<float>({2,3}, {-2.5, -0.5, 0.0, 0.30000001192092896, 1.5, 4.0}));
  t.expect("Y", Tensor::fromVector<float>({2,3}, {-3.0, -1.0, 0.0, 0.0, 1.0, 4.0}));
  t.run();
}

// ref(op='Ceil', ins=[A([-2.5, -0.5, 0, 0.3, 1.5, 4], shape=(2,-1))], opset=13)
TEST(ElementwiseUnary, CeilOpset13) {
  OpTester t("Ceil", 13);
  t.input("A", Tensor::fromVector<float>({2,3}, {-2.5, -0.5, 0.0, 0.30000001192092896, 1.5, 4.0}));
  t.expect("Y", Tensor::fromVector<float>({2,3}, {-2.0, -0.0, 0.0, 1.0, 2.0, 4.0}));
  t.run();
}

// ref(op='Sin', ins=[A([-2.5, -0.5, 0, 0.3, 1.5, 4], shape=(2,-1))], opset=7)
TEST(ElementwiseUnary, SinOpset7) {
  OpTester t("Sin", 7);
  t.input("A", Tensor::fromVector<float>({2,3}, {-2.5, -0.5, 0.0, 0.30000001192092896, 1.5, 4.0}));
  t.expect("Y", Tensor::fromVector<float>({2,3}, {-0.5984721779823303, -0.4794255495071411, 0.0, 0.29552021622657776, 0.9974949955940247, -0.756802499294281}));
  t.run();
}

// ref(op='Sin', ins=[A([-2.5, -0.5, 0, 0.3, 1.5, 4], shape=(2,-1))], opset=22)
TEST(ElementwiseUnary, SinOpset22) {
  OpTester t("Sin", 22);
  t.input("A", Tensor::fromVector<float>({2,3}, {-2.5, -0.5, 0.0, 0.30000001192092896, 1.5, 4.0}));
  t.expect("Y", Tensor::fromVector<float>({2,3}, {-0.5984721779823303, -0.4794255495071411, 0.0, 0.29552021622657776, 0.9974949955940247, -0.756802499294281}));
  t.run();
}

// ref(op='Cos', ins=[A([-2.5, -0.5, 0, 0.3, 1.5, 4], shape=(2,-1))], opset=7)
TEST(ElementwiseUnary, CosOpset7) {
  OpTester t("Cos", 7);
  t.input("A", Tensor::fromVector<float>({2,3}, {-2.5, -0.5, 0.0, 0.30000001192092896, 1.5, 4.0}));
  t.expect("Y", Tensor::fromVector<float>({2,3}, {-0.8011435866355896, 0.8775825500488281, 1.0, 0.9553365111351013, 0.07073719799518585, -0.6536436080932617}));
  t.run();
}

// ref(op='Tan', ins=[A([-2.5, -0.5, 0, 0.3, 1.5, 4], shape=(2,-1))], opset=7)
TEST(ElementwiseUnary, TanOpset7) {
  OpTester t("Tan", 7);
  t.input("A", Tensor::fromVector<float>({2,3}, {-2.5, -0.5, 0.0, 0.30000001192092896, 1.5, 4.0}));
  t.expect("Y", Tensor::fromVector<float>({2,3}, {0.7470223307609558, -0.5463024973869324, 0.0, 0.30933627486228943, 14.101420402526855, 1.1578212976455688}));
  t.run();
}

// ref(op='Asin', ins=[A([-0.9, -0.5, 0, 0.25, 0.7, 0.99], shape=(2,-1))], opset=7)
TEST(ElementwiseUnary, AsinOpset7) {
  OpTester t("Asin", 7);
  t.input("A", Tensor::fromVector<float>({2,3}, {-0.8999999761581421, -0.5, 0.0, 0.25, 0.699999988079071, 0.9900000095367432}));
  t.expect("Y", Tensor::fromVector<float>({2,3}, {-1.11976957321167, -0.5235987305641174, 0.0, 0.2526802718639374, 0.7753974795341492, 1.4292569160461426}));
  t.run();
}

// ref(op='Acos', ins=[A([-0.9, -0.5, 0, 0.25, 0.7, 0.99], shape=(2,-1))], opset=7)
TEST(ElementwiseUnary, AcosOpset7) {
  OpTester t("Acos", 7);
  t.input("A", Tensor::fromVector<float>({2,3}, {-0.8999999761581421, -0.5, 0.0, 0.25, 0.699999988079071, 0.9900000095367432}));
  t.expect("Y", Tensor::fromVector<float>({2,3}, {2.690565824508667, 2.094395160675049, 1.5707963705062866, 1.3181159496307373, 0.7953988313674927, 0.14153940975666046}));
  t.run();
}

// ref(op='Atan', ins=[A([-2.5, -0.5, 0, 0.3, 1.5, 4], shape=(2,-1))], opset=7)
TEST(ElementwiseUnary, AtanOpset7) {
  OpTester t("Atan", 7);
  t.input("A", Tensor::fromVector<float>({2,3}, {-2.5, -0.5, 0.0, 0.30000001192092896, 1.5, 4.0}));
  t.expect("Y", Tensor::fromVector<float>({2,3}, {-1.1902899742126465, -0.4636475443840027, 0.0, 0.29145678877830505, 0.9827937483787537, 1.3258177042007446}));
  t.run();
}

// ref(op='Sinh', ins=[A([-2.5, -0.5, 0, 0.3, 1.5, 4], shape=(2,-1))], opset=9)
TEST(ElementwiseUnary, SinhOpset9) {
  OpTester t("Sinh", 9);
  t.input("A", Tensor::fromVector<float>({2,3}, {-2.5, -0.5, 0.0, 0.30000001192092896, 1.5, 4.0}));
  t.expect("Y", Tensor::fromVector<float>({2,3}, {-6.050204753875732, -0.5210952758789062, 0.0, 0.30452030897140503, 2.129279375076294, 27.289918899536133}));
  t.run();
}

// ref(op='Cosh', ins=[A([-2.5, -0.5, 0, 0.3, 1.5, 4], shape=(2,-1))], opset=9)
TEST(ElementwiseUnary, CoshOpset9) {
  OpTester t("Cosh", 9);
  t.input("A", Tensor::fromVector<float>({2,3}, {-2.5, -0.5, 0.0, 0.30000001192092896, 1.5, 4.0}));
  t.expect("Y", Tensor::fromVector<float>({2,3}, {6.132289409637451, 1.1276259422302246, 1.0, 1.04533851146698, 2.352409601211548, 27.308231353759766}));
  t.run();
}

// ref(op='Asinh', ins=[A([-2.5, -0.5, 0, 0.3, 1.5, 4], shape=(2,-1))], opset=9)
TEST(ElementwiseUnary, AsinhOpset9) {
  OpTester t("Asinh", 9);
  t.input("A", Tensor::fromVector<float>({2,3}, {-2.5, -0.5, 0.0, 0.30000001192092896, 1.5, 4.0}));
  t.expect("Y", Tensor::fromVector<float>({2,3}, {-1.6472312211990356, -0.4812118411064148, 0.0, 0.29567307233810425, 1.19476318359375, 2.094712495803833}));
  t.run();
}

// ref(op='Acosh', ins=[A([1, 1.5, 3, 10], shape=(2,-1))], opset=9)
TEST(ElementwiseUnary, AcoshOpset9) {
  OpTester t("Acosh", 9);
  t.input("A", Tensor::fromVector<float>({2,2}, {1.0, 1.5, 3.0, 10.0}));
  t.expect("Y", Tensor::fromVector<float>({2,2}, {0.0, 0.9624236822128296, 1.7627471685409546, 2.993222951889038}));
  t.run();
}

// ref(op='Atanh', ins=[A([-0.9, -0.5, 0, 0.25, 0.7, 0.99], shape=(2,-1))], opset=9)
TEST(ElementwiseUnary, AtanhOpset9) {
  OpTester t("Atanh", 9);
  t.input("A", Tensor::fromVector<float>({2,3}, {-0.8999999761581421, -0.5, 0.0, 0.25, 0.699999988079071, 0.9900000095367432}));
  t.expect("Y", Tensor::fromVector<float>({2,3}, {-1.4722193479537964, -0.5493061542510986, 0.0, 0.2554128170013428, 0.8673005104064941, 2.646652936935425}));
  t.run();
}

// ref(op='Erf', ins=[A([-2.5, -0.5, 0, 0.3, 1.5, 4, -0.01, 3.5], shape=(2,-1))], opset=13)
TEST(ElementwiseUnary, ErfOpset13) {
  OpTester t("Erf", 13);
  t.input("A", Tensor::fromVector<float>({2,4}, {-2.5, -0.5, 0.0, 0.30000001192092896, 1.5, 4.0, -0.009999999776482582, 3.5}));
  t.expect("Y", Tensor::fromVector<float>({2,4}, {-0.9995930790901184, -0.5204998850822449, 0.0, 0.3286267817020416, 0.9661051630973816, 1.0, -0.011283415369689465, 0.9999992847442627}));
  t.run();
}

// ref(op='Erf', ins=[A([-2.5, -0.5, 0, 0.3, 1.5, 4, -0.01, 3.5], shape=(2,-1))], opset=9)
TEST(ElementwiseUnary, ErfOpset9) {
  OpTester t("Erf", 9);
  t.input("A", Tensor::fromVector<float>({2,4}, {-2.5, -0.5, 0.0, 0.30000001192092896, 1.5, 4.0, -0.009999999776482582, 3.5}));
  t.expect("Y", Tensor::fromVector<float>({2,4}, {-0.9995930790901184, -0.5204998850822449, 0.0, 0.3286267817020416, 0.9661051630973816, 1.0, -0.011283415369689465, 0.9999992847442627}));
  t.run();
}

// ref(op='Abs', ins=[A([-2.5, -0.5, 0, 0.3, 1.5, 4], shape=(2,-1))], opset=13)
TEST(ElementwiseUnary, AbsOpset13) {
  OpTester t("Abs", 13);
  t.input("A", Tensor::fromVector<float>({2,3}, {-2.5, -0.5, 0.0, 0.30000001192092896, 1.5, 4.0}));
  t.expect("Y", Tensor::fromVector<float>({2,3}, {2.5, 0.5, 0.0, 0.30000001192092896, 1.5, 4.0}));
  t.run();
}

// ref(op='Neg', ins=[A([-2.5, -0.5, 0, 0.3, 1.5, 4], shape=(2,-1))], opset=13)
TEST(ElementwiseUnary, NegOpset13) {
  OpTester t("Neg", 13);
  t.input("A", Tensor::fromVector<float>({2,3}, {-2.5, -0.5, 0.0, 0.30000001192092896, 1.5, 4.0}));
  t.expect("Y", Tensor::fromVector<float>({2,3}, {2.5, 0.5, -0.0, -0.30000001192092896, -1.5, -4.0}));
  t.run();
}

// ref(op='Neg', ins=[A([-2.5, -0.5, 0, 0.3, 1.5, 4], shape=(2,-1))], opset=6)
TEST(ElementwiseUnary, NegOpset6) {
  OpTester t("Neg", 6);
  t.input("A", Tensor::fromVector<float>({2,3}, {-2.5, -0.5, 0.0, 0.30000001192092896, 1.5, 4.0}));
  t.expect("Y", Tensor::fromVector<float>({2,3}, {2.5, 0.5, -0.0, -0.30000001192092896, -1.5, -4.0}));
  t.run();
}

// ref(op='Sign', ins=[A([-2.5, -0.5, 0, 0.3, 1.5, 4, nan])], opset=13)
TEST(ElementwiseUnary, SignOpset13) {
  OpTester t("Sign", 13);
  t.input("A", Tensor::fromVector<float>({7}, {-2.5, -0.5, 0.0, 0.30000001192092896, 1.5, 4.0, kNaN}));
  t.expect("Y", Tensor::fromVector<float>({7}, {-1.0, -1.0, 0.0, 1.0, 1.0, 1.0, kNaN}));
  t.run();
}

// ref(op='Sqrt', ins=[A([2,9,0.25],np.float64)], opset=13)
TEST(ElementwiseUnary, SqrtDouble) {
  OpTester t("Sqrt", 13);
  t.input("A", Tensor::fromVector<double>({3}, {2.0, 9.0, 0.25}));
  t.expect("Y", Tensor::fromVector<double>({3}, {1.4142135623730951, 3.0, 0.5}));
  t.run();
}

// ref(op='Exp', ins=[A([-1,0,1.5],np.float16)], opset=13)
TEST(ElementwiseUnary, ExpFloat16) {
  OpTester t("Exp", 13);
  t.input("A", half({3}, {-1.0, 0.0, 1.5}));
  t.expect("Y", half({3}, {0.367919921875, 1.0, 4.48046875}));
  t.run();
}

// ref(op='Log', ins=[A([-1,0,1])], opset=13)
TEST(ElementwiseUnary, LogNegativeIsNaN) {
  OpTester t("Log", 13);
  t.input("A", Tensor::fromVector<float>({3}, {-1.0, 0.0, 1.0}));
  t.expect("Y", Tensor::fromVector<float>({3}, {kNaN, -kInf, 0.0}));
  t.run();
}

// ref(op='Round', ins=[A([0.5,1.5,2.5,-0.5,-1.5,2.4,-2.6,3.5])], opset=11)
TEST(ElementwiseUnary, RoundHalfToEven) {
  OpTester t("Round", 11);
  t.input("A", Tensor::fromVector<float>({8}, {0.5, 1.5, 2.5, -0.5, -1.5, 2.4000000953674316, -2.5999999046325684, 3.5}));
  t.expect("Y", Tensor::fromVector<float>({8}, {0.0, 2.0, 2.0, -0.0, -2.0, 2.0, -3.0, 4.0}));
  t.run();
}

// ref(op='Round', ins=[A([0.5,1.5,-2.5,7.49],np.float64)], opset=22)
TEST(ElementwiseUnary, RoundOpset22Double) {
  OpTester t("Round", 22);
  t.input("A", Tensor::fromVector<double>({4}, {0.5, 1.5, -2.5, 7.49}));
  t.expect("Y", Tensor::fromVector<double>({4}, {0.0, 2.0, -2.0, 7.0}));
  t.run();
}

// ref(op='Abs', ins=[A([-5,0,7,-127],np.int8)], opset=13)
TEST(ElementwiseUnary, AbsInt8) {
  OpTester t("Abs", 13);
  t.input("A", Tensor::fromVector<int8_t>({4}, {-5, 0, 7, -127}));
  t.expect("Y", Tensor::fromVector<int8_t>({4}, {5, 0, 7, 127}));
  t.run();
}

// ref(op='Abs', ins=[A([5,0,65535],np.uint16)], opset=13)
TEST(ElementwiseUnary, AbsUint16) {
  OpTester t("Abs", 13);
  t.input("A", Tensor::fromVector<uint16_t>({3}, {5, 0, 65535}));
  t.expect("Y", Tensor::fromVector<uint16_t>({3}, {5, 0, 65535}));
  t.run();
}

// ref(op='Neg', ins=[A([-5,0,7],i64)], opset=13)
TEST(ElementwiseUnary, NegInt64) {
  OpTester t("Neg", 13);
  t.input("A", Tensor::fromVector<int64_t>({3}, {-5, 0, 7}));
  t.expect("Y", Tensor::fromVector<int64_t>({3}, {5, 0, -7}));
  t.run();
}

// ref(op='Sign', ins=[A([-5,0,7],i32)], opset=13)
TEST(ElementwiseUnary, SignInt32) {
  OpTester t("Sign", 13);
  t.input("A", Tensor::fromVector<int32_t>({3}, {-5, 0, 7}));
  t.expect("Y", Tensor::fromVector<int32_t>({3}, {-1, 0, 1}));
  t.run();
}

// ref(op='Sign', ins=[A([0,3],u8)], opset=13)
TEST(ElementwiseUnary, SignUint8) {
  OpTester t("Sign", 13);
  t.input("A", Tensor::fromVector<uint8_t>({2}, {0, 3}));
  t.expect("Y", Tensor::fromVector<uint8_t>({2}, {0, 1}));
  t.run();
}

// ref(op='IsNaN', ins=[A([1,nan,inf,-inf])], opset=13)
TEST(ElementwiseUnary, IsNaN) {
  OpTester t("IsNaN", 13);
  t.input("A", Tensor::fromVector<float>({4}, {1.0, kNaN, kInf, -kInf}));
  t.expect("Y", Tensor::fromVector<bool>({4}, {false, true, false, false}));
  t.run();
}

// ref(op='IsNaN', ins=[A([nan,0],np.float64)], opset=20)
TEST(ElementwiseUnary, IsNaNDouble) {
  OpTester t("IsNaN", 20);
  t.input("A", Tensor::fromVector<double>({2}, {kNaN, 0.0}));
  t.expect("Y", Tensor::fromVector<bool>({2}, {true, false}));
  t.run();
}

// ref(op='IsInf', ins=[A([1,nan,inf,-inf])], opset=10)
TEST(ElementwiseUnary, IsInfDefault) {
  OpTester t("IsInf", 10);
  t.input("A", Tensor::fromVector<float>({4}, {1.0, kNaN, kInf, -kInf}));
  t.expect("Y", Tensor::fromVector<bool>({4}, {false, false, true, true}));
  t.run();
}

// ref(op='IsInf', ins=[A([1,nan,inf,-inf])], attrs={'detect_negative':0}, opset=20)
TEST(ElementwiseUnary, IsInfPositiveOnly) {
  OpTester t("IsInf", 20);
  t.attr("detect_negative", int64_t{0});
  t.input("A", Tensor::fromVector<float>({4}, {1.0, kNaN, kInf, -kInf}));
  t.expect("Y", Tensor::fromVector<bool>({4}, {false, false, true, false}));
  t.run();
}

// ref(op='IsInf', ins=[A([1,nan,inf,-inf],np.float64)], attrs={'detect_positive':0}, opset=20)
TEST(ElementwiseUnary, IsInfNegativeOnly) {
  OpTester t("IsInf", 20);
  t.attr("detect_positive", int64_t{0});
  t.input("A", Tensor::fromVector<double>({4}, {1.0, kNaN, kInf, -kInf}));
  t.expect("Y", Tensor::fromVector<bool>({4}, {false, false, false, true}));
  t.run();
}

// ref(op='Equal', ins=[A([1,2,nan,4]), A([1,3,nan,4])], opset=13)
TEST(ElementwiseLogic, EqualFloat) {
  OpTester t("Equal", 13);
  t.input("A", Tensor::fromVector<float>({4}, {1.0, 2.0, kNaN, 4.0}));
  t.input("B", Tensor::fromVector<float>({4}, {1.0, 3.0, kNaN, 4.0}));
  t.expect("Y", Tensor::fromVector<bool>({4}, {true, false, false, true}));
  t.run();
}

// ref(op='Equal', ins=[A([[1,2],[3,4]],i64), A([2],i64)], opset=13)
TEST(ElementwiseLogic, EqualInt64Broadcast) {
  OpTester t("Equal", 13);
  t.input("A", Tensor::fromVector<int64_t>({2,2}, {1, 2, 3, 4}));
  t.input("B", Tensor::fromVector<int64_t>({1}, {2}));
  t.expect("Y", Tensor::fromVector<bool>({2,2}, {false, true, false, false}));
  t.run();
}

// ref(op='Equal', ins=[A([True,False,True],bool), A([True,True,False],bool)], opset=19)
TEST(ElementwiseLogic, EqualBool) {
  OpTester t("Equal", 19);
  t.input("A", Tensor::fromVector<bool>({3}, {true, false, true}));
  t.input("B", Tensor::fromVector<bool>({3}, {true, true, false}));
  t.expect("Y", Tensor::fromVector<bool>({3}, {true, false, false}));
  t.run();
}

// Strings from opset 19, broadcasting like any other type. numpy:
//   np.array([['a', 'bc'], ['', 'd']]) == np.array(['a', 'd'])
TEST(ElementwiseLogic, EqualStringBroadcast) {
  OpTester t("Equal", 19);
  t.input("A", Tensor::fromVector<std::string>({2,2}, {"a", "bc", "", "d"}));
  t.input("B", Tensor::fromVector<std::string>({2}, {"a", "d"}));
  t.expect("Y", Tensor::fromVector<bool>({2,2}, {true, false, false, true}));
  t.run();
}

// ref(op='Equal', ins=[A([1,2],i32), A([[1],[2]],i32)], opset=7)
TEST(ElementwiseLogic, EqualOpset7) {
  OpTester t("Equal", 7);
  t.input("A", Tensor::fromVector<int32_t>({2}, {1, 2}));
  t.input("B", Tensor::fromVector<int32_t>({2,1}, {1, 2}));
  t.expect("Y", Tensor::fromVector<bool>({2,2}, {true, false, false, true}));
  t.run();
}

// ref(op='Less', ins=[A([[1,5],[3,-2]]), A([2,nan])], opset=13)
TEST(ElementwiseLogic, LessBroadcast) {
  OpTester t("Less", 13);
  t.input("A", Tensor::fromVector<float>({2,2}, {1.0, 5.0, 3.0, -2.0}));
  t.input("B", Tensor::fromVector<float>({2}, {2.0, kNaN}));
  t.expect("Y", Tensor::fromVector<bool>({2,2}, {true, false, false, false}));
  t.run();
}

// ref(op='Less', ins=[A([1,200],u8), A([100,100],u8)], opset=9)
TEST(ElementwiseLogic, LessUint8) {
  OpTester t("Less", 9);
  t.input("A", Tensor::fromVector<uint8_t>({2}, {1, 200}));
  t.input("B", Tensor::fromVector<uint8_t>({2}, {100, 100}));
  t.expect("Y", Tensor::fromVector<bool>({2}, {true, false}));
  t.run();
}

// ref(op='LessOrEqual', ins=[A([1,2,3],i32), A([2,2,2],i32)], opset=16)
TEST(ElementwiseLogic, LessOrEqual) {
  OpTester t("LessOrEqual", 16);
  t.input("A", Tensor::fromVector<int32_t>({3}, {1, 2, 3}));
  t.input("B", Tensor::fromVector<int32_t>({3}, {2, 2, 2}));
  t.expect("Y", Tensor::fromVector<bool>({3}, {true, true, false}));
  t.run();
}

// ref(op='LessOrEqual', ins=[A([1,2,3],np.float64), A(2,np.float64)], opset=12)
TEST(ElementwiseLogic, LessOrEqualOpset12) {
  OpTester t("LessOrEqual", 12);
  t.input("A", Tensor::fromVector<double>({3}, {1.0, 2.0, 3.0}));
  t.input("B", Tensor::fromVector<double>({}, {2.0}));
  t.expect("Y", Tensor::fromVector<bool>({3}, {true, true, false}));
  t.run();
}

// ref(op='Greater', ins=[A([1,2,3,nan]), A([2,2,2,0])], opset=13)
TEST(ElementwiseLogic, Greater) {
  OpTester t("Greater", 13);
  t.input("A", Tensor::fromVector<float>({4}, {1.0, 2.0, 3.0, kNaN}));
  t.input("B", Tensor::fromVector<float>({4}, {2.0, 2.0, 2.0, 0.0}));
  t.expect("Y", Tensor::fromVector<bool>({4}, {false, false, true, false}));
  t.run();
}

// ref(op='Greater', ins=[A([1,2,3],i64), A([[2],[0]],i64)], opset=9)
TEST(ElementwiseLogic, GreaterOpset9Int64) {
  OpTester t("Greater", 9);
  t.input("A", Tensor::fromVector<int64_t>({3}, {1, 2, 3}));
  t.input("B", Tensor::fromVector<int64_t>({2,1}, {2, 0}));
  t.expect("Y", Tensor::fromVector<bool>({2,3}, {false, false, true, true, true, true}));
  t.run();
}

// ref(op='GreaterOrEqual', ins=[A([1,2,3],np.int16), A([2,2,2],np.int16)], opset=16)
TEST(ElementwiseLogic, GreaterOrEqual) {
  OpTester t("GreaterOrEqual", 16);
  t.input("A", Tensor::fromVector<int16_t>({3}, {1, 2, 3}));
  t.input("B", Tensor::fromVector<int16_t>({3}, {2, 2, 2}));
  t.expect("Y", Tensor::fromVector<bool>({3}, {false, true, true}));
  t.run();
}

// ref(op='Not', ins=[A([[True,False],[False,True]],bool)], opset=1)
TEST(ElementwiseLogic, Not) {
  OpTester t("Not", 1);
  t.input("A", Tensor::fromVector<bool>({2,2}, {true, false, false, true}));
  t.expect("Y", Tensor::fromVector<bool>({2,2}, {false, true, true, false}));
  t.run();
}

// ref(op='And', ins=[A([[True,False],[True,True]],bool), A([True,False],bool)], opset=7)
TEST(ElementwiseLogic, AndBroadcast) {
  OpTester t("And", 7);
  t.input("A", Tensor::fromVector<bool>({2,2}, {true, false, true, true}));
  t.input("B", Tensor::fromVector<bool>({2}, {true, false}));
  t.expect("Y", Tensor::fromVector<bool>({2,2}, {true, false, true, false}));
  t.run();
}

// ref(op='Or', ins=[A([True,False,True,False],bool), A([True,True,False,False],bool)], opset=7)
TEST(ElementwiseLogic, Or) {
  OpTester t("Or", 7);
  t.input("A", Tensor::fromVector<bool>({4}, {true, false, true, false}));
  t.input("B", Tensor::fromVector<bool>({4}, {true, true, false, false}));
  t.expect("Y", Tensor::fromVector<bool>({4}, {true, true, true, false}));
  t.run();
}

// ref(op='Xor', ins=[A([True,False],bool), A(True,bool)], opset=7)
TEST(ElementwiseLogic, XorScalar) {
  OpTester t("Xor", 7);
  t.input("A", Tensor::fromVector<bool>({2}, {true, false}));
  t.input("B", Tensor::fromVector<bool>({}, {true}));
  t.expect("Y", Tensor::fromVector<bool>({2}, {false, true}));
  t.run();
}

// ref(op='Where', ins=[A([[True],[False]],bool), A([1,2,3]), A(-1.)], opset=16)
TEST(ElementwiseWhere, Float3Way) {
  OpTester t("Where", 16);
  t.input("A", Tensor::fromVector<bool>({2,1}, {true, false}));
  t.input("B", Tensor::fromVector<float>({3}, {1.0, 2.0, 3.0}));
  t.input("C", Tensor::fromVector<float>({}, {-1.0}));
  t.expect("Y", Tensor::fromVector<float>({2,3}, {1.0, 2.0, 3.0, -1.0, -1.0, -1.0}));
  t.run();
}

// ref(op='Where', ins=[A([True,False,True],bool), A([1,2,3],i64), A([10,20,30],i64)], opset=9)
TEST(ElementwiseWhere, Int64SameShape) {
  OpTester t("Where", 9);
  t.input("A", Tensor::fromVector<bool>({3}, {true, false, true}));
  t.input("B", Tensor::fromVector<int64_t>({3}, {1, 2, 3}));
  t.input("C", Tensor::fromVector<int64_t>({3}, {10, 20, 30}));
  t.expect("Y", Tensor::fromVector<int64_t>({3}, {1, 20, 3}));
  t.run();
}

// ref(op='Where', ins=[A([True,False],bool), A([[False],[True]],bool), A([True,False],bool)], opset=16, engine='ref')
TEST(ElementwiseWhere, BoolValues) {
  OpTester t("Where", 16);
  t.input("A", Tensor::fromVector<bool>({2}, {true, false}));
  t.input("B", Tensor::fromVector<bool>({2,1}, {false, true}));
  t.input("C", Tensor::fromVector<bool>({2}, {true, false}));
  t.expect("Y", Tensor::fromVector<bool>({2,2}, {false, false, true, false}));
  t.run();
}

// ref(op='Where', ins=[A(True,bool), A([1,2],u8), A([[3],[4]],u8)], opset=16)
TEST(ElementwiseWhere, Uint8CondBroadcast) {
  OpTester t("Where", 16);
  t.input("A", Tensor::fromVector<bool>({}, {true}));
  t.input("B", Tensor::fromVector<uint8_t>({2}, {1, 2}));
  t.input("C", Tensor::fromVector<uint8_t>({2,1}, {3, 4}));
  t.expect("Y", Tensor::fromVector<uint8_t>({2,2}, {1, 2, 1, 2}));
  t.run();
}

// ref(op='Where', ins=[A([True,False],bool), A([1.5,2.5],np.float16), A([-1,-2],np.float16)], opset=16, engine='ref')
TEST(ElementwiseWhere, Float16) {
  OpTester t("Where", 16);
  t.input("A", Tensor::fromVector<bool>({2}, {true, false}));
  t.input("B", half({2}, {1.5, 2.5}));
  t.input("C", half({2}, {-1.0, -2.0}));
  t.expect("Y", half({2}, {1.5, -2.0}));
  t.run();
}

// ref(op='Where', ins=[A([True,False,True],bool), A(['a','b','c'],object), A(['x','y','z'],object)], opset=16)
TEST(ElementwiseWhere, String) {
  OpTester t("Where", 16);
  t.input("A", Tensor::fromVector<bool>({3}, {true, false, true}));
  t.input("B", Tensor::fromVector<std::string>({3}, {"a", "b", "c"}));
  t.input("C", Tensor::fromVector<std::string>({3}, {"x", "y", "z"}));
  t.expect("Y", Tensor::fromVector<std::string>({3}, {"a", "y", "c"}));
  t.run();
}

// Large inputs through the parallel path of a transcendental op (oracle: libm
// in double).
TEST(ElementwiseUnary, ParallelErfAndExp) {
  const int64_t n = 50000;
  std::vector<float> x(n), erf(n), exp(n);
  for (int64_t i = 0; i < n; ++i) {
    x[i] = -6.f + 12.f * static_cast<float>(i) / n;
    erf[i] = static_cast<float>(std::erf(static_cast<double>(x[i])));
    exp[i] = static_cast<float>(std::exp(static_cast<double>(x[i])));
  }
  OpTester t("Erf", 13);
  t.input("X", Tensor::fromVector<float>({n}, x)).expect("Y", Tensor::fromVector<float>({n}, erf));
  t.run();
  OpTester e("Exp", 13);
  e.input("X", Tensor::fromVector<float>({n}, x)).expect("Y", Tensor::fromVector<float>({n}, exp));
  e.run();
}
