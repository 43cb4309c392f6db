#!/usr/bin/env bash
# lists.sh [BUILD_DIR] [SCALES] - figures, never a pass/fail: the inputs of
# tests/hostile/make-lists.py (one list of N items in each reader that once
# joined lists by re-printing them) at N = 8,000 x each scale (default
# "1 2 4"), through sbomgen: input size, peak RSS (VmHWM, kB) and CPU
# seconds per input. Linear readers keep both ratios near the scale ratio.
set -u
root="$(cd "$(dirname "$0")/.." && pwd)"
b="${1:-$root/build/release}"
scales="${2:-1 2 4}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
printf '%-22s %6s %10s %12s %8s\n' input N bytes peak_kB cpu_s
for sc in $scales; do
  n=$((8000 * sc))
  python3 "$root/tests/hostile/make-lists.py" "$work/$sc" "$n"
  for f in "$work/$sc"/*; do
    /usr/bin/time -f '%M %U %S' -o "$work/t" "$b/sbomgen" -t 1 "$f" > /dev/null 2> "$work/err" || true
    read -r kb u s < "$work/t"
    printf '%-22s %6d %10d %12d %8.2f\n' "$(basename "$f")" "$n" "$(stat -c %s "$f")" "$kb" "$(echo "$u + $s" | bc)"
  done
done
