// Sequence ops (SequenceEmpty/Construct/Insert/At/Erase/Length,
// SplitToSequence, ConcatFromSequence, SequenceMap) and optionals (Optional,
// OptionalHasElement, OptionalGetElement). Tensors entering a sequence are
// copied: an input may live in the arena and be overwritten later; tensors
// already inside a sequence are immutable and shared between sequences.
#include <algorithm>

#include "graph/checked_math.h"
#include "ops/cpu/tensor_common.h"
#include "ops/cpu/value_copy.h"
#include "ops/registry.h"
#include "shape/control_flow.h"

namespace oinfer {

namespace {

using cpu::setOutputValue;

const std::vector<Tensor>& sequenceInput(const KernelContext& ctx, size_t i) {
  const Value& v = ctx.inputValue(i);
  if (!v.isSequence()) ctx.fail("input " + std::to_string(i) + " must be a sequence, got " + v.describe());
  return v.sequence;
}

// A position input (int32/int64 scalar) in [-n, n-1] (or [-n, n] when inserting).
int64_t position(const KernelContext& ctx, size_t i, int64_t n, bool insert) {
  const Tensor& p = ctx.input(i);
  if (p.numel() != 1 || (p.dtype() != DataType::kInt64 && p.dtype() != DataType::kInt32))
    ctx.fail("position must be an int32/int64 scalar, got " + std::string(dataTypeName(p.dtype())) + " " +
             shapeToString(p.shape()));
  int64_t pos = p.toInt64Vector()[0];
  const int64_t hi = insert ? n : n - 1;
  if (pos < -n || pos > hi)
    ctx.fail("position " + std::to_string(pos) + " is out of range [" + std::to_string(-n) + ", " + std::to_string(hi) +
             "] for a sequence of " + std::to_string(n) + " tensors");
  return pos < 0 ? pos + n : pos;
}

std::unique_ptr<Kernel> sequenceEmpty(const KernelInit&) {
  return makeKernel([](KernelContext& ctx) { ctx.outputValue(0) = Value::fromSequence({}); });
}

std::unique_ptr<Kernel> sequenceConstruct(const KernelInit&) {
  return makeKernel([](KernelContext& ctx) {
    std::vector<Tensor> seq;
    for (size_t i = 0; i < ctx.node().inputs.size(); ++i) seq.push_back(ctx.input(i).clone());
    ctx.outputValue(0) = Value::fromSequence(std::move(seq));
  });
}

std::unique_ptr<Kernel> sequenceInsert(const KernelInit&) {
  return makeKernel([](KernelContext& ctx) {
    std::vector<Tensor> seq = sequenceInput(ctx, 0);
    const Tensor& t = ctx.input(1);
    if (!seq.empty() && seq[0].dtype() != t.dtype())
      ctx.fail(std::string("the tensor is ") + dataTypeName(t.dtype()) + ", the sequence holds " +
               dataTypeName(seq[0].dtype()));
    const int64_t n = static_cast<int64_t>(seq.size());
    const int64_t pos = ctx.hasInput(2) ? position(ctx, 2, n, true) : n;
    seq.insert(seq.begin() + pos, t.clone());
    ctx.outputValue(0) = Value::fromSequence(std::move(seq));
  });
}

std::unique_ptr<Kernel> sequenceAt(const KernelInit&) {
  return makeKernel([](KernelContext& ctx) {
    const auto& seq = sequenceInput(ctx, 0);
    const int64_t pos = position(ctx, 1, static_cast<int64_t>(seq.size()), false);
    setOutputValue(ctx, 0, Value::fromTensor(seq[pos].clone()));
  });
}

std::unique_ptr<Kernel> sequenceErase(const KernelInit&) {
  return makeKernel([](KernelContext& ctx) {
    std::vector<Tensor> seq = sequenceInput(ctx, 0);
    const int64_t n = static_cast<int64_t>(seq.size());
    if (n == 0) ctx.fail("cannot erase from an empty sequence");
    const int64_t pos = ctx.hasInput(1) ? position(ctx, 1, n, false) : n - 1;
    seq.erase(seq.begin() + pos);
    ctx.outputValue(0) = Value::fromSequence(std::move(seq));
  });
}

std::unique_ptr<Kernel> sequenceLength(const KernelInit&) {
  return makeKernel([](KernelContext& ctx) {
    const auto& seq = sequenceInput(ctx, 0);
    setOutputValue(ctx, 0, Value::fromTensor(Tensor::scalar<int64_t>(static_cast<int64_t>(seq.size()))));
  });
}

// Copies [begin, begin+len) of `axis` of `in` into a new tensor.
Tensor sliceRange(const Tensor& in, int64_t axis, int64_t begin, int64_t len) {
  std::vector<int64_t> shape = in.shape();
  const int64_t full = shape[axis];
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= shape[d];
  for (size_t d = axis + 1; d < shape.size(); ++d) inner *= shape[d];
  shape[axis] = len;
  Tensor out(in.dtype(), shape);
  for (int64_t o = 0; o < outer; ++o) cpu::copyElements(in, (o * full + begin) * inner, out, o * len * inner, len * inner);
  return out;
}

std::unique_ptr<Kernel> splitToSequence(const KernelInit& init) {
  const int64_t axisAttr = init.node.attrInt("axis", 0);
  const bool keepdims = init.node.attrInt("keepdims", 1) != 0;
  return makeKernel([axisAttr, keepdims](KernelContext& ctx) {
    const Tensor& in = ctx.input(0);
    const int64_t rank = static_cast<int64_t>(in.rank());
    if (axisAttr < -rank || axisAttr >= rank)
      ctx.fail("axis " + std::to_string(axisAttr) + " is out of range for rank " + std::to_string(rank));
    const int64_t axis = axisAttr < 0 ? axisAttr + rank : axisAttr;
    const int64_t len = in.dim(axis);
    std::vector<int64_t> sizes;
    bool squeeze = false;
    if (!ctx.hasInput(1)) {
      sizes.assign(len, 1);
      squeeze = !keepdims;
    } else {
      const Tensor& split = ctx.input(1);
      auto v = tensor_ops::readInts(split);
      if (split.rank() == 0) {
        if (v[0] <= 0) ctx.fail("split must be positive, got " + std::to_string(v[0]));
        for (int64_t b = 0; b < len; b += v[0]) sizes.push_back(std::min(v[0], len - b));
      } else {
        int64_t sum = 0;
        for (int64_t s : v) {
          if (s < 0) ctx.fail("split sizes must be >= 0, got " + std::to_string(s));
          // Checked: huge sizes could wrap to the axis length and pass.
          if (!checkedAdd(sum, s, &sum))
            ctx.fail("split sizes " + shapeToString(v) + " of input 1 ('" + ctx.node().inputs[1] +
                     "') overflow int64");
        }
        if (sum != len)
          ctx.fail("split sizes add up to " + std::to_string(sum) + ", the axis has " + std::to_string(len));
        sizes = v;
      }
    }
    std::vector<Tensor> seq;
    int64_t begin = 0;
    for (int64_t s : sizes) {
      Tensor part = sliceRange(in, axis, begin, s);
      if (squeeze) {
        std::vector<int64_t> shape = part.shape();
        shape.erase(shape.begin() + axis);
        part = part.reshaped(shape);
      }
      seq.push_back(std::move(part));
      begin += s;
    }
    ctx.outputValue(0) = Value::fromSequence(std::move(seq));
  });
}

std::unique_ptr<Kernel> concatFromSequence(const KernelInit& init) {
  if (!init.node.hasAttr("axis")) init.fail("attribute 'axis' is required");
  const int64_t axisAttr = init.node.attrInt("axis", 0);
  const bool newAxis = init.node.attrInt("new_axis", 0) != 0;
  return makeKernel([axisAttr, newAxis](KernelContext& ctx) {
    const auto& seq = sequenceInput(ctx, 0);
    if (seq.empty()) ctx.fail("cannot concatenate an empty sequence");
    const std::vector<int64_t>& s0 = seq[0].shape();
    const int64_t rank = static_cast<int64_t>(s0.size()) + (newAxis ? 1 : 0);
    if (axisAttr < -rank || axisAttr >= rank)
      ctx.fail("axis " + std::to_string(axisAttr) + " is out of range for rank " + std::to_string(rank));
    const int64_t axis = axisAttr < 0 ? axisAttr + rank : axisAttr;
    std::vector<Tensor> parts;
    for (size_t i = 0; i < seq.size(); ++i) {
      const Tensor& t = seq[i];
      bool ok = t.dtype() == seq[0].dtype() && t.rank() == s0.size();
      for (size_t d = 0; ok && d < s0.size(); ++d)
        if (newAxis || static_cast<int64_t>(d) != axis) ok = t.dim(d) == s0[d];
      if (!ok)
        ctx.fail("tensor " + std::to_string(i) + " of the sequence is " + dataTypeName(t.dtype()) + " " +
                 shapeToString(t.shape()) + ", tensor 0 is " + dataTypeName(seq[0].dtype()) + " " + shapeToString(s0) +
                 (newAxis ? "; stacking needs equal shapes" : "; only the axis may differ"));
      if (newAxis) {
        std::vector<int64_t> shape = t.shape();
        shape.insert(shape.begin() + axis, 1);
        parts.push_back(t.reshaped(shape));
      } else {
        parts.push_back(t);
      }
    }
    std::vector<int64_t> outShape = parts[0].shape();
    int64_t total = 0;
    for (const auto& p : parts) total += p.dim(axis);
    outShape[axis] = total;
    Tensor out(seq[0].dtype(), outShape);
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < axis; ++d) outer *= outShape[d];
    for (size_t d = axis + 1; d < outShape.size(); ++d) inner *= outShape[d];
    int64_t offset = 0;
    for (const auto& p : parts) {
      const int64_t n = p.dim(axis) * inner;
      for (int64_t o = 0; o < outer; ++o) cpu::copyElements(p, o * n, out, o * total * inner + offset, n);
      offset += n;
    }
    setOutputValue(ctx, 0, Value::fromTensor(std::move(out)));
  });
}

std::unique_ptr<Kernel> sequenceMap(const KernelInit& init) {
  if (!init.subgraphs) init.fail("needs the runtime to run its body");
  const ir::Graph* g = init.node.attrGraph("body");
  if (!g) init.fail("attribute 'body' (a graph) is required");
  std::shared_ptr<SubgraphRunner> body = (*init.subgraphs)(*g);
  return makeKernel([body](KernelContext& ctx) {
    const size_t nIn = ctx.node().inputs.size();
    const auto& seq0 = sequenceInput(ctx, 0);
    const size_t n = seq0.size();
    for (size_t i = 1; i < nIn; ++i) {
      const Value& v = ctx.inputValue(i);
      if (v.isSequence() && v.sequence.size() != n)
        ctx.fail("input " + std::to_string(i) + " is a sequence of " + std::to_string(v.sequence.size()) +
                 " tensors, input 0 has " + std::to_string(n));
    }
    std::vector<const Value*> implicit;
    for (size_t i = nIn; i < ctx.numInputs(); ++i) implicit.push_back(&ctx.inputValue(i));
    std::vector<std::vector<Tensor>> outs(ctx.numOutputs());
    for (size_t k = 0; k < n; ++k) {
      ctx.checkCancelled();
      std::vector<Value> in;
      for (size_t i = 0; i < nIn; ++i) {
        const Value& v = ctx.inputValue(i);
        in.push_back(Value::fromTensor(v.isSequence() ? v.sequence[k] : v.tensor));
      }
      std::vector<const Value*> formal;
      for (auto& v : in) formal.push_back(&v);
      auto res = body->run(formal, implicit, ctx.control());
      for (size_t o = 0; o < outs.size() && o < res.size(); ++o) outs[o].push_back(std::move(res[o].tensor));
    }
    for (size_t o = 0; o < outs.size(); ++o)
      if (ctx.hasOutput(o)) ctx.outputValue(o) = Value::fromSequence(std::move(outs[o]));
  });
}

std::unique_ptr<Kernel> optionalKernel(const KernelInit&) {
  return makeKernel([](KernelContext& ctx) {
    if (!ctx.hasInput(0)) {
      ctx.outputValue(0) = Value::none();
      return;
    }
    Value v = ctx.inputValue(0);
    if (v.isTensor()) v.tensor = v.tensor.clone();
    ctx.outputValue(0) = std::move(v);
  });
}

std::unique_ptr<Kernel> optionalHasElement(const KernelInit&) {
  return makeKernel([](KernelContext& ctx) {
    const bool has = ctx.hasInput(0) && !ctx.inputValue(0).isNone();
    Tensor& out = ctx.output(0);
    *out.data<bool>() = has;
  });
}

std::unique_ptr<Kernel> optionalGetElement(const KernelInit&) {
  return makeKernel([](KernelContext& ctx) {
    const Value& v = ctx.inputValue(0);
    if (v.isNone()) ctx.fail("the optional input '" + ctx.node().inputs[0] + "' is empty");
    Value copy = v;
    if (copy.isTensor()) copy.tensor = v.tensor.clone();
    setOutputValue(ctx, 0, std::move(copy));
  });
}

}  // namespace

void register_sequence(Registry& r) {
  cpu::addValueOp(r, "SequenceEmpty", {11}, shape::inferSequenceEmpty, sequenceEmpty, false);
  cpu::addValueOp(r, "SequenceConstruct", {11}, shape::inferSequenceConstruct, sequenceConstruct, false);
  cpu::addValueOp(r, "SequenceInsert", {11}, shape::inferSequenceInsert, sequenceInsert, false);
  cpu::addValueOp(r, "SequenceAt", {11}, shape::inferSequenceAt, sequenceAt, false);
  cpu::addValueOp(r, "SequenceErase", {11}, shape::inferSequenceErase, sequenceErase, false);
  cpu::addValueOp(r, "SequenceLength", {11}, shape::inferSequenceLength, sequenceLength, false);
  cpu::addValueOp(r, "SplitToSequence", {11, 24}, shape::inferSplitToSequence, splitToSequence, false);
  cpu::addValueOp(r, "ConcatFromSequence", {11}, shape::inferConcatFromSequence, concatFromSequence, false);
  cpu::addValueOp(r, "SequenceMap", {17}, shape::inferSequenceMap, sequenceMap, false);
  cpu::addValueOp(r, "Optional", {15}, shape::inferOptional, optionalKernel, false);
  cpu::addValueOp(r, "OptionalHasElement", {15, 18}, shape::inferOptionalHasElement, optionalHasElement, /*foldable=*/true);
  cpu::addValueOp(r, "OptionalGetElement", {15, 18}, shape::inferOptionalGetElement, optionalGetElement, false);
}

}  // namespace oinfer
