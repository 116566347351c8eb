// The one index/extent validation of the gather/scatter family (Gather,
// GatherElements, GatherND, Scatter, ScatterElements, ScatterND, OneHot,
// TensorScatter), shared by their shape functions (which check what is known
// at load time) and their CPU kernels (which check everything before reading
// or writing a single element).
//
// Shapes are plain dims; a dim < 0 is unknown (symbolic) and skipped, so the
// shape functions pass what they know and the kernels pass real shapes.
// Index values are read once, range-checked against the data extent and
// normalised (negative values count from the end) into a caller-owned
// vector; a kernel then addresses data only through that vector.
//
// Every failure throws oinfer::Error(code, "<node>: <message>") where the
// message names the input(s) by position and name and gives the offending
// extent or index value and where it sits in the indices tensor.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "graph/ir.h"
#include "oinfer/error.h"
#include "oinfer/tensor.h"

namespace oinfer::shape {

class IndexChecker {
 public:
  IndexChecker(const Node& node, ErrorCode code) : node_(node), code_(code) {}

  [[noreturn]] void fail(const std::string& msg) const;
  // "input 1 ('idx')"
  std::string input(size_t i) const;

  // ---- shapes -------------------------------------------------------------
  // GatherElements / ScatterElements / Scatter: indices has data's rank, and
  // every dim but `axis` is at most data's (only along the axis may indices
  // hold more entries than data).
  void elementsShape(size_t dataIn, const std::vector<int64_t>& data, size_t idxIn, const std::vector<int64_t>& idx,
                     int64_t axis) const;
  // Two inputs of equal shape (ScatterElements' updates and indices).
  void sameShape(size_t aIn, const std::vector<int64_t>& a, size_t bIn, const std::vector<int64_t>& b) const;
  // GatherND: indices rank q >= 1, batch_dims b < min(q, r), indices.shape[:b]
  // == data.shape[:b], 1 <= indices.shape[-1] <= r - b.
  void gatherNDShape(size_t dataIn, const std::vector<int64_t>& data, size_t idxIn, const std::vector<int64_t>& idx,
                     int64_t batchDims) const;
  // ScatterND: indices rank q >= 1, k = indices.shape[-1] <= r, and updates
  // has shape indices.shape[:-1] + data.shape[k:].
  void scatterNDShape(size_t dataIn, const std::vector<int64_t>& data, size_t idxIn, const std::vector<int64_t>& idx,
                      size_t updIn, const std::vector<int64_t>& upd) const;

  // ---- values -------------------------------------------------------------
  // Every value of `indices` (input idxIn, any integer type) must lie in
  // [-extent, extent - 1], extent being dim `axis` of data (input dataIn of
  // shape dataShape); out receives them normalised to [0, extent).
  void normalize(const Tensor& indices, size_t idxIn, size_t dataIn, const std::vector<int64_t>& dataShape,
                 int64_t axis, std::vector<int64_t>& out) const;
  // GatherND / ScatterND: indices' last dim holds index tuples over data
  // dims firstAxis, firstAxis + 1, ...; each entry is checked against its
  // own dim and normalised.
  void normalizeTuples(const Tensor& indices, size_t idxIn, size_t dataIn, const std::vector<int64_t>& dataShape,
                       int64_t firstAxis, std::vector<int64_t>& out) const;
  // A single position `value` (e.g. TensorScatter's write index for a batch)
  // that must lie in [lo, hi]: "<what> is <value>, out of range [lo, hi]<why>".
  void inRange(int64_t value, int64_t lo, int64_t hi, const std::string& what, const std::string& why) const;

 private:
  [[noreturn]] void badIndex(int64_t value, int64_t flat, const std::vector<int64_t>& idxShape, size_t idxIn,
                             size_t dataIn, const std::vector<int64_t>& dataShape, int64_t axis) const;
  const Node& node_;
  ErrorCode code_;
};

// Shape with unknown dims as -1, for the checks above.
std::vector<int64_t> knownDims(const Shape& s);

}  // namespace oinfer::shape
