#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""check-counts.py DUMP COUNTS DIR - our reader against perf's own counts.

COUNTS (tests/data/perf/counts.txt, made by make-counts.sh from `perf
report -D` and `perf script`) says, for each perf.data in DIR, how many
records of each type it holds, how many samples of each event, and how
many events were lost (in all and per CPU).  DUMP is lt-perf-dump: its
`--all --stats` output is counted the same way and must agree.  A file
in pipe mode is read twice: mapped, and as a stream on standard input.
Exit status 0 when everything agrees.
"""
import collections
import subprocess
import sys

# records our reader hands out, by what lt-perf-dump prints for them
KINDS = {"COMM": "COMM", "FORK": "FORK", "EXIT": "EXIT", "MMAP": "MMAP",
         "MMAP2": "MMAP2", "LOST": "LOST", "LOST_SAMPLES": "LOST_SAMPLES",
         "CGROUP": "CGROUP"}


def load(path):
    files = collections.OrderedDict()
    cur = None
    for line in open(path):
        w = line.split()
        if not w:
            continue
        if w[0] == "file":
            cur = files.setdefault(w[1], {"record": {}, "sample": {},
                                          "lost_cpu": {}})
        elif w[0] in ("record", "sample", "lost_cpu"):
            cur[w[0]][w[1]] = int(w[2])
        else:
            cur[w[0]] = int(w[1])
    return files


def ours(dump, path, stdin):
    args = [dump, "--all", "--stats", "--info", "-" if stdin else path]
    with open(path, "rb") as f:
        out = subprocess.run(args, stdin=f if stdin else None,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             check=False)
    if out.returncode:
        raise RuntimeError("%s: exit %d: %s" % (
            " ".join(args), out.returncode, out.stderr.decode().strip()))
    rec = collections.Counter()
    samples = collections.Counter()
    lost_cpu = collections.Counter()
    stats = {}
    pipe = False
    for line in out.stdout.decode().splitlines():
        w = line.split()
        if line.startswith("# records "):
            stats = dict(zip(w[1::2], (int(x) for x in w[2::2])))
            continue
        if line.startswith("# pipe mode"):
            pipe = True
        if line.startswith("#"):
            continue
        if w[3] in KINDS:
            rec[KINDS[w[3]]] += 1
            if w[3] == "LOST":
                lost_cpu[w[1]] += int(w[4])
        else:
            rec["SAMPLE"] += 1
            samples[w[3]] += 1
    return rec, samples, lost_cpu, stats, pipe


def check(name, want, got):
    rec, samples, lost_cpu, stats, _ = got
    bad = []

    def same(what, a, b):
        if a != b:
            bad.append("%s: %s: perf %s, ours %s" % (name, what, a, b))

    for kind in list(KINDS.values()) + ["SAMPLE"]:
        same("%s records" % kind, want["record"].get(kind, 0), rec[kind])
    same("FINISHED_ROUND records", want["record"].get("FINISHED_ROUND", 0),
         stats.get("rounds"))
    same("records in all", sum(want["record"].values()), stats.get("records"))
    for ev in set(want["sample"]) | set(samples):
        same("samples of %s" % ev, want["sample"].get(ev, 0), samples[ev])
    same("lost events", want["lost"], stats.get("lost_events"))
    same("lost samples", want["lost_samples"], stats.get("lost_samples"))
    for cpu in set(want["lost_cpu"]) | set(lost_cpu):
        same("events lost on CPU %s" % cpu, want["lost_cpu"].get(cpu, 0),
             lost_cpu[cpu])
    for k in ("unordered", "damaged", "unknown"):
        same(k, 0, stats.get(k))
    return bad


def main():
    dump, counts, data = sys.argv[1:4]
    bad = []
    n = 0
    for name, want in load(counts).items():
        path = "%s/%s" % (data, name)
        got = ours(dump, path, False)
        bad += check(name, want, got)
        n += 1
        if got[4]:
            bad += check(name + " (on stdin)", want, ours(dump, path, True))
            n += 1
    for b in bad:
        print(b)
    print("check-counts: %d readings, %d disagreements" % (n, len(bad)))
    return 1 if bad else 0


sys.exit(main())
