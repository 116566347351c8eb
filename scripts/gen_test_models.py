#!/usr/bin/env python3
"""Generate the model-test data under tests/data/models/.

Every model is built with onnx.helper and numpy (fixed seeds, He-style init so
activations stay O(1)), so CI never needs PyTorch. Each model is checked with
onnx.checker, run with onnxruntime on CPU with graph optimizations disabled
and enabled (the two must agree), and written in the ONNX backend test layout:

  tests/data/models/<name>/model.onnx
  tests/data/models/<name>/test_data_set_<k>/input_<i>.pb, output_<j>.pb

Models:
  resnet_bn            ResNet-style CNN with BatchNorm (opset 13, static shapes)
  mobilenetv2          inverted residual blocks, depthwise convs, ReLU6 as Clip
                       (opset 13, dynamic batch "N"; data sets at N=1 and N=2)
  srcnn_fixed          bicubic Resize (pytorch_half_pixel, x3) + SRCNN's 3 convs
  srcnn_fixed_opset11  the same model at opset 11 (Resize with an empty roi input)
  srcnn_dynamic        same net, upscale factor as a second graph input, symbolic
                       H and W; data sets at upscale 2 and 3
  transformer_encoder  embedding + 4-head self-attention + FFN (Gelu as Erf)
                       encoder block, opset 17, dynamic batch and seq; data sets
                       at (1, 8) and (2, 13)
  sym_two_inputs       two inputs sharing the symbol "N" (for input-check tests)
  resnet_qdq,          resnet_bn and mobilenetv2 quantized by onnxruntime.quantization
  mobilenetv2_qdq      (quant_pre_process, then quantize_static: QDQ format, per-channel
                       int8 weights, uint8 activations, calibrated on 4 seeded
                       random inputs); references from onnxruntime with
                       optimizations disabled only (its optimized graph runs
                       integer kernels, which round differently by design)
  control_flow         If (outer-scope weight), Loop (trip count input, carried
                       value, scan output, a nested If reading the loop's
                       carried value from two scopes up), Scan (running sum
                       over rows), sequences (SplitToSequence, SequenceInsert,
                       SequenceAt, SequenceLength, ConcatFromSequence) and
                       Optional*; opset 18, dynamic N; data sets cover both
                       branches, zero and several loop trips

Run one model only:  .venv/bin/python scripts/gen_test_models.py control_flow

resnet_bn also has test_data_set_fetch: the same input with output_0.pb the
intermediate tensor FETCH_NAME (reference from a copy of the model that exposes
it as a graph output) and output_1.pb the final output.

Run from the repository root:  .venv/bin/python scripts/gen_test_models.py
"""
import math
import os
import shutil

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT_DIR = os.path.join(ROOT, "tests", "data", "models")
RESNET_FETCH_NAME = "block1_out"


class Builder:
    """Accumulates nodes and initializers; names every value and node."""

    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)
        self.nodes = []
        self.inits = []
        self.count = 0

    def fresh(self, stem):
        self.count += 1
        return f"{stem}_{self.count}"

    def init(self, name, array):
        self.inits.append(numpy_helper.from_array(np.asarray(array), name))
        return name

    def node(self, op, inputs, out=None, n_out=1, **attrs):
        outs = [out] if out else [self.fresh(op.lower()) for _ in range(n_out)]
        self.nodes.append(helper.make_node(op, inputs, outs, name=self.fresh(op), **attrs))
        return outs[0] if n_out == 1 else outs

    def he(self, shape, fan_in):
        return (self.rng.standard_normal(shape) * math.sqrt(2.0 / fan_in)).astype(np.float32)

    def small(self, shape, scale=0.05):
        return (self.rng.standard_normal(shape) * scale).astype(np.float32)

    def conv(self, x, cin, cout, k, stride=1, group=1, bias=True, out=None):
        w = self.init(self.fresh("conv_w"), self.he((cout, cin // group, k, k), cin // group * k * k))
        inputs = [x, w]
        if bias:
            inputs.append(self.init(self.fresh("conv_b"), self.small((cout,))))
        pad = k // 2
        return self.node("Conv", inputs, out=out, kernel_shape=[k, k], strides=[stride, stride],
                         pads=[pad, pad, pad, pad], group=group)

    def bn(self, x, c, out=None):
        g = self.init(self.fresh("bn_scale"), self.rng.uniform(0.8, 1.2, c).astype(np.float32))
        b = self.init(self.fresh("bn_bias"), self.small((c,), 0.1))
        m = self.init(self.fresh("bn_mean"), self.small((c,), 0.1))
        v = self.init(self.fresh("bn_var"), self.rng.uniform(0.5, 1.5, c).astype(np.float32))
        return self.node("BatchNormalization", [x, g, b, m, v], out=out, epsilon=1e-5)

    def model(self, name, inputs, outputs, opset, ir_version=8):
        graph = helper.make_graph(self.nodes, name, inputs, outputs, initializer=self.inits)
        m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)],
                              producer_name="oinfer-gen_test_models")
        m.ir_version = ir_version
        onnx.checker.check_model(m, full_check=True)
        return m


# ---- models ------------------------------------------------------------------

def resnet_bn():
    b = Builder(1)
    x = "image"

    def conv_bn(x, cin, cout, k, stride, relu, out=None):
        y = b.bn(b.conv(x, cin, cout, k, stride, bias=False), cout, out=None if relu else out)
        return b.node("Relu", [y], out=out) if relu else y

    y = conv_bn(x, 3, 16, 3, 1, True)
    y = b.node("MaxPool", [y], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])  # 16x16

    def block(x, cin, cout, stride, out=None):
        h = conv_bn(x, cin, cout, 3, stride, True)
        h = conv_bn(h, cout, cout, 3, 1, False)
        skip = x if (stride == 1 and cin == cout) else conv_bn(x, cin, cout, 1, stride, False)
        return b.node("Relu", [b.node("Add", [h, skip])], out=out)

    y = block(y, 16, 16, 1, out=RESNET_FETCH_NAME)
    y = block(y, 16, 32, 2)  # 8x8, 1x1 projection
    y = block(y, 32, 32, 1)
    y = b.node("GlobalAveragePool", [y])
    y = b.node("Flatten", [y], axis=1)
    w = b.init("fc_w", (b.rng.standard_normal((10, 32)) / math.sqrt(32)).astype(np.float32))
    bias = b.init("fc_b", b.small((10,)))
    y = b.node("Gemm", [y, w, bias], out="logits", transB=1)
    b.node("Softmax", [y], out="probs", axis=1)
    m = b.model("resnet_bn", [helper.make_tensor_value_info("image", TensorProto.FLOAT, [1, 3, 32, 32])],
                [helper.make_tensor_value_info("probs", TensorProto.FLOAT, [1, 10])], 13)
    rng = np.random.default_rng(101)
    sets = [[rng.standard_normal((1, 3, 32, 32)).astype(np.float32)] for _ in range(2)]
    return m, sets


def mobilenetv2():
    b = Builder(2)
    lo = b.init("relu6_min", np.array(0.0, np.float32))
    hi = b.init("relu6_max", np.array(6.0, np.float32))

    def relu6(x):
        return b.node("Clip", [x, lo, hi])

    y = relu6(b.conv("x", 3, 16, 3, stride=2))  # 16x16

    def inverted_residual(x, cin, cout, stride, t):
        hidden = cin * t
        h = relu6(b.conv(x, cin, hidden, 1))
        h = relu6(b.conv(h, hidden, hidden, 3, stride=stride, group=hidden))
        h = b.conv(h, hidden, cout, 1)
        return b.node("Add", [x, h]) if stride == 1 and cin == cout else h

    y = inverted_residual(y, 16, 16, 1, 4)
    y = inverted_residual(y, 16, 24, 2, 4)  # 8x8
    y = inverted_residual(y, 24, 24, 1, 4)
    y = relu6(b.conv(y, 24, 64, 1))
    y = b.node("GlobalAveragePool", [y])
    y = b.node("Reshape", [y, b.init("flat_shape", np.array([0, -1], np.int64))])
    w = b.init("fc_w", (b.rng.standard_normal((10, 64)) / math.sqrt(64)).astype(np.float32))
    b.node("Gemm", [y, w, b.init("fc_b", b.small((10,)))], out="logits", transB=1)
    m = b.model("mobilenetv2", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3, 32, 32])],
                [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["N", 10])], 13)
    rng = np.random.default_rng(102)
    sets = [[rng.standard_normal((n, 3, 32, 32)).astype(np.float32)] for n in (1, 2)]
    return m, sets


def srcnn_body(b, up):
    y = b.conv(up, 1, 64, 9)
    y = b.node("Relu", [y])
    y = b.node("Relu", [b.conv(y, 64, 32, 1)])
    return b.conv(y, 32, 1, 5, out="hr")


RESIZE_ATTRS = dict(mode="cubic", coordinate_transformation_mode="pytorch_half_pixel", cubic_coeff_a=-0.75)


def srcnn_fixed(opset=13):
    b = Builder(3)
    scales = b.init("scales", np.array([1, 1, 3, 3], np.float32))
    # Opset 11 Resize requires the roi input; from 13 on it may be absent.
    roi = b.init("roi", np.zeros((0,), np.float32)) if opset < 13 else ""
    up = b.node("Resize", ["lr", roi, scales], out="upscaled", **RESIZE_ATTRS)
    srcnn_body(b, up)
    m = b.model("srcnn_fixed" if opset == 13 else f"srcnn_fixed_opset{opset}",
                [helper.make_tensor_value_info("lr", TensorProto.FLOAT, [1, 1, 16, 16])],
                [helper.make_tensor_value_info("hr", TensorProto.FLOAT, [1, 1, 48, 48])], opset,
                ir_version=6 if opset < 13 else 8)
    rng = np.random.default_rng(103)
    sets = [[rng.uniform(0, 1, (1, 1, 16, 16)).astype(np.float32)]]
    return m, sets


def srcnn_fixed_opset11():
    return srcnn_fixed(11)


def srcnn_dynamic():
    b = Builder(3)  # same weights as srcnn_fixed
    scales = b.node("Concat", [b.init("unit_scales", np.array([1, 1], np.float32)), "upscale", "upscale"],
                    axis=0)
    up = b.node("Resize", ["lr", "", scales], out="upscaled", **RESIZE_ATTRS)
    srcnn_body(b, up)
    m = b.model("srcnn_dynamic",
                [helper.make_tensor_value_info("lr", TensorProto.FLOAT, [1, 1, "H", "W"]),
                 helper.make_tensor_value_info("upscale", TensorProto.FLOAT, [1])],
                [helper.make_tensor_value_info("hr", TensorProto.FLOAT, [1, 1, "H_out", "W_out"])], 13)
    rng = np.random.default_rng(104)
    sets = [[rng.uniform(0, 1, (1, 1, 12, 10)).astype(np.float32), np.array([2.0], np.float32)],
            [rng.uniform(0, 1, (1, 1, 8, 9)).astype(np.float32), np.array([3.0], np.float32)]]
    return m, sets


def transformer_encoder():
    b = Builder(5)
    vocab, hidden, heads, ffn, max_pos = 50, 64, 4, 128, 16
    head_dim = hidden // heads

    def const(name, value):
        return b.init(name, np.array(value, np.int64))

    def linear(x, cin, cout, out=None):
        w = b.init(b.fresh("linear_w"), (b.rng.standard_normal((cin, cout)) / math.sqrt(cin)).astype(np.float32))
        return b.node("Add", [b.node("MatMul", [x, w]), b.init(b.fresh("linear_b"), b.small((cout,)))], out=out)

    def layer_norm(x, out=None):
        g = b.init(b.fresh("ln_scale"), b.rng.uniform(0.8, 1.2, hidden).astype(np.float32))
        beta = b.init(b.fresh("ln_bias"), b.small((hidden,), 0.1))
        return b.node("LayerNormalization", [x, g, beta], out=out, axis=-1, epsilon=1e-5)

    tok_table = b.init("token_embedding", b.rng.standard_normal((vocab, hidden)).astype(np.float32))
    pos_table = b.init("position_embedding", b.small((max_pos, hidden), 0.5))
    tok = b.node("Gather", [tok_table, "tokens"], axis=0)
    shape = b.node("Shape", ["tokens"])
    batch = b.node("Gather", [shape, const("idx0", 0)], axis=0)
    seq = b.node("Gather", [shape, const("idx1", 1)], axis=0)
    positions = b.node("Range", [const("zero", 0), seq, const("one", 1)], out="positions")
    pos = b.node("Gather", [pos_table, positions], axis=0)
    x0 = layer_norm(b.node("Add", [tok, pos]), out="embedded")

    axes0 = const("axes0", [0])
    batch1 = b.node("Unsqueeze", [batch, axes0])
    seq1 = b.node("Unsqueeze", [seq, axes0])
    split_shape = b.node("Concat", [batch1, seq1, const("heads", [heads]), const("head_dim", [head_dim])], axis=0)
    merge_shape = b.node("Concat", [batch1, seq1, const("hidden", [hidden])], axis=0)

    def heads_of(x, perm):
        return b.node("Transpose", [b.node("Reshape", [x, split_shape])], perm=perm)

    q = heads_of(linear(x0, hidden, hidden), [0, 2, 1, 3])  # [b, h, s, d]
    k = heads_of(linear(x0, hidden, hidden), [0, 2, 3, 1])  # [b, h, d, s]
    v = heads_of(linear(x0, hidden, hidden), [0, 2, 1, 3])
    scores = b.node("Div", [b.node("MatMul", [q, k]), b.init("sqrt_head_dim", np.array(4.0, np.float32))])
    probs = b.node("Softmax", [scores], out="attention_probs", axis=-1)
    ctx = b.node("Transpose", [b.node("MatMul", [probs, v])], perm=[0, 2, 1, 3])
    ctx = b.node("Reshape", [ctx, merge_shape])
    x1 = layer_norm(b.node("Add", [x0, linear(ctx, hidden, hidden)]))

    h = linear(x1, hidden, ffn)
    erf = b.node("Erf", [b.node("Div", [h, b.init("sqrt2", np.array(math.sqrt(2.0), np.float32))])])
    one_plus = b.node("Add", [erf, b.init("one_f", np.array(1.0, np.float32))])
    gelu = b.node("Mul", [b.node("Mul", [h, one_plus]), b.init("half", np.array(0.5, np.float32))])
    x2 = b.node("Add", [x1, linear(gelu, ffn, hidden)])
    layer_norm(x2, out="encoded")

    m = b.model("transformer_encoder",
                [helper.make_tensor_value_info("tokens", TensorProto.INT64, ["batch", "seq"])],
                [helper.make_tensor_value_info("encoded", TensorProto.FLOAT, ["batch", "seq", hidden])], 17)
    rng = np.random.default_rng(105)
    sets = [[rng.integers(0, vocab, (bs, s)).astype(np.int64)] for bs, s in ((1, 8), (2, 13))]
    return m, sets


def sym_two_inputs():
    b = Builder(6)
    b.node("Add", ["a", "b"], out="sum")
    m = b.model("sym_two_inputs",
                [helper.make_tensor_value_info("a", TensorProto.FLOAT, ["N", 3]),
                 helper.make_tensor_value_info("b", TensorProto.FLOAT, ["N", 3])],
                [helper.make_tensor_value_info("sum", TensorProto.FLOAT, ["N", 3])], 13)
    rng = np.random.default_rng(106)
    sets = [[rng.standard_normal((2, 3)).astype(np.float32), rng.standard_normal((2, 3)).astype(np.float32)]]
    return m, sets


def control_flow():
    b = Builder(7)
    f32 = TensorProto.FLOAT
    vi = helper.make_tensor_value_info
    b.init("w", b.small((4,), 1.0))
    b.init("one", np.array(1.0, np.float32))
    b.init("half", np.array(0.5, np.float32))
    b.init("two", np.array(2, np.int64))
    b.init("zero_i", np.array(0, np.int64))
    b.init("split_axis0", np.array(1, np.int64))

    # If: flag ? x * w : x + 1   (w and x from the outer scope)
    then_g = helper.make_graph([helper.make_node("Mul", ["x", "w"], ["t_out"])], "then_g", [],
                               [vi("t_out", f32, None)])
    else_g = helper.make_graph([helper.make_node("Add", ["x", "one"], ["e_out"])], "else_g", [],
                               [vi("e_out", f32, None)])
    b.nodes.append(helper.make_node("If", ["flag"], ["y"], name="if_top", then_branch=then_g, else_branch=else_g))

    # Loop n times: acc = acc + x * i; then a nested If halves acc on odd i.
    # Scan output: sum of acc per iteration.
    inner_then = helper.make_graph([helper.make_node("Identity", ["acc_new"], ["it_out"])], "inner_then", [],
                                   [vi("it_out", f32, None)])
    inner_else = helper.make_graph([helper.make_node("Mul", ["acc_new", "half"], ["ie_out"])], "inner_else", [],
                                   [vi("ie_out", f32, None)])
    body = helper.make_graph(
        [helper.make_node("Cast", ["i"], ["i_f"], to=f32),
         helper.make_node("Mul", ["x", "i_f"], ["xi"]),
         helper.make_node("Add", ["acc", "xi"], ["acc_new"]),
         helper.make_node("Mod", ["i", "two"], ["i_mod"]),
         helper.make_node("Equal", ["i_mod", "zero_i"], ["even"]),
         helper.make_node("If", ["even"], ["acc_out"], name="if_inner", then_branch=inner_then,
                          else_branch=inner_else),
         helper.make_node("ReduceSum", ["acc_out"], ["acc_sum"], keepdims=0),
         helper.make_node("Identity", ["cond_in"], ["cond_out"])],
        "loop_body",
        [vi("i", TensorProto.INT64, []), vi("cond_in", TensorProto.BOOL, []), vi("acc", f32, None)],
        [vi("cond_out", TensorProto.BOOL, []), vi("acc_out", f32, None), vi("acc_sum", f32, [])])
    b.nodes.append(helper.make_node("Loop", ["n", "", "y"], ["loop_acc", "loop_sums"], name="loop", body=body))

    # Scan over the rows of x: running sum, plus each step's state scaled by w.
    scan_body = helper.make_graph(
        [helper.make_node("Add", ["s", "row"], ["s_out"]),
         helper.make_node("Mul", ["s_out", "w"], ["scan_out"])],
        "scan_body", [vi("s", f32, [4]), vi("row", f32, [4])],
        [vi("s_out", f32, [4]), vi("scan_out", f32, [4])])
    b.init("s0", np.zeros(4, np.float32))
    b.nodes.append(helper.make_node("Scan", ["s0", "x"], ["scan_state", "scan_rows"], name="scan", body=scan_body,
                                    num_scan_inputs=1))

    # Sequences: split x into rows, append y's first row, concatenate back.
    b.node("SplitToSequence", ["x", "split_axis0"], out="rows", axis=0)
    b.node("Slice", ["y", "zero_1", "one_1", "zero_1"], out="y_row0")
    b.init("zero_1", np.array([0], np.int64))
    b.init("one_1", np.array([1], np.int64))
    b.node("SequenceInsert", ["rows", "y_row0"], out="rows_plus")
    b.node("ConcatFromSequence", ["rows_plus"], out="seq_cat", axis=0)
    b.node("SequenceLength", ["rows_plus"], out="seq_len")
    b.init("minus_one", np.array(-1, np.int64))
    b.node("SequenceAt", ["rows_plus", "minus_one"], out="seq_last")

    # Optional of x: has-element and get-element.
    b.node("Optional", ["x"], out="opt_x")
    b.node("OptionalHasElement", ["opt_x"], out="opt_has")
    b.node("OptionalGetElement", ["opt_x"], out="opt_x_back")
    b.node("Add", ["opt_x_back", "one"], out="opt_plus")

    outputs = [vi("y", f32, ["N", 4]), vi("loop_acc", f32, ["N", 4]), vi("loop_sums", f32, ["T"]),
               vi("scan_state", f32, [4]), vi("scan_rows", f32, ["N", 4]), vi("seq_cat", f32, ["M", 4]),
               vi("seq_len", TensorProto.INT64, []), vi("seq_last", f32, [1, 4]),
               vi("opt_has", TensorProto.BOOL, []), vi("opt_plus", f32, ["N", 4])]
    m = b.model("control_flow",
                [vi("x", f32, ["N", 4]), vi("n", TensorProto.INT64, []), vi("flag", TensorProto.BOOL, [])],
                outputs, 18)
    rng = np.random.default_rng(107)
    sets = [[rng.standard_normal((3, 4)).astype(np.float32), np.array(4, np.int64), np.array(True)],
            [rng.standard_normal((2, 4)).astype(np.float32), np.array(3, np.int64), np.array(False)],
            [rng.standard_normal((5, 4)).astype(np.float32), np.array(0, np.int64), np.array(True)]]
    return m, sets


def quantized(fp32_fn, name):
    """The model of fp32_fn quantized to QDQ as onnxruntime's tools do it for x86."""
    import tempfile
    from onnxruntime.quantization import (CalibrationDataReader, QuantFormat, QuantType, quantize_static)
    from onnxruntime.quantization.shape_inference import quant_pre_process
    model, sets = fp32_fn()
    model.graph.name = name
    input_name = model.graph.input[0].name
    shape = [d.dim_value or 1 for d in model.graph.input[0].type.tensor_type.shape.dim]
    rng = np.random.default_rng(103)
    calibration = [{input_name: rng.standard_normal(shape).astype(np.float32)} for _ in range(4)]

    class Reader(CalibrationDataReader):
        def __init__(self):
            self.it = iter(calibration)

        def get_next(self):
            return next(self.it, None)

    with tempfile.TemporaryDirectory() as tmp:
        src, pre, out = (os.path.join(tmp, f) for f in ("fp32.onnx", "pre.onnx", "qdq.onnx"))
        onnx.save(model, src)
        quant_pre_process(src, pre, skip_symbolic_shape=True)
        quantize_static(pre, out, Reader(), quant_format=QuantFormat.QDQ, per_channel=True,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8)
        q = onnx.load(out)
    onnx.checker.check_model(q, full_check=True)
    return q, sets


def resnet_qdq():
    return quantized(resnet_bn, "resnet_qdq")


def mobilenetv2_qdq():
    return quantized(mobilenetv2, "mobilenetv2_qdq")


# ---- reference and output --------------------------------------------------

def run_ort(model, feeds, optimize):
    so = ort.SessionOptions()
    so.graph_optimization_level = (ort.GraphOptimizationLevel.ORT_ENABLE_ALL if optimize
                                   else ort.GraphOptimizationLevel.ORT_DISABLE_ALL)
    so.intra_op_num_threads = 1
    sess = ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])
    return sess.run(None, feeds)


def reference(model, inputs):
    names = [i.name for i in model.graph.input]
    feeds = dict(zip(names, inputs))
    plain = run_ort(model, feeds, False)
    if model.graph.name.endswith("_qdq"):
        return plain  # ORT's optimized graph runs integer kernels: not the reference semantics
    optimized = run_ort(model, feeds, True)
    for p, o in zip(plain, optimized):
        np.testing.assert_allclose(o, p, rtol=1e-4, atol=1e-5, err_msg=f"{model.graph.name}: ORT opt vs no-opt")
        assert np.all(np.isfinite(p)), model.graph.name
    return plain


def write_set(folder, inputs, outputs):
    os.makedirs(folder, exist_ok=True)
    for i, a in enumerate(inputs):
        with open(os.path.join(folder, f"input_{i}.pb"), "wb") as f:
            f.write(numpy_helper.from_array(a).SerializeToString())
    for j, a in enumerate(outputs):
        with open(os.path.join(folder, f"output_{j}.pb"), "wb") as f:
            f.write(numpy_helper.from_array(a).SerializeToString())


def write_model(name, model, sets):
    folder = os.path.join(OUT_DIR, name)
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    onnx.save(model, os.path.join(folder, "model.onnx"))
    for k, inputs in enumerate(sets):
        outputs = reference(model, inputs)
        write_set(os.path.join(folder, f"test_data_set_{k}"), inputs, outputs)
        stats = ", ".join(f"{o.shape} |max| {(np.abs(o).max() if o.size else 0):.3g}" for o in outputs)
        print(f"{name} set {k}: {stats}")
    return folder


def write_fetch_set(folder, model, inputs, fetch_name):
    exposed = onnx.ModelProto()
    exposed.CopyFrom(model)
    exposed.graph.output.insert(0, helper.make_tensor_value_info(fetch_name, TensorProto.FLOAT, None))
    outputs = reference(exposed, inputs)  # [fetch_name, original outputs...]
    write_set(os.path.join(folder, "test_data_set_fetch"), inputs, outputs)
    print(f"{os.path.basename(folder)} fetch '{fetch_name}': {outputs[0].shape}")


def main():
    import sys
    fns = (resnet_bn, mobilenetv2, srcnn_fixed, srcnn_fixed_opset11, srcnn_dynamic, transformer_encoder, sym_two_inputs,
           control_flow, resnet_qdq, mobilenetv2_qdq)
    only = set(sys.argv[1:])
    for fn in fns:
        if only and fn.__name__ not in only:
            continue
        model, sets = fn()
        folder = write_model(fn.__name__, model, sets)
        if fn is resnet_bn:
            write_fetch_set(folder, model, sets[0], RESNET_FETCH_NAME)
    total = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(OUT_DIR) for f in fs)
    print(f"total {total / 1024:.0f} KiB in {OUT_DIR}")


if __name__ == "__main__":
    main()
