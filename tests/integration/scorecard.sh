#!/usr/bin/env bash
# scorecard.sh BUILD_DIR - OpenSSF Scorecard (issue 29 part 3, spec 6.6, 6.7,
# 9.6) against tests/fakeindex.py on loopback, serving PyPI project pages
# (tests/data/pypi-projects: project_urls name the GitHub repositories) and
# Scorecard API answers (tests/data/scorecard, one of them a real one):
# pixi:scorecard / pixi:scorecard-date in valid CycloneDX 1.6/1.7 and SPDX
# 2.3/3.0.1, per-check properties below scorecard-min only, one question per
# repository and none for a repeated request, nothing asked without
# scorecard=true, a repository the API has not scored left bare, a failing one
# as pixi:incomplete step scorecard, the fail-on-scorecard gate's 422 (on
# /v1/sbom and a report), bad values 400, a repository from an SBOM input's
# vcs reference, and an offline server's marker.
# Ends with "scorecard: N passed, N failed".
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../lib.sh"
data="$root/tests/data"

python3 "$root/tests/fakeindex.py" --projects-dir "$data/pypi-projects" --scorecard-dir "$data/scorecard" > "$work/fake.out" 2>&1 &
pids="$pids $!"
for _ in $(seq 50); do fport="$(awk '/^port/{print $2}' "$work/fake.out")"; [ -n "$fport" ] && break; sleep 0.1; done
count() { curl -sS "http://127.0.0.1:$fport/_count" | jq "$1"; }
zero() { curl -sS -X POST "http://127.0.0.1:$fport/_zero" > /dev/null; }
cprop() { # cprop FILE COMPONENT PROPERTY -> value or ""
  jq -r --arg c "$2" --arg n "$3" '[.components[] | select(.name == $c) | .properties[]? | select(.name == $n) | .value] | first // ""' "$1"
}
has() { grep -qF -- "$2" <<< "$1"; } # has TEXT NEEDLE
mprop() { jq -r --arg n "$2" '[.metadata.properties[]? | select(.name == $n) | .value] | first // ""' "$1"; }
post() { curl -sS -o "$3" -D "$3.h" -w '%{http_code}' --data-binary @"$1" "$base$2"; }

sb_start "$work/s.log" --source-date-epoch 1735689600 --lookups --pypi-url "http://127.0.0.1:$fport/pypi" --scorecard-url "http://127.0.0.1:$fport/"
cat > "$work/r.txt" <<'R'
requests==2.32.0
urllib3==1.26.5
idna==3.7
certifi==2024.2.2
brokenscore==1.0
missingpkg==1.0
R
q="/v1/sbom?filename=requirements.txt"

# --- properties ---------------------------------------------------------------------
res="$(post "$work/r.txt" "$q&scorecard=true" "$work/s.json")"
check "scorecard=true: 200 ($res)" [ "$res" = 200 ]
check "requests: pixi:scorecard 7.9 (psf/requests, from project_urls Source)" [ "$(cprop "$work/s.json" requests pixi:scorecard)" = 7.9 ]
check "requests: pixi:scorecard-date is the run's day" [ "$(cprop "$work/s.json" requests pixi:scorecard-date)" = 2024-11-25 ]
check "urllib3: 8.9 (project_urls Code)" [ "$(cprop "$work/s.json" urllib3 pixi:scorecard)" = 8.9 ]
check "idna: 4.3" [ "$(cprop "$work/s.json" idna pixi:scorecard)" = 4.3 ]
check "certifi: the API has not scored it (404): no property" [ "$(cprop "$work/s.json" certifi pixi:scorecard)" = "" ]
n="$(jq '[.components[].properties[]? | select(.name | startswith("pixi:scorecard-check-"))] | length' "$work/s.json")"
check "no per-check properties without scorecard-min ($n)" [ "$n" = 0 ]
check "the failing repository is a gap: scorecard" has "$(mprop "$work/s.json" pixi:incomplete)" scorecard
check "the gap's detail counts repositories" has "$(mprop "$work/s.json" pixi:incomplete-detail)" "scorecard: 1 of 5 repositories unscored (lookup failed)"
check "one question per project page and per repository (6 + 5: $(count .requests))" [ "$(count .requests)" = 11 ]
check "the API path is /projects/github.com/<owner>/<repo>" \
  sh -c "curl -sS 'http://127.0.0.1:$fport/_count' | jq -e '.paths[\"/projects/github.com/psf/requests\"] == 1 and .paths[\"/projects/github.com/failing/brokenscore\"] == 1' > /dev/null"
check "properties stay sorted by name" \
  jq -e '[.components[] | select(.name == "requests") | .properties[].name | select(. != "pixi:kind")] as $n | $n == ($n | sort) and ($n | index("pixi:scorecard")) != null' "$work/s.json" >/dev/null
for f in cyclonedx-1.6 cyclonedx-1.7 spdx-2.3 spdx-3.0.1; do
  res="$(post "$work/r.txt" "$q&scorecard=true&scorecard-min=5&format=$f" "$work/$f.json")"
  check "$f: 200 ($res) and valid" sh -c "[ '$res' = 200 ] && '$validate' --auto -q '$work/$f.json'"
  check "$f: carries pixi:scorecard and a check below the minimum" \
    sh -c "grep -q 'pixi:scorecard' '$work/$f.json' && grep -q 'pixi:scorecard-check-Code-Review' '$work/$f.json'"
done
zero
res="$(post "$work/r.txt" "$q&scorecard=true" "$work/s2.json")"
check "the same request again: only the failed repository is asked again ($(count .requests))" [ "$(count .requests)" = 1 ]
check "and the same document" cmp -s "$work/s.json" "$work/s2.json"
zero
res="$(post "$work/r.txt" "$q" "$work/n.json")"
check "without scorecard=true: nothing asked ($(count .requests)), no property" \
  sh -c "[ '$(count .requests)' = 0 ] && ! grep -q pixi:scorecard '$work/n.json'"
check "scorecard=true changes the serial" \
  sh -c "[ \"\$(jq -r .serialNumber '$work/n.json')\" != \"\$(jq -r .serialNumber '$work/s.json')\" ]"

# --- scorecard-min ------------------------------------------------------------------
res="$(post "$work/r.txt" "$q&scorecard-min=5" "$work/m.json")"
check "scorecard-min=5 alone implies scorecard: 200 ($res)" sh -c "[ '$res' = 200 ] && [ '$(cprop "$work/m.json" idna pixi:scorecard)' = 4.3 ]"
check "idna: CII-Best-Practices 0 and Code-Review 0 listed" \
  sh -c "[ '$(cprop "$work/m.json" idna pixi:scorecard-check-CII-Best-Practices)' = 0 ] && [ '$(cprop "$work/m.json" idna pixi:scorecard-check-Code-Review)' = 0 ]"
check "idna: checks at or above the minimum are not (License 10)" [ "$(cprop "$work/m.json" idna pixi:scorecard-check-License)" = "" ]
check "requests: Token-Permissions 3 listed, inconclusive Packaging (-1) not" \
  sh -c "[ '$(cprop "$work/m.json" requests pixi:scorecard-check-Token-Permissions)' = 3 ] && [ '$(cprop "$work/m.json" requests pixi:scorecard-check-Packaging)' = '' ]"
check "scorecard-min changes the serial" \
  sh -c "[ \"\$(jq -r .serialNumber '$work/m.json')\" != \"\$(jq -r .serialNumber '$work/s.json')\" ]"
for bad in "scorecard-min=11" "scorecard-min=abc" "fail-on-scorecard=-1" "fail-on-scorecard=5.5.5" "scorecard=maybe"; do
  res="$(post "$work/r.txt" "$q&$bad" "$work/bad.json")"
  check "$bad: 400 ($res) naming the parameter" sh -c "[ '$res' = 400 ] && grep -q '${bad%%=*}' '$work/bad.json'"
done

# --- the gate -----------------------------------------------------------------------
res="$(post "$work/r.txt" "$q&fail-on-scorecard=5" "$work/g.json")"
check "fail-on-scorecard=5: 422 ($res)" [ "$res" = 422 ]
check "problem type scorecard, one violation: idna 3.7 at 4.3" \
  jq -e '.type == "urn:sbomd:problem:scorecard" and .violationCount == 1 and .violations[0].package == "idna" and .violations[0].version == "3.7" and .violations[0].value == "4.3" and .violations[0].rule == "fail-on-scorecard=5"' "$work/g.json" >/dev/null
check "the answer is problem+json" grep -qi '^content-type: application/problem+json' "$work/g.json.h"
res="$(post "$work/r.txt" "$q&fail-on-scorecard=4" "$work/g2.json")"
# brokenscore's repository could not be scored: a gate that would pass is not trusted on it
check "everything scored at or above 4, one unscored: the gate is unevaluated, 503 ($res)" [ "$res" = 503 ]
check "the 503 names fail-on-scorecard and the scorecard step" jq -e '.type == "urn:sbomd:problem:gate-unevaluated" and (.unevaluated | any(.gate == "fail-on-scorecard" and .step == "scorecard"))' "$work/g2.json" > /dev/null
res="$(post "$work/r.txt" "$q&fail-on-scorecard=4&gate-incomplete=pass" "$work/g2p.json")"
check "gate-incomplete=pass: the gate passes on what is known, 200 ($res)" [ "$res" = 200 ]
check "gate-incomplete=pass: Sbomd-Incomplete lists scorecard" grep -qi '^Sbomd-Incomplete: .*scorecard' "$work/g2p.json.h"
grep -v '^brokenscore' "$work/r.txt" > "$work/r3.txt"
res="$(post "$work/r3.txt" "$q&fail-on-scorecard=4" "$work/g3.json")"
check "everything scored at or above 4, nothing missing: the gate passes, 200 ($res)" [ "$res" = 200 ]
res="$(post "$work/r.txt" "$q&fail-on-scorecard=8.5" "$work/g3.json")"
check "fail-on-scorecard=8.5: requests and idna ($res, $(jq -c '[.violations[].package]' "$work/g3.json"))" \
  jq -e '.violationCount == 2 and ([.violations[].package] | sort) == ["idna", "requests"]' "$work/g3.json" >/dev/null
res="$(post "$work/r.txt" "/v1/report/packages?filename=requirements.txt&fail-on-scorecard=5" "$work/g4.json")"
check "the gate on a report: 422 ($res)" sh -c "[ '$res' = 422 ] && jq -e '.type == \"urn:sbomd:problem:scorecard\"' '$work/g4.json' > /dev/null"

# --- a repository from the record (SBOM input's vcs reference; the real API answer) -----
cat > "$work/in.cdx.json" <<'J'
{"bomFormat": "CycloneDX", "specVersion": "1.5", "version": 1,
 "metadata": {"component": {"type": "application", "bom-ref": "app", "name": "web", "version": "1.0"}},
 "components": [
  {"type": "library", "bom-ref": "q1", "name": "qs", "version": "6.11.2", "purl": "pkg:npm/qs@6.11.2",
   "externalReferences": [{"type": "vcs", "url": "git+ssh://git@github.com/ljharb/qs.git"},
                          {"type": "website", "url": "https://github.com/ljharb/qs#readme"}]}],
 "dependencies": [{"ref": "app", "dependsOn": ["q1"]}]}
J
zero
res="$(post "$work/in.cdx.json" "/v1/sbom?filename=bom.cdx.json&scorecard=true&scorecard-min=5" "$work/q.json")"
check "SBOM input: 200 ($res), valid" sh -c "[ '$res' = 200 ] && '$validate' --auto -q '$work/q.json'"
check "qs: 6.8 and 2023-05-22 from the recorded API answer" \
  sh -c "[ '$(cprop "$work/q.json" qs pixi:scorecard)' = 6.8 ] && [ '$(cprop "$work/q.json" qs pixi:scorecard-date)' = 2023-05-22 ]"
check "qs: Code-Review 0 below 5" [ "$(cprop "$work/q.json" qs pixi:scorecard-check-Code-Review)" = 0 ]
check "asked once, at /projects/github.com/ljharb/qs" \
  sh -c "curl -sS 'http://127.0.0.1:$fport/_count' | jq -e '.requests == 1 and .paths[\"/projects/github.com/ljharb/qs\"] == 1' > /dev/null"

# --- an offline server --------------------------------------------------------------
kill -TERM "$pid"; wait "$pid"
zero
sb_start "$work/s2.log" --pypi-url "http://127.0.0.1:$fport/pypi" --scorecard-url "http://127.0.0.1:$fport"
res="$(post "$work/in.cdx.json" "/v1/sbom?filename=bom.cdx.json&scorecard=true" "$work/off.json")"
check "offline server, scorecard=true: 200 ($res)" [ "$res" = 200 ]
check "offline: the marker says no lookups were made" \
  has "$(mprop "$work/off.json" pixi:incomplete-detail)" "scorecard: 1 of 1 repositories unscored (this server makes no network lookups)"
check "offline: nothing reached the API" [ "$(count .requests)" = 0 ]
res="$(post "$work/in.cdx.json" "/v1/sbom?filename=bom.cdx.json&fail-on-scorecard=9" "$work/off2.json")"
check "offline: the gate cannot be evaluated here, 400 ($res)" [ "$res" = 400 ]
check "offline: feature-disabled naming --lookups" jq -e '.type == "urn:sbomd:problem:feature-disabled" and (.detail | test("--lookups"))' "$work/off2.json" > /dev/null
kill -TERM "$pid"; wait "$pid"; st=$?
check "the offline server exits 0 ($st)" [ "$st" = 0 ]
sb_done scorecard
