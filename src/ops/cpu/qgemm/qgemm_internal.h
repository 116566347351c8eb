// Shared by the qgemm variants (qgemm.cpp, qgemm_avx2.cpp, qgemm_vnni.cpp):
// the per-block entry points and the scalar epilogue every variant uses for
// its partial tiles.
#pragma once

#include "ops/cpu/qgemm/qgemm.h"

namespace oinfer::cpu::qgemm {

// One call's operands after preparation (qgemm.cpp):
//   a      A in the kernel's form (avx2: int16, Kp per row; vnni: uint8
//          with row stride lda bytes, k padded to a multiple of 4 with 0)
//   rows   sum_k A'[m, k] per row (null when every zb is 0)
//   cols   bias[n] + K * za' * zb[n] - za' * colsum[n] per column
struct BlockArgs {
  const uint8_t* a = nullptr;
  int64_t lda = 0;  // elements of the prepared form
  const PackedQB* b = nullptr;
  const int32_t* rows = nullptr;
  const int32_t* cols = nullptr;
  const QEpilogue* ep = nullptr;
};

// The exact output value from a raw dot product (wrapping int32).
inline int32_t finish(int32_t dot, const BlockArgs& args, int64_t m, int64_t n) {
  uint32_t v = static_cast<uint32_t>(dot) + static_cast<uint32_t>(args.cols[n]);
  if (args.rows) v -= static_cast<uint32_t>(args.b->zb[n]) * static_cast<uint32_t>(args.rows[m]);
  return static_cast<int32_t>(v);
}

inline void storeOne(const QEpilogue& ep, int64_t m, int64_t n, int32_t v) {
  const int64_t at = m * ep.ldc + n;
  switch (ep.kind) {
    case QOut::kInt32: static_cast<int32_t*>(ep.out)[at] = v; break;
    case QOut::kUInt8: static_cast<uint8_t*>(ep.out)[at] = requantU8(v, ep.scale[n], ep.zp); break;
    case QOut::kInt8: static_cast<int8_t*>(ep.out)[at] = requantS8(v, ep.scale[n], ep.zp); break;
    case QOut::kFloat: static_cast<float*>(ep.out)[at] = static_cast<float>(v) * ep.scale[n]; break;
  }
}

// A tile of raw dot products (row stride ld) through finish + storeOne.
inline void storeTileScalar(const int32_t* tile, int64_t ld, int mr, int nr, const BlockArgs& args, int64_t m0,
                            int64_t n0) {
  for (int r = 0; r < mr; ++r)
    for (int c = 0; c < nr; ++c) storeOne(*args.ep, m0 + r, n0 + c, finish(tile[r * ld + c], args, m0 + r, n0 + c));
}

// Rows [m0, m1) x column panels [p0, p1) of C.
void blockAvx2(const BlockArgs& args, int64_t m0, int64_t m1, int64_t p0, int64_t p1);
void blockVnni(const BlockArgs& args, int64_t m0, int64_t m1, int64_t p0, int64_t p1);

inline constexpr int kAvx2Mr = 6, kAvx2Nr = 16;
inline constexpr int kVnniMr = 8, kVnniNr = 32;

}  // namespace oinfer::cpu::qgemm
