#!/usr/bin/env bash
# run-all.sh - every test, for each build profile in SB_PROFILES (default:
# "release asan"): the unit tests on each, every HTTP integration suite once
# (on asan when it is built), and on release what only the shipped binary
# shows (goldens, docs, OpenAPI contract, page, hostile inputs, manifests).
# SB_VALGRIND=1 runs the unit tests under valgrind; SB_FAST=1 is make check's
# fast tier (unit tests, golden documents, reports).
# Closes with one line "N passed, N failed" summing everything.
set -u
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
export SB_SHARED="${SB_SHARED:-$root/../shared}"
"$SB_SHARED/tools/setup-validator" --quiet || { echo "validator setup failed"; echo "0 passed, 1 failed"; exit 1; }
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:halt_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
total_pass=0 total_fail=0
# Each suite's count of passed checks has a floor in tests/counts.tsv (title,
# count): a suite that passes fewer fails the run, so a suite cannot stop
# running its cases unseen. A run never writes the tracked file (a test run
# leaves the tree clean): what it saw goes to build/counts.tsv, and
# `make counts` raises the floors to it when that is meant (commit it then).
counts="$root/tests/counts.tsv"
seen="$root/build/counts.tsv"
mkdir -p "$root/build"
[ -f "$seen" ] || printf '# suite\tpassed checks seen by the last runs (make counts records them)\n' > "$seen"
counts_changed=0
record() { # record TITLE PASSED FAILED
  local want
  want="$(awk -F'\t' -v t="$1" '$1 == t { print $2 }' "$counts")"
  if [ -n "$want" ] && [ "$2" -lt "$want" ]; then
    echo "  FAIL $1: $2 checks passed, $want recorded in tests/counts.tsv (a suite that ran fewer cases)"
    total_fail=$((total_fail + 1))
  elif [ "$3" = 0 ]; then
    awk -F'\t' -v t="$1" '$1 != t' "$seen" > "$seen.tmp"
    printf '%s\t%s\n' "$1" "$2" >> "$seen.tmp"
    mv "$seen.tmp" "$seen"
    if [ -z "$want" ] || [ "$2" -gt "$want" ]; then counts_changed=1; fi
  fi
}
tally() { # tally LOGFILE EXIT_STATUS
  local line p f
  line="$(grep -E '[0-9]+ passed, [0-9]+ failed' "$1" | tail -1)"
  p="$(echo "$line" | grep -oE '[0-9]+ passed' | grep -oE '[0-9]+')"
  f="$(echo "$line" | grep -oE '[0-9]+ failed' | grep -oE '[0-9]+')"
  p=${p:-0}; f=${f:-0}
  # a crash or sanitizer abort after the counts still counts as a failure
  if [ "$2" != 0 ] && [ "$f" = 0 ]; then f=1; fi
  total_pass=$((total_pass + p)); total_fail=$((total_fail + f))
  last_p=$p last_f=$f
}
# suite TITLE LOG CMD... - run one suite, show its failures and closing line, tally it
suite() {
  local title="$1" log="$2" st; shift 2
  local t0=$SECONDS
  echo "== $title"
  "$@" > "$log" 2>&1; st=$?
  grep -E 'FAIL|passed,|==[0-9]+==|runtime error|ERROR|^[a-z-]+: ' "$log" | head -60
  echo "   ($((SECONDS - t0)) s)"
  tally "$log" $st
  record "$title" "$last_p" "$last_f"
}
vg="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite"
profiles="${SB_PROFILES:-release asan}"
# The integration suites run once, on the sanitizer build when there is one
# (it sees what release sees, and more); the release build adds its unit
# tests and what only the shipped binary can show: byte-identical goldens,
# the OpenAPI contract, the page, memory bounds under hostile inputs (they
# assume mimalloc), the generated docs. SB_SUITES_ON overrides the choice.
suites_on="${SB_SUITES_ON:-}"
if [ -z "$suites_on" ]; then
  case " $profiles " in *" asan "*) suites_on=asan ;; *) suites_on="${profiles%% *}" ;; esac
fi
for profile in $profiles; do
  b="build/$profile"
  if [ "${SB_VALGRIND:-0}" = 1 ]; then
    # under valgrind: the unit tests, every third lockfile of the HTTP suite
    # (all its bad inputs), and the lookups that start servers through SB_WRAP
    suite "$profile: unit tests (valgrind)" "$b/unit.log" $vg "$b/unit-tests"
    suite "$profile: HTTP integration tests, a slice (valgrind)" "$b/integration.log" env SB_SLICE=3 SB_WRAP="$vg" tests/integration/http.sh "$b"
    suite "$profile: license lookups (valgrind)" "$b/lookups.log" env SB_WRAP="$vg" tests/integration/lookups.sh "$b"
    suite "$profile: conda archive lookups (valgrind)" "$b/archives.log" env SB_WRAP="$vg" tests/integration/archives.sh "$b"
    continue
  fi
  suite "$profile: unit tests" "$b/unit.log" "$b/unit-tests"
  if [ "${SB_FAST:-0}" = 1 ]; then
    # make check: the fast tier - unit tests, the golden documents and reports
    # (end-to-end requests against a real server), the docs, nothing slow
    suite "$profile: golden documents" "$b/goldens.log" tests/integration/goldens.sh "$b"
    suite "$profile: reports, page and CORS" "$b/reports.log" tests/integration/reports.sh "$b"
    suite "$profile: quality report and gate" "$b/quality.log" tests/integration/quality.sh "$b"
    suite "$profile: docs, man page, examples" "$b/docs.log" tests/integration/docs.sh "$b"
    continue
  fi
  if [ "$profile" = "$suites_on" ]; then
    suite "$profile: HTTP integration tests" "$b/integration.log" tests/integration/http.sh "$b"
    suite "$profile: license lookups against a fake index" "$b/lookups.log" tests/integration/lookups.sh "$b"
    suite "$profile: OSV vulnerabilities against a fake OSV" "$b/vulns.log" tests/integration/vulns.sh "$b"
    suite "$profile: yanked, fail-on-yanked, outdated against a fake index" "$b/health.log" tests/integration/health.sh "$b"
    suite "$profile: OpenSSF Scorecard, scorecard-min, fail-on-scorecard against a fake API" "$b/scorecard.log" tests/integration/scorecard.sh "$b"
    suite "$profile: conda archive lookups against a fake channel" "$b/archives.log" tests/integration/archives.sh "$b"
    suite "$profile: shared lookup cache on a real redis-server" "$b/redis.log" tests/integration/redis.sh "$b"
    suite "$profile: reports, page and CORS" "$b/reports.log" tests/integration/reports.sh "$b"
    suite "$profile: Markdown and CSV that cannot be spoofed (cmark-gfm)" "$b/markdown.log" tests/integration/markdown.sh "$b"
    suite "$profile: one schema for every report (JSON and CSV)" "$b/report-schema.log" tests/integration/report-schema.sh "$b"
    suite "$profile: quality report and gate" "$b/quality.log" tests/integration/quality.sh "$b"
    suite "$profile: JavaScript lockfiles" "$b/js.log" tests/integration/js.sh "$b"
    suite "$profile: PHP, .NET and Dart lockfiles" "$b/eco-php.log" tests/integration/eco-php.sh "$b"
    suite "$profile: Go, Swift and Gradle lockfiles" "$b/eco-go.log" tests/integration/eco-go.sh "$b"
    suite "$profile: Cargo.lock and conan.lock" "$b/eco-cargo.log" tests/integration/eco-cargo.sh "$b"
    suite "$profile: Gemfile.lock, Podfile.lock, mix.lock" "$b/eco-ruby.log" tests/integration/eco-ruby.sh "$b"
    suite "$profile: manifest part (root, direct, scopes)" "$b/manifest.log" tests/integration/manifest.sh "$b"
    suite "$profile: auth, TLS and drain" "$b/auth-tls.log" tests/integration/auth-tls.sh "$b"
    suite "$profile: probe listener under a trickle" "$b/probe.log" tests/integration/probe.sh "$b"
    suite "$profile: query parameters, negotiation, headers" "$b/params.log" tests/integration/params.sh "$b"
    suite "$profile: filters (include, exclude, kinds, scope, orphans)" "$b/filters.log" tests/integration/filters.sh "$b"
    suite "$profile: diff of lockfile revisions" "$b/diff.log" tests/integration/diff.sh "$b"
    suite "$profile: SBOMs as input (CycloneDX, SPDX 2.3)" "$b/sbomin.log" tests/integration/sbomin.sh "$b"
    suite "$profile: a whole repository in one request (archives)" "$b/repo.log" tests/integration/repo.sh "$b"
    suite "$profile: repeat uploads (ETag, 304, result cache)" "$b/repeat.log" tests/integration/repeat.sh "$b"
    suite "$profile: gates fail closed, Sbomd-Incomplete" "$b/gates.log" tests/integration/gates.sh "$b"
    suite "$profile: errors that teach" "$b/errors.log" tests/integration/errors.sh "$b"
    suite "$profile: GitHub dependency snapshot against a fake GitHub" "$b/github.log" tests/integration/github.sh "$b"
    suite "$profile: the README's CI recipes, as printed" "$b/recipes.log" tests/integration/recipes.sh "$b"
    suite "$profile: metrics say what they mean" "$b/metrics.log" tests/integration/metrics.sh "$b"
  fi
  if [ "$profile" = release ]; then
    suite "release: golden documents" "$b/goldens.log" tests/integration/goldens.sh "$b"
    suite "release: docs, man page, examples" "$b/docs.log" tests/integration/docs.sh "$b"
    suite "OpenAPI lint and contract test" "$b/contract.log" tests/contract/run.sh "$b"
    suite "the page in headless Chromium" "$b/browser.log" tests/browser/run.sh "$b"
    suite "hostile inputs" "$b/hostile.log" tests/hostile/run.sh "$b"
    suite "perf gate logic" "$b/perf-gate.log" python3 loadtest/test_perf.py
    suite "Kubernetes manifests" "$b/deploy.log" tests/deploy/run.sh "$b"
  fi
  if [ "$profile" != "$suites_on" ] && [ "$profile" != release ]; then
    suite "$profile: golden documents" "$b/goldens.log" tests/integration/goldens.sh "$b"
  fi
done
[ "$counts_changed" = 0 ] || echo "build/counts.tsv: new or higher counts than tests/counts.tsv ('make counts' records them)"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" = 0 ]
