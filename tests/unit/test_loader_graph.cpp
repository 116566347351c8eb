// ONNX loader: graph-level rules (inputs vs initializers, node naming,
// attributes, Constant forms, subgraph scopes, producers), opset imports and
// model-local function inlining.
#include <google/protobuf/unknown_field_set.h>

#include <algorithm>

#include "loader_test_util.h"
#include "ir_util.h"

using namespace loader_test;
using oinfer::AttrType;
using oinfer::DataType;
using oinfer::Graph;
namespace ir = oinfer::ir;
using oinfer::Tensor;

TEST(LoaderGraph, InputThatIsInitializerIsAWeight) {
  auto m = reluModel();
  auto* g = m.mutable_graph();
  vi(g->mutable_input(), "W", onnx::TensorProto::FLOAT, {2});
  initF(g, "W", {2}, {1, 2});
  node(g, "Add", {"Y", "W"}, {"Z"});
  vi(g->mutable_output(), "Z");
  ir::Graph out = load(m);
  ASSERT_EQ(out.inputs.size(), 1u);
  EXPECT_EQ(out.inputs[0].name, "X");
  ASSERT_EQ(out.initializers.count("W"), 1u);
  EXPECT_EQ(out.initializers.at("W").toVector<float>(), (std::vector<float>{1, 2}));
  EXPECT_EQ(out.weightBytes(), 8u);
}

TEST(LoaderGraph, DuplicatesAreErrors) {
  auto m = reluModel();
  vi(m.mutable_graph()->mutable_input(), "X");
  EXPECT_HAS(loadError(m), "duplicate graph input 'X'");
  auto m2 = reluModel();
  initF(m2.mutable_graph(), "W", {1}, {1});
  initF(m2.mutable_graph(), "W", {1}, {2});
  EXPECT_HAS(loadError(m2), "duplicate initializer 'W'");
  auto m3 = reluModel();
  auto* n = m3.mutable_graph()->mutable_node(0);
  attr(n, "a", onnx::AttributeProto::INT)->set_i(1);
  attr(n, "a", onnx::AttributeProto::INT)->set_i(2);
  EXPECT_HAS(loadError(m3), "node 'relu' (Relu): duplicate attribute 'a'");
}

TEST(LoaderGraph, TwoProducers) {
  auto m = reluModel();
  node(m.mutable_graph(), "Sigmoid", {"X"}, {"Y"}, "sig");
  EXPECT_HAS(loadError(m), "tensor 'Y' is produced by two nodes: node 'relu' (Relu) and node 'sig' (Sigmoid)");
  auto m2 = reluModel();
  node(m2.mutable_graph(), "Sigmoid", {"Y"}, {"X"}, "sig");
  EXPECT_HAS(loadError(m2), "tensor 'X' is produced by node 'sig' (Sigmoid) but is also a graph input");
}

TEST(LoaderGraph, UnproducedInput) {
  auto m = reluModel();
  node(m.mutable_graph(), "Add", {"Y", "ghost"}, {"Z"}, "add");
  EXPECT_HAS(loadError(m), "node 'add' (Add): input 1 'ghost' is not produced by any node");
}

TEST(LoaderGraph, OutputsMustBeProduced) {
  auto m = reluModel();
  vi(m.mutable_graph()->mutable_output(), "nowhere");
  EXPECT_HAS(loadError(m), "graph output 'nowhere' is not produced by any node");
  // An output that is an input or an initializer is fine.
  auto m2 = reluModel();
  vi(m2.mutable_graph()->mutable_output(), "X");
  initF(m2.mutable_graph(), "W", {1}, {1});
  vi(m2.mutable_graph()->mutable_output(), "W");
  EXPECT_EQ(load(m2).outputs.size(), 3u);
}

TEST(LoaderGraph, EmptyOptionalInputKept) {
  auto m = reluModel();
  initF(m.mutable_graph(), "hi", {}, {6});
  node(m.mutable_graph(), "Clip", {"Y", "", "hi"}, {"Z", ""}, "clip");
  ir::Graph g = load(m);
  const auto* clip = findNode(g, "clip");
  ASSERT_NE(clip, nullptr);
  EXPECT_EQ(clip->inputs, (std::vector<std::string>{"Y", "", "hi"}));
  EXPECT_EQ(clip->outputs, (std::vector<std::string>{"Z", ""}));
}

TEST(LoaderGraph, UnnamedNodesGetUniqueNames) {
  auto m = reluModel();
  auto* g = m.mutable_graph();
  node(g, "Relu", {"Y"}, {"a"});             // "Relu_1" is taken by a later node: "Relu_1_1"
  node(g, "Relu", {"a"}, {"b"}, "Relu_1");  // explicit names have priority
  node(g, "Neg", {"b"}, {"c"});              // "Neg_3"
  node(g, "Neg", {"c"}, {"d"}, "relu");      // duplicate of node 0's name: "relu_1"
  node(g, "Abs", {"d"}, {"e"}, "");          // "Abs_5"
  node(g, "Abs", {"e"}, {"f"});              // "Abs_6"
  ir::Graph out = load(m);
  std::vector<std::string> names;
  for (const auto& n : out.nodes) names.push_back(n.name);
  EXPECT_EQ(names, (std::vector<std::string>{"relu", "Relu_1_1", "Relu_1", "Neg_3", "relu_1", "Abs_5", "Abs_6"}));
  auto m2 = reluModel();
  m2.mutable_graph()->mutable_node(0)->clear_name();
  EXPECT_EQ(load(m2).nodes[0].name, "Relu_0");
}

TEST(LoaderGraph, DomainNormalised) {
  auto m = reluModel();
  m.mutable_graph()->mutable_node(0)->set_domain("ai.onnx");
  EXPECT_EQ(load(m).nodes[0].domain, "");
}

TEST(LoaderGraph, ConstantEveryForm) {
  auto m = reluModel();
  auto* g = m.mutable_graph();
  auto add = [&](const std::string& name, const std::string& attrName, onnx::AttributeProto::AttributeType t) {
    auto* n = node(g, "Constant", {}, {name}, name);
    return attr(n, attrName, t);
  };
  fillFloatTensor(add("c_value", "value", onnx::AttributeProto::TENSOR)->mutable_t(), "", {2}, {1, 2});
  add("c_float", "value_float", onnx::AttributeProto::FLOAT)->set_f(2.5f);
  auto* fs = add("c_floats", "value_floats", onnx::AttributeProto::FLOATS);
  fs->add_floats(1.f);
  fs->add_floats(-1.f);
  add("c_int", "value_int", onnx::AttributeProto::INT)->set_i(-7);
  auto* is = add("c_ints", "value_ints", onnx::AttributeProto::INTS);
  is->add_ints(3);
  is->add_ints(4);
  is->add_ints(5);
  add("c_string", "value_string", onnx::AttributeProto::STRING)->set_s("hi");
  auto* ss = add("c_strings", "value_strings", onnx::AttributeProto::STRINGS);
  ss->add_strings("x");
  ss->add_strings("y");
  auto* sp = add("c_sparse", "sparse_value", onnx::AttributeProto::SPARSE_TENSOR)->mutable_sparse_tensor();
  sp->add_dims(2);
  sp->add_dims(3);
  fillFloatTensor(sp->mutable_values(), "v", {2}, {5, 6});
  auto* idx = sp->mutable_indices();
  idx->set_data_type(onnx::TensorProto::INT64);
  idx->add_dims(2);
  idx->add_int64_data(1);
  idx->add_int64_data(5);
  ir::Graph out = load(m);
  auto value = [&](const std::string& name) -> const Tensor& {
    const auto* n = findNode(out, name);
    EXPECT_NE(n, nullptr) << name;
    EXPECT_EQ(n->attributes.size(), 1u);
    EXPECT_EQ(n->attributes[0].name, "value");
    EXPECT_EQ(n->attributes[0].type, AttrType::kTensor);
    return *n->attrTensor("value");
  };
  EXPECT_EQ(value("c_value").toVector<float>(), (std::vector<float>{1, 2}));
  EXPECT_EQ(value("c_float").rank(), 0u);
  EXPECT_EQ(value("c_float").toVector<float>(), (std::vector<float>{2.5f}));
  EXPECT_EQ(value("c_floats").toVector<float>(), (std::vector<float>{1, -1}));
  EXPECT_EQ(value("c_int").dtype(), DataType::kInt64);
  EXPECT_EQ(value("c_int").rank(), 0u);
  EXPECT_EQ(value("c_int").toVector<int64_t>(), (std::vector<int64_t>{-7}));
  EXPECT_EQ(value("c_ints").toVector<int64_t>(), (std::vector<int64_t>{3, 4, 5}));
  EXPECT_EQ(value("c_string").toVector<std::string>(), (std::vector<std::string>{"hi"}));
  EXPECT_EQ(value("c_strings").toVector<std::string>(), (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(value("c_sparse").shape(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(value("c_sparse").toVector<float>(), (std::vector<float>{0, 5, 0, 0, 0, 6}));

  auto bad = reluModel();
  auto* c = node(bad.mutable_graph(), "Constant", {}, {"k"}, "k");
  attr(c, "value_int", onnx::AttributeProto::INT)->set_i(1);
  attr(c, "value_float", onnx::AttributeProto::FLOAT)->set_f(1);
  EXPECT_HAS(loadError(bad), "node 'k' (Constant): expected exactly one of the attributes");
}

TEST(LoaderGraph, AttributesOfEveryType) {
  auto m = reluModel();
  m.mutable_graph()->mutable_node(0)->set_name("");
  auto* n = node(m.mutable_graph(), "Custom", {"Y"}, {"Z"}, "cu");
  n->set_domain("com.test");
  attr(n, "f", onnx::AttributeProto::FLOAT)->set_f(0.5f);
  attr(n, "i", onnx::AttributeProto::INT)->set_i(42);
  attr(n, "s", onnx::AttributeProto::STRING)->set_s("str");
  fillFloatTensor(attr(n, "t", onnx::AttributeProto::TENSOR)->mutable_t(), "", {1}, {9});
  auto* fl = attr(n, "fl", onnx::AttributeProto::FLOATS);
  fl->add_floats(1);
  fl->add_floats(2);
  auto* il = attr(n, "il", onnx::AttributeProto::INTS);
  il->add_ints(-1);
  auto* sl = attr(n, "sl", onnx::AttributeProto::STRINGS);
  sl->add_strings("a");
  sl->add_strings("b");
  auto* tl = attr(n, "tl", onnx::AttributeProto::TENSORS);
  fillFloatTensor(tl->add_tensors(), "", {1}, {1});
  fillFloatTensor(tl->add_tensors(), "", {2}, {2, 3}, false);
  auto* gl = attr(n, "gl", onnx::AttributeProto::GRAPHS);
  auto* sg = gl->add_graphs();
  vi(sg->mutable_input(), "in");
  node(sg, "Identity", {"in"}, {"o"});
  vi(sg->mutable_output(), "o");
  auto* spa = attr(n, "sp", onnx::AttributeProto::SPARSE_TENSOR)->mutable_sparse_tensor();
  spa->add_dims(3);
  fillFloatTensor(spa->mutable_values(), "v", {1}, {4});
  auto* spi = spa->mutable_indices();
  spi->set_data_type(onnx::TensorProto::INT64);
  spi->add_dims(1);
  spi->add_int64_data(2);
  auto* sps = attr(n, "sps", onnx::AttributeProto::SPARSE_TENSORS);
  *sps->add_sparse_tensors() = *spa;
  setTensorType(attr(n, "tp", onnx::AttributeProto::TYPE_PROTO)->mutable_tp(), onnx::TensorProto::INT8, {2});
  auto* tps = attr(n, "tps", onnx::AttributeProto::TYPE_PROTOS);
  setTensorType(tps->add_type_protos(), onnx::TensorProto::BOOL, {});
  setTensorType(tps->add_type_protos(), onnx::TensorProto::FLOAT16, {1, 2});
  auto* untyped = n->add_attribute();  // IR v1 style: no type field
  untyped->set_name("untyped");
  untyped->set_i(3);

  ir::Graph out = load(m);
  const auto* cu = findNode(out, "cu");
  ASSERT_NE(cu, nullptr);
  EXPECT_EQ(cu->domain, "com.test");
  EXPECT_EQ(cu->attrFloat("f", 0), 0.5f);
  EXPECT_EQ(cu->attrInt("i", 0), 42);
  EXPECT_EQ(cu->attrString("s", ""), "str");
  EXPECT_EQ(cu->attrTensor("t")->toVector<float>(), (std::vector<float>{9}));
  EXPECT_EQ(cu->attrFloats("fl"), (std::vector<float>{1, 2}));
  EXPECT_EQ(cu->attrInts("il"), (std::vector<int64_t>{-1}));
  EXPECT_EQ(cu->attrStrings("sl"), (std::vector<std::string>{"a", "b"}));
  ASSERT_EQ(cu->attr("tl")->tensors.size(), 2u);
  EXPECT_EQ(cu->attr("tl")->tensors[1].toVector<float>(), (std::vector<float>{2, 3}));
  ASSERT_EQ(cu->attr("gl")->graphs.size(), 1u);
  EXPECT_EQ(cu->attr("gl")->graphs[0]->nodes[0].opType, "Identity");
  EXPECT_EQ(cu->attr("gl")->graphs[0]->inputs[0].name, "in");
  EXPECT_EQ(cu->attr("sp")->type, AttrType::kSparseTensor);
  EXPECT_EQ(cu->attr("sp")->t.toVector<float>(), (std::vector<float>{0, 0, 4}));
  ASSERT_EQ(cu->attr("sps")->tensors.size(), 1u);
  EXPECT_EQ(cu->attr("sps")->tensors[0].toVector<float>(), (std::vector<float>{0, 0, 4}));
  EXPECT_EQ(cu->attr("tp")->typeProto.dtype, DataType::kInt8);
  EXPECT_EQ(cu->attr("tp")->typeProto.shape.size(), 1u);
  ASSERT_EQ(cu->attr("tps")->typeProtos.size(), 2u);
  EXPECT_EQ(cu->attr("tps")->typeProtos[1].dtype, DataType::kFloat16);
  EXPECT_EQ(cu->attr("untyped")->type, AttrType::kInt);
  EXPECT_EQ(cu->attrInt("untyped", 0), 3);
}

TEST(LoaderGraph, RefAttrOutsideFunctionIsError) {
  auto m = reluModel();
  auto* a = attr(m.mutable_graph()->mutable_node(0), "alpha", onnx::AttributeProto::FLOAT);
  a->set_ref_attr_name("beta");
  EXPECT_HAS(loadError(m), "attribute 'alpha' refers to function attribute 'beta' outside a function");
}

TEST(LoaderGraph, SubgraphOuterScopeInputs) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(17);
  auto* g = m.mutable_graph();
  vi(g->mutable_input(), "X", onnx::TensorProto::FLOAT, {3});
  vi(g->mutable_input(), "cond", onnx::TensorProto::BOOL, {});
  initF(g, "W", {3}, {1, 2, 3});
  auto* if1 = node(g, "If", {"cond"}, {"Y"}, "if1");
  vi(g->mutable_output(), "Y");

  auto* thenG = attr(if1, "then_branch", onnx::AttributeProto::GRAPH)->mutable_g();
  node(thenG, "Add", {"X", "W"}, {"t_out"});
  vi(thenG->mutable_output(), "t_out");

  auto* elseG = attr(if1, "else_branch", onnx::AttributeProto::GRAPH)->mutable_g();
  auto* if2 = node(elseG, "If", {"cond"}, {"e_out"}, "if2");
  vi(elseG->mutable_output(), "e_out");
  auto* g3 = attr(if2, "then_branch", onnx::AttributeProto::GRAPH)->mutable_g();
  node(g3, "Mul", {"X", "X"}, {"m"});
  vi(g3->mutable_output(), "m");
  auto* g4 = attr(if2, "else_branch", onnx::AttributeProto::GRAPH)->mutable_g();
  initF(g4, "local_w", {3}, {0, 0, 0});
  node(g4, "Add", {"W", "local_w"}, {"w2"});
  vi(g4->mutable_output(), "w2");

  ir::Graph out = load(m);
  const auto* n1 = findNode(out, "if1");
  ASSERT_NE(n1, nullptr);
  const ir::Graph* t = n1->attrGraph("then_branch");
  const ir::Graph* e = n1->attrGraph("else_branch");
  ASSERT_TRUE(t && e);
  auto sorted = [](std::vector<std::string> v) {
    std::sort(v.begin(), v.end());
    return v;
  };
  EXPECT_EQ(sorted(t->outerScopeInputs), (std::vector<std::string>{"W", "X"}));
  EXPECT_EQ(sorted(e->outerScopeInputs), (std::vector<std::string>{"W", "X", "cond"}));
  const ir::Graph* e3 = e->nodes[0].attrGraph("then_branch");
  const ir::Graph* e4 = e->nodes[0].attrGraph("else_branch");
  EXPECT_EQ(e3->outerScopeInputs, (std::vector<std::string>{"X"}));
  EXPECT_EQ(e4->outerScopeInputs, (std::vector<std::string>{"W"}));
  EXPECT_EQ(e4->initializers.count("local_w"), 1u);
  EXPECT_TRUE(out.outerScopeInputs.empty());

  node(g3, "Neg", {"nope"}, {"q"}, "neg");
  std::string msg = loadError(m);
  EXPECT_HAS(msg, "node 'if1' (If): attribute 'else_branch': node 'if2' (If): attribute 'then_branch': ");
  EXPECT_HAS(msg, "node 'neg' (Neg): input 0 'nope' is not produced by any node and is not a graph input or "
                  "initializer or an outer-scope value");
}

// ---- opset imports ----------------------------------------------------------

TEST(LoaderOpset, Imports) {
  auto m = reluModel();
  m.mutable_opset_import(0)->set_domain("ai.onnx");
  auto* ml = m.add_opset_import();
  ml->set_domain("ai.onnx.ml");
  ml->set_version(3);
  ir::Graph g = load(m);
  EXPECT_EQ(g.opsetImports.at(""), 17);
  EXPECT_EQ(g.opsetImports.at("ai.onnx.ml"), 3);
  EXPECT_EQ(g.opsetImports.count("ai.onnx"), 0u);

  auto old = reluModel();
  old.set_ir_version(2);
  old.clear_opset_import();
  EXPECT_EQ(load(old).opset(""), 1);

  auto none = reluModel();
  none.clear_opset_import();
  EXPECT_HAS(loadError(none), "ir_version 8 but no opset_import");

  auto dup = reluModel();
  auto* again = dup.add_opset_import();
  again->set_domain("ai.onnx");
  again->set_version(13);
  EXPECT_HAS(loadError(dup), "opset_import lists domain '' twice, with versions 17 and 13");

  auto zero = reluModel();
  zero.mutable_opset_import(0)->set_version(0);
  EXPECT_HAS(loadError(zero), "invalid version 0");

  auto future = reluModel();  // newer than known: warns, still loads
  future.mutable_opset_import(0)->set_version(40);
  future.set_ir_version(30);
  EXPECT_EQ(load(future).opset(""), 40);
}

// ---- model-local functions --------------------------------------------------

namespace {
// MyFn(a, b) -> c: t = Mul(a, b); c = LeakyRelu(t, alpha = @alpha)
onnx::FunctionProto* addMyFn(onnx::ModelProto& m, bool withDefault) {
  auto* f = m.add_functions();
  f->set_name("MyFn");
  f->set_domain("local");
  f->add_input("a");
  f->add_input("b");
  f->add_output("c");
  f->add_attribute("alpha");
  auto* op = f->add_opset_import();
  op->set_domain("");
  op->set_version(17);
  auto* mul = f->add_node();
  mul->set_op_type("Mul");
  mul->add_input("a");
  mul->add_input("b");
  mul->add_output("t");
  auto* lr = f->add_node();
  lr->set_op_type("LeakyRelu");
  lr->set_name("lr");
  lr->add_input("t");
  lr->add_output("c");
  auto* ref = lr->add_attribute();
  ref->set_name("alpha");
  ref->set_type(onnx::AttributeProto::FLOAT);
  ref->set_ref_attr_name("alpha");
  if (withDefault) {
    // FunctionProto.attribute_proto (field 11) is newer than this onnx.proto.
    onnx::AttributeProto def;
    def.set_name("alpha");
    def.set_type(onnx::AttributeProto::FLOAT);
    def.set_f(0.5f);
    f->GetReflection()->MutableUnknownFields(f)->AddLengthDelimited(11, def.SerializeAsString());
  }
  return f;
}

onnx::ModelProto callModel() {
  auto m = reluModel();
  auto* op = m.add_opset_import();
  op->set_domain("local");
  op->set_version(1);
  return m;
}

onnx::NodeProto* call(onnx::ModelProto& m, const std::string& fn, std::vector<std::string> ins,
                      std::vector<std::string> outs, const std::string& name) {
  auto* n = node(m.mutable_graph(), fn, ins, outs, name);
  n->set_domain("local");
  vi(m.mutable_graph()->mutable_output(), outs[0]);
  return n;
}
}  // namespace

TEST(LoaderFunction, InlinesWithAttributeReference) {
  auto m = callModel();
  addMyFn(m, false);
  attr(call(m, "MyFn", {"X", "Y"}, {"Z"}, "call1"), "alpha", onnx::AttributeProto::FLOAT)->set_f(0.2f);
  ir::Graph g = load(m);
  ASSERT_EQ(g.nodes.size(), 3u);
  const auto& mul = g.nodes[1];
  EXPECT_EQ(mul.opType, "Mul");
  EXPECT_EQ(mul.name, "call1/Mul_0");
  EXPECT_EQ(mul.inputs, (std::vector<std::string>{"X", "Y"}));
  EXPECT_EQ(mul.outputs, (std::vector<std::string>{"call1/t"}));
  const auto& lr = g.nodes[2];
  EXPECT_EQ(lr.name, "call1/lr");
  EXPECT_EQ(lr.inputs, (std::vector<std::string>{"call1/t"}));
  EXPECT_EQ(lr.outputs, (std::vector<std::string>{"Z"}));
  EXPECT_EQ(lr.attrFloat("alpha", 0), 0.2f);
  EXPECT_EQ(g.opset("local"), 1);
}

TEST(LoaderFunction, DefaultAttributeAndMissingAttribute) {
  auto m = callModel();
  addMyFn(m, true);
  call(m, "MyFn", {"X", "X"}, {"Z"}, "c");
  ir::Graph g = load(m);
  EXPECT_EQ(findNode(g, "c/lr")->attrFloat("alpha", 0), 0.5f);

  auto m2 = callModel();
  addMyFn(m2, false);
  call(m2, "MyFn", {"X", "X"}, {"Z"}, "c");
  EXPECT_FALSE(findNode(load(m2), "c/lr")->hasAttr("alpha"));

  auto m3 = callModel();
  addMyFn(m3, false);
  attr(call(m3, "MyFn", {"X", "X"}, {"Z"}, "c"), "alpha", onnx::AttributeProto::INT)->set_i(1);
  EXPECT_HAS(loadError(m3), "node 'c' (MyFn): attribute 'alpha' passed to function 'MyFn' has type INT");
}

TEST(LoaderFunction, NestedFunctionsAndMissingOptionalInput) {
  auto m = callModel();
  addMyFn(m, true);
  // Outer(x) -> y: y = MyFn(x, x) with alpha forwarded from Outer's beta.
  auto* f = m.add_functions();
  f->set_name("Outer");
  f->set_domain("local");
  f->add_input("x");
  f->add_input("unused_opt");
  f->add_output("y");
  auto* inner = f->add_node();
  inner->set_op_type("MyFn");
  inner->set_domain("local");
  inner->set_name("inner");
  inner->add_input("x");
  inner->add_input("unused_opt");
  inner->add_output("y");
  auto* fwd = inner->add_attribute();
  fwd->set_name("alpha");
  fwd->set_type(onnx::AttributeProto::FLOAT);
  fwd->set_ref_attr_name("beta");
  attr(call(m, "Outer", {"X"}, {"Z"}, ""), "beta", onnx::AttributeProto::FLOAT)->set_f(0.3f);
  ir::Graph g = load(m);
  ASSERT_EQ(g.nodes.size(), 3u);
  EXPECT_EQ(g.nodes[1].name, "Outer_1/inner/Mul_0");
  EXPECT_EQ(g.nodes[1].inputs, (std::vector<std::string>{"X", ""}));
  EXPECT_EQ(g.nodes[2].name, "Outer_1/inner/lr");
  EXPECT_EQ(g.nodes[2].outputs, (std::vector<std::string>{"Z"}));
  EXPECT_EQ(g.nodes[2].attrFloat("alpha", 0), 0.3f);
}

TEST(LoaderFunction, RecursionAndArityErrors) {
  auto m = callModel();
  auto* f = m.add_functions();
  f->set_name("Rec");
  f->set_domain("local");
  f->add_input("a");
  f->add_output("b");
  auto* self = f->add_node();
  self->set_op_type("Rec");
  self->set_domain("local");
  self->add_input("a");
  self->add_output("b");
  call(m, "Rec", {"X"}, {"Z"}, "r");
  EXPECT_HAS(loadError(m), "model-local functions nest more than 32 deep (recursive function 'Rec'?)");

  auto m2 = callModel();
  addMyFn(m2, false);
  call(m2, "MyFn", {"X", "X", "X"}, {"Z"}, "c3");
  EXPECT_HAS(loadError(m2), "node 'c3' (MyFn) passes 3 inputs and 1 outputs to function 'MyFn', which has 2 and 1");
}

TEST(LoaderFunction, OpsetImportsMerged) {
  auto m = callModel();
  auto* f = addMyFn(m, false);
  auto* extra = f->add_opset_import();
  extra->set_domain("com.extra");
  extra->set_version(2);
  call(m, "MyFn", {"X", "X"}, {"Z"}, "c");
  EXPECT_EQ(load(m).opset("com.extra"), 2);

  f->mutable_opset_import(0)->set_version(13);
  EXPECT_HAS(loadError(m), "function 'MyFn' imports opset 13 of domain '' but the model imports opset 17");
}

TEST(LoaderFunction, InlinedInsideSubgraph) {
  auto m = callModel();
  addMyFn(m, false);
  vi(m.mutable_graph()->mutable_input(), "cond", onnx::TensorProto::BOOL, {});
  auto* ifn = node(m.mutable_graph(), "If", {"cond"}, {"Z"}, "if");
  vi(m.mutable_graph()->mutable_output(), "Z");
  for (const char* branch : {"then_branch", "else_branch"}) {
    auto* sg = attr(ifn, branch, onnx::AttributeProto::GRAPH)->mutable_g();
    auto* c = node(sg, "MyFn", {"X", "Y"}, {"o"}, "sub");
    c->set_domain("local");
    vi(sg->mutable_output(), "o");
  }
  ir::Graph g = load(m);
  const ir::Graph* then = findNode(g, "if")->attrGraph("then_branch");
  ASSERT_EQ(then->nodes.size(), 2u);
  EXPECT_EQ(then->nodes[0].opType, "Mul");
  EXPECT_EQ(then->nodes[0].inputs, (std::vector<std::string>{"X", "Y"}));
  EXPECT_EQ(then->nodes[1].outputs, (std::vector<std::string>{"o"}));
}

// Each level calls the one below twice: 2^k nodes from k + 1 small functions.
// The expansion is counted before anything is inlined, and 2^24 nodes are
// refused at once (inlining 2^20 of them took over a minute).
namespace {
onnx::ModelProto doublingFunctions(int levels) {
  auto m = callModel();
  for (int k = 0; k <= levels; ++k) {
    auto* f = m.add_functions();
    f->set_name("L" + std::to_string(k));
    f->set_domain("local");
    f->add_input("a");
    f->add_output("b");
    auto* op = f->add_opset_import();
    op->set_version(17);
    if (k == 0) {
      auto* relu = f->add_node();
      relu->set_op_type("Relu");
      relu->add_input("a");
      relu->add_output("b");
      continue;
    }
    auto* first = f->add_node();
    first->set_op_type("L" + std::to_string(k - 1));
    first->set_domain("local");
    first->add_input("a");
    first->add_output("t");
    auto* second = f->add_node();
    second->CopyFrom(*first);
    second->set_input(0, "t");
    second->set_output(0, "b");
  }
  call(m, "L" + std::to_string(levels), {"X"}, {"Z"}, "top");
  return m;
}
}  // namespace

TEST(LoaderFunction, ExpansionCountedBeforeInlining) {
  ir::Graph g = load(doublingFunctions(10));
  EXPECT_EQ(g.nodes.size(), 1u + 1024u);  // the model's Relu, and the 2^10 inlined
  EXPECT_HAS(loadError(doublingFunctions(21)),
             "inlining model-local functions would produce 2097153 nodes, more than the limit of 1048576");
  EXPECT_HAS(loadError(doublingFunctions(31)),
             "inlining model-local functions would produce more than 4194304 nodes, more than the limit of 1048576");
}
