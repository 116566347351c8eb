// Each float32 Conv strategy (pointwise GEMM, im2col into packed GEMM,
// direct depthwise) and the FusedConv epilogue (residual, activations)
// against a direct double-precision loop written from the definition
// (not the kernels): y[n,m,oh,ow] = b[m] + sum_{c,kh,kw} x[n, g*Cg+c,
// oh*s - pad + kh*d, ow*s - pad + kw*d] * w[m,c,kh,kw].
// Shapes are chosen to hit every strategy, group > 1, batch > 1, tile
// edges of the micro-kernels and K-blocking (Cg*K > 256).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "op_tester.h"
#include "ops/cpu/conv_fast.h"

namespace oinfer::testing {
namespace {

Tensor rnd(std::vector<int64_t> shape, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-1.f, 1.f);
  Tensor t(DataType::kFloat, std::move(shape));
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = d(rng);
  return t;
}

struct P2 {
  int64_t group = 1, stride = 1, pad = 0, dil = 1;
  std::vector<int64_t> pads = {};  // [top, left, bottom, right]; empty: `pad` on every side
  std::vector<int64_t> all() const { return pads.empty() ? std::vector<int64_t>{pad, pad, pad, pad} : pads; }
};

Tensor direct(const Tensor& x, const Tensor& w, const Tensor* b, const P2& p) {
  const int64_t N = x.dim(0), C = x.dim(1), H = x.dim(2), W = x.dim(3);
  const int64_t M = w.dim(0), Cg = w.dim(1), KH = w.dim(2), KW = w.dim(3), Mg = M / p.group;
  const std::vector<int64_t> pd = p.all();
  const int64_t OH = (H + pd[0] + pd[2] - p.dil * (KH - 1) - 1) / p.stride + 1;
  const int64_t OW = (W + pd[1] + pd[3] - p.dil * (KW - 1) - 1) / p.stride + 1;
  Tensor y(DataType::kFloat, {N, M, OH, OW});
  const float* xp = x.data<float>();
  const float* wp = w.data<float>();
  for (int64_t n = 0; n < N; ++n)
    for (int64_t m = 0; m < M; ++m)
      for (int64_t oh = 0; oh < OH; ++oh)
        for (int64_t ow = 0; ow < OW; ++ow) {
          double s = b ? b->data<float>()[m] : 0.0;
          const int64_t g = m / Mg;
          for (int64_t c = 0; c < Cg; ++c)
            for (int64_t kh = 0; kh < KH; ++kh)
              for (int64_t kw = 0; kw < KW; ++kw) {
                const int64_t ih = oh * p.stride - pd[0] + kh * p.dil, iw = ow * p.stride - pd[1] + kw * p.dil;
                if (ih < 0 || ih >= H || iw < 0 || iw >= W) continue;
                s += double(xp[((n * C + g * Cg + c) * H + ih) * W + iw]) * wp[((m * Cg + c) * KH + kh) * KW + kw];
              }
          y.data<float>()[((n * M + m) * OH + oh) * OW + ow] = float(s);
        }
  return y;
}

float maxAbs(const Tensor& t) {
  float m = 0.f;
  for (int64_t i = 0; i < t.numel(); ++i) m = std::max(m, std::fabs(t.data<float>()[i]));
  return m;
}

// Winograd F(4x4, 3x3)'s rounding error scales with the magnitude of the
// terms it sums (B^T's 4s and 5s, A^T's 8s, G's 1/6 and 1/24), not with each
// output: its bound is a fraction of the output's range (numpy float32
// simulation, 256 channels: 1.7e-5 of it; the cases here, up to 64
// channels, stay under 1e-5), where F(2x2) and direct convolution meet 1e-4
// element-wise.
constexpr float kF4RangeTol = 2e-5f;

// rangeTol > 0: atol = max(1e-4, rangeTol * max |y|).
void runCase(std::vector<int64_t> xs, std::vector<int64_t> ws, P2 p, bool bias, bool constW = true,
             float rangeTol = 0.f) {
  Tensor x = rnd(xs, 1), w = rnd(ws, 2), b = rnd({ws[0]}, 3);
  OpTester t("Conv", 22);
  t.input("X", x);
  t.input("W", w, constW);
  if (bias) t.constantInput("B", b);
  t.attr("group", p.group);
  t.attr("strides", std::vector<int64_t>{p.stride, p.stride});
  const std::vector<int64_t> pd = p.all();
  t.attr("pads", std::vector<int64_t>{pd[0], pd[1], pd[2], pd[3]});
  t.attr("dilations", std::vector<int64_t>{p.dil, p.dil});
  const Tensor ref = direct(x, w, bias ? &b : nullptr, p);
  t.expect("Y", ref, 1e-4, std::max(1e-4f, rangeTol * maxAbs(ref)));
  t.run();
}

TEST(ConvStrategy, PointwiseGemm) {
  runCase({1, 64, 14, 14}, {256, 64, 1, 1}, {}, true);
  runCase({2, 13, 7, 9}, {37, 13, 1, 1}, {}, false);
  runCase({1, 300, 5, 5}, {20, 300, 1, 1}, {}, true);  // K-blocked
}

// Up to 64 output channels per group the micro-kernel reads the input's
// channel planes in place (no packing); the last, partial panel is copied.
// Column counts that do and do not fill the last panel, K blocks, groups,
// batch 2, M off the tile size, and FusedConv's residual and activations
// (in the FusedConv test below).
TEST(ConvStrategy, PointwiseInPlace) {
  runCase({1, 128, 11, 11}, {16, 128, 1, 1}, {}, true);   // 121 columns: a 25-wide last panel
  runCase({2, 24, 8, 8}, {40, 24, 1, 1}, {}, false);      // 64 columns: no partial panel
  runCase({1, 300, 9, 7}, {64, 300, 1, 1}, {}, true);     // two K blocks
  runCase({1, 32, 10, 10}, {30, 16, 1, 1}, {2, 1, 0, 1}, true);  // groups
}

TEST(ConvStrategy, Im2colPackedGemm) {
  runCase({1, 16, 15, 15}, {24, 16, 3, 3}, {1, 1, 1, 1}, true);    // Cg*K = 144
  runCase({1, 32, 16, 16}, {40, 32, 3, 3}, {1, 2, 1, 1}, true);    // stride 2, Cg*K = 288 > kc
  runCase({1, 3, 32, 32}, {16, 3, 7, 7}, {1, 2, 3, 1}, false);     // ResNet stem shape
  runCase({2, 8, 9, 11}, {6, 8, 3, 3}, {1, 1, 2, 2}, true);        // dilation, batch 2
  runCase({1, 8, 10, 10}, {12, 8, 1, 1}, {1, 2, 0, 1}, true);      // 1x1 stride 2 (not pointwise)
  runCase({1, 16, 12, 12}, {24, 16, 3, 3}, {1, 1, 1, 1}, true, false);  // weights not constant
}

conv::ConvGeom geom3x3(int64_t C, int64_t M, int64_t H, int64_t W, int64_t pad) {
  conv::ConvGeom g;
  g.N = 1;
  g.C = g.Cg = C;
  g.M = g.Mg = M;
  g.img = {1, H, W};
  g.grid = {1, H + 2 * pad - 2, W + 2 * pad - 2};
  g.k = {1, 3, 3};
  g.padBegin = {0, pad, pad};
  g.K = 9;
  g.imgSize = H * W;
  g.gridSize = g.grid[1] * g.grid[2];
  g.noPadding = pad == 0;
  return g;
}

// Winograd F(2x2, 3x3) for constant-weight 3x3 stride-1 convs: border tiles
// (pad 1), odd output sizes (a half-empty last tile row and column), no
// padding, batch 2, channel counts off the GEMM's tile sizes, and more tiles
// than one chunk (the 16 * tiles * (C + M) working set is split). Planes
// with under 16 tiles of 4x4, so F(2x2) on every ISA.
TEST(ConvStrategy, Winograd3x3) {
  // The shapes below do take the Winograd path; others do not.
  for (const conv::ConvGeom& g : {geom3x3(128, 64, 12, 12, 1), geom3x3(130, 70, 11, 13, 1),
                                  geom3x3(128, 64, 14, 15, 0), geom3x3(128, 2048, 12, 12, 1)}) {
    EXPECT_TRUE(conv::choose::winogradSuits(g));
    EXPECT_EQ(conv::choose::winogradOutputTile(g), 2);
  }
  EXPECT_FALSE(conv::choose::winogradSuits(geom3x3(128, 64, 7, 7, 1))) << "16 tiles: too few";
  EXPECT_FALSE(conv::choose::winogradSuits(geom3x3(64, 64, 12, 12, 1))) << "64 input channels: the shifted GEMM";
  runCase({1, 128, 12, 12}, {64, 128, 3, 3}, {1, 1, 1, 1}, true);
  runCase({2, 130, 11, 13}, {70, 130, 3, 3}, {1, 1, 1, 1}, false);
  runCase({1, 128, 14, 15}, {64, 128, 3, 3}, {1, 1, 0, 1}, true);
  runCase({1, 128, 12, 12}, {2048, 128, 3, 3}, {1, 1, 1, 1}, true);  // 36 tiles in chunks of 24
  // The same shape with weights given at run time takes the shifted GEMM.
  runCase({1, 128, 12, 12}, {64, 128, 3, 3}, {1, 1, 1, 1}, true, false);
}

// Winograd F(4x4, 3x3) on AVX-512 (V and O blocked by 16 channels, the
// GEMMs on the channel-vector kernel): 16 tiles or more, 16+ input
// channels, transformed weights under 4 MiB or 49+ tiles. Border tiles,
// output sizes off the 4x4 grid, channel counts off 16 (zero-padded in V,
// masked in O), batch 2, no and asymmetric padding, and more tiles than one
// chunk. Elsewhere (AVX2, generic) the same convs run F(2x2) or the GEMMs,
// against the same reference.
TEST(ConvStrategy, Winograd4x4) {
  const bool vec = std::string(sgemmIsa()) == "avx512";
  EXPECT_EQ(conv::choose::winogradOutputTile(geom3x3(64, 64, 56, 56, 1)), vec ? 4 : 2) << "ResNet-50's layer 1";
  EXPECT_EQ(conv::choose::winogradOutputTile(geom3x3(128, 128, 28, 28, 1)), vec ? 4 : 2) << "layer 2";
  EXPECT_EQ(conv::choose::winogradOutputTile(geom3x3(256, 256, 14, 14, 1)), 2) << "layer 3: 9 MiB of weights, 16 tiles";
  EXPECT_EQ(conv::choose::winogradOutputTile(geom3x3(64, 256, 13, 13, 1)), vec ? 4 : 2) << "SqueezeNet's expand3x3";
  EXPECT_EQ(conv::choose::winogradSuits(geom3x3(16, 64, 55, 55, 1)), vec) << "16 input channels: F(4x4) only";
  EXPECT_FALSE(conv::choose::winogradSuits(geom3x3(512, 512, 7, 7, 1))) << "4 tiles";
  EXPECT_FALSE(conv::choose::winogradSuits(geom3x3(8, 64, 56, 56, 1))) << "8 input channels";
  // Planes past the AVX-512 transforms' int32 offsets (2^31 / 16 pixels):
  // refused there (its weights would be packed for a path that cannot run),
  // F(2x2) on the portable path.
  EXPECT_EQ(conv::choose::winogradSuits(geom3x3(128, 64, 12000, 12000, 1)), !vec);
  // Called directly anyway (no plan does): refused before touching memory;
  // and weights packed for neither tile size.
  ThreadPool pool(1);
  auto expectError = [&](const conv::ConvGeom& g, size_t positions, const std::string& want) {
    try {
      conv::convWinograd(pool, g, nullptr, std::vector<PackedB>(positions), nullptr, nullptr, nullptr,
                         conv::Activation{});
      FAIL() << "expected an error";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << e.what();
    }
  };
  if (vec) expectError(geom3x3(128, 64, 12000, 12000, 1), 16, "planes too large for the AVX-512 path's int32 offsets");
  expectError(geom3x3(128, 64, 12, 12, 1), 3, "weights packed for neither F(2x2, 3x3) nor F(4x4, 3x3)");
  runCase({1, 64, 28, 28}, {64, 64, 3, 3}, {1, 1, 1, 1}, true, true, kF4RangeTol);
  runCase({2, 20, 27, 29}, {70, 20, 3, 3}, {1, 1, 1, 1}, false, true, kF4RangeTol);  // odd everything
  runCase({1, 32, 30, 33}, {64, 32, 3, 3}, {1, 1, 0, 1}, true, true, kF4RangeTol);   // no padding: 28x31
  P2 asym;
  asym.pads = {1, 0, 2, 1};
  runCase({1, 32, 26, 26}, {64, 32, 3, 3}, asym, true, true, kF4RangeTol);          // 27x25
  runCase({1, 16, 80, 80}, {64, 16, 3, 3}, {1, 1, 1, 1}, true, true, kF4RangeTol);  // 400 tiles: two chunks
}

// Not 1x1: the shifted-input GEMM (B read from a zero-padded copy of the
// input), on the output grid (narrow rows) or with row-aligned panels
// written straight into Y (rows of 27 and up). Asymmetric and zero padding, dilation, K blocks
// (Cg*K > 256), several row chunks (Mg * padded width large), groups, M off
// the micro-kernel's tile, rectangular kernels, strides 2 and 3 (polyphase
// sub-planes); also on the AVX2 / generic
// micro-kernels when the suite runs under OINFER_GEMM_ISA.
TEST(ConvStrategy, ShiftedInputGemm) {
  P2 asym;
  asym.pads = {0, 2, 1, 0};
  runCase({1, 5, 11, 13}, {7, 5, 3, 3}, asym, true);
  P2 wide;
  wide.pads = {3, 1, 0, 2};
  wide.dil = 2;
  runCase({2, 3, 12, 9}, {5, 3, 2, 4}, wide, false);                 // 2x4 kernel, dilation 2
  runCase({1, 40, 10, 10}, {13, 40, 3, 3}, {1, 1, 1, 1}, true);    // Cg*K = 360: two K blocks
  runCase({1, 40, 30, 30}, {13, 40, 3, 3}, {1, 1, 1, 1}, true);    // the same, rows wide enough to align panels
  runCase({1, 4, 80, 80}, {256, 4, 3, 3}, {1, 1, 1, 1}, true);     // rows in chunks of 24
  runCase({1, 8, 33, 40}, {3, 8, 9, 9}, {1, 1, 4, 1}, true);       // SRCNN-like 9x9, 3 outputs
  runCase({1, 16, 12, 12}, {24, 8, 5, 5}, {2, 1, 0, 1}, true);     // groups, no padding
  // Strides 2 and 3 (polyphase sub-planes), with dilation and odd sizes.
  runCase({1, 3, 33, 31}, {16, 3, 7, 7}, {1, 2, 3, 1}, true);      // a ResNet stem
  runCase({2, 6, 17, 20}, {9, 6, 3, 3}, {1, 3, 1, 1}, false);
  runCase({1, 5, 19, 18}, {7, 5, 3, 3}, {1, 2, 2, 2}, true);       // dilation 2: one phase of four
  P2 s2asym;
  s2asym.stride = 2;
  s2asym.pads = {1, 0, 2, 3};
  runCase({1, 4, 13, 15}, {5, 4, 4, 2}, s2asym, true);
}

// Mg <= 4 (SRCNN's 3-channel reconstruction layer and the like) on the
// shifted GEMM's short edge tiles.
TEST(ConvStrategy, FewOutputChannels) {
  runCase({1, 8, 20, 37}, {3, 8, 5, 5}, {1, 1, 2, 1}, true);
  runCase({1, 8, 21, 40}, {2, 8, 3, 3}, {1, 2, 1, 1}, false);  // stride 2
  runCase({2, 8, 9, 9}, {4, 4, 3, 3}, {2, 1, 0, 1}, true);     // groups, batch 2, no padding
  runCase({1, 4, 6, 6}, {3, 4, 3, 3}, {1, 1, 1, 2}, true);     // dilation
}

TEST(ConvStrategy, GroupedGemm) {
  runCase({1, 16, 9, 9}, {32, 4, 3, 3}, {4, 1, 1, 1}, true);
  runCase({1, 24, 8, 8}, {24, 12, 1, 1}, {2, 1, 0, 1}, false);
}

// Small planes (rows <= 16) with channels in multiples of 16: the kernel
// that takes 16 channels at a time through register transposes. Strides 1
// and 2, 3x3 and 5x5, dilation, asymmetric padding and none, batch 2, a 1-wide
// plane, and the fallbacks (channels not a multiple of 16, too large a
// padded block, a channel multiplier) on the same shapes.
TEST(ConvStrategy, DepthwiseChannelBlocks) {
  runCase({1, 32, 7, 7}, {32, 1, 3, 3}, {32, 1, 1, 1}, true);
  runCase({2, 48, 14, 14}, {48, 1, 3, 3}, {48, 2, 1, 1}, true);
  runCase({1, 16, 14, 14}, {16, 1, 5, 5}, {16, 1, 2, 1}, false);
  runCase({1, 16, 13, 11}, {16, 1, 5, 5}, {16, 2, 2, 1}, true);
  runCase({1, 16, 12, 12}, {16, 1, 3, 3}, {16, 1, 2, 2}, true);  // dilation 2
  P2 asym;
  asym.group = 16;
  asym.pads = {0, 2, 1, 0};
  runCase({1, 16, 9, 10}, {16, 1, 3, 3}, asym, true);
  runCase({1, 16, 8, 8}, {16, 1, 3, 3}, {16, 1, 0, 1}, true);  // no padding
  runCase({1, 16, 5, 1}, {16, 1, 3, 1}, {16, 1, 0, 1}, true);  // one column
  runCase({1, 16, 8, 8}, {16, 1, 7, 7}, {16, 1, 3, 1}, true);  // 7x7: the run-time tap loop
  runCase({1, 24, 7, 7}, {24, 1, 3, 3}, {24, 1, 1, 1}, true);  // 24 channels: the plane kernel
  runCase({1, 16, 16, 16}, {16, 1, 7, 7}, {16, 1, 3, 1}, true);  // 22x22 padded: the plane kernel
  runCase({1, 16, 7, 7}, {32, 1, 3, 3}, {16, 1, 1, 1}, true);  // multiplier 2: the plane kernel
}

TEST(ConvStrategy, DepthwiseDirect) {
  runCase({1, 32, 15, 15}, {32, 1, 3, 3}, {32, 1, 1, 1}, true);
  runCase({1, 32, 16, 16}, {32, 1, 3, 3}, {32, 2, 1, 1}, true);
  runCase({2, 16, 14, 14}, {16, 1, 5, 5}, {16, 1, 2, 1}, false);
  runCase({1, 16, 15, 15}, {16, 1, 5, 5}, {16, 2, 2, 1}, true);
  runCase({1, 8, 9, 9}, {16, 1, 3, 3}, {8, 1, 1, 1}, true);  // channel multiplier 2
  // The whole-plane kernel: dilation with stride 2, asymmetric padding, a
  // band split (112 rows), and a row too wide for its buffer (row kernel).
  runCase({1, 4, 17, 19}, {4, 1, 3, 3}, {4, 2, 2, 2}, true);
  P2 asym;
  asym.group = 6;
  asym.pads = {2, 0, 1, 3};
  runCase({1, 6, 10, 11}, {6, 1, 5, 3}, asym, true);
  runCase({1, 2, 112, 112}, {2, 1, 3, 3}, {2, 1, 1, 1}, true);
  runCase({1, 2, 6, 3000}, {2, 1, 3, 3}, {2, 1, 1, 1}, false);
  // 3x3 stride 1 straight from the input rows: no padding, asymmetric
  // padding, channel multiplier 2, rows of 1..5 chunks of 16.
  runCase({1, 4, 9, 40}, {4, 1, 3, 3}, {4, 1, 0, 1}, true);
  P2 asym3;
  asym3.group = 4;
  asym3.pads = {0, 2, 2, 0};
  runCase({1, 4, 11, 37}, {4, 1, 3, 3}, asym3, true);
  runCase({1, 8, 9, 21}, {16, 1, 3, 3}, {8, 1, 1, 1}, true);
  runCase({2, 3, 7, 80}, {3, 1, 3, 3}, {3, 1, 1, 1}, true);
}

// Every output-row width class of the AVX-512 row kernel: 1..4 chunks of 16
// left after the 64-wide blocks (widths 56 and 120 leave four: MobileNetV2's
// 112x112 stride 2 and 56x56 stride 1 layers).
TEST(ConvStrategy, DepthwiseRowWidths) {
  for (int64_t w : {7, 16, 17, 33, 49, 56, 63, 64, 65, 120, 127}) {
    SCOPED_TRACE("width " + std::to_string(w));
    runCase({1, 4, 5, w}, {4, 1, 3, 3}, {4, 1, 1, 1}, true);
    runCase({1, 4, 5, 2 * w}, {4, 1, 3, 3}, {4, 2, 1, 1}, true);
    runCase({1, 4, 6, w}, {4, 1, 5, 5}, {4, 1, 2, 1}, false);
  }
}

// FusedConv = act(Conv + Z): every activation, with and without residual,
// on the GEMM strategies, the depthwise one, Winograd and the channel-vector
// kernel (whose plan falls back to the shifted GEMM for Gelu).
float actRef(const std::string& a, const std::vector<float>& p, float x) {
  if (a == "Relu") return std::max(x, 0.f);
  if (a == "Clip") return std::min(std::max(x, p[0]), p[1]);
  if (a == "LeakyRelu") return x >= 0 ? x : p[0] * x;
  if (a == "Sigmoid") return 1.f / (1.f + std::exp(-x));
  if (a == "HardSigmoid") return std::max(0.f, std::min(1.f, p[0] * x + p[1]));
  if (a == "HardSwish") return x * std::max(0.f, std::min(1.f, x / 6.f + 0.5f));
  if (a == "Tanh") return std::tanh(x);
  if (a == "SiLU") return x / (1.f + std::exp(-x));
  if (a == "Gelu") return 0.5f * x * (1.f + std::erf(x / std::sqrt(2.f)));
  return x;
}

TEST(ConvStrategy, FusedConvActivationsAndResidual) {
  const std::vector<std::pair<std::string, std::vector<float>>> acts = {
      {"", {}},         {"Relu", {}},        {"Clip", {-0.5f, 0.5f}}, {"LeakyRelu", {0.1f}},
      {"Sigmoid", {}},  {"HardSigmoid", {0.2f, 0.5f}}, {"HardSwish", {}}, {"Tanh", {}},
      {"SiLU", {}},     {"Gelu", {0.f}}};
  struct Shape {
    std::vector<int64_t> xs, ws;
    P2 p;
    bool f4 = false;  // Winograd F(4x4) on AVX-512: its tolerance (kF4RangeTol)
  };
  const Shape shapes[] = {{{1, 8, 10, 10}, {12, 8, 3, 3}, {1, 1, 1, 1}},
                          {{1, 16, 6, 6}, {16, 16, 1, 1}, {}},
                          {{1, 8, 9, 9}, {8, 1, 3, 3}, {8, 2, 1, 1}},
                          {{1, 6, 9, 9}, {3, 6, 3, 3}, {1, 1, 1, 1}},
                          {{1, 128, 12, 12}, {64, 128, 3, 3}, {1, 1, 1, 1}},   // Winograd F(2x2)
                          {{1, 32, 16, 16}, {64, 32, 3, 3}, {1, 1, 1, 1}, true},  // F(4x4) on AVX-512
                          {{1, 8, 32, 32}, {12, 8, 3, 3}, {1, 1, 1, 1}},      // shifted, row-aligned
                          {{1, 24, 9, 9}, {20, 24, 1, 1}, {}},                // pointwise in place
                          {{1, 8, 13, 13}, {56, 8, 3, 3}, {1, 2, 1, 1}},      // channel-vector (not Gelu)
                          {{1, 16, 9, 9}, {16, 1, 3, 3}, {16, 2, 1, 1}},      // depthwise blocks (not Z, Gelu)
                          {{1, 4, 7, 35}, {4, 1, 3, 3}, {4, 1, 1, 1}},        // depthwise 3x3 stride 1, direct
                          {{1, 3, 21, 40}, {10, 3, 3, 3}, {1, 2, 1, 1}}};     // pixel-vector stem (not Gelu)
  for (const auto& s : shapes)
    for (const auto& [act, params] : acts)
      for (bool residual : {false, true}) {
        Tensor x = rnd(s.xs, 4), w = rnd(s.ws, 5), b = rnd({s.ws[0]}, 6);
        Tensor ref = direct(x, w, &b, s.p);
        Tensor z = rnd(ref.shape(), 7);
        for (int64_t i = 0; i < ref.numel(); ++i) {
          float v = ref.data<float>()[i] + (residual ? z.data<float>()[i] : 0.f);
          ref.data<float>()[i] = actRef(act, params, v);
        }
        OpTester t("FusedConv", 1, "ai.oinfer");
        t.input("X", x);
        t.constantInput("W", w);
        t.constantInput("B", b);
        if (residual) t.input("Z", z);
        t.attr("group", s.p.group);
        t.attr("strides", std::vector<int64_t>{s.p.stride, s.p.stride});
        t.attr("pads", std::vector<int64_t>{s.p.pad, s.p.pad, s.p.pad, s.p.pad});
        if (!act.empty()) {
          t.attr("activation", act);
          t.attr("activation_params", params);
        }
        t.expect("Y", ref, 1e-4, s.f4 ? std::max(1e-4f, kF4RangeTol * maxAbs(ref)) : 1e-4f);
        SCOPED_TRACE(act + (residual ? " +Z" : ""));
        t.run();
      }
}

// The geometry a plan computes for x / w shapes under p (2-d).
conv::ConvGeom geomOf(const std::vector<int64_t>& xs, const std::vector<int64_t>& ws, const P2& p) {
  const std::vector<int64_t> pd = p.all();
  conv::ConvGeom g;
  g.N = xs[0];
  g.C = xs[1];
  g.M = ws[0];
  g.G = p.group;
  g.Cg = ws[1];
  g.Mg = ws[0] / p.group;
  g.img = {1, xs[2], xs[3]};
  g.grid = {1, (xs[2] + pd[0] + pd[2] - p.dil * (ws[2] - 1) - 1) / p.stride + 1,
            (xs[3] + pd[1] + pd[3] - p.dil * (ws[3] - 1) - 1) / p.stride + 1};
  g.k = {1, ws[2], ws[3]};
  g.s = {1, p.stride, p.stride};
  g.dil = {1, p.dil, p.dil};
  g.padBegin = {0, pd[0], pd[1]};
  g.K = ws[2] * ws[3];
  g.imgSize = xs[2] * xs[3];
  g.gridSize = g.grid[1] * g.grid[2];
  g.noPadding = pd == std::vector<int64_t>{0, 0, 0, 0};
  return g;
}

// The activations the tile kernels apply in registers, by name, and a set of
// them (parameters included) the tile tests run.
const std::vector<std::pair<std::string, std::vector<float>>> kTileActs = {
    {"", {}}, {"Relu", {}}, {"Clip", {-0.5f, 0.5f}}, {"LeakyRelu", {0.1f}}, {"SiLU", {}}, {"HardSwish", {}}};

conv::Activation tileActivation(const std::string& act, const std::vector<float>& params) {
  conv::Activation a;
  a.act = act.empty() ? GemmActivation::kNone
          : act == "Relu" ? GemmActivation::kRelu
          : act == "Clip" ? GemmActivation::kClip
          : act == "LeakyRelu" ? GemmActivation::kLeakyRelu
          : act == "SiLU" ? GemmActivation::kSiLU
                          : GemmActivation::kHardSwish;
  a.p0 = params.empty() ? 0.f : params[0];
  a.p1 = params.size() < 2 ? 0.f : params[1];
  return a;
}

// Runs a tile kernel, run(z or null, activation, y), with every tile
// activation, with and without the residual z, against the plain
// convolution `plain` (bias included) followed by the residual and the
// activation.
template <class Run>
void expectEpilogues(const Tensor& plain, const Tensor& z, const std::string& label, Run run) {
  for (const auto& [act, params] : kTileActs)
    for (bool residual : {false, true}) {
      SCOPED_TRACE(label + " " + act + (residual ? " +Z" : ""));
      std::vector<float> y(plain.numel(), NAN);
      run(residual ? z.data<float>() : nullptr, tileActivation(act, params), y.data());
      for (int64_t i = 0; i < plain.numel(); ++i) {
        const float want = actRef(act, params, plain.data<float>()[i] + (residual ? z.data<float>()[i] : 0.f));
        ASSERT_NEAR(y[i], want, 1e-4f + 1e-4f * std::abs(want)) << "element " << i;
      }
    }
}

// The channel-vector kernel (output channels in the AVX-512 lanes) called
// directly, so every shape runs it whatever a plan would pick: tiles of 1..14
// pixels (row widths 13, 7, 29, 14, 28), a last panel of fewer than 32 channels,
// strides 1 and 2, dilation, asymmetric padding and none, groups, batch 2,
// 1x1 read in place (flat and strided), K past 256, bias / residual and
// the activations applied in the tile's epilogue. The shifted GEMM runs the
// same shapes as a second check of the one a plan used before.
// A conv shape the tile tests run: input, weights, stride / padding / groups.
struct Case {
  std::vector<int64_t> xs, ws;
  P2 p;
};

TEST(ConvStrategy, ChannelVecDirect) {
  P2 asym;
  asym.pads = {0, 2, 1, 0};
  P2 dil;
  dil.group = 2;
  dil.pad = 2;
  dil.dil = 2;
  P2 s2dil;  // stride 2 on the parity phases, with dilation and uneven pads
  s2dil.stride = 2;
  s2dil.dil = 2;
  s2dil.pads = {1, 2, 0, 3};
  P2 s2even;  // 2x2 taps: one of each parity per axis
  s2even.stride = 2;
  s2even.pads = {0, 1, 1, 0};
  const Case cases[] = {
      {{1, 16, 11, 13}, {32, 16, 3, 3}, {1, 1, 1, 1}},
      {{2, 8, 9, 30}, {56, 8, 3, 3}, {1, 2, 1, 1}},  // a last panel of 24 channels
      {{1, 3, 23, 29}, {64, 3, 7, 7}, {1, 2, 3, 1}},  // a ResNet stem
      {{1, 6, 12, 12}, {48, 3, 3, 3}, dil},           // groups of 24 outputs, dilation 2
      {{1, 40, 7, 7}, {32, 40, 1, 1}, {}},            // 1x1: one run of 49 pixels
      {{1, 24, 9, 11}, {32, 24, 1, 1}, {1, 2, 0, 1}},  // 1x1 stride 2, in place
      {{1, 5, 11, 13}, {32, 5, 2, 4}, asym},
      {{1, 64, 7, 7}, {64, 64, 3, 3}, {1, 1, 1, 1}},  // Cg*K = 576
      {{1, 4, 80, 80}, {256, 4, 3, 3}, {1, 1, 1, 1}},  // 8 panels; the shifted GEMM's row-aligned panels
      {{1, 100, 14, 14}, {64, 100, 3, 3}, {1, 1, 1, 1}},  // K blocked: 900 steps in 8 blocks, 4 tiles a unit
      {{1, 300, 14, 14}, {56, 300, 1, 1}, {}},             // K blocked 1x1: 3 blocks, a last panel of 24
      {{1, 16, 9, 14}, {32, 16, 3, 3}, {1, 1, 1, 1}},      // 14-wide rows: one tile of 14
      {{1, 48, 1, 1}, {120, 48, 1, 1}, {}},                // one pixel (squeeze-and-excitation)
      {{1, 8, 6, 56}, {32, 8, 3, 3}, {1, 2, 1, 1}},        // 28-wide rows, stride 2: two tiles of 14
      {{1, 8, 13, 17}, {32, 8, 3, 3}, s2dil},              // dilated taps all even: one row phase read
      {{2, 6, 10, 15}, {32, 6, 2, 2}, s2even},             // odd padded width, two images
      {{1, 24, 8, 9}, {32, 24, 1, 1}, {1, 2, 0, 1}},       // 1x1 stride 2, odd width: one phase copied
  };
  if (std::string(sgemmIsa()) != "avx512") GTEST_SKIP() << "the channel-vector kernel needs AVX-512";
  ThreadPool pool(2);
  for (const Case& c : cases) {
    const conv::ConvGeom g = geomOf(c.xs, c.ws, c.p);
    ASSERT_TRUE(conv::choose::cvecSuits(g)) << shapeToString(c.xs) << " * " << shapeToString(c.ws);
    Tensor x = rnd(c.xs, 11), w = rnd(c.ws, 12), b = rnd({c.ws[0]}, 13);
    const Tensor plain = direct(x, w, &b, c.p);
    const Tensor z = rnd(plain.shape(), 14);
    const std::vector<PackedB> packed = conv::packCvecWeights(g, w.data<float>());
    const std::vector<PackedA> packedA = conv::packConvWeights(g, w.data<float>());
    const std::string label = shapeToString(c.xs) + " * " + shapeToString(c.ws);
    ASSERT_NO_FATAL_FAILURE(expectEpilogues(plain, z, label, [&](const float* zp, const conv::Activation& a, float* y) {
      conv::convCvec(pool, g, packed, x.data<float>(), b.data<float>(), zp, y, a);
    }));
    if (conv::choose::shiftedSuits(g))
      ASSERT_NO_FATAL_FAILURE(expectEpilogues(plain, z, label + " shifted",
                                              [&](const float* zp, const conv::Activation& a, float* y) {
        conv::convShifted(pool, g, packedA, x.data<float>(), b.data<float>(), zp, y, a);
      }));
  }
}

// NCHW <-> NCHW16c (ops/kernel.h) for the blocked tests (C a multiple of
// 16; other C padded to one, for the cases that never read it blocked).
std::vector<float> toBlocked(const float* x, int64_t N, int64_t C, int64_t P) {
  std::vector<float> out(size_t(N * (C + 15) / 16 * 16 * P));
  for (int64_t n = 0; n < N; ++n)
    for (int64_t c = 0; c < C; ++c)
      for (int64_t p = 0; p < P; ++p) out[((n * C + c / 16 * 16) * P + p * 16) + c % 16] = x[(n * C + c) * P + p];
  return out;
}

void fromBlocked(const float* xb, int64_t N, int64_t C, int64_t P, float* x) {
  for (int64_t n = 0; n < N; ++n)
    for (int64_t c = 0; c < C; ++c)
      for (int64_t p = 0; p < P; ++p) x[(n * C + c) * P + p] = xb[((n * C + c / 16 * 16) * P + p * 16) + c % 16];
}

// The channel-vector kernel reading X and / or writing Y (and the residual
// Z with it) in the blocked layout, against the plain convolution: padded
// and in-place input, dilation, a last panel of 16 channels (one vector per
// pixel) and a whole conv of 16, batch 2, K blocked, weights-major units,
// stride 2 (blocked input read at every other pixel, in place or from the
// padded copy; NCHW input from the phases), every epilogue.
TEST(ConvStrategy, ChannelVecBlocked) {
  P2 asym;
  asym.pads = {0, 2, 1, 0};
  P2 dil;
  dil.pad = 2;
  dil.dil = 2;
  P2 s2;
  s2.stride = 2;
  s2.pads = {1, 1, 0, 0};
  const Case cases[] = {
      {{1, 16, 11, 13}, {32, 16, 3, 3}, {1, 1, 1, 1}},  // padded copy, 13-wide rows
      {{1, 32, 7, 7}, {16, 32, 1, 1}, {}},              // 16 outputs: one vector a pixel
      {{2, 32, 9, 10}, {48, 32, 3, 3}, {1, 1, 1, 1}},   // batch 2, a last panel of 16
      {{1, 16, 13, 13}, {64, 16, 1, 1}, {}},            // SqueezeNet's expand1x1, flat
      {{1, 64, 6, 6}, {32, 64, 3, 3}, dil},             // dilation 2
      {{1, 16, 11, 13}, {32, 16, 2, 4}, asym},          // uneven padding
      {{1, 304, 9, 9}, {48, 304, 1, 1}, {}},            // K blocked: 3 blocks
      {{1, 512, 5, 5}, {1000, 512, 1, 1}, {}},          // weights-major, a last panel of 8 (NCHW output)
      {{1, 8, 13, 17}, {32, 8, 3, 3}, s2},              // stride 2 on the phases: blocked Y only
      {{1, 24, 9, 11}, {32, 24, 1, 1}, {1, 2, 0, 1}},   // 1x1 stride 2: blocked Y only
      {{1, 32, 13, 17}, {48, 32, 3, 3}, s2},            // stride 2, padded copy, a last panel of 16
      {{1, 32, 9, 11}, {32, 32, 1, 1}, {1, 2, 0, 1}},   // 1x1 stride 2 in place, odd sizes
      {{2, 16, 14, 14}, {64, 16, 1, 1}, {1, 2, 0, 1}},  // 1x1 stride 2 in place, two images
  };
  if (std::string(sgemmIsa()) != "avx512") GTEST_SKIP() << "the channel-vector kernel needs AVX-512";
  ThreadPool pool(2);
  int runs = 0;
  for (const Case& c : cases) {
    const conv::ConvGeom g = geomOf(c.xs, c.ws, c.p);
    Tensor x = rnd(c.xs, 31), w = rnd(c.ws, 32), b = rnd({c.ws[0]}, 33);
    const Tensor plain = direct(x, w, &b, c.p);
    const Tensor z = rnd(plain.shape(), 34);
    const std::vector<PackedB> packed = conv::packCvecWeights(g, w.data<float>());
    const std::vector<float> xb = toBlocked(x.data<float>(), g.N, g.C, g.imgSize);
    for (const auto& io : {std::pair{true, false}, {false, true}, {true, true}}) {
      const bool in = io.first, out = io.second;  // not a structured binding: clang 14 cannot capture those
      if (!conv::choose::cvecBlockedSuits(g, in, out)) continue;
      ++runs;
      const std::string label = shapeToString(c.xs) + " * " + shapeToString(c.ws) + (in ? " X blocked" : "") +
                                (out ? " Y blocked" : "");
      ASSERT_NO_FATAL_FAILURE(expectEpilogues(plain, z, label, [&](const float* zp, const conv::Activation& a, float* y) {
        std::vector<float> zb = zp && out ? toBlocked(zp, g.N, g.M, g.gridSize) : std::vector<float>();
        std::vector<float> yb(out ? plain.numel() : 0);
        conv::convCvec(pool, g, packed, in ? xb.data() : x.data<float>(), b.data<float>(),
                       zp ? (out ? zb.data() : zp) : nullptr, out ? yb.data() : y, a, in, out);
        if (out) fromBlocked(yb.data(), g.N, g.M, g.gridSize, y);
      }));
    }
  }
  EXPECT_EQ(runs, 33);
}

// The depthwise kernel on the blocked layout (X, Y and the residual
// NCHW16c), called directly: 3x3 and 5x5 (weights in registers) and 7x7
// (the run-time window), strides 1 and 2, dilation, asymmetric and no
// padding, odd sizes, batch 2, rows in several bands (a 130-wide plane),
// row tails of 1-7 pixels, and the epilogue's bias, residual and
// activations.
TEST(ConvStrategy, DepthwiseBlocked) {
  if (std::string(sgemmIsa()) != "avx512") GTEST_SKIP() << "the blocked layout needs AVX-512";
  auto dw = [](int64_t C, int64_t stride, int64_t pad) {
    P2 p;
    p.group = C;
    p.stride = stride;
    p.pad = pad;
    return p;
  };
  P2 dil = dw(16, 1, 2);
  dil.dil = 2;
  P2 asym = dw(32, 1, 0);
  asym.pads = {0, 1, 2, 1};
  const Case cases[] = {
      {{1, 32, 14, 14}, {32, 1, 3, 3}, dw(32, 1, 1)},
      {{2, 16, 13, 17}, {16, 1, 3, 3}, dw(16, 2, 1)},   // stride 2, odd sizes, two images
      {{1, 48, 14, 14}, {48, 1, 5, 5}, dw(48, 1, 2)},   // EfficientNet's 5x5 @14
      {{1, 16, 15, 15}, {16, 1, 5, 5}, dw(16, 2, 2)},
      {{1, 16, 9, 10}, {16, 1, 7, 7}, dw(16, 1, 3)},    // the run-time window
      {{1, 16, 12, 12}, {16, 1, 3, 3}, dil},            // dilation 2
      {{1, 32, 11, 9}, {32, 1, 3, 3}, asym},
      {{1, 16, 9, 9}, {16, 1, 3, 3}, dw(16, 1, 0)},     // no padding: 7x7
      {{1, 16, 40, 130}, {16, 1, 3, 3}, dw(16, 1, 1)},  // 132-pixel padded rows: bands of a few rows
  };
  ThreadPool pool(2);
  for (const Case& c : cases) {
    const conv::ConvGeom g = geomOf(c.xs, c.ws, c.p);
    ASSERT_TRUE(conv::choose::depthwiseBlockedSuits(g, GemmActivation::kSiLU)) << shapeToString(c.xs);
    Tensor x = rnd(c.xs, 41), w = rnd(c.ws, 42), b = rnd({c.ws[0]}, 43);
    const Tensor plain = direct(x, w, &b, c.p);
    const Tensor z = rnd(plain.shape(), 44);
    const std::shared_ptr<float[]> packed = conv::packDepthwiseBlocked(g, w.data<float>());
    const std::vector<float> xb = toBlocked(x.data<float>(), g.N, g.C, g.imgSize);
    const std::string label = shapeToString(c.xs) + " * " + shapeToString(c.ws);
    ASSERT_NO_FATAL_FAILURE(expectEpilogues(plain, z, label, [&](const float* zp, const conv::Activation& a, float* y) {
      const std::vector<float> zb = zp ? toBlocked(zp, g.N, g.M, g.gridSize) : std::vector<float>();
      std::vector<float> yb(plain.numel());
      conv::depthwiseBlocked(pool, g, xb.data(), packed.get(), b.data<float>(), zp ? zb.data() : nullptr, yb.data(), a);
      fromBlocked(yb.data(), g.N, g.M, g.gridSize, y);
    }));
  }
  EXPECT_FALSE(conv::choose::depthwiseBlockedSuits(geomOf({1, 24, 8, 8}, {24, 1, 3, 3}, dw(24, 1, 1)), GemmActivation::kNone))
      << "24 channels";
  EXPECT_FALSE(conv::choose::depthwiseBlockedSuits(geomOf({1, 16, 8, 8}, {16, 1, 3, 3}, dw(16, 1, 1)), GemmActivation::kGelu))
      << "Gelu";
  EXPECT_FALSE(conv::choose::depthwiseBlockedSuits(geomOf({1, 32, 8, 8}, {32, 2, 3, 3}, dw(16, 1, 1)), GemmActivation::kNone))
      << "two channels per group";
  const conv::ConvGeom g = geomOf({1, 16, 8, 8}, {16, 1, 3, 3}, dw(16, 1, 1));
  conv::Activation gelu;
  gelu.act = GemmActivation::kGelu;
  try {
    conv::depthwiseBlocked(pool, g, nullptr, nullptr, nullptr, nullptr, nullptr, gelu);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("the shape or activation does not suit the kernel"), std::string::npos)
        << e.what();
  }
}

// What the kernel refuses in the blocked layout, with the reason.
TEST(ConvStrategy, ChannelVecBlockedRefused) {
  if (std::string(sgemmIsa()) != "avx512") GTEST_SKIP() << "the channel-vector kernel needs AVX-512";
  EXPECT_FALSE(conv::choose::cvecBlockedSuits(geomOf({1, 24, 8, 8}, {32, 24, 1, 1}, {}), true, false)) << "24 channels";
  EXPECT_FALSE(conv::choose::cvecBlockedSuits(geomOf({1, 16, 8, 8}, {40, 16, 1, 1}, {}), false, true)) << "40 outputs";
  EXPECT_FALSE(conv::choose::cvecBlockedSuits(geomOf({1, 32, 9, 9}, {32, 32, 3, 3}, {1, 3, 1, 1}), true, false)) << "stride 3";
  P2 grouped;
  grouped.group = 2;
  EXPECT_FALSE(conv::choose::cvecBlockedSuits(geomOf({1, 32, 8, 8}, {32, 16, 1, 1}, grouped), false, true)) << "groups";
  const conv::ConvGeom g = geomOf({1, 32, 9, 9}, {32, 32, 3, 3}, {1, 3, 1, 1});
  Tensor x = rnd({1, 32, 9, 9}, 41), w = rnd({32, 32, 3, 3}, 42);
  std::vector<float> y(32 * 9);
  ThreadPool pool(1);
  try {
    conv::convCvec(pool, g, conv::packCvecWeights(g, w.data<float>()), x.data<float>(), nullptr, nullptr, y.data(),
                   conv::Activation{}, true, false);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("the blocked layout needs one group, 16 | channels and stride 1 or 2"),
              std::string::npos)
        << e.what();
  }
}

// Through the op: the shapes a plan gives the channel-vector kernel (strided,
// output rows that fill under 90% of the shifted GEMM's panels, 1x1 with a
// long K on a small plane), and the ones it leaves to the GEMM strategies
// (rows filling the panels, other 1x1s, few output channels); weights given
// at run time take the GEMM paths.
// Gelu has no in-tile form: a plan never gives the kernel a Gelu FusedConv
// (FusedConvActivationsAndResidual runs one on the shifted GEMM), and a
// direct call with one is refused, not computed without the activation.
TEST(ConvStrategy, ChannelVecRefusesGelu) {
  if (std::string(sgemmIsa()) != "avx512") GTEST_SKIP() << "the channel-vector kernel needs AVX-512";
  const conv::ConvGeom g = geomOf({1, 8, 6, 6}, {32, 8, 3, 3}, {1, 1, 1, 1});
  Tensor x = rnd({1, 8, 6, 6}, 21), w = rnd({32, 8, 3, 3}, 22);
  std::vector<float> y(32 * 36);
  conv::Activation gelu;
  gelu.act = GemmActivation::kGelu;
  ThreadPool pool(1);
  try {
    conv::convCvec(pool, g, conv::packCvecWeights(g, w.data<float>()), x.data<float>(), nullptr, nullptr, y.data(),
                   gelu);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("Gelu is not applied in tiles"), std::string::npos) << e.what();
  }
}

TEST(ConvStrategy, ChannelVecChosen) {
  if (std::string(sgemmIsa()) != "avx512")
    GTEST_SKIP() << "the channel-vector kernel needs AVX-512";
  EXPECT_TRUE(conv::choose::cvecPreferred(geomOf({1, 8, 14, 14}, {32, 8, 3, 3}, {1, 1, 1, 1})));   // 14-wide rows
  EXPECT_TRUE(conv::choose::cvecPreferred(geomOf({1, 8, 56, 56}, {64, 8, 3, 3}, {1, 1, 1, 1})));   // 56 of 64
  EXPECT_TRUE(conv::choose::cvecPreferred(geomOf({1, 3, 64, 64}, {64, 3, 7, 7}, {1, 2, 3, 1})));   // strided
  EXPECT_FALSE(conv::choose::cvecPreferred(geomOf({1, 3, 64, 64}, {64, 3, 9, 9}, {1, 1, 4, 1})))   // 64 of 64
      << "rows that fill the shifted GEMM's panels";
  EXPECT_FALSE(conv::choose::cvecPreferred(geomOf({1, 64, 7, 7}, {64, 64, 1, 1}, {}))) << "1x1 with a short K";
  EXPECT_TRUE(conv::choose::cvecPreferred(geomOf({1, 256, 28, 28}, {64, 256, 1, 1}, {})));  // long K on a large plane
  EXPECT_FALSE(conv::choose::cvecPreferred(geomOf({1, 128, 28, 28}, {512, 128, 1, 1}, {}))) << "1x1 on a large plane, short K";
  EXPECT_TRUE(conv::choose::cvecPreferred(geomOf({1, 512, 14, 14}, {512, 512, 1, 1}, {1, 2, 0, 1})));  // 1x1 strided
  EXPECT_TRUE(conv::choose::cvecPreferred(geomOf({1, 512, 7, 7}, {512, 512, 1, 1}, {})));  // long K, small plane
  EXPECT_TRUE(conv::choose::cvecPreferred(geomOf({1, 160, 7, 7}, {960, 160, 1, 1}, {})));  // 7x7: a shorter K
  EXPECT_TRUE(conv::choose::cvecPreferred(geomOf({1, 48, 1, 1}, {1152, 48, 1, 1}, {})));   // one pixel: a GEMV
  EXPECT_TRUE(conv::choose::cvecPreferred(geomOf({1, 160, 14, 14}, {960, 160, 1, 1}, {})));  // 14x14, wide output
  EXPECT_FALSE(conv::choose::cvecPreferred(geomOf({1, 64, 14, 14}, {256, 64, 1, 1}, {}))) << "14x14, short K, 256 outputs";
  EXPECT_FALSE(conv::choose::cvecPreferred(geomOf({1, 64, 28, 28}, {384, 64, 1, 1}, {}))) << "28x28 with a short K";
  EXPECT_FALSE(conv::choose::cvecPreferred(geomOf({1, 8, 14, 14}, {16, 8, 3, 3}, {1, 1, 1, 1}))) << "16 outputs";
  runCase({1, 8, 14, 14}, {32, 8, 3, 3}, {1, 1, 1, 1}, true);
  runCase({2, 16, 20, 22}, {72, 16, 3, 3}, {1, 2, 1, 1}, false);  // 3 panels, the last of 8 channels
  runCase({1, 3, 40, 40}, {64, 3, 7, 7}, {1, 2, 3, 1}, true);
  runCase({1, 8, 14, 14}, {32, 8, 3, 3}, {1, 1, 1, 1}, true, false);  // weights at run time
  runCase({1, 256, 9, 11}, {72, 256, 1, 1}, {}, true);               // 1x1, flat tiles over 99 pixels
  runCase({1, 64, 14, 14}, {384, 64, 1, 1}, {}, true);               // 1x1 on 14x14, 12 panels
  runCase({1, 256, 9, 11}, {72, 256, 1, 1}, {}, true, false);        // the same on the GEMM
}

// The pixel-vector kernel (output pixels in the AVX-512 lanes, few input
// channels) called directly: 3x3 / 5x5 / 7x7 stems at strides 1 and 2, row
// widths of 1..5 vectors (tiles of 3 vectors and a last of 1 or 2), a last
// block of fewer than 8 channels, asymmetric padding and none, batch 2,
// bias / residual and the activations in the tile's epilogue.
TEST(ConvStrategy, PixelVecDirect) {
  if (std::string(sgemmIsa()) != "avx512") GTEST_SKIP() << "the pixel-vector kernel needs AVX-512";
  P2 asym;
  asym.pads = {1, 0, 2, 3};
  const Case cases[] = {
      {{1, 3, 40, 70}, {64, 3, 7, 7}, {1, 2, 3, 1}},    // a ResNet stem: 35-wide rows
      {{2, 3, 37, 101}, {12, 3, 3, 3}, {1, 2, 0, 1}},   // a SqueezeNet stem; blocks of 8 and 4 channels
      {{1, 3, 30, 40}, {32, 3, 3, 3}, {1, 2, 1, 1}},    // a MobileNetV2 stem: 20-wide rows
      {{1, 4, 20, 33}, {16, 4, 5, 5}, {1, 1, 2, 1}},    // stride 1
      {{1, 1, 18, 50}, {8, 1, 3, 3}, asym},             // one channel, asymmetric padding
      {{1, 2, 17, 160}, {9, 2, 3, 3}, {1, 2, 1, 1}},    // 80-wide rows: tiles of 3 and 2 vectors
  };
  ThreadPool pool(2);
  for (const Case& c : cases) {
    const conv::ConvGeom g = geomOf(c.xs, c.ws, c.p);
    ASSERT_TRUE(conv::choose::pixvecPreferred(g)) << shapeToString(c.xs) << " * " << shapeToString(c.ws);
    Tensor x = rnd(c.xs, 31), w = rnd(c.ws, 32), b = rnd({c.ws[0]}, 33);
    const Tensor plain = direct(x, w, &b, c.p);
    const Tensor z = rnd(plain.shape(), 34);
    const std::vector<PackedB> packed = conv::packPixvecWeights(g, w.data<float>());
    ASSERT_NO_FATAL_FAILURE(expectEpilogues(plain, z, shapeToString(c.xs) + " * " + shapeToString(c.ws),
                                            [&](const float* zp, const conv::Activation& a, float* y) {
      conv::convPixvec(pool, g, packed, x.data<float>(), b.data<float>(), zp, y, a);
    }));
  }
}

// Which shapes a plan gives the pixel-vector kernel, and a Gelu refused.
TEST(ConvStrategy, PixelVecChosen) {
  if (std::string(sgemmIsa()) != "avx512") GTEST_SKIP() << "the pixel-vector kernel needs AVX-512";
  EXPECT_TRUE(conv::choose::pixvecPreferred(geomOf({1, 3, 224, 224}, {64, 3, 7, 7}, {1, 2, 3, 1})));
  EXPECT_TRUE(conv::choose::pixvecPreferred(geomOf({1, 3, 224, 224}, {32, 3, 3, 3}, {1, 2, 1, 1})));
  EXPECT_FALSE(conv::choose::pixvecPreferred(geomOf({1, 5, 64, 64}, {32, 5, 3, 3}, {1, 1, 1, 1}))) << "5 input channels";
  EXPECT_FALSE(conv::choose::pixvecPreferred(geomOf({1, 3, 64, 64}, {4, 3, 3, 3}, {1, 1, 1, 1}))) << "4 output channels";
  EXPECT_FALSE(conv::choose::pixvecPreferred(geomOf({1, 3, 20, 20}, {32, 3, 3, 3}, {1, 2, 1, 1}))) << "10-wide rows";
  EXPECT_FALSE(conv::choose::pixvecPreferred(geomOf({1, 3, 64, 64}, {32, 3, 3, 3}, {1, 3, 1, 1}))) << "stride 3";
  EXPECT_FALSE(conv::choose::pixvecPreferred(geomOf({1, 4, 64, 64}, {32, 2, 3, 3}, {2, 1, 1, 1}))) << "groups";
  P2 dil;
  dil.pad = 2;
  dil.dil = 2;
  EXPECT_FALSE(conv::choose::pixvecPreferred(geomOf({1, 3, 64, 64}, {32, 3, 3, 3}, dil))) << "dilation";
  runCase({1, 3, 45, 47}, {24, 3, 3, 3}, {1, 2, 1, 1}, true);
  runCase({1, 3, 45, 47}, {24, 3, 3, 3}, {1, 2, 1, 1}, true, false);  // weights at run time: the GEMM paths
  const conv::ConvGeom g = geomOf({1, 3, 40, 40}, {16, 3, 3, 3}, {1, 1, 1, 1});
  Tensor x = rnd({1, 3, 40, 40}, 41), w = rnd({16, 3, 3, 3}, 42);
  std::vector<float> y(16 * 40 * 40);
  conv::Activation gelu;
  gelu.act = GemmActivation::kGelu;
  ThreadPool pool(1);
  try {
    conv::convPixvec(pool, g, conv::packPixvecWeights(g, w.data<float>()), x.data<float>(), nullptr, nullptr,
                     y.data(), gelu);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("Gelu is not applied in tiles"), std::string::npos) << e.what();
  }
}

TEST(ConvStrategy, FusedConvResidualShapeMismatch) {
  OpTester t("FusedConv", 1, "ai.oinfer");
  t.input("X", rnd({1, 2, 4, 4}, 1));
  t.constantInput("W", rnd({3, 2, 1, 1}, 2));
  t.absentInput();
  t.input("Z", rnd({1, 3, 4, 5}, 3));
  t.output("Y");
  t.expectError("input 3 ('Z') has shape [1,3,4,5], expected the output's [1,3,4,4]");
}

TEST(ConvStrategy, FusedConvUnknownActivation) {
  OpTester t("FusedConv", 1, "ai.oinfer");
  t.input("X", rnd({1, 2, 4, 4}, 1));
  t.constantInput("W", rnd({3, 2, 1, 1}, 2));
  t.attr("activation", "Softplus");
  t.output("Y");
  t.expectError("unsupported activation 'Softplus'");
}

}  // namespace
}  // namespace oinfer::testing
