// A plugin that defines ai.onnx::Relu without CustomOp::overrideBuiltin:
// loading works, a session with it is refused.
#include <oinfer/custom_op.h>

namespace {
void registerOps(oinfer::CustomOpSet& set) {
  oinfer::CustomOp relu;
  relu.opType = "Relu";
  relu.shape = [](oinfer::CustomShapeContext& ctx) { ctx.setOutput(0, ctx.inputType(0), ctx.inputShape(0)); };
  relu.kernel = [](const oinfer::CustomKernelInit&) {
    return oinfer::makeCustomKernel([](oinfer::CustomKernelContext&) {});
  };
  set.add(relu);
}
}  // namespace

OINFER_CUSTOM_OPS_PLUGIN(registerOps)
