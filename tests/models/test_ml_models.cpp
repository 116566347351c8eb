// ai.onnx.ml models exported by skl2onnx / onnxmltools (scikit-learn, XGBoost,
// LightGBM; classifiers with zipmap=False) against onnxruntime's outputs. The
// models and references are made by scripts/gen_ml_models.py (see
// tests/data/models/README.md); labels (int64 or string) must match exactly.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ir_util.h"
#include "model_test_util.h"
#include "oinfer/graph.h"
#include "oinfer/session.h"

namespace oinfer::modeltest {
namespace {

void checkMlModel(const std::string& name) {
  const std::vector<DataSet> sets = loadNumberedDataSets(name);
  ASSERT_FALSE(sets.empty()) << "no test_data_set_0 under " << modelDir(name);
  for (int threads : {1, 2}) {
    SCOPED_TRACE(name + " threads " + std::to_string(threads));
    SessionOptions opts;
    opts.threads = threads;
    Session session(Graph::loadFromONNX(modelPath(name)), opts);
    for (size_t k = 0; k < sets.size(); ++k) runAndCompare(session, sets[k], "data set " + std::to_string(k));
  }
}

class MlModel : public ::testing::TestWithParam<std::string> {};

TEST_P(MlModel, MatchesOnnxRuntime) { checkMlModel(GetParam()); }

INSTANTIATE_TEST_SUITE_P(
    SklearnXgboostLightgbm, MlModel,
    ::testing::Values("ml_rf_classifier", "ml_rf_classifier_binary_strings", "ml_gb_classifier_binary",
                      "ml_gb_classifier_multiclass", "ml_dt_classifier", "ml_dt_regressor", "ml_rf_regressor",
                      "ml_gb_regressor", "ml_logreg_multiclass", "ml_logreg_binary", "ml_linreg",
                      "ml_pipeline_scaler_logreg", "ml_pipeline_minmax_binarizer", "ml_onehot_int",
                      "ml_onehot_strings", "ml_xgb_classifier", "ml_xgb_regressor", "ml_lgbm_classifier",
                      "ml_lgbm_classifier_binary", "ml_lgbm_regressor", "ml_svc_rbf_proba",
                      "ml_svc_sigmoid_multiclass", "ml_svc_poly_binary", "ml_svc_linear_binary_proba", "ml_svr_rbf",
                      "ml_svr_linear"),
    [](const ::testing::TestParamInfo<std::string>& p) { return p.param; });

// ZipMap's output is a sequence of maps, which oinfer does not have: the
// error must name the export option that avoids it.
TEST(MlModelErrors, ZipMapNamesTheExportOption) {
  try {
    Session session(Graph::loadFromONNX(modelPath("ml_zipmap_unsupported")));
    FAIL() << "a model with ZipMap was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kNotImplemented) << e.what();
    EXPECT_NE(std::string(e.what()).find("zipmap=False"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("node 'ZipMap'"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace oinfer::modeltest
