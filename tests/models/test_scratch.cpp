// Planned scratch (ops/kernel.h, ops/cpu/workspace.h): the Conv and GEMM
// kernels request their workspace when they are made, the Session reports
// it, sessions sharing a pool keep theirs apart, and kernels run outside a
// Session (OpTester, constant folding) get theirs too.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "model_test_util.h"
#include "op_tester.h"
#include "ops/cpu/conv_fast.h"
#include "ops/cpu/conv_select.h"
#include "ops/cpu/gemm/sgemm.h"
#include "ops/kernel.h"
#include "passes/pass_util.h"

namespace oinfer::modeltest {
namespace {

using passes::util::intsAttr;
using testing::OpTester;

// A 2-d Conv, stride 1, symmetric padding `pad`, one group, in doubles.
Tensor naiveConv(const Tensor& x, const Tensor& w, int64_t pad) {
  const int64_t C = x.dim(1), H = x.dim(2), W = x.dim(3), M = w.dim(0), KH = w.dim(2), KW = w.dim(3);
  const int64_t OH = H + 2 * pad - KH + 1, OW = W + 2 * pad - KW + 1;
  Tensor y(DataType::kFloat, {1, M, OH, OW});
  const float* xp = x.data<float>();
  const float* wp = w.data<float>();
  for (int64_t m = 0; m < M; ++m)
    for (int64_t oh = 0; oh < OH; ++oh)
      for (int64_t ow = 0; ow < OW; ++ow) {
        double s = 0;
        for (int64_t c = 0; c < C; ++c)
          for (int64_t kh = 0; kh < KH; ++kh)
            for (int64_t kw = 0; kw < KW; ++kw) {
              const int64_t ih = oh + kh - pad, iw = ow + kw - pad;
              if (ih < 0 || ih >= H || iw < 0 || iw >= W) continue;
              s += double(xp[(c * H + ih) * W + iw]) * wp[((m * C + c) * KH + kh) * KW + kw];
            }
        y.data<float>()[(m * OH + oh) * OW + ow] = float(s);
      }
  return y;
}

Tensor naiveMatMul(const Tensor& a, const Tensor& b) {
  const int64_t M = a.dim(0), K = a.dim(1), N = b.dim(1);
  Tensor y(DataType::kFloat, {M, N});
  for (int64_t m = 0; m < M; ++m)
    for (int64_t n = 0; n < N; ++n) {
      double s = 0;
      for (int64_t k = 0; k < K; ++k) s += double(a.data<float>()[m * K + k]) * b.data<float>()[k * N + n];
      y.data<float>()[m * N + n] = float(s);
    }
  return y;
}

// The bytes the runtime lays out for one workspace on `threads` threads
// (layoutScratch: each part rounded up to 64 bytes).
size_t laidOut(const ScratchNeed& need, int threads) {
  auto up = [](size_t n) { return (n + 63) / 64 * 64; };
  return up(need.shared) + up(need.perThread) * size_t(threads);
}

// x [1, 64, 56, 56] -> 3x3 Conv 64->64, pads 1 -> y: ResNet's layer-1 conv.
ir::Graph convGraph() {
  ir::Graph g;
  g.opsetImports[""] = 13;
  g.inputs.push_back(ValueInfo{"x", ValueKind::kTensor, DataType::kFloat, true, {1, 64, 56, 56}});
  g.initializers["W"] = patterned({64, 64, 3, 3}, 0.02f);
  Node c = opNode("Conv", {"x", "W"}, {"y"});
  c.attributes = {intsAttr("pads", {1, 1, 1, 1})};
  g.nodes.push_back(c);
  g.outputs.push_back(ValueInfo{"y", ValueKind::kTensor, DataType::kFloat, false, {}});
  return g;
}

// a [128, 768] x constant B [768, 768]: a BERT-base projection.
ir::Graph matmulGraph() {
  ir::Graph g;
  g.opsetImports[""] = 13;
  g.inputs.push_back(ValueInfo{"a", ValueKind::kTensor, DataType::kFloat, true, {128, 768}});
  g.initializers["B"] = patterned({768, 768}, 0.01f);
  g.nodes.push_back(opNode("MatMul", {"a", "B"}, {"y"}));
  g.outputs.push_back(ValueInfo{"y", ValueKind::kTensor, DataType::kFloat, false, {}});
  return g;
}

// The Conv's scratch is what one of the algorithms a plan may choose for
// it asks for (which one depends on the CPU), laid out for the pool; a
// graph of one Relu has none; the result is right.
TEST(PlannedScratch, ConvSessionReportsItsWorkspace) {
  const int threads = 2;
  SessionOptions opts;
  opts.threads = threads;
  opts.blockedLayout = false;
  Session session(wrap(convGraph()), opts);
  const Tensor x = patterned({1, 64, 56, 56}, 0.1f);
  const std::vector<Tensor> y = session.run({{"x", x}});
  const size_t scratch = session.memoryStats().scratchBytes;

  conv::ConvGeom g;
  g.N = 1;
  g.C = g.M = g.Cg = g.Mg = 64;
  g.G = 1;
  g.K = 9;
  g.img = {1, 56, 56};
  g.grid = {1, 56, 56};
  g.k = {1, 3, 3};
  g.padBegin = {0, 1, 1};
  g.imgSize = g.gridSize = 56 * 56;
  g.noPadding = false;
  // The workspace of exactly the algorithm the plan chose for it.
  conv::ConvQuery q;
  q.g = g;
  q.constWeights = true;
  const conv::ConvChoice c = conv::chooseConv(q);
  ScratchNeed need;
  switch (c.algo) {
    case conv::ConvAlgorithm::kWinogradF2: need = conv::winogradScratch(g, 2); break;
    case conv::ConvAlgorithm::kWinogradF4: need = conv::winogradScratch(g, 4); break;
    case conv::ConvAlgorithm::kChannelVec: need = conv::cvecScratch(g, false, threads); break;
    case conv::ConvAlgorithm::kPixelVec: need = conv::pixvecScratch(g); break;
    default: need = conv::convFloatScratch(g, c.algo, threads);
  }
  EXPECT_GT(scratch, 0u);
  EXPECT_EQ(scratch, laidOut(need, threads)) << "scratchBytes is not " << c.name() << "'s workspace";
  EXPECT_TRUE(allClose(y[0], naiveConv(x, patterned({64, 64, 3, 3}, 0.02f), 1), "conv"));

  ir::Graph relu;
  relu.opsetImports[""] = 13;
  relu.inputs.push_back(ValueInfo{"x", ValueKind::kTensor, DataType::kFloat, true, {1, 64, 56, 56}});
  relu.nodes.push_back(opNode("Relu", {"x"}, {"y"}));
  relu.outputs.push_back(ValueInfo{"y", ValueKind::kTensor, DataType::kFloat, false, {}});
  Session plain(wrap(relu), opts);
  plain.run({{"x", x}});
  EXPECT_EQ(plain.memoryStats().scratchBytes, 0u) << "a Relu asks for no scratch";
}

// The MatMul's scratch is its GEMM workspace (the packing of A), reported
// by Session::plan before any run as well: FusedMatMul's (B packed) after
// the passes, plain MatMul's (whichever way it runs the GEMM) without them.
TEST(PlannedScratch, MatMulSessionReportsItsGemmWorkspace) {
  for (int level : {0, 2})
    for (int threads : {1, 2}) {
    SCOPED_TRACE(std::to_string(threads) + " thread(s), optimizationLevel " + std::to_string(level));
    SessionOptions opts;
    opts.threads = threads;
    opts.optimizationLevel = level;
    Session session(wrap(matmulGraph()), opts);
    const PlanInfo plan = session.plan({{"a", {128, 768}}});
    ASSERT_EQ(irOf(session.graph()).nodes.size(), 1u);
    const bool fused = irOf(session.graph()).nodes[0].opType == "FusedMatMul";
    EXPECT_EQ(fused, level == 2);
    ScratchNeed need = gemmScratch(128, 768, 768, false, true, threads);
    const size_t packA = laidOut(need, threads);
    if (!fused) {
      need.cover(gemmScratch(128, 768, 768, false, false, 1));
      need.cover(gemmScratch(128, 768, 768, false, false, threads));
    }
    EXPECT_GE(packA, size_t(128 * 256 * sizeof(float))) << "op(A)'s K block of 128 rows at least";
    EXPECT_GE(plan.memory.scratchBytes, packA);
    EXPECT_EQ(plan.memory.scratchBytes, laidOut(need, threads));
    const Tensor a = patterned({128, 768}, 0.1f);
    const std::vector<Tensor> y = session.run({{"a", a}});
    EXPECT_EQ(session.memoryStats().scratchBytes, plan.memory.scratchBytes);
    EXPECT_TRUE(allClose(y[0], naiveMatMul(a, patterned({768, 768}, 0.01f)), "matmul"));
  }
}

// Three sessions on one host pool, two of them the same model (so the same
// kernels with their own workspaces), run at once, repeatedly: every result
// stays right.
TEST(PlannedScratch, SessionsSharingAPoolRunConcurrently) {
  auto pool = std::make_shared<ThreadPool>(2);
  SessionOptions opts;
  opts.threadPool = pool;
  Session r1(Graph::loadFromONNX(modelPath("resnet_bn")), opts);
  Session r2(Graph::loadFromONNX(modelPath("resnet_bn")), opts);
  Session t(Graph::loadFromONNX(modelPath("transformer_encoder")), opts);
  const auto sr = loadNumberedDataSets("resnet_bn");
  const auto st = loadNumberedDataSets("transformer_encoder");
  ASSERT_FALSE(sr.empty());
  ASSERT_FALSE(st.empty());
  auto loop = [](Session& s, const DataSet& ds, const char* what) {
    for (int i = 0; i < 4; ++i) runAndCompare(s, ds, std::string(what) + " run " + std::to_string(i));
  };
  std::thread a([&] { loop(r1, sr[0], "resnet_bn (1)"); });
  std::thread b([&] { loop(r2, sr.back(), "resnet_bn (2)"); });
  loop(t, st[0], "transformer_encoder");
  a.join();
  b.join();
  EXPECT_GT(r1.memoryStats().scratchBytes, 0u);
  EXPECT_GT(t.memoryStats().scratchBytes, 0u);
}

// A kernel made outside a Session asks for its workspace all the same, and
// OpTester runs it on an OwnedScratch (static shapes) and with none
// (symbolic shapes: the algorithm allocates for the call).
TEST(PlannedScratch, OpTesterRunsKernelsWithTheirScratch) {
  const Tensor x = patterned({1, 8, 10, 10}, 0.1f), w = patterned({16, 8, 3, 3}, 0.05f);
  OpTester("Conv", 13).attr("pads", std::vector<int64_t>{1, 1, 1, 1}).input("x", x).constantInput("w", w)
      .expect("y", naiveConv(x, w, 1), 1e-4, 1e-5).run();
  const Tensor a = patterned({64, 96}, 0.1f), b = patterned({96, 80}, 0.05f);
  OpTester("MatMul", 13).input("a", a).constantInput("b", b).expect("y", naiveMatMul(a, b), 1e-4, 1e-5).run();

  // The MatMul's factory requested its GEMM workspace; OwnedScratch holds it.
  Node n = opNode("MatMul", {"a", "b"}, {"y"});
  const ValueInfo ai{"a", ValueKind::kTensor, DataType::kFloat, true, {64, 96}};
  const ValueInfo bi{"b", ValueKind::kTensor, DataType::kFloat, true, {96, 80}};
  const ValueInfo yi{"y", ValueKind::kTensor, DataType::kFloat, true, {64, 80}};
  ThreadPool pool(2);
  KernelInit init{n, 13, {&ai, &bi}, {nullptr, &b}, {&yi}};
  init.pool = &pool;
  const auto kernel = builtinRegistry().find("", "MatMul", 13)->cpu(init);
  size_t requested = 0;
  for (const ScratchRequest& r : init.scratch) requested += r.bytes;
  EXPECT_GT(requested, 0u);
  KernelContext ctx;
  ctx.node_ = &n;
  ctx.pool_ = &pool;
  ctx.inputs_ = {&a, &b};
  Tensor y(DataType::kFloat, {64, 80});
  ctx.outputs_ = {&y};
  ctx.outputTypes_ = {DataType::kFloat};
  OwnedScratch scratch(init, ctx);
  EXPECT_GE(scratch.bytes(), requested);
  kernel->run(ctx);
  EXPECT_TRUE(allClose(y, naiveMatMul(a, b), "MatMul on an OwnedScratch"));
}

// Constant folding runs a Conv and a MatMul whose inputs are all constant
// (evaluate.cpp, on an OwnedScratch): the plan keeps neither, and the
// folded values are right.
TEST(PlannedScratch, ConstantFoldingRunsKernelsWithScratch) {
  const Tensor cx = patterned({1, 8, 12, 12}, 0.1f), cw = patterned({16, 8, 3, 3}, 0.05f);
  const Tensor ca = patterned({48, 64}, 0.1f), cb = patterned({64, 40}, 0.05f);
  ir::Graph g;
  g.opsetImports[""] = 13;
  g.inputs.push_back(ValueInfo{"x", ValueKind::kTensor, DataType::kFloat, true, {1, 16, 10, 10}});
  g.inputs.push_back(ValueInfo{"a", ValueKind::kTensor, DataType::kFloat, true, {48, 40}});
  g.initializers["cx"] = cx;
  g.initializers["cw"] = cw;
  g.initializers["ca"] = ca;
  g.initializers["cb"] = cb;
  g.nodes.push_back(opNode("Conv", {"cx", "cw"}, {"c"}));
  g.nodes.push_back(opNode("Add", {"x", "c"}, {"y"}));
  g.nodes.push_back(opNode("MatMul", {"ca", "cb"}, {"m"}));
  g.nodes.push_back(opNode("Add", {"a", "m"}, {"z"}));
  g.outputs.push_back(ValueInfo{"y", ValueKind::kTensor, DataType::kFloat, false, {}});
  g.outputs.push_back(ValueInfo{"z", ValueKind::kTensor, DataType::kFloat, false, {}});
  Session session(wrap(g));
  for (const Node& n : irOf(session.graph()).nodes)
    EXPECT_TRUE(n.opType != "Conv" && n.opType != "MatMul") << n.opType << " was not folded";
  Tensor x(DataType::kFloat, {1, 16, 10, 10}), a(DataType::kFloat, {48, 40});
  for (int64_t i = 0; i < x.numel(); ++i) x.data<float>()[i] = 0.f;
  for (int64_t i = 0; i < a.numel(); ++i) a.data<float>()[i] = 0.f;
  const std::vector<Tensor> out = session.run({{"x", x}, {"a", a}});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_TRUE(allClose(out[0], naiveConv(cx, cw, 0), "folded conv"));
  EXPECT_TRUE(allClose(out[1], naiveMatMul(ca, cb), "folded matmul"));
}

}  // namespace
}  // namespace oinfer::modeltest
