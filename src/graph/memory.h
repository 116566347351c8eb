// Large, aligned allocations: activation arenas, packed weights, kernel
// scratch.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace oinfer {

// Buffers of 2 MiB and more (activation arenas, packed weights, large
// scratch) are 2 MiB aligned, so transparent huge pages can back them; an
// arena or scratch buffer also asks for them (madvise; a no-op where THP is
// off; the tail past the last whole page stays on small pages, so nothing is
// rounded up into the resident set): the kernels read many planes a plane
// apart, one 4 KiB page each, and the TLB misses cost more than the paging.
// Packed weights do not ask (hugePages false): where the kernel's THP defrag
// policy is "madvise" (a common default, this machine's) each asked-for page
// is compacted for on its first touch, and packing BERT-base's weights took
// 1.2 s instead of 0.18 s; their reads are sequential panels, where the
// small pages measured no slower (BERT-base, ResNet-50 within noise side by
// side). Smaller buffers are 64-byte aligned. Free with std::free.
inline constexpr size_t kHugePage = size_t{2} << 20;

inline void* allocLarge(size_t bytes, bool hugePages = true) {
  void* p = nullptr;
  const size_t align = bytes < kHugePage ? 64 : kHugePage;
  if (posix_memalign(&p, align, (bytes + 63) / 64 * 64) != 0) return nullptr;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (hugePages && bytes >= kHugePage) madvise(p, bytes / kHugePage * kHugePage, MADV_HUGEPAGE);
#endif
  return p;
}

// A float array from allocLarge, owned by a shared_ptr (packed weights: no
// huge-page request, see above).
inline std::shared_ptr<float[]> allocFloats(size_t count) {
  float* p = static_cast<float*>(allocLarge(count * sizeof(float), false));
  if (!p) throw std::bad_alloc();
  return std::shared_ptr<float[]>(p, [](float* q) { std::free(q); });
}

}  // namespace oinfer
