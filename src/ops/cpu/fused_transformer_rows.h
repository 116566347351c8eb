// Row kernels shared by the transformer ops: softmax over a contiguous row,
// layer normalisation of a row, and exact (erf) Gelu over a span. They run
// on Eigen's packet math (exp and erf are vectorised rational/polynomial
// forms accurate to a few ulp), so they take the widest SIMD the build has;
// the softmax has its own AVX-512 pass where the CPU has it (one pass for
// scale, mask and max), Eigen keeping rows with NaN or an infinite max.
#pragma once

#include <cstdint>

namespace oinfer::cpu {

// y[i] = exp(x[i] - max) / sum; x and y may be the same row.
void softmaxRow(const float* x, float* y, int64_t n);
// Adds mask (nullptr: none) and scales by `scale` before the softmax.
void scaledMaskedSoftmaxRow(const float* x, const float* mask, float scale, float* y, int64_t n);
// The same on `rows` rows of n (x and y rows n apart, mask rows ldMask apart:
// 0 repeats one mask row), several at a time where AVX-512 allows.
void scaledMaskedSoftmaxRows(const float* x, const float* mask, int64_t ldMask, float scale, float* y, int64_t rows,
                             int64_t n);
// y = (x - mean) / sqrt(var + eps) * gamma + beta (beta may be nullptr).
void layerNormRow(const float* x, const float* gamma, const float* beta, float eps, float* y, int64_t n);
// y = 0.5 x (1 + erf(x / sqrt 2)); in place allowed.
void geluSpan(const float* x, float* y, int64_t n);

}  // namespace oinfer::cpu
