#!/usr/bin/env bash
# Installs a built tree into a prefix, then builds examples/classify (C++),
# examples/serving (C++: options, batches, runInto, fetch, deadlines,
# cancellation) and examples/c_classify (C, through oinfer_c.h) against it
# with find_package(oinfer) and checks what each prints for the digit-7 sample.
# usage: scripts/check_install.sh [BUILD_DIR] [PREFIX]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="$(realpath -m "${1:-$ROOT/build}")"
PREFIX="$(realpath -m "${2:-$BUILD/_install}")"
EXAMPLE_BUILD="${PREFIX}_example"
C_EXAMPLE_BUILD="${PREFIX}_c_example"
SERVING_BUILD="${PREFIX}_serving"
rm -rf "$PREFIX" "$EXAMPLE_BUILD" "$C_EXAMPLE_BUILD" "$SERVING_BUILD"
cmake --install "$BUILD" --prefix "$PREFIX" >/dev/null
cmake -S "$ROOT/examples/classify" -B "$EXAMPLE_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$PREFIX" >/dev/null
cmake --build "$EXAMPLE_BUILD" >/dev/null
out="$("$EXAMPLE_BUILD/classify" "$ROOT/models/digits.onnx" "$ROOT/models/digits_samples/digit_7.npy")"
echo "$out"
if ! grep -q "predicted digit: 7" <<<"$out"; then
  echo "check_install: the installed example did not predict 7" >&2
  exit 1
fi
echo "check_install: find_package(oinfer) example OK"

cmake -S "$ROOT/examples/serving" -B "$SERVING_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$PREFIX" >/dev/null
cmake --build "$SERVING_BUILD" >/dev/null
out="$("$SERVING_BUILD/serving" "$ROOT/models/digits.onnx" "$ROOT/models/digits_samples/digit_7.npy")"
echo "$out"
for want in "batch of 4: predicted digit 7" "hidden_pre: 64 values" \
  "stopped: run cancelled: RunOptions::terminate was set; stopped before node"; do
  if ! grep -qF "$want" <<<"$out"; then
    echo "check_install: the serving example did not print '$want'" >&2
    exit 1
  fi
done
echo "check_install: find_package(oinfer) serving example OK"

cmake -S "$ROOT/examples/c_classify" -B "$C_EXAMPLE_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$PREFIX" >/dev/null
cmake --build "$C_EXAMPLE_BUILD" >/dev/null
out="$("$C_EXAMPLE_BUILD/c_classify" "$ROOT/models/digits.onnx" "$ROOT/models/digits_samples/digit_7.npy")"
echo "$out"
if ! grep -q "predicted digit: 7" <<<"$out"; then
  echo "check_install: the installed C example did not predict 7" >&2
  exit 1
fi
echo "check_install: find_package(oinfer) C API example OK"
