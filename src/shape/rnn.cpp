#include "shape/rnn.h"

#include <string>

namespace oinfer::shape {

void inferRnn(InferContext& ctx) {
  const DataType dtype = ctx.inputType(0);
  const std::string& op = ctx.node().opType;
  const int64_t gates = op == "LSTM" ? 4 : op == "GRU" ? 3 : 1;
  const std::string direction = ctx.node().attrString("direction", "forward");
  if (direction != "forward" && direction != "reverse" && direction != "bidirectional")
    ctx.fail("direction must be 'forward', 'reverse' or 'bidirectional', got '" + direction + "'");
  const int64_t numDir = direction == "bidirectional" ? 2 : 1;
  const int64_t layout = ctx.opset() >= 14 ? ctx.node().attrInt("layout", 0) : 0;
  if (layout != 0 && layout != 1) ctx.fail("layout must be 0 or 1, got " + std::to_string(layout));

  Dim seq = ctx.freshDim(), batch = ctx.freshDim(), hidden = ctx.freshDim();
  if (ctx.hasShape(0)) {
    const Shape& x = ctx.inputShape(0);
    if (x.size() != 3)
      ctx.fail("input 0 ('" + ctx.node().inputs[0] + "') must have rank 3, got " + shapeToString(x));
    seq = x[layout == 0 ? 0 : 1];
    batch = x[layout == 0 ? 1 : 0];
  }
  if (ctx.hasShape(1)) {
    const Shape& w = ctx.inputShape(1);
    if (w.size() != 3)
      ctx.fail("input 1 ('" + ctx.node().inputs[1] + "') must have rank 3, got " + shapeToString(w));
    if (w[0].isStatic() && w[0].value != numDir)
      ctx.fail("input 1 ('" + ctx.node().inputs[1] + "') has shape " + shapeToString(w) + ", expected dim 0 = " +
               std::to_string(numDir) + " for direction '" + direction + "'");
  }
  if (ctx.node().hasAttr("hidden_size")) {
    hidden = Dim(ctx.node().attrInt("hidden_size", 0));
  } else if (ctx.hasShape(2) && ctx.inputShape(2).size() == 3) {
    hidden = ctx.inputShape(2)[2];
  } else if (ctx.hasShape(1) && ctx.inputShape(1)[1].isStatic()) {
    hidden = Dim(ctx.inputShape(1)[1].value / gates);
  }
  const Dim nd(numDir);
  if (ctx.numOutputs() > 0)
    ctx.setOutput(0, dtype, layout == 0 ? Shape{seq, nd, batch, hidden} : Shape{batch, seq, nd, hidden});
  const Shape state = layout == 0 ? Shape{nd, batch, hidden} : Shape{batch, nd, hidden};
  for (size_t i = 1; i < ctx.numOutputs(); ++i) ctx.setOutput(i, dtype, state);
}

}  // namespace oinfer::shape
