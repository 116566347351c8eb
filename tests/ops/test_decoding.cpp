// Tests of the decoding family: LinearAttention (27), CausalConvWithState
// (27), TensorScatter (24).
//
// Expected values come from onnx.reference (onnx 1.22.0) on a one-node model:
//
//   import numpy as np
//   from onnx import helper as oh
//   from onnx.reference import ReferenceEvaluator
//   def run(op, ins, attrs={}, nout=1, opset=27):
//       names = [f'i{k}' if v is not None else '' for k, v in enumerate(ins)]
//       node = oh.make_node(op, names, [f'o{k}' for k in range(nout)], **attrs)
//       feeds = {n: v for n, v in zip(names, ins) if v is not None}
//       g = oh.make_graph([node], 'g',
//           [oh.make_tensor_value_info(n, oh.np_dtype_to_tensor_dtype(v.dtype), v.shape) for n, v in feeds.items()],
//           [oh.make_tensor_value_info(f'o{k}', 0, None) for k in range(nout)])
//       m = oh.make_model(g, opset_imports=[oh.make_opsetid('', opset)])
//       return ReferenceEvaluator(m).run(None, feeds)
//   def r(shape, seed, scale=1.0, dtype=np.float32):
//       return (np.random.default_rng(seed).standard_normal(shape) * scale).round(2).astype(dtype)
//   sig = lambda x: (1 / (1 + np.exp(-x))).astype(np.float32)
//
// Each test's comment gives its inputs in those terms; literals print float32
// values with numpy's shortest repr.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "op_tester.h"
#include "test_elementwise_util.h"

using namespace oinfer;
using oinfer::testing::half;
using oinfer::testing::OpTester;

namespace {

Tensor f32(std::vector<int64_t> shape, std::vector<float> v) { return Tensor::fromVector<float>(std::move(shape), v); }

}  // namespace

// ---- LinearAttention --------------------------------------------------------

// q=r((1,2,2),1); k=r((1,2,2),2); v=r((1,2,3),3)
// run('LinearAttention', [q,k,v], dict(update_rule='linear', q_num_heads=1, kv_num_heads=1), 2)
TEST(Decoding, LinearAttentionLinear) {
  OpTester t("LinearAttention", 27);
  t.attr("update_rule", "linear").attr("q_num_heads", 1).attr("kv_num_heads", 1);
  t.input("query", f32({1, 2, 2}, {0.35, 0.82, 0.33, -1.3}));
  t.input("key", f32({1, 2, 2}, {0.19, -0.52, -0.41, -2.44}));
  t.input("value", f32({1, 2, 3}, {2.04, -2.56, 0.42, -0.57, -0.45, -0.22}));
  t.expect("output", f32({1, 2, 3}, {-0.5191549, 0.6514885, -0.10688484, -0.15837145, -2.3034616, -0.25301695}));
  t.expect("present_state", f32({1, 1, 2, 3}, {0.6213, -0.30189997, 0.16999999, 0.33000004, 2.4292, 0.31840003}));
  t.run();
}

// q=r((1,2,4),4); k=r((1,2,4),5); v=r((1,2,4),6); p=r((1,2,2,2),7); g=-np.abs(r((1,2,4),8,0.5))
// run('LinearAttention', [q,k,v,p,g], dict(update_rule='gated', q_num_heads=2, kv_num_heads=2, scale=0.5), 2)
TEST(Decoding, LinearAttentionGatedPerKeyDecayPastScale) {
  OpTester t("LinearAttention", 27);
  t.attr("update_rule", "gated").attr("q_num_heads", 2).attr("kv_num_heads", 2).attr("scale", 0.5f);
  t.input("query", f32({1, 2, 4}, {-0.65, -0.17, 1.66, 0.66, -1.64, -0.01, -0.62, 0.15}));
  t.input("key", f32({1, 2, 4}, {-0.8, -1.32, -0.25, 0.42, 1.14, 0.11, -0.55, -0.78}));
  t.input("value", f32({1, 2, 4}, {1.05, 1.78, -2.55, -0.14, 1.01, 1.35, 0.65, 1.5}));
  t.input("past_state", f32({1, 2, 2, 2}, {0.0, 0.3, -0.27, -0.89, -0.45, -0.99, 0.06, 1.34}));
  t.input("decay", f32({1, 2, 4}, {-0.87, -0.67, -0.68, -0.18, -1.16, -0.09, -0.48, -0.45}));
  t.expect("output", f32({1, 2, 4}, {0.40255368, 0.660379, 0.0030118525, -0.037284672, -0.72180927, -0.91616154,
                                     -0.054576565, 0.30820864}));
  t.expect("present_state", f32({1, 2, 2, 2}, {0.88807154, 1.1319964, -1.2818786, -2.4150958, -0.10409436,
                                               -1.113694, -1.1579442, -0.49381948}));
  t.run();
}

// q=r((2,1,2),9); k=r((2,1,2),10); v=r((2,1,2),11); p=r((2,1,2,2),12); g=-np.abs(r((2,1,1),13,0.5))
// run('LinearAttention', [q,k,v,p,g], dict(update_rule='gated', q_num_heads=1, kv_num_heads=1), 2)
TEST(Decoding, LinearAttentionGatedPerHeadDecay) {
  OpTester t("LinearAttention", 27);
  t.attr("update_rule", "gated").attr("q_num_heads", 1).attr("kv_num_heads", 1);
  t.input("query", f32({2, 1, 2}, {-0.8, 0.24, -1.66, 0.66}));
  t.input("key", f32({2, 1, 2}, {-1.1, -0.73, -0.78, 0.27}));
  t.input("value", f32({2, 1, 2}, {0.03, 1.36, 1.22, -0.51}));
  t.input("past_state", f32({2, 1, 2, 2}, {-0.01, 1.05, 0.74, 0.72, 1.62, -1.21, -0.63, -1.32}));
  t.input("decay", f32({2, 1, 1}, {-0.91, -1.54}));
  t.expect("output", f32({2, 1, 2}, {0.06777795, 0.48787817, 0.8000254, -0.35878095}));
  t.expect("present_state", f32({2, 1, 2, 2}, {-0.037025243, -1.0733497, 0.27596793, -0.7029826, -0.60430264,
                                               0.13839883, 0.19433995, -0.4206831}));
  t.run();
}

// q=r((1,3,4),14); k=r((1,3,4),15,0.5); v=r((1,3,4),16); b=sig(r((1,3,1),17))
// run('LinearAttention', [q,k,v,None,None,b], dict(update_rule='delta', q_num_heads=2, kv_num_heads=2), 2)
TEST(Decoding, LinearAttentionDeltaBetaScalar) {
  OpTester t("LinearAttention", 27);
  t.attr("update_rule", "delta").attr("q_num_heads", 2).attr("kv_num_heads", 2);
  t.input("query", f32({1, 3, 4}, {0.7, -0.98, -1.57, -2.92, -0.35, 1.25, 0.03, 0.51, 1.02, -0.88, 2.65, -0.88}));
  t.input("key", f32({1, 3, 4}, {-0.72, -0.47, 0.2, -0.26, 0.26, 0.4, -0.72, 0.51, -0.3, 1.05, 0.36, -0.27}));
  t.input("value", f32({1, 3, 4}, {-0.59, 0.63, 1.04, 1.03, 1.82, -0.39, 0.54, -0.37, -1.42, -0.7, 0.14, -0.92}));
  t.absentInput().absentInput();
  t.input("beta", f32({1, 3, 1}, {0.7502601, 0.58419055, 0.36818758}));
  t.expect("output", f32({1, 3, 4}, {0.013584351, -0.014505312, 0.24563222, 0.24327035, 0.3844448, -0.14806083,
                                     0.0046146717, -0.08457208, 0.6409847, 0.06895745, -0.2538035, 0.23600943}));
  t.expect("present_state", f32({1, 2, 2, 2}, {0.77683836, -0.3144798, -0.12967521, -0.47532952, -0.13477924,
                                               0.078964844, 0.0020083394, -0.14148965}));
  t.run();
}

// Default update_rule (gated_delta), GQA 4 query heads over 2 kv heads, per-head decay.
// q=r((1,2,8),18); k=r((1,2,4),19,0.5); v=r((1,2,2),20); p=r((1,2,2,1),21); g=-np.abs(r((1,2,2),22,0.3))
// b=sig(r((1,2,2),23)); run('LinearAttention', [q,k,v,p,g,b], dict(q_num_heads=4, kv_num_heads=2), 2)
TEST(Decoding, LinearAttentionGatedDeltaGqaDefaultRule) {
  OpTester t("LinearAttention", 27);
  t.attr("q_num_heads", 4).attr("kv_num_heads", 2);
  t.input("query", f32({1, 2, 8}, {-0.43, -1.13, 0.67, -1.11, 2.01, 0.92, -0.36, 0.57, 1.61, 2.83, -0.92, 1.07, 0.52,
                                   -0.28, 1.09, 0.51}));
  t.input("key", f32({1, 2, 4}, {-0.19, 0.5, 0.21, -0.31, 0.34, -0.73, 0.3, -0.28}));
  t.input("value", f32({1, 2, 2}, {-0.36, 1.2, 1.4, 0.32}));
  t.input("past_state", f32({1, 2, 2, 1}, {0.36, 1.51, -1.79, 1.69}));
  t.input("decay", f32({1, 2, 2}, {-0.42, -0.36, -0.39, -0.19}));
  t.input("beta", f32({1, 2, 2}, {0.6341356, 0.55477923, 0.48500445, 0.089480065}));
  t.expect("output", f32({1, 2, 4}, {-0.6888896, -0.41849765, -0.90976685, 0.6122271, 0.3752425, -0.40335816,
                                     -0.44503987, -0.39331725}));
  t.expect("present_state", f32({1, 2, 2, 1}, {0.50439173, -0.09943381, -0.8357823, 0.6956238}));
  t.run();
}

// MQA (one kv head), per-key decay, beta [B,T,1], no past_state.
// q=r((1,2,4),24); k=r((1,2,2),25,0.5); v=r((1,2,2),26); g=-np.abs(r((1,2,2),27,0.3)); b=sig(r((1,2,1),28))
// run('LinearAttention', [q,k,v,None,g,b], dict(update_rule='gated_delta', q_num_heads=2, kv_num_heads=1), 2)
TEST(Decoding, LinearAttentionGatedDeltaMqaPerKeyDecay) {
  OpTester t("LinearAttention", 27);
  t.attr("update_rule", "gated_delta").attr("q_num_heads", 2).attr("kv_num_heads", 1);
  t.input("query", f32({1, 2, 4}, {1.35, 0.34, -1.16, -0.19, -0.34, -0.23, 0.6, -1.28}));
  t.input("key", f32({1, 2, 2}, {0.18, -0.0, -0.27, -1.14}));
  t.input("value", f32({1, 2, 2}, {-1.93, -3.02, 1.15, 1.56}));
  t.absentInput();
  t.input("decay", f32({1, 2, 2}, {-0.38, -0.23, -0.29, -0.32}));
  t.input("beta", f32({1, 2, 1}, {0.22970103, 0.5324543}));
  t.expect("output", f32({1, 2, 4}, {-0.07617483, -0.11919586, 0.065453924, 0.10242014, 0.16548052, 0.22701988,
                                     0.52845156, 0.7099409}));
  t.expect("present_state", f32({1, 1, 2, 2}, {-0.2227194, -0.31407538, -0.68826175, -0.93160415}));
  t.run();
}

// q,k,v,p = (r(s, seed, dtype=np.float16) for s, seed in [((1,2,2),30), ((1,2,2),31), ((1,2,2),32), ((1,1,2,2),33)])
// run('LinearAttention', [q,k,v,p], dict(update_rule='linear', q_num_heads=1, kv_num_heads=1), 2)
TEST(Decoding, LinearAttentionFloat16) {
  OpTester t("LinearAttention", 27);
  t.attr("update_rule", "linear").attr("q_num_heads", 1).attr("kv_num_heads", 1);
  t.input("query", half({1, 2, 2}, {1.5703125, 0.7402344, -0.97021484, -0.20996094}));
  t.input("key", half({1, 2, 2}, {-0.39990234, 0.26000977, 0.6098633, -0.97021484}));
  t.input("value", half({1, 2, 2}, {0.91015625, 0.75, -0.02999878, 0.64990234}));
  t.input("past_state", half({1, 1, 2, 2}, {0.39990234, -0.5600586, 0.58984375, 0.040008545}));
  t.expect("output", half({1, 2, 2}, {0.4724121, -0.83203125, -0.13916016, 0.37670898}));
  t.expect("present_state", half({1, 1, 2, 2}, {0.01763916, -0.46362305, 0.85546875, -0.3955078}));
  t.run();
}

// The state type S may differ from T: float16 activations with a float32 state.
// As above with p = r((1,1,2,2),33) (float32).
TEST(Decoding, LinearAttentionFloat16WithFloatState) {
  OpTester t("LinearAttention", 27);
  t.attr("update_rule", "linear").attr("q_num_heads", 1).attr("kv_num_heads", 1);
  t.input("query", half({1, 2, 2}, {1.5703125, 0.7402344, -0.97021484, -0.20996094}));
  t.input("key", half({1, 2, 2}, {-0.39990234, 0.26000977, 0.6098633, -0.97021484}));
  t.input("value", half({1, 2, 2}, {0.91015625, 0.75, -0.02999878, 0.64990234}));
  t.input("past_state", f32({1, 1, 2, 2}, {0.4, -0.56, 0.59, 0.04}));
  t.expect("output", half({1, 2, 2}, {0.47265625, -0.83203125, -0.13916016, 0.37670898}));
  t.expect("present_state", f32({1, 1, 2, 2}, {0.017731234, -0.46357518, 0.85575473, -0.39553759}));
  t.run();
}

TEST(Decoding, LinearAttentionBFloat16) {
  // By hand (every value exact in bfloat16), d_k = 1, d_v = 2, scale 1:
  // S1 = 1*[1,2], o1 = 1*S1 = [1,2]; S2 = S1 + 1*[3,4] = [4,6], o2 = 2*S2 = [8,12].
  auto bf = [](std::vector<int64_t> s, std::vector<float> v) {
    std::vector<BFloat16> b;
    for (float f : v) b.push_back(BFloat16(f));
    return Tensor::fromVector<BFloat16>(std::move(s), b);
  };
  OpTester t("LinearAttention", 27);
  t.attr("update_rule", "linear").attr("q_num_heads", 1).attr("kv_num_heads", 1).attr("scale", 1.0f);
  t.input("query", bf({1, 2, 1}, {1, 2})).input("key", bf({1, 2, 1}, {1, 1})).input("value", bf({1, 2, 2}, {1, 2, 3, 4}));
  t.expect("output", bf({1, 2, 2}, {1, 2, 8, 12})).expect("present_state", bf({1, 1, 1, 2}, {4, 6}));
  t.run();
}

// ---- CausalConvWithState ----------------------------------------------------

// x=r((1,2,4),40); w=r((2,1,3),41); run('CausalConvWithState', [x,w], {}, 2)
TEST(Decoding, CausalConvBasic) {
  OpTester t("CausalConvWithState", 27);
  t.input("input", f32({1, 2, 4}, {-1.14, -1.07, -0.76, 0.77, -1.04, -1.03, -0.39, 1.39}));
  t.input("weight", f32({2, 1, 3}, {-1.23, 0.27, -0.01, 0.5, -1.33, 1.11}));
  t.expect("output", f32({1, 2, 4}, {0.011399999, -0.2971, 1.1208999, 1.1032001, -1.1544, 0.23990011, 0.41700003,
                                     1.5466}));
  t.expect("present_state", f32({1, 2, 2}, {-0.76, 0.77, -0.39, 1.39}));
  t.run();
}

// As above with b=r((2,),42); p=r((1,2,2),43):
// run('CausalConvWithState', [x,w,b,p], dict(activation='silu'), 2)
TEST(Decoding, CausalConvBiasPastSilu) {
  OpTester t("CausalConvWithState", 27);
  t.attr("activation", "silu");
  t.input("input", f32({1, 2, 4}, {-1.14, -1.07, -0.76, 0.77, -1.04, -1.03, -0.39, 1.39}));
  t.input("weight", f32({2, 1, 3}, {-1.23, 0.27, -0.01, 0.5, -1.33, 1.11}));
  t.input("bias", f32({2}, {0.3, -1.04}));
  t.input("past_state", f32({1, 2, 2}, {0.24, 0.68, -0.59, -0.91}));
  t.expect("output", f32({1, 2, 4}, {0.109846964, -0.25247175, 1.1445056, 1.1263365, -0.27846453, -0.2784045,
                                     -0.21748894, 0.316123}));
  t.expect("present_state", f32({1, 2, 2}, {-0.76, 0.77, -0.39, 1.39}));
  t.run();
}

// An input shorter than k-1: present_state keeps part of past_state.
// x=r((2,1,1),44); w=r((1,1,4),45); p=r((2,1,3),46)
// run('CausalConvWithState', [x,w,None,p], dict(activation='swish'), 2)
TEST(Decoding, CausalConvShortInputSwish) {
  OpTester t("CausalConvWithState", 27);
  t.attr("activation", "swish");
  t.input("input", f32({2, 1, 1}, {1.45, 0.1}));
  t.input("weight", f32({1, 1, 4}, {-0.46, -0.62, 0.14, 0.84}));
  t.absentInput();
  t.input("past_state", f32({2, 1, 3}, {-0.5, 1.22, -0.27, 0.73, -1.17, -1.43}));
  t.expect("output", f32({2, 1, 1}, {0.43011296, 0.15527132}));
  t.expect("present_state", f32({2, 1, 3}, {1.22, -0.27, 1.45, -1.17, -1.43, 0.1}));
  t.run();
}

// k = 1: an empty carry. w3=r((2,1,1),47); run('CausalConvWithState', [x,w3,b], {}, 2)
TEST(Decoding, CausalConvKernelOneBias) {
  OpTester t("CausalConvWithState", 27);
  t.input("input", f32({1, 2, 4}, {-1.14, -1.07, -0.76, 0.77, -1.04, -1.03, -0.39, 1.39}));
  t.input("weight", f32({2, 1, 1}, {-0.67, 0.1}));
  t.input("bias", f32({2}, {0.3, -1.04}));
  t.expect("output", f32({1, 2, 4}, {1.0638001, 1.0169001, 0.8092, -0.2159, -1.1439999, -1.143, -1.079, -0.90099996}));
  t.expect("present_state", f32({1, 2, 0}, {}));
  t.run();
}

// xh=r((1,2,3),48,dtype=np.float16); wh=r((2,1,2),49,dtype=np.float16)
// run('CausalConvWithState', [xh,wh], dict(activation='silu'), 2)
TEST(Decoding, CausalConvFloat16Silu) {
  OpTester t("CausalConvWithState", 27);
  t.attr("activation", "silu");
  t.input("input", half({1, 2, 3}, {-0.3100586, 1.3496094, 0.1899414, 1.4101562, 0.16003418, -1.0195312}));
  t.input("weight", half({2, 1, 2}, {0.5698242, 1.3798828, 0.23999023, -1.5195312}));
  t.expect("output", half({1, 2, 3}, {-0.16882324, 1.421875, 0.7602539, -0.22497559, 0.04989624, 1.3183594}));
  t.expect("present_state", half({1, 2, 1}, {0.1899414, -1.0195312}));
  t.run();
}

TEST(Decoding, CausalConvBFloat16) {
  // By hand (every value exact in bfloat16): taps (1, 2) over the padded
  // row [3 | 0, 1, 2] -> [1*3+2*0, 1*0+2*1, 1*1+2*2] = [3, 2, 5]; carry [2].
  auto bf = [](std::vector<int64_t> s, std::vector<float> v) {
    std::vector<BFloat16> b;
    for (float f : v) b.push_back(BFloat16(f));
    return Tensor::fromVector<BFloat16>(std::move(s), b);
  };
  OpTester t("CausalConvWithState", 27);
  t.input("input", bf({1, 1, 3}, {0, 1, 2})).input("weight", bf({1, 1, 2}, {1, 2}));
  t.absentInput().input("past_state", bf({1, 1, 1}, {3}));
  t.expect("output", bf({1, 1, 3}, {3, 2, 5})).expect("present_state", bf({1, 1, 1}, {2}));
  t.run();
}

// ---- TensorScatter ----------------------------------------------------------

// pc=np.arange(24,dtype=np.float32).reshape(2,1,4,3); up=-np.arange(1,13,dtype=np.float32).reshape(2,1,2,3)
// run('TensorScatter', [pc,up,np.array([2,0])], {}, 1, 24)
TEST(Decoding, TensorScatterLinear) {
  OpTester t("TensorScatter", 24);
  std::vector<float> past(24), upd(12);
  for (int i = 0; i < 24; ++i) past[i] = static_cast<float>(i);
  for (int i = 0; i < 12; ++i) upd[i] = -static_cast<float>(i + 1);
  t.input("past_cache", f32({2, 1, 4, 3}, past)).input("update", f32({2, 1, 2, 3}, upd));
  t.input("write_indices", Tensor::fromVector<int64_t>({2}, {2, 0}));
  t.expect("present_cache", f32({2, 1, 4, 3}, {0, 1, 2, 3, 4, 5, -1, -2, -3, -4, -5, -6, -7, -8, -9, -10, -11, -12,
                                               18, 19, 20, 21, 22, 23}));
  t.run();
}

// As above: run('TensorScatter', [pc,up,np.array([3,5])], dict(mode='circular'), 1, 24)
TEST(Decoding, TensorScatterCircular) {
  OpTester t("TensorScatter", 24);
  t.attr("mode", "circular");
  std::vector<float> past(24), upd(12);
  for (int i = 0; i < 24; ++i) past[i] = static_cast<float>(i);
  for (int i = 0; i < 12; ++i) upd[i] = -static_cast<float>(i + 1);
  t.input("past_cache", f32({2, 1, 4, 3}, past)).input("update", f32({2, 1, 2, 3}, upd));
  t.input("write_indices", Tensor::fromVector<int64_t>({2}, {3, 5}));
  t.expect("present_cache", f32({2, 1, 4, 3}, {-4, -5, -6, 3, 4, 5, 6, 7, 8, -1, -2, -3, 12, 13, 14, -7, -8, -9, -10,
                                               -11, -12, 21, 22, 23}));
  t.run();
}

// pc3=np.arange(24).reshape(2,4,3); up3=-np.arange(1,7).reshape(2,1,3)
// run('TensorScatter', [pc3,up3], dict(axis=1), 1, 24)
TEST(Decoding, TensorScatterAxisOneNoIndicesInt64) {
  OpTester t("TensorScatter", 24);
  t.attr("axis", 1);
  std::vector<int64_t> past(24);
  for (int i = 0; i < 24; ++i) past[i] = i;
  t.input("past_cache", Tensor::fromVector<int64_t>({2, 4, 3}, past));
  t.input("update", Tensor::fromVector<int64_t>({2, 1, 3}, {-1, -2, -3, -4, -5, -6}));
  t.expect("present_cache", Tensor::fromVector<int64_t>({2, 4, 3}, {-1, -2, -3, 3, 4, 5, 6, 7, 8, 9, 10, 11, -4, -5,
                                                                    -6, 15, 16, 17, 18, 19, 20, 21, 22, 23}));
  t.run();
}

// run('TensorScatter', [np.array([['a','b','c'],['d','e','f']],dtype=object), np.array([['x'],['y']],dtype=object),
//     np.array([1,2])], dict(axis=-1, mode='circular'), 1, 24)
TEST(Decoding, TensorScatterStringLastAxis) {
  OpTester t("TensorScatter", 24);
  t.attr("axis", -1).attr("mode", "circular");
  t.input("past_cache", Tensor::fromVector<std::string>({2, 3}, {"a", "b", "c", "d", "e", "f"}));
  t.input("update", Tensor::fromVector<std::string>({2, 1}, {"x", "y"}));
  t.input("write_indices", Tensor::fromVector<int64_t>({2}, {1, 2}));
  t.expect("present_cache", Tensor::fromVector<std::string>({2, 3}, {"a", "x", "c", "d", "e", "y"}));
  t.run();
}

// ---- errors -----------------------------------------------------------------

TEST(DecodingErrors, LinearAttentionMissingDecay) {
  OpTester t("LinearAttention", 27);
  t.attr("q_num_heads", 1).attr("kv_num_heads", 1);  // gated_delta by default
  t.input("query", Tensor(DataType::kFloat, {1, 1, 2})).input("key", Tensor(DataType::kFloat, {1, 1, 2}));
  t.input("value", Tensor(DataType::kFloat, {1, 1, 2}));
  t.output("output").output("present_state");
  t.expectError("update_rule 'gated_delta' requires the decay input (input 4)");
}

TEST(DecodingErrors, LinearAttentionHeadsNotMultiple) {
  OpTester t("LinearAttention", 27);
  t.attr("update_rule", "linear").attr("q_num_heads", 3).attr("kv_num_heads", 2);
  t.input("query", Tensor(DataType::kFloat, {1, 1, 6})).input("key", Tensor(DataType::kFloat, {1, 1, 4}));
  t.input("value", Tensor(DataType::kFloat, {1, 1, 4}));
  t.output("output").output("present_state");
  t.expectError("q_num_heads (3) must be a positive multiple of kv_num_heads (2)");
}

TEST(DecodingErrors, LinearAttentionKeyHeadSize) {
  OpTester t("LinearAttention", 27);
  t.attr("update_rule", "linear").attr("q_num_heads", 2).attr("kv_num_heads", 2);
  t.input("query", Tensor(DataType::kFloat, {1, 1, 4})).input("key", Tensor(DataType::kFloat, {1, 1, 6}));
  t.input("value", Tensor(DataType::kFloat, {1, 1, 4}));
  t.output("output").output("present_state");
  t.expectError("node 'LinearAttention_under_test' (LinearAttention): head size 3 of key input 1 ('key') with shape "
                "[1,1,6] does not match head size 2 of query input 0 ('query') with shape [1,1,4]");
}

TEST(DecodingErrors, CausalConvWeightChannels) {
  OpTester t("CausalConvWithState", 27);
  t.input("input", Tensor(DataType::kFloat, {1, 2, 4})).input("weight", Tensor(DataType::kFloat, {3, 1, 3}));
  t.output("output").output("present_state");
  t.expectError("channel count of input 0 ('input') with shape [1,2,4] does not match input 1 ('weight') with "
                "shape [3,1,3]");
}

TEST(DecodingErrors, CausalConvActivation) {
  OpTester t("CausalConvWithState", 27);
  t.attr("activation", "relu");
  t.input("input", Tensor(DataType::kFloat, {1, 2, 4})).input("weight", Tensor(DataType::kFloat, {2, 1, 3}));
  t.output("output").output("present_state");
  t.expectError("activation must be 'none', 'silu' or 'swish', got 'relu'");
}

TEST(DecodingErrors, TensorScatterUpdateTooLong) {
  OpTester t("TensorScatter", 24);
  t.input("past_cache", Tensor(DataType::kFloat, {2, 3, 4})).input("update", Tensor(DataType::kFloat, {2, 5, 4}));
  t.output("present_cache");
  t.expectError("update (input 1 'update') of shape [2,5,4] does not match past_cache (input 0 'past_cache') of "
                "shape [2,3,4] outside axis 1, or is longer along it");
}

TEST(DecodingErrors, TensorScatterLinearOverflow) {
  OpTester t("TensorScatter", 24);
  t.input("past_cache", Tensor(DataType::kFloat, {1, 3, 2})).input("update", Tensor(DataType::kFloat, {1, 2, 2}));
  t.input("write_indices", Tensor::fromVector<int64_t>({1}, {2}));
  t.output("present_cache");
  t.expectError("input 2 ('write_indices'): write index of batch 0 is 2, out of range [0, 1] for 2 updates into "
                "max_sequence_length 3 in linear mode");
}

// Issue 23 hardening: a write index near INT64_MAX made index + updates wrap
// negative and pass the linear-mode bound, then wrote far outside the cache.
TEST(DecodingErrors, TensorScatterHugeWriteIndex) {
  OpTester t("TensorScatter", 24);
  t.input("past_cache", Tensor(DataType::kFloat, {1, 3, 2})).input("update", Tensor(DataType::kFloat, {1, 2, 2}));
  t.input("write_indices", Tensor::fromVector<int64_t>({1}, {INT64_MAX}));
  t.output("present_cache");
  t.expectError("node 'TensorScatter_under_test' (TensorScatter): input 2 ('write_indices'): write index of batch 0 "
                "is 9223372036854775807, out of range [0, 1] for 2 updates into max_sequence_length 3 in linear mode");
}
