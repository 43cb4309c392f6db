#!/usr/bin/env bash
# eco-go.sh BUILD_DIR - Go (go.mod, go.sum, both in one multipart
# request), SwiftPM (Package.resolved) and Gradle (gradle.lockfile and its
# kin) end to end against a live sbomd. For every fixture of the shared
# go/, swiftpm/ and gradle/ directories (and for Go each go.mod alone, each
# go.sum alone and both as the lockfile and manifest parts): CycloneDX 1.6
# and 1.7, SPDX 2.3 and 3.0.1 schema-valid; the GitHub snapshot valid and
# held to the CycloneDX document (tests/github/check-snapshot.py); the
# licenses and quality reports answered; the CycloneDX document equal to
# check-go.py's independent reading of the lockfile (per fixture: the
# components compared and the mismatches, printed). Then kind=, detection
# by content, merge-conflict markers (a 400 naming the line), unsupported
# versions (422) and the diff on revision pairs. Ends with
# "eco-go: N passed, N failed".
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../lib.sh"
gh="$root/tests/github"
sb_start "$work/sbomd.log" --source-date-epoch 1700000000
[ -n "$port" ] || { echo "eco-go: 0 passed, 1 failed"; exit 1; }
fx="$shared/fixtures"

# req OUT QUERY ARGS... -> the status; ARGS are curl's body arguments
req() {
  local out="$1" qs="$2"; shift 2
  curl -sS -o "$out" -w '%{http_code}' "$@" "$base/v1/$qs"
}

# one input, every check: TAG KIND CHECK_ARGS -- CURL BODY ARGS
one() {
  local tag="$1" ck="$2" files="$3"; shift 3
  local name="${tag//[\/ +]/_}" fmt res
  for fmt in cyclonedx-1.6 cyclonedx-1.7 spdx-2.3 spdx-3.0.1; do
    res="$(req "$work/$name.$fmt.json" "sbom?format=$fmt" "$@")"
    if [ "$res" != 200 ]; then bad "$tag $fmt: HTTP $res $(head -c 300 "$work/$name.$fmt.json")"; continue; fi
    echo "$work/$name.$fmt.json" >> "$work/tovalidate" # validated together at the end: one start of the validator
  done
  res="$(req "$work/$name.snap.json" "sbom?format=github-snapshot&sha=0123456789abcdef0123456789abcdef01234567&ref=refs/heads/main&correlator=eco-go&job-id=1" "$@")"
  req "$work/$name.pk.json" "report/packages" "$@" > /dev/null
  local out
  out="$(python3 "$gh/check-snapshot.py" "$gh/snapshot.schema.json" "$work/$name.snap.json" "$work/$name.cyclonedx-1.6.json" "$work/$name.pk.json" 2>&1)"
  check "$tag github-snapshot: $res, valid, as the CycloneDX document says ${out:+($out)}" [ "$res" = 200 ] && [ -z "$out" ]
  res="$(req "$work/$name.lic.json" "report/licenses" "$@")"
  check "$tag licenses report: $res, one row per component" python3 -c '
import json,sys
r=json.load(open(sys.argv[1])); c=json.load(open(sys.argv[2]))
rows={(x["name"],x["version"]) for x in r["licenses"]}
sys.exit(0 if sys.argv[3]=="200" and rows=={(x["name"],x.get("version")) for x in c.get("components",[])} else 1)' \
    "$work/$name.lic.json" "$work/$name.cyclonedx-1.6.json" "$res"
  res="$(req "$work/$name.q.json" "report/quality" "$@")"
  check "$tag quality report: $res with verdicts" jq -e '.quality | length > 0' "$work/$name.q.json" > /dev/null
  out="$(python3 "$here/check-go.py" $ck "$work/$name.cyclonedx-1.6.json" $files 2>&1)"
  echo "  $tag: ${out%%$'\n'*}"
  check "$tag: the independent reading agrees ($out)" sh -c "echo '$out' | head -1 | grep -q ', 0 mismatches'"
}

# --- every fixture -----------------------------------------------------------
while IFS=$'\t' read -r rel _kind _rest; do
  case "$rel" in go/*/go.mod)
    d="$fx/${rel%/go.mod}"
    one "$rel" go "$d/go.mod" --data-binary @"$d/go.mod"
    one "${rel%go.mod}go.sum" go "$d/go.sum" --data-binary @"$d/go.sum"
    one "${rel%/go.mod} go.sum+go.mod" go "$d/go.mod $d/go.sum" -F "lockfile=@$d/go.sum" -F "manifest=@$d/go.mod"
    ;;
  swiftpm/*) one "$rel" swiftpm "$fx/$rel" --data-binary @"$fx/$rel" ;;
  gradle/*) one "$rel" gradle "$fx/$rel" --data-binary @"$fx/$rel" -H "Content-Disposition: attachment; filename=\"$(basename "$rel")\"" ;;
  esac
done < "$fx/SOURCES.tsv"

# --- every document schema-valid (one validator run for all) ----------------
mapfile -t docs < "$work/tovalidate"
"$validate" --auto "${docs[@]}" > "$work/validated" 2>&1
while read -r f; do
  check "$(basename "$f") validates" grep -qxF "$f: valid" "$work/validated"
done < "$work/tovalidate"
echo "  $(grep -c ': valid$' "$work/validated") of $(wc -l < "$work/tovalidate") documents schema-valid"

# --- both Go files the other way round: the same document --------------------
d="$fx/go/cli--rev-44ee177"
req "$work/a.json" "sbom" -F "lockfile=@$d/go.sum" -F "manifest=@$d/go.mod" > /dev/null
req "$work/b.json" "sbom" -F "lockfile=@$d/go.mod" -F "manifest=@$d/go.sum" > /dev/null
check "go.mod as the lockfile and go.sum as the manifest: the same components" \
  sh -c "[ \"\$(jq -S .components '$work/a.json')\" = \"\$(jq -S .components '$work/b.json')\" ] && [ \"\$(jq '.components|length' '$work/a.json')\" = 158 ]"

# --- kind= and detection by content ------------------------------------------
for pair in "go.mod:go/fzf--rev-b734f65/go.mod" "go.sum:go/fzf--rev-b734f65/go.sum" \
  "Package.resolved:swiftpm/codeedit--rev-beafb17/Package.resolved" \
  "gradle.lockfile:gradle/pkl-cli--rev-9046221/gradle.lockfile"; do
  k="${pair%%:*}" f="$fx/${pair#*:}"
  res="$(req "$work/k.json" "sbom?kind=$k" --data-binary @"$f")"
  check "kind=$k: $res" [ "$res" = 200 ]
  res="$(req "$work/k.json" "sbom" --data-binary @"$f")"
  check "$k detected by content: $res, pixi:input-kind" sh -c "[ $res = 200 ] && jq -e --arg k '$k' '[.metadata.properties[]? | select(.value == \$k)] | length > 0' '$work/k.json' > /dev/null"
done

# --- merge-conflict markers: a 400 naming the line ---------------------------
for f in go/fzf--rev-b734f65/go.mod go/fzf--rev-b734f65/go.sum swiftpm/codeedit--rev-beafb17/Package.resolved \
  gradle/pkl-cli--rev-9046221/gradle.lockfile; do
  sed '3i<<<<<<< HEAD' "$fx/$f" > "$work/conflict"
  res="$(req "$work/c.json" "sbom?kind=$(basename "$f")" --data-binary @"$work/conflict")"
  check "$f with conflict markers: 400 at line 3 ($res)" sh -c "[ $res = 400 ] && jq -e '.line == 3 and (.detail | test(\"conflict\"))' '$work/c.json' > /dev/null"
done

# --- unsupported versions: 422 ------------------------------------------------
printf 'module m\n\ngo 2.0\n' > "$work/go2.mod"
printf '{\n  "pins" : [],\n  "version" : 4\n}\n' > "$work/v4.resolved"
res="$(req "$work/u.json" "sbom?kind=go.mod" --data-binary @"$work/go2.mod")"
check "go 2.0: $res, naming line 3" sh -c "[ $res = 422 ] && jq -e '.line == 3' '$work/u.json' > /dev/null"
res="$(req "$work/u.json" "sbom?kind=Package.resolved" --data-binary @"$work/v4.resolved")"
check "Package.resolved version 4: $res" [ "$res" = 422 ]

# --- the diff on revision pairs ----------------------------------------------
for pair in "go/kind--rev-0e9d13c/go.mod go/kind--rev-fed2688/go.mod" \
  "swiftpm/spi-server--rev-2ff9524/Package.resolved swiftpm/spi-server--rev-5402eb1/Package.resolved"; do
  set -- $pair
  res="$(curl -sS -o "$work/d.json" -w '%{http_code}' -F "base=@$fx/$1" -F "head=@$fx/$2" "$base/v1/diff")"
  check "diff $1 -> $2: $res with changes" sh -c "[ $res = 200 ] && jq -e '(.diff | length > 0) and .summary.changes > 0' '$work/d.json' > /dev/null"
done

sb_done eco-go
