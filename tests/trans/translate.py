#!/usr/bin/env python3
"""translate.py -- reference model of the stack -> cause rule, for checking the table.

    trace-cmd report trace.dat | tests/trans/translate.py [-c COMM_REGEX] [-t TABLE]... [-s SKIP]

Reads `trace-cmd report` text of a trace recorded with sched_switch,
sched_wakeup and kernel stacks (-T / options/stacktrace).  For every
sched_switch whose prev_state is not R, it takes the kernel stack that
follows it on the same CPU, measures the sleep until the task's next
sched_wakeup, translates the stack and prints, per distinct stack, the cause,
the matched frame, the count and the blocked time.  It is a model of the rule
for checking the table's choices, not the analyzer.

The rule (as proposed for the analyzer):
  1. drop every frame up to and including the first __schedule (ftrace frames);
  2. strip compiler suffixes: a frame name is cut at its first '.';
  3. look every remaining frame up in the tables (later tables override
     earlier ones, per function); highest priority wins, ties go to the outer
     frame;
  4. no match: "[f]" where f is the innermost frame not in the skip list.
"""
import argparse
import collections
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))


def load_table(path, table):
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip('\n')
            if not line.strip() or line.startswith('#'):
                continue
            parts = [p for p in line.split('\t') if p != '']
            if len(parts) < 3 or not parts[0].strip().isdigit() or not parts[1].strip():
                # LatencyTOP 0.5's own table has one such line (a space where
                # the second tab belongs); LatencyTOP ignored it, so do we
                print(f'{path}:{n}: malformed line ignored: {line}', file=sys.stderr)
                continue
            table[parts[1].strip()] = (int(parts[0]), ' '.join(parts[2:]).strip())


def load_skip(path):
    out = set()
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith('#'):
                out.add(line)
    return out


def translate(frames, table, skip):
    """frames: innermost first, already cut below __schedule and stripped."""
    best, prio = None, -1
    for fn in frames:                        # inner -> outer: '>=' lets outer win ties
        e = table.get(fn)
        if e and e[0] >= prio:
            best, prio = (fn, e[1]), e[0]
    if best:
        return best
    for fn in frames:
        if fn not in skip:
            return (fn, '[%s]' % fn)
    return ('', '[unknown]')


def cut(raw):
    names = [f.split('.', 1)[0] for f in raw]
    if '__schedule' in names:
        names = names[names.index('__schedule') + 1:]
    return names


SW = re.compile(r'^\s*(.+?)-(\d+)\s+\[(\d+)\]\s+([\d.]+): sched_switch:\s+.*?:(\d+) \[-?\d+\] (\S+) ==>')
WK = re.compile(r'^\s*(.+?)-(\d+)\s+\[(\d+)\]\s+([\d.]+): sched_wakeup:\s+.*?:(\d+) \[-?\d+\]')
KS = re.compile(r'^\s*(.+?)-(\d+)\s+\[(\d+)\]\s+([\d.]+): kernel_stack:')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('-t', '--trans', action='append', help='table (repeatable; default plugins/latencytop.trans)')
    ap.add_argument('-s', '--skip', default=os.path.join(TOP, 'plugins/latencytop.skip'))
    ap.add_argument('-c', '--comm', help='only tasks whose comm matches this regex')
    ap.add_argument('-f', '--frames', action='store_true', help='print the stacks')
    ap.add_argument('report', nargs='?', default='-')
    a = ap.parse_args()
    table = {}
    for t in a.trans or [os.path.join(TOP, 'plugins/latencytop.trans')]:
        load_table(t, table)
    skip = load_skip(a.skip)
    comm_re = re.compile(a.comm) if a.comm else None
    src = sys.stdin if a.report == '-' else open(a.report)

    pending = {}        # cpu -> (comm, pid, state, ts) of a switch waiting for its stack
    asleep = {}         # pid -> (ts, key)
    stats = collections.OrderedDict()   # key -> [count, total_s, max_s]
    cur, frames = None, []

    def close_stack():
        nonlocal cur, frames
        if cur:
            comm, pid, state, ts = cur
            key = (comm, state[0], tuple(cut(frames)))
            stats.setdefault(key, [0, 0.0, 0.0])[0] += 1
            asleep[pid] = (ts, key)
        cur, frames = None, []

    for line in src:
        if line.startswith('=>'):
            if cur:
                frames.append(line.split()[1])
            continue
        close_stack()
        m = SW.match(line)
        if m:
            comm, pid, state = m.group(1), m.group(5), m.group(6)
            if state[0] not in 'RXZ' and (not comm_re or comm_re.search(comm)):
                pending[m.group(3)] = (comm, pid, state, float(m.group(4)))
            else:
                pending.pop(m.group(3), None)
            continue
        m = KS.match(line)
        if m:
            p = pending.pop(m.group(3), None)
            if p and p[1] == m.group(2):
                cur = p
            continue
        m = WK.match(line)
        if m:
            s = asleep.pop(m.group(5), None)
            if s:
                d = float(m.group(4)) - s[0]
                st = stats[s[1]]
                st[1] += d
                st[2] = max(st[2], d)
    close_stack()

    rows = collections.defaultdict(lambda: [0, 0.0, 0.0, set()])
    total = 0.0
    for (comm, state, fr), (n, t, mx) in stats.items():
        fn, cause = translate(list(fr), table, skip)
        r = rows[(cause, fn)]
        r[0] += n
        r[1] += t
        r[2] = max(r[2], mx)
        r[3].add(comm)
        total += t
        if a.frames:
            print(f'{n:6d}x {t * 1000:10.3f}ms {state} {comm:16s} {cause}  <- {fn}\n         ' + ' < '.join(fr))
    print(f'{"count":>7s} {"total ms":>10s} {"max ms":>9s}  cause  <- matched frame  [comms]')
    for (cause, fn), (n, t, mx, comms) in sorted(rows.items(), key=lambda kv: -kv[1][1]):
        print(f'{n:7d} {t * 1000:10.3f} {mx * 1000:9.3f}  {cause}  <- {fn}  [{",".join(sorted(comms))[:60]}]')
    unknown = sum(r[1] for (c, f), r in rows.items() if c.startswith('['))
    if total:
        print(f'blocked {total * 1000:.3f} ms, untranslated ("[f]") {unknown * 1000:.3f} ms = {100 * unknown / total:.1f}%')


if __name__ == '__main__':
    main()
