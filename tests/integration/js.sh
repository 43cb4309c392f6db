#!/usr/bin/env bash
# js.sh - JavaScript lockfiles end to end against a real sbomd:
#   tests/integration/js.sh BUILD_DIR
# Posts every npm/, pnpm/, yarn/ and bun/ lockfile fixture without a file
# name (detection by content) in all four formats; each document validates,
# its component count equals count-js.py's independent count, bom-refs are
# unique, every dependency ref resolves and the graph is closed (every
# component reachable from the root); for npm, pnpm and yarn, graph-js.py's
# independent reading of every edge the lockfile states (and every
# package's scope: npm's flags, pnpm's and yarn's walk; npm's orphans, and the hashes and licenses
# of a package at several paths) matches the CycloneDX dependencies with no
# difference (its docstring names the justified ones); bun.lock documents are compared
# with count-js.py's reading edge by edge (scopes, SHA-512 hashes: zero
# differences). The JavaScript traps under edge/ (and a fixture committed
# with merge-conflict markers) give a 4xx problem naming where or why;
# bun.lockb is a 422 saying how to get bun.lock. The hand-made cases of
# ../shared/cases/js-scopes are held to the same readings (scopes too), a
# yarn.lock with its package.json to the manifest's scopes, their conflict
# markers to the package manager's own command. Ends with "N passed, N
# failed".
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../lib.sh"
sb_start "$work/sbomd.log" --source-date-epoch 1700000000
[ -n "$port" ] || { echo "0 passed, 1 failed"; exit 1; }
post() { # post FILE QUERY OUT -> prints "status content-type"
  curl -sS -o "$3" -w '%{http_code} %{content_type}' --data-binary @"$1" "$base/v1/sbom$2"
}
ndocs=0
while IFS=$'\t' read -r rel kind _rest; do
  case "$rel" in npm/*|pnpm/*|yarn/*|bun/*) ;; *) continue ;; esac
  case "$kind" in "package.json manifest") continue ;; esac
  jskind="${rel%%/*}"
  case " ${JS_KINDS:-npm pnpm yarn bun} " in *" $jskind "*) ;; *) continue ;; esac # "npm" is in "pnpm"
  f="$shared/fixtures/$rel"
  name="${rel//\//_}"
  case "$kind" in *merge-conflict*)
    res="$(post "$f" "" "$work/$name.out")"
    check "$rel: committed with conflict markers, 400 naming the line ($res)" \
      sh -c "[ '${res%% *}' = 400 ] && jq -e '.line > 0 and (.detail | test(\"conflict\"))' '$work/$name.out' >/dev/null"
    continue ;;
  esac
  want="$(python3 "$here/count-js.py" "$jskind" "$f" 2>&1)"
  for fmt in cyclonedx-1.6 cyclonedx-1.7 spdx-2.3 spdx-3.0.1; do
    out="$work/$name.$fmt.json"
    res="$(post "$f" "?format=$fmt" "$out")"
    if [ "${res%% *}" != 200 ]; then bad "$rel $fmt: HTTP $res $(head -c 300 "$out")"; continue; fi
    ndocs=$((ndocs + 1))
    check "$rel $fmt validates" "$validate" -q --format "$fmt" "$out"
  done
  out="$work/$name.cyclonedx-1.6.json"
  [ -s "$out" ] || continue
  got="$(jq '.components | length' "$out")"
  check "$rel: $got components, count-js.py says $want" [ "$got" = "$want" ]
  dup="$(jq '[.components[]."bom-ref"] | length - (unique | length)' "$out")"
  check "$rel: bom-refs unique ($dup repeated)" [ "$dup" = 0 ]
  un="$(jq '[.components[]."bom-ref", "root"] as $ids | [.dependencies[] | .ref, .dependsOn[]] | map(select(. as $x | $ids | index([$x]) | not)) | length' "$out")"
  check "$rel: every dependency ref resolves ($un do not)" [ "$un" = 0 ]
  reach="$(jq '(.dependencies | map({key: .ref, value: .dependsOn}) | from_entries) as $g
               | {seen: {root: true}, todo: ["root"]}
               | until(.todo | length == 0; .todo[0] as $u | .todo |= .[1:]
                   | reduce ($g[$u] // [])[] as $v (.; if .seen[$v] then . else .seen[$v] = true | .todo += [$v] end))
               | .seen | length - 1' "$out")"
  check "$rel: the graph is closed ($reach of $got reachable)" [ "$reach" = "$got" ]
  n3="$(jq '[."@graph"[] | select(.type=="software_Package")] | length' "$work/$name.spdx-3.0.1.json")"
  check "$rel spdx-3.0.1: $n3 packages for $got components" [ "$n3" = $((got + 1)) ]
  if [ "$jskind" = bun ]; then
    cmp="$(python3 "$here/count-js.py" compare bun "$f" "$out" 2>"$work/$name.diff")"
    check "$rel: the independent reading ($cmp)" grep -q 'differences 0$' <<< "$cmp"
    [ -s "$work/$name.diff" ] && head -5 "$work/$name.diff" >&2
  fi
  case "$jskind" in npm|pnpm|yarn)
    graph="$(python3 "$here/graph-js.py" "$jskind" "$f" "$out" 2>&1)"
    echo "js graph: $rel: $(echo "$graph" | head -1)"
    check "$rel: every stated edge and scope, $(echo "$graph" | head -1)" \
      sh -c 'case "$1" in *" differences=0 "*) ;; *) echo "$1"; exit 1 ;; esac' _ "$graph" ;;
  esac
done < "$shared/fixtures/SOURCES.tsv"
echo "js: $ndocs documents from JavaScript lockfiles"

# the JavaScript traps: a located 400 or a 422 that says why, never a crash
for rel in edge/npm-cli-arborist-conflict-package-lock/package-lock.json \
           edge/yarn-tests-install-should-cleanup-when-package-json-changed/yarn.lock \
           edge/pnpm-prepare-package-has-prepublish-script/pnpm-lock.yaml; do
  f="$shared/fixtures/$rel"
  out="$work/edge.json"
  res="$(post "$f" "?filename=$(basename "$rel")" "$out")"
  case "$res" in
    "200 "*) check "$rel: accepted as a document that validates" "$validate" -q --format cyclonedx-1.6 "$out" ;;
    4??" application/problem+json")
      check "$rel: ${res%% *} says why ($(jq -r .detail "$out" | head -c 120))" jq -e '(.detail | length) > 10' "$out" >/dev/null ;;
    *) bad "$rel: $res" ;;
  esac
done
check "conflict markers: the 400 names the line" sh -c "jq -r .detail '$work/edge.json' >/dev/null; \
  curl -sS --data-binary @'$shared/fixtures/edge/npm-cli-arborist-conflict-package-lock/package-lock.json' '$base/v1/sbom' | grep -q 'line'"
# the shared cases of JavaScript scopes (shared/cases/js-scopes, README there):
# each read by its file name and held to the independent readings (scopes
# included); yarn with its package.json posted beside it; conflict markers
# answered with the package manager's own command
cases="$shared/cases/js-scopes"
if [ -d "$cases" ]; then
  for c in "$cases"/*; do
    b="$(basename "$c")"
    case "$b" in
      conflict-*|package.json) continue ;;
      yarn-*) k=yarn fn=yarn.lock ;; pnpm*) k=pnpm fn=pnpm-lock.yaml ;;
      npm*) k=npm fn=package-lock.json ;; bun*) k=bun fn=bun.lock ;; *) continue ;;
    esac
    out="$work/case-$b.json"
    res="$(post "$c" "?filename=$fn&format=cyclonedx-1.6" "$out")"
    check "cases/$b: 200 ($res)" [ "${res%% *}" = 200 ]
    if [ "$k" = bun ]; then
      cmp="$(python3 "$here/count-js.py" compare bun "$c" "$out" 2>&1)"
      check "cases/$b: the independent reading ($(echo "$cmp" | tail -1))" grep -q 'differences 0$' <<< "$cmp"
    else
      graph="$(python3 "$here/graph-js.py" "$k" "$c" "$out" 2>&1)"
      check "cases/$b: every stated edge and scope, $(echo "$graph" | head -1)" \
        sh -c 'case "$1" in *" differences=0 "*) ;; *) echo "$1"; exit 1 ;; esac' _ "$graph"
    fi
    check "cases/$b: $(jq '.components | length' "$out") components, count-js.py says $(python3 "$here/count-js.py" "$k" "$c")" \
      [ "$(jq '.components | length' "$out")" = "$(python3 "$here/count-js.py" "$k" "$c")" ]
  done
  # yarn + package.json: its devDependencies make mocha dev, chokidar's
  # optional edge keeps fsevents optional (berry and classic alike)
  for y in yarn-berry-optional-dev.lock yarn-classic-optional.lock; do
    out="$work/case-m-$y.json"
    res="$(curl -sS -o "$out" -w '%{http_code}' -F "lockfile=@$cases/$y;filename=yarn.lock" \
      -F "manifest=@$cases/package.json;filename=package.json" "$base/v1/sbom?format=cyclonedx-1.6")"
    check "cases/$y + package.json: 200 ($res)" [ "$res" = 200 ]
    check "cases/$y + package.json: mocha dev, chokidar and left-pad required, fsevents optional" \
      jq -e '[.components[] | {key: .name, value: ([.properties[]? | select(.name == "pixi:scope") | .value][0])}]
             | from_entries | .mocha == "dev" and .chokidar == "required" and .["left-pad"] == "required"
               and .fsevents == "optional"' "$out" > /dev/null
  done
  for m in conflict-package-lock.json:package-lock.json:"npm install" conflict-yarn.lock:yarn.lock:"yarn" \
           conflict-berry-yarn.lock:yarn.lock:"yarn" conflict-pnpm-lock.yaml:pnpm-lock.yaml:"pnpm install"; do
    IFS=: read -r file fn cmd <<< "$m"
    res="$(post "$cases/$file" "?filename=$fn" "$work/case-c.json")"
    check "cases/$file: 400 naming $cmd ($res)" \
      sh -c "[ '${res%% *}' = 400 ] && jq -e --arg c '($cmd)' '(.detail | contains(\$c)) and (.detail | contains(\"pixi install\") | not)' '$work/case-c.json' >/dev/null"
  done
fi
if case "${JS_KINDS:-bun}" in *bun*) true ;; *) false ;; esac; then
  # bun.lockb, Bun's binary lockfile: a 422 saying how to get the text one
  printf '#!/usr/bin/env bun\nbun-lockfile-format-v0\n\x02\x00\x00\x00\xff\xfe' > "$work/bun.lockb"
  res="$(post "$work/bun.lockb" "" "$work/lockb.out")"
  check "bun.lockb: 422 ($res)" [ "${res%% *}" = 422 ]
  check "bun.lockb: says how to get bun.lock" grep -q 'bun install --save-text-lockfile' "$work/lockb.out"
  # bun.lock by name, and lockfileVersion 2 refused naming the versions read
  bunf="$shared/fixtures/bun/bknd-examples-bun/bun.lock"
  res="$(post "$bunf" "?filename=bun.lock&format=cyclonedx-1.6" "$work/bunname.out")"
  check "bun.lock by file name: 200 ($res)" [ "${res%% *}" = 200 ]
  check "bun.lock: the input kind is recorded" \
    jq -e '.metadata.properties | any(.name == "pixi:input-kind" and .value == "bun.lock")' "$work/bunname.out" >/dev/null
  printf '{\n  "lockfileVersion": 2,\n  "workspaces": {"": {}},\n  "packages": {},\n}\n' > "$work/v2.bun"
  res="$(post "$work/v2.bun" "" "$work/v2bun.out")"
  check "bun.lock lockfileVersion 2: 422 naming 0 and 1 ($res)" \
    sh -c "[ '${res%% *}' = 422 ] && grep -q 'lockfileVersion 2.*0 and 1' '$work/v2bun.out'"
fi
# an unsupported lockfileVersion is a 422 naming it and the versions read
printf '{"lockfileVersion": 4, "packages": {}}' > "$work/v4.json"
res="$(post "$work/v4.json" "" "$work/v4.out")"
check "lockfileVersion 4: 422 ($res)" [ "${res%% *}" = 422 ]
check "lockfileVersion 4: names it and 1, 2, 3" grep -q 'lockfileVersion 4.*1, 2, 3' "$work/v4.out"
# a leading BOM is skipped
printf '\xef\xbb\xbf{"lockfileVersion": 3, "packages": {"": {"name": "b"}, "node_modules/x": {"version": "1.0.0"}}}' > "$work/bom.json"
res="$(post "$work/bom.json" "" "$work/bom.out")"
check "BOM package-lock.json: 200 ($res)" [ "${res%% *}" = 200 ]
sb_done js
