// Graph passes: rewrites of a sorted Graph that keep its outputs equal within
// tolerance. Each is optional (SessionOptions::optimizationLevel) and is
// tested by running models with it on and off.
#pragma once

#include "oinfer/graph.h"

namespace oinfer::passes {

// Replaces each node whose outputs shape inference can compute (at most 4096
// elements in all, not a graph output, no subgraph) by initializers, then
// drops the nodes left with no reader, so the fusions see constants and
// single readers. Returns the number of nodes folded. Defined in
// src/ops/fold_constants.cpp (it evaluates nodes), as Graph::inferShapes is.
int foldConstants(Graph& g);

// Folds an inference-mode BatchNormalization into the Conv that feeds it, when
// the Conv's weights (and bias) and the BN parameters are float32 initializers
// and the Conv output has no other reader:
//   s = scale / sqrt(var + eps);  W'[o] = W[o] * s[o];  B'[o] = (B[o] - mean[o]) * s[o] + bias[o]
// Returns the number of BatchNormalization nodes removed.
int foldConvBatchNorm(Graph& g);

// Conv [+ Add residual of the same shape] [+ Relu/Clip/LeakyRelu/Sigmoid/
// HardSigmoid/HardSwish/Tanh/Gelu/SiLU] -> one ai.oinfer FusedConv
// (fuse_conv_activation.cpp). Returns the number of fused nodes.
int fuseConvActivation(Graph& g);

// Image stem [Fused]Conv (<= 4 input channels) -> MaxPool 2x2 / 3x3 stride 2
// (SqueezeNet, ResNet) -> one ai.oinfer FusedConvMaxPool
// (fuse_conv_maxpool.cpp); run after fuseConvActivation, CPU sessions only.
// Returns the number of fused pairs.
int fuseConvMaxPool(Graph& g);

// 1x1 [Fused]Conv -> depthwise [Fused]Conv (MobileNet / EfficientNet block
// heads, planes of 28 x 28 and up) -> one ai.oinfer FusedConvDepthwise
// (fuse_conv_depthwise.cpp); run after fuseConvActivation, CPU sessions
// only (the op has no CUDA kernel). blockedLayout: the session's plan keeps
// eligible tensors in NCHW16c (SessionOptions::blockedLayout on a CPU whose
// kernels take it: the session decides); then a pair whose expanded tensor
// the layout takes (16k channels) is left apart. Returns the number of fused
// pairs.
int fuseConvDepthwise(Graph& g, bool blockedLayout = false);

// Transformer passes (fuse_*.cpp, eliminate_transpose.cpp); each returns the
// number of rewrites. Internal ops go to domain "ai.oinfer".
int eliminateRedundantNodes(Graph& g);  // Identity, Transpose∘Transpose, Reshape∘Reshape
int fuseLayerNorm(Graph& g);            // LayerNorm pattern / native -> LayerNorm(+skip)
int fuseGelu(Graph& g);                 // erf Gelu pattern -> Gelu
int fuseMatMul(Graph& g);               // MatMul(x, W) + bias + Gelu/Relu | residual -> FusedMatMul
int fuseAttention(Graph& g);            // MatMul, scale, mask, Softmax, MatMul -> FusedAttention
int fuseQkvProjections(Graph& g);       // after fuseMatMul: Q, K, V projections of one input -> one FusedMatMul
// All of the above in order (shape inference first, re-sorted after).
void optimizeTransformer(Graph& g);

// Runs every pass of `level` (0: none; 1: all of the above);
// blockedLayout as fuseConvDepthwise takes it.
void optimize(Graph& g, int level, bool blockedLayout = false);

}  // namespace oinfer::passes
