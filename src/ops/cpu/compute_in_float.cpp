#include "ops/cpu/compute_in_float.h"

#include <memory>
#include <string>
#include <type_traits>

namespace oinfer::cpu {

namespace {

bool isHalf(DataType t) { return t == DataType::kFloat16 || t == DataType::kBFloat16; }

Tensor widen(const Tensor& t) {
  Tensor f(DataType::kFloat, t.shape());
  float* o = f.data<float>();
  if (t.dtype() == DataType::kFloat16)
    for (int64_t i = 0; i < t.numel(); ++i) o[i] = static_cast<float>(t.data<Float16>()[i]);
  else
    for (int64_t i = 0; i < t.numel(); ++i) o[i] = static_cast<float>(t.data<BFloat16>()[i]);
  return f;
}

void narrow(const Tensor& f, Tensor& out) {
  const float* s = f.data<float>();
  if (out.dtype() == DataType::kFloat16)
    for (int64_t i = 0; i < f.numel(); ++i) out.data<Float16>()[i] = Float16(s[i]);
  else
    for (int64_t i = 0; i < f.numel(); ++i) out.data<BFloat16>()[i] = BFloat16(s[i]);
}

// Float views of the plan-time types and constants, kept alive with the kernel
// (KernelInit only lends pointers).
struct WideInit {
  std::vector<ValueInfo> inputs, outputs;
  std::vector<Tensor> consts;
};

// The float kernel run on widened tensors by `f`; reports its algorithm.
template <class F>
std::unique_ptr<Kernel> makeWideKernel(std::shared_ptr<Kernel> inner, F&& f) {
  struct WideKernel final : Kernel {
    WideKernel(std::shared_ptr<Kernel> k, F&& fn) : inner(std::move(k)), fn(std::forward<F>(fn)) {}
    std::string algorithm() const override { return inner->algorithm(); }
    void run(KernelContext& ctx) override { fn(ctx); }
    std::shared_ptr<Kernel> inner;
    std::decay_t<F> fn;
  };
  return std::make_unique<WideKernel>(std::move(inner), std::forward<F>(f));
}

}  // namespace

KernelFactory computeInFloat(KernelFactory inner) {
  return [inner](const KernelInit& init) -> std::unique_ptr<Kernel> {
    bool half = false;
    for (const ValueInfo* v : init.inputs) half |= v && isHalf(v->dtype);
    if (!half) return inner(init);

    auto st = std::make_shared<WideInit>();
    st->inputs.resize(init.inputs.size());
    st->consts.resize(init.inputs.size());
    st->outputs.resize(init.outputs.size());
    KernelInit wide{init.node, init.opset, {}, {}, {}};
    wide.pool = init.pool;  // the float kernel sizes its per-thread scratch for it
    for (size_t i = 0; i < init.inputs.size(); ++i) {
      const ValueInfo* v = init.inputs[i];
      const Tensor* c = init.constInput(i);
      if (v && isHalf(v->dtype)) {
        st->inputs[i] = *v;
        st->inputs[i].dtype = DataType::kFloat;
        v = &st->inputs[i];
        if (c) {
          st->consts[i] = widen(*c);
          c = &st->consts[i];
        }
      }
      wide.inputs.push_back(v);
      wide.constInputs.push_back(c);
    }
    for (size_t i = 0; i < init.outputs.size(); ++i) {
      const ValueInfo* v = init.outputs[i];
      if (v && isHalf(v->dtype)) {
        st->outputs[i] = *v;
        st->outputs[i].dtype = DataType::kFloat;
        v = &st->outputs[i];
      }
      wide.outputs.push_back(v);
    }
    std::shared_ptr<Kernel> k = inner(wide);
    // The float kernel's scratch requests are this kernel's: the runtime
    // lays out init's, and the ids the inner kernel holds index them (init
    // is fresh, so they line up).
    if (!init.scratch.empty()) init.fail("computeInFloat: scratch was requested before the float kernel was made");
    init.scratch = wide.scratch;
    return makeWideKernel(k, [k, st](KernelContext& ctx) {
      std::vector<Tensor> ins(ctx.numInputs()), outs(ctx.numOutputs());
      KernelContext c = ctx;
      for (size_t i = 0; i < ctx.numInputs(); ++i)
        if (ctx.hasInput(i) && isHalf(ctx.input(i).dtype())) {
          ins[i] = widen(ctx.input(i));
          c.inputs_[i] = &ins[i];
        }
      for (size_t i = 0; i < ctx.numOutputs(); ++i) {
        if (!ctx.hasOutput(i) || !isHalf(ctx.outputTypes_[i])) continue;
        const Tensor& planned = *ctx.outputs_[i];
        if (planned.defined()) outs[i] = Tensor(DataType::kFloat, planned.shape());
        c.outputs_[i] = &outs[i];
        c.outputTypes_[i] = DataType::kFloat;
      }
      k->run(c);
      for (size_t i = 0; i < ctx.numOutputs(); ++i) {
        if (!ctx.hasOutput(i) || !isHalf(ctx.outputTypes_[i])) continue;
        Tensor& out = ctx.allocateOutput(i, outs[i].shape());
        narrow(outs[i], out);
      }
    });
  };
}

}  // namespace oinfer::cpu
