// CUDA Conv and ConvTranspose through cuDNN's legacy convolution API.
//
// Per input shape (cached under a lock; chosen in the first run with that
// shape) the kernel builds the tensor, filter and convolution descriptors,
// picks an algorithm with cudnnGet*Algorithm_v7 (heuristics, no trial runs,
// so the choice is cheap and deterministic), and sizes the workspace. cuDNN
// pads symmetrically only: asymmetric Conv pads (SAME_UPPER with even
// kernels, explicit pads) first pad the input into the workspace with our pad
// kernel; ConvTranspose with asymmetric pads or output_padding computes the
// unpadded full output into the workspace and crops it. Bias and an optional
// fused activation (attribute "activation", set only by a fusion pass on
// nodes placed on CUDA) run as one epilogue launch. fp32 uses FMA math (no
// TF32) unless the context allows TF32.
#include <algorithm>
#include <map>
#include <mutex>

#include "ops/cuda/cuda_ops.h"
#include "shape/conv.h"

namespace oinfer::cuda {
namespace {

size_t alignUp(size_t n) { return (n + 255) & ~size_t(255); }

cudnnDataType_t cudnnType(DataType t) { return t == DataType::kFloat16 ? CUDNN_DATA_HALF : CUDNN_DATA_FLOAT; }

struct Descs {
  cudnnTensorDescriptor_t x = nullptr, y = nullptr;
  cudnnFilterDescriptor_t w = nullptr;
  cudnnConvolutionDescriptor_t conv = nullptr;
  Descs() {
    check(cudnnCreateTensorDescriptor(&x), "cudnnCreateTensorDescriptor");
    check(cudnnCreateTensorDescriptor(&y), "cudnnCreateTensorDescriptor");
    check(cudnnCreateFilterDescriptor(&w), "cudnnCreateFilterDescriptor");
    check(cudnnCreateConvolutionDescriptor(&conv), "cudnnCreateConvolutionDescriptor");
  }
  ~Descs() {
    cudnnDestroyTensorDescriptor(x);
    cudnnDestroyTensorDescriptor(y);
    cudnnDestroyFilterDescriptor(w);
    cudnnDestroyConvolutionDescriptor(conv);
  }
  Descs(const Descs&) = delete;
  Descs& operator=(const Descs&) = delete;
};

// dims padded to rank 4 (1-d convs run as 2-d with height 1).
std::vector<int> cudnnDims(const std::vector<int64_t>& d) {
  std::vector<int> out;
  for (int64_t v : d) out.push_back(static_cast<int>(v));
  if (out.size() == 3) out.insert(out.begin() + 2, 1);
  return out;
}

void setTensor(cudnnTensorDescriptor_t desc, DataType t, const std::vector<int64_t>& dims, const Node* node) {
  const std::vector<int> d = cudnnDims(dims);
  std::vector<int> st(d.size(), 1);
  for (size_t i = d.size() - 1; i-- > 0;) st[i] = st[i + 1] * d[i + 1];
  check(cudnnSetTensorNdDescriptor(desc, cudnnType(t), static_cast<int>(d.size()), d.data(), st.data()),
        "cudnnSetTensorNdDescriptor", node);
}

void setConv(const Descs& ds, DataType t, const std::vector<int64_t>& wDims, const std::vector<int64_t>& pads,
             const std::vector<int64_t>& strides, const std::vector<int64_t>& dil, int64_t group, bool tf32,
             const Node* node) {
  const std::vector<int> w = cudnnDims(wDims);
  check(cudnnSetFilterNdDescriptor(ds.w, cudnnType(t), CUDNN_TENSOR_NCHW, static_cast<int>(w.size()), w.data()),
        "cudnnSetFilterNdDescriptor", node);
  std::vector<int> p, s, d;
  if (pads.size() == 1) p.push_back(0), s.push_back(1), d.push_back(1);
  for (size_t i = 0; i < pads.size(); ++i) {
    p.push_back(static_cast<int>(pads[i]));
    s.push_back(static_cast<int>(strides[i]));
    d.push_back(static_cast<int>(dil[i]));
  }
  check(cudnnSetConvolutionNdDescriptor(ds.conv, static_cast<int>(p.size()), p.data(), s.data(), d.data(),
                                        CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT),
        "cudnnSetConvolutionNdDescriptor", node);
  check(cudnnSetConvolutionGroupCount(ds.conv, static_cast<int>(group)), "cudnnSetConvolutionGroupCount", node);
  const cudnnMathType_t math =
      t == DataType::kFloat16 ? CUDNN_TENSOR_OP_MATH : (tf32 ? CUDNN_DEFAULT_MATH : CUDNN_FMA_MATH);
  check(cudnnSetConvolutionMathType(ds.conv, math), "cudnnSetConvolutionMathType", node);
}

// The first heuristic result that ran successfully; for exact fp32 only
// FMA-math results (CUDNN_DEFAULT_MATH permits TF32 on Ampere and later),
// else the first success forced to FMA math.
template <class Perf, class Algo>
bool chooseAlgo(const Perf* perf, int found, bool exactFp32, cudnnConvolutionDescriptor_t conv, Algo& algo,
                const Node* node) {
  int pick = -1;
  for (int i = 0; i < found && pick < 0; ++i)
    if (perf[i].status == CUDNN_STATUS_SUCCESS && (!exactFp32 || perf[i].mathType == CUDNN_FMA_MATH)) pick = i;
  cudnnMathType_t math = CUDNN_FMA_MATH;
  if (pick >= 0) {
    math = perf[pick].mathType;
  } else {
    for (int i = 0; i < found && pick < 0; ++i)
      if (perf[i].status == CUDNN_STATUS_SUCCESS) pick = i;
    if (pick < 0) return false;
    if (!exactFp32) math = perf[pick].mathType;
  }
  algo = perf[pick].algo;
  check(cudnnSetConvolutionMathType(conv, math), "cudnnSetConvolutionMathType", node);
  return true;
}

struct Activation {
  Un op = Un::kIdentity;
  UnParams p;
};

// The optional fused activation a fusion pass may put on a CUDA-placed node.
bool parseActivation(const Node& node, Activation& a) {
  const std::string s = node.attrString("activation", "");
  const std::vector<float> params = node.attrFloats("activation_params", {});
  const auto param = [&](size_t i, float def) { return i < params.size() ? params[i] : def; };
  if (s.empty() || s == "Identity") a.op = Un::kIdentity;
  else if (s == "Relu") a.op = Un::kRelu;
  else if (s == "LeakyRelu") a.op = Un::kLeakyRelu, a.p.a = param(0, 0.01f);
  else if (s == "Sigmoid") a.op = Un::kSigmoid;
  else if (s == "Tanh") a.op = Un::kTanh;
  else if (s == "Clip") a.op = Un::kClip, a.p.a = param(0, -3.4028235e38f), a.p.b = param(1, 3.4028235e38f);
  else if (s == "HardSwish") a.op = Un::kHardSwish;
  else if (s == "Gelu" && param(0, 0.f) == 0.f) a.op = Un::kGelu;  // erf form only
  else return false;  // HardSigmoid, SiLU, tanh-Gelu: the CPU kernel runs the node
  return true;
}

// Y (N x C x ...) gets `bias` (per channel; null: none) and the fused
// activation, in one launch; nothing when neither applies.
void biasActivation(KernelContext& ctx, const Run& r, Tensor& y, const void* bias, const Activation& act) {
  if (!bias && act.op == Un::kIdentity) return;
  int64_t inner = 1;
  for (size_t d = 2; d < y.rank(); ++d) inner *= y.dim(d);
  checkLaunch(launchBiasAct(dtOf(y.dtype()), y.data(), bias, y.numel(), y.dim(1), inner, act.op, act.p, r.stream),
              "launchBiasAct", ctx);
}

// ---- Conv -----------------------------------------------------------------------------

class ConvKernel final : public CudaKernel {
 public:
  ConvKernel(const KernelInit& init, Activation act)
      : group_(init.node.attrInt("group", 1)), act_(act),
        residual_(init.node.opType == "FusedConv" && init.hasInput(3)) {
    own(init, 1);
    if (init.hasInput(2)) own(init, 2);
  }

  size_t workspaceBytes() const override {
    std::lock_guard<std::mutex> lock(mu_);
    return maxWs_;
  }

  void run(KernelContext& ctx) override {
    Run r = runOf(ctx);
    const Tensor& x = ctx.input(0);
    Tensor& y = ctx.output(0);
    const Plan& p = planFor(ctx, r, x.shape(), shapeOf(ctx, 1), x.dtype());
    if (p.yDims != y.shape())
      ctx.fail("cuDNN output shape " + shapeToString(p.yDims) + " differs from the planned " + shapeToString(y.shape()));
    char* ws = static_cast<char*>(r.ctx.workspace(p.padBytes + p.algoBytes, &ctx.node()));
    const void* src = x.data();
    if (p.padBytes) {
      checkLaunch(launchPad(static_cast<int>(dataTypeSize(x.dtype())), x.data(), ws, p.pad, r.stream), "launchPad", ctx);
      src = ws;
    }
    const float one = 1.f, zero = 0.f;
    check(cudnnConvolutionForward(r.ctx.cudnn(), &one, p.d.x, src, p.d.w, in(ctx, 1), p.d.conv, p.algo,
                                  ws + p.padBytes, p.algoBytes, &zero, p.d.y, y.data()),
          "cudnnConvolutionForward", &ctx.node());
    if (residual_) {  // FusedConv: act(conv + Z + bias)
      const Tensor& z = ctx.input(3);
      if (z.shape() != y.shape())
        ctx.fail("input 3 (residual) has shape " + shapeToString(z.shape()) + ", expected the output's " +
                 shapeToString(y.shape()));
      BcastGeom bg;
      bg.flat = true;
      bg.n = y.numel();
      checkLaunch(launchBinary(Bin::kAdd, dtOf(y.dtype()), y.data(), z.data(), y.data(), bg, r.stream),
                  "launchBinary", ctx);
    }
    biasActivation(ctx, r, y, present(ctx, 2) ? in(ctx, 2) : nullptr, act_);
  }

 private:
  struct Plan {
    Descs d;
    std::vector<int64_t> yDims;
    cudnnConvolutionFwdAlgo_t algo = CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM;
    size_t algoBytes = 0, padBytes = 0;
    PadGeom pad;
  };

  const Plan& planFor(const KernelContext& ctx, Run& r, const std::vector<int64_t>& xs,
                      const std::vector<int64_t>& ws, DataType t) {
    std::vector<int64_t> key = xs;
    key.push_back(r.ctx.allowTF32 ? 1 : 0);
    std::lock_guard<std::mutex> lock(mu_);
    auto it = plans_.find(key);
    if (it != plans_.end()) return *it->second;
    const Node& node = ctx.node();
    if (xs.size() < 3 || xs.size() > 5 || ws.size() != xs.size())
      ctx.fail("input shape " + shapeToString(xs) + " and weight shape " + shapeToString(ws) +
               " need the same rank, 3 to 5");
    const size_t nd = xs.size() - 2;
    const shape::WindowAttrs a = shape::parseWindowAttrs(node, nd, false);
    auto plan = std::make_unique<Plan>();
    std::vector<int64_t> pads(nd), padded = xs;
    plan->yDims = {xs[0], ws[0]};
    bool asym = false;
    plan->pad.rank = static_cast<int>(xs.size());
    for (size_t d = 0; d < nd; ++d) {
      const int64_t k = ws[d + 2];
      if (!a.kernel.empty() && a.kernel[d] != k)
        ctx.fail("attribute 'kernel_shape' " + shapeToString(a.kernel) + " disagrees with the weight shape " +
                 shapeToString(ws));
      const shape::WindowDim wd = shape::windowDim(node, a, d, xs[d + 2], k);
      plan->yDims.push_back(wd.out);
      pads[d] = std::min(wd.padBegin, wd.padEnd);
      if (wd.padBegin != wd.padEnd) asym = true;
      padded[d + 2] = xs[d + 2] + (wd.padBegin - pads[d]) + (wd.padEnd - pads[d]);
      plan->pad.padBegin[d + 2] = wd.padBegin - pads[d];
    }
    if (asym) {
      plan->pad.n = 1;
      for (size_t d = 0; d < xs.size(); ++d) {
        plan->pad.odims[d] = padded[d];
        plan->pad.idims[d] = xs[d];
        plan->pad.n *= padded[d];
      }
      plan->padBytes = alignUp(static_cast<size_t>(plan->pad.n) * dataTypeSize(t));
    }
    if (xs[1] != ws[1] * group_) ctx.fail("input channels " + std::to_string(xs[1]) + " differ from weight channels " +
                                          std::to_string(ws[1]) + " x group " + std::to_string(group_));
    setTensor(plan->d.x, t, padded, &node);
    setTensor(plan->d.y, t, plan->yDims, &node);
    setConv(plan->d, t, ws, pads, a.strides, a.dilations, group_, r.ctx.allowTF32, &node);
    cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
    int found = 0;
    check(cudnnGetConvolutionForwardAlgorithm_v7(r.ctx.cudnn(), plan->d.x, plan->d.w, plan->d.conv, plan->d.y,
                                                 CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &found, perf),
          "cudnnGetConvolutionForwardAlgorithm_v7", &node);
    if (!chooseAlgo(perf, found, t == DataType::kFloat && !r.ctx.allowTF32, plan->d.conv, plan->algo, &node))
      ctx.fail("cuDNN found no forward algorithm for input " + shapeToString(xs));
    check(cudnnGetConvolutionForwardWorkspaceSize(r.ctx.cudnn(), plan->d.x, plan->d.w, plan->d.conv, plan->d.y,
                                                  plan->algo, &plan->algoBytes),
          "cudnnGetConvolutionForwardWorkspaceSize", &node);
    maxWs_ = std::max(maxWs_, plan->padBytes + plan->algoBytes);
    return *plans_.emplace(std::move(key), std::move(plan)).first->second;
  }

  int64_t group_;
  Activation act_;
  bool residual_;
  mutable std::mutex mu_;
  std::map<std::vector<int64_t>, std::unique_ptr<Plan>> plans_;
  size_t maxWs_ = 0;
};

// Conv, and the ai.oinfer FusedConv of the fuse_conv_activation pass (Conv's
// inputs plus a residual Z, and an activation; float32 like its CPU kernel).
std::unique_ptr<Kernel> makeConv(const KernelInit& init) {
  const DataType t = plannedType(init, 0);
  if (!isFloatLike(t) || plannedType(init, 1) != t) return nullptr;
  if (init.node.opType == "FusedConv" && t != DataType::kFloat) return nullptr;
  if (init.hasInput(2) && plannedType(init, 2) != t) return nullptr;
  Activation act;
  if (!parseActivation(init.node, act)) return nullptr;
  return std::make_unique<ConvKernel>(init, act);
}

// ---- ConvTranspose -------------------------------------------------------------------------

class ConvTransposeKernel final : public CudaKernel {
 public:
  ConvTransposeKernel(const KernelInit& init, Activation act) : group_(init.node.attrInt("group", 1)), act_(act) {
    own(init, 1);
    if (init.hasInput(2)) own(init, 2);
  }

  size_t workspaceBytes() const override {
    std::lock_guard<std::mutex> lock(mu_);
    return maxWs_;
  }

  void run(KernelContext& ctx) override {
    Run r = runOf(ctx);
    const Tensor& x = ctx.input(0);
    Tensor& y = ctx.output(0);
    const Plan& p = planFor(ctx, r, x.shape(), shapeOf(ctx, 1), x.dtype());
    if (p.yDims != y.shape())
      ctx.fail("computed output shape " + shapeToString(p.yDims) + " differs from the planned " + shapeToString(y.shape()));
    char* ws = static_cast<char*>(r.ctx.workspace(p.fullBytes + p.algoBytes, &ctx.node()));
    void* dst = p.fullBytes ? static_cast<void*>(ws) : y.data();
    const float one = 1.f, zero = 0.f;
    check(cudnnConvolutionBackwardData(r.ctx.cudnn(), &one, p.d.w, in(ctx, 1), p.d.y, x.data(), p.d.conv, p.algo,
                                       ws + p.fullBytes, p.algoBytes, &zero, p.d.x, dst),
          "cudnnConvolutionBackwardData", &ctx.node());
    if (p.fullBytes)
      checkLaunch(launchPad(static_cast<int>(dataTypeSize(x.dtype())), ws, y.data(), p.crop, r.stream), "launchPad", ctx);
    biasActivation(ctx, r, y, present(ctx, 2) ? in(ctx, 2) : nullptr, act_);
  }

 private:
  // In cuDNN's terms our input is dy of a forward conv whose input dx is our
  // output: d.y describes x, d.x the (full or final) output.
  struct Plan {
    Descs d;
    std::vector<int64_t> yDims;
    cudnnConvolutionBwdDataAlgo_t algo = CUDNN_CONVOLUTION_BWD_DATA_ALGO_1;
    size_t algoBytes = 0, fullBytes = 0;
    PadGeom crop;
  };

  const Plan& planFor(const KernelContext& ctx, Run& r, const std::vector<int64_t>& xs,
                      const std::vector<int64_t>& ws, DataType t) {
    std::vector<int64_t> key = xs;
    key.push_back(r.ctx.allowTF32 ? 1 : 0);
    std::lock_guard<std::mutex> lock(mu_);
    auto it = plans_.find(key);
    if (it != plans_.end()) return *it->second;
    const Node& node = ctx.node();
    if (xs.size() < 3 || xs.size() > 5 || ws.size() != xs.size())
      ctx.fail("input shape " + shapeToString(xs) + " and weight shape " + shapeToString(ws) +
               " need the same rank, 3 to 5");
    const size_t nd = xs.size() - 2;
    const shape::WindowAttrs a = shape::parseWindowAttrs(node, nd, false);
    std::vector<int64_t> outPad = node.attrInts("output_padding", {});
    if (outPad.empty()) outPad.assign(nd, 0);
    std::vector<int64_t> outShape = node.attrInts("output_shape", {});
    if (outShape.size() == nd + 2) outShape.erase(outShape.begin(), outShape.begin() + 2);
    if (outPad.size() != nd || (!outShape.empty() && outShape.size() != nd))
      ctx.fail("attributes 'output_padding' / 'output_shape' need one value per spatial dim");
    if (xs[1] != ws[0] || ws[0] % group_ != 0)
      ctx.fail("input shape " + shapeToString(xs) + " and weight shape " + shapeToString(ws) +
               " do not agree with group " + std::to_string(group_));
    auto plan = std::make_unique<Plan>();
    plan->yDims = {xs[0], ws[1] * group_};
    std::vector<int64_t> full = plan->yDims, pads(nd, 0), begins(nd, 0);
    bool direct = true;
    for (size_t d = 0; d < nd; ++d) {
      const int64_t k = ws[d + 2];
      const shape::WindowDim wd =
          shape::transposeDim(node, a, d, xs[d + 2], k, outPad[d], outShape.empty() ? -1 : outShape[d]);
      plan->yDims.push_back(wd.out);
      const int64_t natural = a.strides[d] * (xs[d + 2] - 1) + (k - 1) * a.dilations[d] + 1;
      full.push_back(natural);
      begins[d] = wd.padBegin;
      if (!(wd.padBegin == wd.padEnd && wd.padBegin >= 0 && wd.out == natural - 2 * wd.padBegin)) direct = false;
      pads[d] = wd.padBegin;
    }
    if (!direct) {
      std::fill(pads.begin(), pads.end(), 0);
      plan->crop.rank = static_cast<int>(xs.size());
      plan->crop.n = 1;
      for (size_t d = 0; d < full.size(); ++d) {
        plan->crop.odims[d] = plan->yDims[d];
        plan->crop.idims[d] = full[d];
        plan->crop.padBegin[d] = d >= 2 ? -begins[d - 2] : 0;
        plan->crop.n *= plan->yDims[d];
      }
      int64_t fullN = 1;
      for (int64_t v : full) fullN *= v;
      plan->fullBytes = alignUp(static_cast<size_t>(fullN) * dataTypeSize(t));
    }
    setTensor(plan->d.x, t, direct ? plan->yDims : full, &node);
    setTensor(plan->d.y, t, xs, &node);
    setConv(plan->d, t, ws, pads, a.strides, a.dilations, group_, r.ctx.allowTF32, &node);
    cudnnConvolutionBwdDataAlgoPerf_t perf[CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT];
    int found = 0;
    check(cudnnGetConvolutionBackwardDataAlgorithm_v7(r.ctx.cudnn(), plan->d.w, plan->d.y, plan->d.conv, plan->d.x,
                                                      CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT, &found, perf),
          "cudnnGetConvolutionBackwardDataAlgorithm_v7", &node);
    if (!chooseAlgo(perf, found, t == DataType::kFloat && !r.ctx.allowTF32, plan->d.conv, plan->algo, &node))
      ctx.fail("cuDNN found no backward-data algorithm for input " + shapeToString(xs));
    check(cudnnGetConvolutionBackwardDataWorkspaceSize(r.ctx.cudnn(), plan->d.w, plan->d.y, plan->d.conv, plan->d.x,
                                                       plan->algo, &plan->algoBytes),
          "cudnnGetConvolutionBackwardDataWorkspaceSize", &node);
    maxWs_ = std::max(maxWs_, plan->fullBytes + plan->algoBytes);
    return *plans_.emplace(std::move(key), std::move(plan)).first->second;
  }

  int64_t group_;
  Activation act_;
  mutable std::mutex mu_;
  std::map<std::vector<int64_t>, std::unique_ptr<Plan>> plans_;
  size_t maxWs_ = 0;
};

std::unique_ptr<Kernel> makeConvTranspose(const KernelInit& init) {
  const DataType t = plannedType(init, 0);
  if (!isFloatLike(t) || plannedType(init, 1) != t) return nullptr;
  if (init.hasInput(2) && plannedType(init, 2) != t) return nullptr;
  Activation act;
  if (!parseActivation(init.node, act)) return nullptr;
  return std::make_unique<ConvTransposeKernel>(init, act);
}

}  // namespace

std::vector<CudaOp> convOps() {
  return {{"Conv", makeConv}, {"ConvTranspose", makeConvTranspose}, {"FusedConv", makeConv, "ai.oinfer"}};
}

}  // namespace oinfer::cuda
