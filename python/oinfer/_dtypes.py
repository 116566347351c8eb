"""ONNX data types (TensorProto.DataType codes, as oinfer::DataType) and numpy dtypes.

numpy has no bfloat16, float8, float4, int4 / uint4 or int2 / uint2; those map to
ml_dtypes' types (a dependency of onnx) when it is installed. oinfer keeps the
4-bit and 2-bit types unpacked, one element per byte, as ml_dtypes does, so
they cross the boundary as their bytes, except the signed int4 / int2: oinfer's
byte holds the value sign-extended (-8 is 0xF8), ml_dtypes' only its low bits
(0x08), so those go through int8 (SIGN_EXTENDED).
"""

from __future__ import annotations

import numpy as np

FLOAT, UINT8, INT8, UINT16, INT16, INT32, INT64, STRING, BOOL, FLOAT16, DOUBLE = range(1, 12)
UINT32, UINT64, COMPLEX64, COMPLEX128, BFLOAT16 = range(12, 17)

# code -> onnxruntime's type name, as NodeArg.type shows it: 'tensor(<name>)'.
_ORT_NAMES = {
    1: "float", 2: "uint8", 3: "int8", 4: "uint16", 5: "int16", 6: "int32", 7: "int64",
    8: "string", 9: "bool", 10: "float16", 11: "double", 12: "uint32", 13: "uint64",
    14: "complex64", 15: "complex128", 16: "bfloat16", 17: "float8e4m3fn",
    18: "float8e4m3fnuz", 19: "float8e5m2", 20: "float8e5m2fnuz", 21: "uint4", 22: "int4",
    23: "float4e2m1", 24: "float8e8m0", 25: "uint2", 26: "int2",
}

_NUMPY = {
    1: np.dtype(np.float32), 2: np.dtype(np.uint8), 3: np.dtype(np.int8),
    4: np.dtype(np.uint16), 5: np.dtype(np.int16), 6: np.dtype(np.int32),
    7: np.dtype(np.int64), 8: np.dtype(object), 9: np.dtype(np.bool_),
    10: np.dtype(np.float16), 11: np.dtype(np.float64), 12: np.dtype(np.uint32),
    13: np.dtype(np.uint64), 14: np.dtype(np.complex64), 15: np.dtype(np.complex128),
}
try:  # the types numpy lacks
    import ml_dtypes as _ml

    for _code, _name in ((16, "bfloat16"), (17, "float8_e4m3fn"), (18, "float8_e4m3fnuz"),
                         (19, "float8_e5m2"), (20, "float8_e5m2fnuz"), (21, "uint4"),
                         (22, "int4"), (23, "float4_e2m1fn"), (24, "float8_e8m0fnu"),
                         (25, "uint2"), (26, "int2")):
        if hasattr(_ml, _name):
            _NUMPY[_code] = np.dtype(getattr(_ml, _name))
except ImportError:  # pragma: no cover - ml_dtypes comes with onnx
    pass

INT4, INT2 = 22, 26
# Codes whose bytes differ between oinfer (sign-extended) and ml_dtypes.
SIGN_EXTENDED = (INT4, INT2)

_CODE_OF = {}
for _code, _dt in _NUMPY.items():
    _CODE_OF.setdefault(_dt, _code)


def ort_type_name(code: int) -> str:
    return _ORT_NAMES.get(code, "undefined")


def numpy_dtype(code: int) -> np.dtype:
    """The numpy dtype of ONNX type `code`; raises KeyError when there is none."""
    return _NUMPY[code]


def code_of(dtype: np.dtype) -> int | None:
    """The ONNX type code of a numpy dtype, or None. Strings (str, bytes, object) are STRING."""
    dtype = np.dtype(dtype)
    if dtype.kind in ("U", "S", "O"):
        return STRING
    return _CODE_OF.get(dtype)
