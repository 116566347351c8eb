#include <gtest/gtest.h>

#include "oinfer/graph.h"
#include "ir_util.h"

using namespace oinfer;

namespace {

Node makeNode(const std::string& name, std::vector<std::string> in, std::vector<std::string> out) {
  Node n;
  n.name = name;
  n.opType = "Identity";
  n.inputs = std::move(in);
  n.outputs = std::move(out);
  return n;
}

std::vector<std::string> order(const ir::Graph& g) {
  std::vector<std::string> names;
  for (const auto& n : g.nodes) names.push_back(n.name);
  return names;
}

}  // namespace

TEST(TopologicalSort, ChainInReverseOrder) {
  ir::Graph g;
  g.nodes = {makeNode("c", {"b"}, {"c"}), makeNode("b", {"a"}, {"b"}), makeNode("a", {"x"}, {"a"})};
  g.topologicalSort();
  EXPECT_EQ(order(g), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_TRUE(g.sorted());
}

TEST(TopologicalSort, DiamondIsDeterministic) {
  ir::Graph g;
  g.nodes = {makeNode("join", {"l", "r"}, {"y"}), makeNode("right", {"s"}, {"r"}),
             makeNode("left", {"s"}, {"l"}), makeNode("split", {"x"}, {"s"})};
  g.topologicalSort();
  // Ready nodes are taken in original order: right (index 1) before left (index 2).
  EXPECT_EQ(order(g), (std::vector<std::string>{"split", "right", "left", "join"}));
  ir::Graph again = g;
  again.topologicalSort();
  EXPECT_EQ(order(again), order(g));
}

TEST(TopologicalSort, SortedGraphUnchanged) {
  ir::Graph g;
  g.nodes = {makeNode("a", {"x"}, {"a"}), makeNode("b", {"x"}, {"b"}), makeNode("c", {"a", "b"}, {"c"})};
  g.topologicalSort();
  EXPECT_EQ(order(g), (std::vector<std::string>{"a", "b", "c"}));
}

TEST(TopologicalSort, CycleListsItsNodes) {
  ir::Graph g;
  g.nodes = {makeNode("start", {"x"}, {"s"}), makeNode("p", {"s", "q_out"}, {"p_out"}),
             makeNode("q", {"p_out"}, {"q_out"}), makeNode("tail", {"q_out"}, {"y"})};
  try {
    g.topologicalSort();
    FAIL() << "expected a cycle error";
  } catch (const Error& e) {
    std::string msg = e.what();
    EXPECT_EQ(e.code(), ErrorCode::kInvalidModel);
    EXPECT_NE(msg.find("cycle"), std::string::npos) << msg;
    EXPECT_NE(msg.find("'p'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("'q'"), std::string::npos) << msg;
    EXPECT_EQ(msg.find("'start'"), std::string::npos) << msg;
  }
}

TEST(TopologicalSort, SubgraphOuterScopeReadsAreEdges) {
  ir::Graph g;
  Node consumer = makeNode("if", {"cond"}, {"y"});
  consumer.opType = "If";
  auto body = std::make_shared<ir::Graph>();
  body->outerScopeInputs = {"late"};
  Attribute a;
  a.name = "then_branch";
  a.type = AttrType::kGraph;
  a.g = body;
  consumer.attributes.push_back(a);
  g.nodes = {consumer, makeNode("producer", {"x"}, {"late"})};
  g.topologicalSort();
  EXPECT_EQ(order(g), (std::vector<std::string>{"producer", "if"}));
}
