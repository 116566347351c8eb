// Einsum (scan_ops family). A direct evaluation: every label gets a size and,
// per operand, a stride (the sum of its dims' strides, so a repeated label
// walks the diagonal; 0 where absent or broadcast). Each output element sums
// the product of the operands over all contracted labels.
#include <algorithm>
#include <map>

#include "ops/cpu/dispatch.h"
#include "ops/registry.h"
#include "shape/scan_ops.h"

namespace oinfer {

namespace {

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
  r.add(OpDef{"", "Einsum", 12, shape::inferEinsum, makeEinsum, {},
              {DataType::kFloat, DataType::kDouble, DataType::kInt32, DataType::kInt64, DataType::kUInt32,
               DataType::kUInt64, DataType::kFloat16}});
}

}  // namespace oinfer
