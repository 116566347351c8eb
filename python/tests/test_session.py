"""The onnxruntime-shaped API: sessions, inputs/outputs, run, intermediates,
errors, threads, the digits demo."""

import os
import subprocess
import sys
import threading

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

import oinfer


def make_model(nodes, inputs, outputs, initializers=(), opset=17):
    graph = helper.make_graph(nodes, "g", inputs, outputs, list(initializers))
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def add_model():
    """z = x + y, x float [batch, 3], y float [batch, 3]."""
    return make_model(
        [helper.make_node("Add", ["x", "y"], ["z"], name="add")],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 3]),
         helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 3])],
        [helper.make_tensor_value_info("z", TensorProto.FLOAT, ["batch", 3])])


def digits_reference(path, x):
    m = onnx.load(path)
    w = {t.name: numpy_helper.to_array(t) for t in m.graph.initializer}
    pre = x @ w["W1"] + w["B1"]
    hidden = np.maximum(pre, 0)
    logits = hidden @ w["W2"] + w["B2"]
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    return pre, hidden, e / e.sum(axis=1, keepdims=True)


# ---- the demo ------------------------------------------------------------------------


def test_digits_demo_prints_7(digits_path, digit7):
    sess = oinfer.InferenceSession(digits_path)
    (probs,) = sess.run(None, {"pixels": digit7})
    assert probs.shape == (1, 10) and probs.dtype == np.float32
    assert int(np.argmax(probs)) == 7
    assert probs[0, 7] > 0.9
    _, _, want = digits_reference(digits_path, digit7)
    np.testing.assert_allclose(probs, want, rtol=1e-4, atol=1e-6)


def test_digits_demo_script(digits_path):
    root = os.path.dirname(os.path.dirname(digits_path))
    script = (
        "import numpy as np, oinfer\n"
        f"s = oinfer.InferenceSession({digits_path!r})\n"
        f"x = np.load({os.path.join(root, 'models', 'digits_samples', 'digit_7.npy')!r})\n"
        "print(int(np.argmax(s.run(None, {'pixels': x})[0])))\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "7"


# ---- inspection -----------------------------------------------------------------------


def test_version_is_the_libraries():
    root = os.path.join(os.path.dirname(__file__), "..", "..")
    header = open(os.path.join(root, "include", "oinfer", "version.h")).read()
    assert f'#define OINFER_VERSION_STRING "{oinfer.__version__}"' in header


def test_inputs_and_outputs(digits_path):
    sess = oinfer.InferenceSession(digits_path)
    (i,) = sess.get_inputs()
    (o,) = sess.get_outputs()
    assert (i.name, i.shape, i.type) == ("pixels", ["batch", 64], "tensor(float)")
    assert (o.name, o.shape, o.type) == ("probabilities", ["batch", 10], "tensor(float)")
    assert repr(i) == "NodeArg(name='pixels', type='tensor(float)', shape=['batch', 64])"
    assert sess.get_providers() == ["CPUExecutionProvider"]


def test_types_of_inputs_and_outputs():
    model = make_model(
        [helper.make_node("Cast", ["a"], ["b"], to=TensorProto.INT64),
         helper.make_node("Not", ["c"], ["d"]),
         helper.make_node("Identity", ["s"], ["t"]),
         helper.make_node("Cast", ["h"], ["hd"], to=TensorProto.DOUBLE)],
        [helper.make_tensor_value_info("a", TensorProto.INT32, [2, "n"]),
         helper.make_tensor_value_info("c", TensorProto.BOOL, [4]),
         helper.make_tensor_value_info("s", TensorProto.STRING, [2]),
         helper.make_tensor_value_info("h", TensorProto.FLOAT16, [])],
        [helper.make_tensor_value_info("b", TensorProto.INT64, [2, "n"]),
         helper.make_tensor_value_info("d", TensorProto.BOOL, [4]),
         helper.make_tensor_value_info("t", TensorProto.STRING, [2]),
         helper.make_tensor_value_info("hd", TensorProto.DOUBLE, [])])
    sess = oinfer.InferenceSession(model.SerializeToString())
    assert [(i.name, i.type, i.shape) for i in sess.get_inputs()] == [
        ("a", "tensor(int32)", [2, "n"]), ("c", "tensor(bool)", [4]),
        ("s", "tensor(string)", [2]), ("h", "tensor(float16)", [])]
    assert [o.type for o in sess.get_outputs()] == [
        "tensor(int64)", "tensor(bool)", "tensor(string)", "tensor(double)"]
    b, d, t, hd = sess.run(None, {
        "a": np.array([[1, -2, 3], [4, 5, 6]], dtype=np.int32),
        "c": np.array([True, False, False, True]),
        "s": np.array(["héllo", "world"]),
        "h": np.float16(1.5)})
    assert b.dtype == np.int64 and b.tolist() == [[1, -2, 3], [4, 5, 6]]
    assert d.dtype == np.bool_ and d.tolist() == [False, True, True, False]
    assert t.dtype == object and t.tolist() == ["héllo", "world"]
    assert hd.dtype == np.float64 and hd.shape == () and float(hd) == 1.5


def test_model_from_path_bytes_and_proto(digits_path, digit7):
    want = oinfer.InferenceSession(digits_path).run(None, {"pixels": digit7})[0]
    with open(digits_path, "rb") as f:
        data = f.read()
    for source in (data, onnx.load(digits_path), __import__("pathlib").Path(digits_path)):
        got = oinfer.InferenceSession(source).run(None, {"pixels": digit7})[0]
        np.testing.assert_array_equal(got, want)


# ---- run ------------------------------------------------------------------------------


def test_run_by_output_name_and_symbolic_batch():
    sess = oinfer.InferenceSession(add_model().SerializeToString())
    x = np.arange(12, dtype=np.float32).reshape(4, 3)
    y = np.full((4, 3), 0.5, dtype=np.float32)
    (z,) = sess.run(["z"], {"x": x, "y": y})
    np.testing.assert_array_equal(z, x + y)
    (z1,) = sess.run([], {"x": x[:1], "y": y[:1]})
    np.testing.assert_array_equal(z1, x[:1] + y[:1])


def test_non_contiguous_inputs_are_copied_and_right():
    sess = oinfer.InferenceSession(add_model().SerializeToString())
    x = np.arange(24, dtype=np.float32).reshape(4, 6)[:, ::2]  # strided view
    y = np.asfortranarray(np.arange(12, dtype=np.float32).reshape(4, 3))
    assert not x.flags.c_contiguous and not y.flags.c_contiguous
    (z,) = sess.run(None, {"x": x, "y": y})
    np.testing.assert_array_equal(z, x + y)


def test_c_contiguous_inputs_are_read_in_place():
    from oinfer.session import _tensor_in

    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    code, shape, payload = _tensor_in("x", x, 1)
    assert (code, shape) == (1, [2, 3])
    assert np.shares_memory(payload, x), "the array the C++ side wraps is the caller's"
    strided = x[:, ::2]
    _, _, copied = _tensor_in("x", strided, 1)
    assert not np.shares_memory(copied, x)


def test_outputs_survive_later_runs():
    sess = oinfer.InferenceSession(add_model().SerializeToString())
    x = np.ones((2, 3), np.float32)
    first = sess.run(None, {"x": x, "y": x})[0]
    second = sess.run(None, {"x": x * 3, "y": x})[0]
    np.testing.assert_array_equal(first, np.full((2, 3), 2, np.float32))
    np.testing.assert_array_equal(second, np.full((2, 3), 4, np.float32))


def test_python_scalars_and_lists_take_the_declared_type():
    sess = oinfer.InferenceSession(add_model().SerializeToString())
    (z,) = sess.run(None, {"x": [[1, 2, 3]], "y": [[0.5, 0.5, 0.5]]})
    assert z.dtype == np.float32
    np.testing.assert_array_equal(z, [[1.5, 2.5, 3.5]])


# ---- intermediate values ----------------------------------------------------------------


def test_intermediate_fused_away_rebuilds_lazily(digits_path, digit7):
    pre, hidden, probs = digits_reference(digits_path, digit7)
    sess = oinfer.InferenceSession(digits_path)
    assert sess.keep_values == []
    got_pre, got_probs = sess.run(["hidden_pre", "probabilities"], {"pixels": digit7})
    assert sess.keep_values == ["hidden_pre"], "the session was rebuilt with hidden_pre kept"
    np.testing.assert_allclose(got_pre, pre, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(got_probs, probs, rtol=1e-4, atol=1e-6)
    # The rebuilt session serves later runs without another rebuild.
    (again,) = sess.run(["hidden_pre"], {"pixels": digit7})
    np.testing.assert_array_equal(again, got_pre)
    assert sess.keep_values == ["hidden_pre"]


def test_keep_values_at_construction(digits_path, digit7):
    pre, hidden, _ = digits_reference(digits_path, digit7)
    sess = oinfer.InferenceSession(digits_path, keep_values=["hidden_pre", "hidden"])
    got_pre, got_hidden = sess.run(["hidden_pre", "hidden"], {"pixels": digit7})
    np.testing.assert_allclose(got_pre, pre, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(got_hidden, hidden, rtol=1e-4, atol=1e-5)
    assert sess.keep_values == ["hidden_pre", "hidden"]


def test_intermediate_at_level_0_needs_no_rebuild(digits_path, digit7):
    _, hidden, _ = digits_reference(digits_path, digit7)
    sess = oinfer.InferenceSession(digits_path, optimization_level=0)
    (got,) = sess.run(["hidden"], {"pixels": digit7})
    np.testing.assert_allclose(got, hidden, rtol=1e-4, atol=1e-5)
    assert sess.keep_values == []


def test_unknown_output_name_is_an_error(digits_path, digit7):
    sess = oinfer.InferenceSession(digits_path)
    with pytest.raises(oinfer.Error) as e:
        sess.run(["hiden"], {"pixels": digit7})
    assert str(e.value) == "unknown output 'hiden': not a value of the model (did you mean 'hidden'?)"
    assert e.value.code == "InvalidArgument"


def test_keep_values_of_unknown_name_is_an_error(digits_path):
    with pytest.raises(oinfer.Error) as e:
        oinfer.InferenceSession(digits_path, keep_values=["W1"])
    assert str(e.value) == "SessionOptions::keepValues: 'W1' is a weight (initializer), not a computed value"


# ---- errors --------------------------------------------------------------------------------


def test_error_is_an_exception_with_code():
    assert issubclass(oinfer.Error, Exception)
    with pytest.raises(oinfer.Error) as e:
        oinfer.InferenceSession("/nonexistent/model.onnx")
    assert "/nonexistent/model.onnx" in str(e.value)
    assert e.value.code == "IO"


def test_wrong_dtype_names_the_input(digits_path):
    sess = oinfer.InferenceSession(digits_path)
    with pytest.raises(oinfer.Error) as e:
        sess.run(None, {"pixels": np.zeros((1, 64), np.float64)})
    assert str(e.value) == "input 'pixels': data type float64, model expects float32"
    assert e.value.code == "InvalidArgument"


def test_wrong_shape_missing_and_unknown_inputs(digits_path):
    sess = oinfer.InferenceSession(digits_path)
    with pytest.raises(oinfer.Error, match=r"^input 'pixels': dimension 1 is 63, model expects 64$"):
        sess.run(None, {"pixels": np.zeros((1, 63), np.float32)})
    with pytest.raises(oinfer.Error, match=r"^missing input 'pixels'$"):
        sess.run(None, {})
    with pytest.raises(oinfer.Error, match=r"^unknown input 'pixel'; the model's inputs are 'pixels'$"):
        sess.run(None, {"pixels": np.zeros((1, 64), np.float32), "pixel": np.zeros(1, np.float32)})


def test_bad_model_bytes():
    with pytest.raises(oinfer.Error) as e:
        oinfer.InferenceSession(b"not an onnx model")
    assert e.value.code == "InvalidModel"


def test_ragged_list_input(digits_path):
    sess = oinfer.InferenceSession(digits_path)
    with pytest.raises(oinfer.Error, match=r"^input 'pixels': .*inhomogeneous") as e:
        sess.run(None, {"pixels": [[0.0] * 64, [0.0] * 3]})
    assert e.value.code == "InvalidArgument"


def test_unsupported_numpy_dtype(digits_path):
    sess = oinfer.InferenceSession(digits_path)
    with pytest.raises(oinfer.Error, match=r"^input 'pixels': numpy dtype datetime64\[s\] has no ONNX tensor type$"):
        sess.run(None, {"pixels": np.zeros((1, 64), "datetime64[s]")})


def test_cuda_in_a_cpu_build(digits_path):
    if oinfer._oinfer.has_cuda:
        pytest.skip("this build has the CUDA backend")
    for kwargs in ({"device": "cuda"}, {"providers": ["CUDAExecutionProvider", "CPUExecutionProvider"]}):
        with pytest.raises(oinfer.Error) as e:
            oinfer.InferenceSession(digits_path, **kwargs)
        assert str(e.value) == "device cuda: this build of oinfer has no CUDA backend"
        assert e.value.code == "Device"
    assert oinfer.get_available_providers() == ["CPUExecutionProvider"]


def test_bad_options(digits_path):
    with pytest.raises(oinfer.Error, match="optimizationLevel is 5"):
        oinfer.InferenceSession(digits_path, optimization_level=5)
    with pytest.raises(oinfer.Error, match=r"^device 'tpu': the devices are 'cpu' and 'cuda'$"):
        oinfer.InferenceSession(digits_path, device="tpu")
    with pytest.raises(oinfer.Error, match=r"^provider 'TensorrtExecutionProvider': oinfer has "):
        oinfer.InferenceSession(digits_path, providers=["TensorrtExecutionProvider"])
    with pytest.raises(TypeError, match="unexpected arguments"):
        oinfer.InferenceSession(digits_path, thread=2)


def test_custom_op_libraries(digits_path):
    # The paths reach SessionOptions::customOpLibraries where the library has
    # plugins (a missing file is its error); without them, a non-empty list
    # is an error saying so.
    path = "/nonexistent/libmyops.so"
    with pytest.raises(oinfer.Error) as e:
        oinfer.InferenceSession(digits_path, custom_op_libraries=[path])
    if oinfer._oinfer.has_custom_op_libraries:
        assert str(e.value) == f"custom op library '{path}': no such file"
        assert e.value.code == "IO"
    else:
        assert str(e.value) == ("custom_op_libraries: this build of oinfer has no custom-op plugin "
                                f"support ({path})")
        assert e.value.code == "NotImplemented"
    # An empty list is no plugin at all.
    sess = oinfer.InferenceSession(digits_path, custom_op_libraries=[])
    assert sess.get_outputs()[0].name == "probabilities"


def test_custom_op_plugin_runs_from_python():
    # The example plugin (examples/custom_ops: custom::deform_conv2d and
    # custom::DynamicTRTResize, whose output shape comes from an input's
    # values), built by the C++ build; scripts/test_python.sh points
    # OINFER_EXAMPLE_OPS at it.
    lib = os.environ.get("OINFER_EXAMPLE_OPS")
    if not lib:
        pytest.skip("OINFER_EXAMPLE_OPS is not set (scripts/test_python.sh sets it to the example plugin)")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    models = os.path.join(root, "examples", "custom_ops", "models")
    for name, feeds in (("dynamic_resize", ("image", "size")), ("deform_conv2d", ("x", "offset", "mask"))):
        data = os.path.join(models, name + "_test_data", "test_data_set_0")
        pb = sorted(f for f in os.listdir(data) if f.endswith(".pb"))
        load = lambda f: numpy_helper.to_array(onnx.load_tensor(os.path.join(data, f)))
        inputs = {n: load(f"input_{k}.pb") for k, n in enumerate(feeds)}
        expected = [load(f) for f in pb if f.startswith("output_")]
        sess = oinfer.InferenceSession(os.path.join(models, name + ".onnx"), custom_op_libraries=[lib])
        got = sess.run(None, inputs)
        assert len(got) == len(expected)
        for g, e in zip(got, expected):
            assert g.shape == e.shape
            np.testing.assert_allclose(g, e, rtol=0, atol=1e-5)
    # Without the plugin the op is unknown, and the message says which.
    with pytest.raises(oinfer.Error, match=r"custom::DynamicTRTResize"):
        oinfer.InferenceSession(os.path.join(models, "dynamic_resize.onnx"))


# ---- onnxruntime's options ----------------------------------------------------------------


def test_ort_style_options(digits_path, digit7):
    so = oinfer.SessionOptions()
    so.intra_op_num_threads = 1
    so.graph_optimization_level = oinfer.GraphOptimizationLevel.ORT_DISABLE_ALL
    sess = oinfer.InferenceSession(digits_path, so, providers=["CPUExecutionProvider"])
    opts = sess.get_session_options()
    assert opts.intra_op_num_threads == 1
    assert opts.graph_optimization_level == oinfer.GraphOptimizationLevel.ORT_DISABLE_ALL
    (hidden,) = sess.run(["hidden_pre"], {"pixels": digit7})  # level 0: nothing fused
    assert sess.keep_values == []
    # An onnxruntime.SessionOptions object works as well.
    ort = pytest.importorskip("onnxruntime")
    ort_so = ort.SessionOptions()
    ort_so.intra_op_num_threads = 2
    sess2 = oinfer.InferenceSession(digits_path, sess_options=ort_so,
                                    providers=[("CPUExecutionProvider", {})])
    assert sess2.get_session_options().intra_op_num_threads == 2
    assert int(np.argmax(sess2.run(None, {"pixels": digit7})[0])) == 7


def test_same_results_as_onnxruntime(digits_path):
    ort = pytest.importorskip("onnxruntime")
    x = np.random.default_rng(0).random((5, 64), dtype=np.float32)
    ref = ort.InferenceSession(digits_path, providers=["CPUExecutionProvider"])
    ours = oinfer.InferenceSession(digits_path)
    for a, b in zip(ours.get_inputs(), ref.get_inputs()):
        assert (a.name, a.shape, a.type) == (b.name, b.shape, b.type)
    for a, b in zip(ours.get_outputs(), ref.get_outputs()):
        assert (a.name, a.shape, a.type) == (b.name, b.shape, b.type)
    np.testing.assert_allclose(ours.run(None, {"pixels": x})[0], ref.run(None, {"pixels": x})[0],
                               rtol=1e-4, atol=1e-6)


# ---- sequences and optionals ----------------------------------------------------------------


def test_sequence_input_and_output():
    model = make_model(
        [helper.make_node("SequenceInsert", ["seq", "x"], ["out"]),
         helper.make_node("SequenceLength", ["out"], ["n"])],
        [helper.make_tensor_sequence_value_info("seq", TensorProto.FLOAT, None),
         helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
        [helper.make_tensor_sequence_value_info("out", TensorProto.FLOAT, None),
         helper.make_tensor_value_info("n", TensorProto.INT64, [])])
    sess = oinfer.InferenceSession(model.SerializeToString())
    assert sess.get_inputs()[0].type == "seq(tensor(float))"
    a = np.array([1, 2, 3], np.float32)
    x = np.array([4, 5], np.float32)
    out, n = sess.run(None, {"seq": [a], "x": x})
    assert isinstance(out, list) and len(out) == 2
    np.testing.assert_array_equal(out[0], a)
    np.testing.assert_array_equal(out[1], x)
    assert int(n) == 2
    out, n = sess.run(None, {"seq": [], "x": x})
    assert len(out) == 1 and int(n) == 1
    with pytest.raises(oinfer.Error) as e:
        sess.run(None, {"seq": [np.array([1], np.int64)], "x": x})
    assert str(e.value) == "input 'seq': sequence element 0 has data type int64, model expects float32"
    with pytest.raises(oinfer.Error) as e:
        sess.run(None, {"seq": a, "x": x})
    assert str(e.value) == "input 'seq' is tensor float32 [3], model expects a sequence"


def test_optional_input():
    opt = helper.make_optional_type_proto(helper.make_tensor_type_proto(TensorProto.FLOAT, [2]))
    model = make_model(
        [helper.make_node("OptionalHasElement", ["o"], ["has"])],
        [helper.make_value_info("o", opt)],
        [helper.make_tensor_value_info("has", TensorProto.BOOL, [])], opset=18)
    sess = oinfer.InferenceSession(model.SerializeToString())
    assert sess.get_inputs()[0].type == "optional(tensor(float))"
    assert bool(sess.run(None, {"o": np.ones(2, np.float32)})[0]) is True
    assert bool(sess.run(None, {"o": None})[0]) is False


def test_loop16_seq_none():
    # onnx's BackendTest cannot compare this case's output (a sequence whose
    # first tensor is 0-d); compared here element by element.
    import glob

    case = os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data", "node",
                        "test_loop16_seq_none")
    model = onnx.load(os.path.join(case, "model.onnx"))
    data = os.path.join(case, "test_data_set_0")

    def proto(path, kind):
        p = kind()
        with open(path, "rb") as f:
            p.ParseFromString(f.read())
        return p

    feed = {
        "trip_count": numpy_helper.to_array(proto(f"{data}/input_0.pb", onnx.TensorProto)),
        "cond": numpy_helper.to_array(proto(f"{data}/input_1.pb", onnx.TensorProto)),
        "opt_seq": numpy_helper.to_optional(proto(f"{data}/input_2.pb", onnx.OptionalProto)),
    }
    want = numpy_helper.to_list(proto(f"{data}/output_0.pb", onnx.SequenceProto))
    assert len(glob.glob(f"{case}/test_data_set_*")) == 1
    (got,) = oinfer.InferenceSession(model).run(None, feed)
    assert isinstance(got, list) and len(got) == len(want) == 6
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_array_equal(g, w)


# ---- threads -------------------------------------------------------------------------------------


def test_run_from_many_python_threads(digits_path):
    sess = oinfer.InferenceSession(digits_path, threads=2)
    rng = np.random.default_rng(1)
    batches = [rng.random((8, 64), dtype=np.float32) for _ in range(8)]
    want = [digits_reference(digits_path, b)[2] for b in batches]
    errors = []

    def worker(k):
        try:
            for _ in range(25):
                got = sess.run(None, {"pixels": batches[k]})[0]
                np.testing.assert_allclose(got, want[k], rtol=1e-4, atol=1e-6)
        except Exception as e:  # noqa: BLE001 - collected and reported below
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "a run hung"
    assert errors == []


def test_gil_is_released_while_running():
    # A run long enough to see (a chain of MatMuls) in one thread, while this
    # thread keeps looping: with the GIL held through the run, the loop would
    # stall for the run's whole length; released, it keeps getting the GIL
    # every switch interval (5 ms). The chain is sized to the machine: one run
    # is timed first and the chain lengthened until a run takes >= 150 ms, so a
    # fast host (CI's) does not make the run too short to tell.
    import time

    n = 512
    # -I keeps every value at +-1 however long the chain (no denormals).
    w = numpy_helper.from_array(-np.eye(n, dtype=np.float32), "w")
    x = np.ones((n, n), np.float32)

    def chain(length):
        nodes, prev = [], "x"
        for i in range(length):
            nodes.append(helper.make_node("MatMul", [prev, "w"], [f"m{i}"]))
            prev = f"m{i}"
        model = make_model(nodes, [helper.make_tensor_value_info("x", TensorProto.FLOAT, [n, n])],
                           [helper.make_tensor_value_info(prev, TensorProto.FLOAT, [n, n])], [w])
        s = oinfer.InferenceSession(model.SerializeToString(), threads=1)
        s.run(None, {"x": x})  # plan and pack once
        begin = time.perf_counter()
        s.run(None, {"x": x})
        return s, time.perf_counter() - begin

    length = 60
    sess, once = chain(length)
    while once < 0.15 and length < 4000:
        length = min(4000, int(length * max(2.0, 0.2 / max(once, 1e-3))))
        sess, once = chain(length)

    def runs():
        for _ in range(4):
            sess.run(None, {"x": x})

    t = threading.Thread(target=runs)
    start = time.perf_counter()
    t.start()
    last, longest = start, 0.0
    while t.is_alive():
        now = time.perf_counter()
        longest = max(longest, now - last)
        last = now
    t.join()
    per_run = (time.perf_counter() - start) / 4
    assert per_run > 0.1, f"runs too short to tell ({per_run * 1000:.1f} ms, {length} MatMuls)"
    assert longest < per_run / 2, f"this thread stalled {longest * 1000:.0f} ms; a run takes {per_run * 1000:.0f} ms"
