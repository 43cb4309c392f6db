#!/usr/bin/env bash
# uploads.sh [BUILD_DIR] [N] [MiB] [-- SBOMD_ARGS...] - N concurrent uploads
# of MiB MiB each (random bytes: read whole, then refused 415) to /v1/sbom;
# prints how they were answered and the server's peak RSS (VmHWM) against
# its memory budget. A benchmark: prints figures, asserts nothing. Bounded:
# N uploads, once.
set -u
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="${1:-$root/build/release}/sbomd"
n="${2:-16}" mib="${3:-64}"
shift $(($# < 3 ? $# : 3)); [ "${1:-}" = -- ] && shift
work="$(mktemp -d)"
"$bin" --port 0 --quiet "$@" 2> "$work/log" &
pid=$!
trap 'kill $pid 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 50); do port="$(grep -o '127.0.0.1:[0-9]*' "$work/log" | head -1 | cut -d: -f2)"; [ -n "$port" ] && break; sleep 0.1; done
head -c $((mib << 20)) /dev/urandom > "$work/body"
hwm0="$(awk '/VmHWM/{print $2}' /proc/$pid/status)"
cpids=""
for i in $(seq "$n"); do
  curl -sS -o /dev/null -w '%{http_code}\n' --data-binary @"$work/body" "http://127.0.0.1:$port/v1/sbom" > "$work/st$i" 2>&1 &
  cpids="$cpids $!"
done
wait $cpids
budget="$(curl -sS "http://127.0.0.1:$port/metrics" | awk '/^sbomd_memory_budget_bytes/{printf "%d MiB", $2 / 1048576}')"
echo "sbomd ${*:-(defaults)}: $n x $mib MiB uploads answered: $(cat "$work"/st* | sort | uniq -c | tr -s ' ' | paste -sd,)"
echo "peak RSS $(awk '/VmHWM/{print $2}' /proc/$pid/status) kB (at start $hwm0 kB); memory budget ${budget:-none}; RSS now $(awk '/VmRSS/{print $2" kB"}' /proc/$pid/status)"
