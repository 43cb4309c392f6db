#!/usr/bin/env bash
# quality.sh BUILD_DIR - the quality report and gate against a live server:
# a uv.lock, a pixi.lock and a conda-lock.yml scored in every report output
# and written in every document format (each schema-valid, carrying the
# SBOM author and the compositions), figures cross-checked with the
# CycloneDX document, the fail-on-quality gate's 422 and its pass, the
# refusals. Ends with "quality: N passed, N failed".
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../lib.sh"
validate="$shared/tools/validate-sbom"
sb_start "$work/log" --source-date-epoch 1700000000 --sbom-author 'Organization: Example Org (sbom@example.org)'

author='Person:%20Jane%20Doe%20(jane@example.org)'
fixtures="uv/cyclonedx-python-tests-_data-infiles-environment-via-uv/uv.lock
pixi/pixi-examples-opencv/pixi.lock
conda-lock/conda-lock-example-zlib/conda-lock.yml"

docs=""
for rel in $fixtures; do
  f="$shared/fixtures/$rel"; fn="$(basename "$rel")"; tag="$(echo "$rel" | cut -d/ -f1)"
  # --- documents: every format valid, with the author ------------------------
  for fmt in cyclonedx-1.6 cyclonedx-1.7 spdx-2.3 spdx-3.0.1; do
    out="$work/$tag.$fmt.json"
    code="$(curl -s -o "$out" -w '%{http_code}' --data-binary @"$f" "$base/v1/sbom?format=$fmt&filename=$fn&author=$author")"
    check "$tag $fmt: 200" [ "$code" = 200 ]
    docs="$docs $out"
    case "$fmt" in
      cyclonedx-*)
        check "$tag $fmt: metadata.authors" python3 -c '
import json,sys; d=json.load(open(sys.argv[1]))
assert d["metadata"]["authors"]==[{"name":"Jane Doe","email":"jane@example.org"}]
c={x["bom-ref"]:x for x in d["compositions"]}
assert c["composition-assembly"]["aggregate"]=="complete" and c["composition-assembly"]["assemblies"]==["root"]
assert c["composition-dependencies"]["aggregate"]=="complete"
assert sorted(c["composition-dependencies"]["dependencies"])==sorted(["root"]+[x["bom-ref"] for x in d["components"]])
assert "composition-enrichment" not in c' "$out" ;;
      spdx-2.3)
        check "$tag $fmt: creators" python3 -c '
import json,sys; d=json.load(open(sys.argv[1]))
assert "Person: Jane Doe (jane@example.org)" in d["creationInfo"]["creators"]' "$out" ;;
      spdx-3.0.1)
        check "$tag $fmt: createdBy Person" python3 -c '
import json,sys; d=json.load(open(sys.argv[1])); g=d["@graph"]
ci=[x for x in g if x.get("type")=="CreationInfo"][0]
p=[x for x in g if x.get("type")=="Person"][0]
assert p["spdxId"] in ci["createdBy"] and p["name"]=="Jane Doe"
assert p["externalIdentifier"][0]["identifier"]=="jane@example.org"' "$out" ;;
    esac
  done
  # the server's --sbom-author when the request names none
  out="$work/$tag.default-author.json"
  curl -s -o "$out" --data-binary @"$f" "$base/v1/sbom?format=spdx-2.3&filename=$fn"
  check "$tag: --sbom-author by default" grep -q '"Organization: Example Org (sbom@example.org)"' "$out"

  # --- the report in every output ------------------------------------------------
  for o in json text markdown csv; do
    code="$(curl -s -o "$work/$tag.q.$o" -w '%{http_code}' --data-binary @"$f" "$base/v1/report/quality?output=$o&filename=$fn")"
    check "$tag quality $o: 200" [ "$code" = 200 ]
  done
  check "$tag quality json: figures match the CycloneDX document" python3 -c '
import json,sys
q=json.load(open(sys.argv[1])); d=json.load(open(sys.argv[2]))
comps=d["components"]; n=len(comps)
assert q["summary"]["packages"]==n
rows={(r["profile"],r["element"]):r for r in q["quality"]}
def row(p,e): return rows[(p,e)]
assert row("cisa-2026","component-hash")["have"]==sum(1 for c in comps if c.get("hashes"))
assert row("cisa-2026","license")["have"]==sum(1 for c in comps if c.get("licenses"))
assert row("cisa-2026","software-producer")["have"]==sum(1 for c in comps if c.get("supplier"))
assert row("cisa-2026","component-version")["have"]==sum(1 for c in comps if c.get("version"))
assert row("bsi-tr-03183-2","component-hash-sha512")["have"]==sum(1 for c in comps if any(h["alg"]=="SHA-512" for h in c.get("hashes",[])))
assert row("cisa-2026","sbom-author")["met"]  # the server default author
for r in q["quality"]:
    assert r["have"]+r["lacking"]==r["total"]
    assert sum(r["reasons"].values())==r["lacking"]
    assert len(r["first_lacking"])==min(r["lacking"],10)
    for f in r["first_lacking"]:
        assert f["reason"] in ("not in the lockfile","lookups off","lookup failed","withheld","not given")
for p in q["summary"]["profiles"]:
    failing=[r["element"] for r in q["quality"] if r["profile"]==p["profile"] and not r["met"]]
    assert p["failing"]==failing and p["verdict"]==("fail" if failing else "pass")
' "$work/$tag.q.json" "$work/$tag.cyclonedx-1.6.json"
  check "$tag quality text: a verdict per profile" [ "$(grep -c '^Verdict ' "$work/$tag.q.text")" = 3 ]
  check "$tag quality markdown: table and verdicts" grep -q '^| Profile | Element | Section |' "$work/$tag.q.markdown"
  check "$tag quality csv: header (the JSON row's keys), CRLF" grep -q $'^environment,platform,profile,element,title,section,rule,scope,have,total,lacking,reasons,first_lacking,met\r$' "$work/$tag.q.csv"
  rows_json="$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["quality"]))' "$work/$tag.q.json")"
  check "$tag quality csv: one line per row" [ "$(($(wc -l < "$work/$tag.q.csv") - 1))" = "$rows_json" ]

  # --- the gate ------------------------------------------------------------------
  code="$(curl -s -o "$work/$tag.gate" -w '%{http_code}' --data-binary @"$f" "$base/v1/sbom?filename=$fn&fail-on-quality=bsi-tr-03183-2")"
  check "$tag gate bsi: 422" [ "$code" = 422 ]
  check "$tag gate bsi: problem lists the failing elements" python3 -c '
import json,sys
p=json.load(open(sys.argv[1])); q=json.load(open(sys.argv[2]))
assert p["type"]=="urn:sbomd:problem:quality-failed"
want=["bsi-tr-03183-2:"+r["element"] for r in q["quality"] if r["profile"]=="bsi-tr-03183-2" and not r["met"]]
assert [v["rule"] for v in p["violations"]]==want and p["violationCount"]==len(want) and want' "$work/$tag.gate" "$work/$tag.q.json"
  check "$tag gate bsi: each element names its lacking packages (first 10, count) and a remedy" python3 -c '
import json,sys
p=json.load(open(sys.argv[1]))
for v in p["violations"]:
    have,total=map(int,v["value"].split("/"))
    assert v.get("remedy"), v
    if v.get("packages"):
        assert v["packageCount"]==total-have and 1<=len(v["packages"])<=min(10,total-have), v
        assert all("name" in k and k.get("reason") for k in v["packages"]), v
        assert v["package"]==v["packages"][0]["name"]
    else:
        assert total==1, v  # a document element names no package
' "$work/$tag.gate"
  code="$(curl -s -o /dev/null -w '%{http_code}' --data-binary @"$f" "$base/v1/report/packages?filename=$fn&fail-on-quality=bsi-tr-03183-2")"
  check "$tag gate on a report: 422" [ "$code" = 422 ]
done

# every document above schema-valid, in one validator run (node starts once)
"$validate" --auto $docs > "$work/valid.txt" 2>&1
for d in $docs; do
  check "$(basename "$d"): schema-valid" grep -qx "$d: valid" "$work/valid.txt"
done

# the uv fixture meets NTIA 2021 once an author is given: the gate lets it through
f="$shared/fixtures/uv/cyclonedx-python-tests-_data-infiles-environment-via-uv/uv.lock"
code="$(curl -s -o "$work/ntia.json" -w '%{http_code}' --data-binary @"$f" "$base/v1/sbom?filename=uv.lock&fail-on-quality=ntia-2021")"
check "uv gate ntia-2021 met: 200" [ "$code" = 200 ]
code="$(curl -s -o "$work/ntia.q" -w '%{http_code}' --data-binary @"$f" "$base/v1/report/quality?filename=uv.lock&profile=ntia-2021")"
check "profile=ntia-2021: 200, only its rows" python3 -c '
import json,sys; q=json.load(open(sys.argv[1]))
assert {r["profile"] for r in q["quality"]}=={"ntia-2021"} and q["summary"]["profiles"][0]["verdict"]=="pass"' "$work/ntia.q"

# requirements without `# via`: dependencies unknown, in the document and the report
req="$work/requirements.txt"; printf 'requests==2.31.0\nidna==3.6\n' > "$req"
curl -s -o "$work/req.cdx" --data-binary @"$req" "$base/v1/sbom?filename=requirements.txt"
check "requirements.txt: compositions say unknown" python3 -c '
import json,sys; d=json.load(open(sys.argv[1])); c={x["bom-ref"]:x for x in d["compositions"]}
assert c["composition-dependencies"]["aggregate"]=="unknown"' "$work/req.cdx"
check "requirements.txt: schema-valid" "$validate" -q --format cyclonedx-1.6 "$work/req.cdx"
curl -s -o "$work/req.q" --data-binary @"$req" "$base/v1/report/quality?filename=requirements.txt&profile=cisa-2026"
check "requirements.txt: dependency relationship lacking, not in the lockfile" python3 -c '
import json,sys; q=json.load(open(sys.argv[1])); r=[x for x in q["quality"] if x["element"]=="dependency-relationship"][0]
assert r["have"]==0 and r["reasons"]=={"not in the lockfile":2}' "$work/req.q"

curl -s -o "$work/req.spdx" --data-binary @"$req" "$base/v1/sbom?filename=requirements.txt&format=spdx-2.3"
check "requirements.txt: SPDX 2.3 DEPENDS_ON NOASSERTION per package" python3 -c '
import json,sys; d=json.load(open(sys.argv[1]))
r=[x for x in d["relationships"] if x["relatedSpdxElement"] in ("NONE","NOASSERTION")]
assert len(r)==2 and all(x["relatedSpdxElement"]=="NOASSERTION" for x in r)' "$work/req.spdx"
curl -s -o "$work/req.spdx3" --data-binary @"$req" "$base/v1/sbom?filename=requirements.txt&format=spdx-3.0.1"
check "requirements.txt: SPDX 3.0.1 dependsOn NoAssertionElement, noAssertion" python3 -c '
import json,sys; g=json.load(open(sys.argv[1]))["@graph"]
r=[x for x in g if x.get("relationshipType")=="dependsOn"]
assert all(x["completeness"]=="noAssertion" for x in r)
assert sum(1 for x in r if x["to"]==["NoAssertionElement"])==2' "$work/req.spdx3"
check "requirements.txt: SPDX 3.0.1 schema-valid" "$validate" -q --format spdx-3.0.1 "$work/req.spdx3"
check "pixi: SPDX 2.3 leaves DEPENDS_ON NONE, never NOASSERTION" python3 -c '
import json,sys; d=json.load(open(sys.argv[1])); pk={p["SPDXID"] for p in d["packages"]}
has={x["spdxElementId"] for x in d["relationships"] if x["relationshipType"]=="DEPENDS_ON" and x["relatedSpdxElement"] in pk}
none={x["spdxElementId"] for x in d["relationships"] if x["relatedSpdxElement"]=="NONE"}
assert not any(x["relatedSpdxElement"]=="NOASSERTION" for x in d["relationships"])
assert none and not (none & has) and (none | has) >= pk - {"SPDXRef-Package-root"}' "$work/pixi.spdx-2.3.json"
check "pixi: SPDX 3.0.1 leaves dependsOn NoneElement, all complete" python3 -c '
import json,sys; g=json.load(open(sys.argv[1]))["@graph"]
r=[x for x in g if x.get("relationshipType")=="dependsOn"]
assert all(x["completeness"]=="complete" for x in r) and any(x["to"]==["NoneElement"] for x in r)
ids={e for x in g if x.get("type")=="software_Sbom" for e in x["element"]}
assert all(x["spdxId"] in ids for x in r)' "$work/pixi.spdx-3.0.1.json"

# --- lookups: asked but failing (an index nobody answers), and asked of a server that makes none
sb_start "$work/log-lk" --source-date-epoch 1700000000 --lookups --pypi-url http://127.0.0.1:9/pypi --lookup-timeout 2
curl -s -o "$work/lk.cdx" --data-binary @"$f" "$base/v1/sbom?filename=uv.lock&fetch-licenses=true"
check "lookup failed: an incomplete composition names the packages" python3 -c '
import json,sys; d=json.load(open(sys.argv[1])); c={x["bom-ref"]:x for x in d["compositions"]}
e=c["composition-enrichment"]; assert e["aggregate"]=="incomplete"
assert sorted(e["assemblies"])==sorted(x["bom-ref"] for x in d["components"] if not x.get("licenses"))' "$work/lk.cdx"
check "lookup failed: 1.6 schema-valid" "$validate" -q --format cyclonedx-1.6 "$work/lk.cdx"
curl -s -o "$work/lk17.cdx" --data-binary @"$f" "$base/v1/sbom?filename=uv.lock&fetch-licenses=true&format=cyclonedx-1.7"
check "lookup failed: 1.7 schema-valid" "$validate" -q --format cyclonedx-1.7 "$work/lk17.cdx"
curl -s -o "$work/lk.q" --data-binary @"$f" "$base/v1/report/quality?filename=uv.lock&fetch-licenses=true&profile=cisa-2026"
check "lookup failed: the report says so" python3 -c '
import json,sys; q=json.load(open(sys.argv[1])); r=[x for x in q["quality"] if x["element"]=="license"][0]
assert r["reasons"]=={"lookup failed":r["lacking"]} and r["lacking"]>0' "$work/lk.q"
kill "$pid" 2>/dev/null
sb_start "$work/log-off" --source-date-epoch 1700000000
curl -s -o "$work/off.q" --data-binary @"$f" "$base/v1/report/quality?filename=uv.lock&fetch-licenses=true&profile=cisa-2026"
check "no lookups on this server: lookups off" python3 -c '
import json,sys; q=json.load(open(sys.argv[1])); r=[x for x in q["quality"] if x["element"]=="license"][0]
assert r["reasons"]=={"lookups off":r["lacking"]} and r["lacking"]>0' "$work/off.q"

# the author changes the document's bytes, so its serial (core/doc.c make_serial)
s1="$(curl -s --data-binary @"$f" "$base/v1/sbom?filename=uv.lock&author=ACME" | jq -r .serialNumber)"
s2="$(curl -s --data-binary @"$f" "$base/v1/sbom?filename=uv.lock&author=Person:%20ACME" | jq -r .serialNumber)"
s3="$(curl -s --data-binary @"$f" "$base/v1/sbom?filename=uv.lock&author=ACME" | jq -r .serialNumber)"
check "serial: follows the author ($s1 $s2), stable for the same one" [ "$s1" != "$s2" -a "$s1" = "$s3" -a -n "$s1" ]

# --- refusals ----------------------------------------------------------------------
code="$(curl -s -o /dev/null -w '%{http_code}' --data-binary @"$f" "$base/v1/sbom?fail-on-quality=iso-9001")"
check "fail-on-quality=unknown: 400" [ "$code" = 400 ]
code="$(curl -s -o /dev/null -w '%{http_code}' --data-binary @"$f" "$base/v1/report/quality?profile=nope")"
check "profile=unknown: 400" [ "$code" = 400 ]
code="$(curl -s -o /dev/null -w '%{http_code}' --data-binary @"$f" "$base/v1/sbom?profile=cisa-2026")"
check "profile on /v1/sbom: 400" [ "$code" = 400 ]
code="$(curl -s -o /dev/null -w '%{http_code}' --data-binary @"$f" "$base/v1/sbom?author=Person:%20(a@b)")"
check "author without a name: 400" [ "$code" = 400 ]
code="$(curl -s -o /dev/null -w '%{http_code}' --data-binary @"$f" "$base/v1/report/quality?output=sarif")"
check "quality output=sarif: 400" [ "$code" = 400 ]
"$bin" --check-config --sbom-author 'Person: (x@y)' >/dev/null 2>&1
check "--sbom-author without a name refused at start" [ $? != 0 ]

sb_done quality
