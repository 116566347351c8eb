// ai.onnx.ml ops against onnxruntime 1.32 (the reference for skl2onnx /
// onnxmltools models), and every error path of the ml kernels. The expected
// values come from one-node models run with onnxruntime:
//   node = helper.make_node(op, ["X"], outputs, domain="ai.onnx.ml", **attrs)
//   model = helper.make_model(helper.make_graph([node], ...),
//       opset_imports=[make_opsetid("", 17), make_opsetid("ai.onnx.ml", version)])
//   onnxruntime.InferenceSession(model.SerializeToString()).run(None, {"X": X})
// Known divergences from onnxruntime are stated in src/ops/cpu/ml_tree.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "op_tester.h"

namespace oinfer::testing {
namespace {

constexpr const char* kMl = "ai.onnx.ml";

TEST(MlOps, TreeRegressorSumNone) {
  // two trees using every BRANCH_* mode, NaNs (tree 1 sends missing values true), two targets; expected: onnxruntime 1.32, base_values [0.1, -0.2]
  OpTester t("TreeEnsembleRegressor", 3, kMl);
  t
      .attr("nodes_treeids", std::vector<int64_t>{0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1})
      .attr("nodes_nodeids", std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 1, 2, 3, 4})
      .attr("nodes_featureids", std::vector<int64_t>{0, 1, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0})
      .attr("nodes_modes", std::vector<std::string>{"BRANCH_LT", "BRANCH_GTE", "BRANCH_EQ", "LEAF", "LEAF", "LEAF", "BRANCH_NEQ", "LEAF", "LEAF", "BRANCH_GT", "LEAF", "BRANCH_LEQ", "LEAF", "LEAF"})
      .attr("nodes_values", std::vector<float>{0.5f, 1.0f, 2.0f, 0.0f, 0.0f, 0.0f, 3.0f, 0.0f, 0.0f, 4.0f, 0.0f, 0.5f, 0.0f, 0.0f})
      .attr("nodes_truenodeids", std::vector<int64_t>{1, 3, 5, 0, 0, 0, 7, 0, 0, 1, 0, 3, 0, 0})
      .attr("nodes_falsenodeids", std::vector<int64_t>{2, 4, 6, 0, 0, 0, 8, 0, 0, 2, 0, 4, 0, 0})
      .attr("nodes_missing_value_tracks_true", std::vector<int64_t>{0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0})
      .attr("target_treeids", std::vector<int64_t>{0, 0, 0, 0, 0, 0, 1, 1, 1, 1})
      .attr("target_nodeids", std::vector<int64_t>{3, 4, 5, 7, 8, 8, 1, 3, 4, 4})
      .attr("target_ids", std::vector<int64_t>{0, 1, 0, 1, 0, 1, 0, 0, 1, 0})
      .attr("target_weights", std::vector<float>{1.0f, 2.0f, -3.0f, 4.0f, 0.5f, 0.25f, 10.0f, -1.0f, 0.75f, 2.5f})
      .attr("n_targets", int64_t{2})
      .attr("aggregate_function", "SUM")
      .attr("post_transform", "NONE")
      .attr("base_values", std::vector<float>{0.10000000149011612f, -0.20000000298023224f})
      .input("X", Tensor::fromVector<float>({6, 2}, {0.20000000298023224f, 1.5f, 0.20000000298023224f, 0.5f, 0.8999999761581421f, 2.0f, 0.8999999761581421f, 7.0f, NAN, 2.0f, 3.0f, NAN}))
      .expect("Y", Tensor::fromVector<float>({6, 2}, {0.10000000149011612f, 0.0f, -0.8999999761581421f, 1.7999999523162842f, -0.4000000059604645f, 0.550000011920929f, 10.100000381469727f, 3.799999952316284f, -0.4000000059604645f, 0.550000011920929f, 10.600000381469727f, 0.04999999701976776f}));
  t.run();
}

TEST(MlOps, TreeRegressorAverageSoftmax) {
  // two trees using every BRANCH_* mode, NaNs (tree 1 sends missing values true), two targets; expected: onnxruntime 1.32, base_values [0.1, -0.2]
  OpTester t("TreeEnsembleRegressor", 3, kMl);
  t
      .attr("nodes_treeids", std::vector<int64_t>{0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1})
      .attr("nodes_nodeids", std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 1, 2, 3, 4})
      .attr("nodes_featureids", std::vector<int64_t>{0, 1, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0})
      .attr("nodes_modes", std::vector<std::string>{"BRANCH_LT", "BRANCH_GTE", "BRANCH_EQ", "LEAF", "LEAF", "LEAF", "BRANCH_NEQ", "LEAF", "LEAF", "BRANCH_GT", "LEAF", "BRANCH_LEQ", "LEAF", "LEAF"})
      .attr("nodes_values", std::vector<float>{0.5f, 1.0f, 2.0f, 0.0f, 0.0f, 0.0f, 3.0f, 0.0f, 0.0f, 4.0f, 0.0f, 0.5f, 0.0f, 0.0f})
      .attr("nodes_truenodeids", std::vector<int64_t>{1, 3, 5, 0, 0, 0, 7, 0, 0, 1, 0, 3, 0, 0})
      .attr("nodes_falsenodeids", std::vector<int64_t>{2, 4, 6, 0, 0, 0, 8, 0, 0, 2, 0, 4, 0, 0})
      .attr("nodes_missing_value_tracks_true", std::vector<int64_t>{0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0})
      .attr("target_treeids", std::vector<int64_t>{0, 0, 0, 0, 0, 0, 1, 1, 1, 1})
      .attr("target_nodeids", std::vector<int64_t>{3, 4, 5, 7, 8, 8, 1, 3, 4, 4})
      .attr("target_ids", std::vector<int64_t>{0, 1, 0, 1, 0, 1, 0, 0, 1, 0})
      .attr("target_weights", std::vector<float>{1.0f, 2.0f, -3.0f, 4.0f, 0.5f, 0.25f, 10.0f, -1.0f, 0.75f, 2.5f})
      .attr("n_targets", int64_t{2})
      .attr("aggregate_function", "AVERAGE")
      .attr("post_transform", "SOFTMAX")
      .attr("base_values", std::vector<float>{0.10000000149011612f, -0.20000000298023224f})
      .input("X", Tensor::fromVector<float>({6, 2}, {0.20000000298023224f, 1.5f, 0.20000000298023224f, 0.5f, 0.8999999761581421f, 2.0f, 0.8999999761581421f, 7.0f, NAN, 2.0f, 3.0f, NAN}))
      .expect("Y", Tensor::fromVector<float>({6, 2}, {0.5249791741371155f, 0.4750208258628845f, 0.23147520422935486f, 0.7685248255729675f, 0.41945770382881165f, 0.580542266368866f, 0.9644288420677185f, 0.03557119145989418f, 0.41945770382881165f, 0.580542266368866f, 0.9956142902374268f, 0.004385747946798801f}));
  t.run();
}

TEST(MlOps, TreeRegressorMinLogistic) {
  // two trees using every BRANCH_* mode, NaNs (tree 1 sends missing values true), two targets; expected: onnxruntime 1.32, base_values [0.1, -0.2]
  OpTester t("TreeEnsembleRegressor", 3, kMl);
  t
      .attr("nodes_treeids", std::vector<int64_t>{0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1})
      .attr("nodes_nodeids", std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 1, 2, 3, 4})
      .attr("nodes_featureids", std::vector<int64_t>{0, 1, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0})
      .attr("nodes_modes", std::vector<std::string>{"BRANCH_LT", "BRANCH_GTE", "BRANCH_EQ", "LEAF", "LEAF", "LEAF", "BRANCH_NEQ", "LEAF", "LEAF", "BRANCH_GT", "LEAF", "BRANCH_LEQ", "LEAF", "LEAF"})
      .attr("nodes_values", std::vector<float>{0.5f, 1.0f, 2.0f, 0.0f, 0.0f, 0.0f, 3.0f, 0.0f, 0.0f, 4.0f, 0.0f, 0.5f, 0.0f, 0.0f})
      .attr("nodes_truenodeids", std::vector<int64_t>{1, 3, 5, 0, 0, 0, 7, 0, 0, 1, 0, 3, 0, 0})
      .attr("nodes_falsenodeids", std::vector<int64_t>{2, 4, 6, 0, 0, 0, 8, 0, 0, 2, 0, 4, 0, 0})
      .attr("nodes_missing_value_tracks_true", std::vector<int64_t>{0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0})
      .attr("target_treeids", std::vector<int64_t>{0, 0, 0, 0, 0, 0, 1, 1, 1, 1})
      .attr("target_nodeids", std::vector<int64_t>{3, 4, 5, 7, 8, 8, 1, 3, 4, 4})
      .attr("target_ids", std::vector<int64_t>{0, 1, 0, 1, 0, 1, 0, 0, 1, 0})
      .attr("target_weights", std::vector<float>{1.0f, 2.0f, -3.0f, 4.0f, 0.5f, 0.25f, 10.0f, -1.0f, 0.75f, 2.5f})
      .attr("n_targets", int64_t{2})
      .attr("aggregate_function", "MIN")
      .attr("post_transform", "LOGISTIC")
      .attr("base_values", std::vector<float>{0.10000000149011612f, -0.20000000298023224f})
      .input("X", Tensor::fromVector<float>({6, 2}, {0.20000000298023224f, 1.5f, 0.20000000298023224f, 0.5f, 0.8999999761581421f, 2.0f, 0.8999999761581421f, 7.0f, NAN, 2.0f, 3.0f, NAN}))
      .expect("Y", Tensor::fromVector<float>({6, 2}, {0.28905051946640015f, 0.5f, 0.28905051946640015f, 0.8581488728523254f, 0.05215352773666382f, 0.6341356039047241f, 0.999958872795105f, 0.9781186580657959f, 0.05215352773666382f, 0.6341356039047241f, 0.6456562876701355f, 0.5124973654747009f}));
  t.run();
}

TEST(MlOps, TreeRegressorMaxSoftmaxZero) {
  // two trees using every BRANCH_* mode, NaNs (tree 1 sends missing values true), two targets; expected: onnxruntime 1.32, base_values [0.1, -0.2]
  OpTester t("TreeEnsembleRegressor", 3, kMl);
  t
      .attr("nodes_treeids", std::vector<int64_t>{0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1})
      .attr("nodes_nodeids", std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 1, 2, 3, 4})
      .attr("nodes_featureids", std::vector<int64_t>{0, 1, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0})
      .attr("nodes_modes", std::vector<std::string>{"BRANCH_LT", "BRANCH_GTE", "BRANCH_EQ", "LEAF", "LEAF", "LEAF", "BRANCH_NEQ", "LEAF", "LEAF", "BRANCH_GT", "LEAF", "BRANCH_LEQ", "LEAF", "LEAF"})
      .attr("nodes_values", std::vector<float>{0.5f, 1.0f, 2.0f, 0.0f, 0.0f, 0.0f, 3.0f, 0.0f, 0.0f, 4.0f, 0.0f, 0.5f, 0.0f, 0.0f})
      .attr("nodes_truenodeids", std::vector<int64_t>{1, 3, 5, 0, 0, 0, 7, 0, 0, 1, 0, 3, 0, 0})
      .attr("nodes_falsenodeids", std::vector<int64_t>{2, 4, 6, 0, 0, 0, 8, 0, 0, 2, 0, 4, 0, 0})
      .attr("nodes_missing_value_tracks_true", std::vector<int64_t>{0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0})
      .attr("target_treeids", std::vector<int64_t>{0, 0, 0, 0, 0, 0, 1, 1, 1, 1})
      .attr("target_nodeids", std::vector<int64_t>{3, 4, 5, 7, 8, 8, 1, 3, 4, 4})
      .attr("target_ids", std::vector<int64_t>{0, 1, 0, 1, 0, 1, 0, 0, 1, 0})
      .attr("target_weights", std::vector<float>{1.0f, 2.0f, -3.0f, 4.0f, 0.5f, 0.25f, 10.0f, -1.0f, 0.75f, 2.5f})
      .attr("n_targets", int64_t{2})
      .attr("aggregate_function", "MAX")
      .attr("post_transform", "SOFTMAX_ZERO")
      .attr("base_values", std::vector<float>{0.10000000149011612f, -0.20000000298023224f})
      .input("X", Tensor::fromVector<float>({6, 2}, {0.20000000298023224f, 1.5f, 0.20000000298023224f, 0.5f, 0.8999999761581421f, 2.0f, 0.8999999761581421f, 7.0f, NAN, 2.0f, 3.0f, NAN}))
      .expect("Y", Tensor::fromVector<float>({6, 2}, {1.0f, 0.0f, 0.06297336518764496f, 0.9370266199111938f, 0.885947585105896f, 0.11405238509178162f, 0.9981670379638672f, 0.0018329386366531253f, 0.885947585105896f, 0.11405238509178162f, 0.9999568462371826f, 4.318387800594792e-05f}));
  t.run();
}

TEST(MlOps, TreeRegressorProbit) {
  // one stump, PROBIT (onnxruntime's erfinv approximation); expected: onnxruntime 1.32
  OpTester t("TreeEnsembleRegressor", 3, kMl);
  t
      .attr("nodes_treeids", std::vector<int64_t>{0, 0, 0})
      .attr("nodes_nodeids", std::vector<int64_t>{0, 1, 2})
      .attr("nodes_featureids", std::vector<int64_t>{0, 0, 0})
      .attr("nodes_modes", std::vector<std::string>{"BRANCH_LEQ", "LEAF", "LEAF"})
      .attr("nodes_values", std::vector<float>{0.5f, 0.0f, 0.0f})
      .attr("nodes_truenodeids", std::vector<int64_t>{1, 0, 0})
      .attr("nodes_falsenodeids", std::vector<int64_t>{2, 0, 0})
      .attr("target_treeids", std::vector<int64_t>{0, 0})
      .attr("target_nodeids", std::vector<int64_t>{1, 2})
      .attr("target_ids", std::vector<int64_t>{0, 0})
      .attr("target_weights", std::vector<float>{0.20000000298023224f, 0.8999999761581421f})
      .attr("n_targets", int64_t{1})
      .attr("post_transform", "PROBIT")
      .input("X", Tensor::fromVector<float>({6, 2}, {0.20000000298023224f, 1.5f, 0.20000000298023224f, 0.5f, 0.8999999761581421f, 2.0f, 0.8999999761581421f, 7.0f, NAN, 2.0f, 3.0f, NAN}))
      .expect("Y", Tensor::fromVector<float>({6, 1}, {-0.8417561054229736f, -0.8417561054229736f, 1.2817128896713257f, 1.2817128896713257f, 1.2817128896713257f, 1.2817128896713257f}));
  t.run();
}

TEST(MlOps, TreeRegressorAsTensorAttributes) {
  // the *_as_tensor attributes of opset 3; expected: onnxruntime 1.32
  OpTester t("TreeEnsembleRegressor", 3, kMl);
  t
      .attr("nodes_treeids", std::vector<int64_t>{0, 0, 0})
      .attr("nodes_nodeids", std::vector<int64_t>{0, 1, 2})
      .attr("nodes_featureids", std::vector<int64_t>{0, 0, 0})
      .attr("nodes_modes", std::vector<std::string>{"BRANCH_LEQ", "LEAF", "LEAF"})
      .attr("nodes_truenodeids", std::vector<int64_t>{1, 0, 0})
      .attr("nodes_falsenodeids", std::vector<int64_t>{2, 0, 0})
      .attr("target_treeids", std::vector<int64_t>{0, 0})
      .attr("target_nodeids", std::vector<int64_t>{1, 2})
      .attr("target_ids", std::vector<int64_t>{0, 0})
      .attr("n_targets", int64_t{1})
      .attr("post_transform", "NONE")
      .attr("nodes_values_as_tensor", Tensor::fromVector<float>({3}, {0.5f, 0.0f, 0.0f}))
      .attr("target_weights_as_tensor", Tensor::fromVector<float>({2}, {0.25f, -4.5f}))
      .attr("base_values_as_tensor", Tensor::fromVector<float>({1}, {1.0f}))
      .input("X", Tensor::fromVector<float>({6, 2}, {0.20000000298023224f, 1.5f, 0.20000000298023224f, 0.5f, 0.8999999761581421f, 2.0f, 0.8999999761581421f, 7.0f, NAN, 2.0f, 3.0f, NAN}))
      .expect("Y", Tensor::fromVector<float>({6, 1}, {1.25f, 1.25f, -3.5f, -3.5f, -3.5f, -3.5f}));
  t.run();
}

TEST(MlOps, TreeClassifierMulticlassSoftmax) {
  // three int64 labels, base values, SOFTMAX; expected: onnxruntime 1.32
  OpTester t("TreeEnsembleClassifier", 3, kMl);
  t
      .attr("nodes_treeids", std::vector<int64_t>{0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1})
      .attr("nodes_nodeids", std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 1, 2, 3, 4})
      .attr("nodes_featureids", std::vector<int64_t>{0, 1, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0})
      .attr("nodes_modes", std::vector<std::string>{"BRANCH_LT", "BRANCH_GTE", "BRANCH_EQ", "LEAF", "LEAF", "LEAF", "BRANCH_NEQ", "LEAF", "LEAF", "BRANCH_GT", "LEAF", "BRANCH_LEQ", "LEAF", "LEAF"})
      .attr("nodes_values", std::vector<float>{0.5f, 1.0f, 2.0f, 0.0f, 0.0f, 0.0f, 3.0f, 0.0f, 0.0f, 4.0f, 0.0f, 0.5f, 0.0f, 0.0f})
      .attr("nodes_truenodeids", std::vector<int64_t>{1, 3, 5, 0, 0, 0, 7, 0, 0, 1, 0, 3, 0, 0})
      .attr("nodes_falsenodeids", std::vector<int64_t>{2, 4, 6, 0, 0, 0, 8, 0, 0, 2, 0, 4, 0, 0})
      .attr("nodes_missing_value_tracks_true", std::vector<int64_t>{0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0})
      .attr("class_treeids", std::vector<int64_t>{0, 0, 0, 0, 0, 0, 1, 1, 1, 1})
      .attr("class_nodeids", std::vector<int64_t>{3, 4, 5, 7, 8, 8, 1, 3, 4, 4})
      .attr("class_ids", std::vector<int64_t>{0, 1, 2, 1, 0, 2, 0, 2, 1, 0})
      .attr("class_weights", std::vector<float>{1.0f, 2.0f, -3.0f, 4.0f, 0.5f, 0.25f, 10.0f, -1.0f, 0.75f, 2.5f})
      .attr("classlabels_int64s", std::vector<int64_t>{5, 6, 7})
      .attr("post_transform", "SOFTMAX")
      .attr("base_values", std::vector<float>{0.10000000149011612f, 0.20000000298023224f, 0.30000001192092896f})
      .input("X", Tensor::fromVector<float>({6, 2}, {0.20000000298023224f, 1.5f, 0.20000000298023224f, 0.5f, 0.8999999761581421f, 2.0f, 0.8999999761581421f, 7.0f, NAN, 2.0f, 3.0f, NAN}))
      .expect("Y", Tensor::fromVector<int64_t>({6}, {5, 6, 5, 5, 5, 5}))
      .expect("Z", Tensor::fromVector<float>({6, 3}, {0.6361854672431946f, 0.2586537003517151f, 0.10516075789928436f, 0.10399875044822693f, 0.8492715954780579f, 0.04672965407371521f, 0.8353928327560425f, 0.16043713688850403f, 0.004169940948486328f, 0.9972129464149475f, 0.002731808228418231f, 5.5297041399171576e-05f, 0.8353928327560425f, 0.16043713688850403f, 0.004169940948486328f, 0.9999264478683472f, 3.0430228434852324e-05f, 4.318256469559856e-05f}));
  t.run();
}

TEST(MlOps, TreeClassifierBinarySingleScoreLogistic) {
  // two string labels, weights of mixed sign on class 0 only (one score s -> [logistic(-s), logistic(s)], as GradientBoostingClassifier exports); expected: onnxruntime 1.32
  OpTester t("TreeEnsembleClassifier", 3, kMl);
  t
      .attr("nodes_treeids", std::vector<int64_t>{0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1})
      .attr("nodes_nodeids", std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 1, 2, 3, 4})
      .attr("nodes_featureids", std::vector<int64_t>{0, 1, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0})
      .attr("nodes_modes", std::vector<std::string>{"BRANCH_LT", "BRANCH_GTE", "BRANCH_EQ", "LEAF", "LEAF", "LEAF", "BRANCH_NEQ", "LEAF", "LEAF", "BRANCH_GT", "LEAF", "BRANCH_LEQ", "LEAF", "LEAF"})
      .attr("nodes_values", std::vector<float>{0.5f, 1.0f, 2.0f, 0.0f, 0.0f, 0.0f, 3.0f, 0.0f, 0.0f, 4.0f, 0.0f, 0.5f, 0.0f, 0.0f})
      .attr("nodes_truenodeids", std::vector<int64_t>{1, 3, 5, 0, 0, 0, 7, 0, 0, 1, 0, 3, 0, 0})
      .attr("nodes_falsenodeids", std::vector<int64_t>{2, 4, 6, 0, 0, 0, 8, 0, 0, 2, 0, 4, 0, 0})
      .attr("nodes_missing_value_tracks_true", std::vector<int64_t>{0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0})
      .attr("class_treeids", std::vector<int64_t>{0, 0, 0, 0, 0, 0, 1, 1, 1, 1})
      .attr("class_nodeids", std::vector<int64_t>{3, 4, 5, 7, 8, 8, 1, 3, 4, 4})
      .attr("class_ids", std::vector<int64_t>{0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
      .attr("class_weights", std::vector<float>{1.0f, 2.0f, -3.0f, 4.0f, 0.5f, 0.25f, 10.0f, -1.0f, 0.75f, 2.5f})
      .attr("classlabels_strings", std::vector<std::string>{"neg", "pos"})
      .attr("post_transform", "LOGISTIC")
      .attr("base_values", std::vector<float>{-0.5f})
      .input("X", Tensor::fromVector<float>({6, 2}, {0.20000000298023224f, 1.5f, 0.20000000298023224f, 0.5f, 0.8999999761581421f, 2.0f, 0.8999999761581421f, 7.0f, NAN, 2.0f, 3.0f, NAN}))
      .expect("Y", Tensor::fromVector<std::string>({6}, {"neg", "pos", "neg", "pos", "neg", "pos"}))
      .expect("Z", Tensor::fromVector<float>({6, 2}, {0.622459352016449f, 0.377540647983551f, 0.377540647983551f, 0.622459352016449f, 0.562176525592804f, 0.43782347440719604f, 1.430511474609375e-06f, 0.9999985694885254f, 0.562176525592804f, 0.43782347440719604f, 3.540515899658203e-05f, 0.9999645948410034f}));
  t.run();
}

TEST(MlOps, TreeClassifierBinaryPositiveWeights) {
  // two labels, positive weights on class 0 only: scores [1 - s, s], label by s > 0.5; expected: onnxruntime 1.32
  OpTester t("TreeEnsembleClassifier", 3, kMl);
  t
      .attr("nodes_treeids", std::vector<int64_t>{0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1})
      .attr("nodes_nodeids", std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 1, 2, 3, 4})
      .attr("nodes_featureids", std::vector<int64_t>{0, 1, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0})
      .attr("nodes_modes", std::vector<std::string>{"BRANCH_LT", "BRANCH_GTE", "BRANCH_EQ", "LEAF", "LEAF", "LEAF", "BRANCH_NEQ", "LEAF", "LEAF", "BRANCH_GT", "LEAF", "BRANCH_LEQ", "LEAF", "LEAF"})
      .attr("nodes_values", std::vector<float>{0.5f, 1.0f, 2.0f, 0.0f, 0.0f, 0.0f, 3.0f, 0.0f, 0.0f, 4.0f, 0.0f, 0.5f, 0.0f, 0.0f})
      .attr("nodes_truenodeids", std::vector<int64_t>{1, 3, 5, 0, 0, 0, 7, 0, 0, 1, 0, 3, 0, 0})
      .attr("nodes_falsenodeids", std::vector<int64_t>{2, 4, 6, 0, 0, 0, 8, 0, 0, 2, 0, 4, 0, 0})
      .attr("nodes_missing_value_tracks_true", std::vector<int64_t>{0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0})
      .attr("class_treeids", std::vector<int64_t>{0, 0, 0, 0, 0, 0, 1, 1, 1, 1})
      .attr("class_nodeids", std::vector<int64_t>{3, 4, 5, 7, 8, 8, 1, 3, 4, 4})
      .attr("class_ids", std::vector<int64_t>{0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
      .attr("class_weights", std::vector<float>{0.10000000149011612f, 0.20000000298023224f, 0.05000000074505806f, 0.4000000059604645f, 0.05000000074505806f, 0.02500000037252903f, 0.30000001192092896f, 0.10000000149011612f, 0.07500000298023224f, 0.25f})
      .attr("classlabels_int64s", std::vector<int64_t>{3, 9})
      .input("X", Tensor::fromVector<float>({6, 2}, {0.20000000298023224f, 1.5f, 0.20000000298023224f, 0.5f, 0.8999999761581421f, 2.0f, 0.8999999761581421f, 7.0f, NAN, 2.0f, 3.0f, NAN}))
      .expect("Y", Tensor::fromVector<int64_t>({6}, {3, 3, 3, 9, 3, 3}))
      .expect("Z", Tensor::fromVector<float>({6, 2}, {0.800000011920929f, 0.20000000298023224f, 0.699999988079071f, 0.30000001192092896f, 0.625f, 0.375f, 0.2999999523162842f, 0.7000000476837158f, 0.625f, 0.375f, 0.625f, 0.375f}));
  t.run();
}

TEST(MlOps, TreeClassifierBinaryWeightsOnClassOne) {
  // two labels, weights on class 1 only: scores [0, s] then SOFTMAX; expected: onnxruntime 1.32
  OpTester t("TreeEnsembleClassifier", 3, kMl);
  t
      .attr("nodes_treeids", std::vector<int64_t>{0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1})
      .attr("nodes_nodeids", std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 1, 2, 3, 4})
      .attr("nodes_featureids", std::vector<int64_t>{0, 1, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0})
      .attr("nodes_modes", std::vector<std::string>{"BRANCH_LT", "BRANCH_GTE", "BRANCH_EQ", "LEAF", "LEAF", "LEAF", "BRANCH_NEQ", "LEAF", "LEAF", "BRANCH_GT", "LEAF", "BRANCH_LEQ", "LEAF", "LEAF"})
      .attr("nodes_values", std::vector<float>{0.5f, 1.0f, 2.0f, 0.0f, 0.0f, 0.0f, 3.0f, 0.0f, 0.0f, 4.0f, 0.0f, 0.5f, 0.0f, 0.0f})
      .attr("nodes_truenodeids", std::vector<int64_t>{1, 3, 5, 0, 0, 0, 7, 0, 0, 1, 0, 3, 0, 0})
      .attr("nodes_falsenodeids", std::vector<int64_t>{2, 4, 6, 0, 0, 0, 8, 0, 0, 2, 0, 4, 0, 0})
      .attr("nodes_missing_value_tracks_true", std::vector<int64_t>{0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0})
      .attr("class_treeids", std::vector<int64_t>{0, 0, 0, 0, 0, 0, 1, 1, 1, 1})
      .attr("class_nodeids", std::vector<int64_t>{3, 4, 5, 7, 8, 8, 1, 3, 4, 4})
      .attr("class_ids", std::vector<int64_t>{1, 1, 1, 1, 1, 1, 1, 1, 1, 1})
      .attr("class_weights", std::vector<float>{0.10000000149011612f, 0.20000000298023224f, 0.05000000074505806f, 0.4000000059604645f, 0.05000000074505806f, 0.02500000037252903f, 0.30000001192092896f, 0.10000000149011612f, 0.07500000298023224f, 0.25f})
      .attr("classlabels_int64s", std::vector<int64_t>{3, 9})
      .attr("post_transform", "SOFTMAX")
      .input("X", Tensor::fromVector<float>({6, 2}, {0.20000000298023224f, 1.5f, 0.20000000298023224f, 0.5f, 0.8999999761581421f, 2.0f, 0.8999999761581421f, 7.0f, NAN, 2.0f, 3.0f, NAN}))
      .expect("Y", Tensor::fromVector<int64_t>({6}, {3, 3, 3, 9, 3, 3}))
      .expect("Z", Tensor::fromVector<float>({6, 2}, {0.4501659870147705f, 0.5498339533805847f, 0.4255574643611908f, 0.5744425058364868f, 0.4073334336280823f, 0.5926666259765625f, 0.3318122327327728f, 0.6681877970695496f, 0.4073334336280823f, 0.5926666259765625f, 0.4073334336280823f, 0.5926666259765625f}));
  t.run();
}

TEST(MlOps, TreeEnsemble5AverageDouble) {
  // TreeEnsemble 5 on doubles: BRANCH_LT, BRANCH_GT, set membership (a NaN is never a member), leaves by index; expected: onnxruntime 1.32
  OpTester t("TreeEnsemble", 5, kMl);
  t
      .attr("nodes_featureids", std::vector<int64_t>{0, 1, 0})
      .attr("nodes_modes", Tensor::fromVector<uint8_t>({3}, {1, 3, 6}))
      .attr("nodes_splits", Tensor::fromVector<double>({3}, {0.5, 1.0, 0.0}))
      .attr("nodes_truenodeids", std::vector<int64_t>{1, 0, 1})
      .attr("nodes_trueleafs", std::vector<int64_t>{0, 1, 1})
      .attr("nodes_falsenodeids", std::vector<int64_t>{2, 1, 2})
      .attr("nodes_falseleafs", std::vector<int64_t>{0, 1, 1})
      .attr("membership_values", Tensor::fromVector<double>({4}, {0.9, 3.0, 5.0, NAN}))
      .attr("leaf_targetids", std::vector<int64_t>{0, 1, 0})
      .attr("leaf_weights", Tensor::fromVector<double>({3}, {1.5, -2.0, 4.0}))
      .attr("tree_roots", std::vector<int64_t>{0, 0})
      .attr("n_targets", int64_t{2})
      .attr("nodes_missing_value_tracks_true", std::vector<int64_t>{0, 1, 0})
      .attr("aggregate_function", int64_t{0})
      .input("X", Tensor::fromVector<double>({6, 2}, {0.20000000298023224, 1.5, 0.20000000298023224, 0.5, 0.8999999761581421, 2.0, 0.8999999761581421, 7.0, NAN, 2.0, 3.0, NAN}))
      .expect("Y", Tensor::fromVector<double>({6, 2}, {1.5, 0.0, 0.0, -2.0, 4.0, 0.0, 4.0, 0.0, 4.0, 0.0, 0.0, -2.0}));
  t.run();
}

TEST(MlOps, TreeEnsemble5MinDouble) {
  // TreeEnsemble 5 on doubles: BRANCH_LT, BRANCH_GT, set membership (a NaN is never a member), leaves by index; expected: onnxruntime 1.32
  OpTester t("TreeEnsemble", 5, kMl);
  t
      .attr("nodes_featureids", std::vector<int64_t>{0, 1, 0})
      .attr("nodes_modes", Tensor::fromVector<uint8_t>({3}, {1, 3, 6}))
      .attr("nodes_splits", Tensor::fromVector<double>({3}, {0.5, 1.0, 0.0}))
      .attr("nodes_truenodeids", std::vector<int64_t>{1, 0, 1})
      .attr("nodes_trueleafs", std::vector<int64_t>{0, 1, 1})
      .attr("nodes_falsenodeids", std::vector<int64_t>{2, 1, 2})
      .attr("nodes_falseleafs", std::vector<int64_t>{0, 1, 1})
      .attr("membership_values", Tensor::fromVector<double>({4}, {0.9, 3.0, 5.0, NAN}))
      .attr("leaf_targetids", std::vector<int64_t>{0, 1, 0})
      .attr("leaf_weights", Tensor::fromVector<double>({3}, {1.5, -2.0, 4.0}))
      .attr("tree_roots", std::vector<int64_t>{0, 0})
      .attr("n_targets", int64_t{2})
      .attr("nodes_missing_value_tracks_true", std::vector<int64_t>{0, 1, 0})
      .attr("aggregate_function", int64_t{2})
      .input("X", Tensor::fromVector<double>({6, 2}, {0.20000000298023224, 1.5, 0.20000000298023224, 0.5, 0.8999999761581421, 2.0, 0.8999999761581421, 7.0, NAN, 2.0, 3.0, NAN}))
      .expect("Y", Tensor::fromVector<double>({6, 2}, {1.5, 0.0, 0.0, -2.0, 4.0, 0.0, 4.0, 0.0, 4.0, 0.0, 0.0, -2.0}));
  t.run();
}

TEST(MlOps, TreeEnsemble5MaxDouble) {
  // TreeEnsemble 5 on doubles: BRANCH_LT, BRANCH_GT, set membership (a NaN is never a member), leaves by index; expected: onnxruntime 1.32
  OpTester t("TreeEnsemble", 5, kMl);
  t
      .attr("nodes_featureids", std::vector<int64_t>{0, 1, 0})
      .attr("nodes_modes", Tensor::fromVector<uint8_t>({3}, {1, 3, 6}))
      .attr("nodes_splits", Tensor::fromVector<double>({3}, {0.5, 1.0, 0.0}))
      .attr("nodes_truenodeids", std::vector<int64_t>{1, 0, 1})
      .attr("nodes_trueleafs", std::vector<int64_t>{0, 1, 1})
      .attr("nodes_falsenodeids", std::vector<int64_t>{2, 1, 2})
      .attr("nodes_falseleafs", std::vector<int64_t>{0, 1, 1})
      .attr("membership_values", Tensor::fromVector<double>({4}, {0.9, 3.0, 5.0, NAN}))
      .attr("leaf_targetids", std::vector<int64_t>{0, 1, 0})
      .attr("leaf_weights", Tensor::fromVector<double>({3}, {1.5, -2.0, 4.0}))
      .attr("tree_roots", std::vector<int64_t>{0, 0})
      .attr("n_targets", int64_t{2})
      .attr("nodes_missing_value_tracks_true", std::vector<int64_t>{0, 1, 0})
      .attr("aggregate_function", int64_t{3})
      .input("X", Tensor::fromVector<double>({6, 2}, {0.20000000298023224, 1.5, 0.20000000298023224, 0.5, 0.8999999761581421, 2.0, 0.8999999761581421, 7.0, NAN, 2.0, 3.0, NAN}))
      .expect("Y", Tensor::fromVector<double>({6, 2}, {1.5, 0.0, 0.0, -2.0, 4.0, 0.0, 4.0, 0.0, 4.0, 0.0, 0.0, -2.0}));
  t.run();
}

TEST(MlOps, TreeEnsemble5SoftmaxZero) {
  // post_transform 3 (SOFTMAX_ZERO) on floats; expected: onnxruntime 1.32
  OpTester t("TreeEnsemble", 5, kMl);
  t
      .attr("nodes_featureids", std::vector<int64_t>{0, 1, 0})
      .attr("nodes_modes", Tensor::fromVector<uint8_t>({3}, {1, 3, 6}))
      .attr("nodes_splits", Tensor::fromVector<float>({3}, {0.5f, 1.0f, 0.0f}))
      .attr("nodes_truenodeids", std::vector<int64_t>{1, 0, 1})
      .attr("nodes_trueleafs", std::vector<int64_t>{0, 1, 1})
      .attr("nodes_falsenodeids", std::vector<int64_t>{2, 1, 2})
      .attr("nodes_falseleafs", std::vector<int64_t>{0, 1, 1})
      .attr("membership_values", Tensor::fromVector<float>({4}, {0.8999999761581421f, 3.0f, 5.0f, NAN}))
      .attr("leaf_targetids", std::vector<int64_t>{0, 1, 0})
      .attr("leaf_weights", Tensor::fromVector<float>({3}, {1.5f, -2.0f, 4.0f}))
      .attr("tree_roots", std::vector<int64_t>{0, 0})
      .attr("n_targets", int64_t{2})
      .attr("nodes_missing_value_tracks_true", std::vector<int64_t>{0, 1, 0})
      .attr("post_transform", int64_t{3})
      .input("X", Tensor::fromVector<float>({6, 2}, {0.20000000298023224f, 1.5f, 0.20000000298023224f, 0.5f, 0.8999999761581421f, 2.0f, 0.8999999761581421f, 7.0f, NAN, 2.0f, 3.0f, NAN}))
      .expect("Y", Tensor::fromVector<float>({6, 2}, {1.0f, 0.0f, 0.0f, 1.0f, 0.0f, 1.0f, 0.0f, 1.0f, 1.0f, 0.0f, 0.0f, 1.0f}));
  t.run();
}

TEST(MlOps, NormalizerMAX) {
  // rows of mixed sign and an all-zero row; expected: onnxruntime 1.32
  OpTester t("Normalizer", 1, kMl);
  t
      .attr("norm", "MAX")
      .input("X", Tensor::fromVector<float>({3, 3}, {1.0f, -2.0f, 3.0f, 0.0f, 0.0f, 0.0f, -4.0f, 5.0f, 0.5f}))
      .expect("Y", Tensor::fromVector<float>({3, 3}, {0.3333333432674408f, -0.6666666865348816f, 1.0f, 0.0f, 0.0f, 0.0f, -0.800000011920929f, 1.0f, 0.10000000149011612f}));
  t.run();
}

TEST(MlOps, NormalizerL1) {
  // rows of mixed sign and an all-zero row; expected: onnxruntime 1.32
  OpTester t("Normalizer", 1, kMl);
  t
      .attr("norm", "L1")
      .input("X", Tensor::fromVector<float>({3, 3}, {1.0f, -2.0f, 3.0f, 0.0f, 0.0f, 0.0f, -4.0f, 5.0f, 0.5f}))
      .expect("Y", Tensor::fromVector<float>({3, 3}, {0.1666666716337204f, -0.3333333432674408f, 0.5f, 0.0f, 0.0f, 0.0f, -0.42105263471603394f, 0.5263158082962036f, 0.05263157933950424f}));
  t.run();
}

TEST(MlOps, NormalizerL2) {
  // rows of mixed sign and an all-zero row; expected: onnxruntime 1.32
  OpTester t("Normalizer", 1, kMl);
  t
      .attr("norm", "L2")
      .input("X", Tensor::fromVector<float>({3, 3}, {1.0f, -2.0f, 3.0f, 0.0f, 0.0f, 0.0f, -4.0f, 5.0f, 0.5f}))
      .expect("Y", Tensor::fromVector<float>({3, 3}, {0.26726123690605164f, -0.5345224738121033f, 0.8017837405204773f, 0.0f, 0.0f, 0.0f, -0.6227991580963135f, 0.7784989476203918f, 0.07784989476203918f}));
  t.run();
}

TEST(MlOps, ScalerPerColumn) {
  // expected: onnxruntime 1.32
  OpTester t("Scaler", 1, kMl);
  t
      .attr("offset", std::vector<float>{1.0f, 0.5f, -1.0f})
      .attr("scale", std::vector<float>{2.0f, 0.5f, 1.5f})
      .input("X", Tensor::fromVector<float>({3, 3}, {1.0f, -2.0f, 3.0f, 0.0f, 0.0f, 0.0f, -4.0f, 5.0f, 0.5f}))
      .expect("Y", Tensor::fromVector<float>({3, 3}, {0.0f, -1.25f, 6.0f, -2.0f, -0.25f, 1.5f, -10.0f, 2.25f, 2.25f}));
  t.run();
}

TEST(MlOps, LinearRegressorTwoTargetsProbitFree) {
  // two targets; expected: onnxruntime 1.32
  OpTester t("LinearRegressor", 1, kMl);
  t
      .attr("coefficients", std::vector<float>{0.5f, -1.0f, 2.0f, 1.0f, 0.25f, -0.5f})
      .attr("intercepts", std::vector<float>{0.10000000149011612f, -0.30000001192092896f})
      .attr("targets", int64_t{2})
      .input("X", Tensor::fromVector<float>({3, 3}, {1.0f, -2.0f, 3.0f, 0.0f, 0.0f, 0.0f, -4.0f, 5.0f, 0.5f}))
      .expect("Y", Tensor::fromVector<float>({3, 2}, {8.600000381469727f, -1.2999999523162842f, 0.10000000149011612f, -0.30000001192092896f, -5.900000095367432f, -3.299999952316284f}));
  t.run();
}

TEST(MlOps, LinearClassifierMulticlassSoftmaxZero) {
  // three classes, SOFTMAX_ZERO; expected: onnxruntime 1.32
  OpTester t("LinearClassifier", 1, kMl);
  t
      .attr("coefficients", std::vector<float>{0.5f, -1.0f, 2.0f, 1.0f, 0.25f, -0.5f, 0.0f, 0.0f, 0.0f})
      .attr("intercepts", std::vector<float>{0.10000000149011612f, -0.30000001192092896f, 0.0f})
      .attr("classlabels_strings", std::vector<std::string>{"a", "b", "c"})
      .attr("post_transform", "SOFTMAX_ZERO")
      .input("X", Tensor::fromVector<float>({3, 3}, {1.0f, -2.0f, 3.0f, 0.0f, 0.0f, 0.0f, -4.0f, 5.0f, 0.5f}))
      .expect("Y", Tensor::fromVector<std::string>({3}, {"a", "a", "c"}))
      .expect("Z", Tensor::fromVector<float>({3, 3}, {0.9999498128890991f, 5.017213698010892e-05f, 0.0f, 0.5986876487731934f, 0.40131232142448425f, 0.0f, 0.06913841515779495f, 0.9308615922927856f, 0.0f}));
  t.run();
}

TEST(MlOps, LinearClassifierBinaryOneRowLogistic) {
  // one coefficient row, two labels: scores [1 - t, t]; expected: onnxruntime 1.32
  OpTester t("LinearClassifier", 1, kMl);
  t
      .attr("coefficients", std::vector<float>{0.5f, -1.0f, 2.0f})
      .attr("intercepts", std::vector<float>{0.10000000149011612f})
      .attr("classlabels_ints", std::vector<int64_t>{4, 8})
      .attr("post_transform", "LOGISTIC")
      .input("X", Tensor::fromVector<float>({3, 3}, {1.0f, -2.0f, 3.0f, 0.0f, 0.0f, 0.0f, -4.0f, 5.0f, 0.5f}))
      .expect("Y", Tensor::fromVector<int64_t>({3}, {8, 8, 4}))
      .expect("Z", Tensor::fromVector<float>({3, 2}, {0.00018399953842163086f, 0.9998160004615784f, 0.4750208258628845f, 0.5249791741371155f, 0.9972680807113647f, 0.002731919288635254f}));
  t.run();
}

TEST(MlOps, ImputerNaNPerColumn) {
  // expected: onnxruntime 1.32
  OpTester t("Imputer", 1, kMl);
  t
      .attr("imputed_value_floats", std::vector<float>{9.0f, 8.0f, 7.0f})
      .attr("replaced_value_float", NAN)
      .input("X", Tensor::fromVector<float>({2, 3}, {1.0f, NAN, 3.0f, NAN, 0.0f, -1.0f}))
      .expect("Y", Tensor::fromVector<float>({2, 3}, {1.0f, 8.0f, 3.0f, 9.0f, 0.0f, -1.0f}));
  t.run();
}

TEST(MlOps, ImputerInt64Value) {
  // replaces -1; expected: onnxruntime 1.32
  OpTester t("Imputer", 1, kMl);
  t
      .attr("imputed_value_int64s", std::vector<int64_t>{42})
      .attr("replaced_value_int64", int64_t{-1})
      .input("X", Tensor::fromVector<int64_t>({2, 3}, {1, -1, 3, 0, 7, -1}))
      .expect("Y", Tensor::fromVector<int64_t>({2, 3}, {1, 42, 3, 0, 7, 42}));
  t.run();
}

TEST(MlOps, LabelEncoderFloatToString) {
  // opset 2 float keys; default_string; expected: onnxruntime 1.32
  OpTester t("LabelEncoder", 2, kMl);
  t
      .attr("keys_floats", std::vector<float>{0.5f, 1.5f, -2.0f})
      .attr("values_strings", std::vector<std::string>{"x", "y", "z"})
      .attr("default_string", "?")
      .input("X", Tensor::fromVector<float>({4}, {1.5f, 0.5f, 3.0f, -2.0f}))
      .expect("Y", Tensor::fromVector<std::string>({4}, {"y", "x", "?", "z"}));
  t.run();
}

TEST(MlOps, LabelEncoderInt64ToFloat) {
  // opset 2; default_float; expected: onnxruntime 1.32
  OpTester t("LabelEncoder", 2, kMl);
  t
      .attr("keys_int64s", std::vector<int64_t>{1, 2, 3})
      .attr("values_floats", std::vector<float>{0.5f, 1.5f, 2.5f})
      .attr("default_float", -1.0f)
      .input("X", Tensor::fromVector<int64_t>({2, 2}, {3, 1, 7, 2}))
      .expect("Y", Tensor::fromVector<float>({2, 2}, {2.5f, 0.5f, -1.0f, 1.5f}));
  t.run();
}

TEST(MlOps, LabelEncoderV1StringToInt) {
  // opset 1 classes_strings; expected: onnxruntime 1.32
  OpTester t("LabelEncoder", 1, kMl);
  t
      .attr("classes_strings", std::vector<std::string>{"a", "b", "c"})
      .attr("default_int64", int64_t{-7})
      .input("X", Tensor::fromVector<std::string>({3}, {"c", "a", "q"}))
      .expect("Y", Tensor::fromVector<int64_t>({3}, {2, 0, -7}));
  t.run();
}

TEST(MlOps, OneHotEncoderStrings) {
  // expected: onnxruntime 1.32
  OpTester t("OneHotEncoder", 1, kMl);
  t
      .attr("cats_strings", std::vector<std::string>{"a", "b", "c"})
      .input("X", Tensor::fromVector<std::string>({2, 2}, {"a", "c", "q", "b"}))
      .expect("Y", Tensor::fromVector<float>({2, 2, 3}, {1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f}));
  t.run();
}

TEST(MlOps, CategoryMapperStringToInt) {
  // expected: onnxruntime 1.32
  OpTester t("CategoryMapper", 1, kMl);
  t
      .attr("cats_strings", std::vector<std::string>{"a", "b"})
      .attr("cats_int64s", std::vector<int64_t>{10, 20})
      .attr("default_int64", int64_t{-1})
      .input("X", Tensor::fromVector<std::string>({3}, {"b", "a", "z"}))
      .expect("Y", Tensor::fromVector<int64_t>({3}, {20, 10, -1}));
  t.run();
}

TEST(MlOps, CategoryMapperIntToString) {
  // expected: onnxruntime 1.32
  OpTester t("CategoryMapper", 1, kMl);
  t
      .attr("cats_strings", std::vector<std::string>{"a", "b"})
      .attr("cats_int64s", std::vector<int64_t>{10, 20})
      .attr("default_string", "none")
      .input("X", Tensor::fromVector<int64_t>({3}, {20, 5, 10}))
      .expect("Y", Tensor::fromVector<std::string>({3}, {"b", "none", "a"}));
  t.run();
}

TEST(MlOps, SVMClassifierOneVsOneVotes) {
  // three classes, RBF, no probabilities: one score per class pair, label by votes; expected: onnxruntime 1.32
  OpTester t("SVMClassifier", 1, kMl);
  t
      .attr("kernel_type", "RBF")
      .attr("kernel_params", std::vector<float>{0.5f, 0.0f, 3.0f})
      .attr("vectors_per_class", std::vector<int64_t>{2, 1, 1})
      .attr("support_vectors", std::vector<float>{0.0f, 0.0f, 1.0f, 1.0f, 0.0f, 1.0f, 2.0f, 0.0f, -1.0f, 1.0f, 1.0f, 0.0f})
      .attr("coefficients", std::vector<float>{1.0f, 0.5f, -1.0f, 0.699999988079071f, -0.30000001192092896f, 0.800000011920929f, 0.6000000238418579f, -0.8999999761581421f})
      .attr("rho", std::vector<float>{0.10000000149011612f, -0.20000000298023224f, 0.30000001192092896f})
      .attr("classlabels_ints", std::vector<int64_t>{0, 1, 2})
      .input("X", Tensor::fromVector<float>({3, 3}, {0.10000000149011612f, 0.20000000298023224f, 0.30000001192092896f, 1.0f, -1.0f, 0.5f, 2.0f, 2.0f, 2.0f}))
      .expect("Y", Tensor::fromVector<int64_t>({3}, {0, 0, 0}))
      .expect("Z", Tensor::fromVector<float>({3, 3}, {1.0499815940856934f, 0.304462194442749f, -0.07516039162874222f, 0.572850227355957f, 0.2144164890050888f, 0.2641701400279999f, 0.13449908792972565f, -0.12865209579467773f, 0.25609371066093445f}));
  t.run();
}

TEST(MlOps, SVMClassifierProbabilities) {
  // the same with prob_a / prob_b (Platt + pairwise coupling); expected: onnxruntime 1.32
  OpTester t("SVMClassifier", 1, kMl);
  t
      .attr("kernel_type", "RBF")
      .attr("kernel_params", std::vector<float>{0.5f, 0.0f, 3.0f})
      .attr("vectors_per_class", std::vector<int64_t>{2, 1, 1})
      .attr("support_vectors", std::vector<float>{0.0f, 0.0f, 1.0f, 1.0f, 0.0f, 1.0f, 2.0f, 0.0f, -1.0f, 1.0f, 1.0f, 0.0f})
      .attr("coefficients", std::vector<float>{1.0f, 0.5f, -1.0f, 0.699999988079071f, -0.30000001192092896f, 0.800000011920929f, 0.6000000238418579f, -0.8999999761581421f})
      .attr("rho", std::vector<float>{0.10000000149011612f, -0.20000000298023224f, 0.30000001192092896f})
      .attr("classlabels_ints", std::vector<int64_t>{0, 1, 2})
      .attr("prob_a", std::vector<float>{-1.5f, -2.0f, -0.5f})
      .attr("prob_b", std::vector<float>{0.10000000149011612f, -0.20000000298023224f, 0.05000000074505806f})
      .input("X", Tensor::fromVector<float>({3, 3}, {0.10000000149011612f, 0.20000000298023224f, 0.30000001192092896f, 1.0f, -1.0f, 0.5f, 2.0f, 2.0f, 2.0f}))
      .expect("Y", Tensor::fromVector<int64_t>({3}, {0, 0, 0}))
      .expect("Z", Tensor::fromVector<float>({3, 3}, {0.5977073311805725f, 0.16247326135635376f, 0.23981942236423492f, 0.4990314841270447f, 0.24875588715076447f, 0.2522127032279968f, 0.33837077021598816f, 0.33040907979011536f, 0.33122023940086365f}));
  t.run();
}

TEST(MlOps, SVMRegressorPoly) {
  // POLY kernel, degree 2; expected: onnxruntime 1.32
  OpTester t("SVMRegressor", 1, kMl);
  t
      .attr("kernel_type", "POLY")
      .attr("kernel_params", std::vector<float>{0.5f, 1.0f, 2.0f})
      .attr("n_supports", int64_t{2})
      .attr("support_vectors", std::vector<float>{0.0f, 1.0f, 2.0f, 1.0f, 0.0f, -1.0f})
      .attr("coefficients", std::vector<float>{0.30000001192092896f, -0.6000000238418579f})
      .attr("rho", std::vector<float>{0.25f})
      .input("X", Tensor::fromVector<float>({3, 3}, {0.10000000149011612f, 0.20000000298023224f, 0.30000001192092896f, 1.0f, -1.0f, 0.5f, 2.0f, 2.0f, 2.0f}))
      .expect("Y", Tensor::fromVector<float>({3, 1}, {0.35199999809265137f, -0.3875000476837158f, 4.450000286102295f}));
  t.run();
}

TEST(MlOps, SVMRegressorSigmoidOneClass) {
  // SIGMOID kernel, one_class (scores become +-1); expected: onnxruntime 1.32
  OpTester t("SVMRegressor", 1, kMl);
  t
      .attr("kernel_type", "SIGMOID")
      .attr("kernel_params", std::vector<float>{0.5f, 0.10000000149011612f, 0.0f})
      .attr("n_supports", int64_t{2})
      .attr("support_vectors", std::vector<float>{0.0f, 1.0f, 2.0f, 1.0f, 0.0f, -1.0f})
      .attr("coefficients", std::vector<float>{0.30000001192092896f, -0.6000000238418579f})
      .attr("rho", std::vector<float>{0.05000000074505806f})
      .attr("one_class", int64_t{1})
      .input("X", Tensor::fromVector<float>({3, 3}, {0.10000000149011612f, 0.20000000298023224f, 0.30000001192092896f, 1.0f, -1.0f, 0.5f, 2.0f, 2.0f, 2.0f}))
      .expect("Y", Tensor::fromVector<float>({3, 1}, {1.0f, -1.0f, 1.0f}));
  t.run();
}

// ---- error paths ----------------------------------------------------------

// A stump reading feature `feature`: node 0 splits, nodes 1 and 2 are leaves.
OpTester stump(const std::string& op, int64_t feature = 0) {
  OpTester t(op, 3, kMl);
  t.attr("nodes_treeids", std::vector<int64_t>{0, 0, 0})
      .attr("nodes_nodeids", std::vector<int64_t>{0, 1, 2})
      .attr("nodes_featureids", std::vector<int64_t>{feature, 0, 0})
      .attr("nodes_modes", std::vector<std::string>{"BRANCH_LEQ", "LEAF", "LEAF"})
      .attr("nodes_values", std::vector<float>{0.5f, 0.f, 0.f})
      .attr("nodes_truenodeids", std::vector<int64_t>{1, 0, 0})
      .attr("nodes_falsenodeids", std::vector<int64_t>{2, 0, 0});
  return t;
}

OpTester stumpRegressor(int64_t feature = 0) {
  OpTester t = stump("TreeEnsembleRegressor", feature);
  t.attr("target_treeids", std::vector<int64_t>{0, 0})
      .attr("target_nodeids", std::vector<int64_t>{1, 2})
      .attr("target_ids", std::vector<int64_t>{0, 0})
      .attr("target_weights", std::vector<float>{1.f, 2.f})
      .attr("n_targets", int64_t{1});
  return t;
}

const Tensor kX = Tensor::fromVector<float>({2, 2}, {0.f, 1.f, 2.f, 3.f});

TEST(MlOps, TreeFeatureIdBeyondInputIsAnError) {
  OpTester t = stumpRegressor(5);
  t.input("X", kX).output("Y");
  t.expectError("reads feature 5 but input 'X' has 2 features");
}

TEST(MlOps, TreeNegativeFeatureIdIsAnError) {
  OpTester t = stumpRegressor(-1);
  t.input("X", kX).output("Y");
  t.expectError("negative feature id -1");
}

TEST(MlOps, TreeChildOutsideItsTreeIsAnError) {
  OpTester t = stumpRegressor();
  t.attr("nodes_falsenodeids", std::vector<int64_t>{7, 0, 0}).input("X", kX).output("Y");
  t.expectError("false child 7, which is not a node of that tree");
}

TEST(MlOps, TreeCycleIsAnError) {
  // node 0's true child is node 3, whose true child is node 0: never a leaf.
  OpTester t("TreeEnsembleRegressor", 3, kMl);
  t.attr("nodes_treeids", std::vector<int64_t>{0, 0, 0, 0})
      .attr("nodes_nodeids", std::vector<int64_t>{0, 1, 2, 3})
      .attr("nodes_featureids", std::vector<int64_t>{0, 0, 0, 1})
      .attr("nodes_modes", std::vector<std::string>{"BRANCH_LEQ", "LEAF", "LEAF", "BRANCH_LT"})
      .attr("nodes_values", std::vector<float>{0.5f, 0.f, 0.f, 1.f})
      .attr("nodes_truenodeids", std::vector<int64_t>{3, 0, 0, 0})
      .attr("nodes_falsenodeids", std::vector<int64_t>{2, 0, 0, 1})
      .attr("target_treeids", std::vector<int64_t>{0, 0})
      .attr("target_nodeids", std::vector<int64_t>{1, 2})
      .attr("target_ids", std::vector<int64_t>{0, 0})
      .attr("target_weights", std::vector<float>{1.f, 2.f})
      .input("X", kX).output("Y");
  t.expectError("has a cycle");
}

TEST(MlOps, TreeDuplicateNodeIsAnError) {
  OpTester t = stumpRegressor();
  t.attr("nodes_nodeids", std::vector<int64_t>{0, 1, 1}).input("X", kX).output("Y");
  t.expectError("lists node 1 twice");
}

TEST(MlOps, TreeUnknownModeIsAnError) {
  OpTester t = stumpRegressor();
  t.attr("nodes_modes", std::vector<std::string>{"BRANCH_SOMETIMES", "LEAF", "LEAF"}).input("X", kX).output("Y");
  t.expectError("unknown mode 'BRANCH_SOMETIMES'");
}

TEST(MlOps, TreeAttributeLengthsMustAgree) {
  OpTester t = stumpRegressor();
  t.attr("nodes_featureids", std::vector<int64_t>{0, 0}).input("X", kX).output("Y");
  t.expectError("'nodes_featureids' has 2 entries, 'nodes_treeids' has 3");
}

TEST(MlOps, TreeTargetIdOutOfRangeIsAnError) {
  OpTester t = stumpRegressor();
  t.attr("target_ids", std::vector<int64_t>{0, 3}).input("X", kX).output("Y");
  t.expectError("target_ids value 3 is outside [0, 1)");
}

TEST(MlOps, TreeWeightOnABranchIsAnError) {
  OpTester t = stumpRegressor();
  t.attr("target_nodeids", std::vector<int64_t>{0, 2}).input("X", kX).output("Y");
  t.expectError("names node 0 of tree 0, which is not a leaf");
}

TEST(MlOps, TreeBadAggregateAndPostTransform) {
  {
    OpTester t = stumpRegressor();
    t.attr("aggregate_function", "MEDIAN").input("X", kX).output("Y");
    t.expectError("'aggregate_function' must be SUM, AVERAGE, MIN or MAX");
  }
  {
    OpTester t = stumpRegressor();
    t.attr("post_transform", "TANH").input("X", kX).output("Y");
    t.expectError("'post_transform' must be NONE, SOFTMAX, LOGISTIC, SOFTMAX_ZERO or PROBIT");
  }
}

TEST(MlOps, TreeListAndTensorFormsTogetherIsAnError) {
  OpTester t = stumpRegressor();
  t.attr("nodes_values_as_tensor", Tensor::fromVector<float>({3}, {0.5f, 0.f, 0.f})).input("X", kX).output("Y");
  t.expectError("'nodes_values' and 'nodes_values_as_tensor' are both given");
}

TEST(MlOps, TreeClassifierClassIdOutOfRangeIsAnError) {
  OpTester t = stump("TreeEnsembleClassifier");
  t.attr("class_treeids", std::vector<int64_t>{0, 0})
      .attr("class_nodeids", std::vector<int64_t>{1, 2})
      .attr("class_ids", std::vector<int64_t>{0, 2})
      .attr("class_weights", std::vector<float>{1.f, 1.f})
      .attr("classlabels_int64s", std::vector<int64_t>{0, 1})
      .input("X", kX).output("Y").output("Z");
  t.expectError("class_ids value 2 is outside [0, 2)");
}

TEST(MlOps, TreeClassifierNeedsOneLabelList) {
  OpTester t = stump("TreeEnsembleClassifier");
  t.attr("class_treeids", std::vector<int64_t>{0}).attr("class_nodeids", std::vector<int64_t>{1})
      .attr("class_ids", std::vector<int64_t>{0}).attr("class_weights", std::vector<float>{1.f})
      .input("X", kX).output("Y").output("Z");
  t.expectError("exactly one of 'classlabels_int64s' and 'classlabels_strings'");
}

// TreeEnsemble 5: a stump whose two children are leaves 0 and 1.
OpTester stump5() {
  OpTester t("TreeEnsemble", 5, kMl);
  t.attr("nodes_featureids", std::vector<int64_t>{0})
      .attr("nodes_modes", Tensor::fromVector<uint8_t>({1}, {0}))
      .attr("nodes_splits", Tensor::fromVector<float>({1}, {0.5f}))
      .attr("nodes_truenodeids", std::vector<int64_t>{0})
      .attr("nodes_trueleafs", std::vector<int64_t>{1})
      .attr("nodes_falsenodeids", std::vector<int64_t>{1})
      .attr("nodes_falseleafs", std::vector<int64_t>{1})
      .attr("leaf_targetids", std::vector<int64_t>{0, 0})
      .attr("leaf_weights", Tensor::fromVector<float>({2}, {1.f, 2.f}))
      .attr("tree_roots", std::vector<int64_t>{0})
      .attr("n_targets", int64_t{1});
  return t;
}

TEST(MlOps, TreeEnsemble5Stump) {
  OpTester t = stump5();
  t.input("X", kX).expect("Y", Tensor::fromVector<float>({2, 1}, {1.f, 2.f}));
  t.run();
}

TEST(MlOps, TreeEnsemble5LeafOutOfRangeIsAnError) {
  OpTester t = stump5();
  t.attr("nodes_falsenodeids", std::vector<int64_t>{2}).input("X", kX).output("Y");
  t.expectError("false leaf 2 outside [0, 2)");
}

TEST(MlOps, TreeEnsemble5CycleIsAnError) {
  OpTester t = stump5();
  t.attr("nodes_trueleafs", std::vector<int64_t>{0}).input("X", kX).output("Y");
  t.expectError("has a cycle through node 0");
}

TEST(MlOps, TreeEnsemble5RootOutOfRangeIsAnError) {
  OpTester t = stump5();
  t.attr("tree_roots", std::vector<int64_t>{4}).input("X", kX).output("Y");
  t.expectError("'tree_roots' holds 4, outside [0, 1)");
}

TEST(MlOps, TreeEnsemble5BadModeAndMissingSet) {
  {
    OpTester t = stump5();
    t.attr("nodes_modes", Tensor::fromVector<uint8_t>({1}, {9})).input("X", kX).output("Y");
    t.expectError("unknown mode 9");
  }
  {
    OpTester t = stump5();
    t.attr("nodes_modes", Tensor::fromVector<uint8_t>({1}, {6})).input("X", kX).output("Y");
    t.expectError("BRANCH_MEMBER but 'membership_values' has no set left");
  }
  {
    OpTester t = stump5();
    t.attr("nodes_modes", Tensor::fromVector<int64_t>({1}, {0})).input("X", kX).output("Y");
    t.expectError("'nodes_modes' must be a uint8 tensor");
  }
}

TEST(MlOps, TreeHugeTargetCountIsAnError) {
  OpTester t = stumpRegressor();
  t.attr("n_targets", int64_t{1} << 40).input("X", kX).output("Y");
  t.expectError("'n_targets' must be in [1, 16777216], got 1099511627776");
}

TEST(MlOps, TreeEnsemble5LeafTargetOutOfRangeIsAnError) {
  OpTester t = stump5();
  t.attr("leaf_targetids", std::vector<int64_t>{0, 1}).input("X", kX).output("Y");
  t.expectError("'leaf_targetids' value 1 is outside [0, 1)");
}

TEST(MlOps, ZipMapNamesTheExportOption) {
  OpTester t("ZipMap", 1, kMl);
  t.attr("classlabels_int64s", std::vector<int64_t>{0, 1}).input("X", kX).output("Z");
  t.expectError("zipmap=False");
}

TEST(MlOps, ArrayFeatureExtractorIndexOutOfRange) {
  OpTester t("ArrayFeatureExtractor", 1, kMl);
  t.input("X", kX).input("Y", Tensor::fromVector<int64_t>({1}, {2})).output("Z");
  t.expectError("index 2 in input 'Y' is outside [0, 2)");
}

// Found by the session fuzzer under ASan: int32 indices were read as int64,
// past the end of their buffer (tests/fuzz/regressions/session/
// heap-overflow-arrayfeatureextractor-int32-indices).
TEST(MlOps, ArrayFeatureExtractorIndicesMustBeInt64) {
  OpTester t("ArrayFeatureExtractor", 1, kMl);
  t.input("X", kX).input("Y", Tensor::fromVector<int32_t>({1}, {1})).output("Z");
  t.expectError("input 'Y' must be int64, got int32");
}

TEST(MlOps, LinearRegressorFeatureCountMismatch) {
  OpTester t("LinearRegressor", 1, kMl);
  t.attr("coefficients", std::vector<float>{1.f, 2.f, 3.f}).input("X", kX).output("Y");
  t.expectError("input 'X' has 2 features but the coefficients expect 3");
}

TEST(MlOps, LinearClassifierInterceptsAndLabelsDisagree) {
  OpTester t("LinearClassifier", 1, kMl);
  t.attr("coefficients", std::vector<float>{1.f, 2.f, 3.f, 4.f, 5.f, 6.f})
      .attr("intercepts", std::vector<float>{0.f, 0.f, 0.f})
      .attr("classlabels_ints", std::vector<int64_t>{0, 1})
      .input("X", kX).output("Y").output("Z");
  t.expectError("'intercepts' has 3 values for 2 class labels");
}

TEST(MlOps, ScalerScaleLengthMismatch) {
  OpTester t("Scaler", 1, kMl);
  t.attr("scale", std::vector<float>{1.f, 2.f, 3.f}).input("X", kX).output("Y");
  t.expectError("'scale' has 3 values but input 'X' has 2 columns");
}

TEST(MlOps, NormalizerBadNorm) {
  OpTester t("Normalizer", 1, kMl);
  t.attr("norm", "L3").input("X", kX).output("Y");
  t.expectError("'norm' must be MAX, L1 or L2");
}

TEST(MlOps, ImputerTypeAndCountChecks) {
  {
    OpTester t("Imputer", 1, kMl);
    t.attr("imputed_value_int64s", std::vector<int64_t>{1}).input("X", kX).output("Y");
    t.expectError("needs 'imputed_value_floats'");
  }
  {
    OpTester t("Imputer", 1, kMl);
    t.attr("imputed_value_floats", std::vector<float>{1.f, 2.f, 3.f}).input("X", kX).output("Y");
    t.expectError("hold 3 values but input 'X' has 2 columns");
  }
}

TEST(MlOps, LabelEncoderKeyChecks) {
  {
    OpTester t("LabelEncoder", 2, kMl);
    t.attr("keys_strings", std::vector<std::string>{"a"}).attr("keys_int64s", std::vector<int64_t>{1})
        .attr("values_int64s", std::vector<int64_t>{1})
        .input("X", Tensor::fromVector<std::string>({1}, {"a"})).output("Y");
    t.expectError("exactly one of 'keys_floats', 'keys_int64s', 'keys_strings', 'keys_tensor' must be given, got 2");
  }
  {
    OpTester t("LabelEncoder", 2, kMl);
    t.attr("keys_strings", std::vector<std::string>{"a", "b"}).attr("values_int64s", std::vector<int64_t>{1})
        .input("X", Tensor::fromVector<std::string>({1}, {"a"})).output("Y");
    t.expectError("the keys hold 2 entries but the values 1");
  }
  {
    OpTester t("LabelEncoder", 2, kMl);
    t.attr("keys_strings", std::vector<std::string>{"a"}).attr("values_int64s", std::vector<int64_t>{1})
        .input("X", Tensor::fromVector<int64_t>({1}, {3})).output("Y");
    t.expectError("input 'X' is int64 but the keys are string");
  }
}

TEST(MlOps, OneHotEncoderUnknownWithZerosOff) {
  OpTester t("OneHotEncoder", 1, kMl);
  t.attr("cats_int64s", std::vector<int64_t>{1, 2}).attr("zeros", int64_t{0})
      .input("X", Tensor::fromVector<int64_t>({2}, {1, 5})).output("Y");
  t.expectError("not a category (zeros=0)");
}

TEST(MlOps, SVMClassifierAttributeSizes) {
  {
    OpTester t("SVMClassifier", 1, kMl);
    t.attr("kernel_type", "RBF").attr("vectors_per_class", std::vector<int64_t>{1, 1, 1})
        .attr("support_vectors", std::vector<float>{0.f, 0.f, 1.f, 1.f, 2.f, 2.f})
        .attr("coefficients", std::vector<float>{1.f, 1.f, 1.f, 1.f, 1.f, 1.f})
        .attr("rho", std::vector<float>{0.f})
        .attr("classlabels_ints", std::vector<int64_t>{0, 1, 2})
        .input("X", kX).output("Y").output("Z");
    t.expectError("'rho' has 1 values, need one per class pair (3)");
  }
  {
    OpTester t("SVMClassifier", 1, kMl);
    t.attr("kernel_type", "CUBIC").attr("coefficients", std::vector<float>{1.f}).attr("rho", std::vector<float>{0.f})
        .attr("classlabels_ints", std::vector<int64_t>{0}).input("X", kX).output("Y").output("Z");
    t.expectError("'kernel_type' must be LINEAR, POLY, RBF or SIGMOID");
  }
}

TEST(MlOps, SVMRegressorFeatureCountMismatch) {
  OpTester t("SVMRegressor", 1, kMl);
  t.attr("n_supports", int64_t{1}).attr("support_vectors", std::vector<float>{1.f, 2.f, 3.f})
      .attr("coefficients", std::vector<float>{1.f}).attr("rho", std::vector<float>{0.f})
      .input("X", kX).output("Y");
  t.expectError("input 'X' has 2 features but the model expects 3");
}

TEST(MlOps, FeatureVectorizerConcatenatesAndPads) {
  // inputdimensions [1, 3]: X's first column, then Y's two columns and a zero (onnx.reference semantics).
  OpTester t("FeatureVectorizer", 1, kMl);
  t.attr("inputdimensions", std::vector<int64_t>{1, 3})
      .input("X", kX)
      .input("Y", Tensor::fromVector<float>({2, 2}, {5.f, 6.f, 7.f, 8.f}))
      .expect("Z", Tensor::fromVector<float>({2, 4}, {0.f, 5.f, 6.f, 0.f, 2.f, 7.f, 8.f, 0.f}));
  t.run();
}

}  // namespace
}  // namespace oinfer::testing
