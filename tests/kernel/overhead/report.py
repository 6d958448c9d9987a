#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The overhead table from the consoles of run-overhead.sh's two sessions.

usage: report.py [--series S] [--command TEXT] [--icount] [--cpu W,...]
                 UNPATCHED.log PATCHED.log

Reads the "LTB run <workload> <mode> <rep> <ops> <ns> <cpu_ns>" and "LTB events
<workload> <rep> <ops> <events>" lines lt-overhead printed and writes, in
Markdown:

- per workload and mode, the median time per operation of each kernel
  (elapsed, or for the workloads of --cpu the CPU time of the process),
  with its run-to-run noise: the median absolute deviation of the
  repetitions, relative to their median;
- the ratios patched/unpatched with the events off, with sched_switch
  alone on, and with the latencytop events on (against the unpatched
  kernel with nothing on: what turning the reasons on costs in all);
  the noise of a ratio is that of its two medians combined
  (sqrt(a^2 + b^2)), and a ratio is "within noise" when it is within
  twice that of 1;
- events per operation with the latencytop events on (the ring buffer's
  entries + overrun, so counted by the kernel) and the cost of one
  annotation, a set/restore pair, with them on: (patched on - patched off)
  / (events per operation / 2), both from the patched session; and with
  them off: (patched off - unpatched off) / (events per operation / 2),
  across the two sessions.
"""

import argparse
import collections
import math
import re
import statistics
import sys

UNITS = {
    "fsync": "4 KiB write + fsync",
    "pipe": "pipe round trip",
    "fault": "page fault",
    "futex": "futex round trip",
    "perf": "perf bench sched pipe op",
}
ORDER = ["fsync", "pipe", "fault", "futex", "perf"]


def parse(path, cpu):
    runs = collections.defaultdict(list)     # (workload, mode) -> [ns/op]
    events = collections.defaultdict(list)   # workload -> [events/op]
    kernel, skipped = None, []
    with open(path, errors="replace") as f:
        for line in f:
            line = line.strip()
            m = re.match(r"LTB run (\S+) (\S+) (\d+) (\d+) (\d+) (\d+)$", line)
            if m:
                ns = int(m.group(6 if m.group(1) in cpu else 5))
                runs[(m.group(1), m.group(2))].append(ns / int(m.group(4)))
                continue
            m = re.match(r"LTB events (\S+) (\d+) (\d+) (\d+)$", line)
            if m:
                events[m.group(1)].append(int(m.group(4)) / int(m.group(3)))
                continue
            m = re.match(r"LTB kernel (\S+)", line)
            if m:
                kernel = m.group(1)
            m = re.match(r"LTB skip (\S+)", line)
            if m:
                skipped.append(m.group(1))
    if not runs:
        sys.exit("%s: no LTB run lines" % path)
    return runs, events, kernel, skipped


def med(xs):
    return statistics.median(xs)


def noise(xs):
    """Median absolute deviation relative to the median."""
    m = med(xs)
    return med([abs(x - m) for x in xs]) / m if m else float("nan")


def fmt_ns(ns, icount=False):
    if icount:          # 1 ns of -icount shift=0 time per instruction
        return "{:,.0f} insns".format(ns)
    if ns >= 100_000:
        return "%.1f us" % (ns / 1000)
    if ns >= 10_000:
        return "%.2f us" % (ns / 1000)
    return "%.0f ns" % ns


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--series", default="?")
    ap.add_argument("--command", default="run-overhead.sh")
    ap.add_argument("--icount", action="store_true",
                    help="the times are qemu -icount shift=0 instruction counts")
    ap.add_argument("--cpu", default="",
                    help="workloads measured by the process's CPU time")
    ap.add_argument("unpatched")
    ap.add_argument("patched")
    a = ap.parse_args()

    cpu = set(a.cpu.split(",")) - {""}
    u, _, ukernel, _ = parse(a.unpatched, cpu)
    p, pev, pkernel, pskipped = parse(a.patched, cpu)
    if "lt" in pskipped:
        sys.exit("the patched kernel has no latencytop events")
    reps = min(len(v) for v in list(u.values()) + list(p.values()))
    works = [w for w in ORDER if (w, "off") in u and (w, "off") in p]

    out = []
    out.append("Series %s: unpatched `%s` and patched `%s`, same config; "
               "`%s`; medians of %d runs per cell, noise = median absolute "
               "deviation / median.%s" % (a.series, ukernel, pkernel, a.command,
                                          reps,
                                          " Times are qemu -icount shift=0 "
                                          "virtual time: 1 ns per emulated "
                                          "instruction." if a.icount else
                                          " Times are TCG emulation times."))
    out.append("")
    out.append("| workload (per op) | unpatched off | patched off | "
               "off: patched/unpatched | sched_switch on: p/u | "
               "latencytop on: p/u off | latencytop events/op | "
               "%s per annotation: off, on |" % ("insns" if a.icount else "ns"))
    out.append("|---|---|---|---|---|---|---|---|")
    ratios = []
    within_all = True
    for w in works:
        uo, po = u[(w, "off")], p[(w, "off")]
        r_off = med(po) / med(uo)
        n_off = math.hypot(noise(po), noise(uo))
        within = abs(r_off - 1) <= 2 * n_off
        within_all &= within
        ratios.append(r_off)
        cells = ["%s (%s%s)" % (w, UNITS.get(w, w),
                                ", CPU time" if w in cpu else ""),
                 "%s ±%.1f%%" % (fmt_ns(med(uo), a.icount), 100 * noise(uo)),
                 "%s ±%.1f%%" % (fmt_ns(med(po), a.icount), 100 * noise(po)),
                 "**%.3f** ±%.3f%s" % (r_off, n_off,
                                       "" if within else " (beyond noise)")]
        if (w, "sched") in u and (w, "sched") in p:
            us, ps = u[(w, "sched")], p[(w, "sched")]
            cells.append("%.3f ±%.3f" % (med(ps) / med(us),
                                         math.hypot(noise(ps), noise(us))))
        else:
            cells.append("-")
        if (w, "lt") in p:
            pl = p[(w, "lt")]
            cells.append("%.3f ±%.3f" % (med(pl) / med(uo),
                                         math.hypot(noise(pl), noise(uo))))
            evs = med(pev[w]) if pev.get(w) else 0
            cells.append("%.1f" % evs)
            pairs = evs / 2
            cells.append("%.1f, %.0f" % ((med(po) - med(uo)) / pairs,
                                         (med(pl) - med(po)) / pairs)
                         if pairs > 0 else "-")
        else:
            cells += ["-", "-", "-"]
        out.append("| " + " | ".join(cells) + " |")
    out.append("")

    out.append("For scale, within one session: sched_switch alone on / off "
               "(unpatched), latencytop on / off (patched):")
    out.append("")
    out.append("| workload | unpatched: sched_switch on / off | "
               "patched: latencytop on / off | patched: sched_switch on / off |")
    out.append("|---|---|---|---|")
    for w in works:
        row = [w]
        for runs, mode in ((u, "sched"), (p, "lt"), (p, "sched")):
            if (w, mode) in runs:
                row.append("%.3f" % (med(runs[(w, mode)]) / med(runs[(w, "off")])))
            else:
                row.append("-")
        out.append("| " + " | ".join(row) + " |")
    out.append("")
    out.append("Events off: patched/unpatched %.3f to %.3f; %s within twice "
               "the run-to-run noise." % (min(ratios), max(ratios),
                                          "all" if within_all else "NOT all"))
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
