// Dropout in training mode (opset 12+, training_mode input true): the mask is
// Bernoulli(1 - ratio) and kept elements are scaled by 1 / (1 - ratio). The
// values are random, so these tests check the exact properties (each output
// 0 or x / (1 - ratio), mask consistent, ratio 0 is an identity), seeded
// determinism, and the kept fraction on a large sample within 4.5 binomial
// sd + 0.5 (a correct kernel fails that about once in 100,000; with a seed,
// never).
#include <gtest/gtest.h>

#include <cmath>

#include "oinfer/graph.h"
#include "oinfer/session.h"
#include "op_tester.h"
#include "ir_util.h"

namespace oinfer::testing {
namespace {

Tensor ramp(int64_t n) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[i] = static_cast<float>((i % 13) - 6) * 0.25f + 0.125f;  // never 0
  return Tensor::fromVector<float>({n}, v);
}

template <class T>
Tensor cast(const Tensor& x) {
  Tensor t(dataTypeOf<T>, x.shape());
  for (int64_t i = 0; i < x.numel(); ++i) t.data<T>()[i] = T(x.data<float>()[i]);
  return t;
}

TEST(DropoutTraining, ZeroRatioIsIdentityWithFullMask) {
  Tensor x = ramp(60).reshaped({3, 4, 5});
  for (int opset : {12, 13, 22}) {
    OpTester t("Dropout", opset);
    t.attr("seed", int64_t{0});
    t.input("x", x).input("r", Tensor::scalar<float>(0.f)).input("t", Tensor::scalar<bool>(true));
    t.expect("y", x, 0, 0).expect("z", Tensor::fromVector<bool>({3, 4, 5}, std::vector<bool>(60, true)));
    t.run();
  }
  OpTester d("Dropout", 22);
  Tensor xd = cast<double>(x);
  d.input("x", xd).input("r", Tensor::scalar<double>(0.0)).input("t", Tensor::scalar<bool>(true));
  d.expect("y", xd, 0, 0);
  d.run();
  OpTester h("Dropout", 13);
  Tensor xh = cast<Float16>(x);
  h.input("x", xh).input("r", Tensor::scalar<float>(0.f)).input("t", Tensor::scalar<bool>(true));
  h.expect("y", xh, 0, 0);
  h.run();
}

TEST(DropoutTraining, FalseTrainingModeIsIdentity) {
  Tensor x = ramp(10);
  OpTester t("Dropout", 13);
  t.input("x", x).input("r", Tensor::scalar<float>(0.9f)).input("t", Tensor::scalar<bool>(false));
  t.expect("y", x, 0, 0).expect("z", Tensor::fromVector<bool>({10}, std::vector<bool>(10, true)));
  t.run();
}

// Runs one training-mode Dropout; checks every element and returns the number kept.
template <class T>
int64_t checkedKept(const Tensor& x, float ratio, int opset, int64_t seed, Tensor* yOut = nullptr) {
  OpTester t("Dropout", opset);
  t.attr("seed", seed);
  t.input("x", x).input("r", Tensor::scalar<float>(ratio)).input("t", Tensor::scalar<bool>(true));
  t.output("y").output("z");
  auto outs = t.run();
  const Tensor& y = outs[0];
  const Tensor& z = outs[1];
  EXPECT_EQ(y.dtype(), x.dtype());
  EXPECT_EQ(y.shape(), x.shape());
  EXPECT_EQ(z.dtype(), DataType::kBool);
  EXPECT_EQ(z.shape(), x.shape());
  int64_t kept = 0;
  const float scale = 1.f / (1.f - ratio);
  for (int64_t i = 0; i < x.numel(); ++i) {
    const float xi = static_cast<float>(x.data<T>()[i]), yi = static_cast<float>(y.data<T>()[i]);
    if (z.data<bool>()[i]) {
      EXPECT_EQ(yi, static_cast<float>(T(xi * scale))) << i;
      ++kept;
    } else {
      EXPECT_EQ(yi, 0.f) << i;
    }
  }
  if (yOut) *yOut = y;
  return kept;
}

TEST(DropoutTraining, KeptFractionAndScaling) {
  const int64_t n = 100000;
  Tensor x = ramp(n);
  for (float ratio : {0.1f, 0.5f, 0.75f}) {
    const int64_t kept = checkedKept<float>(x, ratio, 22, 3);
    const double p = 1.0 - ratio;
    EXPECT_NEAR(static_cast<double>(kept), n * p, 4.5 * std::sqrt(n * p * (1 - p)) + 0.5) << "ratio " << ratio;
  }
  for (int opset : {12, 13}) checkedKept<float>(ramp(200), 0.5f, opset, 1);
  checkedKept<Float16>(cast<Float16>(ramp(200)), 0.25f, 22, 1);
  checkedKept<BFloat16>(cast<BFloat16>(ramp(200)), 0.25f, 22, 1);
  // Double keeps the scale in double.
  OpTester d("Dropout", 22);
  d.attr("seed", int64_t{2}).input("x", cast<double>(ramp(64))).input("r", Tensor::scalar<double>(0.3))
      .input("t", Tensor::scalar<bool>(true)).output("y");
  Tensor y = d.run()[0];
  Tensor xd = cast<double>(ramp(64));
  for (int64_t i = 0; i < 64; ++i)
    EXPECT_TRUE(y.data<double>()[i] == 0 || y.data<double>()[i] == xd.data<double>()[i] / (1.0 - 0.3)) << i;
}

TEST(DropoutTraining, AbsentRatioMeansHalf) {
  OpTester t("Dropout", 13);
  t.attr("seed", int64_t{4});
  t.input("x", ramp(1000)).absentInput().input("t", Tensor::scalar<bool>(true)).output("y").output("z");
  auto outs = t.run();
  int64_t kept = 0;
  for (int64_t i = 0; i < 1000; ++i) {
    const float xi = ramp(1000).data<float>()[i], yi = outs[0].data<float>()[i];
    EXPECT_EQ(yi, outs[1].data<bool>()[i] ? 2 * xi : 0.f) << i;
    kept += outs[1].data<bool>()[i];
  }
  EXPECT_NEAR(static_cast<double>(kept), 500.0, 4.5 * std::sqrt(1000 * 0.25) + 0.5);
}

TEST(DropoutTraining, SeedFixesTheMask) {
  Tensor a, b, c;
  checkedKept<float>(ramp(256), 0.5f, 22, 5, &a);
  checkedKept<float>(ramp(256), 0.5f, 22, 5, &b);
  checkedKept<float>(ramp(256), 0.5f, 22, 6, &c);
  EXPECT_EQ(std::memcmp(a.data(), b.data(), a.nbytes()), 0);
  EXPECT_NE(std::memcmp(a.data(), c.data(), a.nbytes()), 0);
}

TEST(DropoutTraining, Errors) {
  OpTester t("Dropout", 13);
  t.input("x", ramp(4)).input("r", Tensor::scalar<float>(1.f)).input("t", Tensor::scalar<bool>(true)).output("y");
  t.expectError("input 1 (ratio 'r') is 1.000000; training mode needs a ratio in [0, 1)");
  OpTester n("Dropout", 13);
  n.input("x", ramp(4)).input("r", Tensor::scalar<float>(-0.5f)).input("t", Tensor::scalar<bool>(true)).output("y");
  n.expectError("training mode needs a ratio in [0, 1)");
  OpTester m("Dropout", 13);
  m.input("x", ramp(4)).input("r", Tensor::fromVector<float>({2}, {0.1f, 0.2f}))
      .input("t", Tensor::scalar<bool>(true)).output("y");
  m.expectError("input 1 (ratio) must hold one value, got shape [2]");
}

TEST(DropoutTraining, ConstantInputsAreNotFolded) {
  // Every input is an initializer: a deterministic op would be folded at
  // load time; training-mode Dropout without a seed must draw anew each run.
  ir::Graph g;
  g.opsetImports[""] = 13;
  g.initializers["x"] = ramp(256);
  g.initializers["r"] = Tensor::scalar<float>(0.5f);
  g.initializers["t"] = Tensor::scalar<bool>(true);
  Node n;
  n.opType = "Dropout";
  n.name = "drop";
  n.inputs = {"x", "r", "t"};
  n.outputs = {"y"};
  g.nodes.push_back(n);
  g.outputs.push_back(ValueInfo{"y", ValueKind::kTensor, DataType::kUndefined, false, {}});
  Session s(wrap(g));
  Tensor y1 = s.run({})[0].clone(), y2 = s.run({})[0].clone();
  ASSERT_EQ(y1.shape(), (std::vector<int64_t>{256}));
  EXPECT_NE(std::memcmp(y1.data(), y2.data(), y1.nbytes()), 0);
}

}  // namespace
}  // namespace oinfer::testing
