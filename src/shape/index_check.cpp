// The gather/scatter family's shared index and extent checks (index_check.h).
#include "shape/index_check.h"

#include <algorithm>

namespace oinfer::shape {

namespace {

// "[2,0]": the coordinates of flat position `flat` in a row-major shape.
std::string positionOf(int64_t flat, const std::vector<int64_t>& shape) {
  std::vector<int64_t> c(shape.size(), 0);
  for (size_t k = shape.size(); k-- > 0;) {
    if (shape[k] > 0) {
      c[k] = flat % shape[k];
      flat /= shape[k];
    }
  }
  return shapeToString(c);
}

bool known(int64_t d) { return d >= 0; }

// Calls f(flat, value) for every element of an integer tensor, without
// copying it (int32 / int64 read directly).
template <class F>
void forEachIndex(const Tensor& t, F&& f) {
  const int64_t n = t.numel();
  switch (t.dtype()) {
    case DataType::kInt64: {
      const int64_t* p = t.data<int64_t>();
      for (int64_t i = 0; i < n; ++i) f(i, p[i]);
      return;
    }
    case DataType::kInt32: {
      const int32_t* p = t.data<int32_t>();
      for (int64_t i = 0; i < n; ++i) f(i, static_cast<int64_t>(p[i]));
      return;
    }
    default: {
      const std::vector<int64_t> v = t.toInt64Vector();
      for (int64_t i = 0; i < n; ++i) f(i, v[i]);
    }
  }
}

}  // namespace

std::vector<int64_t> knownDims(const Shape& s) {
  std::vector<int64_t> out;
  out.reserve(s.size());
  for (const Dim& d : s) out.push_back(d.isStatic() ? d.value : -1);
  return out;
}

void IndexChecker::fail(const std::string& msg) const { throw Error(code_, node_.describe() + ": " + msg); }

std::string IndexChecker::input(size_t i) const {
  const auto& ins = node_.inputs;
  return "input " + std::to_string(i) + " ('" + (i < ins.size() ? ins[i] : std::string()) + "')";
}

void IndexChecker::elementsShape(size_t dataIn, const std::vector<int64_t>& data, size_t idxIn,
                                 const std::vector<int64_t>& idx, int64_t axis) const {
  if (idx.size() != data.size())
    fail(input(idxIn) + " has shape " + shapeToString(idx) + " but " + input(dataIn) + " has shape " +
         shapeToString(data) + ": ranks differ");
  for (size_t k = 0; k < idx.size(); ++k) {
    if (static_cast<int64_t>(k) == axis || !known(idx[k]) || !known(data[k])) continue;
    if (idx[k] > data[k])
      fail(input(idxIn) + " has shape " + shapeToString(idx) + ": its dim " + std::to_string(k) + " (" +
           std::to_string(idx[k]) + ") exceeds dim " + std::to_string(k) + " (" + std::to_string(data[k]) + ") of " +
           input(dataIn) + " with shape " + shapeToString(data) + "; only axis " + std::to_string(axis) +
           " may be larger");
  }
}

void IndexChecker::sameShape(size_t aIn, const std::vector<int64_t>& a, size_t bIn,
                             const std::vector<int64_t>& b) const {
  bool same = a.size() == b.size();
  for (size_t k = 0; same && k < a.size(); ++k) same = !known(a[k]) || !known(b[k]) || a[k] == b[k];
  if (!same)
    fail(input(bIn) + " has shape " + shapeToString(b) + " but " + input(aIn) + " has shape " + shapeToString(a) +
         "; they must be equal");
}

void IndexChecker::gatherNDShape(size_t dataIn, const std::vector<int64_t>& data, size_t idxIn,
                                 const std::vector<int64_t>& idx, int64_t b) const {
  const int64_t r = static_cast<int64_t>(data.size()), q = static_cast<int64_t>(idx.size());
  if (q < 1) fail(input(idxIn) + " must have rank >= 1, got shape " + shapeToString(idx));
  if (r < 1) fail(input(dataIn) + " must have rank >= 1, got shape " + shapeToString(data));
  if (b < 0 || b >= q || b >= r)
    fail("batch_dims " + std::to_string(b) + " must be in [0, " + std::to_string(std::min(q, r)) + ") for " +
         input(dataIn) + " with shape " + shapeToString(data) + " and " + input(idxIn) + " with shape " +
         shapeToString(idx));
  for (int64_t k = 0; k < b; ++k)
    if (known(idx[k]) && known(data[k]) && idx[k] != data[k])
      fail(input(idxIn) + " has shape " + shapeToString(idx) + " but " + input(dataIn) + " has shape " +
           shapeToString(data) + ": batch dim " + std::to_string(k) + " differs (" + std::to_string(idx[k]) +
           " vs " + std::to_string(data[k]) + ")");
  const int64_t last = idx[q - 1];
  if (known(last) && (last < 1 || last > r - b))
    fail(input(idxIn) + " with shape " + shapeToString(idx) + " indexes " + std::to_string(last) +
         " dims after batch_dims " + std::to_string(b) + " but " + input(dataIn) + " has shape " + shapeToString(data) +
         "; its last dim must be in [1, " + std::to_string(r - b) + "]");
}

void IndexChecker::scatterNDShape(size_t dataIn, const std::vector<int64_t>& data, size_t idxIn,
                                  const std::vector<int64_t>& idx, size_t updIn, const std::vector<int64_t>& upd) const {
  const int64_t r = static_cast<int64_t>(data.size()), q = static_cast<int64_t>(idx.size());
  if (q < 1) fail(input(idxIn) + " must have rank >= 1, got shape " + shapeToString(idx));
  const int64_t last = idx[q - 1];
  if (!known(last)) return;
  if (last > r)
    fail(input(idxIn) + " with shape " + shapeToString(idx) + " indexes " + std::to_string(last) + " dims but " +
         input(dataIn) + " has shape " + shapeToString(data));
  std::vector<int64_t> want(idx.begin(), idx.end() - 1);
  want.insert(want.end(), data.begin() + last, data.end());
  bool same = want.size() == upd.size();
  for (size_t k = 0; same && k < want.size(); ++k) same = !known(want[k]) || !known(upd[k]) || want[k] == upd[k];
  if (!same)
    fail(input(updIn) + " has shape " + shapeToString(upd) + " but " + input(idxIn) + " with shape " +
         shapeToString(idx) + " and " + input(dataIn) + " with shape " + shapeToString(data) + " need " +
         shapeToString(want));
}

void IndexChecker::badIndex(int64_t value, int64_t flat, const std::vector<int64_t>& idxShape, size_t idxIn,
                            size_t dataIn, const std::vector<int64_t>& dataShape, int64_t axis) const {
  const int64_t d = dataShape[axis];
  fail(input(idxIn) + " holds index " + std::to_string(value) + " at " + positionOf(flat, idxShape) +
       ", out of range [" + std::to_string(-d) + ", " + std::to_string(d - 1) + "] for axis " + std::to_string(axis) +
       " of " + input(dataIn) + " with shape " + shapeToString(dataShape));
}

void IndexChecker::normalize(const Tensor& indices, size_t idxIn, size_t dataIn, const std::vector<int64_t>& dataShape,
                             int64_t axis, std::vector<int64_t>& out) const {
  if (axis < 0 || axis >= static_cast<int64_t>(dataShape.size()))
    fail("axis " + std::to_string(axis) + " is out of range for " + input(dataIn) + " with shape " +
         shapeToString(dataShape));
  const int64_t d = dataShape[axis];
  out.resize(static_cast<size_t>(indices.numel()));
  int64_t* o = out.data();
  forEachIndex(indices, [&](int64_t i, int64_t v) {
    if (v < -d || v >= d) badIndex(v, i, indices.shape(), idxIn, dataIn, dataShape, axis);
    o[i] = v < 0 ? v + d : v;
  });
}

void IndexChecker::normalizeTuples(const Tensor& indices, size_t idxIn, size_t dataIn,
                                   const std::vector<int64_t>& dataShape, int64_t firstAxis,
                                   std::vector<int64_t>& out) const {
  if (indices.rank() < 1) fail(input(idxIn) + " must have rank >= 1");
  const int64_t last = indices.dim(indices.rank() - 1);
  if (firstAxis < 0 || last < 0 || firstAxis + last > static_cast<int64_t>(dataShape.size()))
    fail(input(idxIn) + " with shape " + shapeToString(indices.shape()) + " indexes " + std::to_string(last) +
         " dims from dim " + std::to_string(firstAxis) + " of " + input(dataIn) + " with shape " +
         shapeToString(dataShape));
  out.resize(static_cast<size_t>(indices.numel()));
  int64_t* o = out.data();
  forEachIndex(indices, [&](int64_t i, int64_t v) {
    const int64_t axis = firstAxis + i % last;
    const int64_t d = dataShape[axis];
    if (v < -d || v >= d) badIndex(v, i, indices.shape(), idxIn, dataIn, dataShape, axis);
    o[i] = v < 0 ? v + d : v;
  });
}

void IndexChecker::inRange(int64_t value, int64_t lo, int64_t hi, const std::string& what,
                           const std::string& why) const {
  if (value < lo || value > hi)
    fail(what + " is " + std::to_string(value) + ", out of range [" + std::to_string(lo) + ", " + std::to_string(hi) +
         "]" + why);
}

}  // namespace oinfer::shape
