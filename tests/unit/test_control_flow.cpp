// Control flow, sequences and optionals through a Session, on small models
// built with the protobuf API: semantics the model test does not reach
// (early loop exit, reversed scans, stacking) and every kernel error path.
#include <gtest/gtest.h>

#include "loader_test_util.h"
#include "oinfer/session.h"

namespace {

using namespace loader_test;
using onnx::AttributeProto;
using onnx::TensorProto;

onnx::ModelProto emptyModel(int opset = 18) { return modelWithOpset(opset); }

oinfer::Tensor floats(std::vector<int64_t> shape, std::vector<float> v) {
  return oinfer::Tensor::fromVector<float>(std::move(shape), v);
}

std::vector<float> values(const oinfer::Tensor& t) { return t.toVector<float>(); }

std::string runError(oinfer::Session& s, const oinfer::TensorMap& in) {
  try {
    s.run(in);
  } catch (const oinfer::Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected an oinfer::Error";
  return "<no error>";
}

// x [3,2] -> SplitToSequence (rows) -> SequenceAt(pos) -> y
onnx::ModelProto sequenceAtModel() {
  auto m = emptyModel();
  auto* g = m.mutable_graph();
  vi(g->mutable_input(), "x", TensorProto::FLOAT, {3, 2});
  vi(g->mutable_input(), "pos", TensorProto::INT64, {});
  vi(g->mutable_output(), "y", TensorProto::FLOAT, {1, 2});
  auto* split = node(g, "SplitToSequence", {"x"}, {"rows"}, "split");
  attr(split, "axis", AttributeProto::INT)->set_i(0);
  node(g, "SequenceAt", {"rows", "pos"}, {"y"}, "at");
  return m;
}

TEST(Sequence, AtPicksARowAndCountsFromTheEnd) {
  oinfer::Session s(loadModel(sequenceAtModel()));
  const auto x = floats({3, 2}, {1, 2, 3, 4, 5, 6});
  auto out = s.run({{"x", x}, {"pos", oinfer::Tensor::scalar<int64_t>(1)}});
  EXPECT_EQ(out[0].shape(), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(values(out[0]), (std::vector<float>{3, 4}));
  out = s.run({{"x", x}, {"pos", oinfer::Tensor::scalar<int64_t>(-1)}});
  EXPECT_EQ(values(out[0]), (std::vector<float>{5, 6}));
}

TEST(Sequence, AtOutOfRangeNamesTheNodeAndTheRange) {
  oinfer::Session s(loadModel(sequenceAtModel()));
  const std::string msg = runError(s, {{"x", floats({3, 2}, {1, 2, 3, 4, 5, 6})},
                                       {"pos", oinfer::Tensor::scalar<int64_t>(5)}});
  EXPECT_HAS(msg, "node 'at' (SequenceAt)");
  EXPECT_HAS(msg, "position 5 is out of range [-3, 2] for a sequence of 3 tensors");
}

// a [2], b [2] -> SequenceConstruct -> ConcatFromSequence(axis, new_axis) -> y
onnx::ModelProto concatModel(int64_t axis, int64_t newAxis, std::vector<D> bShape) {
  auto m = emptyModel();
  auto* g = m.mutable_graph();
  vi(g->mutable_input(), "a", TensorProto::FLOAT, {2});
  vi(g->mutable_input(), "b", TensorProto::FLOAT, bShape);
  auto* y = g->add_output();
  y->set_name("y");
  setTensorType(y->mutable_type(), TensorProto::FLOAT, {}, false);
  node(g, "SequenceConstruct", {"a", "b"}, {"seq"}, "construct");
  auto* c = node(g, "ConcatFromSequence", {"seq"}, {"y"}, "concat");
  attr(c, "axis", AttributeProto::INT)->set_i(axis);
  attr(c, "new_axis", AttributeProto::INT)->set_i(newAxis);
  return m;
}

TEST(Sequence, ConcatFromSequenceConcatenatesOrStacks) {
  oinfer::Session cat(loadModel(concatModel(0, 0, {2})));
  auto out = cat.run({{"a", floats({2}, {1, 2})}, {"b", floats({2}, {3, 4})}});
  EXPECT_EQ(out[0].shape(), (std::vector<int64_t>{4}));
  EXPECT_EQ(values(out[0]), (std::vector<float>{1, 2, 3, 4}));
  oinfer::Session stack(loadModel(concatModel(-1, 1, {2})));
  out = stack.run({{"a", floats({2}, {1, 2})}, {"b", floats({2}, {3, 4})}});
  EXPECT_EQ(out[0].shape(), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(values(out[0]), (std::vector<float>{1, 3, 2, 4}));
}

TEST(Sequence, StackingUnequalShapesIsAnError) {
  oinfer::Session s(loadModel(concatModel(0, 1, {3})));
  const std::string msg = runError(s, {{"a", floats({2}, {1, 2})}, {"b", floats({3}, {3, 4, 5})}});
  EXPECT_HAS(msg, "node 'concat' (ConcatFromSequence)");
  EXPECT_HAS(msg, "tensor 1 of the sequence is float32 [3], tensor 0 is float32 [2]; stacking needs equal shapes");
}

// Loop (M = 10, cond input true): acc += 1 each step, cond_out = (i < 2):
// three iterations, then the body's condition stops it.
TEST(Loop, ConditionStopsEarlyAndScanOutputsStack) {
  auto m = emptyModel();
  auto* g = m.mutable_graph();
  vi(g->mutable_input(), "acc0", TensorProto::FLOAT, {1});
  vi(g->mutable_output(), "acc", TensorProto::FLOAT, {1});
  auto* sv = g->add_output();
  sv->set_name("steps");
  setTensorType(sv->mutable_type(), TensorProto::FLOAT, {}, false);
  auto* mt = g->add_initializer();
  mt->set_name("M");
  mt->set_data_type(TensorProto::INT64);
  mt->add_int64_data(10);
  auto* ct = g->add_initializer();
  ct->set_name("cond");
  ct->set_data_type(TensorProto::BOOL);
  ct->add_int32_data(1);
  initF(g, "one", {1}, {1.f});
  auto* two = g->add_initializer();
  two->set_name("two");
  two->set_data_type(TensorProto::INT64);
  two->add_int64_data(2);
  auto* loop = node(g, "Loop", {"M", "cond", "acc0"}, {"acc", "steps"}, "loop");
  auto* body = attr(loop, "body", AttributeProto::GRAPH)->mutable_g();
  body->set_name("body");
  vi(body->mutable_input(), "i", TensorProto::INT64, {});
  vi(body->mutable_input(), "c", TensorProto::BOOL, {});
  vi(body->mutable_input(), "a", TensorProto::FLOAT, {1});
  vi(body->mutable_output(), "c_out", TensorProto::BOOL, {});
  vi(body->mutable_output(), "a_out", TensorProto::FLOAT, {1});
  vi(body->mutable_output(), "a_scan", TensorProto::FLOAT, {1});
  node(body, "Add", {"a", "one"}, {"a_out"});
  node(body, "Less", {"i", "two"}, {"c_out"});
  node(body, "Identity", {"a_out"}, {"a_scan"});
  oinfer::Session s(loadModel(m));
  auto out = s.run({{"acc0", floats({1}, {10})}});
  EXPECT_EQ(values(out[0]), (std::vector<float>{13}));
  EXPECT_EQ(out[1].shape(), (std::vector<int64_t>{3, 1}));
  EXPECT_EQ(values(out[1]), (std::vector<float>{11, 12, 13}));
}

// Scan over x's axis 1 in reverse, running sum; scan output on axis 1.
TEST(Scan, ReverseDirectionAndOutputAxis) {
  auto m = emptyModel(16);
  auto* g = m.mutable_graph();
  vi(g->mutable_input(), "x", TensorProto::FLOAT, {2, 3});
  vi(g->mutable_output(), "sum", TensorProto::FLOAT, {2});
  vi(g->mutable_output(), "partial", TensorProto::FLOAT, {2, 3});
  initF(g, "zero", {2}, {0.f, 0.f});
  auto* scan = node(g, "Scan", {"zero", "x"}, {"sum", "partial"}, "scan");
  attr(scan, "num_scan_inputs", AttributeProto::INT)->set_i(1);
  attr(scan, "scan_input_axes", AttributeProto::INTS)->add_ints(1);
  attr(scan, "scan_input_directions", AttributeProto::INTS)->add_ints(1);
  attr(scan, "scan_output_axes", AttributeProto::INTS)->add_ints(1);
  auto* body = attr(scan, "body", AttributeProto::GRAPH)->mutable_g();
  body->set_name("body");
  vi(body->mutable_input(), "s", TensorProto::FLOAT, {2});
  vi(body->mutable_input(), "col", TensorProto::FLOAT, {2});
  vi(body->mutable_output(), "s_out", TensorProto::FLOAT, {2});
  vi(body->mutable_output(), "p", TensorProto::FLOAT, {2});
  node(body, "Add", {"s", "col"}, {"s_out"});
  node(body, "Identity", {"s_out"}, {"p"});
  oinfer::Session s(loadModel(m));
  auto out = s.run({{"x", floats({2, 3}, {1, 2, 3, 4, 5, 6})}});
  EXPECT_EQ(values(out[0]), (std::vector<float>{6, 15}));
  // Steps visit columns 2, 1, 0; the scan output keeps step order along axis 1.
  EXPECT_EQ(values(out[1]), (std::vector<float>{3, 5, 6, 6, 11, 15}));
}

onnx::ModelProto ifModel(const std::string& elseOp) {
  auto m = emptyModel();
  auto* g = m.mutable_graph();
  vi(g->mutable_input(), "c", TensorProto::BOOL, {"n"});
  vi(g->mutable_input(), "x", TensorProto::FLOAT, {2});
  auto* y = g->add_output();
  y->set_name("y");
  setTensorType(y->mutable_type(), TensorProto::FLOAT, {}, false);
  auto* n = node(g, "If", {"c"}, {"y"}, "branch");
  auto* t = attr(n, "then_branch", AttributeProto::GRAPH)->mutable_g();
  t->set_name("then");
  auto* to = t->add_output();
  to->set_name("t");
  setTensorType(to->mutable_type(), TensorProto::FLOAT, {}, false);
  node(t, "Neg", {"x"}, {"t"});
  auto* e = attr(n, "else_branch", AttributeProto::GRAPH)->mutable_g();
  e->set_name("else");
  auto* eo = e->add_output();
  eo->set_name("e");
  setTensorType(eo->mutable_type(), TensorProto::FLOAT, {}, false);
  node(e, elseOp, {"x"}, {"e"}, "inner");
  return m;
}

TEST(If, ConditionMustBeOneBool) {
  oinfer::Session s(loadModel(ifModel("Abs")));
  auto out = s.run({{"c", oinfer::Tensor::fromVector<bool>({1}, {false})}, {"x", floats({2}, {-1, 2})}});
  EXPECT_EQ(values(out[0]), (std::vector<float>{1, 2}));
  const std::string msg =
      runError(s, {{"c", oinfer::Tensor::fromVector<bool>({2}, {true, false})}, {"x", floats({2}, {-1, 2})}});
  EXPECT_HAS(msg, "node 'branch' (If)");
  EXPECT_HAS(msg, "the condition must be a bool tensor with one element, got bool [2]");
}

TEST(If, UnsupportedOpInsideABranchIsReportedAtLoad) {
  try {
    oinfer::Session s(loadModel(ifModel("NoSuchOp")));
    ADD_FAILURE() << "expected an unsupported-op error";
  } catch (const oinfer::Error& e) {
    const std::string msg = e.what();
    EXPECT_HAS(msg, "ai.onnx::NoSuchOp (opset 18), e.g. node 'inner'");
  }
}

// x -> Optional -> OptionalGetElement; an empty optional (no input, a type) fails.
TEST(Optional, GetElementOfAnEmptyOptionalIsAnError) {
  auto m = emptyModel();
  auto* g = m.mutable_graph();
  vi(g->mutable_input(), "x", TensorProto::FLOAT, {2});
  auto* y = g->add_output();
  y->set_name("y");
  setTensorType(y->mutable_type(), TensorProto::FLOAT, {}, false);
  vi(g->mutable_output(), "has", TensorProto::BOOL, {});
  auto* opt = node(g, "Optional", {}, {"o"}, "make_empty");
  auto* type = attr(opt, "type", AttributeProto::TYPE_PROTO)->mutable_tp();
  setTensorType(type, TensorProto::FLOAT, {2});
  node(g, "OptionalHasElement", {"o"}, {"has"}, "has");
  node(g, "OptionalGetElement", {"o"}, {"e"}, "get");
  node(g, "Add", {"e", "x"}, {"y"}, "add");
  oinfer::Session s(loadModel(m));
  const std::string msg = runError(s, {{"x", floats({2}, {1, 2})}});
  EXPECT_HAS(msg, "node 'get' (OptionalGetElement)");
  EXPECT_HAS(msg, "the optional input 'o' is empty");
}

}  // namespace

namespace {

// sel = If(cond) { then: an empty [0, 4] constant } else { x [n, 4] }, with
// the file declaring sel as [0, 4] (what a traced export that took the
// then-branch writes); y = Relu(sel). The declared [0, 4] must not be taken
// as a fact: the else-branch gives n rows.
onnx::ModelProto ifWithTracedEmptyBranch() {
  auto m = emptyModel(17);
  auto* g = m.mutable_graph();
  vi(g->mutable_input(), "cond", TensorProto::BOOL, {});
  vi(g->mutable_input(), "x", TensorProto::FLOAT, {D("n"), 4});
  auto* y = g->add_output();
  y->set_name("y");
  setTensorType(y->mutable_type(), TensorProto::FLOAT, {}, false);
  vi(g->mutable_value_info(), "sel", TensorProto::FLOAT, {int64_t{0}, 4});
  auto* ifn = node(g, "If", {"cond"}, {"sel"}, "pick");
  auto* thenG = attr(ifn, "then_branch", AttributeProto::GRAPH)->mutable_g();
  thenG->set_name("then");
  vi(thenG->mutable_output(), "empty", TensorProto::FLOAT, {int64_t{0}, 4});
  auto* c = node(thenG, "Constant", {}, {"empty"}, "make_empty");
  auto* t = attr(c, "value", AttributeProto::TENSOR)->mutable_t();
  t->set_data_type(TensorProto::FLOAT);
  t->add_dims(0);
  t->add_dims(4);
  auto* elseG = attr(ifn, "else_branch", AttributeProto::GRAPH)->mutable_g();
  elseG->set_name("else");
  vi(elseG->mutable_output(), "x_out", TensorProto::FLOAT, {D("n"), 4});
  node(elseG, "Identity", {"x"}, {"x_out"}, "pass");
  node(g, "Relu", {"sel"}, {"y"}, "relu");
  return m;
}

}  // namespace

TEST(If, DeclaredStaticShapeOfAMergedOutputIsNotTrusted) {
  oinfer::Session s(loadModel(ifWithTracedEmptyBranch()));
  std::vector<float> xv(300 * 4);
  for (size_t i = 0; i < xv.size(); ++i) xv[i] = float(int(i % 5) - 2);
  const auto x = floats({300, 4}, xv);
  auto out = s.run({{"cond", oinfer::Tensor::scalar<bool>(false)}, {"x", x}});
  ASSERT_EQ(out[0].shape(), (std::vector<int64_t>{300, 4}));
  std::vector<float> want(xv);
  for (auto& v : want) v = std::max(v, 0.f);
  EXPECT_EQ(values(out[0]), want);
  out = s.run({{"cond", oinfer::Tensor::scalar<bool>(true)}, {"x", x}});
  EXPECT_EQ(out[0].shape(), (std::vector<int64_t>{0, 4}));
}

// The run-time form of TensorErrors.ReshapeAmbiguousMinusOneOnZeroElements:
// x [n, 91, 4] reshaped to a shape fed as an input. With n = 0 and shape
// [0, -1, 4] the -1 is ambiguous: an error naming the node, not an internal
// "shape is not static"; with n = 2 it resolves.
TEST(Reshape, AmbiguousMinusOneAtRunTime) {
  auto m = emptyModel(14);
  auto* g = m.mutable_graph();
  vi(g->mutable_input(), "x", TensorProto::FLOAT, {D("n"), 91, 4});
  vi(g->mutable_input(), "shape", TensorProto::INT64, {3});
  auto* y = g->add_output();
  y->set_name("y");
  setTensorType(y->mutable_type(), TensorProto::FLOAT, {}, false);
  node(g, "Reshape", {"x", "shape"}, {"y"}, "rs");
  oinfer::Session s(loadModel(m));
  const auto shape = oinfer::Tensor::fromVector<int64_t>({3}, {0, -1, 4});
  const std::string msg = runError(s, {{"x", oinfer::Tensor(oinfer::DataType::kFloat, {0, 91, 4})}, {"shape", shape}});
  EXPECT_HAS(msg, "node 'rs' (Reshape): input 0 ('x'): cannot reshape [0,91,4] to [0,-1,4]: the other dims multiply "
                  "to 0, so the -1 is ambiguous");
  auto out = s.run({{"x", oinfer::Tensor(oinfer::DataType::kFloat, {2, 91, 4})}, {"shape", shape}});
  EXPECT_EQ(out[0].shape(), (std::vector<int64_t>{2, 91, 4}));
}
