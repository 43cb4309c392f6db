#!/usr/bin/env python3
"""test_perf.py - the perf gate's own logic: the two-margin verdict and the
change column. Prints "perf-gate: N passed, N failed"."""
import importlib.machinery
import importlib.util
import os

here = os.path.dirname(os.path.abspath(__file__))
loader = importlib.machinery.SourceFileLoader("perf", os.path.join(here, "perf"))
spec = importlib.util.spec_from_loader("perf", loader)
perf = importlib.util.module_from_spec(spec)
loader.exec_module(perf)

passed = failed = 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("  FAIL", what)


K, M = perf.KIB, perf.MIB
S, R = perf.SIZE_LIMIT, perf.MEM_LIMIT
check(perf.verdict(1000 * K, 1000 * K, S) == "ok", "no change passes")
check(perf.verdict(1000 * K, 900 * K, S) == "ok", "shrinking passes")
check(perf.verdict(1000 * K, 1040 * K, S) == "ok", "+4% passes")
check(perf.verdict(1000 * K, 1300 * K, S) == "fail", "+30% and +300 KiB fails")
check(perf.verdict(300 * K, 400 * K, S) == "ok", "+33% but only +100 KiB passes (both margins must be exceeded)")
check(perf.verdict(10000 * K, 10300 * K, S) == "ok", "+300 KiB but only +3% passes")
check(perf.verdict(10000 * K, 10600 * K, S) == "fail", "+6% and +600 KiB fails")
check(perf.verdict(1000 * K, 1000 * K + 256 * K, S) == "ok", "exactly +256 KiB is not over")
check(perf.verdict(40 * M, 47 * M, R) == "ok", "+17.5% but +7 MiB passes")
check(perf.verdict(40 * M, 49 * M, R) == "fail", "+22% and +9 MiB fails")
check(perf.verdict(100 * M, 112 * M, R) == "ok", "+12 MiB but +12% passes")
check(perf.verdict(100 * M, 116 * M, R) == "fail", "+16% and +16 MiB fails")
check(perf.verdict(0, 1, R) == "ok", "a zero base with a tiny head passes")
check(perf.change(100, 105) == "+5.0%", "change column")
check(perf.change(0, 5) == "n/a", "change from zero")
print("perf-gate: %d passed, %d failed" % (passed, failed))
raise SystemExit(1 if failed else 0)
