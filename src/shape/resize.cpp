#include "shape/resize.h"

#include "graph/checked_math.h"

#include <cmath>
#include <string>

namespace oinfer::shape {

namespace {

[[noreturn]] void failNode(const Node& n, ErrorCode code, const std::string& msg) {
  throw Error(code, n.describe() + ": " + msg);
}

std::string inputLabel(const Node& n, int idx) {
  const std::string name = idx >= 0 && static_cast<size_t>(idx) < n.inputs.size() ? n.inputs[idx] : "";
  return "input " + std::to_string(idx) + " ('" + name + "')";
}

// `what` names where the values came from: an input slot or the attribute.
void checkLength(const Node& n, const ResizeParams& p, bool sizes, int64_t got, int64_t rank,
                 size_t numAxes) {
  const int64_t want = static_cast<int64_t>(numAxes);
  if (got == want) return;
  const std::string what = p.scalesFromAttr && !sizes ? std::string("attribute 'scales'")
                                                      : inputLabel(n, sizes ? p.sizesInput : p.scalesInput);
  const std::string expect = p.axes.empty()
      ? "input 0 ('" + (n.inputs.empty() ? std::string() : n.inputs[0]) + "') has rank " + std::to_string(rank)
      : "attribute 'axes' has " + std::to_string(want) + " entries";
  failNode(n, ErrorCode::kShapeMismatch, what + " has " + std::to_string(got) + " values but " + expect +
                                             " (expected " + std::to_string(want) + ")");
}

void checkScale(const Node& n, const ResizeParams& p, float s, size_t i) {
  if (s > 0 && std::isfinite(s)) return;
  const std::string what = p.scalesFromAttr ? std::string("attribute 'scales'") : inputLabel(n, p.scalesInput);
  failNode(n, ErrorCode::kInvalidArgument,
           what + " value " + std::to_string(i) + " is " + std::to_string(s) + "; scales must be positive");
}

void checkSize(const Node& n, const ResizeParams& p, int64_t s, size_t i) {
  if (s >= 0) return;
  failNode(n, ErrorCode::kInvalidArgument, inputLabel(n, p.sizesInput) + " value " + std::to_string(i) +
                                               " is " + std::to_string(s) + "; sizes must be non-negative");
}

int64_t scaledDim(const Node& n, int64_t in, float s) {
  // floor(input_dimension * scale), in double as the ONNX reference does;
  // a result beyond int64 (a plain cast is undefined there) is refused.
  const double v = std::floor(static_cast<double>(in) * static_cast<double>(s));
  const std::optional<int64_t> d = doubleToInt64(v);
  if (!d)
    failNode(n, ErrorCode::kInvalidArgument,
             "dim " + std::to_string(in) + " times scale " + std::to_string(s) + " does not fit in int64");
  return *d;
}

std::vector<float> floatValues(const Tensor& t) {
  std::vector<float> v(static_cast<size_t>(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i) {
    switch (t.dtype()) {
      case DataType::kFloat: v[i] = t.data<float>()[i]; break;
      case DataType::kDouble: v[i] = static_cast<float>(t.data<double>()[i]); break;
      case DataType::kFloat16: v[i] = static_cast<float>(t.data<Float16>()[i]); break;
      default: v[i] = static_cast<float>(t.toInt64Vector()[i]); break;
    }
  }
  return v;
}

}  // namespace

ResizeParams parseResizeParams(const Node& node, int64_t opset) {
  ResizeParams p;
  const bool upsample = node.opType == "Upsample";
  std::string mode = node.attrString("mode", "nearest");
  if (mode == "nearest") p.mode = ResizeMode::kNearest;
  else if (mode == "linear" || mode == "bilinear") p.mode = ResizeMode::kLinear;
  else if (mode == "cubic" && !upsample) p.mode = ResizeMode::kCubic;
  else failNode(node, ErrorCode::kInvalidModel, "attribute 'mode' has unsupported value '" + mode + "'");

  if (upsample || opset < 11) {
    // Upsample and Resize-10 always sample asymmetrically (x / scale).
    p.coord = ResizeCoord::kAsymmetric;
    p.nearest = NearestMode::kLegacy;
    if (upsample && opset < 7) {
      p.scalesFromAttr = true;
      p.attrScales = {1.f, 1.f, node.attrFloat("height_scale", 1.f), node.attrFloat("width_scale", 1.f)};
    } else if (upsample && opset < 9) {
      p.scalesFromAttr = true;
      p.attrScales = node.attrFloats("scales");
      if (p.attrScales.empty()) failNode(node, ErrorCode::kInvalidModel, "attribute 'scales' is required");
    } else {
      p.scalesInput = 1;
    }
    return p;
  }

  p.roiInput = 1;
  p.scalesInput = 2;
  p.sizesInput = 3;
  const std::string ctm = node.attrString("coordinate_transformation_mode", "half_pixel");
  if (ctm == "half_pixel") p.coord = ResizeCoord::kHalfPixel;
  else if (ctm == "half_pixel_symmetric") p.coord = ResizeCoord::kHalfPixelSymmetric;
  else if (ctm == "pytorch_half_pixel") p.coord = ResizeCoord::kPytorchHalfPixel;
  else if (ctm == "align_corners") p.coord = ResizeCoord::kAlignCorners;
  else if (ctm == "asymmetric") p.coord = ResizeCoord::kAsymmetric;
  else if (ctm == "tf_half_pixel_for_nearest") p.coord = ResizeCoord::kTfHalfPixelForNearest;
  else if (ctm == "tf_crop_and_resize") p.coord = ResizeCoord::kTfCropAndResize;
  else failNode(node, ErrorCode::kInvalidModel,
                "attribute 'coordinate_transformation_mode' has unsupported value '" + ctm + "'");

  const std::string nm = node.attrString("nearest_mode", "round_prefer_floor");
  if (nm == "round_prefer_floor") p.nearest = NearestMode::kRoundPreferFloor;
  else if (nm == "round_prefer_ceil") p.nearest = NearestMode::kRoundPreferCeil;
  else if (nm == "floor") p.nearest = NearestMode::kFloor;
  else if (nm == "ceil") p.nearest = NearestMode::kCeil;
  else failNode(node, ErrorCode::kInvalidModel, "attribute 'nearest_mode' has unsupported value '" + nm + "'");

  p.cubicA = node.attrFloat("cubic_coeff_a", -0.75f);
  p.excludeOutside = node.attrInt("exclude_outside", 0) != 0;
  p.extrapolation = node.attrFloat("extrapolation_value", 0.f);
  if (opset >= 18) {
    p.antialias = node.attrInt("antialias", 0) != 0;
    p.axes = node.attrInts("axes");
    const std::string pol = node.attrString("keep_aspect_ratio_policy", "stretch");
    if (pol == "stretch") p.policy = AspectPolicy::kStretch;
    else if (pol == "not_larger") p.policy = AspectPolicy::kNotLarger;
    else if (pol == "not_smaller") p.policy = AspectPolicy::kNotSmaller;
    else failNode(node, ErrorCode::kInvalidModel,
                  "attribute 'keep_aspect_ratio_policy' has unsupported value '" + pol + "'");
  }
  return p;
}

std::vector<int64_t> resizeAxes(const Node& node, const ResizeParams& p, int64_t rank) {
  std::vector<int64_t> axes;
  if (p.axes.empty()) {
    for (int64_t d = 0; d < rank; ++d) axes.push_back(d);
    return axes;
  }
  std::vector<bool> seen(static_cast<size_t>(rank), false);
  for (int64_t a : p.axes) {
    const int64_t d = a < 0 ? a + rank : a;
    if (d < 0 || d >= rank)
      failNode(node, ErrorCode::kInvalidModel,
               "attribute 'axes' value " + std::to_string(a) + " is out of range for rank " + std::to_string(rank));
    if (seen[d]) failNode(node, ErrorCode::kInvalidModel, "attribute 'axes' repeats axis " + std::to_string(a));
    seen[d] = true;
    axes.push_back(d);
  }
  return axes;
}

ResizeGeometry resolveResizeGeometry(const Node& node, const ResizeParams& p,
                                     const std::vector<int64_t>& inDims,
                                     const std::vector<int64_t>& axes,
                                     const std::vector<float>* scales,
                                     const std::vector<int64_t>* sizes) {
  const int64_t rank = static_cast<int64_t>(inDims.size());
  ResizeGeometry g{inDims, std::vector<double>(inDims.size(), 1.0)};
  if (scales) {
    checkLength(node, p, false, static_cast<int64_t>(scales->size()), rank, axes.size());
    for (size_t i = 0; i < axes.size(); ++i) {
      checkScale(node, p, (*scales)[i], i);
      g.scales[axes[i]] = (*scales)[i];
      g.outDims[axes[i]] = scaledDim(node, inDims[axes[i]], (*scales)[i]);
    }
    return g;
  }
  checkLength(node, p, true, static_cast<int64_t>(sizes->size()), rank, axes.size());
  for (size_t i = 0; i < axes.size(); ++i) checkSize(node, p, (*sizes)[i], i);
  auto ratio = [&](size_t i) {
    const int64_t in = inDims[axes[i]];
    return in > 0 ? static_cast<double>((*sizes)[i]) / static_cast<double>(in) : 1.0;
  };
  if (p.policy == AspectPolicy::kStretch) {
    for (size_t i = 0; i < axes.size(); ++i) {
      g.outDims[axes[i]] = (*sizes)[i];
      g.scales[axes[i]] = ratio(i);
    }
    return g;
  }
  double s = ratio(0);
  for (size_t i = 1; i < axes.size(); ++i)
    s = p.policy == AspectPolicy::kNotLarger ? std::min(s, ratio(i)) : std::max(s, ratio(i));
  for (int64_t d : axes) {
    g.scales[d] = s;
    // round_int: nearest, halfway cases up.
    g.outDims[d] = static_cast<int64_t>(std::floor(s * static_cast<double>(inDims[d]) + 0.5));
  }
  return g;
}

void inferResize(InferContext& ctx) {
  const Node& node = ctx.node();
  const ResizeParams p = parseResizeParams(node, ctx.opset());
  const ValueInfo& x = ctx.input(0);
  if (!x.hasShape) {
    ctx.setOutputUnknownShape(0, x.dtype);
    return;
  }
  const Shape& in = x.shape;
  const int64_t rank = static_cast<int64_t>(in.size());
  const std::vector<int64_t> axes = resizeAxes(node, p, rank);

  // Length of a 1-d input: -1 absent, -2 unknown, else its element count. An
  // empty tensor counts as absent.
  auto lengthOf = [&](int idx) -> int64_t {
    if (idx < 0 || !ctx.hasInput(idx)) return -1;
    if (const Tensor* v = ctx.inputValue(idx)) return v->numel();
    if (ctx.hasShape(idx)) {
      const Shape& s = ctx.inputShape(idx);
      if (s.size() == 1 && s[0].isStatic()) return s[0].value;
    }
    return -2;
  };
  const int64_t scalesLen = p.scalesFromAttr ? static_cast<int64_t>(p.attrScales.size()) : lengthOf(p.scalesInput);
  const int64_t sizesLen = lengthOf(p.sizesInput);
  if (scalesLen > 0 && sizesLen > 0)
    ctx.fail(ErrorCode::kInvalidModel, "both 'scales' (" + inputLabel(node, p.scalesInput) + ") and 'sizes' (" +
                                           inputLabel(node, p.sizesInput) + ") are given; exactly one is allowed");
  const bool useSizes = sizesLen > 0 || (sizesLen == -2 && scalesLen <= 0);
  const bool useScales = !useSizes && (scalesLen > 0 || scalesLen == -2);
  if (!useSizes && !useScales)
    ctx.fail(ErrorCode::kInvalidModel, "neither 'scales' nor 'sizes' is given; exactly one is required");
  if (useScales && scalesLen >= 0) checkLength(node, p, false, scalesLen, rank, axes.size());
  if (useSizes && sizesLen >= 0) checkLength(node, p, true, sizesLen, rank, axes.size());

  Shape out = in;
  std::vector<float> scales;
  const Tensor* scalesValue = useScales && !p.scalesFromAttr ? ctx.inputValue(p.scalesInput) : nullptr;
  if (useScales && (p.scalesFromAttr || scalesValue)) {
    scales = p.scalesFromAttr ? p.attrScales : floatValues(*scalesValue);
    for (size_t i = 0; i < axes.size(); ++i) {
      checkScale(node, p, scales[i], i);
      const Dim& d = in[axes[i]];
      if (scales[i] == 1.f) out[axes[i]] = d;
      else out[axes[i]] = d.isStatic() ? Dim(scaledDim(node, d.value, scales[i])) : ctx.freshDim();
    }
  } else if (useSizes && ctx.inputSymbolicValue(p.sizesInput)) {
    const std::vector<Dim>& sizes = *ctx.inputSymbolicValue(p.sizesInput);
    bool allStatic = true;
    for (size_t i = 0; i < axes.size(); ++i) {
      if (sizes[i].isStatic()) checkSize(node, p, sizes[i].value, i);
      allStatic = allStatic && sizes[i].isStatic() && in[axes[i]].isStatic();
    }
    if (p.policy == AspectPolicy::kStretch) {
      for (size_t i = 0; i < axes.size(); ++i) out[axes[i]] = sizes[i];
    } else if (allStatic) {
      std::vector<int64_t> inDims(in.size(), 1), sz;
      for (size_t i = 0; i < axes.size(); ++i) {
        inDims[axes[i]] = in[axes[i]].value;
        sz.push_back(sizes[i].value);
      }
      const ResizeGeometry g = resolveResizeGeometry(node, p, inDims, axes, nullptr, &sz);
      for (int64_t d : axes) out[d] = g.outDims[d];
    } else {
      for (int64_t d : axes) out[d] = ctx.freshDim();
    }
  } else {
    // Values unknown until run time: the runtime re-infers with them known.
    for (int64_t d : axes) out[d] = ctx.freshDim();
  }
  ctx.setOutput(0, x.dtype, std::move(out));
}

}  // namespace oinfer::shape
