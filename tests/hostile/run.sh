#!/usr/bin/env bash
# run.sh BUILD_DIR - the hostile-input suite against one live server: every
# file make-inputs.py writes is POSTed and must get its status as
# problem+json; then raw-socket cases (request smuggling shapes, a 1 GB
# declared body that never comes, wrong methods, path traversal); after all
# of them a valid request must still succeed and the server's RSS must be
# back near its baseline. Ends with "hostile: N passed, N failed".
set -u
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
bin="${1:-$root/build/release}/sbomd"
shared="${SB_SHARED:-$root/../shared}"
work="$(mktemp -d)"
pass=0 fail=0
ok()  { pass=$((pass + 1)); }
# to stderr: a check whose command is redirected (jq ... >/dev/null) redirects this too
bad() { fail=$((fail + 1)); echo "  FAIL $*" >&2; }
trap 'kill $pid 2>/dev/null; rm -rf "$work"' EXIT
/usr/bin/python3 "$here/make-inputs.py" "$work/in"
"$bin" --listen 127.0.0.1 --port 0 --quiet > /dev/null 2> "$work/log" &
pid=$!
for _ in $(seq 100); do
  port="$(grep -o '"detail":"http://127.0.0.1:[0-9]*' "$work/log" 2>/dev/null | grep -o '[0-9]*$' | head -1)"
  [ -n "$port" ] && break; sleep 0.1
done
base="http://127.0.0.1:$port"
good="$shared/fixtures/pixi/pixi-examples-pypi-source-deps/pixi.lock"
curl -sS -o /dev/null --data-binary @"$good" "$base/v1/sbom"
rss0="$(awk '/VmRSS/{print $2}' /proc/$pid/status)"
for f in "$work"/in/*; do
  name="$(basename "$f")"; want="${name%%-*}"
  kind=""
  case "$name" in
    *.pixi.lock) kind=pixi.lock ;; *.uv.lock) kind=uv.lock ;; *.poetry.lock) kind=poetry.lock ;;
    *.pdm.lock) kind=pdm.lock ;; *.pylock.toml) kind=pylock.toml ;; *.requirements.txt) kind=requirements.txt ;;
  esac
  res="$(curl -sS -o "$work/p.json" -w '%{http_code} %{content_type}' --data-binary @"$f" "$base/v1/sbom${kind:+?kind=$kind}")"
  if [ "$res" = "$want application/problem+json" ] && jq -e ".status == $want and (.detail|length > 0)" "$work/p.json" >/dev/null; then ok
  else bad "$name: got $res $(head -c 200 "$work/p.json")"; fi
done
# raw HTTP: each case sends bytes, the first status line must be the expected one
while IFS='|' read -r want label req; do
  got="$(/usr/bin/python3 - "$port" "$req" <<'PY'
import socket, sys
port, req = int(sys.argv[1]), sys.argv[2].encode().decode("unicode_escape").encode("latin-1")
s = socket.create_connection(("127.0.0.1", port))
s.settimeout(10)
s.sendall(req)
try:
    print(s.recv(200).split(b"\r\n")[0].decode())
except Exception as e:
    print("no answer: %s" % e)
PY
)"
  case "$got" in "HTTP/1.1 $want"*) ok ;; *) bad "$label: $got" ;; esac
done <<'EOF2'
400|two Content-Length headers|POST /v1/sbom HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\nhello
400|Content-Length with Transfer-Encoding|POST /v1/sbom HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n
413|1 GB declared, short body|POST /v1/sbom HTTP/1.1\r\nHost: x\r\nContent-Length: 1073741824\r\n\r\nshort
405|PUT on /v1/sbom|PUT /v1/sbom HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n
405|GET on /v1/sbom|GET /v1/sbom HTTP/1.1\r\nHost: x\r\n\r\n
405|DELETE on /healthz|DELETE /healthz HTTP/1.1\r\nHost: x\r\n\r\n
404|path traversal|GET /../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n
404|encoded path traversal|GET /v1/%2e%2e/%2e%2e/etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n
EOF2
# path traversal in query parameters: only ever a name, never a file read
res="$(curl -sS -o "$work/t.json" -w '%{http_code}' --data-binary @"$good" "$base/v1/sbom?filename=../../../../etc/passwd")"
if [ "$res" = 200 ] && ! grep -q 'root:x:0' "$work/t.json" && jq -e '[.metadata.properties[] | select(.name=="pixi:lockfile") | .value] == ["passwd"]' "$work/t.json" >/dev/null; then ok; else bad "filename=../../etc/passwd: $res"; fi
res="$(curl -sS -o "$work/t.json" -w '%{http_code}' --data-binary @"$good" "$base/v1/sbom?kind=../../etc/passwd")"
[ "$res" = 415 ] && ok || bad "kind=../../etc/passwd: $res"
res="$(curl -sS -o "$work/t.json" -w '%{http_code}' --data-binary @"$good" "$base/v1/sbom?environment=../../etc&platform=%00")"
[ "$res" = 422 ] && ok || bad "environment=../../etc: $res"
# still serving, and memory back near where it started
res="$(curl -sS -o /dev/null -w '%{http_code}' --data-binary @"$good" "$base/v1/sbom")"
[ "$res" = 200 ] && ok || bad "a valid request after the hostile ones: $res"
sleep 0.5
rss1="$(awk '/VmRSS/{print $2}' /proc/$pid/status)"
if [ "$rss1" -lt $((rss0 + 32768)) ]; then ok; echo "hostile: RSS ${rss0} kB before, ${rss1} kB after"; else bad "RSS grew from $rss0 kB to $rss1 kB"; fi
kill -0 "$pid" && ok || bad "the server died"
echo "hostile: $pass passed, $fail failed"
[ "$fail" = 0 ]
