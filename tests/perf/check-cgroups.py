#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""check-cgroups.py - the processes of a perf.data by cgroup, held to perf.

usage: check-cgroups.py LATENCY_ANALYZE DATA_DIR

sched-cgroups-a-g.data was recorded with `perf record --all-cgroups` while
two shells ran in cgroups made for them (tests/data/perf/README.md): the
`dd`, its `sleep` and `rm` (and their `sh`) in /lt-perf-a, the `ls -R` and
its `sleep` (and their `sh`) in /lt-perf-b, the rest of the machine in /.
latency-analyze's report of it must:

- name each process's cgroup as the README says (the commands of the two
  cgroups, exactly), and, when perf is installed, as `perf report --sort
  cgroup,pid` does for every task it shows (which reads the samples'
  cgroup ids and the CGROUP records with perf's code, none of ours);
- carry that cgroup in every row of the waits export, and add up there:
  per cgroup, the charged waits' count and sum are those of the JSON
  report's processes in that cgroup, and are the count and total that
  `--by cgroup` prints for the cgroup's table;
- when perf is installed, have in each cgroup the blocked waits that
  tests/golden/independent.py counts from `perf script`'s lines for the
  tasks `perf report` puts in it (within check-perf-report.py's 3% of the
  count and 5% of the total);
- say in the header of a perf.data recorded without --all-cgroups
  (sched-a-g.data) that it has no cgroups, with no process given one.
"""
import collections
import csv
import importlib.util
import io
import json
import os
import re
import shutil
import subprocess
import sys

SAMPLE = "sched-cgroups-a-g.data"
PLAIN = "sched-a-g.data"
# tests/data/perf/README.md: what record.sh ran in each cgroup
EXPECTED = {"/lt-perf-a": {"dd", "rm", "sh", "sleep"},
            "/lt-perf-b": {"ls", "sh", "sleep"}}

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL: " + what)


def run(cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, check=True).stdout


def perf_cgroups(path):
    """pid -> the set of cgroups `perf report --sort cgroup,pid` puts it in"""
    out = run(["perf", "report", "-i", path, "--sort", "cgroup,pid",
               "--stdio", "-q", "-g", "none"])
    seen = collections.defaultdict(set)
    for line in out.split("\n"):
        m = re.match(r"\s*[\d.]+%\s+(?:[\d.]+%\s+)?(\S+)\s+(\d+):", line)
        if m:
            seen[int(m.group(2))].add(m.group(1))
    return seen


def independent_totals(path, truth, waits):
    """per cgroup, blocked waits: independent.py's count against ours"""
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location(
        "check_perf_report", os.path.join(here, "check-perf-report.py"))
    cpr = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(cpr)
    c = cpr.independent_counts(path)
    want = collections.defaultdict(lambda: [0, 0])
    for tid, row in c.tasks.items():
        # the two shells that moved themselves (record.sh) show in / and
        # in their cgroup: tasks only ever moved out of /, never back
        cgs = truth.get(int(tid), set()) - {"/"} or truth.get(int(tid), set())
        if len(cgs) == 1:
            cg = next(iter(cgs))
            want[cg][0] += row["blocked_count"]
            want[cg][1] += row["blocked_total_ns"]
    got = collections.defaultdict(lambda: [0, 0])
    for w in waits:
        if not w["dropped"] and w["kind"] != "scheduler":
            got[w["cgroup"]][0] += 1
            got[w["cgroup"]][1] += int(w["dur_ns"])
    for cg in sorted(EXPECTED):
        check(want[cg][0] > 0, "%s: no blocked waits to compare" % cg)
        check(cpr.near(got[cg][0], want[cg][0], cpr.COUNT_TOL) and
              cpr.near(got[cg][1], want[cg][1], cpr.TOTAL_TOL),
              "%s: blocked waits %s, independent %s" % (cg, got[cg], want[cg]))
        print("%s: blocked %d waits %.6f s, independent %d waits %.6f s" % (
            cg, got[cg][0], got[cg][1] / 1e9, want[cg][0], want[cg][1] / 1e9))


def main():
    analyze, data = sys.argv[1:3]
    path = os.path.join(data, SAMPLE)
    base = [analyze, "-q", "--kallsyms", os.path.join(data, "kallsyms-cgroups")]

    rep = json.loads(run(base + ["--format=json", path]))
    procs = rep["processes"]
    check(rep["trace"]["cgroup_events"] > 0, "cgroup_events is 0")
    # every task the trace shows waiting, by the waits export (a process
    # whose waits were all dropped has no section in the report)
    waits = list(csv.DictReader(io.StringIO(run(base + ["--format=waits", path]))))
    check(waits and "cgroup" in waits[0], "the waits export has no cgroup column")
    by_cg = collections.defaultdict(set)
    for w in waits:
        by_cg[w["cgroup"]].add(w["comm"])
    for cg, comms in sorted(EXPECTED.items()):
        check(by_cg.get(cg) == comms, "%s holds %s, expected %s" % (
            cg, sorted(by_cg.get(cg, ())), sorted(comms)))
    others = set(by_cg) - set(EXPECTED) - {"/"}
    check(not others, "cgroups no task of the trace was in: %s" % others)
    for p in procs:
        check(p["cgroup"] in EXPECTED and p["comm"] in EXPECTED[p["cgroup"]] or
              p["cgroup"] == "/", "process %d %s in %s" % (
                  p["pid"], p["comm"], p["cgroup"]))
    print("cgroups: %s" % ", ".join("%s %d processes" % (cg, sum(
        1 for p in procs if p["cgroup"] == cg)) for cg in sorted(by_cg, key=str)))

    if shutil.which("perf"):
        truth = perf_cgroups(path)
        ours = {int(w["tid"]): w["cgroup"] for w in waits}
        agree = 0
        for pid, cgs in sorted(truth.items()):
            if pid not in ours or pid == 0:
                continue
            check(ours[pid] in cgs, "pid %d: ours %s, perf report %s" % (
                pid, ours[pid], sorted(cgs)))
            agree += ours[pid] in cgs
        check(agree >= 7, "only %d tasks checked against perf report" % agree)
        print("perf report --sort cgroup,pid: %d tasks agree" % agree)
        independent_totals(path, truth, waits)
    else:
        print("perf not installed: the README's cgroups only")

    # the waits export: its cgroup column, added up against the report
    pid_cg = {p["pid"]: p["cgroup"] for p in procs}
    sums = collections.defaultdict(lambda: [0, 0])
    for w in waits:
        if w["dropped"]:
            continue
        if w["pid"] and int(w["pid"]) in pid_cg:
            check(w["cgroup"] == (pid_cg[int(w["pid"])] or ""),
                  "wait of tid %s in %s, its process in %s" % (
                      w["tid"], w["cgroup"], pid_cg[int(w["pid"])]))
        sums[w["cgroup"]][0] += 1
        sums[w["cgroup"]][1] += int(w["dur_ns"])
    want = collections.defaultdict(lambda: [0, 0])
    for p in procs:
        for r in p["reasons"]:
            want[p["cgroup"] or ""][0] += r["count"]
            want[p["cgroup"] or ""][1] += r["total_ns"]
    for cg in sorted(set(want) | set(EXPECTED)):
        check(sums[cg] == want[cg], "cgroup %s: waits %s, report %s" % (
            cg, sums[cg], want[cg]))
    for cg in sorted(EXPECTED):
        print("%s: %d charged waits, %.6f s (waits export = JSON)" % (
            cg, sums[cg][0], sums[cg][1] / 1e9))

    # --by cgroup: each cgroup's table adds up to its processes' rows
    text = run(base + ["--by", "cgroup", path])
    sections = re.split(r"^=== Cgroup (.*): (\d+) process(?:es)?, .* ===$",
                        text, flags=re.M)
    seen = {}
    for i in range(1, len(sections), 3):
        cg, n, body = sections[i], int(sections[i + 1]), sections[i + 2]
        table = body.split("\nProcess ")[0]
        count = 0
        for line in table.split("\n")[1:]:
            m = re.match(r"^.*?\s{2,}\S+ \S+\s{2,}\S+ \S+\s{2,}(\d+)\s{2,}", line)
            if m:
                count += int(m.group(1))
        seen[cg] = (n, count)
    for cg in EXPECTED:
        n = sum(1 for p in procs if p["cgroup"] == cg)
        check(seen.get(cg) == (n, want[cg][0]),
              "--by cgroup: %s shows %s, expected %d processes, %d waits" % (
                  cg, seen.get(cg), n, want[cg][0]))
    check("Cgroups:  " in text and "none in this trace" not in text,
          "the header of a trace with cgroups")

    # a perf.data without --all-cgroups says so
    plain = os.path.join(data, PLAIN)
    head = run([analyze, "-q", "--kallsyms", os.path.join(data, "kallsyms"),
                "-n", "1", "--max-processes", "1", plain])
    check("Cgroups:  none in this trace" in head,
          "no cgroups, and the header does not say so")
    rep = json.loads(run([analyze, "-q", "--format=json", plain]))
    check(rep["trace"]["cgroup_events"] == 0 and
          all(p["cgroup"] is None for p in rep["processes"]),
          "cgroups in a trace recorded without them")

    if failures:
        print("%d failure(s)" % len(failures))
        return 1
    print("ok")
    return 0


sys.exit(main())
