// GridSample and AffineGrid (image family); Col2Im, RoiAlign and
// NonMaxSuppression live in image_roi.cpp. GridSample follows the ONNX
// reference (PyTorch's grid_sampler): each spatial dim contributes taps
// (index, weight) chosen by the mode, and the padding mode decides what an
// index outside the input reads.
#include <algorithm>
#include <cmath>
#include <limits>

#include "ops/cpu/dispatch.h"
#include "ops/registry.h"
#include "shape/image.h"

namespace oinfer {

void register_image_roi(Registry& r);

namespace {

enum class Interp { kNearest, kLinear, kCubic };
enum class Pad { kZeros, kBorder, kReflection };

// Folds x back into [lo, hi] by mirroring at the borders.
template <class C>
C reflect(C x, C lo, C hi) {
  const C range = hi - lo;
  if (range <= C(0)) return lo;
  if (x < lo) {
    const C dx = lo - x;
    const int64_t n = static_cast<int64_t>(dx / range);
    const C r = dx - static_cast<C>(n) * range;
    return n % 2 == 0 ? lo + r : hi - r;
  }
  if (x > hi) {
    const C dx = x - hi;
    const int64_t n = static_cast<int64_t>(dx / range);
    const C r = dx - static_cast<C>(n) * range;
    return n % 2 == 0 ? hi - r : lo + r;
  }
  return x;
}

template <class C>
void cubicCoeffs(C t, C* w) {
  constexpr C a = C(-0.75);
  const C x = std::abs(t);
  w[0] = ((a * (x + 1) - 5 * a) * (x + 1) + 8 * a) * (x + 1) - 4 * a;
  w[1] = ((a + 2) * x - (a + 3)) * x * x + 1;
  w[2] = ((a + 2) * (1 - x) - (a + 3)) * (1 - x) * (1 - x) + 1;
  w[3] = ((a * (2 - x) - 5 * a) * (2 - x) + 8 * a) * (2 - x) - 4 * a;
}

struct GridSampleAttrs {
  Interp mode;
  Pad pad;
  bool align;
};

std::unique_ptr<Kernel> makeGridSample(const KernelInit& init) {
  GridSampleAttrs a{};
  const std::string mode = init.node.attrString("mode", init.opset < 20 ? "bilinear" : "linear");
  if (mode == "nearest") a.mode = Interp::kNearest;
  else if (mode == "bilinear" || mode == "linear") a.mode = Interp::kLinear;
  else if (mode == "bicubic" || mode == "cubic") a.mode = Interp::kCubic;
  else init.fail("unknown mode '" + mode + "'");
  const std::string pad = init.node.attrString("padding_mode", "zeros");
  if (pad == "zeros") a.pad = Pad::kZeros;
  else if (pad == "border") a.pad = Pad::kBorder;
  else if (pad == "reflection") a.pad = Pad::kReflection;
  else init.fail("unknown padding_mode '" + pad + "'");
  a.align = init.node.attrInt("align_corners", 0) != 0;
  return makeKernel([a](KernelContext& ctx) {
    const Tensor& X = ctx.input(0);
    const Tensor& G = ctx.input(1);
    const int64_t sp = static_cast<int64_t>(X.rank()) - 2;
    if (sp < 1 || G.rank() != X.rank() || G.shape().back() != sp || G.dim(0) != X.dim(0))
      ctx.fail("grid input 1 ('" + ctx.node().inputs[1] + "') shape " + shapeToString(G.shape()) +
               " does not fit input 0 ('" + ctx.node().inputs[0] + "') shape " + shapeToString(X.shape()));
    if (sp > 3) ctx.fail("only 1 to 3 spatial dims are supported, input 0 has shape " + shapeToString(X.shape()));
    const int64_t N = X.dim(0), C = X.dim(1);
    int64_t inPlane = 1, outPlane = 1;
    std::vector<int64_t> dims(sp);
    for (int64_t i = 0; i < sp; ++i) inPlane *= (dims[i] = X.dim(2 + i));
    for (size_t d = 1; d + 1 < G.rank(); ++d) outPlane *= G.dim(d);
    dispatchType<float, double, Float16>(X.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      using F = std::conditional_t<std::is_same_v<T, double>, double, float>;
      const T* px = X.data<T>();
      const T* pg = G.data<T>();
      T* py = ctx.output(0).data<T>();
      ctx.pool().parallelFor(N * outPlane, [&](int64_t b, int64_t e) {
        // Per spatial dim: up to 4 taps (flat offset or -1 for zero, weight).
        int64_t tapIdx[3][4];
        F tapW[3][4];
        int nt[3];
        std::vector<int64_t> strides(sp);
        for (int64_t i = sp - 1, s = 1; i >= 0; --i) strides[i] = s, s *= dims[i];
        for (int64_t t = b; t < e; ++t) {
          const int64_t n = t / outPlane, p = t % outPlane;
          bool zero = false;
          for (int64_t i = 0; i < sp; ++i) {
            const int64_t d = dims[i];
            const F lo = a.align ? F(0) : F(-0.5), hi = a.align ? F(d - 1) : F(d) - F(0.5);
            const F g = static_cast<F>(pg[t * sp + (sp - 1 - i)]);
            F x = a.align ? (g + 1) / 2 * F(d - 1) : ((g + 1) * F(d) - 1) / 2;
            if (a.mode == Interp::kNearest) x = std::nearbyint(x);
            if (x < lo || x > hi) {
              if (a.pad == Pad::kBorder) x = std::clamp(x, F(0), F(d - 1));
              else if (a.pad == Pad::kReflection) x = reflect(x, lo, hi);
            }
            auto mapIdx = [&](int64_t j) -> int64_t {
              if (j >= 0 && j < d) return j;
              if (a.pad == Pad::kZeros) return -1;
              if (a.pad == Pad::kBorder) return std::clamp<int64_t>(j, 0, d - 1);
              return static_cast<int64_t>(reflect(static_cast<F>(j), lo, hi));
            };
            if (std::isnan(x)) {
              zero = true;
              break;
            }
            if (a.mode == Interp::kNearest) {
              nt[i] = 1;
              tapIdx[i][0] = mapIdx(static_cast<int64_t>(x));
              tapW[i][0] = 1;
            } else {
              const F f = std::floor(x);
              const int64_t x0 = static_cast<int64_t>(f);
              if (a.mode == Interp::kLinear) {
                nt[i] = 2;
                tapW[i][0] = 1 - (x - f);
                tapW[i][1] = x - f;
                for (int k = 0; k < 2; ++k) tapIdx[i][k] = mapIdx(x0 + k);
              } else {
                nt[i] = 4;
                cubicCoeffs(x - f, tapW[i]);
                for (int k = 0; k < 4; ++k) tapIdx[i][k] = mapIdx(x0 - 1 + k);
              }
            }
            for (int k = 0; k < nt[i]; ++k)
              if (tapIdx[i][k] >= 0) tapIdx[i][k] *= strides[i];
          }
          for (int64_t c = 0; c < C; ++c) {
            const T* plane = px + (n * C + c) * inPlane;
            F acc = 0;
            if (!zero) {
              int k[3] = {0, 0, 0};
              for (;;) {
                F w = 1;
                int64_t off = 0;
                bool out = false;
                for (int64_t i = 0; i < sp; ++i) {
                  w *= tapW[i][k[i]];
                  if (tapIdx[i][k[i]] < 0) out = true;
                  else off += tapIdx[i][k[i]];
                }
                if (!out) acc += w * static_cast<F>(plane[off]);
                int64_t i = sp - 1;
                for (; i >= 0; --i) {
                  if (++k[i] < nt[i]) break;
                  k[i] = 0;
                }
                if (i < 0) break;
              }
            } else {
              acc = std::numeric_limits<F>::quiet_NaN();
            }
            py[(n * C + c) * outPlane + p] = static_cast<T>(acc);
          }
        }
      }, std::max<int64_t>(1, 1024 / std::max<int64_t>(C, 1)));
    }, ctx.node());
  });
}

std::unique_ptr<Kernel> makeAffineGrid(const KernelInit& init) {
  const bool align = init.node.attrInt("align_corners", 0) != 0;
  return makeKernel([align](KernelContext& ctx) {
    const Tensor& theta = ctx.input(0);
    const auto size = ctx.input(1).toInt64Vector();
    if (size.size() != 4 && size.size() != 5)
      ctx.fail("size input 1 ('" + ctx.node().inputs[1] + "') must hold 4 or 5 values, got " +
               std::to_string(size.size()));
    const int64_t sp = static_cast<int64_t>(size.size()) - 2;
    if (theta.rank() != 3 || theta.dim(0) != size[0] || theta.dim(1) != sp || theta.dim(2) != sp + 1)
      ctx.fail("theta input 0 ('" + ctx.node().inputs[0] + "') shape " + shapeToString(theta.shape()) +
               " must be [" + std::to_string(size[0]) + "," + std::to_string(sp) + "," + std::to_string(sp + 1) +
               "] for size " + shapeToString(size));
    int64_t plane = 1;
    for (int64_t i = 0; i < sp; ++i) plane *= size[2 + i];
    dispatchType<float, double, Float16>(theta.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* pt = theta.data<T>();
      std::vector<int64_t> gshape = {size[0]};
      for (int64_t i = 0; i < sp; ++i) gshape.push_back(size[2 + i]);
      gshape.push_back(sp);
      T* py = ctx.allocateOutput(0, gshape, theta.dtype()).template data<T>();
      auto toDouble = [](T v) {
        if constexpr (std::is_same_v<T, double>) return v;
        else return static_cast<double>(static_cast<float>(v));
      };
      // Base coordinate i of an n-long dim, in [-1, 1].
      auto base = [&](int64_t i, int64_t n) {
        if (align) return n > 1 ? -1.0 + 2.0 * static_cast<double>(i) / static_cast<double>(n - 1) : -1.0;
        return -1.0 + (2.0 * static_cast<double>(i) + 1.0) / static_cast<double>(n);
      };
      for (int64_t n = 0; n < size[0]; ++n) {
        for (int64_t p = 0; p < plane; ++p) {
          // Homogeneous point (x, y[, z], 1): x runs along the last dim.
          double v[4];
          int64_t rem = p;
          for (int64_t i = sp - 1; i >= 0; --i) {
            const int64_t d = size[2 + i];
            v[sp - 1 - i] = base(rem % d, d);
            rem /= d;
          }
          v[sp] = 1.0;
          for (int64_t j = 0; j < sp; ++j) {
            double acc = 0;
            for (int64_t k = 0; k <= sp; ++k)
              acc += toDouble(pt[(n * sp + j) * (sp + 1) + k]) * v[k];
            py[(n * plane + p) * sp + j] = static_cast<T>(acc);
          }
        }
      }
    }, ctx.node());
  });
}

}  // namespace

void register_image(Registry& r) {
  const std::vector<DataType> types = {DataType::kFloat, DataType::kDouble, DataType::kFloat16};
  addVersions(r, "GridSample", {16, 20, 22}, shape::inferGridSample, makeGridSample, types);
  addVersions(r, "AffineGrid", {20}, shape::inferAffineGrid, makeAffineGrid, types);
  register_image_roi(r);
}

}  // namespace oinfer
