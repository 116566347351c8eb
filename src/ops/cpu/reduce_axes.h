// Reducing a tensor over a set of axes, shared by the Reduce* ops, ArgMax /
// ArgMin, Softmax and the normalization ops.
//
// The input shape is first simplified: unit dims are dropped and adjacent
// dims of the same kind (kept or reduced) merged, so [N,C,H,W] over {2,3}
// becomes [N*C | H*W]. When at most one reduced run remains the tensor reads
// as outer x reduce x inner (row-major), the fast cases:
//   inner == 1: each output folds one contiguous run of `reduce` elements;
//   inner  > 1: a block of inner columns is folded row by row (vectorisable).
// Anything else (e.g. {0,2} of [N,C,H]) takes the general path: a table of
// the offsets of one output's reduced elements, added to each output's base.
//
// A reduction is a policy `Op<Acc>` with
//   using State = ...;               running state, e.g. Acc or {max, sum}
//   static State init();
//   static void step(State&, Acc x);
//   static Acc finish(const State&, int64_t count);
// where Acc is float for float16/bfloat16 storage and T otherwise.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "oinfer/tensor.h"
#include "oinfer/thread_pool.h"

namespace oinfer::cpu {

template <class T>
using AccOf = std::conditional_t<std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>, float, T>;

// Elements a parallel task should cover at least.
inline constexpr int64_t kReduceGrain = 1 << 14;

struct ReduceLayout {
  bool simple = true;  // outer x reduce x inner describes it
  int64_t outer = 1, reduce = 1, inner = 1;
  int64_t outputs = 1;                        // outer * inner
  std::vector<int64_t> baseOffsets;           // general path: input offset of each output
  std::vector<int64_t> reducedOffsets;        // general path: offsets of the reduced elements
};

// `reduced[d]` marks the axes folded away.
ReduceLayout makeReduceLayout(const std::vector<int64_t>& shape, const std::vector<bool>& reduced);

// Writes out[o] = Op::finish(fold of the reduced elements of output o).
template <template <class> class Op, class T>
void reduceAxes(const T* in, T* out, const ReduceLayout& L, ThreadPool& pool) {
  using A = AccOf<T>;
  using R = Op<A>;
  const int64_t red = L.reduce, inner = L.inner;
  const int64_t work = std::max<int64_t>(red, 1);
  if (!L.simple) {
    pool.parallelFor(L.outputs, [&](int64_t b, int64_t e) {
      for (int64_t o = b; o < e; ++o) {
        typename R::State s = R::init();
        const T* base = in + L.baseOffsets[o];
        for (int64_t off : L.reducedOffsets) R::step(s, static_cast<A>(base[off]));
        out[o] = T(R::finish(s, red));
      }
    }, std::max<int64_t>(1, kReduceGrain / work));
    return;
  }
  if (inner == 1) {
    pool.parallelFor(L.outer, [&](int64_t b, int64_t e) {
      for (int64_t o = b; o < e; ++o) {
        typename R::State s = R::init();
        const T* row = in + o * red;
        for (int64_t r = 0; r < red; ++r) R::step(s, static_cast<A>(row[r]));
        out[o] = T(R::finish(s, red));
      }
    }, std::max<int64_t>(1, kReduceGrain / work));
    return;
  }
  // Column blocks keep the running states in cache while rows stream by.
  constexpr int64_t kBlock = 256;
  const int64_t blocks = (inner + kBlock - 1) / kBlock;
  pool.parallelFor(L.outer * blocks, [&](int64_t b, int64_t e) {
    std::vector<typename R::State> st(kBlock);
    for (int64_t t = b; t < e; ++t) {
      const int64_t o = t / blocks, i0 = (t % blocks) * kBlock, n = std::min(kBlock, inner - i0);
      std::fill(st.begin(), st.begin() + n, R::init());
      const T* src = in + o * red * inner + i0;
      for (int64_t r = 0; r < red; ++r, src += inner)
        for (int64_t i = 0; i < n; ++i) R::step(st[i], static_cast<A>(src[i]));
      T* dst = out + o * inner + i0;
      for (int64_t i = 0; i < n; ++i) dst[i] = T(R::finish(st[i], red));
    }
  }, std::max<int64_t>(1, kReduceGrain / (work * std::min(kBlock, inner))));
}

}  // namespace oinfer::cpu

namespace oinfer::cpu {

// For each element of `target` (row-major), the offset of its source in a
// tensor of shape `src` broadcast one way onto it (numpy rules, right-aligned),
// counting `unit` elements per source position.
std::vector<int64_t> broadcastOffsets(const std::vector<int64_t>& src, const std::vector<int64_t>& target,
                                      int64_t unit = 1);

// Input offset of reduced element r of output o, for code that visits a
// group's elements more than once (normalisations).
inline int64_t reducedOffset(const ReduceLayout& L, int64_t o, int64_t r) {
  if (!L.simple) return L.baseOffsets[o] + L.reducedOffsets[r];
  return ((o / L.inner) * L.reduce + r) * L.inner + o % L.inner;
}

}  // namespace oinfer::cpu
