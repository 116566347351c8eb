#!/usr/bin/env python3
"""Generate the ai.onnx.ml model-test data under tests/data/models/ml_*.

Small scikit-learn, XGBoost and LightGBM models (few trees, few features,
fixed seeds) converted with skl2onnx / onnxmltools, classifiers with
zipmap=False (labels tensor + probabilities tensor). References come from
onnxruntime on CPU. Written in the ONNX backend test layout:

  tests/data/models/<name>/model.onnx
  tests/data/models/<name>/test_data_set_0/input_0.pb, output_<j>.pb

Only this script needs skl2onnx, onnxmltools, xgboost and lightgbm
(pip install skl2onnx onnxmltools xgboost lightgbm); CI reads the committed
files. Test inputs hold a few NaNs for the models trained with missing values
(XGBoost, LightGBM) to exercise
nodes_missing_value_tracks_true.

Run from the repository root:  .venv/bin/python scripts/gen_ml_models.py [name ...]
"""
import os
import shutil
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import numpy_helper

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT_DIR = os.path.join(ROOT, "tests", "data", "models")


def write(name, model, inputs):
    """Saves model + one data set with onnxruntime's outputs."""
    d = os.path.join(OUT_DIR, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(os.path.join(d, "test_data_set_0"))
    onnx.save(model, os.path.join(d, "model.onnx"))
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    sess = ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])
    feeds = {i.name: x for i, x in zip(sess.get_inputs(), inputs)}
    outs = sess.run(None, feeds)
    for k, x in enumerate(inputs):
        t = numpy_helper.from_array(x, sess.get_inputs()[k].name)
        open(os.path.join(d, "test_data_set_0", f"input_{k}.pb"), "wb").write(t.SerializeToString())
    for k, y in enumerate(outs):
        y = np.asarray(y)
        if y.dtype == object:
            y = y.astype(str).astype(object)
        t = numpy_helper.from_array(y, sess.get_outputs()[k].name)
        open(os.path.join(d, "test_data_set_0", f"output_{k}.pb"), "wb").write(t.SerializeToString())
    ops = sorted({(n.domain or "ai.onnx") + ":" + n.op_type for n in model.graph.node})
    print(f"{name}: {os.path.getsize(os.path.join(d, 'model.onnx'))} bytes, ops {ops}")


def data(n_features=4, n=200, classes=3, seed=0, regression=False):
    from sklearn.datasets import make_classification, make_regression
    if regression:
        X, y = make_regression(n_samples=n, n_features=n_features, noise=0.1, random_state=seed)
    else:
        X, y = make_classification(n_samples=n, n_features=n_features, n_informative=3, n_redundant=0,
                                   n_classes=classes, random_state=seed)
    return X.astype(np.float32), y


def sk(model, X, dtype=np.float32, **opts):
    from skl2onnx import to_onnx
    options = {id(model): opts} if opts else None
    return to_onnx(model, X[:1].astype(dtype), options=options, target_opset={"": 17, "ai.onnx.ml": 3})


def test_rows(X, nan=False):
    rows = X[:16].copy()
    if nan:
        rows[1, 0] = np.nan
        rows[5, 2] = np.nan
        rows[9, :] = np.nan
    return rows


def gen_sklearn_trees():
    from sklearn.ensemble import (GradientBoostingClassifier, GradientBoostingRegressor, RandomForestClassifier,
                                  RandomForestRegressor)
    from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor
    X, y = data()
    m = RandomForestClassifier(n_estimators=5, max_depth=4, random_state=0).fit(X, y)
    yield "ml_rf_classifier", sk(m, X, zipmap=False), [test_rows(X)]
    Xb, yb = data(classes=2, seed=1)
    labels = np.array(["no", "yes"])[yb]
    m = RandomForestClassifier(n_estimators=4, max_depth=3, random_state=0).fit(Xb, labels)
    yield "ml_rf_classifier_binary_strings", sk(m, Xb, zipmap=False), [test_rows(Xb)]
    m = GradientBoostingClassifier(n_estimators=6, max_depth=3, random_state=0).fit(Xb, yb)
    yield "ml_gb_classifier_binary", sk(m, Xb, zipmap=False), [test_rows(Xb)]
    m = GradientBoostingClassifier(n_estimators=4, max_depth=2, random_state=0).fit(X, y)
    yield "ml_gb_classifier_multiclass", sk(m, X, zipmap=False), [test_rows(X)]
    m = DecisionTreeClassifier(max_depth=4, random_state=0).fit(X, y + 10)
    yield "ml_dt_classifier", sk(m, X, zipmap=False), [test_rows(X)]
    Xr, yr = data(regression=True, seed=2)
    m = DecisionTreeRegressor(max_depth=4, random_state=0).fit(Xr, yr)
    yield "ml_dt_regressor", sk(m, Xr), [test_rows(Xr)]
    m = RandomForestRegressor(n_estimators=5, max_depth=4, random_state=0).fit(Xr, yr)
    yield "ml_rf_regressor", sk(m, Xr), [test_rows(Xr)]
    m = GradientBoostingRegressor(n_estimators=6, max_depth=3, random_state=0).fit(Xr, yr)
    yield "ml_gb_regressor", sk(m, Xr), [test_rows(Xr)]


def gen_sklearn_linear():
    from sklearn.linear_model import LinearRegression, LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler, Normalizer, Binarizer, MinMaxScaler
    X, y = data()
    m = LogisticRegression(max_iter=500).fit(X, y)
    yield "ml_logreg_multiclass", sk(m, X, zipmap=False), [test_rows(X)]
    Xb, yb = data(classes=2, seed=1)
    m = LogisticRegression(max_iter=500).fit(Xb, yb)
    yield "ml_logreg_binary", sk(m, Xb, zipmap=False), [test_rows(Xb)]
    Xr, yr = data(regression=True, seed=2)
    m = LinearRegression().fit(Xr, yr)
    yield "ml_linreg", sk(m, Xr), [test_rows(Xr)]
    m = make_pipeline(StandardScaler(), Normalizer(norm="l2"), LogisticRegression(max_iter=500)).fit(X, y)
    yield "ml_pipeline_scaler_logreg", sk(m, X, zipmap=False), [test_rows(X)]
    m = make_pipeline(MinMaxScaler(), Binarizer(threshold=0.5)).fit(X)
    yield "ml_pipeline_minmax_binarizer", sk(m, X), [test_rows(X)]


def gen_sklearn_svm():
    from sklearn.svm import SVC, SVR
    X, y = data(n=60)
    m = SVC(kernel="rbf", probability=True, random_state=0).fit(X, y)
    yield "ml_svc_rbf_proba", sk(m, X, zipmap=False), [test_rows(X)]
    m = SVC(kernel="sigmoid", gamma=0.1).fit(X, y)
    yield "ml_svc_sigmoid_multiclass", sk(m, X, zipmap=False), [test_rows(X)]
    Xb, yb = data(n=60, classes=2, seed=1)
    m = SVC(kernel="poly", degree=3).fit(Xb, np.array([3, 8])[yb])
    yield "ml_svc_poly_binary", sk(m, Xb, zipmap=False), [test_rows(Xb)]
    m = SVC(kernel="linear", probability=True, random_state=0).fit(Xb, yb)
    yield "ml_svc_linear_binary_proba", sk(m, Xb, zipmap=False), [test_rows(Xb)]
    Xr, yr = data(n=60, regression=True, seed=2)
    m = SVR(kernel="rbf", C=10.0).fit(Xr, yr)
    yield "ml_svr_rbf", sk(m, Xr), [test_rows(Xr)]
    m = SVR(kernel="linear").fit(Xr, yr)
    yield "ml_svr_linear", sk(m, Xr), [test_rows(Xr)]


def gen_sklearn_encoders():
    from sklearn.preprocessing import OneHotEncoder
    from skl2onnx import to_onnx
    rng = np.random.default_rng(0)
    Xi = rng.integers(0, 4, size=(50, 2)).astype(np.int64)
    m = OneHotEncoder(handle_unknown="ignore").fit(Xi)
    yield "ml_onehot_int", to_onnx(m, Xi[:1], target_opset={"": 17, "ai.onnx.ml": 3}), [Xi[:8]]
    Xs = np.array([["a", "x"], ["b", "y"], ["c", "x"], ["a", "z"]], dtype=object)
    m = OneHotEncoder(handle_unknown="ignore").fit(Xs)
    from skl2onnx.common.data_types import StringTensorType
    model = to_onnx(m, initial_types=[("X", StringTensorType([None, 2]))], target_opset={"": 17, "ai.onnx.ml": 3})
    yield "ml_onehot_strings", model, [np.array([["a", "z"], ["c", "q"], ["b", "y"]], dtype=object)]


def gen_xgboost_lightgbm():
    try:
        import xgboost
        import lightgbm
        from onnxmltools import convert_lightgbm, convert_xgboost
        from onnxmltools.convert.common.data_types import FloatTensorType
    except ImportError as e:
        print("skip xgboost / lightgbm:", e)
        return
    X, y = data(seed=3)
    Xn = X.copy()
    Xn[::5, 0] = np.nan
    it = [("input", FloatTensorType([None, X.shape[1]]))]
    m = xgboost.XGBClassifier(n_estimators=4, max_depth=3, random_state=0).fit(Xn, y)
    yield "ml_xgb_classifier", convert_xgboost(m, initial_types=it, target_opset=15), [test_rows(X, nan=True)]
    Xr, yr = data(regression=True, seed=4)
    m = xgboost.XGBRegressor(n_estimators=4, max_depth=3, random_state=0).fit(Xr, yr)
    yield "ml_xgb_regressor", convert_xgboost(m, initial_types=it, target_opset=15), [test_rows(Xr, nan=True)]
    m = lightgbm.LGBMClassifier(n_estimators=4, num_leaves=7, random_state=0, verbose=-1).fit(Xn, y)
    yield "ml_lgbm_classifier", convert_lightgbm(m, initial_types=it, target_opset=15, zipmap=False), \
        [test_rows(X, nan=True)]
    Xb, yb = data(classes=2, seed=5)
    m = lightgbm.LGBMClassifier(n_estimators=4, num_leaves=7, random_state=0, verbose=-1).fit(Xb, yb)
    yield "ml_lgbm_classifier_binary", convert_lightgbm(m, initial_types=it, target_opset=15, zipmap=False), \
        [test_rows(Xb, nan=True)]
    m = lightgbm.LGBMRegressor(n_estimators=4, num_leaves=7, random_state=0, verbose=-1).fit(Xr, yr)
    yield "ml_lgbm_regressor", convert_lightgbm(m, initial_types=it, target_opset=15), [test_rows(Xr, nan=True)]


def write_zipmap_model():
    """A RandomForestClassifier exported with ZipMap (the default): oinfer must
    refuse it with an error naming zipmap=False (no data set)."""
    from sklearn.ensemble import RandomForestClassifier
    X, y = data(n=50, classes=2, seed=6)
    m = RandomForestClassifier(n_estimators=2, max_depth=2, random_state=0).fit(X, y)
    d = os.path.join(OUT_DIR, "ml_zipmap_unsupported")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    onnx.save(sk(m, X), os.path.join(d, "model.onnx"))
    print("ml_zipmap_unsupported: model only")


GENERATORS = [gen_sklearn_trees, gen_sklearn_linear, gen_sklearn_svm, gen_sklearn_encoders, gen_xgboost_lightgbm]

if __name__ == "__main__":
    only = set(sys.argv[1:])
    if not only or "ml_zipmap_unsupported" in only:
        write_zipmap_model()
    for gen in GENERATORS:
        for name, model, inputs in gen():
            if not only or name in only:
                write(name, model, inputs)
