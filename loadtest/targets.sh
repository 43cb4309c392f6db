#!/usr/bin/env bash
# targets.sh [BUILD_DIR] - issue 41's four targets, each with its figure and
# whether this run meets it (ratios within one run, on this machine as it is:
# run it idle). Figures only; never fails on a duration. About 6 minutes.
#   1. first request <= 0.75x a single-thread libyaml scan of the same bytes
#      (first-request.sh), the 10,000-package bench end to end <= 1.0x;
#   2. <= 250 B a package on 100,000 pins (model-peak.sh), every
#      100,000-entry JavaScript lockfile within 2x input + 16 MiB (js-bound.sh);
#   3. a 20-package request <= 2.0M instructions (callgrind-small.sh), p99 <
#      2 ms at 16 connections (wrk, 10 s);
#   4. goldens byte-identical (tests/integration/goldens.sh), a soak of
#      500,000 requests flat in RSS, RSS back within 16 MiB of idle 10 s
#      after a burst of 100 mixed requests.
set -u
root="$(cd "$(dirname "$0")/.." && pwd)"
b="${1:-$root/build/release}"
shared="${SB_SHARED:-$root/../shared}"
work="$(mktemp -d)"
pid=""
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; rm -rf "$work"' EXIT
cd "$root"
make -s --no-print-directory PROFILE=release build build/release/bench > /dev/null || exit 1
verdict() { [ -n "$1" ] || { echo "not measured"; return; }; awk -v v="$1" -v t="$2" 'BEGIN{print (v + 0 <= t + 0) ? "met" : "MISSED"}'; }
start() {
  "$b/sbomd" --listen 127.0.0.1 --port 0 --quiet "$@" 2> "$work/log" &
  pid=$!; port=""
  for _ in $(seq 100); do port="$(grep -o '127.0.0.1:[0-9]*' "$work/log" | head -1 | cut -d: -f2)"; [ -n "$port" ] && break; sleep 0.1; done
}
stop() { kill "$pid"; wait "$pid" 2> /dev/null; pid=""; }
kb() { awk -v k="$1:" '$1 == k {print $2}' /proc/$pid/status; }

loadtest/gen-lockfile 10000 > "$work/s10k.lock"
loadtest/gen-lockfile 20 > "$work/s20.lock"
python3 tests/hostile/make-bounds.py "$work/in" 1 req-100k.requirements.txt > /dev/null
want() { [[ " ${TARGETS:-1 2 3 4} " == *" $1 "* ]]; }  # TARGETS="3 4": some of them

if want 1; then
echo "## target 1: first request <= 0.75x the libyaml scan; 10,000 packages <= 1.0x"
loadtest/first-request.sh "$b" | tee "$work/t1.txt"
while read -r name _ _ _ _ x; do
  [ "$name" = input ] || [ "$name" = target ] && continue
  echo "target 1, $name: ${x} ($(verdict "${x%x}" 0.75))"
done < "$work/t1.txt"
"$b/bench" -r 5 "$work/s10k.lock" > "$work/bench.txt"
e2e="$(awk '/^end to end/{print $(NF-1)}' "$work/bench.txt")"
cpu="$(awk '/its CPU time/{print $(NF-1)}' "$work/bench.txt")"
echo "target 1, 10,000 packages (bench, parse + model + CycloneDX 1.6): wall ${e2e}x the scan ($(verdict "$e2e" 1.0)), CPU of all threads ${cpu}x"

fi
if want 2; then
echo; echo "## target 2: <= 250 B a package on 100,000 pins; JavaScript 100,000 entries within 2x input + 16 MiB"
loadtest/model-peak.sh "$b" "$work/in/req-100k.requirements.txt" | tee "$work/t2.txt"
per="$(grep -o '[0-9]* B/pkg  estimate' "$work/t2.txt" | awk '{print $1}')"
echo "target 2, 100,000 pins: ${per} B a package ($(verdict "$per" 250))"
loadtest/js-bound.sh "$b" 100000 | tee "$work/js.txt"
echo "target 2, JavaScript 100,000 entries: $(grep -c 'within' "$work/js.txt") within the bound, $(grep -c 'OVER' "$work/js.txt") over"

fi
if want 3; then
echo; echo "## target 3: a 20-package request <= 2.0M instructions; p99 < 2 ms at 16 connections"
ir="$(loadtest/callgrind-small.sh "$b" 200 | awk -F': ' '/instructions per request/{print $2}')"
echo "target 3, instructions a request (callgrind): $ir ($(verdict "$ir" 2000000))"
start --result-cache-size 0
LOCKFILE="$work/s20.lock" wrk -t2 -c16 -d10s --latency -s loadtest/post.lua "http://127.0.0.1:$port/v1/sbom" > "$work/wrk.txt"
stop
p99="$(awk '/ 99%/{print $2}' "$work/wrk.txt")"
p99ms="$(echo "$p99" | awk '/us$/{sub("us",""); print $1/1000; next} /ms$/{sub("ms",""); print $1; next} /s$/{sub("s",""); print $1*1000}')"
echo "target 3, p99 at 16 connections (wrk on the same 2 cores, result cache off): $p99, $(awk '/^Requests\/sec/{print $2}' "$work/wrk.txt") req/s ($(verdict "$p99ms" 1.999))"

fi
if want 4; then
echo; echo "## target 4: nothing else moves the wrong way"
if tests/integration/goldens.sh "$b" > "$work/goldens.txt" 2>&1; then g=met; else g=MISSED; fi
echo "target 4, goldens: $(tail -1 "$work/goldens.txt") ($g)"
# soak: 500,000 requests of the 20-package lockfile (result cache on, as deployed)
start
# warm-up: the allocator's and libmicrohttpd's per-thread pools reach their size
LOCKFILE="$work/s20.lock" wrk -t2 -c16 -d10s -s loadtest/post.lua "http://127.0.0.1:$port/v1/sbom" > /dev/null
rss0="$(kb VmRSS)"; total=0; rounds=0
while [ "$total" -lt 500000 ] && [ "$rounds" -lt 40 ]; do
  LOCKFILE="$work/s20.lock" wrk -t2 -c16 -d10s -s loadtest/post.lua "http://127.0.0.1:$port/v1/sbom" > "$work/soak.txt"
  total=$((total + $(awk '/requests in/{print $1; f=1} END{if (!f) print 0}' "$work/soak.txt"))); rounds=$((rounds + 1))
done
rss1="$(kb VmRSS)"
echo "target 4, soak: $total requests, RSS after warm-up $rss0 kB, after $rss1 kB ($(awk -v a="$rss0" -v b="$rss1" 'BEGIN{printf "%+.1f%%", 100 * (b - a) / a}'); $(verdict "$rss1" "$rss0"))"
stop
# a burst of 100 mixed requests (ten inputs of eight kinds, five formats, four
# at a time), then 10 s idle: once with the result cache off (what the
# allocator and the arenas keep), once as deployed (the cache keeps up to its
# 64 MiB of answers by design, so that run's bound is 16 MiB + 64 MiB)
inputs=("$(ls -S "$shared"/fixtures/pixi/*/pixi.lock | head -1)" "$work/s10k.lock" \
  "$(ls -S "$shared"/fixtures/uv/*/uv.lock | head -1)" "$(ls -S "$shared"/fixtures/npm/*/package-lock.json | head -1)" \
  "$(ls -S "$shared"/fixtures/pnpm/*/pnpm-lock.yaml | head -1)" "$(ls -S "$shared"/fixtures/yarn/*/yarn.lock | head -1)" \
  "$(ls -S "$shared"/fixtures/poetry/*/poetry.lock | head -1)" "$(ls -S "$shared"/fixtures/conda-lock/*/conda-lock.yml | head -1)" \
  "$work/in/req-100k.requirements.txt" "$(ls -S "$shared"/fixtures/bun/*/bun.lock | head -1)")
formats=(cyclonedx-1.6 spdx-2.3 spdx-3.0.1 cyclonedx-1.7 github-snapshot)
burst() {
  local label="$1" bound="$2"; shift 2
  start "$@"
  local idle; idle="$(kb VmRSS)"; : > "$work/codes"
  local cpids="" i f fmt extra
  for i in $(seq 0 99); do
    f="${inputs[$((i % 10))]}"; fmt="${formats[$((i / 10 % 5))]}"
    extra=""; [ "$fmt" = github-snapshot ] && extra="&sha=$(printf '%040d' 0)&ref=refs/heads/main&correlator=t&job-id=1"
    curl -s -o /dev/null -w '%{http_code}\n' --data-binary @"$f" "http://127.0.0.1:$port/v1/sbom?filename=$(basename "$f")&format=$fmt$extra" >> "$work/codes" &
    cpids="$cpids $!"
    [ $((i % 4)) = 3 ] && { wait $cpids; cpids=""; }  # not `wait`: that would wait for the server too
  done
  [ -n "$cpids" ] && wait $cpids
  local hwm after; hwm="$(kb VmHWM)"; sleep 10; after="$(kb VmRSS)"
  echo "target 4, burst ($label): answers $(sort "$work/codes" | uniq -c | awk '{printf "%s%s x%s", (NR > 1 ? ", " : ""), $2, $1}'); RSS idle $idle kB, peak $hwm kB, 10 s after $after kB: +$(( (after - idle) / 1024 )) MiB over idle ($(verdict $((after - idle)) "$bound"))"
  stop
}
burst "result cache off" 16384 --result-cache-size 0
burst "result cache on, as deployed" $((16384 + 65536))
fi
