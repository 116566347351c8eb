"""oinfer as an ONNX backend (onnx.backend.base.Backend), so that onnx's own
conformance suite runs against it:

    import onnx.backend.test
    import oinfer.backend
    globals().update(onnx.backend.test.BackendTest(oinfer.backend, __name__).test_cases)

The module-level functions (prepare, run_model, run_node, supports_device,
is_compatible) are what BackendTest calls; OinferBackend is the class behind
them. Inputs are numpy arrays, lists of arrays (sequences) or None (an empty
optional), positionally in the model's input order or by name.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

try:
    import onnx
    from onnx import helper
    from onnx.backend.base import Backend, BackendRep, Device, DeviceType, namedtupledict
except ImportError as e:  # pragma: no cover
    raise ImportError("oinfer.backend needs the onnx package (pip install onnx)") from e

from . import _dtypes
from . import _oinfer
from ._errors import Error
from .session import InferenceSession


def _device_name(device: str) -> str:
    d = Device(device)
    if d.type == DeviceType.CPU:
        return "cpu"
    if d.type == DeviceType.CUDA:
        return "cuda"
    raise Error(f"device '{device}': oinfer runs on CPU and CUDA", "InvalidArgument")


class OinferRep(BackendRep):
    """A prepared model: an InferenceSession."""

    def __init__(self, session: InferenceSession) -> None:
        self.session = session
        self._input_names = [i.name for i in session.get_inputs()]
        self._output_names = [o.name for o in session.get_outputs()]

    def run(self, inputs: Any, **kwargs: Any) -> tuple[Any, ...]:
        if isinstance(inputs, dict):
            feed = dict(inputs)
        else:
            if isinstance(inputs, np.ndarray) or not isinstance(inputs, (list, tuple)):
                inputs = [inputs]
            if len(inputs) > len(self._input_names):
                raise Error(f"{len(inputs)} inputs given; the model takes {len(self._input_names)} "
                            f"({', '.join(self._input_names)})", "InvalidArgument")
            feed = dict(zip(self._input_names, inputs))
        outs = self.session.run(None, feed)
        return namedtupledict("Outputs", self._output_names)(*outs)


class OinferBackend(Backend):
    @classmethod
    def is_compatible(cls, model: Any, device: str = "CPU", **kwargs: Any) -> bool:
        return True

    @classmethod
    def supports_device(cls, device: str) -> bool:
        try:
            name = _device_name(device)
        except (Error, AttributeError, ValueError):
            return False
        return name == "cpu" or bool(_oinfer.has_cuda)

    @classmethod
    def prepare(cls, model: Any, device: str = "CPU", **kwargs: Any) -> OinferRep:
        """model: an onnx.ModelProto, the serialized bytes or a file path.
        kwargs go to InferenceSession (threads, optimization_level, ...)."""
        kwargs.setdefault("device", _device_name(device))
        return OinferRep(InferenceSession(model, **kwargs))

    @classmethod
    def run_model(cls, model: Any, inputs: Any, device: str = "CPU", **kwargs: Any) -> tuple[Any, ...]:
        return cls.prepare(model, device, **kwargs).run(inputs)

    @classmethod
    def run_node(cls, node: Any, inputs: Any, device: str = "CPU",
                 outputs_info: Sequence[tuple[Any, tuple[int, ...]]] | None = None,
                 **kwargs: Any) -> tuple[Any, ...]:
        """Runs one NodeProto: a model is made around it, its inputs typed
        from the values given (positionally, for the node's non-empty inputs),
        at kwargs['opset_version'] (default: onnx's newest opset)."""
        opset = kwargs.pop("opset_version", None) or onnx.defs.onnx_opset_version()
        names = [n for n in node.input if n]
        if isinstance(inputs, dict):
            values = [inputs[n] for n in names]
        else:
            values = list(inputs)
        if len(values) != len(names):
            raise Error(f"node '{node.name or node.op_type}': {len(values)} inputs given for "
                        f"{len(names)} ({', '.join(names)})", "InvalidArgument")
        graph_inputs = [_value_info(n, v) for n, v in zip(names, values)]
        graph_outputs = []
        for k, o in enumerate(n for n in node.output if n):
            if outputs_info and k < len(outputs_info):
                dt, shape = outputs_info[k]
                code = _dtypes.code_of(np.dtype(dt)) or 0
                graph_outputs.append(helper.make_tensor_value_info(o, code, shape))
            else:
                graph_outputs.append(helper.make_empty_tensor_value_info(o))
        domain = node.domain or ""
        opsets = [helper.make_opsetid("", opset if domain == "" else onnx.defs.onnx_opset_version())]
        if domain not in ("", "ai.onnx"):
            opsets.append(helper.make_opsetid(domain, 1))
        graph = helper.make_graph([node], f"run_node_{node.op_type}", graph_inputs, graph_outputs)
        model = helper.make_model(graph, opset_imports=opsets)
        return cls.prepare(model, device, **kwargs).run(dict(zip(names, values)))


def _value_info(name: str, value: Any) -> Any:
    if value is None:
        raise Error(f"run_node: input '{name}' is None; an empty optional needs a model with its type",
                    "InvalidArgument")
    if isinstance(value, (list, tuple)):
        elem = np.asarray(value[0]).dtype if value else np.dtype(np.float32)
        code = _dtypes.code_of(elem) or 0
        return helper.make_value_info(
            name, helper.make_sequence_type_proto(helper.make_tensor_type_proto(code, None)))
    a = np.asarray(value)
    code = _dtypes.code_of(a.dtype)
    if code is None:
        raise Error(f"run_node: input '{name}': numpy dtype {a.dtype} has no ONNX type", "InvalidArgument")
    return helper.make_tensor_value_info(name, code, list(a.shape))


prepare = OinferBackend.prepare
run_model = OinferBackend.run_model
run_node = OinferBackend.run_node
supports_device = OinferBackend.supports_device
is_compatible = OinferBackend.is_compatible
