// Tensor family kernels on inputs large enough to split across threads and to
// exercise the strided copy's coalescing, checked against plain index loops
// (the byte-moving ops have no arithmetic, so the naive loop is exact).
#include <numeric>

#include "op_tester.h"

using namespace oinfer;
using oinfer::testing::OpTester;

namespace {
Tensor iota(std::vector<int64_t> shape) {
  Tensor t(DataType::kFloat, std::move(shape));
  std::iota(t.data<float>(), t.data<float>() + t.numel(), 0.f);
  return t;
}
}  // namespace

TEST(TensorLarge, TransposeMatchesNaive) {
  const int64_t A = 4, B = 33, C = 70;
  Tensor x = iota({A, B, C});
  Tensor e(DataType::kFloat, {C, A, B});  // perm [2,0,1]
  for (int64_t a = 0; a < A; ++a)
    for (int64_t b = 0; b < B; ++b)
      for (int64_t c = 0; c < C; ++c) e.data<float>()[(c * A + a) * B + b] = x.data<float>()[(a * B + b) * C + c];
  OpTester t("Transpose", 13);
  t.attr("perm", std::vector<int64_t>{2, 0, 1}).input("x", x).expect("y", e);
  t.run();
}

// The strided copy's two special cases: a swap of the last two dims (16 x 16
// blocks; sides off the block size, an outer dim), and a permutation that
// only moves a size-1 axis (one contiguous run, split over the threads).
TEST(TensorLarge, TransposeLastTwoAndUnitAxes) {
  {
    const int64_t A = 3, B = 37, C = 50;
    Tensor x = iota({A, B, C});
    Tensor e(DataType::kFloat, {A, C, B});  // perm [0,2,1]
    for (int64_t a = 0; a < A; ++a)
      for (int64_t b = 0; b < B; ++b)
        for (int64_t c = 0; c < C; ++c) e.data<float>()[(a * C + c) * B + b] = x.data<float>()[(a * B + b) * C + c];
    OpTester t("Transpose", 13);
    t.attr("perm", std::vector<int64_t>{0, 2, 1}).input("x", x).expect("y", e);
    t.run();
  }
  {
    Tensor x = iota({1, 300, 200});
    Tensor e = iota({300, 1, 200});  // perm [1,0,2]: the same order in memory
    OpTester t("Transpose", 13);
    t.attr("perm", std::vector<int64_t>{1, 0, 2}).input("x", x).expect("y", e);
    t.run();
  }
}

TEST(TensorLarge, SliceStepMatchesNaive) {
  Tensor x = iota({50, 300});
  // x[45:2:-3, 7:290:5]
  std::vector<float> v;
  for (int64_t i = 45; i > 2; i -= 3)
    for (int64_t j = 7; j < 290; j += 5) v.push_back(x.data<float>()[i * 300 + j]);
  const int64_t rows = (45 - 2 + 2) / 3, cols = (290 - 7 + 4) / 5;
  OpTester t("Slice", 13);
  t.input("x", x)
      .constantInput("s", Tensor::fromVector<int64_t>({2}, {45, 7}))
      .constantInput("e", Tensor::fromVector<int64_t>({2}, {2, 290}))
      .constantInput("a", Tensor::fromVector<int64_t>({2}, {0, 1}))
      .constantInput("st", Tensor::fromVector<int64_t>({2}, {-3, 5}))
      .expect("y", Tensor::fromVector<float>({rows, cols}, v));
  t.run();
}

TEST(TensorLarge, ConcatThenSplitRoundTrip) {
  Tensor a = iota({20, 37, 9}), b = iota({20, 5, 9});
  OpTester c("Concat", 13);
  c.attr("axis", int64_t(1)).input("a", a).input("b", b).output("y");
  Tensor y = c.run()[0];
  OpTester s("Split", 13);
  s.attr("axis", int64_t(1)).input("y", y).constantInput("sp", Tensor::fromVector<int64_t>({2}, {37, 5}))
      .expect("a", a).expect("b", b);
  s.run();
}

TEST(TensorLarge, ExpandAndTileMatchNaive) {
  Tensor x = iota({64, 1});
  Tensor e(DataType::kFloat, {3, 64, 100});
  for (int64_t k = 0; k < 3; ++k)
    for (int64_t i = 0; i < 64; ++i)
      for (int64_t j = 0; j < 100; ++j) e.data<float>()[(k * 64 + i) * 100 + j] = float(i);
  OpTester t("Expand", 13);
  t.input("x", x).constantInput("s", Tensor::fromVector<int64_t>({3}, {3, 1, 100})).expect("y", e);
  t.run();
  Tensor z = iota({2, 3});
  Tensor f(DataType::kFloat, {200, 300});
  for (int64_t i = 0; i < 200; ++i)
    for (int64_t j = 0; j < 300; ++j) f.data<float>()[i * 300 + j] = z.data<float>()[(i % 2) * 3 + j % 3];
  OpTester u("Tile", 13);
  u.input("z", z).constantInput("r", Tensor::fromVector<int64_t>({2}, {100, 100})).expect("y", f);
  u.run();
}
