#!/usr/bin/env bash
# The test suite under the sanitizers (CI runs it after scripts/test.sh):
#
#   1. build-asan: clang with AddressSanitizer + UndefinedBehaviorSanitizer
#      (OINFER_FUZZ=ON: the same build gives the libFuzzer targets), CUDA off;
#      runs the unit, op and model tests (oinfer_tests, and its GEMM / Conv
#      tests again on the AVX2 and generic micro-kernels), replays the fuzz
#      regression inputs and fuzzes each target briefly (scripts/fuzz.sh --ci).
#   2. build-tsan: GCC with ThreadSanitizer, CUDA off; runs the concurrency
#      tests (the thread pool, concurrent runs of one Session, the 8-thread
#      dynamic-shape stress test, the C API from several threads).
#
# Any sanitizer report fails its test: UBSan does not recover
# (-fno-sanitize-recover=all), ASan and TSan halt on the first error.
#
#   scripts/test_sanitizers.sh [asan|tsan|all]   (default all)
# Environment: OINFER_JOBS (build jobs), OINFER_FUZZ_CI_SECONDS (default 90),
# OINFER_ASAN_BUILD_DIR (default build-asan; build-fuzz shares its objects).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
WHAT="${1:-all}"

scripts/setup.sh
need=()
for p in clang libclang-rt-14-dev; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
done
if [[ "$WHAT" != tsan ]] && ((${#need[@]})); then
  echo "sanitizers: installing Debian packages: ${need[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  export CCACHE_NOHASHDIR=1  # objects shared between build-fuzz and build-asan (same flags)
fi
jobs=(-j "${OINFER_JOBS:-$(nproc)}")
ctest_jobs=(-j "$(nproc)")
stage_start=0
stage() { stage_start=$SECONDS; echo "sanitizers: $*"; }
stage_done() { echo "sanitizers: $* took $((SECONDS - stage_start)) s"; }

# The concurrency tests (ctest names, from gtest_discover_tests).
TSAN_TESTS='^(ThreadPool\.|ConcurrencyStress\.|ModelTest\.MobileNetConcurrentRunsMatchSingleThreaded$|CApi\.ConcurrentRunsOnOneSession$|CApi\.LastErrorIsPerThreadAndKeptOnSuccess$|PlannedScratch\.SessionsSharingAPoolRunConcurrently$|ZeroAllocation\.RunKeptOutputsUnderConcurrentRuns$)'

ASAN_DIR="${OINFER_ASAN_BUILD_DIR:-build-asan}"
if [[ "$WHAT" == asan || "$WHAT" == all ]]; then
  stage "$ASAN_DIR (clang, address + undefined, fuzz targets)"
  if [ ! -f "$ASAN_DIR/build.ninja" ]; then
    cmake -S . -B "$ASAN_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g -DNDEBUG" \
      -DCMAKE_CXX_COMPILER=clang++ -DOINFER_CUDA=OFF -DOINFER_FUZZ=ON -DOINFER_BUILD_TOOLS=OFF "${launcher[@]}" >/dev/null
  fi
  cmake -S . -B "$ASAN_DIR" -DOINFER_BUILD_TESTS=ON >/dev/null  # a build-fuzz made by scripts/fuzz.sh has them off
  cmake --build "$ASAN_DIR" "${jobs[@]}" --target oinfer_tests oinfer_fuzz_loader oinfer_fuzz_session
  stage_done "$ASAN_DIR"

  stage "unit, op and model tests under ASan + UBSan"
  ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    ctest --test-dir "$ASAN_DIR" --output-on-failure "${ctest_jobs[@]}" -L "^unit$"
  stage_done "ASan + UBSan tests"

  stage "fuzz regressions and a short fuzz run"
  OINFER_FUZZ_BUILD_DIR="$ASAN_DIR" scripts/fuzz.sh --ci "${OINFER_FUZZ_CI_SECONDS:-90}"
  stage_done "fuzzing"
fi

if [[ "$WHAT" == tsan || "$WHAT" == all ]]; then
  stage "build-tsan (GCC, thread)"
  if [ ! -f build-tsan/build.ninja ]; then
    cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g -DNDEBUG" \
      -DOINFER_CUDA=OFF -DOINFER_SANITIZE=thread -DOINFER_BUILD_TOOLS=OFF "${launcher[@]}" >/dev/null
  fi
  cmake --build build-tsan "${jobs[@]}" --target oinfer_tests
  stage_done "build-tsan"

  stage "concurrency tests under TSan"
  TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
    ctest --test-dir build-tsan --output-on-failure "${ctest_jobs[@]}" -R "$TSAN_TESTS"
  stage_done "TSan tests"
fi
echo "sanitizers: all passed"
