// Integer matmul and conv, the reference forms: MatMulInteger,
// QLinearMatMul, ConvInteger, QLinearConv. Operands are widened to int32
// with their zero points subtracted, multiplied exactly in int32 (Eigen
// GEMM; conv through im2col), and for the QLinear ops requantized:
// rint(acc * scale_a * scale_b / scale_y) + zero_y, saturated to the output
// type. The registered kernels (quantize_qlinear.cpp) run on qgemm and come
// here only for the forms it does not take.
#include <Eigen/Core>
#include <algorithm>
#include <cmath>

#include "ops/cpu/conv_common.h"
#include "ops/cpu/conv_kernels.h"
#include "ops/cpu/dispatch.h"
#include "ops/cpu/quantize_common.h"
#include "ops/cpu/reduce_axes.h"
#include "shape/quantize.h"

namespace oinfer::quant {

// ---- shared with the qgemm kernels (quantize_qlinear.cpp) ----

MatDims matDims(const KernelContext& ctx, const Tensor& a, const Tensor& b, size_t ai, size_t bi) {
  if (a.rank() == 0 || b.rank() == 0 || a.shape().back() != (b.rank() == 1 ? b.dim(0) : b.dim(b.rank() - 2)))
    ctx.fail("inner dimensions differ: " + inputDesc(ctx.node(), ai) + " has shape " + shapeToString(a.shape()) + ", " +
             inputDesc(ctx.node(), bi) + " has shape " + shapeToString(b.shape()));
  MatDims d;
  d.K = a.shape().back();
  d.M = a.rank() >= 2 ? a.dim(a.rank() - 2) : 1;
  d.N = b.rank() >= 2 ? b.shape().back() : 1;
  d.batchA.assign(a.shape().begin(), a.shape().end() - std::min<size_t>(a.rank(), 2));
  d.batchB.assign(b.shape().begin(), b.shape().end() - std::min<size_t>(b.rank(), 2));
  d.batch.assign(std::max(d.batchA.size(), d.batchB.size()), 1);
  for (size_t k = 0; k < d.batch.size(); ++k) {
    const int64_t da = k < d.batchA.size() ? d.batchA[d.batchA.size() - 1 - k] : 1;
    const int64_t db = k < d.batchB.size() ? d.batchB[d.batchB.size() - 1 - k] : 1;
    if (da != db && da != 1 && db != 1)
      ctx.fail("cannot broadcast batch dims of " + inputDesc(ctx.node(), ai) + " " + shapeToString(a.shape()) + " and " +
               inputDesc(ctx.node(), bi) + " " + shapeToString(b.shape()));
    d.batch[d.batch.size() - 1 - k] = da == 1 ? db : da;
  }
  return d;
}

conv::ConvGeom convGeom(const KernelContext& ctx, const shape::WindowAttrs& a, int64_t group, const Tensor& x,
                        const Tensor& w, size_t wi) {
  return conv::convGeom(ctx.node(), a, group, x.shape(), w.shape(), wi);
}

namespace {

using MatI = Eigen::Matrix<int32_t, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Subtracts a zero point that is a scalar or a vector of `count` entries,
// where entry (i / every) % count applies to element i.
std::vector<int32_t> centred(const KernelContext& ctx, const Tensor& v, size_t zpIndex, int64_t count,
                             int64_t every, const char* what) {
  std::vector<int32_t> out = toInt32(v, ctx.node());
  if (!ctx.hasInput(zpIndex)) return out;
  const Tensor& zt = ctx.input(zpIndex);
  if (zt.dtype() != v.dtype())
    ctx.fail(inputDesc(ctx.node(), zpIndex) + " has type " + dataTypeName(zt.dtype()) + " but its data has type " +
             dataTypeName(v.dtype()));
  const std::vector<int32_t> z = toInt32(zt, ctx.node());
  if (z.size() == 1) {
    for (int32_t& e : out) e -= z[0];
  } else if (static_cast<int64_t>(z.size()) == count) {
    for (size_t i = 0; i < out.size(); ++i) out[i] -= z[(static_cast<int64_t>(i) / every) % count];
  } else {
    ctx.fail(inputDesc(ctx.node(), zpIndex) + " has shape " + shapeToString(zt.shape()) + "; expected a scalar or " +
             std::to_string(count) + " values (" + what + ")");
  }
  return out;
}

// Per-output-column (or channel) multipliers scale_a * scale_b[c] / scale_y,
// computed in the scales' own precision as the reference does.
std::vector<double> multipliers(const KernelContext& ctx, size_t ai, size_t bi, size_t yi, int64_t count) {
  const Tensor &as = ctx.input(ai), &bs = ctx.input(bi), &ys = ctx.input(yi);
  if (as.numel() != 1 || ys.numel() != 1)
    ctx.fail(inputDesc(ctx.node(), as.numel() != 1 ? ai : yi) + " must hold a single value");
  if (bs.numel() != 1 && bs.numel() != count)
    ctx.fail(inputDesc(ctx.node(), bi) + " has shape " + shapeToString(bs.shape()) + "; expected a scalar or " +
             std::to_string(count) + " values");
  const double a = toDoubles(as, ctx.node())[0], y = toDoubles(ys, ctx.node())[0];
  const std::vector<double> b = toDoubles(bs, ctx.node());
  const bool half = as.dtype() == DataType::kFloat16;
  std::vector<double> m(static_cast<size_t>(count));
  for (int64_t c = 0; c < count; ++c) {
    const double bc = b[b.size() == 1 ? 0 : c];
    if (half) m[c] = halfToFloat(floatToHalf(halfToFloat(floatToHalf(static_cast<float>(a * bc))) / static_cast<float>(y)));
    else if (as.dtype() == DataType::kDouble) m[c] = a * bc / y;
    else m[c] = static_cast<float>(static_cast<float>(a * bc) / static_cast<float>(y));
  }
  return m;
}

// out[i] = saturate(rint(acc[i] * m[(i / every) % m.size()]) + zero_y).
void requantize(KernelContext& ctx, const std::vector<int32_t>& acc, const std::vector<double>& m, int64_t every,
                size_t zpIndex, Tensor& out) {
  const Tensor& zt = ctx.input(zpIndex);
  if (zt.numel() != 1) ctx.fail(inputDesc(ctx.node(), zpIndex) + " must hold a single value");
  const double zp = toDoubles(zt, ctx.node())[0];
  dispatchType<uint8_t, int8_t>(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* o = out.data<T>();
    const double lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
    const int64_t cnt = static_cast<int64_t>(m.size());
    for (size_t i = 0; i < acc.size(); ++i) {
      const double v = std::nearbyint(acc[i] * m[(static_cast<int64_t>(i) / every) % cnt]) + zp;
      o[i] = static_cast<T>(std::clamp(v, lo, hi));
    }
  }, ctx.node());
}

std::vector<int32_t> intMatMul(const MatDims& d, const std::vector<int32_t>& a, const std::vector<int32_t>& b) {
  const std::vector<int64_t> offA = cpu::broadcastOffsets(d.batchA, d.batch, d.M * d.K);
  const std::vector<int64_t> offB = cpu::broadcastOffsets(d.batchB, d.batch, d.K * d.N);
  std::vector<int32_t> c(offA.size() * static_cast<size_t>(d.M * d.N));
  for (size_t bt = 0; bt < offA.size(); ++bt) {
    Eigen::Map<const MatI> A(a.data() + offA[bt], d.M, d.K);
    Eigen::Map<const MatI> B(b.data() + offB[bt], d.K, d.N);
    Eigen::Map<MatI> C(c.data() + bt * d.M * d.N, d.M, d.N);
    C.noalias() = A * B;
  }
  return c;
}

}  // namespace

void referenceMatMul(KernelContext& ctx, bool qlinear) {
  const size_t bi = qlinear ? 3 : 1;
  const Tensor &a = ctx.input(0), &b = ctx.input(bi);
  const MatDims d = matDims(ctx, a, b, 0, bi);
  const std::vector<int32_t> av = centred(ctx, a, 2, d.M, d.K, "one per row of input 0");
  const std::vector<int32_t> bv = centred(ctx, b, qlinear ? 5 : 3, d.N, 1,
                                          qlinear ? "one per column of input 3" : "one per column of input 1");
  const std::vector<int32_t> c = intMatMul(d, av, bv);
  if (qlinear) requantize(ctx, c, multipliers(ctx, 1, 4, 6, d.N), 1, 7, ctx.output(0));
  else std::copy(c.begin(), c.end(), ctx.output(0).data<int32_t>());
}

namespace {

// ---- conv ---------------------------------------------------------------

// Input indices of x, its zero point, w, its zero point, and bias (or -1).
struct ConvInputs {
  size_t x, xzp, w, wzp;
  int bias;
};

std::vector<int32_t> intConv(KernelContext& ctx, const shape::WindowAttrs& attrs, int64_t group,
                             const ConvInputs& io, conv::ConvGeom& g) {
  const Tensor &x = ctx.input(io.x), &w = ctx.input(io.w);
  g = convGeom(ctx, attrs, group, x, w, io.w);
  if (ctx.hasInput(io.xzp) && ctx.input(io.xzp).numel() != 1)
    ctx.fail(inputDesc(ctx.node(), io.xzp) + " must hold a single value, got shape " +
             shapeToString(ctx.input(io.xzp).shape()));
  // Padding contributes x_zero_point - x_zero_point = 0, so im2col's zero fill is exact.
  const std::vector<int32_t> xv = centred(ctx, x, io.xzp, 1, 1, "a scalar");
  const std::vector<int32_t> wv = centred(ctx, w, io.wzp, g.M, w.numel() / std::max<int64_t>(g.M, 1),
                                          "one per output channel");
  std::vector<int32_t> bias;
  if (io.bias >= 0 && ctx.hasInput(io.bias)) {
    const Tensor& b = ctx.input(io.bias);
    if (b.numel() != g.M)
      ctx.fail(inputDesc(ctx.node(), io.bias) + " has shape " + shapeToString(b.shape()) + ", expected [" +
               std::to_string(g.M) + "]");
    bias = toInt32(b, ctx.node());
  }
  std::vector<int32_t> y(static_cast<size_t>(g.N * g.M * g.gridSize));
  const int64_t rows = g.Cg * g.K;
  ctx.pool().parallelFor(g.N * g.G, [&](int64_t b, int64_t e) {
    std::vector<int32_t> col(static_cast<size_t>(rows * g.gridSize));
    for (int64_t t = b; t < e; ++t) {
      const int64_t n = t / g.G, gi = t % g.G;
      conv::im2col(g, g.Cg, xv.data() + (n * g.C + gi * g.Cg) * g.imgSize, col.data(), 0, g.gridSize);
      Eigen::Map<const MatI> W(wv.data() + gi * g.Mg * rows, g.Mg, rows);
      Eigen::Map<const MatI> Cm(col.data(), rows, g.gridSize);
      Eigen::Map<MatI> Y(y.data() + (n * g.M + gi * g.Mg) * g.gridSize, g.Mg, g.gridSize);
      Y.noalias() = W * Cm;
      if (!bias.empty())
        for (int64_t m = 0; m < g.Mg; ++m) Y.row(m).array() += bias[gi * g.Mg + m];
    }
  }, 1);
  return y;
}

struct ConvAttrs {
  shape::WindowAttrs window;
  int64_t group;
};

// The window attributes depend on the weights' rank, known for sure only at run time.
ConvAttrs convAttrs(const KernelContext& ctx, size_t wi) {
  const size_t r = ctx.input(wi).rank();
  if (r < 3) ctx.fail(inputDesc(ctx.node(), wi) + " has shape " + shapeToString(ctx.input(wi).shape()) + ", expected rank >= 3");
  return {shape::parseWindowAttrs(ctx.node(), r - 2, false), ctx.node().attrInt("group", 1)};
}

}  // namespace

void referenceConv(KernelContext& ctx, bool qlinear) {
  const ConvAttrs at = convAttrs(ctx, qlinear ? 3 : 1);
  conv::ConvGeom g;
  if (qlinear) {
    const std::vector<int32_t> y = intConv(ctx, at.window, at.group, {0, 2, 3, 5, 8}, g);
    requantize(ctx, y, multipliers(ctx, 1, 4, 6, g.M), g.gridSize, 7, ctx.output(0));
  } else {
    const std::vector<int32_t> y = intConv(ctx, at.window, at.group, {0, 2, 1, 3, -1}, g);
    std::copy(y.begin(), y.end(), ctx.output(0).data<int32_t>());
  }
}

void register_quantize_int(Registry& r) {
  const std::vector<DataType> t = {DataType::kUInt8, DataType::kInt8, DataType::kInt32};
  auto mm = [](bool q) { return [q](const KernelInit& init) { return makeQMatMulKernel(init, q); }; };
  auto cv = [](bool q) { return [q](const KernelInit& init) { return makeQConvKernel(init, q); }; };
  addVersions(r, "MatMulInteger", {10}, shape::inferMatMulInteger, mm(false), t);
  addVersions(r, "QLinearMatMul", {10, 21}, shape::inferQLinearMatMul, mm(true), t);
  addVersions(r, "ConvInteger", {10}, shape::inferConvInteger, cv(false), t);
  addVersions(r, "QLinearConv", {10}, shape::inferQLinearConv, cv(true), t);
}

}  // namespace oinfer::quant
