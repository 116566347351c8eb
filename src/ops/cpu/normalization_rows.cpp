// Instance-, Layer-, Group- and RMSNormalization: each normalises contiguous
// rows of the input, so they share one kernel over a RowPlan.
//
//   op            rows           row length S          scale/bias index of element e of row r
//   Instance      N*C            spatial               r % C
//   Group (18)    N*G            (C/G)*spatial         r % G
//   Group (21)    N*G            (C/G)*spatial         (r % G)*(C/G) + e / spatial
//   Layer / RMS   prod(:axis)    prod(axis:)           e (scale broadcast onto shape[axis:])
//
// which is (r % P) * Q + e / D. Statistics accumulate in double; each run of D
// elements then costs one multiply-add per element: y = x * a + b with
// a = scale * invstd and b = bias - mean * a.
#include <cmath>

#include "ops/cpu/dispatch.h"
#include "ops/cpu/fused_transformer_rows.h"
#include "ops/cpu/normalization_common.h"
#include "ops/cpu/reduce_axes.h"
#include "ops/registry.h"
#include "shape/normalization.h"

namespace oinfer {

namespace {

struct RowPlan {
  int64_t rows = 0, S = 0;
  int64_t P = 1, Q = 0, D = 1;
  std::vector<double> scale, bias;  // bias empty: none
  bool rms = false;                 // RMSNormalization: no centring, mean of squares
  double eps = 1e-5;
};

template <class T>
void normalizeRows(const T* x, T* y, const RowPlan& p, ThreadPool& pool, std::vector<double>* meanOut,
                   std::vector<double>* invOut) {
  using A = cpu::AccOf<T>;
  const int64_t S = p.S;
  pool.parallelFor(p.rows, [&](int64_t b0, int64_t b1) {
    for (int64_t r = b0; r < b1; ++r) {
      const T* src = x + r * S;
      T* dst = y + r * S;
      double mean = 0, var = 0;
      for (int64_t e = 0; e < S; ++e) mean += static_cast<A>(src[e]);
      mean /= static_cast<double>(S);
      if (p.rms) {
        for (int64_t e = 0; e < S; ++e) var += static_cast<double>(static_cast<A>(src[e])) * static_cast<A>(src[e]);
        mean = 0;
      } else {
        for (int64_t e = 0; e < S; ++e) {
          const double d = static_cast<A>(src[e]) - mean;
          var += d * d;
        }
      }
      var /= static_cast<double>(S);
      const double inv = 1.0 / std::sqrt(var + p.eps);
      if (meanOut) (*meanOut)[r] = mean;
      if (invOut) (*invOut)[r] = inv;
      const int64_t base = (r % p.P) * p.Q;
      for (int64_t k = 0; k * p.D < S; ++k) {
        const double a = inv * p.scale[base + k];
        const A ca = static_cast<A>(a), cb = static_cast<A>((p.bias.empty() ? 0.0 : p.bias[base + k]) - mean * a);
        for (int64_t e = k * p.D; e < (k + 1) * p.D; ++e) dst[e] = T(static_cast<A>(src[e]) * ca + cb);
      }
    }
  }, std::max<int64_t>(1, cpu::kReduceGrain / std::max<int64_t>(S, 1)));
}

void runRows(KernelContext& ctx, RowPlan& p, bool statsOutputs) {
  const Tensor& x = ctx.input(0);
  std::vector<double> mean, inv;
  const bool wantStats = statsOutputs && (ctx.hasOutput(1) || ctx.hasOutput(2));
  if (wantStats) {
    mean.resize(p.rows);
    inv.resize(p.rows);
  }
  if (x.numel() > 0)
    dispatchType<float, double, Float16>(x.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      normalizeRows<T>(x.data<T>(), ctx.output(0).data<T>(), p, ctx.pool(), wantStats ? &mean : nullptr,
                       wantStats ? &inv : nullptr);
    }, ctx.node());
  if (statsOutputs && ctx.hasOutput(1)) cpu::fromDoubles(mean, ctx.output(1), ctx);
  if (statsOutputs && ctx.hasOutput(2)) cpu::fromDoubles(inv, ctx.output(2), ctx);
}

// A per-channel (or per-group) parameter of `expected` values, else an error naming it.
std::vector<double> vectorParam(const KernelContext& ctx, size_t i, int64_t expected, const std::string& what) {
  const Tensor& t = ctx.input(i);
  if (t.numel() != expected || t.rank() != 1)
    ctx.fail("input " + std::to_string(i) + " ('" + ctx.node().inputs[i] + "') has shape " + shapeToString(t.shape()) +
             ", expected [" + std::to_string(expected) + "] (" + what + ") for input 0 of shape " +
             shapeToString(ctx.input(0).shape()));
  return cpu::toDoubles(t);
}

void requireNC(const KernelContext& ctx) {
  if (ctx.input(0).rank() < 2)
    ctx.fail("input 0 must have rank >= 2 (N, C, ...), got " + shapeToString(ctx.input(0).shape()));
}

std::unique_ptr<Kernel> makeInstanceNorm(const KernelInit& init) {
  const double eps = init.node.attrFloat("epsilon", 1e-5f);
  return makeKernel([eps](KernelContext& ctx) {
    requireNC(ctx);
    const Tensor& x = ctx.input(0);
    RowPlan p;
    const int64_t c = x.dim(1);
    p.rows = x.dim(0) * c;
    p.S = p.rows == 0 ? 0 : x.numel() / p.rows;
    p.P = c;
    p.Q = 1;
    p.D = std::max<int64_t>(p.S, 1);
    p.eps = eps;
    p.scale = vectorParam(ctx, 1, c, "one value per channel");
    p.bias = vectorParam(ctx, 2, c, "one value per channel");
    runRows(ctx, p, false);
  });
}

std::unique_ptr<Kernel> makeGroupNorm(const KernelInit& init) {
  const double eps = init.node.attrFloat("epsilon", 1e-5f);
  const int64_t groups = init.node.attrInt("num_groups", 0);
  const bool perChannel = init.opset >= 21;  // opset 18 had one scale per group
  if (groups <= 0) init.fail("num_groups must be positive, got " + std::to_string(groups));
  return makeKernel([=](KernelContext& ctx) {
    requireNC(ctx);
    const Tensor& x = ctx.input(0);
    const int64_t c = x.dim(1);
    if (c % groups != 0)
      ctx.fail("the channel count " + std::to_string(c) + " of input 0 " + shapeToString(x.shape()) +
               " is not divisible by num_groups " + std::to_string(groups));
    RowPlan p;
    p.rows = x.dim(0) * groups;
    p.S = p.rows == 0 ? 0 : x.numel() / p.rows;
    p.P = groups;
    p.eps = eps;
    const int64_t spatial = c == 0 ? 0 : p.S / (c / groups);
    p.Q = perChannel ? c / groups : 1;
    p.D = std::max<int64_t>(perChannel ? spatial : p.S, 1);
    const int64_t n = perChannel ? c : groups;
    const char* what = perChannel ? "one value per channel" : "one value per group";
    p.scale = vectorParam(ctx, 1, n, what);
    p.bias = vectorParam(ctx, 2, n, what);
    runRows(ctx, p, false);
  });
}

// Unidirectional broadcast of parameter i onto `tail` (x.shape[axis:]), flattened.
std::vector<double> expandParam(const KernelContext& ctx, size_t i, const std::vector<int64_t>& tail) {
  const Tensor& t = ctx.input(i);
  const std::vector<double> v = cpu::toDoubles(t);
  bool ok = t.rank() <= tail.size();
  for (size_t k = 0; ok && k < t.rank(); ++k) {
    const int64_t d = t.dim(t.rank() - 1 - k);
    ok = d == 1 || d == tail[tail.size() - 1 - k];
  }
  if (!ok)
    ctx.fail("input " + std::to_string(i) + " ('" + ctx.node().inputs[i] + "') of shape " + shapeToString(t.shape()) +
             " cannot be broadcast to the normalized shape " + shapeToString(tail) + " of input 0 " +
             shapeToString(ctx.input(0).shape()));
  const std::vector<int64_t> offs = cpu::broadcastOffsets(t.shape(), tail);
  std::vector<double> out(offs.size());
  for (size_t n = 0; n < offs.size(); ++n) out[n] = v[offs[n]];
  return out;
}

// LayerNormalization (Mean and InvStdDev outputs) and RMSNormalization.
template <bool kRms>
std::unique_ptr<Kernel> makeLayerNorm(const KernelInit& init) {
  const double eps = init.node.attrFloat("epsilon", 1e-5f);
  const int64_t axisAttr = init.node.attrInt("axis", -1);
  return makeKernel([=](KernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    const int64_t rank = static_cast<int64_t>(x.rank());
    const int64_t axis = axisAttr < 0 ? axisAttr + rank : axisAttr;
    if (axis < 0 || axis >= rank) ctx.fail("axis " + std::to_string(axisAttr) + " is out of range for rank " + std::to_string(rank));
    int64_t S = 1;
    for (int64_t d = axis; d < rank; ++d) S *= x.dim(d);
    if (!kRms && x.dtype() == DataType::kFloat && !ctx.hasOutput(1) && !ctx.hasOutput(2)) {
      // Float, scale and bias covering the whole normalized shape, no
      // statistics outputs: the vectorised row kernel straight on the
      // parameters (float accumulation, two passes), with no per-run copies.
      const Tensor& g = ctx.input(1);
      const Tensor* b = ctx.hasInput(2) ? &ctx.input(2) : nullptr;
      // Right-aligned on x.shape[axis:] with every dim equal: no broadcasting.
      auto full = [&](const Tensor& t) {
        if (t.dtype() != DataType::kFloat || t.numel() != S || t.rank() > static_cast<size_t>(rank - axis)) return false;
        for (size_t k = 0; k < t.rank(); ++k)
          if (t.dim(t.rank() - 1 - k) != x.dim(rank - 1 - static_cast<int64_t>(k))) return false;
        return true;
      };
      if (full(g) && (!b || full(*b))) {
        const float* xp = x.data<float>();
        const float* gp = g.data<float>();
        const float* bp = b ? b->data<float>() : nullptr;
        float* yp = ctx.output(0).data<float>();
        const int64_t rows = S == 0 ? 0 : x.numel() / S;
        ctx.pool().parallelFor(rows, [&](int64_t r0, int64_t r1) {
          for (int64_t r = r0; r < r1; ++r) cpu::layerNormRow(xp + r * S, gp, bp, static_cast<float>(eps), yp + r * S, S);
        }, std::max<int64_t>(1, cpu::kReduceGrain / std::max<int64_t>(S, 1)));
        return;
      }
    }
    const std::vector<int64_t> tail(x.shape().begin() + axis, x.shape().end());
    RowPlan p;
    p.S = S;
    p.rows = p.S == 0 ? 0 : x.numel() / p.S;
    p.eps = eps;
    p.rms = kRms;
    p.scale = expandParam(ctx, 1, tail);
    if (!kRms && ctx.hasInput(2)) p.bias = expandParam(ctx, 2, tail);
    runRows(ctx, p, !kRms);
  });
}

}  // namespace

void register_normalization_rows(Registry& r) {
  const std::vector<DataType> types = {DataType::kFloat, DataType::kDouble, DataType::kFloat16};
  for (int v : {1, 6, 22})
    r.add(OpDef{"", "InstanceNormalization", v, shape::inferInstanceNorm, makeInstanceNorm, {}, types});
  r.add(OpDef{"", "LayerNormalization", 17, shape::inferLayerNorm, makeLayerNorm<false>, {}, types});
  r.add(OpDef{"", "RMSNormalization", 23, shape::inferLayerNorm, makeLayerNorm<true>, {}, types});
  for (int v : {18, 21})
    r.add(OpDef{"", "GroupNormalization", v, shape::inferGroupNorm, makeGroupNorm, {}, types});
}

}  // namespace oinfer
