#!/usr/bin/env bash
# eco-php.sh BUILD_DIR - every composer.lock, packages.lock.json and
# pubspec.lock fixture posted to a live sbomd: detected by name and by
# content; CycloneDX 1.6 and 1.7, SPDX 2.3 and 3.0.1 schema-valid; the
# GitHub snapshot held to the CycloneDX document (check-snapshot.py); the
# licenses and quality reports answered; and the CycloneDX document held
# to an independent reading of the lockfile (check-php.py: components,
# purls, hashes, licenses, edges, direct, scope), for NuGet once per target
# framework and once for the default. Prints each fixture's figures; ends
# with "eco-php: N passed, N failed".
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../lib.sh"
gh="$root/tests/github"
fx="$shared/fixtures"
snapq="format=github-snapshot&sha=0123456789abcdef0123456789abcdef01234567&ref=refs/heads/main&correlator=ci&job-id=1"
sb_start "$work/server.log" --source-date-epoch 1700000000

post() { # post FILE QUERY OUT -> the status
  curl -sS -o "$3" -w '%{http_code}' --data-binary @"$1" "$base$2"
}
enc() { python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$1"; }

fixture() { # fixture KIND KINDNAME FILE
  local kind="$1" kn="$2" f="$3" name tag platq="" p
  name="$(basename "$f")"
  tag="$kind/$(basename "$(dirname "$f")")"
  t="$work/$(echo "$tag" | tr '/' '_')"
  check "$tag: 200 by name" [ "$(post "$f" "/v1/sbom?filename=$name" "$t.cdx.json")" = 200 ]
  check "$tag: read as $kn" jq -e --arg k "$kn" '.metadata.properties[] | select(.name == "pixi:input-kind") | .value == $k' "$t.cdx.json" > /dev/null
  check "$tag: 200 by content alone" [ "$(post "$f" "/v1/sbom" "$t.auto.json")" = 200 ]
  post "$f" "/v1/sbom?filename=$kn" "$t.named.json" > /dev/null
  check "$tag: by content the document named $kn" cmp -s "$t.named.json" "$t.auto.json"
  for fmt in cyclonedx-1.6 cyclonedx-1.7 spdx-2.3 spdx-3.0.1; do
    check "$tag $fmt: 200" [ "$(post "$f" "/v1/sbom?filename=$name&format=$fmt" "$t.$fmt.json")" = 200 ]
    echo "$t.$fmt.json" >> "$work/valid.$fmt"
  done
  check "$tag snapshot: 200" [ "$(post "$f" "/v1/sbom?filename=$name&$snapq" "$t.snap.json")" = 200 ]
  post "$f" "/v1/report/packages?filename=$name" "$t.pk.json" > /dev/null
  out="$(python3 "$gh/check-snapshot.py" "$gh/snapshot.schema.json" "$t.snap.json" "$t.cdx.json" "$t.pk.json")"
  check "$tag snapshot: valid and as the CycloneDX document says ${out:+($out)}" [ -z "$out" ]
  check "$tag licenses report: 200" [ "$(post "$f" "/v1/report/licenses?filename=$name" "$t.lic.json")" = 200 ]
  check "$tag licenses report: JSON" jq -e '.summary' "$t.lic.json" > /dev/null
  check "$tag quality report: 200" [ "$(post "$f" "/v1/report/quality?filename=$name" "$t.q.json")" = 200 ]
  check "$tag quality report: a row per profile element" jq -e '.quality | length > 0' "$t.q.json" > /dev/null
  out="$(python3 "$here/check-php.py" compare "$kind" "$f" "$t.cdx.json")"
  echo "  $tag: $out"
  check "$tag: the independent reading agrees" [ "${out#*mismatches 0}" != "$out" ]
  if [ "$kind" = nuget ]; then
    while IFS= read -r p; do
      post "$f" "/v1/sbom?filename=$name&platform=$(enc "$p")" "$t.p.json" > "$t.code"
      check "$tag [$p]: 200" [ "$(cat "$t.code")" = 200 ]
      cp "$t.p.json" "$t.p$((np += 1)).json"
      echo "$t.p$np.json" >> "$work/valid.cyclonedx-1.6"
      out="$(python3 "$here/check-php.py" compare nuget "$f" "$t.p.json" "$p")"
      echo "  $tag [$p]: $out"
      check "$tag [$p]: the independent reading agrees" [ "${out#*mismatches 0}" != "$out" ]
    done < <(python3 "$here/check-php.py" platforms "$f")
  fi
}

n=0 np=0
for f in "$fx"/composer/*/composer.lock; do fixture composer composer.lock "$f"; n=$((n + 1)); done
for f in "$fx"/nuget/*/*packages.lock.json; do fixture nuget packages.lock.json "$f"; n=$((n + 1)); done
for f in "$fx"/pub/*/pubspec.lock; do fixture pub pubspec.lock "$f"; n=$((n + 1)); done
check "fixtures found ($n)" [ "$n" -ge 17 ]
# the validator once per format over every document (it starts slowly)
for fmt in cyclonedx-1.6 cyclonedx-1.7 spdx-2.3 spdx-3.0.1; do
  docs="$(wc -l < "$work/valid.$fmt")"
  out="$(xargs "$validate" -q --format "$fmt" < "$work/valid.$fmt" 2>&1)"
  rc=$?
  echo "  $fmt: $docs documents validated${out:+: $(echo "$out" | head -3)}"
  check "$fmt: all $docs documents schema-valid" [ "$rc" = 0 ]
done

# a framework not in the lock: 422 naming the choices
f="$fx/nuget/qowaiv-data-sqlclient--rev-e4603af/packages.lock.json"
code="$(post "$f" "/v1/sbom?filename=packages.lock.json&platform=net6.0" "$work/p422.json")"
check "nuget: an unknown framework is 422 ($code)" [ "$code" = 422 ]
check "nuget: the 422 lists the frameworks" grep -q 'net9.0' "$work/p422.json"
# unsupported versions and merge-conflict markers: 4xx naming the line
printf '{\n  "version": 3,\n  "dependencies": {}\n}\n' > "$work/v3.json"
code="$(post "$work/v3.json" "/v1/sbom?filename=packages.lock.json" "$work/v3.out")"
check "nuget version 3: refused ($code)" [ "${code#4}" != "$code" ]
check "nuget version 3: names the line" grep -q '"line":2' "$work/v3.out"
printf '{\n "packages": [],\n "plugin-api-version": "3.0.0"\n}\n' > "$work/api3.json"
code="$(post "$work/api3.json" "/v1/sbom?filename=composer.lock" "$work/api3.out")"
check "composer plugin API 3: refused ($code)" [ "${code#4}" != "$code" ]
printf 'packages:\n<<<<<<< HEAD\n  a:\n=======\n>>>>>>> x\nsdks: {}\n' > "$work/conflict.lock"
code="$(post "$work/conflict.lock" "/v1/sbom?filename=pubspec.lock" "$work/conflict.out")"
check "pub merge conflict: 400 ($code)" [ "$code" = 400 ]
check "pub merge conflict: names line 2" grep -q 'line 2' "$work/conflict.out"
# the server still serves
check "still serving" [ "$(post "$fx/pub/gallery--rev-cfcb9db/pubspec.lock" "/v1/sbom" "$work/last.json")" = 200 ]
# --- the diff on revision pairs ----------------------------------------------
for pair in "composer/composer--rev-8825ed9/composer.lock composer/composer--rev-eba7baa/composer.lock" \
  "pub/gallery--rev-62b117f/pubspec.lock pub/gallery--rev-cfcb9db/pubspec.lock" \
  "nuget/qowaiv-specs--rev-e4603af/packages.lock.json nuget/qowaiv-data-sqlclient--rev-e4603af/packages.lock.json"; do
  set -- $pair
  res="$(curl -sS -o "$work/d.json" -w '%{http_code}' -F "base=@$shared/fixtures/$1" -F "head=@$shared/fixtures/$2" "$base/v1/diff")"
  check "diff $1 -> $2: $res with changes" sh -c "[ $res = 200 ] && jq -e '(.diff | length > 0) and .summary.changes > 0' '$work/d.json' > /dev/null"
done
sb_done eco-php
