// CudaTester: runs one node through its CPU kernel (via OpTester, which also
// checks the shape function) and through its CUDA kernel, and compares the
// outputs. Device outputs sit between guard bytes that must survive the run,
// and start filled with 0xFF (NaN for floats) so an unwritten element fails.
//
//   CudaTester t("Add", 14);
//   t.input("A", randomTensor<float>({2, 3}, 1)).input("B", randomTensor<float>({3}, 2)).output("C");
//   t.run();  // skips the test (GTEST_SKIP) when no CUDA device is usable
//
// Inputs follow the kernel's declared placement (CudaKernel::inputPlace):
// device inputs are uploaded, host and owned ones are passed as host tensors,
// as the runtime does.
#pragma once

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "oinfer/tensor.h"
#include "op_tester.h"

namespace oinfer::testing {

// Uniform random values in [lo, hi) (integers: [lo, hi]).
template <class T>
Tensor randomTensor(const std::vector<int64_t>& shape, uint32_t seed, double lo = -1.0, double hi = 1.0) {
  Tensor t(dataTypeOf<T>, shape);
  std::mt19937 rng(seed);
  T* p = t.data<T>();
  for (int64_t i = 0; i < t.numel(); ++i) {
    if constexpr (std::is_same_v<T, bool>) {
      p[i] = (rng() & 1) != 0;
    } else if constexpr (std::is_integral_v<T>) {
      std::uniform_int_distribution<int64_t> d(static_cast<int64_t>(lo), static_cast<int64_t>(hi));
      p[i] = static_cast<T>(d(rng));
    } else {
      std::uniform_real_distribution<double> d(lo, hi);
      p[i] = T(static_cast<float>(d(rng)));
    }
  }
  return t;
}

// True when a CUDA device is usable; otherwise false and `why` says why.
bool cudaUsable(std::string* why);

#define OINFER_SKIP_WITHOUT_CUDA()                                              \
  do {                                                                          \
    std::string why_;                                                           \
    if (!::oinfer::testing::cudaUsable(&why_)) GTEST_SKIP() << "no CUDA device: " << why_; \
  } while (0)

class CudaTester {
 public:
  explicit CudaTester(std::string opType, int64_t opset = 17, std::string domain = "")
      : cpu_(std::move(opType), opset, std::move(domain)), opset_(opset) {}

  template <class V>
  CudaTester& attr(const std::string& name, const V& v) {
    cpu_.attr(name, v);
    return *this;
  }
  CudaTester& input(const std::string& name, const Tensor& value, bool constant = false) {
    cpu_.input(name, value, constant);
    inputs_.push_back(value);
    constant_.push_back(constant);
    return *this;
  }
  CudaTester& constantInput(const std::string& name, const Tensor& value) { return input(name, value, true); }
  CudaTester& absentInput() {
    cpu_.absentInput();
    inputs_.emplace_back();
    constant_.push_back(false);
    return *this;
  }
  CudaTester& output(const std::string& name) {
    cpu_.output(name);
    return *this;
  }
  CudaTester& absentOutput() {
    cpu_.absentOutput();
    return *this;
  }
  CudaTester& tolerance(double rtol, double atol) {
    rtol_ = rtol;
    atol_ = atol;
    return *this;
  }

  // Compares every output of the CUDA kernel with the CPU kernel's. Skips
  // the test without a device; fails when the CUDA factory declines.
  void run();
  // Expects the CUDA factory to decline the node (return nullptr); needs no device.
  void expectDecline();

  Node& node() { return cpu_.node(); }

 private:
  OpTester cpu_;
  int64_t opset_;
  std::vector<Tensor> inputs_;
  std::vector<bool> constant_;
  double rtol_ = 1e-4, atol_ = 1e-5;
};

}  // namespace oinfer::testing
