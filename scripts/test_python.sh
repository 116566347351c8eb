#!/usr/bin/env bash
# The Python package: `pip install .` into a virtual environment of its own
# (build-py-venv), then pytest over python/tests: the session API tests
# and onnx's BackendTest against oinfer.backend.
#
# The venv sees the packages of .venv (onnx, onnxruntime, numpy, pytest;
# scripts/setup.sh) through a .pth file, so nothing is installed twice;
# the wheel itself builds in build-py (kept between runs;
# with ccache installed it is used, CCACHE_* taken from the environment).
#
#   scripts/test_python.sh                 install and test
#   scripts/test_python.sh --update-docs   ... and rewrite the BackendTest
#                                          section of docs/conformance.md
#   extra arguments go to pytest (e.g. -k digits)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
update_docs=0
if [ "${1:-}" = "--update-docs" ]; then
  update_docs=1
  shift
fi
scripts/setup.sh

VENV="$ROOT/build-py-venv"
if [ ! -x "$VENV/bin/python" ]; then
  "$ROOT/.venv/bin/python" -m venv "$VENV"
fi
base_site=$("$ROOT/.venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
site=$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
echo "$base_site" > "$site/_oinfer_base_venv.pth"

if command -v ccache >/dev/null && [[ "${CMAKE_ARGS:-}" != *COMPILER_LAUNCHER* ]]; then
  export CMAKE_ARGS="${CMAKE_ARGS:-} -DCMAKE_CXX_COMPILER_LAUNCHER=ccache"
fi
start=$(date +%s)
"$VENV/bin/python" -m pip install -q --disable-pip-version-check "$ROOT"
echo "test_python: pip install . took $(( $(date +%s) - start )) s"

# The example custom-op plugin of the C++ build (scripts/test.sh builds it), for
# the test that loads it from Python.
if [ -z "${OINFER_EXAMPLE_OPS:-}" ] && [ -f "$ROOT/build/tests/plugins/liboinfer_example_ops.so" ]; then
  export OINFER_EXAMPLE_OPS="$ROOT/build/tests/plugins/liboinfer_example_ops.so"
fi
junit="$ROOT/build-py-venv/pytest-junit.xml"
# BackendTest writes the real models' reference data under $ONNX_HOME: keep it in the build tree.
export ONNX_HOME="${ONNX_HOME:-$ROOT/build-py-venv/onnx-home}"
start=$(date +%s)
# From build-py-venv, so `import oinfer` is the installed package, not python/oinfer.
status=0
(cd build-py-venv && "$VENV/bin/python" -m pytest -q -p no:cacheprovider --junitxml="$junit" \
  "$ROOT/python/tests" "$@") || status=$?
echo "test_python: pytest took $(( $(date +%s) - start )) s"
# The user guide's Python example (docs/guide.md quotes it).
if [ "$status" = 0 ]; then
  out=$(cd build-py-venv && "$VENV/bin/python" "$ROOT/examples/python/classify.py") || status=$?
  echo "$out"
  for want in "predicted digit: 7" "hidden_pre: (1, 64)" "threads agree: True" "error: "; do
    grep -qF "$want" <<<"$out" || { echo "test_python: examples/python/classify.py did not print '$want'"; status=1; }
  done
fi
# `pip wheel .` (reusing build-py) gives a wheel that installs into a fresh
# venv and classifies the sample there.
if [ "$status" = 0 ]; then
  rm -rf build-py-venv/wheel build-py-venv/wheel-venv
  "$VENV/bin/python" -m pip wheel -q --disable-pip-version-check --no-deps -w build-py-venv/wheel "$ROOT" || status=$?
  whl=$(ls build-py-venv/wheel/oinfer-*.whl 2>/dev/null | head -1)
  if [ -z "$whl" ]; then
    echo "test_python: pip wheel . made no wheel"
    status=1
  else
    echo "test_python: $(basename "$whl") ($(du -k "$whl" | cut -f1) KB)"
    "$ROOT/.venv/bin/python" -m venv build-py-venv/wheel-venv
    echo "$base_site" > "$(build-py-venv/wheel-venv/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/_oinfer_base_venv.pth"
    build-py-venv/wheel-venv/bin/python -m pip install -q --disable-pip-version-check --no-deps "$whl" || status=$?
    got=$(cd build-py-venv && wheel-venv/bin/python -c "import numpy as np, oinfer; s = oinfer.InferenceSession('$ROOT/models/digits.onnx'); print(int(s.run(None, {'pixels': np.load('$ROOT/models/digits_samples/digit_7.npy')})[0].argmax()))") || status=$?
    [ "$got" = 7 ] || { echo "test_python: the installed wheel predicted '$got', not 7"; status=1; }
  fi
fi
if [ "$update_docs" = 1 ]; then
  "$VENV/bin/python" python/tests/backend_report.py "$junit" docs/conformance.md
fi
exit "$status"
