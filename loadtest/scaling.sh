#!/usr/bin/env bash
# scaling.sh [BUILD_DIR] - issue 25 targets 3 and 4, with the result cache
# off (every request is read and written again, as distinct uploads are):
#  3. CPU seconds per request of the reference lockfile (the server's own
#     utime + stime from /proc over a 1-connection run, divided by the
#     requests it answered), then requests/s at 2, 4 and 16 connections
#     against the ideal cores / CPU-per-request; target >= 90% of it.
#     wrk runs on the same cores and takes its share: its own CPU is printed.
#  4. p50/p99 latency of a 20-package lockfile at 16 connections; target
#     p99 < 2 ms.
# Figures only; never fails on a duration. DUR=seconds per point (default 5).
set -u
. "$(dirname "$0")/wrk-lib.sh"
cores=$(nproc)
hz=$(getconf CLK_TCK)
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
"$root/loadtest/gen-lockfile" 20 > "$work/s20.lock"
start_sbomd scale --result-cache-size 0
echo "machine: $cores cores; commit $(git -C "$root" rev-parse --short HEAD); reference $(basename "$(dirname "$ref")") ($(stat -c %s "$ref") bytes); result cache off"

# CPU per request: one connection, so nothing waits on anything else
t0=$(cpu_ticks "$pid")
LOCKFILE="$ref" wrk -t1 -c1 -d"$dur"s -s "$root/loadtest/post.lua" "http://127.0.0.1:$port/v1/sbom" > "$work/c1.txt"
t1=$(cpu_ticks "$pid")
n1=$(awk '/requests in/{print $1}' "$work/c1.txt")
cpr=$(awk -v t=$((t1 - t0)) -v n="$n1" -v hz="$hz" 'BEGIN{printf "%.5f", t / hz / n}')
ideal=$(awk -v c="$cores" -v s="$cpr" 'BEGIN{printf "%.1f", c / s}')
echo "target 3: CPU per request ${cpr}s over $n1 requests at 1 connection ($(rps "$work/c1.txt") req/s); ideal $cores / $cpr = $ideal req/s"
printf '%6s %10s %8s %8s %10s %s\n' conns "req/s" ideal ratio "wrk_cpu_s" verdict
for c in 2 4 16; do
  LOCKFILE="$ref" /usr/bin/time -f '%U %S' -o "$work/wrk-time" wrk -t2 -c$c -d"$dur"s -s "$root/loadtest/post.lua" "http://127.0.0.1:$port/v1/sbom" > "$work/c.txt"
  r="$(rps "$work/c.txt")"
  wcpu=$(awk '{printf "%.2f", $1 + $2}' "$work/wrk-time")
  ratio=$(awk -v r="$r" -v i="$ideal" 'BEGIN{printf "%.0f", 100 * r / i}')
  v=met; [ "$ratio" -lt 90 ] && v=MISSED
  printf '%6s %10s %8s %7s%% %10s %s\n' "$c" "$r" "$ideal" "$ratio" "$wcpu" "$v"
done

# small requests: latency at 16 connections
LOCKFILE="$work/s20.lock" wrk -t2 -c16 -d2s -s "$root/loadtest/post.lua" "http://127.0.0.1:$port/v1/sbom" > /dev/null # warm-up
LOCKFILE="$work/s20.lock" wrk -t2 -c16 -d"$dur"s --latency -s "$root/loadtest/post.lua" "http://127.0.0.1:$port/v1/sbom" > "$work/small.txt"
p99=$(awk '/ 99%/{print $2}' "$work/small.txt")
p99_ms=$(awk -v v="$p99" 'BEGIN{ if (v ~ /us$/) { sub(/us$/, "", v); print v / 1000 } else if (v ~ /ms$/) { sub(/ms$/, "", v); print v + 0 } else { sub(/s$/, "", v); print v * 1000 } }')
v=met; awk -v p="$p99_ms" 'BEGIN{exit !(p >= 2)}' && v=MISSED
echo "target 4: 20-package lockfile ($(stat -c %s "$work/s20.lock") bytes), 16 connections: $(rps "$work/small.txt") req/s, $(awk '/ 50%/{p50=$2} / 90%/{p90=$2} / 99%/{p99=$2} END{print "p50 " p50 ", p90 " p90 ", p99 " p99}' "$work/small.txt") -> p99 ${p99_ms} ms, $v (< 2 ms)"
grep -hE "Non-2xx|Socket errors" "$work/c1.txt" "$work/c.txt" "$work/small.txt" || true
