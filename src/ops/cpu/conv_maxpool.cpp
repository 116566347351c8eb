// FusedConvMaxPool (the fuse_conv_maxpool pass): an image stem Conv and the
// MaxPool reading its output, in one pass over bands of rows.
//
// The stem's output S is the network's largest tensor (64 x 112 x 112 floats,
// 3.2 MB, in ResNet-50 and SqueezeNet); run apart, the Conv wrote it (its
// stores bound by memory once S is past L2, and slower still when the
// caches are cold at the start of a run) and the MaxPool read it back. A unit
// here is (image, band of pool output rows, block of 8 channels): the
// pixel-vector kernel computes the conv rows the band's windows read into a
// per-thread buffer (8 planes of those rows), and the stride-2 pool kernel
// pools them from there into Y. Adjacent bands recompute the conv row
// (3x3 windows) their windows share.
#include "ops/cpu/conv_maxpool.h"

#include <algorithm>


namespace oinfer::conv {

namespace {

constexpr int kChans = 8;                   // the pixel-vector kernel's channel block
constexpr int64_t kBandFloats = 32 * 1024;  // per-thread band buffer (128 KiB, L2)

// Pool output rows per band: as many as the buffer holds conv rows for.
int64_t bandRows(const ConvGeom& cg, const pool::PoolGeom& pg) {
  const int64_t maxConvRows = kBandFloats / (kChans * cg.grid[2]);
  if (maxConvRows < pg.k[1]) return 0;
  return std::min<int64_t>((maxConvRows - pg.k[1]) / pg.s[1] + 1, pg.out[1]);
}

}  // namespace

bool convMaxPoolFits(const ConvGeom& cg, const pool::PoolGeom& pg) {
  if (!pool::maxPoolS2PlanesFit(pg)) return false;
  if (pg.img[1] != cg.grid[1] || pg.img[2] != cg.grid[2] || pg.planes != cg.N * cg.M) return false;
  return bandRows(cg, pg) >= 1;
}

ConvMaxPoolBands convMaxPoolBands(const ConvGeom& cg, const pool::PoolGeom& pg) {
  ConvMaxPoolBands b;
  // Bands of (nearly) equal size, as many as the buffer needs: a short last
  // band left its thread idle at the end.
  const int64_t OH = pg.out[1], OHc = cg.grid[1];
  const int64_t count = (OH + std::max<int64_t>(1, bandRows(cg, pg)) - 1) / std::max<int64_t>(1, bandRows(cg, pg));
  for (int64_t i = 0; i < count; ++i) {
    const int64_t p0 = i * OH / count, p1 = (i + 1) * OH / count;
    // The conv rows the band's windows read (the taps that land inside S).
    int64_t r0 = OHc, r1 = 0;
    for (int64_t p = p0; p < p1; ++p) {
      const pool::TapRange& t = pg.ranges[1][p];
      if (t.lo >= t.hi) continue;
      r0 = std::min(r0, t.start + t.lo);
      r1 = std::max(r1, t.start + t.hi);
    }
    if (r1 <= r0) r0 = r1 = 0;
    pool::PoolGeom g = pg;
    g.planes = kChans;
    g.img[1] = r1 - r0;
    g.out[1] = p1 - p0;
    g.imgSize = g.img[0] * g.img[1] * g.img[2];
    g.outSize = g.out[0] * g.out[1] * g.out[2];
    g.ranges[1].assign(pg.ranges[1].begin() + p0, pg.ranges[1].begin() + p1);
    for (pool::TapRange& t : g.ranges[1]) t.start -= r0;
    b.r0.push_back(r0);
    b.r1.push_back(r1);
    b.p0.push_back(p0);
    b.p1.push_back(p1);
    b.geom.push_back(std::move(g));
  }
  return b;
}

ScratchNeed convMaxPoolScratch(const ConvGeom& cg) {
  ScratchNeed need = pixvecScratch(cg);  // the phase copy, shared
  need.perThread = size_t(kBandFloats) * sizeof(float);
  return need;
}

void convMaxPool(ThreadPool& pool, const ConvGeom& cg, const pool::PoolGeom& pg, const ConvMaxPoolBands& bands,
                 const std::vector<PackedB>& packed, const float* x, const float* b, const Activation& act, float* y,
                 const Workspace& ws) {
  const int64_t blocks = pixvecBlocks(cg), nb = int64_t(bands.geom.size());
  const int64_t OWc = cg.grid[2], OW = pg.out[2], planeOut = pg.out[1] * OW;
  PixvecPrep prep;
  pixvecPrepare(cg, act, prep);
  const CallWorkspace call(ws, convMaxPoolScratch(cg), pool.size());
  const Workspace& w = call.get();
  for (int64_t n = 0; n < cg.N; ++n) {
    const float* phases = pixvecPhases(pool, cg, x + n * cg.C * cg.imgSize, w.shared.part<float>(0));
    // Units band-major: a thread takes consecutive bands, whose input rows
    // every channel block reads from its cache.
    pool.parallelFor(nb * blocks, [&](int64_t u0, int64_t u1) {
      float* buf = w.perThread.mine<float>();
      for (int64_t u = u0; u < u1; ++u) {
        const int64_t i = u / blocks, mb = u % blocks;
        const int64_t r0 = bands.r0[i], r1 = bands.r1[i], ld = (r1 - r0) * OWc;
        const int64_t chans = std::min<int64_t>(kChans, cg.M - mb * kChans);
        pixvecRows(cg, packed, prep, phases, r0, r1, mb, b, nullptr, buf, ld);
        pool::maxPoolS2Planes(bands.geom[i], buf, ld, y + (n * cg.M + mb * kChans) * planeOut + bands.p0[i] * OW,
                              planeOut, 0, chans);
      }
    }, 1);
  }
}

}  // namespace oinfer::conv
