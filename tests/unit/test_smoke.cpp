#include <gtest/gtest.h>

#include "oinfer/tensor.h"

TEST(Tensor, ZeroInitialised) {
  oinfer::Tensor t(oinfer::DataType::kFloat, {2, 3});
  EXPECT_EQ(t.numel(), 6);
  EXPECT_EQ(t.data<float>()[5], 0.f);
}
