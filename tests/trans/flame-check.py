#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A flame graph drawn by flamegraph.pl from latency-analyze's folded
output against the JSON report of the same trace.

The SVG's boxes (a <title>NAME (N us, P%)</title> and a <rect> each) are
put back into a tree: a box one level up (y one box height less) whose x
range holds it is its parent.  The tree the report says is summed from
the JSON: under the root each process "comm (pid)", under it each cause
"reason (argument)", under that the frames of each distinct stack,
outermost first, each stack's time in whole microseconds (rounded as the
folded lines are), the cause's time without a stack (waiting for a CPU)
on the cause itself.  Every path's total, the depth and the number of
boxes must agree: a graph whose stacks stayed one box each fails.

usage: flame-check.py GRAPH.svg REPORT.json
"""
import html
import json
import re
import sys

svg_path, json_path = sys.argv[1:3]
fails = []


def us(ns):
    return ns // 1000 + (ns % 1000 >= 500)


def shown(name):
    """A name as folded output writes it: controls as '?', ';' as ':'."""
    out = "".join("?" if ord(c) < 0x20 or 0x7f <= ord(c) <= 0x9f else c for c in name)
    return out.replace(";", ":")


def expected(rep):
    """{path tuple: total us} for every prefix of every folded line."""
    tree = {}

    def add(path, value):
        if not value:
            return
        for i in range(1, len(path) + 1):
            tree[path[:i]] = tree.get(path[:i], 0) + value

    for p in rep["processes"]:
        proc = "%s (%d)" % (shown(p["comm"]), p["pid"])
        for r in p["reasons"]:
            cause = shown(r["reason"]) + (" (%s)" % shown(r["argument"])
                                          if r["argument"] else "")
            rest = r["total_ns"]
            for st in r.get("stacks", []):
                add((proc, cause) + tuple(shown(f) for f in reversed(st["frames"])),
                    us(st["total_ns"]))
                rest -= st["total_ns"]
            add((proc, cause), us(rest))
    return tree


TITLE = re.compile(r'<title>(.*?) \(([\d,]+) us, [\d.]+%\)</title>'
                   r'<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"')


def drawn(text):
    """{path tuple: total us} of the SVG's boxes, the root left out."""
    boxes = []
    for m in TITLE.finditer(text):
        name, count, x, y, w, h = m.groups()
        boxes.append({"name": html.unescape(name), "us": int(count.replace(",", "")),
                      "x": float(x), "y": float(y), "w": float(w), "h": float(h)})
    if not boxes:
        return None, 0
    height = boxes[0]["h"] + 1	# flamegraph.pl's frame height: box and gap
    bottom = max(b["y"] for b in boxes)
    for b in boxes:
        b["depth"] = int(round((bottom - b["y"]) / height))
    by_depth = {}
    for b in boxes:
        by_depth.setdefault(b["depth"], []).append(b)
    tree, eps = {}, 0.05
    for d in sorted(by_depth):
        for b in by_depth[d]:
            if d == 0:
                b["path"] = ()
                continue
            parents = [p for p in by_depth.get(d - 1, [])
                       if p["x"] - eps <= b["x"] and b["x"] + b["w"] <= p["x"] + p["w"] + eps]
            if len(parents) != 1:
                fails.append("box %r at depth %d: %d parents" % (b["name"], d, len(parents)))
                b["path"] = ("?",)
                continue
            b["path"] = parents[0]["path"] + (b["name"],)
            if b["path"] in tree:
                fails.append("box %r twice under one parent" % "; ".join(b["path"]))
            tree[b["path"]] = tree.get(b["path"], 0) + b["us"]
    return tree, max(by_depth)


with open(json_path) as f:
    want = expected(json.load(f))
with open(svg_path) as f:
    got, depth = drawn(f.read())
if got is None:
    print("FAIL: %s: no boxes" % svg_path)
    sys.exit(1)
want_depth = max(len(p) for p in want)
if depth != want_depth:
    fails.append("the graph is %d boxes deep, the report's stacks %d" % (depth, want_depth))
if want_depth < 5:
    fails.append("the report's stacks are only %d deep: no hierarchy to check" % want_depth)
for path in sorted(set(want) | set(got)):
    if want.get(path) != got.get(path):
        fails.append("%s: graph %s us, report %s us" % (" ; ".join(path), got.get(path),
                                                        want.get(path)))
for f in fails[:10]:
    print("FAIL: flame graph: " + f)
if fails:
    print("FAIL: %s: %d differences from the report" % (svg_path, len(fails)))
    sys.exit(1)
print("flame graph %s: %d boxes, %d deep, %d processes, %d us: as the report" % (
    svg_path.split("/")[-1], len(got), depth, sum(1 for p in got if len(p) == 1),
    sum(v for p, v in got.items() if len(p) == 1)))
