// Gemm and MatMul against numpy / onnx.reference.
//
// Inputs come from ramp(): in numpy
//   def ar(*s, off=0): return ((np.arange(np.prod(s)) % 7 - 3 + off) * 0.5).astype(np.float32).reshape(s)
#include <gtest/gtest.h>

#include "op_tester.h"

namespace oinfer::testing {
namespace {

Tensor ramp(std::vector<int64_t> shape, int off = 0) {
  Tensor t(DataType::kFloat, shape);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = static_cast<float>((i % 7) - 3 + off) * 0.5f;
  return t;
}
Tensor transposed(const Tensor& m) {
  Tensor t(m.dtype(), {m.dim(1), m.dim(0)});
  for (int64_t r = 0; r < m.dim(0); ++r)
    for (int64_t c = 0; c < m.dim(1); ++c) t.data<float>()[c * m.dim(0) + r] = m.data<float>()[r * m.dim(1) + c];
  return t;
}
Tensor f32(std::vector<int64_t> shape, std::vector<float> v) { return Tensor::fromVector<float>(shape, v); }

// np.matmul(ar(*sa), ar(*sb, off=1))
void checkMatMul(std::vector<int64_t> sa, std::vector<int64_t> sb, std::vector<int64_t> so, std::vector<float> y,
                 int opset = 13) {
  OpTester t("MatMul", opset);
  t.input("A", ramp(sa)).input("B", ramp(sb, 1)).expect("Y", f32(so, y));
  t.run();
}

TEST(LinalgMatMul, OneDLeft) { checkMatMul({3}, {3, 2}, {2}, {1, -0.5f}); }
TEST(LinalgMatMul, OneDRight) { checkMatMul({2, 3}, {3}, {2}, {2, -0.25f}); }
TEST(LinalgMatMul, OneDBoth) { checkMatMul({3}, {3}, {}, {2}, 9); }
TEST(LinalgMatMul, ThreeDTimesTwoD) {
  checkMatMul({2, 2, 3}, {3, 4}, {2, 2, 4},
              {0.75f, -0.75f, -2.25f, -0.25f, 0, 0.75f, 1.5f, 0.5f, -2.5f, -3, -3.5f, 1.25f, 0.25f, 0.25f, 0.25f, 0.25f},
              1);
}
TEST(LinalgMatMul, BroadcastBatch) {
  checkMatMul({2, 1, 3, 4}, {5, 4, 2}, {2, 5, 3, 2},
              {1, -0.5f, -2, 4, 2, -0.25f, -0.5f, -2, 4, 4.75f, -0.25f, -0.75f, -2, -1.75f, 4.75f,
               0.25f, -0.75f, -1.25f, -1.75f, -3.25f, 0.25f, 1, -1.25f, -1.75f, -3.25f, -1.25f, 1, -1.75f,
               -1.75f, -0.5f, -4.5f, -1, 3, 0, -3.5f, -2.5f, -1, -1, 0, 0.5f, -2.5f, -3.25f, -1, 4.25f,
               0.5f, -0.75f, -3.25f, -0.5f, 4.25f, 4.25f, -0.75f, -0.25f, -0.5f, -1.25f, 4.25f, -1, -0.25f,
               0.25f, -1.25f, 3.25f});
}

// a = np.arange(6).reshape(2,3) - 2; b = np.arange(6).reshape(3,2) * 3 - 4; a @ b
TEST(LinalgMatMul, Int64) {
  OpTester t("MatMul", 13);
  t.input("A", Tensor::fromVector<int64_t>({2, 3}, {-2, -1, 0, 1, 2, 3}))
      .input("B", Tensor::fromVector<int64_t>({3, 2}, {-4, -1, 2, 5, 8, 11}))
      .expect("Y", Tensor::fromVector<int64_t>({2, 2}, {6, -3, 24, 42}));
  t.run();
}

// A large single GEMM is split over M rows across the pool; every row must
// still be right. A = ones((300, 40)), B[k, n] = n -> Y[m, n] = 40 * n.
TEST(LinalgMatMul, LargeSplitOverRows) {
  Tensor a(DataType::kFloat, {300, 40}), b(DataType::kFloat, {40, 50}), y(DataType::kFloat, {300, 50});
  for (int64_t i = 0; i < a.numel(); ++i) a.data<float>()[i] = 1;
  for (int64_t i = 0; i < b.numel(); ++i) b.data<float>()[i] = static_cast<float>(i % 50);
  for (int64_t i = 0; i < y.numel(); ++i) y.data<float>()[i] = 40.f * static_cast<float>(i % 50);
  OpTester t("MatMul", 13);
  t.input("A", a).input("B", b).expect("Y", y);
  t.run();
}

TEST(LinalgMatMul, InnerMismatchNamesBothShapes) {
  OpTester t("MatMul", 13);
  t.input("A", ramp({2, 3})).input("B", ramp({4, 2})).output("Y");
  t.expectError("input 0 ('A') has shape [2,3], input 1 ('B') has shape [4,2]");
}

// Gemm: for tA, tB in {0,1}: run("Gemm", [A.T if tA else A, B.T if tB else B, C],
//   transA=tA, transB=tB, alpha=0.5, beta=2.0) with A = ar(2,3), B = ar(3,4, off=2);
// op(A) and op(B) are the same matrices for every combination, so each C has one expected Y.
struct GemmCase {
  std::vector<int64_t> cShape;
  int cOff;
  bool hasC;
  std::vector<float> y;
};
const GemmCase kGemmCases[] = {
    {{}, 0, false, {-0.375f, -1.125f, -1.875f, -0.875f, 0.375f, 0.75f, 1.125f, 0.625f}},
    {{4}, 1, true, {-2.375f, -2.125f, -1.875f, 0.125f, -1.625f, -0.25f, 1.125f, 1.625f}},
    {{2, 1}, 3, true, {-0.375f, -1.125f, -1.875f, -0.875f, 1.375f, 1.75f, 2.125f, 1.625f}},
    {{2, 4}, 5, true, {1.625f, 1.875f, 2.125f, 4.125f, 6.375f, 7.75f, 9.125f, 2.625f}},
    {{1, 4}, 0, true, {-3.375f, -3.125f, -2.875f, -0.875f, -2.625f, -1.25f, 0.125f, 0.625f}},
};

TEST(LinalgGemm, AllTransposeAndCBroadcastCombinations) {
  const Tensor a = ramp({2, 3}), b = ramp({3, 4}, 2);
  for (const GemmCase& c : kGemmCases)
    for (int tA = 0; tA < 2; ++tA)
      for (int tB = 0; tB < 2; ++tB)
        for (bool constB : {false, true}) {
          SCOPED_TRACE("C " + shapeToString(c.cShape) + " transA " + std::to_string(tA) + " transB " +
                       std::to_string(tB) + (constB ? " constant B" : ""));
          OpTester t("Gemm", c.hasC ? 9 : 11);
          t.attr("transA", tA).attr("transB", tB).attr("alpha", 0.5f).attr("beta", 2.0f);
          t.input("A", tA ? transposed(a) : a).input("B", tB ? transposed(b) : b, constB);
          if (c.hasC) t.input("C", ramp(c.cShape, c.cOff));
          t.expect("Y", f32({2, 4}, c.y));
          t.run();
        }
}

// Scalar C: ar(...) of shape () is not what was used; C = np.array(2.5).
TEST(LinalgGemm, ScalarC) {
  OpTester t("Gemm", 7);
  t.attr("alpha", 0.5f).attr("beta", 2.0f);
  t.input("A", ramp({2, 3})).input("B", ramp({3, 4}, 2)).input("C", Tensor::scalar<float>(2.5f));
  t.expect("Y", f32({2, 4}, {4.625f, 3.875f, 3.125f, 4.125f, 5.375f, 5.75f, 6.125f, 5.625f}));
  t.run();
}

// Defaults alpha = beta = 1, no transposes: run("Gemm", [A, B, ar(4)], {}, 13)
TEST(LinalgGemm, DefaultsOldOpset) {
  for (int opset : {1, 6, 13}) {
    OpTester t("Gemm", opset);
    t.input("A", ramp({2, 3})).input("B", ramp({3, 4}, 2), true).input("C", ramp({4}));
    t.expect("Y", f32({2, 4}, {-2.25f, -3.25f, -4.25f, -1.75f, -0.75f, 0.5f, 1.75f, 1.25f}));
    t.run();
  }
}

TEST(LinalgGemm, Double) {
  // [[1,2],[3,4]] @ [[1,0],[0,1]] * 2 + 1
  OpTester t("Gemm", 13);
  t.attr("alpha", 2.0f).attr("beta", 1.0f);
  t.input("A", Tensor::fromVector<double>({2, 2}, {1, 2, 3, 4}))
      .input("B", Tensor::fromVector<double>({2, 2}, {1, 0, 0, 1}))
      .input("C", Tensor::fromVector<double>({1}, {1}))
      .expect("Y", Tensor::fromVector<double>({2, 2}, {3, 5, 7, 9}));
  t.run();
}

TEST(LinalgGemm, CNotBroadcastable) {
  OpTester t("Gemm", 13);
  t.input("A", ramp({2, 3})).input("B", ramp({3, 4})).input("C", ramp({3})).output("Y");
  t.expectError("input 2 ('C') of shape [3] cannot be broadcast to the output shape [2,4]");
}

TEST(LinalgGemm, InnerMismatch) {
  OpTester t("Gemm", 13);
  t.attr("transB", 1);
  t.input("A", ramp({2, 3})).input("B", ramp({3, 4})).output("Y");
  t.expectError("input 1 ('B') has shape [3,4] (transposed)");
}

}  // namespace
}  // namespace oinfer::testing

namespace oinfer::testing {

// float16 widens to float and rounds once. numpy:
//   a = np.array([[1, 2.5], [-3, 0.125]], np.float16); b = np.array([[2, -1, 0.5], [4, 0.25, 8]], np.float16)
//   (a.astype(np.float32) @ b.astype(np.float32)).astype(np.float16)
//   -> [[12, -0.375, 20.5], [-5.5, 3.03125, -0.5]]
TEST(LinalgMatMul, Float16) {
  auto h = [](std::vector<float> v) {
    std::vector<Float16> out;
    for (float f : v) out.push_back(Float16(f));
    return out;
  };
  OpTester t("MatMul", 13);
  t.input("A", Tensor::fromVector<Float16>({2, 2}, h({1, 2.5f, -3, 0.125f})));
  t.input("B", Tensor::fromVector<Float16>({2, 3}, h({2, -1, 0.5f, 4, 0.25f, 8})));
  t.expect("Y", Tensor::fromVector<Float16>({2, 3}, h({12, -0.375f, 20.5f, -5.5f, 3.03125f, -0.5f})));
  t.run();
}

}  // namespace oinfer::testing
