#!/usr/bin/env bash
# docs.sh [BUILD_DIR] - the documentation stays true to the code and inside
# the repository: docs/configuration.md and docs/sbomd.8 are what the
# binary's settings table generates (`make docs` rewrites them); the man page
# renders without groff warnings; README.md stays short and, like docs/,
# points nowhere outside the repository; every relative link of the
# Markdown files resolves; docs/internals/ARCHITECTURE.md names every source
# file of core/, service/ and handlers/; every example POSTs to a 200 with
# components.
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../lib.sh"
cd "$root"
"$bin" --help-markdown > "$work/configuration.md"
check "docs/configuration.md is generated (make docs)" cmp -s "$work/configuration.md" docs/configuration.md
cmp -s "$work/configuration.md" docs/configuration.md || diff docs/configuration.md "$work/configuration.md" | head -20 >&2
"$bin" --help-man > "$work/sbomd.8"
check "docs/sbomd.8 is generated (make docs)" cmp -s "$work/sbomd.8" docs/sbomd.8
"$bin" --help > "$work/help.txt"
# every setting of --help has its section in the reference and the man page
n=0
while read -r opt; do
  n=$((n + 1))
  check "configuration.md documents $opt" grep -q "^\`$opt\`, " docs/configuration.md
  check "sbomd.8 documents $opt" grep -qF "\\fB$(echo "$opt" | sed 's/-/\\-/g')\\fR" docs/sbomd.8
done < <(grep -oE '^  --[a-z0-9-]+ +SB[A-Z_]+|^  --[a-z0-9-]+ +SOURCE_DATE_EPOCH' "$work/help.txt" | awk '{print $1}')
check "--help lists at least 60 settings ($n)" [ "$n" -ge 60 ]
if command -v groff > /dev/null; then
  groff -man -Tutf8 -ww -z docs/sbomd.8 2> "$work/groff.log"
  check "sbomd.8 renders without warnings" [ ! -s "$work/groff.log" ]
  cat "$work/groff.log" >&2
fi
lines=$(wc -l < README.md)
check "README.md is at most 250 lines ($lines)" [ "$lines" -le 250 ]
for f in README.md CONTRIBUTING.md tests/README.md examples/README.md docs/*.md docs/internals/*.md; do
  [ -f "$f" ] || { bad "$f exists"; continue; }
  out="$(grep -nE '\.\./shared|[Ss]pec [0-9]+\.[0-9]|[Ii]ssue [0-9]+' "$f" | grep -v '^.*github\.com' || true)"
  check "$f points nowhere outside the repository" [ -z "$out" ]
  [ -z "$out" ] || echo "$out" | head -5 >&2
  # relative links: [text](path) and [text](path#anchor), not URLs or pure anchors
  while read -r link; do
    target="${link%%#*}"
    [ -n "$target" ] || continue
    check "$f: link $link resolves" [ -e "$(dirname "$f")/$target" ]
  done < <(grep -oE '\]\([^)]+\)' "$f" | sed 's/^](//; s/)$//' | grep -vE '^(https?|mailto):|^#')
done
# and the other way: every source file the docs name exists (a renamed or
# removed file leaves no statement behind about it)
for doc in docs/internals/ARCHITECTURE.md CONTRIBUTING.md tests/README.md; do
  while read -r path; do
    check "$doc names $path, which exists" [ -e "$path" ]
  done < <(grep -oE '`(core|service|handlers|cli)/[A-Za-z0-9_./-]+\.(c|h)`' "$doc" | tr -d '`' | sort -u)
done
# every function, type or field the docs name in code spans exists in the
# source (a name with an underscore; a prefix such as `sb_jr_` is a family)
for doc in docs/internals/ARCHITECTURE.md CONTRIBUTING.md tests/README.md; do
  while read -r id; do
    check "$doc names $id, which the source has" \
      grep -rqw --include='*.[ch]' --include='*.sh' --include='*.py' -e "$id" core service handlers cli tests scripts
  done < <(grep -oE '`[A-Za-z_][A-Za-z0-9_]*(\(\))?`' "$doc" | tr -d '`' | sed 's/()$//' | grep '_' | grep -v '_$' | sort -u)
done
# every test file is named in tests/README.md, which says what it covers
for f in tests/unit/test_*.c tests/integration/*.sh tests/integration/*.py tests/hostile/*.py tests/hostile/*.sh tests/fuzz/*.c; do
  check "tests/README.md names $(basename "$f")" grep -qF "\`$(basename "$f")\`" tests/README.md
done
for f in core/*.c service/*.c service/http/*.c service/lookup/*.c handlers/*.c; do
  check "ARCHITECTURE.md names $f" grep -qF "$(case "$f" in service/*/*) echo "$f" ;; *) basename "$f" ;; esac)" docs/internals/ARCHITECTURE.md
done
# the examples a newcomer is told to POST
sb_start "$work/server.log"
ne=0
for d in examples/*/; do
  for f in "$d"*; do
    case "$(basename "$f")" in README*|pixi.toml|pyproject.toml|package.json|environment.yml) continue ;; esac
    ne=$((ne + 1))
    code=$(curl -sS -o "$work/ex.json" -w '%{http_code}' --data-binary @"$f" "$base/v1/sbom?filename=$(basename "$f")")
    check "example $f answers 200 ($code)" [ "$code" = 200 ]
    check "example $f has components" jq -e '(.components | length) > 0' "$work/ex.json" > /dev/null
  done
done
check "at least 5 examples ($ne)" [ "$ne" -ge 5 ]
sb_done docs
