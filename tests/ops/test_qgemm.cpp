// The integer GEMM (ops/cpu/qgemm) and the ops on it: QLinearMatMul,
// MatMulInteger, QLinearConv, ConvInteger, DynamicQuantizeLinear.
//
// QGemm.*: every variant the CPU runs against the portable one, bit for
// bit, and the portable one against the definition (int64 sums). The ops
// against straightforward loops of the definition on random shapes (the
// same float32 requantization: float(acc) * (sa * sb / sy), clamped, round
// half to even), and against onnxruntime on a few fixed cases, produced by:
//
//   import numpy as np, onnx, onnxruntime as ort
//   from onnx import helper as h, TensorProto as TP
//   def pat(shape, seed, dtype):  # same as pat<T> below
//       n = int(np.prod(shape)); lo = 0 if dtype == np.uint8 else -128
//       return np.array([(i * 37 + seed * 11) % 256 + lo for i in range(n)], dtype=dtype).reshape(shape)
//   def run(op, opset, **kw):  # ndarray / numpy scalar kwargs are inputs (in order), the rest attributes
//       ins = {k: np.asarray(v) for k, v in kw.items() if isinstance(v, (np.ndarray, np.generic))}
//       attrs = {k: v for k, v in kw.items() if k not in ins}
//       ty = lambda a: onnx.helper.np_dtype_to_tensor_dtype(a.dtype)
//       node = h.make_node(op, list(ins), ['Y'], **attrs)
//       g = h.make_graph([node], 'g', [h.make_tensor_value_info(k, ty(v), v.shape) for k, v in ins.items()],
//                        [h.make_tensor_value_info('Y', ty(ins['yz']), None)])
//       m = h.make_model(g, opset_imports=[h.make_opsetid('', opset)])
//       return ort.InferenceSession(m.SerializeToString(), providers=['CPUExecutionProvider']).run(None, ins)[0]
//   f32 = lambda v: np.array(v, np.float32)
//
// The op tests run again under OINFER_CPU_CAP=avx2 / generic / avx512
// (tests/CMakeLists.txt, Kernels.On_* and Int8Kernels.On_avx512), so each
// op's every ISA meets the same expectations.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "oinfer/thread_pool.h"
#include "op_tester.h"
#include "ops/cpu/qgemm/qgemm.h"
#include "ops/cpu/quantize_simd.h"

namespace oinfer::testing {
namespace {

using cpu::KernelIsa;
namespace qg = cpu::qgemm;

template <class T>
Tensor pat(std::vector<int64_t> shape, int seed) {
  Tensor t(dataTypeOf<T>, std::move(shape));
  const int lo = std::is_same_v<T, uint8_t> ? 0 : -128;
  for (int64_t i = 0; i < t.numel(); ++i) t.data<T>()[i] = static_cast<T>((i * 37 + seed * 11) % 256 + lo);
  return t;
}

// The qgemm ISAs this CPU (under its cap) can run.
std::vector<KernelIsa> qgemmIsas() {
  std::vector<KernelIsa> v{KernelIsa::kPortable};
  const cpu::CpuFeatures& f = cpu::cpuFeatures();
#if defined(__x86_64__)
  if (f.avx2Fma()) v.push_back(KernelIsa::kAvx2);
  if (f.avx512() && f.avx512vnni) v.push_back(KernelIsa::kAvx512Vnni);
#endif
  (void)f;
  return v;
}

// Operand values: uniform, or at the extremes (255 / -128 / 127, the
// pairs that saturate vpmaddubsw), or all one value.
void fill(std::vector<uint8_t>& v, int mode, std::mt19937& rng) {
  for (auto& e : v) {
    switch (mode) {
      case 0: e = static_cast<uint8_t>(rng()); break;
      case 1: e = rng() % 2 ? 0x80 : 0x7F; break;  // int8 -128 / 127, uint8 128 / 127
      case 2: e = rng() % 2 ? 0xFF : 0x00; break;
      default: e = 0xFF; break;
    }
  }
}

TEST(QGemm, VariantsEqualPortableAndDefinition) {
  std::mt19937 rng(7);
  ThreadPool pool(2);
  const std::vector<KernelIsa> isas = qgemmIsas();
  int compared = 0;
  for (int it = 0; it < 400; ++it) {
    const int64_t M = rng() % 37 + 1, K = it % 50 == 0 ? 300 + rng() % 50 : rng() % 71 + 1, N = rng() % 75 + 1;
    const bool aS = rng() % 2, bS = rng() % 2, transB = rng() % 2, perCol = rng() % 2, bias = rng() % 2;
    std::vector<uint8_t> A(M * K), B(K * N);
    fill(A, rng() % 4, rng);
    fill(B, rng() % 4, rng);
    // Zero points at random or at the type's extremes.
    auto zp = [&](bool s) -> int32_t {
      const int r = rng() % 4;
      if (r == 0) return s ? -128 : 0;
      if (r == 1) return s ? 127 : 255;
      return s ? static_cast<int8_t>(rng()) : static_cast<uint8_t>(rng());
    };
    const int32_t za = zp(aS);
    std::vector<int32_t> zb(perCol ? N : 1);
    for (auto& z : zb) z = zp(bS);
    if (rng() % 4 == 0) zb.assign(zb.size(), 0);
    std::vector<int32_t> bv(N);
    for (auto& b : bv) b = static_cast<int32_t>(rng() % 200001) - 100000;
    std::vector<float> sc(N);
    for (auto& s : sc) s = std::uniform_real_distribution<float>(1e-6f, 3e-3f)(rng);
    const qg::QOut kind = static_cast<qg::QOut>(rng() % 4);
    const int32_t yzp = kind == qg::QOut::kUInt8 ? static_cast<int32_t>(rng() % 256) : static_cast<int32_t>(rng() % 256) - 128;
    const size_t esize = kind == qg::QOut::kInt32 || kind == qg::QOut::kFloat ? 4 : 1;
    const int64_t ldc = N + 3;  // a row stride past N: nothing between rows is written

    std::vector<std::vector<uint8_t>> outs;
    for (KernelIsa isa : isas) {
      const qg::PackedQB p = qg::packQB(isa, B.data(), bS, transB, K, N, transB ? K : N, zb.data(),
                                        static_cast<int64_t>(zb.size()));
      for (ThreadPool* pl : {static_cast<ThreadPool*>(nullptr), &pool}) {
        std::vector<uint8_t> out(M * ldc * esize, 0xCD);
        qg::QEpilogue ep;
        ep.kind = kind;
        ep.out = out.data();
        ep.ldc = ldc;
        ep.bias = bias ? bv.data() : nullptr;
        ep.scale = sc.data();
        ep.zp = yzp;
        qg::QGemmScratch s;
        qg::gemm(M, A.data(), aS, K, za, p, ep, pl, &s);
        outs.push_back(std::move(out));
      }
    }
    // The definition, for the portable result.
    const std::vector<uint8_t>& ref = outs[0];
    for (int64_t m = 0; m < M; ++m) {
      for (int64_t n = 0; n < N; ++n) {
        int64_t acc = bias ? bv[n] : 0;
        for (int64_t k = 0; k < K; ++k) {
          const int32_t a = aS ? static_cast<int8_t>(A[m * K + k]) : A[m * K + k];
          const uint8_t braw = transB ? B[n * K + k] : B[k * N + n];
          const int32_t b = bS ? static_cast<int8_t>(braw) : braw;
          acc += static_cast<int64_t>(a - za) * (b - zb[perCol ? n : 0]);
        }
        const int32_t v = static_cast<int32_t>(acc);
        const uint8_t* got = ref.data() + (m * ldc + n) * esize;
        switch (kind) {
          case qg::QOut::kInt32: {
            int32_t g;
            std::memcpy(&g, got, 4);
            ASSERT_EQ(g, v) << "M" << M << " K" << K << " N" << N << " at " << m << "," << n;
            break;
          }
          case qg::QOut::kFloat: {
            float g;
            std::memcpy(&g, got, 4);
            ASSERT_EQ(g, static_cast<float>(v) * sc[n]);
            break;
          }
          case qg::QOut::kUInt8: ASSERT_EQ(*got, qg::requantU8(v, sc[n], yzp)); break;
          case qg::QOut::kInt8: ASSERT_EQ(static_cast<int8_t>(*got), qg::requantS8(v, sc[n], yzp)); break;
        }
      }
    }
    for (size_t i = 1; i < outs.size(); ++i) {
      ASSERT_EQ(outs[i], ref) << "variant " << i / 2 << " (" << cpu::isaName(isas[i / 2]) << ") threads "
                              << (i % 2 ? 2 : 1) << ": M" << M << " K" << K << " N" << N << " aS" << aS << " bS" << bS
                              << " kind " << static_cast<int>(kind);
      ++compared;
    }
  }
  EXPECT_GT(compared, 0);
}

// vpmaddubsw would saturate here: a = 255 against b = -128 pairs sums to
// -65280 per pair. The result must be exact on every variant.
TEST(QGemm, SaturatingPairsExact) {
  const int64_t M = 5, K = 33, N = 19;
  std::vector<uint8_t> A(M * K, 255), B(K * N, 0x80);
  for (KernelIsa isa : qgemmIsas()) {
    const qg::PackedQB p = qg::packQB(isa, B.data(), true, false, K, N, N, nullptr, 0);
    std::vector<int32_t> out(M * N);
    qg::QEpilogue ep;
    ep.out = out.data();
    ep.ldc = N;
    qg::gemm(M, A.data(), false, K, 0, p, ep, nullptr);
    for (int32_t v : out) ASSERT_EQ(v, 255 * -128 * K) << cpu::isaName(isa);
  }
}

TEST(QGemm, ChoiceNamesIsa) {
  const KernelIsa isa = qg::chooseQGemm();
  EXPECT_EQ(qg::algorithmName(isa), std::string("qgemm ") + cpu::isaName(isa));
  EXPECT_EQ(qgemmIsas().back(), isa);
}

// ---- ops against the definition ---------------------------------------------

template <class T>
Tensor randomT(std::vector<int64_t> shape, std::mt19937& rng) {
  Tensor t(dataTypeOf<T>, std::move(shape));
  for (int64_t i = 0; i < t.numel(); ++i) t.data<T>()[i] = static_cast<T>(rng());
  return t;
}

int32_t at32(const Tensor& t, int64_t i) {
  return t.dtype() == DataType::kInt8 ? t.data<int8_t>()[i] : t.data<uint8_t>()[i];
}

struct ConvCase {
  std::vector<int64_t> x, w;  // shapes
  int64_t group;
  std::vector<int64_t> pads, strides, dilations;
};

// QLinearConv (qlinear) or ConvInteger by the definition, NCHW 2-d.
Tensor naiveConv(const Tensor& x, const Tensor& w, const ConvCase& c, int32_t zx, const std::vector<int32_t>& zw,
                 const std::vector<int32_t>& bias, const std::vector<float>& mult, int32_t zy, DataType outType) {
  const int64_t N = c.x[0], C = c.x[1], H = c.x[2], W = c.x[3], M = c.w[0], Cg = c.w[1], kh = c.w[2], kw = c.w[3];
  const int64_t OH = (H + c.pads[0] + c.pads[2] - c.dilations[0] * (kh - 1) - 1) / c.strides[0] + 1;
  const int64_t OW = (W + c.pads[1] + c.pads[3] - c.dilations[1] * (kw - 1) - 1) / c.strides[1] + 1;
  const int64_t Mg = M / c.group;
  Tensor y(outType, {N, M, OH, OW});
  for (int64_t n = 0; n < N; ++n)
    for (int64_t m = 0; m < M; ++m)
      for (int64_t oy = 0; oy < OH; ++oy)
        for (int64_t ox = 0; ox < OW; ++ox) {
          int64_t acc = bias.empty() ? 0 : bias[m];
          const int64_t gi = m / Mg;
          for (int64_t cc = 0; cc < Cg; ++cc)
            for (int64_t ky = 0; ky < kh; ++ky)
              for (int64_t kx = 0; kx < kw; ++kx) {
                const int64_t iy = oy * c.strides[0] - c.pads[0] + ky * c.dilations[0];
                const int64_t ix = ox * c.strides[1] - c.pads[1] + kx * c.dilations[1];
                if (iy < 0 || iy >= H || ix < 0 || ix >= W) continue;
                const int64_t ch = gi * Cg + cc;
                acc += static_cast<int64_t>(at32(x, ((n * C + ch) * H + iy) * W + ix) - zx) *
                       (at32(w, ((m * Cg + cc) * kh + ky) * kw + kx) - zw[zw.size() == 1 ? 0 : m]);
              }
          const int64_t o = ((n * M + m) * OH + oy) * OW + ox;
          const int32_t v = static_cast<int32_t>(acc);
          if (outType == DataType::kInt32) y.data<int32_t>()[o] = v;
          else if (outType == DataType::kUInt8) y.data<uint8_t>()[o] = qg::requantU8(v, mult[m], zy);
          else y.data<int8_t>()[o] = qg::requantS8(v, mult[m], zy);
        }
  return y;
}

template <class T>
Tensor zpTensor(const std::vector<int32_t>& v) {
  std::vector<T> t(v.begin(), v.end());
  return v.size() == 1 ? Tensor::scalar<T>(t[0]) : Tensor::fromVector<T>({static_cast<int64_t>(v.size())}, t);
}

// Random QLinearConv / ConvInteger cases covering each algorithm (depthwise,
// 1x1, im2col with groups, pads, strides, dilations), uint8 / int8 on both
// sides, per-tensor / per-channel, zero points at the extremes.
TEST(QLinearConvRandom, MatchesDefinition) {
  const std::vector<ConvCase> cases = {
      {{1, 8, 9, 11}, {8, 1, 3, 3}, 8, {1, 1, 1, 1}, {1, 1}, {1, 1}},     // depthwise
      {{2, 5, 7, 6}, {5, 1, 3, 3}, 5, {0, 1, 2, 1}, {2, 2}, {1, 1}},      // depthwise, stride 2
      {{1, 6, 8, 9}, {6, 1, 5, 5}, 6, {2, 2, 2, 2}, {1, 1}, {2, 1}},      // depthwise, dilated
      {{1, 4, 10, 13}, {4, 1, 3, 3}, 4, {1, 2, 1, 2}, {2, 3}, {1, 2}},   // depthwise, stride 3 / dilation 2 along x
      {{1, 3, 9, 20}, {3, 1, 2, 4}, 3, {0, 3, 1, 0}, {1, 2}, {2, 1}},     // depthwise, 2x4 taps, stride 2 along x
      {{1, 13, 5, 7}, {17, 13, 1, 1}, 1, {0, 0, 0, 0}, {1, 1}, {1, 1}},   // 1x1
      {{2, 9, 7, 5}, {35, 9, 3, 3}, 1, {1, 1, 1, 1}, {1, 1}, {1, 1}},     // 3x3
      {{1, 6, 9, 8}, {10, 3, 3, 2}, 2, {1, 0, 0, 1}, {2, 1}, {1, 2}},     // grouped
      {{1, 3, 11, 10}, {33, 3, 3, 3}, 1, {0, 0, 0, 0}, {2, 2}, {1, 1}},   // K = 27
      {{1, 4, 6, 6}, {4, 2, 2, 2}, 2, {0, 0, 0, 0}, {1, 1}, {1, 1}},      // grouped 2-in 2-out
      {{2, 37, 6, 7}, {34, 37, 3, 3}, 1, {1, 1, 1, 1}, {1, 1}, {1, 1}},   // 16 x 16 transposes and edges
      {{1, 32, 8, 8}, {48, 32, 1, 1}, 1, {0, 0, 0, 0}, {1, 1}, {1, 1}},   // 1x1, whole 16 x 16 blocks
  };
  std::mt19937 rng(3);
  int idx = 0;
  for (const ConvCase& c : cases) {
    for (int variant = 0; variant < 4; ++variant, ++idx) {
      const bool xS = variant & 1, wS = variant & 2, perChannel = (idx % 3) != 0, qlinear = idx % 5 != 4;
      const Tensor x = xS ? randomT<int8_t>(c.x, rng) : randomT<uint8_t>(c.x, rng);
      const Tensor w = wS ? randomT<int8_t>(c.w, rng) : randomT<uint8_t>(c.w, rng);
      const int64_t M = c.w[0];
      const int32_t zx = idx % 4 == 0 ? (xS ? -128 : 255) : idx % 4 == 1 ? (xS ? 127 : 0) : (xS ? -3 : 131);
      std::vector<int32_t> zw(perChannel ? M : 1);
      for (auto& z : zw) z = wS ? static_cast<int8_t>(rng()) : static_cast<uint8_t>(rng());
      if (idx % 4 == 2) zw.assign(zw.size(), wS ? -128 : 255);
      std::vector<int32_t> bias;
      if (qlinear && idx % 2 == 0)
        for (int64_t m = 0; m < M; ++m) bias.push_back(static_cast<int32_t>(rng() % 20001) - 10000);
      const float xs = 0.02f, ys = 0.5f + 0.1f * (idx % 7);
      std::vector<float> ws(perChannel ? M : 1);
      for (auto& s : ws) s = std::uniform_real_distribution<float>(0.001f, 0.02f)(rng);
      std::vector<float> mult(M);
      for (int64_t m = 0; m < M; ++m) mult[m] = xs * ws[ws.size() == 1 ? 0 : m] / ys;
      const bool yS = idx % 3 == 1;
      const int32_t zy = yS ? -5 : 128;
      const DataType outType = qlinear ? (yS ? DataType::kInt8 : DataType::kUInt8) : DataType::kInt32;
      const Tensor expect = naiveConv(x, w, c, zx, zw, bias, mult, zy, outType);

      OpTester t(qlinear ? "QLinearConv" : "ConvInteger", 10);
      t.attr("group", c.group).attr("pads", c.pads).attr("strides", c.strides).attr("dilations", c.dilations);
      auto zxT = xS ? Tensor::scalar<int8_t>(static_cast<int8_t>(zx)) : Tensor::scalar<uint8_t>(static_cast<uint8_t>(zx));
      auto zwT = wS ? zpTensor<int8_t>(zw) : zpTensor<uint8_t>(zw);
      if (qlinear) {
        t.input("x", x).input("xs", Tensor::scalar<float>(xs)).input("xz", zxT);
        t.constantInput("w", w).input("ws", Tensor::fromVector<float>({static_cast<int64_t>(ws.size())}, ws));
        t.constantInput("wz", zwT).input("ys", Tensor::scalar<float>(ys));
        t.input("yz", yS ? Tensor::scalar<int8_t>(static_cast<int8_t>(zy)) : Tensor::scalar<uint8_t>(static_cast<uint8_t>(zy)));
        if (!bias.empty()) t.constantInput("b", Tensor::fromVector<int32_t>({M}, bias));
      } else {
        t.input("x", x).constantInput("w", w).input("xz", zxT).constantInput("wz", zwT);
      }
      t.expect("y", expect, 0, 0);
      SCOPED_TRACE("case " + std::to_string(idx));
      t.run();
    }
  }
}

// MatMulInteger / QLinearMatMul with broadcast batches, constant or run-time
// B, per-column zero points and scales.
TEST(QLinearMatMulRandom, MatchesDefinition) {
  struct MmCase {
    std::vector<int64_t> a, b;
  };
  const std::vector<MmCase> cases = {
      {{5, 7}, {7, 9}}, {{2, 3, 4, 19}, {3, 19, 33}}, {{1, 6, 10}, {2, 1, 10, 5}}, {{17}, {17, 3}}, {{4, 70}, {70}},
      {{37, 130}, {130, 67}}};
  std::mt19937 rng(5);
  int idx = 0;
  for (const MmCase& c : cases) {
    for (int variant = 0; variant < 8; ++variant, ++idx) {
      const bool aS = variant & 1, bS = variant & 2, constB = variant & 4, qlinear = idx % 3 != 2;
      const Tensor a = aS ? randomT<int8_t>(c.a, rng) : randomT<uint8_t>(c.a, rng);
      const Tensor b = bS ? randomT<int8_t>(c.b, rng) : randomT<uint8_t>(c.b, rng);
      const int64_t K = c.a.back(), M = c.a.size() >= 2 ? c.a[c.a.size() - 2] : 1;
      const int64_t N = c.b.size() >= 2 ? c.b.back() : 1;
      const bool perCol = idx % 2 == 0 && c.b.size() == 2;
      const int32_t za = idx % 4 == 0 ? (aS ? -128 : 255) : (aS ? 5 : 100);
      std::vector<int32_t> zb(perCol ? N : 1);
      for (auto& z : zb) z = bS ? static_cast<int8_t>(rng()) : static_cast<uint8_t>(rng());
      if (idx % 4 == 1) zb.assign(zb.size(), bS ? 127 : 0);
      std::vector<float> bs(perCol ? N : 1);
      for (auto& s : bs) s = std::uniform_real_distribution<float>(0.001f, 0.02f)(rng);
      const float as = 0.03f, ys = 0.3f + 0.2f * (idx % 5);
      const bool yS = idx % 2 == 1;
      const int32_t zy = yS ? 3 : 120;
      // The output shape: batch dims broadcast, then M, N (1-d operands dropped).
      std::vector<int64_t> ba(c.a.begin(), c.a.end() - std::min<size_t>(2, c.a.size()));
      std::vector<int64_t> bb(c.b.begin(), c.b.end() - std::min<size_t>(2, c.b.size()));
      std::vector<int64_t> batch(std::max(ba.size(), bb.size()), 1);
      for (size_t k = 0; k < batch.size(); ++k) {
        const int64_t da = k < ba.size() ? ba[ba.size() - 1 - k] : 1, db = k < bb.size() ? bb[bb.size() - 1 - k] : 1;
        batch[batch.size() - 1 - k] = std::max(da, db);
      }
      std::vector<int64_t> outShape = batch;
      if (c.a.size() >= 2) outShape.push_back(M);
      if (c.b.size() >= 2) outShape.push_back(N);
      const DataType outType = qlinear ? (yS ? DataType::kInt8 : DataType::kUInt8) : DataType::kInt32;
      Tensor expect(outType, outShape);
      int64_t nb = 1;
      for (int64_t d : batch) nb *= d;
      for (int64_t t = 0; t < nb; ++t) {
        // Batch index t -> the operands' own batch offsets.
        int64_t rem = t, oa = 0, ob = 0, sa = 1, sb = 1;
        for (size_t k = 0; k < batch.size(); ++k) {
          const size_t d = batch.size() - 1 - k;
          const int64_t i = rem % batch[d];
          rem /= batch[d];
          if (k < ba.size()) {
            const int64_t da = ba[ba.size() - 1 - k];
            oa += (da == 1 ? 0 : i) * sa;
            sa *= da;
          }
          if (k < bb.size()) {
            const int64_t db = bb[bb.size() - 1 - k];
            ob += (db == 1 ? 0 : i) * sb;
            sb *= db;
          }
        }
        for (int64_t m = 0; m < M; ++m)
          for (int64_t n = 0; n < N; ++n) {
            int64_t acc = 0;
            for (int64_t k = 0; k < K; ++k)
              acc += static_cast<int64_t>(at32(a, (oa * M + m) * K + k) - za) *
                     (at32(b, (ob * K + k) * N + n) - zb[perCol ? n : 0]);
            const int64_t o = (t * M + m) * N + n;
            const int32_t v = static_cast<int32_t>(acc);
            const float mult = as * bs[perCol ? n : 0] / ys;
            if (outType == DataType::kInt32) expect.data<int32_t>()[o] = v;
            else if (outType == DataType::kUInt8) expect.data<uint8_t>()[o] = qg::requantU8(v, mult, zy);
            else expect.data<int8_t>()[o] = qg::requantS8(v, mult, zy);
          }
      }
      auto zaT = aS ? Tensor::scalar<int8_t>(static_cast<int8_t>(za)) : Tensor::scalar<uint8_t>(static_cast<uint8_t>(za));
      auto zbT = bS ? zpTensor<int8_t>(zb) : zpTensor<uint8_t>(zb);
      OpTester t(qlinear ? "QLinearMatMul" : "MatMulInteger", qlinear ? 21 : 10);
      if (qlinear) {
        t.input("a", a).input("as", Tensor::scalar<float>(as)).input("az", zaT);
        t.input("b", b, constB).input("bs", Tensor::fromVector<float>({static_cast<int64_t>(bs.size())}, bs));
        t.input("bz", zbT, constB).input("ys", Tensor::scalar<float>(ys));
        t.input("yz", yS ? Tensor::scalar<int8_t>(static_cast<int8_t>(zy)) : Tensor::scalar<uint8_t>(static_cast<uint8_t>(zy)));
      } else {
        t.input("a", a).input("b", b, constB).input("az", zaT).input("bz", zbT, constB);
      }
      t.expect("y", expect, 0, 0);
      SCOPED_TRACE("case " + std::to_string(idx));
      t.run();
    }
  }
}

// ---- against onnxruntime ------------------------------------------------------

// run('QLinearConv', 10, x=pat([1,4,5,5],1,np.uint8), xs=f32(0.02), xz=np.uint8(131), w=pat([6,4,3,3],2,np.int8),
//     ws=f32([0.01,0.02,0.015,0.03,0.005,0.011]), wz=np.zeros(6,np.int8), ys=f32(0.7), yz=np.uint8(120),
//     b=np.array([100,-2000,0,3000,-50,7],np.int32), pads=[1,1,1,1], strides=[2,2])
TEST(QLinearConvOrt, Uint8Int8PerChannelBiasStrided) {
  OpTester t("QLinearConv", 10);
  t.attr("pads", std::vector<int64_t>{1, 1, 1, 1}).attr("strides", std::vector<int64_t>{2, 2});
  t.input("x", pat<uint8_t>({1, 4, 5, 5}, 1)).input("xs", Tensor::scalar<float>(0.02f));
  t.input("xz", Tensor::scalar<uint8_t>(131)).constantInput("w", pat<int8_t>({6, 4, 3, 3}, 2));
  t.input("ws", Tensor::fromVector<float>({6}, {0.01f, 0.02f, 0.015f, 0.03f, 0.005f, 0.011f}));
  t.constantInput("wz", Tensor::fromVector<int8_t>({6}, {0, 0, 0, 0, 0, 0}));
  t.input("ys", Tensor::scalar<float>(0.7f)).input("yz", Tensor::scalar<uint8_t>(120));
  t.constantInput("b", Tensor::fromVector<int32_t>({6}, {100, -2000, 0, 3000, -50, 7}));
  t.expect("y", Tensor::fromVector<uint8_t>({1, 6, 3, 3}, {109, 135, 109, 122, 120, 123, 130, 120, 113, 119, 91, 146, 130, 124, 126, 152, 92, 120, 134, 107, 130, 133, 103, 152, 108, 118, 110, 144, 128, 129, 106, 119, 85, 76, 158, 140, 122, 120, 113, 109, 130, 116, 123, 120, 120, 108, 136, 108, 123, 115, 132, 131, 126, 113}));
  t.run();
}

// run('QLinearConv', 10, x=pat([1,3,6,6],3,np.int8), xs=f32(0.05), xz=np.int8(-3), w=pat([3,1,3,3],4,np.int8),
//     ws=f32(0.02), wz=np.int8(0), ys=f32(0.9), yz=np.int8(5), group=3, pads=[1,1,1,1])
TEST(QLinearConvOrt, Int8Depthwise) {
  OpTester t("QLinearConv", 10);
  t.attr("group", int64_t(3)).attr("pads", std::vector<int64_t>{1, 1, 1, 1});
  t.input("x", pat<int8_t>({1, 3, 6, 6}, 3)).input("xs", Tensor::scalar<float>(0.05f));
  t.input("xz", Tensor::scalar<int8_t>(-3)).constantInput("w", pat<int8_t>({3, 1, 3, 3}, 4));
  t.input("ws", Tensor::scalar<float>(0.02f)).constantInput("wz", Tensor::scalar<int8_t>(0));
  t.input("ys", Tensor::scalar<float>(0.9f)).input("yz", Tensor::scalar<int8_t>(5));
  t.expect("y", Tensor::fromVector<int8_t>({1, 3, 6, 6}, {-15, -10, 21, 19, 17, 5, 7, 11, 29, 21, 13, -1, -18, -29, 3, 28, 21, 8, 11, -16, -5, 2, 28, 17, 9, 7, -16, -6, 1, 26, 6, 8, 12, -1, 7, 6, 9, 1, -3, -7, 11, 28, 14, 8, 7, 7, -13, -7, 15, -3, 8, 7, 7, 2, -5, 26, -3, 8, 7, 4, -17, 1, 25, -3, 8, 5, 3, -15, -1, 33, 4, 2, 4, 9, 13, 17, 1, 13, -6, 1, 8, 46, 23, -2, -11, -6, 1, 8, 47, 1, -16, -12, -5, 2, 9, 25, -1, -8, -12, -5, 2, 18, -3, -12, 8, 6, 4, 14}));
  t.run();
}

// run('QLinearConv', 10, x=pat([1,5,3,4],5,np.uint8), xs=f32(0.03), xz=np.uint8(7), w=pat([4,5,1,1],6,np.uint8),
//     ws=f32(0.004), wz=np.uint8(128), ys=f32(0.25), yz=np.uint8(128))
TEST(QLinearConvOrt, Uint8Uint8Pointwise) {
  OpTester t("QLinearConv", 10);
  t.input("x", pat<uint8_t>({1, 5, 3, 4}, 5)).input("xs", Tensor::scalar<float>(0.03f));
  t.input("xz", Tensor::scalar<uint8_t>(7)).constantInput("w", pat<uint8_t>({4, 5, 1, 1}, 6));
  t.input("ws", Tensor::scalar<float>(0.004f)).constantInput("wz", Tensor::scalar<uint8_t>(128));
  t.input("ys", Tensor::scalar<float>(0.25f)).input("yz", Tensor::scalar<uint8_t>(128));
  t.expect("y", Tensor::fromVector<uint8_t>({1, 4, 3, 4}, {128, 133, 134, 133, 134, 129, 127, 128, 133, 134, 133, 128, 114, 125, 125, 131, 131, 133, 115, 114, 125, 125, 131, 133, 144, 135, 137, 124, 126, 140, 142, 144, 135, 138, 124, 138, 137, 135, 135, 129, 129, 118, 136, 137, 135, 135, 129, 118}));
  t.run();
}

// run('QLinearMatMul', 10, a=pat([3,7],7,np.uint8), as_=f32(0.05), az=np.uint8(100), b=pat([7,5],8,np.int8),
//     bs=f32(0.03), bz=np.int8(0), ys=f32(0.2), yz=np.uint8(128))
// run('QLinearMatMul', 21, a=pat([2,3,6],9,np.int8), as_=f32(0.05), az=np.int8(-1), b=pat([6,4],10,np.int8),
//     bs=f32([0.01,0.02,0.03,0.04]), bz=np.int8(0), ys=f32(1.5), yz=np.int8(-2))
TEST(QLinearMatMulOrt, Uint8Int8AndPerColumn) {
  OpTester t("QLinearMatMul", 10);
  t.input("a", pat<uint8_t>({3, 7}, 7)).input("as", Tensor::scalar<float>(0.05f)).input("az", Tensor::scalar<uint8_t>(100));
  t.constantInput("b", pat<int8_t>({7, 5}, 8)).input("bs", Tensor::scalar<float>(0.03f));
  t.constantInput("bz", Tensor::scalar<int8_t>(0)).input("ys", Tensor::scalar<float>(0.2f));
  t.input("yz", Tensor::scalar<uint8_t>(128));
  t.expect("y", Tensor::fromVector<uint8_t>({3, 5}, {0, 197, 128, 255, 126, 0, 198, 129, 255, 127, 0, 198, 129, 255, 128}));
  t.run();
  OpTester s("QLinearMatMul", 21);
  s.input("a", pat<int8_t>({2, 3, 6}, 9)).input("as", Tensor::scalar<float>(0.05f)).input("az", Tensor::scalar<int8_t>(-1));
  s.constantInput("b", pat<int8_t>({6, 4}, 10)).input("bs", Tensor::fromVector<float>({4}, {0.01f, 0.02f, 0.03f, 0.04f}));
  s.constantInput("bz", Tensor::scalar<int8_t>(0)).input("ys", Tensor::scalar<float>(1.5f));
  s.input("yz", Tensor::scalar<int8_t>(-2));
  s.expect("y", Tensor::fromVector<int8_t>({2, 3, 4}, {0, 5, -18, -32, -2, 3, -10, -8, 0, 2, -10, -7, 1, 4, 4, 27, 3, 4, 4, 29, -6, -12, -9, 25}));
  s.run();
}

// ---- DynamicQuantizeLinear ----------------------------------------------------

// The vector loops against the scalar definition, tails and chunks included
// (more than one 64 Ki chunk), with NaN and infinities.
TEST(DynamicQuantizeSimd, MatchesDefinition) {
  std::mt19937 rng(11);
  for (int64_t n : {1, 7, 17, 1000, 70001, 200003}) {
    std::vector<float> x(static_cast<size_t>(n));
    for (auto& v : x) v = std::uniform_real_distribution<float>(-3.f, 7.f)(rng);
    if (n > 20) {
      x[3] = std::nanf("");
      x[n - 2] = 1e30f;
    }
    float mx = 0.f, mn = 0.f;
    for (float v : x) {
      mx = std::max(mx, v);  // NaN compares false: skipped
      mn = std::min(mn, v);
    }
    const float scale = (mx == mn ? 1.f : mx - mn) / 255.f;
    const float zp = std::nearbyint(std::clamp(0.f - mn / scale, 0.f, 255.f));
    std::vector<uint8_t> want(x.size());
    for (size_t i = 0; i < x.size(); ++i) {
      float q = std::nearbyint(x[i] / scale) + zp;
      want[i] = std::isnan(q) ? 0 : static_cast<uint8_t>(std::clamp(q, 0.f, 255.f));
    }
    OpTester t("DynamicQuantizeLinear", 11);
    t.input("x", Tensor::fromVector<float>({n}, x));
    t.expect("y", Tensor::fromVector<uint8_t>({n}, want));
    t.expect("s", Tensor::scalar<float>(scale), 0, 0).expect("z", Tensor::scalar<uint8_t>(static_cast<uint8_t>(zp)));
    SCOPED_TRACE("n " + std::to_string(n));
    t.run();
    // Each ISA's loops directly too.
    for (KernelIsa isa : {KernelIsa::kPortable, cpu::vectorIsa(cpu::cpuFeatures())}) {
      float lo = 0.f, hi = 0.f;
      cpu::minMaxF32(isa, x.data(), n, lo, hi);
      EXPECT_EQ(lo, mn);
      EXPECT_EQ(hi, mx);
      std::vector<uint8_t> y(x.size());
      cpu::quantizeU8(isa, x.data(), n, scale, zp, y.data());
      EXPECT_EQ(y, want) << cpu::isaName(isa);
    }
  }
}

}  // namespace
}  // namespace oinfer::testing
