// Expand + depthwise fusion (runs after fuseConvActivation): a 1x1 Conv
// whose output is read only by a depthwise Conv becomes one ai.oinfer
// FusedConvDepthwise node:
//   X -> [Fused]Conv 1x1 (+ bias, activation) -> E -> [Fused]Conv depthwise (+ bias, activation) -> Y
// the head of MobileNetV2's and EfficientNet's inverted-residual blocks. E,
// the block's widest tensor, then never exists whole: the kernel expands a
// band of rows at a time into a per-thread buffer and runs the depthwise
// on it (src/ops/cpu/conv_expand_dw.cpp).
//
// Taken when: the 1x1 Conv is float32, has stride 1, no padding, no
// dilation, one group, no residual input and an activation other than Gelu;
// the depthwise Conv has one input channel per group and a multiplier of 1,
// no residual input, a 2-d kernel; both weights (and biases) are float32
// initializers; E is read by nothing else and is not a graph output; and
// E's inferred planes are at least 28 x 28. On smaller planes the separate
// kernels measured faster (the depthwise's 16-channel transposes there
// already keep E in cache).
//
// FusedConvDepthwise's inputs: X, W (the 1x1 weights), B (optional), W_dw,
// B_dw (optional). Attributes: activation / activation_params (the 1x1's),
// dw_activation / dw_activation_params, and the depthwise Conv's window
// attributes (kernel_shape, strides, pads, dilations, auto_pad, group).
#include <optional>
#include <string>
#include <vector>

#include "passes/pass_util.h"
#include "passes/passes.h"

namespace oinfer::passes {

namespace {

constexpr int64_t kMinPlane = 28;

bool isConv(const Node& n) {
  return (n.opType == "Conv" && n.domain.empty()) || (n.opType == "FusedConv" && n.domain == util::kInternalDomain);
}

bool hasInput(const Node& n, size_t i) { return i < n.inputs.size() && !n.inputs[i].empty(); }

// A float32 initializer of rank `rank` (any shape when rank < 0).
const Tensor* floatInit(const ir::Graph& g, const Node& n, size_t i, int64_t rank) {
  if (!hasInput(n, i)) return nullptr;
  auto it = g.initializers.find(n.inputs[i]);
  if (it == g.initializers.end() || it->second.dtype() != DataType::kFloat) return nullptr;
  if (rank >= 0 && int64_t(it->second.rank()) != rank) return nullptr;
  return &it->second;
}

bool allEqual(const std::vector<int64_t>& v, int64_t x) {
  for (int64_t e : v)
    if (e != x) return false;
  return true;
}

// The 1x1 expand: stride 1, no padding or dilation, one group, no residual.
bool isExpand(const ir::Graph& g, const Node& n) {
  if (!isConv(n) || n.outputs.size() != 1 || hasInput(n, 3)) return false;
  const Tensor* w = floatInit(g, n, 1, 4);
  if (!w || w->dim(2) != 1 || w->dim(3) != 1) return false;
  if (hasInput(n, 2) && !floatInit(g, n, 2, 1)) return false;
  if (n.attrInt("group", 1) != 1) return false;
  if (!allEqual(n.attrInts("strides", {}), 1) || !allEqual(n.attrInts("dilations", {}), 1) ||
      !allEqual(n.attrInts("pads", {}), 0))
    return false;
  const std::string autoPad = n.attrString("auto_pad", "NOTSET");
  if (autoPad != "NOTSET" && autoPad != "VALID") return false;
  return n.attrString("activation", "") != "Gelu";
}

// The depthwise reader: 2-d, group == channels, multiplier 1, no residual.
bool isDepthwise(const ir::Graph& g, const Node& n, int64_t channels) {
  if (!isConv(n) || n.outputs.size() != 1 || hasInput(n, 3)) return false;
  const Tensor* w = floatInit(g, n, 1, 4);
  if (!w || w->dim(0) != channels || w->dim(1) != 1) return false;
  if (hasInput(n, 2) && !floatInit(g, n, 2, 1)) return false;
  return n.attrInt("group", 1) == channels;
}

}  // namespace

int fuseConvDepthwise(ir::Graph& g, const PassContext& ctx) {
  const bool blockedLayout = ctx.blockedLayout;
  // Where the plan will keep E in the blocked layout (16k channels), the
  // expand writes it blocked and the blocked depthwise kernel reads it:
  // faster than the fused NCHW kernel (TUNING.md, Runtime; these blocks'
  // E: 96-240 channels on 112x112 to 28x28).
  return util::fusePairs(
      g, ctx, [&](const Node& n) { return isExpand(g, n); },
      [&](const Node& ex, const Node& dw, const Shape& es) -> std::optional<Node> {
        if (es[2].value < kMinPlane || es[3].value < kMinPlane) return std::nullopt;
        const int64_t channels = g.initializers.at(ex.inputs[1]).dim(0);
        if (!isDepthwise(g, dw, channels)) return std::nullopt;
        if (blockedLayout && channels % 16 == 0 && dw.attrString("activation", "") != "Gelu") return std::nullopt;
        Node f = util::internalNode("FusedConvDepthwise", ex.name.empty() ? dw.name : ex.name + "+" + dw.name);
        f.inputs = {ex.inputs[0], ex.inputs[1], hasInput(ex, 2) ? ex.inputs[2] : std::string(), dw.inputs[1],
                    hasInput(dw, 2) ? dw.inputs[2] : std::string()};
        f.outputs = dw.outputs;
        for (const Attribute& a : dw.attributes) {
          if (a.name == "activation" || a.name == "activation_params") {
            Attribute c = a;
            c.name = "dw_" + a.name;
            f.attributes.push_back(c);
          } else {
            f.attributes.push_back(a);  // kernel_shape, strides, pads, dilations, auto_pad, group
          }
        }
        for (const Attribute& a : ex.attributes)
          if (a.name == "activation" || a.name == "activation_params") f.attributes.push_back(a);
        return f;
      });
}

}  // namespace oinfer::passes
