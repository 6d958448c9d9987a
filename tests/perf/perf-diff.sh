#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# perf-diff.sh DUMP WORKDIR FILE... - our reader against perf itself.
#
# For each perf.data: the samples (time, CPU, task, event, every field,
# the callchain) as perf-script-dump.py prints them through `perf script
# -s`, against lt-perf-dump --chain; and every record's time, kind and
# task in the order `perf script --show-task-events --show-mmap-events
# --show-lost-events` gives them, against lt-perf-dump --all.  Both must
# be the same line for line.  Skipped (77) without perf or its Python.
set -u
DUMP=$1
WORK=$2
shift 2
HERE=$(cd "$(dirname "$0")" && pwd)

if ! command -v perf > /dev/null 2>&1; then
	echo "SKIP: perf is not installed"
	exit 77
fi
mkdir -p "$WORK"
fail=0
n=0
for f in "$@"; do
	b=$WORK/$(basename "$f")
	# -f: the files belong to whoever checked them out
	if ! perf script -f -i "$f" -s "$HERE/perf-script-dump.py" chain \
		> "$b.perf" 2> "$b.perf.err"; then
		if [ $n -eq 0 ] && grep -qi python "$b.perf.err"; then
			echo "SKIP: perf cannot run Python scripts"
			exit 77
		fi
		echo "$f: perf script failed:"
		head -3 "$b.perf.err"
		fail=1
		continue
	fi
	"$DUMP" --chain "$f" > "$b.ours" || fail=1
	if ! cmp -s "$b.perf" "$b.ours"; then
		echo "$f: samples differ (perf <, ours >):"
		diff "$b.perf" "$b.ours" | head -6 | cut -c1-240
		fail=1
	fi
	perf script -f -i "$f" --ns --show-task-events --show-mmap-events \
		--show-lost-events -F pid,tid,time,event 2> /dev/null |
		python3 "$HERE/perf-events.py" perf > "$b.perf-all"
	"$DUMP" --all "$f" | python3 "$HERE/perf-events.py" lt > "$b.ours-all"
	if ! cmp -s "$b.perf-all" "$b.ours-all"; then
		echo "$f: records differ in order or kind (perf <, ours >):"
		diff "$b.perf-all" "$b.ours-all" | head -6
		fail=1
	fi
	n=$((n + 1))
	echo "$f: $(wc -l < "$b.ours") samples, $(wc -l < "$b.ours-all") records: $([ $fail -eq 0 ] && echo same || echo checked)"
done
exit $fail
