#!/usr/bin/env bash
# bench.sh [BUILD_DIR] - make bench: the core micro-benchmarks on the
# reference lockfile (the largest pixi.lock fixture) and on synthetic
# lockfiles of 2000 and 10000 packages (loadtest/gen-lockfile), the 2000 one
# also with a package cache. Figures only.
set -u
root="$(cd "$(dirname "$0")/.." && pwd)"
b="${1:-$root/build/release}"
shared="${SB_SHARED:-$root/../shared}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
ref="$(ls -S "$shared"/fixtures/pixi/*/pixi.lock | head -1)"
"$root/loadtest/gen-lockfile" 2000 > "$work/synthetic-2000.pixi.lock"
"$root/loadtest/gen-lockfile" 10000 > "$work/synthetic-10000.pixi.lock"
"$root/tests/integration/make-cache.sh" "$work/synthetic-2000.pixi.lock" "$work/cache" > /dev/null
"$b/bench" -r "${RUNS:-7}" "$ref"; echo
"$b/bench" -r "${RUNS:-7}" -C "$work/cache" "$work/synthetic-2000.pixi.lock"; echo
"$b/bench" -r "${RUNS:-5}" "$work/synthetic-10000.pixi.lock"
