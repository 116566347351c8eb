"""oinfer.Error: every error of the library (oinfer::Error) as a Python exception."""

from __future__ import annotations


class Error(Exception):
    """An error from oinfer. str(e) is the library's message, which names the
    file, node, tensor or input at fault; e.code is the kind of error, the
    name of oinfer::ErrorCode: 'InvalidModel', 'UnsupportedOp',
    'InvalidArgument', 'ShapeMismatch', 'TypeMismatch', 'IO',
    'NotImplemented', 'Device' or 'Internal'."""

    def __init__(self, message: str, code: str = "Internal") -> None:
        super().__init__(message)
        self.code = code
