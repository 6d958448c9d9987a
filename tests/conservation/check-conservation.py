#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""check-conservation.py - no off-CPU time the trace shows goes missing.

usage: check-conservation.py --analyzer LA [--trace-cmd TC] [--perf PERF]
                             [--arg=OPT]... [--buffer NAME] [--summary]
                             [--json FILE] [--report-only] FILE...

For every task, every interval in which the trace shows it off CPU must lie
in that task's rows of `latency-analyze --format=waits` (BRIEF rule 9),
whatever their kind, charged or dropped under a named reason, to 1 us per
interval.  The intervals come from `trace-cmd report` (a trace.dat) or
`perf script` (a perf.data), read here with nothing of the analyzer's code:

  * switch-out -> the task's next switch-in, whatever its prev_state
    (S, D, I, R, R+, T, t, P, W, a number...); a dead task's last
    switch-out (X, Z, x) starts none;
  * a task whose first event is its wakeup (sched_wakeup; sched_waking
    where the file has no sched_wakeup): that wakeup -> its switch-in;
  * a switch-in the trace lacks: the task is seen running (the task of an
    event on some CPU, its own switch-out included) with no switch-in
    since its switch-out.  It started running on that CPU after the CPU's
    record before (which shows another task there): the interval proven
    is switch-out -> that record;
  * open when the trace ends: switch-out -> the last record.

A wait row covers [start_ns, end_ns]; a row whose end the trace did not
show (empty end_ns: unfinished, no switch-in, lost track) covers from its
start to the end of the interval it begins in, and a row whose start is
not known, from the start of the interval it ends in.  Time of a task
covered by two of its closed rows is counted apart ("twice").

Uncovered intervals are grouped by why: the state at switch-out, the
interval's kind above, whether lost events or a CPU without data yet fall
inside it, and which part of it is missing (all, a hole at the start, at
the end, inside).  Exit status 0 when nothing is uncovered or counted
twice, 1 otherwise (--report-only: 0 whenever the tools ran), 2 when a
tool failed, 77 (skipped) without trace-cmd or perf for a file that needs
it.
"""

import argparse
import bisect
import collections
import csv
import io
import json
import re
import os
import shutil
import struct
import subprocess
import sys
import tempfile

TOLERANCE_NS = 1000         # per interval

# trace-cmd report -t now and then prints a stamp as bare nanoseconds
# right after the CPU: "[000]1464179963720:"
TC_LINE = re.compile(r'^\s*(?P<comm>.*)-(?P<pid>-?\d+)\s+\[(?P<cpu>\d+)\]\s*'
                     r'(?:(?P<sec>\d+)\.(?P<frac>\d+)|(?P<ns>\d+)):\s+'
                     r'(?P<event>\w+):\s*(?P<rest>.*)$')
TC_BUFFER = re.compile(r'^(?P<buf>[^\s:]+): (?P<line>.*)$')
TC_LOST = re.compile(r'^CPU:(\d+) \[(?:\d+ )?EVENTS DROPPED\]')
# perf script -F comm,tid,cpu,time,event,trace --ns --show-lost-events
PERF_LINE = re.compile(r'^\s*(?P<comm>.*?)\s+(?P<pid>-?\d+)\s+\[(?P<cpu>\d+)\]\s+'
                       r'(?P<sec>\d+)\.(?P<frac>\d+):\s+(?:(?P<sys>\w+):)?'
                       r'(?P<event>\w+):?\s*(?P<rest>.*)$')
SWITCH = re.compile(r'prev_comm=(?P<pc>.*) prev_pid=(?P<prev>-?\d+) '
                    r'prev_prio=-?\d+ prev_state=(?P<state>\S+) ==> '
                    r'next_comm=(?P<nc>.*) next_pid=(?P<next>-?\d+)')
WAKEUP = re.compile(r'comm=(?P<comm>.*) pid=(?P<pid>-?\d+) ')
DEAD = {'X', 'Z', 'x', 'X|Z', 'Z|X'}


class Error(Exception):
    pass


def ns_of(m):
    if m.group('ns'):
        return int(m.group('ns'))
    return int(m.group('sec')) * 1_000_000_000 + int(m.group('frac').ljust(9, '0')[:9])


class Interval:
    __slots__ = ('tid', 'start', 'end', 'state', 'kind', 'cut', 'lost')

    def __init__(self, tid, start, end, state, kind, cut=False, lost=False):
        self.tid, self.start, self.end = tid, start, end
        self.state, self.kind, self.cut, self.lost = state, kind, cut, lost


class Intervals:
    """Every off-CPU interval a trace's text shows, per task."""

    def __init__(self, wakeup_event, state=lambda s: s):
        self.wakeup_event = wakeup_event
        self.state = state      # prev_state as printed -> as meant
        self.out = {}           # tid -> (ts, state) since its switch-out
        self.first_wake = {}    # tid -> ts of a wakeup that was its first event
        self.known = set()      # tids any event named
        self.cpu_last = {}      # cpu -> ts of its last record
        self.gaps = []          # (from, to): a CPU's data missing between
        self.lost_pending = set()
        self.cpu_first = {}
        self.dropped_first = set()
        self.intervals = []
        self.dead = 0
        self.complete = None
        self.cpu_end = {}       # cpu -> its last record, where its data ends early
        self.first_ts = self.last_ts = None

    def close(self, tid, end, kind, cut=False):
        start, state = self.out.pop(tid)
        if end >= start:
            self.intervals.append(Interval(tid, start, end, state, kind, cut))

    def running(self, tid, cpu, ts):
        """@tid is the task of a record of @cpu at @ts."""
        if tid <= 0:
            return
        if tid in self.out:
            # its switch-in is missing: it began running after the CPU's
            # record before this one
            prev = self.cpu_last.get(cpu)
            if prev is not None and prev >= self.out[tid][0]:
                self.close(tid, prev, 'switch-in missing', cut=True)
            else:
                self.out.pop(tid)
        # running, not waiting: a first wakeup told nothing
        self.first_wake.pop(tid, None)
        self.known.add(tid)

    def record(self, cpu, ts, current, event, rest):
        if self.first_ts is None:
            self.first_ts = ts
        self.last_ts = ts if self.last_ts is None else max(self.last_ts, ts)
        if cpu in self.lost_pending:
            self.lost_pending.discard(cpu)
            if cpu in self.cpu_first:
                self.gaps.append((self.cpu_last[cpu], ts))
            else:
                self.dropped_first.add(cpu)
        self.cpu_first.setdefault(cpu, ts)
        # a stack belongs to the record before it (its task was switched out)
        if event != 'kernel_stack':
            self.running(current, cpu, ts)
        if event == 'sched_switch':
            m = SWITCH.search(rest)
            if not m:
                raise Error('cannot parse sched_switch: %r' % rest)
            prev, nxt, state = int(m['prev']), int(m['next']), self.state(m['state'])
            if prev > 0:
                self.known.add(prev)
                if prev in self.out:    # its own record showed it running
                    self.out.pop(prev)
                if state in DEAD:
                    self.dead += 1
                else:
                    self.out[prev] = (ts, state)
            if nxt > 0:
                if nxt in self.out:
                    self.close(nxt, ts, 'switch-out to switch-in')
                elif nxt in self.first_wake:
                    start = self.first_wake.pop(nxt)
                    self.intervals.append(Interval(nxt, start, ts, '?',
                                                   'first event a wakeup'))
                self.known.add(nxt)
        elif event == self.wakeup_event:
            m = WAKEUP.search(rest + ' ')
            if m:
                pid = int(m['pid'])
                if pid > 0 and pid not in self.known:
                    self.first_wake[pid] = ts
                    self.known.add(pid)
        elif event.startswith('sched_wak') or event in ('sched_process_fork',
                                                         'task_newtask'):
            # a task any event named first is not first seen woken
            for pid in re.findall(r'\bpid=(-?\d+)', rest):
                self.known.add(int(pid))
        self.cpu_last[cpu] = ts

    def hidden(self, start, end):
        """Why the trace may not show all of [start, end]: None if it does."""
        if self.complete is not None and start < self.complete:
            return 'begun before every CPU has data'
        for a, b in self.gaps:
            if a < end and b > start:
                return 'across lost data'
        return None

    def lost(self, cpu):
        self.lost_pending.add(cpu)

    def finish(self):
        for tid in list(self.out):
            self.close(tid, self.last_ts, 'open at the end')
        # drops with no record after them: lost to the end; so is a CPU's
        # data that ends early (a file cut short)
        for cpu in self.lost_pending:
            self.gaps.append((self.cpu_last.get(cpu, self.first_ts), 1 << 64))
        self.gaps += [(ts, 1 << 64) for ts in self.cpu_end.values()]
        self.complete = max((self.cpu_first[c] for c in self.dropped_first),
                            default=self.first_ts)
        for iv in self.intervals:
            iv.lost = self.hidden(iv.start, iv.end) is not None
        return self


def run(cmd):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, errors='replace')
    except OSError as e:
        raise Error('cannot run %s: %s' % (cmd[0], e))
    return p


def is_perf(path):
    with open(path, 'rb') as f:
        return f.read(8) in (b'PERFILE2', b'2ELIFREP')


def trace_intervals(path, tools, buffer):
    if is_perf(path):
        if not shutil.which(tools.perf):
            return None
        p = run([tools.perf, 'script', '-i', path, '-F',
                 'comm,tid,cpu,time,event,trace', '--ns', '--show-lost-events'])
        if p.returncode:
            raise Error('perf script exit %d: %s' % (p.returncode, p.stderr.strip()[-300:]))
        lines = p.stdout.split('\n')
        # perf sched record has sched_waking, not sched_wakeup
        wake = 'sched_wakeup' if any(': sched:sched_wakeup: ' in l for l in lines) \
            else 'sched_waking'
        iv = Intervals(wake)
        for line in lines:
            m = PERF_LINE.match(line)
            if not m:
                continue
            if m['event'] == 'PERF_RECORD_LOST':
                iv.lost(int(m['cpu']))
                continue
            if m['event'].startswith('PERF_RECORD') or m['sys'] is None:
                continue
            iv.record(int(m['cpu']), ns_of_perf(m), int(m['pid']), m['event'],
                      m['rest'])
        return iv.finish()
    if not shutil.which(tools.trace_cmd):
        return None
    cut, src = set(), path
    with tempfile.TemporaryDirectory() as tmp:
        p = run([tools.trace_cmd, 'report', '-N', '-t', '-i', path])
        if 'File possibly truncated' in p.stdout + p.stderr:
            src, cut = mend_v6(path, tmp)
            p = run([tools.trace_cmd, 'report', '-N', '-t', '-i', src])
        reader = state_reader(tools.trace_cmd, src)
    if p.returncode and not p.stdout.count('\n') > 1:
        raise Error('trace-cmd report exit %d: %s' % (p.returncode,
                                                      p.stderr.strip()[-300:]))
    # an instance's lines begin with its name: "NAME: comm-pid [cpu] ..."
    buffers = collections.defaultdict(list)
    for line in p.stdout.split('\n'):
        m = TC_BUFFER.match(line)
        if m:
            buffers[m['buf']].append(m['line'])
        else:
            buffers[''].append(line)
    lines = buffers[pick_buffer(buffers, buffer)]
    wake = 'sched_wakeup' if any(' sched_wakeup: ' in l for l in lines) \
        else 'sched_waking'
    iv = Intervals(wake, reader)
    for cpu in cut:
        iv.cpu_end[cpu] = 0             # no record at all: missing from the start
    for line in lines:
        m = TC_LINE.match(line)
        if m and int(m['cpu']) in cut:
            iv.cpu_end[int(m['cpu'])] = ns_of(m)
    for line in lines:
        m = TC_LOST.match(line)
        if m:
            iv.lost(int(m.group(1)))
            continue
        m = TC_LINE.match(line)
        if m:
            iv.record(int(m['cpu']), ns_of(m), int(m['pid']), m['event'], m['rest'])
    return iv.finish()


def mend_v6(path, tmp):
    """A v6 trace.dat cut short inside its CPU data (head -c), as
    trace-cmd can read it: each CPU's size cut to its whole pages in the
    file.  Returns the copy's path and the CPUs whose data ends early."""
    with open(path, 'rb') as f:
        data = bytearray(f.read())
    if data[3:10] != b'tracing' or data[10:12] != b'6\0':
        raise Error('trace-cmd cannot read it, and it is no v6 trace.dat to mend')
    end = '<' if data[12] == 0 else '>'
    page = struct.unpack_from(end + 'I', data, 14)[0]
    at = data.find(b'options  \0')
    cpus = struct.unpack_from(end + 'I', data, at - 4)[0]
    at = data.find(b'flyrecord\0', at)
    if at < 0:
        raise Error('no flyrecord section')
    at += len(b'flyrecord\0')
    cut = set()
    for cpu in range(cpus):
        off, size = struct.unpack_from(end + 'QQ', data, at + 16 * cpu)
        have = max(0, min(size, len(data) - off)) // page * page
        if have < size:
            cut.add(cpu)
            struct.pack_into(end + 'QQ', data, at + 16 * cpu,
                             off if have else 0, have)
    out = os.path.join(tmp, 'mended.dat')
    with open(out, 'wb') as f:
        f.write(data)
    return out, cut


def state_reader(trace_cmd, path):
    """How to read prev_state as trace-cmd report prints it: Linux 4.14
    stored an index (1 S, 2 D, 3 T, ...) in it and printed that number
    with the bit letters, so a dead task reads "S|T" and an idle kernel
    thread "t"; 4.15 went back to bits.  Told by the print fmt: there
    "+" tests a plain number far above the letters (TASK_STATE_MAX)."""
    p = run([trace_cmd, 'report', '--events', '-i', path])
    fmt = ''
    for block in p.stdout.split('name: ')[1:]:
        if block.startswith('sched_switch\n'):
            fmt = block[block.find('print fmt:'):].split('\n')[0]
    letters = {int(b, 0): l for b, l in
               re.findall(r'\{\s*(0x[0-9a-fA-F]+|\d+)\s*,\s*"(\w)"\s*\}', fmt)}
    plus = re.search(r'&\s*(0x[0-9a-fA-F]+|\d+)[uUlL]*\s*\?\s*"\+"', fmt)
    if not letters or not plus or 'I' not in letters.values() or \
            int(plus.group(1), 0) <= 2 * max(letters):
        return lambda state: state
    bit = {l: b for b, l in letters.items()}

    def index(state):
        plus = state.endswith('+')
        v = sum(bit.get(l, 0) for l in state.rstrip('+').split('|')) \
            if state.rstrip('+') != 'R' else 0
        name = letters.get(1 << (v - 1), '#%d' % v) if v else 'R'
        return name + ('+' if plus else '')
    return index


def pick_buffer(buffers, want):
    """The buffer latency-analyze reads: --buffer's ('-': the top level),
    else the top level if it has scheduler events, else the one instance
    that has."""
    if want is not None:
        want = '' if want == '-' else want
        if want not in buffers:
            raise Error('trace-cmd report shows no buffer %r' % want)
        return want
    sched = [b for b, ls in sorted(buffers.items())
             if any(' sched_switch: ' in l for l in ls)]
    if '' in sched or not sched:
        return ''
    return sched[0]


def ns_of_perf(m):
    return int(m['sec']) * 1_000_000_000 + int(m['frac'].ljust(9, '0')[:9])


def waits(path, la, extra):
    """Per tid, the wait rows: (start or None, end or None, row)."""
    p = run([la, '--format=waits', '-q'] + extra + [path])
    if p.returncode not in (0, 4, 5):
        raise Error('latency-analyze exit %d: %s' % (p.returncode, p.stderr.strip()))
    rows = collections.defaultdict(list)
    for r in csv.DictReader(io.StringIO(p.stdout)):
        s = int(r['start_ns']) if r['start_ns'] else None
        e = int(r['end_ns']) if r['end_ns'] else None
        rows[int(r['tid'])].append((s, e, r))
    return rows, p.returncode


def segments(iv, rows):
    """What of @iv the task's rows cover: [start, end] pieces."""
    out = []
    for s, e, _ in rows:
        if s is not None and e is not None:
            if s < iv.end and e > iv.start:
                out.append((max(s, iv.start), min(e, iv.end)))
        elif s is not None:
            if iv.start - TOLERANCE_NS <= s <= iv.end:
                out.append((max(s, iv.start), iv.end))
        elif e is not None:
            if iv.start <= e <= iv.end + TOLERANCE_NS:
                out.append((iv.start, min(e, iv.end)))
    return out


def uncovered(iv, segs):
    """Uncovered ns of @iv, and where: 'all', 'start', 'end' or 'inside'."""
    segs.sort()
    missing, where, at = 0, set(), iv.start
    for a, b in segs:
        if a > at:
            missing += a - at
            where.add('start' if at == iv.start else 'inside')
        at = max(at, b)
    if at < iv.end:
        missing += iv.end - at
        where.add('end' if segs else 'all')
    if not segs:
        return missing, 'no row'
    if len(where) > 1:
        return missing, 'holes at ' + ' and '.join(sorted(where))
    return missing, 'a hole at the %s' % where.pop() if where else ''


def twice(rows):
    """Time of one task covered by two of its closed rows."""
    closed = sorted((s, e) for s, e, _ in rows if s is not None and e is not None)
    over, reach = 0, None
    for s, e in closed:
        if reach is not None and s < reach:
            over += min(e, reach) - s
        reach = e if reach is None else max(reach, e)
    return over


def index(rows):
    """Per tid, rows sorted by where they touch time, for bisect."""
    out = {}
    for tid, rs in rows.items():
        keyed = sorted((((s if s is not None else e), s, e, r) for s, e, r in rs
                        if s is not None or e is not None), key=lambda k: k[0])
        out[tid] = ([k[0] for k in keyed], [(k[1], k[2], k[3]) for k in keyed])
    return out


def near(idx, tid, iv, longest):
    """The rows of @tid that may touch @iv."""
    if tid not in idx:
        return []
    keys, rs = idx[tid]
    lo = bisect.bisect_left(keys, iv.start - longest)
    hi = bisect.bisect_right(keys, iv.end + TOLERANCE_NS)
    return rs[lo:hi]


def fmt_ms(ns):
    return '%.3f ms' % (ns / 1e6)


def check(path, tools, la, extra, buffer):
    trace = trace_intervals(path, tools, buffer)
    if trace is None:
        return None
    ivs = trace.intervals
    if buffer is not None:
        extra = extra + ['--buffer=' + ('' if buffer == '-' else buffer)]
    rows, rc = waits(path, la, extra)
    idx = index(rows)
    longest = max((e - s for rs in rows.values() for s, e, _ in rs
                   if s is not None and e is not None), default=0)
    groups = collections.defaultdict(lambda: [0, 0, None])
    res = {'file': path, 'analyzer_exit': rc, 'intervals': len(ivs),
           'interval_ns': sum(i.end - i.start for i in ivs),
           'uncovered': 0, 'uncovered_ns': 0, 'twice_ns': 0, 'groups': {}}
    for iv in ivs:
        miss, where = uncovered(iv, segments(iv, near(idx, iv.tid, iv, longest)))
        if miss <= TOLERANCE_NS:
            continue
        key = 'state %s, %s%s, %s' % (iv.state, iv.kind,
                                      ', lost data inside' if iv.lost else '', where)
        g = groups[key]
        g[0] += 1
        g[1] += miss
        if g[2] is None or miss > g[2][2]:
            g[2] = (iv.tid, iv.start, miss)
        res['uncovered'] += 1
        res['uncovered_ns'] += miss
    res['twice_ns'] = sum(twice(rs) for rs in rows.values())
    # and none charged where a CPU's data is missing (BRIEF rule 7)
    res['charged_hidden'] = 0
    for tid, rs in rows.items():
        for s, e, r in rs:
            if not r['dropped'] and s is not None and e is not None and \
                    trace.hidden(s, e):
                res['charged_hidden'] += 1
                if 'charged_hidden_example' not in res:
                    res['charged_hidden_example'] = '%s tid %d %d..%d: %s' % (
                        r['reason'], tid, s, e, trace.hidden(s, e))
    for key, (n, ns, ex) in sorted(groups.items(), key=lambda kv: -kv[1][1]):
        res['groups'][key] = {'count': n, 'ns': ns, 'worst_tid': ex[0],
                              'worst_start_ns': ex[1], 'worst_ns': ex[2]}
    return res


def show(res, summary):
    ok = not res['uncovered'] and res['twice_ns'] <= TOLERANCE_NS and \
        not res['charged_hidden']
    print('%s %s: %d intervals (%s), %d uncovered (%s), %s counted twice, '
          '%d charged where data is missing'
          % ('ok  ' if ok else 'FAIL', res['file'], res['intervals'],
             fmt_ms(res['interval_ns']), res['uncovered'],
             fmt_ms(res['uncovered_ns']), fmt_ms(res['twice_ns']),
             res['charged_hidden']))
    if res['charged_hidden'] and not summary:
        print('       e.g. %s' % res['charged_hidden_example'])
    if summary:
        return ok
    for key, g in res['groups'].items():
        print('       %6d  %14s  %s (worst: tid %d at %d, %s)'
              % (g['count'], fmt_ms(g['ns']), key, g['worst_tid'],
                 g['worst_start_ns'], fmt_ms(g['worst_ns'])))
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--analyzer', required=True)
    ap.add_argument('--trace-cmd', default='trace-cmd')
    ap.add_argument('--perf', default='perf')
    ap.add_argument('--arg', action='append', default=[],
                    help='an option for latency-analyze (repeatable)')
    ap.add_argument('--buffer', help="the buffer of a trace.dat to read ('-': the top level)")
    ap.add_argument('--summary', action='store_true', help='one line a file')
    ap.add_argument('--json', help='the figures, as JSON, into this file')
    ap.add_argument('--report-only', action='store_true',
                    help='exit 0 whatever is uncovered (for figures)')
    ap.add_argument('files', nargs='+')
    a = ap.parse_args()
    ok, skipped, out = True, 0, []
    for f in a.files:
        try:
            res = check(f, a, a.analyzer, a.arg, a.buffer)
        except Error as e:
            print('FAIL %s: %s' % (f, e))
            return 2
        if res is None:
            print('SKIP %s: no %s to read it with' % (f, 'perf' if is_perf(f) else 'trace-cmd'))
            skipped += 1
            continue
        ok &= show(res, a.summary)
        out.append(res)
    if a.json:
        with open(a.json, 'w') as f:
            json.dump(out, f, indent=1)
    if skipped == len(a.files):
        return 77
    return 0 if ok or a.report_only else 1


if __name__ == '__main__':
    sys.exit(main())
