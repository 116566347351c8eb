#!/usr/bin/env python3
"""End-to-end smoke test of the benchmark harness (CTest: Bench.HarnessSmoke).

Runs tools/bench/bench.py on one small committed model, one timed run per
engine, with --profile, and checks that the JSON has every reported field and
that oinfer's outputs agree with onnxruntime's; then once more with
--no-pause, checking the JSON records which mode ran. No torch needed. Exits 77
(CTest skip) when onnxruntime or onnx is not importable.

usage: smoke_test.py SHIM_PATH MODEL_PATH
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    shim, model = sys.argv[1:]
    try:
        import numpy  # noqa: F401
        import onnx  # noqa: F401
        import onnxruntime  # noqa: F401
    except ImportError as e:
        print(f"SKIP: the benchmark needs onnx, onnxruntime and numpy ({e}) in {sys.executable}")
        return 77
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "bench.json")
        cmd = [sys.executable, os.path.join(HERE, "bench.py"), "--shim", shim, "--model", model, "--batch", "1,2",
               "--threads", "1", "--iters", "1", "--min-iters", "1", "--warmup", "1", "--peak-seconds", "0.05",
               "--profile", "--profile-iters", "1", "--json", out, "--note", "smoke test"]
        print("+ " + " ".join(cmd), flush=True)
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=240)
        print(p.stdout)
        print(p.stderr, file=sys.stderr)
        if p.returncode != 0:
            print(f"FAIL: bench.py exited {p.returncode}")
            return 1
        doc = json.load(open(out))
        # The same with the idle engine left running (--no-pause).
        out2 = os.path.join(tmp, "bench_nopause.json")
        cmd2 = [sys.executable, os.path.join(HERE, "bench.py"), "--shim", shim, "--model", model, "--batch", "1",
                "--threads", "1", "--iters", "1", "--min-iters", "1", "--warmup", "1", "--no-peak", "--no-pause",
                "--json", out2]
        print("+ " + " ".join(cmd2), flush=True)
        p2 = subprocess.run(cmd2, capture_output=True, text=True, timeout=240)
        print(p2.stderr, file=sys.stderr)
        if p2.returncode != 0:
            print(f"FAIL: bench.py --no-pause exited {p2.returncode}")
            return 1
        doc2 = json.load(open(out2))
    errors = []
    if doc.get("config", {}).get("pause_idle_engine") is not True:
        errors.append(f"default run: config.pause_idle_engine is {doc.get('config', {}).get('pause_idle_engine')}")
    if doc2.get("config", {}).get("pause_idle_engine") is not False:
        errors.append(f"--no-pause run: config.pause_idle_engine is {doc2.get('config', {}).get('pause_idle_engine')}")
    for r in doc2.get("results", []):
        if not r.get("agree", {}).get("ok") or r.get("oinfer", {}).get("error") or r.get("onnxruntime", {}).get("error"):
            errors.append(f"--no-pause run: {r.get('agree')}")
    if len(doc2.get("results", [])) != 1:
        errors.append(f"--no-pause run: expected 1 result, got {len(doc2.get('results', []))}")

    def need(d, keys, where):
        for k in keys:
            if k not in d:
                errors.append(f"{where}: missing '{k}'")

    need(doc, ["date", "machine", "versions", "config", "results"], "top level")
    need(doc.get("machine", {}), ["cpu", "peak_isa", "peak_gflops"], "machine")
    if not doc.get("machine", {}).get("peak_gflops", {}).get("1", 0) > 0:
        errors.append("machine.peak_gflops['1'] is not a positive number")
    results = doc.get("results", [])
    if len(results) != 2:
        errors.append(f"expected 2 results (batch 1 and 2), got {len(results)}")
    for r in results:
        where = f"result {r.get('model')} batch {r.get('batch')}"
        need(r, ["model", "batch", "threads", "gflop", "ratio", "agree", "oinfer", "onnxruntime", "profile"], where)
        for eng in ("oinfer", "onnxruntime"):
            e = r.get(eng, {})
            if e.get("error"):
                errors.append(f"{where} {eng}: error {e['error']}")
            need(e, ["median_ms", "load_ms", "peak_rss_mb", "gflops", "peak_fraction", "runs"], f"{where} {eng}")
            if not e.get("peak_rss_mb", 0) > 0:
                errors.append(f"{where} {eng}: peak_rss_mb not positive")
        if not r.get("gflop", 0) > 0:
            errors.append(f"{where}: gflop not positive")
        if not r.get("agree", {}).get("ok"):
            errors.append(f"{where}: outputs disagree: {r.get('agree')}")
        prof = r.get("profile", {})
        if not prof.get("by_op"):
            errors.append(f"{where}: empty profile {prof}")
    if "| model |" not in p.stdout:
        errors.append("no markdown table on stdout")
    if errors:
        print("FAIL:\n  " + "\n  ".join(errors))
        return 1
    print("1 passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
