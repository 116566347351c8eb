#include "shape/infer_context.h"

namespace oinfer::shape {

const ValueInfo& InferContext::input(size_t i) const {
  if (!hasInput(i))
    fail(ErrorCode::kInvalidModel, "required input " + std::to_string(i) + " is missing");
  return *inputs_[i];
}

const Shape& InferContext::inputShape(size_t i) const {
  const ValueInfo& v = input(i);
  if (!v.hasShape)
    fail("input " + std::to_string(i) + " ('" + node_.inputs[i] + "') has unknown rank");
  return v.shape;
}

void InferContext::setOutput(size_t i, DataType dtype, Shape shape) {
  if (i >= outputs_.size()) return;  // optional output not requested
  outputs_[i].kind = ValueKind::kTensor;
  outputs_[i].dtype = dtype;
  outputs_[i].hasShape = true;
  for (auto& d : shape)
    if (!d.isStatic() && d.symbol.empty()) d = freshDim();
  outputs_[i].shape = std::move(shape);
  outputSet_[i] = true;
}

void InferContext::setOutputUnknownShape(size_t i, DataType dtype) {
  if (i >= outputs_.size()) return;
  outputs_[i].kind = ValueKind::kTensor;
  outputs_[i].dtype = dtype;
  outputs_[i].hasShape = false;
  outputs_[i].shape.clear();
  outputSet_[i] = true;
}

void InferContext::setOutputInfo(size_t i, const ValueInfo& info) {
  if (i >= outputs_.size()) return;
  std::string keep = outputs_[i].name;
  outputs_[i] = info;
  outputs_[i].name = std::move(keep);
  outputSet_[i] = true;
}

void InferContext::setOutputValue(size_t i, Tensor value) {
  if (i >= outputs_.size()) return;
  outputValues_[i] = std::move(value);
}

void InferContext::setOutputSymbolicValue(size_t i, std::vector<Dim> dims) {
  if (i >= outputs_.size()) return;
  outputSymValues_[i] = std::move(dims);
}

void InferContext::fail(const std::string& msg) const { fail(ErrorCode::kShapeMismatch, msg); }

void InferContext::fail(ErrorCode code, const std::string& msg) const {
  throw Error(code, node_.describe() + ": " + msg);
}

Shape broadcast(InferContext& ctx, const Shape& a, const Shape& b) {
  const size_t r = std::max(a.size(), b.size());
  Shape out(r);
  for (size_t k = 0; k < r; ++k) {
    const Dim* da = k + a.size() >= r ? &a[k + a.size() - r] : nullptr;
    const Dim* db = k + b.size() >= r ? &b[k + b.size() - r] : nullptr;
    if (!da) { out[k] = *db; continue; }
    if (!db) { out[k] = *da; continue; }
    if (*da == *db) { out[k] = *da; continue; }
    if (da->isStatic() && da->value == 1) { out[k] = *db; continue; }
    if (db->isStatic() && db->value == 1) { out[k] = *da; continue; }
    if (da->isStatic() && db->isStatic())
      ctx.fail("cannot broadcast shapes " + shapeToString(a) + " and " + shapeToString(b) +
               " (dimension " + std::to_string(k) + ": " + std::to_string(da->value) + " vs " +
               std::to_string(db->value) + ")");
    // A static dim other than 1 against a symbol: the symbol must equal it.
    if (da->isStatic()) { out[k] = *da; continue; }
    if (db->isStatic()) { out[k] = *db; continue; }
    out[k] = ctx.freshDim();  // two different symbols: unknown relation
  }
  return out;
}

int64_t normalizeAxis(const InferContext& ctx, int64_t axis, int64_t rank, bool allowEnd) {
  const int64_t hi = allowEnd ? rank + 1 : rank;
  int64_t a = axis < 0 ? axis + hi : axis;
  if (a < 0 || a >= hi)
    ctx.fail(ErrorCode::kInvalidModel, "axis " + std::to_string(axis) + " is out of range for rank " +
                                           std::to_string(rank));
  return a;
}

void propagateUnary(InferContext& ctx) {
  const ValueInfo& in = ctx.input(0);
  if (in.hasShape)
    ctx.setOutput(0, in.dtype, in.shape);
  else
    ctx.setOutputUnknownShape(0, in.dtype);
}

Dim dimProduct(InferContext& ctx, const std::vector<Dim>& dims) {
  int64_t p = 1;
  for (const auto& d : dims) {
    if (!d.isStatic()) return dims.size() == 1 ? d : ctx.freshDim();
    p *= d.value;
  }
  return Dim(p);
}

}  // namespace oinfer::shape
