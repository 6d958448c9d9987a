#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""test-waits-sql.py - the per-wait export, loaded into a real database.

usage: test-waits-sql.py LATENCY_ANALYZE MKTRACE OVERWRITTEN.trs TRACE.dat...

Debian's sqlite3 (the command, not a library) loads what
`latency-analyze --format=waits --waits-stacks=FILE` writes, as the
README says to, and its SQL aggregates must equal the report the analyzer
wrote of the same trace (JSON):

- per process and cause, the charged waits' count, sum and max are the
  process table's rows; per thread, the thread rows; without kernel
  threads, the global table;
- per reason for dropping, the count (and time, where the report keeps
  it) is the report's "dropped" counter of that name; the user requested
  waits of a process are its "user_requested";
- every stack_id names a row of the stacks file, whose translation is
  the cause of the waits charged to a stack;
- the README's top-causes query gives the global table's first causes by
  total; waits-jsonl holds the same rows.

And on overwritten.trs, whose waits are known by hand (its comment), the
rows are exactly those: charged, dropped before every CPU had data, across
a gap of lost events, lost track of, begun before the trace.
Exit 77 (skipped) without sqlite3.
"""

import collections
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile

FAILS = []

# what the README tells a user to run (kept the same: this tests it)
SCHEMA = """
CREATE TABLE waits (trace_id TEXT, pid INTEGER, tid INTEGER, comm TEXT,
  kernel_thread INTEGER, reason TEXT, argument TEXT, kind TEXT, state TEXT,
  start_ns INTEGER, end_ns INTEGER, dur_ns INTEGER, dropped TEXT,
  stack_id INTEGER, waker_tid INTEGER, waker_comm TEXT, waker_kind TEXT);
CREATE TABLE stacks (trace_id TEXT, stack_id INTEGER, reason TEXT, kind TEXT,
  kernel_thread INTEGER, frames TEXT);
.import --csv --skip 1 {waits} waits
.import --csv --skip 1 {stacks} stacks
UPDATE waits SET start_ns = NULLIF(start_ns, ''), end_ns = NULLIF(end_ns, ''),
  dur_ns = NULLIF(dur_ns, ''), dropped = NULLIF(dropped, ''),
  stack_id = NULLIF(stack_id, '');
"""

TOP_CAUSES = """
SELECT reason, argument, COUNT(*) AS waits, SUM(dur_ns) AS total_ns,
       MAX(dur_ns) AS max_ns
FROM waits WHERE dropped IS NULL AND kernel_thread = 0
GROUP BY trace_id, reason, argument, kind ORDER BY total_ns DESC LIMIT 10;
"""


def fail(msg):
    FAILS.append(msg)
    print('FAIL ' + msg)


def run(args, **kw):
    return subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, **kw)


def sql(db, query):
    p = run(['sqlite3', '-batch', '-csv', db], input=query)
    if p.returncode or p.stderr:
        fail('sqlite3: %s: %s' % (query.strip()[:60], p.stderr.strip()))
        return []
    return list(csv.reader(p.stdout.splitlines()))


def export(la, trace, opts, tmp):
    w, s = os.path.join(tmp, 'waits.csv'), os.path.join(tmp, 'stacks.csv')
    p = run([la, '-q', '--format=waits', '--waits-stacks', s, '-o', w] + opts + [trace])
    if p.returncode:
        return None, p
    db = os.path.join(tmp, 'waits.db')
    if os.path.exists(db):
        os.unlink(db)
    p2 = run(['sqlite3', '-batch', db], input=SCHEMA.format(waits=w, stacks=s))
    if p2.returncode or p2.stderr:
        fail('%s: loading into sqlite3: %s' % (trace, p2.stderr.strip()))
        return None, p2
    return db, p


def add(acc, key, count, total, mx):
    a = acc[key]
    a[0] += count
    a[1] += total
    a[2] = max(a[2], mx)


def rows_of(db, where, group):
    """count, sum and max of dur_ns by @group, whose pid and tid are ints"""
    ints = len([g for g in group.split(', ') if g in ('pid', 'tid')])
    out = collections.defaultdict(lambda: [0, 0, 0])
    for r in sql(db, 'SELECT %s, COUNT(*), SUM(dur_ns), MAX(dur_ns) FROM waits '
                 'WHERE %s GROUP BY %s;' % (group, where, group)):
        k = tuple(int(x) if i < ints else x for i, x in enumerate(r[:-3]))
        add(out, k, int(r[-3]), int(r[-2]), int(r[-1]))
    return out


def same(what, got, want):
    if dict(got) != dict(want):
        bad = [k for k in set(got) | set(want) if got.get(k) != want.get(k)]
        fail('%s: %d differ, e.g. %s: sql %s, report %s' % (
            what, len(bad), bad[0], got.get(bad[0]), want.get(bad[0])))
        return False
    return True


def check_trace(la, trace, opts, tmp):
    db, p = export(la, trace, opts, tmp)
    if db is None:
        if p.returncode == 4:
            print('ok   %s: no scheduler events' % trace)
        else:
            fail('%s %s: exit %d: %s' % (trace, opts, p.returncode, p.stderr.strip()))
        return
    r = json.loads(run([la, '-q', '--format=json'] + opts + [trace]).stdout)
    n = len(FAILS)
    what = '%s %s' % (os.path.basename(trace), ' '.join(opts) or '(defaults)')

    # charged waits: the process, thread and global tables
    want = collections.defaultdict(lambda: [0, 0, 0])
    for proc in r['processes']:
        for x in proc['reasons']:
            add(want, (proc['pid'], x['reason'], x['argument'], x['kind']),
                x['count'], x['total_ns'], x['max_ns'])
    same(what + ': per process', rows_of(db, 'dropped IS NULL',
                                         'pid, reason, argument, kind'), want)
    want = collections.defaultdict(lambda: [0, 0, 0])
    for proc in r['processes']:
        for t in proc['threads']:
            for x in t['reasons']:
                add(want, (proc['pid'], t['tid'], x['reason'], x['argument'], x['kind']),
                    x['count'], x['total_ns'], x['max_ns'])
    same(what + ': per thread', rows_of(db, 'dropped IS NULL',
                                        'pid, tid, reason, argument, kind'), want)
    want = collections.defaultdict(lambda: [0, 0, 0])
    for x in r['global']:
        add(want, (x['reason'], x['argument'], x['kind']), x['count'],
            x['total_ns'], x['max_ns'])
    kt = '' if r['options']['kernel_threads'] else ' AND kernel_thread = 0'
    same(what + ': global', rows_of(db, 'dropped IS NULL' + kt,
                                    'reason, argument, kind'), want)

    # a filter (--pid) keeps its tasks' rows, and no other's; the
    # report's dropped counters are the whole trace's
    if '--pid' in opts:
        pids = sql(db, 'SELECT DISTINCT pid FROM waits;')
        if pids != [[opts[opts.index('--pid') + 1]]]:
            fail('%s: rows of pids %s' % (what, pids))
        if len(FAILS) == n:
            print('ok   %s: the filtered waits add up to the filtered report' % what)
        return
    # dropped: each reason is the report's counter of that name
    got = {row[0]: (int(row[1]), int(row[2] or 0)) for row in
           sql(db, 'SELECT dropped, COUNT(*), SUM(dur_ns) FROM waits '
               'WHERE dropped IS NOT NULL GROUP BY dropped;')}
    d = r['dropped']
    for name in ('interruptible_over_cutoff', 'over_maxtime', 'before_complete',
                 'across_lost_events', 'cpu_waits_preempted_or_new',
                 'began_before_trace', 'unfinished', 'no_switch_in',
                 'discarded_after_lost_events', 'stopped', 'unknown_state'):
        c, ns = got.get(name, (0, 0))
        if c != d[name] or (name + '_ns' in d and ns != d[name + '_ns']):
            fail('%s: dropped %s: sql %d (%d ns), report %d (%s ns)'
                 % (what, name, c, ns, d[name], d.get(name + '_ns')))
    cpu = sql(db, "SELECT COUNT(*) FROM waits WHERE dropped = 'no_switch_in' "
              "AND state = 'R';")
    if int(cpu[0][0]) != d['cpu_waits_no_switch_in']:
        fail('%s: cpu_waits_no_switch_in: sql %s, report %d' % (what, cpu, d['cpu_waits_no_switch_in']))
    # a user process's user requested waits (idle kernel threads' are not)
    want = collections.defaultdict(lambda: [0, 0, 0])
    for proc in r['processes']:
        u = proc['user_requested']
        if u['count']:
            add(want, (proc['pid'],), u['count'], u['total_ns'], u['max_ns'])
    got = rows_of(db, "dropped = 'interruptible_over_cutoff' AND state != 'I' "
                  "AND pid IN (SELECT pid FROM waits WHERE kernel_thread = 0)", 'pid')
    same(what + ': user requested', got, want)
    # a process's stops, by a signal (T) and for a tracer (t)
    want = collections.defaultdict(lambda: [0, 0, 0])
    for proc in r['processes']:
        for how, state in (('signal', 'T'), ('tracer', 't')):
            u = proc.get('stopped', {}).get(how, {})
            if u.get('count'):
                add(want, (proc['pid'], state), u['count'], u['total_ns'], u['max_ns'])
    same(what + ': stopped', rows_of(db, "dropped = 'stopped'", 'pid, state'), want)

    # stacks: every id known, its translation the cause charged to it
    orphans = sql(db, 'SELECT COUNT(*) FROM waits w LEFT JOIN stacks s ON '
                  's.trace_id = w.trace_id AND s.stack_id = w.stack_id WHERE '
                  'w.stack_id IS NOT NULL AND s.stack_id IS NULL;')
    if orphans[0][0] != '0':
        fail('%s: %s waits name a stack the stacks file lacks' % (what, orphans[0][0]))
    wrong = sql(db, "SELECT COUNT(*) FROM waits w JOIN stacks s USING (trace_id, "
                "stack_id) WHERE w.kind IN ('translated', 'function') AND "
                "w.dropped IS NULL AND w.reason != s.reason;")
    if wrong[0][0] != '0':
        fail('%s: %s waits charged to a stack, not to its translation' % (what, wrong[0][0]))
    if r['trace']['id'] != sql(db, 'SELECT DISTINCT trace_id FROM waits;')[0][0]:
        fail('%s: trace_id is not the report\'s trace.id' % what)

    # the README's query: the global table's first causes by total
    top = sql(db, TOP_CAUSES)
    want = sorted(r['global'], key=lambda x: -x['total_ns'])[:len(top)]
    if not r['options']['kernel_threads'] and \
       [(t[0], int(t[3])) for t in top] != [(x['reason'], x['total_ns']) for x in want]:
        fail('%s: top causes %s, report %s' % (what, top[:3], [(x['reason'], x['total_ns'])
                                                                for x in want[:3]]))

    # JSON lines: the same rows
    w = os.path.join(tmp, 'waits.jsonl')
    run([la, '-q', '--format=waits-jsonl', '-o', w] + opts + [trace])
    with open(os.path.join(tmp, 'waits.csv')) as f:
        rows = list(csv.DictReader(f))
    with open(w) as f:
        lines = [json.loads(x) for x in f]

    def norm(v):
        return '' if v is None else str(int(v)) if isinstance(v, bool) else str(v)
    if len(rows) != len(lines) or any(norm(j[k]) != c[k] for c, j in zip(rows, lines)
                                      for k in c):
        fail('%s: waits-jsonl differs from waits (%d and %d rows)' % (what, len(lines), len(rows)))
    if len(FAILS) == n:
        print('ok   %s: %d waits in sqlite3 add up to the report' % (what, len(rows)))


# overwritten.trs's waits, by hand (its comment): (tid, state, start,
# end, dropped), times in ns as recorded (no offset).  Every off-CPU
# interval is one (BRIEF rule 9): a's preemption at 500 too, and the
# waits for a CPU of 99, 98 and 97, woken (their first events) and never
# run before the end.
BY_HAND = [
    (42, 'S', '100', '200', 'before_complete'),
    (42, 'R', '200', '250', 'before_complete'),
    (42, 'R', '500', '510', 'before_complete'),
    (43, 'D', '510', '1500', 'before_complete'),
    (99, 'R', '1000', '', 'unfinished'),
    (98, 'R', '3000', '', 'unfinished'),
    (97, 'R', '4000', '', 'unfinished'),
    (42, 'D', '1100', '1300', ''),
    (42, 'R', '1300', '1400', ''),
    (43, 'R', '1500', '1600', ''),
    (42, 'R', '1600', '2000', 'cpu_waits_preempted_or_new'),
    (43, 'D', '2000', '', 'discarded_after_lost_events'),
    (44, 'D', '2500', '3500', 'across_lost_events'),
    (44, 'R', '3500', '3600', 'across_lost_events'),
    (44, 'S', '3700', '4200', 'across_lost_events'),
    (44, 'R', '4200', '4300', ''),
    (42, 'D', '4100', '4500', ''),
    (42, 'R', '4500', '4600', ''),
]


def check_by_hand(la, mktrace, trs, tmp):
    dat = os.path.join(tmp, 'overwritten.dat')
    p = run([sys.executable, mktrace, trs, '-o', dat])
    if p.returncode:
        fail('mktrace %s: %s' % (trs, p.stderr))
        return
    db, p = export(la, dat, [], tmp)
    if db is None:
        fail('%s: exit %d: %s' % (dat, p.returncode, p.stderr))
        return
    got = sql(db, "SELECT tid, state, start_ns, end_ns, dropped FROM waits WHERE "
              "start_ns IS NOT NULL ORDER BY start_ns, state;")
    got = [(int(t), s, a, b, d) for t, s, a, b, d in got]
    want = sorted(BY_HAND, key=lambda x: (int(x[2]), x[1]))
    if got != want:
        fail('overwritten.trs: rows\n  got  %s\n  want %s' % (got, want))
    # the three wakeups of tasks asleep since before the trace
    before = sql(db, "SELECT tid, end_ns FROM waits WHERE dropped = "
                 "'began_before_trace' ORDER BY end_ns;")
    if before != [['99', '1000'], ['98', '3000'], ['97', '4000']]:
        fail('overwritten.trs: begun before the trace: %s' % before)
    if not FAILS:
        print('ok   overwritten.trs: %d waits, each as known by hand' % (len(got) + len(before)))


def check_cli(la, trace, tmp):
    """What the command refuses, in one line, and a full disk."""
    n = len(FAILS)
    saved = os.path.join(tmp, 'saved.json')
    run([la, '-q', '--format=json', '-o', saved, trace])
    for args, status, text in (
            (['--format=waits', saved], 1,
             '%s: a saved report holds no waits: --format=waits needs the trace' % saved),
            (['--waits-stacks', os.path.join(tmp, 's.csv'), trace], 1,
             '--waits-stacks: only with --format=waits or waits-jsonl'),
            (['--format=waits', '-o', os.path.join(tmp, 'x'), '--waits-stacks',
              os.path.join(tmp, 'x'), trace], 1, 'the same file as --output'),
            (['--format=waits', '-o', '/dev/full', trace], 2,
             '/dev/full: cannot write the waits: No space left on device'),
            (['TMPDIR=/nonexistent', '--format=waits', '-o', os.path.join(tmp, 'w.csv'),
              trace], 2, '/nonexistent: cannot make a temporary file for the waits: '
             'No such file')):
        env = dict(os.environ)
        if args[0].startswith('TMPDIR='):
            env['TMPDIR'] = args.pop(0)[len('TMPDIR='):]
        p = run([la] + args, env=env)
        lines = p.stderr.strip().split('\n')
        if p.returncode != status or len(lines) != 1 or text not in lines[0]:
            fail('latency-analyze %s: exit %d, %r; want %d and %r'
                 % (' '.join(args), p.returncode, p.stderr, status, text))
    # a trace that cannot be read leaves no file behind (as the other
    # formats): not a CSV of only its header, loaded as a trace without waits
    garbage = os.path.join(tmp, 'garbage.dat')
    with open(garbage, 'wb') as f:
        f.write(b'not a trace\n' * 100)
    for bad, status in ((os.path.join(tmp, 'missing.dat'), 2), (garbage, 3)):
        for fmt in ('waits', 'waits-jsonl'):
            out, st = os.path.join(tmp, 'bad.out'), os.path.join(tmp, 'bad.stacks')
            p = run([la, '-q', '--format=' + fmt, '-o', out, '--waits-stacks', st, bad])
            if p.returncode != status or os.path.exists(out) or os.path.exists(st):
                fail('--format=%s -o %s %s: exit %d (want %d), left %s'
                     % (fmt, out, bad, p.returncode, status,
                        [f for f in (out, st) if os.path.exists(f)]))
    if len(FAILS) == n:
        print('ok   --format=waits: a saved report, a lone --waits-stacks, one file '
              'for both, a full disk, no temporary directory: one line each; '
              'an unreadable trace leaves no file')


def main():
    if not shutil.which('sqlite3'):
        print('SKIPPED: sqlite3 is not installed (apt-get install sqlite3)')
        return 77
    la, mktrace, trs = sys.argv[1:4]
    with tempfile.TemporaryDirectory() as tmp:
        check_by_hand(la, mktrace, trs, tmp)
        check_cli(la, sys.argv[4], tmp)
        for t in sys.argv[4:]:
            for opts in ([], ['--sleep-cutoff=0', '--no-maxtime', '-k']):
                check_trace(la, t, opts, tmp)
        # --pid: the first process with charged waits of the first trace
        p = run([la, '-q', '--format=json', sys.argv[4]])
        if p.returncode == 0:
            procs = [x for x in json.loads(p.stdout)['processes'] if x['reasons']]
            if procs:
                check_trace(la, sys.argv[4], ['--pid', str(procs[0]['pid'])], tmp)
    print('writers/waits-sql: %s' % ('%d failures' % len(FAILS) if FAILS else 'all checks passed'))
    return 1 if FAILS else 0


if __name__ == '__main__':
    sys.exit(main())
