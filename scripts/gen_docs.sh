#!/usr/bin/env bash
# Regenerates docs/operators.md from the op registry.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
BUILD="${1:-build}"
cmake --build "$BUILD" --target oinfer-gen-opdocs
"$BUILD/oinfer-gen-opdocs" > docs/operators.md
echo "wrote docs/operators.md"
