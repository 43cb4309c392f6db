#!/usr/bin/env bash
# update.sh [BUILD_DIR] - regenerate the goldens with sbomgen: the reports
# (tests/golden/reports/, every output) and the documents
# (tests/golden/documents/, CycloneDX 1.6 and SPDX 2.3 at a fixed timestamp).
# Review the diff before committing: these files are what the service is held
# to (tests/integration/reports.sh and goldens.sh compare the server's
# answers with them byte for byte).
set -eu
root="$(cd "$(dirname "$0")/../.." && pwd)"
b="${1:-$root/build/release}"
shared="${SB_SHARED:-$root/../shared}"
while read -r name rel; do
  for kind in packages licenses python tree; do
    "$b/sbomgen" -r "$kind" -o json "$shared/fixtures/$rel" > "$root/tests/golden/reports/$name.$kind.json"
    "$b/sbomgen" -r "$kind" -o text "$shared/fixtures/$rel" > "$root/tests/golden/reports/$name.$kind.txt"
    "$b/sbomgen" -r "$kind" -o markdown "$shared/fixtures/$rel" > "$root/tests/golden/reports/$name.$kind.md"
    "$b/sbomgen" -r "$kind" -o csv "$shared/fixtures/$rel" > "$root/tests/golden/reports/$name.$kind.csv"
  done
  # the licenses report under the policy reports.sh asks for (POLICY there)
  for o in json:json text:txt markdown:md csv:csv sarif:sarif; do
    "$b/sbomgen" -r licenses -o "${o%%:*}" -D GPL-3.0-only -R -I 'readline:reviewed by legal' "$shared/fixtures/$rel" \
      > "$root/tests/golden/reports/$name.licenses-policy.${o#*:}"
  done
done < "$root/tests/golden/reports/FIXTURES"
docs="$root/tests/golden/documents"
grep -v '^#' "$docs/FIXTURES" | while read -r name rel; do
  "$b/sbomgen" -t 1700000000 -f cyclonedx-1.6 "$shared/fixtures/$rel" > "$docs/$name.cdx.json"
  "$b/sbomgen" -t 1700000000 -f spdx-2.3 "$shared/fixtures/$rel" > "$docs/$name.spdx.json"
done
# format=github-snapshot, with the parameters goldens.sh sends
grep -v '^#' "$docs/GITHUB" | while read -r name rel; do
  "$b/sbomgen" -t 1700000000 -f github-snapshot -G sha=0123456789abcdef0123456789abcdef01234567 -G ref=refs/heads/main \
    -G correlator=golden -G job-id=1 "$shared/fixtures/$rel" > "$docs/$name.github.json"
done
# the goldens only a server with its fakes can make: the vulnerabilities
# report (fake OSV, KEV, EPSS) and the diff of two lockfiles
SB_GOLDEN_UPDATE=1 "$root/tests/integration/vulns.sh" "$b" > /dev/null
SB_GOLDEN_UPDATE=1 "$root/tests/integration/diff.sh" "$b" > /dev/null
