#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""test-ranges.py - a wait's length never depends on --from, --to or --window.

usage: test-ranges.py LATENCY_ANALYZE [--seed N] [--cuts N] TRACE.dat...

A property of the accounting (BRIEF rule 8), checked on real traces from
the outside: each trace is cut at random points into ranges that cover
it without overlap ([0, c1], [c1 + 1 ns, c2], ..., [ck + 1 ns, end]);
every wait belongs to the one range its end falls in, so per thread the
ranges' counts and totals add up to the whole trace's, exactly, and the
longest wait is the same.  Likewise the windows of a random --window add
up to the report's whole view.  Once with the default options, once with
every wait charged (--sleep-cutoff=0 --no-maxtime -k).

Per thread, waits for a CPU apart from blocked time: a blocked wait may
be re-charged to an outer reason found later (so its cause may differ
between a short range and the whole trace), but its length may not.
"""

import argparse
import collections
import json
import random
import subprocess
import sys


def analyze(la, trace, opts):
    p = subprocess.run([la, '-q', '--format=json'] + opts + [trace],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    if p.returncode != 0:
        return None, p
    return json.loads(p.stdout), p


def per_thread(view):
    """(pid, tid, sched?) -> [count, total_ns, max_ns], and the user
    requested waits per thread."""
    acc = collections.defaultdict(lambda: [0, 0, 0])
    for p in view.get('processes', []):
        for t in p.get('threads', []):
            for r in t.get('reasons', []):
                a = acc[(p['pid'], t['tid'], r['kind'] == 'scheduler')]
                a[0] += r['count']
                a[1] += r['total_ns']
                a[2] = max(a[2], r['max_ns'])
            u = t.get('user_requested', {})
            if u.get('count'):
                a = acc[(p['pid'], t['tid'], 'user')]
                a[0] += u['count']
                a[1] += u['total_ns']
                a[2] = max(a[2], u['max_ns'])
    return acc


def add(into, acc):
    for k, v in acc.items():
        a = into[k]
        a[0] += v[0]
        a[1] += v[1]
        a[2] = max(a[2], v[2])


def same(what, parts, whole):
    bad = []
    for k in sorted(set(parts) | set(whole), key=str):
        if parts.get(k, [0, 0, 0]) != whole.get(k, [0, 0, 0]):
            bad.append('%s: parts %s, whole %s' % (k, parts.get(k), whole.get(k)))
    if bad:
        print('FAIL %s: %d threads differ, e.g. %s' % (what, len(bad), bad[0]))
        return False
    return True


def check(la, trace, rng, ncuts, opts):
    whole, p = analyze(la, trace, opts)
    if whole is None:
        if p.returncode == 4:       # no scheduler events: nothing to cut
            print('ok   %s: no scheduler events' % trace)
            return True
        print('FAIL %s: exit %d: %s' % (trace, p.returncode, p.stderr.strip()))
        return False
    span = whole['trace']['end_ns'] - whole['trace']['start_ns']
    want = per_thread(whole)
    ok = True
    cuts = sorted(rng.sample(range(1, span), min(ncuts, span - 1))) if span > 2 else []
    parts = collections.defaultdict(lambda: [0, 0, 0])
    lo = 0
    for c in cuts + [None]:
        ropts = opts + ['--from', '%dns' % lo] if lo else list(opts)
        if c is not None:
            ropts += ['--to', '%dns' % c]
        r, p = analyze(la, trace, ropts)
        if r is None:
            # a range holding no event after its --from: nothing in it
            if p.returncode == 4 and 'past the trace' in p.stderr:
                break
            # none up to its --to (the trace's first events): no waits
            if p.returncode == 4 and c is not None and 'up to --to' in p.stderr:
                lo = c + 1
                continue
            print('FAIL %s %s: exit %d: %s' % (trace, ' '.join(ropts),
                                              p.returncode, p.stderr.strip()))
            return False
        add(parts, per_thread(r))
        if c is None:
            break
        lo = c + 1
    what = '%s %s cut at %s ns' % (trace, ' '.join(opts), cuts)
    ok &= same(what, parts, want)

    # windows of a random width: they add up to the whole view
    w = rng.randrange(max(span // 50, 1000), max(span // 3, 2000))
    r, p = analyze(la, trace, opts + ['--window', '%dns' % w])
    if r is None:
        print('FAIL %s --window %dns: exit %d: %s' % (trace, w, p.returncode,
                                                      p.stderr.strip()))
        return False
    wins = collections.defaultdict(lambda: [0, 0, 0])
    for v in r.get('windows', []):
        add(wins, per_thread(v))
    ok &= same('%s %s --window %dns (%d windows)' % (trace, ' '.join(opts), w,
                                                     len(r.get('windows', []))),
               wins, per_thread(r))
    ok &= same('%s %s --window %dns: whole view' % (trace, ' '.join(opts), w),
               per_thread(r), want)
    if ok:
        print('ok   %s %s: %d ranges and %d windows add up (%d threads)'
              % (trace, ' '.join(opts) or '(defaults)', len(cuts) + 1,
                 len(r.get('windows', [])), len(want)))
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('la')
    ap.add_argument('--seed', type=int, default=38)
    ap.add_argument('--cuts', type=int, default=40)
    ap.add_argument('traces', nargs='+')
    a = ap.parse_args()
    rng = random.Random(a.seed)
    ok = True
    for t in a.traces:
        for opts in ([], ['--sleep-cutoff=0', '--no-maxtime', '-k']):
            ok &= check(a.la, t, rng, a.cuts, opts)
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
