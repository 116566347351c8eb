// The one place the CPU Conv family chooses its algorithm.
//
// Every algorithm the CPU conv code runs is named in ConvAlgorithm; chooseConv
// picks one from the geometry, the fused attributes (activation, residual),
// whether the weights are constant (packed or transformed at plan time), the
// layout (NCHW or blocked NCHW16c) and the CPU's features, and says which
// ISA it runs on. Conv, FusedConv, FusedConvMaxPool and FusedConvDepthwise
// make the choice when they are made (static shapes) or per call, and run
// what it says; their Kernel::algorithm() reports it ("winograd-f4x4
// avx512"). The kernels keep the checks of what they can hold (buffers,
// offsets: the *Fit functions beside them); what is faster where is decided
// here, each threshold a named constant with its reason. The measurements
// behind the thresholds are in tools/bench/TUNING.md.
#pragma once

#include <string>

#include "ops/cpu/conv_common.h"
#include "ops/cpu/cpu_features.h"
#include "ops/cpu/gemm/sgemm.h"
#include "ops/cpu/kernel_isa.h"

namespace oinfer::pool {
struct PoolGeom;
}

namespace oinfer::conv {

enum class ConvAlgorithm {
  kNone,                  // nothing applies (a blocked layout no kernel takes)
  kGemm1x1InPlace,        // 1x1 stride 1 unpadded: the micro-kernel reads the input planes in place
  kGemm1x1,               // 1x1 stride 1 unpadded: the input as the GEMM's B, packed block by block
  kIm2colGemm,            // im2col gathered into packed panels, then the packed GEMM
  kShiftedGemm,           // 2-d, one stride: B rows read from a padded polyphase copy at per-tap offsets
  kWinogradF2,            // Winograd F(2x2, 3x3), weights transformed at plan time
  kWinogradF4,            // Winograd F(4x4, 3x3), weights transformed at plan time
  kChannelVec,            // output channels in the lanes (conv_cvec.cpp)
  kPixelVec,              // output pixels in the lanes over <= 4 input channels (conv_pixvec.cpp)
  kDepthwiseSmallPlanes,  // depthwise, 16 small planes at a time through register transposes
  kDepthwise3x3Rows,      // depthwise 3x3 stride 1, straight from the input rows
  kDepthwisePlanes,       // depthwise, whole planes on a zero-padded polyphase copy
  kDepthwiseRows,         // depthwise, the register-accumulating row kernel
  kDepthwiseLoop,         // depthwise, the portable loop
  kDepthwiseBlocked,      // depthwise on NCHW16c, one load per tap
  kReferenceGemm1x1,      // other dtypes (float64): Eigen GEMM over the input
  kReferenceIm2col,       // other dtypes: im2col tiles and an Eigen GEMM
  kReferenceDepthwise,    // other dtypes: the depthwise loop
  kConvMaxPool,           // FusedConvMaxPool: pixel-vector rows pooled from a per-thread band
  kExpandDepthwise,       // FusedConvDepthwise: 1x1 expand bands fed to the depthwise plane kernels
};

const char* algorithmName(ConvAlgorithm a);

// What chooseConv decides from.
struct ConvQuery {
  ConvGeom g;
  bool float32 = true;  // float32 data (float16 / bfloat16 run through it); else the reference path
  GemmActivation act = GemmActivation::kNone;  // FusedConv's activation
  bool residual = false;                       // FusedConv's residual input Z
  // Weights constant and this geometry known at plan time: they may be
  // transformed then (Winograd, the tile kernels' panels).
  bool constWeights = false;
  bool inBlocked = false, outBlocked = false;  // X / Y (and Z) in NCHW16c
};

struct ConvChoice {
  ConvAlgorithm algo = ConvAlgorithm::kNone;
  cpu::KernelIsa isa = cpu::KernelIsa::kPortable;
  // FusedConvDepthwise: the depthwise plane kernel the fused kernel runs its
  // bands on, or (fallback) the depthwise Conv's own choice.
  ConvAlgorithm second = ConvAlgorithm::kNone;
  cpu::KernelIsa secondIsa = cpu::KernelIsa::kPortable;
  // A fused node whose kernel does not apply: its Convs (`algo`, and
  // `second` for FusedConvDepthwise) run apart through a buffer.
  bool fallback = false;
  std::string name() const;  // "winograd-f4x4 avx512", for Kernel::algorithm
};

ConvChoice chooseConv(const ConvQuery& q, const cpu::CpuFeatures& f = cpu::cpuFeatures());

// Which of X (in) and Y (out) a Conv can take blocked (NCHW16c) where the
// layout pass asks (constant weights, static shapes, float32): the blocked
// depthwise kernel for groups (both tied), Winograd and the channel-vector
// kernel for one group.
struct ConvBlocked {
  bool in = false, out = false;
  bool planned = false;  // one group: the plan's kernel has a blocked form (Winograd, channel-vector)
};
ConvBlocked convBlockedLayouts(const ConvGeom& g, GemmActivation act, const cpu::CpuFeatures& f = cpu::cpuFeatures());

// FusedConvMaxPool: the fused kernel (kConvMaxPool) where it applies
// (constant weights, AVX-512, the pixel-vector conv's shapes, a stride-2
// pool), else the Conv's choice (fallback) then the MaxPool.
ConvChoice chooseConvMaxPool(const ConvGeom& cg, const pool::PoolGeom& pg, GemmActivation act, bool constWeights,
                             const cpu::CpuFeatures& f = cpu::cpuFeatures());
// FusedConvDepthwise: the fused kernel (algo kExpandDepthwise, second the
// depthwise plane kernel it runs the bands on) where it applies, else both
// Convs' choices (fallback).
ConvChoice chooseExpandDepthwise(const ConvGeom& ga, const ConvGeom& gb, GemmActivation expandAct,
                                 GemmActivation dwAct, const cpu::CpuFeatures& f = cpu::cpuFeatures());

// The parts of the choice the kernels, the benchmark and tests ask on their
// own (f: the CPU to choose for; the kernels run on cpuFeatures()).
namespace choose {
bool winogradSuits(const ConvGeom& g, const cpu::CpuFeatures& f = cpu::cpuFeatures());
// 4 (F(4x4, 3x3)) or 2 (F(2x2, 3x3)) where winogradSuits holds.
int winogradOutputTile(const ConvGeom& g, const cpu::CpuFeatures& f = cpu::cpuFeatures());
bool shiftedSuits(const ConvGeom& g);
bool pointwiseDirectSuits(const ConvGeom& g, const cpu::CpuFeatures& f = cpu::cpuFeatures());
// The channel-vector kernel can run g (and fill its lanes) / is faster than the GEMMs.
bool cvecSuits(const ConvGeom& g, const cpu::CpuFeatures& f = cpu::cpuFeatures());
bool cvecPreferred(const ConvGeom& g, const cpu::CpuFeatures& f = cpu::cpuFeatures());
bool cvecBlockedSuits(const ConvGeom& g, bool in, bool out, const cpu::CpuFeatures& f = cpu::cpuFeatures());
bool pixvecPreferred(const ConvGeom& g, const cpu::CpuFeatures& f = cpu::cpuFeatures());
bool winogradBlockedSuits(const ConvGeom& g, bool in, bool out, const cpu::CpuFeatures& f = cpu::cpuFeatures());
bool depthwiseBlockedSuits(const ConvGeom& g, GemmActivation act, const cpu::CpuFeatures& f = cpu::cpuFeatures());
}  // namespace choose

}  // namespace oinfer::conv
