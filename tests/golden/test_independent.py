#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The rules of independent.py on hand-written `trace-cmd report -N -t` text.

The golden check is only as good as its independent count, so the count's
rules (BRIEF 1, 3, 6 as documented at the top of independent.py) are pinned
here on scripts whose answers are worked out by hand.  No trace-cmd needed.
"""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import independent  # noqa: E402

MS = 1_000_000


def ts(ns):
    return f'{ns // 1_000_000_000}.{ns % 1_000_000_000:09d}'


def switch(ns, cpu, prev, prev_pid, state, nxt, next_pid):
    return (f'{prev:>16}-{prev_pid:<6} [{cpu:03d}] {ts(ns)}: sched_switch:         '
            f'prev_comm={prev} prev_pid={prev_pid} prev_prio=120 prev_state={state} '
            f'==> next_comm={nxt} next_pid={next_pid} next_prio=120')


def wakeup(ns, cpu, cur, cur_pid, comm, pid, event='sched_wakeup'):
    return (f'{cur:>16}-{cur_pid:<6} [{cpu:03d}] {ts(ns)}: {event}:         '
            f'comm={comm} pid={pid} prio=120 target_cpu={cpu:03d}')


def run(lines):
    c = independent.Counter()
    for line in ['cpus=2'] + lines:
        c.feed(line)
    c.finish()
    return c


T0 = 100 * 1_000_000_000


class Rules(unittest.TestCase):
    def test_interruptible_cutoff(self):
        # Three S waits: 2 ms, exactly 5 ms (charged), 5 ms + 1 ns (dropped).
        lines, t = [], T0
        for dur in (2 * MS, 5 * MS, 5 * MS + 1):
            lines += [switch(t, 0, 'a', 10, 'S', 'swapper/0', 0),
                      wakeup(t + dur, 0, '<idle>', 0, 'a', 10),
                      switch(t + dur + 1000, 0, 'swapper/0', 0, 'R', 'a', 10)]
            t += 10 * MS
        r = run(lines).comms['a']
        self.assertEqual((r['count_S_le_5ms'], r['total_ns']), (2, 7 * MS))
        self.assertEqual((r['dropped_over_5ms'], r['dropped_total_ns']), (1, 5 * MS + 1))
        self.assertEqual((r['blocked_count'], r['blocked_total_ns']), (2, 7 * MS))
        self.assertEqual((r['waitcpu_count'], r['waitcpu_total_ns']), (3, 3000))

    def test_uninterruptible_never_dropped(self):
        r = run([switch(T0, 0, 'f', 11, 'D', 'swapper/0', 0),
                 wakeup(T0 + 50 * MS, 1, 'kworker/1:1', 30, 'f', 11),
                 switch(T0 + 51 * MS, 0, 'swapper/0', 0, 'R', 'f', 11),
                 switch(T0 + 52 * MS, 0, 'f', 11, 'D|K', 'swapper/0', 0),
                 wakeup(T0 + 53 * MS, 0, '<idle>', 0, 'f', 11),
                 switch(T0 + 53 * MS + 10, 0, 'swapper/0', 0, 'R', 'f', 11)]).comms['f']
        self.assertEqual((r['count_D'], r['total_D_ns']), (2, 51 * MS))
        self.assertEqual(r['dropped_over_5ms'], 0)
        self.assertEqual((r['waitcpu_count'], r['waitcpu_total_ns']), (2, MS + 10))

    def test_not_blocked_states(self):
        # Preempted (R+), idle kthread (I), stopped (T, t), exiting (Z): no
        # blocked wait; a stop's wakeup starts a wait for cpu, the others'
        # nothing.
        lines = []
        for i, state in enumerate(('R+', 'I', 'T', 'Z', 'R', 't')):
            t = T0 + i * 10 * MS
            lines += [switch(t, 0, 'b', 12, state, 'swapper/0', 0),
                      wakeup(t + MS, 0, '<idle>', 0, 'b', 12),
                      switch(t + 2 * MS, 0, 'swapper/0', 0, 'R', 'b', 12)]
        r = run(lines).comms['b']
        self.assertEqual(r['blocked_count'] + r['dropped_over_5ms'], 0)
        self.assertEqual((r['waitcpu_count'], r['waitcpu_total_ns']), (2, 2 * MS))
        self.assertEqual(r['wakeups_not_blocked'], 4)

    def test_other_runqueue_time_kept_apart(self):
        # Preempted (R+) and a new task's first run are run-queue time, but
        # not rule 6's wakeup-to-running: counted apart, not in waitcpu.
        r = run([wakeup(T0, 0, 'parent', 9, 'n', 18, 'sched_wakeup_new'),
                 switch(T0 + 300, 1, 'swapper/1', 0, 'R', 'n', 18),
                 switch(T0 + MS, 1, 'n', 18, 'R+', 'x', 19),
                 switch(T0 + 2 * MS, 1, 'x', 19, 'S', 'n', 18)]).comms['n']
        self.assertEqual((r['runq_new_count'], r['runq_new_total_ns']), (1, 300))
        self.assertEqual((r['runq_preempted_count'], r['runq_preempted_total_ns']), (1, MS))
        self.assertEqual((r['waitcpu_count'], r['blocked_count']), (0, 0))

    def test_waking_is_not_the_end(self):
        # sched_waking does not end a wait; the sched_wakeup after it does.
        r = run([switch(T0, 0, 'c', 13, 'S', 'swapper/0', 0),
                 wakeup(T0 + MS, 1, 'w', 40, 'c', 13, 'sched_waking'),
                 wakeup(T0 + 2 * MS, 1, 'w', 40, 'c', 13),
                 switch(T0 + 3 * MS, 0, 'swapper/0', 0, 'R', 'c', 13)]).comms['c']
        self.assertEqual((r['count_S_le_5ms'], r['total_ns']), (1, 2 * MS))
        self.assertEqual((r['waitcpu_count'], r['waitcpu_total_ns']), (1, MS))

    def test_switch_in_without_wakeup(self):
        r = run([switch(T0, 0, 'd', 14, 'S', 'swapper/0', 0),
                 switch(T0 + 3 * MS, 0, 'swapper/0', 0, 'R', 'd', 14)]).comms['d']
        self.assertEqual((r['count_S_le_5ms'], r['total_ns']), (1, 3 * MS))
        self.assertEqual(r['switch_in_without_wakeup'], 1)
        self.assertEqual(r['waitcpu_count'], 0)

    def test_lost_switch_in_is_inferred(self):
        # The kernel lost "swapper/1 ==> e": e is next seen running when it
        # emits an event itself; that wait is an upper bound, kept apart.
        c = run([switch(T0, 1, 'e', 15, 'S', 'swapper/1', 0),
                 wakeup(T0 + 2 * MS, 1, '<idle>', 0, 'e', 15),
                 wakeup(T0 + 2 * MS + 500, 1, 'e', 15, 'x', 99, 'sched_waking'),
                 switch(T0 + 2 * MS + 900, 1, 'e', 15, 'S', 'swapper/1', 0)])
        r = c.comms['e']
        self.assertEqual((r['count_S_le_5ms'], r['total_ns']), (1, 2 * MS))
        self.assertEqual(r['waitcpu_count'], 0)
        self.assertEqual((r['waitcpu_inferred_count'], r['waitcpu_inferred_total_ns']), (1, 500))
        self.assertEqual(c.chain_breaks, {1: 1})
        self.assertEqual(r['unfinished'], 1)

    def test_second_switch_out_without_end(self):
        r = run([switch(T0, 0, 'g', 16, 'S', 'swapper/0', 0),
                 switch(T0 + MS, 1, 'g', 16, 'D', 'swapper/1', 0),
                 wakeup(T0 + 2 * MS, 1, '<idle>', 0, 'g', 16)]).comms['g']
        self.assertEqual(r['blocked_end_lost'], 1)
        self.assertEqual((r['count_D'], r['total_D_ns'], r['count_S_le_5ms']), (1, MS, 0))

    def test_attribution_by_comm_at_switch_out(self):
        # A comm with a space, two pids with one comm summed, a rename.
        r = run([switch(T0, 0, 'Web Content', 20, 'S', 'Web Content', 21),
                 switch(T0 + 10, 0, 'Web Content', 21, 'S', 'swapper/0', 0),
                 wakeup(T0 + MS, 0, '<idle>', 0, 'Web Content', 20),
                 wakeup(T0 + 2 * MS, 0, '<idle>', 0, 'Web Content', 21),
                 switch(T0 + 3 * MS, 0, 'swapper/0', 0, 'R', 'renamed', 21),
                 switch(T0 + 4 * MS, 0, 'renamed', 21, 'S', 'Web Content', 20),
                 wakeup(T0 + 5 * MS, 1, 'w', 40, 'renamed', 21)])
        wc = r.comms['Web Content']
        self.assertEqual((wc['count_S_le_5ms'], wc['total_ns'], wc['pids']),
                         (2, MS + 2 * MS - 10, {20, 21}))
        self.assertEqual((r.comms['renamed']['count_S_le_5ms'], r.comms['renamed']['total_ns']),
                         (1, MS))
        self.assertEqual(r.tasks[21]['count_S_le_5ms'], 2)

    def test_idle_and_unknown_start(self):
        # pid 0 is never a task; a wakeup that is a task's first event ends
        # a sleep begun before the trace (not counted) and starts a wait for
        # cpu; a wakeup of a task seen running starts nothing; a wait still
        # open at the end is not charged.
        r = run([wakeup(T0, 0, '<idle>', 0, 'h', 17),
                 switch(T0 + MS, 0, 'swapper/0', 0, 'R', 'h', 17),
                 wakeup(T0 + MS + 10, 0, 'h', 17, 'h', 17),
                 switch(T0 + 2 * MS, 0, 'h', 17, 'S', 'swapper/0', 0)])
        self.assertNotIn('swapper/0', r.comms)
        h = r.comms['h']
        self.assertEqual((h['blocked_count'], h['waitcpu_count'],
                          h['waitcpu_total_ns']), (0, 1, MS))
        self.assertEqual((h['wakeups_not_blocked'], h['unfinished']), (1, 1))

    def test_drop_markers_and_errors(self):
        c = run(['CPU:1 [123 EVENTS DROPPED]', 'CPU:0 [EVENTS DROPPED]'])
        self.assertEqual((c.lost, c.cpus), (124, 2))
        with self.assertRaises(independent.Error):    # time must not go backwards
            run([switch(T0, 0, 'a', 10, 'R', 'b', 11), switch(T0 - 1, 1, 'c', 12, 'R', 'd', 13)])
        with self.assertRaises(independent.Error):    # microsecond timestamps: no -t
            run(['   a-10    [000]   100.000001: sched_switch: prev_comm=a prev_pid=10 '
                 'prev_prio=120 prev_state=S ==> next_comm=b next_pid=11 next_prio=120'])
        with self.assertRaises(independent.Error):    # a format we do not know
            run([f'   a-10    [000] {ts(T0)}: sched_switch: a:10 [120] S ==> b:11 [120]'])


if __name__ == '__main__':
    unittest.main()
