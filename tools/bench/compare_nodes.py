#!/usr/bin/env python3
"""Per-node time, oinfer next to onnxruntime, for one model: where the gap is.

Runs the model in oinfer (profiling on, through the bench shim) and in
onnxruntime (enable_profiling, ORT_ENABLE_ALL, the same intra-op thread count),
each in its own process one after the other, and matches nodes by name. oinfer keeps
the ONNX node name on the node that absorbs a fused one; onnxruntime's NCHWc
rewrite names a node after its output tensor ("<tensor>_nchwc"), which is
mapped back to the Conv (or pool) that produced it through any activation /
Add it absorbed. Nodes left unmatched are listed apart. Prints the nodes by oinfer time
with both times and the ratio, then totals per oinfer op type.

  compare_nodes.py MODEL [--threads N] [--batch B] [--runs R] [--top K]

MODEL: a cached benchmark model name (tools/bench/make_models.py) or an .onnx
path. Kernel times only: both profilers time each node's compute, not the
gaps between nodes. A tuning aid next to bench.py, which measures the latency
users see.
"""
import argparse
import json
import multiprocessing as mp
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench  # noqa: E402


def ort_worker(conn, path, spec, seed, threads, runs, warmup):
    import onnxruntime as ort
    feeds = bench.make_feeds(spec, seed)
    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    sess = ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])
    for _ in range(warmup):
        sess.run(None, feeds)
    so2 = ort.SessionOptions()
    so2.intra_op_num_threads = threads
    so2.inter_op_num_threads = 1
    so2.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    so2.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    so2.enable_profiling = True
    so2.profile_file_prefix = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"oinfer_cmp_{os.getpid()}")
    sess = ort.InferenceSession(path, so2, providers=["CPUExecutionProvider"])
    for _ in range(warmup):
        sess.run(None, feeds)
    prof_start = None
    for _ in range(runs):
        sess.run(None, feeds)
    prof = sess.end_profiling()
    events = json.load(open(prof))
    os.remove(prof)
    # Only the timed runs: the last `runs` model_run events bound them.
    model_runs = sorted((e for e in events if e.get("name") == "model_run"), key=lambda e: e["ts"])
    if len(model_runs) >= runs:
        prof_start = model_runs[-runs]["ts"]
    per = {}
    for e in events:
        if e.get("cat") != "Node" or not e.get("name", "").endswith("_kernel_time"):
            continue
        if prof_start is not None and e["ts"] < prof_start:
            continue
        name = e["name"][: -len("_kernel_time")]
        d = per.setdefault(name, {"op": e.get("args", {}).get("op_name", "?"), "us": 0.0})
        d["us"] += e["dur"]
    conn.send({k: {"op": v["op"], "ms": v["us"] / 1e3 / runs} for k, v in per.items()})
    conn.close()


def oinfer_worker(conn, path, spec, seed, threads, runs, warmup, shim):
    eng = bench.OinferEngine(shim, path, threads, profiling=True)
    feeds = bench.make_feeds(spec, seed)
    eng.load(feeds)
    for _ in range(warmup):
        eng.run()
    eng.lib.obs_reset_profile(eng.h)
    for _ in range(runs):
        eng.run()
    conn.send({p["node"]: {"op": p["op"], "ms": p["ms"] / runs} for p in eng.profile()})
    conn.close()


FUSABLE = {"Relu", "Clip", "Add", "Sigmoid", "Mul", "HardSigmoid", "HardSwish", "LeakyRelu", "Tanh",
           "BatchNormalization"}


def ort_name_map(model):
    """ORT node name -> ONNX node name for NCHWc-renamed nodes."""
    producer = {}
    for n in model.graph.node:
        for o in n.output:
            producer[o] = n

    def origin(tensor):
        n = producer.get(tensor)
        seen = 0
        while n is not None and n.op_type in FUSABLE and seen < 8:
            nxt = None
            for i in n.input:
                p = producer.get(i)
                if p is not None and (p.op_type not in FUSABLE or nxt is None):
                    nxt = p
                    if p.op_type not in FUSABLE:
                        break
            n, seen = nxt, seen + 1
        return n.name if n is not None else None

    return origin


def run_in_process(ctx, target, *args):
    parent, child = ctx.Pipe()
    p = ctx.Process(target=target, args=(child,) + args)
    p.start()
    child.close()
    out = parent.recv()
    p.join()
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("model")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--batch", type=int, default=1)
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--shim")
    args = ap.parse_args()
    import onnx

    path = args.model if args.model.endswith(".onnx") else os.path.join(bench.MODELS_DIR, args.model + ".onnx")
    model = onnx.load(path, load_external_data=False)
    meta_path = os.path.splitext(path)[0] + ".json"
    meta = json.load(open(meta_path)) if os.path.exists(meta_path) else None
    light, weights = bench.light_model(model)
    spec = bench.input_spec(light, meta, args.batch, {}, weights)
    shim = bench.find_shim(args.shim)
    ctx = mp.get_context("spawn")
    ours = run_in_process(ctx, oinfer_worker, path, spec, args.seed, args.threads, args.runs, args.warmup, shim)
    theirs = run_in_process(ctx, ort_worker, path, spec, args.seed, args.threads, args.runs, args.warmup)
    origin = ort_name_map(model)
    renamed = {}
    for k, v in theirs.items():
        key = k
        if k.endswith("_nchwc") and k not in ours:
            key = origin(k[: -len("_nchwc")]) or k
        d = renamed.setdefault(key, {"op": v["op"], "ms": 0.0})
        d["ms"] += v["ms"]
    theirs = renamed
    total_o = sum(v["ms"] for v in ours.values())
    total_t = sum(v["ms"] for v in theirs.values())
    print(f"{os.path.basename(path)}: batch {args.batch}, {args.threads} thread(s), kernel ms per run: "
          f"oinfer {total_o:.2f}, onnxruntime {total_t:.2f} (ratio {total_o / max(total_t, 1e-9):.2f})")
    print("| node | oinfer op | oinfer ms | ORT op | ORT ms | ratio |\n|---|---|---|---|---|---|")
    for name, v in sorted(ours.items(), key=lambda kv: -kv[1]["ms"])[: args.top]:
        t = theirs.get(name)
        ratio = f"{v['ms'] / t['ms']:.2f}" if t and t["ms"] > 0 else "-"
        print(f"| {name} | {v['op']} | {v['ms']:.3f} | {t['op'] if t else '(fused away)'} | "
              f"{t['ms']:.3f} | {ratio} |" if t else
              f"| {name} | {v['op']} | {v['ms']:.3f} | (not a node) | - | - |")
    missing = sorted(((k, v) for k, v in theirs.items() if k not in ours), key=lambda kv: -kv[1]["ms"])
    if missing:
        print("\nonnxruntime nodes with no oinfer node of that name (fused on our side, or ORT-inserted):")
        for k, v in missing[: args.top]:
            print(f"  {k} ({v['op']}) {v['ms']:.3f} ms")


if __name__ == "__main__":
    main()
