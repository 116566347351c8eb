// OpTester: runs one node through its registered shape function and CPU
// kernel, with no Session, and checks the results (in the spirit of TFLite
// Micro's kernel_runner and ONNX Runtime's OpTester).
//
//   OpTester t("Add", 14);
//   t.input("A", Tensor::fromVector<float>({2}, {1, 2}))
//    .input("B", Tensor::fromVector<float>({2}, {3, 4}))
//    .expect("C", Tensor::fromVector<float>({2}, {4, 6}));
//   t.run();                     // asserts values, dtype and shape
//
// run() also checks that each output's shape equals what the shape function
// inferred from the inputs' static shapes (like tract's debug check), and
// runs the same node a second time with every input dim symbolic to check the
// shape function copes with symbols (rank must be kept where it is known).
// Inputs marked constant() are visible to the shape function and the kernel
// factory as values (like initializers).
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "graph/ir.h"
#include "oinfer/graph.h"
#include "oinfer/tensor.h"

namespace oinfer::testing {

class OpTester {
 public:
  explicit OpTester(std::string opType, int64_t opset = 17, std::string domain = "");

  OpTester& attr(const std::string& name, int64_t v);
  OpTester& attr(const std::string& name, int v) { return attr(name, static_cast<int64_t>(v)); }
  OpTester& attr(const std::string& name, float v);
  OpTester& attr(const std::string& name, const std::string& v);
  OpTester& attr(const std::string& name, const char* v) { return attr(name, std::string(v)); }
  OpTester& attr(const std::string& name, const std::vector<int64_t>& v);
  OpTester& attr(const std::string& name, const std::vector<float>& v);
  OpTester& attr(const std::string& name, const std::vector<std::string>& v);
  OpTester& attr(const std::string& name, const Tensor& v);

  OpTester& input(const std::string& name, const Tensor& value, bool constant = false);
  OpTester& constantInput(const std::string& name, const Tensor& value) { return input(name, value, true); }
  OpTester& absentInput();  // an empty optional input slot
  // Expected output; rtol/atol apply to floating types (|a-e| <= atol + rtol*|e|).
  OpTester& expect(const std::string& name, const Tensor& expected, double rtol = 1e-4, double atol = 1e-6);
  OpTester& output(const std::string& name);  // an output computed but not checked
  OpTester& absentOutput();

  // Runs and checks. Returns the outputs.
  std::vector<Tensor> run();
  // Runs expecting an Error whose message contains `substring`.
  void expectError(const std::string& substring);

  Node& node() { return node_; }

 private:
  std::vector<Tensor> runOnce(bool symbolic);
  Node node_;
  int64_t opset_;
  std::vector<Tensor> inputs_;
  std::vector<bool> constant_;
  struct Expected {
    bool check = false;
    Tensor value;
    double rtol = 0, atol = 0;
  };
  std::vector<Expected> expected_;
};

// Compares with the ONNX backend rule; NaNs must be in the same places.
// Returns an empty string when equal, else a description of the first mismatch.
std::string compareTensors(const Tensor& actual, const Tensor& expected, double rtol, double atol);

}  // namespace oinfer::testing
