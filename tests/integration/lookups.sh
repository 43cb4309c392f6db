#!/usr/bin/env bash
# lookups.sh BUILD_DIR - license lookups against tests/fakeindex.py on
# loopback: licenses filled as the index says, single flight across two
# concurrent requests, a repeated request makes no transfer, a slow index
# still gives a document within the deadline with the marker, failures are
# counted, no transfer to a host the lockfile names, offline costs nothing.
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
