#!/usr/bin/env bash
# bounds.sh [BUILD_DIR] [REQUEST_TIMEOUT] [NAME:PATH...] - the issue 19 inputs
# for the Python readers (tests/hostile/make-bounds.py), each POSTed once to a
# fresh server (NAME:PATH pairs pick inputs and endpoints, e.g.
# req-490k.requirements.txt:/v1/sbom; default: each input once):
# prints the status, the server's CPU seconds for the request (utime+stime
# from /proc/PID/stat), its peak RSS (VmHWM), its RSS just after and 10 s
# after. A benchmark: prints figures, never fails on a duration. Bounded:
# one request per input, each cut by the server's --request-timeout (default 120 s)
# and by curl at that plus 60 s.
set -u
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="${1:-$root/build/release}/sbomd"
tmo="${2:-120}"
shift $(($# < 2 ? $# : 2))
specs=("$@")
[ ${#specs[@]} -gt 0 ] || specs=(req-100k.requirements.txt:/v1/report/packages req-490k.requirements.txt:/v1/report/packages
                                 big.uv.lock:/v1/sbom samename.uv.lock:/v1/sbom root150k.uv.lock:/v1/sbom)
work="$(mktemp -d)"
pid=
trap 'kill $pid 2>/dev/null; rm -rf "$work"' EXIT
/usr/bin/python3 "$root/tests/hostile/make-bounds.py" "$work/in" 1 $(printf '%s\n' "${specs[@]}" | cut -d: -f1 | sort -u)
tick="$(getconf CLK_TCK)"
cpu() { awk -v t="$tick" '{printf "%.2f", ($14 + $15) / t}' "/proc/$1/stat"; }
kb() { awk -v k="$2" '$1 == k":" {print $2}' "/proc/$1/status"; }
printf '%-28s %-20s %9s %6s %8s %10s %10s %10s %10s\n' input path bytes status cpu_s rss0_kB peak_kB after_kB after10s_kB
for spec in "${specs[@]}"; do
  name="${spec%%:*}" path="${spec#*:}"
  f="$work/in/$name"
  : > "$work/log"
  "$bin" --listen 127.0.0.1 --port 0 --quiet --request-timeout "$tmo" > /dev/null 2> "$work/log" &
  pid=$!
  port=
  for _ in $(seq 100); do
    port="$(grep -o '"detail":"http://127.0.0.1:[0-9]*' "$work/log" 2>/dev/null | grep -o '[0-9]*$' | head -1)"
    [ -n "$port" ] && break; sleep 0.1
  done
  rss0="$(kb $pid VmRSS)"; c0="$(cpu $pid)"
  st="$(curl -sS -o /dev/null -w '%{http_code}' --max-time $((tmo + 60)) --data-binary @"$f" "http://127.0.0.1:$port$path?filename=$name")"
  c1="$(cpu $pid)"; peak="$(kb $pid VmHWM)"; after="$(kb $pid VmRSS)"
  sleep 10
  after10="$(kb $pid VmRSS)"
  printf '%-28s %-20s %9s %6s %8.2f %10s %10s %10s %10s\n' "$name" "$path" "$(stat -c %s "$f")" "$st" \
    "$(awk -v a="$c0" -v b="$c1" 'BEGIN{print b - a}')" "$rss0" "$peak" "$after" "$after10"
  kill "$pid"; wait "$pid" 2>/dev/null; pid=
done
