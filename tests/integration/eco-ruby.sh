#!/usr/bin/env bash
# eco-ruby.sh - Gemfile.lock, Podfile.lock and mix.lock end to end against a
# real sbomd:  tests/integration/eco-ruby.sh BUILD_DIR
# Every fixture of fixtures/bundler, fixtures/cocoapods and fixtures/mix is
# posted by content (no file name) and by name: CycloneDX 1.6 and 1.7, SPDX
# 2.3 and 3.0.1 each schema-valid (validate-sbom); the GitHub snapshot held
# to its schema and to the CycloneDX document (tests/github/check-snapshot.py);
# the licenses report and the quality report answer; the CycloneDX document
# equals check-ruby.py's independent reading of the lockfile (components,
# purls, SHA-256, edges, the root's edges) with zero mismatches, printed per
# fixture. Then: merge-conflict markers a 400 naming the line, an unsupported
# version a 4xx saying so, CocoaPods' missing OSV ecosystem stated in the
# document when vulnerabilities are asked. Ends with "N passed, N failed".
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../lib.sh"
gh="$root/tests/github"
sb_start "$work/sbomd.log" --source-date-epoch 1700000000
[ -n "$port" ] || { echo "eco-ruby: 0 passed, 1 failed"; exit 1; }
post() { # post FILE PATH?QUERY OUT -> the status
  curl -sS -o "$3" -w '%{http_code}' --data-binary @"$1" "$base$2"
}
sha=0123456789abcdef0123456789abcdef01234567
while IFS=$'\t' read -r rel _rest; do
  case "$rel" in bundler/*) ck=gem ;; cocoapods/*) ck=pods ;; mix/*) ck=mix ;; *) continue ;; esac
  f="$shared/fixtures/$rel" fn="$(basename "$rel")" name="${rel//\//_}"
  for fmt in cyclonedx-1.6 cyclonedx-1.7 spdx-2.3 spdx-3.0.1; do
    out="$work/$name.$fmt.json"
    res="$(post "$f" "/v1/sbom?format=$fmt&filename=$fn" "$out")"
    if [ "$res" != 200 ]; then bad "$rel $fmt: HTTP $res $(head -c 300 "$out")"; continue; fi
    check "$rel $fmt validates" "$validate" -q --format "$fmt" "$out"
  done
  cdx="$work/$name.cyclonedx-1.6.json"
  [ -s "$cdx" ] || continue
  cp "$cdx" "$work/$name.named.json"
  # by content too, but `{}` (the lock of a Podfile without pods) says nothing of what it is
  if [ "$(wc -c < "$f")" -gt 8 ]; then
    post "$f" "/v1/sbom" "$work/$name.content.json" > /dev/null
    check "$rel: the same components by content as by name" \
      cmp -s <(jq -S .components "$cdx") <(jq -S .components "$work/$name.content.json")
  fi
  cmp="$(python3 "$here/check-ruby.py" "$ck" "$f" "$cdx" 2> "$work/$name.diff")"
  echo "eco-ruby: $rel: $cmp"
  check "$rel: the independent reading ($cmp)" grep -q ', 0 mismatches$' <<< "$cmp"
  [ -s "$work/$name.diff" ] && head -5 "$work/$name.diff" >&2
  res="$(post "$f" "/v1/sbom?format=github-snapshot&sha=$sha&ref=refs/heads/main&correlator=ci&job-id=42&filename=$fn" "$work/$name.snap.json")"
  check "$rel github-snapshot: 200 ($res)" [ "$res" = 200 ]
  post "$f" "/v1/report/packages?filename=$fn" "$work/$name.pk.json" > /dev/null
  out="$(python3 "$gh/check-snapshot.py" "$gh/snapshot.schema.json" "$work/$name.snap.json" "$work/$name.named.json" \
    "$work/$name.pk.json")"
  check "$rel github-snapshot: schema-valid, as the CycloneDX document says ${out:+($out)}" [ -z "$out" ]
  res="$(post "$f" "/v1/report/licenses?filename=$fn" "$work/$name.lic.json")"
  check "$rel licenses report: 200 ($res)" jq -e '.summary != null' "$work/$name.lic.json" > /dev/null
  res="$(post "$f" "/v1/report/quality?filename=$fn" "$work/$name.q.json")"
  check "$rel quality report: 200, a score ($res)" jq -e '.score != null or .summary != null' "$work/$name.q.json" > /dev/null
done < "$shared/fixtures/SOURCES.tsv"

# merge-conflict markers: a 400 naming the marker's line, for each kind
printf 'GEM\n  remote: https://rubygems.org/\n  specs:\n<<<<<<< HEAD\n    a (1)\n=======\n    a (2)\n>>>>>>> x\n' > "$work/c.Gemfile.lock"
printf 'PODS:\n  - A (1.0)\n<<<<<<< HEAD\n  - B (1.0)\n=======\n  - B (2.0)\n>>>>>>> x\n' > "$work/c.Podfile.lock"
printf '%%{\n  "a": {:hex, :a, "1.0.0"},\n<<<<<<< HEAD\n  "b": {:hex, :b, "1.0.0"},\n=======\n>>>>>>> x\n}\n' > "$work/c.mix.lock"
for k in Gemfile.lock:4 Podfile.lock:3 mix.lock:3; do
  kind="${k%%:*}" line="${k##*:}"
  res="$(post "$work/c.$kind" "/v1/sbom?filename=$kind" "$work/c.$kind.json")"
  check "$kind with conflict markers: 400 naming line $line ($res)" \
    jq -e --argjson l "$line" '.line == $l and (.detail | test("conflict"))' "$work/c.$kind.json" > /dev/null
done
# a version this reader does not know: refused, saying which
printf 'GEM\n  remote: https://rubygems.org/\n  specs:\n    a (1)\n\nBUNDLED WITH\n   9.0.0\n' > "$work/u.Gemfile.lock"
printf 'PODS:\n  - A (1.0)\n\nCOCOAPODS: 3.0.0\n' > "$work/u.Podfile.lock"
printf '%%{\n  "a": {:hexx, :a, "1.0.0"}\n}\n' > "$work/u.mix.lock"
for k in Gemfile.lock:Bundler Podfile.lock:CocoaPods mix.lock:hexx; do
  kind="${k%%:*}" word="${k##*:}"
  res="$(post "$work/u.$kind" "/v1/sbom?filename=$kind" "$work/u.$kind.json")"
  check "$kind unsupported: 4xx naming $word ($res)" \
    sh -c "[ '${res:0:1}' = 4 ] && jq -e --arg w '$word' '.detail | contains(\$w)' '$work/u.$kind.json' > /dev/null"
done
# CocoaPods has no OSV ecosystem: the vulnerability step says so
f="$shared/fixtures/cocoapods/gallery-ios--rev-cfcb9db/Podfile.lock"
res="$(post "$f" "/v1/sbom?vulnerabilities=osv" "$work/osv.json")"
check "Podfile.lock vulnerabilities=osv: pixi:incomplete osv names cocoapods ($res)" jq -e \
  '[.metadata.properties[] | select(.name == "pixi:incomplete-detail") | .value] | any(test("OSV has no ecosystem for cocoapods"))' \
  "$work/osv.json" > /dev/null
# the kind parameter names each reader
for k in Gemfile.lock:bundler/rubygems-bundler-realworld-warbler/Gemfile.lock Podfile.lock:cocoapods/gallery-ios--rev-cfcb9db/Podfile.lock mix.lock:mix/phoenix-installer--rev-167c469/mix.lock; do
  res="$(post "$shared/fixtures/${k#*:}" "/v1/sbom?kind=${k%%:*}" "$work/k.json")"
  check "kind=${k%%:*}: 200 ($res)" jq -e --arg k "${k%%:*}" \
    '[.metadata.properties[] | select(.name == "pixi:input-kind") | .value] == [$k]' "$work/k.json" > /dev/null
done
# --- the diff on revision pairs ----------------------------------------------
for pair in "bundler/rails--rev-ee68786/Gemfile.lock bundler/rails--rev-5a9ef5c/Gemfile.lock" \
  "cocoapods/gallery-ios--rev-cfcb9db/Podfile.lock cocoapods/spotube-ios--rev-826c8e4/Podfile.lock" \
  "mix/hexpm--rev-26c063a/mix.lock mix/hexpm--rev-dee4f9b/mix.lock"; do
  set -- $pair
  res="$(curl -sS -o "$work/d.json" -w '%{http_code}' -F "base=@$shared/fixtures/$1" -F "head=@$shared/fixtures/$2" "$base/v1/diff")"
  check "diff $1 -> $2: $res with changes" sh -c "[ $res = 200 ] && jq -e '(.diff | length > 0) and .summary.changes > 0' '$work/d.json' > /dev/null"
done
sb_done "eco-ruby"
