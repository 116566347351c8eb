// The random family: RandomUniform, RandomNormal, RandomUniformLike,
// RandomNormalLike, Bernoulli, Multinomial. Their values cannot be compared
// with a reference, so these tests check dtype and shape (also against the
// shape function, through OpTester), exact properties (ranges, p = 0 or 1),
// seeded determinism across kernel instances and Sessions, and statistics on
// large samples. Every statistical bound is |observed - expected| <= 4.5 sd
// (+ 0.5 for counts): a correct kernel fails one such check about once in
// 100,000, and with a fixed seed never (the draws are reproducible).
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "oinfer/graph.h"
#include "oinfer/session.h"
#include "op_tester.h"
#include "ir_util.h"

namespace oinfer::testing {
namespace {

constexpr double kZ = 4.5;

double at(const Tensor& t, int64_t i) {
  switch (t.dtype()) {
    case DataType::kFloat: return t.data<float>()[i];
    case DataType::kDouble: return t.data<double>()[i];
    case DataType::kFloat16: return static_cast<float>(t.data<Float16>()[i]);
    case DataType::kBFloat16: return static_cast<float>(t.data<BFloat16>()[i]);
    case DataType::kInt32: return t.data<int32_t>()[i];
    case DataType::kInt64: return static_cast<double>(t.data<int64_t>()[i]);
    case DataType::kUInt8: return t.data<uint8_t>()[i];
    case DataType::kBool: return t.data<bool>()[i];
    default: ADD_FAILURE() << "unexpected dtype " << dataTypeName(t.dtype()); return 0;
  }
}

double mean(const Tensor& t) {
  double s = 0;
  for (int64_t i = 0; i < t.numel(); ++i) s += at(t, i);
  return s / static_cast<double>(t.numel());
}

double variance(const Tensor& t) {
  const double m = mean(t);
  double s = 0;
  for (int64_t i = 0; i < t.numel(); ++i) s += (at(t, i) - m) * (at(t, i) - m);
  return s / static_cast<double>(t.numel() - 1);
}

bool identical(const Tensor& a, const Tensor& b) {
  return a.dtype() == b.dtype() && a.shape() == b.shape() && std::memcmp(a.data(), b.data(), a.nbytes()) == 0;
}

Tensor runUniform(DataType dt, std::vector<int64_t> shape, float low, float high, int opset, const float* seed) {
  OpTester t("RandomUniform", opset);
  t.attr("dtype", static_cast<int64_t>(dt)).attr("shape", shape).attr("low", low).attr("high", high);
  if (seed) t.attr("seed", *seed);
  t.output("y");
  return t.run()[0];
}

TEST(RandomUniform, DtypesShapesAndRange) {
  const float seed = 3.f;
  for (int opset : {1, 22})
    for (DataType dt : {DataType::kFloat, DataType::kDouble, DataType::kFloat16, DataType::kBFloat16}) {
      Tensor y = runUniform(dt, {3, 4, 5}, -2.f, 3.f, opset, &seed);
      ASSERT_EQ(y.dtype(), dt);
      ASSERT_EQ(y.shape(), (std::vector<int64_t>{3, 4, 5}));
      for (int64_t i = 0; i < y.numel(); ++i) {
        ASSERT_GE(at(y, i), -2.0) << dataTypeName(dt) << " " << i;
        ASSERT_LT(at(y, i), 3.0) << dataTypeName(dt) << " " << i;
      }
    }
}

TEST(RandomUniform, NeverReachesHighAfterRounding) {
  // bfloat16 has 7 fraction bits: between 1 and 1 + 2^-7 there is nothing, so
  // the upper half of the draws rounds to high and must be pulled back to 1.
  const float seed = 1.f;
  Tensor y = runUniform(DataType::kBFloat16, {20000}, 1.f, 1.0078125f, 22, &seed);
  for (int64_t i = 0; i < y.numel(); ++i) ASSERT_EQ(at(y, i), 1.0) << i;
  // float16 (10 fraction bits): four values below 1 + 2^-8.
  Tensor h = runUniform(DataType::kFloat16, {20000}, 1.f, 1.00390625f, 22, &seed);
  for (int64_t i = 0; i < h.numel(); ++i) {
    ASSERT_GE(at(h, i), 1.0) << i;
    ASSERT_LT(at(h, i), 1.00390625) << i;
  }
}

TEST(RandomUniform, EqualLowAndHighGivesLow) {
  Tensor y = runUniform(DataType::kFloat, {7}, 2.5f, 2.5f, 22, nullptr);
  for (int64_t i = 0; i < 7; ++i) EXPECT_EQ(at(y, i), 2.5);
}

TEST(RandomUniform, SeedFixesTheSequence) {
  const float s1 = 7.f, s2 = 8.f;
  Tensor a = runUniform(DataType::kFloat, {1000}, 0.f, 1.f, 22, &s1);
  Tensor b = runUniform(DataType::kFloat, {1000}, 0.f, 1.f, 22, &s1);
  Tensor c = runUniform(DataType::kFloat, {1000}, 0.f, 1.f, 22, &s2);
  EXPECT_TRUE(identical(a, b));
  EXPECT_FALSE(identical(a, c));
  // Unseeded instances draw differently (1000 equal floats: never by chance).
  Tensor d = runUniform(DataType::kFloat, {1000}, 0.f, 1.f, 22, nullptr);
  Tensor e = runUniform(DataType::kFloat, {1000}, 0.f, 1.f, 22, nullptr);
  EXPECT_FALSE(identical(d, e));
}

TEST(RandomUniform, Statistics) {
  // U(low, high): mean (low+high)/2, variance (high-low)^2/12; the sample
  // variance of n uniforms has variance (mu4 - sigma^4)/n with mu4 = w^4/80.
  const float seed = 11.f;
  const int64_t n = 200000;
  Tensor y = runUniform(DataType::kDouble, {n}, -1.f, 3.f, 22, &seed);
  const double w = 4, sd = w / std::sqrt(12.0);
  EXPECT_NEAR(mean(y), 1.0, kZ * sd / std::sqrt(n));
  const double var = w * w / 12, varSd = std::sqrt((std::pow(w, 4) / 80 - var * var) / n);
  EXPECT_NEAR(variance(y), var, kZ * varSd);
  // Each of 10 equal bins holds n/10 draws within the binomial bound.
  std::vector<int64_t> bins(10);
  for (int64_t i = 0; i < n; ++i) ++bins[static_cast<size_t>((at(y, i) + 1) / w * 10)];
  for (int64_t b : bins) EXPECT_NEAR(static_cast<double>(b), n / 10.0, kZ * std::sqrt(n * 0.1 * 0.9) + 0.5);
}

TEST(RandomUniform, Errors) {
  OpTester t("RandomUniform", 22);
  t.attr("dtype", int64_t{1}).output("y");
  t.expectError("attribute 'shape' is required");
  OpTester d("RandomUniform", 22);
  d.attr("dtype", int64_t{7}).attr("shape", std::vector<int64_t>{2}).output("y");
  d.expectError("dtype 7 is not one of float16, bfloat16, float, double");
  OpTester r("RandomUniform", 22);
  r.attr("shape", std::vector<int64_t>{2}).attr("low", 2.f).attr("high", 1.f).output("y");
  r.expectError("attribute low (2.000000) must not exceed high (1.000000)");
}

TEST(RandomNormal, DtypesShapesAndStatistics) {
  for (int opset : {1, 22})
    for (DataType dt : {DataType::kFloat, DataType::kDouble, DataType::kFloat16, DataType::kBFloat16}) {
      OpTester t("RandomNormal", opset);
      t.attr("dtype", static_cast<int64_t>(dt)).attr("shape", std::vector<int64_t>{2, 3}).attr("seed", 5.f);
      t.output("y");
      Tensor y = t.run()[0];
      EXPECT_EQ(y.dtype(), dt);
      EXPECT_EQ(y.shape(), (std::vector<int64_t>{2, 3}));
    }
  // N(mean, scale^2): sample mean within 4.5 scale/sqrt(n); the sample
  // variance has sd scale^2 sqrt(2/n); 4.5% of draws beyond 2 sd (two-sided
  // tail 0.0455) within the binomial bound.
  const int64_t n = 200000;
  OpTester t("RandomNormal", 22);
  t.attr("dtype", int64_t{11}).attr("shape", std::vector<int64_t>{n}).attr("mean", 2.f).attr("scale", 0.5f);
  t.attr("seed", 9.f).output("y");
  Tensor y = t.run()[0];
  EXPECT_NEAR(mean(y), 2.0, kZ * 0.5 / std::sqrt(n));
  EXPECT_NEAR(variance(y), 0.25, kZ * 0.25 * std::sqrt(2.0 / n));
  int64_t tails = 0;
  for (int64_t i = 0; i < n; ++i) tails += std::fabs(at(y, i) - 2.0) > 1.0;
  const double p = 0.0455002638963584;
  EXPECT_NEAR(static_cast<double>(tails), n * p, kZ * std::sqrt(n * p * (1 - p)) + 0.5);
}

TEST(RandomUniformLike, TakesInputShapeAndType) {
  for (int opset : {1, 22}) {
    OpTester t("RandomUniformLike", opset);
    t.attr("low", 5.f).attr("high", 6.f).input("x", Tensor(DataType::kDouble, {2, 3, 4})).output("y");
    Tensor y = t.run()[0];
    EXPECT_EQ(y.dtype(), DataType::kDouble);
    EXPECT_EQ(y.shape(), (std::vector<int64_t>{2, 3, 4}));
    for (int64_t i = 0; i < y.numel(); ++i) {
      EXPECT_GE(at(y, i), 5.0);
      EXPECT_LT(at(y, i), 6.0);
    }
  }
  // dtype overrides; any input type (here strings) only lends its shape.
  OpTester s("RandomUniformLike", 22);
  s.attr("dtype", int64_t{16}).input("x", Tensor(DataType::kString, {3})).output("y");
  Tensor y = s.run()[0];
  EXPECT_EQ(y.dtype(), DataType::kBFloat16);
  EXPECT_EQ(y.shape(), (std::vector<int64_t>{3}));
}

TEST(RandomNormalLike, TakesInputShapeAndStatistics) {
  const int64_t n = 100000;
  OpTester t("RandomNormalLike", 22);
  t.attr("dtype", int64_t{1}).attr("mean", -1.f).attr("scale", 3.f).attr("seed", 2.f);
  t.input("x", Tensor(DataType::kInt64, {n / 4, 4})).output("y");
  Tensor y = t.run()[0];
  EXPECT_EQ(y.dtype(), DataType::kFloat);
  EXPECT_EQ(y.shape(), (std::vector<int64_t>{n / 4, 4}));
  EXPECT_NEAR(mean(y), -1.0, kZ * 3.0 / std::sqrt(n));
  EXPECT_NEAR(variance(y), 9.0, kZ * 9.0 * std::sqrt(2.0 / n));
}

TEST(RandomLike, NonFloatInputNeedsDtype) {
  OpTester t("RandomNormalLike", 22);
  t.input("x", Tensor(DataType::kInt32, {2})).output("y");
  t.expectError("without a dtype attribute the output takes input 0's type, and int32 is not a floating type");
}

Tensor probabilities(int64_t n, double p) {
  std::vector<float> v(static_cast<size_t>(n), static_cast<float>(p));
  return Tensor::fromVector<float>({n}, v);
}

TEST(Bernoulli, OutputDtypesAndExactProbabilities) {
  // p = 0 must give 0 and p = 1 must give 1, in every output dtype.
  Tensor p = Tensor::fromVector<float>({2, 3}, {0, 1, 0, 1, 1, 0});
  for (int opset : {15, 22})
    for (DataType dt : {DataType::kFloat, DataType::kDouble, DataType::kFloat16, DataType::kBFloat16,
                        DataType::kInt32, DataType::kInt64, DataType::kUInt8, DataType::kBool}) {
      OpTester t("Bernoulli", opset);
      t.attr("dtype", static_cast<int64_t>(dt)).input("x", p).output("y");
      Tensor y = t.run()[0];
      ASSERT_EQ(y.dtype(), dt);
      ASSERT_EQ(y.shape(), (std::vector<int64_t>{2, 3}));
      for (int64_t i = 0; i < 6; ++i) EXPECT_EQ(at(y, i), at(p, i)) << dataTypeName(dt) << " " << i;
    }
  // Without dtype the output takes the input's type.
  OpTester t("Bernoulli", 22);
  t.input("x", Tensor::fromVector<double>({2}, {0, 1})).output("y");
  Tensor y = t.run()[0];
  EXPECT_EQ(y.dtype(), DataType::kDouble);
  EXPECT_EQ(at(y, 1), 1.0);
}

TEST(Bernoulli, Statistics) {
  // Ones ~ Binomial(n, p): within 4.5 sqrt(n p (1-p)) + 0.5 of n p.
  const int64_t n = 100000;
  for (double p : {0.05, 0.3, 0.5, 0.9}) {
    OpTester t("Bernoulli", 22);
    t.attr("seed", 4.f).input("x", probabilities(n, p)).output("y");
    Tensor y = t.run()[0];
    double ones = 0;
    for (int64_t i = 0; i < n; ++i) {
      ASSERT_TRUE(at(y, i) == 0 || at(y, i) == 1);
      ones += at(y, i);
    }
    EXPECT_NEAR(ones, n * p, kZ * std::sqrt(n * p * (1 - p)) + 0.5) << "p=" << p;
  }
}

TEST(Bernoulli, SeedFixesTheSequence) {
  auto draw = [](float seed) {
    OpTester t("Bernoulli", 22);
    t.attr("seed", seed).input("x", probabilities(512, 0.5)).output("y");
    return t.run()[0];
  };
  EXPECT_TRUE(identical(draw(1.f), draw(1.f)));
  EXPECT_FALSE(identical(draw(1.f), draw(2.f)));
}

TEST(Bernoulli, Errors) {
  OpTester t("Bernoulli", 22);
  t.input("x", Tensor::fromVector<float>({3}, {0.5f, 1.5f, 0.f})).output("y");
  t.expectError("input 0 ('x') element 1 is 1.5; a probability must be in [0, 1]");
  OpTester n("Bernoulli", 22);
  n.input("x", Tensor::fromVector<float>({1}, {NAN})).output("y");
  n.expectError("element 0 is nan; a probability must be in [0, 1]");
  OpTester i("Bernoulli", 22);
  i.input("x", Tensor::fromVector<int32_t>({1}, {1})).output("y");
  i.expectError("input 0 ('x') holds probabilities and must be a floating type, got int32");
  OpTester d("Bernoulli", 22);
  d.attr("dtype", int64_t{8}).input("x", probabilities(1, 0.5)).output("y");
  d.expectError("dtype 8 is not a numeric or bool type");
}

TEST(Multinomial, ShapeDtypeAndFrequencies) {
  // Unnormalised log-probabilities log(1), log(2), log(7) + 5 -> p = 0.1, 0.2, 0.7.
  const int64_t samples = 60000;
  const float off = 5.f;
  Tensor logits = Tensor::fromVector<float>(
      {2, 3}, {std::log(1.f) + off, std::log(2.f) + off, std::log(7.f) + off, 0.f, -INFINITY, -INFINITY});
  for (int opset : {7, 22})
    for (DataType dt : {DataType::kInt32, DataType::kInt64}) {
      OpTester t("Multinomial", opset);
      t.attr("dtype", static_cast<int64_t>(dt)).attr("sample_size", samples).attr("seed", 6.f);
      t.input("x", logits).output("y");
      Tensor y = t.run()[0];
      ASSERT_EQ(y.dtype(), dt);
      ASSERT_EQ(y.shape(), (std::vector<int64_t>{2, samples}));
      std::vector<double> counts(3);
      for (int64_t s = 0; s < samples; ++s) {
        const double k = at(y, s);
        ASSERT_TRUE(k == 0 || k == 1 || k == 2) << k;
        ++counts[static_cast<size_t>(k)];
        ASSERT_EQ(at(y, samples + s), 0.0) << "row 1 has one possible class";
      }
      const double p[3] = {0.1, 0.2, 0.7};
      for (int c = 0; c < 3; ++c)
        EXPECT_NEAR(counts[c], samples * p[c], kZ * std::sqrt(samples * p[c] * (1 - p[c])) + 0.5) << c;
    }
  // Defaults: int32, one sample.
  OpTester d("Multinomial", 22);
  d.input("x", Tensor::fromVector<double>({1, 2}, {0, 0})).output("y");
  Tensor y = d.run()[0];
  EXPECT_EQ(y.dtype(), DataType::kInt32);
  EXPECT_EQ(y.shape(), (std::vector<int64_t>{1, 1}));
}

TEST(Multinomial, Errors) {
  OpTester r("Multinomial", 22);
  r.input("x", Tensor(DataType::kFloat, {4})).output("y");
  r.expectError("input 0 ('x') must be [batch_size, class_size], got [4]");
  OpTester d("Multinomial", 22);
  d.attr("dtype", int64_t{1}).input("x", Tensor(DataType::kFloat, {1, 2})).output("y");
  d.expectError("dtype 1 must be int32 (6) or int64 (7)");
  OpTester n("Multinomial", 22);
  n.input("x", Tensor::fromVector<float>({1, 2}, {-INFINITY, -INFINITY})).output("y");
  n.expectError("row 0 of input 0 ('x') has no finite maximum log-probability");
}

// y = RandomUniform(shape [64]), in a Session.
ir::Graph uniformGraph(bool seeded) {
  ir::Graph g;
  g.opsetImports[""] = 22;
  Node n;
  n.opType = "RandomUniform";
  n.name = "rng";
  n.outputs = {"y"};
  Attribute shape;
  shape.name = "shape";
  shape.type = AttrType::kInts;
  shape.ints = {64};
  n.attributes.push_back(shape);
  if (seeded) {
    Attribute seed;
    seed.name = "seed";
    seed.type = AttrType::kFloat;
    seed.f = 42.f;
    n.attributes.push_back(seed);
  }
  g.nodes.push_back(n);
  g.outputs.push_back(ValueInfo{"y", ValueKind::kTensor, DataType::kUndefined, false, {}});
  return g;
}

TEST(RandomSession, NeverConstantFoldedAndSeedReproducesAcrossSessions) {
  // The node has no inputs, so a deterministic op would be folded at load
  // time and every run would return the same tensor.
  Session a(wrap(uniformGraph(true))), b(wrap(uniformGraph(true))), c(wrap(uniformGraph(false))), d(wrap(uniformGraph(false)));
  Tensor a1 = a.run({})[0].clone(), a2 = a.run({})[0].clone();
  Tensor b1 = b.run({})[0].clone(), b2 = b.run({})[0].clone();
  EXPECT_EQ(a1.shape(), (std::vector<int64_t>{64}));
  EXPECT_FALSE(identical(a1, a2)) << "successive runs continue the sequence";
  EXPECT_TRUE(identical(a1, b1)) << "same seed, same sequence in another Session";
  EXPECT_TRUE(identical(a2, b2));
  Tensor c1 = c.run({})[0].clone(), c2 = c.run({})[0].clone(), d1 = d.run({})[0].clone();
  EXPECT_FALSE(identical(c1, c2));
  EXPECT_FALSE(identical(c1, d1)) << "unseeded Sessions draw differently";
}

}  // namespace
}  // namespace oinfer::testing
