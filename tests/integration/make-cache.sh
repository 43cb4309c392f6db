#!/usr/bin/env bash
# make-cache.sh LOCKFILE DIR [FILE_BYTES] - build a conda package cache for the
# conda packages a lockfile names, the way an extracted cache looks:
#   DIR/pkgs/<name>-<version>-<build>/info/{index.json,about.json,licenses/...}
# Every package gets about.json (summary, home, dev_url, doc_url, a license)
# and a LICENSE.txt of FILE_BYTES (default 2000) bytes; the first package also
# gets licenses/extra/NOTICE and a 1.5 MiB BIG.txt (over the per-file limit);
# the second has no index.json (an incomplete extraction, to be ignored); the
# third has a symlink under licenses/ (never followed). With MIXED_LICENSES=1
# the fourth declares a free-text license and the fifth a compound
# expression (the other shapes of spec 6.4 / 7.2). Deterministic.
set -eu
lock="$1" dir="$2" bytes="${3:-2000}"
mkdir -p "$dir/pkgs"
i=0
grep -o 'https://[^ "]*\.\(conda\|tar\.bz2\)' "$lock" | sort -u | while read -r url; do
  stem="$(basename "$url")"; stem="${stem%.conda}"; stem="${stem%.tar.bz2}"
  p="$dir/pkgs/$stem/info"
  mkdir -p "$p/licenses"
  [ "$i" = 1 ] || printf '{"name": "%s"}\n' "$stem" > "$p/index.json"
  lic=MIT
  if [ "${MIXED_LICENSES:-0}" = 1 ]; then
    [ "$i" = 3 ] && lic="Custom License: see LICENSE.txt"
    [ "$i" = 4 ] && lic="MIT OR Apache-2.0"
  fi
  printf '{"license": "%s", "license_family": "MIT", "summary": "Summary of %s", "home": "https://example.org/%s", "dev_url": "https://example.org/%s.git", "doc_url": "https://docs.example.org/%s"}\n' \
    "$lic" "$stem" "$stem" "$stem" "$stem" > "$p/about.json"
  head -c "$bytes" < <(yes "License text of $stem." | tr -d '\n') > "$p/licenses/LICENSE.txt"
  if [ "$i" = 0 ]; then
    mkdir -p "$p/licenses/extra"
    printf 'Notice for %s\n' "$stem" > "$p/licenses/extra/NOTICE"
    head -c $((1536 * 1024)) /dev/zero | tr '\0' 'x' > "$p/licenses/BIG.txt"
  fi
  [ "$i" = 2 ] && ln -s /etc/passwd "$p/licenses/passwd"
  i=$((i + 1))
done
