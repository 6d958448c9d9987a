#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""test-diff.py - latency-analyze diff and --fail-on, from the outside.

usage: test-diff.py LATENCY_ANALYZE BEFORE.dat AFTER.dat TRACE.dat...

Every expectation is computed here from the JSON reports latency-analyze
wrote of each side (never from the diff itself):

- a report diffed with itself, or with its own trace, is empty (exit 0,
  no change in JSON, "No change." in text), for every TRACE;
- BEFORE against AFTER lists the global causes that changed, were new
  or vanished, with their changes, in the order the documentation gives
  (the rise of the total, then of p99, then of the count, then the
  cause), and per command (processes added up by name) likewise, the
  commands by their worst cause's rise;
- --fail-on: the causes crossing each expression are counted here, and
  the exit status is 8 exactly when some do; malformed expressions,
  unknown schema versions, damaged JSON and missing files exit 1, 3, 3
  and 2 with one line naming what is wrong.
"""

import collections
import json
import math
import os
import subprocess
import sys
import tempfile

FAILS = []


def fail(msg):
    FAILS.append(msg)
    print('FAIL ' + msg)


def run(la, args):
    return subprocess.run([la] + args, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True)


def report(la, trace, path, none_ok=False):
    p = run(la, ['-q', '--format=json', '-o', path, trace])
    if p.returncode == 4 and none_ok:
        print('ok   %s: no scheduler events' % trace)
        return None
    if p.returncode:
        fail('%s: exit %d: %s' % (trace, p.returncode, p.stderr))
        return None
    with open(path) as f:
        return json.load(f)


def cause(r):
    return (r['reason'], r['argument'], r['kind'])


def figures(r):
    return {'count': r['count'], 'total_ns': r['total_ns'], 'max_ns': r['max_ns'],
            'p50_ns': r['p50_ns'], 'p99_ns': r['p99_ns']} if r else \
        {'count': 0, 'total_ns': 0, 'max_ns': 0, 'p50_ns': 0, 'p99_ns': 0}


def expected(before_rows, after_rows):
    """[(cause, status, before, after)] in the documented order."""
    b = {cause(r): r for r in before_rows}
    a = {cause(r): r for r in after_rows}
    out = []
    for k in set(b) | set(a):
        fb, fa = figures(b.get(k)), figures(a.get(k))
        status = 'new' if k not in b else 'vanished' if k not in a else \
            'same' if fb == fa else 'changed'
        out.append((k, status, fb, fa))
    out.sort(key=lambda e: (-(e[3]['total_ns'] - e[2]['total_ns']),
                            -(e[3]['p99_ns'] - e[2]['p99_ns']),
                            -(e[3]['count'] - e[2]['count']), e[0]))
    return out


def commands(rep):
    """(comm, kernel_thread) -> cause -> [count, total, max]"""
    out = collections.defaultdict(lambda: collections.defaultdict(lambda: [0, 0, 0]))
    for p in rep['processes']:
        for r in p['reasons']:
            a = out[(p['comm'], p['kernel_thread'])][cause(r)]
            a[0] += r['count']
            a[1] += r['total_ns']
            a[2] = max(a[2], r['max_ns'])
    return out


def check_same(la, trace, tmp):
    path = os.path.join(tmp, 'self.json')
    rep = report(la, trace, path, none_ok=True)
    if rep is None:
        return
    n = len(FAILS)
    for args in (['--format=json', path, path], ['--format=json', trace, path],
                 ['--format=json', '--by', 'global,command,process', path, path]):
        p = run(la, ['diff', '-q'] + args)
        if p.returncode:
            fail('diff %s: exit %d: %s' % (args, p.returncode, p.stderr))
            continue
        d = json.loads(p.stdout)
        if d['changes'] or d['summary']['changed'] or d['summary']['new'] or \
           d['summary']['vanished']:
            fail('diff %s: not empty: %s' % (args, d['summary']))
        if d['summary']['same'] < len(rep['global']):
            fail('diff %s: compared %d causes, the global table has %d'
                 % (args, d['summary']['same'], len(rep['global'])))
    p = run(la, ['diff', path, path])
    if p.returncode or 'No change.' not in p.stdout:
        fail('diff (text) of %s with itself: exit %d, %r' % (trace, p.returncode, p.stdout[-200:]))
    if len(FAILS) == n:
        print('ok   %s: diffed with itself (and its trace): empty' % trace)


def check_pair(la, before, after, tmp):
    bp, ap = os.path.join(tmp, 'before.json'), os.path.join(tmp, 'after.json')
    b, a = report(la, before, bp), report(la, after, ap)
    if b is None or a is None:
        return None
    p = run(la, ['diff', '-q', '--format=json', bp, ap])
    if p.returncode:
        fail('diff: exit %d: %s' % (p.returncode, p.stderr))
        return None
    d = json.loads(p.stdout)
    n = len(FAILS)

    # the global table: causes, statuses, changes and order
    want = [e for e in expected(b['global'], a['global']) if e[1] != 'same']
    got = [c for c in d['changes'] if c['scope'] == 'global']
    if [(e[0], e[1]) for e in want] != [(cause(c), c['status']) for c in got]:
        fail('global: order or statuses differ:\n  want %s\n  got  %s'
             % ([(e[0][0], e[1]) for e in want], [(c['reason'], c['status']) for c in got]))
    for e, c in zip(want, got):
        for f in ('count', 'total_ns', 'max_ns'):
            if c['change'][f] != e[3][f] - e[2][f] or c['after'][f] != e[3][f] \
               or c['before'][f] != e[2][f]:
                fail('global %s: %s change %s, want %s' % (e[0][0], f, c['change'][f],
                                                           e[3][f] - e[2][f]))
        if e[1] == 'changed' and e[2]['p99_ns']:
            pct = (e[3]['p99_ns'] - e[2]['p99_ns']) / e[2]['p99_ns'] * 100
            if abs(c['change']['p99_pct'] - pct) > 0.001:
                fail('global %s: p99_pct %s, want %.3f' % (e[0][0], c['change']['p99_pct'], pct))

    # per command: the processes of each side added up by name
    cb, ca = commands(b), commands(a)
    worst = {}
    for k in set(cb) | set(ca):
        rows = []
        for c in set(cb[k]) | set(ca[k]):
            x, y = cb[k].get(c, [0, 0, 0]), ca[k].get(c, [0, 0, 0])
            rows.append((c, y[1] - x[1], y[0] - x[0], x, y))
        worst[k] = max(r[1] for r in rows)
        got = {cause(c): c for c in d['changes']
               if c['scope'] == 'command' and (c['comm'], c['kernel_thread']) == k}
        for c, dt, dc, x, y in rows:
            g = got.get(c)
            if x == y:
                if g is not None:
                    fail('command %s %s: unchanged, but listed' % (k, c))
                continue
            if g is None or g['change']['total_ns'] != dt or g['change']['count'] != dc \
               or g['after']['max_ns'] != y[2] or g['before']['max_ns'] != x[2]:
                fail('command %s %s: want total %+d, count %+d; got %s'
                     % (k, c, dt, dc, g and g['change']))
        # within the command: by the rise of the total (ties aside)
        order = [g for g in d['changes'] if g['scope'] == 'command' and
                 (g['comm'], g['kernel_thread']) == k]
        rises = [g['change']['total_ns'] for g in order]
        if rises != sorted(rises, reverse=True):
            fail('command %s: causes not by the rise of their total: %s' % (k, rises))
    # the commands by their worst cause's rise
    seen = []
    for g in d['changes']:
        k = (g['comm'], g['kernel_thread'])
        if g['scope'] == 'command' and (not seen or seen[-1] != k):
            seen.append(k)
    ws = [worst[k] for k in seen]
    if ws != sorted(ws, reverse=True) or len(seen) != len(set(seen)):
        fail('commands not by their worst rise: %s' % list(zip(seen, ws))[:5])
    if len(FAILS) == n:
        print('ok   %s -> %s: %d global changes and %d per command, in order'
              % (os.path.basename(before), os.path.basename(after),
                 len(want), len([c for c in d['changes'] if c['scope'] == 'command'])))
    return bp, ap, b, a


def rel(x, y):
    if x == 0:
        return math.inf if y > 0 else 0.0
    return (y - x) / x * 100


def check_fail_on(la, bp, ap, b, a):
    """Which global causes cross each test, counted here; the exit status."""
    rows = expected(b['global'], a['global'])
    mx = max(r['max_ns'] for r in a['global'])
    counts = sorted(r['count'] for r in a['global'])
    cases = [
        ('p99>+20%', lambda f0, f1: rel(f0['p99_ns'], f1['p99_ns']) > 20),
        ('total>+10ms', lambda f0, f1: f1['total_ns'] - f0['total_ns'] > 10e6),
        ('total<-50%', lambda f0, f1: rel(f0['total_ns'], f1['total_ns']) < -50),
        ('max>=%dns' % mx, lambda f0, f1: f1['max_ns'] >= mx),
        ('max>%dns' % mx, lambda f0, f1: f1['max_ns'] > mx),
        ('count>%d' % counts[-1], lambda f0, f1: f1['count'] > counts[-1]),
        ('count >= %d , p50 > +1000000s' % counts[len(counts) // 2],
         lambda f0, f1: f1['count'] >= counts[len(counts) // 2]),
        ('p99>+20%~Sched*', lambda f0, f1, c=None: None),
        # blanks may surround the parts, the scope's colon too
        (' global : total > +10ms ', lambda f0, f1: f1['total_ns'] - f0['total_ns'] > 10e6),
    ]
    n = len(FAILS)
    for expr, test in cases:
        if '~' in expr:
            want = sum(1 for k, s, f0, f1 in rows if k[0].startswith('Sched') and
                       rel(f0['p99_ns'], f1['p99_ns']) > 20)
        else:
            want = sum(1 for k, s, f0, f1 in rows if test(f0, f1))
        p = run(la, ['diff', '-q', '--all', '--by', 'global', '--format=json',
                     '--fail-on', expr, bp, ap])
        status = 8 if want else 0
        if p.returncode != status:
            fail('--fail-on %r: exit %d, want %d (%d causes cross it here)'
                 % (expr, p.returncode, status, want))
            continue
        d = json.loads(p.stdout)
        if d['fail_on'] != [{'expr': expr, 'crossed': want}]:
            fail('--fail-on %r: %s, want %d' % (expr, d['fail_on'], want))
        marked = sum(1 for c in d['changes'] if expr in c['crossed'])
        if marked != want or len(d['changes']) != len(rows):
            fail('--fail-on %r: %d causes marked, want %d' % (expr, marked, want))
    # the text says it, and still writes the diff
    p = run(la, ['diff', '--fail-on', 'p99>+20%', bp, ap])
    if p.returncode in (0, 8) and ('Fail-on:  p99>+20%' not in p.stdout or
                                   (p.returncode == 8) != ('CROSSED' in p.stdout)):
        fail('--fail-on in text: %r' % p.stdout[:400])
    if p.returncode == 8 and 'a --fail-on threshold was crossed' not in p.stderr:
        fail('--fail-on crossed: stderr %r' % p.stderr)
    if len(FAILS) == n:
        print('ok   --fail-on: %d expressions, crossing counted here, exit 0 or 8'
              % len(cases))


def one_line_error(la, args, status, text):
    p = run(la, args)
    lines = p.stderr.strip().split('\n')
    if p.returncode != status or len(lines) != 1 or text not in lines[0]:
        fail('%s: exit %d, stderr %r; want %d and one line with %r'
             % (' '.join(args[1:]), p.returncode, p.stderr, status, text))
        return False
    return True


def check_errors(la, bp, ap, tmp):
    n = len(FAILS)
    for expr, col, what in (('p99>>20%', 5, 'expected a number'),
                            ('p99>20%', 5, 'a change relative to before needs its sign'),
                            ('p98>+1ms', 1, 'expected a figure'),
                            ('p99=+1ms', 4, 'expected >, >=, < or <='),
                            ('total>+5', 9, 'expected a unit'),
                            ('count>+5ms', 9, 'a count takes no unit'),
                            ('max>1h', 6, 'expected a unit: ns, us, ms or s'),
                            ('everywhere:max>1s', 1, 'expected a scope'),
                            ('max>1s;', 7, 'expected , or the end'),
                            ('max>1s~', 8, 'expected a cause pattern')):
        one_line_error(la, ['diff', '--fail-on', expr, bp, ap], 1,
                       "--fail-on '%s': at column %d: %s" % (expr, col, what))
    # a test of a table --by leaves out could never cross: refused, or CI
    # would pass whatever changed
    one_line_error(la, ['diff', '--fail-on', 'process:max>0ns', bp, ap], 1,
                   "--fail-on 'process:max>0ns': process: the process tables "
                   "are not compared (add process to --by)")
    one_line_error(la, ['diff', '--by', 'process', '--fail-on', 'count>+1', bp, ap], 1,
                   "--fail-on 'count>+1': global: the global table is not "
                   "compared (add global to --by)")
    # wrong arguments: the line, then where help is, as for latency-analyze
    for args, text in ((['--by', 'thread'], "--by: invalid value 'thread'"),
                       (['--format', 'csv'], "--format: invalid value 'csv': "
                        "expected text or json"),
                       ([bp], 'expected BEFORE and AFTER'),
                       ([bp, ap, ap], 'only BEFORE and AFTER')):
        p = run(la, ['diff'] + args + ([bp, ap] if len(args) == 2 and '-' in args[0] else []))
        lines = p.stderr.strip().split('\n')
        if p.returncode != 1 or len(lines) != 2 or text not in lines[0] or \
           "Try 'latency-analyze diff --help'" not in lines[1]:
            fail('diff %s: exit %d, %r' % (args, p.returncode, p.stderr))
    # another major version of the schema: read by neither command
    with open(ap) as f:
        r = json.load(f)
    r['schema'] = 'latencytop-report/2'
    v2 = os.path.join(tmp, 'v2.json')
    with open(v2, 'w') as f:
        json.dump(r, f)
    msg = '%s: report schema "latencytop-report/2": this version reads ' \
          'latencytop-report/1 and its minor versions (1.x) only' % v2
    one_line_error(la, ['diff', bp, v2], 3, msg)
    one_line_error(la, ['merge', bp, v2], 3, msg)
    # a 1.0 report is read, and compared
    r['schema'] = 'latencytop-report/1'
    for t in [r['global']] + [p['reasons'] for p in r['processes']]:
        for row in t:
            row.pop('hist', None)
    v1 = os.path.join(tmp, 'v1.json')
    with open(v1, 'w') as f:
        json.dump(r, f)
    # the global table keeps its percentiles; per command, those of
    # processes added up are lost, and only they differ
    p = run(la, ['diff', '-q', '--format=json', '--by', 'global', ap, v1])
    if p.returncode or json.loads(p.stdout)['changes']:
        fail('diff of a 1.1 report and its 1.0 copy: exit %d, %s' % (p.returncode, p.stdout[:300]))
    p = run(la, ['diff', '-q', '--format=json', ap, v1])
    for c in json.loads(p.stdout)['changes'] if not p.returncode else [None]:
        if c is None or c['status'] != 'changed' or c['after']['p99_ns'] is not None or \
           any(c['change'][f] for f in ('count', 'total_ns', 'max_ns')):
            fail('diff of a 1.1 report and its 1.0 copy per command: %s' % c)
            break
    # damaged JSON: where it is
    with open(ap) as f:
        text = f.read()
    cut = os.path.join(tmp, 'cut.json')
    with open(cut, 'w') as f:
        f.write(text[:len(text) // 2])
    one_line_error(la, ['diff', bp, cut], 3, '%s: not valid JSON: line ' % cut)
    one_line_error(la, ['merge', cut, bp], 3, '%s: not valid JSON: line ' % cut)
    one_line_error(la, ['diff', bp, os.path.join(tmp, 'none.json')], 2,
                   '%s: ' % os.path.join(tmp, 'none.json'))
    # reports of different accounting options: merge refuses, diff warns
    k = os.path.join(tmp, 'k.json')
    with open(ap) as f:
        r = json.load(f)
    r['options']['sleep_cutoff_ns'] = 0
    with open(k, 'w') as f:
        json.dump(r, f)
    one_line_error(la, ['merge', ap, k], 7, 'reports of different accounting '
                   'options do not merge')
    p = run(la, ['diff', ap, k])
    if p.returncode or 'different accounting options' not in p.stdout:
        fail('diff of reports of different options: exit %d, %r' % (p.returncode, p.stdout[:300]))
    if len(FAILS) == n:
        print('ok   malformed expressions, schema 2, damaged JSON, missing files, '
              'mismatched options: one line each, exit 1, 3, 3, 2, 7')


def check_merged_header(la, bp, ap, tmp):
    """A side merged from two traces (two machines, two clocks) has no
    span: the text says how many reports and traces, not one's start to
    the other's end."""
    m = os.path.join(tmp, 'two-traces.json')
    p = run(la, ['merge', '-o', m, bp, ap])
    if p.returncode:
        fail('merge %s %s: exit %d %r' % (bp, ap, p.returncode, p.stderr))
        return
    p = run(la, ['diff', m, ap])
    line = [l for l in p.stdout.split('\n') if l.startswith('Before:')]
    if p.returncode or not line or ': 2 reports of 2 traces, ' not in line[0] or \
       ' from ' in line[0]:
        fail('diff of a merge of two traces: exit %d, header %r' % (p.returncode, line))
    else:
        print('ok   diff: a side merged from two traces says so, with no span')


def check_partial(la, bp, ap, tmp):
    """A side read only up to damage is marked, said, and exits 5 (8 if a
    --fail-on crossed): a CI diff must not pass on half a trace."""
    with open(bp) as f:
        r = json.load(f)
    r['partial'] = True
    r['partial_reason'] = 'damaged.dat: CPU 1 data: cut short'
    part = os.path.join(tmp, 'partial.json')
    with open(part, 'w') as f:
        json.dump(r, f)
    p = run(la, ['diff', part, ap])
    line = [l for l in p.stdout.split('\n') if l.startswith('Before:')]
    err = p.stderr.strip().split('\n')
    if p.returncode != 5 or not line or 'PARTIAL: damaged.dat: CPU 1 data' not in line[0] \
       or len(err) != 1 or "(the diff's before side is partial)" not in err[0]:
        fail('diff of a partial side: exit %d, header %r, stderr %r'
             % (p.returncode, line, p.stderr))
        return
    p = run(la, ['diff', '-f', 'json', ap, part])
    d = json.loads(p.stdout) if p.stdout else {}
    if p.returncode != 5 or d.get('after', {}).get('partial') is not True or \
       d['before'].get('partial') is not False:
        fail('diff --format=json of a partial side: exit %d, %r'
             % (p.returncode, {k: d.get(k) for k in ('before', 'after')}))
        return
    p = run(la, ['diff', '--fail-on', 'any:count>=0', part, ap])
    if p.returncode != 8:
        fail('diff of a partial side, a --fail-on crossed: exit %d, want 8' % p.returncode)
        return
    print('ok   diff: a partial side is marked, said, exit 5 (8 when a --fail-on crossed)')


def main():
    la, before, after = sys.argv[1:4]
    with tempfile.TemporaryDirectory() as tmp:
        for t in sys.argv[2:]:
            check_same(la, t, tmp)
        got = check_pair(la, before, after, tmp)
        if got:
            bp, ap, b, a = got
            check_fail_on(la, bp, ap, b, a)
            check_errors(la, bp, ap, tmp)
            check_merged_header(la, bp, ap, tmp)
            check_partial(la, bp, ap, tmp)
    print('test-diff: %s' % ('%d failures' % len(FAILS) if FAILS else 'all checks passed'))
    return 1 if FAILS else 0


if __name__ == '__main__':
    sys.exit(main())
