#!/usr/bin/env bash
# metrics.sh BUILD_DIR - /metrics says what its HELP says: reports and diffs
# counted in sbomd_documents_total (report-OUTPUT), the duration histogram
# by route and status with buckets up to 120 s, sbomd_gate_failures_total
# and sbomd_gates_unevaluated_total by gate, sbomd_in_flight leaving out the
# scrape, a fully stalled upload counted in sbomd_timeouts_total with its
# reason logged, and the exposition clean for `promtool check metrics`.
# Ends with "metrics: N passed, N failed".
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../lib.sh"
ex="$root/examples"
m() { curl -sS "$base/metrics"; }
# val NAME{LABELS}: the sample's value, 0 when absent
val() { m | awk -v k="$1" '$1 == k { print $2; f = 1 } END { if (!f) print 0 }'; }
post() { curl -sS -o /dev/null -w '%{http_code}' "$@"; }

sb_start "$work/s.log" --conn-timeout 2
m > "$work/m0.txt"
check "an idle replica: sbomd_in_flight 0 (the scrape is not counted)" grep -qx 'sbomd_in_flight 0' "$work/m0.txt"
for g in license quality vulnerabilities yanked scorecard diff; do
  check "sbomd_gate_failures_total{gate=\"$g\"} listed at 0 before any gate ran" grep -qx "sbomd_gate_failures_total{gate=\"$g\"} 0" "$work/m0.txt"
  check "sbomd_gates_unevaluated_total{gate=\"$g\"} listed at 0" grep -qx "sbomd_gates_unevaluated_total{gate=\"$g\"} 0" "$work/m0.txt"
done

# reports and diffs are documents of their output
st="$(post --data-binary @"$ex/pixi-pypi/pixi.lock" "$base/v1/report/licenses?filename=pixi.lock")"
check "a licenses report as JSON (200: $st) counts sbomd_documents_total{format=\"report-json\"} 1" \
  [ "$(val 'sbomd_documents_total{format="report-json"}')" = 1 ]
st="$(post --data-binary @"$ex/pixi-pypi/pixi.lock" "$base/v1/report/packages?filename=pixi.lock&output=csv")"
check "a packages report as CSV (200: $st) counts report-csv 1" [ "$(val 'sbomd_documents_total{format="report-csv"}')" = 1 ]
st="$(post -H 'Accept: text/markdown' --data-binary @"$ex/pixi-pypi/pixi.lock" "$base/v1/report/tree?filename=pixi.lock")"
check "a tree report negotiated by Accept (200: $st) counts report-markdown 1" [ "$(val 'sbomd_documents_total{format="report-markdown"}')" = 1 ]
st="$(post -F base=@"$ex/poetry-be09d9c/poetry.lock" -F head=@"$ex/poetry-5484122/poetry.lock" "$base/v1/diff?output=text")"
check "a diff as text (200: $st) counts report-text 1" [ "$(val 'sbomd_documents_total{format="report-text"}')" = 1 ]
check "documents as before: cyclonedx-1.6 0 so far" [ "$(val 'sbomd_documents_total{format="cyclonedx-1.6"}')" = 0 ]
check "the HELP says what is counted" grep -q '^# HELP sbomd_documents_total .*report-OUTPUT' <(m)

# the duration histogram: by route and status, up to 120 s
post --data-binary @"$ex/pixi-pypi/pixi.lock" "$base/v1/sbom?filename=pixi.lock" > /dev/null
post --data-binary @"$ex/pixi-pypi/pixi.lock" "$base/v1/sbom?filename=pixi.lock&pretty=maybe" > /dev/null
m > "$work/m1.txt"
check "a 200 on /v1/sbom is in its own series" grep -qx 'sbomd_request_duration_seconds_count{route="/v1/sbom",status="200"} 1' "$work/m1.txt"
check "a 400 on /v1/sbom is apart from the 200" grep -qx 'sbomd_request_duration_seconds_count{route="/v1/sbom",status="400"} 1' "$work/m1.txt"
for le in 5 10 30 60 120; do
  check "a bucket at le=\"$le\"" grep -q "^sbomd_request_duration_seconds_bucket{route=\"/v1/sbom\",status=\"200\",le=\"$le\"} 1$" "$work/m1.txt"
done

# gate outcomes
st="$(post --data-binary @"$ex/pixi-pypi/pixi.lock" "$base/v1/sbom?filename=pixi.lock&deny-license=GPL-3.0-only&fail-on=license")"
check "fail-on=license fires (422: $st): sbomd_gate_failures_total{gate=\"license\"} 1" \
  sh -c "[ $st = 422 ] && [ \"\$(curl -sS '$base/metrics' | awk '\$1 == \"sbomd_gate_failures_total{gate=\\\"license\\\"}\" {print \$2}')\" = 1 ]"
st="$(post --data-binary @"$ex/poetry-5484122/poetry.lock" "$base/v1/sbom?filename=poetry.lock&fail-on-quality=ntia-2021")"
check "fail-on-quality fires (422: $st): gate quality 1" [ "$(val 'sbomd_gate_failures_total{gate="quality"}')" = 1 ]
st="$(post -F base=@"$ex/poetry-be09d9c/poetry.lock" -F head=@"$ex/poetry-5484122/poetry.lock" "$base/v1/diff?fail-on=diff")"
check "fail-on=diff as JSON (422: $st): gate diff 1" [ "$(val 'sbomd_gate_failures_total{gate="diff"}')" = 1 ]
st="$(post -F base=@"$ex/poetry-be09d9c/poetry.lock" -F head=@"$ex/poetry-5484122/poetry.lock" "$base/v1/diff?fail-on=diff&output=markdown")"
check "fail-on=diff as Markdown, the diff itself as the 422 ($st): gate diff 2" [ "$(val 'sbomd_gate_failures_total{gate="diff"}')" = 2 ]
check "no other gate counted" sh -c "[ \"\$(curl -sS '$base/metrics' | grep -E '^sbomd_gate_failures_total\{gate=\"(vulnerabilities|yanked|scorecard)\"\} 0$' | wc -l)\" = 3 ]"

# a fully stalled upload: head and 10 bytes of a 100000-byte body, then nothing
t0="$(val sbomd_timeouts_total)"
exec 3<>"/dev/tcp/127.0.0.1/$port"
printf 'POST /v1/sbom HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: 100000\r\n\r\n0123456789' >&3
sleep 4
exec 3>&- 3<&-
sleep 0.3
check "a stalled upload counts in sbomd_timeouts_total (${t0} -> $(val sbomd_timeouts_total))" [ "$(val sbomd_timeouts_total)" = $((t0 + 1)) ]
check "and its log line says why" grep -q '"reason":"the upload stalled: no byte for 2 s (conn-timeout) after 10 byte(s)' "$work/s.log"
m > "$work/m2.txt"
if command -v promtool > /dev/null; then
  check "promtool check metrics: the exposition is clean ($(promtool check metrics < "$work/m2.txt" 2>&1 | head -2 | tr '\n' ' '))" \
    sh -c "promtool check metrics < '$work/m2.txt' > /dev/null 2>&1"
else
  bad "promtool is not installed (scripts/install-deps installs prometheus)"
fi
kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null

# a gate whose upstream failed: 503 gate-unevaluated, counted by gate
sb_start "$work/l.log" --lookups --pypi-url http://127.0.0.1:1/pypi --lookup-timeout 2
st="$(post --data-binary @"$ex/uv-droid-semantic-search/uv.lock" "$base/v1/sbom?filename=uv.lock&fail-on-yanked=true")"
check "fail-on-yanked with PyPI unreachable (503: $st): sbomd_gates_unevaluated_total{gate=\"yanked\"} 1" \
  sh -c "[ $st = 503 ] && [ \"\$(curl -sS '$base/metrics' | awk '\$1 == \"sbomd_gates_unevaluated_total{gate=\\\"yanked\\\"}\" {print \$2}')\" = 1 ]"
check "and not as a failure" [ "$(val 'sbomd_gate_failures_total{gate="yanked"}')" = 0 ]
kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
sb_done metrics
