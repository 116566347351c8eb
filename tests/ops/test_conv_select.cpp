// The Conv family's choice point (conv_select.h): representative ResNet-50,
// MobileNetV2, SqueezeNet and EfficientNet-B0 layers map to the algorithm
// and ISA a plan runs them on, for an AVX-512 CPU and for the same CPU capped
// to AVX2 (the portable choices); and Session::plan() / the kernels report
// it (Kernel::algorithm).
#include <gtest/gtest.h>

#include <random>

#include "oinfer/oinfer.h"
#include "ops/cpu/conv_maxpool.h"
#include "ops/cpu/conv_select.h"
#include "ops/cpu/gemm_select.h"
#include "passes/pass_util.h"
#include "unit/graph_builders.h"
#include "ir_util.h"

namespace oinfer::testing {
namespace {

using conv::ConvAlgorithm;
using conv::ConvGeom;

cpu::CpuFeatures avx2Features() {
  cpu::CpuFeatures f;
  f.sse41 = f.avx = f.avx2 = f.fma = f.f16c = true;
  return f;
}

cpu::CpuFeatures avx512Features() {
  cpu::CpuFeatures f = avx2Features();
  f.avx512f = f.avx512bw = f.avx512dq = f.avx512vl = true;
  return f;
}

// A 2-d conv of C -> M channels, k x k, on an H x W input, batch 1.
ConvGeom geom(int64_t C, int64_t M, int64_t H, int64_t W, int64_t k, int64_t s = 1, int64_t pad = 0,
              int64_t group = 1) {
  ConvGeom g;
  g.N = 1;
  g.C = C;
  g.M = M;
  g.G = group;
  g.Cg = C / group;
  g.Mg = M / group;
  g.img = {1, H, W};
  g.grid = {1, (H + 2 * pad - k) / s + 1, (W + 2 * pad - k) / s + 1};
  g.k = {1, k, k};
  g.s = {1, s, s};
  g.padBegin = {0, pad, pad};
  g.K = k * k;
  g.imgSize = H * W;
  g.gridSize = g.grid[1] * g.grid[2];
  g.noPadding = pad == 0;
  return g;
}

ConvGeom dw(int64_t C, int64_t H, int64_t k, int64_t s) { return geom(C, C, H, H, k, s, k / 2, C); }

std::string planned(const ConvGeom& g, const cpu::CpuFeatures& f, GemmActivation act = GemmActivation::kNone,
                    bool residual = false, bool blocked = false) {
  conv::ConvQuery q;
  q.g = g;
  q.act = act;
  q.residual = residual;
  q.constWeights = true;
  q.inBlocked = q.outBlocked = blocked;
  return conv::chooseConv(q, f).name();
}

struct Case {
  const char* what;
  ConvGeom g;
  const char* avx512;  // the choice on an AVX-512 CPU
  const char* avx2;    // capped to AVX2
};

TEST(ConvSelect, ModelLayers) {
  const Case cases[] = {
      // ResNet-50
      {"resnet stem 7x7/2", geom(3, 64, 224, 224, 7, 2, 3), "pixel-vector avx512", "shifted-gemm avx2"},
      {"resnet 1x1 64->64 @56", geom(64, 64, 56, 56, 1), "gemm-1x1-inplace avx512", "gemm-1x1-inplace avx2"},
      {"resnet 1x1 64->256 @56", geom(64, 256, 56, 56, 1), "gemm-1x1 avx512", "gemm-1x1 avx2"},
      {"resnet 1x1 256->64 @56", geom(256, 64, 56, 56, 1), "channel-vector avx512", "gemm-1x1-inplace avx2"},
      {"resnet 3x3 64 @56", geom(64, 64, 56, 56, 3, 1, 1), "winograd-f4x4 avx512", "shifted-gemm avx2"},
      {"resnet 3x3 128 @28", geom(128, 128, 28, 28, 3, 1, 1), "winograd-f4x4 avx512", "winograd-f2x2 avx2"},
      {"resnet 3x3 256 @14", geom(256, 256, 14, 14, 3, 1, 1), "winograd-f2x2 avx512", "winograd-f2x2 avx2"},
      {"resnet 3x3 512 @7", geom(512, 512, 7, 7, 3, 1, 1), "channel-vector avx512", "shifted-gemm avx2"},
      {"resnet 3x3/2 128 @56", geom(128, 128, 56, 56, 3, 2, 1), "channel-vector avx512", "shifted-gemm avx2"},
      {"resnet downsample 1x1/2 256->512", geom(256, 512, 56, 56, 1, 2), "channel-vector avx512",
       "im2col-gemm avx2"},
      // MobileNetV2
      {"mobilenet stem 3x3/2", geom(3, 32, 224, 224, 3, 2, 1), "pixel-vector avx512", "shifted-gemm avx2"},
      {"mobilenet dw 3x3 144 @56", dw(144, 56, 3, 1), "depthwise-3x3-rows avx512", "depthwise-loop portable"},
      {"mobilenet dw 3x3/2 96 @112", dw(96, 112, 3, 2), "depthwise-planes avx512", "depthwise-loop portable"},
      {"mobilenet dw 3x3 576 @14", dw(576, 14, 3, 1), "depthwise-small-planes avx512", "depthwise-loop portable"},
      {"mobilenet dw 3x3 960 @7", dw(960, 7, 3, 1), "depthwise-small-planes avx512", "depthwise-loop portable"},
      {"mobilenet 1x1 320->1280 @7", geom(320, 1280, 7, 7, 1), "channel-vector avx512", "gemm-1x1 avx2"},
      {"mobilenet 1x1 24->144 @56", geom(24, 144, 56, 56, 1), "gemm-1x1 avx512", "gemm-1x1 avx2"},
      // SqueezeNet
      {"squeezenet squeeze 96->16 @55", geom(96, 16, 55, 55, 1), "gemm-1x1-inplace avx512",
       "gemm-1x1-inplace avx2"},
      {"squeezenet expand3x3 16->64 @55", geom(16, 64, 55, 55, 3, 1, 1), "winograd-f4x4 avx512",
       "shifted-gemm avx2"},
      {"squeezenet conv10 512->1000 @13", geom(512, 1000, 13, 13, 1), "channel-vector avx512", "gemm-1x1 avx2"},
      // EfficientNet-B0
      {"efficientnet SE 48->1152 @1", geom(48, 1152, 1, 1, 1), "channel-vector avx512", "gemm-1x1 avx2"},
      {"efficientnet dw 5x5 240 @28", dw(240, 28, 5, 1), "depthwise-planes avx512", "depthwise-loop portable"},
      {"efficientnet dw 5x5/2 144 @56", dw(144, 56, 5, 2), "depthwise-planes avx512", "depthwise-loop portable"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(planned(c.g, avx512Features()), c.avx512) << c.what;
    EXPECT_EQ(planned(c.g, avx2Features()), c.avx2) << c.what;
  }
}

TEST(ConvSelect, NoSimd) {
  const cpu::CpuFeatures none;  // OINFER_CPU_CAP=generic
  EXPECT_EQ(planned(geom(128, 128, 28, 28, 3, 1, 1), none), "winograd-f2x2 portable");
  EXPECT_EQ(planned(geom(64, 64, 56, 56, 1), none), "gemm-1x1-inplace portable");
  EXPECT_EQ(planned(geom(3, 64, 224, 224, 7, 2, 3), none), "shifted-gemm portable");
  EXPECT_EQ(planned(geom(64, 128, 28, 28, 3, 1, 1, 2), none), "shifted-gemm portable") << "grouped";
  EXPECT_EQ(planned(dw(144, 56, 3, 1), none), "depthwise-loop portable");
}

TEST(ConvSelect, AttributesAndLayout) {
  const cpu::CpuFeatures f = avx512Features();
  // Gelu has no in-tile form: a strided conv leaves the channel-vector kernel.
  EXPECT_EQ(planned(geom(128, 128, 56, 56, 3, 2, 1), f, GemmActivation::kGelu), "shifted-gemm avx512");
  // A residual keeps small planes off the 16-channel kernel (its epilogue is in registers).
  EXPECT_EQ(planned(dw(576, 14, 3, 1), f, GemmActivation::kNone, true), "depthwise-3x3-rows avx512");
  // Weights given at run time: only the GEMMs (no plan-time transform).
  conv::ConvQuery q;
  q.g = geom(64, 64, 56, 56, 3, 1, 1);
  EXPECT_EQ(conv::chooseConv(q, f).name(), "shifted-gemm avx512");
  // float64: the reference path.
  q.float32 = false;
  EXPECT_EQ(conv::chooseConv(q, f).name(), "reference-im2col portable");
  q.g = dw(32, 16, 3, 1);
  EXPECT_EQ(conv::chooseConv(q, f).name(), "reference-depthwise portable");
  // Blocked: Winograd keeps its layers; a 1x1 the GEMM would take runs on
  // the channel-vector kernel; depthwise on its blocked form; no AVX-512:
  // nothing takes the layout.
  EXPECT_EQ(planned(geom(64, 64, 56, 56, 3, 1, 1), f, GemmActivation::kRelu, false, true), "winograd-f4x4 avx512");
  EXPECT_EQ(planned(geom(64, 256, 56, 56, 1), f, GemmActivation::kRelu, false, true), "channel-vector avx512");
  EXPECT_EQ(planned(dw(144, 56, 3, 1), f, GemmActivation::kRelu, false, true), "depthwise-blocked avx512");
  EXPECT_EQ(conv::chooseConv([] {
              conv::ConvQuery b;
              b.g = geom(64, 256, 56, 56, 1);
              b.constWeights = b.inBlocked = b.outBlocked = true;
              return b;
            }(), avx2Features()).algo,
            ConvAlgorithm::kNone);
  const conv::ConvBlocked lay = conv::convBlockedLayouts(geom(64, 256, 56, 56, 1), GemmActivation::kRelu, f);
  EXPECT_TRUE(lay.in && lay.out && lay.planned);
  const conv::ConvBlocked stem = conv::convBlockedLayouts(geom(3, 64, 224, 224, 7, 2, 3), GemmActivation::kRelu, f);
  EXPECT_FALSE(stem.in || stem.out) << "the stems stay NCHW";
}

TEST(ConvSelect, FusedPairs) {
  const cpu::CpuFeatures f512 = avx512Features(), f2 = avx2Features();
  // MobileNetV2's 24 -> 144 expand and its 3x3 depthwise @56.
  const ConvGeom ga = geom(24, 144, 56, 56, 1), gb = dw(144, 56, 3, 1);
  EXPECT_EQ(conv::chooseExpandDepthwise(ga, gb, GemmActivation::kClip, GemmActivation::kClip, f512).name(),
            "expand-depthwise/depthwise-3x3-rows avx512");
  EXPECT_EQ(conv::chooseExpandDepthwise(ga, gb, GemmActivation::kClip, GemmActivation::kClip, f2).name(),
            "gemm-1x1 avx2 + depthwise-loop portable");
  EXPECT_EQ(conv::chooseExpandDepthwise(ga, gb, GemmActivation::kGelu, GemmActivation::kClip, f512).name(),
            "gemm-1x1 avx512 + depthwise-3x3-rows avx512");
  // The ResNet stem and its 3x3/2 max-pool (the pool kernel checks the CPU itself).
  const ConvGeom cg = geom(3, 64, 224, 224, 7, 2, 3);
  shape::WindowAttrs pa;
  pa.kernel = {3, 3};
  pa.strides = {2, 2};
  pa.dilations = {1, 1};
  pa.pads = {1, 1, 1, 1};
  const pool::PoolGeom pg = pool::poolGeom(Node{}, pa, {1, 64, 112, 112});
  EXPECT_EQ(conv::chooseConvMaxPool(cg, pg, GemmActivation::kRelu, true, f2).name(), "shifted-gemm avx2");
  EXPECT_TRUE(conv::chooseConvMaxPool(cg, pg, GemmActivation::kRelu, true, f2).fallback);
  EXPECT_EQ(conv::chooseConvMaxPool(cg, pg, GemmActivation::kRelu, false, f512).name(), "shifted-gemm avx512")
      << "weights given at run time";
  if (!cpu::cpuFeatures().avx512()) GTEST_SKIP() << "the fused kernel's pool needs AVX-512 on this CPU";
  EXPECT_EQ(conv::chooseConvMaxPool(cg, pg, GemmActivation::kRelu, true, f512).name(), "conv-maxpool avx512");
}

TEST(ConvSelect, GemmFamily) {
  EXPECT_EQ(cpu::chooseGemm(true, true, avx512Features()).name(), "gemm-packed-b avx512");
  EXPECT_EQ(cpu::chooseGemm(true, false, avx2Features()).name(), "gemm avx2");
  EXPECT_EQ(cpu::chooseGemm(true, true, cpu::CpuFeatures{}).name(), "gemm-packed-b portable");
  EXPECT_EQ(cpu::chooseGemm(false, true, avx512Features()).name(), "reference portable");
}

TEST(PoolSelect, MaxPoolKernels) {
  auto pg = [](int64_t k, int64_t s, int64_t pad, int64_t dil = 1) {
    shape::WindowAttrs a;
    a.kernel = {k, k};
    a.strides = {s, s};
    a.dilations = {dil, dil};
    a.pads = {pad, pad, pad, pad};
    return pool::poolGeom(Node{}, a, {1, 64, 112, 112});
  };
  const cpu::CpuFeatures f512 = avx512Features(), f2 = avx2Features();
  EXPECT_EQ(pool::choosePool(pg(3, 2, 1), true, true, false, false, f512).name(), "maxpool-s2-planes avx512");
  EXPECT_EQ(pool::choosePool(pg(3, 2, 1), true, true, false, false, f2).name(), "maxpool-rows portable");
  EXPECT_EQ(pool::choosePool(pg(3, 1, 1), true, true, false, false, f512).name(), "maxpool-rows avx512");
  EXPECT_EQ(pool::choosePool(pg(3, 2, 1), true, true, true, false, f512).name(), "maxpool-windows portable")
      << "an Indices output";
  EXPECT_EQ(pool::choosePool(pg(3, 1, 2, 2), true, true, false, false, f512).name(), "maxpool-windows portable")
      << "dilation";
  EXPECT_EQ(pool::choosePool(pg(3, 2, 1), true, false, false, false, f512).name(), "maxpool-windows portable")
      << "float64";
  EXPECT_EQ(pool::choosePool(pg(3, 2, 1), true, true, false, true, f512).name(), "maxpool-blocked avx512");
  EXPECT_EQ(pool::choosePool(pg(3, 2, 1), false, true, false, false, f512).name(), "sum-windows portable");
}

// Session::plan() reports each step's algorithm: a Conv's and a MatMul's.
TEST(ConvSelect, PlanReportsAlgorithms) {
  std::mt19937 rng(3);
  auto rnd = [&](std::vector<int64_t> shape) {
    Tensor t(DataType::kFloat, shape);
    std::normal_distribution<float> nd;
    for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = nd(rng) * 0.1f;
    return t;
  };
  ir::Graph g;
  g.opsetImports[""] = 13;
  g.inputs.push_back(ValueInfo{"x", ValueKind::kTensor, DataType::kFloat, true, {1, 16, 28, 28}});
  g.initializers["w"] = rnd({64, 16, 3, 3});
  g.initializers["m"] = rnd({28, 32});
  Node c = test::mk("Conv", "conv", {"x", "w"}, {"c"});
  c.attributes.push_back(passes::util::intsAttr("pads", {1, 1, 1, 1}));
  g.nodes.push_back(c);
  g.nodes.push_back(test::mk("MatMul", "mm", {"c", "m"}, {"y"}));
  g.outputs.push_back(ValueInfo{"y", ValueKind::kTensor, DataType::kFloat, false, {}});
  SessionOptions o;
  o.threads = 1;
  Session s(wrap(std::move(g)), o);
  const PlanInfo plan = s.plan({{"x", {1, 16, 28, 28}}});
  bool sawConv = false, sawMatMul = false;
  for (const PlanStep& st : plan.steps) {
    if (st.opType == "Conv" || st.opType == "FusedConv") {
      sawConv = true;
      EXPECT_FALSE(st.algorithm.empty()) << st.nodeName;
      EXPECT_NE(st.algorithm.find(' '), std::string::npos) << st.algorithm << ": algorithm and ISA";
    }
    if (st.opType == "MatMul" || st.opType == "FusedMatMul") {
      sawMatMul = true;
      EXPECT_EQ(st.algorithm.rfind("gemm-packed-b ", 0), 0u) << st.algorithm;
    }
  }
  EXPECT_TRUE(sawConv);
  EXPECT_TRUE(sawMatMul);
}

}  // namespace
}  // namespace oinfer::testing
