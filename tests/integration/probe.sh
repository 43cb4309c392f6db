#!/usr/bin/env bash
# probe.sh BUILD_DIR - the probe listener (--probe-port): /healthz, /readyz and
# /metrics on a second plain-HTTP daemon with its own thread and connection
# budget. The main listener is filled (--max-connections 6) with connections
# trickling their heads; the main /healthz then goes unanswered while the probe
# port answers (a generous 5 s bound only so a regression cannot hang the
# suite). Also: only the probe routes there, probes open under a tokens file,
# /readyz 503 on the probe port while draining, configuration errors.
# Ends with "probe: N passed, N failed".
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../lib.sh"

# probe_port LOG - the probe listener's port from the log line
probe_port() {
  local p=""
  for _ in $(seq 1 100); do
    p="$(grep -o '"msg":"probe listener","detail":"http://127.0.0.1:[0-9]*' "$1" 2>/dev/null | grep -o '[0-9]*$' | head -1)"
    [ -n "$p" ] && break; sleep 0.1
  done
  echo "$p"
}

sb_start "$work/a.log" --probe-port 0 --max-connections 6 --max-connections-per-ip 0 \
  --head-timeout 60 --conn-timeout 60 --shutdown-delay 3
pp="$(probe_port "$work/a.log")"
check "the probe listener is logged with its port ($pp)" [ -n "$pp" ]
for path in /healthz /readyz /metrics; do
  res="$(curl -sS -m 5 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$pp$path")"
  check "probe port $path: 200 ($res)" [ "$res" = 200 ]
done
res="$(curl -sS -m 5 -o "$work/nf.json" -w '%{http_code} %{content_type}' "http://127.0.0.1:$pp/v1/formats")"
check "probe port: an API route is 404 problem+json ($res)" [ "$res" = "404 application/problem+json" ]
check "probe port: the 404 says what it serves" jq -e '.detail | test("/healthz")' "$work/nf.json" >/dev/null
res="$(curl -sS -m 5 -o /dev/null -w '%{http_code}' --data-binary x "http://127.0.0.1:$pp/v1/sbom")"
check "probe port: POST /v1/sbom is 404 ($res)" [ "$res" = 404 ]

# fill the main listener: 10 connections (over --max-connections 6), each
# sending its request line and then a header line every second, never ending
# the head; they keep reconnecting when closed, for 20 s
cat > "$work/trickle.py" <<'PY'
import socket, sys, time
port, n, secs = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
end = time.monotonic() + secs
socks = []
def opened():
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=1)
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        return s
    except OSError:
        return None
socks = [opened() for _ in range(n)]
print("open", sum(1 for s in socks if s), flush=True)
while time.monotonic() < end:
    time.sleep(0.5)
    for i, s in enumerate(socks):
        try:
            if s is None:
                raise OSError
            s.sendall(b"X-Trickle: 1\r\n")
        except OSError:
            if s:
                s.close()
            socks[i] = opened()
PY
python3 "$work/trickle.py" "$port" 10 20 > "$work/trickle.out" 2>&1 & tpid=$!; pids="$pids $tpid"
for _ in $(seq 1 50); do grep -q '^open' "$work/trickle.out" && break; sleep 0.1; done
# the trickles reach the server's slots at their own pace on a loaded
# machine: the main /healthz is asked until it goes unanswered (a few tries)
res=200
for _ in $(seq 1 5); do
  res="$(curl -sS -m 2 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/healthz" 2>/dev/null)"
  [ "$res" != 200 ] && break; sleep 0.5
done
check "main listener full of trickles ($(cat "$work/trickle.out")): its /healthz is not answered ($res)" [ "$res" != 200 ]
t0=$(date +%s%N)
res="$(curl -sS -m 5 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$pp/healthz")"
t1=$(date +%s%N)
check "main listener full: the probe port's /healthz answers 200 ($res, $(( (t1 - t0) / 1000000 )) ms)" [ "$res" = 200 ]
res="$(curl -sS -m 5 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$pp/readyz")"
check "main listener full: the probe port's /readyz answers 200 ($res)" [ "$res" = 200 ]
ok_n=0
for _ in $(seq 1 20); do
  [ "$(curl -sS -m 5 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$pp/healthz")" = 200 ] && ok_n=$((ok_n + 1))
  sleep 0.1
done
check "main listener full: 20 of 20 probe-port /healthz answered ($ok_n)" [ "$ok_n" = 20 ]
kill "$tpid" 2>/dev/null; wait "$tpid" 2>/dev/null
# the main listener frees its slots once the trickles go
res=""
for _ in $(seq 1 30); do
  res="$(curl -sS -m 2 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/healthz" 2>/dev/null)"
  [ "$res" = 200 ] && break; sleep 0.2
done
check "the trickles gone: the main /healthz answers again ($res)" [ "$res" = 200 ]

# draining: /readyz on the probe port says 503 during --shutdown-delay
kill -TERM "$pid"; sleep 1
res="$(curl -sS -m 5 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$pp/readyz")"
check "after SIGTERM, during shutdown-delay: probe-port /readyz 503 ($res)" [ "$res" = 503 ]
res="$(curl -sS -m 5 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$pp/healthz")"
check "after SIGTERM, during shutdown-delay: probe-port /healthz still 200 ($res)" [ "$res" = 200 ]
wait "$pid"; st=$?
check "the server with a probe listener exits 0 ($st)" [ "$st" = 0 ]

# a tokens file: the probes are open on the probe port whatever --auth-open
# says (a kubelet sends no token); /metrics follows --auth-open
printf 'tok-1\n' > "$work/tokens"
sb_start "$work/b.log" --probe-port 0 --tokens-file "$work/tokens" --auth-open /nothing
pp="$(probe_port "$work/b.log")"
res="$(curl -sS -m 5 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/healthz")"
check "tokens, auth-open without /healthz: main /healthz 401 ($res)" [ "$res" = 401 ]
res="$(curl -sS -m 5 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$pp/healthz")"
check "tokens: probe-port /healthz 200 without a token ($res)" [ "$res" = 200 ]
res="$(curl -sS -m 5 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$pp/readyz")"
check "tokens: probe-port /readyz 200 without a token ($res)" [ "$res" = 200 ]
res="$(curl -sS -m 5 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$pp/metrics")"
check "tokens, auth-open without /metrics: probe-port /metrics 401 ($res)" [ "$res" = 401 ]
res="$(curl -sS -m 5 -o /dev/null -w '%{http_code}' -H 'Authorization: Bearer tok-1' "http://127.0.0.1:$pp/metrics")"
check "tokens: probe-port /metrics with the token 200 ($res)" [ "$res" = 200 ]
used="$pp"

# configuration: a port in use names the probe listener, address and port
"$bin" --listen 127.0.0.1 --port 0 --probe-port "$used" > /dev/null 2> "$work/inuse.out"; st=$?
check "a probe port in use names it, address and port (exit $st)" \
  sh -c "[ $st != 0 ] && grep -q 'cannot listen for probes on 127.0.0.1 port $used: Address already in use' '$work/inuse.out'"
check "and says how to choose another: --probe-port, SBOMD_PROBE_PORT" \
  grep -q 'choose another with --probe-port or SBOMD_PROBE_PORT' "$work/inuse.out"
kill -TERM "$pid"; wait "$pid"
"$bin" --check-config --port 8080 --probe-port 8080 > "$work/cc1.out" 2>&1; st=$?
check "probe-port equal to port is a config error (exit $st)" sh -c "[ $st = 2 ] && grep -q 'probe-port 8080' '$work/cc1.out'"
"$bin" --check-config --probe-port 9090 --probe-listen 'not-an-ip' > "$work/cc2.out" 2>&1; st=$?
check "a bad probe-listen is a config error (exit $st)" sh -c "[ $st = 2 ] && grep -q 'not an IPv4 or IPv6' '$work/cc2.out'"
"$bin" --check-config > "$work/cc3.out" 2>&1
check "the probe listener is off by default" grep -qx 'probe-port=-1' "$work/cc3.out"
# metrics-on-main=0: the counters only on the probe port (a NetworkPolicy on it decides who reads them)
sb_start "$work/m.log" --probe-port 0 --metrics-on-main=false
mp="$(probe_port "$work/m.log")"
res="$(curl -sS -m 5 -o "$work/mm.json" -w '%{http_code}' "$base/metrics")"
check "metrics-on-main=0: main /metrics is 404 ($res)" sh -c "[ '$res' = 404 ] && jq -e '.detail | test(\"probe listener only\")' '$work/mm.json' > /dev/null"
res="$(curl -sS -m 5 -o "$work/mp.txt" -w '%{http_code}' "http://127.0.0.1:$mp/metrics")"
check "metrics-on-main=0: probe /metrics 200 with the counters ($res)" sh -c "[ '$res' = 200 ] && grep -q '^sbomd_in_flight' '$work/mp.txt'"
res="$(curl -sS -m 5 -o /dev/null -w '%{http_code}' "$base/healthz")"
check "metrics-on-main=0: main /healthz still 200 ($res)" [ "$res" = 200 ]
kill -TERM "$pid"; wait "$pid"
"$bin" --check-config --metrics-on-main=false > "$work/cc4.out" 2>&1; st=$?
check "metrics-on-main=0 without a probe port is a config error (exit $st)" sh -c "[ $st = 2 ] && grep -q 'set probe-port too' '$work/cc4.out'"
sb_done probe
