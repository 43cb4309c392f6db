#!/usr/bin/env bash
# rss.sh - issue 25 target 2: the peak RSS of one request against the bound
# 2 x input + 16 MiB, for every input kind (the largest fixture of each, and
# a generated 10,000-package pixi.lock), measured twice:
#  1. on a fresh server: VmHWM after one CycloneDX 1.6 request less the idle
#     server's VmRSS;
#  2. on one server after 100 mixed requests (every input, four formats):
#     before each measured request the kernel's high-water mark is reset
#     (`echo 5 > /proc/PID/clear_refs`), so the figure is that request's own
#     peak over the RSS the server already held: arena reuse and per-thread
#     retention show up here, the history does not.
# Then the retention: the server's RSS idle, after the 100 mixed requests and
# after the measured ones (the result cache is on, as deployed: its answers
# are part of what is held). Figures only, never fails.
#   loadtest/rss.sh [BUILD_DIR]
set -u
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="${1:-$root/build/release}/sbomd"
shared="${SB_SHARED:-$root/../shared}"
fx="$shared/fixtures"
work="$(mktemp -d)"
pid=
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; rm -rf "$work"' EXIT
"$root/loadtest/gen-lockfile" 10000 > "$work/synthetic-10000.pixi.lock"
largest() { ls -S "$@" 2>/dev/null | head -1; }
files=("$work/synthetic-10000.pixi.lock"
       "$(largest "$fx"/pixi/*/pixi.lock)" "$(largest "$fx"/conda-lock/*/*.yml "$fx"/conda-lock/*/*.yaml)"
       "$(largest "$fx"/explicit/*/*.lock "$fx"/explicit/*/*.txt)" "$(largest "$fx"/uv/*/uv.lock)"
       "$(largest "$fx"/poetry/*/poetry.lock)" "$(largest "$fx"/pdm/*/pdm.lock)" "$(largest "$fx"/pylock/*/pylock*.toml)"
       "$(largest "$fx"/requirements/*/*.txt)" "$(largest "$fx"/npm/*/package-lock.json)"
       "$(largest "$fx"/yarn/*/yarn.lock)" "$(largest "$fx"/pnpm/*/pnpm-lock.yaml)")
kb() { awk -v k="$2" '$1 == k":" {print $2}' /proc/"$1"/status; }
start() {
  "$bin" --port 0 2> "$work/log" &
  pid=$!
  for _ in $(seq 50); do port="$(grep -o '127.0.0.1:[0-9]*' "$work/log" | head -1 | cut -d: -f2)"; [ -n "$port" ] && break; sleep 0.1; done
}
post() { curl -sS -o /dev/null -w '%{http_code}' --data-binary @"$1" "http://127.0.0.1:$port/v1/sbom?format=$2&filename=$(basename "$1")"; }
name() { local n; n="$(basename "$(dirname "$1")")/$(basename "$1")"; echo "${n:0:56}"; }
bound() { echo $(( (2 * $(stat -c %s "$1") + 16 * 1048576) / 1024 )); }
within=0; over=0
verdict() { if [ "$1" -le "$2" ]; then within=$((within + 1)); v=within; else over=$((over + 1)); v=OVER; fi; }

echo "1. fresh server, one CycloneDX 1.6 request: VmHWM - idle VmRSS"
printf '%-58s %9s %9s %9s %s\n' input "input kB" "growth kB" "bound kB" ""
for f in "${files[@]}"; do
  start; idle=$(kb $pid VmRSS)
  code=$(post "$f" cyclonedx-1.6)
  g=$(( $(kb $pid VmHWM) - idle )); b=$(bound "$f")
  verdict "$g" "$b"
  printf '%-58s %9d %9d %9d %s (HTTP %s)\n' "$(name "$f")" $(( $(stat -c %s "$f") / 1024 )) "$g" "$b" "$v" "$code"
  kill $pid; wait $pid 2>/dev/null; pid=
done

echo
echo "2. one server after 100 mixed requests: each request's own peak over the RSS before it"
start; idle=$(kb $pid VmRSS)
fmts=(cyclonedx-1.6 cyclonedx-1.7 spdx-2.3 spdx-3.0.1)
for i in $(seq 100); do post "${files[$((i % ${#files[@]}))]}" "${fmts[$((i % 4))]}" > /dev/null; done
after=$(kb $pid VmRSS); hwm100=$(kb $pid VmHWM)
printf '%-58s %9s %9s %9s %s\n' input "RSS kB" "growth kB" "bound kB" ""
for f in "${files[@]}"; do
  for fmt in cyclonedx-1.6 spdx-3.0.1; do
    before=$(kb $pid VmRSS)
    echo 5 > /proc/$pid/clear_refs
    code=$(post "$f" "$fmt&timestamp=$RANDOM") # a new timestamp: answered again, not from the result cache
    g=$(( $(kb $pid VmHWM) - before )); b=$(bound "$f")
    verdict "$g" "$b"
    printf '%-58s %9d %9d %9d %s (%s, HTTP %s)\n' "$(name "$f")" "$before" "$g" "$b" "$v" "$fmt" "$code"
  done
done
echo "retention: RSS idle $idle kB, after the 100 mixed requests $after kB (their VmHWM $hwm100 kB), after the measured ones $(kb $pid VmRSS) kB"
kill $pid; wait $pid 2>/dev/null; pid=
echo "rss: $within within the bound, $over over"
