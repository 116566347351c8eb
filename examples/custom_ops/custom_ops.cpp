// An oinfer custom-op plugin with two ops, built against the installed
// headers only (it links no oinfer library; see CMakeLists.txt):
//
//   custom::deform_conv2d     torchvision.ops.deform_conv2d as exported as a
//                             custom op: inputs (input, offset, weight,
//                             [mask], [bias]), attributes stride, padding,
//                             dilation (2 ints each), groups, offset_groups.
//                             Same numbers as ONNX DeformConv.
//   custom::DynamicTRTResize  resizes an NCHW float image to the (height,
//                             width) held in its second input (int64 or
//                             int32 [2]), a value known only at run time in
//                             general: the TensorRT-plugin pattern of an
//                             output shape taken from an input's values.
//                             Attributes mode ("bilinear" or "nearest") and
//                             align_corners (0 / 1), PyTorch's
//                             F.interpolate rules.
//
// Load it with SessionOptions::customOpLibraries, the C API's
// oinfer_session_options_add_custom_op_library or oinfer-run --custom-ops.
#include <oinfer/custom_op.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace {

using oinfer::CustomKernelContext;
using oinfer::CustomKernelInit;
using oinfer::CustomOp;
using oinfer::CustomOpSet;
using oinfer::CustomShapeContext;
using oinfer::DataType;
using oinfer::Dim;
using oinfer::Shape;
using oinfer::Tensor;

// ---- custom::deform_conv2d ------------------------------------------------------

struct DeformParams {
  int64_t strideH = 1, strideW = 1, padH = 0, padW = 0, dilH = 1, dilW = 1, groups = 1, offsetGroups = 1;
};

template <class Node>
std::vector<int64_t> pair(const Node& node, const char* name, int64_t def, int64_t min) {
  std::vector<int64_t> v = node.attrInts(name, {def, def});
  if (v.size() != 2) node.fail(std::string("attribute ") + name + " must have 2 values");
  for (int64_t x : v)
    if (x < min) node.fail(std::string("attribute ") + name + " has a value below " + std::to_string(min));
  return v;
}

template <class Node>
DeformParams deformParams(const Node& node) {
  DeformParams p;
  auto s = pair(node, "stride", 1, 1), pd = pair(node, "padding", 0, 0), d = pair(node, "dilation", 1, 1);
  p.strideH = s[0], p.strideW = s[1], p.padH = pd[0], p.padW = pd[1], p.dilH = d[0], p.dilW = d[1];
  p.groups = node.attrInt("groups", 1);
  p.offsetGroups = node.attrInt("offset_groups", 1);
  if (p.groups < 1 || p.offsetGroups < 1) node.fail("groups and offset_groups must be >= 1");
  return p;
}

void deformShape(CustomShapeContext& ctx) {
  if (ctx.numInputs() < 3) ctx.fail("needs input, offset and weight");
  for (size_t i = 0; i < ctx.numInputs(); ++i)
    if (ctx.hasInput(i) && ctx.inputType(i) != DataType::kFloat)
      ctx.fail("input " + std::to_string(i) + " must be float32");
  const DeformParams p = deformParams(ctx);
  const Shape& x = ctx.inputShape(0);
  const Shape& w = ctx.inputShape(2);
  const Shape& off = ctx.inputShape(1);
  if (x.size() != 4 || w.size() != 4 || off.size() != 4) ctx.fail("input, offset and weight must be 4-d");
  auto outDim = [&](const Dim& in, const Dim& k, int64_t stride, int64_t pad, int64_t dil, const Dim& fromOffset) {
    if (in.isStatic() && k.isStatic()) {
      const int64_t span = dil * (k.value - 1) + 1;
      if (in.value + 2 * pad < span) ctx.fail("the kernel does not fit the padded input");
      return Dim((in.value + 2 * pad - span) / stride + 1);
    }
    return fromOffset;  // the offset input has the output's spatial dims
  };
  Shape y{x[0], w[0], outDim(x[2], w[2], p.strideH, p.padH, p.dilH, off[2]),
          outDim(x[3], w[3], p.strideW, p.padW, p.dilW, off[3])};
  ctx.setOutput(0, DataType::kFloat, y);
}

// torchvision's bilinear sampling: zero outside the image, corners outside
// count as zero.
inline float sample(const float* img, int64_t H, int64_t W, float h, float w) {
  if (h <= -1.f || h >= float(H) || w <= -1.f || w >= float(W)) return 0.f;
  const int64_t h0 = static_cast<int64_t>(std::floor(h)), w0 = static_cast<int64_t>(std::floor(w));
  const int64_t h1 = h0 + 1, w1 = w0 + 1;
  const float lh = h - float(h0), lw = w - float(w0), hh = 1.f - lh, hw = 1.f - lw;
  const float v00 = (h0 >= 0 && w0 >= 0) ? img[h0 * W + w0] : 0.f;
  const float v01 = (h0 >= 0 && w1 < W) ? img[h0 * W + w1] : 0.f;
  const float v10 = (h1 < H && w0 >= 0) ? img[h1 * W + w0] : 0.f;
  const float v11 = (h1 < H && w1 < W) ? img[h1 * W + w1] : 0.f;
  return hh * hw * v00 + hh * lw * v01 + lh * hw * v10 + lh * lw * v11;
}

class DeformConv2d final : public oinfer::CustomKernel {
 public:
  explicit DeformConv2d(const CustomKernelInit& init) : p_(deformParams(init)) {
    const Shape& w = init.inputShape(2);
    if (w.size() != 4) init.fail("weight must be 4-d");
    // Planned scratch for the sampled columns when the plan knows the sizes.
    const Shape& x = init.inputShape(0);
    const Shape& y = init.outputShape(0);
    bool known = x[1].isStatic() && w[2].isStatic() && w[3].isStatic() && y[2].isStatic() && y[3].isStatic();
    if (known) {
      const size_t rows = size_t(x[1].value * w[2].value * w[3].value), cols = size_t(y[2].value * y[3].value);
      scratchId_ = init.requestScratch(rows * cols * sizeof(float));
      hasScratch_ = true;
    }
  }

  void run(CustomKernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    const Tensor& off = ctx.input(1);
    const Tensor& w = ctx.input(2);
    const Tensor* mask = ctx.hasInput(3) ? &ctx.input(3) : nullptr;
    const Tensor* bias = ctx.hasInput(4) ? &ctx.input(4) : nullptr;
    Tensor& y = ctx.output(0);
    const int64_t N = x.dim(0), C = x.dim(1), H = x.dim(2), W = x.dim(3);
    const int64_t M = w.dim(0), Cg = w.dim(1), KH = w.dim(2), KW = w.dim(3), K = KH * KW;
    const int64_t OH = y.dim(2), OW = y.dim(3), P = OH * OW, G = p_.groups, OG = p_.offsetGroups;
    if (C != Cg * G || M % G != 0) ctx.fail("weight shape does not match the input's channels and groups");
    if (C % OG != 0) ctx.fail("offset_groups must divide the input's channels");
    if (off.dim(0) != N || off.dim(1) != 2 * OG * K || off.dim(2) != OH || off.dim(3) != OW)
      ctx.fail("offset must be [N, 2 * offset_groups * kh * kw, out_h, out_w]");
    if (mask && (mask->dim(0) != N || mask->dim(1) != OG * K || mask->dim(2) != OH || mask->dim(3) != OW))
      ctx.fail("mask must be [N, offset_groups * kh * kw, out_h, out_w]");
    if (bias && (bias->rank() != 1 || bias->dim(0) != M)) ctx.fail("bias must be [out_channels]");

    // Columns: row (c, kh, kw), column output pixel; the sampled input times the mask.
    std::vector<float> own;
    float* cols = nullptr;
    const size_t need = size_t(C * K * P);
    if (hasScratch_) {
      cols = static_cast<float*>(ctx.scratch(scratchId_));
    } else {
      own.resize(need);
      cols = own.data();
    }
    const float* xd = x.data<float>();
    const float* od = off.data<float>();
    const float* md = mask ? mask->data<float>() : nullptr;
    const float* wd = w.data<float>();
    float* yd = y.data<float>();
    const int64_t cPerOg = C / OG, Mg = M / G;
    for (int64_t n = 0; n < N; ++n) {
      ctx.parallelFor(C, [&](int64_t c0, int64_t c1) {
        for (int64_t c = c0; c < c1; ++c) {
          const int64_t og = c / cPerOg;
          const float* img = xd + (n * C + c) * H * W;
          for (int64_t i = 0; i < KH; ++i)
            for (int64_t j = 0; j < KW; ++j) {
              const int64_t k = i * KW + j;
              const float* dy = od + ((n * 2 * OG + og * 2 * K + 2 * k) * P);
              const float* dx = dy + P;
              const float* mk = md ? md + (n * OG * K + og * K + k) * P : nullptr;
              float* row = cols + (c * K + k) * P;
              for (int64_t oh = 0; oh < OH; ++oh)
                for (int64_t ow = 0; ow < OW; ++ow) {
                  const int64_t q = oh * OW + ow;
                  const float h = float(oh * p_.strideH - p_.padH + i * p_.dilH) + dy[q];
                  const float wv = float(ow * p_.strideW - p_.padW + j * p_.dilW) + dx[q];
                  const float v = sample(img, H, W, h, wv);
                  row[q] = mk ? v * mk[q] : v;
                }
            }
        }
      });
      ctx.parallelFor(M, [&](int64_t m0, int64_t m1) {
        for (int64_t m = m0; m < m1; ++m) {
          const int64_t g = m / Mg;
          float* out = yd + (n * M + m) * P;
          const float b = bias ? bias->data<float>()[m] : 0.f;
          std::fill(out, out + P, b);
          for (int64_t r = 0; r < Cg * K; ++r) {
            const float wr = wd[m * Cg * K + r];
            const float* col = cols + (g * Cg * K + r) * P;
            for (int64_t q = 0; q < P; ++q) out[q] += wr * col[q];
          }
        }
      });
    }
  }
  std::string algorithm() const override { return hasScratch_ ? "im2col planned-scratch" : "im2col"; }

 private:
  DeformParams p_;
  size_t scratchId_ = 0;
  bool hasScratch_ = false;
};

// ---- custom::DynamicTRTResize --------------------------------------------------

// The (height, width) in a size tensor; fails on anything else.
template <class Node>
std::vector<int64_t> readSize(const Node& node, const Tensor& t) {
  if (t.numel() != 2) node.fail("the size input must hold 2 values (height, width)");
  std::vector<int64_t> s(2);
  for (int k = 0; k < 2; ++k)
    s[k] = t.dtype() == DataType::kInt64 ? t.data<int64_t>()[k] : int64_t(t.data<int32_t>()[k]);
  if (s[0] < 1 || s[1] < 1 || s[0] > (int64_t(1) << 20) || s[1] > (int64_t(1) << 20))
    node.fail("size (" + std::to_string(s[0]) + ", " + std::to_string(s[1]) + ") is out of range [1, 2^20]");
  return s;
}

void resizeShape(CustomShapeContext& ctx) {
  if (ctx.numInputs() != 2 || !ctx.hasInput(0) || !ctx.hasInput(1)) ctx.fail("needs an image and a size input");
  if (ctx.inputType(0) != DataType::kFloat) ctx.fail("the image must be float32");
  if (ctx.inputType(1) != DataType::kInt64 && ctx.inputType(1) != DataType::kInt32)
    ctx.fail("the size input must be int64 or int32");
  const std::string mode = ctx.attrString("mode", "bilinear");
  if (mode != "bilinear" && mode != "nearest") ctx.fail("mode '" + mode + "' is neither bilinear nor nearest");
  const Shape& x = ctx.inputShape(0);
  if (x.size() != 4) ctx.fail("the image must be 4-d NCHW");
  if (const Tensor* size = ctx.inputValue(1)) {  // a constant, or at run time
    const std::vector<int64_t> s = readSize(ctx, *size);
    ctx.setOutput(0, DataType::kFloat, {x[0], x[1], Dim(s[0]), Dim(s[1])});
  } else {  // known only when the run has the value: the runtime asks again then
    ctx.setOutput(0, DataType::kFloat, {x[0], x[1], ctx.freshDim(), ctx.freshDim()});
  }
}

// Source coordinate of output index `o` (PyTorch's rules).
inline float sourceIndex(int64_t o, int64_t in, int64_t out, bool alignCorners, bool nearest) {
  if (nearest) return std::floor(float(o) * (float(in) / float(out)));
  if (alignCorners) return out > 1 ? float(o) * float(in - 1) / float(out - 1) : 0.f;
  const float s = (float(o) + 0.5f) * (float(in) / float(out)) - 0.5f;
  return s < 0.f ? 0.f : s;
}

class DynamicResize final : public oinfer::CustomKernel {
 public:
  explicit DynamicResize(const CustomKernelInit& init)
      : nearest_(init.attrString("mode", "bilinear") == "nearest"), alignCorners_(init.attrInt("align_corners", 0) != 0) {}

  void run(CustomKernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    const std::vector<int64_t> s = readSize(ctx, ctx.input(1));
    const int64_t N = x.dim(0), C = x.dim(1), H = x.dim(2), W = x.dim(3), OH = s[0], OW = s[1];
    // The planned output when the runtime knew the size, else a new one.
    Tensor& y = ctx.allocateOutput(0, {N, C, OH, OW});
    const float* xd = x.data<float>();
    float* yd = y.data<float>();
    ctx.parallelFor(N * C, [&](int64_t p0, int64_t p1) {
      for (int64_t p = p0; p < p1; ++p) {
        const float* img = xd + p * H * W;
        float* out = yd + p * OH * OW;
        for (int64_t oh = 0; oh < OH; ++oh) {
          const float sh = sourceIndex(oh, H, OH, alignCorners_, nearest_);
          const int64_t h0 = std::min<int64_t>(int64_t(sh), H - 1), h1 = std::min<int64_t>(h0 + 1, H - 1);
          const float lh = sh - float(h0);
          for (int64_t ow = 0; ow < OW; ++ow) {
            const float sw = sourceIndex(ow, W, OW, alignCorners_, nearest_);
            const int64_t w0 = std::min<int64_t>(int64_t(sw), W - 1), w1 = std::min<int64_t>(w0 + 1, W - 1);
            if (nearest_) {
              out[oh * OW + ow] = img[h0 * W + w0];
              continue;
            }
            const float lw = sw - float(w0);
            out[oh * OW + ow] = (1 - lh) * ((1 - lw) * img[h0 * W + w0] + lw * img[h0 * W + w1]) +
                                lh * ((1 - lw) * img[h1 * W + w0] + lw * img[h1 * W + w1]);
          }
        }
      }
    });
  }
  std::string algorithm() const override { return nearest_ ? "nearest" : "bilinear"; }

 private:
  bool nearest_;
  bool alignCorners_;
};

void registerOps(CustomOpSet& set) {
  CustomOp deform;
  deform.domain = "custom";
  deform.opType = "deform_conv2d";
  deform.shape = deformShape;
  deform.kernel = [](const CustomKernelInit& init) { return std::make_unique<DeformConv2d>(init); };
  set.add(deform);

  CustomOp resize;
  resize.domain = "custom";
  resize.opType = "DynamicTRTResize";
  resize.shape = resizeShape;
  resize.kernel = [](const CustomKernelInit& init) { return std::make_unique<DynamicResize>(init); };
  set.add(resize);
}

}  // namespace

OINFER_CUSTOM_OPS_PLUGIN(registerOps)
