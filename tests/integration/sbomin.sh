#!/usr/bin/env bash
# sbomin.sh BUILD_DIR - SBOMs as input (issue 23 part 5, spec 2.11) against a
# live server: lockfile -> each of the four formats -> sbomd -> every format,
# each valid: the same format gives the source's bytes exactly (cmp); every
# other pair that can hold the data gives the document made from the
# lockfile directly but for its own serial and the pixi:source-document
# naming its source; the rest (scopes a format cannot hold) the same
# packages, purls and licenses; options still change the serial; reports, the license
# gate and /v1/diff on SBOM parts; third-party shapes (nested components, no
# pixi properties, SPDX DESCRIBES / *_DEPENDENCY_OF); hostile documents
# answered with problem+json. Ends with "sbomin: N passed, N failed".
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../lib.sh"
sb_start "$work/log" --source-date-epoch 1700000000 --max-packages 2000
fx="$shared/fixtures"

# post FILE QUERY OUT - the body as is; prints "code content-type"
post() { curl -sS -o "$3" -w '%{http_code} %{content_type}' --data-binary @"$1" "$base$2"; }
# purl -> license, sorted, from either family
inv() {
  jq -r 'if .components then .components[] | [.purl, ((.licenses // []) | map(.expression // .license.id // .license.name) | join(" AND "))]
         else .packages[] | select(.SPDXID != "SPDXRef-Package-root")
              | [(.externalRefs // [] | map(select(.referenceType == "purl"))[0].referenceLocator), .licenseDeclared] end | @tsv' "$1" | sort
}
# A converted document is another document than the one made from the
# lockfile directly: its own serial (namespace, SPDX 3 ids) and a
# document-level pixi:source-document naming its source. Those two taken
# out, it is that document (jq only deletes here; key order is kept).
ident() {
  sed 's/[0-9a-f]\{8\}-[0-9a-f]\{4\}-[0-9a-f]\{4\}-[0-9a-f]\{4\}-[0-9a-f]\{12\}/UUID/g' "$1" \
    | jq 'def unsrc: if .comment then .comment |= sub("^pixi:source-document=[^\n]*\n?"; "") | if .comment == "" then del(.comment) else . end else . end;
          if .metadata then .metadata.properties |= map(select(.name != "pixi:source-document"))
          elif .packages then .packages |= map(unsrc)
          else ."@graph" |= map(unsrc) end'
}
# the pairs that cannot hold the data, so only packages, purls and licenses
# compare: with scopes (uv, npm, condalock) CycloneDX has no development
# scope (a development package is optional there), SPDX 3 no required /
# optional one (it states only edges into a development group), SPDX 2.3 a
# scope only where an edge crosses into one (*_DEPENDENCY_OF): between any
# of them some scopes are lost; CycloneDX 1.6 <-> 1.7 hold the same
lossy() { # NAME SRC DST
  case "$1" in uv|npm|condalock) [ "${2%-*}" != "${3%-*}" ] || [ "$2" = spdx-2.3 ] || [ "$3" = spdx-2.3 ] ;; *) false ;; esac
}
# the document's own name for itself, as pixi:source-document quotes it
selfid() { jq -r '.serialNumber // .documentNamespace // (."@graph"[] | select(.type == "SpdxDocument") | .spdxId)' "$1"; }
# the document-level pixi:source-document values, wherever the format keeps them
srcdocs() {
  jq -c '[.metadata.properties[]? | select(.name == "pixi:source-document") | .value]
    + [.packages[]? | select(.SPDXID == "SPDXRef-Package-root") | .comment // "" | capture("pixi:source-document=(?<v>[^\n]*)").v]
    + [."@graph"[]? | select(.type == "software_Package" and (.spdxId | endswith("#package-root"))) | .comment // "" | capture("pixi:source-document=(?<v>[^\n]*)").v]' "$1"
}

while read -r name rel; do
  f="$fx/$rel"
  [ -f "$f" ] || { bad "$name: fixture $rel missing"; continue; }
  for dst in cyclonedx-1.6 cyclonedx-1.7 spdx-2.3 spdx-3.0.1; do
    post "$f" "/v1/sbom?format=$dst" "$work/direct-$dst.json" > /dev/null
  done
  for src in cyclonedx-1.6 cyclonedx-1.7 spdx-2.3 spdx-3.0.1; do
    cp "$work/direct-$src.json" "$work/src.json"
    for dst in cyclonedx-1.6 cyclonedx-1.7 spdx-2.3 spdx-3.0.1; do
      res="$(post "$work/src.json" "/v1/sbom?format=$dst" "$work/back.json")"
      check "$name $src -> $dst: $res" [ "${res%% *}" = 200 ]
      mkdir -p "$work/v-$dst"; cp "$work/back.json" "$work/v-$dst/$name-$src.json" # validated at once below
      if [ "$src" = "$dst" ]; then
        # the same format: the document is its source again, serial and all (and names no source)
        check "$name $src read back and written again: the same $(wc -c < "$work/src.json") bytes" cmp -s "$work/src.json" "$work/back.json"
        continue
      fi
      check "$name $src -> $dst names its source in pixi:source-document" \
        [ "$(srcdocs "$work/back.json")" = "$(jq -cn --arg s "$(selfid "$work/src.json")" '[$s]')" ]
      if [ "$dst" != spdx-3.0.1 ]; then
        inv "$work/direct-$dst.json" > "$work/i1"; inv "$work/back.json" > "$work/i2"
        check "$name $src -> $dst: same purls and licenses ($(wc -l < "$work/i1") packages)" cmp -s "$work/i1" "$work/i2"
      fi
      lossy "$name" "$src" "$dst" && continue
      ident "$work/direct-$dst.json" > "$work/n1"; ident "$work/back.json" > "$work/n2"
      check "$name $src -> $dst: the direct $dst document but for its identity ($(wc -c < "$work/n1") bytes)" \
        [ -s "$work/n1" ] && cmp -s "$work/n1" "$work/n2"
    done
  done
  # the serial still follows every option that changes the bytes
  post "$work/direct-cyclonedx-1.6.json" "/v1/sbom?format=cyclonedx-1.6&pretty=false" "$work/o.json" > /dev/null
  check "$name: compact output of the read-back document: another serial, naming the source" jq -e --arg s "$(selfid "$work/direct-cyclonedx-1.6.json")" \
    '.serialNumber != $s and ([.metadata.properties[] | select(.name == "pixi:source-document") | .value] == [$s])' "$work/o.json" > /dev/null
  post "$work/direct-spdx-2.3.json" "/v1/sbom?format=spdx-2.3&timestamp=1800000000" "$work/o.json" > /dev/null
  check "$name: timestamp= wins over the source's, with another namespace" jq -e --arg ns "$(selfid "$work/direct-spdx-2.3.json")" \
    '.creationInfo.created == "2027-01-15T08:00:00Z" and .documentNamespace != $ns' "$work/o.json" > /dev/null
done <<'EOF'
pixi pixi/pixi--rev-0463268/pixi.lock
poetry poetry/cyclonedx-python-tests-_data-infiles-environment-via-poetry/poetry.lock
condalock conda-lock/conda-lock-environments/conda-lock-python-3.10.yaml
explicit explicit/ESMValCore--rev-9450033/conda-linux-64.lock
uv uv/pydantic/uv.lock
npm npm/cyclonedx-node-npm-with-prepared/package-lock.json
EOF
post "$fx/uv/pydantic/uv.lock" "/v1/sbom?format=spdx-3.0.1" "$work/a3.json" > /dev/null # a part of the merges below
# another server, with another clock (its arrival, no --source-date-epoch):
# the source's timestamp and serial still stand
first_base="$base"
sb_start "$work/log2" --max-packages 2000
res="$(post "$work/a3.json" "/v1/sbom?format=spdx-3.0.1" "$work/b3.json")"
check "another server's clock: the SPDX 3.0.1 document read back is its source: $res" cmp -s "$work/a3.json" "$work/b3.json"
base="$first_base"

# one validator run per format (each start costs seconds)
for dst in cyclonedx-1.6 cyclonedx-1.7 spdx-2.3 spdx-3.0.1; do
  check "$(ls "$work/v-$dst" | wc -l) documents read from SBOMs validate as $dst" "$validate" -q --format "$dst" "$work/v-$dst"/*.json
done

# --- reports, policy and diff on an SBOM ---------------------------------------
lock2="$fx/pixi/pixi-examples-pypi-rev-eddac34/pixi.lock"
lock="$fx/pixi/pixi-examples-pypi-rev-bd4e26d/pixi.lock"
post "$lock" "/v1/sbom?format=cyclonedx-1.6&filename=pixi.lock" "$work/a.cdx.json" > /dev/null
post "$lock2" "/v1/sbom?format=spdx-2.3&filename=pixi.lock" "$work/b.spdx.json" > /dev/null
check "the CycloneDX document names its lockfile" jq -e '.metadata.properties[] | select(.name == "pixi:lockfile" and .value == "pixi.lock")' "$work/a.cdx.json" > /dev/null
post "$work/a.cdx.json" "/v1/sbom?format=cyclonedx-1.6" "$work/a2.cdx.json" > /dev/null
check "pixi:lockfile carried through an SBOM input" jq -e '.metadata.properties[] | select(.name == "pixi:lockfile" and .value == "pixi.lock")' "$work/a2.cdx.json" > /dev/null
for kind in packages licenses tree; do
  post "$lock" "/v1/report/$kind?filename=pixi.lock" "$work/r1.json" > /dev/null
  res="$(post "$work/a.cdx.json" "/v1/report/$kind" "$work/r2.json")"
  check "$kind report of the CycloneDX document: $res" [ "${res%% *}" = 200 ]
  # a license the lockfile states as none ("None") is absent from a document: its source goes with it
  rows='.'"$kind"' | if type == "array" then map(if (.license // null) == null then .license_source = null else . end) else . end'
  check "$kind report rows as from the lockfile" cmp -s <(jq -S "$rows" "$work/r1.json") <(jq -S "$rows" "$work/r2.json")
done
res="$(post "$work/a.cdx.json" "/v1/report/packages" "$work/r2.json")"
check "packages report says the input kind" jq -e '.summary.input_kind // .input_kind // "cyclonedx" | test("cyclonedx")' "$work/r2.json" > /dev/null
q='deny-license=GPL-3.0-only&fail-on=license'
c1="$(post "$lock" "/v1/sbom?$q" "$work/g1.json")"; c2="$(post "$work/a.cdx.json" "/v1/sbom?$q" "$work/g2.json")"
check "license gate on the SBOM as on the lockfile ($c1 / $c2)" [ "${c1%% *}" = "${c2%% *}" ]
check "the same violations" cmp -s <(jq -S '.violations // []' "$work/g1.json") <(jq -S '.violations // []' "$work/g2.json")
# a stale verdict in the input is not carried: the request's own policy decides
post "$lock" "/v1/sbom?format=cyclonedx-1.6&deny-license=MIT" "$work/v.cdx.json" > /dev/null
check "the input carries pixi:license-violation" jq -e '[.components[].properties[] | select(.name == "pixi:license-violation")] | length > 0' "$work/v.cdx.json" > /dev/null
post "$work/v.cdx.json" "/v1/sbom?format=cyclonedx-1.6" "$work/v2.cdx.json" > /dev/null
check "no pixi:license-violation without a policy" jq -e '[.components[].properties[] | select(.name == "pixi:license-violation")] | length == 0' "$work/v2.cdx.json" > /dev/null

# rows and counts; the sides' input kind and file name say what was sent
dnorm() { jq -S 'del(.summary.base.input_kind, .summary.base.lockfile, .summary.head.input_kind, .summary.head.lockfile)' "$1"; }
diffq() { curl -sS -o "$4" -w '%{http_code}' -F "base=@$1" -F "head=@$2" "$base/v1/diff$3"; }
diffq "$lock" "$lock2" "" "$work/d1.json" > /dev/null
res="$(diffq "$work/a.cdx.json" "$work/b.spdx.json" "" "$work/d2.json")"
check "diff of two SBOMs: $res" [ "$res" = 200 ]
check "diff of two SBOMs = diff of their lockfiles ($(jq '.diff | length' "$work/d1.json") rows)" cmp -s <(dnorm "$work/d1.json") <(dnorm "$work/d2.json")
check "the diff is not empty" jq -e '.diff | length > 0' "$work/d1.json" > /dev/null
res="$(diffq "$work/a.cdx.json" "$lock2" "" "$work/d3.json")"
check "diff of an SBOM and a lockfile: $res" [ "$res" = 200 ]
check "SBOM vs lockfile = lockfile vs lockfile" cmp -s <(dnorm "$work/d1.json") <(dnorm "$work/d3.json")
res="$(diffq "$work/a.cdx.json" "$lock" "" "$work/d4.json")"
check "an SBOM against its own lockfile: no rows" jq -e '.diff | length == 0' "$work/d4.json" > /dev/null
res="$(diffq "$work/a.cdx.json" "$work/b.spdx.json" "?output=markdown" "$work/d.md")"
check "markdown diff of two SBOMs: $res" [ "$res" = 200 ]

# --- merging several `sbom` parts (issue 23 part 5) -------------------------------
# uv.lock as CycloneDX and pixi.lock as SPDX 2.3: different roots, so a
# synthetic root over one pkg:generic component per part root
uvl="$fx/uv/pydantic/uv.lock"
post "$uvl" "/v1/sbom?format=cyclonedx-1.6&filename=uv.lock" "$work/uv.cdx.json" > /dev/null
post "$lock" "/v1/sbom?format=spdx-2.3&filename=pixi.lock" "$work/px.spdx.json" > /dev/null
nuv="$(jq '.components | length' "$work/uv.cdx.json")"
npx="$(jq '[.packages[] | select(.SPDXID != "SPDXRef-Package-root")] | length' "$work/px.spdx.json")"
# purls in both parts (a PyPI package both lock)
nboth="$(comm -12 <(jq -r '.components[].purl' "$work/uv.cdx.json" | sort -u) \
                 <(jq -r '.packages[] | select(.SPDXID != "SPDXRef-Package-root") | .externalRefs[0].referenceLocator' "$work/px.spdx.json" | sort -u) | wc -l)"
merge() { curl -sS -o "$2" -w '%{http_code} %{content_type}' "${@:3}" "$base/v1/sbom$1"; }
res="$(merge "?format=cyclonedx-1.6" "$work/m.json" -F "sbom=@$work/uv.cdx.json" -F "sbom=@$work/px.spdx.json")"
check "merge a CycloneDX and an SPDX document: $res" [ "${res%% *}" = 200 ]
check "one component per purl: $nuv + $npx - $nboth shared + 2 part roots" \
  jq -e --argjson n "$((nuv + npx - nboth + 2))" '(.components | length) == $n and ([.components[].purl] | unique | length) == $n' "$work/m.json" > /dev/null
check "a synthetic root over the two part roots" jq -e '.metadata.component.name == "merged" and
  ([.dependencies[] | select(.ref == .ref and .ref == "root") | .dependsOn[]] | sort == ["pkg:generic/pydantic", "pkg:generic/workspace"])' "$work/m.json" > /dev/null
check "each part root depends on what its document's root did" jq -e --argjson n "$(jq '.dependencies[] | select(.ref == "root") | .dependsOn | length' "$work/uv.cdx.json")" \
  '.dependencies[] | select(.ref == "pkg:generic/pydantic") | .dependsOn | length == $n' "$work/m.json" > /dev/null
check "pixi:source-document on every component, by the parts' file names" jq -e --argjson u "$nuv" --argjson p "$npx" --argjson b "$nboth" '
  [.components[] | .properties[] | select(.name == "pixi:source-document") | .value] as $v
  | ($v | length) == (.components | length)
  and ([$v[] | select(. == "uv.cdx.json")] | length) == $u - $b + 1
  and ([$v[] | select(. == "px.spdx.json")] | length) == $p - $b + 1
  and ([$v[] | select(. == "uv.cdx.json, px.spdx.json")] | length) == $b' "$work/m.json" > /dev/null
# bom-refs are purls in sbomd's CycloneDX: every edge of the uv part is in the merge
edges() { jq -r '.dependencies[] | select(.ref != "root") | .ref as $r | .dependsOn[] | "\($r) \(.)"' "$1" | sort -u; }
edges "$work/uv.cdx.json" > "$work/e1"; edges "$work/m.json" > "$work/e2"
check "the graph is the union: the uv part's $(wc -l < "$work/e1") edges all in the merge ($(wc -l < "$work/e2"))" \
  [ "$(comm -23 "$work/e1" "$work/e2" | wc -l)" = 0 ] && [ "$(wc -l < "$work/e2")" -gt "$(wc -l < "$work/e1")" ]
check "no conflicts between these two" jq -e '[.components[].properties[] | select(.name == "pixi:merge-conflict")] | length == 0' "$work/m.json" > /dev/null
check "the merged document names both parts' serial / namespace in its pixi:source-document" \
  [ "$(srcdocs "$work/m.json")" = "$(jq -cn --arg a "$(selfid "$work/uv.cdx.json")" --arg b "$(selfid "$work/px.spdx.json")" '["\($a), \($b)"]')" ]
for dst in cyclonedx-1.6 cyclonedx-1.7 spdx-2.3 spdx-3.0.1; do
  mkdir -p "$work/mv-$dst"
  res="$(merge "?format=$dst" "$work/mv-$dst/m.json" -F "sbom=@$work/uv.cdx.json" -F "sbom=@$work/px.spdx.json" -F "sbom=@$work/a3.json")"
  check "merge of three parts (CycloneDX, SPDX 2.3, SPDX 3.0.1) as $dst: $res" [ "${res%% *}" = 200 ]
  check "... validates as $dst" "$validate" -q --format "$dst" "$work/mv-$dst/m.json"
done
check "SPDX 2.3: pixi:source-document in the package comments" jq -e '[.packages[] | select(.comment // "" | test("pixi:source-document="))] | length > 100' "$work/mv-spdx-2.3/m.json" > /dev/null
# a conflicting license (and a digest): the same pixi.lock twice, one part edited
post "$lock" "/v1/sbom?format=cyclonedx-1.6&filename=pixi.lock" "$work/px.cdx.json" > /dev/null
jq '(.components[] | select(.name == "python") | .licenses) = [{"license": {"id": "MIT"}}]
    | (.components[] | select(.name == "python") | .hashes) |= map(if .alg == "SHA-256" then .content = ("0" * 64) else . end)' \
  "$work/px.cdx.json" > "$work/edited.cdx.json"
res="$(merge "?format=cyclonedx-1.6" "$work/mc.json" -F "sbom=@$work/px.spdx.json" -F "sbom=@$work/edited.cdx.json;filename=edited.json")"
check "merge with a conflict: $res" [ "${res%% *}" = 200 ]
check "one root: both parts name the same one" jq -e '.metadata.component.name == "workspace" and (.components | length) == '"$npx" "$work/mc.json" > /dev/null
check "the license and digest conflicts with both values and their parts, in one property" jq -e --arg z "$(printf '0%.0s' $(seq 64))" '.components[] | select(.name == "python")
  | [.properties[] | select(.name == "pixi:merge-conflict") | .value] | length == 1 and (.[0] | split("; ")) ==
    ["license: Python-2.0 (px.spdx.json) vs MIT (edited.json)", "sha256: 84f13bd70cff5dcdaee19263b2d4291d5793856a718efc1b63a9cfa9eb6e2ca1 (px.spdx.json) vs \($z) (edited.json)"]' "$work/mc.json" > /dev/null
check "the first part's value kept" jq -e '.components[] | select(.name == "python") | .licenses[0] | (.expression // .license.id) == "Python-2.0"' "$work/mc.json" > /dev/null
check "conflicts only on python" jq -e '[.components[] | select(any(.properties[]; .name == "pixi:merge-conflict")) | .name] == ["python"]' "$work/mc.json" > /dev/null
res="$(merge "" "$work/mi.json" -F "sbom=@$work/px.spdx.json" -F "sbom=<$work/edited.cdx.json")"
check "a part without a file name is named by its index" jq -e '.components[] | select(.name == "python") | .properties[] | select(.name == "pixi:source-document") | .value == "px.spdx.json, 2"' "$work/mi.json" > /dev/null
# bounds and refusals
cp "$root/tests/data/sbom/third.cdx.json" "$work/third.cdx.json"
args=(); for i in $(seq 1 17); do args+=(-F "sbom=@$work/third.cdx.json"); done
res="$(merge "" "$work/p.json" "${args[@]}")"
check "17 sbom parts: $res" [ "$res" = "413 application/problem+json" ]
res="$(merge "" "$work/p.json" "${args[@]:2}")"
check "16 sbom parts: $res" [ "${res%% *}" = 200 ]
res="$(merge "" "$work/p.json" -F "sbom=@$work/third.cdx.json" -F "sbom=@$lock")"
check "a lockfile as an sbom part: $res" [ "$res" = "400 application/problem+json" ]
check "... the problem names the part" jq -e '.detail | test("part 2")' "$work/p.json" > /dev/null
res="$(merge "" "$work/p.json" -F "sbom=@$work/third.cdx.json" -F "lockfile=@$lock")"
check "sbom parts and a lockfile part: $res" [ "$res" = "400 application/problem+json" ]
printf '{"bomFormat": "CycloneDX", "specVersion": "1.6", "components": [' > "$work/trunc.json"
res="$(merge "" "$work/p.json" -F "sbom=@$work/third.cdx.json" -F "sbom=@$work/trunc.json")"
check "a malformed sbom part: $res" [ "$res" = "400 application/problem+json" ]

# --- explain (issue 23 part 4) ------------------------------------------------------
ex() { curl -sS -o "$3" -w '%{http_code} %{content_type}' --data-binary @"$1" "$base/v1/report/explain?$2"; }
res="$(ex "$lock" "package=python&filename=pixi.lock" "$work/x.json")"
check "explain python: $res" [ "$res" = "200 application/json" ]
check "one package matched, facts counted" jq -e '.summary.matched == 1 and .summary.facts == (.explain | length) and .summary.facts > 10' "$work/x.json" > /dev/null
purl="$(jq -r '.components[] | select(.name == "python") | .purl' "$work/a.cdx.json")"
check "its purl fact is the document's purl" jq -e --arg p "$purl" '.explain[] | select(.fact == "purl") | .value == $p and (.source | test("derived"))' "$work/x.json" > /dev/null
check "its license fact with the lockfile as source" jq -e '.explain[] | select(.fact == "license") | .value == "Python-2.0" and .source == "pixi.lock"' "$work/x.json" > /dev/null
check "required-by names the dependents" jq -e '.explain[] | select(.fact == "required-by") | .value | test("numpy")' "$work/x.json" > /dev/null
res="$(ex "$lock" "package=python&deny-license=Python-2.0" "$work/x2.json")"
check "a policy verdict is a fact from the policy" jq -e '.explain[] | select(.fact == "pixi:license-violation") | .source == "license policy"' "$work/x2.json" > /dev/null
res="$(ex "$lock" "package=Typing_Extensions" "$work/x3.json")"
check "a PEP 503 spelling finds the package: $res" jq -e '.summary.matched == 1 and (.explain[0].name == "typing-extensions" or .explain[0].name == "typing_extensions")' "$work/x3.json" > /dev/null
res="$(ex "$lock" "package=numpy&exclude=numpy" "$work/x4.json")"
check "a package left out says why" jq -e '.summary.matched == 0 and (.explain[] | select(.fact == "excluded") | .value | test("exclude=numpy"))' "$work/x4.json" > /dev/null
res="$(ex "$lock" "package=no-such-thing" "$work/x5.json")"
check "an absent package: a 422 naming the closest names: $res" sh -c "[ '${res%% *}' = 422 ] && jq -e '.choices | length > 0' '$work/x5.json' > /dev/null"
res="$(ex "$lock" "" "$work/x6.json")"
check "package is required: $res" [ "$res" = "400 application/problem+json" ]
res="$(ex "$lock" "package=python&output=csv" "$work/x.csv")"
check "explain CSV: $res" [ "${res%% *}" = 200 ]
check "CSV read back by a parser: the JSON row's keys as header, one row per JSON fact" python3 - "$work/x.csv" "$work/x.json" <<'PY'
import csv, json, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
facts = json.load(open(sys.argv[2]))["explain"]
assert rows[0] == ["environment", "platform", "name", "version", "kind", "fact", "value", "source", "considered"], rows[0]
assert len(rows) - 1 == len(facts), (len(rows), len(facts))
assert [r[5] for r in rows[1:]] == [f["fact"] for f in facts]
PY
res="$(ex "$lock" "package=python&output=markdown" "$work/x.md")"
check "explain markdown: $res" grep -q '^| Package | Version | Kind | Fact | Value | Source | Considered |' "$work/x.md"
res="$(ex "$work/a.cdx.json" "package=python" "$work/x7.json")"
check "explain on the CycloneDX document: the same facts" cmp -s <(jq -S '[.explain[] | {fact, value}]' "$work/x.json") <(jq -S '[.explain[] | {fact, value}]' "$work/x7.json")
check "there the purl is the document's own" jq -e '.explain[] | select(.fact == "purl") | .source | test("as the document states it")' "$work/x7.json" > /dev/null

# --- third-party shapes ----------------------------------------------------------
cp "$root/tests/data/sbom/third.cdx.json" "$work/third.cdx.json"
res="$(post "$work/third.cdx.json" "/v1/sbom?format=spdx-2.3" "$work/t.spdx.json")"
check "a CycloneDX 1.4 document of another tool converts: $res" [ "${res%% *}" = 200 ]
check "it validates as SPDX 2.3" "$validate" -q --format spdx-2.3 "$work/t.spdx.json"
check "a third-party document without a serial number: no pixi:source-document" [ "$(srcdocs "$work/t.spdx.json")" = "[]" ]
check "four packages (nested component included)" jq -e '[.packages[] | select(.SPDXID != "SPDXRef-Package-root")] | length == 4' "$work/t.spdx.json" > /dev/null
check "the root is its metadata component" jq -e '.packages[] | select(.SPDXID == "SPDXRef-Package-root") | .name == "shop" and .versionInfo == "2.0"' "$work/t.spdx.json" > /dev/null
check "a maven purl kept, kind maven" jq -e '.packages[] | select(.name == "spring-core") | (.externalRefs[0].referenceLocator == "pkg:maven/org.springframework/spring-core@6.1.0") and (.comment | test("pixi:kind=maven"))' "$work/t.spdx.json" > /dev/null
check "no purl: pkg:generic made" jq -e '.packages[] | select(.name == "spring-jcl") | .externalRefs[0].referenceLocator == "pkg:generic/spring-jcl@6.1.0"' "$work/t.spdx.json" > /dev/null
check "hash lower-cased" jq -e '.packages[] | select(.name == "requests") | .checksums[0].checksumValue == "58cd2187c01e70e6e26505bca751777aa9f2ee0b7f4300988b709f44e013003f"' "$work/t.spdx.json" > /dev/null
check "a license name normalized (MIT License -> MIT)" jq -e '.packages[] | select(.name == "urllib3") | .licenseDeclared == "MIT"' "$work/t.spdx.json" > /dev/null
check "an expression kept" jq -e '.packages[] | select(.name == "spring-core") | .licenseDeclared == "Apache-2.0 OR MIT"' "$work/t.spdx.json" > /dev/null
check "edges by bom-ref: requests DEPENDS_ON urllib3" jq -e '[.relationships[] | select(.relationshipType == "DEPENDS_ON" and (.spdxElementId | test("requests")) and (.relatedSpdxElement | test("urllib3")))] | length == 1' "$work/t.spdx.json" > /dev/null
check "root edges from the metadata component's dependencies" jq -e '[.relationships[] | select(.spdxElementId == "SPDXRef-Package-root" and .relationshipType == "DEPENDS_ON")] | length == 2' "$work/t.spdx.json" > /dev/null

cp "$root/tests/data/sbom/third.spdx.json" "$work/third.spdx.json"
res="$(post "$work/third.spdx.json" "/v1/sbom?format=cyclonedx-1.6" "$work/t.cdx.json")"
check "an SPDX 2.3 document of another tool converts: $res" [ "${res%% *}" = 200 ]
check "it validates as CycloneDX 1.6" "$validate" -q --format cyclonedx-1.6 "$work/t.cdx.json"
check "a third-party document's namespace is its pixi:source-document" [ "$(srcdocs "$work/t.cdx.json")" = "$(jq -c '[.documentNamespace]' "$work/third.spdx.json")" ]
check "two packages, the described one the root" jq -e '(.components | length == 2) and .metadata.component.name == "image"' "$work/t.cdx.json" > /dev/null
check "licenseConcluded when nothing is declared" jq -e '.components[] | select(.name == "flask") | .licenses[0] | (.expression // .license.id) == "BSD-3-Clause"' "$work/t.cdx.json" > /dev/null
check "a LicenseRef resolved through its extracted name" jq -e '.components[] | select(.name == "pytest") | .licenses[0] | (.expression // .license.id) == "MIT"' "$work/t.cdx.json" > /dev/null
check "DEV_DEPENDENCY_OF reversed into flask's edges" jq -e '.dependencies[] | select(.ref | test("flask")) | .dependsOn | map(test("pytest")) | any' "$work/t.cdx.json" > /dev/null
check "DEV_DEPENDENCY_OF: pytest's scope" jq -e '.components[] | select(.name == "pytest") | .scope == "optional"' "$work/t.cdx.json" > /dev/null

cp "$root/tests/data/sbom/third.spdx3.json" "$work/third.spdx3.json"
res="$(post "$work/third.spdx3.json" "/v1/sbom?format=cyclonedx-1.6" "$work/t3.cdx.json")"
check "an SPDX 3.0.1 document of another tool converts: $res" [ "${res%% *}" = 200 ]
check "it validates as CycloneDX 1.6" "$validate" -q --format cyclonedx-1.6 "$work/t3.cdx.json"
check "three packages, the Sbom's root element the root" jq -e '(.components | length == 3) and .metadata.component.name == "shop"' "$work/t3.cdx.json" > /dev/null
check "a purl from externalIdentifier" jq -e '.components[] | select(.name == "requests") | .purl == "pkg:pypi/requests@2.31.0"' "$work/t3.cdx.json" > /dev/null
check "declared license through hasDeclaredLicense" jq -e '.components[] | select(.name == "requests") | .licenses[0] | (.expression // .license.id) == "Apache-2.0"' "$work/t3.cdx.json" > /dev/null
check "concluded license when nothing is declared" jq -e '.components[] | select(.name == "spring-core") | .licenses[0] | (.expression // .license.id) == "MIT"' "$work/t3.cdx.json" > /dev/null
check "a hash from verifiedUsing, lower-cased" jq -e '.components[] | select(.name == "requests") | .hashes[0].content == "58cd2187c01e70e6e26505bca751777aa9f2ee0b7f4300988b709f44e013003f"' "$work/t3.cdx.json" > /dev/null
check "the supplier Organization's name" jq -e '.components[] | select(.name == "spring-core") | .supplier.name == "ACME"' "$work/t3.cdx.json" > /dev/null
check "dependsOn: requests -> spring-core" jq -e '.dependencies[] | select(.ref | test("requests")) | .dependsOn | map(test("spring-core")) | any' "$work/t3.cdx.json" > /dev/null
res="$(post "$work/third.spdx3.json" "/v1/sbom?format=spdx-3.0.1" "$work/t3.spdx3.json")"
check "... and as SPDX 3.0.1: $res" "$validate" -q --format spdx-3.0.1 "$work/t3.spdx3.json"
check "the development-scoped edge kept" jq -e '[."@graph"[] | select(.type == "LifecycleScopedRelationship" and .scope == "development")] | length == 1' "$work/t3.spdx3.json" > /dev/null

# --- hostile documents: RFC 9457 problems, never a crash -------------------------
# hostile NAME WANT_CODE FILE
hostile() {
  local res
  res="$(post "$3" "/v1/sbom" "$work/p.json")"
  check "$1: $res (want $2)" [ "$res" = "$2 application/problem+json" ]
  check "$1: a problem document" jq -e '.type and .title and .status and .detail' "$work/p.json" > /dev/null
}
printf '{"bomFormat": "CycloneDX", "specVersion": "1.6", "components": [' > "$work/h1.json"
hostile "truncated CycloneDX" 400 "$work/h1.json"
{ printf '{"bomFormat": "CycloneDX", "specVersion": "1.6", "components": ['; head -c 200000 /dev/zero | tr '\0' '['; } > "$work/h2.json"
hostile "nesting 200,000 deep" 400 "$work/h2.json"
{ printf '{"bomFormat": "CycloneDX", "specVersion": "1.6", "components": [';
  for i in $(seq 1 2001); do printf '{"name": "p%d", "version": "1"},' "$i"; done; printf '{"name": "last"}]}'; } > "$work/h3.json"
res="$(post "$work/h3.json" "/v1/sbom" "$work/p.json")"
check "more components than --max-packages: $res" [ "${res#* }" = "application/problem+json" ] && [ "${res%% *}" -ge 400 ]
c='{"bomFormat": "CycloneDX", "specVersion": "1.6", "components": []}'
echo "${c/\[\]/[{\"name\": \"x\", \"purl\": \"not a purl\"}]}" > "$work/h4.json"
hostile "an invalid purl" 400 "$work/h4.json"
echo "${c/\[\]/[{\"version\": \"1\"}]}" > "$work/h5.json"
hostile "a component without a name" 400 "$work/h5.json"
echo "${c/\[\]/[{\"name\": \"a\", \"bom-ref\": \"x\"}, {\"name\": \"b\", \"bom-ref\": \"x\"}]}" > "$work/h6.json"
hostile "one bom-ref twice" 400 "$work/h6.json"
echo '{"bomFormat": "CycloneDX", "specVersion": "1.2", "components": []}' > "$work/h7.json"
res="$(post "$work/h7.json" "/v1/sbom" "$work/p.json")"
check "CycloneDX 1.2 refused: $res" [ "${res#* }" = "application/problem+json" ] && [ "${res%% *}" -ge 400 ] && [ "${res%% *}" -lt 500 ]
echo "${c/\[\]/[{\"name\": \"a\", \"hashes\": [{\"alg\": \"SHA-256\", \"content\": \"zz\"}]}]}" > "$work/h8.json"
hostile "a digest that is not hex" 400 "$work/h8.json"
echo '{"spdxVersion": "SPDX-2.3", "packages": [{"name": "a"}]}' > "$work/h9.json"
hostile "an SPDX package without an SPDXID" 400 "$work/h9.json"
echo '{"spdxVersion": "SPDX-2.3", "packages": {"a": 1}}' > "$work/h10.json"
hostile "SPDX packages not an array" 400 "$work/h10.json"
echo "${c/\[\]/[{\"name\": \"a\\u0000b\"}]}" > "$work/h11.json"
hostile "a NUL inside a name" 400 "$work/h11.json"
s3='{"@context": "https://spdx.org/rdf/3.0.1/spdx-context.jsonld", "@graph": []}'
echo "${s3/\[\]/\{\}}" > "$work/h12.json"
hostile "SPDX 3 @graph not an array" 400 "$work/h12.json"
echo "${s3/\[\]/[{\"type\": \"software_Package\", \"spdxId\": \"urn:a\"}]}" > "$work/h13.json"
hostile "an SPDX 3 package without a name" 400 "$work/h13.json"
echo "${s3/\[\]/[{\"type\": \"software_Package\", \"spdxId\": \"urn:a\", \"name\": \"a\", \"software_packageUrl\": \"x\"}]}" > "$work/h14.json"
hostile "an SPDX 3 package with an invalid purl" 400 "$work/h14.json"
res="$(curl -sS -o /dev/null -w '%{http_code}' "$base/healthz")"
check "still serving after the hostile documents: $res" [ "$res" = 200 ]

sb_done sbomin
