#!/usr/bin/env bash
# model-peak.sh [BUILD_DIR] [FILE...] - peak memory of reading + selecting
# each input (loadtest/model-peak.c against the build's libsbcore.a), next to
# what sb_lock_estimate charges the memory budget for it. Default inputs: the
# requirements.txt and uv.lock of tests/hostile/make-bounds.py, 20,000-package
# JavaScript lockfiles (gen-jslock), the largest pixi.lock fixture. Figures
# only, one process per input so each peak is its own.
set -u
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build/release}"
shift $(($# ? 1 : 0))
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cc -O2 -I"$root" -o "$work/model-peak" "$root/loadtest/model-peak.c" "$build/libsbcore.a" \
  $(pkg-config --libs yaml-0.1 jansson libcurl libzstd zlib 2>/dev/null || echo -lyaml -ljansson -lcurl -lzstd -lz) \
  -lbz2 -lmimalloc -lpthread -lm || exit 1
files=("$@")
if [ ${#files[@]} = 0 ]; then
  /usr/bin/python3 "$root/tests/hostile/make-bounds.py" "$work/in" 1 req-100k.requirements.txt \
    req-490k.requirements.txt big.uv.lock samename.uv.lock
  mkdir -p "$work/js/npm" "$work/js/pnpm" "$work/js/yarn" "$work/js/bun"
  "$root/loadtest/gen-jslock" npm 20000 > "$work/js/npm/package-lock.json"
  "$root/loadtest/gen-jslock" pnpm 20000 > "$work/js/pnpm/pnpm-lock.yaml"
  "$root/loadtest/gen-jslock" yarn 20000 > "$work/js/yarn/yarn.lock"
  "$root/loadtest/gen-jslock" bun 20000 > "$work/js/bun/bun.lock"
  files=("$work"/in/* "$work"/js/*/* "${SB_SHARED:-$root/../shared}/fixtures/pixi/rerun--rev-c5e2c66/pixi.lock")
fi
for f in "${files[@]}"; do "$work/model-peak" "$f"; done
