"""InferenceSession: onnxruntime's session API over oinfer::Session."""

from __future__ import annotations

import enum
import os
import threading
from typing import Any, Iterable, Mapping, Sequence

import numpy as np

from . import _dtypes
from . import _oinfer
from ._errors import Error

# ValueInfo kinds (oinfer::ValueKind).
_TENSOR, _SEQUENCE, _OPTIONAL, _MAP = 0, 1, 2, 3

# The C++ message when run() asks for a value the graph passes removed; the
# session is then rebuilt with it kept (see InferenceSession.run).
_FUSED_AWAY = "the graph passes fused it away"


class GraphOptimizationLevel(enum.IntEnum):
    """onnxruntime's levels, mapped onto oinfer's three: ORT_DISABLE_ALL is
    level 0 (no graph passes), ORT_ENABLE_BASIC level 1 (constant and
    BatchNormalization folding), the others level 2 (all passes)."""

    ORT_DISABLE_ALL = 0
    ORT_ENABLE_BASIC = 1
    ORT_ENABLE_EXTENDED = 2
    ORT_ENABLE_LAYOUT = 3
    ORT_ENABLE_ALL = 99


class SessionOptions:
    """The part of onnxruntime.SessionOptions oinfer uses (an
    onnxruntime.SessionOptions object is accepted as well). Other attributes
    may be set and are ignored."""

    def __init__(self) -> None:
        self.intra_op_num_threads = 0
        self.inter_op_num_threads = 0
        self.graph_optimization_level = GraphOptimizationLevel.ORT_ENABLE_ALL
        self.enable_profiling = False
        self.log_severity_level = 2  # 0 verbose, 1 info, 2 warning, 3 error, 4 fatal


class NodeArg:
    """An input or output of a session: name, shape and type, as onnxruntime's
    NodeArg. shape: ints for known dims, the symbol (a str) for symbolic ones,
    None when the rank is unknown. type: 'tensor(float)', 'seq(tensor(int64))',
    'optional(tensor(float))', ..."""

    __slots__ = ("name", "shape", "type", "_kind", "_code")

    def __init__(self, name: str, kind: int, code: int, dims: list | None) -> None:
        self.name = name
        self.shape = dims
        self._kind = kind
        self._code = code
        elem = f"tensor({_dtypes.ort_type_name(code)})"
        if kind == _SEQUENCE:
            elem = f"seq({elem})"
        elif kind == _OPTIONAL:
            elem = f"optional({elem})"
        elif kind == _MAP:
            elem = "map"
        self.type = elem

    def __repr__(self) -> str:
        return f"NodeArg(name={self.name!r}, type={self.type!r}, shape={self.shape!r})"


_PROVIDERS = {"CPUExecutionProvider": "cpu", "CUDAExecutionProvider": "cuda"}


def get_available_providers() -> list[str]:
    """The execution providers this build has (onnxruntime's names)."""
    return (["CUDAExecutionProvider"] if _oinfer.has_cuda else []) + ["CPUExecutionProvider"]


def get_device() -> str:
    return "GPU" if _oinfer.has_cuda else "CPU"


def _device_from_providers(providers: Sequence[Any] | None) -> tuple[str | None, int]:
    if not providers:
        return None, 0
    for p in providers:
        name, opts = (p[0], p[1]) if isinstance(p, (tuple, list)) else (p, {})
        if name not in _PROVIDERS:
            raise Error(
                f"provider '{name}': oinfer has {', '.join(sorted(_PROVIDERS))}", "InvalidArgument"
            )
    first = providers[0]
    name, opts = (first[0], first[1]) if isinstance(first, (tuple, list)) else (first, {})
    return _PROVIDERS[name], int((opts or {}).get("device_id", 0))


def _log_level(severity: int) -> str:
    return {0: "trace", 1: "info", 2: "warn", 3: "error", 4: "off"}.get(int(severity), "warn")


# ---- values across the boundary ------------------------------------------------------


def _tensor_in(name: str, value: Any, declared: int) -> tuple:
    """(code, shape, payload) for the C++ side; payload views `value`'s memory
    when it is a C-contiguous, aligned array (read in place), else a copy."""
    if isinstance(value, np.ndarray):
        a = value
    else:
        # Python scalars and lists take the declared type (numpy would pick
        # int64 / float64); arrays are taken as they are, and a wrong dtype is
        # the library's error, as in onnxruntime.
        want = None
        if declared and declared != _dtypes.STRING:
            try:
                want = _dtypes.numpy_dtype(declared)
            except KeyError:
                want = None
        try:
            a = np.asarray(value, dtype=want)
        except (ValueError, TypeError, OverflowError) as e:
            raise Error(f"input '{name}': {e}", "InvalidArgument") from None
    code = _dtypes.code_of(a.dtype)
    if code is None:
        raise Error(f"input '{name}': numpy dtype {a.dtype} has no ONNX tensor type", "InvalidArgument")
    shape = list(a.shape)
    if code == _dtypes.STRING:
        items = [x.decode("utf-8", "surrogateescape") if isinstance(x, bytes) else str(x) for x in a.ravel()]
        return (code, shape, items)
    if code in _dtypes.SIGN_EXTENDED:
        a = a.astype(np.int8)  # oinfer's byte is the value itself (see _dtypes)
    elif not (a.flags.c_contiguous and a.flags.aligned):
        a = a.copy(order="C")
    return (code, shape, a.reshape(-1).view(np.uint8))


def _tensor_out(spec: tuple) -> np.ndarray:
    code, shape, payload = spec
    if code == _dtypes.STRING:
        flat = np.empty(len(payload), dtype=object)
        flat[:] = [b.decode("utf-8", "surrogateescape") for b in payload]
        return flat.reshape(shape)
    try:
        dtype = _dtypes.numpy_dtype(code)
    except KeyError:
        raise Error(
            f"an output has ONNX type {_oinfer.data_type_name(code)}, which numpy cannot hold "
            "(install ml_dtypes)",
            "NotImplemented",
        ) from None
    if code in _dtypes.SIGN_EXTENDED:
        return payload.view(np.int8).astype(dtype).reshape(shape)
    return payload.view(dtype).reshape(shape)


def _value_out(spec: tuple) -> Any:
    kind, payload = spec
    if kind == "tensor":
        return _tensor_out(payload)
    if kind == "sequence":
        return [_tensor_out(t) for t in payload]
    return None


# ---- the session ----------------------------------------------------------------------


class InferenceSession:
    """An ONNX model ready to run, shaped like onnxruntime.InferenceSession.

    InferenceSession(path_or_bytes, sess_options=None, providers=None, *,
                     threads=0, optimization_level=2, device="cpu", device_index=0,
                     keep_values=(), log_level="warn", profiling=False,
                     custom_op_libraries=())

    path_or_bytes: a file path, the serialized model (bytes), or an
    onnx.ModelProto. onnxruntime's sess_options and providers are accepted
    (ORT_DISABLE_ALL is level 0, ORT_ENABLE_BASIC 1, the others 2;
    ["CUDAExecutionProvider", ...] is device="cuda"); the keyword arguments,
    when given, win over them.

    Intermediate values: run() takes any value name of the model in
    output_names. keep_values names values the graph passes must leave as
    the file computes them; a name run() asks for that the passes fused away
    makes the session rebuild itself once with that name kept as well (the
    first such run pays for a second session construction).
    """

    def __init__(
        self,
        path_or_bytes: str | os.PathLike | bytes | Any,
        sess_options: Any = None,
        providers: Sequence[Any] | None = None,
        provider_options: Sequence[Mapping[str, Any]] | None = None,
        *,
        threads: int | None = None,
        optimization_level: int | None = None,
        device: str | None = None,
        device_index: int | None = None,
        keep_values: Iterable[str] = (),
        log_level: str | None = None,
        profiling: bool | None = None,
        custom_op_libraries: Iterable[str] = (),
        **kwargs: Any,
    ) -> None:
        if kwargs:
            raise TypeError(f"InferenceSession: unexpected arguments {sorted(kwargs)}")
        if isinstance(sess_options, int) and not isinstance(sess_options, bool):
            threads, sess_options = sess_options, None  # InferenceSession(path, 4)
        opts: dict[str, Any] = {
            "threads": 0, "optimization_level": 2, "device": "cpu", "device_index": 0,
            "log_level": "warn", "profiling": False,
        }
        if sess_options is not None:
            opts["threads"] = int(getattr(sess_options, "intra_op_num_threads", 0) or 0)
            level = int(getattr(sess_options, "graph_optimization_level", 99))
            opts["optimization_level"] = 0 if level == 0 else 1 if level == 1 else 2
            opts["profiling"] = bool(getattr(sess_options, "enable_profiling", False))
            opts["log_level"] = _log_level(getattr(sess_options, "log_severity_level", 2))
        dev, index = _device_from_providers(providers)
        if dev is not None:
            opts["device"], opts["device_index"] = dev, index
            if provider_options:
                opts["device_index"] = int(provider_options[0].get("device_id", index))
        for key, val in (("threads", threads), ("optimization_level", optimization_level),
                         ("device", device), ("device_index", device_index),
                         ("log_level", log_level), ("profiling", profiling)):
            if val is not None:
                opts[key] = val
        opts["device"] = str(opts["device"]).lower()

        self._model, self._base_dir = self._model_source(path_or_bytes)
        self._opts = opts
        self._custom_op_libraries = [os.fspath(p) for p in custom_op_libraries]
        self._keep = list(dict.fromkeys(keep_values))
        self._lock = threading.Lock()
        self._core = self._make(self._keep)
        self._inputs = [NodeArg(*v) for v in self._core.inputs()]
        self._outputs = [NodeArg(*v) for v in self._core.outputs()]
        self._output_names = [o.name for o in self._outputs]

    @staticmethod
    def _model_source(m: Any) -> tuple[Any, str]:
        if isinstance(m, (bytes, bytearray, memoryview)):
            return bytes(m), ""
        if hasattr(m, "SerializeToString"):  # onnx.ModelProto
            return m.SerializeToString(), ""
        path = os.fspath(m)
        return path, os.path.dirname(os.path.abspath(path))

    def _make(self, keep: list[str]) -> Any:
        o = self._opts
        return _oinfer.Session(self._model, self._base_dir, int(o["threads"]),
                               int(o["optimization_level"]), o["device"], int(o["device_index"]),
                               keep, o["log_level"], bool(o["profiling"]), self._custom_op_libraries)

    # ---- onnxruntime's inspection API ----
    def get_inputs(self) -> list[NodeArg]:
        return list(self._inputs)

    def get_outputs(self) -> list[NodeArg]:
        return list(self._outputs)

    def get_overridable_initializers(self) -> list[NodeArg]:
        return []

    def get_providers(self) -> list[str]:
        return ["CUDAExecutionProvider", "CPUExecutionProvider"] if self._opts["device"] == "cuda" \
            else ["CPUExecutionProvider"]

    def get_provider_options(self) -> dict[str, dict]:
        return {p: {} for p in self.get_providers()}

    def get_session_options(self) -> SessionOptions:
        s = SessionOptions()
        s.intra_op_num_threads = self._opts["threads"]
        s.graph_optimization_level = (GraphOptimizationLevel.ORT_DISABLE_ALL,
                                      GraphOptimizationLevel.ORT_ENABLE_BASIC,
                                      GraphOptimizationLevel.ORT_ENABLE_ALL)[self._opts["optimization_level"]]
        s.enable_profiling = self._opts["profiling"]
        return s

    @property
    def keep_values(self) -> list[str]:
        """The values the session keeps from the graph passes (keep_values and
        those run() rebuilt it for)."""
        return list(self._keep)

    # ---- running ----
    def run(self, output_names: Sequence[str] | None, input_feed: Mapping[str, Any],
            run_options: Any = None) -> list[Any]:
        """Runs the model: a list of numpy arrays (a list of arrays for a
        sequence, None for an empty optional), one per output name (None or
        []: every graph output). Any value of the model may be named.
        Thread-safe; the GIL is released while the model runs."""
        names = list(output_names) if output_names else []
        core = self._core
        try:
            return self._run(core, names, input_feed)
        except Error as e:
            if _FUSED_AWAY not in str(e):
                raise
        # A value the passes removed: rebuild once with every requested
        # intermediate kept (runs on the old session finish undisturbed).
        with self._lock:
            if self._core is core:
                wanted = [n for n in names if n not in self._output_names and n not in self._keep]
                keep = self._keep + list(dict.fromkeys(wanted))
                self._core = self._make(keep)
                self._keep = keep
            core = self._core
        return self._run(core, names, input_feed)

    def _run(self, core: Any, names: list[str], feed: Mapping[str, Any]) -> list[Any]:
        if not isinstance(feed, Mapping):
            raise Error("run: input_feed must be a dict {name: array}", "InvalidArgument")
        declared = {i.name: i for i in self._inputs}
        simple = all(i._kind == _TENSOR for i in self._inputs) and \
            all(o._kind == _TENSOR for o in self._outputs) and \
            all(n in self._output_names for n in names)
        if simple:
            feeds = []
            for name, value in feed.items():
                d = declared.get(name)
                feeds.append((name, _tensor_in(name, value, d._code if d else 0)))
            return [_tensor_out(t) for t in core.run(feeds, names)]
        feeds = []
        for name, value in feed.items():
            d = declared.get(name)
            feeds.append((name, self._value_in(name, value, d)))
        return [_value_out(v) for v in core.run_values(feeds, names)]

    @staticmethod
    def _value_in(name: str, value: Any, d: NodeArg | None) -> tuple:
        kind = d._kind if d else _TENSOR
        code = d._code if d else 0
        if value is None:
            return ("none", None)
        if kind in (_SEQUENCE, _OPTIONAL) and isinstance(value, (list, tuple)):
            return ("sequence", [_tensor_in(f"{name}[{i}]", v, code) for i, v in enumerate(value)])
        return ("tensor", _tensor_in(name, value, code))

    def run_with_ort_values(self, *args: Any, **kwargs: Any) -> Any:
        raise Error("run_with_ort_values: oinfer has no OrtValue; use run() with numpy arrays",
                    "NotImplemented")

    # ---- oinfer's own ----
    def profile(self) -> list[dict]:
        """Per-node timings since construction (profiling=True), slowest first."""
        return [{"op_type": t, "node": n, "total_ms": ms, "calls": c}
                for t, n, ms, c in self._core.profile()]

    def plan(self, input_shapes: Mapping[str, Sequence[int]]) -> list[dict]:
        """The plan for these input shapes: one dict per step (node, op, algorithm)."""
        steps = self._core.plan([(k, [int(d) for d in v]) for k, v in input_shapes.items()])
        return [{"node": n, "op_type": t, "algorithm": a} for n, t, a in steps]
