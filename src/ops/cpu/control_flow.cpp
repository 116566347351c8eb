// If, Loop and Scan: kernels that run subgraphs through runners the runtime
// makes (KernelInit::subgraphs), with the node's outer-scope values passed as
// implicit inputs after its own.
#include <algorithm>
#include <limits>

#include "ops/cpu/tensor_common.h"
#include "ops/cpu/value_copy.h"
#include "ops/registry.h"
#include "shape/control_flow.h"

namespace oinfer {

namespace cpu {

void addValueOp(Registry& r, const std::string& op, std::initializer_list<int> versions, shape::ShapeFn fn,
                KernelFactory factory, bool foldable) {
  for (int v : versions) {
    OpDef d;
    d.opType = op;
    d.sinceVersion = v;
    d.shape = fn;
    d.cpu = factory;
    d.types = tensor_ops::allTypes();
    d.deterministic = foldable;
    r.add(std::move(d));
  }
}

Tensor sliceAlong(const Tensor& src, int64_t axis, int64_t index) {
  std::vector<int64_t> shape = src.shape();
  const int64_t len = shape[axis];
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= shape[d];
  for (size_t d = axis + 1; d < shape.size(); ++d) inner *= shape[d];
  shape.erase(shape.begin() + axis);
  Tensor out(src.dtype(), shape);
  for (int64_t o = 0; o < outer; ++o) copyElements(src, (o * len + index) * inner, out, o * inner, inner);
  return out;
}

Tensor stackAlong(const std::vector<Tensor>& parts, int64_t axis, DataType dtype, const std::vector<int64_t>& elemShape) {
  std::vector<int64_t> shape = elemShape;
  shape.insert(shape.begin() + axis, static_cast<int64_t>(parts.size()));
  Tensor out(dtype, shape);
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= elemShape[d];
  for (size_t d = axis; d < elemShape.size(); ++d) inner *= elemShape[d];
  const int64_t len = static_cast<int64_t>(parts.size());
  for (int64_t i = 0; i < len; ++i)
    for (int64_t o = 0; o < outer; ++o) copyElements(parts[i], o * inner, out, (o * len + i) * inner, inner);
  return out;
}

void setOutputValue(KernelContext& ctx, size_t i, Value v) {
  if (!ctx.hasOutput(i)) return;
  if (!v.isTensor()) {
    ctx.outputValue(i) = std::move(v);
    return;
  }
  Tensor& out = *ctx.outputs_[i];
  if (!out.defined()) {
    out = std::move(v.tensor);
    return;
  }
  if (out.shape() != v.tensor.shape() || out.dtype() != v.tensor.dtype())
    ctx.fail("output " + std::to_string(i) + " ('" + ctx.node().outputs[i] + "') is " + v.describe() +
             ", the plan expected " + dataTypeName(out.dtype()) + " " + shapeToString(out.shape()));
  out.copyFrom(v.tensor);
}

}  // namespace cpu

namespace {

using cpu::setOutputValue;

std::vector<const Value*> implicitValues(const KernelContext& ctx) {
  std::vector<const Value*> out;
  for (size_t i = ctx.node().inputs.size(); i < ctx.numInputs(); ++i) out.push_back(&ctx.inputValue(i));
  return out;
}

std::unique_ptr<SubgraphRunner> runnerFor(const KernelInit& init, const char* attr) {
  if (!init.subgraphs) init.fail("needs the runtime to run its subgraphs");
  const ir::Graph* g = init.node.attrGraph(attr);
  if (!g) init.fail(std::string("attribute '") + attr + "' (a graph) is required");
  return (*init.subgraphs)(*g);
}

bool scalarBool(const KernelContext& ctx, size_t i, const char* what) {
  const Tensor& t = ctx.input(i);
  if (t.dtype() != DataType::kBool || t.numel() != 1)
    ctx.fail(std::string(what) + " must be a bool tensor with one element, got " + dataTypeName(t.dtype()) + " " +
             shapeToString(t.shape()));
  return *t.data<bool>();
}

std::unique_ptr<Kernel> ifKernel(const KernelInit& init) {
  std::shared_ptr<SubgraphRunner> thenR = runnerFor(init, "then_branch");
  std::shared_ptr<SubgraphRunner> elseR = runnerFor(init, "else_branch");
  return makeKernel([thenR, elseR](KernelContext& ctx) {
    const bool cond = scalarBool(ctx, 0, "the condition");
    auto outs = (cond ? thenR : elseR)->run({}, implicitValues(ctx), ctx.control());
    if (outs.size() < ctx.numOutputs())
      ctx.fail("the " + std::string(cond ? "then" : "else") + " branch gave " + std::to_string(outs.size()) +
               " outputs, the node has " + std::to_string(ctx.numOutputs()));
    for (size_t i = 0; i < ctx.numOutputs(); ++i) setOutputValue(ctx, i, std::move(outs[i]));
  });
}

std::unique_ptr<Kernel> loopKernel(const KernelInit& init) {
  std::shared_ptr<SubgraphRunner> body = runnerFor(init, "body");
  const ir::Graph* g = init.node.attrGraph("body");
  const size_t nCarried = init.node.inputs.size() >= 2 ? init.node.inputs.size() - 2 : 0;
  const size_t nScan = g->outputs.size() > nCarried + 1 ? g->outputs.size() - 1 - nCarried : 0;
  // Declared element types of the scan outputs, for a loop that runs zero times.
  std::vector<ValueInfo> scanDecl;
  for (size_t k = 0; k < nScan; ++k) scanDecl.push_back(g->outputs[1 + nCarried + k]);
  return makeKernel([body, nCarried, nScan, scanDecl](KernelContext& ctx) {
    const size_t nFormal = ctx.node().inputs.size();
    int64_t trips = std::numeric_limits<int64_t>::max();
    if (ctx.hasInput(0)) {
      const Tensor& m = ctx.input(0);
      if (m.numel() != 1 || (m.dtype() != DataType::kInt64 && m.dtype() != DataType::kInt32))
        ctx.fail(std::string("the trip count M must be an integer scalar, got ") + dataTypeName(m.dtype()) + " " + shapeToString(m.shape()));
      trips = m.toInt64Vector()[0];
    }
    const bool useCond = nFormal > 1 && ctx.hasInput(1);
    bool cond = useCond ? scalarBool(ctx, 1, "the loop condition") : true;
    std::vector<Value> carried;
    for (size_t j = 0; j < nCarried; ++j) carried.push_back(ctx.inputValue(2 + j));
    std::vector<std::vector<Tensor>> scans(nScan);
    const auto implicit = implicitValues(ctx);
    for (int64_t i = 0; i < trips && cond; ++i) {
      ctx.checkCancelled();
      Value iter = Value::fromTensor(Tensor::scalar<int64_t>(i));
      Value condIn = Value::fromTensor(Tensor::scalar<bool>(cond));
      std::vector<const Value*> formal{&iter, &condIn};
      for (const auto& c : carried) formal.push_back(&c);
      auto outs = body->run(formal, implicit, ctx.control());
      if (outs.size() != 1 + nCarried + nScan)
        ctx.fail("the body gave " + std::to_string(outs.size()) + " outputs, expected " +
                 std::to_string(1 + nCarried + nScan));
      if (useCond) {
        const Tensor& c = outs[0].tensor;
        if (c.dtype() != DataType::kBool || c.numel() != 1)
          ctx.fail("the body's condition output must be a bool scalar, got " + outs[0].describe());
        cond = *c.data<bool>();
      }
      for (size_t j = 0; j < nCarried; ++j) carried[j] = std::move(outs[1 + j]);
      for (size_t k = 0; k < nScan; ++k) {
        const Value& s = outs[1 + nCarried + k];
        if (!s.isTensor()) ctx.fail("scan output " + std::to_string(k) + " of the body is " + s.describe());
        if (!scans[k].empty() && (scans[k][0].shape() != s.tensor.shape() || scans[k][0].dtype() != s.tensor.dtype()))
          ctx.fail("scan output " + std::to_string(k) + " changed from " + shapeToString(scans[k][0].shape()) + " to " +
                   shapeToString(s.tensor.shape()) + " at iteration " + std::to_string(i));
        scans[k].push_back(s.tensor);
      }
    }
    for (size_t j = 0; j < nCarried && j < ctx.numOutputs(); ++j) setOutputValue(ctx, j, std::move(carried[j]));
    for (size_t k = 0; k < nScan && nCarried + k < ctx.numOutputs(); ++k) {
      std::vector<int64_t> elemShape;
      DataType dt = scanDecl[k].dtype;
      if (!scans[k].empty()) {
        elemShape = scans[k][0].shape();
        dt = scans[k][0].dtype();
      } else if (scanDecl[k].hasShape && isStatic(scanDecl[k].shape)) {
        elemShape = toStatic(scanDecl[k].shape);
      }
      if (dt == DataType::kUndefined && ctx.outputs_[nCarried + k] && ctx.outputs_[nCarried + k]->defined())
        dt = ctx.outputs_[nCarried + k]->dtype();
      setOutputValue(ctx, nCarried + k, Value::fromTensor(cpu::stackAlong(scans[k], 0, dt, elemShape)));
    }
  });
}

std::unique_ptr<Kernel> scanKernel(const KernelInit& init) {
  std::shared_ptr<SubgraphRunner> body = runnerFor(init, "body");
  const ir::Graph* g = init.node.attrGraph("body");
  const bool v8 = init.opset < 9;
  const size_t first = v8 ? 1 : 0;
  const int64_t nScanIn = init.node.attrInt("num_scan_inputs", -1);
  const size_t total = init.node.inputs.size() - first;
  if (nScanIn < 1 || static_cast<size_t>(nScanIn) > total)
    init.fail("num_scan_inputs must be in [1, " + std::to_string(total) + "]");
  const size_t nState = total - static_cast<size_t>(nScanIn);
  if (g->outputs.size() < nState) init.fail("the body has fewer outputs than state values");
  const size_t nScanOut = g->outputs.size() - nState;
  auto inAxes = init.node.attrInts("scan_input_axes", std::vector<int64_t>(nScanIn, 0));
  auto inDirs = init.node.attrInts(v8 ? "directions" : "scan_input_directions", std::vector<int64_t>(nScanIn, 0));
  auto outAxes = init.node.attrInts("scan_output_axes", std::vector<int64_t>(nScanOut, 0));
  auto outDirs = init.node.attrInts("scan_output_directions", std::vector<int64_t>(nScanOut, 0));
  if (inAxes.size() != static_cast<size_t>(nScanIn) || inDirs.size() != static_cast<size_t>(nScanIn) ||
      outAxes.size() != nScanOut || outDirs.size() != nScanOut)
    init.fail("scan axes/directions attributes must have one entry per scan input / output");
  return makeKernel([=](KernelContext& ctx) {
    const auto implicit = implicitValues(ctx);
    // One scan over `states` and `scanIns` (already without any batch axis).
    auto scanOnce = [&](std::vector<Tensor> states, const std::vector<Tensor>& scanIns, int64_t len,
                        std::vector<Tensor>& finalStates, std::vector<Tensor>& scanOuts, const std::vector<int64_t>& axes) {
      std::vector<std::vector<Tensor>> parts(nScanOut);
      for (int64_t t = 0; t < len; ++t) {
        ctx.checkCancelled();
        std::vector<Value> in;
        in.reserve(nState + scanIns.size());
        for (auto& s : states) in.push_back(Value::fromTensor(s));
        for (size_t m = 0; m < scanIns.size(); ++m) {
          const int64_t idx = inDirs[m] ? len - 1 - t : t;
          in.push_back(Value::fromTensor(cpu::sliceAlong(scanIns[m], axes[m], idx)));
        }
        std::vector<const Value*> formal;
        for (auto& v : in) formal.push_back(&v);
        auto outs = body->run(formal, implicit, ctx.control());
        if (outs.size() != nState + nScanOut)
          ctx.fail("the body gave " + std::to_string(outs.size()) + " outputs, expected " + std::to_string(nState + nScanOut));
        for (size_t j = 0; j < nState; ++j) states[j] = std::move(outs[j].tensor);
        for (size_t k = 0; k < nScanOut; ++k) {
          if (!parts[k].empty() && parts[k][0].shape() != outs[nState + k].tensor.shape())
            ctx.fail("scan output " + std::to_string(k) + " changed shape from " + shapeToString(parts[k][0].shape()) +
                     " to " + shapeToString(outs[nState + k].tensor.shape()));
          parts[k].push_back(std::move(outs[nState + k].tensor));
        }
      }
      finalStates = std::move(states);
      scanOuts.clear();
      for (size_t k = 0; k < nScanOut; ++k) {
        if (outDirs[k]) std::reverse(parts[k].begin(), parts[k].end());
        const ValueInfo& decl = g->outputs[nState + k];
        std::vector<int64_t> elemShape;
        DataType dt = decl.dtype;
        if (!parts[k].empty()) {
          elemShape = parts[k][0].shape();
          dt = parts[k][0].dtype();
        } else if (decl.hasShape && isStatic(decl.shape)) {
          elemShape = toStatic(decl.shape);
        }
        const int64_t rank = static_cast<int64_t>(elemShape.size()) + 1;
        int64_t axis = v8 ? 0 : outAxes[k];
        if (axis < -rank || axis >= rank) ctx.fail("scan_output_axes[" + std::to_string(k) + "] is out of range");
        if (axis < 0) axis += rank;
        scanOuts.push_back(cpu::stackAlong(parts[k], axis, dt, elemShape));
      }
    };

    std::vector<Tensor> states, scanIns;
    for (size_t j = 0; j < nState; ++j) states.push_back(ctx.input(first + j));
    for (size_t m = 0; m < static_cast<size_t>(nScanIn); ++m) scanIns.push_back(ctx.input(first + nState + m));
    if (!v8) {
      std::vector<int64_t> axes;
      int64_t len = -1;
      for (size_t m = 0; m < scanIns.size(); ++m) {
        const int64_t rank = static_cast<int64_t>(scanIns[m].rank());
        int64_t a = inAxes[m];
        if (a < -rank || a >= rank) ctx.fail("scan_input_axes[" + std::to_string(m) + "] is out of range for rank " + std::to_string(rank));
        if (a < 0) a += rank;
        axes.push_back(a);
        const int64_t l = scanIns[m].dim(a);
        if (len >= 0 && l != len)
          ctx.fail("scan input " + std::to_string(m) + " has " + std::to_string(l) + " steps, scan input 0 has " + std::to_string(len));
        len = l;
      }
      std::vector<Tensor> finalStates, scanOuts;
      scanOnce(states, scanIns, len, finalStates, scanOuts, axes);
      for (size_t j = 0; j < nState; ++j) setOutputValue(ctx, j, Value::fromTensor(std::move(finalStates[j])));
      for (size_t k = 0; k < nScanOut; ++k) setOutputValue(ctx, nState + k, Value::fromTensor(std::move(scanOuts[k])));
      return;
    }
    // Opset 8: axis 0 is a batch, axis 1 the scanned one; sequence_lens per batch entry.
    if (scanIns.empty() || scanIns[0].rank() < 2) ctx.fail("scan inputs need a batch and a sequence axis");
    const int64_t batch = scanIns[0].dim(0), maxLen = scanIns[0].dim(1);
    std::vector<int64_t> lens(batch, maxLen);
    if (ctx.hasInput(0)) {
      lens = ctx.input(0).toInt64Vector();
      if (static_cast<int64_t>(lens.size()) != batch) ctx.fail("sequence_lens must have one entry per batch entry");
      for (int64_t l : lens)
        if (l < 0 || l > maxLen) ctx.fail("sequence_lens entry " + std::to_string(l) + " is outside [0, " + std::to_string(maxLen) + "]");
    }
    std::vector<std::vector<Tensor>> stateParts(nState), outParts(nScanOut);
    for (int64_t b = 0; b < batch; ++b) {
      std::vector<Tensor> st, si, finalStates, scanOuts;
      for (auto& s : states) st.push_back(cpu::sliceAlong(s, 0, b));
      for (auto& s : scanIns) si.push_back(cpu::sliceAlong(s, 0, b));
      scanOnce(st, si, lens[b], finalStates, scanOuts, std::vector<int64_t>(si.size(), 0));
      for (size_t j = 0; j < nState; ++j) stateParts[j].push_back(std::move(finalStates[j]));
      for (size_t k = 0; k < nScanOut; ++k) {
        Tensor& o = scanOuts[k];
        if (lens[b] < maxLen) {  // pad the unscanned tail with zeros
          std::vector<int64_t> shape = o.shape();
          shape[0] = maxLen;
          Tensor padded(o.dtype(), shape);
          cpu::copyElements(o, 0, padded, 0, o.numel());
          o = std::move(padded);
        }
        outParts[k].push_back(std::move(o));
      }
    }
    for (size_t j = 0; j < nState; ++j)
      setOutputValue(ctx, j, Value::fromTensor(cpu::stackAlong(stateParts[j], 0, stateParts[j][0].dtype(), stateParts[j][0].shape())));
    for (size_t k = 0; k < nScanOut; ++k)
      setOutputValue(ctx, nState + k, Value::fromTensor(cpu::stackAlong(outParts[k], 0, outParts[k][0].dtype(), outParts[k][0].shape())));
  });
}

}  // namespace

void register_control_flow(Registry& r) {
  // Never folded: they need the runtime's subgraph runners.
  cpu::addValueOp(r, "If", {1, 11, 13, 16, 19, 21, 23, 24, 25}, shape::inferIf, ifKernel, false);
  cpu::addValueOp(r, "Loop", {1, 11, 13, 16, 19, 21, 23, 24, 25}, shape::inferLoop, loopKernel, false);
  cpu::addValueOp(r, "Scan", {8, 9, 11, 16, 19, 21, 23, 24, 25}, shape::inferScan, scanKernel, false);
}

}  // namespace oinfer
