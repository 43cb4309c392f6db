#!/usr/bin/env bash
# redis.sh BUILD_DIR - the shared cache (--cache-url) against a real
# redis-server on a loopback port, with tests/fakeindex.py as PyPI and conda
# channel: a second replica sharing the Redis makes 0 upstream requests for
# lockfiles the first looked up (PyPI and conda archives, negatives too) and
# writes the same documents; AUTH and the database number are used; keys
# carry the prefix and a TTL; values over --cache-max-value stay local; Redis
# down, refusing AUTH, or slow (accepts, never answers) is a 200 document
# with a 199 Warning, looked up from the network within the timeout; Redis
# back is used again after the backoff; rediss:// and bad URLs refused at
# start; --check-config hides the password; OSV answers shared as well. Skips (saying so) only when
# redis-server is not installed. Ends with "redis: N passed, N failed".
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../lib.sh"

if ! command -v redis-server > /dev/null || ! command -v redis-cli > /dev/null; then
  echo "redis: SKIPPED - redis-server/redis-cli not installed (apt-get install redis-server; scripts/install-deps does)"
  sb_done redis
  exit 0
fi

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
fake() { # fake NAME ARGS... -> sets $fport
  python3 "$root/tests/fakeindex.py" "${@:2}" > "$work/$1.out" 2>&1 &
  pids="$pids $!"
  for _ in $(seq 50); do fport="$(awk '/^port/{print $2}' "$work/$1.out")"; [ -n "$fport" ] && break; sleep 0.1; done
}
count() { curl -sS "http://127.0.0.1:$1/_count" | jq "$2"; }
zero() { curl -sS -X POST "http://127.0.0.1:$1/_zero" > /dev/null; }
metric() { curl -sS "$1/metrics" | awk -v n="$2" '$1 == n {print $2}'; }
rcli() { redis-cli -h 127.0.0.1 -p "$rport" -a secret --no-auth-warning -n 3 "$@"; }
redis_up() { # start redis-server on $rport (password "secret"), wait for PONG
  redis-server --port "$rport" --bind 127.0.0.1 --requirepass secret --save '' --appendonly no \
    --dir "$work" --logfile "$work/redis.log" --daemonize no &
  rpid=$!; pids="$pids $rpid"
  for _ in $(seq 100); do [ "$(rcli ping 2>/dev/null)" = PONG ] && return 0; sleep 0.05; done
  cat "$work/redis.log" >&2; return 1
}
reqs() { for i in $(seq "$1" "$2"); do printf '%s%04d==1.0.%d\n' "${3:-pkg}" "$i" "$i"; done; }

rport="$(free_port)"
check "redis-server starts on 127.0.0.1:$rport" redis_up
python3 "$root/tests/make-conda.py" "$work/channel" > "$work/pixi.lock" || bad "make-conda.py"
fake index --conda-dir "$work/channel" --delay-ms 5
index="$fport"
mkdir -p "$work/ca" "$work/cb" "$work/cc" "$work/cd"
url="redis://:secret@127.0.0.1:$rport/3"
args=(--source-date-epoch 1700000000 --lookups --pypi-url "http://127.0.0.1:$index/pypi"
      --conda-url "http://127.0.0.1:$index/conda" --lookup-deadline 10 --lookup-timeout 10)
reqs 1 40 > "$work/r.txt"
q="fetch-licenses=true"

# --- replica A looks everything up, replica B (own memory and disk) asks nobody
sb_start "$work/a.log" "${args[@]}" --cache-dir "$work/ca" --cache-url "$url"
a="$base"; apid=$pid
res="$(curl -sS -D "$work/a.h" -o "$work/a.json" -w '%{http_code}' --data-binary @"$work/r.txt" "$a/v1/sbom?$q&filename=requirements.txt")"
check "replica A: 200 ($res)" [ "$res" = 200 ]
check "replica A asked the index once per package ($(count "$index" .requests))" [ "$(count "$index" .requests)" = 40 ]
check "replica A's answer has no Warning (Redis is up)" sh -c "! grep -qi '^warning:' '$work/a.h'"
check "replica A's licenses are filled" jq -e '[.components[] | select(.licenses)] | length >= 25' "$work/a.json" > /dev/null
res="$(curl -sS -o "$work/ca.json" -w '%{http_code}' --data-binary @"$work/pixi.lock" "$a/v1/sbom?$q")"
check "replica A, conda archives: 200 ($res), 8 transfers ($(count "$index" .requests))" \
  sh -c "[ '$res' = 200 ] && [ '$(count "$index" .requests)' = 48 ]"
# the writes are queued: wait for them (40 PyPI answers, 7 archives: 5 with info/, a 404, one without)
for _ in $(seq 100); do [ "$(metric "$a" sbomd_shared_cache_writes_total)" = 47 ] && break; sleep 0.05; done
check "replica A wrote 47 answers to Redis ($(metric "$a" sbomd_shared_cache_writes_total))" [ "$(metric "$a" sbomd_shared_cache_writes_total)" = 47 ]
check "47 keys in database 3 under the prefix ($(rcli --scan --pattern 'sbomd:lookup1:*' | wc -l))" \
  [ "$(rcli --scan --pattern 'sbomd:lookup1:*' | wc -l)" = 47 ]
k1="$(rcli --scan --pattern 'sbomd:lookup1:*' | head -1)"
ttl="$(rcli ttl "$k1")"
check "keys expire (TTL $ttl s, within --lookup-ttl 86400)" sh -c "[ '$ttl' -gt 0 ] && [ '$ttl' -le 86400 ]"
check "nothing in database 0" [ "$(redis-cli -h 127.0.0.1 -p "$rport" -a secret --no-auth-warning -n 0 dbsize)" = 0 ]

zero "$index"
sb_start "$work/b.log" "${args[@]}" --cache-dir "$work/cb" --cache-url "$url"
b="$base"; bpid=$pid
res="$(curl -sS -D "$work/b.h" -o "$work/b.json" -w '%{http_code}' --data-binary @"$work/r.txt" "$b/v1/sbom?$q&filename=requirements.txt")"
n="$(count "$index" .requests)"
check "replica B's first request for the same lockfile: 200 ($res), $n upstream requests" sh -c "[ '$res' = 200 ] && [ '$n' = 0 ]"
check "replica B writes the same document as A" cmp -s "$work/a.json" "$work/b.json"
check "replica B's answer has no Warning" sh -c "! grep -qi '^warning:' '$work/b.h'"
res="$(curl -sS -o "$work/cb.json" -w '%{http_code}' --data-binary @"$work/pixi.lock" "$b/v1/sbom?$q")"
n="$(count "$index" .requests)"
check "replica B, conda archives: 200 ($res), $n upstream requests" sh -c "[ '$res' = 200 ] && [ '$n' = 0 ]"
check "replica B's conda document equals A's (licenses, about.json from the shared info member)" cmp -s "$work/ca.json" "$work/cb.json"
res="$(curl -sS -o "$work/tb.json" -w '%{http_code}' --data-binary @"$work/pixi.lock" "$b/v1/sbom?$q&license-texts=true")"
check "replica B embeds alpha's LICENSE from the unpacked member ($res)" \
  jq -e '.components[] | select(.name == "alpha") | .licenses[0].license.text.content == "alpha license text\n"' "$work/tb.json" > /dev/null
h="$(metric "$b" sbomd_shared_cache_hits_total)"
check "replica B counted 47 shared-cache hits ($h)" [ "$h" = 47 ]
check "replica B unpacked the members into its own cache ($(find "$work/cb" -name index.json | wc -l) info/)" \
  [ "$(find "$work/cb" -name index.json | wc -l)" -ge 4 ]
check "replica B wrote nothing back (it looked nothing up): $(metric "$b" sbomd_shared_cache_writes_total)" \
  [ "$(metric "$b" sbomd_shared_cache_writes_total)" = 0 ]
res="$(curl -sS -o /dev/null -w '%{http_code}' --data-binary @"$work/r.txt" "$b/v1/sbom?$q&filename=requirements.txt")"
check "replica B's repeat is answered from its memory: no new MGET keys ($(metric "$b" sbomd_shared_cache_hits_total))" \
  [ "$(metric "$b" sbomd_shared_cache_hits_total)" = 47 ]

# --- a value over --cache-max-value stays local; another prefix shares nothing
zero "$index"
sb_start "$work/c.log" "${args[@]}" --cache-dir "$work/cc" --cache-url "$url" --cache-prefix "small:" --cache-max-value 16
res="$(curl -sS -o /dev/null -w '%{http_code}' --data-binary @"$work/r.txt" "$base/v1/sbom?$q&filename=requirements.txt")"
check "another prefix shares nothing: 200 ($res), 40 upstream requests ($(count "$index" .requests))" \
  sh -c "[ '$res' = 200 ] && [ '$(count "$index" .requests)' = 40 ]"
nsmall="$(rcli --scan --pattern 'small:*' | wc -l)"
check "--cache-max-value 16: 40 values dropped ($(metric "$base" sbomd_shared_cache_dropped_total)), $nsmall written" \
  sh -c "[ '$(metric "$base" sbomd_shared_cache_dropped_total)' = 40 ] && [ '$nsmall' = 0 ]"
kill "$pid"; wait "$pid" 2>/dev/null

# --- AUTH refused: a miss with a Warning, never a failed document
zero "$index"
sb_start "$work/d.log" "${args[@]}" --cache-dir "$work/cd" --cache-url "redis://:wrong@127.0.0.1:$rport/3"
res="$(curl -sS -D "$work/d.h" -o "$work/d.json" -w '%{http_code}' --data-binary @"$work/r.txt" "$base/v1/sbom?$q&filename=requirements.txt")"
check "wrong password: still 200 ($res)" [ "$res" = 200 ]
check "with a 199 Warning naming the shared cache ($(grep -i '^warning:' "$work/d.h" | tr -d '\r'))" \
  grep -qiE '^warning: 199 sbomd "shared cache unavailable[^"]*AUTH' "$work/d.h"
check "looked up from the network instead (40 upstream requests: $(count "$index" .requests))" [ "$(count "$index" .requests)" = 40 ]
check "the same document as A's" cmp -s "$work/a.json" "$work/d.json"
check "the error counted ($(metric "$base" sbomd_shared_cache_errors_total))" [ "$(metric "$base" sbomd_shared_cache_errors_total)" -ge 1 ]
kill "$pid"; wait "$pid" 2>/dev/null

# --- OSV answers are shared too
python3 "$here/fake_osv.py" "$root/tests/data/osv" 0 ok > "$work/osv.port" 2> "$work/osv.err" &
pids="$pids $!"
for _ in $(seq 50); do osv="$(head -1 "$work/osv.port" 2>/dev/null)"; [ -n "$osv" ] && break; sleep 0.1; done
osvn() { curl -sS "http://127.0.0.1:$osv/stats" | jq '.querybatch + .vulns'; }
vq="filename=uv.lock&vulnerabilities=osv"
sb_start "$work/oa.log" --source-date-epoch 1700000000 --vulnerabilities --osv-url "http://127.0.0.1:$osv" --cache-url "$url"
res="$(curl -sS -o "$work/oa.json" -w '%{http_code}' --data-binary @"$root/tests/data/vulns/uv.lock" "$base/v1/sbom?$vq")"
n0="$(osvn)"
check "OSV, replica A: 200 ($res), $n0 OSV requests" sh -c "[ '$res' = 200 ] && [ '$n0' -ge 2 ]"
check "OSV, replica A found advisories" jq -e '.vulnerabilities | length > 0' "$work/oa.json" > /dev/null
for _ in $(seq 100); do [ "$(metric "$base" sbomd_shared_cache_writes_total)" = "$n0" ] && break; sleep 0.05; done
kill "$pid"; wait "$pid" 2>/dev/null
sb_start "$work/ob.log" --source-date-epoch 1700000000 --vulnerabilities --osv-url "http://127.0.0.1:$osv" --cache-url "$url"
res="$(curl -sS -o "$work/ob.json" -w '%{http_code}' --data-binary @"$root/tests/data/vulns/uv.lock" "$base/v1/sbom?$vq")"
check "OSV, replica B: 200 ($res), $(($(osvn) - n0)) new OSV requests" sh -c "[ '$res' = 200 ] && [ '$(osvn)' = '$n0' ]"
check "OSV, replica B's document equals A's" cmp -s "$work/oa.json" "$work/ob.json"
kill "$pid"; wait "$pid" 2>/dev/null

# --- Redis down: replica B still answers, with the Warning; then Redis comes back
kill "$rpid"; wait "$rpid" 2>/dev/null
zero "$index"
reqs 41 60 > "$work/r2.txt"
t0="$(date +%s%N)"
res="$(curl -sS -D "$work/e.h" -o "$work/e.json" -w '%{http_code}' --data-binary @"$work/r2.txt" "$b/v1/sbom?$q&filename=requirements.txt")"
ms=$((($(date +%s%N) - t0) / 1000000))
check "Redis down: 200 ($res) in ${ms} ms" [ "$res" = 200 ]
check "Redis down: Warning 199 ($(grep -i '^warning:' "$work/e.h" | tr -d '\r'))" grep -qiE '^warning: 199 sbomd "shared cache unavailable' "$work/e.h"
check "Redis down: looked up from the network (20: $(count "$index" .requests))" [ "$(count "$index" .requests)" = 20 ]
check "Redis down: licenses filled" jq -e '[.components[] | select(.licenses)] | length >= 12' "$work/e.json" > /dev/null
check "the outage logged once" grep -q 'shared cache unreachable' "$work/b.log"
check_up() { redis_up; }
check "redis-server back on the same port" check_up
sleep 5.2 # past the longest backoff
zero "$index"
reqs 61 70 > "$work/r3.txt"
res="$(curl -sS -D "$work/f.h" -o /dev/null -w '%{http_code}' --data-binary @"$work/r3.txt" "$b/v1/sbom?$q&filename=requirements.txt")"
check "Redis back: 200 ($res) without a Warning" sh -c "[ '$res' = 200 ] && ! grep -qi '^warning:' '$work/f.h'"
for _ in $(seq 100); do [ "$(rcli --scan --pattern 'sbomd:lookup1:*' | wc -l)" -ge 10 ] && break; sleep 0.05; done
check "Redis back: replica B writes its answers again ($(rcli --scan --pattern 'sbomd:lookup1:*' | wc -l) keys)" \
  [ "$(rcli --scan --pattern 'sbomd:lookup1:*' | wc -l)" -ge 10 ]
check "and logs the recovery" grep -q 'shared cache reachable again' "$work/b.log"
# a restart between two requests: the kept connections are found closed and
# replaced at once, no outage counted, no Warning
kill "$rpid"; wait "$rpid" 2>/dev/null
check "redis-server restarted" redis_up
reqs 71 75 > "$work/r4.txt"
e0="$(metric "$b" sbomd_shared_cache_errors_total)"
res="$(curl -sS -D "$work/g.h" -o /dev/null -w '%{http_code}' --data-binary @"$work/r4.txt" "$b/v1/sbom?$q&filename=requirements.txt")"
check "Redis restarted between requests: 200 ($res) without a Warning" sh -c "[ '$res' = 200 ] && ! grep -qi '^warning:' '$work/g.h'"
for _ in $(seq 100); do [ "$(rcli dbsize)" -ge 5 ] && break; sleep 0.05; done
check "and its answers written to the new Redis ($(rcli dbsize) keys), no error counted ($e0 -> $(metric "$b" sbomd_shared_cache_errors_total))" \
  sh -c "[ '$(rcli dbsize)' -ge 5 ] && [ '$e0' = '$(metric "$b" sbomd_shared_cache_errors_total)' ]"
kill "$apid" "$bpid" 2>/dev/null; wait "$apid" "$bpid" 2>/dev/null

# --- a Redis that accepts and never answers: each request waits one timeout at most
python3 -c '
import socket, sys
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", 0)); s.listen(64)
print("port", s.getsockname()[1], flush=True)
held = []
while True:
    c, _ = s.accept(); held.append(c)
' > "$work/mute.out" 2>&1 &
pids="$pids $!"
for _ in $(seq 50); do mute="$(awk '/^port/{print $2}' "$work/mute.out")"; [ -n "$mute" ] && break; sleep 0.1; done
mkdir -p "$work/cm"
zero "$index"
sb_start "$work/m.log" "${args[@]}" --cache-dir "$work/cm" --cache-url "redis://127.0.0.1:$mute/0" --cache-timeout-ms 150
t0="$(date +%s%N)"
res="$(curl -sS -D "$work/m.h" -o "$work/m.json" -w '%{http_code}' --data-binary @"$work/r.txt" "$base/v1/sbom?$q&filename=requirements.txt")"
ms=$((($(date +%s%N) - t0) / 1000000))
check "slow Redis: 200 ($res) with a Warning" sh -c "[ '$res' = 200 ] && grep -qiE '^warning: 199 sbomd \"shared cache unavailable' '$work/m.h'"
check "slow Redis: the document equals A's" cmp -s "$work/a.json" "$work/m.json"
check "slow Redis: $ms ms (one 150 ms timeout, then 40 lookups at 5 ms; limit 3000)" [ "$ms" -lt 3000 ]
t0="$(date +%s%N)"
res="$(curl -sS -D "$work/m2.h" -o /dev/null -w '%{http_code}' --data-binary @"$work/r.txt" "$base/v1/sbom?$q&filename=requirements.txt")"
ms2=$((($(date +%s%N) - t0) / 1000000))
check "slow Redis, repeat: 200 ($res) from memory in $ms2 ms" sh -c "[ '$res' = 200 ] && [ '$ms2' -lt 1000 ]"
kill "$pid"; wait "$pid" 2>/dev/null

# --- refused at start; the password never printed
out="$("$bin" --cache-url "rediss://127.0.0.1:6380/0" --check-config 2>&1)"; st=$?
echo "$out" > "$work/tls.txt"
check "rediss:// refused at start (exit $st), saying why" sh -c "[ '$st' = 2 ] && grep -q 'hiredis 0.14, which has none' '$work/tls.txt'"
for u in "http://127.0.0.1:6379" "redis://" "redis://h:0/0" "redis://h:99999" "redis://h/x" "redis://h:6379/0?x=1" "redis://:%zz@h"; do
  "$bin" --cache-url "$u" --check-config > /dev/null 2>&1; st=$?
  check "--cache-url '$u' refused (exit $st)" [ "$st" = 2 ]
done
out="$("$bin" --cache-url "redis://user:hunter2@127.0.0.1:6379/2" --check-config 2>&1)"
check "--check-config hides the password" sh -c "echo '$out' | grep -q '^cache-url=redis://\*\*\*@127.0.0.1:6379/2$' && ! echo '$out' | grep -q hunter2"

sb_done redis
