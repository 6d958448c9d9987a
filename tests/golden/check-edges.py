#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""check-edges.py - no reported wait lies where the trace shows it did not.

usage: check-edges.py --analyzer LA [--trace-cmd TC] [--min-complete-ns N]
                      TRACE.dat...

A wait is charged only where the trace shows every CPU for its whole
length (BRIEF rule 7).  This checks latency-analyze's JSON report against
`trace-cmd report` of the same file, with nothing of the analyzer's code:
every worst occurrence of every row (global, process and thread tables),
[end - dur, end] for its task, must

  - begin at or after the point where every CPU has data: the latest first
    record of the CPUs whose data begins with an EVENTS DROPPED marker
    (their oldest pages were overwritten);
  - not overlap a gap of lost events on any CPU (a marker between two
    records of that CPU: the gap runs from the one before to the one after);
  - hold no record showing its task running strictly inside it (the task's
    own pid before the [cpu], or a switch to it; not a kernel stack, which
    belongs to the record before it).

--min-complete-ns N: the trace must have such a start point at least N ns
after its first record (for a recording made to have one); the report's
trace.complete_from_ns must equal it.

Exit status 0 when every trace passes, 1 otherwise, 77 (skipped) without
trace-cmd.
"""

import argparse
import bisect
import collections
import json
import re
import shutil
import subprocess
import sys

# trace-cmd report -t now and then (one run in ~40 here, under load)
# prints each stamp as bare nanoseconds right after the CPU: "[000]1464179963720:"
LINE_RE = re.compile(r'^\s*(?P<comm>.*)-(?P<pid>\d+)\s+\[(?P<cpu>\d+)\]\s*'
                     r'(?:(?P<sec>\d+)\.(?P<frac>\d+)|(?P<ns>\d+)):\s+(?P<event>\w+):\s*(?P<rest>.*)$')
LOST_RE = re.compile(r'^CPU:(\d+) \[(?:\d+ )?EVENTS DROPPED\]')
NEXT_PID_RE = re.compile(r'next_pid=(\d+)')


def ts_ns(sec, frac):
    # -t prints nanoseconds; older trace-cmd fewer digits: scale them
    return int(sec) * 1_000_000_000 + int(frac.ljust(9, '0')[:9])


class Trace:
    """What trace-cmd report shows of the file: per CPU its records and
    drop markers, per task when it was seen running."""

    def __init__(self, path, trace_cmd):
        p = subprocess.run([trace_cmd, 'report', '-N', '-t', '-i', path],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True)
        out = p.stdout
        # why trace-cmd showed nothing, should the analyzer find waits
        self.error = 'trace-cmd report exit %d, %d bytes out: %s' % (
            p.returncode, len(out), p.stderr.strip()[-300:])
        self.first = {}                 # cpu -> first record ts
        self.dropped_first = set()      # cpus whose data begins with a drop
        self.gaps = []                  # (after ts, before ts) per mid-trace drop
        self.seen = collections.defaultdict(list)   # pid -> [ts]
        last = {}                       # cpu -> last record ts
        pending = set()                 # cpus with a drop marker not yet closed
        self.start = None
        for line in out.split('\n'):
            m = LOST_RE.match(line)
            if m:
                pending.add(int(m.group(1)))
                continue
            m = LINE_RE.match(line)
            if not m:
                continue
            cpu = int(m.group('cpu'))
            ts = (int(m.group('ns')) if m.group('ns') else
                  ts_ns(m.group('sec'), m.group('frac')))
            if self.start is None or ts < self.start:
                self.start = ts
            if cpu in pending:
                pending.discard(cpu)
                if cpu in last:
                    self.gaps.append((last[cpu], ts))
                else:
                    self.dropped_first.add(cpu)
            self.first.setdefault(cpu, ts)
            last[cpu] = ts
            pid = int(m.group('pid'))
            # a stack (-T) is written after the event before it, in that
            # event's context: the switch-out's is not the task running
            if pid and m.group('event') != 'kernel_stack':
                self.seen[pid].append(ts)
            if m.group('event') == 'sched_switch':
                n = NEXT_PID_RE.search(m.group('rest'))
                if n and int(n.group(1)):
                    self.seen[int(n.group(1))].append(ts)
        # a drop with no record after it: missing to the end
        for cpu in pending:
            self.gaps.append((last.get(cpu, 0), 1 << 64))
        for v in self.seen.values():
            v.sort()
        self.complete = max((self.first[c] for c in self.dropped_first),
                            default=self.start)

    def why_not(self, tid, start, end):
        """Why the trace cannot show a wait of @tid over [start, end]."""
        if start < self.complete:
            return 'begins %d ns before every CPU has data (%d)' % (
                self.complete - start, self.complete)
        for a, b in self.gaps:
            if a < end and b > start:
                return 'overlaps the lost events between %d and %d' % (a, b)
        ts = self.seen.get(tid, [])
        i = bisect.bisect_right(ts, start)
        if i < len(ts) and ts[i] < end:
            return 'its task is seen running at %d' % ts[i]
        return None


def occurrences(rep):
    """(where, tid, start, end) of every worst occurrence in the report."""
    views = [('', rep)] + [('window %d ' % w['index'], w)
                           for w in rep.get('windows', [])]
    for vname, v in views:
        tables = [('global', v.get('global', []))]
        for p in v.get('processes', []):
            tables.append(('%s (%d)' % (p['comm'], p['pid']), p.get('reasons', [])))
            for t in p.get('threads', []):
                tables.append(('  thread %d' % t['tid'], t.get('reasons', [])))
        for tname, rows in tables:
            for r in rows:
                for w in r.get('worst', []):
                    yield ('%s%s: %s' % (vname, tname, r['reason']), w['tid'],
                           w['end_ns'] - w['dur_ns'], w['end_ns'])


def check(path, la, trace_cmd, min_complete, extra):
    trace = Trace(path, trace_cmd)
    p = subprocess.run([la, '--format=json', '-q'] + extra + [path],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    if p.returncode not in (0, 4):
        print('FAIL %s: latency-analyze exit %d: %s' % (path, p.returncode,
                                                        p.stderr.strip()))
        return False
    if p.returncode == 4:
        print('ok   %s: no scheduler events, no waits' % path)
        return True
    rep = json.loads(p.stdout)
    if trace.start is None:
        print('FAIL %s: the analyzer reports waits but no record was read '
              'from trace-cmd (%s)' % (path, trace.error))
        return False
    ok = True
    if min_complete is not None:
        got = rep['trace'].get('complete_from_ns')
        if trace.complete - trace.start < min_complete or got != trace.complete:
            print('FAIL %s: every CPU has data from %d (%d ns in); the report says %s'
                  % (path, trace.complete, trace.complete - trace.start, got))
            ok = False
    n = 0
    for where, tid, start, end in occurrences(rep):
        n += 1
        why = trace.why_not(tid, start, end)
        if why:
            print('FAIL %s: %s: tid %d, %d ns ending %d: %s'
                  % (path, where, tid, end - start, end, why))
            ok = False
    if ok:
        print('ok   %s: %d worst occurrences, every one inside what the trace '
              'shows (complete from +%d ns, %d gaps)'
              % (path, n, trace.complete - trace.start, len(trace.gaps)))
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--analyzer', required=True)
    ap.add_argument('--trace-cmd', default='trace-cmd')
    ap.add_argument('--min-complete-ns', type=int)
    ap.add_argument('--sleep-cutoff-0', action='store_true',
                    help='also with every wait charged (--sleep-cutoff=0 --no-maxtime -k)')
    ap.add_argument('traces', nargs='+')
    a = ap.parse_args()
    if not shutil.which(a.trace_cmd):
        print('SKIPPED: %s not found' % a.trace_cmd)
        return 77
    ok = True
    for t in a.traces:
        ok &= check(t, a.analyzer, a.trace_cmd, a.min_complete_ns, [])
        if a.sleep_cutoff_0:
            ok &= check(t, a.analyzer, a.trace_cmd, a.min_complete_ns,
                        ['--sleep-cutoff=0', '--no-maxtime', '-k'])
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
