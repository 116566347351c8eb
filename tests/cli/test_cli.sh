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
      --fetch --opt-level --list-ops --dot --bench-seconds --progress --timeout --extract --extract-inputs \
      --extract-outputs --compare --memory-limit --no-mmap --allow-external-symlinks; do
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
    run 0 "$MODEL" --input "pixels=$SAMPLE7" --output-dir "$TMP/out_dir/nested"
    # A symlink at an output's path is replaced, its target left alone; no temporary files stay.
    echo precious >"$TMP/victim"
    rm -f "$TMP/out_dir/nested/probabilities.npy"
    ln -s "$TMP/victim" "$TMP/out_dir/nested/probabilities.npy"
    run 0 "$MODEL" --input "pixels=$SAMPLE7" --output-dir "$TMP/out_dir/nested"
    [ "$(cat "$TMP/victim")" = precious ] || fail "wrote through a symlink"
    [ -L "$TMP/out_dir/nested/probabilities.npy" ] && fail "the symlink is still there"
    [ "$(ls -A "$TMP/out_dir/nested")" = probabilities.npy ] || fail "unexpected files: $(ls -A "$TMP/out_dir/nested")" ;;
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
    has '^     0  Gemm +fc1 +-> hidden_pre \[1,64\]'
    run 0 "$MODEL" --opt-level=2 --print-plan
    has 'FusedMatMul +fc1 +-> hidden \[1,64\]'
    run 0 "$MODEL" --print-plan
    has 'FusedMatMul +fc1 +-> hidden \[1,64\]'
    run 2 "$MODEL" --opt-level 3
    err_has "--opt-level: '3' is not a level \(0: no graph passes, 1: folding, 2: all of them\)"
    run 2 "$MODEL" --opt-level fast
    err_has "--opt-level: 'fast' is not a level" ;;
  external_links)
    # The Hugging Face cache's layout: the snapshot's data file is a link to
    # ../../blobs/<sha>. Refused by default (naming the option), loaded with
    # --allow-external-symlinks, mapped or (--no-mmap) read.
    mkdir -p "$TMP/hf/blobs" "$TMP/hf/snapshots/rev"
    cp "$SRC/tests/cli/data/extract_ext.data" "$TMP/hf/blobs/0123abcd"
    cp "$SRC/tests/cli/data/extract_ext.onnx" "$TMP/hf/snapshots/rev/"
    ln -s ../../blobs/0123abcd "$TMP/hf/snapshots/rev/extract_ext.data"
    run 2 "$TMP/hf/snapshots/rev/extract_ext.onnx" --list-ops
    err_has "external data location 'extract_ext.data' is a symbolic link to '.*0123abcd', outside the model folder"
    err_has "oinfer-run --allow-external-symlinks"
    [ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "more than one line on stderr"
    run 0 "$TMP/hf/snapshots/rev/extract_ext.onnx" --list-ops --allow-external-symlinks
    has '^ops '
    run 0 "$TMP/hf/snapshots/rev/extract_ext.onnx" --list-ops --allow-external-symlinks --no-mmap
    has '^ops ' ;;
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
  timeout)
    # A Loop of INT64_MAX iterations stops at the deadline, between iterations.
    # (run's own 120 s limit fails the test if it does not stop.)
    run 2 "$SRC/tests/cli/data/endless_loop.onnx" --timeout 0.3
    err_has "^oinfer-run: run cancelled: the run's deadline \(0.3 s\) passed; stopped before node '(forever|step|keep_going)' \((Loop|Add|Identity)\)$"
    run 0 "$MODEL" --timeout 30
    has 'probabilities +float32 +\[1,10\]'
    run 2 "$MODEL" --timeout 0
    err_has -- '--timeout: must be more than 0'
    run 2 "$MODEL" --timeout -1 ;;
  extract)
    EX="$SRC/tests/cli/data/extract.onnx"
    # The full model's values: inputs and intermediates to feed the sub-models, and what they must compute.
    run 0 "$EX" --fetch x --fetch cond --fetch a --fetch b --fetch m --output-dir "$TMP/full"
    # a -> m: Relu and Mul, the one weight they read.
    run 0 "$EX" --extract "$TMP/m.onnx" --extract-inputs a --extract-outputs m
    has '^extract     a -> m$'
    has '^  nodes          2 of 7$'
    has '^  initializers   1$'
    has '^  functions      0$'
    has '^  external data  none$'
    has "^wrote $TMP/m.onnx$"
    run 0 "$TMP/m.onnx" --input "a=$TMP/full/a.npy" --output-dir "$TMP/m"
    has '^  a +float32 +\[batch,3\]$'
    has '^  m +float32 +\[batch,3\]$'
    cmp -s "$TMP/m/m.npy" "$TMP/full/m.npy" || fail "the a -> m sub-model computes another m"
    # a, cond -> z, b: the If's branches read m, a and b from the outer scope,
    # Scale2 is a model function (kept); x, Neg, W1 and the unused weight are not.
    run 0 "$EX" --extract "$TMP/z.onnx" --extract-inputs a,cond --extract-outputs z,b
    has '^extract     a, cond -> z, b$'
    has '^  nodes          5 of 7$'
    has '^  functions      1$'
    run 0 "$TMP/z.onnx" --input "a=$TMP/full/a.npy" --input "cond=$TMP/full/cond.npy" --output-dir "$TMP/z"
    cmp -s "$TMP/z/z.npy" "$TMP/full/z.npy" || fail "the a,cond -> z sub-model computes another z"
    cmp -s "$TMP/z/b.npy" "$TMP/full/b.npy" || fail "the a,cond -> z sub-model computes another b"
    # Without --extract-inputs: the model's inputs the outputs need.
    run 0 "$EX" --extract "$TMP/n.onnx" --extract-outputs n --json
    has '"inputs": \["x"\],'
    has '"external_data": "none"'
    run 0 "$TMP/n.onnx"
    has '^  x +float32 +\[batch,3\]$'
    grep -q '^  cond' "$TMP/out" && fail "n.onnx has the input cond it does not need"
    # External data: inlined into another folder; referenced in the model's folder.
    run 0 "$SRC/tests/cli/data/extract_ext.onnx" --extract "$TMP/ext_in.onnx" --extract-inputs a,cond --extract-outputs z
    has '^  external data  inlined \(1 tensor, 12 bytes\)$'
    grep -q 'extract_ext.data' "$TMP/ext_in.onnx" && fail "the inlined sub-model still names extract_ext.data"
    run 0 "$TMP/ext_in.onnx" --input "a=$TMP/full/a.npy" --input "cond=$TMP/full/cond.npy" --output-dir "$TMP/ext_in"
    cmp -s "$TMP/ext_in/z.npy" "$TMP/full/z.npy" || fail "the inlined sub-model computes another z"
    mkdir -p "$TMP/ext"
    cp "$SRC/tests/cli/data/extract_ext.onnx" "$SRC/tests/cli/data/extract_ext.data" "$TMP/ext/"
    run 0 "$TMP/ext/extract_ext.onnx" --extract "$TMP/ext/sub.onnx" --extract-inputs a,cond --extract-outputs z
    has '^  external data  referenced \(1 tensor in extract_ext.data, the same folder\)$'
    grep -q 'extract_ext.data' "$TMP/ext/sub.onnx" || fail "the same-folder sub-model does not reference extract_ext.data"
    run 0 "$TMP/ext/sub.onnx" --input "a=$TMP/full/a.npy" --input "cond=$TMP/full/cond.npy" --output-dir "$TMP/ext_ref"
    cmp -s "$TMP/ext_ref/z.npy" "$TMP/full/z.npy" || fail "the referencing sub-model computes another z"
    # IR version 3: the weight stays a graph input too; a's type is the one value_info declares.
    run 0 "$SRC/tests/cli/data/extract_ir3.onnx" --fetch a --fetch c --output-dir "$TMP/ir3_full"
    run 0 "$SRC/tests/cli/data/extract_ir3.onnx" --extract "$TMP/ir3.onnx" --extract-inputs a --extract-outputs c
    has '^  nodes          2 of 3$'
    run 0 "$TMP/ir3.onnx" --input "a=$TMP/ir3_full/a.npy" --output-dir "$TMP/ir3"
    has '^  a +float32 +\[q\]$'
    cmp -s "$TMP/ir3/c.npy" "$TMP/ir3_full/c.npy" || fail "the IR 3 sub-model computes another c"
    # The ONNX checker accepts the sub-models and ONNX Runtime computes the same values.
    PY="$SRC/.venv/bin/python"
    if [ -x "$PY" ] && "$PY" -c 'import onnxruntime, onnx, numpy' 2>/dev/null; then
      "$PY" - "$TMP" "$SRC" >"$TMP/py_out" 2>&1 <<'PYEOF' || { cat "$TMP/py_out"; fail "the Python check of the sub-models failed"; }
import sys, numpy as np, onnx, onnx.utils, onnxruntime as ort
tmp, src = sys.argv[1], sys.argv[2]
full = {k: np.load(f"{tmp}/full/{k}.npy") for k in ["x", "cond", "a", "b", "m", "z", "n"]}
def check(path, feeds, outputs, functions, initializers, external=False):
    onnx.checker.check_model(path, full_check=True)
    m = onnx.load(path, load_external_data=False)
    assert [i.name for i in m.graph.input] == list(feeds), [i.name for i in m.graph.input]
    assert [o.name for o in m.graph.output] == outputs
    assert len(m.functions) == functions, len(m.functions)
    assert sorted(t.name for t in m.graph.initializer) == initializers
    assert all((t.data_location == onnx.TensorProto.EXTERNAL) == external for t in m.graph.initializer)
    got = ort.InferenceSession(path, providers=["CPUExecutionProvider"]).run(outputs, {k: full[k] for k in feeds})
    for name, value in zip(outputs, got):
        np.testing.assert_allclose(value, full[name], rtol=1e-6, atol=1e-6)
check(f"{tmp}/m.onnx", ["a"], ["m"], 0, ["W2"])
check(f"{tmp}/z.onnx", ["a", "cond"], ["z", "b"], 1, ["W2"])
check(f"{tmp}/ext_in.onnx", ["a", "cond"], ["z"], 1, ["W2"])
check(f"{tmp}/ext/sub.onnx", ["a", "cond"], ["z"], 1, ["W2"], external=True)
check(f"{tmp}/n.onnx", ["x"], ["n"], 0, [])
onnx.checker.check_model(f"{tmp}/ir3.onnx", full_check=True)
m = onnx.load(f"{tmp}/ir3.onnx")
assert [i.name for i in m.graph.input] == ["w", "a"] and [v.name for v in m.graph.value_info] == ["b"], m.graph
c = ort.InferenceSession(f"{tmp}/ir3.onnx", providers=["CPUExecutionProvider"]).run(["c"], {"a": np.load(f"{tmp}/ir3_full/a.npy")})[0]
np.testing.assert_allclose(c, np.load(f"{tmp}/ir3_full/c.npy"), rtol=1e-6)
# The same nodes, weights and graph inputs / outputs as onnx.utils.extract_model
# (where it applies: it does not follow a subgraph's outer-scope names).
def parts(path):
    m = onnx.load(path)
    return ([n.name for n in m.graph.node], sorted(t.name for t in m.graph.initializer),
            [i.name for i in m.graph.input], [o.name for o in m.graph.output])
onnx.utils.extract_model(f"{src}/tests/cli/data/extract.onnx", f"{tmp}/ref_m.onnx", ["a"], ["m"])
assert parts(f"{tmp}/ref_m.onnx") == parts(f"{tmp}/m.onnx"), (parts(f"{tmp}/ref_m.onnx"), parts(f"{tmp}/m.onnx"))
PYEOF
    else
      echo "(no $PY with onnxruntime: the ONNX checker / ONNX Runtime part is skipped)"
    fi ;;
  extract_errors)
    EX="$SRC/tests/cli/data/extract.onnx"
    run 2 "$EX" --extract "$TMP/s.onnx" --extract-inputs aa --extract-outputs m
    err_has "^oinfer-run: --extract-inputs aa: the model has no value 'aa' \(did you mean 'a'\?\)$"
    run 2 "$EX" --extract "$TMP/s.onnx" --extract-inputs a --extract-outputs mm,zzzz
    err_has "^oinfer-run: --extract-outputs mm: the model has no value 'mm' \(did you mean 'm'\?\)$"
    run 2 "$EX" --extract "$TMP/s.onnx" --extract-inputs a --extract-outputs W2
    err_has "'W2' is a weight \(initializer\), not a computed value$"
    # The If's then-branch reads a from the outer scope: from b and cond, z needs a, so x.
    run 2 "$EX" --extract "$TMP/s.onnx" --extract-inputs b,cond --extract-outputs z
    err_has "^oinfer-run: --extract-outputs z: cannot be computed from --extract-inputs b, cond: it needs 'x' \(add it to --extract-inputs\)$"
    [ -e "$TMP/s.onnx" ] && fail "a sub-model was written despite the error"
    run 2 "$EX" --extract "$TMP/no/such/dir/s.onnx" --extract-outputs n
    err_has 'cannot write the file'
    run 2 "$EX" --extract "$EX" --extract-outputs n
    err_has 'that is the model itself'
    mkdir -p "$TMP/ext"
    cp "$SRC/tests/cli/data/extract_ext.onnx" "$SRC/tests/cli/data/extract_ext.data" "$TMP/ext/"
    cp "$TMP/ext/extract_ext.data" "$TMP/data_before"
    run 2 "$TMP/ext/extract_ext.onnx" --extract "$TMP/ext/extract_ext.data" --extract-outputs n
    err_has "that is the model's external data file extract_ext.data$"
    cmp -s "$TMP/ext/extract_ext.data" "$TMP/data_before" || fail "the external data file was written"
    run 2 "$EX" --extract-outputs n
    err_has -- '--extract-outputs needs --extract FILE$'
    run 2 "$EX" --extract "$TMP/s.onnx"
    err_has -- '--extract needs --extract-outputs NAMES'
    run 2 "$EX" --extract "$TMP/s.onnx" --extract-outputs a,,m
    err_has -- "--extract-outputs: empty name in 'a,,m'"
    run 2 "$EX" --extract "$TMP/s.onnx" --extract-outputs m,m
    err_has -- "--extract-outputs: 'm' given twice"
    run 2 "$EX" --extract "$TMP/s.onnx" --extract-outputs m --compare
    err_has -- '--extract and --compare cannot be combined' ;;
  compare)
    # The oinfer reference (forced, then as the fallback without a usable Python).
    OINFER_COMPARE_REFERENCE=oinfer run 0 "$MODEL" --input "pixels=$SAMPLE7" --compare
    has '^compare     reference: oinfer --opt-level 0 on the CPU \(OINFER_COMPARE_REFERENCE=oinfer\)$'
    has '^            4 values of 4 nodes compared, 0 skipped; rtol 0.001, atol 1e-07$'
    has '^  probabilities +OK +max abs err'
    has '^compare: all 4 values match$'
    OINFER_PYTHON="$TMP/no-python" run 0 "$MODEL" --compare
    has "^compare     reference: oinfer --opt-level 0 on the CPU \($TMP/no-python cannot import onnxruntime, onnx and numpy\)$"
    # A divergence: OINFER_COMPARE_PERTURB (test-only) adds 1 to the reference's
    # hidden (relu1) and probabilities (softmax); relu1 comes first in execution order.
    OINFER_COMPARE_REFERENCE=oinfer OINFER_COMPARE_PERTURB=probabilities,hidden run 1 "$MODEL" --compare
    has '^first divergence: node 2 of 4 in execution order$'
    has '^  node        relu1$'
    has '^  op          Relu$'
    has '^  output      hidden$'
    has '^  shape       \[1,64\]$'
    has '^  max abs err 1$'
    has '^  max rel err [0-9.e+-]+$'
    has '^  tolerance   \|actual - expected\| <= atol \+ rtol \* \|expected\|, rtol 0.001, atol 1e-07$'
    has '^  mismatch    1 of 64 elements outside tolerance; first at flat index 0'
    has '^next divergences$'
    has '^     4  Softmax +softmax -> probabilities \[1,10\]  max abs err'
    has '^  probabilities +MISMATCH'
    has "^compare: 2 of 4 nodes diverge, the first at node 'relu1' \(Relu\)$"
    # A tolerance wide enough accepts it.
    OINFER_COMPARE_REFERENCE=oinfer OINFER_COMPARE_PERTURB=hidden run 0 "$MODEL" --compare --atol 1.5
    has '^compare: all 4 values match$'
    OINFER_COMPARE_REFERENCE=oinfer OINFER_COMPARE_PERTURB=hidden run 1 "$MODEL" --compare --json
    if command -v python3 >/dev/null; then
      python3 -c 'import json,sys; c=json.load(sys.stdin)["compare"]; assert c["reference"]=="oinfer" and not c["passed"] and c["diverging_nodes"]==1==len(c["divergences"]), c; d=c["divergences"][0]; assert (d["node"], d["op_type"], d["index"])==("relu1","Relu",1), d; o=d["outputs"][0]; assert o["output"]=="hidden" and o["shape"]==[1,64] and o["max_abs_error"]==1, o; assert c["outputs"]==[{"name":"probabilities","status":"match","max_abs_error":0,"max_rel_error":0}], c["outputs"]' \
        <"$TMP/out" || fail "stdout is not the expected JSON"
    fi
    # With --test-data too: 1 when either finds a difference.
    OINFER_COMPARE_REFERENCE=oinfer run 1 "$MODEL" --test-data "$SRC/tests/cli/data/digits_wrong" --compare
    has 'compare: all 4 values match'
    # The onnxruntime reference through a Python that has it.
    PY="$SRC/.venv/bin/python"
    if [ -x "$PY" ] && "$PY" -c 'import onnxruntime, onnx, numpy' 2>/dev/null; then
      OINFER_PYTHON="$PY" run 0 "$MODEL" --input "pixels=$SAMPLE7" --compare
      has "^compare     reference: onnxruntime [0-9][0-9.]* through $PY, its graph optimizations off$"
      has '^compare: all 4 values match$'
      OINFER_PYTHON="$PY" OINFER_COMPARE_PERTURB=probabilities,hidden run 1 "$MODEL" --compare
      has "^compare: 2 of 4 nodes diverge, the first at node 'relu1' \(Relu\)$"
      # Values inside model functions have no name in the file: skipped, and said so.
      OINFER_PYTHON="$PY" OINFER_COMPARE_REFERENCE=onnxruntime run 0 "$SRC/tests/cli/data/extract.onnx" --compare
      has '^            7 values of 8 nodes compared, 1 skipped; rtol 0.001, atol 1e-07$'
      has '^  skipped   1 not in the reference: scale2/two$'
      has '^compare: all 7 values match$'
      # 0-d values (SequenceLength) stay 0-d through .npy; sequences and optionals are skipped.
      OINFER_PYTHON="$PY" run 0 "$SRC/tests/data/models/control_flow/model.onnx" --compare
      has '^  skipped   3 not tensors: rows, rows_plus, opt_x$'
      has '^compare: all 12 values match$'
    else
      echo "(no $PY with onnxruntime: the onnxruntime reference part is skipped)"
    fi ;;
  compare_errors)
    OINFER_PYTHON="$TMP/no-python" OINFER_COMPARE_REFERENCE=onnxruntime run 2 "$MODEL" --compare
    err_has "^oinfer-run: OINFER_COMPARE_REFERENCE=onnxruntime: $TMP/no-python cannot import onnxruntime, onnx and numpy \(set OINFER_PYTHON to a Python that can\)$"
    OINFER_COMPARE_REFERENCE=tensorflow run 2 "$MODEL" --compare
    err_has "OINFER_COMPARE_REFERENCE: 'tensorflow' is not a reference \(onnxruntime or oinfer\)$"
    OINFER_COMPARE_REFERENCE=oinfer OINFER_COMPARE_PERTURB=nosuch run 2 "$MODEL" --compare
    err_has "OINFER_COMPARE_PERTURB: 'nosuch' is not a compared value$"
    # A Python that imports everything but whose reference run fails: its last stderr line.
    printf '#!/bin/sh\n[ "$1" = -c ] && exit 0\necho "Traceback (most recent call last):" >&2\necho "RuntimeError: boom" >&2\nexit 3\n' >"$TMP/fake-python"
    chmod +x "$TMP/fake-python"
    OINFER_PYTHON="$TMP/fake-python" run 2 "$MODEL" --compare
    err_has "^oinfer-run: --compare: the onnxruntime reference failed \($TMP/fake-python, exit status 3\): RuntimeError: boom$"
    run 2 "$MODEL" --compare=yes
    err_has -- '--compare takes no value' ;;
  custom_ops)
    # Plugins (examples/custom_ops): PLUGIN_DIR is the 4th argument.
    PLUGINS="${4:?custom_ops needs the plugin folder}"
    LIB="$PLUGINS/liboinfer_example_ops.so"
    EX="$SRC/examples/custom_ops/models"
    run 0 "$EX/deform_conv2d.onnx" --custom-ops "$LIB" --test-data "$EX/deform_conv2d_test_data/test_data_set_0" --rtol 0 --atol 1e-5
    has '^test-data: all 2 outputs match$'
    # The output shape comes from the size input's values (9 x 4 here).
    run 0 "$EX/dynamic_resize.onnx" --custom-ops "$LIB" --test-data "$EX/dynamic_resize_test_data/test_data_set_0" --rtol 0 --atol 1e-5
    has '^test-data: all 4 outputs match$'
    has '^  y_bilinear +float32 +\[1,3,9,4\]'
    run 0 "$EX/deform_conv2d.onnx" --custom-ops="$LIB" --print-plan
    has 'deform_conv2d +dcn_custom +-> y_custom \[1,6,6,4\] +\[im2col planned-scratch\]'
    run 0 "$EX/deform_conv2d.onnx" --custom-ops "$LIB" --list-ops
    has '^  custom +deform_conv2d +1 +1  yes$'
    run 0 "$EX/deform_conv2d.onnx" --list-ops
    has '^  custom +deform_conv2d +1 +1  NO$'
    run 2 "$EX/deform_conv2d.onnx"
    err_has 'custom::deform_conv2d \(opset 1\), e\.g\. node .dcn_custom.'
    run 2 "$EX/deform_conv2d.onnx" --custom-ops "$TMP/missing.so"
    err_has "custom op library '$TMP/missing.so': no such file"
    run 2 "$EX/deform_conv2d.onnx" --custom-ops "$PLUGINS/liboinfer_test_bad_abi.so"
    err_has "liboinfer_test_bad_abi.so' was built for custom-op ABI version [0-9]+, this oinfer has version [0-9]+"
    run 2 "$EX/deform_conv2d.onnx" --custom-ops "$PLUGINS/liboinfer_test_no_entry.so"
    err_has "does not export oinfer_register_custom_ops"
    run 2 "$EX/deform_conv2d.onnx" --custom-ops "$LIB" --custom-ops "$LIB"
    err_has "--custom-ops $LIB given twice"
    # A run-time error inside the plugin's kernel names the node and the op.
    run 2 "$EX/dynamic_resize.onnx" --custom-ops "$LIB" --input size="$SRC/tests/cli/data/size_0x3.npy" --shape image=1x3x4x4
    err_has "node 'resize_bilinear' \(custom::DynamicTRTResize\): size \(0, 3\) is out of range" ;;
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
