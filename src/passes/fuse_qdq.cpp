// QDQ to integer ops. A model quantized in the QDQ format (onnxruntime's
// quantize_static, TensorRT-style exports) writes each quantized op as
//   DequantizeLinear(x) + DequantizeLinear(W const) [+ DequantizeLinear(b int32)]
//     -> Conv | MatMul | Gemm [-> Relu | Clip] -> QuantizeLinear -> y
// Run as written, DQ(W) folds into a float32 copy of the weights (4x the
// bytes) and the op runs in float. This pass rewrites each such group into
// one QLinearConv or QLinearMatMul that reads x and the int8 initializer of
// W directly and writes y, so the weights stay int8 and the op runs on
// integers:
//   Conv   -> QLinearConv (bias: the DQ's int32 initializer when its scale is
//             x_scale * w_scale, else requantized to that scale; a float32
//             constant bias is quantized to it)
//   MatMul -> QLinearMatMul (W 2-d, per-tensor or per-column)
//   Gemm   -> QLinearMatMul without bias and transB = 0; else
//             Reshape [M,K,1,1] -> QLinearConv 1x1 -> Reshape [M,N], so the
//             bias stays exact (int32 in the accumulator)
// A Relu or Clip between the op and the Q is dropped when the Q's saturation
// already does it exactly (Q is monotone, so Q(clip(v, lo, hi)) = clamp(Q(v),
// Q(lo), Q(hi)); the Clip is a no-op when Q(lo) is the type's minimum and
// Q(hi) its maximum: Relu with zero point at the minimum, Relu6 with scale
// 6/255); otherwise the group stays in float.
//
// Data movement ops between a DQ and a Q of the same scale and zero point
// (Reshape, Flatten, Squeeze, Unsqueeze, Transpose, Slice, MaxPool, Concat
// when every input has those parameters) run on the quantized data instead:
// Q(op(DQ(x))) = op(x) exactly, since they only move or select values.
//
// Numbers. The reference computes the op in float on dequantized values and
// rounds once in the Q (half to even, saturating). The integer op sums
// exactly and rounds acc * (x_scale * w_scale / y_scale) the same way; the
// two differ only where the float sum's rounding error or the multiplier's
// lands on the other side of a .5 boundary: at most one quantization step,
// on few elements. A bias requantized to x_scale * w_scale adds at most half
// an accumulator unit (a tiny fraction of a step).
//
// Left alone (the float path stays, which is correct): a weight or any scale
// or zero point that is not a constant; scales that are not float32;
// activation types other than int8 / uint8 (int16, int4, float8); blocked
// quantization (block_size); per-channel activations; weights quantized
// along another axis than the output channels; an op output read by
// anything but its Q; Gemm with transA or alpha / beta other than 1;
// ConvTranspose (no integer ONNX op takes it). A DQ whose output other nodes
// read too stays for them. Add / Mul and AveragePool / GlobalAveragePool stay
// in float between their DQs and Q: the registry has no integer form of them
// (com.microsoft's QLinearAdd / QLinearGlobalAveragePool are not in it).
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "passes/pass_util.h"
#include "passes/passes.h"

namespace oinfer::passes {

namespace {

using util::GraphIndex;

bool has(const Node& n, size_t i) { return i < n.inputs.size() && !n.inputs[i].empty(); }

bool isInt8(DataType t) { return t == DataType::kInt8 || t == DataType::kUInt8; }

int qmin(DataType t) { return t == DataType::kInt8 ? -128 : 0; }
int qmax(DataType t) { return t == DataType::kInt8 ? 127 : 255; }

int zeroAt(const Tensor& z, int64_t i) {
  return z.dtype() == DataType::kInt8 ? z.data<int8_t>()[i] : z.data<uint8_t>()[i];
}

// The quantization parameters of one DequantizeLinear or QuantizeLinear.
struct QParams {
  std::string data;   // DQ: the quantized input; Q: the float input
  std::string scale;  // name of the float32 scale constant
  std::string zp;     // name of the zero-point constant ("" when absent)
  const Tensor* s = nullptr;
  const Tensor* z = nullptr;
  DataType type = DataType::kUndefined;  // the quantized type
  int64_t axis = 1;
};

// Parses node `n` (a DQ or Q in the default domain) when it is one this pass
// handles: constant float32 scale, constant int8 / uint8 zero point of the
// scale's shape (or none), no block quantization.
std::optional<QParams> qparams(const ir::Graph& g, const GraphIndex& idx, const Node& n) {
  if (!n.domain.empty() || n.inputs.size() < 2 || n.outputs.size() != 1) return std::nullopt;
  if (n.attrInt("block_size", 0) != 0) return std::nullopt;
  QParams p;
  p.data = n.inputs[0];
  p.scale = n.inputs[1];
  p.s = util::constant(g, idx, p.scale);
  if (!p.s || p.s->dtype() != DataType::kFloat || p.s->rank() > 1 || p.s->numel() < 1) return std::nullopt;
  for (int64_t i = 0; i < p.s->numel(); ++i)
    if (!(p.s->data<float>()[i] > 0.f) || !std::isfinite(p.s->data<float>()[i])) return std::nullopt;
  const bool quantize = n.opType == "QuantizeLinear";
  const int64_t outType = n.attrInt("output_dtype", 0);
  if (has(n, 2)) {
    p.zp = n.inputs[2];
    p.z = util::constant(g, idx, p.zp);
    if (!p.z || !isInt8(p.z->dtype()) || p.z->numel() != p.s->numel()) return std::nullopt;
    p.type = p.z->dtype();
    if (quantize && outType != 0 && outType != static_cast<int64_t>(p.type)) return std::nullopt;
  } else if (quantize) {
    p.type = outType == 0 ? DataType::kUInt8 : static_cast<DataType>(outType);
  } else {
    p.type = util::dtypeOf(g, p.data);
  }
  if (!isInt8(p.type)) return std::nullopt;
  if (!quantize) {
    // Opset 23 lets DQ write float16 / bfloat16; this pass makes float32 only.
    const int64_t od = n.attrInt("output_dtype", 0);
    if (od != 0 && od != static_cast<int64_t>(DataType::kFloat)) return std::nullopt;
    if (util::dtypeOf(g, p.data) != p.type) return std::nullopt;
  }
  p.axis = n.attrInt("axis", 1);
  return p;
}

// The DQ producing `v`, parsed; nullopt when `v` has no such producer.
std::optional<QParams> dqOf(const ir::Graph& g, const GraphIndex& idx, const std::string& v) {
  const int p = idx.producerOf(v, "DequantizeLinear");
  if (p < 0) return std::nullopt;
  return qparams(g, idx, g.nodes[p]);
}

// The Q reading `v` as its only reader, parsed, with its index.
std::optional<std::pair<int, QParams>> qOf(const ir::Graph& g, const GraphIndex& idx, const std::string& v) {
  const int r = util::onlyReader(g, idx, v, "QuantizeLinear");
  if (r < 0 || g.nodes[r].inputs[0] != v) return std::nullopt;
  auto p = qparams(g, idx, g.nodes[r]);
  if (!p) return std::nullopt;
  return std::make_pair(r, *p);
}

bool perTensor(const QParams& p) { return p.s->numel() == 1; }

// Two parameter sets that quantize identically.
bool sameParams(const QParams& a, const QParams& b) {
  if (!perTensor(a) || !perTensor(b) || a.type != b.type) return false;
  const int za = a.z ? zeroAt(*a.z, 0) : 0, zb = b.z ? zeroAt(*b.z, 0) : 0;
  return a.s->data<float>()[0] == b.s->data<float>()[0] && za == zb;
}

// Q of one float value, as QuantizeLinear computes it.
int quantizeOne(float v, const QParams& q) {
  const double r = std::nearbyint(static_cast<double>(v / q.s->data<float>()[0])) + (q.z ? zeroAt(*q.z, 0) : 0);
  return static_cast<int>(std::clamp(r, double(qmin(q.type)), double(qmax(q.type))));
}

// Adds constant `t` under a name derived from `base`, unused so far.
std::string addConst(ir::Graph& g, const std::string& base, Tensor t) {
  std::string name = base;
  for (int k = 1; g.initializers.count(name) || g.findValue(name); ++k) name = base + "_" + std::to_string(k);
  g.initializers[name] = std::move(t);
  return name;
}

// The zero point's name, made (a scalar 0 of the type) when the node had none.
std::string zpName(ir::Graph& g, const QParams& p, const std::string& base) {
  if (!p.zp.empty()) return p.zp;
  Tensor z(p.type, {});
  if (p.type == DataType::kInt8) z.data<int8_t>()[0] = 0;
  else z.data<uint8_t>()[0] = 0;
  return addConst(g, base + "_zero_point", std::move(z));
}

// The activation between the op and its Q: nothing, or a Relu / Clip that the
// Q's saturation makes a no-op. Returns the value the Q reads (the
// activation's output) and the activation's node index (-1 when none);
// nullopt when the activation changes the result or `v` is read elsewhere.
struct Tail {
  int act = -1;
  int q = -1;
  QParams qp;
};
std::optional<Tail> tailOf(const ir::Graph& g, const GraphIndex& idx, const std::string& v) {
  Tail t;
  std::string last = v;
  const int r = util::onlyReader(g, idx, v);
  if (r < 0) return std::nullopt;
  const Node& a = g.nodes[r];
  if (util::isOp(a, "Relu") || util::isOp(a, "Clip")) {
    if (a.inputs.empty() || a.inputs[0] != v || a.outputs.size() != 1) return std::nullopt;
    t.act = r;
    last = a.outputs[0];
  }
  auto q = qOf(g, idx, last);
  if (!q || !perTensor(q->second)) return std::nullopt;
  t.q = q->first;
  t.qp = q->second;
  if (t.act < 0) return t;
  const Node& a2 = g.nodes[t.act];
  float lo = -std::numeric_limits<float>::infinity(), hi = std::numeric_limits<float>::infinity();
  if (a2.opType == "Relu") {
    lo = 0.f;
  } else if (g.opset() < 11) {
    lo = a2.attrFloat("min", lo);
    hi = a2.attrFloat("max", hi);
  } else {
    if (has(a2, 1) && !util::scalarConst(g, idx, a2.inputs[1], lo)) return std::nullopt;
    if (has(a2, 2) && !util::scalarConst(g, idx, a2.inputs[2], hi)) return std::nullopt;
  }
  const bool loFree = std::isinf(lo) || quantizeOne(lo, t.qp) == qmin(t.qp.type);
  const bool hiFree = std::isinf(hi) || quantizeOne(hi, t.qp) == qmax(t.qp.type);
  if (!loFree || !hiFree) return std::nullopt;
  return t;
}

// The weights' DQ: a constant int8 / uint8 W of rank `rank`, quantized per
// tensor or along `channelAxis` (size `channels`).
std::optional<QParams> weightsOf(const ir::Graph& g, const GraphIndex& idx, const std::string& v, size_t rank,
                                 int64_t channelAxis) {
  auto w = dqOf(g, idx, v);
  if (!w) return std::nullopt;
  const Tensor* t = util::constant(g, idx, w->data);
  if (!t || !isInt8(t->dtype()) || t->rank() != rank) return std::nullopt;
  if (perTensor(*w)) return w;
  const int64_t axis = w->axis < 0 ? w->axis + int64_t(rank) : w->axis;
  if (axis != channelAxis || w->s->rank() != 1 || w->s->numel() != t->dim(size_t(channelAxis))) return std::nullopt;
  return w;
}

// The int32 bias of QLinearConv for `m` output channels at scale x_scale *
// w_scale[c]: the DQ's own int32 initializer when its scale is exactly that
// and its zero point 0, else the bias requantized or quantized from float.
// "" when the bias is not a constant or does not fit int32.
std::string biasFor(ir::Graph& g, const GraphIndex& idx, const std::string& b, const QParams& x, const QParams& w,
                    int64_t m, const std::string& base) {
  const float xs = x.s->data<float>()[0];
  auto ws = [&](int64_t c) { return w.s->data<float>()[perTensor(w) ? 0 : c]; };
  std::vector<double> real(static_cast<size_t>(m));
  const int p = idx.producerOf(b, "DequantizeLinear");
  if (p >= 0) {
    const Node& dq = g.nodes[p];
    if (dq.inputs.size() < 2 || dq.attrInt("block_size", 0) != 0) return "";
    const Tensor* bi = util::constant(g, idx, dq.inputs[0]);
    const Tensor* bs = util::constant(g, idx, dq.inputs[1]);
    const Tensor* bz = has(dq, 2) ? util::constant(g, idx, dq.inputs[2]) : nullptr;
    if (!bi || !bs || bi->dtype() != DataType::kInt32 || bs->dtype() != DataType::kFloat || bi->numel() != m)
      return "";
    if (has(dq, 2) && (!bz || bz->dtype() != DataType::kInt32 || bz->numel() != bs->numel())) return "";
    if (bs->numel() != 1 && bs->numel() != m) return "";
    bool exact = !bz;
    if (bz)
      for (int64_t c = 0; c < bz->numel(); ++c) exact = exact && bz->data<int32_t>()[c] == 0;
    for (int64_t c = 0; c < m; ++c) {
      const float s = bs->data<float>()[bs->numel() == 1 ? 0 : c];
      exact = exact && s == xs * ws(c);
      const int32_t zero = bz ? bz->data<int32_t>()[bz->numel() == 1 ? 0 : c] : 0;
      real[size_t(c)] = (double(bi->data<int32_t>()[c]) - zero) * s;
    }
    if (exact) return dq.inputs[0];
  } else {
    const Tensor* bf = util::constant(g, idx, b);
    if (!bf || bf->dtype() != DataType::kFloat || bf->numel() != m) return "";
    for (int64_t c = 0; c < m; ++c) real[size_t(c)] = bf->data<float>()[c];
  }
  Tensor q(DataType::kInt32, {m});
  for (int64_t c = 0; c < m; ++c) {
    const double v = std::nearbyint(real[size_t(c)] / (double(xs) * ws(c)));
    if (!(std::fabs(v) < 2147483647.0)) return "";
    q.data<int32_t>()[c] = static_cast<int32_t>(v);
  }
  return addConst(g, base + "_bias_q", std::move(q));
}

// The eight quantization inputs of QLinearConv / QLinearMatMul around the
// operands `a` and `b`.
std::vector<std::string> qlinearInputs(ir::Graph& g, const QParams& x, const QParams& w, const std::string& wData,
                                       const QParams& y, const std::string& base) {
  return {x.data, x.scale, zpName(g, x, base + "_x"), wData, w.scale, zpName(g, w, base + "_w"), y.scale,
          zpName(g, y, base + "_y")};
}

Node makeNode(const std::string& op, const std::string& name, std::vector<std::string> in,
              std::vector<std::string> out) {
  Node n;
  n.opType = op;
  n.name = name;
  n.inputs = std::move(in);
  n.outputs = std::move(out);
  return n;
}

// Conv -> QLinearConv. Returns false when the group does not qualify.
bool rewriteConv(ir::Graph& g, const GraphIndex& idx, size_t i, std::vector<bool>& drop) {
  const Node& c = g.nodes[i];
  if (c.inputs.size() < 2 || c.outputs.size() != 1) return false;
  auto x = dqOf(g, idx, c.inputs[0]);
  if (!x || !perTensor(*x)) return false;
  const Tensor* wt = nullptr;
  {
    const int p = idx.producerOf(c.inputs[1], "DequantizeLinear");
    if (p < 0 || g.nodes[p].inputs.empty()) return false;
    wt = util::constant(g, idx, g.nodes[p].inputs[0]);
  }
  if (!wt || wt->rank() < 3) return false;
  auto w = weightsOf(g, idx, c.inputs[1], wt->rank(), 0);
  if (!w) return false;
  auto tail = tailOf(g, idx, c.outputs[0]);
  if (!tail) return false;
  const std::string base = c.name;
  std::string bias;
  if (has(c, 2)) {
    bias = biasFor(g, idx, c.inputs[2], *x, *w, wt->dim(0), base);
    if (bias.empty()) return false;
  }
  Node q = makeNode("QLinearConv", base + "_quant", qlinearInputs(g, *x, *w, w->data, tail->qp, base),
                    {g.nodes[tail->q].outputs[0]});
  if (!bias.empty()) q.inputs.push_back(bias);
  for (const auto& a : c.attributes)
    if (a.name == "auto_pad" || a.name == "dilations" || a.name == "group" || a.name == "kernel_shape" ||
        a.name == "pads" || a.name == "strides")
      q.attributes.push_back(a);
  g.nodes[i] = std::move(q);
  drop[size_t(tail->q)] = true;
  if (tail->act >= 0) drop[size_t(tail->act)] = true;
  return true;
}

// MatMul(x, W [K,N]) -> QLinearMatMul.
bool rewriteMatMul(ir::Graph& g, const GraphIndex& idx, size_t i, std::vector<bool>& drop) {
  const Node& m = g.nodes[i];
  if (m.inputs.size() != 2 || m.outputs.size() != 1) return false;
  auto x = dqOf(g, idx, m.inputs[0]);
  if (!x || !perTensor(*x)) return false;
  auto w = weightsOf(g, idx, m.inputs[1], 2, 1);
  if (!w) return false;
  auto tail = tailOf(g, idx, m.outputs[0]);
  if (!tail) return false;
  const std::string base = m.name;
  Node q = makeNode("QLinearMatMul", base + "_quant", qlinearInputs(g, *x, *w, w->data, tail->qp, base),
                    {g.nodes[tail->q].outputs[0]});
  g.nodes[i] = std::move(q);
  drop[size_t(tail->q)] = true;
  if (tail->act >= 0) drop[size_t(tail->act)] = true;
  return true;
}

// Gemm(x [M,K], W, C) -> QLinearMatMul (no C, transB 0) or Reshape ->
// QLinearConv 1x1 -> Reshape. The new nodes take the Gemm's slot (in order,
// the pipeline re-sorts after the pass).
bool rewriteGemm(ir::Graph& g, const GraphIndex& idx, size_t i, std::vector<bool>& drop,
                 std::vector<std::pair<size_t, Node>>& extra) {
  const Node& m = g.nodes[i];
  if (m.inputs.size() < 2 || m.outputs.size() != 1) return false;
  if (m.attrInt("transA", 0) != 0 || m.attrFloat("alpha", 1.f) != 1.f || m.attrFloat("beta", 1.f) != 1.f)
    return false;
  if (util::rankOf(g, m.inputs[0]) != 2) return false;
  const bool transB = m.attrInt("transB", 0) != 0;
  auto x = dqOf(g, idx, m.inputs[0]);
  if (!x || !perTensor(*x)) return false;
  auto w = weightsOf(g, idx, m.inputs[1], 2, transB ? 0 : 1);
  if (!w) return false;
  const Tensor* wt = util::constant(g, idx, w->data);
  const int64_t K = wt->dim(transB ? 1 : 0), N = wt->dim(transB ? 0 : 1);
  const auto xs = util::shapeOf(g, m.inputs[0]);
  if (!xs || !(*xs)[1].isStatic() || (*xs)[1].value != K) return false;
  auto tail = tailOf(g, idx, m.outputs[0]);
  if (!tail) return false;
  const std::string base = m.name;
  const std::string out = g.nodes[tail->q].outputs[0];
  if (!has(m, 2) && !transB) {
    g.nodes[i] = makeNode("QLinearMatMul", base + "_quant", qlinearInputs(g, *x, *w, w->data, tail->qp, base), {out});
  } else {
    std::string bias;
    if (has(m, 2)) {
      // Only a bias of N values (the quantizer's form) maps onto QLinearConv's.
      const auto cs = util::shapeOf(g, m.inputs[2]);
      if (!cs || cs->empty() || (*cs)[cs->size() - 1] != Dim(N)) return false;
      for (size_t d = 0; d + 1 < cs->size(); ++d)
        if ((*cs)[d] != Dim(1)) return false;
      bias = biasFor(g, idx, m.inputs[2], *x, *w, N, base);
      if (bias.empty()) return false;
    }
    // W as [N, K, 1, 1]: the same int8 bytes when transB, else transposed.
    Tensor w4;
    if (transB) {
      w4 = wt->reshaped({N, K, 1, 1});
    } else {
      w4 = Tensor(wt->dtype(), {N, K, 1, 1});
      const auto* src = static_cast<const uint8_t*>(wt->data());
      auto* dst = static_cast<uint8_t*>(w4.data());
      for (int64_t k = 0; k < K; ++k)
        for (int64_t n = 0; n < N; ++n) dst[n * K + k] = src[k * N + n];
    }
    const std::string wName = addConst(g, w->data + "_nk11", std::move(w4));
    const std::string in4 = addConst(g, base + "_shape_in", Tensor::fromVector<int64_t>({4}, {0, K, 1, 1}));
    const std::string out2 = addConst(g, base + "_shape_out", Tensor::fromVector<int64_t>({2}, {0, N}));
    const std::string x4 = base + "_x4", y4 = base + "_y4";
    Node conv = makeNode("QLinearConv", base + "_quant", qlinearInputs(g, *x, *w, wName, tail->qp, base), {y4});
    if (!bias.empty()) conv.inputs.push_back(bias);
    extra.push_back({i, makeNode("Reshape", base + "_reshape_in", {x->data, in4}, {x4})});
    conv.inputs[0] = x4;
    extra.push_back({i, std::move(conv)});
    g.nodes[i] = makeNode("Reshape", base + "_reshape_out", {y4, out2}, {out});
  }
  drop[size_t(tail->q)] = true;
  if (tail->act >= 0) drop[size_t(tail->act)] = true;
  return true;
}

// DQ -> data-movement op -> Q of the same parameters: the op on x.
bool rewriteMove(ir::Graph& g, const GraphIndex& idx, size_t i, std::vector<bool>& drop) {
  Node& n = g.nodes[i];
  if (n.inputs.empty() || n.outputs.size() != 1) return false;
  const bool concat = n.opType == "Concat";
  if (n.opType == "MaxPool" && g.opset() < 12) return false;  // int8 MaxPool came in opset 12
  auto q = qOf(g, idx, n.outputs[0]);
  if (!q) return false;
  const size_t dataInputs = concat ? n.inputs.size() : 1;
  std::vector<std::string> xs;
  for (size_t k = 0; k < dataInputs; ++k) {
    auto x = dqOf(g, idx, n.inputs[k]);
    if (!x || !sameParams(*x, q->second)) return false;
    xs.push_back(x->data);
  }
  for (size_t k = 0; k < dataInputs; ++k) n.inputs[k] = xs[k];
  n.outputs[0] = g.nodes[size_t(q->first)].outputs[0];
  drop[size_t(q->first)] = true;
  return true;
}

bool isMove(const Node& n) {
  if (!n.domain.empty()) return false;
  for (const char* op : {"Reshape", "Flatten", "Squeeze", "Unsqueeze", "Transpose", "Slice", "MaxPool", "Concat"})
    if (n.opType == op) return true;
  return false;
}

}  // namespace

int fuseQdq(ir::Graph& g, const PassContext& ctx) {
  if (!util::anyOp(g, {"DequantizeLinear"}) || g.opset() < 10) return 0;
  if (!ctx.ensureShapes(g)) return 0;
  const GraphIndex idx(g);
  std::vector<bool> drop(g.nodes.size(), false);
  std::vector<std::pair<size_t, Node>> extra;  // nodes to insert before index
  int rewritten = 0;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    if (drop[i] || !g.nodes[i].domain.empty()) continue;
    const std::string& op = g.nodes[i].opType;
    bool done = false;
    if (op == "Conv") done = rewriteConv(g, idx, i, drop);
    else if (op == "MatMul") done = rewriteMatMul(g, idx, i, drop);
    else if (op == "Gemm") done = rewriteGemm(g, idx, i, drop, extra);
    else if (isMove(g.nodes[i])) done = rewriteMove(g, idx, i, drop);
    rewritten += done;
  }
  if (!rewritten) return 0;
  if (!extra.empty()) {
    std::vector<Node> nodes;
    std::vector<bool> keep;
    size_t e = 0;
    for (size_t i = 0; i < g.nodes.size(); ++i) {
      for (; e < extra.size() && extra[e].first == i; ++e) {
        nodes.push_back(std::move(extra[e].second));
        keep.push_back(false);
      }
      nodes.push_back(std::move(g.nodes[i]));
      keep.push_back(drop[i]);
    }
    g.nodes = std::move(nodes);
    drop = std::move(keep);
  }
  util::removeNodes(g, drop);
  util::removeDeadNodes(g);
  return rewritten;
}

}  // namespace oinfer::passes
