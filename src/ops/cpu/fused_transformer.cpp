// Internal ops (domain "ai.oinfer") that the transformer graph passes emit,
// so a BERT/ViT layer runs as a handful of kernels instead of dozens:
//
//   FusedMatMul(A, B, bias?, residual?)  act(A * op(B) + bias + residual); B is
//       a 2-d weight ([N, K] when transB) packed once at plan time.
//   LayerNorm(X, scale, bias?, skip?)    normalises the last axis of X + skip;
//       output 1 (optional) is X + skip itself, for pre-norm residual streams.
//   Gelu(X)                               exact (erf) Gelu, vectorised.
//   FusedAttention(Q, Kt, V, mask?)       softmax(scale * Q Kt + mask) V per
//       (batch, head), with the score matrix kept in a per-thread buffer;
//       with num_heads, Q/K/V/Y stay [B, S, H*D] and heads are strided views,
//       so the head split/merge Transposes of the export disappear; with
//       seq_first (and head_size, offsets), Q/K/V are [S, B, W] (torch's
//       nn.MultiheadAttention, sequence first; one fused QKV projection read
//       three times at column offsets) and Y is [S, B, H, head_size];
//       with offsets and head_size but not seq_first, Q/K/V are [B, S, W]
//       read at column offsets (BERT's three projections fused into one).
//
// All are float32; the passes only emit them for float initializers.
#include <algorithm>
#include <array>
#include <cstring>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "ops/cpu/fused_transformer_rows.h"
#include "ops/cpu/gemm/sgemm.h"
#include "ops/cpu/gemm_select.h"
#include "ops/cpu/reduce_axes.h"
#include "ops/registry.h"
#include "shape/fused_transformer.h"

namespace oinfer {

namespace {

const char* kDomain = "ai.oinfer";

// ---- FusedMatMul ---------------------------------------------------------

class FusedMatMulKernel final : public Kernel {
 public:
  explicit FusedMatMulKernel(const KernelInit& init) {
    const std::string act = init.node.attrString("activation", "");
    if (act == "Relu") act_ = GemmActivation::kRelu;
    else if (act == "Gelu") gelu_ = true;
    else if (!act.empty()) init.fail("unknown activation '" + act + "'");
    transB_ = init.node.attrInt("transB", 0) != 0;
    // A constant B is packed once per Session, and its original dropped when
    // no other node reads it (packedWeight).
    if (const Tensor* b = init.constInput(1); b && b->rank() == 2 && b->dtype() == DataType::kFloat)
      packed_ = init.packedWeight<PackedB>(1, transB_ ? "sgemmB:t" : "sgemmB:n", [&] {
        return transB_ ? packB(true, b->dim(1), b->dim(0), b->data<float>(), b->dim(1))
                       : packB(false, b->dim(0), b->dim(1), b->data<float>(), b->dim(1));
      }, true);
    // The planned shapes' GEMM scratch (A's leading dims fold into M).
    const ValueInfo* ai = init.inputs[0];
    const ValueInfo* bi = init.hasInput(1) ? init.inputs[1] : nullptr;
    if (ai->hasShape && isStatic(ai->shape) && !ai->shape.empty() && bi && bi->hasShape && isStatic(bi->shape) &&
        bi->shape.size() == 2) {
      const std::vector<int64_t> as = toStatic(ai->shape), bs = toStatic(bi->shape);
      const int64_t K = bs[transB_ ? 1 : 0], N = bs[transB_ ? 0 : 1];
      int64_t M = 1;
      for (int64_t d : as) M *= d;
      M = K == 0 ? 0 : M / K;
      scratch_ = requestWorkspace(init, gemmScratch(M, N, K, false, packed_ != nullptr, init.threads()));
    }
  }

  std::string algorithm() const override { return cpu::chooseGemm(true, packed_ != nullptr).name(); }

  void run(KernelContext& ctx) override {
    const Tensor& a = ctx.input(0);
    const Tensor& b = ctx.input(1);
    if (b.rank() != 2 || a.rank() == 0 || a.shape().back() != b.dim(transB_ ? 1 : 0))
      ctx.fail("inner dimensions differ: input 0 ('" + ctx.node().inputs[0] + "') has shape " +
               shapeToString(a.shape()) + ", input 1 ('" + ctx.node().inputs[1] + "') has shape " +
               shapeToString(b.shape()));
    const int64_t K = b.dim(transB_ ? 1 : 0), N = b.dim(transB_ ? 0 : 1);
    const int64_t M = K == 0 ? 0 : a.numel() / K;
    Tensor& y = ctx.output(0);
    float* yp = y.data<float>();
    if (M == 0 || N == 0) return;
    GemmEpilogue ep;
    ep.act = act_;
    if (ctx.hasInput(2)) {
      const Tensor& bias = ctx.input(2);
      if (bias.numel() != N)
        ctx.fail("input 2 ('" + ctx.node().inputs[2] + "') has shape " + shapeToString(bias.shape()) +
                 ", expected [" + std::to_string(N) + "]");
      ep.biasKind = GemmBias::kPerCol;
      ep.bias = bias.data<float>();
    }
    if (ctx.hasInput(3)) {
      const Tensor& r = ctx.input(3);
      if (r.shape() != y.shape())
        ctx.fail("input 3 ('" + ctx.node().inputs[3] + "') has shape " + shapeToString(r.shape()) +
                 ", expected the output's " + shapeToString(y.shape()));
      ep.residual = r.data<float>();
      ep.ldr = N;
    }
    const Workspace ws = scratch_ ? workspace(ctx, *scratch_) : Workspace{};  // sgemm checks its size
    if (!packed_) {
      // A weight that is not constant (rare: the pass only fuses initializers).
      sgemm(false, transB_, M, N, K, 1.f, a.data<float>(), K, b.data<float>(), b.dim(1), 0.f, yp, N, &ctx.pool(),
            ws);
      applyGemmEpilogue(ep, yp, N, M, N);
    } else {
      sgemmPacked(false, M, a.data<float>(), K, *packed_, 1.f, 0.f, yp, N, ep, &ctx.pool(), ws);
    }
    if (gelu_)
      ctx.pool().parallelFor(M, [&](int64_t r0, int64_t r1) {
        cpu::geluSpan(yp + r0 * N, yp + r0 * N, (r1 - r0) * N);
      }, std::max<int64_t>(1, 4096 / N));
  }

 private:
  std::shared_ptr<const PackedB> packed_;  // null: B is not a constant
  std::optional<WorkspaceIds> scratch_;    // static shapes
  GemmActivation act_ = GemmActivation::kNone;
  bool transB_ = false;  // B is [N, K] (a Gemm with transB=1)
  bool gelu_ = false;  // applied after the GEMM with the vectorised erf
};

// ---- LayerNorm -----------------------------------------------------------

std::unique_ptr<Kernel> makeLayerNorm(const KernelInit& init) {
  const float eps = init.node.attrFloat("epsilon", 1e-5f);
  return makeKernel([eps](KernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    if (x.rank() == 0) ctx.fail("input 0 ('" + ctx.node().inputs[0] + "') must have rank >= 1");
    const int64_t n = x.shape().back();
    const int64_t rows = n == 0 ? 0 : x.numel() / n;
    auto vec = [&](size_t i) -> const float* {
      if (!ctx.hasInput(i)) return nullptr;
      const Tensor& t = ctx.input(i);
      if (t.numel() != n)
        ctx.fail("input " + std::to_string(i) + " ('" + ctx.node().inputs[i] + "') has shape " +
                 shapeToString(t.shape()) + ", expected [" + std::to_string(n) + "] for input 0 of shape " +
                 shapeToString(x.shape()));
      return t.data<float>();
    };
    const float* gamma = vec(1);
    const float* beta = vec(2);
    const float* skip = nullptr;
    if (ctx.hasInput(3)) {
      const Tensor& s = ctx.input(3);
      if (s.shape() != x.shape())
        ctx.fail("input 3 ('" + ctx.node().inputs[3] + "') has shape " + shapeToString(s.shape()) +
                 ", expected input 0's " + shapeToString(x.shape()));
      skip = s.data<float>();
    }
    float* sum = ctx.hasOutput(1) ? ctx.output(1).data<float>() : nullptr;
    const float* xp = x.data<float>();
    float* yp = ctx.output(0).data<float>();
    ctx.pool().parallelFor(rows, [&](int64_t r0, int64_t r1) {
      for (int64_t r = r0; r < r1; ++r) {
        const float* src = xp + r * n;
        float* dst = yp + r * n;
        if (skip) {
          // The sum goes to output 1 when wanted, else through y itself.
          float* s = sum ? sum + r * n : dst;
          const float* k = skip + r * n;
          for (int64_t e = 0; e < n; ++e) s[e] = src[e] + k[e];
          src = s;
        }
        cpu::layerNormRow(src, gamma, beta, eps, dst, n);
      }
    }, std::max<int64_t>(1, cpu::kReduceGrain / std::max<int64_t>(n, 1)));
  });
}

// ---- Gelu ----------------------------------------------------------------

std::unique_ptr<Kernel> makeGelu(const KernelInit&) {
  return makeKernel([](KernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    const float* xp = x.data<float>();
    float* yp = ctx.output(0).data<float>();
    constexpr int64_t kChunk = 4096;
    const int64_t n = x.numel();
    ctx.pool().parallelFor((n + kChunk - 1) / kChunk, [&](int64_t c0, int64_t c1) {
      const int64_t b = c0 * kChunk, e = std::min(n, c1 * kChunk);
      cpu::geluSpan(xp + b, yp + b, e - b);
    });
  });
}

// ---- FusedAttention ------------------------------------------------------

// Layout of one attention problem: where head h of batch b starts in Q, K,
// V and Y (element offsets), and their row strides. K is given as K^T [D, T]
// per head, or as rows [T, D] read transposed (kRows).
struct AttentionLayout {
  int64_t batch = 1, heads = 1, S = 0, T = 0, D = 0, E = 0;
  bool kRows = false;
  int64_t q0 = 0, qB = 0, qH = 0, ldq = 0;
  int64_t k0 = 0, kB = 0, kH = 0, ldk = 0;
  int64_t v0 = 0, vB = 0, vH = 0, ldv = 0;
  int64_t oB = 0, oH = 0, ldo = 0;
  int64_t qOff(int64_t b, int64_t h) const { return q0 + b * qB + h * qH; }
  int64_t kOff(int64_t b, int64_t h) const { return k0 + b * kB + h * kH; }
  int64_t vOff(int64_t b, int64_t h) const { return v0 + b * vB + h * vH; }
  int64_t oOff(int64_t b, int64_t h) const { return b * oB + h * oH; }
};

// A lambda kernel that reports its algorithm.
template <class F>
std::unique_ptr<Kernel> makeAttentionKernel(std::string algorithm, F&& f) {
  struct AttentionKernel final : Kernel {
    AttentionKernel(std::string a, F&& fn) : algorithm_(std::move(a)), fn_(std::forward<F>(fn)) {}
    std::string algorithm() const override { return algorithm_; }
    void run(KernelContext& ctx) override { fn_(ctx); }
    std::string algorithm_;
    std::decay_t<F> fn_;
  };
  return std::make_unique<AttentionKernel>(std::move(algorithm), std::forward<F>(f));
}

std::unique_ptr<Kernel> makeAttention(const KernelInit& init) {
  const float scale = init.node.attrFloat("scale", 1.f);
  const int64_t numHeads = init.node.attrInt("num_heads", 0);
  const bool seqFirst = init.node.attrInt("seq_first", 0) != 0;
  const int64_t headSize = init.node.attrInt("head_size", 0);
  std::vector<int64_t> offsets = init.node.attrInts("offsets", {});
  const bool hasOffsets = !offsets.empty();
  if (!hasOffsets) offsets = {0, 0, 0};
  if ((seqFirst || hasOffsets) && (numHeads <= 0 || headSize <= 0 || offsets.size() != 3 || offsets[0] < 0 ||
                                   offsets[1] < 0 || offsets[2] < 0))
    init.fail("seq_first and offsets need num_heads > 0, head_size > 0 and three offsets >= 0");
  // With static shapes: each thread's score rows (S x T) and the two
  // single-threaded GEMMs' packing (Q K^T: S x T over D; scores V: S x E
  // over T), requested per thread. Other shapes allocate per call.
  const ValueInfo* qi = init.hasInput(0) ? init.inputs[0] : nullptr;
  const ValueInfo* ki = init.hasInput(1) ? init.inputs[1] : nullptr;
  const ValueInfo* vi = init.hasInput(2) ? init.inputs[2] : nullptr;
  size_t scoresId = 0;
  std::optional<WorkspaceIds> gemmIds;
  if (qi && ki && vi && qi->hasShape && ki->hasShape && vi->hasShape && isStatic(qi->shape) &&
      isStatic(ki->shape) && isStatic(vi->shape) && qi->shape.size() >= 2 && ki->shape.size() >= 2 &&
      vi->shape.size() >= 2) {
    const std::vector<int64_t> qs = toStatic(qi->shape), ks = toStatic(ki->shape), vs = toStatic(vi->shape);
    const size_t r = qs.size();
    const bool headCols = seqFirst || (numHeads > 0 && hasOffsets);
    const int64_t S = seqFirst ? qs[0] : numHeads > 0 ? qs[1] : qs[r - 2];
    const int64_t T = seqFirst ? ks[0] : numHeads > 0 ? ks[1] : ks.back();
    const int64_t D = headCols ? headSize : numHeads > 0 ? qs.back() / numHeads : qs.back();
    const int64_t E = headCols ? headSize : numHeads > 0 ? vs.back() / numHeads : vs.back();
    scoresId = init.requestScratch(size_t(std::max<int64_t>(S * T, 0)) * sizeof(float), true);
    ScratchNeed need = gemmScratch(S, T, D, false, false, 1);
    need.cover(gemmScratch(S, E, T, false, false, 1));
    gemmIds = requestWorkspace(init, need);
  }
  // Per (batch, head): Q K^T and scores * V on the sgemm (B packed per call),
  // the scaled masked softmax between on the rows' kernel of the same ISA.
  return makeAttentionKernel("per-head-gemm-softmax " +
                                 std::string(cpu::isaName(cpu::chooseGemm(true, false).isa)),
                             [scale, numHeads, seqFirst, headSize, offsets, hasOffsets, scoresId,
                              gemmIds](KernelContext& ctx) {
    const Tensor& q = ctx.input(0);
    const Tensor& k = ctx.input(1);
    const Tensor& v = ctx.input(2);
    const size_t r = q.rank();
    AttentionLayout L;
    // [batch dims..., S, T], the shape the mask broadcasts onto. Fixed-size
    // so that a warm run allocates nothing.
    constexpr size_t kMaxRank = 8;
    std::array<int64_t, kMaxRank> scoreShape{};
    size_t sr = 0;
    if (seqFirst || (numHeads > 0 && hasOffsets)) {
      // Heads at column offsets of rows of width W: Q [B, S, Wq], K [B, T,
      // Wk], V [B, T, Wv] (one fused QKV projection read three times; Y [B,
      // S, H*D]), or sequence first, Q [S, B, Wq] ... (Y [S, B, H, D]). Head
      // h of batch b, row s at column offset + h * head_size.
      const int64_t H = numHeads, D = headSize;
      const int sd = seqFirst ? 0 : 1, bd = 1 - sd;  // the sequence and batch dims
      bool ok = r == 3 && k.rank() == 3 && v.rank() == 3 && q.dim(bd) == k.dim(bd) && q.dim(bd) == v.dim(bd) &&
                k.dim(sd) == v.dim(sd) && offsets[0] + H * D <= q.dim(2) && offsets[1] + H * D <= k.dim(2) &&
                offsets[2] + H * D <= v.dim(2);
      if (!ok)
        ctx.fail("Q " + shapeToString(q.shape()) + ", K " + shapeToString(k.shape()) + " and V " +
                 shapeToString(v.shape()) + " are not " + (seqFirst ? "[S, B, W], [T, B, W], [T, B, W]" :
                 "[B, S, W], [B, T, W], [B, T, W]") + " holding " + std::to_string(H) + " heads of " +
                 std::to_string(D) + " at column offsets " + std::to_string(offsets[0]) + ", " +
                 std::to_string(offsets[1]) + ", " + std::to_string(offsets[2]));
      L.batch = q.dim(bd);
      L.heads = H;
      L.S = q.dim(sd);
      L.T = k.dim(sd);
      L.D = L.E = D;
      L.kRows = true;
      // Strides of one batch and one row: sequence first, a row holds every
      // batch's W columns; else a batch holds S (or T) rows of W.
      auto strides = [&](int64_t w, int64_t rows, int64_t& bStride, int64_t& ld) {
        bStride = seqFirst ? w : rows * w;
        ld = seqFirst ? L.batch * w : w;
      };
      L.q0 = offsets[0], L.qH = D;
      L.k0 = offsets[1], L.kH = D;
      L.v0 = offsets[2], L.vH = D;
      L.oH = D;
      strides(q.dim(2), L.S, L.qB, L.ldq);
      strides(k.dim(2), L.T, L.kB, L.ldk);
      strides(v.dim(2), L.T, L.vB, L.ldv);
      strides(H * D, L.S, L.oB, L.ldo);
      scoreShape = {L.batch, L.heads, L.S, L.T};
      sr = 4;
    } else if (numHeads > 0) {
      // Q [B, S, H*D], K [B, T, H*D], V [B, T, H*E]: heads split by strides.
      bool ok = r == 3 && k.rank() == 3 && v.rank() == 3 && q.dim(0) == k.dim(0) && q.dim(0) == v.dim(0) &&
                q.dim(2) == k.dim(2) && k.dim(1) == v.dim(1) && q.dim(2) % numHeads == 0 && v.dim(2) % numHeads == 0;
      if (!ok)
        ctx.fail("Q " + shapeToString(q.shape()) + ", K " + shapeToString(k.shape()) + " and V " +
                 shapeToString(v.shape()) + " are not [B, S, H*D], [B, T, H*D], [B, T, H*E] for " +
                 std::to_string(numHeads) + " heads");
      L.batch = q.dim(0);
      L.heads = numHeads;
      L.S = q.dim(1);
      L.T = k.dim(1);
      L.D = q.dim(2) / numHeads;
      L.E = v.dim(2) / numHeads;
      L.kRows = true;
      L.qB = L.S * q.dim(2), L.qH = L.D, L.ldq = q.dim(2);
      L.kB = L.T * k.dim(2), L.kH = L.D, L.ldk = k.dim(2);
      L.vB = L.T * v.dim(2), L.vH = L.E, L.ldv = v.dim(2);
      L.oB = L.S * numHeads * L.E, L.oH = L.E, L.ldo = numHeads * L.E;
      scoreShape = {L.batch, L.heads, L.S, L.T};
      sr = 4;
    } else {
      bool ok = r >= 2 && r <= kMaxRank && k.rank() == r && v.rank() == r;
      for (size_t d = 0; ok && d + 2 < r; ++d) ok = q.dim(d) == k.dim(d) && q.dim(d) == v.dim(d);
      if (!ok || q.dim(r - 1) != k.dim(r - 2) || k.dim(r - 1) != v.dim(r - 2))
        ctx.fail("Q " + shapeToString(q.shape()) + ", K^T " + shapeToString(k.shape()) + " and V " +
                 shapeToString(v.shape()) + " do not chain as Q*K^T*V");
      L.S = q.dim(r - 2);
      L.D = q.dim(r - 1);
      L.T = k.dim(r - 1);
      L.E = v.dim(r - 1);
      for (size_t d = 0; d + 2 < r; ++d) {
        scoreShape[d] = q.dim(d);
        L.heads *= q.dim(d);
      }
      // One "batch" of heads problems, each its own [S, D], [D, T], [T, E], [S, E].
      L.qH = L.S * L.D, L.ldq = L.D;
      L.kH = L.D * L.T, L.ldk = L.T;
      L.vH = L.T * L.E, L.ldv = L.E;
      L.oH = L.S * L.E, L.ldo = L.E;
      scoreShape[r - 2] = L.S;
      scoreShape[r - 1] = L.T;
      sr = r;
    }
    // The mask broadcasts onto the scores: per batch dim a stride (0 where it
    // repeats), and rows repeat when its S dim is 1.
    const float* mask = nullptr;
    int64_t maskRowStride = 0;
    std::array<int64_t, kMaxRank> maskStride{};
    if (ctx.hasInput(3)) {
      const Tensor& m = ctx.input(3);
      const size_t mr = m.rank();
      auto md = [&](size_t d) { return d + mr >= sr ? m.dim(d + mr - sr) : int64_t(1); };  // right-aligned
      bool mok = mr <= sr && md(sr - 1) == L.T && (md(sr - 2) == 1 || md(sr - 2) == L.S);
      for (size_t d = 0; mok && d + 2 < sr; ++d) mok = md(d) == 1 || md(d) == scoreShape[d];
      if (!mok)
        ctx.fail("input 3 ('" + ctx.node().inputs[3] + "') of shape " + shapeToString(m.shape()) +
                 " cannot be broadcast to the scores' shape " +
                 shapeToString(std::vector<int64_t>(scoreShape.begin(), scoreShape.begin() + sr)));
      mask = m.data<float>();
      maskRowStride = md(sr - 2) == 1 ? 0 : L.T;
      int64_t stride = md(sr - 2) * L.T;
      for (size_t d = sr - 2; d-- > 0;) {
        maskStride[d] = md(d) == 1 ? 0 : stride;
        stride *= md(d);
      }
    }
    // Offset of problem p's mask block: p unravelled over the batch dims.
    auto maskOffset = [&](int64_t p) {
      int64_t off = 0;
      for (size_t d = sr - 2; d-- > 0;) {
        off += (p % scoreShape[d]) * maskStride[d];
        p /= scoreShape[d];
      }
      return off;
    };
    const float* qp = q.data<float>();
    const float* kp = k.data<float>();
    const float* vp = v.data<float>();
    float* yp = ctx.output(0).data<float>();
    const int64_t problems = L.batch * L.heads;
    if (problems == 0 || L.S == 0 || L.E == 0) return;
    const size_t scoreBytes = static_cast<size_t>(L.S * L.T) * sizeof(float);
    const ScratchSpan* planned = gemmIds ? &ctx.scratch(scoresId) : nullptr;
    const bool fits = planned && planned->bytes >= scoreBytes && planned->parts >= ctx.pool().size();
    const Workspace ws = gemmIds ? workspace(ctx, *gemmIds) : Workspace{};  // sgemm checks its size
    ctx.pool().parallelFor(problems, [&](int64_t p0, int64_t p1) {
      // The planned shapes' rows in the thread's scratch; others (shapes
      // known only now) in a buffer of this call.
      std::vector<float> own;
      if (!fits) own.resize(static_cast<size_t>(L.S * L.T));
      float* sc = fits ? planned->mine<float>() : own.data();
      for (int64_t p = p0; p < p1; ++p) {
        const int64_t b = p / L.heads, h = p % L.heads;
        // K as [T, D] rows (read transposed), or K^T [D, T].
        sgemm(false, L.kRows, L.S, L.T, L.D, 1.f, qp + L.qOff(b, h), L.ldq, kp + L.kOff(b, h), L.ldk, 0.f, sc, L.T,
              nullptr, ws);
        const float* mh = mask ? mask + maskOffset(p) : nullptr;
        cpu::scaledMaskedSoftmaxRows(sc, mh, maskRowStride, scale, sc, L.S, L.T);
        sgemm(false, false, L.S, L.E, L.T, 1.f, sc, L.T, vp + L.vOff(b, h), L.ldv, 0.f, yp + L.oOff(b, h), L.ldo,
              nullptr, ws);
      }
    });
  });
}

}  // namespace

void register_fused_transformer(Registry& r) {
  const std::vector<DataType> f32 = {DataType::kFloat};
  r.add(OpDef{kDomain, "FusedMatMul", 1, shape::inferFusedMatMul,
              [](const KernelInit& init) -> std::unique_ptr<Kernel> { return std::make_unique<FusedMatMulKernel>(init); },
              {}, f32});
  r.add(OpDef{kDomain, "LayerNorm", 1, shape::inferFusedLayerNorm, makeLayerNorm, {}, f32});
  r.add(OpDef{kDomain, "Gelu", 1, shape::propagateUnary, makeGelu, {}, f32});
  r.add(OpDef{kDomain, "FusedAttention", 1, shape::inferFusedAttention, makeAttention, {}, f32});
}

}  // namespace oinfer
