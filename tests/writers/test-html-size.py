#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""test-html-size.py - the HTML report's size is bounded by what the trace
holds (tasks, causes, stacks) and the timeline's bounds, never by its
length.

Usage: test-html-size.py LATENCY-ANALYZE MKTRACE [ROUNDS]

Writes two synthetic traces with mktrace.py, the same 32 tasks in 8
processes on 4 CPUs waiting for the same 12 causes through the same 40
kernel stacks, one ROUNDS rounds long (default 400: ~150,000 events,
1,200 waits a task) and one ten times longer, and checks that:
- the longer trace's report is at most 10% larger (only its numbers get
  longer: times, totals), and both stay under 2 MB;
- the timeline keeps at most 20 threads x 1000 waits (plus the global
  table's worst occurrences), and its threads' totals are all their
  waits';
- the flame graph has at most 5000 stacks, the waiting-for graph at
  most 5000 nodes a level and 12 levels;
- --window with ten thousand windows draws at most 500 columns, and
  adds little.
Needs no browser: the bounds are in the file.
"""

import json
import os
import re
import subprocess
import sys
import tempfile

CPUS, TASKS_PER_CPU, SUBROUNDS = 4, 8, 3
REASONS = ["Reading from a pipe", "fsync() on a file", "Waiting for buffer IO",
           "Page fault", "Opening file", "Userspace lock contention (futex)"]
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        failures.append(what)


def script(rounds):
    """A mktrace.py script: each round, each task waits SUBROUNDS times
    (a wakeup, 50 ns on the run queue), annotated or named by a stack."""
    out = ["version 7", "compression zlib", "event sched:sched_switch",
           "event sched:sched_wakeup", "event ftrace:kernel_stack",
           "event latencytop:latency_reason_set",
           "event latencytop:latency_reason_restore",
           "ksym ffffffff81000000 T _stext", "ksym ffffffff81000100 t __schedule",
           "ksym ffffffff81000200 T schedule"]
    for k in range(40):
        out.append("ksym ffffffff8101%02x00 T synth_fn_%d" % (k, k))
    step = TASKS_PER_CPU * SUBROUNDS * 10000
    out.append("repeat %d every %d" % (rounds, step))
    for c in range(CPUS):
        for j in range(TASKS_PER_CPU):
            tid = 1000 + c * TASKS_PER_CPU + j
            comm = "proc%d-t%d" % (tid % 8, tid)
            for s in range(SUBROUNDS):
                t = (j * SUBROUNDS + s) * 10000 + 100
                dur = 1000 + ((tid * 7 + s * 13) % 17) * 500
                k = (tid + s * 5) % 40
                stack = "0xffffffff81000110,0xffffffff81000210,0xffffffff8101%02x10,0xffffffff8101%02x10" % (k, (k * 3) % 40)
                annotated = (tid + s) % 3 == 0
                if annotated:
                    out.append("%d %d latency_reason_set reason=\"%s\" argument=\"arg%d\" "
                               "maxtime_us=0 cookie=0x%x common_pid=%d"
                               % (t - 50, c, REASONS[(tid + s) % len(REASONS)],
                                  s, 0xa000 + tid, tid))
                out.append("%d %d sched_switch prev_comm=%s prev_pid=%d prev_state=D "
                           "next_comm=swapper/%d next_pid=0" % (t, c, comm, tid, c))
                out.append("%d %d kernel_stack size=4 caller=%s common_pid=%d"
                           % (t, c, stack, tid))
                out.append("%d %d sched_wakeup comm=%s pid=%d prio=120 target_cpu=%d "
                           "common_pid=0" % (t + dur, c, comm, tid, c))
                out.append("%d %d sched_switch prev_comm=swapper/%d prev_pid=0 "
                           "prev_state=R next_comm=%s next_pid=%d"
                           % (t + dur + 50, c, c, comm, tid))
                if annotated:
                    out.append("%d %d latency_reason_restore reason=\"%s\" cookie=0x%x "
                               "common_pid=%d" % (t + dur + 100, c,
                                                  REASONS[(tid + s) % len(REASONS)],
                                                  0xa000 + tid, tid))
    out.append("end")
    return "\n".join(out) + "\n"


def data_of(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r'<script type="application/json" id="lt-data">\n(.*?)\n</script>',
                  text, re.S)
    return len(text.encode()), json.loads(m.group(1))


def report(la, trace, out, opts=()):
    subprocess.run([la, "-q", "--format=html", "-o", out] + list(opts) + [trace],
                   check=True)
    return data_of(out)


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    la, mktrace = sys.argv[1:3]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 400
    tmp = tempfile.mkdtemp(prefix="lt-html-size-")
    sizes, datas = [], []
    for n in (rounds, rounds * 10):
        trs = os.path.join(tmp, "big%d.trs" % n)
        dat = os.path.join(tmp, "big%d.dat" % n)
        with open(trs, "w") as f:
            f.write(script(n))
        subprocess.run([sys.executable, mktrace, trs, "-o", dat], check=True)
        js = subprocess.run([la, "-q", "--format=json", dat], check=True,
                            stdout=subprocess.PIPE, text=True).stdout
        rep = json.loads(js)
        size, data = report(la, dat, os.path.join(tmp, "big%d.html" % n))
        waits = sum(r["count"] for r in rep["global"])
        print("     %d rounds: %d events, %d charged waits, %s bytes of trace, "
              "%d bytes of HTML" % (n, rep["trace"]["events"], waits,
                                    os.path.getsize(dat), size))
        sizes.append(size)
        datas.append((rep, data))
        tl = data["timeline"]
        worst = sum(len(r["worst"]) for r in rep["global"])
        lanes = tl["lanes"]
        check(len(lanes) <= 20 and
              all(len(l[7]) <= 1000 + worst for l in lanes),
              "%d rounds: the timeline keeps %d threads, at most %d waits each "
              "(of %d)" % (n, len(lanes), max(len(l[7]) for l in lanes),
                           max(l[4] for l in lanes)))
        totals = {(p["pid"], t["tid"]): t["total_ns"] for p in rep["processes"]
                  for t in p["threads"]}
        check(all(l[5] == totals[(l[1], l[2])] for l in lanes),
              "%d rounds: each timeline thread's total is all its waits'" % n)
        stacks = sum(len(r[2]) for p in data["flame"]["procs"] for r in p[4])
        check(stacks <= 5000, "%d rounds: %d stacks in the flame graph" % (n, stacks))

        def levels(nodes, d, out):
            for nd in nodes:
                out[d] = out.get(d, 0) + 1
                levels(nd[3] if len(nd) > 3 else [], d + 1, out)
            return out
        per = levels([nd for p in data["wfor"]["procs"] for r in p[3] for nd in r[2]],
                     0, {})
        check(per and all(c <= 5000 for c in per.values()) and len(per) <= 12,
              "%d rounds: the waiting-for graph has %d nodes, %d levels, at most "
              "%d a level" % (n, sum(per.values()), len(per), max(per.values() or [0])))
        check(size < 2 << 20, "%d rounds: %d bytes, under 2 MB" % (n, size))
    check(sizes[1] <= sizes[0] * 1.10,
          "ten times the trace, %.1f%% more HTML (%d -> %d bytes)"
          % (100.0 * (sizes[1] - sizes[0]) / sizes[0], sizes[0], sizes[1]))
    check(datas[1][0]["trace"]["events"] >= 9 * datas[0][0]["trace"]["events"],
          "the long trace has ten times the events (%d, %d)"
          % (datas[0][0]["trace"]["events"], datas[1][0]["trace"]["events"]))
    # windows: ten thousand of them, drawn in at most 500 columns
    span = datas[1][0]["trace"]["duration_ns"]
    win = max(span // 10000, 1)
    size, data = report(la, os.path.join(tmp, "big%d.dat" % (rounds * 10)),
                        os.path.join(tmp, "win.html"), ["-w", "%dns" % win])
    cols = data["windows"]["cols"]
    check(len(cols) <= 500 and data["windows"]["per"] >= 10,
          "%d ns windows: %d columns of %d windows each" % (win, len(cols),
                                                           data["windows"]["per"]))
    check(size <= sizes[1] + 256 * 1024,
          "with the windows, %d bytes (%d more)" % (size, size - sizes[1]))
    if failures:
        print("%d check(s) failed" % len(failures))
        return 1
    print("all passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
