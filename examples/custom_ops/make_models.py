#!/usr/bin/env python3
"""Writes the example's models and their test data (checked in; rerun after a change):

  models/deform_conv2d.onnx   custom::deform_conv2d beside the built-in ONNX
                              DeformConv on the same inputs and weights
                              (outputs y_custom, y_builtin)
  models/dynamic_resize.onnx  custom::DynamicTRTResize (bilinear and nearest)
                              to a size given as a run-time input, beside the
                              built-in Resize with PyTorch's coordinate rules
                              (outputs y_bilinear, y_nearest, ref_bilinear,
                              ref_nearest)

Each has test_data_set_0 (input_<k>.pb, output_<k>.pb) whose expected outputs
are computed here with numpy, independently of oinfer.

  .venv/bin/python examples/custom_ops/make_models.py
"""
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "models")


def save(model, name, inputs, outputs):
    onnx.checker.check_model(model)
    os.makedirs(OUT, exist_ok=True)
    onnx.save(model, os.path.join(OUT, name + ".onnx"))
    d = os.path.join(OUT, name + "_test_data", "test_data_set_0")
    os.makedirs(d, exist_ok=True)
    for k, (n, v) in enumerate(inputs):
        with open(os.path.join(d, "input_%d.pb" % k), "wb") as f:
            f.write(numpy_helper.from_array(v, n).SerializeToString())
    for k, (n, v) in enumerate(outputs):
        with open(os.path.join(d, "output_%d.pb" % k), "wb") as f:
            f.write(numpy_helper.from_array(v, n).SerializeToString())


# ---- deform_conv2d ---------------------------------------------------------------

def bilinear(img, h, w):
    H, W = img.shape
    if h <= -1 or h >= H or w <= -1 or w >= W:
        return 0.0
    h0, w0 = int(np.floor(h)), int(np.floor(w))
    lh, lw = h - h0, w - w0
    total = 0.0
    for dh, fh in ((0, 1 - lh), (1, lh)):
        for dw, fw in ((0, 1 - lw), (1, lw)):
            y, x = h0 + dh, w0 + dw
            if 0 <= y < H and 0 <= x < W:
                total += fh * fw * img[y, x]
    return total


def deform_conv_ref(x, offset, weight, mask, bias, stride, pad, dil, groups, offset_groups):
    N, C, H, W = x.shape
    M, Cg, KH, KW = weight.shape
    OH, OW = offset.shape[2], offset.shape[3]
    x64, off64, w64, m64 = (a.astype(np.float64) for a in (x, offset, weight, mask))
    y = np.zeros((N, M, OH, OW), np.float64)
    Mg, cpo = M // groups, C // offset_groups
    for n in range(N):
        for m in range(M):
            g = m // Mg
            for oh in range(OH):
                for ow in range(OW):
                    acc = float(bias[m])
                    for ci in range(Cg):
                        c = g * Cg + ci
                        og = c // cpo
                        for i in range(KH):
                            for j in range(KW):
                                k = i * KW + j
                                dy = off64[n, og * 2 * KH * KW + 2 * k, oh, ow]
                                dx = off64[n, og * 2 * KH * KW + 2 * k + 1, oh, ow]
                                h = oh * stride[0] - pad[0] + i * dil[0] + dy
                                w = ow * stride[1] - pad[1] + j * dil[1] + dx
                                v = bilinear(x64[n, c], h, w) * m64[n, og * KH * KW + k, oh, ow]
                                acc += w64[m, ci, i, j] * v
                    y[n, m, oh, ow] = acc
    return y.astype(np.float32)


def make_deform():
    rng = np.random.default_rng(7)
    N, C, H, W, M, G, OG, KH, KW = 1, 4, 6, 7, 6, 2, 2, 3, 3
    stride, pad, dil = (1, 2), (1, 1), (1, 1)
    OH = (H + 2 * pad[0] - dil[0] * (KH - 1) - 1) // stride[0] + 1
    OW = (W + 2 * pad[1] - dil[1] * (KW - 1) - 1) // stride[1] + 1
    x = rng.uniform(-1, 1, (N, C, H, W)).astype(np.float32)
    offset = rng.uniform(-1.5, 1.5, (N, 2 * OG * KH * KW, OH, OW)).astype(np.float32)
    mask = rng.uniform(0, 1, (N, OG * KH * KW, OH, OW)).astype(np.float32)
    weight = rng.uniform(-0.5, 0.5, (M, C // G, KH, KW)).astype(np.float32)
    bias = rng.uniform(-0.2, 0.2, (M,)).astype(np.float32)
    custom = helper.make_node("deform_conv2d", ["x", "offset", "weight", "mask", "bias"], ["y_custom"],
                              domain="custom", name="dcn_custom", stride=list(stride), padding=list(pad),
                              dilation=list(dil), groups=G, offset_groups=OG)
    builtin = helper.make_node("DeformConv", ["x", "weight", "offset", "bias", "mask"], ["y_builtin"],
                               name="dcn_builtin", group=G, offset_group=OG, kernel_shape=[KH, KW],
                               strides=list(stride), pads=[pad[0], pad[1], pad[0], pad[1]], dilations=list(dil))
    graph = helper.make_graph(
        [custom, builtin], "deform_conv2d",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [N, C, H, W]),
         helper.make_tensor_value_info("offset", TensorProto.FLOAT, [N, 2 * OG * KH * KW, OH, OW]),
         helper.make_tensor_value_info("mask", TensorProto.FLOAT, [N, OG * KH * KW, OH, OW])],
        [helper.make_tensor_value_info("y_custom", TensorProto.FLOAT, [N, M, OH, OW]),
         helper.make_tensor_value_info("y_builtin", TensorProto.FLOAT, [N, M, OH, OW])],
        [numpy_helper.from_array(weight, "weight"), numpy_helper.from_array(bias, "bias")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19), helper.make_opsetid("custom", 1)])
    y = deform_conv_ref(x, offset, weight, mask, bias, stride, pad, dil, G, OG)
    save(model, "deform_conv2d", [("x", x), ("offset", offset), ("mask", mask)], [("y_custom", y), ("y_builtin", y)])


# ---- DynamicTRTResize ----------------------------------------------------------------

def resize_ref(img, oh, ow, mode, align_corners):
    N, C, H, W = img.shape

    def src(o, n_in, n_out):
        if mode == "nearest":
            return np.floor(o * (n_in / n_out))
        if align_corners:
            return o * (n_in - 1) / (n_out - 1) if n_out > 1 else 0.0
        return max((o + 0.5) * (n_in / n_out) - 0.5, 0.0)

    y = np.zeros((N, C, oh, ow), np.float64)
    for a in range(oh):
        sh = src(a, H, oh)
        h0 = min(int(sh), H - 1)
        h1 = min(h0 + 1, H - 1)
        lh = sh - h0
        for b in range(ow):
            sw = src(b, W, ow)
            w0 = min(int(sw), W - 1)
            w1 = min(w0 + 1, W - 1)
            lw = sw - w0
            if mode == "nearest":
                y[:, :, a, b] = img[:, :, h0, w0]
            else:
                y[:, :, a, b] = ((1 - lh) * ((1 - lw) * img[:, :, h0, w0] + lw * img[:, :, h0, w1]) +
                                 lh * ((1 - lw) * img[:, :, h1, w0] + lw * img[:, :, h1, w1]))
    return y.astype(np.float32)


def make_resize():
    rng = np.random.default_rng(11)
    img = rng.uniform(-1, 1, (1, 3, 5, 7)).astype(np.float32)
    size = np.array([9, 4], np.int64)
    nodes = [
        helper.make_node("DynamicTRTResize", ["image", "size"], ["y_bilinear"], domain="custom",
                         name="resize_bilinear", mode="bilinear", align_corners=0),
        helper.make_node("DynamicTRTResize", ["image", "size"], ["y_nearest"], domain="custom",
                         name="resize_nearest", mode="nearest"),
        # The built-in Resize to the same size: sizes = concat(shape(image)[0:2], size).
        helper.make_node("Shape", ["image"], ["image_shape"], start=0, end=2),
        helper.make_node("Concat", ["image_shape", "size"], ["sizes"], axis=0),
        helper.make_node("Resize", ["image", "", "", "sizes"], ["ref_bilinear"], mode="linear",
                         coordinate_transformation_mode="pytorch_half_pixel"),
        helper.make_node("Resize", ["image", "", "", "sizes"], ["ref_nearest"], mode="nearest",
                         coordinate_transformation_mode="asymmetric", nearest_mode="floor"),
    ]
    outs = [helper.make_tensor_value_info(n, TensorProto.FLOAT, [1, 3, None, None])
            for n in ("y_bilinear", "y_nearest", "ref_bilinear", "ref_nearest")]
    graph = helper.make_graph(
        nodes, "dynamic_resize",
        [helper.make_tensor_value_info("image", TensorProto.FLOAT, [1, 3, "H", "W"]),
         helper.make_tensor_value_info("size", TensorProto.INT64, [2])], outs)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19), helper.make_opsetid("custom", 1)])
    bil = resize_ref(img, 9, 4, "bilinear", False)
    near = resize_ref(img, 9, 4, "nearest", False)
    save(model, "dynamic_resize", [("image", img), ("size", size)],
         [("y_bilinear", bil), ("y_nearest", near), ("ref_bilinear", bil), ("ref_nearest", near)])


if __name__ == "__main__":
    make_deform()
    make_resize()
    print("wrote", OUT)
