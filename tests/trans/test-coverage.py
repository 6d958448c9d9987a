#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""test-coverage.py - no kernel function left untranslated.

usage: test-coverage.py LATENCY_ANALYZE TRACE...

Each trace (trace.dat or perf.data) is analysed with its kernel threads
in the global table (-k, so that the table holds every task's causes)
and the built-in translation table only.  Where the trace recorded
kernel stacks (ftrace:kernel_stack, perf's call chains), a wait without
a latencytop reason is named by its stack through plugins/latencytop.trans;
a row that the table could not name shows as the bare blocking function,
"[affine_move_task]", or as "[0xffffffff81234567]" where no symbol was
found: any such row in a global table fails the test.  A perf.data file
is read with the `kallsyms` beside it, the recording machine's symbols.

It prints, per trace, whether it has stacks and what was left bare (and
"Unknown reason" rows, waits whose stack the trace lacks: a note, not a
failure), then every bare function over all the traces.  A trace
without scheduler events (exit status 4) has nothing to check; any other
failure to analyse one fails.  Last, the detector is shown to detect:
without the built-in table (--no-default-trans), the traces where it
named a row must have bare rows.
"""
import json
import os
import subprocess
import sys
import tempfile

STACK_SOURCES = ("ftrace:kernel_stack", "perf:callchain")
NO_SCHED_EVENTS = 4


def kallsyms_of(trace):
    """The kallsyms beside a perf.data that names its kernel frames: one
    made for it (kallsyms-cgroups for sched-cgroups-a-g.data, recorded on
    a later kernel build) before the folder's shared one."""
    folder = os.path.dirname(trace)
    words = os.path.basename(trace).split(".")[0].split("-")
    for name in ["kallsyms-" + w for w in words] + ["kallsyms"]:
        path = os.path.join(folder, name)
        if os.path.exists(path):
            return path
    return None


def analyse(la, trace, env, extra=()):
    args = [la, "-q", "-k", "--format=json"] + list(extra)
    if trace.endswith(".data"):
        kallsyms = kallsyms_of(trace)
        if kallsyms:
            args += ["--kallsyms", kallsyms]
    r = subprocess.run(args + [trace], capture_output=True, text=True, env=env)
    if r.returncode != 0:
        return r.returncode, r.stderr.strip().splitlines()[-1:] or [""]
    return 0, json.loads(r.stdout)


def has_stacks(rep):
    return any(s["event"] in STACK_SOURCES and s["count"]
               for s in rep["trace"]["sources"])


def rows_of(rep, kind):
    return [r for r in rep["global"] if r["kind"] == kind]


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    la, traces = sys.argv[1], sys.argv[2:]
    # no site or user tables: the built-in one is measured
    env = dict(os.environ, XDG_CONFIG_HOME=tempfile.mkdtemp(prefix="lt-xdg-"),
               HOME=tempfile.mkdtemp(prefix="lt-home-"))
    failures = 0
    checked = []
    named = []		# with rows that the table named
    bare = {}
    for trace in traces:
        name = os.path.relpath(trace)
        code, rep = analyse(la, trace, env)
        if code == NO_SCHED_EVENTS:
            print("%s: no scheduler events, nothing to check" % name)
            continue
        if code:
            print("FAIL: %s: latency-analyze exit %d: %s" % (name, code, rep[0]))
            failures += 1
            continue
        if not has_stacks(rep):
            unknown = sum(r["count"] for r in rows_of(rep, "unknown"))
            print("%s: no kernel stacks (%d waits with no cause to find)"
                  % (name, unknown))
            continue
        checked.append(trace)
        if rows_of(rep, "translated"):
            named.append(trace)
        funcs = rows_of(rep, "function")
        unknown = rows_of(rep, "unknown")
        translated = sum(r["count"] for r in rows_of(rep, "translated"))
        print("%s: stacks; %d waits translated, %d bare, %d without a stack"
              % (name, translated, sum(r["count"] for r in funcs),
                 sum(r["count"] for r in unknown)))
        for r in funcs:
            print("FAIL: %s: bare row %s: %d waits, %.1f us"
                  % (name, r["reason"], r["count"], r["total_ns"] / 1e3))
            bare.setdefault(r["reason"], []).append(os.path.basename(trace))
            failures += 1
    print("bare functions over %d traces with stacks: %s"
          % (len(checked), ", ".join("%s (%s)" % (f, ", ".join(t))
                                     for f, t in sorted(bare.items())) or "none"))
    if not checked:
        print("FAIL: no trace with kernel stacks was given")
        return 1
    # the check can fail: without the table, what it named is left bare
    for trace in named:
        code, rep = analyse(la, trace, env, ["--no-default-trans"])
        if code or not rows_of(rep, "function"):
            print("FAIL: %s: no bare row without the table (exit %d)"
                  % (os.path.relpath(trace), code))
            failures += 1
    if failures:
        print("%d failure(s)" % failures)
        return 1
    print("test-coverage: every global row of %d traces with stacks is "
          "translated" % len(checked))
    return 0


if __name__ == "__main__":
    sys.exit(main())
