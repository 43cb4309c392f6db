# lib.sh - what the shell suites share; source it after setting $here:
#   here="$(cd "$(dirname "$0")" && pwd)"; . "$here/../lib.sh"
# Gives root, bin (BUILD_DIR/sbomd from $1), shared, work (removed at exit,
# with every server started through sb_start), the pass/fail tally (ok, bad,
# check) and sb_start. FAIL lines go to stderr: a check whose command is
# redirected (jq ... >/dev/null) redirects its own stdout too.
set -u
root="$(cd "$here/../.." && pwd)"
bin="${1:-$root/build/release}/sbomd"
shared="${SB_SHARED:-$root/../shared}"
validate="$shared/tools/validate-sbom"
work="$(mktemp -d)"
pass=0 fail=0 pids=""
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "  FAIL $*" >&2; }
check() { local name="$1"; shift; if "$@"; then ok; else bad "$name"; fi; }
trap 'for p in $pids; do kill $p 2>/dev/null; done; rm -rf "$work"' EXIT

# sb_start LOG ARGS... - sbomd on a free loopback port (under $SB_WRAP, e.g.
# valgrind, when set); sets pid, port and base (http or https, as it logs).
sb_start() {
  local log="$1"; shift
  rm -f "$log" # a reused log could show the last server's port before this one's shell truncates it
  ${SB_WRAP:-} "$bin" --listen 127.0.0.1 --port 0 "$@" 2> "$log" &
  pid=$!; pids="$pids $pid"; port=""
  for _ in $(seq 1 300); do
    port="$(grep -o '"detail":"https\?://127.0.0.1:[0-9]*' "$log" 2>/dev/null | grep -o '[0-9]*$' | head -1)"
    [ -n "$port" ] && break; sleep 0.1
  done
  base="http://127.0.0.1:$port"
  grep -q '"detail":"https://' "$log" 2>/dev/null && base="https://127.0.0.1:$port"
  [ -n "$port" ] || { echo "sbomd did not start:" >&2; cat "$log" >&2; }
}

# golden NAME FILE - FILE is byte for byte tests/golden/reports/NAME, the
# answer a reviewed run gave (SB_GOLDEN_UPDATE=1 writes it instead: the way
# tests/golden/update.sh regenerates the goldens the server alone can make,
# e.g. the vulnerabilities report against the fake OSV, the diff of two
# lockfiles).
golden() {
  local want="$root/tests/golden/reports/$1"
  if [ "${SB_GOLDEN_UPDATE:-}" = 1 ]; then cp "$2" "$want"; ok; return; fi
  if cmp -s "$want" "$2"; then ok; else bad "golden $1 differs: diff $want $2"; diff "$want" "$2" | head -5 >&2; fi
}

# sb_done NAME - the closing line and the exit status
sb_done() {
  echo "$1: $pass passed, $fail failed"
  [ "$fail" = 0 ]
}
