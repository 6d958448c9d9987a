#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""perf-events.py - every record of a perf.data, as "<ns> <what> <pid>/<tid>"
lines, from perf's text or from ours, so the two orders can be diffed.

    perf script -f -i FILE --ns --show-task-events --show-mmap-events \\
        --show-lost-events -F pid,tid,time,event | perf-events.py perf
    lt-perf-dump --all FILE | perf-events.py lt

<what> is a sample's event name, or COMM (COMM-exec), FORK, EXIT, MMAP,
MMAP2, LOST; pid/tid are the sample's task, or the task the record is
about (the new one of a FORK, the one that was named, mapped, ...).
"""
import re
import sys

SIDE = {"FORK", "EXIT", "MMAP", "MMAP2", "COMM", "LOST", "LOST_SAMPLES"}


def perf_line(line):
    m = re.match(r"\s*(-?\d+)/(-?\d+)\s+(\d+)\.(\d{9}):\s*(.*)$", line)
    if not m:
        return None
    pid, tid, sec, frac, rest = m.groups()
    ns = int(sec) * 1000000000 + int(frac)
    m = re.match(r"PERF_RECORD_COMM( exec)?: (.*):(-?\d+)/(-?\d+)$", rest)
    if m:
        what = "COMM-exec" if m.group(1) else "COMM"
        return "%d %s %s/%s" % (ns, what, m.group(3), m.group(4))
    m = re.match(r"PERF_RECORD_(FORK|EXIT)\((-?\d+):(-?\d+)\)", rest)
    if m:
        return "%d %s %s/%s" % (ns, m.group(1), m.group(2), m.group(3))
    m = re.match(r"PERF_RECORD_(MMAP2?) (-?\d+)/(-?\d+):", rest)
    if m:
        return "%d %s %s/%s" % (ns, m.group(1), m.group(2), m.group(3))
    m = re.match(r"PERF_RECORD_(LOST(?:_SAMPLES)?)", rest)
    if m:
        return "%d %s %s/%s" % (ns, m.group(1), pid, tid)
    if rest.startswith("PERF_RECORD_"):
        return None
    name = rest.split()[0].rstrip(":")
    return "%d %s %s/%s" % (ns, name, pid, tid)


def lt_line(line):
    w = line.split()
    if len(w) < 4 or w[0].startswith("#"):
        return None
    what = w[3]
    # perf script shows no LOST_SAMPLES (perf record writes them last),
    # and CGROUP records only when asked (the ctest perf/counts has them)
    if what in ("LOST_SAMPLES", "CGROUP"):
        return None
    if what == "COMM" and w[-1] == "exec":
        what = "COMM-exec"
    return "%s %s %s" % (w[0], what, w[2])


def main():
    parse = perf_line if sys.argv[1:] == ["perf"] else lt_line
    for line in sys.stdin:
        out = parse(line.rstrip("\n"))
        if out:
            print(out)


main()
