#!/usr/bin/env python3
"""oinfer vs onnxruntime (and OpenVINO), side by side, on real models.

For every (model, batch, threads) configuration, one worker process per
engine is started (oinfer, onnxruntime, and OpenVINO with the f32 precision
hint when the openvino package imports, or with --openvino), so each one's peak resident memory is its own. Each
loads its model (oinfer: Graph::loadFromONNX + Session + the first plan;
onnxruntime: InferenceSession with ORT_ENABLE_ALL and the same intra-op thread
count), warms up, then the parent has them run one inference each in turn,
alternating which goes first, so a shared machine's slow spells hit both
engines alike. Each worker times only its own run call. While one engine runs,
the other's process is paused (SIGSTOP; SIGCONT before its own turn), as if
it were not on the machine: onnxruntime's pool threads keep spinning for a
while after a run, and left running they took one of the two cores from
oinfer's timed runs (SqueezeNet 1.1 at 2 threads: oinfer 17.9 ms next to a
spinning onnxruntime, 8.3 ms with onnxruntime's spinning off, 6.5 ms alone).
--no-pause turns the pausing off.

Reported per configuration: median latency of each engine and the ratios
oinfer / onnxruntime and oinfer / OpenVINO (then their geometric means and
worst cases over the run), achieved GFLOP/s and its fraction of the machine's fp32
peak (an FMA loop measured at the same thread count), peak resident memory
(VmHWM) of each worker, load-plus-plan time, and whether the outputs of the
last run agree (rtol 1e-3, atol 1e-4). FLOPs are counted from the ONNX graph:
2 x the multiply-adds of Conv, ConvTranspose, Gemm and MatMul, with shapes from
onnx shape inference at the configuration's batch.

Output: a markdown table on stdout and a JSON file (--json).

Models: the cached ones from tools/bench/make_models.py (--models), or any
.onnx file (--model PATH, repeatable). Inputs are random with a fixed seed:
floats standard normal (uniform [0,1) if the model's .json says so), integer
inputs from the .json's range (token ids), masks all ones. A leading symbolic
dim is the batch; other symbolic dims need --dim NAME=VALUE.
"""
import argparse
import ctypes
import datetime
import json
import math
import multiprocessing as mp
import os
import platform
import signal
import statistics
import sys
import time

# numpy (imported by both workers for their inputs) would otherwise start an
# OpenBLAS thread pool whose threads poll for work: CPU taken from the engines'
# runs on a 2-core machine (1.4% of a SqueezeNet run's samples). Inherited by
# the spawned workers.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CACHE = os.environ.get("OINFER_BENCH_CACHE", os.path.join(os.path.expanduser("~"), ".cache", "oinfer-bench"))
MODELS_DIR = os.path.join(CACHE, "models")
DEFAULT_MODELS = ["resnet50", "mobilenetv2", "squeezenet1_1", "efficientnet_b0", "srcnn", "bert_base", "vit_b_16"]
RTOL, ATOL = 1e-3, 1e-4

# ONNX TensorProto data types <-> numpy names, for the types models feed.
ONNX_TO_NP = {1: "float32", 2: "uint8", 3: "int8", 5: "int16", 6: "int32", 7: "int64", 9: "bool", 10: "float16",
              11: "float64", 12: "uint32", 13: "uint64"}
NP_TO_ONNX = {v: k for k, v in ONNX_TO_NP.items()}


# ---- memory --------------------------------------------------------------------

def _status_kb(field):
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    import resource
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # kB on Linux


def rss_mb():
    return _status_kb("VmRSS") / 1024.0


def peak_rss_mb():
    return _status_kb("VmHWM") / 1024.0


# ---- the shim ------------------------------------------------------------------

def find_shim(explicit=None):
    cands = [explicit] if explicit else []
    env = os.environ.get("OINFER_BENCH_SHIM")
    if env:
        cands.append(env)
    for b in ("build-bench", "build"):
        cands.append(os.path.join(ROOT, b, "liboinfer_bench_shim.so"))
    for c in cands:
        if c and os.path.exists(c):
            return os.path.abspath(c)
    raise SystemExit("bench: liboinfer_bench_shim.so not found (build the oinfer_bench_shim target, "
                     "or pass --shim PATH); tried: " + ", ".join(c for c in cands if c))


def load_shim(path):
    lib = ctypes.CDLL(path)
    P = ctypes.c_void_p
    lib.obs_last_error.restype = ctypes.c_char_p
    lib.obs_peak_isa.restype = ctypes.c_char_p
    lib.obs_peak_gflops.restype = ctypes.c_double
    lib.obs_peak_gflops.argtypes = [ctypes.c_int, ctypes.c_double, ctypes.c_int]
    lib.obs_load.restype = P
    lib.obs_load.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                             ctypes.POINTER(ctypes.c_char_p), ctypes.POINTER(ctypes.c_int),
                             ctypes.POINTER(ctypes.c_int64)]
    lib.obs_free.argtypes = [P]
    lib.obs_run.restype = ctypes.c_int
    lib.obs_run.argtypes = [P, ctypes.c_int, ctypes.POINTER(ctypes.c_char_p), ctypes.POINTER(ctypes.c_int),
                            ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int64), ctypes.POINTER(P)]
    lib.obs_output.restype = P
    lib.obs_output.argtypes = [P, ctypes.c_int, ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int),
                               ctypes.POINTER(ctypes.c_int64), ctypes.c_int]
    lib.obs_output_names.restype = ctypes.c_char_p
    lib.obs_output_names.argtypes = [P]
    lib.obs_profile_json.restype = ctypes.c_char_p
    lib.obs_profile_json.argtypes = [P]
    lib.obs_reset_profile.argtypes = [P]
    return lib


class OinferEngine:
    """oinfer through its C++ API (the shim)."""

    def __init__(self, shim, path, threads, profiling=False, opt_level=-1):
        self.lib = load_shim(shim)
        self.path, self.threads, self.profiling, self.opt_level = path, threads, profiling, opt_level
        self.h = None

    def load(self, feeds):
        n = len(feeds)
        self.names = (ctypes.c_char_p * n)(*[k.encode() for k in feeds])
        self.ranks = (ctypes.c_int * n)(*[v.ndim for v in feeds.values()])
        dims = [d for v in feeds.values() for d in v.shape]
        self.dims = (ctypes.c_int64 * max(len(dims), 1))(*dims)
        self.dtypes = (ctypes.c_int * n)(*[NP_TO_ONNX[str(v.dtype)] for v in feeds.values()])
        self.keep = list(feeds.values())  # the buffers oinfer wraps must outlive the runs
        self.ptrs = (ctypes.c_void_p * n)(*[v.ctypes.data for v in self.keep])
        self.h = self.lib.obs_load(self.path.encode(), self.threads, int(self.profiling), self.opt_level, n,
                                   self.names, self.ranks, self.dims)
        if not self.h:
            raise RuntimeError(self.lib.obs_last_error().decode(errors="replace"))
        self.n = n

    def run(self):
        k = self.lib.obs_run(self.h, self.n, self.names, self.dtypes, self.ranks, self.dims, self.ptrs)
        if k < 0:
            raise RuntimeError(self.lib.obs_last_error().decode(errors="replace"))
        self.nout = k

    def outputs(self):
        import numpy as np
        names = self.lib.obs_output_names(self.h).decode().split("\n")
        outs = {}
        for i in range(self.nout):
            dt, rank = ctypes.c_int(), ctypes.c_int()
            dims = (ctypes.c_int64 * 16)()
            p = self.lib.obs_output(self.h, i, ctypes.byref(dt), ctypes.byref(rank), dims, 16)
            shape = tuple(dims[j] for j in range(rank.value))
            dtype = np.dtype(ONNX_TO_NP.get(dt.value, "float32"))
            count = int(np.prod(shape)) if shape else 1
            if p is None or count == 0:
                arr = np.zeros(shape, dtype)
            else:
                buf = (ctypes.c_char * (count * dtype.itemsize)).from_address(p)
                arr = np.frombuffer(buf, dtype=dtype).reshape(shape).copy()
            outs[names[i] if i < len(names) else f"output_{i}"] = arr
        return outs

    def profile(self):
        return json.loads(self.lib.obs_profile_json(self.h).decode())


class OrtEngine:
    def __init__(self, path, threads):
        import onnxruntime as ort
        self.ort, self.path, self.threads = ort, path, threads

    def load(self, feeds):
        so = self.ort.SessionOptions()
        so.intra_op_num_threads = self.threads
        so.inter_op_num_threads = 1
        so.execution_mode = self.ort.ExecutionMode.ORT_SEQUENTIAL
        so.graph_optimization_level = self.ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        self.sess = self.ort.InferenceSession(self.path, so, providers=["CPUExecutionProvider"])
        self.feeds = feeds
        self.names = [o.name for o in self.sess.get_outputs()]

    def run(self):
        self.out = self.sess.run(None, self.feeds)

    def outputs(self):
        return dict(zip(self.names, self.out))


class OvEngine:
    """OpenVINO on the CPU with the f32 precision hint (no bf16 on AMX hosts,
    so the comparison stays fp32), latency mode, the same thread count."""

    def __init__(self, path, threads):
        import openvino as ov
        self.ov, self.path, self.threads = ov, path, threads

    def load(self, feeds):
        core = self.ov.Core()
        cfg = {"INFERENCE_NUM_THREADS": self.threads, "INFERENCE_PRECISION_HINT": "f32",
               "PERFORMANCE_HINT": "LATENCY", "NUM_STREAMS": 1}
        self.compiled = core.compile_model(core.read_model(self.path), "CPU", cfg)
        self.req = self.compiled.create_infer_request()
        self.feeds = feeds
        self.names = [o.get_any_name() for o in self.compiled.outputs]

    def run(self):
        self.req.infer(self.feeds)

    def outputs(self):
        import numpy as np
        return {n: np.array(self.req.get_output_tensor(i).data) for i, n in enumerate(self.names)}


class OrtRefEngine(OrtEngine):
    """onnxruntime with its graph optimizations off: for a QDQ model, the
    reference semantics (DQ -> float op -> Q), which --int8 measures accuracy
    against. Never timed."""

    def load(self, feeds):
        so = self.ort.SessionOptions()
        so.intra_op_num_threads = self.threads
        so.graph_optimization_level = self.ort.GraphOptimizationLevel.ORT_DISABLE_ALL
        self.sess = self.ort.InferenceSession(self.path, so, providers=["CPUExecutionProvider"])
        self.feeds = feeds
        self.names = [o.name for o in self.sess.get_outputs()]


ENGINES = {"onnxruntime": OrtEngine, "openvino": OvEngine, "onnxruntime_ref": OrtRefEngine}


def have_openvino():
    try:
        import openvino  # noqa: F401
        return True
    except ImportError:
        return False


# ---- inputs --------------------------------------------------------------------

def make_feeds(spec, seed):
    import numpy as np
    rng = np.random.default_rng(seed)
    feeds = {}
    for name, dtype, shape, fill in spec:
        if fill == "ones":
            a = np.ones(shape, dtype)
        elif fill == "zeros":
            a = np.zeros(shape, dtype)
        elif fill.startswith("int:"):
            _, lo, hi = fill.split(":")
            a = rng.integers(int(lo), int(hi), size=shape).astype(dtype)
        elif fill == "uniform":
            a = rng.uniform(0, 1, shape).astype(dtype)
        elif dtype == "bool":
            a = np.ones(shape, bool)
        elif dtype.startswith("int") or dtype.startswith("uint"):
            a = rng.integers(0, 2, size=shape).astype(dtype)
        else:
            a = rng.standard_normal(shape).astype(dtype)
        feeds[name] = np.ascontiguousarray(a)
    return feeds


def input_spec(model, meta, batch, dims, skip=()):
    """[(name, numpy dtype, concrete shape, fill)] for the graph inputs (minus
    initializers and the names in `skip`)."""
    inits = {i.name for i in model.graph.initializer} | set(skip)
    fills = {i["name"]: i.get("fill", "normal") for i in (meta or {}).get("inputs", [])}
    spec = []
    for vi in model.graph.input:
        if vi.name in inits:
            continue
        tt = vi.type.tensor_type
        shape = []
        for k, d in enumerate(tt.shape.dim):
            if d.HasField("dim_value"):
                shape.append(d.dim_value)
            elif d.dim_param in dims:
                shape.append(dims[d.dim_param])
            elif k == 0:
                shape.append(batch)
            else:
                raise SystemExit(f"bench: input {vi.name} dim {k} is '{d.dim_param}'; give --dim "
                                 f"{d.dim_param or 'NAME'}=VALUE")
        dtype = ONNX_TO_NP.get(tt.elem_type)
        if dtype is None:
            raise SystemExit(f"bench: input {vi.name} has element type {tt.elem_type}, not handled")
        name = vi.name
        fill = fills.get(name) or ("ones" if "mask" in name else "zeros" if "token_type" in name else "normal")
        spec.append((name, dtype, shape, fill))
    return spec


# ---- FLOPs ---------------------------------------------------------------------

def light_model(model):
    """A copy without large weight payloads (their shapes kept as typed graph
    inputs), so shape inference on a 400 MB model stays cheap. Small integer
    initializers keep their values: Reshape targets need them."""
    import onnx
    from onnx import helper
    light = onnx.ModelProto()
    light.ir_version = model.ir_version
    light.opset_import.extend(model.opset_import)
    g = light.graph
    g.node.extend(model.graph.node)
    g.output.extend(model.graph.output)
    g.input.extend(model.graph.input)
    have = {i.name for i in model.graph.input}
    weights = set()
    for t in model.graph.initializer:
        n = math.prod(t.dims) if t.dims else 1
        if n <= 4096 and t.data_type in (6, 7):
            g.initializer.append(t)
        else:
            weights.add(t.name)
            if t.name not in have:
                g.input.append(helper.make_tensor_value_info(t.name, t.data_type, list(t.dims)))
    return light, weights


def count_flops(light, spec, batch, known=None):
    """2 x multiply-adds of Conv/ConvTranspose/Gemm/MatMul at the spec's shapes.
    Returns (flops, nodes whose shapes stayed unknown).

    onnx shape inference loses the batch dim through some exporter patterns
    (BERT's position-id Slice/Expand/GatherElements chain), so a leading dim it
    left symbolic is taken to be the batch, the only dynamic dim here."""
    import onnx
    m = onnx.ModelProto()
    m.CopyFrom(light)
    concrete = {n: s for n, _, s, _ in spec}
    for vi in m.graph.input:
        if vi.name in concrete:
            dims = vi.type.tensor_type.shape.dim
            for d, v in zip(dims, concrete[vi.name]):
                d.Clear()
                d.dim_value = v
    try:
        m = onnx.shape_inference.infer_shapes(m, data_prop=True)
    except Exception:
        m = onnx.shape_inference.infer_shapes(m)
    shapes = {}
    for vi in list(m.graph.input) + list(m.graph.value_info) + list(m.graph.output):
        dims = list(vi.type.tensor_type.shape.dim)
        if dims and not dims[0].HasField("dim_value"):
            dims[0] = onnx.TensorShapeProto.Dimension(dim_value=batch)
        if all(d.HasField("dim_value") for d in dims):
            shapes[vi.name] = [d.dim_value for d in dims]
    for t in m.graph.initializer:
        shapes[t.name] = list(t.dims)
    shapes.update(known or {})

    def numel(s):
        return math.prod(s) if s else 1

    macs, unknown, missing = 0, 0, []
    for node in m.graph.node:
        op = node.op_type
        if op not in ("Conv", "ConvTranspose", "Gemm", "MatMul"):
            continue
        ins = [shapes.get(i) for i in node.input]
        out = shapes.get(node.output[0])
        try:
            if op == "Conv":
                macs += numel(out) * numel(ins[1][1:])
            elif op == "ConvTranspose":
                macs += numel(ins[0]) * numel(ins[1][1:])
            elif op == "Gemm":
                ta = next((a.i for a in node.attribute if a.name == "transA"), 0)
                k = ins[0][0] if ta else ins[0][1]
                macs += numel(out) * k
            else:
                macs += numel(out) * ins[0][-1]
        except (TypeError, IndexError):
            unknown += 1
            missing += [v for v in list(node.input[:2]) + [node.output[0]] if v and v not in shapes]
            if os.environ.get("OINFER_BENCH_DEBUG_FLOPS"):
                print(f"flops: {node.name} ({op}) shapes {ins} -> {out}", file=sys.stderr)
    return 2 * macs, unknown, missing


def shapes_from_ort(path, spec, seed, names):
    """Actual shapes of the named values: one onnxruntime run of the model
    with them exposed as outputs, for what shape inference could not tell."""
    import onnx
    import onnxruntime as ort
    m = onnx.load(path)
    have = {o.name for o in m.graph.output}
    names = list(dict.fromkeys(names))
    for n in names:
        if n not in have:
            m.graph.output.append(onnx.ValueInfoProto(name=n))
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    sess = ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"])
    del m
    outs = sess.run(names, make_feeds(spec, seed))
    return {n: list(o.shape) for n, o in zip(names, outs)}


# ---- workers -------------------------------------------------------------------

def worker(conn, engine, path, spec, seed, threads, shim, warmup, profiling, opt_level):
    """One engine in its own process. Protocol: sends ("ready", info) or
    ("error", msg); then answers "run" with the run's seconds and "finish" with
    (outputs, memory, profile)."""
    try:
        import numpy as np  # noqa: F401
        feeds = make_feeds(spec, seed)
        base = rss_mb()
        if engine == "oinfer":
            eng = OinferEngine(shim, path, threads, profiling, opt_level)
        else:
            eng = ENGINES[engine](path, threads)
        t0 = time.perf_counter()
        eng.load(feeds)
        load_s = time.perf_counter() - t0
        first = None
        for i in range(max(warmup, 1)):
            t = time.perf_counter()
            eng.run()
            if i == 0:
                first = time.perf_counter() - t
        conn.send(("ready", {"load_s": load_s, "first_run_s": first, "base_rss_mb": base}))
    except Exception as e:  # noqa: BLE001
        conn.send(("error", f"{type(e).__name__}: {e}"))
        conn.close()
        return
    while True:
        cmd = conn.recv()
        if cmd == "run":
            try:
                t = time.perf_counter()
                eng.run()
                conn.send(("ok", time.perf_counter() - t))
            except Exception as e:  # noqa: BLE001
                conn.send(("error", f"{type(e).__name__}: {e}"))
        elif cmd == "reset_profile":
            eng.lib.obs_reset_profile(eng.h)
            conn.send(("ok", None))
        elif cmd == "finish":
            prof = eng.profile() if profiling else None
            conn.send(("ok", {"outputs": eng.outputs(), "peak_rss_mb": peak_rss_mb(), "rss_mb": rss_mb(),
                              "profile": prof}))
            conn.close()
            return


def _proc_state(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return None


class Worker:
    def __init__(self, ctx, engine, *args):
        self.engine = engine
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=worker, args=(child, engine) + args, daemon=True)
        self.proc.start()
        child.close()
        self.error = None
        self.info = None

    def wait_ready(self, timeout):
        if not self.conn.poll(timeout):
            self.error = f"load timed out after {timeout:.0f} s"
            return
        try:
            kind, val = self.conn.recv()
        except EOFError:
            self.error = f"worker died during load (exit code {self.proc.join(5) or self.proc.exitcode})"
            return
        if kind == "error":
            self.error = val
        else:
            self.info = val

    def call(self, cmd, timeout=600):
        self.conn.send(cmd)
        if not self.conn.poll(timeout):
            self.proc.kill()
            raise RuntimeError(f"'{cmd}' took more than {timeout:.0f} s; worker killed")
        try:
            kind, val = self.conn.recv()
        except EOFError:
            self.proc.join(5)
            raise RuntimeError(f"worker died (exit code {self.proc.exitcode})")
        if kind == "error":
            raise RuntimeError(val)
        return val

    def pause(self):
        """SIGSTOP, and wait (up to 0.5 s) until the process is stopped."""
        if not self.proc.is_alive():
            return
        os.kill(self.proc.pid, signal.SIGSTOP)
        deadline = time.perf_counter() + 0.5
        while _proc_state(self.proc.pid) not in ("T", "t", None) and time.perf_counter() < deadline:
            time.sleep(0.0005)

    def resume(self):
        if self.proc.is_alive():
            os.kill(self.proc.pid, signal.SIGCONT)

    def stop(self):
        self.resume()
        if self.proc.is_alive():
            self.proc.join(10)
        if self.proc.is_alive():
            self.proc.terminate()
            self.proc.join(5)


def compare(a, b):
    import numpy as np
    if a is None or b is None:
        return {"ok": False, "detail": "missing outputs"}
    res = {"ok": True, "outputs": []}
    for (na, x), (nb, y) in zip(a.items(), b.items()):
        entry = {"name": nb, "shape": list(y.shape)}
        if x.shape != y.shape:
            entry.update(ok=False, detail=f"shape {list(x.shape)} vs {list(y.shape)}")
        else:
            xf, yf = x.astype(np.float64), y.astype(np.float64)
            diff = np.abs(xf - yf)
            ok = bool(np.all(diff <= ATOL + RTOL * np.abs(yf)) and np.array_equal(np.isnan(xf), np.isnan(yf)))
            entry.update(ok=ok, max_abs_diff=float(np.nanmax(diff)) if diff.size else 0.0,
                         max_abs_ref=float(np.nanmax(np.abs(yf))) if yf.size else 0.0)
        res["ok"] = res["ok"] and entry["ok"]
        res["outputs"].append(entry)
    if len(a) != len(b):
        res["ok"] = False
        res["detail"] = f"{len(a)} outputs vs {len(b)}"
    res["max_abs_diff"] = max((o.get("max_abs_diff", math.inf) for o in res["outputs"]), default=0.0)
    return res


def summarize(times):
    ms = [t * 1e3 for t in times]
    return {"median_ms": statistics.median(ms), "min_ms": min(ms), "mean_ms": statistics.fmean(ms),
            "stdev_ms": statistics.stdev(ms) if len(ms) > 1 else 0.0, "runs": len(ms)}


def int8_accuracy(outs, ref, steps):
    """Per output of a quantized model: max |diff| against the reference in
    units of the output's quantization step (when a DequantizeLinear writes
    it), max |diff|, and cosine similarity."""
    import numpy as np
    acc = []
    for (name, x), y in zip(outs.items(), ref.values()):
        xf, yf = x.astype(np.float64).ravel(), y.astype(np.float64).ravel()
        if xf.shape != yf.shape:
            acc.append({"name": name, "error": f"shape {x.shape} vs {y.shape}"})
            continue
        d = float(np.max(np.abs(xf - yf))) if xf.size else 0.0
        den = float(np.linalg.norm(xf) * np.linalg.norm(yf))
        cos = float(np.dot(xf, yf) / den) if den > 0 else (1.0 if d == 0 else 0.0)
        step = steps.get(name)
        acc.append({"name": name, "max_abs_diff": d, "step": step, "max_steps": d / step if step else None,
                    "cosine": cos})
    return acc


def output_steps(path):
    """Graph output -> scale of the DequantizeLinear that writes it (QDQ models)."""
    import onnx
    from onnx import numpy_helper
    m = onnx.load(path, load_external_data=False)
    inits = {t.name: t for t in m.graph.initializer}
    steps = {}
    outs = {o.name for o in m.graph.output}
    for n in m.graph.node:
        if n.op_type == "DequantizeLinear" and n.output[0] in outs and n.input[1] in inits:
            s = numpy_helper.to_array(inits[n.input[1]])
            if s.size == 1:
                steps[n.output[0]] = float(s.ravel()[0])
    return steps


def bench_config(ctx, args, shim, path, spec, flops, threads, peak, fp32_path=None):
    """Runs one (model, batch, threads) configuration; returns its result dict.
    With fp32_path (--int8: `path` is the quantized model), oinfer on the fp32
    model runs alongside as "oinfer_fp32", and afterwards onnxruntime with
    optimizations off gives the reference the int8 engines are measured
    against."""
    res = {"threads": threads}
    common = (spec, args.seed, threads, shim, args.warmup)
    workers = {}
    runs = [(e, e, path) for e in ("oinfer", "onnxruntime") + (("openvino",) if args.openvino else ())]
    if fp32_path:
        runs.append(("oinfer_fp32", "oinfer", fp32_path))
    # Loaded one after the other, so no load competes with another.
    for label, eng, p in runs:
        w = Worker(ctx, eng, p, *common, False, args.opt_level)
        w.wait_ready(args.load_timeout)
        workers[label] = w
    times = {e: [] for e in workers}
    live = [e for e, w in workers.items() if w.error is None]
    t_start = time.perf_counter()
    i = 0
    while live and i < args.iters:
        if i >= args.min_iters and time.perf_counter() - t_start > args.max_seconds:
            break
        order = live if i % 2 == 0 else live[::-1]
        for e in order:
            if args.pause:
                for other in live:
                    if other != e:
                        workers[other].pause()
                workers[e].resume()
            try:
                times[e].append(workers[e].call("run"))
            except RuntimeError as err:
                workers[e].error = str(err)
        live = [e for e in live if workers[e].error is None]
        i += 1
    for w in workers.values():
        w.resume()
    outs = {}
    for e, w in workers.items():
        r = {"error": w.error}
        if w.info:
            r.update(load_ms=w.info["load_s"] * 1e3, first_run_ms=w.info["first_run_s"] * 1e3,
                     base_rss_mb=w.info["base_rss_mb"])
        if w.error is None:
            try:
                fin = w.call("finish")
                outs[e] = fin["outputs"]
                r.update(peak_rss_mb=fin["peak_rss_mb"], rss_mb=fin["rss_mb"])
            except RuntimeError as err:
                r["error"] = str(err)
        if times[e]:
            r.update(summarize(times[e]))
            if flops:
                r["gflops"] = flops / (r["median_ms"] / 1e3) / 1e9
        w.stop()
        res[e] = r
    o, t = res["oinfer"], res["onnxruntime"]
    if "median_ms" in o and "median_ms" in t and not o["error"] and not t["error"]:
        res["ratio"] = o["median_ms"] / t["median_ms"]
    v = res.get("openvino")
    if v and "median_ms" in o and "median_ms" in v and not o["error"] and not v["error"]:
        res["ratio_ov"] = o["median_ms"] / v["median_ms"]
    res["agree"] = compare(outs.get("oinfer"), outs.get("onnxruntime")) if "oinfer" in outs and \
        "onnxruntime" in outs else {"ok": False, "detail": "an engine failed"}
    f = res.get("oinfer_fp32")
    if f and "median_ms" in o and "median_ms" in f and not o["error"] and not f["error"]:
        res["ratio_fp32"] = o["median_ms"] / f["median_ms"]
    if fp32_path:
        ref = Worker(ctx, "onnxruntime_ref", path, spec, args.seed, threads, shim, 1, False, args.opt_level)
        ref.wait_ready(args.load_timeout)
        try:
            ref_out = ref.call("finish")["outputs"] if ref.error is None else None
        except RuntimeError as err:
            ref.error, ref_out = str(err), None
        ref.stop()
        if ref_out is None:
            res["int8_accuracy"] = {"error": ref.error}
        else:
            steps = output_steps(path)
            res["int8_accuracy"] = {e: int8_accuracy(outs[e], ref_out, steps) for e in ("oinfer", "onnxruntime")
                                    if e in outs}
    if args.profile and res["oinfer"].get("error") is None:
        res["profile"] = profile_config(ctx, args, shim, path, spec, threads)
    return res


def profile_config(ctx, args, shim, path, spec, threads):
    """oinfer alone with profiling on (its own process, so the timed run above
    pays no profiling cost): time share per op type."""
    w = Worker(ctx, "oinfer", path, spec, args.seed, threads, shim, args.warmup, True, args.opt_level)
    w.wait_ready(args.load_timeout)
    if w.error:
        w.stop()
        return {"error": w.error}
    try:
        w.call("reset_profile")
        runs = max(1, min(args.iters, args.profile_iters))
        for _ in range(runs):
            w.call("run")
        fin = w.call("finish")
    except RuntimeError as err:
        w.stop()
        return {"error": str(err)}
    w.stop()
    by_op = {}
    for p in fin["profile"] or []:
        d = by_op.setdefault(p["op"], {"ms": 0.0, "nodes": 0})
        d["ms"] += p["ms"]
        d["nodes"] += 1
    total = sum(d["ms"] for d in by_op.values()) or 1.0
    ops = sorted(({"op": k, "ms_per_run": v["ms"] / runs, "share": v["ms"] / total, "nodes": v["nodes"]}
                  for k, v in by_op.items()), key=lambda d: -d["ms_per_run"])
    nodes = sorted(fin["profile"] or [], key=lambda p: -p["ms"])[:args.profile_top]
    return {"runs": runs, "total_ms_per_run": total / runs, "by_op": ops,
            "top_nodes": [{"node": p["node"], "op": p["op"], "ms_per_run": p["ms"] / runs} for p in nodes]}


# ---- peak ----------------------------------------------------------------------

def measure_peak(shim, thread_counts, seconds):
    lib = load_shim(shim)
    peaks = {}
    for n in sorted(set(thread_counts)):
        peaks[n] = lib.obs_peak_gflops(n, seconds, 3)
    return lib.obs_peak_isa().decode(), peaks


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


# ---- report --------------------------------------------------------------------

def fmt(v, spec="{:.1f}", missing="-"):
    return missing if v is None else spec.format(v)


def table(results, peaks):
    ov = any("openvino" in r for r in results)
    head = ("| model | batch | thr | GFLOP | oinfer ms | ORT ms | oinfer/ORT | " +
            ("OV ms | oinfer/OV | " if ov else "") + "oinfer GFLOP/s (% peak) | "
            "ORT GFLOP/s (% peak) | oinfer peak RSS MB | ORT peak RSS MB | oinfer load+plan ms | ORT load ms | "
            "outputs agree (max abs diff / max abs value) |")
    lines = [head, "|" + "|".join(["---"] * (head.count("|") - 1)) + "|"]
    for r in results:
        o, t = r["oinfer"], r["onnxruntime"]

        def lat(e):
            return f"error: {e['error'][:60]}" if e.get("error") and "median_ms" not in e else \
                fmt(e.get("median_ms"), "{:.2f}")

        def gf(e):
            if "gflops" not in e:
                return "-"
            pf = e.get("peak_fraction")
            return f"{e['gflops']:.1f} ({pf * 100:.0f}%)" if pf is not None else f"{e['gflops']:.1f}"

        a = r["agree"]
        ref = max((o.get("max_abs_ref", 0.0) for o in a.get("outputs", [])), default=0.0)
        agree = ("yes" if a["ok"] else "NO") + (f" ({a['max_abs_diff']:.1e} / {ref:.1e})" if "max_abs_diff" in a
                                                 and math.isfinite(a["max_abs_diff"]) else "")
        lines.append("| " + " | ".join([
            r["model"], str(r["batch"]), str(r["threads"]), fmt(r.get("gflop"), "{:.3g}"), lat(o), lat(t),
            fmt(r.get("ratio"), "{:.2f}")] + ([lat(r.get("openvino", {"error": "not run"})),
                                               fmt(r.get("ratio_ov"), "{:.2f}")] if ov else []) + [gf(o), gf(t), fmt(o.get("peak_rss_mb"), "{:.0f}"),
            fmt(t.get("peak_rss_mb"), "{:.0f}"), fmt(o.get("load_ms"), "{:.0f}"), fmt(t.get("load_ms"), "{:.0f}"),
            agree]) + " |")
    lines.append("")
    lines.append(ratio_summary(results))
    return "\n".join(lines)


def int8_table(results):
    """--int8: latencies side by side, and each int8 engine's distance from
    onnxruntime's unoptimized run of the quantized model."""
    head = ("| model | batch | thr | oinfer int8 ms | ORT int8 ms | oinfer fp32 ms | oinfer int8 / ORT int8 | "
            "oinfer int8 / fp32 | oinfer vs ref: max diff (steps), cosine | ORT int8 vs ref: max diff (steps), "
            "cosine |")
    lines = [head, "|" + "|".join(["---"] * (head.count("|") - 1)) + "|"]

    def acc(r, e):
        a = r.get("int8_accuracy", {})
        if "error" in a:
            return "ref failed"
        parts = []
        for o in a.get(e, []):
            if "error" in o:
                parts.append(o["error"])
                continue
            d = f"{o['max_steps']:.1f} steps" if o.get("max_steps") is not None else f"{o['max_abs_diff']:.2e}"
            parts.append(f"{d}, {o['cosine']:.5f}")
        return "; ".join(parts) or "-"

    for r in results:
        lines.append("| " + " | ".join([
            r["model"], str(r["batch"]), str(r["threads"]),
            fmt(r["oinfer"].get("median_ms"), "{:.2f}"), fmt(r["onnxruntime"].get("median_ms"), "{:.2f}"),
            fmt(r.get("oinfer_fp32", {}).get("median_ms"), "{:.2f}"), fmt(r.get("ratio"), "{:.2f}"),
            fmt(r.get("ratio_fp32"), "{:.2f}"), acc(r, "oinfer"), acc(r, "onnxruntime")]) + " |")
    return "\n".join(lines)


def ratio_summary(results):
    """Geometric mean and worst case of oinfer's ratios (lower is faster)."""
    out = []
    for key, name in (("ratio", "onnxruntime"), ("ratio_ov", "OpenVINO")):
        rs = [(r[key], r["model"], r["batch"], r["threads"]) for r in results if r.get(key)]
        if not rs:
            continue
        geo = math.exp(sum(math.log(x[0]) for x in rs) / len(rs))
        worst = max(rs)
        slower = sum(1 for x in rs if x[0] > 1.0)
        out.append(f"oinfer / {name}: geometric mean {geo:.2f} over {len(rs)} configurations, "
                   f"slower on {slower}, worst {worst[0]:.2f} ({worst[1]} batch {worst[2]}, {worst[3]} thr)")
    return "\n".join(out)


def profile_text(results):
    out = []
    for r in results:
        p = r.get("profile")
        if not p:
            continue
        out.append(f"\noinfer profile: {r['model']} batch {r['batch']}, {r['threads']} thread(s)")
        if "error" in p:
            out.append(f"  error: {p['error']}")
            continue
        out.append(f"  {p['total_ms_per_run']:.2f} ms per run in kernels ({p['runs']} runs)")
        out.append("  | op | ms/run | share | nodes |\n  |---|---|---|---|")
        for d in p["by_op"]:
            out.append(f"  | {d['op']} | {d['ms_per_run']:.3f} | {d['share'] * 100:.1f}% | {d['nodes']} |")
        out.append("  slowest nodes: " + ", ".join(f"{n['node']} ({n['op']}) {n['ms_per_run']:.2f} ms"
                                                  for n in p["top_nodes"]))
    return "\n".join(out)


def parse_list(s, conv=int):
    return [conv(x) for x in s.split(",") if x.strip()]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", default=",".join(DEFAULT_MODELS),
                    help="comma-separated cached model names (tools/bench/make_models.py); default: all")
    ap.add_argument("--model", action="append", default=[], metavar="PATH",
                    help="an .onnx file to benchmark (repeatable; replaces --models)")
    ap.add_argument("--models-dir", default=MODELS_DIR, help="where the cached models are (default %(default)s)")
    ap.add_argument("--batch", default="1,8", help="batch sizes (default %(default)s)")
    ap.add_argument("--threads", default="1,2", help="thread counts, same for both engines (default %(default)s)")
    ap.add_argument("--iters", type=int, default=30, help="timed runs per engine, at most (default %(default)s)")
    ap.add_argument("--min-iters", type=int, default=5, help="timed runs per engine, at least (default %(default)s)")
    ap.add_argument("--max-seconds", type=float, default=60,
                    help="stop a configuration's timed runs after this long, once --min-iters are done")
    ap.add_argument("--warmup", type=int, default=3, help="untimed runs after load (default %(default)s)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the random inputs")
    ap.add_argument("--dim", action="append", default=[], metavar="NAME=VALUE",
                    help="value of a symbolic input dim other than the batch")
    ap.add_argument("--opt-level", type=int, default=-1, help="oinfer SessionOptions::optimizationLevel "
                    "(default: the library's default)")
    ap.add_argument("--profile", action="store_true", help="also print oinfer's time share per op type")
    ap.add_argument("--profile-iters", type=int, default=10)
    ap.add_argument("--profile-top", type=int, default=8, help="slowest nodes listed per profile")
    ap.add_argument("--peak-seconds", type=float, default=0.5, help="length of one FMA-loop trial")
    ap.add_argument("--no-peak", action="store_true", help="skip the fp32 peak measurement")
    ap.add_argument("--load-timeout", type=float, default=600)
    ap.add_argument("--no-pause", dest="pause", action="store_false",
                    help="leave the idle engine's process running during the other's timed runs")
    ap.add_argument("--shim", help="path of liboinfer_bench_shim.so (default: build-bench/ or build/)")
    ap.add_argument("--json", default="bench_results.json", help="JSON output file (default %(default)s)")
    ap.add_argument("--note", default="", help="free text stored in the JSON (e.g. 'machine shared')")
    ap.add_argument("--openvino", dest="openvino", action="store_true", default=None,
                    help="also run OpenVINO (f32 precision hint); default: when the openvino package imports")
    ap.add_argument("--no-openvino", dest="openvino", action="store_false")
    ap.add_argument("--int8", action="store_true",
                    help="run the models' _int8 variants (make_models.py --int8): oinfer int8, onnxruntime int8 "
                         "and oinfer fp32 side by side, with accuracy against onnxruntime's unoptimized int8 run")
    args = ap.parse_args()
    if args.openvino is None:
        args.openvino = have_openvino()

    import onnx

    shim = find_shim(args.shim)
    batches, thread_counts = parse_list(args.batch), parse_list(args.threads)
    dims = {}
    for d in args.dim:
        k, v = d.split("=", 1)
        dims[k] = int(v)
    if args.model:
        models = [(os.path.splitext(os.path.basename(p))[0] if os.path.basename(p) != "model.onnx" else
                   os.path.basename(os.path.dirname(os.path.abspath(p))), os.path.abspath(p)) for p in args.model]
    else:
        models = []
        for n in parse_list(args.models, str):
            p = os.path.join(args.models_dir, n + ".onnx")
            if not os.path.exists(p):
                raise SystemExit(f"bench: {p} is missing; make it with tools/bench/make_models.py --setup "
                                 f"--models {n} (or run scripts/bench.sh)")
            if args.int8:
                q = os.path.join(args.models_dir, n + "_int8.onnx")
                if not os.path.exists(q):
                    raise SystemExit(f"bench: {q} is missing; make it with tools/bench/make_models.py --int8 "
                                     f"--models {n}")
                models.append((n + "_int8", q, p))
            else:
                models.append((n, p))

    isa, peaks = ("-", {})
    if not args.no_peak:
        isa, peaks = measure_peak(shim, [1] + thread_counts + [os.cpu_count() or 1], args.peak_seconds)
        print("fp32 peak (" + isa + "): " + ", ".join(f"{n} thread(s) {g:.1f} GFLOP/s" for n, g in
                                                      sorted(peaks.items())), file=sys.stderr, flush=True)

    import onnxruntime
    ctx = mp.get_context("spawn")
    results = []
    for entry in models:
        name, path = entry[0], entry[1]
        fp32_path = entry[2] if len(entry) > 2 else None
        model = onnx.load(path, load_external_data=False)
        meta_path = os.path.splitext(path)[0] + ".json"
        meta = json.load(open(meta_path)) if os.path.exists(meta_path) else None
        light, weights = light_model(model)
        del model
        for b in batches:
            spec = input_spec(light, meta, b, dims, weights)
            flops, unknown, missing = count_flops(light, spec, b)
            if missing:
                try:
                    known = shapes_from_ort(path, spec, args.seed, missing)
                    flops, unknown, missing = count_flops(light, spec, b, known)
                except Exception as e:  # noqa: BLE001 - the count stays partial, and says so
                    print(f"bench: {name}: shapes of {len(missing)} values unknown ({e})", file=sys.stderr)
            for n in thread_counts:
                print(f"bench: {name} batch {b}, {n} thread(s) ...", file=sys.stderr, flush=True)
                r = bench_config(ctx, args, shim, path, spec, flops, n, peaks.get(n), fp32_path)
                r.update(model=name, path=path, batch=b, gflop=flops / 1e9, flop_nodes_unknown=unknown,
                         inputs=[{"name": s[0], "dtype": s[1], "shape": s[2]} for s in spec])
                results.append(r)
                o, t = r["oinfer"], r["onnxruntime"]
                v = r.get("openvino", {})
                print(f"bench:   oinfer {fmt(o.get('median_ms'), '{:.2f}')} ms"
                      f"{' (' + o['error'][:200] + ')' if o.get('error') else ''}, onnxruntime "
                      f"{fmt(t.get('median_ms'), '{:.2f}')} ms{' (' + t['error'][:200] + ')' if t.get('error') else ''}"
                      + (f", openvino {fmt(v.get('median_ms'), '{:.2f}')} ms"
                         f"{' (' + v['error'][:200] + ')' if v.get('error') else ''}" if args.openvino else "")
                      + f", agree {r['agree']['ok']}", file=sys.stderr, flush=True)

    # A shared machine can only make the FMA loop slower, so the peak is the
    # best of a measurement before and one after the models.
    peaks_start = dict(peaks)
    if not args.no_peak:
        _, again = measure_peak(shim, list(peaks), args.peak_seconds)
        peaks = {n: max(g, again.get(n, 0.0)) for n, g in peaks.items()}
    for r in results:
        for e in ("oinfer", "onnxruntime", "openvino", "oinfer_fp32"):
            if e in r and "gflops" in r[e] and peaks.get(r["threads"]):
                r[e]["peak_fraction"] = r[e]["gflops"] / peaks[r["threads"]]

    doc = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "note": args.note,
        "machine": {"cpu": cpu_name(), "logical_cpus": os.cpu_count(), "peak_isa": isa,
                    "peak_gflops": {str(k): v for k, v in sorted(peaks.items())},
                    "peak_gflops_before": {str(k): v for k, v in sorted(peaks_start.items())}},
        "versions": {"onnxruntime": onnxruntime.__version__, "onnx": onnx.__version__,
                     "openvino": __import__("openvino").__version__ if args.openvino else None,
                     "python": platform.python_version()},
        "config": {"batches": batches, "threads": thread_counts, "iters": args.iters, "min_iters": args.min_iters,
                   "max_seconds": args.max_seconds, "warmup": args.warmup, "rtol": RTOL, "atol": ATOL,
                   "seed": args.seed, "shim": shim, "pause_idle_engine": args.pause},
        "results": results,
    }
    with open(args.json, "w") as f:
        json.dump(doc, f, indent=1)
    print(f"oinfer vs onnxruntime, {doc['date']}, {doc['machine']['cpu']}, fp32 peak " +
          (", ".join(f"{g:.0f} GFLOP/s @ {n} thr" for n, g in sorted(peaks.items())) or "not measured") +
          f" ({isa}); onnxruntime {onnxruntime.__version__}\n")
    print(table(results, peaks))
    if args.int8:
        print("\n" + int8_table(results))
    if args.profile:
        print(profile_text(results))
    print(f"\nJSON: {os.path.abspath(args.json)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
