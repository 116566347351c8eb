"""oinfer.backend's own API (BackendTest covers prepare and run on models)."""

import numpy as np
import pytest
from onnx import TensorProto, helper

import oinfer
import oinfer.backend as backend


def test_supports_device():
    assert backend.supports_device("CPU")
    assert backend.supports_device("CUDA") == bool(oinfer._oinfer.has_cuda)


def test_run_node():
    node = helper.make_node("Add", ["a", "b"], ["c"])
    a = np.array([[1, 2, 3]], np.float32)
    b = np.array([[10], [20]], np.float32)
    (c,) = backend.run_node(node, [a, b])
    np.testing.assert_array_equal(c, a + b)
    # By name, an older opset, and a node with an attribute.
    node = helper.make_node("Transpose", ["x"], ["y"], perm=[1, 0])
    out = backend.run_node(node, {"x": a}, opset_version=13)
    np.testing.assert_array_equal(out["y"], a.T)


def test_run_node_sequence_input():
    node = helper.make_node("SequenceLength", ["s"], ["n"])
    (n,) = backend.run_node(node, [[np.zeros(2, np.float32), np.ones(3, np.float32)]])
    assert int(n) == 2


def test_run_node_errors():
    node = helper.make_node("Add", ["a", "b"], ["c"], name="add")
    with pytest.raises(oinfer.Error, match=r"^node 'add': 1 inputs given for 2 \(a, b\)$"):
        backend.run_node(node, [np.zeros(1, np.float32)])
    with pytest.raises(oinfer.Error) as e:
        backend.run_node(helper.make_node("NoSuchOp", ["a"], ["b"]), [np.zeros(1, np.float32)])
    assert e.value.code == "UnsupportedOp"
    assert "NoSuchOp" in str(e.value)


def test_prepare_and_run_model(digits_path, digit7):
    import onnx

    model = onnx.load(digits_path)
    rep = backend.prepare(model, "CPU")
    (probs,) = rep.run([digit7])
    assert int(np.argmax(probs)) == 7
    (again,) = rep.run(digit7)  # one array for a one-input model
    np.testing.assert_array_equal(again, probs)
    (byname,) = backend.run_model(model, {"pixels": digit7})
    np.testing.assert_array_equal(byname, probs)
    assert rep.run([digit7]).probabilities is not None  # outputs by name, as a namedtuple
    with pytest.raises(oinfer.Error, match=r"^2 inputs given; the model takes 1 \(pixels\)$"):
        rep.run([digit7, digit7])
    if not oinfer._oinfer.has_cuda:
        with pytest.raises(oinfer.Error, match="no CUDA backend"):
            backend.prepare(model, "CUDA")
