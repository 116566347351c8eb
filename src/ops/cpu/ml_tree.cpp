// Tree ensembles of the ai.onnx.ml domain: TreeEnsembleRegressor and
// TreeEnsembleClassifier (1, 3) and TreeEnsemble (5).
//
// Every form is flattened once, when the kernel is made, into one Forest:
// branch nodes in an array (feature, mode, split, missing-goes-true, two
// child codes) and leaves as ranges of (target, weight) pairs. A child code
// >= 0 is a branch node's index, < 0 is ~leaf. The file's tree and node ids,
// child ids, feature ids and target / class ids are untrusted: children must
// resolve inside their tree's node list, every target id must be below the
// target (class) count, and each tree is walked once from its root to prove
// it has no cycle, so a run always ends. Feature ids are checked against the
// input's column count at run time (once per run, against their maximum).
// Rows are evaluated in parallel on the pool; within a row trees run in order
// and their scores are aggregated (SUM / AVERAGE / MIN / MAX) in double.
//
// The classifier's label and its binary single-score conventions follow
// onnxruntime (the reference for models exported by skl2onnx/onnxmltools):
// with two labels and class weights on class 0 only, the single score s
// becomes [1 - t, t] (all weights positive, t = s or logistic(s); label by
// s > 0.5) or, with mixed signs, [-s, s] ([logistic(-s), logistic(s)] under
// LOGISTIC; label by s > 0). Otherwise the label is the class of the highest
// score (base values added, before the post-transform). Known divergences
// from onnxruntime 1.32, in configurations no converter writes: two labels
// with weights on both classes and no base values (onnxruntime then returns
// 1 / 0 as the label whatever the class labels are; here: the argmax label),
// and two base values with weights on one class only.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "ops/cpu/ml_common.h"
#include "ops/registry.h"
#include "shape/ml.h"

namespace oinfer {
namespace {

using ml::PostTransform;

enum Mode : uint8_t { kLeq, kLt, kGte, kGt, kEq, kNeq, kMember, kLeaf };
enum class Aggregate { kSum, kAverage, kMin, kMax };

// 24 bytes; a kMember node keeps the index of its set (Forest::setRange) in `split`.
struct Branch {
  double split;
  int32_t feature;
  uint8_t mode;
  uint8_t missingTrue;
  int32_t child[2];  // [false, true]
};

struct Forest {
  std::vector<Branch> nodes;
  std::vector<int32_t> leafBegin{0};  // leaf l: weights [leafBegin[l], leafBegin[l+1])
  std::vector<int32_t> target;
  std::vector<double> weight;
  std::vector<double> sets;                        // the member sets' values, each run sorted
  std::vector<std::pair<int32_t, int32_t>> setRange;  // set i: sets[first, second)
  std::vector<int32_t> roots;  // child codes
  int64_t targets = 0;
  int64_t maxFeature = -1;
  Aggregate agg = Aggregate::kSum;
  uint8_t uniformMode = kLeaf;  // the one mode of every branch (< kEq), else generic
  bool anyMissingTrue = false;   // some branch sends NaNs to its true child

  int32_t addLeaf() {
    leafBegin.push_back(leafBegin.back());
    return static_cast<int32_t>(leafBegin.size()) - 2;
  }
  // Appends a weight to the last leaf made.
  void addWeight(const KernelInit& init, int64_t t, double w, const char* what) {
    if (t < 0 || t >= targets)
      init.fail(std::string(what) + " " + std::to_string(t) + " is outside [0, " + std::to_string(targets) + ")");
    target.push_back(static_cast<int32_t>(t));
    weight.push_back(w);
    ++leafBegin.back();
  }

  // Every tree reachable from its root without a cycle (iterative DFS).
  void checkAcyclic(const KernelInit& init) const {
    std::vector<uint8_t> state(nodes.size(), 0);  // 0 new, 1 on the path, 2 done
    std::vector<std::pair<int32_t, int>> stack;
    for (size_t r = 0; r < roots.size(); ++r) {
      if (roots[r] < 0 || state[roots[r]] == 2) continue;
      stack.push_back({roots[r], 0});
      state[roots[r]] = 1;
      while (!stack.empty()) {
        auto& [n, k] = stack.back();
        if (k == 2) {
          state[n] = 2;
          stack.pop_back();
          continue;
        }
        const int32_t c = nodes[n].child[k++];
        if (c < 0 || state[c] == 2) continue;
        if (state[c] == 1)
          init.fail("tree " + std::to_string(r) + " has a cycle through node " + std::to_string(c));
        state[c] = 1;
        stack.push_back({c, 0});
      }
    }
  }

  void finish(const KernelInit& init) {
    for (const Branch& b : nodes) maxFeature = std::max<int64_t>(maxFeature, b.feature);
    uniformMode = nodes.empty() ? static_cast<uint8_t>(kLeq) : nodes[0].mode;
    for (const Branch& b : nodes)
      if (b.mode != uniformMode) uniformMode = kLeaf;  // mixed: the generic walk
    for (const Branch& b : nodes) anyMissingTrue = anyMissingTrue || b.missingTrue;
    checkAcyclic(init);
  }

  // One step down from branch `code`: every mode, or (M < kMember) a forest
  // whose branches all use mode M, the compare inlined.
  template <int M, bool Missing = true>
  int32_t step(int32_t code, const double* x) const {
    const Branch& b = nodes[code];
    const double v = x[b.feature];
    bool go;
    switch (M < kMember ? M : b.mode) {
      case kLeq: go = v <= b.split; break;
      case kLt: go = v < b.split; break;
      case kGte: go = v >= b.split; break;
      case kGt: go = v > b.split; break;
      case kEq: go = v == b.split; break;
      case kNeq: go = v != b.split; break;
      default: {
        const auto& [lo, hi] = setRange[static_cast<size_t>(b.split)];
        go = !std::isnan(v) && std::binary_search(sets.begin() + lo, sets.begin() + hi, v);
        break;
      }
    }
    if constexpr (Missing) go = static_cast<bool>(go | (b.missingTrue & static_cast<uint8_t>(std::isnan(v))));
    return b.child[go ? 1 : 0];
  }

  // Adds leaf `leaf`'s weights to one row's scores.
  void addLeaf(int32_t leaf, double* sr, uint8_t* hr) const {
    for (int32_t i = leafBegin[leaf]; i < leafBegin[leaf + 1]; ++i) {
      const int32_t k = target[i];
      const double w = weight[i];
      switch (agg) {
        case Aggregate::kSum:
        case Aggregate::kAverage: sr[k] += w; break;
        case Aggregate::kMin: sr[k] = hr[k] ? std::min(sr[k], w) : w; break;
        case Aggregate::kMax: sr[k] = hr[k] ? std::max(sr[k], w) : w; break;
      }
      hr[k] = 1;
    }
  }

  // Raw aggregated scores of n rows (x: n x cols) into s and has (n x
  // targets; has: some leaf gave the target a weight). Tree by tree over the
  // block of rows, so one tree's nodes stay in cache while the rows pass.
  void scoreBlock(const double* x, int64_t cols, int64_t n, double* s, uint8_t* has) const {
    // The two modes the converters write (skl2onnx: LEQ; XGBoost, LightGBM:
    // LT), without the missing-value test when no node sends NaNs true.
    if (uniformMode == kLeq && !anyMissingTrue) return scoreBlockT<kLeq, false>(x, cols, n, s, has);
    if (uniformMode == kLt && !anyMissingTrue) return scoreBlockT<kLt, false>(x, cols, n, s, has);
    switch (uniformMode) {
      case kLeq: return scoreBlockT<kLeq>(x, cols, n, s, has);
      case kLt: return scoreBlockT<kLt>(x, cols, n, s, has);
      case kGte: return scoreBlockT<kGte>(x, cols, n, s, has);
      case kGt: return scoreBlockT<kGt>(x, cols, n, s, has);
      default: return scoreBlockT<kMember + 1>(x, cols, n, s, has);
    }
  }

  template <int M, bool Missing = true>
  void scoreBlockT(const double* x, int64_t cols, int64_t n, double* s, uint8_t* has) const {
    std::fill(s, s + n * targets, 0.0);
    std::fill(has, has + n * targets, 0);
    // kLanes rows walk each tree together: their node loads overlap instead
    // of waiting on one another (a walk is a chain of dependent loads).
    constexpr int kLanes = 8;
    for (int32_t root : roots) {
      int64_t r = 0;
      for (; r + kLanes <= n; r += kLanes) {
        int32_t code[kLanes];
        for (int j = 0; j < kLanes; ++j) code[j] = root;
        for (bool active = root >= 0; active;) {
          active = false;
          for (int j = 0; j < kLanes; ++j)
            if (code[j] >= 0) {
              code[j] = step<M, Missing>(code[j], x + (r + j) * cols);
              active |= code[j] >= 0;
            }
        }
        for (int j = 0; j < kLanes; ++j) addLeaf(~code[j], s + (r + j) * targets, has + (r + j) * targets);
      }
      for (; r < n; ++r) {
        int32_t code = root;
        while (code >= 0) code = step<M, Missing>(code, x + r * cols);
        addLeaf(~code, s + r * targets, has + r * targets);
      }
    }
    if (agg == Aggregate::kAverage && !roots.empty())
      for (int64_t i = 0; i < n * targets; ++i) s[i] /= static_cast<double>(roots.size());
  }
};

Aggregate parseAggregate(const KernelInit& init, const std::string& s) {
  if (s == "SUM") return Aggregate::kSum;
  if (s == "AVERAGE") return Aggregate::kAverage;
  if (s == "MIN") return Aggregate::kMin;
  if (s == "MAX") return Aggregate::kMax;
  init.fail("attribute 'aggregate_function' must be SUM, AVERAGE, MIN or MAX, got '" + s + "'");
}

uint8_t parseMode(const KernelInit& init, const std::string& s) {
  if (s == "BRANCH_LEQ") return kLeq;
  if (s == "BRANCH_LT") return kLt;
  if (s == "BRANCH_GTE") return kGte;
  if (s == "BRANCH_GT") return kGt;
  if (s == "BRANCH_EQ") return kEq;
  if (s == "BRANCH_NEQ") return kNeq;
  if (s == "LEAF") return kLeaf;
  init.fail("attribute 'nodes_modes' holds an unknown mode '" + s + "'");
}

// v1 / v3: nodes named by (tree id, node id); weights attached by the same pair.
// `prefix` is "target" (regressor) or "class" (classifier).
Forest buildV3(const KernelInit& init, const std::string& prefix, int64_t targets) {
  const Node& n = init.node;
  Forest f;
  f.targets = targets;
  const auto treeIds = n.attrInts("nodes_treeids");
  const auto nodeIds = n.attrInts("nodes_nodeids");
  const auto features = n.attrInts("nodes_featureids");
  const auto modes = n.attrStrings("nodes_modes");
  const auto values = ml::attrReals(init, "nodes_values");
  const auto trues = n.attrInts("nodes_truenodeids");
  const auto falses = n.attrInts("nodes_falsenodeids");
  const auto missing = n.attrInts("nodes_missing_value_tracks_true");
  const size_t N = treeIds.size();
  if (N == 0) init.fail("attribute 'nodes_treeids' is required and must not be empty");
  auto sameSize = [&](size_t got, const std::string& name, bool optional) {
    if (got != N && !(optional && got == 0))
      init.fail("attribute '" + name + "' has " + std::to_string(got) + " entries, 'nodes_treeids' has " +
                std::to_string(N));
  };
  sameSize(nodeIds.size(), "nodes_nodeids", false);
  sameSize(features.size(), "nodes_featureids", false);
  sameSize(modes.size(), "nodes_modes", false);
  sameSize(values.size(), "nodes_values", true);
  sameSize(trues.size(), "nodes_truenodeids", false);
  sameSize(falses.size(), "nodes_falsenodeids", false);
  sameSize(missing.size(), "nodes_missing_value_tracks_true", true);

  // (tree, node) -> child code; branch nodes get consecutive indices, leaves their own.
  std::map<std::pair<int64_t, int64_t>, int32_t> code;
  std::vector<int32_t> codeOf(N);
  for (size_t i = 0; i < N; ++i) {
    const uint8_t m = parseMode(init, modes[i]);
    int32_t c;
    if (m == kLeaf) {
      c = ~f.addLeaf();
    } else {
      if (features[i] < 0) init.fail("node " + std::to_string(i) + " has a negative feature id " + std::to_string(features[i]));
      Branch b{};
      b.split = values.empty() ? 0.0 : values[i];
      b.feature = static_cast<int32_t>(std::min<int64_t>(features[i], INT32_MAX));
      b.mode = m;
      b.missingTrue = !missing.empty() && missing[i] != 0;
      c = static_cast<int32_t>(f.nodes.size());
      f.nodes.push_back(b);
    }
    if (!code.emplace(std::make_pair(treeIds[i], nodeIds[i]), c).second)
      init.fail("tree " + std::to_string(treeIds[i]) + " lists node " + std::to_string(nodeIds[i]) + " twice");
    codeOf[i] = c;
  }
  // Each tree's root: its first node in the list (as onnxruntime).
  {
    std::set<int64_t> seen;
    std::vector<int32_t> roots;
    for (size_t i = 0; i < N; ++i)
      if (seen.insert(treeIds[i]).second) roots.push_back(codeOf[i]);
    f.roots = roots;
  }
  for (size_t i = 0; i < N; ++i) {
    if (codeOf[i] < 0) continue;
    Branch& b = f.nodes[codeOf[i]];
    for (int side = 0; side < 2; ++side) {
      const int64_t id = side ? trues[i] : falses[i];
      auto it = code.find({treeIds[i], id});
      if (it == code.end())
        init.fail("node " + std::to_string(nodeIds[i]) + " of tree " + std::to_string(treeIds[i]) + " has " +
                  (side ? "true" : "false") + " child " + std::to_string(id) + ", which is not a node of that tree");
      b.child[side] = it->second;
    }
  }
  const auto wTrees = n.attrInts(prefix + "_treeids");
  const auto wNodes = n.attrInts(prefix + "_nodeids");
  const auto wIds = n.attrInts(prefix + "_ids");
  const auto w = ml::attrReals(init, prefix + "_weights");
  if (wNodes.size() != wTrees.size() || wIds.size() != wTrees.size() || w.size() != wTrees.size())
    init.fail("attributes '" + prefix + "_treeids', '" + prefix + "_nodeids', '" + prefix + "_ids' and '" + prefix +
              "_weights' must have the same length, got " + std::to_string(wTrees.size()) + ", " +
              std::to_string(wNodes.size()) + ", " + std::to_string(wIds.size()) + " and " + std::to_string(w.size()));
  // Weights may come in any order: group them by leaf (stable, keeping the file's order within a leaf).
  std::vector<std::vector<std::pair<int64_t, double>>> perLeaf(f.leafBegin.size() - 1);
  for (size_t i = 0; i < wTrees.size(); ++i) {
    auto it = code.find({wTrees[i], wNodes[i]});
    if (it == code.end() || it->second >= 0)
      init.fail("'" + prefix + "_nodeids' names node " + std::to_string(wNodes[i]) + " of tree " +
                std::to_string(wTrees[i]) + ", which is not a leaf");
    perLeaf[~it->second].push_back({wIds[i], w[i]});
  }
  f.leafBegin.assign(1, 0);
  const std::string what = prefix + "_ids value";
  for (const auto& leaf : perLeaf) {
    f.addLeaf();
    for (const auto& [t, v] : leaf) f.addWeight(init, t, v, what.c_str());
  }
  f.finish(init);
  return f;
}

// Raw scores -> output row with base values (v1/v3 regressor, v5).
void checkFeatures(KernelContext& ctx, const Forest& f, int64_t cols) {
  if (f.maxFeature >= cols)
    ctx.fail("a tree node reads feature " + std::to_string(f.maxFeature) + " but input 'X' has " +
             std::to_string(cols) + " features");
}

constexpr int64_t kBlock = 64;  // rows per pass over the trees

// Per-thread scratch for one block: x as doubles, the scores, the flags.
size_t blockBytes(int64_t cols, int64_t targets) {
  return static_cast<size_t>(kBlock * (cols + targets)) * sizeof(double) + static_cast<size_t>(kBlock * targets);
}

// Asks for per-thread block scratch when X's column count is known at plan
// time; returns the request's id, or -1 (run() then allocates).
int64_t requestBlockScratch(const KernelInit& init, int64_t targets) {
  if (!init.hasInput(0) || !init.inputs[0]->hasShape || init.inputs[0]->shape.empty()) return -1;
  const Dim& c = init.inputs[0]->shape.back();
  if (c.value < 0) return -1;
  return static_cast<int64_t>(init.requestScratch(blockBytes(c.value, targets), true));
}

// Scores every row on the pool, a block of rows at a time, then runs
// fn(row, scores, has) per row (scores and has: the forest's targets).
// Buffers come from the kernel's planned scratch (scratchId >= 0, big enough)
// so a warm run allocates nothing; otherwise from the heap for the call.
template <class F>
void forRows(KernelContext& ctx, const Tensor& X, int64_t rows, int64_t cols, const Forest& f, int64_t scratchId,
             F fn) {
  const int64_t T = f.targets;
  const size_t need = blockBytes(cols, T);
  const ScratchSpan* span = scratchId >= 0 ? &ctx.scratch(static_cast<size_t>(scratchId)) : nullptr;
  if (span && (span->bytes < need || !span->base)) span = nullptr;
  ctx.pool().parallelFor((rows + kBlock - 1) / kBlock, [&](int64_t b, int64_t e) {
    std::vector<uint8_t> own;
    uint8_t* mem;
    if (span) {
      mem = span->mine<uint8_t>();
    } else {
      own.resize(need);
      mem = own.data();
    }
    double* x = reinterpret_cast<double*>(mem);
    double* s = x + kBlock * cols;
    uint8_t* has = reinterpret_cast<uint8_t*>(s + kBlock * T);
    for (int64_t blk = b; blk < e; ++blk) {
      const int64_t r0 = blk * kBlock, n = std::min(kBlock, rows - r0);
      const double* xb = x;
      if (X.dtype() == DataType::kDouble) {
        xb = X.data<double>() + r0 * cols;
      } else {
        for (int64_t i = 0; i < n * cols; ++i) x[i] = ml::realAt(X, r0 * cols + i);
      }
      f.scoreBlock(xb, cols, n, s, has);
      for (int64_t i = 0; i < n; ++i) fn(r0 + i, s + i * T, has + i * T);
    }
  }, 1);
}

class RegressorKernel final : public Kernel {
 public:
  explicit RegressorKernel(const KernelInit& init) {
    const Node& n = init.node;
    const int64_t targets = n.attrInt("n_targets", 1);
    if (targets < 1) init.fail("attribute 'n_targets' must be >= 1, got " + std::to_string(targets));
    forest_ = buildV3(init, "target", targets);
    forest_.agg = parseAggregate(init, n.attrString("aggregate_function", "SUM"));
    pt_ = ml::parsePostTransform(init, n.attrString("post_transform", "NONE"));
    scratch_ = requestBlockScratch(init, targets);
    base_ = ml::attrReals(init, "base_values");
    if (!base_.empty() && base_.size() != 1 && static_cast<int64_t>(base_.size()) != targets)
      init.fail("attribute 'base_values' has " + std::to_string(base_.size()) + " values for " +
                std::to_string(targets) + " targets");
  }

  void run(KernelContext& ctx) override {
    const Tensor& X = ctx.input(0);
    int64_t rows, cols;
    ml::rowsCols(X, rows, cols);
    checkFeatures(ctx, forest_, cols);
    float* y = ctx.output(0).data<float>();
    const int64_t T = forest_.targets;
    forRows(ctx, X, rows, cols, forest_, scratch_, [&](int64_t r, double* s, uint8_t* has) {
      // A target no leaf reached scores 0, without its base value (as onnxruntime).
      for (int64_t k = 0; k < T; ++k) {
        if (!has[k]) s[k] = 0;
        else if (base_.size() == static_cast<size_t>(T)) s[k] += base_[k];
        else if (base_.size() == 1) s[k] += base_[0];
      }
      ml::postTransform(pt_, s, T);
      for (int64_t k = 0; k < T; ++k) y[r * T + k] = static_cast<float>(s[k]);
    });
  }

 private:
  Forest forest_;
  int64_t scratch_ = -1;
  PostTransform pt_;
  std::vector<double> base_;
};

class ClassifierKernel final : public Kernel {
 public:
  explicit ClassifierKernel(const KernelInit& init) {
    const Node& n = init.node;
    intLabels_ = n.attrInts("classlabels_int64s");
    strLabels_ = n.attrStrings("classlabels_strings");
    if (intLabels_.empty() == strLabels_.empty())
      init.fail("exactly one of 'classlabels_int64s' and 'classlabels_strings' must be given and non-empty");
    classes_ = static_cast<int64_t>(strLabels_.empty() ? intLabels_.size() : strLabels_.size());
    forest_ = buildV3(init, "class", classes_);
    scratch_ = requestBlockScratch(init, classes_);
    pt_ = ml::parsePostTransform(init, n.attrString("post_transform", "NONE"));
    base_ = ml::attrReals(init, "base_values");
    if (!base_.empty() && static_cast<int64_t>(base_.size()) != classes_ && base_.size() != 1)
      init.fail("attribute 'base_values' has " + std::to_string(base_.size()) + " values for " +
                std::to_string(classes_) + " classes");
    std::set<int32_t> used(forest_.target.begin(), forest_.target.end());
    binary_ = classes_ == 2 && used.size() == 1;
    allPositive_ = std::all_of(forest_.weight.begin(), forest_.weight.end(), [](double w) { return w >= 0; });
  }

  void run(KernelContext& ctx) override {
    const Tensor& X = ctx.input(0);
    int64_t rows, cols;
    ml::rowsCols(X, rows, cols);
    checkFeatures(ctx, forest_, cols);
    Tensor& Y = ctx.output(0);
    float* z = ctx.output(1).data<float>();
    const int64_t C = classes_;
    forRows(ctx, X, rows, cols, forest_, scratch_, [&](int64_t r, double* s, uint8_t* has) {
      const int64_t label = finish(s, has);
      if (strLabels_.empty()) Y.data<int64_t>()[r] = intLabels_[label];
      else Y.data<std::string>()[r] = strLabels_[label];
      for (int64_t k = 0; k < C; ++k) z[r * C + k] = static_cast<float>(s[k]);
    });
  }

 private:
  // Adds base values, picks the label (an index) and post-transforms s in place.
  int64_t finish(double* s, uint8_t* has) const {
    const int64_t C = classes_;
    if (binary_) {
      // Two labels, weights on one class only (onnxruntime's binary case): a
      // single base value goes to class 0's slot; the label compares the
      // score of class 1 (or, without one, of class 0) with 0.5 (all weights
      // positive) or 0.
      if (base_.size() == 1) s[0] += base_[0];
      else if (base_.size() == 2) { s[0] += base_[0]; s[1] += base_[1]; }
      const double pos = has[1] ? s[1] : s[0];
      const int64_t label = allPositive_ ? (pos > 0.5 ? 1 : 0) : (pos > 0 ? 1 : 0);
      if (has[1]) {  // two scores, transformed as they are; class 0 has none: 0
        if (!has[0]) s[0] = 0;
        ml::postTransform(pt_, s, 2);
        return label;
      }
      const double v = s[0];
      if (pt_ == PostTransform::kProbit) {
        s[0] = ml::probit(v);
        s[1] = 0;
      } else if (allPositive_) {  // [1 - t, t]
        const double t = pt_ == PostTransform::kLogistic ? ml::logistic(v) : v;
        s[0] = 1 - t;
        s[1] = t;
      } else if (pt_ == PostTransform::kLogistic) {
        s[0] = ml::logistic(-v);
        s[1] = ml::logistic(v);
      } else {
        s[0] = -v;
        s[1] = v;
      }
      return label;
    }
    for (int64_t k = 0; k < C; ++k) {
      if (base_.size() == static_cast<size_t>(C)) s[k] += base_[k];
      else if (base_.size() == 1) s[k] += base_[0];
      has[k] = has[k] || !base_.empty();
    }
    int64_t best = -1;
    for (int64_t k = 0; k < C; ++k)
      if (has[k] && (best < 0 || s[k] > s[best])) best = k;
    if (best < 0) best = 0;
    ml::postTransform(pt_, s, C);
    return best;
  }

  Forest forest_;
  int64_t scratch_ = -1;
  PostTransform pt_;
  std::vector<double> base_;
  std::vector<int64_t> intLabels_;
  std::vector<std::string> strLabels_;
  int64_t classes_ = 0;
  bool binary_ = false, allPositive_ = true;
};

// v5: nodes by index, leaves by index into leaf_targetids / leaf_weights.
class TreeEnsembleKernel final : public Kernel {
 public:
  explicit TreeEnsembleKernel(const KernelInit& init) {
    const Node& n = init.node;
    Forest& f = forest_;
    f.targets = n.attrInt("n_targets", 0);
    if (f.targets < 1) init.fail("attribute 'n_targets' must be >= 1, got " + std::to_string(f.targets));
    const int64_t agg = n.attrInt("aggregate_function", 1);
    if (agg < 0 || agg > 3) init.fail("attribute 'aggregate_function' must be 0..3, got " + std::to_string(agg));
    f.agg = agg == 0 ? Aggregate::kAverage : agg == 1 ? Aggregate::kSum : agg == 2 ? Aggregate::kMin : Aggregate::kMax;
    // The spec's numbering: 0 NONE, 1 SOFTMAX, 2 LOGISTIC, 3 SOFTMAX_ZERO,
    // 4 PROBIT (onnx.reference agrees; onnxruntime 1.32 reads 1 as LOGISTIC
    // and 2 as SOFTMAX).
    const int64_t pt = n.attrInt("post_transform", 0);
    if (pt < 0 || pt > 4) init.fail("attribute 'post_transform' must be 0..4, got " + std::to_string(pt));
    pt_ = static_cast<PostTransform>(pt);

    const auto features = n.attrInts("nodes_featureids");
    const auto trues = n.attrInts("nodes_truenodeids");
    const auto falses = n.attrInts("nodes_falsenodeids");
    const auto trueLeaf = n.attrInts("nodes_trueleafs");
    const auto falseLeaf = n.attrInts("nodes_falseleafs");
    const auto missing = n.attrInts("nodes_missing_value_tracks_true");
    const auto splits = ml::tensorReals(init, "nodes_splits", true);
    const auto members = ml::tensorReals(init, "membership_values", false);
    const Tensor* modesT = n.attrTensor("nodes_modes");
    if (!modesT || modesT->dtype() != DataType::kUInt8) init.fail("attribute 'nodes_modes' must be a uint8 tensor");
    const auto targets = n.attrInts("leaf_targetids");
    const auto weights = ml::tensorReals(init, "leaf_weights", true);
    const auto roots = n.attrInts("tree_roots");
    const size_t N = features.size();
    if (N == 0) init.fail("attribute 'nodes_featureids' is required and must not be empty");
    auto sameSize = [&](size_t got, const std::string& name, bool optional) {
      if (got != N && !(optional && got == 0))
        init.fail("attribute '" + name + "' has " + std::to_string(got) + " entries, 'nodes_featureids' has " +
                  std::to_string(N));
    };
    sameSize(trues.size(), "nodes_truenodeids", false);
    sameSize(falses.size(), "nodes_falsenodeids", false);
    sameSize(trueLeaf.size(), "nodes_trueleafs", false);
    sameSize(falseLeaf.size(), "nodes_falseleafs", false);
    sameSize(missing.size(), "nodes_missing_value_tracks_true", true);
    sameSize(splits.size(), "nodes_splits", false);
    sameSize(static_cast<size_t>(modesT->numel()), "nodes_modes", false);
    if (targets.size() != weights.size())
      init.fail("attributes 'leaf_targetids' and 'leaf_weights' have " + std::to_string(targets.size()) + " and " +
                std::to_string(weights.size()) + " entries");
    if (roots.empty()) init.fail("attribute 'tree_roots' is required and must not be empty");
    for (size_t l = 0; l < targets.size(); ++l) {
      f.addLeaf();
      f.addWeight(init, targets[l], weights[l], "'leaf_targetids' value");
    }
    const int64_t L = static_cast<int64_t>(targets.size());
    size_t memberAt = 0;
    for (size_t i = 0; i < N; ++i) {
      Branch b{};
      b.mode = modesT->data<uint8_t>()[i];
      if (b.mode > kMember) init.fail("attribute 'nodes_modes' holds an unknown mode " + std::to_string(b.mode));
      if (features[i] < 0) init.fail("node " + std::to_string(i) + " has a negative feature id " + std::to_string(features[i]));
      b.feature = static_cast<int32_t>(std::min<int64_t>(features[i], INT32_MAX));
      b.split = splits[i];
      b.missingTrue = !missing.empty() && missing[i] != 0;
      if (b.mode == kMember) {
        // The node's set: the next run of membership_values up to a NaN.
        if (memberAt >= members.size())
          init.fail("node " + std::to_string(i) + " is BRANCH_MEMBER but 'membership_values' has no set left for it");
        const int32_t begin = static_cast<int32_t>(f.sets.size());
        for (; memberAt < members.size() && !std::isnan(members[memberAt]); ++memberAt) f.sets.push_back(members[memberAt]);
        ++memberAt;
        std::sort(f.sets.begin() + begin, f.sets.end());
        b.split = static_cast<double>(f.setRange.size());
        f.setRange.push_back({begin, static_cast<int32_t>(f.sets.size())});
      }
      for (int side = 0; side < 2; ++side) {
        const int64_t id = side ? trues[i] : falses[i];
        const bool leaf = (side ? trueLeaf[i] : falseLeaf[i]) != 0;
        const int64_t limit = leaf ? L : static_cast<int64_t>(N);
        if (id < 0 || id >= limit)
          init.fail("node " + std::to_string(i) + " has " + (side ? "true" : "false") + " " +
                    (leaf ? "leaf " : "node ") + std::to_string(id) + " outside [0, " + std::to_string(limit) + ")");
        b.child[side] = leaf ? ~static_cast<int32_t>(id) : static_cast<int32_t>(id);
      }
      f.nodes.push_back(b);
    }
    for (int64_t r : roots) {
      if (r < 0 || r >= static_cast<int64_t>(N))
        init.fail("attribute 'tree_roots' holds " + std::to_string(r) + ", outside [0, " + std::to_string(N) + ")");
      // A tree that is one leaf: both children the same leaf.
      const Branch& b = f.nodes[r];
      f.roots.push_back(b.child[0] < 0 && b.child[0] == b.child[1] ? b.child[0] : static_cast<int32_t>(r));
    }
    f.finish(init);
    scratch_ = requestBlockScratch(init, f.targets);
  }

  void run(KernelContext& ctx) override {
    const Tensor& X = ctx.input(0);
    int64_t rows, cols;
    ml::rowsCols(X, rows, cols);
    checkFeatures(ctx, forest_, cols);
    Tensor& Y = ctx.output(0);
    const int64_t T = forest_.targets;
    forRows(ctx, X, rows, cols, forest_, scratch_, [&](int64_t r, double* s, uint8_t* has) {
      // A target no leaf reached scores 0 (as onnxruntime; onnx.reference
      // starts MIN / MAX at the type's largest / lowest value instead).
      for (int64_t k = 0; k < T; ++k)
        if (!has[k]) s[k] = 0;
      ml::postTransform(pt_, s, T);
      for (int64_t k = 0; k < T; ++k) {
        if (Y.dtype() == DataType::kDouble) Y.data<double>()[r * T + k] = s[k];
        else Y.data<float>()[r * T + k] = static_cast<float>(s[k]);
      }
    });
  }

 private:
  Forest forest_;
  int64_t scratch_ = -1;
  PostTransform pt_;
};

}  // namespace

void register_ml_tree(Registry& r) {
  const std::vector<DataType> inTypes{DataType::kFloat, DataType::kDouble, DataType::kInt64, DataType::kInt32};
  for (int v : {1, 3}) {
    r.add(ml::mlOp("TreeEnsembleRegressor", v, shape::inferTreeEnsembleRegressor,
                   [](const KernelInit& i) -> std::unique_ptr<Kernel> { return std::make_unique<RegressorKernel>(i); },
                   inTypes));
    r.add(ml::mlOp("TreeEnsembleClassifier", v, shape::inferTreeEnsembleClassifier,
                   [](const KernelInit& i) -> std::unique_ptr<Kernel> { return std::make_unique<ClassifierKernel>(i); },
                   inTypes));
  }
  r.add(ml::mlOp("TreeEnsemble", 5, shape::inferTreeEnsemble,
                 [](const KernelInit& i) -> std::unique_ptr<Kernel> { return std::make_unique<TreeEnsembleKernel>(i); },
                 {DataType::kFloat, DataType::kDouble}));
}

}  // namespace oinfer
