#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""latency-analyze --pid, --tid, --comm and --max-processes, as a user
focusing on a few tasks meets them.

Every filtered number is checked against the unfiltered report of the
same trace: a process chosen by --pid has exactly its unfiltered section,
a thread chosen by --tid its unfiltered thread rows, and the global table
(now "of the selected tasks") is the merge of the chosen tasks' rows,
summed here from the unfiltered JSON.  Then the text: the header says
which tasks, --max-processes cuts the sections and says how many more,
and bad values are one line with exit status 1.

usage: test-filters.py LATENCY_ANALYZE SAMPLES_DIR REAL_DIR
"""
import fnmatch
import json
import os
import re
import subprocess
import sys

LA, SAMPLES, REAL = sys.argv[1:4]
GOLDEN = os.path.join(SAMPLES, "local-golden-stacks.dat")	# two bash, kernel threads
MODULE = os.path.join(SAMPLES, "kernel-module-6.1.dat")		# lt-futex: 5 threads
DESKTOP = os.path.join(REAL, "desktop-4cpu-sched_switch.dat")
failures = 0


def check(cond, what, detail=""):
    global failures
    if not cond:
        failures += 1
        print("FAIL: " + what)
        if detail:
            print("  " + str(detail)[:2000].replace("\n", "\n  "))
    return cond


def run(*args):
    return subprocess.run([LA] + list(args), capture_output=True, text=True)


def report(trace, *opts):
    r = run("-q", "--format=json", *opts, trace)
    if not check(r.returncode == 0, "%s %s: exit %d" % (trace, opts, r.returncode), r.stderr):
        return None
    return json.loads(r.stdout)


def text(trace, *opts):
    return run("-q", *opts, trace).stdout


def without(row, *keys):
    return {k: v for k, v in row.items() if k not in keys}


def check_pid(trace):
    """--pid P: P's section as it was, and the global table its rows."""
    name = os.path.basename(trace)
    full = report(trace)
    user = [p for p in full["processes"] if not p["kernel_thread"] and p["reasons"]]
    # the process with the most causes, and one further down
    for p in (max(user, key=lambda p: len(p["reasons"])), user[len(user) // 2]):
        got = report(trace, "--pid", str(p["pid"]))
        what = "%s --pid %d (%s)" % (name, p["pid"], p["comm"])
        if not got:
            continue
        check(got["processes"] == [p], what + ": the section is the unfiltered one",
              "got %s" % [(q["comm"], q["pid"]) for q in got["processes"]])
        check(got["total_ns"] == p["total_ns"], what + ": global total is the process's",
              "%d != %d" % (got["total_ns"], p["total_ns"]))
        # one process: its table and the global one are the same rows
        check(sorted(map(json.dumps, got["global"])) ==
              sorted(map(json.dumps, p["reasons"])),
              what + ": global rows are the process's rows, every field",
              "%s\n%s" % (got["global"][:1], p["reasons"][:1]))
        check(got["options"]["pids"] == [p["pid"]] and got["options"]["tids"] == [] and
              got["options"]["comms"] == [], what + ": options say the filter",
              got["options"])
    # a kernel thread: in its section, out of the global table unless -k
    k = next(p for p in full["processes"] if p["kernel_thread"] and p["reasons"])
    got = report(trace, "--pid", str(k["pid"]))
    check(got["processes"] == [k] and got["global"] == [],
          "%s --pid of kernel thread %s: its section, an empty global table" % (name, k["comm"]))
    check(re.search(r"^  \(none outside kernel threads: -k counts them here\)$",
                    text(trace, "--pid", str(k["pid"])), re.M),
          "%s: an empty filtered global table says why" % name)
    got = report(trace, "-k", "--pid", str(k["pid"]))
    check([(r["reason"], r["count"], r["total_ns"], r["max_ns"]) for r in got["global"]] ==
          [(r["reason"], r["count"], r["total_ns"], r["max_ns"]) for r in k["reasons"]],
          "%s -k --pid %d: the kernel thread's rows are the global table" % (name, k["pid"]))


def check_tid():
    """--tid T: its process's section holds T alone, with T's own rows."""
    full = report(MODULE)
    p = next(p for p in full["processes"] if len(p["threads"]) >= 3)
    # not the leader: a thread of its own
    t = next(t for t in p["threads"] if t["tid"] != p["pid"] and t["reasons"])
    got = report(MODULE, "--tid", str(t["tid"]))
    what = "--tid %d (%s of %s)" % (t["tid"], t["comm"], p["comm"])
    if not check(len(got["processes"]) == 1 and got["processes"][0]["pid"] == p["pid"],
                 what + ": one section, its process's",
                 [(q["comm"], q["pid"]) for q in got["processes"]]):
        return
    q = got["processes"][0]
    check(q["threads"] == [t], what + ": the thread as it was, alone",
          [th["tid"] for th in q["threads"]])
    check(q["total_ns"] == t["total_ns"], what + ": the process total is the thread's")
    # process rows carry stacks, thread rows do not: all else is equal
    mine = sorted(json.dumps(without(r, "stacks")) for r in q["reasons"])
    check(mine == sorted(json.dumps(r) for r in t["reasons"]),
          what + ": the section's rows are the thread's", "%s\n%s" % (mine[:1], t["reasons"][:1]))
    check(sorted(json.dumps(without(r, "stacks")) for r in got["global"]) == mine,
          what + ": and so are the global table's")
    # the thread's rows are a part of the process's unfiltered ones
    whole = {(r["reason"], r["argument"]): r for r in p["reasons"]}
    check(all(whole[(r["reason"], r["argument"])]["count"] >= r["count"] for r in t["reasons"]),
          what + ": its rows are within its process's")


def merged(procs, kernel_threads=False):
    """The global table of @procs, summed here: {(reason, arg): (count, total, max)}."""
    g = {}
    for p in procs:
        if p["kernel_thread"] and not kernel_threads:
            continue
        for r in p["reasons"]:
            c, t, m = g.get((r["reason"], r["argument"]), (0, 0, 0))
            g[(r["reason"], r["argument"])] = (c + r["count"], t + r["total_ns"],
                                                max(m, r["max_ns"]))
    return g


def check_comm(trace, pattern, opts=()):
    """--comm PATTERN: the processes named so (or holding a thread named
    so), each as it was; the global table their merge."""
    name = os.path.basename(trace)
    full = report(trace, *opts)
    want = [p for p in full["processes"]
            if fnmatch.fnmatchcase(p["comm"], pattern) or
            any(fnmatch.fnmatchcase(t["comm"], pattern) for t in p["threads"])]
    what = "%s --comm '%s' %s" % (name, pattern, " ".join(opts))
    if not check(len(want) >= 2, what + ": the test wants two processes or more to merge"):
        return
    got = report(trace, *opts, "--comm", pattern)
    check(sorted(p["pid"] for p in got["processes"]) == sorted(p["pid"] for p in want),
          what + ": exactly the processes named so",
          "got %s\nwant %s" % ([p["pid"] for p in got["processes"]],
                               [p["pid"] for p in want]))
    # named as a whole: each section as it was (every thread carries the name)
    same = {p["pid"]: p for p in want if fnmatch.fnmatchcase(p["comm"], pattern) and
            all(fnmatch.fnmatchcase(t["comm"], pattern) for t in p["threads"])}
    check(same and all(p == same[p["pid"]] for p in got["processes"] if p["pid"] in same),
          what + ": each section is the unfiltered one")
    g = {(r["reason"], r["argument"]): (r["count"], r["total_ns"], r["max_ns"])
         for r in got["global"]}
    m = merged(want, "-k" in opts)
    check(g == m, what + ": global rows are the merge of theirs (count, total, max)",
          "\n".join("%s: got %s want %s" % (k, g.get(k), m.get(k))
                    for k in sorted(set(g) | set(m), key=str) if g.get(k) != m.get(k)))
    check(got["total_ns"] == sum(v[1] for v in m.values()),
          what + ": the global total is theirs")
    pct = sum(r["percent"] for r in got["global"])
    check(not got["global"] or abs(pct - 100) < 0.01 * len(got["global"]),
          what + ": percentages are of the selected tasks' table", pct)


def check_union():
    """Repeated, comma-separated and mixed filters: any of them selects."""
    full = report(GOLDEN)
    a, b = [p for p in full["processes"] if not p["kernel_thread"]][:2]
    one = run("-q", "-f", "json", "--pid", "%d,%d" % (a["pid"], b["pid"]), GOLDEN).stdout
    two = run("-q", "-f", "json", "-p", str(a["pid"]), "--pid", str(b["pid"]), GOLDEN).stdout
    check(one == two, "--pid A,B is --pid A --pid B")
    got = json.loads(one)
    check(sorted(p["pid"] for p in got["processes"]) == sorted([a["pid"], b["pid"]]),
          "--pid A,B: both processes")
    mixed = report(GOLDEN, "--pid", str(a["pid"]), "--comm", b["comm"])
    want = {a["pid"]} | {p["pid"] for p in full["processes"] if p["comm"] == b["comm"]}
    check({p["pid"] for p in mixed["processes"]} == want,
          "--pid A --comm B: either", sorted(p["pid"] for p in mixed["processes"]))
    # windows: each window's tables are of the chosen tasks too
    w = report(GOLDEN, "-w", "0.2", "--pid", str(a["pid"]))
    check(w["windows"] and all(all(p["pid"] == a["pid"] for p in v["processes"]) and
                               v["total_ns"] == sum(p["total_ns"] for p in v["processes"])
                               for v in w["windows"]),
          "--window with --pid: every window holds the process alone")


def check_text():
    full = report(GOLDEN)
    p = [p for p in full["processes"] if not p["kernel_thread"]][0]
    out = text(GOLDEN, "--pid", str(p["pid"]), "--comm", "make")
    nmake = sum(1 for q in full["processes"] if q["comm"] == "make" and q["pid"] != p["pid"])
    check(re.search(r"^Tasks: +pid %d, comm make \(%d processes\): the tables count only these$"
                    % (p["pid"], nmake + 1), out, re.M),
          "the header says which tasks", "\n".join(out.split("\n")[:5]))
    check(re.search(r"^Global latencies of the selected tasks \(kernel threads excluded\): ",
                    out, re.M), "the global line says of the selected tasks")
    check("Tasks:" not in text(GOLDEN) and "selected" not in text(GOLDEN),
          "no Tasks line without a filter")
    # --max-processes: the first N sections of the unfiltered report, and the rest counted
    titles = re.findall(r"^Process .*$", text(GOLDEN), re.M)
    for n in (1, 3):
        out = text(GOLDEN, "-P", str(n))
        got = re.findall(r"^Process .*$", out, re.M)
        check(got == titles[:n], "-P %d: the first %d sections" % (n, n), got)
        check(out.rstrip("\n").endswith("... %d more processes (--max-processes)" %
                                        (len(titles) - n)),
              "-P %d: says how many more" % n, out[-200:])
        # the global table does not change with it
        check(out.split("\nProcess ")[0] == text(GOLDEN).split("\nProcess ")[0],
              "-P %d: the header and global table unchanged" % n)
    check(text(GOLDEN, "-P", "0") == text(GOLDEN), "-P 0: every section")
    check(text(GOLDEN, "-P", str(len(titles))) == text(GOLDEN), "-P all: nothing more said")
    # and with another format, a warning: it has every process
    r = run("-P", "2", "-f", "csv", GOLDEN)
    check(r.returncode == 0 and "warning: --max-processes has no effect with --format=csv"
          in r.stderr, "-P with csv warns", r.stderr)


def check_errors():
    for opt, val in (("--pid", "abc"), ("--pid", "12x"), ("--pid", "-5"), ("--pid", ""),
                     ("--tid", "1,,2"), ("--pid", "99999999999"), ("-P", "many"),
                     ("--max-processes", "-1")):
        r = run(opt, val, GOLDEN)
        name = "--max-processes" if opt == "-P" else opt
        check(r.returncode == 1 and r.stderr.startswith(
              "latency-analyze: %s: invalid value '%s': " % (name, val)) and
              r.stderr.count("\n") == 2, "%s %r: exit 1, said in one line" % (opt, val),
              "%d %r" % (r.returncode, r.stderr))
    r = run("--pid", "4000000", GOLDEN)
    check(r.returncode == 0 and r.stderr == "latency-analyze: warning: %s: no task that "
          "--pid, --tid or --comm chose waited in the range: the tables are empty\n" % GOLDEN,
          "a pid the trace lacks: a warning", r.stderr)
    # a saved report's tables were made already: the filter cannot change them
    saved = run("-q", "-f", "json", GOLDEN).stdout
    path = os.path.join(os.environ.get("TMPDIR", "/tmp"), "lt-filters-%d.json" % os.getpid())
    with open(path, "w") as f:
        f.write(saved)
    try:
        r = run("--pid", "1", "--comm", "x", path)
        check(r.returncode == 0 and "is a saved report: --pid, --comm cannot change it"
              in r.stderr, "--pid on a saved report: said", r.stderr)
        # a filtered report saved and read back says its filter again
        fil = run("-q", "-f", "json", "--comm", "make", GOLDEN).stdout
        with open(path, "w") as f:
            f.write(fil)
        check(text(path) == text(GOLDEN, "--comm", "make"),
              "a filtered report read back: the same text, Tasks line included")
    finally:
        os.unlink(path)


check_pid(GOLDEN)
check_pid(DESKTOP)
check_tid()
check_comm(GOLDEN, "bash")
check_comm(GOLDEN, "b*")
check_comm(DESKTOP, "pool")
check_comm(GOLDEN, "kworker/*", ("-k",))
check_union()
check_text()
check_errors()
if failures:
    print("test-filters: %d checks failed" % failures)
    sys.exit(1)
print("test-filters: all checks passed")
