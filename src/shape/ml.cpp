#include "shape/ml.h"

#include <string>

namespace oinfer::shape {
namespace {

// The row count of a [N, C] / [C] feature input (unknown rank: a fresh dim).
Dim rowsOf(InferContext& ctx) {
  if (!ctx.hasShape(0)) return ctx.freshDim();
  const Shape& x = ctx.inputShape(0);
  if (x.size() > 2)
    ctx.fail("input 0 ('" + ctx.node().inputs[0] + "') must be [N, C] or [C], got shape " + shapeToString(x));
  return x.size() == 2 ? x[0] : Dim(1);
}

DataType labelType(InferContext& ctx, const char* ints, const char* strings) {
  const bool s = !ctx.node().attrStrings(strings).empty();
  const bool i = !ctx.node().attrInts(ints).empty();
  if (s == i) ctx.fail(std::string("exactly one of '") + ints + "' and '" + strings + "' must be given and non-empty");
  return s ? DataType::kString : DataType::kInt64;
}

int64_t classCount(InferContext& ctx, const char* ints, const char* strings) {
  const auto s = ctx.node().attrStrings(strings);
  return s.empty() ? static_cast<int64_t>(ctx.node().attrInts(ints).size()) : static_cast<int64_t>(s.size());
}

// n_targets from the file, bounded so that a hostile value cannot ask for an
// absurd output (every target needs a leaf weight in a real model).
int64_t targetCount(InferContext& ctx) {
  const int64_t t = ctx.node().attrInt("n_targets", 1);
  constexpr int64_t kMaxTargets = int64_t{1} << 24;
  if (t < 1 || t > kMaxTargets)
    ctx.fail("attribute 'n_targets' must be in [1, " + std::to_string(kMaxTargets) + "], got " + std::to_string(t));
  return t;
}

}  // namespace

void inferTreeEnsembleRegressor(InferContext& ctx) {
  ctx.setOutput(0, DataType::kFloat, {rowsOf(ctx), Dim(targetCount(ctx))});
}

void inferTreeEnsembleClassifier(InferContext& ctx) {
  const Dim n = rowsOf(ctx);
  ctx.setOutput(0, labelType(ctx, "classlabels_int64s", "classlabels_strings"), {n});
  if (ctx.numOutputs() > 1)
    ctx.setOutput(1, DataType::kFloat, {n, Dim(classCount(ctx, "classlabels_int64s", "classlabels_strings"))});
}

void inferTreeEnsemble(InferContext& ctx) {
  ctx.setOutput(0, ctx.inputType(0), {rowsOf(ctx), Dim(targetCount(ctx))});
}

void inferLinearRegressor(InferContext& ctx) {
  ctx.setOutput(0, DataType::kFloat, {rowsOf(ctx), Dim(ctx.node().attrInt("targets", 1))});
}

void inferLinearClassifier(InferContext& ctx) {
  const Dim n = rowsOf(ctx);
  ctx.setOutput(0, labelType(ctx, "classlabels_ints", "classlabels_strings"), {n});
  const int64_t classes = classCount(ctx, "classlabels_ints", "classlabels_strings");
  // One row of coefficients per score; a single row with two labels gives two scores.
  const int64_t rowsW = static_cast<int64_t>(ctx.node().attrFloats("intercepts").size());
  const int64_t scores = (rowsW == 1 && classes == 2) ? 2 : rowsW;
  if (ctx.numOutputs() > 1) ctx.setOutput(1, DataType::kFloat, {n, Dim(scores)});
}

void inferSVMClassifier(InferContext& ctx) {
  const Node& n = ctx.node();
  const Dim rows = rowsOf(ctx);
  ctx.setOutput(0, labelType(ctx, "classlabels_ints", "classlabels_strings"), {rows});
  // Scores: one per class, except one-vs-one without probabilities: one per
  // class pair (two for two classes).
  const int64_t K = classCount(ctx, "classlabels_ints", "classlabels_strings");
  int64_t vectors = 0;
  for (int64_t v : n.attrInts("vectors_per_class")) vectors += v;
  int64_t scores = K;
  if (vectors > 0 && n.attrFloats("prob_a").empty()) scores = K > 2 ? K * (K - 1) / 2 : 2;
  if (ctx.numOutputs() > 1) ctx.setOutput(1, DataType::kFloat, {rows, Dim(scores)});
}

void inferSVMRegressor(InferContext& ctx) { ctx.setOutput(0, DataType::kFloat, {rowsOf(ctx), Dim(1)}); }

void inferToFloatSameShape(InferContext& ctx) {
  if (!ctx.hasShape(0)) return ctx.setOutputUnknownShape(0, DataType::kFloat);
  ctx.setOutput(0, DataType::kFloat, ctx.inputShape(0));
}

void inferMlSameAsInput(InferContext& ctx) { propagateUnary(ctx); }

void inferLabelEncoder(InferContext& ctx) {
  const Node& n = ctx.node();
  DataType out = DataType::kUndefined;
  if (const Tensor* t = n.attrTensor("values_tensor")) out = t->dtype();
  else if (!n.attrFloats("values_floats").empty()) out = DataType::kFloat;
  else if (!n.attrInts("values_int64s").empty()) out = DataType::kInt64;
  else if (!n.attrStrings("values_strings").empty()) out = DataType::kString;
  else if (!n.attrStrings("classes_strings").empty())  // opset 1: string <-> int64
    out = ctx.inputType(0) == DataType::kString ? DataType::kInt64 : DataType::kString;
  else ctx.fail("no values given: set one of 'values_floats', 'values_int64s', 'values_strings', 'values_tensor'");
  if (!ctx.hasShape(0)) return ctx.setOutputUnknownShape(0, out);
  ctx.setOutput(0, out, ctx.inputShape(0));
}

void inferArrayFeatureExtractor(InferContext& ctx) {
  const DataType dt = ctx.inputType(0);
  if (!ctx.hasShape(0) || !ctx.hasShape(1)) return ctx.setOutputUnknownShape(0, dt);
  Shape x = ctx.inputShape(0);
  const Shape& idx = ctx.inputShape(1);
  const Dim k = dimProduct(ctx, idx);
  if (x.empty()) ctx.fail("input 0 ('" + ctx.node().inputs[0] + "') must have rank >= 1");
  if (x.size() == 1) x = {Dim(1), k};
  else x.back() = k;
  ctx.setOutput(0, dt, x);
}

void inferOneHotEncoder(InferContext& ctx) {
  const auto cats = ctx.node().attrStrings("cats_strings");
  const int64_t k = cats.empty() ? static_cast<int64_t>(ctx.node().attrInts("cats_int64s").size())
                                 : static_cast<int64_t>(cats.size());
  if (!ctx.hasShape(0)) return ctx.setOutputUnknownShape(0, DataType::kFloat);
  Shape s = ctx.inputShape(0);
  s.push_back(Dim(k));
  ctx.setOutput(0, DataType::kFloat, s);
}

void inferCategoryMapper(InferContext& ctx) {
  const DataType out = ctx.inputType(0) == DataType::kString ? DataType::kInt64 : DataType::kString;
  if (!ctx.hasShape(0)) return ctx.setOutputUnknownShape(0, out);
  ctx.setOutput(0, out, ctx.inputShape(0));
}

void inferFeatureVectorizer(InferContext& ctx) {
  const auto dims = ctx.node().attrInts("inputdimensions");
  int64_t total = 0;
  for (int64_t d : dims) total += d;
  ctx.setOutput(0, DataType::kFloat, {rowsOf(ctx), Dim(total)});
}

void inferZipMap(InferContext& ctx) {
  ctx.fail(ErrorCode::kNotImplemented,
           "ZipMap (a sequence of maps) is not supported; export the classifier with zipmap=False "
           "(skl2onnx: options={id(model): {'zipmap': False}}) to get the probabilities as a tensor");
}

}  // namespace oinfer::shape
