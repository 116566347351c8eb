#!/usr/bin/env bash
# Fails when docs/operators.md differs from what the registry generates now.
#   tests/cli/check_opdocs.sh GEN_OPDOCS_BINARY DOCS_FILE
# The committed file is generated from a build with the CUDA backend; a build
# without it (no nvcc) cannot reproduce the CUDA column, so there the check is
# skipped (exit 77) when that column is the only possible difference.
set -u
tmp="$(mktemp)"
trap 'rm -f "$tmp"' EXIT
"$1" >"$tmp" || { echo "oinfer-gen-opdocs failed"; exit 1; }
if diff -u "$2" "$tmp" >/dev/null; then
  echo "docs/operators.md is up to date"
  exit 0
fi
cuda_rows() { grep -cE '\| (yes|partial) \|$' "$1"; }
if [ "$(cuda_rows "$tmp")" -eq 0 ] && [ "$(cuda_rows "$2")" -gt 0 ]; then
  echo "skipped: this build has no CUDA kernels, docs/operators.md was generated with them"
  exit 77
fi
diff -u "$2" "$tmp"
echo "docs/operators.md is stale: run scripts/gen_docs.sh and commit the result"
exit 1
