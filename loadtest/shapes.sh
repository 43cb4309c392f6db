#!/usr/bin/env bash
# shapes.sh [BUILD_DIR] [SCALES] [BUDGET] - figures, never a pass/fail: every
# upload shape of issue 43 (tests/hostile/shapes.sh) at each scale (default
# "1 2 4"), four concurrent copies against --memory-budget BUDGET (default
# 300Mi): statuses, peak RSS over the server's start (VmHWM, kB) and the
# seconds the four took, then per shape the ratio of the largest scale's time
# and peak to the smallest's (linear: near the scale ratio or below).
set -u
root="$(cd "$(dirname "$0")/.." && pwd)"
b="${1:-$root/build/release}" scales="${2:-1 2 4}" budget="${3:-300Mi}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
printf '%-26s %5s %10s %-19s %9s %7s\n' shape scale bytes statuses peak_kB secs
for sc in $scales; do
  "$root/tests/hostile/shapes.sh" "$b" "$sc" "$budget" > "$work/$sc"
  while read -r n bytes codes kb s; do
    printf '%-26s %5s %10s %-19s %9s %7s\n' "$n" "$sc" "$bytes" "$codes" "$kb" "$s"
  done < "$work/$sc"
done
first="${scales%% *}" last="${scales##* }"
echo "ratios, scale $last over scale $first (x$((last / first)) input):"
join <(sort "$work/$first") <(sort "$work/$last") |
  awk '{ printf "  %-26s time x%.1f, peak x%.1f\n", $1, ($9 > 0.01 ? $9 : 0.01) / ($5 > 0.01 ? $5 : 0.01), $8 / ($4 > 0 ? $4 : 1) }'
