// Einsum (scan_ops family). A direct evaluation: every label gets a size and,
// per operand, a stride (the sum of its dims' strides, so a repeated label
// walks the diagonal; 0 where absent or broadcast). Each output element sums
// the product of the operands over all contracted labels. Two-operand
// einsums that are a batched matmul (every label in exactly two of A, B and
// the output, no diagonals or broadcasting) are packed into [batch,M,K] x
// [batch,K,N] and run through Eigen's GEMM instead.
#include <Eigen/Core>
#include <algorithm>
#include <map>

#include "ops/cpu/dispatch.h"
#include "ops/registry.h"
#include "shape/scan_ops.h"

namespace oinfer {

namespace {

// Visits the multi-index over `dims` (row-major), giving each step's offset
// sum(idx * strides) to f along with the step's row-major position.
template <class F>
void forEachOffset(const std::vector<int64_t>& dims, const std::vector<int64_t>& strides, F&& f) {
  int64_t total = 1;
  for (int64_t d : dims) total *= d;
  if (total == 0) return;
  std::vector<int64_t> idx(dims.size(), 0);
  int64_t off = 0;
  for (int64_t p = 0; p < total; ++p) {
    f(p, off);
    for (int64_t j = static_cast<int64_t>(dims.size()) - 1; j >= 0; --j) {
      if (++idx[j] < dims[j]) {
        off += strides[j];
        break;
      }
      off -= (dims[j] - 1) * strides[j];
      idx[j] = 0;
    }
  }
}

// The batched-matmul fast path; false when the einsum does not have that form.
template <class T>
bool einsumGemm(KernelContext& ctx, const shape::EinsumSpec& spec, const std::vector<int>& labels,
                const std::vector<int64_t>& dims, const std::vector<std::vector<int64_t>>& strides) {
  const auto& la = spec.inputs[0];
  const auto& lb = spec.inputs[1];
  const auto& lo = spec.output;
  auto has = [](const std::vector<int>& v, int l) { return std::count(v.begin(), v.end(), l); };
  for (int k = 0; k < 2; ++k) {
    const Tensor& t = ctx.input(k);
    for (size_t d = 0; d < t.rank(); ++d) {
      const int l = spec.inputs[k][d];
      if (has(spec.inputs[k], l) != 1) return false;
      const size_t j = std::find(labels.begin(), labels.end(), l) - labels.begin();
      if (t.dim(d) != dims[j]) return false;
    }
  }
  // Label positions (into `labels`) by role.
  std::vector<size_t> batch, m, n, k;
  for (size_t j = 0; j < labels.size(); ++j) {
    const int l = labels[j];
    const bool a = has(la, l), b = has(lb, l), o = has(lo, l);
    if (a && b && o) batch.push_back(j);
    else if (a && o) m.push_back(j);
    else if (b && o) n.push_back(j);
    else if (a && b) k.push_back(j);
    else return false;
  }
  auto prod = [&](const std::vector<size_t>& v) {
    int64_t p = 1;
    for (size_t j : v) p *= dims[j];
    return p;
  };
  const int64_t B = prod(batch), M = prod(m), N = prod(n), K = prod(k);
  auto pack = [&](const T* src, const std::vector<int64_t>& st, std::vector<size_t> order, std::vector<T>& dst) {
    std::vector<int64_t> ds, ss;
    for (size_t j : order) ds.push_back(dims[j]), ss.push_back(st[j]);
    forEachOffset(ds, ss, [&](int64_t p, int64_t off) { dst[p] = src[off]; });
  };
  auto cat = [](std::vector<size_t> a, const std::vector<size_t>& b, const std::vector<size_t>& c) {
    a.insert(a.end(), b.begin(), b.end());
    a.insert(a.end(), c.begin(), c.end());
    return a;
  };
  std::vector<T> pa(B * M * K), pb(B * K * N), pc(B * M * N);
  pack(ctx.input(0).data<T>(), strides[0], cat(batch, m, k), pa);
  pack(ctx.input(1).data<T>(), strides[1], cat(batch, k, n), pb);
  using Mat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  constexpr int64_t kRows = 64;
  const int64_t blocks = (M + kRows - 1) / kRows;
  ctx.pool().parallelFor(B * blocks, [&](int64_t s, int64_t e) {
    for (int64_t t = s; t < e; ++t) {
      const int64_t b = t / blocks, r0 = (t % blocks) * kRows, rows = std::min(kRows, M - r0);
      Eigen::Map<const Mat> A(pa.data() + (b * M + r0) * K, rows, K);
      Eigen::Map<const Mat> Bm(pb.data() + b * K * N, K, N);
      Eigen::Map<Mat> C(pc.data() + (b * M + r0) * N, rows, N);
      C.noalias() = A * Bm;
    }
  }, 1);
  // Scatter [batch,M,N] into the output's label order.
  std::vector<int64_t> ostride(labels.size(), 0);
  for (int64_t d = static_cast<int64_t>(lo.size()) - 1, st = 1; d >= 0; --d) {
    const size_t j = std::find(labels.begin(), labels.end(), lo[d]) - labels.begin();
    ostride[j] = st;
    st *= dims[j];
  }
  std::vector<int64_t> ds, ss;
  for (size_t j : cat(batch, m, n)) ds.push_back(dims[j]), ss.push_back(ostride[j]);
  T* py = ctx.output(0).data<T>();
  forEachOffset(ds, ss, [&](int64_t p, int64_t off) { py[off] = pc[p]; });
  return true;
}

std::unique_ptr<Kernel> makeEinsum(const KernelInit& init) {
  const std::string equation = init.node.attrString("equation", "");
  if (equation.empty()) init.fail("the equation attribute is required");
  return makeKernel([equation](KernelContext& ctx) {
    const size_t nin = ctx.numInputs();
    std::vector<int64_t> ranks;
    for (size_t k = 0; k < nin; ++k) ranks.push_back(static_cast<int64_t>(ctx.input(k).rank()));
    const shape::EinsumSpec spec = shape::parseEinsum(ctx.node(), equation, ranks);
    std::map<int, int64_t> size;
    for (size_t k = 0; k < nin; ++k) {
      const Tensor& t = ctx.input(k);
      if (t.dtype() != ctx.input(0).dtype())
        ctx.fail("input " + std::to_string(k) + " has type " + dataTypeName(t.dtype()) + ", input 0 has " +
                 dataTypeName(ctx.input(0).dtype()));
      for (size_t d = 0; d < t.rank(); ++d) {
        const int l = spec.inputs[k][d];
        auto it = size.find(l);
        if (it == size.end() || it->second == 1) size[l] = t.dim(d);
        else if (t.dim(d) != 1 && t.dim(d) != it->second)
          ctx.fail("dim " + std::to_string(d) + " of input " + std::to_string(k) + " shape " +
                   shapeToString(t.shape()) + " does not match size " + std::to_string(it->second) + " of its label");
      }
    }
    std::vector<int> labels = spec.output;
    for (auto [l, s] : size)
      if (std::find(labels.begin(), labels.end(), l) == labels.end()) labels.push_back(l);
    const size_t nout = spec.output.size(), nl = labels.size();
    std::vector<int64_t> dims(nl);
    for (size_t j = 0; j < nl; ++j) dims[j] = size[labels[j]];
    std::vector<std::vector<int64_t>> strides(nin, std::vector<int64_t>(nl, 0));
    for (size_t k = 0; k < nin; ++k) {
      const Tensor& t = ctx.input(k);
      int64_t st = 1;
      for (int64_t d = static_cast<int64_t>(t.rank()) - 1; d >= 0; --d) {
        const size_t j = std::find(labels.begin(), labels.end(), spec.inputs[k][d]) - labels.begin();
        if (t.dim(d) != 1) strides[k][j] += st;
        st *= t.dim(d);
      }
    }
    int64_t outCount = 1, redCount = 1;
    for (size_t j = 0; j < nl; ++j) (j < nout ? outCount : redCount) *= dims[j];
    bool done = false;
    if (nin == 2 && ctx.input(0).dtype() == DataType::kFloat)
      done = einsumGemm<float>(ctx, spec, labels, dims, strides);
    else if (nin == 2 && ctx.input(0).dtype() == DataType::kDouble)
      done = einsumGemm<double>(ctx, spec, labels, dims, strides);
    if (done) return;
    dispatchType<float, double, int32_t, int64_t, uint32_t, uint64_t, Float16>(ctx.input(0).dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      using A = std::conditional_t<std::is_same_v<T, Float16>, float, T>;
      std::vector<const T*> src(nin);
      for (size_t k = 0; k < nin; ++k) src[k] = ctx.input(k).data<T>();
      T* py = ctx.output(0).data<T>();
      ctx.pool().parallelFor(outCount, [&](int64_t b, int64_t e) {
        std::vector<int64_t> base(nin), off(nin), idx(nl);
        for (int64_t o = b; o < e; ++o) {
          std::fill(base.begin(), base.end(), 0);
          int64_t rem = o;
          for (int64_t j = static_cast<int64_t>(nout) - 1; j >= 0; --j) {
            const int64_t i = rem % dims[j];
            rem /= dims[j];
            for (size_t k = 0; k < nin; ++k) base[k] += i * strides[k][j];
          }
          A acc = A(0);
          std::fill(idx.begin(), idx.end(), 0);
          off = base;
          for (int64_t r = 0; r < redCount; ++r) {
            A prod = A(1);
            for (size_t k = 0; k < nin; ++k) prod = prod * static_cast<A>(src[k][off[k]]);
            acc += prod;
            // Odometer over the contracted labels, innermost last.
            for (int64_t j = static_cast<int64_t>(nl) - 1; j >= static_cast<int64_t>(nout); --j) {
              if (++idx[j] < dims[j]) {
                for (size_t k = 0; k < nin; ++k) off[k] += strides[k][j];
                break;
              }
              for (size_t k = 0; k < nin; ++k) off[k] -= (dims[j] - 1) * strides[k][j];
              idx[j] = 0;
            }
          }
          py[o] = static_cast<T>(acc);
        }
      }, std::max<int64_t>(1, 16384 / std::max<int64_t>(redCount, 1)));
    }, ctx.node());
  });
}

}  // namespace

void register_einsum(Registry& r) {
  addVersions(r, "Einsum", {12}, shape::inferEinsum, makeEinsum,
              {DataType::kFloat, DataType::kDouble, DataType::kInt32, DataType::kInt64, DataType::kUInt32,
               DataType::kUInt64, DataType::kFloat16});
}

}  // namespace oinfer
