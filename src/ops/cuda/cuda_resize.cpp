// CUDA Resize / Upsample: nearest and linear, every coordinate transformation
// but tf_crop_and_resize (cubic, antialias and crop-and-resize stay on CPU).
// Per-axis source tables are built on the host with the CPU kernel's
// arithmetic (src/ops/cpu/resize.cpp: coordinates in float, as ONNX Runtime),
// uploaded once per input shape, and one launch blends the 2^k corners.
#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>

#include "ops/cuda/cuda_ops.h"
#include "ops/common/resize_coords.h"

namespace oinfer::cuda {
namespace {

using shape::NearestMode;
using shape::ResizeCoord;
using shape::ResizeMode;
using shape::ResizeParams;

struct Tables {
  std::vector<int64_t> outDims;
  ResizeGeom geom;
  DeviceBuffer idx, w;
};

class ResizeKernel final : public CudaKernel {
 public:
  ResizeKernel(const KernelInit& init, ResizeParams p) : p_(std::move(p)) {
    for (int i : {p_.roiInput, p_.scalesInput, p_.sizesInput})
      if (i >= 0 && static_cast<size_t>(i) < init.inputs.size()) {
        markHost(static_cast<size_t>(i));
        if (init.hasInput(i) && !init.constInput(i)) captureSafe_ = false;
      }
  }

  void run(KernelContext& ctx) override {
    Run r = runOf(ctx);
    const Tensor& x = ctx.input(0);
    Tensor& y = ctx.output(0);
    const Tables& t = tablesFor(ctx, x);
    if (t.outDims != y.shape())
      ctx.fail("computed output shape " + shapeToString(t.outDims) + " differs from the planned " +
               shapeToString(y.shape()));
    checkLaunch(launchResize(dtOf(x.dtype()), x.data(), y.data(), t.idx.as<int64_t>(), t.w.as<float>(), t.geom,
                             r.stream),
                "launchResize", ctx);
  }

 private:
  // Scales/sizes can only change between runs when they are not constant; the
  // cache key includes their values then.
  const Tables& tablesFor(const KernelContext& ctx, const Tensor& x) {
    std::vector<float> scales;
    std::vector<int64_t> sizes;
    const auto given = [&](int i) -> const Tensor* {
      return i >= 0 && ctx.hasInput(static_cast<size_t>(i)) && ctx.input(i).numel() > 0 ? &ctx.input(i) : nullptr;
    };
    if (p_.scalesFromAttr) {
      scales = p_.attrScales;
    } else if (const Tensor* s = given(p_.scalesInput)) {
      for (int64_t i = 0; i < s->numel(); ++i)
        scales.push_back(s->dtype() == DataType::kDouble ? static_cast<float>(s->data<double>()[i])
                         : s->dtype() == DataType::kFloat16 ? static_cast<float>(s->data<Float16>()[i])
                                                            : s->data<float>()[i]);
    } else if (const Tensor* s = given(p_.sizesInput)) {
      sizes = s->toInt64Vector();
    } else {
      ctx.fail("neither 'scales' nor 'sizes' is given; exactly one is required");
    }
    const bool useScales = !scales.empty();
    std::vector<int64_t> key = x.shape();
    key.push_back(-1);
    for (float f : scales) key.push_back(static_cast<int64_t>(std::llround(static_cast<double>(f) * 1e9)));
    key.push_back(-2);
    key.insert(key.end(), sizes.begin(), sizes.end());
    std::lock_guard<std::mutex> lock(mu_);
    auto it = cache_.find(key);
    if (it != cache_.end()) return it->second;

    const int64_t rank = static_cast<int64_t>(x.rank());
    if (rank > kMaxRank) ctx.fail("rank " + std::to_string(rank) + " exceeds the CUDA kernels' limit");
    const std::vector<int64_t> axes = shape::resizeAxes(ctx.node(), p_, rank);
    const shape::ResizeGeometry g = shape::resolveResizeGeometry(ctx.node(), p_, x.shape(), axes,
                                                                 useScales ? &scales : nullptr,
                                                                 useScales ? nullptr : &sizes);
    Tables t;
    t.outDims = g.outDims;
    t.geom.rank = static_cast<int>(rank);
    t.geom.n = 1;
    std::vector<int64_t> idx;
    std::vector<float> w;
    const auto is = contiguousStrides(x.shape());
    for (int64_t d = 0; d < rank; ++d) {
      const int64_t inLen = x.dim(d), outLen = g.outDims[d];
      t.geom.idims[d] = inLen;
      t.geom.odims[d] = outLen;
      t.geom.n *= outLen;
      t.geom.tab[d] = static_cast<int64_t>(idx.size());
      const bool identity = g.scales[d] == 1.0 && outLen == inLen;
      const bool fractional = useScales || p_.policy != shape::AspectPolicy::kStretch;
      const double lenResized = fractional ? g.scales[d] * static_cast<double>(inLen) : static_cast<double>(outLen);
      const int taps = identity || p_.mode == ResizeMode::kNearest ? 1 : 2;
      t.geom.taps[d] = taps;
      for (int64_t o = 0; o < outLen; ++o) {
        if (identity) {
          idx.push_back(o * is[d]);
          w.push_back(1.f);
          continue;
        }
        const double xo = shape::resizeSourceCoord(p_, o, g.scales[d], inLen, outLen, lenResized, 0.0, 1.0);
        if (p_.mode == ResizeMode::kNearest) {
          idx.push_back(std::clamp<int64_t>(shape::resizeNearestIndex(p_.nearest, xo, g.scales[d]), 0, inLen - 1) * is[d]);
          w.push_back(1.f);
          continue;
        }
        const double fl = std::floor(xo);
        const int64_t first = static_cast<int64_t>(fl) - 1 + (xo == fl ? 0 : 1);
        for (int k = 0; k < 2; ++k) {
          const int64_t src = first + k;
          const double dd = static_cast<double>(src) - xo;
          double wk = std::max(0.0, 1 - std::fabs(dd));
          if (p_.excludeOutside && (src < 0 || src >= inLen)) wk = 0;
          idx.push_back(std::clamp<int64_t>(src, 0, inLen - 1) * is[d]);
          w.push_back(static_cast<float>(wk));
        }
      }
    }
    if (x.numel() == 0 && t.geom.n > 0) ctx.fail("cannot resize an empty input to a non-empty output");
    t.idx = DeviceBuffer::upload(idx.data(), idx.size() * sizeof(int64_t), &ctx.node());
    t.w = DeviceBuffer::upload(w.data(), w.size() * sizeof(float), &ctx.node());
    return cache_.emplace(std::move(key), std::move(t)).first->second;
  }

  ResizeParams p_;
  std::mutex mu_;
  std::map<std::vector<int64_t>, Tables> cache_;
};

}  // namespace

std::unique_ptr<Kernel> makeResize(const KernelInit& init) {
  if (!isFloatLike(plannedType(init, 0))) return nullptr;
  ResizeParams p = shape::parseResizeParams(init.node, init.opset);
  if (p.mode == ResizeMode::kCubic || p.antialias || p.coord == ResizeCoord::kTfCropAndResize) return nullptr;
  return std::make_unique<ResizeKernel>(init, std::move(p));
}

}  // namespace oinfer::cuda
