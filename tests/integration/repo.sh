#!/usr/bin/env bash
# repo.sh BUILD_DIR - a whole repository in one request against a live
# server: a monorepo built here from the shared fixtures (and this
# repository's own git archive) as tar.gz, tar, tar.zst, zip and several
# lockfile parts gives one valid document in all four formats whose
# packages are the union of the per-lockfile documents; what was read and
# skipped is said; reports, gates, diff and the snapshot take archives;
# hostile archives (bombs, 100,001 members, deep paths, links, nested
# archives, truncated, a bad checksum) each get their problem answer in
# time, and the server keeps serving. Ends with "repo: N passed, N failed".
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../lib.sh"
sb_start "$work/log" --source-date-epoch 1700000000 --request-timeout 60
fx="$shared/fixtures"

# the monorepo: folders of fixtures, a tree skipped by default, a broken
# lockfile, a link, a nested archive, a lockfile found by content
m="$work/mono/proj"
mkdir -p "$m"/{backend,tools,web/node_modules/dep,docs,env,broken,links}
cp "$fx/uv/pydantic/uv.lock" "$m/backend/"
cp "$fx/pixi/pixi-build-backends/pixi.lock" "$m/tools/"
cp "$fx/npm/npm-cli-arborist-sax/package-lock.json" "$m/web/"
cp "$fx/npm/npm-cli-root/package-lock.json" "$m/web/node_modules/dep/" 2>/dev/null || cp "$fx/npm/npm-cli-arborist-sax/package-lock.json" "$m/web/node_modules/dep/"
cp "$fx/poetry/cyclonedx-python-tests-_data-infiles-poetry-with-extras-lock21/poetry.lock" "$m/docs/"
cp "$fx/explicit/conda-lock-tests-zlib/conda-win-64.lock" "$m/env/"
chmod -R u+w "$m"
printf 'version = 1\n[[package]]\nname = "x"\nbroken\n' > "$m/broken/uv.lock"
ln -s ../backend/uv.lock "$m/links/uv.lock"
(cd "$m/.." && tar czf "$work/nested.tgz" proj/docs) && cp "$work/nested.tgz" "$m/docs/old.tgz"
(cd "$work/mono" && tar czf "$work/mono.tgz" proj && tar cf "$work/mono.tar" proj && zip -qry "$work/mono.zip" proj)
zstd -q -o "$work/mono.tar.zst" "$work/mono.tar" 2>/dev/null

# post FILE QUERY OUT - prints the status; headers in OUT.h
post() { curl -sS -o "$3" -D "$3.h" -w '%{http_code}' --data-binary @"$1" "$base$2"; }
# the purls of a document's packages but the lockfile components, sorted and unique
purls() {
  jq -r 'if .components then [.components[].purl] elif .packages then [.packages[] | (.externalRefs // [])[] | select(.referenceType == "purl") | .referenceLocator]
         else [."@graph"[] | select(.type == "software_Package") | .software_packageUrl // empty] end
         | .[] | select(. != null and (startswith("pkg:generic/") | not))' "$1" | sort -u
}

# the union of the per-lockfile documents
: > "$work/union.txt"
for f in backend/uv.lock tools/pixi.lock web/package-lock.json docs/poetry.lock env/conda-win-64.lock; do
  code=$(curl -sS -o "$work/one.json" -w '%{http_code}' --data-binary @"$m/$f" "$base/v1/sbom?filename=$(basename "$f")")
  check "per-lockfile $f: 200" [ "$code" = 200 ]
  purls "$work/one.json" > "$work/one-${f%%/*}.txt"
  cp "$work/one.json" "$work/one-${f%%/*}.json"
  cat "$work/one-${f%%/*}.txt" >> "$work/union.txt"
done
sort -u "$work/union.txt" -o "$work/union.txt"

for fmt in cyclonedx-1.6 cyclonedx-1.7 spdx-2.3 spdx-3.0.1; do
  t0=$(date +%s%N)
  code=$(post "$work/mono.tgz" "/v1/sbom?format=$fmt" "$work/r-$fmt.json")
  check "tar.gz as $fmt: 200 ($code)" [ "$code" = 200 ]
  check "tar.gz as $fmt validates" "$validate" -q --format "$fmt" "$work/r-$fmt.json"
  purls "$work/r-$fmt.json" > "$work/got-$fmt.txt"
  check "tar.gz as $fmt: packages = union of the per-lockfile documents ($(wc -l < "$work/got-$fmt.txt") vs $(wc -l < "$work/union.txt"))" cmp -s "$work/got-$fmt.txt" "$work/union.txt"
  echo "  $fmt: $(( ($(date +%s%N) - t0) / 1000000 )) ms" >&2
done
h="$work/r-cyclonedx-1.6.json.h"
check "read header lists five lockfiles" grep -q '^Sbomd-Repository-Read: .*backend/uv.lock.*' "$h"
check "skipped: node_modules by default" grep -q '^Sbomd-Repository-Skipped: .*web/node_modules/ (skipped by default' "$h"
check "skipped: the link, not followed" grep -q 'links/uv.lock (a link, not followed)' "$h"
check "skipped: the nested archive, not opened" grep -q 'docs/old.tgz (an archive inside the archive, not opened)' "$h"
check "broken lockfile in Sbomd-Incomplete" grep -qi '^Sbomd-Incomplete: .*lockfiles' "$h"
check "broken lockfile in pixi:incomplete-detail with its line" jq -e '.metadata.properties[] | select(.name == "pixi:incomplete-detail") | .value | test("broken/uv.lock: line 4")' "$work/r-cyclonedx-1.6.json"
check "root is the top folder" jq -e '.metadata.component.name == "proj"' "$work/r-cyclonedx-1.6.json"
check "each lockfile a component depending on what it locks" jq -e '[.dependencies[] | select(.ref | startswith("pkg:generic/backend")) | .dependsOn | length] | .[0] > 0' "$work/r-cyclonedx-1.6.json"
check "packages record their lockfiles" jq -e '[.components[] | select(.properties // [] | any(.name == "pixi:lockfiles"))] | length > 100' "$work/r-cyclonedx-1.6.json"

# the other containers and several lockfile parts give the same packages
for f in mono.tar mono.zip mono.tar.zst; do
  [ -f "$work/$f" ] || { bad "$f not built"; continue; }
  code=$(post "$work/$f" "/v1/sbom" "$work/o.json")
  check "$f: 200 ($code)" [ "$code" = 200 ]
  purls "$work/o.json" > "$work/o.txt"
  check "$f: the same packages" cmp -s "$work/o.txt" "$work/union.txt"
done
code=$(curl -sS -o "$work/mp.json" -w '%{http_code}' -F lockfile=@"$m/backend/uv.lock" -F lockfile=@"$m/web/package-lock.json" -F lockfile=@"$m/docs/poetry.lock" "$base/v1/sbom")
check "several lockfile parts: 200 ($code)" [ "$code" = 200 ]
check "several lockfile parts: three lockfile components" jq -e '[.components[] | select(.properties // [] | any(.name == "pixi:lockfile-kind"))] | length == 3' "$work/mp.json"

# options: paths=, skip-paths=, strict=, name=
code=$(post "$work/mono.tgz" "/v1/sbom?paths=*backend*" "$work/p.json")
check "paths= reads only what it matches" jq -e '[.components[] | select(.properties // [] | any(.name == "pixi:lockfile-kind"))] | length == 1' "$work/p.json"
code=$(post "$work/mono.tgz" "/v1/sbom?skip-paths=broken/*" "$work/s.json")
check "skip-paths= drops the broken lockfile: no incomplete lockfiles" bash -c "! grep -qi '^Sbomd-Incomplete: .*lockfiles' '$work/s.json.h'"
code=$(post "$work/mono.tgz" "/v1/sbom?strict=true" "$work/st.json")
check "strict=true: 422 ($code)" [ "$code" = 422 ]
check "strict=true names the file and line" jq -e '(.detail | test("broken/uv.lock")) and .line == 4' "$work/st.json"
code=$(post "$work/mono.tgz" "/v1/sbom?name=mono&version=2.0" "$work/n.json")
check "name= and version= name the root" jq -e '.metadata.component.name == "mono" and .metadata.component.version == "2.0"' "$work/n.json"

# reports, gates, quality, diff, snapshot, NDJSON-free cache
code=$(post "$work/mono.tgz" "/v1/report/packages?output=csv" "$work/rep.csv")
check "packages report on an archive: 200 ($code)" [ "$code" = 200 ]
code=$(post "$work/mono.tgz" "/v1/report/quality" "$work/q.json")
check "quality report on an archive: 200 ($code)" [ "$code" = 200 ]
code=$(post "$work/mono.tgz" "/v1/sbom?deny-license=MIT&fail-on=license" "$work/g.json")
check "license gate over the whole repository: 422 ($code)" [ "$code" = 422 ]
code=$(curl -sS -o "$work/d.json" -w '%{http_code}' -F base=@"$work/mono.tgz" -F head=@"$work/mono.zip" "$base/v1/diff")
check "diff of two archives: 200 ($code)" [ "$code" = 200 ]
(cd "$work/mono" && rm -rf proj/web && tar czf "$work/mono2.tgz" proj)
code=$(curl -sS -o "$work/d2.json" -w '%{http_code}' -F base=@"$work/mono.tgz" -F head=@"$work/mono2.tgz" "$base/v1/diff")
check "diff: a lockfile removed is a change ($code)" jq -e 'tostring | test("web/package-lock.json")' "$work/d2.json"
code=$(post "$work/mono.tgz" "/v1/sbom?format=github-snapshot&sha=0123456789abcdef0123456789abcdef01234567&ref=refs/heads/main&correlator=ci&job-id=1" "$work/gh.json")
check "GitHub snapshot of an archive: 200 ($code)" [ "$code" = 200 ]
code=$(post "$work/mono.tgz" "/v1/sbom" "$work/again.json")
check "repeat of the archive: the same bytes (result cache)" cmp -s "$work/again.json" "$work/r-cyclonedx-1.6.json"

# NDJSON: one document per lockfile (x environment), each naming its path,
# each the lockfile's own document
code=$(post "$work/mono.tgz" "/v1/sbom?all-environments=true" "$work/nd.ndjson")
check "all-environments on an archive: 200 ($code)" [ "$code" = 200 ]
lf() { jq -r '.metadata.properties[] | select(.name == "pixi:lockfile") | .value' "$1"; }
envof() { jq -r '.metadata.properties[] | select(.name == "pixi:environment") | .value' "$1"; }
n=0; : > "$work/nd-names.txt"
while IFS= read -r line; do
  n=$((n + 1)); printf '%s\n' "$line" > "$work/nd-$n.json"; lf "$work/nd-$n.json" >> "$work/nd-names.txt"
done < "$work/nd.ndjson"
check "NDJSON: each read lockfile has its documents ($(sort -u "$work/nd-names.txt" | tr '\n' ' '))" \
  [ "$(sort -u "$work/nd-names.txt" | tr '\n' ' ')" = "backend/uv.lock docs/poetry.lock env/conda-win-64.lock tools/pixi.lock web/package-lock.json " ]
check "NDJSON: tools/pixi.lock one document per environment (5)" [ "$(grep -c '^tools/pixi.lock$' "$work/nd-names.txt")" = 5 ]
for k in $(seq 1 "$n"); do
  f="$(lf "$work/nd-$k.json")"
  [ "$(envof "$work/nd-$k.json")" = default ] || continue
  purls "$work/nd-$k.json" > "$work/nd-$k.txt"
  check "NDJSON line $k ($f): the packages of its own document" cmp -s "$work/nd-$k.txt" "$work/one-${f%%/*}.txt"
  check "NDJSON line $k ($f): no lockfile as a component" jq -e '[.components[] | select(.properties // [] | any(.name == "pixi:lockfile-kind"))] | length == 0' "$work/nd-$k.json"
done
check "NDJSON line 1 validates" "$validate" -q --format cyclonedx-1.6 "$work/nd-1.json"
code=$(post "$work/mono.tgz" "/v1/sbom?all-environments=true&format=spdx-2.3" "$work/nds.ndjson")
check "NDJSON as SPDX 2.3: a document per lockfile x environment ($(wc -l < "$work/nds.ndjson"))" [ "$(wc -l < "$work/nds.ndjson")" = "$n" ]
head -1 "$work/nds.ndjson" > "$work/nds-1.json"
check "NDJSON SPDX line 1 validates" "$validate" -q --format spdx-2.3 "$work/nds-1.json"
code=$(post "$work/mono.tgz" "/v1/sbom?all-environments=true&deny-license=MIT&fail-on=license" "$work/ndg.json")
check "license gate over an archive's NDJSON: 422 ($code)" [ "$code" = 422 ]

# the GitHub snapshot: one manifest per lockfile, named by its path
gh="sha=0123456789abcdef0123456789abcdef01234567&ref=refs/heads/main&correlator=ci&job-id=1"
check "snapshot: manifests are the lockfiles' paths" jq -e '.manifests | keys == ["backend/uv.lock", "docs/poetry.lock", "env/conda-win-64.lock", "tools/pixi.lock", "web/package-lock.json"]' "$work/gh.json"
check "snapshot: each manifest's name and source_location are its path" jq -e '[.manifests | to_entries[] | .key == .value.name and .key == .value.file.source_location] | all' "$work/gh.json"
jq -r '.manifests["backend/uv.lock"].resolved[].package_url' "$work/gh.json" | grep -v '^pkg:generic/' | sort -u > "$work/gh-backend.txt"
check "snapshot: backend/uv.lock resolves its own packages" cmp -s "$work/gh-backend.txt" "$work/one-backend.txt"
code=$(post "$work/mono.tgz" "/v1/sbom?format=github-snapshot&$gh&path=repo" "$work/ghp.json")
check "snapshot path=: the folder of the lockfiles' paths" jq -e '.manifests["web/package-lock.json"].file.source_location == "repo/web/package-lock.json"' "$work/ghp.json"
code=$(post "$work/mono.tgz" "/v1/sbom?format=github-snapshot&$gh&all-environments=true" "$work/gha.json")
check "snapshot with all-environments: a manifest per lockfile x environment" jq -e '(.manifests | length) == '"$n"' and (.manifests | has("tools/pixi.lock:docs:linux-64"))' "$work/gha.json"

# SPDX holds what CycloneDX holds: each lockfile a package, what it locks
# related to it, and which lockfiles lock each package
cdx_lf=$(jq '[.components[] | select(.properties // [] | any(.name == "pixi:lockfiles"))] | length' "$work/r-cyclonedx-1.6.json")
check "SPDX 2.3: each lockfile a package" jq -e '[.packages[] | select(.name | test("^(backend/uv.lock|tools/pixi.lock|web/package-lock.json|docs/poetry.lock|env/conda-win-64.lock)$"))] | length == 5' "$work/r-spdx-2.3.json"
check "SPDX 2.3: each lockfile DEPENDS_ON what it locks" jq -e '[.packages[] | select(.comment // "" | test("pixi:lockfile-kind=")) | .SPDXID] as $l | [$l[] as $id | [.relationships[] | select(.spdxElementId == $id and .relationshipType == "DEPENDS_ON")] | length > 0] | (length == 5 and all)' "$work/r-spdx-2.3.json"
check "SPDX 2.3: which lockfiles lock each package, as CycloneDX says ($cdx_lf)" jq -e "[.packages[] | select(.comment // \"\" | test(\"pixi:lockfiles=\"))] | length == $cdx_lf" "$work/r-spdx-2.3.json"
check "SPDX 3.0.1: each lockfile a package depending on what it locks" jq -e '[."@graph"[] | select(.type == "software_Package" and (.comment // "" | test("pixi:lockfile-kind="))) | .spdxId] as $l | [$l[] as $id | [."@graph"[] | select(.type == "Relationship" and .from == $id and .relationshipType == "dependsOn")] | length > 0] | (length == 5 and all)' "$work/r-spdx-3.0.1.json"
check "SPDX 3.0.1: which lockfiles lock each package ($cdx_lf)" jq -e "[.\"@graph\"[] | select(.type == \"software_Package\" and (.comment // \"\" | test(\"pixi:lockfiles=\")))] | length == $cdx_lf" "$work/r-spdx-3.0.1.json"

# reports: the lockfile column, each package's lockfiles
code=$(post "$work/mono.tgz" "/v1/report/packages" "$work/rep.json")
check "packages report: every row names its lockfiles" jq -e '[.packages[] | .lockfile != null] | all' "$work/rep.json"
check "packages CSV: lockfile after environment and platform" bash -c "head -1 '$work/rep.csv' | grep -q '^environment,platform,lockfile,name,'"
for f in backend web tools; do
  jq -r --arg f "$f/" '.packages[] | select(.lockfile | split(", ") | any(startswith($f))) | .purl' "$work/rep.json" | grep -v '^pkg:generic/' | sort -u > "$work/rep-$f.txt"
  check "packages report: the rows naming $f/ are its lockfile's packages" cmp -s "$work/rep-$f.txt" "$work/one-$f.txt"
done
code=$(post "$work/mono.tgz" "/v1/report/quality" "$work/q.json")
check "quality report on an archive: its rows are about no one lockfile" jq -e '[.quality[] | has("lockfile") and .lockfile == null] | all' "$work/q.json"
code=$(curl -sS -o "$work/one-rep.json" -w '%{http_code}' --data-binary @"$m/backend/uv.lock" "$base/v1/report/packages?filename=uv.lock")
check "a single lockfile's report has no lockfile column" jq -e '.packages[0] | has("lockfile") | not' "$work/one-rep.json"

# diff of two archives: lockfile by lockfile, a lockfile removed or added a change
check "diff of an archive against itself as zip: no change" jq -e '.summary.changes == 0' "$work/d.json"
nweb=$(jq '[.components[] | select(.purl | startswith("pkg:generic/") | not)] | length' "$work/one-web.json")
check "diff: the removed lockfile is a row of its own" jq -e '[.diff[] | select(.change == "removed" and .kind == "external" and .name == "web/package-lock.json")] | length == 1' "$work/d2.json"
check "diff: every change names its lockfile" jq -e '[.diff[] | .lockfile == "web/package-lock.json"] | all' "$work/d2.json"
check "diff: its packages removed with it ($nweb + 1)" jq -e "([.diff[] | select(.kind == \"npm\")] | length) == $nweb and .summary.removed == $nweb + 1" "$work/d2.json"
code=$(curl -sS -o "$work/d3.json" -w '%{http_code}' -F base=@"$work/mono2.tgz" -F head=@"$work/mono.tgz" "$base/v1/diff")
check "diff: a lockfile added is a change ($code)" jq -e '([.diff[] | select(.change == "added" and .name == "web/package-lock.json")] | length) == 1 and .summary.added == '"$((nweb + 1))" "$work/d3.json"
code=$(curl -sS -o "$work/d3.csv" -w '%{http_code}' -F base=@"$work/mono2.tgz" -F head=@"$work/mono.tgz" "$base/v1/diff?output=csv")
check "diff CSV of archives: the lockfile column after environment and platform" python3 -c '
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
assert rows[0][:4] == ["environment", "platform", "lockfile", "change"], rows[0]
assert sum(1 for r in rows[1:] if r[2] == "web/package-lock.json") == int(sys.argv[2])
' "$work/d3.csv" $((nweb + 1))
code=$(curl -sS -o "$work/d3.json" -w '%{http_code}' -F base=@"$work/mono2.tgz" -F head=@"$work/mono.tgz" "$base/v1/diff?output=json")
out="$(python3 "$here/check-schema.py" "$root/openapi/reports.schema.json" diff "$work/d3.json" "$work/d3.csv" repository 2>&1)"
check "diff of archives: JSON and CSV hold to the one schema ($code)${out:+: $out}" [ -z "$out" ]
code=$(curl -sS -o "$work/d3.txt" -w '%{http_code}' -F base=@"$work/mono2.tgz" -F head=@"$work/mono.tgz" "$base/v1/diff?output=text")
check "diff text of archives: names as path: name" grep -q 'web/package-lock.json: ' "$work/d3.txt"
code=$(curl -sS -o "$work/d4.json" -w '%{http_code}' -F base=@"$work/mono2.tgz" -F head=@"$work/mono.tgz" "$base/v1/diff?fail-on=added")
check "diff gate on archives: a lockfile added fails fail-on=added ($code)" [ "$code" = 422 ]

# this repository's own git archive, when it is a git checkout with lockfiles
if git -C "$root" rev-parse HEAD > /dev/null 2>&1; then
  git -C "$root" archive --format=tar.gz HEAD > "$work/self.tgz"
  code=$(post "$work/self.tgz" "/v1/sbom" "$work/self.json")
  check "git archive of sbomd itself: 200 ($code)" [ "$code" = 200 ]
  check "git archive of sbomd itself validates" "$validate" -q --format cyclonedx-1.6 "$work/self.json"
  check "git archive of sbomd itself: tests/*/package-lock.json read" grep -q '^Sbomd-Repository-Read: .*package-lock.json' "$work/self.json.h"
fi

# hostile archives: each its problem answer, in time
python3 - "$work" <<'PY'
import io, os, sys, tarfile, zipfile, gzip
w = sys.argv[1]
def tgz(name, members, fmt="w:gz"):
    with tarfile.open(os.path.join(w, name), fmt) as t:
        for n, data, kind in members:
            ti = tarfile.TarInfo(n)
            if kind == "sym": ti.type = tarfile.SYMTYPE; ti.linkname = "/etc/passwd"
            elif kind == "hard": ti.type = tarfile.LNKTYPE; ti.linkname = "etc/passwd"
            else: ti.size = len(data)
            t.addfile(ti, io.BytesIO(data) if kind == "file" else None)
# a gzip bomb: 2 GiB of zeros streamed in, about 2 MB compressed
with open(os.path.join(w, "bomb.tgz"), "wb") as f:
    with gzip.GzipFile(fileobj=f, mode="wb", compresslevel=9) as g:
        ti = tarfile.TarInfo("zeros.bin"); ti.size = 2 << 30
        g.write(ti.tobuf(tarfile.USTAR_FORMAT))
        z = bytes(1 << 20)
        for _ in range(2048): g.write(z)
# a zip bomb: one member declaring 4 GiB
with zipfile.ZipFile(os.path.join(w, "bomb.zip"), "w", zipfile.ZIP_DEFLATED) as z:
    with z.open("uv.lock", "w", force_zip64=True) as m:
        blk = bytes(1 << 20)
        for _ in range(256): m.write(blk)
tgz("many.tgz", [("f%06d" % i, b"", "file") for i in range(100001)])
tgz("deep.tgz", [("/".join(["d"] * 80) + "/uv.lock", b"x", "file"), ("ok/requirements.txt", b"six==1.16.0\n", "file")])
tgz("links.tgz", [("a/uv.lock", b"", "sym"), ("b/poetry.lock", b"", "hard"), ("c/requirements.txt", b"six==1.16.0\n", "file")])
tgz("dots.tgz", [("../../etc/uv.lock", b"x", "file"), ("/abs/uv.lock", b"x", "file"), ("ok/requirements.txt", b"six==1.16.0\n", "file")])
inner = io.BytesIO()
with tarfile.open(fileobj=inner, mode="w:gz") as t:
    ti = tarfile.TarInfo("requirements.txt"); d = b"six==1.16.0\n"; ti.size = len(d); t.addfile(ti, io.BytesIO(d))
tgz("nested.tgz", [("inner.tar.gz", inner.getvalue(), "file")])
good = open(os.path.join(w, "mono.tgz"), "rb").read()
open(os.path.join(w, "trunc.tgz"), "wb").write(good[: len(good) // 2])
raw = bytearray(open(os.path.join(w, "mono.tar"), "rb").read()); raw[20] ^= 1
open(os.path.join(w, "cksum.tar"), "wb").write(bytes(raw))
PY
while read -r file want what; do
  t0=$(date +%s%N)
  code=$(post "$work/$file" "/v1/sbom" "$work/h.json")
  ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  echo "  $file: $code in $ms ms" >&2
  check "$file: $want ($code, $ms ms)" [ "$code" = "$want" ]
  check "$file: within the deadline" [ "$ms" -lt 60000 ]
  if [ "$want" != 200 ]; then
    check "$file: problem JSON naming $what" jq -e -r --arg w "$what" '.type and (.detail | test($w))' "$work/h.json"
  else
    check "$file: $what" grep -q "$what" "$work/h.json.h"
  fi
done <<'CASES'
bomb.tgz 413 compression ratio
bomb.zip 413 over the cap
many.tgz 413 cap on entries
deep.tgz 200 path too deep
links.tgz 200 a link, not followed
dots.tgz 200 '..' in the name refused
nested.tgz 422 an archive inside the archive
trunc.tgz 400 truncated
cksum.tar 400 checksum
CASES
check "the server still serves" curl -sSf -o /dev/null "$base/healthz"
code=$(post "$work/mono.tgz" "/v1/sbom" "$work/after.json")
check "and still reads archives ($code)" [ "$code" = 200 ]

sb_done repo
