#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Whom the waits waited for (issue 48), as the text report shows it.

- Under each row of a process section, a line per top waker (at most 3,
  the rest summed in "N others", but a lone fourth is named), its share of the row's time by what it
  was doing, whole percents ("<1%" for less); a wait for a CPU's row, who
  ran instead.  Checked on a report whose tree is written here by hand,
  with its lines worked out by hand, and on the recorded traces of
  tests/data/chains against their own JSON, regrouped here.
- --chains: the whole tree instead, a line a node, 4 columns deeper a
  level, at most 8 nodes a level and the rest in "N others" (a lone
  ninth named).
- The global table has none of it.
- --format=folded --chains: the waiter (process, cause, and its stack
  where the row has one), a "--" frame, then a line per root-to-leaf path
  of the row's tree (a wait for a CPU: per task that ran instead), in
  whole microseconds; what the tree leaves, the plain line; each row's
  sum the one without --chains; flamegraph.pl draws it.
- --no-chains: no tree in any row, no line under any, no waker in the
  waits; every figure the same.

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


def shown(n, cap):
    """How many of n the text names: cap, or all when one is left over."""
    return n if n == cap + 1 else cap


def summary(row):
    """The lines a row's tree makes, worked out from its JSON here."""
    out, whole = [], row["total_ns"]
    if row.get("ran_instead"):
        v = unfold(row["ran_instead"])
        k = shown(len(v), 3)
        parts = ["%s%s %s" % (n["comm"], "" if n["tid"] is None else " (%d)" % n["tid"],
                              pct(n["ns"], whole)) for n in v[:k]]
        if len(v) > k:
            parts.append("%d others %s" % (len(v) - k, pct(sum(n["ns"] for n in v[k:]), whole)))
        out.append("  ran instead: " + ", ".join(parts))
    groups = {}
    for i, n in enumerate(unfold(row.get("waited_for") or [])):
        key = (True, n["comm"], n["tid"]) if is_task(n) else (False, n["what"], None)
        groups.setdefault(key, []).append(n)
    order = sorted(groups, key=lambda k: (-sum(n["ns"] for n in groups[k]),
                                          not k[0], k[1], -1 if k[2] is None else k[2]))
    top = shown(len(order), 3)
    for k in order[:top]:
        g = groups[k]
        if not k[0]:
            out.append("  <- %s: %s" % (k[1], pct(g[0]["ns"], whole)))
            continue
        who = k[1] if k[2] is None else "%s (%d)" % (k[1], k[2])
        parts = ["%s %s" % (n["what"], pct(n["ns"], whole)) for n in g[:4]]
        if len(g) > 4:
            parts.append("other " + pct(sum(n["ns"] for n in g[4:]), whole))
        out.append("  <- %s: %s" % (who, ", ".join(parts)))
    if len(order) > top:
        out.append("  <- %d others: %s" % (len(order) - top, pct(
            sum(n["ns"] for k in order[top:] for n in groups[k]), whole)))
    return out


def unfold(nodes):
    out = []
    for n in nodes:
        out.extend(unfold(n["rest"]) if "rest" in n else [n])
    return out


def tree_lines(nodes, whole, indent):
    out, v = [], unfold(nodes)
    k = shown(len(v), 8)
    for n in v[:k]:
        who = n["what"] if not is_task(n) else (
            n["comm"] if n["tid"] is None else "%s (%d)" % (n["comm"], n["tid"]))
        what = ": " + n["what"] if is_task(n) else ""
        out.append((indent, "<- %s%s" % (who, what), n["ns"] * 100.0 / whole))
        out.extend(tree_lines(n.get("waited_for") or [], whole, indent + 4))
    if len(v) > k:
        out.append((indent, "<- %d others" % (len(v) - k),
                    sum(n["ns"] for n in v[k:]) * 100.0 / whole))
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
    # folded: a line per path, each waiter frame first ("Reading from a
    # pipe" of pipe.dat has one stack), the rest of the row plain
    stacks = row.get("stacks") or []
    frames = "" if len(stacks) != 1 else ";" + ";".join(
        list(reversed(stacks[0].get("user_frames") or [])) +
        list(reversed(stacks[0]["frames"])))
    head = "cw-main (%d);Reading from a pipe%s" % (proc["pid"], frames)
    lines = [l for l in run("-f", "folded", "--chains", path).split("\n")
             if l.startswith(head + ";--") or l.startswith(head + " ")]
    u = lambda share: (T * share // 1000 + 500) // 1000
    left = T - sum(T * k // 1000 for k in (900, 20, 30, 10, 6, 5, 4))
    check(lines == [
        head + ";--;cw-writer (4512): Sleeping (nanosleep);timer %d" % u(900),
        head + ";--;cw-writer (4512): running %d" % u(30),
        head + ";--;hardirq %d" % u(20),
        head + ";--;cw-writer (4512): waiting for cpu %d" % u(10),
        head + ";--;k1 (7): running %d" % u(6),
        head + ";--;k2 (8): running %d" % u(5),
        head + ";--;k3 (9): running %d" % u(4),
        head + " %d" % ((left + 500) // 1000),
    ], "a hand-made tree, folded --chains: a line per path, the rest plain",
        "\n".join(lines))
    # nine nodes at a level: eight and the rest
    row["waited_for"] = [node(100 + i, "t%d" % i, "running", 100 - i) for i in range(10)]
    with open(path, "w") as f:
        json.dump(rep, f)
    procs, _ = sections(run("--chains", path))
    under = next(u for l, u in procs[("cw-main", proc["pid"])]
                 if l.startswith("Reading from a pipe"))
    check(len(under) == 9 and re.match(r"^    <- 2 others, [0-9.]+ ms \(18\.3%\)$", under[8]),
          "ten nodes, --chains: eight and \"2 others\" (9.2% + 9.1%)", "\n".join(under))


def node_frame(n):
    if not is_task(n):
        return n["what"]
    return n["comm"] + ("" if n["tid"] is None else " (%d)" % n["tid"]) + ": " + n["what"]


def paths(nodes, above=()):
    """(frames, ns) of every leaf of a tree, and what a node's children leave."""
    for n in unfold(nodes):
        here = above + (node_frame(n),)
        kids = n.get("waited_for") or []
        yield from paths(kids, here)
        left = n["ns"] - sum(k["ns"] for k in unfold(kids))
        if left:
            yield here, left


def us(ns):
    return ns // 1000 + (ns % 1000 >= 500)


def folded(lines):
    out = {}
    for l in lines.strip().split("\n"):
        frames, value = l.rsplit(" ", 1)
        out.setdefault(frames, 0)
        out[frames] += int(value)
    return out


def check_folded(trace, report, plain, chains):
    """--chains lines are the trees' paths; each row's sum as without."""
    name = os.path.basename(trace)
    got, lines = {}, 0
    for frames, value in chains.items():
        f = frames.split(";")
        key = (f[0], f[1])
        got.setdefault(key, [0, 0])[0] += value
        got[key][1] += 1
    want = {}
    for frames, value in plain.items():
        f = frames.split(";")
        want.setdefault((f[0], f[1]), 0)
        want[(f[0], f[1])] += value
    for key, (value, n) in got.items():
        # each line rounds to a microsecond on its own
        check(abs(value - want.get(key, 0)) <= n, "%s: %s, %s: --chains adds up to the "
              "plain lines' %d us" % (name, key[0], key[1], want.get(key, 0)), value)
    check(set(got) == set(want), name + ": the same rows with --chains and without")
    for p in report["processes"]:
        for r in p["reasons"]:
            head = "%s (%d);%s" % (p["comm"], p["pid"], cause(r))
            stack = [] if len(r.get("stacks") or []) != 1 else None
            expect = {}
            for frames, ns in paths(r.get("waited_for") or []):
                expect[frames] = expect.get(frames, 0) + us(ns)
            for n in unfold(r.get("ran_instead") or []):
                who = n["comm"] + ("" if n["tid"] is None else " (%d)" % n["tid"])
                expect[("ran instead: " + who,)] = us(n["ns"])
            mine = {}
            for frames, value in chains.items():
                if not frames.startswith(head + ";") or ";--;" not in frames:
                    continue
                waiter, chain = frames.split(";--;", 1)
                if stack is not None:
                    check(waiter == head, "%s: %s: no frames, its stacks are %d" %
                          (name, head, len(r.get("stacks") or [])), waiter)
                mine[tuple(chain.split(";"))] = value
                lines += 1
            # ";" becomes ":" in a frame; these traces' names have none
            expect = {k: v for k, v in expect.items() if v}
            check(mine == expect, "%s: %s: a line per path of its tree" % (name, head),
                  "got %s\nwant %s" % (sorted(mine.items())[:4], sorted(expect.items())[:4]))
    return lines


def figures(rep):
    out = []
    for p in rep["processes"]:
        for r in p["reasons"]:
            out.append((p["pid"], cause(r), r["count"], r["total_ns"], r["max_ns"]))
    return sorted(out)


def check_no_chains(trace):
    rep = json.loads(run("-f", "json", trace))
    bare = json.loads(run("-f", "json", "--no-chains", trace))
    name = os.path.basename(trace)
    trees = sum(bool(r.get("waited_for") or r.get("ran_instead"))
                for p in bare["processes"] for r in p["reasons"])
    check(trees == 0, "%s --no-chains: %d rows with a tree, want 0" % (name, trees))
    check(figures(rep) == figures(bare) and
        [(r["reason"], r["count"], r["total_ns"]) for r in rep["global"]] ==
        [(r["reason"], r["count"], r["total_ns"]) for r in bare["global"]],
        name + " --no-chains: every figure as with them")
    text = run("--no-chains", trace)
    check(not re.search(r"^ +(<-|ran instead:)", text, re.M),
          name + " --no-chains: no line under a row")
    waits = run("-f", "waits-jsonl", "--no-chains", trace).strip().split("\n")
    kinds = set(json.loads(l).get("waker_kind") for l in waits)
    check(kinds == {None}, name + " --no-chains: no waker in the waits", kinds)
    waits = run("-f", "waits-jsonl", trace).strip().split("\n")
    kinds = set(json.loads(l).get("waker_kind") for l in waits)
    check({"task", "timer"} <= kinds, name + ": the waits' wakers (task, timer among them)",
          kinds)


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
    flame = os.environ.get("LT_FLAMEGRAPH") or "/usr/share/perl5/Devel/NYTProf/flamegraph.pl"
    if os.path.exists(flame):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "relay.folded")
            with open(path, "w") as f:
                f.write(run("-f", "folded", "--chains", relay))
            svg = subprocess.run(["perl", flame, "--minwidth=0", "--countname=us", path],
                                 capture_output=True, text=True).stdout
            titles = re.findall(r"<title>([^<]*) \(([0-9,]+) us", svg)
            # the relay's third level: the writer's nap a timer ended
            check(any(t == "--" for t, _ in titles) and
                  any(t == "cw-main (4367): Application requested delay" for t, _ in titles) and
                  any(t == "timer" for t, _ in titles),
                  "flamegraph.pl draws the -- frame and the chain above it",
                  sorted(set(t for t, _ in titles))[:20])
    else:
        print("flamegraph.pl not installed (libdevel-nytprof-perl): not drawn")
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
        lines = check_folded(trace, report, folded(run("-f", "folded", *kallsyms, trace)),
                             folded(run("-f", "folded", "--chains", *kallsyms, trace)))
        check(lines >= 10, "%s: %d folded lines with --, want 10 or more" % (name, lines))
    check_no_chains(os.path.join(DATA, "relay.dat"))
    check(total >= 20, "rows with trees checked: %d, want 20 or more" % total)
    print("test-chains: %d rows with trees checked, %d failures" % (total, failures))
    sys.exit(1 if failures else 0)


main()
