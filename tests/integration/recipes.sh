#!/usr/bin/env bash
# recipes.sh BUILD_DIR - the README's CI recipes (license, diff, quality and
# vulnerabilities gates), each run exactly as printed: the ```sh block after
# its `<!-- ci recipe: NAME -->` marker, with SBOMD set to a server on
# loopback (the vulnerability recipe's OSV and KEV are tests/integration/
# fake_osv.py). Each must fail the way the README says it does (exit status,
# the problem and its violations as printed), and pass once the cause is gone
# (the same script with one value changed). A failing recipe must put the
# problem in the job's log, not only in the file a later step would upload;
# docs/gates.md's recipes (their `<!-- ci recipe: gates-* -->` markers) are
# held to the same. Ends with "recipes: N passed, N failed".
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../lib.sh"
data="$root/tests/data"

# recipe NAME [FILE] -> the script of the block after the marker in FILE
# (README.md by default)
recipe() {
  awk -v m="<!-- ci recipe: $1 " 'index($0, m) == 1 { on = 1; next } on && /^```sh/ { run = 1; next }
       run && /^```/ { exit } run { print }' "$root/${2:-README.md}"
}
# told FILE TYPE: a failed recipe's log ($work/out) carries the problem of
# TYPE with its detail, and FILE (the document the job would upload) holds
# no problem in its place: a CI log that says only "curl: (22) ... 400"
# hides why, and a later upload step would ship the problem as the SBOM
told() {
  logged --arg t "urn:sbomd:problem:$2" '.type == $t and (.detail | length > 0)' \
    && ! grep -qs '"urn:sbomd:problem:' "$work/$1"
}
# logged JQ-ARGS...: the last JSON line of the recipe's log holds (jq -e
# alone takes an empty input as true)
logged() {
  local body; body="$(grep -o '^{.*}$' "$work/out" | tail -1)"
  [ -n "$body" ] && printf '%s' "$body" | jq -e "$@" > /dev/null
}
# the printed answer after a recipe's block: the next ``` block that is not sh
printed() {
  awk -v m="<!-- ci recipe: $1 " 'index($0, m) == 1 { on = 1; next } on && /^```sh/ { skip = 1; next }
       skip && /^```$/ { skip = 0; after = 1; next } after && /^```/ { if (out) exit; out = 1; next }
       after && out { print }' "$root/README.md"
}
# run_recipe SCRIPT -> its exit status; in a scratch directory where
# examples/ is the repository's, its output in $work/out
run_recipe() {
  local dir="$work/run.$RANDOM"
  mkdir -p "$dir" && ln -s "$root/examples" "$dir/examples"
  (cd "$dir" && SBOMD="$base" bash -o pipefail "$1" > "$work/out" 2>&1)
  local st=$?
  rm -f "$work"/*.json "$work"/*.md
  cp "$dir"/*.json "$dir"/*.md "$work/" 2>/dev/null
  return $st
}

# --- the license policy gate --------------------------------------------------------------
sb_start "$work/s.log" --source-date-epoch 1700000000
recipe license > "$work/license.sh"
check "the README holds the license recipe" grep -q 'fail-on=license' "$work/license.sh"
run_recipe "$work/license.sh"; st=$?
check "license recipe as printed: the job fails (exit $st)" [ "$st" = 1 ]
body="$(grep -o '^{.*}$' "$work/out" | tail -1)"
printf '%s' "$body" > "$work/license.problem"
check "and sbom.cdx.json holds no problem for a later step to upload" told sbom.cdx.json policy-violation
check "it prints a policy-violation problem (422)" jq -e '.type == "urn:sbomd:problem:policy-violation" and .status == 422' "$work/license.problem" > /dev/null
want="$(printed license | grep -o '"package":"[^"]*","version":"[^"]*","rule":"[^"]*","value":"[^"]*"' | sort)"
got="$(jq -r '.violations[] | "\"package\":\"\(.package)\",\"version\":\"\(.version)\",\"rule\":\"\(.rule)\",\"value\":\"\(.value)\""' "$work/license.problem" | sort)"
check "its violations are the README's ($(echo "$want" | wc -l) printed)" [ -n "$want" ] && [ "$want" = "$got" ]
check "its detail is the README's" sh -c "printed() { :; }; grep -qF \"\$(jq -r .detail '$work/license.problem')\" '$root/README.md'"
check "violationCount as printed" sh -c "[ \"\$(jq .violationCount '$work/license.problem')\" = \"\$(echo '$want' | wc -l)\" ]"
sed 's/deny-license=GPL-3.0-only/deny-license=AGPL-3.0-only/' "$work/license.sh" > "$work/license-pass.sh"
run_recipe "$work/license-pass.sh"; st=$?
check "license recipe, nothing denied present: the job passes (exit $st)" [ "$st" = 0 ]
check "and writes the CycloneDX document" jq -e '.bomFormat == "CycloneDX"' "$work/sbom.cdx.json" > /dev/null

# --- the diff gate ----------------------------------------------------------------------------
recipe diff > "$work/diff.sh"
check "the README holds the diff recipe" grep -q 'fail-on=diff' "$work/diff.sh"
run_recipe "$work/diff.sh"; st=$?
check "diff recipe as printed: the job fails, curl's exit 22 ($st)" [ "$st" = 22 ]
printf '%s' "$(grep -o '^{.*}$' "$work/out" | tail -1)" > "$work/diff.problem"
check "it prints a diff problem (422)" jq -e '.type == "urn:sbomd:problem:diff" and .status == 422' "$work/diff.problem" > /dev/null
said="$(tr '\n' ' ' < "$root/README.md" | grep -o 'one violation per change ([^)]*)' | tr -d '`')"
check "the README says which changes ($said)" [ -n "$said" ]
got="$(jq -r '.violations[] | "\(.package) \(.value)"' "$work/diff.problem" | sort | tr '\n' ';')"
check "the violations are the three the README names ($got)" \
  sh -c "[ \"\$(jq '.violationCount' '$work/diff.problem')\" = 3 ] && echo '$got' | grep -q 'more-itertools added' && echo '$got' | grep -q 'html5lib removed' && echo '$got' | grep -q 'poetry-core upgraded'"
check "poetry-core 1.0.0a8 -> 1.0.0a9 as printed" sh -c "echo '$said' | grep -q '1.0.0a8 -> 1.0.0a9' && jq -e '.violations[] | select(.package == \"poetry-core\") | .version == \"1.0.0a9\"' '$work/diff.problem' > /dev/null"
sed 's|-F base=@examples/poetry-be09d9c/poetry.lock|-F base=@examples/poetry-5484122/poetry.lock|' "$work/diff.sh" > "$work/diff-pass.sh"
run_recipe "$work/diff-pass.sh"; st=$?
check "diff recipe, the lockfile unchanged: the job passes (exit $st)" [ "$st" = 0 ]
kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null

# --- the quality and vulnerabilities gate, against a fake OSV and KEV -------------------
python3 "$here/fake_osv.py" "$data/osv" 0 ok > "$work/osv.port" 2> "$work/osv.err" &
pids="$pids $!"
for _ in $(seq 50); do fport="$(head -1 "$work/osv.port" 2>/dev/null)"; [ -n "$fport" ] && break; sleep 0.1; done
sb_start "$work/v.log" --source-date-epoch 1700000000 --vulnerabilities --osv-url "http://127.0.0.1:$fport" \
  --kev-url "http://127.0.0.1:$fport/kev.json" --epss-url "http://127.0.0.1:$fport/data/v1/epss"
recipe quality-vulns > "$work/qv.sh"
check "the README holds the quality and vulnerabilities recipe" grep -q 'fail-on-quality=ntia-2021' "$work/qv.sh"
run_recipe "$work/qv.sh"; st=$?
check "quality and vulnerabilities recipe as printed, on a server with --vulnerabilities: passes, NTIA met and no high finding (exit $st)" [ "$st" = 0 ]
check "and writes the CycloneDX document; OSV and KEV answered (no incomplete step osv, kev)" jq -e '.bomFormat == "CycloneDX" and ([.metadata.properties[]? | select(.name == "pixi:incomplete" and (.value == "osv" or .value == "kev"))] | length == 0)' "$work/sbom.cdx.json" > /dev/null
# the same recipe on a lockfile whose jinja2 2.10 the advisories affect
sed 's|@examples/poetry-5484122/poetry.lock|@'"$data"'/vulns/uv.lock|; s|filename=poetry.lock|filename=uv.lock|' "$work/qv.sh" > "$work/qv-fail.sh"
rm -f "$work/sbom.cdx.json"
run_recipe "$work/qv-fail.sh"; st=$?
check "on a lockfile with jinja2 2.10: the job fails ($st)" [ "$st" != 0 ]
check "the vulnerable problem reaches the log, naming jinja2 2.10" logged '.type == "urn:sbomd:problem:vulnerable" and (.violations | any(.package == "jinja2" and .version == "2.10"))'
check "and sbom.cdx.json holds no problem for a later step to upload" told sbom.cdx.json vulnerable
sed 's/author=Organization:%20ACME%20(sbom@acme.example)&//' "$work/qv.sh" > "$work/qv-noauthor.sh"
run_recipe "$work/qv-noauthor.sh"; st=$?
check "without author=: NTIA's SBOM author lacking fails the job (exit $st)" [ "$st" != 0 ]
check "the quality-failed problem in the log names sbom-author and its remedy author=" logged '.type == "urn:sbomd:problem:quality-failed" and (.violations | any(.rule == "ntia-2021:sbom-author" and (.remedy | test("author="))))'
check "and sbom.cdx.json holds no problem" told sbom.cdx.json quality-failed
kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
# the same recipe on a server without --vulnerabilities: the README's 400 feature-disabled
sb_start "$work/n.log" --source-date-epoch 1700000000
run_recipe "$work/qv.sh"; st=$?
check "on a server without --vulnerabilities: the job fails ($st)" [ "$st" != 0 ]
check "with 400 feature-disabled in the log, as the README says" told sbom.cdx.json feature-disabled
# docs/gates.md's recipes on the same server (no --vulnerabilities, no
# --lookups): each fails, and the reason reaches the log
for r in gates-license:policy-violation gates-quality:quality-failed gates-vulns:feature-disabled \
         gates-yanked:feature-disabled gates-scorecard:feature-disabled; do
  name="${r%%:*}" type="${r#*:}"
  recipe "$name" docs/gates.md > "$work/$name.sh"
  # the quality recipe passes as printed (it gives author=): without it, it fails
  [ "$name" = gates-quality ] && sed -i 's/author=Organization:%20ACME%20(sbom@acme.example)&//' "$work/$name.sh"
  if [ ! -s "$work/$name.sh" ]; then bad "docs/gates.md holds the recipe $name"; continue; fi
  run_recipe "$work/$name.sh"; st=$?
  check "docs/gates.md $name: the job fails ($st)" [ "$st" != 0 ]
  check "docs/gates.md $name: its log says $type, sbom.cdx.json holds no problem" told sbom.cdx.json "$type"
done
sb_done recipes
