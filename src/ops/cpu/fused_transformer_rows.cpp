#include <Eigen/Core>
#include <unsupported/Eigen/SpecialFunctions>
#include <algorithm>

#include "ops/cpu/fused_transformer_rows.h"

namespace oinfer::cpu {

namespace {
using ConstRow = Eigen::Map<const Eigen::ArrayXf>;
using Row = Eigen::Map<Eigen::ArrayXf>;
}  // namespace

void softmaxRow(const float* x, float* y, int64_t n) {
  if (n <= 0) return;
  ConstRow in(x, n);
  Row out(y, n);
  const float mx = in.maxCoeff();
  out = (in - mx).exp();
  out *= 1.f / out.sum();
}

void scaledMaskedSoftmaxRow(const float* x, const float* mask, float scale, float* y, int64_t n) {
  if (n <= 0) return;
  Row out(y, n);
  if (mask)
    out = ConstRow(x, n) * scale + ConstRow(mask, n);
  else
    out = ConstRow(x, n) * scale;
  const float mx = out.maxCoeff();
  // A row masked entirely with -inf has max -inf: every term would be NaN, as in
  // the unfused graph, so keep that behaviour rather than inventing zeros.
  out = (out - mx).exp();
  out *= 1.f / out.sum();
}

void layerNormRow(const float* x, const float* gamma, const float* beta, float eps, float* y, int64_t n) {
  if (n <= 0) return;
  ConstRow in(x, n);
  // Two passes (mean, then centred squares) keep the variance accurate when
  // |mean| >> std, as with un-normalised residual streams.
  const float mean = in.sum() / static_cast<float>(n);
  const float var = (in - mean).square().sum() / static_cast<float>(n);
  const float inv = 1.f / std::sqrt(var + eps);
  Row out(y, n);
  if (beta)
    out = (in - mean) * inv * ConstRow(gamma, n) + ConstRow(beta, n);
  else
    out = (in - mean) * inv * ConstRow(gamma, n);
}

void geluSpan(const float* x, float* y, int64_t n) {
  if (n <= 0) return;
  ConstRow in(x, n);
  Row out(y, n);
  out = 0.5f * in * (1.f + (in * 0.70710678118654752f).erf());
}

}  // namespace oinfer::cpu
