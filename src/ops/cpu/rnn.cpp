// RNN, GRU and LSTM. The input projections X*W^T (+ Wb) of every time step
// are one GEMM per direction; the recurrence then does one batch GEMM
// H_{t-1}*R^T per step. Sequences shorter than seq_length (sequence_lens)
// stop updating their state and get zeros in Y past their end; the reverse
// direction walks each sequence from its own last valid step, so Y stays
// aligned with X. clip bounds gate pre-activations, and input_forget couples
// LSTM's forget gate to 1 - input gate, as onnxruntime does.
#include <Eigen/Core>
#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>
#include <vector>

#include "ops/cpu/dispatch.h"
#include "ops/registry.h"
#include "shape/rnn.h"

namespace oinfer {

namespace {

template <class T>
using RowMat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

enum class Act { kRelu, kTanh, kSigmoid, kAffine, kLeakyRelu, kThresholdedRelu, kScaledTanh, kHardSigmoid,
                 kElu, kSoftsign, kSoftplus };

struct Activation {
  Act kind = Act::kTanh;
  float alpha = 0, beta = 0;

  template <class T>
  T operator()(T x) const {
    const T a = static_cast<T>(alpha), b = static_cast<T>(beta);
    switch (kind) {
      case Act::kRelu: return x > T(0) ? x : T(0);
      case Act::kTanh: return std::tanh(x);
      case Act::kSigmoid: return x >= T(0) ? T(1) / (T(1) + std::exp(-x)) : std::exp(x) / (T(1) + std::exp(x));
      case Act::kAffine: return a * x + b;
      case Act::kLeakyRelu: return x >= T(0) ? x : a * x;
      case Act::kThresholdedRelu: return x > a ? x : T(0);
      case Act::kScaledTanh: return a * std::tanh(b * x);
      case Act::kHardSigmoid: return std::max(T(0), std::min(T(1), a * x + b));
      case Act::kElu: return x >= T(0) ? x : a * (std::exp(x) - T(1));
      case Act::kSoftsign: return x / (T(1) + std::abs(x));
      case Act::kSoftplus: return x > T(0) ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
    }
    return x;
  }
};

struct RnnPlan {
  int gates = 1;  // 1 RNN, 3 GRU, 4 LSTM
  int numDir = 1;
  bool reverseOnly = false;
  int64_t hidden = -1;
  int layout = 0;
  bool hasClip = false;
  float clip = 0;
  bool linearBeforeReset = false;
  bool inputForget = false;
  std::vector<Activation> acts;  // actsPerDir per direction
  int actsPerDir = 1;
};

std::vector<Activation> parseActivations(const KernelInit& init, const std::vector<std::string>& defaults,
                                         int numDir) {
  const Node& n = init.node;
  std::vector<std::string> names = n.attrStrings("activations");
  const std::vector<float> alphas = n.attrFloats("activation_alpha"), betas = n.attrFloats("activation_beta");
  const size_t per = defaults.size();
  if (names.empty()) {
    for (int d = 0; d < numDir; ++d) names.insert(names.end(), defaults.begin(), defaults.end());
  } else if (names.size() == per && numDir == 2) {
    std::vector<std::string> twice = names;
    twice.insert(twice.end(), names.begin(), names.end());
    names = twice;
  } else if (names.size() != per * static_cast<size_t>(numDir)) {
    init.fail("activations has " + std::to_string(names.size()) + " entries, expected " +
              std::to_string(per * numDir));
  }
  size_t ai = 0, bi = 0;
  std::vector<Activation> out;
  for (const std::string& raw : names) {
    std::string s;
    for (char c : raw) s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    Activation a;
    auto takeA = [&](float def) { a.alpha = ai < alphas.size() ? alphas[ai++] : def; };
    auto takeB = [&](float def) { a.beta = bi < betas.size() ? betas[bi++] : def; };
    if (s == "relu") a.kind = Act::kRelu;
    else if (s == "tanh") a.kind = Act::kTanh;
    else if (s == "sigmoid") a.kind = Act::kSigmoid;
    else if (s == "affine") { a.kind = Act::kAffine; takeA(1.f); takeB(0.f); }
    else if (s == "leakyrelu") { a.kind = Act::kLeakyRelu; takeA(0.01f); }
    else if (s == "thresholdedrelu") { a.kind = Act::kThresholdedRelu; takeA(1.f); }
    else if (s == "scaledtanh") { a.kind = Act::kScaledTanh; takeA(1.f); takeB(1.f); }
    else if (s == "hardsigmoid") { a.kind = Act::kHardSigmoid; takeA(0.2f); takeB(0.5f); }
    else if (s == "elu") { a.kind = Act::kElu; takeA(1.f); }
    else if (s == "softsign") a.kind = Act::kSoftsign;
    else if (s == "softplus") a.kind = Act::kSoftplus;
    else init.fail("unsupported activation '" + raw + "'");
    out.push_back(a);
  }
  return out;
}

template <class T>
void runRnn(KernelContext& ctx, const RnnPlan& p) {
  const Tensor& xT = ctx.input(0);
  const Tensor& wT = ctx.input(1);
  const Tensor& rT = ctx.input(2);
  const auto badShape = [&](size_t i, const Tensor& t, const std::string& want) {
    ctx.fail("input " + std::to_string(i) + " ('" + ctx.node().inputs[i] + "') has shape " +
             shapeToString(toShape(t.shape())) + ", expected " + want);
  };
  if (xT.rank() != 3) badShape(0, xT, "rank 3");
  const int64_t S = xT.dim(p.layout == 0 ? 0 : 1), B = xT.dim(p.layout == 0 ? 1 : 0), I = xT.dim(2);
  const int64_t H = p.hidden >= 0 ? p.hidden : (rT.rank() == 3 ? rT.dim(2) : 0);
  const int64_t G = p.gates, D = p.numDir;
  const std::string hs = std::to_string(H);
  if (wT.shape() != std::vector<int64_t>{D, G * H, I})
    badShape(1, wT, "[" + std::to_string(D) + ", " + std::to_string(G * H) + ", " + std::to_string(I) + "]");
  if (rT.shape() != std::vector<int64_t>{D, G * H, H})
    badShape(2, rT, "[" + std::to_string(D) + ", " + std::to_string(G * H) + ", " + hs + "]");
  const T* bias = nullptr;
  if (ctx.hasInput(3)) {
    if (ctx.input(3).shape() != std::vector<int64_t>{D, 2 * G * H})
      badShape(3, ctx.input(3), "[" + std::to_string(D) + ", " + std::to_string(2 * G * H) + "]");
    bias = ctx.input(3).data<T>();
  }
  std::vector<int64_t> lens(static_cast<size_t>(B), S);
  if (ctx.hasInput(4)) {
    const Tensor& sl = ctx.input(4);
    if (sl.numel() != B) badShape(4, sl, "[" + std::to_string(B) + "]");
    for (int64_t b = 0; b < B; ++b) {
      lens[b] = sl.dtype() == DataType::kInt64 ? sl.data<int64_t>()[b] : sl.data<int32_t>()[b];
      if (lens[b] < 0 || lens[b] > S) ctx.fail("sequence_lens[" + std::to_string(b) + "] = " +
                                               std::to_string(lens[b]) + " is outside [0, " + std::to_string(S) + "]");
    }
  }
  const std::vector<int64_t> stateShape = p.layout == 0 ? std::vector<int64_t>{D, B, H}
                                                         : std::vector<int64_t>{B, D, H};
  const T* h0 = nullptr;
  const T* c0 = nullptr;
  if (ctx.hasInput(5)) {
    if (ctx.input(5).shape() != stateShape) badShape(5, ctx.input(5), shapeToString(toShape(stateShape)));
    h0 = ctx.input(5).data<T>();
  }
  if (G == 4 && ctx.hasInput(6)) {
    if (ctx.input(6).shape() != stateShape) badShape(6, ctx.input(6), shapeToString(toShape(stateShape)));
    c0 = ctx.input(6).data<T>();
  }
  const T* peep = nullptr;
  if (G == 4 && ctx.hasInput(7)) {
    if (ctx.input(7).shape() != std::vector<int64_t>{D, 3 * H})
      badShape(7, ctx.input(7), "[" + std::to_string(D) + ", " + std::to_string(3 * H) + "]");
    peep = ctx.input(7).data<T>();
  }
  const auto stateIdx = [&](int64_t d, int64_t b) { return p.layout == 0 ? (d * B + b) * H : (b * D + d) * H; };
  const auto yIdx = [&](int64_t t, int64_t d, int64_t b) {
    return p.layout == 0 ? ((t * D + d) * B + b) * H : ((b * S + t) * D + d) * H;
  };
  T* y = ctx.hasOutput(0) ? ctx.output(0).data<T>() : nullptr;
  T* yh = ctx.hasOutput(1) ? ctx.output(1).data<T>() : nullptr;
  T* yc = G == 4 && ctx.hasOutput(2) ? ctx.output(2).data<T>() : nullptr;
  if (y) std::fill(y, y + S * D * B * H, T(0));

  // Rows of X in (t, b) order whatever the layout.
  const T* xp = xT.data<T>();
  std::vector<T> xs;
  if (p.layout == 1) {
    xs.resize(static_cast<size_t>(S * B * I));
    for (int64_t t = 0; t < S; ++t)
      for (int64_t b = 0; b < B; ++b) std::copy_n(xp + (b * S + t) * I, I, xs.data() + (t * B + b) * I);
    xp = xs.data();
  }
  const T clipV = static_cast<T>(p.clip);
  const auto clip = [&](T v) { return p.hasClip ? std::max(-clipV, std::min(clipV, v)) : v; };
  RowMat<T> xw(S * B, G * H), hr(B, G * H), hr2(B, H);
  RowMat<T> h(B, H), c(B, H), rh(B, H);
  for (int64_t d = 0; d < D; ++d) {
    const bool reverse = p.reverseOnly || d == 1;
    const Activation* act = p.acts.data() + d * p.actsPerDir;
    Eigen::Map<const RowMat<T>> W(wT.data<T>() + d * G * H * I, G * H, I);
    Eigen::Map<const RowMat<T>> R(rT.data<T>() + d * G * H * H, G * H, H);
    Eigen::Map<const RowMat<T>> X(xp, S * B, I);
    xw.noalias() = X * W.transpose();
    const T* wb = bias ? bias + d * 2 * G * H : nullptr;
    const T* rb = bias ? wb + G * H : nullptr;
    if (wb) xw.rowwise() += Eigen::Map<const Eigen::Matrix<T, 1, Eigen::Dynamic>>(wb, G * H);
    for (int64_t b = 0; b < B; ++b)
      for (int64_t j = 0; j < H; ++j) {
        h(b, j) = h0 ? h0[stateIdx(d, b) + j] : T(0);
        c(b, j) = c0 ? c0[stateIdx(d, b) + j] : T(0);
      }
    const T* pd = peep ? peep + d * 3 * H : nullptr;
    for (int64_t s = 0; s < S; ++s) {
      // For GRU without linear_before_reset the hidden gate's R block is
      // applied after the reset gate, so only z and r come from this GEMM.
      const int64_t cols = (G == 3 && !p.linearBeforeReset) ? 2 * H : G * H;
      hr.leftCols(cols).noalias() = h * R.topRows(cols).transpose();
      if (G == 3 && !p.linearBeforeReset) {
        for (int64_t b = 0; b < B; ++b) {
          if (s >= lens[b]) continue;
          const int64_t t = reverse ? lens[b] - 1 - s : s;
          const T* xr = xw.data() + (t * B + b) * G * H;
          for (int64_t j = 0; j < H; ++j) {
            const T r = act[0](clip(xr[H + j] + hr(b, H + j) + (rb ? rb[H + j] : T(0))));
            rh(b, j) = r * h(b, j);
          }
        }
        hr2.noalias() = rh * R.bottomRows(H).transpose();
      }
      for (int64_t b = 0; b < B; ++b) {
        if (s >= lens[b]) continue;
        const int64_t t = reverse ? lens[b] - 1 - s : s;
        const T* xr = xw.data() + (t * B + b) * G * H;
        const auto pre = [&](int64_t k) { return xr[k] + hr(b, k) + (rb ? rb[k] : T(0)); };
        for (int64_t j = 0; j < H; ++j) {
          T hn;
          if (G == 1) {
            hn = act[0](clip(pre(j)));
          } else if (G == 3) {
            const T z = act[0](clip(pre(j)));
            const T r = act[0](clip(pre(H + j)));
            const T rbh = rb ? rb[2 * H + j] : T(0);
            const T hh = p.linearBeforeReset ? act[1](clip(xr[2 * H + j] + r * (hr(b, 2 * H + j) + rbh)))
                                             : act[1](clip(xr[2 * H + j] + hr2(b, j) + rbh));
            hn = (T(1) - z) * hh + z * h(b, j);
          } else {
            const T cp = c(b, j);
            const T i = act[0](clip(pre(j) + (pd ? pd[j] * cp : T(0))));
            const T f = p.inputForget ? T(1) - i : act[0](clip(pre(2 * H + j) + (pd ? pd[2 * H + j] * cp : T(0))));
            const T g = act[1](clip(pre(3 * H + j)));
            const T cn = f * cp + i * g;
            const T o = act[0](clip(pre(H + j) + (pd ? pd[H + j] * cn : T(0))));
            c(b, j) = cn;
            hn = o * act[2](cn);
          }
          rh(b, j) = hn;  // staged: the row's old h is still read by other j above
        }
        for (int64_t j = 0; j < H; ++j) h(b, j) = rh(b, j);
        if (y) std::copy_n(&h(b, 0), H, y + yIdx(t, d, b));
      }
    }
    for (int64_t b = 0; b < B; ++b) {
      if (yh) std::copy_n(&h(b, 0), H, yh + stateIdx(d, b));
      if (yc) std::copy_n(&c(b, 0), H, yc + stateIdx(d, b));
    }
  }
}

template <int Gates>
std::unique_ptr<Kernel> makeRnn(const KernelInit& init) {
  const Node& n = init.node;
  RnnPlan p;
  p.gates = Gates;
  const std::string dir = n.attrString("direction", "forward");
  if (dir != "forward" && dir != "reverse" && dir != "bidirectional")
    init.fail("direction must be 'forward', 'reverse' or 'bidirectional', got '" + dir + "'");
  p.numDir = dir == "bidirectional" ? 2 : 1;
  p.reverseOnly = dir == "reverse";
  p.hidden = n.hasAttr("hidden_size") ? n.attrInt("hidden_size", 0) : -1;
  p.layout = init.opset >= 14 ? static_cast<int>(n.attrInt("layout", 0)) : 0;
  if (p.layout != 0 && p.layout != 1) init.fail("layout must be 0 or 1, got " + std::to_string(p.layout));
  p.hasClip = n.hasAttr("clip");
  p.clip = n.attrFloat("clip", 0.f);
  p.linearBeforeReset = n.attrInt("linear_before_reset", 0) != 0;
  p.inputForget = n.attrInt("input_forget", 0) != 0;
  const std::vector<std::string> defaults =
      Gates == 1 ? std::vector<std::string>{"Tanh"}
      : Gates == 3 ? std::vector<std::string>{"Sigmoid", "Tanh"}
                   : std::vector<std::string>{"Sigmoid", "Tanh", "Tanh"};
  p.actsPerDir = static_cast<int>(defaults.size());
  p.acts = parseActivations(init, defaults, p.numDir);
  return makeKernel([p](KernelContext& ctx) {
    dispatchType<float, double>(ctx.input(0).dtype(), [&](auto tag) {
      runRnn<typename decltype(tag)::type>(ctx, p);
    }, ctx.node());
  });
}

}  // namespace

void register_rnn(Registry& r) {
  const std::vector<DataType> types = {DataType::kFloat, DataType::kDouble};
  addVersions(r, "RNN", {7, 14, 22}, shape::inferRnn, makeRnn<1>, types);
  addVersions(r, "GRU", {7, 14, 22}, shape::inferRnn, makeRnn<3>, types);
  addVersions(r, "LSTM", {7, 14, 22}, shape::inferRnn, makeRnn<4>, types);
}

}  // namespace oinfer
