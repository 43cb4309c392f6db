#!/usr/bin/env bash
# lookups.sh [BUILD_DIR] [N] [DELAY_MS] - license lookups for a lockfile of N
# (default 300) distinct PyPI packages against tests/fakeindex.py answering
# each release after DELAY_MS (default 20) ms, at concurrency 1, 10 and 24:
# wall time of the request, transfers made, connections opened. A benchmark:
# prints figures, never fails on a duration. Loopback only. Then the same
# for N conda archives (tests/make-conda.py), cold and after a restart that
# keeps the --cache-dir.
set -u
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="${1:-$root/build/release}/sbomd"
n="${2:-300}" delay="${3:-20}"
work="$(mktemp -d)"
pids=""
trap 'for p in $pids; do kill $p 2>/dev/null; done; rm -rf "$work"' EXIT
for i in $(seq 1 "$n"); do printf 'bench-pkg-%05d==2.0.%d\n' "$i" "$i"; done > "$work/requirements.txt"
python3 "$root/tests/fakeindex.py" --delay-ms "$delay" > "$work/fake.out" 2>&1 &
fake1=$!; pids="$pids $fake1"
for _ in $(seq 50); do fport="$(awk '/^port/{print $2}' "$work/fake.out")"; [ -n "$fport" ] && break; sleep 0.1; done
printf '%-12s %10s %10s %12s %14s\n' concurrency "wall (s)" transfers connections "ideal (s)"
for c in 1 10 24; do
  curl -sS -X POST "http://127.0.0.1:$fport/_zero" > /dev/null
  "$bin" --listen 127.0.0.1 --port 0 --quiet --lookups --pypi-url "http://127.0.0.1:$fport/pypi" \
    --concurrency "$c" --lookup-deadline 600 --request-timeout 900 2> "$work/s$c.log" &
  pid=$!; pids="$pids $pid"
  for _ in $(seq 50); do port="$(grep -o '127.0.0.1:[0-9]*' "$work/s$c.log" | head -1 | cut -d: -f2)"; [ -n "$port" ] && break; sleep 0.1; done
  t="$(curl -sS -o "$work/doc.json" -w '%{time_total}' --data-binary @"$work/requirements.txt" \
       "http://127.0.0.1:$port/v1/sbom?filename=requirements.txt&fetch-licenses=true")"
  stats="$(curl -sS "http://127.0.0.1:$fport/_count")"
  filled="$(jq '[.components[] | select(.licenses)] | length' "$work/doc.json")"
  printf '%-12s %10.2f %10s %12s %14.2f   (%s licenses filled)\n' "$c" "$t" "$(jq .requests <<< "$stats")" \
    "$(jq .connections <<< "$stats")" "$(awk -v n="$n" -v d="$delay" -v c="$c" 'BEGIN{print n * d / 1000 / c}')" "$filled"
  kill "$pid"; wait "$pid" 2>/dev/null
done

# conda archives: N .conda files (info in the tail: one range request each),
# at concurrency 10, then the same request on a restarted server sharing the
# first one's --cache-dir (answers from disk, no transfer)
python3 "$root/tests/make-conda.py" "$work/channel" --many "$n" > "$work/conda.lock"
kill "$fake1" 2>/dev/null # its own fake only: others may run the same command line
python3 "$root/tests/fakeindex.py" --delay-ms "$delay" --conda-dir "$work/channel" > "$work/fake2.out" 2>&1 &
pids="$pids $!"
fport=""; for _ in $(seq 50); do fport="$(awk '/^port/{print $2}' "$work/fake2.out")"; [ -n "$fport" ] && break; sleep 0.1; done
mkdir -p "$work/cache"
printf '\n%-26s %10s %10s %12s\n' "conda, concurrency 10" "wall (s)" transfers connections
for run in cold "after restart"; do
  curl -sS -X POST "http://127.0.0.1:$fport/_zero" > /dev/null
  "$bin" --listen 127.0.0.1 --port 0 --quiet --lookups --conda-url "http://127.0.0.1:$fport/conda" --cache-dir "$work/cache" \
    --concurrency 10 --lookup-deadline 600 --request-timeout 900 2> "$work/c.log" &
  pid=$!; pids="$pids $pid"
  for _ in $(seq 50); do port="$(grep -o '127.0.0.1:[0-9]*' "$work/c.log" | head -1 | cut -d: -f2)"; [ -n "$port" ] && break; sleep 0.1; done
  t="$(curl -sS -o "$work/cdoc.json" -w '%{time_total}' --data-binary @"$work/conda.lock" "http://127.0.0.1:$port/v1/sbom?fetch-licenses=true")"
  stats="$(curl -sS "http://127.0.0.1:$fport/_count")"
  filled="$(jq '[.components[] | select(.licenses)] | length' "$work/cdoc.json")"
  printf '%-26s %10.2f %10s %12s   (%s of %s licenses filled)\n' "$run" "$t" "$(jq .requests <<< "$stats")" \
    "$(jq .connections <<< "$stats")" "$filled" "$n"
  kill "$pid"; wait "$pid" 2>/dev/null
done
