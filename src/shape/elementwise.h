// Shape functions of the elementwise family (arithmetic, math, comparison,
// logic, Where) and the helpers other broadcasting families can reuse.
#pragma once

#include <cstdint>
#include <vector>

#include "shape/infer_context.h"

namespace oinfer::shape {

// Opsets before 7 broadcast input 1 only when the node says `broadcast=1`,
// aligning it at `axis` of input 0 (suffix-aligned when axis is absent).
// Returns that axis, or -1 when numpy rules apply.
int64_t legacyBroadcastAxis(const Node& node, int64_t opset, size_t rankA, size_t rankB);

// Input 1's shape padded with 1s so numpy broadcasting reproduces the legacy
// alignment at `axis` (see legacyBroadcastAxis).
template <class D>
std::vector<D> legacyExpand(const std::vector<D>& b, size_t rankA, int64_t axis) {
  if (axis < 0) return b;
  std::vector<D> out(static_cast<size_t>(axis), D(1));
  out.insert(out.end(), b.begin(), b.end());
  while (out.size() < rankA) out.push_back(D(1));
  return out;
}

// Output 0: input 0's type, the broadcast of inputs 0 and 1 (legacy form
// included). Inputs must share one type.
void inferBinary(InferContext& ctx);
// inferBinary without the same-type check (Pow: base and exponent may differ).
void inferBinaryMixed(InferContext& ctx);
// inferBinary plus propagation of symbolic shape values (Add, Sub, Mul, Div).
void inferArithmetic(InferContext& ctx);
// Comparisons: the broadcast shape, bool output.
void inferCompare(InferContext& ctx);
// Max, Min, Sum, Mean: any number of inputs broadcast together.
void inferVariadic(InferContext& ctx);
// Where(cond, X, Y): three-way broadcast, X's type.
void inferWhere(InferContext& ctx);
// IsNaN, IsInf: input 0's shape, bool output.
void inferUnaryToBool(InferContext& ctx);

}  // namespace oinfer::shape
