#!/usr/bin/env bash
# filters.sh BUILD_DIR - include / exclude / exclude-kind / scope / keep-orphans
# (spec 3) on real fixtures: what is left out, the reasons in pixi:excluded,
# the graph re-closed (every dependency reference resolves, in all four
# formats), schema validity, reports, no lookups for left-out packages, the
# 400s, and unfiltered documents unchanged. Ends with "N passed, N failed".
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../lib.sh"

UV="$shared/fixtures/uv/pydantic/uv.lock"              # groups and extras: required, optional, development
PIXI="$shared/fixtures/pixi/pixi-examples-pypi-rev-ced2118/pixi.lock"  # conda + pypi, pypi roots
CL="$shared/fixtures/conda-lock/conda-lock-tests-test-install-with-pip-deps/conda-lock.yml"

sb_start "$work/sbomd.log"
post() { # post FILE NAME QUERY OUT -> HTTP status
  curl -s -o "$4" -w '%{http_code}' -X POST --data-binary @"$1" "$base/v1/sbom?filename=$2&timestamp=0&$3"
}
excluded() { jq -r '.metadata.properties[] | select(.name == "pixi:excluded") | .value' "$1"; }
nexcluded() { excluded "$1" | awk 'NF { print gsub(/\), /, "") + 1 }' | grep . || echo 0; }
kinds() { jq -r '[.components[].properties[] | select(.name == "pixi:kind") | .value] | unique | join(",")' "$1"; }
# closed: every dependsOn ref is a component (or the root), every component has its entry;
# SPDX's "no dependencies" (NONE / NoneElement) and "not known" (NOASSERTION /
# NoAssertionElement) targets are not references
cdx_closed() {
  jq -e '([.components[]."bom-ref"] + ["root"]) as $refs
         | ([.dependencies[].dependsOn[]] - $refs | length == 0)
         and ([.dependencies[].ref] - $refs | length == 0)
         and ((.dependencies | length) == (.components | length) + 1)' "$1" > /dev/null
}
spdx_closed() {
  jq -e '([.packages[].SPDXID] + ["SPDXRef-DOCUMENT", "NONE", "NOASSERTION"]) as $ids
         | [.relationships[] | .spdxElementId, .relatedSpdxElement] - $ids | length == 0' "$1" > /dev/null
}
spdx3_closed() {
  jq -e '([."@graph"[] | .spdxId // empty] + ["NoneElement", "NoAssertionElement"]) as $ids
         | [."@graph"[] | select(.type == "Relationship" or .type == "LifecycleScopedRelationship")
            | .from, .to[]] - $ids | length == 0' "$1" > /dev/null
}
valid() { "$validate" --auto "$1" > /dev/null 2>&1; }

# --- uv.lock: scope=required drops the development and optional packages ---
check "uv unfiltered 200" test "$(post "$UV" uv.lock "" "$work/uv.json")" = 200
all=$(jq '.components | length' "$work/uv.json")
req=$(jq '[.components[] | select(.scope == "required")] | length' "$work/uv.json")
check "uv has packages beyond the required ones ($req of $all)" test "$req" -gt 0 -a "$req" -lt "$all"
check "uv unfiltered has no pixi:excluded" test -z "$(excluded "$work/uv.json")"
check "uv scope=required 200" test "$(post "$UV" uv.lock "scope=required" "$work/uvr.json")" = 200
check "uv scope=required keeps exactly the required packages" \
  test "$(jq -c '[.components[] | .name]' "$work/uvr.json")" = "$(jq -c '[.components[] | select(.scope == "required") | .name]' "$work/uv.json")"
check "uv scope=required: no optional scope left" test "$(jq '[.components[] | select(.scope != "required")] | length' "$work/uvr.json")" = 0
check "uv scope=required: pixi:excluded lists all $((all - req)) left out" test "$(nexcluded "$work/uvr.json")" = "$((all - req))"
check "uv scope=required: reasons are scopes" \
  test -z "$(excluded "$work/uvr.json" | tr ',' '\n' | grep -v -e '(scope=development)$' -e '(scope=optional)$' -e '(orphan)$')"
check "uv scope=required: development reason present" grep -q 'scope=development' <(excluded "$work/uvr.json")
check "uv scope=required: graph closed" cdx_closed "$work/uvr.json"
check "uv unfiltered: the root's assembly is complete" \
  test "$(jq -r '.compositions[] | select(."bom-ref" == "composition-assembly") | .aggregate' "$work/uv.json")" = complete
check "uv scope=required: packages withheld on purpose make it incomplete, not unknown" \
  test "$(jq -r '.compositions[] | select(."bom-ref" == "composition-assembly") | .aggregate' "$work/uvr.json")" = incomplete
qr() { curl -sS --data-binary @"$UV" "$base/v1/report/quality?filename=uv.lock&$1"; }
check "quality report: withheld counts the packages the filters left out ($((all - req)))" \
  test "$(qr 'scope=required' | jq .summary.withheld):$(qr '' | jq .summary.withheld)" = "$((all - req)):0"
check "quality report text: a Withheld line only when filtered" \
  test "$(qr 'scope=required&output=text' | grep -c '^Withheld: '):$(qr 'output=text' | grep -c '^Withheld: ')" = 1:0
check "uv scope=required: serial differs from unfiltered" \
  test "$(jq -r .serialNumber "$work/uvr.json")" != "$(jq -r .serialNumber "$work/uv.json")"
for fmt in cyclonedx-1.6 cyclonedx-1.7 spdx-2.3 spdx-3.0.1; do
  post "$UV" uv.lock "scope=required&format=$fmt" "$work/uvr-$fmt.json" > /dev/null
  check "uv scope=required $fmt schema-valid" valid "$work/uvr-$fmt.json"
  case $fmt in
    cyclonedx*) check "uv $fmt closed" cdx_closed "$work/uvr-$fmt.json" ;;
    spdx-2.3)
      check "uv $fmt closed" spdx_closed "$work/uvr-$fmt.json"
      check "uv $fmt root comment has pixi:excluded" \
        jq -e '.packages[0].comment | startswith("pixi:excluded=")' "$work/uvr-$fmt.json" > /dev/null
      check "uv $fmt keeps $req packages + root" test "$(jq '.packages | length' "$work/uvr-$fmt.json")" = "$((req + 1))" ;;
    spdx-3.0.1)
      check "uv $fmt closed" spdx3_closed "$work/uvr-$fmt.json"
      check "uv $fmt root comment has pixi:excluded" \
        jq -e '[."@graph"[] | .comment // empty | select(startswith("pixi:excluded="))] | length == 1' "$work/uvr-$fmt.json" > /dev/null ;;
  esac
done
check "uv scope=all is no filter (same bytes)" \
  cmp -s <(curl -s -X POST --data-binary @"$UV" "$base/v1/sbom?filename=uv.lock&timestamp=0&scope=all") "$work/uv.json"

# --- pixi.lock (conda + pypi): exclude-kind=pypi ---
post "$PIXI" pixi.lock "" "$work/px.json" > /dev/null
npx=$(jq '.components | length' "$work/px.json")
nconda=$(jq '[.components[] | select(.properties[] | .name == "pixi:kind" and .value == "conda")] | length' "$work/px.json")
check "pixi fixture mixes conda ($nconda) and pypi ($npx)" test "$(kinds "$work/px.json")" = "conda,pypi"
check "pixi exclude-kind=pypi 200" test "$(post "$PIXI" pixi.lock "exclude-kind=pypi" "$work/pxk.json")" = 200
# the PyPI packages are the roots here: without them nothing reaches the conda ones
check "pixi exclude-kind=pypi: every root gone, the rest orphans (empty)" test "$(jq '.components | length' "$work/pxk.json")" = 0
check "pixi exclude-kind=pypi: all $npx listed" test "$(nexcluded "$work/pxk.json")" = "$npx"
check "pixi exclude-kind=pypi: $nconda orphans" test "$(excluded "$work/pxk.json" | grep -o '(orphan)' | wc -l)" = "$nconda"
check "pixi exclude-kind=pypi: empty document valid" valid "$work/pxk.json"
check "pixi exclude-kind=pypi&keep-orphans 200" \
  test "$(post "$PIXI" pixi.lock "exclude-kind=pypi&keep-orphans=true" "$work/pxko.json")" = 200
check "pixi keep-orphans: only conda left" test "$(kinds "$work/pxko.json")" = "conda"
check "pixi keep-orphans: all $nconda conda packages kept" test "$(jq '.components | length' "$work/pxko.json")" = "$nconda"
check "pixi keep-orphans: only the pypi ones listed" \
  test "$(nexcluded "$work/pxko.json")" = "$((npx - nconda))" -a -z "$(excluded "$work/pxko.json" | grep -o '(orphan)')"
check "pixi keep-orphans: root edges reach the kept orphans" jq -e '.dependencies[0].dependsOn | length > 0' "$work/pxko.json" > /dev/null
check "pixi keep-orphans: graph closed" cdx_closed "$work/pxko.json"
check "pixi keep-orphans: no edge into a pypi package" \
  jq -e '[.dependencies[].dependsOn[] | select(startswith("pkg:pypi"))] | length == 0' "$work/pxko.json" > /dev/null
for fmt in cyclonedx-1.7 spdx-2.3 spdx-3.0.1; do
  post "$PIXI" pixi.lock "exclude-kind=pypi&keep-orphans=true&format=$fmt" "$work/pxko-$fmt.json" > /dev/null
  check "pixi keep-orphans $fmt schema-valid" valid "$work/pxko-$fmt.json"
done
check "pixi spdx-2.3 keep-orphans closed" spdx_closed "$work/pxko-spdx-2.3.json"
check "pixi spdx-3.0.1 keep-orphans closed" spdx3_closed "$work/pxko-spdx-3.0.1.json"
check "pixi exclude-kind=conda keeps the pypi packages" \
  test "$(post "$PIXI" pixi.lock "exclude-kind=conda" "$work/pxc.json")" = 200 -a "$(kinds "$work/pxc.json")" = "pypi"
check "pixi exclude-kind=conda closed" cdx_closed "$work/pxc.json"
check "pixi exclude-kind=conda: reasons name the kind" \
  test "$(excluded "$work/pxc.json" | grep -o '(exclude-kind=conda)' | wc -l)" = "$nconda"

# --- globs: case, ?, *, '-' = '_', repeatable, include ---
name1=$(jq -r '[.components[] | select(.name | test("-"))][0].name' "$work/px.json")
alt=$(echo "$name1" | tr 'a-z-' 'A-Z_')
check "pixi exclude=$alt (case and _ for -) leaves $name1 out" \
  test "$(post "$PIXI" pixi.lock "exclude=$alt&keep-orphans=true" "$work/g1.json")" = 200 -a \
  "$(jq --arg n "$name1" '[.components[] | select(.name == $n)] | length' "$work/g1.json")" = 0
check "pixi exclude=$alt: reason names the pattern" grep -q "^$name1@[^ ]* (exclude=$alt)" <(excluded "$work/g1.json" | tr ',' '\n' | sed 's/^ //')
check "pixi exclude=$alt: graph closed" cdx_closed "$work/g1.json"
check "pixi exclude=py* and exclude=?umpy (repeatable) 200" \
  test "$(post "$PIXI" pixi.lock "exclude=py*&exclude=%3Fumpy&keep-orphans=true" "$work/g2.json")" = 200
check "pixi exclude=py*: nothing named py* left" \
  test "$(jq '[.components[] | select(.name | ascii_downcase | startswith("py"))] | length' "$work/g2.json")" = 0
check "pixi exclude=?umpy: numpy left out" \
  test "$(jq '[.components[] | select(.name == "numpy")] | length' "$work/g2.json")" = 0 -a \
  "$(jq '[.components[] | select(.name == "numpy")] | length' "$work/px.json")" -gt 0
check "pixi exclude=py*: graph closed" cdx_closed "$work/g2.json"
check "pixi include=python&include=numpy 200" \
  test "$(post "$PIXI" pixi.lock "include=python&include=NUMPY&keep-orphans=true" "$work/g3.json")" = 200
check "pixi include: only the named packages" \
  test "$(jq -c '[.components[].name] | unique' "$work/g3.json")" = '["numpy","python"]'
check "pixi include: others have reason include" grep -q '(include)' <(excluded "$work/g3.json")
check "pixi include: graph closed" cdx_closed "$work/g3.json"
# neither is an original root: without keep-orphans nothing reaches them
check "pixi include without keep-orphans: no root kept, document empty" \
  test "$(post "$PIXI" pixi.lock "include=python&include=numpy" "$work/g4.json")" = 200 -a \
  "$(jq '.components | length' "$work/g4.json")" = 0 -a "$(nexcluded "$work/g4.json")" = "$npx"
check "pixi include without keep-orphans: python and numpy are orphans" \
  test "$(excluded "$work/g4.json" | tr ',' '\n' | grep -c -E '^ ?(python|numpy)@[^ ]* \(orphan\)$')" = 2
check "pixi keep-orphans alone changes nothing (same bytes)" \
  cmp -s <(curl -s -X POST --data-binary @"$PIXI" "$base/v1/sbom?filename=pixi.lock&timestamp=0&keep-orphans=true") "$work/px.json"

# --- conda-lock categories ---
post "$CL" conda-lock.yml "" "$work/cl.json" > /dev/null
check "conda-lock scope=required 200" test "$(post "$CL" conda-lock.yml "scope=required&format=spdx-2.3" "$work/clr.json")" = 200
check "conda-lock scope=required valid and closed" valid "$work/clr.json"
check "conda-lock scope=required closed" spdx_closed "$work/clr.json"

# --- reports take the same filters ---
check "packages report exclude-kind=pypi&keep-orphans: conda rows only" \
  test "$(curl -s -X POST --data-binary @"$PIXI" "$base/v1/report/packages?filename=pixi.lock&exclude-kind=pypi&keep-orphans=true" \
    | jq '[.packages[] | select(.kind != "conda")] | length')" = 0
check "tree report scope=required 200" \
  test "$(curl -s -o /dev/null -w '%{http_code}' -X POST --data-binary @"$UV" "$base/v1/report/tree?filename=uv.lock&scope=required&output=text")" = 200

# --- lookups only for what is kept: this server makes none, and says how many it did not make ---
notmade() { jq -r '.metadata.properties[] | select(.name == "pixi:incomplete-detail") | .value' "$1" \
  | grep -o '[0-9]* lookup(s) not made' | grep -o '^[0-9]*' || echo 0; }
post "$UV" uv.lock "fetch-licenses=true" "$work/uvl.json" > /dev/null
post "$UV" uv.lock "fetch-licenses=true&scope=required" "$work/uvrl.json" > /dev/null
a=$(notmade "$work/uvl.json"); b=$(notmade "$work/uvrl.json")
check "lookups asked for all ($a) without a filter, only the kept ($b) with one" test "$a" -gt "$b" -a "$b" -le "$req"
check "only kept packages without a license are asked for" \
  test "$b" -gt 0 -a "$b" -le "$(jq '[.components[] | select(.licenses == null)] | length' "$work/uvrl.json")"
post "$PIXI" pixi.lock "fetch-licenses=true&exclude-kind=pypi" "$work/pxl.json" > /dev/null
check "nothing kept, nothing asked" test "$(notmade "$work/pxl.json")" = 0
check "all-platforms with filters and lookups 200" \
  test "$(curl -s -o "$work/nd.json" -w '%{http_code}' -X POST --data-binary @"$PIXI" "$base/v1/sbom?filename=pixi.lock&all-platforms=true&fetch-licenses=true&exclude-kind=conda")" = 200
check "all-platforms: every document pypi only" \
  test "$(jq -r '[.components[].properties[] | select(.name == "pixi:kind") | .value] | unique | join(",")' "$work/nd.json" | sort -u)" = "pypi"

# --- against a fake index: transfers only for the kept packages ---
python3 "$root/tests/fakeindex.py" > "$work/fake.out" 2>&1 &
pids="$pids $!"
for _ in $(seq 50); do fport="$(awk '/^port/{print $2}' "$work/fake.out")"; [ -n "$fport" ] && break; sleep 0.1; done
sb_start "$work/lk.log" --lookups --pypi-url "http://127.0.0.1:$fport/pypi" --lookup-deadline 10
for i in $(seq 1 12); do printf 'pkg%04d==1.0.%d\n' "$i" "$i"; printf 'devtool%04d==2.0\n' "$i"; done > "$work/r.txt"
paths() { curl -sS "http://127.0.0.1:$fport/_count" | jq -r '.paths | keys[]'; }
res="$(curl -sS -o "$work/lk.json" -w '%{http_code}' --data-binary @"$work/r.txt" "$base/v1/sbom?filename=requirements.txt&fetch-licenses=true&exclude=devtool*")"
check "lookups with exclude=devtool*: $res" test "$res" = 200
check "the index was asked for the 12 kept packages" test "$(paths | grep -c '/pypi/pkg')" = 12
check "and never for an excluded one" test "$(paths | grep -c devtool)" = 0
check "kept packages got their licenses" jq -e '[.components[] | select(.licenses)] | length > 6' "$work/lk.json" > /dev/null
check "the 12 left out are listed" test "$(nexcluded "$work/lk.json")" = 12
curl -sS -X POST "http://127.0.0.1:$fport/_zero" > /dev/null
res="$(curl -sS -o /dev/null -w '%{http_code}' --data-binary @"$work/r.txt" "$base/v1/sbom?filename=requirements.txt&fetch-licenses=true&all-platforms=true&include=devtool000?&include=pkg0001")"
check "all-platforms (prefetch) with include: $res" test "$res" = 200
check "prefetch asked only for the 9 included devtools (pkg0001 is answered from memory)" \
  test "$(paths | grep -c devtool)" = 9 -a "$(paths | grep -c '/pypi/pkg')" = 0

# --- with a package cache: what is kept is still enriched, after the filter ---
"$here/make-cache.sh" "$PIXI" "$work/cache" > /dev/null
sb_start "$work/pc.log" --package-cache "$work/cache"
curl -sS -o "$work/pc.json" -X POST --data-binary @"$PIXI" "$base/v1/sbom?filename=pixi.lock&timestamp=0"
curl -sS -o "$work/pcf.json" -X POST --data-binary @"$PIXI" "$base/v1/sbom?filename=pixi.lock&timestamp=0&exclude-kind=pypi&keep-orphans=true&exclude=python"
lic() { jq -c '[.components[] | select(.name != "python") | select(.properties[] | .name == "pixi:kind" and .value == "conda") | {name, licenses, description}]' "$1"; }
check "package cache: kept conda packages enriched as without the filter" test "$(lic "$work/pcf.json")" = "$(lic "$work/pc.json")"
check "package cache: enrichment present" jq -e '[.components[] | select(.licenses)] | length > 5' "$work/pcf.json" > /dev/null
check "package cache: python left out" test "$(jq '[.components[] | select(.name == "python")] | length' "$work/pcf.json")" = 0
ncached() { jq -r '.metadata.properties[] | select(.name == "pixi:incomplete-detail") | .value' "$1" | grep -o 'package-cache: [0-9]* of [0-9]*' || echo none; }
check "package cache: the gap counts only kept conda packages ($(ncached "$work/pcf.json"))" \
  test "$(ncached "$work/pcf.json")" = "package-cache: 1 of $((nconda - 1))"
check "package cache: filtered document valid" valid "$work/pcf.json"

sb_start "$work/sbomd2.log" # back to a server without lookups for the rest

# --- bad values are 400s naming the parameter ---
code() { curl -s -o "$work/err.json" -w '%{http_code}' -X POST --data-binary @"$PIXI" "$base/v1/sbom?filename=pixi.lock&$1"; }
check "exclude-kind=bogus 400" test "$(code "exclude-kind=bogus")" = 400
check "exclude-kind=bogus lists the kinds" jq -e '.detail | test("exclude-kind")' "$work/err.json" > /dev/null
check "exclude= (empty) 400" test "$(code "exclude=")" = 400
check "bare include 400" test "$(code "include")" = 400
check "scope=dev 400" test "$(code "scope=dev")" = 400
check "scope twice 400" test "$(code "scope=required&scope=required")" = 400
check "keep-orphans=maybe 400" test "$(code "keep-orphans=maybe")" = 400
check "exclude-kind on a report 400 when bogus" \
  test "$(curl -s -o /dev/null -w '%{http_code}' -X POST --data-binary @"$PIXI" "$base/v1/report/licenses?exclude-kind=x")" = 400

sb_done filters
