#!/usr/bin/env bash
# lookups.sh BUILD_DIR - license lookups against tests/fakeindex.py on
# loopback: licenses filled as the index says, single flight across two
# concurrent requests, a repeated request makes no transfer, a slow index
# still gives a document within the deadline with the marker, failures are
# counted, no transfer to a host the lockfile names, one request's 300 stalled
# names neither starve another request nor cost the index anything once its
# client has left, the per-request cap and the deadline's cancellation,
# offline costs nothing.
# SB_WRAP (valgrind) wraps the server. Ends with "lookups: N passed, N failed".
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../lib.sh"

fake() { # fake NAME ARGS... -> sets $fport
  python3 "$root/tests/fakeindex.py" "${@:2}" > "$work/$1.out" 2>&1 &
  pids="$pids $!"
  for _ in $(seq 50); do fport="$(awk '/^port/{print $2}' "$work/$1.out")"; [ -n "$fport" ] && break; sleep 0.1; done
}
start() { sb_start "$1" --source-date-epoch 1700000000 "${@:2}"; }
count() { curl -sS "http://127.0.0.1:$1/_count" | jq "$2"; }
zero() { curl -sS -X POST "http://127.0.0.1:$1/_zero" > /dev/null; }
reqs() { # reqs FIRST LAST [PREFIX] -> pinned requirements
  for i in $(seq "$1" "$2"); do printf '%s%04d==1.0.%d\n' "${3:-pkg}" "$i" "$i"; done
}

fake index --delay-ms 5 --slow-ms 10000
index="$fport"
fake elsewhere
elsewhere="$fport"
# the deadline must outlast 300 transfers at concurrency 16 (valgrind: much slower) and stay under --slow-ms
dl=4; [ -n "${SB_WRAP:-}" ] && dl=9
start "$work/s.log" --lookups --pypi-url "http://127.0.0.1:$index/pypi" --concurrency 16 --lookup-deadline "$dl" --lookup-timeout 10
reqs 1 40 > "$work/a.txt"

# --- licenses filled as the index says ------------------------------------------
res="$(curl -sS -o "$work/a.json" -w '%{http_code}' --data-binary @"$work/a.txt" "$base/v1/sbom?filename=requirements.txt&fetch-licenses=true")"
check "lookup request: $res" [ "$res" = 200 ]
want="$(python3 - <<'PY'
# the fake index's rule (fakeindex.py release()), normalized as sbomd does
for i in range(1, 41):
    n = "pkg%04d" % i
    h = sum(n.encode()) % 4
    print(n, {0: "MIT", 1: "Apache-2.0", 2: "BSD-3-Clause", 3: "-"}[h])
PY
)"
got="$(jq -r '.components[] | "\(.name) \(.licenses[0].expression // .licenses[0].license.id // .licenses[0].license.name // "-")"' "$work/a.json")"
check "every license is the index's (40 packages)" [ "$got" = "$want" ]
check "filled licenses say where they came from" \
  jq -e '[.components[] | select(.licenses) | .properties[] | select(.name == "pixi:license-source") | .value] | length > 25 and all(. == "pypi")' "$work/a.json" >/dev/null
check "one transfer per package" [ "$(count "$index" .requests)" = 40 ]
zero "$index"
res="$(curl -sS -o "$work/a2.json" -w '%{http_code}' --data-binary @"$work/a.txt" "$base/v1/sbom?filename=requirements.txt&fetch-licenses=true")"
check "the same request again: no transfer ($(count "$index" .requests))" [ "$(count "$index" .requests)" = 0 ]
check "and the same document" sh -c "cmp -s '$work/a.json' '$work/a2.json'"
res="$(curl -sS -o "$work/a3.json" -w '%{http_code}' --data-binary @"$work/a.txt" "$base/v1/sbom?filename=requirements.txt")"
check "without fetch-licenses: no license is looked up" jq -e '[.components[] | select(.licenses)] | length == 0' "$work/a3.json" >/dev/null

# --- single flight: two requests sharing 100 of their packages --------------------
zero "$index"
reqs 101 300 > "$work/b.txt"; reqs 201 400 > "$work/c.txt"
curl -sS -o "$work/b.json" --data-binary @"$work/b.txt" "$base/v1/sbom?filename=requirements.txt&fetch-licenses=true" &
p1=$!
curl -sS -o "$work/c.json" --data-binary @"$work/c.txt" "$base/v1/sbom?filename=requirements.txt&fetch-licenses=true" &
p2=$!
wait "$p1" "$p2"
n="$(count "$index" .requests)"; dup="$(count "$index" '[.paths[] | select(. > 1)] | length')"
check "two concurrent requests, 300 distinct packages: $n transfers, $dup asked twice" sh -c "[ '$n' = 300 ] && [ '$dup' = 0 ]"
check "both documents have their licenses" sh -c "jq -e '[.components[] | select(.licenses)] | length > 140' '$work/b.json' >/dev/null && jq -e '[.components[] | select(.licenses)] | length > 140' '$work/c.json' >/dev/null"
conns="$(count "$index" .connections)"
check "connections reused ($conns for 300 transfers at concurrency 16)" [ "$conns" -le 40 ]

# --- failures and a slow index ------------------------------------------------------
{ reqs 1 3 fail; reqs 1 3 reset; reqs 1 3 missing; reqs 1 5 slow; reqs 1 5 ok; } > "$work/f.txt"
t0="$(date +%s.%N)"
res="$(curl -sS -o "$work/f.json" -w '%{http_code}' --data-binary @"$work/f.txt" "$base/v1/sbom?filename=requirements.txt&fetch-licenses=true")"
t1="$(date +%s.%N)"
secs="$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.2f", b - a}')"
check "slow and failing index: still 200 ($res)" [ "$res" = 200 ]
limit=$((dl + 2)); [ -n "${SB_WRAP:-}" ] && limit=$((dl + 6)) # valgrind writes the document slower
check "the document arrives within the deadline ($dl s + margin: ${secs}s, limit ${limit}s)" awk -v s="$secs" -v l="$limit" 'BEGIN{exit !(s < l)}'
check "the marker counts 3 failed + 3 reset + 5 slow lookups" \
  jq -e '.metadata.properties[] | select(.name == "pixi:incomplete-detail") | .value | test("licenses: 11 lookup\\(s\\) failed")' "$work/f.json" >/dev/null
check "a 404 is an answer (no license), not a failure; the fast ones are filled" \
  jq -e '[.components[] | select(.name | startswith("ok")) | select(.licenses)] | length >= 3' "$work/f.json" >/dev/null
check "failures are counted in /metrics" sh -c "curl -sS '$base/metrics' | awk '/^sbomd_lookup_failures_total/{exit !(\$2 >= 6)}'"
# the lookup cache's misses (a transfer waited for) and hits: the 200 releases of b.txt asked again are hits
metric() { curl -sS "$base/metrics" | awk -v n="$1" '$1 == n {print $2}'; }
m0="$(metric sbomd_lookup_cache_misses_total)"; h0="$(metric sbomd_lookup_cache_hits_total)"
check "lookup cache misses counted ($m0 >= 300)" [ "${m0:-0}" -ge 300 ]
curl -sS -o /dev/null --data-binary @"$work/b.txt" "$base/v1/sbom?filename=requirements.txt&fetch-licenses=true"
m1="$(metric sbomd_lookup_cache_misses_total)"; h1="$(metric sbomd_lookup_cache_hits_total)"
check "a repeat is answered by the lookup cache: hits $h0 -> $h1, misses $m0 -> $m1" sh -c "[ $((h1 - h0)) -ge 200 ] && [ '$m1' = '$m0' ]"

# --- no transfer to a host the lockfile names ----------------------------------------
{ echo "--index-url http://127.0.0.1:$elsewhere/simple"; echo "--extra-index-url http://127.0.0.1:$elsewhere/extra"; reqs 500 505; } > "$work/e.txt"
cat > "$work/e.toml" <<TOML
lock-version = "1.0"
created-by = "test"
[[packages]]
name = "pkg0600"
version = "1.0.0"
index = "http://127.0.0.1:$elsewhere/simple"
[packages.archive]
url = "http://127.0.0.1:$elsewhere/pypi/pkg0600/1.0.0/json"
[packages.archive.hashes]
sha256 = "0000000000000000000000000000000000000000000000000000000000000000"
TOML
curl -sS -o "$work/e1.json" --data-binary @"$work/e.txt" "$base/v1/sbom?filename=requirements.txt&fetch-licenses=true"
curl -sS -o "$work/e2.json" --data-binary @"$work/e.toml" "$base/v1/sbom?filename=pylock.toml&fetch-licenses=true"
check "lockfile URLs are never fetched (the other host saw $(count "$elsewhere" .requests) requests)" [ "$(count "$elsewhere" .requests)" = 0 ]
looked="$(count "$index" '.paths | keys | map(select(test("pkg050|pkg0600"))) | length')"
check "those packages were looked up at the configured index ($looked of 7)" [ "$looked" = 7 ]
kill -TERM "$pid"; wait "$pid"; st=$?
check "exit 0 after lookups ($st)" [ "$st" = 0 ]

# --- fairness and cancellation: 300 stalled names in one request -------------------------
# A stalled name is never answered. The first client asks for 300 of them and
# leaves after 4 s; meanwhile a second client's one-package requests get their
# license (4 s: longer under SB_WRAP); once the first has left, its queued lookups are dropped and its
# transfers aborted: the index sees no further fetch and no stalled connection.
fake stalls --delay-ms 5
stalls="$fport"
# the stalled transfers must outlast the first client's stay (else they time
# out and the next ones start, as they should); valgrind: everything slower
stay=4 lt=10; [ -n "${SB_WRAP:-}" ] && stay=30 lt=60
start "$work/fair.log" --lookups --pypi-url "http://127.0.0.1:$stalls/pypi" --concurrency 4 --lookup-timeout "$lt" \
  --lookup-deadline $((lt + 30))
reqs 1 300 stall > "$work/stall.txt"
curl -sS -o /dev/null --max-time "$stay" --data-binary @"$work/stall.txt" "$base/v1/sbom?filename=requirements.txt&fetch-licenses=true" 2>/dev/null &
first=$!
for _ in $(seq 100); do [ "$(count "$stalls" .stall_open)" -ge 3 ] && break; sleep 0.1; done
check "the first request's lookups hold the index ($(count "$stalls" .stall_open) stalled)" [ "$(count "$stalls" .stall_open)" -ge 3 ]
filled=0
for name in fair0002 fair0003 fair0004; do
  printf '%s==1.0\n' "$name" > "$work/one.txt"
  res="$(curl -sS -o "$work/one.json" -w '%{http_code}' --max-time 20 --data-binary @"$work/one.txt" "$base/v1/sbom?filename=requirements.txt&fetch-licenses=true")"
  [ "$res" = 200 ] && jq -e '.components[0].licenses | length == 1' "$work/one.json" > /dev/null && filled=$((filled + 1))
done
check "meanwhile a second client's one-package requests have their license ($filled of 3)" [ "$filled" = 3 ]
check "the first client was still there then" kill -0 "$first"
wait "$first"
for _ in $(seq 100); do [ "$(count "$stalls" .stall_open)" = 0 ] && break; sleep 0.1; done
check "once it left, its transfers were aborted ($(count "$stalls" .stall_open) still open)" [ "$(count "$stalls" .stall_open)" = 0 ]
n1="$(count "$stalls" .stall_requests)"
sleep 3
n2="$(count "$stalls" .stall_requests)"
check "the index got $n1 stalled fetches in all (at most the 4 slots), none after the client left (+$((n2 - n1)))" \
  sh -c "[ '$n1' -le 4 ] && [ '$n2' = '$n1' ]"
cancelled="$(curl -sS "$base/metrics" | awk '/^sbomd_lookups_cancelled_total/{print $2}')"
check "its 300 lookups were cancelled, queued or running ($cancelled)" [ "${cancelled:-0}" -ge 297 ]
kill -TERM "$pid"; wait "$pid"; st=$?
check "exit 0 after cancelled lookups ($st)" [ "$st" = 0 ]

# --- the per-request cap, and the deadline cancels what is left -------------------------
zero "$stalls"
start "$work/cap.log" --lookups --pypi-url "http://127.0.0.1:$stalls/pypi" --concurrency 4 --lookup-timeout 10 --lookup-deadline 2 \
  --lookup-max-per-request 5
reqs 1 8 cap > "$work/cap.txt"
res="$(curl -sS -o "$work/cap.json" -w '%{http_code}' --data-binary @"$work/cap.txt" "$base/v1/sbom?filename=requirements.txt&fetch-licenses=true")"
check "8 packages, a cap of 5: 200 ($res)" [ "$res" = 200 ]
check "5 lookups made ($(count "$stalls" .requests))" [ "$(count "$stalls" .requests)" = 5 ]
check "the marker counts the 3 past the cap" \
  jq -e '.metadata.properties[] | select(.name == "pixi:incomplete-detail") | .value | test("licenses: 3 lookup\\(s\\) not made \\(past the server.s per-request lookup limit\\)")' "$work/cap.json" >/dev/null
check "the 5 looked up have the index's license (one of them has none there)" \
  jq -e '[.components[] | select(.properties // [] | any(.name == "pixi:license-source"))] | length == 4' "$work/cap.json" >/dev/null
zero "$stalls"
reqs 1 5 stall > "$work/st5.txt"
res="$(curl -sS -o "$work/st5.json" -w '%{http_code}' --data-binary @"$work/st5.txt" "$base/v1/sbom?filename=requirements.txt&fetch-licenses=true")"
check "5 stalled names, a 2 s lookup deadline: 200 all the same ($res)" [ "$res" = 200 ]
check "the marker counts them failed" \
  jq -e '.metadata.properties[] | select(.name == "pixi:incomplete-detail") | .value | test("licenses: 5 lookup\\(s\\) failed")' "$work/st5.json" >/dev/null
for _ in $(seq 100); do [ "$(count "$stalls" .stall_open)" = 0 ] && break; sleep 0.1; done
n1="$(count "$stalls" .stall_requests)"
sleep 2
n2="$(count "$stalls" .stall_requests)"
check "past the deadline: transfers aborted ($(count "$stalls" .stall_open) open), the 2 queued never fetched ($n1 then $n2 of 5)" \
  sh -c "[ '$(count "$stalls" .stall_open)' = 0 ] && [ '$n1' = 3 ] && [ '$n2' = 3 ]"
kill -TERM "$pid"; wait "$pid"; st=$?
check "exit 0 after the cap test ($st)" [ "$st" = 0 ]

# --- offline (the default) costs nothing ---------------------------------------------
zero "$index"
start "$work/o.log"
res="$(curl -sS -o "$work/o.json" -w '%{http_code}' --data-binary @"$work/a.txt" "$base/v1/sbom?filename=requirements.txt&fetch-licenses=true")"
check "offline server: 200 ($res)" [ "$res" = 200 ]
check "offline: the marker says no lookups were made" \
  jq -e '.metadata.properties[] | select(.name == "pixi:incomplete-detail") | .value | test("40 lookup\\(s\\) not made")' "$work/o.json" >/dev/null
check "offline: nothing reached the index" [ "$(count "$index" .requests)" = 0 ]
res="$(curl -sS -o /dev/null -w '%{http_code}' --data-binary @"$work/a.txt" "$base/v1/sbom?fetch-licenses=maybe")"
check "fetch-licenses=maybe: 400 ($res)" [ "$res" = 400 ]
kill -TERM "$pid"; wait "$pid"; st=$?
check "offline server exits 0 ($st)" [ "$st" = 0 ]
"$bin" --check-config --pypi-url file:///etc > /dev/null 2>&1; st=$?
check "a non-http pypi-url is a config error ($st)" [ "$st" = 2 ]
sb_done lookups
