#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""README.md's examples are what the programs print.

usage: test-readme.py README.md TOP LATENCY-ANALYZE

A code block of README.md preceded by the comment
    <!-- output of: latency-analyze ARGS... -->
is run (latency-analyze the built one, from TOP, ARGS as written) and its
lines must be the output's: each run of lines between "..." lines
appears in the output as consecutive lines, the runs in order.  And the
newest "latencytop-report/X.Y" README.md names (older ones say since
when) is the schema the JSON carries.
"""

import re
import shlex
import subprocess
import sys

MARK = re.compile(r"^<!-- output of: (latency-analyze .*) -->$")


def blocks(lines):
    """(line number, command, block lines) of every marked block"""
    for i, line in enumerate(lines):
        m = MARK.match(line)
        if not m:
            continue
        if i + 1 >= len(lines) or lines[i + 1] != "```":
            yield i + 1, m.group(1), None
            continue
        end = lines.index("```", i + 2)
        yield i + 1, m.group(1), lines[i + 2:end]


def runs(block):
    """the block split at its "..." lines"""
    cur = []
    for line in block:
        if line == "...":
            if cur:
                yield cur
            cur = []
        else:
            cur.append(line)
    if cur:
        yield cur


def find_run(out, run, start):
    """index in out after run found from start as consecutive lines, or -1"""
    for i in range(start, len(out) - len(run) + 1):
        if out[i:i + len(run)] == run:
            return i + len(run)
    return -1


def newest(names):
    """the latest of schema names latencytop-report/X.Y, or None"""
    def version(name):
        return tuple(int(x) for x in name.split("/")[1].split("."))
    return max(names, key=version) if names else None


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    readme, top, la = sys.argv[1:]
    text = open(readme, encoding="utf-8").read()
    lines = text.split("\n")
    failures = checked = marked = 0
    for lineno, cmd, block in blocks(lines):
        marked += 1
        if block is None:
            print("FAIL: README.md:%d: no code block after the mark" % lineno)
            failures += 1
            continue
        args = shlex.split(cmd)[1:]
        r = subprocess.run([la] + args, cwd=top, capture_output=True, text=True)
        if r.returncode != 0:
            print("FAIL: README.md:%d: %s: exit %d: %s"
                  % (lineno, cmd, r.returncode, r.stderr.strip()))
            failures += 1
            continue
        out = r.stdout.split("\n")
        at = 0
        for run in runs(block):
            nxt = find_run(out, run, at)
            if nxt < 0:
                print("FAIL: README.md:%d: %s does not print, after what"
                      " was found before:" % (lineno, cmd))
                for line in run:
                    print("    | " + line)
                failures += 1
                break
            at = nxt
        else:
            checked += 1
            print("ok: README.md:%d: %s: %d lines as printed"
                  % (lineno, cmd, sum(len(r) for r in runs(block))))
    r = subprocess.run([la, "-q", "--format=json", "samples/kernel-module-6.1.dat"],
                       cwd=top, capture_output=True, text=True)
    schema = re.search(r'"schema"\s*:\s*"(latencytop-report/[0-9.]+)"', r.stdout)
    named = set(re.findall(r"latencytop-report/[0-9]+\.[0-9]+", text))
    if not schema:
        print("FAIL: the JSON report names no schema")
        failures += 1
    elif newest(named) != schema.group(1):
        print("FAIL: README.md's newest schema is %s, the JSON report's %s"
              % (newest(named), schema.group(1)))
        failures += 1
    else:
        print("ok: README.md's schema %s is the report's" % schema.group(1))
    if marked == 0:
        print("FAIL: no example of README.md is marked for checking")
        failures += 1
    print("%d example(s) checked, %d failure(s)" % (checked, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
