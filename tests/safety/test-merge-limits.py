#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""test-merge-limits.py - what merge writes, merge, diff and the viewer read.

usage: test-merge-limits.py LATENCY_ANALYZE LATENCY_VIEW SAMPLE.dat [--hosts N]

Issue 49, item 7 (and issue 50, item 4: a fleet's merge stays readable):

- N reports of distinct hosts (SAMPLE's report, its host and trace id
  rewritten; 450 by default) merge into a report of over 12 million
  values, more than the reader took in one text before (such a merge
  exited 6 when read back); that report merges again into itself, byte for
  byte, diffs against that with no change, opens in the viewer, and is read
  in memory less than 4 times its size (the old reader took 8).  The
  merge of 1,000 is timed by tests/bench/merge-bench.
- 200 identical inputs: a few warning lines, not one per pair (19,900).
- A text whose report would take far more than its size to hold (10 MB of
  empty rows) is still refused: exit status 6, one line.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

FAILS = []


def check(what, ok, detail=''):
    if ok:
        print('ok   ' + what)
    else:
        FAILS.append(what)
        print('FAIL ' + what + (': ' + detail if detail else ''))


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, **kw)


def peak_kb(cmd):
    """The peak RSS of @cmd, by GNU time; None where it is not installed."""
    if not os.access('/usr/bin/time', os.X_OK):
        return None, run(cmd)
    p = run(['/usr/bin/time', '-f', 'PEAK %M'] + cmd)
    m = re.search(r'^PEAK (\d+)$', p.stderr, re.M)
    return (int(m.group(1)) if m else None), p


def hosts(report, n, tmp):
    """@n copies of @report, each of its own host and trace."""
    files = []
    for i in range(n):
        r = json.loads(report)
        r['trace']['id'] = '%016x' % (0x5afe0000 + i)
        u = r['trace']['uname'].split(' ')
        if len(u) > 1:
            u[1] = 'host-%04d' % i
        r['trace']['uname'] = ' '.join(u)
        f = os.path.join(tmp, 'h%04d.json' % i)
        with open(f, 'w') as fh:
            json.dump(r, fh, separators=(',', ':'))
        files.append(f)
    return files


# a JSON value as the reader counts them: a string that is no member's
# name, a number, a literal, an object or an array (reports are written
# compact: a name is followed by its colon at once, group 1)
VALUE = re.compile(rb'"(?:[^"\\]|\\.)*"(:?)|-?[0-9][0-9.eE+-]*|true|false|null|[\[{]')


def check_fleet(la, lv, report, n, tmp):
    files = hosts(report, n, tmp)
    fleet = os.path.join(tmp, 'fleet.json')
    p = run([la, 'merge', '-q', '-o', fleet] + files)
    check('%d hosts merge' % n, p.returncode == 0, p.stderr.strip())
    for f in files:
        os.unlink(f)
    if p.returncode:
        return
    size = os.path.getsize(fleet)
    with open(fleet, 'rb') as fh:
        values = sum(1 for m in VALUE.finditer(fh.read())
                     if not m.group(1))
    # the parser's cap on one text was 12 M values
    check('... into %.0f MB, %.1f M values, over 12 M'
          % (size / 1e6, values / 1e6), values > 12000000)

    again = os.path.join(tmp, 'again.json')
    kb, p = peak_kb([la, 'merge', '-q', '-o', again, fleet])
    check('the merge merges again (exit %d)' % p.returncode, p.returncode == 0,
          p.stderr.strip())
    if p.returncode == 0:
        with open(fleet, 'rb') as a, open(again, 'rb') as b:
            same = a.read() == b.read()
        check('... into itself, byte for byte', same)
    if kb is not None:
        check('... read in %.0f MB, under 4 times its %.0f MB'
              % (kb / 1e3, size / 1e6), kb * 1024 < 4 * size)
    p = run([la, 'diff', fleet, again])
    check('diff of the merge and its merge: exit %d' % p.returncode,
          p.returncode == 0, p.stderr.strip())
    p = run([lv, '--dump', fleet])
    first = p.stdout.split('\n')[0]
    check('the viewer opens it: %r' % first.strip(),
          p.returncode == 0 and 'merged, ' in first and
          ' in %d traces' % n in first, p.stderr.strip())
    os.unlink(again)
    os.unlink(fleet)


def check_identical(la, saved, tmp):
    p = run([la, 'merge', '-o', os.path.join(tmp, 'same.json')] + [saved] * 200)
    lines = p.stderr.splitlines()
    pairs = 200 * 199 // 2
    check('200 identical inputs merge: %d warning lines, not %d'
          % (len(lines), pairs),
          p.returncode == 0 and len(lines) == 4 and
          lines[3].endswith('warning: ... and %d more pairs of ranges of one '
                            'trace that overlap: their common waits are '
                            'counted twice too' % (pairs - 3)) and
          all('that overlap: the waits in both are counted twice' in l
              for l in lines[:3]), '\n'.join(lines[:6]))


def check_hostile(la, tmp):
    rows = 10 * 1000 * 1000 // 8
    f = os.path.join(tmp, 'rows.json')
    with open(f, 'w') as fh:
        fh.write('{"schema":"latencytop-report/1","trace":{},"processes":[],'
                 '"global":[' + '{     },' * (rows - 1) + '{     }]}')
    p = run([la, '-q', '-o', os.devnull, f])
    lines = p.stderr.splitlines()
    check('10 MB of empty rows: exit %d, %d line' % (p.returncode, len(lines)),
          p.returncode == 6 and len(lines) == 1 and
          'to hold: more than is read' in lines[0], p.stderr.strip())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('la')
    ap.add_argument('lv')
    ap.add_argument('sample')
    ap.add_argument('--hosts', type=int, default=450)
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix='lt-merge-limits.')
    try:
        p = run([a.la, '-q', '--format=json', a.sample])
        if p.returncode:
            print('FAIL %s: exit %d: %s' % (a.sample, p.returncode, p.stderr))
            return 1
        saved = os.path.join(tmp, 'sample.json')
        with open(saved, 'w') as f:
            f.write(p.stdout)
        check_identical(a.la, saved, tmp)
        check_hostile(a.la, tmp)
        check_fleet(a.la, a.lv, p.stdout, a.hosts, tmp)
    finally:
        shutil.rmtree(tmp)
    print('test-merge-limits: %s' % ('%d failures' % len(FAILS) if FAILS
                                     else 'all checks passed'))
    return 1 if FAILS else 0


if __name__ == '__main__':
    sys.exit(main())
