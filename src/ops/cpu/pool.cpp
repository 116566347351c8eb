// MaxPool, AveragePool, LpPool on the CPU (1-d to 3-d); the Global pools and
// LRN live in pool_global.cpp.
//
// Like Conv, every rank runs through a canonical 3-d form (leading spatial
// dims of size 1). For each output coordinate along each dim the range of
// kernel taps that land inside the input is computed once per call
// (TapRange), so the per-window loops carry no bounds checks. Work is split
// over the N*C planes. Windows follow the shared window arithmetic
// (src/shape/conv.cpp), including the ceil_mode rule that a last window must
// start inside the input or the left padding. Float16 computes in float.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#include "ops/cpu/cpu_features.h"
#include "ops/cpu/dispatch.h"
#include "ops/cpu/gemm/act512.h"
#include "ops/cpu/pool_common.h"

namespace oinfer::pool {

namespace {

using shape::WindowAttrs;

template <class T>
using Acc = std::conditional_t<std::is_same_v<T, double>, double, float>;

// Calls f(od, oh, ow, rd, rh, rw, outIndex) for every output position.
template <class F>
void forEachWindow(const PoolGeom& g, F&& f) {
  int64_t o = 0;
  for (int64_t od = 0; od < g.out[0]; ++od)
    for (int64_t oh = 0; oh < g.out[1]; ++oh)
      for (int64_t ow = 0; ow < g.out[2]; ++ow, ++o)
        f(g.ranges[0][od], g.ranges[1][oh], g.ranges[2][ow], o);
}

template <class T>
void maxPool(ThreadPool& pool, const PoolGeom& g, const T* x, T* y, int64_t* idx, bool colMajor) {
  using A = std::conditional_t<std::is_integral_v<T>, T, Acc<T>>;
  // Strides of the real spatial dims in a column-major (storage_order 1) index.
  std::array<int64_t, 3> cm{0, 0, 0};
  for (int64_t s = 3 - static_cast<int64_t>(g.nd), m = 1; s < 3; ++s) {
    cm[s] = m;
    m *= g.img[s];
  }
  pool.parallelFor(g.planes, [&](int64_t begin, int64_t end) {
    for (int64_t p = begin; p < end; ++p) {
      const T* xp = x + p * g.imgSize;
      T* yp = y + p * g.outSize;
      int64_t* ip = idx ? idx + p * g.outSize : nullptr;
      forEachWindow(g, [&](const TapRange& rd, const TapRange& rh, const TapRange& rw, int64_t o) {
        A best = std::numeric_limits<A>::lowest();
        int64_t bd = -1, bh = -1, bw = -1;
        for (int64_t kd = rd.lo; kd < rd.hi; ++kd) {
          const int64_t id = rd.start + kd * g.dil[0];
          for (int64_t kh = rh.lo; kh < rh.hi; ++kh) {
            const int64_t ih = rh.start + kh * g.dil[1];
            const T* row = xp + (id * g.img[1] + ih) * g.img[2];
            for (int64_t kw = rw.lo; kw < rw.hi; ++kw) {
              const int64_t iw = rw.start + kw * g.dil[2];
              const A v = static_cast<A>(row[iw]);
              if (v > best || bd < 0) {
                best = v;
                bd = id, bh = ih, bw = iw;
              }
            }
          }
        }
        yp[o] = static_cast<T>(best);
        if (ip)
          ip[o] = p * g.imgSize + (colMajor ? bd * cm[0] + bh * cm[1] + bw * cm[2]
                                            : (bd * g.img[1] + bh) * g.img[2] + bw);
      });
    }
  });
}

// The common CNN case (float, 1-d or 2-d, no dilation, no indices output) in
// two separable passes per output row: a vertical max over the window's rows
// into a row buffer (padded with lowest() on both sides, so every window has
// all its taps), then a horizontal max over each window's columns, read
// through the buffer's stride phases (phase r holds columns j*s + r), so tap
// kw is phase kw % s at offset kw / s and both passes are contiguous,
// vectorisable loops. The loops are compiled twice, the AVX-512 copy chosen
// at run time. Buffers live on the stack.
constexpr int64_t kMaxPoolRow = 4096;

template <int S>
__attribute__((always_inline)) inline void maxPoolRowsImpl(const PoolGeom& g, const float* x, float* y, int64_t begin,
                                                           int64_t end) {
  constexpr float kLow = std::numeric_limits<float>::lowest();
  const int64_t W = g.img[2], OW = g.out[2], K = g.k[2], s = S > 0 ? S : g.s[2], padL = g.padBegin[2];
  const int64_t span = (OW - 1) * s + K;           // padded columns the windows cover
  const int64_t phaseLen = (span + s - 1) / s;     // columns per phase
  alignas(64) float row[kMaxPoolRow + 64];
  alignas(64) float phase[kMaxPoolRow + 64];
  for (int64_t j = 0; j < kMaxPoolRow + 64; ++j) row[j] = kLow;
  for (int64_t p = begin; p < end; ++p) {
    const float* xp = x + p * g.imgSize;
    float* yp = y + p * g.outSize;
    for (int64_t oh = 0; oh < g.out[1]; ++oh) {
      const TapRange& rh = g.ranges[1][oh];
      float* yr = yp + oh * OW;
      if (rh.lo >= rh.hi) {
        for (int64_t ow = 0; ow < OW; ++ow) yr[ow] = kLow;
        continue;
      }
      // Vertical max into row[padL, padL + W) (the rest stays lowest()).
      float* rv = row + padL;
      const int64_t w = std::min(W, span - padL);
      const float* r0 = xp + (rh.start + rh.lo) * W;
      for (int64_t iw = 0; iw < w; ++iw) rv[iw] = r0[iw];
      for (int64_t kh = rh.lo + 1; kh < rh.hi; ++kh) {
        const float* r = xp + (rh.start + kh) * W;
        for (int64_t iw = 0; iw < w; ++iw) rv[iw] = r[iw] > rv[iw] ? r[iw] : rv[iw];
      }
      // Horizontal max.
      if (s == 1) {
        for (int64_t ow = 0; ow < OW; ++ow) yr[ow] = row[ow];
        for (int64_t kw = 1; kw < K; ++kw)
          for (int64_t ow = 0; ow < OW; ++ow) yr[ow] = row[ow + kw] > yr[ow] ? row[ow + kw] : yr[ow];
        continue;
      }
      for (int64_t r = 0; r < s; ++r)
        for (int64_t j = 0; j < phaseLen; ++j) phase[r * phaseLen + j] = row[j * s + r];
      for (int64_t ow = 0; ow < OW; ++ow) yr[ow] = phase[ow];
      for (int64_t kw = 1; kw < K; ++kw) {
        const float* ph = phase + (kw % s) * phaseLen + kw / s;
        for (int64_t ow = 0; ow < OW; ++ow) yr[ow] = ph[ow] > yr[ow] ? ph[ow] : yr[ow];
      }
    }
  }
}

template <int S>
__attribute__((target("avx512f"))) void maxPoolRows512(const PoolGeom& g, const float* x, float* y, int64_t b,
                                                       int64_t e) {
  maxPoolRowsImpl<S>(g, x, y, b, e);
}
template <int S>
void maxPoolRowsPortable(const PoolGeom& g, const float* x, float* y, int64_t b, int64_t e) {
  maxPoolRowsImpl<S>(g, x, y, b, e);
}

#if defined(__x86_64__) || defined(__i386__)
// 2-d, stride 2 both ways, 2x2 or 3x3 windows (the CNN stems' and
// SqueezeNet's pools), AVX-512: per 16 outputs of a row, the window rows'
// 33 input columns are maxed vertically in three masked loads each (columns
// outside the image read as lowest(): padding and ceil_mode overhang), then
// split into even and odd columns by two permutes; the third tap's columns
// are the evens moved up one lane (valignd) with the next vector's first.
// No row buffer, no scalar de-interleave: the separable kernel's phase split
// was scalar, and 2-3x onnxruntime's time on these layers.
template <int K>
__attribute__((target("avx512f"))) void maxPoolS2Planes512(const PoolGeom& g, const float* x, int64_t ldx, float* y,
                                                           int64_t ldy, int64_t p0, int64_t p1) {
  const int64_t W = g.img[2], OW = g.out[2], OH = g.out[1], padL = g.padBegin[2];
  const __m512 low = _mm512_set1_ps(std::numeric_limits<float>::lowest());
  const __m512i even = _mm512_set_epi32(30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0);
  const __m512i odd = _mm512_set_epi32(31, 29, 27, 25, 23, 21, 19, 17, 15, 13, 11, 9, 7, 5, 3, 1);
  auto colMask = [W](int64_t c) { return gemm::lanesWithin(c, 0, W); };
  for (int64_t p = p0; p < p1; ++p) {
    const float* xp = x + p * ldx;
    float* yp = y + p * ldy;
    for (int64_t oh = 0; oh < OH; ++oh) {
      const TapRange& rh = g.ranges[1][oh];
      float* yr = yp + oh * OW;
      for (int64_t ow0 = 0; ow0 < OW; ow0 += 16) {
        const int64_t c0 = ow0 * 2 - padL;
        const __mmask16 m0 = colMask(c0), m1 = colMask(c0 + 16), m2 = K == 3 ? colMask(c0 + 32) : 0;
        __m512 a = low, b = low, c = low;
        for (int64_t kh = rh.lo; kh < rh.hi; ++kh) {
          const float* r = xp + (rh.start + kh) * W + c0;
          a = _mm512_max_ps(a, _mm512_mask_loadu_ps(low, m0, r));
          b = _mm512_max_ps(b, _mm512_mask_loadu_ps(low, m1, r + 16));
          if constexpr (K == 3) c = _mm512_max_ps(c, _mm512_mask_loadu_ps(low, m2 & 1, r + 32));
        }
        const __m512 ev = _mm512_permutex2var_ps(a, even, b), od = _mm512_permutex2var_ps(a, odd, b);
        __m512 v = _mm512_max_ps(ev, od);
        if constexpr (K == 3)
          v = _mm512_max_ps(v, _mm512_castsi512_ps(_mm512_alignr_epi32(_mm512_castps_si512(c), _mm512_castps_si512(ev), 1)));
        const int64_t n = std::min<int64_t>(16, OW - ow0);
        _mm512_mask_storeu_ps(yr + ow0, __mmask16((1u << n) - 1), rh.lo < rh.hi ? v : low);
      }
    }
  }
}
#endif

// The windows the stride-2 plane kernel takes: 2-d, 2x2 or 3x3 at stride 2, no dilation.
bool s2PlanesShape(const PoolGeom& g) {
  return g.out[0] == 1 && g.k[0] == 1 && g.dil[1] == 1 && g.dil[2] == 1 && g.s[1] == 2 && g.s[2] == 2 &&
         g.k[1] == g.k[2] && (g.k[2] == 2 || g.k[2] == 3);
}

}  // namespace

// The pool family's one choice point: the algorithm and ISA for a pool of
// geometry g (max or not; float32 data; an Indices output; X and Y blocked).
// MaxPool on float32 without indices: the AVX-512 stride-2 plane kernel
// where its windows fit, else the separable row kernel (AVX-512 or
// portable) for 2-d windows without dilation whose rows fit its buffer;
// everything else the window loops. No measured thresholds
// (tools/bench/TUNING.md, ## Pools).
PoolChoice choosePool(const PoolGeom& g, bool max, bool float32, bool indices, bool blocked,
                      const cpu::CpuFeatures& f) {
  const cpu::KernelIsa wide = f.avx512() ? cpu::KernelIsa::kAvx512 : cpu::KernelIsa::kPortable;
  if (blocked) return {PoolAlgorithm::kMaxBlocked, wide};
  if (!max) return {PoolAlgorithm::kSumWindows, cpu::KernelIsa::kPortable};
  if (float32 && !indices && g.out[0] == 1 && g.k[0] == 1 && g.dil[1] == 1 && g.dil[2] == 1) {
#if defined(__x86_64__) || defined(__i386__)
    if (f.avx512() && s2PlanesShape(g)) return {PoolAlgorithm::kMaxS2Planes, cpu::KernelIsa::kAvx512};
#endif
    const int64_t span = (g.out[2] - 1) * g.s[2] + g.k[2];
    if (span <= kMaxPoolRow && g.s[2] <= 64) return {PoolAlgorithm::kMaxRows, wide};
  }
  return {PoolAlgorithm::kMaxWindows, cpu::KernelIsa::kPortable};
}

std::string PoolChoice::name() const {
  const char* a = algo == PoolAlgorithm::kMaxS2Planes ? "maxpool-s2-planes"
                  : algo == PoolAlgorithm::kMaxRows    ? "maxpool-rows"
                  : algo == PoolAlgorithm::kMaxBlocked ? "maxpool-blocked"
                  : algo == PoolAlgorithm::kMaxWindows ? "maxpool-windows"
                                                       : "sum-windows";
  return std::string(a) + " " + cpu::isaName(isa);
}

namespace {

// MaxPool by the separable kernels (c: kMaxS2Planes or kMaxRows).
void maxPoolSeparable(ThreadPool& pool, const PoolChoice& c, const PoolGeom& g, const float* x, float* y) {
  const bool avx512 = c.isa == cpu::KernelIsa::kAvx512;
#if defined(__x86_64__) || defined(__i386__)
  if (c.algo == PoolAlgorithm::kMaxS2Planes) {
    pool.parallelFor(g.planes, [&](int64_t begin, int64_t end) {
      maxPoolS2Planes(g, x, g.imgSize, y, g.outSize, begin, end);
    }, std::max<int64_t>(1, 16384 / std::max<int64_t>(g.imgSize, 1)));
    return;
  }
#endif
  using Fn = void (*)(const PoolGeom&, const float*, float*, int64_t, int64_t);
  Fn fn;
  if (g.s[2] == 1) fn = avx512 ? &maxPoolRows512<1> : &maxPoolRowsPortable<1>;
  else if (g.s[2] == 2) fn = avx512 ? &maxPoolRows512<2> : &maxPoolRowsPortable<2>;
  else fn = avx512 ? &maxPoolRows512<0> : &maxPoolRowsPortable<0>;
  pool.parallelFor(g.planes, [&](int64_t begin, int64_t end) { fn(g, x, y, begin, end); },
                   std::max<int64_t>(1, 16384 / std::max<int64_t>(g.imgSize, 1)));
}

bool separable(const PoolChoice& c) {
  return c.algo == PoolAlgorithm::kMaxS2Planes || c.algo == PoolAlgorithm::kMaxRows;
}

// kind 0: average (count_include_pad counts padding taps), 1: Lp norm.
template <class T>
void sumPool(ThreadPool& pool, const PoolGeom& g, const T* x, T* y, int kind, bool countPad, float p) {
  using A = Acc<T>;
  pool.parallelFor(g.planes, [&](int64_t begin, int64_t end) {
    for (int64_t pl = begin; pl < end; ++pl) {
      const T* xp = x + pl * g.imgSize;
      T* yp = y + pl * g.outSize;
      forEachWindow(g, [&](const TapRange& rd, const TapRange& rh, const TapRange& rw, int64_t o) {
        A sum = 0;
        for (int64_t kd = rd.lo; kd < rd.hi; ++kd) {
          const int64_t id = rd.start + kd * g.dil[0];
          for (int64_t kh = rh.lo; kh < rh.hi; ++kh) {
            const T* row = xp + (id * g.img[1] + rh.start + kh * g.dil[1]) * g.img[2] + rw.start;
            if (kind == 0) {
              for (int64_t kw = rw.lo; kw < rw.hi; ++kw) sum += static_cast<A>(row[kw * g.dil[2]]);
            } else if (p == 2) {
              for (int64_t kw = rw.lo; kw < rw.hi; ++kw) {
                const A v = static_cast<A>(row[kw * g.dil[2]]);
                sum += v * v;
              }
            } else {
              for (int64_t kw = rw.lo; kw < rw.hi; ++kw)
                sum += std::pow(std::abs(static_cast<A>(row[kw * g.dil[2]])), static_cast<A>(p));
            }
          }
        }
        A r;
        if (kind == 0) {
          const int64_t n = countPad ? rd.padded * rh.padded * rw.padded
                                     : (rd.hi - rd.lo) * (rh.hi - rh.lo) * (rw.hi - rw.lo);
          r = n > 0 ? sum / static_cast<A>(n) : A(0);
        } else {
          r = p == 2 ? std::sqrt(sum) : std::pow(sum, A(1) / static_cast<A>(p));
        }
        yp[o] = static_cast<T>(r);
      });
    }
  });
}

enum class Kind { kMax, kAverage, kLp };

// MaxPool over a blocked (NCHW16c) 2-d input into a blocked output, one
// output row of one block of 16 channels: per output pixel, the max of the
// window's input pixels, 16 channels a vector (a GCC vector type: one zmm
// in the AVX-512 copy; a plain 16-lane loop came out as 16 scalar maxes).
// Compiled twice like maxPoolRowsImpl, the AVX-512 copy chosen at run time.
using F16 = float __attribute__((vector_size(64)));
__attribute__((always_inline)) inline void maxPoolBlockedRowImpl(const float* xb, int64_t W, const PoolGeom& g,
                                                                 const TapRange& rh, float* yr) {
  for (int64_t ow = 0; ow < g.out[2]; ++ow) {
    const TapRange& rw = g.ranges[2][ow];
    F16 m = F16{} + std::numeric_limits<float>::lowest();
    for (int64_t kh = rh.lo; kh < rh.hi; ++kh) {
      const float* row = xb + ((rh.start + kh * g.dil[1]) * W + rw.start) * 16;
      for (int64_t kw = rw.lo; kw < rw.hi; ++kw) {
        F16 v;
        std::memcpy(&v, row + kw * g.dil[2] * 16, sizeof v);
        m = v > m ? v : m;
      }
    }
    std::memcpy(yr + ow * 16, &m, sizeof m);
  }
}

__attribute__((target("avx512f"))) void maxPoolBlockedRow512(const float* xb, int64_t W, const PoolGeom& g,
                                                             const TapRange& rh, float* yr) {
  maxPoolBlockedRowImpl(xb, W, g, rh, yr);
}
void maxPoolBlockedRowPortable(const float* xb, int64_t W, const PoolGeom& g, const TapRange& rh, float* yr) {
  maxPoolBlockedRowImpl(xb, W, g, rh, yr);
}

void maxPoolBlocked(ThreadPool& pool, const PoolChoice& c, const PoolGeom& g, const float* x, float* y) {
  const auto row = c.isa == cpu::KernelIsa::kAvx512 ? &maxPoolBlockedRow512 : &maxPoolBlockedRowPortable;
  const int64_t blocks = g.planes / 16, H = g.img[1], W = g.img[2], OH = g.out[1], OW = g.out[2];
  pool.parallelFor(blocks * OH, [&](int64_t b, int64_t e) {
    for (int64_t t = b; t < e; ++t) row(x + t / OH * H * W * 16, W, g, g.ranges[1][t % OH], y + t * OW * 16);
  }, std::max<int64_t>(1, 2048 / std::max<int64_t>(1, OW * 16)));
}

// MaxPool's input and output may be blocked together: 2-d, float32, a
// static shape, no Indices output.
BlockedSupport maxPoolBlockedSupport(const KernelInit& init) {
  BlockedSupport s;
  if (init.inputs.empty() || !blockedCandidate(init.inputs[0])) return s;
  if (init.outputs.size() > 1 && init.outputs[1]) return s;
  s.write = 1u;
  s.tied = 1u;
  return s;
}

class PoolKernel final : public Kernel {
 public:
  PoolKernel(const KernelInit& init, Kind kind) : kind_(kind) {
    const Node& node = init.node;
    storageOrder_ = node.attrInt("storage_order", 0);
    if (storageOrder_ != 0 && storageOrder_ != 1)
      init.fail("attribute 'storage_order' must be 0 or 1, got " + std::to_string(storageOrder_));
    countPad_ = node.attrInt("count_include_pad", 0) != 0;
    blocked_ = init.outBlocked(0);
    p_ = lpNorm(node, init.opset);
    const ValueInfo* xi = init.inputs.empty() ? nullptr : init.inputs[0];
    if (xi && xi->hasShape && xi->shape.size() >= 3) {
      attrs_ = shape::parseWindowAttrs(node, xi->shape.size() - 2, true);
      if (isStatic(xi->shape)) {
        xShape_ = toStatic(xi->shape);
        geom_ = poolGeom(node, *attrs_, xShape_);
        const bool indices = init.outputs.size() > 1 && init.outputs[1];
        choice_ = choosePool(*geom_, kind_ == Kind::kMax, xi->dtype == DataType::kFloat, indices, blocked_);
      }
    }
  }

  std::string algorithm() const override { return choice_ ? choice_->name() : std::string(); }

  void run(KernelContext& ctx) override {
    const Node& node = ctx.node();
    const Tensor& x = ctx.input(0);
    PoolGeom local;
    const PoolGeom* g = &local;
    int64_t* idx = ctx.hasOutput(1) ? ctx.output(1).data<int64_t>() : nullptr;
    PoolChoice c;
    if (geom_ && x.shape() == xShape_) {
      g = &*geom_;
      c = *choice_;
    } else {
      if (x.rank() < 3) ctx.fail("input 0 has shape " + shapeToString(x.shape()) + ", expected rank >= 3");
      const WindowAttrs a = attrs_ && attrs_->kernel.size() + 2 == x.rank()
                                ? *attrs_
                                : shape::parseWindowAttrs(node, x.rank() - 2, true);
      local = poolGeom(node, a, x.shape());
      c = choosePool(local, kind_ == Kind::kMax, x.dtype() == DataType::kFloat, idx != nullptr, false);
    }
    Tensor& y = ctx.output(0);
    if (y.numel() == 0) return;
    if (blocked_) {
      if (!geom_ || x.shape() != xShape_ || kind_ != Kind::kMax)
        ctx.fail("input 0 has shape " + shapeToString(x.shape()) + ", planned as " + shapeToString(xShape_));
      maxPoolBlocked(ctx.pool(), c, *g, x.data<float>(), y.data<float>());
      return;
    }
    if (kind_ == Kind::kMax) {
      if (separable(c) && x.dtype() == DataType::kFloat && !idx) {
        maxPoolSeparable(ctx.pool(), c, *g, x.data<float>(), y.data<float>());
        return;
      }
      dispatchType<float, double, Float16, int8_t, uint8_t>(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        maxPool<T>(ctx.pool(), *g, x.data<T>(), y.data<T>(), idx, storageOrder_ == 1);
      }, node);
      return;
    }
    dispatchType<float, double, Float16>(x.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      sumPool<T>(ctx.pool(), *g, x.data<T>(), y.data<T>(), kind_ == Kind::kAverage ? 0 : 1, countPad_, p_);
    }, node);
  }

 private:
  Kind kind_;
  int64_t storageOrder_ = 0;
  bool countPad_ = false;
  float p_ = 2;
  bool blocked_ = false;  // X and Y in NCHW16c (MaxPool only)
  std::optional<WindowAttrs> attrs_;
  std::vector<int64_t> xShape_;
  std::optional<PoolGeom> geom_;
  std::optional<PoolChoice> choice_;  // choosePool's for geom_
};

void addOp(Registry& r, const char* op, std::initializer_list<int> versions, Kind kind) {
  for (int v : versions) {
    OpDef d;
    d.opType = op;
    d.sinceVersion = v;
    d.shape = shape::inferPool;
    d.cpu = [kind](const KernelInit& init) -> std::unique_ptr<Kernel> {
      return std::make_unique<PoolKernel>(init, kind);
    };
    d.types = {DataType::kFloat, DataType::kDouble, DataType::kFloat16};
    // Opset 12 added int8/uint8 to MaxPool.
    if (kind == Kind::kMax && v >= 12) d.types.insert(d.types.end(), {DataType::kInt8, DataType::kUInt8});
    if (kind == Kind::kMax) d.blocked = maxPoolBlockedSupport;
    r.add(std::move(d));
  }
}

}  // namespace

bool maxPoolS2PlanesFit(const PoolGeom& g) {
#if defined(__x86_64__) || defined(__i386__)
  static const bool avx512 = cpu::cpuFeatures().avx512();
  return avx512 && s2PlanesShape(g);
#else
  (void)g;
  return false;
#endif
}

void maxPoolS2Planes(const PoolGeom& g, const float* x, int64_t ldx, float* y, int64_t ldy, int64_t p0, int64_t p1) {
#if defined(__x86_64__) || defined(__i386__)
  if (g.k[2] == 3) maxPoolS2Planes512<3>(g, x, ldx, y, ldy, p0, p1);
  else maxPoolS2Planes512<2>(g, x, ldx, y, ldy, p0, p1);
#else
  (void)g, (void)x, (void)ldx, (void)y, (void)ldy, (void)p0, (void)p1;
#endif
}

void maxPoolFloat(ThreadPool& pool, const PoolGeom& g, const float* x, float* y) {
  const PoolChoice c = choosePool(g, true, true, false, false);
  if (separable(c)) maxPoolSeparable(pool, c, g, x, y);
  else maxPool<float>(pool, g, x, y, nullptr, false);
}

float lpNorm(const Node& node, int64_t opset) {
  const Attribute* a = node.attr("p");
  // LpPool-1 / GlobalLpPool-1 had a float p; later versions an int.
  const float p = !a ? 2.f : a->type == AttrType::kFloat ? a->f : static_cast<float>(a->i);
  if (!(p > 0)) throw Error(ErrorCode::kInvalidModel, node.describe() + ": attribute 'p' must be positive");
  return p;
}

void registerWindowPools(Registry& r) {
  addOp(r, "MaxPool", {1, 8, 10, 11, 12, 22}, Kind::kMax);
  addOp(r, "AveragePool", {1, 7, 10, 11, 19, 22}, Kind::kAverage);
  addOp(r, "LpPool", {1, 2, 11, 18, 22}, Kind::kLp);
}

}  // namespace oinfer::pool

namespace oinfer {

void register_pool(Registry& r) {
  pool::registerWindowPools(r);
  pool::registerGlobalPools(r);
}

}  // namespace oinfer
