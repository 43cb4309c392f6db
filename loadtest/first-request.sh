#!/usr/bin/env bash
# first-request.sh [BUILD_DIR] [FILE...] - the first request's time: a request's
# whole time for a large pixi.lock (result cache off, so each is read and
# written afresh; the first one after start and the median of the next six),
# against the floor: a bare single-thread libyaml event scan of the same
# bytes (bench -F, median of 7). Target: <= 0.75x (targets.sh: 0.5x for a
# real pixi.lock, the floor on two cores). Default inputs: the
# largest pixi.lock fixture (real, 2.5 MB) and gen-lockfile 7500 (3.5 MB).
# Figures only; never fails on a duration.
set -u
root="$(cd "$(dirname "$0")/.." && pwd)"
b="${1:-$root/build/release}"
shift $(($# ? 1 : 0))
shared="${SB_SHARED:-$root/../shared}"
work="$(mktemp -d)"
pid=""
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; rm -rf "$work"' EXIT
files=("$@")
if [ ${#files[@]} = 0 ]; then
  "$root/loadtest/gen-lockfile" 7500 > "$work/synthetic-7500.pixi.lock"
  files=("$(ls -S "$shared"/fixtures/pixi/*/pixi.lock | head -1)" "$work/synthetic-7500.pixi.lock")
fi
printf '%-44s %10s %10s %10s %8s %8s\n' input bytes 'scan ms' 'first ms' 'median' 'x scan'
for f in "${files[@]}"; do
  floor="$("$b/bench" -F -r 7 "$f")" || continue
  "$b/sbomd" --listen 127.0.0.1 --port 0 --quiet --result-cache-size 0 2> "$work/log" &
  pid=$!; port=""
  for _ in $(seq 100); do port="$(grep -o '127.0.0.1:[0-9]*' "$work/log" | head -1 | cut -d: -f2)"; [ -n "$port" ] && break; sleep 0.1; done
  ts=()
  for i in 1 2 3 4 5 6 7; do
    ts+=("$(curl -s -o /dev/null -w '%{time_total}' --data-binary @"$f" "http://127.0.0.1:$port/v1/sbom?filename=pixi.lock")")
  done
  kill $pid; wait $pid 2>/dev/null; pid=""
  first_ms="$(awk -v t="${ts[0]}" 'BEGIN{printf "%.1f", t*1000}')"
  med_ms="$(printf '%s\n' "${ts[@]:1}" | sort -n | awk '{a[NR]=$1} END{printf "%.1f", (a[3]+a[4])/2*1000}')"
  ratio="$(awk -v m="$med_ms" -v f="$floor" 'BEGIN{printf "%.2f", m/f}')"
  printf '%-44s %10s %10.1f %10s %8s %7sx\n' "$(basename "$(dirname "$f")")/$(basename "$f")" "$(stat -c %s "$f")" "$floor" "$first_ms" "$med_ms" "$ratio"
done
echo "target: end to end <= 0.75x the single-thread libyaml scan, 0.5x a real one (x scan: the median request)"
