// Graph passes: rewrites of a sorted ir::Graph that keep its outputs equal
// within tolerance. Each is optional (SessionOptions::optimizationLevel) and
// is tested by running models with it on and off.
//
// Every pass has the same form, int pass(ir::Graph&, const PassContext&),
// and returns how many rewrites it made. A pass never touches the graph's
// derived states: the pipeline (pipeline.h) invalidates the order and the
// types after a pass that made a change and re-sorts, and a pass that reads
// inferred types asks PassContext::ensureShapes first.
#pragma once

#include "graph/ir.h"

namespace oinfer {
class Registry;
}

namespace oinfer::passes {

struct PassContext {
  // Shape functions and kernels (constant folding evaluates nodes).
  const Registry& registry;
  // The CPU plan keeps eligible tensors in the blocked layout NCHW16c (the
  // session decides from its options and the CPU): fuseConvDepthwise leaves
  // a pair apart where the layout takes the expanded tensor.
  bool blockedLayout = false;

  // Runs shape inference when the graph's types are stale. False when it
  // fails: the pass then leaves the graph as it is and the session's own
  // inference reports the error.
  bool ensureShapes(ir::Graph& g) const;
};

// QDQ groups -> integer ops (fuse_qdq.cpp): DQ(x) + DQ(W const) [+ bias] ->
// Conv / MatMul / Gemm [-> Relu / Clip when exact] -> Q becomes QLinearConv /
// QLinearMatMul on the int8 weights, and DQ -> data-movement op -> Q of equal
// parameters becomes the op on the quantized data. Runs before foldConstants
// (which would fold DQ(W) into float32 weights). Returns the number of
// rewrites.
int fuseQdq(ir::Graph& g, const PassContext& ctx);

// Replaces each node whose outputs shape inference can compute (at most 4096
// elements in all, not a graph output, no subgraph) by initializers, then
// drops the nodes left with no reader, so the fusions see constants and
// single readers. Returns the number of nodes folded.
int foldConstants(ir::Graph& g, const PassContext& ctx);

// Folds an inference-mode BatchNormalization into the Conv that feeds it, when
// the Conv's weights (and bias) and the BN parameters are float32 initializers
// and the Conv output has no other reader:
//   s = scale / sqrt(var + eps);  W'[o] = W[o] * s[o];  B'[o] = (B[o] - mean[o]) * s[o] + bias[o]
// Returns the number of BatchNormalization nodes removed.
int foldConvBatchNorm(ir::Graph& g, const PassContext& ctx);

// Conv [+ Add residual of the same shape] [+ Relu/Clip/LeakyRelu/Sigmoid/
// HardSigmoid/HardSwish/Tanh/Gelu/SiLU] -> one ai.oinfer FusedConv
// (fuse_conv_activation.cpp). Returns the number of fused nodes.
int fuseConvActivation(ir::Graph& g, const PassContext& ctx);

// Image stem [Fused]Conv (<= 4 input channels) -> MaxPool 2x2 / 3x3 stride 2
// (SqueezeNet, ResNet) -> one ai.oinfer FusedConvMaxPool
// (fuse_conv_maxpool.cpp); run after fuseConvActivation, CPU sessions only.
// Returns the number of fused pairs.
int fuseConvMaxPool(ir::Graph& g, const PassContext& ctx);

// 1x1 [Fused]Conv -> depthwise [Fused]Conv (MobileNet / EfficientNet block
// heads, planes of 28 x 28 and up) -> one ai.oinfer FusedConvDepthwise
// (fuse_conv_depthwise.cpp); run after fuseConvActivation, CPU sessions
// only (the op has no CUDA kernel). With ctx.blockedLayout a pair whose
// expanded tensor the layout takes (16k channels) is left apart. Returns the
// number of fused pairs.
int fuseConvDepthwise(ir::Graph& g, const PassContext& ctx);

// Reorders the nodes (a topological order still) so that among the nodes
// ready to run the one freeing the most activation bytes net of what it
// allocates goes first; kept only when the peak of live bytes (static dims,
// symbolic ones counted as 1) drops (memory_order.cpp). Returns the number
// of nodes that moved.
int orderForMemory(ir::Graph& g, const PassContext& ctx);

// Transformer passes (fuse_*.cpp, eliminate_transpose.cpp); each returns the
// number of rewrites. Internal ops go to domain "ai.oinfer". They read the
// types inferred once before the first of them (transformerGroup).
int eliminateRedundantNodes(ir::Graph& g, const PassContext& ctx);  // Identity, Transpose∘Transpose, Reshape∘Reshape
int fuseLayerNorm(ir::Graph& g, const PassContext& ctx);            // LayerNorm pattern / native -> LayerNorm(+skip)
int fuseGelu(ir::Graph& g, const PassContext& ctx);                 // erf Gelu pattern -> Gelu
int fuseMatMul(ir::Graph& g, const PassContext& ctx);               // MatMul(x, W) + bias + Gelu/Relu | residual -> FusedMatMul
int fuseAttention(ir::Graph& g, const PassContext& ctx);            // MatMul, scale, mask, Softmax, MatMul -> FusedAttention
int fuseQkvProjections(ir::Graph& g, const PassContext& ctx);       // after fuseMatMul: Q, K, V of one input -> one FusedMatMul

// The transformer passes as one step of the pipeline: types inferred once,
// then eliminateRedundantNodes, fuseGelu, fuseLayerNorm, fuseAttention,
// fuseMatMul, fuseQkvProjections, and the shape chains the fusions left
// without a reader dropped. transformerGroupDevice: the same without
// fuseAttention and fuseQkvProjections (FusedAttention has no CUDA kernel
// and would pin each attention block to the host).
int transformerGroup(ir::Graph& g, const PassContext& ctx);
int transformerGroupDevice(ir::Graph& g, const PassContext& ctx);

// Half precision (SessionOptions::fp16, fp16.cpp): float32 initializers,
// Constant / ConstantOfShape values and Cast(to=float) become float16; a Cast
// to float16 follows each float32 graph input and a Cast back to float32
// precedes each float32 graph output, so callers still feed and read
// float32. Inputs the ONNX spec keeps in float32 (Resize/Upsample scales and
// roi, quantization scales) are left as they are. Graphs with subgraphs are
// left in float32 (returns 0, with a warning).
int convertToFloat16(ir::Graph& g, const PassContext& ctx);

}  // namespace oinfer::passes
