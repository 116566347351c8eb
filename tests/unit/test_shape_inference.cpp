// Shape inference over whole graphs: static shapes, symbolic dims, and data
// propagation of shape tensors (Shape -> Gather -> Concat -> Reshape).
#include <gtest/gtest.h>

#include "oinfer/oinfer.h"
#include "ir_util.h"

using namespace oinfer;

namespace {

struct GraphBuilder {
  ir::Graph g;
  GraphBuilder() { g.opsetImports[""] = 17; }
  GraphBuilder& input(const std::string& name, DataType dt, Shape shape) {
    g.inputs.push_back(ValueInfo{name, ValueKind::kTensor, dt, true, std::move(shape)});
    return *this;
  }
  GraphBuilder& init(const std::string& name, Tensor t) {
    g.initializers[name] = std::move(t);
    return *this;
  }
  Node& node(const std::string& op, std::vector<std::string> in, std::vector<std::string> out) {
    Node n;
    n.opType = op;
    n.name = op + "_" + std::to_string(g.nodes.size());
    n.inputs = std::move(in);
    n.outputs = std::move(out);
    g.nodes.push_back(std::move(n));
    return g.nodes.back();
  }
  GraphBuilder& output(const std::string& name) {
    g.outputs.push_back(ValueInfo{name, ValueKind::kTensor, DataType::kUndefined, false, {}});
    return *this;
  }
};

void setInts(Node& n, const std::string& name, std::vector<int64_t> v) {
  Attribute a;
  a.name = name;
  a.type = AttrType::kInts;
  a.ints = std::move(v);
  n.attributes.push_back(a);
}
void setInt(Node& n, const std::string& name, int64_t v) {
  Attribute a;
  a.name = name;
  a.type = AttrType::kInt;
  a.i = v;
  n.attributes.push_back(a);
}

// y = Reshape(x, Concat(Gather(Shape(x), 0), Gather(Shape(x), 1), [4, 16])) over
// x:[batch,seq,64], the shape computation exported attention blocks carry.
GraphBuilder headsReshape() {
  GraphBuilder b;
  b.input("x", DataType::kFloat, {Dim::sym("batch"), Dim::sym("seq"), 64});
  b.init("i0", Tensor::fromVector<int64_t>({1}, {0}));
  b.init("i1", Tensor::fromVector<int64_t>({1}, {1}));
  b.init("heads", Tensor::fromVector<int64_t>({2}, {4, 16}));
  b.node("Shape", {"x"}, {"s"});
  b.node("Gather", {"s", "i0"}, {"b"});
  b.node("Gather", {"s", "i1"}, {"q"});
  setInt(b.node("Concat", {"b", "q", "heads"}, {"target"}), "axis", 0);
  b.node("Reshape", {"x", "target"}, {"y"});
  return b;
}

std::string shapeOf(const ir::Graph& g, const std::string& name) {
  const ValueInfo* v = g.findValue(name);
  return v && v->hasShape ? shapeToString(v->shape) : "?";
}

}  // namespace

TEST(ShapeInference, StaticChain) {
  GraphBuilder b;
  b.input("x", DataType::kFloat, {1, 3, 8, 8});
  b.node("Relu", {"x"}, {"r"});
  setInts(b.node("Transpose", {"r"}, {"t"}), "perm", {0, 2, 3, 1});
  b.output("t");
  inferShapes(b.g);
  EXPECT_EQ(shapeOf(b.g, "r"), "[1,3,8,8]");
  EXPECT_EQ(shapeOf(b.g, "t"), "[1,8,8,3]");
  EXPECT_EQ(b.g.outputs[0].dtype, DataType::kFloat);
  EXPECT_EQ(shapeToString(b.g.outputs[0].shape), "[1,8,8,3]");
}

TEST(ShapeInference, SymbolicDimsSurviveMatMulAndBroadcast) {
  GraphBuilder b;
  b.input("x", DataType::kFloat, {Dim::sym("batch"), Dim::sym("seq"), 16});
  b.init("w", Tensor(DataType::kFloat, {16, 32}));
  b.init("bias", Tensor(DataType::kFloat, {32}));
  b.node("MatMul", {"x", "w"}, {"y"});
  b.node("Add", {"y", "bias"}, {"z"});
  b.output("z");
  inferShapes(b.g);
  EXPECT_EQ(shapeOf(b.g, "y"), "[batch,seq,32]");
  EXPECT_EQ(shapeOf(b.g, "z"), "[batch,seq,32]");
}

TEST(ShapeInference, ShapeTensorsPropagateIntoReshape) {
  GraphBuilder b = headsReshape();
  b.output("y");
  inferShapes(b.g);
  EXPECT_EQ(shapeOf(b.g, "s"), "[3]");
  EXPECT_EQ(shapeOf(b.g, "target"), "[4]");
  EXPECT_EQ(shapeOf(b.g, "y"), "[batch,seq,4,16]");
}

TEST(ShapeInference, ConstantShapeChainsFoldToValues) {
  // With static dims the whole chain folds: ConstantOfShape gets a concrete shape.
  GraphBuilder b;
  b.input("x", DataType::kFloat, {2, 5});
  b.node("Shape", {"x"}, {"s"});
  b.node("ConstantOfShape", {"s"}, {"zeros"});
  b.node("Add", {"x", "zeros"}, {"y"});
  b.output("y");
  inferShapes(b.g);
  EXPECT_EQ(shapeOf(b.g, "zeros"), "[2,5]");
  EXPECT_EQ(shapeOf(b.g, "y"), "[2,5]");
}

TEST(ShapeInference, GatherIndexDimsKeepTheirSymbol) {
  GraphBuilder b;
  b.input("x", DataType::kFloat, {Dim::sym("n"), 3});
  b.input("idx", DataType::kInt64, {Dim::sym("k")});
  b.node("Gather", {"x", "idx"}, {"y"});
  b.output("y");
  inferShapes(b.g);
  EXPECT_EQ(shapeOf(b.g, "y"), "[k,3]");
}

TEST(ShapeInference, MismatchNamesNodeInputsAndShapes) {
  GraphBuilder b;
  b.input("a", DataType::kFloat, {2, 3});
  b.input("c", DataType::kFloat, {4, 3});
  b.node("Add", {"a", "c"}, {"y"}).name = "bad_add";
  b.output("y");
  try {
    inferShapes(b.g);
    FAIL() << "expected a shape error";
  } catch (const Error& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("bad_add"), std::string::npos) << m;
    EXPECT_NE(m.find("[2,3]"), std::string::npos) << m;
    EXPECT_NE(m.find("[4,3]"), std::string::npos) << m;
  }
}

TEST(ShapeInference, UnsupportedOpsAreListedTogether) {
  GraphBuilder b;
  b.input("x", DataType::kFloat, {2});
  b.node("FrobnicateA", {"x"}, {"a"});
  b.node("Relu", {"a"}, {"r"});
  b.node("FrobnicateB", {"r"}, {"y"});
  b.output("y");
  try {
    inferShapes(b.g);
    FAIL() << "expected an unsupported-op error";
  } catch (const Error& e) {
    std::string m = e.what();
    EXPECT_EQ(e.code(), ErrorCode::kUnsupportedOp);
    EXPECT_NE(m.find("2 unsupported ops"), std::string::npos) << m;
    EXPECT_NE(m.find("FrobnicateA"), std::string::npos) << m;
    EXPECT_NE(m.find("FrobnicateB"), std::string::npos) << m;
  }
}

TEST(ShapeInference, SessionRunsSymbolicGraphAtTwoShapes) {
  GraphBuilder b = headsReshape();
  b.node("Relu", {"y"}, {"z"});
  b.output("z");
  Session s(wrap(b.g));
  for (auto [batch, seq] : {std::pair<int64_t, int64_t>{1, 3}, {2, 5}, {1, 3}}) {
    Tensor x(DataType::kFloat, {batch, seq, 64});
    for (int64_t i = 0; i < x.numel(); ++i) x.data<float>()[i] = static_cast<float>(i % 7) - 3.f;
    auto out = s.run({{"x", x}});
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0].shape(), (std::vector<int64_t>{batch, seq, 4, 16}));
    for (int64_t i = 0; i < x.numel(); ++i)
      ASSERT_EQ(out[0].data<float>()[i], std::max(0.f, x.data<float>()[i])) << i;
  }
  // Fetch an intermediate: the folded-at-plan-time shape value.
  Tensor x(DataType::kFloat, {2, 5, 64});
  auto fetched = s.run({{"x", x}}, {"target", "y"});
  EXPECT_EQ(fetched[0].toInt64Vector(), (std::vector<int64_t>{2, 5, 4, 16}));
  EXPECT_EQ(fetched[1].shape(), (std::vector<int64_t>{2, 5, 4, 16}));
  MemoryStats m = s.memoryStats();
  EXPECT_GE(m.arenaBytes, m.lowerBoundBytes);
  EXPECT_EQ(m.weightBytes, 4u * 8u);
}
