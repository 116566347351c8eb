"""oinfer: a small ONNX inference engine, with onnxruntime's Python API.

    import oinfer
    sess = oinfer.InferenceSession("model.onnx")
    outputs = sess.run(None, {sess.get_inputs()[0].name: x})

oinfer.backend implements onnx.backend.base.Backend (for onnx's BackendTest).
"""

from . import _oinfer
from ._errors import Error
from .session import (
    GraphOptimizationLevel,
    InferenceSession,
    NodeArg,
    SessionOptions,
    get_available_providers,
    get_device,
)

_oinfer._set_error_type(Error)

__version__ = _oinfer.__version__

__all__ = [
    "Error",
    "GraphOptimizationLevel",
    "InferenceSession",
    "NodeArg",
    "SessionOptions",
    "get_available_providers",
    "get_device",
    "__version__",
]
