#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""check-waker-kinds.py - what ended each blocked wait, as the analyzer's
--format=waits says (waker_kind, waker_tid) against chain-oracle.py's
WAKER, wait by wait, on traces recorded with kernel stacks.

usage: check-waker-kinds.py --analyzer BIN [--trace-cmd P]
                            [--min-unknown N] TRACE.dat...

A wait is matched by (tid, start_ns, end_ns).  Every blocked wait both
report must have the same kind, and a task waker the same tid.  The
stacks say which wakeups a CPU ran for another (sched_ttwu_pending, from
the IPI or the idle loop): without sched_waking in the trace their waker
is unknown, not the interrupt or the idle task whose context the
sched_wakeup event has.  --min-unknown N: each trace must have at least
N such waits (the samples' remote wakeups, so that the rule is tested).

Exit 0 when all holds, 1 when not, 77 (skipped) without trace-cmd.
"""
import argparse
import csv
import importlib.util
import io
import os
import shutil
import subprocess
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "chain_oracle", os.path.join(HERE, "chain-oracle.py"))
oracle = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(oracle)


def analyzer_waits(binary, path):
    out = subprocess.run([binary, "-q", "--format=waits", path],
                         check=True, capture_output=True, text=True).stdout
    waits = {}
    for row in csv.DictReader(io.StringIO(out)):
        if row["state"] == "R" or row["dropped"]:
            continue
        key = (int(row["tid"]), int(row["start_ns"]), int(row["end_ns"]))
        waits[key] = (row["waker_kind"],
                      int(row["waker_tid"]) if row["waker_tid"] else None)
    return waits


def check(args, path):
    ok = True
    res = oracle.compute(path, args.trace_cmd)
    mine = analyzer_waits(args.analyzer, path)
    kinds = Counter()
    matched = 0
    bad = []
    for w in res["waits"]:
        if w["state"] == "cpu":
            continue
        key = (w["tid"], w["start_ns"], w["end_ns"])
        if key not in mine:
            continue
        matched += 1
        want = w["waker"]["kind"]
        kinds[want] += 1
        tid = w["waker"]["tid"] if want == "task" else None
        if mine[key] != (want, tid):
            bad.append((key, (want, tid), mine[key]))
    name = os.path.basename(path)
    print("%s: %d blocked waits matched, kinds %s" %
          (name, matched, dict(sorted(kinds.items()))))
    if matched < 100:
        print("FAIL %s: only %d waits matched" % (name, matched))
        ok = False
    for key, want, got in bad[:10]:
        print("FAIL %s: wait of %d [%d, %d]: oracle %s, analyzer %s" %
              (name, key[0], key[1], key[2], want, got))
    if bad:
        print("FAIL %s: %d of %d wakers differ" % (name, len(bad), matched))
        ok = False
    unknown = kinds["unknown"]
    if unknown < args.min_unknown:
        print("FAIL %s: %d waits woken from another CPU's queue, want >= %d"
              % (name, unknown, args.min_unknown))
        ok = False
    return ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--analyzer", required=True)
    ap.add_argument("--trace-cmd", default="trace-cmd")
    ap.add_argument("--min-unknown", type=int, default=0)
    ap.add_argument("traces", nargs="+")
    args = ap.parse_args()
    if not shutil.which(args.trace_cmd):
        print("SKIP: %s not found" % args.trace_cmd)
        return 77
    ok = True
    for path in args.traces:
        ok = check(args, path) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
