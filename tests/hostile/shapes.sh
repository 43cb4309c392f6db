#!/usr/bin/env bash
# shapes.sh BUILD_DIR SCALE [BUDGET] - every upload shape of issue 43
# (make-shapes.py at SCALE, make-lists.py at 8,000 x SCALE items), each
# posted as four concurrent copies to a fresh sbomd with --memory-budget
# BUDGET (default 300Mi). One line per shape:
#   <shape> <input bytes> <statuses> <peak kB over the start> <seconds>
# where the peak is VmHWM (the kernel's high-water mark) less VmRSS at start.
# Figures only: tests/hostile/run.sh asserts on them, loadtest/shapes.sh
# compares scales.
set -u
here="$(cd "$(dirname "$0")" && pwd)"
bin="$1/sbomd" scale="$2" budget="${3:-300Mi}"
work="$(mktemp -d)"
spid=
trap 'kill $spid 2>/dev/null; rm -rf "$work"' EXIT
python3 "$here/make-shapes.py" "$work/s" "$scale"
python3 "$here/make-lists.py" "$work/l" $((8000 * scale))
sargs=() # extra sbomd options for the shapes that set them (the loops block)
one() { # one NAME BYTES CURL-ARGS... - four at once against a fresh server
  local name="$1" bytes="$2"; shift 2
  # a log of its own: a reused one could still show the last server's port
  # to the grep below before this server's shell truncated it (a 000 answer)
  rm -f "$work/log"
  "$bin" --listen 127.0.0.1 --port 0 --quiet --memory-budget "$budget" --max-body 32Mi "${sargs[@]}" > /dev/null 2> "$work/log" &
  spid=$!
  local port=
  for _ in $(seq 100); do
    port="$(grep -o '"detail":"http://127.0.0.1:[0-9]*' "$work/log" 2>/dev/null | grep -o '[0-9]*$' | head -1)"
    [ -n "$port" ] && break; sleep 0.1
  done
  local rss0 t0 t1 codes="" k
  rss0="$(awk '/VmRSS/{print $2}' /proc/$spid/status)"
  t0="$(date +%s.%N)"
  for k in 1 2 3 4; do
    curl -sS -o /dev/null -w '%{http_code}\n' --max-time 120 "$@" "http://127.0.0.1:$port${url}" > "$work/c$k" 2>/dev/null &
  done
  wait $(jobs -p | grep -v "^$spid$") 2>/dev/null
  t1="$(date +%s.%N)"
  codes="$(cat "$work"/c1 "$work"/c2 "$work"/c3 "$work"/c4 | paste -sd,)"
  local hwm; hwm="$(awk '/VmHWM/{print $2}' /proc/$spid/status)"
  kill "$spid"; wait "$spid" 2>/dev/null; spid=
  printf '%s %s %s %s %.2f\n' "$name" "$bytes" "$codes" $((hwm - rss0)) "$(echo "$t1 - $t0" | bc)"
}
size() { stat -c %s "$@" | awk '{s += $1} END {print s}'; }
if [ -z "${SB_SHAPES_ONLY:-}" ]; then
for f in "$work"/l/* "$work"/s/*.requirements.txt "$work"/s/*.package-lock.json "$work"/s/dense.cdx.json \
  "$work"/s/dense.spdx.json; do
  n="$(basename "$f")"
  url="/v1/sbom?filename=${n#*.}" one "$n" "$(size "$f")" --data-binary @"$f"
done
f="$work/s/docs.pixi.lock"
url="/v1/sbom?all-environments=true&all-platforms=true" one docs.pixi.lock "$(size "$f")" --data-binary @"$f"
url="/v1/diff" one diff.requirements.txt "$(size "$work"/s/diff-*.txt)" -F "base=@$work/s/diff-base.txt;filename=requirements.txt" -F "head=@$work/s/diff-head.txt;filename=requirements.txt"
parts=()
for f in "$work"/s/part-*.cdx.json; do parts+=(-F "sbom=@$f"); done
url="/v1/sbom" one merge16.cdx.json "$(size "$work"/s/part-*.cdx.json)" "${parts[@]}"
fi
# ---- adm: priced queries, requests that stop each other (also in the
# 4x pass: SB_SHAPES_ONLY="loops adm") ----
if [ -z "${SB_SHAPES_ONLY:-}" ] || [[ " $SB_SHAPES_ONLY " == *" adm "* ]]; then
# 7,000 x SCALE allow-license terms (28 KB of query at 1x) beside a 27-byte
# body: the policy and its key are priced and built in linear memory
terms="$(python3 -c "print(','.join(['MIT'] * (7000 * $scale)))")"
url="/v1/sbom?filename=requirements.txt&allow-license=$terms" one allow7000.requirements.txt "$(size "$work"/s/tiny-body.txt)" --data-binary @"$work/s/tiny-body.txt"
# four requests each needing about half the budget, on four threads so all
# four build at once: one is served
sargs=(--threads 4)
url="/v1/sbom?filename=cdx.json" one half.cdx.json "$(size "$work"/s/half.cdx.json)" --data-binary @"$work/s/half.cdx.json"
sargs=()
# ---- end adm ----
fi
# ---- loops: every loop an input or a query sets stays inside the deadline.
# Under --request-timeout 5; SB_SHAPES_ONLY=loops runs only these (run.sh's
# 4x pass). Names start with "loops-": run.sh holds them to the deadline. ----
sargs=(--request-timeout 5)
L="$work/s/loops"
f="$L/bunpath.bun.lock"
url="/v1/sbom?filename=bun.lock" one loops-bunpath.bun.lock "$(size "$f")" --data-binary @"$f"
f="$L/glob.package-lock.json"
url="/v1/sbom?filename=package-lock.json&include=$(cat "$L/glob.pattern")" one loops-glob.package-lock.json "$(size "$f")" --data-binary @"$f"
url="/v1/sbom" one loops-features.pixi.toml "$(size "$L"/features.*)" -F "lockfile=@$L/features.pixi.lock;filename=pixi.lock" -F "manifest=@$L/features.pixi.toml;filename=pixi.toml"
f="$L/copies.package-lock.json"
url="/v1/sbom?filename=package-lock.json" one loops-copies.package-lock.json "$(size "$f")" --data-binary @"$f"
f="$L/chain.package-lock.json"
url="/v1/report/tree?filename=package-lock.json&output=text" one loops-chain.text "$(size "$f")" --data-binary @"$f"
url="/v1/report/tree?filename=package-lock.json&output=markdown" one loops-chain.md "$(size "$f")" --data-binary @"$f"
sargs=()
# ---- end of loops ----
