#!/usr/bin/env bash
# goldens.sh [BUILD_DIR] - the golden documents (tests/golden/documents/):
# for each fixture listed in FIXTURES, the server's CycloneDX 1.6 and SPDX 2.3
# answers (file name sent as ?filename=, timestamp fixed by
# --source-date-epoch) must equal the committed files byte for byte, and each
# golden must be schema-valid; likewise the github-snapshot answers for the
# fixtures listed in GITHUB. Regenerate with tests/golden/update.sh.
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../lib.sh"
docs="$root/tests/golden/documents"
sb_start "$work/server.log" --source-date-epoch 1700000000
n=0
while read -r name rel; do
  case "$name" in ''|'#'*) continue ;; esac
  n=$((n + 1))
  f="$shared/fixtures/$rel"
  for fmt in cyclonedx-1.6:cdx spdx-2.3:spdx; do
    want="$docs/$name.${fmt#*:}.json"
    curl -sS -o "$work/got.json" --data-binary @"$f" \
      "$base/v1/sbom?format=${fmt%%:*}&filename=$(basename "$rel")"
    check "$name ${fmt%%:*}: equals the golden" cmp -s "$work/got.json" "$want"
    if ! cmp -s "$work/got.json" "$want"; then diff <(jq -S . "$want") <(jq -S . "$work/got.json") | head -20 >&2; fi
    check "$name ${fmt%%:*}: the golden is schema-valid" "$validate" --auto "$want" > /dev/null
  done
done < "$docs/FIXTURES"
check "at least 12 golden fixtures ($n)" [ "$n" -ge 12 ]
# format=github-snapshot (GITHUB): the snapshot of the same fixed request,
# valid against the vendored schema of GitHub's API description
gq="format=github-snapshot&sha=0123456789abcdef0123456789abcdef01234567&ref=refs/heads/main&correlator=golden&job-id=1"
while read -r name rel; do
  case "$name" in ''|'#'*) continue ;; esac
  f="$shared/fixtures/$rel" want="$docs/$name.github.json"
  curl -sS -o "$work/got.json" --data-binary @"$f" "$base/v1/sbom?$gq&filename=$(basename "$rel")"
  check "$name github-snapshot: equals the golden" cmp -s "$work/got.json" "$want"
  if ! cmp -s "$work/got.json" "$want"; then diff <(jq -S . "$want") <(jq -S . "$work/got.json") | head -20 >&2; fi
  check "$name github-snapshot: the golden is valid against GitHub's snapshot schema" python3 -c '
import json, sys, jsonschema
s = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator(s, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER).validate(json.load(open(sys.argv[2])))
' "$root/tests/github/snapshot.schema.json" "$want"
done < "$docs/GITHUB"
# Two cores write what one writes (core/doc.c, "Two cores"): a lockfile long
# enough for the components and the dependency objects to go out in batches
# written by two jobs, and the largest pixi.lock fixture, in each CycloneDX
# version and SPDX 2.3, pretty and compact, read through a 7-byte and a 64 KiB buffer,
# equal the document sbomgen writes on one thread.
gen="$(dirname "$bin")/sbomgen"
"$root/loadtest/gen-lockfile" 3000 > "$work/par.pixi.lock"
for f in "$work/par.pixi.lock" "$(ls -S "$shared"/fixtures/pixi/*/pixi.lock | head -1)"; do
  for fmt in cyclonedx-1.6 cyclonedx-1.7 spdx-2.3; do
    for c in "" -c; do
      "$gen" -P 1 -f "$fmt" -t 1700000000 $c "$f" > "$work/one.json"
      for bs in 7 65536; do
        "$gen" -P 2 -f "$fmt" -t 1700000000 -b "$bs" $c "$f" > "$work/two.json"
        check "two threads: $(basename "$(dirname "$f")")/$(basename "$f") $fmt${c:+ compact}, $bs-byte reads: the one-thread bytes" cmp -s "$work/one.json" "$work/two.json"
      done
    done
  done
  check "two threads: $(basename "$f") has at least 256 components, so the jobs ran" \
    [ "$(jq '.packages | length' "$work/one.json")" -ge 256 ]
done
sb_done goldens
