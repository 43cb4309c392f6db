#!/usr/bin/env bash
# largest.sh - one figure per format for the largest pixi.lock fixture:
# output size, server-side time (the request log's duration, median of N
# posts) beside the client's, and the server's RSS /
# peak RSS (VmRSS/VmHWM from /proc). A benchmark: prints figures, never fails
# on a duration. Loopback only, bounded: N posts per format (default 5).
#   loadtest/largest.sh [BUILD_DIR] [N]
set -u
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="${1:-$root/build/release}/sbomd"
n="${2:-5}"
shared="${SB_SHARED:-$root/../shared}"
f="$(ls -S "$shared"/fixtures/pixi/*/pixi.lock | head -1)"
log="$(mktemp)"
"$bin" --port 0 2> "$log" &
pid=$!
trap 'kill $pid 2>/dev/null; rm -f "$log"' EXIT
for _ in $(seq 50); do port="$(grep -o '127.0.0.1:[0-9]*' "$log" | head -1 | cut -d: -f2)"; [ -n "$port" ] && break; sleep 0.1; done
echo "fixture: ${f#$shared/} ($(stat -c %s "$f") bytes); server RSS at start: $(awk '/VmRSS/{print $2" kB"}' /proc/$pid/status)"
for fmt in cyclonedx-1.6 cyclonedx-1.7 spdx-2.3 spdx-3.0.1; do
  times=()
  for _ in $(seq "$n"); do
    t="$(curl -sS -o /tmp/largest.$$ -w '%{time_total} %{size_download}' --data-binary @"$f" "http://127.0.0.1:$port/v1/sbom?format=$fmt")"
    times+=("${t%% *}"); size="${t#* }"
  done
  med="$(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')"
  srv="$(grep "\"format\":\"$fmt\"" "$log" | grep -o '"duration_us":[0-9]*' | cut -d: -f2 | sort -n | awk '{a[NR]=$1} END {printf "%.1f", a[int((NR+1)/2)] / 1000}')"
  printf '%-12s %9s bytes  server median %6s ms  client %6.1f ms  RSS %s  peak %s\n' "$fmt" "$size" "$srv" "$(awk -v m="$med" "BEGIN{print m*1000}")" \
    "$(awk '/VmRSS/{print $2" kB"}' /proc/$pid/status)" "$(awk '/VmHWM/{print $2" kB"}' /proc/$pid/status)"
done
rm -f /tmp/largest.$$
