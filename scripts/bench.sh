#!/usr/bin/env bash
# One command for the oinfer vs onnxruntime benchmark (tools/bench/).
#   scripts/bench.sh [bench.py options]      e.g. scripts/bench.sh --batch 1 --threads 2 --profile
# 1. makes the tools' venv (torch, torchvision, transformers, onnx, onnxruntime;
#    from PyPI, several GB) and the benchmark models if they are missing, in
#    $OINFER_BENCH_CACHE (default ~/.cache/oinfer-bench), outside the repo;
# 2. builds the Release shim (target oinfer_bench_shim) in $OINFER_BENCH_BUILD
#    (default build-bench/);
#    (with --int8 also their quantized variants, make_models.py --int8);
# 3. runs tools/bench/bench.py with the options given: a markdown table on
#    stdout, JSON in bench_results.json (or --json PATH).
# Extra CMake options: OINFER_CMAKE_ARGS; build parallelism: OINFER_JOBS (default 2).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
CACHE="${OINFER_BENCH_CACHE:-$HOME/.cache/oinfer-bench}"
BUILD="${OINFER_BENCH_BUILD:-$ROOT/build-bench}"
export OINFER_BENCH_CACHE="$CACHE"

# The models bench.py will want: --models LIST, or all; none for --model PATH.
models="all"
int8=()
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  case "${args[i]}" in
    --models) models="${args[i + 1]:-all}" ;;
    --models=*) models="${args[i]#--models=}" ;;
    --model | --model=*) models="" ;;
    --int8) int8=(--int8) ;;
    -h | --help) models="" ;;
  esac
done

if [ -n "$models" ]; then
  python3 tools/bench/make_models.py --setup --models "$models" "${int8[@]}"
fi
PY="$CACHE/venv/bin/python"
if [ ! -x "$PY" ]; then
  python3 tools/bench/make_models.py --setup-only
fi
[ -x "$PY" ] || PY=python3

if [ ! -f "$BUILD/build.ninja" ] || [ -n "${OINFER_CMAKE_ARGS:-}" ]; then
  launcher=()
  if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
  # shellcheck disable=SC2086
  cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" \
    ${OINFER_CMAKE_ARGS:-} >/dev/null
fi
cmake --build "$BUILD" --target oinfer_bench_shim -j "${OINFER_JOBS:-2}"

exec "$PY" tools/bench/bench.py --shim "$BUILD/liboinfer_bench_shim.so" "$@"
