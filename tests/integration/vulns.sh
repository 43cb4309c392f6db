#!/usr/bin/env bash
# vulns.sh BUILD_DIR - PyPI identities and OSV findings against
# tests/integration/fake_osv.py on loopback (records in tests/data/osv):
# findings with ratings and affects refs that resolve, twins merged, valid
# CycloneDX 1.6/1.7 and SPDX 3.0.1, SPDX 2.3's Warning, the mapping file and
# primary-purl=pypi, the gate's 422, the report, a repeated request served
# from the cache, and every upstream failure (500s, a timeout, a server
# without --vulnerabilities) as pixi:incomplete step osv in a 200 document.
# KEV and EPSS (the same fake serves a KEV feed and the EPSS API, or local
# files): annotations in CycloneDX / SPDX 3.0.1 / the report, fail-on-kev and
# fail-on-epss, their upstreams failing as steps kev / epss. VEX parts
# (CycloneDX VEX, OpenVEX) settling findings for the gates, the report and
# SARIF suppressions; the SARIF logs checked against the SARIF 2.1.0 schema.
# output=vex: component-less CycloneDX 1.6/1.7 VEX documents whose affects
# refs are BOM-Links that resolve (serial, version, bom-ref) into the SBOM of
# the same request, checked in Python; a vex part's analysis carried over.
# OSV pagination (fake modes paged / endless): next_page_token followed with
# page_token, at most 10 pages a query, the rest as pixi:incomplete osv.
# Ends with "vulns: N passed, N failed".
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../lib.sh"
data="$root/tests/data"

fake() { # fake NAME MODE -> sets $fport
  python3 "$here/fake_osv.py" "$data/osv" 0 "$2" > "$work/$1.port" 2> "$work/$1.err" &
  pids="$pids $!"
  fport=""
  for _ in $(seq 50); do fport="$(head -1 "$work/$1.port" 2>/dev/null)"; [ -n "$fport" ] && break; sleep 0.1; done
}
stats() { curl -sS "http://127.0.0.1:$1/stats" | jq -r "$2"; }
post() { # post FILE QUERY OUT -> http code
  curl -sS -o "$3" -D "$3.h" -w '%{http_code}' --data-binary @"$1" "$base/v1/sbom?$2"
}
valid() { "$validate" --auto -q "$1"; }
prop() { jq -r --arg n "$2" '[.metadata.properties[] | select(.name == $n) | .value] | first // ""' "$1"; }

fake ok ok;             ok_port="$fport"
fake b500 batch500;     b500_port="$fport"
fake v500 vuln500;      v500_port="$fport"
fake slow slow;         slow_port="$fport"

fake k500 kev500;       k500_port="$fport"
fake pg paged;          pg_port="$fport"
fake en endless;        en_port="$fport"
fake e500 epss500;      e500_port="$fport"
exploit_urls() { echo --kev-url "http://127.0.0.1:$1/kev.json" --epss-url "http://127.0.0.1:$1/data/v1/epss"; }

sb_start "$work/s.log" --source-date-epoch 1700000000 --vulnerabilities --osv-url "http://127.0.0.1:$ok_port" \
  --pypi-mapping-file "$data/vulns/mapping.json" $(exploit_urls "$ok_port")
uv="$data/vulns/uv.lock"; px="$data/vulns/pixi.lock"
jinja_uv="pkg:pypi/jinja2@2.10"

# --- uv.lock: findings, ratings, affects -------------------------------------------
for f in cyclonedx-1.6 cyclonedx-1.7; do
  res="$(post "$uv" "filename=uv.lock&vulnerabilities=osv&format=$f" "$work/$f.json")"
  check "$f: 200 ($res)" [ "$res" = 200 ]
  check "$f: schema-valid" valid "$work/$f.json"
  check "$f: two findings (GHSA/PYSEC twins merged)" [ "$(jq '.vulnerabilities | length' "$work/$f.json")" = 2 ]
  check "$f: worst first" [ "$(jq -r '.vulnerabilities[0].id' "$work/$f.json")" = GHSA-462w-v97r-4m45 ]
  check "$f: every affects ref is a component bom-ref" [ "$(jq '[.components[]."bom-ref"] as $r | [.vulnerabilities[].affects[].ref | select(. as $x | $r | index($x) | not)] | length' "$work/$f.json")" = 0 ]
  check "$f: affects jinja2" [ "$(jq -r '.vulnerabilities[0].affects[0].ref' "$work/$f.json")" = "$jinja_uv" ]
  check "$f: CVSS 3.0 vector with its computed base score 8.6" \
    [ "$(jq -c '.vulnerabilities[0].ratings[] | select(.method == "CVSSv3") | [.score, .severity, .vector]' "$work/$f.json")" = '[8.6,"high","CVSS:3.0/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:N/A:N"]' ]
  check "$f: database severity as method other" [ "$(jq -c '.vulnerabilities[1].ratings[] | select(.method == "other") | .severity' "$work/$f.json")" = '"medium"' ]
  check "$f: CVSS 3.1 score 5.4" [ "$(jq '.vulnerabilities[1].ratings[] | select(.method == "CVSSv31") | .score' "$work/$f.json")" = 5.4 ]
  check "$f: aliases merged as references" [ "$(jq -c '[.vulnerabilities[0].references[].id] | sort' "$work/$f.json")" = '["CVE-2019-10906","PYSEC-2019-217"]' ]
  check "$f: cwes, recommendation, bom-ref" [ "$(jq -c '.vulnerabilities[0] | [.cwes, .recommendation, ."bom-ref", .source.name]' "$work/$f.json")" = '[[693],"Upgrade jinja2 to 2.10.1","vuln-GHSA-462w-v97r-4m45","OSV"]' ]
  check "$f: complete: no osv step" [ "$(prop "$work/$f.json" pixi:incomplete | grep -c osv)" = 0 ]
done
check "1.6 and 1.7 findings agree" [ "$(jq -c .vulnerabilities "$work/cyclonedx-1.6.json")" = "$(jq -c .vulnerabilities "$work/cyclonedx-1.7.json")" ]
res="$(post "$uv" "filename=uv.lock&format=cyclonedx-1.6" "$work/plain.json")"
check "without vulnerabilities=osv: no vulnerabilities key" [ "$(jq 'has("vulnerabilities")' "$work/plain.json")" = false ]
check "serial differs with vulnerabilities=osv" [ "$(jq -r .serialNumber "$work/plain.json")" != "$(jq -r .serialNumber "$work/cyclonedx-1.6.json")" ]

# the second identical request is answered from the cache: no new transfer
before="$(stats "$ok_port" '.querybatch + .vulns')"
post "$uv" "filename=uv.lock&vulnerabilities=osv" "$work/again.json" > /dev/null
check "repeat request: no new OSV transfer" [ "$(stats "$ok_port" '.querybatch + .vulns')" = "$before" ]
check "repeat request: same findings" [ "$(jq -c .vulnerabilities "$work/again.json")" = "$(jq -c .vulnerabilities "$work/cyclonedx-1.6.json")" ]
check "only PyPI index purls asked (jinja2, markupsafe, six)" [ "$(stats "$ok_port" .queries)" = 3 ]

# --- SPDX 3.0.1 and 2.3 -------------------------------------------------------------
res="$(post "$uv" "filename=uv.lock&vulnerabilities=osv&format=spdx-3.0.1" "$work/s3.json")"
check "spdx-3.0.1: 200 and schema-valid" valid "$work/s3.json"
check "spdx-3.0.1: two security_Vulnerability" [ "$(jq '[."@graph"[] | select(.type == "security_Vulnerability")] | length' "$work/s3.json")" = 2 ]
check "spdx-3.0.1: CVSS v3 assessments with scores" [ "$(jq -c '[."@graph"[] | select(.type == "security_CvssV3VulnAssessmentRelationship") | .security_score] | sort' "$work/s3.json")" = '[5.4,8.6]' ]
check "spdx-3.0.1: hasAssociatedVulnerability from a package in the graph" [ "$(jq '[."@graph"[] | .spdxId] as $ids | [."@graph"[] | select(.relationshipType == "hasAssociatedVulnerability") | .from | select(. as $f | $ids | index($f))] | length' "$work/s3.json")" = 2 ]
check "spdx-3.0.1: security profile" [ "$(jq '[."@graph"[] | select(.type == "software_Sbom") | .profileConformance[] | select(. == "security")] | length' "$work/s3.json")" = 1 ]
res="$(post "$uv" "filename=uv.lock&vulnerabilities=osv&format=spdx-2.3" "$work/s2.json")"
check "spdx-2.3: 200 ($res) and valid" valid "$work/s2.json"
check "spdx-2.3: Warning says it cannot hold findings" grep -qi '^Warning: 299 sbomd "SPDX 2.3 cannot hold vulnerability findings: 2' "$work/s2.json.h"

# --- pixi.lock: mapping, primary purl ------------------------------------------------
jconda='pkg:conda/jinja2@2.10?build=py_1&channel=conda-forge&subdir=noarch&type=tar.bz2'
res="$(post "$px" "filename=pixi.lock&vulnerabilities=osv" "$work/px.json")"
check "pixi: 200 ($res) and valid" valid "$work/px.json"
check "pixi: mapped PyPI identity + pixi:pypi-mapping=file" [ "$(jq -c --arg r "$jconda" '.components[] | select(."bom-ref" == $r) | [.purl, [.properties[] | select(.name == "pixi:purl" or .name == "pixi:pypi-mapping") | .value]]' "$work/px.json")" = "[\"$jconda\",[\"file\",\"pkg:pypi/jinja2@2.10\"]]" ]
check "pixi: purls: as recorded (markupsafe), no mapping marker" [ "$(jq -c '.components[] | select(.name == "markupsafe") | [.properties[] | select(.name == "pixi:purl" or .name == "pixi:pypi-mapping") | .value]' "$work/px.json")" = '["pkg:pypi/markupsafe@1.1.1"]' ]
check "pixi: purls: [] keeps zlib unmapped" [ "$(jq -c '.components[] | select(.name == "zlib") | [.properties[] | select(.name == "pixi:purl")] | length' "$work/px.json")" = 0 ]
check "pixi: the mapped conda package has both findings" [ "$(jq -c --arg r "$jconda" '[.vulnerabilities[] | select(.affects[].ref == $r) | .id]' "$work/px.json")" = '["GHSA-462w-v97r-4m45","GHSA-h5c8-rqwp-cp95"]' ]
res="$(post "$px" "filename=pixi.lock&vulnerabilities=osv&primary-purl=pypi" "$work/pp.json")"
check "primary-purl=pypi: valid" valid "$work/pp.json"
check "primary-purl=pypi: purl swapped, bom-ref kept" [ "$(jq -c --arg r "$jconda" '.components[] | select(."bom-ref" == $r) | [.purl, [.properties[] | select(.name == "pixi:purl") | .value]]' "$work/pp.json")" = "[\"pkg:pypi/jinja2@2.10\",[\"$jconda\"]]" ]
check "primary-purl=pypi: affects still resolve" [ "$(jq '[.components[]."bom-ref"] as $r | [.vulnerabilities[].affects[].ref | select(. as $x | $r | index($x) | not)] | length' "$work/pp.json")" = 0 ]
check "primary-purl=pypi: serial differs" [ "$(jq -r .serialNumber "$work/pp.json")" != "$(jq -r .serialNumber "$work/px.json")" ]
res="$(post "$px" "filename=pixi.lock&vulnerabilities=osv&primary-purl=pypi&format=spdx-3.0.1" "$work/pp3.json")"
check "primary-purl=pypi spdx-3.0.1: valid" valid "$work/pp3.json"
res="$(post "$px" "filename=pixi.lock&primary-purl=npm" "$work/bad.json")"
check "primary-purl=npm: 400 ($res)" [ "$res" = 400 ]

# --- --pypi-mapping-url: fetched at start, refreshed, a copy kept in --cache-dir -------
mapped_px() { jq -c --arg r "$jconda" '.components[] | select(."bom-ref" == $r) | [.properties[] | select(.name == "pixi:purl" or .name == "pixi:pypi-mapping") | .value]' "$1"; }
keep_base="$base"
mkdir -p "$work/mapcache"
sb_start "$work/mu.log" --source-date-epoch 1700000000 --vulnerabilities --osv-url "http://127.0.0.1:$ok_port" \
  --pypi-mapping-url "http://127.0.0.1:$ok_port/mapping.json" --pypi-mapping-ttl 1 --cache-dir "$work/mapcache"
res="$(post "$px" "filename=pixi.lock&vulnerabilities=osv" "$work/mu.json")"
check "pypi-mapping-url: 200 ($res), the conda jinja2 mapped as with the file" [ "$(mapped_px "$work/mu.json")" = '["file","pkg:pypi/jinja2@2.10"]' ]
check "pypi-mapping-url: same document as pypi-mapping-file (same mapping bytes, same serial)" [ "$(jq -c 'del(.metadata.timestamp)' "$work/mu.json")" = "$(jq -c 'del(.metadata.timestamp)' "$work/px.json")" ]
check "pypi-mapping-url: a copy kept in cache-dir" cmp -s "$work/mapcache/pypi-mapping.json" "$data/vulns/mapping.json"
m0="$(stats "$ok_port" .mapping)"; sleep 2.5
check "pypi-mapping-url: refreshed every pypi-mapping-ttl ($m0 -> $(stats "$ok_port" .mapping))" [ "$(stats "$ok_port" .mapping)" -gt "$m0" ]
res="$(post "$px" "filename=pixi.lock&vulnerabilities=osv" "$work/mu2.json")"
check "pypi-mapping-url: requests after a refresh still map ($res)" [ "$(mapped_px "$work/mu2.json")" = '["file","pkg:pypi/jinja2@2.10"]' ]
sb_start "$work/mc.log" --source-date-epoch 1700000000 --pypi-mapping-url "http://127.0.0.1:$b500_port/mapping.json" --cache-dir "$work/mapcache"
res="$(post "$px" "filename=pixi.lock" "$work/mc.json")"
check "pypi-mapping-url failing at start: the cached copy maps ($res)" [ "$(mapped_px "$work/mc.json")" = '["file","pkg:pypi/jinja2@2.10"]' ]
check "pypi-mapping-url failing: logged" grep -q 'pypi mapping fetch failed' "$work/mc.log"
sb_start "$work/mn.log" --source-date-epoch 1700000000 --pypi-mapping-url "http://127.0.0.1:$b500_port/mapping.json"
res="$(post "$px" "filename=pixi.lock" "$work/mn.json")"
check "pypi-mapping-url failing, no copy: the server runs, jinja2 unmapped ($res)" [ "$res:$(mapped_px "$work/mn.json")" = '200:[]' ]
# a refresh that brings other mapping bytes: the result cache never answers from the old mapping's document
mkdir -p "$work/mapsrv"; cp "$data/vulns/mapping.json" "$work/mapsrv/mapping.json"
(cd "$work/mapsrv" && exec python3 -m http.server 0 --bind 127.0.0.1) > "$work/mapsrv.log" 2>&1 &
pids="$pids $!"; mport=""
for _ in $(seq 50); do mport="$(grep -o 'port [0-9]*' "$work/mapsrv.log" 2>/dev/null | grep -o '[0-9]*$' | head -1)"; [ -n "$mport" ] && break; sleep 0.1; done
sb_start "$work/mr.log" --source-date-epoch 1700000000 --pypi-mapping-url "http://127.0.0.1:$mport/mapping.json" --pypi-mapping-ttl 1
post "$px" "filename=pixi.lock" "$work/mr1.json" > /dev/null
res="$(post "$px" "filename=pixi.lock" "$work/mr2.json")"
check "pypi-mapping-url: a repeat is answered from the result cache ($res, hits $(curl -sS "$base/metrics" | awk '/^sbomd_result_cache_hits_total/{print $2}'))" \
  sh -c "[ \"\$(curl -sS '$base/metrics' | awk '/^sbomd_result_cache_hits_total/{print \$2}')\" -ge 1 ] && [ '$(mapped_px "$work/mr2.json")' = '[\"file\",\"pkg:pypi/jinja2@2.10\"]' ]"
printf '{"jinja2": null}\n' > "$work/mapsrv/mapping.json.new" && mv "$work/mapsrv/mapping.json.new" "$work/mapsrv/mapping.json"
for _ in $(seq 50); do grep -q '"pypi mapping loaded","detail":"1 conda names' "$work/mr.log" && break; sleep 0.1; done
res="$(post "$px" "filename=pixi.lock" "$work/mr3.json")"
check "pypi-mapping-url: after a refresh with other bytes, the same request gets the new mapping's document, not the cached one ($res: $(mapped_px "$work/mr3.json"))" \
  [ "$(mapped_px "$work/mr3.json")" = '[]' ]
check "pypi-mapping-file and -url together: refused at start" sh -c "! '$bin' --pypi-mapping-file '$data/vulns/mapping.json' --pypi-mapping-url http://127.0.0.1:1/m.json --check-config >/dev/null 2>&1"
base="$keep_base"

# --- the gate ------------------------------------------------------------------------
res="$(post "$uv" "filename=uv.lock&vulnerabilities=osv&fail-on-severity=high" "$work/gate.json")"
check "fail-on-severity=high: 422 ($res)" [ "$res" = 422 ]
check "gate: problem type vulnerable, one violation" [ "$(jq -c '[.type, .violationCount, .violations[0].value, .violations[0].package]' "$work/gate.json")" = '["urn:sbomd:problem:vulnerable",1,"GHSA-462w-v97r-4m45","jinja2"]' ]
res="$(post "$uv" "filename=uv.lock&vulnerabilities=osv&fail-on-severity=medium" "$work/gate2.json")"
check "fail-on-severity=medium: 422 with two ($res)" [ "$res:$(jq .violationCount "$work/gate2.json")" = 422:2 ]
res="$(post "$uv" "filename=uv.lock&vulnerabilities=osv&fail-on-severity=critical" "$work/gate3.json")"
check "fail-on-severity=critical: 200 document ($res)" [ "$res" = 200 ]
res="$(post "$uv" "filename=uv.lock&fail-on-severity=high" "$work/gate5.json")"
check "fail-on-severity without vulnerabilities=osv: 400 ($res)" [ "$res" = 400 ]
res="$(post "$uv" "filename=uv.lock&vulnerabilities=osv&fail-on-severity=severe" "$work/gate6.json")"
check "fail-on-severity=severe: 400 ($res)" [ "$res" = 400 ]
res="$(post "$uv" "filename=uv.lock&vulnerabilities=nvd" "$work/gate7.json")"
check "vulnerabilities=nvd: 400 ($res)" [ "$res" = 400 ]

# --- KEV and EPSS ---------------------------------------------------------------------
vprop() { jq -r --arg id "$2" --arg n "$3" '[.vulnerabilities[] | select(.id == $id) | .properties // [] | .[] | select(.name == $n) | .value] | first // ""' "$1"; }
g1=GHSA-462w-v97r-4m45; g2=GHSA-h5c8-rqwp-cp95
for f in cyclonedx-1.6 cyclonedx-1.7; do
  res="$(post "$uv" "filename=uv.lock&vulnerabilities=osv&kev=true&epss=true&format=$f" "$work/ke-$f.json")"
  check "kev+epss $f: 200 ($res) and schema-valid" valid "$work/ke-$f.json"
  check "kev $f: the CVE-2019-10906 finding is known exploited, with its catalog dates" [ "$(vprop "$work/ke-$f.json" $g1 pixi:kev),$(vprop "$work/ke-$f.json" $g1 pixi:kev-cve),$(vprop "$work/ke-$f.json" $g1 pixi:kev-date-added),$(vprop "$work/ke-$f.json" $g1 pixi:kev-due-date),$(vprop "$work/ke-$f.json" $g1 pixi:kev-ransomware)" = "true,CVE-2019-10906,2026-11-20,2026-12-11,Unknown" ]
  check "kev $f: the other finding is not" [ "$(vprop "$work/ke-$f.json" $g2 pixi:kev)" = "" ]
  check "epss $f: scores as FIRST wrote them" [ "$(vprop "$work/ke-$f.json" $g1 pixi:epss),$(vprop "$work/ke-$f.json" $g1 pixi:epss-percentile),$(vprop "$work/ke-$f.json" $g1 pixi:epss-cve),$(vprop "$work/ke-$f.json" $g1 pixi:epss-date)" = "0.012450000,0.785310000,CVE-2019-10906,2026-12-01" ]
  check "epss $f: the second finding's CVE scored too" [ "$(vprop "$work/ke-$f.json" $g2 pixi:epss)" = 0.000950000 ]
done
check "kev+epss: serial differs from findings alone" [ "$(jq -r .serialNumber "$work/ke-cyclonedx-1.6.json")" != "$(jq -r .serialNumber "$work/cyclonedx-1.6.json")" ]
check "epss: one request for both CVEs" [ "$(stats "$ok_port" '[.epss, (.epss_cves | sort | join(","))] | map(tostring) | join(":")')" = "1:CVE-2019-10906,CVE-2024-22195" ]
post "$uv" "filename=uv.lock&vulnerabilities=osv&kev=true&epss=true" "$work/ke-again.json" > /dev/null
check "kev+epss repeat: catalog and scores from the cache" [ "$(stats "$ok_port" '[.kev, .epss] | map(tostring) | join(",")')" = "1,1" ]
res="$(post "$uv" "filename=uv.lock&vulnerabilities=osv&kev=true&epss=true&format=spdx-3.0.1" "$work/ke3.json")"
check "kev+epss spdx-3.0.1: valid" valid "$work/ke3.json"
check "spdx-3.0.1: a KEV exploit-catalog assessment" [ "$(jq -c '[."@graph"[] | select(.type == "security_ExploitCatalogVulnAssessmentRelationship") | [.security_catalogType, .security_exploited, .relationshipType]]' "$work/ke3.json")" = '[["kev",true,"hasAssessmentFor"]]' ]
check "spdx-3.0.1: two EPSS assessments" [ "$(jq -c '[."@graph"[] | select(.type == "security_EpssVulnAssessmentRelationship") | .security_probability] | sort' "$work/ke3.json")" = '["0.000950000","0.012450000"]' ]
check "spdx-3.0.1: every assessment is listed in the Sbom's elements" [ "$(jq '[."@graph"[] | select(.type == "software_Sbom") | .element[]] as $e | [."@graph"[] | select(.type | test("Assessment")) | .spdxId | select(. as $x | $e | index($x) | not)] | length' "$work/ke3.json")" = 0 ]
res="$(post "$uv" "filename=uv.lock&vulnerabilities=osv&fail-on-kev=true" "$work/gk.json")"
check "fail-on-kev=true: 422 ($res)" [ "$res" = 422 ]
check "fail-on-kev: the KEV finding, rule kev" [ "$(jq -c '[.violationCount, .violations[0].rule, .violations[0].value, .violations[0].package]' "$work/gk.json")" = "[1,\"kev\",\"$g1\",\"jinja2\"]" ]
res="$(post "$uv" "filename=uv.lock&vulnerabilities=osv&fail-on-epss=0.01" "$work/ge.json")"
check "fail-on-epss=0.01: 422 with the one finding above it ($res)" [ "$res:$(jq -c '[.violationCount, .violations[0].value, .violations[0].rule]' "$work/ge.json")" = "422:[1,\"$g1\",\"epss>=0.01\"]" ]
res="$(post "$uv" "filename=uv.lock&vulnerabilities=osv&fail-on-epss=0.0005" "$work/ge2.json")"
check "fail-on-epss=0.0005: both findings ($res)" [ "$res:$(jq .violationCount "$work/ge2.json")" = 422:2 ]
res="$(post "$uv" "filename=uv.lock&vulnerabilities=osv&fail-on-epss=0.5" "$work/ge3.json")"
check "fail-on-epss=0.5: 200 document ($res)" [ "$res" = 200 ]
for bad in 1.5 -0.1 abc 0.1.2; do
  res="$(post "$uv" "filename=uv.lock&vulnerabilities=osv&fail-on-epss=$bad" "$work/gebad.json")"
  check "fail-on-epss=$bad: 400 ($res)" [ "$res" = 400 ]
done
res="$(post "$uv" "filename=uv.lock&kev=true" "$work/kevnov.json")"
check "kev=true without vulnerabilities=osv: 400 ($res)" [ "$res" = 400 ]
res="$(curl -sS -o "$work/rk.json" -w '%{http_code}' --data-binary @"$uv" "$base/v1/report/vulnerabilities?filename=uv.lock&kev=true&epss=true")"
check "report with kev+epss: 200 ($res)" [ "$res" = 200 ]
check "report json: kev and epss per row, known_exploited in the summary" [ "$(jq -c '[[.vulnerabilities[] | [.id, .kev, .epss]], .summary.known_exploited]' "$work/rk.json")" = "[[[\"$g1\",true,\"0.012450000\"],[\"$g2\",false,\"0.000950000\"]],1]" ]
curl -sS -o "$work/rk.csv" --data-binary @"$uv" "$base/v1/report/vulnerabilities?filename=uv.lock&kev=true&epss=true&output=csv"
check "report with kev+epss: csv and json hold to openapi/reports.schema.json" \
  python3 "$here/check-schema.py" "$root/openapi/reports.schema.json" vulnerabilities "$work/rk.json" "$work/rk.csv"
curl -sS -o "$work/rk.txt" --data-binary @"$uv" "$base/v1/report/vulnerabilities?filename=uv.lock&kev=true&epss=true&output=text"
check "report text: KEV and EPSS columns" [ "$(head -1 "$work/rk.txt" | awk '{print $5, $6}'):$(grep "$g1" "$work/rk.txt" | awk '{print $5, $6}')" = "KEV EPSS:yes 0.01245" ]
check "report text: summary counts the known-exploited" grep -q 'known-exploited: 1;' "$work/rk.txt"
curl -sS -o "$work/rk.sarif" --data-binary @"$uv" "$base/v1/report/vulnerabilities?filename=uv.lock&kev=true&output=sarif"
check "report sarif: a KEV finding's security-severity is 10.0" [ "$(jq -r --arg id "$g1" '.runs[0].tool.driver.rules[] | select(.id == $id) | .properties."security-severity"' "$work/rk.sarif")" = 10.0 ]
# a local catalog and a local EPSS answer instead of the URLs; failures of each upstream
sb_start "$work/kf.log" --source-date-epoch 1700000000 --vulnerabilities --osv-url "http://127.0.0.1:$ok_port" \
  --kev-file "$data/kev/known_exploited_vulnerabilities.json" --epss-file "$data/epss/epss.json"
kb="$(stats "$ok_port" '.kev + .epss')"
res="$(post "$uv" "filename=uv.lock&vulnerabilities=osv&kev=true&epss=true" "$work/kf.json")"
check "kev-file/epss-file: 200 ($res), same annotations as the URLs" [ "$(jq -c '[.vulnerabilities[].properties]' "$work/kf.json")" = "$(jq -c '[.vulnerabilities[].properties]' "$work/ke-cyclonedx-1.6.json")" ]
check "kev-file/epss-file: no transfer" [ "$(stats "$ok_port" '.kev + .epss')" = "$kb" ]
sb_start "$work/kx.log" --source-date-epoch 1700000000 --vulnerabilities --osv-url "http://127.0.0.1:$ok_port" $(exploit_urls "$k500_port")
res="$(post "$uv" "filename=uv.lock&vulnerabilities=osv&kev=true" "$work/kx.json")"
check "KEV upstream 500: 200 ($res), valid" valid "$work/kx.json"
check "KEV upstream 500: pixi:incomplete kev" grep -q 'kev: catalog not read from http' <<< "$(prop "$work/kx.json" pixi:incomplete-detail)"
check "KEV upstream 500: findings kept, unmarked" [ "$(jq -r '[(.vulnerabilities | length), ([.vulnerabilities[].properties // [] | .[]] | length)] | map(tostring) | join(",")' "$work/kx.json")" = "2,0" ]
res="$(post "$uv" "filename=uv.lock&vulnerabilities=osv&fail-on-kev=true" "$work/kx2.json")"
# the gate fails closed: without the catalog it cannot pass (gates.sh has the rest)
check "KEV upstream 500: fail-on-kev is unevaluated, 503 ($res)" [ "$res" = 503 ]
check "KEV upstream 500: the 503 names the gate and the step" jq -e '.type == "urn:sbomd:problem:gate-unevaluated" and (.unevaluated | any(.gate == "fail-on-kev" and .step == "kev"))' "$work/kx2.json" > /dev/null
res="$(post "$uv" "filename=uv.lock&vulnerabilities=osv&fail-on-kev=true&gate-incomplete=pass" "$work/kx3.json")"
check "KEV upstream 500, gate-incomplete=pass: 200 with kev incomplete ($res)" [ "$res:$(prop "$work/kx3.json" pixi:incomplete | grep -c kev)" = 200:1 ]
sb_start "$work/ex.log" --source-date-epoch 1700000000 --vulnerabilities --osv-url "http://127.0.0.1:$ok_port" $(exploit_urls "$e500_port")
res="$(post "$uv" "filename=uv.lock&vulnerabilities=osv&epss=true" "$work/ex.json")"
check "EPSS upstream 500: 200 ($res), valid" valid "$work/ex.json"
check "EPSS upstream 500: pixi:incomplete epss" grep -q 'epss: 2 of 2 CVEs unscored (query failed)' <<< "$(prop "$work/ex.json" pixi:incomplete-detail)"
sb_start "$work/s2.log" --source-date-epoch 1700000000 --vulnerabilities --osv-url "http://127.0.0.1:$ok_port" \
  --pypi-mapping-file "$data/vulns/mapping.json" $(exploit_urls "$ok_port")

# --- the report ----------------------------------------------------------------------
rep() { curl -sS -o "$2" -w '%{http_code}' --data-binary @"$uv" "$base/v1/report/vulnerabilities?filename=uv.lock&$1"; }
res="$(rep output=json "$work/r.json")"
check "report json: 200 ($res)" [ "$res" = 200 ]
check "report json: rows worst first" [ "$(jq -c '[.vulnerabilities[] | [.name, .id, .severity, .score, .fixed]]' "$work/r.json")" = '[["jinja2","GHSA-462w-v97r-4m45","high",8.6,"2.10.1"],["jinja2","GHSA-h5c8-rqwp-cp95","medium",5.4,"3.1.3"]]' ]
check "report json: summary" [ "$(jq -c '.summary | [.queryable, .findings, .high, .medium]' "$work/r.json")" = '[3,2,1,1]' ]
res="$(rep output=text "$work/r.txt")"
check "report text: header and two rows" [ "$(grep -c 'jinja2   2.10' "$work/r.txt"):$(head -1 "$work/r.txt" | awk '{print $1, $3, $6}')" = "2:Package Severity ID" ]
check "report text: summary line" grep -q '^Summary: 2 finding(s) in 2 package row(s): 0 critical, 1 high, 1 medium' "$work/r.txt"
res="$(rep output=markdown "$work/r.md")"
check "report markdown: heading, rule, rows" [ "$(grep -c '^## vulnerabilities\|^|---|\|^| jinja2 |' "$work/r.md")" = 4 ]
res="$(rep output=csv "$work/r.csv")"
check "report csv: header + 2 rows, the aliases joined with ';' (quoted: a separator in some locales)" [ "$(wc -l < "$work/r.csv"):$(grep -c ',"CVE-2019-10906;PYSEC-2019-217",' "$work/r.csv")" = "3:1" ]
check "report csv and json: the columns of openapi/reports.schema.json, cells as the JSON's" \
  python3 "$here/check-schema.py" "$root/openapi/reports.schema.json" vulnerabilities "$work/r.json" "$work/r.csv"
res="$(rep output=sarif "$work/r.sarif")"
check "report sarif: 200 ($res)" [ "$res" = 200 ]
check "report sarif: 2.1.0, one rule per finding, one result per row" [ "$(jq -c '[.version, (.runs | length), (.runs[0].tool.driver.rules | length), (.runs[0].results | length)]' "$work/r.sarif")" = '["2.1.0",1,2,2]' ]
check "report sarif: levels and security-severity" [ "$(jq -c '[.runs[0].results[].level, .runs[0].tool.driver.rules[].properties."security-severity"]' "$work/r.sarif")" = '["error","warning","8.6","5.4"]' ]
check "report sarif: the tool is sbomd, OSV an extension (the driver does not claim osv.dev)" \
  jq -e '.runs[0].tool | .driver.name == "sbomd" and (.driver | has("informationUri") | not) and .extensions == [{"name": "OSV", "informationUri": "https://osv.dev"}]' "$work/r.sarif" > /dev/null
check "report sarif: every result's rule exists" [ "$(jq '[.runs[0].tool.driver.rules[].id] as $r | [.runs[0].results[].ruleId | select(. as $x | $r | index($x) | not)] | length' "$work/r.sarif")" = 0 ]
check "report sarif: location and fingerprint" [ "$(jq -c '.runs[0].results[0] | [.locations[0].physicalLocation.artifactLocation.uri, .locations[0].physicalLocation.artifactLocation.uriBaseId, .partialFingerprints["pixi-sbom/purl|environment|platform"]]' "$work/r.sarif")" = '["uv.lock","%SRCROOT%","pkg:pypi/jinja2@2.10|default|linux-64"]' ]
res="$(rep "output=sarif&fail-on-severity=high" "$work/r422.json")"
check "report with fail-on-severity=high: 422 ($res)" [ "$res" = 422 ]
for o in json:json text:txt markdown:md csv:csv sarif:sarif; do # every output against its reviewed golden
  golden "uv-vulns.vulnerabilities.${o#*:}" "$work/r.${o#*:}"
done
res="$(curl -sS -o /dev/null -w '%{http_code}' -H 'Accept: application/sarif+json' --data-binary @"$uv" "$base/v1/report/vulnerabilities?filename=uv.lock")"
check "report: Accept application/sarif+json ($res)" [ "$res" = 200 ]

# --- VEX: a multipart part `vex` (CycloneDX VEX or OpenVEX) --------------------------
vpost() { # vpost VEXFILE QUERY OUT [LOCKFILE] -> http code
  curl -sS -o "$3" -D "$3.h" -w '%{http_code}' -F "lockfile=@${4:-$uv};filename=uv.lock" -F "vex=@$1" "$base/v1/${V_EP:-sbom}?$2"
}
cvex="$data/vex/cyclonedx-vex.json"; ovex="$data/vex/openvex.json"
an() { jq -c --arg id "$2" '[.vulnerabilities[] | select(.id == $id) | .analysis // null] | first' "$1"; }
res="$(vpost "$cvex" "vulnerabilities=osv&fail-on-severity=high" "$work/vx1.json")"
check "CycloneDX VEX not_affected: fail-on-severity=high no longer fires: 200 ($res)" [ "$res" = 200 ]
check "CycloneDX VEX: schema-valid" valid "$work/vx1.json"
check "CycloneDX VEX: the finding carries the analysis (matched by its CVE alias and BOM-Link)" [ "$(an "$work/vx1.json" $g1)" = '{"state":"not_affected","justification":"code_not_reachable","detail":"demo never renders untrusted templates in a sandbox"}' ]
check "CycloneDX VEX: pixi:vex-source names the document" [ "$(vprop "$work/vx1.json" $g1 pixi:vex-source)" = "cyclonedx:urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79" ]
check "CycloneDX VEX: a statement for another product (flask) does not apply" [ "$(an "$work/vx1.json" $g2)" = null ]
check "VEX: serial differs from the findings alone" [ "$(jq -r .serialNumber "$work/vx1.json")" != "$(jq -r .serialNumber "$work/cyclonedx-1.6.json")" ]
res="$(vpost "$cvex" "vulnerabilities=osv&fail-on-severity=medium" "$work/vx2.json")"
check "CycloneDX VEX: fail-on-severity=medium still fires for the open one ($res)" [ "$res:$(jq -c '[.violationCount, .violations[0].value]' "$work/vx2.json")" = "422:[1,\"$g2\"]" ]
res="$(vpost "$ovex" "vulnerabilities=osv&fail-on-severity=medium&format=cyclonedx-1.7" "$work/vx3.json")"
check "OpenVEX not_affected by purl: the medium one settled, the high one still fails ($res)" [ "$res:$(jq -c '[.violationCount, .violations[0].value]' "$work/vx3.json")" = "422:[1,\"$g1\"]" ]
res="$(vpost "$ovex" "vulnerabilities=osv&format=cyclonedx-1.7" "$work/vx4.json")"
check "OpenVEX: valid 1.7 with the analysis in CycloneDX words ($res)" [ "$(valid "$work/vx4.json" && an "$work/vx4.json" $g2)" = '{"state":"not_affected","justification":"code_not_reachable","detail":"xmlattr is not used with user-supplied keys"}' ]
check "OpenVEX: 'fixed' for jinja2 3.1.4 does not touch 2.10" [ "$(an "$work/vx4.json" $g1)" = null ]
res="$(vpost "$ovex" "vulnerabilities=osv&format=spdx-3.0.1" "$work/vx5.json")"
check "OpenVEX spdx-3.0.1: valid ($res)" valid "$work/vx5.json"
check "spdx-3.0.1: a VEX not-affected assessment, justification mapped to SPDX's" [ "$(jq -c '[."@graph"[] | select(.type == "security_VexNotAffectedVulnAssessmentRelationship") | [.security_justificationType, .security_impactStatement]]' "$work/vx5.json")" = '[["vulnerableCodeNotInExecutePath","xmlattr is not used with user-supplied keys"]]' ]
res="$(V_EP=report/vulnerabilities vpost "$ovex" "output=json" "$work/vx-r.json")"
check "report with VEX: settled last, status from the statement ($res)" [ "$(jq -c '[[.vulnerabilities[] | [.id, .status]], .summary.accepted]' "$work/vx-r.json")" = "[[[\"$g1\",\"open\"],[\"$g2\",\"not_affected\"]],1]" ]
res="$(V_EP=report/vulnerabilities vpost "$ovex" "output=sarif&kev=true&epss=true" "$work/vx-r.sarif")"
check "report sarif with VEX: the settled result is a note with an accepted suppression ($res)" [ "$(jq -c --arg id $g2 '[.runs[0].results[] | select(.ruleId == $id) | [.level, .suppressions[0].status, .suppressions[0].kind]]' "$work/vx-r.sarif")" = '[["note","accepted","external"]]' ]
printf '{"bomFormat":"CycloneDX","vulnerabilities":[{"id":"CVE-1","analysis":{"state":"fine"}}]}' > "$work/bad-vex.json"
res="$(vpost "$work/bad-vex.json" "vulnerabilities=osv" "$work/vx6.json")"
check "VEX with an unknown state: 400 naming the part ($res)" [ "$res:$(jq -r .detail "$work/vx6.json" | grep -c "multipart part 'vex'")" = 400:1 ]
printf '{"hello": 1}' > "$work/bad-vex2.json"
res="$(vpost "$work/bad-vex2.json" "vulnerabilities=osv" "$work/vx7.json")"
check "VEX of neither dialect: 400 ($res)" [ "$res" = 400 ]
res="$(vpost "$ovex" "format=cyclonedx-1.6" "$work/vx8.json")"
check "VEX without vulnerabilities=osv: 400 ($res)" [ "$res" = 400 ]

# --- output=vex: a component-less CycloneDX VEX whose affects are BOM-Links -----------
# links SBOM VEX: every affects ref is urn:cdx:<SBOM serial>/<SBOM version>#<bom-ref>
# naming a component of the SBOM, pixi:vex-for names the SBOM, the VEX's own
# serial is another, and it has no components. Prints "ok" or what is wrong.
links() {
  python3 - "$1" "$2" <<'PY'
import json, re, sys, urllib.parse
sbom, vex = (json.load(open(p)) for p in sys.argv[1:3])
serial = sbom["serialNumber"].removeprefix("urn:uuid:")
refs = {c["bom-ref"] for c in sbom.get("components", [])}
bad = []
if "components" in vex or "dependencies" in vex or "component" in vex.get("metadata", {}):
    bad.append("components in the VEX")
if vex["serialNumber"] == sbom["serialNumber"]:
    bad.append("the VEX reuses the SBOM's serial")
if vex["specVersion"] != sbom["specVersion"]:
    bad.append("specVersion differs")
vf = [p["value"] for p in vex["metadata"]["properties"] if p["name"] == "pixi:vex-for"]
if vf != ["urn:cdx:%s/%d" % (serial, sbom["version"])]:
    bad.append("pixi:vex-for %r" % vf)
n = 0
for v in vex["vulnerabilities"]:
    for a in v["affects"]:
        n += 1
        m = re.fullmatch(r"urn:cdx:([0-9a-f-]{36})/([1-9][0-9]*)#(.+)", a["ref"])
        if not m or m.group(1) != serial or int(m.group(2)) != sbom["version"] or urllib.parse.unquote(m.group(3)) not in refs:
            bad.append("unresolved " + a["ref"])
if [v["id"] for v in vex["vulnerabilities"]] != [v["id"] for v in sbom.get("vulnerabilities", [])]:
    bad.append("findings differ from the SBOM's")
print("ok" if not bad and n else "; ".join(bad) or "no affects at all")
PY
}
for f in cyclonedx-1.6 cyclonedx-1.7; do
  res="$(post "$uv" "filename=uv.lock&vulnerabilities=osv&format=$f&output=vex" "$work/vex-$f.json")"
  check "output=vex $f: 200 ($res)" [ "$res" = 200 ]
  check "output=vex $f: schema-valid" valid "$work/vex-$f.json"
  check "output=vex $f: CycloneDX media type of that version" grep -qi "^Content-Type: application/vnd.cyclonedx+json; version=${f#cyclonedx-}" "$work/vex-$f.json.h"
  check "output=vex $f: zero components, two findings" [ "$(jq -c '[(.components // [] | length), (.vulnerabilities | length), .specVersion]' "$work/vex-$f.json")" = "[0,2,\"${f#cyclonedx-}\"]" ]
  check "output=vex $f: every affects ref a BOM-Link into the SBOM of the same request ($(links "$work/$f.json" "$work/vex-$f.json"))" [ "$(links "$work/$f.json" "$work/vex-$f.json")" = ok ]
  check "output=vex $f: the findings as in the SBOM but their affects" [ "$(jq -c '[.vulnerabilities[] | del(.affects)]' "$work/vex-$f.json")" = "$(jq -c '[.vulnerabilities[] | del(.affects)]' "$work/$f.json")" ]
  check "output=vex $f: the SBOM's serial is the one without output=vex (unchanged)" [ "$(post "$uv" "filename=uv.lock&vulnerabilities=osv&format=$f" "$work/again-$f.json"):$(jq -r .serialNumber "$work/again-$f.json")" = "200:$(jq -r .serialNumber "$work/$f.json")" ]
done
curl -sS -o "$work/vex-metrics.txt" "$base/metrics"
check "output=vex: metrics count the VEX documents under their own names" [ "$(grep -cE '^sbomd_documents_total\{format="cyclonedx-1\.[67]-vex"\} [1-9]' "$work/vex-metrics.txt")" = 2 ]
check "output=vex: a VEX file name" grep -qi '^Content-Disposition: attachment; filename="sbom-default-linux-64.vex.cdx.json"' "$work/vex-cyclonedx-1.6.json.h"
res="$(curl -sS -o "$work/vex-acc.json" -w '%{http_code}' -H 'Accept: application/vnd.cyclonedx+json; version=1.7' --data-binary @"$uv" "$base/v1/sbom?filename=uv.lock&vulnerabilities=osv&output=vex")"
check "output=vex: Accept picks 1.7 ($res)" [ "$res:$(jq -r .specVersion "$work/vex-acc.json")" = 200:1.7 ]
# the pixi.lock: conda bom-refs with qualifiers (?, &, =) stay resolvable
res="$(post "$px" "filename=pixi.lock&vulnerabilities=osv&output=vex" "$work/vex-px.json")"
check "output=vex pixi: 200 ($res) and valid" valid "$work/vex-px.json"
check "output=vex pixi: links resolve into the pixi SBOM ($(links "$work/px.json" "$work/vex-px.json"))" [ "$(links "$work/px.json" "$work/vex-px.json")" = ok ]
check "output=vex pixi: the conda jinja2's link" [ "$(jq -r '.vulnerabilities[0].affects[] | .ref | sub(".*#"; "")' "$work/vex-px.json" | grep -cxF "$jconda")" = 1 ]
# a vex part: its analysis is carried into the VEX, the links point into the SBOM made with that part
res="$(vpost "$cvex" "vulnerabilities=osv&output=vex" "$work/vex-in.json")"
check "output=vex with a vex part: 200 ($res) and valid" valid "$work/vex-in.json"
check "output=vex with a vex part: the analysis carried over" [ "$(an "$work/vex-in.json" $g1)" = '{"state":"not_affected","justification":"code_not_reachable","detail":"demo never renders untrusted templates in a sandbox"}' ]
check "output=vex with a vex part: the open one has none" [ "$(an "$work/vex-in.json" $g2)" = null ]
check "output=vex with a vex part: links resolve into that request's SBOM ($(links "$work/vx1.json" "$work/vex-in.json"))" [ "$(links "$work/vx1.json" "$work/vex-in.json")" = ok ]
res="$(vpost "$work/vex-in.json" "vulnerabilities=osv" "$work/vex-back.json")"
check "output=vex fed back as the vex part: the same finding settled by its BOM-Link ($res)" [ "$(an "$work/vex-back.json" $g1)" = "$(an "$work/vx1.json" $g1)" ]
res="$(vpost "$cvex" "vulnerabilities=osv&output=vex&fail-on-severity=medium" "$work/vex-gate.json")"
check "output=vex: the gates still answer 422 ($res)" [ "$res:$(jq .violationCount "$work/vex-gate.json")" = 422:1 ]
# all-platforms: one VEX per SBOM of the NDJSON answer, line by line
post "$uv" "filename=uv.lock&vulnerabilities=osv&all-platforms=true" "$work/all.ndjson" > /dev/null
res="$(post "$uv" "filename=uv.lock&vulnerabilities=osv&all-platforms=true&output=vex" "$work/all-vex.ndjson")"
nl_ok=0
for i in $(seq 1 "$(wc -l < "$work/all.ndjson")"); do
  sed -n "${i}p" "$work/all.ndjson" > "$work/all-$i.json"; sed -n "${i}p" "$work/all-vex.ndjson" > "$work/all-vex-$i.json"
  [ "$(links "$work/all-$i.json" "$work/all-vex-$i.json")" = ok ] && valid "$work/all-vex-$i.json" && nl_ok=$((nl_ok + 1))
done
check "output=vex all-platforms: $nl_ok of $(wc -l < "$work/all.ndjson") lines valid VEX linking into their SBOM line ($res)" [ "$res:$nl_ok:$(wc -l < "$work/all-vex.ndjson")" = "200:$(wc -l < "$work/all.ndjson"):$(wc -l < "$work/all.ndjson")" ]
for f in spdx-3.0.1 spdx-2.3; do
  res="$(post "$uv" "filename=uv.lock&vulnerabilities=osv&format=$f&output=vex" "$work/vex-$f.json")"
  check "output=vex with $f: 400 problem+json saying why ($res)" [ "$res:$(jq -r .detail "$work/vex-$f.json" | grep -c "format $f is not CycloneDX")" = 400:1 ]
  check "output=vex with $f: problem+json" grep -qi '^Content-Type: application/problem+json' "$work/vex-$f.json.h"
done
res="$(curl -sS -o "$work/vex-acc3.json" -w '%{http_code}' -H 'Accept: application/spdx+json; version=3.0.1' --data-binary @"$uv" "$base/v1/sbom?filename=uv.lock&vulnerabilities=osv&output=vex")"
check "output=vex with Accept SPDX: 400 ($res)" [ "$res" = 400 ]
res="$(post "$uv" "filename=uv.lock&output=vex" "$work/vex-novuln.json")"
check "output=vex without vulnerabilities=osv: 400 naming it ($res)" [ "$res:$(jq -r .detail "$work/vex-novuln.json" | grep -c 'needs vulnerabilities=osv')" = 400:1 ]
res="$(post "$uv" "filename=uv.lock&vulnerabilities=osv&output=text" "$work/vex-text.json")"
check "output=text on /v1/sbom: 400 ($res)" [ "$res" = 400 ]

# --- SARIF 2.1.0 schema (the reports suite fetches it; tests/run-all.sh sets up ajv) ---
sarif_schema="$root/build/sarif-schema/package/lib/schemas/sarif-2.1.0-rtm.5.json"
if [ ! -f "$sarif_schema" ]; then
  mkdir -p "$root/build/sarif-schema"
  (cd "$root/build/sarif-schema" && npm pack --silent @microsoft/jest-sarif@1.0.0-beta.0 >/dev/null 2>&1 &&
     tar -xzf microsoft-jest-sarif-1.0.0-beta.0.tgz package/lib/schemas/sarif-2.1.0-rtm.5.json)
fi
vhome="${SBOM_VALIDATOR_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/sbom-validator}"
check "SARIF schema obtained" [ -f "$sarif_schema" ]
check "vulnerabilities SARIF logs (plain, KEV, VEX suppressions) valid against SARIF 2.1.0" \
  env NODE_PATH="$vhome/node_modules" node "$here/sarif-validate.cjs" "$sarif_schema" "$work/r.sarif" "$work/rk.sarif" "$work/vx-r.sarif"

# --- upstream failures: a 200 document with pixi:incomplete osv ----------------------
failing() { # failing NAME PORT DETAIL-REGEX [extra server args]
  local name="$1" p="$2" want="$3"; shift 3
  local keep_base="$base"
  sb_start "$work/$name.log" --source-date-epoch 1700000000 --vulnerabilities --osv-url "http://127.0.0.1:$p" "$@"
  local r; r="$(post "$uv" "filename=uv.lock&vulnerabilities=osv" "$work/$name.json")"
  check "$name: 200 ($r)" [ "$r" = 200 ]
  check "$name: valid" valid "$work/$name.json"
  check "$name: pixi:incomplete names osv" grep -q osv <<< "$(prop "$work/$name.json" pixi:incomplete)"
  check "$name: detail '$want' ($(prop "$work/$name.json" pixi:incomplete-detail))" grep -Eq "$want" <<< "$(prop "$work/$name.json" pixi:incomplete-detail)"
  base="$keep_base"
}
failing batch500 "$b500_port" 'osv: 3 of 3 purls unasked'
check "batch500: no findings" [ "$(jq '.vulnerabilities // [] | length' "$work/batch500.json")" = 0 ]
failing vuln500 "$v500_port" 'osv: 3 of 3 advisory records not fetched \(listed by id only\)'
check "vuln500: findings listed by id, still affecting jinja2" [ "$(jq -c '[.vulnerabilities[] | [.id, .affects[0].ref]] | length' "$work/vuln500.json")" = 3 ]
failing timeout "$slow_port" 'osv: 3 of 3 purls unasked' --lookup-timeout 1
# --- OSV pagination: next_page_token re-asked with page_token, at most 10 pages ---------
sb_start "$work/pg.log" --source-date-epoch 1700000000 --vulnerabilities --osv-url "http://127.0.0.1:$pg_port"
res="$(post "$uv" "filename=uv.lock&vulnerabilities=osv" "$work/pg.json")"
check "paged OSV: 200 ($res) and valid" valid "$work/pg.json"
check "paged OSV: the same findings as one-page answers (all three records, twins merged)" [ "$(jq -c .vulnerabilities "$work/pg.json")" = "$(jq -c .vulnerabilities "$work/cyclonedx-1.6.json")" ]
check "paged OSV: jinja2's pages 2 and 3 asked with page_token, nothing else ($(stats "$pg_port" '[.querybatch, .pages] | map(tostring) | join(",")'))" [ "$(stats "$pg_port" '[.querybatch, .pages] | map(tostring) | join(",")')" = "3,2" ]
check "paged OSV: complete, no osv step" [ "$(prop "$work/pg.json" pixi:incomplete | grep -c osv)" = 0 ]
post "$uv" "filename=uv.lock&vulnerabilities=osv" "$work/pg2.json" > /dev/null
check "paged OSV: pages cached like the first (no new transfer)" [ "$(stats "$pg_port" .querybatch)" = 3 ]
sb_start "$work/en.log" --source-date-epoch 1700000000 --vulnerabilities --osv-url "http://127.0.0.1:$en_port"
res="$(post "$uv" "filename=uv.lock&vulnerabilities=osv" "$work/en.json")"
check "endless pages: 200 ($res) and valid" valid "$work/en.json"
check "endless pages: 10 pages per query at most (3 purls x 9 further pages, 10 rounds)" [ "$(stats "$en_port" '[.querybatch, .pages] | map(tostring) | join(",")')" = "10,27" ]
check "endless pages: the findings of the pages had" [ "$(jq -c '[.vulnerabilities[].id]' "$work/en.json")" = '["GHSA-462w-v97r-4m45","GHSA-h5c8-rqwp-cp95"]' ]
check "endless pages: pixi:incomplete says the rest is unasked ($(prop "$work/en.json" pixi:incomplete-detail))" grep -q 'osv: 3 of 3 purls have more than 10 result pages (the rest unasked)' <<< "$(prop "$work/en.json" pixi:incomplete-detail)"
sb_start "$work/off.log" --source-date-epoch 1700000000
res="$(post "$uv" "filename=uv.lock&vulnerabilities=osv" "$work/off.json")"
check "server without --vulnerabilities: 200 ($res)" [ "$res" = 200 ]
check "server without --vulnerabilities: says so" grep -q 'this server makes no vulnerability lookups' <<< "$(prop "$work/off.json" pixi:incomplete-detail)"

sb_done vulns
