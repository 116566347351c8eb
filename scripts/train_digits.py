#!/usr/bin/env python3
"""Train the demo classifier and export it to ONNX.

A 64 -> 64 (ReLU) -> 10 (Softmax) MLP on scikit-learn's bundled 8x8 digits
(sklearn.datasets.load_digits ships inside the package: no download), trained
with plain numpy (minibatch SGD with momentum, fixed seed), so the output is
reproducible. Writes, relative to the repository root:

  models/digits.onnx                      input "pixels" float32 [batch, 64] (0..1),
                                          output "probabilities" float32 [batch, 10]
  models/digits_samples/digit_<label>.npy one correctly classified held-out sample per
                                          listed class, shape [1, 64]
  models/digits_test_data/input_0.pb      8 held-out samples, and output_0.pb, the
  models/digits_test_data/output_0.pb     onnxruntime result (the --test-data layout)
  tests/cli/data/digits_wrong/            same input with a deliberately wrong output

Run: .venv/bin/python scripts/train_digits.py
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from sklearn.datasets import load_digits

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEED = 0
SAMPLE_LABELS = (0, 3, 7, 9)


def softmax(z):
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def train(x, y, hidden=64, epochs=60, lr=0.1, momentum=0.9, batch=32):
    rng = np.random.default_rng(SEED)
    w1 = rng.normal(0, np.sqrt(2.0 / x.shape[1]), (x.shape[1], hidden)).astype(np.float32)
    b1 = np.zeros(hidden, np.float32)
    w2 = rng.normal(0, np.sqrt(1.0 / hidden), (hidden, 10)).astype(np.float32)
    b2 = np.zeros(10, np.float32)
    params = [w1, b1, w2, b2]
    vel = [np.zeros_like(p) for p in params]
    onehot = np.eye(10, dtype=np.float32)[y]
    for _ in range(epochs):
        order = rng.permutation(len(x))
        for s in range(0, len(x), batch):
            idx = order[s:s + batch]
            xb, tb = x[idx], onehot[idx]
            h_pre = xb @ w1 + b1
            h = np.maximum(h_pre, 0)
            p = softmax(h @ w2 + b2)
            g_logits = (p - tb) / len(idx)  # d(mean cross-entropy)/d(logits)
            g_w2 = h.T @ g_logits
            g_b2 = g_logits.sum(0)
            g_h = (g_logits @ w2.T) * (h_pre > 0)
            g_w1 = xb.T @ g_h
            g_b1 = g_h.sum(0)
            for p_, v, g in zip(params, vel, [g_w1, g_b1, g_w2, g_b2]):
                v *= momentum
                v -= lr * g
                p_ += v
    return params


def predict(params, x):
    w1, b1, w2, b2 = params
    return softmax(np.maximum(x @ w1 + b1, 0) @ w2 + b2)


def export(params, path):
    w1, b1, w2, b2 = params
    nodes = [
        helper.make_node("Gemm", ["pixels", "W1", "B1"], ["hidden_pre"], name="fc1"),
        helper.make_node("Relu", ["hidden_pre"], ["hidden"], name="relu1"),
        helper.make_node("Gemm", ["hidden", "W2", "B2"], ["logits"], name="fc2"),
        helper.make_node("Softmax", ["logits"], ["probabilities"], name="softmax", axis=1),
    ]
    graph = helper.make_graph(
        nodes, "digits_mlp",
        [helper.make_tensor_value_info("pixels", TensorProto.FLOAT, ["batch", 64])],
        [helper.make_tensor_value_info("probabilities", TensorProto.FLOAT, ["batch", 10])],
        initializer=[numpy_helper.from_array(a, n) for a, n in
                     zip([w1, b1, w2, b2], ["W1", "B1", "W2", "B2"])])
    model = helper.make_model(graph, producer_name="oinfer-train-digits", producer_version="1.0",
                              opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    model.doc_string = "8x8 digit classifier (scikit-learn digits), input scaled to 0..1"
    onnx.checker.check_model(model)
    onnx.save(model, path)


def write_test_data(model_path, x, out_dir, wrong_dir):
    import onnxruntime as ort
    sess = ort.InferenceSession(model_path, providers=["CPUExecutionProvider"])
    (probs,) = sess.run(None, {"pixels": x})
    for d, out in ((out_dir, probs), (wrong_dir, None)):
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "input_0.pb"), "wb") as f:
            f.write(numpy_helper.from_array(x, "pixels").SerializeToString())
        if out is None:  # the wrong one: swap the top two classes of the first sample
            out = probs.copy()
            out[0] = out[0][::-1]
        with open(os.path.join(d, "output_0.pb"), "wb") as f:
            f.write(numpy_helper.from_array(out, "probabilities").SerializeToString())
    return probs


def main():
    digits = load_digits()
    x = (digits.data / 16.0).astype(np.float32)
    y = digits.target.astype(np.int64)
    order = np.random.default_rng(SEED).permutation(len(x))
    n_test = len(x) // 5
    test, tr = order[:n_test], order[n_test:]
    params = train(x[tr], y[tr])
    acc_train = (predict(params, x[tr]).argmax(1) == y[tr]).mean()
    pred = predict(params, x[test]).argmax(1)
    acc = (pred == y[test]).mean()
    print(f"train accuracy {acc_train:.4f}, held-out accuracy {acc:.4f} ({len(test)} samples)")

    models = os.path.join(ROOT, "models")
    os.makedirs(models, exist_ok=True)
    model_path = os.path.join(models, "digits.onnx")
    export(params, model_path)
    print(f"wrote {model_path}")

    samples = os.path.join(models, "digits_samples")
    os.makedirs(samples, exist_ok=True)
    for label in SAMPLE_LABELS:
        i = next(t for t, p in zip(test, pred) if y[t] == label and p == label)
        np.save(os.path.join(samples, f"digit_{label}.npy"), x[i:i + 1])
    print(f"wrote {samples}/digit_{{{','.join(map(str, SAMPLE_LABELS))}}}.npy")

    probs = write_test_data(model_path, x[test[:8]], os.path.join(models, "digits_test_data"),
                            os.path.join(ROOT, "tests", "cli", "data", "digits_wrong"))
    ours = predict(params, x[test[:8]])
    if not np.allclose(probs, ours, rtol=1e-4, atol=1e-6):
        sys.exit("onnxruntime disagrees with the numpy forward pass")
    print("wrote models/digits_test_data (onnxruntime reference)")


if __name__ == "__main__":
    main()
