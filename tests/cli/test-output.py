#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""latency-analyze's text and CSV as files, pipes and terminals get them.

- Outside a terminal no cause is cut: every row of the JSON report is
  found whole in the text written to a file (-o, a redirection) or a
  pipe, so that grep finds it.
- On a terminal (a pseudo-terminal here) the tables fit its width, from
  COLUMNS or, without it, from the size the terminal says: no line wider,
  long causes cut with '~' and the numbers still the JSON's.
- CSV has every field of a JSON row, with the same values row by row, but
  the ones docs/report-schema.md names as left out.

usage: test-output.py LATENCY_ANALYZE SAMPLES_DIR SCHEMA_DOC
"""
import csv
import fcntl
import io
import json
import os
import pty
import re
import struct
import subprocess
import sys
import tempfile
import termios

LA, SAMPLES, DOC = sys.argv[1:4]
# "vfork(): waiting for the child to exec or exit", 46 columns
LONG = os.path.join(SAMPLES, "local-stacks-compile.dat")
failures = 0


def check(cond, what, detail=""):
    global failures
    if not cond:
        failures += 1
        print("FAIL: " + what)
        if detail:
            print("  " + str(detail)[:2000].replace("\n", "\n  "))
    return cond


def causes(rep):
    """Every cause of every table, as the text shows it whole."""
    rows = list(rep["global"])
    for p in rep["processes"]:
        rows += p["reasons"]
    return {r["reason"] + (" (%s)" % r["argument"] if r["argument"] else "") for r in rows}


def table_rows(text):
    """The rows of every table: the lines under a "Cause" head."""
    rows, inside = [], False
    for line in text.split("\n"):
        if line.lstrip().startswith("Cause "):
            inside = True
        elif not line.strip() or line.lstrip().startswith("..."):
            inside = False
        elif inside:
            rows.append(line)
    return rows


def on_terminal(args, cols=None, env_columns=None):
    """latency-analyze's stdout on a pseudo-terminal of @cols columns
    (COLUMNS=@env_columns when given): the text it wrote."""
    pid, fd = pty.fork()
    if pid == 0:
        env = dict(os.environ)
        env.pop("COLUMNS", None)
        if env_columns is not None:
            env["COLUMNS"] = str(env_columns)
        # sized before the exec: set by the parent, a busy machine could
        # let the program ask for the size first
        if cols:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 50, cols, 0, 0))
        os.execve(LA, [LA] + args, env)
    out = b""
    while True:
        try:
            data = os.read(fd, 65536)
        except OSError:
            break
        if not data:
            break
        out += data
    os.waitpid(pid, 0)
    os.close(fd)
    return out.decode().replace("\r\n", "\n")


def check_whole():
    rep = json.loads(subprocess.run([LA, "-q", "-f", "json", LONG],
                                    capture_output=True, text=True).stdout)
    want = causes(rep)
    longest = max(want, key=len)
    check(len(longest) > 44, "the sample has a cause longer than the old cut at 44", longest)
    tmp = tempfile.mkdtemp()
    out = os.path.join(tmp, "r.txt")
    try:
        subprocess.run([LA, "-q", "-o", out, LONG], check=True)
        with open(out) as f:
            by_o = f.read()
        with open(out, "w") as f:
            subprocess.run([LA, "-q", LONG], stdout=f, check=True)
        with open(out) as f:
            redirected = f.read()
    finally:
        subprocess.run(["rm", "-rf", tmp])
    piped = subprocess.run([LA, "-q", LONG], capture_output=True, text=True).stdout
    # COLUMNS does not cut a file: it is the terminal's
    narrow = subprocess.run([LA, "-q", LONG], capture_output=True, text=True,
                            env=dict(os.environ, COLUMNS="40")).stdout
    for what, text in (("-o FILE", by_o), ("> FILE", redirected), ("a pipe", piped),
                       ("a pipe, COLUMNS=40", narrow)):
        rows = table_rows(text)
        shown = {re.split(r"\s{2,}", r.strip())[0] for r in rows}
        check(not any(re.search(r"~\s", r) for r in rows), what + ": no cause cut with '~'",
              [r for r in rows if "~" in r][:3])
        check(want <= shown, what + ": every cause whole", sorted(want - shown)[:5])
        check(any(l.startswith(longest + " ") for l in text.split("\n")) and
              "exit" in "".join(l for l in text.split("\n") if "vfork" in l),
              what + ": grep finds the long cause's row", longest)
    check(by_o == redirected == piped == narrow, "the same text in files and pipes")
    return rep


def check_terminal(rep):
    maxima = {}
    for r in rep["global"]:
        maxima[r["reason"]] = r["max_ns"]
    for cols, env_columns in ((80, None), (100, None), (60, 72), (300, 250)):
        width = env_columns or cols
        text = on_terminal(["-q", LONG], cols, env_columns)
        what = "terminal of %d columns%s" % (cols, ", COLUMNS=%d" % env_columns
                                             if env_columns else "")
        rows = table_rows(text)
        check(rows, what + ": tables written", text[:300])
        check(all(len(r) <= width for r in rows), what + ": no table line wider than %d" % width,
              [r for r in rows if len(r) > width][:3])
        cut = [r for r in rows if re.match(r"^\s*\S.*?~\s", r)]
        longest = max(causes(rep), key=len)
        heads = [l for l in text.split("\n") if l.startswith("Cause ")]
        if len(longest) + len(heads[0]) - heads[0].index("Maximum") + 2 > width:
            check(cut and all(longest.startswith(r.strip().split("~")[0]) for r in cut
                              if r.startswith(longest[:10])),
                  what + ": the long cause cut with '~'", rows[:4])
        else:
            check(not cut and any(r.startswith(longest + " ") for r in rows),
                  what + ": room for every cause: none cut", cut[:3])
        # each global row's numbers are still the JSON's: its maximum
        g = table_rows(text.split("\nProcess ")[0])
        check(len(g) == len(rep["global"]), what + ": every global row", len(g))


def doc_not_in_csv():
    """The row fields the schema says CSV leaves out: `a` and `b` in its
    sentence "Every field of a JSON row is a column but ..."."""
    with open(DOC) as f:
        text = " ".join(f.read().split())
    m = re.search(r"Every field of a JSON row is a column but [^:]*: (.*?)\.\s", text)
    if not check(m, DOC + ": says which row fields CSV lacks"):
        return set()
    return set(re.findall(r"`(\w+)`\s+\(", m.group(1)))


def check_csv():
    left_out = doc_not_in_csv()
    for trace in (LONG, os.path.join(SAMPLES, "kernel-module-6.1.dat")):
        name = os.path.basename(trace)
        rep = json.loads(subprocess.run([LA, "-q", "-f", "json", trace],
                                        capture_output=True, text=True).stdout)
        rows = list(csv.reader(io.StringIO(subprocess.run(
            [LA, "-q", "-f", "csv", trace], capture_output=True, text=True).stdout)))
        head, body = rows[0], rows[1:]
        fields = set()
        tables = [("global", None, rep["global"])]
        for p in rep["processes"]:
            tables.append(("process", p, p["reasons"]))
            for t in p["threads"]:
                tables.append(("thread", t, t["reasons"]))
        for _, _, t in tables:
            for r in t:
                fields |= set(r)
        missing = fields - set(head) - left_out
        check(not missing, name + ": every JSON row field is a CSV column or said not to be",
              sorted(missing))
        check(left_out and not (left_out & set(head)) and left_out <= fields,
              name + ": the fields said to be left out are row fields, and out", left_out)
        # row by row, in the same order, the same values
        jrows = [(scope, r) for scope, _, t in tables for r in t]
        body = [x for x in body if x[0] == "all"]
        if not check(len(body) == len(jrows), name + ": one CSV line per JSON row",
                     "%d != %d" % (len(body), len(jrows))):
            continue
        bad = []
        for (scope, r), line in zip(jrows, body):
            c = dict(zip(head, line))
            if c["scope"] != scope:
                bad.append((scope, c["scope"]))
                continue
            for k in fields & set(head):
                v = r[k]
                got = c[k]
                if isinstance(v, float):
                    ok = abs(float(got) - v) < 0.0005 + 1e-9 * abs(v)
                else:
                    ok = got == str(v)
                if not ok:
                    bad.append((scope, r["reason"], k, got, v))
        check(not bad, name + ": CSV values are the JSON's", bad[:5])


rep = check_whole()
check_terminal(rep)
check_csv()
if failures:
    print("test-output: %d checks failed" % failures)
    sys.exit(1)
print("test-output: all checks passed")
