// Custom ops (include/oinfer/custom_op.h): registered in-process per session
// and globally, loaded from plugins (the example's and the broken ones under
// tests/plugins), and every error path, each by its message.
#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <thread>

#include "ir_util.h"
#include "oinfer/custom_op.h"
#include "oinfer/oinfer.h"
#include "oinfer/oinfer_c.h"

namespace oinfer {
namespace {



// ---- helpers ---------------------------------------------------------------------

ValueInfo tensorInfo(const std::string& name, DataType dt, Shape shape) {
  ValueInfo v;
  v.name = name;
  v.dtype = dt;
  v.hasShape = true;
  v.shape = std::move(shape);
  return v;
}

ValueInfo outputInfo(const std::string& name) {
  ValueInfo v;
  v.name = name;
  return v;
}

Attribute intAttr(const std::string& name, int64_t v) {
  Attribute a;
  a.name = name;
  a.type = AttrType::kInt;
  a.i = v;
  return a;
}

// One node `domain::op` named "n1" with graph inputs `inputs` (and constant
// inputs from `inits`), outputs y0..., opset 1 for `domain` and 17 for ONNX.
Graph oneNode(const std::string& domain, const std::string& op, std::vector<ValueInfo> inputs,
              std::vector<std::string> inputNames, size_t outputs = 1, std::vector<Attribute> attrs = {},
              std::map<std::string, Tensor> inits = {}, int64_t opset = 1) {
  ir::Graph g;
  g.irVersion = 8;
  g.opsetImports = {{"", 17}};
  if (!domain.empty()) g.opsetImports[domain] = opset;
  else g.opsetImports[""] = opset;
  g.inputs = std::move(inputs);
  g.initializers = std::move(inits);
  Node n;
  n.name = "n1";
  n.domain = domain;
  n.opType = op;
  n.inputs = std::move(inputNames);
  for (size_t i = 0; i < outputs; ++i) {
    n.outputs.push_back("y" + std::to_string(i));
    g.outputs.push_back(outputInfo("y" + std::to_string(i)));
  }
  n.attributes = std::move(attrs);
  g.nodes.push_back(std::move(n));
  return wrap(std::move(g));
}

// test::AddN: y = x + attribute n (default 1), float32, any shape.
CustomOp addN(const std::string& domain = "test", const std::string& op = "AddN") {
  CustomOp o;
  o.domain = domain;
  o.opType = op;
  o.shape = [](CustomShapeContext& ctx) {
    if (ctx.inputType(0) != DataType::kFloat) ctx.fail("x must be float32");
    ctx.setOutput(0, DataType::kFloat, ctx.inputShape(0));
  };
  o.kernel = [](const CustomKernelInit& init) {
    const float n = float(init.attrInt("n", 1));
    return makeCustomKernel([n](CustomKernelContext& ctx) {
      const Tensor& x = ctx.input(0);
      Tensor& y = ctx.output(0);
      ctx.parallelFor(x.numel(), [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i) y.data<float>()[i] = x.data<float>()[i] + n;
      });
    });
  };
  return o;
}

CustomOpSet setOf(std::vector<CustomOp> ops) {
  CustomOpSet s;
  for (auto& o : ops) s.add(std::move(o));
  return s;
}

Graph addNGraph(std::vector<Attribute> attrs = {}) {
  return oneNode("test", "AddN", {tensorInfo("x", DataType::kFloat, {2, 3})}, {"x"}, 1, std::move(attrs));
}

Tensor iota(std::vector<int64_t> shape) {
  Tensor t(DataType::kFloat, std::move(shape));
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = float(i);
  return t;
}

std::string errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

// Clears the global ops before and after each test that touches them.
struct GlobalOps : ::testing::Test {
  void SetUp() override { clearGlobalCustomOps(); }
  void TearDown() override { clearGlobalCustomOps(); }
};

// ---- per session --------------------------------------------------------------------

TEST(CustomOps, PerSessionOpRunsAndShowsInThePlan) {
  SessionOptions so;
  so.customOps = {setOf({addN()})};
  Session s(addNGraph({intAttr("n", 5)}), so);
  auto out = s.run({{"x", iota({2, 3})}});
  ASSERT_EQ(out[0].shape(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(out[0].toVector<float>(), (std::vector<float>{5, 6, 7, 8, 9, 10}));
  PlanInfo plan = s.plan({{"x", {2, 3}}});
  ASSERT_EQ(plan.steps.size(), 1u);
  EXPECT_EQ(plan.steps[0].opType, "AddN");
  EXPECT_EQ(plan.steps[0].nodeName, "n1");
  EXPECT_EQ(plan.steps[0].outputShapes[0], "[2,3]");
}

TEST(CustomOps, WithoutTheSetTheOpIsUnsupported) {
  EXPECT_EQ(errorOf([] { Session s(addNGraph()); }),
            "the model uses 1 unsupported op:\n  test::AddN (opset 1), e.g. node 'n1'");
  Graph g = addNGraph();
  ASSERT_EQ(g.opsUsed().size(), 1u);
  EXPECT_FALSE(g.opsUsed()[0].supported);
  SessionOptions so;
  so.customOps = {setOf({addN()})};
  EXPECT_TRUE(g.opsUsed(so)[0].supported);
}

TEST(CustomOps, OpsetRangeIsHonoured) {
  CustomOp o = addN();
  o.sinceVersion = 2;
  o.lastVersion = 3;
  SessionOptions so;
  so.customOps = {setOf({o})};
  auto at = [&](int64_t opset) {
    return oneNode("test", "AddN", {tensorInfo("x", DataType::kFloat, {2})}, {"x"}, 1, {}, {}, opset);
  };
  EXPECT_TRUE(at(2).opsUsed(so)[0].supported);
  EXPECT_TRUE(at(3).opsUsed(so)[0].supported);
  EXPECT_FALSE(at(1).opsUsed(so)[0].supported);
  EXPECT_FALSE(at(4).opsUsed(so)[0].supported);
  EXPECT_EQ(errorOf([&] { Session s(at(4), so); }),
            "the model uses 1 unsupported op:\n  test::AddN (opset 4) [no version for this opset], e.g. node 'n1'");
}

TEST(CustomOps, ConcurrentRunsAndSharedObjectMadeOncePerNode) {
  auto made = std::make_shared<std::atomic<int>>(0);
  CustomOp o = addN();
  o.kernel = [made](const CustomKernelInit& init) {
    auto table = init.shared<std::vector<float>>("table", [&] {
      ++*made;
      return std::vector<float>{100.f};
    });
    return makeCustomKernel([table](CustomKernelContext& ctx) {
      const Tensor& x = ctx.input(0);
      Tensor& y = ctx.output(0);
      for (int64_t i = 0; i < x.numel(); ++i) y.data<float>()[i] = x.data<float>()[i] + (*table)[0];
    });
  };
  SessionOptions so;
  so.customOps = {setOf({o})};
  so.threads = 2;
  Session s(oneNode("test", "AddN", {tensorInfo("x", DataType::kFloat, {Dim::sym("n")})}, {"x"}), so);
  std::vector<std::thread> threads;
  std::atomic<int> bad{0};
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int r = 0; r < 50; ++r) {
        auto out = s.run({{"x", iota({int64_t(t + 1)})}});
        for (int64_t i = 0; i <= t; ++i) bad += out[0].data<float>()[i] != float(i) + 100.f;
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(bad.load(), 0);
  EXPECT_EQ(made->load(), 1);  // four plans (n = 1..4), several contexts: one table
}

// ---- values and run-time shapes ------------------------------------------------------

// test::Repeat: y = x[0] repeated `count` times, count = the value of input 1.
// The kernel allocates its output itself.
CustomOp repeatOp(std::vector<bool>* runTimeCalls = nullptr) {
  CustomOp o;
  o.domain = "test";
  o.opType = "Repeat";
  o.shape = [runTimeCalls](CustomShapeContext& ctx) {
    if (runTimeCalls) runTimeCalls->push_back(ctx.atRunTime());
    if (const Tensor* c = ctx.inputValue(1)) {
      ctx.setOutput(0, DataType::kFloat, {Dim(c->data<int64_t>()[0])});
    } else {
      ctx.setOutput(0, DataType::kFloat, {ctx.freshDim()});
    }
  };
  o.kernel = [](const CustomKernelInit&) {
    return makeCustomKernel([](CustomKernelContext& ctx) {
      const int64_t count = ctx.input(1).data<int64_t>()[0];
      Tensor& y = ctx.allocateOutput(0, {count});
      for (int64_t i = 0; i < count; ++i) y.data<float>()[i] = ctx.input(0).data<float>()[0];
    });
  };
  return o;
}

TEST(CustomOps, OutputShapeFromAConstantInputIsKnownAtPlanTime) {
  SessionOptions so;
  so.customOps = {setOf({repeatOp()})};
  Session s(oneNode("test", "Repeat", {tensorInfo("x", DataType::kFloat, {1})}, {"x", "count"}, 1, {},
                    {{"count", Tensor::fromVector<int64_t>({1}, {4})}}),
            so);
  EXPECT_EQ(s.plan({{"x", {1}}}).steps[0].outputShapes[0], "[4]");
  auto out = s.run({{"x", Tensor::fromVector<float>({1}, {2.5f})}});
  EXPECT_EQ(out[0].toVector<float>(), (std::vector<float>{2.5f, 2.5f, 2.5f, 2.5f}));
}

TEST(CustomOps, OutputShapeFromARunTimeInputIsInferredDuringTheRun) {
  std::vector<bool> calls;
  SessionOptions so;
  so.customOps = {setOf({repeatOp(&calls)})};
  so.optimizationLevel = 0;
  Session s(oneNode("test", "Repeat",
                    {tensorInfo("x", DataType::kFloat, {1}), tensorInfo("count", DataType::kInt64, {1})},
                    {"x", "count"}),
            so);
  EXPECT_EQ(s.plan({{"x", {1}}, {"count", {1}}}).steps[0].outputShapes[0], "dynamic");
  calls.clear();
  for (int64_t count : {3, 1, 6}) {
    auto out = s.run({{"x", Tensor::fromVector<float>({1}, {-1.f})}, {"count", Tensor::fromVector<int64_t>({1}, {count})}});
    EXPECT_EQ(out[0].toVector<float>(), std::vector<float>(size_t(count), -1.f));
  }
  EXPECT_EQ(calls, (std::vector<bool>{true, true, true}));  // once per run, with the value
}

TEST(CustomOps, KernelAllocatesWhenEvenTheValuesDoNotTellTheShape) {
  // test::Positive: the elements > 0 (NonZero-like): the shape function leaves a fresh dim.
  CustomOp o;
  o.domain = "test";
  o.opType = "Positive";
  o.shape = [](CustomShapeContext& ctx) { ctx.setOutput(0, DataType::kFloat, {ctx.freshDim()}); };
  o.kernel = [](const CustomKernelInit&) {
    return makeCustomKernel([](CustomKernelContext& ctx) {
      const Tensor& x = ctx.input(0);
      std::vector<float> keep;
      for (int64_t i = 0; i < x.numel(); ++i)
        if (x.data<float>()[i] > 0) keep.push_back(x.data<float>()[i]);
      Tensor& y = ctx.allocateOutput(0, {int64_t(keep.size())});
      for (size_t i = 0; i < keep.size(); ++i) y.data<float>()[i] = keep[i];
    });
  };
  SessionOptions so;
  so.customOps = {setOf({o})};
  Session s(oneNode("test", "Positive", {tensorInfo("x", DataType::kFloat, {5})}, {"x"}), so);
  auto out = s.run({{"x", Tensor::fromVector<float>({5}, {1, -2, 3, 0, 5})}});
  EXPECT_EQ(out[0].toVector<float>(), (std::vector<float>{1, 3, 5}));
}

TEST(CustomOps, OutputBeforeItsShapeIsKnownNamesTheNode) {
  CustomOp o = repeatOp();
  o.kernel = [](const CustomKernelInit&) {
    return makeCustomKernel([](CustomKernelContext& ctx) { ctx.output(0); });
  };
  o.shape = [](CustomShapeContext& ctx) { ctx.setOutput(0, DataType::kFloat, {ctx.freshDim()}); };
  SessionOptions so;
  so.customOps = {setOf({o})};
  Session s(oneNode("test", "Repeat",
                    {tensorInfo("x", DataType::kFloat, {1}), tensorInfo("count", DataType::kInt64, {1})},
                    {"x", "count"}),
            so);
  EXPECT_EQ(errorOf([&] {
              s.run({{"x", Tensor::fromVector<float>({1}, {1.f})}, {"count", Tensor::fromVector<int64_t>({1}, {2})}});
            }),
            "node 'n1' (test::Repeat): output 0 has no shape before the kernel runs (the shape function could not "
            "tell it): use allocateOutput");
}

// ---- errors name the node and op ------------------------------------------------------

TEST(CustomOps, ShapeFunctionThatThrowsNamesNodeAndOp) {
  CustomOp o = addN("test", "Bad");
  o.shape = [](CustomShapeContext&) { throw std::runtime_error("boom"); };
  SessionOptions so;
  so.customOps = {setOf({o})};
  Graph g = oneNode("test", "Bad", {tensorInfo("x", DataType::kFloat, {2})}, {"x"});
  EXPECT_EQ(errorOf([&] { Session s(g, so); }), "node 'n1' (test::Bad): the shape function threw: boom");
}

TEST(CustomOps, ShapeFunctionFailNamesNodeAndOp) {
  SessionOptions so;
  so.customOps = {setOf({addN()})};
  Graph g = oneNode("test", "AddN", {tensorInfo("x", DataType::kInt64, {2})}, {"x"});
  try {
    Session s(g, so);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "node 'n1' (test::AddN): x must be float32");
    EXPECT_EQ(e.code(), ErrorCode::kShapeMismatch);
  }
}

TEST(CustomOps, ShapeFunctionThatSetsNoOutputNamesIt) {
  CustomOp o = addN();
  o.shape = [](CustomShapeContext&) {};
  SessionOptions so;
  so.customOps = {setOf({o})};
  EXPECT_EQ(errorOf([&] { Session s(addNGraph(), so); }),
            "node 'n1' (test::AddN): the shape function set no type for output 0 ('y0')");
}

TEST(CustomOps, MissingRequiredAttributeNamesNodeAndAttribute) {
  CustomOp o = addN();
  o.kernel = [](const CustomKernelInit& init) {
    init.attrInt("n");  // required
    return makeCustomKernel([](CustomKernelContext&) {});
  };
  SessionOptions so;
  so.customOps = {setOf({o})};
  Session s(addNGraph(), so);
  EXPECT_EQ(errorOf([&] { s.run({{"x", iota({2, 3})}}); }), "node 'n1' (test::AddN): attribute 'n' is required");
}

TEST(CustomOps, KernelAndFactoryExceptionsNameNodeAndOp) {
  CustomOp o = addN();
  o.kernel = [](const CustomKernelInit&) -> std::unique_ptr<CustomKernel> { throw std::logic_error("no weights"); };
  SessionOptions so;
  so.customOps = {setOf({o})};
  Session s1(addNGraph(), so);
  EXPECT_EQ(errorOf([&] { s1.run({{"x", iota({2, 3})}}); }),
            "node 'n1' (test::AddN): the kernel factory threw: no weights");

  o.kernel = [](const CustomKernelInit&) {
    return makeCustomKernel([](CustomKernelContext& ctx) {
      ctx.parallelFor(8, [](int64_t, int64_t) { throw std::out_of_range("index 9"); });
    });
  };
  so.customOps = {setOf({o})};
  Session s2(addNGraph(), so);
  EXPECT_EQ(errorOf([&] { s2.run({{"x", iota({2, 3})}}); }), "node 'n1' (test::AddN): the kernel threw: index 9");

  o.kernel = [](const CustomKernelInit&) {
    return makeCustomKernel([](CustomKernelContext& ctx) { ctx.fail("bad input"); });
  };
  so.customOps = {setOf({o})};
  Session s3(addNGraph(), so);
  EXPECT_EQ(errorOf([&] { s3.run({{"x", iota({2, 3})}}); }), "node 'n1' (test::AddN): bad input");
}

// ---- registration errors ---------------------------------------------------------------

TEST(CustomOps, DuplicateInOneSetIsRefused) {
  CustomOpSet s;
  s.add(addN());
  EXPECT_EQ(errorOf([&] { s.add(addN()); }), "custom op test::AddN is registered twice for opsets 1.. and 1..");
  CustomOp later = addN();
  later.sinceVersion = 2;
  CustomOp first = addN();
  first.lastVersion = 1;
  CustomOpSet ok;
  ok.add(first).add(later);  // disjoint ranges are two versions of one op
  EXPECT_EQ(ok.ops().size(), 2u);
}

TEST(CustomOps, IncompleteDefinitionsAreRefused) {
  CustomOp o = addN();
  o.shape = nullptr;
  EXPECT_EQ(errorOf([&] { CustomOpSet().add(o); }), "custom op test::AddN has no shape function");
  o = addN();
  o.kernel = nullptr;
  EXPECT_EQ(errorOf([&] { CustomOpSet().add(o); }), "custom op test::AddN has no kernel factory");
  o = addN();
  o.sinceVersion = 3;
  o.lastVersion = 2;
  EXPECT_EQ(errorOf([&] { CustomOpSet().add(o); }), "custom op test::AddN: opset range 3..2 is empty or starts below 1");
}

TEST(CustomOps, DuplicateAcrossASessionsSetsNamesBoth) {
  SessionOptions so;
  so.customOps = {setOf({addN()}), setOf({addN()})};
  EXPECT_EQ(errorOf([&] { Session s(addNGraph(), so); }),
            "custom op test::AddN is registered twice: opsets 1.. (from SessionOptions::customOps[0]) and 1.. (from "
            "SessionOptions::customOps[1])");
}

TEST(CustomOps, ReplacingABuiltinNeedsTheFlag) {
  CustomOp relu = addN("", "Relu");
  SessionOptions so;
  so.customOps = {setOf({relu})};
  Graph g = oneNode("", "Relu", {tensorInfo("x", DataType::kFloat, {2, 3})}, {"x"}, 1, {}, {}, 17);
  EXPECT_EQ(errorOf([&] { Session s(g, so); }),
            "custom op ai.onnx::Relu (from SessionOptions::customOps[0]) has the name of a built-in op; set "
            "CustomOp::overrideBuiltin to replace the built-in one");

  relu.overrideBuiltin = true;  // x + 1 instead of max(x, 0)
  relu.lastVersion = 16;
  so.customOps = {setOf({relu})};
  Tensor x = Tensor::fromVector<float>({2, 3}, {-1, 0, 1, 2, -3, 4});
  Session inRange(oneNode("", "Relu", {tensorInfo("x", DataType::kFloat, {2, 3})}, {"x"}, 1, {}, {}, 14), so);
  EXPECT_EQ(inRange.run({{"x", x}})[0].toVector<float>(), (std::vector<float>{0, 1, 2, 3, -2, 5}));
  Session outOfRange(g, so);  // opset 17: the built-in Relu again
  EXPECT_EQ(outOfRange.run({{"x", x}})[0].toVector<float>(), (std::vector<float>{0, 0, 1, 2, 0, 4}));
}

// ---- global registration ---------------------------------------------------------------

TEST_F(GlobalOps, GlobalOpsServeEverySessionMadeAfter) {
  registerGlobalCustomOps(setOf({addN()}));
  Session before(addNGraph());
  EXPECT_TRUE(addNGraph().opsUsed()[0].supported);
  EXPECT_EQ(before.run({{"x", iota({2, 3})}})[0].toVector<float>(), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  clearGlobalCustomOps();
  EXPECT_EQ(before.run({{"x", iota({2, 3})}})[0].toVector<float>(), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(errorOf([] { Session s(addNGraph()); }),
            "the model uses 1 unsupported op:\n  test::AddN (opset 1), e.g. node 'n1'");
}

TEST_F(GlobalOps, ASessionsOwnDefinitionHidesTheGlobalOne) {
  registerGlobalCustomOps(setOf({addN()}));
  CustomOp mine = addN();
  mine.kernel = [](const CustomKernelInit&) {
    return makeCustomKernel([](CustomKernelContext& ctx) {
      Tensor& y = ctx.output(0);
      for (int64_t i = 0; i < y.numel(); ++i) y.data<float>()[i] = -1.f;
    });
  };
  SessionOptions so;
  so.customOps = {setOf({mine})};
  Session s(addNGraph(), so);
  EXPECT_EQ(s.run({{"x", iota({2, 3})}})[0].toVector<float>(), std::vector<float>(6, -1.f));
}

TEST_F(GlobalOps, GlobalConflictsAreRefusedWhole) {
  CustomOp other = addN("test", "Other");
  registerGlobalCustomOps(setOf({addN()}));
  EXPECT_EQ(errorOf([&] { registerGlobalCustomOps(setOf({other, addN()})); }),
            "custom op test::AddN is registered twice: opsets 1.. (from registerGlobalCustomOps call 1) and 1.. (from "
            "registerGlobalCustomOps call 2)");
  // Nothing of the refused set was registered.
  EXPECT_FALSE(oneNode("test", "Other", {tensorInfo("x", DataType::kFloat, {2})}, {"x"}).opsUsed()[0].supported);
  EXPECT_EQ(errorOf([] { registerGlobalCustomOps(setOf({addN("", "Relu")})); }),
            "custom op ai.onnx::Relu (from registerGlobalCustomOps call 2) has the name of a built-in op; set "
            "CustomOp::overrideBuiltin to replace the built-in one");
}

// ---- plugins ----------------------------------------------------------------------------

const std::string kPluginDir = OINFER_TEST_PLUGIN_DIR;
const std::string kExample = kPluginDir + "/liboinfer_example_ops.so";
const std::string kModels = std::string(OINFER_SOURCE_DIR) + "/examples/custom_ops/models";

TEST(CustomOpPlugins, ExamplePluginLoadsOnce) {
  CustomOpSet a = loadCustomOpLibrary(kExample);
  ASSERT_EQ(a.ops().size(), 2u);
  EXPECT_EQ(a.ops()[0].opType, "deform_conv2d");
  EXPECT_EQ(a.ops()[1].opType, "DynamicTRTResize");
  EXPECT_EQ(a.origin(), kExample);
  CustomOpSet b = loadCustomOpLibrary(kExample);
  EXPECT_EQ(b.ops().size(), 2u);
}

TEST(CustomOpPlugins, DeformConv2dEqualsTheBuiltinDeformConv) {
  SessionOptions so;
  so.customOpLibraries = {kExample};
  Session s(Graph::loadFromONNX(kModels + "/deform_conv2d.onnx"), so);
  const std::string data = kModels + "/deform_conv2d_test_data/test_data_set_0/";
  auto out = s.run({{"x", loadTensorProto(data + "input_0.pb")},
                    {"offset", loadTensorProto(data + "input_1.pb")},
                    {"mask", loadTensorProto(data + "input_2.pb")}});
  const Tensor expected = loadTensorProto(data + "output_0.pb");
  ASSERT_EQ(out[0].shape(), expected.shape());
  ASSERT_EQ(out[1].shape(), expected.shape());
  for (int64_t i = 0; i < expected.numel(); ++i) {
    EXPECT_NEAR(out[0].data<float>()[i], out[1].data<float>()[i], 1e-5) << "custom vs DeformConv at " << i;
    EXPECT_NEAR(out[0].data<float>()[i], expected.data<float>()[i], 1e-5) << "custom vs numpy at " << i;
  }
  bool shown = false;
  for (const PlanStep& st : s.plan({{"x", {1, 4, 6, 7}}, {"offset", {1, 36, 6, 4}}, {"mask", {1, 18, 6, 4}}}).steps)
    if (st.nodeName == "dcn_custom") {
      shown = true;
      EXPECT_EQ(st.opType, "deform_conv2d");
      EXPECT_EQ(st.algorithm, "im2col planned-scratch");
    }
  EXPECT_TRUE(shown);
  EXPECT_GT(s.memoryStats().scratchBytes, 0u);
}

TEST(CustomOpPlugins, DynamicResizeFollowsTheSizeInput) {
  SessionOptions so;
  so.customOpLibraries = {kExample, kPluginDir + "/../plugins/liboinfer_example_ops.so"};  // one library, twice
  Session s(Graph::loadFromONNX(kModels + "/dynamic_resize.onnx"), so);
  // A 2x2 image to 4x4, bilinear with the half-pixel rule: worked out by hand.
  Tensor image(DataType::kFloat, {1, 3, 2, 2});
  for (int64_t i = 0; i < 12; ++i) image.data<float>()[i] = float(i % 4);
  auto out = s.run({{"image", image}, {"size", Tensor::fromVector<int64_t>({2}, {4, 4})}});
  ASSERT_EQ(out[0].shape(), (std::vector<int64_t>{1, 3, 4, 4}));
  const std::vector<float> row0 = {0, 0.25f, 0.75f, 1}, row3 = {2, 2.25f, 2.75f, 3};
  for (int c = 0; c < 3; ++c)
    for (int j = 0; j < 4; ++j) {
      EXPECT_FLOAT_EQ(out[0].data<float>()[c * 16 + j], row0[j]);
      EXPECT_FLOAT_EQ(out[0].data<float>()[c * 16 + 12 + j], row3[j]);
    }
  // Nearest (floor of o * in / out) to 1x3: columns 0, 0, 1 of row 0.
  out = s.run({{"image", image}, {"size", Tensor::fromVector<int64_t>({2}, {1, 3})}});
  ASSERT_EQ(out[1].shape(), (std::vector<int64_t>{1, 3, 1, 3}));
  EXPECT_EQ(std::vector<float>(out[1].data<float>(), out[1].data<float>() + 3), (std::vector<float>{0, 0, 1}));
  EXPECT_EQ(errorOf([&] { s.run({{"image", image}, {"size", Tensor::fromVector<int64_t>({2}, {-1, 3})}}); }),
            "node 'resize_bilinear' (custom::DynamicTRTResize): size (-1, 3) is out of range [1, 2^20]");
}

TEST(CustomOpPlugins, MissingFile) {
  try {
    loadCustomOpLibrary("/nonexistent/libops.so");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "custom op library '/nonexistent/libops.so': no such file");
    EXPECT_EQ(e.code(), ErrorCode::kIO);
  }
  SessionOptions so;
  so.customOpLibraries = {"/nonexistent/libops.so"};
  EXPECT_EQ(errorOf([&] { Session s(addNGraph(), so); }), "custom op library '/nonexistent/libops.so': no such file");
}

TEST(CustomOpPlugins, NotASharedLibrary) {
  const std::string path = ::testing::TempDir() + "/not_a_library.so";
  std::ofstream(path) << "just text\n";
  const std::string msg = errorOf([&] { loadCustomOpLibrary(path); });
  EXPECT_EQ(msg.rfind("custom op library '" + path + "' cannot be loaded: ", 0), 0u) << msg;
}

TEST(CustomOpPlugins, MissingEntryPoint) {
  EXPECT_EQ(errorOf([] { loadCustomOpLibrary(kPluginDir + "/liboinfer_test_no_entry.so"); }),
            "custom op library '" + kPluginDir +
                "/liboinfer_test_no_entry.so' does not export oinfer_register_custom_ops (define it with "
                "OINFER_CUSTOM_OPS_PLUGIN)");
}

TEST(CustomOpPlugins, WrongAbiVersion) {
  EXPECT_EQ(errorOf([] { loadCustomOpLibrary(kPluginDir + "/liboinfer_test_bad_abi.so"); }),
            "custom op library '" + kPluginDir + "/liboinfer_test_bad_abi.so' was built for custom-op ABI version " +
                std::to_string(OINFER_CUSTOM_OPS_ABI_VERSION + 100) + ", this oinfer has version " +
                std::to_string(OINFER_CUSTOM_OPS_ABI_VERSION) + ": rebuild it against this oinfer's headers");
}

TEST(CustomOpPlugins, FailingRegistration) {
  EXPECT_EQ(errorOf([] { loadCustomOpLibrary(kPluginDir + "/liboinfer_test_failing.so"); }),
            "custom op library '" + kPluginDir +
                "/liboinfer_test_failing.so': registration failed: the plugin needs a licence file");
}

TEST(CustomOpPlugins, BuiltinClashFromALibraryNamesIt) {
  SessionOptions so;
  const std::string lib = kPluginDir + "/liboinfer_test_builtin_clash.so";
  so.customOpLibraries = {lib};
  EXPECT_EQ(errorOf([&] { Session s(addNGraph(), so); }),
            "custom op ai.onnx::Relu (from '" + lib +
                "') has the name of a built-in op; set CustomOp::overrideBuiltin to replace the built-in one");
}

TEST(CustomOpPlugins, CApiSessionOption) {
  oinfer_session_options* options = nullptr;
  ASSERT_EQ(oinfer_session_options_create(&options), OINFER_OK);
  EXPECT_EQ(oinfer_session_options_add_custom_op_library(options, "/nonexistent/libops.so"), OINFER_IO);
  EXPECT_STREQ(oinfer_last_error_message(),
               "oinfer_session_options_add_custom_op_library: custom op library '/nonexistent/libops.so': no such file");
  EXPECT_EQ(oinfer_session_options_add_custom_op_library(options, (kPluginDir + "/liboinfer_test_bad_abi.so").c_str()),
            OINFER_INVALID_ARGUMENT);
  EXPECT_EQ(oinfer_session_options_add_custom_op_library(options, nullptr), OINFER_INVALID_ARGUMENT);
  ASSERT_EQ(oinfer_session_options_add_custom_op_library(options, kExample.c_str()), OINFER_OK);
  oinfer_model* model = nullptr;
  ASSERT_EQ(oinfer_model_load((kModels + "/dynamic_resize.onnx").c_str(), &model), OINFER_OK);
  oinfer_session* session = nullptr;
  ASSERT_EQ(oinfer_session_create(model, options, &session), OINFER_OK) << oinfer_last_error_message();
  oinfer_session_free(session);
  // Without the library the model's custom ops are unsupported.
  EXPECT_EQ(oinfer_session_create(model, nullptr, &session), OINFER_UNSUPPORTED_OP);
  oinfer_model_free(model);
  oinfer_session_options_free(options);
}

}  // namespace
}  // namespace oinfer
