// Shape functions of the tensor family's indexing and value-shaped ops:
// Slice, Gather*, Scatter*, Expand, Tile, Pad, Range, ConstantOfShape,
// OneHot, Trilu, DepthToSpace, SpaceToDepth, EyeLike, NonZero.
#include <algorithm>
#include <cmath>
#include <limits>

#include "graph/checked_math.h"
#include "shape/index_check.h"
#include "shape/tensor.h"

namespace oinfer::shape {

using namespace tensor_detail;

namespace {

struct SliceParams {
  std::optional<std::vector<int64_t>> starts, ends, axes, steps;
};

SliceParams readSlice(InferContext& ctx) {
  SliceParams p;
  if (ctx.opset() < 10) {
    p.starts = ctx.node().attrInts("starts");
    p.ends = ctx.node().attrInts("ends");
    if (ctx.node().hasAttr("axes")) p.axes = ctx.node().attrInts("axes");
    return p;
  }
  p.starts = intValues(ctx, 1);
  p.ends = intValues(ctx, 2);
  if (ctx.hasInput(3)) p.axes = intValues(ctx, 3);
  if (ctx.hasInput(4)) p.steps = intValues(ctx, 4);
  return p;
}

// Clamped start and element count of one sliced axis of static size d.
void sliceAxis(int64_t d, int64_t start, int64_t end, int64_t step, int64_t& first, int64_t& count) {
  if (start < 0) start += d;
  if (end < 0) end += d;
  if (step > 0) {
    start = std::clamp<int64_t>(start, 0, d);
    end = std::clamp<int64_t>(end, 0, d);
    count = end > start ? (end - start + step - 1) / step : 0;
  } else {
    start = std::clamp<int64_t>(start, 0, d - 1);
    end = std::clamp<int64_t>(end, -1, d - 1);
    count = start > end ? (start - end + (-step) - 1) / (-step) : 0;
  }
  first = start;
}

Dim mergeBroadcastDim(InferContext& ctx, const Dim* a, const Dim* b, bool& incompatible) {
  if (!a) return *b;
  if (!b) return *a;
  if (b->isStatic() && b->value == 1) return *a;
  if (a->isStatic() && a->value == 1) return *b;
  if (*a == *b) return *a;
  if (a->isStatic() && b->isStatic()) {
    incompatible = true;
    return *a;
  }
  if (a->isStatic()) return *a;
  if (b->isStatic()) return *b;
  return Dim();
}

}  // namespace

void inferSlice(InferContext& ctx) {
  const ValueInfo& in = ctx.input(0);
  if (!in.hasShape) {
    ctx.setOutputUnknownShape(0, in.dtype);
    return;
  }
  const int64_t r = static_cast<int64_t>(in.shape.size());
  SliceParams p = readSlice(ctx);
  Shape out = in.shape;
  const bool stepsKnown = ctx.opset() < 10 || !ctx.hasInput(4) || p.steps;
  const bool axesKnown = ctx.opset() < 10 || !ctx.hasInput(3) || p.axes;
  if (!p.starts || !p.ends || !stepsKnown || !axesKnown) {
    if (axesKnown && p.axes) {
      for (int64_t a : *p.axes) out[normalizeAxis(ctx, a, r)] = Dim();
    } else {
      out.assign(r, Dim());
    }
    ctx.setOutput(0, in.dtype, out);
    return;
  }
  const size_t n = p.starts->size();
  if (p.ends->size() != n || (p.axes && p.axes->size() != n) || (p.steps && p.steps->size() != n))
    ctx.fail(ErrorCode::kInvalidModel, "starts, ends, axes and steps must have the same length");
  std::vector<bool> seen(r, false);
  std::vector<int64_t> first(r, 0), step(r, 1);
  std::vector<bool> sliced(r, false);
  constexpr int64_t kHuge = std::numeric_limits<int32_t>::max();
  for (size_t j = 0; j < n; ++j) {
    const int64_t axis = normalizeAxis(ctx, p.axes ? (*p.axes)[j] : static_cast<int64_t>(j), r);
    if (seen[axis]) ctx.fail(ErrorCode::kInvalidModel, "axis " + std::to_string(axis) + " is sliced twice");
    seen[axis] = true;
    const int64_t s = (*p.starts)[j], e = (*p.ends)[j], st = p.steps ? (*p.steps)[j] : 1;
    if (st == 0) ctx.fail(ErrorCode::kInvalidModel, "slice step must not be 0");
    step[axis] = st;
    sliced[axis] = true;
    const Dim& d = in.shape[axis];
    if (d.isStatic()) {
      int64_t c;
      sliceAxis(d.value, s, e, st, first[axis], c);
      out[axis] = Dim(c);
    } else if ((st == 1 && (s == 0 || s <= -kHuge) && e >= kHuge) ||
               (st == -1 && (s == -1 || s >= kHuge) && e <= -kHuge)) {
      out[axis] = d;  // the whole axis, forwards or reversed
    } else {
      out[axis] = Dim();
    }
  }
  ctx.setOutput(0, in.dtype, out);
  if (r == 1 && isIndexType(in.dtype) && out[0].isStatic()) {
    auto v = symValues(ctx, 0);
    if (!v || static_cast<int64_t>(v->size()) != in.shape[0].value) return;
    std::vector<Dim> picked;
    for (int64_t i = 0; i < out[0].value; ++i) picked.push_back((*v)[first[0] + i * step[0]]);
    setIntValue(ctx, 0, picked, in.dtype, false);
  }
}

void inferGather(InferContext& ctx) {
  const ValueInfo& data = ctx.input(0);
  const ValueInfo& idx = ctx.input(1);
  if (!isIndexType(idx.dtype))
    ctx.fail(ErrorCode::kTypeMismatch, "indices " + inputName(ctx, 1) + " must be int32 or int64, got " +
                                           dataTypeName(idx.dtype));
  if (!data.hasShape || !idx.hasShape) {
    ctx.setOutputUnknownShape(0, data.dtype);
    return;
  }
  const int64_t r = static_cast<int64_t>(data.shape.size());
  if (r == 0) ctx.fail("data " + inputName(ctx, 0) + " must have rank >= 1");
  const int64_t axis = normalizeAxis(ctx, ctx.node().attrInt("axis", 0), r);
  Shape out(data.shape.begin(), data.shape.begin() + axis);
  out.insert(out.end(), idx.shape.begin(), idx.shape.end());
  out.insert(out.end(), data.shape.begin() + axis + 1, data.shape.end());
  auto indices = intValues(ctx, 1);
  if (indices && data.shape[axis].isStatic()) {
    // The value itself when constant (positions in its shape), else the
    // propagated values (e.g. from Shape) as a list.
    const Tensor* t = ctx.inputValue(1);
    const Tensor list = t ? Tensor() : Tensor::fromVector<int64_t>({static_cast<int64_t>(indices->size())}, *indices);
    std::vector<int64_t> normalized;
    IndexChecker(ctx.node(), ErrorCode::kShapeMismatch)
        .normalize(t ? *t : list, 1, 0, knownDims(data.shape), axis, normalized);
  }
  ctx.setOutput(0, data.dtype, out);
  if (r == 1 && isIndexType(data.dtype) && indices && idx.shape.size() <= 1) {
    auto v = symValues(ctx, 0);
    if (!v) return;
    std::vector<Dim> picked;
    const int64_t d = static_cast<int64_t>(v->size());
    for (int64_t i : *indices) picked.push_back((*v)[i < 0 ? i + d : i]);
    setIntValue(ctx, 0, picked, data.dtype, idx.shape.empty());
  }
}

void inferGatherElements(InferContext& ctx) {
  const ValueInfo& data = ctx.input(0);
  const ValueInfo& idx = ctx.input(1);
  if (!idx.hasShape) {
    ctx.setOutputUnknownShape(0, data.dtype);
    return;
  }
  if (data.hasShape) {
    const int64_t r = static_cast<int64_t>(data.shape.size());
    const IndexChecker chk(ctx.node(), ErrorCode::kShapeMismatch);
    const int64_t axis = normalizeAxis(ctx, ctx.node().attrInt("axis", 0), r);
    chk.elementsShape(0, knownDims(data.shape), 1, knownDims(idx.shape), axis);
    if (const Tensor* t = ctx.inputValue(1); t && data.shape[axis].isStatic()) {
      std::vector<int64_t> normalized;
      chk.normalize(*t, 1, 0, knownDims(data.shape), axis, normalized);
    }
  }
  ctx.setOutput(0, data.dtype, idx.shape);
}

void inferGatherND(InferContext& ctx) {
  const ValueInfo& data = ctx.input(0);
  const ValueInfo& idx = ctx.input(1);
  const int64_t b = ctx.opset() >= 12 ? ctx.node().attrInt("batch_dims", 0) : 0;
  if (!data.hasShape || !idx.hasShape || idx.shape.empty() || !idx.shape.back().isStatic()) {
    ctx.setOutputUnknownShape(0, data.dtype);
    return;
  }
  const int64_t last = idx.shape.back().value;
  IndexChecker(ctx.node(), ErrorCode::kShapeMismatch).gatherNDShape(0, knownDims(data.shape), 1, knownDims(idx.shape), b);
  Shape out(idx.shape.begin(), idx.shape.end() - 1);
  out.insert(out.end(), data.shape.begin() + b + last, data.shape.end());
  ctx.setOutput(0, data.dtype, out);
}

// Scatter / ScatterElements: indices as GatherElements', updates shaped as
// indices; constant indices are range-checked here too.
void inferScatter(InferContext& ctx) {
  const ValueInfo& data = ctx.input(0);
  const ValueInfo& idx = ctx.input(1);
  const ValueInfo& upd = ctx.input(2);
  const IndexChecker chk(ctx.node(), ErrorCode::kShapeMismatch);
  if (idx.hasShape && upd.hasShape) chk.sameShape(1, knownDims(idx.shape), 2, knownDims(upd.shape));
  if (data.hasShape && idx.hasShape) {
    const int64_t r = static_cast<int64_t>(data.shape.size());
    const int64_t axis = normalizeAxis(ctx, ctx.node().attrInt("axis", 0), r);
    chk.elementsShape(0, knownDims(data.shape), 1, knownDims(idx.shape), axis);
    if (const Tensor* t = ctx.inputValue(1); t && data.shape[axis].isStatic()) {
      std::vector<int64_t> normalized;
      chk.normalize(*t, 1, 0, knownDims(data.shape), axis, normalized);
    }
  }
  propagateUnary(ctx);
}

void inferScatterND(InferContext& ctx) {
  const ValueInfo& data = ctx.input(0);
  const ValueInfo& idx = ctx.input(1);
  const ValueInfo& upd = ctx.input(2);
  if (data.hasShape && idx.hasShape && upd.hasShape)
    IndexChecker(ctx.node(), ErrorCode::kShapeMismatch)
        .scatterNDShape(0, knownDims(data.shape), 1, knownDims(idx.shape), 2, knownDims(upd.shape));
  propagateUnary(ctx);
}

void inferExpand(InferContext& ctx) {
  const ValueInfo& in = ctx.input(0);
  auto target = symValues(ctx, 1);
  if (!in.hasShape) {
    if (target) ctx.setOutput(0, in.dtype, Shape(target->size(), Dim()));
    else ctx.setOutputUnknownShape(0, in.dtype);
    return;
  }
  const size_t ri = in.shape.size();
  if (!target) {
    if (ctx.hasShape(1) && ctx.inputShape(1).size() == 1 && ctx.inputShape(1)[0].isStatic()) {
      const size_t r = std::max<size_t>(ri, ctx.inputShape(1)[0].value);
      Shape out(r, Dim());
      for (size_t k = 0; k < ri; ++k) {
        const Dim& d = in.shape[k];
        if (d.isStatic() && d.value != 1) out[r - ri + k] = d;
      }
      ctx.setOutput(0, in.dtype, out);
    } else {
      ctx.setOutputUnknownShape(0, in.dtype);
    }
    return;
  }
  Shape t;
  for (const Dim& d : *target) {
    if (isLiteral(d) && d.value < 0)
      ctx.fail("shape " + inputName(ctx, 1) + " has negative dim " + std::to_string(d.value));
    t.push_back(d);
  }
  const size_t r = std::max(ri, t.size());
  Shape out(r);
  bool bad = false;
  for (size_t k = 0; k < r; ++k) {
    const Dim* a = k + ri >= r ? &in.shape[k + ri - r] : nullptr;
    const Dim* b = k + t.size() >= r ? &t[k + t.size() - r] : nullptr;
    out[k] = mergeBroadcastDim(ctx, a, b, bad);
  }
  if (bad)
    ctx.fail("cannot expand input 0 ('" + ctx.node().inputs[0] + "') of shape " + shapeToString(in.shape) +
             " to shape " + shapeToString(t) + " given by " + inputName(ctx, 1));
  ctx.setOutput(0, in.dtype, out);
}

void inferTile(InferContext& ctx) {
  const ValueInfo& in = ctx.input(0);
  if (!in.hasShape) {
    ctx.setOutputUnknownShape(0, in.dtype);
    return;
  }
  const int64_t r = static_cast<int64_t>(in.shape.size());
  std::optional<std::vector<int64_t>> reps;
  if (ctx.opset() < 6) {  // Tile-1: `tiles` copies along scalar `axis`
    auto tiles = intValues(ctx, 1), axis = intValues(ctx, 2);
    if (tiles && axis && tiles->size() == 1 && axis->size() == 1) {
      reps = std::vector<int64_t>(r, 1);
      (*reps)[normalizeAxis(ctx, (*axis)[0], r)] = (*tiles)[0];
    }
  } else {
    reps = intValues(ctx, 1);
  }
  Shape out = in.shape;
  if (!reps) {
    for (auto& d : out)
      if (!(d.isStatic() && d.value == 0)) d = Dim();
    ctx.setOutput(0, in.dtype, out);
    return;
  }
  if (static_cast<int64_t>(reps->size()) != r)
    ctx.fail("repeats " + inputName(ctx, 1) + " has " + std::to_string(reps->size()) + " values but input 0 ('" +
             ctx.node().inputs[0] + "') has shape " + shapeToString(in.shape));
  for (int64_t k = 0; k < r; ++k) {
    const int64_t m = (*reps)[k];
    if (m < 0) ctx.fail("repeats " + inputName(ctx, 1) + " has negative value " + std::to_string(m));
    if (m == 1) continue;
    if (m == 0) {
      out[k] = Dim(0);
    } else if (out[k].isStatic()) {
      int64_t v;
      if (!checkedMul(out[k].value, m, &v))
        ctx.fail("repeats " + inputName(ctx, 1) + " value " + std::to_string(m) + " times dim " + std::to_string(k) +
                 " (" + std::to_string(out[k].value) + ") of input 0 ('" + ctx.node().inputs[0] + "') overflows int64");
      out[k] = Dim(v);
    } else {
      out[k] = Dim();
    }
  }
  ctx.setOutput(0, in.dtype, out);
}

void inferPad(InferContext& ctx) {
  const ValueInfo& in = ctx.input(0);
  if (!in.hasShape) {
    ctx.setOutputUnknownShape(0, in.dtype);
    return;
  }
  const int64_t r = static_cast<int64_t>(in.shape.size());
  std::optional<std::vector<int64_t>> pads, axes;
  if (ctx.opset() < 11) {
    pads = ctx.node().attrInts(ctx.opset() < 2 ? "paddings" : "pads");
  } else {
    pads = intValues(ctx, 1);
    if (ctx.opset() >= 18 && ctx.hasInput(3)) {
      axes = intValues(ctx, 3);
      if (!axes) pads.reset();
    }
  }
  Shape out = in.shape;
  if (!pads) {
    out.assign(r, Dim());
    ctx.setOutput(0, in.dtype, out);
    return;
  }
  std::vector<int64_t> ax;
  if (axes) {
    for (int64_t a : *axes) ax.push_back(normalizeAxis(ctx, a, r));
  } else {
    for (int64_t k = 0; k < r; ++k) ax.push_back(k);
  }
  const size_t n = ax.size();
  if (pads->size() != 2 * n)
    ctx.fail("pads has " + std::to_string(pads->size()) + " values; expected " + std::to_string(2 * n) +
             " for input 0 ('" + ctx.node().inputs[0] + "') with shape " + shapeToString(in.shape));
  for (size_t j = 0; j < n; ++j) {
    const int64_t k = ax[j], b = (*pads)[j], e = (*pads)[j + n];
    if (b == 0 && e == 0) continue;
    if (out[k].isStatic()) {
      int64_t v;
      if (!checkedAdd(out[k].value, b, &v) || !checkedAdd(v, e, &v))
        ctx.fail("pads " + shapeToString(*pads) + " on axis " + std::to_string(k) + " of input 0 ('" +
                 ctx.node().inputs[0] + "') with shape " + shapeToString(in.shape) + " overflow int64");
      if (v < 0)
        ctx.fail("pads " + shapeToString(*pads) + " make axis " + std::to_string(k) + " of input 0 ('" +
                 ctx.node().inputs[0] + "') with shape " + shapeToString(in.shape) + " negative");
      out[k] = Dim(v);
    } else {
      out[k] = Dim();
    }
  }
  ctx.setOutput(0, in.dtype, out);
}

void inferRange(InferContext& ctx) {
  const DataType dt = ctx.input(0).dtype;
  const Tensor *s = ctx.inputValue(0), *l = ctx.inputValue(1), *d = ctx.inputValue(2);
  if (s && l && d && s->numel() == 1 && l->numel() == 1 && d->numel() == 1) {
    auto asDouble = [](const Tensor* t) -> double {
      switch (t->dtype()) {
        case DataType::kFloat: return t->data<float>()[0];
        case DataType::kDouble: return t->data<double>()[0];
        case DataType::kFloat16: return static_cast<float>(t->data<Float16>()[0]);
        case DataType::kBFloat16: return static_cast<float>(t->data<BFloat16>()[0]);
        default: return static_cast<double>(t->toInt64Vector()[0]);
      }
    };
    std::optional<int64_t> n;
    std::string values;
    if (isIndexType(dt) || dt == DataType::kInt16 || dt == DataType::kInt8) {
      const int64_t a = s->toInt64Vector()[0], b = l->toInt64Vector()[0], c = d->toInt64Vector()[0];
      if (c == 0) ctx.fail("delta " + inputName(ctx, 2) + " must not be 0");
      n = rangeCount(a, b, c);
      values = std::to_string(a) + ", " + std::to_string(b) + ", " + std::to_string(c);
    } else {
      const double a = asDouble(s), b = asDouble(l), c = asDouble(d);
      if (c == 0) ctx.fail("delta " + inputName(ctx, 2) + " must not be 0");
      n = rangeCount(a, b, c);
      values = std::to_string(a) + ", " + std::to_string(b) + ", " + std::to_string(c);
    }
    if (!n)
      ctx.fail("start, limit, delta (" + values + ") give a length that is not finite or does not fit in int64");
    ctx.setOutput(0, dt, {Dim(*n)});
    return;
  }
  // Range(0, n, 1) with n symbolic (from Shape -> Gather): n elements.
  auto start = intValues(ctx, 0), delta = intValues(ctx, 2);
  auto limit = symValues(ctx, 1);
  if (start && delta && limit && limit->size() == 1 && (*start)[0] == 0 && (*delta)[0] == 1 &&
      !isLiteral((*limit)[0])) {
    ctx.setOutput(0, dt, {(*limit)[0]});
    return;
  }
  ctx.setOutput(0, dt, {Dim()});
}

void inferConstantOfShape(InferContext& ctx) {
  DataType dt = DataType::kFloat;
  if (const Tensor* v = ctx.node().attrTensor("value")) {
    if (v->numel() != 1) ctx.fail(ErrorCode::kInvalidModel, "attribute 'value' must hold exactly one element");
    dt = v->dtype();
  }
  auto target = symValues(ctx, 0);
  if (!target) {
    if (ctx.hasShape(0) && ctx.inputShape(0).size() == 1 && ctx.inputShape(0)[0].isStatic())
      ctx.setOutput(0, dt, Shape(ctx.inputShape(0)[0].value, Dim()));
    else
      ctx.setOutputUnknownShape(0, dt);
    return;
  }
  Shape out;
  for (const Dim& d : *target) {
    if (isLiteral(d) && d.value < 0)
      ctx.fail("shape " + inputName(ctx, 0) + " has negative dim " + std::to_string(d.value));
    out.push_back(d);
  }
  ctx.setOutput(0, dt, out);
}

void inferOneHot(InferContext& ctx) {
  const ValueInfo& idx = ctx.input(0);
  const DataType dt = ctx.input(2).dtype;
  if (!idx.hasShape) {
    ctx.setOutputUnknownShape(0, dt);
    return;
  }
  const int64_t r = static_cast<int64_t>(idx.shape.size());
  const int64_t axis = normalizeAxis(ctx, ctx.node().attrInt("axis", -1), r, true);
  Dim depth;
  if (const Tensor* t = ctx.inputValue(1)) {
    if (t->numel() != 1) ctx.fail("depth " + inputName(ctx, 1) + " must have exactly one element");
    double v;
    switch (t->dtype()) {
      case DataType::kFloat: v = t->data<float>()[0]; break;
      case DataType::kDouble: v = t->data<double>()[0]; break;
      case DataType::kFloat16: v = static_cast<float>(t->data<Float16>()[0]); break;
      default: v = static_cast<double>(t->toInt64Vector()[0]);
    }
    const std::optional<int64_t> iv = doubleToInt64(v);
    if (!(v >= 1) || !iv) ctx.fail("depth " + inputName(ctx, 1) + " must be a positive int64, got " + std::to_string(v));
    depth = Dim(*iv);
  } else if (auto s = symValues(ctx, 1); s && s->size() == 1) {
    depth = (*s)[0];
  }
  Shape out = idx.shape;
  out.insert(out.begin() + axis, depth);
  ctx.setOutput(0, dt, out);
}

void inferTrilu(InferContext& ctx) {
  const ValueInfo& in = ctx.input(0);
  if (in.hasShape && in.shape.size() < 2)
    ctx.fail("input 0 ('" + ctx.node().inputs[0] + "') with shape " + shapeToString(in.shape) + " must have rank >= 2");
  propagateUnary(ctx);
}

namespace {
// Returns blocksize^2, refusing a blocksize whose square overflows (2^32
// squared wrapped to 0 and the channel count was divided by it).
int64_t checkBlockInput(InferContext& ctx, const ValueInfo& in, int64_t b) {
  if (b <= 0) ctx.fail(ErrorCode::kInvalidModel, "blocksize must be positive, got " + std::to_string(b));
  int64_t bb;
  if (!checkedMul(b, b, &bb))
    ctx.fail(ErrorCode::kInvalidModel, "blocksize " + std::to_string(b) + " is too large: blocksize^2 overflows int64");
  if (in.hasShape && in.shape.size() != 4)
    ctx.fail("input 0 ('" + ctx.node().inputs[0] + "') must be 4-d [N,C,H,W], got " + shapeToString(in.shape));
  return bb;
}

// d * m, failing with the dim named when it overflows.
Dim scaledBlockDim(InferContext& ctx, const ValueInfo& in, size_t k, int64_t m) {
  int64_t v;
  if (!checkedMul(in.shape[k].value, m, &v))
    ctx.fail("dim " + std::to_string(k) + " of input 0 ('" + ctx.node().inputs[0] + "') with shape " +
             shapeToString(in.shape) + " times " + std::to_string(m) + " overflows int64");
  return Dim(v);
}
}  // namespace

void inferDepthToSpace(InferContext& ctx) {
  const ValueInfo& in = ctx.input(0);
  const int64_t b = ctx.node().attrInt("blocksize", 0);
  const int64_t bb = checkBlockInput(ctx, in, b);
  if (!in.hasShape) {
    ctx.setOutput(0, in.dtype, Shape(4, Dim()));
    return;
  }
  Shape out = in.shape;
  const Dim& c = in.shape[1];
  if (c.isStatic()) {
    if (c.value % bb != 0)
      ctx.fail("channels of input 0 ('" + ctx.node().inputs[0] + "') with shape " + shapeToString(in.shape) +
               " are not divisible by blocksize^2 = " + std::to_string(bb));
    out[1] = Dim(c.value / bb);
  } else if (b != 1) {
    out[1] = Dim();
  }
  for (int k = 2; k < 4; ++k)
    out[k] = in.shape[k].isStatic() ? scaledBlockDim(ctx, in, k, b) : (b == 1 ? in.shape[k] : Dim());
  ctx.setOutput(0, in.dtype, out);
}

void inferSpaceToDepth(InferContext& ctx) {
  const ValueInfo& in = ctx.input(0);
  const int64_t b = ctx.node().attrInt("blocksize", 0);
  const int64_t bb = checkBlockInput(ctx, in, b);
  if (!in.hasShape) {
    ctx.setOutput(0, in.dtype, Shape(4, Dim()));
    return;
  }
  Shape out = in.shape;
  out[1] = in.shape[1].isStatic() ? scaledBlockDim(ctx, in, 1, bb) : (b == 1 ? in.shape[1] : Dim());
  for (int k = 2; k < 4; ++k) {
    const Dim& d = in.shape[k];
    if (d.isStatic()) {
      if (d.value % b != 0)
        ctx.fail("spatial dims of input 0 ('" + ctx.node().inputs[0] + "') with shape " + shapeToString(in.shape) +
                 " are not divisible by blocksize " + std::to_string(b));
      out[k] = Dim(d.value / b);
    } else if (b != 1) {
      out[k] = Dim();
    }
  }
  ctx.setOutput(0, in.dtype, out);
}

void inferEyeLike(InferContext& ctx) {
  const ValueInfo& in = ctx.input(0);
  const DataType dt = ctx.node().hasAttr("dtype") ? static_cast<DataType>(ctx.node().attrInt("dtype", 1)) : in.dtype;
  if (in.hasShape && in.shape.size() != 2)
    ctx.fail("input 0 ('" + ctx.node().inputs[0] + "') must be 2-d, got " + shapeToString(in.shape));
  if (in.hasShape) ctx.setOutput(0, dt, in.shape);
  else ctx.setOutput(0, dt, {Dim(), Dim()});
}

void inferNonZero(InferContext& ctx) {
  const ValueInfo& in = ctx.input(0);
  ctx.setOutput(0, DataType::kInt64, {in.hasShape ? Dim(static_cast<int64_t>(in.shape.size())) : Dim(), Dim()});
}

}  // namespace oinfer::shape
