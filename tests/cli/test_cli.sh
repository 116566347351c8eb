#!/usr/bin/env bash
# One oinfer-run check per call (each is its own CTest test):
#   tests/cli/test_cli.sh OINFER_RUN SOURCE_DIR CASE
# Checks exit codes exactly, and that every error is one "oinfer-run: " line on stderr.
set -u
RUN="$1"
SRC="$2"
CASE="$3"
MODEL="$SRC/models/digits.onnx"
SAMPLE7="$SRC/models/digits_samples/digit_7.npy"
TMP="$(mktemp -d "${TMPDIR:-/tmp}/oinfer_cli.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT

fail() {
  echo "FAIL [$CASE]: $*"
  echo "--- stdout"; cat "$TMP/out" 2>/dev/null
  echo "--- stderr"; cat "$TMP/err" 2>/dev/null
  exit 1
}

# run EXPECTED_STATUS ARGS...: runs oinfer-run with a time limit.
run() {
  local want="$1"
  shift
  timeout 120 "$RUN" "$@" >"$TMP/out" 2>"$TMP/err"
  local got=$?
  [ "$got" -eq "$want" ] || fail "exit status $got, expected $want (args: $*)"
  if [ "$want" -eq 2 ]; then
    [ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "stderr is not exactly one line"
    grep -q '^oinfer-run: ' "$TMP/err" || fail "stderr does not start with 'oinfer-run: '"
  fi
}
has() { grep -qE -- "$1" "$TMP/out" || fail "stdout lacks /$1/"; }
err_has() { grep -qE -- "$1" "$TMP/err" || fail "stderr lacks /$1/"; }

case "$CASE" in
  help)
    run 0 --help
    has '^usage: oinfer-run MODEL'
    for opt in --input --shape --output-dir --test-data --rtol --atol --bench --warmup --profile \
      --print-plan --threads --device --fp16 --no-cuda-graphs --json --top-k --help --version; do
      has -- "$opt"
    done ;;
  version)
    run 0 --version
    has '^oinfer-run [0-9]+\.[0-9]+\.[0-9]+' ;;
  summary)
    run 0 "$MODEL"
    has '^producer +oinfer-train-digits 1.0'
    has '^ir_version +8'
    has '^opsets +ai.onnx 17'
    has 'pixels +float32 +\[batch,64\]'
    has 'probabilities +float32 +\[batch,10\]'
    has 'pixels +float32 +\[1,64\] +random'
    has 'probabilities +float32 +\[1,10\] +min [0-9.e+-]+ +max [0-9.e+-]+ +mean 0.1' ;;
  top_k)
    run 0 "$MODEL" --input "pixels=$SAMPLE7" --top-k 1
    has 'top-1: \[7\] 0\.99'
    run 0 "$MODEL" --input "pixels=$SRC/models/digits_samples/digit_3.npy" --top-k 3
    has 'top-3: \[3\] 0\.99[0-9]* \[[0-9]\] [0-9.e-]+ \[[0-9]\]' ;;
  shape)
    run 0 "$MODEL" --shape pixels=5x64
    has 'probabilities +float32 +\[5,10\]' ;;
  pb_input)
    run 0 "$MODEL" --input "pixels=$SRC/models/digits_test_data/input_0.pb"
    has 'probabilities +float32 +\[8,10\]' ;;
  test_data)
    run 0 "$MODEL" --test-data "$SRC/models/digits_test_data"
    has 'probabilities +OK +max abs err'
    has 'all 1 outputs match' ;;
  test_data_wrong)
    run 1 "$MODEL" --test-data "$SRC/tests/cli/data/digits_wrong"
    has 'probabilities +MISMATCH'
    has '1 of 1 outputs MISMATCH' ;;
  test_data_tolerance)
    # The wrong data differs by ~1: a huge atol accepts it.
    run 0 "$MODEL" --test-data "$SRC/tests/cli/data/digits_wrong" --atol 2
    has 'all 1 outputs match' ;;
  garbage_model)
    head -c 4096 /dev/urandom >"$TMP/garbage.onnx"
    run 2 "$TMP/garbage.onnx"
    printf 'not a model at all\n' >"$TMP/text.onnx"
    run 2 "$TMP/text.onnx"
    : >"$TMP/empty.onnx"
    run 2 "$TMP/empty.onnx" ;;
  garbage_input)
    head -c 300 /dev/urandom >"$TMP/garbage.npy"
    run 2 "$MODEL" --input "pixels=$TMP/garbage.npy"
    err_has 'garbage.npy'
    head -c 300 /dev/urandom >"$TMP/garbage.pb"
    run 2 "$MODEL" --input "pixels=$TMP/garbage.pb"
    run 2 "$MODEL" --input "pixels=$TMP/missing.npy"
    err_has 'no such file'
    run 2 "$MODEL" --input "pixels=$TMP/x.txt"
    run 2 "$MODEL" --input "pixels=$SRC/models/digits.onnx" ;;
  missing_model)
    run 2 "$TMP/nope.onnx"
    err_has 'no such file'
    run 2 ;;
  unknown_input)
    run 2 "$MODEL" --input "nosuch=$SAMPLE7"
    err_has "has no input 'nosuch' \(inputs: pixels\)"
    run 2 "$MODEL" --shape nosuch=1x2
    err_has "has no input 'nosuch'" ;;
  bad_options)
    run 2 "$MODEL" --frobnicate
    err_has "unknown option '--frobnicate'"
    run 2 "$MODEL" --bench
    run 2 "$MODEL" --bench abc
    run 2 "$MODEL" --top-k 0
    run 2 "$MODEL" --shape pixels=1xq
    run 2 "$MODEL" --rtol -1
    run 2 "$MODEL" --device tpu
    run 2 "$MODEL" --input pixels
    run 2 "$MODEL" "$MODEL" ;;
  wrong_shape)
    run 2 "$MODEL" --shape pixels=1x63 ;;
  device_cuda)
    # Without a CUDA backend or device: exit 2 and say so. With both, it must run.
    timeout 120 "$RUN" "$MODEL" --device cuda --input "pixels=$SAMPLE7" --top-k 1 >"$TMP/out" 2>"$TMP/err"
    status=$?
    if [ "$status" -eq 0 ]; then
      has 'top-1: \[7\] 0\.99'
    else
      run 2 "$MODEL" --device cuda
      err_has '^oinfer-run: device cuda: (this build of oinfer has no CUDA backend|.+)$'
      [ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "the device error is not one line"
    fi ;;
  json)
    run 0 "$MODEL" --input "pixels=$SAMPLE7" --top-k 2 --bench 3 --profile --print-plan --json
    head -c 1 "$TMP/out" | grep -q '{' || fail "stdout does not start with '{'"
    tail -n 1 "$TMP/out" | grep -qx '}' || fail "stdout does not end with '}'"
    for key in model producer ir_version opsets inputs outputs timing bench profile plan memory top_k; do
      has "\"$key\": "
    done
    has '"index": 7'
    has '"algorithm": "gemm-packed-b (avx512|avx2|portable)"'
    if command -v python3 >/dev/null; then
      python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["outputs"][0]["top_k"][0]["index"]==7' \
        <"$TMP/out" || fail "stdout is not the expected JSON"
    fi
    run 1 "$MODEL" --test-data "$SRC/tests/cli/data/digits_wrong" --json
    has '"passed": false' ;;
  output_dir)
    run 0 "$MODEL" --input "pixels=$SAMPLE7" --output-dir "$TMP/out_dir/nested"
    [ -f "$TMP/out_dir/nested/probabilities.npy" ] || fail "no probabilities.npy written"
    head -c 6 "$TMP/out_dir/nested/probabilities.npy" | grep -q 'NUMPY' || fail "not an .npy file"
    # The written file reads back as an input of the same shape family.
    run 0 "$MODEL" --input "pixels=$SAMPLE7" --output-dir "$TMP/out_dir/nested" ;;
  bench)
    run 0 "$MODEL" --bench 5 --warmup 2 --threads 1
    has '^bench +5 runs after 2 warmup'
    has 'load [0-9.]+ ms +first run \(plan\) [0-9.]+ ms'
    has 'latency ms +min [0-9.]+ +median [0-9.]+ +p90 [0-9.]+ +max [0-9.]+' ;;
  profile)
    run 0 "$MODEL" --profile --bench 2
    has '^profile '
    has '(Gemm|FusedMatMul) +fc[12] +[0-9.]+ +[0-9.]+%'
    has 'Softmax +softmax' ;;
  print_plan)
    run 0 "$MODEL" --print-plan
    has '^plan +[0-9]+ steps'
    has 'Softmax +softmax +-> probabilities \[1,10\]'
    # Each GEMM step names its algorithm and ISA (Kernel::algorithm).
    has '\[gemm-packed-b (avx512|avx2|portable)\]'
    has '^memory +arena [0-9.]+ [KMG]?i?B, lower bound [0-9.]+ [KMG]?i?B \(arena / bound [0-9.]+\), weights 1[0-9.]+ KiB, scratch [0-9.]+ [KMG]?i?B' ;;
  *)
    echo "unknown case '$CASE'"
    exit 2 ;;
esac
echo "PASS [$CASE]"
