// The signal family against onnx.reference. The Python, with run(op, inputs,
// attrs, opset) evaluating a one-node model with ReferenceEvaluator (None
// leaves an optional input empty):
//   f = np.float32; sz = np.array(5, np.int64)
//   run("HannWindow", [sz], {}, 17)
//   run("HannWindow", [np.array(5, np.int32)], dict(periodic=0), 17)
//   run("HammingWindow", [sz], {}, 17)
//   run("HammingWindow", [sz], dict(periodic=0, output_datatype=11), 17)
//   run("BlackmanWindow", [sz], {}, 17)
//   run("BlackmanWindow", [sz], dict(periodic=0), 17)
//   x = np.array([1, 2, -1, 0.5, 3, -2], f).reshape(1, 6, 1)
//   run("DFT", [x], {}, 17); run("DFT", [x], dict(onesided=1), 17)
//   x8 = np.array([1, 2, -1, 0.5, 3, -2, 0.25, 1.5], f).reshape(1, 8, 1)
//   run("DFT", [x8], {}, 17); run("DFT", [x8, np.array(5, np.int64)], {}, 17)
//   run("DFT", [x, np.array(8, np.int64)], dict(onesided=1), 17)
//   xc = np.array([1, 0, 2, 1, -1, 0.5, 0.5, -2, 3, 0], f).reshape(1, 5, 2)
//   run("DFT", [xc], dict(inverse=1), 17)
//   run("DFT", [xc.reshape(5, 1, 2)], dict(axis=0), 17)
//   x2 = np.array([1, 2, -1, 0.5, 3, -2], f).reshape(2, 3, 1)
//   run("DFT", [x2, None, np.array(0, np.int64)], {}, 20); run("DFT", [x2], {}, 20)
//   xc4 = np.array([1, 0, 2, 1, -1, 0.5, 0.5, -2], f).reshape(1, 4, 2)
//   run("DFT", [xc4], dict(inverse=1, onesided=1), 20)
//   run("DFT", [xc4, np.array(5, np.int64)], dict(inverse=1, onesided=1), 20)
//   sig = np.array([1, 2, -1, 0.5, 3, -2, 0.25, 1.5, -0.5, 2], f).reshape(1, 10, 1)
//   win = np.array([0.5, 1, 1, 0.5], f)
//   run("STFT", [sig, np.array(3, np.int64), win], {}, 17)
//   run("STFT", [sig, np.array(2, np.int64), None, np.array(4, np.int64)], dict(onesided=0), 17)
//   run("STFT", [sig.astype(np.float64), np.array(3, np.int64), win.astype(np.float64)], {}, 17)
//   (float16: run("DFT", [x.astype(np.float16)], dict(onesided=1), 17))
//   run("MelWeightMatrix", [np.array(4, np.int64), np.array(16, np.int64), np.array(8000, np.int64),
//                           np.array(0, f), np.array(4000, f)], {}, 17)
#include <gtest/gtest.h>

#include "oinfer/graph.h"
#include "op_tester.h"
#include "ir_util.h"

namespace oinfer::testing {
namespace {

Tensor f32(std::vector<int64_t> shape, std::vector<float> v) { return Tensor::fromVector<float>(shape, v); }
Tensor i64(int64_t v) { return Tensor::scalar<int64_t>(v); }
Tensor sig10() { return f32({1, 10, 1}, {1, 2, -1, 0.5f, 3, -2, 0.25f, 1.5f, -0.5f, 2}); }
Tensor win4() { return f32({4}, {0.5f, 1, 1, 0.5f}); }
Tensor x6() { return f32({1, 6, 1}, {1, 2, -1, 0.5f, 3, -2}); }
Tensor x8() { return f32({1, 8, 1}, {1, 2, -1, 0.5f, 3, -2, 0.25f, 1.5f}); }
Tensor xc5() { return f32({1, 5, 2}, {1, 0, 2, 1, -1, 0.5f, 0.5f, -2, 3, 0}); }
Tensor xc4() { return f32({1, 4, 2}, {1, 0, 2, 1, -1, 0.5f, 0.5f, -2}); }

TEST(SignalWindow, Hann) {
  OpTester t("HannWindow", 17);
  t.input("size", i64(5)).expect("y", f32({5}, {0.0f, 0.34549153f, 0.90450853f, 0.90450847f, 0.34549144f}));
  t.run();
  OpTester s("HannWindow", 17);
  s.attr("periodic", int64_t{0}).input("size", Tensor::scalar<int32_t>(5));
  s.expect("y", f32({5}, {0.0f, 0.5f, 1.0f, 0.5f, 7.642742707691767e-15f}));
  s.run();
}

TEST(SignalWindow, Hamming) {
  OpTester t("HammingWindow", 17);
  t.input("size", i64(5)).expect("y", f32({5}, {0.08695652f, 0.40240529f, 0.91281211f, 0.91281211f, 0.40240523f}));
  t.run();
  OpTester s("HammingWindow", 17);
  s.attr("periodic", int64_t{0}).attr("output_datatype", int64_t{11}).constantInput("size", i64(5));
  s.expect("y", Tensor::fromVector<double>({5}, {0.08695652173913038, 0.5434782608695652, 1.0, 0.5434782608695653,
                                                  0.08695652173913038}), 1e-12, 1e-14);
  s.run();
}

TEST(SignalWindow, Blackman) {
  OpTester t("BlackmanWindow", 17);
  t.input("size", i64(5)).expect("y", f32({5}, {0.0f, 0.20077014f, 0.84922987f, 0.84922987f, 0.20077014f}));
  t.run();
  OpTester s("BlackmanWindow", 17);
  s.attr("periodic", int64_t{0}).constantInput("size", i64(5)).expect("y", f32({5}, {0.0f, 0.34f, 1.0f, 0.34f, 0.0f}));
  s.run();
}

TEST(SignalDft, RealNonPowerOfTwo) {
  OpTester t("DFT", 17);
  t.input("x", x6()).expect("y", f32({1, 6, 2}, {3.5f, 0, -0.5f, 0, 0.5f, -6.9282031f, 2.5f, 0, 0.5f, 6.9282031f,
                                                  -0.5f, 0}));
  t.run();
  OpTester s("DFT", 17);
  s.attr("onesided", int64_t{1}).input("x", x6());
  s.expect("y", f32({1, 4, 2}, {3.5f, 0, -0.5f, 0, 0.5f, -6.9282031f, 2.5f, 0}));
  s.run();
}

// The float32 case above with float16 tensors (the same Python, .astype(np.float16));
// compared at float16 precision.
TEST(SignalDft, Float16) {
  auto h = [](std::vector<int64_t> shape, std::vector<float> v) {
    std::vector<Float16> o;
    for (float f : v) o.push_back(Float16(f));
    return Tensor::fromVector<Float16>(shape, o);
  };
  OpTester t("DFT", 17);
  t.attr("onesided", int64_t{1}).input("x", h({1, 6, 1}, {1, 2, -1, 0.5f, 3, -2}));
  t.expect("y", h({1, 4, 2}, {3.5f, 0, -0.5f, 0, 0.5f, -6.9296875f, 2.5f, 0}), 1e-3, 1e-3);
  t.run();
}

TEST(SignalDft, PowerOfTwoAndDftLength) {
  OpTester t("DFT", 17);
  t.input("x", x8()).expect("y", f32({1, 8, 2}, {5.25f, 0, 1.5355339f, -0.87132037f, 4.75f, 2, -5.5355339f,
                                                  -3.3713202f, 1.25f, 0, -5.5355339f, 3.3713202f, 4.75f, -2,
                                                  1.5355339f, 0.87132037f}));
  t.run();
  // dft_length truncates...
  OpTester s("DFT", 17);
  s.input("x", x8()).constantInput("len", i64(5));
  s.expect("y", f32({1, 5, 2}, {5.5f, 0, 2.9495935f, 1.8327343f, -3.1995935f, -0.83879954f, -3.1995935f,
                                0.83879954f, 2.9495935f, -1.8327343f}));
  s.run();
  // ...and zero-pads.
  OpTester p("DFT", 17);
  p.attr("onesided", int64_t{1}).input("x", x6()).constantInput("len", i64(8));
  p.expect("y", f32({1, 5, 2}, {3.5f, 0, 0.47487372f, -2.1819806f, 5, 0.5f, -4.4748735f, -4.1819806f, 2.5f, 0}));
  p.run();
}

TEST(SignalDft, ComplexInverseAndAxis) {
  OpTester t("DFT", 17);
  t.attr("inverse", int64_t{1}).input("x", xc5());
  t.expect("y", f32({1, 5, 2}, {1.1f, -0.1f, 0.10581479f, -0.062038373f, -0.28194746f, -0.086748578f,
                                -0.99788994f, -0.42226839f, 1.0740227f, 0.67105538f}));
  t.run();
  OpTester s("DFT", 17);
  s.attr("axis", int64_t{0}).input("x", xc5().reshaped({5, 1, 2}));
  s.expect("y", f32({5, 1, 2}, {5.5f, -0.5f, 5.3701129f, 3.3552768f, -4.9894495f, -2.111342f, -1.4097375f,
                                -0.43374297f, 0.52907383f, -0.3101919f}));
  s.run();
}

TEST(SignalDft, Opset20AxisInput) {
  const Tensor x2 = f32({2, 3, 1}, {1, 2, -1, 0.5f, 3, -2});
  OpTester t("DFT", 20);
  t.input("x", x2).absentInput().constantInput("axis", i64(0));
  t.expect("y", f32({2, 3, 2}, {1.5f, 0, 5, 0, -3, 0, 0.5f, 0, -1, 0, 1, 0}));
  t.run();
  OpTester s("DFT", 20);  // default axis -2
  s.input("x", x2).expect("y", f32({2, 3, 2}, {2, 0, 0.5f, -2.5980761f, 0.5f, 2.5980761f, 1.5f, 0, 0, -4.3301272f,
                                               0, 4.3301272f}));
  s.run();
}

TEST(SignalDft, InverseOnesidedIsRealOutput) {
  OpTester t("DFT", 20);
  t.attr("inverse", int64_t{1}).attr("onesided", int64_t{1}).input("x", xc4());
  t.expect("y", f32({1, 6, 1}, {0.58333337f, 0.15032065f, -0.061004233f, -0.91666669f, 0.22767091f, 1.0163460f}));
  t.run();
  OpTester s("DFT", 20);
  s.attr("inverse", int64_t{1}).attr("onesided", int64_t{1}).input("x", xc4()).constantInput("len", i64(5));
  s.expect("y", f32({1, 5, 1}, {0.6f, 0.2728408f, -0.61572325f, -0.52591765f, 1.2688001f}));
  s.run();
}

TEST(SignalStft, WindowOnesided) {
  const std::vector<float> want = {1.75f, 0, 1.5f, -1.75f, -2.75f, 0, 1.375f, 0, 2.25f, -2.875f, -4.875f, 0,
                                   2.125f, 0, 0.625f, -0.5f, -2.875f, 0};
  OpTester t("STFT", 17);
  t.input("x", sig10()).constantInput("step", i64(3)).input("w", win4()).expect("y", f32({1, 3, 3, 2}, want));
  t.run();
  std::vector<double> wantD(want.begin(), want.end());
  auto toD = [](const Tensor& a) {
    const auto v = a.toVector<float>();
    return Tensor::fromVector<double>(a.shape(), std::vector<double>(v.begin(), v.end()));
  };
  OpTester d("STFT", 17);
  d.input("x", toD(sig10())).constantInput("step", i64(3)).input("w", toD(win4()));
  d.expect("y", Tensor::fromVector<double>({1, 3, 3, 2}, wantD), 1e-12, 1e-14);
  d.run();
}

TEST(SignalStft, FrameLengthTwoSided) {
  OpTester t("STFT", 17);
  t.attr("onesided", int64_t{0}).input("x", sig10()).constantInput("step", i64(2)).absentInput();
  t.constantInput("len", i64(4));
  t.expect("y", f32({1, 4, 4, 2}, {2.5f, 0, 2, -1.5f, -2.5f, 0, 2, 1.5f, 0.5f, 0, -4, -2.5f, 3.5f, 0, -4, 2.5f,
                                   2.75f, 0, 2.75f, 3.5f, 3.75f, 0, 2.75f, -3.5f, 3.25f, 0, 0.75f, 0.5f, -3.75f, 0,
                                   0.75f, -0.5f}));
  t.run();
}

TEST(SignalMel, Basic) {
  OpTester t("MelWeightMatrix", 17);
  t.constantInput("bins", i64(4)).constantInput("dft", i64(16)).constantInput("rate", i64(8000));
  t.input("lo", Tensor::scalar<float>(0)).input("hi", Tensor::scalar<float>(4000));
  std::vector<float> want(36, 0.0f);
  want[0] = want[5] = want[10] = want[15] = 1;
  want[19] = 0.5f;
  t.expect("y", f32({9, 4}, want));
  t.run();
}

TEST(SignalErrors, DftBadLastDim) {
  OpTester t("DFT", 17);
  t.input("x", f32({1, 2, 3}, {1, 2, 3, 4, 5, 6}));
  t.expectError("input 0 ('x') has shape [1,2,3], its last dimension must be 1 (real) or 2 (complex)");
}

TEST(SignalErrors, StftFrameTooLong) {
  OpTester t("STFT", 17);
  t.input("x", f32({1, 3, 1}, {1, 2, 3})).constantInput("step", i64(1)).input("w", win4());
  t.expectError("frame_length 4 exceeds the signal length of input 0 ('x') of shape [1,3,1]");
}

// With the axis only known at run time, the inverse of a one-sided spectrum is
// still typed as real ([...,1]), as the ONNX test models declare it.
TEST(SignalShapes, InverseOnesidedWithRuntimeAxisIsReal) {
  ir::Graph g;
  g.opsetImports[""] = 20;
  g.inputs.push_back(ValueInfo{"x", ValueKind::kTensor, DataType::kFloat, true, {1, 10, 6, 2}});
  g.inputs.push_back(ValueInfo{"axis", ValueKind::kTensor, DataType::kInt64, true, {}});
  Node n;
  n.opType = "DFT";
  n.name = "dft";
  n.inputs = {"x", "", "axis"};
  n.outputs = {"y"};
  for (const char* a : {"inverse", "onesided"}) {
    Attribute at;
    at.name = a;
    at.type = AttrType::kInt;
    at.i = 1;
    n.attributes.push_back(at);
  }
  g.nodes.push_back(n);
  g.outputs.push_back(ValueInfo{"y", ValueKind::kTensor, DataType::kUndefined, false, {}});
  inferShapes(g);
  const ValueInfo* y = g.findValue("y");
  ASSERT_TRUE(y && y->hasShape);
  ASSERT_EQ(y->shape.size(), 4u);
  EXPECT_EQ(y->shape[3], Dim(1));
}

}  // namespace
}  // namespace oinfer::testing
