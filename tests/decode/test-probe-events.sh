#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The analyzer on latencytop events made by kprobes (probe-events.trs,
# written with tests/tools/mktrace.py as v6 and v7): the keys map back to
# the reasons, a wait goes to the outermost reason open, a restore of a
# reason set before the trace moves the earlier waits to it, a key no site
# has is kept as it is.  The figures are the ones worked out by hand in
# probe-events.trs; the same trace through trace-cmd report shows the keys.
#
# usage: test-probe-events.sh LATENCY_ANALYZE MKTRACE SCRIPT

set -u
LA=$1
MK=$2
SCRIPT=$3
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for v in 6 7; do
	f=$tmp/probes-v$v.dat
	python3 "$MK" "$SCRIPT" -o "$f" --set version=$v || { fail "mktrace v$v"; continue; }
	"$LA" -q --format=json "$f" > "$tmp/r.json" 2> "$tmp/err"
	rc=$?
	if [ $rc -ne 0 ]; then
		fail "v$v: latency-analyze exit $rc: $(cat "$tmp/err")"
		continue
	fi
	python3 - "$tmp/r.json" "v$v" <<'PY' && ok "v$v: the report's figures are the hand-worked ones" || fail "v$v: figures"
import json, sys
r = json.load(open(sys.argv[1]))
errors = []
want = {
    # comm: {reason: (count, total_ns, max_ns)}
    "writer": {"fsync system call": (1, 2000000, 2000000),
               "reading from a pipe": (1, 1000000, 1000000),
               "Unknown reason": (1, 1000000, 1000000),
               "Scheduler: waiting for cpu": (4, 1200000, 1000000)},
    "other": {"process exec": (1, 500000, 500000),
              "Unknown reason": (1, 400000, 400000),
              "Scheduler: waiting for cpu": (2, 150000, 100000)},
    "newkey": {"brand_new_reason": (1, 500000, 500000),
               "Scheduler: waiting for cpu": (1, 50000, 50000)},
}
procs = {p["comm"]: p for p in r["processes"]}
for comm, rows in want.items():
    p = procs.get(comm)
    if not p:
        errors.append("no process %s" % comm)
        continue
    got = {x["reason"]: (x["count"], x["total_ns"], x["max_ns"]) for x in p["reasons"]}
    if got != rows:
        errors.append("%s: %r, want %r" % (comm, got, rows))
for x in r["global"]:
    if x["reason"] in ("Waiting for buffer IO", "Sleeping (nanosleep)"):
        errors.append("%s charged: %r" % (x["reason"], x))
if r["dropped"].get("interruptible_over_cutoff") != 1:
    errors.append("dropped %r, want 1 (the 6 ms nanosleep)" % r["dropped"])
for e in errors:
    print("  " + sys.argv[2] + ": " + e)
sys.exit(1 if errors else 0)
PY
done

if command -v trace-cmd > /dev/null; then
	trace-cmd report -N -i "$tmp/probes-v6.dat" > "$tmp/report" 2>&1
	check "trace-cmd report reads the probe formats (key as the reason)" \
		grep -q 'latency_reason_set: *(ffffffff81401000) reason="fsync_system_call" maxtime_us=0' "$tmp/report"
	check "trace-cmd report: kretprobe restores" \
		grep -q 'latency_reason_restore: *(ffffffff81405000 <- ffffffff81000100) reason="reading_from_a_pipe"' "$tmp/report"
fi
finish
