// The public Graph: a value type over the IR, with inspection only.
#include <gtest/gtest.h>

#include <string>

#include "graph/graph_access.h"
#include "oinfer/oinfer.h"

namespace oinfer {
namespace {

const std::string kDigits = std::string(OINFER_MODELS_DIR) + "/digits.onnx";

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

TEST(GraphApi, ClosestValueNameHintsAtValuesNotWeights) {
  Graph g = Graph::loadFromONNX(kDigits);
  EXPECT_EQ(g.closestValueName("hiden_pre"), "hidden_pre");  // one edit from a node output
  EXPECT_EQ(g.closestValueName("pixel"), "pixels");          // a graph input
  EXPECT_EQ(g.closestValueName("zzz"), "");                  // nothing within a third of its length
  EXPECT_EQ(g.closestValueName("W"), "") << "weights are not values a run computes or is fed";
}

TEST(GraphApi, InspectsTheFileAsLoaded) {
  Graph g = Graph::loadFromONNX(kDigits);
  EXPECT_EQ(g.producerName(), "oinfer-train-digits");
  EXPECT_GT(g.irVersion(), 0);
  EXPECT_EQ(g.opset(), 17);
  EXPECT_EQ(g.opset("ai.onnx"), 17);
  EXPECT_EQ(g.opset("com.example"), 0);
  ASSERT_EQ(g.inputs().size(), 1u);
  EXPECT_EQ(g.inputs()[0].name, "pixels");
  EXPECT_EQ(g.inputs()[0].dtype, DataType::kFloat);
  ASSERT_GT(g.numNodes(), 0u);
  const std::vector<NodeInfo> nodes = g.nodes();
  ASSERT_EQ(nodes.size(), g.numNodes());
  for (size_t i = 0; i < nodes.size(); ++i) {
    EXPECT_EQ(nodes[i].name, g.node(i).name);
    EXPECT_FALSE(nodes[i].opType.empty());
  }
  EXPECT_FALSE(g.initializerNames().empty());
  const Tensor* w = g.initializer(g.initializerNames().front());
  ASSERT_NE(w, nullptr);
  EXPECT_TRUE(w->defined());
  EXPECT_EQ(g.initializer("no such weight"), nullptr);
  EXPECT_GT(g.weightBytes(), 0u);
  EXPECT_TRUE(g.unsupportedOps().empty());
}

TEST(GraphApi, NodeIndexOutOfRangeNamesTheCount) {
  Graph g = Graph::loadFromONNX(kDigits);
  try {
    g.node(g.numNodes());
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
    EXPECT_TRUE(contains(e.what(), "out of range (" + std::to_string(g.numNodes()) + " nodes)")) << e.what();
  }
}

TEST(GraphApi, InferShapesTypesIntermediates) {
  Graph g = Graph::loadFromONNX(kDigits);
  const std::string firstOut = g.node(0).outputs[0];
  EXPECT_FALSE(g.shapesInferred());
  g.inferShapes();
  EXPECT_TRUE(g.sorted());
  EXPECT_TRUE(g.shapesInferred());
  const ValueInfo* v = g.findValue(firstOut);
  ASSERT_NE(v, nullptr);
  EXPECT_TRUE(v->hasShape);
  EXPECT_EQ(v->dtype, DataType::kFloat);
}

TEST(GraphApi, CopiesAreIndependentAndMovesLeaveAnEmptyGraph) {
  Graph a = Graph::loadFromONNX(kDigits);
  Graph b = a;  // a deep copy of the IR
  detail::GraphAccess::ir(b).nodes.pop_back();
  EXPECT_EQ(b.numNodes() + 1, a.numNodes());
  Graph c = std::move(a);
  EXPECT_EQ(c.numNodes(), b.numNodes() + 1);
  EXPECT_EQ(a.numNodes(), 0u);  // NOLINT(bugprone-use-after-move): a moved-from Graph is empty and usable
  EXPECT_TRUE(a.inputs().empty());
  a = c;
  EXPECT_EQ(a.numNodes(), c.numNodes());
}

TEST(GraphApi, SessionGraphIsTheOptimizedOne) {
  Graph g = Graph::loadFromONNX(kDigits);
  const size_t fileNodes = g.numNodes();
  Session s(std::move(g));
  // The MatMul + Add (+ Relu) chains fuse: fewer nodes than the file.
  EXPECT_LT(s.graph().numNodes(), fileNodes);
  EXPECT_TRUE(s.graph().shapesInferred());
}

// opsUsed counts the nodes of If / Loop / Scan bodies too (the control_flow
// model: Mul only in bodies, Add at the top and in bodies).
TEST(GraphApi, OpsUsedIncludesSubgraphs) {
  Graph g = Graph::loadFromONNX(std::string(OINFER_TEST_DATA_DIR) + "/models/control_flow/model.onnx");
  const std::vector<OpUse> ops = g.opsUsed();
  auto find = [&](const std::string& op) -> const OpUse* {
    for (const auto& u : ops)
      if (u.domain.empty() && u.opType == op) return &u;
    return nullptr;
  };
  for (const char* op : {"If", "Loop", "Scan", "Mul", "Add", "ReduceSum", "Equal"}) {
    const OpUse* u = find(op);
    ASSERT_NE(u, nullptr) << op;
    EXPECT_EQ(u->opset, 18) << op;
    EXPECT_TRUE(u->supported) << op;
  }
  EXPECT_EQ(find("If")->nodes, 2u);
  EXPECT_EQ(find("Mul")->nodes, 4u);
  EXPECT_EQ(find("Add")->nodes, 4u);
  for (size_t i = 1; i < ops.size(); ++i)
    EXPECT_LT(std::make_pair(ops[i - 1].domain, ops[i - 1].opType), std::make_pair(ops[i].domain, ops[i].opType));
}

TEST(GraphApi, UnsupportedOpsAreListedAndInferShapesRefuses) {
  ir::Graph ir;
  ir.opsetImports[""] = 17;
  ValueInfo x;
  x.name = "x";
  x.dtype = DataType::kFloat;
  x.hasShape = true;
  x.shape = {Dim(2)};
  ir.inputs = {x};
  Node n;
  n.name = "mystery";
  n.opType = "NoSuchOp";
  n.inputs = {"x"};
  n.outputs = {"y"};
  ir.nodes = {n};
  ValueInfo y;
  y.name = "y";
  ir.outputs = {y};
  Graph g = detail::GraphAccess::wrap(std::move(ir));
  ASSERT_EQ(g.unsupportedOps().size(), 1u);
  EXPECT_TRUE(contains(g.unsupportedOps()[0], "ai.onnx::NoSuchOp (opset 17), e.g. node 'mystery'"));
  const std::vector<OpUse> ops = g.opsUsed();
  ASSERT_EQ(ops.size(), 1u);
  EXPECT_EQ(ops[0].opType, "NoSuchOp");
  EXPECT_EQ(ops[0].opset, 17);
  EXPECT_FALSE(ops[0].supported);
  try {
    g.inferShapes();
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kUnsupportedOp);
    EXPECT_TRUE(contains(e.what(), "NoSuchOp")) << e.what();
  }
}

}  // namespace
}  // namespace oinfer
