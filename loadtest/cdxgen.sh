#!/usr/bin/env bash
# cdxgen.sh [BUILD_DIR] [N] - side by side with cdxgen's server mode, the
# alternative a user would pick (spec/peers.md), on the same machine in the
# same run. cdxgen reads a server-side directory, not uploaded bytes, so each
# input is written to its own directory first and cdxgen is handed the path;
# sbomd gets the same bytes POSTed. Offline on both sides: cdxgen with
# FETCH_LICENSE=false and --no-install-deps, sbomd without --lookups.
# Prints, per input, the median client wall time of N requests (default 5),
# output size and component count for each, their ratio, and each server's
# peak RSS (VmHWM) at the end. Figures only; never fails on a duration.
# cdxgen is installed from npm into build/cdxgen on first use (CDXGEN_VERSION).
set -u
root="$(cd "$(dirname "$0")/.." && pwd)"
b="${1:-$root/build/release}"
n="${2:-5}"
shared="${SB_SHARED:-$root/../shared}"
ver="${CDXGEN_VERSION:-12.8.4}"
cdx_dir="$root/build/cdxgen"
work="$(mktemp -d)"
pids=""
trap 'for p in $pids; do kill $p 2>/dev/null; done; rm -rf "$work"' EXIT

if [ ! -x "$cdx_dir/node_modules/.bin/cdxgen" ]; then
  mkdir -p "$cdx_dir"
  timeout 600 npm install --prefix "$cdx_dir" --no-audit --no-fund "@cyclonedx/cdxgen@$ver" > "$work/npm.log" 2>&1 ||
    { echo "cdxgen: npm install failed"; tail -5 "$work/npm.log"; exit 1; }
fi
wait_port() { # $1 log file, $2 pattern with the port in group -> prints port
  for _ in $(seq 200); do
    p="$(grep -o "$2" "$1" | head -1 | grep -o '[0-9]*$')"; [ -n "$p" ] && { echo "$p"; return; }; sleep 0.1
  done
}
"$b/sbomd" --listen 127.0.0.1 --port 0 --quiet 2> "$work/sbomd.log" &
spid=$!; pids="$pids $spid"
sport="$(wait_port "$work/sbomd.log" '127.0.0.1:[0-9]*')"
cport=$((20000 + RANDOM % 20000))
CDXGEN_SERVER_ALLOWED_PATHS="$work/in" FETCH_LICENSE=false CDXGEN_DEBUG_MODE=none \
  "$cdx_dir/node_modules/.bin/cdxgen" --server --server-host 127.0.0.1 --server-port "$cport" --no-install-deps > "$work/cdxgen.log" 2>&1 &
cpid=$!; pids="$pids $cpid"
for _ in $(seq 300); do curl -sf "http://127.0.0.1:$cport/health" > /dev/null && break; sleep 0.1; done
cnode="$(pgrep -P "$cpid" node || echo "$cpid")" # npm's shim may sit between
[ -n "$sport" ] || { echo "sbomd did not start"; exit 1; }

inputs=()
add() { # name file lockfile-name cdxgen-type
  mkdir -p "$work/in/$1"; cp "$2" "$work/in/$1/$3"; inputs+=("$1 $3 $4")
}
add reference "$(ls -S "$shared"/fixtures/pixi/*/pixi.lock | head -1)" pixi.lock pixi
# cdxgen 12's pixi reader expects each package's name/version keys (pixi.lock
# v4/v5); on v6 it emits pkg:undefined purls, so a v5 fixture is compared too.
add pixi-v5 "$shared/fixtures/pixi/pixi-examples-ros2-nav2-rev-83715da/pixi.lock" pixi.lock pixi
add uv "$(ls -S "$shared"/fixtures/uv/*/uv.lock | head -1)" uv.lock python
# cdxgen will not read a uv.lock without its project file beside it
printf '[project]\nname = "project"\nversion = "0"\n' > "$work/in/uv/pyproject.toml"
add poetry "$(ls -S "$shared"/fixtures/poetry/*/poetry.lock | head -1)" poetry.lock python

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
count() { # components, and how many have no usable purl
  python3 -c 'import json,sys
try:
    c = json.load(open(sys.argv[1])).get("components", [])
    bad = sum(1 for x in c if "undefined" in x.get("purl", "undefined"))
    print(len(c) if not bad else "%d(%d bad)" % (len(c), bad))
except Exception: print("invalid")' "$1"; }
echo "machine: $(nproc) cores; sbomd $(git -C "$root" rev-parse --short HEAD), cdxgen $ver (node $(node --version)); median of $n requests each"
printf '%-16s %9s %10s %13s | %9s %10s %13s | %7s\n' input "sbomd ms" bytes comps "cdxgen ms" bytes comps ratio
for entry in "${inputs[@]}"; do
  set -- $entry; name=$1 file=$2 type=$3
  [ -s "$work/in/$name/$file" ] || continue
  st=(); ct=()
  for _ in $(seq "$n"); do
    st+=("$(curl -sS -o "$work/s.json" -w '%{time_total}' --data-binary @"$work/in/$name/$file" \
      "http://127.0.0.1:$sport/v1/sbom?format=cyclonedx-1.7&filename=$file")")
    ct+=("$(curl -sS -o "$work/c.json" -w '%{time_total}' -X POST -H 'Content-Type: application/json' \
      -d "{\"path\":\"$work/in/$name\",\"type\":\"$type\"}" "http://127.0.0.1:$cport/sbom")")
  done
  sm="$(printf '%s\n' "${st[@]}" | median)" cm="$(printf '%s\n' "${ct[@]}" | median)"
  printf '%-16s %9.1f %10s %13s | %9.1f %10s %13s | %6.1fx\n' "$name" "$(awk -v t="$sm" 'BEGIN{print t*1000}')" \
    "$(stat -c %s "$work/s.json")" "$(count "$work/s.json")" "$(awk -v t="$cm" 'BEGIN{print t*1000}')" \
    "$(stat -c %s "$work/c.json")" "$(count "$work/c.json")" "$(awk -v a="$sm" -v c="$cm" 'BEGIN{if (a > 0) print c / a}')"
done
echo "peak RSS (VmHWM): sbomd $(awk '/VmHWM/{print $2}' /proc/$spid/status) kB, cdxgen $(awk '/VmHWM/{print $2}' /proc/$cnode/status 2> /dev/null) kB"
