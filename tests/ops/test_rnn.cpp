// RNN / GRU / LSTM against onnxruntime 1.x CPU (the onnx.reference RNN ops
// mishandle num_directions and sequence_lens). Layout-1 cases ran onnxruntime
// on the layout-0 model and transposed X / initial states in and Y / states
// out. Reference values produced by this Python (inputs from
// np.random.default_rng(0), scaled by 0.5, drawn in test order):
/*
import numpy as np, onnx, sys
from onnx import helper as oh, TensorProto
import onnxruntime as ort
from onnx.reference import ReferenceEvaluator
def run(op, opset, inputs, attrs, nout, engine='ort'):
    names = [n if v is not None else '' for n, v in inputs]
    ins = [oh.make_tensor_value_info(n, TensorProto.FLOAT, v.shape) if n!='sequence_lens' else oh.make_tensor_value_info(n, TensorProto.INT32, v.shape) for n, v in inputs if v is not None]
    outs = ['Y', 'Y_h', 'Y_c'][:nout]
    node = oh.make_node(op, names, outs, **attrs)
    g = oh.make_graph([node], 'g', ins, [oh.make_tensor_value_info(o, TensorProto.FLOAT, None) for o in outs])
    m = oh.make_model(g, opset_imports=[oh.make_opsetid('', opset)])
    feeds = {n: v for n, v in inputs if v is not None}
    if engine == 'ort':
        return ort.InferenceSession(m.SerializeToString(), providers=['CPUExecutionProvider']).run(None, feeds)
    return ReferenceEvaluator(m).run(None, feeds)
def lit(a):
    return '{' + ', '.join('%.7gf' % x if a.dtype==np.float32 else str(x) for x in a.flatten()) + '}'
def show(name, a):
    print('  // %s shape %s' % (name, list(a.shape)))
    print('  %s = %s;' % (name, lit(a)))
rng = np.random.default_rng(0)
def r(*s): return (rng.standard_normal(s) * 0.5).astype(np.float32)
case = sys.argv[1]
def cxx(name, a, dt='float'):
    if dt=='int': return 'Tensor::fromVector<int32_t>(%s, {%s})' % ('{'+', '.join(map(str,a.shape))+'}', ', '.join(map(str,a.flatten())))
    fmt = lambda x: (lambda t: t if ('.' in t or 'e' in t) else t + '.0')('%.8g' % x)
    vals = ', '.join(fmt(x) + ('f' if dt=='float' else '') for x in a.flatten())
    return 'Tensor::fromVector<%s>({%s}, {%s})' % (dt, ', '.join(map(str,a.shape)), vals)
def emit(test, op, opset, inputs, attrs, nout, outmask=None, layout1=False, dt='float'):
    res = run(op, opset, inputs, dict(attrs, hidden_size=3), nout)
    inps = dict(inputs)
    if layout1:
        # same numbers, batch-major: ORT runs layout 0, we transpose X/states in and Y/states out
        pass
    print('TEST(RnnOps, %s) {' % test)
    print('  OpTester t("%s", %d);' % (op, opset))
    A = dict(attrs)
    if layout1: A['layout'] = 1
    for k, v in A.items():
        if isinstance(v, str): print('  t.attr("%s", "%s");' % (k, v))
        elif isinstance(v, int): print('  t.attr("%s", int64_t{%d});' % (k, v))
        elif isinstance(v, float): print('  t.attr("%s", %sf);' % (k, repr(v)))
        elif isinstance(v[0], str): print('  t.attr("%s", std::vector<std::string>{%s});' % (k, ', '.join('"%s"'%s for s in v)))
        else: print('  t.attr("%s", std::vector<float>{%s});' % (k, ', '.join('%sf'%repr(x) for x in v)))
    last = max(i for i,(n,v) in enumerate(inputs) if v is not None)
    for i,(n,v) in enumerate(inputs[:last+1]):
        if v is None: print('  t.absentInput();'); continue
        if layout1 and n == 'X': v = v.transpose(1,0,2)
        if layout1 and n in ('initial_h','initial_c'): v = v.transpose(1,0,2)
        print('  t.input("%s", %s);' % (n, cxx(n, v, 'int' if n=='sequence_lens' else dt)))
    names = ['Y','Y_h','Y_c']
    for i in range(nout):
        o = res[i]
        if layout1: o = o.transpose(2,0,1,3) if i==0 else o.transpose(1,0,2)
        if outmask and not outmask[i]: print('  t.absentOutput();'); continue
        print('  t.expect("%s", %s);' % (names[i], cxx(names[i], o, dt)))
    print('  t.run();\n}\n')
H=3
X=r(3,2,2); W=r(1,3,2); R=r(1,3,3)
emit('RnnForwardOpset7', 'RNN', 7, [('X',X),('W',W),('R',R)], {'hidden_size':3}, 2)
X=r(3,2,2); W=r(2,3,2); R=r(2,3,3); B=r(2,6); h0=r(2,2,3); sl=np.array([3,2],np.int32)
emit('RnnBidirectionalSeqLensOpset14', 'RNN', 14, [('X',X),('W',W),('R',R),('B',B),('sequence_lens',sl),('initial_h',h0)],
     {'direction':'bidirectional','activations':['Relu','LeakyRelu'],'activation_alpha':[0.1]}, 2)
X=r(3,2,2); W=r(1,3,2); R=r(1,3,3); B=r(1,6); h0=r(1,2,3)
emit('RnnReverseLayout1AffineOpset22', 'RNN', 22, [('X',X),('W',W),('R',R),('B',B),('sequence_lens',None),('initial_h',h0)],
     {'direction':'reverse','activations':['Affine'],'activation_alpha':[0.5],'activation_beta':[0.1]}, 2, layout1=True)
X=r(3,2,2); W=r(1,9,2); R=r(1,9,3); B=r(1,18); h0=r(1,2,3)
emit('GruForwardOpset7', 'GRU', 7, [('X',X),('W',W),('R',R),('B',B),('sequence_lens',None),('initial_h',h0)], {'hidden_size':3}, 2)
X=r(3,2,2); W=r(1,9,2); R=r(1,9,3); B=r(1,18); sl=np.array([2,3],np.int32)
emit('GruLinearBeforeResetReverseClipOpset14', 'GRU', 14, [('X',X),('W',W),('R',R),('B',B),('sequence_lens',sl)],
     {'direction':'reverse','linear_before_reset':1,'clip':0.4}, 2)
X=r(3,2,2); W=r(2,9,2); R=r(2,9,3); B=r(2,18)
emit('GruBidirectionalActivationsOpset22', 'GRU', 22, [('X',X),('W',W),('R',R),('B',B)],
     {'direction':'bidirectional','activations':['HardSigmoid','ScaledTanh','Sigmoid','Softsign'],'activation_alpha':[0.3,0.8],'activation_beta':[0.4,1.2]}, 2, outmask=[False,True])
X=r(3,2,2); W=r(1,12,2); R=r(1,12,3); B=r(1,24); h0=r(1,2,3); c0=r(1,2,3); P=r(1,9)
emit('LstmPeepholeOpset7', 'LSTM', 7, [('X',X),('W',W),('R',R),('B',B),('sequence_lens',None),('initial_h',h0),('initial_c',c0),('P',P)], {'hidden_size':3}, 3)
X=r(3,2,2); W=r(2,12,2); R=r(2,12,3); B=r(2,24); sl=np.array([1,3],np.int32)
emit('LstmBidirectionalSeqLensClipOpset14', 'LSTM', 14, [('X',X),('W',W),('R',R),('B',B),('sequence_lens',sl)],
     {'direction':'bidirectional','clip':0.5}, 3)
X=r(3,2,2); W=r(1,12,2); R=r(1,12,3); B=r(1,24); h0=r(1,2,3); c0=r(1,2,3)
emit('LstmReverseLayout1InputForgetOpset22', 'LSTM', 22, [('X',X),('W',W),('R',R),('B',B),('sequence_lens',None),('initial_h',h0),('initial_c',c0)],
     {'direction':'reverse','input_forget':1}, 3, layout1=True)
X=r(3,2,2); W=r(1,12,2); R=r(1,12,3)
emit('LstmActivationsOpset14', 'LSTM', 14, [('X',X),('W',W),('R',R)],
     {'hidden_size':3,'activations':['Softplus','Elu','ThresholdedRelu'],'activation_alpha':[0.7,0.1]}, 3)
X=r(3,2,2); W=r(1,9,2); R=r(1,9,3)
emit('GruDoubleOpset14', 'GRU', 14, [('X',X),('W',W),('R',R)], {'hidden_size':3}, 2, dt='double')
*/
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "op_tester.h"

namespace oinfer::testing {
namespace {

TEST(RnnOps, RnnForwardOpset7) {
  OpTester t("RNN", 7);
  t.attr("hidden_size", int64_t{3});
  t.input("X", Tensor::fromVector<float>({3, 2, 2}, {0.062865108f, -0.066052429f, 0.32021132f, 0.052450057f, -0.26783469f, 0.18079753f, 0.65200001f, 0.47354048f, -0.35186762f, -0.63271075f, -0.31163722f, 0.020662989f}));
  t.input("W", Tensor::fromVector<float>({1, 3, 2}, {-1.1625154f, -0.10939583f, -0.6229555f, -0.36613369f, -0.27212951f, -0.15815008f}));
  t.input("R", Tensor::fromVector<float>({1, 3, 3}, {0.20581527f, 0.52125669f, -0.06426733f, 0.68323171f, -0.33259735f, 0.17575504f, 0.45173508f, 0.047006149f, -0.37174964f}));
  t.expect("Y", Tensor::fromVector<float>({3, 1, 2, 3}, {-0.065760791f, -0.014977038f, -0.0066611171f, -0.36095923f, -0.21526062f, -0.095145226f, 0.26424825f, 0.05946362f, 0.016356945f, -0.75742447f, -0.64768016f, -0.37146819f, 0.50990272f, 0.54728329f, 0.30216599f, -0.10916448f, -0.1788519f, -0.1517871f}));
  t.expect("Y_h", Tensor::fromVector<float>({1, 2, 3}, {0.50990272f, 0.54728329f, 0.30216599f, -0.10916448f, -0.1788519f, -0.1517871f}));
  t.run();
}

TEST(RnnOps, RnnBidirectionalSeqLensOpset14) {
  OpTester t("RNN", 14);
  t.attr("direction", "bidirectional");
  t.attr("activations", std::vector<std::string>{"Relu", "LeakyRelu"});
  t.attr("activation_alpha", std::vector<float>{0.1f});
  t.input("X", Tensor::fromVector<float>({3, 2, 2}, {-0.4608627f, -0.22886291f, 0.11009756f, -0.50480908f, -0.10458779f, -0.079612508f, 0.27042279f, 0.10732956f, 0.17768635f, -0.32691431f, -0.064806819f, 0.39198774f}));
  t.input("W", Tensor::fromVector<float>({2, 3, 2}, {0.74671555f, -0.62953275f, 0.75696188f, 0.67293769f, 0.3906557f, 0.13222781f, -0.15696141f, 0.72901034f, 0.98012918f, 0.90081745f, 0.65755188f, 0.17869021f}));
  t.input("R", Tensor::fromVector<float>({2, 3, 3}, {-0.6041593f, -0.0022270666f, 0.32823747f, -0.64418072f, 0.19756103f, 0.21493185f, 0.34802136f, -0.59205896f, -0.33085129f, -0.21821763f, -0.58490098f, 0.86968392f, -0.24795537f, 0.16448481f, -0.12928627f, 0.79173642f, 0.66018051f, 0.31667632f}));
  t.input("B", Tensor::fromVector<float>({2, 6}, {-1.1017549f, 0.026014486f, 0.3418431f, 0.50198078f, -0.30895352f, 0.91100568f, -0.6602155f, -0.33076403f, 0.46752501f, 0.024527308f, 1.0011963f, 0.094259597f}));
  t.input("sequence_lens", Tensor::fromVector<int32_t>({2}, {3, 2}));
  t.input("initial_h", Tensor::fromVector<float>({2, 2, 3}, {-0.31659704f, -0.18878175f, -0.54557306f, -0.63884008f, 0.31520575f, 0.2905829f, 0.64727938f, -0.37730289f, 0.84455371f, -0.14369385f, 0.78720415f, -0.21639292f}));
  t.expect("Y", Tensor::fromVector<float>({3, 2, 2, 3}, {0.0f, 0.0f, 1.2246389f, 0.28087065f, 0.0f, 0.72401905f, -0.014615185f, -0.0099872192f, 0.939551f, -0.075773992f, 0.41359589f, 1.6036327f, 0.0f, 0.0f, 0.79629058f, 0.0f, 0.0f, 1.2308893f, 0.19793898f, 0.38548905f, 0.98048133f, -0.12171631f, 1.2252553f, 1.0961831f, 8.2731247e-05f, 0.0f, 1.0155821f, 0.0f, 0.0f, 0.0f, -0.0087970141f, 0.21835151f, 1.1510431f, 0.0f, 0.0f, 0.0f}));
  t.expect("Y_h", Tensor::fromVector<float>({2, 2, 3}, {8.2731247e-05f, 0.0f, 1.0155821f, 0.0f, 0.0f, 1.2308893f, -0.014615185f, -0.0099872192f, 0.939551f, -0.075773992f, 0.41359589f, 1.6036327f}));
  t.run();
}

TEST(RnnOps, RnnReverseLayout1AffineOpset22) {
  OpTester t("RNN", 22);
  t.attr("direction", "reverse");
  t.attr("activations", std::vector<std::string>{"Affine"});
  t.attr("activation_alpha", std::vector<float>{0.5f});
  t.attr("activation_beta", std::vector<float>{0.1f});
  t.attr("layout", int64_t{1});
  t.input("X", Tensor::fromVector<float>({2, 3, 2}, {-0.36774164f, 0.12489269f, -0.29276443f, -0.67060983f, 0.49485651f, -0.082147293f, 0.51572657f, 0.08050479f, -0.70076013f, 0.25134143f, -0.53718245f, 0.43652108f}));
  t.input("W", Tensor::fromVector<float>({1, 3, 2}, {-0.64019698f, -0.35653403f, 0.31050894f, -1.1250706f, 0.19318479f, -0.29082042f}));
  t.input("R", Tensor::fromVector<float>({1, 3, 3}, {0.05463985f, -0.037850764f, 0.10105719f, 0.34708598f, -0.37918487f, 0.710491f, 0.36304688f, 0.42186633f, 0.58243197f}));
  t.input("B", Tensor::fromVector<float>({1, 6}, {0.39379412f, 0.42203933f, 0.037796807f, -0.71338695f, -0.067522548f, -0.38475731f}));
  t.absentInput();
  t.input("initial_h", Tensor::fromVector<float>({2, 1, 3}, {-0.71137089f, 0.1292264f, -0.28427473f, -0.51490223f, -0.52150053f, 0.13420855f}));
  t.expect("Y", Tensor::fromVector<float>({2, 3, 1, 3}, {0.026732355f, 0.058234707f, -0.025502943f, 0.13402432f, 0.46825707f, -0.073623978f, -0.23979935f, 0.15135673f, -0.19839355f, -0.24844286f, 0.25063211f, -0.11576309f, 0.10276663f, -0.093042396f, -0.27272099f, 0.036921442f, 0.0054917708f, -0.35322753f}));
  t.expect("Y_h", Tensor::fromVector<float>({2, 1, 3}, {0.026732355f, 0.058234707f, -0.025502943f, -0.24844286f, 0.25063211f, -0.11576309f}));
  t.run();
}

TEST(RnnOps, GruForwardOpset7) {
  OpTester t("GRU", 7);
  t.attr("hidden_size", int64_t{3});
  t.input("X", Tensor::fromVector<float>({3, 2, 2}, {0.17933598f, 0.66122872f, -0.0069573345f, 0.52091986f, 0.70113242f, 0.57508284f, -1.182652f, 0.61434186f, 0.16981f, 0.21188568f, 0.18561371f, 0.19137858f}));
  t.input("W", Tensor::fromVector<float>({1, 9, 2}, {0.15970711f, -0.17945665f, -0.95081764f, -0.054457363f, -0.40186593f, 0.54008168f, -0.14438325f, 0.041737679f, -0.42480299f, -0.25531122f, -0.005766531f, -0.74268758f, 0.15034255f, -0.053036127f, -0.59285992f, -1.1991165f, 0.25652605f, -0.14879201f}));
  t.input("R", Tensor::fromVector<float>({1, 9, 3}, {-0.26500422f, -0.11807732f, 0.90823799f, -0.024900485f, 0.043309633f, -0.74353641f, 0.82366955f, 0.45874399f, 0.53346741f, 0.023836365f, 0.45832738f, 0.18547341f, 0.30659455f, -0.076096483f, -0.73694396f, 0.51442719f, -0.96747983f, -0.11996833f, -0.10226125f, -0.52143008f, 0.30656156f, -0.10016485f, -0.21843417f, 0.25992087f, -0.23828952f, 0.69449002f, 0.17572753f}));
  t.input("B", Tensor::fromVector<float>({1, 18}, {-0.23716649f, -0.9721325f, -0.6538766f, 0.54341537f, -0.025302032f, -0.14156254f, 0.82162583f, -0.64132464f, -0.29282889f, -0.23629384f, 0.29316863f, -0.33176759f, -0.30670893f, -0.80257469f, 0.36467469f, 0.40306967f, -0.23818837f, 0.081669971f}));
  t.absentInput();
  t.input("initial_h", Tensor::fromVector<float>({1, 2, 3}, {-0.64632308f, -0.23590657f, 0.68897545f, 0.067865364f, 1.1551818f, -0.39359638f}));
  t.expect("Y", Tensor::fromVector<float>({3, 1, 2, 3}, {0.015437633f, -0.79255664f, 0.077772595f, 0.57550108f, -0.068912804f, -0.19828483f, 0.51674521f, -0.92794967f, -0.15997241f, 0.70308131f, -0.31887907f, -0.39342901f, 0.75176072f, -0.86690551f, -0.38408166f, 0.79561365f, -0.66953146f, -0.39100012f}));
  t.expect("Y_h", Tensor::fromVector<float>({1, 2, 3}, {0.75176072f, -0.86690551f, -0.38408166f, 0.79561365f, -0.66953146f, -0.39100012f}));
  t.run();
}

TEST(RnnOps, GruLinearBeforeResetReverseClipOpset14) {
  OpTester t("GRU", 14);
  t.attr("direction", "reverse");
  t.attr("linear_before_reset", int64_t{1});
  t.attr("clip", 0.4f);
  t.input("X", Tensor::fromVector<float>({3, 2, 2}, {0.29014221f, -0.097752914f, 0.28290892f, -0.0036056798f, -0.28059906f, -0.43380839f, 1.5330184f, -0.038672529f, -1.0083303f, -0.32430029f, 0.33901986f, -0.2500042f}));
  t.input("W", Tensor::fromVector<float>({1, 9, 2}, {0.68022311f, 0.50119913f, -0.076169319f, -0.23610798f, -0.50240052f, -0.34998327f, -0.73657155f, 0.60219812f, 0.79535037f, -0.62806904f, -0.59084147f, -0.88425595f, -0.48192713f, -1.5531684f, -0.57113945f, 0.64845771f, -0.17283626f, 0.42729211f}));
  t.input("R", Tensor::fromVector<float>({1, 9, 3}, {-0.24448453f, 0.88033366f, 0.099608995f, -0.19100115f, 1.276212f, -0.16223593f, -0.61061168f, 0.100955f, -0.019417519f, 0.5331623f, -0.46081695f, 0.40235847f, 0.42637423f, -0.33384365f, 0.081622005f, -0.41537598f, 1.172904f, -0.3520698f, -0.22653723f, -0.53291899f, -0.17306064f, -0.0029380133f, 0.38389456f, -0.30524331f, -0.092886977f, -0.70824468f, -0.41370112f}));
  t.input("B", Tensor::fromVector<float>({1, 18}, {1.3779038f, 0.5206216f, -0.39071202f, -0.66869861f, -0.48779142f, -0.01084543f, 0.017363895f, -0.37218031f, -0.64328724f, 0.71118927f, 0.22584273f, -0.18728401f, -0.1103306f, -0.26476523f, -1.4680227f, 0.057830915f, -0.53527218f, -0.50134218f}));
  t.input("sequence_lens", Tensor::fromVector<int32_t>({2}, {2, 3}));
  t.expect("Y", Tensor::fromVector<float>({3, 1, 2, 3}, {0.12586711f, -0.24376507f, -0.31450838f, -0.057062197f, -0.29841739f, -0.35539213f, 0.15247823f, -0.15247823f, -0.21688245f, -0.090149462f, -0.24376507f, -0.31875759f, 0.0f, 0.0f, 0.0f, 0.10410899f, -0.15247823f, -0.22747077f}));
  t.expect("Y_h", Tensor::fromVector<float>({1, 2, 3}, {0.12586711f, -0.24376507f, -0.31450838f, -0.057062197f, -0.29841739f, -0.35539213f}));
  t.run();
}

TEST(RnnOps, GruBidirectionalActivationsOpset22) {
  OpTester t("GRU", 22);
  t.attr("direction", "bidirectional");
  t.attr("activations", std::vector<std::string>{"HardSigmoid", "ScaledTanh", "Sigmoid", "Softsign"});
  t.attr("activation_alpha", std::vector<float>{0.3f, 0.8f});
  t.attr("activation_beta", std::vector<float>{0.4f, 1.2f});
  t.input("X", Tensor::fromVector<float>({3, 2, 2}, {-0.32013121f, 0.36615086f, -0.5852654f, -0.71714073f, 0.31992602f, 0.37718445f, -0.47946686f, 0.28119883f, -0.14581622f, 0.15064609f, -0.63048011f, 0.41644722f}));
  t.input("W", Tensor::fromVector<float>({2, 9, 2}, {0.6016295f, 0.31853661f, 0.27916998f, -1.8861376f, 0.13031487f, -0.012722658f, -0.073522754f, -0.31528899f, 0.027682487f, 0.2060587f, -0.13189408f, -0.23166206f, 0.61487693f, -0.55268353f, 0.51507759f, 0.088406235f, -0.40215284f, -0.14499095f, -0.45999679f, 0.33753225f, 0.17395088f, -0.2783981f, -0.55110914f, 0.15085804f, 0.4786928f, -0.056918174f, 0.20917626f, -0.18801357f, 0.033784602f, -0.14564146f, 0.14702107f, -0.75488627f, 0.32209527f, -0.11496624f, 0.17930403f, -0.17015506f}));
  t.input("R", Tensor::fromVector<float>({2, 9, 3}, {0.1601806f, -0.53628141f, 0.59457719f, -0.85177231f, -0.51961941f, 0.11783303f, 0.73142111f, 0.13906315f, -0.12395423f, -0.7125451f, -0.095638335f, -0.0099385055f, 0.84528434f, 0.3110626f, -0.76454645f, 1.0133896f, -0.19750494f, -0.43972987f, 0.73741132f, -0.02487788f, -0.18370131f, 0.10939299f, 0.4224444f, 0.4966681f, -0.68760121f, 0.99924076f, 0.47343078f, -0.18960053f, -0.40932992f, -0.48450622f, 0.06168922f, -0.32400814f, -0.38243699f, 0.40562719f, 0.18228367f, -0.19728562f, 0.36712381f, 0.6836893f, -0.54724818f, -0.30164593f, 0.47131091f, 0.35947028f, 0.11334943f, 0.58121061f, -0.54410589f, -0.73956889f, -0.43325368f, 0.061272047f, -0.39804339f, -0.24360907f, -0.48750007f, -0.31021458f, -0.5023936f, 0.18373311f}));
  t.input("B", Tensor::fromVector<float>({2, 18}, {0.39744553f, -0.24022298f, -0.1036329f, -0.29051629f, 0.2656256f, 0.044528019f, 0.79707843f, -0.54773599f, 0.18125124f, 0.2219957f, -0.18022008f, 0.29176706f, -0.71926135f, 1.0594015f, -0.67102224f, 0.45990363f, -0.56056136f, 0.57544154f, -0.19238701f, 0.079211451f, 0.026671877f, 0.55036706f, -0.16077372f, -1.4835919f, -0.38002938f, 0.091856159f, -0.2202341f, 0.38491043f, 0.50766349f, -0.073885903f, -0.74482268f, 0.69208258f, 0.54152673f, -0.14959557f, 1.0541443f, -0.17443773f}));
  t.absentOutput();
  t.expect("Y_h", Tensor::fromVector<float>({2, 2, 3}, {0.42591006f, -0.73089844f, 0.23560955f, 0.4906624f, -0.76233816f, 0.44230375f, -0.35214925f, 0.40085196f, -0.29779983f, -0.18558942f, 0.38417774f, -0.27671432f}));
  t.run();
}

TEST(RnnOps, LstmPeepholeOpset7) {
  OpTester t("LSTM", 7);
  t.attr("hidden_size", int64_t{3});
  t.input("X", Tensor::fromVector<float>({3, 2, 2}, {-0.56855989f, -0.077936716f, 0.53891689f, -0.46872672f, 0.97561252f, -0.44826311f, 0.47721115f, 0.27223119f, -0.077028528f, 0.54026651f, -0.74989939f, 0.67878592f}));
  t.input("W", Tensor::fromVector<float>({1, 12, 2}, {-0.031842016f, -0.27121761f, 0.37458703f, 0.52994949f, 0.38489771f, 0.99975193f, 0.54036301f, 0.64175332f, -0.26993197f, 0.053261887f, 0.28149128f, -0.0088711185f, 0.15081762f, 0.21305238f, 0.42212197f, -0.050804444f, -0.17489961f, -0.41415784f, -0.44586617f, 0.58622563f, -0.042260744f, 0.39347219f, -0.64868194f, -0.96908402f}));
  t.input("R", Tensor::fromVector<float>({1, 12, 3}, {-0.52454561f, 0.57331347f, 0.53403872f, 0.16601931f, -0.40108508f, -0.065401323f, -0.14888024f, -0.17248668f, -1.2530349f, -0.42896318f, -0.09505444f, 0.75821388f, 0.080371529f, 0.70044416f, -0.19685346f, -0.12634429f, -1.9497108f, 0.23166516f, 0.27354783f, 0.88187951f, -0.24338061f, 0.047077078f, -0.35276398f, -0.58812851f, -0.35655397f, -0.17249927f, 0.677719f, 0.0011058013f, -0.3952724f, 0.070938915f, 0.10878568f, -0.33811602f, 0.57161683f, -0.94417447f, -0.10677231f, 0.33253303f}));
  t.input("B", Tensor::fromVector<float>({1, 24}, {-0.66921628f, 0.18062687f, 0.64644653f, 0.22683564f, -0.84507996f, -0.36409751f, 0.61615169f, 0.14916763f, -0.0049294694f, 0.22060029f, 0.36052448f, -0.35423261f, -0.14520004f, 0.071456827f, -0.27197886f, -0.066725776f, 0.64893585f, -0.48390993f, 0.96333134f, 0.93967217f, -0.85671973f, -0.070511334f, 0.17134579f, -0.38043556f}));
  t.absentInput();
  t.input("initial_h", Tensor::fromVector<float>({1, 2, 3}, {-0.37054026f, -0.11870785f, 0.36958903f, -0.25566691f, 0.91334689f, 0.144987f}));
  t.input("initial_c", Tensor::fromVector<float>({1, 2, 3}, {-0.051287644f, 0.72462982f, 0.3131406f, 0.18464339f, -0.16557018f, 0.90699279f}));
  t.input("P", Tensor::fromVector<float>({1, 9}, {0.40591079f, -0.10170567f, -0.78859955f, 0.18647577f, -0.57187003f, -0.85797298f, -0.13957575f, 0.14073555f, 0.6412406f}));
  t.expect("Y", Tensor::fromVector<float>({3, 1, 2, 3}, {0.065950096f, 0.22072974f, 0.064867429f, -0.087493822f, -0.048534807f, 0.019016089f, -0.061568316f, 0.20688699f, -0.097816721f, -0.064250357f, 0.10657695f, -0.18628055f, 0.01339167f, 0.27214444f, -0.20462178f, 0.049820177f, 0.22700273f, -0.18720329f}));
  t.expect("Y_h", Tensor::fromVector<float>({1, 2, 3}, {0.01339167f, 0.27214444f, -0.20462178f, 0.049820177f, 0.22700273f, -0.18720329f}));
  t.expect("Y_c", Tensor::fromVector<float>({1, 2, 3}, {0.022354595f, 0.92485845f, -0.70927131f, 0.095892839f, 0.54076773f, -0.66186559f}));
  t.run();
}

TEST(RnnOps, LstmBidirectionalSeqLensClipOpset14) {
  OpTester t("LSTM", 14);
  t.attr("direction", "bidirectional");
  t.attr("clip", 0.5f);
  t.input("X", Tensor::fromVector<float>({3, 2, 2}, {0.14122592f, 0.40300977f, -0.61294132f, -0.011266089f, 0.062105659f, 0.43112308f, 0.058030337f, 0.40203947f, -0.25209963f, 0.17897746f, 0.20743319f, -0.62488788f}));
  t.input("W", Tensor::fromVector<float>({2, 12, 2}, {0.087769315f, -0.16018127f, -0.95204395f, 0.47920334f, -0.18092933f, -0.42619503f, -0.18865837f, 0.069100149f, 0.75395477f, -0.082966603f, 0.23620375f, 0.68678969f, 0.26677528f, 0.53428209f, -0.23825493f, 0.38552466f, -0.028988f, 0.53720564f, -0.50177979f, -0.38977888f, 0.6343658f, -0.098041989f, -0.17948033f, 0.03878621f, -0.34474874f, 0.66597068f, -0.62458134f, -0.075299002f, 0.1734764f, -0.052223533f, -0.40114376f, -0.43419459f, 0.21269721f, -0.51524025f, 0.32312134f, -0.76207417f, -0.27749154f, 0.018153012f, -0.62607598f, 0.32600543f, -0.009269407f, -0.51803684f, -0.75944412f, -0.78279471f, 0.025516972f, -0.57841504f, -0.6824398f, -0.11561297f}));
  t.input("R", Tensor::fromVector<float>({2, 12, 3}, {1.1387503f, 0.13877018f, 0.38145941f, 0.10635918f, 0.39149109f, -0.67154431f, -0.21525599f, 0.13067542f, -0.0089584077f, -0.095996611f, -0.33293805f, -0.12919155f, -0.38709891f, -1.2109165f, -0.59725422f, 0.23782647f, 0.778539f, 0.90679008f, 0.048375871f, 0.44669181f, 0.45398897f, -0.3461296f, -0.84896994f, 0.015443659f, -0.88110048f, -0.1599648f, 0.30405855f, -0.71003473f, 0.016147692f, 0.62000906f, 0.18075624f, 0.26116085f, 0.45337021f, 0.86648154f, 0.075711541f, 0.61475044f, -0.032084607f, -0.2730844f, 0.15741049f, -0.30290642f, -0.28656462f, -0.30387032f, -1.1477121f, 0.052749738f, -0.63191766f, -0.053634562f, 0.72498441f, -0.26050016f, -0.27100459f, 0.68195468f, 0.27315289f, 0.48826355f, -0.17764562f, 0.37404162f, -0.34308431f, -0.33800086f, 0.29812214f, -0.29918659f, 0.38355926f, 1.1958423f, -0.84307629f, -0.37610218f, 0.56007308f, -0.072539084f, 0.58054495f, -0.50503212f, 0.16567209f, -0.075278156f, 0.070185363f, 0.16555801f, -0.61000317f, -0.53706872f}));
  t.input("B", Tensor::fromVector<float>({2, 24}, {0.69962198f, 0.14660686f, 0.053173166f, -0.022037361f, 0.17827125f, -0.57796836f, -0.49951366f, 0.6522541f, 0.075637609f, 0.42515042f, -0.30283201f, 0.68836272f, 0.17263921f, 0.24062291f, 0.27436468f, -0.39850461f, -0.93286043f, -0.53740132f, 0.81526142f, 0.65034199f, -0.17346068f, -0.15083817f, 0.51830292f, -0.084204935f, -0.64962995f, 0.63277155f, 0.23858929f, -1.2581699f, -0.15659505f, 0.071835101f, 0.24062341f, 0.076075591f, -0.31787089f, -0.057879522f, 0.14740016f, -0.13400204f, -0.18595035f, 0.62604195f, -0.47330385f, -0.17473173f, -1.0156345f, 0.27048498f, 0.41413224f, 0.27424341f, 0.45883626f, 0.22035336f, 0.17125769f, 0.23697354f}));
  t.input("sequence_lens", Tensor::fromVector<int32_t>({2}, {1, 3}));
  t.expect("Y", Tensor::fromVector<float>({3, 2, 2, 3}, {0.011436378f, 0.059231386f, 0.091075018f, 0.11875432f, -0.039934605f, 0.10353693f, -0.036169011f, 0.020875009f, -0.0092003429f, 0.077294685f, 0.12038711f, 0.093920372f, 0.0f, 0.0f, 0.0f, 0.08653301f, 0.035947047f, 0.13969268f, 0.0f, 0.0f, 0.0f, 0.020116936f, 0.086778998f, -0.0054716445f, 0.0f, 0.0f, 0.0f, 0.13512486f, 0.099019922f, 0.15498126f, 0.0f, 0.0f, 0.0f, 0.064564772f, 0.10569993f, 0.009602434f}));
  t.expect("Y_h", Tensor::fromVector<float>({2, 2, 3}, {0.011436378f, 0.059231386f, 0.091075018f, 0.13512486f, 0.099019922f, 0.15498126f, -0.036169011f, 0.020875009f, -0.0092003429f, 0.077294685f, 0.12038711f, 0.093920372f}));
  t.expect("Y_c", Tensor::fromVector<float>({2, 2, 3}, {0.028838573f, 0.15819398f, 0.24608217f, 0.37448457f, 0.26855114f, 0.43621498f, -0.096096344f, 0.055348527f, -0.017688131f, 0.20766671f, 0.33039078f, 0.17697111f}));
  t.run();
}

TEST(RnnOps, LstmReverseLayout1InputForgetOpset22) {
  OpTester t("LSTM", 22);
  t.attr("direction", "reverse");
  t.attr("input_forget", int64_t{1});
  t.attr("layout", int64_t{1});
  t.input("X", Tensor::fromVector<float>({2, 3, 2}, {-0.13365422f, 0.59416395f, 0.4248918f, 0.92535138f, -0.34272102f, -0.19029163f, -0.17428604f, -0.73117596f, -0.48007557f, -0.050815564f, 0.023046486f, -0.62090421f}));
  t.input("W", Tensor::fromVector<float>({1, 12, 2}, {-0.13882683f, -0.73298371f, -0.28411382f, -0.5930348f, -0.52953035f, -0.85995531f, 0.60967731f, 0.25452954f, -0.95873201f, -0.29841378f, -0.33521929f, -0.34547207f, -0.72344178f, 0.37719285f, -0.19793189f, 0.23407446f, 0.26337788f, 0.68772268f, -0.90743613f, 0.86930108f, 0.63440764f, 0.286533f, 1.1917961f, 0.1024893f}));
  t.input("R", Tensor::fromVector<float>({1, 12, 3}, {0.41073945f, -0.36920699f, 0.56717873f, 0.083912984f, -0.22560008f, 1.0584697f, -0.15239984f, 0.0044306638f, -0.09863998f, -0.37783545f, 0.26563621f, 0.36920479f, 0.17718627f, -1.1802891f, 0.50399852f, -0.17511918f, -0.60816169f, 0.30164048f, 0.2814247f, -0.52153683f, 1.2362179f, -0.60481328f, -0.86650133f, -0.57708573f, 0.71039993f, -0.087928362f, -0.18602835f, -0.03107886f, -0.29830694f, -0.3451317f, -0.32060775f, 0.35397777f, 0.51022792f, -0.52754629f, 0.11961398f, 0.39410362f}));
  t.input("B", Tensor::fromVector<float>({1, 24}, {-0.54087597f, -0.25128329f, -0.51903206f, -0.64551425f, 0.050931435f, -0.36806619f, 0.31556454f, -0.014710961f, 0.20631368f, -0.14614145f, -0.31749868f, -0.045336567f, -0.0024980651f, -0.35292774f, 0.21329772f, 0.37329742f, 0.079041354f, 0.85674542f, -0.3161695f, 0.26029822f, -0.2043674f, 0.11731475f, -0.41497466f, 0.5575617f}));
  t.absentInput();
  t.input("initial_h", Tensor::fromVector<float>({2, 1, 3}, {0.088010453f, 0.59612226f, -0.63304776f, -0.24675761f, -0.44628289f, -0.26597095f}));
  t.input("initial_c", Tensor::fromVector<float>({2, 1, 3}, {-0.34630483f, -0.060270466f, -0.0086235721f, -0.020492433f, -0.27776194f, 0.093712591f}));
  t.expect("Y", Tensor::fromVector<float>({2, 3, 1, 3}, {0.048017532f, -0.17693383f, 0.124213f, -0.03929342f, -0.087612726f, 0.057403378f, -0.068813123f, -0.088071868f, -0.040352341f, -0.065562218f, -0.45800492f, 0.13386135f, 0.024432294f, -0.40599358f, 0.10317098f, -0.06097728f, -0.29421219f, 0.19537801f}));
  t.expect("Y_h", Tensor::fromVector<float>({2, 1, 3}, {0.048017532f, -0.17693383f, 0.124213f, -0.065562218f, -0.45800492f, 0.13386135f}));
  t.expect("Y_c", Tensor::fromVector<float>({2, 1, 3}, {0.10646595f, -0.33265263f, 0.21003783f, -0.19269419f, -0.72201145f, 0.1815885f}));
  t.run();
}

TEST(RnnOps, LstmActivationsOpset14) {
  OpTester t("LSTM", 14);
  t.attr("hidden_size", int64_t{3});
  t.attr("activations", std::vector<std::string>{"Softplus", "Elu", "ThresholdedRelu"});
  t.attr("activation_alpha", std::vector<float>{0.7f, 0.1f});
  t.input("X", Tensor::fromVector<float>({3, 2, 2}, {0.43780774f, -0.45113778f, 0.00044431249f, -0.037035443f, 0.23417732f, -0.031929292f, -0.0078324014f, -0.49554789f, 0.01085192f, -0.46094224f, 0.25785214f, -0.051609468f}));
  t.input("W", Tensor::fromVector<float>({1, 12, 2}, {0.01992921f, -0.44559518f, 0.4018788f, 0.34615695f, 0.43076196f, 1.113693f, -0.026259691f, 0.60170144f, -0.061913904f, 0.19704364f, 0.18266872f, 0.13229588f, 0.32912809f, -0.1519682f, 0.020466141f, 0.26765484f, 0.87392694f, -0.42117834f, -0.90306634f, -0.24204275f, 0.044964217f, 0.087488547f, 0.046108894f, 0.59139508f}));
  t.input("R", Tensor::fromVector<float>({1, 12, 3}, {0.48802489f, -0.024633953f, -0.23477356f, -0.17300443f, -0.17815207f, -0.11279973f, -0.78632528f, -0.23052037f, -0.21244001f, -0.094440192f, -0.12715f, 0.33600357f, -0.26597169f, -0.21928886f, 0.27096939f, -0.11765742f, 0.10822736f, 0.33466786f, 0.21098475f, 0.12508123f, -0.09822078f, 0.34094706f, 0.08777497f, -0.25242639f, -0.075404592f, -0.6090647f, -0.48077798f, -0.94145399f, -0.3399657f, 0.66777271f, -0.27824441f, 0.3937704f, -0.0017249271f, -0.35027441f, 0.66913974f, 0.29110292f}));
  t.expect("Y", Tensor::fromVector<float>({3, 1, 2, 3}, {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.059526511f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f}));
  t.expect("Y_h", Tensor::fromVector<float>({1, 2, 3}, {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f}));
  t.expect("Y_c", Tensor::fromVector<float>({1, 2, 3}, {-0.059868462f, -0.017528096f, -0.13604549f, -0.041971996f, -0.01827066f, -0.09192051f}));
  t.run();
}

TEST(RnnOps, GruDoubleOpset14) {
  OpTester t("GRU", 14);
  t.attr("hidden_size", int64_t{3});
  t.input("X", Tensor::fromVector<double>({3, 2, 2}, {-0.87590027, 0.52070111, -0.53739578, -0.088956974, 0.33405671, -0.14992657, 0.55947202, 0.38063189, -0.78843778, -0.23621708, 0.14103687, -0.28749934}));
  t.input("W", Tensor::fromVector<double>({1, 9, 2}, {-0.10813826, 0.39989245, 0.15839066, -0.46030951, 0.087303184, -0.30613482, -0.60759616, -0.56502795, 0.14347777, -0.014056853, 0.0027159043, -0.5731045, -0.091964774, -0.51858377, -0.4631969, -0.082563378, -0.69169521, 0.33463362}));
  t.input("R", Tensor::fromVector<double>({1, 9, 3}, {1.2434415, 0.22941163, -0.52145159, -0.13559276, -0.77771896, -0.18880819, 0.25365695, 0.2946924, -0.51587141, 0.14957282, 0.57820404, 0.87754577, -0.35039744, -0.4321, 0.027207935, -1.464045, -0.265517, -0.13548748, -0.22967099, -0.79193664, -0.12277555, -0.38830432, 0.37874153, -0.4592374, -0.14117256, -0.11647397, 0.2837857}));
  t.expect("Y", Tensor::fromVector<double>({3, 1, 2, 3}, {-0.07954663, 0.20630397, 0.36469707, 0.047094896, 0.12816824, 0.16622679, -0.060861446, 0.0081960484, 0.057431549, -0.11980559, -0.10779756, -0.050144143, 0.07412906, 0.19082458, 0.25586054, 0.059721097, -0.072606698, -0.11548882}));
  t.expect("Y_h", Tensor::fromVector<double>({1, 2, 3}, {0.07412906, 0.19082458, 0.25586054, 0.059721097, -0.072606698, -0.11548882}));
  t.run();
}

TEST(RnnOps, WrongDirectionCountIsAnError) {
  OpTester t("LSTM", 14);
  t.attr("hidden_size", int64_t{1});
  t.input("X", Tensor::fromVector<float>({1, 1, 1}, {1.f}));
  t.input("W", Tensor::fromVector<float>({2, 4, 1}, std::vector<float>(8, 0.1f)));
  t.input("R", Tensor::fromVector<float>({2, 4, 1}, std::vector<float>(8, 0.1f)));
  t.output("Y");
  t.expectError("input 1 ('W') has shape [2,4,1], expected dim 0 = 1 for direction 'forward'");
}

TEST(RnnOps, UnknownActivationIsAnError) {
  OpTester t("RNN", 14);
  t.attr("hidden_size", int64_t{1});
  t.attr("activations", std::vector<std::string>{"Swish"});
  t.input("X", Tensor::fromVector<float>({1, 1, 1}, {1.f}));
  t.input("W", Tensor::fromVector<float>({1, 1, 1}, {0.5f}));
  t.input("R", Tensor::fromVector<float>({1, 1, 1}, {0.5f}));
  t.output("Y");
  t.expectError("unsupported activation 'Swish'");
}

}  // namespace
}  // namespace oinfer::testing
