#!/usr/bin/env bash
# Installs what oinfer needs on Debian 12: the build's Debian packages, and a
# Python virtual environment at .venv (onnx, onnxruntime, numpy for reference
# data and tests; scikit-learn only for scripts/train_digits.py).
# Idempotent and quiet: packages and a venv that are already right are skipped.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

APT_PACKAGES=(libprotobuf-dev protobuf-compiler libonnx-dev libeigen3-dev libspdlog-dev libre2-dev
  googletest libgtest-dev cmake ninja-build g++ python3 python3-venv)
PY_PACKAGES=(onnx==1.22.0 onnxruntime==1.32.0 numpy==2.4.6 scikit-learn==1.9.1)

missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing Debian packages: ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

VENV="$ROOT/.venv"
want_freeze() {
  "$VENV/bin/python" - "$@" <<'PY' 2>/dev/null
import sys
from importlib.metadata import version, PackageNotFoundError
for spec in sys.argv[1:]:
    name, want = spec.split("==")
    try:
        if version(name) != want:
            sys.exit(1)
    except PackageNotFoundError:
        sys.exit(1)
PY
}
if [ ! -x "$VENV/bin/python" ]; then
  echo "setup: creating $VENV"
  python3 -m venv "$VENV"
fi
if ! want_freeze "${PY_PACKAGES[@]}"; then
  echo "setup: installing Python packages: ${PY_PACKAGES[*]}"
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check "${PY_PACKAGES[@]}"
fi
