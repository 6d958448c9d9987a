#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Open bug (replay; found by the mutation test, seed 1): a trace whose
latencytop:latency_reason_set events are missing (not recorded, lost, or
their format unusable) while the restores are there.

    python3 restore-only.py N | python3 tests/tools/mktrace.py - -o /tmp/ro.dat
    latency-analyze /tmp/ro.dat

One task that existed before the trace blocks N times (default 60);
after each wait it restores one of four reasons, in an irregular order,
with no set ever seen.  Each unmatched restore while the task's known
stack is empty re-charges the task's provisional rows to that reason
(recharge_task -> row_move), prepending it to the reason path of every
sub-row; the number of paths grows exponentially with the restores:
N = 20: 3 ms, N = 40: 33 ms, N = 60 (a 16 KB trace): exit 6 after
1.4 s, "latency-analyze: more than 1048576 distinct reason paths; the
trace is too large or hostile" (a message that does not name the file).
The ASan build takes over 5 minutes, as lt_rp_path_child reallocs path_reason
on every new path.  A real case: samples/kernel-patched-6.1.dat
converted to v6 with the name of its latency_reason_set format changed
gives the same exit 6.
"""
import random
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 60
rng = random.Random(1)
print("event sched:sched_switch")
print("event latencytop:latency_reason_restore")
t = 1000
for i in range(n):
    print("%d 0 sched_switch prev_comm=w prev_pid=42 prev_state=D "
          "next_comm=swapper/0 next_pid=0" % t)
    print("%d 0 sched_switch prev_comm=swapper/0 prev_pid=0 prev_state=R "
          "next_comm=w next_pid=42" % (t + 1000))
    print('%d 0 latency_reason_restore reason="Reason %d" cookie=0xa0'
          % (t + 2000, rng.randrange(4)))
    t += 10000
