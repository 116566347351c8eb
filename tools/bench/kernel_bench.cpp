// Kernel-level benchmark: float Conv (the ResNet-50 layer shapes) through
// conv::convFloat with weights packed as at plan time, reporting median
// milliseconds and GFLOP/s per shape at 1 and 2 threads. A tool for tuning
// the GEMM / Conv kernels; model-level comparisons against onnxruntime are
// tools/bench/bench.py.
// The strategy is the one a plan picks for constant weights (conv::chooseConv;
// --no-winograd: the channel-vector kernel or the GEMM in Winograd's place).
//   oinfer-kernel-bench [--threads N] [--reps R] [--filter SUBSTR] [--no-winograd] [--cold] [--cold-mib N] [--cvec]
//                       [--produced] [--residual] [--blocked]
// --cold streams 16 MiB (--cold-mib: N MiB; past the L3, weights come from
// memory as in a large model) through every thread before each timed call.
// --produced rewrites the input before each timed call on all threads, a
// block of channels each, as the layer before leaves it inside a model (half
// of it in the other core's cache); a blocked input (--blocked) a run of
// pixels each, as a conv writing it does.
// --residual adds a residual input (a bottleneck's skip connection) to every
// shape, read in the epilogue as FusedConv's fourth input is.
// --blocked times the channel-vector kernel with input and output in the
// blocked layout NCHW16c next to the plan's choice, where the shape allows
// (one group, 16 | channels, stride 1 or 2); the output is checked against it.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <random>
#include <string>
#include <vector>

#include "ops/cpu/conv_fast.h"
#include "ops/cpu/gemm/sgemm.h"

using namespace oinfer;

namespace {

// Float storage from allocLarge, the activation arena's allocator
// (64-byte aligned; 2 MiB pages for large blocks), so tensors sit as they do
// inside a model. A plain std::vector's large blocks start 16 bytes past a
// page: every row load and store of the kernels then straddles two cache
// lines, which they never do in a model on planes of a multiple of 16
// floats (1x1 64->256 @56 timed 0.56-0.58 ms that way against 0.43-0.44).
template <class T>
struct ArenaLike {
  using value_type = T;
  ArenaLike() = default;
  template <class U>
  ArenaLike(const ArenaLike<U>&) {}
  T* allocate(size_t n) {
    void* p = allocLarge(std::max<size_t>(n * sizeof(T), 64));
    if (!p) throw std::bad_alloc();
    return static_cast<T*>(p);
  }
  void deallocate(T* p, size_t) { std::free(p); }
  template <class U>
  bool operator==(const ArenaLike<U>&) const { return true; }
  template <class U>
  bool operator!=(const ArenaLike<U>&) const { return false; }
};
using Floats = std::vector<float, ArenaLike<float>>;

struct LayerShape {
  const char* name;
  int64_t C, M, H, k, s, pad, count;  // count: how many times ResNet-50 runs it
};

conv::ConvGeom geom(const LayerShape& sh) {
  conv::ConvGeom g;
  g.N = 1;
  g.C = sh.C;
  g.M = sh.M;
  // Names starting "dw": depthwise (a group per channel).
  const bool dw = std::string(sh.name).rfind("dw", 0) == 0;
  g.G = dw ? sh.C : 1;
  g.Cg = dw ? 1 : sh.C;
  g.Mg = dw ? 1 : sh.M;
  g.img = {1, sh.H, sh.H};
  const int64_t O = (sh.H + 2 * sh.pad - sh.k) / sh.s + 1;
  g.grid = {1, O, O};
  g.k = {1, sh.k, sh.k};
  g.s = {1, sh.s, sh.s};
  g.padBegin = {0, sh.pad, sh.pad};
  g.K = sh.k * sh.k;
  g.imgSize = sh.H * sh.H;
  g.gridSize = O * O;
  g.noPadding = sh.pad == 0;
  return g;
}

}  // namespace

int main(int argc, char** argv) {
  int threads = 0, reps = 30;
  std::string filter;
  bool winograd = true, cold = false, cvec = false, produced = false, residual = false, blocked = false;
  size_t flushMiB = 16;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--threads") && i + 1 < argc) threads = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--reps") && i + 1 < argc) reps = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--filter") && i + 1 < argc) filter = argv[++i];
    else if (!std::strcmp(argv[i], "--no-winograd")) winograd = false;
    else if (!std::strcmp(argv[i], "--cold")) cold = true;
    else if (!std::strcmp(argv[i], "--cold-mib") && i + 1 < argc) cold = true, flushMiB = std::strtoul(argv[++i], nullptr, 10);
    else if (!std::strcmp(argv[i], "--cvec")) cvec = true;
    else if (!std::strcmp(argv[i], "--produced")) produced = true;
    else if (!std::strcmp(argv[i], "--residual")) residual = true;
    else if (!std::strcmp(argv[i], "--blocked")) blocked = true;
    else {
      std::printf("usage: %s [--threads N] [--reps R] [--filter SUBSTR] [--no-winograd] [--cold] [--cold-mib N] [--cvec] [--produced] [--residual] [--blocked]\n", argv[0]);
      return 2;
    }
  }
  const LayerShape shapes[] = {
      {"conv1 7x7s2 3->64 @224", 3, 64, 224, 7, 2, 3, 1},
      {"l1 1x1 64->64 @56", 64, 64, 56, 1, 1, 0, 1},
      {"l1 3x3 64->64 @56", 64, 64, 56, 3, 1, 1, 3},
      {"l1 1x1 64->256 @56", 64, 256, 56, 1, 1, 0, 4},
      {"l1 1x1 256->64 @56", 256, 64, 56, 1, 1, 0, 2},
      {"l2 1x1 256->128 @56", 256, 128, 56, 1, 1, 0, 1},
      {"l2 3x3s2 128 @56", 128, 128, 56, 3, 2, 1, 1},
      {"l2 3x3 128 @28", 128, 128, 28, 3, 1, 1, 3},
      {"l2 1x1 128->512 @28", 128, 512, 28, 1, 1, 0, 4},
      {"l2 1x1 512->128 @28", 512, 128, 28, 1, 1, 0, 3},
      {"l2 ds 1x1s2 256->512 @56", 256, 512, 56, 1, 2, 0, 1},
      {"l3 1x1 512->256 @28", 512, 256, 28, 1, 1, 0, 1},
      {"l3 3x3s2 256 @28", 256, 256, 28, 3, 2, 1, 1},
      {"l3 3x3 256 @14", 256, 256, 14, 3, 1, 1, 5},
      {"l3 1x1 256->1024 @14", 256, 1024, 14, 1, 1, 0, 6},
      {"l3 1x1 1024->256 @14", 1024, 256, 14, 1, 1, 0, 5},
      {"l3 ds 1x1s2 512->1024 @28", 512, 1024, 28, 1, 2, 0, 1},
      {"l4 1x1 1024->512 @14", 1024, 512, 14, 1, 1, 0, 1},
          {"l4 3x3s2 512 @14", 512, 512, 14, 3, 2, 1, 1},
      {"l4 3x3 512 @7", 512, 512, 7, 3, 1, 1, 2},
      {"l4 1x1 512->2048 @7", 512, 2048, 7, 1, 1, 0, 3},
      {"l4 1x1 2048->512 @7", 2048, 512, 7, 1, 1, 0, 2},
      {"l4 ds 1x1s2 1024->2048 @14", 1024, 2048, 14, 1, 2, 0, 1},
      {"srcnn 9x9 3->64 @256", 3, 64, 256, 9, 1, 4, 0},
      {"srcnn 5x5 32->3 @256", 32, 3, 256, 5, 1, 2, 0},
      {"sq expand3x3 16->64 @55", 16, 64, 55, 3, 1, 1, 0},
      {"sq expand3x3 32->128 @27", 32, 128, 27, 3, 1, 1, 0},
      {"sq expand3x3 48->192 @13", 48, 192, 13, 3, 1, 1, 0},
      {"sq expand3x3 64->256 @13", 64, 256, 13, 3, 1, 1, 0},
      {"sq conv0 3x3s2 3->64 @224", 3, 64, 224, 3, 2, 0, 0},
      {"mb stem 3x3s2 3->32 @224", 3, 32, 224, 3, 2, 1, 0},
      {"sq squeeze 1x1 128->16 @55", 128, 16, 55, 1, 1, 0, 0},
      {"sq squeeze 1x1 64->16 @55", 64, 16, 55, 1, 1, 0, 0},
      {"sq expand1x1 16->64 @55", 16, 64, 55, 1, 1, 0, 0},
      {"sq expand1x1 32->128 @27", 32, 128, 27, 1, 1, 0, 0},
      {"sq squeeze 1x1 256->32 @27", 256, 32, 27, 1, 1, 0, 0},
      {"sq expand1x1 64->256 @13", 64, 256, 13, 1, 1, 0, 0},
      {"sq classifier 1x1 512->1000 @13", 512, 1000, 13, 1, 1, 0, 0},
      {"pw 1x1 96->24 @56", 96, 24, 56, 1, 1, 0, 0},
      {"pw 1x1 144->32 @28", 144, 32, 28, 1, 1, 0, 0},
      {"pw 1x1 192->48 @28", 192, 48, 28, 1, 1, 0, 0},
      {"pw 1x1 384->64 @14", 384, 64, 14, 1, 1, 0, 0},
      {"pw 1x1 32->96 @112", 32, 96, 112, 1, 1, 0, 0},
      {"pw 1x1 16->96 @112", 16, 96, 112, 1, 1, 0, 0},
      {"pw 1x1 24->144 @56", 24, 144, 56, 1, 1, 0, 0},
      {"pw 1x1 40->240 @28", 40, 240, 28, 1, 1, 0, 0},
      {"pw 1x1 80->480 @14", 80, 480, 14, 1, 1, 0, 0},
      {"pw 1x1 64->384 @14", 64, 384, 14, 1, 1, 0, 0},
      {"pw 1x1 96->576 @14", 96, 576, 14, 1, 1, 0, 0},
      {"pw 1x1 576->96 @14", 576, 96, 14, 1, 1, 0, 0},
      {"pw 1x1 160->960 @7", 160, 960, 7, 1, 1, 0, 0},
      {"pw 1x1 960->160 @7", 960, 160, 7, 1, 1, 0, 0},
      {"pw 1x1 960->320 @7", 960, 320, 7, 1, 1, 0, 0},
      {"pw 1x1 320->1280 @7", 320, 1280, 7, 1, 1, 0, 0},
      {"pw 1x1 192->1152 @7", 192, 1152, 7, 1, 1, 0, 0},
      {"pw 1x1 112->672 @14", 112, 672, 14, 1, 1, 0, 0},
      {"pw 1x1 672->112 @14", 672, 112, 14, 1, 1, 0, 0},
      {"pw 1x1 128->512 @7", 128, 512, 7, 1, 1, 0, 0},
      {"pw 1x1 96->576 @7", 96, 576, 7, 1, 1, 0, 0},
      {"dw 3x3 32 @112", 32, 32, 112, 3, 1, 1, 0},
      {"dw 3x3s2 96 @112", 96, 96, 112, 3, 2, 1, 0},
      {"dw 3x3 144 @56", 144, 144, 56, 3, 1, 1, 0},
      {"dw 3x3s2 144 @56", 144, 144, 56, 3, 2, 1, 0},
      {"dw 3x3 192 @28", 192, 192, 28, 3, 1, 1, 0},
      {"dw 3x3 576 @14", 576, 576, 14, 3, 1, 1, 0},
      {"dw 3x3 960 @7", 960, 960, 7, 3, 1, 1, 0},
      {"dw 5x5 240 @28", 240, 240, 28, 5, 1, 2, 0},
  };
  ThreadPool pool(threads);
  // --cold: before each timed call every thread streams through a buffer
  // larger than its L2 (or, with --cold-mib, the L3), so weights come from L3
  // or memory as they do inside a model run (the layers between evict them).
  std::vector<float> flushBuf(cold ? (flushMiB << 20) / sizeof(float) : 0, 1.f);
  volatile float flushSink = 0;
  auto flush = [&] {
    if (!cold) return;
    pool.parallelFor(pool.size(), [&](int64_t t0, int64_t t1) {
      float s = 0;
      for (int64_t t = t0; t < t1; ++t)
        for (size_t i = 0; i < flushBuf.size(); i += 16) s += flushBuf[i];
      flushSink = s;
    });
  };
  std::printf("isa %s, %d thread(s)\n| shape | median ms | best ms | GFLOP/s (median) | x in ResNet-50 | ms in ResNet-50 |\n"
              "|---|---|---|---|---|---|\n",
              sgemmIsa(), pool.size());
  std::mt19937 rng(1);
  std::normal_distribution<float> nd;
  double totalMs = 0, totalBest = 0, totalFlop = 0;
  for (const LayerShape& sh : shapes) {
    if (!filter.empty() && std::string(sh.name).find(filter) == std::string::npos) continue;
    const conv::ConvGeom g = geom(sh);
    Floats x(g.C * g.imgSize), w(g.M * g.Cg * g.K), b(g.M), y(g.M * g.gridSize);
    for (auto& v : x) v = nd(rng);
    for (auto& v : w) v = nd(rng) * 0.05f;
    for (auto& v : b) v = nd(rng);
    // The plan's choice (conv::chooseConv, constant weights; --no-winograd:
    // the channel-vector kernel or the GEMM in Winograd's place) and the
    // GEMM strategy it displaces (the alternative --cvec times).
    using conv::ConvAlgorithm;
    conv::ConvQuery q;
    q.g = g;
    q.act = GemmActivation::kRelu;
    q.residual = residual;
    const ConvAlgorithm gemmAlgo = conv::chooseConv(q).algo;
    q.constWeights = true;
    ConvAlgorithm st = conv::chooseConv(q).algo;
    bool isWino = st == ConvAlgorithm::kWinogradF2 || st == ConvAlgorithm::kWinogradF4;
    if (!winograd && isWino) {
      st = conv::choose::cvecPreferred(g) ? ConvAlgorithm::kChannelVec : gemmAlgo;
      isWino = false;
    }
    std::vector<PackedA> packed;
    std::vector<PackedB> wino, cv;
    if (isWino) {
      wino = conv::packWinogradWeights(g, w.data(), st == ConvAlgorithm::kWinogradF4 ? 4 : 2);
    } else if (st == ConvAlgorithm::kPixelVec) {
      wino = conv::packPixvecWeights(g, w.data());
    } else {
      packed = conv::packConvWeights(g, w.data());
    }
    const bool planCvec = st == ConvAlgorithm::kChannelVec;
    if (planCvec) st = gemmAlgo;
    // --cvec: the channel-vector kernel next to the default strategy (or the
    // GEMM next to it), runs alternating, where it applies.
    const bool useCvec = (cvec && conv::choose::cvecSuits(g)) || planCvec;
    if (useCvec) cv = conv::packCvecWeights(g, w.data());
    // --blocked: the channel-vector kernel (Winograd where the plan takes
    // it) on the blocked layout (input and output NCHW16c) as the
    // alternative, where the shape allows it.
    const bool wBlk = isWino;
    const bool blk = blocked && (wBlk ? conv::choose::winogradBlockedSuits(g, true, true)
                                      : conv::choose::cvecBlockedSuits(g, true, true));
    if (blk && !wBlk && cv.empty()) cv = conv::packCvecWeights(g, w.data());
    const bool timeAlt = blk || (useCvec && (cvec || !planCvec));
    // The workspace a plan would request for these algorithms, made once (as
    // a Session's context holds it), so the runs time no allocation.
    ScratchNeed need = conv::convFloatScratch(g, st, pool.size());
    if (isWino) need.cover(conv::winogradScratch(g, st == ConvAlgorithm::kWinogradF4 ? 4 : 2));
    if (st == ConvAlgorithm::kPixelVec) need.cover(conv::pixvecScratch(g));
    if (!cv.empty()) need.cover(conv::cvecScratch(g, false, pool.size())).cover(conv::cvecScratch(g, true, pool.size()));
    const CallWorkspace planned(Workspace{}, need, pool.size());
    const Workspace& ws = planned.get();
    Floats xb(blk ? x.size() : 0), yb(blk ? y.size() : 0), zb(blk && residual ? y.size() : 0, 0.5f);
    auto toBlocked = [](const Floats& a, Floats& d, int64_t C, int64_t P) {
      for (int64_t c = 0; c < C; ++c)
        for (int64_t p = 0; p < P; ++p) d[(c / 16) * P * 16 + p * 16 + c % 16] = a[c * P + p];
    };
    if (blk) toBlocked(x, xb, g.C, g.imgSize);
    conv::Activation act;
    act.act = GemmActivation::kRelu;
    Floats yc(useCvec ? y.size() : 0);
    Floats zres(residual ? y.size() : 0, 0.5f);  // --residual: the fused Add's input
    const float* zp = zres.empty() ? nullptr : zres.data();
    // ms: the plan's choice; msC: the alternative (--cvec).
    std::vector<double> ms, msC;
    for (int r = 0; r < reps + 3; ++r) {
      for (int which = 0; which < (timeAlt ? 2 : 1); ++which) {
        const bool main = !timeAlt || (which == 0) == bool(r & 1);
        const bool cvecRun = main ? planCvec : !planCvec;
        const bool blkRun = blk && !main;
        flush();
        if (produced && blkRun)
          // Blocked: a producing conv splits its output by pixels (tiles),
          // each thread writing every block of its pixels.
          pool.parallelFor(g.imgSize, [&](int64_t p0, int64_t p1) {
            for (int64_t cb = 0; cb < g.C / 16; ++cb)
              for (int64_t i = (cb * g.imgSize + p0) * 16; i < (cb * g.imgSize + p1) * 16; ++i) xb[i] = xb[i] * 1.0000001f;
          });
        else if (produced)
          pool.parallelFor(g.C, [&](int64_t c0, int64_t c1) {
            for (int64_t i = c0 * g.imgSize; i < c1 * g.imgSize; ++i) x[i] = x[i] * 1.0000001f;
          });
        const auto t0 = std::chrono::steady_clock::now();
        if (blkRun && wBlk)
          conv::convWinograd(pool, g, xb.data(), wino, b.data(), zb.empty() ? nullptr : zb.data(), yb.data(), act, true,
                             true, ws);
        else if (blkRun)
          conv::convCvec(pool, g, cv, xb.data(), b.data(), zb.empty() ? nullptr : zb.data(), yb.data(), act, true, true,
                         ws);
        else if (cvecRun)
          conv::convCvec(pool, g, cv, x.data(), b.data(), zp, yc.data(), act, false, false, ws);
        else if (isWino)
          conv::convWinograd(pool, g, x.data(), wino, b.data(), zp, y.data(), act, false, false, ws);
        else if (st == ConvAlgorithm::kPixelVec)
          conv::convPixvec(pool, g, wino, x.data(), b.data(), zp, y.data(), act, ws);
        else
          conv::convFloat(pool, g, st, x.data(), w.data(), packed, b.data(), zp, y.data(), act, ws);
        const auto t1 = std::chrono::steady_clock::now();
        if (r >= 3) (main ? ms : msC).push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
      }
    }
    std::sort(ms.begin(), ms.end());
    const double med = ms[ms.size() / 2];
    std::string extra;
    if (timeAlt) {
      double worst = 0;
      const Floats& ym = planCvec ? yc : y;
      if (blk) {
        Floats back(y.size());
        for (int64_t c = 0; c < g.M; ++c)
          for (int64_t p = 0; p < g.gridSize; ++p) back[c * g.gridSize + p] = yb[(c / 16) * g.gridSize * 16 + p * 16 + c % 16];
        for (size_t i = 0; i < y.size(); ++i) worst = std::max(worst, double(std::abs(ym[i] - back[i])));
      } else {
        for (size_t i = 0; i < y.size(); ++i) worst = std::max(worst, double(std::abs(y[i] - yc[i])));
      }
      std::sort(msC.begin(), msC.end());
      char buf[160];
      std::snprintf(buf, sizeof buf, " %s %.3f / %.3f best %.3f ratio %.2f%s", blk ? "blocked" : planCvec ? "gemm" : "cvec",
                    msC[msC.size() / 2], med, msC.front(), msC[msC.size() / 2] / med,
                    worst > 1e-3 ? " MISMATCH" : "");
      extra = buf;
    }
    const double flop = 2.0 * g.M * g.Cg * g.K * g.gridSize;
    totalMs += med * sh.count;
    totalBest += ms.front() * sh.count;
    totalFlop += flop * sh.count;
    std::printf("| %s%s | %.3f | %.3f | %.1f | %lld | %.2f |%s\n", sh.name,
                planCvec                          ? " (cvec)"
                : isWino                          ? " (winograd)"
                : st == ConvAlgorithm::kPixelVec ? " (pixvec)"
                                                  : "",
                med, ms.front(), flop / med * 1e-6,
                (long long)sh.count, med * sh.count, extra.c_str());
  }
  std::printf("| total | %.2f | %.2f | %.1f | | |\n", totalMs, totalBest, totalFlop / totalMs * 1e-6);
  // 1x1 expand + depthwise (MobileNetV2 / EfficientNet-B0 blocks): the two
  // Convs as planned apart against the fused kernel, runs alternating.
  struct ExpandShape {
    const char* name;
    int64_t Cin, Ce, H, k, s;
    bool silu;
  };
  const ExpandShape expands[] = {
      {"xdw mb2 16->96 @112 3x3s2", 16, 96, 112, 3, 2, false}, {"xdw mb3 24->144 @56 3x3", 24, 144, 56, 3, 1, false},
      {"xdw mb4 24->144 @56 3x3s2", 24, 144, 56, 3, 2, false}, {"xdw mb5 32->192 @28 3x3", 32, 192, 28, 3, 1, false},
      {"xdw mb7 32->192 @28 3x3s2", 32, 192, 28, 3, 2, false}, {"xdw mb8 64->384 @14 3x3", 64, 384, 14, 3, 1, false},
      {"xdw mb12 96->576 @14 3x3", 96, 576, 14, 3, 1, false},  {"xdw ef2 16->96 @112 3x3s2", 16, 96, 112, 3, 2, true},
      {"xdw ef4 24->144 @56 5x5s2", 24, 144, 56, 5, 2, true},  {"xdw ef5 40->240 @28 5x5", 40, 240, 28, 5, 1, true},
      {"xdw ef6 40->240 @28 3x3s2", 40, 240, 28, 3, 2, true},  {"xdw ef9 80->480 @14 5x5", 80, 480, 14, 5, 1, true},
  };
  std::printf("\n| expand + depthwise | apart ms | fused ms | fused / apart | best apart / fused |\n|---|---|---|---|---|\n");
  for (const ExpandShape& es : expands) {
    if (!filter.empty() && std::string(es.name).find(filter) == std::string::npos) continue;
    conv::ConvGeom ga = geom({"pw", es.Cin, es.Ce, es.H, 1, 1, 0, 0});
    conv::ConvGeom gb = geom({"dw", es.Ce, es.Ce, es.H, es.k, es.s, es.k / 2, 0});
    Floats x(ga.C * ga.imgSize), w1(ga.M * ga.C), b1(ga.M), w2(gb.M * gb.K), b2(gb.M);
    Floats e(ga.M * ga.gridSize), y(gb.M * gb.gridSize), yf(y.size());
    for (auto& v : x) v = nd(rng);
    for (auto& v : w1) v = nd(rng) * 0.2f;
    for (auto& v : b1) v = nd(rng);
    for (auto& v : w2) v = nd(rng) * 0.3f;
    for (auto& v : b2) v = nd(rng);
    conv::Activation act;
    if (es.silu) {
      act.act = GemmActivation::kSiLU;
    } else {
      act.act = GemmActivation::kClip;
      act.p0 = 0.f;
      act.p1 = 6.f;
    }
    conv::ConvQuery qa;
    qa.g = ga;
    qa.act = act.act;
    const conv::ConvAlgorithm sa = conv::chooseConv(qa).algo;
    std::vector<PackedA> pa;
    std::vector<PackedB> pcv;
    const bool aCvec = conv::choose::cvecPreferred(ga);
    if (aCvec) pcv = conv::packCvecWeights(ga, w1.data());
    else pa = conv::packConvWeights(ga, w1.data());
    const std::vector<PackedA> none;
    const conv::ConvChoice fusedChoice = conv::chooseExpandDepthwise(ga, gb, act.act, act.act);
    if (fusedChoice.algo != conv::ConvAlgorithm::kExpandDepthwise) continue;
    conv::ConvQuery qb;
    qb.g = gb;
    qb.act = act.act;
    const conv::ConvAlgorithm sb = conv::chooseConv(qb).algo;
    ScratchNeed need = conv::expandDepthwiseScratch();
    need.cover(aCvec ? conv::cvecScratch(ga, false, pool.size()) : conv::convFloatScratch(ga, sa, pool.size()));
    const CallWorkspace planned(Workspace{}, need, pool.size());  // as a plan holds it
    const Workspace& ws = planned.get();
    std::vector<double> ms, msF;
    for (int r = 0; r < reps + 3; ++r)
      for (int which = 0; which < 2; ++which) {
        const bool fused = (which == 0) == bool(r & 1);
        flush();
        const auto t0 = std::chrono::steady_clock::now();
        if (fused) {
          conv::convExpandDepthwise(pool, ga, gb, x.data(), w1.data(), b1.data(), act, w2.data(), b2.data(), act,
                                    yf.data(), fusedChoice.second == conv::ConvAlgorithm::kDepthwise3x3Rows, ws);
        } else {
          if (aCvec) conv::convCvec(pool, ga, pcv, x.data(), b1.data(), nullptr, e.data(), act, false, false, ws);
          else conv::convFloat(pool, ga, sa, x.data(), w1.data(), pa, b1.data(), nullptr, e.data(), act, ws);
          conv::convFloat(pool, gb, sb, e.data(), w2.data(), none, b2.data(), nullptr, y.data(), act, ws);
        }
        const auto t1 = std::chrono::steady_clock::now();
        if (r >= 3) (fused ? msF : ms).push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
      }
    double worst = 0;
    for (size_t i = 0; i < y.size(); ++i)
      worst = std::max(worst, double(std::abs(y[i] - yf[i])) / (1.0 + std::abs(y[i])));
    std::sort(ms.begin(), ms.end());
    std::sort(msF.begin(), msF.end());
    std::printf("| %s | %.3f | %.3f | %.2f | %.3f / %.3f |%s\n", es.name, ms[ms.size() / 2], msF[msF.size() / 2],
                msF[msF.size() / 2] / ms[ms.size() / 2], ms.front(), msF.front(), worst > 1e-4 ? " MISMATCH" : "");
  }
  // MatMul with constant (packed) weights: BERT-base / ViT-B at 128 / 197 tokens.
  struct GemmShape {
    const char* name;
    int64_t M, N, K;
  };
  const GemmShape gemms[] = {{"bert qkv 128x768x2304", 128, 2304, 768}, {"bert proj 128x768x768", 128, 768, 768},
                             {"bert ffn1 128x3072x768", 128, 3072, 768}, {"bert ffn2 128x768x3072", 128, 768, 3072},
                             {"vit ffn1 197x3072x768", 197, 3072, 768}, {"vit ffn2 197x768x3072", 197, 768, 3072},
                             {"mbv2 classifier 1x1000x1280", 1, 1000, 1280}};
  std::printf("\n| gemm (M x N x K, B packed) | median ms | best ms | GFLOP/s (median) | GFLOP/s (best) |\n|---|---|---|---|---|\n");
  for (const GemmShape& gs : gemms) {
    if (!filter.empty() && std::string(gs.name).find(filter) == std::string::npos) continue;
    Floats a(gs.M * gs.K), bm(gs.K * gs.N), c(gs.M * gs.N), bias(gs.N);
    for (auto& v : a) v = nd(rng);
    for (auto& v : bm) v = nd(rng);
    const PackedB pb = packB(false, gs.K, gs.N, bm.data(), gs.N);
    GemmEpilogue ep;
    ep.biasKind = GemmBias::kPerCol;
    ep.bias = bias.data();
    const CallWorkspace planned(Workspace{}, gemmScratch(gs.M, gs.N, gs.K, false, true, pool.size()), pool.size());
    std::vector<double> ms;
    for (int r = 0; r < reps + 3; ++r) {
      flush();
      const auto t0 = std::chrono::steady_clock::now();
      sgemmPacked(false, gs.M, a.data(), gs.K, pb, 1.f, 0.f, c.data(), gs.N, ep, &pool, planned.get());
      const auto t1 = std::chrono::steady_clock::now();
      if (r >= 3) ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    const double flop = 2.0 * gs.M * gs.N * gs.K;
    std::printf("| %s | %.3f | %.3f | %.1f | %.1f |\n", gs.name, ms[ms.size() / 2], ms.front(),
                flop / ms[ms.size() / 2] * 1e-6, flop / ms.front() * 1e-6);
  }
  return 0;
}
