#!/usr/bin/env bash
# Set up, build, run every test, and check the install + find_package example.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
scripts/setup.sh
scripts/build.sh
ctest --test-dir build --output-on-failure -j "$(nproc)" ${OINFER_CTEST_ARGS:-}
scripts/check_install.sh build build/_install
