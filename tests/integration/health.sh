#!/usr/bin/env bash
# health.sh BUILD_DIR - yanked flags, the fail-on-yanked gate and the
# outdated report (issue 29 part 3) against tests/fakeindex.py on loopback
# serving PyPI project pages from tests/data/pypi-projects: pixi:yanked /
# pixi:yanked-reason in valid CycloneDX 1.6/1.7 and SPDX 2.3/3.0.1, nothing
# asked without yanked=true, the gate's 422, the packages report's Yanked
# column, the outdated report's rows and summary in json/text/markdown/csv,
# one transfer per project and none for a repeated request, a failing
# project as pixi:incomplete step pypi-releases, and an offline server's
# marker; conda rows of the outdated report from a channel index
# (--channel-index-url, tests/data/channel-index) and a failing index as
# pixi:incomplete step conda-index. Ends with "health: N passed, N failed".
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../lib.sh"
data="$root/tests/data"

python3 "$root/tests/fakeindex.py" --projects-dir "$data/pypi-projects" --conda-dir "$data/channel-index" > "$work/fake.out" 2>&1 &
pids="$pids $!"
for _ in $(seq 50); do fport="$(awk '/^port/{print $2}' "$work/fake.out")"; [ -n "$fport" ] && break; sleep 0.1; done
count() { curl -sS "http://127.0.0.1:$fport/_count" | jq "$1"; }
zero() { curl -sS -X POST "http://127.0.0.1:$fport/_zero" > /dev/null; }
valid() { "$validate" --auto -q "$1"; }
cprop() { # cprop FILE COMPONENT PROPERTY -> value or ""
  jq -r --arg c "$2" --arg n "$3" '[.components[] | select(.name == $c) | .properties[]? | select(.name == $n) | .value] | first // ""' "$1"
}
has() { grep -qF -- "$2" <<< "$1"; } # has TEXT NEEDLE
mprop() { jq -r --arg n "$2" '[.metadata.properties[]? | select(.name == $n) | .value] | first // ""' "$1"; }

# 2025-01-01T00:00:00Z: the Age column counts from here
sb_start "$work/s.log" --source-date-epoch 1735689600 --lookups --pypi-url "http://127.0.0.1:$fport/pypi"
cat > "$work/r.txt" <<'R'
requests==2.32.0
urllib3==1.26.5
idna==3.7
certifi==2024.2.2
missingpkg==1.0
failpkg==1.0
R
post() { curl -sS -o "$3" -D "$3.h" -w '%{http_code}' --data-binary @"$1" "$base$2"; }
why="Yanked due to conflicts with CVE-2024-35195 mitigation"

# --- yanked in every format -----------------------------------------------------------
res="$(post "$work/r.txt" "/v1/sbom?filename=requirements.txt&yanked=true" "$work/y.json")"
check "yanked=true: 200 ($res)" [ "$res" = 200 ]
check "one transfer per project (6 asked: $(count .requests))" [ "$(count .requests)" = 6 ]
check "requests 2.32.0 is yanked" [ "$(cprop "$work/y.json" requests pixi:yanked)" = true ]
check "with the index's reason" [ "$(cprop "$work/y.json" requests pixi:yanked-reason)" = "$why" ]
n="$(jq '[.components[].properties[]? | select(.name == "pixi:yanked")] | length' "$work/y.json")"
check "no other package is yanked ($n)" [ "$n" = 1 ]
check "urllib3 1.26.5 is not (2.0.1 is, another release)" [ "$(cprop "$work/y.json" urllib3 pixi:yanked)" = "" ]
check "the failing project is a gap: pypi-releases" has "$(mprop "$work/y.json" pixi:incomplete)" pypi-releases
check "the gap's detail counts it" has "$(mprop "$work/y.json" pixi:incomplete-detail)" "pypi-releases: 1 of 6 index lookups failed"
check "properties stay sorted by name" jq -e '[.components[] | select(.name == "requests") | .properties[].name | select(startswith("pixi:y"))] == ["pixi:yanked", "pixi:yanked-reason"]' "$work/y.json" >/dev/null
for f in cyclonedx-1.6 cyclonedx-1.7 spdx-2.3 spdx-3.0.1; do
  res="$(post "$work/r.txt" "/v1/sbom?filename=requirements.txt&yanked=true&format=$f" "$work/$f.json")"
  check "$f: 200 ($res) and valid" sh -c "[ '$res' = 200 ] && '$validate' --auto -q '$work/$f.json'"
  check "$f: names the yank reason" grep -q "CVE-2024-35195" "$work/$f.json"
done
zero
res="$(post "$work/r.txt" "/v1/sbom?filename=requirements.txt&yanked=true" "$work/y2.json")"
check "the same request again: only the failed project is asked again ($(count .requests))" [ "$(count .requests)" = 1 ]
check "and the same document" cmp -s "$work/y.json" "$work/y2.json"
zero
res="$(post "$work/r.txt" "/v1/sbom?filename=requirements.txt" "$work/n.json")"
check "without yanked=true: nothing asked ($(count .requests)), no property" \
  sh -c "[ '$(count .requests)' = 0 ] && ! grep -q pixi:yanked '$work/n.json'"
check "yanked=true changes the serial" \
  sh -c "[ \"\$(jq -r .serialNumber '$work/n.json')\" != \"\$(jq -r .serialNumber '$work/y.json')\" ]"
res="$(post "$work/r.txt" "/v1/sbom?filename=requirements.txt&yanked=maybe" "$work/bad.json")"
check "yanked=maybe: 400 ($res)" [ "$res" = 400 ]

# --- the gate -----------------------------------------------------------------------
res="$(post "$work/r.txt" "/v1/sbom?filename=requirements.txt&fail-on-yanked=true" "$work/g.json")"
check "fail-on-yanked=true: 422 ($res)" [ "$res" = 422 ]
check "problem type yanked, one violation: requests 2.32.0" \
  jq -e --arg w "$why" '.type == "urn:sbomd:problem:yanked" and .violationCount == 1 and .violations[0].package == "requests" and .violations[0].version == "2.32.0" and .violations[0].value == $w' "$work/g.json" >/dev/null
grep -v '^requests' "$work/r.txt" > "$work/r2.txt"
res="$(post "$work/r2.txt" "/v1/sbom?filename=requirements.txt&fail-on-yanked=true" "$work/g2.json")"
# failpkg's page failed: a gate that would pass is not trusted on it
check "nothing yanked, one page failed: the gate is unevaluated, 503 ($res)" [ "$res" = 503 ]
check "the 503 names fail-on-yanked and pypi-releases" jq -e '.type == "urn:sbomd:problem:gate-unevaluated" and (.unevaluated | any(.gate == "fail-on-yanked" and .step == "pypi-releases" and (.detail | test("1 of 5 index lookups failed"))))' "$work/g2.json" > /dev/null
check "the 503 says when to retry" grep -qi '^Retry-After: 60' "$work/g2.json.h"
res="$(post "$work/r2.txt" "/v1/sbom?filename=requirements.txt&fail-on-yanked=true&gate-incomplete=pass" "$work/g2p.json")"
check "gate-incomplete=pass: the gate passes on what is known, 200 ($res)" [ "$res" = 200 ]
check "gate-incomplete=pass: a Warning names the gate" grep -qi '^Warning: 299 sbomd "evaluated on incomplete data (gate-incomplete=pass): fail-on-yanked' "$work/g2p.json.h"
check "gate-incomplete=pass: Sbomd-Incomplete lists pypi-releases" grep -qi '^Sbomd-Incomplete: .*pypi-releases' "$work/g2p.json.h"
grep -v '^failpkg' "$work/r2.txt" > "$work/r3.txt"
res="$(post "$work/r3.txt" "/v1/sbom?filename=requirements.txt&fail-on-yanked=true" "$work/g3.json")"
check "nothing yanked, every page read: the gate passes, 200 ($res)" [ "$res" = 200 ]
check "and no Sbomd-Incomplete pypi-releases" sh -c "! grep -qi '^Sbomd-Incomplete: .*pypi-releases' '$work/g3.json.h'"
res="$(post "$work/r.txt" "/v1/report/packages?filename=requirements.txt&fail-on-yanked=true" "$work/g3.json")"
check "the gate on a report: 422 ($res)" [ "$res" = 422 ]

# --- the packages report's Yanked column -----------------------------------------------
res="$(post "$work/r.txt" "/v1/report/packages?filename=requirements.txt&yanked=true&output=text" "$work/p.txt")"
check "packages report text: 200 ($res)" [ "$res" = 200 ]
check "Yanked cell: yes: <reason>" grep -q "yes: $why" "$work/p.txt"
res="$(post "$work/r.txt" "/v1/report/packages?filename=requirements.txt&yanked=true" "$work/p.json")"
check "packages report json: yanked and yanked_reason" \
  jq -e --arg w "$why" '[.packages[] | select(.yanked)] | length == 1 and .[0].name == "requests" and .[0].yanked_reason == $w' "$work/p.json" >/dev/null
check "packages report json: false only where the index answered, null where nobody looked (failpkg's page failed)" \
  jq -e '([.packages[] | select(.name == "certifi") | .yanked] == [false]) and ([.packages[] | select(.name == "failpkg") | .yanked] == [null])' "$work/p.json" >/dev/null
res="$(post "$work/r.txt" "/v1/report/packages?filename=requirements.txt" "$work/pn.json")"
check "packages report without yanked=true: yanked null on every row (never asked), not false" \
  jq -e '[.packages[].yanked] | length > 0 and all(. == null)' "$work/pn.json" >/dev/null
res="$(post "$work/r.txt" "/v1/report/packages?filename=requirements.txt&yanked=true&output=text" "$work/p.txt")"
check "packages report text: 'no' where the index said so" grep -qE '^certifi .* no ' "$work/p.txt"
res="$(post "$work/r.txt" "/v1/report/packages?filename=requirements.txt&yanked=true&output=csv" "$work/p.csv")"
check "packages report csv: 200 ($res), yanked and yanked_reason as the JSON's (openapi/reports.schema.json)" \
  sh -c "[ '$res' = 200 ] && python3 '$here/check-schema.py' '$root/openapi/reports.schema.json' packages '$work/p.json' '$work/p.csv'"

# --- the outdated report --------------------------------------------------------------
zero
res="$(post "$work/r.txt" "/v1/report/outdated?filename=requirements.txt" "$work/o.json")"
check "outdated report: 200 ($res)" [ "$res" = 200 ]
check "outdated asks only what the cache lacks ($(count .requests))" [ "$(count .requests)" = 1 ]
want='[{"name":"certifi","version":"2024.2.2","released":"2024-02-02","age_days":334,"latest":"2024.6.2","latest_released":"2024-06-02","behind":1,"step":"minor","yanked":false},{"name":"requests","version":"2.32.0","released":"2024-05-20","age_days":226,"latest":"2.32.3","latest_released":"2024-05-29","behind":3,"step":"patch","yanked":true},{"name":"urllib3","version":"1.26.5","released":"2021-05-26","age_days":1316,"latest":"2.2.2","latest_released":"2024-06-17","behind":3,"step":"major","yanked":false}]'
got="$(jq -c '[.outdated[] | del(.purl, .environment, .platform)] | sort_by(.name)' "$work/o.json")"
check "rows: certifi minor, requests patch (yanked), urllib3 major 3 behind (a yanked release and a pre-release past the newest not counted)" [ "$got" = "$want" ]
check "summary: 5 checked (the failed question checked nothing), 3 outdated, 1 current, 1 not on the index, 1 failed" \
  jq -e '.summary | .checked == 5 and .outdated == 3 and .current == 1 and .not_on_index == 1 and .failed == 1 and .checked == .outdated + .current + .not_on_index' "$work/o.json" >/dev/null
check "summary names the gap" jq -e '.summary.incomplete | any(.step == "pypi-releases")' "$work/o.json" >/dev/null
res="$(post "$work/r.txt" "/v1/report/outdated?filename=requirements.txt&output=text" "$work/o.txt")"
check "text: 200 ($res), frozen header" sh -c "[ '$res' = 200 ] && head -1 '$work/o.txt' | grep -Eq '^Name +Version +Age +Latest +Released +Behind +Step$'"
check "text: urllib3's row" grep -Eq '^urllib3 +1\.26\.5 +1316d +2\.2\.2 +2024-06-17 +3 +major$' "$work/o.txt"
res="$(post "$work/r.txt" "/v1/report/outdated?filename=requirements.txt&output=markdown" "$work/o.md")"
check "markdown: 200 ($res), a table" sh -c "[ '$res' = 200 ] && grep -q '^| Name | Version | Age | Latest | Released | Behind | Step |' '$work/o.md' && grep -q '^| requests | 2.32.0 |' '$work/o.md'"
res="$(post "$work/r.txt" "/v1/report/outdated?filename=requirements.txt&output=csv" "$work/o.csv")"
check "csv: 200 ($res), header (the JSON row's keys) and 3 rows" sh -c "[ '$res' = 200 ] && [ \"\$(head -1 '$work/o.csv' | tr -d '\r')\" = 'environment,platform,name,version,purl,released,age_days,latest,latest_released,behind,step,yanked' ] && [ \"\$(wc -l < '$work/o.csv')\" = 4 ]"
check "csv and json: the columns of openapi/reports.schema.json, cells as the JSON's" \
  python3 "$here/check-schema.py" "$root/openapi/reports.schema.json" outdated "$work/o.json" "$work/o.csv"
res="$(post "$work/r.txt" "/v1/report/outdated?filename=requirements.txt&output=sarif" "$work/o.sarif")"
check "sarif: not an output of this report ($res)" [ "$res" = 400 ] 

# /v1/diff has one lookup context for two sides: yanked is not one of its parameters
res="$(curl -sS -o "$work/d.json" -w '%{http_code}' -F "base=@$work/r.txt;filename=requirements.txt" \
  -F "head=@$work/r2.txt;filename=requirements.txt" "$base/v1/diff?yanked=true")"
check "diff refuses yanked=true: 400 ($res), nothing asked" sh -c "[ '$res' = 400 ] && jq -e '.detail | test(\"yanked\")' '$work/d.json' >/dev/null"

# --- conda packages in the outdated report: a channel index ------------------------------
lock="$shared/fixtures/pixi/pixi-crates-pixi_global-src-test_data-lock_files-ripgrep_bat.lock/pixi.lock"
res="$(post "$lock" "/v1/report/outdated?filename=pixi.lock" "$work/c0.json")"
check "no --channel-index-url: conda packages counted as not checked ($res)" \
  jq -e '.summary.checked == 0 and .summary.conda_not_checked == 7 and (.outdated | length) == 0' "$work/c0.json" >/dev/null
kill -TERM "$pid"; wait "$pid"
zero
sb_start "$work/s3.log" --source-date-epoch 1735689600 --lookups --pypi-url "http://127.0.0.1:$fport/pypi" \
  --channel-index-url "http://127.0.0.1:$fport/conda/{channel}/{subdir}/repodata.json"
res="$(post "$lock" "/v1/report/outdated?filename=pixi.lock" "$work/c.json")"
check "conda outdated: 200 ($res)" [ "$res" = 200 ]
check "one index read for the channel and subdir ($(count .requests))" \
  sh -c "curl -sS 'http://127.0.0.1:$fport/_count' | jq -e '.requests == 1 and .paths[\"/conda/conda-forge/linux-64/repodata.json\"] == 1' > /dev/null"
want='[{"name":"bat","version":"0.24.0","released":"2023-10-11","age_days":448,"latest":"0.25.0","latest_released":"2025-01-04","behind":1,"step":"minor","yanked":false},{"name":"libgcc","version":"14.1.0","released":"2024-08-27","age_days":127,"latest":"15.1.0","latest_released":"2025-04-18","behind":2,"step":"major","yanked":false},{"name":"ripgrep","version":"14.1.0","released":"2024-01-04","age_days":363,"latest":"14.1.1","latest_released":"2024-08-30","behind":1,"step":"patch","yanked":false}]'
got="$(jq -c '[.outdated[] | del(.purl, .environment, .platform)] | sort_by(.name)' "$work/c.json")"
check "rows: bat minor, libgcc major 2 behind, ripgrep patch (two builds of 14.1.0: the first day)" [ "$got" = "$want" ]
[ "$got" = "$want" ] || echo "    got $got"
check "rows carry the conda purl" jq -e '[.outdated[].purl | startswith("pkg:conda/") and contains("channel=conda-forge")] | all' "$work/c.json" >/dev/null
check "summary: 7 checked, 3 outdated, 3 current, 1 not on the index, none unchecked" \
  jq -e '.summary | .checked == 7 and .outdated == 3 and .current == 3 and .not_on_index == 1 and .failed == 0 and .conda_not_checked == 0' "$work/c.json" >/dev/null
res="$(post "$lock" "/v1/report/outdated?filename=pixi.lock&output=text" "$work/c.txt")"
check "text: libgcc's row" grep -Eq '^libgcc +14\.1\.0 +127d +15\.1\.0 +2025-04-18 +2 +major$' "$work/c.txt"
res="$(post "$lock" "/v1/report/outdated?filename=pixi.lock&output=csv" "$work/c.csv")"
check "conda outdated csv: 200 ($res), rows as the JSON's (openapi/reports.schema.json)" \
  sh -c "[ '$res' = 200 ] && python3 '$here/check-schema.py' '$root/openapi/reports.schema.json' outdated '$work/c.json' '$work/c.csv'"
zero
res="$(post "$lock" "/v1/report/outdated?filename=pixi.lock" "$work/c2.json")"
check "asked again: the index is reused, nothing fetched ($(count .requests))" sh -c "[ '$(count .requests)' = 0 ] && cmp -s '$work/c.json' '$work/c2.json'"
kill -TERM "$pid"; wait "$pid"
sb_start "$work/s4.log" --source-date-epoch 1735689600 --lookups --pypi-url "http://127.0.0.1:$fport/pypi" \
  --channel-index-url "http://127.0.0.1:$fport/conda/nowhere/{channel}/{subdir}/repodata.json"
res="$(post "$lock" "/v1/report/outdated?filename=pixi.lock" "$work/c3.json")"
check "a failing channel index: 200 ($res), 7 not answered, gap conda-index" \
  jq -e '.summary.failed == 7 and (.summary.incomplete | map(.detail) | join("; ") | test("conda-index: 1 of 1 channel indexes not read"))' "$work/c3.json" >/dev/null
kill -TERM "$pid"; wait "$pid"
sb_start "$work/s5.log" --source-date-epoch 1735689600 --lookups --pypi-url "http://127.0.0.1:$fport/pypi"

# --- an offline server --------------------------------------------------------------
kill -TERM "$pid"; wait "$pid"; st=$?
check "the server exits 0 after its lookups ($st; sanitizers: no leak)" [ "$st" = 0 ]
zero
sb_start "$work/s2.log" --source-date-epoch 1735689600 --pypi-url "http://127.0.0.1:$fport/pypi"
res="$(post "$work/r.txt" "/v1/sbom?filename=requirements.txt&yanked=true" "$work/off.json")"
check "offline server, yanked=true: 200 ($res)" [ "$res" = 200 ]
check "offline: the marker says no lookups were made" \
  has "$(mprop "$work/off.json" pixi:incomplete-detail)" "pypi-releases: 6 of 6 index lookups not made (this server makes no network lookups)"
check "offline: nothing reached the index" [ "$(count .requests)" = 0 ]
res="$(post "$work/r.txt" "/v1/sbom?filename=requirements.txt&fail-on-yanked=true" "$work/off2.json")"
check "offline: the gate cannot be evaluated here, 400 ($res)" [ "$res" = 400 ]
check "offline: feature-disabled naming --lookups" jq -e '.type == "urn:sbomd:problem:feature-disabled" and (.detail | test("--lookups"))' "$work/off2.json" > /dev/null
res="$(post "$work/r.txt" "/v1/sbom?filename=requirements.txt&fail-on-yanked=true&gate-incomplete=pass" "$work/off3.json")"
check "offline, gate-incomplete=pass: the document, 200 ($res)" [ "$res" = 200 ]
kill -TERM "$pid"; wait "$pid"; st=$?
check "the offline server exits 0 ($st)" [ "$st" = 0 ]
sb_done health
