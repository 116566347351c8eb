#include "ops/common/slice.h"

#include <algorithm>
#include <string>

namespace oinfer::tensor_ops {

SliceParams SliceParams::fromInit(const KernelInit& init) {
  SliceParams p;
  p.fromAttrs = init.opset < 10;
  if (p.fromAttrs) {
    p.starts = init.node.attrInts("starts");
    p.ends = init.node.attrInts("ends");
    p.hasAxes = init.node.hasAttr("axes");
    p.axes = init.node.attrInts("axes");
  }
  return p;
}

SliceWindow resolveSlice(const KernelContext& ctx, const SliceParams& p, const std::vector<int64_t>& inShape,
                         const std::vector<int64_t>& inStrides) {
  const int64_t r = static_cast<int64_t>(inShape.size());
  std::vector<int64_t> starts = p.starts, ends = p.ends, axes = p.axes, steps;
  bool haveAxes = p.hasAxes;
  if (!p.fromAttrs) {
    starts = ctx.input(1).toInt64Vector();
    ends = ctx.input(2).toInt64Vector();
    if (ctx.hasInput(3)) {
      axes = ctx.input(3).toInt64Vector();
      haveAxes = true;
    }
    if (ctx.hasInput(4)) steps = ctx.input(4).toInt64Vector();
  }
  const size_t n = starts.size();
  if (ends.size() != n || (haveAxes && axes.size() != n) || (!steps.empty() && steps.size() != n))
    ctx.fail("starts, ends, axes and steps must have the same length");
  SliceWindow w;
  w.shape = inShape;
  w.strides = inStrides;
  for (size_t j = 0; j < n; ++j) {
    int64_t a = haveAxes ? axes[j] : static_cast<int64_t>(j);
    if (a < 0) a += r;
    if (a < 0 || a >= r) ctx.fail("slice axis " + std::to_string(haveAxes ? axes[j] : j) + " is out of range for rank " + std::to_string(r));
    const int64_t st = steps.empty() ? 1 : steps[j];
    if (st == 0) ctx.fail("slice step must not be 0");
    const int64_t d = inShape[a];
    int64_t s = starts[j], e = ends[j], count;
    if (s < 0) s += d;
    if (e < 0) e += d;
    if (st > 0) {
      s = std::clamp<int64_t>(s, 0, d);
      e = std::clamp<int64_t>(e, 0, d);
      count = e > s ? (e - s + st - 1) / st : 0;
    } else {
      s = std::clamp<int64_t>(s, 0, d - 1);
      e = std::clamp<int64_t>(e, -1, d - 1);
      count = s > e ? (s - e - st - 1) / (-st) : 0;
    }
    w.shape[a] = count;
    if (count > 0) w.offset += s * inStrides[a];
    w.strides[a] = inStrides[a] * st;
  }
  return w;
}

}  // namespace oinfer::tensor_ops
