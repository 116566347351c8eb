#!/usr/bin/env bash
# docs/guide.md's examples:
#   tests/cli/check_guide.sh fresh SOURCE_DIR
#     every fenced block whose first line is "// from FILE[:A-B]" or
#     "# from FILE[:A-B]" equals FILE (or its lines A..B)
#   tests/cli/check_guide.sh run SOURCE_DIR OINFER_RUN
#     runs the shell examples (examples/guide/*.sh) from SOURCE_DIR with
#     oinfer-run on PATH; any failing command fails the test
set -euo pipefail
MODE="$1"
SRC="$2"
GUIDE="$SRC/docs/guide.md"
case "$MODE" in
  fresh)
    TMP="$(mktemp -d)"
    trap 'rm -rf "$TMP"' EXIT
    # Split the guide's quoted blocks into $TMP/<n>.ref (FILE[:A-B]) and $TMP/<n>.body.
    awk -v dir="$TMP" '
      /^```/ { if (inblock) { inblock = 0; if (quoted) close(body); quoted = 0; next }
               inblock = 1; first = 1; next }
      inblock && first { first = 0
        if (match($0, /^(\/\/|#) from [^ ]+$/)) { n++; quoted = 1
          ref = $0; sub(/^(\/\/|#) from /, "", ref); print ref > (dir "/" n ".ref"); close(dir "/" n ".ref")
          body = dir "/" n ".body"; printf "" > body; next } }
      inblock && quoted { print >> body }
    ' "$GUIDE"
    count=0
    for r in "$TMP"/*.ref; do
      [ -e "$r" ] || break
      count=$((count + 1))
      ref="$(cat "$r")"
      file="${ref%%:*}"
      [ -f "$SRC/$file" ] || { echo "guide quotes $file, which does not exist"; exit 1; }
      if [[ "$ref" == *:* ]]; then
        range="${ref#*:}"
        sed -n "${range%-*},${range#*-}p" "$SRC/$file" >"$TMP/expected"
      else
        cat "$SRC/$file" >"$TMP/expected"
      fi
      if ! diff "$TMP/expected" "${r%.ref}.body" >"$TMP/diff"; then
        echo "docs/guide.md's block quoting $ref differs from the file:"
        head -40 "$TMP/diff"
        exit 1
      fi
    done
    [ "$count" -ge 4 ] || { echo "only $count quoted blocks found in docs/guide.md"; exit 1; }
    echo "guide: $count quoted blocks match their files" ;;
  run)
    RUN="$3"
    export PATH="$(dirname "$RUN"):$PATH"
    export GUIDE_TMP="$(mktemp -d)"
    trap 'rm -rf "$GUIDE_TMP"' EXIT
    [ -x "$SRC/.venv/bin/python" ] && export OINFER_PYTHON="${OINFER_PYTHON:-$SRC/.venv/bin/python}"
    cd "$SRC"
    for f in examples/guide/*.sh; do
      echo "== $f"
      bash -euo pipefail "$f" >"$GUIDE_TMP/log" 2>&1 || { cat "$GUIDE_TMP/log"; echo "FAIL: $f"; exit 1; }
    done
    echo "guide: shell examples ran" ;;
  *) echo "usage: check_guide.sh fresh|run SOURCE_DIR [OINFER_RUN]"; exit 2 ;;
esac
