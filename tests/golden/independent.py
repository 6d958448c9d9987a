#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Independent count of blocked time in a trace.dat, for the golden tests.

This shares no code with the analyzer: it reads the text that
`trace-cmd report -N -t` prints and applies BRIEF.md's accounting rules 1, 3
and 6 for traces without sched_stat_* events (blocked time derived from
sched_switch and sched_wakeup).  check.py compares the analyzer against it.

Choices, made once here (they are the rules, read literally):

* Input: `trace-cmd report -N -t -F sched_switch,sched_wakeup,sched_waking,
  sched_wakeup_new`.  -N: no
  plugins, so prev_state is printed by the kernel's own print fmt stored in the
  file.  trace-cmd 3.1.6's sched_switch plugin prints wrong letters on 6.x
  kernels (Z as X, X as Z, I as W, R+ as R).  -t: nanosecond timestamps.
  Lines are merged across CPUs by trace-cmd in timestamp order.
* Blocked interval (rule 1): from a task's sched_switch out with prev_state S
  or D to that task's next sched_wakeup (field `pid`, not the waker).
  sched_waking is not used.  If the task is switched in again with no wakeup in
  between, the interval ends at the switch-in (and no wait-for-cpu interval
  follows); these are counted as `switch_in_without_wakeup`.
  prev_state I (TASK_IDLE), R, R+ (preempted), T, t, P, X, Z are not blocked.
  A state printed with several letters (e.g. "D|K") counts as D if it has a D,
  else as S if it has an S.
* Interruptible cut-off (rule 3): an S interval longer than 5 ms
  (> 5,000,000 ns) is dropped: counted in dropped_over_5ms, not charged.
  Exactly 5 ms is charged.  D intervals are never dropped (no maxtime here:
  these traces carry no latencytop events).
* Waiting for cpu (rule 6): from the sched_wakeup that ended a blocked interval
  to the task's next switch-in; so too from the wakeup of a task stopped (T, t:
  not blocked time, BRIEF rule 9) and from a wakeup that is the task's first
  event in the trace (asleep since before it: the wait after is whole in the
  trace, issue 47).  Other wakeups of a task that is not blocked (it is
  running, runnable, or the trace has shown it but not blocking) start
  nothing; they are counted as `wakeups_not_blocked`.  sched_wakeup_new (a
  new task's first wakeup) is not a wakeup from blocking and starts nothing.
  Not part of rule 6 but counted apart, so a report that also puts other
  run-queue time into "waiting for cpu" can be told from a wrong one:
  runq_preempted_* (switch-out R or R+ to the next switch-in) and runq_new_*
  (sched_wakeup_new to the new task's first switch-in).
  If the task is seen running (it is the current task, common_pid, of any
  switch/wakeup/waking event) before a switch-in was recorded, that switch-in
  was lost: the wait ends there, as an upper bound, and goes to
  waitcpu_inferred_count / waitcpu_inferred_total_ns, not to waitcpu_*.
  (The 6.18 VM kernel these samples come from sometimes loses the
  sched_switch from the idle task, swapper/N ==> task, without any dropped-
  event count; switch_chain_breaks counts, per CPU, switches whose prev_pid
  is not the previous switch's next_pid on that CPU.)
* A task switched out S/D a second time with neither wakeup nor switch-in
  seen in between: the first wait's end is unknown; it is not charged and is
  counted as blocked_end_lost.  sched_waking is otherwise unused.
* Intervals that have not ended when the trace ends are not counted
  (`unfinished`); neither are waits that began before the trace did (their
  start is unknown).  pid 0 (the idle tasks) is ignored.
* Attribution: each interval goes to the task (pid) and to the comm the task
  had when it switched out (prev_comm), i.e. per process name.  Rows for
  different pids with one comm are summed.

Output (JSON on stdout, or --out FILE):
  {"trace": FILE, "cpus": N, "lost_events": N (drop markers in the report),
   "buffer_losses": N (overruns + dropped events in the saved buffer stats),
   "switch_chain_breaks": {CPU: N},
   "events": {...}, "first_ns", "last_ns", "comms": {COMM: ROW},
   "tasks": {PID: ROW + "comm"}}
  ROW = {count_S_le_5ms, total_ns, count_D, total_D_ns, dropped_over_5ms,
         dropped_total_ns, waitcpu_count, waitcpu_total_ns,
         waitcpu_inferred_count, waitcpu_inferred_total_ns, blocked_count,
         blocked_total_ns, max_blocked_ns, switch_in_without_wakeup,
         blocked_end_lost, wakeups_not_blocked, unfinished, runq_preempted_count,
         runq_preempted_total_ns, runq_new_count, runq_new_total_ns, pids}
  where total_ns is the S (<= 5 ms) total and blocked_* = S (<= 5 ms) + D,
  i.e. what LatencyTOP charges.

usage: independent.py [--trace-cmd PATH] [--comm NAME ...] [--out FILE] TRACE.dat
"""

import argparse
import json
import re
import subprocess
import sys

CUTOFF_NS = 5_000_000

# trace-cmd report -t now and then (one run in ~40 here, under load)
# prints each stamp as bare nanoseconds right after the CPU: "[000]1464179963720:"
LINE_RE = re.compile(r'^\s*(?P<comm>.*)-(?P<pid>\d+)\s+\[(?P<cpu>\d+)\]\s*'
                     r'(?:(?P<sec>\d+)\.(?P<frac>\d+)|(?P<ns>\d+)):\s+(?P<event>\w+):\s+(?P<rest>.*)$')
SWITCH_RE = re.compile(r'^prev_comm=(?P<prev_comm>.*) prev_pid=(?P<prev_pid>-?\d+) '
                       r'prev_prio=-?\d+ prev_state=(?P<state>\S+) ==> '
                       r'next_comm=(?P<next_comm>.*) next_pid=(?P<next_pid>-?\d+) '
                       r'next_prio=-?\d+$')
WAKEUP_RE = re.compile(r'^comm=(?P<comm>.*) pid=(?P<pid>-?\d+) prio=-?\d+ '
                       r'target_cpu=\d+$')
LOST_RE = re.compile(r'^CPU:(\d+) \[(?:(\d+) )?EVENTS DROPPED\]')
STAT_RE = re.compile(r'^(overrun|commit overrun|dropped events):\s*(\d+)')

ROW_KEYS = ('count_S_le_5ms', 'total_ns', 'count_D', 'total_D_ns',
            'dropped_over_5ms', 'dropped_total_ns', 'waitcpu_count',
            'waitcpu_total_ns', 'waitcpu_inferred_count',
            'waitcpu_inferred_total_ns', 'blocked_count', 'blocked_total_ns',
            'max_blocked_ns', 'switch_in_without_wakeup', 'blocked_end_lost',
            'wakeups_not_blocked', 'unfinished', 'runq_preempted_count',
            'runq_preempted_total_ns', 'runq_new_count', 'runq_new_total_ns')


class Error(Exception):
    pass


def new_row():
    row = dict.fromkeys(ROW_KEYS, 0)
    row['pids'] = set()
    return row


class Counter:
    def __init__(self):
        self.comms = {}
        self.tasks = {}
        self.blocked = {}   # pid -> (start_ns, 'S'|'D', comm)
        self.waiting = {}   # pid -> (wakeup_ns, comm)
        self.last_comm = {}
        self.events = {'sched_switch': 0, 'sched_wakeup': 0, 'sched_waking': 0,
                       'sched_wakeup_new': 0}
        self.runq_other = {}    # pid -> (since_ns, comm, 'preempted'|'new')
        self.stopped = {}       # pid -> comm, switched out T or t
        self.seen = set()       # pids any event showed (not a waking's)
        self.cpu_current = {}   # cpu -> next_pid of its last sched_switch
        self.chain_breaks = {}  # cpu -> switches whose prev_pid is not the
                                # next_pid of that CPU's previous switch
        self.lost = 0
        self.cpus = None
        self.first_ns = None
        self.last_ns = None

    def rows(self, pid, comm):
        task = self.tasks.setdefault(pid, new_row())
        by_comm = self.comms.setdefault(comm, new_row())
        by_comm['pids'].add(pid)
        task['pids'].add(pid)
        return (task, by_comm)

    def add(self, pid, comm, key, ns=None, total_key=None):
        for row in self.rows(pid, comm):
            row[key] += 1
            if total_key:
                row[total_key] += ns

    def blocked_interval(self, pid, start, kind, comm, end):
        dur = end - start
        if kind == 'D':
            self.add(pid, comm, 'count_D', dur, 'total_D_ns')
        elif dur > CUTOFF_NS:
            self.add(pid, comm, 'dropped_over_5ms', dur, 'dropped_total_ns')
            return
        else:
            self.add(pid, comm, 'count_S_le_5ms', dur, 'total_ns')
        for row in self.rows(pid, comm):
            row['blocked_count'] += 1
            row['blocked_total_ns'] += dur
            row['max_blocked_ns'] = max(row['max_blocked_ns'], dur)

    def ran(self, pid, ts):
        """pid is seen on a CPU (it emitted an event) without a recorded
        switch-in after its wakeup: end its wait for cpu here, as an upper
        bound, counted apart from the observed ones."""
        w = self.waiting.pop(pid, None)
        if w:
            self.add(pid, w[1], 'waitcpu_inferred_count', ts - w[0],
                     'waitcpu_inferred_total_ns')
        self.runq_other.pop(pid, None)

    def switch(self, ts, cpu, m):
        prev, nxt = int(m['prev_pid']), int(m['next_pid'])
        if cpu in self.cpu_current and self.cpu_current[cpu] != prev:
            self.chain_breaks[cpu] = self.chain_breaks.get(cpu, 0) + 1
        self.cpu_current[cpu] = nxt
        self.seen.update((prev, nxt))
        if prev != 0:
            self.last_comm[prev] = m['prev_comm']
            self.stopped.pop(prev, None)
            old = self.blocked.pop(prev, None)
            if old:
                # Switched out again with neither wakeup nor switch-in seen:
                # the end of that wait is unknown, so it is not charged.
                self.add(prev, old[2], 'blocked_end_lost')
            flags = set(m['state'].rstrip('+').split('|'))
            if m['state'].endswith('+'):
                kind = None
            elif 'D' in flags:
                kind = 'D'
            elif 'S' in flags:
                kind = 'S'
            else:
                kind = None
            if kind:
                self.blocked[prev] = (ts, kind, m['prev_comm'])
            elif m['state'] in ('R', 'R+'):
                self.runq_other[prev] = (ts, m['prev_comm'], 'preempted')
            elif flags & {'T', 't'}:
                self.stopped[prev] = m['prev_comm']
        if nxt != 0:
            self.last_comm[nxt] = m['next_comm']
            self.stopped.pop(nxt, None)
            b = self.blocked.pop(nxt, None)
            if b:
                self.blocked_interval(nxt, b[0], b[1], b[2], ts)
                self.add(nxt, b[2], 'switch_in_without_wakeup')
            w = self.waiting.pop(nxt, None)
            if w:
                self.add(nxt, w[1], 'waitcpu_count', ts - w[0], 'waitcpu_total_ns')
            r = self.runq_other.pop(nxt, None)
            if r:
                self.add(nxt, r[1], f'runq_{r[2]}_count', ts - r[0], f'runq_{r[2]}_total_ns')

    def wakeup(self, ts, cpu, m):
        pid = int(m['pid'])
        if pid == 0:
            return
        b = self.blocked.pop(pid, None)
        if b is None:
            stopped = self.stopped.pop(pid, None)
            if stopped is not None or pid not in self.seen:
                # a stop, or a sleep since before the trace, ends here
                self.seen.add(pid)
                self.waiting[pid] = (ts, stopped or m['comm'])
                return
            self.add(pid, m['comm'], 'wakeups_not_blocked')
            return
        self.blocked_interval(pid, b[0], b[1], b[2], ts)
        self.waiting[pid] = (ts, b[2])

    def wakeup_new(self, ts, cpu, m):
        pid = int(m['pid'])
        self.seen.add(pid)
        self.runq_other[pid] = (ts, m['comm'], 'new')

    def finish(self):
        for pid, b in self.blocked.items():
            self.add(pid, b[2], 'unfinished')
        for pid, w in self.waiting.items():
            self.add(pid, w[1], 'unfinished')

    def feed(self, line):
        m = LINE_RE.match(line)
        if not m:
            if line.startswith('cpus='):
                self.cpus = int(line[5:])
            lost = LOST_RE.search(line)
            if lost:
                self.lost += int(lost.group(2) or 1)  # 1: count unknown
            return
        event = m['event']
        if event not in self.events:
            return
        if m['ns']:
            ts = int(m['ns'])
        elif len(m['frac']) != 9:
            raise Error(f'timestamps are not in ns (run trace-cmd report -t): {line!r}')
        else:
            ts = int(m['sec']) * 1_000_000_000 + int(m['frac'])
        if self.last_ns is not None and ts < self.last_ns:
            raise Error(f'trace-cmd report output is not in time order at {line!r}')
        if self.first_ns is None:
            self.first_ns = ts
        self.last_ns = ts
        self.events[event] += 1
        current = int(m['pid'])
        if current != 0:
            self.ran(current, ts)
            self.seen.add(current)
        handler = {'sched_switch': (SWITCH_RE, self.switch),
                   'sched_wakeup': (WAKEUP_RE, self.wakeup),
                   'sched_wakeup_new': (WAKEUP_RE, self.wakeup_new)}.get(event)
        if handler is None:
            return
        f = handler[0].match(m['rest'])
        if not f:
            raise Error(f'cannot parse {event}: {line!r}')
        handler[1](ts, int(m['cpu']), f)


def report_lines(trace_cmd, args):
    """Yield the lines `trace_cmd report ARGS` prints; raise Error if it fails."""
    cmd = [trace_cmd, 'report'] + args
    try:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, errors='replace')
    except OSError as e:
        raise Error(f'cannot run {trace_cmd}: {e}') from e
    try:
        for line in proc.stdout:
            yield line.rstrip('\n')
    finally:
        proc.stdout.close()
        err = proc.stderr.read()
        rc = proc.wait()
    if rc != 0:
        raise Error(f'{" ".join(cmd)} exited with {rc}: {err.strip()}')


def count(trace, trace_cmd='trace-cmd'):
    """Run trace-cmd report on TRACE and return the result dict."""
    c = Counter()
    for line in report_lines(trace_cmd, ['-N', '-t', '-F', 'sched_switch,sched_wakeup,sched_waking,sched_wakeup_new',
                                         '-i', trace]):
        c.feed(line)
    # -F hides a drop marker carried by a filtered-out record; the buffer
    # stats saved at extraction time count overruns whatever the filter.
    buffer_losses = 0
    for line in report_lines(trace_cmd, ['--stat', '-i', trace]):
        st = STAT_RE.match(line)
        if st:
            buffer_losses += int(st.group(2))
    if c.events['sched_switch'] == 0:
        raise Error(f'{trace}: no sched_switch events in trace-cmd report output')
    c.finish()

    def out(row):
        r = dict(row)
        r['pids'] = sorted(r['pids'])
        return r

    tasks = {}
    for pid, row in sorted(c.tasks.items()):
        tasks[str(pid)] = out(row)
        tasks[str(pid)]['comm'] = c.last_comm.get(pid, '')
    return {
        'trace': trace,
        'rules': 'BRIEF 1 (switch S/D -> sched_wakeup), 3 (S > 5 ms dropped), 6 (waitcpu)',
        'cpus': c.cpus,
        'lost_events': c.lost,
        'buffer_losses': buffer_losses,
        'switch_chain_breaks': {str(k): v for k, v in sorted(c.chain_breaks.items())},
        'events': c.events,
        'first_ns': c.first_ns,
        'last_ns': c.last_ns,
        'comms': {k: out(v) for k, v in sorted(c.comms.items())},
        'tasks': tasks,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('trace')
    ap.add_argument('--trace-cmd', default='trace-cmd')
    ap.add_argument('--comm', action='append',
                    help='only print these comms (repeatable); tasks are then omitted')
    ap.add_argument('--out')
    a = ap.parse_args()
    try:
        res = count(a.trace, a.trace_cmd)
    except Error as e:
        print(f'independent.py: {e}', file=sys.stderr)
        return 1
    if a.comm:
        res['comms'] = {k: v for k, v in res['comms'].items() if k in a.comm}
        del res['tasks']
    text = json.dumps(res, indent=1, sort_keys=True) + '\n'
    if a.out:
        with open(a.out, 'w') as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == '__main__':
    sys.exit(main())
