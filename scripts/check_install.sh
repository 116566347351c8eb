#!/usr/bin/env bash
# Installs a built tree into a prefix, then builds examples/classify (C++),
# examples/serving (C++: options, batches, runInto, fetch, deadlines,
# cancellation) and examples/c_classify (C, through oinfer_c.h) against it
# with find_package(oinfer) and checks what each prints for the digit-7
# sample; then builds the custom-op plugin of examples/custom_ops against it
# and runs its ops from C++, from C and through the installed oinfer-run
# --custom-ops.
# usage: scripts/check_install.sh [BUILD_DIR] [PREFIX]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="$(realpath -m "${1:-$ROOT/build}")"
PREFIX="$(realpath -m "${2:-$BUILD/_install}")"
EXAMPLE_BUILD="${PREFIX}_example"
C_EXAMPLE_BUILD="${PREFIX}_c_example"
SERVING_BUILD="${PREFIX}_serving"
OPS_BUILD="${PREFIX}_custom_ops"
rm -rf "$PREFIX" "$EXAMPLE_BUILD" "$C_EXAMPLE_BUILD" "$SERVING_BUILD" "$OPS_BUILD"
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

cmake -S "$ROOT/examples/custom_ops" -B "$OPS_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$PREFIX" >/dev/null
cmake --build "$OPS_BUILD" >/dev/null
PLUGIN="$OPS_BUILD/liboinfer_example_ops.so"
MODELS="$ROOT/examples/custom_ops/models"
out="$("$OPS_BUILD/run_custom_ops" "$PLUGIN" "$MODELS")"
echo "$out"
grep -q "custom ops example: OK" <<<"$out" || { echo "check_install: the custom-op example failed" >&2; exit 1; }
out="$("$OPS_BUILD/run_custom_ops_c" "$PLUGIN" "$MODELS")"
echo "$out"
grep -q "custom ops C example: OK" <<<"$out" || { echo "check_install: the custom-op C example failed" >&2; exit 1; }
for m in deform_conv2d dynamic_resize; do
  out="$("$PREFIX/bin/oinfer-run" "$MODELS/$m.onnx" --custom-ops "$PLUGIN" \
    --test-data "$MODELS/${m}_test_data/test_data_set_0" --rtol 0 --atol 1e-5)"
  grep -q "^test-data: all [0-9]* outputs match$" <<<"$out" || {
    echo "$out"
    echo "check_install: oinfer-run --custom-ops on $m.onnx did not match" >&2
    exit 1
  }
done
echo "check_install: custom-op plugin built against the installed package OK (C++, C, oinfer-run)"
