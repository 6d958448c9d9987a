#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make-counts.sh FILE... - what perf itself counts in each perf.data, for
# check-counts.py to hold our reader to (tests/data/perf/counts.txt):
#   file NAME
#   record TYPE N      records of each type, from `perf report -D`
#                      (COMPRESSED ones from its sums)
#   sample EVENT N     samples of each event, from `perf script`
#   lost N             the sum of the LOST records' counts (perf report -D)
#   lost_cpu CPU N     the same for each CPU (-D's first column)
#   lost_samples N     the sum of the LOST_SAMPLES records' counts
# Needs perf; not run by the tests (the counts are committed).
set -e
for f in "$@"; do
	echo "file $(basename "$f")"
	perf report -f -i "$f" -D 2>/dev/null > "$f.D"
	grep -E '^-?[0-9]+ -?[0-9]+ (0x[0-9a-f]+|[0-9]+) \[0x[0-9a-f]+\]: PERF_RECORD_' "$f.D" |
		sed -E 's/.*PERF_RECORD_([A-Z_0-9]+).*/\1/' | sort | uniq -c |
		awk '{ print "record", $2, $1 }'
	# -D prints the records inside COMPRESSED ones, those only in its sums
	grep -E '^ *COMPRESSED events: *[0-9]+' "$f.D" | head -1 |
		awk '{ print "record COMPRESSED", $3 }'
	perf script -f -G -i "$f" -F event 2>/dev/null | sed 's/:[[:space:]]*$//' |
		sed 's/^[[:space:]]*//' | sort | uniq -c |
		awk '{ print "sample", $2, $1 }'
	grep -E 'PERF_RECORD_LOST: ' "$f.D" | sed -E 's/.*lost:([0-9]+).*/\1/' |
		awk '{ s += $1 } END { print "lost", s + 0 }'
	grep -E 'PERF_RECORD_LOST: ' "$f.D" |
		sed -E 's/^(-?[0-9]+) .*lost:([0-9]+).*/\1 \2/' |
		awk '{ s[$1] += $2 } END { for (c in s) print "lost_cpu", c, s[c] }' |
		sort
	grep -E 'PERF_RECORD_LOST_SAMPLES' "$f.D" |
		sed -E 's/.*:[[:space:]]*([0-9]+)[[:space:]]*$/\1/' |
		awk '{ s += $1 } END { print "lost_samples", s + 0 }'
	rm -f "$f.D"
done
