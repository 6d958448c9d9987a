#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""latency-view's tree of wakers (issue 48), as drawn.

The details of a row show whom its waits waited for ("Waiting for": the
row's waited_for, the first level unfolded, the rest folded) or, for a
wait for a CPU, who ran instead ("Ran instead"): each line with its share
of the row and its time.  Every drawn line is checked against
latency-analyze --format=json of the same trace (tests/data/chains, whose
stories tests/chains holds to an oracle): names, depth, fold marks,
shares; then Tab, Space and g as the help says they work, on --dump
screens; then Shift-Tab and g on a real pseudo-terminal (xterm).

usage: test-chains.py LATENCY_VIEW LATENCY_ANALYZE CHAINS_DIR
"""
import json
import os
import pty
import re
import select
import subprocess
import sys
import time

LV, LA, CHAINS = sys.argv[1:4]
COLS, LINES = 160, 70
SHOWN = 8	# LT_REPORT_CHAIN_SHOWN
failures = 0
checks = 0


def check(cond, what, detail=""):
    global failures, checks
    checks += 1
    if not cond:
        failures += 1
        print("FAIL: %s" % what)
        if detail:
            print("  " + str(detail).replace("\n", "\n  "))


def screen(trace, keys, extra=()):
    env = dict(os.environ, COLUMNS=str(COLS), LINES=str(LINES), TERM="vt100")
    r = subprocess.run([LV, "--dump", "-q"] + list(extra) + ["--keys", keys, trace],
                       capture_output=True, text=True, env=env)
    check(r.returncode == 0, "%s --keys %r: exit 0" % (trace, keys), r.stderr)
    return r.stdout.split("\n")[:-1]


def report(trace):
    r = subprocess.run([LA, "--format=json", "-q", trace], capture_output=True,
                       text=True)
    if r.returncode != 0:
        print("latency-analyze %s: exit %d: %s" % (trace, r.returncode, r.stderr))
        sys.exit(1)
    return json.loads(r.stdout)


def cause(row):
    return "%s (%s)" % (row["reason"], row["argument"]) if row["argument"] else row["reason"]


def node_name(n, ran):
    if n["comm"] == "other" and "rest" in n:
        return "other (%d more)" % len(n["rest"])
    tid = " (%d)" % n["tid"] if n["tid"] is not None else ""
    if ran:
        return n["comm"] + tid
    if n["comm"] == n["what"]:
        return n["what"]
    return "%s%s: %s" % (n["comm"], tid, n["what"])


def want_lines(row, unfolded=(), folded=()):
    """(depth, mark, name, ns) of the lines the details should show: the
    JSON's nodes in order (its "other" as the viewer's), the first level
    unfolded but @folded, deeper nodes folded but @unfolded (by name path)."""
    out = []

    def walk(nodes, depth, ran, path):
        for n in nodes:
            name = node_name(n, ran)
            kids = n.get("waited_for", []) if not ran and "rest" not in n else []
            p = path + (name,)
            open_ = bool(kids) and ((depth == 0 and p not in folded) or p in unfolded)
            out.append((depth, "-" if open_ else "+" if kids else " ", name, n["ns"], p))
            if open_:
                walk(kids, depth + 1, ran, p)

    walk(row.get("waited_for", []), 0, False, ())
    walk(row.get("ran_instead", []), 0, True, ())
    return out


UNITS = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}
LINE = re.compile(r"^([> ]) *(\d+\.\d)% +(\S+) (ns|us|ms|s)  ( *)([-+ ]) (.*)$")


def half_digit(num, unit):
    """Half the last digit of a duration as drawn, in ns: how far it may be off."""
    decimals = len(num.split(".")[1]) if "." in num else 0
    return 0.5 * 10 ** -decimals * UNITS[unit] + 1


def drawn_lines(s):
    """The tree's lines of a details screen: (cursor, pct, ns, depth, mark, name)."""
    out, inside = [], False
    for l in s[1:-1]:
        if l.startswith("Waiting for (") or l.startswith("Ran instead ("):
            inside = True
            continue
        if inside and l.startswith("Kernel stacks"):
            break
        m = LINE.match(l)
        if inside and m:
            out.append((m.group(1) == ">", float(m.group(2)),
                        (float(m.group(3)) * UNITS[m.group(4)],
                         half_digit(m.group(3), m.group(4))), len(m.group(5)) // 2,
                        m.group(6), m.group(7)))
    return out


def same_tree(got, want, total, what):
    check(len(got) == len(want), "%s: %d lines drawn, want %d" % (what, len(got), len(want)),
          "\n".join(map(str, got)) + "\n--\n" + "\n".join(map(str, want)))
    for g, w in zip(got, want):
        _, pct, ns, depth, mark, name = g
        wdepth, wmark, wname, wns, _ = w
        ok = (name == wname and depth == wdepth and mark == wmark and
              abs(pct - round(100.0 * wns / total, 1)) <= 0.051 and
              abs(ns[0] - wns) <= ns[1])
        check(ok, "%s: line %r" % (what, name), "got %r\nwant %r" % (g, w[:4]))


def process_rows(s):
    """The process table's causes, in the order drawn, after its title."""
    rows, inside = [], False
    for l in s[1:-1]:
        if l.startswith("Process "):
            inside = True
            continue
        if inside and l.startswith(" Cause"):
            continue
        if inside and l[:1] in "> " and l.strip():
            rows.append(re.split(r"\s{2,}", l[1:].strip())[0])
    return rows


def details_keys(trace, comm, row):
    """Keys from the start to the details of @comm's row @row."""
    keys = "/%s<Enter>" % comm
    rows = process_rows(screen(trace, keys))
    want = cause(row)
    i = rows.index(want) if want in rows else -1
    check(i >= 0, "%s: %s's table has %r" % (trace, comm, want), rows)
    return keys + "<Down>" * max(i, 0) + "<Enter>"


def find(doc, comm, reason):
    for p in doc["processes"]:
        if p["comm"] == comm:
            for r in p["reasons"]:
                if r["reason"] == reason:
                    return p, r
    return None, None


def check_relay():
    """cw-relay-a's condvar waits: <- cw-relay-b reading the pipe <- cw-relay-c."""
    trace = os.path.join(CHAINS, "relay.dat")
    doc = report(trace)
    p, row = find(doc, "cw-main", "Userspace lock/condition wait (futex)")
    check(row and row.get("waited_for"), "relay: cw-main's futex row has a tree")
    if not row:
        return
    keys = details_keys(trace, "cw-main", row)
    s = screen(trace, keys)
    want = want_lines(row)
    got = drawn_lines(s)
    same_tree(got, want, row["total_ns"], "relay: the details' tree")
    check(got and got[0][0] and not any(g[0] for g in got[1:]),
          "relay: the tree's cursor on its first line", got)
    # the story: the condvar's waker was blocked on a pipe (its own cause)
    check(got and got[0][5].endswith(": Reading from a pipe") and got[0][4] == "-" and
          got[0][1] > 90.0, "relay: first waker reading a pipe, > 90%, unfolded",
          got[:1])
    # Tab to the first folded line with children, Space: it unfolds
    k = next((i for i, w in enumerate(want) if w[1] == "+"), None)
    check(k is not None, "relay: a folded waker under the first", want)
    if k is None:
        return
    s = screen(trace, keys + "<Tab>" * k + "<Space>")
    want2 = want_lines(row, unfolded=(want[k][4],))
    got2 = drawn_lines(s)
    same_tree(got2, want2, row["total_ns"], "relay: Space unfolds line %d" % k)
    check(len(got2) > len(got) and got2[k][0] and got2[k][4] == "-",
          "relay: the unfolded line under the cursor, its children below",
          "\n".join(map(str, got2)))
    # f folds it again: the first screen's lines
    s = screen(trace, keys + "<Tab>" * k + "<Space>f")
    same_tree(drawn_lines(s), want, row["total_ns"], "relay: f folds it again")
    # Space on the first line folds the row's own waker: one line left of it
    s = screen(trace, keys + "<Space>")
    got3 = drawn_lines(s)
    check(got3 and got3[0][4] == "+" and
          len(got3) == len(want_lines(row, folded=(want[0][4],))),
          "relay: Space folds the first waker", got3)
    # BTab from the first line: round to the last
    s = screen(trace, keys + "<BTab>")
    got4 = drawn_lines(s)
    check(got4 and got4[-1][0] and not got4[0][0], "relay: BTab goes round to the last line",
          got4)
    # g on the first waker: its process, the cursor on its own wait
    s = screen(trace, keys + "g")
    check(s[-1].startswith("%s, its wait: Reading from a pipe" % want[0][2].split(":")[0]),
          "relay: g says the waker and its wait", s[-1])
    title = [l for l in s if l.startswith("Process ")]
    check(title and title[0].startswith("Process cw-main (%d)" % p["pid"]),
          "relay: g shows the waker's process", title)
    cur = [l for l in s if l.startswith(">")]
    check(cur and cur[-1][1:].startswith("Reading from a pipe"),
          "relay: g puts the cursor on the waker's own wait", cur)
    # and Enter there: that wait's own tree, led by the sleeper's timer
    s = screen(trace, keys + "g<Enter>")
    _, prow = find(doc, "cw-main", "Reading from a pipe")
    same_tree(drawn_lines(s), want_lines(prow), prow["total_ns"],
              "relay: Enter on the waker's wait: its tree")


def check_hogs():
    """cw-sleeper's waits for a CPU: the hogs ran instead."""
    trace = os.path.join(CHAINS, "hogs.dat")
    doc = report(trace)
    _, row = find(doc, "cw-main", "Scheduler: waiting for cpu")
    check(row and row.get("ran_instead"), "hogs: cw-main's cpu row has ran_instead")
    if not row:
        return
    s = screen(trace, details_keys(trace, "cw-main", row))
    check(any(l.startswith("Ran instead (") for l in s), "hogs: \"Ran instead\" drawn", s)
    got = drawn_lines(s)
    want = want_lines(row)
    same_tree(got, want, row["total_ns"], "hogs: ran instead")
    check(len(row["ran_instead"]) <= SHOWN + 1 and len(got) == len(row["ran_instead"]),
          "hogs: at most %d lines and an other" % SHOWN, got)
    hogs = sum(g[2][0] for g in got if g[5].startswith("cw-main"))
    check(hogs > 0.3 * row["total_ns"], "hogs: the hogs (cw-main's threads) ran "
          "instead for %.0f%% of it" % (100.0 * hogs / row["total_ns"]))


def check_elsewhere():
    """g on a waker whose own wait is in no row of its table (not charged),
    and on one the s filter leaves out of the bar: said."""
    trace = os.path.join(CHAINS, "relay.dat")
    doc = report(trace)
    procs = [q for q in doc["processes"]]

    def owner(tid):
        return next((q for q in procs if q["pid"] == tid or
                     any(t["tid"] == tid for t in q["threads"])), None)

    for p in procs:
        for r in p["reasons"]:
            ws = r.get("waited_for", [])
            if not ws or ws[0]["tid"] is None or ws[0]["comm"] == ws[0]["what"]:
                continue
            q = owner(ws[0]["tid"])
            if not q or q is p or q["comm"][0].lower() == p["comm"][0].lower() or \
               any(cause(x) == ws[0]["what"] for x in q["reasons"]):
                continue
            who = "%s (%d)" % (ws[0]["comm"], ws[0]["tid"])
            keys = details_keys(trace, p["comm"], r)
            s = screen(trace, keys + "g")
            check(s[-1].startswith("%s, its wait: %s: not in its table" % (who, ws[0]["what"])),
                  "g on %s, its wait not charged: said" % who, s[-1])
            title = [l for l in s if l.startswith("Process ")]
            check(title and title[0].startswith("Process %s (%d)" % (q["comm"], q["pid"])),
                  "g on %s: its process shown all the same" % who, title)
            # the bar filtered to p's first letter: q is not in it
            s = screen(trace, "s" + p["comm"][0] + keys + "g")
            check(s[-1] == "%s: not in the bar (s Space: all)" % who,
                  "g on %s, filtered out of the bar: said" % who, s[-1])
            check(s[0].lstrip().startswith("Details"), "and the details stay", s[0])
            return
    check(False, "relay.dat: a waker whose wait is in no row, to try g on")


def read_until(fd, seen, marker, wait=20):
    end = time.time() + wait
    while marker not in seen and time.time() < end:
        if select.select([fd], [], [], 0.2)[0]:
            try:
                seen += os.read(fd, 65536)
            except OSError:
                break
    return seen


def check_pty():
    """Shift-Tab as xterm sends it (kcbt), then g, on a pseudo-terminal."""
    trace = os.path.join(CHAINS, "relay.dat")
    doc = report(trace)
    _, row = find(doc, "cw-main", "Userspace lock/condition wait (futex)")
    if not row:
        return
    kcbt = subprocess.run(["tput", "-T", "xterm", "kcbt"], capture_output=True).stdout
    check(kcbt == b"\x1b[Z", "xterm's Shift-Tab is ESC [ Z", kcbt)
    rows = process_rows(screen(trace, "/cw-main<Enter>"))
    i = rows.index(cause(row)) if cause(row) in rows else 0
    last = want_lines(row)[-1]
    # the last line's node: running, waiting for cpu or a wait of its own
    n = row["waited_for"][-1] if len(row["waited_for"]) <= SHOWN else None
    pid, fd = pty.fork()
    if pid == 0:
        os.environ.update(TERM="xterm", LINES="50", COLUMNS="140")
        os.execv(LV, [LV, "-q", trace])
    seen = read_until(fd, b"", b"Global latencies")
    os.write(fd, b"/cw-main\r")
    seen = read_until(fd, seen, b"match 1 of")
    os.write(fd, b"\x1bOB" * i + b"\r")
    # the whole details drawn (the status line last), then quiet
    seen = read_until(fd, seen, b"g go to")
    read_until(fd, b"", b"\0never", 0.5)
    os.write(fd, kcbt)
    # the tree's cursor line stands out (xterm: bold, reverse or colour)
    apart = re.compile(rb"\x1b\[[0-9;]*m(?:\x1b\[[0-9;]*m)*> +[0-9.]+% +\S+ \S+ +" +
                       re.escape(last[2].encode()))
    seen, end = b"", time.time() + 10
    while not apart.search(seen) and time.time() < end:
        seen = read_until(fd, seen, b"\0never", 0.2)
    check(apart.search(seen), "pty: Shift-Tab: the cursor on the last line, drawn apart",
          repr(seen[-300:]))
    os.write(fd, b"g")
    check(n is not None and n["comm"] != n["what"], "relay: the last waker is a task's", n)
    if n is not None and n["comm"] != n["what"]:
        who = "%s (%d)" % (n["comm"], n["tid"]) if n["tid"] is not None else n["comm"]
        # its own wait (a cause, or its waits for a CPU), or running
        marker = (who + ", ").encode()
        seen = read_until(fd, b"", marker, 10)
        check(marker + b"its wait: " + n["what"].encode() in seen or
              marker + b"which was running" in seen,
              "pty: g on the last waker (%s): its process" % last[2], repr(seen[-300:]))
    os.write(fd, b"q")
    end = time.time() + 20
    status = None
    while time.time() < end:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if select.select([fd], [], [], 0.2)[0]:
            try:
                os.read(fd, 65536)
            except OSError:
                pass
    else:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
    os.close(fd)
    check(status is not None and os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0,
          "pty: q quits, exit 0", status)


check_relay()
check_hogs()
check_elsewhere()
check_pty()
if failures:
    print("view/chains: %d of %d checks failed" % (failures, checks))
    sys.exit(1)
print("view/chains: all %d checks passed" % checks)
