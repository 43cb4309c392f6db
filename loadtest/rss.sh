#!/usr/bin/env bash
# rss.sh - issue 25 target 2: peak RSS of a request against the bound
# 2 x input + 16 MiB. Per lockfile: a fresh server, one CycloneDX 1.6
# request, the growth of VmHWM over the idle server's RSS; then 100 mixed
# requests (four formats, the other lockfiles) on the same server and its
# VmHWM / VmRSS after. Figures only, never fails.
#   loadtest/rss.sh [BUILD_DIR]
set -u
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="${1:-$root/build/release}/sbomd"
shared="${SB_SHARED:-$root/../shared}"
work="$(mktemp -d)"
pid=
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; rm -rf "$work"' EXIT
"$root/loadtest/gen-lockfile" 10000 > "$work/synthetic-10000.pixi.lock"
files=("$work/synthetic-10000.pixi.lock" "$(ls -S "$shared"/fixtures/pixi/*/pixi.lock | head -1)"
       "$(ls -S "$shared"/fixtures/uv/*/uv.lock | head -1)" "$(ls -S "$shared"/fixtures/npm/*/package-lock.json | head -1)")
kb() { awk -v k="$2" '$1 == k":" {print $2}' /proc/"$1"/status; }
start() {
  "$bin" --port 0 2> "$work/log" &
  pid=$!
  for _ in $(seq 50); do port="$(grep -o '127.0.0.1:[0-9]*' "$work/log" | head -1 | cut -d: -f2)"; [ -n "$port" ] && break; sleep 0.1; done
}
post() { curl -sS -o /dev/null --data-binary @"$1" "http://127.0.0.1:$port/v1/sbom?format=$2&filename=$(basename "$1")"; }
for f in "${files[@]}"; do
  size=$(stat -c %s "$f"); bound=$(( (2 * size + 16 * 1048576) / 1024 ))
  start; idle=$(kb $pid VmRSS)
  post "$f" cyclonedx-1.6
  peak=$(kb $pid VmHWM)
  printf '%-44s %8d kB input  one request: peak %6d kB, growth %6d kB, bound %6d kB  %s\n' "$(basename "$(dirname "$f")")/$(basename "$f")" \
    $((size / 1024)) "$peak" $((peak - idle)) "$bound" "$([ $((peak - idle)) -le $bound ] && echo within || echo OVER)"
  for i in $(seq 100); do
    g="${files[$((i % ${#files[@]}))]}"
    fmts=(cyclonedx-1.6 cyclonedx-1.7 spdx-2.3 spdx-3.0.1)
    post "$g" "${fmts[$((i % 4))]}"
  done
  printf '%-44s after 100 mixed requests: peak %6d kB, RSS %6d kB\n' "" "$(kb $pid VmHWM)" "$(kb $pid VmRSS)"
  kill $pid; wait $pid 2>/dev/null; pid=
done
