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

// Transpose of a rank-3 x by `perm` as index loops: y[i0, i1, i2] =
// x[...] with output axis d taking input axis perm[d]. Runs the op on x
// and compares.
void checkTranspose3(const Tensor& x, const std::vector<int64_t>& perm) {
  const std::vector<int64_t> xs = x.shape();
  Tensor e(DataType::kFloat, {xs[perm[0]], xs[perm[1]], xs[perm[2]]});
  const int64_t xStride[3] = {xs[1] * xs[2], xs[2], 1};
  int64_t i[3];
  int64_t k = 0;
  for (i[0] = 0; i[0] < e.dim(0); ++i[0])
    for (i[1] = 0; i[1] < e.dim(1); ++i[1])
      for (i[2] = 0; i[2] < e.dim(2); ++i[2])
        e.data<float>()[k++] = x.data<float>()[i[0] * xStride[perm[0]] + i[1] * xStride[perm[1]] + i[2] * xStride[perm[2]]];
  OpTester t("Transpose", 13);
  t.attr("perm", perm).input("x", x).expect("y", e);
  t.run();
}
}  // namespace

TEST(TensorLarge, TransposeMatchesNaive) { checkTranspose3(iota({4, 33, 70}), {2, 0, 1}); }

// The strided copy's two special cases: a swap of the last two dims (16 x 16
// blocks; sides off the block size, an outer dim), and a permutation that
// only moves a size-1 axis (one contiguous run, split over the threads).
TEST(TensorLarge, TransposeLastTwoAndUnitAxes) {
  checkTranspose3(iota({3, 37, 50}), {0, 2, 1});
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
