#!/usr/bin/env bash
# callgrind-small.sh [BUILD_DIR] [N] - instructions per small request (issue
# 41 target 3, issue 25 target 4): the server's fixed cost does not show in
# wall time on a shared machine, but callgrind's instruction count does not
# depend on the load. sbomd runs under callgrind on 127.0.0.1:$PORT with the
# result cache off (each request is read and written again) and logging on
# (as deployed), answers N (default 200) sequential POST /v1/sbom of a fixed
# 20-package pixi.lock (loadtest/gen-lockfile 20), then gets SIGTERM. A second
# run answers nothing; (Ir of the first - Ir of the second) / N is the cost
# of one request, without start-up and shutdown. Prints that figure and the
# top 15 functions by inclusive and by self cost of the loaded run.
# KEEP=DIR keeps the callgrind outputs there.
set -u
root="$(cd "$(dirname "$0")/.." && pwd)"
b="${1:-$root/build/release}"
n="${2:-200}"
port="${PORT:-18471}"
work="${KEEP:-$(mktemp -d)}"
mkdir -p "$work"
[ -n "${KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
command -v valgrind > /dev/null || { echo "valgrind not installed"; exit 1; }
"$root/loadtest/gen-lockfile" 20 > "$work/s20.lock"

# run OUT COUNT: sbomd under callgrind answering COUNT requests, then SIGTERM
run() {
  valgrind --tool=callgrind --callgrind-out-file="$work/$1" \
    "$b/sbomd" --listen 127.0.0.1 --port "$port" --result-cache-size 0 \
    2> "$work/$1.log" &
  local pid=$!
  for _ in $(seq 300); do
    curl -s -o /dev/null "http://127.0.0.1:$port/healthz" && break
    sleep 0.1
  done
  for _ in $(seq "$2"); do
    curl -s -o /dev/null -w '%{http_code}\n' --data-binary @"$work/s20.lock" \
      -H 'Content-Type: application/octet-stream' "http://127.0.0.1:$port/v1/sbom"
  done | sort | uniq -c | sed "s/^/$1: HTTP /"
  kill -TERM "$pid"
  wait "$pid"
}
total() { awk '/^(summary|totals):/{print $2; exit}' "$1"; }

run idle.out 0
run small.out "$n"
ir0=$(total "$work/idle.out")
ir1=$(total "$work/small.out")
echo "commit $(git -C "$root" rev-parse --short HEAD); input $(stat -c %s "$work/s20.lock") bytes; Ir $ir1 ($n requests) - $ir0 (none)"
echo "instructions per request: $(( (ir1 - ir0) / n ))"
echo "--- top 15 inclusive"
callgrind_annotate --inclusive=yes "$work/small.out" 2> /dev/null | grep -E '^ *[0-9,]+ ' | head -15
echo "--- top 15 self"
callgrind_annotate "$work/small.out" 2> /dev/null | grep -E '^ *[0-9,]+ ' | head -15
