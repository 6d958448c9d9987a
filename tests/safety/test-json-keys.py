#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""
test-json-keys.py - one report means one thing (issue 49, item 8).

Readers differ on an object that names a member twice (jq and Python keep
the last, a first-match lookup the first), so latency-analyze refuses such
a report, and its own writers must never write one:

  1. every JSON our writers make (json, json with windows and threads,
     waits-jsonl, the HTML page's data, merge, diff -f json) over the
     samples has no object with a member named twice (Python's json with
     an object_pairs_hook that counts them);
  2. a report with a member named twice, at the top, in a row, in an
     object of more than 16 members (the reader's hash set), is refused
     with exit 3 and one line naming the member and its byte offset;
     the same report without the second one reads (exit 0).

Usage: test-json-keys.py LATENCY-ANALYZE TRACE...
"""
import json
import os
import re
import subprocess
import sys
import tempfile

failures = 0


def fail(msg):
    global failures
    failures += 1
    print("FAIL: " + msg)


def dups_in(text, what):
    """The member names an object of @text has twice, as (name, count)."""
    seen = []

    def hook(pairs):
        names = [k for k, _ in pairs]
        for k in set(names):
            if names.count(k) > 1:
                seen.append((k, names.count(k)))
        return dict(pairs)

    try:
        json.loads(text, object_pairs_hook=hook)
    except ValueError as e:
        fail("%s: not JSON: %s" % (what, e))
        return None
    return seen


def run(args, what, status=0):
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != status:
        fail("%s: exit %d, not %d: %s" % (what, p.returncode, status,
                                          p.stderr.decode(errors="replace")))
        return None
    return p


def check_writers(analyze, traces, tmp):
    checked = 0
    reports = []
    for i, trace in enumerate(traces):
        name = os.path.basename(trace)
        for fmt, extra in (("json", []), ("json", ["-w", "100ms", "-k"]),
                           ("waits-jsonl", []), ("html", [])):
            what = "%s -f %s %s" % (name, fmt, " ".join(extra))
            p = run([analyze, "-q", "-f", fmt] + extra + [trace], what)
            if not p:
                continue
            out = p.stdout.decode()
            if fmt == "waits-jsonl":
                texts = out.splitlines()
            elif fmt == "html":
                texts = re.findall(r'<script type="application/json"[^>]*>'
                                   r'(.*?)</script>', out, re.S)
                if len(texts) != 1:
                    fail("%s: %d data blocks, not 1" % (what, len(texts)))
            else:
                texts = [out]
                if not extra:
                    path = os.path.join(tmp, "%d.json" % i)
                    with open(path, "w") as f:
                        f.write(out)
                    reports.append(path)
            for t in texts:
                d = dups_in(t, what)
                if d:
                    fail("%s: members named twice: %s" % (what, d[:5]))
                checked += 1
    # what merge and diff write of them
    outs = []
    if len(reports) >= 2:
        p = run([analyze, "merge", "-q"] + reports, "merge")
        if p:
            outs.append(("merge", p.stdout.decode()))
        # diff exits 0 (8 only with --fail-on)
        p = run([analyze, "diff", "-q", "-f", "json", "--by",
                 "global,command,process", "--all", reports[0], reports[1]],
                "diff -f json")
        if p:
            outs.append(("diff -f json", p.stdout.decode()))
    for what, text in outs:
        d = dups_in(text, what)
        if d:
            fail("%s: members named twice: %s" % (what, d[:5]))
        checked += 1
    print("%d JSON texts of %d traces: no member named twice" %
          (checked, len(traces)))
    return reports


def check_refused(analyze, report, tmp):
    with open(report) as f:
        text = f.read()
    wide = json.dumps({"k%02d" % i: i for i in range(40)})
    # name, where to insert, what, the member named twice, where the
    # second one is (in the text with the insertion)
    top = text.index('"schema"')
    row = text.index('"reason"', text.index('"global"'))
    opts = text.index('"options"')
    cases = []
    ins = '"partial": false, '
    cases.append(("top", top, ins, "partial",
                  text.index('"partial"', top) + len(ins)))
    ins = '"count": 1, '
    cases.append(("row", row, ins, "count",
                  text.index('"count"', row) + len(ins)))
    # in a process: an element of an array the reader parses one at a
    # time (lazily), where the offset still counts from the file's start
    proc = text.index('"pid"', text.index('"processes"'))
    ins = '"pid": 1, '
    cases.append(("process", proc, ins, "pid",
                  text.index('"pid"', proc) + len(ins)))
    # an object of more than 16 members: the reader's hash set finds it
    ins = '"x_wide": ' + wide[:-1] + ', "k33": 7}, '
    cases.append(("wide object", opts, ins, "k33",
                  opts + ins.rindex('"k33"')))
    for name, at, ins, key, second in cases:
        bad = text[:at] + ins + text[at:]
        assert bad[second:second + len(key) + 2] == '"%s"' % key
        d = dups_in(bad, "dup " + name)
        if not d or d[0][0] != key:
            fail("dup %s: the test's text has %r named twice, not %r" %
                 (name, d, key))
        path = os.path.join(tmp, "dup-%s.json" % name.replace(" ", "-"))
        with open(path, "w") as f:
            f.write(bad)
        p = run([analyze, "-q", path], "dup " + name, status=3)
        if not p:
            continue
        err = p.stderr.decode().strip()
        lines = err.splitlines()
        if len(lines) != 1:
            fail("dup %s: %d lines on stderr, not 1: %r" %
                 (name, len(lines), err))
        want = '"%s" a second time in one object, at byte %d:' % (key, second)
        if want not in err:
            fail("dup %s: %r does not say %r" % (name, err, want))
        elif p.stdout:
            fail("dup %s: wrote %d bytes of report" % (name, len(p.stdout)))
        else:
            print("dup %s: refused, exit 3: %s" % (name, err))
    # the wide object without its second k33 reads: the set is no false alarm
    good = text[:opts] + '"x_wide": ' + wide + ", " + text[opts:]
    path = os.path.join(tmp, "wide.json")
    with open(path, "w") as f:
        f.write(good)
    if run([analyze, "-q", "-f", "csv", path], "wide object, no dup"):
        print("wide object of 40 distinct members: read")


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    analyze, traces = sys.argv[1], sys.argv[2:]
    with tempfile.TemporaryDirectory(prefix="lt-json-keys.") as tmp:
        reports = check_writers(analyze, traces, tmp)
        if reports:
            check_refused(analyze, reports[0], tmp)
        else:
            fail("no report to damage")
    if failures:
        print("%d failures" % failures)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
