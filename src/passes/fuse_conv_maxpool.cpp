// Stem + max-pool fusion (runs after fuseConvActivation): an image stem
// Conv whose output only a MaxPool reads becomes one ai.oinfer
// FusedConvMaxPool node:
//   X -> [Fused]Conv (+ bias, activation) -> S -> MaxPool (2x2 or 3x3, stride 2) -> Y
// SqueezeNet's and ResNet's first layers. S is the network's largest
// tensor (3.2 MB at 224 x 224 with 64 channels) and was written out only to
// be read back by the pool; the kernel computes a band of S's rows for 8
// channels into a per-thread buffer and pools it there
// (src/ops/cpu/conv_maxpool.cpp), so S never exists whole.
//
// Taken when: the Conv is float32 with at most 4 input channels (an image
// stem: the pixel-vector kernel's shapes), one group, no dilation, equal
// strides of 1 or 2, no residual input and an activation other than Gelu;
// its weights (and bias) are float32 initializers; S is 4-d with static
// spatial dims and rows of at least 16, read by nothing else and not a
// graph output; the MaxPool is 2-d with a 2x2 or 3x3 window, strides 2,
// no dilation, and no Indices output.
//
// FusedConvMaxPool's inputs: X, W, B (optional). Attributes: the Conv's
// (kernel_shape, strides, pads, dilations, auto_pad, group, activation,
// activation_params) and the MaxPool's window prefixed with pool_
// (pool_kernel_shape, pool_strides, pool_pads, pool_dilations,
// pool_auto_pad, pool_ceil_mode).
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "passes/pass_util.h"
#include "passes/passes.h"

namespace oinfer::passes {

namespace {

constexpr int64_t kMaxStemChannels = 4;
constexpr int64_t kMinRow = 16;

bool hasInput(const Node& n, size_t i) { return i < n.inputs.size() && !n.inputs[i].empty(); }

bool allEqual(const std::vector<int64_t>& v, int64_t x) {
  for (int64_t e : v)
    if (e != x) return false;
  return true;
}

bool isStem(const ir::Graph& g, const Node& n) {
  const bool conv =
      (n.opType == "Conv" && n.domain.empty()) || (n.opType == "FusedConv" && n.domain == util::kInternalDomain);
  if (!conv || n.outputs.size() != 1 || hasInput(n, 3) || !hasInput(n, 1)) return false;
  auto w = g.initializers.find(n.inputs[1]);
  if (w == g.initializers.end() || w->second.dtype() != DataType::kFloat || w->second.rank() != 4) return false;
  if (w->second.dim(1) > kMaxStemChannels) return false;
  if (hasInput(n, 2)) {
    auto b = g.initializers.find(n.inputs[2]);
    if (b == g.initializers.end() || b->second.dtype() != DataType::kFloat || b->second.rank() != 1) return false;
  }
  if (n.attrInt("group", 1) != 1 || !allEqual(n.attrInts("dilations", {}), 1)) return false;
  const std::vector<int64_t> s = n.attrInts("strides", {1, 1});
  if (s.size() != 2 || s[0] != s[1] || (s[0] != 1 && s[0] != 2)) return false;
  return n.attrString("activation", "") != "Gelu";
}

bool isStridedMaxPool(const Node& n) {
  if (!util::isOp(n, "MaxPool") || n.outputs.empty() || (n.outputs.size() > 1 && !n.outputs[1].empty())) return false;
  const std::vector<int64_t> k = n.attrInts("kernel_shape", {});
  if (k.size() != 2 || k[0] != k[1] || (k[0] != 2 && k[0] != 3)) return false;
  return n.attrInts("strides", {}) == std::vector<int64_t>{2, 2} && allEqual(n.attrInts("dilations", {}), 1);
}

}  // namespace

int fuseConvMaxPool(ir::Graph& g, const PassContext& ctx) {
  return util::fusePairs(
      g, ctx, [&](const Node& n) { return isStem(g, n); },
      [&](const Node& cv, const Node& mp, const Shape& ss) -> std::optional<Node> {
        if (ss[3].value < kMinRow || !isStridedMaxPool(mp)) return std::nullopt;
        Node f = util::internalNode("FusedConvMaxPool", cv.name.empty() ? mp.name : cv.name + "+" + mp.name);
        f.inputs = {cv.inputs[0], cv.inputs[1], hasInput(cv, 2) ? cv.inputs[2] : std::string()};
        f.outputs = {mp.outputs[0]};
        f.attributes = cv.attributes;  // kernel_shape, strides, pads, dilations, auto_pad, group, activation(_params)
        for (const Attribute& a : mp.attributes) {
          if (a.name == "storage_order") continue;  // only shapes the Indices output, which there is none of
          Attribute c = a;
          c.name = "pool_" + a.name;
          f.attributes.push_back(c);
        }
        return f;
      },
      "MaxPool");
}

}  // namespace oinfer::passes
