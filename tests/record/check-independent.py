#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A live recording's report against an independent count of the same file.

tests/golden/independent.py counts, from `trace-cmd report` text alone
(no code of ours), each task's blocked waits (switch-out S/D to wakeup,
interruptible ones over 5 ms dropped) and its waits for a CPU; here
latency-analyze's JSON report of the same trace must agree, for every
lt-workload task, within the golden tests' tolerances (3 % in counts, 5 %
in totals).  Unlike tests/golden/check.py, no figure of the workload's
design is asked for: under a `find / -xdev` beside it, on a shared
machine, some of lt-workload's 3 ms pipe waits take over 5 ms and are
rightly dropped, by both counts.

usage: check-independent.py --analyzer PATH [--trace-cmd PATH] TRACE
"""

import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "golden"))
import independent  # noqa: E402

COUNT_TOL = 0.03
TOTAL_TOL = 0.05
WAITCPU = "Scheduler: waiting for cpu"
COMMS = ("lt-sleep2", "lt-piperd", "lt-pipewr", "lt-fsync", "lt-sleep20")
failures = []


def check(cond, what):
    print(("ok      " if cond else "FAILED  ") + what)
    if not cond:
        failures.append(what)


def near(got, want, tol):
    return abs(got - want) <= tol * max(want, 1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("trace")
    ap.add_argument("--analyzer", required=True)
    ap.add_argument("--trace-cmd", default="trace-cmd")
    a = ap.parse_args()
    p = subprocess.run([a.analyzer, "-q", "--format=json", a.trace],
                       capture_output=True, text=True)
    if p.returncode:
        print("latency-analyze exited %d: %s" % (p.returncode, p.stderr.strip()))
        return 1
    rep = json.loads(p.stdout)
    ind = independent.count(a.trace, a.trace_cmd)
    check(ind["lost_events"] == 0 and ind["buffer_losses"] == 0,
          "independent: no drop marker, no buffer loss (%d, %d)"
          % (ind["lost_events"], ind["buffer_losses"]))
    check(rep["trace"]["lost_events"] == 0, "report: no lost event")
    check(rep["trace"]["cpus"] == ind["cpus"], "CPUs: %d, independent %d"
          % (rep["trace"]["cpus"], ind["cpus"]))
    for comm in COMMS:
        irow = ind["comms"].get(comm)
        procs = [x for x in rep["processes"] if x["comm"] == comm]
        if not irow or not procs:
            check(False, "%s in the trace (%s) and the report (%d)"
                  % (comm, bool(irow), len(procs)))
            continue
        rows = [r for x in procs for r in x["reasons"]]
        blocked = [r for r in rows if r["reason"] != WAITCPU]
        wait = [r for r in rows if r["reason"] == WAITCPU]
        n, t = sum(r["count"] for r in blocked), sum(r["total_ns"] for r in blocked)
        wn, wt = sum(r["count"] for r in wait), sum(r["total_ns"] for r in wait)
        check(near(n, irow["blocked_count"], COUNT_TOL) and
              near(t, irow["blocked_total_ns"], TOTAL_TOL),
              "%s: %d waits, %.3f ms charged; independent %d, %.3f ms"
              % (comm, n, t / 1e6, irow["blocked_count"], irow["blocked_total_ns"] / 1e6))
        lo_n, hi_n = irow["waitcpu_count"], irow["waitcpu_count"] + irow["waitcpu_inferred_count"]
        lo_t = irow["waitcpu_total_ns"]
        hi_t = irow["waitcpu_total_ns"] + irow["waitcpu_inferred_total_ns"]
        check(lo_n * (1 - COUNT_TOL) <= wn <= hi_n * (1 + COUNT_TOL) and
              lo_t * (1 - TOTAL_TOL) <= wt <= hi_t * (1 + TOTAL_TOL),
              "%s: %d waits for a CPU, %.3f ms; independent %d..%d, %.3f..%.3f ms"
              % (comm, wn, wt / 1e6, lo_n, hi_n, lo_t / 1e6, hi_t / 1e6))
    # the design that holds under any load: 20 ms sleeps are never charged
    srow = ind["comms"].get("lt-sleep20", {})
    check(srow.get("dropped_over_5ms", 0) >= 20,
          "lt-sleep20: its 20 sleeps of 20 ms dropped (independent: %d)"
          % srow.get("dropped_over_5ms", 0))
    if failures:
        print("%d check(s) failed" % len(failures))
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except independent.Error as e:
        print("check-independent.py: %s" % e)
        sys.exit(2)
