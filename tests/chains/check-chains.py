#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""check-chains.py - the chain oracle (chain-oracle.py) held to what is
known without it.

usage: check-chains.py [--trace-cmd P] [--perf P] [--data DIR]
                       [--scenario NAME]... [--corpus FILE|DIR]...
                       [--save DIR] [--jobs N]

1. Stories.  DIR (tests/data/chains) holds, for each cw-workload
   scenario (chain-workload.c), NAME.dat and NAME.perf.data of one run
   (record-chains.sh).  On both files the oracle's answer must tell the
   scenario's known story:
     pipe   cw-reader's S waits: >= 240 of them; >= 90% of their time
            woken by cw-writer; >= 70% of it cw-writer's own blocked S
            (its nanosleep), which is >= 90% timer.
     mutex  cw-waiter's futex waits (cause "S futex..."): >= 50; >= 90%
            of their time woken by cw-holder; cw-holder's blocked D (the
            fdatasync) >= 50% of it, more than any other of its nodes.
     relay  cw-relay-a's S waits: >= 240; >= 90% of their time woken by
            cw-relay-b; >= 70% of it the chain cw-relay-b blocked <-
            cw-relay-c blocked S, itself >= 80% timer; that chain down to
            the timer (level 3) in >= 90% of the waits.
     hogs   cw-sleeper's waits for a CPU: >= 300; the two hogs pinned
            with it (cw-hog1, cw-hog2) are the two largest ran_instead
            entries, >= 35% of the time together, and a hog is in the
            ran_instead of >= 50% of the waits; its S waits >= 95% timer.
2. The two recorders agree.  The cw-* waits of NAME.perf.data are matched
   to those of NAME.dat (same tid and kind, ends within 200 us once the
   clocks' offset is taken off: perf stamps with local_clock(), tracefs
   with the "local" trace clock, which differ by a constant; the offset is
   the median difference of the two files' copies of the same records).
   (the nearest such), >= 98% of the perf waits must match, and >= 90% of
   the matched waits must have the same waker and tree: the same nodes
   (level, tid, kind, state) in the same order, each node's ns within
   200 us; for waits for a CPU, each task's ran_instead within 200 us.
3. The partition property, on every wait of every file given with
   --corpus (directories: their *.dat and *.data): re-checked from the
   JSON alone, each node's children add up to it and the top level to the
   wait, contiguously; ran_instead adds up to its wait for a CPU.  For
   each file: waits, levels, time ending in unknown and lost, run time.

--save DIR writes each file's oracle JSON there.  Exit 0 when all holds,
1 when not, 77 (skipped) without trace-cmd.  perf.data files are skipped
(said so) without perf.  A perf.data is read with --kallsyms=DIR/kallsyms
when its directory has one (files recorded under another kernel).
"""
import argparse
import bisect
import concurrent.futures
import importlib.util
import json
import os
import shutil
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("chain_oracle",
                                               os.path.join(HERE, "chain-oracle.py"))
oracle = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(oracle)

SCENARIOS = ("pipe", "mutex", "relay", "hogs")
MATCH_NS = 200_000      # two recorders' stamps of one wait's edges
NODE_NS = 200_000       # and of one node's length


class Checks:
    def __init__(self):
        self.failed = 0
        self.passed = 0

    def expect(self, good, what):
        if good:
            self.passed += 1
            print("ok   " + what)
        else:
            self.failed += 1
            print("FAIL " + what)
        return good

    def at_least(self, got, want, what):
        return self.expect(got >= want, "%s: %s (want >= %s)" % (what, fmt(got), fmt(want)))

    def share(self, part, whole, want, what):
        got = part / whole if whole else 0.0
        return self.expect(got >= want, "%s: %.1f%% (want >= %.0f%%)"
                           % (what, 100 * got, 100 * want))


def fmt(x):
    return "%.3f" % x if isinstance(x, float) else str(x)


def kallsyms_for(path):
    k = os.path.join(os.path.dirname(os.path.abspath(path)), "kallsyms")
    return k if os.path.exists(k) else None


def run_oracle(path, args, keep=None):
    return oracle.compute(path, args.trace_cmd, args.perf,
                          kallsyms_for(path) if oracle.is_perf(path) else None,
                          keep=keep)


# ---- trees ------------------------------------------------------------------

def walk(nodes, level=1, path=()):
    for n in nodes:
        yield level, n, path
        yield from walk(n.get("children", ()), level + 1, path + (n,))


def tids_named(res, comm):
    tids = {th["tid"] for th in res["threads"] if th["comm"] == comm}
    for w in res["waits"]:
        wk = w.get("waker")
        if wk and wk["comm"] == comm:
            tids.add(wk["tid"])
    return tids


def waits_of(res, comm, state):
    return [w for w in res["waits"] if w["comm"] == comm and w["state"] == state]


def top_ns(waits, pred):
    return sum(n["ns"] for w in waits for n in w["tree"] if pred(n))


# ---- 1. stories ---------------------------------------------------------------

def story_pipe(res, chk, label):
    ws = waits_of(res, "cw-reader", "S")
    total = sum(w["ns"] for w in ws)
    writer = tids_named(res, "cw-writer")
    chk.at_least(len(ws), 240, "%s: cw-reader S waits" % label)
    chk.share(sum(w["ns"] for w in ws if w["waker"]["tid"] in writer), total, 0.90,
              "%s: cw-reader's S time woken by cw-writer" % label)
    sleep = [n for w in ws for n in w["tree"]
             if n["tid"] in writer and n["kind"] == "blocked" and n["state"] == "S"]
    sleep_ns = sum(n["ns"] for n in sleep)
    chk.share(sleep_ns, total, 0.70, "%s: ... in cw-writer's own S (nanosleep)" % label)
    chk.share(sum(c["ns"] for n in sleep for c in n["children"] if c["kind"] == "timer"),
              sleep_ns, 0.90, "%s: ... which a timer ended" % label)


def story_mutex(res, chk, label):
    ws = [w for w in waits_of(res, "cw-waiter", "S") if "futex" in w["cause"]]
    total = sum(w["ns"] for w in ws)
    holder = tids_named(res, "cw-holder")
    chk.at_least(len(ws), 50, "%s: cw-waiter futex waits" % label)
    chk.share(sum(w["ns"] for w in ws if w["waker"]["tid"] in holder), total, 0.90,
              "%s: cw-waiter's futex time woken by cw-holder" % label)
    kinds = {}
    for w in ws:
        for n in w["tree"]:
            if n["tid"] in holder:
                k = (n["kind"], n.get("state"))
                kinds[k] = kinds.get(k, 0) + n["ns"]
    d_ns = kinds.get(("blocked", "D"), 0)
    chk.share(d_ns, total, 0.50, "%s: ... in cw-holder's blocked D (fdatasync)" % label)
    chk.expect(d_ns == max(kinds.values(), default=-1),
               "%s: ... the largest of cw-holder's nodes: %s" % (label, sorted(
                   ((k[0] + (" " + k[1] if k[1] else ""), v) for k, v in kinds.items()),
                   key=lambda x: -x[1])))


def story_relay(res, chk, label):
    ws = waits_of(res, "cw-relay-a", "S")
    total = sum(w["ns"] for w in ws)
    b, c = tids_named(res, "cw-relay-b"), tids_named(res, "cw-relay-c")
    chk.at_least(len(ws), 240, "%s: cw-relay-a S waits" % label)
    chk.share(sum(w["ns"] for w in ws if w["waker"]["tid"] in b), total, 0.90,
              "%s: cw-relay-a's S time woken by cw-relay-b" % label)
    chain_ns = timer_ns = 0
    whole = 0
    for w in ws:
        full = False
        for level, n, path in walk(w["tree"]):
            if level == 2 and n["tid"] in c and n["kind"] == "blocked" and \
                    n["state"] == "S" and path[0]["tid"] in b and \
                    path[0]["kind"] == "blocked":
                chain_ns += n["ns"]
                t = sum(x["ns"] for x in n["children"] if x["kind"] == "timer")
                timer_ns += t
                full = full or t > 0
        whole += full
    chk.share(chain_ns, total, 0.70,
              "%s: ... in cw-relay-b blocked <- cw-relay-c blocked S" % label)
    chk.share(timer_ns, chain_ns, 0.80, "%s: ... which a timer ended" % label)
    chk.share(whole, len(ws), 0.90,
              "%s: waits with A <- B <- C (S) <- timer at level 3" % label)


def story_hogs(res, chk, label):
    ws = waits_of(res, "cw-sleeper", "cpu")
    total = sum(w["ns"] for w in ws)
    chk.at_least(len(ws), 300, "%s: cw-sleeper waits for a CPU" % label)
    by = {}
    for w in ws:
        for r in w["ran_instead"]:
            by[r["comm"]] = by.get(r["comm"], 0) + r["ns"]
    top = sorted(by.items(), key=lambda x: -x[1])
    chk.expect({k for k, _ in top[:2]} == {"cw-hog1", "cw-hog2"},
               "%s: the largest ran_instead: %s" % (label, top[:4]))
    chk.share(by.get("cw-hog1", 0) + by.get("cw-hog2", 0), total, 0.35,
              "%s: ... cw-hog1 and cw-hog2 together" % label)
    chk.share(sum(1 for w in ws if any(r["comm"].startswith("cw-hog")
                                       for r in w["ran_instead"])), len(ws), 0.50,
              "%s: waits with a hog in ran_instead" % label)
    sl = waits_of(res, "cw-sleeper", "S")
    chk.share(top_ns(sl, lambda n: n["kind"] == "timer"), sum(w["ns"] for w in sl), 0.95,
              "%s: cw-sleeper's S time ended by a timer" % label)


STORIES = {"pipe": story_pipe, "mutex": story_mutex, "relay": story_relay,
           "hogs": story_hogs}


# ---- 2. the two recorders --------------------------------------------------

def clock_offset(dat_events, perf_events):
    """perf's stamp minus tracefs's for the same record: both files hold
    the same sched records of the perf run, keyed (cpu, event, fields)."""
    index = {}
    for e in dat_events:
        if e.name.startswith("sched_"):
            index.setdefault((e.cpu, e.name, e.rest), []).append(e.ts)

    def nearest(lst, t):
        i = bisect.bisect_left(lst, t)
        return min((lst[j] for j in (i - 1, i) if 0 <= j < len(lst)),
                   key=lambda x: abs(x - t))
    keyed = [(index[k], e.ts) for e in perf_events
             for k in [(e.cpu, e.name, e.rest)] if k in index]
    if not keyed:
        return None, []
    # first guess: the commonest difference to the nearest copy, by 10 us
    buckets = {}
    for lst, ts in keyed:
        b = (ts - nearest(lst, ts)) // 10_000
        buckets[b] = buckets.get(b, 0) + 1
    guess = max(buckets, key=buckets.get) * 10_000
    diffs = sorted(ts - nearest(lst, ts - guess) for lst, ts in keyed)
    close = [d for d in diffs if abs(d - guess) <= 200_000]
    return close[len(close) // 2], diffs


def signature(tree):
    return [(level, n["tid"], n["kind"], n.get("state")) for level, n, _ in walk(tree)]


def same_tree(a, b):
    sa, sb = signature(a), signature(b)
    if sa != sb:
        return False
    na = [n["ns"] for _, n, _ in walk(a)]
    nb = [n["ns"] for _, n, _ in walk(b)]
    return all(abs(x - y) <= NODE_NS for x, y in zip(na, nb))


def compare(label, dat, dev, perf, pev, chk):
    off, diffs = clock_offset(dev, pev)
    if off is None:
        chk.expect(False, "%s: no record common to the two files" % label)
        return
    rel = sorted(d - off for d in diffs)
    n = len(rel)
    print("     %s: perf - tracefs stamps: offset %d ns; per record %d..%d ns "
          "(p1 %d, p50 %d, p99 %d) over %d records"
          % (label, off, rel[0], rel[-1], rel[n // 100], rel[n // 2],
             rel[99 * n // 100], n))
    index = {}
    for w in dat["waits"]:
        if w["comm"].startswith("cw-"):
            index.setdefault((w["tid"], w["state"]), []).append(w)
    for lst in index.values():
        lst.sort(key=lambda w: w["start_ns"])
    pw = [w for w in perf["waits"] if w["comm"].startswith("cw-")]
    matched = same = 0
    unlike = []
    for w in pw:
        lst = index.get((w["tid"], w["state"]), [])
        starts = [x["start_ns"] for x in lst]
        i = bisect.bisect_left(starts, w["start_ns"] - off - MATCH_NS)
        m, best = None, None
        while i < len(lst) and lst[i]["start_ns"] <= w["start_ns"] - off + MATCH_NS:
            d = abs(lst[i]["end_ns"] - (w["end_ns"] - off))
            if d <= MATCH_NS:
                d += abs(lst[i]["start_ns"] - (w["start_ns"] - off))
                if best is None or d < best:
                    m, best = lst[i], d
            i += 1
        if m is None:
            continue
        matched += 1
        if w["state"] == "cpu":
            a = {r["tid"]: r["ns"] for r in w["ran_instead"]}
            b = {r["tid"]: r["ns"] for r in m["ran_instead"]}
            ok = all(abs(a.get(t, 0) - b.get(t, 0)) <= NODE_NS for t in set(a) | set(b))
        else:
            ok = w["waker"]["kind"] == m["waker"]["kind"] and \
                 w["waker"]["tid"] == m["waker"]["tid"] and same_tree(w["tree"], m["tree"])
        same += ok
        if not ok:
            unlike.append((w, m))
    chk.share(matched, len(pw), 0.98,
              "%s: cw-* waits of the perf.data found in the .dat (%d of %d)"
              % (label, matched, len(pw)))
    chk.share(same, matched, 0.90, "%s: ... with the same tree (%d of %d)"
              % (label, same, matched))
    for w, m in unlike[:3]:
        if "tree" in w:
            a, b = signature(w["tree"]), signature(m["tree"])
            i = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
            a, b = a[max(i - 1, 0):i + 3], b[max(i - 1, 0):i + 3]
        else:
            a, b = w["ran_instead"][:3], m["ran_instead"][:3]
        print("     differs: %s %d %s wait at %d (perf): perf %s / dat %s"
              % (w["comm"], w["tid"], w["state"], w["start_ns"], a, b))


# ---- 3. the partition property --------------------------------------------------

def partition_errors(res):
    bad = []

    def check(nodes, lo, hi, where):
        t = lo
        for n in nodes:
            if n["start_ns"] != t or n["end_ns"] - n["start_ns"] != n["ns"]:
                bad.append("%s: node %s at %d" % (where, n["kind"], n["start_ns"]))
                return
            if "children" in n:
                if sum(c["ns"] for c in n["children"]) != n["ns"]:
                    bad.append("%s: children of %s at %d" % (where, n["kind"], n["start_ns"]))
                check(n["children"], n["start_ns"], n["end_ns"], where)
            t = n["end_ns"]
        if t != hi:
            bad.append("%s: ends at %d, not %d" % (where, t, hi))

    for w in res["waits"]:
        where = "tid %d %s wait at %d" % (w["tid"], w["state"], w["start_ns"])
        if w["state"] == "cpu":
            if sum(r["ns"] for r in w["ran_instead"]) != w["ns"]:
                bad.append(where + ": ran_instead")
        else:
            if sum(n["ns"] for n in w["tree"]) != w["ns"]:
                bad.append(where + ": top level")
            check(w["tree"], w["start_ns"], w["end_ns"], where)
    return bad


def corpus_files(paths):
    out = []
    for p in paths:
        if os.path.isdir(p):
            out += sorted(os.path.join(p, f) for f in os.listdir(p)
                          if f.endswith((".dat", ".data")))
        elif os.path.exists(p):
            out.append(p)
    return out


def one_file(path, args):
    t0 = time.monotonic()
    res = run_oracle(path, args)
    return res, time.monotonic() - t0


def corpus(paths, args, chk):
    files = corpus_files(paths)
    if not files:
        chk.expect(False, "no corpus files in %s" % paths)
        return
    have_perf = bool(shutil.which(args.perf))
    todo = [f for f in files if have_perf or not oracle.is_perf(f)]
    for f in files:
        if f not in todo:
            print("SKIP %s: perf is not installed" % f)
    print("%-52s %6s %6s %5s %12s %7s %7s %6s" % (
        "file", "blocked", "cpu", "level", "blocked ms", "unknown", "lost", "secs"))
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futs = {f: pool.submit(one_file, f, args) for f in todo}
        for f in todo:
            try:
                res, secs = futs[f].result()
            except oracle.Error as e:
                chk.expect(False, "%s: %s" % (f, e))
                continue
            s = res["summary"]
            blocked = sum(v for k, v in s["waits"].items() if k != "cpu")
            unk = s["leaf_ns"].get("unknown", 0)
            lost = s["leaf_ns"].get("lost", 0)
            bns = s["blocked_ns"] or 1
            print("%-52s %6d %6d %5d %12.1f %6.1f%% %6.1f%% %6.1f" % (
                os.path.join(os.path.basename(os.path.dirname(f)),
                             os.path.basename(f))[-52:], blocked, s["waits"].get("cpu", 0), s["max_level"],
                s["blocked_ns"] / 1e6, 100 * unk / bns, 100 * lost / bns, secs))
            bad = partition_errors(res)
            chk.expect(not bad, "%s: partition on %d waits%s" % (
                f, len(res["waits"]), (": " + "; ".join(bad[:3])) if bad else ""))
            if args.save:
                save(args.save, f, res)


def save(outdir, path, res):
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, os.path.basename(path) + ".json"), "w") as f:
        json.dump(res, f, indent=1)


def stories(args, chk):
    have_perf = bool(shutil.which(args.perf))
    for name in args.scenario or SCENARIOS:
        dat = os.path.join(args.data, name + ".dat")
        perf = os.path.join(args.data, name + ".perf.data")
        dev, pev = [], []
        try:
            d = run_oracle(dat, args, dev)
        except oracle.Error as e:
            chk.expect(False, "%s: %s" % (dat, e))
            continue
        STORIES[name](d, chk, name + ".dat")
        if args.save:
            save(args.save, dat, d)
        if not have_perf:
            print("SKIP %s: perf is not installed" % perf)
            continue
        try:
            p = run_oracle(perf, args, pev)
        except oracle.Error as e:
            chk.expect(False, "%s: %s" % (perf, e))
            continue
        STORIES[name](p, chk, name + ".perf.data")
        compare(name, d, dev, p, pev, chk)
        if args.save:
            save(args.save, perf, p)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--trace-cmd", default="trace-cmd")
    ap.add_argument("--perf", default="perf")
    ap.add_argument("--data", help="the scenarios' recordings (stories, recorders)")
    ap.add_argument("--scenario", action="append", choices=SCENARIOS)
    ap.add_argument("--corpus", action="append", default=[],
                    help="a file or directory for the partition check (repeatable)")
    ap.add_argument("--save", help="write each file's oracle JSON in this directory")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    if not shutil.which(a.trace_cmd):
        print("SKIPPED: %s not found" % a.trace_cmd)
        return 77
    chk = Checks()
    if a.data:
        stories(a, chk)
    if a.corpus:
        corpus(a.corpus, a, chk)
    print("%s: %d checks passed, %d failed" % ("FAILED" if chk.failed else "PASSED",
                                               chk.passed, chk.failed))
    return 1 if chk.failed else 0


if __name__ == "__main__":
    sys.exit(main())
