#include <cmath>
#include <set>
#include <unordered_map>

#include "passes/pass_util.h"
#include "passes/passes.h"

namespace oinfer::passes {

namespace {

const Tensor* floatInit(const ir::Graph& g, const std::string& name) {
  auto it = g.initializers.find(name);
  return it != g.initializers.end() && it->second.dtype() == DataType::kFloat ? &it->second : nullptr;
}

std::string freshName(const ir::Graph& g, const std::string& base) {
  std::string n = base;
  for (int i = 1; g.initializers.count(n) || g.findValue(n); ++i) n = base + "_" + std::to_string(i);
  return n;
}

}  // namespace

int foldConvBatchNorm(ir::Graph& g, const PassContext&) {
  std::unordered_map<std::string, int> readers;
  for (const Node& n : g.nodes)
    for (const auto& i : n.inputs)
      if (!i.empty()) ++readers[i];
  std::set<std::string> graphOutputs;
  for (const auto& o : g.outputs) graphOutputs.insert(o.name);
  std::unordered_map<std::string, size_t> producer;
  for (size_t i = 0; i < g.nodes.size(); ++i)
    for (const auto& o : g.nodes[i].outputs)
      if (!o.empty()) producer[o] = i;

  std::vector<bool> drop(g.nodes.size(), false);
  std::set<std::string> replaced;  // initializers the folded nodes read
  int folded = 0;
  for (size_t bi = 0; bi < g.nodes.size(); ++bi) {
    Node& bn = g.nodes[bi];
    if (bn.opType != "BatchNormalization" || !bn.domain.empty() || bn.inputs.size() != 5) continue;
    if (bn.attrInt("training_mode", 0) != 0 || bn.attrInt("spatial", 1) != 1) continue;
    bool extraOutputs = false;
    for (size_t k = 1; k < bn.outputs.size(); ++k) extraOutputs |= !bn.outputs[k].empty();
    if (extraOutputs) continue;
    auto p = producer.find(bn.inputs[0]);
    if (p == producer.end()) continue;
    Node& conv = g.nodes[p->second];
    if (conv.opType != "Conv" || !conv.domain.empty() || conv.outputs.size() != 1) continue;
    if (readers[conv.outputs[0]] != 1 || graphOutputs.count(conv.outputs[0])) continue;
    const Tensor* w = conv.inputs.size() > 1 ? floatInit(g, conv.inputs[1]) : nullptr;
    const Tensor* b = conv.inputs.size() > 2 && !conv.inputs[2].empty() ? floatInit(g, conv.inputs[2]) : nullptr;
    const bool hasBias = conv.inputs.size() > 2 && !conv.inputs[2].empty();
    const Tensor* scale = floatInit(g, bn.inputs[1]);
    const Tensor* bias = floatInit(g, bn.inputs[2]);
    const Tensor* mean = floatInit(g, bn.inputs[3]);
    const Tensor* var = floatInit(g, bn.inputs[4]);
    if (!w || (hasBias && !b) || !scale || !bias || !mean || !var || w->rank() < 2) continue;
    const int64_t oc = w->dim(0);
    auto perChannel = [oc](const Tensor* t) { return t->rank() == 1 && t->dim(0) == oc; };
    if (!perChannel(scale) || !perChannel(bias) || !perChannel(mean) || !perChannel(var) || (b && !perChannel(b)))
      continue;

    const float eps = bn.attrFloat("epsilon", 1e-5f);
    const int64_t per = w->numel() / oc;
    Tensor nw(DataType::kFloat, w->shape());
    Tensor nb(DataType::kFloat, {oc});
    for (int64_t o = 0; o < oc; ++o) {
      // Double for the per-channel factor: W' is then within one float rounding of the exact product.
      const double s = static_cast<double>(scale->data<float>()[o]) /
                       std::sqrt(static_cast<double>(var->data<float>()[o]) + eps);
      for (int64_t k = 0; k < per; ++k)
        nw.data<float>()[o * per + k] = static_cast<float>(w->data<float>()[o * per + k] * s);
      const double b0 = b ? b->data<float>()[o] : 0.0;
      nb.data<float>()[o] = static_cast<float>((b0 - mean->data<float>()[o]) * s + bias->data<float>()[o]);
    }
    for (const auto& i : conv.inputs) replaced.insert(i);
    for (const auto& i : bn.inputs) replaced.insert(i);
    const std::string wName = freshName(g, conv.name + "_bn_folded_W");
    const std::string bName = freshName(g, conv.name + "_bn_folded_B");
    g.initializers[wName] = nw;
    g.initializers[bName] = nb;
    conv.inputs.resize(3);
    conv.inputs[1] = wName;
    conv.inputs[2] = bName;
    g.valueInfo.erase(conv.outputs[0]);
    conv.outputs[0] = bn.outputs[0];
    drop[bi] = true;
    ++folded;
  }
  if (!folded) return 0;
  std::vector<Node> kept;
  kept.reserve(g.nodes.size());
  for (size_t i = 0; i < g.nodes.size(); ++i)
    if (!drop[i]) kept.push_back(std::move(g.nodes[i]));
  g.nodes = std::move(kept);
  // Drop the unfolded weights and BN parameters that nothing reads any more.
  std::set<std::string> used;
  for (const Node& n : g.nodes) util::addReads(n, used);
  for (const auto& o : g.outputs) used.insert(o.name);
  for (const auto& name : replaced)
    if (!used.count(name)) g.initializers.erase(name);
  return folded;
}

}  // namespace oinfer::passes
