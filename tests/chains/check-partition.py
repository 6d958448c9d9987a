#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""check-partition.py - the analyzer's waited_for trees partition their
rows (issue 48), read from its JSON alone.

usage: check-partition.py LATENCY_ANALYZE FILE|DIR...

For every trace (a directory: its *.dat and *.data; a perf.data with
DIR/kallsyms when its directory has one), analysed twice (the defaults,
and every wait charged with -k, in 30 s windows), in every view (the
whole range and each window) and every table (global, processes,
threads): each row's waited_for adds up to its total_ns; each node's
waited_for adds up to the node; an "other" node's rest adds up to it and
it shows at most 8 nodes a level; a "Scheduler: waiting for cpu" row's
ran_instead adds up to its total_ns, and no other row has one; no node
has 0 ns or is nested deeper than 9 levels.  The same holds for the
merge of the report with itself (all counts doubled).  Per file: rows,
nodes, the deepest level, and the share of blocked time whose leaves are
unknown or lost.
"""
import json
import os
import subprocess
import sys

SCHED = "Scheduler: waiting for cpu"
SHOWN = 8
FAILS = []


def fail(msg):
    FAILS.append(msg)
    print("FAIL " + msg)


class Stats:
    def __init__(self):
        self.rows = self.nodes = self.deepest = 0
        self.leaf = {}


def check_level(nodes, total, where, depth, st, rest=False):
    """The nodes of one level (or an "other"'s rest): they add up to total."""
    if not rest and len(nodes) > SHOWN + 1:
        fail("%s: %d nodes at one level" % (where, len(nodes)))
    got = 0
    for i, n in enumerate(nodes):
        w = "%s[%d]" % (where, i)
        got += n["ns"]
        st.nodes += 1
        if n["ns"] <= 0:
            fail("%s: a node of %d ns" % (w, n["ns"]))
        if "rest" in n:
            if n["comm"] != "other" or i != len(nodes) - 1:
                fail("%s: rest in a node that is not the last, other" % w)
            check_level(n["rest"], n["ns"], w + ".rest", depth, st, True)
            continue
        st.deepest = max(st.deepest, depth)
        if depth > 9:
            fail("%s: level %d" % (w, depth))
        kids = n.get("waited_for")
        if kids:
            check_level(kids, n["ns"], w + ".waited_for", depth + 1, st)
        elif "what" in n:
            st.leaf[n["what"]] = st.leaf.get(n["what"], 0) + n["ns"]
    if got != total:
        fail("%s: adds up to %d, not %d" % (where, got, total))


def check_rows(rows, where, st):
    for r in rows:
        w = "%s %r" % (where, r["reason"])
        st.rows += 1
        if r["reason"] == SCHED:
            if "waited_for" in r:
                fail("%s: a wait for a CPU with waited_for" % w)
            check_level(r.get("ran_instead", []), r["total_ns"],
                        w + " ran_instead", 1, st)
        else:
            if "ran_instead" in r:
                fail("%s: ran_instead in a blocked row" % w)
            check_level(r.get("waited_for", []), r["total_ns"],
                        w + " waited_for", 1, st)


def check_view(v, where, st):
    check_rows(v["global"], where + " global", st)
    for p in v["processes"]:
        check_rows(p["reasons"], "%s pid %d" % (where, p["pid"]), st)
        for t in p["threads"]:
            check_rows(t["reasons"], "%s tid %d" % (where, t["tid"]), st)
    for c in v.get("commands", []):
        check_rows(c["reasons"], "%s command %s" % (where, c["comm"]), st)


def run(la, args):
    p = subprocess.run([la] + args, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True)
    return p


def check_file(la, path, kallsyms, tmp):
    for opts in ([], ["--sleep-cutoff=0", "--no-maxtime", "-k", "--window", "30s"]):
        args = ["-q", "--format=json"] + opts
        if kallsyms:
            args += ["--kallsyms", kallsyms]
        p = run(la, args + [path])
        if p.returncode == 4:
            print("ok   %s: no scheduler events" % path)
            return
        if p.returncode:
            fail("%s %s: exit %d: %s" % (path, opts, p.returncode, p.stderr.strip()))
            return
        rep = json.loads(p.stdout)
        st = Stats()
        n = len(FAILS)
        check_view(rep, path, st)
        for w in rep.get("windows", []):
            check_view(w, "%s window %d" % (path, w["index"]), st)
        with open(tmp, "w") as f:
            f.write(p.stdout)
        m = run(la, ["merge", "-q", tmp, tmp])
        if m.returncode:
            fail("%s: merge: exit %d: %s" % (path, m.returncode, m.stderr.strip()))
        else:
            check_view(json.loads(m.stdout), path + " merged", Stats())
        blocked = sum(st.leaf.values())
        gone = st.leaf.get("unknown", 0) + st.leaf.get("lost", 0)
        if len(FAILS) == n:
            print("ok   %s %s: %d rows, %d nodes, deepest level %d, "
                  "unknown or lost %.2f%% of the leaves' time" %
                  (os.path.basename(path), " ".join(opts) or "(defaults)",
                   st.rows, st.nodes, st.deepest,
                   100.0 * gone / blocked if blocked else 0))


def main():
    if len(sys.argv) < 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    la = sys.argv[1]
    files = []
    for a in sys.argv[2:]:
        if os.path.isdir(a):
            files += sorted(os.path.join(a, f) for f in os.listdir(a)
                            if f.endswith((".dat", ".data")))
        else:
            files.append(a)
    tmp = os.path.join(os.environ.get("TMPDIR", "/tmp"),
                       "check-partition-%d.json" % os.getpid())
    try:
        for f in files:
            ks = os.path.join(os.path.dirname(f), "kallsyms")
            check_file(la, f, ks if f.endswith(".data") and os.path.exists(ks)
                       else None, tmp)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    print("check-partition: %s" % ("%d failures" % len(FAILS) if FAILS
                                   else "every tree partitions its row"))
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
