// Tensor family: shape functions with symbolic dims and symbolic shape
// values (the Shape -> Gather -> Unsqueeze -> Concat -> Reshape chains of
// exported models), and error paths with their messages.
#include <deque>
#include <limits>
#include <optional>

#include "op_tester.h"
#include "ops/registry.h"
#include "shape/infer_context.h"
#include "ir_util.h"

using namespace oinfer;
using oinfer::testing::OpTester;

namespace {

Dim S(const char* s) { return Dim::sym(s); }
// A literal integer inside a symbolic value (may be negative, e.g. -1).
Dim L(int64_t v) {
  Dim d;
  d.value = v;
  return d;
}

// Runs one node's shape function on hand-made input types and values.
class Infer {
 public:
  Infer(std::string op, int64_t opset) : opset_(opset) {
    node_.opType = std::move(op);
    node_.name = node_.opType + "_n";
  }
  // An input of the given type; `value` a constant, `sym` a symbolic value.
  Infer& in(DataType dt, Shape shape, std::optional<Tensor> value = std::nullopt,
            std::optional<std::vector<Dim>> sym = std::nullopt) {
    node_.inputs.push_back("in" + std::to_string(node_.inputs.size()));
    ValueInfo& v = infos_.emplace_back();
    v.name = node_.inputs.back();
    v.dtype = dt;
    v.hasShape = true;
    v.shape = std::move(shape);
    values_.push_back(std::move(value));
    if (!sym && values_.back() && values_.back()->rank() <= 1 &&
        (dt == DataType::kInt64 || dt == DataType::kInt32)) {
      sym.emplace();
      for (int64_t x : values_.back()->toInt64Vector()) sym->push_back(L(x));
    }
    syms_.push_back(std::move(sym));
    return *this;
  }
  Infer& inShapeOf(std::vector<Dim> dims) {  // a 1-d int64 input carrying dims
    const int64_t n = static_cast<int64_t>(dims.size());
    return in(DataType::kInt64, {Dim(n)}, std::nullopt, std::move(dims));
  }
  Infer& attr(const std::string& name, int64_t v) {
    Attribute a;
    a.name = name;
    a.type = AttrType::kInt;
    a.i = v;
    node_.attributes.push_back(a);
    return *this;
  }
  Infer& attr(const std::string& name, std::vector<int64_t> v) {
    Attribute a;
    a.name = name;
    a.type = AttrType::kInts;
    a.ints = std::move(v);
    node_.attributes.push_back(a);
    return *this;
  }
  shape::InferContext& run(size_t outputs = 1) {
    for (size_t i = 0; i < outputs; ++i) node_.outputs.push_back("out" + std::to_string(i));
    ctx_.emplace(node_, opset_, symbols_);
    for (size_t i = 0; i < infos_.size(); ++i) {
      ctx_->inputs_.push_back(&infos_[i]);
      ctx_->values_.push_back(values_[i] ? &*values_[i] : nullptr);
      ctx_->symValues_.push_back(syms_[i] ? &*syms_[i] : nullptr);
    }
    for (const auto& o : node_.outputs) {
      ValueInfo v;
      v.name = o;
      ctx_->outputs_.push_back(v);
    }
    ctx_->outputSet_.assign(outputs, false);
    ctx_->outputValues_.resize(outputs);
    ctx_->outputSymValues_.resize(outputs);
    const OpDef* def = builtinRegistry().find("", node_.opType, opset_);
    if (!def) throw Error(ErrorCode::kUnsupportedOp, "no " + node_.opType);
    def->shape(*ctx_);
    return *ctx_;
  }
  DataType dtype(size_t i = 0) const { return ctx_->outputs_[i].dtype; }
  std::string shape(size_t i = 0) const { return shapeToString(ctx_->outputs_[i].shape); }
  std::string symValue(size_t i = 0) const {
    if (!ctx_->outputSymValues_[i]) return "none";
    std::string s = "[";
    for (const Dim& d : *ctx_->outputSymValues_[i])
      s += (s.size() > 1 ? "," : "") + (d.symbol.empty() ? std::to_string(d.value) : d.symbol);
    return s + "]";
  }
  const Tensor* value(size_t i = 0) const {
    return ctx_->outputValues_[i] ? &*ctx_->outputValues_[i] : nullptr;
  }

 private:
  Node node_;
  int64_t opset_;
  shape::SymbolGenerator symbols_;
  std::deque<ValueInfo> infos_;
  std::deque<std::optional<Tensor>> values_;
  std::deque<std::optional<std::vector<Dim>>> syms_;
  std::optional<shape::InferContext> ctx_;
};

Tensor I64(std::vector<int64_t> v) { return Tensor::fromVector<int64_t>({static_cast<int64_t>(v.size())}, v); }

const Shape kBSH = {S("batch"), S("seq"), Dim(768)};

}  // namespace

// ---- Shape and the value carriers -----------------------------------------

TEST(TensorInfer, ShapeEmitsSymbolicDims) {
  Infer f("Shape", 13);
  f.in(DataType::kFloat, kBSH).run();
  EXPECT_EQ(f.shape(), "[3]");
  EXPECT_EQ(f.symValue(), "[batch,seq,768]");
  EXPECT_EQ(f.value(), nullptr);
}

TEST(TensorInfer, ShapeOfStaticInputIsConcrete) {
  Infer f("Shape", 13);
  f.in(DataType::kFloat, {Dim(2), Dim(3)}).run();
  ASSERT_NE(f.value(), nullptr);
  EXPECT_EQ(f.value()->toInt64Vector(), (std::vector<int64_t>{2, 3}));
}

TEST(TensorInfer, ShapeStartEnd) {
  Infer f("Shape", 15);
  f.in(DataType::kFloat, kBSH).attr("start", int64_t(1)).attr("end", int64_t(-1)).run();
  EXPECT_EQ(f.shape(), "[1]");
  EXPECT_EQ(f.symValue(), "[seq]");
}

TEST(TensorInfer, GatherPicksSymbolicDim) {
  Infer f("Gather", 13);
  f.inShapeOf(kBSH).in(DataType::kInt64, {}, Tensor::scalar<int64_t>(1)).run();
  EXPECT_EQ(f.shape(), "[]");
  EXPECT_EQ(f.symValue(), "[seq]");
  EXPECT_EQ(f.value(), nullptr);
}

TEST(TensorInfer, GatherPicksStaticDimAsConcreteValue) {
  Infer f("Gather", 13);
  f.inShapeOf(kBSH).in(DataType::kInt64, {Dim(2)}, I64({-1, 0})).run();
  EXPECT_EQ(f.symValue(), "[768,batch]");
  Infer g("Gather", 13);
  g.inShapeOf(kBSH).in(DataType::kInt64, {}, Tensor::scalar<int64_t>(-1)).run();
  ASSERT_NE(g.value(), nullptr);
  EXPECT_EQ(g.value()->rank(), 0u);
  EXPECT_EQ(g.value()->toInt64Vector()[0], 768);
}

TEST(TensorInfer, UnsqueezeSqueezeCarryValue) {
  Infer u("Unsqueeze", 13);
  u.in(DataType::kInt64, {}, std::nullopt, std::vector<Dim>{S("seq")}).in(DataType::kInt64, {Dim(1)}, I64({0})).run();
  EXPECT_EQ(u.shape(), "[1]");
  EXPECT_EQ(u.symValue(), "[seq]");
  Infer u1("Unsqueeze", 11);
  u1.in(DataType::kInt64, {}, std::nullopt, std::vector<Dim>{S("seq")}).attr("axes", std::vector<int64_t>{0}).run();
  EXPECT_EQ(u1.symValue(), "[seq]");
  Infer s("Squeeze", 13);
  s.in(DataType::kInt64, {Dim(1)}, std::nullopt, std::vector<Dim>{S("seq")}).run();
  EXPECT_EQ(s.shape(), "[]");
  EXPECT_EQ(s.symValue(), "[seq]");
}

TEST(TensorInfer, ConcatJoinsSymbolicValues) {
  Infer f("Concat", 13);
  f.attr("axis", int64_t(0))
      .in(DataType::kInt64, {Dim(1)}, std::nullopt, std::vector<Dim>{S("batch")})
      .in(DataType::kInt64, {Dim(1)}, std::nullopt, std::vector<Dim>{S("seq")})
      .in(DataType::kInt64, {Dim(2)}, I64({12, 64}))
      .run();
  EXPECT_EQ(f.shape(), "[4]");
  EXPECT_EQ(f.symValue(), "[batch,seq,12,64]");
}

TEST(TensorInfer, ConcatOfLiteralsIsConcrete) {
  Infer f("Concat", 13);
  f.attr("axis", int64_t(0))
      .in(DataType::kInt64, {Dim(1)}, std::nullopt, std::vector<Dim>{L(-1)})
      .in(DataType::kInt64, {Dim(1)}, I64({64}))
      .run();
  ASSERT_NE(f.value(), nullptr);
  EXPECT_EQ(f.value()->toInt64Vector(), (std::vector<int64_t>{-1, 64}));
}

TEST(TensorInfer, SliceOfShapeValue) {
  Infer f("Slice", 13);
  f.inShapeOf(kBSH).in(DataType::kInt64, {Dim(1)}, I64({0})).in(DataType::kInt64, {Dim(1)}, I64({2})).run();
  EXPECT_EQ(f.shape(), "[2]");
  EXPECT_EQ(f.symValue(), "[batch,seq]");
  Infer g("Slice", 13);
  g.inShapeOf(kBSH).in(DataType::kInt64, {Dim(1)}, I64({-1})).in(DataType::kInt64, {Dim(1)}, I64({-1000}))
      .in(DataType::kInt64, {Dim(1)}, I64({0})).in(DataType::kInt64, {Dim(1)}, I64({-1})).run();
  EXPECT_EQ(g.symValue(), "[768,seq,batch]");
}

TEST(TensorInfer, CastIdentityReshapeCarryValue) {
  Infer c("Cast", 13);
  c.attr("to", int64_t(6)).inShapeOf(kBSH).run();
  EXPECT_EQ(c.symValue(), "[batch,seq,768]");
  EXPECT_EQ(c.dtype(), DataType::kInt32);
  Infer i("Identity", 16);
  i.inShapeOf(kBSH).run();
  EXPECT_EQ(i.symValue(), "[batch,seq,768]");
  Infer r("Reshape", 14);
  r.in(DataType::kInt64, {Dim(1)}, std::nullopt, std::vector<Dim>{S("seq")}).in(DataType::kInt64, {Dim(0)}, I64({})).run();
  EXPECT_EQ(r.shape(), "[]");
  EXPECT_EQ(r.symValue(), "[seq]");
}

TEST(TensorInfer, SplitOfShapeValue) {
  Infer f("Split", 13);
  f.inShapeOf(kBSH).in(DataType::kInt64, {Dim(2)}, I64({1, 2})).run(2);
  EXPECT_EQ(f.symValue(0), "[batch]");
  EXPECT_EQ(f.symValue(1), "[seq,768]");
}

TEST(TensorInfer, SizeValue) {
  Infer f("Size", 13);
  f.in(DataType::kFloat, {Dim(2), Dim(3)}).run();
  ASSERT_NE(f.value(), nullptr);
  EXPECT_EQ(f.value()->toInt64Vector()[0], 6);
  Infer g("Size", 13);
  g.in(DataType::kFloat, {S("n")}).run();
  EXPECT_EQ(g.symValue(), "[n]");
}

// ---- value consumers ----------------------------------------------------------

TEST(TensorInfer, ReshapeZeroCopiesSymbolicDims) {
  Infer f("Reshape", 14);
  f.in(DataType::kFloat, kBSH).in(DataType::kInt64, {Dim(4)}, I64({0, 0, 12, 64})).run();
  EXPECT_EQ(f.shape(), "[batch,seq,12,64]");
}

TEST(TensorInfer, ReshapeToSymbolicValue) {
  Infer f("Reshape", 13);
  f.in(DataType::kFloat, kBSH).inShapeOf({S("batch"), S("seq"), L(12), L(64)}).run();
  EXPECT_EQ(f.shape(), "[batch,seq,12,64]");
}

TEST(TensorInfer, ReshapeMinusOneResolvesToSymbol) {
  Infer f("Reshape", 14);
  f.in(DataType::kFloat, {S("batch"), Dim(768)}).in(DataType::kInt64, {Dim(3)}, I64({-1, 12, 64})).run();
  EXPECT_EQ(f.shape(), "[batch,12,64]");
  Infer g("Reshape", 14);
  g.in(DataType::kFloat, kBSH).in(DataType::kInt64, {Dim(4)}, I64({0, 0, -1, 64})).run();
  EXPECT_EQ(g.shape(), "[batch,seq,12,64]");
  Infer h("Reshape", 5);
  h.in(DataType::kFloat, {Dim(4), S("n"), Dim(6)}).inShapeOf({S("n"), L(-1)}).run();
  EXPECT_EQ(h.shape(), "[n,24]");
}

TEST(TensorInfer, ReshapeMinusOneOverTwoSymbolsIsFresh) {
  Infer f("Reshape", 14);
  auto& ctx = f.in(DataType::kFloat, kBSH).in(DataType::kInt64, {Dim(2)}, I64({-1, 768})).run();
  const Shape& s = ctx.outputs_[0].shape;
  ASSERT_EQ(s.size(), 2u);
  EXPECT_FALSE(s[0].isStatic());
  EXPECT_NE(s[0].symbol, "batch");
  EXPECT_EQ(s[1], Dim(768));
}

TEST(TensorInfer, ReshapeUnknownTargetKeepsRank) {
  Infer f("Reshape", 14);
  auto& ctx = f.in(DataType::kFloat, kBSH).in(DataType::kInt64, {Dim(3)}).run();
  ASSERT_TRUE(ctx.outputs_[0].hasShape);
  EXPECT_EQ(ctx.outputs_[0].shape.size(), 3u);
}

TEST(TensorInfer, ReshapeAttrForm) {
  Infer f("Reshape", 1);
  f.in(DataType::kFloat, {S("b"), Dim(6)}).attr("shape", std::vector<int64_t>{0, 2, 3}).run();
  EXPECT_EQ(f.shape(), "[b,2,3]");
}

TEST(TensorInfer, FlattenKeepsSingleSymbol) {
  Infer f("Flatten", 13);
  f.in(DataType::kFloat, {S("batch"), Dim(3), Dim(4)}).run();
  EXPECT_EQ(f.shape(), "[batch,12]");
}

TEST(TensorInfer, ConstantOfShapeFromShapeValue) {
  Infer f("ConstantOfShape", 9);
  f.inShapeOf({S("batch"), L(4)}).run();
  EXPECT_EQ(f.shape(), "[batch,4]");
  EXPECT_EQ(f.dtype(), DataType::kFloat);
  Infer g("ConstantOfShape", 9);
  auto& ctx = g.in(DataType::kInt64, {Dim(3)}).run();
  EXPECT_EQ(ctx.outputs_[0].shape.size(), 3u);
}

TEST(TensorInfer, ExpandToShapeOfOther) {
  Infer f("Expand", 13);
  f.in(DataType::kFloat, {Dim(1), Dim(768)}).inShapeOf({S("batch"), L(1)}).run();
  EXPECT_EQ(f.shape(), "[batch,768]");
  Infer g("Expand", 13);
  g.in(DataType::kFloat, {S("n"), Dim(1)}).in(DataType::kInt64, {Dim(3)}, I64({2, 1, 5})).run();
  EXPECT_EQ(g.shape(), "[2,n,5]");
  Infer h("Expand", 13);
  auto& ctx = h.in(DataType::kFloat, {Dim(3), Dim(1)}).in(DataType::kInt64, {Dim(3)}).run();
  ASSERT_EQ(ctx.outputs_[0].shape.size(), 3u);
  EXPECT_EQ(ctx.outputs_[0].shape[1], Dim(3));
}

TEST(TensorInfer, TileSliceRangePadOneHot) {
  Infer t("Tile", 13);
  t.in(DataType::kFloat, {S("b"), Dim(3)}).in(DataType::kInt64, {Dim(2)}, I64({1, 2})).run();
  EXPECT_EQ(t.shape(), "[b,6]");
  Infer s("Slice", 13);
  s.in(DataType::kFloat, {S("b"), Dim(10)})
      .in(DataType::kInt64, {Dim(2)}, I64({0, 2}))
      .in(DataType::kInt64, {Dim(2)}, I64({std::numeric_limits<int64_t>::max(), 5}))
      .run();
  EXPECT_EQ(s.shape(), "[b,3]");
  Infer r("Range", 11);
  r.in(DataType::kInt64, {}, Tensor::scalar<int64_t>(0))
      .in(DataType::kInt64, {}, std::nullopt, std::vector<Dim>{S("seq")})
      .in(DataType::kInt64, {}, Tensor::scalar<int64_t>(1))
      .run();
  EXPECT_EQ(r.shape(), "[seq]");
  Infer p("Pad", 13);
  p.in(DataType::kFloat, {S("b"), Dim(3)}).in(DataType::kInt64, {Dim(4)}, I64({0, 1, 0, 1})).run();
  EXPECT_EQ(p.shape(), "[b,5]");
  Infer o("OneHot", 11);
  o.in(DataType::kInt64, {S("b")}).in(DataType::kInt64, {}, Tensor::scalar<int64_t>(10)).in(DataType::kFloat, {Dim(2)}).run();
  EXPECT_EQ(o.shape(), "[b,10]");
}

TEST(TensorInfer, SqueezeWithoutAxesOnSymbolIsUnknownRank) {
  Infer f("Squeeze", 13);
  auto& ctx = f.in(DataType::kFloat, {S("b"), Dim(1)}).run();
  EXPECT_FALSE(ctx.outputs_[0].hasShape);
}

// ---- errors -------------------------------------------------------------------

// [0, 91, 4] to [0, -1, 4]: the known dims multiply to 0, so any -1 fits;
// an error naming the node (as onnxruntime refuses it), at plan time with a
// constant shape, never an internal "shape [0,?,4] is not static".
TEST(TensorErrors, ReshapeAmbiguousMinusOneOnZeroElements) {
  const std::string want =
      "node 'Reshape_under_test' (Reshape): input 0 ('x'): cannot reshape [0,91,4] to [0,-1,4]: the other dims "
      "multiply to 0, so the -1 is ambiguous";
  OpTester t("Reshape", 14);
  t.input("x", Tensor(DataType::kFloat, {0, 91, 4})).constantInput("shape", I64({0, -1, 4})).output("y");
  t.expectError(want);
  // (The run-time form, a computed shape: Reshape.AmbiguousMinusOneAtRunTime.)
}

TEST(TensorErrors, ReshapeElementCount) {
  OpTester t("Reshape", 14);
  t.input("x", Tensor(DataType::kFloat, {2, 3})).constantInput("shape", I64({4, 2})).output("y");
  t.expectError("cannot reshape [2,3] (6 elements) to [4,2] (8 elements)");
  OpTester u("Reshape", 14);
  u.input("x", Tensor(DataType::kFloat, {2, 3})).constantInput("shape", I64({4, -1})).output("y");
  u.expectError("node 'Reshape_under_test' (Reshape): input 0 ('x'): cannot reshape [2,3] (6 elements) to [4,-1]");
}

TEST(TensorErrors, ConcatNonAxisDim) {
  OpTester t("Concat", 13);
  t.attr("axis", int64_t(0)).input("a", Tensor(DataType::kFloat, {2, 3})).input("b", Tensor(DataType::kFloat, {2, 4})).output("y");
  t.expectError("input 1 ('b') has shape [2,4] but input 0 ('a') has shape [2,3]: dimension 1 differs");
}

TEST(TensorErrors, GatherIndexOutOfRange) {
  OpTester t("Gather", 13);
  t.input("x", Tensor(DataType::kFloat, {3, 2})).input("i", I64({0, 5})).output("y");
  t.expectError("node 'Gather_under_test' (Gather): input 1 ('i') holds index 5 at [1], out of range [-3, 2] for "
                "axis 0 of input 0 ('x') with shape [3,2]");
  OpTester c("Gather", 13);
  c.input("x", Tensor(DataType::kFloat, {3, 2})).constantInput("i", I64({-4})).output("y");
  c.expectError("node 'Gather_under_test' (Gather): input 1 ('i') holds index -4 at [0], out of range [-3, 2] for "
                "axis 0 of input 0 ('x') with shape [3,2]");
}

TEST(TensorErrors, ExpandIncompatible) {
  OpTester t("Expand", 13);
  t.input("x", Tensor(DataType::kFloat, {2, 3})).constantInput("s", I64({4})).output("y");
  t.expectError("cannot expand input 0 ('x') of shape [2,3] to shape [4]");
  OpTester k("Expand", 13);
  k.input("x", Tensor(DataType::kFloat, {2, 3})).input("s", I64({2, 2})).output("y");
  k.expectError("cannot expand input 0 ('x') of shape [2,3] to shape [2,2]");
}

TEST(TensorErrors, TransposePermInvalid) {
  OpTester t("Transpose", 13);
  t.attr("perm", std::vector<int64_t>{0, 0}).input("x", Tensor(DataType::kFloat, {2, 3})).output("y");
  t.expectError("perm [0,0] is not a permutation of the 2 axes of input 0 ('x') with shape [2,3]");
}

TEST(TensorErrors, SplitSizes) {
  OpTester t("Split", 13);
  t.attr("axis", int64_t(1)).input("x", Tensor(DataType::kFloat, {2, 5})).constantInput("s", I64({2, 2}))
      .output("a").output("b");
  t.expectError("split sizes [2,2] sum to 4 but axis 1 of input 0 ('x') with shape [2,5] has size 5");
}

TEST(TensorErrors, SqueezeNonUnitAxis) {
  OpTester t("Squeeze", 13);
  t.input("x", Tensor(DataType::kFloat, {2, 3})).constantInput("a", I64({1})).output("y");
  t.expectError("cannot squeeze axis 1 of input 0 ('x') with shape [2,3]");
}

TEST(TensorErrors, DropoutTrainingMode) {
  // Training mode is supported (tests/ops/test_dropout_training.cpp); its flag must be one value.
  OpTester t("Dropout", 13);
  t.input("x", Tensor(DataType::kFloat, {2})).absentInput().constantInput("tm", Tensor::fromVector<bool>({2}, {true, false}));
  t.output("y");
  t.expectError("input 2 (training_mode) must hold one value, got shape [2]");
}

TEST(TensorErrors, CastToComplex) {
  OpTester t("Cast", 19);
  t.attr("to", int64_t(14)).input("x", Tensor(DataType::kFloat, {2})).output("y");
  t.expectError("Cast to complex64 is not supported");
}

TEST(TensorErrors, PadReflectEmptyAxisAndBadMode) {
  OpTester t("Pad", 13);
  t.attr("mode", "symmetric").input("x", Tensor(DataType::kFloat, {2})).constantInput("p", I64({1, 1})).output("y");
  t.expectError("unsupported pad mode 'symmetric'");
}

// An empty output whose other dim is huge: no element to write, and no
// per-axis index table of 2^40 entries built for it.
TEST(TensorOps, PadToAnEmptyOutputWithAHugeDim) {
  const int64_t huge = int64_t(1) << 40;
  for (const char* mode : {"constant", "edge"}) {
    OpTester t("Pad", 13);
    t.attr("mode", mode).input("x", Tensor(DataType::kFloat, {0, 2})).constantInput("p", I64({0, 0, 0, huge}));
    t.expect("y", Tensor(DataType::kFloat, {0, huge + 2}));
    t.run();
  }
}

TEST(TensorErrors, DepthToSpaceChannels) {
  OpTester t("DepthToSpace", 13);
  t.attr("blocksize", int64_t(2)).input("x", Tensor(DataType::kFloat, {1, 6, 2, 2})).output("y");
  t.expectError("are not divisible by blocksize^2 = 4");
}

// ---- registry flags -------------------------------------------------------------

TEST(TensorRegistry, ViewsAndVersions) {
  for (const char* op : {"Reshape", "Flatten", "Squeeze", "Unsqueeze", "Identity"}) {
    const OpDef* d = builtinRegistry().find("", op, 25);
    ASSERT_NE(d, nullptr) << op;
    EXPECT_EQ(d->viewOfInput, 0) << op;
  }
  EXPECT_EQ(builtinRegistry().find("", "Pad", 20)->sinceVersion, 19);
  EXPECT_EQ(builtinRegistry().find("", "Split", 17)->sinceVersion, 13);
  EXPECT_EQ(builtinRegistry().find("", "Transpose", 12)->viewOfInput, -1);
}

// The view ops' kernels copy (they run only for constant folding).
TEST(TensorKernels, ViewKernelCopies) {
  const OpDef* d = builtinRegistry().find("", "Reshape", 14);
  Node n;
  n.opType = "Reshape";
  n.name = "r";
  n.inputs = {"x", "s"};
  n.outputs = {"y"};
  KernelInit init{n, 14, {}, {}, {}};
  auto k = d->cpu(init);
  Tensor x = Tensor::fromVector<std::string>({2, 2}, {"a", "b", "c", "d"});
  Tensor s = I64({4});
  Tensor y(DataType::kString, {4});
  KernelContext ctx;
  ctx.node_ = &n;
  ThreadPool pool(1);
  ctx.pool_ = &pool;
  ctx.inputs_ = {&x, &s};
  ctx.outputs_ = {&y};
  k->run(ctx);
  EXPECT_EQ(y.toVector<std::string>(), (std::vector<std::string>{"a", "b", "c", "d"}));
}
