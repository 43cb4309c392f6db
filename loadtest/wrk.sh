#!/usr/bin/env bash
# wrk.sh [BUILD_DIR] - load tests with wrk on loopback, bounded in time:
#  1. latency percentiles at 1 connection (reference lockfile);
#  2. throughput at 1, 2, 4, 16, 64 connections for the reference and the
#     2000-package synthetic lockfile, against sbomd and against the HTTP
#     floor (loadtest/floor.c answering the same bytes sbomd would);
#  3. a soak of >= 200,000 requests (a small fixture) with the server's RSS
#     sampled every second;
#  4. peak RSS (VmHWM, the kernel's own high-water mark) of one request for the
#     10000-package lockfile on a fresh server.
# Figures only; never fails on a duration. DUR=seconds per throughput point.
set -u
. "$(dirname "$0")/wrk-lib.sh"
small="$shared/fixtures/explicit/rattler-test-data-python/explicit-env-osx-arm64.txt" # 15 packages: many requests per second
"$root/loadtest/gen-lockfile" 2000 > "$work/s2000.lock"
"$root/loadtest/gen-lockfile" 10000 > "$work/s10000.lock"

start_sbomd sbomd --result-cache-size 0 # every request made anew: repeat.sh measures the cache
echo "machine: $(nproc) cores, $(awk '/MemTotal/{printf "%.0f GiB", $2/1048576}' /proc/meminfo); commit $(git -C "$root" rev-parse --short HEAD)"
echo "reference: $ref ($(stat -c %s "$ref") bytes); synthetic: 2000 packages ($(stat -c %s "$work/s2000.lock") bytes)"
LOCKFILE="$ref" wrk -t1 -c1 -d"$dur"s --latency -s "$root/loadtest/post.lua" "http://127.0.0.1:$port/v1/sbom" > "$work/lat.txt"
echo "latency, 1 connection, reference: $(awk '/ 50%/{p50=$2} / 90%/{p90=$2} / 99%/{p99=$2} END{print "p50 " p50 ", p90 " p90 ", p99 " p99}' "$work/lat.txt")"
printf '%-22s %6s %12s %12s %8s\n' input conns "sbomd req/s" "floor req/s" ratio
for input in ref s2000; do
  f="$ref"; [ "$input" = s2000 ] && f="$work/s2000.lock"
  curl -sS -o "$work/$input.json" --data-binary @"$f" "http://127.0.0.1:$port/v1/sbom"
  fport=$((20000 + RANDOM % 20000)) # floor.c binds the port it is given
  "$work/floor" "$fport" "$work/$input.json" &
  fpid=$!; pids="$pids $fpid"; sleep 0.3
  for c in 1 2 4 16 64; do
    t=$(( c < 2 ? 1 : 2 ))
    LOCKFILE="$f" wrk -t$t -c$c -d"$dur"s -s "$root/loadtest/post.lua" "http://127.0.0.1:$port/v1/sbom" > "$work/a.txt"
    LOCKFILE="$f" wrk -t$t -c$c -d"$dur"s -s "$root/loadtest/post.lua" "http://127.0.0.1:$fport/" > "$work/f.txt"
    a="$(rps "$work/a.txt")" fl="$(rps "$work/f.txt")"
    printf '%-22s %6s %12s %12s %8s\n' "$input" "$c" "$a" "$fl" "$(awk -v a="$a" -v f="$fl" 'BEGIN{if (f > 0) printf "%.0f%%", 100 * a / f}')"
  done
  kill "$fpid"
done
# soak: >= 200,000 requests of a small lockfile, RSS every second, on a
# fresh server (what the throughput runs left behind is not the soak's)
kill "$pid"; wait "$pid" 2>/dev/null
start_sbomd sbomd --result-cache-size 0 # every request made anew: repeat.sh measures the cache
# warm-up: three runs, so connections are spread over the pool's threads
# more than once (each thread's allocator heap settles at its own peak)
for _ in 1 2 3; do
  LOCKFILE="$small" wrk -t2 -c16 -d2s -s "$root/loadtest/post.lua" "http://127.0.0.1:$port/v1/sbom" > "$work/w.txt"
done
rate="$(rps "$work/w.txt")"
secs="$(awk -v r="$rate" 'BEGIN{s = int(200000 / r) + 5; if (s > 300) s = 300; print s}')"
rss_warm="$(awk '/VmRSS/{print $2}' /proc/$pid/status)"
( for _ in $(seq "$secs"); do awk '/VmRSS/{print $2}' /proc/$pid/status; sleep 1; done ) > "$work/rss.txt" &
sampler=$!
LOCKFILE="$small" wrk -t2 -c16 -d"$secs"s -s "$root/loadtest/post.lua" "http://127.0.0.1:$port/v1/sbom" > "$work/soak.txt"
wait "$sampler"
reqs="$(awk '/requests in/{print $1}' "$work/soak.txt")"
rss_end="$(awk '/VmRSS/{print $2}' /proc/$pid/status)"
rss_10="$(sed -n "$((secs / 10 + 1))p" "$work/rss.txt")"
echo "soak: $reqs requests in ${secs}s ($(rps "$work/soak.txt") req/s, 16 connections, $(stat -c %s "$small")-byte lockfile); RSS after warm-up ${rss_warm} kB, min/max while soaking $(sort -n "$work/rss.txt" | head -1)/$(sort -n "$work/rss.txt" | tail -1) kB, after ${rss_end} kB ($(awk -v a="$rss_warm" -v b="$rss_end" 'BEGIN{printf "%+.1f%%", 100 * (b - a) / a}')); from 10% into the soak (${rss_10} kB) to its end: $(awk -v a="$rss_10" -v b="$rss_end" 'BEGIN{printf "%+.1f%%", 100 * (b - a) / a}')"
grep -E "Non-2xx|Socket errors" "$work/soak.txt" || echo "soak: every answer 2xx, no socket errors"
kill "$pid"; wait "$pid" 2>/dev/null
# peak RSS of one 10000-package request, from the process itself
start_sbomd sbomd --result-cache-size 0 # every request made anew: repeat.sh measures the cache
base_rss="$(awk '/VmHWM/{print $2}' /proc/$pid/status)"
t="$(curl -sS -o "$work/big.json" -w '%{time_total}' --data-binary @"$work/s10000.lock" "http://127.0.0.1:$port/v1/sbom")"
echo "10000 packages: input $(stat -c %s "$work/s10000.lock") bytes, output $(stat -c %s "$work/big.json") bytes in ${t}s; server VmHWM ${base_rss} kB at start, $(awk '/VmHWM/{print $2}' /proc/$pid/status) kB after"
kill "$pid"; wait "$pid" 2>/dev/null
