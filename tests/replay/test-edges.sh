#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test-edges.sh LATENCY_ANALYZE MKTRACE OVERWRITTEN.trs CHECK_EDGES SAMPLES REAL
#
# No wait is charged unless the trace shows every CPU for its whole length
# (BRIEF rule 7):
#   1. overwritten.trs (CPU 1's oldest data overwritten, a gap of lost
#      events on CPU 0), in every file variant, one thread and several
#      reading a range per page: the numbers its comment works out by hand;
#   2. check-edges.py, which reads trace-cmd report and no analyzer code:
#      every worst occurrence in the reports of local-overwritten.dat
#      (recorded with 512 KB buffers, find and dd beside lt-workload) and
#      of every sample and real trace lies where the trace shows its task
#      not running and every CPU.
LA=$1 MK=$2 TRS=$3 EDGES=$4 SAMPLES=$5 REAL=$6
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

for v in 6 7; do
	for e in little big; do
		for l in 4 8; do
			f=$tmp/ow-v$v-$e-$l.dat
			python3 "$MK" "$TRS" -o "$f" --set version=$v --set endian=$e \
				--set long=$l || { echo "FAIL: mktrace $f"; fail=1; continue; }
			"$LA" -q -k --sleep-cutoff=0 --format=json "$f" >"$tmp/one.json"
			LT_RANGE_BYTES=1 "$LA" -q -j2 -k --sleep-cutoff=0 --format=json \
				"$f" >"$tmp/two.json"
			cmp -s "$tmp/one.json" "$tmp/two.json" ||
				{ echo "FAIL: $f: -j2 in page ranges differs from -j1"; fail=1; }
			python3 - "$tmp/one.json" "$f" <<'PY' || fail=1
import json, sys
r = json.load(open(sys.argv[1]))
name = sys.argv[2]
bad = []
def want(what, got, exp):
    if got != exp:
        bad.append("%s: got %r, want %r" % (what, got, exp))
t, d = r["trace"], r["dropped"]
want("complete_from_ns", t["complete_from_ns"], 1000)
want("lost_gaps", t["lost_gaps"], 1)
want("lost_events", t["lost_events"], 130)
# a's S wait and its wait for a CPU, a's preemption at 500, b's D wait
want("before_complete", (d["before_complete"], d["before_complete_ns"]),
     (4, 100 + 50 + 10 + 990))
want("across_lost_events", (d["across_lost_events"], d["across_lost_events_ns"]),
     (3, 1000 + 100 + 500))
want("discarded_after_lost_events", d["discarded_after_lost_events"], 1)
rows = {(p["pid"], x["reason"]): (x["count"], x["total_ns"], x["max_ns"])
        for p in r["processes"] for x in p["reasons"]}
want("rows", rows, {
    (42, "Unknown reason"): (2, 200 + 400, 400),
    (42, "Scheduler: waiting for cpu"): (2, 200, 100),
    (43, "Scheduler: waiting for cpu"): (1, 100, 100),
    (44, "Scheduler: waiting for cpu"): (1, 100, 100)})
for b in bad:
    print("FAIL %s: %s" % (name, b))
sys.exit(1 if bad else 0)
PY
		done
	done
done

# a real recording whose CPUs' oldest pages were overwritten: every CPU
# has data only from 485 ms in
python3 "$EDGES" --analyzer "$LA" --min-complete-ns 400000000 --sleep-cutoff-0 \
	"$SAMPLES/local-overwritten.dat"
rc=$?
[ $rc = 77 ] && exit 77
[ $rc = 0 ] || fail=1
python3 "$EDGES" --analyzer "$LA" "$SAMPLES"/*.dat "$REAL"/*.dat || fail=1
[ $fail = 0 ] && echo "test-edges: all passed"
exit $fail
