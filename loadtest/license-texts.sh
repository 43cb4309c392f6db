#!/usr/bin/env bash
# license-texts.sh - stream a document carrying the full 64 MiB license-text
# budget and report the server's own peak RSS (VmHWM from /proc/PID/status,
# read by the process's kernel accounting, not sampled by a poller). A
# benchmark: prints figures, never fails on a duration. Loopback only.
#   loadtest/license-texts.sh [BUILD_DIR] [FILE_BYTES]
# Builds a package cache for the largest pixi.lock fixture where every conda
# package has one FILE_BYTES (default 600000) license file, so the linux-64
# document wants more text than the 64 MiB budget allows.
set -u
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="${1:-$root/build/release}/sbomd"
bytes="${2:-600000}"
shared="${SB_SHARED:-$root/../shared}"
f="$(ls -S "$shared"/fixtures/pixi/*/pixi.lock | head -1)"
work="$(mktemp -d)"
trap 'kill $pid 2>/dev/null; rm -rf "$work"' EXIT
"$root/tests/integration/make-cache.sh" "$f" "$work/cache" "$bytes"
echo "cache: $(ls "$work/cache/pkgs" | wc -l) packages, $(du -sm "$work/cache" | cut -f1) MiB"
"$bin" --port 0 --quiet --package-cache "$work/cache" 2> "$work/log" &
pid=$!
for _ in $(seq 50); do port="$(grep -o '127.0.0.1:[0-9]*' "$work/log" | head -1 | cut -d: -f2)"; [ -n "$port" ] && break; sleep 0.1; done
echo "server RSS at start: $(awk '/VmRSS/{print $2" kB"}' /proc/$pid/status)"
for fmt in cyclonedx-1.6 cyclonedx-1.7; do
  t="$(curl -sS -D "$work/h" -o "$work/doc.json" -w '%{time_total} %{size_download}' --data-binary @"$f" \
       "http://127.0.0.1:$port/v1/sbom?format=$fmt&license-texts=true")"
  text="$(jq '[.components[].licenses[]? | .license.text.content // empty | length] | add' "$work/doc.json")"
  printf '%-12s %10s bytes out, %10s bytes of license text, %6.2f s; server peak RSS %s (VmHWM)\n' "$fmt" "${t#* }" \
    "$text" "${t%% *}" "$(awk '/VmHWM/{print $2" kB"}' /proc/$pid/status)"
  grep -i '^warning:' "$work/h" | head -1
done
"$shared/tools/validate-sbom" -q --format cyclonedx-1.7 "$work/doc.json" && echo "the 1.7 document validates"
