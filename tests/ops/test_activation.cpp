// Tests of the activation family.
//
// Expected values come from onnxruntime run on a one-node model built from
// the same inputs (onnx.reference where a comment says so, or where it gives
// engine='ref'). A generated test's comment `ref(ARGS)` stands for
// `emit("Suite, Name", ARGS)` of the helper in tests/ops/test_elementwise.cpp,
// with
//   X = [-3,-1,-0.25,0,0.5,2.5]; XL = [-5,-1.5,-0.01,0,0.3,1,4,nan]
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

// ref(op='Relu', ins=[A(XL)], opset=14)
TEST(Activation, Relu) {
  OpTester t("Relu", 14);
  t.input("A", Tensor::fromVector<float>({8}, {-5.0, -1.5, -0.009999999776482582, 0.0, 0.30000001192092896, 1.0, 4.0, kNaN}));
  t.expect("Y", Tensor::fromVector<float>({8}, {0.0, 0.0, 0.0, 0.0, 0.30000001192092896, 1.0, 4.0, kNaN}));
  t.run();
}

// ref(op='Relu', ins=[A(X,np.float64)], opset=6)
TEST(Activation, ReluOpset6Double) {
  OpTester t("Relu", 6);
  t.input("A", Tensor::fromVector<double>({6}, {-3.0, -1.0, -0.25, 0.0, 0.5, 2.5}));
  t.expect("Y", Tensor::fromVector<double>({6}, {0.0, 0.0, 0.0, 0.0, 0.5, 2.5}));
  t.run();
}

// ref(op='Relu', ins=[A([-5,0,7],np.int8)], opset=14, engine='ref')
TEST(Activation, ReluInt8) {
  OpTester t("Relu", 14);
  t.input("A", Tensor::fromVector<int8_t>({3}, {-5, 0, 7}));
  t.expect("Y", Tensor::fromVector<int8_t>({3}, {0, 0, 7}));
  t.run();
}

// ref(op='Relu', ins=[A([-5,0,7],i64)], opset=14, engine='ref')
TEST(Activation, ReluInt64) {
  OpTester t("Relu", 14);
  t.input("A", Tensor::fromVector<int64_t>({3}, {-5, 0, 7}));
  t.expect("Y", Tensor::fromVector<int64_t>({3}, {0, 0, 7}));
  t.run();
}

// ref(op='LeakyRelu', ins=[A(X)], opset=16)
TEST(Activation, LeakyReluDefault) {
  OpTester t("LeakyRelu", 16);
  t.input("A", Tensor::fromVector<float>({6}, {-3.0, -1.0, -0.25, 0.0, 0.5, 2.5}));
  t.expect("Y", Tensor::fromVector<float>({6}, {-0.029999999329447746, -0.009999999776482582, -0.0024999999441206455, 0.0, 0.5, 2.5}));
  t.run();
}

// ref(op='LeakyRelu', ins=[A(X,np.float64)], attrs={'alpha':0.2}, opset=6)  [onnx.reference]
TEST(Activation, LeakyReluAlpha) {
  OpTester t("LeakyRelu", 6);
  t.attr("alpha", 0.2f);
  t.input("A", Tensor::fromVector<double>({6}, {-3.0, -1.0, -0.25, 0.0, 0.5, 2.5}));
  t.expect("Y", Tensor::fromVector<double>({6}, {-0.6000000089406967, -0.20000000298023224, -0.05000000074505806, 0.0, 0.5, 2.5}));
  t.run();
}

// ref(op='PRelu', ins=[A(R(-6,6), shape=(1,3,2,2)), A([0.1,0.2,0.3], shape=(3,1,1))], opset=16)
TEST(Activation, PReluChannel) {
  OpTester t("PRelu", 16);
  t.input("A", Tensor::fromVector<float>({1,3,2,2}, {-6.0, -5.0, -4.0, -3.0, -2.0, -1.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0}));
  t.input("B", Tensor::fromVector<float>({3,1,1}, {0.10000000149011612, 0.20000000298023224, 0.30000001192092896}));
  t.expect("Y", Tensor::fromVector<float>({1,3,2,2}, {-0.6000000238418579, -0.5, -0.4000000059604645, -0.30000001192092896, -0.4000000059604645, -0.20000000298023224, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0}));
  t.run();
}

// ref(op='PRelu', ins=[A(X), A([0.25])], opset=9)
TEST(Activation, PReluScalarSlope) {
  OpTester t("PRelu", 9);
  t.input("A", Tensor::fromVector<float>({6}, {-3.0, -1.0, -0.25, 0.0, 0.5, 2.5}));
  t.input("B", Tensor::fromVector<float>({1}, {0.25}));
  t.expect("Y", Tensor::fromVector<float>({6}, {-0.75, -0.25, -0.0625, 0.0, 0.5, 2.5}));
  t.run();
}

// ref(op='PRelu', ins=[A(R(-3,3), shape=(2,3)), A([1,2,3])], opset=7)
TEST(Activation, PReluOpset7Vector) {
  OpTester t("PRelu", 7);
  t.input("A", Tensor::fromVector<float>({2,3}, {-3.0, -2.0, -1.0, 0.0, 1.0, 2.0}));
  t.input("B", Tensor::fromVector<float>({3}, {1.0, 2.0, 3.0}));
  t.expect("Y", Tensor::fromVector<float>({2,3}, {-3.0, -4.0, -3.0, 0.0, 1.0, 2.0}));
  t.run();
}

// PRelu-6 broadcast a 1-d slope over the channel axis (PyTorch's per-channel
// export; pytorch-converted/test_PReLU_*_multiparam). numpy:
//   x = np.arange(-6, 6, dtype=np.float32).reshape(2, 3, 2); s = np.array([.5, 2, 3], np.float32)
//   np.where(x > 0, x, x * s.reshape(3, 1))
TEST(Activation, PReluOpset6ChannelSlope) {
  OpTester t("PRelu", 6);
  t.input("A", Tensor::fromVector<float>({2,3,2}, {-6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5}));
  t.input("B", Tensor::fromVector<float>({3}, {0.5f, 2.f, 3.f}));
  t.expect("Y", Tensor::fromVector<float>({2,3,2}, {-3, -2.5f, -8, -6, -6, -3, 0, 1, 2, 3, 4, 5}));
  t.run();
}

// ref(op='PRelu', ins=[A([-4,-1,3],i32), A([2,3,4],i32)], opset=16)
TEST(Activation, PReluInt32) {
  OpTester t("PRelu", 16);
  t.input("A", Tensor::fromVector<int32_t>({3}, {-4, -1, 3}));
  t.input("B", Tensor::fromVector<int32_t>({3}, {2, 3, 4}));
  t.expect("Y", Tensor::fromVector<int32_t>({3}, {-8, -3, 3}));
  t.run();
}

// ref(op='Elu', ins=[A(X)], opset=6)
TEST(Activation, EluDefault) {
  OpTester t("Elu", 6);
  t.input("A", Tensor::fromVector<float>({6}, {-3.0, -1.0, -0.25, 0.0, 0.5, 2.5}));
  t.expect("Y", Tensor::fromVector<float>({6}, {-0.9502129554748535, -0.6321205496788025, -0.22119921445846558, 0.0, 0.5, 2.5}));
  t.run();
}

// ref(op='Elu', ins=[A(X)], attrs={'alpha':0.5}, opset=22, engine='ref')
TEST(Activation, EluAlpha) {
  OpTester t("Elu", 22);
  t.attr("alpha", 0.5f);
  t.input("A", Tensor::fromVector<float>({6}, {-3.0, -1.0, -0.25, 0.0, 0.5, 2.5}));
  t.expect("Y", Tensor::fromVector<float>({6}, {-0.47510647773742676, -0.31606030464172363, -0.11059963703155518, 0.0, 0.5, 2.5}));
  t.run();
}

// ref(op='Selu', ins=[A(X)], opset=6)
TEST(Activation, SeluDefault) {
  OpTester t("Selu", 6);
  t.input("A", Tensor::fromVector<float>({6}, {-3.0, -1.0, -0.25, 0.0, 0.5, 2.5}));
  t.expect("Y", Tensor::fromVector<float>({6}, {-1.6705687046051025, -1.1113307476043701, -0.38889017701148987, 0.0, 0.5253505110740662, 2.6267526149749756}));
  t.run();
}

// ref(op='Selu', ins=[A(X,np.float64)], attrs={'alpha':2.0,'gamma':3.0}, opset=6)  [onnx.reference]
TEST(Activation, SeluAttrs) {
  OpTester t("Selu", 6);
  t.attr("alpha", 2.0f);
  t.attr("gamma", 3.0f);
  t.input("A", Tensor::fromVector<double>({6}, {-3.0, -1.0, -0.25, 0.0, 0.5, 2.5}));
  t.expect("Y", Tensor::fromVector<double>({6}, {-5.7012775897928165, -3.792723352971346, -1.3271953015715707, 0.0, 1.5, 7.5}));
  t.run();
}

// ref(op='Celu', ins=[A(X)], opset=12)
TEST(Activation, CeluDefault) {
  OpTester t("Celu", 12);
  t.input("A", Tensor::fromVector<float>({6}, {-3.0, -1.0, -0.25, 0.0, 0.5, 2.5}));
  t.expect("Y", Tensor::fromVector<float>({6}, {-0.9502129554748535, -0.6321205496788025, -0.22119921445846558, 0.0, 0.5, 2.5}));
  t.run();
}

// ref(op='Celu', ins=[A(X)], attrs={'alpha':2.0}, opset=12)
TEST(Activation, CeluAlpha) {
  OpTester t("Celu", 12);
  t.attr("alpha", 2.0f);
  t.input("A", Tensor::fromVector<float>({6}, {-3.0, -1.0, -0.25, 0.0, 0.5, 2.5}));
  t.expect("Y", Tensor::fromVector<float>({6}, {-1.5537396669387817, -0.7869386672973633, -0.2350062131881714, 0.0, 0.5, 2.5}));
  t.run();
}

// ref(op='ThresholdedRelu', ins=[A(X)], opset=10)
TEST(Activation, ThresholdedReluDefault) {
  OpTester t("ThresholdedRelu", 10);
  t.input("A", Tensor::fromVector<float>({6}, {-3.0, -1.0, -0.25, 0.0, 0.5, 2.5}));
  t.expect("Y", Tensor::fromVector<float>({6}, {0.0, 0.0, 0.0, 0.0, 0.0, 2.5}));
  t.run();
}

// ref(op='ThresholdedRelu', ins=[A(X)], attrs={'alpha':0.4}, opset=22, engine='ref')
TEST(Activation, ThresholdedReluAlpha) {
  OpTester t("ThresholdedRelu", 22);
  t.attr("alpha", 0.4f);
  t.input("A", Tensor::fromVector<float>({6}, {-3.0, -1.0, -0.25, 0.0, 0.5, 2.5}));
  t.expect("Y", Tensor::fromVector<float>({6}, {0.0, 0.0, 0.0, 0.0, 0.5, 2.5}));
  t.run();
}

// ref(op='Sigmoid', ins=[A([-100,-20,-3,-0.5,0,1e-4,0.5,3,20,100])], opset=13)
TEST(Activation, Sigmoid) {
  OpTester t("Sigmoid", 13);
  t.input("A", Tensor::fromVector<float>({10}, {-100.0, -20.0, -3.0, -0.5, 0.0, 9.999999747378752e-05, 0.5, 3.0, 20.0, 100.0}));
  t.expect("Y", Tensor::fromVector<float>({10}, {0.0, 0.0, 0.04742586612701416, 0.3775407075881958, 0.5, 0.5000249743461609, 0.6224592924118042, 0.9525741338729858, 1.0, 1.0}));
  t.run();
}

// ref(op='Sigmoid', ins=[A([-3,0,0.5],np.float64)], opset=6)
TEST(Activation, SigmoidDouble) {
  OpTester t("Sigmoid", 6);
  t.input("A", Tensor::fromVector<double>({3}, {-3.0, 0.0, 0.5}));
  t.expect("Y", Tensor::fromVector<double>({3}, {0.047425873177566635, 0.5, 0.6224593312018546}));
  t.run();
}

// ref(op='Sigmoid', ins=[A([-3,0,0.5],np.float16)], opset=13)
TEST(Activation, SigmoidFloat16) {
  OpTester t("Sigmoid", 13);
  t.input("A", half({3}, {-3.0, 0.0, 0.5}));
  t.expect("Y", half({3}, {0.04742431640625, 0.5, 0.62255859375}));
  t.run();
}

// ref(op='HardSigmoid', ins=[A(X+[-10,10])], opset=6)
TEST(Activation, HardSigmoidDefault) {
  OpTester t("HardSigmoid", 6);
  t.input("A", Tensor::fromVector<float>({8}, {-3.0, -1.0, -0.25, 0.0, 0.5, 2.5, -10.0, 10.0}));
  t.expect("Y", Tensor::fromVector<float>({8}, {0.0, 0.30000001192092896, 0.44999998807907104, 0.5, 0.6000000238418579, 1.0, 0.0, 1.0}));
  t.run();
}

// ref(op='HardSigmoid', ins=[A(X)], attrs={'alpha':0.5,'beta':0.25}, opset=22, engine='ref')
TEST(Activation, HardSigmoidAttrs) {
  OpTester t("HardSigmoid", 22);
  t.attr("alpha", 0.5f);
  t.attr("beta", 0.25f);
  t.input("A", Tensor::fromVector<float>({6}, {-3.0, -1.0, -0.25, 0.0, 0.5, 2.5}));
  t.expect("Y", Tensor::fromVector<float>({6}, {0.0, 0.0, 0.125, 0.25, 0.5, 1.0}));
  t.run();
}

// Swish (24) from onnx.reference on a one-node model:
//   ReferenceEvaluator(make_model(Swish(x, **attrs), opset 24)).run(None, {'x': X.astype(dtype)})
// with X = [-3,-1,-0.25,0,0.5,2.5].
TEST(Activation, SwishDefault) {
  OpTester t("Swish", 24);
  t.input("X", Tensor::fromVector<float>({6}, {-3.0, -1.0, -0.25, 0.0, 0.5, 2.5}));
  t.expect("Y", Tensor::fromVector<float>({6}, {-0.14227763, -0.2689414, -0.10945586, 0.0, 0.31122968, 2.3103545}));
  t.run();
}

// attrs = {'alpha': 0.5}
TEST(Activation, SwishAlpha) {
  OpTester t("Swish", 24);
  t.attr("alpha", 0.5f);
  t.input("X", Tensor::fromVector<float>({6}, {-3.0, -1.0, -0.25, 0.0, 0.5, 2.5}));
  t.expect("Y", Tensor::fromVector<float>({6}, {-0.5472766, -0.37754068, -0.117197655, 0.0, 0.28108826, 1.9432497}));
  t.run();
}

// attrs = {'alpha': 2.0}, dtype = np.float64
TEST(Activation, SwishDouble) {
  OpTester t("Swish", 24);
  t.attr("alpha", 2.0f);
  t.input("X", Tensor::fromVector<double>({6}, {-3.0, -1.0, -0.25, 0.0, 0.5, 2.5}));
  t.expect("Y", Tensor::fromVector<double>({6}, {-0.007417869469904323, -0.11920292202211755, -0.09438516719953635,
                                                 0.0, 0.36552928931500245, 2.483267872689288}));
  t.run();
}

// dtype = np.float16
TEST(Activation, SwishFloat16) {
  OpTester t("Swish", 24);
  t.input("X", half({6}, {-3.0, -1.0, -0.25, 0.0, 0.5, 2.5}));
  t.expect("Y", half({6}, {-0.14233398, -0.26904297, -0.109436035, 0.0, 0.3112793, 2.3105469}));
  t.run();
}

// ref(op='HardSwish', ins=[A(X+[-4,4])], opset=14)
TEST(Activation, HardSwish) {
  OpTester t("HardSwish", 14);
  t.input("A", Tensor::fromVector<float>({8}, {-3.0, -1.0, -0.25, 0.0, 0.5, 2.5, -4.0, 4.0}));
  t.expect("Y", Tensor::fromVector<float>({8}, {-0.0, -0.3333333134651184, -0.1145833358168602, 0.0, 0.2916666567325592, 2.2916667461395264, -0.0, 4.0}));
  t.run();
}

// ref(op='Tanh', ins=[A([-20,-3,-0.5,-0.05,-1e-6,0,1e-3,0.09,0.11,0.5,3,20,nan])], opset=13)
TEST(Activation, Tanh) {
  OpTester t("Tanh", 13);
  t.input("A", Tensor::fromVector<float>({13}, {-20.0, -3.0, -0.5, -0.05000000074505806, -9.999999974752427e-07, 0.0, 0.0010000000474974513, 0.09000000357627869, 0.10999999940395355, 0.5, 3.0, 20.0, kNaN}));
  t.expect("Y", Tensor::fromVector<float>({13}, {-1.0, -0.9950547218322754, -0.46211716532707214, -0.04995836690068245, -9.99999883788405e-07, 0.0, 0.000999999581836164, 0.08975778520107269, 0.10955846309661865, 0.46211716532707214, 0.9950547218322754, 1.0, kNaN}));
  t.run();
}

// ref(op='Tanh', ins=[A([-3,0,0.5],np.float64)], opset=6)
TEST(Activation, TanhDouble) {
  OpTester t("Tanh", 6);
  t.input("A", Tensor::fromVector<double>({3}, {-3.0, 0.0, 0.5}));
  t.expect("Y", Tensor::fromVector<double>({3}, {-0.9950547536867305, 0.0, 0.46211715726000974}));
  t.run();
}

// ref(op='Softplus', ins=[A([-100,-3,-0.5,0,0.5,3,100])], opset=1)
TEST(Activation, Softplus) {
  OpTester t("Softplus", 1);
  t.input("A", Tensor::fromVector<float>({7}, {-100.0, -3.0, -0.5, 0.0, 0.5, 3.0, 100.0}));
  t.expect("Y", Tensor::fromVector<float>({7}, {3.783505853677006e-44, 0.04858735576272011, 0.4740769863128662, 0.6931471824645996, 0.9740769863128662, 3.0485873222351074, 100.0}));
  t.run();
}

// ref(op='Softsign', ins=[A(X)], opset=1)
TEST(Activation, Softsign) {
  OpTester t("Softsign", 1);
  t.input("A", Tensor::fromVector<float>({6}, {-3.0, -1.0, -0.25, 0.0, 0.5, 2.5}));
  t.expect("Y", Tensor::fromVector<float>({6}, {-0.75, -0.5, -0.20000000298023224, 0.0, 0.3333333432674408, 0.7142857313156128}));
  t.run();
}

// ref(op='Mish', ins=[A(X+[-30,30])], opset=18)
TEST(Activation, Mish) {
  OpTester t("Mish", 18);
  t.input("A", Tensor::fromVector<float>({8}, {-3.0, -1.0, -0.25, 0.0, 0.5, 2.5, -30.0, 30.0}));
  t.expect("Y", Tensor::fromVector<float>({8}, {-0.14564745128154755, -0.3034014403820038, -0.12992696464061737, 0.0, 0.37524524331092834, 2.4713923931121826, -2.807286521300245e-12, 30.0}));
  t.run();
}

// ref(op='Gelu', ins=[A(X+[-6,6])], opset=20)
TEST(Activation, GeluErf) {
  OpTester t("Gelu", 20);
  t.input("A", Tensor::fromVector<float>({8}, {-3.0, -1.0, -0.25, 0.0, 0.5, 2.5, -6.0, 6.0}));
  t.expect("Y", Tensor::fromVector<float>({8}, {-0.0040496885776519775, -0.15865525603294373, -0.10032341629266739, 0.0, 0.3457312285900116, 2.484476089477539, -0.0, 6.0}));
  t.run();
}

// ref(op='Gelu', ins=[A(X+[-6,6])], attrs={'approximate':'tanh'}, opset=20)
TEST(Activation, GeluTanh) {
  OpTester t("Gelu", 20);
  t.attr("approximate", "tanh");
  t.input("A", Tensor::fromVector<float>({8}, {-3.0, -1.0, -0.25, 0.0, 0.5, 2.5, -6.0, 6.0}));
  t.expect("Y", Tensor::fromVector<float>({8}, {-0.0036375224590301514, -0.15880796313285828, -0.10032465308904648, 0.0, 0.3457140028476715, 2.4849157333374023, -0.0, 6.0}));
  t.run();
}

// ref(op='Gelu', ins=[A(X,np.float64)], opset=20)  [onnx.reference]
TEST(Activation, GeluDouble) {
  OpTester t("Gelu", 20);
  t.input("A", Tensor::fromVector<double>({6}, {-3.0, -1.0, -0.25, 0.0, 0.5, 2.5}));
  t.expect("Y", Tensor::fromVector<double>({6}, {-0.0040496885776519775, -0.15865525603294373, -0.10032341815531254, 0.0, 0.3457312285900116, 2.4844758212566376}));
  t.run();
}

// ref(op='Shrink', ins=[A(X)], opset=9)
TEST(Activation, ShrinkDefault) {
  OpTester t("Shrink", 9);
  t.input("A", Tensor::fromVector<float>({6}, {-3.0, -1.0, -0.25, 0.0, 0.5, 2.5}));
  t.expect("Y", Tensor::fromVector<float>({6}, {-3.0, -1.0, 0.0, 0.0, 0.0, 2.5}));
  t.run();
}

// ref(op='Shrink', ins=[A(X)], attrs={'lambd':1.0,'bias':0.5}, opset=9)
TEST(Activation, ShrinkAttrs) {
  OpTester t("Shrink", 9);
  t.attr("lambd", 1.0f);
  t.attr("bias", 0.5f);
  t.input("A", Tensor::fromVector<float>({6}, {-3.0, -1.0, -0.25, 0.0, 0.5, 2.5}));
  t.expect("Y", Tensor::fromVector<float>({6}, {-2.5, 0.0, 0.0, 0.0, 0.0, 2.0}));
  t.run();
}

// ref(op='Shrink', ins=[A([-3,-1,0,1,3],i32)], attrs={'lambd':1.0,'bias':1.0}, opset=9, engine='ref')
TEST(Activation, ShrinkInt32) {
  OpTester t("Shrink", 9);
  t.attr("lambd", 1.0f);
  t.attr("bias", 1.0f);
  t.input("A", Tensor::fromVector<int32_t>({5}, {-3, -1, 0, 1, 3}));
  t.expect("Y", Tensor::fromVector<int32_t>({5}, {-2, 0, 0, 0, 2}));
  t.run();
}

// ref(op='Clip', ins=[A(X)], attrs={'min':-0.5,'max':1.0}, opset=6)
TEST(Activation, ClipAttrForm) {
  OpTester t("Clip", 6);
  t.attr("min", -0.5f);
  t.attr("max", 1.0f);
  t.input("A", Tensor::fromVector<float>({6}, {-3.0, -1.0, -0.25, 0.0, 0.5, 2.5}));
  t.expect("Y", Tensor::fromVector<float>({6}, {-0.5, -0.5, -0.25, 0.0, 0.5, 1.0}));
  t.run();
}

// ref(op='Clip', ins=[A(X)], opset=6)
TEST(Activation, ClipAttrDefaults) {
  OpTester t("Clip", 6);
  t.input("A", Tensor::fromVector<float>({6}, {-3.0, -1.0, -0.25, 0.0, 0.5, 2.5}));
  t.expect("Y", Tensor::fromVector<float>({6}, {-3.0, -1.0, -0.25, 0.0, 0.5, 2.5}));
  t.run();
}

// ref(op='Clip', ins=[A(XL), A(-1.), A(1.)], opset=11)
TEST(Activation, ClipInputs) {
  OpTester t("Clip", 11);
  t.input("A", Tensor::fromVector<float>({8}, {-5.0, -1.5, -0.009999999776482582, 0.0, 0.30000001192092896, 1.0, 4.0, kNaN}));
  t.input("B", Tensor::fromVector<float>({}, {-1.0}));
  t.input("C", Tensor::fromVector<float>({}, {1.0}));
  t.expect("Y", Tensor::fromVector<float>({8}, {-1.0, -1.0, -0.009999999776482582, 0.0, 0.30000001192092896, 1.0, 1.0, kNaN}));
  t.run();
}

// ref(op='Clip', ins=[A(X), A(0.)], opset=13)
TEST(Activation, ClipMinOnly) {
  OpTester t("Clip", 13);
  t.input("A", Tensor::fromVector<float>({6}, {-3.0, -1.0, -0.25, 0.0, 0.5, 2.5}));
  t.input("B", Tensor::fromVector<float>({}, {0.0}));
  t.expect("Y", Tensor::fromVector<float>({6}, {0.0, 0.0, 0.0, 0.0, 0.5, 2.5}));
  t.run();
}

// ref(op='Clip', ins=[A(X), None, A(0.)], opset=13)
TEST(Activation, ClipMaxOnly) {
  OpTester t("Clip", 13);
  t.input("A", Tensor::fromVector<float>({6}, {-3.0, -1.0, -0.25, 0.0, 0.5, 2.5}));
  t.absentInput();
  t.input("C", Tensor::fromVector<float>({}, {0.0}));
  t.expect("Y", Tensor::fromVector<float>({6}, {-3.0, -1.0, -0.25, 0.0, 0.0, 0.0}));
  t.run();
}

// ref(op='Clip', ins=[A(X)], opset=13)
TEST(Activation, ClipNoBounds) {
  OpTester t("Clip", 13);
  t.input("A", Tensor::fromVector<float>({6}, {-3.0, -1.0, -0.25, 0.0, 0.5, 2.5}));
  t.expect("Y", Tensor::fromVector<float>({6}, {-3.0, -1.0, -0.25, 0.0, 0.5, 2.5}));
  t.run();
}

// ref(op='Clip', ins=[A([1,5,10,-7],i32), A(2,i32), A(8,i32)], opset=12)
TEST(Activation, ClipInt32) {
  OpTester t("Clip", 12);
  t.input("A", Tensor::fromVector<int32_t>({4}, {1, 5, 10, -7}));
  t.input("B", Tensor::fromVector<int32_t>({}, {2}));
  t.input("C", Tensor::fromVector<int32_t>({}, {8}));
  t.expect("Y", Tensor::fromVector<int32_t>({4}, {2, 5, 8, 2}));
  t.run();
}

// ref(op='Clip', ins=[A([1,5,10],u8), A(6,u8), A(4,u8)], opset=13)
TEST(Activation, ClipUint8MinAboveMax) {
  OpTester t("Clip", 13);
  t.input("A", Tensor::fromVector<uint8_t>({3}, {1, 5, 10}));
  t.input("B", Tensor::fromVector<uint8_t>({}, {6}));
  t.input("C", Tensor::fromVector<uint8_t>({}, {4}));
  t.expect("Y", Tensor::fromVector<uint8_t>({3}, {4, 4, 4}));
  t.run();
}

// ref(op='Clip', ins=[A([-2,0.5,3],np.float16), A(-1,np.float16), A(1,np.float16)], opset=13)
TEST(Activation, ClipFloat16) {
  OpTester t("Clip", 13);
  t.input("A", half({3}, {-2.0, 0.5, 3.0}));
  t.input("B", half({}, {-1.0}));
  t.input("C", half({}, {1.0}));
  t.expect("Y", half({3}, {-1.0, 0.5, 1.0}));
  t.run();
}

// ---- hand-written ---------------------------------------------------------

// The vectorised float paths of Sigmoid, Tanh and tanh-Gelu over a dense
// range, split over the thread pool (oracle: libm in double).
TEST(Activation, FastPathsMatchLibm) {
  const int64_t n = 40000;
  std::vector<float> x(n), sig(n), th(n), gelu(n);
  for (int64_t i = 0; i < n; ++i) {
    x[i] = -30.f + 60.f * static_cast<float>(i) / n;
    const double v = x[i];
    sig[i] = static_cast<float>(1 / (1 + std::exp(-v)));
    th[i] = static_cast<float>(std::tanh(v));
    gelu[i] = static_cast<float>(0.5 * v * (1 + std::tanh(std::sqrt(2 / M_PI) * (v + 0.044715 * v * v * v))));
  }
  const Tensor in = Tensor::fromVector<float>({n}, x);
  OpTester s("Sigmoid", 13);
  s.input("X", in).expect("Y", Tensor::fromVector<float>({n}, sig));
  s.run();
  OpTester t("Tanh", 13);
  t.input("X", in).expect("Y", Tensor::fromVector<float>({n}, th));
  t.run();
  OpTester g("Gelu", 20);
  g.attr("approximate", "tanh");
  g.input("X", in).expect("Y", Tensor::fromVector<float>({n}, gelu));
  g.run();
}

TEST(Activation, BFloat16Relu) {
  std::vector<BFloat16> x{BFloat16(-2.f), BFloat16(0.5f), BFloat16(3.f)};
  std::vector<BFloat16> y{BFloat16(0.f), BFloat16(0.5f), BFloat16(3.f)};
  OpTester t("Relu", 14);
  t.input("X", Tensor::fromVector<BFloat16>({3}, x)).expect("Y", Tensor::fromVector<BFloat16>({3}, y));
  t.run();
}

TEST(ActivationErrors, PReluSlopeDoesNotBroadcast) {
  OpTester t("PRelu", 16);
  t.input("X", Tensor(DataType::kFloat, {1, 3, 2, 2})).input("slope", Tensor(DataType::kFloat, {4}));
  t.output("Y");
  t.expectError("node 'PRelu_under_test' (PRelu): slope (input 1 'slope') of shape [4] does not broadcast to X "
                "(input 0 'X') of shape [1,3,2,2]");
}

TEST(ActivationErrors, ClipBoundNotScalar) {
  OpTester t("Clip", 13);
  t.input("X", Tensor(DataType::kFloat, {3})).input("min", Tensor(DataType::kFloat, {2}));
  t.output("Y");
  t.expectError("input 1 must be a scalar, got shape [2]");
}

TEST(ActivationErrors, GeluApproximate) {
  OpTester t("Gelu", 20);
  t.attr("approximate", "fast");
  t.input("X", Tensor(DataType::kFloat, {3}));
  t.output("Y");
  t.expectError("approximate must be 'none' or 'tanh', got 'fast'");
}
