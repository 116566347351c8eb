// Tests of the quantize family and the low-bit / float8 conversions (Cast).
// Expected values come from onnx 1.22's reference evaluator
// (onnx.reference.ReferenceEvaluator on a one-node model, or the numpy the
// reference runs, quoted where the evaluator has no implementation), with
// ml_dtypes providing the float8 / int4 codes:
//   import numpy as np, ml_dtypes as m; from onnx import TensorProto as TP
//   show(name, run(op, inputs, opset, **attrs))   # prints flattened outputs
#include <cmath>
#include <limits>
#include <vector>

#include "op_tester.h"
#include "ops/cpu/lowbit.h"

using namespace oinfer;
using oinfer::testing::OpTester;

namespace {

Tensor codes(DataType t, std::vector<int64_t> shape, const std::vector<int>& v) {
  Tensor r(t, std::move(shape));
  for (size_t i = 0; i < v.size(); ++i) r.data<uint8_t>()[i] = static_cast<uint8_t>(v[i]);
  return r;
}

void expectCodes(const Tensor& got, DataType t, const std::vector<int>& want) {
  ASSERT_EQ(got.dtype(), t);
  ASSERT_EQ(got.numel(), static_cast<int64_t>(want.size()));
  for (size_t i = 0; i < want.size(); ++i)
    EXPECT_EQ(static_cast<int>(got.data<uint8_t>()[i]), want[i] & 0xFF) << "element " << i;
}

Tensor F(std::vector<int64_t> s, std::vector<float> v) { return Tensor::fromVector<float>(std::move(s), v); }
Tensor H(std::vector<int64_t> s, std::vector<float> v) {
  std::vector<Float16> h;
  for (float f : v) h.emplace_back(f);
  return Tensor::fromVector<Float16>(std::move(s), h);
}

}  // namespace

// ---- low-bit conversions ----------------------------------------------------

// v = np.array([0.3, 1000, -1000, np.nan, np.inf, -0.0, 1e-3], np.float32)
// onnx.numpy_helper.saturate_cast(v, m.float8_e4m3fn).view(np.uint8) and v.astype(...) for saturate=0
TEST(QuantLowBit, CastFloat8E4M3FN) {
  const Tensor x = F({7}, {0.3f, 1000.f, -1000.f, NAN, INFINITY, -0.f, 1e-3f});
  OpTester sat("Cast", 19);
  sat.attr("to", int64_t(17)).input("x", x).output("y");
  expectCodes(sat.run()[0], DataType::kFloat8E4M3FN, {0x2A, 0x7E, 0xFE, 0x7F, 0x7E, 0x80, 0x01});
  OpTester wrap("Cast", 19);
  wrap.attr("to", int64_t(17)).attr("saturate", int64_t(0)).input("x", x).output("y");
  expectCodes(wrap.run()[0], DataType::kFloat8E4M3FN, {0x2A, 0x7F, 0xFF, 0x7F, 0x7F, 0x80, 0x01});
}

// e5m2 non-saturating keeps Inf; the fnuz types have one NaN (0x80) and no -0.
// v.astype(m.float8_e5m2) / m.float8_e5m2fnuz / m.float8_e4m3fnuz, saturate=0
TEST(QuantLowBit, CastFloat8OtherFormats) {
  const Tensor x = F({5}, {0.3f, 1e6f, -0.f, NAN, -3.5f});
  OpTester a("Cast", 21);
  a.attr("to", int64_t(19)).attr("saturate", int64_t(0)).input("x", x).output("y");
  expectCodes(a.run()[0], DataType::kFloat8E5M2, {0x35, 0x7C, 0x80, 0x7E, 0xC3});
  OpTester b("Cast", 21);
  b.attr("to", int64_t(20)).attr("saturate", int64_t(0)).input("x", x).output("y");
  expectCodes(b.run()[0], DataType::kFloat8E5M2FNUZ, {0x39, 0x80, 0x00, 0x80, 0xC7});
  OpTester c("Cast", 21);
  c.attr("to", int64_t(18)).input("x", x).output("y");  // saturate: 1e6 -> 240
  expectCodes(c.run()[0], DataType::kFloat8E4M3FNUZ, {0x32, 0x7F, 0x00, 0x80, 0xCE});
}

// Decoding: np.array([0x2A, 0x7E, 0xFE, 0x7F, 0x80, 0x01], np.uint8).view(m.float8_e4m3fn).astype(np.float32)
TEST(QuantLowBit, CastFromFloat8) {
  OpTester t("Cast", 19);
  t.attr("to", int64_t(1)).input("x", codes(DataType::kFloat8E4M3FN, {6}, {0x2A, 0x7E, 0xFE, 0x7F, 0x80, 0x01}));
  t.expect("y", F({6}, {0.3125f, 448.f, -448.f, NAN, -0.f, 0.001953125f}));
  t.run();
}

// onnx.numpy_helper.to_float8e8m0(v, saturate, round_mode).view(np.uint8)
// v = np.array([3, 0.75, 1, 2**-130, np.inf, 3.4e38], np.float32)
TEST(QuantLowBit, CastFloat8E8M0RoundModes) {
  const Tensor x = F({6}, {3.f, 0.75f, 1.f, 7.346839692639297e-40f, INFINITY, 3.4e38f});
  const std::vector<std::pair<const char*, std::vector<int>>> cases = {
      {"up", {129, 127, 127, 1, 255, 254}}, {"down", {128, 126, 127, 0, 255, 254}},
      {"nearest", {129, 127, 127, 0, 255, 254}}};
  for (const auto& [mode, want] : cases) {
    OpTester t("Cast", 24);
    t.attr("to", int64_t(24)).attr("round_mode", mode).input("x", x).output("y");
    expectCodes(t.run()[0], DataType::kFloat8E8M0, want);
  }
  OpTester ns("Cast", 24);  // saturate=0 lets 3.4e38 round up to NaN (0xFF)
  ns.attr("to", int64_t(24)).attr("saturate", int64_t(0)).input("x", F({1}, {3.4e38f})).output("y");
  expectCodes(ns.run()[0], DataType::kFloat8E8M0, {255});
}

// v.astype(m.float4_e2m1fn) and v.astype(m.int4 / m.uint2): float4 saturates, ints truncate and wrap.
// v = np.array([0.3, 2.5, -5, 100, -0.0, 9.7], np.float32)
TEST(QuantLowBit, CastFloat4AndSmallInts) {
  const Tensor x = F({6}, {0.3f, 2.5f, -5.f, 100.f, -0.f, 9.7f});
  OpTester f4("Cast", 23);
  f4.attr("to", int64_t(23)).input("x", x).output("y");
  expectCodes(f4.run()[0], DataType::kFloat4E2M1, {1, 4, 14, 7, 8, 7});
  OpTester i4("Cast", 21);
  i4.attr("to", int64_t(22)).input("x", x).output("y");
  expectCodes(i4.run()[0], DataType::kInt4, {0, 2, -5, 4, 0, -7});
  OpTester u2("Cast", 25);
  u2.attr("to", int64_t(25)).input("x", x).output("y");
  expectCodes(u2.run()[0], DataType::kUInt2, {0, 2, 3, 0, 0, 1});
  OpTester back("CastLike", 21);  // int4 codes back to int8: sign-extended values
  back.input("x", codes(DataType::kInt4, {3}, {-8, 7, -1})).input("like", Tensor(DataType::kInt8, {1}));
  back.expect("y", Tensor::fromVector<int8_t>({3}, {-8, 7, -1}));
  back.run();
}

TEST(QuantLowBit, BadRoundMode) {
  OpTester t("Cast", 24);
  t.attr("to", int64_t(24)).attr("round_mode", "sideways").input("x", F({1}, {1.f})).output("y");
  t.expectError("round_mode must be 'up', 'down' or 'nearest', got 'sideways'");
}

// ---- QuantizeLinear ---------------------------------------------------------------

// x=np.array([[-3.1,0.2,1.5],[250,-260,7.49]],np.float32); run("QuantizeLinear",[x,np.float32(2),np.uint8(128)],10)
TEST(Quantize, PerTensorUint8) {
  for (int v : {10, 13, 19, 21, 25}) {
    OpTester t("QuantizeLinear", v);
    t.input("x", F({2, 3}, {-3.1f, 0.2f, 1.5f, 250.f, -260.f, 7.49f})).input("s", Tensor::scalar<float>(2.f));
    t.input("z", Tensor::scalar<uint8_t>(128)).expect("y", Tensor::fromVector<uint8_t>({2, 3}, {126, 128, 129, 253, 0, 132}));
    t.run();
  }
}

// run("QuantizeLinear",[x.T.copy(),np.array([1,2,0.5],np.float32),np.array([0,-3,5],np.int8)],13,axis=0)
TEST(Quantize, PerAxisInt8) {
  OpTester t("QuantizeLinear", 13);
  t.attr("axis", int64_t(0)).input("x", F({3, 2}, {-3.1f, 250.f, 0.2f, -260.f, 1.5f, 7.49f}));
  t.input("s", F({3}, {1.f, 2.f, 0.5f})).input("z", Tensor::fromVector<int8_t>({3}, {0, -3, 5}));
  t.expect("y", Tensor::fromVector<int8_t>({3, 2}, {-3, 127, -3, -128, 8, 20}));
  t.run();
}

// xb=np.array([[1,2,3,4,5],[-1,-2,-3,-4,-50]],np.float32)
// run("QuantizeLinear",[xb,np.array([[0.5,1,2],[0.25,0.5,3]],np.float32),np.array([[0,1,-1],[2,0,0]],m.int4)],21,axis=1,block_size=2)
TEST(Quantize, BlockedInt4) {
  OpTester t("QuantizeLinear", 21);
  t.attr("axis", int64_t(1)).attr("block_size", int64_t(2));
  t.input("x", F({2, 5}, {1, 2, 3, 4, 5, -1, -2, -3, -4, -50})).input("s", F({2, 3}, {0.5f, 1, 2, 0.25f, 0.5f, 3}));
  t.input("z", codes(DataType::kInt4, {2, 3}, {0, 1, -1, 2, 0, 0})).output("y");
  expectCodes(t.run()[0], DataType::kInt4, {2, 4, 4, 5, 1, -2, -6, -6, -8, -8});
}

// x / scale infinite or NaN (a fuzz finding: the int32 cast of inf was
// undefined): inf and 1e30 saturate, NaN counts as 0 (the zero point 3).
// uint16 x=[inf,-inf,1e30,nan,2], scale 1, zero point 3 -> [65535, 0, 65535, 3, 5]; scale 0 turns 2 into inf.
TEST(Quantize, InfiniteAndNaNQuotientsSaturate) {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  OpTester t("QuantizeLinear", 21);
  t.input("x", F({5}, {inf, -inf, 1e30f, nan, 2.f})).input("s", Tensor::scalar<float>(1.f));
  t.input("z", Tensor::scalar<uint16_t>(3)).expect("y", Tensor::fromVector<uint16_t>({5}, {65535, 0, 65535, 3, 5}));
  t.run();
  OpTester z("QuantizeLinear", 21);
  z.input("x", F({2}, {2.f, -2.f})).input("s", Tensor::scalar<float>(0.f));
  z.input("z", Tensor::scalar<int8_t>(0)).expect("y", Tensor::fromVector<int8_t>({2}, {127, -128}));
  z.run();
}

// run("QuantizeLinear",[x,np.float32(0.01)],21,output_dtype=TP.UINT16)
TEST(Quantize, OutputDtypeUint16) {
  OpTester t("QuantizeLinear", 21);
  t.attr("output_dtype", int64_t(4)).input("x", F({2, 3}, {-3.1f, 0.2f, 1.5f, 250.f, -260.f, 7.49f}));
  t.input("s", Tensor::scalar<float>(0.01f)).expect("y", Tensor::fromVector<uint16_t>({2, 3}, {0, 20, 150, 25000, 0, 749}));
  t.run();
}

// xf=np.array([0.5,1000,-1000,3.3,np.inf],np.float32); zero point float8e4m3fn 0, scale 2, saturate 0 / 1
TEST(Quantize, Float8Saturate) {
  const Tensor x = F({5}, {0.5f, 1000.f, -1000.f, 3.3f, INFINITY});
  for (int sat : {0, 1}) {
    OpTester t("QuantizeLinear", 19);
    t.attr("saturate", int64_t(sat)).input("x", x).input("s", Tensor::scalar<float>(2.f));
    t.input("z", codes(DataType::kFloat8E4M3FN, {}, {0})).output("y");
    expectCodes(t.run()[0], DataType::kFloat8E4M3FN,
                sat ? std::vector<int>{40, 126, 254, 61, 126} : std::vector<int>{40, 127, 255, 61, 127});
  }
}

// run("QuantizeLinear",[np.array([0.3,1.1,-5,20],np.float32),np.float32(0.5)],21,output_dtype=TP.FLOAT4E2M1)
TEST(Quantize, Float4) {
  OpTester t("QuantizeLinear", 21);
  t.attr("output_dtype", int64_t(23)).input("x", F({4}, {0.3f, 1.1f, -5.f, 20.f})).input("s", Tensor::scalar<float>(0.5f));
  t.output("y");
  expectCodes(t.run()[0], DataType::kFloat4E2M1, {1, 4, 15, 7});
}

// float16 data divides in float16 (np: xh / np.float16(0.3) = [4.332, 8.992, -3.0]); precision=FLOAT
// divides in float32: np.rint(xh.astype(np.float32)/np.float32(np.float16(0.3)))+1 = [5, 10, -2] (same here)
TEST(Quantize, Float16AndPrecision) {
  for (int prec : {0, 1}) {
    OpTester t("QuantizeLinear", 25);
    if (prec) t.attr("precision", int64_t(1));
    t.input("x", H({3}, {1.3f, 2.7f, -0.9f})).input("s", H({}, {0.3f})).input("z", Tensor::scalar<int8_t>(1));
    t.expect("y", Tensor::fromVector<int8_t>({3}, {5, 10, -2}));
    t.run();
  }
}

TEST(Quantize, Errors) {
  OpTester axis("QuantizeLinear", 13);
  axis.input("x", F({2, 3}, {1, 2, 3, 4, 5, 6})).input("s", F({2}, {1, 1})).output("y");
  axis.expectError("input 1 ('s') has shape [2] but input 0 has shape [2,3]");
  OpTester dt("QuantizeLinear", 21);
  dt.attr("output_dtype", int64_t(3)).input("x", F({1}, {1})).input("s", Tensor::scalar<float>(1.f));
  dt.input("z", Tensor::scalar<uint8_t>(0)).output("y");
  dt.expectError("attribute 'output_dtype' (int8) differs from the zero point's type uint8");
  OpTester blk("QuantizeLinear", 21);
  blk.attr("axis", int64_t(1)).attr("block_size", int64_t(2));
  blk.input("x", F({1, 5}, {1, 2, 3, 4, 5})).input("s", F({1, 2}, {1, 1})).output("y");
  blk.expectError("with block_size 2 on axis 1");
}

// ---- DequantizeLinear -------------------------------------------------------------

// xi=np.array([[0,255,128],[7,9,200]],np.uint8); run("DequantizeLinear",[xi,np.float32(0.5),np.uint8(128)],19)
// and axis=0 with scale [0.5,2], zero point [1,2]
TEST(Dequantize, PerTensorAndPerAxis) {
  const Tensor x = Tensor::fromVector<uint8_t>({2, 3}, {0, 255, 128, 7, 9, 200});
  for (int v : {10, 13, 19, 21}) {
    OpTester t("DequantizeLinear", v);
    t.input("x", x).input("s", Tensor::scalar<float>(0.5f)).input("z", Tensor::scalar<uint8_t>(128));
    t.expect("y", F({2, 3}, {-64.f, 63.5f, 0.f, -60.5f, -59.5f, 36.f}));
    t.run();
  }
  OpTester a("DequantizeLinear", 13);
  a.attr("axis", int64_t(0)).input("x", x).input("s", F({2}, {0.5f, 2.f})).input("z", Tensor::fromVector<uint8_t>({2}, {1, 2}));
  a.expect("y", F({2, 3}, {-0.5f, 127.f, 63.5f, 10.f, 14.f, 396.f}));
  a.run();
}

// x4=np.array([[-8,7,1,0],[3,-2,5,-1]],m.int4); scale [[0.5,2],[1,4]], zero point [[1,0],[0,-1]], axis 1, block 2
TEST(Dequantize, BlockedInt4) {
  OpTester t("DequantizeLinear", 21);
  t.attr("axis", int64_t(1)).attr("block_size", int64_t(2));
  t.input("x", codes(DataType::kInt4, {2, 4}, {-8, 7, 1, 0, 3, -2, 5, -1})).input("s", F({2, 2}, {0.5f, 2.f, 1.f, 4.f}));
  t.input("z", codes(DataType::kInt4, {2, 2}, {1, 0, 0, -1}));
  t.expect("y", F({2, 4}, {-4.5f, 3.f, 2.f, 0.f, 3.f, -2.f, 24.f, 0.f}));
  t.run();
}

// x8 = np.array([0.5,-3,448,-0.0],np.float32).astype(m.float8_e4m3fn) -> codes [48,196,126,128]; scale 2
TEST(Dequantize, Float8) {
  OpTester t("DequantizeLinear", 19);
  t.input("x", codes(DataType::kFloat8E4M3FN, {4}, {48, 196, 126, 128})).input("s", Tensor::scalar<float>(2.f));
  t.expect("y", F({4}, {1.f, -6.f, 896.f, -0.f}));
  t.run();
}

// Output follows the scale's type (float16), or output_dtype (23+):
// run("DequantizeLinear",[np.array([1,-2,3],np.int8),np.float16(0.1)],19) -> [0.09998, -0.2, 0.2998]
// ((x.astype(np.float32)-1)*np.float32(0.1)).astype(np.float16) -> [0, -0.30005, 0.19995]
TEST(Dequantize, Float16Outputs) {
  const Tensor x = Tensor::fromVector<int8_t>({3}, {1, -2, 3});
  OpTester a("DequantizeLinear", 19);
  a.input("x", x).input("s", H({}, {0.1f})).expect("y", H({3}, {0.0999755859375f, -0.199951171875f, 0.2998046875f}));
  a.run();
  OpTester b("DequantizeLinear", 23);
  b.attr("output_dtype", int64_t(10)).input("x", x).input("s", Tensor::scalar<float>(0.1f)).input("z", Tensor::scalar<int8_t>(1));
  b.expect("y", H({3}, {0.f, -0.300048828125f, 0.199951171875f}));
  b.run();
}

TEST(Dequantize, ZeroPointTypeMismatch) {
  OpTester t("DequantizeLinear", 19);
  t.input("x", Tensor::fromVector<int8_t>({1}, {1})).input("s", Tensor::scalar<float>(1.f)).input("z", Tensor::scalar<uint8_t>(0));
  t.output("y");
  t.expectError("input 2 ('z') has type uint8 but input 0 has type int8");
}

// run("DynamicQuantizeLinear",[np.array([[1,-2.5,3.7],[0.1,9,-0.4]],np.float32)],11)
TEST(DynamicQuantize, Basic) {
  OpTester t("DynamicQuantizeLinear", 11);
  t.input("x", F({2, 3}, {1.f, -2.5f, 3.7f, 0.1f, 9.f, -0.4f}));
  t.expect("y", Tensor::fromVector<uint8_t>({2, 3}, {77, 0, 137, 57, 255, 46}));
  t.expect("s", Tensor::scalar<float>(0.045098040252923965f)).expect("z", Tensor::scalar<uint8_t>(55));
  t.run();
}

// ---- integer matmul / conv --------------------------------------------------------

// A=np.array([[11,7,3],[10,6,2],[9,5,1],[8,4,0]],np.uint8); B=np.array([[1,4],[2,5],[3,6]],np.uint8)
// run("MatMulInteger",[A,B,np.uint8(12),np.uint8(0)],10); zero points 0 and [1,2]
TEST(MatMulInteger, ZeroPoints) {
  const Tensor A = Tensor::fromVector<uint8_t>({4, 3}, {11, 7, 3, 10, 6, 2, 9, 5, 1, 8, 4, 0});
  const Tensor B = Tensor::fromVector<uint8_t>({3, 2}, {1, 4, 2, 5, 3, 6});
  OpTester t("MatMulInteger", 10);
  t.input("a", A).input("b", B).input("az", Tensor::scalar<uint8_t>(12)).input("bz", Tensor::scalar<uint8_t>(0));
  t.expect("y", Tensor::fromVector<int32_t>({4, 2}, {-38, -83, -44, -98, -50, -113, -56, -128}));
  t.run();
  OpTester c("MatMulInteger", 10);
  c.input("a", A).input("b", B).input("az", Tensor::scalar<uint8_t>(0)).input("bz", Tensor::fromVector<uint8_t>({2}, {1, 2}));
  c.expect("y", Tensor::fromVector<int32_t>({4, 2}, {13, 55, 10, 46, 7, 37, 4, 28}));
  c.run();
}

// A3=np.arange(12,dtype=np.int8).reshape(2,2,3)-5; B3=np.array([[1,-2],[3,0],[-1,4]],np.int8)
// run("MatMulInteger",[A3,B3,np.int8(1),np.int8(-1)],10)
TEST(MatMulInteger, BatchedInt8) {
  std::vector<int8_t> a;
  for (int i = 0; i < 12; ++i) a.push_back(static_cast<int8_t>(i - 5));
  OpTester t("MatMulInteger", 10);
  t.input("a", Tensor::fromVector<int8_t>({2, 2, 3}, a)).input("b", Tensor::fromVector<int8_t>({3, 2}, {1, -2, 3, 0, -1, 4}));
  t.input("az", Tensor::scalar<int8_t>(1)).input("bz", Tensor::scalar<int8_t>(-1));
  t.expect("y", Tensor::fromVector<int32_t>({2, 2, 2}, {-32, -19, -14, -4, 4, 11, 22, 26}));
  t.run();
}

TEST(MatMulInteger, InnerDimError) {
  OpTester t("MatMulInteger", 10);
  t.input("a", Tensor(DataType::kUInt8, {2, 3})).input("b", Tensor(DataType::kUInt8, {2, 2})).output("y");
  t.expectError("[2,3]");
}

// run("QLinearMatMul",[A,np.float32(0.05),np.uint8(3),B,np.float32(0.1),np.uint8(1),np.float32(0.02),np.uint8(10)],10)
// and the int8 batched case at opset 21 with A3, B3 (zero points 3, 1, -10)
TEST(QLinearMatMul, Uint8AndInt8) {
  OpTester t("QLinearMatMul", 10);
  t.input("a", Tensor::fromVector<uint8_t>({4, 3}, {11, 7, 3, 10, 6, 2, 9, 5, 1, 8, 4, 0}));
  t.input("as", Tensor::scalar<float>(0.05f)).input("az", Tensor::scalar<uint8_t>(3));
  t.input("b", Tensor::fromVector<uint8_t>({3, 2}, {1, 4, 2, 5, 3, 6}));
  t.input("bs", Tensor::scalar<float>(0.1f)).input("bz", Tensor::scalar<uint8_t>(1));
  t.input("ys", Tensor::scalar<float>(0.02f)).input("yz", Tensor::scalar<uint8_t>(10));
  t.expect("y", Tensor::fromVector<uint8_t>({4, 2}, {11, 20, 10, 17, 9, 14, 9, 11}));
  t.run();
  std::vector<int8_t> a;
  for (int i = 0; i < 12; ++i) a.push_back(static_cast<int8_t>(i - 5));
  OpTester s("QLinearMatMul", 21);
  s.input("a", Tensor::fromVector<int8_t>({2, 2, 3}, a)).input("as", Tensor::scalar<float>(0.05f));
  s.input("az", Tensor::scalar<int8_t>(3)).input("b", Tensor::fromVector<int8_t>({3, 2}, {1, -2, 3, 0, -1, 4}));
  s.input("bs", Tensor::scalar<float>(0.1f)).input("bz", Tensor::scalar<int8_t>(1));
  s.input("ys", Tensor::scalar<float>(0.02f)).input("yz", Tensor::scalar<int8_t>(-10));
  s.expect("y", Tensor::fromVector<int8_t>({2, 2, 2}, {-11, -7, -11, -7, -11, -8, -11, -9}));
  s.run();
}

// X=np.arange(9,dtype=np.uint8).reshape(1,1,3,3)+2; W=np.array([1,2,3,4],np.uint8).reshape(1,1,2,2)
// run("ConvInteger",[X,W,np.uint8(1)],10); and w zero point 2 with pads=[1,1,1,1]
TEST(ConvInteger, PlainAndPadded) {
  const Tensor X = Tensor::fromVector<uint8_t>({1, 1, 3, 3}, {2, 3, 4, 5, 6, 7, 8, 9, 10});
  const Tensor W = Tensor::fromVector<uint8_t>({1, 1, 2, 2}, {1, 2, 3, 4});
  OpTester t("ConvInteger", 10);
  t.input("x", X).input("w", W).input("xz", Tensor::scalar<uint8_t>(1));
  t.expect("y", Tensor::fromVector<int32_t>({1, 1, 2, 2}, {37, 47, 67, 77}));
  t.run();
  OpTester p("ConvInteger", 10);
  p.attr("pads", std::vector<int64_t>{1, 1, 1, 1}).input("x", X).input("w", W);
  p.input("xz", Tensor::scalar<uint8_t>(1)).input("wz", Tensor::scalar<uint8_t>(2));
  p.expect("y", Tensor::fromVector<int32_t>({1, 1, 4, 4}, {2, 5, 8, 3, 8, 13, 15, 3, 14, 19, 21, 3, 0, -7, -8, -9}));
  p.run();
}

// X2=np.arange(18,dtype=np.uint8).reshape(1,2,3,3); W2=np.array([1,2,3,4,5,6,7,8,0,1,2,3,4,5,6,7],np.uint8).reshape(2,2,2,2)
// run("QLinearConv",[X2,np.float32(0.1),np.uint8(2),W2,np.array([0.2,0.05],np.float32),np.array([1,0],np.uint8),
//     np.float32(0.3),np.uint8(5),np.array([3,-40],np.int32)],10,strides=[1,1],pads=[0,1,1,0])
TEST(QLinearConv, PerChannelWithBias) {
  std::vector<uint8_t> x(18);
  for (int i = 0; i < 18; ++i) x[i] = static_cast<uint8_t>(i);
  OpTester t("QLinearConv", 10);
  t.attr("strides", std::vector<int64_t>{1, 1}).attr("pads", std::vector<int64_t>{0, 1, 1, 0});
  t.input("x", Tensor::fromVector<uint8_t>({1, 2, 3, 3}, x)).input("xs", Tensor::scalar<float>(0.1f));
  t.input("xz", Tensor::scalar<uint8_t>(2));
  t.input("w", Tensor::fromVector<uint8_t>({2, 2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8, 0, 1, 2, 3, 4, 5, 6, 7}));
  t.input("ws", F({2}, {0.2f, 0.05f})).input("wz", Tensor::fromVector<uint8_t>({2}, {1, 0}));
  t.input("ys", Tensor::scalar<float>(0.3f)).input("yz", Tensor::scalar<uint8_t>(5));
  t.input("b", Tensor::fromVector<int32_t>({2}, {3, -40}));
  t.expect("y", Tensor::fromVector<uint8_t>({1, 2, 3, 3}, {12, 19, 21, 15, 25, 27, 10, 14, 14, 6, 8, 8, 7, 9, 10, 5, 6, 7}));
  t.run();
}

// run("QLinearConv",[X2.astype(np.int8)-6,np.float32(0.1),np.int8(2),W2[:,0:1].astype(np.int8)-3,np.float32(0.2),
//     np.int8(0),np.float32(0.3),np.int8(-5)],10,group=2)
TEST(QLinearConv, GroupedInt8) {
  std::vector<int8_t> x(18);
  for (int i = 0; i < 18; ++i) x[i] = static_cast<int8_t>(i - 6);
  OpTester t("QLinearConv", 10);
  t.attr("group", int64_t(2)).input("x", Tensor::fromVector<int8_t>({1, 2, 3, 3}, x));
  t.input("xs", Tensor::scalar<float>(0.1f)).input("xz", Tensor::scalar<int8_t>(2));
  t.input("w", Tensor::fromVector<int8_t>({2, 1, 2, 2}, {-2, -1, 0, 1, -3, -2, -1, 0}));
  t.input("ws", Tensor::scalar<float>(0.2f)).input("wz", Tensor::scalar<int8_t>(0));
  t.input("ys", Tensor::scalar<float>(0.3f)).input("yz", Tensor::scalar<int8_t>(-5));
  t.expect("y", Tensor::fromVector<int8_t>({1, 2, 2, 2}, {-4, -4, -4, -4, -6, -6, -7, -7}));
  t.run();
}

TEST(QLinearConv, ChannelMismatch) {
  OpTester t("QLinearConv", 10);
  t.input("x", Tensor(DataType::kUInt8, {1, 3, 4, 4})).input("xs", Tensor::scalar<float>(1.f));
  t.input("xz", Tensor::scalar<uint8_t>(0)).input("w", Tensor(DataType::kUInt8, {2, 2, 2, 2}));
  t.input("ws", Tensor::scalar<float>(1.f)).input("wz", Tensor::scalar<uint8_t>(0));
  t.input("ys", Tensor::scalar<float>(1.f)).input("yz", Tensor::scalar<uint8_t>(0)).output("y");
  t.expectError("has 3 channels but input 3 ('w') [2,2,2,2] expects 2");
}

// ---- the per-tensor int8 / uint8 fast path ------------------------------------

namespace {

// Values around every rounding and saturation edge: halves (ties to even),
// beyond the range, infinities, NaN, -0, and a spread of ordinary values.
Tensor edgeValues(float scale) {
  std::vector<float> v = {0.f, -0.f, std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                          std::numeric_limits<float>::quiet_NaN(), 1e30f, -1e30f, 3e9f, -3e9f};
  for (int k = -300; k <= 300; ++k) {
    v.push_back((k + 0.5f) * scale);
    v.push_back(k * scale);
    v.push_back(k * 0.37f * scale);
  }
  while (v.size() % 4) v.push_back(0.25f * scale);
  return Tensor::fromVector<float>({4, int64_t(v.size() / 4)}, v);
}

}  // namespace

// A per-tensor scale takes the fast path; the same scale given per axis (4
// equal entries) the general one. Both must give the same bits, for both
// output types and both directions.
TEST(QuantizeFastPath, EqualsGeneralPath) {
  const float scale = 0.0371f;
  const Tensor x = edgeValues(scale);
  for (DataType q : {DataType::kUInt8, DataType::kInt8}) {
    SCOPED_TRACE(dataTypeName(q));
    const int zpv = q == DataType::kUInt8 ? 131 : -7;
    Tensor zp1(q, {}), zp4(q, {4});
    for (int i = 0; i < 5; ++i) {
      uint8_t* p = i == 0 ? zp1.data<uint8_t>() : zp4.data<uint8_t>() + (i - 1);
      *p = static_cast<uint8_t>(zpv);
    }
    const Tensor s1 = Tensor::scalar<float>(scale), s4 = F({4}, {scale, scale, scale, scale});
    OpTester fast("QuantizeLinear", 13), general("QuantizeLinear", 13);
    fast.input("x", x).constantInput("s", s1).constantInput("z", zp1).output("y");
    general.attr("axis", int64_t{0}).input("x", x).constantInput("s", s4).constantInput("z", zp4).output("y");
    const Tensor a = fast.run()[0], b = general.run()[0];
    ASSERT_EQ(a.dtype(), q);
    ASSERT_EQ(a.numel(), b.numel());
    for (int64_t i = 0; i < a.numel(); ++i)
      ASSERT_EQ(a.data<uint8_t>()[i], b.data<uint8_t>()[i]) << "x = " << x.data<float>()[i];

    OpTester dfast("DequantizeLinear", 13), dgeneral("DequantizeLinear", 13);
    dfast.input("x", a).constantInput("s", s1).constantInput("z", zp1).output("y");
    dgeneral.attr("axis", int64_t{0}).input("x", a).constantInput("s", s4).constantInput("z", zp4).output("y");
    const Tensor c = dfast.run()[0], d = dgeneral.run()[0];
    ASSERT_EQ(c.dtype(), DataType::kFloat);
    for (int64_t i = 0; i < c.numel(); ++i)
      ASSERT_EQ(c.data<float>()[i], d.data<float>()[i]) << "q = " << int(a.data<uint8_t>()[i]);
  }
}
