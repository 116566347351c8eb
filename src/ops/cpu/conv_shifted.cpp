// Float32 2-d Conv without im2col: the shifted-input GEMM.
//
// Copy the input once into zero-padded polyphase sub-planes: for stride s,
// sub-plane (pr, pc) of channel c holds padded rows i*s + pr and columns
// j*s + pc (one sub-plane, the padded image, at stride 1). On an output grid
// of the sub-plane width Wg (OH rows; the last Wg - OW columns of each row are
// garbage), output j = oh * Wg + ow under kernel tap k = (c, kh, kw) reads
// sub-plane (kh*dh % s, kw*dw % s) of c at j + (kh*dh / s) * Wg + kw*dw / s:
// row k of the GEMM's B is a sub-plane shifted by a constant. So
//   Ypad (Mg x OH*Wg) = W (Mg x Cg*K, packed once per plan) * B
// runs on the ordinary micro-kernel, reading each B row at b + shifts[k]
// (gemm::Isa::shifted) instead of from a packed panel: no im2col gather (for
// SRCNN's 9x9 stem, 64 MB of writes per image) and no B packing at all. The
// price is the garbage columns and one copy of the valid columns into Y,
// where the residual and the activation are applied. Only the phases some
// tap reads are filled (with dilation 2 and stride 2, one of four).
// When the output rows are wide enough, panels are aligned to output rows
// instead and the micro-kernel writes Y directly (bias, residual, clamp in
// its epilogue): no Ypad and no copy. Otherwise: chunks of output rows (Ypad
// about 2 MiB). Either way the work is split over threads by groups of
// column panels and, when there are few, by blocks of M tiles; a unit copies
// its finished columns into Y itself (no second pass, no barrier).
#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "ops/cpu/conv_fast.h"
#include "ops/cpu/gemm/gemm_internal.h"

namespace oinfer::conv {

namespace {

// convShifted's layout for g: sub-planes of phase (pr, pc) hold padded rows
// i*st + pr, columns j*st + pc; and its buffers in the workspace's shared
// part (all threads write them): the taps' shifts, the phase planes, and
// (unless rows align) the output chunk the panels write before the copy.
struct ShiftedDims {
  int64_t st, Wg, Hs, sub, phases, plane, slack, rowChunk;
  bool rowAligned;
  explicit ShiftedDims(const ConvGeom& g) {
    const int64_t KH = g.k[1], dh = g.dil[1], OH = g.grid[1], OW = g.grid[2];
    const int nr = gemm::isa().nr;
    st = g.s[2];
    Wg = (windowSpan(g, 2) + st - 1) / st;
    Hs = OH + (KH - 1) * dh / st;
    sub = Hs * Wg;
    phases = st * st;
    plane = phases * sub;
    // Reads run up to nr columns past the last panel's start and a tap's shift
    // past the plane: zeroed slack keeps them inside the buffer.
    slack = nr + Wg + 64;
    // Row-aligned panels (each output row split into panels of nr from its
    // start) let the micro-kernel write Y itself, with the residual, at the
    // price of a partial panel per row: taken when that wastes under 20%.
    // Otherwise (narrow rows: 7, 13, 14 wide) panels run across the output
    // grid and the valid columns are copied into Y from Ypad.
    const int64_t perRow = (OW + nr - 1) / nr;
    rowAligned = perRow * nr * 5 <= OW * 6;
    rowChunk = rowAligned ? OH : std::clamp<int64_t>((int64_t{1} << 19) / std::max<int64_t>(1, g.Mg * Wg), 1, OH);
  }
};
struct ShiftedBufs {
  int64_t* shifts;
  float* xpad;
  float* ypad;
};
ShiftedBufs shiftedBufs(const ConvGeom& g, const ShiftedDims& d, void* base, size_t* bytes = nullptr) {
  Carve c(base);
  ShiftedBufs s;
  s.shifts = c.take<int64_t>(size_t(g.Cg * g.K));
  s.xpad = c.take<float>(size_t(g.Cg * d.plane + d.slack));
  s.ypad = d.rowAligned ? nullptr : c.take<float>(size_t(g.Mg * d.rowChunk * d.Wg));
  if (bytes) *bytes = c.bytes();
  return s;
}

// One column panel (cols <= nr output columns) against M tiles [t0, t1),
// over all K blocks, written into Y (row stride ldy) with bias, residual and
// clamp in the micro-kernel's epilogue and any other activation after it.
// B row k is read at bp + shifts[k]; or, with tailSrc, the panel's columns of
// row k (tailSrc + k * tailStride) are first copied into a zero-padded panel
// (a last panel whose full-width reads would run past the end of the input).
struct PanelJob {
  const gemm::Isa* isa;
  const PackedA* A;
  int64_t Mg, CK, kc;
  const float* bias;      // per row, or null
  const float* res;       // at the panel's first column, or null
  float* y;               // at the panel's first column
  int64_t ldy;
  bool clamp;
  float lo, hi;
  const GemmEpilogue* tail;  // act != kNone: applied to each finished tile
  bool prefetchNext = false;  // the first tile prefetches the next panel's B rows (bp + nr + shifts[k])
};

void runPanel(const PanelJob& p, int64_t t0, int64_t t1, const float* bp, const int64_t* shifts, int cols,
              const float* tailSrc = nullptr, int64_t tailStride = 0) {
  const int mr = p.isa->mr, nr = p.isa->nr;
  alignas(64) float panel[gemm::kKc * 32];
  for (int64_t k0 = 0; k0 < p.CK; k0 += p.kc) {
    const int64_t kl = std::min(p.kc, p.CK - k0);
    const bool first = k0 == 0, last = k0 + kl >= p.CK;
    if (tailSrc) {
      for (int64_t kk = 0; kk < kl; ++kk) {
        float* d = panel + kk * nr;
        std::memcpy(d, tailSrc + (k0 + kk) * tailStride, cols * sizeof(float));
        std::memset(d + cols, 0, (nr - cols) * sizeof(float));
      }
    }
    const float* ablock = p.A->data.get() + k0 * ((p.Mg + mr - 1) / mr * mr);
    for (int64_t ti = t0; ti < t1; ++ti) {
      const int64_t row = ti * mr;
      const int r = int(std::min<int64_t>(mr, p.Mg - row));
      gemm::TileArgs t;
      t.beta = first ? 0.f : 1.f;
      t.loadC = !first;
      float* c = p.y + row * p.ldy;
      if (last) {
        t.rowBias = p.bias ? p.bias + row : nullptr;
        if (p.res) {
          t.res = p.res + row * p.ldy;
          t.ldr = p.ldy;
        }
        t.clamp = p.clamp;
        t.lo = p.lo;
        t.hi = p.hi;
        if (gemm::fusedActivation(*p.isa, p.tail->act)) {
          t.act = p.tail->act;
          t.p0 = p.tail->p0;
          t.p1 = p.tail->p1;
        }
      }
      if (p.prefetchNext && ti == t0 && !tailSrc) t.pfB = bp + nr;
      if (tailSrc) p.isa->kernel(kl, ablock + row * kl, panel, c, p.ldy, r, cols, t);
      else p.isa->shifted(kl, ablock + row * kl, bp, shifts + k0, c, p.ldy, r, cols, t);
      if (last && p.tail->act != GemmActivation::kNone && !gemm::fusedActivation(*p.isa, p.tail->act))
        gemm::activateBlock(*p.tail, c, p.ldy, r, cols);
    }
  }
}

// Threads over groups of `panels` column panels (about 8 per thread) and,
// when those are few, blocks of M tiles: fn(panel, t0, t1).
template <class F>
void forPanels(ThreadPool& pool, int64_t panels, int64_t mTiles, F&& fn) {
  const int threads = pool.size();
  const int64_t perGroup = std::max<int64_t>(1, panels / (8 * threads));
  const int64_t groups = (panels + perGroup - 1) / perGroup;
  const int64_t mSplit = std::clamp<int64_t>((4 * threads + groups - 1) / groups, 1, mTiles);
  const int64_t tilesPer = (mTiles + mSplit - 1) / mSplit;
  pool.parallelFor(groups * mSplit, [&](int64_t u0, int64_t u1) {
    for (int64_t u = u0; u < u1; ++u) {
      const int64_t gi = u / mSplit, ms = u % mSplit;
      const int64_t t0 = ms * tilesPer, t1 = std::min(mTiles, t0 + tilesPer);
      for (int64_t pi = gi * perGroup; pi < std::min(panels, (gi + 1) * perGroup); ++pi) fn(pi, t0, t1);
    }
  }, 1);
}

}  // namespace

ScratchNeed pointwiseDirectScratch(const ConvGeom& g) {
  Carve c;
  c.take<int64_t>(size_t(g.Cg));  // the channels' shifts
  return {c.bytes(), 0};
}

void convPointwiseDirect(ThreadPool& pool, const ConvGeom& g, const std::vector<PackedA>& packed, const float* x,
                         const float* b, const float* z, float* y, const Activation& act, const Workspace& ws) {
  const gemm::Isa& I = gemm::isa();
  const int nr = I.nr;
  const int64_t Cg = g.Cg, Mg = g.Mg, P = g.gridSize, mTiles = (Mg + I.mr - 1) / I.mr;
  const CallWorkspace call(ws, pointwiseDirectScratch(g), pool.size());
  int64_t* shifts = call.get().shared.part<int64_t>(0);
  for (int64_t c = 0; c < Cg; ++c) shifts[c] = c * g.imgSize;
  const ClampSplit cs = splitClamp(act);
  GemmEpilogue tail;  // what runPanel applies after the clamp
  tail.act = cs.rest;
  tail.p0 = act.p0;
  tail.p1 = act.p1;
  const int64_t panels = (P + nr - 1) / nr;
  for (int64_t n = 0; n < g.N; ++n)
    for (int64_t grp = 0; grp < g.G; ++grp) {
      const float* xg = x + (n * g.C + grp * Cg) * g.imgSize;
      const int64_t yoff = (n * g.M + grp * Mg) * P;
      forPanels(pool, panels, mTiles, [&](int64_t pi, int64_t t0, int64_t t1) {
        const int64_t col = pi * nr;
        const int cols = int(std::min<int64_t>(nr, P - col));
        PanelJob job{&I, &packed[grp], Mg, Cg, packed[grp].kc, b ? b + grp * Mg : nullptr,
                     z ? z + yoff + col : nullptr, y + yoff + col, P, cs.clamp, cs.lo, cs.hi, &tail};
        // The next panel's rows (up to Cg lines, a plane apart): no hardware
        // prefetcher follows that many streams.
        job.prefetchNext = col + 2 * nr <= P;
        if (col + nr <= P) runPanel(job, t0, t1, xg + col, shifts, cols);
        else runPanel(job, t0, t1, nullptr, shifts, cols, xg + col, g.imgSize);
      });
    }
}

ScratchNeed shiftedScratch(const ConvGeom& g) {
  ScratchNeed need;
  shiftedBufs(g, ShiftedDims(g), nullptr, &need.shared);
  return need;
}

void convShifted(ThreadPool& pool, const ConvGeom& g, const std::vector<PackedA>& packed, const float* x,
                 const float* b, const float* z, float* y, const Activation& act, const Workspace& ws) {
  const gemm::Isa& I = gemm::isa();
  const int mr = I.mr, nr = I.nr;
  const int64_t KH = g.k[1], KW = g.k[2], dh = g.dil[1], dw = g.dil[2];
  const int64_t OH = g.grid[1], OW = g.grid[2], H = g.img[1], W = g.img[2];
  const int64_t padT = g.padBegin[1], padL = g.padBegin[2];
  const ShiftedDims dims(g);
  const int64_t st = dims.st, Wg = dims.Wg, Hs = dims.Hs, sub = dims.sub, phases = dims.phases, plane = dims.plane;
  const int64_t Cg = g.Cg, Mg = g.Mg, CK = Cg * g.K, P = g.gridSize;
  const int64_t kc = packed.empty() ? gemm::kKc : packed[0].kc;
  const CallWorkspace call(ws, shiftedScratch(g), pool.size());
  const ShiftedBufs bufs = shiftedBufs(g, dims, call.get().shared.part(0));

  int64_t* shifts = bufs.shifts;
  bool used[4][4] = {};  // phases some tap reads (st <= 4)
  for (int64_t c = 0, k = 0; c < Cg; ++c)
    for (int64_t kh = 0; kh < KH; ++kh)
      for (int64_t kw = 0; kw < KW; ++kw, ++k) {
        const int64_t th = kh * dh, tw = kw * dw;
        shifts[k] = c * plane + ((th % st) * st + tw % st) * sub + th / st * Wg + tw / st;
        if (st <= 4) used[th % st][tw % st] = true;
      }
  const int64_t slack = dims.slack;
  float* xpad = bufs.xpad;
  const int64_t perRow = (OW + nr - 1) / nr;
  const bool rowAligned = dims.rowAligned;
  const int64_t rowChunk = dims.rowChunk;
  float* ypad = bufs.ypad;

  float lo = 0.f, hi = 0.f;
  GemmEpilogue post;  // what the copy into Y applies
  post.act = act.act;
  post.p0 = act.p0;
  post.p1 = act.p1;
  // Row-aligned: the residual is added in the kernel, so a clamp always can
  // be; `tail` is any other activation, applied to each finished tile.
  const bool clampAll = gemm::clampActivation(post, lo, hi);
  GemmEpilogue tail = post;
  if (clampAll) tail.act = GemmActivation::kNone;
  const bool clampInKernel = !z && clampAll;
  if (clampInKernel) post.act = GemmActivation::kNone;
  const int64_t mTiles = (Mg + mr - 1) / mr;
  const int threads = pool.size();

  for (int64_t n = 0; n < g.N; ++n)
    for (int64_t grp = 0; grp < g.G; ++grp) {
      const float* xg = x + (n * g.C + grp * Cg) * g.imgSize;
      float* yg = y + (n * g.M + grp * Mg) * P;
      const float* zg = z ? z + (n * g.M + grp * Mg) * P : nullptr;
      const float* bg = b ? b + grp * Mg : nullptr;
      const PackedA& A = packed[grp];
      // Fill, threads over (channel, phase) pairs.
      pool.parallelFor(Cg * phases, [&](int64_t u0, int64_t u1) {
        for (int64_t u = u0; u < u1; ++u) {
          const int64_t c = u / phases, pr = (u % phases) / st, pc = u % st;
          if (st <= 4 && !used[pr][pc]) continue;
          const float* src = xg + c * g.imgSize;
          float* dst = xpad + c * plane + (pr * st + pc) * sub;
          // Columns j with 0 <= j*st + pc - padL < W.
          const int64_t jlo = std::min(Wg, std::max<int64_t>(0, (padL - pc + st - 1) / st));
          const int64_t jhi = std::clamp<int64_t>((W + padL - pc + st - 1) / st, jlo, Wg);
          const float* s0 = src + jlo * st + pc - padL;
          for (int64_t i = 0; i < Hs; ++i) {
            float* d = dst + i * Wg;
            const int64_t ih = i * st + pr - padT;
            if (ih < 0 || ih >= H) {
              std::memset(d, 0, Wg * sizeof(float));
              continue;
            }
            std::memset(d, 0, jlo * sizeof(float));
            const float* sr = s0 + ih * W;
            if (st == 1) std::memcpy(d + jlo, sr, (jhi - jlo) * sizeof(float));
            else
              for (int64_t j = jlo; j < jhi; ++j) d[j] = sr[(j - jlo) * st];
            std::memset(d + jhi, 0, (Wg - jhi) * sizeof(float));
          }
        }
        if (u1 == Cg * phases) std::memset(xpad + Cg * plane, 0, slack * sizeof(float));
      }, std::max<int64_t>(1, 16384 / sub));

      if (rowAligned) {
        forPanels(pool, OH * perRow, mTiles, [&](int64_t pi, int64_t t0, int64_t t1) {
          const int64_t oh = pi / perRow, ow = pi % perRow * nr;
          const int64_t yoff = oh * OW + ow;
          const PanelJob job{&I, &A, Mg, CK, kc, bg, zg ? zg + yoff : nullptr, yg + yoff, P, clampAll, lo, hi, &tail};
          runPanel(job, t0, t1, xpad + oh * Wg + ow, shifts, int(std::min<int64_t>(nr, OW - ow)));
        });
        continue;
      }
      for (int64_t oh0 = 0; oh0 < OH; oh0 += rowChunk) {
        const int64_t rows = std::min(rowChunk, OH - oh0), ncols = rows * Wg;
        const int64_t panels = (ncols + nr - 1) / nr;
        // Units: groups of panels (long runs for the copy into Y), about 8
        // per thread; M split too when the groups alone would leave threads
        // idle. A handful of panels (7x7 outputs: two) stay in one group, so
        // each unit streams its rows of the weights once for all of them
        // instead of once per panel (K outer, panels inner below).
        const int64_t perGroup = panels <= 2 * threads ? panels : std::max<int64_t>(1, panels / (8 * threads));
        const int64_t groups = (panels + perGroup - 1) / perGroup;
        const int64_t mSplit = std::clamp<int64_t>((4 * threads + groups - 1) / groups, 1, mTiles);
        const int64_t tilesPer = (mTiles + mSplit - 1) / mSplit;
        const float* bbase = xpad + oh0 * Wg;
        pool.parallelFor(groups * mSplit, [&](int64_t u0, int64_t u1) {
          for (int64_t u = u0; u < u1; ++u) {
            const int64_t grpIdx = u / mSplit, ms = u % mSplit;
            const int64_t colBegin = grpIdx * perGroup * nr, colEnd = std::min(ncols, colBegin + perGroup * nr);
            const int64_t t0 = ms * tilesPer, t1 = std::min(mTiles, t0 + tilesPer);
            for (int64_t k0 = 0; k0 < CK; k0 += kc) {
              const int64_t kl = std::min(kc, CK - k0);
              const bool first = k0 == 0, last = k0 + kl >= CK;
              const float* ablock = A.data.get() + k0 * ((Mg + mr - 1) / mr * mr);
              for (int64_t col = colBegin; col < colEnd; col += nr) {
                const int cols = int(std::min<int64_t>(nr, ncols - col));
                for (int64_t ti = t0; ti < t1; ++ti) {
                  const int64_t row = ti * mr;
                  const int r = int(std::min<int64_t>(mr, Mg - row));
                  gemm::TileArgs t;
                  t.beta = first ? 0.f : 1.f;
                  t.loadC = !first;
                  if (last) {
                    t.rowBias = bg ? bg + row : nullptr;
                    t.clamp = clampInKernel;
                    t.lo = lo;
                    t.hi = hi;
                  }
                  I.shifted(kl, ablock + row * kl, bbase + col, shifts + k0, ypad + row * ncols + col, ncols, r,
                            cols, t);
                }
              }
            }
            // This unit's columns are final: their valid part into Y while
            // still in cache, then the residual and the activation.
            const int64_t m0 = t0 * mr, m1 = std::min(Mg, t1 * mr);
            for (int64_t jc = colBegin; jc < colEnd;) {
              const int64_t gr = jc / Wg, ow = jc % Wg;
              const int64_t runEnd = std::min<int64_t>(colEnd, (gr + 1) * Wg);
              const int64_t len = std::min(runEnd - jc, OW - ow);
              if (len > 0) {
                const int64_t yoff = (oh0 + gr) * OW + ow;
                for (int64_t m = m0; m < m1; ++m) {
                  float* yp = yg + m * P + yoff;
                  std::memcpy(yp, ypad + m * ncols + jc, len * sizeof(float));
                  if (zg || post.act != GemmActivation::kNone) {
                    GemmEpilogue ep = post;
                    if (zg) {
                      ep.residual = zg + m * P + yoff;
                      ep.ldr = len;
                    }
                    applyGemmEpilogue(ep, yp, len, 1, len);
                  }
                }
              }
              jc = runEnd;
            }
          }
        }, 1);
      }
    }
}

}  // namespace oinfer::conv
