#!/usr/bin/env bash
# The GPU check: on a machine with an NVIDIA GPU (the device tool's H200),
# configure and build oinfer with the CUDA backend, run every GPU test, and
# benchmark oinfer --device cuda against PyTorch eager; writes a markdown
# report (and at most 7 logs: the device tool returns 8 files) to $OUT (or
# ./gpu_check_out). Finishes within about
# 8 minutes: each stage has its own time box and a stage that runs out is
# reported, not fatal to the rest.
#
#   here:  tools/gpu_deps.sh                 (once: .deb files into .gpu-deps)
#   there: bash tools/gpu_check.sh .gpu-deps (device tool, carry [".gpu-deps"])
#
# Needs there: nvcc + cuBLAS (CUDA 13 under /usr/local/cuda), cuDNN from the
# nvidia-cudnn wheel beside PyTorch (or CUDNN_ROOT), CMake, ninja, python3
# with torch, torchvision, transformers and numpy.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
DEPS_DEBS="${1:-.gpu-deps}"
OUT="${OUT:-$ROOT/gpu_check_out}"
mkdir -p "$OUT"
REPORT="$OUT/gpu_report.md"
BUILD="${GPU_BUILD_DIR:-/tmp/oinfer-gpu-build}"
PREFIX=/tmp/oinfer-gpu-deps
JOBS="${JOBS:-16}"
T0=$(date +%s)
elapsed() { echo $(($(date +%s) - T0)); }
note() { echo "$*" | tee -a "$REPORT"; }
stage() { echo; echo "== [$(elapsed)s] $*"; }

: >"$REPORT"
note "# oinfer GPU check"
note ""
note "- commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown) ($(git log -1 --format=%cd --date=iso 2>/dev/null))"
note "- GPU: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null || echo 'nvidia-smi unavailable')"
note "- nvcc: $(/usr/local/cuda/bin/nvcc --version 2>/dev/null | grep -o 'release [0-9.]*' || echo missing)"

# ---- 1. dependencies ------------------------------------------------------------
stage "dependencies"
rm -rf "$PREFIX" && mkdir -p "$PREFIX"
ndeb=0
for f in "$DEPS_DEBS"/*.deb; do
  [ -e "$f" ] || continue
  dpkg-deb -x "$f" "$PREFIX" && ndeb=$((ndeb + 1))
done
note "- carried Debian packages extracted: $ndeb (from $DEPS_DEBS)"
LIBDIR="$PREFIX/usr/lib/x86_64-linux-gnu"
PY=python3
CUDNN_ROOT="${CUDNN_ROOT:-$($PY -c 'import nvidia.cudnn, os; print(list(nvidia.cudnn.__path__)[0])' 2>/dev/null)}"
CUBLAS_DIR="$($PY -c 'import nvidia.cublas, os; print(list(nvidia.cublas.__path__)[0])' 2>/dev/null || true)"
export CUDNN_ROOT
note "- cuDNN: ${CUDNN_ROOT:-not found (set CUDNN_ROOT)}"
export LD_LIBRARY_PATH="$LIBDIR:${CUDNN_ROOT:+$CUDNN_ROOT/lib:}${CUBLAS_DIR:+$CUBLAS_DIR/lib:}/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
export PATH="$PREFIX/usr/bin:/usr/local/cuda/bin:$PATH"

# ---- 2. configure and build (Release, -j16) ---------------------------------------------
stage "configure"
built=0
if timeout 120 cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DOINFER_CUDA=ON \
    -DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc -DCMAKE_PREFIX_PATH="$PREFIX/usr" \
    -DProtobuf_PROTOC_EXECUTABLE="$PREFIX/usr/bin/protoc" -DProtobuf_INCLUDE_DIR="$PREFIX/usr/include" \
    -DProtobuf_LIBRARY="$LIBDIR/libprotobuf.so" ${CUDNN_ROOT:+-DCUDNN_ROOT="$CUDNN_ROOT"} \
    >"$OUT/configure.log" 2>&1; then
  stage "build"
  if timeout 330 cmake --build "$BUILD" -j "$JOBS" --target oinfer-run oinfer_cuda_tests >"$OUT/build.log" 2>&1; then
    built=1
    note "- build: OK in $(elapsed)s (Release, -j$JOBS, sm_90 + compute_90 PTX)"
  else
    note "- build: FAILED or timed out at $(elapsed)s; last lines:"
    tail -n 15 "$OUT/build.log" | sed 's/^/    /' | tee -a "$REPORT"
  fi
else
  note "- configure: FAILED; last lines:"
  tail -n 15 "$OUT/configure.log" | sed 's/^/    /' | tee -a "$REPORT"
fi

# ---- 3. GPU tests ---------------------------------------------------------------------------
if [ "$built" = 1 ]; then
  stage "GPU tests"
  timeout 150 "$BUILD/tests/oinfer_cuda_tests" >"$OUT/tests.log" 2>&1
  rc=$?
  summary="$(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$OUT/tests.log" | tr '\n' ' ')"
  note ""
  note "## GPU tests (tests/oinfer_cuda_tests: every CUDA kernel against its CPU kernel)"
  note ""
  note "exit $rc: ${summary:-no summary (timed out?)}"
  grep -E '^\[  FAILED  \] [A-Za-z]' "$OUT/tests.log" | sort -u | sed 's/^/    /' | tee -a "$REPORT"
  # The Session-level GPU tests (tests/models, tests/unit: *Cuda*) live in the
  # big oinfer_tests binary: built and run only while the time box allows.
  left=$((240 - $(elapsed)))
  if [ "$left" -gt 60 ]; then
    if timeout "$left" cmake --build "$BUILD" -j "$JOBS" --target oinfer_tests >"$OUT/build_tests.log" 2>&1; then
      timeout 120 "$BUILD/tests/oinfer_tests" --gtest_filter='*Cuda*:*CUDA*:*Gpu*:*GPU*' >"$OUT/tests_session.log" 2>&1
      note "- oinfer_tests (*Cuda*): exit $?: $(grep -E '^\[  (PASSED|FAILED) ' "$OUT/tests_session.log" | tr '\n' ' ')"
    else
      note "- oinfer_tests: build failed or ran out of its ${left}s box (see build_tests.log)"
    fi
  else
    note "- oinfer_tests (*Cuda*): skipped, the build left ${left}s"
  fi
  # The CLI's --device cuda check.
  (cd "$BUILD" && timeout 60 ctest -R 'Cli.device_cuda' --output-on-failure >"$OUT/ctest.log" 2>&1)
  note "- ctest -R Cli.device_cuda: $(grep -E 'tests passed|tests failed' "$OUT/ctest.log" | tail -n 1)"
fi

# ---- 4. benchmark against PyTorch eager ----------------------------------------------------
if [ "$built" = 1 ]; then
  budget=$((450 - $(elapsed)))
  if [ "$budget" -gt 40 ]; then
    stage "benchmark (${budget}s)"
    timeout "$budget" env PYTHONUNBUFFERED=1 $PY "$ROOT/tools/gpu_bench.py" "$BUILD/oinfer-run" /tmp/oinfer-gpu-bench \
      "$REPORT" --runs 50 --time-budget $((budget - 15)) >"$OUT/bench.log" 2>&1 ||
      note "- benchmark: exit $? (see bench.log)"
  else
    note "- benchmark: skipped, ${budget}s left"
  fi
fi
note ""
note "total: $(elapsed)s"
cat "$REPORT"
