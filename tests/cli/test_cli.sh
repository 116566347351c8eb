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

# run EXPECTED_STATUS ARGS...: runs oinfer-run with a time limit (and PATH=$RUN_PATH when set).
run() {
  local want="$1"
  shift
  if [ -n "${RUN_PATH:-}" ]; then
    timeout 120 env PATH="$RUN_PATH" "$RUN" "$@" >"$TMP/out" 2>"$TMP/err"
  else
    timeout 120 "$RUN" "$@" >"$TMP/out" 2>"$TMP/err"
  fi
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
      --print-plan --threads --device --fp16 --no-cuda-graphs --json --top-k --help --version \
      --fetch --opt-level --list-ops --dot --bench-seconds --progress --memory-limit; do
      has "$opt"
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
  fetch)
    # hidden_pre is fused away at level 1 (Gemm + Relu -> FusedMatMul) unless fetched.
    run 0 "$MODEL" --input "pixels=$SAMPLE7" --fetch hidden_pre --fetch hidden --threads 1
    has '^fetched$'
    has '^  hidden_pre +float32 +\[1,64\] +min -[0-9.]+ +max [0-9.]+ +mean [0-9.]+$'
    has '^  hidden +float32 +\[1,64\] +min 0 +max [0-9.]+ +mean [0-9.]+$'
    has 'top-1|probabilities +float32 +\[1,10\]'
    grep -E '^  hidden' "$TMP/out" >"$TMP/level1"
    # The same values as the graph without passes.
    run 0 "$MODEL" --input "pixels=$SAMPLE7" --fetch hidden_pre --fetch hidden --threads 1 --opt-level 0
    grep -E '^  hidden' "$TMP/out" >"$TMP/level0"
    cmp -s "$TMP/level0" "$TMP/level1" || fail "fetched values differ between --opt-level 0 and 1"
    # The plan keeps the Gemm's own output; the rest stays fused.
    run 0 "$MODEL" --fetch hidden_pre --print-plan
    has 'FusedMatMul +fc1 +-> hidden_pre \[1,64\]'
    has 'Relu +relu1 +-> hidden \[1,64\]'
    has 'FusedMatMul +fc2 '
    # Saved and reported like outputs; a graph output may be fetched too.
    run 0 "$MODEL" --input "pixels=$SAMPLE7" --fetch hidden_pre --fetch probabilities --output-dir "$TMP/o" --json
    [ -f "$TMP/o/hidden_pre.npy" ] || fail "no hidden_pre.npy written"
    [ -f "$TMP/o/probabilities.npy" ] || fail "no probabilities.npy written"
    has '"fetched": '
    if command -v python3 >/dev/null; then
      python3 -c 'import json,sys; d=json.load(sys.stdin); f=d["fetched"]; assert [e["name"] for e in f]==["hidden_pre","probabilities"], f; assert f[0]["shape"]==[1,64]; assert f[1]["max"]==d["outputs"][0]["max"]' \
        <"$TMP/out" || fail "stdout is not the expected JSON"
    fi ;;
  fetch_errors)
    run 2 "$MODEL" --fetch hiden_pre
    err_has "^oinfer-run: --fetch hiden_pre: the model has no value 'hiden_pre' \(did you mean 'hidden_pre'\?\)$"
    run 2 "$MODEL" --fetch zzz
    err_has "^oinfer-run: --fetch zzz: the model has no value 'zzz'$"
    run 2 "$MODEL" --fetch W1
    err_has "'W1' is a weight \(initializer\), not a computed value"
    run 2 "$MODEL" --fetch hidden --fetch hidden
    err_has "--fetch hidden given twice"
    run 2 "$MODEL" --fetch ;;
  opt_level)
    run 0 "$MODEL" --opt-level 0 --print-plan
    has '^     0  Gemm +fc1 +-> hidden_pre \[1,64\]'
    has 'Relu +relu1 +-> hidden \[1,64\]'
    run 0 "$MODEL" --opt-level=1 --print-plan
    has 'FusedMatMul +fc1 +-> hidden \[1,64\]'
    run 2 "$MODEL" --opt-level 2
    err_has "--opt-level: '2' is not a level \(0: no graph passes, 1: all of them\)"
    run 2 "$MODEL" --opt-level fast
    err_has "--opt-level: 'fast' is not a level" ;;
  list_ops)
    run 0 "$MODEL" --list-ops
    has '^ops +3 op types, 4 nodes, 0 unsupported$'
    has '^  ai\.onnx +Gemm +17 +2  yes$'
    has '^  ai\.onnx +Relu +17 +1  yes$'
    has '^  ai\.onnx +Softmax +17 +1  yes$'
    grep -q '^outputs' "$TMP/out" && fail "--list-ops ran the model"
    # If / Loop / Scan bodies count: Mul is only in them.
    run 0 "$SRC/tests/data/models/control_flow/model.onnx" --list-ops
    has '^  ai\.onnx +Mul +18 +4  yes$'
    has '^  ai\.onnx +If +18 +2  yes$'
    # An op this build lacks: listed as such, exit 0 (a run of the model fails).
    run 0 "$SRC/tests/cli/data/unsupported_op.onnx" --list-ops
    has '^ops +2 op types, 2 nodes, 1 unsupported$'
    has '^  com\.example +FooBar +3 +1  NO$'
    has '^  ai\.onnx +Relu +17 +1  yes$'
    run 2 "$SRC/tests/cli/data/unsupported_op.onnx"
    err_has 'com\.example::FooBar \(opset 3\)'
    run 0 "$MODEL" --list-ops --json
    has '"op_type": "Gemm"'
    if command -v python3 >/dev/null; then
      python3 -c 'import json,sys; d=json.load(sys.stdin); assert {"domain":"ai.onnx","op_type":"Gemm","opset":17,"nodes":2,"supported":True} in d["ops"], d' \
        <"$TMP/out" || fail "stdout is not the expected JSON"
    fi ;;
  dot)
    run 0 "$MODEL" --dot "$TMP/g.dot"
    has "^wrote $TMP/g.dot "
    grep -q '^digraph oinfer {' "$TMP/g.dot" || fail "no digraph in g.dot"
    grep -qF 'label="FusedMatMul\nfc1\n(Gemm+Relu)"' "$TMP/g.dot" || fail "the fused Gemm+Relu is not marked"
    grep -qF 'fillcolor="#ffd8a8"' "$TMP/g.dot" || fail "fused nodes are not coloured"
    grep -qF 'in0 -> s0 [label="pixels\n[1,64]"]' "$TMP/g.dot" || fail "no input edge with its shape"
    grep -qF 's2 -> out0 [label="probabilities\n[1,10]"]' "$TMP/g.dot" || fail "no output edge"
    # .svg without Graphviz on PATH: the DOT text next to it.
    mkdir -p "$TMP/bin"
    RUN_PATH="$TMP/bin" run 0 "$MODEL" --dot "$TMP/h.svg"
    has "wrote $TMP/h.dot \(the plan's graph; dot is not on PATH, no SVG\)"
    [ -f "$TMP/h.dot" ] && [ ! -e "$TMP/h.svg" ] || fail "expected h.dot and no h.svg"
    # .svg with a dot on PATH (a stand-in recording its arguments): rendered through it.
    printf '#!/bin/sh\necho "$@" >"%s/dot_args"\nprintf "<svg/>" >"$3"\n' "$TMP" >"$TMP/bin/dot"
    chmod +x "$TMP/bin/dot"
    RUN_PATH="$TMP/bin" run 0 "$MODEL" --dot "$TMP/r.svg" --json
    grep -q '^-Tsvg -o .*/r.svg ' "$TMP/dot_args" || fail "dot not called as dot -Tsvg -o FILE"
    [ "$(cat "$TMP/r.svg")" = "<svg/>" ] || fail "r.svg is not what dot wrote"
    ls "$TMP" | grep -q 'tmp.dot' && fail "the temporary .dot file was left behind"
    has '"format": "svg"'
    # A dot that fails: exit 2, one line.
    printf '#!/bin/sh\nexit 3\n' >"$TMP/bin/dot"
    RUN_PATH="$TMP/bin" run 2 "$MODEL" --dot "$TMP/f.svg"
    err_has 'dot failed \(exit status 3\)'
    run 2 "$MODEL" --dot "$TMP/no/such/dir/g.dot"
    err_has 'cannot write'
    # Quotes, backslashes and line breaks in names are escaped.
    run 0 "$SRC/tests/cli/data/odd_names.onnx" --dot "$TMP/odd.dot"
    grep -qF 'in0 [shape=ellipse, style=filled, fillcolor="#d3f9d8", label="x \"in\""];' "$TMP/odd.dot" || fail "input name not escaped"
    grep -qF 'label="Relu\nre\"lu\\1"];' "$TMP/odd.dot" || fail "node name not escaped"
    grep -qF 's0 -> s1 [label="a\\b \"q\"\nz\n[2]"];' "$TMP/odd.dot" || fail "value name not escaped" ;;
  bench_seconds)
    run 0 "$MODEL" --bench 3 --bench-seconds 100
    has '^bench +3 runs after 1 warmup$'
    # A run takes microseconds: a million would take more than half a second.
    run 0 "$MODEL" --bench-seconds 0.5 --json
    if command -v python3 >/dev/null; then
      python3 -c 'import json,sys; b=json.load(sys.stdin)["bench"]; assert b["budget_reached"] and b["budget_s"]==0.5 and 1 <= b["runs"] < 1000000, b' \
        <"$TMP/out" || fail "stdout is not the expected JSON"
    fi
    run 0 "$MODEL" --bench-seconds 0.2
    has '^bench +[0-9]+ runs after 1 warmup \(time budget of 0.2 s reached\)$'
    run 2 "$MODEL" --bench-seconds 0
    err_has -- '--bench-seconds: must be more than 0'
    run 2 "$MODEL" --bench-seconds x ;;
  progress)
    run 0 "$MODEL" --bench 3
    [ -s "$TMP/err" ] && fail "progress on a stderr that is not a terminal, without --progress"
    run 0 "$MODEL" --bench 3 --progress
    grep -qE '^bench 3/3 runs, [0-9.]+ s, last [0-9.]+ ms$' "$TMP/err" || fail "no final progress line"
    # On a terminal, without --progress: one line rewritten in place, then cleared.
    if command -v script >/dev/null; then
      script -qc "'$RUN' '$MODEL' --bench 3 >/dev/null" /dev/null >"$TMP/tty" 2>&1
      grep -q 'bench 3/3 runs' "$TMP/tty" || fail "no progress on a terminal"
      grep -q $'\r' "$TMP/tty" || fail "the terminal progress line is not rewritten in place"
    fi ;;
  memory_limit)
    # Under the limit the run is as usual; over it, one line naming a node and its bytes.
    run 0 "$MODEL" --memory-limit 64M
    has 'probabilities +float32 +\[1,10\] +min'
    run 0 "$MODEL" --memory-limit 0
    run 2 "$MODEL" --shape pixels=4096x64 --memory-limit 1K
    err_has "^oinfer-run: node '[^']+' \([A-Za-z]+\): output '[^']+' \(float32 \[4096,[0-9]+\]\) needs [0-9]+ bytes.*; the memory limit is 1024 bytes \(SessionOptions::memoryLimitBytes\)$"
    # A random input too large to make names the input.
    run 2 "$MODEL" --shape pixels=1000000x1000000
    err_has "^oinfer-run: input 'pixels': cannot make a random tensor of shape \\[1000000,1000000\\]: Tensor: shape \\[1000000,1000000\\] is too large to allocate$"
    run 2 "$MODEL" --memory-limit 12X
    err_has "^oinfer-run: --memory-limit: '12X' is not a byte count \(digits, then optionally K, M or G\)$"
    run 2 "$MODEL" --memory-limit 99999999999G
    err_has "too large" ;;
  readme_help)
    # README.md's "## oinfer-run" section shows the --help text as it is.
    run 0 --help
    awk '/^## oinfer-run/{s=1} s&&/^usage: oinfer-run/{p=1} p&&/^```/{exit} p' "$SRC/README.md" >"$TMP/readme_help"
    [ -s "$TMP/readme_help" ] || fail "no usage block under '## oinfer-run' in README.md"
    diff "$TMP/readme_help" "$TMP/out" >"$TMP/help_diff" || fail "README.md's --help text differs: $(head -c 600 "$TMP/help_diff")" ;;
  *)
    echo "unknown case '$CASE'"
    exit 2 ;;
esac
echo "PASS [$CASE]"
