// Half-precision inputs through float kernels (src/ops/cpu/compute_in_float.h).
#include <gtest/gtest.h>

#include "op_tester.h"

namespace oinfer::testing {
namespace {

template <class H>
Tensor half(std::vector<int64_t> shape, std::vector<float> v) {
  std::vector<H> out;
  for (float f : v) out.push_back(H(f));
  return Tensor::fromVector<H>(std::move(shape), out);
}

// numpy: x = np.arange(9, dtype=np.float16).reshape(1, 1, 3, 3); w = np.ones((1, 1, 2, 2))
//   valid 2x2 correlation -> [[8, 12], [20, 24]], + bias 0.5
TEST(ComputeInFloat, ConvFloat16WithConstantWeights) {
  OpTester t("Conv", 11);
  t.input("X", half<Float16>({1, 1, 3, 3}, {0, 1, 2, 3, 4, 5, 6, 7, 8}));
  t.constantInput("W", half<Float16>({1, 1, 2, 2}, {1, 1, 1, 1}));
  t.constantInput("B", half<Float16>({1}, {0.5f}));
  t.expect("Y", half<Float16>({1, 1, 2, 2}, {8.5f, 12.5f, 20.5f, 24.5f}));
  t.run();
}

// numpy (float32 then rounded to bfloat16): A @ B.T * 2 + C with
//   A = [[1, 2], [3, 4]], B = [[1, 0], [0.5, 1]], C = [1, -1]  -> [[3, 4], [7, 10]]
TEST(ComputeInFloat, GemmBFloat16) {
  OpTester t("Gemm", 13);
  t.attr("transB", 1).attr("alpha", 2.f);
  t.input("A", half<BFloat16>({2, 2}, {1, 2, 3, 4}));
  t.input("B", half<BFloat16>({2, 2}, {1, 0, 0.5f, 1}));
  t.input("C", half<BFloat16>({2}, {1, -1}));
  t.expect("Y", half<BFloat16>({2, 2}, {3, 4, 7, 10}));
  t.run();
}

}  // namespace
}  // namespace oinfer::testing
