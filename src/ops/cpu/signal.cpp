// The signal family: HannWindow, HammingWindow, BlackmanWindow, DFT, STFT and
// MelWeightMatrix. Transforms run in double precision whatever the tensor
// type, so float32 results match a reference FFT to the last bit or two: a
// radix-2 FFT for power-of-two lengths, else a direct DFT whose twiddles are
// indexed by (k * j) mod n so no phase is ever computed from a large product.
#include <cmath>
#include <complex>
#include <numbers>

#include "ops/cpu/dispatch.h"
#include "ops/registry.h"
#include "shape/signal.h"

namespace oinfer {

namespace {

using cd = std::complex<double>;

template <class T>
T fromDouble(double v) {
  if constexpr (std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>)
    return T(static_cast<float>(v));
  else
    return static_cast<T>(v);
}

template <class T>
double toDouble(T v) {
  return static_cast<double>(static_cast<float>(v));
}
template <>
double toDouble<double>(double v) {
  return v;
}

int64_t scalarInput(const KernelContext& ctx, size_t i, const char* what) {
  const Tensor& t = ctx.input(i);
  if (t.numel() != 1)
    ctx.fail(std::string("input ") + std::to_string(i) + " ('" + ctx.node().inputs[i] + "', " + what +
             ") must hold one value, got shape " + shapeToString(t.shape()));
  return t.toInt64Vector()[0];
}

// ---- windows ------------------------------------------------------------

// w[n] = a0 - a1 cos(2 pi n / N) + a2 cos(4 pi n / N), N = size when periodic
// else size - 1.
struct Cosine {
  double a0, a1, a2;
};

std::unique_ptr<Kernel> makeWindow(const KernelInit& init, Cosine c) {
  const bool periodic = init.node.attrInt("periodic", 1) != 0;
  return makeKernel([c, periodic](KernelContext& ctx) {
    const int64_t size = scalarInput(ctx, 0, "size");
    if (size < 0) ctx.fail("size " + std::to_string(size) + " must not be negative");
    // allocateOutput: the size may not have been known when shapes were planned.
    Tensor& out = ctx.allocateOutput(0, {size});
    const double N = static_cast<double>(periodic ? size : size - 1);
    const double pi = std::numbers::pi;
    dispatchType<float, double, Float16, BFloat16, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t,
                 uint64_t>(out.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      T* o = out.data<T>();
      for (int64_t n = 0; n < size; ++n) {
        const double x = static_cast<double>(n) / N;
        o[n] = fromDouble<T>(c.a0 - c.a1 * std::cos(2 * pi * x) + c.a2 * std::cos(4 * pi * x));
      }
    }, ctx.node());
  });
}

// ---- transforms ---------------------------------------------------------

// An n-point DFT (or unnormalised inverse) of a line of complex values.
class Transform {
 public:
  Transform(int64_t n, bool inverse) : n_(n), pow2_(n > 0 && (n & (n - 1)) == 0), tw_(static_cast<size_t>(n)) {
    const double sign = inverse ? 1.0 : -1.0;
    for (int64_t j = 0; j < n; ++j) {
      const double ph = sign * 2 * std::numbers::pi * static_cast<double>(j) / static_cast<double>(n);
      tw_[j] = cd(std::cos(ph), std::sin(ph));
    }
  }

  // In place on `a` (n values); `tmp` is scratch of n values.
  void run(cd* a, cd* tmp) const {
    if (pow2_) {
      fft(a);
      return;
    }
    for (int64_t k = 0; k < n_; ++k) {
      cd s = 0;
      int64_t idx = 0;
      for (int64_t j = 0; j < n_; ++j) {
        s += a[j] * tw_[idx];
        idx += k;
        if (idx >= n_) idx %= n_;
      }
      tmp[k] = s;
    }
    std::copy(tmp, tmp + n_, a);
  }

 private:
  void fft(cd* a) const {
    for (int64_t i = 1, j = 0; i < n_; ++i) {
      int64_t bit = n_ >> 1;
      for (; j & bit; bit >>= 1) j ^= bit;
      j ^= bit;
      if (i < j) std::swap(a[i], a[j]);
    }
    for (int64_t len = 2; len <= n_; len <<= 1) {
      const int64_t stride = n_ / len;
      for (int64_t i = 0; i < n_; i += len) {
        for (int64_t k = 0; k < len / 2; ++k) {
          const cd u = a[i + k], v = a[i + k + len / 2] * tw_[k * stride];
          a[i + k] = u + v;
          a[i + k + len / 2] = u - v;
        }
      }
    }
  }

  int64_t n_;
  bool pow2_;
  std::vector<cd> tw_;
};

struct DftPlan {
  bool inverse = false, onesided = false;
  int64_t axisAttr = 1;  // opset 17
};

template <class T>
void runDft(KernelContext& ctx, const DftPlan& p, int64_t opset) {
  const Tensor& x = ctx.input(0);
  const auto& s = x.shape();
  const int64_t r = static_cast<int64_t>(s.size());
  int64_t axis = opset < 20 ? p.axisAttr : (ctx.hasInput(2) ? scalarInput(ctx, 2, "axis") : -2);
  if (axis < -r || axis == -1 || axis > r - 2)
    ctx.fail("axis " + std::to_string(axis) + " is out of range for input 0 of shape " + shapeToString(s));
  if (axis < 0) axis += r;
  const int64_t n = s[axis], C = s.back();
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= s[d];
  for (int64_t d = axis + 1; d + 1 < r; ++d) inner *= s[d];
  const bool irfft = p.inverse && p.onesided;
  int64_t L = ctx.hasInput(1) ? scalarInput(ctx, 1, "dft_length") : (irfft ? 2 * (n - 1) : n);
  if (L < 1) ctx.fail("dft_length " + std::to_string(L) + " must be positive");
  const int64_t Lout = irfft ? L : (p.onesided ? L / 2 + 1 : L);
  const int64_t Cout = irfft ? 1 : 2;
  std::vector<int64_t> outShape = s;
  outShape[axis] = Lout;
  outShape.back() = Cout;
  Tensor& out = ctx.allocateOutput(0, outShape);
  const T* xp = x.data<T>();
  T* op = out.data<T>();
  const Transform tf(L, p.inverse);
  const double scale = p.inverse ? 1.0 / static_cast<double>(L) : 1.0;
  ctx.pool().parallelFor(outer * inner, [&](int64_t b, int64_t e) {
    std::vector<cd> a(static_cast<size_t>(L)), tmp(static_cast<size_t>(L));
    for (int64_t line = b; line < e; ++line) {
      const int64_t o = line / inner, i = line % inner;
      auto in = [&](int64_t j) {
        const T* q = xp + ((o * n + j) * inner + i) * C;
        return cd(toDouble(q[0]), C == 2 ? toDouble(q[1]) : 0.0);
      };
      if (irfft) {
        // The full spectrum from its first L/2+1 bins by Hermitian symmetry.
        for (int64_t k = 0; k <= L / 2; ++k) a[k] = k < n ? in(k) : cd(0);
        for (int64_t k = L / 2 + 1; k < L; ++k) a[k] = std::conj(a[L - k]);
      } else {
        for (int64_t j = 0; j < L; ++j) a[j] = j < n ? in(j) : cd(0);
      }
      tf.run(a.data(), tmp.data());
      for (int64_t k = 0; k < Lout; ++k) {
        T* q = op + ((o * Lout + k) * inner + i) * Cout;
        q[0] = fromDouble<T>(a[k].real() * scale);
        if (Cout == 2) q[1] = fromDouble<T>(a[k].imag() * scale);
      }
    }
  }, std::max<int64_t>(1, 4096 / std::max<int64_t>(L, 1)));
}

std::unique_ptr<Kernel> makeDft(const KernelInit& init) {
  DftPlan p;
  p.inverse = init.node.attrInt("inverse", 0) != 0;
  p.onesided = init.node.attrInt("onesided", 0) != 0;
  p.axisAttr = init.node.attrInt("axis", 1);
  const int64_t opset = init.opset;
  return makeKernel([p, opset](KernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    if (x.rank() < 2 || (x.shape().back() != 1 && x.shape().back() != 2))
      ctx.fail("input 0 ('" + ctx.node().inputs[0] + "') has shape " + shapeToString(x.shape()) +
               ", expected [..., signal_dim, 1 or 2]");
    dispatchType<float, double, Float16>(x.dtype(), [&](auto tag) {
      runDft<typename decltype(tag)::type>(ctx, p, opset);
    }, ctx.node());
  });
}

template <class T>
void runStft(KernelContext& ctx, bool onesided) {
  const Tensor& x = ctx.input(0);
  const int64_t B = x.dim(0), len = x.dim(1), C = x.dim(2);
  const int64_t step = scalarInput(ctx, 1, "frame_step");
  const T* w = nullptr;
  int64_t F = len;
  if (ctx.hasInput(2)) {
    const Tensor& win = ctx.input(2);
    if (win.rank() != 1) ctx.fail("input 2 (window) must be 1-D, got shape " + shapeToString(win.shape()));
    w = win.data<T>();
    F = win.dim(0);
  }
  if (ctx.hasInput(3)) {
    const int64_t fl = scalarInput(ctx, 3, "frame_length");
    if (w && fl != F)
      ctx.fail("frame_length " + std::to_string(fl) + " differs from the window length " + std::to_string(F));
    F = fl;
  }
  if (step < 1 || F < 1 || F > len)
    ctx.fail("frame_step " + std::to_string(step) + " / frame_length " + std::to_string(F) +
             " do not fit a signal of length " + std::to_string(len));
  const int64_t frames = 1 + (len - F) / step, bins = onesided ? F / 2 + 1 : F;
  const T* xp = x.data<T>();
  T* op = ctx.allocateOutput(0, {B, frames, bins, 2}).data<T>();
  const Transform tf(F, false);
  ctx.pool().parallelFor(B * frames, [&](int64_t b0, int64_t e) {
    std::vector<cd> a(static_cast<size_t>(F)), tmp(static_cast<size_t>(F));
    for (int64_t line = b0; line < e; ++line) {
      const int64_t b = line / frames, f = line % frames;
      const T* q = xp + (b * len + f * step) * C;
      for (int64_t j = 0; j < F; ++j) {
        const double wj = w ? toDouble(w[j]) : 1.0;
        a[j] = cd(toDouble(q[j * C]) * wj, C == 2 ? toDouble(q[j * C + 1]) * wj : 0.0);
      }
      tf.run(a.data(), tmp.data());
      T* o = op + line * bins * 2;
      for (int64_t k = 0; k < bins; ++k) {
        o[2 * k] = fromDouble<T>(a[k].real());
        o[2 * k + 1] = fromDouble<T>(a[k].imag());
      }
    }
  }, 1);
}

std::unique_ptr<Kernel> makeStft(const KernelInit& init) {
  const bool onesided = init.node.attrInt("onesided", 1) != 0;
  return makeKernel([onesided](KernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    if (x.rank() != 3 || (x.dim(2) != 1 && x.dim(2) != 2))
      ctx.fail("input 0 ('" + ctx.node().inputs[0] + "') has shape " + shapeToString(x.shape()) +
               ", expected [batch, signal_length, 1 or 2]");
    dispatchType<float, double, Float16>(x.dtype(), [&](auto tag) {
      runStft<typename decltype(tag)::type>(ctx, onesided);
    }, ctx.node());
  });
}

// ---- MelWeightMatrix ----------------------------------------------------

// Triangular filters between mel-spaced edges; the edges follow the ONNX
// reference, including its step of (high - low) / (num_mel_bins + 2).
std::unique_ptr<Kernel> makeMel(const KernelInit&) {
  return makeKernel([](KernelContext& ctx) {
    const int64_t bins = scalarInput(ctx, 0, "num_mel_bins");
    const int64_t dftLength = scalarInput(ctx, 1, "dft_length");
    const int64_t rate = scalarInput(ctx, 2, "sample_rate");
    auto edge = [&](size_t i) {
      const Tensor& t = ctx.input(i);
      if (t.numel() != 1) ctx.fail("input " + std::to_string(i) + " must hold one value");
      double v = 0;
      dispatchType<float, double, Float16, BFloat16>(t.dtype(), [&](auto tag) {
        v = toDouble(t.data<typename decltype(tag)::type>()[0]);
      }, ctx.node());
      return v;
    };
    const double lo = edge(3), hi = edge(4);
    if (bins < 1 || dftLength < 1 || rate < 1)
      ctx.fail("num_mel_bins, dft_length and sample_rate must be positive");
    const int64_t rows = dftLength / 2 + 1;
    const double loMel = 2595 * std::log10(1 + lo / 700), hiMel = 2595 * std::log10(1 + hi / 700);
    const double step = (hiMel - loMel) / static_cast<double>(bins + 2);
    std::vector<int64_t> fb(static_cast<size_t>(bins + 2));
    for (int64_t i = 0; i < bins + 2; ++i) {
      const double hz = 700 * (std::pow(10.0, (static_cast<double>(i) * step + loMel) / 2595) - 1);
      fb[i] = static_cast<int64_t>(std::floor(static_cast<double>(dftLength + 1) * hz / static_cast<double>(rate)));
    }
    std::vector<double> m(static_cast<size_t>(rows * bins), 0.0);
    auto at = [&](int64_t j, int64_t i) -> double& {
      if (j < 0 || j >= rows) ctx.fail("mel edge " + std::to_string(j) + " falls outside the spectrogram bins");
      return m[j * bins + i];
    };
    for (int64_t i = 0; i < bins; ++i) {
      const int64_t l = fb[i], c = fb[i + 1], h = fb[i + 2];
      if (c == l) {
        at(c, i) = 1;
      } else {
        for (int64_t j = l; j <= c; ++j) at(j, i) = static_cast<double>(j - l) / static_cast<double>(c - l);
      }
      if (h > c)
        for (int64_t j = c; j < h; ++j) at(j, i) = static_cast<double>(h - j) / static_cast<double>(h - c);
    }
    Tensor& out = ctx.allocateOutput(0, {rows, bins});
    dispatchType<float, double, Float16, BFloat16, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t,
                 uint64_t>(out.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      T* o = out.data<T>();
      for (size_t k = 0; k < m.size(); ++k) o[k] = fromDouble<T>(m[k]);
    }, ctx.node());
  });
}

}  // namespace

void register_signal(Registry& r) {
  const std::vector<DataType> winTypes = {DataType::kFloat, DataType::kDouble, DataType::kFloat16,
                                          DataType::kBFloat16, DataType::kInt8, DataType::kUInt8,
                                          DataType::kInt16, DataType::kUInt16, DataType::kInt32,
                                          DataType::kUInt32, DataType::kInt64, DataType::kUInt64};
  const std::vector<DataType> types = {DataType::kFloat, DataType::kDouble, DataType::kFloat16};
  addVersions(r, "HannWindow", {17}, shape::inferWindow,
              [](const KernelInit& i) { return makeWindow(i, {0.5, 0.5, 0.0}); }, winTypes);
  addVersions(r, "HammingWindow", {17}, shape::inferWindow,
              [](const KernelInit& i) { return makeWindow(i, {25.0 / 46.0, 21.0 / 46.0, 0.0}); }, winTypes);
  addVersions(r, "BlackmanWindow", {17}, shape::inferWindow,
              [](const KernelInit& i) { return makeWindow(i, {0.42, 0.5, 0.08}); }, winTypes);
  addVersions(r, "DFT", {17, 20}, shape::inferDft, makeDft, types);
  addVersions(r, "STFT", {17}, shape::inferStft, makeStft, types);
  addVersions(r, "MelWeightMatrix", {17}, shape::inferMelWeightMatrix, makeMel, winTypes);
}

}  // namespace oinfer
