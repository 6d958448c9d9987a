#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Golden check: latency-analyze against an independent count of the same trace.

usage: check.py --analyzer PATH [--trace-cmd PATH] [--save-json FILE] TRACE.dat
       check.py --design-only [--trace-cmd PATH] TRACE.dat

TRACE.dat is a recording of lt-workload (workload.c, record-golden.sh).  The
check runs `ANALYZER --format=json TRACE.dat` (schema latencytop-report/1) and
independent.py (trace-cmd report text, no analyzer code) on the same file, then
requires, for each workload process (lt-sleep2, lt-piperd, lt-pipewr,
lt-fsync, lt-sleep20):

* the process is in the report, is not a kernel thread, and its charged
  blocked count (sum of its rows' count, minus the "Scheduler: waiting for cpu"
  row) is within 3% of the independent count, its charged total within 5%;
* its "Scheduler: waiting for cpu" row lies between the independent count of
  observed waits (wakeup to recorded switch-in) and that plus the waits whose
  switch-in was lost (see independent.py), with the same 3% / 5% margins;
* lt-sleep20's 20 ms sleeps are not charged (its charged total stays below one
  such sleep, as the independent count says) and the report's
  dropped.interruptible_over_cutoff counts at least the workload's waits over
  5 ms (20 of lt-sleep20, lt-main's wait for its children);
* the numbers match the workload's design (300 waits of ~2 ms for lt-sleep2,
  200 of ~3 ms for the pipe pair, >= 50 uninterruptible waits for the 50
  fsyncs), checked on the independent count (else the golden trace itself is
  bad) and on the report.

--design-only skips the analyzer and checks only the trace against the design
(record-golden.sh uses it to reject a bad recording).

Nothing passes vacuously: a missing process, a missing row, a zero count or a
design figure that does not hold is a failure.  Exit status: 0 pass, 1 fail,
2 usage/tool error, 77 skipped (trace-cmd not available).
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import independent  # noqa: E402

SCHEMA = 'latencytop-report/1'   # and its minor versions, 1.x
WAITCPU = 'Scheduler: waiting for cpu'
MS = 1_000_000
COUNT_TOL = 0.03
TOTAL_TOL = 0.05

# comm -> what the workload was built to do (checked on both counts).
#   blocked: (count, lowest avg ns, highest avg ns) of charged waits
WORKLOAD = {
    'lt-sleep2': {'blocked': (300, 2 * MS, 3 * MS)},
    'lt-piperd': {'blocked': (200, int(2.5 * MS), 5 * MS)},
    'lt-pipewr': {'blocked': (200, 3 * MS, 4 * MS)},
    'lt-fsync': {'min_D': 50},
    'lt-sleep20': {'dropped': 20},
}
OVER_CUTOFF_COMMS = ('lt-sleep20', 'lt-main')


class Checker:
    def __init__(self):
        self.failures = []
        self.passes = 0

    def ok(self, cond, what, detail):
        status = 'ok  ' if cond else 'FAIL'
        print(f'  {status} {what}: {detail}')
        if cond:
            self.passes += 1
        else:
            self.failures.append(f'{what}: {detail}')
        return cond

    def near(self, what, got, want, tol):
        """got within tol (relative) of want; want must be > 0."""
        if want <= 0:
            return self.ok(False, what, f'independent value is {want}, nothing to compare')
        diff = abs(got - want) / want
        return self.ok(diff <= tol, what,
                       f'got {got}, expected {want} +-{tol:.0%} (off by {diff:.2%})')

    def within(self, what, got, lo, hi, tol):
        """got in [lo*(1-tol), hi*(1+tol)]."""
        a, b = lo * (1 - tol), hi * (1 + tol)
        return self.ok(a <= got <= b, what,
                       f'got {got}, expected {lo}..{hi} +-{tol:.0%} ({a:.0f}..{b:.0f})')


def run_analyzer(analyzer, trace):
    cmd = [analyzer, '--format=json', trace]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise independent.Error(f'cannot run {" ".join(cmd)}: {e}') from e
    if p.returncode != 0:
        raise independent.Error(f'{" ".join(cmd)} exited with {p.returncode}: '
                                f'{p.stderr.strip()[:2000]}')
    try:
        return json.loads(p.stdout), p.stdout
    except json.JSONDecodeError as e:
        raise independent.Error(f'{" ".join(cmd)} printed invalid JSON: {e}') from e


ROW_KEYS = ('reason', 'argument', 'count', 'total_ns', 'max_ns', 'avg_ns', 'p50_ns',
            'p90_ns', 'p99_ns', 'max_at_ns')
TRACE_KEYS = ('path', 'cpus', 'start_ns', 'end_ns', 'events', 'lost_events', 'sources')
PROCESS_KEYS = ('pid', 'comm', 'kernel_thread', 'reasons', 'threads')


def bad_rows(rows):
    """Rows that lack a key of ROW_KEYS or have a non-integer number."""
    bad = []
    for r in rows if isinstance(rows, list) else [rows]:
        if not isinstance(r, dict) or any(k not in r for k in ROW_KEYS) or any(
                not isinstance(r[k], int) or isinstance(r[k], bool) for k in ROW_KEYS[2:]):
            bad.append(r)
    return bad


def check_schema(ck, rep):
    if not ck.ok(isinstance(rep, dict) and re.fullmatch(re.escape(SCHEMA) + r'(\.[0-9]+)?', str(rep.get('schema'))), 'report schema',
                 f'got {rep.get("schema") if isinstance(rep, dict) else type(rep).__name__!r}, '
                 f'expected {SCHEMA!r}'):
        return False
    ok = True
    for key, typ in (('trace', dict), ('global', list), ('processes', list), ('dropped', dict)):
        ok &= ck.ok(isinstance(rep.get(key), typ), f'report has {key}',
                    f'type {type(rep.get(key)).__name__}, expected {typ.__name__}')
    if not ok:
        return False
    missing = [k for k in TRACE_KEYS if k not in rep['trace']]
    ok &= ck.ok(not missing, 'trace keys', f'missing {missing}' if missing else 'all present')
    rows = list(rep['global'])
    for p in rep['processes']:
        if not isinstance(p, dict) or any(k not in p for k in PROCESS_KEYS):
            ok &= ck.ok(False, 'process keys', f'{str(p)[:200]} lacks one of {PROCESS_KEYS}')
            continue
        rows += p['reasons'] if isinstance(p['reasons'], list) else [p['reasons']]
        for t in p['threads'] if isinstance(p['threads'], list) else [p['threads']]:
            rows += t.get('reasons', []) if isinstance(t, dict) else [t]
    bad = bad_rows(rows)
    ok &= ck.ok(not bad, 'reason rows',
                f'{len(bad)} of {len(rows)} lack one of {ROW_KEYS} or have a non-integer '
                f'number, e.g. {str(bad[0])[:200]}' if bad else f'{len(rows)} rows well formed')
    return ok


def process_rows(rep, comm):
    """All processes of the report named COMM (reasons of all of them)."""
    procs = [p for p in rep['processes'] if p.get('comm') == comm]
    return procs, [r for p in procs for r in p.get('reasons', [])]


def sums(rows):
    blocked = [r for r in rows if r.get('reason') != WAITCPU]
    waitcpu = [r for r in rows if r.get('reason') == WAITCPU]
    return (sum(r['count'] for r in blocked), sum(r['total_ns'] for r in blocked),
            waitcpu)


def check_design(ck, who, comm, count, total, ind_row=None):
    """The workload's own figures (on the independent count when ind_row)."""
    d = WORKLOAD[comm]
    if 'blocked' in d:
        n, lo, hi = d['blocked']
        ck.within(f'{comm}: {who} charged waits vs design ({n})', count, n, n, COUNT_TOL)
        avg = total // count if count else 0
        ck.ok(lo <= avg <= hi, f'{comm}: {who} average wait vs design',
              f'got {avg / MS:.3f} ms, expected {lo / MS:.1f}..{hi / MS:.1f} ms')
    if 'min_D' in d:
        got = ind_row['count_D'] if ind_row else count
        what = 'uninterruptible waits' if ind_row else 'charged waits'
        ck.ok(got >= d['min_D'], f'{comm}: {who} {what} vs design (>= {d["min_D"]} fsyncs)',
              f'got {got}')
    if 'dropped' in d and ind_row:
        ck.ok(ind_row['dropped_over_5ms'] == d['dropped'],
              f'{comm}: {who} interruptible waits over 5 ms vs design',
              f'got {ind_row["dropped_over_5ms"]}, expected {d["dropped"]}')


def check(rep, ind):
    """Compare report REP (None: only check the trace against the design)."""
    ck = Checker()
    print('trace:')
    ck.ok(ind['lost_events'] == 0 and ind['buffer_losses'] == 0, 'golden trace lost no events',
          f'{ind["lost_events"]} drop markers, {ind["buffer_losses"]} buffer losses')
    present = []
    for comm in WORKLOAD:
        irow = ind['comms'].get(comm)
        if ck.ok(irow is not None, f'{comm}: in the trace',
                 f'pids {irow["pids"]}' if irow else
                 'the trace has no such task: re-record the golden trace'):
            present.append(comm)
            check_design(ck, 'independent', comm, irow['blocked_count'],
                         irow['blocked_total_ns'], irow)
    if rep is None or not check_schema(ck, rep):
        return ck
    ck.ok(rep['trace'].get('cpus') == ind['cpus'], 'trace.cpus',
          f'got {rep["trace"].get("cpus")}, expected {ind["cpus"]}')
    ck.ok(rep['trace'].get('lost_events') == ind['lost_events'], 'trace.lost_events',
          f'got {rep["trace"].get("lost_events")}, expected {ind["lost_events"]}')

    for comm in present:
        print(f'{comm}:')
        irow = ind['comms'][comm]
        procs, rows = process_rows(rep, comm)
        if not ck.ok(procs, f'{comm}: in the report',
                     f'{len(procs)} processes named {comm!r}'):
            continue
        ck.ok(not any(p.get('kernel_thread') for p in procs), f'{comm}: not a kernel thread',
              f'kernel_thread={[p.get("kernel_thread") for p in procs]}')
        ck.ok(sorted(p.get('pid') for p in procs) == irow['pids'], f'{comm}: pids',
              f'got {sorted(p.get("pid") for p in procs)}, expected {irow["pids"]}')
        count, total, wrows = sums(rows)
        if comm == 'lt-sleep20':
            # Its 20 ms sleeps must not be charged: the report charges what
            # the independent count charges (typically nothing), and never
            # as much as one 20 ms sleep more.
            ck.ok(count <= irow['blocked_count'] * (1 + COUNT_TOL), f'{comm}: charged count',
                  f'got {count}, independent {irow["blocked_count"]} (its 20 ms sleeps '
                  'must not be charged)')
            ck.ok(total <= irow['blocked_total_ns'] * (1 + TOTAL_TOL) and
                  total < irow['blocked_total_ns'] + 20 * MS, f'{comm}: charged total',
                  f'got {total} ns, independent {irow["blocked_total_ns"]} ns (its 20 ms '
                  'sleeps must not be charged)')
        else:
            ck.near(f'{comm}: charged count', count, irow['blocked_count'], COUNT_TOL)
            ck.near(f'{comm}: charged total_ns', total, irow['blocked_total_ns'], TOTAL_TOL)
            check_design(ck, 'report', comm, count, total)
        # BRIEF rule 3: waits over 5 ms are not charged, but their
        # process says it had them (issue 38, item 5)
        ucount = sum(p.get('user_requested', {}).get('count', 0) for p in procs)
        utotal = sum(p.get('user_requested', {}).get('total_ns', 0) for p in procs)
        if irow['dropped_over_5ms']:
            ck.near(f'{comm}: user-requested waits not charged', ucount,
                    irow['dropped_over_5ms'], COUNT_TOL)
            ck.near(f'{comm}: user-requested total_ns', utotal,
                    irow['dropped_total_ns'], TOTAL_TOL)
        else:
            ck.ok(ucount == 0 and utotal == 0, f'{comm}: no user-requested waits',
                  f'got {ucount} ({utotal} ns), independent none')
        if irow['waitcpu_count'] or irow['waitcpu_inferred_count']:
            ck.ok(len(wrows) >= 1, f'{comm}: has a {WAITCPU!r} row',
                  f'{len(wrows)} rows; independent count {irow["waitcpu_count"]}')
        wc = sum(r['count'] for r in wrows)
        wt = sum(r['total_ns'] for r in wrows)
        # Rule 6 is wakeup to running.  When the report disagrees, say how
        # much other run-queue time (after preemption, before a new task's
        # first run) the trace has, the likeliest explanation.
        # (By pid: a new task's first wait belongs to it, not to its comm
        # before the rename.)
        trow = {k: sum(ind['tasks'].get(str(p.get('pid')), {}).get(k, 0) for p in procs)
                for k in independent.ROW_KEYS}
        other = (f"; not rule 6 but run-queue time too: {trow['runq_preempted_count']} "
                 f"waits after preemption ({trow['runq_preempted_total_ns']} ns), "
                 f"{trow['runq_new_count']} before the first run after fork "
                 f"({trow['runq_new_total_ns']} ns)")
        if not ck.within(f'{comm}: waiting-for-cpu count', wc, irow['waitcpu_count'],
                         irow['waitcpu_count'] + irow['waitcpu_inferred_count'], COUNT_TOL):
            ck.failures[-1] += other
        if not ck.within(f'{comm}: waiting-for-cpu total_ns', wt, irow['waitcpu_total_ns'],
                         irow['waitcpu_total_ns'] + irow['waitcpu_inferred_total_ns'],
                         TOTAL_TOL):
            ck.failures[-1] += other

    print('dropped:')
    want = sum(ind['comms'].get(c, {}).get('dropped_over_5ms', 0) for c in OVER_CUTOFF_COMMS)
    every = sum(r['dropped_over_5ms'] for r in ind['comms'].values())
    got = rep['dropped'].get('interruptible_over_cutoff')
    ck.ok(isinstance(got, int) and got >= want > 0, 'dropped.interruptible_over_cutoff',
          f'got {got}, expected >= {want} (waits over 5 ms of {", ".join(OVER_CUTOFF_COMMS)}; '
          f'{every} in all tasks of the trace)')
    return ck


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('trace')
    ap.add_argument('--analyzer')
    ap.add_argument('--design-only', action='store_true',
                    help='no analyzer: only check the trace against the workload design')
    ap.add_argument('--trace-cmd', default='trace-cmd')
    ap.add_argument('--save-json', help='also write the analyzer JSON here')
    a = ap.parse_args()

    if not a.trace_cmd or not shutil.which(a.trace_cmd):
        print(f'SKIP: trace-cmd not found ({a.trace_cmd!r}): the independent count needs it')
        return 77
    if not os.path.isfile(a.trace):
        print(f'check.py: {a.trace}: no such file', file=sys.stderr)
        return 2
    if not a.analyzer and not a.design_only:
        ap.error('--analyzer PATH (or --design-only) is required')
    rep = None
    try:
        if not a.design_only:
            rep, text = run_analyzer(a.analyzer, a.trace)
            if a.save_json:
                with open(a.save_json, 'w') as f:
                    f.write(text)
        ind = independent.count(a.trace, a.trace_cmd)
    except independent.Error as e:
        print(f'check.py: {e}', file=sys.stderr)
        return 2
    print(f'{a.trace}: {a.analyzer or "design only"} vs independent.py '
          f'({ind["events"]["sched_switch"]} sched_switch, switch chain breaks per CPU '
          f'{ind["switch_chain_breaks"]})')
    ck = check(rep, ind)
    if ck.failures:
        print(f'\nFAILED {len(ck.failures)} of {len(ck.failures) + ck.passes} checks:')
        for f in ck.failures:
            print(f'  {f}')
        return 1
    print(f'\nPASSED all {ck.passes} checks')
    return 0


if __name__ == '__main__':
    sys.exit(main())
