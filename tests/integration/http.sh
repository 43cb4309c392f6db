#!/usr/bin/env bash
# http.sh - end-to-end tests against a real sbomd on a free loopback port.
#   tests/integration/http.sh BUILD_DIR
# Posts every pixi.lock fixture, validates each document with validate-sbom,
# checks component counts against an independent count, unique bom-refs and
# resolvable dependency refs; then bad inputs, each answered with
# problem+json while the server keeps serving. Ends with "N passed, N failed".
# SB_SLICE=K takes every K-th fixture only (the valgrind stage's slice: every
# kind and bad input still runs, on fewer lockfiles of each kind).
set -u
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
bin="${1:-$root/build/release}/sbomd"
shared="${SB_SHARED:-$root/../shared}"
validate="$shared/tools/validate-sbom"
work="$(mktemp -d)"
pass=0 fail=0
ok()   { pass=$((pass + 1)); }
# to stderr: a check whose command is redirected (jq ... >/dev/null) redirects this too
bad()  { fail=$((fail + 1)); echo "  FAIL $*" >&2; }
check() { local name="$1"; shift; if "$@"; then ok; else bad "$name"; fi; }

log="$work/sbomd.log"
${SB_WRAP:-} "$bin" --listen 127.0.0.1 --port 0 --source-date-epoch 1700000000 2> "$log" &
pid=$!
cleanup() { kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
port=""
for _ in $(seq 1 100); do
  port="$(grep -o '"detail":"http://127.0.0.1:[0-9]*' "$log" 2>/dev/null | grep -o '[0-9]*$' | head -1)"
  [ -n "$port" ] && break
  sleep 0.1
done
if [ -z "$port" ]; then echo "sbomd did not start:"; cat "$log"; echo "0 passed, 1 failed"; exit 1; fi
base="http://127.0.0.1:$port"
echo "integration: sbomd on $base"

post() { # post FILE QUERY OUT -> prints "status content-type"
  curl -sS -o "$3" -w '%{http_code} %{content_type}' --data-binary @"$1" "$base/v1/sbom$2"
}

# --- every lockfile fixture ---------------------------------------------------
# Python kinds are counted independently by count-py.py (tomllib + packaging).
python=/usr/bin/python3
slice="${SB_SLICE:-1}" nfix=0
refused=0
docs=() docs_cyclonedx_1_7=() docs_spdx_2_3=() docs_spdx_3_0_1=()
while IFS=$'\t' read -r rel kind _rest; do
  case "$rel" in pixi/*|explicit/*|conda-lock/*|uv/*|pylock/*|poetry/*|pdm/*|requirements/*) ;; *) continue ;; esac
  nfix=$((nfix + 1)); [ $((nfix % slice)) = 0 ] || continue
  f="$shared/fixtures/$rel"
  name="${rel//\//_}"
  out="$work/$name.json"
  query="?format=cyclonedx-1.6&filename=$(basename "$rel")"
  pykind=""
  case "$rel" in uv/*|pylock/*|poetry/*|pdm/*|requirements/*) pykind="${rel%%/*}" ;; esac
  if [ -n "$pykind" ]; then
    want="$("$python" "$here/count-py.py" "$pykind" "$f" 2>&1)"
    if [ "$want" = refused ]; then
      # the spec refuses it (old format version, unpinned requirement): a 422 naming why
      res="$(post "$f" "$query" "$out")"
      check "$rel: refused with 422 problem+json (got $res)" [ "$res" = "422 application/problem+json" ]
      check "$rel: the refusal says why" jq -e '.detail | test("not supported|not pinned|URL or path|editable|includes")' "$out" >/dev/null
      refused=$((refused + 1))
      continue
    fi
  fi
  res="$(post "$f" "$query" "$out")"
  if [ "${res%% *}" = 422 ]; then
    # no default selection: take the first choice the server offers
    choice="$(jq -r '.choices[0] // empty' "$out")"
    if grep -q "not found in lockfile" "$out"; then query="$query&environment=$choice"; else query="$query&platform=$choice"; fi
    res="$(post "$f" "$query" "$out")"
  fi
  if [ "${res%% *}" != 200 ]; then bad "$rel: HTTP $res $(head -c 300 "$out")"; continue; fi
  ok
  check "$rel content-type" [ "${res#* }" = "application/vnd.cyclonedx+json; version=1.6" ]
  env="$(jq -r '.metadata.properties[] | select(.name=="pixi:environment") | .value' "$out")"
  plat="$(jq -r '.metadata.properties[] | select(.name=="pixi:platform") | .value' "$out")"
  case "$rel" in
    explicit/*) want="$(grep -v '^ *#' "$f" | grep -c '://')" ;;
    uv/*|pylock/*|poetry/*|pdm/*|requirements/*) want="$("$python" "$here/count-py.py" "$pykind" "$f" "$plat" 2>&1)" ;;
    *) want="$(awk -v env="$env" -v plat="$plat" -f "$here/count-pixi.awk" "$f")" ;;
  esac
  got="$(jq '.components | length' "$out")"
  check "$rel: $got components, lockfile lists $want for $env/$plat" [ "$got" = "$want" ]
  dupes="$(jq '[.components[]."bom-ref"] | length - (unique | length)' "$out")"
  check "$rel: duplicate bom-refs ($dupes)" [ "$dupes" = 0 ]
  unresolved="$(jq '([.components[]."bom-ref"] + ["root"]) as $r | [.dependencies[] | .ref, .dependsOn[]] | map(select(. as $x | $r | index([$x]) | not)) | length' "$out")"
  check "$rel: unresolved dependency refs ($unresolved)" [ "$unresolved" = 0 ]
  nscoped="$(jq '[.components[] | select(has("scope"))] | length' "$out")"
  case "$rel" in
    pixi/*|explicit/*|pylock/*|requirements/*) check "$rel: no scope ($nscoped scoped)" [ "$nscoped" = 0 ] ;;
    *) check "$rel: every component scoped or none ($nscoped of $got)" [ "$nscoped" = 0 -o "$nscoped" = "$got" ] ;;
  esac
  docs+=("$out")
  sel="${query#\?format=cyclonedx-1.6}"
  for fmt in cyclonedx-1.7 spdx-2.3 spdx-3.0.1; do
    o2="$work/$name.$fmt.json"
    res="$(post "$f" "?format=$fmt$sel" "$o2")"
    if [ "${res%% *}" != 200 ]; then bad "$rel $fmt: HTTP $res"; continue; fi
    eval "docs_${fmt//[.-]/_}+=(\"\$o2\")"
  done
  o2="$work/$name.spdx-2.3.json"
  if [ -f "$o2" ]; then
    np="$(jq '.packages | length' "$o2")"
    check "$rel spdx-2.3: $np packages for $got components" [ "$np" = $((got + 1)) ]
    un="$(jq '([.packages[].SPDXID] + ["SPDXRef-DOCUMENT", "NONE", "NOASSERTION"]) as $ids | [.relationships[] | .spdxElementId, .relatedSpdxElement] | map(select(. as $x | $ids | index([$x]) | not)) | length' "$o2")"
    check "$rel spdx-2.3: unresolved relationship ids ($un)" [ "$un" = 0 ]
  fi
  if [ -f "$o2" ]; then
    # the SPDX relationships and the CycloneDX dependencies describe one graph
    jq -r '(.components | map({key: ."bom-ref", value: .purl}) | from_entries + {root: "root"}) as $m
           | .dependencies[] | .ref as $r | .dependsOn[] | "\($m[$r]) \($m[.])"' "$out" | sort > "$work/g.cdx"
    jq -r '(.packages | map({key: .SPDXID, value: ((.externalRefs // [])[0].referenceLocator // "root")}) | from_entries) as $m
           | .relationships[]
           | select(.relatedSpdxElement != "NONE" and .relatedSpdxElement != "NOASSERTION")
           | if .relationshipType=="DEPENDS_ON" then "\($m[.spdxElementId]) \($m[.relatedSpdxElement])"
             elif (.relationshipType | test("^(DEV|OPTIONAL)_DEPENDENCY_OF$")) then "\($m[.relatedSpdxElement]) \($m[.spdxElementId])"
             else empty end' "$o2" | sort > "$work/g.spdx"
    check "$rel: SPDX 2.3 and CycloneDX graphs are the same" cmp -s "$work/g.cdx" "$work/g.spdx"
  fi
  o3="$work/$name.spdx-3.0.1.json"
  if [ -f "$o3" ]; then
    un="$(jq '([."@graph"[] | .spdxId // empty] + ["NoneElement", "NoAssertionElement"]) as $ids | [."@graph"[] | select(.type | test("Relationship$")) | .from, .to[]] + [."@graph"[] | select(.type=="software_Sbom") | .element[]] | map(select(. as $x | $ids | index([$x]) | not)) | length' "$o3")"
    check "$rel spdx-3.0.1: unresolved element ids ($un)" [ "$un" = 0 ]
    np="$(jq '[."@graph"[] | select(.type=="software_Package")] | length' "$o3")"
    check "$rel spdx-3.0.1: $np packages for $got components" [ "$np" = $((got + 1)) ]
  fi
done < "$shared/fixtures/SOURCES.tsv"
echo "integration: ${#docs[@]} documents from pixi.lock, conda-lock.yml, explicit, uv.lock, pylock.toml, poetry.lock, pdm.lock and requirements fixtures; $refused refused as the spec says"
if "$validate" --format cyclonedx-1.6 "${docs[@]}" > "$work/validate.txt" 2>&1; then
  pass=$((pass + ${#docs[@]}))
  echo "integration: validate-sbom: all ${#docs[@]} valid"
else
  grep -v ': valid$' "$work/validate.txt" | head -20
  nvalid="$(grep -c ': valid$' "$work/validate.txt")"
  pass=$((pass + nvalid)); fail=$((fail + ${#docs[@]} - nvalid))
fi

for fmt in cyclonedx-1.7 spdx-2.3 spdx-3.0.1; do
  eval "set -- \"\${docs_${fmt//[.-]/_}[@]}\""
  if "$validate" --format "$fmt" "$@" > "$work/validate-$fmt.txt" 2>&1; then
    pass=$((pass + $#)); echo "integration: validate-sbom $fmt: all $# valid"
  else
    grep -v ': valid$' "$work/validate-$fmt.txt" | head -20
    nvalid="$(grep -c ': valid$' "$work/validate-$fmt.txt")"
    pass=$((pass + nvalid)); fail=$((fail + $# - nvalid))
  fi
done
# --- edge/: degenerate and broken inputs: a valid document or a located 4xx --
nedge=0 edge_docs=()
while IFS=$'\t' read -r rel kind _rest; do
  [ "$kind" = edge ] || continue
  f="$shared/fixtures/$rel"
  [ -f "$f" ] || continue
  nfix=$((nfix + 1)); [ $((nfix % slice)) = 0 ] || continue
  nedge=$((nedge + 1))
  note="$(grep -F "$rel" "$shared/fixtures/SOURCES.tsv" | awk -F'\t' '{print $NF}')"
  out="$work/edge-$nedge.json"
  res="$(post "$f" "?filename=$(basename "$rel")" "$out")"
  case "$res" in
    "200 application/vnd.cyclonedx+json; version=1.6")
      case "$note" in "must fail"*) bad "edge $rel: accepted though it $note" ;; *) ok ;; esac
      edge_docs+=("$out")
      for fmt in spdx-2.3 spdx-3.0.1; do
        post "$f" "?filename=$(basename "$rel")&format=$fmt" "$out.$fmt" > /dev/null
        check "edge $rel: $fmt validates" "$validate" -q --format "$fmt" "$out.$fmt"
      done ;;
    4??" application/problem+json")
      check "edge $rel: ${res%% *} says why" jq -e '(.detail | length) > 10 and .status >= 400 and .status < 500' "$out" >/dev/null ;;
    *) bad "edge $rel: $res" ;;
  esac
  if grep -q 'password' "$f"; then
    check "edge $rel: no credential in any answer" sh -c "! grep -l 'password' '$out' '$out'.* 2>/dev/null | grep -q ."
  fi
done < "$shared/fixtures/SOURCES.tsv"
if [ "${#edge_docs[@]}" -gt 0 ]; then
  check "edge: the ${#edge_docs[@]} accepted inputs validate" "$validate" -q --format cyclonedx-1.6 "${edge_docs[@]}"
fi
echo "integration: $nedge edge fixtures, ${#edge_docs[@]} gave documents, the rest a located 4xx"
# credentials in lockfile URLs never reach a document
printf '@EXPLICIT\nhttps://user:s3cret@conda.example.com/private/linux-64/zlib-1.3-h0_0.conda#0123456789abcdef0123456789abcdef\n' > "$work/cred.txt"
for fmt in cyclonedx-1.6 spdx-2.3 spdx-3.0.1; do
  post "$work/cred.txt" "?format=$fmt" "$work/cred.$fmt" > /dev/null
  check "URL credentials removed ($fmt)" sh -c "! grep -q 's3cret\|user:' '$work/cred.$fmt' && grep -q 'https://conda.example.com/private' '$work/cred.$fmt'"
done

res="$(curl -sS -o "$work/formats.json" -w '%{http_code}' "$base/v1/formats")"
check "GET /v1/formats ($res)" [ "$res" = 200 ]
check "formats lists five" jq -e '[.formats[].name] == ["cyclonedx-1.6","cyclonedx-1.7","spdx-2.3","spdx-3.0.1","github-snapshot"]' "$work/formats.json" >/dev/null
for pair in "application/spdx+json|spdx-2.3|application/spdx+json; version=2.3" \
            "application/spdx+json; version=3.0.1|spdx-3.0.1|application/spdx+json; version=3.0.1" \
            "text/html;q=0.9, application/spdx+json;version=2.3;q=0.5, application/vnd.cyclonedx+json;version=1.7;q=0.8|cyclonedx-1.7|application/vnd.cyclonedx+json; version=1.7" \
            "*/*|cyclonedx-1.6|application/vnd.cyclonedx+json; version=1.6"; do
  IFS='|' read -r acc _name ctype <<< "$pair"
  res="$(curl -sS -o /dev/null -w '%{http_code} %{content_type}' -H "Accept: $acc" --data-binary @"$shared/fixtures/pixi/pixi-examples-pypi-source-deps/pixi.lock" "$base/v1/sbom")"
  check "Accept '$acc' -> $res" [ "$res" = "200 $ctype" ]
done
res="$(curl -sS -o "$work/p.json" -w '%{http_code} %{content_type}' -H 'Accept: text/html' --data-binary @"$shared/fixtures/pixi/pixi-examples-pypi-source-deps/pixi.lock" "$base/v1/sbom")"
check "Accept text/html -> 406 ($res)" [ "$res" = "406 application/problem+json" ]
check "406 lists five formats" jq -e '.choices | length == 5' "$work/p.json" >/dev/null

# --- a run to the socket equals a run to a file (the CLI over the same core)
for fmt in cyclonedx-1.6 cyclonedx-1.7 spdx-2.3 spdx-3.0.1; do
  f="$shared/fixtures/pixi/pixi-examples-jupyterlab-rev-5af4c59/pixi.lock"
  # sbomgen passes the file's name: so does the request (a v1 lock read by
  # content alone records no name, issue 18 item 1)
  post "$f" "?format=$fmt&filename=pixi.lock" "$work/sock.json" >/dev/null
  "$(dirname "$bin")/sbomgen" -f "$fmt" -t 1700000000 "$f" > "$work/file.json"
  check "$fmt: socket and file runs are byte-identical" cmp -s "$work/sock.json" "$work/file.json"
done

# --- cyclonedx 1.7 on one fixture ------------------------------------------
f="$shared/fixtures/pixi/pixi-examples-pypi-source-deps/pixi.lock"
res="$(post "$f" "?format=cyclonedx-1.7" "$work/17.json")"
check "cyclonedx-1.7 status $res" [ "${res%% *}" = 200 ]
check "cyclonedx-1.7 validates" "$validate" -q --format cyclonedx-1.7 "$work/17.json"
res="$(curl -sS -o "$work/acc.json" -w '%{http_code} %{content_type}' -H 'Accept: application/vnd.cyclonedx+json; version=1.7' --data-binary @"$f" "$base/v1/sbom")"
check "Accept negotiates 1.7 ($res)" [ "$res" = "200 application/vnd.cyclonedx+json; version=1.7" ]
# same input, same bytes
post "$f" "" "$work/a.json" >/dev/null; post "$f" "" "$work/b.json" >/dev/null
check "deterministic output" cmp -s "$work/a.json" "$work/b.json"
check "chunked transfer" sh -c "curl -sS -D - -o /dev/null --data-binary @'$f' '$base/v1/sbom' | grep -qi '^transfer-encoding: chunked'"

# --- bad inputs: problem+json with the right status, server keeps serving ---
expect_problem() { # name status file [query]
  local name="$1" status="$2" file="$3" q="${4:-}"
  local res
  res="$(curl -sS -o "$work/p.json" -w '%{http_code} %{content_type}' --data-binary @"$file" "$base/v1/sbom$q")"
  check "$name: got $res" [ "$res" = "$status application/problem+json" ]
  check "$name: problem body" jq -e ".status == $status and (.title|type==\"string\") and (.detail|type==\"string\")" "$work/p.json" >/dev/null
  check "$name: still serving" sh -c "curl -sS -f '$base/healthz' >/dev/null"
}
big="$shared/fixtures/pixi/pixi-examples-jupyterlab-rev-5af4c59/pixi.lock"
size=$(stat -c %s "$big")
for eighth in 1 2 3 4 5 6 7; do
  head -c $((size * eighth / 8)) "$big" > "$work/trunc$eighth.lock"
  res="$(curl -sS -o "$work/p.json" -w '%{http_code}' --data-binary @"$work/trunc$eighth.lock" "$base/v1/sbom")"
  # a cut at a line boundary can still be valid YAML; anything else must be a located 400
  if [ "$res" = 400 ]; then
    check "truncated at $eighth/8: located" jq -e '.line > 0 and .column > 0' "$work/p.json" >/dev/null
  else
    check "truncated at $eighth/8: HTTP $res" [ "$res" = 200 ] || [ "$res" = 422 ]
  fi
done
head -c 65536 /dev/urandom > "$work/garbage.bin"
expect_problem "binary garbage" 415 "$work/garbage.bin"
printf 'version: 9\nenvironments: {}\npackages: []\n' > "$work/v9.lock"
expect_problem "unsupported version" 422 "$work/v9.lock"
check "unsupported version located" jq -e '.line == 1' "$work/p.json" >/dev/null
printf 'version: 6\nenvironments:\n  default:\n    packages: [\n' > "$work/broken.lock"
expect_problem "malformed YAML" 400 "$work/broken.lock"
printf 'version: 6\na: &x [1]\nb: *x\npackages: []\n' > "$work/alias.lock"
expect_problem "YAML alias" 422 "$work/alias.lock"
: > "$work/empty.lock"
expect_problem "empty body" 400 "$work/empty.lock"
# each TOML reader: malformed input is a located 400, an unsupported version a located 422
printf 'version = 1\n[[package]]\nname = "a"\nversion = "1"\nsource = { registry = "https://pypi.org/simple" \n' > "$work/uv.lock"
expect_problem "uv.lock: unclosed inline table" 400 "$work/uv.lock" "?filename=uv.lock"
check "uv.lock: located at line 5" jq -e '.line == 5 and .column > 0' "$work/p.json" >/dev/null
printf 'version = 2\nrevision = 1\n' > "$work/uv2.lock"
expect_problem "uv.lock version 2" 422 "$work/uv2.lock" "?filename=uv.lock"
check "uv.lock version 2: located" jq -e '.line == 1 and (.detail|test("version 2"))' "$work/p.json" >/dev/null
printf 'lock-version = "1.0"\n[[packages]]\nname = "x"\nname = "y"\n' > "$work/pylock.toml"
expect_problem "pylock.toml: duplicate key" 400 "$work/pylock.toml" "?filename=pylock.toml"
check "pylock.toml: located at line 4" jq -e '.line == 4' "$work/p.json" >/dev/null
printf '[[package]]\nname = "a"\nversion = "1"\nmarkers = "python_version >"\n[metadata]\nlock-version = "2.1"\n' > "$work/poetry.lock"
expect_problem "poetry.lock: bad marker" 400 "$work/poetry.lock" "?filename=poetry.lock"
check "poetry.lock: marker named" jq -e '.detail | test("marker")' "$work/p.json" >/dev/null
printf '[metadata]\nlock_version = "4.5"\n[[package]]\nname = "a"\nversion = "1"\ndependencies = ["[oops"]\n' > "$work/pdm.lock"
expect_problem "pdm.lock: bad requirement" 400 "$work/pdm.lock" "?filename=pdm.lock"
check "pdm.lock: located at line 6" jq -e '.line == 6' "$work/p.json" >/dev/null
printf 'requests>=2\n' > "$work/requirements.txt"
expect_problem "requirements.txt: range" 422 "$work/requirements.txt" "?filename=requirements.txt"
check "requirements.txt: located, with the hint" jq -e '.line == 1 and (.detail|test("pinned"))' "$work/p.json" >/dev/null
# several --hash per line: the first SHA-256 is the component's, the rest pixi:hashes (issue 18 item 6)
f="$shared/fixtures/requirements/warehouse-requirements/tests.txt"
post "$f" "?filename=tests.txt" "$work/req-hashes.json" > /dev/null
check "requirements.txt: 48 components, each with a SHA-256" jq -e '(.components | length) == 48 and ([.components[] | select(.hashes[0].alg == "SHA-256")] | length) == 48' "$work/req-hashes.json" >/dev/null
nh="$(grep -c -- '--hash=' "$f")"
check "requirements.txt: all $nh --hash values kept" jq -e --argjson n "$nh" '48 + ([.components[].properties[]? | select(.name == "pixi:hashes") | .value | split(",")[]] | length) == $n' "$work/req-hashes.json" >/dev/null
uvbig="$shared/fixtures/uv/rerun/uv.lock"
usize=$(stat -c %s "$uvbig")
for eighth in 1 2 3 4 5 6 7; do
  head -c $((usize * eighth / 8)) "$uvbig" > "$work/utrunc$eighth.lock"
  res="$(curl -sS -o "$work/p.json" -w '%{http_code}' --data-binary @"$work/utrunc$eighth.lock" "$base/v1/sbom?filename=uv.lock")"
  if [ "$res" = 400 ]; then
    check "uv.lock truncated at $eighth/8: located" jq -e '.line > 0 and .column > 0' "$work/p.json" >/dev/null
  else
    check "uv.lock truncated at $eighth/8: HTTP $res" [ "$res" = 200 ]
  fi
done
printf 'hello world\nthis is not a lockfile\n' > "$work/prose.txt"
expect_problem "undetectable input" 415 "$work/prose.txt"
check "415 names the kinds" jq -e '(.choices | index("uv.lock")) and (.choices | index("requirements.txt"))' "$work/p.json" >/dev/null

# --- uploads: multipart/form-data and Content-Disposition --------------------
pf="$shared/fixtures/pdm/pdm/pdm.lock"
res="$(curl -sS -o "$work/mp.json" -w '%{http_code}' -F "lockfile=@$pf" "$base/v1/sbom")"
check "multipart upload: $res" [ "$res" = 200 ]
check "multipart upload: read as pdm.lock" jq -e '[.metadata.properties[] | select(.name=="pixi:lockfile") | .value] == ["pdm.lock"]' "$work/mp.json" >/dev/null
curl -sS -o "$work/raw.json" --data-binary @"$pf" "$base/v1/sbom?filename=pdm.lock"
check "multipart and raw body give the same document" cmp -s "$work/mp.json" "$work/raw.json"
res="$(curl -sS -o "$work/p.json" -w '%{http_code}' -F "other=@$pf" "$base/v1/sbom")"
check "multipart without a lockfile field: 400 ($res)" [ "$res" = 400 ]
res="$(curl -sS -o "$work/p.json" -w '%{http_code}' -H 'Content-Type: multipart/form-data; boundary=XyZ' --data-binary $'--XyZ\r\nContent-Disposition: form-data; name="lockfile"\r\n\r\nversion: 6\n' "$base/v1/sbom")"
check "truncated multipart: 400 ($res)" [ "$res" = 400 ]
# each input once: a second manifest part is refused, not dropped; several
# lockfile parts are a repository, every one of them read
mf="$root/tests/data/manifests/uv-pydantic/pyproject.toml"
res="$(curl -sS -o "$work/dup.json" -w '%{http_code}' -F "lockfile=@$pf" -F "manifest=@$mf" -F "manifest=@$mf" "$base/v1/sbom")"
check "a second 'manifest' part: 400 ($res)" [ "$res" = 400 ]
check "a second 'manifest' part: the problem says so" jq -e '.detail | test("more than one .manifest. part")' "$work/dup.json" >/dev/null
res="$(curl -sS -D "$work/dup.h" -o "$work/dup.json" -w '%{http_code}' -F "lockfile=@$pf" -F "lockfile=@$pf" "$base/v1/sbom")"
check "two 'lockfile' parts: one repository document (200, $res)" [ "$res" = 200 ]
check "two 'lockfile' parts: the answer names both as read" grep -qi '^Sbomd-Repository-Read:.*part2/' "$work/dup.h"
res="$(curl -sS -o "$work/dup.json" -w '%{http_code}' -F "lockfile=@$pf" -F "note=hello" "$base/v1/sbom")"
check "another form field beside the lockfile is not an input: 200 ($res)" [ "$res" = 200 ]
res="$(curl -sS -o "$work/cd.json" -w '%{http_code}' -H 'Content-Disposition: attachment; filename="../../etc/uv.lock"' --data-binary @"$shared/fixtures/uv/rerun/uv.lock" "$base/v1/sbom")"
check "Content-Disposition filename: $res" [ "$res" = 200 ]
check "Content-Disposition: only the last path part is used" jq -e '[.metadata.properties[] | select(.name=="pixi:lockfile") | .value] == ["uv.lock"]' "$work/cd.json" >/dev/null

# --- detection (issue 18 item 1): content beats a name guess, a UTF-8 BOM is
# skipped for every kind, and a document records no file name nobody sent
lockname() { jq -c '[.metadata.properties[] | select(.name=="pixi:lockfile") | .value]' "$1"; }
f="$shared/fixtures/pixi/rattler-test-data-conda-lock-v3-robostack-turtlesim-conda-lock.yml/pixi.lock"
res="$(post "$f" "?filename=robostack-turtlesim-conda-lock.yml" "$work/ts.json")"
check "pixi.lock v3 named *conda-lock.yml is read as pixi.lock ($res)" [ "${res%% *}" = 200 ]
check "pixi.lock v3 named *conda-lock.yml: the name sent is recorded" [ "$(lockname "$work/ts.json")" = '["robostack-turtlesim-conda-lock.yml"]' ]
for rel in pixi/rattler-test-data-conda-lock-v6-derived-channel-lock.yml/pixi.lock \
           pylock/osv-scalibr-extractor-filesystem-language-python-pylock-testdata/pdm-full.toml \
           requirements/pdm-tests-fixtures-projects-demo-package/requirements.txt; do
  q=""
  case "$rel" in requirements/*) q="?filename=requirements.txt" ;; esac
  printf '\357\273\277' | cat - "$shared/fixtures/$rel" > "$work/bom.in"
  res="$(post "$work/bom.in" "$q" "$work/bom.json")"
  post "$shared/fixtures/$rel" "$q" "$work/nobom.json" > /dev/null
  check "BOM + ${rel%%/*}${q:+ (named)}: $res" [ "${res%% *}" = 200 ]
  # the serial number follows the bytes sent: everything else is the same
  check "BOM + ${rel%%/*}: the same document as without" \
    bash -c "cmp -s <(jq -S 'del(.serialNumber)' '$work/bom.json') <(jq -S 'del(.serialNumber)' '$work/nobom.json')"
done
f="$shared/fixtures/conda-lock/conda-lock-tests-test-lockfile/conda-lock.yml"
res="$(post "$f" "?platform=linux-64" "$work/cl.json")"
check "conda-lock.yml without a name: $res" [ "${res%% *}" = 200 ]
check "conda-lock.yml without a name: no pixi:lockfile (got $(lockname "$work/cl.json"))" [ "$(lockname "$work/cl.json")" = '[]' ]
check "conda-lock.yml without a name: validates" "$validate" -q --format cyclonedx-1.6 "$work/cl.json"
post "$f" "?platform=linux-64&filename=conda-lock.yml" "$work/cl2.json" > /dev/null
check "conda-lock.yml named: its name recorded" [ "$(lockname "$work/cl2.json")" = '["conda-lock.yml"]' ]
# read as pixi.lock v1 (the one shape both share), the answer says how to
# have it read as conda-lock.yml; a named one needs no such notice
curl -sS -D "$work/cl.h" -o /dev/null --data-binary @"$f" "$base/v1/sbom?platform=linux-64"
check "conda-lock.yml without a name: Sbomd-Notice says it was read as pixi.lock v1 and how to name it" \
  grep -qi '^Sbomd-Notice: read as pixi.lock version 1, .*send filename=conda-lock.yml (or kind=conda-lock.yml)' "$work/cl.h"
check "conda-lock.yml without a name: the same in a Warning 299" grep -qi '^Warning: 299 sbomd "read as pixi.lock version 1' "$work/cl.h"
curl -sS -D "$work/cl2.h" -o /dev/null --data-binary @"$f" "$base/v1/sbom?platform=linux-64&filename=conda-lock.yml"
check "conda-lock.yml named: no notice" sh -c "! grep -qi '^Sbomd-Notice' '$work/cl2.h'"
curl -sS -D "$work/pn.h" -o /dev/null --data-binary @"$shared/fixtures/pixi/rattler-test-data-conda-lock-v6-derived-channel-lock.yml/pixi.lock" "$base/v1/sbom"
check "pixi.lock v6 without a name: no notice (its shape is its own)" sh -c "! grep -qi '^Sbomd-Notice' '$work/pn.h'"
f="$shared/fixtures/pixi/rattler-test-data-conda-lock-v6-derived-channel-lock.yml/pixi.lock"
post "$f" "" "$work/pn.json" > /dev/null
check "pixi.lock v6 without a name: the kind's own name" [ "$(lockname "$work/pn.json")" = '["pixi.lock"]' ]

# --- many documents in one request (NDJSON) -----------------------------------
mf="$shared/fixtures/pixi/pixi-examples-polarify-rev-79ad23c/pixi.lock"
res="$(curl -sS -o "$work/nd.json" -w '%{http_code} %{content_type}' --data-binary @"$mf" "$base/v1/sbom?all-environments=true&all-platforms=true&format=spdx-2.3")"
check "NDJSON: $res" [ "$res" = "200 application/x-ndjson" ]
i=0
while IFS= read -r line; do
  i=$((i + 1))
  printf '%s\n' "$line" > "$work/nd$i.json"
  check "NDJSON document $i validates" "$validate" -q --format spdx-2.3 "$work/nd$i.json"
done < "$work/nd.json"
# environment x platform pairs: as many as the lockfile locks, default first, then by name
jq -r '.packages[0].sourceInfo' "$work/nd.json" | sed 's/.*environment \([^;]*\); platform \(.*\)/\1 \2/' > "$work/order.txt"
{ grep '^default ' "$work/order.txt" | sort; grep -v '^default ' "$work/order.txt" | sort; } > "$work/order.want"
check "NDJSON: stable order, default first ($(wc -l < "$work/order.txt") documents)" cmp -s "$work/order.txt" "$work/order.want"
check "NDJSON: more than one environment" [ "$(cut -d' ' -f1 "$work/order.txt" | sort -u | wc -l)" -gt 1 ]
curl -sS -o "$work/nd2.json" --data-binary @"$mf" "$base/v1/sbom?all-environments=true&all-platforms=true&format=spdx-2.3"
check "NDJSON: deterministic" cmp -s "$work/nd.json" "$work/nd2.json"
res="$(curl -sS -o "$work/ndu.json" -w '%{http_code}' --data-binary @"$shared/fixtures/uv/pydantic/uv.lock" "$base/v1/sbom?all-platforms=true")"
check "NDJSON uv.lock: seven platforms ($res, $(wc -l < "$work/ndu.json"))" [ "$(wc -l < "$work/ndu.json")" = 7 ]
# an environment that locks no platform: all-platforms=true gives the one
# (empty) document a plain request gives (issue 18 item 8)
f="$shared/fixtures/edge/rattler-crates-rattler_index/pixi.lock"
post "$f" "?filename=pixi.lock" "$work/np1.json" > /dev/null
res="$(curl -sS -o "$work/np2.json" -w '%{http_code}' --data-binary @"$f" "$base/v1/sbom?filename=pixi.lock&all-platforms=true")"
check "no platform, all-platforms=true: $res, $(wc -l < "$work/np2.json") document(s)" [ "$res" = 200 ] && [ "$(wc -l < "$work/np2.json")" = 1 ]
# (the serial number names the bytes: compact NDJSON has its own)
check "no platform: all-platforms=true gives the plain request's document" \
  bash -c "cmp -s <(jq -S -c 'del(.serialNumber)' '$work/np1.json') <(jq -S -c 'del(.serialNumber)' '$work/np2.json')"

# --- the serial names one document (issue 18 item 10) -------------------------
# Each request differs from the first in one option that changes the bytes;
# the identifier (CycloneDX serialNumber, SPDX namespace) must differ too, and
# must not for an identical request.
sf="$shared/fixtures/pixi/pixi-docs-source_files-pixi_workspaces-introduction-multi_env/pixi.lock"
serial_of() { # serial_of QUERY -> the document's identifier
  curl -sS -o "$work/serial.json" --data-binary @"$sf" "$base/v1/sbom$1"
  jq -r '.serialNumber // .documentNamespace // ([."@graph"[] | select(.type == "SpdxDocument") | .spdxId][0])' "$work/serial.json"
}
s0="$(serial_of "?environment=default&platform=linux-64")"
check "serial: identical requests, identical serial" [ "$(serial_of "?environment=default&platform=linux-64")" = "$s0" ]
check "serial: a serial at all ($s0)" sh -c "echo '$s0' | grep -q '^urn:uuid:'"
seen="$s0"
for q in "format=cyclonedx-1.7" "format=spdx-2.3" "format=spdx-3.0.1" "environment=py312&platform=linux-64" \
         "platform=win-64" "name=demo" "version=1.2.3" "timestamp=1700000001" "pretty=false" \
         "filename=other.lock" "license-texts=true" "license-texts=true&license-file-max=1000"; do
  case "$q" in *environment=*) qq="?$q" ;; *platform=*) qq="?environment=default&$q" ;; *) qq="?environment=default&platform=linux-64&$q" ;; esac
  sq="$(serial_of "$qq")"
  id="${sq##*/}"; id="${id#urn:uuid:}"; id="${id%%#*}"
  check "serial: '$q' gives its own serial ($id)" sh -c "[ -n '$id' ] && ! printf '%s\n' $seen | grep -q -- '$id'"
  seen="$seen $id"
done
# SOURCE_DATE_EPOCH is the server's timestamp: another one, another serial
log5="$work/sbomd5.log"
${SB_WRAP:-} "$bin" --listen 127.0.0.1 --port 0 --source-date-epoch 1700000999 2> "$log5" &
pid5=$!
port5=""
for _ in $(seq 1 100); do
  port5="$(grep -o '"detail":"http://127.0.0.1:[0-9]*' "$log5" 2>/dev/null | grep -o '[0-9]*$' | head -1)"
  [ -n "$port5" ] && break; sleep 0.1
done
s5="$(curl -sS --data-binary @"$sf" "http://127.0.0.1:$port5/v1/sbom?environment=default&platform=linux-64" | jq -r .serialNumber)"
check "serial: another SOURCE_DATE_EPOCH, another serial" sh -c "[ '$s5' != null ] && [ '$s5' != '$s0' ]"
kill -TERM "$pid5"; wait "$pid5"

expect_problem "unknown format (a bad value: 400, not 406)" 400 "$f" "?format=cyclonedx-1.2"
check "the 400 lists formats" jq -e '.choices | index("cyclonedx-1.6")' "$work/p.json" >/dev/null
expect_problem "unknown environment" 422 "$f" "?environment=nope"
check "422 lists environments" jq -e '.choices == ["default"]' "$work/p.json" >/dev/null
expect_problem "unknown platform" 422 "$f" "?platform=plan9"
expect_problem "bad timestamp" 400 "$f" "?timestamp=yesterday"
head -c $((100 * 1024 * 1024)) /dev/zero > "$work/huge.bin"
expect_problem "100 MB body" 413 "$work/huge.bin"
res="$(head -c $((70 * 1024 * 1024)) /dev/zero | curl -sS -o "$work/p.json" -w '%{http_code}' -H 'Transfer-Encoding: chunked' --data-binary @- "$base/v1/sbom")"
check "chunked 70 MB body: $res" [ "$res" = 413 ]
res="$(curl -sS -o /dev/null -w '%{http_code}' "$base/nope")"
check "unknown path 404 ($res)" [ "$res" = 404 ]
res="$(curl -sS -o /dev/null -w '%{http_code}' -X DELETE "$base/v1/sbom")"
check "wrong method 405 ($res)" [ "$res" = 405 ]
res="$(curl -sS -o /dev/null -w '%{http_code}' -X POST --data x "$base/healthz")"
check "POST healthz 405 ($res)" [ "$res" = 405 ]

# --- concurrency: parallel posts all answered ---------------------------------
pids=()
for i in $(seq 1 16); do post "$big" "" "$work/par$i.json" > "$work/par$i.st" & pids+=($!); done
wait "${pids[@]}"
for i in $(seq 1 16); do check "parallel $i" grep -q '^200' "$work/par$i.st"; done
check "parallel outputs identical" sh -c "for i in \$(seq 2 16); do cmp -s '$work/par1.json' '$work/par'\$i'.json' || exit 1; done"

# --- readiness and metrics ----------------------------------------------------
res="$(curl -sS -o /dev/null -w '%{http_code}' "$base/readyz")"
check "readyz 200 ($res)" [ "$res" = 200 ]
curl -sS -D "$work/mh" -o "$work/metrics.txt" "$base/metrics"
check "metrics content type" grep -qi '^content-type: text/plain; version=0.0.4' "$work/mh"
for fmt in cyclonedx-1.6 cyclonedx-1.7 spdx-2.3 spdx-3.0.1; do
  check "metrics count $fmt documents" sh -c "grep -E '^sbomd_documents_total\{format=\"$fmt\"\} [1-9]' '$work/metrics.txt' >/dev/null"
done
check "metrics count 413s" grep -q 'sbomd_requests_total{route="/v1/sbom",status="413"}' "$work/metrics.txt"
check "metrics histogram of /v1/sbom" grep -q '^sbomd_request_duration_seconds_count{route="/v1/sbom",status="200"} [1-9]' "$work/metrics.txt"
check "metrics histogram of /healthz too (every route)" grep -q '^sbomd_request_duration_seconds_count{route="/healthz",status="200"} [1-9]' "$work/metrics.txt"
check "metrics rss" grep -q '^sbomd_resident_memory_bytes [1-9]' "$work/metrics.txt"
# issue 40: Prometheus conventions, checked by Prometheus's own linter
check "metrics pass promtool check metrics" sh -c "promtool check metrics < '$work/metrics.txt'"
for fam in $(awk '/^# TYPE /{print $3}' "$work/metrics.txt"); do
  grep -q "^# HELP $fam " "$work/metrics.txt" || bad "metrics: $fam has no HELP"
done
check "metrics: every family has HELP and TYPE" sh -c "[ \$(grep -c '^# HELP ' '$work/metrics.txt') = \$(grep -c '^# TYPE ' '$work/metrics.txt') ]"
check "metrics: build_info with version and revision" grep -qE '^sbomd_build_info\{version="[0-9.]+",revision="([0-9a-f]{12}|unknown)"\} 1$' "$work/metrics.txt"
# the revision a build is told: an image's build context has no .git, so its
# Dockerfile passes SBOMD_REVISION to the Makefile. This build's objects are
# relinked in a copy with the Makefile's own rule for gen/revision.c, and
# the binary reports the value it was given (what is not a C string's or a
# label's character dropped)
bdir="$(realpath "$(dirname "$bin")")" # ($1 was reset by the validation loop's set --)
rb="$work/revbuild"
mkdir -p "$rb"
cp -a "$bdir/." "$rb/" && rm -f "$rb/gen/revision.c" "$rb/gen/revision.o" "$rb/sbomd"
(cd "$root" && SBOMD_REVISION='0123abcd"ef99' make -s --no-print-directory PROFILE="$(basename "$bdir")" B="$rb" "$rb/sbomd") > "$work/revbuild.log" 2>&1
check "SBOMD_REVISION: a build given it links" test -x "$rb/sbomd"
[ -x "$rb/sbomd" ] || tail -5 "$work/revbuild.log" >&2
check "SBOMD_REVISION: --version names the revision given" sh -c "'$rb/sbomd' --version | grep -qx 'sbomd [0-9.]* (revision 0123abcdef99)'"
check "SBOMD_REVISION: this build's --version names its git revision or unknown" sh -c "'$bin' --version | grep -qE '^sbomd [0-9.]+ \(revision ([0-9a-f]{12}|unknown)\)$'"
if [ -x "$rb/sbomd" ]; then
  "$rb/sbomd" --listen 127.0.0.1 --port 0 2> "$work/rev.log" & rpid=$!; pids="$pids $rpid"
  rport=""
  for _ in $(seq 1 100); do rport="$(grep -o '"detail":"http://127.0.0.1:[0-9]*' "$work/rev.log" | grep -o '[0-9]*$' | head -1)"; [ -n "$rport" ] && break; sleep 0.1; done
  check "SBOMD_REVISION: sbomd_build_info carries it" sh -c "curl -sS 'http://127.0.0.1:$rport/metrics' | grep -q '^sbomd_build_info{version=\"[0-9.]*\",revision=\"0123abcdef99\"} 1$'"
  kill "$rpid" 2>/dev/null; wait "$rpid" 2>/dev/null
fi
for fam in process_cpu_seconds_total process_resident_memory_bytes process_start_time_seconds process_open_fds; do
  check "metrics: $fam" grep -qE "^$fam [0-9]" "$work/metrics.txt"
done
check "metrics: lookups labelled by upstream" grep -q '^sbomd_lookup_failures_total{upstream="osv"} ' "$work/metrics.txt"
curl -sS -o /dev/null "$base/no-such-endpoint"
etag="$(curl -sS -D - -o /dev/null --data-binary @"$shared/fixtures/pixi/pixi-examples-pypi-source-deps/pixi.lock" "$base/v1/sbom" | awk 'tolower($1) == "etag:" {print $2}' | tr -d '\r')"
curl -sS -o /dev/null -H "If-None-Match: $etag" --data-binary @"$shared/fixtures/pixi/pixi-examples-pypi-source-deps/pixi.lock" "$base/v1/sbom"
curl -sS -o "$work/metrics2.txt" "$base/metrics"
check "metrics: real status codes as labels (a 404 is 404)" grep -q '^sbomd_requests_total{route="unmatched",status="404"} [1-9]' "$work/metrics2.txt"
check "metrics: a 304 is 304 (was 'other')" grep -q '^sbomd_requests_total{route="/v1/sbom",status="304"} [1-9]' "$work/metrics2.txt"
# issue 40: the page, the contract and the metrics are compressed when asked;
# the page and the contract carry a strong ETag per coding, and a 304
for p in / /openapi.yaml /metrics; do
  h="$(curl -sS -o "$work/asset.gz" -D - -H 'Accept-Encoding: gzip' "$base$p" | tr -d '\r')"
  check "$p gzip when asked" sh -c "echo '$h' | grep -qi '^content-encoding: gzip' && gzip -t '$work/asset.gz'"
done
for p in / /openapi.yaml; do
  e="$(curl -sS -o /dev/null -D - "$base$p" | awk 'tolower($1) == "etag:" {print $2}' | tr -d '\r')"
  eg="$(curl -sS -o /dev/null -D - -H 'Accept-Encoding: gzip' "$base$p" | awk 'tolower($1) == "etag:" {print $2}' | tr -d '\r')"
  check "$p: a strong ETag ($e), its gzip one differs ($eg)" sh -c "echo '$e' | grep -Eq '^\"[0-9a-f]{32}\"$' && [ '$eg' = '${e%\"}-gzip\"' ]"
  check "$p: If-None-Match with it is a 304" [ "$(curl -sS -o /dev/null -w '%{http_code}' -H "If-None-Match: $e" "$base$p")" = 304 ]
done

# --- configuration is validated at start ---------------------------------------
check "--check-config accepts the defaults" sh -c "'$bin' --check-config | grep -q '^config ok$'"
check "--check-config shows env settings" sh -c "SBOMD_MAX_BODY=2048 '$bin' --check-config | grep -q '^max-body=2048$'"
"$bin" --check-config --port 70000 > /dev/null 2> "$work/cfg.err"; st=$?
check "bad port refused with 2 (got $st)" [ "$st" = 2 ]
check "bad port message names the option" grep -q "port" "$work/cfg.err"
SBOMD_THREADS=many "$bin" --check-config > /dev/null 2> "$work/cfg.err"; st=$?
check "bad env value refused with 2 (got $st)" [ "$st" = 2 ]
check "bad env message names the variable" grep -q "SBOMD_THREADS" "$work/cfg.err"
"$bin" --check-config --listen nowhere > /dev/null 2>&1; st=$?
check "bad listen address refused with 2 (got $st)" [ "$st" = 2 ]
"$bin" --bogus > /dev/null 2>&1; st=$?
check "unknown option refused with 2 (got $st)" [ "$st" = 2 ]

# --- every path the OpenAPI contract names is served (and nothing 404s) ------
for path in $(grep -E '^  /' "$root/openapi/openapi.yaml" | tr -d ' :'); do
  res="$(curl -sS -o /dev/null -w '%{http_code}' -X OPTIONS "$base$path")"
  check "openapi path $path is routed ($res)" [ "$res" = 405 ]
done

# --- a second server: concurrency limit and graceful shutdown -----------------
log2="$work/sbomd2.log"
${SB_WRAP:-} "$bin" --listen 127.0.0.1 --port 0 --max-requests 1 --shutdown-delay 2 2> "$log2" &
pid2=$!
port2=""
for _ in $(seq 1 100); do
  port2="$(grep -o '"detail":"http://127.0.0.1:[0-9]*' "$log2" 2>/dev/null | grep -o '[0-9]*$' | head -1)"
  [ -n "$port2" ] && break; sleep 0.1
done
base2="http://127.0.0.1:$port2"
curl -sS -o "$work/slow.json" -w '%{http_code}' --limit-rate 100k --data-binary @"$big" "$base2/v1/sbom" > "$work/slow.st" &
slow=$!
sleep 1
res="$(curl -sS -D "$work/bh" -o "$work/p.json" -w '%{http_code}' --data-binary @"$f" "$base2/v1/sbom")"
check "busy server answers 503 ($res)" [ "$res" = 503 ]
check "503 carries Retry-After" grep -qi '^retry-after: ' "$work/bh"
check "503 is problem+json" jq -e '.status == 503' "$work/p.json" >/dev/null
res="$(curl -sS -o /dev/null -w '%{http_code}' "$base2/healthz")"
check "healthz still 200 when busy ($res)" [ "$res" = 200 ]
wait "$slow"
check "the slow upload still completed" grep -q 200 "$work/slow.st"
kill -TERM "$pid2"; sleep 0.5
res="$(curl -sS -o /dev/null -w '%{http_code}' "$base2/readyz")"
check "readyz 503 while draining ($res)" [ "$res" = 503 ]
wait "$pid2"; st=$?
check "second server exits 0 after the drain (got $st)" [ "$st" = 0 ]

# --- a third server: package cache, license texts, budgets, isolation --------
cache="$work/cache"
lf="$shared/fixtures/pixi/pixi-examples-pypi-source-deps/pixi.lock"
"$here/make-cache.sh" "$lf" "$cache"
log3="$work/sbomd3.log"
${SB_WRAP:-} "$bin" --listen 127.0.0.1 --port 0 --package-cache "$cache" --source-date-epoch 1700000000 2> "$log3" &
pid3=$!
port3=""
for _ in $(seq 1 100); do
  port3="$(grep -o '"detail":"http://127.0.0.1:[0-9]*' "$log3" 2>/dev/null | grep -o '[0-9]*$' | head -1)"
  [ -n "$port3" ] && break; sleep 0.1
done
base3="http://127.0.0.1:$port3"
first="$(grep -o 'https://[^ "]*\.\(conda\|tar\.bz2\)' "$lf" | sort -u | head -1)"
first_stem="$(basename "$first")"; first_stem="${first_stem%.conda}"; first_stem="${first_stem%.tar.bz2}"
first_name="$(grep -A3 "$first" "$lf" | head -1 >/dev/null; echo "$first_stem" | sed 's/-[^-]*-[^-]*$//')"
for fmt in cyclonedx-1.6 cyclonedx-1.7 spdx-2.3 spdx-3.0.1; do
  res="$(curl -sS -D "$work/th.$fmt" -o "$work/t.$fmt.json" -w '%{http_code}' --data-binary @"$lf" "$base3/v1/sbom?format=$fmt&license-texts=true")"
  check "license texts $fmt: $res" [ "$res" = 200 ]
  check "license texts $fmt: validates" "$validate" -q --format "$fmt" "$work/t.$fmt.json"
done
t="$work/t.cyclonedx-1.6.json"
lic_of() { jq -r --arg n "$1" '.components[] | select(.name == $n)' "$t"; }
check "package cache: about.json fills the summary" sh -c "jq -e '[.components[] | select((.description // \"\") | startswith(\"Summary of\"))] | length > 10' '$t' >/dev/null"
check "package cache: website, vcs and documentation references" \
  jq -e --arg n "$first_name" '[.components[] | select(.name == $n) | .externalReferences[].type] == ["distribution","website","vcs","documentation"]' "$t" >/dev/null
check "license texts: LICENSE.txt embedded in full (2000 bytes)" \
  jq -e --arg n "$first_name" '[.components[] | select(.name == $n) | .licenses[] | .license.text.content // empty | length] | index(2000) != null' "$t" >/dev/null
check "license texts: a file under a subdirectory keeps its relative name" \
  jq -e --arg n "$first_name" '[.components[] | select(.name == $n) | .properties[] | select(.name == "pixi:license-file") | .value] == ["BIG.txt","LICENSE.txt","extra/NOTICE"]' "$t" >/dev/null
check "license texts: the 1.5 MiB file has no text" \
  jq -e '[.components[].licenses[]? | .license.text.content // "" | length] | max < 1048577' "$t" >/dev/null
check "license texts: the marker counts it" \
  jq -e '.metadata.properties[] | select(.name == "pixi:incomplete-detail") | .value | test("license-texts: 1 file\\(s\\) listed by name only")' "$t" >/dev/null
check "license texts: Warning header" grep -qi '^warning: 299 sbomd "license-texts: 1 file' "$work/th.cyclonedx-1.6"
check "license texts: Sbomd-Notice header, the Warning's text" grep -qi '^sbomd-notice: license-texts: 1 file' "$work/th.cyclonedx-1.6"
# _libgcc_mutex (the first package, with BIG.txt) says `license: None`: no license,
# so SPDX embeds no text for it (only a free text's file is embedded) and lists its files
check "SPDX 2.3 root comment carries pixi:incomplete" \
  jq -e '.packages[] | select(.SPDXID == "SPDXRef-Package-root") | .comment | test("pixi:incomplete=.*package-cache")' "$work/t.spdx-2.3.json" >/dev/null
check "SPDX 2.3: license None is NOASSERTION, its files named" \
  jq -e --arg n "$first_name" '.packages[] | select(.name == $n) | .licenseDeclared == "NOASSERTION" and (.licenseComments | test("BIG.txt"))' "$work/t.spdx-2.3.json" >/dev/null
check "incomplete extraction (no index.json) is ignored" \
  jq -e '.metadata.properties[] | select(.name == "pixi:incomplete-detail") | .value | test("package-cache: 1 of [0-9]+ conda package")' "$t" >/dev/null
check "symlinks under licenses/ are not followed" sh -c "! grep -q 'root:x:0' '$t'"
ntext="$(jq '[.components[].licenses[]? | select(.license.text)] | length' "$t")"
res="$(curl -sS -D "$work/sh" -o "$work/small.json" -w '%{http_code}' --data-binary @"$lf" "$base3/v1/sbom?license-texts=true&license-texts-max=5000")"
check "small budget: $res" [ "$res" = 200 ]
# in document order: 2000 (LICENSE.txt) + 41 (extra/NOTICE) + 2000 fit in 5000, the next 2000 does not
check "small budget: three texts fit in 5000 bytes" [ "$(jq '[.components[].licenses[]? | select(.license.text)] | length' "$work/small.json")" = 3 ]
check "small budget: every file still listed by name" \
  [ "$(jq '[.components[].properties[] | select(.name == "pixi:license-file")] | length' "$work/small.json")" = "$(jq '[.components[].properties[] | select(.name == "pixi:license-file")] | length' "$t")" ]
check "small budget: the marker says how many and why" \
  jq -e '.metadata.properties[] | select(.name == "pixi:incomplete-detail") | .value | test("license-texts: [0-9]+ file\\(s\\) listed by name only \\(1 over the 1048576-byte file limit, [0-9]+ past the 5000-byte document budget\\)")' "$work/small.json" >/dev/null
check "small budget: validates" "$validate" -q --format cyclonedx-1.6 "$work/small.json"
curl -sS -o "$work/notext.json" --data-binary @"$lf" "$base3/v1/sbom"
check "without license-texts: no text, names as properties, no license-texts marker" \
  jq -e '([.components[].licenses[]? | select(.license.text)] | length == 0) and ([.components[].properties[] | select(.name == "pixi:license-file")] | length > 20) and ([.metadata.properties[] | select(.name == "pixi:incomplete") | .value | test("license-texts")] | any | not)' "$work/notext.json" >/dev/null
res="$(curl -sS -o "$work/p.json" -w '%{http_code}' --data-binary @"$lf" "$base3/v1/sbom?license-texts=true&license-file-max=999999999")"
check "a request cannot raise the per-file limit: $res" [ "$res" = 400 ]
# two different budgets in flight at once, repeatedly: each sees only its own
iso_ok=1
for k in 1 2 3 4 5 6; do
  curl -sS -o "$work/iso-a$k.json" --data-binary @"$lf" "$base3/v1/sbom?license-texts=true&license-texts-max=5000" &
  pa=$!
  curl -sS -o "$work/iso-b$k.json" --data-binary @"$lf" "$base3/v1/sbom?license-texts=true" &
  pb=$!
  wait "$pa" "$pb"
  cmp -s "$work/iso-a$k.json" "$work/small.json" || iso_ok=0
  cmp -s "$work/iso-b$k.json" "$t" || iso_ok=0
done
check "concurrent requests keep their own budgets and markers (6 pairs, $ntext vs 3 texts)" [ "$iso_ok" = 1 ]
kill -TERM "$pid3"; wait "$pid3"

# --- a fourth server: SPDX license texts (spec 7.2, 8) ----------------------
# An explicit spec carries no licenses, so the cache's about.json gives them:
# one free text (its LICENSE.txt stands for it), one compound, the rest MIT.
xf="$shared/fixtures/explicit/rattler-test-data-python/explicit-env-osx-arm64.txt"
xcache="$work/xcache"
MIXED_LICENSES=1 "$here/make-cache.sh" "$xf" "$xcache"
log4="$work/sbomd4.log"
${SB_WRAP:-} "$bin" --listen 127.0.0.1 --port 0 --package-cache "$xcache" --source-date-epoch 1700000000 2> "$log4" &
pid4=$!
port4=""
for _ in $(seq 1 100); do
  port4="$(grep -o '"detail":"http://127.0.0.1:[0-9]*' "$log4" 2>/dev/null | grep -o '[0-9]*$' | head -1)"
  [ -n "$port4" ] && break; sleep 0.1
done
base4="http://127.0.0.1:$port4"
ctext="$(grep -l 'Custom License' "$xcache"/pkgs/*/info/about.json | head -1)"
ctext="$(dirname "$ctext")/licenses/LICENSE.txt"
h8="$("$python" -c 'import sys, uuid; print(uuid.uuid5(uuid.NAMESPACE_OID, open(sys.argv[1], "rb").read().decode()).hex[:8])' "$ctext")"
for fmt in spdx-2.3 spdx-3.0.1; do
  res="$(curl -sS -o "$work/x.$fmt.json" -w '%{http_code}' --data-binary @"$xf" "$base4/v1/sbom?format=$fmt&license-texts=true")"
  check "SPDX license texts $fmt: $res" [ "$res" = 200 ]
  check "SPDX license texts $fmt: validates" "$validate" -q --format "$fmt" "$work/x.$fmt.json"
done
x23="$work/x.spdx-2.3.json" x3="$work/x.spdx-3.0.1.json"
check "SPDX 2.3: the free text's id carries the file text's h8 ($h8)" \
  jq -e --arg id "LicenseRef-pixi-Custom-License--see-LICENSE.txt-$h8" '[.packages[].licenseDeclared] | index($id) != null' "$x23" >/dev/null
check "SPDX 2.3: extractedText is the license file, name the declared text" \
  jq -e --rawfile t "$ctext" --arg id "LicenseRef-pixi-Custom-License--see-LICENSE.txt-$h8" \
  '.hasExtractedLicensingInfos[] | select(.licenseId == $id) | .extractedText == $t and .name == "Custom License: see LICENSE.txt"' "$x23" >/dev/null
check "SPDX 2.3: extracted entries sorted by licenseId" \
  jq -e '[.hasExtractedLicensingInfos[].licenseId] as $a | $a == ($a | sort)' "$x23" >/dev/null
check "SPDX 2.3: known ids keep the expression and name their files in licenseComments" \
  jq -e '[.packages[] | select(.licenseDeclared == "MIT") | .licenseComments] | length > 5 and all(test("^License files: (.*, )?LICENSE.txt(, .*)?$"))' "$x23" >/dev/null
check "SPDX 2.3: a compound expression stays as is" \
  jq -e '[.packages[].licenseDeclared] | index("MIT OR Apache-2.0") != null' "$x23" >/dev/null
check "SPDX 2.3: package key order (homepage after downloadLocation, summary after copyrightText)" \
  jq -e '[.packages[] | select(.licenseDeclared == "MIT")][0] | keys_unsorted | (index("downloadLocation") < index("homepage")) and (index("homepage") < index("filesAnalyzed")) and (index("licenseDeclared") < index("licenseComments")) and (index("copyrightText") < index("summary")) and (index("summary") < index("primaryPackagePurpose"))' "$x23" >/dev/null
check "SPDX 3.0.1: a SimpleLicensingText holds the license file's text" \
  jq -e --rawfile t "$ctext" --arg h "-$h8" '[."@graph"[] | select(.type == "simplelicensing_SimpleLicensingText" and (.spdxId | endswith($h)))] | length == 1 and .[0].simplelicensing_licenseText == $t and .[0].name == "Custom License: see LICENSE.txt"' "$x3" >/dev/null
check "SPDX 3.0.1: the package declares that element" \
  jq -e --arg h "-$h8" '[."@graph"[] | select(.type == "simplelicensing_SimpleLicensingText") | .spdxId] as $ids | [."@graph"[] | select(.type == "Relationship" and .relationshipType == "hasDeclaredLicense") | .to[0]] | any(. as $t | $ids | index($t) != null)' "$x3" >/dev/null
check "SPDX 3.0.1: license files named in the package comment" \
  jq -e '[."@graph"[] | select(.type == "software_Package") | .comment // "" | select(test("pixi:license-files=LICENSE.txt"))] | length > 5' "$x3" >/dev/null
res="$(curl -sS -D "$work/xh" -o "$work/xs.json" -w '%{http_code}' --data-binary @"$xf" "$base4/v1/sbom?format=spdx-2.3&license-texts=true&license-texts-max=100")"
check "SPDX 2.3 over budget: $res" [ "$res" = 200 ]
check "SPDX 2.3 over budget: the declared text stands in, no h8" \
  jq -e '[.hasExtractedLicensingInfos[] | select(.licenseId == "LicenseRef-pixi-Custom-License--see-LICENSE.txt")] | length == 1 and .[0].extractedText == "Custom License: see LICENSE.txt"' "$work/xs.json" >/dev/null
check "SPDX 2.3 over budget: the marker counts the one file SPDX could embed" \
  jq -e '.packages[0].comment | test("license-texts: 1 file\\(s\\) listed by name only")' "$work/xs.json" >/dev/null
check "SPDX 2.3 over budget: Warning header" grep -qi '^warning: 299 sbomd "license-texts: 1 file' "$work/xh"
check "SPDX 2.3 over budget: validates" "$validate" -q --format spdx-2.3 "$work/xs.json"
res="$(curl -sS -o "$work/xn.json" -w '%{http_code}' --data-binary @"$xf" "$base4/v1/sbom?format=spdx-2.3")"
check "SPDX 2.3 without texts: the declared text, no license-texts marker" \
  jq -e '(.hasExtractedLicensingInfos[0].extractedText == "Custom License: see LICENSE.txt") and (.packages[0].comment | test("license-texts") | not)' "$work/xn.json" >/dev/null
kill -TERM "$pid4"; wait "$pid4"

check "request log is JSON lines" sh -c "grep '\"msg\":\"request\"' '$log' | head -50 | jq -e . >/dev/null"
kill -TERM "$pid"; wait "$pid"; st=$?
check "SIGTERM exits 0 (got $st)" [ "$st" = 0 ]
echo "integration: $pass passed, $fail failed"
[ "$fail" = 0 ]
