#!/usr/bin/env bash
# js-bound.sh [BUILD_DIR] [N...] - the resource bound for JavaScript lockfiles:
# for each kind (package-lock.json v3, pnpm-lock.yaml 9.0, yarn.lock classic,
# bun.lock; JS_BOUND_KINDS picks some)
# and each N (default 10000 100000), a synthetic lockfile from gen-jslock is
# turned into CycloneDX 1.6 by sbomgen (the server's core path: read, select,
# write); prints input bytes, peak RSS (VmHWM via GNU time), wall and CPU
# (user + system) time, and
# peak RSS against the bound 2 x input + 16 MiB. Figures only; never fails on
# a duration.
set -u
root="$(cd "$(dirname "$0")/.." && pwd)"
b="${1:-$root/build/release}"; shift || true
sizes="${*:-10000 100000}"
work="$root/build/loadtest-js"; mkdir -p "$work"
printf '%-6s %7s %11s %10s %8s %8s %11s %s\n' kind N input_bytes rss_kib wall_s cpu_s bound_kib verdict
for kind in ${JS_BOUND_KINDS:-npm pnpm yarn bun}; do
  for n in $sizes; do
    f="$work/$kind-$n.lock"
    [ -s "$f" ] || "$root/loadtest/gen-jslock" "$kind" "$n" > "$f"
    bytes=$(stat -c %s "$f")
    out=$( { /usr/bin/time -f '%M %e %U %S' "$b/sbomgen" -t 1700000000 -f cyclonedx-1.6 "$f" > "$work/out.json"; } 2>&1 | tail -1)
    read -r rss wall usr sys <<< "$out"
    cpu=$(awk -v u="$usr" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
    comps=$(jq '.components | length' "$work/out.json" 2>/dev/null || echo ?)
    bound=$(( (2 * bytes + 16 * 1024 * 1024) / 1024 ))
    verdict=within; [ "$rss" -gt "$bound" ] && verdict=OVER
    printf '%-6s %7s %11s %10s %8s %8s %11s %s (%s components)\n' "$kind" "$n" "$bytes" "$rss" "$wall" "$cpu" "$bound" "$verdict" "$comps"
  done
done
