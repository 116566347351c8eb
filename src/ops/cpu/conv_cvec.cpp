// Float32 2-d Conv with the output channels in the vector lanes (AVX-512).
//
// The GEMM paths put output pixels in the lanes (Y = W * X, a row of Y is
// one channel's plane), so a plane whose rows are not a multiple of the
// lane count wastes lanes: a 7-wide row fills 7 of 16, and ResNet-50's
// 7x7 and 14x14 layers ran at 77-87% lane use before anything else. Here
// a tile is R <= 14 consecutive output pixels of one output row times 32
// output channels: per step k = (input channel, kh, kw), the kernel
// broadcasts the R input values the tile's pixels read under that tap
// (in[base + taps[k] + r * stride]: a zero-padded copy of the input, or
// the input itself when no window leaves it; for stride 2 both ways, a copy
// split into parity phases, read at stride 1) against two vectors of the
// weights (packed once per plan as CK x 32 per panel of 32 channels). Any
// row width splits into tiles with no padding, and the output channels of
// real networks are multiples of 32 or close. No im2col, no packed input:
// the 28 accumulators hold a whole tile (parked between blocks of K when a
// unit runs several tiles, see kBlockSteps), whose epilogue transposes it
// (pixel rows -> channel rows), adds the bias and the residual, applies the
// activation and stores runs of R pixels into each channel's plane of Y.
// Threads take units of (block of tiles, group of weight panels): see
// convCvec for how the larger of weights and input is streamed only once.
// GCC 12 flags the pass-through operand of min / max (_mm512_undefined_ps)
// (and the unpack / shuffle operands of transpose16) as uninitialised: a
// false positive.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <algorithm>
#include <cstring>

#include "ops/cpu/conv_cvec_tile.h"
#include "ops/cpu/conv_fast.h"
#include "ops/cpu/gemm/act512.h"
#include "ops/cpu/gemm/gemm_internal.h"

namespace oinfer::conv {

using namespace cvec;

std::vector<PackedB> packCvecWeights(const ConvGeom& g, const float* w) {
  const int64_t CK = g.Cg * g.K, panels = (g.Mg + kLanes - 1) / kLanes;
  std::vector<PackedB> out;
  out.reserve(g.G);
  for (int64_t grp = 0; grp < g.G; ++grp) {
    PackedB p;
    p.K = CK;
    p.N = g.Mg;
    p.nr = kLanes;
    p.kc = int(std::min<int64_t>(CK, INT32_MAX));
    p.data = allocFloats(size_t(panels * CK * kLanes));
    const float* wg = w + grp * g.Mg * CK;
    for (int64_t pi = 0; pi < panels; ++pi) {
      float* d = p.data.get() + pi * CK * kLanes;
      for (int64_t k = 0; k < CK; ++k)
        for (int j = 0; j < kLanes; ++j) {
          const int64_t m = pi * kLanes + j;
          d[k * kLanes + j] = m < g.Mg ? wg[m * CK + k] : 0.f;
        }
    }
    out.push_back(std::move(p));
  }
  return out;
}

// How convCvec splits a conv into units (see there); also sizes its
// workspace (cvecBufs).
struct CvecUnits {
  bool copy = false;
  // Stride 2 both ways: the copy is split into the four (row, column)
  // parity phases of the padded image, Hq x Wq each, so a tile's pixels are
  // contiguous in its phase (a stride-1 tile: one or two lines a step, not
  // two or three) and only the row phases some tap reads are filled (a 1x1
  // downsample copies half its input instead of reading all of it in place).
  bool phased = false;
  int64_t Hq = 0, Wq = 0;
  int64_t Hp = 0, Wp = 0, width = 0, perRow = 0, tiles = 0;
  int64_t panels = 0, panelBytes = 0, perGroup = 0, groups = 0, tileBlocks = 0, tilesPer = 0;
};

CvecUnits cvecUnits(const ConvGeom& g, int threads, bool inBlocked) {
  const int64_t sh = g.s[1], sw = g.s[2], OH = g.grid[1], OW = g.grid[2], H = g.img[1], W = g.img[2];
  const int64_t Cg = g.Cg, Mg = g.Mg, CK = Cg * g.K, P = g.gridSize;
  CvecUnits u;
  // The input as read: the image itself when every window lies inside it,
  // else a zero-padded copy of just the rows and columns the windows cover.
  u.phased = sh == 2 && sw == 2 && !inBlocked;
  u.copy = !g.noPadding || u.phased;
  u.Hp = u.copy ? windowSpan(g, 1) : H;
  u.Wp = u.copy ? windowSpan(g, 2) : W;
  u.Hq = (u.Hp + 1) / 2;
  u.Wq = (u.Wp + 1) / 2;
  // A 1x1 stride-1 conv reads its output's pixels in the same order: one
  // long row, so tiles run across the rows.
  const bool flat = !u.copy && g.K == 1 && sh == 1 && sw == 1;
  const int64_t rows = flat ? 1 : OH;
  u.width = flat ? P : OW;
  u.perRow = (u.width + kMaxPix - 1) / kMaxPix;
  u.tiles = rows * u.perRow;
  // Units: (block of tiles, group of panels); within a unit, tiles outer and
  // panels inner, so a tile's input lines (one or two per step) are read
  // from L1 by every panel of the group, and the group's weights (at most
  // ~1 MiB: L2) by every tile of the block (K blocked, see kBlockSteps:
  // panels, then blocks of steps, then tiles). Every tile block streams all the
  // weights and every panel group all the input, so the larger of the two is
  // the one split only once: weights larger than the input (layer 4 of
  // ResNet-50, classifier convs) give one tile block and about eight panel
  // groups per thread (2 MiB of weights in 16 tile blocks made SqueezeNet's
  // 512->1000 classifier stream 16 MiB); otherwise groups of ~1 MiB and
  // about eight units per thread over tile blocks.
  const int64_t panels = (Mg + kLanes - 1) / kLanes;
  const int64_t panelBytes = CK * kLanes * int64_t(sizeof(float));
  const int64_t inputBytes = Cg * (u.phased ? 4 * u.Hq * u.Wq : u.copy ? u.Hp * u.Wp : g.imgSize) * int64_t(sizeof(float));
  const bool weightsMajor = panels * panelBytes > inputBytes;
  // (Weights-major groups stay under 512 KiB: the next group is prefetched
  // while one runs, and both must fit L2 beside the input.)
  const int64_t perGroup =
      weightsMajor ? std::clamp<int64_t>(std::min<int64_t>(panels / (kUnitsPerThread * threads), (int64_t{512} << 10) / panelBytes),
                                         1, panels)
                   : std::clamp<int64_t>((int64_t{1} << 20) / panelBytes, 1, panels);
  const int64_t groups = (panels + perGroup - 1) / perGroup;
  const int64_t tileBlocks =
      weightsMajor && groups >= 2 * threads ? 1 : std::clamp<int64_t>((8 * threads + groups - 1) / groups, 1, u.tiles);
  u.panels = panels;
  u.panelBytes = panelBytes;
  u.perGroup = perGroup;
  u.groups = groups;
  u.tileBlocks = tileBlocks;
  u.tilesPer = (u.tiles + tileBlocks - 1) / tileBlocks;
  return u;
}

// convCvec's buffers: in the shared part the taps and the padded (or
// phased) copy of the input, which all threads fill; in each thread's part
// its K-blocked unit's accumulators. They follow from the units, so from
// the input's layout and the pool's size. A null base only counts.
struct CvecBufs {
  int64_t* taps = nullptr;
  float* padded = nullptr;
  size_t sharedBytes = 0, perThreadBytes = 0;
};
CvecBufs cvecBufs(const ConvGeom& g, const CvecUnits& u, void* shared) {
  CvecBufs b;
  Carve c(shared);
  b.taps = c.take<int64_t>(size_t(g.Cg * g.K + kInputAhead));
  if (u.copy) b.padded = c.take<float>(size_t(g.Cg * (u.phased ? 4 * u.Hq * u.Wq : u.Hp * u.Wp)));
  b.sharedBytes = c.bytes();
  Carve t;
  if (kBlocks(u.tilesPer, g.Cg * g.K) > 1) t.take<float>(size_t(u.tilesPer * kMaxPix * kLanes));
  b.perThreadBytes = t.bytes();
  return b;
}

ScratchNeed cvecScratch(const ConvGeom& g, bool inBlocked, int threads) {
  const CvecBufs b = cvecBufs(g, cvecUnits(g, threads, inBlocked), nullptr);
  return {b.sharedBytes, b.perThreadBytes};
}

void convCvec(ThreadPool& pool, const ConvGeom& g, const std::vector<PackedB>& packed, const float* x,
              const float* b, const float* z, float* y, const Activation& act, bool inBlocked, bool outBlocked,
              const Workspace& ws) {
  const int64_t KH = g.k[1], KW = g.k[2], dh = g.dil[1], dw = g.dil[2], sh = g.s[1], sw = g.s[2];
  const int64_t H = g.img[1], W = g.img[2];
  const int64_t padT = g.padBegin[1], padL = g.padBegin[2];
  const int64_t Cg = g.Cg, Mg = g.Mg, CK = Cg * g.K, P = g.gridSize;
  const CvecUnits U = cvecUnits(g, pool.size(), inBlocked);
  const bool copy = U.copy, phased = U.phased;
  const int64_t Hp = U.Hp, Wp = U.Wp, Hq = U.Hq, Wq = U.Wq;
  const int64_t plane = phased ? Hq * Wq : Hp * Wp;  // one phase's plane when phased
  const int64_t width = U.width, perRow = U.perRow, tiles = U.tiles;

  if ((inBlocked || outBlocked) && !choose::cvecBlockedSuits(g, inBlocked, outBlocked))
    throw Error(ErrorCode::kInternal, "convCvec: the blocked layout needs one group, 16 | channels and stride 1 or 2");
  const int64_t ps = inBlocked ? 16 : 1;  // floats from one input pixel to the next
  const CvecBufs need = cvecBufs(g, U, nullptr);
  const CallWorkspace call(ws, {need.sharedBytes, need.perThreadBytes}, pool.size());
  const Workspace& w = call.get();
  const CvecBufs bufs = cvecBufs(g, U, w.shared.part(0));
  int64_t* taps = bufs.taps;
  std::fill(taps + CK, taps + CK + kInputAhead, 0);  // read by the input prefetch past the last step
  bool rowPhase[2] = {false, false};
  for (int64_t c = 0, k = 0; c < Cg; ++c)
    for (int64_t kh = 0; kh < KH; ++kh)
      for (int64_t kw = 0; kw < KW; ++kw, ++k) {
        const int64_t r = kh * dh, q = kw * dw;
        rowPhase[r & 1] = true;
        taps[k] = phased      ? (c * 4 + (r & 1) * 2 + (q & 1)) * plane + (r >> 1) * Wq + (q >> 1)
                  : inBlocked ? ((c >> 4) * plane + r * Wp + q) * 16 + (c & 15)
                              : c * plane + r * Wp + q;
      }
  float* padded = bufs.padded;

  const ClampSplit cs = splitClamp(act);
  if (cs.rest == GemmActivation::kGelu) throw Error(ErrorCode::kInternal, "convCvec: Gelu is not applied in tiles");

  const int64_t panels = U.panels, panelBytes = U.panelBytes, perGroup = U.perGroup, groups = U.groups,
                tileBlocks = U.tileBlocks, tilesPer = U.tilesPer;

  for (int64_t n = 0; n < g.N; ++n)
    for (int64_t grp = 0; grp < g.G; ++grp) {
      const float* xg = x + (n * g.C + grp * Cg) * g.imgSize;
      const int64_t yoff = (n * g.M + grp * Mg) * P;
      const float* in = xg;
      if (phased) {
        pool.parallelFor(Cg, [&](int64_t c0, int64_t c1) {
          for (int64_t c = c0; c < c1; ++c)
            for (int64_t pr = 0; pr < 2; ++pr) {
              if (!rowPhase[pr]) continue;
              float* even = padded + (c * 4 + pr * 2) * plane;
              float* odd = even + plane;
              for (int64_t i = 0; i < Hq; ++i) {
                const int64_t ih = 2 * i + pr - padT;
                if (ih < 0 || ih >= H || 2 * i + pr >= Hp) {
                  std::memset(even + i * Wq, 0, Wq * sizeof(float));
                  std::memset(odd + i * Wq, 0, Wq * sizeof(float));
                } else {
                  padRowPhases512(xg + c * g.imgSize + ih * W, W, padL, Wq, even + i * Wq, odd + i * Wq);
                }
              }
            }
        }, std::max<int64_t>(1, 16384 / (4 * plane)));
        in = padded;
      } else if (copy && inBlocked) {
        // Blocked: a row of Wp pixels of 16 channels is a row of 16 x Wp
        // floats, padded as one. By rows (a 16->64 conv has one block of
        // channels to copy).
        pool.parallelFor(Cg / 16 * Hp, [&](int64_t r0, int64_t r1) {
          for (int64_t r = r0; r < r1; ++r) {
            const int64_t cb = r / Hp, i = r % Hp, ih = i - padT;
            float* d = padded + (cb * plane + i * Wp) * 16;
            if (ih < 0 || ih >= H) std::memset(d, 0, Wp * 16 * sizeof(float));
            else padRow512(xg + (cb * g.imgSize + ih * W) * 16, W * 16, padL * 16, Wp * 16, d);
          }
        }, std::max<int64_t>(1, 256 / Wp));
        in = padded;
      } else if (copy) {
        pool.parallelFor(Cg, [&](int64_t c0, int64_t c1) {
          for (int64_t c = c0; c < c1; ++c) {
            const float* src = xg + c * g.imgSize;
            float* dst = padded + c * plane;
            for (int64_t i = 0; i < Hp; ++i) {
              const int64_t ih = i - padT;
              if (ih < 0 || ih >= H) std::memset(dst + i * Wp, 0, Wp * sizeof(float));
              else padRow512(src + ih * W, W, padL, Wp, dst + i * Wp);
            }
          }
        }, std::max<int64_t>(1, 16384 / plane));
        in = padded;
      }
      const float* wbase = packed[grp].data.get();
      pool.parallelFor(tileBlocks * groups, [&](int64_t u0, int64_t u1) {
        for (int64_t u = u0; u < u1; ++u) {
          const int64_t tb = u / groups, pg = u % groups;
          const int64_t p0 = pg * perGroup, p1 = std::min(panels, p0 + perGroup);
          const int64_t t0 = tb * tilesPer, t1 = std::min(tiles, t0 + tilesPer);
          // While this unit runs, prefetch the next group's weights (the
          // unit this thread most likely takes next: it claims its own run of
          // units in order), a slice per tile. Large layers' weights come
          // from memory on their first use in a run, and one panel is
          // CK x 128 bytes (0.6 MiB for a 3x3 over 512 channels).
          const int64_t nextBytes = pg + 1 < groups ? (std::min(panels, p1 + perGroup) - p1) * panelBytes : 0;
          const int64_t blocks = kBlocks(t1 - t0, CK);
          const int64_t calls = std::max<int64_t>(1, (t1 - t0) * (p1 - p0) * blocks);
          const int64_t slice = (nextBytes + calls - 1) / calls;
          const char* nextW = reinterpret_cast<const char*>(wbase + p1 * CK * kLanes);
          int64_t call = 0;
          TileOut o;
          o.ldy = P;
          o.blk = 16 * P;
          o.clamp = cs.clamp;
          o.lo = cs.lo;
          o.hi = cs.hi;
          o.act = cs.rest;
          o.p0 = act.p0;
          o.p1 = act.p1;
          o.rotatePf = inBlocked && g.K == 1;
          float* part = blocks > 1 ? w.perThread.mine<float>() : nullptr;
          const int64_t steps = (CK + blocks - 1) / blocks;
          auto tile = [&](int64_t ti, int64_t pi, int64_t kb) {
            const int64_t row = ti / perRow, t = ti % perRow;
            const int64_t c0 = t * width / perRow, c1 = (t + 1) * width / perRow;
            const int64_t pix = row * width + c0;
            const float* tin = phased ? in + row * Wq + c0 : in + (row * sh * Wp + c0 * sw) * ps;
            const int64_t k0 = kb * steps, k1 = std::min(CK, k0 + steps);
            o.chans = int(std::min<int64_t>(kLanes, Mg - pi * kLanes));
            o.bias = b ? b + grp * Mg + pi * kLanes : nullptr;
            const int64_t at = yoff + pi * kLanes * P + (outBlocked ? pix * 16 : pix);
            o.y = y + at;
            o.res = z ? z + at : nullptr;
            o.part = part ? part + (ti - t0) * kMaxPix * kLanes : nullptr;
            o.firstBlock = kb == 0;
            o.lastBlock = kb + 1 == blocks;
            if (nextBytes > 0) {
              o.pf = nextW + call++ * slice;
              o.pfStride = std::max<int64_t>(1, (slice + (k1 - k0) - 1) / (k1 - k0));
            }
            runTile(inBlocked ? 16 * int(sw) : phased ? 1 : int(sw), outBlocked, int(c1 - c0), k1 - k0, tin, taps + k0,
                    wbase + (pi * CK + k0) * kLanes, o);
          };
          if (blocks > 1) {
            // K blocked: a block of a panel's weights (kBlockSteps x 128
            // bytes) stays in L1 while every tile of the unit runs it.
            for (int64_t pi = p0; pi < p1; ++pi)
              for (int64_t kb = 0; kb < blocks; ++kb)
                for (int64_t ti = t0; ti < t1; ++ti) tile(ti, pi, kb);
          } else {
            for (int64_t ti = t0; ti < t1; ++ti)
              for (int64_t pi = p0; pi < p1; ++pi) tile(ti, pi, 0);
          }
        }
      }, 1);
    }
}

}  // namespace oinfer::conv

namespace oinfer::conv {

using namespace cvec;

void cvecGemmBlocked(const float* A, int64_t rows, int64_t K, const int64_t* taps, const float* B, int64_t N,
                     float* O, int64_t p0, int64_t p1, const float* next) {
  // Tiles of up to kMaxPix rows, in groups of kGroup whose accumulators
  // fit a stack buffer while a K block (kBlockSteps steps of a panel, 16 KiB)
  // stays in L1 across them.
  static_assert(kCvecTapsPad >= kInputAhead, "the taps' padding covers the input prefetch");
  constexpr int64_t kGroup = 8;
  const int64_t tiles = (rows + kMaxPix - 1) / kMaxPix;
  alignas(64) float part[kGroup * kMaxPix * kLanes];
  TileOut o;
  o.ldy = rows;
  o.blk = 16 * rows;
  o.bias = nullptr;
  o.res = nullptr;
  o.clamp = false;
  o.lo = o.hi = 0.f;
  o.act = GemmActivation::kNone;
  o.p0 = o.p1 = 0.f;
  o.rotatePf = true;  // a row is its own line, read by 16 steps in a row
  // The panel after [p0, p1) (`next`, K x 32 floats), prefetched into L2 a
  // slice per tile: Winograd's weights come from L3 or memory on their first
  // use in a run, a panel per unit.
  const int64_t calls = std::max<int64_t>(1, (p1 - p0) * tiles * kBlocks(std::min(kGroup, tiles), K));
  const int64_t slice = next ? (K * kLanes * int64_t(sizeof(float)) + calls - 1) / calls : 0;
  int64_t call = 0;
  for (int64_t pi = p0; pi < p1; ++pi) {
    o.chans = int(std::min<int64_t>(kLanes, N - pi * kLanes));
    for (int64_t g0 = 0; g0 < tiles; g0 += kGroup) {
      const int64_t gn = std::min(kGroup, tiles - g0);
      const int64_t blocks = kBlocks(gn, K), steps = (K + blocks - 1) / blocks;
      for (int64_t kb = 0; kb < blocks; ++kb) {
        const int64_t k0 = kb * steps, k1 = std::min(K, k0 + steps);
        o.firstBlock = kb == 0;
        o.lastBlock = kb + 1 == blocks;
        for (int64_t ti = g0; ti < g0 + gn; ++ti) {
          const int64_t r0 = ti * rows / tiles, r1 = (ti + 1) * rows / tiles;
          o.y = O + pi * kLanes * rows + r0 * 16;
          o.part = blocks > 1 ? part + (ti - g0) * kMaxPix * kLanes : nullptr;
          if (next && call < calls) {
            o.pf = reinterpret_cast<const char*>(next) + call++ * slice;
            o.pfStride = std::max<int64_t>(1, (slice + (k1 - k0) - 1) / (k1 - k0));
          } else {
            o.pf = nullptr;
          }
          runTile(16, true, int(r1 - r0), k1 - k0, A + r0 * 16, taps + k0, B + (pi * K + k0) * kLanes, o);
        }
      }
    }
  }
}

}  // namespace oinfer::conv
