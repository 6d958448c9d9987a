#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check a trace.dat recorded by the qemu end-to-end test.

1. Structure, from "trace-cmd report -N" (the events' own print formats):
   the latencytop, sched_stat_* and sched_switch events and the -T stacks
   are present, every latency_reason_restore matches the latest open
   latency_reason_set of its task by cookie, and the reasons the workload
   must produce were seen.
2. Attribution, replayed here from the same text: the blocked time of each
   workload task (switch-out to wakeup, BRIEF rule 8; a sched_stat_*
   delay only for a wait whose switch-out the trace lacks), charged to the
   outermost reason active when it went to sleep, is dominated by the
   expected reason.
3. With --analyzer: "latency-analyze --format=json" agrees (schema
   latencytop-report/1); with --golden, to 3% in counts and 5% in totals.
4. With --plugin-dir: plugin_latencytop.so formats the two events.

Prints a summary; exits 1 on a failed check.
"""

import argparse
import collections
import json
import os
import re
import subprocess
import sys

# comm of a workload task -> the reason that must carry most of its waits
EXPECT = {
    "lt-fsync": "fsync system call",
    "lt-fdatasync": "fdatasync system call",
    "lt-pipe-rd": "reading from a pipe",
    "lt-pipe-wr": "writing to a pipe",
    "lt-fault": "page fault",
    "lt-sleep": "Sleeping (nanosleep)",
    "lt-poll": "Waiting for event (poll)",
    "lt-futex": "Userspace lock contention (futex)",
}
# Short interruptible waits are kept, long ones are user requested.
USER_WAIT_NS = 5_000_000
# The analyzer's row for time from wakeup to running (BRIEF rule 6).
RUNQUEUE_ROW = "Scheduler: waiting for cpu"

LINE = re.compile(
    r"^\s*(?P<comm>.+?)-(?P<pid>\d+)\s+\[(?P<cpu>\d+)\]\s*"
    r"(?:\S+\s+)?(?P<ts>\d+(?:\.\d+)?):\s+(?P<event>\w+):\s*(?P<rest>.*)$")
FIELD = re.compile(r"(\w+)=('([^']*)'|\S+)")

failures = []


def check(cond, what):
    print(("ok      " if cond else "FAILED  ") + what)
    if not cond:
        failures.append(what)
    return cond


def fields(rest):
    out = {}
    for m in FIELD.finditer(rest):
        out[m.group(1)] = m.group(3) if m.group(3) is not None else m.group(2)
    return out


def report_lines(trace, env=None, plugins=False):
    cmd = ["trace-cmd", "report", "-t"] + ([] if plugins else ["-N"]) + ["-i", trace]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, env=env)
    if p.returncode:
        sys.exit("trace-cmd report failed: " + p.stderr.strip())
    return p.stdout.splitlines()


class Task:
    def __init__(self, comm):
        self.comm = comm
        self.stack = []            # [(cookie, reason)]
        self.sleep_reason = None   # outermost reason at the last switch-out
        self.sleep_state = None
        self.charged = collections.Counter()
        self.waits = collections.Counter()
        self.open_since = None     # switch-out time of a wait not yet ended
        self.open_user = False     # that wait is interruptible (S)
        self.out_ts = None         # its last switch-out
        self.stat_ts = None        # a stat event of the open wait


def ts_ns(text):
    """'17.256862196' (trace-cmd report -t) -> ns; now and then trace-cmd
    prints bare nanoseconds ('17256862196'), which are taken as they are."""
    if "." not in text:
        return int(text)
    sec, _, frac = text.partition(".")
    return int(sec) * 1_000_000_000 + int((frac + "000000000")[:9])


def replay(lines):
    counts = collections.Counter()
    reasons = collections.Counter()
    tasks = {}
    bad_restore = 0
    stack_lines = 0

    def task(pid, comm):
        t = tasks.get(pid)
        if t is None:
            t = tasks[pid] = Task(comm)
        if comm and not comm.startswith("<"):
            t.comm = comm
        return t

    def close(t, end):
        dur = end - t.open_since
        t.open_since = None
        if t.open_user and dur > USER_WAIT_NS:
            return
        t.charged[t.sleep_reason or "(none)"] += dur
        t.waits[t.sleep_reason or "(none)"] += 1

    for line in lines:
        if line.lstrip().startswith("=>"):
            stack_lines += 1
            continue
        m = LINE.match(line)
        if not m:
            continue
        ev, pid, comm = m.group("event"), int(m.group("pid")), m.group("comm")
        counts[ev] += 1
        f = fields(m.group("rest"))
        if ev == "latency_reason_set":
            reasons[f.get("reason", "")] += 1
            task(pid, comm).stack.append((f.get("cookie"), f.get("reason")))
        elif ev == "latency_reason_restore":
            t = task(pid, comm)
            cookie = f.get("cookie")
            if t.stack and t.stack[-1][0] == cookie:
                t.stack.pop()
            else:
                # Unmatched: the set happened before the trace started, or
                # an inner restore was lost.  Resynchronise on the cookie.
                idx = [c for c, _ in t.stack].index(cookie) \
                    if cookie in [c for c, _ in t.stack] else None
                if idx is not None:
                    del t.stack[idx:]
                bad_restore += 1
        elif ev == "sched_switch":
            prev = int(f.get("prev_pid", -1))
            state = f.get("prev_state", "R")
            t = task(prev, f.get("prev_comm", ""))
            t.sleep_state = state
            t.sleep_reason = t.stack[0][1] if t.stack else None
            blocked = "D" in state or "S" in state
            t.open_since = ts_ns(m.group("ts")) if blocked else None
            t.open_user = blocked and "D" not in state
            t.out_ts = ts_ns(m.group("ts"))
            t.stat_ts = None
            # a wait whose wakeup the trace lacks ends at its stat, or
            # else at its switch-in
            nxt = tasks.get(int(f.get("next_pid", -1)))
            if nxt is not None and nxt.open_since is not None:
                close(nxt, nxt.stat_ts or ts_ns(m.group("ts")))
        elif ev in ("sched_stat_sleep", "sched_stat_blocked"):
            spid = int(f.get("pid", -1))
            delay = int(f.get("delay", "0").split()[0])
            t = tasks.get(spid)
            if t is None:
                continue
            # BRIEF rule 8: with its switch-out in the trace, a blocked
            # wait is exactly switch-out to wakeup; the kernel's delay
            # only stands for what the trace lacks
            if t.open_since is not None:
                t.stat_ts = t.stat_ts or ts_ns(m.group("ts"))
                continue
            if t.out_ts is not None:
                delay = min(delay, max(0, ts_ns(m.group("ts")) - t.out_ts))
            if ev == "sched_stat_sleep" and delay > USER_WAIT_NS:
                continue
            t.charged[t.sleep_reason or "(none)"] += delay
            t.waits[t.sleep_reason or "(none)"] += 1
        elif ev == "sched_wakeup":
            # BRIEF rule 1: switch-out to wakeup
            t = tasks.get(int(f.get("pid", -1)))
            if t is None or t.open_since is None:
                continue
            close(t, ts_ns(m.group("ts")))
    return counts, reasons, tasks, bad_restore, stack_lines


def check_attribution(tasks, only=None):
    by_comm = collections.defaultdict(collections.Counter)
    for t in tasks.values():
        by_comm[t.comm].update(t.charged)
    for comm, reason in EXPECT.items():
        if only is not None and comm not in only:
            continue
        charged = by_comm.get(comm)
        if not check(charged is not None and sum(charged.values()) > 0,
                     "%s blocked in the trace" % comm):
            continue
        total = sum(charged.values())
        top = charged.most_common(3)
        desc = ", ".join("%s %.1f ms" % (r, ns / 1e6) for r, ns in top)
        check(charged.get(reason, 0) * 2 >= total,
              "%s: \"%s\" carries >= 50%% of %.1f ms blocked (%s)"
              % (comm, reason, total / 1e6, desc))


def check_analyzer(analyzer, trace, only=None, tasks=None):
    p = subprocess.run([analyzer, "--format=json", trace],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    if not check(p.returncode == 0, "latency-analyze --format=json exits 0"):
        print(p.stderr.strip())
        return
    try:
        rep = json.loads(p.stdout)
    except ValueError as e:
        check(False, "latency-analyze prints JSON (%s)" % e)
        return
    check(re.fullmatch(r"latencytop-report/1(\.[0-9]+)?", str(rep.get("schema"))),
          "schema is latencytop-report/1")
    check(rep.get("trace", {}).get("events", 0) > 0, "trace.events > 0")
    rows = collections.defaultdict(collections.Counter)
    nrows = collections.defaultdict(collections.Counter)
    for proc in rep.get("processes", []):
        for r in proc.get("reasons", []):
            # Runqueue delay is a row of its own, not blocked time.
            if r.get("reason", "").startswith(RUNQUEUE_ROW):
                continue
            rows[proc.get("comm")][r.get("reason")] += r.get("total_ns", 0)
            nrows[proc.get("comm")][r.get("reason")] += r.get("count", 0)
    for comm, reason in EXPECT.items():
        if only is not None and comm not in only:
            continue
        got = rows.get(comm)
        if not check(got is not None, "analyzer reports process %s" % comm):
            continue
        total = sum(got.values())
        top = ", ".join("%s %.1f ms" % (r, ns / 1e6)
                        for r, ns in got.most_common(3))
        check(reason in got and got[reason] * 2 >= total,
              "analyzer: %s charged mostly to \"%s\" (%s)"
              % (comm, reason, top))
        if tasks is None:
            continue
        # Golden: the same figures as this script's own replay of the
        # trace-cmd report text (switch-out to wakeup, outermost reason).
        want_ns = sum(t.charged[reason] for t in tasks.values() if t.comm == comm)
        want_n = sum(t.waits[reason] for t in tasks.values() if t.comm == comm)
        got_ns, got_n = got.get(reason, 0), nrows[comm].get(reason, 0)
        check(want_n > 0 and abs(got_n - want_n) <= 0.03 * want_n,
              "analyzer: %s \"%s\" %d waits, independent replay %d (3%%)"
              % (comm, reason, got_n, want_n))
        check(want_ns > 0 and abs(got_ns - want_ns) <= 0.05 * want_ns,
              "analyzer: %s \"%s\" %.3f ms, independent replay %.3f ms (5%%)"
              % (comm, reason, got_ns / 1e6, want_ns / 1e6))


def check_plugin(plugin_dir, trace):
    env = dict(os.environ, TRACEEVENT_PLUGIN_DIR=plugin_dir)
    lines = report_lines(trace, env=env, plugins=True)
    sets = [ln for ln in lines if "latency_reason_set:" in ln]
    restores = [ln for ln in lines if "latency_reason_restore:" in ln]
    # The plugin's format: 'reason [argument] <max 5 ms> #cookie'.
    pat = re.compile(r"latency_reason_(set|restore):\s+\S.*#[0-9a-f]+\s*$")
    check(sets and all(pat.search(ln) for ln in sets + restores),
          "plugin_latencytop formats the events (%s)"
          % (sets[0].split(":", 2)[-1].strip() if sets else "none"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("trace")
    ap.add_argument("--analyzer", help="path of latency-analyze")
    ap.add_argument("--plugin-dir", help="directory of plugin_latencytop.so")
    ap.add_argument("--expect", help="comma separated workload comms to check "
                    "(default: all)")
    ap.add_argument("--golden", action="store_true",
                    help="also require the analyzer's counts (3%%) and totals "
                    "(5%%) of each workload task's reason to match this "
                    "script's own replay")
    args = ap.parse_args()
    only = set(args.expect.split(",")) if args.expect else None

    lines = report_lines(args.trace)
    counts, reasons, tasks, bad_restore, stack_lines = replay(lines)
    print("events: " + ", ".join("%s %d" % kv for kv in sorted(counts.items())))
    print("stack frames: %d" % stack_lines)
    print("reasons: " + "; ".join("%s x%d" % kv for kv in reasons.most_common()))

    for ev in ("latency_reason_set", "latency_reason_restore",
               "sched_stat_sleep", "sched_stat_blocked", "sched_switch",
               "sched_wakeup"):
        check(counts[ev] > 0, "%s events present" % ev)
    check(counts["kernel_stack"] > 0 and stack_lines > 0,
          "kernel stacks (-T) present")
    open_sets = sum(len(t.stack) for t in tasks.values())
    check(bad_restore <= max(10, counts["latency_reason_restore"] // 100),
          "restores pair with sets by cookie (%d of %d unmatched, %d sets "
          "still open at the end)" % (bad_restore,
                                      counts["latency_reason_restore"],
                                      open_sets))
    for comm, reason in EXPECT.items():
        if only is None or comm in only:
            check(reasons[reason] > 0, "reason \"%s\" seen" % reason)

    check_attribution(tasks, only)
    if args.analyzer:
        if os.access(args.analyzer, os.X_OK):
            check_analyzer(args.analyzer, args.trace, only,
                           tasks if args.golden else None)
        else:
            print("SKIPPED latency-analyze checks: %s not built" % args.analyzer)
    if args.plugin_dir:
        if os.path.exists(os.path.join(args.plugin_dir, "plugin_latencytop.so")):
            check_plugin(args.plugin_dir, args.trace)
        else:
            print("SKIPPED plugin check: no plugin_latencytop.so in %s"
                  % args.plugin_dir)

    if failures:
        print("%d check(s) failed" % len(failures))
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
