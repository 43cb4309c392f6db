#!/usr/bin/env bash
# reports.sh BUILD_DIR - the reports and the page against a live server:
# golden answers (tests/golden/reports/) byte for byte in both outputs,
# figures cross-checked with the CycloneDX document of the same request,
# every fixture's four reports as parseable JSON, negotiation and refusals,
# the page at / and CORS. Ends with "reports: N passed, N failed".
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../lib.sh"
golden="$root/tests/golden/reports"
cat > "$work/policies.toml" <<'TOML'
# named license policies (--policy-file), chosen with ?policy=NAME
[policy.golden]
deny = ["GPL-3.0-only"]
require = true
ignore = ["readline:reviewed by legal"]

[policy.permissive]
allow = ["MIT", "BSD-3-Clause", "Apache-2.0", "GPL-3.0-only WITH GCC-exception-3.1"]
ignore = ["readline:linked dynamically, reviewed 2026-11"]
TOML
sb_start "$work/log" --source-date-epoch 1700000000 --cors-origins 'https://dash.example, http://127.0.0.1:9' \
  --policy-file "$work/policies.toml"
# the policy of the *.licenses-policy.* goldens (tests/golden/update.sh: -D GPL-3.0-only -R -I readline:...)
POLICY='deny-license=GPL-3.0-only&require-license=true&ignore-license=readline:reviewed%20by%20legal'

# --- goldens, both outputs ---------------------------------------------------
while read -r name rel; do
  f="$shared/fixtures/$rel"
  fn="$(basename "$rel")"
  for kind in packages licenses python tree; do
    res="$(curl -sS -o "$work/r.json" -w '%{http_code} %{content_type}' --data-binary @"$f" "$base/v1/report/$kind?filename=$fn")"
    check "$name $kind json: $res" [ "$res" = "200 application/json" ]
    check "$name $kind json equals the golden" cmp -s "$work/r.json" "$golden/$name.$kind.json"
    res="$(curl -sS -o "$work/r.txt" -w '%{http_code} %{content_type}' -H 'Accept: text/plain' --data-binary @"$f" "$base/v1/report/$kind?filename=$fn")"
    check "$name $kind text (Accept): $res" [ "$res" = "200 text/plain; charset=utf-8" ]
    check "$name $kind text equals the golden" cmp -s "$work/r.txt" "$golden/$name.$kind.txt"
  done
  # markdown and CSV: byte for byte, then read back by parsers against the JSON
  for kind in packages licenses python tree; do
    for o in markdown:md:text/markdown csv:csv:text/csv; do
      ext="${o#*:}"; ext="${ext%%:*}"; media="${o##*:}"
      res="$(curl -sS -o "$work/r.$ext" -w '%{http_code} %{content_type}' --data-binary @"$f" "$base/v1/report/$kind?filename=$fn&output=${o%%:*}")"
      check "$name $kind ${o%%:*}: $res" [ "$res" = "200 $media; charset=utf-8" ]
      check "$name $kind ${o%%:*} equals the golden" cmp -s "$work/r.$ext" "$golden/$name.$kind.$ext"
    done
    curl -sS -o "$work/a.csv" -H 'Accept: text/csv' --data-binary @"$f" "$base/v1/report/$kind?filename=$fn"
    check "$name $kind: Accept: text/csv picks CSV" cmp -s "$work/a.csv" "$golden/$name.$kind.csv"
    check "$name $kind: CSV and markdown parse and agree with the JSON" \
      python3 "$here/check-tables.py" "$kind" "$golden/$name.$kind.json" "$golden/$name.$kind.csv" "$golden/$name.$kind.md"
  done
  # the licenses report under a license policy, every output (the named policy gives the same bytes)
  for o in json:json text:txt markdown:md csv:csv sarif:sarif; do
    ext="${o#*:}"
    res="$(curl -sS -o "$work/p.$ext" -w '%{http_code}' --data-binary @"$f" "$base/v1/report/licenses?filename=$fn&output=${o%%:*}&$POLICY")"
    check "$name licenses under a policy, ${o%%:*}: $res" [ "$res" = 200 ]
    check "$name licenses under a policy, ${o%%:*}, equals the golden" cmp -s "$work/p.$ext" "$golden/$name.licenses-policy.$ext"
    curl -sS -o "$work/q.$ext" --data-binary @"$f" "$base/v1/report/licenses?filename=$fn&output=${o%%:*}&policy=golden"
    check "$name licenses, policy=golden, ${o%%:*}: same bytes as the query policy" cmp -s "$work/q.$ext" "$work/p.$ext"
  done
  check "$name policy CSV and markdown parse and agree with the JSON" \
    python3 "$here/check-tables.py" licenses "$golden/$name.licenses-policy.json" "$golden/$name.licenses-policy.csv" "$golden/$name.licenses-policy.md"
  check "$name SARIF: one result per violation (exempted ones suppressed)" \
    jq -e -n --slurpfile s "$golden/$name.licenses-policy.sarif" --slurpfile j "$golden/$name.licenses-policy.json" \
      '($s[0].runs[0].results | map(select(.suppressions | not)) | length) == $j[0].summary.policy_violations
       and ($s[0].runs[0].results | length) == ([$j[0].licenses[] | select(.license_violation != null)] | length)'
  # the same request's CycloneDX document says the same things
  curl -sS -o "$work/d.json" --data-binary @"$f" "$base/v1/sbom?filename=$fn"
  check "$name: packages rows = components" \
    [ "$(jq '.packages | length' "$golden/$name.packages.json")" = "$(jq '.components | length' "$work/d.json")" ]
  check "$name: packages rows carry the document's purls" \
    sh -c "[ \"\$(jq -S '[.packages[].purl] | sort' '$golden/$name.packages.json')\" = \"\$(jq -S '[.components[].purl] | sort' '$work/d.json')\" ]"
  check "$name: license counts + no license + not known = packages" \
    jq -e -n --slurpfile l "$golden/$name.licenses.json" '$l[0].summary | ([.by_license[].count] | add // 0) + (.no_license | length) + (.license_unknown | length) == .packages'  >/dev/null
  check "$name: a license not known says why and what to do" \
    jq -e -n --slurpfile l "$golden/$name.licenses.json" '$l[0].summary.license_unknown | length > 0 and all(.why | test("fetch-licenses=true"))' >/dev/null
  check "$name: licenses match the document's expressions" \
    sh -c "[ \"\$(jq -S '[.licenses[] | select(.spdx) | .license] | sort' '$golden/$name.licenses.json')\" = \"\$(jq -S '[.components[] | .licenses[]? | .expression // .license.id // empty] | sort' '$work/d.json')\" ]"
  check "$name: tree roots = the document root's dependencies" \
    sh -c "[ \"\$(jq '[.tree[] | select(.depth == 0)] | length' '$golden/$name.tree.json')\" = \"\$(jq '[.dependencies[] | select(.ref == \"root\") | .dependsOn[]] | length' '$work/d.json')\" ]"
  check "$name: every package appears in the tree once unrepeated" \
    jq -e '([.tree[] | select(.repeat | not) | .purl] | length) == ([.tree[] | select(.repeat | not) | .purl] | unique | length)' "$golden/$name.tree.json" >/dev/null
  check "$name: the python report lists exactly the PyPI packages" \
    sh -c "[ \"\$(jq '.python | length' '$golden/$name.python.json')\" = \"\$(jq '[.packages[] | select(.kind == \"pypi\")] | length' '$golden/$name.packages.json')\" ]"
done < "$golden/FIXTURES"

# --- every fixture, four reports, JSON that parses -----------------------------
nrep=0 nbad=0
while IFS=$'\t' read -r rel _rest; do
  case "$rel" in pixi/*|explicit/*|conda-lock/*|uv/*|pylock/*|poetry/*|pdm/*|requirements/*) ;; *) continue ;; esac
  f="$shared/fixtures/$rel"
  [ -f "$f" ] || continue
  for kind in packages licenses python tree; do
    res="$(curl -sS -o "$work/a.json" -w '%{http_code}' --data-binary @"$f" "$base/v1/report/$kind?filename=$(basename "$rel")")"
    [ "$res" = 422 ] && continue # refused as the spec says (old formats), like /v1/sbom
    nrep=$((nrep + 1))
    if [ "$res" != 200 ] || ! jq -e --arg k "$kind" 'has($k) and (.summary.packages >= 0)' "$work/a.json" >/dev/null 2>&1; then
      nbad=$((nbad + 1)); echo "  $rel $kind: $res" >&2
    fi
  done
done < "$shared/fixtures/SOURCES.tsv"
check "all fixtures: $nrep reports answered 200 with their JSON ($nbad not)" [ "$nbad" = 0 ]
echo "reports: $nrep fixture reports parsed"

# --- negotiation and refusals --------------------------------------------------
f="$shared/fixtures/pixi/pixi-examples-pypi-source-deps/pixi.lock"
res="$(curl -sS -o "$work/n.txt" -w '%{content_type}' -H 'Accept: text/plain;q=0.2, application/json;q=0.9' --data-binary @"$f" "$base/v1/report/tree")"
check "q-values pick JSON ($res)" [ "$res" = "application/json" ]
res="$(curl -sS -o "$work/n.txt" -w '%{content_type}' -H 'Accept: application/json' --data-binary @"$f" "$base/v1/report/tree?output=text")"
check "output= wins over Accept ($res)" [ "$res" = "text/plain; charset=utf-8" ]
res="$(curl -sS -o "$work/p.json" -w '%{http_code} %{content_type}' -H 'Accept: image/png' --data-binary @"$f" "$base/v1/report/licenses")"
check "unacceptable Accept: 406 problem ($res)" [ "$res" = "406 application/problem+json" ]
check "406 lists the media types" jq -e '.choices == ["application/json","text/plain","text/markdown","text/csv","application/sarif+json"]' "$work/p.json" >/dev/null
res="$(curl -sS -o "$work/p.json" -w '%{http_code}' --data-binary @"$f" "$base/v1/report/tree?output=sarif")"
check "an output the kind has not: 400 listing its outputs ($res)" sh -c "[ $res = 400 ] && jq -e '.choices == [\"json\",\"text\",\"markdown\",\"csv\"]' '$work/p.json' >/dev/null"
res="$(curl -sS -o /dev/null -w '%{http_code}' --data-binary @"$f" "$base/v1/report/nosuch")"
check "unknown report kind: 404 ($res)" [ "$res" = 404 ]
res="$(curl -sS -o "$work/p.json" -w '%{http_code}' --data-binary @"$f" "$base/v1/report/licenses?all-platforms=true")"
check "all-platforms on a report: 400 ($res)" [ "$res" = 400 ]
res="$(curl -sS -o "$work/p.json" -w '%{http_code}' --data-binary @"$f" "$base/v1/report/licenses?environment=nope")"
check "unknown environment: 422 naming the choices ($res)" sh -c "[ $res = 422 ] && jq -e '.choices | index(\"default\") != null' '$work/p.json' >/dev/null"
res="$(curl -sS -o "$work/p.json" -w '%{http_code}' --data-binary 'not a lockfile' "$base/v1/report/packages")"
check "not a lockfile: 415 ($res)" [ "$res" = 415 ]
res="$(curl -sS -o /dev/null -w '%{http_code}' "$base/v1/report/packages")"
check "GET on a report: 405 ($res)" [ "$res" = 405 ]
res="$(curl -sS -o /dev/null -w '%{http_code}' --data-binary @"$f" "$base/v1/report/nothing")"
check "unknown report: 404 ($res)" [ "$res" = 404 ]
res="$(curl -sS -o "$work/e.json" -w '%{http_code}' --data-binary @"$f" "$base/v1/report/licenses?environment=default&platform=osx-arm64")"
check "platform selection works on reports ($res)" sh -c "[ $res = 200 ] && jq -e '.summary.platform == \"osx-arm64\"' '$work/e.json' >/dev/null"

ref="$shared/fixtures/pixi/pixi-examples-pypi-rev-ced2118/pixi.lock"
curl -sS -o "$work/t0.json" --data-binary @"$ref" "$base/v1/report/tree?depth=0"
check "tree depth=0: only the root's direct dependencies" \
  jq -e --slurpfile all "$golden/pixi-pypi.tree.json" '([.tree[].depth] | max) == 0 and (.tree | length) == ([$all[0].tree[] | select(.depth == 0)] | length)' "$work/t0.json" >/dev/null
curl -sS -o "$work/t1.txt" --data-binary @"$ref" "$base/v1/report/tree?depth=1&output=text"
check "tree depth=1 (text): two levels, no deeper branch" sh -c "grep -q '^\\S.*' '$work/t1.txt' && ! grep -q '^    [├└]' '$work/t1.txt' && grep -q '^[├└]' '$work/t1.txt'"
res="$(curl -sS -o /dev/null -w '%{http_code}' --data-binary @"$ref" "$base/v1/report/tree?depth=-1")"
check "tree depth=-1: 400 ($res)" [ "$res" = 400 ]

# --- license policy (spec 5) and its gate ------------------------------------------
ref="$shared/fixtures/pixi/pixi-examples-pypi-rev-ced2118/pixi.lock"
# SARIF against the official SARIF 2.1.0 schema: the npm package @microsoft/jest-sarif
# ships it (lib/schemas/sarif-2.1.0-rtm.5.json); fetched once into build/, read with
# the ajv of the shared validator's node setup (tests/run-all.sh runs setup-validator)
sarif_dir="$root/build/sarif-schema"
schema="$sarif_dir/package/lib/schemas/sarif-2.1.0-rtm.5.json"
if [ ! -f "$schema" ]; then
  mkdir -p "$sarif_dir"
  (cd "$sarif_dir" && npm pack --silent @microsoft/jest-sarif@1.0.0-beta.0 >/dev/null 2>&1 &&
     tar -xzf microsoft-jest-sarif-1.0.0-beta.0.tgz package/lib/schemas/sarif-2.1.0-rtm.5.json)
fi
vhome="${SBOM_VALIDATOR_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/sbom-validator}"
curl -sS -o "$work/perm.sarif" --data-binary @"$ref" "$base/v1/report/licenses?output=sarif&policy=permissive&require-license=true"
check "SARIF schema obtained ($schema)" [ -f "$schema" ]
check "SARIF logs valid against the SARIF 2.1.0 schema" env NODE_PATH="$vhome/node_modules" node "$here/sarif-validate.cjs" "$schema" \
  "$golden/pixi-pypi.licenses-policy.sarif" "$golden/uv-pydantic-core.licenses-policy.sarif" "$work/perm.sarif"
printf '{"version":"2.1.0","runs":[{"tool":{"driver":{}}}]}' > "$work/bad.sarif"
check "the SARIF check refuses a log without a tool name" sh -c "! env NODE_PATH='$vhome/node_modules' node '$here/sarif-validate.cjs' '$schema' '$work/bad.sarif' >/dev/null"
check "SARIF under require-license lists the unlicensed too" jq -e '[.runs[0].results[].ruleId] | index("license-missing") != null' "$work/perm.sarif" >/dev/null
res="$(curl -sS -o "$work/p.json" -w '%{http_code}' --data-binary @"$ref" "$base/v1/report/licenses?output=sarif")"
check "sarif without a policy: 400 ($res)" [ "$res" = 400 ]
# the gate: curl --fail-with-body fails the job, the body names every violation
curl -sS --fail-with-body -o "$work/g.json" --data-binary @"$ref" "$base/v1/sbom?deny-license=GPL-3.0-only&fail-on=license"; st=$?
check "fail-on=license: curl --fail-with-body exits 22 ($st)" [ "$st" = 22 ]
check "fail-on=license: 422 policy-violation naming package, version, license, reason" jq -e '.status == 422 and .type == "urn:sbomd:problem:policy-violation"
  and .violationCount == 7 and (.violations[] | select(.package == "readline") | .version == "8.2" and .value == "GPL-3.0-only" and (.reason | test("denied")))' "$work/g.json" >/dev/null
res="$(curl -sS -o /dev/null -w '%{http_code}' --data-binary @"$ref" "$base/v1/sbom?deny-license=GPL-3.0-only&fail-on=license&ignore-license=readline,ld_impl_linux-64&ignore-license=libgcc-ng,libgfortran-ng,libgfortran5,libgomp,libstdcxx-ng")"
check "every violator exempted (ignore-license repeated and comma-separated): 200 ($res)" [ "$res" = 200 ]
res="$(curl -sS -o /dev/null -w '%{http_code}' --data-binary @"$ref" "$base/v1/report/packages?deny-license=AGPL-3.0-only&fail-on=license")"
check "fail-on=license on a report without violations: 200 ($res)" [ "$res" = 200 ]
res="$(curl -sS -o "$work/g2.json" -w '%{http_code}' --data-binary @"$ref" "$base/v1/report/tree?deny-license=GPL-3.0-only&deny-license=MIT&fail-on=license")"
check "fail-on=license on a report: 422, deny-license repeated ($res)" sh -c "[ $res = 422 ] && jq -e '.violationCount == 9' '$work/g2.json' >/dev/null"
res="$(curl -sS -o "$work/g3.json" -w '%{http_code}' --data-binary @"$ref" "$base/v1/sbom?policy=permissive&fail-on=license")"
check "a named policy gates too: 422 ($res)" sh -c "[ $res = 422 ] && jq -e '[.violations[].package] | index(\"ld_impl_linux-64\") != null and index(\"readline\") == null' '$work/g3.json' >/dev/null"
for bad in 'allow-license=Proprietary' 'deny-license=MIT%20OR%20Apache-2.0' 'allow-license=GPL' 'deny-license=MIT,' \
           'fail-on=license' 'fail-on=everything&deny-license=MIT' 'policy=nosuch' 'require-license=maybe' 'ignore-license=:why'; do
  res="$(curl -sS -o "$work/b.json" -w '%{http_code} %{content_type}' --data-binary @"$ref" "$base/v1/sbom?$bad")"
  check "$bad: 400 problem ($res)" [ "$res" = "400 application/problem+json" ]
done
check "policy=nosuch lists the server's policies" sh -c "curl -sS --data-binary @'$ref' '$base/v1/sbom?policy=nosuch' | jq -e '.choices == [\"golden\",\"permissive\"]' >/dev/null"
res="$(curl -sS -o /dev/null -w '%{http_code}' --data-binary @"$ref" "$base/v1/sbom?require-license=true&require-license=true")"
check "a non-list policy parameter given twice: 400 ($res)" [ "$res" = 400 ]
# the documents carry the verdicts, in every format
q='deny-license=GPL-3.0-only&ignore-license=readline:reviewed%20by%20legal'
for fmt in cyclonedx-1.6 cyclonedx-1.7 spdx-2.3 spdx-3.0.1; do
  curl -sS -o "$work/d.$fmt.json" --data-binary @"$ref" "$base/v1/sbom?format=$fmt&$q"
  check "$fmt: 6 pixi:license-violation, 1 pixi:license-exempt" sh -c "[ \$(grep -o 'pixi:license-violation' '$work/d.$fmt.json' | wc -l) -eq 6 ] && [ \$(grep -o 'pixi:license-exempt' '$work/d.$fmt.json' | wc -l) -eq 1 ]"
  check "$fmt with a policy is valid" "$shared/tools/validate-sbom" --auto "$work/d.$fmt.json"
done
check "cyclonedx: the exemption's reason on readline" jq -e '.components[] | select(.name == "readline") | .properties[] | select(.name == "pixi:license-exempt") | .value == "reviewed by legal"' "$work/d.cyclonedx-1.6.json" >/dev/null
curl -sS -o "$work/d0.json" --data-binary @"$ref" "$base/v1/sbom"
check "a policy changes the serial number" sh -c "[ \"\$(jq -r .serialNumber '$work/d0.json')\" != \"\$(jq -r .serialNumber '$work/d.cyclonedx-1.6.json')\" ]"
check "no policy: no pixi:license-violation" sh -c "! grep -q 'pixi:license-violation' '$work/d0.json'"

# --- the page and CORS ----------------------------------------------------------
res="$(curl -sS -D "$work/ph" -o "$work/page.html" -w '%{http_code} %{content_type}' "$base/")"
check "GET /: the page ($res)" [ "$res" = "200 text/html; charset=utf-8" ]
check "the page talks to this server only (CSP)" grep -qi "^content-security-policy: default-src 'none'.*connect-src 'self'" "$work/ph"
check "the page loads nothing from elsewhere" sh -c "! grep -Eq '(src|href)=\"(https?:)?//' '$work/page.html'"
check "the page has the upload and report controls" sh -c "grep -q 'id=\"file\"' '$work/page.html' && grep -q 'id=\"licenses\"' '$work/page.html' && grep -q '/v1/report/licenses' '$work/page.html'"
curl -sS -D "$work/ch" -o /dev/null -H 'Origin: https://dash.example' --data-binary @"$f" "$base/v1/report/licenses"
check "CORS: an allowed origin is echoed" grep -qi '^access-control-allow-origin: https://dash.example' "$work/ch"
check "CORS: Vary: Origin" grep -qi '^vary: origin' "$work/ch"
check "CORS: X-Request-Id and Warning are exposed" grep -qi '^access-control-expose-headers: .*x-request-id.*warning' "$work/ch"
curl -sS -D "$work/ch2" -o /dev/null -H 'Origin: https://evil.example' "$base/v1/formats"
check "CORS: another origin gets no Access-Control header" sh -c "! grep -qi '^access-control' '$work/ch2'"
res="$(curl -sS -D "$work/pf" -o /dev/null -w '%{http_code}' -X OPTIONS -H 'Origin: http://127.0.0.1:9' -H 'Access-Control-Request-Method: POST' -H 'Access-Control-Request-Headers: authorization' "$base/v1/sbom")"
check "CORS preflight: 204 ($res)" [ "$res" = 204 ]
check "CORS preflight: POST and Authorization allowed" sh -c "grep -qi '^access-control-allow-methods: .*POST' '$work/pf' && grep -qi '^access-control-allow-headers: .*authorization' '$work/pf'"
res="$(curl -sS -o /dev/null -w '%{http_code}' -X OPTIONS -H 'Origin: https://evil.example' -H 'Access-Control-Request-Method: POST' "$base/v1/sbom")"
check "CORS preflight from another origin is not granted ($res)" [ "$res" = 405 ]
# issue 40: reports and diffs say what curl -OJ names them
f="$shared/fixtures/pixi/pixi-examples-pypi-source-deps/pixi.lock"
for spec in "licenses:text/csv:.csv" "packages:application/json:.json" "quality:text/markdown:.md" "tree:text/plain:.txt"; do
  IFS=: read -r kind acc ext <<< "$spec"
  cd_="$(curl -sS -o /dev/null -D - -H "Accept: $acc" --data-binary @"$f" "$base/v1/report/$kind" | grep -i '^content-disposition:' | tr -d '\r')"
  check "report $kind as $acc: Content-Disposition ($cd_)" sh -c "echo '$cd_' | grep -q 'attachment; filename=\"$kind-report-default-linux-64$ext\"'"
done
(cd "$work" && curl -sS -OJ --data-binary @"$f" "$base/v1/report/licenses?output=csv")
check "curl -OJ saves licenses-report-default-linux-64.csv" [ -s "$work/licenses-report-default-linux-64.csv" ]
kill -TERM "$pid"; wait "$pid"; st=$?
check "exit 0 ($st)" [ "$st" = 0 ]
sb_done reports
