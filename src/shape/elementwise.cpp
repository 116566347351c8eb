#include "shape/elementwise.h"

#include <string>

namespace oinfer::shape {

namespace {

std::string inputLabel(const InferContext& ctx, size_t i) {
  return "input " + std::to_string(i) + " ('" + ctx.node().inputs[i] + "')";
}

// The shared broadcast helper names the shapes; add which inputs they are.
Shape broadcastInputs(InferContext& ctx, const Shape& a, size_t ia, const Shape& b, size_t ib) {
  try {
    return broadcast(ctx, a, b);
  } catch (const Error& e) {
    throw Error(e.code(), std::string(e.what()) + " between " + inputLabel(ctx, ia) + " and " +
                              inputLabel(ctx, ib));
  }
}

void checkSameType(const InferContext& ctx, size_t i, size_t j) {
  if (ctx.inputType(i) != ctx.inputType(j))
    ctx.fail(ErrorCode::kTypeMismatch, inputLabel(ctx, i) + " is " + dataTypeName(ctx.inputType(i)) +
                                           " but " + inputLabel(ctx, j) + " is " +
                                           dataTypeName(ctx.inputType(j)));
}

// Broadcast shape of inputs 0 and 1 with the legacy rule applied; false when
// a rank is unknown.
bool binaryShape(InferContext& ctx, Shape& out) {
  if (!ctx.hasShape(0) || !ctx.hasShape(1)) return false;
  const Shape& a = ctx.inputShape(0);
  const int64_t axis = legacyBroadcastAxis(ctx.node(), ctx.opset(), a.size(), ctx.inputShape(1).size());
  out = broadcastInputs(ctx, a, 0, legacyExpand(ctx.inputShape(1), a.size(), axis), 1);
  return true;
}

void setBinaryOutput(InferContext& ctx, DataType dtype) {
  Shape s;
  if (binaryShape(ctx, s))
    ctx.setOutput(0, dtype, std::move(s));
  else
    ctx.setOutputUnknownShape(0, dtype);
}

// One element of Add/Sub/Mul/Div on shape values. Identities keep the
// symbol; anything else unknown gets a fresh one.
bool combineDim(InferContext& ctx, char op, const Dim& a, const Dim& b, Dim& out) {
  if (a.isStatic() && b.isStatic()) {
    switch (op) {
      case '+': out = Dim(a.value + b.value); break;
      case '-': out = Dim(a.value - b.value); break;
      case '*': out = Dim(a.value * b.value); break;
      default:
        if (b.value == 0) return false;
        out = Dim(a.value / b.value);
    }
    // A negative result is not a dim; keep it only as a plain number.
    return out.value >= 0;
  }
  const bool bIdentity = b.isStatic() && b.value == (op == '*' || op == '/' ? 1 : 0);
  const bool aIdentity = a.isStatic() && a.value == (op == '*' ? 1 : 0) && (op == '*' || op == '+');
  if (bIdentity) out = a;
  else if (aIdentity) out = b;
  else if (op == '*' && ((a.isStatic() && a.value == 0) || (b.isStatic() && b.value == 0))) out = Dim(0);
  else if (op == '-' && a == b) out = Dim(0);
  else if (op == '/' && a == b) out = Dim(1);
  else out = ctx.freshDim();
  return true;
}

void propagateArithmetic(InferContext& ctx) {
  const std::vector<Dim>* a = ctx.inputSymbolicValue(0);
  const std::vector<Dim>* b = ctx.inputSymbolicValue(1);
  if (!a || !b || ctx.inputType(0) != DataType::kInt64) return;
  if (!ctx.hasShape(0) || !ctx.hasShape(1) || ctx.inputShape(0).size() > 1 || ctx.inputShape(1).size() > 1)
    return;
  const std::string& op = ctx.node().opType;
  const char c = op == "Add" ? '+' : op == "Sub" ? '-' : op == "Mul" ? '*' : '/';
  const size_t n = a->size() == 1 ? b->size() : a->size();
  if ((a->size() != n && a->size() != 1) || (b->size() != n && b->size() != 1)) return;
  std::vector<Dim> out(n);
  for (size_t k = 0; k < n; ++k)
    if (!combineDim(ctx, c, (*a)[a->size() == 1 ? 0 : k], (*b)[b->size() == 1 ? 0 : k], out[k])) return;
  ctx.setOutputSymbolicValue(0, std::move(out));
}

}  // namespace

int64_t legacyBroadcastAxis(const Node& node, int64_t opset, size_t rankA, size_t rankB) {
  if (opset >= 7 || node.attrInt("broadcast", 0) == 0 || rankB >= rankA) return -1;
  int64_t axis = node.attrInt("axis", static_cast<int64_t>(rankA - rankB));
  if (axis < 0) axis += static_cast<int64_t>(rankA);
  if (axis < 0 || axis + static_cast<int64_t>(rankB) > static_cast<int64_t>(rankA))
    throw Error(ErrorCode::kInvalidModel, node.describe() + ": broadcast axis " + std::to_string(axis) +
                                              " does not fit input 1 of rank " + std::to_string(rankB) +
                                              " into input 0 of rank " + std::to_string(rankA));
  return axis;
}

void inferBinary(InferContext& ctx) {
  checkSameType(ctx, 0, 1);
  setBinaryOutput(ctx, ctx.inputType(0));
}

void inferBinaryMixed(InferContext& ctx) { setBinaryOutput(ctx, ctx.inputType(0)); }

void inferArithmetic(InferContext& ctx) {
  inferBinary(ctx);
  propagateArithmetic(ctx);
}

void inferCompare(InferContext& ctx) {
  checkSameType(ctx, 0, 1);
  setBinaryOutput(ctx, DataType::kBool);
}

void inferVariadic(InferContext& ctx) {
  if (ctx.numInputs() == 0) ctx.fail(ErrorCode::kInvalidModel, "needs at least one input");
  bool known = true;
  Shape out;
  for (size_t i = 0; i < ctx.numInputs(); ++i) {
    checkSameType(ctx, 0, i);
    if (!ctx.hasShape(i)) { known = false; continue; }
    out = i == 0 ? ctx.inputShape(0) : broadcastInputs(ctx, out, 0, ctx.inputShape(i), i);
  }
  if (known) ctx.setOutput(0, ctx.inputType(0), std::move(out));
  else ctx.setOutputUnknownShape(0, ctx.inputType(0));
}

void inferWhere(InferContext& ctx) {
  if (ctx.inputType(0) != DataType::kBool)
    ctx.fail(ErrorCode::kTypeMismatch, inputLabel(ctx, 0) + " must be bool, not " + dataTypeName(ctx.inputType(0)));
  checkSameType(ctx, 1, 2);
  if (!ctx.hasShape(0) || !ctx.hasShape(1) || !ctx.hasShape(2)) {
    ctx.setOutputUnknownShape(0, ctx.inputType(1));
    return;
  }
  Shape s = broadcastInputs(ctx, ctx.inputShape(1), 1, ctx.inputShape(2), 2);
  s = broadcastInputs(ctx, ctx.inputShape(0), 0, s, 1);
  ctx.setOutput(0, ctx.inputType(1), std::move(s));
}

void inferUnaryToBool(InferContext& ctx) {
  if (ctx.hasShape(0)) ctx.setOutput(0, DataType::kBool, ctx.inputShape(0));
  else ctx.setOutputUnknownShape(0, DataType::kBool);
}

}  // namespace oinfer::shape
