#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""compare-analyzer.py - the analyzer's waited_for trees and ran_instead
held to the chain oracle's (chain-oracle.py), on the recordings of
tests/data/chains (each scenario as trace.dat and as perf.data).

usage: compare-analyzer.py --analyzer LA [--trace-cmd P] [--perf P]
                           [--data DIR] [--oracle DIR] [--min-tree F]
                           [--min-top F] [--min-ran F]

For every file, the analyzer runs with every wait charged
(--sleep-cutoff=0 --no-maxtime -k; a perf.data with --kallsyms
DIR/kallsyms, as the oracle reads it) and the oracle computes its trees
(or they are read from DIR/NAME.json when --oracle has them).  For each
thread of the scenario (comm cw-*; the same over every thread is
printed, not held to a threshold: other people's tasks on this machine,
the waits the analyzer drops that the oracle counts, and the reverse):

- its blocked waits' trees: the analyzer's waited_for of all its rows
  but "Scheduler: waiting for cpu", against the oracle's trees of its S,
  D and I waits, merged.  Both are flattened to paths of (tid, kind) from
  the top (the oracle's "cause" is its own way of naming a blocked node:
  only the kind "blocked" is compared; the analyzer's blocked nodes are
  those whose what is a cause), each path with its ns.  Agreement: the
  sum over paths of the smaller of the two ns, over the larger of the
  two totals.  "top": the same on the top level only;
- its waits for a CPU: ran_instead by tid, the same agreement.

Thresholds (the defaults): tree >= 0.90, top >= 0.95, ran >= 0.90 per
file, over the scenario's threads together.  The figures are printed per
file.  Exit 0 when all hold, 1 when not, 77 (skipped) without trace-cmd.
"""
import argparse
import importlib.util
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("chain_oracle",
                                               os.path.join(HERE, "chain-oracle.py"))
oracle = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(oracle)

SCENARIOS = ("pipe", "mutex", "relay", "hogs")
KINDS = {"running", "waiting for cpu", "hardirq", "softirq", "timer",
         "unknown", "lost", "other"}
SCHED = "Scheduler: waiting for cpu"


def unfold(nodes):
    """A JSON level with its "other ... rest" nodes unfolded."""
    out = []
    for n in nodes:
        if "rest" in n:
            out.extend(unfold(n["rest"]))
        else:
            out.append(n)
    return out


def la_paths(nodes, prefix, acc):
    for n in unfold(nodes):
        kind = n["what"] if n["what"] in KINDS else "blocked"
        key = prefix + ((n["tid"], kind),)
        kids = n.get("waited_for") or []
        if kids:
            la_paths(kids, key, acc)
        else:
            acc[key] = acc.get(key, 0) + n["ns"]


def oracle_paths(nodes, prefix, acc):
    for n in nodes:
        key = prefix + ((n["tid"], n["kind"]),)
        kids = n.get("waited_for") or []
        if kids:
            oracle_paths(kids, key, acc)
        else:
            acc[key] = acc.get(key, 0) + n["ns"]


def top(paths):
    out = {}
    for k, v in paths.items():
        out[k[:1]] = out.get(k[:1], 0) + v
    return out


def agreement(a, b):
    ta, tb = sum(a.values()), sum(b.values())
    if not ta and not tb:
        return 1.0
    same = sum(min(a.get(k, 0), b.get(k, 0)) for k in set(a) | set(b))
    return same / max(ta, tb)


def analyzer_json(la, path, kallsyms):
    cmd = [la, "-q", "--format=json", "--sleep-cutoff=0", "--no-maxtime", "-k"]
    if kallsyms:
        cmd += ["--kallsyms", kallsyms]
    p = subprocess.run(cmd + [path], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True)
    if p.returncode:
        raise RuntimeError("%s: exit %d: %s" % (path, p.returncode, p.stderr.strip()))
    return json.loads(p.stdout)


def analyzer_threads(rep):
    """tid -> (comm, blocked paths, ran_instead by tid)"""
    out = {}
    for p in rep["processes"]:
        for t in p["threads"]:
            paths, ran = {}, {}
            for r in t["reasons"]:
                if r["reason"] == SCHED:
                    for e in unfold(r.get("ran_instead") or []):
                        ran[e["tid"]] = ran.get(e["tid"], 0) + e["ns"]
                else:
                    la_paths(r.get("waited_for") or [], (), paths)
            c, pa, ra = out.get(t["tid"], (t["comm"], {}, {}))
            for k, v in paths.items():
                pa[k] = pa.get(k, 0) + v
            for k, v in ran.items():
                ra[k] = ra.get(k, 0) + v
            out[t["tid"]] = (t["comm"], pa, ra)
    return out


def oracle_threads(res):
    out = {}
    for t in res["threads"]:
        paths, ran = {}, {}
        for st, s in t["states"].items():
            if st == "cpu":
                for e in s.get("ran_instead", []):
                    ran[e["tid"]] = ran.get(e["tid"], 0) + e["ns"]
            else:
                oracle_paths(s.get("waited_for", []), (), paths)
        out[t["tid"]] = (t["comm"], paths, ran)
    return out


def compare(la_t, or_t, every=False):
    tids = sorted(t for t in set(la_t) | set(or_t)
                  if every or (or_t.get(t) or la_t.get(t))[0].startswith("cw-"))
    a_tree, o_tree, a_ran, o_ran = {}, {}, {}, {}
    for t in tids:
        _, ap, ar = la_t.get(t, ("", {}, {}))
        _, op, orr = or_t.get(t, ("", {}, {}))
        for k, v in ap.items():
            a_tree[(t,) + k] = v
        for k, v in op.items():
            o_tree[(t,) + k] = v
        for k, v in ar.items():
            a_ran[(t, k)] = v
        for k, v in orr.items():
            o_ran[(t, k)] = v
    a_top = {(k[0],) + k[1:2]: 0 for k in a_tree}
    for k, v in a_tree.items():
        a_top[(k[0],) + k[1:2]] += v
    o_top = {(k[0],) + k[1:2]: 0 for k in o_tree}
    for k, v in o_tree.items():
        o_top[(k[0],) + k[1:2]] += v
    return {"threads": len(tids),
            "blocked_ns": (sum(a_tree.values()), sum(o_tree.values())),
            "cpu_ns": (sum(a_ran.values()), sum(o_ran.values())),
            "tree": agreement(a_tree, o_tree), "top": agreement(a_top, o_top),
            "ran": agreement(a_ran, o_ran)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--analyzer", required=True)
    ap.add_argument("--trace-cmd", default="trace-cmd")
    ap.add_argument("--perf", default="perf")
    ap.add_argument("--data", default=os.path.join(HERE, "..", "data", "chains"))
    ap.add_argument("--oracle", help="a directory of oracle JSON (NAME.json) to use")
    ap.add_argument("--min-tree", type=float, default=0.90)
    ap.add_argument("--min-top", type=float, default=0.95)
    ap.add_argument("--min-ran", type=float, default=0.90)
    a = ap.parse_args()
    if not shutil.which(a.trace_cmd):
        print("SKIP: %s not found" % a.trace_cmd)
        return 77
    fails = 0
    kallsyms = os.path.join(a.data, "kallsyms")
    for name in SCENARIOS:
        for ext in ("dat", "perf.data"):
            path = os.path.join(a.data, "%s.%s" % (name, ext))
            ks = kallsyms if ext != "dat" and os.path.exists(kallsyms) else None
            if ext != "dat" and not shutil.which(a.perf):
                print("skip %s: %s not found" % (path, a.perf))
                continue
            saved = os.path.join(a.oracle, os.path.basename(path) + ".json") \
                if a.oracle else None
            if saved and os.path.exists(saved):
                with open(saved) as f:
                    res = json.load(f)
            else:
                res = oracle.compute(path, a.trace_cmd, a.perf, ks)
                if saved:
                    with open(saved, "w") as f:
                        json.dump(res, f)
            la_t = analyzer_threads(analyzer_json(a.analyzer, path, ks))
            or_t = oracle_threads(res)
            c = compare(la_t, or_t)
            e = compare(la_t, or_t, every=True)
            ok = c["tree"] >= a.min_tree and c["top"] >= a.min_top and \
                c["ran"] >= a.min_ran
            fails += not ok
            print("%s %s: %d cw threads; blocked %.1f ms (oracle %.1f), cpu "
                  "%.1f ms (oracle %.1f); agreement: top %.4f, tree %.4f, "
                  "ran_instead %.4f" %
                  ("ok  " if ok else "FAIL", os.path.basename(path), c["threads"],
                   c["blocked_ns"][0] / 1e6, c["blocked_ns"][1] / 1e6,
                   c["cpu_ns"][0] / 1e6, c["cpu_ns"][1] / 1e6,
                   c["top"], c["tree"], c["ran"]))
            print("     every thread (%d): blocked %.1f ms (oracle %.1f); "
                  "agreement: top %.4f, tree %.4f, ran_instead %.4f" %
                  (e["threads"], e["blocked_ns"][0] / 1e6, e["blocked_ns"][1] / 1e6,
                   e["top"], e["tree"], e["ran"]))
    print("compare-analyzer: %s" % ("%d files below the thresholds" % fails
                                    if fails else "all files agree"))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
