#!/usr/bin/env bash
# Prepares the folder of Debian packages that tools/gpu_check.sh needs on a
# GPU machine (which has CUDA, cuDNN through PyTorch's wheels, CMake, ninja
# and Python, but none of our C++ dependencies and no package registry).
#
#   tools/gpu_deps.sh [DIR]     (default .gpu-deps, ignored by git locally)
#
# Downloads the .deb files (compressed, about 10 MB) of protobuf, ONNX, Eigen,
# spdlog/fmt and GoogleTest at the versions this machine builds with; the
# check extracts them with `dpkg -x` into a prefix of its own. Carry DIR with
# the device tool's `carry` and run `bash tools/gpu_check.sh DIR` there.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
DIR="${1:-.gpu-deps}"
PKGS=(libprotobuf-dev libprotobuf32 libprotobuf-lite32 libprotoc32 protobuf-compiler
      libonnx-dev libonnx1 libonnxifi libeigen3-dev libspdlog-dev libspdlog1.10 libfmt-dev libfmt9
      libgtest-dev libgmock-dev zlib1g-dev)
mkdir -p "$DIR"
# The folder travels as an ignored, carried path, never as a commit.
if [ -d .git ] && ! grep -qx "/$DIR/" .git/info/exclude 2>/dev/null; then
  echo "/$DIR/" >>.git/info/exclude
fi
if ! apt-cache show "${PKGS[0]}" >/dev/null 2>&1; then
  apt-get update -qq
fi
# The installed versions when present, so headers match what was tested here.
want=()
for p in "${PKGS[@]}"; do
  v="$(dpkg-query -W -f='${Version}' "$p" 2>/dev/null || true)"
  if [ -n "$v" ]; then want+=("$p=$v"); else want+=("$p"); fi
done
(cd "$DIR" && rm -f ./*.deb && apt-get download "${want[@]}")
echo "gpu_deps: $(ls "$DIR"/*.deb | wc -l) packages, $(du -sh "$DIR" | cut -f1) in $DIR"
