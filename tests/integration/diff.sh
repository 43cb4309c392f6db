#!/usr/bin/env bash
# diff.sh BUILD_DIR - POST /v1/diff against a live server on real revision
# pairs of one project each (SOURCES.tsv `--rev-` fixtures): the rows equal
# what diff-expect.py works out from both lockfiles on its own, both ways
# round (an upgrade read backwards is a downgrade); the Markdown, CSV and
# text outputs of the same request read back by diff-outputs.py; the gate
# (fail-on=diff), selection parameters applied to both sides, negotiation
# and refusals. Ends with "diff: N passed, N failed".
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../lib.sh"
python=/usr/bin/python3
fx="$shared/fixtures"
sb_start "$work/log" --source-date-epoch 1700000000

diff_req() { # diff_req BASE HEAD QUERY OUT -> prints "status content-type"
  curl -sS -o "$4" -w '%{http_code} %{content_type}' -F "base=@$1" -F "head=@$2" "$base/v1/diff$3"
}

# --- revision pairs: kind base head ------------------------------------------------
while read -r kind a b; do
  [ -n "$kind" ] || continue
  for dir in fwd back; do
    if [ $dir = fwd ]; then x="$fx/$a" y="$fx/$b"; else x="$fx/$b" y="$fx/$a"; fi
    name="$(basename "$(dirname "$x")") -> $(basename "$(dirname "$y")")"
    res="$(diff_req "$x" "$y" "" "$work/d.json")"
    check "$name: json $res" [ "$res" = "200 application/json" ]
    got="$("$python" "$here/diff-expect.py" "$kind" "$x" "$y" "$work/d.json" 2>&1)"
    check "$name: rows as diff-expect.py works them out: $got" sh -c "echo '$got' | grep -qE '^[0-9]+$'"
    [ "$dir" = fwd ] && fwd_rows="$got"
    if [ "$dir" = back ]; then
      check "$name: as many rows backwards as forwards ($got / $fwd_rows)" [ "$got" = "$fwd_rows" ]
      check "$name: upgrades read backwards are downgrades" \
        [ "$(jq .summary.upgraded "$work/fwd.json")" = "$(jq .summary.downgraded "$work/d.json")" ]
      check "$name: added backwards = removed forwards" \
        [ "$(jq .summary.added "$work/fwd.json")" = "$(jq .summary.removed "$work/d.json")" ]
    fi
    [ $dir = fwd ] && cp "$work/d.json" "$work/fwd.json"
    check "$name: summary counts add up to the rows" \
      jq -e '.summary as $s | ($s.added + $s.removed + $s.upgraded + $s.downgraded + $s.license_changed + $s.source_changed + $s.hash_changed + $s.scope_changed) == (.diff | length) and $s.changes == (.diff | length)' "$work/d.json" >/dev/null
    check "$name: rows grouped by change, in order" \
      jq -e '[.diff[].change] as $c | ["added","removed","upgraded","downgraded","license-changed","source-changed","hash-changed","scope-changed"] as $o | [$c[] | . as $x | $o | index($x)] | . == sort' "$work/d.json" >/dev/null
    for o in markdown csv text; do
      res="$(diff_req "$x" "$y" "?output=$o" "$work/d.$o")"
      case $o in markdown) ct="text/markdown; charset=utf-8" ;; csv) ct="text/csv; charset=utf-8" ;; text) ct="text/plain; charset=utf-8" ;; esac
      check "$name: $o $res" [ "$res" = "200 $ct" ]
    done
    got="$("$python" "$here/diff-outputs.py" "$work/d.json" "$work/d.markdown" "$work/d.csv" "$work/d.text" 2>&1)"
    check "$name: markdown, csv and text read back equal the json: $got" [ "$got" = ok ]
  done
done <<'PAIRS'
pixi pixi/pixi-examples-pypi-rev-bd4e26d/pixi.lock pixi/pixi-examples-pypi-rev-eddac34/pixi.lock
pixi pixi/pixi-examples-pypi-rev-ced2118/pixi.lock pixi/pixi-examples-pypi-rev-615be27/pixi.lock
pixi pixi/pixi-examples-pypi-rev-615be27/pixi.lock pixi/pixi-examples-pypi-rev-bd4e26d/pixi.lock
pixi pixi/setup-pixi-test-default-rev-b41bd44/pixi.lock pixi/setup-pixi-test-default-rev-3f5ab78/pixi.lock
uv uv/pydantic--rev-475aa80/uv.lock uv/pydantic--rev-2486e06/uv.lock
uv uv/pydantic--rev-bce81ef/uv.lock uv/pydantic--rev-475aa80/uv.lock
pnpm pnpm/vuejs-core--rev-a273e88/pnpm-lock.yaml pnpm/vuejs-core--rev-a389004/pnpm-lock.yaml
pnpm pnpm/pnpm--rev-c0a777e/pnpm-lock.yaml pnpm/pnpm--rev-1240a64/pnpm-lock.yaml
PAIRS

# figures known from the lockfiles themselves (pixi examples/pypi, v3 -> v4)
b3="$fx/pixi/pixi-examples-pypi-rev-bd4e26d/pixi.lock" b4="$fx/pixi/pixi-examples-pypi-rev-eddac34/pixi.lock"
diff_req "$b3" "$b4" "" "$work/p.json" >/dev/null
check "pypi example: numpy 1.26.2 -> 1.26.4 upgraded" \
  jq -e '[.diff[] | select(.name == "numpy" and .change == "upgraded" and .base_version == "1.26.2" and .head_version == "1.26.4")] | length == 1' "$work/p.json" >/dev/null
check "pypi example: conda's order puts tzdata 2024a after 2023c and ncurses 6.4.20240210 after 6.4" \
  jq -e '[.diff[] | select(.change == "upgraded" and (.name == "tzdata" or .name == "ncurses"))] | length == 2' "$work/p.json" >/dev/null
check "pypi example: libiconv's license changed from the text to LGPL-2.1-only" \
  jq -e '[.diff[] | select(.change == "license-changed" and .name == "libiconv" and .head_license == "LGPL-2.1-only")] | length == 1' "$work/p.json" >/dev/null
check "pypi example: a wheel's new URL on the same index is no source change" \
  jq -e '.summary.source_changed == 0' "$work/p.json" >/dev/null
for o in json:json text:txt markdown:md csv:csv; do # every output against its reviewed golden
  diff_req "$b3" "$b4" "?output=${o%%:*}" "$work/g.${o#*:}" >/dev/null
  golden "pixi-pypi-v3-v4.diff.${o#*:}" "$work/g.${o#*:}"
done

# --- the same lockfile twice: nothing ------------------------------------------
res="$(diff_req "$b4" "$b4" "?output=markdown" "$work/same.md")"
check "same lockfile: $res" [ "$res" = "200 text/markdown; charset=utf-8" ]
check "same lockfile: markdown says no changes" grep -q '^\*\*sbomd diff:\*\* no changes (121 unchanged)$' "$work/same.md"
res="$(diff_req "$b4" "$b4" "?fail-on=diff" "$work/same.json")"
check "same lockfile, fail-on=diff passes: $res" [ "$res" = "200 application/json" ]

# --- the gate ------------------------------------------------------------------------
res="$(diff_req "$b3" "$b4" "?fail-on=diff" "$work/gate.json")"
check "fail-on=diff with changes: $res" [ "$res" = "422 application/problem+json" ]
check "gate: problem type urn:sbomd:problem:diff, one violation per row" \
  jq -e --slurpfile d "$work/p.json" '.type == "urn:sbomd:problem:diff" and .violationCount == ($d[0].diff | length) and (.violations | length) == .violationCount' "$work/gate.json" >/dev/null
check "gate: a violation names package, version, rule and change" \
  jq -e '.violations[] | select(.package == "numpy") | .version == "1.26.4" and .rule == "diff" and .value == "upgraded" and (.reason | test("1.26.2 -> 1.26.4"))' "$work/gate.json" >/dev/null
code="$(curl -sS -o /dev/null -w '%{http_code}' --fail-with-body -F "base=@$b3" -F "head=@$b4" "$base/v1/diff?fail-on=diff" 2>/dev/null)"
check "gate: curl --fail-with-body fails the job ($code)" [ "$code" = 422 ]
res="$(diff_req "$b3" "$b4" "?fail-on=license" "$work/e.json")"
check "fail-on=license is not a gate of /v1/diff: $res" [ "$res" = "400 application/problem+json" ]
check "fail-on=license: the 400 lists the gates /v1/diff has" jq -e '.choices == ["diff", "added", "removed", "upgraded", "downgraded", "license-changed", "source-changed", "hash-changed", "scope-changed", "direct", "now-denied"]' "$work/e.json" >/dev/null
# --- the gate by kind of change: only the kinds named fail -----------------------------
res="$(diff_req "$b3" "$b4" "?fail-on=license-changed" "$work/gk.json")"
check "fail-on=license-changed: 422 ($res)" [ "$res" = "422 application/problem+json" ]
check "fail-on=license-changed: only license changes are violations" \
  jq -e --slurpfile d "$work/p.json" '.violationCount == ([$d[0].diff[] | select(.change == "license-changed")] | length) and ([.violations[].value] | unique == ["license-changed"]) and (.detail | test("of the kinds fail-on=license-changed names"))' "$work/gk.json" >/dev/null
res="$(diff_req "$b3" "$b4" "?fail-on=downgraded,source-changed" "$work/gk2.json")"
want="$(jq '[.diff[] | select(.change == "downgraded" or .change == "source-changed")] | length' "$work/p.json")"
if [ "$want" = 0 ]; then
  check "fail-on=downgraded,source-changed with none of them: the gate passes, 200 ($res)" [ "$res" = "200 application/json" ]
else
  check "fail-on=downgraded,source-changed: 422 ($res)" [ "$res" = "422 application/problem+json" ]
fi
res="$(diff_req "$b3" "$b4" "?fail-on=upgraded,added" "$work/gk3.json")"
check "fail-on=upgraded,added: 422 with upgrades and additions only ($res)" \
  jq -e '[.violations[].value] | unique | all(. == "upgraded" or . == "added")' "$work/gk3.json" >/dev/null
# now-denied (issue 37): under a license policy, a package denied after the change and not before
res="$(diff_req "$b3" "$b4" "?deny-license=LGPL-2.1-or-later&fail-on=now-denied" "$work/nd.json")"
check "deny-license=LGPL-2.1-or-later&fail-on=now-denied: 422 ($res)" [ "$res" = "422 application/problem+json" ]
check "now-denied: libxcrypt (added, LGPL-2.1-or-later) and libiconv (free text -> LGPL-2.1-only), each with the policy's reason" \
  jq -e '.violationCount == 2 and ([.violations[].package] | sort) == ["libiconv", "libxcrypt"] and all(.violations[]; .value == "now-denied" and (.reason | test("now denied by the license policy: LGPL-2.1-(or-later|only) is denied")))' "$work/nd.json" > /dev/null
res="$(diff_req "$b3" "$b4" "?deny-license=MIT&fail-on=now-denied" "$work/nd2.json")"
check "deny-license=MIT: MIT packages were denied before too, none anew: the gate passes, 200 ($res)" [ "$res" = "200 application/json" ]
check "deny-license=MIT: rows carry now_denied, null on every row" jq -e '(.diff | length > 0) and all(.diff[]; has("now_denied") and .now_denied == null)' "$work/nd2.json" > /dev/null
res="$(diff_req "$b3" "$b4" "?require-license=true" "$work/nd3.json")"
check "require-license=true: now_denied exactly on the rows whose head states no license and whose base did ($res)" \
  jq -e '[.diff[] | select(.now_denied != null) | .name] == [.diff[] | select(.change != "removed" and .head_license == null and (.change == "added" or .base_license != null)) | .name] and ([.diff[] | select(.now_denied != null)] | length > 0)' "$work/nd3.json" > /dev/null
res="$(diff_req "$b3" "$b4" "" "$work/nd4.json")"
check "without a policy the rows have no now_denied key" jq -e 'all(.diff[]; has("now_denied") | not)' "$work/nd4.json" > /dev/null
res="$(diff_req "$b3" "$b4" "?fail-on=now-denied" "$work/nd5.json")"
check "fail-on=now-denied without a policy: 400 naming what it needs ($res)" \
  sh -c "[ '$res' = '400 application/problem+json' ] && jq -e '.detail | test(\"needs a license policy\")' '$work/nd5.json' > /dev/null"
res="$(curl -sS -o "$work/nd.md" -w '%{http_code}' -F "base=@$b3" -F "head=@$b4" "$base/v1/diff?deny-license=LGPL-2.1-or-later&fail-on=now-denied&output=markdown")"
check "markdown, now-denied: the 422 diff led by the failing change ($res)" sh -c "[ '$res' = 422 ] && head -8 '$work/nd.md' | grep -q 'Failing the gate (2 of' && grep -q libxcrypt '$work/nd.md'"
res="$(diff_req "$b3" "$b4" "?fail-on=moved" "$work/gk4.json")"
check "fail-on=moved: 400 ($res)" [ "$res" = "400 application/problem+json" ]

# --- issue 37: a digest changed under the same artifact, direct-only gates, and the
# --- Markdown diff as the 422 for a pull-request comment ------------------------------
# the head revision with the first conda package's sha256 replaced (same name,
# version, build): what a republished or tampered artifact looks like
python3 -c "
import re, sys
t, here = open(sys.argv[1]).read().split('\\n'), False
for i, l in enumerate(t):
    here = here or bool(re.match(r'^(- conda|  url): .*/(linux-64|noarch)/', l))
    if here and re.match(r'^  sha256: [0-9a-f]{64}$', l):
        t[i] = '  sha256: ' + '0123456789abcdef' * 4
        break
open(sys.argv[2], 'w').write('\\n'.join(t))" "$b4" "$work/tampered.lock"
res="$(diff_req "$b4" "$work/tampered.lock" "" "$work/t.json")"
check "one sha256 replaced: one row, hash-changed ($res)" jq -e '.diff | length == 1 and .[0].change == "hash-changed" and (.[0].base_hash | startswith("sha256:")) and .[0].head_hash == "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"' "$work/t.json" >/dev/null
check "the summary counts it" jq -e '.summary.hash_changed == 1 and .summary.scope_changed == 0' "$work/t.json" >/dev/null
res="$(diff_req "$b4" "$work/tampered.lock" "?fail-on=hash-changed" "$work/th.json")"
check "fail-on=hash-changed: 422 ($res)" [ "$res" = "422 application/problem+json" ]
check "fail-on=hash-changed: the violation is the changed digest" jq -e '[.violations[].value] == ["hash-changed"] and (.violations[0].reason | test("sha256:0123456789abcdef"))' "$work/th.json" >/dev/null
res="$(diff_req "$b4" "$work/tampered.lock" "?fail-on=scope-changed,source-changed" "$work/ts.json")"
check "fail-on=scope-changed,source-changed with only a digest changed: 200 ($res)" [ "$res" = "200 application/json" ]
# direct-only: the gate fires exactly when the tampered package is a direct dependency
direct="$(jq -r '.diff[0].direct' "$work/t.json")"
res="$(diff_req "$b4" "$work/tampered.lock" "?fail-on=hash-changed,direct" "$work/td.json")"
if [ "$direct" = true ]; then want=422; else want=200; fi
check "fail-on=hash-changed,direct on a package whose direct is $direct: $want ($res)" [ "${res%% *}" = "$want" ]
res="$(diff_req "$b3" "$b4" "?fail-on=direct" "$work/tdd.json")"
ndirect="$(jq '[.diff[] | select(.direct)] | length' "$work/p.json")"
if [ "$ndirect" -gt 0 ]; then want=422; else want=200; fi
check "fail-on=direct: any change of the $ndirect direct dependencies changed: $want ($res)" [ "${res%% *}" = "$want" ]
[ "$want" = 422 ] && check "fail-on=direct: only direct dependencies are violations"   jq -e --argjson n "$ndirect" '.violationCount == $n' "$work/tdd.json" >/dev/null
# the Markdown answer of a failed gate is the diff itself, led by what fails
res="$(curl -sS -o "$work/g.md" -w '%{http_code} %{content_type}' -H 'Accept: text/markdown' -F "base=@$b3" -F "head=@$b4" "$base/v1/diff?fail-on=upgraded")"
nup="$(jq '.summary.upgraded' "$work/p.json")"
check "fail-on=upgraded, Accept: text/markdown: a 422 in Markdown ($res)" [ "$res" = "422 text/markdown; charset=utf-8" ]
check "the Markdown starts with the counts, then the $nup upgrades failing the gate, then the details"   python3 -c "import sys; t = open(sys.argv[1]).read(); g = t.find('**Failing the gate ($nup of '); d = t.find('<details>'); sys.exit(not (t.startswith('**sbomd diff:**') and 0 < g < d and t.count('| upgraded |') == $nup))" "$work/g.md"
res="$(curl -sS -o "$work/g.txt" -w '%{http_code}' -H 'Accept: text/plain' -F "base=@$b3" -F "head=@$b4" "$base/v1/diff?fail-on=upgraded")"
check "fail-on=upgraded as text: 422 led by the gated rows ($res)" sh -c "[ '$res' = 422 ] && head -1 '$work/g.txt' | grep -q '^Failing the gate ($nup of '"
res="$(diff_req "$b3" "$b3" "?fail-on=upgraded&output=markdown" "$work/g0.md")"
check "fail-on=upgraded without upgrades: the Markdown is a 200 without the gate's table ($res)" sh -c "[ '${res%% *}' = 200 ] && ! grep -q 'Failing the gate' '$work/g0.md'"

# --- selection applies to both sides; negotiation; refusals ----------------------------
res="$(diff_req "$b3" "$b4" "?platform=win-64" "$work/w.json")"
check "platform=win-64: $res" [ "$res" = "200 application/json" ]
check "platform=win-64: both sides selected on win-64" jq -e '.summary.base.platform == "win-64" and .summary.head.platform == "win-64"' "$work/w.json" >/dev/null
res="$(diff_req "$b3" "$b4" "?environment=nope" "$work/e.json")"
check "unknown environment: $res" [ "$res" = "422 application/problem+json" ]
res="$(curl -sS -o "$work/n.md" -w '%{http_code} %{content_type}' -H 'Accept: text/markdown' -F "base=@$b3" -F "head=@$b4" "$base/v1/diff")"
check "Accept: text/markdown picks markdown: $res" [ "$res" = "200 text/markdown; charset=utf-8" ]
res="$(curl -sS -o /dev/null -w '%{http_code}' -H 'Accept: image/png' -F "base=@$b3" -F "head=@$b4" "$base/v1/diff")"
check "Accept: image/png is a 406 ($res)" [ "$res" = 406 ]
res="$(diff_req "$b3" "$b4" "?output=sarif" "$work/e.json")"
check "output=sarif: $res" [ "$res" = "400 application/problem+json" ]
res="$(diff_req "$b3" "$b4" "?fetch-licenses=true" "$work/e.json")"
check "fetch-licenses is not a /v1/diff parameter (licenses are the lockfiles'): $res" [ "$res" = "400 application/problem+json" ]
res="$(diff_req "$b3" "$b4" "?depth=2" "$work/e.json")"
check "depth is not a /v1/diff parameter: $res" [ "$res" = "400 application/problem+json" ]
res="$(curl -sS -o "$work/e.json" -w '%{http_code}' -F "base=@$b3" "$base/v1/diff")"
check "no head part: $res" [ "$res" -ge 400 ] && check "no head part: the detail names it" jq -e '.detail | test("head")' "$work/e.json" >/dev/null
res="$(curl -sS -o "$work/e.json" -w '%{http_code}' --data-binary "@$b3" "$base/v1/diff")"
check "a raw body: $res" [ "$res" -ge 400 ] && check "a raw body: the detail asks for multipart" jq -e '.detail | test("multipart")' "$work/e.json" >/dev/null
res="$(curl -sS -o /dev/null -w '%{http_code}' "$base/v1/diff")"
check "GET /v1/diff is a 405 ($res)" [ "$res" = 405 ]

sb_done diff
