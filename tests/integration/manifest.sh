#!/usr/bin/env bash
# manifest.sh BUILD_DIR - the multipart `manifest` part (issue 21, spec 2.13,
# 3) against a live server, with real upstream manifests beside the fixture
# lockfiles they belong to (tests/data/manifests/SOURCES.md): a uv.lock with
# its pyproject.toml, a pixi.lock with its pixi.toml, a conda-lock.yml with
# its environment.yml. What each manifest says is read independently here
# (python tomllib / yaml) and compared with the documents: root metadata,
# pixi:direct / pixi:declared-in, root edges, scopes, the packages report's
# declared/missing summary; every document validates in all four formats;
# a malformed manifest is a 400 naming the part, line and column, an
# unreadable one a Warning + pixi:incomplete. Ends with
# "manifest: N passed, N failed".
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../lib.sh"
data="$root/tests/data/manifests"
fx="$shared/fixtures"
sb_start "$work/log" --source-date-epoch 1700000000

# post NAME LOCK MANIFEST QUERY - writes $work/NAME.json, echoes the status
post() {
  curl -sS -o "$work/$1.json" -D "$work/$1.h" -w '%{http_code}' \
    -F "lockfile=@$2" ${3:+-F "manifest=@$3"} "$base/v1/sbom${4:-}"
}
formats="cyclonedx-1.6 cyclonedx-1.7 spdx-2.3 spdx-3.0.1"
validates() { # validates NAME LOCK MANIFEST QUERY
  for fmt in $formats; do
    local q="${4:-?}"; [ "$q" = "?" ] && q="?format=$fmt" || q="$q&format=$fmt"
    local st; st="$(post "$1-$fmt" "$2" "$3" "$q")"
    check "$1 $fmt: $st" [ "$st" = 200 ]
    check "$1 $fmt validates" "$validate" -q --format "$fmt" "$work/$1-$fmt.json"
  done
}

# declared NAME MANIFEST ENV - "name feature" lines of what the manifest
# declares for ENV, read independently (PEP 503 names for PyPI, lower-case conda)
declared() {
  python3 - "$2" "$3" > "$work/$1.declared" <<'EOF'
import re, sys, tomllib
path, env = sys.argv[1], sys.argv[2]
def pep503(n): return re.sub(r"[-_.]+", "-", n).lower()
def name(spec): return re.match(r"\s*(?:[^:\s]+::)?([A-Za-z0-9._-]+)", spec).group(1)
out = []
if path.endswith(".yml"):
    import yaml
    doc = yaml.safe_load(open(path))
    for d in doc.get("dependencies", []):
        if isinstance(d, str): out.append((name(d).lower(), "default"))
        else: out += [(pep503(name(p)), "default") for p in d.get("pip", [])]
else:
    t = tomllib.load(open(path, "rb"))
    if path.endswith("pixi.toml"):
        envs = t.get("environments", {})
        e = envs.get(env)
        feats = ["default"] + ([env] if e is None and env != "default" else [])
        if e is not None:
            feats = (e if isinstance(e, list) else e.get("features", []))
            if not (isinstance(e, dict) and e.get("no-default-feature")): feats = ["default"] + feats
        for f in feats:
            tbl = t if f == "default" else t["feature"][f]
            for n in tbl.get("dependencies", {}): out.append((n.lower(), f))
            for n in tbl.get("pypi-dependencies", {}): out.append((pep503(n), f))
    else:
        p = t.get("project", {})
        out += [(pep503(name(r)), "default") for r in p.get("dependencies", [])]
        for x, rs in p.get("optional-dependencies", {}).items(): out += [(pep503(name(r)), x) for r in rs]
        groups = t.get("dependency-groups", {})
        def expand(g, seen):
            for r in groups[g]:
                if isinstance(r, str): yield r
                else:
                    assert r["include-group"] not in seen
                    yield from expand(r["include-group"], seen | {g})
        for g in groups: out += [(pep503(name(r)), g) for r in expand(g, set())]
for n, f in out: print(n, f)
EOF
}
# the document's "name declared-in" for components with pixi:direct, PEP 503 names
direct_of() {
  jq -r '.components[] | select(any(.properties[]; .name == "pixi:declared-in"))
         | "\(.name | ascii_downcase | gsub("[-_.]+"; "-")) \(.properties[] | select(.name == "pixi:declared-in") | .value)"' "$1" | sort
}
# expected "name feature,feature" for declared names the document has, features in order of first declaration
expect_direct() { # expect_direct DECLARED DOC
  jq -r '.components[].name | ascii_downcase | gsub("[-_.]+"; "-")' "$2" | sort -u > "$work/present"
  awk 'NR == FNR { have[$1] = 1; next }
       ($1 in have) { if (!($1 in f)) { order[++n] = $1; f[$1] = $2 } else if (index("," f[$1] ",", "," $2 ",") == 0) f[$1] = f[$1] "," $2 }
       END { for (i = 1; i <= n; i++) print order[i], f[order[i]] }' "$work/present" "$1" | sort
}
roots_of() { jq -r '.dependencies[] | select(.ref == "root") | .dependsOn[]' "$1" | sort; }

# --- uv.lock + pyproject.toml (pydantic) ------------------------------------
uvlock="$fx/uv/pydantic/uv.lock" pyp="$data/uv-pydantic/pyproject.toml"
st="$(post uv "$uvlock" "$pyp")"
check "uv+pyproject: $st" [ "$st" = 200 ]
mc='.metadata.component'
check "uv: root name from [project]" [ "$(jq -r "$mc.name" "$work/uv.json")" = pydantic ]
check "uv: no version (it is dynamic in the manifest)" [ "$(jq -r "$mc.version // \"none\"" "$work/uv.json")" = none ]
check "uv: every [project].authors entry, in order" [ "$(jq -c "[$mc.authors[] | [.name, .email]]" "$work/uv.json")" = \
  "$(python3 -c 'import json,tomllib; print(json.dumps([[a["name"],a["email"]] for a in tomllib.load(open("'"$pyp"'","rb"))["project"]["authors"]], separators=(",",":")))')" ]
check "uv: license MIT" [ "$(jq -c "$mc.licenses" "$work/uv.json")" = '[{"expression":"MIT"}]' ]
check "uv: urls Homepage / Source / Documentation as website, vcs, documentation" \
  [ "$(jq -c "[$mc.externalReferences[] | [.type, .url]]" "$work/uv.json")" = \
  '[["website","https://github.com/pydantic/pydantic"],["vcs","https://github.com/pydantic/pydantic"],["documentation","https://pydantic.dev/docs/validation/latest/get-started/"]]' ]
declared uv "$pyp" default
check "uv: the manifest declares something here" [ "$(wc -l < "$work/uv.declared")" -gt 40 ]
direct_of "$work/uv.json" > "$work/uv.got"
expect_direct "$work/uv.declared" "$work/uv.json" > "$work/uv.want"
check "uv: pixi:declared-in = the manifest's features/groups for every declared package present" cmp -s "$work/uv.want" "$work/uv.got"
check "uv: every package with declared-in also has pixi:direct=true" \
  jq -e '[.components[] | select(any(.properties[]; .name == "pixi:declared-in")) | any(.properties[]; .name == "pixi:direct" and .value == "true")] | all' "$work/uv.json" >/dev/null
# root edges: the declared packages, plus only what nothing else reaches (the graph stays closed)
jq -r '.components[] | select(any(.properties[]; .name == "pixi:declared-in")) | ."bom-ref"' "$work/uv.json" | sort > "$work/uv.declref"
roots_of "$work/uv.json" > "$work/uv.roots"
check "uv: every declared package is a root edge" sh -c "[ -z \"\$(comm -23 '$work/uv.declref' '$work/uv.roots')\" ]"
jq -r '[.dependencies[] | select(.ref != "root") | .dependsOn[]] | unique[]' "$work/uv.json" > "$work/uv.targets"
check "uv: other root edges only to packages nothing depends on" \
  sh -c "[ -z \"\$(comm -23 '$work/uv.roots' '$work/uv.declref' | comm -12 - '$work/uv.targets')\" ]"
# scopes: the dev-group-only packages are development (SPDX DEV_DEPENDENCY_OF), CycloneDX optional
awk '$2 != "default" && $2 != "email" && $2 != "timezone" { g[$1] = 1 } $2 == "default" || $2 == "email" || $2 == "timezone" { r[$1] = 1 }
     END { for (n in g) if (!(n in r)) print n }' "$work/uv.declared" | sort > "$work/uv.devonly"
jq -r '.components[] | select(.scope != "required") | .name | ascii_downcase | gsub("[-_.]+"; "-")' "$work/uv.json" | sort > "$work/uv.notreq"
check "uv: no dev-group-only package is required" sh -c "[ -z \"\$(comm -12 '$work/present' '$work/uv.devonly' | comm -23 - '$work/uv.notreq')\" ]"
for n in pytest ruff mkdocs; do
  check "uv: $n (dependency-groups only) is required by nothing: CycloneDX optional" \
    [ "$(jq -r --arg n "$n" '.components[] | select(.name == $n) | .scope' "$work/uv.json")" = optional ]
done
check "uv: [project].dependencies are required" \
  [ "$(jq -r '[.components[] | select(.name == "typing-extensions" or .name == "annotated-types" or .name == "typing-inspection") | .scope] | unique | join(",")' "$work/uv.json")" = required ]
check "uv: email-validator (an extra) is optional" \
  [ "$(jq -r '.components[] | select(.name == "email-validator") | .scope' "$work/uv.json")" = optional ]
post uvspdx "$uvlock" "$pyp" "?format=spdx-2.3" >/dev/null
check "uv spdx: pytest is a DEV_DEPENDENCY_OF, email-validator an OPTIONAL_DEPENDENCY_OF" \
  jq -e '([.relationships[] | select(.spdxElementId | test("pytest-9")) | .relationshipType] | index("DEV_DEPENDENCY_OF")) != null and
         ([.relationships[] | select(.spdxElementId | test("email-validator")) | .relationshipType] | index("OPTIONAL_DEPENDENCY_OF")) != null' "$work/uvspdx.json" >/dev/null
check "uv spdx: root package names the first author as originator" \
  [ "$(jq -r '.packages[0].originator' "$work/uvspdx.json")" = "Person: Samuel Colvin (s@muelcolvin.com)" ]
check "uv spdx: root licenseDeclared MIT" [ "$(jq -r '.packages[0].licenseDeclared' "$work/uvspdx.json")" = MIT ]
# the packages report: declared count and the missing names
curl -sS -o "$work/uvrep.json" -F "lockfile=@$uvlock" -F "manifest=@$pyp" "$base/v1/report/packages"
cut -d' ' -f1 "$work/uv.declared" | sort -u | comm -23 - "$work/present" > "$work/uv.missing"
check "uv report: declared_missing = declared names absent from the environment" \
  [ "$(jq -r '.summary.declared_missing | sort[]' "$work/uvrep.json")" = "$(cat "$work/uv.missing")" ]
check "uv report: declared = packages with pixi:direct from the manifest" \
  [ "$(jq '.summary.declared' "$work/uvrep.json")" = "$(wc -l < "$work/uv.got" | tr -d ' ')" ]
curl -sS -o "$work/uvrep.txt" -H 'Accept: text/plain' -F "lockfile=@$uvlock" -F "manifest=@$pyp" "$base/v1/report/packages"
check "uv report text: the declared line" grep -q "^Declared by the manifest: $(jq '.summary.declared' "$work/uvrep.json") present" "$work/uvrep.txt"
# query name/version win; the manifest changes the serial, not the lockfile-only one
post uvq "$uvlock" "$pyp" "?name=mine&version=9" >/dev/null
check "uv: query name and version win" [ "$(jq -c "[$mc.name, $mc.version]" "$work/uvq.json")" = '["mine","9"]' ]
check "uv: authors stay with a query name" [ "$(jq "$mc.authors | length" "$work/uvq.json")" = 12 ]
post uv0 "$uvlock" "" >/dev/null
check "uv: the manifest changes the serial" [ "$(jq -r .serialNumber "$work/uv0.json")" != "$(jq -r .serialNumber "$work/uv.json")" ]
curl -sS -o "$work/uvraw.json" --data-binary @"$uvlock" "$base/v1/sbom?filename=uv.lock"
check "uv: multipart without a manifest = the raw body, byte for byte" cmp -s "$work/uv0.json" "$work/uvraw.json"
validates uvv "$uvlock" "$pyp"

# --- pixi.lock + pixi.toml (features and environments) -----------------------
pxlock="$fx/pixi/pixi-examples-solve-groups-rev-2c8e724/pixi.lock" pxt="$data/pixi-solve-groups/pixi.toml"
for env in default min-py38 max-py310; do
  st="$(post "px-$env" "$pxlock" "$pxt" "?environment=$env")"
  check "pixi $env: $st" [ "$st" = 200 ]
  d="$work/px-$env.json"
  check "pixi $env: root from [project]" [ "$(jq -c "[$mc.name, $mc.version, $mc.authors]" "$d")" = \
    '["solve-groups","0.1.0",[{"name":"Bas Zalmstra","email":"zalmstra.bas@gmail.com"}]]' ]
  declared "px-$env" "$pxt" "$env"
  direct_of "$d" > "$work/px.got"
  expect_direct "$work/px-$env.declared" "$d" > "$work/px.want"
  check "pixi $env: declared-in = the environment's features" cmp -s "$work/px.want" "$work/px.got"
  check "pixi $env: pixi.lock documents carry no scope" jq -e '[.components[] | select(.scope)] | length == 0' "$d" >/dev/null
  jq -r '.components[] | select(any(.properties[]; .name == "pixi:declared-in")) | ."bom-ref"' "$d" | sort > "$work/px.declref"
  roots_of "$d" > "$work/px.roots"
  jq -r '[.dependencies[] | select(.ref != "root") | .dependsOn[]] | unique[]' "$d" > "$work/px.targets"
  jq -r '.components[]."bom-ref"' "$d" | sort | comm -23 - "$work/px.targets" > "$work/px.graphroots"
  check "pixi $env: root edges = declared + graph roots" \
    [ "$(sort -u "$work/px.declref" "$work/px.graphroots")" = "$(cat "$work/px.roots")" ]
done
check "pixi max-py310: pydantic declared by max_py310" grep -qx "pydantic max_py310" <(direct_of "$work/px-max-py310.json")
check "pixi default: pytest from the default feature, matplotlib (PyPI) from min_py38" \
  [ "$(direct_of "$work/px-default.json" | grep -E '^(matplotlib|pytest) ' | tr '\n' ';')" = 'matplotlib min_py38;pytest default;' ]
validates pxv "$pxlock" "$pxt" "?environment=min-py38"

# --- conda-lock.yml + environment.yml (conda specs and pip:) -----------------
cllock="$fx/conda-lock/conda-lock-tests-test-install-with-pip-deps/conda-lock.yml" ey="$data/condalock-pip-deps/environment.yml"
st="$(post cl "$cllock" "$ey")"
check "conda-lock+environment.yml: $st" [ "$st" = 200 ]
declared cl "$ey" default
direct_of "$work/cl.json" > "$work/cl.got"
expect_direct "$work/cl.declared" "$work/cl.json" > "$work/cl.want"
check "conda-lock: declared-in for the conda spec and the pip: entry" cmp -s "$work/cl.want" "$work/cl.got"
check "conda-lock: idna (conda) and requests (pip:) are direct" [ "$(cut -d' ' -f1 "$work/cl.got" | tr '\n' ' ')" = "idna requests " ]
check "conda-lock: requests matched the PyPI package" \
  jq -e '.components[] | select(.name == "requests") | .purl | startswith("pkg:pypi/")' "$work/cl.json" >/dev/null
roots_of "$work/cl.json" > "$work/cl.roots"
check "conda-lock: declared packages are root edges" sh -c "grep -q 'pkg:conda/idna@' '$work/cl.roots' && grep -q 'pkg:pypi/requests@' '$work/cl.roots'"
check "conda-lock: no name in environment.yml: the default root name" [ "$(jq -r "$mc.name" "$work/cl.json")" = workspace ]
validates clv "$cllock" "$ey"
# a declared name the environment lacks is listed, in both report outputs
sed 's/^- idna$/- idna\n- zzz-absent/' "$ey" > "$work/environment.yml"
curl -sS -o "$work/clrep.json" -F "lockfile=@$cllock" -F "manifest=@$work/environment.yml" "$base/v1/report/packages"
check "conda-lock report: zzz-absent is declared but missing" \
  [ "$(jq -c '[.summary.declared, .summary.declared_missing]' "$work/clrep.json")" = '[2,["zzz-absent"]]' ]
curl -sS -o "$work/clrep.txt" -H 'Accept: text/plain' -F "lockfile=@$cllock" -F "manifest=@$work/environment.yml" "$base/v1/report/packages"
check "conda-lock report text: the missing name" grep -qx 'Declared by the manifest: 2 present, 1 missing: zzz-absent' "$work/clrep.txt"
curl -sS -o "$work/clrep0.json" -F "lockfile=@$cllock" "$base/v1/report/packages"
check "no manifest: the report summary says nothing about declarations" jq -e '.summary | has("declared") | not' "$work/clrep0.json" >/dev/null

# --- malformed and unreadable manifests --------------------------------------
printf '[project]\nname = "x"\nversion = \n' > "$work/pyproject.toml"
st="$(post bad "$uvlock" "$work/pyproject.toml")"
check "malformed manifest: 400 ($st)" [ "$st" = 400 ]
check "malformed manifest: problem names the part, line and column" \
  jq -e '(.detail | test("manifest")) and (.detail | test("pyproject.toml")) and .line == 3 and .column > 0' "$work/bad.json" >/dev/null
printf '[dependency-groups]\na = [{include-group = "b"}]\nb = [{include-group = "a"}]\n' > "$work/pyproject.toml"
st="$(post cyc "$uvlock" "$work/pyproject.toml")"
check "include-group cycle: 400 at its line ($st)" jq -e '.line == 3 and (.detail | test("includes itself"))' "$work/cyc.json" >/dev/null
printf '[metadata]\nname = x\n' > "$work/setup.cfg"
st="$(post unread "$uvlock" "$work/setup.cfg")"
check "unreadable manifest: still 200 ($st)" [ "$st" = 200 ]
check "unreadable manifest: Warning header" grep -qi '^Warning: 299 sbomd "manifest' "$work/unread.h"
check "unreadable manifest: pixi:incomplete names it" \
  jq -e '.metadata.properties | any(.name == "pixi:incomplete" and (.value | test("manifest")))' "$work/unread.json" >/dev/null
check "unreadable manifest: the document is the lockfile-only one otherwise" \
  [ "$(jq -c '[.components[].purl]' "$work/unread.json")" = "$(jq -c '[.components[].purl]' "$work/uv0.json")" ]
validates unv "$uvlock" "$work/setup.cfg"

# --- the CLI over the same core: manifest and filters give the same bytes -------
gen="$(dirname "$bin")/sbomgen"
for fmt in cyclonedx-1.6 spdx-2.3; do
  curl -sS -o "$work/sock-$fmt.json" -F "lockfile=@$uvlock" -F "manifest=@$pyp" \
    "$base/v1/sbom?format=$fmt&scope=required&exclude=pydantic-c*&exclude-kind=pypi-source"
  "$gen" -f "$fmt" -t 1700000000 -m "$pyp" -S -x 'pydantic-c*' -k pypi-source "$uvlock" > "$work/cli-$fmt.json"
  check "sbomgen -m -S -x -k = the service's manifest + filters ($fmt)" cmp -s "$work/sock-$fmt.json" "$work/cli-$fmt.json"
done
check "sbomgen -S: no dev-group-only package left" \
  [ -z "$(jq -r '.components[] | select(.scope != "required") | .name' "$work/cli-cyclonedx-1.6.json")" ]
check "sbomgen -k: pixi:excluded names pydantic-core (a source build)" \
  jq -e '.metadata.properties | any(.name == "pixi:excluded" and (.value | startswith("pydantic-core (exclude-kind") or contains(", pydantic-core (exclude-kind=pypi-source)")))' "$work/cli-cyclonedx-1.6.json" >/dev/null
curl -sS -o "$work/sock-px.json" -F "lockfile=@$pxlock" -F "manifest=@$pxt" "$base/v1/sbom?environment=min-py38&include=py*&keep-orphans=true"
"$gen" -t 1700000000 -e min-py38 -m "$pxt" -i 'py*' -O "$pxlock" > "$work/cli-px.json"
check "sbomgen -e -m -i -O = the service (pixi.lock + pixi.toml)" cmp -s "$work/sock-px.json" "$work/cli-px.json"
printf '[project]\nname = "x"\nversion = \n' > "$work/pyproject.toml"
"$gen" -m "$work/pyproject.toml" "$uvlock" > /dev/null 2> "$work/cli-bad.err"; st=$?
check "sbomgen: a malformed manifest fails naming file:line:column ($st)" \
  sh -c "[ $st = 1 ] && grep -q 'pyproject.toml:3:' '$work/cli-bad.err'"
"$gen" -t 1700000000 -m "$work/setup.cfg" "$uvlock" > "$work/cli-unread.json" 2> "$work/cli-unread.err"; st=$?
check "sbomgen: an unreadable manifest warns and goes on ($st)" \
  sh -c "[ $st = 0 ] && grep -q 'warning: manifest' '$work/cli-unread.err'"
check "sbomgen: ... = the service's document for it" cmp -s "$work/unread.json" "$work/cli-unread.json"

[ -n "${SB_KEEP:-}" ] && cp -r "$work" "$SB_KEEP"
sb_done manifest
