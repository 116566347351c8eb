import os
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture
def digits_path():
    return str(ROOT / "models" / "digits.onnx")


@pytest.fixture
def digit7():
    import numpy as np

    return np.load(ROOT / "models" / "digits_samples" / "digit_7.npy")


def pytest_report_header(config):
    import oinfer

    return f"oinfer {oinfer.__version__} from {os.path.dirname(oinfer.__file__)}"
