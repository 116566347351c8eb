// LinearAttention (opset 27): the recurrent form, one token at a time.
//
// Each (batch, kv head) owns a d_k x d_v state S, kept in float in the
// present_state output itself. Per token: S *= exp(g) (gated rules, per head
// or per key row), u = v - S^T k scaled by beta (delta rules; else u = v),
// S += k u^T, then every query head of the kv head's group reads
// o = scale * q^T S. Steps are O(d_k d_v) each, so T tokens cost
// O(T d_k d_v) per head without the chunked (WY) form, which only changes
// speed, not results. Half inputs arrive widened to float (computeInFloat),
// which is also the reference's accumulation type.
#include <cmath>
#include <string>
#include <vector>

#include "ops/cpu/compute_in_float.h"
#include "ops/registry.h"

namespace oinfer::cpu {

namespace {

struct LinearAttentionAttrs {
  int64_t hq = 0, hkv = 0;
  float scale = 0;
  bool gated = false, delta = false;
};

std::string shapeOf(const Tensor& t) { return shapeToString(t.shape()); }

std::string describe(const KernelContext& ctx, size_t i) {
  return "input " + std::to_string(i) + " ('" + ctx.node().inputs[i] + "') of shape " + shapeOf(ctx.input(i));
}

void runLinearAttention(KernelContext& ctx, const LinearAttentionAttrs& a) {
  const Tensor& q = ctx.input(0);
  const Tensor& k = ctx.input(1);
  const Tensor& v = ctx.input(2);
  for (size_t i = 0; i < 3; ++i)
    if (ctx.input(i).rank() != 3) ctx.fail(describe(ctx, i) + " must be 3-d [B, T, heads*head_size]");
  const int64_t B = q.dim(0), T = q.dim(1), hq = a.hq, hkv = a.hkv, group = hq / hkv;
  if (q.dim(2) % hq != 0 || v.dim(2) % hkv != 0)
    ctx.fail(describe(ctx, q.dim(2) % hq != 0 ? 0 : 2) + " has a last dim not divisible by its head count");
  const int64_t dk = q.dim(2) / hq, dv = v.dim(2) / hkv;
  if (k.dim(0) != B || k.dim(1) != T || k.dim(2) != hkv * dk || v.dim(0) != B || v.dim(1) != T)
    ctx.fail("key of shape " + shapeOf(k) + " and value of shape " + shapeOf(v) + " do not match query of shape " +
             shapeOf(q) + " with q_num_heads " + std::to_string(hq) + " and kv_num_heads " + std::to_string(hkv));
  const std::vector<int64_t> stateShape = {B, hkv, dk, dv};
  const float* past = nullptr;
  if (ctx.hasInput(3)) {
    if (ctx.input(3).shape() != stateShape)
      ctx.fail(describe(ctx, 3) + " must be " + shapeToString(stateShape));
    past = ctx.input(3).data<float>();
  }
  const float* decay = nullptr;
  bool perKey = false;
  if (a.gated) {
    const Tensor& g = ctx.input(4);
    const int64_t last = g.rank() == 3 ? g.dim(2) : -1;
    if (g.rank() != 3 || g.dim(0) != B || g.dim(1) != T || (last != hkv && last != hkv * dk))
      ctx.fail(describe(ctx, 4) + " must be [" + std::to_string(B) + "," + std::to_string(T) + "," +
               std::to_string(hkv) + "] or [" + std::to_string(B) + "," + std::to_string(T) + "," +
               std::to_string(hkv * dk) + "]");
    perKey = last != hkv;  // a per-head decay wins when d_k == 1 makes both read the same
    decay = g.data<float>();
  }
  const float* beta = nullptr;
  int64_t betaLast = 0;
  if (a.delta) {
    const Tensor& be = ctx.input(5);
    betaLast = be.rank() == 3 ? be.dim(2) : -1;
    if (be.rank() != 3 || be.dim(0) != B || be.dim(1) != T || (betaLast != hkv && betaLast != 1))
      ctx.fail(describe(ctx, 5) + " must be [" + std::to_string(B) + "," + std::to_string(T) + "," +
               std::to_string(hkv) + "] or [" + std::to_string(B) + "," + std::to_string(T) + ",1]");
    beta = be.data<float>();
  }
  const float scale = a.scale != 0.f ? a.scale : static_cast<float>(1.0 / std::sqrt(static_cast<double>(dk)));

  std::vector<float> scratch;
  float* state = nullptr;
  if (ctx.hasOutput(1)) {
    state = ctx.output(1).data<float>();
  } else {
    scratch.resize(static_cast<size_t>(B * hkv * dk * dv));
    state = scratch.data();
  }
  const float* qp = q.data<float>();
  const float* kp = k.data<float>();
  const float* vp = v.data<float>();
  float* out = ctx.output(0).data<float>();

  ctx.pool().parallelFor(B * hkv, [&](int64_t w0, int64_t w1) {
    std::vector<float> u(static_cast<size_t>(dv));
    for (int64_t w = w0; w < w1; ++w) {
      const int64_t b = w / hkv, h = w % hkv;
      float* s = state + w * dk * dv;
      for (int64_t i = 0; i < dk * dv; ++i) s[i] = past ? past[w * dk * dv + i] : 0.f;
      for (int64_t t = 0; t < T; ++t) {
        const int64_t tok = b * T + t;
        const float* kt = kp + (tok * hkv + h) * dk;
        const float* vt = vp + (tok * hkv + h) * dv;
        if (decay) {
          const float* g = perKey ? decay + (tok * hkv + h) * dk : decay + tok * hkv + h;
          for (int64_t d = 0; d < dk; ++d) {
            const float e = std::exp(g[perKey ? d : 0]);
            float* row = s + d * dv;
            for (int64_t m = 0; m < dv; ++m) row[m] *= e;
          }
        }
        if (beta) {
          // S^T k is read from the (already decayed) state before the write.
          const float bt = beta[tok * betaLast + (betaLast == 1 ? 0 : h)];
          for (int64_t m = 0; m < dv; ++m) u[m] = 0.f;
          for (int64_t d = 0; d < dk; ++d) {
            const float* row = s + d * dv;
            for (int64_t m = 0; m < dv; ++m) u[m] += row[m] * kt[d];
          }
          for (int64_t m = 0; m < dv; ++m) u[m] = bt * (vt[m] - u[m]);
        } else {
          for (int64_t m = 0; m < dv; ++m) u[m] = vt[m];
        }
        for (int64_t d = 0; d < dk; ++d) {
          float* row = s + d * dv;
          for (int64_t m = 0; m < dv; ++m) row[m] += kt[d] * u[m];
        }
        for (int64_t gi = 0; gi < group; ++gi) {
          const int64_t qh = h * group + gi;
          const float* qt = qp + (tok * hq + qh) * dk;
          float* o = out + (tok * hq + qh) * dv;
          for (int64_t m = 0; m < dv; ++m) o[m] = 0.f;
          for (int64_t d = 0; d < dk; ++d) {
            const float* row = s + d * dv;
            for (int64_t m = 0; m < dv; ++m) o[m] += qt[d] * row[m];
          }
          for (int64_t m = 0; m < dv; ++m) o[m] *= scale;
        }
      }
    }
  }, 1);
}

std::unique_ptr<Kernel> makeLinearAttentionFloat(const KernelInit& init) {
  LinearAttentionAttrs a;
  a.hq = init.node.attrInt("q_num_heads", 0);
  a.hkv = init.node.attrInt("kv_num_heads", 0);
  if (a.hq <= 0 || a.hkv <= 0 || a.hq % a.hkv != 0)
    init.fail("q_num_heads (" + std::to_string(a.hq) + ") must be a positive multiple of kv_num_heads (" +
              std::to_string(a.hkv) + ")");
  a.scale = init.node.attrFloat("scale", 0.f);
  const std::string rule = init.node.attrString("update_rule", "gated_delta");
  if (rule != "linear" && rule != "gated" && rule != "delta" && rule != "gated_delta")
    init.fail("update_rule must be 'linear', 'gated', 'delta' or 'gated_delta', got '" + rule + "'");
  a.gated = rule == "gated" || rule == "gated_delta";
  a.delta = rule == "delta" || rule == "gated_delta";
  if (a.gated != init.hasInput(4))
    init.fail("update_rule '" + rule + "' " + (a.gated ? "requires" : "forbids") + " the decay input (input 4)");
  if (a.delta != init.hasInput(5))
    init.fail("update_rule '" + rule + "' " + (a.delta ? "requires" : "forbids") + " the beta input (input 5)");
  for (size_t i = 0; i < init.inputs.size(); ++i)
    if (init.inputs[i] && init.inputs[i]->dtype != DataType::kFloat)
      init.fail("input " + std::to_string(i) + " has unsupported type " + dataTypeName(init.inputs[i]->dtype));
  return makeKernel([a](KernelContext& ctx) { runLinearAttention(ctx, a); });
}

}  // namespace

KernelFactory linearAttentionKernel() { return computeInFloat(makeLinearAttentionFloat); }

}  // namespace oinfer::cpu
