// A grow-only, 64-byte aligned buffer kept across calls: kernels hold one per
// thread (thread_local) or per kernel, so warm runs allocate nothing.
#pragma once

#include <cstddef>
#include <cstdlib>

#include "graph/memory.h"

namespace oinfer::cpu {

template <class T>
class AlignedScratch {
 public:
  AlignedScratch() = default;
  AlignedScratch(const AlignedScratch&) = delete;
  AlignedScratch& operator=(const AlignedScratch&) = delete;
  ~AlignedScratch() { std::free(p_); }
  // At least `count` elements; the contents are not kept when it grows.
  T* get(size_t count) {
    if (count > n_) {
      std::free(p_);
      n_ = count;
      p_ = static_cast<T*>(allocLarge(n_ * sizeof(T)));
    }
    return p_;
  }

 private:
  T* p_ = nullptr;
  size_t n_ = 0;
};

}  // namespace oinfer::cpu
