#!/usr/bin/env bash
# run.sh BUILD_DIR - the page's browser test: sbomd on loopback, Debian's
# headless Chromium driven by playwright-core (tests/browser/page.mjs).
# The screenshot is kept in BUILD_DIR/browser/page.png.
set -u
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
b="${1:-$root/build/release}"
shared="${SB_SHARED:-$root/../shared}"
work="$(mktemp -d)"
trap 'kill $pid $apid 2>/dev/null; rm -rf "$work"' EXIT
if [ ! -x "${CHROMIUM:-/usr/bin/chromium}" ]; then echo "browser: chromium is not installed (scripts/install-deps --with-browser)"; echo "0 passed, 1 failed"; exit 1; fi
if [ ! -d "$here/node_modules/playwright-core" ]; then
  (cd "$here" && npm ci --no-audit --no-fund --loglevel=error) > "$work/npm.log" 2>&1 || { cat "$work/npm.log"; echo "0 passed, 1 failed"; exit 1; }
fi
"$b/sbomd" --listen 127.0.0.1 --port 0 --quiet 2> "$work/log" &
pid=$!
for _ in $(seq 100); do
  port="$(grep -o '"detail":"http://127.0.0.1:[0-9]*' "$work/log" 2>/dev/null | grep -o '[0-9]*$' | head -1)"
  [ -n "$port" ] && break; sleep 0.1
done
# a second server that asks for a token: the page asks for it before the formats
printf 'browser-token\n' > "$work/tokens"
"$b/sbomd" --listen 127.0.0.1 --port 0 --quiet --tokens-file "$work/tokens" 2> "$work/alog" &
apid=$!
for _ in $(seq 100); do
  aport="$(grep -o '"detail":"http://127.0.0.1:[0-9]*' "$work/alog" 2>/dev/null | grep -o '[0-9]*$' | head -1)"
  [ -n "$aport" ] && break; sleep 0.1
done
timeout 180 node "$here/page.mjs" "http://127.0.0.1:$port" "$shared" "$b/browser" "http://127.0.0.1:$aport" browser-token; st=$?
[ "$st" = 124 ] && echo "browser: timed out" && echo "0 passed, 1 failed"
exit $st
