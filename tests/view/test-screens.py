#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""latency-view as a user meets it, screen by screen.

Every screen comes from `latency-view --dump --keys ...` (curses drawing
into a virtual terminal of LINES x COLUMNS) and is checked against what
latency-analyze prints for the same trace: the global line, every row's
numbers, the process sections in order, the windows of --window.  Then
the keys: the process bar, the cursor, Tab, details, sort, filter,
search, windows, help, sizes from 30x8 to 200x60, and a random walk of
keys on every trace.  Errors: exit status and one line naming the file.

usage: test-screens.py LATENCY_VIEW LATENCY_ANALYZE SAMPLES_DIR DATA_DIR
"""
import json
import os
import pty
import random
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unicodedata

LV, LA, SAMPLES, DATA = sys.argv[1:5]
HERE = os.path.dirname(os.path.abspath(__file__))
MKTRACE = os.path.join(HERE, "..", "tools", "mktrace.py")
REAL = os.path.join(DATA, "real")
TRACES = [os.path.join(SAMPLES, "local-golden-stacks.dat"),
          os.path.join(SAMPLES, "kernel-patched-6.1.dat"),
          os.path.join(REAL, "desktop-4cpu-sched_switch.dat"),
          os.path.join(REAL, "embedded-1cpu-sched-irq-gpio.dat"),
          os.path.join(REAL, "qemu-1cpu-sched_switch.dat")]
failures = 0


def fail(what, detail=""):
    global failures
    failures += 1
    print("FAIL: " + what)
    if detail:
        print("  " + detail.replace("\n", "\n  "))


def difflib_lines(a, b):
    import difflib
    return list(difflib.unified_diff(a, b, lineterm="", n=0))[:12]


def check(cond, what, detail=""):
    if not cond:
        fail(what, detail)
    return cond


def run(args, cols=120, lines=40, term="vt100"):
    env = dict(os.environ, COLUMNS=str(cols), LINES=str(lines), TERM=term)
    return subprocess.run(args, capture_output=True, text=True, env=env)


def screen(trace, keys="", cols=120, lines=40, extra=(), term="vt100"):
    r = run([LV, "--dump", "-q"] + list(extra) + ["--keys", keys, trace],
            cols, lines, term)
    if r.returncode != 0:
        fail("%s --keys %r: exit %d" % (trace, keys, r.returncode), r.stderr)
        return [""] * lines
    out = r.stdout.split("\n")[:-1]
    sizes = re.findall(r"<Size=(\d+)x(\d+)>", keys)
    if sizes:	# the screen has the last size the keys gave it
        cols, lines = int(sizes[-1][0]), int(sizes[-1][1])
    check(len(out) == lines, "%s: %d lines, want %d" % (trace, len(out), lines))
    check(all(len(l) <= cols for l in out), "%s: a line wider than %d" % (trace, cols))
    return out


ROW = re.compile(r"^(.*?)\s+(\S+ \S+)\s+(\S+ \S+)\s+(\d+)\s+(\S+ \S+)\s+(\d+\.\d%)$")


def text_report(trace, extra=()):
    """latency-analyze's text: views, each {global, rows, procs[(title, rows)]}."""
    out = subprocess.run([LA, "-q"] + list(extra) + [trace],
                         capture_output=True, text=True).stdout.split("\n")
    views, cur, rows = [], None, None
    for line in out:
        if line.startswith("Global latencies"):
            cur = {"global": line, "rows": [], "procs": []}
            views.append(cur)
            rows = cur["rows"]
        elif line.startswith("Process ") and cur is not None:
            m = re.match(r"Process (.*) \((\d+)\)( \[kernel thread\])?: (.*)$", line)
            cur["procs"].append(((m.group(1), m.group(2), m.group(4),
                                  bool(m.group(3)), ""), []))
            rows = cur["procs"][-1][1]
        elif line.startswith("  user requested, not charged: ") and cur and cur["procs"]:
            # the viewer's title says it in short: "Not charged: N user-requested (T)"
            m = re.match(r"  user requested, not charged: (\d+) waits? > [^,]*, (.*) in all,", line)
            head, prow = cur["procs"][-1]
            if head[4] == "":
                cur["procs"][-1] = (head[:4] + ("  Not charged: %s user-requested (%s)"
                                                % (m.group(1), m.group(2)),), prow)
        elif rows is not None and ROW.match(line) and not line.startswith("Cause"):
            rows.append(ROW.match(line).groups())
    return views


def view_rows(lines, start):
    """The table rows under the head at lines[start], until a blank or bar."""
    rows = []
    for line in lines[start + 1:]:
        m = ROW.match(line[1:]) if line[:1] in " >" else None
        if not m:
            break
        rows.append((line[:1] == ">",) + m.groups())
    return rows


def same_rows(got, want, what, summary=None):
    """Viewer rows (wide layout) against the report's: numbers equal,
    causes equal unless one side cut its own.  All rows are shown, or
    @summary (the line above the table) says which."""
    if not check(len(got) > 0 or not want, what + ": no rows shown"):
        return
    if len(got) != len(want):
        m = re.search(r"\(rows (\d+)-(\d+) of (\d+)\)", summary or "")
        check(m and int(m.group(3)) == len(want) and
              int(m.group(2)) - int(m.group(1)) + 1 == len(got),
              what + ": %d of %d rows shown, unsaid" % (len(got), len(want)),
              summary or "")
    for g, w in zip(got, want):
        gc, wc = g[1], w[0]
        alike = gc == wc if not (gc.endswith("~") or wc.endswith("~")) else \
            gc.rstrip("~").startswith(wc.rstrip("~")) or \
            wc.rstrip("~").startswith(gc.rstrip("~"))
        if not check(alike and g[2:] == w[1:], what + ": row differs",
                     "viewer: %r\nreport: %r" % (g[1:], w)):
            return


def ns(text):
    v, unit = text.split()
    return float(v) * {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[unit]


def bar_name(procs, k):
    """Process @k of a view's procs as the bar names it: "sh(22423)" where
    another process of the view has its name, else the name alone."""
    comm, pid = procs[k][0][:2]
    alike = sum(p[0][0] == comm for p in procs)
    return "%s(%s)" % (comm, pid) if alike > 1 else comm


def process_title(lines):
    for i, l in enumerate(lines):
        if l.startswith("Process "):
            return i, l
    return None, None


own_cause_searches = []


def check_search_own_cause(trace, want):
    """A cause only one process's table has (a kernel thread's, out of the
    global table): the search shows that process, the cause chosen."""
    causes = [r[0].lower() for _, rows in want["procs"] for r in rows]
    others = [r[0].lower() for r in want["rows"]] + \
        ["%s %s" % (t[0].lower(), t[1]) for t, _ in want["procs"]]
    for (comm, pid, _, _, _), rows in want["procs"]:
        for r in rows:
            c = r[0]
            if (c.endswith("~") or sum(c.lower() in x for x in causes) != 1 or
                    any(c.lower() in x for x in others)):
                continue
            s = screen(trace, "/" + c + "<Enter>")
            _, title = process_title(s)
            check(re.match(r"match 1 of 1: %s in %s \(%s\)$" % (re.escape(c), re.escape(comm), pid),
                           s[-1].strip()) and title and
                  title.startswith("Process %s (%s)" % (comm, pid)),
                  "search finds %s's own cause %r" % (comm, c), "%r / %r" % (s[-1], title))
            own_cause_searches.append(c)
            return


def check_trace(trace):
    name = os.path.basename(trace)
    want = text_report(trace)
    if not check(len(want) == 1, name + ": latency-analyze gave no report"):
        return
    want = want[0]
    check_search_own_cause(trace, want)
    s = screen(trace)
    check(s[1].split("  (rows")[0] == want["global"], name + ": global line",
          "viewer: %r\nreport: %r" % (s[1], want["global"]))
    check(s[2].split() == ["Cause", "Maximum", "Average", "Count", "Total", "Percent"],
          name + ": wide head", s[2])
    grows = view_rows(s, 2)
    same_rows(grows, want["rows"], name + " global", s[1])
    check(not grows or grows[0][0], name + ": cursor on the first row", s[3])
    # the process bar walks the report's sections in order
    for k in range(min(4, len(want["procs"]))):
        s = screen(trace, "<Right>" * k)
        i, title = process_title(s)
        (comm, pid, total, kthread, uncharged), rows = want["procs"][k]
        if not check(title == "Process %s (%s)%s  Total: %s%s" % (
                comm, pid, " [kernel thread]" if kthread else "", total, uncharged),
                "%s: process %d title" % (name, k), "viewer: %r\nreport: %s (%s): %s"
                % (title, comm, pid, total)):
            continue
        same_rows(view_rows(s, i + 1), rows, "%s process %s" % (name, comm), title)
        check("[%s]" % bar_name(want["procs"], k) in s[i - 1],
              "%s: %s marked in the bar" % (name, bar_name(want["procs"], k)), s[i - 1])
    # details of the first global row: its numbers as the report has them
    if want["rows"]:
        cause, mx, avg, count, total, pct = want["rows"][0]
        s = screen(trace, "<Enter>")
        check(s[1].startswith(cause.rstrip("~")), name + ": detail cause", s[1])
        check("Count %s   Total %s   Maximum %s   Average %s" % (count, total, mx, avg)
              in s and "%s of the table's time" % pct in s, name + ": detail numbers",
              "\n".join(s[:8]))
        s2 = screen(trace, "<Enter><Esc>")
        check(s2[1].split("  (rows")[0] == want["global"], name + ": Esc leaves details",
              s2[1])
    # i: latency-analyze's header, every line of it, then the global lines
    text = subprocess.run([LA, "-q", trace], capture_output=True, text=True).stdout
    head = text.split("\n\n")[0].split("\n")
    glob = text.split("\n\n")[1].split("\nCause ")[0].split("\n")
    s = screen(trace, "i", cols=400, lines=len(head) + len(glob) + 6)
    check(s[0].startswith(" Trace") and s[1:1 + len(head)] == head and
          s[2 + len(head)].startswith("Shown: whole trace, ") and
          s[3 + len(head):3 + len(head) + len(glob)] == glob,
          name + ": i shows latency-analyze's header",
          "\n".join(difflib_lines(s[1:3 + len(head) + len(glob)],
                                  head + ["", "Shown: ..."] + glob)))
    check(screen(trace, "i<Esc>") == screen(trace, "") and
          screen(trace, "ii") == screen(trace, ""), name + ": Esc or i leaves it")


def check_keys():
    trace = TRACES[0]
    want = text_report(trace)[0]
    # the cursor: Down twice, then Tab into the process table
    s = screen(trace, "<Down><Down>")
    rows = view_rows(s, 2)
    check([r[0] for r in rows[:3]] == [False, False, True], "cursor on the third row",
          "\n".join(s[3:6]))
    s = screen(trace, "<Down><Down><Tab>")
    i, _ = process_title(s)
    check(not any(r[0] for r in view_rows(s, 2)) and view_rows(s, i + 1)[0][0],
          "Tab moves the cursor to the process table", "\n".join(s))
    s = screen(trace, "<End>", lines=24)
    rows = view_rows(s, 2)
    check(rows and rows[-1][0] and rows[-1][1].startswith(want["rows"][-1][0].rstrip("~")),
          "End: the last row, scrolled into sight", "\n".join(s[:12]))
    # Left walks back
    _, title = process_title(screen(trace, "<Right><Right><Left>"))
    comm, pid = want["procs"][1][0][:2]
    check(title and title.startswith("Process %s (%s)" % (comm, pid)),
          "Right, Right, Left: the second process", title or "")
    # sort by total: the title says so and totals only fall
    s = screen(trace, "o")
    check("sort: total" in s[0], "o sorts by total", s[0])
    totals = [ns(r[5]) for r in view_rows(s, 2)]
    check(totals == sorted(totals, reverse=True) and len(totals) > 3,
          "rows by total, descending", repr(totals))
    check(s[-1] == "sorted by total", "status says the sort", s[-1])
    # s + a letter: only processes starting with it; s + space: all again
    letter = want["procs"][1][0][0][0]
    s = screen(trace, "s" + letter)
    i, title = process_title(s)
    names = re.findall(r"[\[ ]([^\[\] ]+)[\] ]", s[i - 1][4:])
    check(s[i - 1].startswith("s:%s " % letter.lower()) and names and
          all(n.lower().startswith(letter.lower()) for n in names),
          "filter by '%s'" % letter, s[i - 1])
    s = screen(trace, "s" + letter + "s<Esc>")
    i, _ = process_title(s)
    check(s[i - 1].startswith("s:%s " % letter.lower()), "s and Esc keep the filter",
          s[i - 1])
    s = screen(trace, "s" + letter + "s ")
    i, _ = process_title(s)
    check(not s[i - 1].startswith("s:"), "s and space clear the filter", s[i - 1])
    # search: a later process by a piece of its name, then a cause
    comm, pid = want["procs"][3][0][:2]
    s = screen(trace, "/" + comm[1:] + "<Enter>")
    _, title = process_title(s)
    check(title and comm[1:] in title, "search finds process " + comm, title or "")
    s = screen(trace, "/" + pid + "<Enter>")
    _, title = process_title(s)
    check(title and title.startswith("Process %s (%s)" % (comm, pid)),
          "search finds pid " + pid, title or "")
    s = screen(trace, "/zzzz-none<Enter>")
    check(s[-1].rstrip() == "'zzzz-none': no process, thread or cause has it",
          "search misses", s[-1])
    # paging moves by what is on screen; resize refills the table
    s = screen(trace, "", cols=120, lines=16)
    page = len(view_rows(s, 2))
    check(0 < page < len(want["rows"]) and "(rows 1-%d of %d)" % (page, len(want["rows"]))
          in s[1], "120x16 says which rows it shows", s[1])
    rows = view_rows(screen(trace, "<PgDn>", cols=120, lines=16), 2)
    cur = [r[1] for r in rows if r[0]]
    check(cur and want["rows"][page][0].rstrip("~").startswith(cur[0].rstrip("~")),
          "PgDn moves one screen of rows", repr(cur))
    s = screen(trace, "<End><Size=120x40>", cols=120, lines=16)
    rows = view_rows(s, 2)
    check(len(rows) == len(want["rows"]) and rows[-1][0] and "(rows" not in s[1],
          "a taller screen shows every row again", "\n".join(s[:16]))
    # a process's table starts with its cursor on top
    s = screen(trace, "<Tab>" + "<Right>" * 7, cols=100, lines=50)
    i, title = process_title(s)
    rows = view_rows(s, i + 1)
    check(rows and rows[0][0] and not any(r[0] for r in rows[1:]),
          "another process: cursor on its first row", "\n".join(s[i:i + 6]))
    # the bar marks names beyond its edges, and scrolls to the cursor
    s = screen(trace, "", cols=80, lines=24)
    i, _ = process_title(s)
    check(s[i - 1].endswith(">") and not s[i - 1].startswith("<"),
          "bar: more to the right", s[i - 1])
    s = screen(trace, "<Right>" * 12, cols=80, lines=24)
    i, _ = process_title(s)
    check(s[i - 1].startswith("<") and "[%s]" % bar_name(want["procs"], 12) in s[i - 1],
          "bar: scrolled, more to the left", s[i - 1])
    # vi keys
    check(screen(trace, "jj") == screen(trace, "<Down><Down>"), "j is Down")
    check(screen(trace, "ll") == screen(trace, "<Right><Right>"), "l is Right")
    d0 = screen(trace, "<Enter>", cols=60, lines=12)
    d1 = screen(trace, "<Enter>j", cols=60, lines=12)
    check(d0[1:-1] != d1[1:-1] and d1[1] == d0[2], "j scrolls the details",
          "\n".join(d1[:4]))
    # search: n for the next, a cause, the prompt's Backspace and Esc
    bashes = [p[0][1] for p in want["procs"] if p[0][0] == "bash"]
    if check(len(bashes) >= 2, "the sample has two bash processes"):
        t1 = process_title(screen(trace, "/bash<Enter>"))[1]
        t2 = process_title(screen(trace, "/bash<Enter>n"))[1]
        check(t1 != t2 and "(%s)" % bashes[0] in t1 and "(%s)" % bashes[1] in t2,
              "n finds the next bash", "%s / %s" % (t1, t2))
    s = screen(trace, "/on a file<Enter>")
    cur = [r[1] for r in view_rows(s, 2) if r[0]]
    check(cur == ["fsync() on a file"] and s[-1].rstrip() == "match 1 of %d: fsync() on a "
          "file (global table)" % len(search_matches(trace, "on a file")),
          "search finds a cause", "%r %r" % (cur, s[-1]))
    check(process_title(screen(trace, "/xx<BS><BS>" + comm + "<Enter>"))[1].startswith(
          "Process %s (" % comm), "Backspace in the prompt")
    check(screen(trace, "/" + comm + "<Esc>") == screen(trace, ""), "Esc drops the search")
    # the sort goes round
    s = screen(trace, "oo")
    counts = [int(r[4]) for r in view_rows(s, 2)]
    check("sort: count" in s[0] and counts == sorted(counts, reverse=True),
          "oo sorts by count", repr(counts))
    s = screen(trace, "ooo")
    avgs = [ns(r[3]) for r in view_rows(s, 2)]
    check("sort: average" in s[0] and avgs == sorted(avgs, reverse=True),
          "ooo sorts by average", repr(avgs))
    check(screen(trace, "oooo")[:-1] == screen(trace, "")[:-1], "oooo: back to maximum")
    # narrower, the sort's column takes Total's place (or Maximum's): the
    # order shows; and the global line keeps its total
    for cols, keys, head, gone in [(80, "oo", "Count", "Total"), (80, "ooo", "Average", "Total"),
                                   (50, "oo", "Count", "Maximum"), (80, "o", "Total", None)]:
        s = screen(trace, keys, cols=cols, lines=24)
        words = s[2].split()
        check(head in words and (gone is None or gone not in words),
              "%d columns, sorted by %s: its column shows" % (cols, head), s[2])
        vals = [l.split()[-2] for l in s[3:8]]
        if head == "Count":
            check(vals == sorted(vals, key=int, reverse=True), "%d columns: counts fall"
                  % cols, repr(vals))
    s = screen(trace, "", cols=50, lines=24)
    check(s[1].startswith("Global (no kernel threads): %s" % want["global"].split(": ")[1]
                          .split(" charged")[0]), "50 columns: the global total shows", s[1])
    # and the bar follows the sort as latency-analyze's sections do
    for keys, opt in [("o", "total"), ("oo", "count"), ("ooo", "avg")]:
        sections = text_report(trace, ["-s", opt])[0]["procs"]
        for k in range(3):
            # the cursor stays on its process: walk from the bar's start
            title = process_title(screen(trace, keys + "<Left>" * 40 +
                                         "<Right>" * k))[1]
            comm, pid = sections[k][0][:2]
            check(title and title.startswith("Process %s (%s)" % (comm, pid)),
                  "sorted by %s: process %d" % (opt, k), "viewer: %s\nreport: %s (%s)"
                  % (title, comm, pid))
    # details of a process row say whose
    s = screen(trace, "<Tab><Enter>")
    p0 = want["procs"][0][0]
    check(s[3].strip() == "in process %s (%s), whole trace, %s" % (
          p0[0], p0[1], want["global"] and s[3].split(", ")[-1]),
          "details of a process row", s[3])
    # kernel threads in the global table, worded as latency-analyze does
    k = text_report(trace, ["-k"])[0]
    s = screen(trace, extra=["-k"])
    check(s[1].split("  (rows")[0] == k["global"], "-k global line",
          "viewer: %r\nreport: %r" % (s[1], k["global"]))
    same_rows(view_rows(s, 2), k["rows"], "-k global", s[1])
    # help, and back
    s = screen(trace, "?")
    check(s[0].startswith(" Help") and any("walk the process bar" in l for l in s),
          "? shows help", "\n".join(s[:4]))
    check(screen(trace, "?<Esc>") == screen(trace, ""), "Esc leaves help")
    # sizes: columns fall away, the cause keeps room; too small says so
    s = screen(trace, cols=80, lines=24)
    check(s[2].split() == ["Cause", "Maximum", "Total", "Percent"], "80 columns", s[2])
    s = screen(trace, cols=50, lines=12)
    check(s[2].split() == ["Cause", "Maximum", "Percent"], "50 columns", s[2])
    s = screen(trace, cols=30, lines=8)
    check(s[0] == "too small: 30x8 < 40x10", "30x8", s[0])
    s = screen(trace, "<Size=30x8><Size=120x40>", cols=80, lines=24)
    check(s[1].split("  (rows")[0] == want["global"], "resize back to 120x40", s[1])
    s = screen(trace, cols=200, lines=60)
    same_rows(view_rows(s, 2), want["rows"], "200x60 global", s[1])
    s = screen(trace, cols=900, lines=30)
    same_rows(view_rows(s, 2), want["rows"], "900 columns: numbers after a long cause",
              s[1])
    # a colour terminal draws the same text
    check(screen(trace, "<Right><Enter>", term="xterm-256color") ==
          screen(trace, "<Right><Enter>"), "xterm-256color as vt100")


def check_options():
    """latency-analyze's analysis options give the viewer its numbers."""
    tmp = tempfile.mkdtemp()
    try:
        mine = os.path.join(tmp, "mine.trans")
        with open(mine, "w") as f:
            f.write("9\tanon_pipe_read\tPipe read (mine)\n"
                    "9\tpipe_read\tPipe read (mine)\n")
        sets = [["-s", "total"], ["-s", "count"], ["--from", "0.2", "--to", "0.45"],
                ["--sleep-cutoff", "0", "--no-maxtime"],
                ["-s", "avg", "-k", "--from", "100ms"]]
        # tables translate stacks: only the trace with stacks shows them
        for trace, more in ((TRACES[0], [["--trans", mine], ["--no-default-trans"]]),
                            (TRACES[2], [])):
            name = os.path.basename(trace)
            base = text_report(trace)[0]
            for opts in sets + more:
                what = "%s %s" % (name, " ".join(opts))
                want = text_report(trace, opts)
                if not check(len(want) == 1, what + ": latency-analyze gave no report"):
                    continue
                want = want[0]
                s = screen(trace, extra=opts)
                check(s[1].split("  (rows")[0] == want["global"], what + ": global line",
                      "viewer: %r\nreport: %r" % (s[1], want["global"]))
                same_rows(view_rows(s, 2), want["rows"], what + " global", s[1])
                i, title = process_title(s)
                comm, pid = want["procs"][0][0][:2]
                check(title and title.startswith("Process %s (%s)" % (comm, pid)),
                      what + ": the bar starts where the report does", title or "")
                if opts[0] == "-s":
                    check("sort: %s " % {"avg": "average"}.get(opts[1], opts[1]) in s[0],
                          what + ": the title says the sort", s[0])
                # each set changes something, or the test above proves nothing
                check(want != base, what + ": the report is the same as without it")
        check(any("Pipe read (mine)" in l for l in screen(TRACES[0], extra=["--trans", mine])),
              "--trans: the table's text is shown")
        # an empty global table says when kernel threads are all there is
        s = screen(TRACES[4])
        check(s[3] == " (none outside kernel threads: -k counts them here)",
              "empty global table: -k would fill it", "\n".join(s[:4]))
        s = screen(TRACES[4], extra=["-k"])
        check(view_rows(s, 2), "-k fills it", "\n".join(s[:4]))
        # a range cut by --from/--to is not the whole trace: the title says
        # which, from its first event to its last, as the Range line does
        s = screen(TRACES[0], extra=["--from", "0.2", "--to", "0.45"])
        check(" LatencyTOP  range +200.0 ms .. +448.5 ms, 248.5 ms  sort: maximum" in s[0],
              "--from/--to: the title gives the range", s[0])
    finally:
        shutil.rmtree(tmp)


def check_windows():
    trace = TRACES[2]
    want = text_report(trace, ["-w", "5s"])
    check(len(want) == 4, "desktop trace: 4 windows of 5 s", str(len(want)))
    for k, v in enumerate(want):
        s = screen(trace, "]" * (k + 1), extra=["-w", "5s"])
        check(("window %d [0-3]: +" % k) in s[0], "window %d title" % k, s[0])
        check(s[1].split("  (rows")[0] == v["global"], "window %d global line" % k,
              "viewer: %r\nreport: %r" % (s[1], v["global"]))
        same_rows(view_rows(s, 2), v["rows"], "window %d" % k, s[1])
    s = screen(trace, "]]]]]", extra=["-w", "5s"])
    check(s[-1] == "that was the last window", "past the last window", s[-1])
    s = screen(trace, "][", extra=["-w", "5s"])
    check("whole trace" in s[0], "[ back to the whole trace", s[0])
    whole = text_report(trace)[0]
    comm, pid = whole["procs"][1][0][:2]
    for keys in ["<Right>][", "<Right>]]]][[[["]:
        title = process_title(screen(trace, keys, extra=["-w", "5s"]))[1]
        check(title and title.startswith("Process %s (%s)" % (comm, pid)),
              "%s: the chosen process again" % keys, title or "")


def html_page(trace, keys, extra=(), cwd=None):
    """'w' after @keys in a scratch directory: (status line, {name: text})."""
    cwd = cwd or tempfile.mkdtemp(prefix="lv-html-")
    env = dict(os.environ, COLUMNS="100", LINES="30", TERM="vt100")
    r = subprocess.run([LV, "--dump", "-q"] + list(extra) + ["--keys", keys, trace],
                       capture_output=True, text=True, env=env, cwd=cwd)
    check(r.returncode == 0, "w: exit %d" % r.returncode, r.stderr)
    pages = {}
    for n in os.listdir(cwd):
        if not os.path.isfile(os.path.join(cwd, n)):
            continue
        with open(os.path.join(cwd, n), encoding="utf-8") as f:
            pages[n] = f.read()
    status = r.stdout.split("\n")[:-1][-1] if r.stdout else ""
    return status, pages


def html_totals(text, section="global"):
    """The Total column of the page's first table in <section id=...>."""
    part = text.split('<section id="%s">' % section, 1)[1]
    table = part.split("</table>", 1)[0]
    # a row's values: maximum, average, p99, count, total, percent
    return [int(re.findall(r'data-v="([\d.-]+)"', row)[4])
            for row in re.findall(r"<tr class=[^>]*>(.*?)</tr>", table)]


def check_html():
    """w writes the page of what is shown: its range, filter, process."""
    trace = TRACES[2]
    stem = os.path.splitext(os.path.basename(trace))[0]
    rep = json.loads(subprocess.run([LA, "-q", "--format=json", "-w", "5s", trace],
                                    capture_output=True, text=True).stdout)
    status, pages = html_page(trace, "w", ["-w", "5s"])
    check(status == "wrote %s.html" % stem and list(pages) == [stem + ".html"],
          "w: the whole trace's page, said on the status line", status + " " + str(list(pages)))
    page = pages.get(stem + ".html", "")
    check(html_totals(page) == [r["total_ns"] for r in rep["global"]],
          "w: the page's global table is the whole trace's")
    check('"timeline":{"threads":20' in page, "w: the page has a timeline")
    # a window: its own table, its own file
    status, pages = html_page(trace, "]w", ["-w", "5s"])
    page = pages.get(stem + "-window0.html", "")
    check(status == "wrote %s-window0.html" % stem, "]w: window 0's page", status)
    check(html_totals(page) == [r["total_ns"] for r in rep["windows"][0]["global"]],
          "]w: the page's global table is window 0's")
    check("<p class=\"range\">Window 0: +0 s .. +5.00 s" in page, "]w: the page says which window")
    # the filter and the process shown
    second = rep["processes"][1]
    status, pages = html_page(trace, "<Right>w")
    page = pages.get(stem + ".html", "")
    check(re.search(r'<details class="proc" id="p1" open data-name="[^"]*" data-pid="%d"'
                    % second["pid"], page) is not None and page.count(" open data-name") == 1,
          "<Right>w: the process shown is the page's open one")
    letter = rep["processes"][0]["comm"][0]
    status, pages = html_page(trace, "s%sw" % letter)
    page = pages.get(stem + ".html", "")
    check('id="filter" type="search" size="24" placeholder="name or pid (^ for its start)"'
          ' value="^%s"' % letter in page, "s%sw: the page filters as the bar does" % letter)
    # where it cannot write, it says so and goes on
    ro = tempfile.mkdtemp(prefix="lv-html-ro-")
    os.chmod(ro, 0o500)
    if os.geteuid() != 0:
        status, pages = html_page(trace, "w", cwd=ro)
        check(status.startswith("cannot write %s.html: " % stem) and not pages,
              "w in a read-only directory: said why", status)
    else:
        # root writes anywhere: a file of the same name that is a directory
        os.chmod(ro, 0o700)
        os.mkdir(os.path.join(ro, stem + ".html"))
        status, pages = html_page(trace, "w", cwd=ro)
        check(status.startswith("cannot write %s.html: " % stem),
              "w where a directory has the page's name: said why", status)


def check_errors():
    def expect(args, status, pattern, tty_env=None):
        r = run([LV] + args)
        err = r.stderr.strip().split("\n")
        check(r.returncode == status, "%s: exit %d, want %d" % (args, r.returncode, status),
              r.stderr)
        check(re.search(pattern, r.stderr), "%s: stderr lacks /%s/" % (args, pattern),
              r.stderr)
        return err

    expect([], 1, "missing TRACE.dat")
    expect(["/nonexistent/x.dat"], 1, "needs a terminal")
    err = expect(["--dump", "/nonexistent/x.dat"], 2, "^latency-view: /nonexistent/x.dat: ")
    check(len(err) == 1, "a missing file is one line", "\n".join(err))
    err = expect(["--dump", os.path.join(REAL, "qemu-1cpu-function_graph.dat")], 4,
                 "qemu-1cpu-function_graph.dat: no scheduler events")
    check(len(err) == 1, "no sched events is one line", "\n".join(err))
    expect(["--dump", "--keys", "<Nope>", TRACES[0]], 1, "--keys: invalid value '<Nope>'")
    expect(["--dump", "-w", "0", TRACES[0]], 1, "--window: invalid value '0'")
    expect(["--dump", "-s", "size", TRACES[0]], 1, "--sort: invalid value 'size'")
    expect(["--dump", "--from", "2", "--to", "1", TRACES[0]], 1,
           "--to must be later than --from")
    expect(["--dump", "--sleep-cutoff", "x", TRACES[0]], 1, "--sleep-cutoff: invalid")
    r = run([LV, "--dump", "--no-progress", "-s", "maximum", TRACES[0]])
    check(r.returncode == 0 and r.stdout.split("\n")[:-1] == screen(TRACES[0]),
          "--no-progress and -s maximum (the title's word) taken", r.stderr)
    r = run([LV, "--dump", "--from", "1h", TRACES[0]])
    check(r.returncode == 4 and r.stdout == "" and
          r.stderr.startswith("latency-view: ") and
          r.stderr.endswith(": --from 3600.00 s is past the trace's end: no event in "
                            "the range; the trace spans 642.8 ms, from 2669.462672 to "
                            "2670.105497 (--from and --to count from its first event)\n"),
          "--from past the end: an error with the trace's span", r.stderr)
    err = expect(["--dump", "--trans", "/nonexistent.trans", TRACES[0]], 2,
                 "/nonexistent.trans: cannot open")
    check(len(err) == 1, "a missing --trans file is one line", "\n".join(err))
    expect(["--bogus", TRACES[0]], 1, "unrecognized option")
    r = run([LV, "--dump", TRACES[0]], term="nosuchterm")
    check(r.returncode == 1 and r.stderr == "latency-view: TERM=nosuchterm: unknown "
          "terminal type\n", "unknown TERM", r.stderr)
    env = dict(os.environ, COLUMNS="80", LINES="24")
    env.pop("TERM", None)
    r = subprocess.run([LV, "--dump", TRACES[0]], capture_output=True, text=True, env=env)
    check(r.returncode == 0 and r.stdout.startswith(" LatencyTOP"),
          "--dump without TERM: vt100", r.stderr)
    expect(["--keys", "<Size=80x24>", TRACES[0]], 1, "<Size=...> needs --dump")
    expect(["--dump", "--keys", "<Size=80x24x>", TRACES[0]], 1, "--keys: invalid value")
    expect(["--dump", "--keys", "<Size=100000x10>", TRACES[0]], 1,
           "--keys: invalid value '<Size=100000x10>': expected <Size=COLSxLINES>, "
           "each 1 to 1000")
    r = run([LV, "--dump", TRACES[0]], cols=32768, lines=10)
    check(r.returncode == 1 and r.stderr == "latency-view: --dump: curses cannot draw a "
          "32768x10 screen of terminal type 'vt100'\n", "a screen too large", r.stderr)
    # said before the trace is read: this one is never opened
    r = run([LV, "--dump", "/nonexistent.dat"], cols=32768, lines=10)
    check(r.returncode == 1 and r.stderr == "latency-view: --dump: curses cannot draw a "
          "32768x10 screen of terminal type 'vt100'\n", "a screen too large, first",
          r.stderr)
    # a screen that cannot be written is an error, as in latency-analyze
    if os.path.exists("/dev/full"):
        with open("/dev/full", "w") as full:
            r = subprocess.run([LV, "--dump", TRACES[0]], stdout=full, stderr=subprocess.PIPE,
                               text=True, env=dict(os.environ, COLUMNS="80", LINES="24",
                                                   TERM="vt100"))
        check(r.returncode == 2 and r.stderr == "latency-view: stdout: cannot write the "
              "screen: No space left on device\n", "--dump to /dev/full", r.stderr)
    tmp = tempfile.mkdtemp()
    try:
        # a saved report shows as the trace it came from did
        for t in TRACES:
            js = os.path.join(tmp, "r.json")
            with open(js, "w") as f:
                subprocess.run([LA, "--format=json", "-w", "30s", t], stdout=f)
            for keys in ["", "<Right><Right><Enter>", "<Tab><Enter><PgDn>", "]",
                         "o<Right>", "/a<Enter>n", "s ", "?"]:
                a, b = screen(t, keys), screen(js, keys)
                check(a[1:] == b[1:] and a[0].replace(os.path.basename(t), "r.json")
                      == b[0], "%s as JSON, keys %r" % (os.path.basename(t), keys),
                      "\n".join(l for l in difflib_lines(a, b)))
        # several windows, saved: ] and [ walk the same ones
        t = TRACES[2]
        with open(js, "w") as f:
            subprocess.run([LA, "--format=json", "-w", "5s", t], stdout=f)
        for keys in ["]]", "]]]]<Right>", "]]][", "]]]]]"]:
            a, b = screen(t, keys, extra=["-w", "5s"]), screen(js, keys)
            check(a[1:] == b[1:], "windows as JSON, keys %r" % keys,
                  "\n".join(difflib_lines(a, b)))
        # names with control characters and very long ones (a JSON can hold
        # what no kernel would): one line each, the cursor's name in sight
        with open(js) as f:
            doc = json.load(f)
        for k, p in enumerate(doc["processes"][:12]):
            p["comm"] = "P%02d" % k + "x" * 100
        doc["processes"][1]["comm"] = "a\nb\x1b[31m"
        doc["global"][0]["reason"] = "r\nnew\tline"
        with open(js, "w") as f:
            json.dump(doc, f)
        s = screen(js, "<Right>" * 5, cols=100, lines=30)
        i, title = process_title(s)
        check(s[3].startswith(">r?new?line ") and "[P05" in s[i - 1] and
              title.startswith("Process P05"), "odd names stay on their lines",
              "\n".join(s[:i + 1]))
        # cut to 40 with '~', its brackets kept
        check(re.search(r"\[P05x{37}~\]>?$", s[i - 1]),
              "a long name keeps its brackets", s[i - 1])
        s = screen(js, "<Right>", cols=100, lines=30)
        check(process_title(s)[1].startswith("Process a?b?[31m ("),
              "a control character shows as ?", process_title(s)[1] or "")
        with open(js, "w") as f:
            subprocess.run([LA, "--format=json", TRACES[0]], stdout=f)
        r = run([LV, "--dump", "-w", "5s", js])
        check(r.returncode == 0 and "is a saved report: --window cannot change it "
              "(its analysis was fixed when it was saved)" in r.stderr, "options with a saved report",
              r.stderr)
        # rows in whatever order the file has them are shown sorted
        with open(js) as f:
            doc = json.load(f)
        doc["global"].reverse()
        rev = os.path.join(tmp, "rev.json")
        with open(rev, "w") as f:
            json.dump(doc, f)
        maxima = [ns(r[2]) for r in view_rows(screen(rev), 2)]
        check(len(maxima) > 3 and maxima == sorted(maxima, reverse=True),
              "a saved report's rows out of order: shown by maximum", repr(maxima))
        # but -s orders its rows, as it does a trace's, and says nothing
        r = run([LV, "--dump", "-s", "total", js])
        check(r.returncode == 0 and not r.stderr and
              r.stdout.split("\n")[1:-1] == screen(TRACES[0], extra=["-s", "total"])[1:],
              "-s total on a saved report: as on its trace", r.stderr)
        with open(js) as f:
            text = f.read()
        with open(js, "w") as f:
            f.write(text[:len(text) // 2])
        err = expect(["--dump", js], 3, r"^latency-view: .*r.json: not valid JSON: line \d+, "
                     "column \d+: ")
        check(len(err) == 1, "a damaged report is one line", "\n".join(err))
        with open(js, "w") as f:
            g = text.index('"global":[')
            f.write(text[:g] + text[g:].replace('"count":', '"count":-', 1))
        expect(["--dump", js], 3, r"r.json: not a latencytop report: \S+\[0\]\.count: "
               "expected a whole number")
        # a trace cut short: refused, or shown marked partial with --partial
        cut = os.path.join(tmp, "cut.dat")
        with open(TRACES[2], "rb") as f, open(cut, "wb") as g:
            g.write(f.read(3000000))
        expect(["--dump", cut], 3, "cut.dat: ")
        r = run([LV, "--dump", "--partial", cut])
        check(r.returncode == 5 and r.stdout.startswith(" LatencyTOP  PARTIAL") and
              r.stderr.count("\n") == 1 and "(the report is partial)" in r.stderr,
              "--partial: marked, exit 5, one line", "%d %r %r" % (
                  r.returncode, r.stdout[:80], r.stderr))
    finally:
        shutil.rmtree(tmp)
    r = run([LV, "--help"])
    check(r.returncode == 0 and "Usage: latency-view" in r.stdout, "--help")


def cols_of(text):
    """Terminal columns of @text: East Asian wide characters take two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def check_wrap():
    """Long lines wrap at spaces, under their own indent: the i screen's
    trace-cmd command copies whole (it split sched_stat_blocked in two)."""
    t = os.path.join(REAL, "desktop-4cpu-sched_switch.dat")
    for cols in (60, 80, 100):
        s = screen(t, "i", cols=cols, lines=50)
        cmd = [l for l in s if "trace-cmd record" in l]
        check(len(cmd) == 1, "i at %d columns: the command's first line" % cols, "\n".join(s))
        if not cmd:
            continue
        i = s.index(cmd[0])
        lead = len(cmd[0]) - len(cmd[0].lstrip())
        words = cmd[0].split()
        for l in s[i + 1:]:
            if len(l) - len(l.lstrip()) != lead + 4:
                break
            words += l.split()
        check(words[-1] == "<workload>" and "sched_stat_blocked" in words and
              all(w == "-e" or w == "-T" or not w.startswith("-") for w in words[2:]),
              "i at %d columns: the command wraps at spaces, 4 past its indent" % cols,
              "\n".join(s[i:i + 6]))


def check_names():
    """Names in UTF-8, wide, cut, invalid: drawn by columns, never raw."""
    tmp = tempfile.mkdtemp()
    try:
        js = os.path.join(tmp, "names.json")
        r = subprocess.run([LA, "--format=json", TRACES[0]], capture_output=True)
        doc = json.loads(r.stdout)
        names = ["数据库线程", "café-ü", "x\u009b31mRED", "数" * 30, "BADNAME"]
        for p, n in zip(doc["processes"], names):
            p["comm"] = n
        reason = "Ожидание диска 数据库 ü " * 4
        doc["global"][0]["reason"] = reason
        doc["global"][1]["reason"] = "Ждём 数据"	# short: padded by columns
        with open(js, "wb") as f:
            f.write(json.dumps(doc).encode().replace(b"BADNAME", b"bad\xff\xfe\xc3end"))

        def view(keys, cols=100, lines=30, loc="C.UTF-8", lang=None):
            env = dict(os.environ, COLUMNS=str(cols), LINES=str(lines), TERM="vt100",
                       LC_ALL=loc)
            if lang:	# LANG decides
                env.update(LC_ALL="", LC_CTYPE="", LANG=lang)
            r = subprocess.run([LV, "--dump", "-q", "--keys", keys, js],
                               capture_output=True, env=env)
            check(r.returncode == 0, "names: --keys %r exits 0" % keys, r.stderr)
            out = r.stdout.decode("utf-8", "replace").split("\n")[:-1]
            check(len(out) == lines and all(cols_of(l) <= cols for l in out),
                  "names: %d lines, none wider than %d columns, --keys %r" % (lines, cols, keys),
                  "\n".join(out))
            return out

        titles = []
        for k in range(5):
            s = view("<Right>" * k)
            i, title = process_title(s)
            titles.append(title or "")
            if k == 3:
                check(re.search(r"\[%s~\]" % ("数" * 20), s[i - 1]),
                      "a wide name is cut at 40 columns with '~'", s[i - 1])
        check(titles[0].startswith("Process 数据库线程 (") and
              titles[1].startswith("Process café-ü (") and
              titles[2].startswith("Process x?31mRED (") and
              titles[4].startswith("Process bad???end ("),
              "UTF-8 names drawn, a C1 control and invalid bytes as '?'", "\n".join(titles))
        # the long reason is cut to its cell; the numbers after it line up
        s = view("")
        rows = [l for l in s[3:9] if " ms " in l]
        ends = [cols_of(l[:l.index(" ms ")]) for l in rows]
        check(len(rows) >= 3 and rows[0][1:].startswith(reason[:20]) and
              any(l[1:].startswith("Ждём 数据 ") for l in rows) and len(set(ends)) == 1,
              "UTF-8 causes, cut and padded, keep the columns aligned", "\n".join(rows))
        # the details wrap by columns, at spaces, and lose nothing
        s = view("<Enter>", cols=50)
        lead = len(s[1]) - len(s[1].lstrip())
        words = s[1].split()
        for l in s[2:]:
            if not l.startswith(" " * (lead + 4)):
                break
            words += l.split()
        check(" ".join(words).startswith(" ".join(reason.split())),
              "details: a UTF-8 cause wrapped whole, at spaces", "\n".join(s[:8]))
        # a terminal that is not UTF-8 sees '?' for every byte it cannot show
        s = view("<Right>", loc="C")
        check((process_title(s)[1] or "").startswith("Process caf??-?? ("),
              "in the C locale, bytes over 0x7e as '?'", process_title(s)[1] or "")
        # a search types a UTF-8 name a byte at a time; <BS> takes a character
        # the global causes with "数据" come first on the screen, then the process
        s = view("<Right>/数据<Enter>")
        check(s[-1].startswith("match 1 of 3: Ожидание диска 数据库 ü"),
              "a UTF-8 search finds its cause", s[-1])
        s = view("<Right>/数据<Enter>n")
        check(s[-1].rstrip() == "match 2 of 3: Ждём 数据 (global table)",
              "a UTF-8 search finds its second cause", s[-1])
        s = view("<Right>/数据<Enter>nn")
        check((process_title(s)[1] or "").startswith("Process 数据库线程 (") and
              s[-1].startswith("match 3 of 3: process 数据库线程 ("),
              "a UTF-8 search finds its process", process_title(s)[1] or "")
        s = view("/数据<BS>")
        check(s[-1].rstrip() == "/数", "<BS> in a search takes a whole UTF-8 character",
              s[-1])
        # letters of either case alike, beyond ASCII too where the locale decodes them
        s = view("/CAFÉ-Ü<Enter>")
        check((process_title(s)[1] or "").startswith("Process café-ü ("),
              "a search is case-blind for UTF-8 letters (CAFÉ-Ü finds café-ü)",
              process_title(s)[1] or "")
        # a charset that is not UTF-8 (the C locale's) is a byte a character
        s = view("/xé<BS>", loc="C")
        check(s[-1].rstrip() == "/x?", "in the C locale <BS> takes one byte", s[-1])
        # the search holds 63 bytes: a character that does not fit is dropped whole
        s = view("/a" + "数" * 21)
        check(s[-1].rstrip() == "/a" + "数" * 20,
              "a search too long for its 63 bytes keeps whole characters", s[-1])
        # a UTF-8 locale that is not installed still means a UTF-8 terminal
        s = view("<Right>", lang="zz_ZZ.UTF-8")
        check((process_title(s)[1] or "").startswith("Process café-ü ("),
              "LANG=zz_ZZ.UTF-8 (not installed): UTF-8 drawn", process_title(s)[1] or "")
        # wide names at the bar's edges: the markers keep their own columns
        for n, p in enumerate(doc["processes"]):
            p["comm"] = "漢" * (30 if n == 0 else 20 if n == 1 else 2)
        with open(js, "w") as f:
            json.dump(doc, f)
        for cols, keys in [(63, ""), (99, ""), (101, ""), (41, "<Right>" * 5),
                           (41, "<Right>" * 6), (50, "<Right>" * 4)]:
            s = view(keys, cols=cols, lines=12)
            i, _ = process_title(s)
            bar = s[i - 1] if i else ""
            check(bar.endswith(">") and cols_of(bar) == cols and
                  (not keys or bar.startswith("<")),
                  "wide names: the bar fills %d columns, '<' and '>' at its edges, "
                  "--keys %r" % (cols, keys), bar)
    finally:
        shutil.rmtree(tmp)


def random_walk():
    """Any keys, any sizes, every trace: exit 0 and a full screen."""
    keys = ["<Up>", "<Down>", "<Left>", "<Right>", "<PgUp>", "<PgDn>", "<Home>",
            "<End>", "<Enter>", "<Esc>", "<BS>", "<Tab>", "<lt>", "s", "o", "/",
            "n", "]", "[", "?", "i", "a", "l", "h", "j", "k", "1", " ", "<Size=40x10>",
            "<Size=200x50>", "<Size=20x5>", "<Size=80x24>"]
    rnd = random.Random(1)
    for i in range(60):
        seq = "".join(rnd.choice(keys) for _ in range(rnd.randint(1, 80)))
        s = screen(TRACES[i % len(TRACES)], seq, cols=80, lines=24,
                   extra=["-w", rnd.choice(["1s", "5s", "30s"])])
        if not s[0].startswith(" LatencyTOP"):
            continue	# details, help, or too small
        check(sum(l.startswith(">") for l in s) <= 1, "one cursor at most: " + seq,
              "\n".join(s))
        # a table cut short says so; one that is not has no gap
        rows = view_rows(s, 2)
        gap = s[3 + len(rows)] == "" if 3 + len(rows) < len(s) else False
        check(not (gap and "(rows" in s[1]), "rows hidden under a gap: " + seq,
              "\n".join(s))


def open_terminal():
    """The viewer on the first trace in a pseudo-terminal: (pid, fd)."""
    pid, fd = pty.fork()
    if pid == 0:
        os.environ.update(TERM="xterm", LINES="30", COLUMNS="100")
        os.execv(LV, [LV, "-q", TRACES[0]])
    return pid, fd


def read_until(fd, seen, marker):
    """@seen and what the terminal writes until @marker, for up to 20 s."""
    end = time.time() + 20
    while marker not in seen and time.time() < end:
        if select.select([fd], [], [], 0.2)[0]:
            try:
                seen += os.read(fd, 65536)
            except OSError:
                break
    return seen


def wait_gone(pid, fd, seen):
    """(wait status or None after 20 s, @seen and all the terminal wrote)."""
    end = time.time() + 20
    status = None
    while time.time() < end:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if select.select([fd], [], [], 0.2)[0]:
            try:
                seen += os.read(fd, 65536)
            except OSError:
                pass
    else:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        return None, seen
    try:	# what it wrote last, still in the pty
        while select.select([fd], [], [], 0.5)[0]:
            data = os.read(fd, 65536)
            if not data:
                break
            seen += data
    except OSError:
        pass
    return status, seen


def check_terminal():
    """On a real (pseudo) terminal: arrows as the terminal sends them, Enter,
    q out of details, q to quit with status 0 and the screen given back."""
    want = text_report(TRACES[0])[0]
    second = want["procs"][1][0]
    pid, fd = open_terminal()

    def until(marker, what):
        seen = read_until(fd, b"", marker)
        return check(marker in seen, "terminal: " + what, repr(seen[-300:]))

    if until(b"Global latencies", "the first screen"):
        # Right, as xterm sends it in keypad mode (terminfo's kcuf1)
        right = subprocess.run(["tput", "-T", "xterm", "kcuf1"],
                               capture_output=True).stdout or b"\x1bOC"
        os.write(fd, right)
        # curses sends only what changed: not "Process ", already there
        until(("%s (%s)  Total" % second[:2]).encode(), "Right shows the second process")
        os.write(fd, b"\r")
        until(b"Details", "Enter shows details")
        os.write(fd, b"q")
        time.sleep(0.2)
        os.write(fd, b"q")
    status, seen = wait_gone(pid, fd, b"")
    if status is None:
        fail("terminal: q did not quit")
        return
    check(os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0,
          "terminal: exit status 0", str(status))
    # endwin() leaves the alternate screen xterm's way
    check(b"\x1b[?1049l" in seen, "terminal: the screen is given back", repr(seen[-80:]))
    os.close(fd)


def check_interrupt():
    """Ctrl-C on the terminal: the screen given back, then death by SIGINT
    (a shell's 130), not curses' exit 1, which says "invalid arguments"."""
    pid, fd = open_terminal()
    seen = read_until(fd, b"", b"Global latencies")
    os.write(fd, b"\x03")	# the tty's VINTR: SIGINT to the viewer
    status, seen = wait_gone(pid, fd, seen)
    if status is None:
        fail("interrupt: Ctrl-C did not stop it")
        return
    check(os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGINT,
          "interrupt: Ctrl-C kills it by SIGINT", str(status))
    check(b"\x1b[?1049l" in seen, "interrupt: the screen is given back",
          repr(seen[-80:]))
    os.close(fd)


def search_matches(trace, needle, extra=()):
    """What the viewer's search finds, as its help says, worked out from
    the JSON report: in the screen's order, the global table's causes,
    then each process of the bar (the report's order): the process, by
    its name, pid, "name(pid)", a thread's name or tid; then its table's
    causes.  Each as the status line names it."""
    r = json.loads(subprocess.run([LA, "-q", "-f", "json"] + list(extra) + [trace],
                                  capture_output=True, text=True).stdout)
    n = needle.lower()

    def cause(x):
        return x["reason"] + (" (%s)" % x["argument"] if x["argument"] else "")

    def hit(x):
        return n in x["reason"].lower() or n in x["argument"].lower()

    out = ["%s (global table)" % cause(x) for x in r["global"] if hit(x)]
    for p in r["processes"]:
        both = "%s(%d)" % (p["comm"], p["pid"])
        if n in p["comm"].lower() or needle == str(p["pid"]) or \
                ("(" in n and n in both.lower()):
            out.append("process %s (%d)" % (p["comm"], p["pid"]))
        else:
            t = [t for t in p["threads"] if n in t["comm"].lower() or needle == str(t["tid"])]
            if t:
                out.append("process %s (%d), thread %s (%d)" % (p["comm"], p["pid"],
                                                                 t[0]["comm"], t[0]["tid"]))
        out += ["%s in %s (%d)" % (cause(x), p["comm"], p["pid"])
                for x in p["reasons"] if hit(x)]
    return out


def check_search_order(trace, needle, least):
    """/needle, then n through every match and round, then N back: the
    status line says each, "match k of n", in the screen's order."""
    name = os.path.basename(trace)
    want = search_matches(trace, needle)
    n = len(want)
    if not check(n >= least, "%s: /%s has %d matches or more (%d)" % (name, needle, least, n),
                 "\n".join(want)):
        return
    for k in range(n + 1):
        s = screen(trace, "/%s<Enter>%s" % (needle, "n" * k), cols=200)
        line = "match %d of %d%s: %s" % (k % n + 1, n, ", from the top again" if k == n else "",
                                         want[k % n])
        if not check(s[-1].rstrip() == line[:200], "%s: /%s, n x %d: %s" % (name, needle, k, line),
                     s[-1]):
            return
    for k in range(1, n + 1):
        s = screen(trace, "/%s<Enter>%s" % (needle, "N" * k), cols=200)
        i = (-k) % n
        line = "match %d of %d%s: %s" % (i + 1, n, ", from the end again" if k == 1 else "",
                                         want[i])
        if not check(s[-1].rstrip() == line[:200], "%s: /%s, N x %d: %s" % (name, needle, k, line),
                     s[-1]):
            return
    # where n leaves it: the process shown, the row under the cursor
    last = screen(trace, "/%s<Enter>%s" % (needle, "n" * (n - 1)), cols=200)
    m = re.match(r"(.*) in (.*) \((\d+)\)$", want[-1])
    if m:
        i, title = process_title(last)
        cur = [r[1] for r in view_rows(last, i + 1) if r[0]]
        check(title.startswith("Process %s (%s)" % (m.group(2), m.group(3))) and
              cur and m.group(1).startswith(cur[0].rstrip("~")),
              "%s: the last match of /%s shown: %s" % (name, needle, want[-1]),
              "%r %r" % (title, cur))


def check_search():
    """Search over every table: the global one, then each process's name,
    threads and table, in the screen's order, n and N round both ways;
    on the samples and on a synthetic trace with processes named alike
    and a thread named apart (search.trs)."""
    check_search_order(TRACES[0], "fsync", 3)
    # the bar walked from a match: n goes on from the process walked to
    procs = text_report(TRACES[0])[0]["procs"]
    bashes = [k for k, p in enumerate(procs) if "bash" in p[0][0]]
    nxt = [k for k in bashes if k > bashes[0] + 1] or bashes
    _, title = process_title(screen(TRACES[0], "/bash<Enter><Right>n"))
    check(len(bashes) > 2 and title.startswith("Process %s (%s)" % procs[nxt[0]][0][:2]),
          "/bash, Right, n: the first bash after the process walked to", title)
    check_search_order(TRACES[0], "pipe", 4)
    check_search_order(os.path.join(SAMPLES, "local-stacks-pipeline.dat"), "page fault", 2)
    tmp = tempfile.mkdtemp(prefix="lt-view-")
    trace = os.path.join(tmp, "search.dat")
    subprocess.run([sys.executable, MKTRACE, os.path.join(HERE, "search.trs"), "-o", trace],
                   check=True)
    i, _ = process_title(screen(trace))
    check(screen(trace)[i - 1].split() == ["[app]", "worker(300)", "worker(301)", "solo"],
          "search.trs: pids in the bar only where a name repeats", screen(trace)[i - 1])
    check_search_order(trace, "fsync", 3)
    check(search_matches(trace, "fsync") == [
        "fsync system call (global table)", "fsync system call in app (200)",
        "fsync system call in worker (300)"], "search.trs: /fsync's matches as worked out by hand",
        repr(search_matches(trace, "fsync")))
    for needle, want in (("app-io", "process app (200), thread app-io (201)"),
                         ("201", "process app (200), thread app-io (201)"),
                         ("worker(301", "process worker (301)"),
                         ("WORKER", "process worker (300)")):
        s = screen(trace, "/%s<Enter>" % needle)
        _, title = process_title(s)
        pid = re.search(r"\((\d+)\)", want).group(1)
        check(s[-1].rstrip() == "match 1 of %d: %s" % (len(search_matches(trace, needle)), want)
              and title.startswith("Process %s (%s)" % (want.split()[1], pid)),
              "search.trs: /%s finds %s" % (needle, want), "%r %r" % (s[-1], title))
    s = screen(trace, "sw/solo<Enter>")
    check(s[-1].rstrip() == "'solo': no match among the processes starting with 'w' (s Space: all)",
          "search.trs: a search the filter hides says so", s[-1])
    # moved away from the match, n goes on from the cursor
    s = screen(trace, "/fsync<Enter><Tab>n")
    check(s[-1].rstrip() == "match 3 of 3: fsync system call in worker (300)",
          "search.trs: from app's fsync row (Tab), n finds worker's", s[-1])
    # the same on a terminal: the bar's names, /, n round, N back
    status, seen = pty_session("xterm", [
        (b"/fsync\r", b"(global table)"), (b"n", b"in app (200)"),
        (b"n", b"in worker (300)"), (b"n", b"from the top again"), b"N"], trace=trace)
    # curses draws only what changed: after the wrap, N changes "top" to
    # "end" and the global row back to worker's
    wrap = seen.find(b"from the top again")
    check(status is not None and os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0 and
          b"worker(300)" in seen and b"worker(301)" in seen and wrap > 0 and
          b"end" in seen[wrap:] and b"in worker (300)" in seen[wrap:],
          "terminal: names with pids in the bar, /fsync, n to the last and round, N back",
          repr(seen[-300:]))
    shutil.rmtree(tmp)


def check_names_apart():
    """Processes named alike are told apart in the bar by their pids: on
    every sample, the bar (a screen wide enough for all of it) names the
    report's processes in order, with "(pid)" exactly where another
    process has the name, and no two names read the same."""
    for trace in sorted(os.path.join(SAMPLES, f) for f in os.listdir(SAMPLES)
                        if f.endswith(".dat")):
        name = os.path.basename(trace)
        want = text_report(trace)[0]["procs"]
        s = screen(trace, "", cols=3000, lines=24)
        i, _ = process_title(s)
        bar = re.findall(r"[\[ ]([^\s\[\]<>]+)[\] ]", s[i - 1] + " ")
        labels = [bar_name(want, j) for j in range(len(want))]
        check(bar == labels, "%s: the bar's %d names, with pids where names repeat"
              % (name, len(labels)), "\n".join(difflib_lines(bar, labels)))
        check(len(set(bar)) == len(bar), "%s: no two names in the bar read the same "
              "(%d of %d with their pids)" % (name, sum("(" in b for b in bar), len(bar)))


def check_keys_more():
    """htop's F-keys, what an unknown key and the last match say."""
    trace = TRACES[0]
    check(screen(trace, "<F1>")[0].startswith(" Help"), "F1: help")
    check(screen(trace, "<F3>x")[-1].rstrip() == "/x", "F3: the search prompt")
    check("sort: total" in screen(trace, "<F6>")[0], "F6: sort")
    s = screen(trace, "s<F4>")
    check(screen(trace, "<F4>")[-1].startswith("filter: the first letter"), "F4: the filter")
    s = screen(trace, "<F10>o")
    check("sort: maximum" in s[0], "F10 quits: no key after it counts", s[0])
    check(screen(trace, "x")[-1].rstrip() == "unknown key x: ? or F1 lists the keys",
          "an unknown key says so", screen(trace, "x")[-1])
    n = len(search_matches(trace, "on a file"))
    s = screen(trace, "/on a file<Enter>" + "n" * n)
    check(s[-1].rstrip() == "match 1 of %d, from the top again: fsync() on a file "
          "(global table)" % n, "n past the last match says so", s[-1])
    bashes = [p for p in text_report(trace)[0]["procs"] if p[0][0] == "bash"]
    s = screen(trace, "/bash<Enter>" + "n" * len(bashes))
    check(s[-1].startswith("match 1 of %d, from the top again: process bash (%s)" %
                           (len(bashes), process_title(screen(trace, "/bash<Enter>"))[1]
                            .split("(")[1].split(")")[0])),
          "n after the last of %d bash: back to the first" % len(bashes), s[-1])
    # every key the help lists works: the table's keys, checked one by one
    # in view/keys; here the help at any width lists F-keys too
    h = "\n".join(screen(trace, "?", cols=80, lines=60))
    check(all(k in h for k in ("F1", "F3", "F4", "F6", "F10")), "F-keys in the help", h)


def widest_cause(trace, extra=()):
    r = json.loads(subprocess.run([LA, "-q", "-f", "json"] + list(extra) + [trace],
                                  capture_output=True, text=True).stdout)
    rows = list(r["global"]) + [x for p in r["processes"] for x in p["reasons"]]
    return max(cols_of(x["reason"] + (" (%s)" % x["argument"] if x["argument"] else ""))
               for x in rows)


def check_widths():
    """The cases that broke at 45, 80 and 250 columns."""
    trace = TRACES[0]
    for cols in (45, 80, 250):
        # help: what a key does starts at column 18, its wrapped lines too
        s = screen(trace, "?", cols=cols, lines=80)
        rows = [l for l in s[1:-1] if l.strip()]
        keyrows = [i for i, l in enumerate(s) if re.match(r"^  \S", l)]
        check(keyrows, "%d columns: help rows" % cols, "\n".join(s))
        bad = []
        for i in keyrows:
            for l in s[i + 1:]:
                if not l.strip() or re.match(r"^(  \S|\S)", l):
                    break
                if len(l) - len(l.lstrip()) != 18:
                    bad.append(l)
        check(not bad, "%d columns: the help's wrapped lines start under its words, "
              "no staircase" % cols, "\n".join(bad[:5]))
        check(all(len(l) <= cols for l in rows), "%d columns: help fits" % cols)
    # details of "Scheduler: waiting for cpu": the stacks heading says why none
    want = text_report(trace)[0]
    k = [r[0] for r in want["rows"]].index("Scheduler: waiting for cpu")
    s = screen(trace, "<Down>" * k + "<Enter>", cols=80, lines=40)
    i = next((i for i, l in enumerate(s) if l.startswith("Kernel stacks")), None)
    check(s[1] == "Scheduler: waiting for cpu" and i is not None and
          ("none" in s[i] or (i + 1 < len(s) and s[i + 1].strip())),
          "details of waiting for cpu: the stacks heading is not left over nothing",
          "\n".join(s[:i + 2] if i else s))
    # 250 columns: the numbers right after the widest cause, not 160 columns on
    for cols in (120, 250, 400):
        s = screen(trace, cols=cols, lines=30)
        w = widest_cause(trace)
        at = s[2].index("Maximum")
        check(at <= 1 + w + 11 and at >= 1 + w, "%d columns: Maximum at %d, after the "
              "widest cause (%d columns)" % (cols, at, w), s[2])
        same_rows(view_rows(s, 2), want["rows"], "%d columns" % cols, s[1])


def check_mouse():
    """Clicks and the wheel as --keys plays them, where the rows are drawn."""
    trace = TRACES[0]
    want = text_report(trace)[0]
    s0 = screen(trace, "", cols=120, lines=40)
    for k in (1, 2, 4):
        # line 3 is the first row (a click on the cursor's own: details)
        s = screen(trace, "<Click=10,%d>" % (3 + k), cols=120, lines=40)
        check(s == screen(trace, "<Down>" * k, cols=120, lines=40),
              "a click on global row %d puts the cursor there" % k)
    s = screen(trace, "<Click=10,5><Click=10,5>", cols=120, lines=40)
    check(s[0].startswith(" Details") and s[1] == want["rows"][2][0].rstrip("~"),
          "a second click on the cursor's row: its details", "\n".join(s[:3]))
    # the bar: a click on the third name shows that process
    i, _ = process_title(s0)
    bar = s0[i - 1]
    # the third name's first letter (names hold no blank here)
    x = [m.start() for m in re.finditer(r"[^\s\[\]<>]+", bar)][2]
    s = screen(trace, "<Click=%d,%d>" % (x, i - 1), cols=120, lines=40)
    check(process_title(s)[1] == process_title(screen(trace, "<Right><Right>", cols=120,
                                                      lines=40))[1],
          "a click on a name in the bar shows its process", process_title(s)[1])
    # a click in the process table moves the cursor there
    s = screen(trace, "<Click=10,%d>" % (i + 3), cols=120, lines=40)
    check(s == screen(trace, "<Tab><Down>", cols=120, lines=40),
          "a click on the process table's second row")
    # the wheel scrolls the details as three lines down
    check(screen(trace, "<Enter><WheelDown=10,10>", cols=60, lines=12) ==
          screen(trace, "<Enter>jjj", cols=60, lines=12), "the wheel scrolls details")
    check(screen(trace, "<Enter>jjjj<WheelUp=10,10>", cols=60, lines=12) ==
          screen(trace, "<Enter>j", cols=60, lines=12), "the wheel scrolls back")
    # and a table's rows, the cursor kept in sight
    s = screen(trace, "<WheelDown=10,5>", cols=120, lines=16)
    check("(rows 4-" in s[1], "the wheel scrolls the global table by 3 rows", s[1])


def check_filters():
    """--pid, --comm and --max-processes: the viewer shows what latency-analyze does."""
    trace = TRACES[0]
    want = text_report(trace)[0]
    comm, pid = want["procs"][1][0][:2]
    for opts in (["--pid", pid], ["--comm", "bash"], ["-c", "b*", "-p", pid]):
        w = text_report(trace, opts)[0]
        s = screen(trace, extra=opts)
        check(s[1].split("  (rows")[0] == w["global"] and "of the selected tasks" in s[1],
              "%s: the global line of the selected tasks" % " ".join(opts),
              "viewer: %r\nreport: %r" % (s[1], w["global"]))
        same_rows(view_rows(s, 2), w["rows"], " ".join(opts) + " global", s[1])
        i, title = process_title(s)
        check(title.startswith("Process %s (%s)" % w["procs"][0][0][:2]),
              " ".join(opts) + ": the bar starts at the report's first section", title)
    s = screen(trace, extra=["-P", "2"])
    i, _ = process_title(s)
    check(len(re.findall(r"[^\s\[\]<>]+", s[i - 1])) == 2 and
          not s[i - 1].endswith(">"), "-P 2: two processes in the bar", s[i - 1])


def pty_session(term, keys=(), env=None, cols=100, lines=30, trace=None):
    """The viewer on a pseudo-terminal of type @term (on @trace, else the
    first trace): what it wrote, after each of @keys (bytes, or (bytes,
    marker) to wait for) and then q."""
    pid, fd = pty.fork()
    if pid == 0:
        os.environ.update(TERM=term, LINES=str(lines), COLUMNS=str(cols))
        os.environ.pop("NO_COLOR", None)
        os.environ.update(env or {})
        os.execv(LV, [LV, "-q", trace or TRACES[0]])
    seen = read_until(fd, b"", b"Global latencies")
    for k in keys:
        k, marker = k if isinstance(k, tuple) else (k, None)
        os.write(fd, k)
        if marker:
            seen = read_until(fd, seen, marker)
        else:	# what it draws in answer, for a moment
            end = time.time() + 0.5
            while time.time() < end:
                if select.select([fd], [], [], 0.1)[0]:
                    try:
                        seen += os.read(fd, 65536)
                    except OSError:	# it quit: the terminal is gone
                        break
    try:
        os.write(fd, b"q")
    except OSError:
        pass
    status, seen = wait_gone(pid, fd, seen)
    os.close(fd)
    return status, seen


def check_terminal_more():
    """Colour, and the mouse as xterm sends it, on a pseudo-terminal."""
    want = text_report(TRACES[0])[0]
    red = subprocess.run(["tput", "-T", "xterm-256color", "setaf", "1"],
                         capture_output=True).stdout
    cyan = subprocess.run(["tput", "-T", "xterm-256color", "setab", "6"],
                          capture_output=True).stdout
    _, seen = pty_session("xterm-256color")
    check(red and red in seen and cyan in seen, "xterm-256color: in colour",
          repr(seen[:200]))
    # the worst row (the largest maximum) is drawn right after red
    worst = want["rows"][0][0].rstrip("~")[:12].encode()
    check(any(worst in seen[i:i + 80] for i in [m.start() for m in re.finditer(re.escape(red), seen)]),
          "the worst row stands out in red", worst)
    for term, env, what in (("xterm-256color", {"NO_COLOR": "1"}, "NO_COLOR"),
                            ("vt100", {}, "vt100"), ("xterm-mono", {}, "xterm-mono")):
        if subprocess.run(["infocmp", term], capture_output=True).returncode:
            continue	# no such terminfo entry here
        _, seen = pty_session(term, env=env)
        colours = re.findall(rb"\x1b\[(?:3|4)[0-7]m|\x1b\[(?:38|48);5;\d+m", seen)
        check(not colours and b"Global latencies" in seen, what + ": no colour, still drawn",
              repr(colours[:5]))
        check(b"\x1b[7m" in seen or b"\x1b[1m" in seen or b"\x1b[0;7m" in seen
              or b"\x1b[0;1m" in seen, what + ": reverse or bold marks what colour would",
              repr(seen[:300]))
    # the mouse as xterm reports it (its kmous: SGR mode, 1-based), a
    # click on the third global row, then Enter: that row's details
    kmous = subprocess.run(["tput", "-T", "xterm", "kmous"], capture_output=True).stdout
    if kmous == b"\x1b[<":
        click = lambda x, y: b"\x1b[<0;%d;%dM\x1b[<0;%d;%dm" % (x + 1, y + 1, x + 1, y + 1)
        wheel = lambda x, y: b"\x1b[<65;%d;%dM" % (x + 1, y + 1)
    else:
        click = lambda x, y: b"\x1b[M" + bytes([32, 33 + x, 33 + y]) + b"\x1b[M" + bytes([35, 33 + x, 33 + y])
        wheel = lambda x, y: b"\x1b[M" + bytes([32 + 65, 33 + x, 33 + y])
    cause = want["rows"][2][0].rstrip("~").encode()
    status, seen = pty_session("xterm", [(click(10, 5), None), (b"\r", b"Details")])
    check(b"Details" in seen and cause in seen.split(b"Details")[-1],
          "terminal: an xterm click on the third row, Enter: its details", repr(seen[-300:]))
    # htop's F-keys as xterm sends them: F1 the help, F10 quits from the tables
    kf = lambda n: subprocess.run(["tput", "-T", "xterm", "kf%d" % n],
                                  capture_output=True).stdout
    status, seen = pty_session("xterm", [(kf(1), b"Help"), (b"\x1b", b"Global"),
                                         (kf(6), b"sorted by total"), (kf(10), None)])
    check(b"Help" in seen and b"sorted by total" in seen and status is not None and
          os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0,
          "terminal: F1 help, F6 sort, F10 quits", repr(seen[-200:]))
    # the wheel in the process bar's line walks the bar: the second process
    i, _ = process_title(screen(TRACES[0], "", cols=100, lines=30))
    second = ("%s (%s)  Total" % want["procs"][1][0][:2]).encode()
    status, seen = pty_session("xterm", [(wheel(50, i - 1), second)])
    check(second in seen, "terminal: the wheel over the bar walks it", repr(seen[-200:]))


for t in TRACES:
    check_trace(t)
check(own_cause_searches, "a trace has a cause only a process's table has, to search")
check_terminal()
check_interrupt()
check_keys()
check_windows()
check_html()
check_options()
check_errors()
check_names()
check_wrap()
random_walk()
check_keys_more()
check_search()
check_names_apart()
check_widths()
check_mouse()
check_filters()
check_terminal_more()
if failures:
    print("view/screens: %d checks failed" % failures)
    sys.exit(1)
print("view/screens: all checks passed")
