#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""check-perf-report.py - latency-analyze on a perf.data, held to perf script.

usage: check-perf-report.py LATENCY_ANALYZE PERF.data...

For each file, `perf script` prints its sched_switch and sched_wakeup
samples; tests/golden/independent.py, which reads trace-cmd report text
and none of the analyzer's code, counts the waits they show (BRIEF rules
1, 3 and 6) from those lines put in trace-cmd's shape.  latency-analyze's
JSON report of the same file must agree, per process name with 5 waits or
more: charged waits within 3% and their total within 5%, user-requested
waits (interruptible, over 5 ms) the same, waits for a CPU within 3%/5%
of the independent count (inferred ones allowed, as check.py does).

Files that lost events are left out (independent.py does not drop the
waits across a gap, the analyzer does: they differ by design), as are
files without sched_switch samples.  Exit 77 (skipped) without perf.
"""
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "golden"))
import independent  # noqa: E402

LINE = re.compile(r"^\s*(?P<comm>.*?)\s+(?P<tid>-?\d+)\s+\[(?P<cpu>\d+)\]\s+"
                  r"(?P<ts>\d+\.\d+):\s+(?P<sys>\w+):(?P<event>\w+):\s*(?P<rest>.*)$")
COUNT_TOL, TOTAL_TOL = 0.03, 0.05
MIN_WAITS = 5


def independent_counts(path):
    out = subprocess.run(["perf", "script", "-i", path, "-F",
                          "comm,tid,cpu,time,event,trace", "--ns"],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         universal_newlines=True, check=True).stdout
    c = independent.Counter()
    lines = [m for m in map(LINE.match, out.split("\n")) if m and m["sys"] == "sched"]
    # perf sched record takes sched_waking, not sched_wakeup: the wakeup's
    # time then, as the analyzer takes it (independent.py reads only wakeups)
    wakeup = "sched_wakeup" if any(m["event"] == "sched_wakeup" for m in lines) \
        else "sched_waking"
    for m in lines:
        event = "sched_wakeup" if m["event"] == wakeup else m["event"]
        if event == "sched_waking":
            continue
        # trace-cmd report's shape: comm-pid [cpu] ts: event: fields
        c.feed("%s-%s [%03d] %s: %s: %s" % (m["comm"], m["tid"], int(m["cpu"]),
                                            m["ts"], event, m["rest"]))
    if not c.events["sched_switch"]:
        return None
    c.finish()
    return c


def near(got, want, tol):
    return abs(got - want) <= tol * want


def check(la, path):
    c = independent_counts(path)
    if c is None:
        print("ok   %s: no sched_switch samples, nothing to compare" % path)
        return True
    p = subprocess.run([la, "-q", "--format=json", path], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True)
    if p.returncode:
        print("FAIL %s: latency-analyze exit %d: %s" % (path, p.returncode, p.stderr))
        return False
    rep = json.loads(p.stdout)
    if rep["trace"]["lost_events"] or rep["trace"]["lost_gaps_unknown"]:
        print("ok   %s: lost events, left out (the analyzer drops waits across gaps)"
              % path)
        return True
    # each task's waits under its last name, as the report names its
    # process: a wait before an exec (a task's first, from its wakeup)
    # would otherwise count under the name it had then
    by_comm = {}
    for pid, row in c.tasks.items():
        acc = by_comm.setdefault(c.last_comm.get(pid, ''),
                                 dict.fromkeys(independent.ROW_KEYS, 0))
        for k in independent.ROW_KEYS:
            acc[k] = max(acc[k], row[k]) if k.startswith('max_') else acc[k] + row[k]
    ok, n = True, 0
    for comm, row in sorted(by_comm.items()):
        if row["blocked_count"] + row["dropped_over_5ms"] < MIN_WAITS:
            continue
        procs = [x for x in rep["processes"] if x["comm"] == comm]
        rows = [r for x in procs for r in x["reasons"]]
        blocked = [r for r in rows if r["kind"] != "scheduler"]
        cpu = [r for r in rows if r["kind"] == "scheduler"]
        count = sum(r["count"] for r in blocked)
        total = sum(r["total_ns"] for r in blocked)
        ucount = sum(x.get("user_requested", {}).get("count", 0) for x in procs)
        wc = sum(r["count"] for r in cpu)
        checks = [
            ("charged waits", near(count, row["blocked_count"], COUNT_TOL),
             count, row["blocked_count"]),
            ("charged total_ns", near(total, row["blocked_total_ns"], TOTAL_TOL),
             total, row["blocked_total_ns"]),
            ("user-requested waits", ucount == row["dropped_over_5ms"] or
             all(x["kernel_thread"] for x in procs), ucount, row["dropped_over_5ms"]),
            ("waits for a CPU", row["waitcpu_count"] * (1 - COUNT_TOL) <= wc <=
             (row["waitcpu_count"] + row["waitcpu_inferred_count"]) * (1 + COUNT_TOL),
             wc, row["waitcpu_count"]),
        ]
        for what, good, got, want in checks:
            n += 1
            if not good:
                ok = False
                print("FAIL %s: %s: %s: got %s, independent %s"
                      % (path, comm, what, got, want))
    if ok:
        print("ok   %s: %d checks against perf script" % (path, n))
    return ok


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    if not shutil.which("perf"):
        print("SKIPPED: perf is not installed")
        return 77
    ok = True
    for path in sys.argv[2:]:
        ok &= check(sys.argv[1], path)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
