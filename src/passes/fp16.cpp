// The fp16 rewrite (SessionOptions::fp16): see passes.h, convertToFloat16.
#include <spdlog/spdlog.h>

#include <set>

#include "passes/pass_util.h"

namespace oinfer::passes {

namespace {

constexpr int64_t kOnnxFloat = 1, kOnnxFloat16 = 10;

Tensor toHalf(const Tensor& t) {
  Tensor h(DataType::kFloat16, t.shape());
  const float* s = t.data<float>();
  Float16* d = h.data<Float16>();
  for (int64_t i = 0; i < t.numel(); ++i) d[i] = Float16(s[i]);
  return h;
}

// (op, input index) pairs whose type the spec fixes to float32.
bool floatOnlyInput(const Node& n, size_t i) {
  if (n.opType == "Resize") return i == 1 || i == 2;
  if (n.opType == "Upsample") return i == 1;
  if (n.opType == "QuantizeLinear" || n.opType == "DequantizeLinear" || n.opType == "DynamicQuantizeLinear")
    return i >= 1;
  return false;
}

}  // namespace

int convertToFloat16(ir::Graph& g, const PassContext&) {
  for (const Node& n : g.nodes)
    for (const Attribute& a : n.attributes)
      if (a.type == AttrType::kGraph || a.type == AttrType::kGraphs) {
        spdlog::warn("fp16: the graph has subgraphs; it runs in float32");
        return 0;
      }

  std::set<std::string> keepFloat;
  for (const Node& n : g.nodes)
    for (size_t i = 0; i < n.inputs.size(); ++i)
      if (!n.inputs[i].empty() && floatOnlyInput(n, i)) keepFloat.insert(n.inputs[i]);

  for (auto& [name, t] : g.initializers)
    if (t.dtype() == DataType::kFloat && !keepFloat.count(name)) t = toHalf(t);

  for (Node& n : g.nodes) {
    const bool keep = !n.outputs.empty() && keepFloat.count(n.outputs[0]);
    if (keep) continue;
    for (Attribute& a : n.attributes) {
      if (n.opType == "Cast" && a.name == "to" && a.i == kOnnxFloat) a.i = kOnnxFloat16;
      if ((n.opType == "Constant" || n.opType == "ConstantOfShape") && a.name == "value" &&
          a.type == AttrType::kTensor && a.t.dtype() == DataType::kFloat)
        a.t = toHalf(a.t);
      if (n.opType == "Constant" && (a.name == "value_float" || a.name == "value_floats")) {
        Tensor v = a.name == "value_float" ? Tensor::scalar<float>(a.f)
                                           : Tensor::fromVector<float>({static_cast<int64_t>(a.floats.size())}, a.floats);
        a.name = "value";
        a.type = AttrType::kTensor;
        a.t = toHalf(v);
      }
    }
  }

  auto rename = [&](const std::string& from, const std::string& to) {
    for (Node& n : g.nodes)
      for (auto& i : n.inputs)
        if (i == from) i = to;
  };
  auto castNode = [](const std::string& in, const std::string& out, int64_t to) {
    Node c;
    c.name = out + "_cast";
    c.opType = "Cast";
    c.inputs = {in};
    c.outputs = {out};
    c.attributes.push_back(passes::util::intAttr("to", to));
    return c;
  };
  std::vector<Node> front, back;
  for (const ValueInfo& in : g.inputs) {
    if (in.dtype != DataType::kFloat || keepFloat.count(in.name)) continue;
    const std::string h = in.name + "__fp16";
    rename(in.name, h);
    front.push_back(castNode(in.name, h, kOnnxFloat16));
  }
  for (const ValueInfo& out : g.outputs) {
    if (out.dtype != DataType::kFloat) continue;
    const std::string h = out.name + "__fp16";
    bool produced = false;
    for (Node& n : g.nodes)
      for (auto& o : n.outputs)
        if (o == out.name) {
          o = h;
          produced = true;
        }
    if (!produced) continue;
    rename(out.name, h);
    back.push_back(castNode(h, out.name, kOnnxFloat));
  }
  g.nodes.insert(g.nodes.begin(), front.begin(), front.end());
  g.nodes.insert(g.nodes.end(), back.begin(), back.end());
  // Declared intermediate types are float32 ones: let inference redo them.
  g.valueInfo.clear();
  return 1;
}

}  // namespace oinfer::passes
