// Pieces shared by the quantize family's kernels (quantize.cpp,
// quantize_int.cpp): reading any numeric tensor as doubles, and integer
// zero points.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ops/cpu/conv_common.h"
#include "ops/registry.h"
#include "shape/conv.h"

namespace oinfer::quant {

// Every element as a double (float8/float4/int4... decoded); an Error naming
// the node for types that are not numeric.
std::vector<double> toDoubles(const Tensor& t, const Node& node);
// Every element as an int32 (integer types only).
std::vector<int32_t> toInt32(const Tensor& t, const Node& node);

std::string inputDesc(const Node& node, size_t i);

void register_quantize_int(Registry& r);

// ---- integer matmul / conv (quantize_int.cpp, quantize_qlinear.cpp) ----

// A MatMul's M, K, N and batch dims (numpy broadcasting); an Error naming
// input ai / bi when they do not agree.
struct MatDims {
  int64_t M, K, N;
  std::vector<int64_t> batchA, batchB, batch;
};
MatDims matDims(const KernelContext& ctx, const Tensor& a, const Tensor& b, size_t ai, size_t bi);
// A Conv's geometry from x, w (input wi) and the attributes.
conv::ConvGeom convGeom(const KernelContext& ctx, const shape::WindowAttrs& a, int64_t group, const Tensor& x,
                        const Tensor& w, size_t wi);

// The reference forms of MatMulInteger / QLinearMatMul and ConvInteger /
// QLinearConv (int32 Eigen over centred copies; double requantization):
// what the qgemm kernels fall back to for the forms they do not take
// (per-row A zero points, non-float32 scales, weights known only at run time).
void referenceMatMul(KernelContext& ctx, bool qlinear);
void referenceConv(KernelContext& ctx, bool qlinear);

// The qgemm kernels (quantize_qlinear.cpp).
std::unique_ptr<Kernel> makeQMatMulKernel(const KernelInit& init, bool qlinear);
std::unique_ptr<Kernel> makeQConvKernel(const KernelInit& init, bool qlinear);

}  // namespace oinfer::quant
