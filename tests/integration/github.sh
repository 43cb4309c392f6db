#!/usr/bin/env bash
# github.sh [BUILD_DIR] - format=github-snapshot (issue 42), GitHub's
# dependency-submission body: for one fixture of every input kind the
# snapshot validates against the `snapshot` schema of GitHub's REST API
# description (vendored in tests/github/snapshot.schema.json, its source
# named there) and holds the CycloneDX document's packages, purls, edges and
# direct dependencies, and the packages report's development scope
# (tests/github/check-snapshot.py); all-* gives one snapshot with a manifest
# per selection; the conda -> PyPI mapping's identities are submitted; the
# parameters are checked (400 naming what is missing or wrong); and the
# README's GitHub Actions recipe, run as written against a loopback fake of
# the endpoint (tests/github/fake_github.py), submits a snapshot in the shape
# the API documents.
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../lib.sh"
gh="$root/tests/github"
schema="$gh/snapshot.schema.json"
fx="$shared/fixtures"
sha=0123456789abcdef0123456789abcdef01234567
q="format=github-snapshot&sha=$sha&ref=refs/heads/main&correlator=ci%20sbom&job-id=42"
# a conda -> PyPI mapping (the prefix.dev shape): xz has a PyPI name, ncurses none
printf '{"xz": "xz-py", "ncurses": null}\n' > "$work/mapping.json"
sb_start "$work/server.log" --source-date-epoch 1700000000 --pypi-mapping-file "$work/mapping.json"

post() { # post FILE QUERY OUT [CURL ARGS...] -> the status
  local f="$1" qs="$2" out="$3"; shift 3
  curl -sS -o "$out" -w '%{http_code}' --data-binary @"$f" "$@" "$base/v1/sbom?$qs"
}

# --- every kind: schema-valid, the CycloneDX document's packages ----------
while read -r kind rel; do
  f="$fx/$rel" name="$(basename "$rel")"
  res="$(post "$f" "$q&filename=$name" "$work/$kind.snap.json")"
  check "$kind: 200 ($res)" [ "$res" = 200 ]
  post "$f" "filename=$name" "$work/$kind.cdx.json" > /dev/null
  curl -sS -o "$work/$kind.pk.json" --data-binary @"$f" "$base/v1/report/packages?filename=$name" 
  out="$(python3 "$gh/check-snapshot.py" "$schema" "$work/$kind.snap.json" "$work/$kind.cdx.json" "$work/$kind.pk.json")"
  check "$kind: schema-valid, packages, purls, edges, relationship and scope as CycloneDX says ${out:+($out)}" [ -z "$out" ]
  n="$(jq '[.manifests[].resolved | length] | add' "$work/$kind.snap.json")"
  check "$kind: $n packages, one manifest named $name" jq -e --arg n "$name" \
    '(.manifests | keys) == [$n] and .manifests[$n].file.source_location == $n and .detector.name == "sbomd"' \
    "$work/$kind.snap.json" > /dev/null
done <<'LIST'
pixi pixi/pixi-pack-examples-webserver/pixi.lock
conda-lock conda-lock/conda-lock-example-zlib/conda-lock.yml
explicit explicit/rattler-test-data-explicit-envs/xtensor_linux-64.txt
uv uv/pydantic-pydantic-core/uv.lock
pylock pylock/pdm-tests-fixtures-projects-demo/pylock.toml
poetry poetry/cyclonedx-python-tests-_data-infiles-poetry-main-and-dev-lock20/poetry.lock
pdm pdm/pdm-tests-fixtures-projects-demo/pdm.lock
requirements requirements/pdm-tests-fixtures-projects-demo-package/requirements.txt
npm npm/npm-cli-arborist-workspaces-shared-deps-virtual/package-lock.json
pnpm pnpm/trivy-pnpm-no-node-modules/pnpm-lock.yaml
yarn yarn/trivy-yarn-monorepo/yarn.lock
bun bun/bknd-examples-bun/bun.lock
LIST
# what the kinds above must show at least once
check "uv: development scope and direct dependencies present" jq -e \
  '[.manifests[].resolved[]] | (map(select(.scope == "development")) | length) > 0 and (map(select(.relationship == "direct")) | length) > 0' \
  "$work/uv.snap.json" > /dev/null
check "pixi: a conda package with purls: submitted as pkg:pypi, its conda purl in metadata" jq -e \
  '[.manifests[].resolved[] | select(.package_url | startswith("pkg:pypi/markupsafe@")) | .metadata."conda-purl" | startswith("pkg:conda/markupsafe@")] == [true]' \
  "$work/pixi.snap.json" > /dev/null
check "explicit: no dependency data, so no relationship and no dependencies" jq -e \
  '[.manifests[].resolved[] | has("relationship") or has("dependencies")] | any | not' "$work/explicit.snap.json" > /dev/null
check "the scanned time is the request's timestamp" jq -e '.scanned == "2023-11-14T22:13:20Z" and .version == 0' "$work/uv.snap.json" > /dev/null

# --- the conda -> PyPI mapping ---------------------------------------------
px3="$fx/pixi/setup-pixi-test-default-rev-3f5ab78/pixi.lock"
post "$px3" "$q&filename=pixi.lock" "$work/map.snap.json" > /dev/null
post "$px3" "filename=pixi.lock" "$work/map.cdx.json" > /dev/null
out="$(python3 "$gh/check-snapshot.py" "$schema" "$work/map.snap.json" "$work/map.cdx.json")"
check "mapping: as CycloneDX says ${out:+($out)}" [ -z "$out" ]
check "mapping: xz submitted as pkg:pypi/xz-py, conda purl kept; ncurses (null) stays pkg:conda" jq -e \
  '[.manifests[].resolved[] | select(.package_url | test("xz|ncurses")) | [(.package_url | split("@")[0]), ((.metadata."conda-purl" // "-") | split("@")[0])]] | sort == [["pkg:conda/ncurses","-"],["pkg:pypi/xz-py","pkg:conda/xz"]]' \
  "$work/map.snap.json" > /dev/null
post "$px3" "$q&filename=pixi.lock&exclude=xz" "$work/mapx.snap.json" > /dev/null
check "filters apply: exclude=xz leaves it out and says how many" jq -e \
  '([.manifests[].resolved[] | select(.package_url | test("xz"))] | length) == 0 and .manifests["pixi.lock"].metadata."excluded-packages" == 1' \
  "$work/mapx.snap.json" > /dev/null

# --- all-*: one snapshot, a manifest per environment x platform ----------
multi="$fx/pixi/pixi-docs-source_files-pixi_workspaces-introduction-multi_env/pixi.lock"
res="$(post "$multi" "$q&filename=pixi.lock&all-environments=true&all-platforms=true" "$work/all.snap.json" -D "$work/all.h")"
check "all-*: 200 ($res), one JSON document, its own media type" grep -qi '^content-type: application/vnd.sbomd.github-snapshot+json' "$work/all.h"
post "$multi" "filename=pixi.lock&all-environments=true&all-platforms=true" "$work/all.cdx.ndjson" > /dev/null
nd="$(grep -c . "$work/all.cdx.ndjson")"
out="$(python3 "$gh/check-snapshot.py" "$schema" "$work/all.snap.json" "$work/all.cdx.ndjson")"
check "all-*: $nd manifests, each as its CycloneDX document ${out:+($out)}" [ -z "$out" ] 
check "all-*: manifests named pixi.lock:<environment>:<platform>, metadata naming them" jq -e \
  '[.manifests | to_entries[] | .key == "pixi.lock:\(.value.metadata.environment):\(.value.metadata.platform)"] | all and length > 1' \
  "$work/all.snap.json" > /dev/null

# --- parameters ------------------------------------------------------------
uvf="$fx/uv/pydantic-pydantic-core/uv.lock"
res="$(post "$uvf" "format=github-snapshot&filename=uv.lock&sha=$sha" "$work/p.json")"
check "missing required parameters: 400 ($res) naming ref, correlator, job-id" jq -e \
  '.status == 400 and (.detail | test("ref, correlator, job-id")) and (.detail | test("sha,") | not)' "$work/p.json" > /dev/null
res="$(post "$uvf" "${q/$sha/abc123}&filename=uv.lock" "$work/p.json")"
check "sha of 6 digits: 400 ($res)" jq -e '.status == 400 and (.detail | test("sha"))' "$work/p.json" > /dev/null
res="$(post "$uvf" "${q/refs\/heads\/main/main}&filename=uv.lock" "$work/p.json")"
check "ref without refs/: 400 ($res)" jq -e '.status == 400 and (.detail | test("refs/"))' "$work/p.json" > /dev/null
# values GitHub would take as given: refused by name, each for its rule
for bad in "ref=refs/heads/a..b" "job-url=javascript:alert(1)" "path=../etc/passwd" "correlator=ci%0D%0Ajob"; do
  param="${bad%%=*}"
  res="$(post "$uvf" "$(echo "$q" | sed "s/&$param=[^&]*//")&$bad&filename=uv.lock" "$work/p.json")"
  check "$bad: 400 naming $param ($res)" jq -e --arg p "$param" '.status == 400 and (.detail | contains("'"'"'" + $p + "'"'"'") or contains($p))' "$work/p.json" > /dev/null
done
res="$(post "$uvf" "${q/$sha/${sha}${sha:0:24}}&filename=uv.lock" "$work/p.json")"
check "a SHA-256 commit id (64 hex digits): 200 ($res)" [ "$res" = 200 ]
res="$(post "$uvf" "format=cyclonedx-1.6&sha=$sha&filename=uv.lock" "$work/p.json")"
check "sha beside another format: 400 ($res)" jq -e '.status == 400 and (.detail | test("github-snapshot"))' "$work/p.json" > /dev/null
res="$(post "$uvf" "${q#format=github-snapshot&}&filename=uv.lock" "$work/p.json" -H 'Accept: application/vnd.sbomd.github-snapshot+json')"
check "Accept: application/vnd.sbomd.github-snapshot+json picks it ($res)" jq -e '.detector.name == "sbomd"' "$work/p.json" > /dev/null
res="$(post "$uvf" "filename=uv.lock" "$work/p.json" -H 'Accept: application/vnd.cyclonedx+json;q=0, application/spdx+json;q=0, */*')"
check "a wildcard never picks it: 406 ($res)" [ "$res" = 406 ]
res="$(post "$uvf" "$q&filename=uv.lock&path=python/uv.lock&job-url=https://ci.example/run/42" "$work/p.json")"
check "path and job-url: source_location and job.html_url ($res)" jq -e \
  '.manifests["uv.lock"].file.source_location == "python/uv.lock" and .job.html_url == "https://ci.example/run/42" and .job.correlator == "ci sbom"' \
  "$work/p.json" > /dev/null
curl -sS -o "$work/formats.json" "$base/v1/formats"
check "GET /v1/formats lists github-snapshot" jq -e '[.formats[].name] | index("github-snapshot")' "$work/formats.json" > /dev/null
# the server's detector.url setting
sb_start "$work/server2.log" --source-date-epoch 1700000000 --detector-url https://sbomd.example/ci
post "$uvf" "$q&filename=uv.lock" "$work/p.json" > /dev/null
check "--detector-url is the detector's url" jq -e '.detector.url == "https://sbomd.example/ci"' "$work/p.json" > /dev/null

# --- the README's recipe against a fake GitHub -----------------------------
recipe="$work/recipe.sh"
awk '/<!-- github-snapshot recipe/ { on = 1 } on && /^ *run: \|/ { run = 1; next } run && /^```/ { exit }
     run { sub(/^          /, ""); print }' "$root/README.md" > "$recipe"
check "the README holds the recipe's script ($(wc -l < "$recipe") lines)" grep -q 'dependency-graph/snapshots' "$recipe"
export FAKE_GITHUB_TOKEN=ghs_faketoken
python3 "$gh/fake_github.py" "$work/gh.port" "$work/gh.log" "$schema" 2> "$work/gh.err" &
pids="$pids $!"
for _ in $(seq 1 100); do [ -s "$work/gh.port" ] && break; sleep 0.1; done
ghport="$(cat "$work/gh.port" 2>/dev/null)"
run_recipe() { # run_recipe TOKEN -> the recipe's exit status, in a checkout holding pixi.lock
  mkdir -p "$work/checkout" && cp "$multi" "$work/checkout/pixi.lock"
  (cd "$work/checkout" && env SBOMD="$base" LOCKFILE=pixi.lock GITHUB_TOKEN="$1" GITHUB_API_URL="http://127.0.0.1:$ghport" \
    GITHUB_REPOSITORY=octo/pixi-app GITHUB_SHA=$sha GITHUB_REF=refs/heads/main GITHUB_RUN_ID=4242 \
    GITHUB_WORKFLOW=deps GITHUB_JOB=submit GITHUB_SERVER_URL=https://github.com bash -eo pipefail "$recipe" > "$work/recipe.out" 2>&1)
}
check "the recipe runs and GitHub (the fake) answers 201" run_recipe ghs_faketoken
check "the fake saw POST /repos/octo/pixi-app/dependency-graph/snapshots in the documented shape" jq -se \
  --arg sha $sha '.[-1] | .method == "POST" and .path == "/repos/octo/pixi-app/dependency-graph/snapshots" and .status == 201
   and .sha == $sha and .ref == "refs/heads/main" and .job.correlator == "deps submit pixi.lock" and .job.id == "4242"
   and (.manifests | length) > 1 and .packages > 0' "$work/gh.log" > /dev/null
check "the recipe's answer is GitHub's 201 body" jq -e '.result == "SUCCESS"' "$work/recipe.out" > /dev/null
check "a wrong token: the fake's 401 fails the step" eval '! run_recipe ghs_wrong'
check "... and the fake said why" jq -se '.[-1].status == 401' "$work/gh.log" > /dev/null
# the fake is no pushover: a body off the schema is a 422
jq '.sha = "abc"' "$work/all.snap.json" > "$work/bad.json"
res="$(curl -sS -o /dev/null -w '%{http_code}' -X POST --data-binary @"$work/bad.json" -H "Accept: application/vnd.github+json" \
  -H "Authorization: Bearer ghs_faketoken" -H "X-GitHub-Api-Version: 2022-11-28" -H "Content-Type: application/json" \
  "http://127.0.0.1:$ghport/repos/octo/pixi-app/dependency-graph/snapshots")"
check "the fake refuses a snapshot off the schema (422: $res)" [ "$res" = 422 ]
sb_done github
