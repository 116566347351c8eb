// Gemm and MatMul. float32 runs on the packed sgemm (gemm/sgemm.h), with a
// constant B packed once per plan; other types on Eigen's GEMM, whose
// parallelism is ours: over the batch, and over row blocks of M when there
// are fewer GEMMs than threads, so one large product still uses the pool.
#include <Eigen/Core>
#include <algorithm>
#include <optional>
#include <string>
#include <type_traits>

#include "ops/cpu/compute_in_float.h"
#include "ops/cpu/dispatch.h"
#include "ops/cpu/gemm_select.h"
#include "ops/cpu/gemm/sgemm.h"
#include "ops/cpu/reduce_axes.h"
#include "ops/registry.h"
#include "shape/linalg.h"

namespace oinfer {

namespace {

template <class T>
using RowMat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <class T>
using ConstBlock = Eigen::Map<const RowMat<T>, 0, Eigen::OuterStride<>>;
template <class T>
using Block = Eigen::Map<RowMat<T>, 0, Eigen::OuterStride<>>;

// Below this many multiply-adds a task is not worth handing to another thread.
constexpr int64_t kMinTaskFlops = 1 << 15;

// Y[r0:r1, :] (+)= alpha * op(A)[r0:r1, :] * op(B) for row-major A ([M,K], or
// [K,M] when transA) and B ([K,N], or [N,K] when transB).
template <class T>
void gemmRows(const T* a, bool transA, const T* b, bool transB, T* y, int64_t M, int64_t N,
              int64_t K, int64_t r0, int64_t r1, T alpha, bool accumulate) {
  Block<T> yb(y + r0 * N, r1 - r0, N, Eigen::OuterStride<>(N));
  if (K == 0) {
    if (!accumulate) yb.setZero();
    return;
  }
  auto apply = [&](const auto& ab, const auto& bb) {
    if (accumulate) {
      yb.noalias() += alpha * (ab * bb);
    } else {
      yb.noalias() = ab * bb;
      if (alpha != T(1)) yb *= alpha;
    }
  };
  auto withB = [&](const auto& ab) {
    if (transB)
      apply(ab, ConstBlock<T>(b, N, K, Eigen::OuterStride<>(K)).transpose());
    else
      apply(ab, ConstBlock<T>(b, K, N, Eigen::OuterStride<>(N)));
  };
  if (transA)
    withB(ConstBlock<T>(a + r0, K, r1 - r0, Eigen::OuterStride<>(M)).transpose());
  else
    withB(ConstBlock<T>(a + r0 * K, r1 - r0, K, Eigen::OuterStride<>(K)));
}

// Rows per task so that `gemms` products of M x N x K keep every thread busy
// without making tasks smaller than kMinTaskFlops.
int64_t rowsPerTask(const ThreadPool& pool, int64_t gemms, int64_t M, int64_t N, int64_t K) {
  if (M <= 1 || gemms >= 2 * pool.size()) return std::max<int64_t>(M, 1);
  const int64_t splits = (2 * pool.size() + gemms - 1) / gemms;
  int64_t rows = (M + splits - 1) / splits;
  const int64_t minRows = kMinTaskFlops / std::max<int64_t>(N * std::max<int64_t>(K, 1), 1) + 1;
  return std::min(M, std::max(rows, minRows));
}

// ---- Gemm ----------------------------------------------------------------

template <class T>
class GemmKernel final : public Kernel {
 public:
  explicit GemmKernel(const KernelInit& init)
      : transA_(init.node.attrInt("transA", 0) != 0),
        transB_(init.node.attrInt("transB", 0) != 0),
        alpha_(static_cast<T>(init.node.attrFloat("alpha", 1.f))),
        beta_(static_cast<T>(init.node.attrFloat("beta", 1.f))) {
    if constexpr (std::is_same_v<T, float>) {
      // The planned shapes' GEMM scratch, whether B comes packed or not.
      const ValueInfo* ai = init.inputs[0];
      const ValueInfo* bi = init.hasInput(1) ? init.inputs[1] : nullptr;
      if (ai->hasShape && isStatic(ai->shape) && ai->shape.size() == 2 && bi && bi->hasShape &&
          isStatic(bi->shape) && bi->shape.size() == 2) {
        const int64_t M = ai->shape[transA_ ? 1 : 0].value, K = ai->shape[transA_ ? 0 : 1].value;
        const int64_t N = bi->shape[transB_ ? 0 : 1].value;
        ScratchNeed need = gemmScratch(M, N, K, false, true, init.threads());
        need.cover(gemmScratch(M, N, K, false, false, init.threads()));
        scratch_ = requestWorkspace(init, need);
      }
    }
    // A constant B is packed once into [K, N] so run() streams it row-major.
    if (const Tensor* b = init.constInput(1); b && b->rank() == 2 && b->dtype() == dataTypeOf<T>) {
      const int64_t rows = b->dim(0), cols = b->dim(1);
      if constexpr (std::is_same_v<T, float>) {
        // The same packing (and cache key) as FusedMatMul's for this transB.
        const int64_t K = transB_ ? cols : rows, N = transB_ ? rows : cols;
        sgemmB_ = init.packedWeight<PackedB>(1, transB_ ? "sgemmB:t" : "sgemmB:n",
                                             [&] { return packB(transB_, K, N, b->data<float>(), cols); }, true);
      } else if (transB_) {
        packed_ = Tensor(b->dtype(), {cols, rows});
        Eigen::Map<RowMat<T>>(packed_.data<T>(), cols, rows) =
            Eigen::Map<const RowMat<T>>(b->data<T>(), rows, cols).transpose();
      } else {
        packed_ = b->clone();
      }
    }
  }

  std::string algorithm() const override {
    return cpu::chooseGemm(std::is_same_v<T, float>, sgemmB_ != nullptr).name();
  }

  void run(KernelContext& ctx) override {
    const Tensor& a = ctx.input(0);
    const Tensor& b = ctx.input(1);
    if (a.rank() != 2 || b.rank() != 2)
      ctx.fail("A and B must be 2-d, got " + shapeToString(a.shape()) + " and " + shapeToString(b.shape()));
    const int64_t M = a.dim(transA_ ? 1 : 0), K = a.dim(transA_ ? 0 : 1);
    const int64_t kb = b.dim(transB_ ? 1 : 0), N = b.dim(transB_ ? 0 : 1);
    if (K != kb)
      ctx.fail("inner dimensions differ: A " + shapeToString(a.shape()) + ", B " + shapeToString(b.shape()));
    Tensor& y = ctx.output(0);
    T* yp = y.data<T>();
    const bool useC = ctx.hasInput(2) && beta_ != T(0);
    if (useC) fillFromC(ctx, ctx.input(2), yp, M, N);
    if constexpr (std::is_same_v<T, float>) {
      const int64_t lda = a.dim(1);
      const Workspace ws = scratch_ ? workspace(ctx, *scratch_) : Workspace{};  // sgemm checks its size
      if (sgemmB_ && sgemmB_->K == K && sgemmB_->N == N) {
        sgemmPacked(transA_, M, a.data<float>(), lda, *sgemmB_, alpha_, useC ? 1.f : 0.f, yp, N, GemmEpilogue{},
                    &ctx.pool(), ws);
      } else {
        sgemm(transA_, transB_, M, N, K, alpha_, a.data<float>(), lda, b.data<float>(), b.dim(1), useC ? 1.f : 0.f, yp,
              N, &ctx.pool(), ws);
      }
      return;
    }
    const bool usePacked = packed_.defined();
    const T* bp = usePacked ? packed_.data<T>() : b.data<T>();
    const bool tb = usePacked ? false : transB_;
    const int64_t rows = rowsPerTask(ctx.pool(), 1, M, N, K);
    ctx.pool().parallelFor(
        M, [&](int64_t r0, int64_t r1) {
          gemmRows<T>(a.data<T>(), transA_, bp, tb, yp, M, N, K, r0, r1, alpha_, useC);
        },
        rows);
  }

 private:
  // Y = beta * C, with C broadcast one way onto [M, N].
  void fillFromC(KernelContext& ctx, const Tensor& c, T* y, int64_t M, int64_t N) const {
    const auto& cs = c.shape();
    const int64_t cm = cs.size() == 2 ? cs[0] : 1, cn = cs.empty() ? 1 : cs.back();
    if (cs.size() > 2 || (cm != 1 && cm != M) || (cn != 1 && cn != N))
      ctx.fail("input 2 ('C') of shape " + shapeToString(cs) + " cannot be broadcast to the output shape " +
               shapeToString(std::vector<int64_t>{M, N}));
    const T* cp = c.data<T>();
    for (int64_t m = 0; m < M; ++m) {
      const T* row = cp + (cm == 1 ? 0 : m * cn);
      T* out = y + m * N;
      if (cn == 1)
        std::fill(out, out + N, beta_ * row[0]);
      else
        for (int64_t n = 0; n < N; ++n) out[n] = beta_ * row[n];
    }
  }

  bool transA_, transB_;
  T alpha_, beta_;
  Tensor packed_;
  std::shared_ptr<const PackedB> sgemmB_;  // float: a constant B, packed
  std::optional<WorkspaceIds> scratch_;     // float, static shapes
};

std::unique_ptr<Kernel> makeGemm(const KernelInit& init) {
  std::unique_ptr<Kernel> k;
  dispatchType<float, double>(init.inputs[0]->dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    k = std::make_unique<GemmKernel<T>>(init);
  }, init.node);
  return k;
}

// ---- MatMul --------------------------------------------------------------

// offs[i] = offset into a [src..., unit] operand of output batch index i
// (row-major over `target`, src broadcast from the right), into `offs`
// reusing its capacity.
void batchOffsets(const std::vector<int64_t>& src, const std::vector<int64_t>& target, int64_t unit,
                  std::vector<int64_t>& offs) {
  int64_t count = 1;
  for (int64_t d : target) count *= d;
  offs.resize(count);
  const size_t r = target.size(), lead = r - std::min(r, src.size());
  for (int64_t i = 0; i < count; ++i) {
    int64_t rem = i, off = 0, stride = unit;
    for (size_t d = r; d-- > lead;) {
      const int64_t idx = rem % target[d];
      rem /= target[d];
      const int64_t sd = src[d - lead];
      if (sd != 1) off += idx * stride;
      stride *= sd;
    }
    offs[i] = off;
  }
}

// The batch bookkeeping of one MatMul kernel, kept across its runs so a
// warm run allocates nothing.
struct MatMulBatches {
  std::vector<int64_t> a, b, out, offA, offB;
};

template <class T>
void matmul(KernelContext& ctx, MatMulBatches& batches, const PackedB* packedB = nullptr, const Workspace& ws = {}) {
  const Tensor& a = ctx.input(0);
  const Tensor& b = ctx.input(1);
  if (a.rank() == 0 || b.rank() == 0 || a.shape().back() != (b.rank() == 1 ? b.dim(0) : b.dim(b.rank() - 2)))
    ctx.fail("inner dimensions differ: input 0 ('" + ctx.node().inputs[0] + "') has shape " +
             shapeToString(a.shape()) + ", input 1 ('" + ctx.node().inputs[1] + "') has shape " +
             shapeToString(b.shape()));
  const int64_t K = a.shape().back();
  int64_t M = a.rank() >= 2 ? a.dim(a.rank() - 2) : 1;
  const int64_t N = b.rank() >= 2 ? b.shape().back() : 1;
  std::vector<int64_t>& batchA = batches.a;
  std::vector<int64_t>& batchB = batches.b;
  std::vector<int64_t>& outBatch = batches.out;
  batchA.assign(a.shape().begin(), a.shape().end() - std::min<size_t>(a.rank(), 2));
  batchB.assign(b.shape().begin(), b.shape().end() - std::min<size_t>(b.rank(), 2));
  // A shared B lets A's batch fold into M: one tall GEMM instead of many.
  if (batchB.empty() && !batchA.empty()) {
    for (int64_t d : batchA) M *= d;
    batchA.clear();
  }
  outBatch.assign(std::max(batchA.size(), batchB.size()), 0);
  for (size_t k = 0; k < outBatch.size(); ++k) {
    const int64_t da = k < batchA.size() ? batchA[batchA.size() - 1 - k] : 1;
    const int64_t db = k < batchB.size() ? batchB[batchB.size() - 1 - k] : 1;
    if (da != db && da != 1 && db != 1)
      ctx.fail("cannot broadcast batch dims of " + shapeToString(a.shape()) + " and " + shapeToString(b.shape()));
    outBatch[outBatch.size() - 1 - k] = da == 1 ? db : da;
  }
  std::vector<int64_t>& offA = batches.offA;
  std::vector<int64_t>& offB = batches.offB;
  batchOffsets(batchA, outBatch, M * K, offA);
  batchOffsets(batchB, outBatch, K * N, offB);
  const int64_t gemms = static_cast<int64_t>(offA.size());
  const T* ap = a.data<T>();
  const T* bp = b.data<T>();
  T* yp = ctx.output(0).data<T>();
  if constexpr (std::is_same_v<T, float>) {
    if (packedB && !packedB->empty() && gemms == 1 && packedB->K == K && packedB->N == N) {
      sgemmPacked(false, M, ap, K, *packedB, 1.f, 0.f, yp, N, GemmEpilogue{}, &ctx.pool(), ws);
      return;
    }
    // Many small products (attention heads): one per task, each
    // single-threaded on its thread's part of ws.
    const bool perTask = gemms >= 2 * ctx.pool().size() || M * N * K < (int64_t{1} << 19);
    ctx.pool().parallelFor(perTask ? gemms : 1, [&](int64_t g0, int64_t g1) {
      for (int64_t g = perTask ? g0 : 0; g < (perTask ? g1 : gemms); ++g)
        sgemm(false, false, M, N, K, 1.f, ap + offA[g], K, bp + offB[g], N, 0.f, yp + g * M * N, N,
              perTask ? nullptr : &ctx.pool(), ws);
    });
    return;
  }
  const int64_t rows = rowsPerTask(ctx.pool(), gemms, M, N, K);
  const int64_t blocks = M == 0 ? 0 : (M + rows - 1) / rows;
  const int64_t taskFlops = rows * N * std::max<int64_t>(K, 1);
  ctx.pool().parallelFor(
      gemms * blocks, [&](int64_t t0, int64_t t1) {
        for (int64_t t = t0; t < t1; ++t) {
          const int64_t g = t / blocks, r0 = (t % blocks) * rows;
          gemmRows<T>(ap + offA[g], false, bp + offB[g], false, yp + g * M * N, M, N, K, r0,
                      std::min(M, r0 + rows), T(1), false);
        }
      },
      std::max<int64_t>(1, kMinTaskFlops / std::max<int64_t>(taskFlops, 1)));
}

// The GEMM scratch a float MatMul of these static shapes needs, whichever
// way matmul runs it (packed B, one product per task, or one on the pool).
ScratchNeed matmulScratch(const std::vector<int64_t>& as, const std::vector<int64_t>& bs, int threads) {
  const size_t ra = as.size(), rb = bs.size();
  if (ra == 0 || rb == 0) return {};
  const int64_t K = as.back(), N = rb >= 2 ? bs.back() : 1;
  int64_t M = ra >= 2 ? as[ra - 2] : 1;
  if (rb <= 2)  // A's batch folds into M
    for (size_t d = 0; d + 2 < ra; ++d) M *= as[d];
  ScratchNeed need = gemmScratch(M, N, K, false, true, threads);
  need.cover(gemmScratch(M, N, K, false, false, 1));
  need.cover(gemmScratch(M, N, K, false, false, threads));
  return need;
}

class MatMulKernel final : public Kernel {
 public:
  MatMulKernel(std::shared_ptr<const PackedB> packed, std::optional<WorkspaceIds> scratch, std::string algorithm)
      : packed_(std::move(packed)), scratch_(scratch), algorithm_(std::move(algorithm)) {}
  std::string algorithm() const override { return algorithm_; }
  void run(KernelContext& ctx) override {
    dispatchType<float, double, int32_t, int64_t, uint32_t, uint64_t>(ctx.input(0).dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (std::is_same_v<T, float>)
        matmul<T>(ctx, batches_, packed_.get(), scratch_ ? workspace(ctx, *scratch_) : Workspace{});
      else matmul<T>(ctx, batches_);
    }, ctx.node());
  }

 private:
  std::shared_ptr<const PackedB> packed_;
  std::optional<WorkspaceIds> scratch_;  // the planned shapes' GEMM workspace (float, static shapes)
  MatMulBatches batches_;                 // the batch offsets, kept across runs
  std::string algorithm_;                 // cpu::chooseGemm's, from the planned input type
};

std::unique_ptr<Kernel> makeMatMul(const KernelInit& init) {
  // A constant 2-d float B (a weight) is packed once per Session for the
  // sgemm: A's batch dims always fold into M against a 2-d B, so the packed
  // form serves every shape and the original is never read again.
  std::shared_ptr<const PackedB> packed;
  if (const Tensor* b = init.constInput(1); b && b->rank() == 2 && b->dtype() == DataType::kFloat)
    packed = init.packedWeight<PackedB>(1, "sgemmB:n", [&] {
      return packB(false, b->dim(0), b->dim(1), b->data<float>(), b->dim(1));
    }, true);
  std::optional<WorkspaceIds> scratch;
  const ValueInfo* ai = init.inputs.empty() ? nullptr : init.inputs[0];
  const ValueInfo* bi = init.hasInput(1) ? init.inputs[1] : nullptr;
  const bool f32 = ai && ai->dtype == DataType::kFloat;
  if (f32 && ai->hasShape && isStatic(ai->shape) && bi && bi->hasShape && isStatic(bi->shape))
    scratch = requestWorkspace(init, matmulScratch(toStatic(ai->shape), toStatic(bi->shape), init.threads()));
  return std::make_unique<MatMulKernel>(packed, scratch, cpu::chooseGemm(f32, packed != nullptr).name());
}

}  // namespace

void register_linalg(Registry& r) {
  for (int v : {1, 6, 7, 9, 11, 13})
    r.add(OpDef{"", "Gemm", v, shape::inferGemm, cpu::computeInFloat(makeGemm), {},
                {DataType::kFloat, DataType::kDouble, DataType::kFloat16, DataType::kBFloat16}});
  for (int v : {1, 9, 13})
    r.add(OpDef{"", "MatMul", v, shape::inferMatMul, cpu::computeInFloat(makeMatMul), {},
                {DataType::kFloat, DataType::kDouble, DataType::kInt32, DataType::kInt64,
                 DataType::kUInt32, DataType::kUInt64, DataType::kFloat16, DataType::kBFloat16}});
}

}  // namespace oinfer
