// The registry's dtype list is the CPU kernel's contract (OpDef::types /
// typedInput): the planner refuses a node whose typed input has another dtype
// before any kernel is made, so no kernel reads memory as the wrong type.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "api/builtin_registry.h"
#include "loader_test_util.h"
#include "graph_builders.h"
#include "ir_util.h"
#include "oinfer/oinfer.h"
#include "ops/registry.h"

using namespace oinfer;

namespace {

using test::mk;

// x (dtype, [2, 3]) -> op -> y
ir::Graph unaryGraph(const std::string& op, DataType dtype) {
  ir::Graph g;
  g.opsetImports[""] = 17;
  g.inputs.push_back(ValueInfo{"x", ValueKind::kTensor, dtype, true, {2, 3}});
  g.nodes.push_back(mk(op, "the_" + op, {"x"}, {"y"}));
  g.outputs.push_back(ValueInfo{"y", ValueKind::kTensor, DataType::kUndefined, false, {}});
  return g;
}

TEST(PlanTypes, InputOfATypeTheKernelDoesNotTakeIsRefusedNamingNodeInputAndTypes) {
  Session s(wrap(unaryGraph("Sin", DataType::kInt32)));
  Tensor x(DataType::kInt32, {2, 3});
  try {
    s.run({{"x", x}});
    FAIL() << "Sin on int32 ran";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kTypeMismatch);
    const std::string msg = e.what();
    EXPECT_NE(msg.find("node 'the_Sin' (Sin)"), std::string::npos) << msg;
    EXPECT_NE(msg.find("input 0 'x' is int32"), std::string::npos) << msg;
    EXPECT_NE(msg.find("the kernel takes float"), std::string::npos) << msg;
  }
}

TEST(PlanTypes, TheListedTypesRun) {
  Session s(wrap(unaryGraph("Neg", DataType::kInt32)));
  Tensor x(DataType::kInt32, {2, 3});
  for (int i = 0; i < 6; ++i) x.data<int32_t>()[i] = i - 2;
  std::vector<Tensor> out = s.run({{"x", x}});
  ASSERT_EQ(out.size(), 1u);
  ASSERT_EQ(out[0].dtype(), DataType::kInt32);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(out[0].data<int32_t>()[i], 2 - i);
}

// Every entry's typed input index is one the op can have, and every entry
// that lists types lists at least one (an empty list means "not checked").
TEST(PlanTypes, EveryRegistryEntryNamesAValidTypedInput) {
  int checked = 0;
  for (const OpDef* d : builtinRegistry().all()) {
    EXPECT_GE(d->typedInput, -1) << d->opType;
    if (!d->types.empty()) ++checked;
  }
  EXPECT_GT(checked, 150) << "most ops declare the dtypes their CPU kernel takes";
}

}  // namespace

// ---- type groups from the ONNX schema (Node::inputTypeGroups) ----------------

namespace {

using loader_test::D;

// x float32 [2, 3] and an initializer `w` of dtype `wType` feeding `op`
// (inputs x, w[, extra]), one output.
onnx::ModelProto twoInputModel(const std::string& op, int wType, const std::vector<int64_t>& wDims, int opset = 13,
                               bool third = false) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  auto* os = m.add_opset_import();
  os->set_domain("");
  os->set_version(opset);
  auto* g = m.mutable_graph();
  g->set_name("g");
  loader_test::vi(g->mutable_input(), "x", onnx::TensorProto::FLOAT, {D(2), D(3)});
  auto* w = g->add_initializer();
  w->set_name("w");
  w->set_data_type(wType);
  int64_t n = 1;
  for (int64_t d : wDims) {
    w->add_dims(d);
    n *= d;
  }
  const size_t elem = wType == onnx::TensorProto::INT64 ? 8 : 4;
  w->set_raw_data(std::string(static_cast<size_t>(n) * elem, '\0'));
  std::vector<std::string> ins = {"x", "w"};
  if (third) ins.push_back("x");
  loader_test::node(g, op, ins, {"y"}, "the_" + op);
  auto* y = g->add_output();
  y->set_name("y");
  y->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
  return m;
}

std::string runError(const onnx::ModelProto& m) {
  try {
    Session s(loader_test::loadModel(m));
    Tensor x(DataType::kFloat, {2, 3});
    s.run({{"x", x}});
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kTypeMismatch) << e.what();
    return e.what();
  }
  return "";
}

TEST(PlanTypes, GemmBiasOfAnotherTypeIsRefused) {
  // C int64 beside float A and B: it was read as float (issue 23).
  onnx::ModelProto m = twoInputModel("Gemm", onnx::TensorProto::FLOAT, {3, 4});
  auto* c = m.mutable_graph()->add_initializer();
  c->set_name("c");
  c->set_data_type(onnx::TensorProto::INT64);
  c->add_dims(4);
  c->set_raw_data(std::string(32, '\0'));
  m.mutable_graph()->mutable_node(0)->add_input("c");
  EXPECT_EQ(runError(m),
            "node 'the_Gemm' (Gemm): input 2 'c' is int64 but input 0 'x' is float32; the op's schema gives them one "
            "type");
}

TEST(PlanTypes, MatMulOperandsOfTwoTypesAreRefused) {
  EXPECT_EQ(runError(twoInputModel("MatMul", onnx::TensorProto::INT32, {3, 4})),
            "node 'the_MatMul' (MatMul): input 1 'w' is int32 but input 0 'x' is float32; the op's schema gives them "
            "one type");
}

TEST(PlanTypes, VariadicInputsShareTheirType) {
  // Sum's inputs are one variadic "T": every one, the third too, is in group 0.
  onnx::ModelProto m = twoInputModel("Sum", onnx::TensorProto::INT32, {2, 3}, 13, true);
  const ir::Graph g = loader_test::load(m);
  ASSERT_EQ(g.nodes.size(), 1u);
  EXPECT_EQ(g.nodes[0].inputTypeGroups, (std::vector<int8_t>{0, 0, 0}));
  // (Sum's shape function refuses the mix first, with its own message.)
  EXPECT_NE(runError(m).find("is int32"), std::string::npos);
}

TEST(PlanTypes, InputsOfSeparateTypeParametersMayDiffer) {
  // Reshape's shape is int64 while data is float; Pow's exponent (T1) may be
  // int32 under a float base (T). Both run.
  {
    onnx::ModelProto m = twoInputModel("Reshape", onnx::TensorProto::INT64, {1});
    auto* w = m.mutable_graph()->mutable_initializer(0);
    int64_t six = 6;
    w->set_raw_data(std::string(reinterpret_cast<const char*>(&six), 8));
    Session s(loader_test::loadModel(m));
    std::vector<Tensor> out = s.run({{"x", Tensor(DataType::kFloat, {2, 3})}});
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0].shape(), (std::vector<int64_t>{6}));
  }
  {
    onnx::ModelProto m = twoInputModel("Pow", onnx::TensorProto::INT32, {2, 3});
    Session s(loader_test::loadModel(m));
    Tensor x(DataType::kFloat, {2, 3});
    for (int i = 0; i < 6; ++i) x.data<float>()[i] = 1.5f + i;
    std::vector<Tensor> out = s.run({{"x", x}});
    ASSERT_EQ(out.size(), 1u);
    for (int i = 0; i < 6; ++i) EXPECT_FLOAT_EQ(out[0].data<float>()[i], 1.f) << i;  // x ^ 0
  }
}

TEST(PlanTypes, TheParserRecordsTheSchemaGroups) {
  onnx::ModelProto m = twoInputModel("Gemm", onnx::TensorProto::FLOAT, {3, 4});
  const ir::Graph g = loader_test::load(m);
  ASSERT_EQ(g.nodes.size(), 1u);
  EXPECT_EQ(g.nodes[0].inputTypeGroups, (std::vector<int8_t>{0, 0}));
  const ir::Graph r = loader_test::load(twoInputModel("Reshape", onnx::TensorProto::INT64, {1}));
  EXPECT_EQ(r.nodes[0].inputTypeGroups, (std::vector<int8_t>{0, -1}));
}

}  // namespace

namespace {

// SessionOptions are checked when the Session is made: a level that does not
// exist is refused instead of acting like the highest one.
TEST(SessionOptionsChecks, UnknownOptimizationLevelAndNegativeThreadsAreRefused) {
  for (int level : {-1, 3, 7}) {
    SessionOptions o;
    o.optimizationLevel = level;
    try {
      Session s(wrap(unaryGraph("Neg", DataType::kFloat)), o);
      ADD_FAILURE() << "level " << level << " accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
      EXPECT_EQ(std::string(e.what()), "SessionOptions.optimizationLevel is " + std::to_string(level) +
                                           "; the levels are 0 (no graph passes), 1 (constant and BatchNormalization folding) and 2 (all of them)");
    }
  }
  SessionOptions o;
  o.threads = -3;
  try {
    Session s(wrap(unaryGraph("Neg", DataType::kFloat)), o);
    ADD_FAILURE() << "threads -3 accepted";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "SessionOptions.threads must be >= 0");
  }
  for (int level : {0, 1, 2}) {
    SessionOptions ok;
    ok.optimizationLevel = level;
    Session s(wrap(unaryGraph("Neg", DataType::kFloat)), ok);
    Tensor x(DataType::kFloat, {2, 3});
    for (int i = 0; i < 6; ++i) x.data<float>()[i] = float(i);
    EXPECT_EQ(s.run({{"x", x}})[0].data<float>()[5], -5.f) << "level " << level;
  }
}

}  // namespace
