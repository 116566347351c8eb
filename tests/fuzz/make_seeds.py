#!/usr/bin/env python3
"""Seed corpora and a dictionary for the libFuzzer targets (scripts/fuzz.sh).

  make_seeds.py OUT_DIR

writes, from the pinned onnx package's node tests (onnx/backend/test/data/node):
  OUT_DIR/loader/   each model.onnx as it is
  OUT_DIR/session/  each model.onnx + bytes of its first test input +
                    b"OIFZ" + uint32 LE count of those bytes (the layout
                    tests/fuzz/fuzz_session.cpp reads)
  OUT_DIR/onnx.dict every ONNX op type and domain name, libFuzzer's -dict format
"""
import glob
import os
import struct
import sys

import onnx
from onnx import defs

MAX_INPUT_BYTES = 4096


def main():
    out = sys.argv[1]
    node_dir = os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data", "node")
    for sub in ("loader", "session"):
        os.makedirs(os.path.join(out, sub), exist_ok=True)
    count = 0
    for model_path in sorted(glob.glob(os.path.join(node_dir, "*", "model.onnx"))):
        case = os.path.basename(os.path.dirname(model_path))
        with open(model_path, "rb") as f:
            model = f.read()
        inputs = b""
        first = os.path.join(os.path.dirname(model_path), "test_data_set_0", "input_0.pb")
        if os.path.exists(first):
            with open(first, "rb") as f:
                inputs = f.read(MAX_INPUT_BYTES)
        with open(os.path.join(out, "loader", case), "wb") as f:
            f.write(model)
        with open(os.path.join(out, "session", case), "wb") as f:
            f.write(model + inputs + b"OIFZ" + struct.pack("<I", len(inputs)))
        count += 1
    names = set()
    for schema in defs.get_all_schemas_with_history():
        names.add(schema.name)
        if schema.domain:
            names.add(schema.domain)
    names.update(["ai.onnx", "ai.onnx.ml", "com.microsoft", "ai.onnx.preview.training"])
    with open(os.path.join(out, "onnx.dict"), "w") as f:
        for n in sorted(names):
            f.write('"%s"\n' % n)
    print("make_seeds: %d models, %d dictionary words in %s" % (count, len(names), out))


if __name__ == "__main__":
    main()
