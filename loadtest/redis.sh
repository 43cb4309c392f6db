#!/usr/bin/env bash
# redis.sh [BUILD_DIR] [N] [DELAY_MS] - the shared cache (--cache-url) across
# two replicas: N (default 300) distinct PyPI packages, tests/fakeindex.py
# answering each after DELAY_MS (default 20) ms, a real redis-server on a
# loopback port. Replica A looks them up (cold), replica B (its own memory
# and disk) gets them from Redis, replica C points at a Redis port nobody
# listens on. Prints wall time, upstream transfers and shared-cache counters;
# a benchmark: never fails on a duration. Loopback only.
set -u
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="${1:-$root/build/release}/sbomd"
n="${2:-300}" delay="${3:-20}"
work="$(mktemp -d)"
pids=""
trap 'for p in $pids; do kill $p 2>/dev/null; done; rm -rf "$work"' EXIT
command -v redis-server > /dev/null || { echo "redis-server not installed (apt-get install redis-server)"; exit 1; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
for i in $(seq 1 "$n"); do printf 'bench-pkg-%05d==2.0.%d\n' "$i" "$i"; done > "$work/requirements.txt"
python3 "$root/tests/fakeindex.py" --delay-ms "$delay" > "$work/fake.out" 2>&1 &
pids="$pids $!"
for _ in $(seq 50); do fport="$(awk '/^port/{print $2}' "$work/fake.out")"; [ -n "$fport" ] && break; sleep 0.1; done
rport="$(free_port)" dead="$(free_port)"
redis-server --port "$rport" --bind 127.0.0.1 --save '' --appendonly no --dir "$work" --logfile "$work/redis.log" &
pids="$pids $!"
for _ in $(seq 100); do [ "$(redis-cli -p "$rport" ping 2>/dev/null)" = PONG ] && break; sleep 0.05; done
printf '%-34s %9s %10s %6s %7s %7s\n' replica "wall (s)" transfers hits errors warning
run() { # run NAME PORT
  mkdir -p "$work/$1"
  curl -sS -X POST "http://127.0.0.1:$fport/_zero" > /dev/null
  "$bin" --listen 127.0.0.1 --port 0 --quiet --lookups --pypi-url "http://127.0.0.1:$fport/pypi" --concurrency 10 \
    --lookup-deadline 600 --request-timeout 900 --cache-dir "$work/$1" --cache-url "redis://127.0.0.1:$2/0" 2> "$work/$1.log" &
  local pid=$! port=""; pids="$pids $pid"
  for _ in $(seq 50); do port="$(grep -o '"detail":"http://127.0.0.1:[0-9]*' "$work/$1.log" | grep -o '[0-9]*$' | head -1)"; [ -n "$port" ] && break; sleep 0.1; done
  local t; t="$(curl -sS -D "$work/$1.h" -o "$work/$1.json" -w '%{time_total}' --data-binary @"$work/requirements.txt" \
       "http://127.0.0.1:$port/v1/sbom?filename=requirements.txt&fetch-licenses=true")"
  sleep 0.5 # the writes are queued
  local m; m="$(curl -sS "http://127.0.0.1:$port/metrics")"
  printf '%-34s %9.3f %10s %6s %7s %7s\n' "$3" "$t" "$(curl -sS "http://127.0.0.1:$fport/_count" | jq .requests)" \
    "$(awk '$1 == "sbomd_shared_cache_hits_total" {print $2}' <<< "$m")" \
    "$(awk '$1 == "sbomd_shared_cache_errors_total" {print $2}' <<< "$m")" "$(grep -qi '^warning: 199' "$work/$1.h" && echo yes || echo no)"
}
run a "$rport" "A: cold, Redis up"
run b "$rport" "B: second replica, Redis up"
run c "$dead" "C: Redis down (port closed)"
echo "keys in Redis: $(redis-cli -p "$rport" dbsize)"
