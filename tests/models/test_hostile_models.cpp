// Issue 23: hostile models found by fuzzing (ASan-confirmed memory errors),
// each built in memory and run through a Session, plus kernel-level cases
// through OpTester. Every one must be refused with an oinfer::Error naming
// the node, the input and the offending index or extent, before any memory
// outside a tensor is touched; and string tensors passed between nodes must
// work (onnxruntime runs the chained StringConcat model).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "ir_util.h"
#include "oinfer/error.h"
#include "oinfer/graph.h"
#include "oinfer/session.h"
#include "oinfer/thread_pool.h"
#include "op_tester.h"
#include "ops/kernel.h"
#include "ops/registry.h"
#include "passes/pass_util.h"

namespace oinfer {
namespace {

using testing::OpTester;

Node node(const std::string& name, const std::string& op, std::vector<std::string> in, std::vector<std::string> out,
          std::vector<Attribute> attrs = {}) {
  Node n;
  n.name = name;
  n.opType = op;
  n.inputs = std::move(in);
  n.outputs = std::move(out);
  n.attributes = std::move(attrs);
  return n;
}

ValueInfo tensorInfo(const std::string& name, DataType dt, Shape shape) {
  return ValueInfo{name, ValueKind::kTensor, dt, true, std::move(shape)};
}

ir::Graph graph(int64_t opset) {
  ir::Graph g;
  g.opsetImports[""] = opset;
  return g;
}

// The error of building a Session for g and running it on feeds: the
// message, and its code in *code.
std::string sessionError(ir::Graph g, const TensorMap& feeds, ErrorCode* code = nullptr) {
  try {
    Session s(wrap(std::move(g)));
    s.run(feeds);
  } catch (const Error& e) {
    if (code) *code = e.code();
    return e.what();
  }
  return "<no error>";
}

// Runs only n's CPU kernel on `inputs`, with no shape function before it
// (as for values whose shapes only the kernel sees); output i is allocated
// with planned[i] when given, as the runtime does for a planned shape, else
// left to the kernel. Returns the error it raises, or "<no error>".
std::string kernelError(const Node& n, int64_t opset, const std::vector<Tensor>& inputs, ErrorCode* code = nullptr,
                        const std::vector<std::vector<int64_t>>& planned = {}) {
  try {
    const OpDef* def = builtinRegistry().find("", n.opType, opset);
    if (!def || !def->cpu) return "<no kernel>";
    static ThreadPool pool(2);
    KernelInit init{n, opset, {}, {}, {}};
    init.pool = &pool;
    auto kernel = def->cpu(init);
    KernelContext ctx;
    ctx.node_ = &n;
    ctx.pool_ = &pool;
    for (const Tensor& t : inputs) ctx.inputs_.push_back(&t);
    std::vector<Tensor> outs(n.outputs.size());
    for (size_t i = 0; i < outs.size(); ++i) {
      if (i < planned.size()) outs[i] = Tensor(inputs[0].dtype(), planned[i]);
      ctx.outputs_.push_back(&outs[i]);
      ctx.outputTypes_.push_back(inputs[0].dtype());
    }
    OwnedScratch scratch(init, ctx);
    kernel->run(ctx);
  } catch (const Error& e) {
    if (code) *code = e.code();
    return e.what();
  }
  return "<no error>";
}

Tensor I64(std::vector<int64_t> shape, std::vector<int64_t> v) { return Tensor::fromVector<int64_t>(std::move(shape), v); }

Tensor strings(std::vector<int64_t> shape, const std::vector<std::string>& v) {
  Tensor t(DataType::kString, std::move(shape));
  for (size_t i = 0; i < v.size(); ++i) t.data<std::string>()[i] = v[i];
  return t;
}

// ---- ScatterElements: indices larger than data along a non-axis dim --------

// data [3,4], indices / updates [1,100000] along axis 0: dim 1 of indices
// exceeds data's, and every update used to be written past the output.
ir::Graph scatterModel(const Shape& idxShape) {
  ir::Graph g = graph(18);
  g.inputs.push_back(tensorInfo("data", DataType::kFloat, {3, 4}));
  g.inputs.push_back(tensorInfo("idx", DataType::kInt64, idxShape));
  g.inputs.push_back(tensorInfo("upd", DataType::kFloat, idxShape));
  g.nodes.push_back(node("scatter", "ScatterElements", {"data", "idx", "upd"}, {"y"}, {passes::util::intAttr("axis", 0)}));
  g.outputs.push_back(tensorInfo("y", DataType::kFloat, {}));
  g.outputs.back().hasShape = false;
  return g;
}

const char* kScatterShapeError =
    "node 'scatter' (ScatterElements): input 1 ('idx') has shape [1,100000]: its dim 1 (100000) exceeds dim 1 (4) of "
    "input 0 ('data') with shape [3,4]; only axis 0 may be larger";

TEST(HostileModels, ScatterElementsIndicesWiderThanDataAtRunTime) {
  // Symbolic indices dims in the model: the plan made for the fed shapes refuses it.
  ErrorCode code{};
  const std::string msg =
      sessionError(scatterModel({Dim::sym("a"), Dim::sym("b")}),
                   {{"data", Tensor(DataType::kFloat, {3, 4})},
                    {"idx", Tensor(DataType::kInt64, {1, 100000})},
                    {"upd", Tensor(DataType::kFloat, {1, 100000})}},
                   &code);
  EXPECT_EQ(msg, kScatterShapeError);
  EXPECT_EQ(code, ErrorCode::kShapeMismatch);
}

TEST(HostileModels, ScatterElementsIndicesWiderThanDataInKernel) {
  // The kernel alone (no shape function before it) refuses it too.
  ErrorCode code{};
  const Node n = node("scatter", "ScatterElements", {"data", "idx", "upd"}, {"y"}, {passes::util::intAttr("axis", 0)});
  const std::string msg = kernelError(n, 18,
                                      {Tensor(DataType::kFloat, {3, 4}), Tensor(DataType::kInt64, {1, 100000}),
                                       Tensor(DataType::kFloat, {1, 100000})},
                                      &code, {{3, 4}});
  EXPECT_EQ(msg, kScatterShapeError);
  EXPECT_EQ(code, ErrorCode::kInvalidArgument);
}

TEST(HostileModels, ScatterElementsIndicesWiderThanDataAtLoad) {
  ErrorCode code{};
  const std::string msg = sessionError(scatterModel({1, 100000}), {}, &code);
  EXPECT_EQ(msg, kScatterShapeError);
  EXPECT_EQ(code, ErrorCode::kShapeMismatch);
}

TEST(HostileModels, ScatterElementsIndexValueCheckedBeforeAnyWrite) {
  OpTester t("ScatterElements", 18);
  t.attr("axis", int64_t(1))
      .input("data", Tensor(DataType::kFloat, {2, 3}))
      .input("idx", I64({2, 2}, {0, 1, 2, -4}))
      .input("upd", Tensor(DataType::kFloat, {2, 2}))
      .output("y");
  t.expectError("node 'ScatterElements_under_test' (ScatterElements): input 1 ('idx') holds index -4 at [1,1], out "
                "of range [-3, 2] for axis 1 of input 0 ('data') with shape [2,3]");
}

TEST(HostileModels, ScatterElementsUpdatesShapeDiffers) {
  OpTester t("ScatterElements", 18);
  t.input("data", Tensor(DataType::kFloat, {3, 3}))
      .input("idx", I64({1, 2}, {0, 1}))
      .input("upd", Tensor(DataType::kFloat, {2, 2}))
      .output("y");
  t.expectError("node 'ScatterElements_under_test' (ScatterElements): input 2 ('upd') has shape [2,2] but input 1 "
                "('idx') has shape [1,2]; they must be equal");
}

// ---- GatherElements: indices dim 0 = 1,000,000 over data dim 0 = 3 ---------

const char* kGatherShapeError =
    "node 'gather' (GatherElements): input 1 ('idx') has shape [1000000,1]: its dim 0 (1000000) exceeds dim 0 (3) of "
    "input 0 ('data') with shape [3,2]; only axis 1 may be larger";

TEST(HostileModels, GatherElementsIndicesLongerThanDataAtRunTime) {
  ir::Graph g = graph(13);
  g.inputs.push_back(tensorInfo("data", DataType::kFloat, {3, 2}));
  g.inputs.push_back(tensorInfo("idx", DataType::kInt64, {Dim::sym("n"), Dim::sym("m")}));
  g.nodes.push_back(node("gather", "GatherElements", {"data", "idx"}, {"y"}, {passes::util::intAttr("axis", 1)}));
  g.outputs.push_back(ValueInfo{"y", ValueKind::kTensor, DataType::kFloat, false, {}});
  ErrorCode code{};
  const std::string msg = sessionError(
      std::move(g), {{"data", Tensor(DataType::kFloat, {3, 2})}, {"idx", Tensor(DataType::kInt64, {1000000, 1})}},
      &code);
  EXPECT_EQ(msg, kGatherShapeError);
  EXPECT_EQ(code, ErrorCode::kShapeMismatch);
}

TEST(HostileModels, GatherElementsIndicesLongerThanDataInKernel) {
  ErrorCode code{};
  const Node n = node("gather", "GatherElements", {"data", "idx"}, {"y"}, {passes::util::intAttr("axis", 1)});
  const std::string msg =
      kernelError(n, 13, {Tensor(DataType::kFloat, {3, 2}), Tensor(DataType::kInt64, {1000000, 1})}, &code,
                  {{1000000, 1}});
  EXPECT_EQ(msg, kGatherShapeError);
  EXPECT_EQ(code, ErrorCode::kInvalidArgument);
}

TEST(HostileModels, GatherElementsConstantIndexOutOfRangeAtLoad) {
  OpTester t("GatherElements", 13);
  t.input("data", Tensor(DataType::kFloat, {3, 2})).constantInput("idx", I64({2, 1}, {1, 3})).output("y");
  t.expectError("node 'GatherElements_under_test' (GatherElements): input 1 ('idx') holds index 3 at [1,0], out of "
                "range [-3, 2] for axis 0 of input 0 ('data') with shape [3,2]");
}

// ---- GatherND / ScatterND ----------------------------------------------------

TEST(HostileModels, GatherNDBatchDimsMustMatch) {
  // batch_dims 1: indices' batch dim (5) differs from data's (2); rows of
  // indices past data's batches were read from past the indices' end.
  OpTester t("GatherND", 13);
  t.attr("batch_dims", int64_t(1))
      .input("data", Tensor(DataType::kFloat, {2, 4}))
      .input("idx", Tensor(DataType::kInt64, {1, 1}))
      .output("y");
  t.expectError("node 'GatherND_under_test' (GatherND): input 1 ('idx') has shape [1,1] but input 0 ('data') has "
                "shape [2,4]: batch dim 0 differs (1 vs 2)");
}

TEST(HostileModels, GatherNDIndexTupleOutOfRange) {
  OpTester t("GatherND", 13);
  t.input("data", Tensor(DataType::kFloat, {2, 4})).input("idx", I64({2, 2}, {1, 3, 1, 4})).output("y");
  t.expectError("node 'GatherND_under_test' (GatherND): input 1 ('idx') holds index 4 at [1,1], out of range [-4, 3] "
                "for axis 1 of input 0 ('data') with shape [2,4]");
}

TEST(HostileModels, ScatterNDUpdatesShapeChecked) {
  // updates [2,3] hold as many elements as [3,2] needs, but not its shape.
  OpTester t("ScatterND", 18);
  t.input("data", Tensor(DataType::kFloat, {4, 2}))
      .input("idx", I64({3, 1}, {0, 1, 2}))
      .input("upd", Tensor(DataType::kFloat, {2, 3}))
      .output("y");
  t.expectError("node 'ScatterND_under_test' (ScatterND): input 2 ('upd') has shape [2,3] but input 1 ('idx') with "
                "shape [3,1] and input 0 ('data') with shape [4,2] need [3,2]");
}

TEST(HostileModels, ScatterNDIndexOutOfRange) {
  OpTester t("ScatterND", 18);
  t.input("data", Tensor(DataType::kFloat, {4, 2}))
      .input("idx", I64({2, 1}, {3, -5}))
      .input("upd", Tensor(DataType::kFloat, {2, 2}))
      .output("y");
  t.expectError("node 'ScatterND_under_test' (ScatterND): input 1 ('idx') holds index -5 at [1,0], out of range "
                "[-4, 3] for axis 0 of input 0 ('data') with shape [4,2]");
}

// MaxUnpool: pads larger than the window give two negative unpooled dims,
// whose product was positive, so indices 0..3 passed and decoded to
// negative offsets (a write before the output).
TEST(HostileModels, MaxUnpoolNegativeUnpooledDims) {
  OpTester t("MaxUnpool", 11);
  t.input("x", Tensor(DataType::kFloat, {1, 1, 2, 2}))
      .input("i", I64({1, 1, 2, 2}, {0, 1, 2, 3}))
      .constantInput("shape", I64({4}, {1, 1, 4, 4}))
      .attr("kernel_shape", std::vector<int64_t>{1, 1})
      .attr("strides", std::vector<int64_t>{1, 1})
      .attr("pads", std::vector<int64_t>{2, 2, 2, 2})
      .output("y");
  t.expectError("node 'MaxUnpool_under_test' (MaxUnpool): input 0 ('x') of shape [1,1,2,2] with kernel_shape [1,1], "
                "strides [1,1] and pads [2,2,2,2] gives no valid unpooled size for spatial dim 0");
}

// ---- Split: sizes [12, -2] on 10 elements -----------------------------------

ir::Graph splitModel(bool constantSizes) {
  ir::Graph g = graph(13);
  g.inputs.push_back(tensorInfo("x", DataType::kFloat, {10}));
  if (constantSizes) g.initializers["sizes"] = I64({2}, {12, -2});
  else g.inputs.push_back(tensorInfo("sizes", DataType::kInt64, {2}));
  g.nodes.push_back(node("split", "Split", {"x", "sizes"}, {"a", "b"}));
  g.outputs.push_back(ValueInfo{"a", ValueKind::kTensor, DataType::kFloat, false, {}});
  g.outputs.push_back(ValueInfo{"b", ValueKind::kTensor, DataType::kFloat, false, {}});
  return g;
}

TEST(HostileModels, SplitNegativeSizeAtLoad) {
  ErrorCode code{};
  const std::string msg = sessionError(splitModel(true), {}, &code);
  EXPECT_EQ(msg, "node 'split' (Split): split sizes [12,-2] for axis 0 of input 0 ('x') with shape [10] hold a "
                 "negative size -2");
  EXPECT_EQ(code, ErrorCode::kShapeMismatch);
}

TEST(HostileModels, SplitNegativeSizeAtRunTime) {
  ErrorCode code{};
  const std::string msg =
      sessionError(splitModel(false), {{"x", Tensor(DataType::kFloat, {10})}, {"sizes", I64({2}, {12, -2})}}, &code);
  EXPECT_EQ(msg, "node 'split' (Split): split sizes [12,-2] for axis 0 of input 0 ('x') with shape [10] hold a "
                 "negative size -2");
  EXPECT_EQ(code, ErrorCode::kShapeMismatch);
}

TEST(HostileModels, SplitNegativeSizeInKernel) {
  ErrorCode code{};
  const std::string msg =
      kernelError(node("split", "Split", {"x", "sizes"}, {"a", "b"}), 13,
                  {Tensor(DataType::kFloat, {10}), I64({2}, {12, -2})}, &code);
  EXPECT_EQ(msg, "node 'split' (Split): split sizes [12,-2] do not partition axis 0 of input 0 ('x') with shape [10] "
                 "into 2 non-negative parts");
  EXPECT_EQ(code, ErrorCode::kInvalidArgument);
}

TEST(HostileModels, SplitSizesOverflowingSum) {
  OpTester t("Split", 13);
  t.input("x", Tensor(DataType::kFloat, {10}))
      .constantInput("sizes", I64({3}, {INT64_MAX, INT64_MAX, 12}))
      .output("a").output("b").output("c");
  t.expectError("node 'Split_under_test' (Split): split sizes [9223372036854775807,9223372036854775807,12] for axis "
                "0 of input 0 ('x') with shape [10] overflow int64");
}

TEST(HostileModels, SplitToSequenceSizesOverflowingSum) {
  // [2^62, 2^62, 2^62, 2^62 + 10] summed to 10 in wrapping arithmetic.
  const int64_t big = int64_t{1} << 62;
  const std::string msg = kernelError(node("sts", "SplitToSequence", {"x", "sizes"}, {"seq"}), 11,
                                      {Tensor(DataType::kFloat, {10}), I64({4}, {big, big, big, big + 10})});
  EXPECT_EQ(msg, "node 'sts' (SplitToSequence): split sizes [4611686018427387904,4611686018427387904,"
                 "4611686018427387904,4611686018427387914] of input 1 ('sizes') overflow int64");
}

// ---- DepthToSpace / SpaceToDepth: blocksize 2^32 -----------------------------

TEST(HostileModels, DepthToSpaceBlocksizeSquareOverflow) {
  ir::Graph g = graph(13);
  g.inputs.push_back(tensorInfo("x", DataType::kFloat, {1, 4, 2, 2}));
  g.nodes.push_back(node("d2s", "DepthToSpace", {"x"}, {"y"}, {passes::util::intAttr("blocksize", int64_t{1} << 32)}));
  g.outputs.push_back(ValueInfo{"y", ValueKind::kTensor, DataType::kFloat, false, {}});
  ErrorCode code{};
  const std::string msg = sessionError(std::move(g), {}, &code);
  EXPECT_EQ(msg, "node 'd2s' (DepthToSpace): blocksize 4294967296 is too large: blocksize^2 overflows int64");
  EXPECT_EQ(code, ErrorCode::kInvalidModel);
}

TEST(HostileModels, SpaceToDepthChannelsOverflow) {
  OpTester t("SpaceToDepth", 13);
  t.attr("blocksize", int64_t{1} << 31).input("x", Tensor(DataType::kFloat, {1, 4, 0, 0})).output("y");
  t.expectError("node 'SpaceToDepth_under_test' (SpaceToDepth): dim 1 of input 0 ('x') with shape [1,4,0,0] times "
                "4611686018427387904 overflows int64");
}

// ---- other dims from attributes / values ------------------------------------

TEST(HostileModels, TileRepeatsOverflow) {
  OpTester t("Tile", 13);
  t.input("x", Tensor(DataType::kFloat, {0, 3})).constantInput("r", I64({2}, {1, INT64_MAX / 2})).output("y");
  t.expectError("node 'Tile_under_test' (Tile): repeats input 1 ('r') value 4611686018427387903 times dim 1 (3) of "
                "input 0 ('x') overflows int64");
}

TEST(HostileModels, PadOverflow) {
  OpTester t("Pad", 13);
  t.input("x", Tensor(DataType::kFloat, {2})).constantInput("p", I64({2}, {INT64_MAX, 1})).output("y");
  t.expectError("node 'Pad_under_test' (Pad): pads [9223372036854775807,1] on axis 0 of input 0 ('x') with shape [2] "
                "overflow int64");
}

TEST(HostileModels, RangeLengthOverflow) {
  OpTester t("Range", 11);
  t.constantInput("s", Tensor::scalar<int64_t>(INT64_MIN))
      .constantInput("l", Tensor::scalar<int64_t>(INT64_MAX))
      .constantInput("d", Tensor::scalar<int64_t>(1))
      .output("y");
  t.expectError("node 'Range_under_test' (Range): start, limit, delta (-9223372036854775808, 9223372036854775807, 1) "
                "give a length that is not finite or does not fit in int64");
  OpTester k("Range", 11);  // the kernel, with values known only at run time
  k.input("s", Tensor::scalar<int64_t>(INT64_MIN))
      .input("l", Tensor::scalar<int64_t>(INT64_MAX))
      .input("d", Tensor::scalar<int64_t>(1))
      .output("y");
  k.expectError("node 'Range_under_test' (Range): start, limit, delta (-9223372036854775808, 9223372036854775807, 1) "
                "give a length that is not finite or does not fit in int64");
}

TEST(HostileModels, ReshapeElementCountOverflow) {
  OpTester t("Reshape", 13);
  t.input("x", Tensor(DataType::kFloat, {1})).constantInput("s", I64({3}, {0, INT64_MAX, 4})).output("y");
  t.expectError("node 'Reshape_under_test' (Reshape): input 0 ('x'): reshaping [1] to [0,9223372036854775807,4]: the "
                "element count overflows int64");
}

TEST(HostileModels, ConstantOfShapeElementCountOverflowNamesTheNode) {
  ErrorCode code{};
  const std::string msg = kernelError(node("fill", "ConstantOfShape", {"shape"}, {"y"}), 9,
                                      {I64({2}, {int64_t{1} << 40, int64_t{1} << 40})}, &code);
  EXPECT_EQ(msg, "node 'fill' (ConstantOfShape): output 0: element count of shape [1099511627776,1099511627776] "
                 "overflows");
  EXPECT_EQ(code, ErrorCode::kInvalidArgument);
}

// ---- string tensors between nodes --------------------------------------------

// Two chained StringConcat nodes (onnxruntime runs it): the intermediate
// string tensor was planned in raw arena memory and its std::string elements
// were never constructed (SIGSEGV / free(): invalid pointer). onnxruntime
// gives y[i] = a[i] + b[i] + a[i]: for a = ["a", 100 x "q"], b = ["x", "y"],
// y = ["axa", 100 x "q" + "y" + 100 x "q"].
TEST(HostileModels, ChainedStringConcat) {
  ir::Graph g = graph(20);
  g.inputs.push_back(tensorInfo("a", DataType::kString, {2}));
  g.inputs.push_back(tensorInfo("b", DataType::kString, {2}));
  g.nodes.push_back(node("concat1", "StringConcat", {"a", "b"}, {"c"}));
  g.nodes.push_back(node("concat2", "StringConcat", {"c", "a"}, {"y"}));
  g.outputs.push_back(tensorInfo("y", DataType::kString, {2}));
  Session s(wrap(std::move(g)));
  // Twice: the second run reuses the plan's buffers.
  for (int run = 0; run < 2; ++run) {
    const std::string longA(100, 'q');  // longer than any small-string buffer
    std::vector<Tensor> out = s.run({{"a", strings({2}, {"a", longA})}, {"b", strings({2}, {"x", "y"})}});
    ASSERT_EQ(out.size(), 1u);
    ASSERT_EQ(out[0].dtype(), DataType::kString);
    ASSERT_EQ(out[0].shape(), (std::vector<int64_t>{2}));
    EXPECT_EQ(out[0].data<std::string>()[0], "axa");
    EXPECT_EQ(out[0].data<std::string>()[1], longA + "y" + longA);
  }
}

// ---- found by the generated corpus (tests/hostile) --------------------------

// An Error raised without a node's name (Tensor::toInt64Vector on a float
// shape input, a kernel's own message) gets the node in front, at plan time
// and at run time.
TEST(HostileModels, ErrorsNameTheirNode) {
  ir::Graph g = graph(17);
  g.inputs.push_back(tensorInfo("x", DataType::kFloat, {2, 2}));
  g.initializers["s"] = Tensor::fromVector<float>({2}, {2, 2});
  g.nodes.push_back(node("expand_node", "Expand", {"x", "s"}, {"y"}));
  g.outputs.push_back(ValueInfo{"y", ValueKind::kTensor, DataType::kFloat, false, {}});
  EXPECT_EQ(sessionError(g, {{"x", Tensor(DataType::kFloat, {2, 2})}}),
            "node 'expand_node' (Expand): expected an integer tensor, got float32");

  ir::Graph c = graph(17);
  c.inputs.push_back(tensorInfo("s", DataType::kString, {1}));
  c.nodes.push_back(node("cast_node", "Cast", {"s"}, {"y"}, {passes::util::intAttr("to", 1)}));
  c.outputs.push_back(ValueInfo{"y", ValueKind::kTensor, DataType::kFloat, false, {}});
  EXPECT_EQ(sessionError(c, {{"s", strings({1}, {"--3"})}}),
            "node 'cast_node' (Cast): Cast: cannot parse '--3' as a number");
}

TEST(HostileModels, ConcatAxisSumOverflow) {
  // Two empty inputs declared [2^62, 0]: the output's axis would be 2^63.
  ir::Graph g = graph(17);
  g.inputs.push_back(tensorInfo("a", DataType::kFloat, {int64_t{1} << 62, 0}));
  g.nodes.push_back(node("concat_node", "Concat", {"a", "a"}, {"y"}, {passes::util::intAttr("axis", 0)}));
  g.outputs.push_back(ValueInfo{"y", ValueKind::kTensor, DataType::kFloat, false, {}});
  ErrorCode code{};
  EXPECT_EQ(sessionError(std::move(g), {}, &code),
            "node 'concat_node' (Concat): the inputs' dims along axis 0 add up past int64 (at input 1 ('a') with "
            "shape [4611686018427387904,0])");
  EXPECT_EQ(code, ErrorCode::kShapeMismatch);
}

TEST(HostileModels, ReshapeFloatShape) {
  // Used to reach the run as an internal "shape [unk__0] is not static".
  ir::Graph g = graph(17);
  g.inputs.push_back(tensorInfo("x", DataType::kFloat, {2, 2}));
  g.initializers["s"] = Tensor::fromVector<float>({1}, {4});
  g.nodes.push_back(node("reshape_node", "Reshape", {"x", "s"}, {"y"}));
  g.outputs.push_back(ValueInfo{"y", ValueKind::kTensor, DataType::kFloat, false, {}});
  ErrorCode code{};
  EXPECT_EQ(sessionError(std::move(g), {{"x", Tensor(DataType::kFloat, {2, 2})}}, &code),
            "node 'reshape_node' (Reshape): input 1 ('s') is float32; the shape must be int64");
  EXPECT_EQ(code, ErrorCode::kTypeMismatch);
}

}  // namespace
}  // namespace oinfer
