// Shape functions of the ai.onnx.ml ops (kernels in src/ops/cpu/ml_tree.cpp
// and src/ops/cpu/ml.cpp). Feature inputs are [N, C] (or [C]: one row).
#pragma once

#include "shape/infer_context.h"

namespace oinfer::shape {

// [N, C] -> Y [N, n_targets] float.
void inferTreeEnsembleRegressor(InferContext& ctx);
// [N, C] -> Y [N] int64 or string (the labels' type), Z [N, classes] float.
void inferTreeEnsembleClassifier(InferContext& ctx);
// [N, C] -> Y [N, n_targets] of X's type.
void inferTreeEnsemble(InferContext& ctx);
// LinearRegressor: [N, C] -> [N, targets] float.
void inferLinearRegressor(InferContext& ctx);
// LinearClassifier / SVMClassifier: labels [N], scores [N, K] float.
void inferLinearClassifier(InferContext& ctx);
void inferSVMClassifier(InferContext& ctx);
void inferSVMRegressor(InferContext& ctx);
// Same shape as X, float (Scaler, Normalizer).
void inferToFloatSameShape(InferContext& ctx);
// Same shape and type as X (Binarizer, Imputer).
void inferMlSameAsInput(InferContext& ctx);
void inferLabelEncoder(InferContext& ctx);
void inferArrayFeatureExtractor(InferContext& ctx);
void inferOneHotEncoder(InferContext& ctx);
void inferCategoryMapper(InferContext& ctx);
void inferFeatureVectorizer(InferContext& ctx);
void inferZipMap(InferContext& ctx);

}  // namespace oinfer::shape
