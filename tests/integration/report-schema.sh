#!/usr/bin/env bash
# report-schema.sh BUILD_DIR - one schema for every report (issue 40): for
# the smallest readable fixture of every lockfile kind in SOURCES.tsv, every report
# (packages, licenses and licenses under a policy, python, tree, quality,
# outdated, vulnerabilities, explain of its first package) as JSON and CSV,
# held to openapi/reports.schema.json by check-schema.py: the JSON validates,
# its rows' keys are the schema's columns in order, the CSV header is those
# columns and each CSV line the JSON row's values, environment and platform
# on every row, summary.incomplete present. Outdated and vulnerabilities
# have no rows here (no lookups): their rows are held to the schema in
# health.sh and vulns.sh, against the fake upstreams. Also: the openapi
# points at the schema, and the text and Markdown reports say when licenses
# are not known rather than absent, in the page's words.
# Ends with "report-schema: N passed, N failed".
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../lib.sh"
schema="$root/openapi/reports.schema.json"
sb_start "$work/log" --source-date-epoch 1700000000
POLICY='deny-license=GPL-3.0-only&require-license=true'

check "the schema is a valid JSON Schema (2020-12)" python3 -c '
import json, sys, jsonschema
jsonschema.Draft202012Validator.check_schema(json.load(open(sys.argv[1])))' "$schema"
check "openapi.yaml names the schema" grep -q 'reports.schema.json' "$root/openapi/openapi.yaml"

# each lockfile kind's smallest fixture with packages that the server reads
# (some are refused with a 422, as the spec says: unpinned requirements, old formats)
awk -F'\t' '!/^#/ && $2 != "edge" && $2 !~ /manifest/ && $4 > 0 {
  k = $2; sub(/ v?[0-9][0-9.]*( rev)?$/, "", k); print k "\t" $3 "\t" $1
}' "$shared/fixtures/SOURCES.tsv" | sort -t$'\t' -k1,1 -k2,2n > "$work/candidates"
: > "$work/kinds"
while IFS=$'\t' read -r kind _size rel; do
  grep -q $'\t'"$kind"'$' "$work/kinds" && continue
  f="$shared/fixtures/$rel"
  [ "$(curl -sS -o /dev/null -w '%{http_code}' --data-binary @"$f" "$base/v1/report/packages?filename=$(basename "$rel")")" = 200 ] &&
    printf '%s\t%s\n' "$rel" "$kind" >> "$work/kinds"
done < "$work/candidates"
nkinds="$(wc -l < "$work/kinds")"
check "fixtures of at least 12 lockfile kinds ($nkinds)" [ "$nkinds" -ge 12 ]

get() { # get OUT QUERY FILE KIND -> HTTP status
  curl -sS -o "$1" -w '%{http_code}' --data-binary @"$3" "$base/v1/report/$4?$2"
}
while IFS=$'\t' read -r rel kind; do
  f="$shared/fixtures/$rel"; fn="$(basename "$rel")"
  first="$(curl -sS --data-binary @"$f" "$base/v1/report/packages?filename=$fn" | jq -r '.packages[0].name // empty')"
  for rep in packages licenses licenses-policy python tree quality outdated vulnerabilities explain; do
    q="filename=$fn" k="$rep"
    case $rep in
      licenses-policy) q="$q&$POLICY" k=licenses ;;
      explain) q="$q&package=$first" ;;
    esac
    a="$(get "$work/r.json" "$q&output=json" "$f" "$k")"
    b="$(get "$work/r.csv" "$q&output=csv" "$f" "$k")"
    if [ "$a:$b" != 200:200 ]; then bad "$kind $rep: json $a, csv $b"; continue; fi
    out="$(python3 "$here/check-schema.py" "$schema" "$k" "$work/r.json" "$work/r.csv" 2>&1)"
    check "$kind ($rel) $rep: JSON and CSV hold to the schema${out:+: $out}" [ -z "$out" ]
  done
done < "$work/kinds"

# a repository's reports (an archive of two lockfiles in folders): the same
# schema, with the lockfile column after environment and platform
mkdir -p "$work/repo/proj/a" "$work/repo/proj/b"
cp "$shared/fixtures/uv/pydantic/uv.lock" "$work/repo/proj/a/"
cp "$shared/fixtures/poetry/cyclonedx-python-tests-_data-infiles-poetry-with-extras-lock21/poetry.lock" "$work/repo/proj/b/"
chmod -R u+w "$work/repo"
(cd "$work/repo" && tar czf "$work/repo.tgz" proj)
first="$(curl -sS --data-binary @"$work/repo.tgz" "$base/v1/report/packages" | jq -r '.packages[0].name // empty')"
for rep in packages licenses licenses-policy python tree quality outdated vulnerabilities explain; do
  q="" k="$rep"
  case $rep in
    licenses-policy) q="$POLICY&" k=licenses ;;
    explain) q="package=$first&" ;;
  esac
  a="$(get "$work/r.json" "${q}output=json" "$work/repo.tgz" "$k")"
  b="$(get "$work/r.csv" "${q}output=csv" "$work/repo.tgz" "$k")"
  if [ "$a:$b" != 200:200 ]; then bad "archive $rep: json $a, csv $b"; continue; fi
  out="$(python3 "$here/check-schema.py" "$schema" "$k" "$work/r.json" "$work/r.csv" repository 2>&1)"
  check "archive $rep: JSON and CSV hold to the schema, lockfile column after platform${out:+: $out}" [ -z "$out" ]
done

# /v1/diff in the same schema: rows led by environment and platform (the
# head's selection), summary.incomplete (either side's), the CSV header the
# schema's columns (now_denied last under a license policy); and docs/api.md's
# columns table lists the diff's columns as the schema does
check "the schema has the diff's report in its oneOf" jq -e '.oneOf | any(."$ref" == "#/$defs/diff_report")' "$schema" > /dev/null
px="$shared/fixtures/pixi/pixi-examples-pypi-rev-bd4e26d/pixi.lock" px4="$shared/fixtures/pixi/pixi-examples-pypi-rev-eddac34/pixi.lock"
while read -r name b h q pol; do
  a="$(curl -sS -o "$work/d.json" -w '%{http_code}' -F "base=@$b" -F "head=@$h" "$base/v1/diff?$q&output=json")"
  c="$(curl -sS -o "$work/d.csv" -w '%{http_code}' -F "base=@$b" -F "head=@$h" "$base/v1/diff?$q&output=csv")"
  if [ "$a:$c" != 200:200 ]; then bad "diff $name: json $a, csv $c"; continue; fi
  out="$(python3 "$here/check-schema.py" "$schema" diff "$work/d.json" "$work/d.csv" $pol 2>&1)"
  check "diff $name: JSON and CSV hold to the schema ($(jq '.diff | length' "$work/d.json") rows)${out:+: $out}" [ -z "$out" ]
done <<EOF2
poetry-examples $root/examples/poetry-be09d9c/poetry.lock $root/examples/poetry-5484122/poetry.lock pretty=true -
pixi-pypi-v3-v4 $px $px4 pretty=false -
pixi-pypi-v3-v4-win-64 $px $px4 platform=win-64 -
pixi-pypi-policy $px $px4 deny-license=LGPL-2.1-only policy
same-lockfile $px4 $px4 pretty=false -
EOF2
# the pypi packages of a pixi.lock on a server without lookups: their
# licenses not known, which the diff's summary says as every report does
curl -sS -F "base=@$px" -F "head=@$px4" "$base/v1/diff" | jq -c .summary.incomplete > "$work/di.json"
curl -sS --data-binary @"$px4" "$base/v1/report/packages?filename=pixi.lock" | jq -c .summary.incomplete > "$work/ri.json"
check "diff: summary.incomplete holds every entry the head's report says ($(jq length "$work/ri.json") of $(jq length "$work/di.json"))" \
  jq -en --slurpfile d "$work/di.json" --slurpfile r "$work/ri.json" '($r[0] | length > 0) and ($r[0] - $d[0] | length == 0)' > /dev/null
doc_cols="$(grep '^| `diff` (`POST /v1/diff`) |' "$root/docs/api.md" | cut -d'|' -f3 | sed 's/(.*//; s/ //g')"
schema_cols="$(jq -r '[."$defs".diff_row.required[]] | join(",")' "$schema")"
check "docs/api.md's columns table lists the diff's columns as the schema ($doc_cols)" [ "$doc_cols" = "$schema_cols" ]

# licenses not known (not absent): the page's sentence in the text and
# Markdown of every report that shows a license (pypi packages of a pixi.lock
# on a server without lookups)
f="$shared/fixtures/pixi/pixi-examples-pypi-rev-ced2118/pixi.lock"
for rep in packages licenses tree; do
  for o in text markdown; do
    get "$work/u.$o" "filename=pixi.lock&output=$o" "$f" "$rep" > /dev/null
    check "$rep $o: says licenses are not known, not absent" grep -q '^\(### \)\?License not known ([0-9]*): .* - the lockfile does not record it' "$work/u.$o"
  done
done
sb_done report-schema
