// Col2Im, RoiAlign and NonMaxSuppression (image family).
#include <algorithm>
#include <cmath>
#include <optional>

#include "ops/cpu/dispatch.h"
#include "ops/registry.h"
#include "shape/image.h"

namespace oinfer {

namespace {

std::string inName(const KernelContext& ctx, size_t i) {
  return "input " + std::to_string(i) + " ('" + ctx.node().inputs[i] + "')";
}

std::unique_ptr<Kernel> makeCol2Im(const KernelInit& init) {
  const auto dil = init.node.attrInts("dilations", {});
  const auto pads = init.node.attrInts("pads", {});
  const auto strides = init.node.attrInts("strides", {});
  // A zero stride divided (SIGFPE); the window arithmetic below needs these signs.
  for (int64_t v : strides)
    if (v <= 0) init.fail("attribute 'strides' " + shapeToString(strides) + " must be positive");
  for (int64_t v : dil)
    if (v <= 0) init.fail("attribute 'dilations' " + shapeToString(dil) + " must be positive");
  for (int64_t v : pads)
    if (v < 0) init.fail("attribute 'pads' " + shapeToString(pads) + " must not be negative");
  return makeKernel([=](KernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    const auto image = ctx.input(1).toInt64Vector();
    const auto block = ctx.input(2).toInt64Vector();
    const size_t sp = image.size();
    if (block.size() != sp || x.rank() != 3)
      ctx.fail(inName(ctx, 0) + " shape " + shapeToString(x.shape()) + ", image_shape " + shapeToString(image) +
               " and block_shape " + shapeToString(block) + " do not fit together");
    for (size_t i = 0; i < sp; ++i)
      if (image[i] < 0 || block[i] <= 0)
        ctx.fail("image_shape " + shapeToString(image) + " must not be negative and block_shape " +
                 shapeToString(block) + " must be positive");
    auto get = [&](const std::vector<int64_t>& v, size_t i, int64_t def) { return v.empty() ? def : v.at(i); };
    if ((!dil.empty() && dil.size() != sp) || (!strides.empty() && strides.size() != sp) ||
        (!pads.empty() && pads.size() != 2 * sp))
      ctx.fail("dilations, strides and pads must match the " + std::to_string(sp) + " spatial dims");
    int64_t kernelSize = 1, blocks = 1, plane = 1;
    std::vector<int64_t> nblk(sp);
    for (size_t i = 0; i < sp; ++i) {
      kernelSize *= block[i];
      plane *= image[i];
      nblk[i] = (image[i] + get(pads, i, 0) + get(pads, i + sp, 0) - get(dil, i, 1) * (block[i] - 1) - 1) /
                    get(strides, i, 1) + 1;
      blocks *= nblk[i];
    }
    if (kernelSize <= 0 || x.dim(1) % kernelSize != 0 || x.dim(2) != blocks)
      ctx.fail(inName(ctx, 0) + " shape " + shapeToString(x.shape()) + " does not fit block_shape " +
               shapeToString(block) + " with " + std::to_string(blocks) + " sliding blocks");
    const int64_t N = x.dim(0), C = x.dim(1) / kernelSize;
    dispatchType<float, double, Float16, int32_t, int64_t>(x.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      using A = std::conditional_t<std::is_same_v<T, Float16>, float, T>;
      const T* px = x.data<T>();
      std::vector<int64_t> yshape = {N, C};
      yshape.insert(yshape.end(), image.begin(), image.end());
      T* py = ctx.allocateOutput(0, yshape, x.dtype()).template data<T>();
      ctx.pool().parallelFor(N * C, [&](int64_t b, int64_t e) {
        std::vector<A> acc(plane);
        std::vector<int64_t> k(sp), bl(sp);
        for (int64_t nc = b; nc < e; ++nc) {
          std::fill(acc.begin(), acc.end(), A(0));
          for (int64_t kf = 0; kf < kernelSize; ++kf) {
            for (int64_t r = kf, i = static_cast<int64_t>(sp) - 1; i >= 0; --i) k[i] = r % block[i], r /= block[i];
            const T* col = px + (nc * kernelSize + kf) * blocks;
            for (int64_t bf = 0; bf < blocks; ++bf) {
              int64_t off = 0;
              bool in = true;
              for (int64_t r = bf, i = static_cast<int64_t>(sp) - 1; i >= 0; --i) bl[i] = r % nblk[i], r /= nblk[i];
              for (size_t i = 0; i < sp && in; ++i) {
                const int64_t pos = bl[i] * get(strides, i, 1) - get(pads, i, 0) + k[i] * get(dil, i, 1);
                in = pos >= 0 && pos < image[i];
                off = off * image[i] + pos;
              }
              if (in) acc[off] += static_cast<A>(col[bf]);
            }
          }
          for (int64_t j = 0; j < plane; ++j) py[nc * plane + j] = static_cast<T>(acc[j]);
        }
      }, 1);
    }, ctx.node());
  });
}

std::unique_ptr<Kernel> makeRoiAlign(const KernelInit& init) {
  const std::string mode = init.node.attrString("mode", "avg");
  if (mode != "avg" && mode != "max") init.fail("mode must be 'avg' or 'max', got '" + mode + "'");
  const std::string ctm = init.node.attrString("coordinate_transformation_mode", init.opset < 16 ? "output_half_pixel" : "half_pixel");
  if (ctm != "half_pixel" && ctm != "output_half_pixel")
    init.fail("unknown coordinate_transformation_mode '" + ctm + "'");
  const bool halfPixel = ctm == "half_pixel", isMax = mode == "max";
  const int64_t oh = init.node.attrInt("output_height", 1), ow = init.node.attrInt("output_width", 1);
  const int64_t ratio = init.node.attrInt("sampling_ratio", 0);
  const float scale = init.node.attrFloat("spatial_scale", 1.0f);
  return makeKernel([=](KernelContext& ctx) {
    const Tensor& X = ctx.input(0);
    const Tensor& rois = ctx.input(1);
    const auto bidx = ctx.input(2).toInt64Vector();
    if (X.rank() != 4) ctx.fail(inName(ctx, 0) + " must be 4-d, got shape " + shapeToString(X.shape()));
    const int64_t R = static_cast<int64_t>(bidx.size());
    if (rois.rank() != 2 || rois.dim(1) != 4 || rois.dim(0) != R)
      ctx.fail("rois " + inName(ctx, 1) + " shape " + shapeToString(rois.shape()) + " does not fit batch_indices " +
               inName(ctx, 2) + " shape " + shapeToString(ctx.input(2).shape()));
    const int64_t C = X.dim(1), H = X.dim(2), W = X.dim(3);
    for (int64_t b : bidx)
      if (b < 0 || b >= X.dim(0)) ctx.fail("batch index " + std::to_string(b) + " is out of range");
    dispatchType<float, double, Float16>(X.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      using F = std::conditional_t<std::is_same_v<T, double>, double, float>;
      const T* px = X.data<T>();
      const T* pr = rois.data<T>();
      T* py = ctx.output(0).data<T>();
      ctx.pool().parallelFor(R, [&](int64_t b, int64_t e) {
        struct Tap { int64_t p[4]; F w[4]; };
        std::vector<Tap> taps;
        for (int64_t n = b; n < e; ++n) {
          const F off = halfPixel ? F(0.5) : F(0);
          const F sw = static_cast<F>(pr[n * 4 + 0]) * scale - off, sh = static_cast<F>(pr[n * 4 + 1]) * scale - off;
          const F ew = static_cast<F>(pr[n * 4 + 2]) * scale - off, eh = static_cast<F>(pr[n * 4 + 3]) * scale - off;
          F rw = ew - sw, rh = eh - sh;
          if (!halfPixel) rw = std::max(rw, F(1)), rh = std::max(rh, F(1));
          const F bh = rh / static_cast<F>(oh), bw = rw / static_cast<F>(ow);
          const int64_t gh = ratio > 0 ? ratio : static_cast<int64_t>(std::ceil(rh / static_cast<F>(oh)));
          const int64_t gw = ratio > 0 ? ratio : static_cast<int64_t>(std::ceil(rw / static_cast<F>(ow)));
          const F count = static_cast<F>(std::max<int64_t>(gh * gw, 1));
          taps.clear();
          for (int64_t ph = 0; ph < oh; ++ph)
            for (int64_t pw = 0; pw < ow; ++pw)
              for (int64_t iy = 0; iy < gh; ++iy)
                for (int64_t ix = 0; ix < gw; ++ix) {
                  F y = sh + static_cast<F>(ph) * bh + (static_cast<F>(iy) + F(0.5)) * bh / static_cast<F>(gh);
                  F x = sw + static_cast<F>(pw) * bw + (static_cast<F>(ix) + F(0.5)) * bw / static_cast<F>(gw);
                  Tap t{};
                  if (y < F(-1) || y > static_cast<F>(H) || x < F(-1) || x > static_cast<F>(W)) {
                    taps.push_back(t);
                    continue;
                  }
                  y = std::max(y, F(0));
                  x = std::max(x, F(0));
                  int64_t yl = static_cast<int64_t>(y), xl = static_cast<int64_t>(x), yh, xh;
                  if (yl >= H - 1) yh = yl = H - 1, y = static_cast<F>(yl);
                  else yh = yl + 1;
                  if (xl >= W - 1) xh = xl = W - 1, x = static_cast<F>(xl);
                  else xh = xl + 1;
                  const F ly = y - static_cast<F>(yl), lx = x - static_cast<F>(xl), hy = 1 - ly, hx = 1 - lx;
                  t = Tap{{yl * W + xl, yl * W + xh, yh * W + xl, yh * W + xh}, {hy * hx, hy * lx, ly * hx, ly * lx}};
                  taps.push_back(t);
                }
          for (int64_t c = 0; c < C; ++c) {
            const T* plane = px + (bidx[n] * C + c) * H * W;
            const Tap* t = taps.data();
            for (int64_t o = 0; o < oh * ow; ++o) {
              F val = 0;
              for (int64_t s = 0; s < gh * gw; ++s, ++t) {
                if (isMax) {
                  F m = t->w[0] * static_cast<F>(plane[t->p[0]]);
                  for (int q = 1; q < 4; ++q) m = std::max(m, t->w[q] * static_cast<F>(plane[t->p[q]]));
                  val = s == 0 ? m : std::max(val, m);
                } else {
                  for (int q = 0; q < 4; ++q) val += t->w[q] * static_cast<F>(plane[t->p[q]]);
                }
              }
              if (!isMax) val /= count;
              py[((n * C + c) * oh * ow) + o] = static_cast<T>(val);
            }
          }
        }
      }, 1);
    }, ctx.node());
  });
}

std::unique_ptr<Kernel> makeNms(const KernelInit& init) {
  const bool center = init.node.attrInt("center_point_box", 0) != 0;
  return makeKernel([center](KernelContext& ctx) {
    const Tensor& boxes = ctx.input(0);
    const Tensor& scores = ctx.input(1);
    if (boxes.rank() != 3 || boxes.dim(2) != 4 || scores.rank() != 3 || scores.dim(0) != boxes.dim(0) ||
        scores.dim(2) != boxes.dim(1))
      ctx.fail("boxes " + inName(ctx, 0) + " shape " + shapeToString(boxes.shape()) + " does not fit scores " +
               inName(ctx, 1) + " shape " + shapeToString(scores.shape()));
    auto optScalar = [&](size_t i) -> std::optional<double> {
      if (!ctx.hasInput(i) || ctx.input(i).numel() == 0) return std::nullopt;
      const Tensor& t = ctx.input(i);
      if (t.dtype() == DataType::kFloat) return t.data<float>()[0];
      if (t.dtype() == DataType::kDouble) return t.data<double>()[0];
      return static_cast<double>(t.toInt64Vector()[0]);
    };
    const int64_t maxOut = std::max<int64_t>(static_cast<int64_t>(optScalar(2).value_or(0)), 0);
    const double iouThr = optScalar(3).value_or(0);
    const auto scoreThr = optScalar(4);
    const int64_t B = boxes.dim(0), S = boxes.dim(1), K = scores.dim(1);
    std::vector<int64_t> sel;
    dispatchType<float, double>(boxes.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* pb = boxes.data<T>();
      const T* ps = scores.data<T>();
      // Corners (ymin, xmin, ymax, xmax) of box i in batch b.
      auto corners = [&](int64_t b, int64_t i, double* c) {
        const T* p = pb + (b * S + i) * 4;
        if (center) {
          c[1] = p[0] - p[2] / 2.0, c[3] = p[0] + p[2] / 2.0;
          c[0] = p[1] - p[3] / 2.0, c[2] = p[1] + p[3] / 2.0;
        } else {
          c[0] = std::min<double>(p[0], p[2]), c[2] = std::max<double>(p[0], p[2]);
          c[1] = std::min<double>(p[1], p[3]), c[3] = std::max<double>(p[1], p[3]);
        }
      };
      auto suppress = [&](int64_t b, int64_t i, int64_t j) {
        double u[4], v[4];
        corners(b, i, u);
        corners(b, j, v);
        const double ix = std::min(u[3], v[3]) - std::max(u[1], v[1]);
        const double iy = std::min(u[2], v[2]) - std::max(u[0], v[0]);
        if (ix <= 0 || iy <= 0) return false;
        const double inter = ix * iy;
        const double a1 = (u[3] - u[1]) * (u[2] - u[0]), a2 = (v[3] - v[1]) * (v[2] - v[0]);
        const double uni = a1 + a2 - inter;
        if (a1 <= 0 || a2 <= 0 || uni <= 0) return false;
        return inter / uni > iouThr;
      };
      std::vector<int64_t> cand, kept;
      for (int64_t b = 0; b < B; ++b)
        for (int64_t k = 0; k < K; ++k) {
          const T* s = ps + (b * K + k) * S;
          cand.clear();
          kept.clear();
          for (int64_t i = 0; i < S; ++i)
            if (!scoreThr || static_cast<double>(s[i]) > *scoreThr) cand.push_back(i);
          // Highest score first; equal scores keep the lower index first.
          std::stable_sort(cand.begin(), cand.end(), [&](int64_t x, int64_t y) { return s[x] > s[y]; });
          for (int64_t i : cand) {
            if (static_cast<int64_t>(kept.size()) >= maxOut) break;
            bool ok = true;
            for (int64_t j : kept)
              if (suppress(b, i, j)) {
                ok = false;
                break;
              }
            if (ok) {
              kept.push_back(i);
              sel.insert(sel.end(), {b, k, i});
            }
          }
        }
    }, ctx.node());
    Tensor& y = ctx.allocateOutput(0, {static_cast<int64_t>(sel.size() / 3), 3}, DataType::kInt64);
    std::copy(sel.begin(), sel.end(), y.data<int64_t>());
  });
}

}  // namespace

void register_image_roi(Registry& r) {
  const std::vector<DataType> types = {DataType::kFloat, DataType::kDouble, DataType::kFloat16};
  addVersions(r, "Col2Im", {18}, shape::inferCol2Im, makeCol2Im,
              {DataType::kFloat, DataType::kDouble, DataType::kFloat16, DataType::kInt32, DataType::kInt64});
  addVersions(r, "RoiAlign", {10, 16, 22}, shape::inferRoiAlign, makeRoiAlign, types);
  addVersions(r, "NonMaxSuppression", {10, 11}, shape::inferNonMaxSuppression, makeNms,
              {DataType::kFloat, DataType::kDouble});
}

}  // namespace oinfer
