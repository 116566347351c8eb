// Ops that share the strings family's slot: BitCast, ReverseSequence,
// MaxUnpool and Det.
#include <Eigen/Dense>
#include <cstring>
#include <string>
#include <vector>

#include "graph/checked_math.h"
#include "ops/cpu/dispatch.h"
#include "ops/cpu/tensor_common.h"
#include "ops/registry.h"
#include "shape/strings.h"

namespace oinfer {

namespace {

bool subByte(DataType t) {
  return t == DataType::kInt4 || t == DataType::kUInt4 || t == DataType::kFloat4E2M1 || t == DataType::kInt2 ||
         t == DataType::kUInt2;
}

std::unique_ptr<Kernel> makeBitCast(const KernelInit& init) {
  const DataType to = static_cast<DataType>(init.node.attrInt("to", 0));
  if (init.inputs[0] && (subByte(init.inputs[0]->dtype) || subByte(to)))
    init.fail("BitCast of packed sub-byte types is not supported");
  // Same bytes, reinterpreted: the output holds exactly the input's bytes.
  return makeKernel([](KernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    Tensor& y = ctx.output(0);
    if (y.nbytes() != x.nbytes())
      ctx.fail("output of " + std::to_string(y.nbytes()) + " bytes for an input of " + std::to_string(x.nbytes()));
    if (x.nbytes() > 0) std::memcpy(y.data(), x.data(), x.nbytes());
  });
}

std::unique_ptr<Kernel> makeReverseSequence(const KernelInit& init) {
  const int64_t timeAxis = init.node.attrInt("time_axis", 0), batchAxis = init.node.attrInt("batch_axis", 1);
  if (!((timeAxis == 0 && batchAxis == 1) || (timeAxis == 1 && batchAxis == 0)))
    init.fail("time_axis and batch_axis must be 0 and 1 in some order, got " + std::to_string(timeAxis) + " and " +
              std::to_string(batchAxis));
  return makeKernel([timeAxis, batchAxis](KernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    if (x.rank() < 2) ctx.fail("input 0 must have rank >= 2, got " + shapeToString(x.shape()));
    const std::vector<int64_t> lens = tensor_ops::readInts(ctx.input(1));
    const int64_t batch = x.dim(batchAxis), time = x.dim(timeAxis);
    if (static_cast<int64_t>(lens.size()) != batch)
      ctx.fail("input 1 (sequence_lens) has " + std::to_string(lens.size()) + " values for batch " +
               std::to_string(batch) + " of input 0 " + shapeToString(x.shape()));
    const int64_t inner = tensor_ops::product(x.shape(), 2, x.rank());
    const int64_t tStride = timeAxis == 0 ? batch * inner : inner, bStride = batchAxis == 0 ? time * inner : inner;
    Tensor& y = ctx.output(0);
    tensor_ops::dispatchBytes(x.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* src = x.data<T>();
      T* dst = y.data<T>();
      for (int64_t b = 0; b < batch; ++b) {
        const int64_t len = lens[b];
        if (len < 0 || len > time) ctx.fail("sequence_lens[" + std::to_string(b) + "] = " + std::to_string(len) +
                                            " is outside [0, " + std::to_string(time) + "]");
        for (int64_t t = 0; t < time; ++t) {
          const int64_t s = t < len ? len - 1 - t : t;
          tensor_ops::copyElems(src + s * tStride + b * bStride, dst + t * tStride + b * bStride, inner);
        }
      }
    }, ctx.node());
  });
}

// Indices address the inferred (unpadded) output; an explicit, larger
// output_shape keeps that block in its leading corner, as the onnx reference.
std::unique_ptr<Kernel> makeMaxUnpool(const KernelInit& init) {
  const std::vector<int64_t> k = init.node.attrInts("kernel_shape");
  const size_t n = k.size();
  const std::vector<int64_t> pads = init.node.attrInts("pads", std::vector<int64_t>(2 * n, 0));
  const std::vector<int64_t> strides = init.node.attrInts("strides", std::vector<int64_t>(n, 1));
  if (n == 0 || pads.size() != 2 * n || strides.size() != n) init.fail("pads/strides do not match kernel_shape");
  return makeKernel([k, n, pads, strides](KernelContext& ctx) {
    const Tensor &x = ctx.input(0), &ind = ctx.input(1);
    Tensor& y = ctx.output(0);
    if (ind.numel() != x.numel())
      ctx.fail("input 1 (I) " + shapeToString(ind.shape()) + " must match input 0 (X) " + shapeToString(x.shape()));
    if (x.rank() != n + 2 || y.rank() != n + 2)
      ctx.fail("input 0 (X) " + shapeToString(x.shape()) + " does not match kernel_shape of " + std::to_string(n) +
               " dims");
    // The unpooled shape, checked: a negative dim (pads larger than the
    // window) made two negative dims multiply to a positive count and the
    // decoded offsets negative.
    std::vector<int64_t> inf{x.dim(0), x.dim(1)};
    for (size_t i = 0; i < n; ++i) {
      int64_t d;
      const bool ok = checkedMul(x.dim(i + 2) - 1, strides[i], &d) && checkedAdd(d, k[i], &d) &&
                      checkedSub(d, pads[i], &d) && checkedSub(d, pads[i + n], &d) && d >= 0;
      if (!ok)
        ctx.fail("input 0 ('" + ctx.node().inputs[0] + "') of shape " + shapeToString(x.shape()) + " with kernel_shape " +
                 shapeToString(k) + ", strides " + shapeToString(strides) + " and pads " + shapeToString(pads) +
                 " gives no valid unpooled size for spatial dim " + std::to_string(i));
      inf.push_back(d);
    }
    int64_t infNumel = 1;
    for (size_t i = 0; i < inf.size(); ++i) {
      if (inf[i] > y.dim(i))
        ctx.fail("output_shape " + shapeToString(y.shape()) + " is smaller than the inferred " + shapeToString(inf));
      infNumel *= inf[i];  // at most y's element count
    }
    const std::vector<int64_t> idx = tensor_ops::readInts(ind);
    const std::vector<int64_t> yStrides = tensor_ops::rowMajorStrides(y.shape());
    tensor_ops::dispatchBytes(x.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (std::is_same_v<T, std::string>) {
        ctx.fail("string input is not supported");
      } else {
        T* dst = y.data<T>();
        std::memset(static_cast<void*>(dst), 0, y.nbytes());
        const T* src = x.data<T>();
        for (int64_t i = 0; i < x.numel(); ++i) {
          if (idx[i] < 0 || idx[i] >= infNumel)
            ctx.fail("index " + std::to_string(idx[i]) + " is outside the unpooled shape " + shapeToString(inf));
          int64_t rem = idx[i], off = 0;
          for (size_t d = inf.size(); d-- > 0;) {
            off += (rem % inf[d]) * yStrides[d];
            rem /= inf[d];
          }
          dst[off] = src[i];
        }
      }
    }, ctx.node());
  });
}

template <class T>
void detBatch(const Tensor& x, Tensor& y) {
  const int64_t m = x.rank() >= 1 ? x.dim(x.rank() - 1) : 0;
  const int64_t n = y.numel();
  using Mat = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const T* src = x.data<T>();
  T* dst = y.data<T>();
  Mat a(m, m);
  for (int64_t b = 0; b < n; ++b) {
    for (int64_t i = 0; i < m * m; ++i) a.data()[i] = static_cast<double>(static_cast<float>(src[b * m * m + i]));
    if constexpr (std::is_same_v<T, double>)
      for (int64_t i = 0; i < m * m; ++i) a.data()[i] = src[b * m * m + i];
    const double d = m == 0 ? 1.0 : a.partialPivLu().determinant();
    dst[b] = static_cast<T>(static_cast<float>(d));
    if constexpr (std::is_same_v<T, double>) dst[b] = d;
  }
}

std::unique_ptr<Kernel> makeDet(const KernelInit&) {
  return makeKernel([](KernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    if (x.rank() < 2 || x.dim(x.rank() - 1) != x.dim(x.rank() - 2))
      ctx.fail("input 0 must be [*, M, M], got " + shapeToString(x.shape()));
    Tensor& y = ctx.output(0);
    dispatchType<float, double, Float16, BFloat16>(x.dtype(), [&](auto tag) {
      detBatch<typename decltype(tag)::type>(x, y);
    }, ctx.node());
  });
}

}  // namespace

void register_strings_misc(Registry& r) {
  std::vector<DataType> numeric;
  for (DataType t : tensor_ops::numericTypes())
    if (!subByte(t)) numeric.push_back(t);
  addVersions(r, "BitCast", {26}, shape::inferBitCast, makeBitCast, numeric);
  addVersions(r, "ReverseSequence", {10}, shape::propagateUnary, makeReverseSequence, tensor_ops::allTypes());
  addVersions(r, "MaxUnpool", {9, 11, 22}, shape::inferMaxUnpool, makeMaxUnpool,
              {DataType::kFloat, DataType::kDouble, DataType::kFloat16, DataType::kBFloat16});
  addVersions(r, "Det", {11, 22}, shape::inferDet, makeDet,
              {DataType::kFloat, DataType::kDouble, DataType::kFloat16, DataType::kBFloat16});
}

}  // namespace oinfer
