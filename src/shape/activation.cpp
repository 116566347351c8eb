#include "shape/activation.h"

namespace oinfer::shape {

void inferPRelu(InferContext& ctx) {
  if (ctx.inputType(0) != ctx.inputType(1))
    ctx.fail(ErrorCode::kTypeMismatch, std::string("slope (input 1 '") + ctx.node().inputs[1] + "') is " +
                                           dataTypeName(ctx.inputType(1)) + " but X is " +
                                           dataTypeName(ctx.inputType(0)));
  propagateUnary(ctx);
  if (!ctx.hasShape(0) || !ctx.hasShape(1)) return;
  const Shape& x = ctx.inputShape(0);
  const Shape& s = ctx.inputShape(1);
  // Before opset 7 a 1-d slope of length C broadcast over the channel axis.
  if (ctx.opset() < 7 && s.size() == 1 && x.size() >= 3 && (s[0] == x[1] || !s[0].isStatic() || !x[1].isStatic()))
    return;
  bool ok = s.size() <= x.size();
  for (size_t k = 0; ok && k < s.size(); ++k) {
    const Dim& ds = s[k];
    const Dim& dx = x[k + x.size() - s.size()];
    ok = (ds.isStatic() && ds.value == 1) || !ds.isStatic() || !dx.isStatic() || ds == dx;
  }
  if (!ok)
    ctx.fail("slope (input 1 '" + ctx.node().inputs[1] + "') of shape " + shapeToString(s) +
             " does not broadcast to X (input 0 '" + ctx.node().inputs[0] + "') of shape " + shapeToString(x));
}

}  // namespace oinfer::shape
