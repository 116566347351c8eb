// Every CUDA kernel against its CPU kernel on random inputs of several shapes
// (tests/cuda/cuda_tester.h: guard bytes around device outputs, outputs
// pre-filled so unwritten elements fail). Without a device the comparisons
// skip; the registration, decline and error-path tests run everywhere.
#include <gtest/gtest.h>

#include "cuda/cuda_tester.h"
#include "ops/cuda/cuda_kernel.h"
#include "ops/registry.h"
#include "ir_util.h"

namespace oinfer::testing {
namespace {

using V = std::vector<int64_t>;
using F = std::vector<float>;

Tensor rf(const V& shape, uint32_t seed, double lo = -1, double hi = 1) { return randomTensor<float>(shape, seed, lo, hi); }
Tensor rh(const V& shape, uint32_t seed, double lo = -1, double hi = 1) { return randomTensor<Float16>(shape, seed, lo, hi); }
Tensor i64(const V& shape, const std::vector<int64_t>& v) { return Tensor::fromVector<int64_t>(shape, v); }
Tensor i64v(const std::vector<int64_t>& v) { return i64({static_cast<int64_t>(v.size())}, v); }

// ---- runs without a device -----------------------------------------------------

TEST(CudaRegistry, CoreOpsHaveCudaKernelsOnEveryVersion) {
  const char* ops[] = {"Conv", "ConvTranspose", "Gemm", "MatMul", "MaxPool", "AveragePool", "GlobalAveragePool",
                       "GlobalMaxPool", "BatchNormalization", "LayerNormalization", "Softmax", "LogSoftmax",
                       "ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin", "Add", "Sub", "Mul", "Div", "Pow", "Equal",
                       "Less", "Greater", "And", "Or", "Not", "Where", "Sqrt", "Exp", "Log", "Abs", "Neg", "Reciprocal",
                       "Erf", "Tanh", "Sigmoid", "Relu", "LeakyRelu", "Clip", "HardSigmoid", "HardSwish", "Concat",
                       "Split", "Slice", "Gather", "Transpose", "Expand", "Pad", "Resize", "Cast"};
  const Registry& r = builtinRegistry();
  for (const char* op : ops) {
    bool any = false;
    for (const OpDef* d : r.all()) {
      if (!d->domain.empty() || d->opType != op) continue;
      any = true;
      EXPECT_TRUE(static_cast<bool>(d->cuda)) << op << " since " << d->sinceVersion << " has no CUDA factory";
    }
    EXPECT_TRUE(any) << op << " is not registered";
  }
  for (const char* op : {"FusedConv", "FusedMatMul", "LayerNorm", "Gelu"}) {  // the graph passes' fused ops
    const OpDef* d = r.find("ai.oinfer", op, 1);
    ASSERT_NE(d, nullptr) << "ai.oinfer " << op << " is not registered";
    EXPECT_TRUE(static_cast<bool>(d->cuda)) << "ai.oinfer " << op << " has no CUDA factory";
  }
}

TEST(CudaDevice, AvailabilityGivesAOneLineReason) {
  std::string why;
  if (cuda::cudaDeviceAvailable(&why)) GTEST_SKIP() << "a CUDA device is present";
  EXPECT_FALSE(why.empty());
  EXPECT_EQ(why.find('\n'), std::string::npos) << why;
}

TEST(CudaDevice, ErrorsNameTheNodeAndTheCudaError) {
  Node n;
  n.opType = "Relu";
  n.name = "relu_7";
  try {
    cuda::check(cudaErrorInvalidValue, "launchUnary", &n);
    FAIL() << "no error thrown";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kDevice);
    const std::string m = e.what();
    EXPECT_NE(m.find("relu_7"), std::string::npos) << m;
    EXPECT_NE(m.find("launchUnary"), std::string::npos) << m;
    EXPECT_NE(m.find("cudaErrorInvalidValue"), std::string::npos) << m;
  }
  try {
    cuda::check(CUDNN_STATUS_BAD_PARAM, "cudnnConvolutionForward", &n);
    FAIL() << "no error thrown";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kDevice);
    EXPECT_NE(std::string(e.what()).find("cudnnConvolutionForward"), std::string::npos) << e.what();
  }
}

TEST(CudaDevice, RunWithoutADeviceContextIsAnInternalError) {
  // A factory that uploads nothing (no constant inputs) needs no device.
  Node n;
  n.opType = "Relu";
  n.name = "r";
  n.inputs = {"x"};
  n.outputs = {"y"};
  ValueInfo x{"x", ValueKind::kTensor, DataType::kFloat, true, {2}}, y{"y", ValueKind::kTensor, DataType::kFloat, true, {2}};
  KernelInit init{n, 14, {&x}, {nullptr}, {&y}};
  auto k = builtinRegistry().find("", "Relu", 14)->cuda(init);
  ASSERT_NE(k, nullptr);
  KernelContext kc;
  kc.node_ = &n;
  try {
    k->run(kc);
    FAIL() << "no error thrown";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInternal);
    EXPECT_NE(std::string(e.what()).find("deviceCtx_"), std::string::npos) << e.what();
  }
}

TEST(CudaDecline, FormsTheCudaKernelsLeaveToTheCpu) {
  {  // MaxPool's Indices output
    CudaTester t("MaxPool", 12);
    t.attr("kernel_shape", V{2, 2}).input("X", rf({1, 1, 4, 4}, 1)).output("Y").output("I");
    t.expectDecline();
  }
  {  // cubic Resize
    CudaTester t("Resize", 13);
    t.attr("mode", "cubic").input("X", rf({1, 1, 4, 4}, 2)).absentInput();
    t.constantInput("scales", Tensor::fromVector<float>({4}, {1, 1, 2, 2})).output("Y");
    t.expectDecline();
  }
  {  // Cast to string
    CudaTester t("Cast", 13);
    t.attr("to", static_cast<int64_t>(DataType::kString)).input("X", rf({3}, 3)).output("Y");
    t.expectDecline();
  }
  {  // BatchNormalization whose statistics are not constants (nothing to fold)
    CudaTester t("BatchNormalization", 15);
    t.input("X", rf({2, 3, 2, 2}, 4)).input("s", rf({3}, 5)).input("b", rf({3}, 6)).input("m", rf({3}, 7));
    t.input("v", rf({3}, 8, 0.5, 1)).output("Y");
    t.expectDecline();
  }
}

// ---- elementwise ------------------------------------------------------------------

TEST(CudaElementwise, BinaryArithmeticBroadcasts) {
  OINFER_SKIP_WITHOUT_CUDA();
  const std::vector<std::pair<V, V>> shapes = {{{2, 3, 4}, {2, 3, 4}}, {{2, 3, 4}, {4}}, {{2, 1, 4}, {3, 1}},
                                               {{}, {5}}, {{4, 1, 6, 1}, {1, 5, 1, 7}}, {{1000}, {1}}};
  uint32_t seed = 10;
  for (const char* op : {"Add", "Sub", "Mul", "Div", "Max", "Min", "PRelu"})
    for (const auto& [a, b] : shapes) {
      if (std::string(op) == "PRelu" && b.size() > a.size()) continue;
      CudaTester t(op, 16);
      t.input("A", rf(a, ++seed)).input("B", rf(b, ++seed, 0.5, 2)).output("C");
      t.run();
    }
}

TEST(CudaElementwise, PowModAndConstantOperands) {
  OINFER_SKIP_WITHOUT_CUDA();
  {
    CudaTester t("Pow", 15);
    t.input("A", rf({3, 4}, 1, 0.1, 3)).input("B", rf({4}, 2, -2, 2)).output("C");
    t.run();
  }
  {
    CudaTester t("Mod", 13);
    t.attr("fmod", 1).input("A", rf({3, 4}, 3, -5, 5)).input("B", rf({3, 4}, 4, 0.5, 2)).output("C");
    t.run();
  }
  {
    CudaTester t("Mod", 13);
    t.input("A", randomTensor<int64_t>({10}, 5, -20, 20)).input("B", randomTensor<int64_t>({10}, 6, 1, 7)).output("C");
    t.run();
  }
  {  // a constant bias is uploaded by the factory (kOwned)
    CudaTester t("Add", 14);
    t.input("A", rf({4, 8}, 7)).constantInput("B", rf({8}, 8)).output("C");
    t.run();
  }
  for (const char* op : {"Add", "Mul", "Sub", "Div"}) {
    CudaTester t(op, 14);
    t.input("A", randomTensor<int64_t>({3, 5}, 9, -50, 50)).input("B", randomTensor<int64_t>({5}, 10, 1, 9)).output("C");
    t.run();
  }
  {
    CudaTester t("Add", 14);
    t.input("A", randomTensor<int32_t>({6}, 11, -9, 9)).input("B", randomTensor<int32_t>({6}, 12, -9, 9)).output("C");
    t.run();
  }
  {
    CudaTester t("Sum", 13);
    t.input("A", rf({2, 3}, 13)).input("B", rf({3}, 14)).output("C");
    t.run();
  }
}

TEST(CudaElementwise, ComparisonsLogicAndWhere) {
  OINFER_SKIP_WITHOUT_CUDA();
  for (const char* op : {"Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual"}) {
    CudaTester t(op, 16);
    Tensor a = randomTensor<int64_t>({4, 5}, 1, -3, 3), b = randomTensor<int64_t>({5}, 2, -3, 3);
    t.input("A", a).input("B", b).output("C");
    t.run();
    CudaTester f(op, 16);
    f.input("A", rf({2, 3, 4}, 3)).input("B", rf({3, 1}, 4)).output("C");
    f.run();
  }
  for (const char* op : {"And", "Or", "Xor"}) {
    CudaTester t(op, 7);
    t.input("A", randomTensor<bool>({3, 4}, 5)).input("B", randomTensor<bool>({4}, 6)).output("C");
    t.run();
  }
  {
    CudaTester t("Not", 1);
    t.input("X", randomTensor<bool>({7}, 7)).output("Y");
    t.run();
  }
  {
    CudaTester t("Where", 16);
    t.input("C", randomTensor<bool>({2, 1, 4}, 8)).input("X", rf({3, 4}, 9)).input("Y", rf({2, 3, 1}, 10)).output("Z");
    t.run();
  }
  {
    CudaTester t("Where", 16);
    t.input("C", randomTensor<bool>({5}, 11)).input("X", randomTensor<int64_t>({5}, 12, -9, 9));
    t.input("Y", randomTensor<int64_t>({1}, 13, -9, 9)).output("Z");
    t.run();
  }
}

TEST(CudaElementwise, UnaryMath) {
  OINFER_SKIP_WITHOUT_CUDA();
  struct Case {
    const char* op;
    double lo, hi;
  };
  const Case cases[] = {{"Sqrt", 0.01, 4},  {"Exp", -3, 3},     {"Log", 0.01, 5},  {"Abs", -2, 2},
                        {"Neg", -2, 2},     {"Reciprocal", 0.5, 3}, {"Erf", -3, 3}, {"Tanh", -3, 3},
                        {"Sigmoid", -6, 6}, {"Sin", -3, 3},     {"Cos", -3, 3},    {"Tan", -1, 1},
                        {"Atan", -3, 3},    {"Floor", -5, 5},   {"Ceil", -5, 5},   {"Round", -5, 5},
                        {"Sign", -2, 2},    {"Relu", -2, 2},    {"Softplus", -5, 25}, {"Softsign", -3, 3},
                        {"HardSwish", -5, 5}, {"Mish", -4, 4}};
  uint32_t seed = 100;
  for (const Case& c : cases)
    for (const V& shape : {V{7}, V{3, 5, 11}, V{}}) {
      CudaTester t(c.op, 14);
      t.input("X", rf(shape, ++seed, c.lo, c.hi)).output("Y");
      t.run();
    }
}

TEST(CudaElementwise, ActivationsWithAttributes) {
  OINFER_SKIP_WITHOUT_CUDA();
  {
    CudaTester t("LeakyRelu", 16);
    t.attr("alpha", 0.2f).input("X", rf({4, 6}, 1, -2, 2)).output("Y");
    t.run();
  }
  {
    CudaTester t("Elu", 6);
    t.attr("alpha", 0.7f).input("X", rf({4, 6}, 2, -2, 2)).output("Y");
    t.run();
  }
  {
    CudaTester t("Selu", 6);
    t.input("X", rf({4, 6}, 3, -2, 2)).output("Y");
    t.run();
  }
  {
    CudaTester t("Celu", 12);
    t.attr("alpha", 1.5f).input("X", rf({4, 6}, 4, -2, 2)).output("Y");
    t.run();
  }
  {
    CudaTester t("HardSigmoid", 6);
    t.attr("alpha", 0.3f).attr("beta", 0.4f).input("X", rf({4, 6}, 5, -4, 4)).output("Y");
    t.run();
  }
  {
    CudaTester t("ThresholdedRelu", 10);
    t.attr("alpha", 0.5f).input("X", rf({4, 6}, 6, -2, 2)).output("Y");
    t.run();
  }
  for (const char* approx : {"none", "tanh"}) {
    CudaTester t("Gelu", 20);
    t.attr("approximate", approx).input("X", rf({3, 50}, 7, -4, 4)).output("Y");
    t.run();
  }
}

TEST(CudaElementwise, ClipEveryForm) {
  OINFER_SKIP_WITHOUT_CUDA();
  {
    CudaTester t("Clip", 6);
    t.attr("min", -0.5f).attr("max", 0.25f).input("X", rf({5, 4}, 1)).output("Y");
    t.run();
  }
  {  // constant bounds
    CudaTester t("Clip", 13);
    t.input("X", rf({5, 4}, 2)).constantInput("min", Tensor::scalar<float>(-0.3f));
    t.constantInput("max", Tensor::scalar<float>(0.6f)).output("Y");
    t.run();
  }
  {  // bounds computed at run time: host inputs
    CudaTester t("Clip", 13);
    t.input("X", rf({5, 4}, 3)).input("min", Tensor::scalar<float>(-0.1f)).output("Y");
    t.run();
  }
  {  // only max
    CudaTester t("Clip", 13);
    t.input("X", rf({9}, 4)).absentInput().constantInput("max", Tensor::scalar<float>(0.f)).output("Y");
    t.run();
  }
}

TEST(CudaElementwise, Cast) {
  OINFER_SKIP_WITHOUT_CUDA();
  struct Case {
    Tensor x;
    DataType to;
  };
  const Case cases[] = {
      {rf({3, 4}, 1, -100, 100), DataType::kInt64},
      {rf({3, 4}, 2), DataType::kFloat16},
      {rf({3, 4}, 3, -2, 2), DataType::kBool},
      {rf({3, 4}, 4), DataType::kDouble},
      {randomTensor<int64_t>({9}, 5, -1000, 1000), DataType::kFloat},
      {randomTensor<int32_t>({9}, 6, -1000, 1000), DataType::kInt64},
      {randomTensor<bool>({9}, 7), DataType::kFloat},
      {rh({9}, 8), DataType::kFloat},
      {randomTensor<uint8_t>({9}, 9, 0, 255), DataType::kInt32},
  };
  for (const Case& c : cases) {
    CudaTester t("Cast", 13);
    t.attr("to", static_cast<int64_t>(c.to)).input("X", c.x).output("Y");
    t.run();
  }
}

TEST(CudaElementwise, HalfPrecision) {
  OINFER_SKIP_WITHOUT_CUDA();
  {
    CudaTester t("Add", 14);
    t.input("A", rh({4, 8}, 1)).input("B", rh({8}, 2)).output("C").tolerance(1e-3, 1e-3);
    t.run();
  }
  for (const char* op : {"Relu", "Sigmoid", "Tanh", "Exp"}) {
    CudaTester t(op, 14);
    t.input("X", rh({5, 7}, 3)).output("Y").tolerance(1e-3, 1e-3);
    t.run();
  }
}

// ---- tensor ops ---------------------------------------------------------------------

TEST(CudaTensor, ConcatAndSplit) {
  OINFER_SKIP_WITHOUT_CUDA();
  for (int64_t axis : {0, 1, -1}) {
    V a{2, 3, 4}, b{2, 3, 4}, c{2, 3, 4};
    const int64_t ax = axis < 0 ? 2 : axis;
    b[ax] = 1;
    c[ax] = 5;
    CudaTester t("Concat", 13);
    t.attr("axis", axis).input("A", rf(a, 1)).input("B", rf(b, 2)).input("C", rf(c, 3)).output("Y");
    t.run();
  }
  {
    CudaTester t("Concat", 13);
    t.attr("axis", 0).input("A", randomTensor<int64_t>({3}, 4, 0, 9)).constantInput("B", i64v({7, 8})).output("Y");
    t.run();
  }
  {
    CudaTester t("Split", 13);
    t.attr("axis", 1).input("X", rf({2, 6, 3}, 5)).constantInput("split", i64v({1, 2, 3})).output("a").output("b").output("c");
    t.run();
  }
  {
    CudaTester t("Split", 18);
    t.attr("axis", -1).attr("num_outputs", 2).input("X", rf({3, 5}, 6)).output("a").output("b");
    t.run();
  }
  {
    CudaTester t("Split", 11);
    t.attr("axis", 0).attr("split", V{2, 2}).input("X", rf({4, 3}, 7)).output("a").output("b");
    t.run();
  }
}

TEST(CudaTensor, Slice) {
  OINFER_SKIP_WITHOUT_CUDA();
  {
    CudaTester t("Slice", 13);
    t.input("X", rf({5, 6, 7}, 1)).constantInput("starts", i64v({1, -1})).constantInput("ends", i64v({4, -7}));
    t.constantInput("axes", i64v({0, 2})).constantInput("steps", i64v({2, -2})).output("Y");
    t.run();
  }
  {  // starts/ends known only at run time: host inputs
    CudaTester t("Slice", 13);
    t.input("X", rf({8, 3}, 2)).input("starts", i64v({2})).input("ends", i64v({100})).output("Y");
    t.run();
  }
  {
    CudaTester t("Slice", 1);
    t.attr("starts", V{0, 1}).attr("ends", V{2, 3}).attr("axes", V{1, 2});
    t.input("X", randomTensor<int64_t>({2, 4, 5}, 3, -9, 9)).output("Y");
    t.run();
  }
}

TEST(CudaTensor, TransposeExpandGather) {
  OINFER_SKIP_WITHOUT_CUDA();
  for (const V& perm : {V{1, 0, 2}, V{2, 0, 1}, V{0, 2, 1}}) {
    CudaTester t("Transpose", 13);
    t.attr("perm", perm).input("X", rf({3, 4, 5}, 1)).output("Y");
    t.run();
  }
  {
    CudaTester t("Transpose", 13);
    t.input("X", rf({2, 3, 4, 5}, 2)).output("Y");
    t.run();
  }
  {
    CudaTester t("Expand", 13);
    t.input("X", rf({3, 1}, 3)).constantInput("shape", i64v({2, 3, 4})).output("Y");
    t.run();
  }
  {
    CudaTester t("Expand", 13);
    t.input("X", randomTensor<bool>({1, 4}, 4)).constantInput("shape", i64v({3, 1})).output("Y");
    t.run();
  }
  {
    CudaTester t("Gather", 13);
    t.attr("axis", 0).constantInput("data", rf({10, 8}, 5)).constantInput("idx", i64({2, 3}, {0, 9, -1, 4, 4, 2})).output("Y");
    t.run();
  }
  {
    CudaTester t("Gather", 13);
    t.attr("axis", 1).input("data", rf({3, 5, 2}, 6));
    // Constant indices: the device kernel takes only those (it range-checks
    // them on the host); run-time indices run on the CPU kernel.
    t.constantInput("idx", Tensor::fromVector<int32_t>({4}, {4, 0, -2, 1})).output("Y");
    t.run();
  }
  {
    CudaTester t("Gather", 13);
    t.attr("axis", 0).input("data", randomTensor<int64_t>({6}, 7, 0, 99)).constantInput("idx", Tensor::scalar<int64_t>(3));
    t.output("Y");
    t.run();
  }
}

TEST(CudaTensor, PadEveryMode) {
  OINFER_SKIP_WITHOUT_CUDA();
  for (const char* mode : {"constant", "reflect", "edge", "wrap"}) {
    CudaTester t("Pad", 19);
    t.attr("mode", mode).input("X", rf({2, 3, 4}, 1)).constantInput("pads", i64v({0, 1, 2, 1, 2, 3}));
    t.constantInput("value", Tensor::scalar<float>(0.5f)).output("Y");
    t.run();
  }
  {  // negative pads crop
    CudaTester t("Pad", 13);
    t.input("X", rf({4, 5}, 2)).constantInput("pads", i64v({-1, 2, 0, -2})).output("Y");
    t.run();
  }
  {  // opset 18 axes
    CudaTester t("Pad", 18);
    t.input("X", rf({2, 3, 4}, 3)).constantInput("pads", i64v({1, 2})).absentInput().constantInput("axes", i64v({-1}));
    t.output("Y");
    t.run();
  }
  {
    CudaTester t("Pad", 2);
    t.attr("pads", V{1, 0, 1, 0}).attr("value", 2.5f).input("X", rf({2, 2}, 4)).output("Y");
    t.run();
  }
}

TEST(CudaTensor, ResizeNearestAndLinear) {
  OINFER_SKIP_WITHOUT_CUDA();
  struct Case {
    const char* mode;
    const char* coord;
    const char* nearest;
  };
  const Case cases[] = {{"nearest", "asymmetric", "floor"},          {"nearest", "half_pixel", "round_prefer_floor"},
                        {"nearest", "align_corners", "round_prefer_ceil"}, {"linear", "half_pixel", ""},
                        {"linear", "align_corners", ""},               {"linear", "pytorch_half_pixel", ""},
                        {"linear", "asymmetric", ""}};
  uint32_t seed = 1;
  for (const Case& c : cases) {
    for (const F& scales : {F{1, 1, 2, 2}, F{1, 1, 0.5f, 0.75f}, F{1, 1, 1.5f, 3}}) {
      CudaTester t("Resize", 13);
      t.attr("mode", c.mode).attr("coordinate_transformation_mode", c.coord);
      if (*c.nearest) t.attr("nearest_mode", c.nearest);
      t.input("X", rf({1, 2, 4, 6}, ++seed)).absentInput();
      t.constantInput("scales", Tensor::fromVector<float>({4}, scales)).output("Y");
      t.run();
    }
    CudaTester s("Resize", 13);
    s.attr("mode", c.mode).attr("coordinate_transformation_mode", c.coord);
    if (*c.nearest) s.attr("nearest_mode", c.nearest);
    s.input("X", rf({2, 1, 5, 3}, ++seed)).absentInput().absentInput();
    s.constantInput("sizes", i64v({2, 1, 7, 8})).output("Y");
    s.run();
  }
  {
    CudaTester t("Upsample", 9);
    t.attr("mode", "nearest").input("X", rf({1, 1, 3, 3}, 99));
    t.constantInput("scales", Tensor::fromVector<float>({4}, {1, 1, 2, 2})).output("Y");
    t.run();
  }
}

// ---- reductions and normalization ---------------------------------------------------------

TEST(CudaReduce, ReduceOpsAxesAndKeepdims) {
  OINFER_SKIP_WITHOUT_CUDA();
  uint32_t seed = 1;
  for (const char* op : {"ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceSumSquare",
                         "ReduceL1", "ReduceL2", "ReduceLogSumExp"}) {
    for (const V& axes : {V{1}, V{0, 2}, V{-1}, V{}})
      for (int64_t keep : {0, 1}) {
        const bool axesInput = std::string(op) == "ReduceSum";  // an input from opset 13 on
        CudaTester t(op, 13);
        if (!axes.empty() && !axesInput) t.attr("axes", axes);
        t.attr("keepdims", keep);
        t.input("X", rf({3, 4, 40}, ++seed, 0.1, 1));
        if (!axes.empty() && axesInput) t.constantInput("axes", i64v(axes));
        t.output("Y");
        t.run();
      }
  }
  {  // axes as input (opset 18), also a long reduction for the warp path
    CudaTester t("ReduceMean", 18);
    t.input("X", rf({2, 3000}, 50)).constantInput("axes", i64v({1})).output("Y");
    t.run();
  }
  {
    CudaTester t("ReduceLogSum", 18);
    t.input("X", rf({4, 5}, 51, 0.5, 2)).constantInput("axes", i64v({0})).output("Y");
    t.run();
  }
  {  // noop_with_empty_axes
    CudaTester t("ReduceMax", 18);
    t.attr("noop_with_empty_axes", 1).input("X", rf({3, 4}, 52)).output("Y");
    t.run();
  }
  {
    CudaTester t("ReduceSum", 13);
    t.input("X", randomTensor<int64_t>({5, 6}, 53, -9, 9)).constantInput("axes", i64v({1})).output("Y");
    t.run();
  }
}

TEST(CudaReduce, SoftmaxAndLogSoftmax) {
  OINFER_SKIP_WITHOUT_CUDA();
  for (const char* op : {"Softmax", "LogSoftmax"}) {
    for (int64_t axis : {-1, 1, 0}) {
      CudaTester t(op, 13);
      t.attr("axis", axis).input("X", rf({3, 5, 7}, 1, -5, 5)).output("Y");
      t.run();
    }
    CudaTester c(op, 11);  // before 13: coerced to 2-d at axis
    c.attr("axis", 1).input("X", rf({2, 3, 4}, 2, -5, 5)).output("Y");
    c.run();
    CudaTester big(op, 13);
    big.input("X", rf({4, 2000}, 3, -8, 8)).output("Y");
    big.run();
    CudaTester h(op, 13);
    h.input("X", rh({4, 33}, 4, -4, 4)).output("Y").tolerance(2e-3, 2e-3);
    h.run();
  }
}

TEST(CudaNorm, LayerNormalization) {
  OINFER_SKIP_WITHOUT_CUDA();
  {
    CudaTester t("LayerNormalization", 17);
    t.input("X", rf({4, 6, 768}, 1)).constantInput("S", rf({768}, 2)).constantInput("B", rf({768}, 3)).output("Y");
    t.run();
  }
  {
    CudaTester t("LayerNormalization", 17);
    t.attr("axis", -2).attr("epsilon", 1e-3f).input("X", rf({3, 5, 4}, 4)).input("S", rf({5, 4}, 5));
    t.output("Y").output("Mean").output("InvStd");
    t.run();
  }
  {
    CudaTester t("LayerNormalization", 17);
    t.input("X", rf({7, 33}, 6)).constantInput("S", rf({33}, 7)).output("Y");
    t.run();
  }
}

TEST(CudaNorm, BatchNormalizationInference) {
  OINFER_SKIP_WITHOUT_CUDA();
  for (int64_t opset : {7, 9, 15}) {
    CudaTester t("BatchNormalization", opset);
    t.attr("epsilon", 1e-3f).input("X", rf({2, 3, 4, 5}, 1)).constantInput("s", rf({3}, 2));
    t.constantInput("b", rf({3}, 3)).constantInput("m", rf({3}, 4)).constantInput("v", rf({3}, 5, 0.5, 2)).output("Y");
    t.run();
  }
}

// ---- pools ------------------------------------------------------------------------------------

TEST(CudaPool, MaxAndAveragePool) {
  OINFER_SKIP_WITHOUT_CUDA();
  struct Case {
    V x;
    V k, s, pads, dil;
    int64_t ceil = 0, countPad = 0;
    const char* autoPad = "NOTSET";
  };
  const Case cases[] = {
      {{2, 3, 9, 9}, {3, 3}, {2, 2}, {1, 1, 1, 1}, {}},
      {{1, 2, 8, 7}, {2, 2}, {2, 2}, {0, 0, 1, 1}, {}, 1},
      {{1, 2, 8, 7}, {3, 3}, {2, 2}, {1, 1, 1, 1}, {}, 0, 1},
      {{1, 2, 10}, {3}, {1}, {1, 2}, {}},
      {{1, 1, 4, 5, 6}, {2, 2, 2}, {1, 2, 2}, {0, 0, 0, 1, 1, 1}, {}},
      {{1, 2, 7, 7}, {3, 3}, {1, 1}, {}, {}, 0, 0, "SAME_UPPER"},
      {{1, 2, 9, 9}, {3, 3}, {1, 1}, {2, 2, 2, 2}, {2, 2}},
  };
  uint32_t seed = 1;
  for (const Case& c : cases)
    for (const char* op : {"MaxPool", "AveragePool"}) {
      const bool avg = std::string(op) == "AveragePool";
      CudaTester t(op, avg ? 19 : 12);
      t.attr("kernel_shape", c.k).attr("strides", c.s);
      if (!c.pads.empty()) t.attr("pads", c.pads);
      if (!c.dil.empty()) t.attr("dilations", c.dil);
      if (std::string(c.autoPad) != "NOTSET") t.attr("auto_pad", c.autoPad);
      t.attr("ceil_mode", c.ceil);
      if (avg) t.attr("count_include_pad", c.countPad);
      t.input("X", rf(c.x, ++seed)).output("Y");
      t.run();
    }
}

TEST(CudaPool, GlobalPools) {
  OINFER_SKIP_WITHOUT_CUDA();
  for (const char* op : {"GlobalAveragePool", "GlobalMaxPool"})
    for (const V& x : {V{2, 3, 7, 7}, V{1, 64, 1, 1}, V{2, 4, 9}, V{1, 3, 2, 3, 4}}) {
      CudaTester t(op, 1);
      t.input("X", rf(x, 7)).output("Y");
      t.run();
    }
  CudaTester h("GlobalAveragePool", 1);
  h.input("X", rh({1, 8, 7, 7}, 8)).output("Y").tolerance(2e-3, 2e-3);
  h.run();
}

// ---- Conv, ConvTranspose, Gemm, MatMul ---------------------------------------------------------

TEST(CudaConv, ConvShapesAndAttributes) {
  OINFER_SKIP_WITHOUT_CUDA();
  struct Case {
    V x, w;
    int64_t group = 1;
    V s, pads, dil;
    bool bias = true;
    const char* autoPad = "NOTSET";
  };
  const Case cases[] = {
      {{1, 3, 8, 8}, {4, 3, 3, 3}, 1, {1, 1}, {1, 1, 1, 1}, {}},
      {{2, 4, 9, 7}, {6, 2, 3, 3}, 2, {2, 2}, {1, 1, 1, 1}, {}},
      {{1, 4, 8, 8}, {4, 1, 3, 3}, 4, {1, 1}, {1, 1, 1, 1}, {}, false},
      {{1, 2, 10, 10}, {3, 2, 3, 3}, 1, {1, 1}, {2, 2, 2, 2}, {2, 2}},
      {{1, 2, 9, 9}, {3, 2, 2, 2}, 1, {1, 1}, {0, 0, 1, 1}, {}},
      {{1, 2, 8, 8}, {3, 2, 4, 4}, 1, {2, 2}, {}, {}, true, "SAME_UPPER"},
      {{2, 3, 20}, {5, 3, 5}, 1, {2}, {2, 2}, {}},
      {{1, 2, 5, 6, 7}, {3, 2, 3, 3, 3}, 1, {1, 1, 1}, {1, 1, 1, 1, 1, 1}, {}},
      {{1, 64, 14, 14}, {32, 64, 1, 1}, 1, {1, 1}, {0, 0, 0, 0}, {}},
  };
  uint32_t seed = 1;
  for (const Case& c : cases) {
    CudaTester t("Conv", 11);
    t.attr("group", c.group).attr("strides", c.s);
    if (!c.pads.empty()) t.attr("pads", c.pads);
    if (!c.dil.empty()) t.attr("dilations", c.dil);
    if (std::string(c.autoPad) != "NOTSET") t.attr("auto_pad", c.autoPad);
    t.input("X", rf(c.x, ++seed)).constantInput("W", rf(c.w, ++seed));
    if (c.bias) t.constantInput("B", rf({c.w[0]}, ++seed));
    t.output("Y").tolerance(1e-4, 1e-4);
    t.run();
  }
  {  // weights not constant: a device input
    CudaTester t("Conv", 22);
    t.input("X", rf({1, 2, 6, 6}, 90)).input("W", rf({2, 2, 3, 3}, 91)).output("Y").tolerance(1e-4, 1e-4);
    t.run();
  }
  {
    CudaTester t("Conv", 11);
    t.input("X", rh({1, 8, 10, 10}, 92)).constantInput("W", rh({8, 8, 3, 3}, 93)).constantInput("B", rh({8}, 94));
    t.output("Y").tolerance(1e-2, 1e-2);
    t.run();
  }
}

TEST(CudaConv, ConvTranspose) {
  OINFER_SKIP_WITHOUT_CUDA();
  struct Case {
    V x, w;
    int64_t group = 1;
    V s, pads, outPad;
  };
  const Case cases[] = {
      {{1, 4, 5, 5}, {4, 3, 3, 3}, 1, {2, 2}, {1, 1, 1, 1}, {}},
      {{1, 4, 5, 5}, {4, 3, 3, 3}, 1, {2, 2}, {1, 1, 1, 1}, {1, 1}},
      {{2, 4, 4, 6}, {4, 2, 4, 4}, 2, {2, 2}, {1, 1, 1, 1}, {}},
      {{1, 2, 4, 4}, {2, 3, 3, 3}, 1, {1, 1}, {0, 1, 2, 0}, {}},
      {{1, 3, 7}, {3, 2, 4}, 1, {3}, {0, 0}, {}},
  };
  uint32_t seed = 1;
  for (const Case& c : cases) {
    CudaTester t("ConvTranspose", 11);
    t.attr("group", c.group).attr("strides", c.s).attr("pads", c.pads);
    if (!c.outPad.empty()) t.attr("output_padding", c.outPad);
    t.input("X", rf(c.x, ++seed)).constantInput("W", rf(c.w, ++seed)).constantInput("B", rf({c.w[1] * c.group}, ++seed));
    t.output("Y").tolerance(1e-4, 1e-4);
    t.run();
  }
  {
    CudaTester t("ConvTranspose", 11);
    t.attr("strides", V{2, 2}).attr("output_shape", V{10, 10});
    t.input("X", rf({1, 2, 5, 5}, 50)).constantInput("W", rf({2, 2, 3, 3}, 51)).output("Y").tolerance(1e-4, 1e-4);
    t.run();
  }
}

TEST(CudaGemm, GemmForms) {
  OINFER_SKIP_WITHOUT_CUDA();
  struct Case {
    V a, b, c;
    int64_t transA = 0, transB = 0;
    float alpha = 1, beta = 1;
  };
  const Case cases[] = {
      {{5, 7}, {7, 3}, {3}},          {{7, 5}, {7, 3}, {5, 3}, 1, 0, 0.5f, 2.f},
      {{5, 7}, {3, 7}, {5, 1}, 0, 1}, {{7, 5}, {3, 7}, {}, 1, 1},
      {{1, 2048}, {1000, 2048}, {1000}, 0, 1},
      {{4, 6}, {6, 2}, {1}, 0, 0, 1.f, 0.f},
  };
  uint32_t seed = 1;
  for (const Case& c : cases) {
    CudaTester t("Gemm", 13);
    t.attr("transA", c.transA).attr("transB", c.transB).attr("alpha", c.alpha).attr("beta", c.beta);
    t.input("A", rf(c.a, ++seed)).constantInput("B", rf(c.b, ++seed));
    if (!c.c.empty()) t.constantInput("C", rf(c.c, ++seed));
    t.output("Y").tolerance(1e-4, 1e-4);
    t.run();
  }
}

TEST(CudaGemm, MatMulBatchingAndBroadcast) {
  OINFER_SKIP_WITHOUT_CUDA();
  const std::vector<std::pair<V, V>> shapes = {
      {{4, 5}, {5, 3}},          {{2, 3, 4, 5}, {5, 6}},   {{3, 4, 5}, {3, 5, 2}},   {{4, 5}, {2, 5, 3}},
      {{2, 1, 4, 5}, {3, 5, 6}}, {{5}, {5, 3}},            {{2, 4, 5}, {5}},         {{5}, {5}},
      {{1, 128, 768}, {768, 768}}, {{2, 12, 16, 64}, {2, 12, 64, 16}},
  };
  uint32_t seed = 1;
  for (const auto& [a, b] : shapes) {
    CudaTester t("MatMul", 13);
    t.input("A", rf(a, ++seed)).input("B", rf(b, ++seed)).output("Y").tolerance(1e-4, 1e-4);
    t.run();
  }
  {  // constant weights are uploaded once
    CudaTester t("MatMul", 13);
    t.input("A", rf({3, 8}, 70)).constantInput("B", rf({8, 4}, 71)).output("Y").tolerance(1e-4, 1e-4);
    t.run();
  }
  {
    CudaTester t("MatMul", 13);
    t.input("A", rh({3, 64}, 72)).input("B", rh({64, 16}, 73)).output("Y").tolerance(1e-2, 1e-2);
    t.run();
  }
}

// ---- ai.oinfer fused ops (emitted by the transformer graph passes) -----------------------

TEST(CudaFused, FusedMatMulLayerNormGelu) {
  OINFER_SKIP_WITHOUT_CUDA();
  for (const char* act : {"", "Relu", "Gelu"}) {
    CudaTester t("FusedMatMul", 1, "ai.oinfer");
    if (*act) t.attr("activation", act);
    t.input("A", rf({2, 5, 16}, 1)).constantInput("B", rf({16, 12}, 2)).constantInput("bias", rf({12}, 3));
    t.output("Y").tolerance(1e-4, 1e-4);
    t.run();
  }
  {  // transB with a residual
    CudaTester t("FusedMatMul", 1, "ai.oinfer");
    t.attr("transB", 1).input("A", rf({6, 16}, 4)).constantInput("B", rf({12, 16}, 5)).absentInput();
    t.input("R", rf({6, 12}, 6)).output("Y").tolerance(1e-4, 1e-4);
    t.run();
  }
  {
    CudaTester t("LayerNorm", 1, "ai.oinfer");
    t.input("X", rf({3, 4, 64}, 7)).constantInput("g", rf({64}, 8)).constantInput("b", rf({64}, 9));
    t.input("skip", rf({3, 4, 64}, 10)).output("Y").output("sum");
    t.run();
  }
  {
    CudaTester t("LayerNorm", 1, "ai.oinfer");
    t.input("X", rf({5, 48}, 11)).constantInput("g", rf({48}, 12)).input("b", rf({48}, 13));
    t.input("skip", rf({5, 48}, 14)).output("Y");
    t.run();
  }
  for (const char* act : {"Relu", "Clip", "LeakyRelu", "Sigmoid"}) {  // FusedConv: act(conv + Z + bias)
    CudaTester t("FusedConv", 1, "ai.oinfer");
    t.attr("activation", act).attr("pads", V{1, 1, 1, 1});
    if (std::string(act) == "Clip") t.attr("activation_params", F{0.f, 6.f});
    t.input("X", rf({1, 4, 7, 7}, 20)).constantInput("W", rf({6, 4, 3, 3}, 21)).constantInput("B", rf({6}, 22));
    t.input("Z", rf({1, 6, 7, 7}, 23)).output("Y").tolerance(1e-4, 1e-4);
    t.run();
  }
  {
    CudaTester t("Gelu", 1, "ai.oinfer");
    t.input("X", rf({4, 100}, 15, -4, 4)).output("Y");
    t.run();
  }
}

}  // namespace
}  // namespace oinfer::testing
