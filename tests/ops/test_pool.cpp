// MaxPool, AveragePool, LpPool, the Global pools and LRN op tests.
//
// Reference values come from onnxruntime (onnx.reference where onnxruntime
// has no kernel) on one-node models, produced by this Python:
//
//   import numpy as np, onnx, onnxruntime as ort
//   from onnx import helper as h, TensorProto as TP
//   def pat(shape, seed=0, dtype=np.float32):  # same as pat<T> below
//       n = int(np.prod(shape))
//       return np.array([((i * 7 + seed) % 13 - 6) / 4 for i in range(n)], dtype=dtype).reshape(shape)
//   from onnx.reference import ReferenceEvaluator
//   def run(op, opset, outputs=1, engine='ort', **kw):  # ndarray kwargs are inputs, the rest attributes
//       ins = {k: v for k, v in kw.items() if isinstance(v, np.ndarray)}
//       attrs = {k: v for k, v in kw.items() if k not in ins}
//       names = ['Y', 'I'][:outputs]
//       ty = lambda a: onnx.helper.np_dtype_to_tensor_dtype(a.dtype)
//       node = h.make_node(op, list(ins), names, **attrs)
//       g = h.make_graph([node], 'g', [h.make_tensor_value_info(k, ty(v), v.shape) for k, v in ins.items()],
//                        [h.make_tensor_value_info(n, TP.INT64 if n == 'I' else ty(next(iter(ins.values()))), None)
//                         for n in names])
//       m = h.make_model(g, opset_imports=[h.make_opsetid('', opset)])
//       if engine == 'reference': return ReferenceEvaluator(m).run(None, ins)
//       return ort.InferenceSession(m.SerializeToString()).run(None, ins)
//
// Where onnx.reference disagrees with onnxruntime (SAME_LOWER output sizes,
// 1-d GlobalMaxPool, LRN's channel window) the comment says so; onnxruntime
// follows the spec there.
#include <gtest/gtest.h>

#include <cmath>

#include "op_tester.h"
#include "ops/registry.h"
#include "ir_util.h"

namespace oinfer::testing {
namespace {

template <class T>
Tensor pat(std::vector<int64_t> shape, int seed) {
  Tensor t(dataTypeOf<T>, std::move(shape));
  for (int64_t i = 0; i < t.numel(); ++i) t.data<T>()[i] = static_cast<T>(((i * 7 + seed) % 13 - 6) / 4.0);
  return t;
}

Tensor halfTensor(std::vector<int64_t> shape, const std::vector<float>& v) {
  Tensor t(DataType::kFloat16, std::move(shape));
  for (int64_t i = 0; i < t.numel(); ++i) t.data<Float16>()[i] = Float16(v[i]);
  return t;
}

}  // namespace
// run('MaxPool', 22, X=pat([1, 2, 4, 5], 0), kernel_shape=[2, 2])
TEST(PoolOp, MaxPoolDefault) {
  OpTester t("MaxPool", 22);
  t.input("X", pat<float>({1, 2, 4, 5}, 0));
  t.attr("kernel_shape", std::vector<int64_t>{2, 2});
  t.expect("Y", Tensor::fromVector<float>({1, 2, 3, 4}, {0.75, 1, 1, 1.25, 1.5, 1.5, 1, 1.25, 1.5, 1.5, 0.75, 0.75, 1, 1.25, 1.25, 1.5, 0.75, 0.75, 1, 1, 1.25, 1.5, 1.5, 1}));
  t.run();
}

// run('MaxPool', 22, X=pat([1, 1, 5, 6], 1), kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 0])
TEST(PoolOp, MaxPoolStridesPads) {
  OpTester t("MaxPool", 22);
  t.input("X", pat<float>({1, 1, 5, 6}, 1));
  t.attr("kernel_shape", std::vector<int64_t>{3, 3});
  t.attr("strides", std::vector<int64_t>{2, 2});
  t.attr("pads", std::vector<int64_t>{1, 1, 1, 0});
  t.expect("Y", Tensor::fromVector<float>({1, 1, 3, 3}, {1.25, 1.5, 1.5, 1.25, 1.5, 1.5, 1, 1.25, 1.5}));
  t.run();
}

// run('MaxPool', 22, X=pat([1, 1, 5, 6], 2), kernel_shape=[2, 3], strides=[2, 2], auto_pad='SAME_UPPER')
TEST(PoolOp, MaxPoolSameUpper) {
  OpTester t("MaxPool", 22);
  t.input("X", pat<float>({1, 1, 5, 6}, 2));
  t.attr("kernel_shape", std::vector<int64_t>{2, 3});
  t.attr("strides", std::vector<int64_t>{2, 2});
  t.attr("auto_pad", "SAME_UPPER");
  t.expect("Y", Tensor::fromVector<float>({1, 1, 3, 3}, {1.5, 1, 1.25, 1.5, 1.5, 1, 0.5, 0.75, 1}));
  t.run();
}

// run('MaxPool', 22, X=pat([1, 1, 5, 6], 2), kernel_shape=[2, 3], strides=[2, 2], auto_pad='SAME_LOWER')  (onnx.reference differs here; onnxruntime is right per the spec)
TEST(PoolOp, MaxPoolSameLower) {
  OpTester t("MaxPool", 22);
  t.input("X", pat<float>({1, 1, 5, 6}, 2));
  t.attr("kernel_shape", std::vector<int64_t>{2, 3});
  t.attr("strides", std::vector<int64_t>{2, 2});
  t.attr("auto_pad", "SAME_LOWER");
  t.expect("Y", Tensor::fromVector<float>({1, 1, 3, 3}, {0.75, 1, 1.25, 1.5, 1.5, 1, 1.25, 1.5, 1}));
  t.run();
}

// run('MaxPool', 22, X=pat([1, 1, 5, 6], 3), kernel_shape=[2, 2], strides=[2, 2], auto_pad='VALID')
TEST(PoolOp, MaxPoolValid) {
  OpTester t("MaxPool", 22);
  t.input("X", pat<float>({1, 1, 5, 6}, 3));
  t.attr("kernel_shape", std::vector<int64_t>{2, 2});
  t.attr("strides", std::vector<int64_t>{2, 2});
  t.attr("auto_pad", "VALID");
  t.expect("Y", Tensor::fromVector<float>({1, 1, 2, 3}, {1, 1.25, 1.5, 1.5, 1, 1.25}));
  t.run();
}

// run('MaxPool', 22, X=pat([1, 1, 6, 6], 4), kernel_shape=[2, 2], dilations=[2, 2], pads=[1, 1, 1, 1])
TEST(PoolOp, MaxPoolDilations) {
  OpTester t("MaxPool", 22);
  t.input("X", pat<float>({1, 1, 6, 6}, 4));
  t.attr("kernel_shape", std::vector<int64_t>{2, 2});
  t.attr("dilations", std::vector<int64_t>{2, 2});
  t.attr("pads", std::vector<int64_t>{1, 1, 1, 1});
  t.expect("Y", Tensor::fromVector<float>({1, 1, 6, 6}, {-1.25, 0.5, -1, 0.75, -0.75, 0.75, 1.25, 1.25, 1.5, 1.5, 1.5, 1.5, 0.25, 0.5, 0.5, 0.75, 0.75, 0.75, 1, 1.25, 1.25, 1.5, 1.5, 1.5, 0.25, 0.25, 0.5, 0.5, 0.75, 0.5, 1, -0.5, 1.25, -0.25, 1.5, -0.25}));
  t.run();
}

// run('MaxPool', 22, X=pat([1, 1, 5, 5], 5), kernel_shape=[2, 2], strides=[2, 2], ceil_mode=1)
TEST(PoolOp, MaxPoolCeilMode) {
  OpTester t("MaxPool", 22);
  t.input("X", pat<float>({1, 1, 5, 5}, 5));
  t.attr("kernel_shape", std::vector<int64_t>{2, 2});
  t.attr("strides", std::vector<int64_t>{2, 2});
  t.attr("ceil_mode", int64_t{1});
  t.expect("Y", Tensor::fromVector<float>({1, 1, 3, 3}, {1.5, 0.75, 0.25, 1, 1.25, 1.5, 0.75, 1, -0.5}));
  t.run();
}

// run('MaxPool', 22, X=pat([1, 1, 4, 4], 6), kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1], ceil_mode=1)
TEST(PoolOp, MaxPoolCeilModePads) {
  OpTester t("MaxPool", 22);
  t.input("X", pat<float>({1, 1, 4, 4}, 6));
  t.attr("kernel_shape", std::vector<int64_t>{3, 3});
  t.attr("strides", std::vector<int64_t>{2, 2});
  t.attr("pads", std::vector<int64_t>{1, 1, 1, 1});
  t.attr("ceil_mode", int64_t{1});
  t.expect("Y", Tensor::fromVector<float>({1, 1, 3, 3}, {0.5, 0.75, -0.75, 1.5, 1.25, 0.25, 1.5, 0.25, 0.25}));
  t.run();
}

// Stride-2 2x2 / 3x3 windows over rows of every width class of the AVX-512
// kernel (one partial 16-output block, exact blocks, a block plus one, the
// third tap's column in the next vector), with padding on either side and
// ceil_mode, against the definition: each output the max over the taps
// inside the image (padding and the ceil overhang never win).
TEST(PoolOp, MaxPoolStride2RowWidths) {
  for (int64_t k : {2, 3})
    for (int64_t w : {1, 2, 15, 16, 17, 31, 32, 33, 34, 55, 111, 112})
      for (int64_t pad : {0, 1})
        for (int64_t ceil : {0, 1}) {
          if (pad >= k || (w + 2 * pad < k)) continue;
          const int64_t h = 7;
          auto outDim = [&](int64_t n) {
            const int64_t span = n + 2 * pad - k;
            int64_t o = (ceil ? (span + 1) / 2 : span / 2) + 1;
            if (ceil && (o - 1) * 2 >= n + pad) --o;
            return o;
          };
          const int64_t oh = outDim(h), ow = outDim(w);
          Tensor x = pat<float>({1, 2, h, w}, int(w + k));
          Tensor y(DataType::kFloat, {1, 2, oh, ow});
          for (int64_t c = 0; c < 2; ++c)
            for (int64_t i = 0; i < oh; ++i)
              for (int64_t j = 0; j < ow; ++j) {
                float m = -INFINITY;
                for (int64_t a = 0; a < k; ++a)
                  for (int64_t b = 0; b < k; ++b) {
                    const int64_t ih = i * 2 - pad + a, iw = j * 2 - pad + b;
                    if (ih >= 0 && ih < h && iw >= 0 && iw < w) m = std::max(m, x.data<float>()[(c * h + ih) * w + iw]);
                  }
                y.data<float>()[(c * oh + i) * ow + j] = m;
              }
          SCOPED_TRACE("k " + std::to_string(k) + " w " + std::to_string(w) + " pad " + std::to_string(pad) +
                       " ceil " + std::to_string(ceil));
          OpTester t("MaxPool", 22);
          t.input("X", x);
          t.attr("kernel_shape", std::vector<int64_t>{k, k});
          t.attr("strides", std::vector<int64_t>{2, 2});
          t.attr("pads", std::vector<int64_t>{pad, pad, pad, pad});
          t.attr("ceil_mode", ceil);
          t.expect("Y", y);
          t.run();
        }
}

// run('MaxPool', 22, X=pat([1, 1, 4, 4], 6), kernel_shape=[2, 2], strides=[2, 2], pads=[0, 0, 1, 1], ceil_mode=1)
TEST(PoolOp, MaxPoolCeilModeLastWindowInRightPadDropped) {
  OpTester t("MaxPool", 22);
  t.input("X", pat<float>({1, 1, 4, 4}, 6));
  t.attr("kernel_shape", std::vector<int64_t>{2, 2});
  t.attr("strides", std::vector<int64_t>{2, 2});
  t.attr("pads", std::vector<int64_t>{0, 0, 1, 1});
  t.attr("ceil_mode", int64_t{1});
  t.expect("Y", Tensor::fromVector<float>({1, 1, 2, 2}, {0.5, 0.75, 1.5, 1.25}));
  t.run();
}

// run('AveragePool', 22, X=pat([1, 1, 4, 4], 6), kernel_shape=[2, 2], strides=[2, 2], pads=[0, 0, 1, 1], ceil_mode=1, count_include_pad=1)
TEST(PoolOp, AveragePoolCeilModeLastWindowInRightPadDropped) {
  OpTester t("AveragePool", 22);
  t.input("X", pat<float>({1, 1, 4, 4}, 6));
  t.attr("kernel_shape", std::vector<int64_t>{2, 2});
  t.attr("strides", std::vector<int64_t>{2, 2});
  t.attr("pads", std::vector<int64_t>{0, 0, 1, 1});
  t.attr("ceil_mode", int64_t{1});
  t.attr("count_include_pad", int64_t{1});
  t.expect("Y", Tensor::fromVector<float>({1, 1, 2, 2}, {-0.5, -0.25, 0.5, -0.0625}));
  t.run();
}

// run('MaxPool', 22, X=pat([2, 2, 3, 4], 7), kernel_shape=[2, 2], strides=[1, 2], pads=[0, 1, 1, 0], outputs=2)
TEST(PoolOp, MaxPoolIndicesRowMajor) {
  OpTester t("MaxPool", 22);
  t.input("X", pat<float>({2, 2, 3, 4}, 7));
  t.attr("kernel_shape", std::vector<int64_t>{2, 2});
  t.attr("strides", std::vector<int64_t>{1, 2});
  t.attr("pads", std::vector<int64_t>{0, 1, 1, 0});
  t.expect("Y", Tensor::fromVector<float>({2, 2, 3, 2}, {0.75, 1, 1.25, 1.5, 1.25, 1.5, -1, 0.75, -0.5, 1.25, -0.5, 1.25, 0.5, 0.75, 1, 1.25, 1, 1.25, 1.5, 0.5, -0.75, 1, -0.75, 1}));
  t.expect("I", Tensor::fromVector<int64_t>({2, 2, 3, 2}, {4, 6, 8, 10, 8, 10, 16, 17, 20, 21, 20, 21, 28, 30, 32, 34, 32, 34, 36, 41, 44, 45, 44, 45}));
  t.run();
}

// run('MaxPool', 22, X=pat([2, 2, 3, 4], 7), kernel_shape=[2, 2], strides=[1, 2], pads=[0, 1, 1, 0], storage_order=1, outputs=2)
TEST(PoolOp, MaxPoolIndicesColMajor) {
  OpTester t("MaxPool", 22);
  t.input("X", pat<float>({2, 2, 3, 4}, 7));
  t.attr("kernel_shape", std::vector<int64_t>{2, 2});
  t.attr("strides", std::vector<int64_t>{1, 2});
  t.attr("pads", std::vector<int64_t>{0, 1, 1, 0});
  t.attr("storage_order", int64_t{1});
  t.expect("Y", Tensor::fromVector<float>({2, 2, 3, 2}, {0.75, 1, 1.25, 1.5, 1.25, 1.5, -1, 0.75, -0.5, 1.25, -0.5, 1.25, 0.5, 0.75, 1, 1.25, 1, 1.25, 1.5, 0.5, -0.75, 1, -0.75, 1}));
  t.expect("I", Tensor::fromVector<int64_t>({2, 2, 3, 2}, {1, 7, 2, 8, 2, 8, 13, 16, 14, 17, 14, 17, 25, 31, 26, 32, 26, 32, 36, 40, 38, 41, 38, 41}));
  t.run();
}

// run('MaxPool', 22, X=pat([1, 2, 3, 3, 4], 1), kernel_shape=[2, 2, 2], strides=[1, 2, 2], storage_order=1, outputs=2)
TEST(PoolOp, MaxPool3DIndicesColMajor) {
  OpTester t("MaxPool", 22);
  t.input("X", pat<float>({1, 2, 3, 3, 4}, 1));
  t.attr("kernel_shape", std::vector<int64_t>{2, 2, 2});
  t.attr("strides", std::vector<int64_t>{1, 2, 2});
  t.attr("storage_order", int64_t{1});
  t.expect("Y", Tensor::fromVector<float>({1, 2, 2, 1, 2}, {1, 1.25, 0.75, 1, 1.5, 0.75, 1.5, 0.75}));
  t.expect("I", Tensor::fromVector<int64_t>({1, 2, 2, 1, 2}, {12, 30, 4, 22, 37, 57, 37, 67}));
  t.run();
}

// run('MaxPool', 22, X=pat([1, 1, 3, 4, 3], 2), kernel_shape=[2, 3, 2], pads=[1, 1, 0, 0, 1, 1], outputs=2)
TEST(PoolOp, MaxPool3DIndices) {
  OpTester t("MaxPool", 22);
  t.input("X", pat<float>({1, 1, 3, 4, 3}, 2));
  t.attr("kernel_shape", std::vector<int64_t>{2, 3, 2});
  t.attr("pads", std::vector<int64_t>{1, 1, 0, 0, 1, 1});
  t.expect("Y", Tensor::fromVector<float>({1, 1, 3, 4, 3}, {1, 1.25, 1.25, 1.5, 1.5, 1.25, 1.5, 1.5, 1.25, 1.5, 1.5, 0, 1, 1.25, 1.25, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1, 1, 1, 1.25, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5}));
  t.expect("I", Tensor::fromVector<int64_t>({1, 1, 3, 4, 3}, {3, 5, 5, 7, 7, 5, 7, 7, 5, 7, 7, 8, 3, 5, 5, 7, 7, 20, 7, 7, 20, 7, 7, 20, 16, 16, 29, 18, 20, 20, 33, 20, 20, 33, 20, 20}));
  t.run();
}

// run('MaxPool', 22, X=pat([1, 2, 7], 3), kernel_shape=[3], strides=[2], pads=[1, 1], outputs=2)
TEST(PoolOp, MaxPool1DIndices) {
  OpTester t("MaxPool", 22);
  t.input("X", pat<float>({1, 2, 7}, 3));
  t.attr("kernel_shape", std::vector<int64_t>{3});
  t.attr("strides", std::vector<int64_t>{2});
  t.attr("pads", std::vector<int64_t>{1, 1});
  t.expect("Y", Tensor::fromVector<float>({1, 2, 4}, {1, 1.25, 1.5, 1.5, 0.25, 0.5, 0.75, 0.75}));
  t.expect("I", Tensor::fromVector<int64_t>({1, 2, 4}, {1, 3, 5, 5, 8, 10, 12, 12}));
  t.run();
}

// run('MaxPool', 12, X=[-127, -90, -53, -16,  21,  58,  95,-123, -86, -49, -12,  25,  62,  99, -119, -82, -45,  -8,  29,  66, 103,-115, -78, -41,  -4,  33,  70, 107, -111, -74, -37,   0,  37,  74, 111,-107, -70, -33,   4,  41].reshape([1, 2, 4, 5]), kernel_shape=[2, 2], strides=[1, 2])
TEST(PoolOp, MaxPoolInt8) {
  OpTester t("MaxPool", 12);
  t.input("X", Tensor::fromVector<int8_t>({1, 2, 4, 5}, {-127, -90, -53, -16, 21, 58, 95, -123, -86, -49, -12, 25, 62, 99, -119, -82, -45, -8, 29, 66, 103, -115, -78, -41, -4, 33, 70, 107, -111, -74, -37, 0, 37, 74, 111, -107, -70, -33, 4, 41}));
  t.attr("kernel_shape", std::vector<int64_t>{2, 2});
  t.attr("strides", std::vector<int64_t>{1, 2});
  t.expect("Y", Tensor::fromVector<int8_t>({1, 2, 3, 2}, {95, -16, 95, 99, 25, 99, 103, 107, 70, 107, 0, 74}));
  t.run();
}

// run('MaxPool', 22, X=[  0, 53,106,159,212,  9, 62,115,168,221, 18, 71,124,177,230, 27, 80,133, 186,239, 36, 89,142,195,248, 45, 98,151,204,  1, 54,107,160,213, 10, 63].reshape([1, 1, 6, 6]), kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])
TEST(PoolOp, MaxPoolUInt8) {
  OpTester t("MaxPool", 22);
  t.input("X", Tensor::fromVector<uint8_t>({1, 1, 6, 6}, {0, 53, 106, 159, 212, 9, 62, 115, 168, 221, 18, 71, 124, 177, 230, 27, 80, 133, 186, 239, 36, 89, 142, 195, 248, 45, 98, 151, 204, 1, 54, 107, 160, 213, 10, 63}));
  t.attr("kernel_shape", std::vector<int64_t>{3, 3});
  t.attr("strides", std::vector<int64_t>{2, 2});
  t.attr("pads", std::vector<int64_t>{1, 1, 1, 1});
  t.expect("Y", Tensor::fromVector<uint8_t>({1, 1, 3, 3}, {115, 221, 221, 239, 239, 221, 248, 239, 213}));
  t.run();
}

// run('MaxPool', 1, X=pat([1, 1, 4, 4], 1), kernel_shape=[2, 2], strides=[2, 2])
TEST(PoolOp, MaxPoolOpset1) {
  OpTester t("MaxPool", 1);
  t.input("X", pat<float>({1, 1, 4, 4}, 1));
  t.attr("kernel_shape", std::vector<int64_t>{2, 2});
  t.attr("strides", std::vector<int64_t>{2, 2});
  t.expect("Y", Tensor::fromVector<float>({1, 1, 2, 2}, {1, 1.25, 1.5, 0.5}));
  t.run();
}

// run('MaxPool', 8, X=pat([1, 1, 4, 4], 2), kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[2, 2], outputs=2)
TEST(PoolOp, MaxPoolOpset8Indices) {
  OpTester t("MaxPool", 8);
  t.input("X", pat<float>({1, 1, 4, 4}, 2));
  t.attr("kernel_shape", std::vector<int64_t>{3, 3});
  t.attr("pads", std::vector<int64_t>{1, 1, 1, 1});
  t.attr("strides", std::vector<int64_t>{2, 2});
  t.expect("Y", Tensor::fromVector<float>({1, 1, 2, 2}, {1.25, 1.5, 1.25, 1.5}));
  t.expect("I", Tensor::fromVector<int64_t>({1, 1, 2, 2}, {5, 7, 5, 7}));
  t.run();
}

// run('MaxPool', 10, X=pat([1, 1, 6, 7], 3), kernel_shape=[2, 2], dilations=[1, 2], strides=[2, 2], ceil_mode=1)
TEST(PoolOp, MaxPoolOpset10CeilDilation) {
  OpTester t("MaxPool", 10);
  t.input("X", pat<float>({1, 1, 6, 7}, 3));
  t.attr("kernel_shape", std::vector<int64_t>{2, 2});
  t.attr("dilations", std::vector<int64_t>{1, 2});
  t.attr("strides", std::vector<int64_t>{2, 2});
  t.attr("ceil_mode", int64_t{1});
  t.expect("Y", Tensor::fromVector<float>({1, 1, 3, 3}, {-0.5, -0.25, 0, 1.25, 1.5, 1.5, -0.25, 0, 0.25}));
  t.run();
}

// run('MaxPool', 22, X=pat([1, 1, 4, 4], 4), kernel_shape=[3, 3], pads=[1, 1, 1, 1])
TEST(PoolOp, MaxPoolDouble) {
  OpTester t("MaxPool", 22);
  t.input("X", pat<double>({1, 1, 4, 4}, 4));
  t.attr("kernel_shape", std::vector<int64_t>{3, 3});
  t.attr("pads", std::vector<int64_t>{1, 1, 1, 1});
  t.expect("Y", Tensor::fromVector<double>({1, 1, 4, 4}, {1.25, 1.25, 1.5, 1.5, 1.25, 1.25, 1.5, 1.5, 1, 1.25, 1.25, 1.25, 1, 1.25, 1.25, 1.25}));
  t.run();
}

// run('AveragePool', 22, X=pat([1, 1, 5, 5], 0), kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[2, 2])
TEST(PoolOp, AveragePoolPadsExclude) {
  OpTester t("AveragePool", 22);
  t.input("X", pat<float>({1, 1, 5, 5}, 0));
  t.attr("kernel_shape", std::vector<int64_t>{3, 3});
  t.attr("pads", std::vector<int64_t>{1, 1, 1, 1});
  t.attr("strides", std::vector<int64_t>{2, 2});
  t.expect("Y", Tensor::fromVector<float>({1, 1, 3, 3}, {-0.3125, -0.125, 0.0625, 0.0833333358, 0, -0.0833333358, -0.0625, 0.125, 0.3125}));
  t.run();
}

// run('AveragePool', 22, X=pat([1, 1, 5, 5], 0), kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[2, 2], count_include_pad=1)
TEST(PoolOp, AveragePoolPadsInclude) {
  OpTester t("AveragePool", 22);
  t.input("X", pat<float>({1, 1, 5, 5}, 0));
  t.attr("kernel_shape", std::vector<int64_t>{3, 3});
  t.attr("pads", std::vector<int64_t>{1, 1, 1, 1});
  t.attr("strides", std::vector<int64_t>{2, 2});
  t.attr("count_include_pad", int64_t{1});
  t.expect("Y", Tensor::fromVector<float>({1, 1, 3, 3}, {-0.138888896, -0.0833333358, 0.027777778, 0.055555556, 0, -0.055555556, -0.027777778, 0.0833333358, 0.138888896}));
  t.run();
}

// run('AveragePool', 22, X=pat([1, 1, 6, 6], 1), kernel_shape=[3, 3], pads=[1, 1, 0, 0], strides=[2, 2], ceil_mode=1, count_include_pad=1)
TEST(PoolOp, AveragePoolCeilInclude) {
  OpTester t("AveragePool", 22);
  t.input("X", pat<float>({1, 1, 6, 6}, 1));
  t.attr("kernel_shape", std::vector<int64_t>{3, 3});
  t.attr("pads", std::vector<int64_t>{1, 1, 0, 0});
  t.attr("strides", std::vector<int64_t>{2, 2});
  t.attr("ceil_mode", int64_t{1});
  t.attr("count_include_pad", int64_t{1});
  t.expect("Y", Tensor::fromVector<float>({1, 1, 3, 3}, {0, 0.305555552, 0.111111112, 0.027777778, 0.138888896, 0.027777778, -0.055555556, 0.194444448, 0.444444448}));
  t.run();
}

// run('AveragePool', 22, X=pat([1, 2, 5, 4], 2), kernel_shape=[2, 3], strides=[2, 2], ceil_mode=1)
TEST(PoolOp, AveragePoolCeilExclude) {
  OpTester t("AveragePool", 22);
  t.input("X", pat<float>({1, 2, 5, 4}, 2));
  t.attr("kernel_shape", std::vector<int64_t>{2, 3});
  t.attr("strides", std::vector<int64_t>{2, 2});
  t.attr("ceil_mode", int64_t{1});
  t.expect("Y", Tensor::fromVector<float>({1, 2, 3, 2}, {-0.0833333358, 0.375, -0.166666672, -0.25, 0.583333313, 0.5, -0.291666657, -0.375, 0.166666672, -0.1875, -0.166666672, -0.25}));
  t.run();
}

// run('AveragePool', 22, X=pat([1, 1, 5, 6], 3), kernel_shape=[3, 2], strides=[2, 2], auto_pad='SAME_UPPER')
TEST(PoolOp, AveragePoolSameUpper) {
  OpTester t("AveragePool", 22);
  t.input("X", pat<float>({1, 1, 5, 6}, 3));
  t.attr("kernel_shape", std::vector<int64_t>{3, 2});
  t.attr("strides", std::vector<int64_t>{2, 2});
  t.attr("auto_pad", "SAME_UPPER");
  t.expect("Y", Tensor::fromVector<float>({1, 1, 3, 3}, {-0.3125, -0.0625, 0.1875, 0, -0.291666657, -0.0416666679, 0.3125, -0.25, 0}));
  t.run();
}

// run('AveragePool', 22, X=pat([1, 1, 5, 6], 3), kernel_shape=[3, 2], strides=[2, 2], auto_pad='SAME_LOWER', count_include_pad=1)
TEST(PoolOp, AveragePoolSameLowerInclude) {
  OpTester t("AveragePool", 22);
  t.input("X", pat<float>({1, 1, 5, 6}, 3));
  t.attr("kernel_shape", std::vector<int64_t>{3, 2});
  t.attr("strides", std::vector<int64_t>{2, 2});
  t.attr("auto_pad", "SAME_LOWER");
  t.attr("count_include_pad", int64_t{1});
  t.expect("Y", Tensor::fromVector<float>({1, 1, 3, 3}, {-0.208333328, -0.0416666679, 0.125, 0, -0.291666657, -0.0416666679, 0.208333328, -0.166666672, 0}));
  t.run();
}

// run('AveragePool', 22, X=pat([1, 1, 5, 6], 4), kernel_shape=[2, 2], auto_pad='VALID')
TEST(PoolOp, AveragePoolValid) {
  OpTester t("AveragePool", 22);
  t.input("X", pat<float>({1, 1, 5, 6}, 4));
  t.attr("kernel_shape", std::vector<int64_t>{2, 2});
  t.attr("auto_pad", "VALID");
  t.expect("Y", Tensor::fromVector<float>({1, 1, 4, 5}, {-0.0625, 0.0625, 0.1875, 0.3125, -0.375, -0.125, 0, 0.125, 0.25, 0.375, -0.1875, -0.0625, 0.0625, 0.1875, 0.3125, -0.25, -0.125, 0, 0.125, 0.25}));
  t.run();
}

// run('AveragePool', 19, X=pat([1, 1, 6, 6], 5), kernel_shape=[2, 2], dilations=[2, 2], pads=[1, 1, 1, 1], count_include_pad=1)
TEST(PoolOp, AveragePoolDilations) {
  OpTester t("AveragePool", 19);
  t.input("X", pat<float>({1, 1, 6, 6}, 5));
  t.attr("kernel_shape", std::vector<int64_t>{2, 2});
  t.attr("dilations", std::vector<int64_t>{2, 2});
  t.attr("pads", std::vector<int64_t>{1, 1, 1, 1});
  t.attr("count_include_pad", int64_t{1});
  t.expect("Y", Tensor::fromVector<float>({1, 1, 6, 6}, {-0.25, 0.3125, -0.4375, 0.4375, -0.3125, 0.25, 0.3125, 0.625, -0.0625, 0.0625, -0.625, -0.3125, -0.125, -0.25, -0.125, 0, 0.125, 0.0625, 0.25, 0.5, 0.625, -0.0625, 0.0625, -0.375, -0.1875, -0.375, -0.25, -0.125, 0, 0, 0.3125, -0.1875, 0.6875, -0.0625, 0, 0}));
  t.run();
}

// run('AveragePool', 19, X=pat([1, 1, 6, 6], 5), kernel_shape=[2, 2], dilations=[2, 2], pads=[1, 1, 1, 1])
TEST(PoolOp, AveragePoolDilationsExclude) {
  OpTester t("AveragePool", 19);
  t.input("X", pat<float>({1, 1, 6, 6}, 5));
  t.attr("kernel_shape", std::vector<int64_t>{2, 2});
  t.attr("dilations", std::vector<int64_t>{2, 2});
  t.attr("pads", std::vector<int64_t>{1, 1, 1, 1});
  t.expect("Y", Tensor::fromVector<float>({1, 1, 6, 6}, {-1, 0.625, -0.875, 0.875, -0.625, 1, 0.625, 0.625, -0.0625, 0.0625, -0.625, -0.625, -0.25, -0.25, -0.125, 0, 0.125, 0.125, 0.5, 0.5, 0.625, -0.0625, 0.0625, -0.75, -0.375, -0.375, -0.25, -0.125, 0, 0, 1.25, -0.375, 1.375, -0.125, 0, 0}));
  t.run();
}

// run('AveragePool', 22, X=pat([2, 1, 7], 6), kernel_shape=[3], strides=[2], pads=[1, 1])
TEST(PoolOp, AveragePool1D) {
  OpTester t("AveragePool", 22);
  t.input("X", pat<float>({2, 1, 7}, 6));
  t.attr("kernel_shape", std::vector<int64_t>{3});
  t.attr("strides", std::vector<int64_t>{2});
  t.attr("pads", std::vector<int64_t>{1, 1});
  t.expect("Y", Tensor::fromVector<float>({2, 1, 4}, {-0.75, -0.833333313, -0.583333313, -0.125, 0.125, 0.583333313, 0.833333313, 0.75}));
  t.run();
}

// run('AveragePool', 22, X=pat([1, 1, 3, 4, 4], 7), kernel_shape=[2, 2, 3], strides=[1, 2, 1], pads=[0, 1, 1, 1, 0, 1], count_include_pad=1)
TEST(PoolOp, AveragePool3D) {
  OpTester t("AveragePool", 22);
  t.input("X", pat<float>({1, 1, 3, 4, 4}, 7));
  t.attr("kernel_shape", std::vector<int64_t>{2, 2, 3});
  t.attr("strides", std::vector<int64_t>{1, 2, 1});
  t.attr("pads", std::vector<int64_t>{0, 1, 1, 1, 0, 1});
  t.attr("count_include_pad", int64_t{1});
  t.expect("Y", Tensor::fromVector<float>({1, 1, 3, 2, 4}, {-0.104166664, -0.125, -0.0625, -0.020833334, 0.020833334, 0.229166672, 0.0833333358, 0.1875, 0.020833334, 0.0625, 0.125, 0.104166664, 0, -0.208333328, -0.0833333358, -0.104166664, 0.0416666679, 0.145833328, 0.0416666679, 0.0833333358, 0.0625, -0.145833328, -0.0833333358, -0.125}));
  t.run();
}

// AveragePool-1 divides by the number of elements excluding pads (its spec
// text; it had no count_include_pad). onnxruntime has no version-1 kernel and
// onnx.reference counts the pads here, so the values are version 7's default:
// run('AveragePool', 7, X=pat([1, 1, 4, 4], 1), kernel_shape=[2, 2], pads=[1, 1, 1, 1], strides=[2, 2])
TEST(PoolOp, AveragePoolOpset1) {
  OpTester t("AveragePool", 1);
  t.input("X", pat<float>({1, 1, 4, 4}, 1));
  t.attr("kernel_shape", std::vector<int64_t>{2, 2});
  t.attr("pads", std::vector<int64_t>{1, 1, 1, 1});
  t.attr("strides", std::vector<int64_t>{2, 2});
  t.expect("Y", Tensor::fromVector<float>({1, 1, 3, 3}, {-1.25, -0.25, 0.75, -0.5, 0.5, -0.125, 0.25, -0.375, -1}));
  t.run();
}

// run('AveragePool', 7, X=pat([1, 1, 4, 4], 1), kernel_shape=[2, 2], pads=[1, 1, 1, 1], strides=[2, 2], count_include_pad=1)
TEST(PoolOp, AveragePoolOpset7) {
  OpTester t("AveragePool", 7);
  t.input("X", pat<float>({1, 1, 4, 4}, 1));
  t.attr("kernel_shape", std::vector<int64_t>{2, 2});
  t.attr("pads", std::vector<int64_t>{1, 1, 1, 1});
  t.attr("strides", std::vector<int64_t>{2, 2});
  t.attr("count_include_pad", int64_t{1});
  t.expect("Y", Tensor::fromVector<float>({1, 1, 3, 3}, {-0.3125, -0.125, 0.1875, -0.25, 0.5, -0.0625, 0.0625, -0.1875, -0.25}));
  t.run();
}

// run('AveragePool', 10, X=pat([1, 1, 5, 5], 2), kernel_shape=[2, 2], strides=[2, 2], ceil_mode=1)
TEST(PoolOp, AveragePoolOpset10Ceil) {
  OpTester t("AveragePool", 10);
  t.input("X", pat<float>({1, 1, 5, 5}, 2));
  t.attr("kernel_shape", std::vector<int64_t>{2, 2});
  t.attr("strides", std::vector<int64_t>{2, 2});
  t.attr("ceil_mode", int64_t{1});
  t.expect("Y", Tensor::fromVector<float>({1, 1, 3, 3}, {0.1875, 0.4375, -1, -0.1875, 0.0625, 0.25, 0.75, -0.625, -1.25}));
  t.run();
}

// run('AveragePool', 11, X=pat([1, 1, 5, 5], 2), kernel_shape=[3, 3], pads=[0, 0, 2, 2], strides=[2, 2])
TEST(PoolOp, AveragePoolOpset11) {
  OpTester t("AveragePool", 11);
  t.input("X", pat<float>({1, 1, 5, 5}, 2));
  t.attr("kernel_shape", std::vector<int64_t>{3, 3});
  t.attr("pads", std::vector<int64_t>{0, 0, 2, 2});
  t.attr("strides", std::vector<int64_t>{2, 2});
  t.expect("Y", Tensor::fromVector<float>({1, 1, 3, 3}, {0.111111112, 0, -0.416666657, -0.0833333358, -0.194444448, -0.25, 0, -0.833333313, -1.25}));
  t.run();
}

// run('LpPool', 22, X=pat([1, 2, 4, 4], 0), kernel_shape=[2, 2], strides=[2, 2], p=2)
TEST(PoolOp, LpPoolP2) {
  OpTester t("LpPool", 22);
  t.input("X", pat<float>({1, 2, 4, 4}, 0));
  t.attr("kernel_shape", std::vector<int64_t>{2, 2});
  t.attr("strides", std::vector<int64_t>{2, 2});
  t.attr("p", int64_t{2});
  t.expect("Y", Tensor::fromVector<float>({1, 2, 2, 2}, {1.96850193, 1.83711731, 2.01556444, 1.98431349, 1.58113885, 1.65831244, 2.01556444, 1.96850193}));
  t.run();
}

// run('LpPool', 18, X=pat([1, 1, 5, 5], 1), kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1], p=3)
TEST(PoolOp, LpPoolP3Pads) {
  OpTester t("LpPool", 18);
  t.input("X", pat<float>({1, 1, 5, 5}, 1));
  t.attr("kernel_shape", std::vector<int64_t>{3, 3});
  t.attr("strides", std::vector<int64_t>{2, 2});
  t.attr("pads", std::vector<int64_t>{1, 1, 1, 1});
  t.attr("p", int64_t{3});
  t.expect("Y", Tensor::fromVector<float>({1, 1, 3, 3}, {1.47409213, 1.53836238, 1.61781847, 1.80919933, 2.1015296, 1.87518525, 1.50231123, 1.73628747, 1.65096366}));
  t.run();
}

// run('LpPool', 11, X=pat([1, 1, 4, 5], 2), kernel_shape=[2, 3], p=1)
TEST(PoolOp, LpPoolOpset11) {
  OpTester t("LpPool", 11);
  t.input("X", pat<float>({1, 1, 4, 5}, 2));
  t.attr("kernel_shape", std::vector<int64_t>{2, 3});
  t.attr("p", int64_t{1});
  t.expect("Y", Tensor::fromVector<float>({1, 1, 3, 3}, {5.5, 4.25, 5.25, 5, 4.5, 5.25, 4.25, 5.5, 4.25}));
  t.run();
}

// run('GlobalAveragePool', 22, X=pat([2, 3, 2, 3], 0))
TEST(PoolOp, GlobalAveragePool) {
  OpTester t("GlobalAveragePool", 22);
  t.input("X", pat<float>({2, 3, 2, 3}, 0));
  t.expect("Y", Tensor::fromVector<float>({2, 3, 1, 1}, {-0.375, 0.375, -0.5, 0.25, -0.0833333358, 0.125}));
  t.run();
}

// run('GlobalAveragePool', 1, X=pat([1, 2, 2, 2, 3], 1))
TEST(PoolOp, GlobalAveragePool3D) {
  OpTester t("GlobalAveragePool", 1);
  t.input("X", pat<float>({1, 2, 2, 2, 3}, 1));
  t.expect("Y", Tensor::fromVector<float>({1, 2, 1, 1, 1}, {-0.020833334, 0.125}));
  t.run();
}

// run('GlobalMaxPool', 22, X=pat([2, 3, 3, 2], 2))
TEST(PoolOp, GlobalMaxPool) {
  OpTester t("GlobalMaxPool", 22);
  t.input("X", pat<float>({2, 3, 3, 2}, 2));
  t.expect("Y", Tensor::fromVector<float>({2, 3, 1, 1}, {1.25, 1.5, 1, 1.5, 1, 1.5}));
  t.run();
}

// run('GlobalMaxPool', 1, X=pat([1, 2, 5], 3))  (onnx.reference differs here; onnxruntime is right per the spec)
TEST(PoolOp, GlobalMaxPool1D) {
  OpTester t("GlobalMaxPool", 1);
  t.input("X", pat<float>({1, 2, 5}, 3));
  t.expect("Y", Tensor::fromVector<float>({1, 2, 1}, {1.25, 1.5}));
  t.run();
}

// run('GlobalLpPool', 2, X=pat([1, 2, 3, 3], 4), p=3)
TEST(PoolOp, GlobalLpPool) {
  OpTester t("GlobalLpPool", 2);
  t.input("X", pat<float>({1, 2, 3, 3}, 4));
  t.attr("p", int64_t{3});
  t.expect("Y", Tensor::fromVector<float>({1, 2, 1, 1}, {2.21975994, 2.02570987}));
  t.run();
}

// run('GlobalLpPool', 2, X=pat([1, 2, 3, 3], 4))
TEST(PoolOp, GlobalLpPoolDefaultP) {
  OpTester t("GlobalLpPool", 2);
  t.input("X", pat<float>({1, 2, 3, 3}, 4));
  t.expect("Y", Tensor::fromVector<float>({1, 2, 1, 1}, {2.87228131, 2.69258237}));
  t.run();
}

// run('LRN', 13, X=pat([1, 5, 2, 2], 0), size=3, alpha=0.5, beta=0.75, bias=2.0)  (onnx.reference differs here; onnxruntime is right per the spec)
TEST(PoolOp, LrnOddSize) {
  OpTester t("LRN", 13);
  t.input("X", pat<float>({1, 5, 2, 2}, 0));
  t.attr("size", int64_t{3});
  t.attr("alpha", 0.5f);
  t.attr("beta", 0.75f);
  t.attr("bias", 2.0f);
  t.expect("Y", Tensor::fromVector<float>({1, 5, 2, 2}, {-0.745164752, 0.14309679, -0.65770638, 0.276007891, -0.490754902, 0.393319309, -0.393319309, 0.490754902, -0.276007891, 0.588691115, -0.142567784, 0.692596734, 0, -0.692596734, 0.142567784, -0.588691115, 0.292739511, -0.496776491, 0.429290354, -0.394623846}));
  t.run();
}

// run('LRN', 1, X=pat([1, 6, 2, 2], 2), size=5)
TEST(PoolOp, LrnOpset1Defaults) {
  OpTester t("LRN", 1);
  t.input("X", pat<float>({1, 6, 2, 2}, 2));
  t.attr("size", int64_t{5});
  t.expect("Y", Tensor::fromVector<float>({1, 6, 2, 2}, {-0.999981225, 0.749950886, -0.749992371, 0.999927878, -0.499988735, 1.24989939, -0.249995351, 1.49987924, 0, -1.49987364, 0.249989495, -1.2498982, 0.499971896, -0.999924123, 0.749949515, -0.749949515, 0.999947548, -0.499973774, 1.24991703, -0.249991596, 1.49992132, 0, -1.49990177, 0.249997452}));
  t.run();
}

// run('MaxPool', 22, X=pat([1, 2, 4, 4], 3), kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])
TEST(PoolOp, MaxPoolFloat16) {
  OpTester t("MaxPool", 22);
  t.input("X", pat<Float16>({1, 2, 4, 4}, 3));
  t.attr("kernel_shape", std::vector<int64_t>{3, 3});
  t.attr("strides", std::vector<int64_t>{2, 2});
  t.attr("pads", std::vector<int64_t>{1, 1, 1, 1});
  t.expect("Y", halfTensor({1, 2, 2, 2}, {1.5, 1.5, 1.5, 1.5, 1.25, 1.5, 1.25, 1.5}));
  t.run();
}

// run('AveragePool', 22, X=pat([1, 2, 4, 4], 3), kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])
TEST(PoolOp, AveragePoolFloat16) {
  OpTester t("AveragePool", 22);
  t.input("X", pat<Float16>({1, 2, 4, 4}, 3));
  t.attr("kernel_shape", std::vector<int64_t>{3, 3});
  t.attr("strides", std::vector<int64_t>{2, 2});
  t.attr("pads", std::vector<int64_t>{1, 1, 1, 1});
  t.expect("Y", halfTensor({1, 2, 2, 2}, {0.375, 0.291748047, 0.0416564941, -0.222167969, -0.0625, 0.125, -0.125, 0.333251953}));
  t.run();
}

// run('GlobalAveragePool', 22, X=pat([1, 3, 3, 3], 5), engine='reference')
TEST(PoolOp, GlobalAveragePoolDouble) {
  OpTester t("GlobalAveragePool", 22);
  t.input("X", pat<double>({1, 3, 3, 3}, 5));
  t.expect("Y", Tensor::fromVector<double>({1, 3, 1, 1}, {-0.111111111, 0.111111111, -0.0277777778}));
  t.run();
}

// LRN with an even size: the window is [c - 0, c + 1]. onnxruntime rejects
// even sizes and onnx.reference centres the window differently, so this is
// the spec's formula in numpy:
//   def lrn(x, size, alpha, beta, bias):
//       C = x.shape[1]; sq = np.zeros_like(x)
//       for c in range(C):
//           lo = max(0, c - (size - 1) // 2); hi = min(C - 1, c + int(np.ceil((size - 1) / 2)))
//           sq[:, c] = (x[:, lo:hi + 1] ** 2).sum(1)
//       return x / (bias + alpha / size * sq) ** beta
//   lrn(pat([2, 4, 1, 3], 1), 2, 0.1, 0.5, 1.0)
TEST(PoolOp, LrnEvenSize) {
  OpTester t("LRN", 13);
  t.input("X", pat<float>({2, 4, 1, 3}, 1));
  t.attr("size", int64_t{2}).attr("alpha", 0.1f).attr("beta", 0.5f).attr("bias", 1.0f);
  t.expect("Y", Tensor::fromVector<float>({2, 4, 1, 3}, {-1.18845665, 0.49014309, -0.953462601, 0.735214651,
                                                         -0.713073969, 0.974451065, -0.471404552, 1.20385861,
                                                         -0.236690536, 1.42213643, 0, -1.42213643, 0.243612766,
                                                         -1.18845665, 0.49014309, -0.953462601, 0.735214651,
                                                         -0.713073969, 0.974451065, -0.471404552, 1.20385861,
                                                         -0.24961029, 1.42213643, 0}));
  t.run();
}

// GlobalLpPool-22 has no onnxruntime kernel; the op did not change since
// version 2, so this is the GlobalLpPool-2 literal above, and numpy agrees:
//   x = pat([1, 2, 3, 3], 4); (np.abs(x) ** 3).sum(axis=(2, 3), keepdims=True) ** (1 / 3)
TEST(PoolOp, GlobalLpPoolOpset22) {
  OpTester t("GlobalLpPool", 22);
  t.input("X", pat<float>({1, 2, 3, 3}, 4));
  t.attr("p", int64_t{3});
  t.expect("Y", Tensor::fromVector<float>({1, 2, 1, 1}, {2.21976018, 2.02570987}));
  t.run();
}

// LpPool-1 took p as a float; the math is that of the LpPool-11 test above
// (onnxruntime has no LpPool-1 kernel):
//   run('LpPool', 11, X=pat([1, 1, 4, 5], 2), kernel_shape=[2, 3], p=1)
TEST(PoolOp, LpPoolOpset1FloatP) {
  OpTester t("LpPool", 1);
  t.input("X", pat<float>({1, 1, 4, 5}, 2)).attr("kernel_shape", std::vector<int64_t>{2, 3}).attr("p", 1.0f);
  t.expect("Y", Tensor::fromVector<float>({1, 1, 3, 3}, {5.5, 4.25, 5.25, 5, 4.5, 5.25, 4.25, 5.5, 4.25}));
  t.run();
}

// MaxPool over a plane large enough that the N*C planes split across threads
// and every window kind (border, interior) appears; checked against a
// direct loop.
TEST(PoolOp, MaxPoolAndAverageLargeAgainstLoop) {
  const int64_t N = 2, C = 5, H = 23, W = 19, K = 3, S = 2, P = 1;
  const int64_t OH = (H + 2 * P - K) / S + 1, OW = (W + 2 * P - K) / S + 1;
  Tensor x = pat<float>({N, C, H, W}, 3);
  for (int64_t i = 0; i < x.numel(); ++i) x.data<float>()[i] += static_cast<float>(i % 17) * 0.01f;
  Tensor ym(DataType::kFloat, {N, C, OH, OW}), ya(DataType::kFloat, {N, C, OH, OW});
  for (int64_t p = 0; p < N * C; ++p)
    for (int64_t oh = 0; oh < OH; ++oh)
      for (int64_t ow = 0; ow < OW; ++ow) {
        float mx = -1e30f, sum = 0;
        for (int64_t kh = 0; kh < K; ++kh)
          for (int64_t kw = 0; kw < K; ++kw) {
            const int64_t ih = oh * S - P + kh, iw = ow * S - P + kw;
            if (ih < 0 || ih >= H || iw < 0 || iw >= W) continue;
            const float v = x.data<float>()[(p * H + ih) * W + iw];
            mx = std::max(mx, v);
            sum += v;
          }
        ym.data<float>()[(p * OH + oh) * OW + ow] = mx;
        ya.data<float>()[(p * OH + oh) * OW + ow] = sum / (K * K);  // count_include_pad = 1
      }
  const std::vector<int64_t> ks{K, K}, ss{S, S}, ps{P, P, P, P};
  OpTester m("MaxPool", 22);
  m.input("X", x).attr("kernel_shape", ks).attr("strides", ss).attr("pads", ps).expect("Y", ym);
  m.run();
  OpTester a("AveragePool", 22);
  a.input("X", x).attr("kernel_shape", ks).attr("strides", ss).attr("pads", ps).attr("count_include_pad", 1);
  a.expect("Y", ya);
  a.run();
}

// ---- errors -------------------------------------------------------------------

TEST(PoolOp, ErrorMissingKernelShape) {
  OpTester t("MaxPool", 22);
  t.input("X", pat<float>({1, 1, 4, 4}, 0)).output("Y");
  t.expectError("node 'MaxPool_under_test' (MaxPool): attribute 'kernel_shape' is required");
}

TEST(PoolOp, ErrorKernelShapeLength) {
  OpTester t("AveragePool", 22);
  t.input("X", pat<float>({1, 1, 4, 4}, 0)).attr("kernel_shape", std::vector<int64_t>{2, 2, 2}).output("Y");
  t.expectError("attribute 'kernel_shape' [2,2,2] has 3 values, expected 2 (one per spatial dim)");
}

TEST(PoolOp, ErrorPadsLength) {
  OpTester t("MaxPool", 22);
  t.input("X", pat<float>({1, 1, 4, 4}, 0)).attr("kernel_shape", std::vector<int64_t>{2, 2});
  t.attr("pads", std::vector<int64_t>{1, 1}).output("Y");
  t.expectError("attribute 'pads' [1,1] has 2 values, expected 4");
}

TEST(PoolOp, ErrorKernelLargerThanInput) {
  OpTester t("MaxPool", 22);
  t.input("X", pat<float>({1, 1, 4, 2}, 0)).attr("kernel_shape", std::vector<int64_t>{2, 3}).output("Y");
  t.expectError("spatial dim 1: input size 2 with padding is smaller than the kernel extent 3");
}

TEST(PoolOp, ErrorRankTooLow) {
  OpTester t("GlobalAveragePool", 22);
  t.input("X", pat<float>({2, 3}, 0)).output("Y");
  t.expectError("input 0 ('X') has shape [2,3], expected rank >= 3");
}

// ---- shape inference with symbolic dims ----------------------------------------

TEST(PoolShape, SymbolicMaxPoolWithIndices) {
  Node node;
  node.opType = "MaxPool";
  node.name = "mp";
  node.inputs = {"X"};
  node.outputs = {"Y", "I"};
  Attribute k;
  k.name = "kernel_shape";
  k.type = AttrType::kInts;
  k.ints = {3, 3};
  node.attributes.push_back(k);
  ValueInfo x;
  x.name = "X";
  x.dtype = DataType::kFloat;
  x.hasShape = true;
  x.shape = {Dim::sym("n"), Dim::sym("c"), Dim::sym("h"), 9};
  shape::SymbolGenerator symbols;
  shape::InferContext ctx(node, 22, symbols);
  ctx.inputs_ = {&x};
  ctx.values_ = {nullptr};
  ctx.symValues_ = {nullptr};
  ctx.outputs_.resize(2);
  ctx.outputSet_.assign(2, false);
  ctx.outputValues_.resize(2);
  ctx.outputSymValues_.resize(2);
  builtinRegistry().find("", "MaxPool", 22)->shape(ctx);
  const Shape& y = ctx.outputs_[0].shape;
  ASSERT_EQ(y.size(), 4u);
  EXPECT_EQ(y[0], Dim::sym("n"));
  EXPECT_EQ(y[1], Dim::sym("c"));
  EXPECT_FALSE(y[2].isStatic());
  EXPECT_NE(y[2], Dim::sym("h"));
  EXPECT_EQ(y[3], Dim(7));
  EXPECT_EQ(ctx.outputs_[1].dtype, DataType::kInt64);
  EXPECT_EQ(shapeToString(ctx.outputs_[1].shape), shapeToString(y));
}

}  // namespace oinfer::testing
