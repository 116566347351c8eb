// BatchNormalization, InstanceNormalization, LayerNormalization,
// GroupNormalization, RMSNormalization, MeanVarianceNormalization against
// onnx.reference (BatchNormalization inference: onnxruntime, whose opsets
// 7/9 onnx.reference gets wrong). The Python, with run(op, inputs, attrs,
// opset, outs) evaluating a one-node model:
//   f = np.float32
//   x = np.array([1,-2,3,4,0.5,-6,0,2,-1,-3,5,1.5,2,2,-4,1], f).reshape(2,2,2,2)
//   s, b, m, v = [0.5,2], [1,-1], [0.5,-1], [2,0.25]  (float32)
//   run("BatchNormalization", [x,s,b,m,v], dict(epsilon=1e-3), 7 / 9 / 15)  # all equal
//   run("BatchNormalization", [x,s,b,m,v], dict(training_mode=1, momentum=0.8), 15, outs=3)
//   run("InstanceNormalization", [x,s,b], dict(epsilon=1e-3), 6)
//   x3 = x.reshape(2,2,4); bb = [0.1,0.2,0.3,0.4]
//   run("LayerNormalization", [x3, [1,2,0.5,-1], bb], dict(axis=-1, epsilon=1e-5), 17, outs=3)
//   run("LayerNormalization", [x3, [[1,2,0.5,-1]], bb], dict(axis=1, epsilon=1e-5), 17, outs=3)
//   run("LayerNormalization", [x3, [2]], dict(), 17)
//   x4 = np.array([1,-2,3,4,0.5,-6,0,2,-1,-3,5,1.5,2,2,-4,1,0,1,2,3,4,5,6,7], f).reshape(1,4,3,2)
//   run("GroupNormalization", [x4, [1,2], [0,1]], dict(num_groups=2, epsilon=1e-5), 18)
//   run("GroupNormalization", [x4, [1,2,0.5,-1], [0,1,2,3]], dict(num_groups=2, epsilon=1e-5), 21)
//   run("RMSNormalization", [x3, [1,2,0.5,-1]], dict(epsilon=1e-5), 23)
//   run("MeanVarianceNormalization", [x], {}, 13); run(..., dict(axes=[1,3]), 9)
#include <gtest/gtest.h>

#include "op_tester.h"

namespace oinfer::testing {
namespace {

Tensor f32(std::vector<int64_t> shape, std::vector<float> v) { return Tensor::fromVector<float>(shape, v); }
Tensor x4d() { return f32({2, 2, 2, 2}, {1, -2, 3, 4, 0.5f, -6, 0, 2, -1, -3, 5, 1.5f, 2, 2, -4, 1}); }
Tensor x3d() { return x4d().reshaped({2, 2, 4}); }
Tensor vec(std::vector<float> v) { return f32({static_cast<int64_t>(v.size())}, v); }

TEST(NormalizationBatchNorm, InferenceAllOpsets) {
  for (int64_t opset : {1, 6, 7, 9, 14, 15}) {
    for (bool constant : {false, true}) {
      SCOPED_TRACE("opset " + std::to_string(opset) + (constant ? " constant params" : ""));
      OpTester t("BatchNormalization", opset);
      t.attr("epsilon", 1e-3f);
      if (opset < 7) t.attr("is_test", int64_t(1));
      t.input("X", x4d()).input("scale", vec({0.5f, 2}), constant).input("B", vec({1, -1}), constant);
      t.input("mean", vec({0.5f, -1}), constant).input("var", vec({2, 0.25f}), constant);
      t.expect("Y", f32({2, 2, 2, 2}, {1.1767325f, 0.11633736f, 1.8836626f, 2.2371278f, 4.9880362f, -20.960121f, 2.9920242f, 10.976072f, 0.46980241f, -0.23712766f, 2.5905929f, 1.3534651f, 10.976072f, 10.976072f, -12.976072f, 6.9840484f}));
      t.run();
    }
  }
}

TEST(NormalizationBatchNorm, TrainingModeRunningStats) {
  OpTester t("BatchNormalization", 15);
  t.attr("training_mode", int64_t(1)).attr("momentum", 0.8f);
  t.input("X", x4d()).input("scale", vec({0.5f, 2})).input("B", vec({1, -1}));
  t.input("mean", vec({0.5f, -1})).input("var", vec({2, 0.25f}));
  t.expect("Y", f32({2, 2, 2, 2}, {0.9884159f, 0.43237782f, 1.359108f, 1.5444539f, -0.42756855f, -5.00702f, -0.77983403f, 0.62922788f, 0.61772382f, 0.24703181f, 1.7298f, 1.0810889f, 0.62922788f, 0.62922788f, -3.5979581f, -0.075303078f}));
  t.expect("running_mean", vec({0.61250001f, -0.86250001f})).expect("running_var", vec({3.0554686f, 1.8117187f}));
  t.run();
}

// Before opset 9, spatial=0 takes per-activation statistics of shape [C, H, W]:
//   s = np.arange(8).reshape(2,2,2) * 0.5; b = ones; m = full(0.5); v = np.arange(8).reshape(2,2,2) + 1
//   y = s * (x - m) / np.sqrt(v + 1e-5) + b
TEST(NormalizationBatchNorm, NonSpatialOpset7) {
  Tensor s(DataType::kFloat, {2, 2, 2}), b(DataType::kFloat, {2, 2, 2}), m(DataType::kFloat, {2, 2, 2}),
      v(DataType::kFloat, {2, 2, 2});
  for (int i = 0; i < 8; ++i) {
    s.data<float>()[i] = 0.5f * static_cast<float>(i);
    b.data<float>()[i] = 1;
    m.data<float>()[i] = 0.5f;
    v.data<float>()[i] = static_cast<float>(i + 1);
  }
  OpTester t("BatchNormalization", 7);
  t.attr("spatial", int64_t(0));
  t.input("X", x4d()).input("scale", s).input("B", b).input("mean", m).input("var", v);
  t.expect("Y", f32({2, 2, 2, 2}, {1.0f, 0.11611873f, 2.4433732f, 3.6249969f, 1.0f, -5.6340294f, 0.43305367f,
                                   2.8561542f, 1.0f, -0.23743379f, 3.5980718f, 1.749999f, 2.3416395f, 2.5309298f,
                                   -4.1025167f, 1.6187181f}));
  t.run();
}

TEST(NormalizationBatchNorm, ScaleShapeMismatch) {
  OpTester t("BatchNormalization", 15);
  t.input("X", x4d()).input("scale", vec({1, 2, 3})).input("B", vec({1, -1}));
  t.input("mean", vec({0.5f, -1})).input("var", vec({2, 0.25f})).output("Y");
  t.expectError("input 1 ('scale') has shape [3], expected [2]");
}

TEST(NormalizationInstanceNorm, Opsets) {
  for (int64_t opset : {1, 6, 22}) {
    OpTester t("InstanceNormalization", opset);
    t.attr("epsilon", 1e-3f);
    t.input("X", x4d()).input("scale", vec({0.5f, 2})).input("B", vec({1, -1}));
    t.expect("Y", f32({2, 2, 2, 2}, {0.89090145f, 0.23631012f, 1.3272957f, 1.5454928f, -0.098136485f, -4.3614912f, -0.42608684f, 0.88571465f, 0.72799873f, 0.39322788f, 1.7323111f, 1.1464622f, 0.40693927f, 0.40693927f, -4.416853f, -0.397026f}));
    t.run();
  }
}

TEST(NormalizationLayerNorm, LastAxisWithStats) {
  OpTester t("LayerNormalization", 17);
  t.attr("axis", int64_t(-1)).attr("epsilon", 1e-5f);
  t.input("X", x3d()).input("Scale", vec({1, 2, 0.5f, -1})).input("B", vec({0.1f, 0.2f, 0.3f, 0.4f}));
  t.expect("Y", f32({2, 2, 4}, {-0.11821768f, -2.8550475f, 0.62732655f, -0.69108844f, 0.55095583f, -3.1616707f, 0.44348598f, -0.54290771f, -0.44403276f, -2.2272232f, 1.0323517f, 0.10705927f, 0.80352592f, 1.6070518f, -0.55428141f, 0.098488897f}));
  t.expect("Mean", f32({2, 2, 1}, {1.5f, -0.875f, 0.625f, 0.25f})).expect("InvStdDev", f32({2, 2, 1}, {0.43643537f, 0.32796788f, 0.3347894f, 0.40201479f}));
  t.run();
}

TEST(NormalizationLayerNorm, Axis1BroadcastScale) {
  OpTester t("LayerNormalization", 17);
  t.attr("axis", int64_t(1)).attr("epsilon", 1e-5f);
  t.input("X", x3d()).input("Scale", f32({1, 4}, {1, 2, 0.5f, -1})).input("B", vec({0.1f, 0.2f, 0.3f, 0.4f}));
  t.expect("Y", f32({2, 2, 4}, {0.33330429f, -1.3695015f, 0.75600386f, -0.85135937f, 0.16362844f, -4.0843153f, 0.24697632f, -0.17265597f, -0.42178449f, -2.295491f, 1.1280494f, 0.014333218f, 0.66715705f, 1.3343141f, -0.50536299f, 0.19582346f}));
  t.expect("Mean", f32({2, 1, 1}, {0.3125f, 0.4375f})).expect("InvStdDev", f32({2, 1, 1}, {0.33935168f, 0.36298051f}));
  t.run();
}

TEST(NormalizationLayerNorm, NoBiasDefaults) {
  OpTester t("LayerNormalization", 17);
  t.input("X", x3d()).input("Scale", vec({2})).expect("Y", f32({2, 2, 4}, {-0.43643537f, -3.0550475f, 1.3093061f, 2.1821768f, 0.90191168f, -3.3616707f, 0.57394379f, 1.8858154f, -1.0880655f, -2.4272232f, 2.9294071f, 0.58588147f, 1.4070518f, 1.4070518f, -3.4171257f, 0.60302222f}));
  t.run();
}

TEST(NormalizationLayerNorm, ScaleNotBroadcastable) {
  OpTester t("LayerNormalization", 17);
  t.input("X", x3d()).input("Scale", vec({1, 2, 3})).output("Y");
  t.expectError("input 1 ('Scale') of shape [3] cannot be broadcast to the normalized shape [4]");
}

Tensor x4g() {
  return f32({1, 4, 3, 2}, {1, -2, 3, 4, 0.5f, -6, 0, 2, -1, -3, 5, 1.5f, 2, 2, -4, 1, 0, 1, 2, 3, 4, 5, 6, 7});
}

TEST(NormalizationGroupNorm, Opset18PerGroupScale) {
  OpTester t("GroupNormalization", 18);
  t.attr("num_groups", int64_t(2)).attr("epsilon", 1e-5f);
  t.input("X", x4g()).input("scale", vec({1, 2})).input("bias", vec({0, 1}));
  t.expect("Y", f32({1, 4, 3, 2}, {0.19681245f, -0.81536585f, 0.87159789f, 1.2089907f, 0.028116066f, -2.1649368f, -0.14058031f, 0.5342052f, -0.47797304f, -1.1527586f, 1.5463835f, 0.36550882f, 0.70369571f, 0.70369571f, -3.5630856f, -0.0074344873f, -0.71856463f, -0.0074344873f, 0.70369571f, 1.4148259f, 2.1259561f, 2.8370862f, 3.5482163f, 4.259346f}));
  t.run();
}

TEST(NormalizationGroupNorm, Opset21PerChannelScale) {
  OpTester t("GroupNormalization", 21);
  t.attr("num_groups", int64_t(2)).attr("epsilon", 1e-5f);
  t.input("X", x4g()).input("scale", vec({1, 2, 0.5f, -1})).input("bias", vec({0, 1, 2, 3}));
  t.expect("Y", f32({1, 4, 3, 2}, {0.19681245f, -0.81536585f, 0.87159789f, 1.2089907f, 0.028116066f, -2.1649368f, 0.71883941f, 2.0684104f, 0.044053912f, -1.3055172f, 4.0927668f, 1.7310176f, 1.9259239f, 1.9259239f, 0.85922861f, 1.7481414f, 1.5703589f, 1.7481414f, 3.1481521f, 2.792587f, 2.437022f, 2.0814569f, 1.7258918f, 1.3703269f}));
  t.run();
}

TEST(NormalizationGroupNorm, Opset21RejectsPerGroupScale) {
  OpTester t("GroupNormalization", 21);
  t.attr("num_groups", int64_t(2));
  t.input("X", x4g()).input("scale", vec({1, 2})).input("bias", vec({0, 1})).output("Y");
  t.expectError("input 1 ('scale') has shape [2], expected [4] (one value per channel)");
}

TEST(NormalizationRMSNorm, LastAxis) {
  OpTester t("RMSNormalization", 23);
  t.attr("epsilon", 1e-5f);
  t.input("X", x3d()).input("scale", vec({1, 2, 0.5f, -1})).expect("Y", f32({2, 2, 4}, {0.36514813f, -1.4605925f, 0.54772222f, -1.4605925f, 0.15762201f, -3.7829282f, 0.0f, -0.63048804f, -0.3276926f, -1.9661555f, 0.81923151f, -0.49153888f, 0.79999942f, 1.5999988f, -0.79999942f, -0.39999971f}));
  t.run();
}

TEST(NormalizationMVN, DefaultAxesAndCustomAxes) {
  OpTester t("MeanVarianceNormalization", 13);
  t.input("X", x4d()).expect("Y", f32({2, 2, 2, 2}, {-0.023168268f, -1.1352452f, 0.7182163f, 1.0889087f, 0.28621587f, -2.0035112f, 0.11008303f, 0.81461442f, -0.76455283f, -1.5059375f, 1.4596009f, 0.16217788f, 0.81461442f, 0.81461442f, -1.2989798f, 0.46234873f}));
  t.run();
  OpTester c("MeanVarianceNormalization", 9);
  c.attr("axes", std::vector<int64_t>{1, 3});
  c.input("X", x4d()).expect("Y", f32({2, 2, 2, 2}, {0.94771671f, -0.13538811f, 0.50709254f, 1.1832159f, 0.76719928f, -1.5795279f, -1.5212775f, -0.16903085f, -0.47140455f, -1.4142137f, 1.2854974f, 0.19477235f, 0.9428091f, 0.9428091f, -1.5192243f, 0.03895447f}));
  c.run();
}

}  // namespace
}  // namespace oinfer::testing
