#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""chain-oracle.py - whom every wait waited for (issue 48), computed from
`trace-cmd report` or `perf script` text alone, sharing no code with the
analyzer: the ground truth its "waited_for" trees and "ran_instead" lists
are tested against.

usage: chain-oracle.py [--trace-cmd P] [--perf P] [--kallsyms FILE]
                       [--comm NAME]... [--out FILE] TRACE.dat|PERF.data

THE RULES (the analyzer's implementation is held to these)

Input.  A trace.dat is read as `trace-cmd report -N -t -l` prints it: no
plugins; nanosecond stamps, "SEC.NSEC" or (trace-cmd 3.1.6, now and then)
bare nanoseconds glued to the latency column; -l's latency column, whose
third character is the interrupt state of the record (h hard irq, s soft
irq, H both); "CPU:N [EVENTS DROPPED]" markers.  A kernel_stack record
(options/stacktrace, `trace-cmd record -T`) is the stack of the record
before it on its CPU.  A perf.data is read as `perf script --ns
--show-lost-events -F comm,tid,cpu,time,event,trace` prints it, zipped
sample by sample with `perf script -s perf-flags.py` (each sample's
common_flags and kernel call chain, which perf script -F cannot print).
A sched_switch's current task is its prev_pid (perf samples a task in
do_exit() as tid -1).  A stack is used from its first frame after the tracepoint's own
(__traceiter_*, trace_event_raw_event_*); trace-cmd report prints at most
8 frames of a kernel_stack record, so only the first 6 after the
tracepoint are ever looked at.

A task's time line.  From the first record naming a task (as a record's
current task, common_pid, or in a sched_switch / sched_wakeup*'s fields)
its time is cut into contiguous half-open segments [a, b):
  running   from its switch-in (or the first record showing it current)
            to its switch-out;
  runnable  from a switch-out in state R or R+, a sched_wakeup, the
            sched_waking that ends a wait (below) or a sched_wakeup_new, to
            its switch-in;
  blocked   from a switch-out in any other state to the end of that wait:
            the task's next sched_wakeup; if none came before its
            switch-in, its first sched_waking since the switch-out; else
            the switch-in itself;
  unknown   where the trace contradicts itself: the task is a record's
            current task while not running (its switch-in is missing):
            from its last transition (from the waking, if its wait had
            one) to that record; or it runs on one CPU and is seen current
            on another, or another task is seen current on its CPU with no
            switch between (its switch-out is missing): from its last
            record on that CPU;
  lost      a lost-events marker on CPU c (the gap: from c's record before
            the marker to the one after): every task that last ran on c,
            from the later of the gap's start and its last transition, to
            its next transition.
Before its first record, nothing is known of a task.  A sched_wakeup_new
starts a new task under its pid (a pid reused after an exit).

Waits.  A blocked wait is a blocked segment whose switch-out state has a D
("D", "D|K": state D), else an I (I), else an S (S); other states (T, t,
P, X, Z, ...) are not waits.  A cpu wait is the runnable segment that a
wait's wakeup (or waking) began, ended by a switch-in.  Not computed,
only counted ("dropped"): waits that began before every CPU had data (a
drop marker before any record: before_complete, as the analyzer's
complete_from), or before a lost-events gap ended, that gap ending (at the
next record of its CPU) no later than the switch-in that followed the
wait (across_lost); waits cut by a lost segment; waits begun before the
trace or not ended in it.  The 5 ms rule for interruptible waits is the
analyzer's option, not applied here: every wait gets a tree.

The waker of a blocked wait [s, e].  Its event E is the task's first
sched_waking since s, else the last one from before s while it still ran
(a waker on another CPU can race the sleeper's switch-out; such a waking
is forgotten at the task's next sched_wakeup, switch-in or switch-out,
and names the waker only: it never ends a wait); else the sched_wakeup at
e.  A wait ended by its switch-in has no event: unknown.
From E, in this order:
  timer     E's kernel stack (if recorded) shows a timer expiring: one of
            TIMER_FRAMES among its first 6 frames, before any
            REMOTE_FRAMES;
  unknown   ... or a wakeup another CPU queued for E's CPU: one of
            REMOTE_FRAMES first (sched_ttwu_pending runs the queue from
            the IPI or the idle loop, so E's context is not the waker's);
  hardirq   E's common flags: hard irq (or NMI);
  softirq   E's common flags: soft irq;
  timer     E's current task is the idle task (pid 0);
  task      else: W, E's current task, at t_w = E's time.

The walk.  nodes(waker, lo, hi, level) cut [lo, hi] into nodes:
  - a waker that is not a task: one node of its kind (hardirq, softirq,
    timer, unknown) over [lo, hi];
  - a task W: W's segment containing t_w must be a running one (else one
    node unknown, why=inconsistent).  Node running over [max(a, lo), hi]:
    that segment, clipped, and on to hi (from the waking to the wakeup is
    W's act, wherever W goes meanwhile).  Then W's earlier segments, from
    there back to lo, each clipped to [lo, hi]: running -> running,
    runnable -> waiting for cpu, unknown -> unknown, lost -> lost, blocked
    over [o, w] -> blocked (with its state and cause), whose children are
    nodes(that wait's waker, max(o, lo), w, level + 1) (one lost node if
    that wait's end fell in a lost segment, one unknown if no wakeup ended
    it); before W's first record: unknown (why=before_trace) over what is
    left.
  - levels: the nodes of the waiter's own waker are level 1.  A blocked
    node at level 8 is not followed: its one child is unknown (why=depth),
    at level 9.  A waker that is the waiter or a task whose blocked node is
    an ancestor (a cycle) is not followed either: one unknown (why=cycle).
  - nodes of 0 ns are left out.
So the nodes of a level are contiguous and cover their parent (the top
level: the wait) exactly: the children's ns add up to the parent's, at
every level (checked here, on every wait, as it is computed).  A blocked
node's cause is its state and the first frame after __schedule of the
switch-out's stack that is not the scheduler's (schedule*, io_schedule*,
preempt_schedule*, *cond_resched), e.g. "S do_nanosleep"; just the state
without stacks.  It is informational: the analyzer names causes its own
way (translation table); compare kinds, tids and ns.

ran_instead of a cpu wait [w, t_in] on CPU c (that of the switch-in):
the time line of c's current task (from each sched_switch's next_pid, and
from each record's common_pid: where it contradicts the last switch,
unknown from c's previous record to it; unknown over a lost-events gap of
c, and before c's first record), clipped to [w, t_in], summed per task,
largest first (ties: by tid); unknown parts as one entry with tid null.
It adds up to the wait.

OUTPUT (JSON)
  {"oracle": "chain-oracle/1", "trace": PATH, "format": "dat"|"perf",
   "max_level": 8,
   "summary": {"events", "cpus", "first_ns", "last_ns", "lost_markers",
               "chain_breaks" (switches missing, as seen from records),
               "waits": {"S","D","I","cpu": N}, "dropped": {WHY: N},
               "max_level": N, "levels": {LEVEL: WAITS},
               "blocked_ns", "leaf_ns": {KIND: NS}, "cpu_ns",
               "ran_instead_unknown_ns"},
   "waits": [WAIT...],                  (in order of end, then tid)
   "threads": [THREAD...]}              (by tid)
  WAIT  = {"tid", "comm", "state": "S"|"D"|"I"|"cpu", "start_ns",
           "end_ns", "ns", "cpu": the switch-in's CPU or null,
           blocked: "cause", "waker": WAKER, "tree": [NODE...], "level"
           cpu:     "ran_instead": [{"tid", "comm", "ns"}...]}
  WAKER = {"kind": "task"|"hardirq"|"softirq"|"timer"|"unknown"|"lost",
           "tid": int|null, "comm": str|null, "ts_ns": E's time|null,
           "event": "sched_waking"|"sched_wakeup"|null, "cpu": int|null,
           "current": E's common_pid|null}
  NODE  = {"tid": int|null, "comm", "kind": "running"|"waiting for cpu"|
           "blocked"|"hardirq"|"softirq"|"timer"|"unknown"|"lost",
           "start_ns", "end_ns", "ns",
           blocked: "state", "cause", "waker": WAKER, "children": [NODE...]
           unknown: "why": "no_waker"|"before_trace"|"inconsistent"|
                           "depth"|"cycle"|"contradiction"}
  THREAD = {"tid", "comm", "states": {STATE: {"waits", "ns",
            "waited_for": [MNODE...], "by_waker": [BYWAKER...],
            "ran_instead": [{"tid","comm","ns"}...] (cpu)}}}
  MNODE  = the waits' trees merged: nodes keyed (tid, kind, state) at
           every level, ns and "waits" (how many waits have it) summed,
           children merged likewise; largest first.
  BYWAKER = per top-level waker (tid, or kind when not a task):
           {"tid", "comm", "kind", "waits", "ns",
            "what": [{"kind", "state", "ns"}...]}: its top-level nodes by
           (kind, state), e.g. the writer's blocked S, running, waiting for
           cpu: what the issue's text line "<- cw-writer (4512): Sleeping
           (nanosleep) 96%, running 3%, waiting for cpu 1%" shows.
"""

import argparse
import bisect
import json
import os
import re
import subprocess
import sys

MAX_LEVEL = 8
TIMER_FRAMES = frozenset((
    "hrtimer_wakeup", "__hrtimer_run_queues", "hrtimer_run_softirq",
    "call_timer_fn", "__run_timers", "run_timer_softirq", "run_timer_base",
    "__run_timer_base", "process_timeout", "it_real_fn", "posix_timer_fn",
))
TIMER_DEPTH = 6
REMOTE_FRAMES = frozenset(("sched_ttwu_pending",))
SCHED_PREFIXES = ("schedule", "__schedule", "io_schedule", "preempt_schedule",
                  "_cond_resched", "__cond_resched", "do_task_dead")
HARDIRQ, SOFTIRQ, NMI = 0x08, 0x10, 0x40

HERE = os.path.dirname(os.path.abspath(__file__))


class Error(Exception):
    pass


class Ev:
    """One record: time, CPU, current task, common flags (int, None if not
    known), event name, raw field text, kernel frames (list or None)."""
    __slots__ = ("ts", "cpu", "pid", "comm", "flags", "name", "rest",
                 "stack", "lost")

    def __init__(self, ts, cpu, pid, comm, flags, name, rest):
        self.ts, self.cpu, self.pid, self.comm = ts, cpu, pid, comm
        self.flags, self.name, self.rest = flags, name, rest
        self.stack = None
        self.lost = None     # a drop marker came before this record


# ---- reading trace-cmd report ------------------------------------------

DAT_LINE = re.compile(
    r"^\s*(?P<comm>.*?)-(?P<pid>\d+)\s+(?P<cpu>\d+)(?P<lat>\S{5})"
    r"(?:\s+(?P<sec>\d+)\.(?P<frac>\d{9})|\s*(?P<ns>\d+)):\s+"
    r"(?P<event>\w+):\s*(?P<rest>.*)$")
DROP_LINE = re.compile(r"^CPU:(\d+) \[(?:(\d+) )?EVENTS DROPPED\]")
FRAME_LINE = re.compile(r"^\s*=> (\S+)")
LAT_IRQ = {"h": HARDIRQ, "s": SOFTIRQ, "H": HARDIRQ | SOFTIRQ,
           "z": NMI, "Z": NMI | HARDIRQ}


def run_lines(cmd):
    try:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True,
                                errors="replace")
    except OSError as e:
        raise Error("cannot run %s: %s" % (cmd[0], e)) from e
    out, err = proc.communicate()
    if proc.returncode:
        raise Error("%s exited with %d: %s" % (" ".join(cmd), proc.returncode,
                                               err.strip()[-500:]))
    return out.split("\n")


def read_dat(path, trace_cmd="trace-cmd"):
    return parse_dat(run_lines([trace_cmd, "report", "-N", "-t", "-l", "-i", path]))


def parse_dat(lines):
    """The records of `trace-cmd report -N -t -l` text: (events, cpus)."""
    events, last_on_cpu, drops, cpus = [], {}, {}, None
    stack_of = None     # the record whose kernel_stack lines follow
    for line in lines:
        m = DAT_LINE.match(line)
        if not m:
            f = FRAME_LINE.match(line)
            if f and stack_of is not None:
                stack_of.append(f.group(1))
                continue
            d = DROP_LINE.match(line)
            if d:
                cpu = int(d.group(1))
                drops[cpu] = drops.get(cpu, 0) + int(d.group(2) or 1)
            elif line.startswith("cpus="):
                cpus = int(line[5:])
            stack_of = None
            continue
        ts = (int(m["ns"]) if m["ns"] else
              int(m["sec"]) * 1_000_000_000 + int(m["frac"]))
        cpu = int(m["cpu"])
        if m["event"] == "kernel_stack":
            prev = last_on_cpu.get(cpu)
            stack_of = None
            if prev is not None and prev.stack is None:
                prev.stack = []
                stack_of = prev.stack
                f = FRAME_LINE.match(m["rest"])
                if f:
                    stack_of.append(f.group(1))
            continue
        stack_of = None
        ev = Ev(ts, cpu, int(m["pid"]), m["comm"],
                LAT_IRQ.get(m["lat"][2], 0), m["event"], m["rest"])
        if cpu in drops:
            ev.lost = drops.pop(cpu)
        last_on_cpu[cpu] = ev
        events.append(ev)
    return events, cpus


# ---- reading perf script -----------------------------------------------

PERF_LINE = re.compile(
    r"^\s*(?P<comm>.*?)\s+(?P<tid>-?\d+)\s+\[(?P<cpu>\d+)\]\s+"
    r"(?P<sec>\d+)\.(?P<frac>\d{9}):\s+(?P<what>.*)$")
PERF_EVENT = re.compile(r"^(?P<sys>\w+):(?P<event>\w+):\s*(?P<rest>.*)$")
PERF_LOST = re.compile(r"^PERF_RECORD_LOST lost (\d+)")


def read_perf(path, perf="perf", kallsyms=None):
    extra = ["--kallsyms=" + kallsyms] if kallsyms else []
    text = run_lines([perf, "script", "-i", path, "--ns", "--show-lost-events",
                      "-F", "comm,tid,cpu,time,event,trace"] + extra)
    side = run_lines([perf, "script", "-i", path, "-s",
                      os.path.join(HERE, "perf-flags.py")] + extra)
    side = [s.split() for s in side if s.strip()]
    events, drops, n, cpus = [], {}, 0, set()
    for line in text:
        m = PERF_LINE.match(line)
        if not m:
            continue
        ts = int(m["sec"]) * 1_000_000_000 + int(m["frac"])
        cpu = int(m["cpu"])
        lost = PERF_LOST.match(m["what"])
        if lost:
            drops[cpu] = drops.get(cpu, 0) + int(lost.group(1))
            continue
        e = PERF_EVENT.match(m["what"])
        if not e:
            continue
        if n >= len(side):
            raise Error("%s: perf-flags.py printed fewer samples than perf script" % path)
        s = side[n]
        n += 1
        # a task in do_exit() is sampled as tid -1 (perf script), 2^32-1 (python)
        if len(s) != 5 or int(s[0]) != ts or int(s[1]) != cpu or \
                int(s[2]) & 0xffffffff != int(m["tid"]) & 0xffffffff:
            raise Error("%s: sample %d differs between perf script and "
                        "perf-flags.py: %r vs %r" % (path, n, line, s))
        ev = Ev(ts, cpu, int(m["tid"]), m["comm"], int(s[3]), e["event"], e["rest"])
        if s[4] != "-":
            ev.stack = s[4].split(",")
        if cpu in drops:
            ev.lost = drops.pop(cpu)
        cpus.add(cpu)
        events.append(ev)
    if n != len(side):
        raise Error("%s: perf-flags.py printed %d samples, perf script %d"
                    % (path, len(side), n))
    return events, (max(cpus) + 1 if cpus else None)


def is_perf(path):
    with open(path, "rb") as f:
        magic = f.read(8)
    return magic in (b"PERFILE2", b"2ELIFREP")


# ---- fields --------------------------------------------------------------

SWITCH = re.compile(r"^prev_comm=(?P<pc>.*) prev_pid=(?P<pp>-?\d+) prev_prio=-?\d+ "
                    r"prev_state=(?P<st>\S+) ==> next_comm=(?P<nc>.*) "
                    r"next_pid=(?P<np>-?\d+) next_prio=-?\d+\s*$")
WAKEUP = re.compile(r"^comm=(?P<comm>.*) pid=(?P<pid>-?\d+) prio=-?\d+"
                    r"(?: success=\d+)?(?: target_cpu=\d+)?\s*$")


def after_tracepoint(stack):
    """The frames after the tracepoint's own."""
    for i, f in enumerate(stack):
        if f.startswith("__traceiter_"):
            return stack[i + 1:]
    i = 0
    while i < len(stack) and stack[i].startswith(("trace_event_raw_event_",
                                                  "perf_trace_", "perf_")):
        i += 1
    return stack[i:]


def blocker(stack):
    """The first frame after __schedule that is not the scheduler's."""
    if not stack:
        return None
    try:
        i = stack.index("__schedule") + 1
    except ValueError:
        i = 0
    for f in stack[i:]:
        name = f.split(".")[0]
        if not name.startswith(SCHED_PREFIXES) and not name.startswith("0x"):
            return name
    return None


def wait_state(st):
    """S, D, I for a blocked wait, R for runnable, else the letters."""
    if st.endswith("+") or st == "R":
        return "R"
    letters = st.split("|")
    for s in ("D", "I", "S"):
        if s in letters:
            return s
    return st


# ---- the time lines --------------------------------------------------------

class Seg:
    """A piece of a task's time line: [start, end) (end None: open)."""
    __slots__ = ("start", "end", "kind", "cpu", "comm", "state", "raw",
                 "stack", "waking", "early", "waker", "end_by", "woken", "why")

    def __init__(self, start, kind, comm):
        self.start, self.end, self.kind, self.comm = start, None, kind, comm
        self.cpu = self.state = self.raw = self.stack = None
        self.waking = self.early = self.waker = self.end_by = self.why = None
        self.woken = False


class Task:
    __slots__ = ("pid", "comm", "segs", "starts", "last_cpu", "last_ev",
                 "pending")

    def __init__(self, pid, comm):
        self.pid, self.comm = pid, comm
        self.segs, self.starts = [], []
        self.last_cpu = None
        self.last_ev = None     # last record showing it current
        self.pending = None     # a sched_waking not yet consumed

    @property
    def open(self):
        return self.segs[-1] if self.segs and self.segs[-1].end is None else None

    def begin(self, ts, kind):
        o = self.open
        if o is not None:
            o.end = ts
        s = Seg(ts, kind, self.comm)
        self.segs.append(s)
        self.starts.append(ts)
        return s

    def at(self, ts):
        """The segment containing ts (a running one if ts is on an edge
        between a running segment and another), or None."""
        i = bisect.bisect_right(self.starts, ts) - 1
        if i < 0:
            return None, -1
        s = self.segs[i]
        if s.kind != "running" and s.start == ts and i > 0 and \
                self.segs[i - 1].kind == "running":
            return self.segs[i - 1], i - 1
        return s, i


def waker_of(ev, tasks_comm):
    """WAKER of a wakeup whose event is ev (see the rules)."""
    w = {"kind": None, "tid": None, "comm": None, "ts_ns": ev.ts,
         "event": ev.name, "cpu": ev.cpu, "current": ev.pid}
    frames = after_tracepoint(ev.stack)[:TIMER_DEPTH] if ev.stack else []
    first = next((f.split(".")[0] for f in frames
                  if f.split(".")[0] in TIMER_FRAMES | REMOTE_FRAMES), None)
    if first in TIMER_FRAMES:
        w["kind"] = "timer"
    elif first in REMOTE_FRAMES:
        w["kind"] = "unknown"
    elif ev.flags & (HARDIRQ | NMI):
        w["kind"] = "hardirq"
    elif ev.flags & SOFTIRQ:
        w["kind"] = "softirq"
    elif ev.pid == 0:
        w["kind"] = "timer"
    else:
        w["kind"] = "task"
        w["tid"] = ev.pid
        w["comm"] = tasks_comm(ev.pid, ev.comm)
    return w


NO_WAKER = {"kind": "unknown", "tid": None, "comm": None, "ts_ns": None,
            "event": None, "cpu": None, "current": None}
# a wait whose end fell in a lost-events gap
LOST_WAKER = dict(NO_WAKER, kind="lost")


class Timeline:
    def __init__(self, events):
        self.tasks = {}         # pid -> [Task, ...] generations
        self.cpu_segs = {}      # cpu -> [[start, end, pid|None, comm]]
        self.cpu_last = {}      # cpu -> ts of its last record
        self._cpu_starts = {}
        self.gaps = []          # ends of lost-events gaps
        self.complete_from = 0
        self.lost_markers = 0
        self.chain_breaks = 0
        self.comm_of = {}       # pid -> full comm
        self.first_ts = events[0].ts if events else 0
        self.last_ts = events[-1].ts if events else 0
        self.n_events = len(events)
        for ev in events:
            self.feed(ev)

    # -- tasks
    def task(self, pid, comm=None):
        gens = self.tasks.get(pid)
        if gens:
            return gens[-1]
        t = Task(pid, comm or self.comm_of.get(pid, "<...>"))
        self.tasks[pid] = [t]
        return t

    def new_task(self, pid, ts, comm):
        old = self.tasks.get(pid)
        if old and old[-1].open is not None:
            old[-1].open.end = ts
        t = Task(pid, comm)
        self.tasks.setdefault(pid, []).append(t)
        return t

    def task_at(self, pid, ts):
        for t in reversed(self.tasks.get(pid, [])):
            if t.starts and t.starts[0] <= ts:
                return t
        return None

    def comm(self, pid, fallback):
        return self.comm_of.get(pid, fallback)

    def set_comm(self, pid, comm):
        if pid != 0:
            self.comm_of[pid] = comm
            gens = self.tasks.get(pid)
            if gens:
                gens[-1].comm = comm

    # -- CPUs
    def cpu_set(self, cpu, ts, pid, comm):
        segs = self.cpu_segs.setdefault(cpu, [])
        if segs and segs[-1][1] is None:
            segs[-1][1] = ts
        segs.append([ts, None, pid, comm])

    def cpu_starts(self, cpu):
        """The starts of cpu's segments (once the time line is complete)."""
        st = self._cpu_starts.get(cpu)
        if st is None:
            st = self._cpu_starts[cpu] = [s[0] for s in self.cpu_segs.get(cpu, [])]
        return st

    def cpu_current(self, cpu):
        """pid current on cpu, None in an unknown stretch, "none" before
        its first record."""
        segs = self.cpu_segs.get(cpu)
        return segs[-1][2] if segs and segs[-1][1] is None else "none"

    # -- records
    def feed(self, ev):
        if ev.lost is not None:
            self.lost(ev)
        handler = getattr(self, "on_" + ev.name, None)
        if ev.name == "sched_switch":
            # its prev_pid is the current task, even where the record's
            # own pid is not (perf samples a task in do_exit() as -1)
            m = SWITCH.match(ev.rest)
            if not m:
                raise Error("cannot parse sched_switch: %r" % ev.rest)
            ev.pid = int(m["pp"])
        if ev.pid >= 0:
            self.seen(ev)
        if handler:
            handler(ev)
        self.cpu_last[ev.cpu] = ev.ts

    def lost(self, ev):
        self.lost_markers += 1
        g0 = self.cpu_last.get(ev.cpu)
        if g0 is None and not self.cpu_last:
            self.complete_from = max(self.complete_from, ev.ts)
        self.gaps.append(ev.ts)
        start = g0 if g0 is not None else ev.ts
        segs = self.cpu_segs.get(ev.cpu)
        if segs and segs[-1][1] is None:
            self.cpu_set(ev.cpu, start, None, None)
        for gens in self.tasks.values():
            t = gens[-1]
            o = t.open
            if t.last_cpu != ev.cpu or o is None or o.kind == "lost":
                continue
            if o.kind == "blocked" and o.state in ("X", "Z"):
                continue        # dead: nothing to lose
            if o.kind == "blocked":
                o.end_by = "lost"
            s = t.begin(max(start, o.start), "lost")
            s.why = "lost"

    def seen(self, ev):
        """ev.pid is current on ev.cpu at ev.ts."""
        cpu, pid, ts = ev.cpu, ev.pid, ev.ts
        cur = self.cpu_current(cpu)
        if cur != pid:
            if cur not in ("none", None):
                # the switch away from cur is missing: unknown since its
                # last record there, for the CPU and for cur
                self.chain_breaks += 1
                last = self.cpu_last.get(cpu, ts)
                self.cpu_set(cpu, last, None, None)
                gone = self.tasks.get(cur)
                o = gone[-1].open if gone else None
                if o is not None and o.kind == "running" and o.cpu == cpu:
                    u = gone[-1].begin(max(gone[-1].last_ev or o.start, o.start),
                                       "unknown")
                    u.why = "contradiction"
            self.cpu_set(cpu, ts, pid, self.comm(pid, ev.comm))
        if pid == 0:
            return
        t = self.task(pid, ev.comm)
        o = t.open
        if o is not None and o.kind == "running" and o.cpu == cpu:
            t.last_ev = ts
            return
        if o is None:
            if t.segs:     # ended (a new generation will begin at wakeup_new)
                t = self.new_task(pid, ts, self.comm(pid, ev.comm))
        elif o.kind == "running":
            # running on another CPU: it left that one unseen
            u = t.begin(max(t.last_ev or o.start, o.start), "unknown")
            u.why = "contradiction"
        elif o.kind == "blocked" and o.waking is not None and o.waking[0] <= ts:
            self.end_blocked(t, o, o.waking[0], "waking", o.waking[1])
            u = t.begin(o.waking[0], "unknown")
            u.why = "contradiction"
        elif o.kind in ("blocked", "runnable"):
            # its switch-in is missing: since its last transition, unknown
            # (a blocked wait or a wait for a CPU lost so is counted)
            o.end_by = "contradiction"
            o.kind = "unknown"
            o.why = "contradiction"
        s = t.begin(ts, "running")
        s.cpu = cpu
        t.last_cpu, t.last_ev, t.pending = cpu, ts, None

    def end_blocked(self, t, seg, ts, by, waker):
        seg.end_by = by
        seg.waker = waker
        r = t.begin(ts, "runnable")
        r.woken = by in ("wakeup", "waking")
        return r

    def on_sched_switch(self, ev):
        m = SWITCH.match(ev.rest)
        if not m:
            raise Error("cannot parse sched_switch: %r" % ev.rest)
        prev, nxt, ts = int(m["pp"]), int(m["np"]), ev.ts
        self.set_comm(prev, m["pc"])
        self.set_comm(nxt, m["nc"])
        if prev != 0:
            t = self.task(prev)
            o = t.open
            if o is not None and o.kind == "running":
                st = wait_state(m["st"])
                if st == "R":
                    t.begin(ts, "runnable")
                else:
                    s = t.begin(ts, "blocked")
                    s.state, s.raw, s.stack = st, m["st"], ev.stack
                    s.early = t.pending
                t.pending = None
                t.last_cpu = ev.cpu
        # the CPU: next from now
        segs = self.cpu_segs.get(ev.cpu)
        if not segs or segs[-1][2] != nxt or segs[-1][1] is not None:
            self.cpu_set(ev.cpu, ts, nxt, m["nc"])
        if nxt == 0:
            return
        t = self.task(nxt)
        o = t.open
        if o is not None and o.kind == "blocked":
            if o.waking is not None:
                self.end_blocked(t, o, o.waking[0], "waking", o.waking[1])
            else:
                o.end_by, o.waker = "switch-in", None
                t.begin(ts, "runnable").woken = False
            o = t.open
        if o is not None and o.kind == "runnable":
            o.end_by = "switch-in"
            o.cpu = ev.cpu
        elif o is not None and o.kind == "running":
            u = t.begin(max(t.last_ev or o.start, o.start), "unknown")
            u.why = "contradiction"
        elif o is None and t.segs:
            t = self.new_task(nxt, ts, m["nc"])
        s = t.begin(ts, "running")
        s.cpu = ev.cpu
        t.last_cpu, t.last_ev, t.pending = ev.cpu, ts, None

    def wake_target(self, ev):
        m = WAKEUP.match(ev.rest)
        if not m:
            raise Error("cannot parse %s: %r" % (ev.name, ev.rest))
        pid = int(m["pid"])
        self.set_comm(pid, m["comm"])
        return pid

    def on_sched_waking(self, ev):
        pid = self.wake_target(ev)
        if pid == 0:
            return
        t = self.task(pid)
        o = t.open
        info = (ev.ts, waker_of(ev, self.comm))
        if o is not None and o.kind == "blocked":
            if o.waking is None:
                o.waking = info
        elif o is not None and o.kind == "running":
            t.pending = info

    def on_sched_wakeup(self, ev):
        pid = self.wake_target(ev)
        if pid == 0:
            return
        t = self.task(pid)
        o = t.open
        if o is not None and o.kind == "blocked":
            # a waking since the switch-out, else one that raced it
            w = (o.waking or o.early or (None, waker_of(ev, self.comm)))[1]
            self.end_blocked(t, o, ev.ts, "wakeup", w)
        elif o is None:
            if not t.segs:
                t.begin(ev.ts, "runnable")      # asleep since before the trace
        elif o.kind in ("unknown", "lost"):
            t.begin(ev.ts, "runnable")
        t.pending = None

    def on_sched_wakeup_new(self, ev):
        pid = self.wake_target(ev)
        if pid == 0:
            return
        old = self.tasks.get(pid)
        if old and old[-1].segs:
            t = self.new_task(pid, ev.ts, self.comm(pid, "<...>"))
        else:
            t = self.task(pid)
        t.begin(ev.ts, "runnable")


# ---- the walk ------------------------------------------------------------

def cause_of(seg):
    b = blocker(seg.stack)
    return "%s %s" % (seg.state, b) if b else seg.state


def node(kind, lo, hi, tid=None, comm=None, **more):
    n = {"tid": tid, "comm": comm if comm is not None else kind, "kind": kind,
         "start_ns": lo, "end_ns": hi, "ns": hi - lo}
    n.update(more)
    return n


class Walker:
    def __init__(self, tl):
        self.tl = tl

    def nodes(self, waker, lo, hi, level, path):
        if hi <= lo:
            return []
        if waker["kind"] != "task":
            why = {"why": "no_waker"} if waker["kind"] == "unknown" else {}
            return [node(waker["kind"], lo, hi, **why)]
        tid = waker["tid"]
        if tid in path:
            return [node("unknown", lo, hi, why="cycle")]
        t = self.tl.task_at(tid, waker["ts_ns"])
        seg, i = t.at(waker["ts_ns"]) if t else (None, -1)
        if seg is None or seg.kind != "running":
            return [node("unknown", lo, hi, why="inconsistent")]
        out = []
        a = max(seg.start, lo)
        out.append(node("running", a, hi, tid, seg.comm))
        cur = a
        i -= 1
        while cur > lo:
            if i < 0:
                out.append(node("unknown", lo, cur, why="before_trace"))
                break
            s = t.segs[i]
            a = max(s.start, lo)
            if s.kind == "running":
                out.append(node("running", a, cur, tid, s.comm))
            elif s.kind == "runnable":
                out.append(node("waiting for cpu", a, cur, tid, s.comm))
            elif s.kind in ("unknown", "lost"):
                n = node(s.kind, a, cur)
                if s.kind == "unknown":
                    n["why"] = s.why or "contradiction"
                out.append(n)
            else:
                w = (s.waker if s.end_by in ("wakeup", "waking") else
                     LOST_WAKER if s.end_by == "lost" else NO_WAKER)
                n = node("blocked", a, cur, tid, s.comm, state=s.state,
                         cause=cause_of(s), waker=w)
                if level >= MAX_LEVEL:
                    n["children"] = [node("unknown", a, cur, why="depth")]
                else:
                    n["children"] = self.nodes(w, a, cur, level + 1, path | {tid})
                out.append(n)
            cur = a
            i -= 1
        out = [n for n in reversed(out) if n["ns"] > 0]
        return out


def check_partition(nodes, lo, hi, where):
    """Nodes contiguous over [lo, hi], recursively; raise if not."""
    t = lo
    for n in nodes:
        if n["start_ns"] != t or n["ns"] != n["end_ns"] - n["start_ns"] or n["ns"] <= 0:
            raise Error("partition broken at %s: %r" % (where, n))
        if "children" in n:
            check_partition(n["children"], n["start_ns"], n["end_ns"], where)
        t = n["end_ns"]
    if nodes and t != hi or not nodes and hi != lo:
        raise Error("partition broken at %s: nodes end at %d, not %d" % (where, t, hi))


def tree_level(nodes, level=1):
    deepest = level if nodes else level - 1
    for n in nodes:
        if "children" in n:
            deepest = max(deepest, tree_level(n["children"], level + 1))
    return deepest


def leaves(nodes, acc):
    for n in nodes:
        if n.get("children"):
            leaves(n["children"], acc)
        else:
            acc[n["kind"]] = acc.get(n["kind"], 0) + n["ns"]


def ran_instead(tl, cpu, lo, hi):
    segs = tl.cpu_segs.get(cpu, [])
    starts = tl.cpu_starts(cpu)
    i = max(bisect.bisect_right(starts, lo) - 1, 0)
    acc = {}
    covered = 0
    while i < len(segs) and segs[i][0] < hi:
        s0, s1, pid, comm = segs[i]
        s1 = hi if s1 is None else s1
        a, b = max(s0, lo), min(s1, hi)
        if b > a:
            key = pid if pid is not None else "unknown"
            name = ("unknown" if pid is None else comm or "<idle>" if pid == 0
                    else tl.comm(pid, comm))
            e = acc.setdefault(key, {"tid": pid, "comm": name, "ns": 0})
            e["ns"] += b - a
            covered += b - a
        i += 1
    if covered < hi - lo:
        e = acc.setdefault("unknown", {"tid": None, "comm": "unknown", "ns": 0})
        e["ns"] += hi - lo - covered
    return sorted(acc.values(), key=lambda e: (-e["ns"], e["tid"] is None, e["tid"] or 0))


# ---- aggregation -----------------------------------------------------------

def merge_into(acc, nodes, wait):
    """Add a wait's nodes to acc, keyed (tid, kind, state); "waits" counts
    the waits (numbered by wait) that have the node; comm is the latest."""
    for n in nodes:
        key = (n["tid"], n["kind"], n.get("state"))
        m = acc.get(key)
        if m is None:
            m = acc[key] = {"tid": n["tid"], "comm": n["comm"], "kind": n["kind"],
                            "ns": 0, "waits": 0, "_children": {}, "_wait": None}
            if "state" in n:
                m["state"] = n["state"]
        m["comm"] = n["comm"]
        m["ns"] += n["ns"]
        if m["_wait"] != wait:
            m["_wait"] = wait
            m["waits"] += 1
        if "children" in n:
            merge_into(m["_children"], n["children"], wait)


def merged_list(acc):
    out = []
    for m in acc.values():
        m = dict(m)
        del m["_wait"]
        ch = m.pop("_children")
        if ch:
            m["waited_for"] = merged_list(ch)
        out.append(m)
    return sorted(out, key=lambda m: (-m["ns"], str(m["tid"]), m["kind"]))


def aggregate(waits):
    threads = {}
    for i, w in enumerate(waits):
        th = threads.setdefault(w["tid"], {"tid": w["tid"], "comm": w["comm"],
                                           "states": {}})
        th["comm"] = w["comm"]
        st = th["states"].setdefault(w["state"], {"waits": 0, "ns": 0, "_m": {},
                                                  "_w": {}, "_r": {}})
        st["waits"] += 1
        st["ns"] += w["ns"]
        if w["state"] == "cpu":
            for r in w["ran_instead"]:
                e = st["_r"].setdefault(r["tid"], {"tid": r["tid"], "comm": r["comm"], "ns": 0})
                e["ns"] += r["ns"]
            continue
        merge_into(st["_m"], w["tree"], i)
        wk = w["waker"]
        key = wk["tid"] if wk["kind"] == "task" else wk["kind"]
        b = st["_w"].setdefault(key, {"tid": wk["tid"], "comm": wk["comm"] or wk["kind"],
                                      "kind": wk["kind"], "waits": 0, "ns": 0, "_what": {}})
        b["waits"] += 1
        b["ns"] += w["ns"]
        for n in w["tree"]:
            k = (n["kind"], n.get("state"))
            e = b["_what"].setdefault(k, {"kind": n["kind"], "state": n.get("state"), "ns": 0})
            e["ns"] += n["ns"]
    out = []
    for tid in sorted(threads):
        th = threads[tid]
        for name, st in th["states"].items():
            m, byw, r = st.pop("_m"), st.pop("_w"), st.pop("_r")
            if name == "cpu":
                st["ran_instead"] = sorted(r.values(), key=lambda e: (-e["ns"], str(e["tid"])))
                continue
            st["waited_for"] = merged_list(m)
            bl = []
            for b in byw.values():
                what = b.pop("_what")
                b["what"] = sorted(what.values(), key=lambda e: -e["ns"])
                bl.append(b)
            st["by_waker"] = sorted(bl, key=lambda b: (-b["ns"], str(b["tid"])))
        out.append(th)
    return out


# ---- the whole -------------------------------------------------------------

def compute(path, trace_cmd="trace-cmd", perf="perf", kallsyms=None, comms=None,
            keep=None):
    """The JSON of the rules above for one file; keep: a list that gets
    the records read (for a caller comparing two files)."""
    if is_perf(path):
        events, cpus = read_perf(path, perf, kallsyms)
        fmt = "perf"
    else:
        events, cpus = read_dat(path, trace_cmd)
        fmt = "dat"
    if keep is not None:
        keep.extend(events)
    return analyse(events, cpus, path, fmt, comms)


def analyse(events, cpus, path, fmt, comms=None):
    """The JSON for records in time order (read_dat, read_perf, parse_dat)."""
    for a, b in zip(events, events[1:]):
        if b.ts < a.ts:
            raise Error("%s: records out of time order at %d" % (path, b.ts))
    tl = Timeline(events)
    walker = Walker(tl)
    gaps = sorted(tl.gaps)
    waits, dropped = [], {}

    def drop(why):
        dropped[why] = dropped.get(why, 0) + 1

    def dropped_for(start, until):
        if start < tl.complete_from:
            return "before_complete"
        i = bisect.bisect_right(gaps, start)
        if i < len(gaps) and gaps[i] <= until:
            return "across_lost"
        return None

    for pid in sorted(tl.tasks):
        if pid == 0:
            continue
        for t in tl.tasks[pid]:
            for k, s in enumerate(t.segs):
                if s.kind == "blocked" and s.state in ("S", "D", "I"):
                    if s.end is None:
                        drop("unfinished")
                        continue
                    if s.end_by not in ("wakeup", "waking", "switch-in"):
                        drop("across_lost" if s.end_by == "lost" else "no_switch_in")
                        continue
                    nxt = t.segs[k + 1] if k + 1 < len(t.segs) else None
                    until = s.end
                    if nxt is not None and nxt.kind == "runnable" and nxt.end_by == "switch-in":
                        until = nxt.end
                    why = dropped_for(s.start, until)
                    if why:
                        drop(why)
                        continue
                    if comms and s.comm not in comms and t.comm not in comms:
                        continue
                    waker = s.waker if s.end_by != "switch-in" else NO_WAKER
                    tree = walker.nodes(waker, s.start, s.end, 1, frozenset((pid,)))
                    check_partition(tree, s.start, s.end,
                                    "%s: tid %d wait %d-%d" % (path, pid, s.start, s.end))
                    waits.append({"tid": pid, "comm": s.comm, "state": s.state,
                                  "start_ns": s.start, "end_ns": s.end,
                                  "ns": s.end - s.start, "cpu": None,
                                  "cause": cause_of(s), "waker": waker, "tree": tree,
                                  "level": tree_level(tree)})
                elif s.kind == "unknown" and s.end_by == "contradiction" and \
                        (s.woken or s.state in ("S", "D", "I")):
                    drop("no_switch_in")
                elif s.kind == "runnable" and s.woken:
                    if s.end is None:
                        drop("unfinished")
                        continue
                    if s.end_by != "switch-in":
                        drop("no_switch_in")
                        continue
                    why = dropped_for(s.start, s.end)
                    if why:
                        drop(why)
                        continue
                    if comms and s.comm not in comms and t.comm not in comms:
                        continue
                    ri = ran_instead(tl, s.cpu, s.start, s.end)
                    if sum(r["ns"] for r in ri) != s.end - s.start:
                        raise Error("%s: ran_instead of tid %d at %d does not add up"
                                    % (path, pid, s.start))
                    waits.append({"tid": pid, "comm": s.comm, "state": "cpu",
                                  "start_ns": s.start, "end_ns": s.end,
                                  "ns": s.end - s.start, "cpu": s.cpu,
                                  "ran_instead": ri})
    waits.sort(key=lambda w: (w["end_ns"], w["tid"], w["state"] == "cpu"))

    counts, levels, leaf, blocked_ns, cpu_ns, ri_unknown = {}, {}, {}, 0, 0, 0
    for w in waits:
        counts[w["state"]] = counts.get(w["state"], 0) + 1
        if w["state"] == "cpu":
            cpu_ns += w["ns"]
            ri_unknown += sum(r["ns"] for r in w["ran_instead"] if r["tid"] is None)
            continue
        blocked_ns += w["ns"]
        levels[w["level"]] = levels.get(w["level"], 0) + 1
        leaves(w["tree"], leaf)
    return {
        "oracle": "chain-oracle/1",
        "trace": path,
        "format": fmt,
        "max_level": MAX_LEVEL,
        "summary": {
            "events": tl.n_events,
            "cpus": cpus,
            "first_ns": tl.first_ts,
            "last_ns": tl.last_ts,
            "lost_markers": tl.lost_markers,
            "chain_breaks": tl.chain_breaks,
            "waits": counts,
            "dropped": dropped,
            "max_level": max(levels) if levels else 0,
            "levels": {str(k): v for k, v in sorted(levels.items())},
            "blocked_ns": blocked_ns,
            "leaf_ns": dict(sorted(leaf.items())),
            "cpu_ns": cpu_ns,
            "ran_instead_unknown_ns": ri_unknown,
        },
        "waits": waits,
        "threads": aggregate(waits),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("trace")
    ap.add_argument("--trace-cmd", default="trace-cmd")
    ap.add_argument("--perf", default="perf")
    ap.add_argument("--kallsyms", help="for perf script (a perf.data from another kernel)")
    ap.add_argument("--comm", action="append",
                    help="only the waits of these comms (repeatable)")
    ap.add_argument("--out", help="write the JSON here (default: standard output)")
    ap.add_argument("--summary", action="store_true", help="only the summary")
    a = ap.parse_args()
    try:
        res = compute(a.trace, a.trace_cmd, a.perf, a.kallsyms,
                      set(a.comm) if a.comm else None)
    except (Error, OSError) as e:
        print("chain-oracle.py: %s" % e, file=sys.stderr)
        return 1
    if a.summary:
        res = {k: res[k] for k in ("oracle", "trace", "format", "summary")}
    text = json.dumps(res, indent=1) + "\n"
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
