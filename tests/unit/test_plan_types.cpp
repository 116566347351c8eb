// The registry's dtype list is the CPU kernel's contract (OpDef::types /
// typedInput): the planner refuses a node whose typed input has another dtype
// before any kernel is made, so no kernel reads memory as the wrong type.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "api/builtin_registry.h"
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
