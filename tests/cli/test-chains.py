#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Whom the waits waited for (issue 48), as the text report shows it.

- Under each row of a process section, a line per top waker (at most 3,
  the rest summed in "N others"), its share of the row's time by what it
  was doing, whole percents ("<1%" for less); a wait for a CPU's row, who
  ran instead.  Checked on a report whose tree is written here by hand,
  with its lines worked out by hand, and on the recorded traces of
  tests/data/chains against their own JSON, regrouped here.
- --chains: the whole tree instead, a line a node, 4 columns deeper a
  level, at most 8 nodes a level and the rest in "N others".
- The global table has none of it.

usage: test-chains.py LATENCY_ANALYZE CHAINS_DATA_DIR
"""
import json
import os
import re
import subprocess
import sys
import tempfile

LA, DATA = sys.argv[1:3]
failures = 0


def check(cond, what, detail=""):
    global failures
    if not cond:
        failures += 1
        print("FAIL: " + what)
        if detail:
            print("  " + str(detail).replace("\n", "\n  "))
    return cond


def run(*args):
    p = subprocess.run([LA, "-q"] + list(args), capture_output=True, text=True)
    if p.returncode:
        print("FAIL: %s exits %d: %s" % (" ".join(args), p.returncode, p.stderr))
        sys.exit(1)
    return p.stdout


def cause(r):
    return r["reason"] + (" (%s)" % r["argument"] if r["argument"] else "")


def sections(text):
    """{(process comm, pid): [(row line, [lines under it])]} and the global
    table's rows, as the text shows them."""
    procs, glob, cur, rows = {}, [], None, None
    for line in text.split("\n"):
        m = re.match(r"^Process (.*) \((\d+)\)(?: \[kernel thread\])?: ", line)
        if m:
            cur = rows = procs.setdefault((m.group(1), int(m.group(2))), [])
            continue
        if line.startswith("Global latencies"):
            cur = rows = glob
            continue
        if line.startswith("Cause ") or not line or rows is None:
            continue
        if line.startswith(" "):
            if rows and not re.match(r"^  (blocked|user requested|stopped)", line):
                rows[-1][1].append(line)
            continue
        rows.append((line, []))
    return procs, glob


def pct(ns, whole):
    p = int(ns * 100.0 / whole + 0.5) if whole else 0
    return "<1%" if not p and ns else "%d%%" % p


def is_task(n):
    return n["what"] not in ("hardirq", "softirq", "timer", "unknown", "lost", "other")


def summary(row):
    """The lines a row's tree makes, worked out from its JSON here."""
    out, whole = [], row["total_ns"]
    if row.get("ran_instead"):
        v = unfold(row["ran_instead"])
        parts = ["%s%s %s" % (n["comm"], "" if n["tid"] is None else " (%d)" % n["tid"],
                              pct(n["ns"], whole)) for n in v[:3]]
        if len(v) > 3:
            parts.append("%d others %s" % (len(v) - 3, pct(sum(n["ns"] for n in v[3:]), whole)))
        out.append("  ran instead: " + ", ".join(parts))
    groups = {}
    for i, n in enumerate(unfold(row.get("waited_for") or [])):
        key = (True, n["comm"], n["tid"]) if is_task(n) else (False, n["what"], None)
        groups.setdefault(key, []).append(n)
    order = sorted(groups, key=lambda k: (-sum(n["ns"] for n in groups[k]),
                                          not k[0], k[1], -1 if k[2] is None else k[2]))
    for k in order[:3]:
        g = groups[k]
        if not k[0]:
            out.append("  <- %s: %s" % (k[1], pct(g[0]["ns"], whole)))
            continue
        who = k[1] if k[2] is None else "%s (%d)" % (k[1], k[2])
        parts = ["%s %s" % (n["what"], pct(n["ns"], whole)) for n in g[:4]]
        if len(g) > 4:
            parts.append("other " + pct(sum(n["ns"] for n in g[4:]), whole))
        out.append("  <- %s: %s" % (who, ", ".join(parts)))
    if len(order) > 3:
        out.append("  <- %d others: %s" % (len(order) - 3, pct(
            sum(n["ns"] for k in order[3:] for n in groups[k]), whole)))
    return out


def unfold(nodes):
    out = []
    for n in nodes:
        out.extend(unfold(n["rest"]) if "rest" in n else [n])
    return out


def tree_lines(nodes, whole, indent):
    out, v = [], unfold(nodes)
    for n in v[:8]:
        who = n["what"] if not is_task(n) else (
            n["comm"] if n["tid"] is None else "%s (%d)" % (n["comm"], n["tid"]))
        what = ": " + n["what"] if is_task(n) else ""
        out.append((indent, "<- %s%s" % (who, what), n["ns"] * 100.0 / whole))
        out.extend(tree_lines(n.get("waited_for") or [], whole, indent + 4))
    if len(v) > 8:
        out.append((indent, "<- %d others" % (len(v) - 8),
                    sum(n["ns"] for n in v[8:]) * 100.0 / whole))
    return out


def check_against_json(trace, report, text, chains):
    """Every process row's lines are its JSON tree's; the global table has none."""
    procs, glob = sections(text)
    name = os.path.basename(trace)
    check(all(not under for _, under in glob), name + ": no tree under the global table")
    rows = 0
    for p in report["processes"]:
        got = procs.get((p["comm"], p["pid"]))
        if got is None:
            continue
        if not check(len(got) == len(p["reasons"]), "%s: %s's rows" % (name, p["comm"]),
                     "%d text, %d JSON" % (len(got), len(p["reasons"]))):
            continue
        for (line, under), r in zip(got, p["reasons"]):
            if not check(line.startswith(cause(r)), "%s: %s's row %s in order" %
                         (name, p["comm"], cause(r)), line):
                continue
            rows += bool(r.get("waited_for") or r.get("ran_instead"))
            if not chains:
                check(under == summary(r), "%s: %s, %s: its wakers" % (name, p["comm"], cause(r)),
                      "got:\n%s\nwant:\n%s" % ("\n".join(under), "\n".join(summary(r))))
                continue
            want = tree_lines(r.get("waited_for") or [], r["total_ns"], 4)
            trees = [l for l in under if "ran instead" not in l]
            ok = len(trees) == len(want)
            for l, (ind, head, p100) in zip(trees, want):
                m = re.match(r"^( *)(.*), [0-9.]+ [mun]?s \(([0-9.]+)%\)$", l)
                ok = ok and m and len(m.group(1)) == ind and m.group(2) == head and \
                    abs(float(m.group(3)) - p100) < 0.051
            check(ok, "%s: %s, %s: its tree (--chains)" % (name, p["comm"], cause(r)),
                  "got:\n%s\nwant:\n%s" % ("\n".join(trees), "\n".join(
                      "%s%s (%.1f%%)" % (" " * i, h, q) for i, h, q in want)))
    return rows


def hand_made(tmp):
    """pipe.dat's report, its reader's pipe row given a tree written here."""
    rep = json.loads(run("-f", "json", os.path.join(DATA, "pipe.dat")))
    proc = next(p for p in rep["processes"] if p["comm"] == "cw-main")
    row = next(r for r in proc["reasons"] if r["reason"] == "Reading from a pipe")
    T = row["total_ns"]

    def node(tid, comm, what, share, kids=()):
        n = {"tid": tid, "comm": comm, "what": what, "ns": T * share // 1000}
        if kids:
            n["waited_for"] = list(kids)
        return n
    row["waited_for"] = [
        node(4512, "cw-writer", "Sleeping (nanosleep)", 900,
             [node(None, "timer", "timer", 900)]),
        node(None, "hardirq", "hardirq", 20),
        node(4512, "cw-writer", "running", 30),
        node(4512, "cw-writer", "waiting for cpu", 10),
        node(7, "k1", "running", 6), node(8, "k2", "running", 5),
        node(9, "k3", "running", 4),
    ]
    path = os.path.join(tmp, "hand.json")
    with open(path, "w") as f:
        json.dump(rep, f)
    procs, _ = sections(run(path))
    under = next(u for l, u in procs[("cw-main", proc["pid"])]
                 if l.startswith("Reading from a pipe"))
    check(under == [
        "  <- cw-writer (4512): Sleeping (nanosleep) 90%, running 3%, waiting for cpu 1%",
        "  <- hardirq: 2%",
        "  <- k1 (7): running 1%",
        "  <- 2 others: 1%",
    ], "a hand-made tree: a line per top waker", "\n".join(under))
    procs, _ = sections(run("--chains", path))
    under = next(u for l, u in procs[("cw-main", proc["pid"])]
                 if l.startswith("Reading from a pipe"))
    shown = [re.sub(r", [0-9.]+ [mun]?s \(", " (", l) for l in under]
    check(shown == [
        "    <- cw-writer (4512): Sleeping (nanosleep) (90.0%)",
        "        <- timer (90.0%)",
        "    <- cw-writer (4512): running (3.0%)",
        "    <- hardirq (2.0%)",
        "    <- cw-writer (4512): waiting for cpu (1.0%)",
        "    <- k1 (7): running (0.6%)",
        "    <- k2 (8): running (0.5%)",
        "    <- k3 (9): running (0.4%)",
    ], "a hand-made tree, --chains: the whole of it", "\n".join(under))
    # nine nodes at a level: eight and the rest
    row["waited_for"] = [node(100 + i, "t%d" % i, "running", 100 - i) for i in range(10)]
    with open(path, "w") as f:
        json.dump(rep, f)
    procs, _ = sections(run("--chains", path))
    under = next(u for l, u in procs[("cw-main", proc["pid"])]
                 if l.startswith("Reading from a pipe"))
    check(len(under) == 9 and re.match(r"^    <- 2 others, [0-9.]+ ms \(18\.3%\)$", under[8]),
          "ten nodes, --chains: eight and \"2 others\" (9.2% + 9.1%)", "\n".join(under))


def main():
    with tempfile.TemporaryDirectory() as tmp:
        hand_made(tmp)
    relay = os.path.join(DATA, "relay.dat")
    text = run(relay)
    # the relay's story, as its committed recording tells it (its JSON:
    # 769735273 of the condvar's 784338167 ns reading the pipe, 2841465
    # waiting for a CPU; the pipe's 747408348 of 775885904 the writer's nap)
    for line in ("  <- cw-main (4365): Reading from a pipe 98%, waiting for cpu <1%",
                 "  <- cw-main (4367): Application requested delay 96%, waiting for cpu 2%, running 2%",
                 "  <- timer: 100%",
                 "  ran instead: ld (4336) 17%, cw-main 16%, timeout 11%, 25 others 55%"):
        check(line in text.split("\n"), "relay.dat: the line " + line)
    total = 0
    for name in ("pipe.dat", "mutex.dat", "relay.dat", "hogs.dat", "hogs.perf.data"):
        trace = os.path.join(DATA, name)
        if name.endswith(".perf.data"):
            kallsyms = ["--kallsyms", os.path.join(DATA, "kallsyms")]
        else:
            kallsyms = []
        report = json.loads(run("-f", "json", *kallsyms, trace))
        total += check_against_json(trace, report, run(*kallsyms, trace), False)
        check_against_json(trace, report, run("--chains", *kallsyms, trace), True)
    check(total >= 20, "rows with trees checked: %d, want 20 or more" % total)
    print("test-chains: %d rows with trees checked, %d failures" % (total, failures))
    sys.exit(1 if failures else 0)


main()
