// Tensor family kernels that read a strided window of their input: Slice,
// Expand, Tile, DepthToSpace, SpaceToDepth; plus Pad and Trilu. Output shapes
// that depend on input values are recomputed here from the actual inputs
// (allocateOutput checks them against the planned ones).
#include <algorithm>

#include "graph/checked_math.h"
#include "ops/cpu/tensor_common.h"
#include "shape/tensor.h"

namespace oinfer::tensor_ops {

namespace {

std::unique_ptr<Kernel> sliceKernel(const KernelInit& init) {
  const SliceParams params = SliceParams::fromInit(init);
  return makeKernel([params](KernelContext& ctx) {
    const Tensor& in = ctx.input(0);
    const SliceWindow w = resolveSlice(ctx, params, in.shape(), rowMajorStrides(in.shape()));
    Tensor& out = ctx.allocateOutput(0, w.shape, in.dtype());
    stridedCopy(in, w.offset, w.strides, out, 0, rowMajorStrides(w.shape), w.shape, ctx.pool(), ctx.node());
  });
}

std::unique_ptr<Kernel> expandKernel(const KernelInit&) {
  return makeKernel([](KernelContext& ctx) {
    const Tensor& in = ctx.input(0);
    const std::vector<int64_t> target = ctx.input(1).toInt64Vector();
    const size_t ri = in.rank(), r = std::max(ri, target.size());
    std::vector<int64_t> shape(r), ss(r, 0);
    const auto is = rowMajorStrides(in.shape());
    for (size_t k = 0; k < r; ++k) {
      const int64_t a = k + ri >= r ? in.dim(k + ri - r) : 1;
      const int64_t b = k + target.size() >= r ? target[k + target.size() - r] : 1;
      if (a != b && a != 1 && b != 1)
        ctx.fail("cannot expand input 0 ('" + ctx.node().inputs[0] + "') of shape " + shapeToString(in.shape()) +
                 " to shape " + shapeToString(target));
      shape[k] = a == 1 ? b : a;
      if (k + ri >= r && a != 1) ss[k] = is[k + ri - r];
    }
    Tensor& out = ctx.allocateOutput(0, shape, in.dtype());
    stridedCopy(in, 0, ss, out, 0, rowMajorStrides(shape), shape, ctx.pool(), ctx.node());
  });
}

std::unique_ptr<Kernel> tileKernel(const KernelInit& init) {
  const bool v1 = init.opset < 6;
  return makeKernel([v1](KernelContext& ctx) {
    const Tensor& in = ctx.input(0);
    const int64_t r = static_cast<int64_t>(in.rank());
    std::vector<int64_t> reps;
    if (v1) {
      reps.assign(r, 1);
      int64_t axis = ctx.input(2).toInt64Vector().at(0);
      if (axis < 0) axis += r;
      if (axis < 0 || axis >= r) ctx.fail("axis is out of range");
      reps[axis] = ctx.input(1).toInt64Vector().at(0);
    } else {
      reps = ctx.input(1).toInt64Vector();
    }
    if (static_cast<int64_t>(reps.size()) != r)
      ctx.fail("repeats has " + std::to_string(reps.size()) + " values for input of shape " + shapeToString(in.shape()));
    const auto is = rowMajorStrides(in.shape());
    std::vector<int64_t> shape(r), view, ss;
    for (int64_t k = 0; k < r; ++k) {
      if (reps[k] < 0) ctx.fail("repeats must be non-negative, got " + shapeToString(reps));
      if (!checkedMul(in.dim(k), reps[k], &shape[k]))
        ctx.fail("repeats " + shapeToString(reps) + " on input 0 ('" + ctx.node().inputs[0] + "') with shape " +
                 shapeToString(in.shape()) + " overflow int64 in dim " + std::to_string(k));
      view.push_back(reps[k]);
      ss.push_back(0);
      view.push_back(in.dim(k));
      ss.push_back(is[k]);
    }
    Tensor& out = ctx.allocateOutput(0, shape, in.dtype());
    stridedCopy(in, 0, ss, out, 0, rowMajorStrides(view), view, ctx.pool(), ctx.node());
  });
}

enum class PadMode { kConstant, kReflect, kEdge, kWrap };

// The input index feeding output index o of one padded axis, or -1 for the
// constant value.
int64_t padSource(int64_t o, int64_t begin, int64_t d, PadMode mode) {
  int64_t i = o - begin;
  if (i >= 0 && i < d) return i;
  switch (mode) {
    case PadMode::kConstant: return -1;
    case PadMode::kEdge: return std::clamp<int64_t>(i, 0, d - 1);
    case PadMode::kWrap: return ((i % d) + d) % d;
    case PadMode::kReflect: {
      if (d == 1) return 0;
      const int64_t period = 2 * (d - 1);
      i = ((i % period) + period) % period;
      return i < d ? i : period - i;
    }
  }
  return -1;
}

// Writes a float constant (Pad-1/2 `value`) as one element of `dt`.
void floatAs(DataType dt, float v, void* out, const Node& node) {
  dispatchType<float, double, Float16, BFloat16, int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t,
               uint64_t, bool>(
      dt,
      [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>) *static_cast<T*>(out) = T(v);
        else *static_cast<T*>(out) = static_cast<T>(v);
      },
      node);
}

std::unique_ptr<Kernel> padKernel(const KernelInit& init) {
  const std::string m = init.node.attrString("mode", "constant");
  PadMode mode;
  if (m == "constant") mode = PadMode::kConstant;
  else if (m == "reflect") mode = PadMode::kReflect;
  else if (m == "edge") mode = PadMode::kEdge;
  else if (m == "wrap" && init.opset >= 19) mode = PadMode::kWrap;
  else init.fail("unsupported pad mode '" + m + "'");
  const int64_t opset = init.opset;
  const std::vector<int64_t> attrPads = opset < 11 ? init.node.attrInts(opset < 2 ? "paddings" : "pads") : std::vector<int64_t>{};
  const float attrValue = init.node.attrFloat("value", 0.f);
  return makeKernel([=](KernelContext& ctx) {
    const Tensor& in = ctx.input(0);
    const int64_t r = static_cast<int64_t>(in.rank());
    std::vector<int64_t> pads = opset < 11 ? attrPads : ctx.input(1).toInt64Vector();
    std::vector<int64_t> axes;
    if (opset >= 18 && ctx.hasInput(3)) {
      for (int64_t a : ctx.input(3).toInt64Vector()) axes.push_back(a < 0 ? a + r : a);
    } else {
      for (int64_t k = 0; k < r; ++k) axes.push_back(k);
    }
    const size_t n = axes.size();
    if (pads.size() != 2 * n)
      ctx.fail("pads has " + std::to_string(pads.size()) + " values; expected " + std::to_string(2 * n) +
               " for input of shape " + shapeToString(in.shape()));
    std::vector<int64_t> begin(r, 0), shape = in.shape();
    for (size_t j = 0; j < n; ++j) {
      if (axes[j] < 0 || axes[j] >= r) ctx.fail("pad axis is out of range");
      begin[axes[j]] = pads[j];
      int64_t& d = shape[axes[j]];
      if (!checkedAdd(d, pads[j], &d) || !checkedAdd(d, pads[j + n], &d))
        ctx.fail("pads " + shapeToString(pads) + " on input 0 ('" + ctx.node().inputs[0] + "') with shape " +
                 shapeToString(in.shape()) + " overflow int64");
      if (d < 0) ctx.fail("pads make the output shape negative");
    }
    for (int64_t k = 0; k < r; ++k)
      if (mode != PadMode::kConstant && in.dim(k) == 0 && shape[k] > 0)
        ctx.fail("cannot pad an empty axis in mode '" + m + "'");
    Tensor& out = ctx.allocateOutput(0, shape, in.dtype());
    // Per-axis maps from output index to input index (-1: constant), made
    // once the output exists (their total length is at most its element
    // count plus its rank), never for an empty output, whose other dims may
    // be huge: [0, 2^40] allocates nothing and must not build 2^40 entries.
    if (out.numel() == 0) return;
    std::vector<std::vector<int64_t>> maps(r);
    for (int64_t k = 0; k < r; ++k) {
      maps[k].reserve(size_t(shape[k]));
      for (int64_t o = 0; o < shape[k]; ++o) maps[k].push_back(padSource(o, begin[k], in.dim(k), mode));
    }
    dispatchBytes(
        in.dtype(),
        [&](auto tag) {
          using T = typename decltype(tag)::type;
          T cval{};
          if (opset < 11) {
            if constexpr (!std::is_same_v<T, std::string>) floatAs(in.dtype(), attrValue, &cval, ctx.node());
          } else if (ctx.hasInput(2) && ctx.input(2).numel() > 0) {
            cval = static_cast<const T*>(ctx.input(2).data())[0];
          }
          const T* src = static_cast<const T*>(in.data());
          T* dst = static_cast<T*>(out.data());
          if (out.numel() == 0) return;
          if (r == 0) {
            dst[0] = src[0];
            return;
          }
          const auto is = rowMajorStrides(in.shape());
          const int64_t inner = shape[r - 1], rows = out.numel() / inner;
          const auto& last = maps[r - 1];
          ctx.pool().parallelFor(rows, [&](int64_t b, int64_t e) {
            std::vector<int64_t> idx(r, 0);
            for (int64_t row = b; row < e; ++row) {
              int64_t rem = row, base = 0;
              bool constant = false;
              for (int64_t k = r - 2; k >= 0; --k) {
                const int64_t o = rem % shape[k];
                rem /= shape[k];
                const int64_t i = maps[k][o];
                if (i < 0) constant = true;
                else base += i * is[k];
              }
              T* d = dst + row * inner;
              for (int64_t o = 0; o < inner; ++o) d[o] = constant || last[o] < 0 ? cval : src[base + last[o]];
            }
          }, std::max<int64_t>(1, 4096 / std::max<int64_t>(inner, 1)));
        },
        ctx.node());
  });
}

// DepthToSpace / SpaceToDepth as one strided copy over a 6-d view.
std::unique_ptr<Kernel> blockKernel(const KernelInit& init, bool toSpace) {
  const int64_t b = init.node.attrInt("blocksize", 0);
  const bool crd = toSpace && init.opset >= 11 && init.node.attrString("mode", "DCR") == "CRD";
  if (b <= 0) init.fail("blocksize must be positive, got " + std::to_string(b));
  int64_t bb;
  if (!checkedMul(b, b, &bb)) init.fail("blocksize " + std::to_string(b) + " is too large: blocksize^2 overflows int64");
  return makeKernel([=](KernelContext& ctx) {
    const Tensor& in = ctx.input(0);
    if (in.rank() != 4) ctx.fail("input must be 4-d, got " + shapeToString(in.shape()));
    const int64_t N = in.dim(0), C = in.dim(1), H = in.dim(2), W = in.dim(3);
    std::vector<int64_t> view, ss, outShape;
    int64_t Hb, Wb, Cbb;
    if (toSpace ? !checkedMul(H, b, &Hb) || !checkedMul(W, b, &Wb) : !checkedMul(C, bb, &Cbb))
      ctx.fail("input 0 ('" + ctx.node().inputs[0] + "') with shape " + shapeToString(in.shape()) + " and blocksize " +
               std::to_string(b) + " give an output dim that overflows int64");
    if (toSpace) {
      if (C % bb) ctx.fail("channels " + std::to_string(C) + " are not divisible by blocksize^2");
      const int64_t c = C / bb;
      outShape = {N, c, Hb, Wb};
      view = {N, c, H, b, W, b};  // output order
      if (crd) ss = {C * H * W, b * b * H * W, W, b * H * W, 1, H * W};
      else ss = {C * H * W, H * W, W, b * c * H * W, 1, c * H * W};
    } else {
      if (H % b || W % b) ctx.fail("spatial dims of " + shapeToString(in.shape()) + " are not divisible by blocksize");
      outShape = {N, Cbb, H / b, W / b};
      view = {N, b, b, C, H / b, W / b};
      ss = {C * H * W, W, 1, H * W, b * W, b};
    }
    Tensor& out = ctx.allocateOutput(0, outShape, in.dtype());
    stridedCopy(in, 0, ss, out, 0, rowMajorStrides(view), view, ctx.pool(), ctx.node());
  });
}

std::unique_ptr<Kernel> triluKernel(const KernelInit& init) {
  const bool upper = init.node.attrInt("upper", 1) != 0;
  return makeKernel([upper](KernelContext& ctx) {
    const Tensor& in = ctx.input(0);
    if (in.rank() < 2) ctx.fail("input must have rank >= 2, got " + shapeToString(in.shape()));
    const int64_t k = ctx.hasInput(1) ? ctx.input(1).toInt64Vector().at(0) : 0;
    Tensor& out = ctx.output(0);
    const int64_t R = in.dim(in.rank() - 2), C = in.dim(in.rank() - 1);
    const int64_t mats = R * C ? in.numel() / (R * C) : 0;
    dispatchBytes(
        in.dtype(),
        [&](auto tag) {
          using T = typename decltype(tag)::type;
          const T* s = static_cast<const T*>(in.data());
          T* d = static_cast<T*>(out.data());
          for (int64_t m = 0; m < mats; ++m)
            for (int64_t i = 0; i < R; ++i)
              for (int64_t j = 0; j < C; ++j) {
                const int64_t p = (m * R + i) * C + j;
                const bool keep = upper ? j - i >= k : j - i <= k;
                d[p] = keep ? s[p] : T{};
              }
        },
        ctx.node());
  });
}

}  // namespace

void register_tensor_slice(Registry& r) {
  const auto all = allTypes();
  addVersions(r, "Slice", {1, 10, 11, 13}, shape::inferSlice, sliceKernel, all);
  addVersions(r, "Expand", {8, 13}, shape::inferExpand, expandKernel, all);
  addVersions(r, "Tile", {1, 6, 13}, shape::inferTile, tileKernel, all);
  addVersions(r, "Pad", {1, 2, 11, 13, 18, 19, 21, 23, 24, 25}, shape::inferPad, padKernel, all);
  addVersions(r, "DepthToSpace", {1, 11, 13}, shape::inferDepthToSpace,
              [](const KernelInit& i) { return blockKernel(i, true); }, all);
  addVersions(r, "SpaceToDepth", {1, 13}, shape::inferSpaceToDepth,
              [](const KernelInit& i) { return blockKernel(i, false); }, all);
  addVersions(r, "Trilu", {14}, shape::inferTrilu, triluKernel, all);
}

}  // namespace oinfer::tensor_ops
