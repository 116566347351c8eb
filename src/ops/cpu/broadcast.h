// Numpy-style broadcasting of N inputs against one output shape.
//
// Method: every input is right-aligned against the output and given one
// element stride per output dim (0 where the input is broadcast). Output dims
// of size 1 are dropped and adjacent dims are merged wherever every input is
// either contiguous across both or broadcast across both, so the common cases
// collapse to very few dims:
//   same shape                  -> [n]          strides (1, 1)
//   tensor vs scalar            -> [n]          strides (1, 0)
//   NCHW vs bias [C,1,1]        -> [N, C, HW]   strides (.., 1) and (0, 1, 0)
//   NHWC vs bias [C]            -> [NHW, C]     strides (C, 1) and (0, 1)
// Iteration then walks "rows" of the innermost merged dim, where each input's
// stride is 0 or 1; kernels specialise their inner loop on that pattern so the
// compiler can vectorise it. forEachRow takes any sub-range [begin, end) of the
// flat output, which is how kernels parallelise regardless of where the rows
// fall. The plan is a small value type: build it once per plan when shapes
// are static, or per run otherwise.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace oinfer::cpu {

// The broadcast of several shapes, or false when they are incompatible.
inline bool broadcastShapes(const std::vector<const std::vector<int64_t>*>& shapes,
                            std::vector<int64_t>& out) {
  size_t r = 0;
  for (auto* s : shapes) r = std::max(r, s->size());
  out.assign(r, 1);
  for (auto* s : shapes) {
    const size_t off = r - s->size();
    for (size_t k = 0; k < s->size(); ++k) {
      const int64_t d = (*s)[k];
      int64_t& o = out[off + k];
      if (d == o || d == 1) continue;
      if (o != 1) return false;
      o = d;
    }
  }
  return true;
}

template <size_t N>
class Broadcaster {
 public:
  Broadcaster() = default;

  // False when some input cannot be broadcast to `out` (a dim neither equal
  // to the output's nor 1, or a rank above the output's).
  bool init(const std::array<const std::vector<int64_t>*, N>& in, const std::vector<int64_t>& out) {
    outShape_ = out;
    for (size_t i = 0; i < N; ++i) inShapes_[i] = *in[i];
    numel_ = 1;
    for (int64_t d : out) numel_ *= d;
    dims_.clear();
    for (auto& s : strides_) s.clear();
    const size_t r = out.size();
    std::array<std::vector<int64_t>, N> full;
    for (size_t i = 0; i < N; ++i) {
      const auto& s = *in[i];
      if (s.size() > r) return false;
      full[i].assign(r, 0);
      int64_t stride = 1;
      for (size_t k = s.size(); k-- > 0;) {
        const size_t o = k + r - s.size();
        if (s[k] == out[o]) full[i][o] = out[o] == 1 ? 0 : stride;
        else if (s[k] != 1) return false;
        stride *= s[k];
      }
    }
    for (size_t k = 0; k < r; ++k) {
      if (out[k] == 1) continue;
      bool merge = !dims_.empty();
      for (size_t i = 0; i < N && merge; ++i) {
        const int64_t prev = strides_[i].back(), cur = full[i][k];
        merge = (prev == 0 && cur == 0) || (cur != 0 && prev == cur * out[k]);
      }
      if (merge) {
        dims_.back() *= out[k];
        for (size_t i = 0; i < N; ++i) strides_[i].back() = full[i][k];
      } else {
        dims_.push_back(out[k]);
        for (size_t i = 0; i < N; ++i) strides_[i].push_back(full[i][k]);
      }
    }
    if (dims_.empty()) {
      dims_.push_back(1);
      for (auto& s : strides_) s.push_back(0);
    }
    return true;
  }

  // Whether this plan was built for exactly these shapes.
  bool matches(const std::array<const std::vector<int64_t>*, N>& in, const std::vector<int64_t>& out) const {
    if (out != outShape_) return false;
    for (size_t i = 0; i < N; ++i)
      if (*in[i] != inShapes_[i]) return false;
    return true;
  }

  int64_t numel() const { return numel_; }
  size_t rank() const { return dims_.size(); }  // merged rank, >= 1
  const std::vector<int64_t>& dims() const { return dims_; }
  int64_t stride(size_t input, size_t dim) const { return strides_[input][dim]; }
  int64_t innerStride(size_t input) const { return strides_[input].back(); }  // 0 or 1
  int64_t innerSize() const { return dims_.back(); }

  // Calls f(outOffset, inOffsets, count) for each run of consecutive output
  // elements in [begin, end) along the innermost merged dim; input i's
  // elements for that run start at inOffsets[i] and step by innerStride(i).
  template <class F>
  void forEachRow(int64_t begin, int64_t end, F&& f) const {
    if (begin >= end) return;
    const size_t r = dims_.size();
    std::array<int64_t, 8> idxSmall{};
    std::vector<int64_t> idxBig;
    int64_t* idx = r <= idxSmall.size() ? idxSmall.data() : (idxBig.assign(r, 0), idxBig.data());
    std::array<int64_t, N> off{};
    int64_t rem = begin;
    for (size_t k = r; k-- > 0;) {
      idx[k] = rem % dims_[k];
      rem /= dims_[k];
      for (size_t i = 0; i < N; ++i) off[i] += idx[k] * strides_[i][k];
    }
    const int64_t inner = dims_.back();
    int64_t pos = begin;
    while (pos < end) {
      const int64_t n = std::min(inner - idx[r - 1], end - pos);
      f(pos, off.data(), n);
      pos += n;
      if (pos >= end) break;
      // Advance to the start of the next row.
      for (size_t i = 0; i < N; ++i) off[i] += n * strides_[i][r - 1];
      idx[r - 1] += n;
      for (size_t k = r; k-- > 0;) {
        if (idx[k] < dims_[k]) break;
        for (size_t i = 0; i < N; ++i) off[i] -= idx[k] * strides_[i][k];
        idx[k] = 0;
        if (k == 0) break;
        ++idx[k - 1];
        for (size_t i = 0; i < N; ++i) off[i] += strides_[i][k - 1];
      }
    }
  }

 private:
  std::vector<int64_t> outShape_;
  std::array<std::vector<int64_t>, N> inShapes_;
  int64_t numel_ = 0;
  std::vector<int64_t> dims_;
  std::array<std::vector<int64_t>, N> strides_;
};

}  // namespace oinfer::cpu
