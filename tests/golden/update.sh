#!/usr/bin/env bash
# update.sh [BUILD_DIR] - regenerate the report goldens (tests/golden/reports/)
# with sbomgen. Review the diff before committing: these files are what the
# reports are held to (tests/integration/reports.sh compares the server's
# answers with them byte for byte).
set -eu
root="$(cd "$(dirname "$0")/../.." && pwd)"
b="${1:-$root/build/release}"
shared="${SB_SHARED:-$root/../shared}"
while read -r name rel; do
  for kind in packages licenses python tree; do
    "$b/sbomgen" -r "$kind" -o json "$shared/fixtures/$rel" > "$root/tests/golden/reports/$name.$kind.json"
    "$b/sbomgen" -r "$kind" -o text "$shared/fixtures/$rel" > "$root/tests/golden/reports/$name.$kind.txt"
  done
done < "$root/tests/golden/reports/FIXTURES"
