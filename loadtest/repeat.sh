#!/usr/bin/env bash
# repeat.sh [BUILD_DIR] - repeat uploads (issue 24): requests/s for the same
# ~2.4 MB lockfile (the largest pixi.lock fixture) sent again and again,
# in one run and on one machine:
#   cached   sbomd answering from its result cache (--result-cache-size default)
#   304      the same with If-None-Match naming the ETag (no body either way)
#   floor    loadtest/floor.c: libmicrohttpd reading the same body and
#            answering the same document bytes (what HTTP alone costs)
#   made     sbomd with --result-cache-size 0 (every request parsed and written)
# at 1, 4 and 16 connections. Figures only; never fails on a duration.
# DUR=seconds per point (default 5).
set -u
. "$(dirname "$0")/wrk-lib.sh"

run() { # URL CONNS [ETAG]
  local t=$(( $2 < 2 ? 1 : 2 ))
  LOCKFILE="$ref" IF_NONE_MATCH="${3:-}" wrk -t$t -c"$2" -d"$dur"s -s "$root/loadtest/post.lua" "$1" > "$work/w.txt"
  if grep -q "Non-2xx" "$work/w.txt" && [ -z "${3:-}" ]; then echo "errors"; else rps "$work/w.txt"; fi
}

start_sbomd cached; cport="$port"
start_sbomd made --result-cache-size 0; mport="$port"
curl -sS -o "$work/doc.json" -D "$work/doc.h" --data-binary @"$ref" "http://127.0.0.1:$cport/v1/sbom"
etag="$(awk 'tolower($1) == "etag:" {print $2}' "$work/doc.h" | tr -d '\r')"
fport=$((20000 + RANDOM % 20000)) # floor.c binds the port it is given
"$work/floor" "$fport" "$work/doc.json" &
pids="$pids $!"; sleep 0.3
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); commit $(git -C "$root" rev-parse --short HEAD)"
echo "lockfile: $ref ($(stat -c %s "$ref") bytes) -> document $(stat -c %s "$work/doc.json") bytes, ETag $etag; ${dur}s per point"
printf '%6s %12s %12s %12s %12s %10s\n' conns "cached r/s" "304 r/s" "floor r/s" "made r/s" "cached/floor"
for c in 1 4 16; do
  a="$(run "http://127.0.0.1:$cport/v1/sbom" "$c")"
  n="$(IF_NONE_MATCH= run "http://127.0.0.1:$cport/v1/sbom" "$c" "$etag")"
  f="$(run "http://127.0.0.1:$fport/" "$c")"
  m="$(run "http://127.0.0.1:$mport/v1/sbom" "$c")"
  printf '%6s %12s %12s %12s %12s %10s\n' "$c" "$a" "$n" "$f" "$m" \
    "$(awk -v a="$a" -v f="$f" 'BEGIN{if (f > 0) printf "%.0f%%", 100 * a / f}')"
done
curl -sS "http://127.0.0.1:$cport/metrics" | grep -E '^sbomd_result_cache_(hits|misses)_total'
