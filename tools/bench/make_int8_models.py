#!/usr/bin/env python3
"""One-node int8 models and their float32 twins, for bench.py.

Writes to DIR (default /tmp/oinfer-int8-models) each model with a .json
beside it that bench.py reads for the input fill (uint8 inputs uniform over
0..255, not bench.py's default 0/1):

  qlinearconv_64_3x3_56   QLinearConv u8 x s8 weights, 64->64 3x3 pad 1 at
                          56x56, per-channel weight scales, int32 bias
  conv_f32_64_3x3_56      the same Conv in float32
  qlinearmatmul_128x768x768  QLinearMatMul u8 A [128, 768] x s8 B [768, 768]
  matmulinteger_128x768x768  MatMulInteger, same operands (int32 out)
  matmul_f32_128x768x768     MatMul in float32
  qdw_144_s1_56, qdw_96_s2_112   depthwise QLinearConv 3x3 (MobileNet-like)
  qpw_64_256_56, qpw_256_64_56   1x1 QLinearConv (ResNet bottleneck-like)
  qstem_3_32_224_s2              3x3 stride-2 QLinearConv on 3 channels

Then, side by side with onnxruntime (2 threads, batch 1):

  .venv/bin/python tools/bench/make_int8_models.py /tmp/oinfer-int8-models
  .venv/bin/python tools/bench/bench.py --batch 1 --threads 2 --no-peak \\
      $(for m in /tmp/oinfer-int8-models/*.onnx; do echo --model $m; done)
"""
import json
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as TP
from onnx import helper as h
from onnx import numpy_helper as nh


def save(d, name, nodes, inputs, outputs, inits, fills):
    g = h.make_graph(nodes, name, inputs, outputs, inits)
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 21)])
    m.ir_version = 10
    onnx.checker.check_model(m)
    onnx.save(m, os.path.join(d, name + ".onnx"))
    with open(os.path.join(d, name + ".json"), "w") as f:
        json.dump({"inputs": [{"name": k, "fill": v} for k, v in fills.items()]}, f)


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else "/tmp/oinfer-int8-models"
    os.makedirs(d, exist_ok=True)
    rng = np.random.default_rng(0)
    f32 = lambda v: nh.from_array(np.asarray(v, np.float32))

    # Conv 64 -> 64, 3x3, pad 1, 56 x 56.
    C, M, H = 64, 64, 56
    w = rng.integers(-127, 128, size=(M, C, 3, 3)).astype(np.int8)
    inits = [nh.from_array(w, "w"), nh.from_array(np.array(0.02, np.float32), "xs"),
             nh.from_array(np.array(128, np.uint8), "xz"),
             nh.from_array(rng.uniform(0.001, 0.003, M).astype(np.float32), "ws"),
             nh.from_array(np.zeros(M, np.int8), "wz"), nh.from_array(np.array(0.5, np.float32), "ys"),
             nh.from_array(np.array(128, np.uint8), "yz"),
             nh.from_array(rng.integers(-1000, 1000, M).astype(np.int32), "b")]
    node = h.make_node("QLinearConv", ["x", "xs", "xz", "w", "ws", "wz", "ys", "yz", "b"], ["y"], pads=[1, 1, 1, 1])
    save(d, "qlinearconv_64_3x3_56", [node], [h.make_tensor_value_info("x", TP.UINT8, [1, C, H, H])],
         [h.make_tensor_value_info("y", TP.UINT8, [1, M, H, H])], inits, {"x": "int:0:256"})
    node = h.make_node("Conv", ["x", "w", "b"], ["y"], pads=[1, 1, 1, 1])
    save(d, "conv_f32_64_3x3_56", [node], [h.make_tensor_value_info("x", TP.FLOAT, [1, C, H, H])],
         [h.make_tensor_value_info("y", TP.FLOAT, [1, M, H, H])],
         [nh.from_array((w * 0.002).astype(np.float32), "w"), nh.from_array(rng.standard_normal(M).astype(np.float32), "b")],
         {})

    # MatMul [128, 768] x [768, 768].
    Mr, K, N = 128, 768, 768
    b = rng.integers(-127, 128, size=(K, N)).astype(np.int8)
    inits = [nh.from_array(np.array(0.02, np.float32), "as"), nh.from_array(np.array(128, np.uint8), "az"),
             nh.from_array(b, "b"), nh.from_array(np.array(0.002, np.float32), "bs"),
             nh.from_array(np.array(0, np.int8), "bz"), nh.from_array(np.array(0.5, np.float32), "ys"),
             nh.from_array(np.array(128, np.uint8), "yz")]
    node = h.make_node("QLinearMatMul", ["a", "as", "az", "b", "bs", "bz", "ys", "yz"], ["y"])
    save(d, "qlinearmatmul_128x768x768", [node], [h.make_tensor_value_info("a", TP.UINT8, [Mr, K])],
         [h.make_tensor_value_info("y", TP.UINT8, [Mr, N])], inits, {"a": "int:0:256"})
    node = h.make_node("MatMulInteger", ["a", "b", "az", "bz"], ["y"])
    save(d, "matmulinteger_128x768x768", [node], [h.make_tensor_value_info("a", TP.UINT8, [Mr, K])],
         [h.make_tensor_value_info("y", TP.INT32, [Mr, N])],
         [nh.from_array(b, "b"), nh.from_array(np.array(128, np.uint8), "az"), nh.from_array(np.array(0, np.int8), "bz")],
         {"a": "int:0:256"})
    node = h.make_node("MatMul", ["a", "b"], ["y"])
    save(d, "matmul_f32_128x768x768", [node], [h.make_tensor_value_info("a", TP.FLOAT, [Mr, K])],
         [h.make_tensor_value_info("y", TP.FLOAT, [Mr, N])], [nh.from_array((b * 0.002).astype(np.float32), "b")], {})
    # Depthwise, 1x1 and stem QLinearConvs (u8 x s8, per-channel, bias).
    for C, M, H, k, s, group, name in [(144, 144, 56, 3, 1, 144, "qdw_144_s1_56"), (96, 96, 112, 3, 2, 96, "qdw_96_s2_112"),
                                       (64, 256, 56, 1, 1, 1, "qpw_64_256_56"), (256, 64, 56, 1, 1, 1, "qpw_256_64_56"),
                                       (3, 32, 224, 3, 2, 1, "qstem_3_32_224_s2")]:
        w = rng.integers(-127, 128, size=(M, C // group, k, k)).astype(np.int8)
        inits = [nh.from_array(w, "w"), nh.from_array(np.array(0.02, np.float32), "xs"),
                 nh.from_array(np.array(128, np.uint8), "xz"),
                 nh.from_array(rng.uniform(0.001, 0.003, M).astype(np.float32), "ws"),
                 nh.from_array(np.zeros(M, np.int8), "wz"), nh.from_array(np.array(0.5, np.float32), "ys"),
                 nh.from_array(np.array(128, np.uint8), "yz"),
                 nh.from_array(rng.integers(-1000, 1000, M).astype(np.int32), "b")]
        p = (k - 1) // 2
        node = h.make_node("QLinearConv", ["x", "xs", "xz", "w", "ws", "wz", "ys", "yz", "b"], ["y"], pads=[p] * 4,
                           strides=[s, s], group=group)
        Ho = (H + 2 * p - k) // s + 1
        save(d, name, [node], [h.make_tensor_value_info("x", TP.UINT8, [1, C, H, H])],
             [h.make_tensor_value_info("y", TP.UINT8, [1, M, Ho, Ho])], inits, {"x": "int:0:256"})
    print(d)


if __name__ == "__main__":
    main()
