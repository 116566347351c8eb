// Session::runValues: graphs whose inputs or outputs are sequences or
// optionals (what the Python package feeds as lists and None), their checks
// with exact messages, and the same answers as run() on tensor graphs.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "ir_util.h"
#include "model_test_util.h"
#include "oinfer/session.h"
#include "oinfer/value.h"

namespace oinfer::modeltest {
namespace {

void expectError(const std::function<void()>& fn, ErrorCode code, const std::string& message) {
  try {
    fn();
    ADD_FAILURE() << "no error; expected: " << message;
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), message);
    EXPECT_EQ(e.code(), code) << errorCodeName(e.code());
  }
}

Tensor floats(std::vector<float> v) { return Tensor::fromVector<float>({int64_t(v.size())}, v); }

// out = SequenceInsert(seq, x); n = SequenceLength(out).
Graph sequenceGraph() {
  ir::Graph g;
  g.opsetImports[""] = 17;
  g.inputs.push_back(ValueInfo{"seq", ValueKind::kSequence, DataType::kFloat, false, {}});
  g.inputs.push_back(ValueInfo{"x", ValueKind::kTensor, DataType::kFloat, true, {Dim::sym("n")}});
  g.nodes.push_back(opNode("SequenceInsert", {"seq", "x"}, {"out"}));
  g.nodes.push_back(opNode("SequenceLength", {"out"}, {"len"}));
  g.outputs.push_back(ValueInfo{"out", ValueKind::kSequence, DataType::kFloat, false, {}});
  g.outputs.push_back(ValueInfo{"len", ValueKind::kTensor, DataType::kInt64, true, {}});
  return wrap(std::move(g));
}

TEST(RunValues, SequenceInAndOut) {
  Session s(sequenceGraph());
  const std::vector<Value> out =
      s.runValues({{"seq", Value::fromSequence({floats({1, 2, 3})})}, {"x", Value::fromTensor(floats({4, 5}))}});
  ASSERT_EQ(out.size(), 2u);
  ASSERT_TRUE(out[0].isSequence());
  ASSERT_EQ(out[0].sequence.size(), 2u);
  EXPECT_EQ(out[0].sequence[0].toVector<float>(), (std::vector<float>{1, 2, 3}));
  EXPECT_EQ(out[0].sequence[1].toVector<float>(), (std::vector<float>{4, 5}));
  ASSERT_TRUE(out[1].isTensor());
  EXPECT_EQ(out[1].tensor.toVector<int64_t>(), (std::vector<int64_t>{2}));

  // An empty sequence, and one output by name.
  const std::vector<Value> len =
      s.runValues({{"seq", Value::fromSequence({})}, {"x", Value::fromTensor(floats({7}))}}, {"len"});
  ASSERT_EQ(len.size(), 1u);
  EXPECT_EQ(len[0].tensor.toVector<int64_t>(), (std::vector<int64_t>{1}));
}

TEST(RunValues, TheCallersInputsAreNotReturnedOrKept) {
  Session s(sequenceGraph());
  Tensor a = floats({1, 2});
  const std::vector<Value> out =
      s.runValues({{"seq", Value::fromSequence({a})}, {"x", Value::fromTensor(floats({3}))}}, {"out"});
  ASSERT_EQ(out[0].sequence.size(), 2u);
  a.data<float>()[0] = 100;  // the caller's tensor changes after the run
  EXPECT_EQ(out[0].sequence[0].toVector<float>(), (std::vector<float>{1, 2}));
}

TEST(RunValues, Checks) {
  Session s(sequenceGraph());
  const Value x = Value::fromTensor(floats({4, 5}));
  expectError([&] { s.runValues({{"seq", Value::fromTensor(floats({1}))}, {"x", x}}); }, ErrorCode::kInvalidArgument,
              "input 'seq' is tensor float32 [1], model expects a sequence");
  expectError([&] { s.runValues({{"seq", Value::fromSequence({Tensor::fromVector<int64_t>({1}, {1})})}, {"x", x}}); },
              ErrorCode::kInvalidArgument, "input 'seq': sequence element 0 has data type int64, model expects float32");
  expectError([&] { s.runValues({{"seq", Value::fromSequence({})}, {"x", Value::fromSequence({})}}); },
              ErrorCode::kInvalidArgument, "input 'x' is sequence of 0 tensors, model expects a tensor");
  expectError([&] { s.runValues({{"seq", Value::fromSequence({})}}); }, ErrorCode::kInvalidArgument,
              "missing input 'x'");
  expectError([&] { s.runValues({{"seq", Value::fromSequence({})}, {"x", x}, {"y", x}}); },
              ErrorCode::kInvalidArgument, "unknown input 'y'; the model's inputs are 'seq', 'x'");
  expectError([&] { s.runValues({{"seq", Value::fromSequence({})}, {"x", Value::fromTensor(Tensor(DataType::kFloat, {2, 2}))}}); },
              ErrorCode::kInvalidArgument, "input 'x': rank 2 (shape [2,2]), model expects rank 1 ([n])");
  expectError([&] { s.runValues({{"seq", Value::fromSequence({})}, {"x", x}}, {"zzzzzzzz"}); },
              ErrorCode::kInvalidArgument, "unknown output 'zzzzzzzz': not a value of the model");
  // run() on a sequence input says where to go.
  expectError([&] { s.run({{"seq", floats({1})}, {"x", floats({1})}}); }, ErrorCode::kNotImplemented,
              "input 'seq' is not a tensor; Session::runValues takes sequence and optional inputs");
}

// has = OptionalHasElement(o): an optional input given a tensor or nothing.
TEST(RunValues, OptionalInput) {
  ir::Graph g;
  g.opsetImports[""] = 18;
  g.inputs.push_back(ValueInfo{"o", ValueKind::kOptional, DataType::kFloat, false, {}});
  g.nodes.push_back(opNode("OptionalHasElement", {"o"}, {"has"}));
  g.outputs.push_back(ValueInfo{"has", ValueKind::kTensor, DataType::kBool, true, {}});
  Session s(wrap(std::move(g)));
  EXPECT_EQ(s.runValues({{"o", Value::fromTensor(floats({1, 2}))}})[0].tensor.toVector<bool>(),
            (std::vector<bool>{true}));
  EXPECT_EQ(s.runValues({{"o", Value::none()}})[0].tensor.toVector<bool>(), (std::vector<bool>{false}));
}

// Identity of a sequence or an optional graph input is a value of its own
// (not a tensor view, which it once was: "cannot reshape [] to []"), and
// holds copies, not the caller's tensors.
TEST(RunValues, IdentityOfSequenceAndOptional) {
  ir::Graph g;
  g.opsetImports[""] = 18;
  g.inputs.push_back(ValueInfo{"s", ValueKind::kSequence, DataType::kFloat, false, {}});
  g.inputs.push_back(ValueInfo{"o", ValueKind::kOptional, DataType::kFloat, false, {}});
  g.nodes.push_back(opNode("Identity", {"s"}, {"s2"}));
  g.nodes.push_back(opNode("Identity", {"o"}, {"o2"}));
  g.outputs.push_back(ValueInfo{"s2", ValueKind::kSequence, DataType::kFloat, false, {}});
  g.outputs.push_back(ValueInfo{"o2", ValueKind::kOptional, DataType::kFloat, false, {}});
  Session s(wrap(std::move(g)));
  Tensor a = floats({1, 2});
  std::vector<Value> out = s.runValues({{"s", Value::fromSequence({a, floats({3})})}, {"o", Value::fromTensor(a)}});
  ASSERT_EQ(out.size(), 2u);
  ASSERT_TRUE(out[0].isSequence());
  ASSERT_EQ(out[0].sequence.size(), 2u);
  ASSERT_TRUE(out[1].isTensor());
  a.data<float>()[0] = 100;
  EXPECT_EQ(out[0].sequence[0].toVector<float>(), (std::vector<float>{1, 2}));
  EXPECT_EQ(out[0].sequence[1].toVector<float>(), (std::vector<float>{3}));
  EXPECT_EQ(out[1].tensor.toVector<float>(), (std::vector<float>{1, 2}));
  out = s.runValues({{"s", Value::fromSequence({})}, {"o", Value::none()}});
  EXPECT_TRUE(out[0].isSequence());
  EXPECT_TRUE(out[0].sequence.empty());
  EXPECT_TRUE(out[1].isNone());
}

// On a tensor graph runValues answers what run() answers, intermediates included.
TEST(RunValues, SameAsRunOnTensors) {
  Session s(Graph::loadFromONNX(std::string(OINFER_MODELS_DIR) + "/digits.onnx"));
  const Tensor px = loadNpy(std::string(OINFER_MODELS_DIR) + "/digits_samples/digit_7.npy");
  const std::vector<Tensor> want = s.run({{"pixels", px}});
  const std::vector<Value> got = s.runValues({{"pixels", Value::fromTensor(px)}});
  ASSERT_EQ(got.size(), 1u);
  ASSERT_TRUE(got[0].isTensor());
  EXPECT_TRUE(allClose(got[0].tensor, want[0], "runValues vs run", 0, 0));
  const std::vector<Value> hidden = s.runValues({{"pixels", Value::fromTensor(px)}}, {"hidden", "probabilities"});
  ASSERT_EQ(hidden.size(), 2u);
  EXPECT_EQ(hidden[0].tensor.shape(), (std::vector<int64_t>{1, 64}));
  EXPECT_TRUE(allClose(hidden[1].tensor, want[0], "probabilities next to hidden", 0, 0));
}

}  // namespace
}  // namespace oinfer::modeltest
