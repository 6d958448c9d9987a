#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""
test-sizes.py - output is bounded by input (issue 49, item 6).

A saved report may hold a name of any length: one cause of 1 MB used to
pad every row of every text table to its width (87 MB of text from a
3.2 MB report), a 1 MB comm was written again on each of its rows in CSV
and folded output (1.1 GB from 1.8 MB) and on each change of a diff in
JSON (20 GB).  Each report below is written in every format, by
latency-analyze, its merge and diff, and latency-view --dump; each
output must be at most RATIO times its input's size (plus a page), and
what the formats promise about names must hold:

  - text tables: no line longer than the widest cause column (72) and
    the numbers, causes cut with '~'; task names in titles cut to 64;
  - JSON (the report, the merge): every name whole;
  - CSV: reason and argument whole, comm cut past 255 columns with '~';
  - folded: comm and cause cut past 255 columns.

Usage: test-sizes.py LATENCY-ANALYZE LATENCY-VIEW TRACE
"""
import json
import os
import re
import subprocess
import sys
import tempfile

RATIO = 12       # output bytes per input byte, at most (minimal rows: ~8)
SLACK = 65536    # and a page more: a header, a screen
BIG = 1 << 20    # the names' length: 1 MB, the issue's case

failures = 0


def fail(msg):
    global failures
    failures += 1
    print("FAIL: " + msg)


def row(reason, total, **kw):
    r = {"reason": reason, "argument": "", "kind": "annotated",
         "count": 1, "total_ns": total, "max_ns": total}
    r.update(kw)
    return r


def hostile(base):
    """Reports made to amplify: (name, report, the long name)."""
    big = "x" * BIG
    comm = "c" * BIG
    out = []

    # the sample's own report, its worst cause renamed: every table has it
    r = json.loads(json.dumps(base))
    old = r["global"][0]["reason"]

    def rename(o):
        if isinstance(o, dict):
            for k, v in o.items():
                if k == "reason" and v == old:
                    o[k] = big
                else:
                    rename(v)
        elif isinstance(o, list):
            for v in o:
                rename(v)
    rename(r)
    out.append(("sample, 1 MB cause", r, big))

    # the sample's report, its first process (and thread) named 1 MB
    r = json.loads(json.dumps(base))
    p = r["processes"][0]
    for t in p.get("threads", []):
        if t["comm"] == p["comm"]:
            t["comm"] = comm
    p["comm"] = comm
    out.append(("sample, 1 MB comm", r, comm))

    trace = {"path": "h.dat", "cpus": 1, "start_ns": 0, "end_ns": 10**9}
    head = {"schema": "latencytop-report/1.2", "trace": trace}
    # 5000 short rows under a 1 MB comm (CSV repeats it on each)
    rows = [row("r%d" % i, 1000 + i) for i in range(5000)]
    out.append(("1 MB comm, 5000 rows", dict(head, **{
        "global": rows, "processes": [
            {"pid": 1, "comm": comm, "reasons": rows,
             "threads": [{"tid": 1, "comm": comm, "reasons": rows}]}]}),
        comm))
    # a 1 MB cause among 5000 short ones (text pads them to it)
    rows = [row(big if i == 0 else "r%d" % i, 1000 + i) for i in range(5000)]
    out.append(("1 MB cause, 5000 rows", dict(head, **{
        "global": rows, "processes": [
            {"pid": 1, "comm": "p", "reasons": rows}]}), big))
    # a 1 MB cause of a 1 MB comm with 5000 stacks (folded: a line each)
    stacks = [{"count": 1, "total_ns": 2000 + i, "max_ns": 2000 + i,
               "path": [], "frames": ["f%d" % i]} for i in range(5000)]
    r1 = row(big, 10**9, count=5000, stacks=stacks)
    out.append(("1 MB cause and comm, 5000 stacks", dict(head, **{
        "global": [r1], "processes": [
            {"pid": 1, "comm": comm, "reasons": [r1]}]}), big))
    return out


def run(args):
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=300)
    return p.returncode, p.stdout, p.stderr.decode(errors="replace")


def longest_run(line, c):
    best = n = 0
    for ch in line:
        n = n + 1 if ch == c else 0
        best = max(best, n)
    return best


def check_text(what, out, name):
    """No line of a table wider than its columns; causes cut with '~'."""
    widest = 0
    for line in out.decode(errors="replace").split("\n"):
        run = longest_run(line, name[0])
        title = line.lstrip().startswith(("Process ", "Command ", "Thread "))
        if run > (63 if title else 71):
            fail("%s: %d columns of the long name in %r" %
                 (what, run, line[:90]))
        widest = max(widest, len(line))
    # 72 columns of cause, then the numbers (~60): well under 200
    if widest > 200:
        fail("%s: a line of %d columns" % (what, widest))


def check_names(what, fmt, out, name):
    """JSON keeps names whole; a name written on each line is cut."""
    text = out.decode(errors="replace")
    comm = name[0] == "c"
    cut = name[:254] + "~"
    if fmt in ("json", "merge") or (fmt in ("csv", "diff-json") and not comm):
        if name not in text:
            fail("%s: the %d-byte name is not whole" % (what, len(name)))
    elif fmt in ("csv", "folded", "diff-json"):
        if name[:256] in text:
            fail("%s: a name of more than 255 columns, repeated" % what)
        elif cut not in text:
            fail("%s: the name is not cut to 255 columns with '~'" % what)
    elif fmt == "html":
        # whole once, in the page's data; cut in its tables and titles
        runs = re.findall(name[0] + "{256,}", text)
        if len(runs) != 1 or len(runs[0]) != len(name):
            fail("%s: %d runs of the name past 255 columns, not 1 whole" %
                 (what, len(runs)))
        elif cut not in text:
            fail("%s: the name is not cut to 255 columns with '~'" % what)


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    analyze, view, trace = sys.argv[1:]
    code, out, err = run([analyze, "-q", "-f", "json", "-t", trace])
    if code:
        print("FAIL: %s: exit %d: %s" % (trace, code, err))
        return 1
    base = json.loads(out)
    with tempfile.TemporaryDirectory(prefix="lt-sizes.") as tmp:
        plain = os.path.join(tmp, "plain.json")
        with open(plain, "wb") as f:
            f.write(out)
        worst = 0.0
        for name, report, long_name in hostile(base):
            path = os.path.join(tmp, "h.json")
            with open(path, "w") as f:
                json.dump(report, f, separators=(",", ":"))
            size = os.path.getsize(path)
            cmds = [
                ("text", [analyze, "-q", path]),
                ("text -t --stacks", [analyze, "-q", "-t", "--stacks", path]),
                ("csv", [analyze, "-q", "-f", "csv", path]),
                ("folded", [analyze, "-q", "-f", "folded", path]),
                ("html", [analyze, "-q", "-f", "html", path]),
                ("json", [analyze, "-q", "-f", "json", path]),
                ("pprof", [analyze, "-q", "-f", "pprof", path]),
                # itself twice: the same processes, their names kept
                ("merge", [analyze, "merge", "-q", path, path]),
                ("merge -f text", [analyze, "merge", "-q", "-f", "text",
                                   path, path]),
                ("diff", [analyze, "diff", "-q", "--all", "--by",
                          "global,command,process", plain, path]),
                ("diff-json", [analyze, "diff", "-q", "-f", "json", "--all",
                               "--by", "global,command,process", plain,
                               path]),
                ("view --dump", [view, "--dump", path]),
            ]
            sizes = []
            for fmt, args in cmds:
                code, out, err = run(args)
                what = "%s: %s" % (name, fmt)
                if code:
                    fail("%s: exit %d: %s" % (what, code, err))
                    continue
                # merge reads it twice, diff the sample's report too
                given = size + (size if fmt.startswith("merge") else
                                os.path.getsize(plain)
                                if fmt.startswith("diff") else 0)
                ratio = len(out) / given
                worst = max(worst, ratio)
                sizes.append("%s %.2f" % (fmt, ratio))
                if len(out) > RATIO * given + SLACK:
                    fail("%s: %d bytes of %d: more than %d times" %
                         (what, len(out), given, RATIO))
                if fmt in ("text", "text -t --stacks", "merge -f text",
                           "diff"):
                    check_text(what, out, long_name)
                elif fmt == "view --dump":
                    lines = out.decode(errors="replace").split("\n")
                    if len(lines) > 25 or max(map(len, lines)) > 80:
                        fail("%s: more than its 80x24 screen" % what)
                else:
                    check_names(what, fmt, out, long_name)
            print("%s (%d bytes): %s" % (name, size, ", ".join(sizes)))
        print("the most output per byte of input: %.2f" % worst)
    if failures:
        print("%d failures" % failures)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
