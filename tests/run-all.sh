#!/usr/bin/env bash
# run-all.sh - every test, for each build profile in SB_PROFILES (default:
# "release asan"): the unit tests, then the HTTP integration tests against
# that profile's sbomd (and for release, the OpenAPI lint + contract test).
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
tally() { # tally LOGFILE EXIT_STATUS
  local line p f
  line="$(grep -E '[0-9]+ passed, [0-9]+ failed' "$1" | tail -1)"
  p="$(echo "$line" | grep -oE '[0-9]+ passed' | grep -oE '[0-9]+')"
  f="$(echo "$line" | grep -oE '[0-9]+ failed' | grep -oE '[0-9]+')"
  p=${p:-0}; f=${f:-0}
  # a crash or sanitizer abort after the counts still counts as a failure
  if [ "$2" != 0 ] && [ "$f" = 0 ]; then f=1; fi
  total_pass=$((total_pass + p)); total_fail=$((total_fail + f))
}
# suite TITLE LOG CMD... - run one suite, show its failures and closing line, tally it
suite() {
  local title="$1" log="$2" st; shift 2
  echo "== $title"
  "$@" > "$log" 2>&1; st=$?
  grep -E 'FAIL|passed,|==[0-9]+==|runtime error|ERROR|^[a-z-]+: ' "$log" | head -60
  tally "$log" $st
}
vg="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite"
for profile in ${SB_PROFILES:-release asan}; do
  b="build/$profile"
  if [ "${SB_VALGRIND:-0}" = 1 ]; then
    # under valgrind: the unit tests and the suites that start servers through SB_WRAP
    suite "$profile: unit tests (valgrind)" "$b/unit.log" $vg "$b/unit-tests"
    suite "$profile: HTTP integration tests (valgrind)" "$b/integration.log" env SB_WRAP="$vg" tests/integration/http.sh "$b"
    suite "$profile: license lookups (valgrind)" "$b/lookups.log" env SB_WRAP="$vg" tests/integration/lookups.sh "$b"
    suite "$profile: conda archive lookups (valgrind)" "$b/archives.log" env SB_WRAP="$vg" tests/integration/archives.sh "$b"
    continue
  fi
  suite "$profile: unit tests" "$b/unit.log" "$b/unit-tests"
  if [ "${SB_FAST:-0}" = 1 ]; then
    # make check: the fast tier - unit tests, the golden documents and reports
    # (end-to-end requests against a real server), nothing slow
    suite "$profile: golden documents" "$b/goldens.log" tests/integration/goldens.sh "$b"
    suite "$profile: reports, page and CORS" "$b/reports.log" tests/integration/reports.sh "$b"
    suite "$profile: quality report and gate" "$b/quality.log" tests/integration/quality.sh "$b"
    continue
  fi
  suite "$profile: HTTP integration tests" "$b/integration.log" tests/integration/http.sh "$b"
  suite "$profile: license lookups against a fake index" "$b/lookups.log" tests/integration/lookups.sh "$b"
  suite "$profile: OSV vulnerabilities against a fake OSV" "$b/vulns.log" tests/integration/vulns.sh "$b"
  suite "$profile: yanked, fail-on-yanked, outdated against a fake index" "$b/health.log" tests/integration/health.sh "$b"
  suite "$profile: OpenSSF Scorecard, scorecard-min, fail-on-scorecard against a fake API" "$b/scorecard.log" tests/integration/scorecard.sh "$b"
  suite "$profile: conda archive lookups against a fake channel" "$b/archives.log" tests/integration/archives.sh "$b"
  suite "$profile: shared lookup cache on a real redis-server" "$b/redis.log" tests/integration/redis.sh "$b"
  suite "$profile: reports, page and CORS" "$b/reports.log" tests/integration/reports.sh "$b"
  suite "$profile: quality report and gate" "$b/quality.log" tests/integration/quality.sh "$b"
  suite "$profile: golden documents" "$b/goldens.log" tests/integration/goldens.sh "$b"
  suite "$profile: JavaScript lockfiles" "$b/js.log" tests/integration/js.sh "$b"
  suite "$profile: manifest part (root, direct, scopes)" "$b/manifest.log" tests/integration/manifest.sh "$b"
  suite "$profile: auth, TLS and drain" "$b/auth-tls.log" tests/integration/auth-tls.sh "$b"
  suite "$profile: probe listener under a trickle" "$b/probe.log" tests/integration/probe.sh "$b"
  suite "$profile: query parameters, negotiation, headers" "$b/params.log" tests/integration/params.sh "$b"
  suite "$profile: filters (include, exclude, kinds, scope, orphans)" "$b/filters.log" tests/integration/filters.sh "$b"
  suite "$profile: diff of lockfile revisions" "$b/diff.log" tests/integration/diff.sh "$b"
  suite "$profile: SBOMs as input (CycloneDX, SPDX 2.3)" "$b/sbomin.log" tests/integration/sbomin.sh "$b"
  suite "$profile: repeat uploads (ETag, 304, result cache)" "$b/repeat.log" tests/integration/repeat.sh "$b"
  if [ "$profile" = release ]; then
    suite "OpenAPI lint and contract test" "$b/contract.log" tests/contract/run.sh "$b"
    suite "the page in headless Chromium" "$b/browser.log" tests/browser/run.sh "$b"
    suite "hostile inputs" "$b/hostile.log" tests/hostile/run.sh "$b"
    suite "perf gate logic" "$b/perf-gate.log" python3 loadtest/test_perf.py
    suite "Kubernetes manifests" "$b/deploy.log" tests/deploy/run.sh
  fi
done
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" = 0 ]
