#!/usr/bin/env bash
# gates.sh [BUILD_DIR] - CI gates fail closed. A gate whose data this server
# never gathers is a 400 feature-disabled before the body is read; a gate
# that does not fire but whose data is missing (the upstream refused the
# connection, answered 500, answered garbage, timed out, or the lookups were
# capped) is a 503 gate-unevaluated with Retry-After and an `unevaluated`
# list, on /v1/sbom and on a report; a gate that fires on what is known
# keeps its 422; gate-incomplete=pass evaluates on what is known and says so
# in a Warning. Every answer made from documents lists their missing steps in
# Sbomd-Incomplete (documents, reports, NDJSON, diff), every JSON report in
# summary.incomplete ({step, detail}), SARIF in invocations[0]
# (executionSuccessful, a notification per step), and the request's log line
# (warn when an upstream's step is missing). Upstreams are
# tests/integration/fake_osv.py and tests/fakeindex.py on loopback.
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../lib.sh"
data="$root/tests/data"
uv="$data/vulns/uv.lock"
post() { # post FILE PATH?QUERY OUT -> http code (headers in OUT.h)
  curl -sS -o "$3" -D "$3.h" -w '%{http_code}' --data-binary @"$1" "$base$2"
}
hdr() { grep -i "^$2:" "$1.h" | head -1 | cut -d' ' -f2- | tr -d '\r'; } # hdr OUT NAME
fake() { # fake NAME MODE -> fport
  python3 "$here/fake_osv.py" "$data/osv" 0 "$2" > "$work/$1.port" 2> "$work/$1.err" &
  pids="$pids $!"
  fport=""
  for _ in $(seq 50); do fport="$(head -1 "$work/$1.port" 2>/dev/null)"; [ -n "$fport" ] && break; sleep 0.1; done
}
unevaluated() { # unevaluated OUT GATE STEP: a 503 gate-unevaluated naming GATE and STEP
  jq -e --arg g "$2" --arg s "$3" '.type == "urn:sbomd:problem:gate-unevaluated" and .status == 503
    and (.unevaluated | any(.gate == $g and .step == $s and (.detail | length) > 0))
    and (.detail | test("gate-incomplete=pass"))' "$1" > /dev/null
}
# a port nothing listens on: connections are refused
closed="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')"

# --- a server that gathers no vulnerability data and makes no lookups -------------------
sb_start "$work/off.log" --source-date-epoch 1700000000
for q in "vulnerabilities=osv&fail-on-severity=high:--vulnerabilities" "vulnerabilities=osv&fail-on-kev=true:--vulnerabilities" \
         "vulnerabilities=osv&fail-on-epss=0.1:--vulnerabilities" "fail-on-yanked=true:--lookups" "fail-on-scorecard=5:--lookups"; do
  opt="${q##*:}" q="${q%:*}"
  res="$(post "$uv" "/v1/sbom?filename=uv.lock&$q" "$work/d.json")"
  check "no $opt: $q is 400 ($res)" [ "$res" = 400 ]
  check "no $opt: $q is feature-disabled naming $opt" jq -e --arg o "$opt" '.type == "urn:sbomd:problem:feature-disabled" and (.detail | contains($o))' "$work/d.json" > /dev/null
  res="$(post "$uv" "/v1/report/packages?filename=uv.lock&$q" "$work/d.json")"
  check "no $opt: $q on a report is 400 too ($res)" [ "$res" = 400 ]
done
res="$(post "$uv" "/v1/sbom?filename=uv.lock&vulnerabilities=osv&fail-on-severity=high&gate-incomplete=pass" "$work/p.json")"
check "gate-incomplete=pass: the document, 200 ($res)" [ "$res" = 200 ]
check "gate-incomplete=pass: Sbomd-Incomplete names osv ($(hdr "$work/p.json" Sbomd-Incomplete))" grep -qi '^Sbomd-Incomplete: .*\bosv\b' "$work/p.json.h"
check "gate-incomplete=pass: a Warning names the gate" grep -qi '^Warning: 299 sbomd "evaluated on incomplete data (gate-incomplete=pass): fail-on-severity' "$work/p.json.h"
check "gate-incomplete=pass: the same text in Sbomd-Notice (issue 40: Warning is obsolete)" grep -qi '^Sbomd-Notice: evaluated on incomplete data (gate-incomplete=pass): fail-on-severity' "$work/p.json.h"
res="$(post "$uv" "/v1/sbom?filename=uv.lock&gate-incomplete=sometimes" "$work/p.json")"
check "gate-incomplete=sometimes: 400 with the choices ($res)" jq -e '.choices == ["fail", "pass"]' "$work/p.json" > /dev/null
# without a gate nothing changes: the document, and the header says what it lacks
res="$(post "$uv" "/v1/sbom?filename=uv.lock&vulnerabilities=osv" "$work/n.json")"
check "no gate: 200 ($res)" [ "$res" = 200 ]
check "no gate: Sbomd-Incomplete lists the document's pixi:incomplete steps" \
  [ "$(hdr "$work/n.json" Sbomd-Incomplete)" = "$(jq -r '.metadata.properties[] | select(.name == "pixi:incomplete") | .value' "$work/n.json")" ]
kill -TERM "$pid"; wait "$pid" 2>/dev/null

# --- OSV failing in each way: the vulnerability gates are unevaluated -------------------
fake b500 batch500; b500="$fport"
fake gb garbage; gb="$fport"
fake slow slow; slow="$fport"
fake ok ok; okp="$fport"
for up in "refused:$closed" "500:$b500" "garbage:$gb" "timeout:$slow"; do
  how="${up%%:*}" p="${up##*:}"
  sb_start "$work/$how.log" --source-date-epoch 1700000000 --vulnerabilities --lookup-timeout 1 \
    --osv-url "http://127.0.0.1:$p" --kev-url "http://127.0.0.1:$okp/kev.json" --epss-url "http://127.0.0.1:$okp/data/v1/epss"
  res="$(post "$uv" "/v1/sbom?filename=uv.lock&vulnerabilities=osv&fail-on-severity=critical" "$work/$how.json")"
  check "OSV $how: fail-on-severity is 503 ($res)" [ "$res" = 503 ]
  check "OSV $how: gate-unevaluated names fail-on-severity / osv" unevaluated "$work/$how.json" fail-on-severity osv
  check "OSV $how: Retry-After" grep -qi '^Retry-After: 60' "$work/$how.json.h"
  res="$(post "$uv" "/v1/sbom?filename=uv.lock&vulnerabilities=osv&fail-on-kev=true&fail-on-epss=0.9" "$work/$how-k.json")"
  check "OSV $how: fail-on-kev and fail-on-epss are 503 ($res)" [ "$res" = 503 ]
  check "OSV $how: both gates listed" jq -e '[.unevaluated[].gate] | index("fail-on-kev") != null and index("fail-on-epss") != null' "$work/$how-k.json" > /dev/null
  res="$(post "$uv" "/v1/report/vulnerabilities?filename=uv.lock&fail-on-severity=low" "$work/$how-r.json")"
  check "OSV $how: the vulnerabilities report's gate is 503 ($res)" [ "$res" = 503 ]
  res="$(post "$uv" "/v1/report/vulnerabilities?filename=uv.lock" "$work/$how-r2.json")"
  check "OSV $how: the report without a gate is 200 and says osv is missing ($res: $(hdr "$work/$how-r2.json" Sbomd-Incomplete))" \
    sh -c "[ '$res' = 200 ] && grep -qi '^Sbomd-Incomplete: .*osv' '$work/$how-r2.json.h'"
  check "OSV $how: the report's summary.incomplete has step osv" jq -e '.summary.incomplete | any(.step == "osv" and (.detail | length) > 0)' "$work/$how-r2.json" > /dev/null
  res="$(post "$uv" "/v1/report/vulnerabilities?filename=uv.lock&output=sarif" "$work/$how-s.json")"
  check "OSV $how: SARIF says the run was not whole ($res)" jq -e '.runs[0].invocations[0].executionSuccessful == false and (.runs[0].invocations[0].toolExecutionNotifications | any(.descriptor.id == "osv" and .level == "warning"))' "$work/$how-s.json" > /dev/null
  check "OSV $how: the 200's log line is warn and names osv" grep -q '"level":"warn".*"status":200.*"incomplete":"[^"]*osv' "$work/$how.log"
  res="$(post "$uv" "/v1/sbom?filename=uv.lock&vulnerabilities=osv&fail-on-severity=critical&gate-incomplete=pass" "$work/$how-p.json")"
  check "OSV $how, gate-incomplete=pass: 200 with a Warning ($res)" sh -c "[ '$res' = 200 ] && grep -qi '^Warning: 299 sbomd \"evaluated on incomplete' '$work/$how-p.json.h'"
  kill -TERM "$pid"; wait "$pid" 2>/dev/null
done
# OSV answering: the gate is evaluated, fires on a real finding, passes when whole
sb_start "$work/okv.log" --source-date-epoch 1700000000 --vulnerabilities --osv-url "http://127.0.0.1:$okp" \
  --kev-url "http://127.0.0.1:$okp/kev.json" --epss-url "http://127.0.0.1:$okp/data/v1/epss"
res="$(post "$uv" "/v1/sbom?filename=uv.lock&vulnerabilities=osv&fail-on-severity=low" "$work/v.json")"
check "OSV answering: a finding fires the gate, 422 ($res)" [ "$res" = 422 ]
res="$(post "$uv" "/v1/sbom?filename=uv.lock&vulnerabilities=osv&fail-on-severity=critical" "$work/v2.json")"
check "OSV answering: nothing critical, the gate passes on whole data, 200 ($res)" [ "$res" = 200 ]
check "OSV answering: Sbomd-Incomplete does not name osv" sh -c "! grep -qi '^Sbomd-Incomplete: .*osv' '$work/v2.json.h'"
res="$(post "$uv" "/v1/report/vulnerabilities?filename=uv.lock&output=sarif" "$work/vs.json")"
check "OSV answering: SARIF invocation lists no osv notification ($res)" jq -e '.runs[0].invocations[0] | has("executionSuccessful") and ([.toolExecutionNotifications[].descriptor.id] | index("osv") == null)' "$work/vs.json" > /dev/null
res="$(post "$uv" "/v1/sbom?filename=uv.lock&vulnerabilities=osv&all-platforms=true&fail-on-severity=critical" "$work/v3.json")"
check "OSV answering, all-platforms: 200 NDJSON ($res)" [ "$res" = 200 ]
kill -TERM "$pid"; wait "$pid" 2>/dev/null
# a fired gate wins over missing data: its 422 names real findings
sb_start "$work/k5.log" --source-date-epoch 1700000000 --vulnerabilities --osv-url "http://127.0.0.1:$okp" \
  --kev-url "http://127.0.0.1:$closed/kev.json" --epss-url "http://127.0.0.1:$okp/data/v1/epss"
res="$(post "$uv" "/v1/sbom?filename=uv.lock&vulnerabilities=osv&fail-on-severity=low&fail-on-kev=true" "$work/k.json")"
check "KEV refused, severity fires: 422 with the findings ($res)" sh -c "[ '$res' = 422 ] && jq -e '.type == \"urn:sbomd:problem:vulnerable\"' '$work/k.json' > /dev/null"
res="$(post "$uv" "/v1/sbom?filename=uv.lock&vulnerabilities=osv&fail-on-kev=true" "$work/k2.json")"
check "KEV refused, nothing fires: fail-on-kev unevaluated, 503 ($res)" sh -c "[ '$res' = 503 ]"
check "KEV refused: the step is kev" unevaluated "$work/k2.json" fail-on-kev kev
kill -TERM "$pid"; wait "$pid" 2>/dev/null

# --- PyPI pages: refused, and capped lookups ------------------------------------------------
printf 'requests==2.32.1\nidna==3.7\ncertifi==2024.2.2\n' > "$work/r.txt"
sb_start "$work/py.log" --source-date-epoch 1700000000 --lookups --pypi-url "http://127.0.0.1:$closed/pypi" \
  --scorecard-url "http://127.0.0.1:$closed"
res="$(post "$work/r.txt" "/v1/sbom?filename=requirements.txt&fail-on-yanked=true" "$work/y.json")"
check "PyPI refused: fail-on-yanked is 503 ($res)" [ "$res" = 503 ]
check "PyPI refused: the step is pypi-releases" unevaluated "$work/y.json" fail-on-yanked pypi-releases
res="$(post "$work/r.txt" "/v1/sbom?filename=requirements.txt&fail-on-scorecard=3" "$work/s.json")"
check "PyPI and Scorecard refused: fail-on-scorecard is 503 ($res)" [ "$res" = 503 ]
check "PyPI and Scorecard refused: the gate lacks its repositories" unevaluated "$work/s.json" fail-on-scorecard pypi-releases
res="$(post "$work/r.txt" "/v1/report/packages?filename=requirements.txt&fail-on-yanked=true" "$work/yr.json")"
check "PyPI refused: on a report too, 503 ($res)" [ "$res" = 503 ]
kill -TERM "$pid"; wait "$pid" 2>/dev/null
python3 "$root/tests/fakeindex.py" --projects-dir "$data/pypi-projects" > "$work/fi.out" 2>&1 &
pids="$pids $!"
for _ in $(seq 50); do fi="$(awk '/^port/{print $2}' "$work/fi.out")"; [ -n "$fi" ] && break; sleep 0.1; done
sb_start "$work/cap.log" --source-date-epoch 1700000000 --lookups --pypi-url "http://127.0.0.1:$fi/pypi" --lookup-max-per-request 1
res="$(post "$work/r.txt" "/v1/sbom?filename=requirements.txt&fail-on-yanked=true" "$work/c.json")"
check "lookups capped at 1 of 3: fail-on-yanked is 503 ($res)" [ "$res" = 503 ]
check "capped: the step is pypi-releases" unevaluated "$work/c.json" fail-on-yanked pypi-releases
res="$(post "$work/r.txt" "/v1/sbom?filename=requirements.txt&yanked=true" "$work/c2.json")"
check "capped, no gate: 200 and Sbomd-Incomplete pypi-releases ($res)" sh -c "[ '$res' = 200 ] && grep -qi '^Sbomd-Incomplete: .*pypi-releases' '$work/c2.json.h'"
kill -TERM "$pid"; wait "$pid" 2>/dev/null

# --- Sbomd-Incomplete on the other answers ------------------------------------------------
sb_start "$work/h.log" --source-date-epoch 1700000000
px="$root/examples/pixi-pypi/pixi.lock"
res="$(post "$px" "/v1/sbom?all-platforms=true" "$work/nd.json")"
want="$(head -1 "$work/nd.json" | jq -r '.metadata.properties[] | select(.name == "pixi:incomplete") | .value')"
check "NDJSON: 200 and Sbomd-Incomplete covers the first document's steps ($res)" \
  sh -c "[ '$res' = 200 ] && for s in \$(echo '$want' | tr -d ','); do grep -qi \"^Sbomd-Incomplete: .*\$s\" '$work/nd.json.h' || exit 1; done"
res="$(post "$uv" "/v1/report/packages?filename=uv.lock" "$work/pr.json")"
check "packages report: summary.incomplete is the header's steps ($res)" \
  [ "$(jq -r '[.summary.incomplete[].step] | unique | join(", ")' "$work/pr.json")" = "$(hdr "$work/pr.json" Sbomd-Incomplete | tr ',' '\n' | sed 's/^ //' | sort | paste -sd, | sed 's/,/, /g')" ]
check "a lockfile's own gaps (hashes, licenses) log at info" grep -q '"level":"info".*"path":"/v1/report/packages".*"incomplete":"' "$work/h.log"
res="$(post "$uv" "/v1/report/licenses?filename=uv.lock" "$work/lr.json")"
check "licenses report: Sbomd-Incomplete names licenses ($res: $(hdr "$work/lr.json" Sbomd-Incomplete))" grep -qi '^Sbomd-Incomplete: .*licenses' "$work/lr.json.h"
res="$(curl -sS -o "$work/df.json" -D "$work/df.json.h" -w '%{http_code}' -F base=@"$root/examples/poetry-be09d9c/poetry.lock" \
  -F head=@"$root/examples/poetry-5484122/poetry.lock" "$base/v1/diff")"
check "diff: 200 and an Sbomd-Incomplete header ($res: $(hdr "$work/df.json" Sbomd-Incomplete))" sh -c "[ '$res' = 200 ] && grep -qi '^Sbomd-Incomplete: ' '$work/df.json.h'"
# the license gate tells "not known" from "none" (issue 37): a uv.lock records
# no licenses, so require-license names each as not known, with the remedy
res="$(curl -sS -o "$work/rq.json" -w '%{http_code}' --data-binary @"$root/examples/uv-droid-semantic-search/uv.lock" "$base/v1/sbom?require-license=true&fail-on=license")"
check "require-license on a uv.lock without lookups: 422 ($res)" [ "$res" = 422 ]
check "each violation is a license not known, value unknown, with how to know it" \
  jq -e '[.violations[] | select(.value == "unknown" and (.reason | test("^license not known: .*fetch-licenses=true")))] | length > 80' "$work/rq.json" >/dev/null
check "a package stated without a license stays 'no license stated'" \
  jq -e '[.violations[] | select(.reason == "no license stated (require-license)")] | length >= 1' "$work/rq.json" >/dev/null
sb_done gates
