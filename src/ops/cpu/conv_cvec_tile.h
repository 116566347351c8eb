// The channel-vector conv's tile (conv_cvec.cpp drives it; the method is
// described there): R <= kMaxPix output pixels of a row times 32 output
// channels, accumulated over CK steps (input channel, kh, kw) and finished
// by an epilogue (bias, residual, activation) that stores NCHW planes or
// NCHW16c lines. Internal to the cpu layer. The measurements behind the
// constants are in tools/bench/TUNING.md (Conv, channel-vector kernel).
#pragma once

#include <cstdint>

#include "ops/cpu/gemm/sgemm.h"

namespace oinfer::conv::cvec {

constexpr int kLanes = 32;  // output channels per panel: two zmm
// Output pixels per tile: 28 accumulators, 31 of the 32 zmm with the two
// weight vectors and a broadcast (12 split 13- and 14-wide rows in two).
constexpr int kMaxPix = 14;
// K blocking: a unit of two or more tiles runs them over one block of this
// many steps (16 KiB of a panel's weights, kept in L1) at a time, their
// accumulators parked in the thread's workspace part between blocks.
constexpr int64_t kBlockSteps = 128;
// Input lines a tile reads this many steps later are prefetched into L1:
// inside a model half of a layer's input sits in the other core's L2.
constexpr int64_t kInputAhead = 32;
// Weights-major layers: about this many weight groups per thread, claimed
// dynamically (4 left a thread waiting up to a quarter of its share).
constexpr int64_t kUnitsPerThread = 8;

// Blocks of K for a unit of `tiles` tiles over CK steps (1: not blocked).
inline int64_t kBlocks(int64_t tiles, int64_t CK) {
  return tiles >= 2 && CK > 2 * kBlockSteps ? (CK + kBlockSteps - 1) / kBlockSteps : 1;
}

// Where a finished tile goes: channel j of the panel, pixel r of the tile is
// y[j * ldy + r] (residual res[j * ldy + r] likewise).
struct TileOut {
  float* y;
  const float* res;
  const float* bias;  // the panel's first channel, or null
  int64_t ldy;
  int64_t blk = 0;  // blocked Y: floats from one block of 16 channels to the next
  int chans;
  bool clamp;
  float lo, hi;
  GemmActivation act;  // other than Relu / Clip (those are the clamp)
  float p0, p1;
  // Weights a later tile reads, prefetched into L2 while this one computes
  // (null: none): one line pfStride bytes apart a step from pf.
  const char* pf = nullptr;
  int64_t pfStride = 0;
  bool rotatePf = false;  // blocked 1x1 input: prefetch pixel k % R of the step ahead (see the tile)
  // K blocked (see convCvec): the tile's accumulators between blocks of
  // steps, R x 32 floats. Loaded first unless this is the first block;
  // stored instead of the epilogue unless this is the last.
  float* part = nullptr;
  bool firstBlock = true, lastBlock = true;
};

// One tile of R pixels over CK steps: in + taps[k] + r * S is the input
// value pixel r reads at step k (S: the input's pixel stride in floats, 1 or
// 2 in NCHW, 16 or 32 blocked; taps padded by kInputAhead for the
// prefetch), w the panel's CK x 32 weights. outBlocked: o.y is NCHW16c.
// AVX-512 only (chosen by conv_select); a no-op elsewhere.
void runTile(int S, bool outBlocked, int R, int64_t CK, const float* in, const int64_t* taps, const float* w,
             const TileOut& o);

}  // namespace oinfer::conv::cvec
