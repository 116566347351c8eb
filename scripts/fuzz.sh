#!/usr/bin/env bash
# The libFuzzer targets (tests/fuzz): oinfer_fuzz_loader (the parser) and
# oinfer_fuzz_session (load, Session: passes, shape inference, folding,
# planning, one run on small inputs). Installs clang and the libFuzzer runtime
# from Debian when missing, builds with OINFER_FUZZ=ON (clang,
# -fsanitize=fuzzer,address,undefined) in build-fuzz/, makes the seed corpora
# from the onnx node tests, then:
#
#   scripts/fuzz.sh --build            only build (and make the seeds)
#   scripts/fuzz.sh --replay           replay tests/fuzz/regressions/ (fails on a crash)
#   scripts/fuzz.sh --ci [SECONDS]     replay, then fuzz SECONDS in all (default 90:
#                                      a fifth on the loader, the rest on the session);
#                                      fails on a crash, a leak or an escaped exception
#   scripts/fuzz.sh --campaign HOURS   a long run of the session target in the
#                                      background-friendly fork mode (one job, nice 19):
#                                      crashes, leaks, timeouts and out-of-memory
#                                      inputs are saved under build-fuzz/findings/ and
#                                      the run goes on; log: build-fuzz/campaign.log
#
# Environment: OINFER_FUZZ_BUILD_DIR (default build-fuzz), OINFER_JOBS (build
# jobs). A finding reproduces with: build-fuzz/tests/fuzz/oinfer_fuzz_session FILE.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

MODE="${1:---ci}"
ARG="${2:-}"
BUILD="${OINFER_FUZZ_BUILD_DIR:-build-fuzz}"
REG="$ROOT/tests/fuzz/regressions"

# ---- tools: clang and libFuzzer's runtime, only for this script ------------
need=()
for p in clang libclang-rt-14-dev; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
done
if ((${#need[@]})); then
  echo "fuzz: installing Debian packages: ${need[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
scripts/setup.sh  # the library's own packages and .venv (onnx for the seeds)

# ---- build -------------------------------------------------------------------
launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
if [ ! -f "$BUILD/build.ninja" ]; then
  # -O1: the sanitizers' usual level (a quicker build; the fuzz inputs are small).
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g -DNDEBUG" \
    -DCMAKE_CXX_COMPILER=clang++ -DOINFER_CUDA=OFF -DOINFER_FUZZ=ON -DOINFER_BUILD_TESTS=OFF \
    -DOINFER_BUILD_TOOLS=OFF "${launcher[@]}" >/dev/null
fi
cmake --build "$BUILD" ${OINFER_JOBS:+-j "$OINFER_JOBS"} --target oinfer_fuzz_loader oinfer_fuzz_session

SEEDS="$BUILD/seeds"
if [ ! -f "$SEEDS/onnx.dict" ]; then
  .venv/bin/python tests/fuzz/make_seeds.py "$SEEDS"
fi

# Sanitizer reports end the input (UBSan included: -fno-sanitize-recover);
# leaks count; big single allocations are reported rather than swapped.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
COMMON=(-rss_limit_mb=2048 -malloc_limit_mb=1024 -max_len=65536)

replay() {
  local ok=1
  for target in loader session; do
    local dir="$REG/$target"
    [ -d "$dir" ] || continue
    mapfile -t files < <(find "$dir" -type f ! -name '*.md' | sort)
    ((${#files[@]})) || continue
    echo "fuzz: replaying ${#files[@]} regression inputs on oinfer_fuzz_$target"
    if ! "$BUILD/tests/fuzz/oinfer_fuzz_$target" "${COMMON[@]}" -timeout=120 "${files[@]}" >"$BUILD/replay_$target.log" 2>&1; then
      echo "fuzz: a regression input fails again on oinfer_fuzz_$target:"
      tail -n 40 "$BUILD/replay_$target.log"
      ok=0
    fi
  done
  ((ok))
}

fuzz_for() {  # target seconds
  local target="$1" secs="$2"
  local corpus="$BUILD/corpus-ci/$target" art="$BUILD/artifacts-ci/$target/"
  mkdir -p "$corpus" "$art"
  echo "fuzz: $target for ${secs}s"
  # A fixed seed (OINFER_FUZZ_SEED, default 1): CI's short run follows the same
  # mutations every time, so it fails for a change of the code, not by luck;
  # campaigns (--campaign) explore with random seeds.
  if ! "$BUILD/tests/fuzz/oinfer_fuzz_$target" "${COMMON[@]}" -seed="${OINFER_FUZZ_SEED:-1}" -timeout=60 \
      -max_total_time="$secs" -print_final_stats=1 \
      -dict="$SEEDS/onnx.dict" -artifact_prefix="$art" "$corpus" "$SEEDS/$target" >"$BUILD/ci_$target.log" 2>&1; then
    echo "fuzz: oinfer_fuzz_$target found a failure (input saved in $art; add it to tests/fuzz/regressions/$target/):"
    tail -n 60 "$BUILD/ci_$target.log"
    return 1
  fi
  grep -E "^stat::number_of_executed_units|^#[0-9]+.*DONE" "$BUILD/ci_$target.log" | sed 's/^/fuzz:   /' || true
}

case "$MODE" in
  --build) ;;
  --replay) replay ;;
  --ci)
    total="${ARG:-90}"
    replay
    fuzz_for loader $((total / 5))
    fuzz_for session $((total - total / 5))
    echo "fuzz: no failure"
    ;;
  --campaign)
    hours="${ARG:?--campaign HOURS}"
    secs=$(awk -v h="$hours" 'BEGIN { printf "%d", h * 3600 }')
    corpus="$BUILD/corpus/session"
    findings="$BUILD/findings/"
    mkdir -p "$corpus" "$findings"
    echo "fuzz: campaign of ${hours} h on oinfer_fuzz_session; log $BUILD/campaign.log, findings in $findings"
    # Fork mode with one job: a crash, leak, timeout or out-of-memory input is
    # saved and the campaign goes on (the -ignore_* flags); the corpus grows
    # in $corpus. Stats lines: "#N: cov: C ft: F corp: ... exec/s: E oom/timeout/crash: o/t/c time: Ns".
    # A copy of the binary: rebuilding the build folder (a fix, the ASan
    # tests) does not change what the campaign's forked jobs run.
    # (copied, then renamed: an earlier campaign may still run the old file)
    cp "$BUILD/tests/fuzz/oinfer_fuzz_session" "$BUILD/oinfer_fuzz_session.campaign.tmp"
    mv -f "$BUILD/oinfer_fuzz_session.campaign.tmp" "$BUILD/oinfer_fuzz_session.campaign"
    exec nice -n 19 "$BUILD/oinfer_fuzz_session.campaign" "${COMMON[@]}" -timeout=30 -max_total_time="$secs" \
      -fork=1 -ignore_crashes=1 -ignore_ooms=1 -ignore_timeouts=1 -print_final_stats=1 \
      -dict="$SEEDS/onnx.dict" -artifact_prefix="$findings" "$corpus" "$SEEDS/session" \
      >"$BUILD/campaign.log" 2>&1
    ;;
  *)
    echo "usage: scripts/fuzz.sh [--build | --replay | --ci [SECONDS] | --campaign HOURS]" >&2
    exit 2
    ;;
esac
