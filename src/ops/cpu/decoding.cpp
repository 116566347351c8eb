// The decoding family: ops that carry state between autoregressive decode
// steps. LinearAttention (27) lives in decoding_linear_attention.cpp;
// CausalConvWithState (27) and TensorScatter (24) are here.
#include <cmath>
#include <string>
#include <vector>

#include "ops/cpu/dispatch.h"
#include "ops/cpu/tensor_common.h"
#include "ops/registry.h"
#include "shape/decoding.h"
#include "shape/index_check.h"

namespace oinfer {
namespace cpu {

KernelFactory linearAttentionKernel();  // decoding_linear_attention.cpp

namespace {

std::string shapeOf(const Tensor& t) { return shapeToString(t.shape()); }

std::string describe(const KernelContext& ctx, size_t i) {
  return "input " + std::to_string(i) + " ('" + ctx.node().inputs[i] + "') of shape " + shapeOf(ctx.input(i));
}

template <class T> float toFloat(T x) { return static_cast<float>(x); }

// ---- CausalConvWithState ----------------------------------------------------
//
// Per (batch, channel) row: padded = past_state (or zeros) ++ input, then a
// valid depthwise correlation with the k taps. The convolution result is
// rounded to the element type before the optional SiLU, as the reference
// does, so half outputs match it bit for bit more often.
template <class T>
void runCausalConv(KernelContext& ctx, bool silu) {
  const Tensor& x = ctx.input(0);
  const Tensor& w = ctx.input(1);
  if (x.rank() != 3) ctx.fail(describe(ctx, 0) + " must be 3-d [batch_size, channels, length]");
  const int64_t B = x.dim(0), C = x.dim(1), L = x.dim(2);
  if (w.rank() != 3 || w.dim(0) != C || w.dim(1) != 1 || w.dim(2) < 1)
    ctx.fail(describe(ctx, 1) + " must be [" + std::to_string(C) + ",1,k] with k >= 1 for input of shape " +
             shapeOf(x));
  const int64_t K = w.dim(2), carry = K - 1;
  const T* bias = nullptr;
  if (ctx.hasInput(2)) {
    if (ctx.input(2).shape() != std::vector<int64_t>{C})
      ctx.fail(describe(ctx, 2) + " must be [" + std::to_string(C) + "]");
    bias = ctx.input(2).data<T>();
  }
  const T* past = nullptr;
  if (ctx.hasInput(3)) {
    if (ctx.input(3).shape() != std::vector<int64_t>{B, C, carry})
      ctx.fail(describe(ctx, 3) + " must be " + shapeToString(std::vector<int64_t>{B, C, carry}) +
               " for input of shape " + shapeOf(x) + " and weight of shape " + shapeOf(w));
    past = ctx.input(3).data<T>();
  }
  const T* xp = x.data<T>();
  const T* wp = w.data<T>();
  T* y = ctx.output(0).data<T>();
  T* present = ctx.hasOutput(1) ? ctx.output(1).data<T>() : nullptr;

  ctx.pool().parallelFor(B * C, [&](int64_t r0, int64_t r1) {
    std::vector<float> padded(static_cast<size_t>(L + carry)), taps(static_cast<size_t>(K));
    for (int64_t r = r0; r < r1; ++r) {
      const int64_t c = r % C;
      for (int64_t j = 0; j < carry; ++j) padded[j] = past ? toFloat(past[r * carry + j]) : 0.f;
      for (int64_t t = 0; t < L; ++t) padded[carry + t] = toFloat(xp[r * L + t]);
      for (int64_t j = 0; j < K; ++j) taps[j] = toFloat(wp[c * K + j]);
      const float b0 = bias ? toFloat(bias[c]) : 0.f;
      for (int64_t t = 0; t < L; ++t) {
        float acc = b0;
        for (int64_t j = 0; j < K; ++j) acc += taps[j] * padded[t + j];
        T conv = T(acc);
        if (silu) {
          const float f = toFloat(conv);
          conv = T(f / (1.f + std::exp(-f)));
        }
        y[r * L + t] = conv;
      }
      // The last k-1 positions of the padded sequence, which reach into
      // past_state when the input is shorter than k-1.
      if (present)
        for (int64_t j = 0; j < carry; ++j) present[r * carry + j] = T(padded[L + j]);
    }
  }, 1);
}

std::unique_ptr<Kernel> makeCausalConv(const KernelInit& init) {
  const std::string act = init.node.attrString("activation", "none");
  if (act != "none" && act != "silu" && act != "swish")
    init.fail("activation must be 'none', 'silu' or 'swish', got '" + act + "'");
  const bool silu = act != "none";
  return makeKernel([silu](KernelContext& ctx) {
    dispatchType<float, Float16, BFloat16>(ctx.input(0).dtype(), [&](auto tag) {
      runCausalConv<typename decltype(tag)::type>(ctx, silu);
    }, ctx.node());
  });
}

// ---- TensorScatter -----------------------------------------------------------
//
// present = past, then for every prefix index p (dims before `axis`, the
// first being the batch) and update position s, the trailing block
// update[p, s, ...] goes to present[p, w[batch] + s, ...], the position taken
// modulo max_sequence_length in circular mode. The spec's pseudocode applies
// the modulo to the whole index tuple; only the sequence position is reduced
// here, since prefix indices are in range by construction and reducing them
// by the sequence length would write into another batch.
struct ScatterAttrs {
  int64_t axis = -2;
  bool circular = false;
};

void runTensorScatter(KernelContext& ctx, const ScatterAttrs& a) {
  const Tensor& past = ctx.input(0);
  const Tensor& upd = ctx.input(1);
  const int64_t rank = static_cast<int64_t>(past.rank());
  if (a.axis < -rank || a.axis >= rank)
    ctx.fail("axis " + std::to_string(a.axis) + " is out of range for past_cache of shape " + shapeOf(past));
  const int64_t axis = a.axis < 0 ? a.axis + rank : a.axis;
  if (axis == 0) ctx.fail("axis must not be 0 (the batch dimension)");
  bool ok = static_cast<int64_t>(upd.rank()) == rank;
  for (int64_t d = 0; ok && d < rank; ++d) ok = d == axis ? upd.dim(d) <= past.dim(d) : upd.dim(d) == past.dim(d);
  if (!ok)
    ctx.fail("update (input 1 '" + ctx.node().inputs[1] + "') of shape " + shapeOf(upd) +
             " does not match past_cache (input 0 '" + ctx.node().inputs[0] + "') of shape " + shapeOf(past) +
             " outside axis " + std::to_string(axis) + ", or is longer along it");
  const int64_t B = past.dim(0);
  std::vector<int64_t> writeAt(static_cast<size_t>(B), 0);
  if (ctx.hasInput(2)) {
    const Tensor& wi = ctx.input(2);
    if (wi.rank() != 1 || wi.dim(0) != B)
      ctx.fail(describe(ctx, 2) + " must be [" + std::to_string(B) + "] for past_cache of shape " + shapeOf(past));
    writeAt = wi.toInt64Vector();
  }
  const int64_t maxSeq = past.dim(axis), seq = upd.dim(axis);
  const int64_t outer = tensor_ops::product(past.shape(), 0, static_cast<size_t>(axis));
  const int64_t perBatch = tensor_ops::product(past.shape(), 1, static_cast<size_t>(axis));
  const int64_t inner = tensor_ops::product(past.shape(), static_cast<size_t>(axis) + 1, past.rank());
  // Linear mode: writeAt[b] + seq <= maxSeq, checked without forming the sum
  // (a write index near INT64_MAX would wrap it negative and pass).
  if (!a.circular) {
    const shape::IndexChecker chk(ctx.node(), ErrorCode::kInvalidArgument);
    for (int64_t b = 0; b < B && seq > 0 && perBatch > 0; ++b)
      chk.inRange(writeAt[b], 0, maxSeq - seq, chk.input(2) + ": write index of batch " + std::to_string(b),
                  " for " + std::to_string(seq) + " updates into max_sequence_length " + std::to_string(maxSeq) +
                      " in linear mode");
  }
  Tensor& out = ctx.output(0);
  tensor_ops::dispatchBytes(past.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* src = past.data<T>();
    const T* up = upd.data<T>();
    T* dst = out.data<T>();
    tensor_ops::copyElems(src, dst, past.numel());
    for (int64_t o = 0; o < outer; ++o) {
      const int64_t base = writeAt[o / perBatch];
      for (int64_t s = 0; s < seq; ++s) {
        int64_t pos = base + s;
        if (a.circular) pos = ((pos % maxSeq) + maxSeq) % maxSeq;
        tensor_ops::copyElems(up + (o * seq + s) * inner, dst + (o * maxSeq + pos) * inner, inner);
      }
    }
  }, ctx.node());
}

std::unique_ptr<Kernel> makeTensorScatter(const KernelInit& init) {
  ScatterAttrs a;
  a.axis = init.node.attrInt("axis", -2);
  const std::string mode = init.node.attrString("mode", "linear");
  if (mode != "linear" && mode != "circular") init.fail("mode must be 'linear' or 'circular', got '" + mode + "'");
  a.circular = mode == "circular";
  return makeKernel([a](KernelContext& ctx) { runTensorScatter(ctx, a); });
}

}  // namespace
}  // namespace cpu

void register_decoding(Registry& r) {
  const std::vector<DataType> half = {DataType::kFloat, DataType::kFloat16, DataType::kBFloat16};
  addVersions(r, "LinearAttention", {27}, shape::inferLinearAttention, cpu::linearAttentionKernel(), half);
  addVersions(r, "CausalConvWithState", {27}, shape::inferCausalConvWithState, cpu::makeCausalConv, half);
  addVersions(r, "TensorScatter", {24}, shape::inferTensorScatter, cpu::makeTensorScatter, tensor_ops::allTypes());
}

}  // namespace oinfer
