#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""check-perf-stacks.py - a perf.data's call chains as the report's stacks.

usage: check-perf-stacks.py LATENCY_ANALYZE PERF.data COMM [KALLSYMS]

A sched_switch sample's call chain is the stack of the task it switches
out.  For every process named COMM, the stacks latency-analyze reports
(kernel frames from __schedule on, then the task's own) must be stacks
perf script shows for COMM's switch-outs, named as perf names them, and
every one of the report's stacks is among perf's (user functions by name
up to the aliases glibc gives them), the most common of perf's is among
them, and no more waits have a stack than perf has switch-outs.
Without call chains in the file (no -g), the report has no stacks.
KALLSYMS (the recording kernel's symbols) names kernel frames on both
sides, whatever kernel runs the test: --kallsyms to both tools.

Exit 77 (skipped) without perf.
"""
import collections
import json
import re
import shutil
import subprocess
import sys

def alias(name):
    """One name for a function's aliases: perf may name glibc's __GI___unlink
    what the symbol table also calls unlink, and versions follow an '@'."""
    return re.sub(r"^(__GI_+|_+)", "", name.split("@")[0])


HEAD = re.compile(r"^\s*(?P<comm>.*?)\s+(?P<tid>\d+)\s+(?P<sys>\w+):(?P<ev>\w+):\s*(?P<rest>.*)$")
FRAME = re.compile(r"^\s+[0-9a-f]+\s+(?P<sym>.*?)\s+\((?P<dso>.*)\)$")


def perf_stacks(path, comm, kallsyms):
    """perf script's call chains of COMM's blocking switch-outs, each as
    (kernel frames from __schedule, user frames), by how often."""
    extra = ["--kallsyms=" + kallsyms] if kallsyms else []
    out = subprocess.run(["perf", "script", "-i", path, "-F",
                          "comm,tid,event,trace,ip,sym,dso"] + extra,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         universal_newlines=True, check=True).stdout
    stacks = collections.Counter()
    cur = None
    for line in out.split("\n") + [""]:
        m = HEAD.match(line)
        if m:
            cur = None
            state = re.search(r"prev_state=(\S+)", m["rest"])
            if (m["ev"] == "sched_switch" and m["comm"] == comm and state and
                    state.group(1)[0] in "SD"):
                cur = ([], [])
            continue
        f = FRAME.match(line)
        if f and cur is not None:
            kernel = f["dso"] == "[kernel.kallsyms]"
            if kernel and cur[1]:
                continue	# a kernel frame below user ones: none here
            (cur[0] if kernel else cur[1]).append(f["sym"])
            continue
        if cur is not None and not line.strip():
            k = cur[0]
            if "__schedule" in k:
                k = k[k.index("__schedule"):]
            stacks[(tuple(k), tuple(map(alias, cur[1])))] += 1
            cur = None
    return stacks


def main():
    if len(sys.argv) not in (4, 5):
        print(__doc__)
        return 2
    if not shutil.which("perf"):
        print("SKIPPED: perf is not installed")
        return 77
    la, path, comm = sys.argv[1:4]
    kallsyms = sys.argv[4] if len(sys.argv) == 5 else None
    want = perf_stacks(path, comm, kallsyms)
    extra = ["--kallsyms=" + kallsyms] if kallsyms else []
    rep = json.loads(subprocess.run([la, "-q", "--format=json", "--sleep-cutoff=0"]
                                    + extra + [path], stdout=subprocess.PIPE,
                                    check=True, universal_newlines=True).stdout)
    got = collections.Counter()
    for p in rep["processes"]:
        if p["comm"] != comm:
            continue
        for r in p["reasons"]:
            for st in r.get("stacks", []):
                if st["frames"] or st.get("user_frames"):
                    got[(tuple(st["frames"]),
                         tuple(map(alias, st.get("user_frames", []))))] += st["count"]
    fails = []
    if not want:
        if got:
            fails.append("the file has no call chains of %s, the report has %d stacks"
                         % (comm, len(got)))
    else:
        for k in got:
            if k not in want:
                fails.append("a stack perf never shows: %s / %s" % (k[0], k[1]))
        top = want.most_common(1)[0][0]
        if top not in got:
            fails.append("perf's most common stack of %s is not in the report: %s / %s"
                         % (comm, top[0], top[1]))
        if sum(got.values()) > sum(want.values()):
            fails.append("more waits with a stack (%d) than switch-outs (%d)"
                         % (sum(got.values()), sum(want.values())))
    for f in fails:
        print("FAIL %s: %s" % (path, f))
    if not fails:
        print("ok   %s: %s: %d stacks, %d waits with one (perf: %d switch-outs, "
              "%d stacks)" % (path, comm, len(got), sum(got.values()),
                               sum(want.values()), len(want)))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
