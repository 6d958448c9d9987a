#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""test-pprof.py - --format=pprof read back, and read by Google's pprof.

usage: test-pprof.py decode LATENCY_ANALYZE WORKDIR TRACE[=KALLSYMS]...
       test-pprof.py pprof  LATENCY_ANALYZE WORKDIR TRACE[=KALLSYMS]...

Each trace is analysed three times, as JSON, as pprof and as the waits
export (--format=waits), with the same options; then a saved JSON report
of the first trace, a merge of the first two, the first with -k, the
first with --no-chains, and a saved report whose process name is not
UTF-8 (the JSON reader takes raw bytes) go the same way.

decode: the profile is read by this file's own reader of the wire format
(gzip, then protobuf: https://protobuf.dev/programming-guides/encoding/,
fields as docs/pprof/profile.proto numbers them): string 0 is "", every
string UTF-8, sample types [waits/count, off_cpu/nanoseconds] with
off_cpu the default, every location and mapping a sample names exists,
addresses inside their mapping, the kernel's build-id where perf recorded
it; per cause, the samples' counts and times add up to the global
table's row exactly; per thread to the thread rows (per process for a
saved report); per stack (frames, leaf first, the user frames after the
kernel's) to the process rows' stacks, the time without a stack on one
frame "[cause]".  Wakers (issue 50): where the report is a trace's with
chains, every sample but a wait for a CPU's has a waker label ("comm
(tid)" with waker_tid, or the kind), and per thread and cause the
samples' waits and time by waker are the waits export's charged waits
by waker exactly; where a group sums some in "other wakers (past 8 per
stack)", its total is, and each waker it names has no more than the
export.  No waker label at all with --no-chains, from saved and merged
reports.

pprof: Google's own pprof, built from Debian's golang-github-google-pprof-dev
with Debian's Go (offline, GO111MODULE=off) into WORKDIR once:
`pprof -raw` gives the same samples, labels and stacks (the same sums per
cause, thread, stack and waker as the report and the waits export), and
`pprof -top -tagroot=cause -cum` the report's total and each cause's
total and count exactly; `pprof -tags` each waker's time and waits, and
`pprof -top -tagfocus=waker=...` (and waker_tid=...) the time of the
biggest wakers and of each kind, as the waits export has them.
Exit 77 (skipped, saying why) without go or the sources.
"""

import collections
import csv
import gzip
import json
import os
import re
import shutil
import subprocess
import sys

FAILS = []
CHECKS = [0]
PPROF_SRC = '/usr/share/gocode/src/github.com/google/pprof'


def fail(msg):
    FAILS.append(msg)
    print('FAIL ' + msg)


def check(cond, msg):
    CHECKS[0] += 1
    if not cond:
        fail(msg)
    return cond


def run(args, **kw):
    return subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          **kw)


# ---- the wire format ---------------------------------------------------

def varint(b, i):
    v = shift = 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7f) << shift
        shift += 7
        if not c & 0x80:
            return v, i
        if shift > 63:
            raise ValueError('varint longer than 10 bytes')


def fields(b):
    """(number, value) of a message: an int for a varint, bytes else"""
    i = 0
    while i < len(b):
        key, i = varint(b, i)
        num, wt = key >> 3, key & 7
        if wt == 0:
            v, i = varint(b, i)
        elif wt == 2:
            n, i = varint(b, i)
            v = b[i:i + n]
            if len(v) != n:
                raise ValueError('field %d: %d bytes, %d left' % (num, n, len(v)))
            i += n
        else:
            raise ValueError('field %d: wire type %d, never written' % (num, wt))
        yield num, v


def ints(v):
    """a repeated varint field's value: packed bytes, or one varint"""
    if isinstance(v, int):
        return [v]
    out, i = [], 0
    while i < len(v):
        x, i = varint(v, i)
        out.append(x)
    return out


def s64(v):
    return v - (1 << 64) if v >= 1 << 63 else v


def parse(path):
    with open(path, 'rb') as f:
        raw = f.read()
    check(raw[:2] == b'\x1f\x8b', '%s: not gzip' % path)
    data = gzip.decompress(raw)
    p = {'sample_type': [], 'samples': [], 'mappings': {}, 'locations': {},
         'functions': {}, 'strings': [], 'comments': [], 'default': 0,
         'duration': 0}
    for num, v in fields(data):
        if num == 1:
            d = dict(fields(v))
            p['sample_type'].append((d.get(1, 0), d.get(2, 0)))
        elif num == 2:
            s = {'locs': [], 'values': [], 'labels': []}
            for n2, v2 in fields(v):
                if n2 == 1:
                    s['locs'] += ints(v2)
                elif n2 == 2:
                    s['values'] += [s64(x) for x in ints(v2)]
                elif n2 == 3:
                    d = dict(fields(v2))
                    s['labels'].append((d.get(1, 0), d.get(2), d.get(3)))
            p['samples'].append(s)
        elif num == 3:
            d = dict(fields(v))
            check(d.get(1, 0) not in p['mappings'], 'mapping id %s twice' % d.get(1))
            p['mappings'][d.get(1, 0)] = d
        elif num == 4:
            d, lines = {}, []
            for n2, v2 in fields(v):
                if n2 == 4:
                    lines.append(dict(fields(v2)).get(1, 0))
                else:
                    d[n2] = v2
            d['lines'] = lines
            check(d.get(1, 0) not in p['locations'], 'location id %s twice' % d.get(1))
            p['locations'][d.get(1, 0)] = d
        elif num == 5:
            d = dict(fields(v))
            p['functions'][d.get(1, 0)] = d
        elif num == 6:
            p['strings'].append(v)
        elif num == 13:
            p['comments'].append(v)
        elif num == 14:
            p['default'] = v
        elif num == 10:
            p['duration'] = v
    strs = []
    for i, b in enumerate(p['strings']):
        try:
            strs.append(b.decode('utf-8'))
        except UnicodeDecodeError:
            fail('%s: string %d is not UTF-8: %r' % (path, i, b))
            strs.append(b.decode('utf-8', 'replace'))
    p['strings'] = strs
    return p


def decoded_samples(path, p):
    """the samples as (labels, frames, count, ns), checking the references"""
    st = p['strings']
    check(st and st[0] == '', '%s: string 0 is %r, not ""' % (path, st[:1]))

    def s(i):
        if not check(0 <= i < len(st), '%s: string %d of %d' % (path, i, len(st))):
            return ''
        return st[i]
    check([(s(a), s(b)) for a, b in p['sample_type']] ==
          [('waits', 'count'), ('off_cpu', 'nanoseconds')],
          '%s: sample types %s' % (path, p['sample_type']))
    check(s(p['default']) == 'off_cpu', '%s: default type %r' % (path, s(p['default'])))
    frames_of = {}
    for lid, loc in p['locations'].items():
        check(lid != 0, '%s: a location with id 0' % path)
        check(len(loc['lines']) == 1, '%s: location %d has %d lines' % (path, lid, len(loc['lines'])))
        fid = loc['lines'][0] if loc['lines'] else 0
        fn = p['functions'].get(fid)
        check(fn is not None, '%s: location %d: no function %d' % (path, lid, fid))
        name = s(fn.get(2, 0)) if fn else '?'
        m = loc.get(2, 0)
        if m:
            mp = p['mappings'].get(m)
            if check(mp is not None, '%s: location %d: no mapping %d' % (path, lid, m)):
                a = loc.get(3, 0)
                check(mp.get(2, 0) <= a < mp.get(3, 0),
                      '%s: location %d (%s) at %#x, outside mapping %d [%#x, %#x)'
                      % (path, lid, name, a, m, mp.get(2, 0), mp.get(3, 0)))
                check(mp.get(7) == 1, '%s: mapping %d without has_functions' % (path, m))
        frames_of[lid] = (name, m)
    out = []
    for smp in p['samples']:
        check(len(smp['values']) == 2, '%s: a sample with values %s' % (path, smp['values']))
        labels = {}
        for k, sv, nv in smp['labels']:
            labels[s(k)] = s(sv) if sv is not None else nv
        frames = []
        for lid in smp['locs']:
            if check(lid in frames_of, '%s: a sample names location %d, which is not there' % (path, lid)):
                frames.append(frames_of[lid][0])
        check(frames, '%s: a sample without locations' % path)
        out.append((labels, tuple(frames), smp['values'][0], smp['values'][1]))
    return out


# ---- what the report says ---------------------------------------------

def add(acc, key, count, ns):
    a = acc[key]
    a[0] += count
    a[1] += ns


def expected(r):
    """per cause, per task, per stack and per cgroup, from the JSON report"""
    cause, task, stack, cgroup = (collections.defaultdict(lambda: [0, 0])
                                  for _ in range(4))
    for x in r['global']:
        add(cause, (x['reason'], x['argument'], x['kind']), x['count'], x['total_ns'])
    kt = r['options']['kernel_threads']
    for p in r['processes']:
        if p['kernel_thread'] and not kt:
            continue
        for t in p.get('threads', []):
            for x in t['reasons']:
                add(task, ('thread', p['pid'], t['tid'], x['reason'], x['argument']),
                    x['count'], x['total_ns'])
        for x in p['reasons']:
            add(task, ('process', p['pid'], x['reason'], x['argument']),
                x['count'], x['total_ns'])
            if p.get('cgroup') is not None:
                add(cgroup, p['cgroup'], x['count'], x['total_ns'])
            c, ns = x['count'], x['total_ns']
            for st in x.get('stacks', []):
                # no frame at all (a reason path alone): the cause's
                fr = tuple(st['frames']) + tuple(st.get('user_frames', [])) \
                    or ('[%s]' % x['reason'],)
                add(stack, (p['pid'], x['reason'], x['argument'], fr),
                    st['count'], st['total_ns'])
                c -= st['count']
                ns -= st['total_ns']
            if c or ns:
                add(stack, (p['pid'], x['reason'], x['argument'],
                            ('[%s]' % x['reason'],)), c, ns)
    return cause, task, stack, cgroup


def got(samples):
    cause, task, stack, cgroup = (collections.defaultdict(lambda: [0, 0])
                                  for _ in range(4))
    for lb, frames, count, ns in samples:
        arg = lb.get('argument', '')
        add(cause, (lb.get('cause'), arg, lb.get('kind')), count, ns)
        if 'tid' in lb:
            add(task, ('thread', lb.get('pid'), lb.get('tid'), lb.get('cause'), arg), count, ns)
        add(task, ('process', lb.get('pid'), lb.get('cause'), arg), count, ns)
        add(stack, (lb.get('pid'), lb.get('cause'), arg, frames), count, ns)
        if 'cgroup' in lb:
            add(cgroup, lb['cgroup'], count, ns)
    return cause, task, stack, cgroup


def same(what, g, w):
    g, w = {k: tuple(v) for k, v in g.items()}, {k: tuple(v) for k, v in w.items()}
    bad = sorted((k for k in set(g) | set(w) if g.get(k) != w.get(k)), key=repr)
    if not check(not bad, '%s: %d differ, e.g. %r: profile %s, report %s'
                 % (what, len(bad), bad[0] if bad else None,
                    g.get(bad[0]) if bad else None, w.get(bad[0]) if bad else None)):
        return False
    return True


OTHER = 'other wakers (past 8 per stack)'
SCHED = 'scheduler'
FUTEX = 'Userspace lock/condition wait (futex)'
# the stories of tests/data/chains (its README): thread, cause, its waker
KNOWN = {'pipe.dat': ('cw-reader', 'Reading from a pipe', 'cw-writer'),
         'mutex.dat': ('cw-waiter', FUTEX, 'cw-holder'),
         'relay.dat': ('cw-relay-a', FUTEX, 'cw-relay-b'),
         'relay.perf.data': ('cw-relay-a', FUTEX, 'cw-relay-b')}


def waker_of(row):
    """a waits export row's waker as the waker label names it; None: none"""
    if row['waker_kind'] == 'task':
        return '%s (%s)' % (row['waker_comm'], row['waker_tid'])
    return row['waker_kind'] or None


def check_wakers(what, samples, case):
    """the waker labels against the waits export: each waker's [count,
    ns] as the profile should total it (-tags), or None"""
    n = len(FAILS)
    if not case.get('waits'):
        labelled = [lb for lb, _, _, _ in samples
                    if 'waker' in lb or 'waker_tid' in lb]
        check(not labelled, '%s: %d samples have a waker label, e.g. %r'
              % (what, len(labelled), labelled[:1]))
        return None
    got = collections.defaultdict(lambda: collections.defaultdict(lambda: [0, 0]))
    for lb, _, count, ns in samples:
        w = lb.get('waker')
        if not check(('waker' not in lb) == (lb.get('kind') == SCHED),
                     '%s: a sample of kind %r %s a waker label: %r'
                     % (what, lb.get('kind'), 'with' if w else 'without', lb)):
            continue
        m = re.match(r'^.* \((\d+)\)$', w or '')
        check(lb.get('waker_tid') == (int(m.group(1)) if m else None),
              '%s: waker %r with waker_tid %r' % (what, w, lb.get('waker_tid')))
        if check('tid' in lb, '%s: a sample without a thread: %r' % (what, lb)):
            add(got[(lb['tid'], lb.get('cause'), lb.get('argument', ''))],
                w, count, ns)
    want = collections.defaultdict(lambda: collections.defaultdict(lambda: [0, 0]))
    with open(case['waits'], newline='') as f:
        for row in csv.DictReader(f):
            if row['dropped'] or (row['kernel_thread'] == '1' and not case['k']):
                continue
            add(want[(int(row['tid']), row['reason'], row['argument'])],
                waker_of(row), 1, int(row['dur_ns']))
    check(set(got) == set(want), '%s: threads and causes %r in the profile, '
          '%r in the waits export' % (what, sorted(set(got) - set(want), key=repr)[:3],
                                      sorted(set(want) - set(got), key=repr)[:3]))
    totals = collections.defaultdict(lambda: [0, 0])
    exact = summed = 0
    for g in set(got) & set(want):
        gw, ww = got[g], want[g]
        if OTHER not in gw:
            exact += 1
            check(dict(gw) == dict(ww), '%s: %r by waker: profile %r, waits export %r'
                  % (what, g, dict(gw), dict(ww)))
            for w, (c, ns) in ww.items():
                add(totals, w, c, ns)
            continue
        summed += 1
        check([sum(v[0] for v in gw.values()), sum(v[1] for v in gw.values())] ==
              [sum(v[0] for v in ww.values()), sum(v[1] for v in ww.values())],
              '%s: %r: profile %r, waits export %r' % (what, g, dict(gw), dict(ww)))
        for w, (c, ns) in gw.items():
            if w != OTHER:
                check(w in ww and c <= ww[w][0] and ns <= ww[w][1],
                      '%s: %r: waker %r [%d, %d] in the profile, %r in the export'
                      % (what, g, w, c, ns, ww.get(w)))
            add(totals, w, c, ns)
    known = KNOWN.get(case['name'])
    if known:
        thread, cause, waker = known
        ws = collections.defaultdict(int)
        for lb, _, _, ns in samples:
            if lb.get('thread') == thread and lb.get('cause') == cause:
                ws[re.sub(r' \(\d+\)$', '', lb.get('waker', ''))] += ns
        check(list(ws) == [waker] and ws[waker] > 0,
              '%s: %s\'s waits for %r: by %r, not all by %s'
              % (what, thread, cause, dict(ws), waker))
    if len(FAILS) == n:
        print('ok   %s: wakers of %d threads\' causes as the waits export, %d '
              'with "other"%s' % (what, exact + summed, summed,
                                  '; %s woken by %s' % (known[0], known[2])
                                  if known else ''))
    return {w: v for w, v in totals.items() if w is not None}


def compare(what, samples, r, saved):
    """True if the samples add up to @r per cause, process, thread, stack"""
    n = len(FAILS)
    # a process's samples are per thread, or (where only the process
    # has the stacks: saved and merged reports) all per process
    tids, no_tid = set(), set()
    for lb, _, _, _ in samples:
        (tids if 'tid' in lb else no_tid).add(lb.get('pid'))
    check(not tids & no_tid, '%s: processes %s have samples with and without '
          'threads' % (what, sorted(tids & no_tid)[:5]))
    check(saved or not no_tid, '%s: processes %s have samples without threads'
          % (what, sorted(no_tid)[:5]))
    wc, wt, ws, wg = expected(r)
    wt = {k: v for k, v in wt.items() if k[0] == 'process' or k[1] in tids}
    gc, gt, gs, gg = got(samples)
    same(what + ': per cause', gc, wc)
    same(what + ': per process and thread', gt, wt)
    same(what + ': per stack', gs, ws)
    # the cgroup label: each process's, where the trace names it
    same(what + ': per cgroup', gg, wg)
    return (len(FAILS) == n, sum(v[1] for v in wc.values()),
            sum(v[0] for v in wc.values()), len(wc))


# ---- the cases -----------------------------------------------------------

def make_cases(la, work, specs):
    """dicts: name, pb (the profile), report (JSON), saved (stacks per
    process), k, waits (the waits export, where wakers are expected)"""
    cases = []

    def analyse(name, inputs, opts, sub=None, waits=False):
        j = os.path.join(work, name + '.json')
        pb = os.path.join(work, name + '.pb.gz')
        wt = os.path.join(work, name + '.waits.csv')
        head = [la] + ([sub] if sub else []) + ['-q']
        ps = [run(head + ['--format=json', '-o', j] + opts + inputs),
              run(head + ['--format=pprof', '-o', pb] + opts + inputs)]
        if waits:
            ps.append(run(head + ['--format=waits', '-o', wt] + opts + inputs))
        if any(p.returncode for p in ps):
            fail('%s: exit %s: %s' % (name, [p.returncode for p in ps],
                                       ''.join(p.stderr.decode() for p in ps)))
            return None
        with open(j) as f:
            return {'json': j, 'pb': pb, 'report': json.load(f),
                    'waits': wt if waits else None, 'k': '-k' in opts}

    def case(name, a, saved):
        cases.append(dict(a, name=name, saved=saved))

    first = []
    for spec in specs:
        trace, _, ks = spec.partition('=')
        opts = ['--kallsyms', ks] if ks else []
        name = os.path.basename(trace)
        a = analyse(name, [trace], opts, waits=True)
        if a:
            case(name, a, False)
            first.append((trace, opts, a['json']))
    if len(first) < 2:
        return cases
    (t0, o0, j0), (t1, o1, j1) = first[0], first[1]
    b0 = os.path.basename(t0)
    # saved: a report read back, whose stacks are per process
    a = analyse(b0 + '.saved', [j0], [])
    if a:
        case(b0 + ' (saved)', a, True)
    # merged: two traces' reports as one (JSON reports: their stacks
    # per process, as a merge keeps them)
    a = analyse('merged', [j0, j1], [], 'merge')
    if a:
        case('merge of %s and %s' % (b0, os.path.basename(t1)), a, True)
    # -k: kernel threads' waits too
    a = analyse(b0 + '.k', [t0], o0 + ['-k'], waits=True)
    if a:
        case(b0 + ' -k', a, False)
    # --no-chains: no wakers
    a = analyse(b0 + '.nc', [t0], o0 + ['--no-chains'])
    if a:
        case(b0 + ' --no-chains', a, False)
    # a process name that is not UTF-8, in a saved report
    with open(j0, 'rb') as f:
        text = f.read()
    # a process's own: the rows' waited_for trees above name wakers too
    m = re.compile(rb'"comm":"([a-z]+)"').search(text, text.find(b'"processes"'))
    if check(m is not None, '%s: no process name to spoil' % j0):
        bad = os.path.join(work, 'spoilt.json')
        with open(bad, 'wb') as f:
            f.write(text[:m.start()] + b'"comm":"' + m.group(1) + b'\xff"' +
                    text[m.end():])
        a = analyse('not-utf8', [bad], [])
        if a:
            case('a saved report naming a process "%s\\xff"' % m.group(1).decode(),
                 a, True)
            cases[-1]['comm'] = m.group(1).decode() + '\u00ff'
    return cases


def check_decoded(cases, kernel_ids):
    for case in cases:
        name, pb, r, saved = case['name'], case['pb'], case['report'], case['saved']
        n = len(FAILS)
        p = parse(pb)
        samples = decoded_samples(name, p)
        _, total, count, causes = compare(name, samples, r, saved)
        check_wakers(name, samples, case)
        if 'comm' in case:
            procs = {lb.get('process') for lb, _, _, _ in samples}
            check(case['comm'] in procs, '%s: process %r not among %s'
                        % (name, case['comm'], sorted(procs)[:5]))
        want = kernel_ids.get(name)
        if want:
            kern = [m for m in p['mappings'].values()
                    if p['strings'][m.get(5, 0)] == '[kernel.kallsyms]']
            check(kern and p['strings'][kern[0].get(6, 0)] == want,
                        '%s: the kernel mapping\'s build-id is not %s' % (name, want))
        if len(FAILS) == n:
            print('ok   %s: %d samples, %d causes: %d waits, %d ns, as the report'
                  % (name, len(samples), causes, count, total))
        if case is cases[0]:
            show(samples)


def show(samples):
    """a case's figures per cause, as compared"""
    gc = got(samples)[0]
    for (reason, arg, kind), (c, ns) in sorted(gc.items(), key=lambda kv: -kv[1][1]):
        print('       %-50s %6d waits %13d ns' % (reason + (' (%s)' % arg if arg else ''), c, ns))


# ---- Google's pprof ----------------------------------------------------

def build_pprof(work):
    exe = os.path.join(work, 'pprof')
    if os.path.exists(exe):
        return exe
    if not shutil.which('go'):
        print('SKIP: no go (apt-get install golang-go)')
        sys.exit(77)
    if not os.path.isdir(PPROF_SRC):
        print('SKIP: no pprof sources in %s (apt-get install '
              'golang-github-google-pprof-dev)' % PPROF_SRC)
        sys.exit(77)
    env = dict(os.environ, GO111MODULE='off', GOPATH='/usr/share/gocode',
               GOCACHE=os.path.join(work, 'go-cache'), GOFLAGS='',
               CGO_ENABLED='0', HOME=work)
    p = run(['go', 'build', '-o', exe + '.tmp', 'github.com/google/pprof'], env=env)
    if p.returncode:
        fail('go build github.com/google/pprof: %s' % p.stderr.decode()[-2000:])
        return None
    os.rename(exe + '.tmp', exe)
    return exe


SAMPLE_RE = re.compile(r'^\s+(-?\d+)\s+(-?\d+): ([\d ]*)$')
LOC_RE = re.compile(r'^\s*(\d+): 0x[0-9a-f]+ (?:M=\d+ )?(?:\[F\] )?(.*) :0 s=0$')
# (pprof sorts the keys; a cause ends before a cgroup path, if any)
STR_LABELS_RE = re.compile(r'^(?:argument:\[(.*)\] )?cause:\[(.*?)\] (?:cgroup:\[(/.*)\] )?kind:\[(.*?)\] '
                           r'process:\[(.*?)\](?: thread:\[(.*?)\])?(?: trace:\[(.*?)\])?'
                           r'(?: waker:\[(.*)\])?$')
NUM_LABELS_RE = re.compile(r'^pid:\[(-?\d+)\](?: tid:\[(-?\d+)\])?(?: waker_tid:\[(-?\d+)\])?$')


def pprof_raw(exe, pb, env):
    """pprof -raw's samples as decoded_samples() gives them"""
    p = run([exe, '-raw', '-symbolize=none', pb], env=env)
    if not check(p.returncode == 0, '%s: pprof -raw: %s' % (pb, p.stderr.decode())):
        return []
    lines = p.stdout.decode('utf-8').split('\n')
    i = lines.index('Samples:') + 2
    raw = []
    while lines[i] != 'Locations':
        m = SAMPLE_RE.match(lines[i])
        if not check(m is not None, '%s: pprof -raw line %r' % (pb, lines[i])):
            return []
        lb = {}
        i += 1
        while lines[i].startswith(' ' * 16):
            t = lines[i].strip()
            ms, mn = STR_LABELS_RE.match(t), NUM_LABELS_RE.match(t)
            if ms:
                for k, v in zip(('argument', 'cause', 'cgroup', 'kind', 'process',
                                 'thread', 'trace', 'waker'),
                                ms.groups()):
                    if v is not None:
                        lb[k] = v
            elif mn:
                lb['pid'] = int(mn.group(1))
                if mn.group(2) is not None:
                    lb['tid'] = int(mn.group(2))
                if mn.group(3) is not None:
                    lb['waker_tid'] = int(mn.group(3))
            else:
                fail('%s: pprof -raw labels %r' % (pb, t))
            i += 1
        raw.append((lb, [int(x) for x in m.group(3).split()],
                    int(m.group(1)), int(m.group(2))))
    names = {}
    i += 1
    while lines[i] != 'Mappings':
        m = LOC_RE.match(lines[i])
        if check(m is not None, '%s: pprof -raw location %r' % (pb, lines[i])):
            names[int(m.group(1))] = m.group(2)
        i += 1
    return [(lb, tuple(names.get(x, '?') for x in locs), c, ns)
            for lb, locs, c, ns in raw]


TOP_RE = re.compile(r'^\s*(\S+)\s+\S+\s+\S+\s+(\S+)\s+\S+\s+(.*)$')


def pprof_top(exe, pb, env, index, more=()):
    """the total shown (of the samples a -tagfocus in @more keeps) and
    each cause's cum, from pprof -top"""
    args = [exe, '-top', '-symbolize=none', '-tagroot=cause', '-cum',
            '-nodecount=1000000', '-nodefraction=0', '-edgefraction=0',
            '-sample_index=' + index] + list(more)
    if index == 'off_cpu':
        args.append('-unit=ns')
    p = run(args + [pb], env=env)
    if not check(p.returncode == 0, '%s: pprof -top: %s' % (pb, p.stderr.decode())):
        return None, {}
    out = p.stdout.decode('utf-8').split('\n')
    total, rows, body = None, {}, False

    def num(v):
        return int(v[:-2]) if v.endswith('ns') else int(v)
    for line in out:
        m = re.match(r'^Showing nodes accounting for (\S+), [\d.]+% of (\S+) total', line)
        if m:
            total = num(m.group(2 if not more else 1))
        if line.split() == ['flat', 'flat%', 'sum%', 'cum', 'cum%']:
            body = True
            continue
        m = TOP_RE.match(line) if body else None
        if m:
            rows[m.group(3)] = num(m.group(2))
    return total, rows


def pprof_tags(exe, pb, env, index):
    """pprof -tags's values of the waker label: {value: amount}"""
    p = run([exe, '-tags', '-unit=ns' if index == 'off_cpu' else '-unit=minimum',
             '-sample_index=' + index, pb], env=env)
    if not check(p.returncode == 0, '%s: pprof -tags: %s' % (pb, p.stderr.decode())):
        return {}
    out, key = {}, None
    for line in p.stdout.decode('utf-8').split('\n'):
        m = re.match(r'^ (\S+): Total', line)
        if m:
            key = m.group(1)
            continue
        m = re.match(r'^\s+([\d.]+)(?:ns)? \(\s*[\d.]+%\): (.*)$', line)
        if m and key == 'waker':
            out[m.group(2)] = int(float(m.group(1)))
    return out


def go_regexp(s):
    """@s matched whole by a Go regexp"""
    return '^' + re.sub(r'([\\.+*?()|\[\]{}^$])', r'\\\1', s) + '$'


def check_tags(exe, pb, env, name, wakers):
    """pprof -tags and -tagfocus against each waker's [count, ns]"""
    n = len(FAILS)
    for index, col in (('off_cpu', 1), ('waits', 0)):
        tags = pprof_tags(exe, pb, env, index)
        want = {w: v[col] for w, v in wakers.items() if v[col]}
        bad = sorted(w for w in set(tags) | set(want) if tags.get(w) != want.get(w))
        check(not bad, '%s: pprof -tags -sample_index=%s: %d wakers differ, e.g. %r: '
              'pprof %s, waits export %s' % (name, index, len(bad), bad[:1],
                                             tags.get(bad[0]) if bad else None,
                                             want.get(bad[0]) if bad else None))
    # -tagfocus: the three biggest task wakers, each other kind
    tasks = sorted((w for w in wakers if w.endswith(')') and w != OTHER and ',' not in w),
                   key=lambda w: -wakers[w][1])[:3]
    focus = [('waker=' + go_regexp(w), wakers[w][1]) for w in
             tasks + sorted(w for w in wakers if not w.endswith(')') or w == OTHER)]
    for w in tasks[:1]:
        tid = re.match(r'^.* \((\d+)\)$', w).group(1)
        focus.append(('waker_tid=' + tid, sum(v[1] for k, v in wakers.items()
                                             if k.endswith(' (%s)' % tid))))
    for f, ns in focus:
        t, _ = pprof_top(exe, pb, env, 'off_cpu', ['-tagfocus=' + f])
        check(t == ns, '%s: pprof -top -tagfocus=%s: %s ns, waits export %d'
              % (name, f, t, ns))
    if len(FAILS) == n:
        print('ok   %s: pprof -tags: %d wakers, -tagfocus on %d: as the waits export'
              % (name, len(wakers), len(focus)))


def check_pprof(cases, work):
    exe = build_pprof(work)
    if not exe:
        return
    env = dict(os.environ, HOME=work, PPROF_TMPDIR=work)
    for case in cases:
        name, pb, r, saved = case['name'], case['pb'], case['report'], case['saved']
        n = len(FAILS)
        samples = pprof_raw(exe, pb, env)
        _, total, count, causes = compare(name + ' (pprof -raw)', samples, r, saved)
        wakers = check_wakers(name + ' (pprof -raw)', samples, case)
        if wakers is not None:
            check_tags(exe, pb, env, name, wakers)
        # -top: the pseudo-frame of each cause (-tagroot) holds its total
        by_reason = collections.defaultdict(lambda: [0, 0])
        for x in r['global']:
            add(by_reason, x['reason'], x['count'], x['total_ns'])
        for index, col in (('off_cpu', 1), ('waits', 0)):
            t, rows = pprof_top(exe, pb, env, index)
            want = sum(v[col] for v in by_reason.values())
            check(t == want, '%s: pprof -top -sample_index=%s: total %s, report %d'
                        % (name, index, t, want))
            for reason, v in by_reason.items():
                check(rows.get(reason) == v[col],
                            '%s: pprof -top -sample_index=%s: %r %s, report %d'
                            % (name, index, reason, rows.get(reason), v[col]))
        if case is cases[0]:
            show(samples)
        if len(FAILS) == n:
            print('ok   %s: pprof -raw: %d samples, -top: %d causes: %d waits, %d ns, '
                  'as the report' % (name, len(samples), len(by_reason), count, total))


def main():
    if len(sys.argv) < 5 or sys.argv[1] not in ('decode', 'pprof'):
        sys.exit(__doc__)
    mode, la, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    if mode == 'pprof':
        build_pprof(work)	# skips before anything is analysed
    os.makedirs(os.path.join(work, 'cases'), exist_ok=True)
    cases = make_cases(la, os.path.join(work, 'cases'), sys.argv[4:])
    # what `perf buildid-list` says of the committed recordings' kernels
    kernel_ids = {'sched-a-g.data': 'fa36776b59bf96ada9b36526d3ba1705c7a98183',
                  'sched-cgroups-a-g.data': '32a7f3bacee6bf69da94f497a8a076483baea20e'}
    if mode == 'decode':
        check_decoded(cases, kernel_ids)
    else:
        check_pprof(cases, work)
    check(len(cases) >= 6, 'only %d cases' % len(cases))
    if FAILS:
        print('test-pprof %s: %d of %d checks failed' % (mode, len(FAILS), CHECKS[0]))
        sys.exit(1)
    print('test-pprof %s: %d cases, %d checks passed' % (mode, len(cases), CHECKS[0]))


if __name__ == '__main__':
    main()
