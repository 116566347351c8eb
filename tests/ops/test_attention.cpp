// Attention and RotaryEmbedding against onnx.reference. The Python, with
// run(op, inputs, attrs, opset, outs) evaluating a one-node model with
// onnx.reference.ReferenceEvaluator (None = absent input, outs a list of
// flags for which outputs exist), and r(*shape, seed) =
// np.round(np.random.default_rng(seed).uniform(-1,1,shape),2).astype(np.float32):
//   q=r(1,2,2,2,seed=1); k=r(1,2,3,2,seed=2); v=r(1,2,3,2,seed=3)
//   m2=np.array([[0,-1,0.5],[0.25,0,-2]],f)
//   run("Attention",[q,k,v,m2],dict(qk_matmul_output_mode=0),23,[1,0,0,1])
//   q3=r(1,2,4,seed=4); k3=r(1,1,2,seed=5); v3=r(1,1,2,seed=6); pk=r(1,1,2,2,seed=7); pv=r(1,1,2,2,seed=8)
//   run("Attention",[q3,k3,v3,None,pk,pv],dict(q_num_heads=2,kv_num_heads=1,is_causal=1,qk_matmul_output_mode=3),23,4)
//   bm=np.array([1,0,1,1,1,0,1,1,1,0,1,1],bool).reshape(1,2,2,3)
//   run("Attention",[q,k,v,bm],dict(softcap=0.5,scale=2.0,qk_matmul_output_mode=1 / 2),23,[1,0,0,1])
//   run("Attention",[q,k,v,np.array([[0.5,-0.5]],f),None,None,np.array([2])],{},24)
//   cos=np.round(np.cos(np.arange(6).reshape(3,2)*0.5),4); sin likewise (float32)
//   x=r(1,2,2,4,seed=9); run("RotaryEmbedding",[x,cos,sin,np.array([[2,0]])],{},23)
//   x3=r(1,2,8,seed=10); c3=cos[:2,:1].reshape(1,2,1); s3=sin[:2,:1].reshape(1,2,1)
//   run("RotaryEmbedding",[x3,c3,s3],dict(interleaved=1,rotary_embedding_dim=2,num_heads=2),23)
#include <gtest/gtest.h>

#include <limits>

#include "op_tester.h"

namespace oinfer::testing {
namespace {

Tensor f32(std::vector<int64_t> shape, std::vector<float> v) { return Tensor::fromVector<float>(shape, v); }
Tensor q4() { return f32({1, 2, 2, 2}, {0.02f, 0.9f, -0.71f, 0.9f, -0.38f, -0.15f, 0.66f, -0.18f}); }
Tensor k4() { return f32({1, 2, 3, 2}, {-0.48f, -0.4f, 0.63f, -0.82f, 0.2f, 0.46f, -0.62f, -0.89f, -0.45f, 0.31f, 0.12f, -0.7f}); }
Tensor v4() { return f32({1, 2, 3, 2}, {-0.83f, -0.53f, 0.6f, 0.16f, -0.81f, -0.13f, -0.04f, -0.68f, 0.47f, -0.77f, -0.22f, 0.03f}); }
Tensor boolMask() {
  return Tensor::fromVector<bool>({1, 2, 2, 3}, {true, false, true, true, true, false, true, true, true, false, true, true});
}
constexpr float kInf = std::numeric_limits<float>::infinity();

TEST(AttentionMha, FloatMaskWithQkOutput) {
  OpTester t("Attention", 23);
  t.attr("qk_matmul_output_mode", int64_t(0));
  t.input("Q", q4()).input("K", k4()).input("V", v4()).input("mask", f32({2, 3}, {0, -1, 0.5f, 0.25f, 0, -2}));
  t.expect("Y", f32({1, 2, 2, 2}, {-0.71793151f, -0.2061481f, -0.49629524f, -0.33461636f, -0.07059484f, -0.33355004f, 0.14347884f, -0.65964484f}));
  t.absentOutput().absentOutput();
  t.expect("qk", f32({1, 2, 2, 3}, {-0.26134667f, -0.51293522f, 0.29557064f, -0.01357646f, -0.83813363f, 0.19233304f, 0.26099312f, 0.088034786f, 0.042002145f, -0.1760696f, -0.24946728f, 0.14509831f}));
  t.run();
}

TEST(AttentionGqa, Packed3dCausalWithPastAndSoftmaxOutput) {
  OpTester t("Attention", 23);
  t.attr("q_num_heads", int64_t(2)).attr("kv_num_heads", int64_t(1)).attr("is_causal", int64_t(1));
  t.attr("qk_matmul_output_mode", int64_t(3));
  t.input("Q", f32({1, 2, 4}, {0.89f, 0.02f, 0.95f, -0.84f, 0.21f, -0.25f, 0.6f, -0.65f}));
  t.input("K", f32({1, 1, 2}, {0.61f, 0.62f})).input("V", f32({1, 1, 2}, {0.08f, -0.31f})).absentInput();
  t.input("past_key", f32({1, 1, 2, 2}, {0.25f, 0.79f, 0.55f, -0.55f}));
  t.input("past_value", f32({1, 1, 2, 2}, {-0.35f, 0.97f, -0.36f, 0.58f}));
  t.expect("Y", f32({1, 2, 4}, {-0.19687647f, 0.36942312f, -0.23697576f, 0.41127428f, -0.21688592f, 0.41074586f, -0.23064892f, 0.41239759f}));
  t.expect("present_key", f32({1, 1, 3, 2}, {0.25f, 0.79f, 0.55f, -0.55f, 0.61f, 0.62f}));
  t.expect("present_value", f32({1, 1, 3, 2}, {-0.35f, 0.97f, -0.36f, 0.58f, 0.08f, -0.31f}));
  t.expect("qk", f32({1, 2, 2, 3}, {0.29100341f, 0.34487501f, 0.36412159f, 0.29307321f, 0.38832825f, 0.31859854f, 0.19530337f, 0.52953482f, 0.27516183f, 0.22923769f, 0.48199254f, 0.28876978f}));
  t.run();
}

TEST(AttentionMha, SoftcapScaleBoolMask) {
  const Tensor y = f32({1, 2, 2, 2}, {-0.81571347f, -0.2442693f, -0.2771526f, -0.26324144f, 0.071297035f, -0.50677425f, -0.0033611485f, -0.22117548f});
  for (int64_t mode : {1, 2}) {
    SCOPED_TRACE("qk_matmul_output_mode " + std::to_string(mode));
    OpTester t("Attention", 24);
    t.attr("softcap", 0.5f).attr("scale", 2.0f).attr("qk_matmul_output_mode", mode);
    t.input("Q", q4()).input("K", k4()).input("V", v4()).input("mask", boolMask());
    t.expect("Y", y).absentOutput().absentOutput();
    if (mode == 1)
      t.expect("qk", f32({1, 2, 2, 3}, {-0.4505839f, -0.49699119f, 0.46590778f, -0.03832474f, -0.49992383f, 0.39807349f, 0.45039567f, 0.23027137f, 0.11661378f, -0.37995458f, -0.44387436f, 0.33775252f}));
    else
      t.expect("qk", f32({1, 2, 2, 3}, {-0.4505839f, -kInf, 0.46590778f, -0.03832474f, -0.49992383f, -kInf, 0.45039567f, 0.23027137f, 0.11661378f, -kInf, -0.44387436f, 0.33775252f}));
    t.run();
  }
}

TEST(AttentionMha, ShortMaskAndNonpadKvSeqlen) {
  OpTester t("Attention", 24);
  t.input("Q", q4()).input("K", k4()).input("V", v4()).input("mask", f32({1, 2}, {0.5f, -0.5f}));
  t.absentInput().absentInput().input("nonpad", Tensor::fromVector<int64_t>({1}, {2}));
  t.expect("Y", f32({1, 2, 2, 2}, {-0.51193184f, -0.37652653f, -0.63139021f, -0.4341673f, 0.080523543f, -0.70126885f, 0.089926317f, -0.70292819f}));
  t.run();
}

TEST(AttentionErrors, HeadsNotAMultiple) {
  OpTester t("Attention", 23);
  t.input("Q", f32({1, 3, 1, 2}, {1, 2, 3, 4, 5, 6})).input("K", f32({1, 2, 1, 2}, {1, 2, 3, 4}));
  t.input("V", f32({1, 2, 1, 2}, {1, 2, 3, 4}));
  t.expectError("q heads (3) must be a multiple of kv heads (2)");
}

TEST(AttentionErrors, PackedNeedsHeadCounts) {
  OpTester t("Attention", 23);
  t.input("Q", f32({1, 1, 2}, {1, 2})).input("K", f32({1, 1, 2}, {1, 2})).input("V", f32({1, 1, 2}, {1, 2}));
  t.expectError("3-d Q, K and V need positive q_num_heads and kv_num_heads attributes");
}

TEST(AttentionErrors, PastKeyWithoutPastValue) {
  OpTester t("Attention", 23);
  t.input("Q", q4()).input("K", k4()).input("V", v4()).absentInput().input("past_key", f32({1, 2, 1, 2}, {1, 2, 3, 4}));
  t.expectError("past_key and past_value must be given together");
}

Tensor cosCache() { return f32({3, 2}, {1, 0.8776f, 0.5403f, 0.0707f, -0.4161f, -0.8011f}); }
Tensor sinCache() { return f32({3, 2}, {0, 0.4794f, 0.8415f, 0.9975f, 0.9093f, 0.5985f}); }

TEST(RotaryEmbedding, FourDimWithPositionIds) {
  OpTester t("RotaryEmbedding", 23);
  t.input("X", f32({1, 2, 2, 4}, {0.74f, -0.43f, 0.21f, 0.56f, 0.43f, 0.83f, 0.72f, 0.84f, -0.95f, -0.13f, -0.03f, -0.87f, -0.99f, 0.66f, 0.97f, 0.57f}));
  t.input("cos", cosCache()).input("sin", sinCache()).input("pos", Tensor::fromVector<int64_t>({1, 2}, {2, 0}));
  t.expect("Y", f32({1, 2, 2, 4}, {-0.49886698f, 0.0093129873f, 0.58550102f, -0.705971f, 0.43000001f, 0.325712f, 0.72000003f, 1.1350861f, 0.42257398f, 0.62483805f, -0.85135204f, 0.61915201f, -0.99000001f, 0.305958f, 0.97000003f, 0.81663597f}));
  t.run();
}

TEST(RotaryEmbedding, PackedInterleavedPartial) {
  OpTester t("RotaryEmbedding", 23);
  t.attr("interleaved", int64_t(1)).attr("rotary_embedding_dim", int64_t(2)).attr("num_heads", int64_t(2));
  t.input("X", f32({1, 2, 8}, {0.91f, -0.58f, 0.66f, -0.7f, 0.03f, -0.73f, 0.38f, 0.68f, -0.15f, 0.91f, 0.65f, -0.32f, 0.15f, 0.51f, 0.65f, 0.87f}));
  t.input("cos", f32({1, 2, 1}, {1, 0.5403f})).input("sin", f32({1, 2, 1}, {0, 0.8415f}));
  t.expect("Y", f32({1, 2, 8}, {0.91f, -0.58f, 0.66f, -0.7f, 0.03f, -0.73f, 0.38f, 0.68f, -0.84680998f, 0.365448f, 0.65f, -0.32f, -0.34811997f, 0.40177798f, 0.65f, 0.87f}));
  t.run();
}

TEST(RotaryEmbedding, PositionOutOfRange) {
  OpTester t("RotaryEmbedding", 23);
  t.input("X", f32({1, 1, 1, 4}, {1, 2, 3, 4})).input("cos", cosCache()).input("sin", sinCache());
  t.input("pos", Tensor::fromVector<int64_t>({1, 1}, {3})).output("Y");
  t.expectError("position id 3 is out of range [0, 3)");
}

}  // namespace
}  // namespace oinfer::testing
