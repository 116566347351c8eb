// Tests of the elementwise family and the broadcasting iterator.
//
// Expected values come from onnxruntime 1.x (onnx.reference where a test's
// comment says engine='ref', numpy where it gives `expect=`) run on a
// one-node model built from the same inputs. A generated test's comment
// `ref(ARGS)` stands for `emit("Suite, Name", ARGS)` with these helpers:
//
//   import numpy as np, onnx, onnxruntime as ort, sys
//   from onnx import helper as h
//   from onnx.reference import ReferenceEvaluator
//   CT={np.float32:'float',np.float64:'double',np.int8:'int8_t',np.int16:'int16_t',np.int32:'int32_t',np.int64:'int64_t',
//       np.uint8:'uint8_t',np.uint16:'uint16_t',np.uint32:'uint32_t',np.uint64:'uint64_t',np.bool_:'bool',np.float16:'Float16',np.object_:'std::string'}
//   def ref(op, ins, attrs={}, opset=17, nout=1, engine='ort'):
//       """Runs one node on onnxruntime (or onnx.reference) and returns its outputs."""
//       names=[f"x{k}" if x is not None else "" for k,x in enumerate(ins)]
//       node=h.make_node(op, names, [f"y{k}" for k in range(nout)], **attrs)
//       vi=lambda n,x: h.make_tensor_value_info(n, h.np_dtype_to_tensor_dtype(x.dtype) if x.dtype!=object else onnx.TensorProto.STRING, x.shape)
//       g=h.make_graph([node],"g",[vi(n,x) for n,x in zip(names,ins) if x is not None],[h.make_tensor_value_info(f"y{k}",0,None) for k in range(nout)])
//       m=h.make_model(g, opset_imports=[h.make_opsetid("",opset)]); m.ir_version=10 if opset>=21 else 8
//       feed={n:x for n,x in zip(names,ins) if x is not None}
//       if engine=='ref': return ReferenceEvaluator(m).run(None, feed)
//       m=onnx.shape_inference.infer_shapes(m)
//       return ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feed)
//   def lit(a):
//       a=np.asarray(a); t=CT[np.dtype(a.dtype.name).type] if a.dtype!=object else 'std::string'
//       def f(v):
//           if a.dtype==np.bool_: return 'true' if v else 'false'
//           if a.dtype==object: return '"%s"'%v
//           if a.dtype.kind=='f':
//               if np.isnan(v): return 'kNaN'
//               if np.isinf(v): return '-kInf' if v<0 else 'kInf'
//               return repr(float(np.float32(v))) if a.dtype!=np.float64 else repr(float(v))
//           return str(int(v)) + ('ull' if a.dtype==np.uint64 else '')
//       shape='{'+','.join(map(str,a.shape))+'}'
//       vals=', '.join(f(v) for v in a.flatten())
//       if t in('Float16',): return f'half({shape}, {{{vals}}})'
//       return f'Tensor::fromVector<{t}>({shape}, {{{vals}}})'
//   def emit(test, op, ins, attrs={}, opset=17, engine='ort', inames=None, outs=None, consts=(), comment=None, expect=None):
//       r=[expect] if expect is not None else ref(op, ins, attrs, opset, 1 if outs is None else len(outs), engine)
//       lines=[f'// {comment}' if comment else None, f'TEST({test}) {{', f'  OpTester t("{op}", {opset});']
//       for k,v in attrs.items():
//           if isinstance(v,float): lines.append(f'  t.attr("{k}", {v!r}f);')
//           elif isinstance(v,str): lines.append(f'  t.attr("{k}", "{v}");')
//           else: lines.append(f'  t.attr("{k}", int64_t{{{v}}});')
//       for k,x in enumerate(ins):
//           if x is None: lines.append('  t.absentInput();'); continue
//           nm=inames[k] if inames else chr(65+k)
//           fn='constantInput' if k in consts else 'input'
//           lines.append(f'  t.{fn}("{nm}", {lit(x)});')
//       for k,y in enumerate(r):
//           lines.append(f'  t.expect("{outs[k] if outs else "Y"}", {lit(y)});')
//       lines.append('  t.run();'); lines.append('}')
//       print('\n'.join(l for l in lines if l is not None)); print()
//
//   f32=np.float32; i32=np.int32; i64=np.int64; u8=np.uint8
//   nan=np.nan; inf=np.inf
//   def A(v, dt=f32, shape=None):
//       a=np.array(v, dtype=dt); return a.reshape(shape) if shape is not None else a
//   R = np.arange
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <random>

#include "op_tester.h"
#include "test_elementwise_util.h"
#include "ops/cpu/broadcast.h"
#include "ops/registry.h"
#include "ir_util.h"

using namespace oinfer;
using oinfer::testing::OpTester;

using oinfer::testing::half;
using oinfer::testing::kInf;
using oinfer::testing::kNaN;

// ref(op='Add', ins=[A([[1.5,-2,3],[4,5,-6]]), A([[0.25,2,-3],[1,1,1]])], opset=14)
// Integer overflow wraps (two's complement; a fuzz finding: uint16 * uint16
// is computed in int and overflowed, undefined behaviour, as signed
// overflow in Add / Sub / Mul was). numpy gives the same values.
TEST(ElementwiseIntegerOverflow, Wraps) {
  OpTester mul("Mul", 14);
  mul.input("A", Tensor::fromVector<uint16_t>({2}, {65535, 300})).input("B", Tensor::fromVector<uint16_t>({2}, {65534, 300}));
  mul.expect("Y", Tensor::fromVector<uint16_t>({2}, {2, 24464}));  // (65535 * 65534) % 65536, 90000 % 65536
  mul.run();
  OpTester mul8("Mul", 14);
  mul8.input("A", Tensor::fromVector<int8_t>({1}, {100})).input("B", Tensor::fromVector<int8_t>({1}, {3}));
  mul8.expect("Y", Tensor::fromVector<int8_t>({1}, {44}));  // 300 - 256
  mul8.run();
  OpTester add("Add", 14);
  add.input("A", Tensor::fromVector<int32_t>({1}, {INT32_MAX})).input("B", Tensor::fromVector<int32_t>({1}, {1}));
  add.expect("Y", Tensor::fromVector<int32_t>({1}, {INT32_MIN}));
  add.run();
  OpTester sub("Sub", 14);
  sub.input("A", Tensor::fromVector<int64_t>({1}, {INT64_MIN})).input("B", Tensor::fromVector<int64_t>({1}, {1}));
  sub.expect("Y", Tensor::fromVector<int64_t>({1}, {INT64_MAX}));
  sub.run();
}

TEST(ElementwiseAdd, SameShape) {
  OpTester t("Add", 14);
  t.input("A", Tensor::fromVector<float>({2,3}, {1.5, -2.0, 3.0, 4.0, 5.0, -6.0}));
  t.input("B", Tensor::fromVector<float>({2,3}, {0.25, 2.0, -3.0, 1.0, 1.0, 1.0}));
  t.expect("Y", Tensor::fromVector<float>({2,3}, {1.75, 0.0, 0.0, 5.0, 6.0, -5.0}));
  t.run();
}

// ref(op='Add', ins=[A([[1,2,3],[4,5,6]]), A(0.5)], opset=14)
TEST(ElementwiseAdd, ScalarRhs) {
  OpTester t("Add", 14);
  t.input("A", Tensor::fromVector<float>({2,3}, {1.0, 2.0, 3.0, 4.0, 5.0, 6.0}));
  t.input("B", Tensor::fromVector<float>({}, {0.5}));
  t.expect("Y", Tensor::fromVector<float>({2,3}, {1.5, 2.5, 3.5, 4.5, 5.5, 6.5}));
  t.run();
}

// ref(op='Add', ins=[A([10.]), A([[1,2,3],[4,5,6]])], opset=13)
TEST(ElementwiseAdd, ScalarLhs) {
  OpTester t("Add", 13);
  t.input("A", Tensor::fromVector<float>({1}, {10.0}));
  t.input("B", Tensor::fromVector<float>({2,3}, {1.0, 2.0, 3.0, 4.0, 5.0, 6.0}));
  t.expect("Y", Tensor::fromVector<float>({2,3}, {11.0, 12.0, 13.0, 14.0, 15.0, 16.0}));
  t.run();
}

// ref(op='Add', ins=[A(R(24)*0.5, shape=(2,3,2,2)), A([1,-2,3], shape=(3,1,1))], opset=14)
TEST(ElementwiseAdd, BiasC11) {
  OpTester t("Add", 14);
  t.input("A", Tensor::fromVector<float>({2,3,2,2}, {0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 5.5, 6.0, 6.5, 7.0, 7.5, 8.0, 8.5, 9.0, 9.5, 10.0, 10.5, 11.0, 11.5}));
  t.input("B", Tensor::fromVector<float>({3,1,1}, {1.0, -2.0, 3.0}));
  t.expect("Y", Tensor::fromVector<float>({2,3,2,2}, {1.0, 1.5, 2.0, 2.5, 0.0, 0.5, 1.0, 1.5, 7.0, 7.5, 8.0, 8.5, 7.0, 7.5, 8.0, 8.5, 6.0, 6.5, 7.0, 7.5, 13.0, 13.5, 14.0, 14.5}));
  t.run();
}

// ref(op='Add', ins=[A(R(12), shape=(2,2,3)), A([100,200,300])], opset=7)
TEST(ElementwiseAdd, InnerVector) {
  OpTester t("Add", 7);
  t.input("A", Tensor::fromVector<float>({2,2,3}, {0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0}));
  t.input("B", Tensor::fromVector<float>({3}, {100.0, 200.0, 300.0}));
  t.expect("Y", Tensor::fromVector<float>({2,2,3}, {100.0, 201.0, 302.0, 103.0, 204.0, 305.0, 106.0, 207.0, 308.0, 109.0, 210.0, 311.0}));
  t.run();
}

// ref(op='Add', ins=[A([1,2,3], shape=(3,1)), A([10,20,30,40], shape=(1,4))], opset=14)
TEST(ElementwiseAdd, BothSided) {
  OpTester t("Add", 14);
  t.input("A", Tensor::fromVector<float>({3,1}, {1.0, 2.0, 3.0}));
  t.input("B", Tensor::fromVector<float>({1,4}, {10.0, 20.0, 30.0, 40.0}));
  t.expect("Y", Tensor::fromVector<float>({3,4}, {11.0, 21.0, 31.0, 41.0, 12.0, 22.0, 32.0, 42.0, 13.0, 23.0, 33.0, 43.0}));
  t.run();
}

// ref(op='Add', ins=[A(R(6), shape=(2,1,3,1)), A(R(8)*10, shape=(1,4,1,2))], opset=14)
TEST(ElementwiseAdd, BothSided4d) {
  OpTester t("Add", 14);
  t.input("A", Tensor::fromVector<float>({2,1,3,1}, {0.0, 1.0, 2.0, 3.0, 4.0, 5.0}));
  t.input("B", Tensor::fromVector<float>({1,4,1,2}, {0.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0}));
  t.expect("Y", Tensor::fromVector<float>({2,4,3,2}, {0.0, 10.0, 1.0, 11.0, 2.0, 12.0, 20.0, 30.0, 21.0, 31.0, 22.0, 32.0, 40.0, 50.0, 41.0, 51.0, 42.0, 52.0, 60.0, 70.0, 61.0, 71.0, 62.0, 72.0, 3.0, 13.0, 4.0, 14.0, 5.0, 15.0, 23.0, 33.0, 24.0, 34.0, 25.0, 35.0, 43.0, 53.0, 44.0, 54.0, 45.0, 55.0, 63.0, 73.0, 64.0, 74.0, 65.0, 75.0}));
  t.run();
}

// ref(op='Add', ins=[A([250,1,128],u8), A([10,2,128],u8)], opset=14)
TEST(ElementwiseAdd, Uint8Wraps) {
  OpTester t("Add", 14);
  t.input("A", Tensor::fromVector<uint8_t>({3}, {250, 1, 128}));
  t.input("B", Tensor::fromVector<uint8_t>({3}, {10, 2, 128}));
  t.expect("Y", Tensor::fromVector<uint8_t>({3}, {4, 3, 0}));
  t.run();
}

// ref(op='Add', ins=[A([[1],[-2]],i64), A([5000000000,3],i64)], opset=14)
TEST(ElementwiseAdd, Int64) {
  OpTester t("Add", 14);
  t.input("A", Tensor::fromVector<int64_t>({2,1}, {1, -2}));
  t.input("B", Tensor::fromVector<int64_t>({2}, {5000000000, 3}));
  t.expect("Y", Tensor::fromVector<int64_t>({2,2}, {5000000001, 4, 4999999998, 1}));
  t.run();
}

// ref(op='Add', ins=[A([0.5,1.25,-2],np.float16), A([0.25,2,2],np.float16)], opset=14)
TEST(ElementwiseAdd, Float16) {
  OpTester t("Add", 14);
  t.input("A", half({3}, {0.5, 1.25, -2.0}));
  t.input("B", half({3}, {0.25, 2.0, 2.0}));
  t.expect("Y", half({3}, {0.75, 3.25, 0.0}));
  t.run();
}

// ref(op='Add', ins=[A([0.1,0.2],np.float64), A([0.2],np.float64)], opset=14)
TEST(ElementwiseAdd, Double) {
  OpTester t("Add", 14);
  t.input("A", Tensor::fromVector<double>({2}, {0.1, 0.2}));
  t.input("B", Tensor::fromVector<double>({1}, {0.2}));
  t.expect("Y", Tensor::fromVector<double>({2}, {0.30000000000000004, 0.4}));
  t.run();
}

// ref(op='Add', ins=[A(np.zeros((0,3))), A([1,2,3])], opset=14)
TEST(ElementwiseAdd, EmptyTensor) {
  OpTester t("Add", 14);
  t.input("A", Tensor::fromVector<float>({0,3}, {}));
  t.input("B", Tensor::fromVector<float>({3}, {1.0, 2.0, 3.0}));
  t.expect("Y", Tensor::fromVector<float>({0,3}, {}));
  t.run();
}

// ref(op='Add', ins=[A(R(12), shape=(2,3,2)), A([100,200,300])], attrs={'broadcast':1,'axis':1}, opset=6, expect=R(12,dtype=f32).reshape(2,3,2)+A([100,200,300]).reshape(3,1))
TEST(ElementwiseAdd, LegacyBroadcastAxis) {
  OpTester t("Add", 6);
  t.attr("broadcast", int64_t{1});
  t.attr("axis", int64_t{1});
  t.input("A", Tensor::fromVector<float>({2,3,2}, {0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0}));
  t.input("B", Tensor::fromVector<float>({3}, {100.0, 200.0, 300.0}));
  t.expect("Y", Tensor::fromVector<float>({2,3,2}, {100.0, 101.0, 202.0, 203.0, 304.0, 305.0, 106.0, 107.0, 208.0, 209.0, 310.0, 311.0}));
  t.run();
}

// ref(op='Mul', ins=[A(R(6), shape=(2,3)), A([2,3,4])], attrs={'broadcast':1}, opset=6, expect=R(6,dtype=f32).reshape(2,3)*A([2,3,4]))
TEST(ElementwiseAdd, LegacyBroadcastSuffix) {
  OpTester t("Mul", 6);
  t.attr("broadcast", int64_t{1});
  t.input("A", Tensor::fromVector<float>({2,3}, {0.0, 1.0, 2.0, 3.0, 4.0, 5.0}));
  t.input("B", Tensor::fromVector<float>({3}, {2.0, 3.0, 4.0}));
  t.expect("Y", Tensor::fromVector<float>({2,3}, {0.0, 3.0, 8.0, 6.0, 12.0, 20.0}));
  t.run();
}

// ref(op='Sub', ins=[A([[1,2],[3,4]],i32), A([10,-20],i32)], opset=14)
TEST(ElementwiseSub, Int32Broadcast) {
  OpTester t("Sub", 14);
  t.input("A", Tensor::fromVector<int32_t>({2,2}, {1, 2, 3, 4}));
  t.input("B", Tensor::fromVector<int32_t>({2}, {10, -20}));
  t.expect("Y", Tensor::fromVector<int32_t>({2,2}, {-9, 22, -7, 24}));
  t.run();
}

// ref(op='Sub', ins=[A([-128,5],np.int8), A([1,-3],np.int8)], opset=14)
TEST(ElementwiseSub, Int8) {
  OpTester t("Sub", 14);
  t.input("A", Tensor::fromVector<int8_t>({2}, {-128, 5}));
  t.input("B", Tensor::fromVector<int8_t>({2}, {1, -3}));
  t.expect("Y", Tensor::fromVector<int8_t>({2}, {127, 8}));
  t.run();
}

// ref(op='Mul', ins=[A(R(6)*0.5, np.float64, shape=(1,2,3)), A([2,-1], np.float64, shape=(2,1))], opset=14)
TEST(ElementwiseMul, DoubleBias) {
  OpTester t("Mul", 14);
  t.input("A", Tensor::fromVector<double>({1,2,3}, {0.0, 0.5, 1.0, 1.5, 2.0, 2.5}));
  t.input("B", Tensor::fromVector<double>({2,1}, {2.0, -1.0}));
  t.expect("Y", Tensor::fromVector<double>({1,2,3}, {0.0, 1.0, 2.0, -1.5, -2.0, -2.5}));
  t.run();
}

// ref(op='Mul', ins=[A([3,4000000000],np.uint32), A([7,1],np.uint32)], opset=14)
TEST(ElementwiseMul, Uint32) {
  OpTester t("Mul", 14);
  t.input("A", Tensor::fromVector<uint32_t>({2}, {3, 4000000000}));
  t.input("B", Tensor::fromVector<uint32_t>({2}, {7, 1}));
  t.expect("Y", Tensor::fromVector<uint32_t>({2}, {21, 4000000000}));
  t.run();
}

// ref(op='Div', ins=[A([1,-2,3,0]), A([4,8,0,0])], opset=14)
TEST(ElementwiseDiv, Float) {
  OpTester t("Div", 14);
  t.input("A", Tensor::fromVector<float>({4}, {1.0, -2.0, 3.0, 0.0}));
  t.input("B", Tensor::fromVector<float>({4}, {4.0, 8.0, 0.0, 0.0}));
  t.expect("Y", Tensor::fromVector<float>({4}, {0.25, -0.25, kInf, kNaN}));
  t.run();
}

// ref(op='Div', ins=[A([7,-7,7,-7,6],i32), A([2,2,-2,-2,3],i32)], opset=14)
TEST(ElementwiseDiv, IntTruncates) {
  OpTester t("Div", 14);
  t.input("A", Tensor::fromVector<int32_t>({5}, {7, -7, 7, -7, 6}));
  t.input("B", Tensor::fromVector<int32_t>({5}, {2, 2, -2, -2, 3}));
  t.expect("Y", Tensor::fromVector<int32_t>({5}, {3, -3, -3, 3, 2}));
  t.run();
}

// ref(op='Div', ins=[A([100,-101,5],i64), A(10,i64)], opset=13)
TEST(ElementwiseDiv, Int64Scalar) {
  OpTester t("Div", 13);
  t.input("A", Tensor::fromVector<int64_t>({3}, {100, -101, 5}));
  t.input("B", Tensor::fromVector<int64_t>({}, {10}));
  t.expect("Y", Tensor::fromVector<int64_t>({3}, {10, -10, 0}));
  t.run();
}

// ref(op='Div', ins=[A([65535,9],np.uint16), A([2,4],np.uint16)], opset=14)
TEST(ElementwiseDiv, Uint16) {
  OpTester t("Div", 14);
  t.input("A", Tensor::fromVector<uint16_t>({2}, {65535, 9}));
  t.input("B", Tensor::fromVector<uint16_t>({2}, {2, 4}));
  t.expect("Y", Tensor::fromVector<uint16_t>({2}, {32767, 2}));
  t.run();
}

// ref(op='Pow', ins=[A([2,3,-2,4]), A([3,0.5,2,-0.5])], opset=15)
TEST(ElementwisePow, Float) {
  OpTester t("Pow", 15);
  t.input("A", Tensor::fromVector<float>({4}, {2.0, 3.0, -2.0, 4.0}));
  t.input("B", Tensor::fromVector<float>({4}, {3.0, 0.5, 2.0, -0.5}));
  t.expect("Y", Tensor::fromVector<float>({4}, {8.0, 1.7320507764816284, 4.0, 0.5}));
  t.run();
}

// ref(op='Pow', ins=[A([[2,3],[5,0.5]]), A([2,-1],i64)], opset=15)
TEST(ElementwisePow, FloatBaseInt64Exponent) {
  OpTester t("Pow", 15);
  t.input("A", Tensor::fromVector<float>({2,2}, {2.0, 3.0, 5.0, 0.5}));
  t.input("B", Tensor::fromVector<int64_t>({2}, {2, -1}));
  t.expect("Y", Tensor::fromVector<float>({2,2}, {4.0, 0.3333333432674408, 25.0, 2.0}));
  t.run();
}

// ref(op='Pow', ins=[A([2,-3,5,7],i64), A([3,3,0,1],i64)], opset=15)
TEST(ElementwisePow, IntInt) {
  OpTester t("Pow", 15);
  t.input("A", Tensor::fromVector<int64_t>({4}, {2, -3, 5, 7}));
  t.input("B", Tensor::fromVector<int64_t>({4}, {3, 3, 0, 1}));
  t.expect("Y", Tensor::fromVector<int64_t>({4}, {8, -27, 1, 7}));
  t.run();
}

// ref(op='Pow', ins=[A([2,3,5],i32), A([0.5,2.5,1])], opset=15)
TEST(ElementwisePow, Int32BaseFloatExponent) {
  OpTester t("Pow", 15);
  t.input("A", Tensor::fromVector<int32_t>({3}, {2, 3, 5}));
  t.input("B", Tensor::fromVector<float>({3}, {0.5, 2.5, 1.0}));
  t.expect("Y", Tensor::fromVector<int32_t>({3}, {1, 15, 5}));
  t.run();
}

// An integer base with a float exponent whose power is NaN or outside the
// type (a fuzz finding: the cast was undefined behaviour). NaN gives 0, the
// rest saturates: pow(2, NaN), pow(-2, 0.5) -> 0; pow(0, -1) = inf and
// pow(3, 100) -> INT32_MAX; pow(-3, 101) -> INT32_MIN; pow(2, 3) = 8 as before.
TEST(ElementwisePow, Int32BaseFloatExponentOutOfRangeSaturates) {
  OpTester t("Pow", 15);
  t.input("A", Tensor::fromVector<int32_t>({6}, {2, -2, 0, 3, -3, 2}));
  t.input("B", Tensor::fromVector<float>({6}, {std::numeric_limits<float>::quiet_NaN(), 0.5f, -1.0f, 100.0f, 101.0f, 3.0f}));
  t.expect("Y", Tensor::fromVector<int32_t>({6}, {0, 0, INT32_MAX, INT32_MAX, INT32_MIN, 8}));
  t.run();
}

// ref(op='Pow', ins=[A([[1,2],[3,4]],np.float64), A(2,np.float64)], opset=7)
TEST(ElementwisePow, Opset7Broadcast) {
  OpTester t("Pow", 7);
  t.input("A", Tensor::fromVector<double>({2,2}, {1.0, 2.0, 3.0, 4.0}));
  t.input("B", Tensor::fromVector<double>({}, {2.0}));
  t.expect("Y", Tensor::fromVector<double>({2,2}, {1.0, 4.0, 9.0, 16.0}));
  t.run();
}

// ref(op='Mod', ins=[A([5,-5,5,-5,6],i32), A([3,3,-3,-3,3],i32)], opset=13)
TEST(ElementwiseMod, IntFloorMod) {
  OpTester t("Mod", 13);
  t.input("A", Tensor::fromVector<int32_t>({5}, {5, -5, 5, -5, 6}));
  t.input("B", Tensor::fromVector<int32_t>({5}, {3, 3, -3, -3, 3}));
  t.expect("Y", Tensor::fromVector<int32_t>({5}, {2, 1, -1, -2, 0}));
  t.run();
}

// ref(op='Mod', ins=[A([5,-5,5,-5],i64), A([3,3,-3,-3],i64)], attrs={'fmod':1}, opset=13)
TEST(ElementwiseMod, IntFmod) {
  OpTester t("Mod", 13);
  t.attr("fmod", int64_t{1});
  t.input("A", Tensor::fromVector<int64_t>({4}, {5, -5, 5, -5}));
  t.input("B", Tensor::fromVector<int64_t>({4}, {3, 3, -3, -3}));
  t.expect("Y", Tensor::fromVector<int64_t>({4}, {2, -2, 2, -2}));
  t.run();
}

// ref(op='Mod', ins=[A([5.5,-5.5,5.5,-5.5]), A([2,2,-2,-2])], attrs={'fmod':1}, opset=10)
TEST(ElementwiseMod, FloatFmod) {
  OpTester t("Mod", 10);
  t.attr("fmod", int64_t{1});
  t.input("A", Tensor::fromVector<float>({4}, {5.5, -5.5, 5.5, -5.5}));
  t.input("B", Tensor::fromVector<float>({4}, {2.0, 2.0, -2.0, -2.0}));
  t.expect("Y", Tensor::fromVector<float>({4}, {1.5, -1.5, 1.5, -1.5}));
  t.run();
}

// ref(op='Mod', ins=[A([5.5,-5.5,5.5,-5.5]), A([2,2,-2,-2])], opset=13, engine='ref')
TEST(ElementwiseMod, FloatFmodZeroStillFmod) {
  OpTester t("Mod", 13);
  t.input("A", Tensor::fromVector<float>({4}, {5.5, -5.5, 5.5, -5.5}));
  t.input("B", Tensor::fromVector<float>({4}, {2.0, 2.0, -2.0, -2.0}));
  t.expect("Y", Tensor::fromVector<float>({4}, {1.5, -1.5, 1.5, -1.5}));
  t.run();
}

// ref(op='Mod', ins=[A([[7,8],[9,10]],u8), A([4],u8)], opset=13)
TEST(ElementwiseMod, Uint8Broadcast) {
  OpTester t("Mod", 13);
  t.input("A", Tensor::fromVector<uint8_t>({2,2}, {7, 8, 9, 10}));
  t.input("B", Tensor::fromVector<uint8_t>({1}, {4}));
  t.expect("Y", Tensor::fromVector<uint8_t>({2,2}, {3, 0, 1, 2}));
  t.run();
}

// ref(op='BitShift', ins=[A([1,255,16,3],u8), A([1,1,9,0],u8)], attrs={'direction':'LEFT'}, opset=11)
TEST(ElementwiseBitShift, Left) {
  OpTester t("BitShift", 11);
  t.attr("direction", "LEFT");
  t.input("A", Tensor::fromVector<uint8_t>({4}, {1, 255, 16, 3}));
  t.input("B", Tensor::fromVector<uint8_t>({4}, {1, 1, 9, 0}));
  t.expect("Y", Tensor::fromVector<uint8_t>({4}, {2, 254, 0, 3}));
  t.run();
}

// ref(op='BitShift', ins=[A([[16,255],[1024,7]],np.uint32), A([2],np.uint32)], attrs={'direction':'RIGHT'}, opset=11)
TEST(ElementwiseBitShift, RightBroadcast) {
  OpTester t("BitShift", 11);
  t.attr("direction", "RIGHT");
  t.input("A", Tensor::fromVector<uint32_t>({2,2}, {16, 255, 1024, 7}));
  t.input("B", Tensor::fromVector<uint32_t>({1}, {2}));
  t.expect("Y", Tensor::fromVector<uint32_t>({2,2}, {4, 63, 256, 1}));
  t.run();
}

// ref(op='BitwiseAnd', ins=[A([12,-1,7],i32), A([10,5,-8],i32)], opset=18)
TEST(ElementwiseBitwise, AndInt32) {
  OpTester t("BitwiseAnd", 18);
  t.input("A", Tensor::fromVector<int32_t>({3}, {12, -1, 7}));
  t.input("B", Tensor::fromVector<int32_t>({3}, {10, 5, -8}));
  t.expect("Y", Tensor::fromVector<int32_t>({3}, {8, 5, 0}));
  t.run();
}

// ref(op='BitwiseOr', ins=[A([[1,2],[4,8]],u8), A([16,3],u8)], opset=18)
TEST(ElementwiseBitwise, OrUint8Broadcast) {
  OpTester t("BitwiseOr", 18);
  t.input("A", Tensor::fromVector<uint8_t>({2,2}, {1, 2, 4, 8}));
  t.input("B", Tensor::fromVector<uint8_t>({2}, {16, 3}));
  t.expect("Y", Tensor::fromVector<uint8_t>({2,2}, {17, 3, 20, 11}));
  t.run();
}

// ref(op='BitwiseXor', ins=[A([12,-1],i64), A([10,5],i64)], opset=18)
TEST(ElementwiseBitwise, XorInt64) {
  OpTester t("BitwiseXor", 18);
  t.input("A", Tensor::fromVector<int64_t>({2}, {12, -1}));
  t.input("B", Tensor::fromVector<int64_t>({2}, {10, 5}));
  t.expect("Y", Tensor::fromVector<int64_t>({2}, {6, -6}));
  t.run();
}

// ref(op='BitwiseNot', ins=[A([0,-1,5],np.int16)], opset=18)
TEST(ElementwiseBitwise, NotInt16) {
  OpTester t("BitwiseNot", 18);
  t.input("A", Tensor::fromVector<int16_t>({3}, {0, -1, 5}));
  t.expect("Y", Tensor::fromVector<int16_t>({3}, {-1, 0, -6}));
  t.run();
}

// ref(op='BitwiseNot', ins=[A([0,255,5],u8)], opset=18)
TEST(ElementwiseBitwise, NotUint8) {
  OpTester t("BitwiseNot", 18);
  t.input("A", Tensor::fromVector<uint8_t>({3}, {0, 255, 5}));
  t.expect("Y", Tensor::fromVector<uint8_t>({3}, {255, 0, 250}));
  t.run();
}

// ref(op='Max', ins=[A([1,nan,3,nan]), A([nan,2,1,nan])], opset=13)
TEST(ElementwiseVariadic, MaxNaN) {
  OpTester t("Max", 13);
  t.input("A", Tensor::fromVector<float>({4}, {1.0, kNaN, 3.0, kNaN}));
  t.input("B", Tensor::fromVector<float>({4}, {kNaN, 2.0, 1.0, kNaN}));
  t.expect("Y", Tensor::fromVector<float>({4}, {kNaN, kNaN, 3.0, kNaN}));
  t.run();
}

// ref(op='Min', ins=[A([1,nan,3,nan]), A([nan,2,1,nan])], opset=13)
TEST(ElementwiseVariadic, MinNaN) {
  OpTester t("Min", 13);
  t.input("A", Tensor::fromVector<float>({4}, {1.0, kNaN, 3.0, kNaN}));
  t.input("B", Tensor::fromVector<float>({4}, {kNaN, 2.0, 1.0, kNaN}));
  t.expect("Y", Tensor::fromVector<float>({4}, {kNaN, kNaN, 1.0, kNaN}));
  t.run();
}

// ref(op='Max', ins=[A([[1,5],[3,-2]]), A([4]), A([[0],[10]])], opset=13)
TEST(ElementwiseVariadic, MaxThreeBroadcast) {
  OpTester t("Max", 13);
  t.input("A", Tensor::fromVector<float>({2,2}, {1.0, 5.0, 3.0, -2.0}));
  t.input("B", Tensor::fromVector<float>({1}, {4.0}));
  t.input("C", Tensor::fromVector<float>({2,1}, {0.0, 10.0}));
  t.expect("Y", Tensor::fromVector<float>({2,2}, {4.0, 5.0, 10.0, 10.0}));
  t.run();
}

// ref(op='Min', ins=[A([1,-5,3],i32), A([0,2,3],i32), A([2],i32)], opset=13)
TEST(ElementwiseVariadic, MinInt32) {
  OpTester t("Min", 13);
  t.input("A", Tensor::fromVector<int32_t>({3}, {1, -5, 3}));
  t.input("B", Tensor::fromVector<int32_t>({3}, {0, 2, 3}));
  t.input("C", Tensor::fromVector<int32_t>({1}, {2}));
  t.expect("Y", Tensor::fromVector<int32_t>({3}, {0, -5, 2}));
  t.run();
}

// ref(op='Max', ins=[A([1,18446744073709551615],np.uint64), A([2,3],np.uint64)], opset=13)
TEST(ElementwiseVariadic, MaxUint64) {
  OpTester t("Max", 13);
  t.input("A", Tensor::fromVector<uint64_t>({2}, {1, 18446744073709551615ull}));
  t.input("B", Tensor::fromVector<uint64_t>({2}, {2, 3}));
  t.expect("Y", Tensor::fromVector<uint64_t>({2}, {2, 18446744073709551615ull}));
  t.run();
}

// ref(op='Sum', ins=[A([[1,2],[3,4]])], opset=13)
TEST(ElementwiseVariadic, SumOne) {
  OpTester t("Sum", 13);
  t.input("A", Tensor::fromVector<float>({2,2}, {1.0, 2.0, 3.0, 4.0}));
  t.expect("Y", Tensor::fromVector<float>({2,2}, {1.0, 2.0, 3.0, 4.0}));
  t.run();
}

// ref(op='Sum', ins=[A([1,2,3]), A([[10],[20]]), A(100.), A([[0.5,0.25,0.125],[1,1,1]])], opset=13)
TEST(ElementwiseVariadic, SumFourBroadcast) {
  OpTester t("Sum", 13);
  t.input("A", Tensor::fromVector<float>({3}, {1.0, 2.0, 3.0}));
  t.input("B", Tensor::fromVector<float>({2,1}, {10.0, 20.0}));
  t.input("C", Tensor::fromVector<float>({}, {100.0}));
  t.input("D", Tensor::fromVector<float>({2,3}, {0.5, 0.25, 0.125, 1.0, 1.0, 1.0}));
  t.expect("Y", Tensor::fromVector<float>({2,3}, {111.5, 112.25, 113.125, 122.0, 123.0, 124.0}));
  t.run();
}

// ref(op='Sum', ins=[A([1,2],np.float64), A([3,4],np.float64)], opset=8)
TEST(ElementwiseVariadic, SumOpset6) {
  OpTester t("Sum", 8);
  t.input("A", Tensor::fromVector<double>({2}, {1.0, 2.0}));
  t.input("B", Tensor::fromVector<double>({2}, {3.0, 4.0}));
  t.expect("Y", Tensor::fromVector<double>({2}, {4.0, 6.0}));
  t.run();
}

// ref(op='Mean', ins=[A([1,2,3]), A([[3],[6]]), A([2,2,2])], opset=13)
TEST(ElementwiseVariadic, MeanThree) {
  OpTester t("Mean", 13);
  t.input("A", Tensor::fromVector<float>({3}, {1.0, 2.0, 3.0}));
  t.input("B", Tensor::fromVector<float>({2,1}, {3.0, 6.0}));
  t.input("C", Tensor::fromVector<float>({3}, {2.0, 2.0, 2.0}));
  t.expect("Y", Tensor::fromVector<float>({2,3}, {2.0, 2.3333334922790527, 2.6666667461395264, 3.0, 3.3333334922790527, 3.6666667461395264}));
  t.run();
}

// ref(op='Mean', ins=[A([1,2],np.float16), A([2,5],np.float16)], opset=13)
TEST(ElementwiseVariadic, MeanFloat16) {
  OpTester t("Mean", 13);
  t.input("A", half({2}, {1.0, 2.0}));
  t.input("B", half({2}, {2.0, 5.0}));
  t.expect("Y", half({2}, {1.5, 3.5}));
  t.run();
}

// ---- hand-written ---------------------------------------------------------

// The merged-dim plan of the common layouts.
TEST(BroadcastIterator, MergesDims) {
  using cpu::Broadcaster;
  std::vector<int64_t> same{2, 3, 4}, nchw{2, 3, 4, 5}, c11{3, 1, 1}, nhwc{2, 4, 5, 3}, c{3}, scalar{};
  Broadcaster<2> b;
  ASSERT_TRUE(b.init({&same, &same}, same));
  EXPECT_EQ(b.dims(), (std::vector<int64_t>{24}));
  EXPECT_EQ(b.innerStride(0), 1);
  EXPECT_EQ(b.innerStride(1), 1);
  ASSERT_TRUE(b.init({&nchw, &c11}, nchw));
  EXPECT_EQ(b.dims(), (std::vector<int64_t>{2, 3, 20}));
  EXPECT_EQ(b.stride(1, 0), 0);
  EXPECT_EQ(b.stride(1, 1), 1);
  EXPECT_EQ(b.stride(1, 2), 0);
  EXPECT_EQ(b.stride(0, 1), 20);
  ASSERT_TRUE(b.init({&nhwc, &c}, nhwc));
  EXPECT_EQ(b.dims(), (std::vector<int64_t>{40, 3}));
  EXPECT_EQ(b.stride(1, 0), 0);
  EXPECT_EQ(b.innerStride(1), 1);
  ASSERT_TRUE(b.init({&scalar, &same}, same));
  EXPECT_EQ(b.dims(), (std::vector<int64_t>{24}));
  EXPECT_EQ(b.innerStride(0), 0);
  ASSERT_TRUE(b.init({&scalar, &scalar}, scalar));
  EXPECT_EQ(b.numel(), 1);
  std::vector<int64_t> bad{5};
  EXPECT_FALSE(b.init({&same, &bad}, same));
  std::vector<int64_t> out;
  EXPECT_TRUE(cpu::broadcastShapes({&nchw, &c11}, out));
  EXPECT_EQ(out, nchw);
  EXPECT_FALSE(cpu::broadcastShapes({&same, &bad}, out));
}

// Every sub-range of random broadcasts visits the same input offsets as a
// naive multi-index walk.
TEST(BroadcastIterator, RowsMatchNaiveOffsets) {
  std::mt19937 rng(7);
  for (int iter = 0; iter < 200; ++iter) {
    const size_t rank = rng() % 5;
    std::vector<int64_t> out(rank), a(rank), b;
    for (size_t k = 0; k < rank; ++k) {
      out[k] = 1 + rng() % 4;
      a[k] = rng() % 3 == 0 ? 1 : out[k];
    }
    const size_t rb = rank ? rng() % (rank + 1) : 0;
    for (size_t k = rank - rb; k < rank; ++k) b.push_back(rng() % 2 ? 1 : out[k]);
    std::vector<int64_t> bc;
    ASSERT_TRUE(cpu::broadcastShapes({&a, &b}, bc));
    cpu::Broadcaster<2> it;
    ASSERT_TRUE(it.init({&a, &b}, bc));
    // Naive offsets.
    std::vector<std::array<int64_t, 2>> expect(it.numel());
    for (int64_t i = 0; i < it.numel(); ++i) {
      int64_t rem = i, offA = 0, offB = 0, sa = 1, sb = 1;
      for (size_t k = bc.size(); k-- > 0;) {
        const int64_t idx = rem % bc[k];
        rem /= bc[k];
        if (a[k] != 1) offA += idx * sa;
        sa *= a[k];
        const size_t kb = k + b.size();
        if (kb >= bc.size()) {
          const int64_t db = b[kb - bc.size()];
          if (db != 1) offB += idx * sb;
          sb *= db;
        }
      }
      expect[i] = {offA, offB};
    }
    const int64_t n = it.numel();
    const int64_t cut1 = n ? rng() % (n + 1) : 0;
    for (auto [lo, hi] : {std::pair<int64_t, int64_t>{0, cut1}, {cut1, n}}) {
      int64_t next = lo;
      it.forEachRow(lo, hi, [&](int64_t o, const int64_t* off, int64_t cnt) {
        ASSERT_EQ(o, next);
        for (int64_t j = 0; j < cnt; ++j) {
          ASSERT_EQ(off[0] + j * it.innerStride(0), expect[o + j][0]) << "iter " << iter;
          ASSERT_EQ(off[1] + j * it.innerStride(1), expect[o + j][1]) << "iter " << iter;
        }
        next += cnt;
      });
      EXPECT_EQ(next, hi);
    }
  }
}

// bfloat16 computes in float; these values are exact in bfloat16.
TEST(ElementwiseAdd, BFloat16) {
  auto bf = [](std::vector<int64_t> shape, std::vector<float> v) {
    std::vector<BFloat16> h;
    for (float f : v) h.push_back(BFloat16(f));
    return Tensor::fromVector<BFloat16>(std::move(shape), h);
  };
  OpTester t("Mul", 14);
  t.input("A", bf({2, 2}, {1.5f, -2.f, 4.f, 0.25f})).input("B", bf({2}, {2.f, 0.5f}));
  t.expect("Y", bf({2, 2}, {3.f, -1.f, 8.f, 0.125f}));
  t.run();
}

// Outputs large enough to be split over the thread pool (the oracle is the
// plain loop: the op is exact).
TEST(ElementwiseAdd, ParallelBroadcast) {
  const int64_t rows = 3, c = 128, hw = 260;
  std::vector<float> a(rows * c * hw), b(c), y(a.size());
  for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(i % 1000) * 0.5f;
  for (int64_t i = 0; i < c; ++i) b[i] = static_cast<float>(i) * 3.f;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t k = 0; k < c; ++k)
      for (int64_t j = 0; j < hw; ++j) y[(r * c + k) * hw + j] = a[(r * c + k) * hw + j] - b[k];
  OpTester t("Sub", 14);
  t.input("A", Tensor::fromVector<float>({rows, c, hw}, a)).input("B", Tensor::fromVector<float>({c, 1}, b));
  t.expect("Y", Tensor::fromVector<float>({rows, c, hw}, y));
  t.run();
}

TEST(ElementwiseVariadic, ParallelMaxInt64) {
  const int64_t n = 70000;
  std::vector<int64_t> a(n), y(n);
  for (int64_t i = 0; i < n; ++i) {
    a[i] = (i * 7919) % 1000 - 500;
    y[i] = std::max<int64_t>(std::max<int64_t>(a[i], 3), -100);
  }
  OpTester t("Max", 13);
  t.input("A", Tensor::fromVector<int64_t>({n}, a))
      .input("B", Tensor::scalar<int64_t>(3))
      .input("C", Tensor::fromVector<int64_t>({1}, {-100}));
  t.expect("Y", Tensor::fromVector<int64_t>({n}, y));
  t.run();
}

namespace {
// Runs a shape function directly on symbolic 1-d int64 values.
std::optional<std::vector<Dim>> symbolicResult(const std::string& op, std::vector<Dim> a, std::vector<Dim> b) {
  const OpDef* def = builtinRegistry().find("", op, 14);
  Node n;
  n.opType = op;
  n.name = "shape_math";
  n.inputs = {"a", "b"};
  n.outputs = {"c"};
  shape::SymbolGenerator gen;
  shape::InferContext ctx(n, 14, gen);
  ValueInfo va{"a", ValueKind::kTensor, DataType::kInt64, true, {Dim(static_cast<int64_t>(a.size()))}};
  ValueInfo vb{"b", ValueKind::kTensor, DataType::kInt64, true, {Dim(static_cast<int64_t>(b.size()))}};
  ctx.inputs_ = {&va, &vb};
  ctx.values_ = {nullptr, nullptr};
  ctx.symValues_ = {&a, &b};
  ctx.outputs_.resize(1);
  ctx.outputSet_.assign(1, false);
  ctx.outputValues_.resize(1);
  ctx.outputSymValues_.resize(1);
  def->shape(ctx);
  EXPECT_TRUE(ctx.outputSet_[0]);
  return ctx.outputSymValues_[0];
}
}  // namespace

TEST(ElementwiseSymbolic, ShapeArithmetic) {
  const Dim batch = Dim::sym("batch"), seq = Dim::sym("seq");
  auto r = symbolicResult("Mul", {batch, 3, 4}, {1, 2, 0});
  ASSERT_TRUE(r);
  EXPECT_EQ(*r, (std::vector<Dim>{batch, 6, 0}));
  r = symbolicResult("Add", {batch, seq}, {0});
  ASSERT_TRUE(r);
  EXPECT_EQ(*r, (std::vector<Dim>{batch, seq}));
  r = symbolicResult("Sub", {batch, seq, 5}, {Dim(0), seq, Dim(2)});
  ASSERT_TRUE(r);
  EXPECT_EQ(*r, (std::vector<Dim>{batch, 0, 3}));
  r = symbolicResult("Div", {batch, 8}, {1, 2});
  ASSERT_TRUE(r);
  EXPECT_EQ(*r, (std::vector<Dim>{batch, 4}));
  // A dim the symbol cannot express gets a fresh one, not a wrong static.
  r = symbolicResult("Add", {batch}, {1});
  ASSERT_TRUE(r);
  ASSERT_EQ(r->size(), 1u);
  EXPECT_FALSE((*r)[0].isStatic());
  EXPECT_NE((*r)[0], batch);
  r = symbolicResult("Mul", {batch, seq}, {seq});
  ASSERT_TRUE(r);
  EXPECT_FALSE((*r)[0].isStatic());
  EXPECT_NE((*r)[0], batch);
  // Division by zero: no value.
  EXPECT_FALSE(symbolicResult("Div", {4}, {0}));
}

// Constant shape values through the normal path: the kernel and the shape
// function agree.
TEST(ElementwiseSymbolic, ConstantShapeValues) {
  OpTester t("Mul", 14);
  t.constantInput("A", Tensor::fromVector<int64_t>({3}, {2, 3, 4}))
      .constantInput("B", Tensor::fromVector<int64_t>({1}, {5}));
  t.expect("Y", Tensor::fromVector<int64_t>({3}, {10, 15, 20}));
  t.run();
}

TEST(ElementwiseErrors, BroadcastMismatchNamesNodeInputsAndShapes) {
  OpTester t("Add", 14);
  t.input("left", Tensor(DataType::kFloat, {2, 3})).input("right", Tensor(DataType::kFloat, {4}));
  t.output("Y");
  t.expectError("node 'Add_under_test' (Add): cannot broadcast shapes [2,3] and [4] (dimension 1: 3 vs 4) "
                "between input 0 ('left') and input 1 ('right')");
}

TEST(ElementwiseErrors, VariadicMismatch) {
  OpTester t("Sum", 13);
  t.input("a", Tensor(DataType::kFloat, {2, 3})).input("b", Tensor(DataType::kFloat, {3}));
  t.input("c", Tensor(DataType::kFloat, {2}));
  t.output("Y");
  t.expectError("input 2 ('c')");
}

TEST(ElementwiseErrors, TypeMismatch) {
  OpTester t("Add", 14);
  t.input("a", Tensor(DataType::kFloat, {2})).input("b", Tensor(DataType::kInt32, {2}));
  t.output("Y");
  t.expectError("input 0 ('a') is float32 but input 1 ('b') is int32");
}

TEST(ElementwiseErrors, WhereNeedsBoolCondition) {
  OpTester t("Where", 16);
  t.input("c", Tensor(DataType::kInt32, {2}))
      .input("x", Tensor(DataType::kFloat, {2}))
      .input("y", Tensor(DataType::kFloat, {2}));
  t.output("Y");
  t.expectError("input 0 ('c') must be bool");
}

TEST(ElementwiseErrors, BitShiftDirection) {
  OpTester t("BitShift", 11);
  t.attr("direction", "UP");
  t.input("a", Tensor(DataType::kUInt8, {2})).input("b", Tensor(DataType::kUInt8, {2}));
  t.output("Y");
  t.expectError("direction must be LEFT or RIGHT");
}

TEST(ElementwiseErrors, UnsupportedType) {
  OpTester t("Sqrt", 13);
  t.input("a", Tensor(DataType::kInt32, {2}));
  t.output("Y");
  t.expectError("data type int32 is not supported");
}
