#!/usr/bin/env bash
# run-all.sh - every test, for each build profile in SB_PROFILES (default:
# "release asan"): the unit tests, then the HTTP integration tests against
# that profile's sbomd (and for release, the OpenAPI lint + contract test).
# SB_VALGRIND=1 runs the unit tests under valgrind.
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
for profile in ${SB_PROFILES:-release asan}; do
  b="build/$profile"
  echo "== $profile: unit tests"
  wrap=""
  [ "${SB_VALGRIND:-0}" = 1 ] && wrap="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite"
  $wrap "$b/unit-tests" > "$b/unit.log" 2>&1; st=$?
  grep -E '^(FAIL|  FAIL)|passed,|==[0-9]+==|runtime error|ERROR' "$b/unit.log" | head -60
  tally "$b/unit.log" $st
  echo "== $profile: HTTP integration tests"
  if [ "${SB_VALGRIND:-0}" = 1 ]; then
    SB_WRAP="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite" \
      tests/integration/http.sh "$b" > "$b/integration.log" 2>&1; st=$?
  else
    tests/integration/http.sh "$b" > "$b/integration.log" 2>&1; st=$?
  fi
  grep -E 'FAIL|passed,|integration:' "$b/integration.log" | head -60
  tally "$b/integration.log" $st
  echo "== $profile: license lookups against a fake index"
  if [ "${SB_VALGRIND:-0}" = 1 ]; then
    SB_WRAP="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite" \
      tests/integration/lookups.sh "$b" > "$b/lookups.log" 2>&1; st=$?
  else
    tests/integration/lookups.sh "$b" > "$b/lookups.log" 2>&1; st=$?
  fi
  grep -E 'FAIL|passed,|lookups:' "$b/lookups.log" | head -40
  tally "$b/lookups.log" $st
  if [ "${SB_VALGRIND:-0}" != 1 ]; then
    echo "== $profile: reports, page and CORS"
    tests/integration/reports.sh "$b" > "$b/reports.log" 2>&1; st=$?
    grep -E 'FAIL|passed,|reports:' "$b/reports.log" | head -40
    tally "$b/reports.log" $st
    echo "== $profile: auth, TLS and drain"
    tests/integration/auth-tls.sh "$b" > "$b/auth-tls.log" 2>&1; st=$?
    grep -E 'FAIL|passed,|auth-tls:' "$b/auth-tls.log" | head -40
    tally "$b/auth-tls.log" $st
  fi
  if [ "$profile" = release ] && [ "${SB_VALGRIND:-0}" != 1 ]; then
    echo "== $profile: OpenAPI lint and contract test"
    tests/contract/run.sh "$b" > "$b/contract.log" 2>&1; st=$?
    grep -E 'FAIL|passed,|contract:' "$b/contract.log" | head -40
    tally "$b/contract.log" $st
    echo "== the page in headless Chromium"
    tests/browser/run.sh "$b" > "$b/browser.log" 2>&1; st=$?
    grep -E 'FAIL|passed,|browser:' "$b/browser.log" | head -40
    tally "$b/browser.log" $st
    echo "== hostile inputs"
    tests/hostile/run.sh "$b" > "$b/hostile.log" 2>&1; st=$?
    grep -E 'FAIL|passed,|hostile:' "$b/hostile.log" | head -40
    tally "$b/hostile.log" $st
    echo "== perf gate logic"
    python3 loadtest/test_perf.py > "$b/perf-gate.log" 2>&1; st=$?
    grep -E 'FAIL|passed,' "$b/perf-gate.log" | head -20
    tally "$b/perf-gate.log" $st
    echo "== Kubernetes manifests"
    tests/deploy/run.sh > "$b/deploy.log" 2>&1; st=$?
    grep -E 'FAIL|passed,|deploy:' "$b/deploy.log" | head -40
    tally "$b/deploy.log" $st
  fi
done
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" = 0 ]
