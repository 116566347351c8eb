#!/usr/bin/env bash
# Configures and builds oinfer into build/ (Release, Ninja): everything, or the
# targets given (scripts/build.sh oinfer-run).
# Extra CMake options: OINFER_CMAKE_ARGS="-DOINFER_CUDA=OFF" scripts/build.sh
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
if [ ! -f build/build.ninja ] || [ -n "${OINFER_CMAKE_ARGS:-}" ]; then
  # shellcheck disable=SC2086
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release ${OINFER_CMAKE_ARGS:-} >/dev/null
fi
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build build ${OINFER_JOBS:+-j "$OINFER_JOBS"} "${targets[@]}"
