// QuantizeLinear, DequantizeLinear and DynamicQuantizeLinear. Scales and zero
// points are per tensor, per axis (1-d along `axis`) or blocked (same rank as
// x, `block_size` elements of x along `axis` per entry); rounding is half to
// even as in the ONNX reference.
#include <algorithm>
#include <cmath>
#include <limits>

#include "ops/cpu/dispatch.h"
#include "ops/cpu/lowbit.h"
#include "ops/cpu/quantize_common.h"
#include "ops/cpu/quantize_simd.h"
#include "shape/infer_context.h"
#include "shape/quantize.h"

namespace oinfer {

namespace quant {

std::string inputDesc(const Node& node, size_t i) {
  return "input " + std::to_string(i) + " ('" + (i < node.inputs.size() ? node.inputs[i] : std::string()) + "')";
}

std::vector<double> toDoubles(const Tensor& t, const Node& node) {
  const int64_t n = t.numel();
  std::vector<double> v(static_cast<size_t>(n));
  if (lowbit::isLowBit(t.dtype())) {
    const uint8_t* p = t.data<uint8_t>();
    for (int64_t i = 0; i < n; ++i) v[i] = lowbit::toFloat(t.dtype(), p[i]);
    return v;
  }
  dispatchType<float, double, Float16, BFloat16, int8_t, uint8_t, int16_t, uint16_t, int32_t, int64_t, uint32_t>(
      t.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T* p = t.data<T>();
        for (int64_t i = 0; i < n; ++i) {
          if constexpr (std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>) v[i] = static_cast<float>(p[i]);
          else v[i] = static_cast<double>(p[i]);
        }
      }, node);
  return v;
}

std::vector<int32_t> toInt32(const Tensor& t, const Node& node) {
  const int64_t n = t.numel();
  std::vector<int32_t> v(static_cast<size_t>(n));
  if (lowbit::isLowBitInt(t.dtype())) {
    const uint8_t* p = t.data<uint8_t>();
    for (int64_t i = 0; i < n; ++i) v[i] = static_cast<int32_t>(lowbit::toFloat(t.dtype(), p[i]));
    return v;
  }
  dispatchType<int8_t, uint8_t, int16_t, uint16_t, int32_t>(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* p = t.data<T>();
    for (int64_t i = 0; i < n; ++i) v[i] = static_cast<int32_t>(p[i]);
  }, node);
  return v;
}

}  // namespace quant

namespace {

using quant::inputDesc;

// Maps an element of x to its scale / zero-point entry.
struct ParamIndex {
  int64_t outer = 1, dim = 1, inner = 1;  // x viewed as [outer, dim, inner] around the axis
  int64_t paramDim = 1, block = 0;        // param extent along the axis; block size (0: per axis)
  bool perTensor = true;

  int64_t at(int64_t o, int64_t j, int64_t in) const {
    if (perTensor) return 0;
    if (block == 0) return j;
    return (o * paramDim + j / block) * inner + in;
  }
};

ParamIndex paramIndex(const KernelContext& ctx, const Tensor& x, const Tensor& p, size_t pi, int64_t axis,
                      int64_t block) {
  ParamIndex ix;
  if (p.numel() == 1 && (block == 0 || p.rank() <= 1)) return ix;
  const int64_t r = static_cast<int64_t>(x.rank());
  if (axis < -r || axis >= r)
    ctx.fail("axis " + std::to_string(axis) + " is out of range for input 0 of shape " + shapeToString(x.shape()));
  const size_t a = static_cast<size_t>(axis < 0 ? axis + r : axis);
  ix.perTensor = false;
  for (size_t d = 0; d < a; ++d) ix.outer *= x.dim(d);
  ix.dim = x.dim(a);
  for (size_t d = a + 1; d < x.rank(); ++d) ix.inner *= x.dim(d);
  if (block <= 0) {
    if (p.rank() != 1 || p.dim(0) != ix.dim)
      ctx.fail(inputDesc(ctx.node(), pi) + " has shape " + shapeToString(p.shape()) + " but input 0 has shape " +
               shapeToString(x.shape()) + "; a per-axis parameter must be 1-d of size " + std::to_string(ix.dim) +
               " (axis " + std::to_string(a) + ")");
    return ix;
  }
  ix.block = block;
  ix.paramDim = (ix.dim + block - 1) / block;
  bool ok = p.rank() == x.rank();
  for (size_t d = 0; ok && d < x.rank(); ++d) ok = p.dim(d) == (d == a ? ix.paramDim : x.dim(d));
  if (!ok)
    ctx.fail(inputDesc(ctx.node(), pi) + " has shape " + shapeToString(p.shape()) + " but input 0 has shape " +
             shapeToString(x.shape()) + "; with block_size " + std::to_string(block) + " on axis " +
             std::to_string(a) + " it must equal it except for " + std::to_string(ix.paramDim) + " along the axis");
  return ix;
}

// Calls f(element, scale index, zero-point index) for every element of x,
// in parallel over rows of the [outer, dim, inner] view.
template <class F>
void forEachElement(KernelContext& ctx, const Tensor& x, const ParamIndex& si, const ParamIndex& zi, F&& f) {
  const ParamIndex& g = si.perTensor ? zi : si;
  const int64_t dim = g.perTensor ? x.numel() : g.dim, inner = g.perTensor ? 1 : g.inner;
  const int64_t rows = g.perTensor ? (x.numel() > 0 ? 1 : 0) * dim : g.outer * dim;
  ctx.pool().parallelFor(rows, [&](int64_t b, int64_t e) {
    for (int64_t r = b; r < e; ++r) {
      const int64_t o = r / dim, j = r % dim;
      for (int64_t in = 0; in < inner; ++in)
        f(r * inner + in, si.perTensor ? 0 : si.at(o, j, in), zi.perTensor ? 0 : zi.at(o, j, in));
    }
  }, std::max<int64_t>(1, 16384 / std::max<int64_t>(inner, 1)));
}

// Rounds a quotient to the precision numpy computes it in.
double roundTo(DataType t, double v) {
  switch (t) {
    case DataType::kFloat: return static_cast<float>(v);
    case DataType::kFloat16: return halfToFloat(floatToHalf(static_cast<float>(v)));
    case DataType::kBFloat16: return static_cast<float>(BFloat16(static_cast<float>(v)));
    default: return v;
  }
}

struct QuantAttrs {
  int64_t axis = 1, block = 0;
  bool saturate = true;
  DataType precision = DataType::kUndefined;
};

QuantAttrs quantAttrs(const KernelInit& init) {
  QuantAttrs a;
  a.axis = init.node.attrInt("axis", 1);
  if (init.opset >= 19) a.saturate = init.node.attrInt("saturate", 1) != 0;
  if (init.opset >= 21) a.block = init.node.attrInt("block_size", 0);
  if (a.block < 0) init.fail("attribute 'block_size' must be >= 0, got " + std::to_string(a.block));
  if (init.opset >= 23) a.precision = static_cast<DataType>(init.node.attrInt("precision", 0));
  return a;
}

// Per-tensor float32 <-> int8 / uint8: what a QDQ model runs between its
// integer ops (the residual Adds, pools and outputs left in float), one
// plain loop each with no double temporaries. Bit for bit the general path's
// results: the quotient x / scale is the float32 division (as numpy's, which
// the general path rounds to), (x - zp) * scale is exact in float32 before
// the one rounding of the product, and NaN quantizes to the zero point.
constexpr int64_t kFastChunk = 1 << 14;
constexpr float kRoundMagic = 12582912.f;  // 1.5 * 2^23

bool perTensorInt8(const KernelContext& ctx, size_t zpIndex, DataType q) {
  if (q != DataType::kUInt8 && q != DataType::kInt8) return false;
  const Tensor& s = ctx.input(1);
  if (s.dtype() != DataType::kFloat || s.numel() != 1) return false;
  return !ctx.hasInput(zpIndex) || (ctx.input(zpIndex).dtype() == q && ctx.input(zpIndex).numel() == 1);
}

int zeroPointOf(const KernelContext& ctx, size_t zpIndex) {
  if (!ctx.hasInput(zpIndex)) return 0;
  const Tensor& z = ctx.input(zpIndex);
  return z.dtype() == DataType::kInt8 ? z.data<int8_t>()[0] : z.data<uint8_t>()[0];
}

template <class T>
void quantizeFast(KernelContext& ctx, const float* x, int64_t n, float scale, float zp, T* y) {
  const float lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
  ctx.pool().parallelFor((n + kFastChunk - 1) / kFastChunk, [&](int64_t b, int64_t e) {
    for (int64_t i = b * kFastChunk, end = std::min(n, e * kFastChunk); i < end; ++i) {
      float q = x[i] / scale;
      q = q == q ? q : 0.f;                          // NaN quantizes to the zero point
      q = std::min(std::max(q, -65536.f), 65536.f);  // beyond that it saturates anyway
      // Round half to even without a libm call, so the loop vectorises: at
      // 1.5 * 2^23 a float's unit is 1, and the default rounding mode rounds
      // the sum to even (nearbyint assumes that mode too).
      const float r = (q + kRoundMagic) - kRoundMagic;
      y[i] = static_cast<T>(std::min(std::max(r + zp, lo), hi));
    }
  }, 1);
}

template <class T>
void dequantizeFast(KernelContext& ctx, const T* x, int64_t n, float scale, int zp, float* y) {
  ctx.pool().parallelFor((n + kFastChunk - 1) / kFastChunk, [&](int64_t b, int64_t e) {
    for (int64_t i = b * kFastChunk, end = std::min(n, e * kFastChunk); i < end; ++i)
      y[i] = static_cast<float>(static_cast<int>(x[i]) - zp) * scale;
  }, 1);
}

template <class T>
void storeInts(Tensor& out, const std::vector<int64_t>& v, int64_t lo, int64_t hi) {
  T* d = out.data<T>();
  for (size_t i = 0; i < v.size(); ++i) d[i] = static_cast<T>(std::clamp(v[i], lo, hi));
}

std::unique_ptr<Kernel> quantizeKernel(const KernelInit& init) {
  const QuantAttrs at = quantAttrs(init);
  return makeKernel([at](KernelContext& ctx) {
    const Node& node = ctx.node();
    const Tensor& x = ctx.input(0);
    const Tensor& s = ctx.input(1);
    Tensor& out = ctx.output(0);
    const DataType ot = out.dtype();
    if (x.dtype() == DataType::kFloat && at.block == 0 &&
        (at.precision == DataType::kUndefined || at.precision == DataType::kFloat) && perTensorInt8(ctx, 2, ot)) {
      const float scale = s.data<float>()[0], zp = static_cast<float>(zeroPointOf(ctx, 2));
      if (ot == DataType::kUInt8) quantizeFast(ctx, x.data<float>(), x.numel(), scale, zp, out.data<uint8_t>());
      else quantizeFast(ctx, x.data<float>(), x.numel(), scale, zp, out.data<int8_t>());
      return;
    }
    const bool hasZp = ctx.hasInput(2);
    if (hasZp && ctx.input(2).dtype() != ot)
      ctx.fail(inputDesc(node, 2) + " has type " + dataTypeName(ctx.input(2).dtype()) + ", output is " +
               dataTypeName(ot));
    const ParamIndex si = paramIndex(ctx, x, s, 1, at.axis, at.block);
    ParamIndex zi;
    std::vector<double> zp{0.0};
    if (hasZp) {
      zi = paramIndex(ctx, x, ctx.input(2), 2, at.axis, at.block);
      zp = quant::toDoubles(ctx.input(2), node);
    }
    const std::vector<double> xv = quant::toDoubles(x, node), sv = quant::toDoubles(s, node);
    DataType calc = at.precision != DataType::kUndefined ? at.precision : x.dtype();
    if (at.precision == DataType::kUndefined && x.dtype() != s.dtype() &&
        (x.dtype() == DataType::kInt32 || s.dtype() == DataType::kFloat))
      calc = x.dtype() == DataType::kInt32 ? DataType::kDouble : DataType::kFloat;
    const bool isFloatOut = lowbit::isLowBitFloat(ot);
    int64_t lo = 0, hi = 0;
    switch (ot) {
      case DataType::kUInt8: lo = 0; hi = 255; break;
      case DataType::kInt8: lo = -128; hi = 127; break;
      case DataType::kUInt16: lo = 0; hi = 65535; break;
      case DataType::kInt16: lo = -32768; hi = 32767; break;
      case DataType::kInt4: case DataType::kUInt4: case DataType::kInt2: case DataType::kUInt2:
        lowbit::intRange(ot, lo, hi);
        break;
      default:
        if (!isFloatOut || ot == DataType::kFloat8E8M0)
          ctx.fail(std::string("output type ") + dataTypeName(ot) + " is not a quantized type");
    }
    std::vector<int64_t> qi(isFloatOut ? 0 : xv.size());
    uint8_t* fo = isFloatOut ? out.data<uint8_t>() : nullptr;
    forEachElement(ctx, x, si, zi, [&](int64_t i, int64_t sIdx, int64_t zIdx) {
      const double q = roundTo(calc, roundTo(calc, xv[i]) / roundTo(calc, sv[sIdx]));
      const double z = hasZp ? zp[zIdx] : 0.0;
      if (!isFloatOut) {
        // x / scale may be NaN or beyond int32 (a zero scale, an infinite x),
        // where the cast is undefined: NaN counts as 0, the rest clamps
        // (storeInts then saturates to the output type).
        double r = std::nearbyint(q);
        if (r != r) r = 0;
        r = std::clamp(r, static_cast<double>(INT32_MIN), static_cast<double>(INT32_MAX));
        qi[i] = static_cast<int64_t>(static_cast<int32_t>(r)) + static_cast<int64_t>(z);
      } else if (ot == DataType::kFloat4E2M1) {
        fo[i] = lowbit::fromFloat(ot, static_cast<float>(q + z), true);
      } else {
        fo[i] = lowbit::fromFloat(ot, static_cast<float>(q), at.saturate);
      }
    });
    switch (ot) {
      case DataType::kUInt8: storeInts<uint8_t>(out, qi, lo, hi); break;
      case DataType::kInt8: storeInts<int8_t>(out, qi, lo, hi); break;
      case DataType::kUInt16: storeInts<uint16_t>(out, qi, lo, hi); break;
      case DataType::kInt16: storeInts<int16_t>(out, qi, lo, hi); break;
      case DataType::kInt4: case DataType::kInt2: storeInts<int8_t>(out, qi, lo, hi); break;
      case DataType::kUInt4: case DataType::kUInt2: storeInts<uint8_t>(out, qi, lo, hi); break;
      default: break;
    }
  });
}

std::unique_ptr<Kernel> dequantizeKernel(const KernelInit& init) {
  const QuantAttrs at = quantAttrs(init);
  return makeKernel([at](KernelContext& ctx) {
    const Node& node = ctx.node();
    const Tensor& x = ctx.input(0);
    const Tensor& s = ctx.input(1);
    Tensor& out = ctx.output(0);
    if (out.dtype() == DataType::kFloat && at.block == 0 && perTensorInt8(ctx, 2, x.dtype())) {
      const float scale = s.data<float>()[0];
      const int zp = zeroPointOf(ctx, 2);
      if (x.dtype() == DataType::kUInt8) dequantizeFast(ctx, x.data<uint8_t>(), x.numel(), scale, zp, out.data<float>());
      else dequantizeFast(ctx, x.data<int8_t>(), x.numel(), scale, zp, out.data<float>());
      return;
    }
    const bool floatIn = lowbit::isLowBitFloat(x.dtype());
    const bool useZp = ctx.hasInput(2) && !floatIn;
    if (useZp && ctx.input(2).dtype() != x.dtype())
      ctx.fail(inputDesc(node, 2) + " has type " + dataTypeName(ctx.input(2).dtype()) + " but input 0 has type " +
               dataTypeName(x.dtype()));
    const ParamIndex si = paramIndex(ctx, x, s, 1, at.axis, at.block);
    ParamIndex zi;
    std::vector<double> zp{0.0};
    if (useZp) {
      zi = paramIndex(ctx, x, ctx.input(2), 2, at.axis, at.block);
      zp = quant::toDoubles(ctx.input(2), node);
    }
    const std::vector<double> xv = quant::toDoubles(x, node), sv = quant::toDoubles(s, node);
    // numpy: float32(x) - zp, except int32 data which promotes to double.
    const bool dbl = x.dtype() == DataType::kInt32;
    std::vector<double> y(xv.size());
    forEachElement(ctx, x, si, zi, [&](int64_t i, int64_t sIdx, int64_t zIdx) {
      const double z = useZp ? zp[zIdx] : 0.0;
      const double d = dbl ? xv[i] - z : static_cast<double>(static_cast<float>(xv[i] - z));
      const double r = d * sv[sIdx];
      y[i] = dbl ? r : static_cast<float>(r);
    });
    dispatchType<float, double, Float16, BFloat16>(out.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      T* o = out.data<T>();
      for (size_t k = 0; k < y.size(); ++k) {
        if constexpr (std::is_same_v<T, double>) o[k] = y[k];
        else if constexpr (std::is_same_v<T, float>) o[k] = static_cast<float>(y[k]);
        else o[k] = T(static_cast<float>(y[k]));
      }
    }, node);
  });
}

// DynamicQuantizeLinear: the range (with 0) in chunks over the pool, then
// the uint8 quantization, each on the widest vector loop the CPU has
// (quantize_simd.h).
std::unique_ptr<Kernel> dynamicQuantizeKernel(const KernelInit&) {
  const cpu::KernelIsa isa = cpu::vectorIsa(cpu::cpuFeatures());
  return makeKernel([isa](KernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    if (x.dtype() != DataType::kFloat) ctx.fail("input 0 must be float32, got " + std::string(dataTypeName(x.dtype())));
    const float* xv = x.data<float>();
    const int64_t n = x.numel();
    constexpr int64_t kChunk = 1 << 16;
    const int64_t chunks = (n + kChunk - 1) / kChunk;
    float mx = 0.f, mn = 0.f;
    if (chunks <= 1) {
      cpu::minMaxF32(isa, xv, n, mn, mx);
    } else {
      std::vector<float> lo(static_cast<size_t>(chunks), 0.f), hi(static_cast<size_t>(chunks), 0.f);
      ctx.pool().parallelFor(chunks, [&](int64_t b, int64_t e) {
        for (int64_t c = b; c < e; ++c)
          cpu::minMaxF32(isa, xv + c * kChunk, std::min(kChunk, n - c * kChunk), lo[c], hi[c]);
      }, 1);
      for (int64_t c = 0; c < chunks; ++c) {
        mx = std::max(mx, hi[c]);
        mn = std::min(mn, lo[c]);
      }
    }
    const float scale = (mx == mn ? 1.f : mx - mn) / 255.f;
    const float zpf = std::clamp(0.f - mn / scale, 0.f, 255.f);
    const float zp = std::nearbyint(zpf);
    uint8_t* y = ctx.output(0).data<uint8_t>();
    ctx.pool().parallelFor(chunks, [&](int64_t b, int64_t e) {
      for (int64_t c = b; c < e; ++c)
        cpu::quantizeU8(isa, xv + c * kChunk, std::min(kChunk, n - c * kChunk), scale, zp, y + c * kChunk);
    }, 1);
    ctx.output(1).data<float>()[0] = scale;
    ctx.output(2).data<uint8_t>()[0] = static_cast<uint8_t>(zp);
  });
}

}  // namespace

void register_quantize(Registry& r) {
  using D = DataType;
  const std::vector<DataType> qtypes = {D::kUInt8, D::kInt8, D::kUInt16, D::kInt16, D::kInt32, D::kInt4, D::kUInt4,
                                        D::kInt2, D::kUInt2, D::kFloat8E4M3FN, D::kFloat8E4M3FNUZ, D::kFloat8E5M2,
                                        D::kFloat8E5M2FNUZ, D::kFloat4E2M1, D::kFloat, D::kFloat16, D::kBFloat16};
  addVersions(r, "QuantizeLinear", {10, 13, 19, 21, 23, 24, 25}, shape::inferQuantizeLinear, quantizeKernel, qtypes);
  addVersions(r, "DequantizeLinear", {10, 13, 19, 21, 23, 24, 25}, shape::inferDequantizeLinear, dequantizeKernel, qtypes);
  addVersions(r, "DynamicQuantizeLinear", {11}, shape::inferDynamicQuantizeLinear, dynamicQuantizeKernel,
      {D::kFloat, D::kUInt8});
  quant::register_quantize_int(r);
}

}  // namespace oinfer
