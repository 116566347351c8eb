// Attention (opset 23/24) and RotaryEmbedding (23).
//
// Attention works per (batch, q head) on compute-type copies of Q and of the
// present (past ++ new) K and V in [B, heads, seq, size] layout: scores =
// Q K^T * scale, then softcap, then the additive bias (float mask, bool mask
// as 0/-inf, the causal triangle offset by the past length, and -inf past
// each batch's nonpad_kv_seqlen), then a row softmax and a product with V.
// Query head h reads kv head h / (q_heads / kv_heads) (GQA/MQA).
// Scaling the product once equals the spec's sqrt(scale) on both sides up to
// rounding. A fully masked row gives NaN, as the reference does.
#include <Eigen/Core>
#include <cmath>
#include <limits>

#include "ops/cpu/dispatch.h"
#include "ops/cpu/reduce_axes.h"
#include "ops/registry.h"
#include "shape/attention.h"

namespace oinfer {

namespace {

template <class T>
using ComputeOf = std::conditional_t<std::is_same_v<T, double>, double, float>;

std::string shapeOf(const Tensor& t) { return shapeToString(toShape(t.shape())); }

struct AttentionAttrs {
  bool causal = false;
  bool hasScale = false;
  float scale = 0;
  float softcap = 0;
  int64_t qHeads = 0, kvHeads = 0;  // 3-d inputs
  int64_t qkMode = 0;
};

// Reads a mask element of any supported dtype as an additive bias.
double maskBias(const Tensor& m, int64_t i) {
  switch (m.dtype()) {
    case DataType::kBool: return m.data<bool>()[i] ? 0.0 : -std::numeric_limits<double>::infinity();
    case DataType::kFloat: return m.data<float>()[i];
    case DataType::kDouble: return m.data<double>()[i];
    case DataType::kFloat16: return static_cast<float>(m.data<Float16>()[i]);
    case DataType::kBFloat16: return static_cast<float>(m.data<BFloat16>()[i]);
    default: return 0;
  }
}

// A 3-d [B, seq, heads*size] or 4-d [B, heads, seq, size] tensor as an
// element offset for (b, h, s, 0).
struct HeadLayout {
  int64_t B = 0, H = 0, S = 0, D = 0;
  bool packed = false;  // 3-d
  int64_t at(int64_t b, int64_t h, int64_t s) const {
    return packed ? ((b * S + s) * H + h) * D : ((b * H + h) * S + s) * D;
  }
};

HeadLayout layoutOf(KernelContext& ctx, size_t i, int64_t heads3d) {
  const Tensor& t = ctx.input(i);
  HeadLayout L;
  if (t.rank() == 4) {
    L = {t.dim(0), t.dim(1), t.dim(2), t.dim(3), false};
  } else if (t.rank() == 3) {
    if (heads3d <= 0 || t.dim(2) % heads3d != 0)
      ctx.fail("input " + std::to_string(i) + " ('" + ctx.node().inputs[i] + "') of shape " + shapeOf(t) +
               ": hidden size is not divisible by the head count " + std::to_string(heads3d));
    L = {t.dim(0), heads3d, t.dim(1), t.dim(2) / heads3d, true};
  } else {
    ctx.fail("input " + std::to_string(i) + " ('" + ctx.node().inputs[i] + "') must be 3-d or 4-d, got " + shapeOf(t));
  }
  return L;
}

template <class T, class C>
void gather(const T* src, const HeadLayout& L, C* dst, int64_t totalSeq, int64_t offset) {
  for (int64_t b = 0; b < L.B; ++b)
    for (int64_t h = 0; h < L.H; ++h)
      for (int64_t s = 0; s < L.S; ++s) {
        const T* p = src + L.at(b, h, s);
        C* q = dst + ((b * L.H + h) * totalSeq + offset + s) * L.D;
        for (int64_t d = 0; d < L.D; ++d) q[d] = static_cast<C>(static_cast<cpu::AccOf<T>>(p[d]));
      }
}

template <class T>
void runAttention(KernelContext& ctx, const AttentionAttrs& a) {
  using C = ComputeOf<T>;
  using Mat = Eigen::Matrix<C, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using CMap = Eigen::Map<const Mat>;
  constexpr C kNegInf = -std::numeric_limits<C>::infinity();

  const Tensor& Q = ctx.input(0);
  const size_t rank = Q.rank();
  if (ctx.input(1).rank() != rank || ctx.input(2).rank() != rank)
    ctx.fail("Q, K and V must all be 3-d or all 4-d, got " + shapeOf(Q) + ", " + shapeOf(ctx.input(1)) + ", " +
             shapeOf(ctx.input(2)));
  const HeadLayout lq = layoutOf(ctx, 0, a.qHeads), lk = layoutOf(ctx, 1, a.kvHeads), lv = layoutOf(ctx, 2, a.kvHeads);
  const int64_t B = lq.B, Hq = lq.H, Sq = lq.S, Dh = lq.D, Hkv = lk.H, Skv = lk.S, Dv = lv.D;
  if (lk.B != B || lv.B != B || lv.H != Hkv || lv.S != Skv || lk.D != Dh)
    ctx.fail("K of shape " + shapeOf(ctx.input(1)) + " and V of shape " + shapeOf(ctx.input(2)) +
             " do not match Q of shape " + shapeOf(Q));
  if (Hkv <= 0 || Hq % Hkv != 0)
    ctx.fail("q heads (" + std::to_string(Hq) + ") must be a multiple of kv heads (" + std::to_string(Hkv) + ")");
  const bool hasPast = ctx.hasInput(4) && ctx.hasInput(5);
  const int64_t P = hasPast ? ctx.input(4).dim(2) : 0;
  if (hasPast) {
    const Tensor& pk = ctx.input(4);
    const Tensor& pv = ctx.input(5);
    if (pk.rank() != 4 || pv.rank() != 4 || pk.dim(0) != B || pk.dim(1) != Hkv || pk.dim(3) != Dh ||
        pv.dim(0) != B || pv.dim(1) != Hkv || pv.dim(2) != P || pv.dim(3) != Dv)
      ctx.fail("past_key of shape " + shapeOf(pk) + " and past_value of shape " + shapeOf(pv) +
               " do not match K of shape " + shapeOf(ctx.input(1)) + " and V of shape " + shapeOf(ctx.input(2)));
  }
  const int64_t Tt = P + Skv;

  // Compute-type copies: Q as [B, Hq, Sq, Dh], present K/V as [B, Hkv, Tt, .].
  std::vector<C> q(B * Hq * Sq * Dh), k(B * Hkv * Tt * Dh), v(B * Hkv * Tt * Dv);
  gather(Q.data<T>(), lq, q.data(), Sq, 0);
  if (hasPast) {
    gather(ctx.input(4).data<T>(), HeadLayout{B, Hkv, P, Dh, false}, k.data(), Tt, 0);
    gather(ctx.input(5).data<T>(), HeadLayout{B, Hkv, P, Dv, false}, v.data(), Tt, 0);
  }
  gather(ctx.input(1).data<T>(), lk, k.data(), Tt, P);
  gather(ctx.input(2).data<T>(), lv, v.data(), Tt, P);
  for (size_t o : {size_t(1), size_t(2)}) {
    if (!ctx.hasOutput(o)) continue;
    const std::vector<C>& src = o == 1 ? k : v;
    T* dst = ctx.output(o).data<T>();
    for (size_t i = 0; i < src.size(); ++i) dst[i] = T(src[i]);
  }

  // Mask broadcast onto [B, Hq, Sq, Tm] with Tm <= Tt; columns past Tm are masked.
  const Tensor* mask = ctx.hasInput(3) ? &ctx.input(3) : nullptr;
  int64_t mStride[4] = {0, 0, 0, 0}, Tm = Tt;
  if (mask) {
    const int64_t mr = static_cast<int64_t>(mask->rank());
    const int64_t target[4] = {B, Hq, Sq, Tt};
    bool ok = mr >= 1 && mr <= 4;
    int64_t stride = 1;
    for (int64_t d = 3; ok && d >= 4 - mr; --d) {
      const int64_t n = mask->dim(d - (4 - mr));
      ok = d == 3 ? n <= Tt : (n == target[d] || n == 1);
      mStride[d] = n == 1 && d != 3 ? 0 : stride;
      if (d == 3) Tm = n;
      stride *= n;
    }
    if (!ok)
      ctx.fail("attn_mask of shape " + shapeOf(*mask) + " does not broadcast to [" + std::to_string(B) + "," +
               std::to_string(Hq) + "," + std::to_string(Sq) + "," + std::to_string(Tt) + "]");
  }
  const int64_t* nonpad = ctx.hasInput(6) ? ctx.input(6).data<int64_t>() : nullptr;
  if (nonpad && ctx.input(6).numel() != B)
    ctx.fail("nonpad_kv_seqlen of shape " + shapeOf(ctx.input(6)) + " must be [" + std::to_string(B) + "]");

  const C scale = a.hasScale ? static_cast<C>(a.scale) : static_cast<C>(1.0 / std::sqrt(static_cast<double>(Dh)));
  const C cap = static_cast<C>(a.softcap);
  T* y = ctx.output(0).data<T>();
  T* qkOut = ctx.hasOutput(3) ? ctx.output(3).data<T>() : nullptr;
  const HeadLayout ly{B, Hq, Sq, Dv, rank == 3};
  const int64_t group = Hq / Hkv;

  ctx.pool().parallelFor(B * Hq, [&](int64_t w0, int64_t w1) {
    Mat scores(Sq, Tt), out(Sq, Dv);
    for (int64_t w = w0; w < w1; ++w) {
      const int64_t b = w / Hq, h = w % Hq, kh = h / group;
      CMap qm(q.data() + w * Sq * Dh, Sq, Dh);
      CMap km(k.data() + (b * Hkv + kh) * Tt * Dh, Tt, Dh);
      CMap vm(v.data() + (b * Hkv + kh) * Tt * Dv, Tt, Dv);
      scores.noalias() = qm * km.transpose();
      scores *= scale;
      T* qk = qkOut ? qkOut + w * Sq * Tt : nullptr;
      if (qk && a.qkMode == 0)
        for (int64_t i = 0; i < Sq * Tt; ++i) qk[i] = T(scores.data()[i]);
      if (cap > 0) scores = (scores / cap).array().tanh() * cap;
      if (qk && a.qkMode == 1)
        for (int64_t i = 0; i < Sq * Tt; ++i) qk[i] = T(scores.data()[i]);
      const int64_t limit = nonpad ? nonpad[b] : Tt;
      for (int64_t i = 0; i < Sq; ++i) {
        C* row = scores.data() + i * Tt;
        const int64_t mBase = b * mStride[0] + h * mStride[1] + i * mStride[2];
        for (int64_t j = 0; j < Tt; ++j) {
          if ((a.causal && j > i + P) || j >= limit || j >= Tm) row[j] = kNegInf;
          else if (mask) row[j] += static_cast<C>(maskBias(*mask, mBase + j));
        }
      }
      if (qk && a.qkMode == 2)
        for (int64_t i = 0; i < Sq * Tt; ++i) qk[i] = T(scores.data()[i]);
      for (int64_t i = 0; i < Sq; ++i) {
        C* row = scores.data() + i * Tt;
        C mx = kNegInf, sum = 0;
        for (int64_t j = 0; j < Tt; ++j) mx = std::max(mx, row[j]);
        for (int64_t j = 0; j < Tt; ++j) sum += (row[j] = std::exp(row[j] - mx));
        for (int64_t j = 0; j < Tt; ++j) row[j] /= sum;
      }
      if (qk && a.qkMode == 3)
        for (int64_t i = 0; i < Sq * Tt; ++i) qk[i] = T(scores.data()[i]);
      out.noalias() = scores * vm;
      for (int64_t i = 0; i < Sq; ++i) {
        T* dst = y + ly.at(b, h, i);
        for (int64_t d = 0; d < Dv; ++d) dst[d] = T(out(i, d));
      }
    }
  }, 1);
}

std::unique_ptr<Kernel> makeAttention(const KernelInit& init) {
  AttentionAttrs a;
  a.causal = init.node.attrInt("is_causal", 0) != 0;
  a.hasScale = init.node.hasAttr("scale");
  a.scale = init.node.attrFloat("scale", 0);
  a.softcap = init.node.attrFloat("softcap", 0);
  a.qHeads = init.node.attrInt("q_num_heads", 0);
  a.kvHeads = init.node.attrInt("kv_num_heads", 0);
  a.qkMode = init.node.attrInt("qk_matmul_output_mode", 0);
  if (a.qkMode < 0 || a.qkMode > 3)
    init.fail("qk_matmul_output_mode must be 0, 1, 2 or 3, got " + std::to_string(a.qkMode));
  if (init.hasInput(4) != init.hasInput(5)) init.fail("past_key and past_value must be given together");
  return makeKernel([a](KernelContext& ctx) {
    dispatchType<float, double, Float16, BFloat16>(ctx.input(0).dtype(), [&](auto tag) {
      runAttention<typename decltype(tag)::type>(ctx, a);
    }, ctx.node());
  });
}

// ---- RotaryEmbedding -------------------------------------------------------

struct RopeAttrs {
  bool interleaved = false;
  int64_t rotaryDim = 0;
  int64_t numHeads = 0;
};

template <class T>
void runRope(KernelContext& ctx, const RopeAttrs& a) {
  using C = ComputeOf<T>;
  const Tensor& x = ctx.input(0);
  const Tensor& cosT = ctx.input(1);
  const Tensor& sinT = ctx.input(2);
  if (x.rank() != 3 && x.rank() != 4)
    ctx.fail("input 0 ('" + ctx.node().inputs[0] + "') must be 3-d or 4-d, got " + shapeOf(x));
  // 4-d input is [B, heads, seq, head]; 3-d is [B, seq, heads*head].
  const bool packed = x.rank() == 3;
  const int64_t B = x.dim(0), S = packed ? x.dim(1) : x.dim(2);
  const int64_t H = packed ? a.numHeads : x.dim(1);
  if (H <= 0 || (packed && x.dim(2) % H != 0))
    ctx.fail("input 0 of shape " + shapeOf(x) + " needs num_heads dividing its hidden size, got " + std::to_string(H));
  const int64_t D = packed ? x.dim(2) / H : x.dim(3);
  const int64_t rot = a.rotaryDim > 0 ? a.rotaryDim : D;
  if (rot > D || rot % 2 != 0)
    ctx.fail("rotary_embedding_dim " + std::to_string(rot) + " must be even and at most the head size " +
             std::to_string(D));
  const int64_t half = rot / 2;
  const int64_t* pos = ctx.hasInput(3) ? ctx.input(3).data<int64_t>() : nullptr;
  if (pos && ctx.input(3).numel() != B * S)
    ctx.fail("position_ids of shape " + shapeOf(ctx.input(3)) + " must be [" + std::to_string(B) + "," +
             std::to_string(S) + "]");
  const int64_t cacheRows = cosT.numel() / std::max<int64_t>(half, 1);
  if (cosT.rank() == 0 || cosT.dim(cosT.rank() - 1) != half || sinT.shape() != cosT.shape() ||
      (!pos && cacheRows != B * S))
    ctx.fail("cos_cache of shape " + shapeOf(cosT) + " and sin_cache of shape " + shapeOf(sinT) + " must be " +
             (pos ? "[max_position+1, " : "[" + std::to_string(B) + ", " + std::to_string(S) + ", ") +
             std::to_string(half) + "]");
  const T* xp = x.data<T>();
  const T* cp = cosT.data<T>();
  const T* sp = sinT.data<T>();
  T* yp = ctx.output(0).data<T>();
  for (int64_t b = 0; b < B; ++b)
    for (int64_t s = 0; s < S; ++s) {
      int64_t row = b * S + s;
      if (pos) {
        row = pos[b * S + s];
        if (row < 0 || row >= cacheRows)
          ctx.fail("position id " + std::to_string(row) + " is out of range [0, " + std::to_string(cacheRows) + ")");
      }
      const T* c = cp + row * half;
      const T* sn = sp + row * half;
      for (int64_t h = 0; h < H; ++h) {
        const int64_t off = packed ? (b * S + s) * H * D + h * D : ((b * H + h) * S + s) * D;
        const T* src = xp + off;
        T* dst = yp + off;
        for (int64_t i = 0; i < half; ++i) {
          const int64_t i1 = a.interleaved ? 2 * i : i, i2 = a.interleaved ? 2 * i + 1 : i + half;
          const C x1 = static_cast<C>(static_cast<cpu::AccOf<T>>(src[i1])), x2 = static_cast<C>(static_cast<cpu::AccOf<T>>(src[i2]));
          const C cc = static_cast<C>(static_cast<cpu::AccOf<T>>(c[i])), ss = static_cast<C>(static_cast<cpu::AccOf<T>>(sn[i]));
          dst[i1] = T(cc * x1 - ss * x2);
          dst[i2] = T(ss * x1 + cc * x2);
        }
        for (int64_t d = rot; d < D; ++d) dst[d] = src[d];
      }
    }
}

std::unique_ptr<Kernel> makeRope(const KernelInit& init) {
  RopeAttrs a;
  a.interleaved = init.node.attrInt("interleaved", 0) != 0;
  a.rotaryDim = init.node.attrInt("rotary_embedding_dim", 0);
  a.numHeads = init.node.attrInt("num_heads", 0);
  return makeKernel([a](KernelContext& ctx) {
    dispatchType<float, double, Float16, BFloat16>(ctx.input(0).dtype(), [&](auto tag) {
      runRope<typename decltype(tag)::type>(ctx, a);
    }, ctx.node());
  });
}

}  // namespace

void register_attention(Registry& r) {
  const std::vector<DataType> types = {DataType::kFloat, DataType::kDouble, DataType::kFloat16, DataType::kBFloat16};
  addVersions(r, "Attention", {23, 24}, shape::inferAttention, makeAttention, types);
  addVersions(r, "RotaryEmbedding", {23}, shape::inferRotaryEmbedding, makeRope, types);
}

}  // namespace oinfer
