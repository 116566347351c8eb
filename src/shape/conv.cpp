#include "shape/conv.h"

#include <algorithm>

#include "graph/checked_math.h"

namespace oinfer::shape {

namespace {

[[noreturn]] void nodeFail(const Node& node, const std::string& msg) {
  throw Error(ErrorCode::kInvalidModel, node.describe() + ": " + msg);
}

std::string listToString(const std::vector<int64_t>& v) { return shapeToString(v); }

std::vector<int64_t> intsOfLength(const Node& node, const std::string& name, size_t n, int64_t def) {
  std::vector<int64_t> v = node.attrInts(name, {});
  if (v.empty()) return std::vector<int64_t>(n, def);
  if (v.size() != n)
    nodeFail(node, "attribute '" + name + "' " + listToString(v) + " has " + std::to_string(v.size()) +
                       " values, expected " + std::to_string(n) +
                       (name.size() >= 4 && name.compare(name.size() - 4, 4, "pads") == 0
                            ? " (begin and end per spatial dim)"
                            : " (one per spatial dim)"));
  return v;
}

int64_t ceilDiv(int64_t a, int64_t b) { return a >= 0 ? (a + b - 1) / b : -((-a) / b); }

}  // namespace

WindowAttrs parseWindowAttrs(const Node& node, size_t nd, bool requireKernel, const std::string& prefix) {
  WindowAttrs a;
  const std::string kn = prefix + "kernel_shape";
  if (node.hasAttr(kn)) {
    a.kernel = node.attrInts(kn);
    if (a.kernel.size() != nd)
      nodeFail(node, "attribute '" + kn + "' " + listToString(a.kernel) + " has " + std::to_string(a.kernel.size()) +
                         " values, expected " + std::to_string(nd) + " (one per spatial dim)");
    for (int64_t k : a.kernel)
      if (k <= 0) nodeFail(node, "attribute '" + kn + "' " + listToString(a.kernel) + " must be positive");
  } else if (requireKernel) {
    nodeFail(node, "attribute '" + kn + "' is required");
  }
  a.strides = intsOfLength(node, prefix + "strides", nd, 1);
  a.dilations = intsOfLength(node, prefix + "dilations", nd, 1);
  a.pads = intsOfLength(node, prefix + "pads", 2 * nd, 0);
  for (int64_t s : a.strides)
    if (s <= 0) nodeFail(node, "attribute '" + prefix + "strides' " + listToString(a.strides) + " must be positive");
  for (int64_t d : a.dilations)
    if (d <= 0) nodeFail(node, "attribute '" + prefix + "dilations' " + listToString(a.dilations) + " must be positive");
  for (int64_t p : a.pads)
    if (p < 0) nodeFail(node, "attribute '" + prefix + "pads' " + listToString(a.pads) + " must not be negative");
  const std::string ap = node.attrString(prefix + "auto_pad", "NOTSET");
  if (ap == "NOTSET" || ap.empty()) a.autoPad = AutoPad::kNotSet;
  else if (ap == "SAME_UPPER") a.autoPad = AutoPad::kSameUpper;
  else if (ap == "SAME_LOWER") a.autoPad = AutoPad::kSameLower;
  else if (ap == "VALID") a.autoPad = AutoPad::kValid;
  else nodeFail(node, "attribute '" + prefix + "auto_pad' has unknown value '" + ap + "'");
  a.ceilMode = node.attrInt(prefix + "ceil_mode", 0) != 0;
  return a;
}

namespace {
// The kernel's extent (k - 1) * dilation + 1, and the padded input size, as
// an Error naming the node when they do not fit in int64 (attributes are
// untrusted; the sizes below are sums and products of them).
int64_t kernelSpan(const Node& node, size_t d, int64_t k, int64_t dilation) {
  int64_t span = 0;
  if (!checkedMul(k - 1, dilation, &span) || !checkedAdd(span, 1, &span))
    nodeFail(node, "spatial dim " + std::to_string(d) + ": kernel " + std::to_string(k) + " with dilation " +
                       std::to_string(dilation) + " spans more than int64 can count");
  return span;
}
void checkPaddedSize(const Node& node, size_t d, int64_t in, int64_t padBegin, int64_t padEnd) {
  int64_t padded = 0;
  if (!checkedAdd(in, padBegin, &padded) || !checkedAdd(padded, padEnd, &padded))
    nodeFail(node, "spatial dim " + std::to_string(d) + ": input size " + std::to_string(in) + " with pads " +
                       std::to_string(padBegin) + " and " + std::to_string(padEnd) + " overflows int64");
}
}  // namespace

WindowDim windowDim(const Node& node, const WindowAttrs& a, size_t d, int64_t in, int64_t k) {
  const int64_t s = a.strides[d];
  const int64_t span = kernelSpan(node, d, k, a.dilations[d]);
  WindowDim r{0, 0, 0};
  switch (a.autoPad) {
    case AutoPad::kNotSet: {
      r.padBegin = a.pads[d];
      r.padEnd = a.pads[d + a.strides.size()];
      checkPaddedSize(node, d, in, r.padBegin, r.padEnd);
      const int64_t room = in + r.padBegin + r.padEnd - span;
      if (room < 0) break;
      r.out = (a.ceilMode ? ceilDiv(room, s) : room / s) + 1;
      // A ceil_mode window must start inside the input or the left padding.
      if (a.ceilMode && (r.out - 1) * s >= in + r.padBegin) --r.out;
      break;
    }
    case AutoPad::kValid:
      r.out = in >= span ? (in - span) / s + 1 : 0;
      break;
    case AutoPad::kSameUpper:
    case AutoPad::kSameLower: {
      r.out = ceilDiv(in, s);
      // (out - 1) * s < in, so only adding the span can overflow.
      int64_t total = 0;
      if (!checkedAdd((r.out - 1) * s - in, span, &total))
        nodeFail(node, "spatial dim " + std::to_string(d) + ": the padding for kernel extent " + std::to_string(span) +
                           " overflows int64");
      total = std::max<int64_t>(0, total);
      r.padBegin = a.autoPad == AutoPad::kSameUpper ? total / 2 : total - total / 2;
      r.padEnd = total - r.padBegin;
      break;
    }
  }
  if (r.out <= 0)
    nodeFail(node, "spatial dim " + std::to_string(d) + ": input size " + std::to_string(in) +
                       " with padding is smaller than the kernel extent " + std::to_string(span));
  return r;
}

WindowDim transposeDim(const Node& node, const WindowAttrs& a, size_t d, int64_t in, int64_t k,
                       int64_t outputPadding, int64_t outputShape) {
  const int64_t s = a.strides[d];
  int64_t natural = 0;
  if (!checkedMul(s, in - 1, &natural) || !checkedAdd(natural, outputPadding, &natural) ||
      !checkedAdd(natural, kernelSpan(node, d, k, a.dilations[d]), &natural))
    nodeFail(node, "spatial dim " + std::to_string(d) + ": output size of input " + std::to_string(in) +
                       ", stride " + std::to_string(s) + " and kernel " + std::to_string(k) + " overflows int64");
  WindowDim r{0, 0, 0};
  int64_t out = outputShape;
  if (out < 0 && (a.autoPad == AutoPad::kSameUpper || a.autoPad == AutoPad::kSameLower)) out = in * s;
  if (out >= 0) {
    // The spec's total_padding; a negative one (output_shape beyond the natural
    // size) leaves the extra outputs at the end, as onnxruntime does.
    const int64_t total = std::max<int64_t>(0, natural - out);
    r.padBegin = a.autoPad == AutoPad::kSameUpper ? total / 2 : total - total / 2;
    r.padEnd = natural - out - r.padBegin;
    r.out = out;
  } else {
    if (a.autoPad == AutoPad::kNotSet) {
      r.padBegin = a.pads[d];
      r.padEnd = a.pads[d + a.strides.size()];
    }
    r.out = natural - r.padBegin - r.padEnd;
  }
  if (r.out <= 0)
    nodeFail(node, "spatial dim " + std::to_string(d) + ": output size " + std::to_string(r.out) +
                       " is not positive (input " + std::to_string(in) + ", kernel " + std::to_string(k) + ")");
  return r;
}

Shape windowOutputDims(InferContext& ctx, const WindowAttrs& a, const Shape& spatialIn,
                       const std::vector<int64_t>& kernel) {
  Shape out;
  for (size_t d = 0; d < spatialIn.size(); ++d) {
    const Dim& in = spatialIn[d];
    const int64_t k = kernel[d];
    if (in.isStatic() && k > 0) {
      out.push_back(Dim(windowDim(ctx.node(), a, d, in.value, k).out));
      continue;
    }
    const bool unitSpan = k > 0 && (k - 1) * a.dilations[d] + 1 == 1;
    const bool noPads = a.autoPad == AutoPad::kValid ||
                        (a.autoPad == AutoPad::kNotSet && a.pads[d] == 0 && a.pads[d + spatialIn.size()] == 0);
    const bool sameStride1 = (a.autoPad == AutoPad::kSameUpper || a.autoPad == AutoPad::kSameLower) &&
                             a.strides[d] == 1;
    // Stride 1 with pads adding up to the kernel extent - 1 maps n to n.
    const bool sizeKeeping = a.autoPad == AutoPad::kNotSet && a.strides[d] == 1 && k > 0 &&
                             a.pads[d] + a.pads[d + spatialIn.size()] == (k - 1) * a.dilations[d];
    if (sameStride1 || sizeKeeping || (unitSpan && noPads && a.strides[d] == 1)) out.push_back(in);
    else out.push_back(ctx.freshDim());
  }
  return out;
}

namespace {

std::string inputName(const InferContext& ctx, size_t i) {
  return "input " + std::to_string(i) + " ('" + ctx.node().inputs[i] + "')";
}

// Checks X/W/B of Conv or ConvTranspose. Returns the kernel dims (-1 where
// unknown), from kernel_shape or W.
std::vector<int64_t> checkConvInputs(InferContext& ctx, const WindowAttrs& a, bool transpose, int64_t group) {
  const Shape& x = ctx.inputShape(0);
  const Shape& w = ctx.inputShape(1);
  const size_t nd = x.size() - 2;
  if (w.size() != x.size())
    ctx.fail(inputName(ctx, 1) + " has shape " + shapeToString(w) + " of rank " + std::to_string(w.size()) +
             ", expected rank " + std::to_string(x.size()) + " like " + inputName(ctx, 0) + " " + shapeToString(x));
  if (group <= 0) ctx.fail("attribute 'group' must be positive, got " + std::to_string(group));
  // Conv: C == W[1] * group. ConvTranspose: C == W[0].
  if (transpose) {
    if (x[1].isStatic() && w[0].isStatic() && x[1].value != w[0].value)
      ctx.fail(inputName(ctx, 0) + " " + shapeToString(x) + " has " + std::to_string(x[1].value) + " channels but " +
               inputName(ctx, 1) + " " + shapeToString(w) + " expects " + std::to_string(w[0].value));
    if (x[1].isStatic() && x[1].value % group != 0)
      ctx.fail(inputName(ctx, 0) + " " + shapeToString(x) + ": channels not divisible by group " +
               std::to_string(group));
  } else {
    if (x[1].isStatic() && w[1].isStatic() && x[1].value != w[1].value * group)
      ctx.fail(inputName(ctx, 0) + " " + shapeToString(x) + " has " + std::to_string(x[1].value) + " channels but " +
               inputName(ctx, 1) + " " + shapeToString(w) + " with group " + std::to_string(group) + " expects " +
               std::to_string(w[1].value * group));
    if (w[0].isStatic() && w[0].value % group != 0)
      ctx.fail(inputName(ctx, 1) + " " + shapeToString(w) + ": output channels not divisible by group " +
               std::to_string(group));
  }
  std::vector<int64_t> kernel(nd, -1);
  for (size_t d = 0; d < nd; ++d) {
    const Dim& wk = w[d + 2];
    // An empty kernel has no output formula (the kernels would divide by its size).
    if (wk.isStatic() && wk.value == 0)
      ctx.fail(inputName(ctx, 1) + " has shape " + shapeToString(w) + ": kernel dims must be positive");
    if (!a.kernel.empty()) {
      if (wk.isStatic() && wk.value != a.kernel[d])
        ctx.fail("attribute 'kernel_shape' " + shapeToString(a.kernel) + " disagrees with " + inputName(ctx, 1) +
                 " " + shapeToString(w));
      kernel[d] = a.kernel[d];
    } else if (wk.isStatic()) {
      kernel[d] = wk.value;
    }
  }
  if (ctx.hasInput(2) && ctx.hasShape(2)) {
    const Shape& b = ctx.inputShape(2);
    Dim m = transpose ? (w[1].isStatic() ? Dim(w[1].value * group) : Dim()) : w[0];
    if (b.size() != 1 || (b[0].isStatic() && m.isStatic() && b[0].value != m.value))
      ctx.fail(inputName(ctx, 2) + " has shape " + shapeToString(b) + ", expected [M] with M = " +
               (m.isStatic() ? std::to_string(m.value) : std::string("output channels")) + " from " +
               inputName(ctx, 1) + " " + shapeToString(w));
  }
  return kernel;
}

void checkRank(InferContext& ctx) {
  const Shape& x = ctx.inputShape(0);
  if (x.size() < 3)
    ctx.fail(inputName(ctx, 0) + " has shape " + shapeToString(x) + ", expected rank >= 3 (N, C, spatial...)");
}

}  // namespace

void inferConv(InferContext& ctx) {
  checkRank(ctx);
  const Shape& x = ctx.inputShape(0);
  const Shape& w = ctx.inputShape(1);
  const size_t nd = x.size() - 2;
  const WindowAttrs a = parseWindowAttrs(ctx.node(), nd, false);
  const int64_t group = ctx.node().attrInt("group", 1);
  const std::vector<int64_t> kernel = checkConvInputs(ctx, a, false, group);
  Shape out{x[0], w[0]};
  Shape spatial(x.begin() + 2, x.end());
  for (const Dim& d : windowOutputDims(ctx, a, spatial, kernel)) out.push_back(d);
  ctx.setOutput(0, ctx.inputType(0), out);
}

// ai.oinfer FusedConvDepthwise (fuse_conv_depthwise.cpp): X [N, C, H, W],
// W [E, C, 1, 1], B [E], W_dw [E, 1, kh, kw], B_dw [E]; the output is the
// depthwise Conv's (window attributes on the node) over [N, E, H, W].
void inferFusedConvDepthwise(InferContext& ctx) {
  const Shape& x = ctx.inputShape(0);
  if (x.size() != 4) ctx.fail(inputName(ctx, 0) + " has shape " + shapeToString(x) + ", expected rank 4 (N, C, H, W)");
  const Shape& w = ctx.inputShape(1);
  if (w.size() != 4 || (w[2].isStatic() && w[2].value != 1) || (w[3].isStatic() && w[3].value != 1) ||
      (x[1].isStatic() && w[1].isStatic() && w[1].value != x[1].value))
    ctx.fail(inputName(ctx, 1) + " has shape " + shapeToString(w) + ", expected [E," +
             (x[1].isStatic() ? std::to_string(x[1].value) : std::string("C")) + ",1,1] for " + inputName(ctx, 0) +
             " " + shapeToString(x));
  const Dim e = w[0];
  auto checkBias = [&](size_t i) {
    if (!ctx.hasInput(i) || !ctx.hasShape(i)) return;
    const Shape& b = ctx.inputShape(i);
    if (b.size() != 1 || (b[0].isStatic() && e.isStatic() && b[0].value != e.value))
      ctx.fail(inputName(ctx, i) + " has shape " + shapeToString(b) + ", expected [" +
               (e.isStatic() ? std::to_string(e.value) : std::string("E")) + "]");
  };
  checkBias(2);
  const Shape& wd = ctx.inputShape(3);
  if (wd.size() != 4 || (wd[1].isStatic() && wd[1].value != 1) ||
      (wd[0].isStatic() && e.isStatic() && wd[0].value != e.value))
    ctx.fail(inputName(ctx, 3) + " has shape " + shapeToString(wd) + ", expected [" +
             (e.isStatic() ? std::to_string(e.value) : std::string("E")) + ",1,kh,kw] (depthwise)");
  checkBias(4);
  const WindowAttrs a = parseWindowAttrs(ctx.node(), 2, false);
  const int64_t group = ctx.node().attrInt("group", e.isStatic() ? e.value : 1);
  if (e.isStatic() && group != e.value)
    ctx.fail("attribute 'group' is " + std::to_string(group) + ", expected " + std::to_string(e.value) +
             " (one group per channel)");
  std::vector<int64_t> kernel(2, -1);
  for (size_t d = 0; d < 2; ++d) {
    if (!a.kernel.empty()) {
      if (wd[d + 2].isStatic() && wd[d + 2].value != a.kernel[d])
        ctx.fail("attribute 'kernel_shape' " + shapeToString(a.kernel) + " disagrees with " + inputName(ctx, 3) + " " +
                 shapeToString(wd));
      kernel[d] = a.kernel[d];
    } else if (wd[d + 2].isStatic()) {
      kernel[d] = wd[d + 2].value;
    }
  }
  Shape out{x[0], e};
  Shape spatial(x.begin() + 2, x.end());
  for (const Dim& d : windowOutputDims(ctx, a, spatial, kernel)) out.push_back(d);
  ctx.setOutput(0, ctx.inputType(0), out);
}

// ai.oinfer FusedConvMaxPool (fuse_conv_maxpool.cpp): a 2-d Conv (its
// attributes on the node) whose output only a MaxPool reads (pool_kernel_shape,
// pool_strides, pool_pads, pool_dilations, pool_auto_pad, pool_ceil_mode);
// the output is the MaxPool's over the Conv's.
void inferFusedConvMaxPool(InferContext& ctx) {
  const Shape& x = ctx.inputShape(0);
  if (x.size() != 4) ctx.fail(inputName(ctx, 0) + " has shape " + shapeToString(x) + ", expected rank 4 (N, C, H, W)");
  const WindowAttrs a = parseWindowAttrs(ctx.node(), 2, false);
  const int64_t group = ctx.node().attrInt("group", 1);
  const std::vector<int64_t> kernel = checkConvInputs(ctx, a, false, group);
  const Shape& w = ctx.inputShape(1);
  Shape conv(x.begin() + 2, x.end());
  conv = windowOutputDims(ctx, a, conv, kernel);
  const WindowAttrs p = parseWindowAttrs(ctx.node(), 2, true, "pool_");
  Shape out{x[0], w[0]};
  for (const Dim& d : windowOutputDims(ctx, p, conv, p.kernel)) out.push_back(d);
  ctx.setOutput(0, ctx.inputType(0), out);
}

void inferConvTranspose(InferContext& ctx) {
  checkRank(ctx);
  const Shape& x = ctx.inputShape(0);
  const Shape& w = ctx.inputShape(1);
  const size_t nd = x.size() - 2;
  const WindowAttrs a = parseWindowAttrs(ctx.node(), nd, false);
  const int64_t group = ctx.node().attrInt("group", 1);
  const std::vector<int64_t> kernel = checkConvInputs(ctx, a, true, group);
  std::vector<int64_t> outPad = ctx.node().attrInts("output_padding", {});
  if (outPad.empty()) outPad.assign(nd, 0);
  if (outPad.size() != nd)
    ctx.fail("attribute 'output_padding' " + shapeToString(outPad) + " has " + std::to_string(outPad.size()) +
             " values, expected " + std::to_string(nd));
  std::vector<int64_t> outShape = ctx.node().attrInts("output_shape", {});
  if (outShape.size() == nd + 2) outShape.erase(outShape.begin(), outShape.begin() + 2);
  if (!outShape.empty() && outShape.size() != nd)
    ctx.fail("attribute 'output_shape' " + shapeToString(outShape) + " has " + std::to_string(outShape.size()) +
             " values, expected " + std::to_string(nd));
  Shape out{x[0], w[1].isStatic() ? Dim(w[1].value * group) : ctx.freshDim()};
  for (size_t d = 0; d < nd; ++d) {
    const int64_t os = outShape.empty() ? -1 : outShape[d];
    if (os >= 0) out.push_back(Dim(os));
    else if (x[d + 2].isStatic() && kernel[d] > 0)
      out.push_back(Dim(transposeDim(ctx.node(), a, d, x[d + 2].value, kernel[d], outPad[d], os).out));
    else out.push_back(ctx.freshDim());
  }
  ctx.setOutput(0, ctx.inputType(0), out);
}

}  // namespace oinfer::shape
