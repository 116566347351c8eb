#!/usr/bin/env bash
# The conformance scoreboard: runs the ONNX backend suites of onnx==1.22.0
# (statically and with every input dim symbolic), prints pass / fail /
# unsupported counts overall, per suite and per op, and rewrites
# docs/conformance.md. With --update-manifest it also rewrites
# tests/conformance/manifest.txt (the cases CI holds us to), keeping per-case
# tolerances and their reasons.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
scripts/setup.sh
scripts/build.sh oinfer-conformance >/dev/null
args=(--manifest tests/conformance/manifest.txt --markdown docs/conformance.md)
if [ "${1:-}" = "--update-manifest" ]; then
  shift
  args+=(--write-manifest tests/conformance/manifest.txt)
fi
exec build/tests/oinfer-conformance "${args[@]}" "$@"
