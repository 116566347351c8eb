// The float32 Conv path on the packed GEMM (src/ops/cpu/gemm): weights packed
// once per plan, im2col gathered straight into the GEMM's packed B layout,
// bias / residual / activation fused into the GEMM epilogue, and a direct
// depthwise kernel with the same epilogue.
#pragma once

#include <string>
#include <vector>

#include "ops/cpu/conv_common.h"
#include "ops/cpu/conv_select.h"
#include "ops/cpu/gemm/sgemm.h"

namespace oinfer::conv {

// The activation part of a fused Conv (bias and residual are per call).
struct Activation {
  GemmActivation act = GemmActivation::kNone;
  float p0 = 0.f, p1 = 0.f;
};

// An activation split the way the tile epilogues apply it: Relu / Clip as
// a clamp to [lo, hi], any other left in `rest` (applied after the clamp).
struct ClampSplit {
  bool clamp = false;
  float lo = 0.f, hi = 0.f;
  GemmActivation rest = GemmActivation::kNone;
};
ClampSplit splitClamp(const Activation& act);

// One PackedA per group: W[g] as the Mg x Cg*K left operand.
std::vector<PackedA> packConvWeights(const ConvGeom& g, const float* w);

// Scratch: each algorithm below takes a Workspace (ops/cpu/workspace.h)
// last and has a function giving what it needs for a geometry (on a pool
// of `threads`), which the kernels request when they are made; given none
// or too little (a shape known only at run time, a direct caller such as a
// test) it allocates for the call.

// y = act(conv(x, w) + b + z) by algorithm `algo` (chooseConv's: a GEMM
// strategy or an NCHW depthwise kernel). `packed` may be empty (packs per
// call); b and z may be null; z has y's shape.
ScratchNeed convFloatScratch(const ConvGeom& g, ConvAlgorithm algo, int threads);
void convFloat(ThreadPool& pool, const ConvGeom& g, ConvAlgorithm algo, const float* x, const float* w,
               const std::vector<PackedA>& packed, const float* b, const float* z, float* y, const Activation& act,
               const Workspace& ws = {});

// Winograd F(2x2, 3x3) or F(4x4, 3x3) (conv_winograd.cpp): for 2-d 3x3
// stride-1 convs with enough channels and output tiles; chosen at plan time
// for constant weights, which packWinogradWeights transforms and packs (one
// PackedB per transformed-tile position: 16, or 36 for F(4x4)). X and Y may
// be blocked (NCHW16c) where choose::winogradBlockedSuits says so (AVX-512;
// 16 | C for X, 16 | M for Y; a residual z has Y's layout).
// tile: 2 or 4, the F(m x m, 3x3) the weights are transformed for (chooseConv's).
std::vector<PackedB> packWinogradWeights(const ConvGeom& g, const float* w, int tile);
ScratchNeed winogradScratch(const ConvGeom& g, int tile);
void convWinograd(ThreadPool& pool, const ConvGeom& g, const float* x, const std::vector<PackedB>& U, const float* b,
                  const float* z, float* y, const Activation& act, bool inBlocked = false, bool outBlocked = false,
                  const Workspace& ws = {});

// The shifted-input GEMM (conv_shifted.cpp) for 2-d convs with one stride
// both ways, not 1x1: B read straight from zero-padded polyphase
// copies of the input, no im2col.
// Needs the packed weights (packConvWeights).
ScratchNeed shiftedScratch(const ConvGeom& g);
void convShifted(ThreadPool& pool, const ConvGeom& g, const std::vector<PackedA>& packed, const float* x,
                 const float* b, const float* z, float* y, const Activation& act, const Workspace& ws = {});

// Pointwise (1x1, stride 1, unpadded) convs with few output channels per
// group: the micro-kernel reads B straight from the input's channel planes
// (conv_shifted.cpp), since packing the input would cost as much as the GEMM.
ScratchNeed pointwiseDirectScratch(const ConvGeom& g);
void convPointwiseDirect(ThreadPool& pool, const ConvGeom& g, const std::vector<PackedA>& packed, const float* x,
                         const float* b, const float* z, float* y, const Activation& act, const Workspace& ws = {});

// Output channels in the vector lanes (conv_cvec.cpp, AVX-512): for 2-d
// convs with a horizontal stride of 1 or 2 and enough output channels per
// group; tiles of up to 14 output pixels of a row times 32 channels, the
// input read in place (or from a zero-padded copy). Weights packed by
// packCvecWeights (per group: ceil(Mg / 32) panels of Cg*K x 32). Where it
// runs: choose::cvecSuits / cvecPreferred; x (in) / y (out) blocked
// (NCHW16c) where choose::cvecBlockedSuits (one group, stride 1 or 2 both
// ways, 16 | Cg for x, 16 | Mg for y; a residual z has y's layout).
std::vector<PackedB> packCvecWeights(const ConvGeom& g, const float* w);
ScratchNeed cvecScratch(const ConvGeom& g, bool inBlocked, int threads);
void convCvec(ThreadPool& pool, const ConvGeom& g, const std::vector<PackedB>& packed, const float* x,
              const float* b, const float* z, float* y, const Activation& act, bool inBlocked = false,
              bool outBlocked = false, const Workspace& ws = {});
// The same kernel as a GEMM on the calling thread, for Winograd's
// transformed tiles: O (rows x N) = A (rows x K) * B with A and O blocked by
// 16 columns (row r's columns 16b..16b+15 at (b * rows + r) * 16), 16 | K;
// B packed as packCvecWeights packs a 1x1 conv's (K x 32 panels, zero past
// N); taps[k] = (k / 16) * rows * 16 + k % 16 for k < K, then
// kCvecTapsPad zeros (read by the prefetch). Panels [p0, p1) of O; no
// bias, no activation. `next` (or null): the K x 32 panel the caller runs
// next, prefetched into L2 meanwhile. AVX-512.
constexpr int64_t kCvecTapsPad = 32;
void cvecGemmBlocked(const float* A, int64_t rows, int64_t K, const int64_t* taps, const float* B, int64_t N,
                     float* O, int64_t p0, int64_t p1, const float* next = nullptr);

// Output pixels in the vector lanes over few input channels (conv_pixvec.cpp,
// AVX-512): the image stems (<= 4 input channels, one group, stride 1 or 2
// both ways, no dilation); tiles of 8 output channels x 48 pixels of a row,
// the input from a zero-padded copy split into column phases. Weights packed
// by packPixvecWeights ([block of 8 channels][C * taps][8]). Chosen wherever
// choose::pixvecPreferred holds and the weights are constant.
std::vector<PackedB> packPixvecWeights(const ConvGeom& g, const float* w);
ScratchNeed pixvecScratch(const ConvGeom& g);
void convPixvec(ThreadPool& pool, const ConvGeom& g, const std::vector<PackedB>& packed, const float* x,
                const float* b, const float* z, float* y, const Activation& act, const Workspace& ws = {});
// The same in steps, for callers that use its rows as they come
// (FusedConvMaxPool): the phase copy of one image (by all threads, into the
// caller's scratch), then output rows [oh0, oh1) of one block of 8 channels
// (mb < pixvecBlocks(g)) into out: channel j's row oh at out + j * ldOut +
// (oh - oh0) * OW (z, the residual, likewise; or null).
// What every call of pixvecRows for one conv shares, made once per call of
// the conv (pixvecPrepare; an Error for a Gelu activation).
constexpr int64_t kPixvecMaxSteps = 256;  // C * taps: the stems have 27 and 147
struct PixvecPrep {
  int64_t taps[kPixvecMaxSteps];  // per step: its phase row's offset from the output row's
  ClampSplit cs;
  float p0 = 0.f, p1 = 0.f;
};
void pixvecPrepare(const ConvGeom& g, const Activation& act, PixvecPrep& prep);
int64_t pixvecBlocks(const ConvGeom& g);
// `phases`: pixvecScratch(g).shared bytes (the call's shared part).
const float* pixvecPhases(ThreadPool& pool, const ConvGeom& g, const float* xn, float* phases);
void pixvecRows(const ConvGeom& g, const std::vector<PackedB>& packed, const PixvecPrep& prep, const float* phases,
                int64_t oh0, int64_t oh1, int64_t mb, const float* b, const float* z, float* out, int64_t ldOut);

// The AVX-512 depthwise kernels (conv_depthwise.cpp; callers check the CPU):
// one output row from row pointers (null: a padding row); whole planes
// [p0, p1) on a zero-padded copy (planes of y, and of the residual z, ldy
// floats apart) where depthwisePlanesFit; 16 small planes at a time.
bool depthwiseRow512(const float* const* xrows, const float* w, int KH, int KW, int stride, int64_t padW, int64_t W,
                     int64_t OW, float bias, float* y);
bool depthwisePlanesFit(const ConvGeom& g);
// One input row (W values) zero-padded: padded column j is row[j - padL]
// inside the row, 0 outside. padRow512 writes columns [0, len) to dst;
// padRowPhases512 splits columns [0, 2n) by parity, even[j] = column 2j,
// odd[j] = column 2j + 1 (the stride-2 phases).
void padRow512(const float* row, int64_t W, int64_t padL, int64_t len, float* dst);
void padRowPhases512(const float* row, int64_t W, int64_t padL, int64_t n, float* even, float* odd);
void depthwisePlanes512(const ConvGeom& g, const float* x, const float* w, const float* b, const float* z, float* y,
                        int64_t ldy, int64_t p0, int64_t p1, bool clamp, float lo, float hi, const GemmEpilogue& post);
// The same for 3x3 stride 1 without dilation, straight from the input rows
// (no padded copy) where depthwise3x3RowsFit.
void depthwise3x3Rows512(const ConvGeom& g, const float* x, const float* w, const float* b, const float* z, float* y,
                         int64_t ldy, int64_t p0, int64_t p1, bool clamp, float lo, float hi, const GemmEpilogue& post);
bool depthwiseBlocksFit(const ConvGeom& g);
// What the kernels can hold (conv_select.cpp chooses among them): the 3x3
// stride-1 row kernel (output rows of up to 1024); the pixel-vector kernel
// (2-d, one group, stride 1 or 2 both ways, no dilation, <= 4 input
// channels, <= kPixvecMaxSteps steps, rows its phase copy holds); Winograd's
// AVX-512 path (planes its int32 offsets reach); the blocked depthwise kernel
// (16 | M, a band of one row in its buffer); the fused expand + depthwise
// kernel (shapes it takes, a band of one row in its buffer).
bool depthwise3x3RowsFit(const ConvGeom& g);
bool pixvecFits(const ConvGeom& g);
bool winogradOffsetsFit(const ConvGeom& g);
bool depthwiseBlockedFits(const ConvGeom& g);
bool expandDepthwiseFits(const ConvGeom& ga, const ConvGeom& gb);
void depthwiseBlocks512(const ConvGeom& g, const float* x, const float* w, const float* b, float* y, int64_t blk0,
                        int64_t blk1, bool clamp, float lo, float hi, GemmActivation act, float p0, float p1);

// The depthwise Conv (one channel per group) on the blocked layout NCHW16c
// (X, Y and a residual z; AVX-512, 16 | M, any window, stride and
// dilation; not Gelu): each tap one aligned load and multiply-add on 16
// channels. Weights packed by packDepthwiseBlocked ([block of 16][tap][16]).
// Where: choose::depthwiseBlockedSuits.
std::shared_ptr<float[]> packDepthwiseBlocked(const ConvGeom& g, const float* w);
void depthwiseBlocked(ThreadPool& pool, const ConvGeom& g, const float* x, const float* wt, const float* b,
                      const float* z, float* y, const Activation& act);

// A 1x1 expand Conv (ga: stride 1, unpadded, one group) and the depthwise
// Conv reading its output (gb), in one pass (conv_expand_dw.cpp, AVX-512):
// the expanded tensor only exists a band of rows at a time in per-thread
// buffers. Takes (expandDepthwiseFits): 2-d, depthwise multiplier 1,
// stride 1 or 2 both ways, no dilation; chosen (chooseExpandDepthwise) on
// AVX-512 with an expand activation other than Gelu.
ScratchNeed expandDepthwiseScratch();
// rows3x3: the bands run on depthwise3x3Rows512, else depthwisePlanes512
// (chooseExpandDepthwise's `second`).
void convExpandDepthwise(ThreadPool& pool, const ConvGeom& ga, const ConvGeom& gb, const float* x, const float* w1,
                         const float* b1, const Activation& act1, const float* w2, const float* b2,
                         const Activation& act2, float* y, bool rows3x3, const Workspace& ws = {});

// Parses a FusedConv's activation / activation_params attributes (with a
// prefix: <prefix>activation, <prefix>activation_params).
Activation parseActivation(const Node& node, const std::string& prefix = "");

}  // namespace oinfer::conv
