#!/usr/bin/env bash
# run.sh BUILD_DIR - lint openapi/openapi.yaml with @redocly/cli, then run the
# contract test against two fresh servers (one limited to one request in
# flight, for the 503). npm packages are installed here from package-lock.json.
# Ends with "N passed, N failed".
set -u
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
bin="${1:-$root/build/release}/sbomd"
shared="${SB_SHARED:-$root/../shared}"
work="$(mktemp -d)"
pass=0 fail=0
p3=
trap 'kill $p1 $p2 $p3 2>/dev/null; rm -rf "$work"' EXIT
if [ ! -d "$here/node_modules/@redocly" ]; then
  (cd "$here" && npm ci --no-audit --no-fund --loglevel=error) > "$work/npm.log" 2>&1 || { cat "$work/npm.log"; echo "0 passed, 1 failed"; exit 1; }
fi
if (cd "$here" && npx --no-install redocly lint --format=summary "$root/openapi/openapi.yaml") > "$work/lint.txt" 2>&1; then
  pass=$((pass + 1)); echo "contract: redocly lint: $(grep -E 'valid|warning' "$work/lint.txt" | tr '\n' ' ')"
else
  fail=$((fail + 1)); cat "$work/lint.txt"
fi
start() { # start LOG ARGS... -> prints the base URL
  local log="$1"; shift
  "$bin" --listen 127.0.0.1 --port 0 --quiet "$@" > /dev/null 2> "$log" &
  echo $! > "$log.pid"
  for _ in $(seq 100); do
    port="$(grep -o '"detail":"http://127.0.0.1:[0-9]*' "$log" 2>/dev/null | grep -o '[0-9]*$' | head -1)"
    [ -n "$port" ] && { echo "http://127.0.0.1:$port"; return; }
    sleep 0.1
  done
}
b1="$(start "$work/a.log")"; p1="$(cat "$work/a.log.pid")"
b2="$(start "$work/b.log" --max-requests 1)"; p2="$(cat "$work/b.log.pid")"
printf 'contract-token\n' > "$work/tokens"
b3="$(start "$work/c.log" --tokens-file "$work/tokens")"; p3="$(cat "$work/c.log.pid")"
node "$here/contract.mjs" "$b1" "$b2" "$shared" "$b3" > "$work/contract.txt" 2>&1
cat "$work/contract.txt" | grep -v '^contract: [0-9]* passed' || true
line="$(grep -o 'contract: [0-9]* passed, [0-9]* failed' "$work/contract.txt")"
if [ -n "$line" ]; then
  set -- $line; pass=$((pass + $2)); fail=$((fail + $4))
else
  fail=$((fail + 1))
fi
echo "contract: $pass passed, $fail failed"
[ "$fail" = 0 ]
