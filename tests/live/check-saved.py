#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""check-saved.py [--lt-workload] LIVE.json SAVED.json: a live report against
the offline analysis of the events it saved (--save), the same options
given to both.

The same events through the same decoder and replay: every table must be
identical -- the whole range's global table, every window's, every
thread's (by tid) -- and so must the counts of events and dropped waits.
Processes are not compared: live mode asks /proc whose thread a task that
predates the session is, which a file cannot say; threads stay equal.
With --lt-workload, lt-workload's processes must be there, with the waits
it makes.
"""
import json
import sys


def rows(table):
    return [(r["reason"], r.get("argument", ""), r["count"], r["total_ns"],
             r["max_ns"], r["p50_ns"], r["p90_ns"], r["p99_ns"])
            for r in table]


def threads(view):
    out = {}
    for p in view["processes"]:
        for t in p["threads"]:
            out[t["tid"]] = json.dumps(t["reasons"], sort_keys=True)
    return out


def main():
    args = sys.argv[1:]
    workload = "--lt-workload" in args
    args = [a for a in args if a != "--lt-workload"]
    live = json.load(open(args[0]))
    saved = json.load(open(args[1]))
    fails = 0

    def check(what, ok, detail=""):
        nonlocal fails
        print(("ok      " if ok else "FAILED  ") + what +
              ("" if ok else ": " + detail))
        fails += not ok

    check("events: %d" % live["trace"]["events"],
          live["trace"]["events"] == saved["trace"]["events"],
          "%d offline" % saved["trace"]["events"])
    check("dropped waits", live["dropped"] == saved["dropped"],
          "%s vs %s" % (live["dropped"], saved["dropped"]))
    check("global table: %d rows" % len(live["global"]),
          rows(live["global"]) == rows(saved["global"]),
          "%s\nvs\n%s" % (rows(live["global"]), rows(saved["global"])))
    check("windows: %d" % len(live["windows"]),
          len(live["windows"]) == len(saved["windows"]),
          "%d offline" % len(saved["windows"]))
    for i, (a, b) in enumerate(zip(live["windows"], saved["windows"])):
        check("window %d: %d rows" % (i, len(a["global"])),
              a["start_ns"] == b["start_ns"] and
              rows(a["global"]) == rows(b["global"]))
    ta, tb = threads(live), threads(saved)
    same = sum(ta[k] == tb.get(k) for k in ta)
    check("threads: %d, all the same" % len(ta),
          len(ta) == len(tb) and same == len(ta),
          "%d of %d the same (%d offline)" % (same, len(ta), len(tb)))
    if not workload:
        return 1 if fails else 0
    # lt-workload's children, by name: each made its waits while watched
    comms = {}
    for p in live["processes"]:
        comms[p["comm"]] = comms.get(p["comm"], 0) + sum(
            r["count"] for r in p["reasons"])
    for comm, least in (("lt-sleep2", 250), ("lt-piperd", 150),
                        ("lt-fsync", 40)):
        check("%s: %d waits (at least %d)" % (comm, comms.get(comm, 0), least),
              comms.get(comm, 0) >= least)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
