#include "shape/scan_ops.h"

#include <algorithm>
#include <map>
#include <string>

namespace oinfer::shape {

namespace {

std::string idx(const InferContext& ctx, size_t i) {
  const auto& ins = ctx.node().inputs;
  return "input " + std::to_string(i) + " ('" + (i < ins.size() ? ins[i] : std::string()) + "')";
}

// A scalar or one-element integer input's value, when known.
std::optional<int64_t> scalarInput(const InferContext& ctx, size_t i) {
  if (const Tensor* t = ctx.inputValue(i)) {
    auto v = t->toInt64Vector();
    if (v.size() != 1) ctx.fail(idx(ctx, i) + " must hold one value, got shape " + shapeToString(t->shape()));
    return v[0];
  }
  return std::nullopt;
}

}  // namespace

void inferTopK(InferContext& ctx) {
  const DataType dt = ctx.inputType(0);
  if (!ctx.hasShape(0)) {
    ctx.setOutputUnknownShape(0, dt);
    if (ctx.numOutputs() > 1) ctx.setOutputUnknownShape(1, DataType::kInt64);
    return;
  }
  Shape out = ctx.inputShape(0);
  const int64_t axis = normalizeAxis(ctx, ctx.node().attrInt("axis", -1), static_cast<int64_t>(out.size()));
  std::optional<int64_t> k;
  if (ctx.opset() < 10) {
    k = ctx.node().attrInt("k", -1);
  } else {
    k = scalarInput(ctx, 1);
  }
  if (k) {
    if (*k < 0) ctx.fail("k must be non-negative, got " + std::to_string(*k));
    if (out[axis].isStatic() && *k > out[axis].value)
      ctx.fail("k " + std::to_string(*k) + " exceeds the axis " + std::to_string(axis) + " dim of " +
               idx(ctx, 0) + " shape " + shapeToString(out));
    out[axis] = Dim(*k);
  } else {
    out[axis] = ctx.freshDim();
  }
  ctx.setOutput(0, dt, out);
  if (ctx.numOutputs() > 1) ctx.setOutput(1, DataType::kInt64, out);
}

void inferUnique(InferContext& ctx) {
  const DataType dt = ctx.inputType(0);
  const bool hasAxis = ctx.node().hasAttr("axis");
  const Dim n = ctx.freshDim();
  Dim inv;
  if (!ctx.hasShape(0)) {
    ctx.setOutputUnknownShape(0, dt);
    inv = ctx.freshDim();
  } else {
    const Shape& in = ctx.inputShape(0);
    if (hasAxis) {
      const int64_t axis = normalizeAxis(ctx, ctx.node().attrInt("axis", 0), static_cast<int64_t>(in.size()));
      Shape out = in;
      out[axis] = n;
      ctx.setOutput(0, dt, out);
      inv = in[axis];
    } else {
      ctx.setOutput(0, dt, {n});
      inv = dimProduct(ctx, in);
    }
  }
  if (ctx.numOutputs() > 1) ctx.setOutput(1, DataType::kInt64, {n});
  if (ctx.numOutputs() > 2) ctx.setOutput(2, DataType::kInt64, {inv});
  if (ctx.numOutputs() > 3) ctx.setOutput(3, DataType::kInt64, {n});
}

void inferCompress(InferContext& ctx) {
  const DataType dt = ctx.inputType(0);
  if (ctx.hasShape(1) && ctx.inputShape(1).size() != 1)
    ctx.fail("condition " + idx(ctx, 1) + " must be 1-d, got shape " + shapeToString(ctx.inputShape(1)));
  const bool hasAxis = ctx.node().hasAttr("axis");
  if (!ctx.hasShape(0)) {
    if (hasAxis) ctx.setOutputUnknownShape(0, dt);
    else ctx.setOutput(0, dt, {ctx.freshDim()});
    return;
  }
  const Shape& in = ctx.inputShape(0);
  const int64_t axis = hasAxis ? normalizeAxis(ctx, ctx.node().attrInt("axis", 0), static_cast<int64_t>(in.size())) : 0;
  // The output length is the number of true conditions (the kernel rejects
  // a condition longer than the axis).
  Dim n = ctx.freshDim();
  if (const Tensor* c = ctx.inputValue(1)) {
    const bool* p = c->data<bool>();
    int64_t cnt = 0;
    for (int64_t i = 0; i < c->numel(); ++i) cnt += p[i] ? 1 : 0;
    n = Dim(cnt);
  }
  if (!hasAxis) {
    ctx.setOutput(0, dt, {n});
    return;
  }
  Shape out = in;
  out[axis] = n;
  ctx.setOutput(0, dt, out);
}

void inferCenterCropPad(InferContext& ctx) {
  const DataType dt = ctx.inputType(0);
  if (!ctx.hasShape(0)) {
    ctx.setOutputUnknownShape(0, dt);
    return;
  }
  const Shape& in = ctx.inputShape(0);
  const int64_t rank = static_cast<int64_t>(in.size());
  std::vector<int64_t> axes = ctx.node().attrInts("axes", {});
  if (axes.empty())
    for (int64_t a = 0; a < rank; ++a) axes.push_back(a);
  for (auto& a : axes) a = normalizeAxis(ctx, a, rank);
  Shape out = in;
  const auto* sv = ctx.inputSymbolicValue(1);
  if (sv && sv->size() != axes.size())
    ctx.fail("shape " + idx(ctx, 1) + " has " + std::to_string(sv->size()) + " values for " +
             std::to_string(axes.size()) + " axes");
  for (size_t j = 0; j < axes.size(); ++j) out[axes[j]] = sv ? (*sv)[j] : ctx.freshDim();
  ctx.setOutput(0, dt, out);
}

EinsumSpec parseEinsum(const Node& node, const std::string& equation, const std::vector<int64_t>& ranks) {
  auto bad = [&](const std::string& m) -> void {
    throw Error(ErrorCode::kInvalidModel, node.describe() + ": equation '" + equation + "': " + m);
  };
  std::string eq;
  for (char c : equation)
    if (c != ' ') eq += c;
  const auto arrow = eq.find("->");
  const std::string lhs = arrow == std::string::npos ? eq : eq.substr(0, arrow);
  std::vector<std::string> terms;
  size_t start = 0;
  for (;;) {
    const auto comma = lhs.find(',', start);
    terms.push_back(lhs.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (terms.size() != ranks.size())
    bad(std::to_string(terms.size()) + " operand terms for " + std::to_string(ranks.size()) + " inputs");
  auto label = [&](char c) -> int {
    if (c >= 'a' && c <= 'z') return c - 'a';
    if (c >= 'A' && c <= 'Z') return 26 + c - 'A';
    bad(std::string("invalid label '") + c + "'");
    return -1;
  };
  // Splits a term into labels before and after an ellipsis.
  struct Term {
    std::vector<int> pre, post;
    bool ell = false;
  };
  auto split = [&](const std::string& t) {
    Term r;
    for (size_t i = 0; i < t.size(); ++i) {
      if (t[i] == '.') {
        if (r.ell || t.compare(i, 3, "...") != 0) bad("malformed ellipsis");
        r.ell = true;
        i += 2;
        continue;
      }
      (r.ell ? r.post : r.pre).push_back(label(t[i]));
    }
    return r;
  };
  EinsumSpec spec;
  int64_t maxEll = 0;
  std::vector<Term> parsed;
  for (size_t k = 0; k < terms.size(); ++k) {
    parsed.push_back(split(terms[k]));
    const Term& t = parsed.back();
    const int64_t named = static_cast<int64_t>(t.pre.size() + t.post.size());
    if (t.ell ? named > ranks[k] : named != ranks[k])
      bad("term '" + terms[k] + "' does not match input " + std::to_string(k) + " of rank " + std::to_string(ranks[k]));
    if (t.ell) maxEll = std::max(maxEll, ranks[k] - named);
  }
  for (size_t k = 0; k < terms.size(); ++k) {
    const Term& t = parsed[k];
    std::vector<int> l = t.pre;
    if (t.ell) {
      const int64_t e = ranks[k] - static_cast<int64_t>(t.pre.size() + t.post.size());
      for (int64_t j = 0; j < e; ++j) l.push_back(EinsumSpec::kEllipsisBase + static_cast<int>(maxEll - e + j));
    }
    l.insert(l.end(), t.post.begin(), t.post.end());
    spec.inputs.push_back(l);
  }
  if (arrow != std::string::npos) {
    Term o = split(eq.substr(arrow + 2));
    spec.output = o.pre;
    if (o.ell)
      for (int64_t j = 0; j < maxEll; ++j) spec.output.push_back(EinsumSpec::kEllipsisBase + static_cast<int>(j));
    else if (maxEll > 0)
      bad("output has no ellipsis but the inputs broadcast " + std::to_string(maxEll) + " dims");
    spec.output.insert(spec.output.end(), o.post.begin(), o.post.end());
    std::vector<int> seen;
    for (int l : spec.output) {
      if (std::count(seen.begin(), seen.end(), l)) bad("output label repeated");
      seen.push_back(l);
      bool found = false;
      for (const auto& in : spec.inputs) found = found || std::count(in.begin(), in.end(), l) > 0;
      if (!found) bad("output label not in any input");
    }
  } else {
    // Implicit output: the broadcast dims, then the labels seen once, in alphabetical order.
    for (int64_t j = 0; j < maxEll; ++j) spec.output.push_back(EinsumSpec::kEllipsisBase + static_cast<int>(j));
    std::map<int, int> count;
    for (const auto& in : spec.inputs)
      for (int l : in)
        if (l < EinsumSpec::kEllipsisBase) ++count[l];
    for (auto [l, c] : count)
      if (c == 1) spec.output.push_back(l);
  }
  return spec;
}

void inferEinsum(InferContext& ctx) {
  const DataType dt = ctx.inputType(0);
  std::vector<int64_t> ranks;
  for (size_t i = 0; i < ctx.numInputs(); ++i) {
    if (!ctx.hasShape(i)) {
      ctx.setOutputUnknownShape(0, dt);
      return;
    }
    ranks.push_back(static_cast<int64_t>(ctx.inputShape(i).size()));
  }
  const EinsumSpec spec = parseEinsum(ctx.node(), ctx.node().attrString("equation", ""), ranks);
  std::map<int, Dim> size;
  for (size_t i = 0; i < spec.inputs.size(); ++i) {
    const Shape& s = ctx.inputShape(i);
    for (size_t d = 0; d < s.size(); ++d) {
      const int l = spec.inputs[i][d];
      auto it = size.find(l);
      if (it == size.end()) {
        size[l] = s[d];
      } else if (it->second != s[d]) {
        if (s[d].isStatic() && s[d].value == 1) continue;
        if (it->second.isStatic() && it->second.value == 1) it->second = s[d];
        else if (it->second.isStatic() && s[d].isStatic())
          ctx.fail("dim " + std::to_string(d) + " of " + idx(ctx, i) + " shape " + shapeToString(s) +
                   " does not match size " + std::to_string(it->second.value) + " of its label");
      }
    }
  }
  Shape out;
  for (int l : spec.output) out.push_back(size[l]);
  ctx.setOutput(0, dt, out);
}

}  // namespace oinfer::shape
