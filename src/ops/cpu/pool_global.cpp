// GlobalAveragePool, GlobalMaxPool, GlobalLpPool and LRN on the CPU. The
// global pools reduce each of the N*C planes to one value, in parallel over
// planes; float16 accumulates in float. GlobalAveragePool and GlobalMaxPool
// also read a float32 input in the blocked layout (ops/kernel.h), 16
// channels a vector: a network's last feature map is then left blocked.
#include <cmath>
#include <limits>

#include "ops/cpu/dispatch.h"
#include "ops/cpu/pool_common.h"

namespace oinfer::pool {
namespace {

template <class T>
using Acc = std::conditional_t<std::is_same_v<T, double>, double, float>;

enum class Global { kAverage, kMax, kLp };

template <class T>
void globalPool(ThreadPool& pool, int64_t planes, int64_t size, const T* x, T* y, Global kind, float p) {
  using A = Acc<T>;
  const int64_t grain = std::max<int64_t>(1, 16384 / std::max<int64_t>(1, size));
  pool.parallelFor(planes, [&](int64_t begin, int64_t end) {
    for (int64_t pl = begin; pl < end; ++pl) {
      const T* xp = x + pl * size;
      A r = 0;
      if (kind == Global::kMax) {
        r = std::numeric_limits<A>::lowest();
        for (int64_t i = 0; i < size; ++i) r = std::max(r, static_cast<A>(xp[i]));
      } else if (kind == Global::kAverage) {
        // 16 independent partial sums: the compiler vectorises these, where a
        // single running sum must stay sequential.
        A part[16] = {};
        int64_t i = 0;
        for (; i + 16 <= size; i += 16)
          for (int j = 0; j < 16; ++j) part[j] += static_cast<A>(xp[i + j]);
        for (; i < size; ++i) part[0] += static_cast<A>(xp[i]);
        for (int j = 0; j < 16; ++j) r += part[j];
        r /= static_cast<A>(size);
      } else {
        for (int64_t i = 0; i < size; ++i) r += std::pow(std::abs(static_cast<A>(xp[i])), static_cast<A>(p));
        r = std::pow(r, A(1) / static_cast<A>(p));
      }
      y[pl] = static_cast<T>(r);
    }
  }, grain);
}

// Blocked input: blocks of 16 channels, each P pixels of one line; every
// lane sums (or maxes) its channel.
void globalPoolBlocked(ThreadPool& pool, int64_t blocks, int64_t size, const float* x, float* y, Global kind) {
  pool.parallelFor(blocks, [&](int64_t begin, int64_t end) {
    for (int64_t b = begin; b < end; ++b) {
      const float* xb = x + b * size * 16;
      // Four partial results per lane: four independent chains of adds
      // (one made a 196-pixel block wait on the add latency, 2-3x the
      // NCHW pool's time).
      float r[4][16];
      for (int k = 0; k < 4; ++k)
        for (int j = 0; j < 16; ++j) r[k][j] = kind == Global::kMax ? xb[j] : 0.f;
      int64_t i = 0;
      if (kind == Global::kMax) {
        for (; i + 4 <= size; i += 4)
          for (int k = 0; k < 4; ++k)
            for (int j = 0; j < 16; ++j) r[k][j] = std::max(r[k][j], xb[(i + k) * 16 + j]);
        for (; i < size; ++i)
          for (int j = 0; j < 16; ++j) r[0][j] = std::max(r[0][j], xb[i * 16 + j]);
        for (int j = 0; j < 16; ++j)
          y[b * 16 + j] = std::max(std::max(r[0][j], r[1][j]), std::max(r[2][j], r[3][j]));
      } else {
        for (; i + 4 <= size; i += 4)
          for (int k = 0; k < 4; ++k)
            for (int j = 0; j < 16; ++j) r[k][j] += xb[(i + k) * 16 + j];
        for (; i < size; ++i)
          for (int j = 0; j < 16; ++j) r[0][j] += xb[i * 16 + j];
        for (int j = 0; j < 16; ++j)
          y[b * 16 + j] = ((r[0][j] + r[1][j]) + (r[2][j] + r[3][j])) / static_cast<float>(size);
      }
    }
  }, std::max<int64_t>(1, 1024 / std::max<int64_t>(1, size)));
}

// The input may be blocked (average and max; float32, 4-d, static shape).
BlockedSupport globalBlockedSupport(const KernelInit& init) {
  BlockedSupport s;
  if (!init.inputs.empty() && blockedCandidate(init.inputs[0])) s.read = 1u;
  return s;
}

std::unique_ptr<Kernel> makeGlobal(const KernelInit& init, Global kind) {
  const float p = kind == Global::kLp ? lpNorm(init.node, init.opset) : 2.f;
  const bool blocked = init.inBlocked(0);
  if (blocked && kind == Global::kLp) init.fail("GlobalLpPool does not read the blocked layout");
  return makeKernel([kind, p, blocked](KernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    if (x.rank() < 3) ctx.fail("input 0 has shape " + shapeToString(x.shape()) + ", expected rank >= 3");
    Tensor& y = ctx.output(0);
    const int64_t planes = x.dim(0) * x.dim(1);
    if (planes == 0) return;
    const int64_t size = x.numel() / planes;
    if (size == 0) ctx.fail("input 0 has shape " + shapeToString(x.shape()) + " with an empty spatial extent");
    if (blocked) {
      if (x.dtype() != DataType::kFloat || x.rank() != 4 || x.dim(1) % 16 != 0)
        ctx.fail("input 0 (" + shapeToString(x.shape()) + ") was planned in the blocked layout, which needs float32 NCHW "
                 "with a multiple of 16 channels");
      globalPoolBlocked(ctx.pool(), planes / 16, size, x.data<float>(), y.data<float>(), kind);
      return;
    }
    dispatchType<float, double, Float16>(x.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      globalPool<T>(ctx.pool(), planes, size, x.data<T>(), y.data<T>(), kind, p);
    }, ctx.node());
  });
}

// LRN: y = x / (bias + alpha / size * sum of x^2 over the channels
// [c - floor((size-1)/2), c + ceil((size-1)/2)]) ^ beta.
std::unique_ptr<Kernel> makeLrn(const KernelInit& init) {
  const Node& node = init.node;
  const int64_t size = node.attrInt("size", 0);
  if (size <= 0) init.fail("attribute 'size' is required and must be positive");
  const float alpha = node.attrFloat("alpha", 1e-4f), beta = node.attrFloat("beta", 0.75f),
              bias = node.attrFloat("bias", 1.f);
  return makeKernel([=](KernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    if (x.rank() < 2) ctx.fail("input 0 has shape " + shapeToString(x.shape()) + ", expected rank >= 2");
    Tensor& y = ctx.output(0);
    const int64_t N = x.dim(0), C = x.dim(1);
    if (x.numel() == 0) return;
    const int64_t P = x.numel() / (N * C);
    const int64_t before = (size - 1) / 2, after = size / 2;  // floor and ceil of (size-1)/2
    dispatchType<float, double, Float16>(x.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      using A = Acc<T>;
      const T* xd = x.data<T>();
      T* yd = y.data<T>();
      const A scale = static_cast<A>(alpha) / static_cast<A>(size);
      ctx.pool().parallelFor(N * C, [&](int64_t begin, int64_t end) {
        std::vector<A> sum(P);
        for (int64_t plane = begin; plane < end; ++plane) {
          const int64_t n = plane / C, c = plane % C;
          std::fill(sum.begin(), sum.end(), A(0));
          for (int64_t cc = std::max<int64_t>(0, c - before); cc <= std::min(C - 1, c + after); ++cc) {
            const T* xp = xd + (n * C + cc) * P;
            for (int64_t i = 0; i < P; ++i) {
              const A v = static_cast<A>(xp[i]);
              sum[i] += v * v;
            }
          }
          const T* xp = xd + plane * P;
          T* yp = yd + plane * P;
          for (int64_t i = 0; i < P; ++i)
            yp[i] = static_cast<T>(static_cast<A>(xp[i]) /
                                   std::pow(static_cast<A>(bias) + scale * sum[i], static_cast<A>(beta)));
        }
      });
    }, ctx.node());
  });
}

void add(Registry& r, const char* op, std::initializer_list<int> versions, shape::ShapeFn fn, KernelFactory f,
         BlockedFn blocked = nullptr) {
  addVersions(r, op, versions, std::move(fn), std::move(f), {DataType::kFloat, DataType::kDouble, DataType::kFloat16},
              -1, std::move(blocked));
}

}  // namespace

void registerGlobalPools(Registry& r) {
  add(r, "GlobalAveragePool", {1, 22}, shape::inferGlobalPool,
      [](const KernelInit& i) { return makeGlobal(i, Global::kAverage); }, globalBlockedSupport);
  add(r, "GlobalMaxPool", {1, 22}, shape::inferGlobalPool,
      [](const KernelInit& i) { return makeGlobal(i, Global::kMax); }, globalBlockedSupport);
  add(r, "GlobalLpPool", {1, 2, 22}, shape::inferGlobalPool,
      [](const KernelInit& i) { return makeGlobal(i, Global::kLp); });
  add(r, "LRN", {1, 13}, shape::propagateUnary, makeLrn);
}

}  // namespace oinfer::pool
