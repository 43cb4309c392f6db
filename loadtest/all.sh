#!/usr/bin/env bash
# all.sh - every benchmark in this directory, one after the other, on one
# build of HEAD: the run loadtest/README.md's table comes from. Figures
# only; never fails on a duration. About 20 minutes on 2 cores; ends with
# issue 41's targets (targets.sh), each with its figure.
#   loadtest/all.sh [PERF_BASE]   (PERF_BASE: the ref perf compare measures against)
set -u
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
base="${1:-}"
echo "# $(date -u +%FT%TZ) commit $(git rev-parse --short HEAD)$(git diff --quiet || echo ' (modified)'), $(nproc) cores, $(awk '/MemTotal/{printf "%.0f GiB", $2/1048576}' /proc/meminfo)"
make -s --no-print-directory PROFILE=release build build/release/bench > /dev/null || exit 1
step() { echo; echo "## $*"; "$@"; }
step loadtest/bench.sh build/release
step loadtest/wrk.sh build/release
step loadtest/repeat.sh build/release
step loadtest/scaling.sh build/release
step loadtest/largest.sh build/release 7
step loadtest/rss.sh build/release
step loadtest/license-texts.sh build/release
step loadtest/lookups.sh build/release 300 20
step loadtest/cdxgen.sh build/release 5
step loadtest/mimalloc.sh
step loadtest/targets.sh build/release
echo; echo "## binary"
strip -o "build/release/sbomd.stripped" build/release/sbomd
echo "sbomd $(stat -c %s build/release/sbomd) bytes, stripped $(stat -c %s build/release/sbomd.stripped)"
t0=$(date +%s%N); for _ in $(seq 20); do build/release/sbomd --version > /dev/null; done; t1=$(date +%s%N)
echo "--version: $(( (t1 - t0) / 20000 )) us per start (mean of 20)"
[ -n "$base" ] && step loadtest/perf compare "$base" HEAD
