#!/usr/bin/env bash
# reports.sh BUILD_DIR - the reports and the page against a live server:
# golden answers (tests/golden/reports/) byte for byte in both outputs,
# figures cross-checked with the CycloneDX document of the same request,
# every fixture's four reports as parseable JSON, negotiation and refusals,
# the page at / and CORS. Ends with "reports: N passed, N failed".
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../lib.sh"
golden="$root/tests/golden/reports"
sb_start "$work/log" --source-date-epoch 1700000000 --cors-origins 'https://dash.example, http://127.0.0.1:9'

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
  # the same request's CycloneDX document says the same things
  curl -sS -o "$work/d.json" --data-binary @"$f" "$base/v1/sbom?filename=$fn"
  check "$name: packages rows = components" \
    [ "$(jq '.packages | length' "$golden/$name.packages.json")" = "$(jq '.components | length' "$work/d.json")" ]
  check "$name: packages rows carry the document's purls" \
    sh -c "[ \"\$(jq -S '[.packages[].purl] | sort' '$golden/$name.packages.json')\" = \"\$(jq -S '[.components[].purl] | sort' '$work/d.json')\" ]"
  check "$name: license counts + no-license = packages" \
    jq -e -n --slurpfile l "$golden/$name.licenses.json" '$l[0].summary | ([.by_license[].count] | add // 0) + (.no_license | length) == .packages'  >/dev/null
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
check "406 lists the media types" jq -e '.choices == ["application/json","text/plain"]' "$work/p.json" >/dev/null
res="$(curl -sS -o "$work/p.json" -w '%{http_code}' --data-binary @"$f" "$base/v1/report/tree?output=sarif")"
check "an output the kind has not: 400 listing its outputs ($res)" sh -c "[ $res = 400 ] && jq -e '.choices == [\"json\",\"text\"]' '$work/p.json' >/dev/null"
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
kill -TERM "$pid"; wait "$pid"; st=$?
check "exit 0 ($st)" [ "$st" = 0 ]
sb_done reports
