#!/usr/bin/env bash
# mimalloc.sh - the release build with mimalloc (the stack's allocator) and
# without (PROFILE=nomi: the same flags, glibc malloc), side by side:
#  1. sbomgen on the 10000-package lockfile: median wall time of 5, peak RSS;
#  2. sbomd under wrk, 16 connections for DUR seconds (default 5) on the
#     reference lockfile: requests/s, and the server's RSS and peak after.
# Figures only; never fails on a duration. Loopback only.
set -u
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
shared="${SB_SHARED:-$root/../shared}"
dur="${DUR:-5}"
work="$(mktemp -d)"
pids=""
trap 'for p in $pids; do kill $p 2>/dev/null; done; rm -rf "$work"' EXIT
make -s --no-print-directory PROFILE=release build > /dev/null && make -s --no-print-directory PROFILE=nomi build > /dev/null || exit 1
loadtest/gen-lockfile 10000 > "$work/s10000.lock"
ref="$(ls -S "$shared"/fixtures/pixi/*/pixi.lock | head -1)"
printf '%-10s %14s %14s | %10s %12s %12s\n' build "sbomgen ms" "peak RSS kB" "req/s" "RSS kB" "peak kB"
for prof in release nomi; do
  b="build/$prof"
  ts=()
  for _ in 1 2 3 4 5; do
    /usr/bin/time -f '%e %M' -o "$work/t" "$b/sbomgen" -t 0 "$work/s10000.lock" > /dev/null
    ts+=("$(awk '{print $1 * 1000}' "$work/t")"); rss="$(awk '{print $2}' "$work/t")"
  done
  med="$(printf '%s\n' "${ts[@]}" | sort -n | sed -n 3p)"
  "$b/sbomd" --listen 127.0.0.1 --port 0 --quiet 2> "$work/s.log" &
  pid=$!; pids="$pids $pid"; port=""
  for _ in $(seq 50); do port="$(grep -o '127.0.0.1:[0-9]*' "$work/s.log" | head -1 | cut -d: -f2)"; [ -n "$port" ] && break; sleep 0.1; done
  LOCKFILE="$ref" wrk -t2 -c16 -d"$dur"s -s loadtest/post.lua "http://127.0.0.1:$port/v1/sbom" > "$work/w.txt"
  printf '%-10s %14s %14s | %10s %12s %12s\n' "$([ "$prof" = release ] && echo mimalloc || echo glibc)" "$med" "$rss" \
    "$(awk '/^Requests\/sec/{print $2}' "$work/w.txt")" "$(awk '/VmRSS/{print $2}' /proc/$pid/status)" "$(awk '/VmHWM/{print $2}' /proc/$pid/status)"
  kill "$pid"; wait "$pid" 2>/dev/null
done
