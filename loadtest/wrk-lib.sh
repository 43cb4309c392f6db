# wrk-lib.sh - sourced by the wrk load tests (wrk.sh, repeat.sh): the build
# and fixture paths, a work directory removed on exit with every server
# started, wrk present, the HTTP floor (loadtest/floor.c) built, the
# reference lockfile (the largest pixi.lock fixture), and:
#   start_sbomd NAME ARGS...  an sbomd on a free loopback port -> $pid $port
#                             (its log in $work/NAME.log)
#   rps FILE                  Requests/sec of a wrk report
root="$(cd "$(dirname "$0")/.." && pwd)"
b="${1:-$root/build/release}"
shared="${SB_SHARED:-$root/../shared}"
dur="${DUR:-5}"
work="$(mktemp -d)"
pids=""
trap 'for p in $pids; do kill $p 2>/dev/null; done; rm -rf "$work"' EXIT
command -v wrk > /dev/null || { echo "wrk not installed (apt-get install wrk)"; exit 1; }
cc -O2 -o "$work/floor" "$root/loadtest/floor.c" $(pkg-config --cflags --libs libmicrohttpd) || exit 1
ref="$(ls -S "$shared"/fixtures/pixi/*/pixi.lock | head -1)"

start_sbomd() {
  local name="$1"; shift
  "$b/sbomd" --listen 127.0.0.1 --port 0 --quiet --max-requests 100000 --max-connections 4096 "$@" 2> "$work/$name.log" &
  pid=$!; pids="$pids $pid"; port=""
  for _ in $(seq 100); do port="$(grep -o '127.0.0.1:[0-9]*' "$work/$name.log" | head -1 | cut -d: -f2)"; [ -n "$port" ] && break; sleep 0.1; done
}
rps() { awk '/^Requests\/sec/{print $2}' "$1"; }
