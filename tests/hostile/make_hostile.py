#!/usr/bin/env python3
"""Writes the hostile-model corpus: ONNX files (and the odd external-data file,
FIFO or directory next to them) that a loader and runtime meant for untrusted
files must refuse with one error line, or run, but never crash or hang on.

    make_hostile.py OUT_DIR        (run with the repo's .venv/bin/python)

Each file is named <family>__<what>.onnx. The families: alloc (allocation
bombs, static and run-time), index (gather / scatter / slice / split / one-hot
extremes), attr (overflowing attributes), dims (zero and negative dims), ext
(malformed external data), deep / wide (nesting, fan-in, chains), str
(strings and regexes), type (mismatched dtypes), proto (truncated or corrupt
bytes), loop (trip counts), model (ir_version / opsets / graph structure).
tests/hostile/run_hostile.py runs every one through oinfer-run.
"""
import os
import random
import stat
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

I64_MAX = 2**63 - 1
I64_MIN = -(2**63)
F = TensorProto.FLOAT
I64 = TensorProto.INT64

OUT = None
written = []


def save(name, model_or_bytes):
    path = os.path.join(OUT, name + ".onnx")
    if isinstance(model_or_bytes, (bytes, bytearray)):
        with open(path, "wb") as f:
            f.write(model_or_bytes)
    else:
        with open(path, "wb") as f:
            f.write(model_or_bytes.SerializeToString())
    written.append(path)


def vi(name, dtype, shape):
    return helper.make_tensor_value_info(name, dtype, shape)


def i64(name, values, dims=None):
    values = list(values)
    return helper.make_tensor(name, I64, [len(values)] if dims is None else dims, values)


def f32(name, values, dims=None):
    values = list(values)
    return helper.make_tensor(name, F, [len(values)] if dims is None else dims, values)


def model(nodes, inputs, outputs, inits=(), opset=17, ir=8, extra_opsets=(), name="g"):
    g = helper.make_graph(nodes, name, inputs, outputs, initializer=list(inits))
    ops = [helper.make_opsetid("", opset)] + list(extra_opsets)
    return helper.make_model(g, opset_imports=ops, ir_version=ir, producer_name="oinfer-hostile")


def one(name, op, ins, inputs, out_type, inits=(), attrs=None, opset=17, n_out=1, domain=""):
    """A model of one node `op` reading `ins`; outputs y0.. of type out_type (untyped shape)."""
    outs = ["y%d" % k for k in range(n_out)]
    node = helper.make_node(op, ins, outs, name=op.lower() + "_node", domain=domain, **(attrs or {}))
    extra = [helper.make_opsetid(domain, 1)] if domain else []
    save(name, model([node], inputs, [vi(o, out_type, None) for o in outs], inits, opset=opset, extra_opsets=extra))


# ---- alloc: allocation bombs ------------------------------------------------------------------

def gen_alloc():
    huge_shapes = {
        "1e12": [1000000, 1000000],
        "1e18": [10**9, 10**9],
        "int64max": [I64_MAX],
        "overflow": [2**32, 2**32, 4],
        "1e11": [10**11],
    }
    for tag, shape in huge_shapes.items():
        # static: the shape is an initializer, known at plan time
        one("alloc__constantofshape_static_" + tag, "ConstantOfShape", ["s"], [], F, [i64("s", shape)])
        one("alloc__expand_static_" + tag, "Expand", ["x", "s"], [vi("x", F, [1])], F, [i64("s", shape)])
        one("alloc__tile_static_" + tag, "Tile", ["x", "r"], [vi("x", F, [1] * len(shape))], F, [i64("r", shape)])
    for tag, (lo, hi, d) in {"1e12": (0, 10**12, 1), "int64": (I64_MIN, I64_MAX, 1),
                             "neg_int64": (I64_MAX, I64_MIN, -1), "2e9": (0, 2 * 10**9, 1)}.items():
        one("alloc__range_static_" + tag, "Range", ["a", "b", "c"], [], I64,
            [i64("a", [lo], []), i64("b", [hi], []), i64("c", [d], [])])
    for tag, (lo, hi, d) in {"1e12": (0.0, 1e12, 1.0), "tiny_delta": (0.0, 1.0, 1e-30), "inf": (0.0, float("inf"), 1.0),
                             "nan": (0.0, float("nan"), 1.0), "delta_zero": (0.0, 1.0, 0.0),
                             "delta_nan": (0.0, 1.0, float("nan"))}.items():
        one("alloc__range_float_" + tag, "Range", ["a", "b", "c"], [], F,
            [f32("a", [lo], []), f32("b", [hi], []), f32("c", [d], [])])
    one("alloc__range_int_delta_zero", "Range", ["a", "b", "c"], [], I64,
        [i64("a", [0], []), i64("b", [10], []), i64("c", [0], [])])
    # Resize / Upsample scales and sizes
    for tag, sc in {"1e6": [1, 1, 1e6, 1e6], "inf": [1, 1, float("inf"), 1], "nan": [1, 1, float("nan"), 1],
                    "zero": [1, 1, 0, 0], "neg": [1, 1, -2, 2], "1e30": [1, 1, 1e30, 1e30]}.items():
        one("alloc__resize_scales_" + tag, "Resize", ["x", "", "sc"], [vi("x", F, [1, 1, 2, 2])], F,
            [f32("sc", sc)], {"mode": "nearest"})
    for tag, sz in {"1e12": [1, 1, 10**6, 10**6], "int64max": [1, 1, I64_MAX, 1], "neg": [1, 1, -5, 4],
                    "zero": [1, 1, 0, 4]}.items():
        one("alloc__resize_sizes_" + tag, "Resize", ["x", "", "", "sz"], [vi("x", F, [1, 1, 2, 2])], F,
            [i64("sz", sz)], {"mode": "linear"})
    one("alloc__upsample_1e6", "Upsample", ["x", "sc"], [vi("x", F, [1, 1, 2, 2])], F, [f32("sc", [1, 1, 1e6, 1e6])],
        {"mode": "nearest"}, opset=9)
    for tag, pads in {"1e12": [0, 10**12, 0, 0], "int64max": [0, I64_MAX, 0, 0], "overflow": [0, I64_MAX, 0, I64_MAX],
                      "neg_beyond": [0, -10, 0, 0], "int64min": [0, I64_MIN, 0, 0], "both_1e6": [10**6, 10**6, 10**6, 10**6]}.items():
        one("alloc__pad_" + tag, "Pad", ["x", "p"], [vi("x", F, [2, 2])], F, [i64("p", pads)])
        one("alloc__pad_reflect_" + tag, "Pad", ["x", "p"], [vi("x", F, [2, 2])], F, [i64("p", pads)], {"mode": "reflect"})
    # Concat of two big ConstantOfShape: each alone under 1e12, together over
    for tag, n in {"5e11": 5 * 10**11, "int64half": 2**62}.items():
        nodes = [helper.make_node("ConstantOfShape", ["s"], ["a"], name="cos_a"),
                 helper.make_node("ConstantOfShape", ["s"], ["b"], name="cos_b"),
                 helper.make_node("Concat", ["a", "b"], ["y"], name="concat_node", axis=0)]
        save("alloc__concat_" + tag, model(nodes, [], [vi("y", F, None)], [i64("s", [n])]))
    # Concat dims overflow on inputs declared huge
    save("alloc__concat_declared_overflow", model(
        [helper.make_node("Concat", ["a", "a"], ["y"], name="concat_node", axis=0)],
        [vi("a", F, [2**62, 0])], [vi("y", F, None)]))
    # run time: the shape comes from input data (random ints in [0, 4)) plus a huge constant
    for op, mk in {
        "constantofshape": lambda s: [helper.make_node("ConstantOfShape", [s], ["y"], name="bomb")],
        "expand": lambda s: [helper.make_node("Expand", ["one", s], ["y"], name="bomb")],
        "tile": lambda s: [helper.make_node("Tile", ["one", s], ["y"], name="bomb")],
    }.items():
        for tag, big in {"1e12": [10**6, 10**6], "1e18": [10**9, 10**9], "overflow": [2**40, 2**40]}.items():
            nodes = [helper.make_node("Add", ["k", "big"], ["s"], name="shape_from_input")] + mk("s")
            inits = [i64("big", big), f32("one", [1.0], [1] * len(big))]
            save("alloc__%s_dynamic_%s" % (op, tag),
                 model(nodes, [vi("k", I64, [len(big)])], [vi("y", F, None)], inits))
    for tag, big in {"1e12": 10**12, "int64max_minus": I64_MAX - 8}.items():
        nodes = [helper.make_node("Add", ["k", "big"], ["lim"], name="limit_from_input"),
                 helper.make_node("Range", ["zero", "lim", "step"], ["y"], name="bomb")]
        save("alloc__range_dynamic_" + tag, model(nodes, [vi("k", I64, [])], [vi("y", I64, None)],
                                                  [i64("big", [big], []), i64("zero", [0], []), i64("step", [1], [])]))
    nodes = [helper.make_node("Add", ["k", "big"], ["p"], name="pads_from_input"),
             helper.make_node("Pad", ["x", "p"], ["y"], name="bomb")]
    save("alloc__pad_dynamic_1e12", model(nodes, [vi("x", F, [2, 2]), vi("k", I64, [4])], [vi("y", F, None)],
                                          [i64("big", [0, 10**12, 0, 0])]))
    nodes = [helper.make_node("Cast", ["k"], ["kf"], name="to_float", to=F),
             helper.make_node("Add", ["kf", "big"], ["sc"], name="scales_from_input"),
             helper.make_node("Resize", ["x", "", "sc"], ["y"], name="bomb", mode="nearest")]
    save("alloc__resize_dynamic_1e6", model(nodes, [vi("x", F, [1, 1, 2, 2]), vi("k", I64, [4])], [vi("y", F, None)],
                                            [f32("big", [1, 1, 1e6, 1e6])]))
    # a chain of moderate run-time tensors whose sum passes the limit
    nodes = [helper.make_node("Add", ["k", "big"], ["s"], name="shape_from_input")]
    for j in range(64):
        nodes.append(helper.make_node("ConstantOfShape", ["s"], ["c%d" % j], name="cos%d" % j))
    nodes.append(helper.make_node("Sum", ["c%d" % j for j in range(64)], ["y"], name="sum_all"))
    save("alloc__dynamic_sum_of_64x1e9", model(nodes, [vi("k", I64, [1])], [vi("y", F, None)], [i64("big", [10**9])]))
    # folding: a 64 MiB constant (over the fold cap, under the limit) still runs
    one("alloc__constantofshape_64mib_runs", "ConstantOfShape", ["s"], [], F, [i64("s", [16 * 2**20])])
    # initializers that claim more than the file holds
    for tag, dims in {"1e9x1e9": [10**9, 10**9], "int64max": [I64_MAX], "neg": [-1, 4], "overflow": [2**33, 2**33]}.items():
        t = TensorProto(name="w", data_type=F, dims=dims)
        one("alloc__initializer_no_data_" + tag, "Identity", ["w"], [], F, [t])
        t = TensorProto(name="w", data_type=F, dims=dims, raw_data=b"\0" * 16)
        one("alloc__initializer_raw16_" + tag, "Identity", ["w"], [], F, [t])
    t = TensorProto(name="w", data_type=F, dims=[4, 4], float_data=[1.0, 2.0])
    one("alloc__initializer_float_data_short", "Identity", ["w"], [], F, [t])
    t = TensorProto(name="w", data_type=I64, dims=[3], int64_data=[1, 2, 3, 4, 5])
    one("alloc__initializer_int64_data_long", "Identity", ["w"], [], I64, [t])
    t = TensorProto(name="w", data_type=TensorProto.STRING, dims=[10**9])
    one("alloc__initializer_strings_1e9", "Identity", ["w"], [], TensorProto.STRING, [t])
    t = TensorProto(name="w", data_type=F, dims=[2], raw_data=b"\0" * 8, float_data=[1.0, 2.0])
    one("alloc__initializer_raw_and_typed", "Identity", ["w"], [], F, [t])
    t = TensorProto(name="w", data_type=999, dims=[2], raw_data=b"\0" * 8)
    one("alloc__initializer_dtype_999", "Identity", ["w"], [], F, [t])
    # Constant node attributes that claim big tensors
    t = TensorProto(name="v", data_type=F, dims=[10**6, 10**6])
    save("alloc__constant_value_1e12_no_data",
         model([helper.make_node("Constant", [], ["y"], name="const_node", value=t)], [], [vi("y", F, None)]))
    # sparse initializer claiming 1e12 dense elements
    vals = i64("vals", [1]) ; idx = i64("idx", [5])
    sp = helper.make_sparse_tensor(vals, idx, [10**6, 10**6])
    g = helper.make_graph([helper.make_node("Identity", ["sp"], ["y"], name="id")], "g", [], [vi("y", I64, None)])
    sp.values.name = "sp"
    g.sparse_initializer.append(sp)
    save("alloc__sparse_initializer_1e12", helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8))
    # EyeLike / RandomNormal / Multinomial outputs
    one("alloc__randomnormal_1e12", "RandomNormal", [], [], F, attrs={"shape": [10**6, 10**6]})
    one("alloc__randomuniform_int64max", "RandomUniform", [], [], F, attrs={"shape": [I64_MAX]})
    one("alloc__randomnormal_negative", "RandomNormal", [], [], F, attrs={"shape": [-3, 2]})
    one("alloc__multinomial_1e12", "Multinomial", ["x"], [vi("x", F, [1, 4])], TensorProto.INT32,
        attrs={"sample_size": 10**12})
    one("alloc__eyelike_declared_huge", "EyeLike", ["x"], [vi("x", F, [10**6, 10**6])], F)
    one("alloc__input_declared_1e12", "Relu", ["x"], [vi("x", F, [10**6, 10**6])], F)
    one("alloc__input_declared_overflow", "Relu", ["x"], [vi("x", F, [2**40, 2**40])], F)
    one("alloc__mel_1e6", "MelWeightMatrix", ["a", "b", "c", "d", "e"], [], F,
        [i64("a", [10**6], []), i64("b", [10**6], []), i64("c", [16000], []),
         f32("d", [0.0], []), f32("e", [8000.0], [])])


# ---- index: gather / scatter / slice / split / one-hot extremes -------------------------------

EXTREMES = {"int64max": I64_MAX, "int64min": I64_MIN, "huge": 10**12, "neg_huge": -10**12, "past_end": 3,
            "neg_past": -4, "int32min": -(2**31)}


def gen_index():
    x3 = vi("x", F, [3, 3])
    for tag, v in EXTREMES.items():
        one("index__gather_" + tag, "Gather", ["x", "i"], [x3], F, [i64("i", [0, v])])
        one("index__gather_axis1_" + tag, "Gather", ["x", "i"], [x3], F, [i64("i", [v])], {"axis": 1})
        one("index__gatherelements_" + tag, "GatherElements", ["x", "i"], [x3], F,
            [i64("i", [0, v, 1, 0, 0, 0, 1, 1, 1], [3, 3])])
        one("index__gathernd_" + tag, "GatherND", ["x", "i"], [x3], F, [i64("i", [0, v], [1, 2])])
        one("index__scatterelements_" + tag, "ScatterElements", ["x", "i", "u"], [x3], F,
            [i64("i", [v, 0, 0], [1, 3]), f32("u", [1, 2, 3], [1, 3])])
        one("index__scatternd_" + tag, "ScatterND", ["x", "i", "u"], [x3], F,
            [i64("i", [v, 0], [1, 2]), f32("u", [1], [1])])
        one("index__onehot_depth_" + tag, "OneHot", ["i", "d", "v"], [], F,
            [i64("i", [0, 1]), i64("d", [v], []), f32("v", [0, 1])])
        one("index__slice_starts_" + tag, "Slice", ["x", "s", "e"], [x3], F, [i64("s", [v]), i64("e", [I64_MAX])])
        one("index__slice_ends_" + tag, "Slice", ["x", "s", "e"], [x3], F, [i64("s", [0]), i64("e", [v])])
        one("index__slice_step_" + tag, "Slice", ["x", "s", "e", "a", "st"], [x3], F,
            [i64("s", [I64_MAX]), i64("e", [I64_MIN]), i64("a", [0]), i64("st", [v])])
        one("index__slice_axes_" + tag, "Slice", ["x", "s", "e", "a"], [x3], F,
            [i64("s", [0]), i64("e", [2]), i64("a", [v])])
        one("index__gather_axis_attr_" + tag, "Gather", ["x", "i"], [x3], F, [i64("i", [0])], {"axis": v})
        one("index__split_axis_" + tag, "Split", ["x"], [x3], F, attrs={"axis": v, "num_outputs": 3}, opset=18, n_out=3)
        one("index__split_sizes_" + tag, "Split", ["x", "s"], [x3], F, [i64("s", [v, 3 - v if abs(v) < 10**6 else 1])],
            n_out=2)
        one("index__compress_axis_" + tag, "Compress", ["x", "c"], [x3], F,
            [helper.make_tensor("c", TensorProto.BOOL, [3], [1, 0, 1])], {"axis": v})
        one("index__cumsum_axis_" + tag, "CumSum", ["x", "a"], [x3], F, [i64("a", [v], [])])
        one("index__topk_k_" + tag, "TopK", ["x", "k"], [x3], F, [i64("k", [v])], n_out=2)
        one("index__trilu_k_" + tag, "Trilu", ["x", "k"], [x3], F, [i64("k", [v], [])])
    one("index__slice_step_zero", "Slice", ["x", "s", "e", "a", "st"], [x3], F,
        [i64("s", [0]), i64("e", [3]), i64("a", [0]), i64("st", [0])])
    one("index__slice_axes_duplicate", "Slice", ["x", "s", "e", "a"], [x3], F,
        [i64("s", [0, 0]), i64("e", [2, 2]), i64("a", [0, 0])])
    one("index__slice_lengths_mismatch", "Slice", ["x", "s", "e"], [x3], F, [i64("s", [0, 0]), i64("e", [2])])
    one("index__gather_float_indices", "Gather", ["x", "i"], [x3], F, [f32("i", [0.5])])
    one("index__gather_indices_from_input", "Gather", ["x", "i"], [x3, vi("i", I64, [1000])], F)
    one("index__gathernd_batch_dims_huge", "GatherND", ["x", "i"], [x3], F, [i64("i", [0], [1, 1])], {"batch_dims": 10**9})
    one("index__gathernd_last_dim_too_big", "GatherND", ["x", "i"], [x3], F, [i64("i", [0, 0, 0, 0], [1, 4])])
    one("index__scatternd_duplicate_mul", "ScatterND", ["x", "i", "u"], [x3], F,
        [i64("i", [0, 0], [2, 1]), f32("u", [1] * 6, [2, 3])], {"reduction": "mul"})
    one("index__scatternd_reduction_bogus", "ScatterND", ["x", "i", "u"], [x3], F,
        [i64("i", [0], [1, 1]), f32("u", [1] * 3, [1, 3])], {"reduction": "bogus"})
    one("index__split_num_outputs_zero", "Split", ["x"], [x3], F, attrs={"num_outputs": 0}, opset=18)
    one("index__split_num_outputs_huge", "Split", ["x"], [x3], F, attrs={"num_outputs": 10**9}, opset=18, n_out=2)
    one("index__split_sizes_negative", "Split", ["x", "s"], [x3], F, [i64("s", [-1, 4])], n_out=2)
    one("index__split_sizes_overflow", "Split", ["x", "s"], [x3], F, [i64("s", [I64_MAX, I64_MAX, 5])], n_out=3)
    one("index__onehot_depth_float_nan", "OneHot", ["i", "d", "v"], [], F,
        [i64("i", [0, 1]), f32("d", [float("nan")], []), f32("v", [0, 1])])
    one("index__onehot_axis_huge", "OneHot", ["i", "d", "v"], [], F,
        [i64("i", [0, 1]), i64("d", [3], []), f32("v", [0, 1])], {"axis": 10**9})
    one("index__onehot_depth_1e9_static", "OneHot", ["i", "d", "v"], [], F,
        [i64("i", [0] * 1000), i64("d", [10**9], []), f32("v", [0, 1])])
    one("index__reversesequence_lens_huge", "ReverseSequence", ["x", "l"], [vi("x", F, [3, 2])], F,
        [i64("l", [10**12, I64_MIN])], {"batch_axis": 1, "time_axis": 0})
    one("index__roialign_batch_index_huge", "RoiAlign", ["x", "r", "b"], [vi("x", F, [1, 1, 4, 4])], F,
        [f32("r", [0, 0, 2, 2], [1, 4]), i64("b", [10**12])])
    one("index__gatherelements_rank_mismatch", "GatherElements", ["x", "i"], [x3], F, [i64("i", [0], [1])])
    one("index__scatterelements_shape_mismatch", "ScatterElements", ["x", "i", "u"], [x3], F,
        [i64("i", [0, 0], [1, 2]), f32("u", [1, 2, 3], [1, 3])])
    one("index__tensorscatter_huge", "ScatterND", ["x", "i", "u"], [x3], F,
        [i64("i", [I64_MAX, I64_MIN], [1, 2]), f32("u", [1], [1])])


# ---- attr: overflowing attributes --------------------------------------------------------------

def gen_attr():
    x4 = vi("x", F, [1, 4, 4, 4])
    for tag, b in {"2p32": 2**32, "zero": 0, "neg": -1, "int64max": I64_MAX, "3": 3}.items():
        one("attr__depthtospace_blocksize_" + tag, "DepthToSpace", ["x"], [x4], F, attrs={"blocksize": b})
        one("attr__spacetodepth_blocksize_" + tag, "SpaceToDepth", ["x"], [x4], F, attrs={"blocksize": b})
    w = f32("w", [0.1] * 36, [1, 4, 3, 3])
    conv_cases = {
        "strides_zero": {"strides": [0, 0]}, "strides_2p62": {"strides": [2**62, 2**62]},
        "strides_neg": {"strides": [-1, -1]}, "dilations_huge": {"dilations": [2**40, 1]},
        "dilations_zero": {"dilations": [0, 0]}, "pads_huge": {"pads": [2**40, 0, 2**40, 0]},
        "pads_int64max": {"pads": [I64_MAX, I64_MAX, I64_MAX, I64_MAX]}, "pads_neg": {"pads": [-5, -5, -5, -5]},
        "kernel_shape_mismatch": {"kernel_shape": [5, 5]}, "kernel_shape_huge": {"kernel_shape": [2**40, 2**40]},
        "group_zero": {"group": 0}, "group_huge": {"group": 2**40}, "group_3": {"group": 3},
        "pads_short": {"pads": [1]}, "strides_long": {"strides": [1, 1, 1, 1, 1]},
        "auto_pad_bogus": {"auto_pad": "BOGUS"}, "auto_pad_same_stride_huge": {"auto_pad": "SAME_UPPER", "strides": [2**62, 1]},
    }
    for tag, a in conv_cases.items():
        one("attr__conv_" + tag, "Conv", ["x", "w"], [x4], F, [w], a)
    wt = f32("w", [0.1] * 36, [4, 1, 3, 3])
    for tag, a in {"output_padding_huge": {"output_padding": [2**40, 0], "strides": [2**41, 1]},
                   "output_padding_ge_stride": {"output_padding": [3, 3], "strides": [2, 2]},
                   "output_shape_huge": {"output_shape": [10**6, 10**6]},
                   "output_shape_neg": {"output_shape": [-4, 4]},
                   "strides_int64max": {"strides": [I64_MAX, 1]},
                   "pads_neg_beyond": {"pads": [-100, 0, -100, 0]},
                   "dilations_huge": {"dilations": [2**40, 2**40]},
                   "group_huge": {"group": 2**40}}.items():
        one("attr__convtranspose_" + tag, "ConvTranspose", ["x", "w"], [x4], F, [wt], a)
    for op in ["MaxPool", "AveragePool", "LpPool"]:
        for tag, a in {"kernel_huge": {"kernel_shape": [2**40, 2**40]}, "kernel_zero": {"kernel_shape": [0, 0]},
                       "strides_zero": {"kernel_shape": [2, 2], "strides": [0, 0]},
                       "pads_huge": {"kernel_shape": [2, 2], "pads": [2**62, 2**62, 2**62, 2**62]},
                       "dilations_huge": {"kernel_shape": [2, 2], "dilations": [2**40, 2**40]},
                       "no_kernel": {}}.items():
            one("attr__%s_%s" % (op.lower(), tag), op, ["x"], [x4], F, attrs=a)
    for tag, shape in {"overflow": [2**32, 2**32, 2**32], "int64max": [I64_MAX], "two_minus_one": [-1, -1],
                       "neg_two": [-2, 16], "zero_copy_oob": [0, 0, 0, 0, 0], "huge_with_minus_one": [2**62, -1],
                       "product_mismatch": [5, 5]}.items():
        one("attr__reshape_" + tag, "Reshape", ["x", "s"], [x4], F, [i64("s", shape)])
    one("attr__reshape_allowzero_minus_one_zero", "Reshape", ["x", "s"], [x4], F, [i64("s", [0, -1])], {"allowzero": 1})
    for tag, shape in {"overflow": [2**32, 2**32, 2**32], "neg": [-2, 4], "incompatible": [3, 5]}.items():
        one("attr__expand_" + tag, "Expand", ["x", "s"], [vi("x", F, [2, 1])], F, [i64("s", shape)])
    for tag, perm in {"dup": [0, 0, 1, 2], "oob": [0, 1, 2, 9], "neg": [0, 1, 2, -1], "short": [0, 1], "int64max": [0, 1, 2, I64_MAX]}.items():
        one("attr__transpose_perm_" + tag, "Transpose", ["x"], [x4], F, attrs={"perm": perm})
    for tag, v in {"huge": 10**12, "int64min": I64_MIN, "dup": None}.items():
        axes = [0, 0] if v is None else [v]
        one("attr__squeeze_axes_" + tag, "Squeeze", ["x", "a"], [x4], F, [i64("a", axes)])
        one("attr__unsqueeze_axes_" + tag, "Unsqueeze", ["x", "a"], [x4], F, [i64("a", axes)])
        one("attr__reducesum_axes_" + tag, "ReduceSum", ["x", "a"], [x4], F, [i64("a", axes)])
        one("attr__reducemax_axes_" + tag, "ReduceMax", ["x"], [x4], F, attrs={"axes": axes}, opset=13)
        one("attr__flatten_axis_" + tag, "Flatten", ["x"], [x4], F, attrs={"axis": axes[0]})
        one("attr__softmax_axis_" + tag, "Softmax", ["x"], [x4], F, attrs={"axis": axes[0]})
        one("attr__argmax_axis_" + tag, "ArgMax", ["x"], [x4], I64, attrs={"axis": axes[0]})
        one("attr__concat_axis_" + tag, "Concat", ["x", "x"], [x4], F, attrs={"axis": axes[0]})
        one("attr__layernorm_axis_" + tag, "LayerNormalization", ["x", "s"], [x4], F, [f32("s", [1] * 4)],
            {"axis": axes[0]})
    for tag, a in {"size_zero": {"size": 0}, "size_huge": {"size": 2**40}, "size_neg": {"size": -3}}.items():
        one("attr__lrn_" + tag, "LRN", ["x"], [x4], F, attrs=a)
    one("attr__einsum_garbage", "Einsum", ["x"], [x4], F, attrs={"equation": "ab,,->->c!"})
    one("attr__einsum_too_many_letters", "Einsum", ["x"], [x4], F, attrs={"equation": "abcdefghij->j"})
    one("attr__einsum_ellipsis_twice", "Einsum", ["x"], [x4], F, attrs={"equation": "......->"})
    one("attr__cast_to_999", "Cast", ["x"], [x4], F, attrs={"to": 999})
    one("attr__cast_to_undefined", "Cast", ["x"], [x4], F, attrs={"to": 0})
    one("attr__gemm_transA_huge", "Gemm", ["x", "x"], [vi("x", F, [3, 3])], F, attrs={"transA": 2**40})
    one("attr__gru_hidden_size_huge", "GRU", ["x", "w", "r"], [vi("x", F, [1, 1, 2])], F,
        [f32("w", [0] * 6, [1, 3, 2]), f32("r", [0] * 3, [1, 3, 1])], {"hidden_size": 2**40})
    one("attr__lstm_hidden_size_zero", "LSTM", ["x", "w", "r"], [vi("x", F, [1, 1, 2])], F,
        [f32("w", [0] * 8, [1, 4, 2]), f32("r", [0] * 4, [1, 4, 1])], {"hidden_size": 0})
    one("attr__stft_frame_step_zero", "STFT", ["x", "st", "", "fl"], [vi("x", F, [1, 16, 1])], F,
        [i64("st", [0], []), i64("fl", [4], [])])
    one("attr__dft_length_huge", "DFT", ["x", "n"], [vi("x", F, [1, 8, 1])], F, [i64("n", [10**12], [])], opset=17)
    one("attr__col2im_huge", "Col2Im", ["x", "i", "b"], [vi("x", F, [1, 4, 4])], F,
        [i64("i", [10**6, 10**6]), i64("b", [2, 2])])
    one("attr__nonmaxsuppression_max_huge", "NonMaxSuppression", ["b", "s", "m"], [], I64,
        [f32("b", [0, 0, 1, 1], [1, 1, 4]), f32("s", [0.9], [1, 1, 1]), i64("m", [I64_MAX])])
    one("attr__bitshift_huge", "BitShift", ["a", "b"], [], TensorProto.UINT32,
        [helper.make_tensor("a", TensorProto.UINT32, [1], [1]), helper.make_tensor("b", TensorProto.UINT32, [1], [4000000000])],
        {"direction": "LEFT"})
    one("attr__mod_int_by_zero", "Mod", ["a", "b"], [], I64, [i64("a", [I64_MIN]), i64("b", [0])])
    one("attr__div_int64min_by_minus1", "Div", ["a", "b"], [], I64, [i64("a", [I64_MIN]), i64("b", [-1])])
    one("attr__mod_int64min_by_minus1", "Mod", ["a", "b"], [], I64, [i64("a", [I64_MIN]), i64("b", [-1])])
    one("attr__div_int_by_zero", "Div", ["a", "b"], [], I64, [i64("a", [7]), i64("b", [0])])
    one("attr__pow_int_huge", "Pow", ["a", "b"], [], I64, [i64("a", [3]), i64("b", [I64_MAX])])
    one("attr__abs_int64min", "Abs", ["a"], [], I64, [i64("a", [I64_MIN])])
    one("attr__neg_int64min", "Neg", ["a"], [], I64, [i64("a", [I64_MIN])])
    one("attr__gridsample_huge_coords", "GridSample", ["x", "g"], [vi("x", F, [1, 1, 2, 2])], F,
        [f32("g", [1e30, -1e30, float("nan"), float("inf")], [1, 1, 2, 2])])


# ---- dims: zero and negative dims ---------------------------------------------------------------

def gen_dims():
    for op, extra in {"Relu": {}, "Softmax": {}, "ReduceMax": {}, "ReduceMean": {}, "ArgMax": {},
                      "TopK": None, "MatMul": None, "Conv": None, "MaxPool": {"kernel_shape": [1, 1]},
                      "GlobalAveragePool": {}, "LayerNormalization": None, "Transpose": {}, "CumSum": None,
                      "InstanceNormalization": None, "LpNormalization": {}, "Hardmax": {}, "LogSoftmax": {},
                      "ReduceLogSumExp": {}, "ReduceProd": {}}.items():
        for shape in ([0, 4, 4, 4], [1, 0, 4, 4], [1, 4, 0, 0]):
            tag = "x".join(str(d) for d in shape)
            x = vi("x", F, shape)
            out = I64 if op == "ArgMax" else F
            if op == "TopK":
                one("dims__topk_" + tag, op, ["x", "k"], [x], F, [i64("k", [1])], n_out=2)
            elif op == "MatMul":
                one("dims__matmul_" + tag, op, ["x", "w"], [x], F, [f32("w", [], [shape[3], 0])])
            elif op == "Conv":
                one("dims__conv_" + tag, op, ["x", "w"], [x], F, [f32("w", [0.0] * (2 * shape[1]), [2, shape[1], 1, 1])])
            elif op == "LayerNormalization":
                one("dims__layernorm_" + tag, op, ["x", "s"], [x], F, [f32("s", [1.0] * shape[3], [shape[3]])])
            elif op == "CumSum":
                one("dims__cumsum_" + tag, op, ["x", "a"], [x], F, [i64("a", [1], [])])
            elif op == "InstanceNormalization":
                one("dims__instancenorm_" + tag, op, ["x", "s", "b"], [x], F,
                    [f32("s", [1.0] * shape[1]), f32("b", [0.0] * shape[1])])
            else:
                one("dims__%s_%s" % (op.lower(), tag), op, ["x"], [x], out, attrs=extra)
    for tag, dims in {"neg": [-3, 2], "neg_one": [-1], "int64min": [I64_MIN, 1]}.items():
        t = TensorProto(name="w", data_type=F, dims=dims)
        one("dims__initializer_" + tag, "Identity", ["w"], [], F, [t])
        save("dims__input_declared_" + tag, model([helper.make_node("Relu", ["x"], ["y"], name="relu")],
                                                  [vi("x", F, dims)], [vi("y", F, None)]))
    one("dims__constantofshape_neg", "ConstantOfShape", ["s"], [], F, [i64("s", [-5, 2])])
    one("dims__constantofshape_zero", "ConstantOfShape", ["s"], [], F, [i64("s", [0, 10**12])])
    one("dims__expand_zero_big", "Expand", ["x", "s"], [vi("x", F, [1])], F, [i64("s", [0, 10**12])])
    one("dims__tile_zero", "Tile", ["x", "r"], [vi("x", F, [2, 2])], F, [i64("r", [0, 10**12])])
    one("dims__reshape_zero_to_minus_one", "Reshape", ["x", "s"], [vi("x", F, [0, 4])], F, [i64("s", [-1, 0])])
    one("dims__reshape_empty_minus_one", "Reshape", ["x", "s"], [vi("x", F, [0, 4])], F, [i64("s", [-1])], {"allowzero": 1})
    one("dims__gather_empty_data", "Gather", ["x", "i"], [vi("x", F, [0, 3])], F, [i64("i", [0])])
    one("dims__onehot_depth_zero", "OneHot", ["i", "d", "v"], [], F, [i64("i", [0]), i64("d", [0], []), f32("v", [0, 1])])
    one("dims__range_empty", "Range", ["a", "b", "c"], [], I64, [i64("a", [5], []), i64("b", [0], []), i64("c", [1], [])])
    one("dims__split_empty", "Split", ["x"], [vi("x", F, [0, 3])], F, attrs={"num_outputs": 2}, opset=18, n_out=2)
    one("dims__resize_empty", "Resize", ["x", "", "sc"], [vi("x", F, [1, 1, 0, 2])], F, [f32("sc", [1, 1, 2, 2])])
    one("dims__nonzero_empty", "NonZero", ["x"], [vi("x", F, [0, 3])], I64)
    one("dims__unique_empty", "Unique", ["x"], [vi("x", F, [0])], F, n_out=4)
    one("dims__einsum_empty", "Einsum", ["x", "x"], [vi("x", F, [0, 3])], F, attrs={"equation": "ij,ij->i"})
    one("dims__gemm_zero_k", "Gemm", ["a", "b"], [vi("a", F, [3, 0])], F, [f32("b", [], [0, 3])])


# ---- ext: malformed external data ---------------------------------------------------------------

def ext_model(name, location, offset=None, length=None, dims=(4,), extra=()):
    t = TensorProto(name="w", data_type=F, dims=list(dims))
    t.data_location = TensorProto.EXTERNAL
    kv = [("location", location)]
    if offset is not None:
        kv.append(("offset", str(offset)))
    if length is not None:
        kv.append(("length", str(length)))
    kv += list(extra)
    for k, v in kv:
        e = t.external_data.add()
        e.key, e.value = k, v
    one(name, "Identity", ["w"], [], F, [t])


def gen_ext():
    data = os.path.join(OUT, "ext_weights.bin")
    with open(data, "wb") as f:
        f.write(np.arange(16, dtype=np.float32).tobytes())
    ext_model("ext__ok_reads_16_bytes", "ext_weights.bin", 0, 16)
    ext_model("ext__missing_file", "no_such_file.bin")
    fifo = os.path.join(OUT, "ext_fifo")
    if not os.path.exists(fifo):
        os.mkfifo(fifo)
    ext_model("ext__fifo", "ext_fifo")
    os.makedirs(os.path.join(OUT, "ext_dir"), exist_ok=True)
    ext_model("ext__directory", "ext_dir")
    ext_model("ext__dev_zero_absolute", "/dev/zero")
    ext_model("ext__absolute_etc_passwd", "/etc/passwd")
    ext_model("ext__escape_dotdot", "../ext_weights.bin")
    ext_model("ext__escape_deep_dotdot", "a/../../../../../../etc/passwd")
    link = os.path.join(OUT, "ext_link_out")
    if not os.path.lexists(link):
        os.symlink("/etc/hostname", link)
    ext_model("ext__symlink_outside", "ext_link_out")
    ext_model("ext__offset_beyond", "ext_weights.bin", 1000, 16)
    ext_model("ext__length_beyond", "ext_weights.bin", 0, 1000, dims=(250,))
    ext_model("ext__offset_plus_length_overflow", "ext_weights.bin", 2**64 - 8, 16)
    ext_model("ext__offset_not_number", "ext_weights.bin", "abc", 16)
    ext_model("ext__offset_negative", "ext_weights.bin", "-8", 16)
    ext_model("ext__length_mismatch_dims", "ext_weights.bin", 0, 8)
    ext_model("ext__claims_1e12_elements", "ext_weights.bin", 0, None, dims=(10**6, 10**6))
    ext_model("ext__claims_int64max", "ext_weights.bin", 0, None, dims=(I64_MAX,))
    ext_model("ext__empty_location", "")
    ext_model("ext__location_with_nul", "ext_weights.bin\0../../etc/passwd")
    ext_model("ext__dev_null_relative_link", "ext_dir/../ext_weights.bin", 0, 16)
    ext_model("ext__proc_self", "/proc/self/mem")
    ext_model("ext__unknown_key", "ext_weights.bin", 0, 16, extra=[("checksum", "zzz"), ("bogus", "1")])
    ext_model("ext__length_huge", "ext_weights.bin", 0, 2**63, dims=(4,))


# ---- deep / wide ---------------------------------------------------------------------------------

def pb_field(num, payload):
    """A length-delimited protobuf field (wire type 2), written by hand: the
    Python protobuf refuses messages nested past 100 levels."""
    def varint(v):
        out = bytearray()
        while True:
            b = v & 0x7F
            v >>= 7
            out.append(b | (0x80 if v else 0))
            if not v:
                return bytes(out)
    return varint((num << 3) | 2) + varint(len(payload)) + payload


def nested_if_bytes(depth):
    """ModelProto bytes: If nodes nested `depth` deep (then_branch), each branch returning x."""
    def s(num, text):
        return pb_field(num, text.encode())

    def graph(nodes, out, name):
        return b"".join(pb_field(1, n) for n in nodes) + s(2, name) + pb_field(12, s(1, out))

    inner = graph([s(1, "x") + s(2, "o0") + s(3, "leaf") + s(4, "Identity")], "o0", "leaf")
    for d in range(depth):
        els = graph([s(1, "x") + s(2, "e%d" % d) + s(3, "else%d" % d) + s(4, "Identity")], "e%d" % d, "else%d" % d)
        attrs = (pb_field(5, s(1, "then_branch") + pb_field(6, inner) + bytes([0xA0, 0x01, 5])) +
                 pb_field(5, s(1, "else_branch") + pb_field(6, els) + bytes([0xA0, 0x01, 5])))
        node = s(1, "c") + s(2, "o%d" % (d + 1)) + s(3, "if%d" % d) + s(4, "If") + attrs
        inner = graph([node], "o%d" % (d + 1), "level%d" % d)
    x = helper.make_tensor_value_info("x", F, [2]).SerializeToString()
    c = helper.make_tensor_value_info("c", TensorProto.BOOL, []).SerializeToString()
    top = inner + pb_field(11, x) + pb_field(11, c)
    opset = helper.make_opsetid("", 17).SerializeToString()
    return bytes([0x08, 8]) + pb_field(7, top) + pb_field(8, opset)


def gen_deep():
    for depth in (10, 60, 64, 65, 200, 3000):  # 3000: past any recursion limit, and quick to write
        save("deep__nested_if_%d" % depth, nested_if_bytes(depth))
    for depth in (5, 20):
        body = helper.make_graph([helper.make_node("Identity", ["cin"], ["cout"], name="b0"),
                                  helper.make_node("Identity", ["v"], ["vout"], name="b1")], "body0",
                                 [vi("i", I64, []), vi("cin", TensorProto.BOOL, []), vi("v", F, None)],
                                 [vi("cout", TensorProto.BOOL, []), vi("vout", F, None)])
        for d in range(depth):
            loop = helper.make_node("Loop", ["n", "cin"  , "v"], ["vout%d" % d], name="loop%d" % d, body=body)
            body = helper.make_graph([helper.make_node("Identity", ["cin"], ["cout"], name="c%d" % d), loop,
                                      helper.make_node("Identity", ["vout%d" % d], ["vout"], name="o%d" % d)],
                                     "body%d" % (d + 1),
                                     [vi("i", I64, []), vi("cin", TensorProto.BOOL, []), vi("v", F, None)],
                                     [vi("cout", TensorProto.BOOL, []), vi("vout", F, None)])
        top = helper.make_node("Loop", ["n", "c", "x"], ["y"], name="top", body=body)
        save("deep__nested_loop_%d" % depth,
             model([top], [vi("x", F, [2]), vi("c", TensorProto.BOOL, [])], [vi("y", F, None)],
                   [i64("n", [1], [])]))
    # wide and long
    save("wide__sum_100k_inputs", model([helper.make_node("Sum", ["x"] * 100000, ["y"], name="sum")],
                                        [vi("x", F, [4])], [vi("y", F, None)]))
    save("wide__concat_50k_inputs", model([helper.make_node("Concat", ["x"] * 50000, ["y"], name="cat", axis=0)],
                                          [vi("x", F, [4])], [vi("y", F, None)]))
    nodes = [helper.make_node("Relu", ["x" if k == 0 else "t%d" % (k - 1)], ["t%d" % k], name="r%d" % k)
             for k in range(20000)]
    save("wide__relu_chain_20k", model(nodes, [vi("x", F, [4])], [vi("t19999", F, None)]))
    nodes = [helper.make_node("Relu", ["x"], ["t%d" % k], name="r%d" % k) for k in range(20000)]
    save("wide__fanout_20k_outputs", model(nodes, [vi("x", F, [4])], [vi("t%d" % k, F, None) for k in range(20000)]))
    save("wide__graph_20k_inputs", model([helper.make_node("Sum", ["x%d" % k for k in range(20000)], ["y"], name="sum")],
                                         [vi("x%d" % k, F, [1]) for k in range(20000)], [vi("y", F, None)]))
    # 1000 distinct opset imports and a long name
    nm = "n" * 1000000
    save("wide__name_1mb", model([helper.make_node("Relu", ["x"], [nm], name=nm)], [vi("x", F, [1])], [vi(nm, F, None)]))
    save("wide__many_attributes",
         model([helper.make_node("Relu", ["x"], ["y"], name="r", **{"a%d" % k: k for k in range(20000)})],
               [vi("x", F, [1])], [vi("y", F, None)]))


# ---- str: strings and regexes ---------------------------------------------------------------------

def s_t(name, values, dims=None):
    return helper.make_tensor(name, TensorProto.STRING, [len(values)] if dims is None else dims,
                              [v.encode() if isinstance(v, str) else v for v in values])


def gen_str():
    S = TensorProto.STRING
    for k in (10, 24, 40):
        nodes = [helper.make_node("StringConcat", ["s" if j == 0 else "c%d" % (j - 1)] * 2, ["c%d" % j], name="cat%d" % j,
                                  domain="") for j in range(k)]
        save("str__stringconcat_doubling_%d" % k, model(nodes, [], [vi("c%d" % (k - 1), S, None)], [s_t("s", ["ab"])],
                                                       opset=20))
    big = "a" * 100000
    for tag, pat in {"nested_star": "(a*)*b", "alt_star": "(a|aa)*b", "nested_plus": "(a+)+$b",
                     "backref": "(a*)\\1b", "huge_repeat": "a{1000}{1000}{1000}", "bad_syntax": "(((",
                     "lookahead": "(?=a)*b", "empty": "", "deep_parens": "(" * 5000 + "a" + ")" * 5000}.items():
        one("str__regexfullmatch_" + tag, "RegexFullMatch", ["s"], [], TensorProto.BOOL, [s_t("s", [big, "ab"])],
            {"pattern": pat}, opset=20)
    one("str__stringsplit_empty_delim_100k", "StringSplit", ["s"], [], S, [s_t("s", ["a b " * 30000])],
        {"maxsplit": 10**12}, opset=20, n_out=2)
    one("str__stringsplit_maxsplit_neg", "StringSplit", ["s"], [], S, [s_t("s", ["a,b,c"])],
        {"delimiter": ",", "maxsplit": -5}, opset=20, n_out=2)
    one("str__stringsplit_long_delim", "StringSplit", ["s"], [], S, [s_t("s", ["a" * 100000])],
        {"delimiter": "a" * 50000}, opset=20, n_out=2)
    one("str__stringnormalizer_locale_bogus", "StringNormalizer", ["s"], [], S, [s_t("s", ["Ab"])],
        {"case_change_action": "LOWER", "locale": "xx_NOPE.UTF-99"})
    one("str__stringnormalizer_stopwords_100k", "StringNormalizer", ["s"], [], S, [s_t("s", ["a", "b"])],
        {"stopwords": ["w%d" % k for k in range(100000)]})
    one("str__invalid_utf8", "StringNormalizer", ["s"], [], S, [s_t("s", [b"\xff\xfe\xc0\x80"])],
        {"case_change_action": "UPPER"})
    one("str__add_strings", "Add", ["a", "b"], [], S, [s_t("a", ["x"]), s_t("b", ["y"])])
    one("str__cast_string_to_float_garbage", "Cast", ["s"], [], F, [s_t("s", ["1e999999", "nan(", "--3", ""])],
        {"to": F})
    one("str__cast_float_to_string_big", "Cast", ["x"], [vi("x", F, [1000, 1000])], S, attrs={"to": S})
    one("str__equal_string_float", "Equal", ["a", "b"], [], TensorProto.BOOL, [s_t("a", ["x"]), f32("b", [1.0])])
    one("str__label_encoder_mismatch", "LabelEncoder", ["s"], [], I64, [s_t("s", ["a"])],
        {"keys_strings": ["a", "b"], "values_int64s": [1]}, domain="ai.onnx.ml")
    one("str__tfidf_huge_ngram", "TfIdfVectorizer", ["x"], [vi("x", I64, [4])], F,
        attrs={"mode": "TF", "min_gram_length": 1, "max_gram_length": 2**40, "max_skip_count": 2**40,
               "ngram_counts": [0, 1], "ngram_indexes": [0], "pool_int64s": [1]}, opset=9)


# ---- type: mismatched dtypes ----------------------------------------------------------------------

def gen_type():
    x = vi("x", F, [2, 2])
    one("type__gemm_int64_c", "Gemm", ["x", "x", "c"], [x], F, [i64("c", [1, 2, 3, 4], [2, 2])])
    one("type__gemm_int64_b", "Gemm", ["x", "b"], [x], F, [i64("b", [1, 2, 3, 4], [2, 2])])
    one("type__matmul_float_int", "MatMul", ["x", "b"], [x], F, [i64("b", [1, 2, 3, 4], [2, 2])])
    one("type__add_float_int", "Add", ["x", "b"], [x], F, [i64("b", [1])])
    one("type__add_string_float", "Add", ["x", "b"], [x], F, [s_t("b", ["q"])])
    one("type__where_float_cond", "Where", ["x", "x", "x"], [x], F)
    one("type__conv_int_weights", "Conv", ["x", "w"], [vi("x", F, [1, 1, 2, 2])], F, [i64("w", [1], [1, 1, 1, 1])])
    one("type__gather_string_indices", "Gather", ["x", "i"], [x], F, [s_t("i", ["0"])])
    one("type__slice_float_starts", "Slice", ["x", "s", "e"], [x], F, [f32("s", [0]), f32("e", [1])])
    one("type__reshape_float_shape", "Reshape", ["x", "s"], [x], F, [f32("s", [4])])
    one("type__expand_float_shape", "Expand", ["x", "s"], [x], F, [f32("s", [2, 2])])
    one("type__tile_float_repeats", "Tile", ["x", "r"], [x], F, [f32("r", [2, 2])])
    one("type__constantofshape_float_shape", "ConstantOfShape", ["s"], [], F, [f32("s", [2, 2])])
    one("type__range_mixed", "Range", ["a", "b", "c"], [], F, [f32("a", [0], []), i64("b", [5], []), f32("c", [1], [])])
    one("type__pad_float_pads", "Pad", ["x", "p"], [x], F, [f32("p", [0, 1, 0, 1])])
    one("type__topk_float_k", "TopK", ["x", "k"], [x], F, [f32("k", [1])], n_out=2)
    one("type__onehot_string_depth", "OneHot", ["i", "d", "v"], [], F, [i64("i", [0]), s_t("d", ["3"], []), f32("v", [0, 1])])
    one("type__relu_int64", "Relu", ["x"], [vi("x", I64, [2])], I64)
    one("type__relu_bool", "Relu", ["x"], [vi("x", TensorProto.BOOL, [2])], TensorProto.BOOL)
    one("type__sqrt_string", "Sqrt", ["s"], [], TensorProto.STRING, [s_t("s", ["4"])])
    one("type__and_float", "And", ["x", "x"], [x], TensorProto.BOOL)
    one("type__concat_mixed", "Concat", ["x", "b"], [x], F, [i64("b", [1, 2], [1, 2])], {"axis": 0})
    one("type__sum_mixed", "Sum", ["x", "b"], [x], F, [i64("b", [1, 2, 3, 4], [2, 2])])
    one("type__loop_float_trip", "Loop", ["t", ""], [], F, [f32("t", [3], [])],
        attrs={"body": helper.make_graph([], "b", [vi("i", I64, []), vi("c", TensorProto.BOOL, [])],
                                   [vi("c", TensorProto.BOOL, [])])})
    one("type__if_float_cond", "If", ["x"], [x], F,
        attrs={"then_branch": helper.make_graph([helper.make_node("Identity", ["x"], ["a"])], "t", [], [vi("a", F, None)]),
         "else_branch": helper.make_graph([helper.make_node("Identity", ["x"], ["b"])], "e", [], [vi("b", F, None)])})
    one("type__if_branch_types_differ", "If", ["c"], [vi("c", TensorProto.BOOL, [])], F, [i64("k", [1])],
        {"then_branch": helper.make_graph([helper.make_node("Identity", ["k"], ["a"])], "t", [], [vi("a", I64, None)]),
         "else_branch": helper.make_graph([helper.make_node("Constant", [], ["b"], value=f32("v", [1.0]))], "e", [],
                                          [vi("b", F, None)])})
    one("type__batchnorm_int_scale", "BatchNormalization", ["x", "s", "b", "m", "v"], [vi("x", F, [1, 2, 2, 2])], F,
        [i64("s", [1, 1]), f32("b", [0, 0]), f32("m", [0, 0]), f32("v", [1, 1])])
    one("type__input_declared_string_into_conv", "Conv", ["x", "w"], [vi("x", TensorProto.STRING, [1, 1, 2, 2])], F,
        [f32("w", [1], [1, 1, 1, 1])])
    one("type__output_declared_wrong", "Relu", ["x"], [x], I64)
    one("type__quantize_bad_zero_point", "QuantizeLinear", ["x", "s", "z"], [x], TensorProto.UINT8,
        [f32("s", [0.0], []), f32("z", [1.0], [])])
    one("type__dequantize_zero_scale_int", "DequantizeLinear", ["q", "s"], [], F,
        [helper.make_tensor("q", TensorProto.UINT8, [2], [1, 2]), i64("s", [0], [])])


# ---- proto: truncated or corrupt bytes --------------------------------------------------------------

def gen_proto():
    base = model([helper.make_node("Conv", ["x", "w"], ["c"], name="conv", pads=[1, 1, 1, 1]),
                  helper.make_node("Relu", ["c"], ["y"], name="relu")],
                 [vi("x", F, [1, 2, 4, 4])], [vi("y", F, None)],
                 [f32("w", [0.5] * 36, [2, 2, 3, 3])]).SerializeToString()
    save("proto__valid_reference", base)
    for cut in (0, 1, 2, 5, 10, 20, 40, len(base) // 3, len(base) // 2, len(base) - 20, len(base) - 1):
        save("proto__truncated_at_%d" % cut, base[:cut])
    rng = random.Random(1234)
    for k in range(30):
        b = bytearray(base)
        for _ in range(rng.randint(1, 8)):
            b[rng.randrange(len(b))] = rng.randrange(256)
        save("proto__flipped_bytes_%02d" % k, bytes(b))
    save("proto__garbage_text", b"this is not an onnx model\n" * 100)
    save("proto__all_ff", b"\xff" * 4096)
    save("proto__varint_length_huge", b"\x3a\xff\xff\xff\xff\xff\xff\xff\xff\x7f" + b"\x00" * 16)
    save("proto__nested_messages_deep", b"\x3a\x02" * 1 + (b"\x0a\x02" * 50000))
    save("proto__zero_length_graph", b"\x3a\x00")
    save("proto__wrong_wire_types", bytes([0x08, 0x07, 0x3a, 0x05, 0x0a, 0x03, 0x0a, 0x01, 0x78, 0x12, 0x00]))


# ---- loop: trip counts ------------------------------------------------------------------------------

def gen_loop():
    B = TensorProto.BOOL

    def body(scan=False, stop_at=None):
        nodes = [helper.make_node("Identity", ["cin"], ["cout"], name="keep")]
        if stop_at is not None:
            nodes = [helper.make_node("Less", ["i", "stop"], ["cout"], name="stop_test")]
        nodes.append(helper.make_node("Add", ["v", "one"], ["vout"], name="inc"))
        outs = [vi("cout", B, []), vi("vout", F, None)]
        if scan:
            nodes.append(helper.make_node("Identity", ["vout"], ["sc"], name="scan_out"))
            outs.append(vi("sc", F, None))
        return helper.make_graph(nodes, "body", [vi("i", I64, []), vi("cin", B, []), vi("v", F, None)], outs)

    inits = [f32("one", [1.0], []), helper.make_tensor("t", B, [], [1]), i64("stop", [3], [])]
    for tag, trip in {"1000": 1000, "zero": 0, "negative": -5}.items():
        save("loop__trip_" + tag, model([helper.make_node("Loop", ["n", "t", "x"], ["y"], name="loop", body=body())],
                                        [vi("x", F, [1])], [vi("y", F, None)], inits + [i64("n", [trip], [])]))
    save("loop__trip_int64max_endless",  # run_hostile.py gives it --timeout 1
         model([helper.make_node("Loop", ["n", "t", "x"], ["y"], name="loop", body=body())],
               [vi("x", F, [1])], [vi("y", F, None)], inits + [i64("n", [I64_MAX], [])]))
    save("loop__trip_int64max_cond_stops_at_3",
         model([helper.make_node("Loop", ["n", "t", "x"], ["y"], name="loop", body=body(stop_at=3))],
               [vi("x", F, [1])], [vi("y", F, None)], inits + [i64("n", [I64_MAX], [])]))
    save("loop__scan_output_1000", model([helper.make_node("Loop", ["n", "t", "x"], ["y", "s"], name="loop",
                                                           body=body(scan=True))],
                                         [vi("x", F, [4])], [vi("y", F, None), vi("s", F, None)],
                                         inits + [i64("n", [1000], [])]))
    # body with wrong arity
    bad = helper.make_graph([helper.make_node("Identity", ["cin"], ["cout"], name="keep")], "body",
                            [vi("i", I64, [])], [vi("cout", B, [])])
    save("loop__body_wrong_arity", model([helper.make_node("Loop", ["n", "t", "x"], ["y"], name="loop", body=bad)],
                                         [vi("x", F, [1])], [vi("y", F, None)], inits + [i64("n", [3], [])]))
    save("loop__no_body", model([helper.make_node("Loop", ["n", "t", "x"], ["y"], name="loop")],
                                [vi("x", F, [1])], [vi("y", F, None)], inits + [i64("n", [3], [])]))
    save("loop__trip_count_vector", model([helper.make_node("Loop", ["n", "t", "x"], ["y"], name="loop", body=body())],
                                          [vi("x", F, [1])], [vi("y", F, None)], inits + [i64("n", [1, 2])]))
    # a loop-carried value that grows each iteration (Concat with itself): 2^40 elements by iteration 40
    grow = helper.make_graph([helper.make_node("Identity", ["cin"], ["cout"], name="keep"),
                              helper.make_node("Concat", ["v", "v"], ["vout"], name="double", axis=0)], "grow",
                             [vi("i", I64, []), vi("cin", B, []), vi("v", F, None)],
                             [vi("cout", B, []), vi("vout", F, None)])
    save("loop__doubling_carried_value_64", model([helper.make_node("Loop", ["n", "t", "x"], ["y"], name="loop", body=grow)],
                                                  [vi("x", F, [1])], [vi("y", F, None)], inits + [i64("n", [64], [])]))
    scan_body = helper.make_graph([helper.make_node("Add", ["s", "e"], ["so"], name="acc"),
                                   helper.make_node("Identity", ["so"], ["eo"], name="emit")], "sb",
                                  [vi("s", F, [1]), vi("e", F, [1])], [vi("so", F, [1]), vi("eo", F, [1])])
    one("loop__scan_axis_huge", "Scan", ["x", "x"], [vi("x", F, [1])], F,
        attrs={"body": scan_body, "num_scan_inputs": 1, "scan_input_axes": [2**40]}, n_out=2)
    one("loop__scan_num_inputs_huge", "Scan", ["x", "x"], [vi("x", F, [1])], F,
        attrs={"body": scan_body, "num_scan_inputs": 2**40}, n_out=2)


# ---- model: ir_version / opsets / structure ------------------------------------------------------

def gen_model():
    relu = [helper.make_node("Relu", ["x"], ["y"], name="relu")]
    ins, outs = [vi("x", F, [2])], [vi("y", F, None)]
    for tag, (ir, opset) in {"ir0": (0, 17), "ir999": (999, 17), "opset0": (8, 0), "opset999": (8, 999),
                             "opset_neg": (8, -1), "opset_int64max": (8, I64_MAX)}.items():
        save("model__" + tag, model(relu, ins, outs, opset=opset, ir=ir))
    save("model__no_opset_import", helper.make_model(helper.make_graph(relu, "g", ins, outs), opset_imports=[], ir_version=8))
    save("model__no_graph", helper.make_model(helper.make_graph([], "g", [], []), ir_version=8,
                                              opset_imports=[helper.make_opsetid("", 17)]))
    save("model__cycle", model([helper.make_node("Relu", ["b"], ["a"], name="r1"),
                                helper.make_node("Relu", ["a"], ["b"], name="r2")], [], [vi("a", F, None)]))
    save("model__self_loop", model([helper.make_node("Relu", ["a"], ["a"], name="r1")], [], [vi("a", F, None)]))
    save("model__two_producers", model([helper.make_node("Relu", ["x"], ["y"], name="r1"),
                                        helper.make_node("Relu", ["x"], ["y"], name="r2")], ins, outs))
    save("model__output_never_produced", model(relu, ins, [vi("nope", F, None)]))
    save("model__input_never_produced", model([helper.make_node("Relu", ["ghost"], ["y"], name="r")], ins, outs))
    save("model__unknown_op", model([helper.make_node("FrobnicateXYZ", ["x"], ["y"], name="f")], ins, outs))
    save("model__unknown_domain", model([helper.make_node("Relu", ["x"], ["y"], name="r", domain="com.nope")], ins, outs,
                                        extra_opsets=[helper.make_opsetid("com.nope", 1)]))
    save("model__attribute_wrong_type", model([helper.make_node("Softmax", ["x"], ["y"], name="s", axis="zero")], ins, outs))
    save("model__empty_names", model([helper.make_node("Relu", [""], [""], name="")], [vi("", F, [2])], [vi("", F, None)]))
    save("model__input_is_initializer_too", model(relu, ins, outs, [f32("x", [1, 2])]))
    save("model__output_is_input", model([], ins, [vi("x", F, None)]))
    fn = helper.make_function("local", "Rec", ["a"], ["b"], [helper.make_node("Rec", ["a"], ["b"], domain="local")],
                              [helper.make_opsetid("", 17), helper.make_opsetid("local", 1)])
    m = model([helper.make_node("Rec", ["x"], ["y"], name="rec", domain="local")], ins, outs,
              extra_opsets=[helper.make_opsetid("local", 1)])
    m.functions.append(fn)
    save("model__recursive_function", m)
    fa = helper.make_function("local", "A", ["a"], ["b"], [helper.make_node("B", ["a"], ["b"], domain="local")],
                              [helper.make_opsetid("", 17), helper.make_opsetid("local", 1)])
    fb = helper.make_function("local", "B", ["a"], ["b"], [helper.make_node("A", ["a"], ["b"], domain="local")],
                              [helper.make_opsetid("", 17), helper.make_opsetid("local", 1)])
    m = model([helper.make_node("A", ["x"], ["y"], name="a", domain="local")], ins, outs,
              extra_opsets=[helper.make_opsetid("local", 1)])
    m.functions.extend([fa, fb])
    save("model__mutually_recursive_functions", m)
    # a function expanding 2^20 times: each level calls the one below twice
    fns = [helper.make_function("local", "L0", ["a"], ["b"], [helper.make_node("Relu", ["a"], ["b"])],
                                [helper.make_opsetid("", 17)])]
    for k in range(1, 25):
        fns.append(helper.make_function("local", "L%d" % k, ["a"], ["b"],
                                        [helper.make_node("L%d" % (k - 1), ["a"], ["t"], domain="local"),
                                         helper.make_node("L%d" % (k - 1), ["t"], ["b"], domain="local")],
                                        [helper.make_opsetid("", 17), helper.make_opsetid("local", 1)]))
    for k in (12, 24):  # 4096 nodes run; 2^24 are refused before inlining
        m = model([helper.make_node("L%d" % k, ["x"], ["y"], name="top", domain="local")], ins, outs,
                  extra_opsets=[helper.make_opsetid("local", 1)])
        m.functions.extend(fns)
        save("model__function_expansion_2p%d" % k, m)
    save("model__shape_declared_mismatch", model(relu, [vi("x", F, [2])], [vi("y", F, [7, 7])]))


GENERATORS = [gen_alloc, gen_index, gen_attr, gen_dims, gen_ext, gen_deep, gen_str, gen_type, gen_proto, gen_loop,
              gen_model]


def main():
    global OUT
    if len(sys.argv) != 2:
        sys.exit("usage: make_hostile.py OUT_DIR")
    OUT = sys.argv[1]
    os.makedirs(OUT, exist_ok=True)
    for gen in GENERATORS:
        gen()
    names = [os.path.basename(p) for p in written]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        sys.exit("duplicate model names: %s" % sorted(dup)[:5])
    print("wrote %d models to %s" % (len(written), OUT))


if __name__ == "__main__":
    main()
