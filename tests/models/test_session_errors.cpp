// Session::run input checks on real models: each bad call is an
// oinfer::Error whose message names the input and both sides, and the Session
// stays usable afterwards.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "model_test_util.h"
#include "oinfer/error.h"
#include "oinfer/graph.h"
#include "oinfer/session.h"
#include "ir_util.h"

namespace oinfer::modeltest {
namespace {

void expectError(const std::function<void()>& fn, ErrorCode code, const std::string& message) {
  try {
    fn();
    ADD_FAILURE() << "no error; expected: " << message;
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), message);
    EXPECT_EQ(e.code(), code) << "code " << errorCodeName(e.code()) << ", expected " << errorCodeName(code);
  }
}

Tensor floats(std::vector<int64_t> shape) { return Tensor(DataType::kFloat, std::move(shape)); }

class ModelTestErrors : public ::testing::Test {
 protected:
  void SetUp() override {
    mobilenet_ = std::make_unique<Session>(Graph::loadFromONNX(modelPath("mobilenetv2")));
    ASSERT_EQ(irOf(mobilenet_->graph()).inputs.size(), 1u);
    ASSERT_EQ(irOf(mobilenet_->graph()).inputs[0].name, "x");
    good_ = loadDataSet(modelDir("mobilenetv2") + "/test_data_set_0");
  }
  // The Session still answers correctly after a rejected call.
  void expectStillWorks() {
    std::vector<Tensor> out = mobilenet_->run({{"x", good_.inputs[0]}});
    ASSERT_EQ(out.size(), 1u);
    EXPECT_TRUE(allClose(out[0], good_.outputs[0], "run after an error"));
  }
  std::unique_ptr<Session> mobilenet_;
  DataSet good_;
};

TEST_F(ModelTestErrors, UnknownInputName) {
  expectError([&] { mobilenet_->run({{"x", good_.inputs[0]}, {"y", floats({1})}}); }, ErrorCode::kInvalidArgument,
              "unknown input 'y'; the model's inputs are 'x'");
  expectStillWorks();
}

TEST_F(ModelTestErrors, MissingInput) {
  expectError([&] { mobilenet_->run({}); }, ErrorCode::kInvalidArgument, "missing input 'x'");
  Session two(Graph::loadFromONNX(modelPath("sym_two_inputs")));
  expectError([&] { two.run({{"a", floats({2, 3})}}); }, ErrorCode::kInvalidArgument, "missing input 'b'");
  expectStillWorks();
}

TEST_F(ModelTestErrors, EmptyTensor) {
  expectError([&] { mobilenet_->run({{"x", Tensor()}}); }, ErrorCode::kInvalidArgument,
              "input 'x' is an empty Tensor");
}

TEST_F(ModelTestErrors, WrongDataType) {
  expectError([&] { mobilenet_->run({{"x", Tensor(DataType::kDouble, {1, 3, 32, 32})}}); },
              ErrorCode::kInvalidArgument, "input 'x': data type float64, model expects float32");
  expectStillWorks();
}

TEST_F(ModelTestErrors, WrongDataTypeOfTokenIds) {
  Session encoder(Graph::loadFromONNX(modelPath("transformer_encoder")));
  expectError([&] { encoder.run({{"tokens", Tensor(DataType::kInt32, {1, 8})}}); }, ErrorCode::kInvalidArgument,
              "input 'tokens': data type int32, model expects int64");
}

TEST_F(ModelTestErrors, WrongRank) {
  expectError([&] { mobilenet_->run({{"x", floats({3, 32, 32})}}); }, ErrorCode::kInvalidArgument,
              "input 'x': rank 3 (shape [3,32,32]), model expects rank 4 ([N,3,32,32])");
  expectStillWorks();
}

TEST_F(ModelTestErrors, WrongRankOfTokenIds) {
  Session encoder(Graph::loadFromONNX(modelPath("transformer_encoder")));
  expectError([&] { encoder.run({{"tokens", Tensor(DataType::kInt64, {8})}}); }, ErrorCode::kInvalidArgument,
              "input 'tokens': rank 1 (shape [8]), model expects rank 2 ([batch,seq])");
}

TEST_F(ModelTestErrors, StaticDimensionMismatch) {
  expectError([&] { mobilenet_->run({{"x", floats({1, 4, 32, 32})}}); }, ErrorCode::kInvalidArgument,
              "input 'x': dimension 1 is 4, model expects 3");
  expectError([&] { mobilenet_->run({{"x", floats({2, 3, 32, 31})}}); }, ErrorCode::kInvalidArgument,
              "input 'x': dimension 3 is 31, model expects 32");
  expectStillWorks();
}

TEST_F(ModelTestErrors, InconsistentSymbolicDimension) {
  Session two(Graph::loadFromONNX(modelPath("sym_two_inputs")));
  expectError([&] { two.run({{"a", floats({2, 3})}, {"b", floats({4, 3})}}); }, ErrorCode::kInvalidArgument,
              "input 'b': dimension 0 ('N') is 4, but input 'a' set 'N' to 2");
  // The reference set still runs on the same Session.
  const DataSet ds = loadDataSet(modelDir("sym_two_inputs") + "/test_data_set_0");
  runAndCompare(two, ds, "sym_two_inputs after the error");
}

TEST_F(ModelTestErrors, UnknownFetchName) {
  expectError([&] { mobilenet_->run({{"x", good_.inputs[0]}}, {"logits", "nope"}); }, ErrorCode::kInvalidArgument,
              "unknown output 'nope': not a value of the model");
  expectStillWorks();
}

// A sequence longer than the 16-row position table sends out-of-range indices
// to the positional Gather: the kernel's error names the node.
TEST_F(ModelTestErrors, SequenceLongerThanPositionTable) {
  Session encoder(Graph::loadFromONNX(modelPath("transformer_encoder")));
  Tensor tokens(DataType::kInt64, {1, 20});  // zeros: valid token ids, 20 > 16 positions
  try {
    encoder.run({{"tokens", tokens}});
    ADD_FAILURE() << "no error for seq 20 with a 16-row position table";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("(Gather)"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace oinfer::modeltest
