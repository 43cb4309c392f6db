#!/usr/bin/env bash
# eco-cargo.sh - Cargo.lock and conan.lock end to end against a real sbomd:
#   tests/integration/eco-cargo.sh [BUILD_DIR]
# Every cargo/ and conan/ fixture in SOURCES.tsv is posted without a file
# name (detection by content) and answered in CycloneDX 1.6 and 1.7, SPDX
# 2.3 and 3.0.1, each schema-valid (validate-sbom); the CycloneDX document
# is held to check-cargo.py's independent reading of the lockfile
# (components, purls, SHA-256, every edge, the root's edges, scopes: zero
# differences, the justified agreements named there); the GitHub snapshot
# is held to GitHub's schema and the CycloneDX document (check-snapshot.py);
# the licenses and quality reports answer with one row or figure per
# component. Then: two ripgrep revisions through /v1/diff, merge-conflict
# markers and an unsupported version answered 400/422 naming the line.
# Prints per-fixture figures; ends with "eco-cargo: N passed, N failed".
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../lib.sh"
sb_start "$work/sbomd.log" --source-date-epoch 1700000000
[ -n "$port" ] || { echo "eco-cargo: 0 passed, 1 failed"; exit 1; }
gh="$root/tests/github"
sha=0123456789abcdef0123456789abcdef01234567
post() { # post FILE PATH_AND_QUERY OUT -> the status
  curl -sS -o "$3" -w '%{http_code}' --data-binary @"$1" "$base$2"
}
nfix=0
while IFS=$'\t' read -r rel _kind _rest; do
  case "$rel" in cargo/*) eco=cargo ;; conan/*) eco=conan ;; *) continue ;; esac
  f="$shared/fixtures/$rel"
  name="${rel//\//_}"
  nfix=$((nfix + 1))
  for fmt in cyclonedx-1.6 cyclonedx-1.7 spdx-2.3 spdx-3.0.1; do
    out="$work/$name.$fmt.json"
    res="$(post "$f" "/v1/sbom?format=$fmt" "$out")"
    if [ "$res" != 200 ]; then bad "$rel $fmt: HTTP $res $(head -c 300 "$out")"; continue; fi
    check "$rel $fmt validates" "$validate" -q --format "$fmt" "$out"
  done
  cdx="$work/$name.cyclonedx-1.6.json"
  [ -s "$cdx" ] || continue
  kind="$(jq -r '.metadata.properties[] | select(.name == "pixi:input-kind") | .value' "$cdx")"
  want="Cargo.lock"; [ "$eco" = conan ] && want="conan.lock"
  check "$rel: detected by content as $want ($kind)" [ "$kind" = "$want" ]
  cmp="$(python3 "$here/check-cargo.py" "$eco" "$f" "$cdx" 2>&1)"
  echo "eco-cargo: $rel: $(echo "$cmp" | head -1)"
  check "$rel: the independent reading ($(echo "$cmp" | head -1))" grep -q 'mismatches 0' <<< "$(echo "$cmp" | head -1)"
  [ "$(echo "$cmp" | wc -l)" -gt 1 ] && echo "$cmp" | sed -n '2,6p' >&2
  n="$(jq '.components | length' "$cdx")"
  dup="$(jq '[.components[]."bom-ref"] | length - (unique | length)' "$cdx")"
  check "$rel: bom-refs unique ($dup repeated)" [ "$dup" = 0 ]
  # the GitHub snapshot, held to the schema and to the CycloneDX document
  res="$(post "$f" "/v1/sbom?format=github-snapshot&sha=$sha&ref=refs/heads/main&correlator=ci&job-id=1" "$work/$name.snap.json")"
  check "$rel github-snapshot: 200 ($res)" [ "$res" = 200 ]
  post "$f" "/v1/report/packages" "$work/$name.pk.json" > /dev/null
  snap="$(python3 "$gh/check-snapshot.py" "$gh/snapshot.schema.json" "$work/$name.snap.json" "$cdx" "$work/$name.pk.json" 2>&1)"
  check "$rel github-snapshot: schema-valid and as CycloneDX says ${snap:+($snap)}" [ -z "$snap" ]
  # reports: licenses (one row per component), quality (the component count)
  res="$(post "$f" "/v1/report/licenses" "$work/$name.lic.json")"
  check "$rel licenses report: 200 ($res)" [ "$res" = 200 ]
  check "$rel licenses report: $n rows" jq -e --argjson n "$n" '.licenses | length == $n' "$work/$name.lic.json" > /dev/null
  res="$(post "$f" "/v1/report/quality" "$work/$name.q.json")"
  check "$rel quality report: 200 ($res)" [ "$res" = 200 ]
  check "$rel quality report: verdicts for its profiles" jq -e '.quality | length > 0' "$work/$name.q.json" > /dev/null
done < "$shared/fixtures/SOURCES.tsv"
check "fixtures read: $nfix" [ "$nfix" -ge 12 ]

# the diff of two revisions: ripgrep 2020 (v1) against 2025 (v4)
fx="$shared/fixtures/cargo"
res="$(curl -sS -o "$work/diff.json" -w '%{http_code}' -F "base=@$fx/ripgrep--rev-7cb2113/Cargo.lock" \
  -F "head=@$fx/ripgrep--rev-3fce3b5/Cargo.lock" "$base/v1/diff")"
check "diff ripgrep v1 -> v4: 200 ($res)" [ "$res" = 200 ]
check "diff: memchr upgraded 2.3.3 -> 2.x" jq -e '[.. | objects | select(.name? == "memchr")] | length > 0' "$work/diff.json" > /dev/null

# refusals that name the line
printf 'version = 4\n\n[[package]]\nname = "a"\n<<<<<<< HEAD\nversion = "1.0.0"\n=======\nversion = "1.0.1"\n>>>>>>> b\n' > "$work/conflict.lock"
res="$(post "$work/conflict.lock" "/v1/sbom?filename=Cargo.lock" "$work/conflict.out")"
check "Cargo.lock with conflict markers: 400 naming line 5 ($res)" \
  sh -c "[ '$res' = 400 ] && jq -e '.line == 5 and (.detail | test(\"conflict\"))' '$work/conflict.out' > /dev/null"
printf '{\n "version": "0.5",\n<<<<<<< HEAD\n "requires": []\n=======\n "requires": ["a/1"]\n>>>>>>> b\n}\n' > "$work/conflict2.lock"
res="$(post "$work/conflict2.lock" "/v1/sbom?filename=conan.lock" "$work/conflict2.out")"
check "conan.lock with conflict markers: 400 naming line 3 ($res)" \
  sh -c "[ '$res' = 400 ] && jq -e '.line == 3 and (.detail | test(\"conflict\"))' '$work/conflict2.out' > /dev/null"
printf '# This file is automatically @generated by Cargo.\nversion = 99\n\n[[package]]\nname = "a"\nversion = "1.0.0"\n' > "$work/v99.lock"
res="$(post "$work/v99.lock" "/v1/sbom" "$work/v99.out")"
check "Cargo.lock version 99: 4xx naming line 2 ($res)" \
  sh -c "[ '${res:0:1}' = 4 ] && jq -e '.line == 2 and (.detail | test(\"version 99\"))' '$work/v99.out' > /dev/null"
printf '{"version": "0.7", "requires": [], "build_requires": [], "python_requires": []}\n' > "$work/v07.lock"
res="$(post "$work/v07.lock" "/v1/sbom" "$work/v07.out")"
check "conan.lock version 0.7: 4xx saying so ($res)" \
  sh -c "[ '${res:0:1}' = 4 ] && jq -e '.detail | test(\"0.7 is not supported\")' '$work/v07.out' > /dev/null"
# the kinds by name
res="$(post "$fx/ripgrep--rev-3fce3b5/Cargo.lock" "/v1/sbom?kind=Cargo.lock" "$work/k.json")"
check "kind=Cargo.lock: 200 ($res)" [ "$res" = 200 ]
res="$(post "$shared/fixtures/conan/trivy-conan-happy-v1-case2/happy_v1_case2.lock" "/v1/sbom?kind=conan.lock" "$work/k2.json")"
check "kind=conan.lock: 200 ($res)" [ "$res" = 200 ]
sb_done eco-cargo
