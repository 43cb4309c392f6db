#!/usr/bin/env bash
# trickle.sh [BUILD_DIR] [CONNS] [SECONDS] [SOURCES] [-- SBOMD_ARGS...] - start
# sbomd (defaults otherwise) and run trickle.py against it: /healthz latency
# while CONNS connections trickle their heads from SOURCES loopback addresses.
# With --probe-port among SBOMD_ARGS, /healthz is asked on the probe listener.
# A benchmark: prints figures, never fails on a duration. Bounded by SECONDS.
set -u
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="${1:-$root/build/release}/sbomd"
conns="${2:-1000}" seconds="${3:-30}" sources="${4:-1}"
shift $(($# < 4 ? $# : 4)); [ "${1:-}" = -- ] && shift
log="$(mktemp)"
ulimit -n "$(ulimit -Hn)"
"$bin" --port 0 --quiet "$@" 2> "$log" &
pid=$!
trap 'kill $pid 2>/dev/null; rm -f "$log"' EXIT
for _ in $(seq 50); do port="$(grep -o '127.0.0.1:[0-9]*' "$log" | head -1 | cut -d: -f2)"; [ -n "$port" ] && break; sleep 0.1; done
probe="$(grep -o '"probe listener","detail":"http://127.0.0.1:[0-9]*' "$log" | grep -o '[0-9]*$')"
echo "sbomd ${*:-(defaults)}"
/usr/bin/python3 "$root/loadtest/trickle.py" "$port" "$conns" "$seconds" "$sources" $probe
echo "server RSS $(awk '/VmRSS/{print $2" kB"}' /proc/$pid/status), peak $(awk '/VmHWM/{print $2" kB"}' /proc/$pid/status)"
