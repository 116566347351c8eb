// SessionOptions::memoryLimitBytes: allocation bombs (ConstantOfShape,
// Expand, Tile, Range, Resize, Pad, Concat to ~10^12 elements) fail with an
// Error naming the node, its output and the byte count before anything is
// allocated, whether the shape is known at plan time or only at run time;
// constant folding leaves huge values to the run; a real model runs under a
// limit that just fits.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "ir_util.h"
#include "model_test_util.h"
#include "oinfer/error.h"
#include "oinfer/graph.h"
#include "oinfer/session.h"
#include "passes/pass_util.h"
#include "runtime/memory_limit.h"

namespace oinfer {
namespace {

using modeltest::opNode;
using passes::util::floatAttr;
using passes::util::intAttr;

constexpr size_t kGiB = size_t{1} << 30;
const std::string kLimitGiB = "; the memory limit is 1073741824 bytes (SessionOptions::memoryLimitBytes)";

Tensor I64(std::vector<int64_t> shape, std::vector<int64_t> v) { return Tensor::fromVector<int64_t>(std::move(shape), v); }
Tensor F32(std::vector<int64_t> shape, std::vector<float> v) { return Tensor::fromVector<float>(std::move(shape), v); }

ir::Graph graph(int64_t opset = 17) {
  ir::Graph g;
  g.opsetImports[""] = opset;
  return g;
}

ValueInfo input(const std::string& name, DataType dt, Shape shape) {
  return ValueInfo{name, ValueKind::kTensor, dt, true, std::move(shape)};
}

void output(ir::Graph& g, const std::string& name) { g.outputs.push_back(ValueInfo{name, ValueKind::kTensor, DataType::kUndefined, false, {}}); }

Node named(Node n, const std::string& name) {
  n.name = name;
  return n;
}

// The error of making a Session for g with this limit and running it once.
std::string limitError(ir::Graph g, size_t limit, const TensorMap& feeds = {}, ErrorCode* code = nullptr) {
  try {
    SessionOptions o;
    o.memoryLimitBytes = limit;
    Session s(wrap(std::move(g)), o);
    s.run(feeds);
  } catch (const Error& e) {
    if (code) *code = e.code();
    return e.what();
  }
  return "<no error>";
}

// ---- shapes known at plan time -------------------------------------------------

TEST(MemoryLimit, ConstantOfShapeAtPlanTime) {
  ir::Graph g = graph();
  g.initializers["s"] = I64({2}, {1000000, 1000000});
  g.nodes.push_back(named(opNode("ConstantOfShape", {"s"}, {"y"}), "bomb"));
  output(g, "y");
  ErrorCode code{};
  EXPECT_EQ(limitError(std::move(g), kGiB, {}, &code),
            "node 'bomb' (ConstantOfShape): output 'y' (float32 [1000000,1000000]) needs 4000000000000 bytes" +
                kLimitGiB);
  EXPECT_EQ(code, ErrorCode::kResourceExhausted);
}

TEST(MemoryLimit, ExpandAndTileAtPlanTime) {
  ir::Graph g = graph();
  g.inputs.push_back(input("x", DataType::kFloat, {1, 1}));
  g.initializers["s"] = I64({2}, {1000000, 1000000});
  g.nodes.push_back(named(opNode("Expand", {"x", "s"}, {"y"}), "expand_bomb"));
  output(g, "y");
  EXPECT_EQ(limitError(g, kGiB, {{"x", F32({1, 1}, {1})}}),
            "node 'expand_bomb' (Expand): output 'y' (float32 [1000000,1000000]) needs 4000000000000 bytes" +
                kLimitGiB);
  g.nodes[0] = named(opNode("Tile", {"x", "s"}, {"y"}), "tile_bomb");
  EXPECT_EQ(limitError(g, kGiB, {{"x", F32({1, 1}, {1})}}),
            "node 'tile_bomb' (Tile): output 'y' (float32 [1000000,1000000]) needs 4000000000000 bytes" + kLimitGiB);
}

TEST(MemoryLimit, RangeAtPlanTime) {
  ir::Graph g = graph();
  g.initializers["a"] = I64({}, {0});
  g.initializers["b"] = I64({}, {1000000000000});
  g.initializers["c"] = I64({}, {1});
  g.nodes.push_back(named(opNode("Range", {"a", "b", "c"}, {"y"}), "range_bomb"));
  output(g, "y");
  EXPECT_EQ(limitError(std::move(g), kGiB),
            "node 'range_bomb' (Range): output 'y' (int64 [1000000000000]) needs 8000000000000 bytes" + kLimitGiB);
}

TEST(MemoryLimit, PadAndResizeAtPlanTime) {
  ir::Graph g = graph();
  g.inputs.push_back(input("x", DataType::kFloat, {1, 1, 2, 2}));
  g.initializers["p"] = I64({8}, {0, 0, 0, 1000000000000, 0, 0, 0, 0});
  g.nodes.push_back(named(opNode("Pad", {"x", "p"}, {"y"}), "pad_bomb"));
  output(g, "y");
  const TensorMap x = {{"x", F32({1, 1, 2, 2}, {1, 2, 3, 4})}};
  EXPECT_EQ(limitError(g, kGiB, x),
            "node 'pad_bomb' (Pad): output 'y' (float32 [1,1,2,1000000000002]) needs 8000000000016 bytes" + kLimitGiB);
  g.initializers.erase("p");
  g.initializers["sc"] = F32({4}, {1, 1, 1e6f, 1e6f});
  g.nodes[0] = named(opNode("Resize", {"x", "", "sc"}, {"y"}), "resize_bomb");
  EXPECT_EQ(limitError(g, kGiB, x),
            "node 'resize_bomb' (Resize): output 'y' (float32 [1,1,2000000,2000000]) needs 16000000000000 bytes" +
                kLimitGiB);
}

TEST(MemoryLimit, ConcatOfPiecesThatFitAlone) {
  // Each ConstantOfShape output (800 MB) fits in 1 GiB; the Concat (1.6 GB) does not.
  ir::Graph g = graph();
  g.initializers["s"] = I64({1}, {200000000});
  g.nodes.push_back(named(opNode("ConstantOfShape", {"s"}, {"a"}), "piece_a"));
  g.nodes.push_back(named(opNode("ConstantOfShape", {"s"}, {"b"}), "piece_b"));
  Node cat = named(opNode("Concat", {"a", "b"}, {"y"}), "concat_bomb");
  cat.attributes.push_back(intAttr("axis", 0));
  g.nodes.push_back(cat);
  output(g, "y");
  EXPECT_EQ(limitError(std::move(g), kGiB),
            "node 'concat_bomb' (Concat): output 'y' (float32 [400000000]) needs 1600000000 bytes" + kLimitGiB);
}

TEST(MemoryLimit, PlanWhoseTensorsFitAloneButNotTogether) {
  // Two 600 MB outputs of one plan: each fits in 1 GiB, together they do not.
  ir::Graph g = graph();
  g.initializers["s"] = I64({1}, {150000000});
  g.nodes.push_back(named(opNode("ConstantOfShape", {"s"}, {"a"}), "first"));
  g.nodes.push_back(named(opNode("ConstantOfShape", {"s"}, {"b"}), "second"));
  output(g, "a");
  output(g, "b");
  EXPECT_EQ(limitError(std::move(g), kGiB),
            "node 'second' (ConstantOfShape): output 'b' (float32 [150000000]) needs 600000000 bytes, the largest of "
            "a plan that needs 1200000000 (activation arena 0, outputs 1200000000)" +
                kLimitGiB);
}

// ---- shapes known only at run time (Executor::runDynamicStep) ----------------------

// shape = k (an input, fed zeros) + big: the plan cannot know it.
ir::Graph dynamicShapeModel(const std::string& op, std::vector<int64_t> big) {
  ir::Graph g = graph();
  const int64_t rank = static_cast<int64_t>(big.size());
  g.inputs.push_back(input("k", DataType::kInt64, {rank}));
  g.initializers["big"] = I64({rank}, big);
  g.initializers["one"] = F32(std::vector<int64_t>(big.size(), 1), {1});
  g.nodes.push_back(named(opNode("Add", {"k", "big"}, {"s"}), "shape_from_input"));
  if (op == "ConstantOfShape")
    g.nodes.push_back(named(opNode(op, {"s"}, {"y"}), "bomb"));
  else
    g.nodes.push_back(named(opNode(op, {"one", "s"}, {"y"}), "bomb"));
  output(g, "y");
  return g;
}

TEST(MemoryLimit, ConstantOfShapeExpandTileAtRunTime) {
  for (const std::string op : {"ConstantOfShape", "Expand", "Tile"}) {
    ErrorCode code{};
    const std::string msg =
        limitError(dynamicShapeModel(op, {1000000, 1000000}), kGiB, {{"k", I64({2}, {0, 0})}}, &code);
    const std::string head = "node 'bomb' (" + op + "): output 'y' (float32 [1000000,1000000]) needs 4000000000000 bytes at run time, with ";
    EXPECT_EQ(msg.substr(0, head.size()), head) << msg;
    EXPECT_NE(msg.find(" bytes already held" + kLimitGiB), std::string::npos) << msg;
    EXPECT_EQ(code, ErrorCode::kResourceExhausted);
  }
}

TEST(MemoryLimit, RangeAtRunTime) {
  ir::Graph g = graph();
  g.inputs.push_back(input("k", DataType::kInt64, {}));
  g.initializers["big"] = I64({}, {1000000000000});
  g.initializers["zero"] = I64({}, {0});
  g.initializers["step"] = I64({}, {1});
  g.nodes.push_back(named(opNode("Add", {"k", "big"}, {"lim"}), "limit_from_input"));
  g.nodes.push_back(named(opNode("Range", {"zero", "lim", "step"}, {"y"}), "range_bomb"));
  output(g, "y");
  const std::string msg = limitError(std::move(g), kGiB, {{"k", I64({}, {0})}});
  const std::string head = "node 'range_bomb' (Range): output 'y' (int64 [1000000000000]) needs 8000000000000 bytes at run time";
  EXPECT_EQ(msg.substr(0, head.size()), head) << msg;
}

TEST(MemoryLimit, RunTimeTensorsAddUp) {
  // 32 run-time tensors of 4,000,000 bytes under a 64 MiB limit: the 17th passes it.
  ir::Graph g = graph();
  g.inputs.push_back(input("k", DataType::kInt64, {1}));
  g.initializers["big"] = I64({1}, {1000000});
  g.nodes.push_back(named(opNode("Add", {"k", "big"}, {"s"}), "shape_from_input"));
  Node sum = named(opNode("Sum", {}, {"y"}), "sum");
  for (int j = 0; j < 32; ++j) {
    g.nodes.push_back(named(opNode("ConstantOfShape", {"s"}, {"c" + std::to_string(j)}), "cos" + std::to_string(j)));
    sum.inputs.push_back("c" + std::to_string(j));
  }
  g.nodes.push_back(sum);
  output(g, "y");
  const std::string msg = limitError(std::move(g), 64 << 20, {{"k", I64({1}, {0})}});
  const std::string head = "node 'cos16' (ConstantOfShape): output 'c16' (float32 [1000000]) needs 4000000 bytes at run time, with 64000";
  EXPECT_EQ(msg.substr(0, head.size()), head) << msg;
  EXPECT_NE(msg.find("; the memory limit is 67108864 bytes"), std::string::npos) << msg;
}

TEST(MemoryLimit, LoopBodyInheritsTheLimit) {
  // A Loop body's own plan: ConstantOfShape of a static 10^12 shape in the body.
  ir::Graph body;
  body.opsetImports[""] = 17;
  body.name = "body";
  body.inputs.push_back(input("i", DataType::kInt64, {}));
  body.inputs.push_back(input("cin", DataType::kBool, {}));
  body.initializers["s"] = I64({2}, {1000000, 1000000});
  body.nodes.push_back(named(opNode("Identity", {"cin"}, {"cout"}), "keep"));
  body.nodes.push_back(named(opNode("ConstantOfShape", {"s"}, {"v"}), "body_bomb"));
  body.outputs.push_back(input("cout", DataType::kBool, {}));
  body.outputs.push_back(ValueInfo{"v", ValueKind::kTensor, DataType::kFloat, false, {}});
  ir::Graph g = graph();
  g.initializers["n"] = I64({}, {1});
  g.initializers["c"] = Tensor(DataType::kBool, {});
  g.initializers["c"].data<uint8_t>()[0] = 1;
  Node loop = named(opNode("Loop", {"n", "c"}, {"y"}), "loop");
  Attribute a;
  a.name = "body";
  a.type = AttrType::kGraph;
  a.g = std::make_shared<ir::Graph>(std::move(body));
  loop.attributes.push_back(a);
  g.nodes.push_back(loop);
  output(g, "y");
  EXPECT_EQ(limitError(std::move(g), kGiB),
            "node 'body_bomb' (ConstantOfShape): output 'v' (float32 [1000000,1000000]) needs 4000000000000 bytes" +
                kLimitGiB);
}

TEST(MemoryLimit, StringCharactersCount) {
  // c_j = StringConcat(c_{j-1}, c_{j-1}) from "ab": 2^(j+2) characters. The
  // first ones fold (their inputs' characters stay under the fold bound);
  // the run counts each string output's characters after its step and stops
  // the chain at the one that passes 1 MiB.
  ir::Graph g = graph(20);
  Tensor ab(DataType::kString, {1});
  ab.data<std::string>()[0] = "ab";
  g.initializers["c"] = ab;
  std::string prev = "c";
  for (int j = 0; j < 30; ++j) {
    const std::string out = "c" + std::to_string(j);
    g.nodes.push_back(named(opNode("StringConcat", {prev, prev}, {out}), "cat" + std::to_string(j)));
    prev = out;
  }
  output(g, prev);
  ErrorCode code{};
  const std::string msg = limitError(std::move(g), 1 << 20, {}, &code);
  const std::string head = "node 'cat18' (StringConcat): output 'c18' holds 1048576 bytes of string data, with ";
  EXPECT_EQ(msg.substr(0, head.size()), head) << msg;
  EXPECT_NE(msg.find(" bytes already held; the memory limit is 1048576 bytes (SessionOptions::memoryLimitBytes)"),
            std::string::npos)
      << msg;
  EXPECT_EQ(code, ErrorCode::kResourceExhausted);
}

// ---- constant folding ----------------------------------------------------------

TEST(MemoryLimit, FoldingLeavesHugeValuesToTheRun) {
  // 64 MiB from a 1-element shape: over the fold cap, so the node stays a
  // step and the run computes it, under the limit or refused by it.
  ir::Graph g = graph();
  g.initializers["s"] = I64({1}, {16 << 20});
  g.nodes.push_back(named(opNode("ConstantOfShape", {"s"}, {"y"}), "big"));
  output(g, "y");
  {
    Session s(wrap(g));
    ASSERT_EQ(irOf(s.graph()).nodes.size(), 1u);  // not folded into an initializer
    const std::vector<Tensor> out = s.run({});
    ASSERT_EQ(out[0].shape(), std::vector<int64_t>{16 << 20});
    EXPECT_EQ(out[0].data<float>()[(16 << 20) - 1], 0.0f);
  }
  EXPECT_EQ(limitError(g, 32 << 20),
            "node 'big' (ConstantOfShape): output 'y' (float32 [16777216]) needs 67108864 bytes; the memory limit is "
            "33554432 bytes (SessionOptions::memoryLimitBytes)");
}

TEST(MemoryLimit, SmallShapeChainsStillFold) {
  // Shape -> ConstantOfShape of 4 elements folds as before.
  ir::Graph g = graph();
  g.inputs.push_back(input("x", DataType::kFloat, {2, 2}));
  g.initializers["s"] = I64({1}, {4});
  g.nodes.push_back(named(opNode("ConstantOfShape", {"s"}, {"c"}), "small"));
  g.nodes.push_back(named(opNode("Reshape", {"x", "c_shape"}, {"y"}), "reshape"));
  g.nodes.insert(g.nodes.begin() + 1, named(opNode("Shape", {"c"}, {"c_shape"}), "shape"));
  output(g, "y");
  Session s(wrap(std::move(g)));
  EXPECT_EQ(irOf(s.graph()).nodes.size(), 1u);  // only the Reshape is left
  const auto out = s.run({{"x", F32({2, 2}, {1, 2, 3, 4})}});
  EXPECT_EQ(out[0].shape(), std::vector<int64_t>{4});
}

// ---- a real model under a limit that just fits ---------------------------------

TEST(MemoryLimit, DigitsRunsUnderATightLimit) {
  const std::string path = std::string(OINFER_MODELS_DIR) + "/digits.onnx";
  const TensorMap feeds = {{"pixels", modeltest::patterned({8, 64}, 0.1f)}};
  std::vector<Tensor> expected;
  size_t needed = 0;
  {
    Session s(Graph::loadFromONNX(path));
    expected = s.run(feeds);
    const MemoryStats m = s.memoryStats();
    needed = m.arenaBytes + m.scratchBytes + expected[0].nbytes();
  }
  SessionOptions o;
  o.memoryLimitBytes = needed;
  Session tight(Graph::loadFromONNX(path), o);
  const std::vector<Tensor> got = tight.run(feeds);
  ASSERT_EQ(got[0].shape(), expected[0].shape());
  for (int64_t i = 0; i < got[0].numel(); ++i) EXPECT_EQ(got[0].data<float>()[i], expected[0].data<float>()[i]);

  o.memoryLimitBytes = needed - 1;
  Session tooTight(Graph::loadFromONNX(path), o);
  try {
    tooTight.run(feeds);
    FAIL() << "ran under a limit one byte short of its need (" << needed << ")";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kResourceExhausted);
    EXPECT_NE(std::string(e.what()).find("memory limit"), std::string::npos) << e.what();
  }
}

TEST(MemoryLimit, MobileNetMatchesItsDataUnderATightLimit) {
  const auto sets = modeltest::loadNumberedDataSets("mobilenetv2");
  ASSERT_FALSE(sets.empty());
  size_t needed = 0;  // the most any of the data sets (batch sizes differ) needs
  for (const auto& ds : sets) {
    Session s(Graph::loadFromONNX(modeltest::modelPath("mobilenetv2")));
    const auto out = s.run(modeltest::feeds(irOf(s.graph()), ds.inputs));
    const MemoryStats m = s.memoryStats();
    size_t n = m.arenaBytes + m.scratchBytes;
    for (const Tensor& t : out) n += t.nbytes();
    needed = std::max(needed, n);
  }
  SessionOptions o;
  o.memoryLimitBytes = needed;
  Session s(Graph::loadFromONNX(modeltest::modelPath("mobilenetv2")), o);
  for (const auto& ds : sets) modeltest::runAndCompare(s, ds, "mobilenetv2 under a limit of " + std::to_string(needed));
}

TEST(MemoryLimit, Resolution) {
  EXPECT_EQ(runtime::resolveMemoryLimit(12345), 12345u);
  EXPECT_EQ(runtime::resolveMemoryLimit(SIZE_MAX), SIZE_MAX);
  const size_t automatic = runtime::resolveMemoryLimit(0);
  const size_t phys = size_t(sysconf(_SC_PHYS_PAGES)) * size_t(sysconf(_SC_PAGE_SIZE));
  EXPECT_EQ(automatic, std::min(automatic, phys / 4 * 3));
  EXPECT_GT(automatic, size_t{64} << 20);
}

}  // namespace
}  // namespace oinfer
