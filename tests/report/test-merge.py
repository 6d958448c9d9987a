#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""test-merge.py - merging the reports of a trace's ranges gives the whole's.

usage: test-merge.py LATENCY_ANALYZE [--seed N] [--cuts N] TRACE.dat...

Properties of `latency-analyze merge`, checked from the outside on real
traces, against reports the analyzer wrote of the whole trace:

- Each trace is cut at random points into ranges that partition it
  (--to T and --from T+1ns: a wait belongs to the range its end is in);
  the ranges' reports, merged in a random order, equal the whole trace's
  report: per cause, in the global table, in every process and every
  thread, the count, total, longest wait, when it ended, the five worst
  waits, the stacks, the histogram and the waited_for and ran_instead
  trees exactly (nodes by tid and what in threads, by what above them,
  where a comm may change between ranges; where the analyzer's own bounds
  folded a part of a tree, its total); the percentiles lie in the
  same bucket as the whole's (computed here from the schema's bucket
  formula; in fact they are equal).  The table per command equals the
  whole's processes added up by name, here.
- Associative and order independent, byte for byte: merge(merge(a,b),c),
  merge(a,merge(b,c)) and merge(c,b,a) write the same file.
- Two different traces stay apart: the merge has the processes of both,
  and its global table is the sum of theirs.
- A report saved before schema 1.1 (no histograms) merges with exact
  counts and says its percentiles cannot be merged: those come out null.

Once with the default options, once with every wait charged.
"""

import argparse
import collections
import json
import os
import random
import subprocess
import sys
import tempfile

FAILS = []


def fail(msg):
    FAILS.append(msg)
    print('FAIL ' + msg)


def run(la, args, out=None):
    p = subprocess.run([la] + args, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True)
    if out is not None and p.returncode == 0:
        with open(out, 'w') as f:
            f.write(p.stdout)
    return p


def analyze(la, trace, opts, out):
    p = run(la, ['-q', '--format=json'] + opts + [trace], out)
    return json.loads(p.stdout) if p.returncode == 0 else None, p


def bucket(v):
    """The lower bound of the bucket of v (docs/report-schema.md)."""
    if v < 16:
        return v
    s = v.bit_length() - 1 - 4
    return (v >> s) << s


def cause(r):
    return (r['reason'], r['argument'], r['kind'])


def stacks(r):
    return sorted((tuple(s['path']), tuple(s['frames']), s['count'],
                   s['total_ns'], s['max_ns'], s['max_at_ns'])
                  for s in r.get('stacks', []))


def rows(table):
    return {cause(r): r for r in table}


FOLDED = [0]


def tree(nodes, by_tid):
    """A row's waited_for (or ran_instead) as {path: ns}, every "other"
    that lists its rest unfolded, and whether the analyzer's own bounds
    folded a part of it (an "other" without a rest).  Above threads a
    node is known by its what alone: its comm is its process's name as of
    the end of each range, which may change between them."""
    acc, folded = {}, [False]

    def walk(ns, prefix):
        for n in ns:
            if 'rest' in n:
                walk(n['rest'], prefix)
                continue
            if n['comm'] == 'other' and n.get('tid') is None:
                folded[0] = True
            key = prefix + ((n.get('what'), n.get('tid') if by_tid else None),)
            acc[key] = acc.get(key, 0) + n['ns']
            walk(n.get('waited_for', []), key)
    walk(nodes, ())
    return acc, folded[0]


def same_trees(what, k, a, b, by_tid):
    """waited_for and ran_instead of a row: the whole's exactly, unless the
    analyzer's bounds folded some of either (then their totals)."""
    ok = True
    for f in ('waited_for', 'ran_instead'):
        ta, fa = tree(a.get(f, []), by_tid)
        tb, fb = tree(b.get(f, []), by_tid)
        if fa or fb:
            FOLDED[0] += 1
            ta = sum(v for p, v in ta.items() if len(p) == 1)
            tb = sum(v for p, v in tb.items() if len(p) == 1)
        if ta != tb:
            fail('%s %s: %s differs from the whole\'s' % (what, k, f))
            ok = False
    return ok


def same_rows(what, got, want, by_tid=False):
    """Rows of one table: exact, percentiles within the whole's bucket."""
    g, w = rows(got), rows(want)
    if set(g) != set(w):
        fail('%s: causes %s, whole %s' % (what, sorted(g), sorted(w)))
        return False
    ok = True
    for k in w:
        a, b = g[k], w[k]
        for f in ('count', 'total_ns', 'max_ns', 'max_at_ns', 'avg_ns'):
            if a[f] != b[f]:
                fail('%s %s: %s %s, whole %s' % (what, k, f, a[f], b[f]))
                ok = False
        if [(o['dur_ns'], o['end_ns'], o['tid']) for o in a['worst']] != \
           [(o['dur_ns'], o['end_ns'], o['tid']) for o in b['worst']]:
            fail('%s %s: worst %s, whole %s' % (what, k, a['worst'], b['worst']))
            ok = False
        if a.get('hist') != b.get('hist'):
            fail('%s %s: histogram differs' % (what, k))
            ok = False
        for f in ('p50_ns', 'p90_ns', 'p99_ns'):
            if a[f] is None or bucket(a[f]) != bucket(b[f]):
                fail('%s %s: %s %s, whole %s: not in its bucket'
                     % (what, k, f, a[f], b[f]))
                ok = False
        if 'stacks' in b and stacks(a) != stacks(b):
            fail('%s %s: stacks differ' % (what, k))
            ok = False
        ok &= same_trees(what, k, a, b, by_tid)
    return ok


def by_pid(report):
    """pid -> [processes]: a pid may be reused within one trace."""
    out = collections.defaultdict(list)
    for p in report['processes']:
        out[p['pid']].append(p)
    return out


def add_rows(into, table):
    for r in table:
        a = into.setdefault(cause(r), [0, 0, 0])
        a[0] += r['count']
        a[1] += r['total_ns']
        a[2] = max(a[2], r['max_ns'])


def check_whole(what, merged, whole):
    ok = same_rows(what + ' global', merged['global'], whole['global'])
    mp, wp = by_pid(merged), by_pid(whole)
    if set(mp) != set(wp):
        fail('%s: pids %s, whole %s' % (what, sorted(mp), sorted(wp)))
        return False
    for pid, ws in wp.items():
        ms = mp[pid]
        if len(ms) != 1:
            fail('%s: pid %d is %d processes' % (what, pid, len(ms)))
            ok = False
            continue
        m = ms[0]
        if len(ws) > 1:
            # a pid reused: the merge keys by (trace, pid) and adds them up
            a, b = {}, {}
            add_rows(a, m['reasons'])
            for w in ws:
                add_rows(b, w['reasons'])
            if a != b:
                fail('%s pid %d (reused): %s, whole %s' % (what, pid, a, b))
                ok = False
            continue
        w = ws[0]
        ok &= same_rows('%s pid %d' % (what, pid), m['reasons'], w['reasons'])
        for f in ('comm', 'kernel_thread', 'total_ns', 'user_requested'):
            if m[f] != w[f]:
                fail('%s pid %d: %s %s, whole %s' % (what, pid, f, m[f], w[f]))
                ok = False
        mt = {t['tid']: t for t in m['threads']}
        wt = {t['tid']: t for t in w['threads']}
        if set(mt) != set(wt):
            fail('%s pid %d: threads %s, whole %s' % (what, pid, sorted(mt), sorted(wt)))
            ok = False
            continue
        for tid in wt:
            ok &= same_rows('%s tid %d' % (what, tid), mt[tid]['reasons'],
                            wt[tid]['reasons'], by_tid=True)
    # the table per command: the whole's processes added up by name
    want = collections.defaultdict(dict)
    for p in whole['processes']:
        add_rows(want[(p['comm'], p['kernel_thread'])], p['reasons'])
    got = collections.defaultdict(dict)
    for c in merged.get('commands', []):
        add_rows(got[(c['comm'], c['kernel_thread'])], c['reasons'])
    if got != want:
        fail('%s: commands differ from the processes added up by name' % what)
        ok = False
    return ok


def merge(la, files, out):
    p = run(la, ['merge', '-q'] + files, out)
    if p.returncode != 0:
        fail('merge %s: exit %d: %s' % (' '.join(files), p.returncode, p.stderr.strip()))
        return None
    with open(out, 'rb') as f:
        return f.read()


def check_trace(la, trace, opts, rng, ncuts, tmp):
    whole, p = analyze(la, trace, opts, os.path.join(tmp, 'whole.json'))
    if whole is None:
        if p.returncode == 4:
            print('ok   %s: no scheduler events' % trace)
            return None
        fail('%s: exit %d: %s' % (trace, p.returncode, p.stderr.strip()))
        return None
    span = whole['trace']['end_ns'] - whole['trace']['start_ns']
    cuts = sorted(rng.sample(range(1, span), min(ncuts, span - 1))) if span > 2 else []
    files, lo = [], 0
    for c in cuts + [None]:
        ropts = opts + (['--from', '%dns' % lo] if lo else []) + \
            (['--to', '%dns' % c] if c is not None else [])
        f = os.path.join(tmp, 'part%d.json' % len(files))
        r, p = analyze(la, trace, ropts, f)
        if r is not None:
            files.append(f)
        elif not (p.returncode == 4 and ('past the trace' in p.stderr or
                                         'up to --to' in p.stderr)):
            fail('%s %s: exit %d: %s' % (trace, ropts, p.returncode, p.stderr.strip()))
            return None
        if c is None:
            break
        lo = c + 1
    what = '%s %s cut at %s' % (trace, ' '.join(opts) or '(defaults)', cuts)
    # a report alone: its percentiles made again from its histograms are
    # the analysis' own, row by row (the merge's and the replay's agree)
    alone = os.path.join(tmp, 'alone.json')
    if merge(la, [os.path.join(tmp, 'whole.json')], alone) is not None:
        with open(alone) as f:
            one = json.load(f)
        got = {(p['pid'], cause(r)): (r['p50_ns'], r['p90_ns'], r['p99_ns'])
               for p in one['processes'] for r in p['reasons']}
        want = {(p['pid'], cause(r)): (r['p50_ns'], r['p90_ns'], r['p99_ns'])
                for p in whole['processes'] for r in p['reasons']}
        if len(by_pid(whole)) == len(whole['processes']) and got != want:
            bad = [k for k in want if got.get(k) != want[k]]
            fail('%s: a report merged alone: percentiles of %d rows differ, '
                 'e.g. %s: %s, analysis %s' % (what, len(bad), bad[0],
                                               got.get(bad[0]), want[bad[0]]))
    order = files[:]
    rng.shuffle(order)
    out = os.path.join(tmp, 'merged.json')
    if merge(la, order, out) is None:
        return None
    with open(out) as f:
        merged = json.load(f)
    n = len(FAILS)
    check_whole(what, merged, whole)
    if merged['merged_reports'] != len(files) or len(merged['traces']) != 1 or \
       merged['traces'][0]['id'] != whole['trace']['id']:
        fail('%s: merged_reports %s, traces %s' % (what, merged['merged_reports'],
                                                   merged['traces']))

    # associativity and order independence, byte for byte
    if len(files) >= 3:
        k = max(1, len(files) // 3)
        a, b, c = files[:k], files[k:2 * k], files[2 * k:]
        ab = merge(la, a + b, os.path.join(tmp, 'ab.json'))
        bc = merge(la, b + c, os.path.join(tmp, 'bc.json'))
        x = merge(la, [os.path.join(tmp, 'ab.json')] + c, os.path.join(tmp, 'x.json'))
        y = merge(la, a + [os.path.join(tmp, 'bc.json')], os.path.join(tmp, 'y.json'))
        z = merge(la, files[::-1], os.path.join(tmp, 'z.json'))
        with open(out, 'rb') as f:
            m = f.read()
        if ab is not None and bc is not None and not (x == y == z == m):
            fail('%s: merge((a,b),c), merge(a,(b,c)), reversed and shuffled '
                 'orders differ' % what)
    # ranges that touch are not said to overlap; the whole and a range are
    p = run(la, ['merge', '--no-progress'] + order, os.path.join(tmp, 'w.json'))
    if p.returncode or 'overlap' in p.stderr:
        fail('%s: merge of its ranges: exit %d, %r' % (what, p.returncode, p.stderr))
    p = run(la, ['merge', '--no-progress', os.path.join(tmp, 'whole.json'), files[0]],
            os.path.join(tmp, 'w.json'))
    if p.returncode or 'that overlap: the waits in both are counted twice' not in p.stderr:
        fail('%s: merge of the whole and a range: exit %d, no overlap warning: %r'
             % (what, p.returncode, p.stderr))
    if len(FAILS) == n:
        print('ok   %s: %d ranges merge into the whole (%d processes)'
              % (what, len(files), len(whole['processes'])))
    return files


def check_fleet(la, t1, t2, tmp):
    """Two traces: apart per process, added up in the global table."""
    r1, _ = analyze(la, t1, [], os.path.join(tmp, 'f1.json'))
    r2, _ = analyze(la, t2, [], os.path.join(tmp, 'f2.json'))
    if r1 is None or r2 is None:
        return
    if merge(la, [os.path.join(tmp, 'f1.json'), os.path.join(tmp, 'f2.json')],
             os.path.join(tmp, 'fleet.json')) is None:
        return
    with open(os.path.join(tmp, 'fleet.json')) as f:
        m = json.load(f)
    n = len(FAILS)
    want = {}
    add_rows(want, r1['global'])
    add_rows(want, r2['global'])
    got = {}
    add_rows(got, m['global'])
    if got != want:
        fail('fleet %s + %s: global is not the sum of theirs' % (t1, t2))
    keys = sorted((p['trace'], p['pid']) for p in m['processes'])
    wkeys = sorted([(r1['trace']['id'], p['pid']) for p in r1['processes']] +
                   [(r2['trace']['id'], p['pid']) for p in r2['processes']])
    # a pid reused within one trace is one process of the merge
    if keys != sorted(set(wkeys)) or len(m['traces']) != 2:
        fail('fleet: processes %d, want %d apart by trace' % (len(keys), len(set(wkeys))))
    if len(FAILS) == n:
        print('ok   fleet %s + %s: %d processes apart, global added up'
              % (os.path.basename(t1), os.path.basename(t2), len(keys)))


def check_old(la, files, tmp):
    """A 1.0 report (no histograms) merges; its percentiles cannot."""
    reps = []
    for f in files:
        with open(f) as fh:
            reps.append(json.load(fh))
    # the old one: a range with a global table, so that it shows
    pick = [i for i, r in enumerate(reps) if r['global']]
    if len(files) < 2 or not pick:
        return
    files = [files[pick[0]]] + files[:pick[0]] + files[pick[0] + 1:]
    r = reps[pick[0]]
    others = set(cause(x) for i, rr in enumerate(reps) if i != pick[0]
                 for x in rr['global'])
    lacking = set(cause(x) for x in r['global']) & others
    r['schema'] = 'latencytop-report/1'
    del r['trace']['id']
    for t in [r['global']] + [p['reasons'] for p in r['processes']] + \
             [t['reasons'] for p in r['processes'] for t in p['threads']]:
        for row in t:
            del row['hist']
    old = os.path.join(tmp, 'old.json')
    with open(old, 'w') as f:
        json.dump(r, f)
    new = os.path.join(tmp, 'new.json')
    merge(la, files, new)
    p = run(la, ['merge', old] + files[1:], os.path.join(tmp, 'mixed.json'))
    n = len(FAILS)
    if p.returncode != 0:
        fail('merge with a 1.0 report: exit %d: %s' % (p.returncode, p.stderr))
        return
    if 'has no histograms: its percentiles cannot be merged' not in p.stderr:
        fail('merge with a 1.0 report: no warning: %r' % p.stderr)
    with open(new) as f:
        want = json.load(f)
    with open(os.path.join(tmp, 'mixed.json')) as f:
        got = json.load(f)
    a, b = {}, {}
    add_rows(a, got['global'])
    add_rows(b, want['global'])
    if a != b:
        fail('merge with a 1.0 report: counts differ')
    # a cause the old report shares with another has no percentiles now;
    # one it has no part in keeps the merge's
    nulls = set(cause(row) for row in got['global'] if row['p50_ns'] is None)
    if not nulls >= lacking or any('hist' in row for row in got['global']
                                   if cause(row) in nulls):
        fail('merge with a 1.0 report: %s should have null percentiles, '
             'have %s' % (sorted(lacking), sorted(nulls)))
    for row in want['global']:
        k = cause(row)
        if k not in set(cause(x) for x in r['global']):
            g = rows(got['global'])[k]
            if (g['p50_ns'], g['p99_ns']) != (row['p50_ns'], row['p99_ns']):
                fail('merge with a 1.0 report: %s lost its percentiles' % (k,))
    if len(FAILS) == n:
        print('ok   a 1.0 report merges: counts exact, %d global rows without '
              'percentiles' % len(nulls))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('la')
    ap.add_argument('--seed', type=int, default=39)
    ap.add_argument('--cuts', type=int, default=4)
    ap.add_argument('traces', nargs='+')
    a = ap.parse_args()
    rng = random.Random(a.seed)
    with tempfile.TemporaryDirectory() as tmp:
        first = None
        for t in a.traces:
            for opts in ([], ['--sleep-cutoff=0', '--no-maxtime', '-k']):
                files = check_trace(a.la, t, opts, rng, a.cuts, tmp)
                if files and not opts and first is None and len(files) >= 2:
                    first = t
                    keep = []
                    for i, f in enumerate(files):
                        k = os.path.join(tmp, 'keep%d.json' % i)
                        os.replace(f, k)
                        keep.append(k)
                    check_old(a.la, keep, tmp)
        usable = [t for t in a.traces if analyze(a.la, t, [], os.path.join(tmp, 'u.json'))[0]]
        if len(usable) >= 2:
            check_fleet(a.la, usable[0], usable[-1], tmp)
    print('test-merge: trees compared by their totals only (folded): %d' % FOLDED[0])
    print('test-merge: %s' % ('%d failures' % len(FAILS) if FAILS else 'all checks passed'))
    return 1 if FAILS else 0


if __name__ == '__main__':
    sys.exit(main())
