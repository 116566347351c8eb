#!/usr/bin/env python3
"""Make the benchmark models: public architectures with random weights, fixed seeds.

Speed does not depend on trained weights, so every model is built from its
architecture definition with `torch.manual_seed(seed)` and exported with
torch.onnx.export (batch axis dynamic, so batch 1 and 8 run the same file).
Models land outside the repository, in the cache folder:

    $OINFER_BENCH_CACHE (default ~/.cache/oinfer-bench)/
        venv/                  the tools' virtual environment (--setup makes it)
        models/<name>.onnx     one file per model
        models/<name>.json     how it was made and what its inputs are

Models (name: source, input):
    resnet50        torchvision resnet50                    x [N,3,224,224]
    mobilenetv2     torchvision mobilenet_v2                x [N,3,224,224]
    squeezenet1_1   torchvision squeezenet1_1               x [N,3,224,224]
    efficientnet_b0 torchvision efficientnet_b0             x [N,3,224,224]
    vit_b_16        torchvision vit_b_16                    x [N,3,224,224]
    bert_base       transformers BertModel, bert-base sizes input_ids, attention_mask [N,128]
                    (hidden 768, 12 layers, 12 heads, FFN 3072; random init;
                    an equivalent torch.nn encoder when transformers is missing)
    srcnn           the seed's SRCNN (9x9 -> 64, 1x1 -> 32, 5x5; ReLU), at
                    3 channels and 256x256, 'same' padding   x [N,3,256,256]

Quantized variants (--int8), made from the fp32 file with onnxruntime.quantization
as a user would on x86: the CNNs by quant_pre_process + quantize_static in the QDQ
format (per-channel int8 weights, uint8 activations, onnxruntime's defaults),
calibrated on INT8_CALIBRATION seeded random batches of one; bert_base by
quantize_dynamic (int8 weights; MatMulInteger + DynamicQuantizeLinear):

        models/<name>_int8.onnx    models/<name>_int8.json (meta, "int8_of": name)

Usage:
    make_models.py --setup             make the venv (pip, from PyPI), then the models
    make_models.py [--models a,b] [--force] [--opset 17] [--exporter auto|legacy|dynamo]
    make_models.py --setup-only        make the venv only
    make_models.py --int8 [--models a,b]   also the _int8 variants (needs onnxruntime only)
    make_models.py --list              print the model names
Run without --setup it must be run by a Python that has torch (the venv's).
"""
import argparse
import json
import os
import subprocess
import sys
import time

CACHE = os.environ.get("OINFER_BENCH_CACHE", os.path.join(os.path.expanduser("~"), ".cache", "oinfer-bench"))
VENV = os.path.join(CACHE, "venv")
MODELS_DIR = os.path.join(CACHE, "models")
# torch pulls its CUDA wheels from PyPI (several GB); CPU-only wheels would need
# another index, which this project does not use.
VENV_PACKAGES = ["torch", "torchvision", "transformers", "onnx==1.22.0", "onnxruntime==1.32.0", "openvino==2026.4.1",
                 "numpy"]

IMAGE = [3, 224, 224]
SEQ = 128
MODELS = {
    # name: (seed, inputs); inputs: (name, dtype, shape after the batch dim, how to fill)
    "resnet50": (1, [("x", "float32", IMAGE, "normal")]),
    "mobilenetv2": (2, [("x", "float32", IMAGE, "normal")]),
    "squeezenet1_1": (3, [("x", "float32", IMAGE, "normal")]),
    "efficientnet_b0": (4, [("x", "float32", IMAGE, "normal")]),
    "vit_b_16": (5, [("x", "float32", IMAGE, "normal")]),
    "bert_base": (6, [("input_ids", "int64", [SEQ], "int:0:30522"), ("attention_mask", "int64", [SEQ], "ones")]),
    "srcnn": (7, [("x", "float32", [3, 256, 256], "uniform")]),
}


def venv_python():
    return os.path.join(VENV, "bin", "python")


def setup_venv():
    """Creates the venv and installs torch & co. from PyPI (idempotent)."""
    py = venv_python()
    if not os.path.exists(py):
        print(f"make_models: creating {VENV}", flush=True)
        subprocess.check_call([sys.executable, "-m", "venv", VENV])
    probe = "import torch, torchvision, onnx, onnxruntime, openvino, numpy"
    if subprocess.call([py, "-c", probe], stderr=subprocess.DEVNULL) != 0:
        print("make_models: pip install " + " ".join(VENV_PACKAGES) + " (torch with CUDA wheels: several GB, "
              "minutes)", flush=True)
        t0 = time.time()
        subprocess.check_call([py, "-m", "pip", "install", "-q", "--disable-pip-version-check"] + VENV_PACKAGES)
        print(f"make_models: installed in {time.time() - t0:.0f} s", flush=True)
    return py


# ---- architectures -------------------------------------------------------------

def build_torchvision(name):
    import torchvision.models as tvm
    fn = {"resnet50": tvm.resnet50, "mobilenetv2": tvm.mobilenet_v2, "squeezenet1_1": tvm.squeezenet1_1,
          "efficientnet_b0": tvm.efficientnet_b0, "vit_b_16": tvm.vit_b_16}[name]
    return fn(weights=None), "torchvision.models." + fn.__name__


def build_srcnn():
    import torch.nn as nn
    # The seed's SRCNN (scripts/gen_test_models.py): 9x9 conv to 64, ReLU, 1x1 to
    # 32, ReLU, 5x5 back to the image channels; padded so the size is kept.
    net = nn.Sequential(nn.Conv2d(3, 64, 9, padding=4), nn.ReLU(), nn.Conv2d(64, 32, 1), nn.ReLU(),
                        nn.Conv2d(32, 3, 5, padding=2))
    return net, "SRCNN 9-1-5 (64, 32 filters), 3 channels"


class _Encoder:
    """BERT-base-sized encoder in plain torch.nn, for when transformers is missing."""

    @staticmethod
    def make():
        import torch
        import torch.nn as nn

        class Layer(nn.Module):
            def __init__(self, d=768, h=12, ff=3072):
                super().__init__()
                self.h, self.dh = h, d // h
                self.qkv = nn.Linear(d, 3 * d)
                self.o = nn.Linear(d, d)
                self.ln1 = nn.LayerNorm(d, eps=1e-12)
                self.ff1 = nn.Linear(d, ff)
                self.ff2 = nn.Linear(ff, d)
                self.ln2 = nn.LayerNorm(d, eps=1e-12)

            def forward(self, x, bias):
                b, s, d = x.shape
                q, k, v = self.qkv(x).view(b, s, 3, self.h, self.dh).permute(2, 0, 3, 1, 4)
                a = torch.softmax(q @ k.transpose(-1, -2) / self.dh ** 0.5 + bias, dim=-1) @ v
                x = self.ln1(x + self.o(a.transpose(1, 2).reshape(b, s, d)))
                return self.ln2(x + self.ff2(nn.functional.gelu(self.ff1(x))))

        class Encoder(nn.Module):
            def __init__(self):
                super().__init__()
                self.tok = nn.Embedding(30522, 768)
                self.pos = nn.Parameter(torch.randn(1, SEQ, 768) * 0.02)
                self.ln = nn.LayerNorm(768, eps=1e-12)
                self.layers = nn.ModuleList([Layer() for _ in range(12)])

            def forward(self, input_ids, attention_mask):
                bias = (1.0 - attention_mask[:, None, None, :].float()) * -10000.0
                x = self.ln(self.tok(input_ids) + self.pos)
                for layer in self.layers:
                    x = layer(x, bias)
                return x

        return Encoder()


def build_bert():
    try:
        from transformers import BertConfig, BertModel
    except ImportError:
        return _Encoder.make(), "torch.nn BERT-base-sized encoder (transformers not importable)"
    cfg = BertConfig(vocab_size=30522, hidden_size=768, num_hidden_layers=12, num_attention_heads=12,
                     intermediate_size=3072, max_position_embeddings=512)
    # Eager attention exports to plain MatMul/Softmax on every torch version.
    try:
        cfg._attn_implementation = "eager"
    except Exception:
        pass
    try:
        model = BertModel(cfg, attn_implementation="eager")
    except TypeError:
        model = BertModel(cfg)
    import torch.nn as nn

    class Wrapper(nn.Module):
        # Keyword arguments: BertModel.forward's positional order changes
        # between transformers versions.
        def __init__(self, bert):
            super().__init__()
            self.bert = bert

        def forward(self, input_ids, attention_mask):
            out = self.bert(input_ids=input_ids, attention_mask=attention_mask, return_dict=True)
            return out.last_hidden_state, out.pooler_output

    return Wrapper(model), "transformers.BertModel (bert-base sizes, random init)"


def build(name):
    if name == "srcnn":
        return build_srcnn()
    if name == "bert_base":
        return build_bert()
    return build_torchvision(name)


# ---- weights that give O(1) outputs ------------------------------------------------

def condition(model, inputs):
    """Random init is fine for speed, but with BatchNorm's fresh running stats
    (mean 0, var 1) activations shrink or grow layer after layer (MobileNetV2's
    logits come out near 1e-9, EfficientNet's near 1e-14), and torchvision's
    ViT zero-inits its head: outputs that any engine 'agrees' with. So BN
    running stats are recalibrated on random batches (cumulative average), and
    all-zero Linear weights get small random values."""
    import torch
    import torch.nn as nn

    for m in model.modules():
        if isinstance(m, nn.Linear) and not torch.any(m.weight):
            nn.init.normal_(m.weight, std=0.02)
    bns = [m for m in model.modules() if isinstance(m, nn.modules.batchnorm._BatchNorm)]
    if not bns:
        return
    for bn in bns:
        bn.reset_running_stats()
        bn.momentum = None
    model.train()
    with torch.no_grad():
        for _ in range(3):
            model(*[torch.randn([8] + shape) for _, _, shape, _ in inputs])
    model.eval()


# ---- export ----------------------------------------------------------------------

def export(name, path, opset, exporter):
    import numpy as np
    import torch

    seed, inputs = MODELS[name]
    torch.manual_seed(seed)
    np.random.seed(seed)
    model, source = build(name)
    if name != "bert_base":
        condition(model, inputs)
    model.eval()
    # nn.MultiheadAttention's fused eval fast path (ViT) has no ONNX export.
    if hasattr(torch.backends, "mha"):
        torch.backends.mha.set_fastpath_enabled(False)
    example = []
    for _, dtype, shape, fill in inputs:
        if dtype == "int64":
            example.append(torch.ones([2] + shape, dtype=torch.int64))
        else:
            example.append(torch.randn([2] + shape))
    in_names = [i[0] for i in inputs]
    with torch.no_grad():
        ref = model(*example)
    n_out = len(ref) if isinstance(ref, (tuple, list)) else 1
    out_names = ["last_hidden_state", "pooler_output"][:n_out] if name == "bert_base" else ["y"]
    axes = {n: {0: "N"} for n in in_names + out_names}
    tried = []
    order = {"auto": ["legacy", "dynamo"], "legacy": ["legacy"], "dynamo": ["dynamo"]}[exporter]
    for kind in order:
        try:
            with torch.no_grad():
                if kind == "legacy":
                    torch.onnx.export(model, tuple(example), path, input_names=in_names, output_names=out_names,
                                      dynamic_axes=axes, opset_version=opset, do_constant_folding=True,
                                      dynamo=False)
                else:
                    dyn = {n: {0: torch.export.Dim("N", min=1, max=64)} for n in in_names}
                    torch.onnx.export(model, tuple(example), path, input_names=in_names, output_names=out_names,
                                      dynamic_shapes=dyn, opset_version=max(opset, 18), dynamo=True,
                                      external_data=False)
            return source, kind, tried
        except Exception as e:  # noqa: BLE001 - report and try the next exporter
            tried.append(f"{kind}: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")
            print(f"make_models: {name}: {kind} exporter failed: {tried[-1]}", flush=True)
    raise RuntimeError(f"{name}: every exporter failed: {tried}")


def check(path, name):
    """The export runs in onnxruntime at batch 1 and 2 (the batch axis really is dynamic)."""
    import numpy as np
    import onnx
    import onnxruntime as ort

    onnx.checker.check_model(path)
    sess = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    for n in (1, 2):
        feeds = {}
        for iname, dtype, shape, _ in MODELS[name][1]:
            feeds[iname] = np.ones([n] + shape, dtype=np.int64) if dtype == "int64" else \
                np.zeros([n] + shape, dtype=np.float32)
        outs = sess.run(None, feeds)
        assert outs[0].shape[0] == n, (name, outs[0].shape)


def make(names, force, opset, exporter):
    import torch

    os.makedirs(MODELS_DIR, exist_ok=True)
    torch.set_num_threads(max(1, os.cpu_count() or 1))
    for name in names:
        path = os.path.join(MODELS_DIR, name + ".onnx")
        meta_path = os.path.join(MODELS_DIR, name + ".json")
        if os.path.exists(path) and os.path.exists(meta_path) and not force:
            print(f"make_models: {name}: cached ({path})", flush=True)
            continue
        t0 = time.time()
        tmp = path + ".tmp"
        source, kind, tried = export(name, tmp, opset, exporter)
        check(tmp, name)
        os.replace(tmp, path)
        import onnx
        m = onnx.load(path, load_external_data=False)
        meta = {
            "name": name, "source": source, "seed": MODELS[name][0], "exporter": kind,
            "exporter_failures": tried, "opset": next(o.version for o in m.opset_import if o.domain in ("", "ai.onnx")),
            "torch": torch.__version__,
            "inputs": [{"name": n, "dtype": d, "shape": ["N"] + s, "fill": f} for n, d, s, f in MODELS[name][1]],
        }
        with open(meta_path, "w") as f:
            json.dump(meta, f, indent=1)
        size = os.path.getsize(path) / 2**20
        print(f"make_models: {name}: {source}, {kind} exporter, opset {meta['opset']}, {size:.0f} MiB, "
              f"{time.time() - t0:.0f} s -> {path}", flush=True)


# ---- int8 variants ------------------------------------------------------------------

INT8_CALIBRATION = 8


def quantize(name, force):
    """models/<name>_int8.onnx from models/<name>.onnx (see the module doc)."""
    import numpy as np
    import onnx
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_dynamic, \
        quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    src = os.path.join(MODELS_DIR, name + ".onnx")
    dst = os.path.join(MODELS_DIR, name + "_int8.onnx")
    meta_path = os.path.join(MODELS_DIR, name + "_int8.json")
    if os.path.exists(dst) and os.path.exists(meta_path) and not force:
        print(f"make_models: {name}_int8: cached ({dst})", flush=True)
        return
    t0 = time.time()
    meta = json.load(open(os.path.join(MODELS_DIR, name + ".json")))
    tmp = dst + ".tmp"
    if name == "bert_base":
        quantize_dynamic(src, tmp, weight_type=QuantType.QInt8)
        how = "quantize_dynamic, int8 weights"
    else:
        rng = np.random.default_rng(MODELS[name][0])
        batches = [{i: rng.standard_normal([1] + shape).astype(np.float32) for i, _, shape, _ in MODELS[name][1]}
                   for _ in range(INT8_CALIBRATION)]

        class Reader(CalibrationDataReader):
            def __init__(self):
                self.it = iter(batches)

            def get_next(self):
                return next(self.it, None)

        pre = dst + ".pre.onnx"
        quant_pre_process(src, pre, skip_symbolic_shape=True)
        quantize_static(pre, tmp, Reader(), quant_format=QuantFormat.QDQ, per_channel=True,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8)
        os.remove(pre)
        how = (f"quant_pre_process + quantize_static QDQ, per-channel int8 weights, uint8 activations, "
               f"{INT8_CALIBRATION} random calibration inputs")
    onnx.checker.check_model(tmp)
    os.replace(tmp, dst)
    import onnxruntime
    meta.update(name=name + "_int8", int8_of=name, quantization=how, onnxruntime=onnxruntime.__version__)
    with open(meta_path, "w") as f:
        json.dump(meta, f, indent=1)
    print(f"make_models: {name}_int8: {how}, {os.path.getsize(dst) / 2**20:.0f} MiB, {time.time() - t0:.0f} s "
          f"-> {dst}", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--setup", action="store_true", help="make the venv first, then run in it")
    ap.add_argument("--models", default="all", help="comma-separated names, or 'all'")
    ap.add_argument("--force", action="store_true", help="re-export cached models")
    ap.add_argument("--opset", type=int, default=17)
    ap.add_argument("--exporter", choices=["auto", "legacy", "dynamo"], default="auto",
                    help="auto: TorchScript exporter, then the dynamo one (needs onnxscript)")
    ap.add_argument("--setup-only", action="store_true", help="make the venv, no models")
    ap.add_argument("--int8", action="store_true", help="also make the <name>_int8 variants")
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args()
    if args.list:
        print("\n".join(MODELS))
        return 0
    names = list(MODELS) if args.models == "all" else [n.strip() for n in args.models.split(",") if n.strip()]
    unknown = [n for n in names if n not in MODELS]
    if unknown:
        ap.error(f"unknown model(s) {unknown}; known: {', '.join(MODELS)}")
    if args.setup_only:
        setup_venv()
        return 0
    if args.setup:
        py = setup_venv()
        argv = [a for a in sys.argv[1:] if a != "--setup"]
        return subprocess.call([py, os.path.abspath(__file__)] + argv)
    try:
        import torch  # noqa: F401
    except ImportError:
        print(f"make_models: torch is not importable by {sys.executable}; run with --setup "
              f"(makes {VENV})", file=sys.stderr)
        return 2
    make(names, args.force, args.opset, args.exporter)
    if args.int8:
        for n in names:
            quantize(n, args.force)
    return 0


if __name__ == "__main__":
    sys.exit(main())
