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

# --- CI setup (docs/gates.md): the services' shape, and their jobs' shell ----------
# ci_job MARKER JOB DIR -> the job's shell (tests/integration/ci-yaml.py) run
# in DIR with SBOMD this server; its output in $work/out
ci_job() {
  SB_CI_KEEP="SBOMD ${CI_KEEP:-}" python3 "$here/ci-yaml.py" "$root/docs/gates.md" "$1" "$2" > "$work/$1-$2.sh" || return 99
  (cd "$3" && SBOMD="$base" bash "$work/$1-$2.sh" > "$work/out" 2>&1)
}
expose="$(sed -n 's/^EXPOSE \([0-9]*\).*/\1/p' "$root/Dockerfile")"
gh="$(python3 "$here/ci-yaml.py" "$root/docs/gates.md" github-services)"
check "GitHub services: the sbomd service publishes the image's port ($expose) where SBOMD points" \
  jq -e --arg p "$expose" '.jobs.sbom as $j | ($j.services.sbomd.ports | index("\($p):\($p)")) != null and $j.env.SBOMD == "http://127.0.0.1:\($p)"' <<< "$gh" > /dev/null
check "GitHub services: the image is a registry's, not the local build's tag" \
  jq -e '.jobs.sbom.services.sbomd.image | test("^[a-z0-9.-]+\\.[a-z]+/sbomd:") and (startswith("localhost/") | not)' <<< "$gh" > /dev/null
d="$work/gh-job"; mkdir -p "$d"; cp "$root/examples/pixi-pypi/pixi.lock" "$d/"
ci_job github-services sbom "$d"; st=$?
check "GitHub services job: its steps' shell passes (exit $st)" [ "$st" = 0 ]
upath="$(jq -r '.jobs.sbom.steps[-1].with.path' <<< "$gh")"
check "GitHub services job: it writes the CycloneDX document its upload step names ($upath)" \
  jq -e '.bomFormat == "CycloneDX"' "$d/$upath" > /dev/null

gl="$(python3 "$here/ci-yaml.py" "$root/docs/gates.md" gitlab)"
check "GitLab: the service's alias is SBOMD's host, on the image's port ($expose)" \
  jq -e --arg p "$expose" '.default.services[0] as $s | .variables.SBOMD == "http://\($s.alias):\($p)"' <<< "$gl" > /dev/null
check "GitLab: the sbom job hands GitLab the file it writes as its cyclonedx report" \
  jq -e '.sbom.artifacts.reports.cyclonedx == "sbom.cdx.json" and (.sbom.script | any(test("-o sbom.cdx.json")))' <<< "$gl" > /dev/null
check "GitLab: the diff job runs on merge requests only" \
  jq -e '.["lockfile-diff"].rules[0].if | test("merge_request_event")' <<< "$gl" > /dev/null
d="$work/gl-sbom"; mkdir -p "$d"; cp "$root/examples/pixi-pypi/pixi.lock" "$d/"
ci_job gitlab sbom "$d"; st=$?
check "GitLab sbom job as printed: the license gate fails it (exit $st)" [ "$st" = 1 ]
check "GitLab sbom job: the policy-violation problem in its log, no problem left as the report" \
  sh -c "grep -o '^{.*}\$' '$work/out' | tail -1 | jq -e '.type == \"urn:sbomd:problem:policy-violation\"' > /dev/null && [ ! -e '$d/sbom.cdx.json' ]"
sed 's/deny-license=GPL-3.0-only/deny-license=AGPL-3.0-only/' "$work/gitlab-sbom.sh" > "$work/gitlab-sbom-pass.sh"
(cd "$d" && SBOMD="$base" bash "$work/gitlab-sbom-pass.sh" > "$work/out" 2>&1); st=$?
check "GitLab sbom job, nothing denied present: passes (exit $st)" [ "$st" = 0 ]
check "GitLab sbom job: its cyclonedx report is CycloneDX 1.6 JSON" jq -e '.bomFormat == "CycloneDX" and .specVersion == "1.6"' "$d/sbom.cdx.json" > /dev/null
# the merge-request note: a checkout whose origin's target branch holds the
# base pixi.lock, the head's pixi.lock in the work tree, GitLab a loopback fake
python3 "$here/fake_gitlab.py" "$work/gl.port" "$work/gl.log" glpat-note-token 2> "$work/gl.err" &
pids="$pids $!"
for _ in $(seq 50); do glport="$(head -1 "$work/gl.port" 2>/dev/null)"; [ -n "$glport" ] && break; sleep 0.1; done
pb="$shared/fixtures/pixi/pixi-examples-pypi-rev-bd4e26d/pixi.lock" ph="$shared/fixtures/pixi/pixi-examples-pypi-rev-eddac34/pixi.lock"
g="$work/gl-git"
git init -q --bare -b main "$g/origin.git" && git init -q -b main "$g/seed" && cp "$pb" "$g/seed/pixi.lock" &&
  git -C "$g/seed" add pixi.lock && git -C "$g/seed" -c user.name=t -c user.email=t@example.org commit -qm base &&
  git -C "$g/seed" push -q "$g/origin.git" main && git clone -q "$g/origin.git" "$g/job" 2> /dev/null && cp "$ph" "$g/job/pixi.lock"
note_job() { # note_job TOKEN -> the diff job's exit status
  CI_KEEP="CI_MERGE_REQUEST_TARGET_BRANCH_NAME NOTE_TOKEN CI_API_V4_URL CI_PROJECT_ID CI_MERGE_REQUEST_IID" \
  CI_MERGE_REQUEST_TARGET_BRANCH_NAME=main NOTE_TOKEN="$1" CI_API_V4_URL="http://127.0.0.1:$glport/api/v4" \
  CI_PROJECT_ID=42 CI_MERGE_REQUEST_IID=7 ci_job gitlab lockfile-diff "$g/job"
}
note_job glpat-note-token; st=$?
check "GitLab diff job: runs and the note is posted (exit $st)" [ "$st" = 0 ]
curl -sS -F "base=@$pb;filename=pixi.lock" -F "head=@$ph;filename=pixi.lock" "$base/v1/diff?output=markdown" > "$work/want.md"
check "GitLab diff job: the note on merge request 7 of project 42 is the Markdown diff of base and head" \
  sh -c "tail -1 '$work/gl.log' 2>/dev/null | jq -e --rawfile want '$work/want.md' '.path == \"/api/v4/projects/42/merge_requests/7/notes\" and .type == \"application/json\" and .body == \$want and (.body | startswith(\"**sbomd diff:**\"))' > /dev/null"
note_job glpat-wrong; st=$?
check "GitLab diff job, a wrong note token: GitLab's 401 fails the job (exit $st)" sh -c "[ $st != 0 ] && grep -q '401' '$work/out'"
kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null

# the token recipe against a server started with --tokens-file
printf 'ci-secret-1\n' > "$work/tokens"
sb_start "$work/t.log" --source-date-epoch 1700000000 --tokens-file "$work/tokens"
recipe gates-token docs/gates.md > "$work/token.sh"
check "docs/gates.md holds the token recipe" grep -q 'Authorization: Bearer \$SBOMD_TOKEN' "$work/token.sh"
SBOMD_TOKEN=ci-secret-1 run_recipe "$work/token.sh"; st=$?
check "token recipe with the server's token: passes (exit $st) and writes the document" \
  sh -c "[ $st = 0 ] && jq -e '.bomFormat == \"CycloneDX\"' '$work/sbom.cdx.json' > /dev/null"
SBOMD_TOKEN=not-a-token run_recipe "$work/token.sh"; st=$?
check "token recipe with a wrong token: the job fails ($st)" [ "$st" != 0 ]
check "and the 401 unauthorized problem is in its log, not in sbom.cdx.json" told sbom.cdx.json unauthorized
kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
sb_done recipes
