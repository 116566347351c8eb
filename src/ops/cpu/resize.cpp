// Resize (10, 11, 13, 18, 19) and Upsample (1, 7, 9, 10) on the CPU.
//
// Method: the ONNX resize is separable, so for each resized axis we compute
// once per call a small table: for every output position the source taps
// (1 for nearest, 2 for linear, 4 for cubic, more for antialiased
// downsampling whose filter is stretched by 1/scale) with their weights,
// already clamped to the edge, with exclude_outside renormalisation and a flag
// for tf_crop_and_resize extrapolation. Nearest is then one n-d gather (any
// dtype, bytes copied). Linear and cubic run one pass per resized axis over
// [outer, axis, inner] blocks: with inner > 1 the taps are whole contiguous
// rows, so the inner loop vectorises; on the last axis each output is a short
// dot product. Passes are parallelised over rows, not planes, so a single
// large plane (the SRCNN luma channel) still uses every thread.
//
// Coordinates are computed in float as ONNX Runtime does, with the spec's
// fractional length_resized where scales are given (see resizeSourceCoord); weights in
// double; the arithmetic runs in float (double for double and 32/64-bit ints).
#include <algorithm>
#include <cmath>
#include <limits>

#include "ops/common/resize_coords.h"
#include "ops/cpu/dispatch.h"
#include "ops/registry.h"
#include "shape/resize.h"

namespace oinfer {

namespace {

using shape::NearestMode;
using shape::ResizeCoord;
using shape::ResizeMode;
using shape::ResizeParams;
using shape::resizeNearestIndex;
using shape::resizeSourceCoord;

struct AxisTable {
  int64_t axis = 0, inLen = 0, outLen = 0;
  int taps = 1;
  std::vector<int64_t> idx;     // outLen * taps source indices, in [0, inLen)
  std::vector<double> w;        // outLen * taps weights
  std::vector<uint8_t> extrap;  // outLen flags (tf_crop_and_resize), or empty
};

double cubicKernel(double d, double a) {
  d = std::fabs(d);
  if (d <= 1) return ((a + 2) * d - (a + 3)) * d * d + 1;
  if (d < 2) return ((a * d - 5 * a) * d + 8 * a) * d - 4 * a;
  return 0.0;
}

AxisTable buildAxis(const ResizeParams& p, int64_t axis, int64_t inLen, int64_t outLen, double lenResized,
                    double scale, double roiStart, double roiEnd) {
  AxisTable t;
  t.axis = axis;
  t.inLen = inLen;
  t.outLen = outLen;
  const bool crop = p.coord == ResizeCoord::kTfCropAndResize;
  if (crop) t.extrap.assign(static_cast<size_t>(outLen), 0);

  // Antialiasing stretches the filter by 1/scale when downsampling.
  const double fs = p.antialias && scale < 1 ? scale : 1.0;
  int n = 1;
  if (p.mode == ResizeMode::kLinear) n = static_cast<int>(2 - 2 * (std::floor(-1 / fs) + 1));
  if (p.mode == ResizeMode::kCubic) n = static_cast<int>(2 - 2 * (std::floor(-2 / fs) + 1));
  t.taps = n;
  t.idx.resize(static_cast<size_t>(outLen * n));
  t.w.resize(static_cast<size_t>(outLen * n));

  for (int64_t x = 0; x < outLen; ++x) {
    const double xo = resizeSourceCoord(p, x, scale, inLen, outLen, lenResized, roiStart, roiEnd);
    if (crop && (xo < 0 || xo > static_cast<double>(inLen - 1))) t.extrap[x] = 1;
    int64_t* idx = &t.idx[x * n];
    double* w = &t.w[x * n];
    if (p.mode == ResizeMode::kNearest) {
      idx[0] = std::clamp<int64_t>(resizeNearestIndex(p.nearest, xo, scale), 0, inLen - 1);
      w[0] = 1;
      continue;
    }
    // The n source positions nearest to xo, ties going to the smaller index.
    const double fl = std::floor(xo);
    const int64_t first = static_cast<int64_t>(fl) - n / 2 + (xo == fl ? 0 : 1);
    double sum = 0;
    for (int k = 0; k < n; ++k) {
      const int64_t src = first + k;
      const double d = fs * (static_cast<double>(src) - xo);
      double wk = p.mode == ResizeMode::kLinear ? std::max(0.0, 1 - std::fabs(d)) : cubicKernel(d, p.cubicA);
      if (p.excludeOutside && (src < 0 || src >= inLen)) wk = 0;
      w[k] = wk;
      sum += wk;
      idx[k] = std::clamp<int64_t>(src, 0, inLen - 1);
    }
    if ((p.antialias || p.excludeOutside) && sum != 0)
      for (int k = 0; k < n; ++k) w[k] /= sum;
  }
  return t;
}

// ---- nearest: one n-d gather -----------------------------------------------

template <class U>
void gatherNearest(const U* in, U* out, const std::vector<int64_t>& outDims,
                   const std::vector<std::vector<int64_t>>& offs, U fill, ThreadPool& pool) {
  const size_t r = outDims.size();
  if (r == 0) {
    out[0] = in[0];
    return;
  }
  const int64_t lastLen = outDims[r - 1];
  int64_t rows = 1;
  for (size_t d = 0; d + 1 < r; ++d) rows *= outDims[d];
  pool.parallelFor(rows, [&](int64_t b, int64_t e) {
    for (int64_t row = b; row < e; ++row) {
      int64_t rem = row, base = 0;
      bool outside = false;
      for (size_t d = r - 1; d-- > 0;) {
        const int64_t off = offs[d][rem % outDims[d]];
        rem /= outDims[d];
        if (off < 0) outside = true;
        base += off;
      }
      U* o = out + row * lastLen;
      const std::vector<int64_t>& last = offs[r - 1];
      if (outside) {
        std::fill(o, o + lastLen, fill);
        continue;
      }
      for (int64_t j = 0; j < lastLen; ++j) o[j] = last[j] < 0 ? fill : in[base + last[j]];
    }
  }, std::max<int64_t>(1, 16384 / std::max<int64_t>(1, lastLen)));
}

template <class T>
T castFill(float v) {
  if constexpr (std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>) return T(v);
  else if constexpr (std::is_same_v<T, bool>) return v != 0;
  else return static_cast<T>(v);
}

// ---- linear / cubic: one pass per axis ---------------------------------------

template <class C>
void axisPass(const C* src, C* dst, int64_t outer, int64_t inner, const AxisTable& t,
              const std::vector<C>& w, C fill, ThreadPool& pool) {
  const int64_t inLen = t.inLen, outLen = t.outLen;
  const int n = t.taps;
  const int64_t* idx = t.idx.data();
  const bool crop = !t.extrap.empty();
  if (inner == 1) {
    pool.parallelFor(outer, [&](int64_t b, int64_t e) {
      for (int64_t o = b; o < e; ++o) {
        const C* s = src + o * inLen;
        C* d = dst + o * outLen;
        for (int64_t x = 0; x < outLen; ++x) {
          if (crop && t.extrap[x]) {
            d[x] = fill;
            continue;
          }
          const C* wx = &w[x * n];
          const int64_t* ix = idx + x * n;
          C acc = 0;
          for (int k = 0; k < n; ++k) acc += wx[k] * s[ix[k]];
          d[x] = acc;
        }
      }
    }, std::max<int64_t>(1, 8192 / std::max<int64_t>(1, outLen * n)));
    return;
  }
  pool.parallelFor(outer * outLen, [&](int64_t b, int64_t e) {
    for (int64_t row = b; row < e; ++row) {
      const int64_t o = row / outLen, x = row % outLen;
      C* d = dst + row * inner;
      if (crop && t.extrap[x]) {
        std::fill(d, d + inner, fill);
        continue;
      }
      const C* s = src + o * inLen * inner;
      const C* wx = &w[x * n];
      const int64_t* ix = idx + x * n;
      if (n == 4) {
        const C *s0 = s + ix[0] * inner, *s1 = s + ix[1] * inner, *s2 = s + ix[2] * inner, *s3 = s + ix[3] * inner;
        const C w0 = wx[0], w1 = wx[1], w2 = wx[2], w3 = wx[3];
        for (int64_t i = 0; i < inner; ++i) d[i] = w0 * s0[i] + w1 * s1[i] + w2 * s2[i] + w3 * s3[i];
      } else if (n == 2) {
        const C *s0 = s + ix[0] * inner, *s1 = s + ix[1] * inner;
        const C w0 = wx[0], w1 = wx[1];
        for (int64_t i = 0; i < inner; ++i) d[i] = w0 * s0[i] + w1 * s1[i];
      } else {
        const C* s0 = s + ix[0] * inner;
        for (int64_t i = 0; i < inner; ++i) d[i] = wx[0] * s0[i];
        for (int k = 1; k < n; ++k) {
          const C* sk = s + ix[k] * inner;
          const C wk = wx[k];
          for (int64_t i = 0; i < inner; ++i) d[i] += wk * sk[i];
        }
      }
    }
  }, std::max<int64_t>(1, 8192 / (inner * n)));
}

template <class T, class C>
C toCompute(T v) {
  if constexpr (std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>) return static_cast<C>(static_cast<float>(v));
  else return static_cast<C>(v);
}

template <class T, class C>
T fromCompute(C v) {
  if constexpr (std::is_same_v<T, C>) {
    return v;
  } else if constexpr (std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>) {
    return T(static_cast<float>(v));
  } else {
    // Integer outputs truncate toward zero, then saturate, as onnxruntime does
    // (the ONNX reference rounds to nearest instead).
    const C r = std::trunc(v);
    const C lo = static_cast<C>(std::numeric_limits<T>::lowest()), hi = static_cast<C>(std::numeric_limits<T>::max());
    if (!(r > lo)) return std::numeric_limits<T>::lowest();
    if (!(r < hi)) return std::numeric_limits<T>::max();
    return static_cast<T>(r);
  }
}

// Buffers a Resize kernel keeps between runs (a warm run allocates nothing).
template <class C>
struct InterpBuffers {
  std::vector<C> converted, buf[2], w;
  std::vector<int64_t> dims;
};

template <class T, class C>
void interpolate(const Tensor& X, Tensor& Y, const std::vector<AxisTable>& tables, float fill, ThreadPool& pool,
                 InterpBuffers<C>& sb) {
  const T* xin = X.data<T>();
  T* yout = Y.data<T>();
  auto& converted = sb.converted;
  auto& buf = sb.buf;
  const C* src;
  if constexpr (std::is_same_v<T, C>) {
    src = xin;
  } else {
    converted.resize(static_cast<size_t>(X.numel()));
    for (int64_t i = 0; i < X.numel(); ++i) converted[i] = toCompute<T, C>(xin[i]);
    src = converted.data();
  }
  std::vector<int64_t>& dims = sb.dims;
  dims.assign(X.shape().begin(), X.shape().end());
  for (size_t k = 0; k < tables.size(); ++k) {
    const AxisTable& t = tables[k];
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < t.axis; ++d) outer *= dims[d];
    for (size_t d = t.axis + 1; d < dims.size(); ++d) inner *= dims[d];
    dims[t.axis] = t.outLen;
    C* dst = nullptr;
    if constexpr (std::is_same_v<T, C>) {
      if (k + 1 == tables.size()) dst = yout;  // the last pass writes the output directly
    }
    if (!dst) {
      buf[k % 2].resize(static_cast<size_t>(outer * t.outLen * inner));
      dst = buf[k % 2].data();
    }
    sb.w.assign(t.w.begin(), t.w.end());
    axisPass<C>(src, dst, outer, inner, t, sb.w, static_cast<C>(fill), pool);
    src = dst;
  }
  if (tables.empty() || !std::is_same_v<T, C>)
    for (int64_t i = 0; i < Y.numel(); ++i) yout[i] = fromCompute<T, C>(src[i]);
}

void readDoubles(const Tensor& t, std::vector<double>& v) {
  v.resize(static_cast<size_t>(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i) {
    switch (t.dtype()) {
      case DataType::kFloat: v[i] = t.data<float>()[i]; break;
      case DataType::kDouble: v[i] = t.data<double>()[i]; break;
      case DataType::kFloat16: v[i] = static_cast<float>(t.data<Float16>()[i]); break;
      case DataType::kBFloat16: v[i] = static_cast<float>(t.data<BFloat16>()[i]); break;
      case DataType::kInt64: v[i] = static_cast<double>(t.data<int64_t>()[i]); break;
      case DataType::kInt32: v[i] = static_cast<double>(t.data<int32_t>()[i]); break;
      default: v[i] = static_cast<double>(t.toInt64Vector()[i]); break;
    }
  }
}

std::vector<double> doubleValues(const Tensor& t) {
  std::vector<double> v;
  readDoubles(t, v);
  return v;
}

class ResizeKernel final : public Kernel {
 public:
  ResizeKernel(const Node& node, int64_t opset) : p_(shape::parseResizeParams(node, opset)) {}

  // Geometry and tables depend only on the input shape and the scales /
  // sizes / roi values: they are rebuilt when one of those changes, so a warm
  // run with the same ones allocates nothing.
  void run(KernelContext& ctx) override {
    const Tensor& X = ctx.input(0);
    auto valuesOf = [&](int idx, std::vector<double>& out) {
      if (idx < 0 || !ctx.hasInput(idx)) out.clear();
      else readDoubles(ctx.input(idx), out);
    };
    valuesOf(p_.scalesInput, curScales_);
    valuesOf(p_.sizesInput, curSizes_);
    valuesOf(p_.roiInput, curRoi_);
    const bool same = cached_ && X.shape() == cacheShape_ && X.dtype() == cacheType_ && curScales_ == cacheScales_ &&
                      curSizes_ == cacheSizes_ && curRoi_ == cacheRoi_;
    if (!same) {
      prepare(ctx, X);
      cacheShape_ = X.shape();
      cacheType_ = X.dtype();
      cacheScales_ = curScales_;
      cacheSizes_ = curSizes_;
      cacheRoi_ = curRoi_;
      cached_ = true;
    }
    Tensor& Y = ctx.allocateOutput(0, outDims_, X.dtype());
    if (Y.numel() == 0) return;
    if (X.numel() == 0) ctx.fail("cannot resize an empty input to a non-empty output");
    if (p_.mode == ResizeMode::kNearest)
      runNearest(ctx, X, Y);
    else
      runInterp(ctx, X, Y, tables_);
  }

 private:
  void prepare(KernelContext& ctx, const Tensor& X) {
    cached_ = false;
    const Node& node = ctx.node();
    const int64_t rank = static_cast<int64_t>(X.rank());
    const std::vector<int64_t> axes = shape::resizeAxes(node, p_, rank);
    auto given = [&](int idx) -> const Tensor* {
      if (idx < 0 || !ctx.hasInput(idx) || ctx.input(idx).numel() == 0) return nullptr;
      return &ctx.input(idx);
    };
    const Tensor* scalesT = given(p_.scalesInput);
    const Tensor* sizesT = given(p_.sizesInput);
    if (scalesT && sizesT) ctx.fail("both 'scales' and 'sizes' are given; exactly one is allowed");
    std::vector<float> scales;
    std::vector<int64_t> sizes;
    if (p_.scalesFromAttr) {
      scales = p_.attrScales;
    } else if (scalesT) {
      for (double v : doubleValues(*scalesT)) scales.push_back(static_cast<float>(v));
    } else if (sizesT) {
      sizes = sizesT->toInt64Vector();
    } else {
      ctx.fail("neither 'scales' nor 'sizes' is given; exactly one is required");
    }
    const bool useScales = p_.scalesFromAttr || scalesT;
    const shape::ResizeGeometry g = shape::resolveResizeGeometry(node, p_, X.shape(), axes,
                                                                 useScales ? &scales : nullptr,
                                                                 useScales ? nullptr : &sizes);
    outDims_ = g.outDims;
    tables_.clear();
    offs_.clear();
    if (numElements(outDims_) == 0) return;

    std::vector<double> roiStart(rank, 0.0), roiEnd(rank, 1.0);
    if (p_.coord == ResizeCoord::kTfCropAndResize) {
      const Tensor* roiT = given(p_.roiInput);
      if (!roiT) ctx.fail("coordinate_transformation_mode 'tf_crop_and_resize' needs input 1 ('roi')");
      const std::vector<double> roi = doubleValues(*roiT);
      if (roi.size() != 2 * axes.size())
        ctx.fail("input 1 ('" + node.inputs[1] + "') has " + std::to_string(roi.size()) + " values but expected " +
                 std::to_string(2 * axes.size()) + " (start and end per resized axis)");
      for (size_t i = 0; i < axes.size(); ++i) {
        roiStart[axes[i]] = roi[i];
        roiEnd[axes[i]] = roi[axes.size() + i];
      }
    }
    if (X.numel() == 0) ctx.fail("cannot resize an empty input to a non-empty output");

    std::vector<AxisTable>& tables = tables_;
    for (int64_t d = 0; d < rank; ++d) {
      const bool identity = g.scales[d] == 1.0 && g.outDims[d] == X.dim(d) && roiStart[d] == 0.0 && roiEnd[d] == 1.0;
      // Sizes with a keep_aspect_ratio_policy resize by a scale too.
      const bool fractional = useScales || p_.policy != shape::AspectPolicy::kStretch;
      const double lenResized = fractional ? g.scales[d] * static_cast<double>(X.dim(d)) : static_cast<double>(g.outDims[d]);
      if (!identity)
        tables.push_back(buildAxis(p_, d, X.dim(d), g.outDims[d], lenResized, g.scales[d], roiStart[d], roiEnd[d]));
    }
    if (p_.mode == ResizeMode::kNearest) nearestOffsets(X, tables);
  }

  // Per output dim, the source offset of each output coordinate (-1: outside, fill).
  void nearestOffsets(const Tensor& X, const std::vector<AxisTable>& tables) {
    const size_t r = X.rank();
    std::vector<std::vector<int64_t>>& offs = offs_;
    offs.assign(r, {});
    int64_t stride = 1;
    size_t ti = tables.size();
    for (size_t d = r; d-- > 0;) {
      const AxisTable* t = ti > 0 && tables[ti - 1].axis == static_cast<int64_t>(d) ? &tables[--ti] : nullptr;
      const int64_t outLen = outDims_[d];
      offs[d].resize(static_cast<size_t>(outLen));
      for (int64_t x = 0; x < outLen; ++x) {
        const bool out = t && !t->extrap.empty() && t->extrap[x];
        offs[d][x] = out ? -1 : (t ? t->idx[x] : x) * stride;
      }
      stride *= X.dim(d);
    }
  }

  void runNearest(KernelContext& ctx, const Tensor& X, Tensor& Y) const {
    dispatchType<float, double, Float16, BFloat16, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t,
                 int64_t, uint64_t, bool>(X.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      gatherNearest<T>(X.data<T>(), Y.data<T>(), Y.shape(), offs_, castFill<T>(p_.extrapolation), ctx.pool());
    }, ctx.node());
  }

  void runInterp(KernelContext& ctx, const Tensor& X, Tensor& Y, const std::vector<AxisTable>& tables) {
    const float fill = p_.extrapolation;
    auto& pool = ctx.pool();
    switch (X.dtype()) {
      case DataType::kFloat: interpolate<float, float>(X, Y, tables, fill, pool, bf_); break;
      case DataType::kDouble: interpolate<double, double>(X, Y, tables, fill, pool, bd_); break;
      case DataType::kFloat16: interpolate<Float16, float>(X, Y, tables, fill, pool, bf_); break;
      case DataType::kBFloat16: interpolate<BFloat16, float>(X, Y, tables, fill, pool, bf_); break;
      case DataType::kInt8: interpolate<int8_t, float>(X, Y, tables, fill, pool, bf_); break;
      case DataType::kUInt8: interpolate<uint8_t, float>(X, Y, tables, fill, pool, bf_); break;
      case DataType::kInt32: interpolate<int32_t, double>(X, Y, tables, fill, pool, bd_); break;
      case DataType::kInt64: interpolate<int64_t, double>(X, Y, tables, fill, pool, bd_); break;
      default:
        ctx.fail(std::string("mode 'linear'/'cubic' does not support data type ") + dataTypeName(X.dtype()));
    }
  }

  ResizeParams p_;
  // The cache key and what it keys.
  bool cached_ = false;
  std::vector<int64_t> cacheShape_;
  DataType cacheType_ = DataType::kUndefined;
  std::vector<double> curScales_, curSizes_, curRoi_, cacheScales_, cacheSizes_, cacheRoi_;
  std::vector<int64_t> outDims_;
  std::vector<AxisTable> tables_;
  std::vector<std::vector<int64_t>> offs_;
  InterpBuffers<float> bf_;
  InterpBuffers<double> bd_;
};

}  // namespace

void register_resize(Registry& r) {
  const std::vector<DataType> types = {DataType::kFloat, DataType::kDouble, DataType::kFloat16,
                                       DataType::kBFloat16, DataType::kInt8, DataType::kUInt8,
                                       DataType::kInt16, DataType::kUInt16, DataType::kInt32,
                                       DataType::kUInt32, DataType::kInt64, DataType::kUInt64,
                                       DataType::kBool};
  auto factory = [](const KernelInit& init) -> std::unique_ptr<Kernel> {
    return std::make_unique<ResizeKernel>(init.node, init.opset);
  };
  for (int v : {10, 11, 13, 18, 19}) {
    OpDef def;
    def.opType = "Resize";
    def.sinceVersion = v;
    def.shape = shape::inferResize;
    def.cpu = factory;
    def.types = types;
    r.add(std::move(def));
  }
  // Upsample-10 is the deprecated alias of Resize-10; same behaviour.
  for (int v : {1, 7, 9, 10}) {
    OpDef def;
    def.opType = "Upsample";
    def.sinceVersion = v;
    def.shape = shape::inferResize;
    def.cpu = factory;
    def.types = types;
    r.add(std::move(def));
  }
}

}  // namespace oinfer
