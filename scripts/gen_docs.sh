#!/usr/bin/env bash
# Regenerates docs/operators.md from the op registry and
# src/parser/onnx_type_groups.inc from the ONNX library's op schemas.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
BUILD="${1:-build}"
cmake --build "$BUILD" --target oinfer-gen-opdocs oinfer-gen-type-groups
"$BUILD/oinfer-gen-opdocs" > docs/operators.md
echo "wrote docs/operators.md"
"$BUILD/oinfer-gen-type-groups" > src/parser/onnx_type_groups.inc
echo "wrote src/parser/onnx_type_groups.inc"
