#!/usr/bin/env bash
# Set up, build, and classify a handwritten digit with the demo model.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
scripts/setup.sh
scripts/build.sh oinfer-run
echo
echo "\$ oinfer-run models/digits.onnx --input pixels=models/digits_samples/digit_7.npy --top-k 1"
build/oinfer-run models/digits.onnx --input pixels=models/digits_samples/digit_7.npy --top-k 1
