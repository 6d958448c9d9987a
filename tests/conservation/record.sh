#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Record the conservation cases (issue 47) into tests/data/conservation/:
#
#   stop.dat, stop.data   lt-stopload (stopload.c): two tasks stopped by
#                         SIGSTOP and one by ptrace, as trace.dat (tracefs)
#                         and perf.data (perf record -g -a), one run both ways
#   instance.dat          the same workload, its events in an instance
#                         buffer only (trace-cmd extract -B NAME)
#   two-buffers.dat       scheduler events in the top level and in an
#                         instance at once (trace-cmd extract -t -B NAME)
#
# usage: sudo tests/conservation/record.sh [OUTDIR]
# env:   CC, TRACE_CMD, PERF (default perf), LT_BUFFER_KB (record-lib.sh)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=${1:-$top/tests/data/conservation}
PERF=${PERF:-perf}
INSTANCE=lt-conserve
LT_BUFFER_KB=${LT_BUFFER_KB:-8192}
. "$top/tests/golden/record-lib.sh"

work=$(mktemp -d "${TMPDIR:-/tmp}/lt-conserve.XXXXXX")
trap 'rm -rf "$work"' EXIT
${CC:-cc} -O2 -Wall -o "$work/lt-stopload" "$here/stopload.c"
mkdir -p "$out"

# 1. the stops, both ways at once
lt_record "$out/stop.dat" 0 "$PERF" record -q -e sched:sched_switch \
	-e sched:sched_wakeup -g -a -o "$work/stop.data" -- "$work/lt-stopload"
mv "$work/stop.data" "$out/stop.data"

# 2. instance buffers: tracefs by hand, under the lock, left as found
inst=$LT_TRACEFS/instances/$INSTANCE
instance_off() {
	for ev in $LT_EVENTS; do
		[ -d "$inst" ] && echo 0 > "$inst/events/$ev/enable"
		echo 0 > "$LT_TRACEFS/events/$ev/enable"
	done
	[ -d "$inst" ] && rmdir "$inst"
	return 0
}

record_instance() {	# OUT TOP(0|1)
	(
		flock 9 || lt_die "cannot take $LT_LOCK"
		trap instance_off EXIT
		old_kb=$(sed 's/ .*//' "$LT_TRACEFS/buffer_size_kb")
		[ -d "$inst" ] && lt_die "$inst exists: someone else's?"
		mkdir "$inst"
		echo "$LT_BUFFER_KB" > "$inst/buffer_size_kb"
		echo > "$inst/trace"
		if [ "$2" = 1 ]; then
			echo "$LT_BUFFER_KB" > "$LT_TRACEFS/buffer_size_kb"
			echo > "$LT_TRACEFS/trace"
		fi
		for ev in $LT_EVENTS; do
			echo 1 > "$inst/events/$ev/enable"
			[ "$2" = 1 ] && echo 1 > "$LT_TRACEFS/events/$ev/enable"
		done
		"$work/lt-stopload"
		for ev in $LT_EVENTS; do
			echo 0 > "$inst/events/$ev/enable"
			echo 0 > "$LT_TRACEFS/events/$ev/enable"
		done
		if [ "$2" = 1 ]; then
			"$TRACE_CMD" extract -t -B "$INSTANCE" -o "$1" > "$work/extract.log" 2>&1
			echo > "$LT_TRACEFS/trace"
			echo "$old_kb" > "$LT_TRACEFS/buffer_size_kb"
		else
			"$TRACE_CMD" extract -B "$INSTANCE" -o "$1" > "$work/extract.log" 2>&1
		fi || { cat "$work/extract.log" >&2; lt_die "trace-cmd extract failed"; }
	) 9>"$LT_LOCK" || exit 1
	echo "wrote $1 ($(stat -c %s "$1") bytes)"
}

lt_tracefs_ready
record_instance "$out/instance.dat" 0
record_instance "$out/two-buffers.dat" 1
ls -l "$out"
