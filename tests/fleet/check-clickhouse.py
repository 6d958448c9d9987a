#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""check-clickhouse.py - the fleet in ClickHouse against latency-analyze merge.

usage: check-clickhouse.py LATENCY_ANALYZE QUERIES_DIR WORKDIR LOADED PORT...

Run by test-clickhouse.sh once it has loaded the traces LOADED lists
(lines "host<TAB>day<TAB>trace<TAB>latency-analyze options") into the
cluster of the servers on 127.0.0.1:PORT..., a shard each.  Each trace's
JSON report is made with the options it was loaded with; then:

- every shard holds hosts, and a host's waits are all on one shard;
- per cause, fleet-wide, count, sum and max of the charged waits from the
  Distributed table are the global rows of `latency-analyze merge` of all
  the reports, exactly; per host and cause, those of the merge of the
  host's reports;
- the shipped queries (QUERIES_DIR/*.sql), run as they are:
  top-causes-per-host.sql gives each host's first five causes of its
  merge, causes-per-kernel.sql each release's merge (and how many hosts
  have each cause), regressions.sql the causes whose charged time grew
  from the merge of the first day's reports to the second's, and
  cause-quantiles.sql each cause's count and max exactly and p50, p90,
  p99 in the bucket of the merge's histogram the report's own are in
  (lt-hist.h: 16 buckets per power of two; the last rank is the max);
- every stack a wait names is in the stacks table.
"""

import collections
import json
import os
import subprocess
import sys

FAILS = []
CHECKS = [0]


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
                          universal_newlines=True, **kw)


class Cluster:
    def __init__(self, ports):
        self.ports = ports

    def query(self, sql, port=None):
        """rows of @sql (a query or a file's text) as dicts"""
        p = run(['clickhouse-client', '--host', '127.0.0.1', '--port',
                 str(port or self.ports[0]), '--multiquery',
                 '--format=JSONEachRow',
                 '--output_format_json_quote_64bit_integers=0'], input=sql)
        if not check(p.returncode == 0, 'clickhouse-client: %s: %s'
                     % (sql.strip().split('\n')[-1][:60], p.stderr.strip())):
            return []
        return [json.loads(line) for line in p.stdout.splitlines() if line]


# ---- the histogram's buckets (analyzer/lib/util/hist.c) -----------------

SUB_BITS = 4


def bucket(v):
    if v < 1 << SUB_BITS:
        return v
    e = v.bit_length() - 1
    return (e - SUB_BITS + 1) * (1 << SUB_BITS) + ((v >> (e - SUB_BITS)) - (1 << SUB_BITS))


def rank(total, q):
    """the nearest rank of @q among @total values (lt_hist_rank())"""
    r = int(q * total)
    if r < q * total:
        r += 1
    return max(r, 1)


# ---- reports ------------------------------------------------------------

def cause_rows(report):
    """the global table by (reason, argument): [count, total, max, kinds]"""
    out = {}
    for x in report['global']:
        k = (x['reason'], x['argument'])
        a = out.setdefault(k, [0, 0, 0, []])
        a[0] += x['count']
        a[1] += x['total_ns']
        a[2] = max(a[2], x['max_ns'])
        a[3].append(x)
    return out


class Fleet:
    def __init__(self, la, work, loaded):
        self.la, self.work = la, work
        self.loads = []         # (host, day, trace, json, report)
        with open(loaded) as f:
            for i, line in enumerate(f):
                host, day, trace, opts = line.rstrip('\n').split('\t')
                j = os.path.join(work, 'report-%d.json' % i)
                p = run([la, '-q', '--format=json', '-o', j] + opts.split() + [trace])
                if not check(p.returncode == 0, '%s: %s' % (trace, p.stderr)):
                    continue
                with open(j) as g:
                    r = json.load(g)
                self.loads.append((host, day, trace, j, r))

    def merge(self, name, pick):
        js = [j for host, day, trace, j, r in self.loads if pick(host, day, r)]
        out = os.path.join(self.work, 'merge-%s.json' % name)
        p = run([self.la, 'merge', '-q', '-o', out] + js)
        if not check(p.returncode == 0, 'merge %s: %s' % (name, p.stderr)):
            return {'global': [], 'processes': []}
        with open(out) as f:
            return json.load(f)


def kernel_of(report):
    w = report['trace']['uname'].split()
    return w[2] if len(w) > 2 else ''


def same(what, got, want):
    bad = sorted((k for k in set(got) | set(want) if got.get(k) != want.get(k)), key=repr)
    check(not bad, '%s: %d differ, e.g. %r: clickhouse %s, merge %s'
          % (what, len(bad), bad[0] if bad else None,
             got.get(bad[0]) if bad else None, want.get(bad[0]) if bad else None))
    return not bad


def charged(rows, by):
    return {tuple(r[k] for k in by): (r['waits'], r['total_ns'], r['max_ns'])
            for r in rows}


def main():
    if len(sys.argv) < 6:
        sys.exit(__doc__)
    la, qdir, work, loaded = sys.argv[1:5]
    ch = Cluster([int(p) for p in sys.argv[5:]])
    fleet = Fleet(la, work, loaded)
    hosts = sorted({h for h, _, _, _, _ in fleet.loads})
    days = sorted({d for _, d, _, _, _ in fleet.loads})

    def sql(name):
        with open(os.path.join(qdir, name)) as f:
            return f.read()

    # the shards: each has hosts; a host is on one
    where = collections.defaultdict(set)
    for i, port in enumerate(ch.ports):
        rows = ch.query('SELECT host, count() AS n FROM latencytop.waits_local '
                        'GROUP BY host ORDER BY host', port)
        check(rows, 'shard %d (port %d) holds no waits' % (i + 1, port))
        for r in rows:
            where[r['host']].add(i + 1)
        print('shard %d: %s' % (i + 1, ', '.join('%s %d rows' % (r['host'], r['n'])
                                                  for r in rows)))
    for h in hosts:
        check(len(where[h]) == 1, 'host %s on shards %s' % (h, sorted(where[h])))

    # per cause, the fleet: the Distributed table against the merge of all
    everything = fleet.merge('all', lambda h, d, r: True)
    want_all = cause_rows(everything)
    rows = ch.query('SELECT reason, argument, count() AS waits, sum(dur_ns) AS '
                    'total_ns, max(dur_ns) AS max_ns FROM latencytop.waits WHERE '
                    'dropped IS NULL AND kernel_thread = 0 GROUP BY reason, argument')
    got = charged(rows, ('reason', 'argument'))
    if same('per cause, all hosts', got, {k: tuple(v[:3]) for k, v in want_all.items()}):
        print('ok   per cause, %d hosts, %d traces: %d causes, count, sum and max '
              'as merge\'s:' % (len(hosts), len(fleet.loads), len(got)))
        for k, (c, t, m) in sorted(got.items(), key=lambda kv: -kv[1][1]):
            print('       %-48s %6d waits %13d ns  max %11d ns'
                  % (k[0] + (' (%s)' % k[1] if k[1] else ''), c, t, m))

    # per host: the merge of its reports
    rows = ch.query('SELECT host, reason, argument, count() AS waits, sum(dur_ns) '
                    'AS total_ns, max(dur_ns) AS max_ns FROM latencytop.waits WHERE '
                    'dropped IS NULL AND kernel_thread = 0 GROUP BY host, reason, argument')
    got = charged(rows, ('host', 'reason', 'argument'))
    per_host = {}
    for h in hosts:
        per_host[h] = cause_rows(fleet.merge('host-' + h, lambda hh, d, r, h=h: hh == h))
        g = {k[1:]: v for k, v in got.items() if k[0] == h}
        if same('host %s' % h, g, {k: tuple(v[:3]) for k, v in per_host[h].items()}):
            print('ok   host %-8s %d trace(s): %d causes, %d waits, %d ns, as merge\'s'
                  % (h, sum(1 for x in fleet.loads if x[0] == h), len(g),
                     sum(v[0] for v in g.values()), sum(v[1] for v in g.values())))

    # top-causes-per-host.sql: each host's first five of its merge
    rows = ch.query(sql('top-causes-per-host.sql'))
    for h in hosts:
        mine = [(r['reason'], r['argument'], r['waits'], r['total_ns'], r['max_ns'])
                for r in rows if r['host'] == h]
        want = sorted(((k[0], k[1], v[0], v[1], v[2]) for k, v in per_host[h].items()),
                      key=lambda x: (-x[3], x[0], x[1]))[:5]
        check(mine == want, 'top-causes-per-host.sql, %s: %s, merge %s' % (h, mine, want))
    print('ok   top-causes-per-host.sql: %d rows, each host\'s first five of its merge'
          % len(rows))

    # causes-per-kernel.sql: each release's merge
    rows = ch.query(sql('causes-per-kernel.sql'))
    kernels = sorted({kernel_of(r) for _, _, _, _, r in fleet.loads})
    for k in kernels:
        m = cause_rows(fleet.merge('kernel-' + k, lambda h, d, r, k=k: kernel_of(r) == k))
        hosts_of = collections.defaultdict(set)
        for h, d, t, j, r in fleet.loads:
            if kernel_of(r) == k:
                for x in r['global']:
                    hosts_of[(x['reason'], x['argument'])].add(h)
        got = {(r['reason'], r['argument']): (r['hosts'], r['waits'], r['total_ns'], r['max_ns'])
               for r in rows if r['kernel'] == k}
        want = {c: (len(hosts_of[c]), v[0], v[1], v[2]) for c, v in m.items()}
        order = [(r['reason'], r['argument']) for r in rows if r['kernel'] == k]
        check(order == sorted(want, key=lambda c: (-want[c][2], c[0], c[1])),
              'causes-per-kernel.sql, %s: not by total' % k)
        if same('causes-per-kernel.sql, %s' % k, got, want):
            print('ok   causes-per-kernel.sql, %-22s %d causes, %d waits, %d ns, as merge\'s'
                  % (k, len(got), sum(v[1] for v in got.values()),
                     sum(v[2] for v in got.values())))

    # regressions.sql: the last two days' merges
    if check(len(days) >= 2, 'traces of %d days: no regression to look for' % len(days)):
        before = cause_rows(fleet.merge('day-' + days[-2], lambda h, d, r: d == days[-2]))
        after = cause_rows(fleet.merge('day-' + days[-1], lambda h, d, r: d == days[-1]))

        def hosts_on(day, c):
            return len({h for h, d, t, j, r in fleet.loads if d == day and
                        any((x['reason'], x['argument']) == c for x in r['global'])})
        want = []
        for c in set(before) | set(after):
            b, a = before.get(c, [0, 0]), after.get(c, [0, 0])
            if a[1] > b[1]:
                want.append((c[0], c[1], days[-2], days[-1], b[0], a[0], b[1], a[1],
                             a[1] - b[1], hosts_on(days[-2], c), hosts_on(days[-1], c)))
        want.sort(key=lambda x: (-x[8], x[0], x[1]))
        want = want[:20]
        rows = ch.query(sql('regressions.sql'))
        got = [(r['reason'], r['argument'], r['before_day'], r['after_day'],
                r['waits_before'], r['waits_after'], r['total_ns_before'],
                r['total_ns_after'], r['change_ns'], r['hosts_before'], r['hosts_after'])
               for r in rows]
        if check(got == want, 'regressions.sql: %d rows, %d from the merges; first '
                 'different: %s / %s' % (len(got), len(want),
                                         next((g for g, w in zip(got, want) if g != w), None),
                                         next((w for g, w in zip(got, want) if g != w), None))):
            print('ok   regressions.sql, %s to %s: %d causes grew, as the two days\' merges say:'
                  % (days[-2], days[-1], len(got)))
            for g in got[:8]:
                print('       %-48s %13d ns -> %13d ns (%+d)' % (g[0], g[6], g[7], g[8]))

    # cause-quantiles.sql: exact nearest ranks, in the report's buckets
    rows = ch.query(sql('cause-quantiles.sql'))
    n = worst = 0
    for r in rows:
        c = (r['reason'], r['argument'])
        w = want_all.get(c)
        if not check(w is not None, 'cause-quantiles.sql: %r not in the merge' % (c,)):
            continue
        check((r['waits'], r['max_ns']) == (w[0], w[2]),
              'cause-quantiles.sql, %r: %d waits, max %d; merge %d, %d'
              % (c, r['waits'], r['max_ns'], w[0], w[2]))
        if len(w[3]) != 1:
            continue    # rows of two kinds: their histograms apart
        x = w[3][0]
        for q, col in ((0.50, 'p50_ns'), (0.90, 'p90_ns'), (0.99, 'p99_ns')):
            exact, approx = r[col], x[col]
            if rank(r['waits'], q) >= r['waits']:
                ok = approx == exact    # the last rank: the max itself
            else:
                ok = bucket(approx) == bucket(exact)
            check(ok, 'cause-quantiles.sql, %r %s: exact %d, report %d (buckets %d, %d)'
                  % (c, col, exact, approx, bucket(exact), bucket(approx)))
            n += 1
            if exact:
                worst = max(worst, abs(approx - exact) / exact)
    print('ok   cause-quantiles.sql: %d causes, counts and maxima as merge\'s, %d '
          'percentiles in the merged histogram\'s buckets (at most %.2f%% apart)'
          % (len(rows), n, 100 * worst))

    # per cgroup (a perf.data of --all-cgroups names them): the charged
    # waits of the Distributed table against the merge's processes there
    # (an alias named as the column would stand for it in WHERE too)
    rows = ch.query('SELECT assumeNotNull(cgroup) AS path, count() AS waits, '
                    'sum(dur_ns) AS total_ns, max(dur_ns) AS max_ns '
                    'FROM latencytop.waits WHERE dropped IS NULL AND '
                    'cgroup IS NOT NULL GROUP BY path')
    got = {r['path']: (int(r['waits']), int(r['total_ns']), int(r['max_ns']))
           for r in rows}
    want = {}
    for p in everything['processes']:
        if p.get('cgroup') is None or not p['reasons']:
            continue
        a = want.setdefault(p['cgroup'], [0, 0, 0])
        a[0] += sum(x['count'] for x in p['reasons'])
        a[1] += sum(x['total_ns'] for x in p['reasons'])
        a[2] = max([a[2]] + [x['max_ns'] for x in p['reasons']])
    want = {k: tuple(v) for k, v in want.items()}
    if check(len(want) > 1, 'cgroups in the merge: %s' % sorted(want)) and \
            same('per cgroup', got, want):
        print('ok   per cgroup: %d cgroups, %s, as the merge\'s processes'
              % (len(got), ', '.join('%s %d waits' % (k, v[0])
                                     for k, v in sorted(got.items()))))

    # stacks: every one a wait names was loaded
    named = ch.query('SELECT host, trace_id, groupUniqArray(assumeNotNull(stack_id)) '
                     'AS ids FROM latencytop.waits WHERE stack_id IS NOT NULL '
                     'GROUP BY host, trace_id')
    have = {(r['host'], r['trace_id']): set(r['ids']) for r in
            ch.query('SELECT host, trace_id, groupUniqArray(stack_id) AS ids '
                     'FROM latencytop.stacks GROUP BY host, trace_id')}
    missing = [(r['host'], r['trace_id']) for r in named
               if not set(r['ids']) <= have.get((r['host'], r['trace_id']), set())]
    if check(not missing, 'stacks missing for %s' % missing):
        print('ok   stacks: the %d stacks the waits of %d traces name are all loaded'
              % (sum(len(r['ids']) for r in named), len(named)))

    if FAILS:
        print('check-clickhouse: %d of %d checks failed' % (len(FAILS), CHECKS[0]))
        sys.exit(1)
    print('check-clickhouse: %d checks passed' % CHECKS[0])


if __name__ == '__main__':
    main()
