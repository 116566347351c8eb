#!/usr/bin/env python3
"""oinfer --device cuda against PyTorch eager on the same GPU (tools/gpu_check.sh).

Exports ResNet-50 (batch 1 and 32) and a BERT-base-sized encoder (sequence
128, batch 1 and 8) with torch.onnx from randomly initialised weights (no
downloads), times PyTorch eager in fp32 (TF32 off, as oinfer's default) with
CUDA events on device-resident inputs, runs `oinfer-run --device cuda --bench`
on the same inputs (its latency includes the host<->device copies of inputs
and outputs), compares the outputs, and appends a markdown table to REPORT.

usage: gpu_bench.py OINFER_RUN WORKDIR REPORT [--runs N] [--time-budget S]
"""
import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np
import torch


def export(model, args, path, input_names, output_names):
    kw = dict(input_names=input_names, output_names=output_names, opset_version=17)
    try:
        torch.onnx.export(model, args, path, dynamo=False, **kw)
    except TypeError:
        torch.onnx.export(model, args, path, **kw)
    except Exception as e:  # the legacy exporter may be gone: the dynamo one
        print(f"legacy export failed ({e}); trying dynamo=True", flush=True)
        torch.onnx.export(model, args, path, dynamo=True, **kw)


def eager_ms(model, args, runs):
    with torch.inference_mode():
        for _ in range(5):
            model(*args)
        torch.cuda.synchronize()
        times = []
        for _ in range(runs):
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record()
            model(*args)
            e.record()
            e.synchronize()
            times.append(s.elapsed_time(e))
    times.sort()
    return times[len(times) // 2], times[0]


def run_oinfer(run, model_path, feeds, outdir, runs, timeout):
    cmd = [run, model_path, "--device", "cuda", "--bench", str(runs), "--warmup", "5", "--json",
           "--output-dir", outdir]
    for name, path in feeds.items():
        cmd += ["--input", f"{name}={path}"]
    t0 = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if p.returncode != 0:
        return None, (p.stderr.strip().splitlines() or ["exit %d" % p.returncode])[-1], time.time() - t0
    return json.loads(p.stdout), None, time.time() - t0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("run")
    ap.add_argument("workdir")
    ap.add_argument("report")
    ap.add_argument("--runs", type=int, default=50)
    ap.add_argument("--time-budget", type=float, default=200.0)
    a = ap.parse_args()
    start = time.time()
    os.makedirs(a.workdir, exist_ok=True)
    torch.manual_seed(0)
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cuda.matmul.allow_tf32 = False
    dev = torch.device("cuda")
    rows = []

    def left():
        return a.time_budget - (time.time() - start)

    configs = []
    import torchvision
    resnet = torchvision.models.resnet50(weights=None).eval()
    for b in (1, 32):
        configs.append(("ResNet-50", f"batch {b}", resnet, [torch.randn(b, 3, 224, 224)], ["pixels"], ["logits"], b))
    try:
        from transformers import BertConfig, BertModel
        bert = BertModel(BertConfig(), add_pooling_layer=False).eval()  # 12 layers, hidden 768, 12 heads
        bert.config.return_dict = False
        for b in (1, 8):
            ids = torch.randint(0, 30000, (b, 128), dtype=torch.int64)
            configs.append(("BERT-base encoder", f"batch {b}, seq 128", bert, [ids], ["input_ids"], ["hidden"], b))
    except Exception as e:  # transformers missing: report it, keep ResNet
        rows.append(("BERT-base encoder", "-", "-", "-", "-", f"skipped: {e}"))

    for name, shape, model, args, in_names, out_names, batch in configs:
        if left() < 20:
            rows.append((name, shape, "-", "-", "-", "skipped: out of time"))
            continue
        tag = f"{name.split()[0].lower()}_b{batch}"
        path = os.path.join(a.workdir, tag + ".onnx")
        try:
            with torch.inference_mode():
                export(model, tuple(args), path, in_names, out_names)
        except Exception as e:
            rows.append((name, shape, "-", "-", "-", f"export failed: {e}"))
            continue
        feeds = {}
        for n, t in zip(in_names, args):
            fp = os.path.join(a.workdir, f"{tag}_{n}.npy")
            np.save(fp, t.numpy())
            feeds[n] = fp
        m = model.to(dev)
        dargs = [t.to(dev) for t in args]
        with torch.inference_mode():
            ref = m(*dargs)
            ref = (ref[0] if isinstance(ref, (tuple, list)) else ref).float().cpu().numpy()
        med, best = eager_ms(m, dargs, a.runs)
        outdir = os.path.join(a.workdir, tag + "_out")
        os.makedirs(outdir, exist_ok=True)
        res, err, secs = run_oinfer(a.run, path, feeds, outdir, a.runs, timeout=max(20, min(120, left())))
        model.to("cpu")
        if res is None:
            rows.append((name, shape, f"{med:.3f}", "-", "-", f"oinfer failed: {err}"))
            continue
        b = res["bench"]
        ours = b["median_ms"]
        check = "no output"
        got_path = os.path.join(outdir, out_names[0] + ".npy")
        if os.path.exists(got_path):
            got = np.load(got_path).astype(np.float32)
            if got.shape == ref.shape:
                diff = float(np.max(np.abs(got - ref)))
                ok = np.allclose(got, ref, rtol=1e-3, atol=1e-4)
                check = f"max abs diff {diff:.2e} ({'ok' if ok else 'MISMATCH'} at rtol 1e-3 atol 1e-4)"
            else:
                check = f"shape {got.shape} vs {ref.shape}"
        thr = f"{1000.0 * batch / ours:.1f}/s" if batch > 1 else ""
        rows.append((name, shape, f"{med:.3f} (best {best:.3f})", f"{ours:.3f} (min {b['min_ms']:.3f})",
                     f"{med / ours:.2f}x {thr}".strip(), check))

    with open(a.report, "a") as f:
        f.write(f"\n## Benchmark: oinfer --device cuda vs PyTorch {torch.__version__} eager (fp32, TF32 off)\n\n")
        f.write(f"GPU: {torch.cuda.get_device_name(0)}; {a.runs} timed runs each, median latency in ms. "
                "PyTorch: CUDA events around one forward on device-resident inputs. oinfer: `oinfer-run --bench` "
                "wall time of Session::run with host inputs (includes host<->device copies).\n\n")
        f.write("| model | shape | PyTorch eager ms | oinfer ms | speed-up (eager/oinfer) | outputs vs PyTorch |\n")
        f.write("| --- | --- | --- | --- | --- | --- |\n")
        for r in rows:
            f.write("| " + " | ".join(str(x).replace("|", "/") for x in r) + " |\n")
    print("\n".join(" | ".join(map(str, r)) for r in rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
