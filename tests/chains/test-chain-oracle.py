#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""test-chain-oracle.py - chain-oracle.py's rules on hand-written
`trace-cmd report -N -t -l` text (no trace-cmd, no kernel): each case is a
script of records and the exact trees, wakers and ran_instead the rules
give for it.  What a case pins is said in its comment; the C
implementation's unit tests can replay the same scripts.

Times are microseconds from 100 s; trees are written as
(level, tid, kind, state-or-why, start_us, end_us) in order.
"""
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("chain_oracle",
                                               os.path.join(HERE, "chain-oracle.py"))
co = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(co)

BASE = 100_000_000_000
failed = 0


class Script:
    """Lines of trace-cmd report -N -t -l; bare: stamps in bare ns."""

    def __init__(self, names, bare=False):
        self.names, self.bare, self.lines = dict(names), bare, ["cpus=2"]
        self.names.setdefault(0, "<idle>")

    def rec(self, us, cpu, cur, event, rest, lat="d..2."):
        ts = BASE + us * 1000
        stamp = "%12d" % ts if self.bare else " %5d.%09d" % (ts // 10**9, ts % 10**9)
        self.lines.append("%8.8s-%-5d %3d%s%s: %s: %s" % (
            self.names[cur], cur, cpu, lat, stamp, event, rest))

    def stack(self, us, cpu, cur, frames):
        self.rec(us, cpu, cur, "kernel_stack", "\t=> " + frames[0], lat="d..2.")
        self.lines += ["\t=> " + f for f in frames[1:]]

    def switch(self, us, cpu, prev, state, nxt, stack=None):
        pc = self.names[prev] if prev else "swapper/%d" % cpu
        nc = self.names[nxt] if nxt else "swapper/%d" % cpu
        self.rec(us, cpu, prev, "sched_switch",
                 "prev_comm=%s prev_pid=%d prev_prio=120 prev_state=%s ==> "
                 "next_comm=%s next_pid=%d next_prio=120" % (pc, prev, state, nc, nxt))
        if stack:
            self.stack(us, cpu, prev, ["trace_event_raw_event_sched_switch",
                                       "__traceiter_sched_switch", "__schedule",
                                       "schedule"] + stack)

    def wake(self, us, cpu, cur, pid, event="sched_waking", lat="d..3.", stack=None):
        self.rec(us, cpu, cur, event, "comm=%s pid=%d prio=120 target_cpu=%03d"
                 % (self.names[pid], pid, cpu), lat=lat)
        if stack:
            self.stack(us, cpu, cur, ["trace_event_raw_event_sched_wakeup_template",
                                      "__traceiter_" + event, "try_to_wake_up"] + stack)

    def wakeup(self, us, cpu, cur, pid, lat="d..4."):
        self.wake(us, cpu, cur, pid, "sched_wakeup", lat)

    def drop(self, cpu):
        self.lines.append("CPU:%d [EVENTS DROPPED]" % cpu)

    def run(self):
        events, cpus = co.parse_dat(self.lines)
        return co.analyse(events, cpus, "script", "dat")


def us(ns):
    return (ns - BASE) / 1000


def flat(tree, level=1):
    out = []
    for n in tree:
        extra = n.get("state") or n.get("why")
        out.append((level, n["tid"], n["kind"], extra, us(n["start_ns"]), us(n["end_ns"])))
        out += flat(n.get("children", []), level + 1)
    return out


def wait(res, tid, state, start_us=None):
    for w in res["waits"]:
        if w["tid"] == tid and w["state"] == state and \
                (start_us is None or us(w["start_ns"]) == start_us):
            return w
    return None


def expect(case, what, got, want):
    global failed
    if got == want:
        print("ok   %s: %s" % (case, what))
    else:
        failed += 1
        print("FAIL %s: %s\n       got  %r\n       want %r" % (case, what, got, want))


def case_pipe(bare=False):
    """A reader's wait, its writer asleep in nanosleep until a timer: the
    walk back through the writer's running, waiting for cpu and blocked
    (with a timer child, told by hrtimer_wakeup in the waking's stack);
    the waker's running node runs to the wakeup (150 -> 152); ran_instead
    of the reader's wait for a CPU."""
    s = Script({101: "reader", 102: "writer", 103: "other"}, bare)
    s.switch(10, 1, 102, "S", 0, stack=["do_nanosleep", "hrtimer_nanosleep"])
    s.switch(20, 0, 101, "S", 103, stack=["anon_pipe_read", "vfs_read"])
    s.wake(100, 1, 0, 102, lat="d.h2.", stack=["hrtimer_wakeup", "__hrtimer_run_queues",
                                              "hrtimer_interrupt"])
    s.wakeup(101, 1, 0, 102, lat="dNh3.")
    s.switch(110, 1, 0, "R", 102)
    s.wake(150, 1, 102, 101)
    s.wakeup(152, 1, 102, 101)
    s.switch(160, 1, 102, "S", 0)
    s.switch(170, 0, 103, "R", 101)
    name = "pipe" + (" (bare ns stamps)" if bare else "")
    r = s.run()
    w = wait(r, 101, "S")
    expect(name, "reader's wait", (us(w["start_ns"]), us(w["end_ns"]), w["cause"]),
           (20, 152, "S anon_pipe_read"))
    expect(name, "its waker", (w["waker"]["kind"], w["waker"]["tid"], us(w["waker"]["ts_ns"])),
           ("task", 102, 150))
    expect(name, "its tree", flat(w["tree"]), [
        (1, 102, "blocked", "S", 20, 101), (2, None, "timer", None, 20, 101),
        (1, 102, "waiting for cpu", None, 101, 110),
        (1, 102, "running", None, 110, 152)])
    expect(name, "the blocked node's cause", w["tree"][0]["cause"], "S do_nanosleep")
    c = wait(r, 101, "cpu")
    expect(name, "reader's wait for a CPU", (us(c["start_ns"]), us(c["end_ns"]), c["cpu"],
                                             c["ran_instead"]),
           (152, 170, 0, [{"tid": 103, "comm": "other", "ns": 18000}]))
    ww = wait(r, 102, "S")
    expect(name, "writer's own wait", (us(ww["start_ns"]), us(ww["end_ns"]), flat(ww["tree"])),
           (10, 101, [(1, None, "timer", None, 10, 101)]))
    th = {t["tid"]: t for t in r["threads"]}[101]["states"]["S"]
    expect(name, "the reader's merged tree", [
        (m["tid"], m["kind"], m["ns"], m["waits"]) for m in th["waited_for"]],
        [(102, "blocked", 81000, 1), (102, "running", 42000, 1),
         (102, "waiting for cpu", 9000, 1)])
    expect(name, "by waker", [(b["tid"], b["kind"], b["ns"], [(x["kind"], x["ns"]) for x in b["what"]])
                              for b in th["by_waker"]],
           [(102, "task", 132000, [("blocked", 81000), ("running", 42000),
                                   ("waiting for cpu", 9000)])])


def case_cycle():
    """A wakeup completed late (waking at 90 by T0, wakeup at 110 on an
    idle CPU): W1's wait was ended by T0, who by then was waiting for W1
    itself.  The walk meets T0 again: unknown, why=cycle.  Also: the
    sched_wakeup of a remote wakeup is made by the idle task, yet the
    waker is the one of the sched_waking."""
    s = Script({201: "t0", 202: "w1"})
    s.switch(0, 1, 202, "S", 0)
    s.switch(5, 0, 0, "R", 201)
    s.wake(90, 0, 201, 202)
    s.switch(100, 0, 201, "S", 0)
    s.wakeup(110, 1, 0, 202)
    s.switch(120, 1, 0, "R", 202)
    s.wake(190, 1, 202, 201)
    s.wakeup(191, 1, 202, 201)
    s.switch(195, 1, 202, "S", 0)
    s.switch(200, 0, 0, "R", 201)
    r = s.run()
    w = wait(r, 201, "S")
    expect("cycle", "t0's tree", flat(w["tree"]), [
        (1, 202, "blocked", "S", 100, 110), (2, None, "unknown", "cycle", 100, 110),
        (1, 202, "waiting for cpu", None, 110, 120), (1, 202, "running", None, 120, 191)])
    w1 = wait(r, 202, "S")
    expect("cycle", "w1's waker: the waking's, not the idle wakeup's",
           (w1["waker"]["kind"], w1["waker"]["tid"], w1["waker"]["event"]),
           ("task", 201, "sched_waking"))
    expect("cycle", "w1's tree: t0 running from 5 (first seen) to the wakeup",
           flat(w1["tree"]), [(1, None, "unknown", "before_trace", 0, 5),
                              (1, 201, "running", None, 5, 110)])


def case_depth():
    """Ten tasks each waiting for the next: the walk follows 8 wakers (P2
    at level 1 ... P9 at level 8); P9's blocked node gets one unknown
    child, why=depth, at level 9.  P10 (woken by a hard irq) never shows."""
    names = {300 + k: "p%d" % k for k in range(1, 11)}
    s = Script(names)
    for k in range(10, 0, -1):      # P10 out at 90 ... P1 out at 99
        s.switch(100 - k, 0, 300 + k, "S", 300 + k - 1 if k > 1 else 0)
    s.wake(500, 1, 0, 310, lat="d.h2.")
    s.wakeup(501, 1, 0, 310, lat="d.h3.")
    s.switch(502, 1, 0, "R", 310)
    for k in range(10, 1, -1):      # Pk wakes Pk-1, then sleeps for good
        t = 510 + 10 * (10 - k)
        s.wake(t, 1, 300 + k, 300 + k - 1)
        s.wakeup(t + 1, 1, 300 + k, 300 + k - 1)
        s.switch(t + 2, 1, 300 + k, "S", 300 + k - 1)
    r = s.run()
    w = wait(r, 301, "S")
    f = flat(w["tree"])
    expect("depth", "p1's wait", (us(w["start_ns"]), us(w["end_ns"]), w["level"]), (99, 591, 9))
    expect("depth", "blocked nodes by level",
           [(x[0], x[1], x[4], x[5]) for x in f if x[2] == "blocked"],
           [(k - 1, 300 + k, 99, 511 + 10 * (9 - k)) for k in range(2, 10)])
    expect("depth", "the deepest node", [x for x in f if x[0] == 9],
           [(9, None, "unknown", "depth", 99, 511)])
    expect("depth", "p10 nowhere", [x for x in f if x[1] == 310], [])
    expect("depth", "summary levels", r["summary"]["max_level"], 9)


def case_lost_and_contradiction():
    """A lost-events marker on CPU 1: K, who last ran there, is 'lost' from
    the gap's start (10, CPU 1's last record) to its next transition (its
    wakeup at 70); M2's later wait walks into it.  The waits of K and L
    that the gap cut, and M's across it, are dropped.  Q is seen current on CPU 1 at 130 without a switch-in:
    its time since the wakeup (110) is unknown, why=contradiction, and
    CPU 1's time since its last record (105) too (ran_instead)."""
    s = Script({401: "l", 402: "m", 403: "m2", 404: "k", 406: "q", 407: "z", 408: "x"})
    s.switch(5, 1, 404, "S", 401)
    s.switch(10, 1, 401, "S", 0)
    s.switch(30, 0, 402, "S", 408)
    s.drop(1)
    s.switch(50, 1, 0, "R", 401)          # L's wakeup was lost
    s.switch(55, 0, 408, "S", 403)
    s.switch(56, 0, 403, "S", 0)          # M2 blocks after the gap
    s.wake(60, 1, 401, 402)
    s.wakeup(61, 1, 401, 402)
    s.wake(69, 0, 0, 404, lat="d.h2.")
    s.wakeup(70, 0, 0, 404, lat="d.h3.")
    s.switch(80, 0, 0, "R", 404)
    s.wake(90, 0, 404, 403)
    s.wakeup(91, 0, 404, 403)
    s.switch(100, 0, 404, "S", 406)       # Q first seen, switched in
    s.switch(101, 0, 406, "S", 0)
    s.switch(103, 1, 401, "S", 407)
    s.switch(105, 1, 407, "S", 0)
    s.wake(109, 0, 0, 406, lat="d.h2.")
    s.wakeup(110, 0, 0, 406, lat="d.h3.")
    s.wake(130, 1, 406, 407)              # Q current on CPU 1: no switch-in
    s.wakeup(131, 1, 406, 407)
    s.switch(140, 1, 406, "S", 407)
    r = s.run()
    expect("lost", "m's wait across the gap is dropped",
           (wait(r, 402, "S"), r["summary"]["dropped"].get("across_lost")), (None, 3))
    w = wait(r, 403, "S")
    expect("lost", "m2's tree", flat(w["tree"]), [
        (1, None, "lost", None, 56, 70), (1, 404, "waiting for cpu", None, 70, 80),
        (1, 404, "running", None, 80, 91)])
    z = wait(r, 407, "S")
    expect("contradiction", "z's tree", flat(z["tree"]), [
        (1, 406, "blocked", "S", 105, 110), (2, None, "hardirq", None, 105, 110),
        (1, None, "unknown", "contradiction", 110, 130), (1, 406, "running", None, 130, 131)])
    zc = wait(r, 407, "cpu")
    expect("contradiction", "z's ran_instead", zc["ran_instead"],
           [{"tid": 406, "comm": "q", "ns": 9000}])
    expect("contradiction", "q's wait for a CPU is dropped, a chain break counted",
           (wait(r, 406, "cpu"), r["summary"]["dropped"].get("no_switch_in"),
            r["summary"]["chain_breaks"]), (None, 1, 1))


def case_kinds():
    """Wakers that are not tasks: the idle task outside interrupts (timer),
    a soft irq; a wait ended by its switch-in with no wakeup at all
    (unknown, why=no_waker).  No sched_wakeup in this trace: waits end at
    the sched_waking, and the wait for a CPU starts there."""
    s = Script({501: "u", 502: "v", 503: "y"})
    s.switch(10, 0, 501, "S", 0)
    s.switch(20, 1, 502, "D", 0)
    s.wake(50, 0, 0, 501, lat="d..2.")
    s.switch(60, 0, 0, "R", 501)
    s.switch(70, 1, 0, "R", 502)
    s.switch(80, 1, 502, "R", 503)
    s.switch(90, 1, 503, "S", 502)
    s.wake(100, 1, 502, 503, lat="d.s3.")
    s.switch(110, 1, 502, "R", 503)
    r = s.run()
    u = wait(r, 501, "S")
    expect("kinds", "idle waker: timer; the wait ends at the waking",
           (us(u["end_ns"]), u["waker"]["kind"], flat(u["tree"])),
           (50, "timer", [(1, None, "timer", None, 10, 50)]))
    expect("kinds", "u's wait for a CPU: the idle task ran instead",
           wait(r, 501, "cpu")["ran_instead"], [{"tid": 0, "comm": "swapper/0", "ns": 10000}])
    v = wait(r, 502, "D")
    expect("kinds", "no wakeup: ends at the switch-in, unknown",
           (us(v["start_ns"]), us(v["end_ns"]), v["waker"]["kind"], flat(v["tree"])),
           (20, 70, "unknown", [(1, None, "unknown", "no_waker", 20, 70)]))
    y = wait(r, 503, "S")
    expect("kinds", "soft irq waker", (y["waker"]["kind"], flat(y["tree"])),
           ("softirq", [(1, None, "softirq", None, 90, 100)]))
    expect("kinds", "y's ran_instead", wait(r, 503, "cpu")["ran_instead"],
           [{"tid": 502, "comm": "v", "ns": 10000}])


def case_race():
    """The waker's sched_waking (10) comes before the sleeper's switch-out
    (12), the sched_wakeup after it (20): the waking still names the
    waker; the waker's running node is the whole wait."""
    s = Script({601: "s1", 602: "w"})
    s.switch(0, 0, 0, "R", 601)
    s.wake(10, 1, 602, 601)
    s.switch(12, 0, 601, "S", 0)
    s.wakeup(20, 1, 602, 601)
    s.switch(25, 0, 0, "R", 601)
    r = s.run()
    w = wait(r, 601, "S")
    expect("race", "s1's wait", (us(w["start_ns"]), us(w["end_ns"]), w["waker"]["tid"],
                                 us(w["waker"]["ts_ns"]), flat(w["tree"])),
           (12, 20, 602, 10, [(1, 602, "running", None, 12, 20)]))


def main():
    case_pipe()
    case_pipe(bare=True)
    case_cycle()
    case_depth()
    case_lost_and_contradiction()
    case_kinds()
    case_race()
    print("%s: %d failed" % ("FAILED" if failed else "PASSED", failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
