#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""test-conservation.py - issue 47's cases, and the checker on every file.

usage: test-conservation.py LATENCY_ANALYZE TOPDIR PART

PART is one of:

  traces  check-conservation.py on every trace.dat of the tree (samples/,
          tests/data/real/, tests/data/conservation/): every off-CPU
          interval trace-cmd report shows is in a row of --format=waits,
          none counted twice, none charged where a CPU's data is missing.
  perf    the same on every perf.data (tests/data/perf/, the stop
          recording), read by perf script.  A file with LOST records may
          charge waits across a loss: perf stamps a LOST record when the
          kernel could write again, so the analyzer hears of the gap only
          then (its count is printed, and must not grow past the known one).
  cases   the recordings of tests/data/conservation/ and files cut with
          head -c, their figures asserted: the stops of stop.dat and
          stop.data (10 by SIGSTOP, 5 by ptrace, ~30 ms each) in the
          header, each process's line, JSON, the waits export, and as
          causes with --charge-stopped; the buffer read from instance.dat
          and two-buffers.dat (and a v6 copy), and --buffer; a v6 copy of
          samples/local-golden.dat cut inside CPU 1's data, and
          tests/data/real/desktop-4cpu-sched_switch.dat cut inside CPU 1
          (CPUs 2 and 3 then missing), with --partial.

Exit 0 when all hold, 1 otherwise, 77 (skipped) without trace-cmd (or
perf, for PART perf).
"""

import csv
import glob
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKER = os.path.join(HERE, 'check-conservation.py')
FAILS = []
MS = 1_000_000

# perf.data files whose LOST records come after waits charged across them
# (see the docstring): charged rows the checker finds inside the gaps
KNOWN_HIDDEN = {'sched-lost-a-g.data': 16}


def fail(msg):
    FAILS.append(msg)
    print('FAIL ' + msg)


def ok(msg):
    print('ok   ' + msg)


def run(args, **kw):
    return subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, **kw)


def check(la, files, extra=(), buffer=None):
    """The checker's figures for @files, as a list of dicts."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, 'figures.json')
        args = [sys.executable, CHECKER, '--analyzer', la, '--report-only',
                '--json', out] + ['--arg=' + a for a in extra]
        if buffer is not None:
            args += ['--buffer', buffer]
        p = run(args + files)
        sys.stdout.write(p.stdout)
        if p.returncode:
            fail('check-conservation.py exit %d: %s' % (p.returncode,
                                                         p.stderr.strip()[-300:]))
            return []
        with open(out) as f:
            return json.load(f)


def conserved(res, hidden=0):
    name = os.path.basename(res['file'])
    if res['uncovered'] or res['twice_ns'] > 1000 or \
            res['charged_hidden'] != hidden:
        fail('%s: %d intervals uncovered (%d ns), %d ns counted twice, '
             '%d charged where data is missing (want %d)'
             % (name, res['uncovered'], res['uncovered_ns'], res['twice_ns'],
                res['charged_hidden'], hidden))
        return False
    return True


def part_traces(la, top):
    files = sorted(glob.glob(os.path.join(top, 'samples', '*.dat')) +
                   glob.glob(os.path.join(top, 'tests/data/real', '*.dat')) +
                   glob.glob(os.path.join(top, 'tests/data/conservation', '*.dat')))
    n = 0
    for res in check(la, files):
        n += conserved(res)
    if n == len(files):
        ok('%d trace.dat files: every off-CPU interval in a wait row' % n)
    else:
        fail('%d of %d trace.dat files conserve their off-CPU time' % (n, len(files)))


def part_perf(la, top):
    files = sorted(glob.glob(os.path.join(top, 'tests/data/perf', '*.data')) +
                   glob.glob(os.path.join(top, 'tests/data/conservation', '*.data')))
    n = 0
    for res in check(la, files):
        n += conserved(res, KNOWN_HIDDEN.get(os.path.basename(res['file']), 0))
    if n == len(files):
        ok('%d perf.data files: every off-CPU interval in a wait row' % n)
    else:
        fail('%d of %d perf.data files conserve their off-CPU time' % (n, len(files)))


def report(la, path, *opts):
    p = run([la, '-q', '--format=json'] + list(opts) + [path])
    if p.returncode not in (0, 5):
        fail('%s %s: exit %d: %s' % (os.path.basename(path), ' '.join(opts),
                                      p.returncode, p.stderr.strip()))
        return None
    return json.loads(p.stdout)


def text(la, path, *opts):
    return run([la] + list(opts) + [path]).stdout


def waits(la, path, *opts):
    p = run([la, '-q', '--format=waits'] + list(opts) + [path])
    return list(csv.DictReader(io.StringIO(p.stdout)))


def expect(what, got, want):
    if got != want:
        fail('%s: got %r, want %r' % (what, got, want))
        return False
    return True


def stops(la, path):
    """10 stops by SIGSTOP (two tasks, 5 each), 5 by ptrace, ~30 ms each."""
    name = os.path.basename(path)
    r = report(la, path)
    if r is None:
        return
    d = r['dropped']
    good = expect(name + ': stopped by a signal', d.get('stopped_by_signal'), 10)
    good &= expect(name + ': stopped for a tracer', d.get('stopped_for_tracer'), 5)
    good &= expect(name + ': stopped', d.get('stopped'), 15)
    # each held 30 ms by lt-stopload, a little more to stop and resume
    for key, n in (('stopped_by_signal_ns', 10), ('stopped_for_tracer_ns', 5)):
        if not n * 30 * MS <= d.get(key, 0) <= n * 40 * MS:
            fail('%s: %s = %s, not %d x 30..40 ms' % (name, key, d.get(key), n))
            good = False
    procs = {p['comm']: p for p in r['processes']}
    for comm, how, n in (('lt-stopped', 'signal', 5), ('lt-stopped2', 'signal', 5),
                         ('lt-traced', 'tracer', 5)):
        st = procs.get(comm, {}).get('stopped', {}).get(how, {})
        good &= expect('%s: %s stopped (%s)' % (name, comm, how), st.get('count'), n)
        if st.get('max_ns', 0) < 30 * MS:
            fail('%s: %s: longest stop %s ns, under 30 ms' % (name, comm, st.get('max_ns')))
            good = False
    # not charged by default: no row of kind stopped anywhere
    rows = [x for p in r['processes'] for x in p['reasons'] if x['kind'] == 'stopped']
    good &= expect(name + ': rows of kind stopped by default', rows, [])
    # the text says it: the header and each process's line
    t = text(la, path)
    if 'Stopped:  10 waits by a signal' not in t or '5 for a tracer' not in t:
        fail(name + ': no Stopped: line in the header saying 10 and 5')
        good = False
    if t.count('  stopped, not charged: 5 waits by a signal') != 2 or \
            t.count('  stopped, not charged: 5 waits for a tracer') != 1:
        fail(name + ": the stopped processes' 'not charged' lines are not there")
        good = False
    # the waits export: states T and t, dropped as stopped, kind stopped
    w = [x for x in waits(la, path) if x['dropped'] == 'stopped']
    by_state = {s: len([x for x in w if x['state'] == s]) for s in 'Tt'}
    good &= expect(name + ': waits T/t dropped as stopped', by_state, {'T': 10, 't': 5})
    good &= expect(name + ': their kind', sorted({x['kind'] for x in w}), ['stopped'])
    # --charge-stopped: causes of their own, the counters empty
    c = report(la, path, '--charge-stopped')
    if c:
        got = {}
        for p in c['processes']:
            for x in p['reasons']:
                if x['kind'] == 'stopped':
                    got[(p['comm'], x['reason'])] = x['count']
        good &= expect(name + ': --charge-stopped rows', got, {
            ('lt-stopped', 'Stopped by a signal'): 5,
            ('lt-stopped2', 'Stopped by a signal'): 5,
            ('lt-traced', 'Stopped by a tracer'): 5})
        good &= expect(name + ': --charge-stopped: dropped', c['dropped'].get('stopped'), 0)
        good &= expect(name + ': --charge-stopped: options', c['options'].get('charge_stopped'), True)
    if good:
        ok('%s: 10 stops by a signal, 5 for a tracer, in the header, processes, '
           'JSON, waits and --charge-stopped' % name)


def buffers(la, top, trace_cmd):
    d = os.path.join(top, 'tests/data/conservation')
    inst, two = os.path.join(d, 'instance.dat'), os.path.join(d, 'two-buffers.dat')
    good = True
    r = report(la, inst)
    if r:
        good &= expect('instance.dat: buffer', r['trace'].get('buffer'), 'lt-conserve')
        good &= expect('instance.dat: others', r['trace'].get('other_buffers'), None)
        good &= r['trace']['events'] > 1000
    r = report(la, two)
    if r:
        good &= expect('two-buffers.dat: buffer', r['trace'].get('buffer'), None)
        good &= expect('two-buffers.dat: others', r['trace'].get('other_buffers'), 'lt-conserve')
    if 'Buffer:   the top level; with scheduler events too: lt-conserve' not in text(la, two):
        fail('two-buffers.dat: the header does not name the other buffer')
        good = False
    r = report(la, two, '--buffer', 'lt-conserve')
    top = report(la, two, '--buffer', '')
    if r and top:
        good &= expect('two-buffers.dat --buffer lt-conserve', r['trace'].get('buffer'),
                       'lt-conserve')
        # the same workload, seen twice: different records, same stops
        good &= expect('two-buffers.dat: stops in either buffer',
                       (r['dropped'].get('stopped'), top['dropped'].get('stopped')),
                       (15, 15))
        good &= r['trace']['events'] != top['trace']['events']
    p = run([la, '--buffer', 'nope', two])
    good &= expect('--buffer nope: exit', p.returncode, 1)
    if 'no buffer \'nope\'' not in p.stderr or 'lt-conserve' not in p.stderr:
        fail('--buffer nope: %s' % p.stderr.strip())
        good = False
    for res in check(la, [two], buffer='lt-conserve'):
        good &= conserved(res)
    # v6 keeps an instance's CPU table apart, behind its own tag: the same
    with tempfile.TemporaryDirectory() as tmp:
        v6 = os.path.join(tmp, 'two-v6.dat')
        p = run([trace_cmd, 'convert', '--file-version', '6', '-i', two, '-o', v6])
        good &= expect('trace-cmd convert to v6', p.returncode, 0)
        for opts in ([], ['--buffer', 'lt-conserve']):
            a, b = report(la, two, *opts), report(la, v6, *opts)
            if a and b:
                good &= expect('two-buffers.dat %s: v6 as v7' % ' '.join(opts),
                               (b['trace'].get('buffer'), b['trace']['events'],
                                b['trace'].get('other_buffers')),
                               (a['trace'].get('buffer'), a['trace']['events'],
                                a['trace'].get('other_buffers')))
    if good:
        ok('instance buffers (v7 and v6): the one with scheduler events read, '
           'the top level first, --buffer chooses')


def flyrecord(trace_cmd, path):
    """(offset, size) of each CPU's data, from trace-cmd dump."""
    p = run([trace_cmd, 'dump', '--flyrecord', '-i', path])
    out = []
    for line in p.stdout.split('\n'):
        w = line.split()
        if len(w) >= 2 and '[offset, size of cpu' in line:
            out.append((int(w[0]), int(w[1])))
    return out


def cut(la, trace_cmd, src, tmp, name, v6=False):
    """@src cut half way into CPU 1's data: its path."""
    if v6:
        conv = os.path.join(tmp, name + '-v6.dat')
        p = run([trace_cmd, 'convert', '--file-version', '6', '-i', src, '-o', conv])
        if p.returncode:
            fail('trace-cmd convert: %s' % p.stderr.strip())
            return None, None
        src = conv
    cpus = flyrecord(trace_cmd, src)
    if len(cpus) < 2:
        fail('%s: no CPU 1 data to cut in' % src)
        return None, None
    off, size = cpus[1]
    out = os.path.join(tmp, name + '-cut.dat')
    with open(src, 'rb') as f, open(out, 'wb') as g:
        g.write(f.read(off + size // 2 + 100))
    return src, out


def cpu_max(r):
    rows = [x for x in r['global'] if x['kind'] == 'scheduler']
    return (rows[0]['max_ns'], rows[0]['count']) if rows else (0, 0)


def cuts(la, top, trace_cmd):
    good = True
    with tempfile.TemporaryDirectory() as tmp:
        whole, part = cut(la, trace_cmd, os.path.join(top, 'samples/local-golden.dat'),
                          tmp, 'golden', v6=True)
        if not part:
            return
        p = run([la, '-q', part])
        good &= expect('cut v6: without --partial, exit', p.returncode, 3)
        r, w = report(la, part, '--partial'), report(la, whole)
        if r and w:
            good &= expect('cut v6: partial', r['partial'], True)
            end = r['trace'].get('cpu_data_end_ns') or [0, 0]
            good &= expect('cut v6: CPUs whose data ends', [bool(x) for x in end],
                           [False, True])
            if not r['trace']['start_ns'] < end[1] < r['trace']['end_ns']:
                fail('cut v6: CPU 1 ends at %d, not inside %d..%d' % (
                    end[1], r['trace']['start_ns'], r['trace']['end_ns']))
                good = False
            # no wait for a CPU longer, nor more of them, than in the whole
            (m, n), (wm, wn) = cpu_max(r), cpu_max(w)
            if m > wm or n > wn:
                fail('cut v6: waiting for cpu %d ns max, %d waits: the whole '
                     'file has %d ns, %d waits' % (m, n, wm, wn))
                good = False
            t = text(la, part, '--partial')
            if "Lost:     CPU 1's data ends at" not in t:
                fail("cut v6: the Lost line does not say where CPU 1's data ends")
                good = False
        for res in check(la, [part], extra=['--partial']):
            good &= conserved(res)
        # threads or not, the same
        a = run([la, '-q', '--partial', '-j1', '--format=json', part]).stdout
        b = run([la, '-q', '--partial', '-j2', '--format=json', part]).stdout
        good &= expect('cut v6: -j1 and -j2 reports the same', a == b, True)

        _, part = cut(la, trace_cmd, os.path.join(
            top, 'tests/data/real/desktop-4cpu-sched_switch.dat'), tmp, 'desktop')
        r = report(la, part, '--partial')
        if r:
            end = r['trace'].get('cpu_data_end_ns') or [0] * 4
            start = r['trace']['start_ns']
            good &= expect('cut desktop: CPUs 2 and 3 missing, 1 ends early',
                           [0 if not x else 'start' if x == start else 'ends'
                            for x in end], [0, 'ends', 'start', 'start'])
            good &= expect('cut desktop: nothing charged', r['total_ns'], 0)
            t = text(la, part, '--partial')
            if "CPU 2's data is missing" not in t:
                fail('cut desktop: the Lost line does not say CPU 2 is missing')
                good = False
        for res in check(la, [part], extra=['--partial']):
            good &= conserved(res)
    if good:
        ok("files cut inside CPU 1's data: a gap from where it ends, said, "
           "nothing charged across it")


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    la, top, part = sys.argv[1:]
    trace_cmd = shutil.which('trace-cmd')
    if not trace_cmd:
        print('SKIPPED: trace-cmd is not installed')
        return 77
    if part == 'traces':
        part_traces(la, top)
    elif part == 'perf':
        if not shutil.which('perf'):
            print('SKIPPED: perf is not installed')
            return 77
        part_perf(la, top)
    elif part == 'cases':
        d = os.path.join(top, 'tests/data/conservation')
        stops(la, os.path.join(d, 'stop.dat'))
        stops(la, os.path.join(d, 'stop.data'))
        buffers(la, top, trace_cmd)
        cuts(la, top, trace_cmd)
    else:
        print(__doc__)
        return 2
    return 1 if FAILS else 0


if __name__ == '__main__':
    sys.exit(main())
