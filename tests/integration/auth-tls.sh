#!/usr/bin/env bash
# auth-tls.sh BUILD_DIR - bearer tokens (--tokens-file, SIGHUP reload, open
# paths, 401 + WWW-Authenticate as problem+json) and HTTPS (--tls-cert /
# --tls-key over libmicrohttpd's GnuTLS, reloaded on SIGHUP) against live servers on loopback;
# then a drain: requests in flight at SIGTERM all complete. Ends with
# "auth-tls: N passed, N failed".
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../lib.sh"
good="$shared/fixtures/pixi/pixi-examples-pypi-source-deps/pixi.lock"

start() { sb_start "$@"; } # the scheme follows the log line

# --- bearer tokens -------------------------------------------------------------
printf '# CI tokens\n  alpha-token-1  \n\nbeta-token-2\n' > "$work/tokens"
start "$work/a.log" --tokens-file "$work/tokens"
base="http://127.0.0.1:$port"
res="$(curl -sS -D "$work/h1" -o "$work/p1.json" -w '%{http_code} %{content_type}' --data-binary @"$good" "$base/v1/sbom")"
check "no token: 401 problem+json ($res)" [ "$res" = "401 application/problem+json" ]
check "no token: WWW-Authenticate: Bearer" grep -qi '^www-authenticate: Bearer realm="sbomd"' "$work/h1"
check "no token: the body says what is missing" jq -e '.status == 401 and (.detail | test("Bearer"))' "$work/p1.json" >/dev/null
res="$(curl -sS -D "$work/h2" -o "$work/p2.json" -w '%{http_code}' -H 'Authorization: Bearer wrong' --data-binary @"$good" "$base/v1/sbom")"
check "unknown token: 401 ($res)" [ "$res" = 401 ]
check "unknown token: error=invalid_token" grep -qi '^www-authenticate: .*error="invalid_token"' "$work/h2"
res="$(curl -sS -o /dev/null -w '%{http_code}' -H 'Authorization: Bearer alpha-token-1x' --data-binary @"$good" "$base/v1/sbom")"
check "a token with one byte more is refused ($res)" [ "$res" = 401 ]
res="$(curl -sS -o /dev/null -w '%{http_code}' -H 'Authorization: Basic YWxwaGE6eA==' --data-binary @"$good" "$base/v1/sbom")"
check "another scheme is refused ($res)" [ "$res" = 401 ]
res="$(curl -sS -o "$work/d.json" -w '%{http_code}' -H 'Authorization: Bearer alpha-token-1' --data-binary @"$good" "$base/v1/sbom")"
check "known token (trimmed in the file): 200 ($res)" [ "$res" = 200 ]
res="$(curl -sS -o /dev/null -w '%{http_code}' -H 'authorization: bearer beta-token-2' "$base/v1/formats")"
check "scheme and header name are case-insensitive ($res)" [ "$res" = 200 ]
res="$(curl -sS -D "$work/h3" -o "$work/p3.json" -w '%{http_code}' -H 'Authorization: Bearer alpha-token-1' -H 'Authorization: Bearer wrong' "$base/v1/formats")"
check "two Authorization headers (a good one first): 400, not a check of the first only ($res)" [ "$res" = 400 ]
check "two Authorization headers: the connection is closed" grep -qi '^connection: close' "$work/h3"
check "two Authorization headers: the body says why" jq -e '.detail | test("Authorization")' "$work/p3.json" >/dev/null
for path in / /healthz /readyz /metrics; do
  res="$(curl -sS -o /dev/null -w '%{http_code}' "$base$path")"
  check "$path is open by default ($res)" [ "$res" = 200 ]
done
res="$(curl -sS -o /dev/null -w '%{http_code}' "$base/v1/formats")"
check "/v1/formats needs a token ($res)" [ "$res" = 401 ]
check "sbomd_auth_failures_total counts the refusals" \
  sh -c "curl -sS '$base/metrics' | awk '/^sbomd_auth_failures_total/{exit !(\$2 >= 5)}'"
printf 'gamma-token-3\n' > "$work/tokens"
kill -HUP "$pid"; sleep 0.5
res="$(curl -sS -o /dev/null -w '%{http_code}' -H 'Authorization: Bearer alpha-token-1' "$base/v1/formats")"
check "after SIGHUP the old token is refused ($res)" [ "$res" = 401 ]
res="$(curl -sS -o /dev/null -w '%{http_code}' -H 'Authorization: Bearer gamma-token-3' "$base/v1/formats")"
check "after SIGHUP the new token is accepted ($res)" [ "$res" = 200 ]
check "the reload is logged" grep -q '"msg":"tokens reloaded","detail":"1 token(s) (SIGHUP)"' "$work/a.log"
chmod 000 "$work/tokens"; rm -f "$work/tokens"
kill -HUP "$pid"; sleep 0.5
res="$(curl -sS -o /dev/null -w '%{http_code}' -H 'Authorization: Bearer gamma-token-3' "$base/v1/formats")"
check "a failed reload keeps the previous tokens ($res)" [ "$res" = 200 ]
check "a failed reload is logged" grep -q 'tokens reload failed' "$work/a.log"
# a directory in the file's place, then an empty file: both fail the reload
# (at level error) and the previous token keeps working
mkdir "$work/tokens"; kill -HUP "$pid"; sleep 0.5
res="$(curl -sS -o /dev/null -w '%{http_code}' -H 'Authorization: Bearer gamma-token-3' "$base/v1/formats")"
check "tokens-file replaced by a directory: the previous tokens stay ($res)" [ "$res" = 200 ]
check "tokens-file replaced by a directory: logged at level error" \
  grep -q '"level":"error","msg":"tokens reload failed, keeping the previous set","detail":"[^"]*not a regular file' "$work/a.log"
rmdir "$work/tokens"; printf '# nothing but a comment\n\n' > "$work/tokens"; kill -HUP "$pid"; sleep 0.5
res="$(curl -sS -o /dev/null -w '%{http_code}' -H 'Authorization: Bearer gamma-token-3' "$base/v1/formats")"
check "an empty tokens-file on reload: the previous tokens stay ($res)" [ "$res" = 200 ]
check "an empty tokens-file on reload: logged at level error" \
  grep -q '"level":"error","msg":"tokens reload failed, keeping the previous set","detail":"[^"]*holds no token' "$work/a.log"
# no signal: the file replaced (renamed over, as a Secret volume update does)
# is noticed within a few seconds and reloaded
printf 'delta-token-4\n' > "$work/tokens.new"; mv "$work/tokens.new" "$work/tokens"
res=""
for _ in $(seq 1 50); do
  res="$(curl -sS -o /dev/null -w '%{http_code}' -H 'Authorization: Bearer delta-token-4' "$base/v1/formats")"
  [ "$res" = 200 ] && break; sleep 0.1
done
check "a replaced tokens-file is reloaded without SIGHUP ($res)" [ "$res" = 200 ]
res="$(curl -sS -o /dev/null -w '%{http_code}' -H 'Authorization: Bearer gamma-token-3' "$base/v1/formats")"
check "after the file-change reload the old token is refused ($res)" [ "$res" = 401 ]
check "the file-change reload is logged as such" grep -q '"msg":"tokens reloaded","detail":"1 token(s) (file changed)"' "$work/a.log"
check "no reload ever logged 0 tokens" sh -c "! grep -q '\"detail\":\"0 token' '$work/a.log'"
kill -TERM "$pid"; wait "$pid"; st=$?
check "the auth server exits 0 ($st)" [ "$st" = 0 ]
printf 'x\n' > "$work/t2"
start "$work/b.log" --tokens-file "$work/t2" --auth-open /healthz
res="$(curl -sS -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/metrics")"
check "--auth-open without /metrics closes it ($res)" [ "$res" = 401 ]
kill -TERM "$pid"; wait "$pid"
"$bin" --check-config --tokens-file "$work/missing" > "$work/cc.out" 2>&1; st=$?
check "a missing tokens-file is a config error (exit $st)" sh -c "[ $st = 2 ] && grep -q 'tokens-file' '$work/cc.out'"
printf '# no tokens yet\n' > "$work/empty-tokens"
"$bin" --check-config --tokens-file "$work/empty-tokens" > "$work/cc3.out" 2>&1; st=$?
check "an empty tokens-file is a config error under --check-config (exit $st)" sh -c "[ $st = 2 ] && grep -q 'holds no token' '$work/cc3.out'"
"$bin" --listen 127.0.0.1 --port 0 --tokens-file "$work/empty-tokens" > /dev/null 2> "$work/cc4.out"; st=$?
check "starting with an empty tokens-file exits 2 ($st)" sh -c "[ $st = 2 ] && grep -q 'holds no token' '$work/cc4.out'"

# --- listen addresses: IPv6, dual stack, a port in use ------------------------------
"$bin" --check-config --listen '[::1]' > /dev/null 2>&1; st=$?
check "--listen takes a bracketed IPv6 address (exit $st)" [ "$st" = 0 ]
"$bin" --check-config --listen '::1x' > "$work/cc5.out" 2>&1; st=$?
check "a bad address says IPv4 or IPv6 (exit $st)" sh -c "[ $st = 2 ] && grep -q 'not an IPv4 or IPv6 address' '$work/cc5.out'"
if python3 -c 'import socket; s=socket.socket(socket.AF_INET6); s.bind(("::1", 0))' 2>/dev/null; then
  ${SB_WRAP:-} "$bin" --listen '::' --port 0 2> "$work/v6.log" & v6pid=$!; pids="$pids $v6pid"; v6port=""
  for _ in $(seq 1 300); do
    v6port="$(grep -o '"detail":"http://\[::\]:[0-9]*' "$work/v6.log" 2>/dev/null | grep -o '[0-9]*$' | head -1)"
    [ -n "$v6port" ] && break; sleep 0.1
  done
  check "--listen :: logs http://[::]:PORT" [ -n "$v6port" ]
  res="$(curl -sS -g -o /dev/null -w '%{http_code}' "http://[::1]:$v6port/healthz")"
  check "dual stack: IPv6 loopback answers ($res)" [ "$res" = 200 ]
  res="$(curl -sS -o /dev/null -w '%{http_code}' "http://127.0.0.1:$v6port/healthz")"
  check "dual stack: IPv4 loopback answers too ($res)" [ "$res" = 200 ]
  "$bin" --listen '::1' --port "$v6port" > /dev/null 2> "$work/inuse.out"; st=$?
  check "a port in use names address, port and reason (exit $st)" \
    sh -c "[ $st != 0 ] && grep -q 'cannot listen on \[::1\] port $v6port: Address already in use' '$work/inuse.out'"
  check "and says how to choose another port: --port, SBOMD_PORT, PORT= make run" \
    sh -c "grep -q 'choose another port with --port or SBOMD_PORT, or PORT= with make run' '$work/inuse.out'"
  kill -TERM "$v6pid"; wait "$v6pid"
else
  # no IPv6 on this machine: the IPv4 port-in-use message still holds
  start "$work/p4.log"
  "$bin" --listen 127.0.0.1 --port "$port" > /dev/null 2> "$work/inuse.out"; st=$?
  check "a port in use names address, port and reason (exit $st)" \
    sh -c "[ $st != 0 ] && grep -q 'cannot listen on 127.0.0.1 port $port: Address already in use' '$work/inuse.out'"
  check "and says how to choose another port: --port, SBOMD_PORT, PORT= make run" \
    sh -c "grep -q 'choose another port with --port or SBOMD_PORT, or PORT= with make run' '$work/inuse.out'"
  kill -TERM "$pid"; wait "$pid"
fi

# --- TLS -----------------------------------------------------------------------
if openssl req -x509 -newkey rsa:2048 -nodes -keyout "$work/key.pem" -out "$work/cert.pem" -days 2 \
     -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 > "$work/openssl.log" 2>&1; then
  start "$work/tls.log" --tls-cert "$work/cert.pem" --tls-key "$work/key.pem"
  check "the TLS server says https" grep -q '"detail":"https://127.0.0.1:' "$work/tls.log"
  res="$(curl -sS --cacert "$work/cert.pem" -o "$work/tls.json" -w '%{http_code} %{content_type}' --data-binary @"$good" "https://127.0.0.1:$port/v1/sbom")"
  check "HTTPS POST: 200 ($res)" [ "$res" = "200 application/vnd.cyclonedx+json; version=1.6" ]
  check "HTTPS document equals the plain one but for serial/timestamp" \
    sh -c "jq -S 'del(.serialNumber, .metadata.timestamp)' '$work/tls.json' > '$work/a1' && jq -S 'del(.serialNumber, .metadata.timestamp)' '$work/d.json' > '$work/a2' && cmp -s '$work/a1' '$work/a2'"
  res="$(curl -sS -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/healthz" 2>/dev/null)"
  check "plain HTTP on the TLS port gets no answer ($res)" [ "$res" != 200 ]
  # SIGHUP reloads the certificate and key: a new daemon on the same socket
  served() { openssl s_client -connect "127.0.0.1:$port" -servername 127.0.0.1 < /dev/null 2>/dev/null |
             openssl x509 -noout -fingerprint -sha256 2>/dev/null; }
  fp_old="$(openssl x509 -noout -fingerprint -sha256 -in "$work/cert.pem")"
  check "before SIGHUP the first certificate is served" [ "$(served)" = "$fp_old" ]
  openssl req -x509 -newkey rsa:2048 -nodes -keyout "$work/key2.pem" -out "$work/cert2.pem" -days 2 \
    -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 > "$work/openssl2.log" 2>&1
  fp_new="$(openssl x509 -noout -fingerprint -sha256 -in "$work/cert2.pem")"
  # a slow upload in flight on the old certificate across the reload
  (sleep 2; cat "$good") | curl -sS --cacert "$work/cert.pem" -o "$work/slow.json" -w '%{http_code}' \
    --data-binary @- "https://127.0.0.1:$port/v1/sbom" > "$work/slow.code" 2>&1 & slowpid=$!
  sleep 0.5
  cp "$work/cert2.pem" "$work/cert.pem"; cp "$work/key2.pem" "$work/key.pem"
  kill -HUP "$pid"; sleep 0.5
  check "after SIGHUP the new certificate is served" [ "$(served)" = "$fp_new" ]
  check "the TLS reload is logged" grep -q '"msg":"TLS certificate reloaded"' "$work/tls.log"
  res="$(curl -sS --cacert "$work/cert2.pem" -o /dev/null -w '%{http_code}' "https://127.0.0.1:$port/healthz")"
  check "after SIGHUP a client trusting only the new certificate gets 200 ($res)" [ "$res" = 200 ]
  wait "$slowpid"
  check "an upload in flight across the reload completes on the old daemon ($(cat "$work/slow.code"))" \
    sh -c "[ \"\$(cat '$work/slow.code')\" = 200 ] && jq -e '.bomFormat == \"CycloneDX\"' '$work/slow.json' >/dev/null"
  # a key that does not match the certificate: the reload fails, the
  # previous certificate keeps serving
  cp "$work/key2.pem" "$work/key2.bak"
  openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$work/key.pem" > /dev/null 2>&1
  kill -HUP "$pid"; sleep 0.5
  check "a mismatched key: the reload fails at level error" \
    grep -q '"level":"error","msg":"TLS reload failed, keeping the previous certificate"' "$work/tls.log"
  check "a mismatched key: the previous certificate is still served" [ "$(served)" = "$fp_new" ]
  rm -f "$work/key.pem"; kill -HUP "$pid"; sleep 0.5
  res="$(curl -sS --cacert "$work/cert2.pem" -o /dev/null -w '%{http_code}' "https://127.0.0.1:$port/healthz")"
  check "a missing key: the previous certificate still answers ($res)" [ "$res" = 200 ]
  # no signal: certificate and key replaced on disk are picked up
  openssl req -x509 -newkey rsa:2048 -nodes -keyout "$work/key3.pem" -out "$work/cert3.pem" -days 2 \
    -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 > "$work/openssl3.log" 2>&1
  fp3="$(openssl x509 -noout -fingerprint -sha256 -in "$work/cert3.pem")"
  cp "$work/key3.pem" "$work/key.new"; mv "$work/key.new" "$work/key.pem"
  cp "$work/cert3.pem" "$work/cert.new"; mv "$work/cert.new" "$work/cert.pem"
  got=""
  for _ in $(seq 1 50); do got="$(served)"; [ "$got" = "$fp3" ] && break; sleep 0.1; done
  check "certificate and key replaced on disk are served without SIGHUP" [ "$got" = "$fp3" ]
  kill -TERM "$pid"; wait "$pid"; st=$?
  check "the TLS server exits 0 ($st)" [ "$st" = 0 ]
  "$bin" --check-config --tls-cert "$work/cert.pem" > "$work/cc2.out" 2>&1; st=$?
  check "tls-cert without tls-key is a config error (exit $st)" [ "$st" = 2 ]
else
  bad "openssl could not make a test certificate: $(tail -1 "$work/openssl.log")"
fi

# --- drain: every request in flight at SIGTERM completes ------------------------
big="$shared/fixtures/pixi/rerun--rev-c5e2c66/pixi.lock"
[ -f "$big" ] || big="$(ls -S "$shared"/fixtures/pixi/*/pixi.lock | head -1)"
start "$work/drain.log" --source-date-epoch 1700000000
base="http://127.0.0.1:$port"
curl -sS -o "$work/ref.json" --data-binary @"$big" "$base/v1/sbom"
n=8 cpids=""
for i in $(seq $n); do
  # a slow upload keeps each request in flight across the signal
  curl -sS --limit-rate 400k -o "$work/dr$i.json" -w '%{http_code}' --data-binary @"$big" "$base/v1/sbom" > "$work/dr$i.st" 2>&1 &
  cpids="$cpids $!"
done
sleep 1
inflight="$(curl -sS "$base/metrics" | awk '/^sbomd_in_flight/{print $2}')"
kill -TERM "$pid"
wait $cpids
done_ok=0
for i in $(seq $n); do
  [ "$(cat "$work/dr$i.st")" = 200 ] && cmp -s "$work/dr$i.json" "$work/ref.json" && done_ok=$((done_ok + 1))
done
wait "$pid"; st=$?
check "drain: $done_ok of $n requests in flight at SIGTERM ($inflight counted by /metrics) completed whole" [ "$done_ok" = "$n" ]
check "drain: exit 0 after the drain ($st)" [ "$st" = 0 ]
echo "auth-tls: drain: $done_ok/$n in-flight requests completed after SIGTERM (in flight at the signal: ${inflight:-?})"
sb_done auth-tls
