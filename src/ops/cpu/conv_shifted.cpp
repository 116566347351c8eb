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
// Work: chunks of output rows (Ypad about 2 MiB), each split over threads by
// column panels and, when there are few panels, by blocks of M tiles.
#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "ops/cpu/conv_fast.h"
#include "ops/cpu/gemm/gemm_internal.h"

namespace oinfer::conv {

namespace {

template <class T>
struct Scratch {
  T* p = nullptr;
  size_t n = 0;
  ~Scratch() { std::free(p); }
  T* get(size_t want) {
    if (want > n) {
      std::free(p);
      n = want;
      p = static_cast<T*>(std::aligned_alloc(64, (n * sizeof(T) + 63) / 64 * 64));
    }
    return p;
  }
};
thread_local Scratch<float> tlsPad, tlsOut;
thread_local Scratch<int64_t> tlsShifts;

}  // namespace

bool shiftedSuits(const ConvGeom& g) {
  return gemm::isa().shifted != nullptr && g.k[0] == 1 && g.grid[0] == 1 && g.s[1] == g.s[2] && g.K > 1;
}

void convShifted(ThreadPool& pool, const ConvGeom& g, const std::vector<PackedA>& packed, const float* x,
                 const float* b, const float* z, float* y, const Activation& act) {
  const gemm::Isa& I = gemm::isa();
  const int mr = I.mr, nr = I.nr;
  const int64_t KH = g.k[1], KW = g.k[2], dh = g.dil[1], dw = g.dil[2], st = g.s[2];
  const int64_t OH = g.grid[1], OW = g.grid[2], H = g.img[1], W = g.img[2];
  const int64_t padT = g.padBegin[1], padL = g.padBegin[2];
  // Sub-planes of phase (pr, pc): padded rows i*st + pr, columns j*st + pc.
  const int64_t Wg = ((OW - 1) * st + (KW - 1) * dw + 1 + st - 1) / st;
  const int64_t Hs = OH + (KH - 1) * dh / st;
  const int64_t sub = Hs * Wg, phases = st * st, plane = phases * sub;
  const int64_t Cg = g.Cg, Mg = g.Mg, CK = Cg * g.K, P = g.gridSize;
  const int64_t kc = packed.empty() ? gemm::kKc : packed[0].kc;

  int64_t* shifts = tlsShifts.get(size_t(CK));
  bool used[4][4] = {};  // phases some tap reads (st <= 4)
  for (int64_t c = 0, k = 0; c < Cg; ++c)
    for (int64_t kh = 0; kh < KH; ++kh)
      for (int64_t kw = 0; kw < KW; ++kw, ++k) {
        const int64_t th = kh * dh, tw = kw * dw;
        shifts[k] = c * plane + ((th % st) * st + tw % st) * sub + th / st * Wg + tw / st;
        if (st <= 4) used[th % st][tw % st] = true;
      }
  // Reads run up to nr columns past the last panel's start and a tap's shift
  // past the plane: zeroed slack keeps them inside the buffer.
  const int64_t slack = nr + Wg + 64;
  float* xpad = tlsPad.get(size_t(Cg * plane + slack));
  const int64_t rowChunk = std::clamp<int64_t>((int64_t{1} << 19) / std::max<int64_t>(1, Mg * Wg), 1, OH);
  float* ypad = tlsOut.get(size_t(Mg * rowChunk * Wg));

  float lo = 0.f, hi = 0.f;
  GemmEpilogue post;  // what the copy into Y applies
  post.act = act.act;
  post.p0 = act.p0;
  post.p1 = act.p1;
  const bool clampInKernel = !z && gemm::clampActivation(post, lo, hi);
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
      pool.parallelFor(Cg, [&](int64_t c0, int64_t c1) {
        for (int64_t c = c0; c < c1; ++c) {
          const float* src = xg + c * g.imgSize;
          for (int64_t pr = 0; pr < st; ++pr)
            for (int64_t pc = 0; pc < st; ++pc) {
              if (st <= 4 && !used[pr][pc]) continue;
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
        }
        if (c1 == Cg) std::memset(xpad + Cg * plane, 0, slack * sizeof(float));
      }, std::max<int64_t>(1, 16384 / plane));

      for (int64_t oh0 = 0; oh0 < OH; oh0 += rowChunk) {
        const int64_t rows = std::min(rowChunk, OH - oh0), ncols = rows * Wg;
        const int64_t panels = (ncols + nr - 1) / nr;
        // Split M too when the panels alone would leave threads idle.
        const int64_t mSplit = std::clamp<int64_t>((4 * threads + panels - 1) / panels, 1, mTiles);
        const int64_t tilesPer = (mTiles + mSplit - 1) / mSplit;
        const float* bbase = xpad + oh0 * Wg;
        pool.parallelFor(panels * mSplit, [&](int64_t u0, int64_t u1) {
          for (int64_t u = u0; u < u1; ++u) {
            const int64_t j = u / mSplit, ms = u % mSplit;
            const int64_t col = j * nr;
            const int cols = int(std::min<int64_t>(nr, ncols - col));
            const int64_t t0 = ms * tilesPer, t1 = std::min(mTiles, t0 + tilesPer);
            for (int64_t k0 = 0; k0 < CK; k0 += kc) {
              const int64_t kl = std::min(kc, CK - k0);
              const bool first = k0 == 0, last = k0 + kl >= CK;
              const float* ablock = A.data.get() + k0 * ((Mg + mr - 1) / mr * mr);
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
                I.shifted(kl, ablock + row * kl, bbase + col, shifts + k0, ypad + row * ncols + col, ncols, r, cols,
                          t);
              }
            }
          }
        }, 1);
        // The valid columns into Y, then the residual and the activation.
        pool.parallelFor(Mg, [&](int64_t m0, int64_t m1) {
          for (int64_t m = m0; m < m1; ++m) {
            float* yrow = yg + m * P + oh0 * OW;
            for (int64_t r = 0; r < rows; ++r) std::memcpy(yrow + r * OW, ypad + m * ncols + r * Wg, OW * sizeof(float));
            if (zg || post.act != GemmActivation::kNone) {
              GemmEpilogue ep = post;
              if (zg) {
                ep.residual = zg + m * P + oh0 * OW;
                ep.ldr = OW;
              }
              applyGemmEpilogue(ep, yrow, OW, rows, OW);
            }
          }
        }, std::max<int64_t>(1, 4096 / std::max<int64_t>(1, ncols)));
      }
    }
}

}  // namespace oinfer::conv
